"""MONAI (medical imaging) networks for the zoo calibration: 2-D, tiny widths, random weights.

    pip install --no-deps monai==1.6.1        # needs numpy only (and torch, never reinstalled)
"""

PACKAGE = "monai"


def _img(c=1, s=32, b=2):
    import torch

    return torch.randn(b, c, s, s)


def _seg(net, c=1, s=32):
    return lambda mode: (net(), (_img(c, s),), {})


def _nets():
    import monai.networks.nets as n

    return n


MODELS = {
    "UNet": _seg(lambda: _nets().UNet(2, 1, 2, (8, 16, 32), (2, 2), num_res_units=1)),
    "BasicUNet": _seg(lambda: _nets().BasicUNet(2, 1, 2, features=(4, 4, 8, 8, 16, 4))),
    "BasicUNetPlusPlus": _seg(lambda: _nets().BasicUNetPlusPlus(2, 1, 2, features=(4, 4, 8, 8, 16, 4))),
    "AttentionUnet": _seg(lambda: _nets().AttentionUnet(2, 1, 2, (8, 16, 32), (2, 2))),
    "SegResNet": _seg(lambda: _nets().SegResNet(2, init_filters=8, in_channels=1, out_channels=2)),
    "SegResNetVAE": _seg(lambda: _nets().SegResNetVAE((32, 32), spatial_dims=2, init_filters=8, in_channels=1,
                                                      out_channels=2)),
    "SegResNetDS": _seg(lambda: _nets().SegResNetDS(2, init_filters=4, in_channels=1, out_channels=2,
                                                    blocks_down=(1, 1, 1))),
    "DynUNet": _seg(lambda: _nets().DynUNet(2, 1, 2, [3, 3, 3], [1, 2, 2], [2, 2], filters=[8, 16, 32],
                                            deep_supervision=False)),
    "UNETR": _seg(lambda: _nets().UNETR(1, 2, (32, 32), feature_size=4, hidden_size=32, mlp_dim=64,
                                        num_heads=2, spatial_dims=2)),
    "SwinUNETR": _seg(lambda: _nets().SwinUNETR(1, 2, feature_size=12, depths=(1, 1, 1, 1),
                                                num_heads=(1, 1, 1, 1), spatial_dims=2), s=64),
    "ViT": _seg(lambda: _nets().ViT(1, (32, 32), (8, 8), hidden_size=32, mlp_dim=64, num_layers=2, num_heads=2,
                                    spatial_dims=2, classification=True, num_classes=3)),
    "ViTAutoEnc": _seg(lambda: _nets().ViTAutoEnc(1, (32, 32), (4, 4), hidden_size=32, mlp_dim=64, num_layers=2,
                                                  num_heads=2, spatial_dims=2)),
    "VNet": _seg(lambda: _nets().VNet(2, 1, 2, dropout_dim=2), s=32),
    "DenseNet121": _seg(lambda: _nets().DenseNet(2, 1, 3, init_features=8, growth_rate=4, block_config=(1, 1))),
    "ResNet": _seg(lambda: _nets().ResNet("basic", [1, 1, 1, 1], [8, 8, 16, 16], spatial_dims=2, n_input_channels=1,
                                          num_classes=3)),
    "SENet": _seg(lambda: _nets().SENet(2, 1, "se_resnet_bottleneck", [1, 1, 1, 1], groups=1, reduction=4,
                                        inplanes=16, downsample_kernel_size=1, input_3x3=False, num_classes=3)),
    "EfficientNetBN": _seg(lambda: _nets().EfficientNetBN("efficientnet-b0", pretrained=False, spatial_dims=2,
                                                          in_channels=1, num_classes=3), s=32),
    "HighResNet": _seg(lambda: _nets().HighResNet(2, 1, 2)),
    "AutoEncoder": _seg(lambda: _nets().AutoEncoder(2, 1, 1, (4, 8), (2, 2))),
    "VarAutoEncoder": _seg(lambda: _nets().VarAutoEncoder(2, (1, 32, 32), 1, 4, (4, 8), (2, 2))),
    "Regressor": _seg(lambda: _nets().Regressor((1, 32, 32), (3,), (4, 8), (2, 2))),
    "Classifier": _seg(lambda: _nets().Classifier((1, 32, 32), 3, (4, 8), (2, 2))),
    "Discriminator": _seg(lambda: _nets().Discriminator((1, 32, 32), (4, 8), (2, 2))),
    "Generator": lambda mode: (_nets().Generator((16,), (8, 8, 8), (8, 1), (2, 2)),
                               (__import__("torch").randn(2, 16),), {}),
    "RegUNet": _seg(lambda: _nets().RegUNet(2, 1, 4, depth=2, out_channels=2)),
    "AHNet": _seg(lambda: _nets().AHNet(spatial_dims=2, in_channels=1, out_channels=2, psp_block_num=0,
                                        upsample_mode="transpose", pretrained=False), s=64),
    "FlexibleUNet": _seg(lambda: _nets().FlexibleUNet(1, 2, "efficientnet-b0", pretrained=False, spatial_dims=2,
                                                      decoder_channels=(16, 8, 8, 8, 8)), s=64),
    "DiNTS": _seg(lambda: _nets().DiNTS(_nets().TopologyInstance(channel_mul=0.25, num_blocks=2, num_depths=2,
                                                                 spatial_dims=2, use_downsample=True),
                                        in_channels=1, num_classes=2, spatial_dims=2)),
    "VQVAE": _seg(lambda: _nets().VQVAE(2, 1, 1, channels=(8, 8), num_res_channels=(8, 8), num_res_layers=1,
                                        downsample_parameters=((2, 4, 1, 1),) * 2,
                                        upsample_parameters=((2, 4, 1, 1, 0),) * 2, num_embeddings=16,
                                        embedding_dim=8)),
    "AutoencoderKL": _seg(lambda: _nets().AutoencoderKL(2, 1, 1, channels=(8, 8), latent_channels=2,
                                                        num_res_blocks=1, norm_num_groups=4,
                                                        attention_levels=(False, True))),
    "DiffusionModelUNet": lambda mode: (_nets().DiffusionModelUNet(2, 1, 1, num_res_blocks=1, channels=(8, 8),
                                                                   attention_levels=(False, True), norm_num_groups=4,
                                                                   num_head_channels=8),
                                        (_img(1, 16), __import__("torch").randint(0, 1000, (2,))), {}),
    "ControlNet": lambda mode: (_nets().ControlNet(2, 1, num_res_blocks=1, channels=(8, 8), attention_levels=(False, True),
                                                   norm_num_groups=4, num_head_channels=8,
                                                   conditioning_embedding_num_channels=(8,)),
                                (_img(1, 16), __import__("torch").randint(0, 1000, (2,)), _img(1, 16)), {}),
    "DecoderOnlyTransformer": lambda mode: (_nets().DecoderOnlyTransformer(32, 16, 16, 2, 2),
                                            (__import__("torch").randint(0, 32, (2, 16)),), {}),
    "PatchDiscriminator": _seg(lambda: _nets().PatchDiscriminator(2, 8, 1, num_layers_d=2)),
    "FullyConnectedNet": lambda mode: (_nets().FullyConnectedNet(8, 3, (16, 16), dropout=0.1),
                                       (__import__("torch").randn(4, 8),), {}),
    "VarFullyConnectedNet": lambda mode: (_nets().VarFullyConnectedNet(8, 8, 4, (16,), (16,)),
                                          (__import__("torch").randn(4, 8),), {}),
    "MaskedAutoEncoderViT": _seg(lambda: _nets().MaskedAutoEncoderViT(1, 32, 8, hidden_size=32, mlp_dim=32,
                                                                      num_layers=1, num_heads=2,
                                                                      decoder_hidden_size=16, decoder_mlp_dim=16,
                                                                      decoder_num_layers=1, decoder_num_heads=2,
                                                                      spatial_dims=2)),
    "Quicknat": _seg(lambda: _nets().Quicknat(num_classes=2, num_filters=8, se_block="CSE")),
    "GlobalNet": _seg(lambda: _nets().GlobalNet([32, 32], 2, 1, 4, 2)),
    "SegResNetDS2": _seg(lambda: _nets().SegResNetDS2(2, init_filters=8, in_channels=1, out_channels=2,
                                                      blocks_down=(1, 1, 1))),
}
