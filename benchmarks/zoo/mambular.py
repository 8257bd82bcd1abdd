"""mambular 1.5.1 (basf/mamba-tabular): its base models (``mambular.base_models``), built from
their ``Default*Config`` dataclasses with widths cut to a few units, random weights, no download,
wrapped in the library's own Lightning ``TaskModel`` (``mambular.base_models.utils.lightning_wrapper``)
as the sklearn-style ``MambularRegressor`` / ``...Classifier`` / ``...LSS`` build it.

Data: feature-info dicts as the library's ``tests/test_base.py`` mocks them (numerical
``{"dimension", "preprocessing", "categories": None}``, categorical ``{"dimension": 1,
"categories": k}``, no embedding features), here 3 numerical (two of width 1, one of width 4 as a
PLE preprocessing gives; the PLR variant: three standardized scalars, as
``check_plr_embedding_compatibility`` demands) and 2 categorical (5 and 8 levels); a batch of 8 rows fed as
``MambularDataset`` / the datamodule feed it: ``(num_features, cat_features, embeddings)`` with
lists of ``(B, dim)`` float and ``(B, 1)`` long tensors and ``[]`` for the (absent) embeddings.

Eval: ``TaskModel.predict_step(data, 0)`` (``estimator.forward``; ModernNCA:
``predict_with_candidates`` against a 16-row candidate set).
Train: ``TrainStep(task)(data, labels)``: ``TaskModel.training_step`` without the Lightning
``self.log`` calls: ``penalty_forward`` + ``compute_loss`` (NDTF, Tangos),
``train_with_candidates`` (ModernNCA; ``train_features`` / ``train_targets`` set as
``TaskModel.setup`` sets them), else ``forward`` + ``compute_loss``. Losses: the task's
default (MSE regression, BCEWithLogits binary, CrossEntropy multiclass; ensemble loop for TabM)
or, for ``*_lss_*``, the distribution family's ``compute_loss`` (``lss=True``, ``family`` from
``mambular.utils.distributions`` as ``SklearnBaseLSS.fit`` picks it by name).

Models (42): each base model as a regressor (MLP, ResNet, FTTransformer, TabTransformer,
Mambular, MambaTab, MambAttention, SAINT, TabM, NODE, ENODE, NDTF, TabulaRNN, AutoInt, Trompt,
Tangos, ModernNCA), plus classifiers and variants from the configs: MLP (PLR embeddings, binary;
multiclass), ResNet multiclass, FTTransformer (cls token, binary), TabTransformer binary,
Mambular (bidirectional + learnable interaction; ``use_pscan`` with mambapy; multiclass),
MambaTab bidirectional, TabM (multiclass ensemble; ``model_type="full"``), TabulaRNN (LSTM, GRU,
mLSTM), SAINT / AutoInt / Tangos / ModernNCA multiclass, NDTF / Trompt binary, and LSS:
Mambular normal, MLP poisson, ResNet studentt, FTTransformer quantile, TabM normal (ensemble).

    pip install --no-deps mambular==1.5.1
    pip install --no-deps pretab==0.0.1
    pip install --no-deps properscoring==0.1

(already installed and used: lightning 2.6.6, einops, numpy, pandas, scikit-learn,
scikit-optimize, scipy, torchmetrics, tqdm; mambapy 1.2.0 for ``use_pscan``. The package
metadata pins torch<=2.7.0, numpy<=1.26.4 and pandas<3; ignored, torch 2.13.0 untouched.)

TabTransformer runs at ``d_model=6``: its forward normalizes the raw numerical columns with the
config's ``d_model``-wide norm, so d_model must equal their total width (6) or it fails eagerly.
MLP_multiclass sets ``batch_norm`` and ``skip_connections``; Mambular_multiclass and
TabTransformer_binary use ``max`` / ``sum`` pooling.

Left out: ``TabR`` (not exported from ``base_models``; needs faiss and delu, not installed),
``mamba_version="mamba1"/"mamba2"`` (needs mamba_ssm CUDA kernels), the sklearn wrappers' fit /
preprocessing (pretab, pandas) and the Lightning ``Trainer`` loop and logging, which a user does
not compile.
"""

PACKAGE = "mambular"

_B = 8
_NUM = {"num_a": 1, "num_b": 1, "num_ple": 4}
_CAT = {"cat_a": 5, "cat_b": 8}

# tiny widths, set where a config has the field
_TINY = dict(
    d_model=8, n_layers=2, n_heads=2, transformer_dim_feedforward=16, dim_feedforward=16,
    d_state=4, expand_factor=2, layer_sizes=[16, 8], num_layers=2, layer_dim=8, depth=3,
    ensemble_size=4, n_cycles=2, n_cells=2, P=8, dim=16, d_block=16, n_blocks=2,
    n_ensembles=3, min_depth=2, max_depth=4, n_frequencies=4, num_blocks=2,
)


def _num_info(plr=False):
    if plr:  # PLR embeddings refuse PLE / one-hot columns: three standardized scalars
        return {k: ("standardization", 1) for k in _NUM}
    return {k: ("ple" if d > 1 else "standardization", d) for k, d in _NUM.items()}


def _feature_info(plr=False):
    num = {k: {"preprocessing": p, "dimension": d, "categories": None}
           for k, (p, d) in _num_info(plr).items()}
    cat = {k: {"preprocessing": "int", "dimension": 1, "categories": c} for k, c in _CAT.items()}
    return (num, cat, {})


def _data(n=_B, plr=False):
    import torch

    num = [torch.randn(n, d) for _, d in _num_info(plr).values()]
    cat = [torch.randint(0, c, (n, 1)) for c in _CAT.values()]
    return (num, cat, [])


def _labels(task, n=_B):
    import torch

    if task == "regression":
        return torch.randn(n, 1)
    if task == "binary":
        return torch.randint(0, 2, (n, 1)).float()
    if task == "multiclass":
        return torch.randint(0, 3, (n,))
    if task == "poisson":
        return torch.randint(0, 6, (n, 1)).float()
    return torch.randn(n, 1)  # normal / studentt / quantile


def _config(name, overrides):
    import dataclasses

    import mambular.configs as configs

    cls = getattr(configs, f"Default{name}Config")
    fields = {f.name for f in dataclasses.fields(cls)}
    kw = {k: v for k, v in _TINY.items() if k in fields}
    kw.update(overrides)
    return cls(**kw)


def _step_classes():
    import torch.nn as nn

    class Predict(nn.Module):
        """Lightning's predict loop: ``TaskModel.predict_step``."""

        def __init__(self, task):
            super().__init__()
            self.task = task

        def forward(self, num, cat, emb):
            return self.task.predict_step((num, cat, emb), 0)

    class TrainStep(nn.Module):
        """``TaskModel.training_step`` up to the loss, without ``self.log``."""

        def __init__(self, task):
            super().__init__()
            self.task = task

        def forward(self, num, cat, emb, labels):
            task = self.task
            data = (num, cat, emb)
            if hasattr(task.estimator, "penalty_forward"):
                preds, penalty = task.estimator.penalty_forward(*data)
                return task.compute_loss(preds, labels) + penalty
            if hasattr(task.estimator, "train_with_candidates"):
                preds = task.estimator.train_with_candidates(
                    *data, targets=labels, candidate_x=task.train_features,
                    candidate_y=task.train_targets)
                return task.compute_loss(preds, labels)
            preds = task(*data)
            return task.compute_loss(preds, labels)

    return Predict, TrainStep


def _make(mode, name, task="regression", family=None, family_kwargs=None, **overrides):
    import mambular.base_models as bm
    from mambular.base_models.utils.lightning_wrapper import TaskModel

    plr = overrides.get("embedding_type") == "plr" and overrides.get("use_embeddings", False)
    config = _config(name, overrides)
    model_class = getattr(bm, name)
    kw = dict(optimizer_args={"optimizer_type": "Adam"})
    if family is not None:
        from mambular.utils import distributions as d

        classes = {"normal": d.NormalDistribution, "poisson": d.PoissonDistribution,
                   "studentt": d.StudentTDistribution, "quantile": d.Quantile}
        fam = classes[family](**(family_kwargs or {}))
        tm = TaskModel(model_class=model_class, config=config, feature_information=_feature_info(plr),
                       num_classes=fam.param_count, lss=True, family=fam, **kw)
    else:
        n_classes = {"regression": 1, "binary": 2, "multiclass": 3}[task]
        tm = TaskModel(model_class=model_class, config=config, feature_information=_feature_info(plr),
                       num_classes=n_classes, **kw)
    label_kind = family or task
    if hasattr(tm.estimator, "uses_candidates") or hasattr(tm.estimator, "train_with_candidates"):
        cand = _data(16, plr)
        tm.train_features = cand
        tm.train_targets = _labels(label_kind, 16)
    else:
        tm.train_features = None
    Predict, TrainStep = _step_classes()
    num, cat, emb = _data(plr=plr)
    if mode == "train":
        return TrainStep(tm), (num, cat, emb, _labels(label_kind)), {}
    return Predict(tm), (num, cat, emb), {}


def _m(name, **kw):
    def make(mode):
        return _make(mode, name, **kw)

    return make


MODELS = {
    # one regressor per base model
    "MLP": _m("MLP"),
    "ResNet": _m("ResNet"),
    "FTTransformer": _m("FTTransformer"),
    "TabTransformer": _m("TabTransformer", d_model=6),
    "Mambular": _m("Mambular"),
    "MambaTab": _m("MambaTab"),
    "MambAttention": _m("MambAttention"),
    "SAINT": _m("SAINT"),
    "TabM": _m("TabM"),
    "NODE": _m("NODE"),
    "ENODE": _m("ENODE"),
    "NDTF": _m("NDTF"),
    "TabulaRNN": _m("TabulaRNN"),
    "AutoInt": _m("AutoInt"),
    "Trompt": _m("Trompt"),
    "Tangos": _m("Tangos"),
    "ModernNCA": _m("ModernNCA"),
    # classifiers and config variants
    "MLP_plr_binary": _m("MLP", task="binary", use_embeddings=True, embedding_type="plr"),
    "MLP_multiclass": _m("MLP", task="multiclass", batch_norm=True, skip_connections=True),
    "ResNet_multiclass": _m("ResNet", task="multiclass"),
    "FTTransformer_cls_binary": _m("FTTransformer", task="binary", use_cls=True, pooling_method="cls"),
    "TabTransformer_binary": _m("TabTransformer", task="binary", d_model=6, pooling_method="sum"),
    "Mambular_bidir_interaction": _m("Mambular", bidirectional=True, use_learnable_interaction=True),
    "Mambular_pscan": _m("Mambular", use_pscan=True),
    "Mambular_multiclass": _m("Mambular", task="multiclass", pooling_method="max"),
    "MambaTab_bidir": _m("MambaTab", bidirectional=True),
    "TabM_multiclass": _m("TabM", task="multiclass"),
    "TabM_full": _m("TabM", model_type="full"),
    "TabulaRNN_LSTM": _m("TabulaRNN", model_type="LSTM"),
    "TabulaRNN_GRU": _m("TabulaRNN", model_type="GRU", task="binary"),
    "TabulaRNN_mLSTM": _m("TabulaRNN", model_type="mLSTM"),
    "SAINT_multiclass": _m("SAINT", task="multiclass"),
    "AutoInt_multiclass": _m("AutoInt", task="multiclass"),
    "Tangos_multiclass": _m("Tangos", task="multiclass"),
    "ModernNCA_multiclass": _m("ModernNCA", task="multiclass"),
    "NDTF_binary": _m("NDTF", task="binary"),
    "Trompt_binary": _m("Trompt", task="binary"),
    # distributional (LSS)
    "Mambular_lss_normal": _m("Mambular", family="normal"),
    "MLP_lss_poisson": _m("MLP", family="poisson"),
    "ResNet_lss_studentt": _m("ResNet", family="studentt"),
    "FTTransformer_lss_quantile": _m("FTTransformer", family="quantile"),
    "TabM_lss_normal": _m("TabM", family="normal"),
}
