"""TabICL 2.2.0: the tabular in-context-learning foundation model (``tabicl._model.TabICL``) and its
building blocks, built straight from their constructors with tiny sizes and random weights (no
checkpoint download: the sklearn wrappers ``TabICLClassifier`` / ``TabICLRegressor`` only load a
checkpoint into ``TabICL(**config)`` and call the methods covered here). Tiny: 2 tables of 12 rows
(8 context / train rows, 4 query / test rows), 5 features, ``embed_dim=16``, 2 heads, 4 inducing
points, 2 CLS tokens (ICL width 32), one block per stage, 3 classes (``max_classes=4``) or 31
regression quantiles:

- ``TabICL`` (the v2 defaults scaled down: feature grouping "same", target-aware column embedding,
  ``qassmax-mlp-elementwise`` scalable softmax, non-interleaved RoPE) for classification and
  quantile regression; the v1 checkpoint's choices (affine column embedding, no grouping, not target
  aware, no SSMax, interleaved RoPE); feature grouping "valid"; no grouping with a per-table feature
  count ``d`` (train); each SSMax kind (``ssmax``, ``ssmax-mlp``, ``ssmax-mlp-elementwise``,
  ``qassmax-mlp``); more classes than ``max_classes`` (mixed-radix column embedding, hierarchical
  ICL classification in eval); probabilities (``return_logits=False``, a softmax temperature) as
  ``predict_proba`` asks; ``feature_shuffles`` (the ensemble's shuffle optimisation, eval);
  ``embed_with_test``; gradient checkpointing (``recompute=True``); post-norm / ReLU / bias-free
  LayerNorm / no zero-init / dropout; an ``InferenceConfig`` with AMP off as the sklearn wrapper
  builds one;
- ``predict_stats`` (one statistic; and the list mean / variance / median / quantiles) and the KV
  cache: ``forward_with_cache`` storing a cache with test rows ("kv" and "repr" modes), using a
  stored cache as ``_batch_forward_with_cache`` does (``cache=``), ``predict_stats_with_cache``;
- the fine-tuners' losses: ``FinetunedTabICLClassifier._compute_batch_loss`` /
  ``FinetunedTabICLRegressor._compute_batch_loss`` on a ``MetaBatch`` (train; eval runs the model
  on the batch as validation does);
- building blocks: ``ColEmbedding``, ``RowInteraction`` (with ``d``), ``ICLearning``
  (classification, regression), ``SetTransformer``, ``Encoder`` with RoPE,
  ``InducedSelfAttentionBlock`` (one column of skip values), ``MultiheadAttentionBlock`` (cross
  attention with a key padding mask and RoPE), ``MultiheadAttention`` (SSMax, RoPE, ``need_kv``),
  ``RotaryEmbedding.rotate_queries_or_keys`` (interleaved and not), ``SSMax`` / ``SSMaxMLP`` /
  ``QASSMaxMLP``, ``SkippableLinear`` + ``OneHotAndLinear``;
- ``QuantileToDistribution`` / ``QuantileDistribution``: exponential tails (``icdf``, ``mean``,
  ``variance``; train: the CRPS loss), GPD tails (``log_prob``, ``cdf``), isotonic (PAVA) crossing
  fix with the numerical ``pinball`` CRPS;
- the pre-training prior's ``MLPSCM`` (causal and not): a synthetic-table generator module.

Eval: the callable's outputs. Train: the pre-training step's loss copied from
``tabicl.train._run.Trainer.run_micro_batch`` (cross-entropy on the flattened logits of the test
rows; pinball loss over ``linspace(0, 1, Q + 2)[1:-1]`` for regression) without the ``.item()``
logging and the scaler; the fine-tuners' own ``_compute_batch_loss``; the distribution's ``crps``;
``mean_loss_module`` for the rest (blocks, cache and statistic methods, the prior).

    pip install --no-deps tabicl==2.2.0 einops==0.8.2 huggingface-hub==0.36.0 psutil==7.2.2 scikit-learn==1.9.1 scipy==1.17.1 tqdm==4.70.1 threadpoolctl==3.8.0 joblib==1.6.0

(all but tabicl were already installed at those versions.) ``tabicl`` imports torch, numpy, einops,
scikit-learn, scipy, psutil, tqdm and huggingface_hub (checkpoint download, not called here).
Stubbed with ``stub_modules``: ``transformers`` (``tabicl.train._optim`` imports four LR-schedule
functions at its top; the fine-tuners import it; no schedule is built here) and ``xgboost``
(``tabicl.prior._tree_scm`` imports ``XGBRegressor`` at its top; the prior package's ``__init__``
pulls it in; ``TreeSCM`` is not used).

Left out: the sklearn estimators ``TabICLClassifier`` / ``TabICLRegressor`` / ``TabICLUnsupervised``
/ ``TabICLForecaster`` and the fine-tuners' ``fit`` (need a checkpoint; numpy / pandas
preprocessing around ``torch.no_grad`` calls of the model methods covered here); ``InferenceManager``
auto-batching, offloading and async copies (accelerator only: on CPU it runs the function once
under ``no_grad`` and, by default, CPU autocast, which every eval / cache path here goes through);
the SHAP helpers; ``TreeSCM`` / ``GraphSCM`` / ``PriorDataset`` (xgboost / sklearn trees, numpy
graphs); the optimizers and schedulers.
Skipped in train: ``forward_with_cache_repr`` (with gradients on, ``prepare_repr_cache`` adds the
label embedding in place to a view made under the InferenceManager's ``no_grad``: an eager
RuntimeError; the sklearn wrappers call it under ``torch.no_grad``). The other cache models keep the
model in eval in train (``keep_eval``: the cache methods are inference only) with gradients on.
``TabICL_many_classes`` in train runs the column embedding alone (its mixed-radix ensemble): the
ICL head's one-hot label encoder takes at most ``max_classes`` classes, so the pre-training loss
never sees more. The isotonic crossing fix runs numba's PAVA (numba 0.68.1 / llvmlite 0.50.0 were
already in this environment, not installed for tabicl: ``shap`` extra; without numba it warns and
sorts).
Notes: in train mode ``TabICL.forward`` runs ``_train_forward`` (no InferenceManager); in eval the
column, row and ICL stages go through ``InferenceManager`` (``no_grad``, autocast). ``y_train`` is a
float tensor as the wrappers pass it. The cache-using model stores its cache at build time (as
``fit`` does) and its callable only reads it.
"""

PACKAGE = "tabicl"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
stub_modules = None  # adapter.stub_modules, set by ZooSuite

_B, _T, _TRAIN, _H = 2, 12, 8, 5
_E = 16
_NQ = 31


def before_build():
    stub_modules(
        {
            "transformers": (
                (
                    "get_constant_schedule",
                    "get_linear_schedule_with_warmup",
                    "get_cosine_schedule_with_warmup",
                    "get_polynomial_decay_schedule_with_warmup",
                ),
                (),
            ),
            "xgboost": ((), ("XGBRegressor",)),
        },
        "tabicl",
    )


def warm_up():
    before_build()
    import torch  # noqa: F401
    import tabicl  # noqa: F401
    import tabicl._model.tabicl  # noqa: F401
    import tabicl._finetune  # noqa: F401
    import tabicl.prior._mlp_scm  # noqa: F401


# --- data -------------------------------------------------------------------------------------


def _X(b=_B, t=_T, h=_H):
    import torch

    return torch.randn(b, t, h)


def _y_cls(b=_B, n=_TRAIN, classes=3):
    import torch

    return (torch.arange(n) % classes).float().unsqueeze(0).repeat(b, 1)  # every class in every table


def _y_full_cls(classes=3):
    import torch

    return (torch.arange(_T) % classes).float().unsqueeze(0).repeat(_B, 1)


def _y_reg(b=_B, n=_TRAIN):
    import torch

    return torch.randn(b, n)


# --- wrappers ---------------------------------------------------------------------------------


def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class PretrainStep(nn.Module):
        """The loss of ``Trainer.run_micro_batch`` (tabicl.train._run): the model on the whole
        table, cross-entropy on the test rows' logits, or the pinball loss for regression."""

        def __init__(self, model, train_size, regression):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.train_size = train_size
            self.regression = regression

        def forward(self, X, y, d=None, **model_kwargs):
            y_train = y[:, : self.train_size]
            y_test = y[:, self.train_size :]
            if self.regression:
                pred = self.model(X, y_train, d, **model_kwargs)
                alphas = torch.linspace(0.0, 1.0, pred.shape[-1] + 2, device=pred.device, dtype=pred.dtype)[
                    1:-1
                ].view(1, 1, -1)
                errors = y_test.unsqueeze(-1) - pred
                return torch.maximum(alphas * errors, (alphas - 1) * errors).mean()
            pred = self.model(X, y_train, d, **model_kwargs)
            pred = pred.flatten(end_dim=-2)
            true = y_test.long().flatten()
            return F.cross_entropy(pred, true)

    class Call(nn.Module):
        """``net.<method>(*args, **fixed)``: a method other than ``forward`` as a module."""

        def __init__(self, net, method, keep_eval=False, **fixed):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.method = method
            self.keep_eval = keep_eval
            self.fixed = fixed

        def train(self, mode=True):
            super().train(mode)
            if self.keep_eval:  # an inference-only method (the KV cache): the model stays in eval
                self.net.eval()
            return self

        def forward(self, *args, **kwargs):
            return getattr(self.net, self.method)(*args, **self.fixed, **kwargs)

    class FinetuneLoss(nn.Module):
        """A fine-tuner's ``_compute_batch_loss(MetaBatch, model)``."""

        def __init__(self, finetuner, model, train_size):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.finetuner = finetuner
            self.train_size = train_size

        def forward(self, X, y_train, y_query):
            from tabicl._finetune import MetaBatch

            batch = MetaBatch(X=X, y_train=y_train, y_query=y_query, train_size=self.train_size)
            return self.finetuner._compute_batch_loss(batch, self.model)

    class CRPSLoss(nn.Module):
        """The CRPS of a ``QuantileToDistribution`` built on predicted quantiles."""

        def __init__(self, head):
            super().__init__()
            self.head = head

        def forward(self, quantiles, z):
            return self.head(quantiles).crps(z).mean()

    class DistStats(nn.Module):
        def __init__(self, head, what):
            super().__init__()
            self.head = head
            self.what = what

        def forward(self, quantiles, z):
            import torch

            dist = self.head(quantiles)
            if self.what == "exp":
                alphas = torch.tensor([0.01, 0.1, 0.5, 0.9, 0.99], dtype=quantiles.dtype)
                return dist.icdf(alphas), dist.mean, dist.variance
            if self.what == "gpd":
                return dist.log_prob(z), dist.cdf(z)
            return dist.pinball(z, num_quantiles=49), dist.quantiles

    return PretrainStep, Call, FinetuneLoss, CRPSLoss, DistStats


def _tiny(**over):
    from tabicl._model import TabICL

    cfg = dict(
        max_classes=4,
        num_quantiles=_NQ,
        embed_dim=_E,
        col_num_blocks=1,
        col_nhead=2,
        col_num_inds=4,
        row_num_blocks=1,
        row_nhead=2,
        row_num_cls=2,
        row_rope_interleaved=False,
        icl_num_blocks=1,
        icl_nhead=2,
    )
    cfg.update(over)
    return TabICL(**cfg)


def _model(mode, regression=False, classes=3, d=None, eval_kwargs=None, train_kwargs=None, **over):
    """``train_kwargs``: passed to the model inside the pre-training step."""
    """A TabICL: eval runs ``model(X, y_train, **eval_kwargs)``; train the pre-training loss."""
    PretrainStep = _modules()[0]
    if regression:
        over.setdefault("max_classes", 0)
    model = _tiny(**over)
    X = _X()
    if mode == "train":
        y = _y_reg(n=_T) if regression else _y_full_cls(classes)
        kwargs = {} if d is None else {"d": d}
        kwargs.update(train_kwargs or {})
        return PretrainStep(model, _TRAIN, regression), (X, y), kwargs
    y_train = _y_reg() if regression else _y_cls(classes=classes)
    return model, (X, y_train), dict(eval_kwargs or {})


def _tabicl(mode):
    return _model(mode)


def _tabicl_regression(mode):
    return _model(mode, regression=True)


def _tabicl_v1(mode):
    return _model(
        mode,
        col_affine=True,
        col_feature_group=False,
        col_target_aware=False,
        col_ssmax=False,
        icl_ssmax=False,
        row_rope_interleaved=True,
    )


def _tabicl_group_valid(mode):
    return _model(mode, col_feature_group="valid")


def _tabicl_feature_count(mode):
    import torch

    return _model(mode, d=torch.tensor([_H, _H - 2]), col_feature_group=False)


def _ssmax(kind):
    def make(mode):
        return _model(mode, col_ssmax=kind, icl_ssmax=kind)

    make.__name__ = f"_tabicl_{kind}"
    return make


def _tabicl_many_classes(mode):
    if mode == "train":  # the ICL head takes at most max_classes; the column embedding's mixed radix trains
        model = _tiny(max_classes=3)
        return _with_loss(mode, model.col_embedder, (_X(), _y_cls(classes=5)))
    return _model(mode, classes=5, max_classes=3)


def _tabicl_proba(mode):
    return _model(mode, eval_kwargs={"return_logits": False, "softmax_temperature": 0.5})


def _tabicl_feature_shuffles(mode):
    import torch

    if mode == "train":
        return _model(mode, col_feature_group=False)
    model = _tiny(col_feature_group=False)
    base = torch.randn(_T, _H)
    perm = [4, 0, 3, 1, 2]
    X = torch.stack([base, base[:, perm]])
    return model, (X, _y_cls()), {"feature_shuffles": [list(range(_H)), perm]}


def _tabicl_embed_with_test(mode):
    return _model(mode, eval_kwargs={"embed_with_test": True}, train_kwargs={"embed_with_test": True})


def _tabicl_recompute(mode):
    return _model(mode, recompute=True)


def _tabicl_postnorm(mode):
    return _model(
        mode, norm_first=False, activation="relu", bias_free_ln=True, zero_init=False, dropout=0.1
    )


def _no_amp_config():
    from tabicl import InferenceConfig

    cfg = InferenceConfig()
    cfg.update_from_dict(
        {name: {"device": "cpu", "use_amp": False, "use_fa3": False} for name in ("COL_CONFIG", "ROW_CONFIG", "ICL_CONFIG")}
    )
    return cfg


def _tabicl_inference_config(mode):
    return _model(mode, eval_kwargs={"inference_config": _no_amp_config()})


# --- statistics and the KV cache ----------------------------------------------------------------


def _with_loss(mode, net, args, kwargs=None):
    if mode == "train":
        return mean_loss_module()(net), args, kwargs or {}
    return net, args, kwargs or {}


def _predict_stats(mode):
    Call = _modules()[1]
    model = _tiny(max_classes=0)
    return _with_loss(mode, Call(model, "predict_stats", output_type="mean"), (_X(), _y_reg()))


def _predict_stats_many(mode):
    Call = _modules()[1]
    model = _tiny(max_classes=0)
    net = Call(model, "predict_stats", output_type=["mean", "variance", "median", "quantiles"])
    return _with_loss(mode, net, (_X(), _y_reg()))


def _cache_store(cache_mode, regression=False):
    def make(mode):
        if mode == "train" and cache_mode == "repr":
            raise NotImplementedError(
                "inference only: with gradients on, ICLearning.prepare_repr_cache adds y_train in place to a "
                "view made under the InferenceManager's no_grad (an eager RuntimeError); the wrappers call it "
                "under torch.no_grad"
            )
        Call = _modules()[1]
        model = _tiny(max_classes=0) if regression else _tiny()
        X = _X()
        y = _y_reg() if regression else _y_cls()
        method = "predict_stats_with_cache" if regression else "forward_with_cache"
        net = Call(model, method, keep_eval=True, store_cache=True, cache_mode=cache_mode)
        return _with_loss(mode, net, (), {"X_train": X[:, :_TRAIN], "y_train": y, "X_test": X[:, _TRAIN:]})

    return make


def _cache_use(mode):
    import torch

    Call = _modules()[1]
    model = _tiny()
    model.eval()
    X = _X()
    with torch.no_grad():
        model.forward_with_cache(X_train=X[:, :_TRAIN], y_train=_y_cls(), store_cache=True)
    cache = model._cache
    model.clear_cache()
    net = Call(model, "forward_with_cache", keep_eval=True, cache=cache, return_logits=False)
    return _with_loss(mode, net, (), {"X_test": X[:, _TRAIN:]})


# --- fine-tuning ------------------------------------------------------------------------------


def _finetune(regression):
    def make(mode):
        _, _, FinetuneLoss, _, _ = _modules()
        from tabicl import FinetunedTabICLClassifier, FinetunedTabICLRegressor

        model = _tiny(max_classes=0) if regression else _tiny()
        X = _X()
        if regression:
            y_train, y_query = _y_reg(), _y_reg(n=_T - _TRAIN)
        else:
            y_full = _y_full_cls()
            y_train, y_query = y_full[:, :_TRAIN], y_full[:, _TRAIN:].long()
        if mode == "eval":
            return model, (X, y_train.float()), {}
        ft = FinetunedTabICLRegressor(device="cpu") if regression else FinetunedTabICLClassifier(device="cpu")
        return FinetuneLoss(ft, model, _TRAIN), (X, y_train, y_query), {}

    return make


# --- building blocks --------------------------------------------------------------------------


def _col_embedding(mode):
    from tabicl._model.embedding import ColEmbedding

    net = ColEmbedding(
        embed_dim=_E, num_blocks=1, nhead=2, dim_feedforward=32, num_inds=4, affine=False,
        feature_group="same", target_aware=True, max_classes=4, reserve_cls_tokens=2, ssmax=True,
    )
    return _with_loss(mode, net, (_X(), _y_cls()))


def _row_interaction(mode):
    import torch
    from tabicl._model.interaction import RowInteraction

    net = RowInteraction(embed_dim=_E, num_blocks=2, nhead=2, dim_feedforward=32, num_cls=2)
    emb = torch.randn(_B, _T, _H + 2, _E)
    kwargs = {"d": torch.tensor([_H, _H - 1])} if mode == "train" else {}
    return _with_loss(mode, net, (emb,), kwargs)


def _icl(regression):
    def make(mode):
        import torch
        from tabicl._model.learning import ICLearning

        net = ICLearning(
            max_classes=0 if regression else 4, out_dim=_NQ if regression else 4, d_model=32,
            num_blocks=1, nhead=2, dim_feedforward=64, ssmax="qassmax-mlp-elementwise",
        )
        R = torch.randn(_B, _T, 32)
        return _with_loss(mode, net, (R, _y_reg() if regression else _y_cls()))

    return make


def _set_transformer(mode):
    import torch
    from tabicl._model.encoders import SetTransformer

    net = SetTransformer(num_blocks=2, d_model=_E, nhead=2, dim_feedforward=32, num_inds=4, ssmax="ssmax-mlp")
    return _with_loss(mode, net, (torch.randn(_B, _H, _T, _E),), {"train_size": _TRAIN})


def _encoder_rope(mode):
    import torch
    from tabicl._model.encoders import Encoder

    net = Encoder(num_blocks=2, d_model=_E, nhead=2, dim_feedforward=32, use_rope=True, rope_base=100000)
    return _with_loss(mode, net, (torch.randn(_B, _T, _E),))


def _isab(mode):
    import torch
    from tabicl._model.layers import InducedSelfAttentionBlock

    net = InducedSelfAttentionBlock(d_model=_E, nhead=2, dim_feedforward=32, num_inds=4, ssmax="qassmax-mlp")
    src = torch.randn(_B, _H, _T, _E)
    src[:, 0] = -100.0  # a reserved (skipped) column
    return _with_loss(mode, net, (src,), {"train_size": _TRAIN})


def _mab(mode):
    import torch
    from tabicl._model.layers import MultiheadAttentionBlock
    from tabicl._model.rope import RotaryEmbedding

    net = MultiheadAttentionBlock(d_model=_E, nhead=2, dim_feedforward=32, zero_init=False)
    rope = RotaryEmbedding(dim=_E // 2, theta=100000, interleaved=False)
    x = torch.randn(_B * _T, _H + 2, _E)
    mask = torch.zeros(_B * _T, _H + 2, dtype=torch.bool)
    mask[:, -1] = True
    return _with_loss(mode, net, (x[:, :2], x, x), {"key_padding_mask": mask, "rope": rope})


def _mha(mode):
    import torch
    from tabicl._model.layers import MultiheadAttention
    from tabicl._model.rope import RotaryEmbedding

    net = MultiheadAttention(_E, 2, ssmax="ssmax")
    net.rope = RotaryEmbedding(dim=_E // 2, interleaved=True)

    class WithRope(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = net

        def forward(self, q, kv):
            return self.attn(q, kv, kv, rope=self.attn.rope, need_kv=True)

    return _with_loss(mode, WithRope(), (torch.randn(_B, _T, _E), torch.randn(_B, _T, _E)))


def _rope(interleaved):
    def make(mode):
        import torch
        from tabicl._model.rope import RotaryEmbedding

        Call = _modules()[1]
        net = RotaryEmbedding(dim=8, theta=10000, interleaved=interleaved)
        return _with_loss(mode, Call(net, "rotate_queries_or_keys"), (torch.randn(_B, 2, _T, 8),))

    return make


def _ssmax_layer(kind):
    def make(mode):
        import torch
        from tabicl._model.ssmax import create_ssmax_layer

        Call = _modules()[1]
        net = create_ssmax_layer(kind, num_heads=2, embed_dim=_E)
        return _with_loss(mode, Call(net, "forward", n=_TRAIN), (torch.randn(_B, 2, _T, _E // 2),))

    return make


def _linears(mode):
    import torch
    from tabicl._model.layers import OneHotAndLinear, SkippableLinear

    class Pair(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.skip = SkippableLinear(3, _E)
            self.onehot = OneHotAndLinear(4, _E)

        def forward(self, x, y):
            return self.skip(x) + self.onehot(y).unsqueeze(1)

    x = torch.randn(_B, _H, _T, 3)
    x[:, 1] = -100.0  # a reserved column: its outputs are the skip value
    y = (torch.arange(_T) % 4).float().expand(_B, _T)
    return _with_loss(mode, Pair(), (x, y))


def _quantile_crps(mode):
    import torch
    from tabicl._model.quantile_dist import QuantileToDistribution

    _, _, _, CRPSLoss, DistStats = _modules()
    head = QuantileToDistribution(num_quantiles=_NQ)
    q = torch.randn(_B, 4, _NQ)
    z = torch.randn(_B, 4)
    if mode == "train":
        q.requires_grad_(True)
        return CRPSLoss(head), (q, z), {}
    return DistStats(head, "exp"), (q, z), {}


def _quantile_gpd(mode):
    import torch
    from tabicl._model.quantile_dist import QuantileToDistribution

    DistStats = _modules()[4]
    head = QuantileToDistribution(num_quantiles=_NQ, tail_type="gpd")
    q = torch.randn(_B, 4, _NQ)
    return _with_loss(mode, DistStats(head, "gpd"), (q, torch.randn(_B, 4)))


def _quantile_isotonic(mode):
    import torch
    from tabicl._model.quantile_dist import QuantileToDistribution

    DistStats = _modules()[4]
    head = QuantileToDistribution(num_quantiles=_NQ, crossing_method="isotonic")
    q = torch.randn(_B, 4, _NQ)
    return _with_loss(mode, DistStats(head, "isotonic"), (q, torch.randn(_B, 4)))


def _mlp_scm(causal):
    def make(mode):
        from tabicl.prior._mlp_scm import MLPSCM

        net = MLPSCM(seq_len=_T, num_features=_H, num_outputs=1, is_causal=causal, num_causes=3, num_layers=3,
                     hidden_dim=8)
        return _with_loss(mode, net, ())

    return make


MODELS = {
    "TabICL": _tabicl,
    "TabICL_regression": _tabicl_regression,
    "TabICL_v1": _tabicl_v1,
    "TabICL_group_valid": _tabicl_group_valid,
    "TabICL_feature_count": _tabicl_feature_count,
    "TabICL_ssmax": _ssmax("ssmax"),
    "TabICL_ssmax_mlp": _ssmax("ssmax-mlp"),
    "TabICL_ssmax_mlp_elementwise": _ssmax("ssmax-mlp-elementwise"),
    "TabICL_qassmax_mlp": _ssmax("qassmax-mlp"),
    "TabICL_many_classes": _tabicl_many_classes,
    "TabICL_proba": _tabicl_proba,
    "TabICL_feature_shuffles": _tabicl_feature_shuffles,
    "TabICL_embed_with_test": _tabicl_embed_with_test,
    "TabICL_recompute": _tabicl_recompute,
    "TabICL_postnorm": _tabicl_postnorm,
    "TabICL_inference_config": _tabicl_inference_config,
    "predict_stats": _predict_stats,
    "predict_stats_many": _predict_stats_many,
    "forward_with_cache_kv": _cache_store("kv"),
    "forward_with_cache_repr": _cache_store("repr"),
    "forward_with_cache_use": _cache_use,
    "predict_stats_with_cache": _cache_store("kv", regression=True),
    "FinetunedTabICLClassifier_loss": _finetune(False),
    "FinetunedTabICLRegressor_loss": _finetune(True),
    "ColEmbedding": _col_embedding,
    "RowInteraction": _row_interaction,
    "ICLearning": _icl(False),
    "ICLearning_regression": _icl(True),
    "SetTransformer": _set_transformer,
    "Encoder_rope": _encoder_rope,
    "InducedSelfAttentionBlock": _isab,
    "MultiheadAttentionBlock": _mab,
    "MultiheadAttention": _mha,
    "RotaryEmbedding": _rope(False),
    "RotaryEmbedding_interleaved": _rope(True),
    "SSMax": _ssmax_layer("ssmax"),
    "SSMaxMLP": _ssmax_layer("ssmax-mlp-elementwise"),
    "QASSMaxMLP": _ssmax_layer("qassmax-mlp-elementwise"),
    "SkippableLinear_OneHotAndLinear": _linears,
    "QuantileDistribution": _quantile_crps,
    "QuantileDistribution_gpd": _quantile_gpd,
    "QuantileDistribution_isotonic": _quantile_isotonic,
    "MLPSCM": _mlp_scm(True),
    "MLPSCM_noncausal": _mlp_scm(False),
}
