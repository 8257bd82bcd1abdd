"""torchcvnn 0.10.0: complex-valued layers, activations, normalisations, attention, transformers
and ViT builders (``torchcvnn.nn``, ``torchcvnn.models``), tiny configs, random weights, no
download, fed complex64 random inputs (``torch.randn(..., dtype=torch.complex64)``) as the
library's tests (tests/test_*.py of the torchcvnn repository) and its examples repository
(torchcvnn/examples) feed them:

- activations (each after a complex ``nn.Linear(8, 8, dtype=complex64)``, as the examples use
  them between complex layers): ``CReLU``, ``CPReLU``, ``CELU``, ``CCELU``, ``CGELU``,
  ``CSigmoid``, ``CTanh``, ``zReLU``, ``zAbsReLU``, ``zLeakyReLU``, ``Mod`` (real output),
  ``modReLU``, ``Cardioid``;
- layers: ``Dropout``, ``Dropout2d``, ``BatchNorm1d`` (B, C), ``BatchNorm2d`` (B, C, H, W; and
  ``track_running_stats=False`` as the MSTAR example's conv stem), ``LayerNorm`` (NLP (B, T, D)
  and image [C, H, W] shapes of test_nn_normalization), ``RMSNorm``, ``MaxPool2d``,
  ``AvgPool2d``, ``AdaptiveAvgPool2d``, ``ConvTranspose2d``, ``Upsample`` (nearest; bilinear in the U-Net);
- attention / transformers: ``MultiheadAttention`` (self-attention with the weights returned,
  sequence first; cross-attention ``batch_first=True`` with ``need_weights=False``; dropout 0.1),
  ``TransformerEncoderLayer`` (post-norm, sequence first; pre-norm ``batch_first`` with a
  ``modReLU`` feed-forward), ``TransformerEncoder`` (2 layers and a final ``LayerNorm``),
  ``TransformerDecoderLayer``, ``TransformerDecoder`` (2 pre-norm layers), ``Transformer``
  (2 + 2 layers, sequence first; 1 + 1 ``batch_first``);
- ViT: ``ViTLayer``, ``ViT`` over test_vit's conv patch embedding (complex ``nn.Conv2d``,
  ``LayerNorm``, ``Flatten``, a transposer), ``models.vit_t`` over test_vit's ``PatchEmbedder``
  (the ``vit_*`` builders differ only in width / depth);
- the examples' models, copied as a user writes them: mnist_conv/mnist.py's ``cMNISTModel``
  conv net (complex ``Conv2d`` + ``BatchNorm2d`` + ``Cardioid`` + ``AvgPool2d`` blocks, a complex
  MLP head and ``Mod``), mnist_conv/vit_mnist.py's ``Model`` (a real ``nn.RMSNorm`` / ``Conv2d``
  patch embedder, ``torch.fft.fft2``, a complex RoPE-like positional embedding, ``c_nn.ViT`` with
  ``RMSNorm``, a ``Linear`` + ``Mod`` head; its embedder's output flattened to (B, patches, dim)
  as test_vit's is: the example's 4-d map fails eagerly in 0.10.0's ``MultiheadAttention``), mstar_classification's ``VisionTransformer``
  (``Image2Patch``, its own complex ``Attention`` with ``RMSNorm`` q / k norms, ``CGELU``,
  ``Dropout``) and its hybrid variant (``ConvStem``: strided complex convs, ``BatchNorm2d``
  without running stats, ``modReLU``), each wrapped in ``nn.Sequential(model, c_nn.Mod())`` as
  its ``configure_model`` does, and polsf_unet's complex U-Net (``DoubleConv`` / ``Down`` /
  ``Up`` / ``OutConv``, ``modReLU``, ``BatchNorm2d(track_running_stats=False)``, ``Dropout2d``;
  strided-conv downsampling with ``Upsample``, as its config.yml, and ``MaxPool2d`` with
  ``ConvTranspose2d``).

Sizes: batch 2-4, sequences of 5-7 tokens, embeddings 8-16, images 8x8 to 28x28.

Eval: the module's output as the library returns it. Train: the loss a user's training step
computes on it: the library's own ``ComplexMSELoss`` (mean of ``|target - output|^2``) against
a fixed complex random target of the output's shape (a tuple's first element) for complex
outputs; for real outputs (``Mod``, the classifiers ending in ``Mod``) the examples'
``nn.CrossEntropyLoss`` against fixed labels (``classifier_loss_module``), the U-Net's
``softmax(|logits|)`` then NLL of its log as polsf_unet's utils.train_epoch + FocalLoss do
(without the focal term), and ``mean_loss_module`` for ``Mod`` alone.

    pip install --no-deps torchcvnn==0.10.0

``torchcvnn``, ``torchcvnn.nn`` and ``torchcvnn.models`` import only torch (its declared
dependencies numpy, requests, tqdm, pillow, scipy, h5py, huggingface-hub serve
``torchcvnn.datasets`` and ``torchcvnn.transforms``, neither imported here; numpy / pillow /
requests / tqdm / scipy were already installed, h5py and huggingface-hub are not needed).
Nothing stubbed: ``torchcvnn/__init__`` imports no submodule, and ``torchcvnn.datasets`` (which
may import torchvision) is never imported.

Left out: ``torchcvnn.datasets`` (files / downloads; may import torchvision), ``torchcvnn.transforms``
(numpy / PIL data preprocessing), ``nn.init`` (weight initialisers, used at build time by the
modules themselves), ``models.vit_s`` / ``vit_b`` / ``vit_l`` / ``vit_h`` (the same ``ViT`` as
``vit_t``, 4 to 100 times the weights: too slow to build for the zoo), ``LayerNorm(bias=False)``
/ ``elementwise_affine=False`` and ``RMSNorm(elementwise_affine=False)`` (fail eagerly in
0.10.0: ``reset_parameters`` zero-fills a ``None`` bias, ``forward`` multiplies by a ``None``
weight), the examples' Lightning / torchmetrics plumbing (``self.log``, accuracy), the ResNet18
MSTAR model (torchvision) and nir_cinejense (tinycudann).
"""

PACKAGE = "torchcvnn"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite

_CD = "complex64"


def warm_up():
    import torch  # noqa: F401

    import torchcvnn.models  # noqa: F401
    import torchcvnn.nn  # noqa: F401


def _c(*shape):
    import torch

    return torch.randn(*shape, dtype=torch.complex64)


# --- the losses --------------------------------------------------------------------------------

def _mse_train(net, target_shape):
    """A training step's loss: ``ComplexMSELoss`` between net's (first) output and a fixed target."""
    import torch
    import torchcvnn.nn as c_nn

    class ComplexMSETrain(torch.nn.Module):
        def __init__(self, net, target):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.loss = c_nn.ComplexMSELoss()
            self.register_buffer("target", target)

        def forward(self, *args, **kwargs):
            out = self.net(*args, **kwargs)
            if isinstance(out, (tuple, list)):
                out = out[0]
            return self.loss(out, self.target)

    return ComplexMSETrain(net, _c(*target_shape))


def _seg_train(net, batch, classes, size):
    """polsf_unet's utils.train_epoch: softmax over |logits| (float64), then the NLL of its log."""
    import torch
    import torch.nn.functional as F

    class SegmentationTrain(torch.nn.Module):
        def __init__(self, net, labels):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.softmax = torch.nn.Softmax(dim=1)
            self.register_buffer("labels", labels)

        def forward(self, x):
            pred_outputs = self.net(x)
            probs = self.softmax(torch.abs(pred_outputs).type(torch.float64))
            probs = torch.clamp(probs, min=1e-10, max=1.0)
            return F.nll_loss(torch.log(probs), self.labels)

    labels = torch.randint(0, classes, (batch, size, size))
    return SegmentationTrain(net, labels)


def _complex_out(net, args, out_shape, mode):
    if mode == "train":
        return _mse_train(net, out_shape), args, {}
    return net, args, {}


# --- activations -------------------------------------------------------------------------------

def _act(name):
    def make(mode):
        import torch
        import torchcvnn.nn as c_nn

        net = torch.nn.Sequential(torch.nn.Linear(8, 8, dtype=torch.complex64), getattr(c_nn, name)())
        x = _c(4, 8)
        if name == "Mod":
            return (mean_loss_module()(net) if mode == "train" else net), (x,), {}
        return _complex_out(net, (x,), (4, 8), mode)

    return make


_ACTS = ["CReLU", "CPReLU", "CELU", "CCELU", "CGELU", "CSigmoid", "CTanh", "zReLU", "zAbsReLU",
         "zLeakyReLU", "Mod", "modReLU", "Cardioid"]


# --- layers ------------------------------------------------------------------------------------

def _dropout(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Linear(8, 8, dtype=torch.complex64), c_nn.Dropout(0.5))
    return _complex_out(net, (_c(4, 8),), (4, 8), mode)


def _dropout2d(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Conv2d(3, 3, 3, padding=1, dtype=torch.complex64), c_nn.Dropout2d(0.5))
    return _complex_out(net, (_c(2, 3, 5, 6),), (2, 3, 5, 6), mode)


def _batchnorm1d(mode):
    import torchcvnn.nn as c_nn

    return _complex_out(c_nn.BatchNorm1d(16), (_c(20, 16),), (20, 16), mode)


def _batchnorm2d(mode):
    import torchcvnn.nn as c_nn

    return _complex_out(c_nn.BatchNorm2d(8), (_c(4, 8, 6, 6),), (4, 8, 6, 6), mode)


def _batchnorm2d_nostats(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.BatchNorm2d(8, track_running_stats=False)
    return _complex_out(net, (_c(4, 8, 6, 6),), (4, 8, 6, 6), mode)


def _layernorm(mode):
    import torchcvnn.nn as c_nn

    return _complex_out(c_nn.LayerNorm(10), (_c(4, 5, 10),), (4, 5, 10), mode)


def _layernorm_image(mode):
    import torchcvnn.nn as c_nn

    return _complex_out(c_nn.LayerNorm([3, 6, 6]), (_c(4, 3, 6, 6),), (4, 3, 6, 6), mode)


def _rmsnorm(mode):
    import torchcvnn.nn as c_nn

    return _complex_out(c_nn.RMSNorm(10), (_c(4, 5, 10),), (4, 5, 10), mode)


def _maxpool2d(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Conv2d(1, 1, 3, padding=1, dtype=torch.complex64),
                              c_nn.MaxPool2d(kernel_size=2, stride=2, padding=0))
    return _complex_out(net, (_c(1, 1, 10, 10),), (1, 1, 5, 5), mode)


def _avgpool2d(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3, padding=1, dtype=torch.complex64),
                              c_nn.AvgPool2d(kernel_size=3, stride=1, padding=1))
    return _complex_out(net, (_c(2, 2, 10, 10),), (2, 3, 10, 10), mode)


def _adaptiveavgpool2d(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3, padding=1, dtype=torch.complex64),
                              c_nn.AdaptiveAvgPool2d(output_size=3))
    return _complex_out(net, (_c(2, 2, 10, 10),), (2, 3, 3, 3), mode)


def _convtranspose2d(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.ConvTranspose2d(4, 6, 3, stride=2)
    return _complex_out(net, (_c(2, 4, 5, 7),), (2, 6, 11, 15), mode)


def _upsample(mode):
    import torch
    import torchcvnn.nn as c_nn

    net = torch.nn.Sequential(torch.nn.Conv2d(2, 2, 1, dtype=torch.complex64),
                              c_nn.Upsample(scale_factor=2, mode="nearest"))
    return _complex_out(net, (_c(1, 2, 3, 3),), (1, 2, 6, 6), mode)



# --- attention and transformers ---------------------------------------------------------------

def _mha_self(mode):
    """test_transformer: self-attention, sequence first, ``(attn_output, attn_output_weights)``."""
    import torchcvnn.nn as c_nn

    net = c_nn.MultiheadAttention(embed_dim=16, num_heads=4)
    src = _c(7, 3, 16)
    return _complex_out(net, (src, src, src), (7, 3, 16), mode)


def _mha_cross_batch_first(mode):
    """test_nn_activation: batch first, target 5 / source 7 tokens, ``need_weights=False``."""
    import torchcvnn.nn as c_nn

    net = c_nn.MultiheadAttention(12, 3, batch_first=True)
    q, k, v = _c(3, 5, 12), _c(3, 7, 12), _c(3, 7, 12)
    if mode == "train":
        return _mse_train(net, (3, 5, 12)), (q, k, v), {"need_weights": False}
    return net, (q, k, v), {"need_weights": False}


def _mha_dropout(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.MultiheadAttention(16, 2, dropout=0.1)
    q, kv = _c(5, 2, 16), _c(7, 2, 16)
    if mode == "train":
        return _mse_train(net, (5, 2, 16)), (q, kv, kv), {"need_weights": False}
    return net, (q, kv, kv), {"need_weights": False}


def _encoder_layer(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32)
    return _complex_out(net, (_c(6, 3, 16),), (6, 3, 16), mode)


def _encoder_layer_prenorm(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, batch_first=True, norm_first=True,
                                       activation=c_nn.modReLU)
    return _complex_out(net, (_c(3, 6, 16),), (3, 6, 16), mode)


def _encoder(mode):
    import torchcvnn.nn as c_nn

    layer = c_nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32)
    net = c_nn.TransformerEncoder(layer, num_layers=2, norm=c_nn.LayerNorm(16))
    return _complex_out(net, (_c(6, 3, 16),), (6, 3, 16), mode)


def _decoder_layer(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32)
    tgt, memory = _c(7, 3, 16), _c(5, 3, 16)
    return _complex_out(net, (tgt, memory), (7, 3, 16), mode)


def _decoder(mode):
    import torchcvnn.nn as c_nn

    layer = c_nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32, norm_first=True)
    net = c_nn.TransformerDecoder(layer, num_layers=2)
    tgt, memory = _c(7, 3, 16), _c(5, 3, 16)
    return _complex_out(net, (tgt, memory), (7, 3, 16), mode)


def _transformer(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.Transformer(d_model=16, nhead=4, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=32)
    src, tgt = _c(5, 3, 16), _c(7, 3, 16)
    return _complex_out(net, (src, tgt), (7, 3, 16), mode)


def _transformer_batch_first(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.Transformer(d_model=16, nhead=4, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32,
                           batch_first=True)
    src, tgt = _c(3, 5, 16), _c(3, 7, 16)
    return _complex_out(net, (src, tgt), (3, 7, 16), mode)


# --- ViT -----------------------------------------------------------------------------------------

def _transposer():
    import torch.nn as nn

    class Transposer(nn.Module):
        def __init__(self, dim0, dim1):
            super().__init__()
            self.dim0 = dim0
            self.dim1 = dim1

        def forward(self, x):
            return x.transpose(self.dim0, self.dim1)

    return Transposer


def _vit_layer(mode):
    import torchcvnn.nn as c_nn

    net = c_nn.ViTLayer(num_heads=4, embed_dim=16, hidden_dim=32)
    return _complex_out(net, (_c(2, 9, 16),), (2, 9, 16), mode)


def _vit(mode):
    """test_vit.test_vit, smaller: a conv patch embedding, 2 layers."""
    import torch
    import torch.nn as nn
    import torchcvnn.nn as c_nn

    C, H, W, patch_size, embed_dim = 3, 16, 16, 4, 16
    patch_embedding = nn.Sequential(
        nn.Conv2d(C, embed_dim, kernel_size=patch_size, stride=patch_size, dtype=torch.complex64),
        c_nn.LayerNorm(embed_dim),
        nn.Flatten(2),
        _transposer()(1, 2),
    )
    net = c_nn.ViT(patch_embedding, num_layers=2, num_heads=4, embed_dim=embed_dim, hidden_dim=4 * embed_dim)
    return _complex_out(net, (_c(2, C, H, W),), (2, 16, embed_dim), mode)


def _patch_embedder_cls():
    import torch
    import torch.nn as nn
    import torchcvnn.nn as c_nn

    Transposer = _transposer()

    class PatchEmbedder(nn.Module):
        def __init__(self, image_size, cin, embed_dim, patch_size, norm_layer=c_nn.LayerNorm, device=None,
                     dtype=torch.complex64):
            super(PatchEmbedder, self).__init__()
            factory_kwargs = {"device": device, "dtype": dtype}
            if isinstance(image_size, int):
                image_size = (image_size, image_size)
            self.embedder = nn.Sequential(
                norm_layer([cin, *image_size], **factory_kwargs),
                nn.Conv2d(cin, embed_dim, kernel_size=patch_size, stride=patch_size, **factory_kwargs),
                norm_layer([embed_dim, image_size[0] // patch_size, image_size[1] // patch_size], **factory_kwargs),
                nn.Flatten(2),
                Transposer(1, 2),
            )

        def forward(self, x):
            return self.embedder(x)

    return PatchEmbedder


def _vit_t(mode):
    """test_vit.test_vit_bhl with ``vit_t`` (hidden 192, 12 layers, RMSNorm), patch 16 on 32x32."""
    import torchcvnn.models as c_models
    import torchcvnn.nn as c_nn

    H = W = 32
    embedder = _patch_embedder_cls()((H, W), 3, 192, 16, c_nn.LayerNorm)
    net = c_models.vit_t(embedder)
    return _complex_out(net, (_c(2, 3, H, W),), (2, 4, 192), mode)


# --- the examples' models ---------------------------------------------------------------------

def _cmnist_conv(mode):
    """mnist_conv/mnist.py's cMNISTModel.configure_model (two blocks of four, 16x16 inputs)."""
    import torch
    import torch.nn as nn
    import torchcvnn.nn as c_nn

    def conv_block(in_c, out_c, cdtype):
        return [
            nn.Conv2d(in_c, out_c, kernel_size=3, stride=1, padding=1, dtype=cdtype),
            c_nn.BatchNorm2d(out_c),
            c_nn.Cardioid(),
            nn.Conv2d(out_c, out_c, kernel_size=3, stride=1, padding=1, dtype=cdtype),
            c_nn.BatchNorm2d(out_c),
            c_nn.Cardioid(),
            c_nn.AvgPool2d(kernel_size=2, stride=2, padding=0),
        ]

    conv_model = nn.Sequential(*conv_block(1, 8, torch.complex64), *conv_block(8, 8, torch.complex64), nn.Flatten())
    lin_model = nn.Sequential(
        nn.Linear(8 * 4 * 4, 24, dtype=torch.complex64),
        c_nn.Cardioid(),
        nn.Linear(24, 10, dtype=torch.complex64),
        c_nn.Mod(),
    )
    net = nn.Sequential(conv_model, lin_model)
    x = torch.fft.fft(torch.randint(0, 256, (4, 1, 16, 16)).float())
    if mode == "train":
        return classifier_loss_module()(net, 4, 10), (x,), {}
    return net, (x,), {}


def _vit_mnist(mode):
    """mnist_conv/vit_mnist.py's Model: real embedder, fft2, complex positional embedding, ViT."""
    import torch
    import torch.nn as nn
    import torchcvnn.nn as c_nn

    class PatchEmbedder(nn.Module):
        def __init__(self, image_size, cin, hidden_dim, patch_size, norm_layer=c_nn.LayerNorm, device=None,
                     dtype=torch.complex64):
            super(PatchEmbedder, self).__init__()
            factory_kwargs = {"device": device, "dtype": dtype}
            if isinstance(image_size, int):
                image_size = (image_size, image_size)
            self.embedder = nn.Sequential(
                norm_layer([cin, *image_size], **factory_kwargs),
                nn.Conv2d(cin, hidden_dim, kernel_size=patch_size, stride=patch_size, **factory_kwargs),
                norm_layer([hidden_dim, image_size[0] // patch_size, image_size[1] // patch_size], **factory_kwargs),
            )

        def rope_embedding(self, H, W, hidden_dim, device):
            frequency_scale = 100
            pos_H = torch.arange(H, dtype=torch.float32, device=device)
            pos_W = torch.arange(W, dtype=torch.float32, device=device)
            theta_t = frequency_scale ** (
                torch.arange(0, hidden_dim, 2, dtype=torch.float32, device=device) / (hidden_dim / 2)
            )
            emb = torch.exp(1j * theta_t)
            emb_H = emb[:, None] ** pos_H[None, :]
            emb_W = emb[:, None] ** pos_W[None, :]
            embeddings = torch.zeros(hidden_dim, H, W, dtype=torch.complex64, device=device)
            embeddings[0::2, :, :] = emb_H[:, :, None]
            embeddings[1::2, :, :] = emb_W[:, None, :]
            return embeddings

        def forward(self, x):
            patch_embeddings = self.embedder(x)
            patch_embeddings = torch.fft.fft2(patch_embeddings)
            num_patches_H, num_patches_W = patch_embeddings.shape[2:]
            pos_emb = self.rope_embedding(num_patches_H, num_patches_W, patch_embeddings.shape[1], device=x.device)
            # (B, hidden_dim, nH, nW) -> (B, nH * nW, hidden_dim), as 0.10.0's ViT takes (the example
            # hands it the 4-d map, which MultiheadAttention rejects: "Expected batched tensors")
            return (patch_embeddings + pos_emb).flatten(2).transpose(1, 2)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            hidden_dim = 16
            embedder = PatchEmbedder(28, 1, hidden_dim, 7, norm_layer=nn.RMSNorm, dtype=torch.float32)
            self.backbone = c_nn.ViT(embedder, 2, 4, hidden_dim, 4 * hidden_dim, dropout=0.1, attention_dropout=0.1,
                                     norm_layer=c_nn.RMSNorm)
            self.head = nn.Sequential(nn.Linear(hidden_dim, 10, dtype=torch.complex64), c_nn.Mod())

        def forward(self, x):
            features = self.backbone(x)
            mean_features = features.mean(dim=1)
            return self.head(mean_features)

    net = Model()
    x = torch.randint(0, 256, (4, 1, 28, 28)).float()
    if mode == "train":
        return classifier_loss_module()(net, 4, 10), (x,), {}
    return net, (x,), {}


def _mstar_parts():
    import torch
    import torch.nn as nn
    import torchcvnn.nn as c_nn
    from torch import Tensor

    class Image2Patch(nn.Module):
        def __init__(self, patch_size: int, flatten_channels: bool = True):
            super().__init__()
            self.patch_size = patch_size
            self.flatten_channels = flatten_channels

        def forward(self, x: Tensor) -> Tensor:
            B, C, H, W = x.shape
            assert (
                H // self.patch_size != 0 and W // self.patch_size != 0
            ), f"Image height and width are {H, W}, which is not a multiple of the patch size"
            x = x.reshape(B, C, H // self.patch_size, self.patch_size, W // self.patch_size, self.patch_size)
            x = x.permute(0, 2, 4, 1, 3, 5)
            x = x.flatten(1, 2)
            if self.flatten_channels:
                return x.flatten(2, 4)
            else:
                return x

    class Attention(nn.Module):
        def __init__(self, embed_dim: int, num_heads: int) -> None:
            super().__init__()
            self.num_heads = num_heads
            self.head_dim = embed_dim // num_heads
            self.scale = self.head_dim**-0.5
            self.q_norm = c_nn.RMSNorm(self.head_dim)
            self.k_norm = c_nn.RMSNorm(self.head_dim)
            self.qkv = nn.Linear(embed_dim, embed_dim * 3, dtype=torch.complex64)

        def forward(self, x: Tensor) -> Tensor:
            B, N, _ = x.shape
            qkv = (
                self.qkv(x)
                .reshape(B, N, 3, self.num_heads, self.head_dim)
                .permute(2, 0, 3, 1, 4)
                .contiguous()
            )
            q, k, v = qkv.unbind(0)
            q, k = self.q_norm(q), self.k_norm(k)
            return self.scaled_dot_product_attention(q, k, v)

        def scaled_dot_product_attention(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
            out = ((q @ k.transpose(-2, -1).conj()).real * self.scale).softmax(dim=-1)
            return out.to(torch.complex64) @ v

    class Block(nn.Module):
        def __init__(self, embed_dim: int, hidden_dim: int, num_heads: int, dropout: float = 0.0) -> None:
            super().__init__()
            self.attn = Attention(embed_dim, num_heads)
            self.layer_norm = c_nn.RMSNorm(embed_dim)
            self.linear = nn.Sequential(
                nn.Linear(embed_dim, hidden_dim, dtype=torch.complex64),
                c_nn.CGELU(),
                c_nn.Dropout(dropout),
                nn.Linear(hidden_dim, embed_dim, dtype=torch.complex64),
                c_nn.Dropout(dropout),
            )

        def forward(self, x: Tensor) -> Tensor:
            B, N, C = x.shape
            attn = self.attn(x).transpose(1, 2).reshape(B, N, C)
            x = x + attn
            x = x + self.linear(self.layer_norm(x))
            return x

    class ConvStem(nn.Module):
        def __init__(self, in_channels, hidden_dim, patch_size):
            super().__init__()
            self.conv = nn.Sequential(
                nn.Conv2d(in_channels, hidden_dim // 2, kernel_size=7, stride=2, padding=3, dtype=torch.complex64),
                c_nn.BatchNorm2d(hidden_dim // 2, track_running_stats=False),
                c_nn.modReLU(),
                nn.Conv2d(hidden_dim // 2, hidden_dim, kernel_size=3, stride=patch_size // 2, padding=1,
                          dtype=torch.complex64),
                c_nn.BatchNorm2d(hidden_dim, track_running_stats=False),
                c_nn.modReLU(),
            )

        def forward(self, x):
            x = self.conv(x)
            x = x.flatten(2)
            x = x.transpose(1, 2)
            return x

    class VisionTransformer(nn.Module):
        def __init__(self, opt, num_classes: int) -> None:
            super().__init__()
            self.patch_size = opt.patch_size
            assert opt.input_size % opt.patch_size == 0, "Image size must be divisible by the patch size"
            self.num_patches = (opt.input_size // opt.patch_size) ** 2
            if "hybrid" in opt.model_type:
                self.patch_embedder = ConvStem(opt.num_channels, opt.hidden_dim, opt.patch_size)
                self.embed_dim = int(opt.num_channels * (opt.patch_size**2) / 2)
                input_layer_channels = opt.hidden_dim
            else:
                self.patch_embedder = Image2Patch(opt.patch_size)
                self.embed_dim = int(opt.hidden_dim / 2)
                input_layer_channels = opt.num_channels * (opt.patch_size**2)
            self.input_layer = nn.Linear(input_layer_channels, self.embed_dim, dtype=torch.complex64)
            self.transformer = nn.Sequential(
                *(Block(self.embed_dim, opt.hidden_dim, opt.num_heads, dropout=opt.dropout)
                  for _ in range(opt.num_layers))
            )
            self.mlp_head = nn.Sequential(
                c_nn.RMSNorm(self.embed_dim),
                nn.Linear(self.embed_dim, num_classes, dtype=torch.complex64),
            )
            self.dropout = c_nn.Dropout(opt.dropout)
            self.cls_token = nn.Parameter(torch.rand(1, 1, self.embed_dim, dtype=torch.complex64))
            self.pos_embedding = nn.Parameter(
                torch.rand(1, 1 + self.num_patches, self.embed_dim, dtype=torch.complex64)
            )

        def forward(self, x: Tensor) -> Tensor:
            x = self.patch_embedder(x)
            B, T, _ = x.shape
            x = self.input_layer(x)
            cls_token = self.cls_token.repeat(B, 1, 1)
            x = torch.cat([cls_token, x], dim=1)
            x = x + self.pos_embedding
            x = self.dropout(x)
            x = self.transformer(x)
            cls = x[:, 0]
            return self.mlp_head(cls)

    def init_weights(m: nn.Module) -> None:
        if isinstance(m, (nn.Linear, nn.Conv2d)):
            c_nn.init.complex_kaiming_normal_(m.weight)
            if m.bias is not None:
                m.bias.data.fill_(0.01)
        if isinstance(m, c_nn.BatchNorm2d):
            m.weight[:, 0, 0] = 1.0
            m.weight[:, 1, 1] = 1.0

    return VisionTransformer, init_weights


def _mstar(model_type):
    def make(mode):
        import types

        import torch
        import torch.nn as nn
        import torchcvnn.nn as c_nn

        VisionTransformer, init_weights = _mstar_parts()
        opt = types.SimpleNamespace(patch_size=4, input_size=16, hidden_dim=16, num_layers=2, num_heads=4,
                                    num_channels=1, dropout=0.3, attention_dropout=0.1, model_type=model_type)
        net = nn.Sequential(VisionTransformer(opt, 10), c_nn.Mod())
        with torch.no_grad():
            net.apply(init_weights)
        x = _c(4, 1, 16, 16)
        if mode == "train":
            return classifier_loss_module()(net, 4, 10), (x,), {}
        return net, (x,), {}

    return make


def _unet(downsampling, upsampling):
    """polsf_unet's DeepNeuralNetwork (models/parts.py, models/model.py), 2 levels, 16x16 tiles."""

    def make(mode):
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        import torchcvnn.nn.modules as c_nn

        class DoubleConv(nn.Module):
            def __init__(self, in_channels, out_channels, input_size, activation, normalization_method,
                         track_running_stats, dtype=torch.complex64, dropout=0, stride=1, mid_channels=None):
                super().__init__()
                if not mid_channels:
                    mid_channels = out_channels
                if stride == 1:
                    padding = "same"
                else:
                    padding = 1
                self.conv1 = nn.Conv2d(in_channels, mid_channels, kernel_size=3, stride=stride, padding=padding,
                                       bias=False, padding_mode="circular", dtype=dtype)
                if normalization_method == "BatchNorm":
                    self.normalization1 = c_nn.BatchNorm2d(mid_channels, cdtype=dtype,
                                                           track_running_stats=track_running_stats)
                elif normalization_method == "LayerNorm":
                    self.normalization1 = c_nn.LayerNorm(normalized_shape=(mid_channels, input_size, input_size))
                elif normalization_method is None:
                    self.normalization1 = nn.Identity()
                self.activation = activation
                self.conv2 = nn.Conv2d(mid_channels, out_channels, kernel_size=3, stride=1, padding=padding,
                                       bias=False, padding_mode="circular", dtype=dtype)
                if normalization_method == "BatchNorm":
                    self.normalization2 = c_nn.BatchNorm2d(num_features=out_channels, cdtype=dtype,
                                                           track_running_stats=track_running_stats)
                elif normalization_method == "LayerNorm":
                    self.normalization2 = c_nn.LayerNorm(normalized_shape=(out_channels, input_size, input_size))
                elif normalization_method is None:
                    self.normalization2 = nn.Identity()
                self.dropout = c_nn.Dropout2d(dropout)
                self.shortcut = nn.Sequential(
                    nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=stride, bias=False, padding=0,
                              padding_mode="circular", dtype=dtype),
                    self.normalization2,
                )

            def forward(self, x):
                identity = x
                out = self.activation(self.normalization1(self.conv1(x)))
                out = self.normalization2(self.conv2(out))
                out = self.dropout(out)
                identity = self.shortcut(identity)
                out += identity
                out = self.activation(out)
                return out

        class Down(nn.Module):
            def __init__(self, in_channels, out_channels, activation, input_size, normalization_method,
                         track_running_stats, downsampling_factor, dropout, downsampling_method=None, stride=1):
                super().__init__()
                if downsampling_method is None:
                    self.downsampling_method = None
                elif downsampling_method == "StridedConv":
                    self.downsampling_method = None
                    stride = downsampling_factor
                elif downsampling_method == "MaxPool":
                    self.downsampling_method = c_nn.MaxPool2d(downsampling_factor)
                elif downsampling_method == "AvgPool":
                    self.downsampling_method = c_nn.AvgPool2d(downsampling_factor, stride=downsampling_factor)
                input_size = input_size // downsampling_factor
                self.conv_layer = DoubleConv(in_channels=in_channels, out_channels=out_channels,
                                             activation=activation, input_size=input_size,
                                             normalization_method=normalization_method,
                                             track_running_stats=track_running_stats, stride=stride, dropout=dropout)

            def forward(self, x):
                if self.downsampling_method is not None:
                    x = self.downsampling_method(x)
                x = self.conv_layer(x)
                return x

        def concat(x1, x2):
            if x2 is None:
                return x1
            diffY = x2.size()[2] - x1.size()[2]
            diffX = x2.size()[3] - x1.size()[3]
            x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
            return torch.cat([x2, x1], dim=1)

        class Up(nn.Module):
            def __init__(self, in_channels, out_channels, activation, input_size, normalization_method,
                         track_running_stats, upsampling_factor, dropout, upsampling_method=None):
                super().__init__()
                if upsampling_method == "Upsample":
                    self.upsampling_method = c_nn.Upsample(scale_factor=upsampling_factor, mode="bilinear")
                elif upsampling_method == "ConvTranspose":
                    self.upsampling_method = c_nn.ConvTranspose2d(in_channels, out_channels, kernel_size=2,
                                                                  stride=upsampling_factor)
                    in_channels = out_channels
                input_size = input_size * upsampling_factor
                in_channels += out_channels
                self.conv_layer = DoubleConv(in_channels=in_channels, out_channels=out_channels,
                                             activation=activation, input_size=input_size,
                                             normalization_method=normalization_method,
                                             track_running_stats=track_running_stats, dropout=dropout)

            def forward(self, x1, x2=None):
                x1 = self.upsampling_method(x1)
                x = concat(x1, x2)
                x = self.conv_layer(x)
                return x

        class OutConv(nn.Module):
            def __init__(self, in_channels, out_channels):
                super(OutConv, self).__init__()
                self.conv = nn.Sequential(
                    nn.Conv2d(in_channels=in_channels, out_channels=out_channels, kernel_size=1,
                              dtype=torch.complex64),
                )

            def forward(self, x):
                return self.conv(x)

        class DeepNeuralNetwork(nn.Module):
            def __init__(self, num_channels, num_layers, channels_ratio, input_size, activation,
                         normalization_method, track_running_stats, downsampling_method, upsampling_method, dropout,
                         num_classes=None):
                super(DeepNeuralNetwork, self).__init__()
                current_channels = channels_ratio
                self.encoder_layers = []
                self.bridge_layers = []
                self.decoder_layers = []
                self.encoder_layers.append(
                    DoubleConv(in_channels=num_channels, out_channels=current_channels, activation=activation,
                               normalization_method=normalization_method, track_running_stats=track_running_stats,
                               input_size=input_size)
                )
                for i in range(1, num_layers + 1):
                    out_channels = channels_ratio * 2**i
                    layer = Down(in_channels=current_channels, out_channels=out_channels, activation=activation,
                                 input_size=input_size, normalization_method=normalization_method,
                                 track_running_stats=track_running_stats, downsampling_method=downsampling_method,
                                 dropout=dropout, downsampling_factor=2)
                    (self.encoder_layers if i < num_layers else self.bridge_layers).append(layer)
                    input_size //= 2
                    current_channels = out_channels
                self.encoder_block = nn.Sequential(*self.encoder_layers)
                self.bridge_block = nn.Sequential(*self.bridge_layers)
                for i in range(num_layers - 1, -1, -1):
                    out_channels = channels_ratio * 2**i
                    self.decoder_layers.append(
                        Up(in_channels=current_channels, out_channels=out_channels, activation=activation,
                           input_size=input_size, normalization_method=normalization_method,
                           track_running_stats=track_running_stats, upsampling_method=upsampling_method,
                           dropout=dropout, upsampling_factor=2)
                    )
                    input_size *= 2
                    current_channels = out_channels
                self.decoder_layers.append(OutConv(in_channels=current_channels, out_channels=num_classes))
                self.decoder_block = nn.Sequential(*self.decoder_layers)

            def forward(self, x):
                list_skip_connections = []
                for enc in self.encoder_block:
                    x = enc(x)
                    list_skip_connections.append(x)
                x = self.bridge_block(x)
                list_skip_connections = list_skip_connections[::-1]
                for idx, dec in enumerate(self.decoder_block):
                    if isinstance(dec, Up):
                        skip = list_skip_connections[idx]
                        x = dec(x, skip)
                    else:
                        x = dec(x)
                return x

        net = DeepNeuralNetwork(num_channels=3, num_layers=2, channels_ratio=4, input_size=16,
                                activation=c_nn.modReLU(), normalization_method="BatchNorm",
                                track_running_stats=False, downsampling_method=downsampling,
                                upsampling_method=upsampling, dropout=0.1, num_classes=5)
        x = _c(2, 3, 16, 16)
        if mode == "train":
            return _seg_train(net, 2, 5, 16), (x,), {}
        return net, (x,), {}

    return make


MODELS = {
    **{name: _act(name) for name in _ACTS},
    "Dropout": _dropout,
    "Dropout2d": _dropout2d,
    "BatchNorm1d": _batchnorm1d,
    "BatchNorm2d": _batchnorm2d,
    "BatchNorm2d_no_running_stats": _batchnorm2d_nostats,
    "LayerNorm": _layernorm,
    "LayerNorm_image": _layernorm_image,
    "RMSNorm": _rmsnorm,
    "MaxPool2d": _maxpool2d,
    "AvgPool2d": _avgpool2d,
    "AdaptiveAvgPool2d": _adaptiveavgpool2d,
    "ConvTranspose2d": _convtranspose2d,
    "Upsample": _upsample,
    "MultiheadAttention": _mha_self,
    "MultiheadAttention_cross_batch_first": _mha_cross_batch_first,
    "MultiheadAttention_dropout": _mha_dropout,
    "TransformerEncoderLayer": _encoder_layer,
    "TransformerEncoderLayer_prenorm_batch_first": _encoder_layer_prenorm,
    "TransformerEncoder": _encoder,
    "TransformerDecoderLayer": _decoder_layer,
    "TransformerDecoder_prenorm": _decoder,
    "Transformer": _transformer,
    "Transformer_batch_first": _transformer_batch_first,
    "ViTLayer": _vit_layer,
    "ViT": _vit,
    "vit_t": _vit_t,
    "cMNIST_conv": _cmnist_conv,
    "ViT_MNIST": _vit_mnist,
    "MSTAR_ViT": _mstar("vit"),
    "MSTAR_hybrid_ViT": _mstar("hybrid-vit"),
    "PolSF_UNet": _unet("StridedConv", "Upsample"),
    "PolSF_UNet_maxpool_convtranspose": _unet("MaxPool", "ConvTranspose"),
}
