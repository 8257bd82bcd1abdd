"""pyro-ppl 1.9.2 (Uber's probabilistic programming language, import name ``pyro``): its
tensor-level ``nn.Module`` parts as a user puts them in a compiled forward, every size shrunk
(3 features, batch 8, hidden width 8-16, 4 spline bins), random weights, no download:

- normalizing flows from ``pyro.distributions.transforms`` (affine autoregressive, affine
  coupling, linear / quadratic spline, spline coupling, spline autoregressive, Householder,
  matrix exponential, batch norm, generalized channel permute, neural and block autoregressive,
  planar, radial, Sylvester, polynomial, and the ``conditional_*`` variants) over a standard
  normal base in a ``TransformedDistribution`` (``ConditionalTransformedDistribution``
  conditioned on a context) built in the forward;
- ``pyro.nn``'s ``AutoRegressiveNN`` / ``ConditionalAutoRegressiveNN`` (MADE) and ``DenseNN``
  hypernetworks on their own (``ConditionalDenseNN`` runs inside the conditional affine coupling);
- ``PyroModule`` with ``PyroSample`` priors (a Bayesian linear regression whose forward draws
  its weights) and ``PyroParam`` constrained parameters, called as plain modules;
- distributions' ``log_prob`` / ``rsample`` with learnable parameters (Normal,
  MultivariateNormal, LowRankMultivariateNormal, Dirichlet, Beta, Gamma, VonMises, Stable,
  ZeroInflatedPoisson, MixtureSameFamily);
- ``Trace_ELBO`` / ``TraceMeanField_ELBO`` ``.differentiable_loss(model, guide, ...)`` with small
  autoguides (``AutoNormal``, ``AutoDiagonalNormal``, ``AutoIAFNormal``), run once eagerly at
  build so the guide's parameters exist.

Entries name what the forward runs: ``*_log_prob`` (eval: the log-density of a batch; train: its
negative mean, the maximum-likelihood loss), ``*_sample`` for flows (eval: ``rsample`` of 8 and
the log-density of those samples, scored through the transforms' cache; train: the reverse KL to
a fixed normal target, ``mean(log q(z) - log p(z))``), ``*_rsample`` / ``*_sample`` for
distributions (eval: the samples and their log-density; train: a mean-loss wrapper), nets and
``PyroModule`` entries (eval: the outputs; train: a mean-loss wrapper, or the negative
log-likelihood), ``ELBO_*`` (the negative ELBO in both modes). Stop 34: measured first as it came
(RESULTS §28), before any rule looked at it.

    pip install --no-deps pyro-ppl==1.9.2 pyro-api==0.1.2

(pyro-ppl also needs numpy, opt_einsum and tqdm, all there; never torch.)

Notes: transforms without an inverse (neural and block autoregressive, planar, radial,
Sylvester, polynomial) cannot score data directly (``_inverse`` reads only the cache:
KeyError / NotImplementedError); they are sampled, and the neural / block autoregressive ones
also score data through ``.inv`` (data pass through their forward), as density estimation with
them does. ``ConditionalGeneralizedChannelPermute`` is conditioned on one context vector for the
whole batch: with a batch of contexts its ``log_abs_det_jacobian`` calls ``LU.diag()`` on the
batched (8, 3, 3) matrices and fails eagerly ("diag(): Supports 1D or 2D tensors").
``PyroModule_BayesianRegression`` draws only its weight from a ``PyroSample`` prior: its bias stays a
plain parameter, or "train" would have nothing to differentiate. ``pyro.clear_param_store()`` runs
before every build that touches the param store.
"""

import functools

PACKAGE = "pyro"
DISTRIBUTION = "pyro-ppl"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_D = 3  # event size of the flows and distributions
_B = 8  # batch of data, samples drawn
_H = [16]  # hidden widths of the flows' hypernetworks
_CTX = 2  # context features of the conditional flows
_BINS = 4


# --- modules whose forward is a flow's log-density or sampling --------------------------------

@functools.cache
def _flow_modules():
    """The nn.Modules that hold a stack of transforms and build their distribution in the
    forward (a TransformedDistribution is not a module); built once, when the first model is."""
    import pyro.distributions as dist
    import torch

    class Flow(torch.nn.Module):
        def __init__(self, transforms, shape=(_D,), conditional=False):
            super().__init__()
            # the chain may hold parameter-free transforms (Permute) and inverses (``.inv``, not a
            # module): it is kept as a list, the modules under it registered for their parameters
            self.chain = list(transforms)
            owners = [t if isinstance(t, torch.nn.Module) else t.inv for t in transforms]
            self.parts = torch.nn.ModuleList([t for t in owners if isinstance(t, torch.nn.Module)])
            self.conditional = conditional
            self.register_buffer("loc", torch.zeros(shape))
            self.register_buffer("scale", torch.ones(shape))

        def flow(self, context=None):
            base = dist.Normal(self.loc, self.scale).to_event(self.loc.dim())
            if self.conditional:
                return dist.ConditionalTransformedDistribution(base, self.chain).condition(context)
            return dist.TransformedDistribution(base, self.chain)

    class LogProb(Flow):
        def __init__(self, transforms, loss, **kwargs):
            super().__init__(transforms, **kwargs)
            self.loss = loss

        def forward(self, x, context=None):
            log_p = self.flow(context).log_prob(x)
            return -log_p.mean() if self.loss else log_p

    class Sample(Flow):
        def __init__(self, transforms, loss, **kwargs):
            super().__init__(transforms, **kwargs)
            self.loss = loss
            self.register_buffer("target_loc", torch.linspace(-1.0, 1.0, _D))

        def forward(self, context=None):
            flow = self.flow(context)
            z = flow.rsample((_B,))
            log_q = flow.log_prob(z)
            if self.loss:  # the reverse KL to a fixed normal target
                log_p = dist.Normal(self.target_loc, 0.5).to_event(1).log_prob(z)
                return (log_q - log_p).mean()
            return z, log_q

    return LogProb, Sample


def _transforms(build, inv=False):
    """``build(T)`` -> one transform or a list, from ``pyro.distributions.transforms`` as T."""
    import pyro.distributions.transforms as T

    built = build(T)
    built = list(built) if isinstance(built, (list, tuple)) else [built]
    return [t.inv for t in built] if inv else built


def _log_prob(build, inv=False, context=False, image=False):
    def make(mode):
        import torch

        log_prob, _ = _flow_modules()
        shape = (3, 4, 4) if image else (_D,)
        net = log_prob(_transforms(build, inv), mode == "train", shape=shape, conditional=bool(context))
        x = torch.rand(_B, *shape) * 2 - 1  # inside the splines' [-3, 3] bound
        if context == "one":  # one context for the whole batch
            args = (x, torch.randn(_CTX))
        else:
            args = (x, torch.randn(_B, _CTX)) if context else (x,)
        return net, args, {}

    return make


def _sample(build, context=False):
    def make(mode):
        import torch

        _, sample = _flow_modules()
        net = sample(_transforms(build), mode == "train", conditional=context)
        # a conditional flow draws one sample per context row: sample shape (8,), context (8, 2)
        return net, ((torch.randn(_B, _CTX),) if context else ()), {}

    return make


# --- pyro.nn ---------------------------------------------------------------------------------

def _net(cls, context=False, **options):
    def make(mode):
        import pyro.nn
        import torch

        if context:
            net = getattr(pyro.nn, cls)(_D, _CTX, _H, **options)
            args = (torch.randn(_B, _D), torch.randn(_B, _CTX))
        else:
            net = getattr(pyro.nn, cls)(_D, _H, **options)
            args = (torch.randn(_B, _D),)
        return (mean_loss_module()(net) if mode == "train" else net), args, {}

    return make


@functools.cache
def _pyro_modules():
    """PyroModule models, as the Bayesian-regression tutorial writes them."""
    import pyro
    import pyro.distributions as dist
    import torch
    from pyro.distributions import constraints
    from pyro.nn import PyroModule, PyroParam, PyroSample

    class BayesianRegression(PyroModule):
        def __init__(self, in_features, out_features=1):
            super().__init__()
            self.linear = PyroModule[torch.nn.Linear](in_features, out_features)
            self.linear.weight = PyroSample(dist.Normal(0.0, 1.0).expand([out_features, in_features]).to_event(2))
            # the bias stays a plain nn.Parameter (a point estimate): without it the forward would
            # hold no parameter and "train" nothing to differentiate

        def forward(self, x, y=None):
            sigma = pyro.sample("sigma", dist.Uniform(0.0, 10.0))
            mean = self.linear(x).squeeze(-1)
            with pyro.plate("data", x.shape[0]):
                pyro.sample("obs", dist.Normal(mean, sigma), obs=y)
            return mean

    class HeteroscedasticRegression(PyroModule):
        """PyroParam parameters (a positive scale, a simplex of mixture weights) read as
        attributes: each read goes through pyro.param and the constraint's transform."""

        def __init__(self, in_features, loss):
            super().__init__()
            self.loss = loss
            self.linear = PyroModule[torch.nn.Linear](in_features, 2)
            self.scale = PyroParam(torch.ones(2), constraint=constraints.positive)
            self.weights = PyroParam(torch.full((2,), 0.5), constraint=constraints.simplex)

        def forward(self, x, y):
            loc = self.linear(x)
            mix = dist.MixtureSameFamily(dist.Categorical(self.weights), dist.Normal(loc, self.scale))
            log_p = mix.log_prob(y)
            return -log_p.mean() if self.loss else log_p

    return BayesianRegression, HeteroscedasticRegression


def _bayesian_regression(mode):
    import pyro
    import torch

    pyro.clear_param_store()
    net = _pyro_modules()[0](_D)
    return (mean_loss_module()(net) if mode == "train" else net), (torch.randn(_B, _D),), {}


def _heteroscedastic(mode):
    import pyro
    import torch

    pyro.clear_param_store()
    net = _pyro_modules()[1](_D, mode == "train")
    return net, (torch.randn(_B, _D), torch.randn(_B)), {}


# --- distributions ---------------------------------------------------------------------------

@functools.cache
def _dist_module():
    """An nn.Module holding a distribution's raw parameters; its forward builds the
    distribution (``build(params)``) and scores ``x`` or draws 8 samples."""
    import torch

    class Dist(torch.nn.Module):
        def __init__(self, build, params, method, loss):
            super().__init__()
            self.build, self.method, self.loss = build, method, loss
            self.params = torch.nn.ParameterDict({k: torch.nn.Parameter(v) for k, v in params.items()})

        def forward(self, x=None):
            d = self.build(self.params)
            if self.method == "log_prob":
                log_p = d.log_prob(x)
                return -log_p.mean() if self.loss else log_p
            z = getattr(d, self.method)((_B,))  # rsample, or sample (VonMises: no rsample)
            return z, d.log_prob(z)

    return Dist


@functools.cache
def _dists():
    """name -> (build(params) -> distribution, raw parameters, data or None)."""
    import math

    import pyro.distributions as dist
    import torch
    import torch.nn.functional as F

    def tril(p):
        return torch.tril(p["tril"], -1) + torch.diag_embed(F.softplus(p["diag"]))

    d, b = _D, _B
    return {
        "Normal": (lambda p: dist.Normal(p["loc"], F.softplus(p["scale"])).to_event(1),
                   {"loc": torch.randn(d), "scale": torch.zeros(d)}, lambda: torch.randn(b, d)),
        "MultivariateNormal": (lambda p: dist.MultivariateNormal(p["loc"], scale_tril=tril(p)),
                               {"loc": torch.randn(d), "tril": torch.randn(d, d), "diag": torch.zeros(d)},
                               lambda: torch.randn(b, d)),
        "LowRankMultivariateNormal": (
            lambda p: dist.LowRankMultivariateNormal(p["loc"], p["factor"], F.softplus(p["diag"])),
            {"loc": torch.randn(d), "factor": torch.randn(d, 2), "diag": torch.zeros(d)},
            lambda: torch.randn(b, d)),
        "Dirichlet": (lambda p: dist.Dirichlet(F.softplus(p["conc"]) + 0.5),
                      {"conc": torch.randn(d)}, lambda: torch.softmax(torch.randn(b, d), -1)),
        "Beta": (lambda p: dist.Beta(F.softplus(p["a"]) + 0.5, F.softplus(p["b"]) + 0.5).to_event(1),
                 {"a": torch.randn(d), "b": torch.randn(d)}, lambda: torch.rand(b, d) * 0.9 + 0.05),
        "Gamma": (lambda p: dist.Gamma(F.softplus(p["conc"]) + 0.5, F.softplus(p["rate"])).to_event(1),
                  {"conc": torch.randn(d), "rate": torch.randn(d)}, lambda: torch.rand(b, d) + 0.1),
        "VonMises": (lambda p: dist.VonMises(p["loc"], F.softplus(p["conc"]) + 0.5).to_event(1),
                     {"loc": torch.randn(d), "conc": torch.randn(d)},
                     lambda: (torch.rand(b, d) * 2 - 1) * math.pi),
        "Stable": (lambda p: dist.Stable(1.5 + 0.4 * torch.tanh(p["alpha"]), torch.tanh(p["beta"]),
                                         F.softplus(p["scale"]), p["loc"]).to_event(1),
                   {"alpha": torch.randn(d), "beta": torch.randn(d), "scale": torch.zeros(d), "loc": torch.randn(d)},
                   lambda: torch.randn(b, d)),
        "ZeroInflatedPoisson": (
            lambda p: dist.ZeroInflatedPoisson(F.softplus(p["rate"]), gate_logits=p["gate"]).to_event(1),
            {"rate": torch.randn(d), "gate": torch.randn(d)},
            lambda: torch.poisson(torch.full((b, d), 2.0)) * (torch.rand(b, d) > 0.3)),
        "MixtureSameFamily": (
            lambda p: dist.MixtureSameFamily(dist.Categorical(logits=p["logits"]),
                                             dist.Normal(p["loc"], F.softplus(p["scale"])).to_event(1)),
            {"logits": torch.randn(3), "loc": torch.randn(3, d), "scale": torch.zeros(3, d)},
            lambda: torch.randn(b, d)),
    }


def _dist(name, method="log_prob"):
    def make(mode):
        build, params, data = _dists()[name]
        net = _dist_module()(build, params, method, mode == "train")
        if method == "log_prob":
            return net, (data(),), {}
        return (mean_loss_module()(net) if mode == "train" else net), (), {}

    return make


# --- ELBO losses with autoguides -------------------------------------------------------------

def _location_model(x):
    """A normal location-scale model of x (8, 3): the guide learns loc and scale."""
    import pyro
    import pyro.distributions as dist

    loc = pyro.sample("loc", dist.Normal(x.new_zeros(_D), 1.0).to_event(1))
    scale = pyro.sample("scale", dist.LogNormal(x.new_zeros(()), 1.0))
    with pyro.plate("data", x.shape[0]):
        pyro.sample("obs", dist.Normal(loc, scale).to_event(1), obs=x)


@functools.cache
def _elbo_module():
    import torch

    class ElboLoss(torch.nn.Module):
        """The negative ELBO of ``model`` under ``guide`` (an autoguide, so an nn.Module)."""

        def __init__(self, model, guide, elbo):
            super().__init__()
            self.guide, self.elbo = guide, elbo
            self.model = model  # a PyroModule is a submodule, a function an attribute

        def forward(self, *args):
            return self.elbo.differentiable_loss(self.model, self.guide, *args)

    return ElboLoss


def _elbo(guide_name, elbo_name="Trace_ELBO", regression=False, **guide_options):
    def make(mode):
        import pyro
        import pyro.infer
        import pyro.infer.autoguide
        import torch

        pyro.clear_param_store()
        if regression:
            model = _pyro_modules()[0](_D)
            x = torch.randn(_B, _D)
            args = (x, x.sum(-1) + 0.1 * torch.randn(_B))
        else:
            model, args = _location_model, (torch.randn(_B, _D) + 1.0,)
        guide = getattr(pyro.infer.autoguide, guide_name)(model, **guide_options)
        guide(*args)  # the autoguide creates its parameters at its first call
        return _elbo_module()(model, guide, getattr(pyro.infer, elbo_name)()), args, {}

    return make


MODELS = {
    # flows scoring data
    "AffineAutoregressive_log_prob": _log_prob(lambda T: T.affine_autoregressive(_D, _H)),
    "AffineCoupling_log_prob": _log_prob(lambda T: T.affine_coupling(_D, _H)),
    "Spline_log_prob": _log_prob(lambda T: T.spline(_D, count_bins=_BINS)),
    "Spline_quadratic_log_prob": _log_prob(lambda T: T.spline(_D, count_bins=_BINS, order="quadratic")),
    "SplineCoupling_log_prob": _log_prob(lambda T: T.spline_coupling(_D, hidden_dims=_H, count_bins=_BINS)),
    "SplineAutoregressive_log_prob": _log_prob(lambda T: T.spline_autoregressive(_D, _H, count_bins=_BINS)),
    "Householder_log_prob": _log_prob(lambda T: T.householder(_D, count_transforms=2)),
    "MatrixExponential_log_prob": _log_prob(lambda T: T.matrix_exponential(_D)),
    "MAF_stack_log_prob": _log_prob(lambda T: [T.affine_autoregressive(_D, _H), T.permute(_D),
                                               T.batchnorm(_D), T.affine_autoregressive(_D, _H)]),
    "GeneralizedChannelPermute_log_prob": _log_prob(lambda T: T.generalized_channel_permute(channels=3),
                                                    image=True),
    "NeuralAutoregressive_inv_log_prob": _log_prob(lambda T: T.neural_autoregressive(_D, _H, width=8), inv=True),
    "BlockAutoregressive_inv_log_prob": _log_prob(lambda T: T.block_autoregressive(_D, hidden_factors=[4]),
                                                  inv=True),
    "ConditionalAffineAutoregressive_log_prob": _log_prob(
        lambda T: T.conditional_affine_autoregressive(_D, _CTX, _H), context=True),
    "ConditionalAffineCoupling_log_prob": _log_prob(lambda T: T.conditional_affine_coupling(_D, _CTX, _H),
                                                    context=True),
    "ConditionalSpline_log_prob": _log_prob(lambda T: T.conditional_spline(_D, _CTX, _H, count_bins=_BINS),
                                            context=True),
    "ConditionalSplineAutoregressive_log_prob": _log_prob(
        lambda T: T.conditional_spline_autoregressive(_D, _CTX, _H, count_bins=_BINS), context=True),
    "ConditionalGeneralizedChannelPermute_log_prob": _log_prob(
        lambda T: T.conditional_generalized_channel_permute(_CTX, channels=3, hidden_dims=_H),
        context="one", image=True),
    # flows sampled and scoring their samples (reverse KL in train)
    "AffineAutoregressive_sample": _sample(lambda T: T.affine_autoregressive(_D, _H)),
    "Planar_sample": _sample(lambda T: [T.planar(_D), T.planar(_D)]),
    "Radial_sample": _sample(lambda T: [T.radial(_D), T.radial(_D)]),
    "Sylvester_sample": _sample(lambda T: T.sylvester(_D, count_transforms=2)),
    "Polynomial_sample": _sample(lambda T: T.polynomial(_D, _H)),
    "NeuralAutoregressive_sample": _sample(lambda T: T.neural_autoregressive(_D, _H, width=8)),
    "ConditionalPlanar_sample": _sample(lambda T: T.conditional_planar(_D, _CTX, _H), context=True),
    "ConditionalNeuralAutoregressive_sample": _sample(
        lambda T: T.conditional_neural_autoregressive(_D, _CTX, _H, width=8), context=True),
    # pyro.nn
    "AutoRegressiveNN": _net("AutoRegressiveNN"),
    "AutoRegressiveNN_skip_spline_params": _net("AutoRegressiveNN", param_dims=[_BINS, _BINS, _BINS - 1],
                                                skip_connections=True),
    "ConditionalAutoRegressiveNN": _net("ConditionalAutoRegressiveNN", context=True),
    "DenseNN": _net("DenseNN", param_dims=[1, _D]),
    "PyroModule_BayesianRegression": _bayesian_regression,
    "PyroModule_PyroParam_mixture_log_prob": _heteroscedastic,
    # distributions
    "Normal_log_prob": _dist("Normal"),
    "MultivariateNormal_log_prob": _dist("MultivariateNormal"),
    "LowRankMultivariateNormal_rsample": _dist("LowRankMultivariateNormal", "rsample"),
    "Dirichlet_rsample": _dist("Dirichlet", "rsample"),
    "Beta_log_prob": _dist("Beta"),
    "Gamma_rsample": _dist("Gamma", "rsample"),
    "VonMises_sample": _dist("VonMises", "sample"),
    "Stable_rsample": _dist("Stable", "rsample"),
    "ZeroInflatedPoisson_log_prob": _dist("ZeroInflatedPoisson"),
    "MixtureSameFamily_log_prob": _dist("MixtureSameFamily"),
    # ELBO
    "ELBO_AutoNormal": _elbo("AutoNormal"),
    "ELBO_AutoNormal_mean_field": _elbo("AutoNormal", "TraceMeanField_ELBO"),
    "ELBO_AutoDiagonalNormal_regression": _elbo("AutoDiagonalNormal", regression=True),
    "ELBO_AutoIAFNormal": _elbo("AutoIAFNormal", hidden_dim=[8]),
}
