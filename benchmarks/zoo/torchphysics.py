"""TorchPhysics 1.1.2 (Bosch): physics-informed deep learning. Its models (``torchphysics.models``)
and its conditions (``torchphysics.problem.conditions``: the losses its ``Solver`` sums), built as
its tutorials, examples and tests build them, on its spaces, domains, samplers and function sets;
tiny (hidden layers of 8-16 units, 8-64 collocation points, function batches of 4), random weights,
no download, no data file (random tensors stand in for the examples' ``.npy`` / FDM data).

    pip install --no-deps torchphysics==1.1.2

(pytorch-lightning 2.6.6, numpy, scipy, matplotlib and importlib-metadata are already installed;
nothing else added. ``shapely`` and ``trimesh`` are only imported by ``ShapelyPolygon`` /
``TrimeshPolyhedron``, which the package does not import at its top: not used, nothing stubbed.
torchphysics declares ``numpy<2.0``; the installed numpy 2.x is used as is.)

Each entry is a problem (a model and the conditions a tutorial trains it with):

- Eval: the model's own ``forward`` on a ``tp.spaces.Points`` batch as the tutorials evaluate a
  trained model (``model(Points(tensor, X*T))``; a DeepONet as ``model(trunk_points,
  branch_inputs)`` / ``model(branch_inputs=Points(...))``; an FNO / PCANN / ``Operator_FCN`` on a
  discretised function batch). The output is the library's ``Points``.
- Train: ``_Step``: the body of ``Solver.training_step`` without the Lightning ``self.log`` calls
  (``self.log('train/loss', loss.item())`` needs a fitted trainer) and without the Python step
  counter: ``loss = torch.zeros(1, requires_grad=True)`` and ``loss + condition.weight *
  condition(device='cpu', iteration=0)`` for each training condition (what each condition samples,
  evaluates and reduces), ``_move_static_data`` done first as ``on_train_start`` does.

Models: ``FCN`` (the tutorials' ``Sequential(NormalizationLayer, FCN)``, plain, with a list of
activations and an output activation, ``Sinus`` / ``ReLUn`` / ``AdaptiveActivationFunction``),
``Parallel`` of two FCNs, ``HardConstraint``, ``Harmonic_FCN``, ``Polynomial_FCN`` (with
``res_connection``), ``QRES``, ``DeepRitzNet``, ``DeepONet`` (``FCTrunkNet`` + ``FCBranchNet``,
``ConvBranchNet`` on a 2-d grid, a ``constrain_fn``, a ``Sequential`` trunk), ``FNO`` (1-d with
skip connections, custom up / down networks and ``space_resolution`` batch norm; 2-d with two mode
numbers; without positional embedding), ``PCANN_FC`` (``from_fn_set`` after ``compute_pca``),
``Operator_FCN``, and ``Parameter`` for inverse problems.
Conditions: ``PINNCondition`` (heat equation of the introduction tutorial with its boolean-mask
boundary residual, hard constraints, Poisson with input parameters, a static grid sampler with
``data_functions``, an adaptive rejection sampler, LHS / Gaussian / exponential samplers, product
samplers), ``PeriodicCondition``, ``DeepRitzCondition`` / ``MeanCondition`` (on a cut domain),
``DataCondition`` (``PointsDataLoader``; full dataset and iterator paths, relative / absolute,
``'inf'`` norm, ``constrain_fn``), ``ParameterCondition``, ``AdaptiveWeightsCondition``,
``IntegroPINNCondition``, ``HPM_EquationLoss_at_Sampler`` / ``_at_DataPoints``, ``HPCMCondition``,
``PIDeepONetCondition`` (``CustomFunctionSet`` union), ``OperatorCondition`` (``DataFunctionSet``
with ``FunctionSamplerRandomUniform`` / ``Ordered`` / ``Coupled``) and ``PIOperatorCondition``
(``HarmonicFunctionSet1D`` discretised, ``GRFFunctionSet``, ``discrete_grad_on_grid`` /
``discrete_laplacian_on_grid``). The residuals use ``tp.utils`` ``grad``, ``laplacian``, ``div``,
``jac``, ``rot``, ``partial``, ``convective``, ``sym_grad``, ``matrix_div`` and
``normal_derivative`` as the examples write them.

Left out: ``Solver``'s Lightning ``fit`` loop, the optimizer / LBFGS steps and schedulers, the
plotting / animation utilities and callbacks (matplotlib, no network), ``ShapelyPolygon`` /
``TrimeshPolyhedron`` domains (need shapely / trimesh, not installed), ``DeepONetSingleModuleCondition``
with a ``data_sampler`` (same code path as ``PIDeepONetCondition``).
"""

PACKAGE = "torchphysics"

_N = 16  # collocation points per sampler


def warm_up():
    import torch  # noqa: F401
    import torchphysics  # noqa: F401
    import torchphysics.models, torchphysics.problem.conditions, torchphysics.utils  # noqa: F401,E401


def _step_cls():
    import torch

    class _Step(torch.nn.Module):
        """Solver.training_step without the Lightning logging and the step counter."""

        def __init__(self, conditions):
            super().__init__()
            self.train_conditions = torch.nn.ModuleList(conditions)
            for c in conditions:
                c._move_static_data("cpu")

        def forward(self):
            loss = torch.zeros(1, requires_grad=True, device="cpu")
            for condition in self.train_conditions:
                cond_loss = condition(device="cpu", iteration=0)
                loss = loss + condition.weight * cond_loss
            return loss

    return _Step


def _pick(mode, model, eval_args, conditions, eval_kwargs=None):
    if mode == "train":
        return _step_cls()(conditions), (), {}
    return model, eval_args, eval_kwargs or {}


def _pts(space, n=_N, lo=0.0, hi=1.0):
    import torch
    import torchphysics as tp

    return tp.spaces.Points(lo + (hi - lo) * torch.rand(n, space.dim), space)


# --- PINNs ------------------------------------------------------------------------------------

def _heat_tutorial(mode):
    """Introduction_Tutorial_PINNs: Sequential(NormalizationLayer, FCN), heat equation on a plate."""
    import torch
    import torchphysics as tp

    u_0, u_max, t_max = 16, 40, 5
    X, T, U = tp.spaces.R2("x"), tp.spaces.R1("t"), tp.spaces.R1("u")
    Omega = tp.domains.Parallelogram(X, [0, 0], [5, 0], [0, 4])
    I = tp.domains.Interval(T, 0, 20)

    def h(t):
        ht = u_0 + (u_max - u_0) / t_max * t
        ht[t > t_max] = u_max
        return ht

    def res_pde(u, x, t):
        return tp.utils.laplacian(u, x) - tp.utils.grad(u, t)

    def res_init(u):
        return u - u_0

    def res_bound(u, x, t):
        heater = (x[:, 0] >= 1) & (x[:, 0] <= 3) & (x[:, 1] >= 3.99)
        normals = Omega.boundary.normal(x)
        residual = tp.utils.normal_derivative(u, normals, x)
        residual_h = u - h(t)
        residual[heater] = residual_h[heater]
        return residual

    model = tp.models.Sequential(tp.models.NormalizationLayer(Omega * I),
                                 tp.models.FCN(X * T, U, hidden=(16, 16, 16)))
    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(Omega * I, n_points=_N), res_pde),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(Omega * I.boundary_left, _N), res_init),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(Omega.boundary * I, _N), res_bound),
    ]
    return _pick(mode, model, (_pts(X * T, hi=4.0),), conds)


def _heat_grid_product(mode):
    """The tutorial's alternative sampler: GridSampler(Omega) * RandomUniformSampler(I)."""
    import torchphysics as tp

    X, T, U = tp.spaces.R2("x"), tp.spaces.R1("t"), tp.spaces.R1("u")
    Omega = tp.domains.Parallelogram(X, [0, 0], [5, 0], [0, 4])
    I = tp.domains.Interval(T, 0, 20)
    model = tp.models.FCN(X * T, U, hidden=(16, 16))
    sampler = tp.samplers.GridSampler(Omega, n_points=8) * tp.samplers.RandomUniformSampler(I, n_points=4)

    def res(u, x, t):
        return tp.utils.laplacian(u, x) - tp.utils.grad(u, t)

    conds = [tp.conditions.PINNCondition(model, sampler, res)]
    return _pick(mode, model, (_pts(X * T),), conds)


def _hard_constraint_residual(mode):
    """hard-constrains example: the constraint applied inside the residuals."""
    import math
    import torch
    import torchphysics as tp

    X, Y, U = tp.spaces.R1("x"), tp.spaces.R1("y"), tp.spaces.R1("u")
    x_axis, y_axis = tp.domains.Interval(X, 0, 1), tp.domains.Interval(Y, 0, 1)
    square = tp.domains.Parallelogram(X * Y, [0, 0], [1, 0], [0, 1])
    model = tp.models.FCN(X * Y, U, hidden=(10, 10))
    tol = 0.0001

    def bc_fn(x):
        return torch.cos(20 * math.pi * x)

    def constrain_fn(u, x):
        return u * bc_fn(x)

    def pde_residual(u, x, y):
        u = constrain_fn(u, x)
        return tp.utils.grad(u, y) - u / (y + tol)

    def dirichlet_residual(u, x, y):
        u = constrain_fn(u, x)
        return u - y * bc_fn(x)

    def neumann_residual(u, x):
        u = constrain_fn(u, x)
        return tp.utils.grad(u, x)

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(square, n_points=_N),
                                    pde_residual, name="pde_condition"),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(x_axis * y_axis.boundary, n_points=_N),
                                    dirichlet_residual, name="diri_condition"),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(x_axis.boundary * y_axis, n_points=_N),
                                    neumann_residual, name="neu_condition", weight=1 / 60),
    ]
    return _pick(mode, model, (_pts(X * Y),), conds)


def _hard_constraint_model(mode):
    """models.HardConstraint wrapping an FCN (u = x(1-x) * net + sin)."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    square = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])

    def constraint(u, x):
        return x[:, :1] * (1 - x[:, :1]) * u + torch.sin(x[:, 1:])

    model = tp.models.HardConstraint(tp.models.FCN(X, U, hidden=(12, 12)), constraint)

    def res(u, x):
        return tp.utils.laplacian(u, x) + 1.0

    conds = [tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(square, n_points=_N), res)]
    return _pick(mode, model, (_pts(X),), conds)


def _periodic(mode):
    """periodic-boundary-problem: PeriodicCondition + Dirichlet + Poisson."""
    import numpy as np
    import torch
    import torchphysics as tp

    X, Y, P = tp.spaces.R1("x"), tp.spaces.R1("y"), tp.spaces.R1("u")
    X_domain, Y_domain = tp.domains.Interval(X, 0, 1), tp.domains.Interval(Y, 0, 1)
    square = tp.domains.Parallelogram(X * Y, [0, 0], [1, 0], [0, 1])
    model = tp.models.FCN(X * Y, P, hidden=(16, 16))

    def bc_fun(u_left, u_right):
        return u_left - u_right

    def dirichlet_fun(u):
        return u

    def pde(u, x, y):
        u_xx = tp.utils.laplacian(u, x, y)
        f = 3 * x * torch.sin(2 * np.pi * y) + torch.exp(-((x - 0.5) ** 2 + (y - 0.5) ** 2) / 0.05)
        return u_xx + f

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(square, n_points=_N), pde),
        tp.conditions.PeriodicCondition(model, X_domain, bc_fun,
                                        non_periodic_sampler=tp.samplers.RandomUniformSampler(Y_domain, n_points=8),
                                        weight=50.0),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(X_domain * Y_domain.boundary, n_points=8),
                                    dirichlet_fun),
    ]
    return _pick(mode, model, (_pts(X * Y),), conds)


def _periodic_static(mode):
    """The periodic example's LBFGS phase: samplers made static after the conditions are built;
    and a boundary condition on a sampler static from the start (its data function evaluated once)."""
    import numpy as np
    import torch
    import torchphysics as tp

    X, Y, P = tp.spaces.R1("x"), tp.spaces.R1("y"), tp.spaces.R1("u")
    X_domain, Y_domain = tp.domains.Interval(X, 0, 1), tp.domains.Interval(Y, 0, 1)
    model = tp.models.FCN(X * Y, P, hidden=(16, 16))

    def bc_fun(u_left, u_right):
        return u_left - u_right

    def pde(u, x, y):
        f = 3 * x * torch.sin(2 * np.pi * y)
        return tp.utils.laplacian(u, x, y) + f

    def g(x):
        return torch.sin(np.pi * x)

    def dirichlet(u, g):
        return u - g

    pde_cond = tp.conditions.PINNCondition(model, tp.samplers.GridSampler(X_domain, n_points=4)
                                           * tp.samplers.GridSampler(Y_domain, n_points=4), pde)
    bound_cond = tp.conditions.PeriodicCondition(model, X_domain, bc_fun,
                                                 non_periodic_sampler=tp.samplers.RandomUniformSampler(Y_domain, 8))
    # as the example does before its LBFGS phase
    bound_cond.non_periodic_sampler = bound_cond.non_periodic_sampler.make_static()
    pde_cond.sampler = pde_cond.sampler.make_static()
    diri = tp.conditions.PINNCondition(
        model, tp.samplers.RandomUniformSampler(X_domain * Y_domain.boundary, n_points=8).make_static(),
        dirichlet, data_functions={"g": g})
    conds = [pde_cond, bound_cond, diri]
    return _pick(mode, model, (_pts(X * Y),), conds)


def _inverse_heat(mode):
    """inverse-heat-equation: a learned Parameter D, PINN + DataCondition(use_full_dataset=True)."""
    import torch
    import torchphysics as tp

    X, T, D, U = tp.spaces.R2("x"), tp.spaces.R1("t"), tp.spaces.R1("D"), tp.spaces.R1("u")
    domain_x = tp.domains.Parallelogram(X, [0, 0], [10, 0], [0, 10])
    domain_t = tp.domains.Interval(T, 0, 3)
    model = tp.models.FCN(X * T, U, hidden=(16, 16, 16))
    param_D = tp.models.Parameter(init=0.0, space=D)
    inp = tp.spaces.Points(torch.rand(32, 3), X * T)
    out = tp.spaces.Points(torch.rand(32, 1), U)
    loader = tp.utils.PointsDataLoader((inp, out), batch_size=32)

    def heat_residual(u, x, t, D):
        return D * tp.utils.laplacian(u, x) - tp.utils.grad(u, t)

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(domain_x * domain_t, n_points=_N),
                                    heat_residual, name="pde_condition", parameter=param_D),
        tp.conditions.DataCondition(model, loader, norm=2, use_full_dataset=True),
    ]
    return _pick(mode, model, (_pts(X * T),), conds)


def _data_condition_batches(mode):
    """DataCondition on a PointsDataLoader one batch a step (the iterator path), absolute error."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    model = tp.models.FCN(X, U, hidden=(16, 16))
    loader = tp.utils.PointsDataLoader(
        (tp.spaces.Points(torch.rand(64, 2), X), tp.spaces.Points(torch.rand(64, 1), U)), batch_size=16, shuffle=True)
    conds = [tp.conditions.DataCondition(model, loader, norm=2, relative=False, root=2.0)]
    return _pick(mode, model, (_pts(X),), conds)


def _data_condition_inf_constrained(mode):
    """DataCondition with the 'inf' norm (absolute) and a constrain_fn on the output."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    model = tp.models.FCN(X, U, hidden=(16, 16), activation_fn_output=torch.nn.Softplus())
    loader = tp.utils.PointsDataLoader(
        (tp.spaces.Points(torch.rand(32, 2), X), tp.spaces.Points(torch.rand(32, 1), U)), batch_size=32)

    def constrain(u, x):
        return u * x[:, :1]

    conds = [tp.conditions.DataCondition(model, loader, norm="inf", relative=False, use_full_dataset=True,
                                         constrain_fn=constrain)]
    return _pick(mode, model, (_pts(X),), conds)


def _deepritz_poisson(mode):
    """deepritz/poisson-equation: DeepRitzCondition on a circle minus a square (domain cut)."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    A = tp.domains.Circle(X, center=[0, 0], radius=1.0)
    B = tp.domains.Parallelogram(X, [-0.25, -0.25], [-0.25, 0.25], [0.25, -0.25])
    D = A - B
    model = tp.models.FCN(X, U, hidden=(16, 16, 16))

    def poisson_integrand(u, x):
        return 0.5 * (torch.sum(tp.utils.grad(u, x) ** 2, dim=1))

    def f(x):
        return torch.cos(x[:, :1]) * torch.cos(x[:, 1:])

    def boundary_residual(u, f):
        return (u - f) ** 2

    conds = [
        tp.conditions.DeepRitzCondition(model, tp.samplers.RandomUniformSampler(D, n_points=_N),
                                        poisson_integrand, weight=5),
        tp.conditions.DeepRitzCondition(model, tp.samplers.RandomUniformSampler(D.boundary, n_points=_N),
                                        boundary_residual, data_functions={"f": f}),
    ]
    return _pick(mode, model, (_pts(X, lo=-1.0),), conds)


def _deepritznet(mode):
    """models.DeepRitzNet (residual blocks) under a MeanCondition energy and a PINN boundary term."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    square = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.DeepRitzNet(X, U, width=12, depth=2)

    def energy(u, x):
        return 0.5 * torch.sum(tp.utils.grad(u, x) ** 2, dim=1, keepdim=True) - u

    def bound(u):
        return u

    conds = [
        tp.conditions.MeanCondition(model, tp.samplers.RandomUniformSampler(square, n_points=_N), energy),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(square.boundary, n_points=_N), bound,
                                    weight=100.0),
    ]
    return _pick(mode, model, (_pts(X),), conds)


def _qres(mode):
    import torchphysics as tp

    X, T, U = tp.spaces.R1("x"), tp.spaces.R1("t"), tp.spaces.R1("u")
    dom = tp.domains.Interval(X, 0, 1) * tp.domains.Interval(T, 0, 1)
    model = tp.models.QRES(X * T, U, hidden=(8, 8))

    def burgers(u, x, t):
        return tp.utils.grad(u, t) + u * tp.utils.grad(u, x) - 0.01 * tp.utils.partial(u, x, x)

    conds = [tp.conditions.PINNCondition(model, tp.samplers.LHSSampler(dom, n_points=_N), burgers)]
    return _pick(mode, model, (_pts(X * T),), conds)


def _harmonic_fcn(mode):
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R1("x"), tp.spaces.R1("u")
    I = tp.domains.Interval(X, -1, 1)
    model = tp.models.Sequential(tp.models.NormalizationLayer(I),
                                 tp.models.Harmonic_FCN(X, U, max_frequenz=3, hidden=(12, 12)))

    def ode(u, x):
        return tp.utils.laplacian(u, x) + 25 * torch.sin(5 * x)

    conds = [tp.conditions.PINNCondition(model, tp.samplers.GridSampler(I, n_points=_N), ode)]
    return _pick(mode, model, (_pts(X, lo=-1.0),), conds)


def _polynomial_fcn(mode):
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    sq = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.Polynomial_FCN(X, U, polynomial_degree=2, hidden=(8, 8, 8), res_connection=True)

    def res(u, x):
        return tp.utils.laplacian(u, x) - 1.0

    conds = [tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(sq, n_points=_N), res)]
    return _pick(mode, model, (_pts(X),), conds)


def _fcn_activations(mode):
    """FCN with one activation per layer (Sinus, ReLUn, Tanh) and xavier gains per layer."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    sq = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.FCN(X, U, hidden=(12, 12, 12),
                          activations=[tp.models.Sinus(), tp.models.ReLUn(3), torch.nn.Tanh()],
                          xavier_gains=[1.0, 1.0, 5 / 3])

    def res(u, x):
        return tp.utils.grad(u, x).sum(dim=1, keepdim=True) - u

    conds = [tp.conditions.PINNCondition(model, tp.samplers.GaussianSampler(sq, n_points=_N, mean=[0.5, 0.5],
                                                                            std=0.2), res)]
    return _pick(mode, model, (_pts(X),), conds)


def _adaptive_activation(mode):
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R1("x"), tp.spaces.R1("u")
    I = tp.domains.Interval(X, 0, 1)
    act = tp.models.AdaptiveActivationFunction(torch.nn.Tanh(), initial_a=1.0, scaling=10.0)
    model = tp.models.FCN(X, U, hidden=(12, 12), activations=act)

    def res(u, x):
        return tp.utils.grad(u, x) - torch.cos(x)

    conds = [tp.conditions.PINNCondition(model, tp.samplers.ExponentialIntervalSampler(I, n_points=_N,
                                                                                       exponent=2.0), res)]
    return _pick(mode, model, (_pts(X),), conds)


def _parallel_stokes(mode):
    """Parallel(FCN for velocity, FCN for pressure): Stokes / Navier-Stokes residuals with
    div, jac, convective, rot, sym_grad and matrix_div."""
    import torch
    import torchphysics as tp

    X, V, P = tp.spaces.R2("x"), tp.spaces.R2("v"), tp.spaces.R1("p")
    sq = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.Parallel(tp.models.FCN(X, V, hidden=(12, 12)), tp.models.FCN(X, P, hidden=(12, 12)))

    def momentum(v, p, x):
        conv = tp.utils.convective(v, v, x)
        stress = tp.utils.matrix_div(2 * tp.utils.sym_grad(v, x), x)
        return conv - stress + tp.utils.grad(p, x)

    def incompressible(v, x):
        return tp.utils.div(v, x)

    def vorticity(v, x):
        return tp.utils.rot(v, x)

    def jac_norm(v, x):
        return torch.sum(tp.utils.jac(v, x) ** 2, dim=(1, 2)).unsqueeze(-1)

    def wall(v):
        return v

    s = tp.samplers.RandomUniformSampler(sq, n_points=_N)
    conds = [
        tp.conditions.PINNCondition(model, s, momentum),
        tp.conditions.PINNCondition(model, s, incompressible),
        tp.conditions.PINNCondition(model, s, jac_norm, weight=0.01),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(sq.boundary, n_points=_N), wall),
    ]
    return _pick(mode, model, (_pts(X),), conds)


def _rot_3d(mode):
    """A 3-d vector field on a Box and a Sphere boundary: rot, div, normal_derivative."""
    import torchphysics as tp

    X, B = tp.spaces.R3("x"), tp.spaces.R3("b")
    box = tp.domains.Box(X, [0, 0, 0], 1.0, 1.0, 1.0)
    sphere = tp.domains.Sphere(X, [0.5, 0.5, 0.5], 0.5)
    model = tp.models.FCN(X, B, hidden=(12, 12))

    def res(b, x):
        return tp.utils.rot(tp.utils.rot(b, x), x) + tp.utils.grad(tp.utils.div(b, x), x)

    def res_bound(b, x):
        return tp.utils.normal_derivative(b[:, :1], sphere.boundary.normal(x), x)

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(box, n_points=_N), res),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(sphere.boundary, n_points=_N), res_bound),
    ]
    return _pick(mode, model, (_pts(X),), conds)


def _poisson_input_params(mode):
    """poisson-with-input-params: the parameter is a model input sampled with the space points."""
    import torch
    import torchphysics as tp

    X, K, U = tp.spaces.R2("x"), tp.spaces.R1("k"), tp.spaces.R1("u")
    circle = tp.domains.Circle(X, [0, 0], 1.0)
    K_int = tp.domains.Interval(K, 0.5, 2.0)
    model = tp.models.Sequential(tp.models.NormalizationLayer(circle * K_int),
                                 tp.models.FCN(X * K, U, hidden=(16, 16)))

    def pde(u, x, k):
        return tp.utils.laplacian(u, x) + k * torch.ones_like(u)

    def bound(u):
        return u

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(circle * K_int, n_points=_N), pde),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(circle.boundary * K_int, n_points=_N),
                                    bound),
    ]
    return _pick(mode, model, (_pts(X * K),), conds)


def _adaptive_sampler(mode):
    """AdaptiveRandomRejectionSampler and AdaptiveThresholdRejectionSampler: resampled from the last loss."""
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    sq = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.FCN(X, U, hidden=(12, 12))

    def res(u, x):
        return tp.utils.laplacian(u, x) - 1.0

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.AdaptiveRandomRejectionSampler(sq, n_points=_N), res),
        tp.conditions.PINNCondition(model, tp.samplers.AdaptiveThresholdRejectionSampler(sq, resample_ratio=0.5,
                                                                                         n_points=_N), res),
    ]
    return _pick(mode, model, (_pts(X),), conds)


def _adaptive_weights(mode):
    """AdaptiveWeightsCondition (AdaptiveWeightLayer, gradient reversal) on a static sampler."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    sq = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
    model = tp.models.FCN(X, U, hidden=(12, 12))

    def res(u, x):
        return tp.utils.laplacian(u, x) + torch.sin(x[:, :1])

    conds = [tp.conditions.AdaptiveWeightsCondition(model, tp.samplers.RandomUniformSampler(sq, n_points=_N)
                                                    .make_static(), res)]
    return _pick(mode, model, (_pts(X),), conds)


def _integro(mode):
    """IntegroPINNCondition: an integral term from a second sampler."""
    import torch
    import torchphysics as tp

    X, Y, U = tp.spaces.R1("x"), tp.spaces.R1("y"), tp.spaces.R1("u")
    I = tp.domains.Interval(X, 0, 1)
    model = tp.models.FCN(X, U, hidden=(12, 12))

    def res(u, x, u_integral, x_integral):
        integral = torch.mean(u_integral * x_integral, dim=1)
        return tp.utils.grad(u, x) - integral - 1.0

    conds = [tp.conditions.IntegroPINNCondition(model, tp.samplers.RandomUniformSampler(I, n_points=8), res,
                                                integral_sampler=tp.samplers.GridSampler(I, n_points=8))]
    return _pick(mode, model, (_pts(X),), conds)


def _parameter_condition(mode):
    """An inverse ODE (exp-function-with-param): Parameter learned with a PINN, a ParameterCondition penalty."""
    import torch
    import torchphysics as tp

    T, A, U = tp.spaces.R1("t"), tp.spaces.R1("a"), tp.spaces.R1("u")
    I = tp.domains.Interval(T, 0, 1)
    model = tp.models.FCN(T, U, hidden=(12, 12))
    a = tp.models.Parameter(init=0.5, space=A)

    def ode(u, t, a):
        return tp.utils.grad(u, t) - a * u

    def penalty(a):
        return torch.relu(a - 2.0) ** 2

    loader = tp.utils.PointsDataLoader((tp.spaces.Points(torch.rand(16, 1), T),
                                        tp.spaces.Points(torch.rand(16, 1), U)), batch_size=16)
    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(I, n_points=_N), ode, parameter=a),
        tp.conditions.DataCondition(model, loader, norm=2),
        tp.conditions.ParameterCondition(a, penalty, weight=1.0),
    ]
    return _pick(mode, model, (_pts(T),), conds)


def _hpm(mode):
    """Hidden physics models: HPM_EquationLoss_at_DataPoints and _at_Sampler with a second (physics) net."""
    import torch
    import torchphysics as tp

    X, T, U, N = tp.spaces.R1("x"), tp.spaces.R1("t"), tp.spaces.R1("u"), tp.spaces.R1("n")
    dom = tp.domains.Interval(X, 0, 1) * tp.domains.Interval(T, 0, 1)
    model_u = tp.models.FCN(X * T, U, hidden=(12, 12))
    model_n = tp.models.FCN(U * X, N, hidden=(8, 8))

    def hpm_residual(x, t):
        xt = tp.spaces.Points(torch.cat([x, t], dim=1), X * T)
        u = model_u(xt).as_tensor
        u_t = tp.utils.grad(u, t)
        n = model_n(tp.spaces.Points(torch.cat([u, x], dim=1), U * X)).as_tensor
        return u_t - n

    loader = tp.utils.PointsDataLoader((tp.spaces.Points(torch.rand(16, 2), X * T),
                                        tp.spaces.Points(torch.rand(16, 1), U)), batch_size=8)
    conds = [
        tp.conditions.DataCondition(model_u, loader, norm=2),
        tp.conditions.HPM_EquationLoss_at_DataPoints(model_n, loader, norm=2, residual_fn=hpm_residual),
        tp.conditions.HPM_EquationLoss_at_Sampler(model_n, tp.samplers.RandomUniformSampler(dom, n_points=_N),
                                                  hpm_residual),
    ]
    return _pick(mode, model_u, (_pts(X * T),), conds)


def _hpcm(mode):
    """HPCMCondition: a state model corrected by a second model, against data."""
    import torch
    import torchphysics as tp

    X, U, C = tp.spaces.R1("x"), tp.spaces.R1("u"), tp.spaces.R1("c")
    model_state = tp.models.FCN(X, U, hidden=(12, 12))
    model_corr = tp.models.FCN(U * X, C, hidden=(8, 8))

    def correction(u, x):
        return model_corr(tp.spaces.Points(torch.cat([u, x], dim=1), U * X))

    loader = tp.utils.PointsDataLoader((tp.spaces.Points(torch.rand(16, 1), X),
                                        tp.spaces.Points(torch.rand(16, 1), U)), batch_size=8)
    conds = [tp.conditions.HPCMCondition(model_state, model_corr, loader, correction)]
    return _pick(mode, model_state, (_pts(X),), conds)


def _triangle_translate(mode):
    """A Poisson problem on domain operations: Triangle union Circle, rotated and translated."""
    import torch
    import torchphysics as tp

    X, U = tp.spaces.R2("x"), tp.spaces.R1("u")
    tri = tp.domains.Triangle(X, [0, 0], [1, 0], [0, 1])
    circ = tp.domains.Circle(X, [0.5, 0.5], 0.3)
    dom = tp.domains.Translate(tp.domains.Rotate.from_angles(tri + circ, torch.pi / 6), torch.tensor([0.1, 0.0]))
    model = tp.models.FCN(X, U, hidden=(12, 12))

    def res(u, x):
        return tp.utils.laplacian(u, x) + 1.0

    def bound(u):
        return u

    conds = [
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(dom, n_points=_N), res),
        tp.conditions.PINNCondition(model, tp.samplers.RandomUniformSampler(dom.boundary, n_points=_N), bound),
    ]
    return _pick(mode, model, (_pts(X),), conds)


# --- DeepONet -------------------------------------------------------------------------------

def _deeponet_parts(hidden_b=(12, 12), n_grid=10, constrain_fn=None, seq_trunk=False):
    import torchphysics as tp

    T, U, F = tp.spaces.R1("t"), tp.spaces.R1("u"), tp.spaces.R1("f")
    domain = tp.domains.Interval(T, 0, 1)
    fn_space = tp.spaces.FunctionSpace(T, F)
    time_grid = tp.samplers.GridSampler(domain, n_grid).sample_points()
    trunk = tp.models.FCTrunkNet(T, hidden=(10, 10), default_trunk_input=time_grid)
    if seq_trunk:
        trunk = tp.models.Sequential(tp.models.NormalizationLayer(domain), trunk)
    branch = tp.models.FCBranchNet(fn_space, hidden=hidden_b, grid=time_grid)
    model = tp.models.DeepONet(trunk, branch, U, output_neurons=12, constrain_fn=constrain_fn)
    return T, U, F, domain, fn_space, time_grid, model


def _custom_fn_sampler(fn_space, n=4):
    import torch
    import torchphysics as tp

    K = tp.spaces.R1("k")
    param_sampler = tp.samplers.RandomUniformSampler(tp.domains.Interval(K, -1, 1), 32)

    def f1(t, k):
        return k * t

    def f2(t, k):
        return k * t ** 2

    def f3(t, k):
        return k * torch.cos(t)

    fs = tp.domains.CustomFunctionSet(fn_space, param_sampler, f1)
    fs = fs.append(tp.domains.CustomFunctionSet(fn_space, param_sampler, f2))
    fs = fs.append(tp.domains.CustomFunctionSet(fn_space, param_sampler, f3))
    return tp.samplers.FunctionSamplerRandomUniform(n, fs, function_creation_interval=100)


def _pi_deeponet(mode):
    """PI_DeepONet_integrator / Tutorial_PIDeepONet: PIDeepONetCondition (ODE + initial value)."""
    import torch
    import torchphysics as tp

    T, U, F, domain, fn_space, time_grid, model = _deeponet_parts()
    fs = _custom_fn_sampler(fn_space)

    def ode_residual(u, t, f):
        return tp.utils.grad(u, t) - f

    def initial_residual(u):
        return u

    conds = [
        tp.conditions.PIDeepONetCondition(model, fs, tp.samplers.RandomUniformSampler(domain, 8), ode_residual),
        tp.conditions.PIDeepONetCondition(model, fs, tp.samplers.RandomUniformSampler(domain.boundary_left, 4),
                                          initial_residual),
    ]
    trunk_in = tp.samplers.GridSampler(domain, 20).sample_points().unsqueeze(0)
    branch_in = 0.7 * time_grid.as_tensor
    return _pick(mode, model, (trunk_in, branch_in), conds)


def _deeponet_fixed_branch(mode):
    """The tutorial's evaluation: fix_branch_input(f) once, then model(Points) on a grid."""
    import torch
    import torchphysics as tp

    T, U, F, domain, fn_space, time_grid, model = _deeponet_parts(seq_trunk=True)

    def f(t):
        return 1.16 * t ** 2

    model.fix_branch_input(f)
    fs = _custom_fn_sampler(fn_space)

    def ode_residual(u, t, f):
        return tp.utils.grad(u, t) - f

    conds = [tp.conditions.PIDeepONetCondition(model, fs, tp.samplers.RandomUniformSampler(domain, 8),
                                               ode_residual)]
    grid = tp.samplers.GridSampler(domain, 20).sample_points()
    return _pick(mode, model, (tp.spaces.Points(grid.as_tensor, T),), conds)


def _deeponet_constrained(mode):
    """DeepONet with a constrain_fn (u(0) = 0 built in) and a data-free PI condition with data_functions."""
    import torch
    import torchphysics as tp

    def constrain(u, t):
        return u * t

    T, U, F, domain, fn_space, time_grid, model = _deeponet_parts(constrain_fn=constrain)
    fs = _custom_fn_sampler(fn_space)

    def rhs(t):
        return torch.ones_like(t)

    def ode_residual(u, t, f, g):
        return tp.utils.laplacian(u, t) - f - g

    conds = [tp.conditions.PIDeepONetCondition(model, fs, tp.samplers.GridSampler(domain, 8), ode_residual,
                                               data_functions={"g": rhs})]
    trunk_in = tp.spaces.Points(torch.linspace(0, 1, 20).reshape(1, 20, 1).repeat(4, 1, 1), T)
    return _pick(mode, model, (trunk_in, tp.spaces.Points(torch.rand(4, 10, 1), F)), conds)


def _random_fn_data(n, grid_shape, dim):
    import torch

    return torch.rand(n, *grid_shape, dim)


def _deeponet_operator(mode):
    """introductory_example: DeepONet on DataFunctionSets, OperatorCondition (random / coupled samplers)."""
    import torch
    import torchphysics as tp

    T, U, F, domain, fn_space, time_grid, model = _deeponet_parts(n_grid=10)
    fs_in = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(T, F), _random_fn_data(32, (10,), 1))
    fs_out = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(T, U), _random_fn_data(32, (10,), 1))
    s_in = tp.samplers.FunctionSamplerRandomUniform(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)
    conds = [tp.conditions.OperatorCondition(model, s_in, s_out)]
    return _pick(mode, model, (), conds, {"branch_inputs": tp.spaces.Points(torch.rand(4, 10, 1), F)})


def _deeponet_conv2d(mode):
    """diffusion_2D: FCTrunkNet on a 2-d point grid, ConvBranchNet (Conv2d), OperatorCondition (ordered)."""
    import torch
    import torchphysics as tp

    X, K, U = tp.spaces.R2("x"), tp.spaces.R1("k"), tp.spaces.R1("u")
    x_grid = torch.linspace(0, 1, 8)
    point_grid = torch.permute(torch.stack(torch.meshgrid((x_grid, x_grid), indexing="ij")), (2, 1, 0)).unsqueeze(0)
    trunk = tp.models.FCTrunkNet(X, hidden=(10, 10), default_trunk_input=point_grid)
    conv = torch.nn.Sequential(
        torch.nn.Conv2d(1, 8, kernel_size=3, stride=2, padding=1), torch.nn.Tanh(),
        torch.nn.Conv2d(8, 1, kernel_size=3, stride=1, padding=1), torch.nn.Tanh(),
    )
    branch = tp.models.ConvBranchNet(tp.spaces.FunctionSpace(X, K), convolutional_network=conv,
                                     hidden=(12, 12), grid=point_grid)
    model = tp.models.DeepONet(trunk, branch, U, output_neurons=12)
    fs_in = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, K), _random_fn_data(16, (8, 8), 1))
    fs_out = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, U), _random_fn_data(16, (8, 8), 1))
    s_in = tp.samplers.FunctionSamplerOrdered(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)
    conds = [tp.conditions.OperatorCondition(model, s_in, s_out)]
    return _pick(mode, model, (), conds, {"branch_inputs": tp.spaces.Points(torch.rand(4, 8, 8, 1), K)})


# --- FNO / PCANN / Operator_FCN --------------------------------------------------------------------

def _fno_pino_1d(mode):
    """pino_integrator_1D: FNO (skip connections, custom lifting / projection, space_resolution),
    PIOperatorCondition on a discretised HarmonicFunctionSet1D with discrete_grad_on_grid."""
    import torch
    import torchphysics as tp

    T, F, U = tp.spaces.R1("t"), tp.spaces.R1("f"), tp.spaces.R1("u")
    fn_space = tp.spaces.FunctionSpace(T, F)
    hc = 8
    model = tp.models.FNO(F, U, fourier_layers=2, hidden_channels=hc, fourier_modes=4, skip_connections=True,
                          channel_up_sample_network=torch.nn.Sequential(
                              torch.nn.Linear(F.dim + 1, hc), torch.nn.Tanh(), torch.nn.Linear(hc, hc)),
                          channel_down_sample_network=torch.nn.Sequential(
                              torch.nn.Linear(hc, hc), torch.nn.Tanh(), torch.nn.Linear(hc, U.dim)),
                          space_resolution=16)
    time_grid = torch.linspace(0, 1, 16).reshape(-1, 1)
    step = time_grid[1, 0] - time_grid[0, 0]
    grid_points = tp.spaces.Points(time_grid.unsqueeze(0), T)
    hfs = tp.domains.HarmonicFunctionSet1D(fn_space, function_set_size=32, period=1.0, max_frequence=3)
    sampler = tp.samplers.FunctionSamplerRandomUniform(4, hfs.discretize(grid_points), 100)

    def ode_residual(u, f):
        return tp.utils.discrete_grad_on_grid(u, grid_size=step) - f

    def initial_residual(u):
        return u[:, 0]

    conds = [
        tp.conditions.PIOperatorCondition(model, sampler, ode_residual, weight=0.1),
        tp.conditions.PIOperatorCondition(model, sampler, initial_residual, weight=100.0),
    ]
    return _pick(mode, model, (tp.spaces.Points(torch.rand(4, 16, 1), F),), conds)


def _fno_2d_operator(mode):
    """diffusion_2D's FNO: two mode numbers, skip connections, OperatorCondition on DataFunctionSets."""
    import torch
    import torchphysics as tp

    X, K, U = tp.spaces.R2("x"), tp.spaces.R1("k"), tp.spaces.R1("u")
    hc = 8
    model = tp.models.FNO(K, U, fourier_layers=2, hidden_channels=hc, fourier_modes=(3, 3), skip_connections=True,
                          channel_down_sample_network=torch.nn.Sequential(
                              torch.nn.Linear(hc, hc), torch.nn.Tanh(), torch.nn.Linear(hc, U.dim)))
    fs_in = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, K), _random_fn_data(16, (8, 8), 1))
    fs_out = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, U), _random_fn_data(16, (8, 8), 1))
    s_in = tp.samplers.FunctionSamplerOrdered(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)
    conds = [tp.conditions.OperatorCondition(model, s_in, s_out)]
    return _pick(mode, model, (tp.spaces.Points(torch.rand(4, 8, 8, 1), K),), conds)


def _fno_grf_laplace(mode):
    """FNO without positional embedding on a 2-d GRFFunctionSet, physics-informed with
    discrete_laplacian_on_grid (a Poisson operator)."""
    import torch
    import torchphysics as tp

    X, F, U = tp.spaces.R2("x"), tp.spaces.R1("f"), tp.spaces.R1("u")
    model = tp.models.FNO(F, U, fourier_layers=2, hidden_channels=8, fourier_modes=[3, 3],
                          positional_embedding=False, activations=torch.nn.Tanh(), linear_connections=False)
    grf = tp.domains.GRFFunctionSet(tp.spaces.FunctionSpace(X, F), function_set_size=16, resolution=(8, 8))
    sampler = tp.samplers.FunctionSamplerRandomUniform(4, grf, function_creation_interval=10)

    def poisson(u, f):
        return tp.utils.discrete_laplacian_on_grid(u, grid_size=1 / 7) + f

    conds = [tp.conditions.PIOperatorCondition(model, sampler, poisson)]
    return _pick(mode, model, (tp.spaces.Points(torch.rand(4, 8, 8, 1), F),), conds)


def _fno_fourier_layer(mode):
    """A bare _FourierLayer (linear and skip connection, batch norm) as the tests use it; FNO 1-d
    with the default embedding under an OperatorCondition with a residual_fn and relative=False."""
    import torch
    import torchphysics as tp

    T, F, U = tp.spaces.R1("t"), tp.spaces.R1("f"), tp.spaces.R1("u")
    layer = tp.models._FourierLayer(4, 6, linear_connection=True, skip_connection=True, space_res=12)
    model = tp.models.FNO(F, U, fourier_layers=2, hidden_channels=8, fourier_modes=4)
    fs_in = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(T, F), _random_fn_data(16, (12,), 1))
    fs_out = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(T, U), _random_fn_data(16, (12,), 1))
    s_in = tp.samplers.FunctionSamplerRandomUniform(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)

    def res(u, f):
        return u - torch.cumsum(f, dim=1) / 12

    conds = [tp.conditions.OperatorCondition(model, s_in, s_out, residual_fn=lambda u, f: res(u, f),
                                             relative=False)]
    if mode == "train":
        return _pick(mode, model, (), conds)
    return layer, (torch.rand(3, 12, 4),), {}


def _pcann(mode):
    """Stokes_2D: PCANN_FC.from_fn_set after compute_pca on both DataFunctionSets, OperatorCondition."""
    import torch
    import torchphysics as tp

    X, Phi, U = tp.spaces.R2("x"), tp.spaces.R3("phi"), tp.spaces.R2("u")
    fs_in = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, Phi), _random_fn_data(32, (6, 6), 3))
    fs_out = tp.domains.DataFunctionSet(tp.spaces.FunctionSpace(X, U), _random_fn_data(32, (6, 6), 2))
    fs_in.compute_pca(components=8)
    fs_out.compute_pca(components=8)
    model = tp.models.PCANN_FC.from_fn_set(fs_in, fs_out, hidden=(12, 12))
    s_in = tp.samplers.FunctionSamplerOrdered(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)
    conds = [tp.conditions.OperatorCondition(model, s_in, s_out)]
    return _pick(mode, model, (tp.spaces.Points(torch.rand(4, 6, 6, 3), Phi),), conds)


def _operator_fcn(mode):
    """Operator_FCN on a discretised 1-d function set, OperatorCondition."""
    import torch
    import torchphysics as tp

    T, F, U = tp.spaces.R1("t"), tp.spaces.R1("f"), tp.spaces.R1("u")
    fsp_in, fsp_out = tp.spaces.FunctionSpace(T, F), tp.spaces.FunctionSpace(T, U)
    model = tp.models.Operator_FCN(fsp_in, fsp_out, in_discretization=10, out_discretization=10, hidden=(16, 16))
    fs_in = tp.domains.DataFunctionSet(fsp_in, _random_fn_data(16, (10,), 1))
    fs_out = tp.domains.DataFunctionSet(fsp_out, _random_fn_data(16, (10,), 1))
    s_in = tp.samplers.FunctionSamplerRandomUniform(4, fs_in)
    s_out = tp.samplers.FunctionSamplerCoupled(fs_out, s_in)
    conds = [tp.conditions.OperatorCondition(model, s_in, s_out)]
    return _pick(mode, model, (tp.spaces.Points(torch.rand(4, 10, 1), F),), conds)


MODELS = {
    "HeatTutorial_Sequential_FCN": _heat_tutorial,
    "Heat_GridProductSampler": _heat_grid_product,
    "HardConstraint_in_residual": _hard_constraint_residual,
    "HardConstraint_model": _hard_constraint_model,
    "PeriodicCondition": _periodic,
    "PeriodicCondition_static": _periodic_static,
    "InverseHeat_Parameter_DataCondition": _inverse_heat,
    "DataCondition_batches": _data_condition_batches,
    "DataCondition_inf_constrain": _data_condition_inf_constrained,
    "DeepRitzCondition_poisson": _deepritz_poisson,
    "DeepRitzNet_MeanCondition": _deepritznet,
    "QRES_burgers": _qres,
    "Harmonic_FCN": _harmonic_fcn,
    "Polynomial_FCN": _polynomial_fcn,
    "FCN_activation_list": _fcn_activations,
    "FCN_AdaptiveActivation": _adaptive_activation,
    "Parallel_stokes": _parallel_stokes,
    "FCN_rot_3d": _rot_3d,
    "Poisson_input_params": _poisson_input_params,
    "AdaptiveRejectionSamplers": _adaptive_sampler,
    "AdaptiveWeightsCondition": _adaptive_weights,
    "IntegroPINNCondition": _integro,
    "ParameterCondition": _parameter_condition,
    "HPM_conditions": _hpm,
    "HPCMCondition": _hpcm,
    "DomainOperations_poisson": _triangle_translate,
    "PIDeepONet": _pi_deeponet,
    "DeepONet_fixed_branch": _deeponet_fixed_branch,
    "DeepONet_constrain_fn": _deeponet_constrained,
    "DeepONet_OperatorCondition": _deeponet_operator,
    "DeepONet_ConvBranchNet": _deeponet_conv2d,
    "FNO_PINO_1d": _fno_pino_1d,
    "FNO_2d_OperatorCondition": _fno_2d_operator,
    "FNO_GRF_laplacian": _fno_grf_laplace,
    "FNO_FourierLayer": _fno_fourier_layer,
    "PCANN_FC": _pcann,
    "Operator_FCN": _operator_fcn,
}
