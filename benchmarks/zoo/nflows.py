"""nflows (bayesiains) 0.14, import name ``nflows``: normalizing flows built as its README and
examples build them (``transforms.CompositeTransform`` of transforms, a base distribution,
``flows.Flow``), its ready-made flows, its neural spline flows and its base distributions, tiny
(4 features, batch 16, hidden width 8, 1-5 layers, 8 spline bins; images 1x8x8), random weights,
no download. A ``Flow`` is an ``nn.Module`` whose ``forward`` raises, so each use is a small
module whose forward calls the method a training / inference loop calls:

- ``flow.log_prob(inputs[, context=])`` (``LogProb``; train: ``NLL``, ``-log_prob(...).mean()``
  as the README's training loop): the README flow (``MaskedAffineAutoregressiveTransform`` +
  ``RandomPermutation``, ``StandardNormal``), the moons example (5 x ``ReversePermutation`` +
  MAF layer), the conditional moons example (``ConditionalDiagonalNormal`` with a
  ``nn.Linear`` context encoder, MAF layers with ``context_features``), a flow over a trainable
  ``DiagonalNormal`` base;
- ``flows.MaskedAutoregressiveFlow``: the defaults; random masks with feedforward blocks, random
  permutations and dropout; batch norm within and between layers. ``flows.SimpleRealNVP``: the
  defaults (affine couplings); volume preserving (additive / NICE couplings) with batch norm;
- neural spline flows: the autoregressive RQ-NSF (``RandomPermutation`` + ``LULinear`` +
  ``MaskedPiecewiseRationalQuadraticAutoregressiveTransform``, linear tails); the coupling RQ-NSF
  (``ActNorm`` + ``LULinear`` + ``PiecewiseRationalQuadraticCouplingTransform`` over a
  ``ResidualNet``, linear tails; ActNorm's data-dependent init runs in train); a bounded one on
  ``[0, 1]`` data (``tails=None``, ``apply_unconditional_transform=True``, then ``Logit``); a
  conditional one (context-aware ``ResidualNet`` and MADE, an ``embedding_net`` on the flow);
  the other spline families as couplings (piecewise linear, quadratic, cubic) and as
  autoregressive transforms (quadratic, cubic, linear);
- the other linear / elementwise transforms in one flow (``PointwiseAffineTransform``,
  ``NaiveLinear``, ``SVDLinear``, ``QRLinear``, ``HouseholderSequence``, ``LULinear`` random init,
  ``CompositeCDFTransform(Sigmoid, PiecewiseRationalQuadraticCDF)``, ``LeakyReLU``), and
  ``LULinear(using_cache=True)`` called on its own (eval: the cached weight; train: no cache);
- a Glow-style image flow: ``MultiscaleCompositeTransform`` of ``SqueezeTransform`` +
  ``ActNorm`` + ``OneByOneConvolution`` + ``AffineCouplingTransform`` over ``ConvResidualNet``;
- ``flow.sample(n[, context])`` (``Sample``; train: the mean of the samples, whose gradient
  reaches the weights through the inverse transform; ``mean_loss_module``): the README flow,
  MaskedAutoregressiveFlow, the autoregressive RQ-NSF (the spline's inverse), the conditional
  moons flow and the conditional NSF (``[context, n, features]``), the image flow;
- ``flow.sample_and_log_prob(n[, context])`` (``SampleAndLogProb``; train: ``ReverseKL``, the
  variational-inference loss ``mean(log q(x) - log p(x))`` against a fixed Gaussian target):
  SimpleRealNVP, the coupling RQ-NSF, an inverse autoregressive flow (``InverseTransform`` of the
  MAF layer), the conditional moons flow;
- ``flow.transform_to_noise(inputs)`` (the README flow; train: ``mean_loss_module``);
- base distributions on their own: ``ConditionalDiagonalNormal.log_prob`` and ``.mean(context)``,
  ``ConditionalIndependentBernoulli.log_prob``, ``MADEMoG.log_prob`` and ``MADEMoG.sample``
  (train: ``SampleStep``, its NLL plus a sample, which ``MixtureOfGaussiansMADE`` draws under
  ``no_grad``);
- the spline functions users call directly, ``unconstrained_rational_quadratic_spline``
  forward and inverse, over learnable bin parameters (``RQSpline``).

    pip install --no-deps nflows==0.14

It imports torch and numpy (installed). Stubbed: ``matplotlib`` and ``matplotlib.pyplot``
(``stub_modules``, only when matplotlib is not installed): ``nflows/nn/nde/made.py`` runs
``from matplotlib import pyplot as plt`` at its top (reached from ``nflows.distributions``, so
from every flow) and never uses ``plt``. Its other declared dependencies, tensorboard and tqdm,
are never imported.

Left out: ``DiagonalNormal`` sampling and ``.mean`` (``_sample`` raises NotImplementedError,
``_mean`` returns a bound method); sampling through ``BatchNorm`` in train mode (its inverse
raises ``InverseNotAvailable`` while training); ``MixtureOfGaussiansMADE.sample`` without a
context (it reads ``context.shape``); ``LotkaVolterraOscillating`` / ``MG1Uniform`` (simulator
priors with no learnable part); ``StandardNormal`` alone (no parameters, so no train loss); the
deprecated ``AffineTransform`` alias (same code as ``PointwiseAffineTransform``); the remaining
parameter-free elementwise transforms (``Tanh``, ``LogTanh``, ``GatedLinearUnit``, the unexported
``CauchyCDF``) and the Piecewise{Linear,Quadratic,Cubic}CDF on their own, the same patterns as
those covered; ``BoxUniform`` (a ``torch.distributions`` subclass, not an nflows Distribution).
Notes: ``Distribution.sample`` checks ``num_samples`` is a positive int in Python; the MAF / NSF
inverse (sampling) loops over the features, calling the MADE once per feature; the splines
index with boolean masks (``inputs[inside_interval_mask]``) and ``searchsorted``; ``ActNorm``
tests ``self.training and not self.initialized`` (a bool buffer) before every forward;
``LULinear.inverse`` uses ``torch.triangular_solve``; ``Linear`` keeps its cache as plain
Python attributes.
"""

import functools

PACKAGE = "nflows"
DISTRIBUTION = "nflows"

_B, _D, _H = 16, 4, 8  # batch, features, hidden width
_C = 3  # context features
_N = 8  # samples drawn per call (per context row when conditional)
_NCTX = 2  # context rows when sampling conditionally
_IMG = (1, 8, 8)  # image flow: channels, height, width
_BINS = 8


@functools.cache
def _stub_matplotlib():
    """``nflows.nn.nde.made`` (imported by ``nflows.distributions``, hence by everything) runs
    ``from matplotlib import pyplot as plt`` at its top and never uses ``plt``: a stand-in when
    matplotlib is not installed."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        stub_modules(  # noqa: F821 (set by ZooSuite)
            {"matplotlib": ((), ()), "matplotlib.pyplot": (("figure", "subplots", "plot", "show"), ())},
            "nflows.nn.nde.made imports",
        )


before_build = _stub_matplotlib  # (ZooSuite runs it before each make: warm_up may not have run)


def warm_up():
    _stub_matplotlib()
    import nflows
    import nflows.distributions
    import nflows.flows
    import nflows.transforms  # noqa: F401
    import torch  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import math
    import types

    import torch
    from torch import nn

    class LogProb(nn.Module):
        """``flow.log_prob(inputs, context=context)``: one log density per row."""

        def __init__(self, flow):
            super().__init__()
            self.flow = flow

        def forward(self, inputs, context=None):
            return self.flow.log_prob(inputs, context=context)

    class NLL(nn.Module):
        """The maximum-likelihood training loss: ``-flow.log_prob(inputs, context).mean()``."""

        def __init__(self, flow):
            super().__init__()
            self.flow = flow

        def forward(self, inputs, context=None):
            return -self.flow.log_prob(inputs=inputs, context=context).mean()

    class Sample(nn.Module):
        """``flow.sample(num_samples[, context])``."""

        def __init__(self, flow, num_samples):
            super().__init__()
            self.flow, self.num_samples = flow, num_samples

        def forward(self, context=None):
            if context is None:
                return self.flow.sample(self.num_samples)
            return self.flow.sample(self.num_samples, context=context)

    class SampleAndLogProb(nn.Module):
        """``flow.sample_and_log_prob(num_samples[, context])``: samples and their log q."""

        def __init__(self, flow, num_samples):
            super().__init__()
            self.flow, self.num_samples = flow, num_samples

        def forward(self, context=None):
            return self.flow.sample_and_log_prob(self.num_samples, context=context)

    class ReverseKL(nn.Module):
        """Variational inference with the flow as q: ``mean(log q(x) - log p(x))`` over
        ``x, log q(x) = flow.sample_and_log_prob(n[, context])``; p a fixed Gaussian
        (mean 1, std 0.5) standing for an unnormalized target density."""

        def __init__(self, flow, num_samples):
            super().__init__()
            self.flow, self.num_samples = flow, num_samples

        def target_log_prob(self, x):
            z = (x - 1.0) / 0.5
            return -0.5 * (z ** 2).sum(-1) - x.shape[-1] * math.log(0.5)

        def forward(self, context=None):
            samples, log_q = self.flow.sample_and_log_prob(self.num_samples, context=context)
            return (log_q - self.target_log_prob(samples)).mean()

    class TransformToNoise(nn.Module):
        """``flow.transform_to_noise(inputs[, context])``: the data mapped to the base space."""

        def __init__(self, flow):
            super().__init__()
            self.flow = flow

        def forward(self, inputs, context=None):
            return self.flow.transform_to_noise(inputs, context=context)

    class Mean(nn.Module):
        """``distribution.mean(context)``."""

        def __init__(self, dist):
            super().__init__()
            self.dist = dist

        def forward(self, context):
            return self.dist.mean(context)

    class SampleStep(nn.Module):
        """A training step that also samples: the NLL, and ``sample(n, context)`` of the batch's
        contexts (dropped; a loop would log or plot it)."""

        def __init__(self, dist, num_samples):
            super().__init__()
            self.dist, self.num_samples = dist, num_samples

        def forward(self, inputs, context):
            loss = -self.dist.log_prob(inputs, context=context).mean()
            self.dist.sample(self.num_samples, context=context)
            return loss

    class RQSpline(nn.Module):
        """``unconstrained_rational_quadratic_spline`` (linear tails) of each feature, its bins
        learnable and shared over the batch, as a user-written elementwise transform would call it;
        returns ``(outputs, logabsdet)`` elementwise."""

        def __init__(self, features, num_bins, tail_bound=3.0, inverse=False):
            super().__init__()
            self.tail_bound, self.inverse = tail_bound, inverse
            self.widths = nn.Parameter(torch.randn(features, num_bins))
            self.heights = nn.Parameter(torch.randn(features, num_bins))
            self.derivatives = nn.Parameter(torch.randn(features, num_bins - 1))

        def forward(self, inputs):
            from nflows.transforms.splines import (
                unconstrained_rational_quadratic_spline,
            )

            b = inputs.shape[0]
            return unconstrained_rational_quadratic_spline(
                inputs,
                self.widths.expand(b, -1, -1),
                self.heights.expand(b, -1, -1),
                self.derivatives.expand(b, -1, -1),
                inverse=self.inverse,
                tails="linear",
                tail_bound=self.tail_bound,
            )

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the flows -----------------------------------------------------------------------------------

def _readme_flow():
    """The README's flow, on 4 features."""
    from nflows import distributions, flows, transforms

    transform = transforms.CompositeTransform([
        transforms.MaskedAffineAutoregressiveTransform(features=_D, hidden_features=_H),
        transforms.RandomPermutation(features=_D),
    ])
    return flows.Flow(transform=transform, distribution=distributions.StandardNormal(shape=[_D]))


def _moons_flow():
    """examples/moons.ipynb: 5 x (ReversePermutation, MAF layer), StandardNormal."""
    from nflows.distributions.normal import StandardNormal
    from nflows.flows.base import Flow
    from nflows.transforms.autoregressive import MaskedAffineAutoregressiveTransform
    from nflows.transforms.base import CompositeTransform
    from nflows.transforms.permutations import ReversePermutation

    layers = []
    for _ in range(5):
        layers.append(ReversePermutation(features=2))
        layers.append(MaskedAffineAutoregressiveTransform(features=2, hidden_features=4))
    return Flow(CompositeTransform(layers), StandardNormal(shape=[2]))


def _conditional_moons_flow():
    """examples/conditional_moons.ipynb: a ConditionalDiagonalNormal base whose mean / log std come
    from ``nn.Linear(1, 4)`` of the label, MAF layers with ``context_features=1``."""
    from nflows.distributions.normal import ConditionalDiagonalNormal
    from nflows.flows.base import Flow
    from nflows.transforms.autoregressive import MaskedAffineAutoregressiveTransform
    from nflows.transforms.base import CompositeTransform
    from nflows.transforms.permutations import ReversePermutation
    from torch import nn

    base = ConditionalDiagonalNormal(shape=[2], context_encoder=nn.Linear(1, 4))
    layers = []
    for _ in range(3):
        layers.append(ReversePermutation(features=2))
        layers.append(MaskedAffineAutoregressiveTransform(features=2, hidden_features=4,
                                                          context_features=1))
    return Flow(CompositeTransform(layers), base)


def _diagonal_base_flow():
    """A MAF layer over a trainable ``DiagonalNormal`` base."""
    from nflows import distributions, flows, transforms

    transform = transforms.CompositeTransform([
        transforms.ReversePermutation(features=_D),
        transforms.MaskedAffineAutoregressiveTransform(features=_D, hidden_features=_H),
    ])
    return flows.Flow(transform, distributions.DiagonalNormal(shape=[_D]))


def _maf(**kwargs):
    from nflows.flows import MaskedAutoregressiveFlow

    return MaskedAutoregressiveFlow(features=_D, hidden_features=_H, num_layers=2,
                                    num_blocks_per_layer=2, **kwargs)


def _realnvp(**kwargs):
    from nflows.flows import SimpleRealNVP

    return SimpleRealNVP(features=_D, hidden_features=_H, num_layers=2, num_blocks_per_layer=2,
                         **kwargs)


def _resnet_fn(context_features=None):
    """``transform_net_create_fn`` for couplings: ``ResidualNet(in, out, hidden)``."""
    from nflows.nn.nets import ResidualNet

    def create(in_features, out_features):
        return ResidualNet(in_features, out_features, hidden_features=_H,
                           context_features=context_features, num_blocks=2)

    return create


def _nsf_autoregressive():
    """Autoregressive RQ-NSF: (RandomPermutation, LULinear, RQ MADE spline, linear tails) x 2."""
    from nflows import distributions, flows, transforms

    layers = []
    for _ in range(2):
        layers += [
            transforms.RandomPermutation(features=_D),
            transforms.LULinear(_D, identity_init=True),
            transforms.MaskedPiecewiseRationalQuadraticAutoregressiveTransform(
                features=_D, hidden_features=_H, num_bins=_BINS, tails="linear", tail_bound=3.0,
                num_blocks=2),
        ]
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _nsf_coupling():
    """Coupling RQ-NSF: (ActNorm, LULinear, RQ coupling over a ResidualNet) x 2."""
    from nflows import distributions, flows, transforms
    from nflows.utils import torchutils

    layers = []
    for i in range(2):
        layers += [
            transforms.ActNorm(features=_D),
            transforms.LULinear(_D, identity_init=True),
            transforms.PiecewiseRationalQuadraticCouplingTransform(
                mask=torchutils.create_alternating_binary_mask(_D, even=(i % 2 == 0)),
                transform_net_create_fn=_resnet_fn(), num_bins=_BINS, tails="linear",
                tail_bound=3.0),
        ]
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _nsf_bounded():
    """RQ couplings on ``[0, 1]`` (``tails=None``, the identity half through an unconditional
    ``PiecewiseRationalQuadraticCDF``), then ``Logit`` onto the real line."""
    from nflows import distributions, flows, transforms
    from nflows.utils import torchutils

    layers = [
        transforms.PiecewiseRationalQuadraticCouplingTransform(
            mask=torchutils.create_mid_split_binary_mask(_D), transform_net_create_fn=_resnet_fn(),
            num_bins=_BINS, tails=None, apply_unconditional_transform=True),
        transforms.PiecewiseRationalQuadraticCouplingTransform(
            mask=1 - torchutils.create_mid_split_binary_mask(_D),
            transform_net_create_fn=_resnet_fn(), num_bins=_BINS, tails=None),
        transforms.Logit(eps=1e-5),
    ]
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _nsf_conditional():
    """Conditional NSF: an embedding net on the context, an RQ coupling whose ResidualNet and an
    RQ MADE whose context layers read the embedded context."""
    from nflows import distributions, flows, transforms
    from nflows.utils import torchutils
    from torch import nn

    emb = 4
    layers = [
        transforms.PiecewiseRationalQuadraticCouplingTransform(
            mask=torchutils.create_alternating_binary_mask(_D),
            transform_net_create_fn=_resnet_fn(context_features=emb), num_bins=_BINS,
            tails="linear", tail_bound=3.0),
        transforms.ReversePermutation(features=_D),
        transforms.MaskedPiecewiseRationalQuadraticAutoregressiveTransform(
            features=_D, hidden_features=_H, context_features=emb, num_bins=_BINS,
            tails="linear", tail_bound=3.0),
    ]
    embedding_net = nn.Sequential(nn.Linear(_C, 8), nn.ReLU(), nn.Linear(8, emb))
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]),
                      embedding_net=embedding_net)


def _spline_coupling(kind):
    """Two couplings of one spline family (``kind``: linear on [0, 1], quadratic / cubic with linear
    tails), a ReversePermutation between them."""
    from nflows import distributions, flows, transforms
    from nflows.utils import torchutils

    cls = {
        "linear": transforms.PiecewiseLinearCouplingTransform,
        "quadratic": transforms.PiecewiseQuadraticCouplingTransform,
        "cubic": transforms.PiecewiseCubicCouplingTransform,
    }[kind]
    kwargs = {"tails": None} if kind == "linear" else {"tails": "linear", "tail_bound": 3.0}
    layers = []
    for i in range(2):
        layers.append(cls(mask=torchutils.create_alternating_binary_mask(_D, even=(i == 0)),
                          transform_net_create_fn=_resnet_fn(), num_bins=_BINS, **kwargs))
    if kind == "linear":
        layers.append(transforms.Logit(eps=1e-5))
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _spline_autoregressive(kind):
    """Two MADE spline layers of one family (``kind``: quadratic with linear tails; cubic and
    linear on [0, 1], then Logit)."""
    from nflows import distributions, flows, transforms

    layers = []
    for _ in range(2):
        layers.append(transforms.ReversePermutation(features=_D))
        if kind == "quadratic":
            layers.append(transforms.MaskedPiecewiseQuadraticAutoregressiveTransform(
                features=_D, hidden_features=_H, num_bins=_BINS, tails="linear", tail_bound=3.0))
        elif kind == "cubic":
            layers.append(transforms.MaskedPiecewiseCubicAutoregressiveTransform(
                num_bins=_BINS, features=_D, hidden_features=_H))
        else:
            layers.append(transforms.MaskedPiecewiseLinearAutoregressiveTransform(
                num_bins=_BINS, features=_D, hidden_features=_H))
    if kind != "quadratic":
        layers.append(transforms.Logit(eps=1e-5))
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _iaf():
    """An inverse autoregressive flow: ``InverseTransform`` of MAF layers (sampling is one MADE
    pass per layer, density evaluation the feature loop)."""
    from nflows import distributions, flows, transforms

    layers = []
    for _ in range(2):
        layers.append(transforms.ReversePermutation(features=_D))
        layers.append(transforms.InverseTransform(
            transforms.MaskedAffineAutoregressiveTransform(features=_D, hidden_features=_H)))
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _linear_flow():
    """The linear and elementwise transforms: standardization, NaiveLinear, SVDLinear, QRLinear,
    HouseholderSequence, LULinear (random init), a CDF transform, LeakyReLU."""
    import torch
    from nflows import distributions, flows, transforms

    layers = [
        transforms.PointwiseAffineTransform(shift=-0.1 * torch.ones(_D), scale=2.0 * torch.ones(_D)),
        transforms.NaiveLinear(_D),
        transforms.SVDLinear(_D, num_householder=2),
        transforms.CompositeCDFTransform(
            transforms.Sigmoid(), transforms.PiecewiseRationalQuadraticCDF(shape=[_D], num_bins=_BINS)),
        transforms.QRLinear(_D, num_householder=2),
        transforms.HouseholderSequence(_D, num_transforms=2),
        transforms.LeakyReLU(negative_slope=0.1),
        transforms.LULinear(_D, identity_init=False),
    ]
    return flows.Flow(transforms.CompositeTransform(layers), distributions.StandardNormal([_D]))


def _glow_flow():
    """Glow / multiscale RealNVP on 1x8x8 images: two levels of (SqueezeTransform, ActNorm,
    OneByOneConvolution, channel-mask AffineCouplingTransform over ConvResidualNet), the first
    level's half split off by ``MultiscaleCompositeTransform``; base StandardNormal over 64."""
    import numpy as np
    from nflows import distributions, flows, transforms
    from nflows.nn.nets import ConvResidualNet
    from nflows.utils import torchutils

    def conv_net(in_channels, out_channels):
        return ConvResidualNet(in_channels, out_channels, hidden_channels=8, num_blocks=1)

    levels = 2
    multiscale = transforms.MultiscaleCompositeTransform(num_transforms=levels)
    c, h, w = _IMG
    shape = (c, h, w)
    for _ in range(levels):
        squeeze = transforms.SqueezeTransform()
        c, h, w = squeeze.get_output_shape(*shape)
        level = transforms.CompositeTransform([
            squeeze,
            transforms.ActNorm(c),
            transforms.OneByOneConvolution(c),
            transforms.AffineCouplingTransform(
                mask=torchutils.create_mid_split_binary_mask(c), transform_net_create_fn=conv_net),
        ])
        shape = multiscale.add_transform(level, (c, h, w))
    return flows.Flow(multiscale, distributions.StandardNormal([int(np.prod(_IMG))]))


# --- inputs ------------------------------------------------------------------------------------

def _x(features=_D):
    import torch

    return torch.randn(_B, features)


def _unit_x():
    """Data on (0, 1) for the bounded splines."""
    import torch

    return torch.rand(_B, _D).clamp(0.02, 0.98)


def _ctx(rows=_B, features=_C):
    import torch

    return torch.randn(rows, features)


# --- model factories ---------------------------------------------------------------------------

def _log_prob(build, inputs=_x, context=None):
    """``flow.log_prob(inputs[, context=])``; train: ``NLL``."""

    def make(mode):
        flow = build()
        kwargs = {} if context is None else {"context": context()}
        net = _nets().NLL(flow) if mode == "train" else _nets().LogProb(flow)
        return net, (inputs(),), kwargs

    return make


def _sample(build, context=None):
    """``flow.sample(n[, context])``; train: the samples' mean (``mean_loss_module``)."""

    def make(mode):
        net = _nets().Sample(build(), _N)
        kwargs = {} if context is None else {"context": context()}
        if mode == "train":
            net = mean_loss_module()(net)  # noqa: F821 (set by ZooSuite)
        return net, (), kwargs

    return make


def _sample_and_log_prob(build, context=None):
    """``flow.sample_and_log_prob(n[, context])``; train: ``ReverseKL``."""

    def make(mode):
        cls = _nets().ReverseKL if mode == "train" else _nets().SampleAndLogProb
        kwargs = {} if context is None else {"context": context()}
        return cls(build(), _N), (), kwargs

    return make


def _transform_to_noise(mode):
    net = _nets().TransformToNoise(_readme_flow())
    if mode == "train":
        net = mean_loss_module()(net)  # noqa: F821
    return net, (_x(),), {}


def _moons_x():
    import torch

    return torch.randn(_B, 2)


def _moons_label():
    import torch

    return (torch.arange(_B) % 2).float().reshape(-1, 1)


def _moons_label_sample():
    import torch

    return torch.tensor([[0.0], [1.0]])


def _lu_cached(mode):
    """``LULinear(using_cache=True)`` called on its own: ``(outputs, logabsdet)``; eval goes
    through the weight / logabsdet cache, train recomputes (``mean_loss_module``)."""
    from nflows.transforms import LULinear

    lu = LULinear(_D, using_cache=True, identity_init=False)
    if mode == "train":
        return mean_loss_module()(lu), (_x(),), {}  # noqa: F821
    return lu, (_x(),), {}


def _cond_diag_normal(what):
    """``ConditionalDiagonalNormal`` with a linear context encoder: ``log_prob`` (train: NLL) or
    ``mean(context)`` (train: ``mean_loss_module``)."""

    def make(mode):
        from nflows.distributions import ConditionalDiagonalNormal
        from torch import nn

        dist = ConditionalDiagonalNormal(shape=[_D], context_encoder=nn.Linear(_C, 2 * _D))
        if what == "mean":
            net = _nets().Mean(dist)
            if mode == "train":
                net = mean_loss_module()(net)  # noqa: F821
            return net, (_ctx(),), {}
        net = _nets().NLL(dist) if mode == "train" else _nets().LogProb(dist)
        return net, (_x(),), {"context": _ctx()}

    return make


def _bernoulli(mode):
    """``ConditionalIndependentBernoulli.log_prob(bits, context)``, logits from a linear encoder."""
    import torch
    from nflows.distributions import ConditionalIndependentBernoulli
    from torch import nn

    dist = ConditionalIndependentBernoulli(shape=[_D], context_encoder=nn.Linear(_C, _D))
    bits = torch.randint(0, 2, (_B, _D)).float()
    net = _nets().NLL(dist) if mode == "train" else _nets().LogProb(dist)
    return net, (bits,), {"context": _ctx()}


def _made_mog(what):
    """``MADEMoG`` (a MADE mixture of 3 Gaussians per feature, conditional): ``log_prob`` (train:
    NLL) or ``sample(n, context)`` (train: ``SampleStep``)."""

    def make(mode):
        from nflows.distributions import MADEMoG

        dist = MADEMoG(features=_D, hidden_features=_H, context_features=_C,
                       num_mixture_components=3)
        if what == "sample":
            if mode == "train":
                return _nets().SampleStep(dist, _N), (_x(),), {"context": _ctx()}
            return _nets().Sample(dist, _N), (), {"context": _ctx(_NCTX)}
        net = _nets().NLL(dist) if mode == "train" else _nets().LogProb(dist)
        return net, (_x(),), {"context": _ctx()}

    return make


def _rq_spline(inverse):
    """``unconstrained_rational_quadratic_spline`` (forward or inverse); train: ``mean_loss_module``."""

    def make(mode):
        import torch

        net = _nets().RQSpline(_D, _BINS, tail_bound=3.0, inverse=inverse)
        x = 2.0 * torch.randn(_B, _D)  # some rows outside the tail bound
        if mode == "train":
            net = mean_loss_module()(net)  # noqa: F821
        return net, (x,), {}

    return make


def _image_x():
    import torch

    return torch.randn(4, *_IMG)


MODELS = {
    # the README / examples: Flow(CompositeTransform([...]), base)
    "Flow_README_MAF_log_prob": _log_prob(_readme_flow),
    "Flow_README_MAF_sample": _sample(_readme_flow),
    "Flow_README_MAF_transform_to_noise": _transform_to_noise,
    "Flow_moons_MAF_log_prob": _log_prob(_moons_flow, inputs=_moons_x),
    "Flow_conditional_moons_log_prob": _log_prob(_conditional_moons_flow, inputs=_moons_x,
                                                 context=_moons_label),
    "Flow_conditional_moons_sample": _sample(_conditional_moons_flow, context=_moons_label_sample),
    "Flow_conditional_moons_sample_and_log_prob": _sample_and_log_prob(
        _conditional_moons_flow, context=_moons_label_sample),
    "Flow_DiagonalNormal_base_log_prob": _log_prob(_diagonal_base_flow),
    # ready-made flows
    "MaskedAutoregressiveFlow_log_prob": _log_prob(_maf),
    "MaskedAutoregressiveFlow_random_masks_log_prob": _log_prob(functools.partial(
        _maf, use_residual_blocks=False, use_random_masks=True, use_random_permutations=True,
        dropout_probability=0.1)),
    "MaskedAutoregressiveFlow_batch_norm_log_prob": _log_prob(functools.partial(
        _maf, batch_norm_within_layers=True, batch_norm_between_layers=True)),
    "MaskedAutoregressiveFlow_sample": _sample(_maf),
    "SimpleRealNVP_log_prob": _log_prob(_realnvp),
    "SimpleRealNVP_volume_preserving_batch_norm_log_prob": _log_prob(functools.partial(
        _realnvp, use_volume_preserving=True, batch_norm_within_layers=True,
        batch_norm_between_layers=True)),
    "SimpleRealNVP_sample_and_log_prob": _sample_and_log_prob(_realnvp),
    "IAF_sample_and_log_prob": _sample_and_log_prob(_iaf),
    # neural spline flows
    "NSF_autoregressive_RQ_log_prob": _log_prob(_nsf_autoregressive),
    "NSF_autoregressive_RQ_sample": _sample(_nsf_autoregressive),
    "NSF_coupling_RQ_log_prob": _log_prob(_nsf_coupling),
    "NSF_coupling_RQ_sample_and_log_prob": _sample_and_log_prob(_nsf_coupling),
    "NSF_coupling_RQ_bounded_log_prob": _log_prob(_nsf_bounded, inputs=_unit_x),
    "NSF_conditional_log_prob": _log_prob(_nsf_conditional, context=_ctx),
    "NSF_conditional_sample": _sample(_nsf_conditional, context=functools.partial(_ctx, _NCTX)),
    "Coupling_piecewise_linear_log_prob": _log_prob(functools.partial(_spline_coupling, "linear"),
                                                    inputs=_unit_x),
    "Coupling_piecewise_quadratic_log_prob": _log_prob(functools.partial(_spline_coupling,
                                                                         "quadratic")),
    "Coupling_piecewise_cubic_log_prob": _log_prob(functools.partial(_spline_coupling, "cubic")),
    "MAF_piecewise_quadratic_log_prob": _log_prob(functools.partial(_spline_autoregressive,
                                                                    "quadratic")),
    "MAF_piecewise_cubic_log_prob": _log_prob(functools.partial(_spline_autoregressive, "cubic"),
                                              inputs=_unit_x),
    "MAF_piecewise_linear_log_prob": _log_prob(functools.partial(_spline_autoregressive, "linear"),
                                               inputs=_unit_x),
    # linear / elementwise transforms; images
    "Flow_linear_transforms_log_prob": _log_prob(_linear_flow),
    "LULinear_cached": _lu_cached,
    "Glow_multiscale_image_log_prob": _log_prob(_glow_flow, inputs=_image_x),
    "Glow_multiscale_image_sample": _sample(_glow_flow),
    # base distributions on their own
    "ConditionalDiagonalNormal_log_prob": _cond_diag_normal("log_prob"),
    "ConditionalDiagonalNormal_mean": _cond_diag_normal("mean"),
    "ConditionalIndependentBernoulli_log_prob": _bernoulli,
    "MADEMoG_log_prob": _made_mog("log_prob"),
    "MADEMoG_sample": _made_mog("sample"),
    # spline functions
    "RQ_spline_forward": _rq_spline(inverse=False),
    "RQ_spline_inverse": _rq_spline(inverse=True),
}
