"""pykt-toolkit 0.0.38 (import name ``pykt``): its knowledge-tracing models, built from the
library's own constructors with ``init_model``'s arguments (``data_config["num_c"]`` /
``num_q`` ... then the model config), tiny sizes, random weights, no download, fed one batch
shaped as the library's datasets hand it to ``train_model`` / ``evaluate``.

Data: one random batch of 3 students x 9 interactions (12 questions, 6 concepts), the last student
padded after 7, laid out as ``KTDataset.__getitem__`` + the default collate give it: ``qseqs`` /
``cseqs`` / ``tseqs`` (long), ``rseqs`` (float), each with its ``shft_`` twin, multiplied by the
``masks`` (bool, (3, 8)) and ``smasks``; ``DktForgetDataset`` adds the ``dgaps`` dict
(``rgaps`` / ``sgaps`` / ``pcounts`` and their ``shft_``), ``LPKTDataset`` adds ``itseqs``,
``KTQueDataset`` (IEKT, QDKT, DKTQue, IEKTCE) gives ``cseqs`` as (3, 8, max_concepts=4) with -1
for the unused concept slots, not masked. Hawkes timestamps in ms.

Eval: the model's forward called exactly as ``pykt.models.evaluate`` calls it (e.g. DKT
``model(c, r)``, DKVMN ``model(cc, cr)``, SAINT ``model(cq, cc, r)``, AKT ``model(cc, cr, cq)``,
LPKT ``model(cq, cr, cit)``, Hawkes ``model(cc, cq, ct, cr)``); for the question-level models
(``que_type_models`` and the other ``QueBaseModel`` s) ``model.predict_one_step(data)``, as
``evaluate`` does. The ``*_qtest`` models: the forward as ``evaluate_question`` calls it
(``qtest=True``: returns the hidden states too).
Train: ``pykt.models.train_model.model_forward(model, data)``, the per-batch code of
``train_model`` up to ``loss`` (``cal_loss``: masked BCE in double; DKT+'s regularisers; AKT's
Rasch ``reg_loss``; ATKT's adversarial step with ``autograd.grad`` on the embedding and
``_l2_normalize_adv`` in NumPy; IEKT's REINFORCE ``train_one_step``). ``DKTQue`` and ``IEKTCE``
(``QueBaseModel`` s outside ``que_type_models``, which ``model_forward`` does not dispatch):
their own ``train_one_step(data)``, as ``QueBaseModel.train`` runs it, after the
``model.compile("adam", lr=1e-3)`` a user calls first (it sets ``loss_func``, BCE). ``SAINTPlusPlus``
(``models/saint_plus_plus.SAINT``, not wired into ``init_model``/``model_forward`` in 0.0.38):
``model_forward``'s SAINT branch and ``cal_loss``'s BCE written out here. ``*_qtest``:
``mean_loss_module`` over the qtest outputs.

Models (38): DKT, DKTPlus, DKTForget, DKVMN, DeepIRT, SAKT, SAINT (1 and 2 blocks), SAINTPlusPlus,
AKT (with question ids: Rasch difficulty; concepts only, ``num_q=0``; ``separate_qa`` with
``kq_same=0``), KQN (LSTM, GRU), ATKT (``atkt``, and ``atktfix`` with the causal mask),
GKT (dense graph, transition graph from ``gkt_utils.build_*_graph``), LPKT (with and without
interval time), SKVMN (embedding and ``use_onehot``), HawkesKT, IEKT, QDKT, DKTQue (``qaid``,
``qid``->``qaid_qc``), IEKTCE (``sample``, ``attention``, ``argmax``), and the
``qtest`` forwards of DKVMN, DeepIRT, SAKT, SAINT, AKT, KQN, LPKT, HawkesKT.

    pip install --no-deps pykt-toolkit==0.0.38

(its other requirements, numpy, pandas and scikit-learn, were already installed; ``wandb`` is a
declared requirement but only ``pykt/utils/wandb_utils.py`` imports it, which nothing here or in
``pykt/__init__`` imports, so it is neither installed nor stubbed.) Nothing stubbed.

Construction as ``init_model`` does it, with these hand-made parts: GKT's graph from
``build_dense_graph`` / ``build_transition_graph`` on a small frame (``get_gkt_graph`` reads the
dataset's CSVs); LPKT's ``q_matrix`` a random 0/1 (num_q+1, num_c+1) matrix (``generate_qmatrix``
reads the CSVs); HawkesKT ``.double()`` then ``apply(init_weights)`` as ``init_model`` does.
Hack: HawkesKT sets ``self.gpu = device`` (``torch.device("cpu")`` here) and moves its mask with
``mask.cuda() if self.gpu != ''``, which fails eagerly on a CPU-only torch; the factory sets
``model.gpu = ""`` after construction (the only way to run it without CUDA).
QueBaseModel subclasses override ``nn.Module.train`` with a fitting loop, so the callable here is
a wrapper that holds the ``QueBaseModel`` unregistered and registers its inner ``.model`` (the
nn.Module ``train_model`` switches with ``model.model.train()``).

Left out: ``DKTQue(emb_type="qcaid")`` (``QueEmb`` returns a tuple for ``qcaid``/``qcaid_h``,
which ``DKTQueNet`` hands to its LSTM: fails eagerly in 0.0.38), ``AKTQue`` (``models/akt_que.py``: its ``AKTQueNet`` builds ``QueEmb`` without the
required ``model_name`` and fails at construction in 0.0.38), the fitting / evaluation loops
(``train_model``, ``evaluate`` with sklearn AUC, ``QueBaseModel.train``/``evaluate``/
``evaluate_multi_ahead``, ``evaluate_splitpred_question``), datasets and preprocessing (CSV/pickle
files), ``load_model`` (checkpoints), ``emb_type`` ablation variants (``*avgpool``/``*linear``/
``*pdiff`` in AKT, ``roberta`` in LPKT, which needs a missing ``RobertaEncode``) that no shipped
config selects.
"""

import functools

PACKAGE = "pykt"
DISTRIBUTION = "pykt-toolkit"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B, _L = 3, 8  # students, interactions after the shift (sequences of _L + 1)
_NQ, _NC, _MAXC = 12, 6, 4  # questions, concepts, max concepts per question
_NRGAP, _NSGAP, _NPCOUNT = 5, 6, 7  # dkt_forget gap buckets
_NAT, _NIT = 10, 10  # lpkt answer-time / interval-time buckets
_LENGTHS = (_L + 1, _L + 1, 7)


def warm_up():
    import torch  # noqa: F401

    import pykt.models  # noqa: F401
    import pykt.models.dkt_que  # noqa: F401
    import pykt.models.iekt_ce  # noqa: F401
    import pykt.models.saint_plus_plus  # noqa: F401
    import pykt.models.train_model  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

def _batch(kind="plain"):
    """One collated batch as the library's datasets give it. kind: plain / que / forget / lpkt."""
    import torch

    g = torch.Generator().manual_seed(0)
    full = _L + 1
    q = torch.randint(1, _NQ, (_B, full), generator=g)
    c = torch.randint(0, _NC, (_B, full), generator=g)
    r = torch.randint(0, 2, (_B, full), generator=g).float()
    t = 1_600_000_000_000 + torch.cumsum(torch.randint(1_000, 600_000, (_B, full), generator=g), 1)
    valid = torch.zeros(_B, full, dtype=torch.bool)
    for i, n in enumerate(_LENGTHS):
        valid[i, :n] = True
    c = torch.where(valid, c, torch.full_like(c, -1))
    q = torch.where(valid, q, torch.full_like(q, -1))
    r = torch.where(valid, r, torch.full_like(r, -1))
    t = torch.where(valid, t, torch.full_like(t, -1))
    masks = valid[:, :-1] & valid[:, 1:]
    seqs = {"qseqs": q, "rseqs": r, "tseqs": t}
    if kind != "que":
        seqs["cseqs"] = c
    if kind == "lpkt":
        seqs["itseqs"] = torch.where(valid, torch.randint(0, _NIT, (_B, full), generator=g),
                                     torch.full_like(q, -1))
    d = {}
    for key, v in seqs.items():
        d[key] = v[:, :-1] * masks
        d["shft_" + key] = v[:, 1:] * masks
    if kind == "que":
        cc = torch.full((_B, full, _MAXC), -1, dtype=torch.long)
        for i in range(_B):
            for j in range(_LENGTHS[i]):
                k = 1 + (i + j) % 3  # 1 to 3 concepts per question
                cc[i, j, :k] = torch.randperm(_NC, generator=g)[:k]
        d["cseqs"] = cc[:, :-1, :]
        d["shft_cseqs"] = cc[:, 1:, :]
    d["utseqs"] = []
    d["shft_utseqs"] = []
    d["masks"] = masks
    d["smasks"] = masks.clone()
    if kind == "forget":
        dgaps = {}
        for key, n in (("rgaps", _NRGAP), ("sgaps", _NSGAP), ("pcounts", _NPCOUNT)):
            v = torch.randint(0, n, (_B, full), generator=g)
            dgaps[key] = v[:, :-1] * masks
            dgaps["shft_" + key] = v[:, 1:] * masks
        return d, dgaps
    return d


def _joined(d):
    """``cq`` / ``cc`` / ``cr`` (/ ``ct``, ``cit``): the full sequences ``evaluate`` rebuilds."""
    import torch

    out = {
        "q": d["qseqs"], "c": d["cseqs"], "r": d["rseqs"], "cshft": d["shft_cseqs"],
        "cq": torch.cat((d["qseqs"][:, 0:1], d["shft_qseqs"]), dim=1),
        "cc": torch.cat((d["cseqs"][:, 0:1], d["shft_cseqs"]), dim=1),
        "cr": torch.cat((d["rseqs"][:, 0:1], d["shft_rseqs"]), dim=1),
        "ct": torch.cat((d["tseqs"][:, 0:1], d["shft_tseqs"]), dim=1),
    }
    if "itseqs" in d:
        out["cit"] = torch.cat((d["itseqs"][:, 0:1], d["shft_itseqs"]), dim=1)
    return out


# --- wrappers -----------------------------------------------------------------------------------

@functools.cache
def _wrappers():
    import torch.nn as nn
    from torch.nn.functional import binary_cross_entropy

    from pykt.models.train_model import model_forward

    class TrainStep(nn.Module):
        """``train_model``'s per-batch forward: ``model_forward(model, data)`` -> loss."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, data):
            return model_forward(self.model, data)

    class QueModel(nn.Module):
        """A ``QueBaseModel`` (whose ``train`` is a fitting loop) held unregistered; its inner
        ``.model`` registered. ``step``: ``predict`` (evaluate), ``model_forward`` (train_model),
        ``train_one_step`` (QueBaseModel.train)."""

        def __init__(self, que, step):
            super().__init__()
            object.__setattr__(self, "que", que)
            self.net = que.model
            self.step = step

        def forward(self, data):
            if self.step == "predict":
                return self.que.predict_one_step(data)
            if self.step == "model_forward":
                return model_forward(self.que, data)
            return self.que.train_one_step(data)[1]

    class SaintPPTrain(nn.Module):
        """SAINT++ trained as ``model_forward``'s SAINT branch + ``cal_loss``'s BCE."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, data):
            import torch

            q, c, r = data["qseqs"], data["cseqs"], data["rseqs"]
            cq = torch.cat((q[:, 0:1], data["shft_qseqs"]), dim=1)
            cc = torch.cat((c[:, 0:1], data["shft_cseqs"]), dim=1)
            y = self.model(cq.long(), cc.long(), r.long())[:, 1:]
            sm = data["smasks"]
            y = torch.masked_select(y, sm)
            t = torch.masked_select(data["shft_rseqs"], sm)
            return binary_cross_entropy(y.double(), t.double())

    return TrainStep, QueModel, SaintPPTrain


# --- models -------------------------------------------------------------------------------------

def _kt(build, eval_args, kind="plain", qtest=False):
    """A factory: ``build()`` -> model; eval ``model(*eval_args(joined, batch))``; train
    ``model_forward(model, batch)`` (qtest: ``mean_loss_module`` over the qtest forward)."""

    def make(mode):
        model = build()
        data = _batch(kind)
        dcur = data[0] if kind == "forget" else data
        args = eval_args(_joined(dcur), data)
        if mode == "train":
            if qtest:
                return mean_loss_module()(model), args, {}
            return _wrappers()[0](model), (data,), {}
        return model, args, {}

    return make


def _dkt():
    from pykt.models.dkt import DKT

    return DKT(_NC, emb_size=16, dropout=0.1, emb_type="qid", emb_path="")


def _dkt_plus():
    from pykt.models.dkt_plus import DKTPlus

    return DKTPlus(_NC, emb_size=16, lambda_r=0.01, lambda_w1=0.003, lambda_w2=3.0, dropout=0.1,
                   emb_type="qid", emb_path="")


def _dkt_forget():
    from pykt.models.dkt_forget import DKTForget

    return DKTForget(_NC, _NRGAP, _NSGAP, _NPCOUNT, emb_size=16, dropout=0.1)


def _dkvmn():
    from pykt.models.dkvmn import DKVMN

    return DKVMN(_NC, dim_s=16, size_m=5, dropout=0.2, emb_type="qid", emb_path="")


def _deep_irt():
    from pykt.models.deep_irt import DeepIRT

    return DeepIRT(_NC, dim_s=16, size_m=5, dropout=0.2, emb_type="qid", emb_path="")


def _sakt():
    from pykt.models.sakt import SAKT

    return SAKT(_NC, seq_len=_L + 1, emb_size=16, num_attn_heads=2, dropout=0.2, num_en=2,
                emb_type="qid", emb_path="")


def _saint(n_blocks=1):
    def build():
        from pykt.models.saint import SAINT

        return SAINT(_NQ, _NC, seq_len=_L + 1, emb_size=16, num_attn_heads=2, dropout=0.2,
                     n_blocks=n_blocks, emb_type="qid", emb_path="")

    return build


def _akt(num_q=_NQ, **kw):
    def build():
        from pykt.models.akt import AKT

        cfg = dict(d_model=16, n_blocks=1, dropout=0.1, d_ff=32, final_fc_dim=32, num_attn_heads=2)
        cfg.update(kw)
        return AKT(_NC, num_q, **cfg, emb_type="qid", emb_path="")

    return build


def _kqn(rnn_type="lstm"):
    def build():
        from pykt.models.kqn import KQN

        return KQN(_NC, n_hidden=16, n_rnn_hidden=16, n_mlp_hidden=16, dropout=0.2, n_rnn_layers=1,
                   rnn_type=rnn_type, emb_type="qid", emb_path="")

    return build


def _atkt(fix):
    def build():
        from pykt.models.atkt import ATKT

        return ATKT(_NC, skill_dim=16, answer_dim=8, hidden_dim=16, attention_dim=8, epsilon=10,
                    beta=0.2, dropout=0.2, emb_type="qid", emb_path="", fix=fix)

    return build


def _gkt(graph_type):
    def build():
        import pandas as pd
        import torch

        from pykt.models.gkt import GKT
        from pykt.models.gkt_utils import build_dense_graph, build_transition_graph

        if graph_type == "dense":
            graph = build_dense_graph(_NC)
        else:
            df = pd.DataFrame({"concepts": ["0,1,2,3,4,5,0,2", "5,4,3,2,-1,-1", "1,3,5,1,0,2,4"]})
            graph = build_transition_graph(df, _NC)
        graph = torch.tensor(graph).float()
        return GKT(_NC, hidden_dim=16, emb_size=16, graph_type=graph_type, graph=graph, dropout=0.5,
                   emb_type="qid", emb_path="")

    return build


def _lpkt(use_time=True):
    def build():
        import numpy as np
        import torch

        from pykt.models.lpkt import LPKT

        rng = np.random.default_rng(0)
        q_matrix = (rng.random((_NQ + 1, _NC + 1)) < 0.3).astype(float)
        q_matrix[np.arange(_NQ + 1), rng.integers(0, _NC + 1, _NQ + 1)] = 1
        q_matrix = torch.tensor(q_matrix).float()
        return LPKT(_NAT, _NIT, _NQ, _NC, d_a=16, d_e=16, d_k=16, gamma=0.03, dropout=0.2,
                    q_matrix=q_matrix, emb_type="qid", emb_path="", use_time=use_time)

    return build


def _skvmn(use_onehot=False):
    def build():
        from pykt.models.skvmn import SKVMN

        return SKVMN(_NC, dim_s=16, size_m=5, dropout=0.2, emb_type="qid", emb_path="",
                     use_onehot=use_onehot)

    return build


def _hawkes():
    from pykt.models.hawkes import HawkesKT

    model = HawkesKT(_NC, _NQ, emb_size=16, time_log=5)
    model = model.double()
    model.apply(model.init_weights)
    model.gpu = ""  # see the docstring: the CUDA move otherwise fails on CPU
    return model


def _que(build, train_step):
    """A factory for a ``QueBaseModel``: eval ``predict_one_step(data)``; train ``train_step``."""

    def make(mode):
        que = build()
        step = "predict" if mode == "eval" else train_step
        return _wrappers()[1](que, step), (_batch("que"),), {}

    return make


def _iekt():
    from pykt.models.iekt import IEKT

    return IEKT(num_q=_NQ, num_c=_NC, max_concepts=_MAXC, emb_size=16, lamb=40, n_layer=1,
                cog_levels=4, acq_levels=4, dropout=0, gamma=0.93, emb_type="qid", emb_path="",
                device="cpu")


def _qdkt():
    from pykt.models.qdkt import QDKT

    return QDKT(num_q=_NQ, num_c=_NC, max_concepts=_MAXC, emb_size=16, dropout=0.1, emb_type="qaid",
                emb_path="", device="cpu")


def _dkt_que(emb_type):
    def build():
        from pykt.models.dkt_que import DKTQue

        que = DKTQue(num_q=_NQ, num_c=_NC, emb_size=16, dropout=0.1, emb_type=emb_type, emb_path="",
                     device="cpu")
        que.compile("adam", lr=1e-3)  # as before QueBaseModel.train: sets loss_func (BCE), the optimizer
        return que

    return build


def _iekt_ce(train_mode):
    def build():
        from pykt.models.iekt_ce import IEKTCE

        que = IEKTCE(num_q=_NQ, num_c=_NC, emb_size=16, max_concepts=_MAXC, lamb=40, n_layer=1,
                     cog_levels=4, acq_levels=4, dropout=0, gamma=0.93, emb_type="qid", emb_path="",
                     device="cpu", train_mode=train_mode)
        que.compile("adam", lr=1e-3)  # as before QueBaseModel.train: sets loss_func (BCE), the optimizer
        return que

    return build


def _saint_pp(mode):
    from pykt.models.saint_plus_plus import SAINT

    model = SAINT(_NQ, _NC, seq_len=_L + 1, emb_size=16, num_attn_heads=2, dropout=0.2, n_blocks=1,
                  emb_type="qid", emb_path="")
    d = _batch()
    if mode == "train":
        return _wrappers()[2](model), (d,), {}
    j = _joined(d)
    return model, (j["cq"].long(), j["cc"].long(), j["r"].long()), {}


# evaluate()'s call of each model
_C_R = lambda j, d: (j["c"].long(), j["r"].long())  # noqa: E731
_CC_CR = lambda j, d: (j["cc"].long(), j["cr"].long())  # noqa: E731
_C_R_CSHFT = lambda j, d: (j["c"].long(), j["r"].long(), j["cshft"].long())  # noqa: E731
_CQ_CC_R = lambda j, d: (j["cq"].long(), j["cc"].long(), j["r"].long())  # noqa: E731
_CC_CR_CQ = lambda j, d: (j["cc"].long(), j["cr"].long(), j["cq"].long())  # noqa: E731
_LPKT = lambda j, d: (j["cq"].long(), j["cr"].long(), j["cit"].long())  # noqa: E731
_HAWKES = lambda j, d: (j["cc"].long(), j["cq"].long(), j["ct"].long(), j["cr"].long())  # noqa: E731
_FORGET = lambda j, d: (j["c"].long(), j["r"].long(), d[1])  # noqa: E731


def _with_true(f):
    return lambda j, d: (*f(j, d), True)


MODELS = {
    "DKT": _kt(_dkt, _C_R),
    "DKTPlus": _kt(_dkt_plus, _C_R),
    "DKTForget": _kt(_dkt_forget, _FORGET, kind="forget"),
    "DKVMN": _kt(_dkvmn, _CC_CR),
    "DeepIRT": _kt(_deep_irt, _CC_CR),
    "SAKT": _kt(_sakt, _C_R_CSHFT),
    "SAINT": _kt(_saint(1), _CQ_CC_R),
    "SAINT_2blocks": _kt(_saint(2), _CQ_CC_R),
    "SAINTPlusPlus": _saint_pp,
    "AKT": _kt(_akt(), _CC_CR_CQ),
    "AKT_concepts_only": _kt(_akt(num_q=0), _CC_CR_CQ),
    "AKT_separate_qa": _kt(_akt(separate_qa=True, kq_same=0), _CC_CR_CQ),
    "KQN": _kt(_kqn("lstm"), _C_R_CSHFT),
    "KQN_gru": _kt(_kqn("gru"), _C_R_CSHFT),
    "ATKT": _kt(_atkt(False), _C_R),
    "ATKTFix": _kt(_atkt(True), _C_R),
    "GKT_dense": _kt(_gkt("dense"), _CC_CR),
    "GKT_transition": _kt(_gkt("transition"), _CC_CR),
    "LPKT": _kt(_lpkt(True), _LPKT, kind="lpkt"),
    "LPKT_no_time": _kt(_lpkt(False), _LPKT, kind="lpkt"),
    "SKVMN": _kt(_skvmn(False), _CC_CR),
    "SKVMN_onehot": _kt(_skvmn(True), _CC_CR),
    "HawkesKT": _kt(_hawkes, _HAWKES),
    "IEKT": _que(_iekt, "model_forward"),
    "QDKT": _que(_qdkt, "model_forward"),
    "DKTQue_qaid": _que(_dkt_que("qaid"), "train_one_step"),
    "DKTQue_qid": _que(_dkt_que("qid"), "train_one_step"),
    "IEKTCE_sample": _que(_iekt_ce("sample"), "train_one_step"),
    "IEKTCE_attention": _que(_iekt_ce("attention"), "train_one_step"),
    "IEKTCE_argmax": _que(_iekt_ce("argmax"), "train_one_step"),
    # evaluate_question's forwards (qtest=True: the hidden states come back too)
    "DKVMN_qtest": _kt(_dkvmn, _with_true(_CC_CR), qtest=True),
    "DeepIRT_qtest": _kt(_deep_irt, _with_true(_CC_CR), qtest=True),
    "SAKT_qtest": _kt(_sakt, _with_true(_C_R_CSHFT), qtest=True),
    "SAINT_qtest": _kt(_saint(1), _with_true(_CQ_CC_R), qtest=True),
    "AKT_qtest": _kt(_akt(), _with_true(_CC_CR_CQ), qtest=True),
    "KQN_qtest": _kt(_kqn("lstm"), _with_true(_C_R_CSHFT), qtest=True),
    "HawkesKT_qtest": _kt(_hawkes, _with_true(_HAWKES), qtest=True),
}


def _lpkt_qtest(mode):
    model = _lpkt(True)()
    j = _joined(_batch("lpkt"))
    args = (j["cq"].long(), j["cr"].long(), j["cit"].long())
    kwargs = {"at_data": None, "qtest": True}
    if mode == "train":
        return mean_loss_module()(model), args, kwargs
    return model, args, kwargs


MODELS["LPKT_qtest"] = _lpkt_qtest
