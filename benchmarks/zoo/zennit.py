"""Zennit 0.5.1 (LRP and gradient attribution for PyTorch), import name ``zennit``: its attributors,
composites, rules and canonizers, used as its README, docs ("Getting started", "Using Rules,
Composites and Canonizers", "Using Attributors", "Writing Custom Rules / Composites / Canonizers")
and tests use them, on small user models written here (no torchvision model): a VGG-like CNN
(3x16x16 images, conv / ReLU / max-pool blocks, a global average pool, a linear head of 10
classes), the same CNN with a ``BatchNorm2d`` after each convolution (for the batch-norm
canonizers), an MLP (20 features, ReLU, 5 classes), a 1-d CNN (2x32 signals), a tiny residual
CNN written like torchvision's ``BasicBlock`` (``conv1`` / ``bn1`` / ``relu`` / ``conv2`` /
``bn2`` / ``downsample``), a residual CNN that adds its branches through ``zennit.layer.Sum``, and
a conv / ``ConvTranspose2d`` autoencoder. Batch 4, random weights, no download. Each entry is a
user's step module whose forward calls the library (the compiled call):

- ``attribution.Gradient`` with each built-in composite: ``EpsilonPlusFlat`` (CNN, 1-d CNN, MLP),
  ``EpsilonGammaBox`` (per-channel ``low`` / ``high`` tensors; with ``SequentialMergeBatchNorm``
  on the batch-norm CNN), ``EpsilonPlus`` (with ``zero_params=['bias']``), ``EpsilonAlpha2Beta1``,
  ``EpsilonAlpha2Beta1Flat`` (MLP), ``DeconvNet``, ``GuidedBackprop``, ``ExcitationBackprop``,
  ``BetaSmooth``; plain ``Gradient`` (no composite) with a one-hot tensor, and with a callable
  ``attr_output`` (the predicted class's score); the attributor as a ``with`` context made inside
  the step; ``create_graph=True`` and ``composite.inactive()`` / ``attributor.inactive`` for the
  gradient of the modified gradient (the docs' second-order example);
- ``SmoothGrad`` (plain, and with ``EpsilonPlusFlat``), ``IntegratedGradients`` (zero baseline,
  and a custom ``baseline_fn`` with ``EpsilonGammaBox``), ``Occlusion`` (default window, a
  ``(4, 4)`` window with stride 4 and ``occlude_independent(fill_fn=torch.ones_like,
  invert=True)``, a 1-d window), scored by a callable ``attr_output`` (the label's class score);
- ``composite.context(model)`` + ``torch.autograd.grad`` (the README's way without an attributor);
- the general composites: ``LayerMapComposite`` (a custom layer map: ``Gamma``, ``Epsilon``
  with a ``Stabilizer(clip=True, norm_scale=True)``, ``Pass``, ``Norm``),
  ``SpecialFirstLayerMapComposite`` (``WSquare`` first), ``NameMapComposite`` (``ZBox`` /
  ``AlphaBeta`` / ``ZPlus`` / ``Epsilon(0)`` by module name), ``MixedComposite``,
  ``NameLayerMapComposite``, and a composite registered by name through
  ``COMPOSITES['epsilon_plus_flat']``;
- rules registered on single modules by hand (``rule.register(module)``, handles removed after),
  ``ReLUBetaSmooth`` / ``ReLUGuidedBackprop`` by hand, a docs-style custom ``BasicHook`` rule
  (``GMontavonEpsilon``, its own ``gradient_mapper``) and a custom ``Hook`` rule (``backward``
  only), rules with ``GammaMod`` / ``ClampMod`` param modifiers;
- canonizers: ``SequentialMergeBatchNorm``, ``NamedMergeBatchNorm``, ``zennit.torchvision.VGGCanonizer``
  (a ``SequentialMergeBatchNorm``), an ``AttributeCanonizer`` that swaps the user's ResNet-style
  block's ``forward`` for ``zennit.torchvision.ResNetBasicBlockCanonizer.forward`` (a ``Sum``
  module for the residual add; the library's own canonizer only matches torchvision's class), and
  a ``CompositeCanonizer`` of both.

The step runs the attribution inside ``torch.enable_grad()``, as a user's explain function called
from an inference loop must (zennit's attributors call ``torch.autograd.grad`` on the model output,
and its hooks need a ``grad_fn``; without it every gradient-based entry raises eagerly under
``no_grad``, which the probe's eval setting uses).

Eval: the step returns what the attributor returns (the model output and the relevance; the
second-order entry adds the gradient of the relevance). Train: an explanation-regularised
training step (right-for-the-right-reasons style): cross entropy of the model output on fixed
labels + 0.01 x the mean absolute relevance, the attributor made with ``create_graph=True`` so the
relevance term is differentiable (the autoencoder: MSE reconstruction + the relevance term).
``Occlusion``'s relevance is computed under ``no_grad`` by the library (a constant term).
Measured first as it came, before any rule looked at it.

    pip install --no-deps zennit==0.5.1

zennit declares click, numpy, Pillow, torch and torchvision; click 8.4.0, numpy 2.4.6 and pillow
13.0.0 were already installed (numpy / Pillow only in ``cmap`` / ``image``, the heatmap helpers).

Stubbed (``stub_modules``): ``torchvision``, ``torchvision.models`` and
``torchvision.models.resnet`` (classes ``Bottleneck`` and ``BasicBlock``): ``zennit/__init__``
imports ``zennit.torchvision`` at its top, which imports those two classes for
``ResNetCanonizer``'s ``isinstance`` checks; the stand-ins match no user module.

Left out: ``zennit.image`` / ``zennit.cmap`` (numpy / PIL heatmap rendering and colour maps, after
the attribution, not a tensor step); ``ResNetCanonizer`` itself and the torchvision model zoo (held
out; the ResNet block canonizer's forward is used through the user's own block instead); the
``share/`` example scripts (datasets, torchvision models, click CLIs).
"""

import functools

PACKAGE = "zennit"

_B = 4  # batch
_REG = 0.01  # weight of the relevance term in the train loss


def _stub():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchvision": ((), ()),
            "torchvision.models": ((), ()),
            "torchvision.models.resnet": ((), ("Bottleneck", "BasicBlock")),
        },
        "zennit imports",
    )


def before_build():
    _stub()


def warm_up():
    _stub()
    import torch  # noqa: F401
    import zennit  # noqa: F401
    import zennit.attribution  # noqa: F401
    import zennit.canonizers  # noqa: F401
    import zennit.composites  # noqa: F401
    import zennit.rules  # noqa: F401
    import zennit.torchvision  # noqa: F401


# --- user models ---------------------------------------------------------------------------------

def _cnn():
    import torch
    from torch import nn

    net = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10),
    )
    return net, torch.randn(_B, 3, 16, 16), 10


def _cnn_bn():
    import torch
    from torch import nn

    class VGGish(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            )
            self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
            self.classifier = nn.Sequential(
                nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 10),
            )

        def forward(self, x):
            x = self.features(x)
            x = self.avgpool(x)
            x = torch.flatten(x, 1)
            return self.classifier(x)

    net = VGGish()
    for m in net.modules():  # non-trivial running statistics, as a trained net has
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            nn.init.uniform_(m.weight, 0.5, 1.5)
            nn.init.uniform_(m.bias, -0.2, 0.2)
    return net, torch.randn(_B, 3, 16, 16), 10


def _mlp():
    import torch
    from torch import nn

    net = nn.Sequential(
        nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 5),
    )
    return net, torch.randn(_B, 20), 5


def _cnn1d():
    import torch
    from torch import nn

    net = nn.Sequential(
        nn.Conv1d(2, 8, 5, padding=2), nn.ReLU(), nn.AvgPool1d(2),
        nn.Conv1d(8, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(4),
        nn.Flatten(), nn.Linear(32, 4),
    )
    return net, torch.randn(_B, 2, 32), 4


def _resnet():
    """A tiny ResNet whose blocks are written like torchvision's ``BasicBlock``."""
    import torch
    from torch import nn

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride=1):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            return self.relu(out + identity)

    class TinyResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 3, 1, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(8)
            self.relu = nn.ReLU()
            self.layer1 = BasicBlock(8, 8)
            self.layer2 = BasicBlock(8, 16, stride=2)
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.layer2(self.layer1(x))
            return self.fc(torch.flatten(self.avgpool(x), 1))

    net = TinyResNet()
    net.block_type = BasicBlock
    return net, torch.randn(_B, 3, 16, 16), 10


def _sum_resnet():
    """A residual CNN that adds its branches through ``zennit.layer.Sum`` (as the docs advise, so a
    rule can be attached to the addition)."""
    import torch
    from torch import nn
    from zennit.layer import Sum

    class Block(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.conv1 = nn.Conv2d(c, c, 3, padding=1)
            self.relu1 = nn.ReLU()
            self.conv2 = nn.Conv2d(c, c, 3, padding=1)
            self.sum = Sum()
            self.relu2 = nn.ReLU()

        def forward(self, x):
            out = self.conv2(self.relu1(self.conv1(x)))
            return self.relu2(self.sum(torch.stack([x, out], dim=-1)))

    net = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), Block(8), nn.AvgPool2d(2), Block(8),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10),
    )
    return net, torch.randn(_B, 3, 16, 16), 10


def _autoencoder():
    import torch
    from torch import nn

    net = nn.Sequential(
        nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1),
    )
    return net, torch.randn(_B, 1, 16, 16), 0


# --- the step -------------------------------------------------------------------------------------

def _step():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class AttributionStep(nn.Module):
        """A user's step: ``explain(step, x)`` returns (output, relevance[, extra]); in train, cross
        entropy (MSE for the autoencoder) + ``_REG`` x the mean absolute relevance."""

        def __init__(self, net, explain, classes, state):
            super().__init__()
            self.net = net
            self.explain = explain
            self.classes = classes
            self.state = state  # composites, attributors, rules built once, as a user keeps them
            if classes:
                labels = torch.arange(_B) % classes
                self.register_buffer("labels", labels)
                self.register_buffer("onehot", torch.eye(classes)[labels])

        def forward(self, x):
            with torch.enable_grad():  # attributions need autograd, also when called under no_grad
                got = self.explain(self, x)
            if not self.training:
                return got
            out, relevance = got[0], got[1]
            if self.classes:
                loss = F.cross_entropy(out, self.labels)
            else:
                loss = F.mse_loss(out, x)
            return loss + _REG * relevance.abs().mean()

    return AttributionStep


def _entry(model, state_fn, explain):
    """``state_fn(net, x, mode)`` builds the composite / attributor / rules once; ``explain(step, x)``."""

    def make(mode):
        net, x, classes = model()
        state = state_fn(net, x, mode)
        return _step()(net, explain, classes, state), (x,), {}

    return make


def _target(step, out):
    """The output relevance: the labels' one-hot, or the output itself for the autoencoder."""
    return step.onehot if step.classes else out


# --- composites -----------------------------------------------------------------------------------

def _low_high():
    import torch

    mean = torch.tensor([0.485, 0.456, 0.406])[None, :, None, None]
    std = torch.tensor([0.229, 0.224, 0.225])[None, :, None, None]
    return (0.0 - mean) / std, (1.0 - mean) / std


def _composite(name, **kwargs):
    def build(net, x, mode):
        from zennit import composites

        kw = dict(kwargs)
        if name == "EpsilonGammaBox":
            kw["low"], kw["high"] = _low_high() if x.shape[1] == 3 else (-3.0, 3.0)
        canon = kw.pop("canonizers", None)
        if canon is not None:
            kw["canonizers"] = [c() for c in canon]
        return getattr(composites, name)(**kw)

    return build


def _canon(name, *args):
    def build():
        import zennit.canonizers
        import zennit.torchvision

        mod = zennit.torchvision if hasattr(zennit.torchvision, name) and name.startswith(("VGG", "ResNet")) \
            else zennit.canonizers
        return getattr(mod, name)(*args)

    return build


def _gradient(composite_fn=None, attributor="Gradient", **kwargs):
    """State: ``attributor(net, composite, create_graph=train, **kwargs)``."""

    def build(net, x, mode):
        from zennit import attribution

        composite = composite_fn(net, x, mode) if composite_fn is not None else None
        extra = dict(kwargs)
        if attributor != "Occlusion":
            extra["create_graph"] = mode == "train"
        return getattr(attribution, attributor)(model=net, composite=composite, **extra)

    return build


def _call(step, x):
    """The README's use: ``attributor(input, attr_output)``."""
    return step.state(x, _target(step, None) if step.classes else None)


def _call_score(step, x):
    """Occlusion: ``attr_output`` as a function of the output, the labels' class score (a constant
    tensor would weigh every window the same)."""
    return step.state(x, lambda out: out * step.onehot)


def _call_default(step, x):
    """The attributor's default (or callable) ``attr_output``."""
    return step.state(x)


def _with_attributor(step, x):
    """The docs' ``with Gradient(model=model, composite=composite) as attributor:``, made in the step."""
    from zennit.attribution import Gradient

    with Gradient(model=step.net, composite=step.state, create_graph=step.training) as attributor:
        out, relevance = attributor(x, step.onehot)
    return out, relevance


def _context(step, x):
    """The README's ``with composite.context(model) as modified_model:`` + ``torch.autograd.grad``."""
    import torch

    x = x.detach().requires_grad_(True)
    with step.state.context(step.net) as modified:
        out = modified(x)
        relevance, = torch.autograd.grad(out, x, grad_outputs=_target(step, out), create_graph=step.training)
    return out, relevance


def _second_order(step, x):
    """The docs' gradient of the modified gradient: ``create_graph=True``, then ``inactive``."""
    import torch

    attributor = step.state
    x = x.detach().requires_grad_(True)
    with attributor:
        out, relevance = attributor(x, step.onehot)
        with attributor.inactive():
            grad2, = torch.autograd.grad(relevance.sum(), x, create_graph=step.training)
    return out, relevance, grad2


def _second_order_state(net, x, mode):
    from zennit.attribution import Gradient
    from zennit.composites import EpsilonPlusFlat

    return Gradient(model=net, composite=EpsilonPlusFlat(), create_graph=True)


def _predicted_class(net, x, mode):
    from zennit.attribution import Gradient

    def attr_output(out):  # explain the predicted class
        return out * (out == out.amax(1, keepdim=True))

    return Gradient(model=net, attr_output=attr_output, create_graph=mode == "train")


def _layer_map(net, x, mode):
    import torch
    from zennit.composites import LayerMapComposite
    from zennit.core import Stabilizer
    from zennit.rules import Epsilon, Gamma, Norm, Pass
    from zennit.types import Activation, AvgPool, Convolution

    return LayerMapComposite(layer_map=[
        (Activation, Pass()),
        (AvgPool, Norm()),
        (Convolution, Gamma(gamma=0.5)),
        (torch.nn.Linear, Epsilon(epsilon=Stabilizer(epsilon=0.1, clip=True, norm_scale=True))),
    ])


def _special_first(net, x, mode):
    import torch
    from zennit.composites import SpecialFirstLayerMapComposite
    from zennit.rules import Epsilon, Pass, WSquare, ZPlus
    from zennit.types import Activation, Convolution, Linear

    return SpecialFirstLayerMapComposite(
        layer_map=[(Activation, Pass()), (Convolution, ZPlus()), (torch.nn.Linear, Epsilon(epsilon=1e-3))],
        first_map=[(Linear, WSquare())],
    )


def _name_map_rules():
    from zennit.rules import AlphaBeta, Epsilon, Norm, Pass, ZBox, ZPlus

    low, high = _low_high()
    return [
        (["0"], ZBox(low=low, high=high)),
        (["1", "4", "7", "11"], Pass()),
        (["3"], AlphaBeta(alpha=1.0, beta=0.0)),
        (["6"], ZPlus(zero_params="bias")),
        (["8"], Norm()),
        (["10"], Epsilon(epsilon=0.25)),
        (["12"], Epsilon(epsilon=0.0)),
    ]


def _name_map(net, x, mode):
    from zennit.composites import NameMapComposite

    return NameMapComposite(name_map=_name_map_rules())


def _mixed(net, x, mode):
    from zennit.composites import EpsilonGammaBox, MixedComposite, NameMapComposite
    from zennit.rules import Epsilon

    low, high = _low_high()
    return MixedComposite([
        NameMapComposite(name_map=[(["10", "12"], Epsilon(epsilon=1e-2))]),
        EpsilonGammaBox(low=low, high=high),
    ])


def _name_layer_map(net, x, mode):
    import torch
    from zennit.composites import NameLayerMapComposite
    from zennit.rules import Epsilon, Flat, Gamma, Pass
    from zennit.types import Activation, Convolution

    return NameLayerMapComposite(
        name_map=[(["0"], Flat())],
        layer_map=[(Activation, Pass()), (Convolution, Gamma(gamma=0.25)), (torch.nn.Linear, Epsilon())],
    )


def _registered(name, **kwargs):
    def build(net, x, mode):
        from zennit.composites import COMPOSITES

        return COMPOSITES[name](**kwargs)

    return build


# --- rules by hand, custom rules ------------------------------------------------------------------

def _by_hand(step, x):
    """Rules registered on single modules (``rule.register(module)``), removed after the call."""
    import torch

    handles = [rule.copy().register(step.net[idx]) for idx, rule in step.state]
    try:
        x = x.detach().requires_grad_(True)
        out = step.net(x)
        relevance, = torch.autograd.grad(out, x, grad_outputs=step.onehot, create_graph=step.training)
    finally:
        for handle in handles:
            handle.remove()
    return out, relevance


def _mlp_rules(net, x, mode):
    from zennit.rules import Epsilon, Flat, Pass, ZPlus

    return [(0, Flat()), (1, Pass()), (2, ZPlus()), (3, Pass()), (4, Epsilon(epsilon=1e-3))]


def _relu_rules(net, x, mode):
    from zennit.rules import Gamma, ReLUBetaSmooth, ReLUGuidedBackprop

    return [(0, Gamma(gamma=0.1)), (1, ReLUBetaSmooth(beta_smooth=5.0)), (4, ReLUGuidedBackprop()),
            (7, ReLUBetaSmooth()), (11, ReLUGuidedBackprop())]


def _custom_rules(net, x, mode):
    """The docs' "Writing Custom Rules": a ``BasicHook`` with its own gradient mapper, a ``Hook``
    with its own ``backward``, and ``ParamMod`` modifiers."""
    import torch
    from zennit.composites import LayerMapComposite
    from zennit.core import BasicHook, Hook, ParamMod, stabilize
    from zennit.rules import ClampMod, GammaMod, Norm
    from zennit.types import Convolution

    class GMontavonEpsilon(BasicHook):
        def __init__(self, stabilize_epsilon=1e-6, epsilon=0.25, delta=0.0):
            super().__init__(
                input_modifiers=[lambda input: input],
                param_modifiers=[ParamMod(lambda param, name: param, param_keys=["weight", "bias"])],
                output_modifiers=[lambda output: output],
                gradient_mapper=(lambda out_grad, outputs: out_grad / stabilize(
                    outputs[0] + delta * (outputs[0] ** 2).mean() ** .5 + epsilon, stabilize_epsilon)),
                reducer=(lambda inputs, gradients: inputs[0] * gradients[0]),
            )

    class PlusMinus(BasicHook):  # alpha-beta written out with ClampMod / GammaMod
        def __init__(self):
            super().__init__(
                input_modifiers=[lambda input: input.clamp(min=0), lambda input: input.clamp(max=0)],
                param_modifiers=[GammaMod(gamma=0.5, min=0.0, zero_params=["bias"]),
                                 ClampMod(min=0.0, zero_params=["bias"])],
                output_modifiers=[lambda output: output] * 2,
                gradient_mapper=(lambda out_grad, outputs: [out_grad / stabilize(sum(outputs))] * 2),
                reducer=(lambda inputs, gradients: sum(i * g for i, g in zip(inputs, gradients))),
            )

    class SignedReLU(Hook):
        def backward(self, module, grad_input, grad_output):
            return (grad_output[0].clamp(min=0) + 0.1 * grad_output[0].clamp(max=0),)

    return LayerMapComposite(layer_map=[
        (torch.nn.ReLU, SignedReLU()),
        (Convolution, PlusMinus()),
        (torch.nn.AdaptiveAvgPool2d, Norm()),
        (torch.nn.Linear, GMontavonEpsilon()),
    ])


# --- canonizers -----------------------------------------------------------------------------------

def _named_merge(net, x, mode):
    from zennit.canonizers import NamedMergeBatchNorm
    from zennit.composites import EpsilonPlusFlat

    return EpsilonPlusFlat(canonizers=[NamedMergeBatchNorm([(["features.0"], "features.1"),
                                                            (["features.4"], "features.5")])])


def _block_canonizer(block_type):
    """An ``AttributeCanonizer`` giving the user's block ``ResNetBasicBlockCanonizer.forward`` and a
    ``Sum`` (the library's own canonizer matches only torchvision's ``BasicBlock``)."""
    from zennit.canonizers import AttributeCanonizer
    from zennit.layer import Sum
    from zennit.torchvision import ResNetBasicBlockCanonizer

    def attribute_map(name, module):
        if isinstance(module, block_type):
            return {"forward": ResNetBasicBlockCanonizer.forward.__get__(module), "canonizer_sum": Sum()}
        return None

    return AttributeCanonizer(attribute_map)


def _resnet_canonized(composite_name):
    def build(net, x, mode):
        from zennit import composites
        from zennit.canonizers import CompositeCanonizer, SequentialMergeBatchNorm

        canonizer = CompositeCanonizer([SequentialMergeBatchNorm(), _block_canonizer(net.block_type)])
        kw = {"canonizers": [canonizer]}
        if composite_name == "EpsilonGammaBox":
            kw["low"], kw["high"] = _low_high()
        return getattr(composites, composite_name)(**kw)

    return build


def _occlusion_state(**kwargs):
    def build(net, x, mode):
        from functools import partial

        import torch
        from zennit.attribution import Occlusion, occlude_independent

        kw = dict(kwargs)
        if kw.pop("ones", False):
            kw["occlusion_fn"] = partial(occlude_independent, fill_fn=torch.ones_like, invert=True)
        return Occlusion(model=net, **kw)

    return build


def _ig_baseline(x):
    return x.mean(dim=(2, 3), keepdim=True).expand_as(x)


_C = _composite
_CNN, _BN, _MLP, _C1D, _RES, _SUM, _AE = _cnn, _cnn_bn, _mlp, _cnn1d, _resnet, _sum_resnet, _autoencoder

MODELS = {
    # Gradient + built-in composites
    "EpsilonPlusFlat": _entry(_CNN, _gradient(_C("EpsilonPlusFlat")), _call),
    "EpsilonPlusFlat_conv1d": _entry(_C1D, _gradient(_C("EpsilonPlusFlat")), _call),
    "EpsilonPlusFlat_mlp": _entry(_MLP, _gradient(_C("EpsilonPlusFlat")), _call),
    "EpsilonGammaBox": _entry(_CNN, _gradient(_C("EpsilonGammaBox", gamma=0.25)), _call),
    "EpsilonGammaBox_SequentialMergeBatchNorm": _entry(
        _BN, _gradient(_C("EpsilonGammaBox", canonizers=[_canon("SequentialMergeBatchNorm")])), _call),
    "EpsilonPlus_zero_bias": _entry(_CNN, _gradient(_C("EpsilonPlus", zero_params=["bias"])), _call),
    "EpsilonAlpha2Beta1": _entry(_CNN, _gradient(_C("EpsilonAlpha2Beta1")), _call),
    "EpsilonAlpha2Beta1Flat_mlp": _entry(_MLP, _gradient(_C("EpsilonAlpha2Beta1Flat")), _call),
    "DeconvNet": _entry(_CNN, _gradient(_C("DeconvNet")), _call),
    "GuidedBackprop": _entry(_CNN, _gradient(_C("GuidedBackprop")), _call),
    "ExcitationBackprop": _entry(_CNN, _gradient(_C("ExcitationBackprop")), _call),
    "BetaSmooth": _entry(_CNN, _gradient(_C("BetaSmooth", beta_smooth=5.0)), _call),
    "COMPOSITES_registry": _entry(_CNN, _gradient(_registered("epsilon_plus_flat")), _call),
    "EpsilonAlpha2Beta1_autoencoder": _entry(_AE, _gradient(_C("EpsilonAlpha2Beta1")), _call),
    # Gradient usage
    "Gradient": _entry(_MLP, _gradient(), _call),
    "Gradient_predicted_class": _entry(_CNN, _predicted_class, _call_default),
    "Gradient_with_context": _entry(_CNN, _C("EpsilonPlusFlat"), _with_attributor),
    "Gradient_second_order_inactive": _entry(_CNN, _second_order_state, _second_order),
    "composite_context_autograd": _entry(_CNN, _C("EpsilonGammaBox"), _context),
    # other attributors
    "SmoothGrad": _entry(_CNN, _gradient(attributor="SmoothGrad", noise_level=0.1, n_iter=4), _call),
    "SmoothGrad_EpsilonPlusFlat": _entry(
        _MLP, _gradient(_C("EpsilonPlusFlat"), attributor="SmoothGrad", n_iter=4), _call),
    "IntegratedGradients": _entry(_CNN, _gradient(attributor="IntegratedGradients", n_iter=4), _call),
    "IntegratedGradients_EpsilonGammaBox_baseline": _entry(
        _CNN, _gradient(_C("EpsilonGammaBox"), attributor="IntegratedGradients", n_iter=4,
                        baseline_fn=_ig_baseline), _call),
    "Occlusion": _entry(_CNN, _gradient(attributor="Occlusion"), _call_score),
    "Occlusion_window4_ones_invert": _entry(
        _CNN, _occlusion_state(window=(4, 4), stride=(4, 4), ones=True), _call_score),
    "Occlusion_conv1d": _entry(_C1D, _occlusion_state(window=(8,), stride=(8,)), _call_score),
    # general composites
    "LayerMapComposite_stabilizer": _entry(_CNN, _gradient(_layer_map), _call),
    "SpecialFirstLayerMapComposite_WSquare": _entry(_CNN, _gradient(_special_first), _call),
    "NameMapComposite": _entry(_CNN, _gradient(_name_map), _call),
    "MixedComposite": _entry(_CNN, _gradient(_mixed), _call),
    "NameLayerMapComposite": _entry(_CNN, _gradient(_name_layer_map), _call),
    "Sum_layer_EpsilonPlusFlat": _entry(_SUM, _gradient(_C("EpsilonPlusFlat")), _call),
    "Sum_layer_EpsilonGammaBox": _entry(_SUM, _gradient(_C("EpsilonGammaBox")), _call),
    # rules by hand, custom rules
    "rules_by_hand_mlp": _entry(_MLP, _mlp_rules, _by_hand),
    "rules_by_hand_relu_beta_smooth": _entry(_CNN, _relu_rules, _by_hand),
    "custom_rules": _entry(_CNN, _gradient(_custom_rules), _call),
    # canonizers
    "NamedMergeBatchNorm": _entry(_BN, _gradient(_named_merge), _call),
    "VGGCanonizer_EpsilonAlpha2Beta1Flat": _entry(
        _BN, _gradient(_C("EpsilonAlpha2Beta1Flat", canonizers=[_canon("VGGCanonizer")])), _call),
    "ResNet_block_canonizer_EpsilonPlusFlat": _entry(_RES, _gradient(_resnet_canonized("EpsilonPlusFlat")), _call),
    "ResNet_block_canonizer_EpsilonGammaBox": _entry(_RES, _gradient(_resnet_canonized("EpsilonGammaBox")), _call),
}
