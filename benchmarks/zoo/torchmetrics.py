"""TorchMetrics (Lightning-AI) 1.9.0, import name ``torchmetrics``: metrics as users call them in a
training step or an eval loop (the README's module metrics ``metric(preds, target)`` — ``forward``,
which returns the batch value and accumulates — ``update`` then ``compute``, and the functional
metrics), tiny (batch 8, 5 classes, 4 labels, 6-feature inputs, 2-speaker 64-sample signals),
random data, no download:

- classification: the task wrapper ``Accuracy(task="multiclass")`` on probabilities (the README's),
  ``MulticlassAccuracy`` with ``top_k=2`` / ``average="macro"``, ``BinaryAccuracy`` on logits (the
  sigmoid applied inside), ``F1Score(task="multiclass", average="weighted")``,
  ``MultilabelF1Score`` (macro), ``MulticlassJaccardIndex`` with ``ignore_index`` (targets with
  -1), ``MulticlassConfusionMatrix(normalize="true")``, ``BinaryAUROC`` exact (``thresholds=None``:
  list states, concatenated at compute) and ``MulticlassAUROC`` binned (``thresholds=10``),
  ``MultilabelAveragePrecision``, ``BinaryPrecisionRecallCurve`` (a tuple), ``MulticlassCalibrationError``,
  ``MatthewsCorrCoef`` and ``CohenKappa`` (multiclass), ``MulticlassAccuracy`` per sample on
  ``(N, C, H, W)`` segmentation logits (``multidim_average="samplewise"``), a ``MetricCollection``
  of accuracy / precision / recall (compute groups; a dict), the epoch-end pattern
  ``update`` + ``compute`` (``MulticlassAccuracy``, ``BinaryAUROC``), and the functionals
  ``multiclass_accuracy`` (the README's), ``binary_f1_score(validate_args=False)`` and ``binary_roc``;
- regression: ``MeanSquaredError(squared=False)`` (RMSE), ``MeanAbsoluteError``, ``R2Score``
  (2 outputs, ``multioutput="raw_values"``), ``PearsonCorrCoef``, ``SpearmanCorrCoef`` (list
  states, ranked at compute), ``CosineSimilarity``, ``ExplainedVariance``, ``KLDivergence``;
- retrieval (pure torch): ``RetrievalMAP``, ``RetrievalNormalizedDCG(top_k=3)``,
  ``RetrievalPrecision(top_k=2)`` (three queries, grouped by ``indexes``), and
  the functional ``retrieval_average_precision`` of one query;
- audio (no extras): ``ScaleInvariantSignalDistortionRatio``, ``SignalNoiseRatio``,
  ``ScaleInvariantSignalNoiseRatio``, ``SignalDistortionRatio(filter_length=16)`` (Toeplitz solve),
  ``PermutationInvariantTraining`` over SI-SNR (speaker-wise), the functional
  ``permutation_invariant_training`` (permutation-wise) + ``pit_permutate``;
- aggregation: ``MeanMetric`` logging the training loss.

Eval: the metric module called on ``(preds, target[, indexes])`` (``forward``), the
``UpdateCompute`` / ``Functional`` wrappers for the other two patterns. Train: a training step
(``TrainStep``) that runs a small user network (linear / 1x1 conv / conv1d "separator"), returns
a differentiable loss and logs the metric on the batch in its forward, as a Lightning
``training_step`` does with ``self.train_acc(preds, y)``: cross entropy for multiclass,
BCE-with-logits for binary / multilabel / retrieval relevance; for regression the loss is the
library's own ``mean_squared_error`` (differentiable); for audio the library's own metrics are the
loss (``-SI-SDR`` / ``-SI-SNR`` / ``-SNR`` / ``-SDR``, PIT's best ``-SI-SNR``), as speech separation
trains; the functional entries' train step returns the loss and computes the functional metric.

    pip install --no-deps torchmetrics==1.9.0 lightning-utilities==0.15.3

It imports torch, numpy, packaging and lightning_utilities (all present). Nothing stubbed.

Left out: the image, text, detection, segmentation, multimodal, nominal, clustering, shape and
video domains (outside this adapter's scope: the brief is classification, regression, retrieval and
audio; many need extras: FID / LPIPS / CLIP weights, BERTScore / tokenizers, pycocotools), the audio
metrics that need extra packages or weights (PESQ, STOI, SRMR, DNSMOS, NISQA), ``SignalDistortionRatio(use_cg_iter=...)`` (fast-bss-eval), PIT with 3+ speakers
(scipy's ``linear_sum_assignment`` on CPU numpy), distributed sync (``dist_sync_on_step`` needs a
process group), and ``.plot`` (matplotlib).
Notes: ``validate_args=True`` (the default) checks values in Python (``torch.unique``, ``.any()``
on targets) on every update; ``forward`` saves, resets, updates, computes and merges states
(``_forward_reduce_state_update``; ``full_state_update=True`` metrics update twice); a plain
``update`` runs under ``torch.set_grad_enabled(False)``, ``forward`` turns grad on for the batch
value (``_enable_grad``); the normalized
confusion matrix warns (NaN rows replaced by zeros) when a class is absent from the batch.
"""

import functools

PACKAGE = "torchmetrics"
DISTRIBUTION = "torchmetrics"

_B, _C, _L, _F = 8, 5, 4, 6  # batch, classes, labels, input features
_HW = 4  # segmentation map side
_SPK, _T = 2, 64  # speakers, signal samples
_Q, _DOCS = 3, 4  # retrieval queries, documents per query


def warm_up():
    import torch  # noqa: F401
    import torchmetrics
    import torchmetrics.functional  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from torch import nn
    from torchmetrics.functional.regression import mean_squared_error

    class UpdateCompute(nn.Module):
        """The eval loop's end: ``metric.update(*batch)`` then ``metric.compute()``."""

        def __init__(self, metric):
            super().__init__()
            self.metric = metric

        def forward(self, *args, **kwargs):
            self.metric.update(*args, **kwargs)
            return self.metric.compute()

    class Functional(nn.Module):
        """A functional metric with fixed options: ``fn(preds, target, **options)``."""

        def __init__(self, fn, **options):
            super().__init__()
            self.fn, self.options = fn, options

        def forward(self, *args, **kwargs):
            return self.fn(*args, **kwargs, **self.options)

    class TrainStep(nn.Module):
        """A training step: the network's output, a differentiable loss, and the metric logged on
        the batch (``metric(preds, target)``: the batch value, the state accumulated).

        ``loss``: "ce" (cross entropy of logits), "bce" (BCE with logits), "mse" (the library's
        ``mean_squared_error``), or a callable ``loss(out, target) -> scalar``.
        ``metric_input``: how the metric sees the output: "out" (as is), "softmax", "sigmoid",
        "squeeze" (a 1-output regressor), or a callable ``(out, target, extra) -> args``.
        ``extra`` (e.g. retrieval indexes) goes to the metric as keyword arguments."""

        def __init__(self, net, metric, loss="ce", metric_input="out"):
            super().__init__()
            self.net, self.metric, self.loss, self.metric_input = net, metric, loss, metric_input

        def forward(self, x, target, **extra):
            out = self.net(x)
            if self.loss == "ce":
                loss = F.cross_entropy(out, target)
            elif self.loss == "bce":
                loss = F.binary_cross_entropy_with_logits(out.reshape(target.shape), target.float())
            elif self.loss == "mse":
                loss = mean_squared_error(out.reshape(target.shape), target)
            else:
                loss = self.loss(out, target)
            mi = self.metric_input
            if mi == "softmax":
                preds = out.softmax(dim=1)
            elif mi == "sigmoid":
                preds = out.sigmoid()
            elif mi == "squeeze":
                preds = out.squeeze(-1)
            else:
                preds = out
            if callable(mi):
                self.metric(*mi(out, target, extra))
            elif self.metric is not None:
                self.metric(preds.reshape(target.shape) if mi == "flat" else preds, target, **extra)
            return loss

    class LossLogger(nn.Module):
        """A training step that logs its own loss: ``self.train_loss(loss)`` (``MeanMetric``)
        and the accuracy of its logits."""

        def __init__(self, net, loss_metric, acc):
            super().__init__()
            self.net, self.loss_metric, self.acc = net, loss_metric, acc

        def forward(self, x, target):
            logits = self.net(x)
            loss = F.cross_entropy(logits, target)
            self.loss_metric(loss.detach())
            self.acc(logits, target)
            return loss

    class Separator(nn.Module):
        """A tiny speech separator: one mixture ``(B, T)`` to ``(B, spk, T)`` sources."""

        def __init__(self, spk=_SPK):
            super().__init__()
            self.spk = spk
            self.enc = nn.Conv1d(1, 8, 5, padding=2)
            self.dec = nn.Conv1d(8, spk, 5, padding=2)

        def forward(self, mix):
            return self.dec(torch.relu(self.enc(mix.unsqueeze(1))))

    class NegMetricLoss(nn.Module):
        """The separator trained on the negative of a library audio metric (``fn(preds, target)``
        per source, averaged); the metric module logs the batch too."""

        def __init__(self, fn, metric=None, single=True):
            super().__init__()
            self.net, self.fn, self.metric, self.single = Separator(), fn, metric, single

        def forward(self, mix, target):
            est = self.net(mix)
            if self.single:  # target: (B, T), the first source
                est = est[:, 0]
            loss = -self.fn(est, target).mean()
            if self.metric is not None:
                self.metric(est.detach(), target)
            return loss

    class PITLoss(nn.Module):
        """Permutation-invariant training: the best permutation's ``-metric`` is the loss;
        ``pit_permutate`` reorders the estimates (logged by ``metric`` when given)."""

        def __init__(self, fn, mode="speaker-wise", metric=None):
            super().__init__()
            self.net, self.fn, self.mode, self.metric = Separator(), fn, mode, metric

        def forward(self, mix, target):
            from torchmetrics.functional.audio import (
                permutation_invariant_training,
                pit_permutate,
            )

            est = self.net(mix)
            best, perm = permutation_invariant_training(est, target, self.fn, mode=self.mode, eval_func="max")
            reordered = pit_permutate(est, perm)
            if self.metric is not None:
                self.metric(reordered.detach(), target)
            return -best.mean()

    class PITEval(nn.Module):
        """The functional PIT at eval: the best metric per sample and the reordered estimates."""

        def __init__(self, fn, mode):
            super().__init__()
            self.fn, self.mode = fn, mode

        def forward(self, preds, target):
            from torchmetrics.functional.audio import (
                permutation_invariant_training,
                pit_permutate,
            )

            best, perm = permutation_invariant_training(preds, target, self.fn, mode=self.mode, eval_func="max")
            return best, pit_permutate(preds, perm)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _x():
    import torch

    return torch.randn(_B, _F)


def _multiclass(kind="probs"):
    """Multiclass ``(preds, target)``: probabilities, logits or labels ``(B, C)`` / ``(B,)``."""
    import torch

    logits = torch.randn(_B, _C)
    target = torch.randint(0, _C, (_B,))
    preds = logits.softmax(-1) if kind == "probs" else logits
    return preds, target


def _binary():
    import torch

    return torch.randn(_B), torch.randint(0, 2, (_B,))


def _multilabel():
    import torch

    return torch.rand(_B, _L), torch.randint(0, 2, (_B, _L))


def _regression(outputs=1):
    import torch

    shape = (_B,) if outputs == 1 else (_B, outputs)
    target = torch.randn(shape)
    return target + 0.3 * torch.randn(shape), target


def _retrieval():
    """Three queries of four documents: scores, relevance (each query one relevant), indexes."""
    import torch

    n = _Q * _DOCS
    indexes = torch.arange(_Q).repeat_interleave(_DOCS)
    target = torch.zeros(n, dtype=torch.long)
    target[torch.arange(_Q) * _DOCS + torch.tensor([0, 2, 3])] = 1
    target[5] = 1
    return torch.randn(n), target, indexes


def _audio(single=True):
    """``(preds, target)`` signals ``(B, T)`` (``single``) or ``(B, spk, T)``, and a mixture."""
    import torch

    target = torch.randn(2, _SPK, _T)
    preds = target + 0.5 * torch.randn(2, _SPK, _T)
    mix = target.sum(1)
    if single:
        return preds[:, 0], target[:, 0], mix
    return preds, target, mix


# --- models ------------------------------------------------------------------------------------

def _classification(build, kind="multiclass", pattern="forward"):
    """A classification metric: eval ``metric(preds, target)`` (``pattern="forward"``) or
    ``update`` + ``compute``; train a linear classifier's ``TrainStep`` logging the metric.
    ``kind``: "multiclass" (probabilities), "multiclass_logits", "binary" (logits),
    "multilabel" (probabilities), "ignore" (multiclass, some targets -1)."""

    def make(mode):
        import torch
        from torch import nn

        metric = build()
        if kind.startswith("multiclass") or kind == "ignore":
            preds, target = _multiclass("probs" if kind == "multiclass" else "logits")
            if kind == "ignore":
                target[::3] = -1
            net, loss, mi = nn.Linear(_F, _C), "ce", ("softmax" if kind == "multiclass" else "out")
            if kind == "ignore":
                loss = lambda out, t: torch.nn.functional.cross_entropy(out, t, ignore_index=-1)
        elif kind == "binary":
            preds, target = _binary()
            net, loss, mi = nn.Linear(_F, 1), "bce", "flat"
        else:
            preds, target = _multilabel()
            net, loss, mi = nn.Linear(_F, _L), "bce", "sigmoid"
        if mode == "train":
            return _nets().TrainStep(net, metric, loss, mi), (_x(), target), {}
        if pattern == "update_compute":
            return _nets().UpdateCompute(metric), (preds, target), {}
        return metric, (preds, target), {}

    return make


def _segmentation(mode):
    """``MulticlassAccuracy(multidim_average="samplewise")`` on ``(N, C, H, W)`` logits; train a
    1x1-conv segmenter with cross entropy."""
    import torch
    from torch import nn
    from torchmetrics.classification import MulticlassAccuracy

    metric = MulticlassAccuracy(num_classes=_C, multidim_average="samplewise", average="macro")
    target = torch.randint(0, _C, (2, _HW, _HW))
    if mode == "train":
        return _nets().TrainStep(nn.Conv2d(3, _C, 1), metric, "ce"), (torch.randn(2, 3, _HW, _HW), target), {}
    return metric, (torch.randn(2, _C, _HW, _HW), target), {}


def _functional_cls(name, kind, **options):
    """A classification functional in a wrapper; train: the ``TrainStep`` with it as the logged metric."""

    def make(mode):
        from torch import nn
        from torchmetrics.functional import classification as fc

        fn = _nets().Functional(getattr(fc, name), **options)
        if kind == "multiclass":
            preds, target = _multiclass()
            if mode == "train":
                return _nets().TrainStep(nn.Linear(_F, _C), fn, "ce", "softmax"), (_x(), target), {}
        else:
            preds, target = _binary()
            if mode == "train":
                return _nets().TrainStep(nn.Linear(_F, 1), fn, "bce", "flat"), (_x(), target), {}
        return fn, (preds, target), {}

    return make


def _regression_metric(build, outputs=1, pattern="forward", data=None):
    """A regression metric on ``(preds, target)``; train a linear regressor with the library's
    ``mean_squared_error`` logging the metric."""

    def make(mode):
        from torch import nn

        metric = build()
        preds, target = data() if data else _regression(outputs)
        if mode == "train":
            if data is not None:  # distributions: a softmax head, the metric on probabilities
                mi = lambda out, t, extra: (out.softmax(-1), t)
                return _nets().TrainStep(nn.Linear(_F, target.shape[-1]), metric, "mse", mi), (_x(), target), {}
            net = nn.Linear(_F, outputs)
            return _nets().TrainStep(net, metric, "mse", "squeeze" if outputs == 1 else "out"), (_x(), target), {}
        if pattern == "update_compute":
            return _nets().UpdateCompute(metric), (preds, target), {}
        return metric, (preds, target), {}

    return make


def _distributions():
    import torch

    return torch.randn(_B, _C).softmax(-1), torch.randn(_B, _C).softmax(-1)


def _retrieval_metric(build):
    """``metric(preds, target, indexes=indexes)``; train a linear document scorer with BCE on the
    relevance, the metric logged per query."""

    def make(mode):
        import torch
        from torch import nn

        metric = build()
        preds, target, indexes = _retrieval()
        if mode == "train":
            feats = torch.randn(preds.shape[0], _F)
            return _nets().TrainStep(nn.Linear(_F, 1), metric, "bce", "flat"), (feats, target), {"indexes": indexes}
        return metric, (preds, target), {"indexes": indexes}

    return make


def _retrieval_functional(mode):
    """``retrieval_average_precision(preds, target)`` of one query (no indexes)."""
    import torch
    from torch import nn
    from torchmetrics.functional.retrieval import retrieval_average_precision

    fn = _nets().Functional(retrieval_average_precision, top_k=3)
    preds, target, _ = _retrieval()
    preds, target = preds[:_DOCS], target[:_DOCS]
    if mode == "train":
        return _nets().TrainStep(nn.Linear(_F, 1), fn, "bce", "flat"), (torch.randn(_DOCS, _F), target), {}
    return fn, (preds, target), {}


def _audio_metric(build, fn_name, **fn_options):
    """An audio metric module on ``(preds, target)`` ``(B, T)``; train the separator on the
    library's functional ``-fn_name`` (first source), the module logging the batch."""

    def make(mode):
        import torchmetrics.functional.audio as fa

        metric = build()
        preds, target, mix = _audio()
        if mode == "train":
            fn = functools.partial(getattr(fa, fn_name), **fn_options)
            return _nets().NegMetricLoss(fn, metric), (mix, target), {}
        return metric, (preds, target), {}

    return make


def _pit_module(mode):
    """``PermutationInvariantTraining(scale_invariant_signal_noise_ratio)`` (speaker-wise) on
    ``(B, spk, T)``; train: the functional PIT over ``-SI-SNR`` as the loss, the module logging."""
    from torchmetrics.audio import PermutationInvariantTraining
    from torchmetrics.functional.audio import scale_invariant_signal_noise_ratio

    metric = PermutationInvariantTraining(scale_invariant_signal_noise_ratio, mode="speaker-wise", eval_func="max")
    preds, target, mix = _audio(single=False)
    if mode == "train":
        return _nets().PITLoss(scale_invariant_signal_noise_ratio, metric=metric), (mix, target), {}
    return metric, (preds, target), {}


def _pit_functional(mode):
    """The functional ``permutation_invariant_training`` (permutation-wise, SI-SDR over all speakers
    at once) + ``pit_permutate``; train: its best ``-SI-SDR`` as the loss."""
    from torchmetrics.functional.audio import (
        scale_invariant_signal_distortion_ratio as si_sdr,
    )

    preds, target, mix = _audio(single=False)
    if mode == "train":
        return _nets().PITLoss(si_sdr, mode="permutation-wise"), (mix, target), {}
    return _nets().PITEval(si_sdr, "permutation-wise"), (preds, target), {}


def _mean_metric(mode):
    """``MeanMetric`` logging the loss of the step (eval: the batch losses averaged)."""
    import torch
    from torch import nn
    from torchmetrics.aggregation import MeanMetric
    from torchmetrics.classification import MulticlassAccuracy

    if mode == "train":
        net = _nets().LossLogger(nn.Linear(_F, _C), MeanMetric(), MulticlassAccuracy(num_classes=_C))
        return net, (_x(), _multiclass()[1]), {}
    return _nets().UpdateCompute(MeanMetric()), (torch.rand(_B),), {"weight": torch.rand(_B)}


# --- metric builders ----------------------------------------------------------------------------

def _c(name, **kw):
    """``torchmetrics.classification.<name>(**kw)``, built when the model is."""

    def build():
        import torchmetrics.classification as tc

        return getattr(tc, name)(**kw)

    return build


def _r(name, **kw):
    def build():
        import torchmetrics.regression as tr

        return getattr(tr, name)(**kw)

    return build


def _q(name, **kw):
    def build():
        import torchmetrics.retrieval as tq

        return getattr(tq, name)(**kw)

    return build


def _a(name, **kw):
    def build():
        import torchmetrics.audio as ta

        return getattr(ta, name)(**kw)

    return build


def _collection():
    from torchmetrics import MetricCollection
    from torchmetrics.classification import (
        MulticlassAccuracy,
        MulticlassPrecision,
        MulticlassRecall,
    )

    return MetricCollection(
        [MulticlassAccuracy(num_classes=_C), MulticlassPrecision(num_classes=_C), MulticlassRecall(num_classes=_C)],
        prefix="train_",
    )


MODELS = {
    # classification: module metrics called on the batch (forward)
    "Accuracy_task_multiclass": _classification(_c("Accuracy", task="multiclass", num_classes=_C)),
    "MulticlassAccuracy_top2_macro": _classification(
        _c("MulticlassAccuracy", num_classes=_C, top_k=2, average="macro"), "multiclass_logits"),
    "BinaryAccuracy_logits": _classification(_c("BinaryAccuracy"), "binary"),
    "F1Score_task_weighted": _classification(_c("F1Score", task="multiclass", num_classes=_C, average="weighted")),
    "MultilabelF1Score_macro": _classification(_c("MultilabelF1Score", num_labels=_L, average="macro"), "multilabel"),
    "MulticlassJaccardIndex_ignore_index": _classification(
        _c("MulticlassJaccardIndex", num_classes=_C, ignore_index=-1), "ignore"),
    "MulticlassConfusionMatrix_normalized": _classification(
        _c("MulticlassConfusionMatrix", num_classes=_C, normalize="true")),
    "BinaryAUROC_exact": _classification(_c("BinaryAUROC"), "binary"),
    "MulticlassAUROC_binned": _classification(_c("MulticlassAUROC", num_classes=_C, thresholds=10)),
    "MultilabelAveragePrecision": _classification(_c("MultilabelAveragePrecision", num_labels=_L), "multilabel"),
    "BinaryPrecisionRecallCurve": _classification(_c("BinaryPrecisionRecallCurve"), "binary"),
    "MulticlassCalibrationError": _classification(_c("MulticlassCalibrationError", num_classes=_C, n_bins=5)),
    "MatthewsCorrCoef_multiclass": _classification(_c("MatthewsCorrCoef", task="multiclass", num_classes=_C)),
    "CohenKappa_multiclass": _classification(_c("CohenKappa", task="multiclass", num_classes=_C)),
    "MulticlassAccuracy_samplewise_seg": _segmentation,
    "MetricCollection_acc_prec_rec": _classification(_collection),
    # classification: the epoch-end pattern and the functionals
    "MulticlassAccuracy_update_compute": _classification(
        _c("MulticlassAccuracy", num_classes=_C), pattern="update_compute"),
    "BinaryAUROC_update_compute": _classification(_c("BinaryAUROC"), "binary", pattern="update_compute"),
    "functional_multiclass_accuracy": _functional_cls("multiclass_accuracy", "multiclass", num_classes=_C),
    "functional_binary_f1_no_validate": _functional_cls("binary_f1_score", "binary", validate_args=False),
    "functional_binary_roc": _functional_cls("binary_roc", "binary"),
    # regression
    "RMSE_MeanSquaredError": _regression_metric(_r("MeanSquaredError", squared=False)),
    "MeanAbsoluteError": _regression_metric(_r("MeanAbsoluteError")),
    "R2Score_raw_values": _regression_metric(_r("R2Score", multioutput="raw_values"), outputs=2),
    "PearsonCorrCoef": _regression_metric(_r("PearsonCorrCoef")),
    "SpearmanCorrCoef_update_compute": _regression_metric(_r("SpearmanCorrCoef"), pattern="update_compute"),
    "CosineSimilarity": _regression_metric(_r("CosineSimilarity", reduction="mean"), outputs=3),
    "ExplainedVariance": _regression_metric(_r("ExplainedVariance")),
    "KLDivergence": _regression_metric(_r("KLDivergence"), data=_distributions),
    # retrieval
    "RetrievalMAP": _retrieval_metric(_q("RetrievalMAP")),
    "RetrievalNormalizedDCG_top3": _retrieval_metric(_q("RetrievalNormalizedDCG", top_k=3)),
    "RetrievalPrecision_top2": _retrieval_metric(_q("RetrievalPrecision", top_k=2)),
    "functional_retrieval_average_precision": _retrieval_functional,
    # audio
    "ScaleInvariantSignalDistortionRatio": _audio_metric(
        _a("ScaleInvariantSignalDistortionRatio"), "scale_invariant_signal_distortion_ratio"),
    "SignalNoiseRatio": _audio_metric(_a("SignalNoiseRatio"), "signal_noise_ratio"),
    "ScaleInvariantSignalNoiseRatio": _audio_metric(
        _a("ScaleInvariantSignalNoiseRatio"), "scale_invariant_signal_noise_ratio"),
    "SignalDistortionRatio": _audio_metric(
        _a("SignalDistortionRatio", filter_length=16), "signal_distortion_ratio", filter_length=16),
    "PermutationInvariantTraining_si_snr": _pit_module,
    "functional_pit_permutation_wise": _pit_functional,
    # aggregation
    "MeanMetric_loss_logger": _mean_metric,
}
