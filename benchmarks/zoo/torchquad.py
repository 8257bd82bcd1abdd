"""torchquad 0.6.0: numerical integration in PyTorch, used as its docs (README, tutorial: "Computing
gradients with respect to the integration domain", "Speedups for repeated quadrature" (compiling the
integrate method, reusing sample points), "Multidimensional/Vectorized Integrands", "Parametric
Integration with Variable Domains", "Custom Integrators") and its tests (``gradient_test.py``'s
V-shaped and parameterized polynomial integrands) use it. torchquad has no networks of its own: each
"model" here is a small ``nn.Module`` whose forward integrates an integrand that depends on the
module's parameters (so ``"train"`` backpropagates through the quadrature), random weights, no
download, the backend set up as the README does (``set_up_backend("torch", data_type="float32")``,
which on a CPU-only machine warns that CUDA is unavailable and sets float32).

Integrands (vectorized over the first axis of the points, as torchquad requires): the tutorial's
``exp(a x) x^2``, a sum of sines ``sum_i sin(w_i x_i)``, an unnormalized Gaussian (learnable mean and
log-scale), the tests' V function ``2|x + c|`` and 2-D polynomial with learnable coefficients, a
small tanh MLP field, a conditional energy ``exp(-E(x, t))`` over a batch of conditions ``t`` (a
multi-dimensional integrand, shape (N, B), passed ``args=(t,)``), and the tutorial's vectorized
``sqrt(cos(sin((a + b) x)))`` over a learnable (4, 3) grid of ``a + b`` (shape (N, 4, 3)).

Models (38), by integrator, in 1-3 dims (domain: a tensor input of shape (dim, 2), a list, the
default [-1, 1]^dim, or built from learnable bounds):
- ``Trapezoid``: 1-D tutorial integrand over a domain input; the V function over learnable bounds
  (the tutorial's domain gradient); 2-D conditional energy with ``args``; 3-D MLP on the default
  domain with the integrand a closure over the input; the "reusing sample points" path with the
  grid computed once in ``__init__`` (``calculate_grid`` -> ``evaluate_integrand`` ->
  ``calculate_result`` per call); ``get_jit_compiled_integrate`` (1-D).
- ``Simpson``: the tutorial's vectorized (N, 4, 3) integrand; 2-D Gaussian over a domain input; 3-D
  sines; an energy model's NLL with a 2-D quadrature normalizer (``log Z``).
- ``Boole``: 1-D MLP; the tutorial's "reusing sample points" (``calculate_grid`` in the forward, two
  integrands on one grid); the tutorial's 3-D sines; 2-D conditional energy with ``args``; an
  energy NLL (1-D normalizer); the tutorial's ``get_jit_compiled_integrate(dim=3, N, backend="torch")``.
- ``GaussLegendre``: 1-D over a domain input; 2-D Gaussian closure on a list domain; 3-D MLP on the
  default domain; 1-D over learnable bounds; 1-D conditional energy with ``args``;
  ``get_jit_compiled_integrate`` (2-D). ``Gaussian`` (the base rule on [-1, 1]),
  the tutorial's custom ``GaussHermite(Gaussian)`` (``scipy.special.roots_hermite``) and
  ``Batch1DIntegrator(Gaussian)`` (a batch of [0, b] domains as input).
- ``MonteCarlo``: the tutorial's 1-D V function with ``seed=0`` over a domain input; the README's
  ``sin(x0) + exp(x1)`` (learnable weights) with ``backend="torch"``; 3-D MLP without a seed;
  an ``RNG(backend="torch", seed=0, torch_save_state=True)`` passed as ``rng``; quasi-Monte Carlo
  with ``Sobol(backend="torch", seed=0)`` (1024 points); 2-D conditional energy with ``args``;
  ``calculate_sample_points`` -> ``evaluate_integrand`` -> ``calculate_result``; an energy NLL (2-D
  normalizer); ``get_jit_compiled_integrate(dim=1, N, seed=0)``.
- ``VEGAS``: 1-D tutorial integrand with a seed; 2-D Gaussian with ``return_error=True`` (the
  ``VEGASResult``'s integral and sdev returned); 3-D sines without warm-up or grid improvement,
  with a seeded ``RNG``; 1-D over a domain input with ``eps_rel`` (early abort).

Eval: the integral(s) as the integrator returns them (NLL models: the per-sample log-likelihood).
Train: the integral as a loss, ``((integral - 1) ** 2).mean()`` (a normalization constraint on the
integrand's parameters; for a domain input it also has ``requires_grad`` on, as the tutorial sets
it; not for the ``get_jit_compiled_integrate`` models: the traced grid step then fails eagerly,
"derivative for aten::linspace is not implemented"), and the NLL models' mean negative
log-likelihood ``E(x) + log Z``. torchquad has no loss or training step of its own.

    pip install --no-deps torchquad==0.6.0
    pip install --no-deps autoray==0.11.0

(already installed and used: loguru 0.7.3, numpy, scipy.) Nothing stubbed: torchquad imports
tensorflow / jax only inside their backend branches.

Left out: the numpy / jax / tensorflow backends (not torch); ``enable_cuda`` and
``set_precision("float64")`` (global default dtype / device: it would change every later model in
the process); the tutorial's ``torch.jit.trace`` of the whole ``integrate`` over a closure of the
module's parameters (tracing refuses a constant that requires grad, so it fails eagerly in train);
``set_log_level`` and the ``_deployment_test`` self-check (not on a model's path); the multi-GPU
recipes (processes, not code in a forward).
Notes: the Gaussian rules' nodes and weights come from NumPy as float64, so the integrands that
run an ``nn.Linear`` cast the points to the weights' dtype first (``x.to(weight.dtype)``, as a user
must: float32 weights refuse float64 inputs). With weights (the Gaussian rules),
``evaluate_integrand`` multiplies the integrand's output by them in place (``result *= weights``),
so an integrand whose last op is ``exp`` fails eagerly in backward (its output is needed and has
been modified); the Gaussian and conditional-energy integrands carry a learnable amplitude
(``amp * exp(...)``), and the energy-NLL models use Simpson / Boole / MonteCarlo rather than
GaussLegendre (whose ``exp(-E)`` normalizer fails that way).
VEGAS and ``MonteCarlo`` without ``rng`` reseed torch's global RNG from ``seed`` (or
nondeterministically when ``seed`` is None) inside the forward, as the library does.
"""

import functools

PACKAGE = "torchquad"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4  # conditions in a batch
_SET_UP = []


def before_build():
    if _SET_UP:
        return
    import warnings

    from torchquad import set_up_backend

    with warnings.catch_warnings():  # "Error enabling CUDA ... CPU will be used." on a CPU machine
        warnings.simplefilter("ignore", RuntimeWarning)
        set_up_backend("torch", data_type="float32")
    _SET_UP.append(True)


def warm_up():
    import torch  # noqa: F401

    import torchquad  # noqa: F401

    before_build()


# --- integrands -------------------------------------------------------------------------------

@functools.cache
def _integrands():
    import torch
    from torch import nn

    class ExpPoly(nn.Module):
        """The tutorial's f(x) = exp(a x) x^2, with a learnable a."""

        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(torch.tensor(1.0))

        def forward(self, x):
            return torch.exp(self.a * x[:, 0]) * torch.pow(x[:, 0], 2)

    class SinSum(nn.Module):
        """The tutorial's sum_i sin(x_i), with learnable frequencies."""

        def __init__(self, dim):
            super().__init__()
            self.w = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))

        def forward(self, x):
            return torch.sum(torch.sin(self.w * x), dim=1)

    class Gauss(nn.Module):
        """An unnormalized Gaussian with a learnable mean and log-scale; ``shift`` moves the mean."""

        def __init__(self, dim):
            super().__init__()
            self.mu = nn.Parameter(0.1 * torch.randn(dim))
            self.log_sigma = nn.Parameter(torch.full((dim,), -0.5))
            self.amp = nn.Parameter(torch.tensor(1.0))

        def forward(self, x, shift=None):
            mu = self.mu if shift is None else self.mu + shift
            z = (x - mu) / torch.exp(self.log_sigma)
            return self.amp * torch.exp(-0.5 * torch.sum(z * z, dim=1))

    class VAbs(nn.Module):
        """The tests' V-shaped 2 |x + c|."""

        def __init__(self):
            super().__init__()
            self.c = nn.Parameter(torch.tensor(0.1))

        def forward(self, x):
            return 2 * torch.abs(x[:, 0] + self.c)

    class Poly2D(nn.Module):
        """The tests' c0 + c1 x_0 + c2 x_1^2."""

        def __init__(self):
            super().__init__()
            self.coeffs = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))

        def forward(self, x):
            return self.coeffs[0] + self.coeffs[1] * x[:, 0] + self.coeffs[2] * x[:, 1] ** 2

    class MLPField(nn.Module):
        """A small tanh MLP R^dim -> R."""

        def __init__(self, dim, hidden=16):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                     nn.Linear(hidden, 1))

        def forward(self, x):
            x = x.to(self.net[0].weight.dtype)  # GaussLegendre's nodes are float64
            return self.net(x).squeeze(-1)

    class CondEnergy(nn.Module):
        """exp(-E(x, t)) for a batch of conditions t: (N, dim) x (B, cdim) -> (N, B)."""

        def __init__(self, dim, cdim=3, hidden=16):
            super().__init__()
            self.fx = nn.Linear(dim, hidden)
            self.ft = nn.Linear(cdim, hidden, bias=False)
            self.out = nn.Linear(hidden, 1)
            self.amp = nn.Parameter(torch.tensor(1.0))

        def forward(self, x, t):
            x = x.to(self.fx.weight.dtype)  # GaussLegendre's nodes are float64
            h = torch.tanh(self.fx(x)[:, None, :] + self.ft(t)[None, :, :])
            return self.amp * torch.exp(-self.out(h).squeeze(-1))

    class ParamGrid(nn.Module):
        """The tutorial's vectorized sqrt(cos(sin((a + b) x))) over a grid of a + b."""

        def __init__(self):
            super().__init__()
            self.grid = nn.Parameter(torch.stack([torch.arange(4.0) + b for b in (1.0, 2.0, 3.0)], dim=1) / 4)

        def forward(self, x, offset):
            grid = self.grid + offset[:, None]
            return torch.sqrt(torch.cos(torch.sin(torch.einsum("i,jk->ijk", x.flatten(), grid))))

    class Energy(nn.Module):
        """An energy E(x) (a tanh MLP) of an energy model p(x) = exp(-E(x)) / Z."""

        def __init__(self, dim, hidden=16):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

        def forward(self, x):
            x = x.to(self.net[0].weight.dtype)
            return self.net(x).squeeze(-1) + 0.5 * torch.sum(x * x, dim=1)

    return dict(ExpPoly=ExpPoly, SinSum=SinSum, Gauss=Gauss, VAbs=VAbs, Poly2D=Poly2D, MLPField=MLPField,
                CondEnergy=CondEnergy, ParamGrid=ParamGrid, Energy=Energy)


# --- the user modules around an integrator ----------------------------------------------------

@functools.cache
def _modules():
    import torch
    from torch import nn

    class IntegralOverDomain(nn.Module):
        """``integrator.integrate(integrand, dim, N, integration_domain=domain)`` for a domain input."""

        def __init__(self, integrator, integrand, dim, N, **kwargs):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.dim, self.N, self.kwargs = dim, N, kwargs

        def forward(self, domain):
            return self.integrator.integrate(self.integrand, dim=self.dim, N=self.N, integration_domain=domain,
                                             **self.kwargs)

    class IntegralWithArgs(nn.Module):
        """A multi-dimensional integrand f(x, t) over a fixed domain, ``args=(t,)``: one integral per t."""

        def __init__(self, integrator, integrand, dim, N, domain, **kwargs):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.dim, self.N, self.domain, self.kwargs = dim, N, domain, kwargs

        def forward(self, t):
            return self.integrator.integrate(self.integrand, dim=self.dim, N=self.N, integration_domain=self.domain,
                                             args=(t,), **self.kwargs)

    class IntegralClosure(nn.Module):
        """An integrand that closes over the input (``lambda x: f(x, t)``)."""

        def __init__(self, integrator, integrand, dim, N, domain=None, **kwargs):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.dim, self.N, self.domain, self.kwargs = dim, N, domain, kwargs

        def forward(self, t):
            return self.integrator.integrate(lambda x: self.integrand(x, t), dim=self.dim, N=self.N,
                                             integration_domain=self.domain, **self.kwargs)

    class ScaledIntegral(nn.Module):
        """An integrand with no condition, integrated and scaled by each input: ``t * integral``."""

        def __init__(self, integrator, integrand, dim, N, domain=None, **kwargs):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.dim, self.N, self.domain, self.kwargs = dim, N, domain, kwargs

        def forward(self, t):
            integral = self.integrator.integrate(self.integrand, dim=self.dim, N=self.N,
                                                 integration_domain=self.domain, **self.kwargs)
            return t * integral

    class LearnableBounds(nn.Module):
        """The integral over [lo, hi] with learnable bounds (a gradient with respect to the domain)."""

        def __init__(self, integrator, integrand, N, lo=-1.0, hi=1.0):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.N = N
            self.lo = nn.Parameter(torch.tensor([lo]))
            self.hi = nn.Parameter(torch.tensor([hi]))

        def forward(self, t):
            domain = torch.stack([self.lo, self.hi], dim=1)
            return t * self.integrator.integrate(self.integrand, dim=1, N=self.N, integration_domain=domain)

    class ReuseGrid(nn.Module):
        """The tutorial's "reusing sample points": one grid, two integrands."""

        def __init__(self, integrator, f1, f2, dim, N):
            super().__init__()
            self.integrator = integrator
            self.f1, self.f2 = f1, f2
            self.dim, self.N = dim, N

        def forward(self, domain):
            grid_points, hs, n_per_dim = self.integrator.calculate_grid(self.N, domain)
            function_values, _ = self.integrator.evaluate_integrand(self.f1, grid_points)
            integral1 = self.integrator.calculate_result(function_values, self.dim, n_per_dim, hs, domain)
            function_values, _ = self.integrator.evaluate_integrand(self.f2, grid_points)
            integral2 = self.integrator.calculate_result(function_values, self.dim, n_per_dim, hs, domain)
            return integral1, integral2

    class CachedGrid(nn.Module):
        """Sample points computed once (``calculate_grid`` in ``__init__``), reused each call."""

        def __init__(self, integrator, integrand, dim, N, domain):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.dim = dim
            domain = torch.tensor(domain)
            grid_points, hs, n_per_dim = integrator.calculate_grid(N, domain)
            self.register_buffer("grid_points", grid_points)
            self.register_buffer("hs", hs)
            self.register_buffer("domain", domain)
            self.n_per_dim = n_per_dim

        def forward(self, t):
            function_values, _ = self.integrator.evaluate_integrand(self.integrand, self.grid_points, args=(t,))
            return self.integrator.calculate_result(function_values, self.dim, self.n_per_dim, self.hs, self.domain)

    class MCSamplePoints(nn.Module):
        """MonteCarlo in its three steps: sample points, integrand values, result."""

        def __init__(self, integrator, integrand, N, seed=None):
            super().__init__()
            self.integrator = integrator
            self.integrand = integrand
            self.N, self.seed = N, seed

        def forward(self, domain):
            sample_points = self.integrator.calculate_sample_points(self.N, domain, seed=self.seed)
            function_values, _ = self.integrator.evaluate_integrand(self.integrand, sample_points)
            return self.integrator.calculate_result(function_values, domain)

    class JitCompiled(nn.Module):
        """``get_jit_compiled_integrate`` built once, called with the integrand and a domain input."""

        def __init__(self, integrator, integrand, dim, N, **kwargs):
            super().__init__()
            self.integrand = integrand
            self.integrate = integrator.get_jit_compiled_integrate(dim, N, backend="torch", **kwargs)

        def forward(self, domain):
            return self.integrate(self.integrand, domain)

    class VEGASError(nn.Module):
        """VEGAS with ``return_error=True``: the integral and its standard deviation."""

        def __init__(self, integrand, dim, N, domain, **kwargs):
            super().__init__()
            from torchquad import VEGAS

            self.integrator = VEGAS()
            self.integrand = integrand
            self.dim, self.N, self.domain, self.kwargs = dim, N, domain, kwargs

        def forward(self, t):
            res = self.integrator.integrate(self.integrand, dim=self.dim, N=self.N, integration_domain=self.domain,
                                            return_error=True, **self.kwargs)
            return t * res.integral, res.sdev

    class EnergyNLL(nn.Module):
        """An energy model's log-likelihood with a quadrature normalizer: -E(x) - log Z,
        Z = integral of exp(-E) over the domain; ``train``: the mean negative log-likelihood."""

        def __init__(self, integrator, energy, dim, N, domain, **kwargs):
            super().__init__()
            self.integrator = integrator
            self.energy = energy
            self.dim, self.N, self.domain, self.kwargs = dim, N, domain, kwargs

        def forward(self, x):
            log_z = torch.log(self.integrator.integrate(lambda p: torch.exp(-self.energy(p)), dim=self.dim,
                                                        N=self.N, integration_domain=self.domain, **self.kwargs))
            log_lik = -self.energy(x) - log_z
            if self.training:
                return -log_lik.mean()
            return log_lik

    class IntegralLoss(nn.Module):
        """The integral as a loss: a normalization constraint ((integral - 1) ** 2).mean()."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args):
            out = self.net(*args)
            if isinstance(out, (tuple, list)):
                out = out[0]
            return ((out - 1.0) ** 2).mean()

    return dict(IntegralOverDomain=IntegralOverDomain, IntegralWithArgs=IntegralWithArgs,
                IntegralClosure=IntegralClosure, ScaledIntegral=ScaledIntegral, LearnableBounds=LearnableBounds,
                ReuseGrid=ReuseGrid, CachedGrid=CachedGrid, MCSamplePoints=MCSamplePoints, JitCompiled=JitCompiled,
                VEGASError=VEGASError, EnergyNLL=EnergyNLL, IntegralLoss=IntegralLoss)


@functools.cache
def _custom_integrators():
    """The tutorial's custom integrators (``Custom Integrators``, ``Parametric Integration``)."""
    import scipy.special
    import torch
    from autoray import numpy as anp

    from torchquad import Gaussian

    class GaussHermite(Gaussian):
        """Gauss Hermite quadrature rule in torch, for integrals of the form
        int_{-inf}^{+inf} e^{-x^2} f(x) dx."""

        def __init__(self):
            super().__init__()
            self.name = "Gauss-Hermite"
            self._root_fn = scipy.special.roots_hermite

        @staticmethod
        def _apply_composite_rule(cur_dim_areas, dim, hs, domain):
            for _ in range(dim):
                cur_dim_areas = anp.sum(cur_dim_areas, axis=len(cur_dim_areas.shape) - 1)
            return cur_dim_areas

    class Batch1DIntegrator(Gaussian):
        """Custom integrator for batch 1D integration with variable domains."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.disable_integration_domain_check = True

        def _resize_roots(self, integration_domain, roots):
            if integration_domain.ndim == 1:
                return super()._resize_roots(integration_domain, roots)
            assert roots.ndim == 1
            assert integration_domain.ndim == 2
            assert integration_domain.shape[-1] == 2
            roots = roots.to(integration_domain.device)
            a = integration_domain[:, 0:1]
            b = integration_domain[:, 1:2]
            roots_expanded = roots.unsqueeze(0)
            out = ((b - a) / 2) * roots_expanded + ((a + b) / 2)
            return out

        def integrate(self, fn, dim, N, integration_domain=None, backend="torch"):
            assert dim == 1
            assert backend == "torch"
            if integration_domain.ndim == 1:
                integration_domain = integration_domain.reshape(1, 2)
            batch_size = integration_domain.shape[0]
            N = self._adjust_N(dim=1, N=N)
            roots = self._roots(N, backend, integration_domain.requires_grad)
            weights = self._weights(N, dim, backend)
            grid_points = self._resize_roots(integration_domain, roots)
            points_flat = grid_points.reshape(-1, 1)
            function_values = fn(points_flat)
            function_values = function_values.reshape(batch_size, N)
            weighted_values = function_values * weights.unsqueeze(0)
            domain_widths = (integration_domain[:, 1] - integration_domain[:, 0]) / 2
            results = domain_widths * weighted_values.sum(dim=1)
            return results

    del torch
    return GaussHermite, Batch1DIntegrator


# --- factories ------------------------------------------------------------------------------

def _t():
    import torch

    return torch.rand(_B) + 0.5


def _cond(cdim=3):
    import torch

    return torch.randn(_B, cdim)


def _domain(bounds, mode):
    import torch

    domain = torch.tensor(bounds)
    if mode == "train":
        domain.requires_grad = True  # as the tutorial does for a gradient with respect to the domain
    return domain


def _finish(net, inputs, mode):
    if mode == "train" and not getattr(net, "own_loss", False):
        net = _modules()["IntegralLoss"](net)
    return net, tuple(inputs), {}


def _integrator(name):
    import torchquad

    return getattr(torchquad, name)()


def _over_domain(integ, fn, fn_args, dim, N, bounds, **kwargs):
    def make(mode):
        net = _modules()["IntegralOverDomain"](_integrator(integ), _integrands()[fn](*fn_args), dim, N, **kwargs)
        return _finish(net, (_domain(bounds, mode),), mode)

    return make


def _with_args(integ, dim, N, domain, **kwargs):
    def make(mode):
        net = _modules()["IntegralWithArgs"](_integrator(integ), _integrands()["CondEnergy"](dim), dim, N, domain,
                                             **kwargs)
        return _finish(net, (_cond(),), mode)

    return make


def _closure(integ, fn, fn_args, dim, N, domain=None, **kwargs):
    def make(mode):
        net = _modules()["IntegralClosure"](_integrator(integ), _integrands()[fn](*fn_args), dim, N, domain, **kwargs)
        inputs = (0.1 * _t(),) if fn == "ParamGrid" else (0.1 * _t()[:dim],)
        return _finish(net, inputs, mode)

    return make


def _scaled(integ, fn, fn_args, dim, N, domain=None, rng=None, **kwargs):
    def make(mode):
        kw = dict(kwargs)
        if rng == "RNG":
            from torchquad import RNG

            kw["rng"] = RNG(backend="torch", seed=0, torch_save_state=True)
        elif rng == "Sobol":
            from torchquad import Sobol

            kw["rng"] = Sobol(backend="torch", seed=0)
        net = _modules()["ScaledIntegral"](_integrator(integ), _integrands()[fn](*fn_args), dim, N, domain, **kw)
        return _finish(net, (_t(),), mode)

    return make


def _bounds(integ, fn, N, lo, hi):
    def make(mode):
        net = _modules()["LearnableBounds"](_integrator(integ), _integrands()[fn](), N, lo, hi)
        return _finish(net, (_t(),), mode)

    return make


def _jit(integ, fn, fn_args, dim, N, bounds, **kwargs):
    def make(mode):
        import torch

        net = _modules()["JitCompiled"](_integrator(integ), _integrands()[fn](*fn_args), dim, N, **kwargs)
        # no requires_grad on the domain: the traced grid step has no linspace derivative
        return _finish(net, (torch.tensor(bounds),), mode)

    return make


def _nll(integ, dim, N, domain, **kwargs):
    def make(mode):
        import torch

        net = _modules()["EnergyNLL"](_integrator(integ), _integrands()["Energy"](dim), dim, N, domain, **kwargs)
        net.own_loss = True
        x = 0.5 * torch.randn(8, dim)
        return _finish(net, (x,), mode)

    return make


def _boole_reuse(mode):
    """The tutorial's two integrands on one Boole grid (2-D, a tensor domain)."""
    import torch
    from torch import nn

    from torchquad import Boole

    class Integrand1(nn.Module):  # sin(x0) + exp(x1), learnable weights
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.tensor([1.0, 1.0]))

        def forward(self, x):
            return torch.sin(self.w[0] * x[:, 0]) + torch.exp(self.w[1] * x[:, 1])

    class Integrand2(nn.Module):  # prod(cos(x))
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(2))

        def forward(self, x):
            return torch.prod(torch.cos(self.w * x), dim=1)

    net = _modules()["ReuseGrid"](Boole(), Integrand1(), Integrand2(), 2, 33 ** 2)
    return _finish(net, (_domain([[0.0, 1.0], [-1.0, 1.0]], mode),), mode)


def _trapezoid_cached(mode):
    from torchquad import Trapezoid

    net = _modules()["CachedGrid"](Trapezoid(), _integrands()["CondEnergy"](2), 2, 33 ** 2, [[0.0, 1.0], [-1.0, 1.0]])
    return _finish(net, (_cond(),), mode)


def _mc_readme(mode):
    """The README: sin(x0) + e^x1 over [0, 1] x [-1, 1], MonteCarlo, backend="torch"."""
    import torch
    from torch import nn

    from torchquad import MonteCarlo

    class SomeFunction(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.tensor([1.0, 1.0]))

        def forward(self, x):
            return torch.sin(self.w[0] * x[:, 0]) + torch.exp(self.w[1] * x[:, 1])

    net = _modules()["ScaledIntegral"](MonteCarlo(), SomeFunction(), 2, 2000, [[0, 1], [-1, 1]], backend="torch")
    return _finish(net, (_t(),), mode)


def _mc_steps(mode):
    from torchquad import MonteCarlo

    net = _modules()["MCSamplePoints"](MonteCarlo(), _integrands()["Gauss"](2), 1000, seed=0)
    return _finish(net, (_domain([[-1.0, 1.0], [0.0, 2.0]], mode),), mode)


def _gauss_hermite(mode):
    import torch
    from torch import nn

    GaussHermite, _ = _custom_integrators()

    class OneMinus(nn.Module):  # the tutorial's 1 - x, plus a learnable quadratic
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(torch.tensor(1.0))
            self.b = nn.Parameter(torch.tensor(0.1))

        def forward(self, x):
            return 1 - self.a * x[:, 0] + self.b * x[:, 0] ** 2

    net = _modules()["ScaledIntegral"](GaussHermite(), OneMinus(), 1, 20)
    return _finish(net, (_t(),), mode)


def _batch_1d(mode):
    """The tutorial's batch of integrals of x^2 over [0, b] (here a * x^2 + c x, learnable)."""
    import torch
    from torch import nn

    _, Batch1DIntegrator = _custom_integrators()

    class Integrand(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(torch.tensor(1.0))
            self.c = nn.Parameter(torch.tensor(0.5))

        def forward(self, x):
            return self.a * x[:, 0] ** 2 + self.c * x[:, 0]

    class BatchIntegral(nn.Module):
        def __init__(self):
            super().__init__()
            self.integrator = Batch1DIntegrator()
            self.integrand = Integrand()

        def forward(self, domains):
            return self.integrator.integrate(self.integrand, dim=1, N=50, integration_domain=domains)

    upper_bounds = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    domains = torch.stack([torch.zeros_like(upper_bounds), upper_bounds], dim=1)
    if mode == "train":
        domains.requires_grad = True
    return _finish(BatchIntegral(), (domains,), mode)


def _vegas_error(mode):
    net = _modules()["VEGASError"](_integrands()["Gauss"](2), 2, 2000, [[-1.0, 1.0], [-1.0, 1.0]], seed=0)
    return _finish(net, (_t(),), mode)


_D1 = [[0.0, 2.0]]
_D2 = [[-1.0, 1.0], [0.0, 2.0]]
_D3 = [[0.0, 1.0]] * 3

MODELS = {
    # Trapezoid
    "Trapezoid_1d_tutorial": _over_domain("Trapezoid", "ExpPoly", (), 1, 101, _D1),
    "Trapezoid_1d_learnable_bounds": _bounds("Trapezoid", "VAbs", 101, -1.0, 1.0),
    "Trapezoid_2d_args": _with_args("Trapezoid", 2, 33 ** 2, _D2),
    "Trapezoid_3d_closure_default_domain": _closure("Trapezoid", "Gauss", (3,), 3, 9 ** 3),
    "Trapezoid_2d_cached_grid": _trapezoid_cached,
    "Trapezoid_1d_jit_compiled": _jit("Trapezoid", "ExpPoly", (), 1, 101, _D1),
    # Simpson
    "Simpson_1d_vectorized_integrand": _closure("Simpson", "ParamGrid", (), 1, 101, [[0, 1]]),
    "Simpson_2d_gauss": _over_domain("Simpson", "Gauss", (2,), 2, 33 ** 2, _D2),
    "Simpson_3d_sinsum": _over_domain("Simpson", "SinSum", (3,), 3, 9 ** 3, _D3),
    "Simpson_2d_energy_nll": _nll("Simpson", 2, 33 ** 2, [[-3.0, 3.0], [-3.0, 3.0]]),
    # Boole
    "Boole_1d_mlp": _over_domain("Boole", "MLPField", (1,), 1, 101, _D1),
    "Boole_2d_reuse_sample_points": _boole_reuse,
    "Boole_3d_sinsum_tutorial": _over_domain("Boole", "SinSum", (3,), 3, 9 ** 3, [[-1.0, 2.0]] * 3),
    "Boole_2d_args": _with_args("Boole", 2, 33 ** 2, _D2),
    "Boole_3d_jit_compiled": _jit("Boole", "SinSum", (3,), 3, 9 ** 3, [[-1.0, 2.0]] * 3),
    # Gaussian rules
    "GaussLegendre_1d": _over_domain("GaussLegendre", "ExpPoly", (), 1, 16, _D1),
    "GaussLegendre_2d_closure": _closure("GaussLegendre", "Gauss", (2,), 2, 8 ** 2, _D2),
    "GaussLegendre_3d_mlp_default_domain": _scaled("GaussLegendre", "MLPField", (3,), 3, 6 ** 3),
    "GaussLegendre_1d_learnable_bounds": _bounds("GaussLegendre", "ExpPoly", 16, 0.0, 2.0),
    "GaussLegendre_1d_args": _with_args("GaussLegendre", 1, 16, _D1),
    "Boole_1d_energy_nll": _nll("Boole", 1, 65, [[-4.0, 4.0]]),
    "GaussLegendre_2d_jit_compiled": _jit("GaussLegendre", "Poly2D", (), 2, 8 ** 2, [[0.0, 1.0], [0.0, 2.0]]),
    "Gaussian_base_1d": _scaled("Gaussian", "VAbs", (), 1, 8),
    "GaussHermite_custom": _gauss_hermite,
    "Batch1DIntegrator_tutorial": _batch_1d,
    # MonteCarlo
    "MonteCarlo_1d_seed_tutorial": _over_domain("MonteCarlo", "VAbs", (), 1, 1000, [[-1.0, 1.0]], seed=0),
    "MonteCarlo_2d_readme": _mc_readme,
    "MonteCarlo_3d_mlp_no_seed": _scaled("MonteCarlo", "MLPField", (3,), 3, 1000),
    "MonteCarlo_2d_rng_saved_state": _scaled("MonteCarlo", "Poly2D", (), 2, 1000, [[0.0, 1.0], [0.0, 2.0]],
                                             rng="RNG"),
    "MonteCarlo_2d_sobol": _scaled("MonteCarlo", "Gauss", (2,), 2, 1024, _D2, rng="Sobol"),
    "MonteCarlo_2d_args": _with_args("MonteCarlo", 2, 1000, _D2, seed=0),
    "MonteCarlo_2d_sample_points": _mc_steps,
    "MonteCarlo_2d_energy_nll": _nll("MonteCarlo", 2, 2000, [[-3.0, 3.0], [-3.0, 3.0]], seed=0),
    "MonteCarlo_1d_jit_compiled": _jit("MonteCarlo", "VAbs", (), 1, 1000, [[-1.0, 1.0]], seed=0),
    # VEGAS
    "VEGAS_1d_tutorial": _scaled("VEGAS", "ExpPoly", (), 1, 1000, _D1, seed=0),
    "VEGAS_2d_return_error": _vegas_error,
    "VEGAS_3d_no_warmup": _scaled("VEGAS", "SinSum", (3,), 3, 2000, _D3, rng="RNG", use_warmup=False,
                                  use_grid_improve=False),
    "VEGAS_1d_domain_eps_rel": _over_domain("VEGAS", "Gauss", (1,), 1, 2000, [[-2.0, 2.0]], seed=0, eps_rel=1e-2),
}
