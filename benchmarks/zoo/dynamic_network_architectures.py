"""dynamic-network-architectures 0.4.4 (MIC-DKFZ, the networks nnU-Net builds from its plans): the
configurable U-Nets, their encoders, decoders and blocks, and the classification ResNet-D / VGG,
as nnU-Net's plans and the package's own ``__main__`` examples configure them, tiny (3-4 stages of
4-32 features, 2-D inputs of 1x32x32, anisotropic 3-D inputs of 1x8x16x16 with nnU-Net's
``[1, 3, 3]`` first kernel and ``[1, 2, 2]`` first stride, 1-D inputs of 32 samples, batch 2),
random weights, no download:

- ``PlainConvUNet`` (nnU-Net's default: InstanceNorm with ``affine=True``, LeakyReLU, conv bias)
  in 2-D and 3-D, with and without deep supervision, with BatchNorm + Dropout and
  ``nonlin_first=True``, and in 1-D (``Conv1d``, ``ConvTranspose1d``), each initialised by
  ``InitWeights_He`` as nnU-Net does (``net.apply(net.initialize)``);
- ``ResidualEncoderUNet`` (nnU-Net's ResEnc presets: ``BasicBlockD`` stages, also ``BottleneckD``
  with ``bottleneck_channels`` and ``stem_channels``, ``init_last_bn_before_add_to_0``) in 2-D and
  3-D with deep supervision, and ``ResidualUNet`` (residual decoder, ``UNetResDecoder``) in 2-D and
  3-D;
- the parts: ``PlainConvEncoder`` with max pooling (no skips returned), ``ResidualEncoder`` with
  average pooling, stochastic depth (``DropPath``: ``bernoulli_`` per sample in training) and
  squeeze-excitation, ``StackedResidualBlocks`` of ``BottleneckD`` with squeeze-excitation,
  ``BasicBlockD`` with stochastic depth in 3-D, ``StackedConvBlocks`` in 1-D with dropout,
  ``LayerNormNd``;
- ``ResNetD`` through a tiny config added to its ``_ResNet_CONFIGS`` (the ImageNet stem D, stochastic
  depth, squeeze-excitation, final dropout; a BottleneckD one in 3-D) and the shipped
  ``ResNet18_CIFAR`` (its own config, 16x16 inputs), ``VGG`` through a tiny config added to
  ``_VGG_CONFIGS`` (1-D) and the shipped ``VGG16_cifar``;
- the Primus patch front ends that need no timm: ``PatchEmbed`` then ``PatchDecode`` (3-D, patch
  8), ``PatchEmbed_deeper`` (residual basic blocks, plain conv blocks) and
  ``PatchEmbedDeeperControlled`` (with its learned-scale skip projections).

Eval: the segmentation (a list of them with deep supervision), the logits, the features.
Train: for the U-Nets nnU-Net's loss re-stated (its ``DC_and_CE_loss`` and
``DeepSupervisionWrapper`` live in nnunetv2, not in this package): soft Dice plus cross-entropy
against fixed labels, and with deep supervision the same at every output against the labels
downsampled to its size, weighted 1/2^i, normalised, the lowest resolution weighted 0; the
classifiers through cross-entropy (``classifier_loss_module``); the parts through the sum of the
means of their outputs (``mean_loss_module``).

    pip install --no-deps dynamic-network-architectures==0.4.4   # (+ numpy; einops, timm are unused here)

Its metadata requires einops, numpy and timm: numpy is imported by the paths used here (already
installed); einops and timm only by the Primus / EVA / DINOv2 modules (``architectures/primus.py``,
``architectures/dinov2_eva.py``, ``building_blocks/eva.py``), which no model here imports, so
neither is installed (timm is held out) and nothing is stubbed. Measured first as it came,
before any rule looked at it. Capture (torch 2.13.0+cpu): 26 models, 52 runs, all built and
captured, none failed under Dynamo, no graph break or recompile anywhere.

Left out: ``Primus``, ``Eva`` and the DINOv2/EVA encoders (``timm`` layers and ``EvaBlock`` at their
top: timm is held out); the ResNet/VGG presets other than ``ResNet18_CIFAR`` and ``VGG16_cifar``
(the same code at 64-2048 features, too big for a short capture); ``compute_conv_feature_map_size``
(nnU-Net's VRAM estimate, numpy arithmetic on Python ints outside any forward).
``PatchEmbed_deeper(embed_block_type="bottleneck")`` (residual style) does not build in 0.4.4: its
stem ``StackedResidualBlocks`` gets ``block=BottleneckD`` without ``bottleneck_channels`` (``TypeError:
unsupported operand type(s) for %: 'NoneType' and 'int'``).
"""

import functools

PACKAGE = "dynamic_network_architectures"
DISTRIBUTION = "dynamic-network-architectures"

mean_loss_module = classifier_loss_module = None  # adapter.py's, set by ZooSuite

_B, _CLASSES = 2, 3


def warm_up():
    import torch  # noqa: F401

    import dynamic_network_architectures.architectures.resnet  # noqa: F401
    import dynamic_network_architectures.architectures.unet  # noqa: F401
    import dynamic_network_architectures.architectures.vgg  # noqa: F401


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class DCandCELoss(nn.Module):
        """nnU-Net's ``DC_and_CE_loss`` (batch soft Dice without background, weight 1, plus
        cross-entropy, weight 1) and, for a list of outputs, its ``DeepSupervisionWrapper``
        (weights 1/2^i, the last 0, normalised) against labels downsampled to each output."""

        def __init__(self, net, labels):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.register_buffer("labels", labels)

        def dc_ce(self, logits, target):
            ce = F.cross_entropy(logits, target)
            probs = logits.softmax(1)
            onehot = F.one_hot(target, logits.shape[1]).movedim(-1, 1).to(probs.dtype)
            axes = [0, *range(2, logits.ndim)]
            tp = (probs * onehot).sum(axes)
            fp = (probs * (1 - onehot)).sum(axes)
            fn = ((1 - probs) * onehot).sum(axes)
            dc = (2 * tp + 1e-5) / (2 * tp + fp + fn + 1e-5).clamp_min(1e-8)
            return ce - dc[1:].mean()

        def forward(self, x):
            out = self.net(x)
            if not isinstance(out, (list, tuple)):
                return self.dc_ce(out, self.labels)
            weights = torch.tensor([1 / 2 ** i for i in range(len(out))])
            weights[-1] = 0
            weights = weights / weights.sum()
            total = 0
            for w, o in zip(weights, out):
                target = F.interpolate(self.labels[:, None].float(), size=o.shape[2:], mode="nearest")[:, 0].long()
                total = total + w * self.dc_ce(o, target)
            return total

    return {"DCandCELoss": DCandCELoss}


# --- configurations ---------------------------------------------------------------------------

def _ops(dim, norm="instance", dropout=False, nonlin="leaky"):
    """nnU-Net's conv/norm/nonlin kwargs for ``dim``-D."""
    from torch import nn

    conv = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}[dim]
    norm_op = {"instance": {1: nn.InstanceNorm1d, 2: nn.InstanceNorm2d, 3: nn.InstanceNorm3d},
               "batch": {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}}[norm][dim]
    out = dict(conv_op=conv, norm_op=norm_op, norm_op_kwargs={"eps": 1e-5, "affine": True},
               nonlin=nn.LeakyReLU if nonlin == "leaky" else nn.ReLU, nonlin_kwargs={"inplace": True})
    if dropout:
        out.update(dropout_op={1: nn.Dropout, 2: nn.Dropout2d, 3: nn.Dropout3d}[dim], dropout_op_kwargs={"p": 0.1})
    return out


def _geometry(dim):
    """(stages, features, kernels, strides, input shape) for a tiny ``dim``-D U-Net."""
    if dim == 3:  # anisotropic, as nnU-Net plans a thick-slice volume
        return (3, (4, 8, 16), [[1, 3, 3], [3, 3, 3], [3, 3, 3]], [[1, 1, 1], [1, 2, 2], [2, 2, 2]],
                (_B, 1, 8, 16, 16))
    if dim == 2:
        return 4, (4, 8, 16, 32), 3, (1, 2, 2, 2), (_B, 1, 32, 32)
    return 4, (4, 8, 16, 32), 3, (1, 2, 2, 2), (_B, 1, 32)


def _labels(shape):
    import torch

    return torch.randint(0, _CLASSES, (shape[0], *shape[2:]))


def _seg(net, mode, shape):
    import torch

    x = torch.randn(*shape)
    if mode == "train":
        return _modules()["DCandCELoss"](net, _labels(shape)), (x,), {}
    return net, (x,), {}


def _plain_unet(dim, ds=False, norm="instance", dropout=False, nonlin_first=False, nonlin="leaky"):
    def make(mode):
        from dynamic_network_architectures.architectures.unet import PlainConvUNet

        n, feats, kernels, strides, shape = _geometry(dim)
        net = PlainConvUNet(1, n, feats, kernel_sizes=kernels, strides=strides, n_conv_per_stage=2,
                            num_classes=_CLASSES, n_conv_per_stage_decoder=2, conv_bias=True,
                            deep_supervision=ds, nonlin_first=nonlin_first,
                            **_ops(dim, norm=norm, dropout=dropout, nonlin=nonlin))
        net.apply(net.initialize)
        return _seg(net, mode, shape)

    return make


def _res_unet(cls, dim, ds=False, bottleneck=False):
    def make(mode):
        from dynamic_network_architectures.architectures import unet
        from dynamic_network_architectures.building_blocks.residual import BasicBlockD, BottleneckD

        n, feats, kernels, strides, shape = _geometry(dim)
        if bottleneck:
            extra = dict(block=BottleneckD, bottleneck_channels=[f // 2 for f in feats], stem_channels=4)
        else:
            extra = dict(block=BasicBlockD)
        net = getattr(unet, cls)(1, n, feats, kernel_sizes=kernels, strides=strides,
                                 n_blocks_per_stage=[1, 2, 2, 2][:n], num_classes=_CLASSES,
                                 n_conv_per_stage_decoder=1, conv_bias=True, deep_supervision=ds,
                                 **_ops(dim), **extra)
        net.apply(net.initialize)
        return _seg(net, mode, shape)

    return make


# --- parts -------------------------------------------------------------------------------------

def _part(build, shape):
    def make(mode):
        import torch

        net = build()
        return (mean_loss_module()(net) if mode == "train" else net), (torch.randn(*shape),), {}

    return make


def _plain_encoder_maxpool():
    from dynamic_network_architectures.building_blocks.plain_conv_encoder import PlainConvEncoder

    return PlainConvEncoder(1, 4, (4, 8, 16, 32), kernel_sizes=3, strides=(1, 2, 2, 2), n_conv_per_stage=2,
                            return_skips=False, pool="max", **_ops(2, norm="batch", nonlin="relu"))


def _residual_encoder_avgpool():
    from dynamic_network_architectures.building_blocks.residual_encoders import ResidualEncoder

    return ResidualEncoder(1, 3, (8, 16, 16), kernel_sizes=3, strides=(1, 2, 2), n_blocks_per_stage=(1, 2, 2),
                           return_skips=True, pool_type="avg", stochastic_depth_p=0.2, squeeze_excitation=True,
                           squeeze_excitation_reduction_ratio=1 / 4, **_ops(2, norm="batch", nonlin="relu"))


def _stacked_bottleneck_se():
    from dynamic_network_architectures.building_blocks.residual import BottleneckD, StackedResidualBlocks

    return StackedResidualBlocks(2, **_ops(2), input_channels=8, output_channels=16,
                                 kernel_size=3, initial_stride=2, block=BottleneckD, bottleneck_channels=4,
                                 squeeze_excitation=True, squeeze_excitation_reduction_ratio=1 / 4)


def _basic_block_droppath_3d():
    from dynamic_network_architectures.building_blocks.residual import BasicBlockD

    return BasicBlockD(input_channels=4, output_channels=8, kernel_size=3, stride=(1, 2, 2),
                       stochastic_depth_p=0.3, **_ops(3, norm="batch"))


def _stacked_conv_1d():
    from dynamic_network_architectures.building_blocks.simple_conv_blocks import StackedConvBlocks

    return StackedConvBlocks(3, input_channels=2, output_channels=[4, 8, 8], kernel_size=5, initial_stride=2,
                             nonlin_first=True, **_ops(1, dropout=True))


def _layernorm_nd():
    from dynamic_network_architectures.building_blocks.patch_encode_decode import LayerNormNd

    return LayerNormNd(8)


def _patch_embed_decode():
    from torch import nn

    from dynamic_network_architectures.building_blocks.patch_encode_decode import PatchDecode, PatchEmbed

    return nn.Sequential(PatchEmbed((8, 8, 8), input_channels=1, embed_dim=32), PatchDecode((8, 8, 8), 32, 2))


def _patch_embed_deeper(block_type="basic", style="residual"):
    def build():
        from dynamic_network_architectures.building_blocks.patch_encode_decode import PatchEmbed_deeper

        return PatchEmbed_deeper(input_channels=1, embed_dim=32, base_features=8, depth_per_level=(1, 2),
                                 embed_block_type=block_type, embed_block_style=style)

    return build


def _patch_embed_controlled():
    from dynamic_network_architectures.building_blocks.patch_encode_decode import PatchEmbedDeeperControlled

    return PatchEmbedDeeperControlled(input_channels=1, embed_dim=32, depth_per_level=(1, 1, 1),
                                      ch_per_level=(4, 8, 16, 32), add_skips=True)


# --- classifiers -----------------------------------------------------------------------------

def _register_tiny():
    from dynamic_network_architectures.architectures import resnet, vgg
    from dynamic_network_architectures.building_blocks.residual import BasicBlockD, BottleneckD

    resnet._ResNet_CONFIGS.setdefault("tiny", {
        "features_per_stage": (8, 16, 32), "n_blocks_per_stage": (1, 2, 1), "strides": (1, 2, 2),
        "block": BasicBlockD, "bottleneck_channels": None, "disable_default_stem": True, "stem_channels": None})
    resnet._ResNet_CONFIGS.setdefault("tiny_bn", {
        "features_per_stage": (16, 32, 64), "n_blocks_per_stage": (1, 1, 1), "strides": (1, 2, 2),
        "block": BottleneckD, "bottleneck_channels": (4, 8, 16), "disable_default_stem": False, "stem_channels": 8})
    vgg._VGG_CONFIGS.setdefault("tiny", {"features_per_stage": (4, 8, 16), "n_conv_per_stage": (1, 2, 2),
                                         "strides": (1, 2, 2)})


def _classifier(build, shape):
    def make(mode):
        import torch

        _register_tiny()
        net = build()
        x = torch.randn(*shape)
        if mode == "train":
            return classifier_loss_module()(net, shape[0], _CLASSES), (x,), {}
        return net, (x,), {}

    return make


def _resnet_tiny():
    from dynamic_network_architectures.architectures.resnet import ResNetD

    return ResNetD(_CLASSES, 3, config="tiny", input_dimension=2, final_layer_dropout=0.2, stochastic_depth_p=0.1,
                   squeeze_excitation=True, squeeze_excitation_rd_ratio=1 / 4)


def _resnet_tiny_bottleneck_3d():
    from dynamic_network_architectures.architectures.resnet import ResNetD

    return ResNetD(_CLASSES, 1, config="tiny_bn", input_dimension=3)


def _resnet18_cifar():
    from dynamic_network_architectures.architectures.resnet import ResNet18_CIFAR

    return ResNet18_CIFAR(_CLASSES, 3)


def _vgg_tiny_1d():
    from dynamic_network_architectures.architectures.vgg import VGG

    return VGG(_CLASSES, 2, config="tiny", input_dimension=1)


def _vgg16_cifar():
    from dynamic_network_architectures.architectures.vgg import VGG16_cifar

    return VGG16_cifar(_CLASSES, 3)


MODELS = {
    # --- U-Nets (train: Dice + CE, deep supervision weighted over the outputs) ---
    "PlainConvUNet_2d": _plain_unet(2),
    "PlainConvUNet_2d_ds": _plain_unet(2, ds=True),
    "PlainConvUNet_3d": _plain_unet(3),
    "PlainConvUNet_3d_ds": _plain_unet(3, ds=True),
    "PlainConvUNet_2d_bn_dropout_nonlin_first": _plain_unet(2, norm="batch", dropout=True, nonlin_first=True,
                                                            nonlin="relu"),
    "PlainConvUNet_1d": _plain_unet(1),
    "ResidualEncoderUNet_2d": _res_unet("ResidualEncoderUNet", 2),
    "ResidualEncoderUNet_2d_bottleneck_ds": _res_unet("ResidualEncoderUNet", 2, ds=True, bottleneck=True),
    "ResidualEncoderUNet_3d_ds": _res_unet("ResidualEncoderUNet", 3, ds=True),
    "ResidualUNet_2d": _res_unet("ResidualUNet", 2),
    "ResidualUNet_3d_ds": _res_unet("ResidualUNet", 3, ds=True),
    # --- encoders and blocks ---
    "PlainConvEncoder_maxpool": _part(_plain_encoder_maxpool, (_B, 1, 32, 32)),
    "ResidualEncoder_avgpool_se_droppath": _part(_residual_encoder_avgpool, (_B, 1, 32, 32)),
    "StackedResidualBlocks_bottleneck_se": _part(_stacked_bottleneck_se, (_B, 8, 16, 16)),
    "BasicBlockD_droppath_3d": _part(_basic_block_droppath_3d, (_B, 4, 4, 8, 8)),
    "StackedConvBlocks_1d_dropout": _part(_stacked_conv_1d, (_B, 2, 32)),
    "LayerNormNd": _part(_layernorm_nd, (_B, 8, 4, 4, 4)),
    # --- Primus patch front ends (no timm) ---
    "PatchEmbed_PatchDecode": _part(_patch_embed_decode, (_B, 1, 16, 16, 16)),
    "PatchEmbed_deeper_basic": _part(_patch_embed_deeper(), (_B, 1, 16, 16, 16)),
    "PatchEmbed_deeper_conv": _part(_patch_embed_deeper(style="conv"), (_B, 1, 16, 16, 16)),
    "PatchEmbedDeeperControlled": _part(_patch_embed_controlled, (_B, 1, 16, 16, 16)),
    # --- classifiers (train: cross-entropy) ---
    "ResNetD_tiny_se_droppath": _classifier(_resnet_tiny, (_B, 3, 32, 32)),
    "ResNetD_tiny_bottleneck_3d": _classifier(_resnet_tiny_bottleneck_3d, (_B, 1, 8, 8, 8)),
    "ResNet18_CIFAR": _classifier(_resnet18_cifar, (_B, 3, 16, 16)),
    "VGG_tiny_1d": _classifier(_vgg_tiny_1d, (_B, 2, 32)),
    "VGG16_cifar": _classifier(_vgg16_cifar, (_B, 3, 16, 16)),
}
