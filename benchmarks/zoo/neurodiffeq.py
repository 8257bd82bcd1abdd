"""neurodiffeq 0.7.0 (NeuroDiffGym): neural-network solutions of ODEs / PDEs. Its networks, its
conditions (re-parameterisations that build the initial / boundary values into a network's output),
its generators (collocation points) and, above all, the residual loss of its solvers, built as the
README, the docs and the library's tests use them; tiny (hidden layers of 8-16 units, 8-64 points),
random weights, no download.

- networks on their own: ``FCNN`` (the default Tanh MLP; ``SinActv``; a trainable ``Swish``; a
  trainable ``APTx``; the deprecated ``n_hidden_units`` / ``n_hidden_layers`` arguments),
  ``Resnet`` (trainable linear skip), ``MonomialNN`` as a feature expansion in front of an ``FCNN``;
- ``Solver1D``: exponential decay (``IVP`` Dirichlet, uniform points), the README's Lotka-Volterra
  system (two ``IVP``\\s, ``SinActv`` nets, the solver's default noisy equally-spaced points), a
  harmonic oscillator (``IVP`` with ``u_0_prime``, second-order ``diff``, ``Swish``), ``DirichletBVP``
  (``loss_fn='l1'``, Chebyshev points), ``DoubleEndedBVP1D`` Dirichlet-Neumann (``'h1'`` loss),
  Neumann-Neumann (``'infinity'`` loss) and Neumann-Dirichlet (an ``nn.MSELoss`` instance,
  log-spaced noisy points), a subclass with an ``additional_loss`` (a data term on observations,
  as the docs suggest), one multi-output net under an ``EnsembleCondition``, ``NoCondition`` on a
  ``MonomialNN`` front (``'h1 semi'`` loss, Latin-hypercube points), composed generators (``+``:
  ``ConcatGenerator``; ``TransformGenerator``; ``ResampleGenerator``; ``BatchGenerator``;
  ``FilterGenerator`` feeding a ``Resnet``), a trainable ``APTx`` net, and ``get_residuals``;
- ``Solver2D``: the README's Laplace equation (``DirichletBVP2D``), the heat equation under
  ``IBVP1D`` Dirichlet-Dirichlet, Dirichlet-Neumann and Neumann-Neumann (the Neumann ones
  differentiate the network inside ``enforce``), a Poisson problem through
  ``operators.laplacian`` / ``grad`` / ``div`` on ``Generator1D * Generator1D`` points, and a
  two-function system on ``Generator1D ^ Generator1D`` (``MeshGenerator``);
- ``GenericSolver``: a 3-D Laplace problem (``Generator3D``, ``NoCondition``), a vector field
  through ``curl`` / ``div`` / ``vector_laplacian`` (3 nets), cylindrical ``cylindrical_laplacian``
  / ``cylindrical_grad`` / ``cylindrical_div`` on ``GeneratorND`` points;
- ``SolverSpherical``: ``DirichletBVPSpherical`` with ``spherical_laplacian``,
  ``InfDirichletBVPSpherical`` (``'equally-radius-noisy'`` points, ``spherical_grad``), real
  spherical harmonics (``DirichletBVPSphericalBasis`` on a radius-only net through
  ``_auto_enforce``, ``HarmonicsLaplacian``; eval through ``SolutionSphericalHarmonics``), zonal
  harmonics (``InfDirichletBVPSphericalBasis``, ``ZonalSphericalHarmonicsLaplacian``), the
  harmonics ``enforcer`` of ``solve_spherical``, and a vector field (``spherical_curl``,
  ``spherical_div``, ``spherical_vector_laplacian``, 3 nets);
- ``BundleSolver1D``: the README's bundle (``BundleIVP`` with ``u_0`` a bundle parameter and the
  rate an equation parameter), ``BundleDirichletBVP`` with ``u_1`` in the bundle, and the README's
  inverse problem (gradient descent on the rate and ``U0`` through a bundle solution);
- ``temporal``: ``SingleNetworkApproximator1DSpatialTemporal`` (heat equation with
  ``FirstOrderInitialCondition`` and ``BoundaryCondition``\\s fed by ``generator_temporal``) and
  ``SingleNetworkApproximator2DSpatial`` (boundary points from ``generator_2dspatial_segment``);
- ``hypersolver``: ``Euler.solve`` with a hypernet (eval) and ``Hypersolver``'s loss (train).

Eval: what a user evaluates after training: the solver's ``get_solution(copy=False, best=False)``
called on the validation generator's points (which carry ``requires_grad``, as the library's own
generators make them), the approximator's ``__call__``, ``Euler.solve``; ``get_residuals`` for
its model. The probe runs eval without gradients, but a solution under a Neumann condition
(``DoubleEndedBVP1D`` / ``IBVP1D`` with a ``*_prime``) differentiates its network inside ``enforce``
and ``get_residuals`` differentiates the solution, so those five eval callables run inside
``torch.enable_grad()``, as a user's script (grad on by default) evaluates them; without it they
fail eagerly. Train: the solver's training step as ``BaseSolver._run_epoch``'s ``closure`` computes
it, without ``loss.backward()``, ``loss.item()``, the metrics' ``.item()`` and the optimizer:
``solver._generate_batch('train')`` (the train ``SamplerGenerator`` over the user's generator),
``solver.compute_func_val(net, cond, *batch)`` per net (``cond.enforce``; ``_auto_enforce`` for
``SolverSpherical``), ``solver.diff_eqs(*funcs, *batch)`` concatenated, then
``solver.loss_fn(residuals, funcs, batch) + solver.additional_loss(residuals, funcs, batch)``. The
temporal approximators' ``calculate_loss``; the networks alone through ``mean_loss_module``.

    pip install --no-deps neurodiffeq==0.7.0
    pip install --no-deps seaborn==0.13.2

(already installed and used: numpy, scipy, matplotlib, pandas, dill, requests, tqdm, ordered-set,
tensorboard; ``neurodiffeq/__init__`` imports ``monitors`` and ``pde_spherical``, which import
seaborn at their top, the only one missing.) Nothing stubbed. Note: ``import neurodiffeq`` sets
torch's default dtype to float64 (``utils.set_tensor_type(float_bits=64)``), so every tensor and
network here is float64, as for any user of the library.

Left out: ``fit`` (tqdm loop, ``loss.item()``, ``deepcopy`` of the best nets, callbacks), the
monitors and callbacks (matplotlib, tensorboard, file I/O), ``solvers_utils`` (pretrained-solver
download / pickling), the deprecated ``ode.solve*`` / ``pde.solve2D*`` / ``solve_spherical*``
functions (wrappers that build the solvers covered here and call ``fit``; the spherical one's
``enforcer`` is covered), ``RealFourierSeries`` / ``FourierLaplacian`` (no solver or example in the
library uses them) and ``SingleNetworkApproximator2DSpatialTemporal`` (the 1-D one is in).
"""

import functools

PACKAGE = "neurodiffeq"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_N = 32  # collocation points of a 1-D generator
_G = (6, 6)  # grid of a 2-D generator
_HID = (16, 16)


def warm_up():
    import torch  # noqa: F401
    import neurodiffeq  # noqa: F401
    import neurodiffeq.solvers
    import neurodiffeq.temporal
    import neurodiffeq.hypersolver  # noqa: F401


# --- the two callables every solver model gives -----------------------------------------------

@functools.cache
def _classes():
    import torch

    class SolverStep(torch.nn.Module):
        """One training step's loss of a neurodiffeq solver: the ``closure`` of
        ``BaseSolver._run_epoch('train')`` up to the loss (no backward, no ``.item()``)."""

        def __init__(self, solver):
            super().__init__()
            self.nets = torch.nn.ModuleList(solver.nets)  # so that .train() / .eval() reach them
            self.solver = solver

        def forward(self):
            s = self.solver
            batch = s._generate_batch("train")
            funcs = [s.compute_func_val(n, c, *batch) for n, c in zip(s.nets, s.conditions)]
            residuals = s.diff_eqs(*funcs, *batch)
            residuals = torch.cat(residuals, dim=1)
            return s.loss_fn(residuals, funcs, batch) + s.additional_loss(residuals, funcs, batch)

    class SolutionEval(torch.nn.Module):
        """The trained solution evaluated at points: ``solver.get_solution(...)(*coords)``."""

        def __init__(self, solver, needs_grad=False, **kwargs):
            super().__init__()
            self.nets = torch.nn.ModuleList(solver.nets)
            self.solution = solver.get_solution(copy=False, best=False, **kwargs)
            self.needs_grad = needs_grad

        def forward(self, *coords, **kwargs):
            if self.needs_grad:  # a Neumann condition differentiates the net inside ``enforce``
                with torch.enable_grad():
                    return self.solution(*coords, **kwargs)
            return self.solution(*coords, **kwargs)

    class Call(torch.nn.Module):
        """A plain callable over the given modules (approximators, numerical solvers)."""

        def __init__(self, fn, *modules):
            super().__init__()
            self.mods = torch.nn.ModuleList(modules)
            self.fn = fn

        def forward(self, *args):
            return self.fn(*args)

    return SolverStep, SolutionEval, Call


def _solver_model(solver, mode, eval_coords=None, call_kwargs=None, needs_grad=False, **solution_kwargs):
    """(callable, args, kwargs) of a solver: its training step's loss in "train", its solution at
    the validation generator's points (or ``eval_coords``) in "eval"."""
    SolverStep, SolutionEval, _ = _classes()
    if mode == "train":
        return SolverStep(solver), (), {}
    coords = eval_coords if eval_coords is not None else tuple(solver.generator["valid"].get_examples())
    return SolutionEval(solver, needs_grad, **solution_kwargs), tuple(coords), dict(call_kwargs or {})


def _fcnn(n_in=1, n_out=1, **kw):
    from neurodiffeq.networks import FCNN

    kw.setdefault("hidden_units", _HID)
    return FCNN(n_input_units=n_in, n_output_units=n_out, **kw)


def _gen1d(method="uniform", size=_N, t_min=0.0, t_max=1.0, **kw):
    from neurodiffeq.generators import Generator1D

    return Generator1D(size, t_min=t_min, t_max=t_max, method=method, **kw)


# --- networks -------------------------------------------------------------------------------------

def _net_model(net, x, mode):
    if mode == "train":
        return mean_loss_module()(net), (x,), {}
    return net, (x,), {}


def _FCNN(mode):
    import torch
    import neurodiffeq  # noqa: F401  (float64 default)

    return _net_model(_fcnn(), torch.rand(16, 1), mode)


def _FCNN_SinActv(mode):
    import torch
    from neurodiffeq.networks import SinActv

    return _net_model(_fcnn(2, 1, actv=SinActv), torch.rand(16, 2), mode)


def _FCNN_Swish_trainable(mode):
    import torch
    from neurodiffeq.networks import Swish

    return _net_model(_fcnn(2, 2, actv=functools.partial(Swish, beta=1.5, trainable=True)), torch.rand(16, 2), mode)


def _FCNN_APTx_trainable(mode):
    import torch
    from neurodiffeq.networks import APTx

    return _net_model(_fcnn(1, 1, actv=functools.partial(APTx, trainable=True)), torch.rand(16, 1), mode)


def _FCNN_deprecated_args(mode):
    import warnings

    import torch
    from neurodiffeq.networks import FCNN

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = FCNN(n_input_units=3, n_output_units=1, n_hidden_units=8, n_hidden_layers=2)
    return _net_model(net, torch.rand(16, 3), mode)


def _Resnet(mode):
    import torch
    from neurodiffeq.networks import Resnet, Swish

    return _net_model(Resnet(2, 1, hidden_units=_HID, actv=Swish), torch.rand(16, 2), mode)


def _MonomialNN_FCNN(mode):
    import torch
    from neurodiffeq.networks import MonomialNN

    net = torch.nn.Sequential(MonomialNN(4), _fcnn(4, 1))
    return _net_model(net, torch.rand(16, 1), mode)


# --- Solver1D -------------------------------------------------------------------------------------

def _Solver1D_ExpDecay(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.solvers import Solver1D

    solver = Solver1D(lambda u, t: [diff(u, t) + u], [IVP(t_0=0.0, u_0=1.0)], nets=[_fcnn()],
                      train_generator=_gen1d("uniform"), valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_LotkaVolterra(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.networks import SinActv
    from neurodiffeq.solvers import Solver1D

    def ode_system(u, v, t):
        return [diff(u, t) - (u - u * v), diff(v, t) - (u * v - v)]

    conditions = [IVP(t_0=0.0, u_0=1.5), IVP(t_0=0.0, u_0=1.0)]
    nets = [_fcnn(actv=SinActv), _fcnn(actv=SinActv)]
    solver = Solver1D(ode_system, conditions, t_min=0.1, t_max=12.0, nets=nets)
    return _solver_model(solver, mode)


def _Solver1D_HarmonicOscillator(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.networks import Swish
    from neurodiffeq.solvers import Solver1D

    solver = Solver1D(lambda u, t: [diff(u, t, order=2) + u], [IVP(t_0=0.0, u_0=0.0, u_0_prime=1.0)],
                      nets=[_fcnn(actv=Swish)], loss_fn="l2",
                      train_generator=_gen1d("equally-spaced-noisy", t_max=6.28),
                      valid_generator=_gen1d("equally-spaced", t_max=6.28))
    return _solver_model(solver, mode)


def _Solver1D_DirichletBVP(mode):
    import math

    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import DirichletBVP
    from neurodiffeq.solvers import Solver1D

    def ode(u, t):
        return [diff(u, t, order=2) + math.pi ** 2 * torch.sin(math.pi * t)]

    solver = Solver1D(ode, [DirichletBVP(t_0=0.0, u_0=0.0, t_1=1.0, u_1=0.0)], nets=[_fcnn()], loss_fn="l1",
                      train_generator=_gen1d("chebyshev2"), valid_generator=_gen1d("chebyshev1"))
    return _solver_model(solver, mode)


def _Solver1D_DoubleEndedBVP_DN(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import DoubleEndedBVP1D
    from neurodiffeq.solvers import Solver1D

    cond = DoubleEndedBVP1D(x_min=0.0, x_max=1.0, x_min_val=0.0, x_max_prime=1.0)
    solver = Solver1D(lambda u, x: [diff(u, x, order=2) - u], [cond], nets=[_fcnn()], loss_fn="h1",
                      train_generator=_gen1d("uniform"), valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode, needs_grad=True)


def _Solver1D_DoubleEndedBVP_NN(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import DoubleEndedBVP1D
    from neurodiffeq.solvers import Solver1D

    cond = DoubleEndedBVP1D(x_min=0.0, x_max=1.0, x_min_prime=0.0, x_max_prime=0.0)
    solver = Solver1D(lambda u, x: [diff(u, x, order=2) + torch.cos(3.14159 * x)], [cond], nets=[_fcnn()],
                      loss_fn="infinity", train_generator=_gen1d("uniform"),
                      valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode, needs_grad=True)


def _Solver1D_DoubleEndedBVP_ND_MSELoss(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import DoubleEndedBVP1D
    from neurodiffeq.solvers import Solver1D

    cond = DoubleEndedBVP1D(x_min=0.1, x_max=1.0, x_min_prime=1.0, x_max_val=2.0)
    solver = Solver1D(lambda u, x: [x * diff(u, x, order=2) + diff(u, x)], [cond], nets=[_fcnn()],
                      loss_fn=torch.nn.MSELoss(),
                      train_generator=_gen1d("log-spaced-noisy", t_min=0.1, noise_std=1e-3),
                      valid_generator=_gen1d("log-spaced", t_min=0.1))
    return _solver_model(solver, mode, needs_grad=True)


def _Solver1D_AdditionalLoss(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.solvers import Solver1D

    t_obs = torch.tensor([0.2, 0.5, 0.8]).reshape(-1, 1)
    u_obs = torch.exp(-t_obs)

    class DataFitSolver(Solver1D):
        """The docs' way to add loss terms: override ``additional_loss`` (it may read
        ``self.nets``, ``self.conditions``, ``self._batch``, ``self.global_epoch``)."""

        def additional_loss(self, residual, funcs, coords):
            u_hat = self.conditions[0].enforce(self.nets[0], t_obs)
            data = ((u_hat - u_obs) ** 2).mean()
            t = self._batch["train"][0]
            return data + 1e-3 * (funcs[0] * (t > 0.5)).abs().mean()

    solver = DataFitSolver(lambda u, t: [diff(u, t) + u], [IVP(t_0=0.0, u_0=1.0)], nets=[_fcnn()],
                           train_generator=_gen1d("uniform"), valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_EnsembleCondition(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import EnsembleCondition, IVP
    from neurodiffeq.solvers import Solver1D

    def ode(uv, t):
        u, v = uv[:, 0:1], uv[:, 1:2]
        return [diff(u, t) - v, diff(v, t) + u]

    cond = EnsembleCondition(IVP(t_0=0.0, u_0=0.0), IVP(t_0=0.0, u_0=1.0))
    solver = Solver1D(ode, [cond], nets=[_fcnn(1, 2)],
                      train_generator=_gen1d("uniform"), valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode, call_kwargs={"no_reshape": True})  # two columns from one net


def _Solver1D_NoCondition_Monomial(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import NoCondition
    from neurodiffeq.networks import MonomialNN
    from neurodiffeq.solvers import Solver1D

    net = torch.nn.Sequential(MonomialNN([1, 2, 3]), _fcnn(3, 1))
    solver = Solver1D(lambda u, t: [diff(u, t) - 2 * t], [NoCondition()], nets=[net], loss_fn="h1 semi",
                      train_generator=_gen1d("latin-hypercube"), valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_ConcatGenerator(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.networks import Resnet
    from neurodiffeq.solvers import Solver1D

    train = _gen1d("uniform", 16, 0.0, 0.5) + _gen1d("equally-spaced-noisy", 16, 0.5, 2.0)
    solver = Solver1D(lambda u, t: [diff(u, t) - t * u], [IVP(t_0=0.0, u_0=1.0)],
                      nets=[Resnet(1, 1, hidden_units=_HID)],
                      train_generator=train, valid_generator=_gen1d("equally-spaced", t_max=2.0))
    return _solver_model(solver, mode)


def _Solver1D_TransformGenerator(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.generators import TransformGenerator
    from neurodiffeq.solvers import Solver1D

    train = TransformGenerator(_gen1d("uniform"), transforms=[lambda t: t ** 2 * 3.0])
    solver = Solver1D(lambda u, t: [diff(u, t) - torch.cos(t)], [IVP(t_0=0.0, u_0=0.0)], nets=[_fcnn()],
                      train_generator=train, valid_generator=_gen1d("equally-spaced", t_max=3.0))
    return _solver_model(solver, mode)


def _Solver1D_ResampleGenerator(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.generators import ResampleGenerator
    from neurodiffeq.solvers import Solver1D

    train = ResampleGenerator(_gen1d("equally-spaced", 64), size=_N, replacement=False)
    solver = Solver1D(lambda u, t: [diff(u, t) + 2 * u], [IVP(t_0=0.0, u_0=1.0)], nets=[_fcnn()],
                      train_generator=train, valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_BatchGenerator(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.generators import BatchGenerator
    from neurodiffeq.solvers import Solver1D

    train = BatchGenerator(_gen1d("uniform", 24), batch_size=16)
    solver = Solver1D(lambda u, t: [diff(u, t) + u], [IVP(t_0=0.0, u_0=1.0)], nets=[_fcnn()],
                      train_generator=train, valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_FilterGenerator(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.generators import FilterGenerator
    from neurodiffeq.networks import Resnet
    from neurodiffeq.solvers import Solver1D

    train = FilterGenerator(_gen1d("uniform", 48), filter_fn=lambda xs: xs[0] > 0.25)
    solver = Solver1D(lambda u, t: [diff(u, t) + u], [IVP(t_0=0.0, u_0=1.0)],
                      nets=[Resnet(1, 1, hidden_units=_HID)],
                      train_generator=train, valid_generator=_gen1d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver1D_APTx(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.networks import APTx
    from neurodiffeq.solvers import Solver1D

    net = _fcnn(actv=functools.partial(APTx, trainable=True))
    solver = Solver1D(lambda u, t: [diff(u, t) - u * (1 - u)], [IVP(t_0=0.0, u_0=0.1)], nets=[net],
                      t_min=0.0, t_max=4.0)
    return _solver_model(solver, mode)


def _Solver1D_get_residuals(mode):
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.solvers import Solver1D

    solver = Solver1D(lambda u, t: [diff(u, t) + u], [IVP(t_0=0.0, u_0=1.0)], nets=[_fcnn()],
                      t_min=0.0, t_max=1.0)
    _, _, Call = _classes()

    def residual_loss(ts):
        with torch.enable_grad():  # the residuals are derivatives of the solution
            return (solver.get_residuals(ts, best=False) ** 2).mean()

    return Call(residual_loss, *solver.nets), (torch.linspace(0.0, 1.0, _N),), {}


# --- Solver2D -------------------------------------------------------------------------------------

def _gen2d(method="equally-spaced-noisy", grid=_G, xy_min=(0.0, 0.0), xy_max=(1.0, 1.0)):
    from neurodiffeq.generators import Generator2D

    return Generator2D(grid, xy_min=xy_min, xy_max=xy_max, method=method)


def _Solver2D_Laplace(mode):
    import numpy as np
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import DirichletBVP2D
    from neurodiffeq.solvers import Solver2D

    def pde_system(u, x, y):
        return [diff(u, x, order=2) + diff(u, y, order=2)]

    conditions = [DirichletBVP2D(
        x_min=0, x_min_val=lambda y: torch.sin(np.pi * y),
        x_max=1, x_max_val=lambda y: 0,
        y_min=0, y_min_val=lambda x: 0,
        y_max=1, y_max_val=lambda x: 0,
    )]
    solver = Solver2D(pde_system, conditions, xy_min=(0, 0), xy_max=(1, 1), nets=[_fcnn(2, 1, hidden_units=(32,))],
                      train_generator=_gen2d(), valid_generator=_gen2d("equally-spaced"))
    return _solver_model(solver, mode)


def _heat_ibvp(mode, needs_grad=False, **bcs):
    import numpy as np
    import torch
    from neurodiffeq import diff
    from neurodiffeq.conditions import IBVP1D
    from neurodiffeq.solvers import Solver2D

    k = 0.3

    def heat(u, x, t):
        return [diff(u, t) - k * diff(u, x, order=2)]

    cond = IBVP1D(x_min=0.0, x_max=1.0, t_min=0.0, t_min_val=lambda x: torch.sin(np.pi * x), **bcs)
    solver = Solver2D(heat, [cond], nets=[_fcnn(2, 1)],
                      train_generator=_gen2d(), valid_generator=_gen2d("equally-spaced"))
    return _solver_model(solver, mode, needs_grad=needs_grad)


def _Solver2D_Heat_IBVP_DD(mode):
    return _heat_ibvp(mode, x_min_val=lambda t: 0 * t, x_max_val=lambda t: 0 * t)


def _Solver2D_Heat_IBVP_DN(mode):
    return _heat_ibvp(mode, True, x_min_val=lambda t: 0 * t, x_max_prime=lambda t: 0 * t)


def _Solver2D_Heat_IBVP_NN(mode):
    return _heat_ibvp(mode, True, x_min_prime=lambda t: 0 * t, x_max_prime=lambda t: 0 * t)


def _Solver2D_Poisson_operators(mode):
    import torch
    from neurodiffeq.conditions import DirichletBVP2D
    from neurodiffeq.operators import div, grad, laplacian
    from neurodiffeq.solvers import Solver2D

    def pde(u, x, y):
        u_x, u_y = grad(u, x, y)
        return [laplacian(u, x, y) + torch.exp(-(x ** 2 + y ** 2)), div(u_x, u_y, x, y) - laplacian(u, x, y)]

    zero = lambda z: 0 * z  # noqa: E731
    cond = DirichletBVP2D(x_min=0, x_min_val=zero, x_max=1, x_max_val=zero,
                          y_min=0, y_min_val=zero, y_max=1, y_max_val=zero)
    train = _gen1d("uniform", 36) * _gen1d("uniform", 36)  # EnsembleGenerator
    solver = Solver2D(pde, [cond], nets=[_fcnn(2, 1)], loss_fn="l2",
                      train_generator=train, valid_generator=_gen2d("equally-spaced"))
    return _solver_model(solver, mode)


def _Solver2D_System_Mesh(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import DirichletBVP2D
    from neurodiffeq.solvers import Solver2D

    def pde(u, v, x, y):
        return [diff(u, x) - diff(v, y), diff(u, y) + diff(v, x)]  # Cauchy-Riemann

    c1 = DirichletBVP2D(x_min=0, x_min_val=lambda y: 0 * y, x_max=1, x_max_val=lambda y: 1 + 0 * y,
                        y_min=0, y_min_val=lambda x: x, y_max=1, y_max_val=lambda x: x)
    c2 = DirichletBVP2D(x_min=0, x_min_val=lambda y: y, x_max=1, x_max_val=lambda y: y,
                        y_min=0, y_min_val=lambda x: 0 * x, y_max=1, y_max_val=lambda x: 1 + 0 * x)
    train = _gen1d("uniform", 6) ^ _gen1d("equally-spaced-noisy", 6)  # MeshGenerator
    solver = Solver2D(pde, [c1, c2], nets=[_fcnn(2, 1), _fcnn(2, 1)],
                      train_generator=train, valid_generator=_gen2d("equally-spaced"))
    return _solver_model(solver, mode)


# --- GenericSolver --------------------------------------------------------------------------------

def _Generic_Laplace3D(mode):
    from neurodiffeq.conditions import NoCondition
    from neurodiffeq.generators import Generator3D
    from neurodiffeq.operators import laplacian
    from neurodiffeq.solvers import GenericSolver

    solver = GenericSolver(lambda u, x, y, z: [laplacian(u, x, y, z) - 1.0], [NoCondition()], nets=[_fcnn(3, 1)],
                           train_generator=Generator3D((4, 4, 4)),
                           valid_generator=Generator3D((3, 3, 3), method="equally-spaced"))
    return _solver_model(solver, mode)


def _Generic_VectorField_curl(mode):
    from neurodiffeq.conditions import NoCondition
    from neurodiffeq.generators import Generator3D
    from neurodiffeq.operators import curl, div, vector_laplacian

    from neurodiffeq.solvers import GenericSolver

    def pde(ux, uy, uz, x, y, z):
        cx, cy, cz = curl(ux, uy, uz, x, y, z)
        lx, ly, lz = vector_laplacian(ux, uy, uz, x, y, z)
        return [cx - lx, cy - ly, cz - lz, div(ux, uy, uz, x, y, z)]

    solver = GenericSolver(pde, [NoCondition(), NoCondition(), NoCondition()],
                           nets=[_fcnn(3, 1), _fcnn(3, 1), _fcnn(3, 1)],
                           train_generator=Generator3D((3, 3, 3)),
                           valid_generator=Generator3D((3, 3, 3), method="equally-spaced"))
    return _solver_model(solver, mode)


def _Generic_Cylindrical(mode):
    import numpy as np
    from neurodiffeq.conditions import NoCondition
    from neurodiffeq.generators import GeneratorND
    from neurodiffeq.operators import cylindrical_div, cylindrical_grad, cylindrical_laplacian
    from neurodiffeq.solvers import GenericSolver

    def pde(u, rho, phi, z):
        g_rho, g_phi, g_z = cylindrical_grad(u, rho, phi, z)
        return [cylindrical_laplacian(u, rho, phi, z) - rho,
                cylindrical_div(g_rho, g_phi, g_z, rho, phi, z) - cylindrical_laplacian(u, rho, phi, z)]

    def gen(noisy):
        return GeneratorND(grid=(4, 4, 3), r_min=(0.1, 0.0, 0.0), r_max=(1.0, 2 * np.pi, 1.0),
                           methods=["equally-spaced", "equally-spaced", "uniform"], noisy=noisy)

    solver = GenericSolver(pde, [NoCondition()], nets=[_fcnn(3, 1)],
                           train_generator=gen(True), valid_generator=gen(False))
    return _solver_model(solver, mode)


# --- SolverSpherical ------------------------------------------------------------------------------

def _gen_sph(r_min=0.1, r_max=1.0, method="equally-spaced-noisy", size=48):
    from neurodiffeq.generators import GeneratorSpherical

    return GeneratorSpherical(size, r_min=r_min, r_max=r_max, method=method)


def _SolverSpherical_Dirichlet(mode):
    import torch
    from neurodiffeq.conditions import DirichletBVPSpherical
    from neurodiffeq.operators import spherical_laplacian
    from neurodiffeq.solvers import SolverSpherical

    rho = lambda r: torch.exp(-r ** 2 / 2)  # noqa: E731
    cond = DirichletBVPSpherical(r_0=0.1, f=lambda th, ph: 1.0 + 0 * th, r_1=1.0, g=lambda th, ph: torch.cos(th))
    solver = SolverSpherical(lambda u, r, th, ph: [spherical_laplacian(u, r, th, ph) + rho(r)], [cond],
                             nets=[_fcnn(3, 1)], train_generator=_gen_sph(), valid_generator=_gen_sph())
    return _solver_model(solver, mode)


def _SolverSpherical_InfDirichlet(mode):
    import torch
    from neurodiffeq.conditions import InfDirichletBVPSpherical
    from neurodiffeq.operators import spherical_grad
    from neurodiffeq.solvers import SolverSpherical

    def pde(u, r, th, ph):
        u_r, u_th, u_ph = spherical_grad(u, r, th, ph)
        return [u_r + u / r, u_th ** 2 + u_ph ** 2]

    cond = InfDirichletBVPSpherical(r_0=1.0, f=lambda th, ph: torch.sin(th) * torch.cos(ph),
                                    g=lambda th, ph: 0 * th, order=2)
    solver = SolverSpherical(pde, [cond], nets=[_fcnn(3, 1)], loss_fn="l1",
                             train_generator=_gen_sph(1.0, 5.0, "equally-radius-noisy"),
                             valid_generator=_gen_sph(1.0, 5.0, "equally-radius-noisy"))
    return _solver_model(solver, mode)


def _SolverSpherical_RealHarmonics(mode):
    import torch
    from neurodiffeq.conditions import DirichletBVPSphericalBasis
    from neurodiffeq.function_basis import HarmonicsLaplacian, RealSphericalHarmonics
    from neurodiffeq.solvers import SolverSpherical

    max_degree = 2
    n = (max_degree + 1) ** 2
    harmonics_fn = RealSphericalHarmonics(max_degree=max_degree)
    laplacian = HarmonicsLaplacian(max_degree=max_degree)
    rho = lambda r: torch.exp(-r ** 2 / 2)  # noqa: E731
    R_0 = torch.tensor([2.0] + [0.0] * (n - 1))
    R_1 = torch.tensor([0.5] + [0.0] * (n - 1))
    cond = DirichletBVPSphericalBasis(r_0=0.1, R_0=R_0, r_1=1.0, R_1=R_1)
    solver = SolverSpherical(lambda R, r, th, ph: [laplacian(R, r, th, ph) + rho(r)], [cond],
                             nets=[_fcnn(1, n)], train_generator=_gen_sph(), valid_generator=_gen_sph())
    return _solver_model(solver, mode, harmonics_fn=harmonics_fn)


def _SolverSpherical_ZonalHarmonics(mode):
    import torch
    from neurodiffeq.conditions import InfDirichletBVPSphericalBasis
    from neurodiffeq.function_basis import ZonalSphericalHarmonics, ZonalSphericalHarmonicsLaplacian
    from neurodiffeq.solvers import SolverSpherical

    max_degree = 3
    harmonics_fn = ZonalSphericalHarmonics(max_degree=max_degree)
    laplacian = ZonalSphericalHarmonicsLaplacian(max_degree=max_degree)
    cond = InfDirichletBVPSphericalBasis(r_0=1.0, R_0=torch.tensor([1.0, 0.5, 0.0, 0.0]),
                                         R_inf=torch.zeros(max_degree + 1), order=1)
    solver = SolverSpherical(lambda R, r, th, ph: [laplacian(R, r, th, ph)], [cond],
                             nets=[_fcnn(1, max_degree + 1)],
                             train_generator=_gen_sph(1.0, 4.0), valid_generator=_gen_sph(1.0, 4.0))
    return _solver_model(solver, mode, harmonics_fn=harmonics_fn)


def _SolverSpherical_HarmonicsEnforcer(mode):
    import torch
    from neurodiffeq.conditions import DirichletBVPSphericalBasis
    from neurodiffeq.function_basis import RealSphericalHarmonics
    from neurodiffeq.operators import spherical_laplacian
    from neurodiffeq.solvers import SolverSpherical

    harmonics_fn = RealSphericalHarmonics(max_degree=1)

    def enforcer(net, cond, points):  # as ``pde_spherical.solve_spherical_system`` builds it
        return (cond.enforce(net, points[0]) * harmonics_fn(*points[1:])).sum(dim=1, keepdims=True)

    cond = DirichletBVPSphericalBasis(r_0=0.1, R_0=torch.tensor([1.0, 0.0, 0.0, 0.0]))
    solver = SolverSpherical(lambda u, r, th, ph: [spherical_laplacian(u, r, th, ph)], [cond],
                             nets=[_fcnn(1, 4)], enforcer=enforcer,
                             train_generator=_gen_sph(), valid_generator=_gen_sph())
    return _solver_model(solver, mode, harmonics_fn=harmonics_fn)


def _SolverSpherical_VectorField(mode):
    from neurodiffeq.conditions import DirichletBVPSpherical
    from neurodiffeq.operators import spherical_curl, spherical_div, spherical_vector_laplacian
    from neurodiffeq.solvers import SolverSpherical

    def pde(ur, uth, uph, r, th, ph):
        cr, cth, cph = spherical_curl(ur, uth, uph, r, th, ph)
        lr, lth, lph = spherical_vector_laplacian(ur, uth, uph, r, th, ph)
        return [lr - cr, lth - cth, lph - cph, spherical_div(ur, uth, uph, r, th, ph)]

    zero = lambda th, ph: 0 * th  # noqa: E731
    conds = [DirichletBVPSpherical(r_0=0.5, f=zero, r_1=1.0, g=lambda th, ph: 1 + 0 * th),
             DirichletBVPSpherical(r_0=0.5, f=zero, r_1=1.0, g=zero),
             DirichletBVPSpherical(r_0=0.5, f=zero, r_1=1.0, g=zero)]
    solver = SolverSpherical(pde, conds, nets=[_fcnn(3, 1), _fcnn(3, 1), _fcnn(3, 1)],
                             train_generator=_gen_sph(0.5, 1.0, size=32),
                             valid_generator=_gen_sph(0.5, 1.0, size=32))
    return _solver_model(solver, mode)


# --- BundleSolver1D -------------------------------------------------------------------------------

def _bundle_gens(*ranges):
    """(train, valid) meshes of ``Generator1D``\s over t and the bundle parameters, as
    ``BundleSolver1D`` builds by default (``^``), with 8 x 4 x ... points instead of 32 ** n."""
    gens = []
    for method in ("equally-spaced-noisy", "equally-spaced"):
        g = None
        for i, (lo, hi) in enumerate(ranges):
            gi = _gen1d(method, 8 if i == 0 else 4, lo, hi)
            g = gi if g is None else g ^ gi
        gens.append(g)
    return gens


def _bundle_readme():
    from neurodiffeq import diff
    from neurodiffeq.conditions import BundleIVP
    from neurodiffeq.solvers import BundleSolver1D

    conditions = [BundleIVP(t_0=0, u_0=None, bundle_param_lookup={"u_0": 1})]
    return BundleSolver1D(
        ode_system=lambda u, t, lmd: [diff(u, t) + lmd * u],
        conditions=conditions,
        t_min=0, t_max=1,
        theta_min=[3, 0.2],
        theta_max=[5, 0.6],
        eq_param_index=(0,),
        nets=[_fcnn(3, 1)],
        n_batches_valid=1,
        **dict(zip(("train_generator", "valid_generator"), _bundle_gens((0, 1), (3, 5), (0.2, 0.6)))),
    )


def _BundleSolver1D_BundleIVP(mode):
    return _solver_model(_bundle_readme(), mode)


def _BundleSolver1D_DirichletBVP(mode):
    from neurodiffeq import diff
    from neurodiffeq.conditions import BundleDirichletBVP
    from neurodiffeq.solvers import BundleSolver1D

    cond = BundleDirichletBVP(t_0=0.0, u_0=0.0, t_1=1.0, u_1=None, bundle_param_lookup={"u_1": 0})
    solver = BundleSolver1D(lambda u, t: [diff(u, t, order=2)], [cond], t_min=0.0, t_max=1.0,
                            theta_min=0.5, theta_max=2.0, nets=[_fcnn(2, 1)],
                            **dict(zip(("train_generator", "valid_generator"), _bundle_gens((0, 1), (0.5, 2.0)))))
    return _solver_model(solver, mode)


def _BundleSolution_InverseProblem(mode):
    import torch

    solver = _bundle_readme()
    solution = solver.get_solution(copy=False, best=False)

    class Inverse(torch.nn.Module):
        """The README's reverse problem: fit (lambda, U0) to observations through the bundle."""

        def __init__(self):
            super().__init__()
            self.nets = torch.nn.ModuleList(solver.nets)
            self.lmd = torch.nn.Parameter(torch.tensor([4.2]))
            self.u0 = torch.nn.Parameter(torch.tensor([0.35]))
            self.register_buffer("u_obs", torch.tensor([0.273, 0.129, 0.0609]).reshape(-1, 1))

        def forward(self, t_obs):
            output = solution(t_obs, self.lmd * torch.ones_like(t_obs), self.u0 * torch.ones_like(t_obs))
            if mode == "train":
                return ((output - self.u_obs) ** 2).mean()
            return output

    return Inverse(), (torch.tensor([0.2, 0.5, 0.8]).reshape(-1, 1),), {}


# --- temporal -------------------------------------------------------------------------------------

def _Temporal_Heat1D(mode):
    import numpy as np
    import torch
    from neurodiffeq.neurodiffeq import unsafe_diff as diff  # as the library's temporal tests
    from neurodiffeq.temporal import (BoundaryCondition, FirstOrderInitialCondition,
                                      SingleNetworkApproximator1DSpatialTemporal, _cartesian_prod_dims,
                                      generator_1dspatial, generator_temporal)

    def heat(u, x, t):
        return diff(u, t) - 0.3 * diff(u, x, order=2)

    def points(x0):
        while True:
            yield torch.tensor([x0])

    approx = SingleNetworkApproximator1DSpatialTemporal(
        single_network=_fcnn(2, 1),
        pde=heat,
        initial_condition=FirstOrderInitialCondition(u0=lambda x: torch.sin(np.pi * x)),
        boundary_conditions=[BoundaryCondition(form=lambda u, x, t: u, points_generator=points(0.0)),
                             BoundaryCondition(form=lambda u, x, t: u, points_generator=points(2.0))],
    )
    x = next(generator_1dspatial(size=8, x_min=0.0, x_max=2.0, random=True))
    t = next(generator_temporal(size=6, t_min=0.0, t_max=3.0, random=True))
    xx, tt = _cartesian_prod_dims(x, t)
    _, _, Call = _classes()
    if mode == "train":
        return Call(approx.calculate_loss, approx.single_network), (xx, tt, x, t), {}
    return Call(approx, approx.single_network), (xx, tt), {}


def _Temporal_Laplace2D(mode):
    import torch
    from neurodiffeq.neurodiffeq import unsafe_diff as diff  # as the library's temporal tests
    from neurodiffeq.temporal import (BoundaryCondition, SingleNetworkApproximator2DSpatial,
                                      generator_2dspatial_rectangle, generator_2dspatial_segment)

    def laplace(u, x, y):
        return diff(u, x, order=2) + diff(u, y, order=2)

    bcs = [BoundaryCondition(form=lambda u, x, y: u - torch.sin(3.14159 * x),
                             points_generator=generator_2dspatial_segment(8, start=(0.0, 0.0), end=(1.0, 0.0))),
           BoundaryCondition(form=lambda u, x, y: u,
                             points_generator=generator_2dspatial_segment(8, start=(0.0, 1.0), end=(1.0, 1.0)))]
    approx = SingleNetworkApproximator2DSpatial(single_network=_fcnn(2, 1), pde=laplace, boundary_conditions=bcs,
                                                boundary_strictness=0.5)
    xx, yy = next(generator_2dspatial_rectangle(size=(6, 6), x_min=0.0, x_max=1.0, y_min=0.0, y_max=1.0))
    xx.requires_grad = True  # as ``temporal._train_2dspatial`` does
    yy.requires_grad = True
    _, _, Call = _classes()
    if mode == "train":
        return Call(approx.calculate_loss, approx.single_network), (xx, yy), {}
    return Call(approx, approx.single_network), (xx, yy), {}


# --- hypersolver ----------------------------------------------------------------------------------

def _Hypersolver_Euler(mode):
    import numpy as np
    import torch
    from neurodiffeq.hypersolver import Euler, Hypersolver

    def func(u, v, t):  # an oscillator, as the library's hypersolver tests write it
        return [v, -u]

    def exact(ts):
        return [torch.sin(ts), torch.cos(ts)]

    net = _fcnn(3, 2)
    hs = Hypersolver(func=func, u0=[0.0, 1.0], t0=0.0, tn=np.pi, n_steps=8, sol=exact,
                     numerical_solver=Euler(), net=net)
    _, _, Call = _classes()
    if mode == "train":
        def loss():  # ``Hypersolver.fit``'s forward, up to the loss
            inp = torch.cat((hs.ts.reshape(-1, 1), hs.us), dim=1)
            out = hs.net(inp)
            return hs.loss_fcn(hs.residual, out[1:])

        return Call(loss, net), (), {}

    def solve():
        return hs.numerical_solver.solve(hs.func, hs.u0, hs.t0, hs.tn, hs.n_steps, hypernet=hs.net)

    return Call(solve, net), (), {}


MODELS = {
    # networks
    "FCNN": _FCNN,
    "FCNN_SinActv": _FCNN_SinActv,
    "FCNN_Swish_trainable": _FCNN_Swish_trainable,
    "FCNN_APTx_trainable": _FCNN_APTx_trainable,
    "FCNN_deprecated_args": _FCNN_deprecated_args,
    "Resnet": _Resnet,
    "MonomialNN_FCNN": _MonomialNN_FCNN,
    # Solver1D
    "Solver1D_ExpDecay": _Solver1D_ExpDecay,
    "Solver1D_LotkaVolterra": _Solver1D_LotkaVolterra,
    "Solver1D_HarmonicOscillator": _Solver1D_HarmonicOscillator,
    "Solver1D_DirichletBVP": _Solver1D_DirichletBVP,
    "Solver1D_DoubleEndedBVP_DN": _Solver1D_DoubleEndedBVP_DN,
    "Solver1D_DoubleEndedBVP_NN": _Solver1D_DoubleEndedBVP_NN,
    "Solver1D_DoubleEndedBVP_ND_MSELoss": _Solver1D_DoubleEndedBVP_ND_MSELoss,
    "Solver1D_AdditionalLoss": _Solver1D_AdditionalLoss,
    "Solver1D_EnsembleCondition": _Solver1D_EnsembleCondition,
    "Solver1D_NoCondition_Monomial": _Solver1D_NoCondition_Monomial,
    "Solver1D_ConcatGenerator": _Solver1D_ConcatGenerator,
    "Solver1D_TransformGenerator": _Solver1D_TransformGenerator,
    "Solver1D_ResampleGenerator": _Solver1D_ResampleGenerator,
    "Solver1D_BatchGenerator": _Solver1D_BatchGenerator,
    "Solver1D_FilterGenerator": _Solver1D_FilterGenerator,
    "Solver1D_APTx": _Solver1D_APTx,
    "Solver1D_get_residuals": _Solver1D_get_residuals,
    # Solver2D
    "Solver2D_Laplace": _Solver2D_Laplace,
    "Solver2D_Heat_IBVP_DD": _Solver2D_Heat_IBVP_DD,
    "Solver2D_Heat_IBVP_DN": _Solver2D_Heat_IBVP_DN,
    "Solver2D_Heat_IBVP_NN": _Solver2D_Heat_IBVP_NN,
    "Solver2D_Poisson_operators": _Solver2D_Poisson_operators,
    "Solver2D_System_Mesh": _Solver2D_System_Mesh,
    # GenericSolver
    "Generic_Laplace3D": _Generic_Laplace3D,
    "Generic_VectorField_curl": _Generic_VectorField_curl,
    "Generic_Cylindrical": _Generic_Cylindrical,
    # SolverSpherical
    "SolverSpherical_Dirichlet": _SolverSpherical_Dirichlet,
    "SolverSpherical_InfDirichlet": _SolverSpherical_InfDirichlet,
    "SolverSpherical_RealHarmonics": _SolverSpherical_RealHarmonics,
    "SolverSpherical_ZonalHarmonics": _SolverSpherical_ZonalHarmonics,
    "SolverSpherical_HarmonicsEnforcer": _SolverSpherical_HarmonicsEnforcer,
    "SolverSpherical_VectorField": _SolverSpherical_VectorField,
    # BundleSolver1D
    "BundleSolver1D_BundleIVP": _BundleSolver1D_BundleIVP,
    "BundleSolver1D_DirichletBVP": _BundleSolver1D_DirichletBVP,
    "BundleSolution_InverseProblem": _BundleSolution_InverseProblem,
    # temporal, hypersolver
    "Temporal_Heat1D": _Temporal_Heat1D,
    "Temporal_Laplace2D": _Temporal_Laplace2D,
    "Hypersolver_Euler": _Hypersolver_Euler,
}
