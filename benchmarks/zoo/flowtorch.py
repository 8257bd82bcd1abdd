"""FlowTorch (facebookincubator) 0.8, import name ``flowtorch``: normalizing flows built as its
README, docs and tests build them (a lazy bijector, or a ``bijectors.Compose`` of them, with its
``params_fn`` from ``flowtorch.parameters``, handed to ``distributions.Flow`` with a
``torch.distributions`` base), tiny (4 features, batch 8, hidden widths 8-16, 4 spline bins),
random weights, no download. A ``Flow`` is an ``nn.Module`` and a ``Distribution`` with no
``forward``, so each use is a small module whose forward calls the method a training / inference
loop calls:

- ``flow.log_prob(y)`` (eval: the log-density; train: ``-flow.log_prob(y).mean()``, the README's
  training loop): every standard bijector of 0.8 with a learnable part, ``Affine`` (an
  ``Independent(Normal)`` base, and a plain ``Normal`` base whose batch shape is the features),
  ``AffineAutoregressive`` (the default ``DenseAutoregressive()``, as ``test_tdist_standalone``;
  ``hidden_dims``; ``nn.Tanh`` nonlinearity; a given ``permutation``; other ``log_scale``
  clips), ``Affine`` over ``parameters.Tensor()`` given explicitly, ``Spline`` and
  ``SplineAutoregressive`` (linear and quadratic order), ``Compose`` of three
  ``AffineAutoregressive`` (the bijective-tensor test's net), with ``Permute`` between them
  (random and given permutation), of ``SplineAutoregressive`` + ``Permute`` (an autoregressive
  NSF), of ``Affine`` + ``Spline``, ``Invert(AffineAutoregressive)`` (an IAF), and each
  parameter-free bijector (``Exp``, ``Softplus``, ``Sigmoid``, ``Tanh``, ``ELU``, ``LeakyReLU``;
  ``Power`` after ``Affine`` + ``Exp``) composed after a learnable ``Affine`` to reach its
  codomain, scored on data inside it, and ``AffineFixed`` before a ``Spline``;
- ``flow.rsample((8,))`` (eval: the sample; train: the reverse-KL / VI loss
  ``mean(flow.log_prob(z) - target.log_prob(z))`` on ``z = flow.rsample``, the flow's score read
  back from the bijective-tensor cache): ``AffineAutoregressive``, ``Compose`` with ``Permute``,
  ``Spline``, ``SplineAutoregressive``, an IAF, and the tests' VI fit of ``NealsFunnel``;
  a (2, 3) ``sample_shape``;
- ``flow.sample((8,))`` (``no_grad``; train: ``mean_loss_module``): ``AffineAutoregressive``,
  ``Compose`` of MAF layers with ``Permute``;
- ``flow.rnormalize(y)`` and ``flow.normalize(y)`` (``mean_loss_module`` in train);
- bijectors used on their own, as ``tests/test_bijectivetensor.py`` does: a ``Compose`` of three
  ``AffineAutoregressive`` instantiated with ``shape=``, ``forward`` then ``inverse`` then
  ``log_abs_det_jacobian`` (the cached path), and the same under
  ``set_record_flow_graph(False)`` (recomputed: the inverse loops over the features);
- ``parameters.DenseAutoregressive`` and ``parameters.Tensor`` called directly (the parameter
  tensors, ``mean_loss_module`` in train), and ``nn.MaskedLinear`` with ``create_mask``'s masks.

    pip install --no-deps flowtorch==0.8

``flowtorch`` imports only torch (its one declared dependency; numpy, scipy, pytest are dev /
test extras). Nothing stubbed.

Left out: conditional flows (``context=`` / ``Flow.condition``): every ``Bijector.forward`` /
``inverse`` of 0.8 asserts ``context is None``; ``Bijector``, ``Elementwise``, ``Fixed``,
``Autoregressive``, ``VolumePreserving`` (meta bijectors: ``__init__`` refuses them); a flow of a
parameter-free bijector alone (no train loss); ``NealsFunnel`` alone (a target, no parameters);
``flowtorch.docs`` / ``flowtorch.utils`` (doc generation and module walking);
``DenseAutoregressive(skip_connections=True)`` (fails eagerly: its forward loop feeds the hidden
state into the appended skip layer, a (8x8) @ (4x8) shape error); a ``Permute`` with only an
elementwise bijector, and any ``Compose`` mixing elementwise (``Affine``, ``Spline``, the fixed
ones) with vector bijectors (``*Autoregressive``, ``Permute``): ``Compose.log_abs_det_jacobian``
adds a (batch, features) term to a (batch,) one and fails eagerly, so the fixed bijectors follow
an ``Affine`` here, not an autoregressive layer. The brief's
``NeuralAutoregressive``, ``Planar``, ``Radial`` and ``Sylvester`` are not in 0.8 (its
``bijectors/__init__.py`` lists the bijectors covered here and nothing else). Notes:
``Autoregressive.inverse`` loops over the permutation buffer in Python (one MADE pass per
feature); bijectors return ``BijectiveTensor`` (a ``Tensor`` subclass with
``__torch_function__``) and look their caches up with ``isinstance`` / ``is`` / ``in set(...)``;
``Permute`` draws its permutation at the first call when none is given (the first run of a
random-``Permute`` model sets it in Python).
"""

import functools

PACKAGE = "flowtorch"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _D = 8, 4  # batch, features
_H = (16, 16)  # MADE hidden widths (not less than _D)


def warm_up():
    import flowtorch.bijectors
    import flowtorch.distributions
    import flowtorch.nn
    import flowtorch.parameters  # noqa: F401
    import torch  # noqa: F401


# --- building blocks ---------------------------------------------------------------------------

def _base(independent=True):
    import torch

    normal = torch.distributions.Normal(torch.zeros(_D), torch.ones(_D))
    return torch.distributions.Independent(normal, 1) if independent else normal


def _target():
    import torch

    return torch.distributions.Independent(torch.distributions.Normal(torch.zeros(_D) + 1.0, torch.ones(_D) * 0.5), 1)


def _dense(**kw):
    import flowtorch.parameters as params

    kw.setdefault("hidden_dims", _H)
    return params.DenseAutoregressive(**kw)


def _bijector(kind):
    """The lazy bijector (no ``shape`` yet) a user hands to ``Flow``."""
    import flowtorch.bijectors as bij
    import torch

    if kind == "Affine":
        return bij.Affine()
    if kind == "Affine_Tensor":
        import flowtorch.parameters as params

        return bij.Affine(params.Tensor())
    if kind == "AffineAutoregressive":
        return bij.AffineAutoregressive(_dense())
    if kind == "AffineAutoregressive_default":
        return bij.AffineAutoregressive()
    if kind == "AffineAutoregressive_tanh":
        return bij.AffineAutoregressive(_dense(hidden_dims=(8,), nonlinearity=torch.nn.Tanh))
    if kind == "AffineAutoregressive_permutation":
        return bij.AffineAutoregressive(_dense(permutation=torch.LongTensor([3, 1, 0, 2])))
    if kind == "AffineAutoregressive_clips":
        return bij.AffineAutoregressive(_dense(), log_scale_min_clip=-2.0, log_scale_max_clip=2.0, sigmoid_bias=1.0)
    if kind == "Spline":
        return bij.Spline(count_bins=4, bound=4.0)
    if kind == "Spline_quadratic":
        return bij.Spline(count_bins=4, order="quadratic")
    if kind == "SplineAutoregressive":
        return bij.SplineAutoregressive(_dense(), count_bins=4)
    if kind == "SplineAutoregressive_quadratic":
        return bij.SplineAutoregressive(_dense(), count_bins=4, order="quadratic")
    if kind == "MAF":  # the bijective-tensor test's net
        return bij.Compose([bij.AffineAutoregressive(_dense()) for _ in range(3)])
    if kind == "MAF_Permute":
        return bij.Compose([bij.AffineAutoregressive(_dense()), bij.Permute(),
                            bij.AffineAutoregressive(_dense()), bij.Permute(),
                            bij.AffineAutoregressive(_dense())])
    if kind == "MAF_Permute_given":
        return bij.Compose([bij.AffineAutoregressive(_dense()), bij.Permute(permutation=torch.tensor([3, 2, 1, 0])),
                            bij.AffineAutoregressive(_dense())])
    if kind == "Affine_Spline":
        return bij.Compose([bij.Affine(), bij.Spline(count_bins=4)])
    if kind == "IAF":
        return bij.Invert(bij.AffineAutoregressive(_dense()))
    if kind == "NSF_AR_Permute":
        return bij.Compose([bij.SplineAutoregressive(_dense(), count_bins=4), bij.Permute(),
                            bij.SplineAutoregressive(_dense(), count_bins=4)])
    # a parameter-free (elementwise) bijector after a learnable elementwise one, to map onto its
    # codomain (``Compose`` cannot mix event dims: see the docstring)
    fixed = {"Exp": bij.Exp, "Softplus": bij.Softplus, "Sigmoid": bij.Sigmoid, "Tanh": bij.Tanh,
             "ELU": bij.ELU, "LeakyReLU": bij.LeakyReLU}
    if kind in fixed:
        return bij.Compose([bij.Affine(), fixed[kind]()])
    if kind == "Power":  # domain positive: Exp first
        return bij.Compose([bij.Affine(), bij.Exp(), bij.Power(exponent=0.5)])
    if kind == "AffineFixed":
        return bij.Compose([bij.AffineFixed(loc=1.0, scale=2.0), bij.Spline(count_bins=4)])
    raise KeyError(kind)


_SUPPORT = {  # data inside each flow's codomain
    "Exp": "positive", "Softplus": "positive", "Power": "positive", "Sigmoid": "unit",
    "Tanh": "signed_unit", "ELU": "above_minus_one",
}


def _data(kind, shape=(_B, _D)):
    import torch

    g = torch.Generator().manual_seed(1)
    support = _SUPPORT.get(kind)
    if support == "positive":
        return torch.rand(shape, generator=g) * 2 + 0.1
    if support == "unit":
        return torch.rand(shape, generator=g) * 0.8 + 0.1
    if support == "signed_unit":
        return torch.rand(shape, generator=g) * 1.6 - 0.8
    if support == "above_minus_one":
        return torch.rand(shape, generator=g) * 3 - 0.9
    return torch.randn(shape, generator=g)


def _flow(kind, independent=True):
    import flowtorch.distributions as dist

    return dist.Flow(_base(independent), _bijector(kind))


@functools.cache
def _modules():
    import torch

    class LogProb(torch.nn.Module):
        """``flow.log_prob(y)``; train: the README's loss ``-flow.log_prob(y).mean()``."""

        def __init__(self, flow, loss):
            super().__init__()
            self.flow, self.loss = flow, loss

        def forward(self, y):
            if self.loss:
                return -self.flow.log_prob(y).mean()
            return self.flow.log_prob(y)

    class RSample(torch.nn.Module):
        """``flow.rsample(shape)``; train: reverse KL against a target (variational inference)."""

        def __init__(self, flow, target, shape, loss):
            super().__init__()
            self.flow, self.target, self.shape, self.loss = flow, target, shape, loss

        def forward(self):
            z = self.flow.rsample(self.shape)
            if self.loss:
                return (self.flow.log_prob(z) - self.target.log_prob(z)).mean()
            return z

    class Call(torch.nn.Module):
        """One method of the flow, by name."""

        def __init__(self, flow, method, *args):
            super().__init__()
            self.flow, self.method, self.args = flow, method, args

        def forward(self, *inputs):
            return getattr(self.flow, self.method)(*self.args, *inputs)

    class RoundTrip(torch.nn.Module):
        """A bijector on its own: forward, inverse, log|det J| (tests/test_bijectivetensor.py)."""

        def __init__(self, bijector, record):
            super().__init__()
            self.bijector, self.record = bijector, record

        def forward(self, x):
            from flowtorch.bijectors.utils import set_record_flow_graph

            with set_record_flow_graph(self.record):
                y = self.bijector.forward(x)
                x_inv = self.bijector.inverse(y)
                ldj = self.bijector.log_abs_det_jacobian(x, y)
            return y, x_inv, ldj

    return LogProb, RSample, Call, RoundTrip


# --- factories ---------------------------------------------------------------------------------

def _log_prob(kind, independent=True):
    def make(mode):
        flow = _flow(kind, independent)
        return _modules()[0](flow, mode == "train"), (_data(kind),), {}

    return make


def _rsample(kind, shape=(_B,)):
    def make(mode):
        return _modules()[1](_flow(kind), _target(), shape, mode == "train"), (), {}

    return make


def _neals_funnel_vi(mode):
    import flowtorch.distributions as dist
    import torch

    base = torch.distributions.Independent(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), 1)
    import flowtorch.bijectors as bij

    flow = dist.Flow(base, bij.AffineAutoregressive(_dense()))
    return _modules()[1](flow, dist.NealsFunnel(), (_B,), mode == "train"), (), {}


def _method(kind, method, *args, data=True):
    def make(mode):
        net = _modules()[2](_flow(kind), method, *args)
        if mode == "train":
            net = mean_loss_module()(net)
        return net, ((_data(kind),) if data else ()), {}

    return make


def _round_trip(record):
    def make(mode):
        import torch

        bijector = _bijector("MAF")(shape=torch.Size([_D]))
        net = _modules()[3](bijector, record)
        if mode == "train":
            net = mean_loss_module()(net)
        return net, (_data("MAF"),), {}

    return make


def _dense_params(mode):
    import flowtorch.parameters as params
    import torch

    shape = torch.Size([_D])
    net = params.DenseAutoregressive(hidden_dims=_H)([shape, shape], shape, None)  # an affine MADE's mean, log scale
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (_data("MAF"),), {}


def _tensor_params(mode):
    import flowtorch.parameters as params
    import torch

    shape = torch.Size([_D])
    net = params.Tensor()([shape + (4,), shape + (4,), shape + (3,)], shape)  # a spline's bins
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (), {}


def _masked_linear(mode):
    import torch
    from flowtorch.nn import MaskedLinear, create_mask

    masks, _ = create_mask(input_dim=_D, context_dim=0, hidden_dims=[8], permutation=torch.randperm(_D),
                           output_multiplier=2)
    net = torch.nn.Sequential(MaskedLinear(_D, 8, masks[0]), torch.nn.ReLU(), MaskedLinear(8, 2 * _D, masks[1]))
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (_data("MAF"),), {}


MODELS = {
    # log_prob / NLL
    "Affine": _log_prob("Affine"),
    "Affine_Tensor_plain_Normal": _log_prob("Affine_Tensor", independent=False),
    "AffineAutoregressive": _log_prob("AffineAutoregressive"),
    "AffineAutoregressive_default": _log_prob("AffineAutoregressive_default"),
    "AffineAutoregressive_tanh": _log_prob("AffineAutoregressive_tanh"),
    "AffineAutoregressive_permutation": _log_prob("AffineAutoregressive_permutation"),
    "AffineAutoregressive_clips": _log_prob("AffineAutoregressive_clips"),
    "Spline": _log_prob("Spline"),
    "Spline_quadratic": _log_prob("Spline_quadratic"),
    "SplineAutoregressive": _log_prob("SplineAutoregressive"),
    "SplineAutoregressive_quadratic": _log_prob("SplineAutoregressive_quadratic"),
    "Compose_MAF": _log_prob("MAF"),
    "Compose_MAF_Permute": _log_prob("MAF_Permute"),
    "Compose_MAF_Permute_given": _log_prob("MAF_Permute_given"),
    "Compose_Affine_Spline": _log_prob("Affine_Spline"),
    "Compose_NSF_Permute": _log_prob("NSF_AR_Permute"),
    "Invert_IAF": _log_prob("IAF"),
    "Exp": _log_prob("Exp"),
    "Softplus": _log_prob("Softplus"),
    "Sigmoid": _log_prob("Sigmoid"),
    "Tanh": _log_prob("Tanh"),
    "ELU": _log_prob("ELU"),
    "LeakyReLU": _log_prob("LeakyReLU"),
    "Power": _log_prob("Power"),
    "AffineFixed": _log_prob("AffineFixed"),
    # rsample / reverse KL
    "rsample_AffineAutoregressive": _rsample("AffineAutoregressive"),
    "rsample_Compose_MAF_Permute": _rsample("MAF_Permute"),
    "rsample_Spline": _rsample("Spline"),
    "rsample_SplineAutoregressive": _rsample("SplineAutoregressive"),
    "rsample_Invert_IAF": _rsample("IAF"),
    "rsample_shape_2x3": _rsample("AffineAutoregressive", shape=(2, 3)),
    "NealsFunnel_VI": _neals_funnel_vi,
    # sample (no_grad), normalize
    "sample_AffineAutoregressive": _method("AffineAutoregressive", "sample", (_B,), data=False),
    "sample_Compose_MAF_Permute": _method("MAF_Permute", "sample", (_B,), data=False),
    "rnormalize_Compose_MAF": _method("MAF", "rnormalize"),
    "normalize_Spline": _method("Spline", "normalize"),
    # bijectors, parameters and layers on their own
    "Compose_round_trip": _round_trip(True),
    "Compose_round_trip_no_record": _round_trip(False),
    "DenseAutoregressive_params": _dense_params,
    "Tensor_params": _tensor_params,
    "MaskedLinear": _masked_linear,
}
