"""pycox 0.3.0 (on torchtuples 0.2.2): survival-analysis models as its README and example notebooks use
them, on small random survival data (16 subjects, 5 covariates, exponential durations, ~70% events),
``tt.practical.MLPVanilla`` nets of two 16-unit layers with batch norm and dropout, random weights, no
dataset download:

- discrete-time models, their labels from the model's own ``label_transform`` (6 equidistant cuts):
  ``LogisticHazard`` (``predict_surv``, ``predict_hazard``, ``interpolate`` with the ``const_pdf`` and
  ``const_hazard`` schemes), ``PMF`` (``predict_surv``, ``predict_pmf``, ``interpolate``), ``MTLR``
  (``predict_surv``, ``interpolate``), ``BCESurv`` (``predict_surv``, ``interpolate``),
  ``DeepHitSingle`` (``predict_surv``, ``interpolate``; its batch with the ``pair_rank_mat`` from its
  own ``DeepHitDataset``), ``DeepHit`` for two competing risks (the notebook's cause-specific net:
  ``predict_surv``, ``predict_cif``), ``PCHazard`` (``predict_surv``, ``predict_hazard`` with ``sub=2``);
- continuous-time models: ``CoxPH`` (``predict``), ``CoxCC`` with one and two sampled controls
  (``predict``), ``CoxTime`` on ``MLPVanillaCoxTime`` and on ``MixedInputMLPCoxTime`` (``predict`` of
  ``(x, t)``), and those two nets on their own;
- the losses of ``pycox.models.loss`` called on a net's output: ``nll_logistic_hazard`` (bool events),
  ``nll_pmf``, ``nll_mtlr``, ``nll_pc_hazard_loss``, ``bce_surv_loss``, ``DeepHitSingleLoss``,
  ``DeepHitLoss``, ``nll_pmf_cr`` / ``rank_loss_deephit_cr``, ``cox_ph_loss``, ``CoxPHLossSorted``,
  ``cox_cc_loss`` (two controls), ``CoxCCLoss`` with ``shrink`` (one control).

Eval: the prediction call a user makes on a tensor (``model.predict_surv(x)`` etc.: torchtuples'
``predict`` path builds a ``DataLoader`` over the tensor and loops over it, as it does for any input),
or the loss on the net's output (torchtuples computes validation metrics in eval mode). Train: the
model's own training-step loss, ``model.compute_metrics(batch, {"loss": model.loss})["loss"]`` (what
``tt.Model.fit_dataloader`` runs per batch before ``backward``; CoxCC / CoxTime: pycox's own
``compute_metrics`` over the case and control batch its ``CoxCCDataset`` / ``CoxTimeDataset`` sampled),
on a batch its own ``make_dataloader`` produced; a prediction-only use (``predict_hazard``,
``interpolate``, ...) runs the same training-step loss as its model's main use but with other
labels (``reduction="sum"``, or bool events); the loss uses compute the loss in both modes. The
batches are passed as flat tensors and put back into ``TupleTree`` s inside the step (as a
dataloader hands them over).

    pip install --no-deps pycox==0.3.0 torchtuples==0.2.2

pycox imports numpy, pandas, numba (``models.data``), h5py, scikit-learn, requests and
torchtuples at import; all but torchtuples were already installed here (numba 0.68.1 with llvmlite
0.50.0, pandas 3.0.6, h5py 3.16.0, scikit-learn 1.9.1, requests 2.34.2); feather-format and py7zr
(dataset downloads only) are not needed. Nothing stubbed.

Left out: the Cox models' ``predict_surv`` / ``predict_surv_df`` / ``compute_baseline_hazards`` /
``partial_log_likelihood`` (pandas and numpy around a ``predict``, not torch; ``predict`` is kept),
every ``predict_surv_df`` (a pandas DataFrame), ``fit`` (the optimizer step and callbacks around the
loss kept), ``pycox.evaluation`` (numpy / numba metrics), ``pycox.datasets`` (downloads) and
``pycox.simulations`` (numpy). ``CoxPHSorted`` is deprecated (its loss, ``CoxPHLossSorted``, is kept).
"""

import functools

PACKAGE = "pycox"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_N = 16  # subjects in the batch
_P = 5  # covariates
_CUTS = 6  # discrete-time grid


def warm_up():
    import numba  # noqa: F401
    import torch  # noqa: F401
    import torchtuples  # noqa: F401

    import pycox.models  # noqa: F401
    import pycox.models.loss  # noqa: F401


# --- data --------------------------------------------------------------------------------------

def _surv_data(n=_N, risks=1):
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, _P)).astype("float32")
    durations = rng.exponential(2.0, size=n).astype("float32")
    events = (rng.uniform(size=n) < 0.7).astype("float32")
    if risks > 1:  # 0 censored, 1..risks the cause
        events = events * rng.integers(1, risks + 1, size=n)
    return x, durations, events


def _mlp(out_features, in_features=_P):
    import torchtuples as tt

    return tt.practical.MLPVanilla(in_features, [16, 16], out_features, batch_norm=True, dropout=0.1)


def _flatten(tree):
    """A batch (nested tuples of tensors) as a flat list and its shape as nested index tuples."""
    import torch

    flat = []

    def walk(t):
        if isinstance(t, torch.Tensor):
            flat.append(t)
            return len(flat) - 1
        return tuple(walk(s) for s in t)

    return flat, walk(tree)


def _rebuild(struct, flat):
    import torchtuples as tt

    if isinstance(struct, int):
        return flat[struct]
    return tt.TupleTree(_rebuild(s, flat) for s in struct)


@functools.cache
def _wrappers():
    import torch

    class Predict(torch.nn.Module):
        """``obj.method(x, **kw)`` as a user calls it on a tensor (obj: a pycox model or its
        interpolation object); the model's net is a submodule, so it follows eval / train."""

        def __init__(self, model, obj, method, time_last=False, **kw):
            super().__init__()
            self.net = model.net
            self.fn = getattr(obj, method)
            self.time_last = time_last  # CoxTime: ((covariates...), time)
            self.kw = kw

        def forward(self, *inputs):
            if self.time_last:
                x = inputs[0] if len(inputs) == 2 else tuple(inputs[:-1])
                input = (x, inputs[-1])
            else:
                input = inputs[0] if len(inputs) == 1 else inputs
            return self.fn(input, **self.kw)

    class TrainStep(torch.nn.Module):
        """The loss of one training step: ``model.compute_metrics(batch, {"loss": model.loss})``."""

        def __init__(self, model, struct):
            super().__init__()
            self.net = model.net
            self.model = model
            self.struct = struct

        def forward(self, *tensors):
            batch = _rebuild(self.struct, tensors)
            return self.model.compute_metrics(batch, {"loss": self.model.loss})["loss"]

    class NetLoss(torch.nn.Module):
        """A loss of ``pycox.models.loss`` on a net's output: ``loss(net(x), *target)``."""

        def __init__(self, net, loss):
            super().__init__()
            self.net = net
            self.loss = loss

        def forward(self, x, *target):
            return self.loss(self.net(x), *target)

    return Predict, TrainStep, NetLoss


def _predict(model, obj, method, inputs, **kw):
    Predict = _wrappers()[0]
    return Predict(model, obj, method, **kw), tuple(inputs), {}


def _train(model, batch):
    TrainStep = _wrappers()[1]
    flat, struct = _flatten(batch)
    return TrainStep(model, struct), tuple(flat), {}


def _first_batch(model, data, **kw):
    dl = model.make_dataloader(data, _N, False, **kw) if kw else model.make_dataloader(data, _N, False)
    return next(iter(dl))


# --- discrete-time models ----------------------------------------------------------------------

def _discrete(cls_name, **model_kw):
    import torchtuples as tt
    from pycox import models

    cls = getattr(models, cls_name)
    x, durations, events = _surv_data()
    labtrans = cls.label_transform(_CUTS)
    target = labtrans.fit_transform(durations, events)
    net = _mlp(labtrans.out_features)
    model = cls(net, tt.optim.Adam(0.01), duration_index=labtrans.cuts, **model_kw)
    return model, x, target


def _discrete_use(cls_name, method, mode, *, interp=None, train_loss=None, model_kw=None, **kw):
    import torch
    import torchtuples as tt

    model, x, target = _discrete(cls_name, **(model_kw or {}))
    xt = torch.from_numpy(x)
    if mode == "train":
        if train_loss is not None:
            model.loss = train_loss(model.loss)
        batch = _first_batch(model, tt.tuplefy(x, target))
        return _train(model, batch)
    obj = model if interp is None else model.interpolate(interp[0], interp[1])
    return _predict(model, obj, method, (xt,), **kw)


def _sum_reduction(loss):
    loss.reduction = "sum"
    return loss


def _bool_events(loss):
    import torch

    class BoolEvents(torch.nn.Module):  # the loss on bool event labels (the losses cast them)
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, phi, idx, events, *rest):
            return self.inner(phi, idx, events.bool(), *rest)

    return BoolEvents(loss)


def _cause_specific_net(risks=2, out_features=_CUTS):
    """The competing-risks net of pycox's DeepHit notebook: a shared MLP, one MLP per cause."""
    import torch
    import torchtuples as tt

    class CauseSpecificNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.shared_net = tt.practical.MLPVanilla(_P, [16], 16, True, 0.1)
            self.risk_nets = torch.nn.ModuleList(
                tt.practical.MLPVanilla(16, [16], out_features, True, 0.1) for _ in range(risks))

        def forward(self, input):
            out = self.shared_net(input)
            out = [net(out) for net in self.risk_nets]
            return torch.stack(out, dim=1)

    return CauseSpecificNet()


def _deephit_cr(method, mode, sum_=False):
    import torch
    import torchtuples as tt
    from pycox.models import DeepHit
    from pycox.preprocessing.label_transforms import LabTransDiscreteTime

    x, durations, events = _surv_data(risks=2)
    labtrans = LabTransDiscreteTime(_CUTS)
    idx, _ = labtrans.fit_transform(durations, (events > 0).astype("float32"))
    events = events.astype("int64")
    model = DeepHit(_cause_specific_net(), tt.optim.Adam(0.01), alpha=0.2, sigma=0.1,
                    duration_index=labtrans.cuts)
    if mode == "train":
        if sum_:
            model.loss.reduction = "sum"
        batch = _first_batch(model, tt.tuplefy(x, (idx, events)))
        return _train(model, batch)
    return _predict(model, model, method, (torch.from_numpy(x),))


# --- continuous-time models ----------------------------------------------------------------------

def _coxph(mode):
    import torch
    import torchtuples as tt
    from pycox.models import CoxPH

    x, durations, events = _surv_data()
    model = CoxPH(_mlp(1), tt.optim.Adam(0.01))
    if mode == "train":
        batch = _first_batch(model, tt.tuplefy(x, (durations, events)))
        return _train(model, batch)
    return _predict(model, model, "predict", (torch.from_numpy(x),))


def _coxcc(mode, n_control=1, shrink=0.0):
    import torch
    import torchtuples as tt
    from pycox.models import CoxCC

    x, durations, events = _surv_data()
    model = CoxCC(_mlp(1), tt.optim.Adam(0.01), shrink=shrink)
    if mode == "train":
        batch = _first_batch(model, (x, (durations, events)), n_control=n_control)
        return _train(model, batch)
    return _predict(model, model, "predict", (torch.from_numpy(x),))


def _coxtime_net(mixed):
    from pycox.models.cox_time import MixedInputMLPCoxTime, MLPVanillaCoxTime

    if mixed:
        return MixedInputMLPCoxTime(_P, [4, 3], [2, 2], [16, 16], batch_norm=True, dropout=0.1)
    return MLPVanillaCoxTime(_P, [16, 16], batch_norm=True, dropout=0.1)


def _coxtime(mode, mixed=False, n_control=1):
    import numpy as np
    import torch
    import torchtuples as tt
    from pycox.models import CoxTime

    x, durations, events = _surv_data()
    labtrans = CoxTime.label_transform()
    durations, events = labtrans.fit_transform(durations, events)
    if mixed:
        cat = np.random.default_rng(1).integers(0, 2, size=(_N, 2)).astype("int64")
        input = tt.tuplefy(x, cat)
    else:
        input = tt.tuplefy(x)
    model = CoxTime(_coxtime_net(mixed), tt.optim.Adam(0.01), labtrans=labtrans)
    if mode == "train":
        batch = _first_batch(model, (input, (durations, events)), n_control=n_control)
        return _train(model, batch)
    t = torch.from_numpy(durations.reshape(-1, 1).astype("float32"))
    return _predict(model, model, "predict", (*input.to_tensor(), t), time_last=True)


def _coxtime_net_use(mode, mixed=False):
    import torch

    net = _coxtime_net(mixed)
    x = torch.randn(_N, _P)
    t = torch.rand(_N, 1)
    args = (x, torch.randint(0, 2, (_N, 2)), t) if mixed else (x, t)
    if mode == "train":
        return mean_loss_module()(net), args, {}
    return net, args, {}


# --- losses --------------------------------------------------------------------------------------

def _loss_use(name, kind, mode, *, module=False, bool_events=False, ctor=None):
    """A pycox loss on an MLP's output: ``kind`` says which labels it takes."""
    import numpy as np
    import torch
    from pycox.models import loss as L
    from pycox.models.data import pair_rank_mat
    from pycox.preprocessing.label_transforms import LabTransDiscreteTime, LabTransPCHazard

    NetLoss = _wrappers()[2]
    fn = getattr(L, name)
    if module:
        fn = fn(*(ctor or ()))
    x, durations, events = _surv_data(risks=2 if kind == "cr" else 1)
    xt = torch.from_numpy(x)
    if kind in ("discrete", "rank"):
        idx, ev = LabTransDiscreteTime(_CUTS).fit_transform(durations, events)
        evt = torch.from_numpy(ev)
        target = (torch.from_numpy(idx), evt.bool() if bool_events else evt)
        if kind == "rank":
            target += (torch.from_numpy(pair_rank_mat(idx, ev)),)
            if not module:  # rank_loss_deephit_single(..., sigma)
                target += (0.1,)
        net = _mlp(_CUTS)
    elif kind == "cr":
        idx, _ = LabTransDiscreteTime(_CUTS).fit_transform(durations, (events > 0).astype("float32"))
        target = (torch.from_numpy(idx), torch.from_numpy(events.astype("int64")))
        if name != "nll_pmf_cr":
            target += (torch.from_numpy(pair_rank_mat(idx, (events > 0).astype("float32"))),)
            if not module:
                target += (0.1,)
        net = _cause_specific_net()
    elif kind == "pc":
        labtrans = LabTransPCHazard(_CUTS)
        idx, ev, frac = labtrans.fit_transform(durations, events)
        target = tuple(torch.from_numpy(a) for a in (idx, ev, frac))
        net = _mlp(labtrans.out_features)
    elif kind == "cox":  # (durations, events)
        target = (torch.from_numpy(durations), torch.from_numpy(events))
        net = _mlp(1)
    elif kind == "cox_sorted":  # events, the batch sorted by descending duration
        order = np.argsort(-durations)
        xt = torch.from_numpy(x[order])
        target = (torch.from_numpy(events[order]),)
        net = _mlp(1)
    else:
        raise ValueError(kind)
    return NetLoss(net, fn), (xt, *target), {}


def _cc_loss_use(mode, n_control, module, shrink=0.0):
    """``cox_cc_loss`` / ``CoxCCLoss`` on the g of a case and its sampled controls (one net)."""
    import torch
    import torchtuples as tt
    from pycox.models import loss as L

    class CaseControl(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = _mlp(1)
            self.loss = L.CoxCCLoss(shrink) if module else None

        def forward(self, x_case, *x_controls):
            g_case = self.net(x_case)
            g_control = tt.TupleTree(self.net(xc) for xc in x_controls)
            if self.loss is not None:
                return self.loss(g_case, g_control)
            return L.cox_cc_loss(g_case, g_control, shrink)

    xs = tuple(torch.randn(8, _P) for _ in range(1 + n_control))
    return CaseControl(), xs, {}


P = functools.partial

MODELS = {
    # discrete-time models: prediction (eval) and training step (train)
    "LogisticHazard.predict_surv": P(_discrete_use, "LogisticHazard", "predict_surv"),
    "LogisticHazard.predict_hazard": P(_discrete_use, "LogisticHazard", "predict_hazard",
                                       train_loss=_bool_events),
    "LogisticHazard.interpolate_const_pdf": P(_discrete_use, "LogisticHazard", "predict_surv",
                                              interp=(10, "const_pdf"), train_loss=_sum_reduction),
    "LogisticHazard.interpolate_const_hazard": P(_discrete_use, "LogisticHazard", "predict_surv",
                                                 interp=(4, "const_hazard"), train_loss=_sum_reduction),
    "PMF.predict_surv": P(_discrete_use, "PMF", "predict_surv"),
    "PMF.predict_pmf": P(_discrete_use, "PMF", "predict_pmf", train_loss=_bool_events),
    "PMF.interpolate": P(_discrete_use, "PMF", "predict_surv", interp=(10, "const_pdf"),
                         train_loss=_sum_reduction),
    "MTLR.predict_surv": P(_discrete_use, "MTLR", "predict_surv"),
    "MTLR.interpolate": P(_discrete_use, "MTLR", "predict_surv", interp=(5, "const_pdf"),
                          train_loss=_sum_reduction),
    "BCESurv.predict_surv": P(_discrete_use, "BCESurv", "predict_surv"),
    "BCESurv.interpolate": P(_discrete_use, "BCESurv", "predict_surv", interp=(10, "const_pdf"),
                             train_loss=_sum_reduction),
    "DeepHitSingle.predict_surv": P(_discrete_use, "DeepHitSingle", "predict_surv",
                                    model_kw={"alpha": 0.2, "sigma": 0.1}),
    "DeepHitSingle.interpolate": P(_discrete_use, "DeepHitSingle", "predict_surv", interp=(10, "const_pdf"),
                                   train_loss=_sum_reduction, model_kw={"alpha": 0.5, "sigma": 0.5}),
    "DeepHit.predict_surv": P(_deephit_cr, "predict_surv"),
    "DeepHit.predict_cif": P(_deephit_cr, "predict_cif", sum_=True),
    "PCHazard.predict_surv": P(_discrete_use, "PCHazard", "predict_surv"),
    "PCHazard.predict_hazard_sub2": P(_discrete_use, "PCHazard", "predict_hazard", model_kw={"sub": 2},
                                      train_loss=_sum_reduction),
    # continuous-time models
    "CoxPH": _coxph,
    "CoxCC": _coxcc,
    "CoxCC.two_controls_shrink": P(_coxcc, n_control=2, shrink=0.1),
    "CoxTime.MLPVanillaCoxTime": _coxtime,
    "CoxTime.MixedInputMLPCoxTime": P(_coxtime, mixed=True, n_control=2),
    "MLPVanillaCoxTime": _coxtime_net_use,
    "MixedInputMLPCoxTime": P(_coxtime_net_use, mixed=True),
    # pycox.models.loss on a net's output
    "loss.nll_logistic_hazard_bool": P(_loss_use, "nll_logistic_hazard", "discrete", bool_events=True),
    "loss.NLLLogistiHazardLoss": P(_loss_use, "NLLLogistiHazardLoss", "discrete", module=True),
    "loss.nll_pmf": P(_loss_use, "nll_pmf", "discrete"),
    "loss.NLLMTLRLoss": P(_loss_use, "NLLMTLRLoss", "discrete", module=True),
    "loss.nll_pc_hazard_loss": P(_loss_use, "nll_pc_hazard_loss", "pc"),
    "loss.BCESurvLoss": P(_loss_use, "BCESurvLoss", "discrete", module=True),
    "loss.rank_loss_deephit_single": P(_loss_use, "rank_loss_deephit_single", "rank"),
    "loss.DeepHitSingleLoss": P(_loss_use, "DeepHitSingleLoss", "rank", module=True, ctor=(0.3, 0.2)),
    "loss.nll_pmf_cr": P(_loss_use, "nll_pmf_cr", "cr"),
    "loss.rank_loss_deephit_cr": P(_loss_use, "rank_loss_deephit_cr", "cr"),
    "loss.DeepHitLoss": P(_loss_use, "DeepHitLoss", "cr", module=True, ctor=(0.3, 0.2)),
    "loss.cox_ph_loss": P(_loss_use, "cox_ph_loss", "cox"),
    "loss.CoxPHLossSorted": P(_loss_use, "CoxPHLossSorted", "cox_sorted", module=True),
    "loss.cox_cc_loss_two_controls": P(_cc_loss_use, n_control=2, module=False, shrink=0.1),
    "loss.CoxCCLoss_shrink": P(_cc_loss_use, n_control=1, module=True, shrink=0.1),
}
