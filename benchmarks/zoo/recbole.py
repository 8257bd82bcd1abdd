"""RecBole 1.2.1: recommender models (general, sequential, context-aware, knowledge-aware) built as
its tests build them (``tests/model/test_model_auto.py`` with ``tests/model/test_model.yaml``: each
model's own default hyper-parameters from ``recbole/properties/model/<Model>.yaml``, the test's
overrides), random weights, no download.

Data: the tests' ``test`` dataset is a slice of MovieLens-100k; here it is cut the same way from the
ml-100k atomic files the wheel ships (``recbole/dataset_example/ml-100k``, never downloaded): users
1-200 and items 1-300 (``.inter``, ``.user``, ``.item``), the links of those items (``.link``) and
the knowledge-graph triples whose head is a linked entity (``.kg``), written once as atomic files to
a temp folder (``<tmp>/recbole-zoo-1.2.1/test``). For the models that need pre-trained KG
embeddings (``GRU4RecKG``; ``KSR``, left out below) it also writes ``test.ent_feature`` /
``test.rel_feature`` (random 64-d vectors per entity / relation) and loads them as their docs say (``preload_weight``,
``additional_feat_suffix``, ``alias_of_entity_id``). Each model goes through RecBole's own pipeline
as ``quick_start.run_recbole`` does: ``Config(model, dataset, config_dict)`` -> ``init_seed`` ->
``create_dataset`` -> ``data_preparation`` (its splits, samplers, transforms, dataloaders) ->
``get_model(...)(config, train_data._dataset)``; ``train_batch_size`` is 256 (the default 2048
is the whole slice; 32 for S3Rec's pre-training, whose step loops over the batch's sequences in
Python), ``eval_batch_size`` the default 4096.

Eval: what the Trainer's evaluate computes for the first batch of the test dataloader:
``model.full_sort_predict(interaction)`` for full-ranking evaluation (general, sequential,
knowledge-aware models); for the models without one (NeuMF, ConvNCF, NNCF, CFKG, KTUP, MKR) the
Trainer's fallback, ``model.predict`` on the batch repeated over every item
(``repeat_interleave(tot_item_num)`` + the item features); ``model.predict(interaction)`` on the
sampled-candidate batch for value evaluation (context-aware models, labels from ``threshold:
{rating: 4}``) and for DIN / DIEN (their quick-start config: ``uni100``, AUC).
Train: the loss the Trainer back-propagates for the first batch of the training dataloader
(shuffled, negatives sampled, transforms applied there): ``model.calculate_loss(interaction)``,
summed when it returns a tuple; the trainer-specific steps: ``KGTrainer`` (RSKG mode: user-item
batch joined with a KG batch with sampled negative tails; ``calculate_kg_loss`` in KG mode for
KTUP), ``MKRTrainer`` (``calculate_rs_loss`` / ``calculate_kg_loss``), ``RecVAETrainer``
(``calculate_loss(..., encoder_flag=...)``, ``update_prior`` between), ``NCLTrainer`` (``e_step``,
faiss k-means, before the step), the pretrain trainers (S3Rec ``pretrain`` / ``finetune``, RaCT
``actor_pretrain`` / ``critic_pretrain`` / ``finetune``: the later stages load the earlier
stage's checkpoint from ``pre_model_path``, here a random model saved to the temp folder).
The memory-based models (Pop, ItemKNN, EASE, SLIMElastic, ADMMSLIM, NCEPLRec, Random) are fitted in
``__init__``; their ``calculate_loss`` is the fake loss TraditionalTrainer runs.

    pip install --no-deps recbole==1.2.1 colorlog==4.7.2 texttable==1.7.0 faiss-cpu==1.15.1

(numpy, scipy, pandas, scikit-learn, tqdm, pyyaml, colorama, tabulate, psutil, tensorboard are
installed already; thop (``get_flops`` only), plotly (hyper-tuning plots), xgboost / lightgbm (the
two ``exlib`` models) are never imported on these paths.)

Stubbed (``stub_modules``, only when not installed): ``ray`` and ``ray.tune``:
``recbole.quick_start`` (imported by ``recbole/__init__``) does ``from ray import tune`` at its
top for distributed hyper-parameter search; no model uses it.

Compatibility shims (RecBole 1.2.1 predates NumPy 2, SciPy 1.13 and pandas 3; none is in a model's
forward or loss): ``Config.compatibility_settings`` assigns ``np.float = np.float_`` etc., and NumPy 2
removed ``np.float_`` / ``np.complex_`` / ``np.unicode_``, so the adapter sets those three aliases
(``np.float64``, ``np.complex128``, ``np.str_``) first. The graph models build their normalised
adjacency in ``__init__`` with ``dok_matrix._update(dict)``, which SciPy 1.13 removed: the adapter
gives ``dok_matrix`` an ``_update`` that updates its ``_dict``, as the old one did. While
``create_dataset`` / ``data_preparation`` run (only then): ``Series.agg(len)`` keeps its pandas-2
meaning (per-row lengths, ``series.map(len)``; pandas 3 applies it to the whole Series, which breaks
the token-sequence remapping and ``SequentialDataset``), and ``Dataset._fill_nan`` is 1.2.1's own
written without chained ``feat[field].fillna(..., inplace=True)`` (a no-op under pandas 3's
copy-on-write, which left NaN in the padding row's token features: an out-of-range embedding index
in DIN / DIEN). The load-time ``df[field].fillna("", inplace=True)`` of sequence fields is left as it
is (this slice has no missing sequence values).

Left out: ``KSR`` (1.2.1 multiplies its float32 sequence output by ``torch.from_numpy`` of the
preloaded relation vectors, which the dataset holds as float64: a dtype RuntimeError in ``forward``;
no test runs it), ``KGAT`` (needs DGL: ``dataset.ckg_graph(form="dgl")`` in ``__init__``; DGL has no build
for torch 2.13), ``KGIN`` and ``MCCLK`` (``torch_scatter``, a compiled extension with no build for
torch 2.13), ``XGBoost`` / ``LightGBM`` (not torch models), and the library's
training / hyper-tuning drivers themselves (``run_recbole``, ``Trainer.fit``, ray / hyperopt: full
trainings with logs and checkpoints; the step above is their core).

Eager check on torch 2.13 CPU: all 117 entries build and run in both settings (train:
``.backward()`` on the loss).
"""

import contextlib
import functools
import os

PACKAGE = "recbole"

_VERSION = "1.2.1"
_USERS, _ITEMS = 200, 300  # the ml-100k slice (the tests' `test` dataset is one like it)
_KG_DIM = 64  # the "pre-trained" KG embeddings' size (GRU4RecKG / KSR)
_TRAIN_BATCH = 256
mean_loss_module = classifier_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite

# tests/model/test_model.yaml (data_path aside)
_TEST_YAML = {
    "dataset": "test",
    "epochs": 1,
    "state": "ERROR",
    "field_separator": "\t",
    "seq_separator": " ",
    "USER_ID_FIELD": "user_id",
    "ITEM_ID_FIELD": "item_id",
    "RATING_FIELD": "rating",
    "TIME_FIELD": "timestamp",
    "seq_len": None,
    "LABEL_FIELD": "label",
    "NEG_PREFIX": "neg_",
    "ITEM_LIST_LENGTH_FIELD": "item_length",
    "LIST_SUFFIX": "_list",
    "MAX_ITEM_LIST_LENGTH": 50,
    "POSITION_FIELD": "position_id",
    "HEAD_ENTITY_ID_FIELD": "head_id",
    "TAIL_ENTITY_ID_FIELD": "tail_id",
    "RELATION_ID_FIELD": "relation_id",
    "ENTITY_ID_FIELD": "entity_id",
    "load_col": {
        "inter": ["user_id", "item_id", "rating", "timestamp"],
        "user": ["user_id", "age", "gender", "occupation"],
        "item": ["item_id", "movie_title", "release_year", "class"],
        "link": ["item_id", "entity_id"],
        "kg": ["head_id", "relation_id", "tail_id"],
    },
    "unload_col": None,
    "alias_of_user_id": None,
    "alias_of_item_id": None,
    "alias_of_entity_id": None,
    "alias_of_relation_id": None,
    "preload_weight": None,
    "normalize_field": None,
    "normalize_all": True,
}

# docs/source/user_guide/model/sequential/ksr.rst (and gru4reckg.rst): pre-trained KG embeddings
_KG_EMB = {
    "load_col": {
        "inter": ["user_id", "item_id", "rating", "timestamp"],
        "kg": ["head_id", "relation_id", "tail_id"],
        "link": ["item_id", "entity_id"],
        "ent_feature": ["ent_id", "ent_vec"],
        "rel_feature": ["rel_id", "rel_vec"],
    },
    "alias_of_entity_id": ["ent_id"],
    "alias_of_relation_id": ["rel_id"],
    "preload_weight": {"ent_id": "ent_vec", "rel_id": "rel_vec"},
    "additional_feat_suffix": ["ent_feature", "rel_feature"],
    # quick_start_config/sequential_embedding_model.yaml sets no eval_args (the sequential dataset then
    # refuses the default random ordering): sequential.yaml's, as for every other sequential model
    "eval_args": {"split": {"LS": "valid_and_test"}, "order": "TO", "mode": "full"},
    "repeatable": True,
}


def _compat():
    import numpy as np

    for name, alias in (("float_", np.float64), ("complex_", np.complex128), ("unicode_", np.str_)):
        if name not in np.__dict__:
            setattr(np, name, alias)
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {"ray": ((), ()), "ray.tune": (("report", "run", "uniform", "choice", "loguniform"), ())},
        "recbole.quick_start")
    import scipy.sparse as sp

    if not hasattr(sp.dok_matrix, "_update"):  # SciPy 1.13 dropped it (the graph models' adjacency)
        def _update(self, data):
            self._dict.update(data)

        sp.dok_matrix._update = _update


def warm_up():
    _compat()
    import torch  # noqa: F401

    import recbole.config  # noqa: F401
    import recbole.data  # noqa: F401
    import recbole.model.context_aware_recommender  # noqa: F401
    import recbole.model.general_recommender  # noqa: F401
    import recbole.model.knowledge_aware_recommender  # noqa: F401
    import recbole.model.sequential_recommender  # noqa: F401
    import recbole.trainer  # noqa: F401
    import recbole.utils  # noqa: F401

    _data_path()


@functools.cache
def _data_path():
    """The ml-100k slice as atomic files: ``<tmp>/recbole-zoo-1.2.1/test/test.*`` (written once)."""
    import random
    import shutil
    import tempfile

    import recbole

    root = os.path.join(tempfile.gettempdir(), f"recbole-zoo-{_VERSION}")
    if os.path.exists(os.path.join(root, "test", "DONE")):
        return root
    src = os.path.join(os.path.dirname(recbole.__file__), "dataset_example", "ml-100k")
    work = tempfile.mkdtemp(prefix="recbole-zoo-")
    out = os.path.join(work, "test")
    os.makedirs(out)

    def cut(suffix, keep):
        with open(os.path.join(src, f"ml-100k.{suffix}"), encoding="utf-8") as f, \
                open(os.path.join(out, f"test.{suffix}"), "w", encoding="utf-8") as g:
            g.write(next(f))
            for line in f:
                row = line.rstrip("\n").split("\t")
                if keep(row):
                    g.write(line)

    entities, relations = set(), set()
    cut("inter", lambda r: int(r[0]) <= _USERS and int(r[1]) <= _ITEMS)
    cut("user", lambda r: int(r[0]) <= _USERS)
    cut("item", lambda r: int(r[0]) <= _ITEMS)
    cut("link", lambda r: int(r[0]) <= _ITEMS and not entities.add(r[1]))
    linked = set(entities)
    cut("kg", lambda r: r[0] in linked and not (entities.update((r[0], r[2])) or relations.add(r[1])))
    rng = random.Random(0)  # "pre-trained" KG embeddings (random), one row per entity / relation
    for suffix, key, vec, names in (("ent_feature", "ent_id", "ent_vec", entities),
                                    ("rel_feature", "rel_id", "rel_vec", relations)):
        with open(os.path.join(out, f"test.{suffix}"), "w", encoding="utf-8") as g:
            g.write(f"{key}:token\t{vec}:float_seq\n")
            for name in sorted(names):
                g.write(name + "\t" + " ".join(f"{rng.gauss(0, 0.1):.4f}" for _ in range(_KG_DIM)) + "\n")
    open(os.path.join(out, "DONE"), "w").close()
    try:
        os.makedirs(root, exist_ok=True)
        os.rename(out, os.path.join(root, "test"))
    except OSError:  # another zygote got there first
        pass
    shutil.rmtree(work, ignore_errors=True)
    return root


def _fill_nan(self):
    """``Dataset._fill_nan`` as 1.2.1 has it, its chained ``feat[field].fillna(..., inplace=True)``
    written as ``feat[field] = feat[field].fillna(...)`` (under pandas 3's copy-on-write the former
    fills nothing)."""
    import numpy as np
    from recbole.utils import FeatureType

    for feat_name in self.feat_name_list:
        feat = getattr(self, feat_name)
        for field in feat:
            ftype = self.field2type[field]
            if ftype == FeatureType.TOKEN:
                feat[field] = feat[field].fillna(value=0)
            elif ftype == FeatureType.FLOAT:
                feat[field] = feat[field].fillna(value=feat[field].mean())
            else:
                dtype = np.int64 if ftype == FeatureType.TOKEN_SEQ else np.float64
                feat[field] = feat[field].apply(lambda x: np.array([], dtype=dtype) if isinstance(x, float) else x)


@contextlib.contextmanager
def _pandas2():
    """While RecBole builds its dataset: ``Series.agg(len)`` element-wise, as pandas < 3 did, and
    ``Dataset._fill_nan`` without chained in-place fills."""
    import pandas as pd
    from recbole.data.dataset import Dataset

    original_agg, original_fill = pd.Series.agg, Dataset._fill_nan

    def agg(self, func=None, axis=0, *args, **kwargs):
        if func is len and not args and not kwargs:
            return self.map(len)
        return original_agg(self, func, axis, *args, **kwargs)

    pd.Series.agg, Dataset._fill_nan = agg, _fill_nan
    try:
        yield
    finally:
        pd.Series.agg, Dataset._fill_nan = original_agg, original_fill


def _pipeline(model_name, **config):
    """quick_start.run_recbole's set-up: (config, dataset, train, valid, test dataloaders, model)."""
    _compat()
    from recbole.config import Config
    from recbole.data import create_dataset, data_preparation
    from recbole.utils import get_model, init_seed

    root = _data_path()
    config_dict = {**_TEST_YAML, "data_path": root, "checkpoint_dir": os.path.join(root, "saved"),
                   "train_batch_size": _TRAIN_BATCH, "model": model_name, **config}
    cfg = Config(model=model_name, dataset="test", config_dict=config_dict)
    init_seed(cfg["seed"], cfg["reproducibility"])
    with _pandas2():
        dataset = create_dataset(cfg)
        train_data, valid_data, test_data = data_preparation(cfg, dataset)
    init_seed(cfg["seed"] + cfg["local_rank"], cfg["reproducibility"])
    model = get_model(cfg["model"])(cfg, train_data._dataset).to(cfg["device"])
    return cfg, dataset, train_data, test_data, model


@functools.cache
def _wrappers():
    import torch

    class TrainStep(torch.nn.Module):
        """The loss the Trainer back-propagates: ``loss_func(interaction)``, a tuple summed."""

        def __init__(self, model, loss="calculate_loss", **kwargs):
            super().__init__()
            self.model = model
            self.loss = loss
            self.kwargs = kwargs

        def forward(self, interaction):
            losses = getattr(self.model, self.loss)(interaction, **self.kwargs)
            if isinstance(losses, tuple):
                return sum(losses)
            return losses

    class FullSort(torch.nn.Module):
        """Trainer._full_sort_batch_eval: ``model.full_sort_predict(interaction)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, interaction):
            return self.model.full_sort_predict(interaction)

    class Predict(torch.nn.Module):
        """Trainer._neg_sample_batch_eval (and the full-sort fallback): ``model.predict(interaction)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, interaction):
            return self.model.predict(interaction)

    return TrainStep, FullSort, Predict


def _has_full_sort(model):
    for cls in type(model).__mro__:
        if "full_sort_predict" in cls.__dict__:
            return cls.__module__ != "recbole.model.abstract_recommender"
    return False


def _eval(cfg, test_data, model):
    from recbole.data.dataloader import FullSortEvalDataLoader

    _, FullSort, Predict = _wrappers()
    interaction = next(iter(test_data))[0].to(cfg["device"])
    if not isinstance(test_data, FullSortEvalDataLoader):
        return Predict(model), (interaction,), {}
    if _has_full_sort(model):
        return FullSort(model), (interaction,), {}
    # Trainer._full_sort_batch_eval's fallback: every item for each user of the batch
    dataset = test_data._dataset
    item_tensor = dataset.get_item_feature().to(cfg["device"])
    new_inter = interaction.repeat_interleave(dataset.item_num)
    new_inter.update(item_tensor.repeat(len(interaction)))
    return Predict(model), (new_inter,), {}


def _train_batch(cfg, train_data, state=None):
    if state is not None:
        from recbole.utils import KGDataLoaderState

        train_data.set_mode(getattr(KGDataLoaderState, state))
    return next(iter(train_data)).to(cfg["device"])


def _rec(model_name, loss="calculate_loss", state=None, prepare=None, loss_kwargs=(), fit=False, **config):
    """One model through RecBole's pipeline; ``state``: the KG dataloader's mode (KGTrainer's RSKG,
    RS or KG); ``prepare(model, train_data)``: what its trainer does before the step; ``fit``: the
    TraditionalTrainer's one epoch before evaluating (Pop counts items in ``calculate_loss``)."""

    def make(mode):
        import torch

        cfg, _, train_data, test_data, model = _pipeline(model_name, **config)
        if cfg["train_neg_sample_args"].get("dynamic", False):  # Trainer.fit
            train_data.get_model(model)
        if mode == "eval" and fit:
            with torch.no_grad():
                for batch in train_data:
                    model.calculate_loss(batch.to(cfg["device"]))
        if mode == "train":
            batch = _train_batch(cfg, train_data, state)
            if prepare is not None:
                prepare(model, train_data)
            return _wrappers()[0](model, loss, **dict(loss_kwargs)), (batch,), {}
        return _eval(cfg, test_data, model)

    return make


def _staged(model_name, stages, **config):
    """PretrainTrainer's stages: each later stage loads the previous stage's checkpoint
    (``pre_model_path``; a checkpoint of tensors only, as torch.load(weights_only=True) reads)."""

    def make(mode):
        import torch

        root = _data_path()
        path = None
        for stage in stages[:-1]:
            extra = {"pre_model_path": path} if path else {}
            cfg, _, _, _, model = _pipeline(model_name, train_stage=stage, **extra, **config)
            path = os.path.join(root, f"{model_name}-{stage}-{os.getpid()}.pth")
            torch.save({"state_dict": model.state_dict()}, path)
        extra = {"pre_model_path": path} if path else {}
        cfg, _, train_data, test_data, model = _pipeline(model_name, train_stage=stages[-1], **extra, **config)
        if path:
            os.remove(path)
        if mode == "train":
            return _wrappers()[0](model), (_train_batch(cfg, train_data),), {}
        return _eval(cfg, test_data, model)

    return make


def _ncl_e_step(model, train_data):  # NCLTrainer.fit: the E-step (faiss k-means) before each epoch
    model.e_step()


def _recvae_prior(model, train_data):  # RecVAETrainer: update_prior after the encoder epochs
    model.update_prior()


_CTX = {"threshold": {"rating": 4}}  # the context-aware tests' labels
_NO_NEG = {"train_neg_sample_args": None}
_DNS = {"train_neg_sample_args": {"distribution": "uniform", "sample_num": 1, "alpha": 1.0, "dynamic": True,
                                  "candidate_num": 2}}

MODELS = {
    # general recommenders (tests: TestGeneralRecommender)
    "Pop": _rec("Pop", fit=True),
    "Random": _rec("Random"),
    "ItemKNN": _rec("ItemKNN", knn_method="item"),
    "ItemKNN_user": _rec("ItemKNN", knn_method="user"),
    "AsymKNN": _rec("AsymKNN", knn_method="item"),
    "EASE": _rec("EASE"),
    "SLIMElastic": _rec("SLIMElastic"),
    "ADMMSLIM": _rec("ADMMSLIM"),
    "NCEPLRec": _rec("NCEPLRec"),
    "BPR": _rec("BPR"),
    "BPR_dynamic_negatives": _rec("BPR", **_DNS),
    "NeuMF": _rec("NeuMF"),
    "ConvNCF": _rec("ConvNCF"),
    "DMF": _rec("DMF"),
    "DMF_rating": _rec("DMF", inter_matrix_type="rating"),
    "FISM": _rec("FISM"),
    "FISM_split": _rec("FISM", split_to=10, alpha=0.5),
    "NAIS": _rec("NAIS"),
    "NAIS_concat": _rec("NAIS", algorithm="concat", split_to=10, alpha=0.5, beta=0.1),
    "SpectralCF": _rec("SpectralCF"),
    "GCMC": _rec("GCMC"),
    "GCMC_stack": _rec("GCMC", accum="stack", sparse_feature=False),
    "NGCF": _rec("NGCF"),
    "LightGCN": _rec("LightGCN"),
    "DGCF": _rec("DGCF"),
    "LINE": _rec("LINE"),
    "MultiDAE": _rec("MultiDAE", **_NO_NEG),
    "MultiVAE": _rec("MultiVAE", **_NO_NEG),
    "ENMF": _rec("ENMF", **_NO_NEG),
    "MacridVAE": _rec("MacridVAE", **_NO_NEG),
    "CDAE": _rec("CDAE", **_NO_NEG),
    "NNCF": _rec("NNCF"),
    "RecVAE_encoder": _rec("RecVAE", loss_kwargs=(("encoder_flag", True),), **_NO_NEG),
    "RecVAE_decoder": _rec("RecVAE", prepare=_recvae_prior, loss_kwargs=(("encoder_flag", False),), **_NO_NEG),
    "SGL": _rec("SGL"),
    "SimpleX_mean": _rec("SimpleX", aggregator="mean"),
    "SimpleX_user_attention": _rec("SimpleX", aggregator="user_attention"),
    "SimpleX_self_attention": _rec("SimpleX", aggregator="self_attention"),
    "NCL": _rec("NCL", prepare=_ncl_e_step, num_clusters=100),
    "DiffRec": _rec("DiffRec"),
    "DiffRec_time_aware": _rec("DiffRec", **{"time-aware": True}),
    "LDiffRec": _rec("LDiffRec"),
    "LDiffRec_time_aware": _rec("LDiffRec", **{"time-aware": True}),
    "RaCT_actor_pretrain": _staged("RaCT", ("actor_pretrain",), **_NO_NEG),
    "RaCT_critic_pretrain": _staged("RaCT", ("actor_pretrain", "critic_pretrain"), **_NO_NEG),
    "RaCT_finetune": _staged("RaCT", ("actor_pretrain", "critic_pretrain", "finetune"), **_NO_NEG),
    # context-aware recommenders (TestContextRecommender)
    "LR": _rec("LR", **_CTX),
    "FM": _rec("FM", **_CTX),
    "NFM": _rec("NFM", **_CTX),
    "DeepFM": _rec("DeepFM", **_CTX),
    "xDeepFM": _rec("xDeepFM", **_CTX),
    "xDeepFM_direct": _rec("xDeepFM", direct=True, **_CTX),
    "AFM": _rec("AFM", **_CTX),
    "FNN": _rec("FNN", **_CTX),
    "PNN": _rec("PNN", **_CTX),
    "PNN_inner_outer": _rec("PNN", use_inner=True, use_outer=True, **_CTX),
    "DSSM": _rec("DSSM", **_CTX),
    "WideDeep": _rec("WideDeep", **_CTX),
    "AutoInt": _rec("AutoInt", **_CTX),
    "FFM": _rec("FFM", **_CTX),
    "FwFM": _rec("FwFM", **_CTX),
    "DCN": _rec("DCN", **_CTX),
    "DCNV2": _rec("DCNV2", **_CTX),
    "FiGNN": _rec("FiGNN", **_CTX),
    "KD_DAGFM": _rec("KD_DAGFM", **_CTX),
    "EulerNet": _rec("EulerNet", **_CTX),
    # sequential recommenders (TestSequentialRecommender)
    "DIN": _rec("DIN"),
    "DIEN": _rec("DIEN"),
    "FPMC": _rec("FPMC"),
    "GRU4Rec": _rec("GRU4Rec", **_NO_NEG),
    "GRU4Rec_BPR": _rec("GRU4Rec", loss_type="BPR"),
    "GRU4RecCPR": _rec("GRU4RecCPR", **_NO_NEG),
    "NARM": _rec("NARM", **_NO_NEG),
    "STAMP": _rec("STAMP", **_NO_NEG),
    "Caser": _rec("Caser", MAX_ITEM_LIST_LENGTH=10, reproducibility=False, **_NO_NEG),
    "NextItNet": _rec("NextItNet", reproducibility=False, **_NO_NEG),
    "TransRec": _rec("TransRec"),
    "SASRec": _rec("SASRec", **_NO_NEG),
    "SASRec_BPR_relu": _rec("SASRec", loss_type="BPR", hidden_act="relu"),
    "SASRecCPR": _rec("SASRecCPR", **_NO_NEG),
    "SRGNN": _rec("SRGNN", MAX_ITEM_LIST_LENGTH=3, **_NO_NEG),
    "GCSAN": _rec("GCSAN", MAX_ITEM_LIST_LENGTH=3, **_NO_NEG),
    "GRU4RecF": _rec("GRU4RecF", **_NO_NEG),
    "GRU4RecF_max_pooling": _rec("GRU4RecF", pooling_mode="max", **_NO_NEG),
    "SASRecF": _rec("SASRecF", **_NO_NEG),
    "HRM": _rec("HRM", **_NO_NEG),
    "NPE": _rec("NPE", **_NO_NEG),
    "SHAN": _rec("SHAN", transform="inverse_itemseq", **_NO_NEG),
    "HGN": _rec("HGN", **_NO_NEG),
    "FOSSIL": _rec("FOSSIL", **_NO_NEG),
    "RepeatNet": _rec("RepeatNet"),
    "FDSA": _rec("FDSA", **_NO_NEG),
    "BERT4Rec": _rec("BERT4Rec", transform="mask_itemseq", **_NO_NEG),
    "LightSANs": _rec("LightSANs", **_NO_NEG),
    "SINE": _rec("SINE", **_NO_NEG),
    "SINE_NLL": _rec("SINE", loss_type="NLL", **_NO_NEG),
    "CORE_trm": _rec("CORE", dnn_type="trm", **_NO_NEG),
    "CORE_ave": _rec("CORE", dnn_type="ave", **_NO_NEG),
    "FEARec": _rec("FEARec", **_NO_NEG),
    "GRU4RecKG": _rec("GRU4RecKG", **_KG_EMB, **_NO_NEG),
    # (its pre-training step rebuilds the masked / segment data per sequence in Python: a batch of 32)
    "S3Rec_pretrain": _staged("S3Rec", ("pretrain",), train_batch_size=32, **_NO_NEG),
    "S3Rec_finetune": _staged("S3Rec", ("pretrain", "finetune"), **_NO_NEG),
    # knowledge-aware recommenders (TestKnowledgeRecommender; KGTrainer's RSKG batches)
    "CKE": _rec("CKE", state="RSKG"),
    "CFKG": _rec("CFKG", state="RSKG"),
    "CFKG_transe": _rec("CFKG", state="RSKG", loss_function="transe"),
    "KTUP": _rec("KTUP", state="RS", train_rec_step=1, train_kg_step=1),
    "KTUP_kg": _rec("KTUP", state="KG", loss="calculate_kg_loss", train_rec_step=1, train_kg_step=1),
    "KTUP_L1": _rec("KTUP", state="RS", use_st_gumbel=False, L1_flag=True),
    "RippleNet": _rec("RippleNet", state="RSKG"),
    "MKR": _rec("MKR", state="RS", loss="calculate_rs_loss"),
    "MKR_kg": _rec("MKR", state="KG", loss="calculate_kg_loss"),
    "MKR_no_inner_product": _rec("MKR", state="RS", loss="calculate_rs_loss", use_inner_product=False),
    "KGCN": _rec("KGCN", state="RSKG"),
    "KGCN_neighbor": _rec("KGCN", state="RSKG", aggregator="neighbor"),
    "KGCN_concat": _rec("KGCN", state="RSKG", aggregator="concat"),
    "KGNNLS": _rec("KGNNLS", state="RSKG"),
    "KGNNLS_neighbor": _rec("KGNNLS", state="RSKG", aggregator="neighbor"),
}
