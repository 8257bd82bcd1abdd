"""efficientnet_pytorch (lukemelas' EfficientNet-PyTorch, pure Python over torch): EfficientNet
built with ``EfficientNet.from_name`` (random weights, nothing is downloaded), 10 classes,
batch 2 at 32x32 (five stride-2 stages: a 1x1 map at the head).

    pip install --no-deps efficientnet_pytorch==0.7.1    # an sdist, pure Python (needs torch, never reinstalled)

The models, one per code path the constructor and ``utils`` offer:

* ``b0`` .. ``b7``, ``b8`` and ``l2``: each name's width/depth coefficients and dropout as the
  library has them (``b0`` 16 MBConv blocks, ``b7`` 55), with the image size overridden to 32,
  so the stem, blocks and head use ``Conv2dStaticSamePadding`` (its ``nn.ZeroPad2d`` /
  ``nn.Identity`` built for that size). Default swish: ``MemoryEfficientSwish``, the custom
  autograd Function ``SwishImplementation``. ``b8`` and ``l2`` have their width shrunk
  (``width_coefficient`` 0.5; ``l2`` is 4.3 wide, ~480M parameters at its own width) and keep
  their depth.
* ``b0_silu``: ``set_swish(memory_efficient=False)`` (``nn.SiLU`` in the stem, head and every
  block); ``b0_dynamic`` / ``b0_dynamic_silu``: ``image_size=None``, so every conv is
  ``Conv2dDynamicSamePadding`` (the padding computed from ``x.size()`` in forward with
  ``math.ceil`` / ``max`` and applied with ``F.pad``).
* ``b0_no_drop_connect``: ``drop_connect_rate=0`` (the ``if drop_connect_rate:`` branches off);
  every other model keeps the library's 0.2, so ``drop_connect`` (``torch.rand`` mask) runs in
  "train" and returns early in "eval".
* ``b0_features`` / ``b0_endpoints``: ``extract_features`` and ``extract_endpoints`` (the
  reduction-level dict, chosen by comparing ``prev_x.size(2) > x.size(2)``), called through a
  small module whose forward calls the method; ``b0_dynamic_endpoints`` the same with dynamic
  padding; ``b0_no_top``: ``include_top=False`` (the pooled 1x1 features, no dropout / fc).
* ``b0_in_channels1`` (static) and ``b0_dynamic_in_channels4``: ``in_channels`` != 3
  (``_change_in_channels`` rebuilds the stem).
* ``b0_rect``: a non-square 32x48 image given as ``image_size=[32, 48]`` (the list branch of
  ``get_width_and_height_from_size``).
* ``custom_blocks``: ``EfficientNet(blocks_args, global_params)`` from ``utils.efficientnet`` and
  ``BlockDecoder.decode`` over block strings of its own: blocks without squeeze-excitation
  (``has_se`` False), without expansion (``expand_ratio`` 1), ``noskip`` and repeated ones.
* ``same_padding_static`` / ``same_padding_dynamic``: ``utils``' TF-"SAME" layers on their own
  (``get_same_padding_conv2d`` and ``get_same_padding_maxPool2d``: the ``Conv2d`` and
  ``MaxPool2d`` Static/Dynamic SamePadding classes, stride 2 on an odd 33x33 image so the
  padding is uneven); EfficientNet itself never uses the max-pool ones.

In "train" a classifier runs through a wrapper whose forward returns the cross-entropy of the
logits against fixed labels; feature extractors (``extract_*``, ``include_top=False``, the
``utils`` layers) through one that returns the sum of the means of their float outputs.

Left out: ``from_pretrained`` / ``load_pretrained_weights`` (they download the weights with
``model_zoo.load_url``; no network here); the full ``b8`` / ``l2`` widths (the same modules
as the shrunk ones, only wider); ``BlockDecoder.encode`` (it reads ``block.strides``, which
``BlockArgs`` does not have, so it raises on the library's own block args; not model code).
"""

PACKAGE = "efficientnet_pytorch"
DISTRIBUTION = "efficientnet_pytorch"

_CLASSES = 10
_SIZE = 32
mean_loss_module = classifier_loss_module = None  # adapter.py's, set by ZooSuite


def warm_up():
    import torch  # noqa: F401

    import efficientnet_pytorch  # noqa: F401


def _method_module():
    """A module whose forward calls one method of ``net`` (``extract_features`` / ``extract_endpoints``)."""
    import torch

    class Method(torch.nn.Module):
        def __init__(self, net, name):
            super().__init__()
            self.net = net
            self.name = name
            object.__setattr__(self, "__wrapped__", getattr(net, name))  # `given:` labels judge the method

        def forward(self, *args, **kwargs):
            return getattr(self.net, self.name)(*args, **kwargs)

    return Method


def _run(net, mode, x, method=None, classifier=True):
    """(callable, args, kwargs) for ``net`` (or its ``method``) on ``x``, a loss wrapper in "train"."""
    if method is not None:
        net, classifier = _method_module()(net, method), False
    if mode == "train":
        net = classifier_loss_module()(net, 2, _CLASSES) if classifier else mean_loss_module()(net)
    return net, (x,), {}


def _effnet(name="efficientnet-b0", in_channels=3, size=_SIZE, memory_efficient=True, method=None, **override):
    """``EfficientNet.from_name(name, in_channels, image_size=size, num_classes=10, **override)``;
    ``size`` None builds the dynamic-padding convs (the input is then 32x32)."""

    def make(mode):
        import torch

        from efficientnet_pytorch import EfficientNet

        net = EfficientNet.from_name(name, in_channels=in_channels, image_size=size, num_classes=_CLASSES,
                                     **override)
        if not memory_efficient:
            net.set_swish(memory_efficient=False)
        h, w = (size, size) if isinstance(size, int) else tuple(size or (_SIZE, _SIZE))
        x = torch.randn(2, in_channels, h, w)
        classifier = override.get("include_top", True)
        return _run(net, mode, x, method=method, classifier=classifier)

    return make


def _custom_blocks(mode):
    """``EfficientNet(blocks_args, global_params)`` over block strings of its own."""
    import torch

    from efficientnet_pytorch import BlockDecoder, EfficientNet, efficientnet

    _, global_params = efficientnet(width_coefficient=0.5, depth_coefficient=1.0, image_size=_SIZE,
                                    num_classes=_CLASSES)
    blocks_args = BlockDecoder.decode([
        "r1_k3_s11_e1_i32_o16",              # no expansion, no squeeze-excitation
        "r2_k3_s22_e6_i16_o24_noskip",       # no skip connection (nor drop connect)
        "r2_k5_s22_e4_i24_o40_se0.5",        # repeated, with skip and drop connect
        "r1_k3_s22_e6_i40_o80_se0.25_noskip",
        "r3_k5_s11_e6_i80_o80",              # repeated, skip without squeeze-excitation
    ])
    net = EfficientNet(blocks_args, global_params)
    return _run(net, mode, torch.randn(2, 3, _SIZE, _SIZE))


def _same_padding(static):
    """``utils``' TF-"SAME" conv and max-pool layers, stride 2 on an odd 33x33 image."""

    def make(mode):
        import torch

        from efficientnet_pytorch.utils import (calculate_output_image_size, get_same_padding_conv2d,
                                                get_same_padding_maxPool2d)

        size = 33
        layers, c = [], 3
        for out, k, s, pool in ((8, 3, 2, False), (8, 3, 2, True), (16, 5, 1, False), (16, 2, 2, True)):
            image_size = size if static else None
            if pool:
                layers.append(get_same_padding_maxPool2d(image_size=image_size)(kernel_size=k, stride=s))
            else:
                layers.append(get_same_padding_conv2d(image_size=image_size)(c, out, kernel_size=k, stride=s))
                c = out
            size = calculate_output_image_size(size, s)[0]
        net = torch.nn.Sequential(*layers)
        return _run(net, mode, torch.randn(2, 3, 33, 33), classifier=False)

    return make


MODELS = {
    # --- the named sizes, static "SAME" padding, MemoryEfficientSwish ---
    "b0": _effnet("efficientnet-b0"),
    "b1": _effnet("efficientnet-b1"),
    "b2": _effnet("efficientnet-b2"),
    "b3": _effnet("efficientnet-b3"),
    "b4": _effnet("efficientnet-b4"),
    "b5": _effnet("efficientnet-b5"),
    "b6": _effnet("efficientnet-b6"),
    "b7": _effnet("efficientnet-b7"),
    "b8_half_width": _effnet("efficientnet-b8", width_coefficient=0.5),
    "l2_half_width": _effnet("efficientnet-l2", width_coefficient=0.5),
    # --- swish, padding, drop connect, channels ---
    "b0_silu": _effnet(memory_efficient=False),
    "b0_dynamic": _effnet(size=None),
    "b0_dynamic_silu": _effnet(size=None, memory_efficient=False),
    "b0_no_drop_connect": _effnet(drop_connect_rate=0.0),
    "b0_in_channels1": _effnet(in_channels=1),
    "b0_dynamic_in_channels4": _effnet(in_channels=4, size=None),
    "b0_rect": _effnet(size=[32, 48]),
    # --- feature extraction ---
    "b0_features": _effnet(method="extract_features"),
    "b0_endpoints": _effnet(method="extract_endpoints"),
    "b0_dynamic_endpoints": _effnet(size=None, method="extract_endpoints"),
    "b0_no_top": _effnet(include_top=False),
    # --- custom block strings, utils' layers ---
    "custom_blocks": _custom_blocks,
    "same_padding_static": _same_padding(static=True),
    "same_padding_dynamic": _same_padding(static=False),
}
