"""PINA (pina-mathlab) 0.3.2.post2610: its models (``pina.model``), blocks (``pina.model.block``),
``LabelTensor`` operations, the differential operators of ``pina.operator`` and the solvers'
loss, tiny configs, random weights, no download.

    pip install --no-deps pina-mathlab==0.3.2.post2610

(already installed and used: lightning 2.6.6, torch-geometric 2.8.1, matplotlib 3.11.2, numpy,
scipy; nothing added, nothing stubbed.)

Models (eval: ``model(x)``; train: ``mean_loss_module`` of it): ``FeedForward`` (also on a
``LabelTensor``), ``ResidualFeedForward``, ``MultiFeedForward`` subclass (as its docs define one),
``DeepONet`` (branch / trunk picked by labels of a ``LabelTensor``), ``MIONet``, ``FNO`` (2-d),
``FourierIntegralKernel`` (1-d), ``KernelNeuralOperator`` (lifting / FourierBlock1D / projection),
``AveragingNeuralOperator``, ``LowRankNeuralOperator``, ``GraphNeuralOperator`` (on a
torch_geometric ``Data``), ``EquivariantGraphNeuralOperator``, ``Spline``, ``VectorizedSpline``,
``SplineSurface``, ``PirateNet``, ``SINDy``, ``KolmogorovArnoldNetwork``; blocks:
``ContinuousConvBlock``, ``ResidualBlock``, ``EnhancedLinear``, ``SpectralConvBlock2D``,
``FourierBlock3D``, ``PODBlock`` (fitted), ``OrthogonalBlock``, ``PeriodicBoundaryEmbedding``,
``FourierFeatureEmbedding``, ``RBFBlock`` (fitted), ``KANBlock``, ``PirateNetBlock``.
LabelTensor / operators (a small module that does what a PINN residual does on its input):
``extract`` / ``cat`` / ``append`` of labelled columns, ``grad``, ``div``, ``laplacian``,
``advection`` and the ``fast_*`` variants, applied to a FeedForward output on a LabelTensor.

Solvers: the library's tiny problems from ``pina.problem.zoo`` (``Poisson2DSquareProblem``,
``AdvectionProblem``, ``BurgersProblem``, ``SupervisedProblem`` on random data), domains
discretised with ``discretise_domain(n=8)``, the batch taken from ``pina.Trainer``'s own data
module (``batch_size=None``). Eval: ``solver(x)`` (the labelized forward). Train: ``_Step``: the
body of ``ConditionAggregatorMixin.batch_evaluation_step`` without the Lightning ``self.log(...
value.item())`` calls (which need a fitted trainer): per condition
``solver._compute_condition_loss``, ``solver._clamp_params()``, ``solver.weighting.aggregate``
and ``as_subclass(torch.Tensor)``. PhysicsInformed (Poisson; with ``ScalarWeighting`` and with
``NeuralTangentKernelWeighting``), SelfAdaptive, Causal (Burgers), GradientPhysicsInformed,
RBA, Competitive, PhysicsInformedEnsemble, Supervised (and with a POD+RBF reduced-order model,
the ``ReducedOrderModelSolver`` of older PINA, which this release does not have).

Left out: the Autoregressive solvers (time-series conditions), the optimizer / scheduler steps and
the Lightning ``fit`` loop, ``InversePoisson2DSquareProblem`` (reads data files).
"""

PACKAGE = "pina"
DISTRIBUTION = "pina-mathlab"

mean_loss_module = None  # set by ZooSuite


def warm_up():
    import torch  # noqa: F401
    import pina, pina.model, pina.solver, pina.operator, pina.problem.zoo  # noqa: F401,E401


def _mean(net, mode, *args):
    if mode == "train":
        return mean_loss_module()(net), args, {}
    return net, args, {}


def _lt(n, labels):
    import torch
    from pina import LabelTensor

    return LabelTensor(torch.rand(n, len(labels)), labels)


# --- models -------------------------------------------------------------------------------

def _feedforward(mode):
    import torch
    from pina.model import FeedForward

    return _mean(FeedForward(3, 2, inner_size=16, n_layers=2), mode, torch.rand(8, 3))


def _feedforward_lt(mode):
    from pina.model import FeedForward

    return _mean(FeedForward(2, 1, inner_size=16, n_layers=2), mode, _lt(8, ["x", "y"]))


def _feedforward_layers(mode):
    import torch
    from pina.model import FeedForward

    return _mean(FeedForward(3, 2, layers=[8, 16, 8], func=torch.nn.ReLU), mode, torch.rand(8, 3))


def _residual_ff(mode):
    import torch
    from pina.model import ResidualFeedForward

    return _mean(ResidualFeedForward(3, 2, inner_size=16, n_layers=2), mode, torch.rand(8, 3))


def _multi_ff(mode):
    import torch
    from pina.model import MultiFeedForward

    class Net(MultiFeedForward):
        def forward(self, x):
            return self.u(x) * self.v(x)

    net = Net({"u": {"input_dimensions": 3, "output_dimensions": 1, "inner_size": 8},
               "v": {"input_dimensions": 3, "output_dimensions": 1, "inner_size": 8}})
    return _mean(net, mode, torch.rand(8, 3))


def _deeponet(mode):
    from pina.model import DeepONet, FeedForward

    net = DeepONet(branch_net=FeedForward(2, 10, inner_size=8), trunk_net=FeedForward(1, 10, inner_size=8),
                   input_indeces_branch_net=["a", "b"], input_indeces_trunk_net=["x"])
    return _mean(net, mode, _lt(8, ["a", "b", "x"]))


def _deeponet_int(mode):
    import torch
    from pina.model import DeepONet, FeedForward

    net = DeepONet(branch_net=FeedForward(2, 10, inner_size=8), trunk_net=FeedForward(1, 10, inner_size=8),
                   input_indeces_branch_net=[0, 1], input_indeces_trunk_net=[2], aggregator="+",
                   reduction="mean")
    return _mean(net, mode, torch.rand(8, 3))


def _mionet(mode):
    from pina.model import MIONet, FeedForward

    nets = {FeedForward(1, 10, inner_size=8): ["a"], FeedForward(1, 10, inner_size=8): ["b"],
            FeedForward(1, 10, inner_size=8): ["x"]}
    return _mean(MIONet(nets), mode, _lt(8, ["a", "b", "x"]))


def _fno(mode):
    import torch
    from pina.model import FNO, FeedForward

    net = FNO(lifting_net=FeedForward(1, 8, inner_size=8), projecting_net=FeedForward(8, 1, inner_size=8),
              n_modes=4, dimensions=2, padding=2, inner_size=8, n_layers=2)
    return _mean(net, mode, torch.rand(2, 12, 12, 1))


def _fourier_kernel(mode):
    import torch
    from pina.model import FourierIntegralKernel

    net = FourierIntegralKernel(4, 4, n_modes=4, dimensions=1, padding=2, inner_size=8, n_layers=2)
    return _mean(net, mode, torch.rand(2, 16, 4))


def _kno(mode):
    import torch
    from pina.model import KernelNeuralOperator
    from pina.model.block import FourierBlock1D

    lift = torch.nn.Linear(1, 8)
    kernels = torch.nn.Sequential(FourierBlock1D(8, 8, n_modes=4), FourierBlock1D(8, 8, n_modes=4))

    class Proj(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(8, 1)

        def forward(self, x):
            return self.lin(x.permute(0, 2, 1))

    class Lift(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lift

        def forward(self, x):
            return self.lin(x).permute(0, 2, 1)

    return _mean(KernelNeuralOperator(Lift(), kernels, Proj()), mode, torch.rand(2, 16, 1))


def _avno(mode):
    from pina.model import AveragingNeuralOperator, FeedForward

    net = AveragingNeuralOperator(lifting_net=FeedForward(3, 8, inner_size=8), projecting_net=FeedForward(10, 1, inner_size=8),
                                  field_indices=["u"], coordinates_indices=["x", "y"], n_layers=2)
    return _mean(net, mode, _lt3())


def _lno(mode):
    from pina.model import LowRankNeuralOperator, FeedForward

    net = LowRankNeuralOperator(lifting_net=FeedForward(3, 8, inner_size=8), projecting_net=FeedForward(10, 1, inner_size=8),
                                field_indices=["u"], coordinates_indices=["x", "y"], n_kernel_layers=2, rank=3,
                                inner_size=8)
    return _mean(net, mode, _lt3())


def _lt3():
    import torch
    from pina import LabelTensor

    return LabelTensor(torch.rand(2, 10, 3), ["x", "y", "u"])


def _graph(n=10, f=2, e=3):
    import torch
    from torch_geometric.data import Data

    src = torch.arange(n).repeat_interleave(2)
    dst = torch.stack([(torch.arange(n) + 1) % n, (torch.arange(n) - 1) % n], 1).reshape(-1)
    return Data(x=torch.rand(n, f), edge_index=torch.stack([src, dst]), edge_attr=torch.rand(2 * n, e),
                pos=torch.rand(n, 3), vel=torch.rand(n, 3))


def _gno(mode):
    import torch
    from pina.model import GraphNeuralOperator

    net = GraphNeuralOperator(lifting_operator=torch.nn.Linear(2, 8), projection_operator=torch.nn.Linear(8, 1),
                              edge_features=3, n_layers=2, inner_size=8)
    return _mean(net, mode, _graph())


def _gno_unshared(mode):
    import torch
    from pina.model import GraphNeuralOperator

    net = GraphNeuralOperator(lifting_operator=torch.nn.Linear(2, 8), projection_operator=torch.nn.Linear(8, 1),
                              edge_features=3, n_layers=2, internal_n_layers=2, inner_size=8,
                              shared_weights=False)
    return _mean(net, mode, _graph())


def _egno(mode):
    import torch
    from pina.model import EquivariantGraphNeuralOperator

    net = EquivariantGraphNeuralOperator(n_egno_layers=2, node_feature_dim=4, edge_feature_dim=3, pos_dim=3,
                                         modes=2, time_steps=2, hidden_dim=8, time_emb_dim=4)
    class Out(torch.nn.Module):  # the model returns a Data graph: its positions and features
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, g):
            out = self.net(g)
            return out.pos, out.x
    return _mean(Out(), mode, _graph(f=4))


def _spline(mode):
    import torch
    from pina.model import Spline

    return _mean(Spline(order=3, control_points=torch.rand(6)), mode, torch.rand(8, 1))


def _vspline(mode):
    import torch
    from pina.model import VectorizedSpline

    return _mean(VectorizedSpline(order=3, control_points=torch.rand(2, 6)), mode, torch.rand(8, 2))


def _spline_surface(mode):
    import torch
    from pina.model import SplineSurface

    return _mean(SplineSurface(orders=[3, 3], control_points=torch.rand(5, 5)), mode, torch.rand(8, 2))


def _piratenet(mode):
    import torch
    from pina.model import PirateNet

    return _mean(PirateNet(input_dimension=2, inner_size=8, output_dimension=1, n_layers=2), mode, torch.rand(8, 2))


def _sindy(mode):
    import torch
    from pina.model import SINDy

    return _mean(SINDy(library=[lambda x: x, lambda x: x ** 2, torch.sin], output_dimension=2), mode, torch.rand(8, 2))


def _kan(mode):
    import torch
    from pina.model import KolmogorovArnoldNetwork

    return _mean(KolmogorovArnoldNetwork([2, 6, 1], spline_order=3, n_knots=6), mode, torch.rand(8, 2))


# --- blocks -------------------------------------------------------------------------------

def _cconv(mode):
    import torch
    from pina.model.block import ContinuousConvBlock

    net = ContinuousConvBlock(1, 2, filter_dim=[0.2, 0.2], stride={"domain": [1, 1], "start": [0, 0],
                                                                   "jumps": [0.1, 0.1], "direction": [1, 1]})
    return _mean(net, mode, torch.rand(2, 1, 30, 3))


def _resblock(mode):
    import torch
    from pina.model.block import ResidualBlock

    return _mean(ResidualBlock(4, 3, 8, spectral_norm=True), mode, torch.rand(8, 4))


def _enhanced_linear(mode):
    import torch
    from pina.model.block import EnhancedLinear

    return _mean(EnhancedLinear(torch.nn.Linear(4, 4), torch.nn.Tanh(), dropout=0.1), mode, torch.rand(8, 4))


def _spectral2d(mode):
    import torch
    from pina.model.block import SpectralConvBlock2D

    return _mean(SpectralConvBlock2D(2, 3, n_modes=[3, 3]), mode, torch.rand(2, 2, 10, 10))


def _fourier3d(mode):
    import torch
    from pina.model.block import FourierBlock3D

    return _mean(FourierBlock3D(2, 2, n_modes=[2, 2, 2]), mode, torch.rand(2, 2, 6, 6, 6))


def _pod_rbf(mode):
    import torch
    from pina.model.block import PODBlock, RBFBlock

    class PODRBF(torch.nn.Module):  # the tutorials' reduced-order model
        def __init__(self):
            super().__init__()
            self.pod = PODBlock(rank=3)
            self.rbf = RBFBlock(kernel="thin_plate_spline")

        def fit(self, p, s):
            self.pod.fit(s)
            self.rbf.fit(p, self.pod.reduce(s))

        def forward(self, p):
            return self.pod.expand(self.rbf(p))

    net = PODRBF()
    net.fit(torch.rand(20, 2), torch.rand(20, 30))
    return _mean(net, mode, torch.rand(8, 2))


def _pod(mode):
    import torch
    from pina.model.block import PODBlock

    net = PODBlock(rank=3)
    net.fit(torch.rand(20, 30))
    return _mean(net, mode, torch.rand(8, 30))


def _rbf(mode):
    import torch
    from pina.model.block import RBFBlock

    net = RBFBlock(kernel="gaussian", epsilon=1.0, degree=1)
    net.fit(torch.rand(20, 2), torch.rand(20, 1))
    return _mean(net, mode, torch.rand(8, 2))


def _orthogonal(mode):
    import torch
    from pina.model.block import OrthogonalBlock

    return _mean(OrthogonalBlock(dim=-1), mode, torch.rand(6, 4))


def _periodic(mode):
    import torch
    from pina.model import FeedForward
    from pina.model.block import PeriodicBoundaryEmbedding

    net = torch.nn.Sequential(PeriodicBoundaryEmbedding(input_dimension=2, periods={"x": 1.0, "y": 2.0}, output_dimension=6),
                              FeedForward(6, 1, inner_size=8))
    return _mean(net, mode, _lt(8, ["x", "y"]))


def _fourier_features(mode):
    import torch
    from pina.model import FeedForward
    from pina.model.block import FourierFeatureEmbedding

    net = torch.nn.Sequential(FourierFeatureEmbedding(2, 8, sigma=2.0), FeedForward(8, 1, inner_size=8))
    return _mean(net, mode, torch.rand(8, 2))


def _kanblock(mode):
    import torch
    from pina.model.block import KANBlock

    return _mean(KANBlock(3, 2, n_knots=6), mode, torch.rand(8, 3))


def _message_passing(mode):
    import torch
    from pina.model.block.message_passing import InteractionNetworkBlock

    g = _graph(f=4)
    return _mean(InteractionNetworkBlock(node_feature_dim=4, edge_feature_dim=3, hidden_dim=8), mode,
                 g.x, g.edge_index, g.edge_attr)


# --- LabelTensor and operators ------------------------------------------------------------

def _operators(fast):
    def make(mode):
        import torch
        from pina import LabelTensor
        from pina.model import FeedForward
        import pina.operator as op

        class Residual(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = FeedForward(3, 3, inner_size=8)

            def forward(self, pts):
                with torch.enable_grad():  # as PINA's validation_step: the residuals need autograd
                    pts = pts.requires_grad_()
                    u = LabelTensor(self.net(pts), ["u", "v", "w"])
                    x_t = pts.extract(["x", "y"])
                    vel = ["v", "w"]
                    if fast:
                        g = op.fast_grad(u, pts, components=["u"], d=["x", "y"])
                        lap = op.fast_laplacian(u, pts, components=["u"], d=["x", "y"])
                        dv = op.fast_div(u, pts, components=["v", "w"], d=["x", "y"])
                        adv = op.fast_advection(u, pts, velocity_field=vel, components=["u"], d=["x", "y"])
                    else:
                        g = op.grad(u, pts, d=["x", "y"])
                        lap = op.laplacian(u, pts, components=["u"], d=["x", "y"])
                        dv = op.div(u, pts, components=["v", "w"], d=["x", "y"])
                        adv = op.advection(u, pts, velocity_field=vel, components=["u"], d=["x", "y"])
                    dt = op.grad(u, pts, components=["u"], d=["t"])
                    out = g.append(lap).append(dv).append(dt)
                    return out.sum() + adv.sum() + (x_t ** 2).sum()
        return Residual(), (_lt(8, ["x", "y", "t"]),), {}
    return make


def _labeltensor_ops(mode):
    import torch
    from pina import LabelTensor
    from pina.model import FeedForward

    class Ops(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = FeedForward(2, 2, inner_size=8)

        def forward(self, a, b):
            x = LabelTensor.cat([a, b], dim=0)
            y = x.extract(["x", "y"])
            out = LabelTensor(self.net(y), ["p", "q"])
            z = out.append(x.extract(["t"]))
            w = z.extract(["p", "t"])
            return (w * 2.0 + 1).sum(dim=-1).mean()
    return Ops(), (_lt(4, ["x", "y", "t"]), _lt(4, ["x", "y", "t"])), {}


# --- solvers ------------------------------------------------------------------------------

def _problem(kind):
    import torch
    from pina.problem.zoo import Poisson2DSquareProblem, AdvectionProblem, BurgersProblem, SupervisedProblem

    if kind == "supervised":
        return SupervisedProblem(torch.rand(16, 2), torch.rand(16, 1))
    if kind == "rom":
        return SupervisedProblem(torch.rand(16, 2), torch.rand(16, 30))
    p = {"poisson": Poisson2DSquareProblem, "advection": AdvectionProblem, "burgers": BurgersProblem}[kind]()
    p.discretise_domain(n=8, mode="random")
    return p


def _batch(solver):
    from pina import Trainer

    tr = Trainer(solver, max_epochs=1, batch_size=None, accelerator="cpu", logger=False,
                 enable_model_summary=False, enable_progress_bar=False)
    solver.trainer = tr  # the weightings read trainer.current_epoch (0 here)
    dm = tr.data_module
    dm.setup("fit")
    return list(next(iter(dm.train_dataloader())).items())


def _step_cls():
    import torch

    class _Step(torch.nn.Module):
        """ConditionAggregatorMixin.batch_evaluation_step without the Lightning logging."""

        def __init__(self, solver):
            super().__init__()
            self.solver = solver

        def forward(self, batch):
            s = self.solver
            condition_losses = {}
            for condition_name, data in batch:
                condition_losses[condition_name] = s._compute_condition_loss(
                    condition=s.problem.conditions[condition_name], data=dict(data), batch_idx=0)
            s._clamp_params()
            return s.weighting.aggregate(condition_losses).as_subclass(torch.Tensor)
    return _Step


def _solver(kind, problem, build):
    def make(mode):
        p = _problem(problem)
        solver = build(p)
        batch = _batch(solver)
        if mode == "train":
            return _step_cls()(solver), (batch,), {}
        return solver, (batch[-1][1]["input"],), {}
    return make


def _ff(i, o):
    from pina.model import FeedForward

    return FeedForward(i, o, inner_size=8, n_layers=2)


def _pinn(p):
    from pina.solver import PhysicsInformedSingleModelSolver
    return PhysicsInformedSingleModelSolver(p, _ff(2, 1))


def _pinn_scalar(p):
    from pina.solver import PhysicsInformedSingleModelSolver
    from pina.weighting import ScalarWeighting
    return PhysicsInformedSingleModelSolver(p, _ff(2, 1), weighting=ScalarWeighting(weights={"boundary": 10.0, "D": 1.0}))


def _pinn_ntk(p):
    from pina.solver import PhysicsInformedSingleModelSolver
    from pina.weighting import NeuralTangentKernelWeighting
    return PhysicsInformedSingleModelSolver(p, _ff(2, 1), weighting=NeuralTangentKernelWeighting())


def _pinn_lp(p):
    from pina.solver import PhysicsInformedSingleModelSolver
    from pina.loss import LpLoss
    return PhysicsInformedSingleModelSolver(p, _ff(2, 1), loss=LpLoss(p=2, relative=False))


def _sapinn(p):
    from pina.solver import SelfAdaptivePhysicsInformedSolver
    return SelfAdaptivePhysicsInformedSolver(p, _ff(2, 1))


def _causal(p):
    from pina.solver import CausalPhysicsInformedSingleModelSolver
    return CausalPhysicsInformedSingleModelSolver(p, _ff(2, 1), n_steps=4, regularized_conditions=["D"])


def _gpinn(p):
    from pina.solver import GradientPhysicsInformedSingleModelSolver
    return GradientPhysicsInformedSingleModelSolver(p, _ff(2, 1), regularized_conditions=["D"])


def _rba(p):
    from pina.solver import RBAPhysicsInformedSingleModelSolver
    return RBAPhysicsInformedSingleModelSolver(p, _ff(2, 1), regularized_conditions=["D"])


def _competitive(p):
    from pina.solver import CompetitivePhysicsInformedSolver
    return CompetitivePhysicsInformedSolver(p, _ff(2, 1))


def _ensemble_pinn(p):
    from pina.solver import PhysicsInformedEnsembleSolver
    return PhysicsInformedEnsembleSolver(p, [_ff(2, 1), _ff(2, 1)])


def _supervised(p):
    from pina.solver import SupervisedSingleModelSolver
    return SupervisedSingleModelSolver(p, _ff(2, 1), use_lt=False)


def _supervised_ensemble(p):
    from pina.solver import SupervisedEnsembleSolver
    return SupervisedEnsembleSolver(p, [_ff(2, 1), _ff(2, 1)], use_lt=False)


def _rom(p):
    import torch
    from pina.solver import SupervisedSingleModelSolver
    from pina.model.block import PODBlock

    class ROM(torch.nn.Module):  # ReducedOrderModelSolver's reduction / interpolation networks
        def __init__(self):
            super().__init__()
            self.pod = PODBlock(rank=3)
            self.pod.fit(torch.rand(16, 30))
            self.interp = _ff(2, 3)

        def forward(self, x):
            return self.pod.expand(self.interp(x))

    return SupervisedSingleModelSolver(p, ROM(), use_lt=False)


MODELS = {
    "FeedForward": _feedforward,
    "FeedForward_LabelTensor": _feedforward_lt,
    "FeedForward_layers": _feedforward_layers,
    "ResidualFeedForward": _residual_ff,
    "MultiFeedForward": _multi_ff,
    "DeepONet": _deeponet,
    "DeepONet_indices_mean": _deeponet_int,
    "MIONet": _mionet,
    "FNO": _fno,
    "FourierIntegralKernel": _fourier_kernel,
    "KernelNeuralOperator": _kno,
    "AveragingNeuralOperator": _avno,
    "LowRankNeuralOperator": _lno,
    "GraphNeuralOperator": _gno,
    "GraphNeuralOperator_unshared": _gno_unshared,
    "EquivariantGraphNeuralOperator": _egno,
    "Spline": _spline,
    "VectorizedSpline": _vspline,
    "SplineSurface": _spline_surface,
    "PirateNet": _piratenet,
    "SINDy": _sindy,
    "KolmogorovArnoldNetwork": _kan,
    "ContinuousConvBlock": _cconv,
    "ResidualBlock": _resblock,
    "EnhancedLinear": _enhanced_linear,
    "SpectralConvBlock2D": _spectral2d,
    "FourierBlock3D": _fourier3d,
    "PODBlock": _pod,
    "RBFBlock": _rbf,
    "POD_RBF": _pod_rbf,
    "OrthogonalBlock": _orthogonal,
    "PeriodicBoundaryEmbedding": _periodic,
    "FourierFeatureEmbedding": _fourier_features,
    "KANBlock": _kanblock,
    "InteractionNetworkBlock": _message_passing,
    "operators": _operators(False),
    "operators_fast": _operators(True),
    "LabelTensor_ops": _labeltensor_ops,
    "PINN": _solver("pinn", "poisson", _pinn),
    "PINN_ScalarWeighting": _solver("pinn", "poisson", _pinn_scalar),
    "PINN_NTKWeighting": _solver("pinn", "poisson", _pinn_ntk),
    "PINN_LpLoss": _solver("pinn", "poisson", _pinn_lp),
    "SelfAdaptivePINN": _solver("sapinn", "poisson", _sapinn),
    "CausalPINN": _solver("causal", "burgers", _causal),
    "GradientPINN": _solver("gpinn", "poisson", _gpinn),
    "RBAPINN": _solver("rba", "poisson", _rba),
    "CompetitivePINN": _solver("cpinn", "poisson", _competitive),
    "PhysicsInformedEnsemble": _solver("epinn", "poisson", _ensemble_pinn),
    "SupervisedSolver": _solver("sup", "supervised", _supervised),
    "SupervisedEnsemble": _solver("supe", "supervised", _supervised_ensemble),
    "ReducedOrderModel": _solver("rom", "rom", _rom),
}
