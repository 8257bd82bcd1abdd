"""torch-rechub 0.9.0 (Datawhale): recommendation models built from its feature classes
(``SparseFeature``, ``DenseFeature``, ``SequenceFeature``) as its examples
(``examples/ranking/run_criteo.py``, ``run_avazu.py``, ``run_amazon_electronics.py``, ``run_dien.py``,
``run_census.py``, ``run_aliexpress.py``, ``examples/matching/run_ml_*.py``, ``run_sbr.py``), its
end-to-end tests (``tests/test_e2e_ranking.py``, ``test_e2e_matching.py``, ``test_e2e_multitask.py``)
and its docs (``docs/en/models/*.md``, SASRec's usage snippet) build them, on a tiny fake batch dict (4 samples, vocabularies
of 20, embeddings of 8, sequences of 6, 3 negatives), random weights, no download:

- ranking (``torch_rechub.models.ranking``): ``WideDeep``, ``DeepFM``, ``DCN``, ``DCNv2`` (parallel
  with the low-rank mixture; stacked), ``EDCN``, ``AFM``, ``FiBiNet``, ``AutoInt``, ``DeepFFM`` and
  ``FatDeepFFM`` (the examples' linear / field-aware cross features), ``DIN`` (the Amazon example's
  target and history features), ``BST`` and ``DIEN`` (negative histories, auxiliary loss: the
  trainer's ``loss_mode=False``);
- multi-task (``models.multi_task``): ``SharedBottom``, ``ESMM``, ``MMOE``, ``PLE`` (one level;
  two levels), ``AITM``;
- matching (``models.matching``): ``DSSM`` (point-wise; and the trainer's in-batch negatives
  through ``user_tower`` / ``item_tower``, ``inbatch_negative_sampling`` and
  ``gather_inbatch_logits``), ``FaceBookDSSM`` (pair-wise), ``YoutubeDNN``, ``YoutubeSBC``,
  ``MIND``, ``GRU4Rec``, ``ComirecDR``, ``ComirecSA``, ``SINE`` (list-wise, sampled negatives),
  ``NARM`` and ``STAMP`` (session-based, full softmax over items), ``SASRec`` (pos / neg
  sequences); and the user tower as ``MatchTrainer.inference_embedding`` runs it
  (``model.mode = "user"``) for DSSM, YoutubeDNN and MIND.

Eval: the model's forward on the batch dict (ranking: probabilities; multi-task: one column per
task; matching: the scores or the user embedding). Train: the forward plus the loss of the
library's trainer's ``train_one_epoch``, copied without the optimizer step: ``CTRTrainer``'s
``BCELoss`` (plus DIEN's auxiliary loss), ``MTLTrainer``'s per-task ``BCELoss`` (``get_loss_func``;
ESMM: CTR and CTCVR only; averaged otherwise), ``MatchTrainer``'s ``BCELoss`` (mode 0),
``BPRLoss`` (mode 1) or ``CrossEntropyLoss`` (mode 2, in-batch negatives); SASRec (no trainer
of the library takes its (pos, neg) logits): its paper's masked binary cross-entropy on the logits;
the user-tower entries: ``mean_loss_module``; the
``RegularizationLoss`` the trainers always add (zero coefficients by default: a walk over the
modules and parameters) is included.

    pip install --no-deps torch-rechub==0.9.0   # (numpy, pandas, scikit-learn, tqdm: installed)

Capture (torch 2.13.0+cpu): 36 models, 72 runs, all built, none failed under Dynamo; 6 runs break
(DIEN, GRU4Rec, NARM, both modes: RNN modules, ``pack_padded_sequence``, DIEN's data-dependent
``if has_hist.any()`` and boolean masks; the trainers' ``RegularizationLoss`` walking a model with a
GRU), the other 66 have no break. Measured first as it came, with the frozen start-of-stop-57
linter, before any rule looked at it.

Nothing stubbed. Left out: the trainers' data loaders, optimizers, early stopping, metrics and
loggers, ONNX export / serving / quantization (onnx, annoy, faiss, milvus), the generative models
(HSTU, HLLM, RQVAE, TIGER: transformers), the data utilities (pandas preprocessing).
"""

import functools

PACKAGE = "torch_rechub"
DISTRIBUTION = "torch-rechub"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _V, _E, _L, _NEG = 4, 20, 8, 6, 3


@functools.cache
def _wrappers():
    import torch
    from torch import nn

    from torch_rechub.basic.loss_func import BPRLoss, RegularizationLoss
    from torch_rechub.utils.data import get_loss_func
    from torch_rechub.utils.match import gather_inbatch_logits, inbatch_negative_sampling

    class CTRStep(nn.Module):
        """CTRTrainer.train_one_epoch's loss (``loss_mode`` False: the model returns an extra loss)."""

        def __init__(self, model, y, loss_mode=True):
            super().__init__()
            self.model = model
            self.loss_mode = loss_mode
            self.criterion = nn.BCELoss()
            self.reg_loss_fn = RegularizationLoss()
            self.register_buffer("y", y)

        def forward(self, x_dict):
            y = self.y.float()
            if self.loss_mode:
                y_pred = self.model(x_dict)
                loss = self.criterion(y_pred, y)
            else:
                y_pred, other_loss = self.model(x_dict)
                loss = self.criterion(y_pred, y) + other_loss
            return loss + self.reg_loss_fn(self.model)

    class MTLStep(nn.Module):
        """MTLTrainer.train_one_epoch's loss (no adaptive weighting)."""

        def __init__(self, model, ys, task_types):
            super().__init__()
            self.model = model
            self.n_task = len(task_types)
            self.loss_fns = [get_loss_func(t) for t in task_types]
            self.reg_loss_fn = RegularizationLoss()
            self.register_buffer("ys", ys)

        def forward(self, x_dict):
            from torch_rechub.models.multi_task import ESMM

            ys = self.ys
            y_preds = self.model(x_dict)
            loss_list = [self.loss_fns[i](y_preds[:, i], ys[:, i].float()) for i in range(self.n_task)]
            if isinstance(self.model, ESMM):
                loss = sum(loss_list[1:])
            else:
                loss = sum(loss_list) / self.n_task
            return loss + self.reg_loss_fn(self.model)

    class MatchStep(nn.Module):
        """MatchTrainer.train_one_epoch's loss for ``mode`` 0, 1, 2 (and ``in_batch_neg``)."""

        def __init__(self, model, y, mode, in_batch_neg=False, in_batch_neg_ratio=None):
            super().__init__()
            self.model = model
            self.mode = mode
            self.in_batch_neg = in_batch_neg
            self.in_batch_neg_ratio = in_batch_neg_ratio
            if mode == 0:
                self.criterion = nn.CrossEntropyLoss() if in_batch_neg else nn.BCELoss()
            elif mode == 1:
                self.criterion = BPRLoss()
            else:
                self.criterion = nn.CrossEntropyLoss()
            self.reg_loss_fn = RegularizationLoss()
            self.register_buffer("y", y)

        def forward(self, x_dict):
            y = self.y.float() if self.mode == 0 else self.y.long()
            if self.in_batch_neg:
                user_embedding = self.model.user_tower(x_dict)
                item_embedding = self.model.item_tower(x_dict)
                if user_embedding.dim() > 2 and user_embedding.size(1) == 1:
                    user_embedding = user_embedding.squeeze(1)
                if item_embedding.dim() > 2 and item_embedding.size(1) == 1:
                    item_embedding = item_embedding.squeeze(1)
                scores = torch.matmul(user_embedding, item_embedding.t())
                neg_indices = inbatch_negative_sampling(scores, neg_ratio=self.in_batch_neg_ratio)
                logits = gather_inbatch_logits(scores, neg_indices)
                if self.mode == 1:
                    loss = self.criterion(logits[:, 0], logits[:, 1:], in_batch_neg=True)
                else:
                    targets = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
                    loss = self.criterion(logits, targets)
            elif self.mode == 1:
                pos_score, neg_score = self.model(x_dict)
                loss = self.criterion(pos_score, neg_score)
            else:
                y_pred = self.model(x_dict)
                loss = self.criterion(y_pred, y)
            return loss + self.reg_loss_fn(self.model)

    class SASRecStep(nn.Module):
        """SASRec's own objective (kang205/SASRec, which its docstring cites; no trainer of the
        library takes its (pos_logits, neg_logits)): binary cross-entropy of the positive and
        negative logits at the non-padded positions."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            self.reg_loss_fn = RegularizationLoss()

        def forward(self, x_dict):
            import torch.nn.functional as F

            pos_logits, neg_logits = self.model(x_dict)
            mask = (x_dict["seq"] != 0).float()
            loss = F.binary_cross_entropy_with_logits(pos_logits, torch.ones_like(pos_logits), weight=mask) + \
                F.binary_cross_entropy_with_logits(neg_logits, torch.zeros_like(neg_logits), weight=mask)
            return loss + self.reg_loss_fn(self.model)

    return {"CTRStep": CTRStep, "MTLStep": MTLStep, "MatchStep": MatchStep, "SASRecStep": SASRecStep}


# --- fake batches (the DataGenerator's dict of tensors) ---

def _ids(*shape, low=0, vocab=_V):
    import torch

    return torch.randint(low, vocab, shape)


def _ctr_batch(n_dense=3, n_sparse=4):
    import torch

    x = {f"d_{i}": torch.randn(_B) for i in range(n_dense)}
    x.update({f"s_{i}": _ids(_B) for i in range(n_sparse)})
    return x


def _ctr_feats(n_dense=3, n_sparse=4, embed_dim=_E):
    from torch_rechub.basic.features import DenseFeature, SparseFeature

    return ([DenseFeature(f"d_{i}") for i in range(n_dense)],
            [SparseFeature(f"s_{i}", vocab_size=_V, embed_dim=embed_dim) for i in range(n_sparse)])


def _labels(*shape):
    import torch

    return torch.randint(0, 2, shape or (_B,)).float()


def _ctr(build, batch=_ctr_batch, loss_mode=True):
    def make(mode):
        model, x = build(), batch()
        if mode == "train":
            return _wrappers()["CTRStep"](model, _labels(), loss_mode), (x,), {}
        return model, (x,), {}

    return make


# --- ranking ---

def _widedeep():
    from torch_rechub.models.ranking import WideDeep

    dense, sparse = _ctr_feats()
    return WideDeep(wide_features=dense, deep_features=sparse,
                    mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})


def _deepfm():
    from torch_rechub.models.ranking import DeepFM

    dense, sparse = _ctr_feats()
    return DeepFM(deep_features=dense, fm_features=sparse,
                  mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})


def _dcn():
    from torch_rechub.models.ranking import DCN

    dense, sparse = _ctr_feats()
    return DCN(features=dense + sparse, n_cross_layers=3, mlp_params={"dims": [16, 8]})


def _dcnv2(structure):
    def build():
        from torch_rechub.models.ranking import DCNv2

        dense, sparse = _ctr_feats()
        return DCNv2(features=dense + sparse, n_cross_layers=2, model_structure=structure, low_rank=4,
                     num_experts=2, mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})

    return build


def _edcn():
    from torch_rechub.models.ranking import EDCN

    dense, sparse = _ctr_feats()
    return EDCN(features=dense + sparse, n_cross_layers=2,
                mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})


def _afm():
    from torch_rechub.models.ranking import AFM

    _, sparse = _ctr_feats()
    return AFM(fm_features=sparse, embed_dim=_E, t=16)


def _fibinet():
    from torch_rechub.models.ranking import FiBiNet

    dense, sparse = _ctr_feats()
    return FiBiNet(features=dense + sparse, reduction_ratio=3,
                   mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})


def _autoint():
    from torch_rechub.models.ranking import AutoInt

    dense, sparse = _ctr_feats()
    return AutoInt(dense_features=dense, sparse_features=sparse, num_layers=2, num_heads=2, dropout=0.2,
                   mlp_params={"dims": [16, 8], "dropout": 0.2, "activation": "relu"})


def _ffm(fat):
    def build():
        from torch_rechub.basic.features import SparseFeature
        from torch_rechub.models.ranking import DeepFFM, FatDeepFFM

        _, sparse = _ctr_feats()
        linear = [SparseFeature(f.name, vocab_size=f.vocab_size, embed_dim=1) for f in sparse]
        cross = [SparseFeature(f.name, vocab_size=f.vocab_size * len(sparse), embed_dim=4) for f in sparse]
        mlp = {"dims": [16, 8], "dropout": 0.5, "activation": "relu"}
        if fat:
            return FatDeepFFM(linear_features=linear, cross_features=cross, embed_dim=4, reduction_ratio=1,
                              mlp_params=mlp)
        return DeepFFM(linear_features=linear, cross_features=cross, embed_dim=4, mlp_params=mlp)

    return build


def _seq_batch(neg=False):
    def batch():
        x = {"user_id": _ids(_B), "target_item_id": _ids(_B, low=1), "target_cate_id": _ids(_B, low=1)}
        hist = _ids(_B, _L, low=1)
        hist[0, :2] = 0  # left padding, as generate_seq_feature pads
        cate = _ids(_B, _L, low=1)
        cate[0, :2] = 0
        x["hist_item_id"], x["hist_cate_id"] = hist, cate
        if neg:
            x["neg_hist_item_id"], x["neg_hist_cate_id"] = _ids(_B, _L, low=1), _ids(_B, _L, low=1)
        return x

    return batch


def _seq_feats(padding_idx=None, names=("hist_item_id", "hist_cate_id")):
    from torch_rechub.basic.features import SequenceFeature, SparseFeature

    target = [SparseFeature("target_item_id", vocab_size=_V, embed_dim=_E, padding_idx=padding_idx),
              SparseFeature("target_cate_id", vocab_size=_V, embed_dim=_E, padding_idx=padding_idx)]
    hist = [SequenceFeature(n, vocab_size=_V, embed_dim=_E, pooling="concat", shared_with=t.name,
                            padding_idx=padding_idx) for n, t in zip(names, target)]
    return [SparseFeature("user_id", vocab_size=_V, embed_dim=_E)], target, hist


def _din():
    from torch_rechub.models.ranking import DIN

    user, target, hist = _seq_feats()
    features = target + user  # the Amazon example: target features are the features
    return DIN(features=features, history_features=hist, target_features=target, mlp_params={"dims": [16, 8]},
               attention_mlp_params={"dims": [16, 8]})


def _bst():
    from torch_rechub.models.ranking import BST

    user, target, hist = _seq_feats(padding_idx=0)
    return BST(features=user, history_features=hist, target_features=target, mlp_params={"dims": [16, 8]},
               nhead=2, dropout=0.2, num_layers=1, max_seq_len=_L + 1)


def _dien():
    from torch_rechub.models.ranking import DIEN

    user, target, hist = _seq_feats(padding_idx=0)
    _, _, neg = _seq_feats(padding_idx=0, names=("neg_hist_item_id", "neg_hist_cate_id"))
    return DIEN(features=user, history_features=hist, neg_history_features=neg, target_features=target,
                mlp_params={"dims": [16, 8]}, alpha=0.2)


# --- multi-task ---

def _mtl(build, n_task=2, task_types=None):
    def make(mode):
        import torch

        from torch_rechub.basic.features import DenseFeature, SparseFeature

        feats = [SparseFeature(f"s_{i}", vocab_size=_V, embed_dim=4) for i in range(3)] + \
            [DenseFeature(f"d_{i}") for i in range(2)]
        model = build(feats)
        x = _ctr_batch(2, 3)
        if mode == "train":
            types = task_types or ["classification"] * n_task
            ys = torch.stack([_labels() for _ in types], dim=1)
            return _wrappers()["MTLStep"](model, ys, types), (x,), {}
        return model, (x,), {}

    return make


def _shared_bottom(feats):
    from torch_rechub.models.multi_task import SharedBottom

    return SharedBottom(feats, ["classification", "classification"], bottom_params={"dims": [16]},
                        tower_params_list=[{"dims": [8]}, {"dims": [8]}])


def _esmm(feats):
    from torch_rechub.basic.features import SparseFeature
    from torch_rechub.models.multi_task import ESMM

    user = [SparseFeature(f"s_{i}", vocab_size=_V, embed_dim=_E) for i in range(2)]
    item = [SparseFeature("s_2", vocab_size=_V, embed_dim=_E)]
    return ESMM(user, item, cvr_params={"dims": [16, 8]}, ctr_params={"dims": [16, 8]})


def _mmoe(feats):
    from torch_rechub.models.multi_task import MMOE

    return MMOE(feats, ["classification", "classification"], 4, expert_params={"dims": [16]},
                tower_params_list=[{"dims": [8]}, {"dims": [8]}])


def _ple(n_level):
    def build(feats):
        from torch_rechub.models.multi_task import PLE

        return PLE(feats, ["classification", "classification"], n_level=n_level, n_expert_specific=2,
                   n_expert_shared=1, expert_params={"dims": [16]}, tower_params_list=[{"dims": [8]}, {"dims": [8]}])

    return build


def _aitm(feats):
    from torch_rechub.models.multi_task import AITM

    return AITM(feats, 2, bottom_params={"dims": [16, 8]}, tower_params_list=[{"dims": [8]}, {"dims": [8]}])


# --- matching ---

def _match_batch(neg=True, hist_name="hist_movie_id", item="movie_id"):
    x = {"user_id": _ids(_B), "gender": _ids(_B, vocab=3), item: _ids(_B, low=1)}
    hist = _ids(_B, _L, low=1)
    hist[0, :3] = 0
    x[hist_name] = hist
    if neg:
        x["neg_items"] = _ids(_B, _NEG, low=1)
    return x


def _user_feats():
    from torch_rechub.basic.features import SparseFeature

    return [SparseFeature("user_id", vocab_size=_V, embed_dim=_E), SparseFeature("gender", vocab_size=3, embed_dim=_E)]


def _match(build, loss_mode, batch=_match_batch, in_batch_neg=False, infer=None):
    def make(mode):
        import torch

        model, x = build(), batch()
        if infer is not None:
            model.mode = infer  # MatchTrainer.inference_embedding
            return (mean_loss_module()(model) if mode == "train" else model), (x,), {}
        if mode == "train":
            if build is _sasrec:
                return _wrappers()["SASRecStep"](model), (x,), {}
            y = {0: _labels(), 1: torch.ones(_B), 2: torch.zeros(_B)}[loss_mode]
            if isinstance(loss_mode, int) and build in (_narm, _stamp):
                y = x["target"]
            return _wrappers()["MatchStep"](model, y, loss_mode, in_batch_neg), (x,), {}
        return model, (x,), {}

    return make


def _dssm():
    from torch_rechub.basic.features import SequenceFeature, SparseFeature
    from torch_rechub.models.matching import DSSM

    user = _user_feats() + [SequenceFeature("hist_movie_id", vocab_size=_V, embed_dim=_E, pooling="mean",
                                            shared_with="movie_id")]
    item = [SparseFeature("movie_id", vocab_size=_V, embed_dim=_E)]
    return DSSM(user, item, temperature=0.02, user_params={"dims": [16, 8], "activation": "prelu"},
                item_params={"dims": [16, 8], "activation": "prelu"})


def _fb_dssm():
    from torch_rechub.basic.features import SequenceFeature, SparseFeature
    from torch_rechub.models.matching import FaceBookDSSM

    user = _user_feats() + [SequenceFeature("hist_movie_id", vocab_size=_V, embed_dim=_E, pooling="mean",
                                            shared_with="movie_id")]
    item = [SparseFeature("movie_id", vocab_size=_V, embed_dim=_E)]
    neg = [SparseFeature("neg_items", vocab_size=_V, embed_dim=_E, shared_with="movie_id")]
    return FaceBookDSSM(user, item, neg, temperature=0.02, user_params={"dims": [16, 8], "activation": "prelu"},
                        item_params={"dims": [16, 8], "activation": "prelu"})


def _fb_batch():
    x = _match_batch(neg=False)
    x["neg_items"] = _ids(_B, low=1)
    return x


def _list_feats():
    from torch_rechub.basic.features import SequenceFeature, SparseFeature

    hist = [SequenceFeature("hist_movie_id", vocab_size=_V, embed_dim=_E, pooling="concat", shared_with="movie_id")]
    item = [SparseFeature("movie_id", vocab_size=_V, embed_dim=_E)]
    neg = [SequenceFeature("neg_items", vocab_size=_V, embed_dim=_E, pooling="concat", shared_with="movie_id")]
    return hist, item, neg


def _youtube_dnn():
    from torch_rechub.basic.features import SequenceFeature
    from torch_rechub.models.matching import YoutubeDNN

    _, item, neg = _list_feats()
    user = _user_feats() + [SequenceFeature("hist_movie_id", vocab_size=_V, embed_dim=_E, pooling="mean",
                                            shared_with="movie_id")]
    return YoutubeDNN(user, item, neg, user_params={"dims": [16, _E]}, temperature=0.02)


def _youtube_sbc():
    from torch_rechub.basic.features import DenseFeature, SequenceFeature, SparseFeature
    from torch_rechub.models.matching import YoutubeSBC

    user = _user_feats() + [SequenceFeature("hist_movie_id", vocab_size=_V, embed_dim=_E, pooling="mean",
                                            shared_with="movie_id")]
    item = [SparseFeature("movie_id", vocab_size=_V, embed_dim=_E)]
    return YoutubeSBC(user, item, [DenseFeature("sample_weight")], user_params={"dims": [16, 8]},
                      item_params={"dims": [16, 8]}, batch_size=_B, n_neg=_NEG, temperature=0.02)


def _sbc_batch():
    import torch

    x = _match_batch(neg=False)
    x["sample_weight"] = torch.rand(_B)
    return x


def _mind():
    from torch_rechub.models.matching import MIND

    hist, item, neg = _list_feats()
    return MIND(_user_feats(), hist, item, neg, max_length=_L, temperature=0.02, interest_num=2)


def _gru4rec():
    from torch_rechub.models.matching import GRU4Rec

    hist, item, neg = _list_feats()
    return GRU4Rec(_user_feats(), hist, item, neg, user_params={"dims": [16, _E]}, temperature=0.02)


def _comirec(kind):
    def build():
        from torch_rechub.models.matching import ComirecDR, ComirecSA

        hist, item, neg = _list_feats()
        if kind == "DR":
            return ComirecDR(_user_feats(), hist, item, neg, max_length=_L, temperature=0.02, interest_num=2)
        return ComirecSA(_user_feats(), hist, item, neg, temperature=0.02, interest_num=2)

    return build


def _sine():
    from torch_rechub.models.matching import SINE

    # run_ml_sine.py passes the feature names, not Feature objects
    return SINE(["hist_movie_id"], ["movie_id"], ["neg_items"], _V, _E, 16, 4, 2, _L, temperature=0.1)


def _sbr_batch():
    import torch

    hist = _ids(_B, _L, low=1)
    hist[0, :2] = 0
    return {"history_item": hist, "target": torch.randint(1, _V, (_B,))}


def _sbr_feat():
    from torch_rechub.basic.features import SequenceFeature

    return SequenceFeature("history_item", vocab_size=_V, embed_dim=_E, pooling="concat")


def _narm():
    from torch_rechub.models.matching import NARM

    return NARM(_sbr_feat(), 16, 0.25, 0.5)


def _stamp():
    from torch_rechub.models.matching import STAMP

    return STAMP(_sbr_feat(), 0.002, 0.002)


def _sasrec():
    from torch_rechub.basic.features import SequenceFeature
    from torch_rechub.models.matching import SASRec

    seq = SequenceFeature("seq", vocab_size=_V, embed_dim=_E, pooling="concat")
    pos = SequenceFeature("pos", vocab_size=_V, embed_dim=_E, pooling="concat", shared_with="seq")
    neg = SequenceFeature("neg", vocab_size=_V, embed_dim=_E, pooling="concat", shared_with="seq")
    return SASRec(features=[seq, pos, neg], max_len=_L, dropout_rate=0.2, num_blocks=2, num_heads=2)


def _sasrec_batch():
    seq = _ids(_B, _L, low=1)
    seq[0, :2] = 0
    return {"seq": seq, "pos": _ids(_B, _L, low=1), "neg": _ids(_B, _L, low=1)}


MODELS = {
    # --- ranking (CTRTrainer, BCELoss) ---
    "WideDeep": _ctr(_widedeep),
    "DeepFM": _ctr(_deepfm),
    "DCN": _ctr(_dcn),
    "DCNv2_parallel": _ctr(_dcnv2("parallel")),
    "DCNv2_stacked": _ctr(_dcnv2("stacked")),
    "EDCN": _ctr(_edcn),
    "AFM": _ctr(_afm),
    "FiBiNet": _ctr(_fibinet),
    "AutoInt": _ctr(_autoint),
    "DeepFFM": _ctr(_ffm(False)),
    "FatDeepFFM": _ctr(_ffm(True)),
    "DIN": _ctr(_din, _seq_batch()),
    "BST": _ctr(_bst, _seq_batch()),
    "DIEN": _ctr(_dien, _seq_batch(neg=True), loss_mode=False),
    # --- multi-task (MTLTrainer) ---
    "SharedBottom": _mtl(_shared_bottom),
    "ESMM": _mtl(_esmm, 3),
    "MMOE": _mtl(_mmoe),
    "PLE": _mtl(_ple(1)),
    "PLE_2levels": _mtl(_ple(2)),
    "AITM": _mtl(_aitm),
    # --- matching (MatchTrainer) ---
    "DSSM": _match(_dssm, 0, lambda: _match_batch(neg=False)),
    "DSSM_inbatch_neg": _match(_dssm, 0, lambda: _match_batch(neg=False), in_batch_neg=True),
    "DSSM_user_tower": _match(_dssm, 0, lambda: _match_batch(neg=False), infer="user"),
    "FaceBookDSSM": _match(_fb_dssm, 1, _fb_batch),
    "YoutubeDNN": _match(_youtube_dnn, 2),
    "YoutubeDNN_user_tower": _match(_youtube_dnn, 2, infer="user"),
    "YoutubeSBC": _match(_youtube_sbc, 2, _sbc_batch),
    "MIND": _match(_mind, 2),
    "MIND_user_tower": _match(_mind, 2, infer="user"),
    "GRU4Rec": _match(_gru4rec, 2),
    "ComirecDR": _match(_comirec("DR"), 2),
    "ComirecSA": _match(_comirec("SA"), 2),
    "SINE": _match(_sine, 2),
    "NARM": _match(_narm, 2, _sbr_batch),
    "STAMP": _match(_stamp, 2, _sbr_batch),
    "SASRec": _match(_sasrec, 1, _sasrec_batch),
}
