"""tabpfn 9.2.0 (Prior Labs' tabular foundation model): its transformer architectures built from
small random configs exactly as its tests build them (``tests/test_model_specs.py``,
``test_batched_members.py``, ``test_model_loading.py``, ``test_public_compile.py``:
``tabpfn_v*.get_architecture(Config(...))``, no checkpoint is downloaded), run on a small in-context
table: 24 training rows and 8 test rows of 5 features, one ensemble member (``x`` of shape
``(rows, batch, features)``, ``y`` the 24 training labels), as ``inference.py`` calls the model.

Captured (``MODELS``):

- ``TabPFNV2`` (``emsize=16``, one layer, 2 heads, feature groups of 2): classifier, regressor,
  ``only_return_standard_out=False`` (the dict of decoder outputs and embeddings),
  ``PerformanceOptions(force_recompute_layer=True)`` (activation checkpointing),
  ``save_peak_memory_factor=2`` (chunked attention / MLP, inference only), building the KV cache
  (``return_kv_cache=True``) and predicting the test rows from it (``kv_cache=...,
  x_is_test_only=True``), as the ``fit_with_cache`` engine does;
- ``TabPFNV2p5`` (thinking rows, groups of 3): classifier (linear encoder), regressor (MLP
  encoder), NaN / inf cells, three ensemble members batched along the batch dimension (``y`` of
  shape ``(rows, members)``, as ``_batch_member_inputs`` lays them), predicting from a KV cache;
- ``TabPFNV2p6`` (RMSNorm): classifier, regressor;
- ``TabPFNV3`` (distribution embedder with inducing points, CLS-token column aggregator, ICL
  transformer, many-class decoder): classifier, regressor, grouped-query ICL attention with a
  softmax-scaling decoder, ``use_chunkwise_inference`` (inference only), predicting from a KV
  cache, and the two regions the library itself ``torch.compile``-s when
  ``enable_torch_compile=True`` (``_preprocess_and_group``, ``_process_row_chunk``);
- ``TabPFNV3p5`` (the multitask model of ``test_model_specs.multitask_specs``: one instance, a
  ``task_type`` argument): multiclass, regression, NaN cells, predicting from a KV cache;
- building blocks: v3 ``FeatureDistributionEmbedder``, ``ColumnAggregator``,
  ``ManyClassDecoder``; v3.5 ``MultiTaskHeads``;
- the regression output: ``FullSupportBarDistribution`` as the fine-tuning loss
  (``_compute_regression_loss`` with its CE, CRPS and MSE terms) and as ``TabPFNRegressor``
  decodes it (``mean``, ``median``, ``quantile``, ``mode``);
- GPU preprocessing (``tabpfn.preprocessing.torch``, "can be used in the forward pass of the
  model during training" as their docstrings say; plain callables, not modules):
  ``TorchStandardScaler``, ``TorchQuantileTransformer``, ``TorchSquashingScaler``,
  ``TorchSoftClipOutliers``, ``TorchTruncatedSVD`` (each ``(x, num_train_rows)``), and a
  ``TorchPreprocessingPipeline`` of soft-clip + squashing-scaler steps on a ``FeatureSchema``.

Train: the fine-tuning step of ``tabpfn.finetuning``: the classifier's cross-entropy of the
test-row logits (``finetuned_classifier._compute_classification_loss``) and the regressor's
bar-distribution loss (``finetuned_regressor._compute_regression_loss``, a
``FullSupportBarDistribution`` on the model's borders); the dict-output, compiled-region and
building-block entries are reduced by ``mean_loss_module``. The inference-only entries (chunked
``save_peak_memory_factor``, whose chunked evaluation asserts that no gradient is tracked,
``use_chunkwise_inference``, building / reading the KV cache: the library runs them under
``torch.inference_mode``) run in ``torch.inference_mode`` as ``inference.py`` calls them, and
raise in train (skipped: inference only). The preprocessing callables run the same in both
modes.

    pip install --no-deps tabpfn==9.2.0
    # already there: numpy, scipy, pandas, scikit-learn, einops, pydantic, pydantic-settings,
    # safetensors, huggingface-hub, joblib, tqdm, filelock, typing-extensions

Capture (torch 2.13.0+cpu): 38 models, 69 runs (the 7 inference-only entries have no train
run), all built, all 69 ran under Dynamo (none failed). First numbers with the frozen
start-of-stop-59 linter (``/tmp/lint-start59``): graph-break statement recall 0.75 (21/28),
precision 1.00 (22/22), 109 findings (39 in files run), 17 unjudged (4 condition not met, 13 not
reached). Measured first as it came, before any rule looked at it.

Stubbed: ``skrub`` (``DatetimeEncoder``, ``StringEncoder``: imported at the top of
``preprocessing/datetimes.py`` and ``text.py``, reached from ``import tabpfn``; only the
scikit-learn style estimators' CPU preprocessing uses them). Not installed and never imported
by these entries: lightgbm (an optional tuning model), matplotlib (plots).

Left out: ``TabPFNClassifier`` / ``TabPFNRegressor`` ``fit`` / ``predict`` (numpy / pandas CPU
preprocessing, scikit-learn estimators, an ensemble loop; the forward they run is captured
here), the fine-tuning wrappers' data loaders and optimizer loops, the MPS / FA3 / MLX
attention backends (no GPU).
"""

import functools

PACKAGE = "tabpfn"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None  # adapter.py's, set by ZooSuite

_TRAIN, _TEST, _F = 24, 8, 5
_CLASSES = 3
_BUCKETS = 10


def before_build():
    stub_modules({"skrub": ((), ("DatetimeEncoder", "StringEncoder"))}, "tabpfn")


def warm_up():
    before_build()
    import torch  # noqa: F401

    import tabpfn.architectures.tabpfn_v2  # noqa: F401
    import tabpfn.architectures.tabpfn_v3_5  # noqa: F401


def _table(task, batch=1, nan=False, seed=0):
    """``x`` (train + test rows, batch, features), ``y`` the training labels, and the test
    rows' targets (for the loss)."""
    import torch

    g = torch.Generator().manual_seed(seed)
    x = torch.randn(_TRAIN + _TEST, batch, _F, generator=g)
    if nan:
        x[3, :, 1] = float("nan")
        x[30, :, 2] = float("nan")
        x[7, :, 4] = float("inf")
    if task == "multiclass":
        labels = (torch.arange(_TRAIN + _TEST) % _CLASSES).float()
    else:
        labels = torch.randn(_TRAIN + _TEST, generator=g)
    y, y_test = labels[:_TRAIN], labels[_TRAIN:]
    if batch > 1:
        y = y[:, None].expand(_TRAIN, batch).contiguous()
    return x, y, y_test


@functools.cache
def _wrappers():
    import torch

    from tabpfn.architectures.shared.bar_distribution import FullSupportBarDistribution
    from tabpfn.finetuning.finetuned_classifier import _compute_classification_loss
    from tabpfn.finetuning.finetuned_regressor import _compute_regression_loss

    class FinetuneStep(torch.nn.Module):
        """One fine-tuning step's loss: the model on (context + query, context labels), then
        the library's classification / regression loss of the query rows."""

        def __init__(self, model, task, y_test, batch, borders=None, **call):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)  # `given:` labels judge the model's forward
            self.task = task
            self.call = call
            targets = y_test[None].expand(batch, -1)
            self.register_buffer("targets", targets.long() if task == "multiclass" else targets.clone())
            self.bardist = None if borders is None else FullSupportBarDistribution(borders)

        def forward(self, x, y):
            logits_QBL = self.model(x, y, **self.call)
            if self.task == "multiclass":
                return _compute_classification_loss(
                    logits_BLQ=logits_QBL.permute(1, 2, 0), targets_BQ=self.targets
                )
            return _compute_regression_loss(
                logits_BQL=logits_QBL.transpose(0, 1),
                targets_BQ=self.targets,
                bardist_loss_fn=self.bardist,
                ce_loss_weight=1.0,
                crps_loss_weight=0.5,
                mse_loss_weight=0.1,
                mse_loss_clip=10.0,
            )

    class Inference(torch.nn.Module):
        """The model called as ``inference.py`` calls it: under ``torch.inference_mode``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, *args, **kwargs):
            with torch.inference_mode():
                return self.model(*args, **kwargs)

    class Method(torch.nn.Module):
        """A module's method (the compiled regions, the bar distribution's decoders)."""

        def __init__(self, owner, fn):
            super().__init__()
            self.owner = owner
            self.fn = fn
            object.__setattr__(self, "__wrapped__", fn)

        def forward(self, *args, **kwargs):
            return self.fn(*args, **kwargs)

    return FinetuneStep, Inference, Method


def _perf(**kw):
    """``PerformanceOptions(**kw)``, built when the model is (the adapter imports no library)."""
    return ("performance_options", kw)


def _resolve(call):
    from tabpfn.architectures.interface import PerformanceOptions

    call = dict(call)
    if "performance_options" in call:
        call["performance_options"] = PerformanceOptions(**call["performance_options"][1])
    return call


# ---- configs (the tests' small ones) ----


def _v2(task, **kw):
    from tabpfn.architectures import tabpfn_v2

    c = tabpfn_v2.TabPFNV2Config(
        emsize=16, nlayers=1, nhead=2, features_per_group=2,
        max_num_classes=_CLASSES if task == "multiclass" else 0, num_buckets=_BUCKETS, **kw,
    )
    return tabpfn_v2.get_architecture(c)


def _v2p5(task, module="tabpfn_v2_5", cls="TabPFNV2p5Config", **kw):
    import importlib

    mod = importlib.import_module(f"tabpfn.architectures.{module}")
    c = getattr(mod, cls)(
        emsize=16, nlayers=1, nhead=2, features_per_group=3, num_thinking_rows=4,
        max_num_classes=_CLASSES if task == "multiclass" else 0, num_buckets=_BUCKETS, **kw,
    )
    return mod.get_architecture(c)


def _v3(task, **kw):
    from tabpfn.architectures import tabpfn_v3

    cfg = dict(
        embed_dim=16, nlayers=1, icl_num_heads=2, dist_embed_num_heads=2, dist_embed_num_blocks=1,
        dist_embed_num_inducing_points=4, feat_agg_num_heads=2, feat_agg_num_blocks=1,
        feat_agg_num_cls_tokens=2, decoder_head_dim=8, decoder_num_heads=2,
        softmax_scaling_mlp_hidden_dim=8,
    )
    cfg.update(kw)
    c = tabpfn_v3.TabPFNV3Config(
        max_num_classes=_CLASSES if task == "multiclass" else 0, num_buckets=_BUCKETS, **cfg
    )
    return tabpfn_v3.get_architecture(c)


def _v3p5(**kw):
    from tabpfn.architectures import tabpfn_v3_5

    cfg = dict(
        max_num_classes=_CLASSES, num_buckets=_BUCKETS, embed_dim=16, nlayers=1, icl_num_heads=2,
        icl_num_kv_heads_test=1, dist_embed_num_heads=2, dist_embed_num_blocks=1,
        dist_embed_num_inducing_points=4, feat_agg_num_heads=2, feat_agg_num_blocks=1,
        feat_agg_num_cls_tokens=1, decoder_head_dim=8, decoder_num_heads=2,
        softmax_scaling_mlp_hidden_dim=8, fourier_encoding_num_frequencies=4,
        cell_ecdf_num_buckets=64,
    )
    cfg.update(kw)
    return tabpfn_v3_5.get_architecture(tabpfn_v3_5.TabPFNV3p5Config(**cfg))


def _borders(model):
    import torch

    borders = getattr(model, "regression_borders", None)
    return borders.clone() if borders is not None else torch.linspace(-3, 3, _BUCKETS + 1)


def _full(build, task, batch=1, nan=False, task_arg=None, **call):
    """A whole architecture: eval its forward, train its fine-tuning loss."""

    def make(mode):
        FinetuneStep, _, _ = _wrappers()
        model = build()
        x, y, y_test = _table(task, batch=batch, nan=nan)
        kw = _resolve(call)
        if task_arg is not None:
            kw["task_type"] = task_arg
        if mode == "eval":
            return model, (x, y), kw
        step = FinetuneStep(model, task, y_test, batch, None if task == "multiclass" else _borders(model), **kw)
        return step, (x, y), {}

    return make


def _plain(build, task, task_arg=None, **call):
    """A whole architecture with a non-standard output: mean_loss_module in train."""

    def make(mode):
        model = build()
        x, y, _ = _table(task)
        kw = _resolve(call)
        if task_arg is not None:
            kw["task_type"] = task_arg
        return (model if mode == "eval" else mean_loss_module()(model)), (x, y), kw

    return make


def _inference_only(what):
    def check(mode):
        if mode == "train":
            raise NotImplementedError(
                f"{what}: inference only (run under torch.inference_mode by the library), eval only"
            )

    return check


def _inference(build, task, task_arg=None, **call):
    def make(mode):
        _inference_only("chunked inference")(mode)
        _, Inference, _ = _wrappers()
        model = build()
        x, y, _ = _table(task)
        kw = _resolve(call)
        if task_arg is not None:
            kw["task_type"] = task_arg
        return Inference(model), (x, y), kw

    return make


def _build_cache(build, task, task_arg=None):
    def make(mode):
        _inference_only("KV-cache build (fit_with_cache)")(mode)
        _, Inference, _ = _wrappers()
        model = build()
        x, y, _ = _table(task)
        kw = {"return_kv_cache": True}
        if task_arg is not None:
            kw["task_type"] = task_arg
        return Inference(model), (x, y), kw

    return make


def _from_cache(build, task, task_arg=None):
    """Predict the test rows from a KV cache built beforehand (``fit_with_cache``)."""

    def make(mode):
        import torch

        _inference_only("prediction from a KV cache")(mode)
        _, Inference, _ = _wrappers()
        model = build().eval()
        x, y, _ = _table(task)
        kw = {} if task_arg is None else {"task_type": task_arg}
        with torch.inference_mode():
            _, cache = model(x, y, return_kv_cache=True, **kw)
        # inference.py passes the training labels along (the many-class decoders read them)
        return Inference(model), (x[_TRAIN:], y), dict(
            kw, kv_cache=cache, x_is_test_only=True
        )

    return make


# ---- v3's own compiled regions ----


def _v3_preprocess_and_group(mode):
    _, _, Method = _wrappers()
    model = _v3("multiclass")
    x, y, _ = _table("multiclass")
    fn = Method(model, model._preprocess_and_group)
    return (fn if mode == "eval" else mean_loss_module()(fn)), (x, y, _TRAIN, None), {}


def _v3_process_row_chunk(mode):
    import torch

    _, _, Method = _wrappers()
    model = _v3("multiclass")
    x, y, _ = _table("multiclass")
    with torch.no_grad():
        x_grouped, y_col_emb, _ = model._preprocess_and_group(x, y, _TRAIN, None)
    fn = Method(model, model._process_row_chunk)
    kwargs = dict(
        chunk_start=0, chunk_end=_TRAIN + _TEST, effective_num_train=_TRAIN, precomputed_hidden=None,
        save_peak_memory_factor=None, force_recompute_layer=False, return_inducing_hidden=False,
        is_full_path=True,
    )
    return (fn if mode == "eval" else mean_loss_module()(fn)), (x_grouped, y_col_emb), kwargs


# ---- building blocks ----


def _v3_dist_embedder(mode):
    import torch

    model = _v3("multiclass")
    net = model.feature_distribution_embedder
    x = torch.randn(1, _TRAIN + _TEST, 2, 16)
    return (net if mode == "eval" else mean_loss_module()(net)), (x, _TRAIN), {}


def _v3_column_aggregator(mode):
    import torch

    model = _v3("multiclass")
    net = model.column_aggregator
    x = torch.randn(1, _TRAIN + _TEST, 2, 16)
    return (net if mode == "eval" else mean_loss_module()(net)), (x,), {}


def _v3_many_class_decoder(mode):
    import torch

    model = _v3("multiclass")
    net = model.many_class_decoder
    keys = torch.randn(1, _TRAIN, 2, 8)
    test = torch.randn(1, _TEST, model.icl_emsize)
    targets = (torch.arange(_TRAIN) % _CLASSES).float()[None]
    return (net if mode == "eval" else mean_loss_module()(net)), (keys, test, targets), {}


def _v3p5_heads(task):
    def make(mode):
        import torch

        model = _v3p5()
        net = model.multi_task_heads if hasattr(model, "multi_task_heads") else model.heads
        test = torch.randn(1, _TEST, model.icl_emsize)
        y_train = (torch.arange(_TRAIN) % _CLASSES).float()[None]
        keys = None
        if task == "multiclass":
            keys = torch.randn(1, _TRAIN, 2, 8)
        kw = {"task_type": task, "num_present_classes": _CLASSES if task == "multiclass" else None}
        return (net if mode == "eval" else mean_loss_module()(net)), (keys, test, y_train), kw

    return make


# ---- the regression output ----


def _bar_loss(mode):
    import torch

    from tabpfn.architectures.shared.bar_distribution import FullSupportBarDistribution
    from tabpfn.finetuning.finetuned_regressor import _compute_regression_loss

    class BarLoss(torch.nn.Module):
        """A decoder head into the bars, then the fine-tuning regression loss."""

        def __init__(self):
            super().__init__()
            self.head = torch.nn.Linear(16, _BUCKETS)
            self.bardist = FullSupportBarDistribution(torch.linspace(-3, 3, _BUCKETS + 1))

        def forward(self, h, targets):
            return _compute_regression_loss(
                logits_BQL=self.head(h), targets_BQ=targets, bardist_loss_fn=self.bardist,
                ce_loss_weight=1.0, crps_loss_weight=0.5, crls_loss_weight=0.5, mae_loss_weight=0.1,
            )

    h = torch.randn(2, _TEST, 16)
    targets = torch.randn(2, _TEST)
    targets[0, 3] = float("nan")  # ignored targets
    return BarLoss(), (h, targets), {}


def _bar_decode(mode):
    import torch

    from tabpfn.architectures.shared.bar_distribution import FullSupportBarDistribution

    class Decode(torch.nn.Module):
        """``TabPFNRegressor.predict``'s outputs from the bar logits."""

        def __init__(self):
            super().__init__()
            self.head = torch.nn.Linear(16, _BUCKETS)
            self.bardist = FullSupportBarDistribution(torch.linspace(-3, 3, _BUCKETS + 1))

        def forward(self, h):
            logits = self.head(h)
            return {
                "mean": self.bardist.mean(logits),
                "median": self.bardist.median(logits),
                "quantiles": [self.bardist.icdf(logits, q) for q in (0.1, 0.5, 0.9)],
                "mode": self.bardist.mode(logits),
            }

    net = Decode()
    h = torch.randn(_TEST, 1, 16)
    return (net if mode == "eval" else mean_loss_module()(net)), (h,), {}


# ---- GPU preprocessing (plain callables) ----


def _prep(name, **kw):
    def make(mode):
        import importlib

        import torch

        mod = importlib.import_module("tabpfn.preprocessing.torch")
        if name == "TorchTruncatedSVD":
            from tabpfn.preprocessing.torch.torch_svd import TorchTruncatedSVD as cls
        else:
            cls = getattr(mod, name)
        fn = cls(**kw)
        x = torch.randn(_TRAIN + _TEST, _F) * 3.0
        x[5, 1] = 40.0  # an outlier
        if name != "TorchTruncatedSVD":
            x[9, 2] = float("nan")
        return fn, (x,), {"num_train_rows": _TRAIN}

    return make


def _prep_pipeline(mode):
    import torch

    from tabpfn.preprocessing.datamodel import FeatureModality
    from tabpfn.preprocessing.torch import (
        FeatureSchema,
        TorchPreprocessingPipeline,
        TorchSoftClipOutliersStep,
        TorchSquashingScalerStep,
    )

    pipeline = TorchPreprocessingPipeline(
        [
            (TorchSoftClipOutliersStep(n_sigma=4.0), {FeatureModality.NUMERICAL}),
            (TorchSquashingScalerStep(), {FeatureModality.NUMERICAL}),
        ]
    )
    schema = FeatureSchema.from_only_categorical_indices([3], _F)
    x = torch.randn(_TRAIN + _TEST, 1, _F)
    x[:, :, 3] = torch.randint(0, 4, (_TRAIN + _TEST, 1)).float()

    def run(x, num_train_rows):
        return pipeline(x, schema, num_train_rows).x

    return run, (x, _TRAIN), {}


MODELS = {
    # v2
    "V2Classifier": _full(lambda: _v2("multiclass"), "multiclass"),
    "V2Regressor": _full(lambda: _v2("regression"), "regression"),
    "V2AllOutputs": _plain(lambda: _v2("multiclass"), "multiclass", only_return_standard_out=False),
    "V2Recompute": _full(lambda: _v2("multiclass"), "multiclass",
                         performance_options=_perf(force_recompute_layer=True)),
    "V2SavePeakMemory": _inference(lambda: _v2("multiclass"), "multiclass",
                                   performance_options=_perf(save_peak_memory_factor=2)),
    "V2BuildKVCache": _build_cache(lambda: _v2("multiclass"), "multiclass"),
    "V2FromKVCache": _from_cache(lambda: _v2("multiclass"), "multiclass"),
    # v2.5 / v2.6
    "V2p5Classifier": _full(lambda: _v2p5("multiclass"), "multiclass", task_arg="multiclass"),
    "V2p5RegressorMLPEncoder": _full(
        lambda: _v2p5("regression", encoder_type="mlp", encoder_mlp_hidden_dim=32), "regression",
        task_arg="regression"),
    "V2p5NaNCells": _full(lambda: _v2p5("multiclass"), "multiclass", nan=True, task_arg="multiclass"),
    "V2p5BatchedMembers": _full(lambda: _v2p5("multiclass"), "multiclass", batch=3, task_arg="multiclass"),
    "V2p5FromKVCache": _from_cache(lambda: _v2p5("multiclass"), "multiclass", task_arg="multiclass"),
    "V2p6Classifier": _full(lambda: _v2p5("multiclass", "tabpfn_v2_6", "TabPFNV2p6Config"), "multiclass",
                            task_arg="multiclass"),
    "V2p6Regressor": _full(lambda: _v2p5("regression", "tabpfn_v2_6", "TabPFNV2p6Config"), "regression",
                           task_arg="regression"),
    # v3
    "V3Classifier": _full(lambda: _v3("multiclass"), "multiclass"),
    "V3Regressor": _full(lambda: _v3("regression"), "regression"),
    "V3GQASoftmaxScaling": _full(
        lambda: _v3("multiclass", icl_num_kv_heads=1, icl_num_kv_heads_test=1, decoder_use_softmax_scaling=True),
        "multiclass"),
    "V3Chunkwise": _inference(lambda: _v3("multiclass", inference_chunk_cells=64), "multiclass",
                              performance_options=_perf(use_chunkwise_inference=True)),
    "V3FromKVCache": _from_cache(lambda: _v3("multiclass"), "multiclass"),
    "V3PreprocessAndGroup": _v3_preprocess_and_group,
    "V3ProcessRowChunk": _v3_process_row_chunk,
    "V3FeatureDistributionEmbedder": _v3_dist_embedder,
    "V3ColumnAggregator": _v3_column_aggregator,
    "V3ManyClassDecoder": _v3_many_class_decoder,
    # v3.5
    "V3p5Multiclass": _full(_v3p5, "multiclass", task_arg="multiclass"),
    "V3p5Regression": _full(_v3p5, "regression", task_arg="regression"),
    "V3p5NaNCells": _full(_v3p5, "multiclass", nan=True, task_arg="multiclass"),
    "V3p5FromKVCache": _from_cache(_v3p5, "multiclass", task_arg="multiclass"),
    "V3p5MultiTaskHeadsClassification": _v3p5_heads("multiclass"),
    "V3p5MultiTaskHeadsRegression": _v3p5_heads("regression"),
    # the regression output
    "BarDistributionLoss": _bar_loss,
    "BarDistributionDecode": _bar_decode,
    # GPU preprocessing
    "TorchStandardScaler": _prep("TorchStandardScaler"),
    "TorchQuantileTransformer": _prep("TorchQuantileTransformer", n_quantiles=16),
    "TorchSquashingScaler": _prep("TorchSquashingScaler"),
    "TorchSoftClipOutliers": _prep("TorchSoftClipOutliers", n_sigma=2.0),
    "TorchTruncatedSVD": _prep("TorchTruncatedSVD", n_components=2, random_state=0),
    "TorchPreprocessingPipeline": _prep_pipeline,
}
