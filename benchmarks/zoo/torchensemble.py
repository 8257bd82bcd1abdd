"""torchensemble (Ensemble-PyTorch) 0.2.0: every ensemble of the library, each a Classifier and a
Regressor (Fusion, Voting, Bagging, GradientBoosting, SnapshotEnsemble, AdversarialTraining,
FastGeometric, SoftGradientBoosting, NeuralForest), built as the docs' quick start builds them
(``Ensemble(estimator=MLP, n_estimators=2, cuda=False)``, ``set_optimizer("Adam", lr=1e-3)``, an
optional ``set_scheduler``) and fitted for one epoch (``fit(train_loader, epochs=1,
save_model=False)``) on a tiny random ``TensorDataset`` ``DataLoader`` (16 samples, batch 8): the
ensemble's base estimators exist only after ``fit``. Random weights, no download.

Base estimators (defined here, as a user defines them): ``MLP`` (10 features -> 16 -> outputs,
class + ``estimator_args``, or an instance, which the ensemble deep-copies), ``CNN`` (1x8x8
images: conv 4 channels, ReLU, max-pool, linear), ``TwoInputMLP`` (``forward(x1, x2)``: a
``DataLoader`` of two inputs and a target, which ``io.split_data_target`` splits).

Models (36): per ensemble its Classifier (3 classes) and Regressor (a (B, 1) target; some (B, 2))
on the MLP; classifiers on the CNN; two-input variants; VotingClassifier / SnapshotEnsemble
``voting_strategy="hard"`` (``majority_vote``); GradientBoosting with ``shrinkage_rate=0.5`` and
``use_reduction_sum=False`` and its ``_staged_forward`` (the early-stopping path); NeuralForest
(soft decision trees, ``depth`` 3 and 2) on vectors and flattened images; a custom criterion
(``set_criterion(nn.L1Loss())``); schedulers (``CosineAnnealingLR``, ``StepLR``).

Eval: the ensemble's ``forward(*x)`` (its prediction path); the ``-predict`` models call
``ensemble.predict(*x)`` (``BaseModule.predict``: ``@torch.no_grad``, ``self.eval()``, the
tensor / ndarray checks, ``.to(device)``, ``forward``, ``.cpu()``), as the docs' users do;
``GradientBoostingClassifier-staged`` calls ``_staged_forward(0, x)``.
Train: one batch of the ensemble's own ``fit`` loop, as a module taking the batch as the
``DataLoader`` yields it (``*elem``) and returning the loss (the optimizer step, the logging and
``.item()`` lines around it left out), through the library's helpers where ``fit`` calls them:
``io.split_data_target(elem, device)`` first, then
- Fusion: ``ens._forward(*data)`` (classifier; regressor: ``ens.forward``) and ``ens._criterion``;
- Voting / Bagging / NeuralForest (their ``_parallel_fit_per_epoch``): each estimator's
  ``criterion(estimator(*data), target)``, summed over the estimators;
- GradientBoosting: ``ens._pseudo_residual(est_idx, target, *data)`` for the last estimator
  (est_idx 1; the ``-staged`` model: est_idx 0), its output and ``MSELoss(reduction="sum")``
  (``MSELoss()`` where ``use_reduction_sum=False``);
- SnapshotEnsemble / FastGeometric: the estimator being trained (a ``_make_estimator()`` loaded
  with the last snapshot's ``state_dict``, as the library makes snapshots), ``ens._criterion``;
- AdversarialTraining (its ``_parallel_fit_per_epoch``): per estimator, the batch tensors set
  ``requires_grad = True`` (detached first: the loader yields fresh tensors per estimator), the
  clean loss and its ``backward()``, ``tensor.grad.data``, ``_get_fgsm_samples(data, epsilon,
  data_grad)``, ``estimator.zero_grad()`` (fit's ``optimizer.zero_grad()``), then
  ``criterion(org_output) + criterion(adv_output)``; summed over estimators. Inputs are
  ``torch.rand`` (FGSM checks they lie in [0, 1]);
- SoftGradientBoosting: every estimator's output, ``_parallel_compute_pseudo_residual(output,
  target, i, shrinkage_rate, n_outputs, is_classification)`` for each i (called directly: fit
  wraps it in ``joblib.Parallel(n_jobs=None)``, which runs it in order), ``loss =
  torch.tensor(0.0)`` and ``loss += MSELoss(reduction="sum")(output[i], residual[i])``.

    pip install --no-deps torchensemble==0.2.0

(already installed and used: joblib 1.6.0, numpy; scikit-learn and torchvision are declared
dependencies that ``torchensemble`` never imports. Nothing stubbed: no module imports
torchvision; tensorboard is imported only inside ``init_tb_logger``, never called here.)

Notes: SnapshotEnsemble needs ``epochs % n_estimators == 0``, so it is fitted for 2 epochs (2
snapshots); FastGeometric's ensembling stage runs until it has ``n_estimators`` snapshots
(``cycle=2``: 3 more epochs); ``fit``'s ``print`` lines are sent to a buffer. Left out:
``evaluate(test_loader)`` (a Python loop over a loader with ``.item()``), ``io.save`` / ``load``
(files), ``utils.logging.set_logger``, ``FixedDataLoader``. Measured first as it came, before any
rule looked at it.
"""

import functools

PACKAGE = "torchensemble"

_N, _B, _F, _C = 16, 8, 10, 3  # samples, batch, features, classes
_IMG = (1, 8, 8)


@functools.cache
def _nets():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class MLP(nn.Module):
        def __init__(self, in_dim=_F, out_dim=_C, hidden=16):
            super().__init__()
            self.linear1 = nn.Linear(in_dim, hidden)
            self.linear2 = nn.Linear(hidden, out_dim)

        def forward(self, x):
            x = x.view(x.size(0), -1)
            return self.linear2(F.relu(self.linear1(x)))

    class CNN(nn.Module):
        def __init__(self, out_dim=_C):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, padding=1)
            self.fc = nn.Linear(4 * 4 * 4, out_dim)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv(x)), 2)
            x = x.view(x.size(0), -1)
            return self.fc(x)

    class TwoInputMLP(nn.Module):
        def __init__(self, in1=_F, in2=4, out_dim=_C):
            super().__init__()
            self.a = nn.Linear(in1, 8)
            self.b = nn.Linear(in2, 8)
            self.out = nn.Linear(16, out_dim)

        def forward(self, x1, x2):
            h = torch.cat([F.relu(self.a(x1)), F.relu(self.b(x2))], dim=1)
            return self.out(h)

    return MLP, CNN, TwoInputMLP


def _loader(kind, task, out_dim=1):
    """A tiny random TensorDataset DataLoader: kind 'vec', 'img', 'two'; task 'cls' / 'reg'."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    g = torch.Generator().manual_seed(0)
    if kind == "vec":
        xs = [torch.rand(_N, _F, generator=g)]
    elif kind == "img":
        xs = [torch.rand(_N, *_IMG, generator=g)]
    else:
        xs = [torch.rand(_N, _F, generator=g), torch.rand(_N, 4, generator=g)]
    if task == "cls":
        y = torch.arange(_N) % _C
    else:
        y = torch.randn(_N, out_dim, generator=g)
    return DataLoader(TensorDataset(*xs, y), batch_size=_B, shuffle=False)


def _fit(ens, loader, **kw):
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        ens.fit(loader, save_model=False, **kw)
    return ens


@functools.cache
def _steps():
    import torch
    import torch.nn as nn

    from torchensemble import adversarial_training, soft_gradient_boosting
    from torchensemble.utils import io

    class FusionStep(nn.Module):
        def __init__(self, ens, classifier):
            super().__init__()
            self.ens = ens
            self.classifier = classifier

        def forward(self, *elem):
            data, target = io.split_data_target(elem, self.ens.device)
            if self.classifier:
                output = self.ens._forward(*data)
            else:
                output = self.ens.forward(*data)
            return self.ens._criterion(output, target)

    class VotingStep(nn.Module):
        """Voting, Bagging, NeuralForest: each estimator on its own batch loss."""

        def __init__(self, ens):
            super().__init__()
            self.ens = ens

        def forward(self, *elem):
            data, target = io.split_data_target(elem, self.ens.device)
            total = 0.0
            for estimator in self.ens.estimators_:
                output = estimator(*data)
                loss = self.ens._criterion(output, target)
                total = total + loss
            return total

    class GradientBoostingStep(nn.Module):
        def __init__(self, ens, est_idx, use_reduction_sum=True):
            super().__init__()
            self.ens = ens
            self.est_idx = est_idx
            self.criterion = nn.MSELoss(reduction="sum") if use_reduction_sum else nn.MSELoss()

        def forward(self, *elem):
            data, target = io.split_data_target(elem, self.ens.device)
            residual = self.ens._pseudo_residual(self.est_idx, target, *data)
            output = self.ens.estimators_[self.est_idx](*data)
            return self.criterion(output, residual)

    class SnapshotStep(nn.Module):
        """SnapshotEnsemble / FastGeometric: the one estimator being trained."""

        def __init__(self, ens):
            super().__init__()
            self.ens = ens
            estimator = ens._make_estimator()
            estimator.load_state_dict(ens.estimators_[-1].state_dict())
            self.estimator = estimator

        def forward(self, *elem):
            data, target = io.split_data_target(elem, self.ens.device)
            output = self.estimator(*data)
            return self.ens._criterion(output, target)

    class AdversarialStep(nn.Module):
        def __init__(self, ens, epsilon=0.5):
            super().__init__()
            self.ens = ens
            self.epsilon = epsilon

        def forward(self, *elem):
            data, target = io.split_data_target(elem, self.ens.device)
            criterion = self.ens._criterion
            total = 0.0
            for estimator in self.ens.estimators_:
                batch = [tensor.detach() for tensor in data]
                for tensor in batch:
                    tensor.requires_grad = True
                _output = estimator(*batch)
                _loss = criterion(_output, target)
                _loss.backward()
                data_grad = [tensor.grad.data for tensor in batch]
                adv_data = adversarial_training._get_fgsm_samples(batch, self.epsilon, data_grad)
                estimator.zero_grad()
                org_output = estimator(*batch)
                adv_output = estimator(*adv_data)
                loss = criterion(org_output, target) + criterion(adv_output, target)
                total = total + loss
            return total

    class SoftGradientBoostingStep(nn.Module):
        def __init__(self, ens, use_reduction_sum=True):
            super().__init__()
            self.ens = ens
            self.criterion = nn.MSELoss(reduction="sum") if use_reduction_sum else nn.MSELoss()

        def forward(self, *elem):
            ens = self.ens
            data, target = io.split_data_target(elem, ens.device)
            output = [estimator(*data) for estimator in ens.estimators_]
            rets = [
                soft_gradient_boosting._parallel_compute_pseudo_residual(
                    output, target, i, ens.shrinkage_rate, ens.n_outputs, ens.is_classification
                )
                for i in range(ens.n_estimators)
            ]
            loss = torch.tensor(0.0, device=ens.device)
            for idx, estimator in enumerate(ens.estimators_):
                loss += self.criterion(output[idx], rets[idx])
            return loss

    return {
        "fusion": FusionStep,
        "voting": VotingStep,
        "gb": GradientBoostingStep,
        "snapshot": SnapshotStep,
        "adv": AdversarialStep,
        "softgb": SoftGradientBoostingStep,
    }


def _batch(loader):
    return tuple(next(iter(loader)))


def _make(cls_name, base, kind, task, step, *, out_dim=1, est_args=None, instance=False, ctor=None,
          fit=None, setup=None, eval_call="forward", step_kw=None):
    """One ensemble: build it, fit it for an epoch, return its eval or train callable."""

    def make(mode):
        import torchensemble

        MLP, CNN, TwoInputMLP = _nets()
        net = {"mlp": MLP, "cnn": CNN, "two": TwoInputMLP, "tree": None}[base]
        loader = _loader(kind, task, out_dim)
        n_out = _C if task == "cls" else out_dim
        cls = getattr(torchensemble, cls_name)
        kwargs = dict(ctor or {})
        if base == "tree":
            ens = cls(n_estimators=2, cuda=False, **kwargs)
        else:
            args = dict(est_args or {"out_dim": n_out})
            estimator = net(**args) if instance else net
            ens = cls(estimator=estimator, n_estimators=2, estimator_args=None if instance else args,
                      cuda=False, **kwargs)
        ens.set_optimizer("Adam", lr=1e-3, weight_decay=5e-4)
        if setup is not None:
            setup(ens)
        _fit(ens, loader, **{"epochs": 1, **dict(fit or {})})
        elem = _batch(loader)
        if mode == "train":
            return _steps()[step](ens, **dict(step_kw or {})), elem, {}
        x = elem[:-1]
        ens.eval()
        if eval_call == "predict":
            return ens.predict, x, {}
        if eval_call == "staged":
            return functools.partial(ens._staged_forward, 0), x, {}
        return ens, x, {}

    return make


def _l1(ens):
    import torch.nn as nn

    ens.set_criterion(nn.L1Loss())


def _cosine(ens):
    ens.set_scheduler("CosineAnnealingLR", T_max=10)


def _steplr(ens):
    ens.set_scheduler("StepLR", step_size=1, gamma=0.5)


_TWO = {"in1": _F, "in2": 4}

MODELS = {
    # Fusion
    "FusionClassifier": _make("FusionClassifier", "mlp", "vec", "cls", "fusion",
                              setup=_cosine, step_kw={"classifier": True}),
    "FusionRegressor": _make("FusionRegressor", "mlp", "vec", "reg", "fusion",
                             step_kw={"classifier": False}),
    "FusionRegressor-L1-2inputs": _make("FusionRegressor", "two", "two", "reg", "fusion",
                                        est_args={**_TWO, "out_dim": 1}, setup=_l1,
                                        step_kw={"classifier": False}),
    "FusionClassifier-CNN-predict": _make("FusionClassifier", "cnn", "img", "cls", "fusion",
                                          eval_call="predict", step_kw={"classifier": True}),
    # Voting
    "VotingClassifier": _make("VotingClassifier", "mlp", "vec", "cls", "voting", setup=_steplr),
    "VotingClassifier-hard": _make("VotingClassifier", "mlp", "vec", "cls", "voting",
                                   ctor={"voting_strategy": "hard"}),
    "VotingRegressor": _make("VotingRegressor", "mlp", "vec", "reg", "voting"),
    "VotingClassifier-CNN-predict": _make("VotingClassifier", "cnn", "img", "cls", "voting",
                                          eval_call="predict"),
    "VotingClassifier-2inputs-instance": _make("VotingClassifier", "two", "two", "cls", "voting",
                                               est_args={**_TWO, "out_dim": _C}, instance=True),
    # Bagging
    "BaggingClassifier": _make("BaggingClassifier", "mlp", "vec", "cls", "voting"),
    "BaggingRegressor": _make("BaggingRegressor", "mlp", "vec", "reg", "voting", out_dim=2,
                              est_args={"out_dim": 2}),
    "BaggingClassifier-CNN": _make("BaggingClassifier", "cnn", "img", "cls", "voting"),
    # Gradient boosting
    "GradientBoostingClassifier": _make("GradientBoostingClassifier", "mlp", "vec", "cls", "gb",
                                        step_kw={"est_idx": 1}),
    "GradientBoostingRegressor": _make("GradientBoostingRegressor", "mlp", "vec", "reg", "gb",
                                       step_kw={"est_idx": 1}),
    "GradientBoostingClassifier-shrinkage": _make(
        "GradientBoostingClassifier", "mlp", "vec", "cls", "gb", ctor={"shrinkage_rate": 0.5},
        fit={"use_reduction_sum": False}, step_kw={"est_idx": 1, "use_reduction_sum": False}),
    "GradientBoostingClassifier-staged": _make("GradientBoostingClassifier", "mlp", "vec", "cls", "gb",
                                               eval_call="staged", step_kw={"est_idx": 0}),
    "GradientBoostingClassifier-CNN": _make("GradientBoostingClassifier", "cnn", "img", "cls", "gb",
                                            step_kw={"est_idx": 1}),
    "GradientBoostingRegressor-2inputs": _make("GradientBoostingRegressor", "two", "two", "reg", "gb",
                                               out_dim=2, est_args={**_TWO, "out_dim": 2},
                                               step_kw={"est_idx": 1}),
    # Snapshot ensemble
    "SnapshotEnsembleClassifier": _make("SnapshotEnsembleClassifier", "mlp", "vec", "cls", "snapshot",
                                        fit={"epochs": 2}),
    "SnapshotEnsembleClassifier-hard": _make("SnapshotEnsembleClassifier", "mlp", "vec", "cls",
                                             "snapshot", ctor={"voting_strategy": "hard"},
                                             fit={"epochs": 2, "lr_clip": (1e-5, 1e-2)}),
    "SnapshotEnsembleRegressor": _make("SnapshotEnsembleRegressor", "mlp", "vec", "reg", "snapshot",
                                       fit={"epochs": 2}),
    "SnapshotEnsembleClassifier-CNN-predict": _make("SnapshotEnsembleClassifier", "cnn", "img", "cls",
                                                    "snapshot", fit={"epochs": 2}, eval_call="predict"),
    # Adversarial training
    "AdversarialTrainingClassifier": _make("AdversarialTrainingClassifier", "mlp", "vec", "cls", "adv"),
    "AdversarialTrainingRegressor": _make("AdversarialTrainingRegressor", "mlp", "vec", "reg", "adv",
                                          fit={"epsilon": 0.1}, step_kw={"epsilon": 0.1}),
    "AdversarialTrainingClassifier-CNN": _make("AdversarialTrainingClassifier", "cnn", "img", "cls",
                                               "adv"),
    # Fast geometric ensemble
    "FastGeometricClassifier": _make("FastGeometricClassifier", "mlp", "vec", "cls", "snapshot",
                                     fit={"cycle": 2}),
    "FastGeometricRegressor": _make("FastGeometricRegressor", "mlp", "vec", "reg", "snapshot",
                                    fit={"cycle": 2}),
    "FastGeometricClassifier-CNN": _make("FastGeometricClassifier", "cnn", "img", "cls", "snapshot",
                                         fit={"cycle": 2}, setup=_steplr),
    # Soft gradient boosting
    "SoftGradientBoostingClassifier": _make("SoftGradientBoostingClassifier", "mlp", "vec", "cls",
                                            "softgb"),
    "SoftGradientBoostingRegressor": _make("SoftGradientBoostingRegressor", "mlp", "vec", "reg",
                                           "softgb", out_dim=2, est_args={"out_dim": 2},
                                           ctor={"shrinkage_rate": 0.5}),
    "SoftGradientBoostingClassifier-CNN": _make("SoftGradientBoostingClassifier", "cnn", "img", "cls",
                                                "softgb", fit={"use_reduction_sum": False},
                                                step_kw={"use_reduction_sum": False}),
    # Neural forest (soft decision trees)
    "NeuralForestClassifier": _make("NeuralForestClassifier", "tree", "vec", "cls", "voting",
                                    ctor={"depth": 3, "lamda": 1e-3}),
    "NeuralForestRegressor": _make("NeuralForestRegressor", "tree", "vec", "reg", "voting", out_dim=2,
                                   ctor={"depth": 3}),
    "NeuralForestClassifier-depth2": _make("NeuralForestClassifier", "tree", "vec", "cls", "voting",
                                           ctor={"depth": 2, "lamda": 0.0}),
    "NeuralForestClassifier-images-predict": _make("NeuralForestClassifier", "tree", "img", "cls",
                                                   "voting", ctor={"depth": 3}, eval_call="predict"),
    "NeuralForestRegressor-images": _make("NeuralForestRegressor", "tree", "img", "reg", "voting",
                                          out_dim=2, ctor={"depth": 2}),
}
