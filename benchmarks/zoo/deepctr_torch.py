"""DeepCTR-Torch 0.3.0 (import name ``deepctr_torch``): its click-through-rate models, built as
its own tests build them (``tests/utils.py`` ``get_test_data``, ``tests/utils_mtl.py``, the
DIN / DIEN tests' behaviour features): feature columns ``SparseFeat`` / ``DenseFeat`` /
``VarLenSparseFeat`` over a tiny synthetic feature dict (batch 8; 3 sparse features, 2 dense,
3 variable-length sequences of length 4 pooled by ``sum`` / ``mean`` / ``max``),
``embedding_dim=4``, small ``dnn_hidden_units`` (16, 8), ``device="cpu"``, random weights.

Every model is called as ``fit`` / ``predict`` call it: ``model(x)`` on the one float matrix they
build from the feature dict (the columns in ``model.feature_index`` order, 1-D features made
2-D, ``np.concatenate(..., axis=-1)``, ``torch.from_numpy(...).float()``).

Models: ``WDL``, ``DeepFM`` (plus batch norm + dropout, a regression task, and ``sum`` /
``mean`` sequences with their ``length_name`` length column), ``xDeepFM`` (CIN split in half and
not), ``AFM`` (with and without attention; no dense features: it raises on a ``DenseFeat``), ``NFM``, ``AutoInt`` (with a DNN and attention only), ``DCN`` (vector and
matrix cross), ``DCNMix``, ``FiBiNET`` (bilinear ``interaction`` / ``all`` / ``each``), ``PNN``
(inner product; outer product with ``mat`` and ``vec`` kernels), ``CCPM`` (sparse fields only,
as its test: it takes no dense features), ``IFM``, ``DIFM``, ``AFN``, ``ONN``, ``MLR`` (region
features only; with separate base and bias features), ``DIN``, ``DIEN`` (``GRU``, ``AIGRU``,
``AUGRU``, and ``AGRU`` with negative sampling: its auxiliary loss), and the multi-task models
``SharedBottom``, ``ESMM``, ``MMOE`` (also binary + regression), ``PLE``.

Eval: ``model(x)`` (what ``predict`` runs). Train: one step of ``BaseModel.fit``'s loss (a
module here, the same lines): ``y_pred = model(x)``, squeezed for one task,
``binary_crossentropy`` (``F.binary_cross_entropy``, ``reduction="sum"``; ``mse`` for the
regression task; per task ``[:, i]`` and summed for the multi-task models, ``mae`` for a
regression task) plus ``model.get_regularization_loss()`` plus ``model.aux_loss`` (DIEN's
negative-sampling loss).

    pip install --no-deps deepctr-torch==0.3.0
    # its dependencies scikit-learn, tqdm and requests are already there (scikit-learn 1.9.1)

Nothing is stubbed. Note: ``import deepctr_torch`` starts a thread that asks PyPI for the
latest version (``utils.check_version``); without network it prints a line and ends.

Left out: ``fit`` / ``evaluate`` / ``predict`` themselves (data loaders, optimizer, callbacks,
scikit-learn metrics around the forward and loss above), ``compile``; the layer classes on their
own (each model covers them); a ``max`` sequence with a ``length_name`` column (its
``SequencePoolingLayer`` computes ``1 - mask`` on a bool mask: fails in eager on this torch);
``use_hash`` features (``SparseFeat`` prints that hashing is not supported in the torch version:
the ids are used as they are); GPU ``DataParallel`` (``gpus``).
"""

import functools

PACKAGE = "deepctr_torch"
DISTRIBUTION = "deepctr-torch"

_B = 8
_EMB = 4
_DNN = (16, 8)
_MAXLEN = 4


def warm_up():
    import torch  # noqa: F401

    import deepctr_torch  # noqa: F401
    import deepctr_torch.models  # noqa: F401


# --- the synthetic feature dict ------------------------------------------------------------------

def _features(sparse=3, dense=2, sequence=("sum", "mean", "max"), length=False, prefix=""):
    """``get_test_data``'s columns and data, fixed sizes: ``sparse`` SparseFeats (vocabularies
    5, 7, 3, ...), ``dense`` DenseFeats, one VarLenSparseFeat per combiner in ``sequence``
    (``length``: each with a ``length_name`` column of its lengths)."""
    import numpy as np

    from deepctr_torch.inputs import DenseFeat, SparseFeat, VarLenSparseFeat

    rng = np.random.RandomState(0)
    vocab = [5, 7, 3, 6, 4]
    columns, data = [], {}
    for i in range(sparse):
        name = f"{prefix}sparse_feature_{i}"
        columns.append(SparseFeat(name, vocab[i % len(vocab)], embedding_dim=_EMB, dtype="int32"))
        data[name] = rng.randint(0, vocab[i % len(vocab)], _B)
    for i in range(dense):
        name = f"{prefix}dense_feature_{i}"
        columns.append(DenseFeat(name, 1, dtype="float32"))
        data[name] = rng.random_sample(_B)
    for i, combiner in enumerate(sequence):
        name = f"{prefix}sequence_{combiner}"
        dim = vocab[(i + 1) % len(vocab)]
        length_name = f"{name}_seq_length" if length else None
        columns.append(VarLenSparseFeat(SparseFeat(name, vocabulary_size=dim, embedding_dim=_EMB), maxlen=_MAXLEN,
                                        combiner=combiner, length_name=length_name))
        data[name] = rng.randint(0, dim, (_B, _MAXLEN))
        if length:
            data[length_name] = rng.randint(1, _MAXLEN + 1, _B)
    return columns, data


def _behaviour_features(neg=False):
    """The DIN / DIEN tests' features: a user, a target item and its category, a score, and
    the histories of items and categories (``hist_*``, sharing the target's embeddings; 0 pads),
    with their ``seq_length``; ``neg``: negative-sampled histories too (``neg_hist_*``)."""
    import numpy as np

    from deepctr_torch.inputs import DenseFeat, SparseFeat, VarLenSparseFeat

    rng = np.random.RandomState(0)
    columns = [SparseFeat("user", 4, embedding_dim=_EMB), SparseFeat("gender", 2, embedding_dim=_EMB),
               SparseFeat("item_id", 3 + 1, embedding_dim=8), SparseFeat("cate_id", 2 + 1, embedding_dim=_EMB),
               DenseFeat("pay_score", 1)]
    hists = [("hist_", True)] + ([("neg_hist_", True)] if neg else [])
    for head, _ in hists:
        columns += [
            VarLenSparseFeat(SparseFeat(head + "item_id", vocabulary_size=3 + 1, embedding_dim=8,
                                        embedding_name="item_id"), maxlen=_MAXLEN, length_name="seq_length"),
            VarLenSparseFeat(SparseFeat(head + "cate_id", vocabulary_size=2 + 1, embedding_dim=_EMB,
                                        embedding_name="cate_id"), maxlen=_MAXLEN, length_name="seq_length")]
    length = rng.randint(1, _MAXLEN + 1, _B)
    pad = np.arange(_MAXLEN)[None, :] < length[:, None]  # 0 is the mask value
    data = {"user": rng.randint(0, 4, _B), "gender": rng.randint(0, 2, _B), "item_id": rng.randint(1, 4, _B),
            "cate_id": rng.randint(1, 3, _B), "pay_score": rng.random_sample(_B), "seq_length": length}
    for head, _ in hists:
        data[head + "item_id"] = rng.randint(1, 4, (_B, _MAXLEN)) * pad
        data[head + "cate_id"] = rng.randint(1, 3, (_B, _MAXLEN)) * pad
    return columns, data, ["item_id", "cate_id"]


def _x(model, data):
    """What ``fit`` / ``predict`` feed the model: the features in ``feature_index`` order, one
    float matrix."""
    import numpy as np
    import torch

    x = [data[feature] for feature in model.feature_index]
    x = [np.expand_dims(a, axis=1) if len(a.shape) == 1 else a for a in x]
    return torch.from_numpy(np.concatenate(x, axis=-1)).float()


@functools.cache
def _fit_loss():
    import torch
    import torch.nn.functional as F

    losses = {"binary_crossentropy": F.binary_cross_entropy, "mse": F.mse_loss, "mae": F.l1_loss}

    class FitLoss(torch.nn.Module):
        """One training step's loss as ``BaseModel.fit`` computes it (after
        ``model.compile("adam", loss)``): the task loss (summed), the regularization loss and
        the auxiliary loss."""

        def __init__(self, model, y, loss):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)  # the probe judges `given:` labels on model's forward
            self.loss_func = [losses[name] for name in loss] if isinstance(loss, list) else losses[loss]
            self.register_buffer("y", y)

        def forward(self, x):
            model, loss_func, y = self.model, self.loss_func, self.y
            num_tasks = getattr(model, "num_tasks", 1)
            y_pred = model(x)
            if num_tasks == 1 and y_pred.ndim > 1 and y_pred.shape[-1] == 1:
                y_pred = y_pred.squeeze(-1)
            if isinstance(loss_func, list):
                loss = sum([loss_func[i](y_pred[:, i], y[:, i], reduction="sum") for i in range(num_tasks)])
            else:
                y_for_loss = y
                if y_for_loss.ndim > 1 and y_for_loss.shape[-1] == 1:
                    y_for_loss = y_for_loss.squeeze(-1)
                loss = loss_func(y_pred, y_for_loss, reduction="sum")
            reg_loss = model.get_regularization_loss()
            return loss + reg_loss + model.aux_loss

    return FitLoss


def _labels(task_types):
    import torch

    g = torch.Generator().manual_seed(1)
    cols = [torch.randint(0, 2, (_B,), generator=g).float() if t == "binary" else torch.rand(_B, generator=g)
            for t in task_types]
    return cols[0] if len(cols) == 1 else torch.stack(cols, dim=1)


def _done(mode, model, data, task_types=("binary",)):
    x = _x(model, data)
    if mode != "train":
        return model, (x,), {}
    names = {"binary": "binary_crossentropy", "regression": "mse"}
    if len(task_types) > 1:
        loss = ["binary_crossentropy" if t == "binary" else "mae" for t in task_types]
    else:
        loss = names[task_types[0]]
    return _fit_loss()(model, _labels(task_types), loss), (x,), {}


# --- the factories -------------------------------------------------------------------------------

def _ctr(name, features=None, linear=True, task="binary", **params):
    """``deepctr_torch.models.<name>(linear_feature_columns, dnn_feature_columns, **params)``
    over the same columns (``linear=False``: the models that take only dnn columns)."""

    def make(mode):
        from deepctr_torch import models

        columns, data = _features(**(features or {}))
        cls = getattr(models, name)
        if linear:
            model = cls(columns, columns, task=task, device="cpu", **params)
        else:
            model = cls(columns, task=task, device="cpu", **params)
        return _done(mode, model, data, (task,))

    return make


def _mlr(base_bias=False):
    def make(mode):
        from deepctr_torch.models import MLR

        region, data = _features(prefix="region_")
        if base_bias:
            base, base_data = _features(sparse=2, dense=1, sequence=("mean",), prefix="base_")
            bias, bias_data = _features(sparse=1, dense=1, sequence=(), prefix="bias_")
            data = {**data, **base_data, **bias_data}
            model = MLR(region, base, bias, region_num=3, device="cpu")
        else:
            model = MLR(region, region_num=3, device="cpu")
        return _done(mode, model, data)

    return make


def _behaviour(name, neg=False, **params):
    def make(mode):
        from deepctr_torch import models

        columns, data, behaviour = _behaviour_features(neg)
        model = getattr(models, name)(columns, behaviour, dnn_hidden_units=_DNN, dnn_dropout=0.5, device="cpu",
                                      **params)
        return _done(mode, model, data)

    return make


def _multitask(name, task_types=("binary", "binary"), **params):
    def make(mode):
        from deepctr_torch import models

        columns, data = _features()
        model = getattr(models, name)(columns, task_types=task_types, task_names=("ctr", "ctcvr")[: len(task_types)],
                                      device="cpu", **params)
        return _done(mode, model, data, task_types)

    return make


_SPARSE_ONLY = dict(sparse=4, dense=0, sequence=())
_NO_DENSE = dict(dense=0)

MODELS = {
    # --- linear + deep, factorization machines ---
    "WDL": _ctr("WDL", dnn_hidden_units=_DNN),
    "DeepFM": _ctr("DeepFM", dnn_hidden_units=_DNN),
    "DeepFM_bn_dropout": _ctr("DeepFM", dnn_hidden_units=_DNN, dnn_use_bn=True, dnn_dropout=0.5),
    "DeepFM_regression": _ctr("DeepFM", task="regression", dnn_hidden_units=_DNN),
    "DeepFM_seq_length": _ctr("DeepFM", features=dict(sequence=("sum", "mean"), length=True), dnn_hidden_units=_DNN),
    "xDeepFM": _ctr("xDeepFM", dnn_hidden_units=_DNN, cin_layer_size=(8, 8)),
    "xDeepFM_no_split": _ctr("xDeepFM", dnn_hidden_units=_DNN, cin_layer_size=(8, 4), cin_split_half=False),
    "AFM": _ctr("AFM", features=_NO_DENSE, attention_factor=4),
    "AFM_no_attention": _ctr("AFM", features=_NO_DENSE, use_attention=False),
    "NFM": _ctr("NFM", dnn_hidden_units=_DNN, bi_dropout=0.5),
    "IFM": _ctr("IFM", dnn_hidden_units=_DNN),
    "DIFM": _ctr("DIFM", dnn_hidden_units=_DNN, att_head_num=2),
    "AFN": _ctr("AFN", ltl_hidden_size=8, afn_dnn_hidden_units=_DNN),
    "ONN": _ctr("ONN", dnn_hidden_units=_DNN),
    "FiBiNET_interaction": _ctr("FiBiNET", bilinear_type="interaction", dnn_hidden_units=_DNN),
    "FiBiNET_all": _ctr("FiBiNET", bilinear_type="all", dnn_hidden_units=_DNN),
    "FiBiNET_each": _ctr("FiBiNET", bilinear_type="each", dnn_hidden_units=_DNN),
    "CCPM": _ctr("CCPM", features=_SPARSE_ONLY, conv_kernel_width=(3, 2), conv_filters=(2, 1), dnn_hidden_units=_DNN),
    # --- attention / cross networks ---
    "AutoInt": _ctr("AutoInt", att_layer_num=2, att_head_num=2, dnn_hidden_units=_DNN),
    "AutoInt_attention_only": _ctr("AutoInt", att_layer_num=2, att_head_num=2, dnn_hidden_units=()),
    "DCN_vector": _ctr("DCN", cross_num=2, dnn_hidden_units=_DNN),
    "DCN_matrix": _ctr("DCN", cross_num=2, cross_parameterization="matrix", dnn_hidden_units=_DNN),
    "DCNMix": _ctr("DCNMix", cross_num=2, low_rank=4, num_experts=2, dnn_hidden_units=_DNN),
    # --- product networks (dnn columns only) ---
    "PNN_inner": _ctr("PNN", linear=False, dnn_hidden_units=_DNN),
    "PNN_outer_mat": _ctr("PNN", linear=False, dnn_hidden_units=_DNN, use_inner=False, use_outter=True),
    "PNN_inner_outer_vec": _ctr("PNN", linear=False, dnn_hidden_units=_DNN, use_outter=True, kernel_type="vec"),
    # --- piece-wise linear ---
    "MLR": _mlr(),
    "MLR_base_bias": _mlr(base_bias=True),
    # --- user behaviour sequences ---
    "DIN": _behaviour("DIN"),
    "DIEN_GRU": _behaviour("DIEN", gru_type="GRU"),
    "DIEN_AIGRU": _behaviour("DIEN", gru_type="AIGRU"),
    "DIEN_AUGRU": _behaviour("DIEN", gru_type="AUGRU"),
    "DIEN_AGRU_negsampling": _behaviour("DIEN", neg=True, gru_type="AGRU", use_negsampling=True),
    # --- multi-task ---
    "SharedBottom": _multitask("SharedBottom", bottom_dnn_hidden_units=_DNN, tower_dnn_hidden_units=(4,)),
    "ESMM": _multitask("ESMM", tower_dnn_hidden_units=_DNN),
    "MMOE": _multitask("MMOE", num_experts=3, expert_dnn_hidden_units=_DNN, gate_dnn_hidden_units=(4,),
                       tower_dnn_hidden_units=(4,)),
    "MMOE_binary_regression": _multitask("MMOE", task_types=("binary", "regression"), num_experts=2,
                                         expert_dnn_hidden_units=_DNN, gate_dnn_hidden_units=(4,),
                                         tower_dnn_hidden_units=(4,)),
    "PLE": _multitask("PLE", shared_expert_num=1, specific_expert_num=1, num_levels=2, expert_dnn_hidden_units=_DNN,
                      gate_dnn_hidden_units=(4,), tower_dnn_hidden_units=(4,)),
}
