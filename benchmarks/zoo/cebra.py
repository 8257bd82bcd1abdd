"""CEBRA 0.6.1 (``cebra``): its registered encoder models, its contrastive criterions and its
solvers' training steps, tiny (6 neurons, 16 hidden units, 4 output dimensions, batches of 16
samples), random weights, no download: the data are random tensors fed through the library's own
``cebra.data.TensorDataset`` / ``DatasetCollection`` / ``DatasetxCEBRA`` and its data loaders
(``Discrete``-, ``Continuous``-, ``Mixed``-, ``Hybrid``-, ``ContinuousMultiSession``-,
``Unified``- and ``ContrastiveMultiObjectiveLoader``), as its tests do with the demo datasets.

- encoders (``cebra.models.init(name, num_neurons, num_units, num_output)``, the names of
  ``cebra.models.get_options()``): the convolutional ``offset5-model``, ``offset10-model``,
  ``offset10-model-mse``, ``offset10-model-mse-tanh``, ``offset20-model``,
  ``offset36-model`` (and ``-dropout``, ``-more-dropout``: Dropout1d), ``offset40-model``;
  the single-sample MLPs ``offset1-model``, ``offset1-model-mse``,
  ``offset1-model-v2``, ``-v4``, ``-v5``, ``offset1-model-mse-tanh``, one of the 81
  ``offset1-model-mse-clip-{min}-{max}`` (``-5-5``, xCEBRA's), one of the 20
  ``offset1-model-mse-v2-{n}layers{-tanh}`` and one of the 20 ``offset1-model-mse-resnet-...``
  (``_SkipLinear``); the resampling models ``offset40-model-4x-subsample`` (``resample-model``),
  ``offset20-model-4x-subsample`` (``resample5-model``), ``offset4-model-2x-subsample``
  (``resample1-model``); the classifiers ``supervised10-model`` / ``supervised1-model`` (after
  ``set_output_num(5)``);
- criterions on embeddings: ``FixedCosineInfoNCE`` (= ``InfoNCE``), ``FixedEuclideanInfoNCE``
  (= ``InfoMSE``), ``LearnableCosineInfoNCE`` (``min_temperature``), ``LearnableEuclideanInfoNCE``,
  ``NCE`` (mean, and sum with ``negative_weight``), ``MultiCriterions`` (contrastive, and supervised
  with ``nn.MSELoss`` / ``nn.L1Loss``), ``JacobianReg`` (exact, ``n=-1``, and one random projection);
- solver steps (``cebra.solver.init(name, model=, criterion=, optimizer=Adam)``, then
  ``solver.step(batch)`` on a batch from the loader, as ``tests/test_solver.py`` does):
  ``single-session`` (offset10 / discrete, offset1 / continuous, offset40-4x-subsample / mixed,
  ``LearnableCosineInfoNCE`` with offset5), ``single-session-aux`` (a deep-copied reference model,
  passed in: the solver's own default copy calls ``model.device``, which cebra's models lack),
  ``single-session-hybrid`` (``HybridDataLoader``; ``MultiobjectiveModel`` wrapper),
  ``single-session-full`` (its ``fit``-time attributes set as ``fit`` sets them), ``multi-session``
  (3 sessions of 4/5/6 neurons, one offset10 model per session),
  ``regularized-solver`` (Jacobian regularizer), ``multiobjective-solver`` (xCEBRA: two feature
  slices, ``time`` and ``time_delta`` positives, Jacobian regularizer weights as ``fit`` passes them
  from ``LinearRampUp``), ``supervised-solver-xcebra`` and ``unified-session``.

Eval: the encoders' ``forward`` on a (batch, neurons, receptive field) window (the classifiers
return ``(features, prediction)``); the criterions' outputs; the solvers' ``transform(X)`` on 60
time steps (``@torch.no_grad``, ``model.eval()``, the replicate padding of ``_not_batched_transform``),
after the fitted parameters are set (``_set_fitted_params(loader)``, what ``fit`` does first;
``unified-session``: all 200 steps of both sessions with their labels, ``batch_size=64``, its
batched path; ``single-session-aux``: ``solver._inference(batch)`` instead, since
``AuxiliaryVariableSolver.transform`` raises a TypeError in 0.6.1 (it passes ``use_reference_model``
to a ``_select_model`` that does not take it); the xCEBRA solvers with ``split_outputs = False``, as
their test transforms).
Train: the encoders' contrastive loss as a single-session solver computes it
(``solver._inference(Batch(ref, pos, neg))`` then ``solver.criterion(...)``: InfoNCE for normalized
models, ``FixedEuclideanInfoNCE`` for the ``-mse`` / ``-tanh`` / clip ones); the classifiers'
cross-entropy on ``prediction`` (``SupervisedNNSolver.step``'s loss: that solver is not registered
and cannot be built); the criterions' first output (the loss; the multi-criterions' sum); the
solvers' whole ``step(batch)`` (zero_grad, inference, criterion, ``loss.backward()``,
``optimizer.step()``, the ``.item()`` logging), the code a user's compiled training step runs.

    pip install --no-deps cebra==0.6.1
    pip install --no-deps literate-dataclasses==0.0.6

cebra also imports joblib, numpy, scipy, scikit-learn, tqdm, matplotlib and requests (all already
installed); h5py / pandas / hdf5storage (the ``datasets`` extra) only in the dataset loaders, not used.
Nothing stubbed. Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu, -j 1): 45 models, 90 runs, all built, none failed under Dynamo, none
timed out. First numbers with the frozen start-of-stop-86 linter: graph-break recall 0.50 (6/12),
precision 0.90 (9/10), 102 findings in the source / 45 in files run, 35 unjudged. The breaks are
all in the training steps (``Optimizer.zero_grad`` / ``step``, ``.backward()``, ``.item()`` logging,
``requires_grad`` changes, ``torch.autograd.grad`` in ``JacobianReg``, a boolean-mask assignment in
``single-session-full``); the encoders and criterions trace whole.

Left out: ``multi-session-aux`` (its ``_inference`` calls ``batch.reference.cuda()``: fails eagerly on
a CPU-only torch), the ``datasets`` package's real datasets (downloads: hippocampus, monkey, Allen,
synthetic pickles), the sklearn estimator ``cebra.CEBRA`` (a wrapper whose ``fit`` runs the same
solvers' ``step`` in a tqdm loop), the attribution methods (``cebra.attribution``: captum-style
Jacobian / gradient maps over a fitted model, numpy inversions), plotting and integrations, the
``offset15-model`` / ``offset50-model`` / ``offset1-model-v3`` (the same layers as the offset20 / offset40 /
v2 models with other kernel counts and widths, left out to keep to 45 entries), the
other 80 ``offset1-model-mse-clip-*`` / 19 ``-v2-*`` / 19 ``-resnet-*`` names (the same classes with
other constants), ``offset10-projector-model`` (not in ``get_options()`` by default; its
``forward`` raises ``NotImplementedError``), and the ``fit`` loops themselves (tqdm progress bar,
checkpointing).
"""

import functools

PACKAGE = "cebra"

mean_loss_module = None  # set by ZooSuite

_N = 6  # neurons
_U = 16  # hidden units
_D = 4  # output dimension
_B = 16  # batch
_T = 200  # time steps of the synthetic recordings


def warm_up():
    import torch  # noqa: F401

    import cebra  # noqa: F401
    import cebra.data  # noqa: F401
    import cebra.models  # noqa: F401
    import cebra.solver  # noqa: F401


def _torch():
    import torch

    return torch


# --- data -------------------------------------------------------------------------------------

def _dataset(kind, n=_N):
    import torch

    import cebra.data

    neural = torch.randn(_T, n)
    continuous = torch.randn(_T, 3)
    discrete = torch.randint(0, 5, (_T,))
    if kind == "discrete":
        return cebra.data.TensorDataset(neural, discrete=discrete)
    if kind == "continuous":
        return cebra.data.TensorDataset(neural, continuous=continuous)
    if kind == "mixed":
        return cebra.data.TensorDataset(neural, continuous=continuous, discrete=discrete)
    raise ValueError(kind)


def _loader(kind, dataset):
    import cebra.data

    cls = {"discrete": cebra.data.DiscreteDataLoader, "continuous": cebra.data.ContinuousDataLoader,
           "mixed": cebra.data.MixedDataLoader, "hybrid": cebra.data.HybridDataLoader,
           "multi": cebra.data.ContinuousMultiSessionDataLoader,
           "unified": cebra.data.UnifiedLoader}[kind]
    return cls(dataset, num_steps=1, batch_size=_B)


def _criterion_for(name):
    import cebra.models

    if "mse" in name or "tanh" in name:
        return cebra.models.FixedEuclideanInfoNCE(temperature=1.0)
    return cebra.models.InfoNCE(temperature=1.0)


# --- wrappers ---------------------------------------------------------------------------------

@functools.cache
def _wrappers():
    import torch
    import torch.nn.functional as F
    from torch import nn

    import cebra.data

    class ContrastiveLoss(nn.Module):
        """A single-session solver's loss: ``_inference`` on the batch, then the criterion."""

        def __init__(self, solver):
            super().__init__()
            self.solver = solver
            self.model, self.criterion = solver.model, solver.criterion
            object.__setattr__(self, "__wrapped__", solver.model)

        def forward(self, reference, positive, negative):
            prediction = self.solver._inference(cebra.data.Batch(reference, positive, negative))
            loss, align, uniform = self.solver.criterion(prediction.reference, prediction.positive,
                                                         prediction.negative)
            return loss

    class SupervisedLoss(nn.Module):
        """``SupervisedNNSolver.step``'s loss: cross-entropy on the classifier's prediction."""

        def __init__(self, model, labels):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.register_buffer("labels", labels)

        def forward(self, neural):
            feature, prediction = self.model(neural)
            return F.cross_entropy(prediction, self.labels.squeeze())

    class CriterionLoss(nn.Module):
        """A criterion's loss: the first of its outputs (a list of losses summed)."""

        def __init__(self, criterion):
            super().__init__()
            self.criterion = criterion
            object.__setattr__(self, "__wrapped__", criterion)

        def forward(self, *args):
            out = self.criterion(*args)
            if isinstance(out, list):
                return sum(out)
            if isinstance(out, tuple):
                return out[0].mean()  # NCE's loss is per sample
            return out

    class SolverStep(nn.Module):
        """``solver.step(batch)`` in training; ``solver.transform(inputs)`` otherwise."""

        def __init__(self, solver, transform_kwargs=None):
            super().__init__()
            self.solver = solver
            self.model, self.criterion = solver.model, solver.criterion
            self.transform_kwargs = transform_kwargs or {}

        def forward(self, batch, inputs, **step_kwargs):
            if self.training:
                return self.solver.step(batch, **step_kwargs)
            if inputs is None:  # the embeddings of a batch, as ``step`` computes them
                prediction = self.solver._inference(batch)
                return prediction.reference, prediction.positive, prediction.negative
            return self.solver.transform(inputs, **self.transform_kwargs)

    return {"ContrastiveLoss": ContrastiveLoss, "SupervisedLoss": SupervisedLoss,
            "CriterionLoss": CriterionLoss, "SolverStep": SolverStep}


# --- encoders ---------------------------------------------------------------------------------

def _encoder(name, loader_kind, mode):
    import torch

    import cebra.models
    import cebra.solver

    model = cebra.models.init(name, _N, _U, _D)
    dataset = _dataset("mixed" if loader_kind == "mixed" else loader_kind)
    dataset.configure_for(model)
    batch = next(iter(_loader(loader_kind, dataset)))
    if mode == "eval":
        return model, (batch.reference,), {}
    criterion = _criterion_for(name)
    solver = cebra.solver.init("single-session", model=model, criterion=criterion,
                               optimizer=torch.optim.Adam(model.parameters(), lr=1e-3), tqdm_on=False)
    return _wrappers()["ContrastiveLoss"](solver), (batch.reference, batch.positive, batch.negative), {}


def _supervised(name, mode):
    import torch

    import cebra.models

    model = cebra.models.init(name, _N, _U, _D)
    model.set_output_num(5)
    dataset = _dataset("discrete")
    dataset.configure_for(model)
    batch = next(iter(_loader("discrete", dataset)))
    if mode == "eval":
        return model, (batch.reference,), {}
    labels = torch.randint(0, 5, (_B, 1))
    return _wrappers()["SupervisedLoss"](model, labels), (batch.reference,), {}


# --- criterions -------------------------------------------------------------------------------

def _embeddings(normalize=True, d=_D):
    import torch
    import torch.nn.functional as F

    x = [torch.randn(_B, d) for _ in range(3)]
    if normalize:
        x = [F.normalize(t, dim=1) for t in x]
    return x


def _criterion(factory, normalize, mode):
    crit = factory()
    args = tuple(_embeddings(normalize))
    if mode == "eval":
        return crit, args, {}
    for t in args:
        t.requires_grad_(True)
    return _wrappers()["CriterionLoss"](crit), args, {}


def _multicriterions(mode_, mode):
    import torch

    import cebra.data
    import cebra.models

    losses = [
        {"indices": (0, 4), "contrastive_loss": {"name": "FixedEuclideanInfoNCE", "kwargs": {"temperature": 1.0}},
         "supervised_loss": {"name": "nn.MSELoss", "kwargs": {}}},
        {"indices": (2, 4), "contrastive_loss": {"name": "LearnableCosineInfoNCE", "kwargs": {"temperature": 0.5}},
         "supervised_loss": {"name": "nn.L1Loss", "kwargs": {}}},
    ]
    crit = cebra.models.MultiCriterions(losses, mode=mode_)
    ref1, pos1, neg1 = _embeddings(True, 4)
    ref2, pos2, neg2 = _embeddings(True, 2)
    if mode == "train":
        for t in (ref1, pos1, neg1, ref2, pos2, neg2):
            t.requires_grad_(True)
    if mode_ == "supervised":
        preds = (cebra.data.Batch(ref1, torch.randn(_B, 4), None), cebra.data.Batch(ref2, torch.randn(_B, 2), None))
    else:
        preds = (cebra.data.Batch(ref1, pos1, neg1), cebra.data.Batch(ref2, pos2, neg2))
    if mode == "eval":
        return crit, (preds,), {}
    return _wrappers()["CriterionLoss"](crit), (preds,), {}


def _jacobian_reg(n, mode):
    import torch
    from torch import nn

    import cebra.models

    class Regularized(nn.Module):
        """The encoder's output and ``JacobianReg(x, y)`` on it (as the regularized solver)."""

        def __init__(self):
            super().__init__()
            self.encoder = cebra.models.init("offset1-model-mse", _N, _U, _D)
            self.reg = cebra.models.JacobianReg(n=n)

        def forward(self, x):
            with torch.enable_grad():  # the regularizer differentiates y w.r.t. x (eval too)
                x = x.detach().requires_grad_(True)
                y = self.encoder(x)
                return y.pow(2).mean() + 0.01 * self.reg(x, y)

    return Regularized(), (torch.randn(_B, _N),), {}


# --- solvers ----------------------------------------------------------------------------------

def _solve(name, model, criterion, loader, mode, inputs, step_kwargs=None, transform_kwargs=None, **solver_kwargs):
    import torch

    import cebra.solver

    params = list(model.parameters()) + list(criterion.parameters())
    solver = cebra.solver.init(name, model=model, criterion=criterion,
                               optimizer=torch.optim.Adam(params, lr=1e-3), tqdm_on=False, **solver_kwargs)
    solver._set_fitted_params(loader)  # what fit() does first
    batch = next(iter(loader))
    return _wrappers()["SolverStep"](solver, transform_kwargs), (batch, inputs), dict(step_kwargs or {})


def _single_session(model_name, kind, mode, criterion=None, solver="single-session"):
    import copy

    import cebra.models

    model = cebra.models.init(model_name, _N, _U, _D)
    dataset = _dataset(kind)
    dataset.configure_for(model)
    loader = _loader(kind, dataset)
    criterion = criterion() if criterion is not None else _criterion_for(model_name)
    kwargs = {}
    if solver == "single-session-aux":  # its default deep copy calls ``model.device``, which no
        kwargs["reference_model"] = copy.deepcopy(model)  # cebra model has: pass the copy
    # single-session-aux: ``AuxiliaryVariableSolver.transform`` passes ``use_reference_model`` to a
    # ``_select_model`` that does not take it (TypeError in 0.6.1): eval is ``_inference(batch)``
    inputs = None if solver == "single-session-aux" else dataset.neural[:60]
    return _solve(solver, model, criterion, loader, mode, inputs, **kwargs)


def _learnable_cosine():
    import cebra.models

    return cebra.models.LearnableCosineInfoNCE(temperature=1.0, min_temperature=0.1)


def _hybrid(mode):
    import warnings

    import cebra.models

    model = cebra.models.init("offset10-model", _N, _U, _D)
    dataset = _dataset("continuous")
    dataset.configure_for(model)
    loader = _loader("hybrid", dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return _solve("single-session-hybrid", model, cebra.models.InfoNCE(), loader, mode,
                      dataset.neural[:60], num_behavior_features=2)


def _full(mode):
    import cebra.data
    import cebra.models

    model = cebra.models.init("offset10-model", _N, _U, _D)
    dataset = _dataset("continuous")
    dataset.configure_for(model)
    loader = cebra.data.FullDataLoader(dataset, num_steps=1)
    step, args, kwargs = _solve("single-session-full", model, cebra.models.InfoNCE(), loader, mode,
                                dataset.neural[:60])
    solver = step.solver  # the attributes BatchSingleSessionSolver.fit sets before its loop
    solver.offset = loader.dataset.offset
    solver.neural = loader.dataset.neural.T[None]
    solver._mode = "convolutional"
    return step, args, kwargs


def _multi_session(mode, solver="multi-session"):
    import torch
    from torch import nn

    import cebra.data
    import cebra.models

    dataset = cebra.data.DatasetCollection(*[
        cebra.data.TensorDataset(torch.randn(_T, n), continuous=torch.randn(_T, 3)) for n in (4, 5, 6)])
    model = nn.ModuleList([cebra.models.init("offset10-model", d.input_dimension, _U, _D)
                           for d in dataset.iter_sessions()])
    dataset.configure_for(model)
    loader = _loader("multi", dataset)
    inputs = dataset.get_session(1).neural[:60]
    return _solve(solver, model, cebra.models.InfoNCE(), loader, mode, inputs,
                  transform_kwargs={"session_id": 1})


def _unified(mode):
    import torch

    import cebra.data
    import cebra.models

    dataset = cebra.data.UnifiedDataset(*[
        cebra.data.TensorDataset(torch.randn(_T, n), continuous=torch.randn(_T, 3)) for n in (2, 3)])
    model = cebra.models.init("offset10-model", dataset.input_dimension, _U, _D)
    dataset.configure_for(model)
    loader = _loader("unified", dataset)
    inputs = [dataset.get_session(i).neural for i in range(2)]
    labels = [dataset.get_session(i).continuous_index for i in range(2)]
    return _solve("unified-session", model, cebra.models.InfoNCE(), loader, mode, inputs,
                  transform_kwargs={"session_id": 0, "labels": labels, "batch_size": 64})


def _regularized(mode):
    import cebra.models

    model = cebra.models.init("offset1-model-mse", _N, _U, _D)
    dataset = _dataset("continuous")
    dataset.configure_for(model)
    loader = _loader("continuous", dataset)
    return _solve("regularized-solver", model, cebra.models.FixedEuclideanInfoNCE(), loader, mode,
                  dataset.neural[:60], lambda_JR=0.01)


def _xcebra(mode, supervised=False):
    import contextlib
    import io

    import torch

    import cebra.data
    import cebra.models
    import cebra.solver
    from cebra.solver.schedulers import LinearRampUp

    neural = torch.randn(_T, _N)
    z1, z2 = torch.randn(_T, 2), torch.randn(_T, 2)
    data = cebra.data.DatasetxCEBRA(neural, Z1=z1, Z2=z2)
    if supervised:
        loader = cebra.data.SupervisedMultiObjectiveLoader(dataset=data, num_steps=1, batch_size=_B)
        loader.add_config({"label": "Z1"})
        loader.add_config({"label": "Z2"})
        losses = [{"indices": (0, 2), "supervised_loss": {"name": "nn.MSELoss"}},
                  {"indices": (2, 4), "supervised_loss": {"name": "nn.MSELoss"}}]
        criterion = cebra.models.MultiCriterions(losses, mode="supervised")
        feature_ranges = [slice(0, 2), slice(2, 4)]
    else:
        loader = cebra.data.ContrastiveMultiObjectiveLoader(dataset=data, num_steps=1, batch_size=_B)
        config = cebra.solver.MultiObjectiveConfig(loader)
        with contextlib.redirect_stdout(io.StringIO()):  # push() / finalize() print
            config.set_slice(0, 4)
            config.set_loss("FixedEuclideanInfoNCE", temperature=1.0)
            config.set_distribution("time", time_offset=1)
            config.push()
            config.set_slice(2, 4)
            config.set_loss("FixedEuclideanInfoNCE", temperature=1.0)
            config.set_distribution("time_delta", time_delta=1, label_name="Z2")
            config.push()
            config.finalize()
        criterion, feature_ranges = config.criterion, config.feature_ranges
    model = cebra.models.init("offset1-model-mse-clip-5-5", _N, _U, _D)
    data.configure_for(model)
    name = "supervised-solver-xcebra" if supervised else "multiobjective-solver"
    kwargs = {}
    if not supervised:  # fit() passes the scheduler's weights once the regularizer is on
        ramp = LinearRampUp(n_splits=2, step_to_switch_on_reg=0, step_to_switch_off_reg=10,
                            start_weight=0.0, end_weight=0.01, stay_constant_after_switch_off=True)
        kwargs["weights_regularizer"] = ramp.get_weights(step=5)
    step, args, kw = _solve(name, model, criterion, loader, mode, neural[:60], step_kwargs=kwargs,
                            feature_ranges=feature_ranges, regularizer=cebra.models.JacobianReg(),
                            renormalize=False, use_sam=False)
    if mode == "eval":  # transform on the whole embedding, as the xCEBRA test does
        step.solver.model.split_outputs = False
    return step, args, kw


# --- registry ---------------------------------------------------------------------------------

_ENCODERS = {
    # name: loader kind
    "offset5-model": "continuous",
    "offset10-model": "discrete",
    "offset10-model-mse": "continuous",
    "offset10-model-mse-tanh": "continuous",
    "offset20-model": "mixed",
    "offset36-model": "continuous",
    "offset36-model-dropout": "continuous",
    "offset36-model-more-dropout": "discrete",
    "offset40-model": "continuous",
    "offset1-model": "continuous",
    "offset1-model-mse": "continuous",
    "offset1-model-v2": "discrete",
    "offset1-model-v4": "continuous",
    "offset1-model-v5": "mixed",
    "offset1-model-mse-tanh": "continuous",
    "offset1-model-mse-clip-5-5": "continuous",
    "offset1-model-mse-v2-2layers-tanh": "continuous",
    "offset1-model-mse-resnet-2layers": "continuous",
    "offset40-model-4x-subsample": "mixed",
    "offset20-model-4x-subsample": "continuous",
    "offset4-model-2x-subsample": "discrete",
}


def _criterions():
    import cebra.models

    return {
        "FixedCosineInfoNCE": (lambda: cebra.models.FixedCosineInfoNCE(temperature=0.5), True),
        "FixedEuclideanInfoNCE": (lambda: cebra.models.FixedEuclideanInfoNCE(temperature=1.0), False),
        "LearnableCosineInfoNCE": (lambda: cebra.models.LearnableCosineInfoNCE(temperature=1.0,
                                                                               min_temperature=0.1), True),
        "LearnableEuclideanInfoNCE": (lambda: cebra.models.LearnableEuclideanInfoNCE(temperature=1.0), False),
        "NCE": (lambda: cebra.models.NCE(temperature=1.0), True),
        "NCE_sum": (lambda: cebra.models.NCE(temperature=0.5, negative_weight=2.0, reduce="sum"), True),
    }


def _criterion_entry(key, mode):
    factory, normalize = _criterions()[key]
    return _criterion(factory, normalize, mode)


MODELS = {}
for _name, _kind in _ENCODERS.items():
    MODELS[_name] = functools.partial(_encoder, _name, _kind)
MODELS["supervised10-model"] = functools.partial(_supervised, "supervised10-model")
MODELS["supervised1-model"] = functools.partial(_supervised, "supervised1-model")
for _key in ("FixedCosineInfoNCE", "FixedEuclideanInfoNCE", "LearnableCosineInfoNCE",
             "LearnableEuclideanInfoNCE", "NCE", "NCE_sum"):
    MODELS["criterion_" + _key] = functools.partial(_criterion_entry, _key)
MODELS["MultiCriterions_contrastive"] = functools.partial(_multicriterions, "contrastive")
MODELS["MultiCriterions_supervised"] = functools.partial(_multicriterions, "supervised")
MODELS["JacobianReg_exact"] = functools.partial(_jacobian_reg, -1)
MODELS["JacobianReg_n1"] = functools.partial(_jacobian_reg, 1)
MODELS["step_single_session_offset10_discrete"] = functools.partial(_single_session, "offset10-model", "discrete")
MODELS["step_single_session_offset1_continuous"] = functools.partial(_single_session, "offset1-model", "continuous")
MODELS["step_single_session_subsample_mixed"] = functools.partial(
    _single_session, "offset40-model-4x-subsample", "mixed")
MODELS["step_single_session_learnable"] = functools.partial(
    _single_session, "offset5-model", "continuous", criterion=_learnable_cosine)
MODELS["step_single_session_aux"] = functools.partial(
    _single_session, "offset10-model", "continuous", solver="single-session-aux")
MODELS["step_single_session_hybrid"] = _hybrid
MODELS["step_single_session_full"] = _full
MODELS["step_multi_session"] = _multi_session
MODELS["step_unified_session"] = _unified
MODELS["step_regularized"] = _regularized
MODELS["step_multiobjective_xcebra"] = _xcebra
MODELS["step_supervised_xcebra"] = functools.partial(_xcebra, supervised=True)
