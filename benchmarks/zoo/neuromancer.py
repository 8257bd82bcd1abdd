"""NeuroMANCER 1.5.6 (PNNL's differentiable programming library): its blocks, dynamics and
Node / System / Problem graphs, built as its README and examples build them, tiny (batch 4,
2-3 states, hidden layers of 8-16 units, rollouts of 4 steps), random weights, no download:

- ``modules.blocks``: ``MLP`` (default ``SoftExponential`` activations; and a ReLU MLP on
  ``slim.PerronFrobeniusLinear`` maps), ``MLP_bounds``, ``ResMLP``, ``InputConvexNN`` and
  ``PosDef`` over it, ``StackedMLP``, ``KANBlock`` and plain ``KAN``, ``RNN``
  (slim cells) and ``PytorchRNN``, ``BilinearTorch``, ``BasisLinear`` (``Poly2``),
  ``Transformer``; ``slim`` linear maps on their own (``SpectralLinear``, ``SymplecticLinear``,
  ``GershgorinLinear``, ``PowerBoundLinear``, ``ButterflyLinear`` on its pure-PyTorch path: the
  ``factor_multiply`` extension is not built), ``slim.RNN``;
- ``dynamics``: neural ODEs through ``integrators`` (``Euler`` under SINDy, ``RK4``, ``RK2``, ``Luther``,
  ``Runge_Kutta_Fehlberg``, the second-order ``LeapFrog`` and ``Yoshida4`` (state and velocity
  stacked), ``MultiStep_PredictorCorrector`` (four past states)
  and torchdiffeq's ``DiffEqIntegrator`` with ``rk4`` and adaptive ``dopri5``) on MLPs and on the
  library's parametric / hybrid ODEs (``TwoTankParam``, ``DuffingParam``, ``VanDerPolControl``,
  ``LotkaVolterraHybrid``), ``SINDy`` on a ``PolynomialLibrary``,
  a ``GeneralNetworkedODE`` of ``physics`` agents (``RCNode``, ``SourceSink``) and couplings
  (``DeltaTemp``, ``HVACConnection``), the neural state-space model ``SSM``, and SDEs through
  torchsde (``BasicSDEIntegrator`` on ``StochasticLorenzAttractor``; the latent SDE example:
  ``LatentSDE_Encoder`` -> ``LatentSDEIntegrator`` -> ``LatentSDE_Decoder``);
- graphs: ``Node`` / ``System`` rollouts (open-loop system identification, closed-loop DPC with a
  policy node, ``SystemPreview``) and ``Problem`` over ``variable`` expressions, ``Objective`` /
  ``Constraint`` terms and ``PenaltyLoss`` / ``BarrierLoss`` / ``AugmentedLagrangeLoss`` (the first two also on DPC):
  system identification, differentiable predictive control, parametric programming (with a
  ``GradientProjection`` solver node), a physics-informed net (``variable.grad``) and a custom
  ``constraint.Loss``; ``FunctionEncoder`` (least squares, with an average function); ``lopo.DRSolver``
  behind an MLP warm start.

Eval: the block / integrator / ``System`` forward as the library returns it. Train: the
``Problem`` forward, i.e. the nodes then the loss (``problem(batch)`` is what ``Trainer`` and
``LitProblem.training_step`` run each step), for the graphs; for a bare block or integrator the
``Problem`` a user would wrap it in where the examples do (``Node`` + MSE ``Objective`` +
``PenaltyLoss``), else ``mean_loss_module``.

    pip install --no-deps neuromancer==1.5.6
    pip install --no-deps plum-dispatch==1.7.3 pydot==1.4.2 pyts==0.13.0

neuromancer imports at module level pydot (system, problem), plum (constraint, psl.norms),
pyts (plot), lightning (problem, trainer), dill, networkx, matplotlib, pandas, sklearn, torchdiffeq
and torchsde (already installed here, with numba for pyts) and ``wandb`` (trainer.py, for its
hyper-parameter sweeps only): wandb is stubbed with ``stub_modules`` (a heavy client with a
binary, no model uses it). cvxpy, cvxpylayers, casadi and toml are declared but never imported by
the package (only the examples use them): not installed. ``functorch`` (solvers, lopo) is
torch's own shim.

Left out: ``Trainer`` / ``LitTrainer`` (loops, optimizers, loggers, not a forward), ``psl``
(numpy / scipy simulators and datasets, no network), ``dataset`` / ``plot`` / ``callbacks``,
``MovingHorizon`` (no example uses it), ``blocks.InteractionEmbeddingMLP`` (fails eagerly
for every config: its layer sizes do not count the embedding concatenated before the second
layer), ``slim.SchurDecompositionLinear`` / ``OrthogonalLinear`` (fail eagerly: ``x + self.bias``
with the default ``bias=False`` inner ``OrthogonalLinear``), ``ADMMSolver`` (the same prox machinery as ``DRSolver``). Measured first as it
came, before any rule looked at it.
The gradient-projection problem's eval is ``Trainer``'s evaluation step (``problem(batch)`` under
``torch.set_grad_enabled(problem.grad_inference)``), since its solver differentiates in the forward.
Notes: ``Problem.forward`` reads ``data["name"]`` (a string) to prefix its output keys, so each
batch carries ``name="train"``; the physics-informed problem needs inputs with
``requires_grad`` (as its example sets them); ``AugmentedLagrangeLoss`` takes a
``DataLoader`` of a ``DictDataset`` (for its sample count) and batches with ``index`` / ``epoch``
keys, as ``Trainer`` adds them.
"""

import functools

PACKAGE = "neuromancer"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
stub_modules = None  # adapter.stub_modules, set by ZooSuite

_B = 4  # batch
_T = 4  # rollout steps
_NX = 2  # states
_H = [16, 16]


def before_build():
    stub_modules({"wandb": (("init", "log", "agent", "sweep", "finish"), ("Api",))}, "neuromancer")


def warm_up():
    before_build()
    import torch  # noqa: F401
    import neuromancer  # noqa: F401
    import neuromancer.modules.solvers  # noqa: F401
    import neuromancer.modules.function_encoder  # noqa: F401
    import neuromancer.modules.lopo  # noqa: F401
    import neuromancer.dynamics.sde  # noqa: F401
    import neuromancer.dynamics.physics  # noqa: F401


# --- helpers ---------------------------------------------------------------------------------

def _mse_problem(block, in_keys, out_key, target_key, data):
    """The examples' ``Node`` + ``(yhat == y)^2`` objective + ``PenaltyLoss`` around a block."""
    from neuromancer.constraint import variable
    from neuromancer.loss import PenaltyLoss
    from neuromancer.problem import Problem
    from neuromancer.system import Node

    node = Node(block, in_keys, [out_key], name="net")
    yhat, y = variable(out_key), variable(target_key)
    obj = (yhat == y) ^ 2
    obj.name = "fit"
    return Problem([node], PenaltyLoss([obj], [])), ({**data, "name": "train"},), {}


def _block(make_block, insize, outsize, mode, batch_shape=(_B,)):
    import torch

    blk = make_block()
    x = torch.randn(*batch_shape, insize)
    if mode == "eval":
        return blk, (x,), {}
    return _mse_problem(blk, ["x"], "yhat", "y", {"x": x, "y": torch.randn(*batch_shape, outsize)})


def _mlp(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.MLP(3, 2, hsizes=_H), 3, 2, mode)


def _mlp_pf_relu(mode):
    import torch.nn as nn
    from neuromancer import slim
    from neuromancer.modules import blocks

    return _block(lambda: blocks.MLP(3, 2, hsizes=_H, nonlin=nn.ReLU, linear_map=slim.PerronFrobeniusLinear,
                                     linargs={"sigma_min": 0.5, "sigma_max": 1.0}), 3, 2, mode)


def _mlp_bounds(mode):
    import torch.nn as nn
    from neuromancer.modules import blocks

    return _block(lambda: blocks.MLP_bounds(3, 2, hsizes=_H, nonlin=nn.GELU, min=-1.0, max=1.0), 3, 2, mode)


def _resmlp(mode):
    import torch.nn as nn
    from neuromancer.modules import blocks

    return _block(lambda: blocks.ResMLP(3, 2, hsizes=[16, 16, 16, 16], nonlin=nn.ELU, skip=2), 3, 2, mode)


def _icnn(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.InputConvexNN(3, 1, hsizes=_H), 3, 1, mode)


def _posdef(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.PosDef(blocks.InputConvexNN(3, 1, hsizes=_H)), 3, 1, mode)


def _mlp_dropout(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.MLPDropout(3, 2, hsizes=_H, dropout=0.1), 3, 2, mode)


def _stacked_mlp(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.StackedMLP(3, 2, h_sf_size=[8, 8], n_stacked_mf_layers=2,
                                            h_linear_sizes=[8], h_nonlinear_sizes=[8, 8]), 3, 2, mode)


def _kan_block(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.KANBlock(3, 2, hsizes=[8], grid_sizes=[5], spline_order=3), 3, 2, mode)


def _kan(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.KAN([3, 8, 2], grid_size=5, spline_order=3), 3, 2, mode)


def _rnn_block(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.RNN(3, 2, hsizes=[8, 8]), 3, 2, mode, batch_shape=(_B, _T))


def _pytorch_rnn(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.PytorchRNN(3, 2, hsizes=[8, 8]), 3, 2, mode, batch_shape=(_B, _T))


def _bilinear(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.BilinearTorch(3, 2), 3, 2, mode)


def _basis_linear(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.BasisLinear(3, 2, hsizes=[8], expand=blocks.Poly2()), 3, 2, mode)


def _linear_svd(mode):
    from neuromancer import slim
    from neuromancer.modules import blocks

    return _block(lambda: blocks.Linear(3, 3, linear_map=slim.SVDLinear), 3, 3, mode)


def _transformer(mode):
    from neuromancer.modules import blocks

    return _block(lambda: blocks.Transformer(insize=6, outsize=2, num_heads=3, hsizes=2), 6, 2, mode,
                  batch_shape=(_B, _T))


def _slim_map(cls_name, bias=True, **kw):
    def make(mode):
        import torch
        from neuromancer import slim

        lin = getattr(slim, cls_name)(4, 4, bias=bias, **kw)
        x = torch.randn(_B, 4)
        if mode == "eval":
            return lin, (x,), {}
        return mean_loss_module()(lin), (x,), {}

    return make


def _slim_rnn(mode):
    import torch
    from neuromancer import slim

    net = slim.RNN(3, hidden_size=8, num_layers=2)
    x = torch.randn(_T, _B, 3)
    return (net if mode == "eval" else mean_loss_module()(net)), (x,), {}


# --- dynamics --------------------------------------------------------------------------------

def _sysid(make_integrator, nx, nu=0, nsteps=_T):
    """The system identification examples: ``Node(integrator, ['xn', 'u'], ['xn'])`` rolled out by
    ``System`` from ``X[:, [0]]``; train: ``Problem`` with a reference-tracking MSE (``x == xhat``) and
    a one-step loss, ``PenaltyLoss``."""
    def make(mode):
        import torch
        from neuromancer.constraint import variable
        from neuromancer.loss import PenaltyLoss
        from neuromancer.problem import Problem
        from neuromancer.system import Node, System

        integrator = make_integrator()
        in_keys = ["xn"] + (["U"] if nu else [])
        model = Node(integrator, in_keys, ["xn"], name="NODE")
        dynamics = System([model], name="system", nsteps=nsteps)
        X = torch.rand(_B, nsteps + 1, nx)
        data = {"X": X, "xn": X[:, 0:1, :]}
        if nu:
            data["U"] = torch.rand(_B, nsteps + 1, nu)
        if mode == "eval":
            return dynamics, (data,), {}
        x, xhat = variable("X"), variable("xn")[:, :-1, :]
        reference_loss = 10.0 * (xhat == x[:, 1:, :]) ^ 2
        reference_loss.name = "ref_loss"
        onestep_loss = 1.0 * (xhat[:, 1, :] == x[:, 1, :]) ^ 2
        onestep_loss.name = "onestep_loss"
        problem = Problem([dynamics], PenaltyLoss([reference_loss, onestep_loss], []))
        return problem, ({**data, "name": "train"},), {}

    return make


def _mlp_rhs(nx, nu=0):
    from neuromancer.modules import blocks
    import torch.nn as nn

    return blocks.MLP(nx + nu, nx, hsizes=_H, nonlin=nn.ELU)


def _integ(cls_name, rhs, **kw):
    def make():
        from neuromancer.dynamics import integrators

        return getattr(integrators, cls_name)(rhs(), h=0.1, **kw)

    return make


def _ode(cls_name):
    def make():
        from neuromancer.dynamics import ode

        return getattr(ode, cls_name)()

    return make


def _diffeq(method):
    def make():
        from neuromancer.dynamics import integrators

        return integrators.DiffEqIntegrator(_mlp_rhs(2), h=0.1, method=method)

    return make


def _lv_hybrid():
    import torch.nn as nn
    from neuromancer.dynamics import integrators, ode
    from neuromancer.modules import blocks

    return integrators.RK4(ode.LotkaVolterraHybrid(blocks.MLP(2, 1, hsizes=[8], nonlin=nn.ELU)), h=0.1)


def _sindy():
    from neuromancer.dynamics import integrators, library, ode

    return integrators.Euler(ode.SINDy(library.PolynomialLibrary(2, 2)), h=0.1)


def _networked_ode(mode):
    """The networked-ODE example (a room network): three ``RCNode`` zones, an ``HVACConnection``
    source and a ``SourceSink`` outside air, ``DeltaTemp`` couplings; ``RK4``."""
    import torch
    import torch.nn as nn
    from neuromancer.dynamics import integrators, ode, physics

    def build():
        agents = [physics.RCNode(C=nn.Parameter(torch.tensor([5.0])), scaling=1.0e-5) for _ in range(3)]
        agents += [physics.SourceSink(), physics.SourceSink()]  # outdoors, HVAC
        amap = physics.map_from_agents(agents)
        couplings = [physics.DeltaTemp(R=nn.Parameter(torch.tensor([1.0])), pins=[[0, 1], [1, 2]], symmetric=True),
                     physics.DeltaTemp(R=nn.Parameter(torch.tensor([2.0])), pins=[[3, 0], [3, 2]]),
                     physics.HVACConnection(pins=[[4, 1]])]
        rhs = ode.GeneralNetworkedODE(map=amap, agents=agents, couplings=couplings, insize=5, outsize=5)
        return integrators.RK4(rhs, h=1.0)

    def make(mode):
        return _sysid(build, nx=5)(mode)

    return make(mode)


def _ssm(mode):
    from neuromancer.dynamics import ode
    from neuromancer.modules import blocks

    def build():
        return ode.SSM(blocks.MLP(2, 2, hsizes=_H), blocks.MLP(1, 2, hsizes=[8]), nx=2, nu=1)

    return _sysid(build, nx=2, nu=1)(mode)


def _multistep(mode):
    import torch
    from neuromancer.dynamics import integrators

    integ = integrators.MultiStep_PredictorCorrector(_mlp_rhs(2), h=0.1)
    x = torch.randn(_B, 4, 2)
    return (integ if mode == "eval" else mean_loss_module()(integ)), (x,), {}


def _sde_lorenz(mode):
    import torch
    from neuromancer.dynamics import integrators, sde

    integ = integrators.BasicSDEIntegrator(sde.StochasticLorenzAttractor())
    args = (torch.randn(_B, 3), torch.linspace(0, 0.05, 6))
    return (integ if mode == "eval" else mean_loss_module()(integ)), args, {}


def _latent_sde(mode):
    """The latent SDE example: ``LatentSDE_Encoder`` -> ``LatentSDEIntegrator`` -> ``LatentSDE_Decoder``
    as ``Node``s; train: its ``Problem`` (``-log_pxs + log_ratio`` style objectives)."""
    import torch
    from neuromancer.constraint import variable
    from neuromancer.dynamics import integrators, sde
    from neuromancer.loss import PenaltyLoss
    from neuromancer.problem import Problem
    from neuromancer.system import Node

    ts = torch.linspace(0, 0.3, 4)
    enc = sde.LatentSDE_Encoder(data_size=3, latent_size=2, context_size=4, hidden_size=8, ts=ts)
    integ = integrators.LatentSDEIntegrator(enc, dt=0.05)
    dec = sde.LatentSDE_Decoder(data_size=3, latent_size=2, noise_std=0.01)
    n1 = Node(integ, ["xs"], ["zs", "z0", "log_ratio", "xs_", "qz0_mean", "qz0_logstd"], name="integrator")
    n2 = Node(dec, ["xs_", "zs", "log_ratio", "qz0_mean", "qz0_logstd"], ["xs_hat", "log_pxs", "sum_term", "log_ratio_"],
              name="decoder")
    data = {"xs": torch.randn(4, _B, 3)}
    if mode == "eval":
        return _Seq([n1, n2]), (data,), {}
    log_pxs, sum_term = variable("log_pxs"), variable("sum_term")
    obj1 = -1.0 * log_pxs.minimize(name="log_pxs_loss")
    obj2 = sum_term.minimize(name="kl_loss")
    problem = Problem([n1, n2], PenaltyLoss([obj1, obj2], []))
    return problem, ({**data, "name": "train"},), {}


@functools.cache
def _seq_cls():
    import torch.nn as nn

    class NodeChain(nn.Module):
        """Runs ``Node``s in order on one data dict (``Problem.step`` without the loss)."""

        def __init__(self, nodes):
            super().__init__()
            self.nodes = nn.ModuleList(nodes)

        def forward(self, data):
            for node in self.nodes:
                data = {**data, **node(data)}
            return data

    return NodeChain


def _Seq(nodes):
    return _seq_cls()(nodes)


# --- Problems: DPC, parametric programming, PINN ----------------------------------------------

def _dpc(mode, loss="penalty", preview=False):
    """The DPC tutorial: a double integrator ``Node`` closed with an ``MLP_bounds`` policy in a
    ``System`` of ``nsteps``; regulation / action objectives and state / terminal constraints."""
    import torch
    import torch.nn as nn
    from neuromancer.constraint import variable
    from neuromancer.loss import BarrierLoss, PenaltyLoss
    from neuromancer.modules import blocks
    from neuromancer.problem import Problem
    from neuromancer.system import Node, System, SystemPreview

    A = torch.tensor([[1.2, 1.0], [0.0, 1.0]])
    B = torch.tensor([[1.0], [0.5]])
    xnext = lambda x, u: x @ A.T + u @ B.T  # noqa: E731
    sys_node = Node(xnext, ["x", "u"], ["x"], name="integrator")
    if preview:
        net = blocks.MLP_bounds(_NX + 2 * (_T + 1), 1, hsizes=_H, nonlin=nn.GELU, min=-1.0, max=1.0)
        policy = Node(net, ["x", "r"], ["u"], name="policy")
        cl_system = SystemPreview([policy, sys_node], preview_keys_map={"r": ["policy"]},
                                  preview_length={"r": _T}, pad_mode="replicate", nsteps=_T, name="cl_system")
    else:
        net = blocks.MLP_bounds(_NX + _NX, 1, hsizes=_H, nonlin=nn.GELU, min=-1.0, max=1.0)
        policy = Node(net, ["x", "r"], ["u"], name="policy")
        cl_system = System([policy, sys_node], nsteps=_T, name="cl_system")
    data = {"x": torch.rand(_B, 1, _NX), "r": torch.zeros(_B, _T + 1, _NX)}
    if mode == "eval":
        return cl_system, (data,), {}
    x, u, r = variable("x"), variable("u"), variable("r")
    action_loss = 0.1 * (u == 0.0) ^ 2
    action_loss.name = "action_loss"
    regulation_loss = 5.0 * (x == r) ^ 2
    regulation_loss.name = "regulation_loss"
    state_lb = 10.0 * (x > -10.0)
    state_lb.name = "x_min"
    state_ub = 10.0 * (x < 10.0)
    state_ub.name = "x_max"
    terminal_lb = 10.0 * (x[:, [-1], :] > r[:, [-1], :] - 0.1)
    terminal_lb.name = "terminal_lb"
    terminal_ub = 10.0 * (x[:, [-1], :] < r[:, [-1], :] + 0.1)
    terminal_ub.name = "terminal_ub"
    objectives = [regulation_loss, action_loss]
    constraints = [state_lb, state_ub, terminal_lb, terminal_ub]
    if loss == "barrier":
        agg = BarrierLoss(objectives, constraints, barrier="softexp")
    else:
        agg = PenaltyLoss(objectives, constraints)
    return Problem([cl_system], agg), ({**data, "name": "train"},), {}


def _dpc_psl_ode(mode):
    """DPC of a nonlinear ODE model (the examples' ``VanDerPolControl`` closed with a neural policy
    and an ``RK4`` integrator node)."""
    import torch
    import torch.nn as nn
    from neuromancer.constraint import variable
    from neuromancer.dynamics import integrators, ode
    from neuromancer.loss import PenaltyLoss
    from neuromancer.modules import blocks
    from neuromancer.problem import Problem
    from neuromancer.system import Node, System

    model = Node(integrators.RK4(ode.VanDerPolControl(), h=0.1), ["x", "u"], ["x"], name="model")
    policy = Node(blocks.MLP(2, 1, hsizes=_H, nonlin=nn.ReLU), ["x"], ["u"], name="policy")
    cl = System([policy, model], nsteps=_T, name="cl_system")
    data = {"x": torch.randn(_B, 1, 2)}
    if mode == "eval":
        return cl, (data,), {}
    x, u = variable("x"), variable("u")
    obj = (x == 0.0) ^ 2
    obj.name = "reg"
    umax = 10.0 * (u < 5.0)
    umax.name = "umax"
    umin = 10.0 * (u > -5.0)
    umin.name = "umin"
    cons = [umax, umin]
    return Problem([cl], PenaltyLoss([obj], cons)), ({**data, "name": "train"},), {}


def _pnm(mode, loss="penalty", projection=False):
    """Parametric nonlinear programming (the Rosenbrock tutorial): ``Node(MLP, ['a', 'p'], ['x'])``,
    objective ``(1-x)^2 + a(y-x^2)^2``, constraints ``x >= y``, ``(p/2)^2 <= x^2+y^2 <= p^2``."""
    import torch
    import torch.nn as nn
    from neuromancer.constraint import variable
    from neuromancer.dataset import DictDataset
    from neuromancer.loss import AugmentedLagrangeLoss, BarrierLoss, PenaltyLoss
    from neuromancer.modules import blocks
    from neuromancer.modules.solvers import GradientProjection
    from neuromancer.problem import Problem
    from neuromancer.system import Node

    func = blocks.MLP(2, 2, hsizes=[8] * 2, nonlin=nn.ReLU)
    sol_map = Node(func, ["a", "p"], ["x"], name="map")
    x, p, a = variable("x"), variable("p"), variable("a")
    x1, x2 = x[:, [0]], x[:, [1]]
    f = (1 - x1) ** 2 + a * (x2 - x1 ** 2) ** 2
    obj = f.minimize(weight=1.0, name="obj")
    con_1 = 100.0 * (x1 >= x2)
    con_1.name = "c1"
    con_2 = 100.0 * ((p / 2) ** 2 <= x1 ** 2 + x2 ** 2)
    con_2.name = "c2"
    con_3 = 100.0 * (x1 ** 2 + x2 ** 2 <= p ** 2)
    con_3.name = "c3"
    constraints = [con_1, con_2, con_3]
    nodes = [sol_map]
    data = {"a": torch.rand(_B, 1) + 0.2, "p": torch.rand(_B, 1) + 0.5}
    if projection:
        nodes.append(GradientProjection(constraints, input_keys=["x"], num_steps=2, step_size=0.05,
                                        decay=0.1, name="proj"))
    if loss == "barrier":
        agg = BarrierLoss([obj], constraints, barrier="softexp")
    elif loss == "alm":
        ds = DictDataset({k: v for k, v in data.items()}, name="train")
        dl = torch.utils.data.DataLoader(ds, batch_size=_B, collate_fn=ds.collate_fn)
        agg = AugmentedLagrangeLoss([obj], constraints, dl, inner_loop=2)
        data = {**data, "index": torch.arange(_B), "epoch": 2}
    else:
        agg = PenaltyLoss([obj], constraints)
    problem = Problem(nodes, agg, grad_inference=projection)
    if mode == "eval" and projection:  # Trainer's dev / test pass: grad on for grad_inference
        return _grad_inference_cls()(problem), ({**data, "name": "dev"},), {}
    if mode == "eval":
        return sol_map, (data,), {}
    return problem, ({**data, "name": "train"},), {}


@functools.cache
def _grad_inference_cls():
    import torch
    import torch.nn as nn

    class GradInference(nn.Module):
        """``Trainer``'s evaluation step: ``with torch.set_grad_enabled(model.grad_inference): model(batch)``."""

        def __init__(self, problem):
            super().__init__()
            self.problem = problem

        def forward(self, batch):
            with torch.set_grad_enabled(self.problem.grad_inference):
                return self.problem(batch)

    return GradInference


def _pinn(mode):
    """The PINN tutorial (1-D diffusion): ``Node(MLP, ['x', 't'], ['y'])``; the PDE residual
    ``y.grad(t) - 0.1 * y.grad(x).grad(x)`` (``variable.grad``, i.e. ``torch.autograd.grad``) and
    boundary / initial MSE as objectives."""
    import torch
    import torch.nn as nn
    from neuromancer.constraint import variable
    from neuromancer.loss import PenaltyLoss
    from neuromancer.modules import blocks
    from neuromancer.problem import Problem
    from neuromancer.system import Node

    net = blocks.MLP(2, 1, hsizes=_H, nonlin=nn.Tanh)
    pde_net = Node(net, ["x", "t"], ["y_hat"], name="net")
    x, t = torch.rand(8, 1, requires_grad=True), torch.rand(8, 1, requires_grad=True)
    data = {"x": x, "t": t, "y": torch.sin(x.detach())}
    if mode == "eval":
        return pde_net, (data,), {}
    y_hat, y = variable("y_hat"), variable("y")
    xv, tv = variable("x"), variable("t")
    dy_dt = y_hat.grad(tv)
    d2y_dx2 = y_hat.grad(xv).grad(xv)
    f_pinn = dy_dt - 0.1 * d2y_dx2
    ell_f = 1.0 * (f_pinn == 0.0) ^ 2
    ell_f.name = "pde"
    ell_u = 10.0 * (y_hat == y) ^ 2
    ell_u.name = "data"
    con = 1.0 * (y_hat <= 1.0)
    con.name = "ub"
    return Problem([pde_net], PenaltyLoss([ell_f, ell_u], [con])), ({**data, "name": "train"},), {}


def _custom_loss_problem(mode):
    """A ``constraint.Loss`` (a callable over named keys) next to an ``Objective``, over two nodes."""
    import torch
    import torch.nn.functional as F
    from neuromancer.constraint import Loss, variable
    from neuromancer.loss import PenaltyLoss
    from neuromancer.modules import blocks
    from neuromancer.problem import Problem
    from neuromancer.system import Node

    enc = Node(blocks.MLP(4, 2, hsizes=[8]), ["y"], ["z"], name="encoder")
    dec = Node(blocks.ResMLP(2, 4, hsizes=[8, 8]), ["z"], ["y_hat"], name="decoder")
    data = {"y": torch.randn(_B, 4)}
    if mode == "eval":
        return _Seq([enc, dec]), (data,), {}
    recon = Loss(["y", "y_hat"], F.mse_loss, weight=1.0, name="recon")
    z = variable("z")
    reg = (0.01 * (z ** 2)).minimize(name="z_reg")
    return Problem([enc, dec], PenaltyLoss([recon, reg], [])), ({**data, "name": "train"},), {}


def _function_encoder(mode, least_squares=True):
    import torch
    from neuromancer.modules import blocks
    from neuromancer.modules.function_encoder import FunctionEncoder

    basis = [blocks.MLP(1, 1, hsizes=[8]) for _ in range(4)]
    fe = FunctionEncoder(basis, average_function=blocks.MLP(1, 1, hsizes=[8]), use_least_squares=least_squares)
    ex, ey = torch.rand(3, 10, 1), torch.rand(3, 10, 1)
    qx = torch.rand(3, 6, 1)
    return (fe if mode == "eval" else mean_loss_module()(fe)), (ex, ey, qx), {}


def _dr_solver(mode):
    """Learning to optimize with a Douglas-Rachford layer (the ``lopo`` example): a ``Node`` of an MLP
    warm start then ``DRSolver`` over a quadratic objective with linear inequality constraints."""
    import torch
    from neuromancer.modules import blocks
    from neuromancer.modules.lopo import DRSolver

    def f_obj(x, p):
        return torch.sum((x - p) ** 2)

    def F_ineq(x, p):
        return torch.stack([x[0] + x[1] - 1.0, -x[0]])

    solver = DRSolver(f_obj=f_obj, F_ineq=F_ineq, x_dim=2, n_ineq=2, num_steps=3)
    net = blocks.MLP(2, 2, hsizes=[8])

    @functools.cache
    def cls():
        import torch.nn as nn

        class WarmStartDR(nn.Module):
            def __init__(self, net, solver):
                super().__init__()
                self.net, self.solver = net, solver

            def forward(self, p):
                x, gap = self.solver(self.net(p), p)
                return x[:, :2], gap

        return WarmStartDR

    m = cls()(net, solver)
    p = torch.rand(_B, 2)
    return (m if mode == "eval" else mean_loss_module()(m)), (p,), {}


MODELS = {
    # blocks
    "MLP": _mlp,
    "MLP_PerronFrobenius_ReLU": _mlp_pf_relu,
    "MLP_bounds": _mlp_bounds,
    "ResMLP": _resmlp,
    "InputConvexNN": _icnn,
    "PosDef_ICNN": _posdef,
    "StackedMLP": _stacked_mlp,
    "KANBlock": _kan_block,
    "KAN": _kan,
    "RNN_block": _rnn_block,
    "PytorchRNN": _pytorch_rnn,
    "BilinearTorch": _bilinear,
    "BasisLinear_Poly2": _basis_linear,
    "Transformer": _transformer,
    "slim_SpectralLinear": _slim_map("SpectralLinear"),
    "slim_SymplecticLinear": _slim_map("SymplecticLinear"),
    "slim_GershgorinLinear": _slim_map("GershgorinLinear"),
    "slim_PowerBoundLinear": _slim_map("PowerBoundLinear", pwr_iters=5),
    "slim_ButterflyLinear": _slim_map("ButterflyLinear"),
    "slim_RNN": _slim_rnn,
    # dynamics: system identification rollouts
    "NODE_RK4_MLP": _sysid(_integ("RK4", lambda: _mlp_rhs(2)), nx=2),
    "NODE_RK2_control": _sysid(_integ("RK2", lambda: _mlp_rhs(2, 1)), nx=2, nu=1),
    "NODE_Luther_Duffing": _sysid(_integ("Luther", _ode("DuffingParam")), nx=2, nu=1),
    "NODE_RKF_TwoTank": _sysid(_integ("Runge_Kutta_Fehlberg", _ode("TwoTankParam")), nx=2, nu=2),
    "NODE_LeapFrog_MLP": _sysid(_integ("LeapFrog", lambda: _mlp_rhs(2)), nx=4),
    "NODE_Yoshida4_control": _sysid(_integ("Yoshida4", lambda: _mlp_rhs(2, 1)), nx=4, nu=1),
    "NODE_DiffEq_rk4": _sysid(_diffeq("rk4"), nx=2),
    "NODE_DiffEq_dopri5": _sysid(_diffeq("dopri5"), nx=2, nsteps=2),
    "NODE_LotkaVolterraHybrid": _sysid(_lv_hybrid, nx=2),
    "SINDy_Polynomial": _sysid(_sindy, nx=2),
    "NetworkedODE_RC": _networked_ode,
    "SSM": _ssm,
    "MultiStep_PredictorCorrector": _multistep,
    "SDE_StochasticLorenz": _sde_lorenz,
    "LatentSDE": _latent_sde,
    # problems
    "DPC_double_integrator": _dpc,
    "DPC_barrier": functools.partial(_dpc, loss="barrier"),
    "DPC_SystemPreview": functools.partial(_dpc, preview=True),
    "DPC_VanDerPol_RK4": _dpc_psl_ode,
    "pNLP_penalty": _pnm,
    "pNLP_barrier": functools.partial(_pnm, loss="barrier"),
    "pNLP_augmented_lagrange": functools.partial(_pnm, loss="alm"),
    "pNLP_gradient_projection": functools.partial(_pnm, projection=True),
    "PINN_diffusion": _pinn,
    "Problem_custom_Loss": _custom_loss_problem,
    "FunctionEncoder_least_squares": _function_encoder,
    "lopo_DRSolver": _dr_solver,
}
