"""a-unet (archinetai, Flavio Schneider) 0.0.16: U-Nets built from its blocks and from its ``apex``
templates as its README and its downstream users (audio-diffusion-pytorch's ``UNetV0``) build them,
tiny (batch 2, 2 input channels, 8-16 channels, two resolutions; 1-D length 32, 2-D 16x16, 3-D
8x8x8; 8-feature heads x 2, a 4-token 16-feature embedding, 16 modulation features, 4 resnet
groups), random weights, no download:

- the README's "Basic UNet" (``T``, ``Downsample``, ``Upsample``, ``ResnetBlock``, ``Repeat`` and
  ``Skip(torch.add)``, built recursively), 1-D and 2-D;
- the README's "ApeX UNet" (``XUNet`` over ``XBlock`` s of ``ResnetItem`` / ``ModulationItem`` /
  ``AttentionItem`` / ``CrossAttentionItem``, ``SkipCat``, under ``TimeConditioningPlugin``, and
  ``ClassifierFreeGuidancePlugin`` around it): 2-D with a tensor ``time`` and with the README's
  Python list ``time=[0.2, 0.5]``, and with classifier-free guidance in 2-D and in 1-D (train:
  ``embedding_mask_proba=0.1``; eval: ``embedding_scale=5.0``, the net run twice); and the time
  plugin over ``XUNet`` given ``time`` of shape ``(B, 2)`` (several per sample, summed) merged
  with given ``features``;
- ``XUNet`` directly, one configuration per item or option: resnets only (``SkipAdd``, the
  default) in 1-D / 2-D / 3-D, ``SkipCat``, self-attention, linear attention, cross-attention
  and linear cross-attention over an ``embedding`` context, ``ModulationItem`` with
  ``SkipModulate`` from given ``features`` (no time plugin), ``FeedForwardItem``,
  ``ConvNextV2Item``, ``InjectChannelsItem`` (a context tensor per depth through ``channels``),
  transposed-convolution upsampling with wide down/up kernels, interpolating ("linear")
  upsampling and resnets with 5-wide kernels, a different ``items_up`` path, ``out_channels``
  unlike ``in_channels``;
- audio-diffusion-pytorch's ``UNetV0`` constructor (the library's main downstream user, written
  here on its pattern): time conditioning with ``SkipModulate``, embedding CFG with
  cross-attention, injected channels, no modulation / no time (``SkipCat``), and its
  learned-transform plugin (a strided encode conv and transposed decode around the U-Net);
- the blocks users compose, each as a small module: ``ResnetBlock`` (channel change),
  ``ConvNextV2Block`` (with ``GRN``), ``Attention`` with a ``FixedEmbedding`` positional
  embedding, ``CrossAttention``, ``Attention`` over ``LinearAttentionBase``, ``FeedForward``,
  ``Modulation``, ``NumberEmbedder`` (a ``(B, 3)`` tensor of numbers), ``AttentionItem`` on a 2-D
  map (``Packed``: flattened to a sequence and back), and ``Downsample`` / ``Upsample`` /
  ``UpsampleInterpolate`` in a row.

Eval: each net's output. Train: the U-Nets' denoising-style MSE of the output against a fixed
random target (``DenoiseLoss``); ``mean_loss_module`` for the blocks.

    pip install --no-deps a-unet==0.0.16 data-science-types==0.2.23

a-unet imports only torch, einops (0.8.2, above) and ``typing_extensions`` (torch's). Its declared
``data-science-types`` is type stubs only (``numpy-stubs``, ``pandas-stubs``,
``matplotlib-stubs``), imported by nothing at run time. Nothing stubbed.

Left out: ``TextConditioningPlugin`` / ``T5Embedder`` (``transformers`` and a T5 download);
``Conv``/``ConvTranspose``/``Select``/``Sequential``/``Module``/``MergeAdd``/``MergeCat``/
``MergeModulate``/``SkipAdapter`` on their own (the helpers every U-Net above runs).
Notes: the README's "Basic UNet" does not run as printed: ``Repeat`` of a template
(``T(ResnetBlock)(...)``) returns a factory (a lambda), not a module, and ``Skip`` rejects it, so
``_basic_unet`` calls the factory (the working form of the same code). ``NumberEmbedder`` turns a non-tensor ``time`` into a tensor with ``torch.tensor``
inside the forward (the ``*_time_list`` model passes the README's list). CFG's
``embedding_mask_proba`` draws a Bernoulli mask inside the forward (train). ``InjectChannelsItem``
checks the context's shape with an ``assert`` against ``torch.Size``.
"""

import functools

PACKAGE = "a_unet"
DISTRIBUTION = "a-unet"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _C = 2, 2  # batch, input channels
_SIZE = {1: (32,), 2: (16, 16), 3: (8, 8, 8)}  # spatial shape per dimension
_EMB_N, _EMB_F = 4, 16  # embedding tokens, features
_MOD = 16  # modulation features (the README's 1024)
_CTX = 4  # injected context channels
_COMMON = dict(attention_features=8, attention_heads=2, resnet_groups=4, modulation_features=_MOD)


def warm_up():
    import torch  # noqa: F401
    import a_unet  # noqa: F401
    import a_unet.apex  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    import torch.nn.functional as F

    class DenoiseLoss(nn.Module):
        """A denoising-style training step: the MSE of the U-Net's output against a fixed target."""

        def __init__(self, net, target):
            super().__init__()
            self.net = net
            self.register_buffer("target", target)

        def forward(self, x, **kwargs):
            return F.mse_loss(self.net(x, **kwargs), self.target)

    class Resample(nn.Module):
        """Downsample (a wide strided conv), then upsample by transposed conv and by interpolation."""

        def __init__(self, dim, channels):
            super().__init__()
            from a_unet import Downsample, Upsample, UpsampleInterpolate

            self.down = Downsample(dim=dim, factor=2, width=2, in_channels=channels, out_channels=channels * 2)
            self.up = Upsample(dim=dim, factor=2, in_channels=channels * 2, out_channels=channels)
            self.down2 = Downsample(dim=dim, factor=2, in_channels=channels, out_channels=channels)
            self.up2 = UpsampleInterpolate(dim=dim, factor=2, mode="nearest", in_channels=channels,
                                           out_channels=channels)

        def forward(self, x):
            return self.up2(self.down2(self.up(self.down(x))))

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- U-Net constructors, as users write them ------------------------------------------------

def _basic_unet(dim, in_channels, channels, factors, blocks):
    """The README's "Basic UNet": resnet stacks around a recursive down / up path, each level
    wrapped in ``Skip(torch.add)``. (``Repeat`` of a template returns a factory: called here.)"""
    import torch
    from torch import nn
    from a_unet import Downsample, Repeat, ResnetBlock, Skip, T, Upsample

    n_layers = len(channels)

    def stack(ch, n_blocks):
        block = T(ResnetBlock)(dim=dim, in_channels=ch, out_channels=ch)
        return Repeat(block, times=n_blocks)()

    def net(i):
        if i == n_layers:
            return nn.Identity()
        in_ch, out_ch = (channels[i - 1] if i > 0 else in_channels), channels[i]
        return Skip(torch.add)(
            Downsample(dim=dim, factor=factors[i], in_channels=in_ch, out_channels=out_ch),
            stack(out_ch, blocks[i]),
            net(i + 1),
            stack(out_ch, blocks[i]),
            Upsample(dim=dim, factor=factors[i], in_channels=out_ch, out_channels=in_ch),
        )

    return net(0)


def _apex_unet(dim, in_channels, channels, factors, items, attentions, cross_attentions, attention_features,
               attention_heads, embedding_features=None, skip_t=None, resnet_groups=8, modulation_features=1024,
               embedding_max_length=0, use_classifier_free_guidance=False, out_channels=None):
    """The README's "ApeX UNet": per level ``[R, M] + [A] * n_att + [C] * n_cross`` repeated
    ``items`` times, ``SkipCat``, time conditioning, optionally classifier-free guidance."""
    from a_unet import ClassifierFreeGuidancePlugin, TimeConditioningPlugin
    from a_unet.apex import AttentionItem as A
    from a_unet.apex import CrossAttentionItem as C
    from a_unet.apex import ModulationItem as M
    from a_unet.apex import ResnetItem as R
    from a_unet.apex import SkipCat, XBlock, XUNet

    sequences = (channels, factors, items, attentions, cross_attentions)
    assert all(len(s) == len(channels) for s in sequences)
    UNet = TimeConditioningPlugin(XUNet)
    if use_classifier_free_guidance:
        UNet = ClassifierFreeGuidancePlugin(UNet, embedding_max_length)
    return UNet(
        dim=dim,
        in_channels=in_channels,
        out_channels=out_channels,
        blocks=[XBlock(channels=ch, factor=f, items=([R, M] + [A] * n_att + [C] * n_cross) * n)
                for ch, f, n, n_att, n_cross in zip(*sequences)],
        skip_t=skip_t or SkipCat,
        attention_features=attention_features,
        attention_heads=attention_heads,
        embedding_features=embedding_features,
        modulation_features=modulation_features,
        resnet_groups=resnet_groups,
    )


def _unet_v0(dim, in_channels, channels, factors, items, attentions=None, cross_attentions=None,
             context_channels=None, attention_features=None, attention_heads=None, embedding_features=None,
             resnet_groups=8, use_modulation=True, modulation_features=1024, embedding_max_length=None,
             use_time_conditioning=True, use_embedding_cfg=False, out_channels=None, learned_transform=None):
    """audio-diffusion-pytorch's ``UNetV0`` pattern over ``a_unet.apex`` (its text conditioning
    left out); ``learned_transform=(filters, window, stride)`` wraps it in its ``LTPlugin``."""
    from a_unet import ClassifierFreeGuidancePlugin, TimeConditioningPlugin, default
    from a_unet.apex import (AttentionItem, CrossAttentionItem, InjectChannelsItem, ModulationItem, ResnetItem,
                             SkipCat, SkipModulate, XBlock, XUNet)

    n = len(channels)
    attentions = default(attentions, [0] * n)
    cross_attentions = default(cross_attentions, [0] * n)
    context_channels = default(context_channels, [0] * n)
    xs = (channels, factors, items, attentions, cross_attentions, context_channels)
    UNet = XUNet
    if use_embedding_cfg:
        UNet = ClassifierFreeGuidancePlugin(UNet, embedding_max_length)
    if use_time_conditioning:
        UNet = TimeConditioningPlugin(UNet)
    if learned_transform:
        UNet = _lt_plugin(UNet, *learned_transform)
    return UNet(
        dim=dim,
        in_channels=in_channels,
        out_channels=out_channels,
        blocks=[XBlock(channels=ch, factor=f, context_channels=ctx,
                       items=([ResnetItem] + [ModulationItem] * use_modulation
                              + [InjectChannelsItem] * (ctx > 0) + [AttentionItem] * att
                              + [CrossAttentionItem] * cross) * k)
                for ch, f, k, att, cross, ctx in zip(*xs)],
        skip_t=SkipModulate if use_modulation else SkipCat,
        attention_features=attention_features,
        attention_heads=attention_heads,
        embedding_features=embedding_features,
        modulation_features=modulation_features,
        resnet_groups=resnet_groups,
    )


def _lt_plugin(net_t, num_filters, window_length, stride):
    """audio-diffusion-pytorch's learned-transform plugin: a strided conv into ``num_filters``
    times the channels, the U-Net there, a transposed conv back (1-D)."""
    from torch import nn
    from a_unet import Conv, Module, default

    def Net(dim, in_channels, out_channels=None, **kwargs):
        out_channels = default(out_channels, in_channels)
        padding = window_length // 2 - stride // 2
        encode = Conv(dim=dim, in_channels=in_channels, out_channels=in_channels * num_filters,
                      kernel_size=window_length, stride=stride, padding=padding, padding_mode="reflect", bias=False)
        decode = nn.ConvTranspose1d(in_channels=out_channels * num_filters, out_channels=out_channels,
                                    kernel_size=window_length, stride=stride, padding=padding, bias=False)
        net = net_t(dim=dim, in_channels=in_channels * num_filters, out_channels=out_channels * num_filters,
                    **kwargs)

        def forward(x, *args, **kwargs):
            return decode(net(encode(x), *args, **kwargs))

        return Module([encode, decode, net], forward)

    return Net


def _xunet(dim, blocks, plugins=(), **options):
    """``XUNet`` over ``XBlock(channels, factor, items=[...], **extra)`` for each ``blocks`` entry
    ``(channels, factor, item names[, extra])``, with ``_COMMON`` and ``options``."""
    from a_unet import apex

    items = {"R": apex.ResnetItem, "A": apex.AttentionItem, "C": apex.CrossAttentionItem,
             "M": apex.ModulationItem, "L": apex.LinearAttentionItem, "LC": apex.LinearCrossAttentionItem,
             "F": apex.FeedForwardItem, "I": apex.InjectChannelsItem, "N": apex.ConvNextV2Item}
    if isinstance(options.get("skip_t"), str):
        options["skip_t"] = getattr(apex, options["skip_t"])
    UNet = apex.XUNet
    for plugin in plugins:
        UNet = plugin(UNet)
    xblocks = []
    for spec in blocks:
        ch, factor, names = spec[:3]
        extra = dict(spec[3]) if len(spec) > 3 else {}
        if "items_up" in extra:
            extra["items_up"] = [items[k] for k in extra["items_up"]]
        xblocks.append(apex.XBlock(channels=ch, factor=factor, items=[items[k] for k in names], **extra))
    return UNet(dim=dim, in_channels=_C, blocks=xblocks, **{**_COMMON, **options})


# --- models ------------------------------------------------------------------------------------

def _unet(build, dim=2, time=None, features=False, embedding=False, inject=None, cfg=False, out_channels=_C):
    """A U-Net from ``build()`` on a ``(B, 2, *size)`` input; keyword inputs: ``time`` ("tensor":
    ``(B,)``, "list": the README's Python list, "multi": ``(B, 2)``), ``features`` ``(B, 16)``,
    ``embedding`` ``(B, 4, 16)``, ``inject``: ``(depth, spatial divisor)`` of an injected
    ``(B, 4, ...)`` context in ``channels``; ``cfg``: guidance arguments per mode. Train: the
    MSE against a fixed ``(B, out_channels, *size)`` target."""

    def make(mode):
        import torch

        net = build()
        size = _SIZE[dim]
        x = torch.randn(_B, _C, *size)
        kwargs = {}
        if time == "tensor":
            kwargs["time"] = torch.rand(_B)
        elif time == "list":
            kwargs["time"] = [0.2, 0.5]
        elif time == "multi":
            kwargs["time"] = torch.rand(_B, 2)
        if features:
            kwargs["features"] = torch.randn(_B, _MOD)
        if embedding:
            kwargs["embedding"] = torch.randn(_B, _EMB_N, _EMB_F)
        if inject is not None:
            depth, div = inject
            kwargs["channels"] = [None] * depth + [torch.randn(_B, _CTX, *(s // div for s in size))]
        if cfg:
            kwargs.update({"embedding_mask_proba": 0.1} if mode == "train" else {"embedding_scale": 5.0})
        if mode == "train":
            return _nets().DenoiseLoss(net, torch.randn(_B, out_channels, *size)), (x,), kwargs
        return net, (x,), kwargs

    return make


def _basic(dim):
    return _unet(lambda: _basic_unet(dim=dim, in_channels=_C, channels=[8, 16], factors=[2, 2], blocks=[2, 1]),
                 dim=dim)


def _apex(dim=2, time="tensor", cfg=False, attentions=(0, 1)):
    def build():
        return _apex_unet(dim=dim, in_channels=_C, channels=[8, 16], factors=[2, 2], items=[1, 2],
                          attentions=list(attentions), cross_attentions=[1, 1], attention_features=8,
                          attention_heads=2, embedding_features=_EMB_F, resnet_groups=4, modulation_features=_MOD,
                          embedding_max_length=_EMB_N, use_classifier_free_guidance=cfg)

    return _unet(build, dim=dim, time=time, embedding=True, cfg=cfg)


def _time_multi_features(mode):
    """``TimeConditioningPlugin(XUNet)`` given ``(B, 2)`` times (summed) and extra ``features``."""
    from a_unet import TimeConditioningPlugin

    build = lambda: _xunet(1, [(8, 1, "RM"), (16, 2, "RM")], plugins=(TimeConditioningPlugin,),  # noqa: E731
                           skip_t="SkipModulate")
    return _unet(build, dim=1, time="multi", features=True)(mode)


def _x(dim, blocks, out_channels=_C, features=False, embedding=False, inject=None, **options):
    def build():
        return _xunet(dim, blocks, **({"out_channels": out_channels} if out_channels != _C else {}), **options)

    return _unet(build, dim=dim, features=features, embedding=embedding, inject=inject, out_channels=out_channels)


def _v0(dim=1, time="tensor", embedding=False, cfg=False, inject=None, **options):
    def build():
        return _unet_v0(dim=dim, in_channels=_C, channels=[8, 16], factors=[1, 2], items=[1, 1],
                        attention_features=8, attention_heads=2, resnet_groups=4, modulation_features=_MOD,
                        **options)

    return _unet(build, dim=dim, time=time, embedding=embedding, cfg=cfg, inject=inject)


# --- the blocks, each as a small module ---------------------------------------------------------

def _block(build, *shapes):
    """``build()`` on random inputs of ``shapes``; train: ``mean_loss_module``."""

    def make(mode):
        import torch

        net = build()
        args = tuple(torch.randn(*s) for s in shapes)
        return (mean_loss_module()(net) if mode == "train" else net), args, {}

    return make


def _resnet_block():
    from a_unet import ResnetBlock

    return ResnetBlock(dim=2, in_channels=8, out_channels=16)


def _convnext_block():
    from a_unet import ConvNextV2Block

    return ConvNextV2Block(dim=1, channels=8)


def _attention_posemb():
    from a_unet import Attention, FixedEmbedding

    return Attention(16, head_features=8, num_heads=2, max_length=16, positional_embedding_t=FixedEmbedding)


def _cross_attention():
    from a_unet import CrossAttention

    return CrossAttention(context_features=12, features=16, head_features=8, num_heads=2)


def _linear_attention():
    from a_unet import Attention, LinearAttentionBase

    return Attention(16, head_features=8, num_heads=2, attention_base_t=LinearAttentionBase)


def _feed_forward():
    from a_unet import FeedForward

    return FeedForward(features=16, multiplier=2)


def _modulation():
    from a_unet import Modulation

    return Modulation(in_features=16, num_features=_MOD)


def _number_embedder():
    from a_unet import NumberEmbedder

    return NumberEmbedder(features=16, dim=32)


def _attention_item_2d():
    from a_unet.apex import AttentionItem

    return AttentionItem(channels=8, attention_features=8, attention_heads=2)


MODELS = {
    # the README's "Basic UNet"
    "BasicUNet_1d": _basic(1),
    "BasicUNet_2d": _basic(2),
    # the README's "ApeX UNet" (time conditioning, optionally classifier-free guidance)
    "ApexUNet_2d": _apex(),
    "ApexUNet_2d_time_list": _apex(time="list"),
    "ApexUNet_2d_cfg": _apex(cfg=True),
    "ApexUNet_1d_cfg": _apex(dim=1, cfg=True, attentions=(1, 1)),
    "XUNet_time_multi_features": _time_multi_features,
    # XUNet, one item / option each
    "XUNet_resnet_1d": _x(1, [(8, 2, "R"), (16, 2, "RR")]),
    "XUNet_resnet_2d": _x(2, [(8, 2, "R"), (16, 2, "R")]),
    "XUNet_resnet_3d": _x(3, [(8, 1, "R"), (16, 2, "R")]),
    "XUNet_skipcat_2d": _x(2, [(8, 2, "R"), (16, 2, "R")], skip_t="SkipCat"),
    "XUNet_attention_2d": _x(2, [(8, 2, "R"), (16, 2, "RA")]),
    "XUNet_linear_attention_1d": _x(1, [(8, 2, "RL"), (16, 2, "RL")]),
    "XUNet_cross_attention_2d": _x(2, [(8, 2, "R"), (16, 2, "RAC")], embedding=True, embedding_features=_EMB_F),
    "XUNet_linear_cross_attention_1d": _x(1, [(8, 2, ["R", "LC"]), (16, 2, ["R", "LC"])], embedding=True,
                                          embedding_features=_EMB_F),
    "XUNet_modulation_1d": _x(1, [(8, 1, "RM"), (16, 2, "RM")], skip_t="SkipModulate", features=True),
    "XUNet_feedforward_1d": _x(1, [(8, 2, "R"), (16, 2, "RAF")], attention_multiplier=2),
    "XUNet_convnext_2d": _x(2, [(8, 2, "N"), (16, 2, "N")]),
    "XUNet_inject_channels_1d": _x(1, [(8, 1, "RI", {"context_channels": _CTX}), (16, 2, "R")], inject=(0, 1)),
    "XUNet_transpose_upsample_2d": _x(2, [(8, 2, "R"), (16, 2, "R")], upsample_mode="transpose",
                                      downsample_width=2, upsample_width=2),
    "XUNet_interpolate_upsample_1d": _x(1, [(8, 2, "R"), (16, 2, "R")], upsample_mode="linear",
                                        upsample_kernel_size=5, resnet_kernel_size=5),
    "XUNet_items_up_2d": _x(2, [(8, 2, "R", {"items_up": "RA"}), (16, 2, "RA", {"items_up": "R"})]),
    "XUNet_out_channels_2d": _x(2, [(8, 2, "R"), (16, 2, "RA")], out_channels=3),
    # audio-diffusion-pytorch's UNetV0 over a_unet.apex
    "UNetV0_1d": _v0(),
    "UNetV0_1d_cfg_cross": _v0(embedding=True, cfg=True, cross_attentions=[0, 1], attentions=[0, 1],
                               embedding_features=_EMB_F, use_embedding_cfg=True, embedding_max_length=_EMB_N),
    "UNetV0_1d_inject_channels": _v0(inject=(0, 1), context_channels=[_CTX, 0]),
    "UNetV0_2d_no_time": _v0(dim=2, time=None, use_time_conditioning=False, use_modulation=False,
                             attentions=[0, 1]),
    "UNetV0_1d_learned_transform": _v0(learned_transform=(4, 8, 4)),
    # the blocks
    "ResnetBlock": _block(_resnet_block, (_B, 8, 16, 16)),
    "ConvNextV2Block": _block(_convnext_block, (_B, 8, 32)),
    "Attention_positional": _block(_attention_posemb, (_B, 12, 16)),
    "CrossAttention": _block(_cross_attention, (_B, 12, 16), (_B, 5, 12)),
    "LinearAttention": _block(_linear_attention, (_B, 12, 16)),
    "FeedForward": _block(_feed_forward, (_B, 12, 16)),
    "Modulation": _block(_modulation, (_B, 12, 16), (_B, _MOD)),
    "NumberEmbedder": _block(_number_embedder, (_B, 3)),
    "AttentionItem_2d": _block(_attention_item_2d, (_B, 8, 8, 8)),
    "Resample_2d": _block(lambda: _nets().Resample(2, 8), (_B, 8, 16, 16)),
}
