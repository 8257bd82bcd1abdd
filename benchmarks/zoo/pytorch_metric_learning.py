"""pytorch-metric-learning: the library's metric-learning losses, each behind a small trunk
(``nn.Linear(32, 16)``) in one module whose forward runs ``trunk(x)`` then the loss:
``forward(x, labels)`` on a random batch of 16 inputs, 4 classes of 4 (``torch.arange(16) % 4``,
the equal counts ``SmoothAPLoss`` requires). Random weights, small sizes, nothing downloaded.
The models: every loss in ``pytorch_metric_learning.losses`` that takes embeddings + integer
labels (pair, triplet, list and ranking losses; the classifier-style ones with their own class
weights, proxies or centers: ArcFace, CosFace, SphereFace, NormalizedSoftmax, ProxyAnchor,
ProxyNCA, SoftTriple, SubCenterArcFace, P2SGrad); the label-free ones (``ManifoldLoss`` on the
embeddings alone; ``VICRegLoss`` and ``SelfSupervisedLoss`` on two views, ``forward(x, x_aug)``);
a loss with each miner of ``pytorch_metric_learning.miners`` as
``loss(emb, labels, miner(emb, labels))``; ``CrossBatchMemory`` (its queue written in forward;
with a miner; with an ``enqueue_mask``, MoCo-style, ``forward(x, labels, enqueue_mask)``);
``MultipleLosses`` (weighted, a miner for one loss); an embedding regularizer
(``LpRegularizer``), a weight regularizer (``RegularFaceRegularizer``) and a reducer
(``ThresholdReducer``). Eval and train run the same module and return the scalar loss (train
with gradients on, through the trunk and the loss's own parameters). ``HistogramLoss`` indexes
its distance matrix with a Python list of index lists (``mat[[rows, cols]]``), which torch
2.13 still accepts, with a deprecation warning.

    pip install --no-deps pytorch-metric-learning==2.9.0

Its pure dependencies: numpy, tqdm and scipy (``utils/common_functions.py`` imports
``scipy.stats``, ``LargeMarginSoftmaxLoss`` ``scipy.special``); scikit-learn, which it lists,
is imported only by ``utils/accuracy_calculator.py``, which no model here reaches.

Left out: ``utils.inference`` (``InferenceModel``, ``FaissKNN``, ``FaissKMeans``: faiss),
``utils.accuracy_calculator`` (scikit-learn metrics, not a loss), ``trainers`` / ``testers``
(training loops over datasets; testers use faiss), ``datasets`` (downloads), ``samplers``
(index samplers over a dataset); ``distances.BatchedDistance`` (fails eagerly as a loss's
``distance``: it iterates query chunks into an ``iter_fn`` and returns nothing to a loss);
``EmbeddingsAlreadyPackagedAsTriplets`` (a batch laid out as triplets: the triplet path the
other miners feed). Kept out to hold the count near 45, their paths covered by the entries
kept (all run eagerly): ``GeneralizedLiftedStructureLoss`` (``LiftedStructureLoss``'s
pair-loss path), ``LargeMarginSoftmaxLoss`` (``SphereFaceLoss`` is it, normalized), the other
regularizers (``ZeroMean``, ``SparseCenters``, ``CenterInvariant``) and reducers
(``PerAnchor``, ``ClassWeighted``, ``MultipleReducers``; ``DivisorReducer`` needs a loss that
reports a divisor), other distances (``SNRDistance``: ``SignalToNoiseRatioContrastiveLoss``
uses it; ``CosineSimilarity`` with ``TripletMarginLoss``), ``ref_emb`` / ``ref_labels``
(queries against a reference set: the path ``CrossBatchMemory`` takes).
"""

import functools

PACKAGE = "pytorch_metric_learning"
DISTRIBUTION = "pytorch-metric-learning"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite
_BATCH, _IN, _EMB, _CLASSES = 16, 32, 16, 4


@functools.cache
def _modules():
    """The nn.Module wrappers (a trunk then the loss), built once, when the first model is."""
    import torch

    class MetricLoss(torch.nn.Module):
        """``loss(trunk(x), labels)``, or with a miner ``loss(emb, labels, miner(emb, labels))``."""

        def __init__(self, loss, miner=None):
            super().__init__()
            self.trunk = torch.nn.Linear(_IN, _EMB)
            self.loss, self.miner = loss, miner

        def forward(self, x, labels):
            emb = self.trunk(x)
            if self.miner is not None:
                return self.loss(emb, labels, self.miner(emb, labels))
            return self.loss(emb, labels)

    class TwoViewLoss(torch.nn.Module):
        """Label-free, two augmented views: ``loss(trunk(x), trunk(x_aug))`` (VICReg,
        SelfSupervisedLoss)."""

        def __init__(self, loss, keyword=False):
            super().__init__()
            self.trunk = torch.nn.Linear(_IN, _EMB)
            self.loss, self.keyword = loss, keyword

        def forward(self, x, x_aug):
            emb, ref = self.trunk(x), self.trunk(x_aug)
            return self.loss(emb, ref_emb=ref) if self.keyword else self.loss(emb, ref)

    class EmbeddingLoss(torch.nn.Module):
        """Label-free, one view: ``loss(trunk(x))`` (ManifoldLoss)."""

        def __init__(self, loss):
            super().__init__()
            self.trunk = torch.nn.Linear(_IN, _EMB)
            self.loss = loss

        def forward(self, x):
            return self.loss(self.trunk(x))

    class MemoryLoss(torch.nn.Module):
        """``CrossBatchMemory``: ``loss(emb, labels, enqueue_mask=mask)``, the masked rows only
        queued (MoCo-style keys)."""

        def __init__(self, loss):
            super().__init__()
            self.trunk = torch.nn.Linear(_IN, _EMB)
            self.loss = loss

        def forward(self, x, labels, enqueue_mask):
            return self.loss(self.trunk(x), labels, enqueue_mask=enqueue_mask)

    return {"MetricLoss": MetricLoss, "TwoViewLoss": TwoViewLoss,
            "EmbeddingLoss": EmbeddingLoss, "MemoryLoss": MemoryLoss}


# --- inputs -------------------------------------------------------------------------------

def _batch(n=_BATCH):
    import torch

    return torch.randn(n, _IN), torch.arange(n) % _CLASSES


# --- builders: each returns a factory make(mode) -> (module, args, kwargs) ----------------

def _get(kind, name, **kwargs):
    import importlib

    return getattr(importlib.import_module(f"pytorch_metric_learning.{kind}"), name)(**kwargs)


def _classifier(**kwargs):
    """The kwargs of the losses with their own class weights or proxies."""
    return {"num_classes": _CLASSES, "embedding_size": _EMB, **kwargs}


def _loss(name, miner=None, miner_kwargs=None, **kwargs):
    """``name(**kwargs)`` behind the trunk; with ``miner``, its tuples feed the loss."""

    def make(mode):
        loss = _get("losses", name, **kwargs)
        mine = _get("miners", miner, **(miner_kwargs or {})) if miner else None
        return _modules()["MetricLoss"](loss, mine), _batch(), {}

    return make


def _with(build_loss):
    """A loss built by ``build_loss()`` (with a regularizer, a reducer; MultipleLosses)."""

    def make(mode):
        return _modules()["MetricLoss"](build_loss()), _batch(), {}

    return make


def _two_view(build_loss, keyword=False):
    def make(mode):
        import torch

        x = torch.randn(_BATCH, _IN)
        return _modules()["TwoViewLoss"](build_loss(), keyword), (x, x + 0.5 * torch.randn_like(x)), {}

    return make


def _manifold(mode):
    import torch

    loss = _get("losses", "ManifoldLoss", l=_EMB, K=_CLASSES)
    return _modules()["EmbeddingLoss"](loss), (torch.randn(_BATCH, _IN),), {}


def _memory(name, miner=None, enqueue=False, **kwargs):
    """``CrossBatchMemory`` around ``name`` (a 32-row queue, so filled on the second call)."""

    def make(mode):
        import torch

        inner = _get("losses", name, **kwargs)
        mine = _get("miners", miner) if miner else None
        loss = _get("losses", "CrossBatchMemory", loss=inner, embedding_size=_EMB, memory_size=32, miner=mine)
        x, labels = _batch()
        if enqueue:
            return _modules()["MemoryLoss"](loss), (x, labels, torch.arange(_BATCH) >= _BATCH // 2), {}
        return _modules()["MetricLoss"](loss), (x, labels), {}

    return make


# --- losses built with other parts ------------------------------------------------------

def _multiple_losses():
    """Two losses summed with weights, a miner for one of them (``TripletMarginMiner``)."""
    from pytorch_metric_learning import losses, miners

    loss = losses.MultipleLosses({"triplet": losses.TripletMarginLoss(margin=0.2),
                                  "ms": losses.MultiSimilarityLoss()},
                                 miners={"triplet": miners.TripletMarginMiner(margin=0.2, type_of_triplets="semihard")},
                                 weights={"triplet": 1.0, "ms": 0.5})
    return loss


def _lp_regularized():
    from pytorch_metric_learning import losses, regularizers

    return losses.ContrastiveLoss(embedding_regularizer=regularizers.LpRegularizer(), embedding_reg_weight=0.1)


def _regular_face():
    from pytorch_metric_learning import losses, regularizers

    return losses.ArcFaceLoss(**_classifier(weight_regularizer=regularizers.RegularFaceRegularizer()))


def _threshold_reducer():
    from pytorch_metric_learning import losses, reducers

    return losses.TripletMarginLoss(margin=0.2, reducer=reducers.ThresholdReducer(low=0.01, high=1.0))


def _self_supervised():
    from pytorch_metric_learning import losses

    return losses.SelfSupervisedLoss(losses.NTXentLoss())


def _vicreg():
    from pytorch_metric_learning import losses

    return losses.VICRegLoss()


MODELS = {
    # pair, triplet and list losses on (embeddings, labels)
    "AngularLoss": _loss("AngularLoss"),
    "CircleLoss": _loss("CircleLoss"),
    "ContrastiveLoss": _loss("ContrastiveLoss"),
    "DynamicSoftMarginLoss": _loss("DynamicSoftMarginLoss"),
    "FastAPLoss": _loss("FastAPLoss"),
    "HistogramLoss": _loss("HistogramLoss", n_bins=10),
    "InstanceLoss": _loss("InstanceLoss"),
    "IntraPairVarianceLoss": _loss("IntraPairVarianceLoss"),
    "LiftedStructureLoss": _loss("LiftedStructureLoss"),
    "MarginLoss_learn_beta": _loss("MarginLoss", learn_beta=True, num_classes=_CLASSES),
    "MultiSimilarityLoss": _loss("MultiSimilarityLoss"),
    "NCALoss": _loss("NCALoss"),
    "NPairsLoss": _loss("NPairsLoss"),
    "NTXentLoss": _loss("NTXentLoss"),
    "PNPLoss": _loss("PNPLoss"),
    "RankedListLoss": _loss("RankedListLoss", margin=0.4, Tn=1.0),
    "SignalToNoiseRatioContrastiveLoss": _loss("SignalToNoiseRatioContrastiveLoss"),
    "SmoothAPLoss": _loss("SmoothAPLoss"),
    "SupConLoss": _loss("SupConLoss"),
    "ThresholdConsistentMarginLoss": _loss("ThresholdConsistentMarginLoss"),
    "TripletMarginLoss": _loss("TripletMarginLoss", margin=0.1),
    "TupletMarginLoss": _loss("TupletMarginLoss"),
    # classifier-style: their own class weights, proxies or centers
    "ArcFaceLoss": _loss("ArcFaceLoss", **_classifier()),
    "CosFaceLoss": _loss("CosFaceLoss", **_classifier()),
    "SphereFaceLoss": _loss("SphereFaceLoss", **_classifier()),
    "NormalizedSoftmaxLoss": _loss("NormalizedSoftmaxLoss", **_classifier()),
    "ProxyAnchorLoss": _loss("ProxyAnchorLoss", **_classifier()),
    "ProxyNCALoss": _loss("ProxyNCALoss", **_classifier()),
    "SoftTripleLoss": _loss("SoftTripleLoss", **_classifier(centers_per_class=2)),
    "SubCenterArcFaceLoss": _loss("SubCenterArcFaceLoss", **_classifier(sub_centers=2)),
    "P2SGradLoss": _loss("P2SGradLoss", descriptors_dim=_EMB, num_classes=_CLASSES),
    # label-free
    "ManifoldLoss": _manifold,
    "VICRegLoss": _two_view(_vicreg, keyword=True),
    "SelfSupervisedLoss_NTXentLoss": _two_view(_self_supervised),
    # losses with miners (MultiSimilarityMiner: in CrossBatchMemory; TripletMarginMiner: in MultipleLosses)
    "TripletMarginLoss+BatchHardMiner": _loss("TripletMarginLoss", "BatchHardMiner", margin=0.1),
    "TripletMarginLoss+BatchEasyHardMiner": _loss("TripletMarginLoss", "BatchEasyHardMiner", margin=0.1),
    "ContrastiveLoss+PairMarginMiner": _loss("ContrastiveLoss", "PairMarginMiner"),
    "ContrastiveLoss+HDCMiner": _loss("ContrastiveLoss", "HDCMiner"),
    "ContrastiveLoss+UniformHistogramMiner": _loss("ContrastiveLoss", "UniformHistogramMiner",
                                                   {"num_bins": 10, "pos_per_bin": 2, "neg_per_bin": 4}),
    "AngularLoss+AngularMiner": _loss("AngularLoss", "AngularMiner"),
    "MarginLoss+DistanceWeightedMiner": _loss("MarginLoss", "DistanceWeightedMiner"),
    # wrappers
    "CrossBatchMemory_NTXentLoss+MultiSimilarityMiner": _memory("NTXentLoss", "MultiSimilarityMiner"),
    "CrossBatchMemory_NTXentLoss_enqueue_mask": _memory("NTXentLoss", enqueue=True),
    "MultipleLosses_TripletMargin+MultiSimilarity": _with(_multiple_losses),
    # a regularizer (embedding, weight) or a reducer
    "ContrastiveLoss+LpRegularizer": _with(_lp_regularized),
    "ArcFaceLoss+RegularFaceRegularizer": _with(_regular_face),
    "TripletMarginLoss+ThresholdReducer": _with(_threshold_reducer),
}
