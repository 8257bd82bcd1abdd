"""deepxde 1.15.0 (Lu Lu et al.): physics-informed neural networks and neural operators, on its
pytorch backend (``DDE_BACKEND=pytorch``, forced before the first import), as its own examples
(``examples/pinn_forward``, ``pinn_inverse``, ``operator``, ``function``: the repository has no
``tests/`` folder; ``examples/sample_to_test.py`` turns the examples into its integration tests)
use them, tiny (nets 2-3 layers of width 8-16; 8-12 collocation points, 2-8 boundary points; 2
input functions of 10 sensors for the operator nets), random weights, no download. Every
``deepxde.nn.pytorch`` class: ``FNN``, ``PFNN``, ``DeepONet``, ``DeepONetCartesianProd``,
``PODDeepONet``, ``MIONetCartesianProd``, ``PODMIONet``:

- PINNs (``dde.data.PDE`` / ``TimePDE`` / ``Function``): the 1-D Poisson examples with a
  ``DirichletBC`` and with ``NeumannBC``, ``RobinBC``, ``PeriodicBC``; ``FNN`` options on the
  Dirichlet one (an ``["l1", 1e-4]`` regularizer, a list of activations, an L-LAAF activation
  ``"LAAF-10 tanh"``); ``Euler_beam`` (``OperatorBC``, fourth order through ``hessian`` of a
  ``hessian``); ``ode_system`` (two outputs, one ``IC`` each); ``Burgers`` (``GeometryXTime``,
  a ``DirichletBC`` and an ``IC``); ``diffusion_1d_exactBC`` (output transform, no BCs);
  ``Kovasznay_flow`` (2-D Navier-Stokes, three outputs, ten ``jacobian``/``hessian`` calls);
  ``Helmholtz_Dirichlet_2d`` (``sin`` activations; the hard constraint as an output transform,
  and the soft one with ``loss_weights``); ``Laplace_disk`` (a feature transform);
  ``Lotka_Volterra`` (feature and output transforms); ``elasticity_plate`` (a five-way
  ``PFNN``, hard BCs stacked with ``dde.backend.stack``); ``diffusion_reaction_rate`` and
  ``elliptic_inverse_field_batch`` (``PFNN``; ``PointSetBC`` observations, mini-batched in the
  second); ``Lorenz_inverse`` and ``brinkman_forchheimer`` (unknowns as ``dde.Variable``
  passed as ``external_trainable_variables``); ``function/func.py`` (a plain fit);
- operator learning on random arrays (the examples' .npz files are not in the repository):
  ``DeepONetCartesianProd`` on ``TripleCartesianProd`` (``antiderivative_aligned``) and its
  ``independent`` / ``split_both`` multi-output strategies, ``DeepONet`` on ``Triple``
  (``antiderivative_unaligned``) with a per-net activation dict and ``split_branch`` /
  ``split_trunk``; ``PODDeepONet`` (POD modes from ``np.linalg.svd`` of the targets, alone and
  with a trunk net); ``MIONetCartesianProd`` on ``QuadrupleCartesianProd`` (``mul``; ``cat``
  with a merger and a ``cat`` output merger; ``add`` with a merger and a ``mul`` output
  merger) and ``PODMIONet`` (POD only; ``cat`` with a trunk net): configs from the classes'
  docstrings, no example uses them;
- physics-informed DeepONets: ``antiderivative_aligned_pideeponet``
  (``PDEOperatorCartesianProd``) and ``antiderivative_unaligned_pideeponet``
  (``PDEOperator``), both with the ``zero_ic`` output transform and GRF input functions;
  ``advection_aligned_pideeponet`` (the pytorch 5-feature periodic trunk transform);
  ``stokes_aligned_pideeponet`` (three ``independent`` outputs, a BC that reads the input
  function through ``aux_var``); ``diff_rec_aligned_zcs_pideeponet`` (``dde.zcs.Model``,
  ``dde.zcs.PDEOperatorCartesianProd``, ``LazyGrad``). The GRFs use ``N=100`` grid points
  (default 1000: a 2 s Cholesky per build).

Eval: the net's forward on 2 points of its domain (an operator net: on its 2 training input
functions and their points, called with one tuple of inputs as deepxde does). Train: one
training step's loss as ``dde.Model`` computes it: ``model.outputs_losses_train(inputs,
targets, aux_vars)`` (``_compile_pytorch``: ``requires_grad_()`` on the inputs, the net, the
data's losses: PDE residuals through ``dde.grad.jacobian`` / ``hessian``, i.e.
``torch.autograd.grad(create_graph=True)``, BC/IC errors on the NumPy training points, loss
weights, the L1 term), summed as ``train_step``'s closure does, on the data's own training
batch (``train_next_batch``).

    pip install --no-deps deepxde==1.15.0
    pip install --no-deps scikit-optimize==0.10.2  # (+ numpy 2.4.6, scipy 1.17.1, scikit-learn
                                                   #  1.9.1, joblib, PyYAML, packaging: installed)

deepxde imports ``skopt`` at the top of ``geometry/sampler.py`` (and samples the default
"Hammersley" training points with it); skopt's declared ``pyaml`` is never imported (its
``space.py`` imports PyYAML's ``yaml``). Stubbed (``stub_modules``, only when matplotlib is not
installed): ``matplotlib``, ``matplotlib.pyplot``, ``matplotlib.animation`` and
``mpl_toolkits.mplot3d`` (``deepxde.utils`` imports them at its top for plotting helpers no model
calls). Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built; 77 ran under Dynamo (40 eval, 37
train), 3 failed under Dynamo itself (``Euler_beam``, ``Poisson_Neumann_1d``, ``Poisson_Robin_1d``
train: ``InternalTorchDynamoError: NotImplementedError: argument of type: <class 'type'>`` at
``geometry_1d.py:109`` ``boundary_normal``, ``isclose(x, self.l).astype(config.real(np))``, the
NumPy normal of a Neumann/Robin/operator BC). No eval run breaks: the nets' forwards are plain
tensor code. Every train run breaks (40 of 80 runs): ``inputs.requires_grad_()`` in
``Model.outputs_losses`` (GB8985), ``torch.autograd.grad`` in ``gradients_reverse.py``
(GB9186), ``list(map(int, np.cumsum(...)))`` in ``PDE.losses`` (GB0033), ``deepxde.utils.isclose``
(``np.asarray(a).dtype``: GB0157), the BC value cache keyed on ``id(X)``, and ZCS's NumPy order
search (``np.where``, data-dependent ``while``); many recompiles on the ``i`` / ``j`` ints of
``jacobian`` / ``hessian`` and on the shapes of the per-BC slices. First numbers with the
frozen linter (``/tmp/lint-start55``): graph-break statement recall 0.00 (0/17), precision
— (0/0), 26 findings (18 in files run), 18 unjudged (all not reached: ``utils/external.py``'s
save/plot helpers and ``backend/pytorch/tensor.py``'s ``Variable`` / ``sparse_dense_matmul``).
Every break is missed.

Left out: the nets of other backends (``deepxde.nn.tensorflow*``, ``jax``, ``paddle``: ``MfNN``,
``MsFFN``, ``STMsFFN``, ``ResNet`` have no pytorch version in 1.15.0); forward-mode autodiff
(``dde.config.set_default_autodiff("forward")``, a process-wide switch); the fractional and
integro-differential data (``FPDE``, ``IDE``: their examples name tensorflow.compat.v1 /
paddle only); ``Model.train`` / ``predict`` and the optimizers, L-BFGS and NNCG (the step
outside the loss), callbacks, resampling; the examples' full sizes (thousands of collocation
points, width 50-128).
"""

import functools
import os

PACKAGE = "deepxde"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B = 2  # batch: points for a PINN net, input functions for an operator net


def _setup():
    """The pytorch backend (deepxde picks it when first imported, from ``DDE_BACKEND``), and
    stand-ins for matplotlib when it is not installed: ``deepxde.utils`` imports
    ``matplotlib.pyplot``, ``matplotlib.animation`` and ``mpl_toolkits.mplot3d.Axes3D`` at its
    top, for plotting helpers no model calls."""
    import importlib.util

    os.environ["DDE_BACKEND"] = "pytorch"
    if importlib.util.find_spec("matplotlib") is None:
        stub_modules(  # noqa: F821 (set by ZooSuite)
            {"matplotlib": (("use",), ()),
             "matplotlib.pyplot": (("figure", "subplots", "plot", "show", "close", "savefig", "legend",
                                    "semilogy", "xlabel", "ylabel", "axes", "imshow", "colorbar"), ()),
             "matplotlib.animation": ((), ("FuncAnimation",)),
             "mpl_toolkits": ((), ()),
             "mpl_toolkits.mplot3d": ((), ("Axes3D",))},
            "deepxde.utils imports",
        )


before_build = _setup  # (ZooSuite runs it before each make: warm_up may not have run)


def warm_up():
    _setup()
    import torch  # noqa: F401

    import deepxde  # noqa: F401
    import deepxde.nn.pytorch  # noqa: F401
    import deepxde.zcs  # noqa: F401


def _dde():
    """``import deepxde`` with the pytorch backend forced and NumPy seeded (the data samplers
    and the GRF function space draw with ``np.random``)."""
    os.environ["DDE_BACKEND"] = "pytorch"
    import numpy as np

    import deepxde as dde

    assert dde.backend.backend_name == "pytorch", dde.backend.backend_name
    np.random.seed(0)
    return dde


@functools.cache
def _modules():
    import torch
    from torch import nn

    class PointStep(nn.Module):
        """One training step's loss, as ``dde.Model`` computes it (``_compile_pytorch``):
        ``outputs_losses_train(inputs, targets, aux)`` (the net on the training points, the
        data's losses: PDE residuals through ``dde.grad``, BC/IC errors, the loss weights, an L1
        term), summed as ``train_step``'s closure does."""

        def __init__(self, model):
            super().__init__()
            self.net = model.net
            object.__setattr__(self, "model", model)  # a dde.Model: not a module

        def forward(self, x, targets=None, aux_vars=None):
            losses = self.model.outputs_losses_train(x, targets, aux_vars)[1]
            return torch.sum(losses)

    class OperatorStep(PointStep):
        """The same for a DeepONet: inputs ``(branch, trunk)``."""

        def forward(self, branch, trunk, targets=None, aux_vars=None):
            losses = self.model.outputs_losses_train((branch, trunk), targets, aux_vars)[1]
            return torch.sum(losses)

    class MIOStep(PointStep):
        """The same for a MIONet: inputs ``(branch1, branch2, trunk)``."""

        def forward(self, branch1, branch2, trunk, targets=None):
            losses = self.model.outputs_losses_train((branch1, branch2, trunk), targets, None)[1]
            return torch.sum(losses)

    class Packed(nn.Module):
        """An operator net called as its users call it: one tuple of inputs."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *inputs):
            return self.net(tuple(inputs))

    return {"PointStep": PointStep, "OperatorStep": OperatorStep, "MIOStep": MIOStep, "Packed": Packed}


def _tensor(a):
    import torch

    return torch.as_tensor(a)


def _model(dde, data, net, **compile_kwargs):
    model = dde.Model(data, net)
    model.compile("adam", lr=1e-3, **compile_kwargs)
    return model


# --- PINNs: dde.data.PDE / TimePDE, an FNN or PFNN -----------------------------------------------

def _pinn(build):
    """``build(dde) -> (data, net, compile_kwargs)``. Eval: the net on 2 points drawn in the
    domain; train: the model's training loss on the data's (few) training points."""

    def make(mode):
        dde = _dde()
        data, net, compile_kwargs = build(dde)
        if mode == "eval":
            x = data.geom.random_points(_B) if hasattr(data, "geom") else data.train_x[:_B]
            return net, (_tensor(x),), {}
        model = _model(dde, data, net, **compile_kwargs)
        x, y, *_ = data.train_next_batch()
        args = (_tensor(x),)
        if y is not None:
            args += (_tensor(y),)
        return _modules()["PointStep"](model), args, {}

    return make


def _poisson_dirichlet_1d(dde, layers=(1, 16, 16, 1), activation="tanh", **net_kwargs):
    import numpy as np
    import torch

    def pde(x, y):
        dy_xx = dde.grad.hessian(y, x)
        return -dy_xx - np.pi ** 2 * torch.sin(np.pi * x)

    def func(x):
        return np.sin(np.pi * x)

    geom = dde.geometry.Interval(-1, 1)
    bc = dde.icbc.DirichletBC(geom, func, lambda _, on_boundary: on_boundary)
    data = dde.data.PDE(geom, pde, bc, 8, 2, solution=func, num_test=10)
    net = dde.nn.FNN(list(layers), activation, "Glorot uniform", **net_kwargs)
    return data, net


def _poisson_1d(bc_kind):
    """``Poisson_Dirichlet_1d.py`` and its Neumann / Robin / periodic siblings."""

    def build(dde):
        import numpy as np
        import torch

        if bc_kind == "dirichlet":
            data, net = _poisson_dirichlet_1d(dde)
            return data, net, {}
        def pde(x, y):
            dy_xx = dde.grad.hessian(y, x)
            if bc_kind == "periodic":
                return -dy_xx - np.pi ** 2 * torch.sin(np.pi * x)
            return dy_xx - 2

        def boundary_l(x, on_boundary):
            return on_boundary and dde.utils.isclose(x[0], -1)

        def boundary_r(x, on_boundary):
            return on_boundary and dde.utils.isclose(x[0], 1)

        geom = dde.geometry.Interval(-1, 1)
        if bc_kind == "periodic":
            bcs = [dde.icbc.DirichletBC(geom, lambda x: np.sin(np.pi * x), boundary_l),
                   dde.icbc.PeriodicBC(geom, 0, boundary_r)]
        else:
            bc_l = dde.icbc.DirichletBC(geom, lambda x: (x + 1) ** 2, boundary_l)
            if bc_kind == "neumann":
                bc_r = dde.icbc.NeumannBC(geom, lambda X: 2 * (X + 1), boundary_r)
            else:
                bc_r = dde.icbc.RobinBC(geom, lambda X, y: y, boundary_r)
            bcs = [bc_l, bc_r]
        data = dde.data.PDE(geom, pde, bcs, 8, 2, num_test=10)
        net = dde.nn.FNN([1, 16, 16, 1], "tanh", "Glorot uniform")
        return data, net, {}

    return build


def _poisson_net_option(**net_kwargs):
    """``Poisson_Dirichlet_1d.py`` with an FNN option: a regularizer (``["l1", ...]`` adds its
    term to the losses in ``outputs_losses``), a list of activations, an L-LAAF activation."""

    def build(dde):
        data, net = _poisson_dirichlet_1d(dde, **net_kwargs)
        return data, net, {}

    return build


def _euler_beam(dde):
    """``Euler_beam.py``: a fourth-order ODE (``hessian`` of a ``hessian``), ``OperatorBC``s."""

    def ddy(x, y):
        return dde.grad.hessian(y, x)

    def dddy(x, y):
        return dde.grad.jacobian(ddy(x, y), x)

    def pde(x, y):
        dy_xx = ddy(x, y)
        dy_xxxx = dde.grad.hessian(dy_xx, x)
        return dy_xxxx + 1

    def boundary_l(x, on_boundary):
        return on_boundary and dde.utils.isclose(x[0], 0)

    def boundary_r(x, on_boundary):
        return on_boundary and dde.utils.isclose(x[0], 1)

    geom = dde.geometry.Interval(0, 1)
    bcs = [dde.icbc.DirichletBC(geom, lambda x: 0, boundary_l),
           dde.icbc.NeumannBC(geom, lambda x: 0, boundary_l),
           dde.icbc.OperatorBC(geom, lambda x, y, _: ddy(x, y), boundary_r),
           dde.icbc.OperatorBC(geom, lambda x, y, _: dddy(x, y), boundary_r)]
    data = dde.data.PDE(geom, pde, bcs, num_domain=8, num_boundary=2, num_test=10)
    net = dde.nn.FNN([1, 16, 16, 1], "tanh", "Glorot uniform")
    return data, net, {}


def _ode_system(dde):
    """``ode_system.py``: two outputs, one ``IC`` per component."""
    import numpy as np

    def ode_system(x, y):
        y1, y2 = y[:, 0:1], y[:, 1:]
        dy1_x = dde.grad.jacobian(y, x, i=0)
        dy2_x = dde.grad.jacobian(y, x, i=1)
        return [dy1_x - y2, dy2_x + y1]

    geom = dde.geometry.TimeDomain(0, 10)
    ic1 = dde.icbc.IC(geom, lambda x: 0, lambda _, on_initial: on_initial, component=0)
    ic2 = dde.icbc.IC(geom, lambda x: 1, lambda _, on_initial: on_initial, component=1)
    data = dde.data.PDE(geom, ode_system, [ic1, ic2], 8, 2,
                        solution=lambda x: np.hstack((np.sin(x), np.cos(x))), num_test=10)
    net = dde.nn.FNN([1, 16, 16, 2], "tanh", "Glorot uniform")
    return data, net, {}


def _burgers(dde):
    """``Burgers.py``: ``TimePDE`` on ``GeometryXTime``, a ``DirichletBC`` and an ``IC``."""
    import numpy as np

    def pde(x, y):
        dy_x = dde.grad.jacobian(y, x, i=0, j=0)
        dy_t = dde.grad.jacobian(y, x, i=0, j=1)
        dy_xx = dde.grad.hessian(y, x, i=0, j=0)
        return dy_t + y * dy_x - 0.01 / np.pi * dy_xx

    geomtime = dde.geometry.GeometryXTime(dde.geometry.Interval(-1, 1), dde.geometry.TimeDomain(0, 0.99))
    bc = dde.icbc.DirichletBC(geomtime, lambda x: 0, lambda _, on_boundary: on_boundary)
    ic = dde.icbc.IC(geomtime, lambda x: -np.sin(np.pi * x[:, 0:1]), lambda _, on_initial: on_initial)
    data = dde.data.TimePDE(geomtime, pde, [bc, ic], num_domain=12, num_boundary=4, num_initial=4)
    net = dde.nn.FNN([2, 16, 16, 1], "tanh", "Glorot normal")
    return data, net, {}


def _diffusion_1d_exact_bc(dde):
    """``diffusion_1d_exactBC.py``: no BCs, an output transform that enforces them."""
    import numpy as np
    import torch

    def pde(x, y):
        dy_t = dde.grad.jacobian(y, x, i=0, j=1)
        dy_xx = dde.grad.hessian(y, x, i=0, j=0)
        return (dy_t - dy_xx + torch.exp(-x[:, 1:])
                * (torch.sin(np.pi * x[:, 0:1]) - np.pi ** 2 * torch.sin(np.pi * x[:, 0:1])))

    geomtime = dde.geometry.GeometryXTime(dde.geometry.Interval(-1, 1), dde.geometry.TimeDomain(0, 1))
    data = dde.data.TimePDE(geomtime, pde, [], num_domain=12, num_test=10)
    net = dde.nn.FNN([2, 16, 16, 1], "tanh", "Glorot uniform")
    net.apply_output_transform(
        lambda x, y: x[:, 1:2] * (1 - x[:, 0:1] ** 2) * y + torch.sin(np.pi * x[:, 0:1]))
    return data, net, {}


def _kovasznay(dde):
    """``Kovasznay_flow.py``: 2-D Navier-Stokes, three outputs, three ``DirichletBC`` components."""
    import numpy as np

    Re = 20
    nu = 1 / Re
    lam = 1 / (2 * nu) - np.sqrt(1 / (4 * nu ** 2) + 4 * np.pi ** 2)

    def pde(x, u):
        u_vel, v_vel = u[:, 0:1], u[:, 1:2]
        u_vel_x = dde.grad.jacobian(u, x, i=0, j=0)
        u_vel_y = dde.grad.jacobian(u, x, i=0, j=1)
        u_vel_xx = dde.grad.hessian(u, x, component=0, i=0, j=0)
        u_vel_yy = dde.grad.hessian(u, x, component=0, i=1, j=1)
        v_vel_x = dde.grad.jacobian(u, x, i=1, j=0)
        v_vel_y = dde.grad.jacobian(u, x, i=1, j=1)
        v_vel_xx = dde.grad.hessian(u, x, component=1, i=0, j=0)
        v_vel_yy = dde.grad.hessian(u, x, component=1, i=1, j=1)
        p_x = dde.grad.jacobian(u, x, i=2, j=0)
        p_y = dde.grad.jacobian(u, x, i=2, j=1)
        momentum_x = u_vel * u_vel_x + v_vel * u_vel_y + p_x - 1 / Re * (u_vel_xx + u_vel_yy)
        momentum_y = u_vel * v_vel_x + v_vel * v_vel_y + p_y - 1 / Re * (v_vel_xx + v_vel_yy)
        continuity = u_vel_x + v_vel_y
        return [momentum_x, momentum_y, continuity]

    def u_func(x):
        return 1 - np.exp(lam * x[:, 0:1]) * np.cos(2 * np.pi * x[:, 1:2])

    def v_func(x):
        return lam / (2 * np.pi) * np.exp(lam * x[:, 0:1]) * np.sin(2 * np.pi * x[:, 1:2])

    def p_func(x):
        return 1 / 2 * (1 - np.exp(2 * lam * x[:, 0:1]))

    geom = dde.geometry.Rectangle(xmin=[-0.5, -0.5], xmax=[1, 1.5])
    bcs = [dde.icbc.DirichletBC(geom, u_func, lambda _, on_boundary: on_boundary, component=0),
           dde.icbc.DirichletBC(geom, v_func, lambda _, on_boundary: on_boundary, component=1),
           dde.icbc.DirichletBC(geom, p_func, lambda x, on_boundary: on_boundary and dde.utils.isclose(x[0], 1),
                                component=2)]
    data = dde.data.PDE(geom, pde, bcs, num_domain=12, num_boundary=8, num_test=10)
    net = dde.nn.FNN([2, 16, 16, 3], "tanh", "Glorot normal")
    return data, net, {}


def _helmholtz(hard_constraint):
    """``Helmholtz_Dirichlet_2d.py``: ``sin`` activations; the hard constraint as an output
    transform, or the soft one as a ``DirichletBC`` with ``loss_weights=[1, 100]``."""

    def build(dde):
        import numpy as np

        sin = dde.backend.sin
        k0 = 2 * np.pi * 2

        def pde(x, y):
            dy_xx = dde.grad.hessian(y, x, i=0, j=0)
            dy_yy = dde.grad.hessian(y, x, i=1, j=1)
            f = k0 ** 2 * sin(k0 * x[:, 0:1]) * sin(k0 * x[:, 1:2])
            return -dy_xx - dy_yy - k0 ** 2 * y - f

        def transform(x, y):
            res = x[:, 0:1] * (1 - x[:, 0:1]) * x[:, 1:2] * (1 - x[:, 1:2])
            return res * y

        geom = dde.geometry.Rectangle([0, 0], [1, 1])
        bc = [] if hard_constraint else dde.icbc.DirichletBC(geom, lambda x: 0, lambda _, on_boundary: on_boundary)
        data = dde.data.PDE(geom, pde, bc, num_domain=12, num_boundary=8, num_test=10)
        net = dde.nn.FNN([2, 16, 16, 1], "sin", "Glorot uniform")
        if hard_constraint:
            net.apply_output_transform(transform)
            return data, net, {}
        return data, net, {"loss_weights": [1, 100]}

    return build


def _laplace_disk(dde):
    """``Laplace_disk.py``: polar coordinates through a feature transform."""
    import numpy as np
    import torch

    def pde(x, y):
        dy_r = dde.grad.jacobian(y, x, i=0, j=0)
        dy_rr = dde.grad.hessian(y, x, i=0, j=0)
        dy_thetatheta = dde.grad.hessian(y, x, i=1, j=1)
        return x[:, 0:1] * dy_r + x[:, 0:1] ** 2 * dy_rr + dy_thetatheta

    geom = dde.geometry.Rectangle(xmin=[0, 0], xmax=[1, 2 * np.pi])
    bc_rad = dde.icbc.DirichletBC(geom, lambda x: np.cos(x[:, 1:2]),
                                  lambda x, on_boundary: on_boundary and dde.utils.isclose(x[0], 1))
    data = dde.data.PDE(geom, pde, bc_rad, num_domain=12, num_boundary=8)
    net = dde.nn.FNN([2, 16, 16, 1], "tanh", "Glorot normal")

    def feature_transform(x):
        return torch.cat([x[:, 0:1] * torch.sin(x[:, 1:2]), x[:, 0:1] * torch.cos(x[:, 1:2])], dim=1)

    net.apply_feature_transform(feature_transform)
    return data, net, {}


def _lotka_volterra(dde):
    """``Lotka_Volterra.py``: sine features in, a ``tanh`` output transform out, no BCs."""
    import torch

    ub, rb = 200, 20

    def ode_system(x, y):
        r, p = y[:, 0:1], y[:, 1:2]
        dr_t = dde.grad.jacobian(y, x, i=0)
        dp_t = dde.grad.jacobian(y, x, i=1)
        return [dr_t - 1 / ub * rb * (2.0 * ub * r - 0.04 * ub * r * ub * p),
                dp_t - 1 / ub * rb * (0.02 * r * ub * p * ub - 1.06 * p * ub)]

    geom = dde.geometry.TimeDomain(0, 1.0)
    data = dde.data.PDE(geom, ode_system, [], 8, 2, num_test=10)
    net = dde.nn.FNN([7, 16, 16, 2], "tanh", "Glorot normal")

    def input_transform(t):
        return torch.cat((t, torch.sin(t), torch.sin(2 * t), torch.sin(3 * t), torch.sin(4 * t),
                          torch.sin(5 * t), torch.sin(6 * t)), dim=1)

    def output_transform(t, y):
        y1, y2 = y[:, 0:1], y[:, 1:2]
        return torch.cat([y1 * torch.tanh(t) + 100 / ub, y2 * torch.tanh(t) + 15 / ub], dim=1)

    net.apply_feature_transform(input_transform)
    net.apply_output_transform(output_transform)
    return data, net, {}


def _elasticity_plate(dde):
    """``elasticity_plate.py`` (pytorch): a ``PFNN`` of five sub-networks, the hard BCs as an
    output transform (``dde.backend.stack``), body forces in ``dde.backend`` ops."""
    import numpy as np

    lmbd, mu, Q = 1.0, 0.5, 4.0
    sin, cos, stack = dde.backend.sin, dde.backend.cos, dde.backend.stack

    def hard_BC(x, f):
        Ux = f[:, 0] * x[:, 1] * (1 - x[:, 1])
        Uy = f[:, 1] * x[:, 0] * (1 - x[:, 0]) * x[:, 1]
        Sxx = f[:, 2] * x[:, 0] * (1 - x[:, 0])
        Syy = f[:, 3] * (1 - x[:, 1]) + (lmbd + 2 * mu) * Q * sin(np.pi * x[:, 0])
        Sxy = f[:, 4]
        return stack((Ux, Uy, Sxx, Syy, Sxy), axis=1)

    def fx(x):
        return (-lmbd * (4 * np.pi ** 2 * cos(2 * np.pi * x[:, 0:1]) * sin(np.pi * x[:, 1:2])
                         - Q * x[:, 1:2] ** 3 * np.pi * cos(np.pi * x[:, 0:1]))
                - mu * (np.pi ** 2 * cos(2 * np.pi * x[:, 0:1]) * sin(np.pi * x[:, 1:2])
                        - Q * x[:, 1:2] ** 3 * np.pi * cos(np.pi * x[:, 0:1]))
                - 8 * mu * np.pi ** 2 * cos(2 * np.pi * x[:, 0:1]) * sin(np.pi * x[:, 1:2]))

    def fy(x):
        return (lmbd * (3 * Q * x[:, 1:2] ** 2 * sin(np.pi * x[:, 0:1])
                        - 2 * np.pi ** 2 * cos(np.pi * x[:, 1:2]) * sin(2 * np.pi * x[:, 0:1]))
                - mu * (2 * np.pi ** 2 * cos(np.pi * x[:, 1:2]) * sin(2 * np.pi * x[:, 0:1])
                        + (Q * x[:, 1:2] ** 4 * np.pi ** 2 * sin(np.pi * x[:, 0:1])) / 4)
                + 6 * Q * mu * x[:, 1:2] ** 2 * sin(np.pi * x[:, 0:1]))

    def pde(x, f):
        E_xx = dde.grad.jacobian(f, x, i=0, j=0)
        E_yy = dde.grad.jacobian(f, x, i=1, j=1)
        E_xy = 0.5 * (dde.grad.jacobian(f, x, i=0, j=1) + dde.grad.jacobian(f, x, i=1, j=0))
        S_xx = E_xx * (2 * mu + lmbd) + E_yy * lmbd
        S_yy = E_yy * (2 * mu + lmbd) + E_xx * lmbd
        S_xy = E_xy * 2 * mu
        Sxx_x = dde.grad.jacobian(f, x, i=2, j=0)
        Syy_y = dde.grad.jacobian(f, x, i=3, j=1)
        Sxy_x = dde.grad.jacobian(f, x, i=4, j=0)
        Sxy_y = dde.grad.jacobian(f, x, i=4, j=1)
        momentum_x = Sxx_x + Sxy_y - fx(x)
        momentum_y = Sxy_x + Syy_y - fy(x)
        return [momentum_x, momentum_y, S_xx - f[:, 2:3], S_yy - f[:, 3:4], S_xy - f[:, 4:5]]

    geom = dde.geometry.Rectangle([0, 0], [1, 1])
    data = dde.data.PDE(geom, pde, [], num_domain=12, num_boundary=8, num_test=10)
    net = dde.nn.PFNN([2, [8] * 5, [8] * 5, 5], "tanh", "Glorot uniform")
    net.apply_output_transform(hard_BC)
    return data, net, {}


def _diffusion_reaction_rate(dde):
    """``diffusion_reaction_rate.py`` (inverse): a ``PFNN`` for (u, k), a ``DirichletBC`` and a
    ``PointSetBC`` of observations on component 0, uniform training points."""
    import numpy as np

    lam = 0.01

    def pde(x, y):
        u, k = y[:, 0:1], y[:, 1:2]
        du_xx = dde.grad.hessian(y, x, i=0, j=0, component=0)
        return lam * du_xx - u * k - dde.backend.sin(2 * np.pi * x)

    geom = dde.geometry.Interval(0, 1)
    ob_x = np.linspace(0, 1, 6)[:, None]
    observe_u = dde.icbc.PointSetBC(ob_x, np.sin(np.pi * ob_x), component=0)
    bc = dde.icbc.DirichletBC(geom, lambda x: 0, lambda _, on_boundary: on_boundary, component=0)
    data = dde.data.PDE(geom, pde, bcs=[bc, observe_u], num_domain=8, num_boundary=2,
                        train_distribution="uniform", num_test=10)
    net = dde.nn.PFNN([1, [8, 8], [8, 8], 2], "tanh", "Glorot uniform")
    return data, net, {}


def _elliptic_inverse_field_batch(dde):
    """``elliptic_inverse_field_batch.py`` (pytorch): a ``PFNN`` of three parallel layers, a
    mini-batched ``PointSetBC`` (``batch_size``), ``loss_weights``."""
    import numpy as np

    def pde(x, y):
        u, q = y[:, 0:1], y[:, 1:2]
        du_xx = dde.grad.hessian(y, x, component=0, i=0, j=0)
        return -du_xx + q

    geom = dde.geometry.Interval(-1, 1)
    bc = dde.icbc.DirichletBC(geom, lambda x: np.sin(np.pi * x), lambda _, on_boundary: on_boundary, component=0)
    ob_x = np.linspace(-1, 1, 40).reshape(40, 1)
    observe_u = dde.icbc.PointSetBC(ob_x, np.sin(np.pi * ob_x), component=0, batch_size=6)
    data = dde.data.PDE(geom, pde, [bc, observe_u], num_domain=8, num_boundary=2, num_test=10)
    net = dde.nn.PFNN([1, [8, 8], [8, 8], [8, 8], 2], "tanh", "Glorot uniform")
    return data, net, {"loss_weights": [1, 100, 1000]}


def _lorenz_inverse(dde):
    """``Lorenz_inverse.py``: three unknown coefficients (``dde.Variable``) passed as
    ``external_trainable_variables``, ICs and ``PointSetBC`` observations as anchors."""
    import numpy as np

    C1, C2, C3 = dde.Variable(1.0), dde.Variable(1.0), dde.Variable(1.0)

    def Lorenz_system(x, y):
        y1, y2, y3 = y[:, 0:1], y[:, 1:2], y[:, 2:]
        dy1_x = dde.grad.jacobian(y, x, i=0)
        dy2_x = dde.grad.jacobian(y, x, i=1)
        dy3_x = dde.grad.jacobian(y, x, i=2)
        return [dy1_x - C1 * (y2 - y1), dy2_x - y1 * (C2 - y3) + y2, dy3_x - y1 * y2 + C3 * y3]

    geom = dde.geometry.TimeDomain(0, 3)
    ic1 = dde.icbc.IC(geom, lambda X: -8, lambda _, on_initial: on_initial, component=0)
    ic2 = dde.icbc.IC(geom, lambda X: 7, lambda _, on_initial: on_initial, component=1)
    ic3 = dde.icbc.IC(geom, lambda X: 27, lambda _, on_initial: on_initial, component=2)
    ics = [ic1, ic2, ic3]
    observe_t = np.linspace(0, 3, 5)[:, None]
    ob_y = np.random.RandomState(0).randn(5, 3)
    observe = [dde.icbc.PointSetBC(observe_t, ob_y[:, c:c + 1], component=c) for c in range(3)]
    data = dde.data.PDE(geom, Lorenz_system, ics + observe, num_domain=8, num_boundary=2, anchors=observe_t)
    net = dde.nn.FNN([1, 16, 16, 3], "tanh", "Glorot uniform")
    return data, net, {"external_trainable_variables": [C1, C2, C3]}


def _brinkman_forchheimer(dde):
    """``brinkman_forchheimer.py`` (inverse): two ``dde.Variable`` unknowns, an output transform,
    ``PointSetBC`` observations only."""
    import numpy as np

    g, v, e, H = 1, 1e-3, 0.4, 1
    v_e, K = dde.Variable(0.1), dde.Variable(0.1)

    def sol(x):
        r = (v * e / (1e-3 * 1e-3)) ** 0.5
        return g * 1e-3 / v * (1 - np.cosh(r * (x - H / 2)) / np.cosh(r * H / 2))

    def pde(x, y):
        du_xx = dde.grad.hessian(y, x)
        return -v_e / e * du_xx + v * y / K - g

    geom = dde.geometry.Interval(0, 1)
    ob_x = np.linspace(1 / 6, 1, 5, endpoint=False)[:, None]
    observe_u = dde.icbc.PointSetBC(ob_x, sol(ob_x), component=0)
    data = dde.data.PDE(geom, pde, solution=sol, bcs=[observe_u], num_domain=8, num_boundary=0,
                        train_distribution="uniform", num_test=10)
    net = dde.nn.FNN([1, 16, 16, 1], "tanh", "Glorot uniform")
    net.apply_output_transform(lambda x, y: x * (1 - x) * y)
    return data, net, {"external_trainable_variables": [v_e, K]}


def _func(dde):
    """``function/func.py``: fit a function (``dde.data.Function``, a plain MSE loss)."""
    import numpy as np

    geom = dde.geometry.Interval(-1, 1)
    data = dde.data.Function(geom, lambda x: x * np.sin(5 * x), 8, 10)
    net = dde.nn.FNN([1, 16, 16, 1], "tanh", "Glorot uniform")
    return data, net, {}


# --- operator learning: DeepONet, POD-DeepONet, MIONet ----------------------------------------------

def _rand(*shape):
    import numpy as np

    return np.random.rand(*shape).astype(np.float32)


def _operator(build, step="OperatorStep"):
    """``build(dde) -> (data, net, compile_kwargs, zcs)``. Eval: the net on its training inputs
    (2 input functions); train: the model's training loss on one training batch."""

    def make(mode):
        dde = _dde()
        data, net, compile_kwargs, zcs = build(dde)
        x, y, *aux = data.train_next_batch(_B if getattr(data, "batch_size", None) else None)
        x = tuple(_tensor(a) for a in x)
        if mode == "eval":
            return _modules()["Packed"](net), x, {}
        model = (dde.zcs.Model if zcs else dde.Model)(data, net)
        model.compile("adam", lr=1e-3, **compile_kwargs)
        kwargs = {}
        if y is not None:
            kwargs["targets"] = _tensor(y)
        if aux and aux[0] is not None:
            kwargs["aux_vars"] = _tensor(aux[0])
        return _modules()[step](model), x, kwargs

    return make


def _deeponet_cartesian(num_outputs=1, strategy=None, activation="relu"):
    """``antiderivative_aligned.py``: ``DeepONetCartesianProd`` on a ``TripleCartesianProd``
    data set (random arrays: the example's .npz is not in the repository), and its
    ``multi_output_strategy`` options (a target per output)."""

    def build(dde):
        m, n = 10, 6
        X = (_rand(_B, m), _rand(n, 1))
        y = _rand(_B, n, num_outputs) if num_outputs > 1 else _rand(_B, n)
        data = dde.data.TripleCartesianProd(X_train=X, y_train=y, X_test=X, y_test=y)
        branch = [m, 16, 8 * (num_outputs if strategy in ("split_branch", "split_both") else 1)]
        trunk = [1, 16, 8 * (num_outputs if strategy in ("split_trunk", "split_both") else 1)]
        net = dde.nn.DeepONetCartesianProd(branch, trunk, activation, "Glorot normal",
                                           num_outputs=num_outputs, multi_output_strategy=strategy)
        return data, net, {}, False

    return build


def _deeponet(num_outputs=1, strategy=None):
    """``antiderivative_unaligned.py``: ``DeepONet`` on a ``Triple`` data set (random arrays),
    and its ``multi_output_strategy`` options."""

    def build(dde):
        m, N = 10, 6
        X = (_rand(N, m), _rand(N, 1))
        y = _rand(N, num_outputs)
        data = dde.data.Triple(X_train=X, y_train=y, X_test=X, y_test=y)
        branch = [m, 16, 8 * (num_outputs if strategy in ("split_branch", "split_both") else 1)]
        trunk = [1, 16, 8 * (num_outputs if strategy in ("split_trunk", "split_both") else 1)]
        net = dde.nn.DeepONet(branch, trunk, {"branch": "relu", "trunk": "tanh"}, "Glorot normal",
                              num_outputs=num_outputs, multi_output_strategy=strategy)
        return data, net, {}, False

    return build


def _pod_deeponet(with_trunk):
    """``PODDeepONet``: the POD modes of the training outputs as the trunk (``np.linalg.svd``),
    with or without an extra trunk net, on a ``TripleCartesianProd`` data set."""

    def build(dde):
        import numpy as np

        m, n, modes = 10, 6, 2
        X = (_rand(_B, m), _rand(n, 1))
        y = _rand(_B, n)
        data = dde.data.TripleCartesianProd(X_train=X, y_train=y, X_test=X, y_test=y)
        _, _, vh = np.linalg.svd(y - y.mean(0), full_matrices=False)
        pod_basis = vh[:modes].T  # (n, modes)
        trunk = [1, 16, 4] if with_trunk else None
        branch = [m, 16, modes + (4 if with_trunk else 0)]
        net = dde.nn.PODDeepONet(pod_basis, branch, "relu", "Glorot normal", layer_sizes_trunk=trunk)
        return data, net, {}, False

    return build


def _mionet(merge="mul", merger=False, output_merge=None, pod=None):
    """``MIONetCartesianProd`` / ``PODMIONet`` (two input functions) on a
    ``QuadrupleCartesianProd`` data set (random arrays): the branch merge (``mul``, ``add``,
    ``cat``), a merger net, an output merger net (``mul`` / ``cat``), ``trunk_last_activation``;
    POD modes alone or with a trunk net."""

    def build(dde):
        import numpy as np

        m1, m2, n, p = 10, 8, 6, 8
        X = (_rand(_B, m1), _rand(_B, m2), _rand(n, 1))
        y = _rand(_B, n)
        data = dde.data.QuadrupleCartesianProd(X_train=X, y_train=y, X_test=X, y_test=y)
        act = {"branch1": "relu", "branch2": "relu", "trunk": "tanh", "merger": "relu", "output merger": "relu"}
        if pod is not None:
            _, _, vh = np.linalg.svd(y - y.mean(0), full_matrices=False)
            modes, t = 2, 4
            pod_basis = vh[:modes].T  # (n, modes)
            out = modes + (t if pod == "trunk" else 0)  # what meets [pod_basis, trunk]
            merger_sizes = [2 * out, 16, out] if merge == "cat" else None
            net = dde.nn.PODMIONet(pod_basis, [m1, 16, out], [m2, 16, out], act, "Glorot normal",
                                   layer_sizes_trunk=[1, 16, t] if pod == "trunk" else None,
                                   merge_operation=merge, layer_sizes_merger=merger_sizes,
                                   trunk_last_activation=pod == "trunk")
            return data, net, {}, False
        merger_sizes = None
        if merge == "cat" or merger:
            merger_sizes = [2 * p if merge == "cat" else p, 16, p]
        out_merger = None
        if output_merge is not None:
            out_merger = [2 * p if output_merge == "cat" else p, 16, 1]
        net = dde.nn.MIONetCartesianProd([m1, 16, p], [m2, 16, p], [1, 16, p], act, "Glorot normal",
                                         merge_operation=merge, layer_sizes_merger=merger_sizes,
                                         output_merge_operation=output_merge or "mul",
                                         layer_sizes_output_merger=out_merger,
                                         trunk_last_activation=output_merge is not None)
        return data, net, {}, False

    return build


# --- physics-informed DeepONets: dde.data.PDEOperator(CartesianProd), dde.zcs ------------------

def _pideeponet_antiderivative(aligned):
    """``antiderivative_(un)aligned_pideeponet.py``: du/dx = v, u(0) = 0 by an output
    transform; GRF input functions; ``PDEOperatorCartesianProd`` + ``DeepONetCartesianProd``
    (aligned, a batch of 2 functions) or ``PDEOperator`` + ``DeepONet`` (unaligned)."""

    def build(dde):
        import numpy as np
        import torch

        geom = dde.geometry.TimeDomain(0, 1)

        def pde(x, u, v):
            return dde.grad.jacobian(u, x) - v

        ic = dde.icbc.IC(geom, lambda _: 0, lambda _, on_initial: on_initial)
        pde_data = dde.data.PDE(geom, pde, ic, num_domain=6, num_boundary=2, num_test=8)
        func_space = dde.data.GRF(length_scale=0.2, N=100)
        eval_pts = np.linspace(0, 1, num=10)[:, None]
        if aligned:
            data = dde.data.PDEOperatorCartesianProd(pde_data, func_space, eval_pts, 4, num_test=2,
                                                     batch_size=_B)
            net = dde.nn.DeepONetCartesianProd([10, 16, 16], [1, 16, 16], "tanh", "Glorot normal")
            net.apply_output_transform(lambda inputs, outputs: outputs * torch.transpose(inputs[1], 0, 1))
        else:
            data = dde.data.PDEOperator(pde_data, func_space, eval_pts, _B, num_test=2)
            net = dde.nn.DeepONet([10, 16, 16], [1, 16, 16], "tanh", "Glorot normal")
            net.apply_output_transform(lambda inputs, outputs: outputs * inputs[1])
        return data, net, {}, False

    return build


def _pideeponet_advection(dde):
    """``advection_aligned_pideeponet.py`` (pytorch: a 5-feature periodic trunk transform); an
    ``IC`` whose value is the input function."""
    import numpy as np
    import torch

    def pde(x, y, v):
        dy_x = dde.grad.jacobian(y, x, j=0)
        dy_t = dde.grad.jacobian(y, x, j=1)
        return dy_t + dy_x

    geomtime = dde.geometry.GeometryXTime(dde.geometry.Interval(0, 1), dde.geometry.TimeDomain(0, 1))
    ic = dde.icbc.IC(geomtime, lambda x, v: v, lambda _, on_initial: on_initial)
    pde_data = dde.data.TimePDE(geomtime, pde, ic, num_domain=8, num_initial=4, num_test=8)
    func_space = dde.data.GRF(kernel="ExpSineSquared", length_scale=1, N=100)
    eval_pts = np.linspace(0, 1, num=10)[:, None]
    data = dde.data.PDEOperatorCartesianProd(pde_data, func_space, eval_pts, 4, function_variables=[0],
                                             num_test=2, batch_size=_B)
    net = dde.nn.DeepONetCartesianProd([10, 16, 16], [5, 16, 16], "tanh", "Glorot normal")

    def periodic(x):
        x, t = x[:, :1], x[:, 1:]
        x = x * 2 * np.pi
        return torch.cat([torch.cos(x), torch.sin(x), torch.cos(2 * x), torch.sin(2 * x), t], 1)

    net.apply_feature_transform(periodic)
    return data, net, {}, False


def _pideeponet_stokes(dde):
    """``stokes_aligned_pideeponet.py``: three outputs (``independent`` strategy), a BC whose
    value depends on the input function (``aux_var``), an output transform stacking (u, v, p)."""
    import numpy as np

    def pde(xy, uvp, aux):
        mu = 0.01
        du_x = dde.grad.jacobian(uvp, xy, i=0, j=0)
        dv_y = dde.grad.jacobian(uvp, xy, i=1, j=1)
        dp_x = dde.grad.jacobian(uvp, xy, i=2, j=0)
        dp_y = dde.grad.jacobian(uvp, xy, i=2, j=1)
        du_xx = dde.grad.hessian(uvp, xy, component=0, i=0, j=0)
        du_yy = dde.grad.hessian(uvp, xy, component=0, i=1, j=1)
        dv_xx = dde.grad.hessian(uvp, xy, component=1, i=0, j=0)
        dv_yy = dde.grad.hessian(uvp, xy, component=1, i=1, j=1)
        return mu * (du_xx + du_yy) - dp_x, mu * (dv_xx + dv_yy) - dp_y, du_x + dv_y

    geom = dde.geometry.Rectangle([0, 0], [1, 1])

    def bc_slip_top_func(x, aux_var):
        return (aux_var / 10 + 1.) * dde.backend.as_tensor(x[:, 0:1] * (1 - x[:, 0:1]))

    bc_slip_top = dde.icbc.DirichletBC(geom=geom, func=bc_slip_top_func,
                                       on_boundary=lambda x, on_boundary: np.isclose(x[1], 1.), component=0)
    pde_data = dde.data.PDE(geom, pde, bcs=[bc_slip_top], num_domain=8, num_boundary=16, num_test=8)
    func_space = dde.data.GRF(length_scale=0.2, N=100)
    eval_pts = np.linspace(0, 1, num=10)[:, None]
    data = dde.data.PDEOperatorCartesianProd(pde_data, func_space, eval_pts, num_function=4,
                                             function_variables=[0], num_test=2, batch_size=_B)
    net = dde.nn.DeepONetCartesianProd([10, 16, 16], [2, 16, 16], "tanh", "Glorot normal", num_outputs=3,
                                       multi_output_strategy="independent")

    def out_transform(inputs, outputs):
        x, y = inputs[1][:, 0], inputs[1][:, 1]
        u = outputs[:, :, 0] * (x * (1 - x) * y)[None, :]
        v = outputs[:, :, 1] * (x * (1 - x) * y * (1 - y))[None, :]
        p = outputs[:, :, 2] * y[None, :]
        return dde.backend.stack((u, v, p), axis=2)

    net.apply_output_transform(out_transform)
    return data, net, {}, False


def _pideeponet_diff_rec_zcs(dde):
    """``diff_rec_aligned_zcs_pideeponet.py``: zero-coordinate-shift derivatives
    (``dde.zcs.LazyGrad``) with ``dde.zcs.PDEOperatorCartesianProd`` and ``dde.zcs.Model``."""
    import numpy as np

    def pde(x, y, v):
        D, k = 0.01, 0.01
        grad_y = dde.zcs.LazyGrad(x, y)
        dy_t = grad_y.compute((0, 1))
        dy_xx = grad_y.compute((2, 0))
        return dy_t - D * dy_xx + k * y ** 2 - v

    geomtime = dde.geometry.GeometryXTime(dde.geometry.Interval(0, 1), dde.geometry.TimeDomain(0, 1))
    bc = dde.icbc.DirichletBC(geomtime, lambda _: 0, lambda _, on_boundary: on_boundary)
    ic = dde.icbc.IC(geomtime, lambda _: 0, lambda _, on_initial: on_initial)
    pde_data = dde.data.TimePDE(geomtime, pde, [bc, ic], num_domain=8, num_boundary=4, num_initial=4, num_test=8)
    func_space = dde.data.GRF(length_scale=0.2, N=100)
    eval_pts = np.linspace(0, 1, num=10)[:, None]
    data = dde.zcs.PDEOperatorCartesianProd(pde_data, func_space, eval_pts, 4, function_variables=[0],
                                            num_test=2, batch_size=_B)
    net = dde.nn.DeepONetCartesianProd([10, 16, 16], [2, 16, 16], "tanh", "Glorot normal")
    return data, net, {}, True


MODELS = {
    # --- PINNs (examples/pinn_forward, pinn_inverse, function) ---
    "Poisson_Dirichlet_1d": _pinn(_poisson_1d("dirichlet")),
    "Poisson_Neumann_1d": _pinn(_poisson_1d("neumann")),
    "Poisson_Robin_1d": _pinn(_poisson_1d("robin")),
    "Poisson_periodic_1d": _pinn(_poisson_1d("periodic")),
    "Poisson_FNN_l1": _pinn(_poisson_net_option(regularization=["l1", 1e-4])),
    "Poisson_FNN_activation_list": _pinn(_poisson_net_option(activation=["tanh", "sin", "relu"])),
    "Poisson_FNN_LAAF": _pinn(_poisson_net_option(activation="LAAF-10 tanh")),
    "Euler_beam": _pinn(_euler_beam),
    "ode_system": _pinn(_ode_system),
    "Burgers": _pinn(_burgers),
    "diffusion_1d_exactBC": _pinn(_diffusion_1d_exact_bc),
    "Kovasznay_flow": _pinn(_kovasznay),
    "Helmholtz_Dirichlet_2d_hard": _pinn(_helmholtz(True)),
    "Helmholtz_Dirichlet_2d_soft": _pinn(_helmholtz(False)),
    "Laplace_disk": _pinn(_laplace_disk),
    "Lotka_Volterra": _pinn(_lotka_volterra),
    "elasticity_plate_PFNN": _pinn(_elasticity_plate),
    "diffusion_reaction_rate_PFNN": _pinn(_diffusion_reaction_rate),
    "elliptic_inverse_field_batch_PFNN": _pinn(_elliptic_inverse_field_batch),
    "Lorenz_inverse": _pinn(_lorenz_inverse),
    "brinkman_forchheimer": _pinn(_brinkman_forchheimer),
    "func": _pinn(_func),
    # --- operator learning (examples/operator, the nets' docstrings) ---
    "DeepONetCartesianProd": _operator(_deeponet_cartesian()),
    "DeepONetCartesianProd_independent": _operator(_deeponet_cartesian(3, "independent")),
    "DeepONetCartesianProd_split_both": _operator(_deeponet_cartesian(2, "split_both")),
    "DeepONet": _operator(_deeponet()),
    "DeepONet_split_branch": _operator(_deeponet(2, "split_branch")),
    "DeepONet_split_trunk": _operator(_deeponet(2, "split_trunk")),
    "PODDeepONet": _operator(_pod_deeponet(False)),
    "PODDeepONet_trunk": _operator(_pod_deeponet(True)),
    "MIONetCartesianProd": _operator(_mionet(), step="MIOStep"),
    "MIONetCartesianProd_cat_mergers": _operator(_mionet("cat", output_merge="cat"), step="MIOStep"),
    "MIONetCartesianProd_add_output_mul": _operator(_mionet("add", merger=True, output_merge="mul"),
                                                    step="MIOStep"),
    "PODMIONet": _operator(_mionet(pod="only"), step="MIOStep"),
    "PODMIONet_trunk_cat": _operator(_mionet("cat", pod="trunk"), step="MIOStep"),
    # --- physics-informed DeepONets ---
    "antiderivative_aligned_pideeponet": _operator(_pideeponet_antiderivative(True)),
    "antiderivative_unaligned_pideeponet": _operator(_pideeponet_antiderivative(False)),
    "advection_aligned_pideeponet": _operator(_pideeponet_advection),
    "stokes_aligned_pideeponet": _operator(_pideeponet_stokes),
    "diff_rec_aligned_zcs_pideeponet": _operator(_pideeponet_diff_rec_zcs),
}
