"""TorchJD 0.18.0: Jacobian descent for multi-objective optimisation, used as its README, docs
and examples use it; tiny (a 3 x 12 random Jacobian, a shared encoder 10 -> 8 -> 6 with three
one-output regression heads on a batch of 16), random weights, no download:

- every ``torchjd.aggregation`` aggregator applied to a random Jacobian matrix (eval) and, in
  train, inside the docs' multi-task training step (``examples/mtl``): shared encoder, task
  heads, MSE losses, ``autojac.mtl_backward(losses, features=features)`` then
  ``autojac.jac_to_grad(shared.parameters(), aggregator)``: ``UPGrad`` (default, with a
  preference vector), ``MGDA``, ``CAGrad``, ``DualProj`` (and with a preference vector),
  ``PCGrad``, ``IMTLG``, ``GradDrop``, ``NashMTL``, ``AlignedMTL`` (two scale modes), ``Krum``,
  ``TrimmedMean``, ``Mean``, ``Sum``, ``Random``, ``ConFIG``, ``Constant``, ``FairGrad``,
  ``GradVac``, ``PCD``, ``ExcessMTL``, and ``GramianWeightedAggregator(CRMOGMWeighting(
  UPGradWeighting()))`` (CR-MOGM's docstring);
- the weighting-only ``MoDoWeighting`` and ``SDMGradWeighting`` on ``J1 @ J2.T`` of two random
  Jacobians (eval) and, in train, in their docstrings' step: three batches of 3 examples,
  ``autojac.jac`` of the first two batches' per-example losses, ``weights = weighting(J1 @ J2.T)``,
  ``losses_3.backward(weights)``;
- ``autojac`` on its own: ``backward`` of per-instance losses then ``jac_to_grad`` (the docs'
  IWRM example, ``examples/iwrm``, with ``parallel_chunk_size=1`` too), ``jac`` (functional
  Jacobians, aggregated by hand), ``jac_to_grad(..., optimize_gramian_computation=True)`` and
  ``mtl_backward`` with ``parallel_chunk_size=1`` (the docs' advice when ``vmap`` fails);
- ``autogram.Engine`` (the docs' Gramian-based step: ``engine.compute_gramian(losses)``,
  ``weights = weighting(gramian)``, ``losses.backward(weights)``) with ``batch_dim=0`` and
  ``batch_dim=None``, for ``UPGradWeighting``, ``MGDAWeighting``, ``DualProjWeighting``,
  ``IMTLGWeighting``, ``AlignedMTLWeighting``, ``CRMOGMWeighting(UPGradWeighting())`` (eval: the
  weighting on a random Gramian);
- ``torchjd.scalarization`` scalarizers on a vector of three task losses (eval: random positive
  losses; train: the multi-task losses of the shared model, scalarized, a plain loss to
  backpropagate): ``Mean``, ``Sum``, ``Constant``, ``Random``, ``GeometricMean``, ``UW``,
  ``IMTLL``, ``DWA``, ``FAMO`` (train: forward, then ``update`` on the same losses as its
  docstring's loop does after the step), ``STCH``, ``PBI``, ``COSMOS``.

Eval: the callable's outputs as the library returns them, no gradients. Train: the training step
a user compiles (the Jacobian-descent step from the docs, without ``optimizer.step()``: it returns
the stacked task losses, detached, as the docs' loops log them; the ``.jac`` / ``.grad`` fields are
its effect) or, for the scalarizers, the scalarized loss. Measured first as it came, before any
rule looked at it.

    pip install --no-deps torchjd==0.18.0
    pip install --no-deps quadprog==0.1.13 qpsolvers==4.8.1
    pip install --no-deps cvxpy-base==1.9.3 qdldl==0.1.9.post1 sparsediffpy==0.6.1 clarabel==0.11.1 ecos==2.0.14

``torchjd`` imports only torch at its top; the solvers are optional extras imported in
``contextlib.suppress(ImportError)`` blocks and checked when an aggregator is built:
``quadprog`` + ``qpsolvers`` (the default ``QuadprogProjector`` of ``UPGrad`` / ``DualProj``),
``cvxpy`` + ``clarabel`` (``CAGrad``), ``cvxpy`` + ``ecos`` (``NashMTL``), ``scipy`` (``FairGrad``,
already installed, as are numpy and cffi). ``cvxpy-base`` is ``cvxpy`` without its default-solver
dependencies (osqp, scs), which nothing here uses; it needs ``qdldl`` and ``sparsediffpy<0.7``.
Nothing stubbed. (quadprog, qdldl, sparsediffpy, clarabel, ecos and cvxpy-base ship compiled
wheels; none pulls torch.)

Left out: ``Stateful.reset`` calls and the Python-side bookkeeping around the loops (optimizer,
learning-rate schedules, ``CRMOGMWeighting.alpha`` updates).
"""

import functools

PACKAGE = "torchjd"

_M = 3  # objectives / tasks
_N = 12  # Jacobian columns
_B = 16  # batch
_IN = 10


@functools.cache
def _classes():
    import torch
    from torch import nn

    def make_shared():
        return nn.Sequential(nn.Linear(_IN, 8), nn.ReLU(), nn.Linear(8, 6), nn.ReLU())

    class Aggregate(nn.Module):
        """An aggregator (or a weighting) applied to a matrix."""

        def __init__(self, agg):
            super().__init__()
            self.agg = agg

        def forward(self, matrix):
            return self.agg(matrix)

    class MTLStep(nn.Module):
        """The docs' multi-task step: shared encoder, one head per task, mtl_backward, jac_to_grad."""

        def __init__(self, aggregator, parallel_chunk_size=None, optimize_gramian=False):
            super().__init__()
            self.shared = make_shared()
            self.heads = nn.ModuleList([nn.Linear(6, 1) for _ in range(_M)])
            self.aggregator = aggregator
            self.loss_fn = nn.MSELoss()
            self.parallel_chunk_size = parallel_chunk_size
            self.optimize_gramian = optimize_gramian

        def forward(self, x, targets):
            from torchjd.autojac import jac_to_grad, mtl_backward

            features = self.shared(x)
            losses = [self.loss_fn(head(features).squeeze(-1), targets[:, i]) for i, head in enumerate(self.heads)]
            mtl_backward(losses, features=features, parallel_chunk_size=self.parallel_chunk_size)
            if self.optimize_gramian:
                jac_to_grad(self.shared.parameters(), self.aggregator, optimize_gramian_computation=True)
            else:
                jac_to_grad(self.shared.parameters(), self.aggregator)
            return torch.stack([loss.detach() for loss in losses])

    class IWRMStep(nn.Module):
        """The README's instance-wise risk minimisation: one loss per example, backward, jac_to_grad."""

        def __init__(self, aggregator, parallel_chunk_size=None):
            super().__init__()
            self.model = nn.Sequential(nn.Linear(_IN, 5), nn.ReLU(), nn.Linear(5, 1))
            self.loss_fn = nn.MSELoss(reduction="none")
            self.aggregator = aggregator
            self.parallel_chunk_size = parallel_chunk_size

        def forward(self, x, targets):
            from torchjd.autojac import backward, jac_to_grad

            output = self.model(x).squeeze(dim=1)
            losses = self.loss_fn(output, targets[:, 0])
            backward(losses, parallel_chunk_size=self.parallel_chunk_size)
            jac_to_grad(self.model.parameters(), self.aggregator)
            return losses.detach()

    class FunctionalJac(nn.Module):
        """``autojac.jac`` of the task losses w.r.t. the shared parameters, aggregated by hand."""

        def __init__(self, aggregator):
            super().__init__()
            self.shared = make_shared()
            self.head = nn.Linear(6, _M)
            self.aggregator = aggregator

        def forward(self, x, targets):
            from torchjd.autojac import jac

            out = self.head(self.shared(x))
            losses = (out - targets).pow(2).mean(dim=0)
            params = list(self.shared.parameters())
            jacobians = jac(losses, params)
            matrix = torch.cat([j.reshape(_M, -1) for j in jacobians], dim=1)
            update = self.aggregator(matrix)
            return losses.detach(), update

    class GramianStep(nn.Module):
        """The autogram docs' step: compute_gramian, weighting, losses.backward(weights)."""

        def __init__(self, weighting, batch_dim):
            super().__init__()
            from torchjd.autogram import Engine

            self.model = nn.Sequential(nn.Linear(_IN, 4), nn.ReLU(), nn.Linear(4, 1))
            self.criterion = nn.MSELoss(reduction="none")
            self.weighting = weighting
            self.engine = Engine(self.model, batch_dim=batch_dim)

        def forward(self, x, targets):
            output = self.model(x).squeeze(dim=1)
            losses = self.criterion(output, targets[:, 0])
            gramian = self.engine.compute_gramian(losses)
            weights = self.weighting(gramian)
            losses.backward(weights)
            return losses.detach(), weights

    class ScalarizedMTL(nn.Module):
        """Multi-task losses of the shared model reduced by a scalarizer (a plain loss)."""

        def __init__(self, scalarizer, update=False):
            super().__init__()
            self.shared = make_shared()
            self.heads = nn.ModuleList([nn.Linear(6, 1) for _ in range(_M)])
            self.scalarizer = scalarizer
            self.update = update

        def forward(self, x, targets):
            features = self.shared(x)
            losses = torch.stack([(head(features).squeeze(-1) - targets[:, i]).pow(2).mean()
                                  for i, head in enumerate(self.heads)])
            loss = self.scalarizer(losses)
            if self.update:
                self.scalarizer.update(losses.detach())
            return loss

    class CrossGramianStep(nn.Module):
        """MoDo / SDMGrad as their docs run them: J1 J2^T from two batches via ``jac``, weights,
        then the third batch's losses backpropagated with them."""

        def __init__(self, weighting):
            super().__init__()
            self.model = nn.Sequential(nn.Linear(_IN, 4), nn.ReLU(), nn.Linear(4, 1))
            self.criterion = nn.MSELoss(reduction="none")
            self.weighting = weighting

        def forward(self, inputs, targets):
            from torchjd.autojac import jac

            params = list(self.model.parameters())
            losses_1 = self.criterion(self.model(inputs[0]).squeeze(dim=1), targets[0])
            J_1 = torch.cat([j.flatten(1) for j in jac(losses_1, params)], dim=1)
            losses_2 = self.criterion(self.model(inputs[1]).squeeze(dim=1), targets[1])
            J_2 = torch.cat([j.flatten(1) for j in jac(losses_2, params)], dim=1)
            weights = self.weighting(J_1 @ J_2.T)
            losses_3 = self.criterion(self.model(inputs[2]).squeeze(dim=1), targets[2])
            losses_3.backward(weights)
            return losses_3.detach(), weights

    return Aggregate, MTLStep, IWRMStep, FunctionalJac, GramianStep, ScalarizedMTL, CrossGramianStep


def _batch():
    import torch

    return torch.randn(_B, _IN), torch.randn(_B, _M)


def _agg(build):
    """An aggregator: applied to a random Jacobian (eval), inside the multi-task step (train)."""

    def make(mode):
        import torch

        Aggregate, MTLStep = _classes()[:2]
        if mode == "train":
            return MTLStep(build()), _batch(), {}
        return Aggregate(build()), (torch.randn(_M, _N),), {}

    return make


def _gramian_weighting(build, batch_dim=0):
    """A Gramian weighting: on a random Gramian (eval), in the autogram Engine step (train)."""

    def make(mode):
        import torch

        Aggregate, GramianStep = _classes()[0], _classes()[4]
        if mode == "train":
            return GramianStep(build(), batch_dim), _batch(), {}
        j = torch.randn(_M, _N)
        return Aggregate(build()), (j @ j.T,), {}

    return make


def _step(kind, build, **kw):
    """An autojac use (train) or the aggregator it uses on a random Jacobian (eval)."""

    def make(mode):
        import torch

        Aggregate, MTLStep, IWRMStep, FunctionalJac = _classes()[:4]
        if mode == "eval":
            return Aggregate(build()), (torch.randn(_M, _N),), {}
        cls = {"mtl": MTLStep, "iwrm": IWRMStep, "jac": FunctionalJac}[kind]
        return cls(build(), **kw), _batch(), {}

    return make


def _cross_gramian(build):
    """MoDo / SDMGrad weightings: on J1 J2^T of two random Jacobians (eval), in their docs'
    three-batch step (train)."""

    def make(mode):
        import torch

        Aggregate, CrossGramianStep = _classes()[0], _classes()[6]
        if mode == "train":
            return CrossGramianStep(build()), (torch.randn(3, _M, _IN), torch.randn(3, _M)), {}
        j1, j2 = torch.randn(_M, _N), torch.randn(_M, _N)
        return Aggregate(build()), (j1 @ j2.T,), {}

    return make


def _scalarizer(build, update=False, positive=True):
    def make(mode):
        import torch

        Aggregate, ScalarizedMTL = _classes()[0], _classes()[5]
        if mode == "train":
            return ScalarizedMTL(build(), update=update), _batch(), {}
        losses = torch.rand(_M) + 0.1 if positive else torch.randn(_M)
        return Aggregate(build()), (losses,), {}

    return make


def _a(name, *args, **kwargs):
    def build():
        import torchjd.aggregation as A

        return getattr(A, name)(*args, **kwargs)

    return build


def _pref(name, values, **kwargs):
    def build():
        import torch
        import torchjd.aggregation as A

        return getattr(A, name)(pref_vector=torch.tensor(values), **kwargs)

    return build


def _constant():
    import torch
    from torchjd.aggregation import Constant

    return Constant(torch.tensor([1.0, 2.0, 0.5]))


def _cr_mogm():
    from torchjd.aggregation import CRMOGMWeighting, UPGradWeighting

    return CRMOGMWeighting(UPGradWeighting(), alpha=0.9)


def _cr_mogm_aggregator():
    from torchjd.aggregation import GramianWeightedAggregator

    return GramianWeightedAggregator(_cr_mogm())


def _s(name, *args, **kwargs):
    def build():
        import torchjd.scalarization as S

        return getattr(S, name)(*args, **kwargs)

    return build


def _s_weights(name, *args, **kwargs):
    def build():
        import torch
        import torchjd.scalarization as S

        return getattr(S, name)(*args, weights=torch.tensor([0.5, 0.3, 0.2]), **kwargs)

    return build


def _famo():
    from torchjd.scalarization import FAMO

    return FAMO(_M)


MODELS = {
    "UPGrad": _agg(_a("UPGrad")),
    "UPGrad_pref_vector": _agg(_pref("UPGrad", [1.0, 2.0, 1.0])),
    "MGDA": _agg(_a("MGDA")),
    "CAGrad": _agg(_a("CAGrad", c=0.5)),
    "DualProj": _agg(_a("DualProj")),
    "DualProj_pref_vector": _agg(_pref("DualProj", [1.0, 1.0, 2.0])),
    "PCGrad": _agg(_a("PCGrad")),
    "IMTLG": _agg(_a("IMTLG")),
    "GradDrop": _agg(_a("GradDrop")),
    "NashMTL": _agg(_a("NashMTL", n_tasks=_M)),
    "AlignedMTL": _agg(_a("AlignedMTL")),
    "AlignedMTL_median": _agg(_a("AlignedMTL", scale_mode="median")),
    "Krum": _agg(_a("Krum", n_byzantine=0, n_selected=1)),
    "TrimmedMean": _agg(_a("TrimmedMean", trim_number=1)),
    "Mean": _agg(_a("Mean")),
    "Sum": _agg(_a("Sum")),
    "Random": _agg(_a("Random")),
    "ConFIG": _agg(_a("ConFIG")),
    "Constant": _agg(_constant),
    "FairGrad": _agg(_a("FairGrad", alpha=1.0)),
    "GradVac": _agg(_a("GradVac")),
    "PCD": _agg(_a("PCD")),
    "ExcessMTL": _agg(_a("ExcessMTL")),
    "MoDoWeighting": _cross_gramian(_a("MoDoWeighting", gamma=0.1, rho=0.0)),
    "SDMGradWeighting": _cross_gramian(_a("SDMGradWeighting", lambda_=0.3)),
    "CRMOGM_UPGrad": _agg(_cr_mogm_aggregator),
    # autojac uses
    "mtl_backward_chunk1_UPGrad": _step("mtl", _a("UPGrad"), parallel_chunk_size=1),
    "mtl_backward_optimize_gramian_UPGrad": _step("mtl", _a("UPGrad"), optimize_gramian=True),
    "backward_iwrm_UPGrad": _step("iwrm", _a("UPGrad")),
    "backward_iwrm_chunk1_Mean": _step("iwrm", _a("Mean"), parallel_chunk_size=1),
    "jac_functional_UPGrad": _step("jac", _a("UPGrad")),
    # autogram Engine
    "Engine_UPGradWeighting": _gramian_weighting(_a("UPGradWeighting")),
    "Engine_nobatch_UPGradWeighting": _gramian_weighting(_a("UPGradWeighting"), batch_dim=None),
    "Engine_MGDAWeighting": _gramian_weighting(_a("MGDAWeighting")),
    "Engine_DualProjWeighting": _gramian_weighting(_a("DualProjWeighting")),
    "Engine_IMTLGWeighting": _gramian_weighting(_a("IMTLGWeighting")),
    "Engine_AlignedMTLWeighting": _gramian_weighting(_a("AlignedMTLWeighting")),
    "Engine_CRMOGMWeighting": _gramian_weighting(_cr_mogm),
    # scalarizers
    "scalarization_Mean": _scalarizer(_s("Mean")),
    "scalarization_Sum": _scalarizer(_s("Sum")),
    "scalarization_Constant": _scalarizer(_s_weights("Constant")),
    "scalarization_Random": _scalarizer(_s("Random")),
    "scalarization_GeometricMean": _scalarizer(_s("GeometricMean")),
    "scalarization_UW": _scalarizer(_s("UW", _M)),
    "scalarization_IMTLL": _scalarizer(_s("IMTLL", _M)),
    "scalarization_DWA": _scalarizer(_s("DWA")),
    "scalarization_FAMO": _scalarizer(_famo, update=True),
    "scalarization_STCH": _scalarizer(_s("STCH", mu=1.0)),
    "scalarization_PBI": _scalarizer(_s_weights("PBI", theta=5.0)),
    "scalarization_COSMOS": _scalarizer(_s_weights("COSMOS", lambda_=2.0)),
}
