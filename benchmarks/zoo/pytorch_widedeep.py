"""pytorch-widedeep 1.7.0 (Javier Rodriguez Zaurin): wide & deep models for tabular and text data
as its README, examples and tests use them: a tiny in-memory DataFrame (32 rows: two categorical
columns, two continuous ones, two short sentences per row made from a fixed 30-word list, binary /
three-class / positive-valued targets), prepared with the library's own preprocessors
(``WidePreprocessor`` with a crossed column, ``TabPreprocessor`` with and without
``with_attention`` / ``with_cls_token`` / ``for_mf`` / ``quantization_setup``, ``TextPreprocessor``
with ``n_cpus=1`` and no word vectors), batched by its ``WideDeepDataset`` through a
``DataLoader`` (16 rows) into the dict ``X = {"wide": ..., "deeptabular": ..., "deeptext": ...}``
its ``Trainer`` passes to ``model(X)``; tiny widths (8-32), random weights, no download:

- ``Wide`` alone and with ``TabMlp`` (the README), ``TabMlp`` with each continuous embedding
  (``standard`` / ``periodic`` / ``piecewise`` with the tests' percentile ``quantization_setup``),
  with ``cont_norm_layer`` and MLP batch norm, on columns quantized by the ``TabPreprocessor``;
  ``TabResnet`` (plain and ``simplify_blocks`` with embedded continuous columns), ``TabNet``
  (sparsemax, entmax with ghost batch norm); the attention models ``TabTransformer`` (plus
  embedded continuous columns, linear attention, flash attention), ``SAINT`` (plus a ``[CLS]``
  token), ``FTTransformer`` (plus KV compression with sharing), ``TabFastFormer``,
  ``TabPerceiver``, ``ContextAttentionMLP`` and ``SelfAttentionMLP``;
- ``WideDeep`` combinations: wide + deeptabular with ``head_hidden_dims``, deeptabular + deeptext
  (``BasicRNN`` as in the README), wide + ``TabResnet`` + ``AttentiveRNN``, two text
  components as a list and through ``ModelFuser(fusion_method="mult")`` (the README), a user-side
  deeptext (07_custom_components' bidirectional GRU), the text models alone (``BasicRNN`` GRU
  bidirectional with ``use_hidden_state=False``, ``AttentiveRNN`` with ``attn_concatenate``,
  ``StackedAttentiveRNN``), and ``enforce_positive`` for the Tweedie objective;
- objectives as the ``Trainer`` sets them (``binary``, ``multiclass``, ``regression``, ``rmse``,
  ``huber``, ``quantile`` (7 quantiles), ``zero_inflated_lognormal``, ``tweedie``) and a custom
  loss (07_custom_components' ``RMSELoss``);
- the Bayesian models ``BayesianWide`` and ``BayesianTabMlp`` (``BayesianTrainer``);
- self-supervised pretraining: ``EncoderDecoderTrainer`` on ``TabMlp`` / ``TabResnet`` (the
  decoder it builds itself, ``masked_prob=0.2``) and
  ``ContrastiveDenoisingTrainer`` on ``TabTransformer``, ``SAINT`` (``[CLS]`` token) and
  ``FTTransformer`` (``loss_type="both"``; ``"denoising"`` with ``single`` denoising MLPs), on
  scaled continuous columns (``scale=True``, as adult_census_enc_dec_full_example.py);
- the recommender models of ``pytorch_widedeep.models.rec`` as tests/test_rec builds them:
  ``DeepFactorizationMachine``, ``DeepFieldAwareFactorizationMachine``,
  ``ExtremeDeepFactorizationMachine``, ``DeepCrossNetwork``, ``DeepCrossNetworkV2``,
  ``GatedDeepCrossNetwork``, ``AutoInt``, ``AutoIntPlus`` (with a ``Wide`` beside them) and the
  sequence ``Transformer`` (with a ``[CLS]`` token) as a deeptext component.

Eval: ``model(X)`` of the ``WideDeep`` model the ``Trainer`` was built on (``Trainer.predict``
calls it so; a TabNet gives ``(logits, M_loss)``), ``model(X_tab)`` for the Bayesian models (one
of ``BayesianTrainer.predict``'s samples), and the pretraining models' forward
(``EncoderDecoderModel``: embeddings, reconstruction, mask; ``ContrastiveDenoisingModel``:
projections and denoised columns). Train: the loss as ``Trainer._train_step`` computes it on
``model(X)`` against the batch's targets with the ``Trainer``'s own ``loss_fn`` (minus
``lambda_sparse * M_loss`` for TabNet), ``sample_elbo`` (two samples, the KL term over two
batches) for the Bayesian models, ``EncoderDecoderLoss`` and the contrastive-denoising trainer's
``_compute_loss`` (InfoNCE + denoising) for pretraining.

    pip install --no-deps pytorch-widedeep==1.7.0 spacy==3.8.18 thinc==8.3.14 blis==1.3.4 cymem==2.0.16 \\
        preshed==3.0.15 murmurhash==1.0.16 srsly==2.5.6 catalogue==2.0.10 wasabi==1.1.3 weasel==1.0.1 \\
        confection==1.3.4 cloudpathlib==0.26.0 smart-open==9.0.2 spacy-legacy==3.0.12 spacy-loggers==1.0.5 \\
        typer==0.29.1 annotated-doc==0.0.6 shellingham==1.5.4 httpx==0.28.1 httpcore==1.0.9 h11==0.16.0 \\
        anyio==4.16.0 gensim==4.4.0

pytorch_widedeep imports its text utilities at the top: ``fastai_transforms`` needs spaCy (its
``Tokenizer`` runs ``spacy.blank("en")``; spaCy imports its CLI, hence weasel, typer, httpx) and
``text_utils`` gensim (``simple_preprocess``); both run in the ``TextPreprocessor``. pandas,
scikit-learn, scipy, einops, torchmetrics, tqdm, pydantic, requests, jinja2 are installed already
(setup_zoo.sh), wrapt, click and rich with the machine and compilelint. 1.7.0 asks for
numpy < 2; it imports and runs with numpy 2.4.

Stubbed (``stub_modules``, only when not installed): ``torchvision``, ``torchvision.transforms``,
``torchvision.models`` and ``torchvision.models._api`` (held out: ``wdtypes`` and the Trainer's
dataset import transform classes for type hints and ``Compose`` checks; ``models.image.vision``
imports ``torchvision``), ``cv2`` (``utils.image_utils`` and the ``ImagePreprocessor``; its
``INTER_AREA`` constant, a default argument value, set to OpenCV's 3) and ``transformers`` (the
Hugging Face text component, ``utils.hf_utils``, imports its model / config / tokenizer classes).
torchmetrics (which the Trainer imports) is imported before the stand-ins go in, so that it sees
no torchvision.

Left out: the encoder-decoder pretraining of ``TabNet``: in eval 1.7.0's
``EncoderDecoderModel._forward_tabnet`` calls ``encoder(x_embed)``, and ``TabNet.forward`` embeds
the embeddings again (an ``IndexError`` eagerly; the trainer gets there only with a validation
set), and a model whose eval fails gets no train capture either; ``Vision`` (torchvision models,
held out) and the ``ImagePreprocessor`` (OpenCV); ``HFModel`` and ``HFPreprocessor``
(transformers and downloaded pretrained weights); ``DeepInterestNetwork`` (needs per-user
behaviour sequences from the ``DINPreprocessor``, a different data set); the
``load_from_folder`` / chunk preprocessors (files on disk); pretrained word vectors; ``Tab2Vec``
and feature importance (post-training utilities); the optimizers, LR schedulers and callbacks of
``Trainer.fit`` (the loop around the losses captured here).

Eager check on torch 2.13 CPU: all 52 models build and run in both modes (train: ``.backward()``
on the loss), each in well under a second once spaCy is loaded.
"""

import functools

PACKAGE = "pytorch_widedeep"
DISTRIBUTION = "pytorch-widedeep"

_N, _B = 32, 16  # rows in the DataFrame, rows in a batch
_WORDS = ("the product arrived early and works great but the size was small so i would return it "
          "again love this color quality cheap price nice fabric soft fit perfect slow shipping").split()
mean_loss_module = classifier_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite


def _stub():
    import torchmetrics  # noqa: F401  (first, as mace.py does: it then sees no torchvision stand-in)

    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchvision": ((), ()),
            "torchvision.transforms": ((), (
                "Pad", "Lambda", "Resize", "Compose", "TenCrop", "FiveCrop", "ToTensor", "Grayscale",
                "Normalize", "CenterCrop", "RandomCrop", "ToPILImage", "ColorJitter", "PILToTensor",
                "RandomApply", "RandomOrder", "GaussianBlur", "RandomAffine", "RandomChoice", "RandomInvert",
                "RandomErasing", "RandomEqualize", "RandomRotation", "RandomSolarize", "RandomGrayscale",
                "RandomPosterize", "ConvertImageDtype", "InterpolationMode", "RandomPerspective",
                "RandomResizedCrop", "RandomAutocontrast", "RandomVerticalFlip", "LinearTransformation",
                "RandomHorizontalFlip", "RandomAdjustSharpness")),
            "torchvision.models": (("get_model_weights",), ()),
            "torchvision.models._api": ((), ("WeightsEnum",)),
            "cv2": (("imread", "resize", "meanStdDev"), ()),
            "transformers": ((), (
                "BertModel", "BertConfig", "AlbertModel", "AlbertConfig", "ElectraModel", "RobertaModel",
                "BertTokenizer", "ElectraConfig", "RobertaConfig", "AlbertTokenizer", "DistilBertModel",
                "PreTrainedModel", "DistilBertConfig", "ElectraTokenizer", "PretrainedConfig",
                "RobertaTokenizer", "BertTokenizerFast", "AlbertTokenizerFast", "DistilBertTokenizer",
                "PreTrainedTokenizer", "ElectraTokenizerFast", "RobertaTokenizerFast",
                "DistilBertTokenizerFast", "AutoTokenizer", "AutoModel", "AutoConfig")),
        },
        "pytorch_widedeep imports",
    )
    import sys

    cv2 = sys.modules["cv2"]
    if getattr(cv2, "__file__", None) is None and not hasattr(cv2, "INTER_AREA"):
        cv2.INTER_AREA = 3  # a default argument value in utils.image_utils


def warm_up():
    _stub()
    import torch  # noqa: F401

    import pytorch_widedeep  # noqa: F401
    import pytorch_widedeep.models  # noqa: F401
    import pytorch_widedeep.preprocessing  # noqa: F401


before_build = _stub  # (ZooSuite runs it before each make: warm_up may not have run)


# --- data: one tiny DataFrame, the library's preprocessors, a WideDeepDataset batch -----------

@functools.cache
def _df():
    import numpy as np
    import pandas as pd

    rng = np.random.RandomState(0)

    def sentence():
        return " ".join(rng.choice(_WORDS, rng.randint(5, 14))).capitalize() + "."

    age = rng.uniform(18, 70, _N).round(1)
    price = rng.gamma(2.0, 20.0, _N).round(2)
    price[rng.rand(_N) < 0.3] = 0.0  # zero-inflated, for the ZILN and Tweedie objectives
    return pd.DataFrame({
        "city": rng.choice(["New York", "Los Angeles", "Chicago", "Houston"], _N),
        "name": rng.choice(["Alice", "Bob", "Charlie", "David", "Eva"], _N),
        "age": age,
        "height": rng.uniform(150, 200, _N).round(1),
        "sentence": [sentence() for _ in range(_N)],
        "other_sentence": [sentence() for _ in range(_N)],
        "target": rng.randint(0, 2, _N),
        "label": rng.randint(0, 3, _N),
        "price": price,
    })


_CAT, _CONT = ["city", "name"], ["age", "height"]


@functools.cache
def _wide_prep():
    from pytorch_widedeep.preprocessing import WidePreprocessor

    prep = WidePreprocessor(wide_cols=_CAT, crossed_cols=[("city", "name")])
    return prep, prep.fit_transform(_df())


@functools.cache
def _tab_prep(**kwargs):
    from pytorch_widedeep.preprocessing import TabPreprocessor

    prep = TabPreprocessor(**{"cat_embed_cols": _CAT, "continuous_cols": _CONT, "verbose": 0, **kwargs})
    return prep, prep.fit_transform(_df())


@functools.cache
def _text_prep(col="sentence"):
    from pytorch_widedeep.preprocessing import TextPreprocessor

    prep = TextPreprocessor(text_col=col, maxlen=20, max_vocab=100, min_freq=1, n_cpus=1, verbose=0)
    return prep, prep.fit_transform(_df())


@functools.cache
def _percentiles():
    """tests/test_model_components/test_embedding_methods.py's quantization_setup."""
    df = _df()
    return {c: [df[c].min(), df[c].quantile(0.25), df[c].quantile(0.5), df[c].quantile(0.75), df[c].max()]
            for c in _CONT}


def _batch(target="target", **arrays):
    """The first batch of the Trainer's loader: a WideDeepDataset over the arrays, then the dict X
    ``_train_step`` builds, and the target shaped as it shapes it."""
    from torch.utils.data import DataLoader
    from pytorch_widedeep.training._wd_dataset import WideDeepDataset

    ds = WideDeepDataset(target=_df()[target].values, **arrays)
    data, y = next(iter(DataLoader(ds, batch_size=_B, shuffle=False)))
    return {k: v for k, v in data.items()}, y


# --- the train step ------------------------------------------------------------------------------

@functools.cache
def _wrappers():
    import torch

    class TrainStep(torch.nn.Module):
        """``Trainer._train_step``'s loss: ``loss_fn(model(X), y)``, TabNet's sparsity term off it."""

        def __init__(self, model, trainer, y):
            super().__init__()
            self.model, self.loss_fn = model, trainer.loss_fn
            object.__setattr__(self, "__wrapped__", model)
            self.is_tabnet = trainer.is_model_tabnet
            self.lambda_sparse = getattr(trainer, "lambda_sparse", 0.0)
            self.register_buffer("y", y)

        def forward(self, X):
            y_pred = self.model(X)
            if self.is_tabnet:
                return self.loss_fn(y_pred[0], self.y) - self.lambda_sparse * y_pred[1]
            return self.loss_fn(y_pred, self.y)

    class BayesianStep(torch.nn.Module):
        """``BayesianTrainer._train_step``: ``model.sample_elbo`` (likelihood + KL / n_batches)."""

        def __init__(self, model, loss_fn, y, n_samples=2, n_batches=_N // _B):
            super().__init__()
            self.model, self.loss_fn = model, loss_fn
            object.__setattr__(self, "__wrapped__", model)
            self.n_samples, self.n_batches = n_samples, n_batches
            self.register_buffer("y", y)

        def forward(self, X_tab):
            _, loss = self.model.sample_elbo(X_tab, self.y, self.loss_fn, self.n_samples, self.n_batches)
            return loss

    class EncoderDecoderStep(torch.nn.Module):
        """``EncoderDecoderTrainer._train_step``: ``EncoderDecoderLoss`` on ``ed_model(X)``."""

        def __init__(self, trainer):
            super().__init__()
            self.ed_model, self.loss_fn = trainer.ed_model, trainer.loss_fn
            object.__setattr__(self, "__wrapped__", trainer.ed_model)

        def forward(self, X):
            x_embed, x_embed_rec, mask = self.ed_model(X)
            return self.loss_fn(x_embed, x_embed_rec, mask)

    class ContrastiveDenoisingStep(torch.nn.Module):
        """``ContrastiveDenoisingTrainer._train_step``: its ``_compute_loss`` on ``cd_model(X)``."""

        def __init__(self, trainer):
            super().__init__()
            self.cd_model = trainer.cd_model
            object.__setattr__(self, "__wrapped__", trainer.cd_model)
            for name in ("contrastive_loss", "denoising_loss"):
                if hasattr(trainer, name):
                    setattr(self, name, getattr(trainer, name))
            self.compute_loss = trainer._compute_loss

        def forward(self, X):
            g_projs, cat_x_and_x_, cont_x_and_x_ = self.cd_model(X)
            return self.compute_loss(g_projs, cat_x_and_x_, cont_x_and_x_)

    return TrainStep, BayesianStep, EncoderDecoderStep, ContrastiveDenoisingStep


@functools.cache
def _custom():
    """07_custom_components: a user deeptext (bidirectional GRU) and a user loss."""
    import torch
    from torch import nn

    class MyDeepText(nn.Module):
        def __init__(self, vocab_size, padding_idx=1, embed_dim=16, hidden_dim=8):
            super().__init__()
            self.word_embed = nn.Embedding(vocab_size, embed_dim, padding_idx=padding_idx)
            self.rnn = nn.GRU(embed_dim, hidden_dim, num_layers=2, bidirectional=True, batch_first=True)
            self.output_dim = hidden_dim * 2

        def forward(self, X):
            embed = self.word_embed(X.long())
            o, h = self.rnn(embed)
            return torch.cat((h[-2], h[-1]), dim=1)

    class RMSELoss(nn.Module):
        def __init__(self):
            super().__init__()
            self.mse = nn.MSELoss()

        def forward(self, input, target):
            return torch.sqrt(self.mse(input, target))

    return MyDeepText, RMSELoss


def _fit(model, arrays, mode, objective="binary", target="target", **trainer_kwargs):
    """The Trainer built on ``model`` (as its fit would be), the batch, and eval / train."""
    from pytorch_widedeep import Trainer

    trainer = Trainer(model, objective=objective, verbose=0, **trainer_kwargs)
    X, y = _batch(target=target, **arrays)
    if trainer.method not in ("multiclass", "qregression", "multitarget"):
        y = y.view(-1, 1).float()
    if mode == "train":
        return _wrappers()[0](trainer.model, trainer, y), (X,), {}
    return trainer.model, (X,), {}


# --- builders --------------------------------------------------------------------------------

def _tab_kwargs(prep):
    kwargs = {"column_idx": prep.column_idx, "cat_embed_input": prep.cat_embed_input}
    if prep.continuous_cols:
        kwargs["continuous_cols"] = prep.continuous_cols
    return kwargs


def _wide():
    from pytorch_widedeep.models import Wide
    import numpy as np

    _, X_wide = _wide_prep()
    return Wide(input_dim=np.unique(X_wide).shape[0]), X_wide


def _rnn(kind="basic", col="sentence", **kwargs):
    from pytorch_widedeep.models import AttentiveRNN, BasicRNN, StackedAttentiveRNN

    prep, X_text = _text_prep(col)
    cls = {"basic": BasicRNN, "attentive": AttentiveRNN, "stacked": StackedAttentiveRNN}[kind]
    defaults = {"embed_dim": 16, "hidden_dim": 8}
    if kind != "stacked":
        defaults["n_layers"] = 1
    return cls(vocab_size=len(prep.vocab.itos), **{**defaults, **kwargs}), X_text


def _tabular(cls_name, prep_kwargs=(), objective="binary", target="target", pred_dim=1, head=None,
             with_wide=False, enforce_positive=False, trainer_kwargs=(), **model_kwargs):
    """WideDeep(deeptabular=<cls>(...)) on a TabPreprocessor's columns (and a Wide beside it)."""

    def make(mode):
        import pytorch_widedeep.models as M
        import pytorch_widedeep.models.rec as R
        from pytorch_widedeep.models import WideDeep

        prep, X_tab = _tab_prep(**dict(prep_kwargs))
        cls = getattr(M, cls_name, None) or getattr(R, cls_name)
        kwargs = {**_tab_kwargs(prep), **model_kwargs}
        if kwargs.get("quantization_setup") == "percentiles":
            kwargs["quantization_setup"] = _percentiles()
        deeptabular = cls(**kwargs)
        arrays, parts = {"X_tab": X_tab}, {"deeptabular": deeptabular}
        if with_wide:
            parts["wide"], arrays["X_wide"] = _wide()
        if head is not None:
            parts["head_hidden_dims"] = head
        if enforce_positive:
            parts["enforce_positive"] = True
        model = WideDeep(pred_dim=pred_dim, **parts)
        return _fit(model, arrays, mode, objective=objective, target=target, **dict(trainer_kwargs))

    return make


def _wide_only(mode):
    from pytorch_widedeep.models import WideDeep

    wide, X_wide = _wide()
    return _fit(WideDeep(wide=wide), {"X_wide": X_wide}, mode)


def _text_only(kind, objective="binary", target="target", pred_dim=1, **rnn_kwargs):
    def make(mode):
        from pytorch_widedeep.models import WideDeep

        rnn, X_text = _rnn(kind, **rnn_kwargs)
        return _fit(WideDeep(deeptext=rnn, pred_dim=pred_dim), {"X_text": X_text}, mode, objective=objective,
                    target=target)

    return make


def _tab_and_text(kind="basic", head=None, with_wide=False, deeptabular="TabMlp", **rnn_kwargs):
    """The README: TabMlp + BasicRNN (+ a head), or wide + TabResnet + AttentiveRNN."""

    def make(mode):
        import pytorch_widedeep.models as M

        prep, X_tab = _tab_prep()
        extra = {"mlp_hidden_dims": [16, 8]} if deeptabular == "TabMlp" else {"blocks_dims": [16, 16, 8]}
        tab = getattr(M, deeptabular)(**_tab_kwargs(prep), **extra)
        rnn, X_text = _rnn(kind, **rnn_kwargs)
        parts, arrays = {"deeptabular": tab, "deeptext": rnn}, {"X_tab": X_tab, "X_text": X_text}
        if with_wide:
            parts["wide"], arrays["X_wide"] = _wide()
        if head is not None:
            parts["head_hidden_dims"] = head
        return _fit(M.WideDeep(**parts), arrays, mode)

    return make


def _multi_text(fuse):
    """The README: two text columns, as a list of BasicRNNs or fused with ModelFuser('mult')."""

    def make(mode):
        from pytorch_widedeep.models import ModelFuser, TabMlp, WideDeep

        prep, X_tab = _tab_prep()
        tab = TabMlp(**_tab_kwargs(prep), mlp_hidden_dims=[16, 8])
        rnn_1, X_text_1 = _rnn("basic", col="sentence")
        rnn_2, X_text_2 = _rnn("basic", col="other_sentence")
        deeptext = ModelFuser(models=[rnn_1, rnn_2], fusion_method="mult") if fuse else [rnn_1, rnn_2]
        model = WideDeep(deeptabular=tab, deeptext=deeptext)
        return _fit(model, {"X_tab": X_tab, "X_text": [X_text_1, X_text_2]}, mode)

    return make


def _custom_components(mode):
    """07_custom_components: wide + TabMlp + a user GRU deeptext, trained with a user RMSELoss."""
    from pytorch_widedeep.models import TabMlp, WideDeep

    MyDeepText, RMSELoss = _custom()
    prep, X_tab = _tab_prep()
    text_prep, X_text = _text_prep()
    wide, X_wide = _wide()
    model = WideDeep(wide=wide, deeptabular=TabMlp(**_tab_kwargs(prep), mlp_hidden_dims=[16, 8]),
                     deeptext=MyDeepText(vocab_size=len(text_prep.vocab.itos)))
    return _fit(model, {"X_wide": X_wide, "X_tab": X_tab, "X_text": X_text}, mode, objective="regression",
                target="price", custom_loss_function=RMSELoss())


def _bayesian(kind, objective="binary", target="target"):
    def make(mode):
        import numpy as np
        import torch
        from pytorch_widedeep.bayesian_models import BayesianTabMlp, BayesianWide
        from pytorch_widedeep.training import BayesianTrainer

        if kind == "wide":
            _, X = _wide_prep()
            model = BayesianWide(np.unique(X).shape[0], 1)
        else:
            prep, X = _tab_prep()
            model = BayesianTabMlp(**_tab_kwargs(prep), embed_continuous=True, cont_embed_dim=4,
                                   mlp_hidden_dims=[16, 8], pred_dim=1)
        trainer = BayesianTrainer(model, objective=objective, verbose=0)
        X_tab = torch.from_numpy(X[:_B])
        if mode == "train":
            y = torch.from_numpy(_df()[target].values[:_B]).view(-1, 1).float()
            return _wrappers()[1](trainer.model, trainer.loss_fn, y), (X_tab,), {}
        return trainer.model, (X_tab,), {}

    return make


def _encoder_decoder(cls_name, **model_kwargs):
    """EncoderDecoderTrainer(encoder=...) as adult_census_enc_dec_full_example.py: it builds the
    mirror decoder itself."""

    def make(mode):
        import torch
        import pytorch_widedeep.models as M
        from pytorch_widedeep.self_supervised_training import EncoderDecoderTrainer

        prep, X_tab = _tab_prep(scale=True)
        encoder = getattr(M, cls_name)(**_tab_kwargs(prep), **model_kwargs)
        trainer = EncoderDecoderTrainer(encoder=encoder, masked_prob=0.2, verbose=0)
        X = torch.from_numpy(X_tab[:_B])
        if mode == "train":
            return _wrappers()[2](trainer), (X,), {}
        return trainer.ed_model, (X,), {}

    return make


def _contrastive_denoising(cls_name, with_cls_token=False, trainer_kwargs=(), **model_kwargs):
    """ContrastiveDenoisingTrainer(model, preprocessor) as tests/test_self_supervised does."""

    def make(mode):
        import torch
        import pytorch_widedeep.models as M
        from pytorch_widedeep.self_supervised_training import ContrastiveDenoisingTrainer

        prep, X_tab = _tab_prep(with_attention=True, with_cls_token=with_cls_token, scale=True)
        model = getattr(M, cls_name)(**_tab_kwargs(prep), n_blocks=2, n_heads=2, input_dim=8, **model_kwargs)
        trainer = ContrastiveDenoisingTrainer(model=model, preprocessor=prep, verbose=0, **dict(trainer_kwargs))
        X = torch.from_numpy(X_tab[:_B])
        if mode == "train":
            return _wrappers()[3](trainer), (X,), {}
        return trainer.cd_model, (X,), {}

    return make


def _rec_transformer(mode):
    """tests/test_rec/test_transformer.py: the sequence Transformer over padded token ids with a
    [CLS] token put first, here the TextPreprocessor's sequences, as WideDeep's deeptext."""
    import numpy as np
    from pytorch_widedeep.models import WideDeep
    from pytorch_widedeep.models.rec import Transformer

    _, X_text = _text_prep()
    seqs = np.zeros((X_text.shape[0], X_text.shape[1] + 1), dtype=X_text.dtype)
    seqs[:, 0] = X_text.max() + 1
    seqs[:, 1:] = X_text
    model = WideDeep(deeptext=Transformer(vocab_size=int(seqs.max()) + 1, seq_length=seqs.shape[1], input_dim=8,
                                          n_heads=2, n_blocks=2, with_pos_encoding=True, with_cls_token=True))
    return _fit(model, {"X_text": seqs}, mode)


_ATTN = (("with_attention", True),)
_SMALL = {"mlp_hidden_dims": [16, 8]}
_TRANSF = {"input_dim": 8, "n_heads": 2, "n_blocks": 2}

MODELS = {
    # linear and MLP models
    "Wide": _wide_only,
    "TabMlp": _tabular("TabMlp", **_SMALL),
    "Wide_TabMlp": _tabular("TabMlp", with_wide=True, **_SMALL),
    "Wide_TabMlp_head": _tabular("TabMlp", with_wide=True, head=[16, 8], **_SMALL),
    "TabMlp_cont_standard": _tabular("TabMlp", objective="regression", target="age",
                                     embed_continuous_method="standard", cont_embed_dim=8,
                                     cont_embed_activation="relu", **_SMALL),
    "TabMlp_cont_periodic": _tabular("TabMlp", embed_continuous_method="periodic", cont_embed_dim=8,
                                     cont_embed_activation="relu", n_frequencies=4, sigma=0.3,
                                     share_last_layer=True, **_SMALL),
    "TabMlp_cont_piecewise": _tabular("TabMlp", objective="huber", target="age",
                                      embed_continuous_method="piecewise", cont_embed_dim=8,
                                      quantization_setup="percentiles", **_SMALL),
    "TabMlp_batchnorm": _tabular("TabMlp", objective="rmse", target="age", cont_norm_layer="batchnorm",
                                 mlp_batchnorm=True, mlp_batchnorm_last=True, **_SMALL),
    "TabMlp_quantized_cols": _tabular("TabMlp", prep_kwargs=(("quantization_setup", 3),), objective="multiclass",
                                      target="label", pred_dim=3, **_SMALL),
    "TabMlp_quantile": _tabular("TabMlp", objective="quantile", target="age", pred_dim=7, **_SMALL),
    "TabMlp_ziln": _tabular("TabMlp", objective="zero_inflated_lognormal", target="price", pred_dim=3, **_SMALL),
    "TabMlp_tweedie_positive": _tabular("TabMlp", objective="tweedie", target="price", enforce_positive=True,
                                        **_SMALL),
    "TabResnet": _tabular("TabResnet", objective="multiclass", target="label", pred_dim=3,
                          blocks_dims=[16, 16, 8]),
    "TabResnet_simplify": _tabular("TabResnet", blocks_dims=[16, 16, 8], simplify_blocks=True,
                                   embed_continuous=True, embed_continuous_method="standard",
                                   cont_embed_dim=4, **_SMALL),
    "TabNet": _tabular("TabNet", n_steps=2, step_dim=8, attn_dim=8),
    "TabNet_entmax": _tabular("TabNet", n_steps=2, step_dim=8, attn_dim=8, mask_type="entmax", ghost_bn=True,
                              virtual_batch_size=8),
    # attention models
    "TabTransformer": _tabular("TabTransformer", prep_kwargs=_ATTN, **_TRANSF),
    "TabTransformer_embed_cont": _tabular("TabTransformer", prep_kwargs=_ATTN, embed_continuous=True,
                                          embed_continuous_method="periodic", n_frequencies=4, sigma=0.3,
                                          share_last_layer=False, **_TRANSF),
    "TabTransformer_linear_attention": _tabular("TabTransformer", prep_kwargs=_ATTN, use_linear_attention=True,
                                                **_TRANSF),
    "TabTransformer_flash_attention": _tabular("TabTransformer", prep_kwargs=_ATTN, use_flash_attention=True,
                                               **_TRANSF),
    "SAINT": _tabular("SAINT", prep_kwargs=_ATTN, **_TRANSF),
    "SAINT_cls_token": _tabular("SAINT", prep_kwargs=_ATTN + (("with_cls_token", True),), objective="multiclass",
                                target="label", pred_dim=3, **_TRANSF),
    "FTTransformer": _tabular("FTTransformer", prep_kwargs=_ATTN, **_TRANSF),
    "FTTransformer_kv_compression": _tabular("FTTransformer", prep_kwargs=_ATTN, kv_compression_factor=0.5,
                                             kv_sharing=True, **_TRANSF),
    "TabFastFormer": _tabular("TabFastFormer", prep_kwargs=_ATTN, **_TRANSF),
    "TabPerceiver": _tabular("TabPerceiver", prep_kwargs=_ATTN, input_dim=8, n_latents=4, latent_dim=8,
                             n_latent_blocks=1, n_perceiver_blocks=2, n_cross_attn_heads=2, n_latent_heads=2),
    "ContextAttentionMLP": _tabular("ContextAttentionMLP", prep_kwargs=_ATTN, input_dim=8, n_blocks=2),
    "SelfAttentionMLP": _tabular("SelfAttentionMLP", prep_kwargs=_ATTN, input_dim=8, n_blocks=2, n_heads=2),
    # text and multimodal WideDeep
    "BasicRNN_gru_bidirectional": _text_only("basic", objective="multiclass", target="label", pred_dim=3,
                                             rnn_type="gru", bidirectional=True, use_hidden_state=False),
    "AttentiveRNN": _text_only("attentive", attn_concatenate=True),
    "StackedAttentiveRNN": _text_only("stacked", n_blocks=2),
    "TabMlp_BasicRNN": _tab_and_text(),
    "Wide_TabResnet_AttentiveRNN": _tab_and_text("attentive", with_wide=True, deeptabular="TabResnet"),
    "TabMlp_two_texts": _multi_text(fuse=False),
    "TabMlp_ModelFuser_texts": _multi_text(fuse=True),
    "Wide_TabMlp_custom_deeptext": _custom_components,
    # Bayesian
    "BayesianWide": _bayesian("wide"),
    "BayesianTabMlp": _bayesian("tabmlp", objective="regression", target="age"),
    # self-supervised pretraining
    "EncoderDecoder_TabMlp": _encoder_decoder("TabMlp", **_SMALL),
    "EncoderDecoder_TabResnet": _encoder_decoder("TabResnet", blocks_dims=[16, 16, 8]),
    "ContrastiveDenoising_TabTransformer": _contrastive_denoising("TabTransformer", embed_continuous=True,
                                                                  embed_continuous_method="standard"),
    "ContrastiveDenoising_SAINT_cls": _contrastive_denoising("SAINT", with_cls_token=True),
    "ContrastiveDenoising_FTTransformer_denoising": _contrastive_denoising(
        "FTTransformer", trainer_kwargs=(("loss_type", "denoising"), ("cat_mlp_type", "single"),
                                         ("cont_mlp_type", "single"))),
    # recommender models (tests/test_rec)
    "Wide_DeepFM": _tabular("DeepFactorizationMachine", prep_kwargs=(("for_mf", True),), with_wide=True,
                            num_factors=8, reduce_sum=False, mlp_hidden_dims=[16, 8]),
    "Wide_DeepFFM": _tabular("DeepFieldAwareFactorizationMachine", prep_kwargs=(("for_mf", True),
                             ("continuous_cols", None)), with_wide=True,
                             num_factors=8, reduce_sum=True, mlp_hidden_dims=[16, 8]),
    "xDeepFM": _tabular("ExtremeDeepFactorizationMachine", prep_kwargs=(("for_mf", True),), input_dim=8,
                        reduce_sum=False, cin_layer_dims=[16, 8], embed_continuous_method="periodic",
                        n_frequencies=5, sigma=0.1, share_last_layer=False, mlp_hidden_dims=[16, 8]),
    "Wide_DeepCrossNetwork": _tabular("DeepCrossNetwork", with_wide=True, n_cross_layers=2,
                                      mlp_hidden_dims=[16, 8]),
    "DeepCrossNetworkV2": _tabular("DeepCrossNetworkV2", num_cross_layers=2, num_experts=2, low_rank=4,
                                   mlp_hidden_dims=[16, 8]),
    "GatedDeepCrossNetwork": _tabular("GatedDeepCrossNetwork", num_cross_layers=2, structure="stacked",
                                      mlp_hidden_dims=[16, 8]),
    "Wide_AutoInt": _tabular("AutoInt", prep_kwargs=_ATTN, with_wide=True, input_dim=16, num_heads=2, num_layers=2,
                             embed_continuous_method="standard"),
    "AutoIntPlus": _tabular("AutoIntPlus", prep_kwargs=_ATTN, input_dim=16, num_heads=2, num_layers=2,
                            structure="parallel", gated=True, embed_continuous_method="standard",
                            mlp_hidden_dims=[32, 16]),
    "Transformer_cls_token": _rec_transformer,
}
