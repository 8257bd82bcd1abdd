"""torch_ecg 0.0.33: ECG deep-learning models built from the library's own default configs
(``torch_ecg.model_configs``), deep-copied and shrunk where a knob exists (the classifier head of
``ECG_CRNN`` / ``ECG_SEQ_LAB_NET`` to 64 units, LSTM hidden sizes to 32, the transformer attention's
hidden size to 64), random weights, no download, 12-lead signals of 1000 samples (2 s at the
configs' 500 Hz), batch 2; RR series of 64 intervals:

- ``ECG_CRNN`` (multi-label classification), as ``test_ecg_crnn.py`` builds it: the default
  (ResNet Nature-Comm bottleneck + SE, max pooling) and one model per family of CNN backbone in
  ``ECG_CRNN_CONFIG.cnn`` (VGG16 + LSTM, ResNet-18 + linear "rnn" + GC, ResNeXt-50 + avg pool, the
  Nature-Comm ResNet with non-local attention, ResNet-N-S + LSTM + transformer attention, TResNet-F
  (space-to-depth stem, anti-aliased down-sampling) + self-attention, the lead-wise CPSC2018 ResNet,
  RegNet-S + LSTM, MultiScopic + LSTM and its lead-wise variant, MobileNet V1 / V3, Xception,
  DenseNet), one without global pooling, ``ECG_CRNN_v1`` and the ``ATI_CNN_CONFIG`` model;
- ``ECG_SEQ_LAB_NET`` (sequence labelling; ``adjust_cnn_filter_lengths(config, 400)`` as its test
  does): the default (MultiScopic + LSTM + SE), the lead-wise backbone with GC and
  ``recover_length``, non-local attention without the RNN, ``ECG_SEQ_LAB_NET_v1``;
- ``ECG_UNET`` and ``ECG_SUBTRACT_UNET`` (wave delineation), as ``test_unets.py`` builds them;
- ``RR_LSTM`` (RR-interval series, as ``test_rr_lstm.py``): the default (SE, CRF head),
  ``batch_first`` with a linear head and non-local attention, ``RR_AF_VANILLA_CONFIG`` with GC,
  ``RR_AF_CRF_CONFIG``, ``retseq=False``, ``RR_LSTM_v1``;
- a backbone on its own (``ResNet(in_channels, **resnet_nature_comm_se)``), the ``Transformer``
  module, and ``_nets`` blocks a user composes: ``MLDecoder``, ``CBAMBlock``,
  ``AttentivePooling``, ``AttentionWithContext``;
- preprocessing and augmentation as the READMEs show them: ``PreprocManager.from_config``
  (band-pass + min-max; baseline removal + z-score; resampling 500 -> 250 Hz) in front of a CRNN,
  and ``AugmenterManager.from_config`` with the README's set (baseline wander, label smooth, mixup,
  random flip / masking / renormalize, stretch-compress): eval runs the manager alone, train the
  trainer step with it.

Eval: the model's forward (with the preprocessing manager in front where named). Train: the
step of ``BaseTrainer.train_one_epoch`` as a module (``augmenter_manager(*data)`` where the model
has one, ``run_one_step`` = the model's forward, ``criterion(pred, label, *extra)`` built by
``setup_criterion`` with the losses of ``torch_ecg.models.loss``: ``BCEWithLogitsWithClassWeightLoss``,
``AsymmetricLoss``, ``FocalLoss`` (multi-label and single-label), ``MaskedBCEWithLogitsLoss``,
``WeightedBCELoss`` on sigmoid outputs, and ``nn.BCEWithLogitsLoss`` / ``nn.CrossEntropyLoss``
by name; the flooding branch where a model sets ``flooding_level``), without ``loss.item()``,
``zero_grad`` / ``backward`` / ``step`` and the logging. A CRF head's forward is a Viterbi decode
(a one-hot ``int64`` tensor, no gradient), so the CRF ``RR_LSTM`` models train on the head's own
``CRF.neg_log_likelihood`` over the LSTM's projected emissions (the forward's steps up to
``clf.proj`` re-run by a wrapper). The U-Net's single-label ``FocalLoss`` gets its logits permuted
to ``(batch, classes, seq_len)``. ``mean_loss_module`` for the blocks, the backbone and the
Transformer.

    pip install --no-deps torch-ecg==0.0.33
    pip install --no-deps biosppy==2.2.4
    pip install --no-deps peakutils==1.3.5
    pip install --no-deps bib-lookup==0.1.4
    pip install --no-deps feedparser==6.0.14 feedparser-sgmllib==2.1.0
    pip install --no-deps beautifulsoup4==4.15.0 soupsieve==4.1.4
    pip install --no-deps pybtex==0.26.1 latexcodec==3.0.1
    pip install --no-deps deprecated==1.3.1 deprecate-kwargs==0.1.1 easydict==1.14
    pip install --no-deps wfdb==4.3.1
    pip install --no-deps tensorboardX==2.6.5
    pip install --no-deps edfio==0.4.18

``import torch_ecg`` imports everything at its top (databases, loggers, citations): biosppy (and
peakutils, which it imports), bib_lookup (feedparser, feedparser-sgmllib, beautifulsoup4,
soupsieve, pybtex, latexcodec), deprecated, deprecate_kwargs, easydict, wfdb, tensorboardX and
edfio, all pure Python; numpy, scipy, pandas (3.0.6 here; torch_ecg declares <3, imports and runs
with a warning), matplotlib, scikit-learn, pywavelets, soundfile, h5py, requests, tqdm, einops,
boto3, safetensors, xmltodict, aiohttp, fsspec, protobuf and wrapt were already installed. Nothing
stubbed.

Left out: ``xception_leadwise`` (200M parameters, 5 s to build) and ``regnet_23_168`` (109M) of
the CRNN backbones, and the rest of the 40 backbone configs (same classes as the ones kept:
more ResNet / TResNet / RegNet / VGG / MobileNet variants), to keep the capture inside its budget; ``ECG_CRNN.inference`` and the other ``inference`` methods (they raise
``NotImplementedError`` in the library, task-specific subclasses live in its benchmarks);
``GradCam`` (hooks plus ``backward`` outside a forward); the databases, ``BaseTrainer`` itself
(needs datasets and writes logs / checkpoints), the numpy preprocessors of ``_preprocessors``, the
``_edr`` / ``rpeaks`` signal utilities (numpy / biosppy, no tensors).
"""

import functools

PACKAGE = "torch_ecg"
DISTRIBUTION = "torch-ecg"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B = 2
_LEADS = 12
_LEN = 1000
_CLASSES = ["NSR", "AF", "PVC", "LBBB", "RBBB"]
_RR_LEN = 64


def warm_up():
    import warnings

    warnings.filterwarnings("ignore")
    import torch  # noqa: F401
    import torch_ecg.model_configs  # noqa: F401
    import torch_ecg.models  # noqa: F401
    import torch_ecg.augmenters  # noqa: F401
    import torch_ecg.preprocessors  # noqa: F401


@functools.cache
def _train_step_cls():
    import torch

    class TrainStep(torch.nn.Module):
        """``BaseTrainer.train_one_epoch``'s step: augment, run the model, the criterion, flooding."""

        def __init__(self, model, criterion, augmenter_manager=None, flooding_level=0.0, sigmoid=False):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.criterion = criterion
            self.augmenter_manager = augmenter_manager
            self.flooding_level = flooding_level
            self.sigmoid = sigmoid

        def forward(self, signals, labels, *extra_tensors):
            data = (signals, labels, *extra_tensors)
            if self.augmenter_manager is not None:
                data = self.augmenter_manager(*data)
            signals, labels, *extra_tensors = data
            preds = self.model(signals)
            if self.sigmoid:
                preds = torch.sigmoid(preds)
            loss = self.criterion(preds, labels, *extra_tensors)
            if self.flooding_level > 0:
                loss = (loss - self.flooding_level).abs() + self.flooding_level
            return loss

    return TrainStep


def _criterion(name, **kw):
    from torch_ecg.models.loss import setup_criterion

    return setup_criterion(name, **kw)


def _signals():
    import torch

    return torch.randn(_B, _LEADS, _LEN)


def _multilabel(shape):
    import torch

    return (torch.rand(*shape) > 0.5).float()


def _model_out_shape(model, seq_len, batch):
    return tuple(int(s) for s in model.compute_output_shape(seq_len=seq_len, batch_size=batch))


def _wrap(mode, model, inputs, loss, labels, extra=(), **step_kw):
    if mode != "train":
        return model, inputs, {}
    step = _train_step_cls()(model, loss, **step_kw)
    return step, (*inputs, labels, *extra), {}


# --- ECG_CRNN --------------------------------------------------------------------------------

def _crnn_config(cnn=None, rnn=None, attn=None, pool=None, base=None):
    from copy import deepcopy

    from torch_ecg.model_configs import ECG_CRNN_CONFIG

    config = deepcopy(base if base is not None else ECG_CRNN_CONFIG)
    if "clf" in config:
        config.clf.out_channels = [64]
    if cnn is not None:
        config.cnn.name = cnn
    if rnn is not None:
        config.rnn.name = rnn
    if "lstm" in config.get("rnn", {}):
        config.rnn.lstm.hidden_sizes = [32, 32]
    if attn is not None:
        config.attn.name = attn
    if "transformer" in config.get("attn", {}):
        config.attn.transformer.hidden_size = 64
        config.attn.transformer.num_heads = 4
    if pool is not None:
        config.global_pool = pool
    return config


def _crnn(mode, cnn=None, rnn=None, attn=None, pool=None, loss=("BCEWithLogitsLoss", {}), v1=False,
          base=None, flooding=0.0):
    import torch
    from torch_ecg.models.ecg_crnn import ECG_CRNN, ECG_CRNN_v1

    config = _crnn_config(cnn, rnn, attn, pool, base)
    cls = ECG_CRNN_v1 if v1 else ECG_CRNN
    model = cls(classes=_CLASSES, n_leads=_LEADS, config=config)
    sig = _signals()
    out_shape = (_B, len(_CLASSES)) if v1 else _model_out_shape(model, _LEN, _B)
    name, kw = loss
    kw = {k: (v() if callable(v) else v) for k, v in kw.items()}
    labels = _multilabel(out_shape)
    if name == "CrossEntropyLoss":
        labels = torch.arange(_B) % len(_CLASSES)
    return _wrap(mode, model, (sig,), _criterion(name, **kw), labels, flooding_level=flooding)


def _cw2():
    import torch

    return torch.tensor([[1.0, 3.0]])


def _cw():
    import torch

    return torch.linspace(0.5, 2.0, len(_CLASSES)).unsqueeze(0)


_CRNN_MODELS = {
    "ECG_CRNN": dict(loss=("BCEWithLogitsWithClassWeightLoss", {"class_weight": _cw})),
    "ECG_CRNN_vgg16_lstm": dict(cnn="vgg16", rnn="lstm", attn="none"),
    "ECG_CRNN_resnet_18_linear_gc": dict(cnn="resnet_18", rnn="linear", attn="gc", loss=("AsymmetricLoss", {})),
    "ECG_CRNN_resnext_50_avgpool": dict(cnn="resnext_50_32x4d", attn="none", pool="avg",
                                        loss=("FocalLoss", {"class_weight": _cw})),
    "ECG_CRNN_resnet_nature_comm_nl": dict(cnn="resnet_nature_comm_nl", attn="nl", flooding=0.1),
    "ECG_CRNN_resnetNS_transformer": dict(cnn="resnetNS", rnn="lstm", attn="transformer"),
    "ECG_CRNN_tresnetF_sa": dict(cnn="tresnetF", attn="sa", loss=("AsymmetricLoss", {"gamma_neg": 4, "prob_margin": 0.05})),
    "ECG_CRNN_resnet_leadwise": dict(cnn="resnet_leadwise", attn="gc"),
    "ECG_CRNN_regnet_S": dict(cnn="regnet_S", rnn="lstm", attn="none", pool="avg"),
    "ECG_CRNN_multi_scopic_lstm": dict(cnn="multi_scopic", rnn="lstm", attn="se"),
    "ECG_CRNN_multi_scopic_leadwise": dict(cnn="multi_scopic_leadwise", attn="gc"),
    "ECG_CRNN_mobilenet_v1": dict(cnn="mobilenet_v1", attn="none", loss=("CrossEntropyLoss", {})),
    "ECG_CRNN_mobilenet_v3": dict(cnn="mobilenet_v3", attn="none"),
    "ECG_CRNN_xception": dict(cnn="xception_vanilla", attn="none", loss=("FocalLoss", {"class_weight": _cw})),
    "ECG_CRNN_densenet": dict(cnn="densenet_vanilla", attn="se"),
    "ECG_CRNN_no_global_pool": dict(cnn="resnetN", attn="none", pool="none"),
    "ECG_CRNN_v1": dict(v1=True, rnn="lstm", loss=("AsymmetricLoss", {})),
}


def _ati_cnn(mode):
    from torch_ecg.model_configs.ati_cnn import ATI_CNN_CONFIG

    return _crnn(mode, base=ATI_CNN_CONFIG)


# --- preprocessing / augmentation -----------------------------------------------------------

def _preproc_crnn(mode, pp):
    import torch
    from torch_ecg.cfg import CFG
    from torch_ecg.preprocessors import PreprocManager

    ppm = PreprocManager.from_config(CFG(random=False, **pp))
    model, args, kwargs = _crnn("eval", cnn="resnetNS", attn="se")
    pipeline = torch.nn.Sequential(ppm, model)
    labels = _multilabel((_B, len(_CLASSES)))
    return _wrap(mode, pipeline, args, _criterion("BCEWithLogitsLoss"), labels)


def _augmented_crnn(mode):
    from torch_ecg.augmenters import AugmenterManager
    from torch_ecg.cfg import CFG

    am = AugmenterManager.from_config(CFG(
        random=False, fs=500, baseline_wander={}, label_smooth={}, mixup={}, random_flip={},
        random_masking={}, random_renormalize={}, stretch_compress={},
    ))
    model, args, _ = _crnn("eval", cnn="resnetNS", attn="se")
    labels = _multilabel((_B, len(_CLASSES)))
    if mode != "train":
        return am, (args[0], labels), {}
    step = _train_step_cls()(model, _criterion("BCEWithLogitsLoss"), augmenter_manager=am)
    return step, (args[0], labels), {}


# --- ECG_SEQ_LAB_NET -------------------------------------------------------------------------

def _seq_lab(mode, cnn=None, rnn=None, attn=None, recover_length=None, v1=False, loss="BCEWithLogitsLoss"):
    import torch
    from torch_ecg.model_configs.ecg_seq_lab_net import ECG_SEQ_LAB_NET_CONFIG
    from torch_ecg.models.ecg_seq_lab_net import ECG_SEQ_LAB_NET, ECG_SEQ_LAB_NET_v1
    from torch_ecg.utils.utils_nn import adjust_cnn_filter_lengths

    config = adjust_cnn_filter_lengths(ECG_SEQ_LAB_NET_CONFIG, 400)
    config.clf.out_channels = [64, 32]
    if cnn is not None:
        config.cnn.name = cnn
    if rnn is not None:
        config.rnn.name = rnn
    config.rnn.lstm.hidden_sizes = [32, 32]
    if attn is not None:
        config.attn.name = attn
    if recover_length is not None:
        config.recover_length = recover_length
    cls = ECG_SEQ_LAB_NET_v1 if v1 else ECG_SEQ_LAB_NET
    classes = ["N", "S"] if loss != "BCEWithLogitsLoss" else ["N"]
    model = cls(classes=classes, n_leads=_LEADS, config=config)
    sig = _signals()
    with torch.no_grad():
        out_shape = tuple(model.eval()(sig).shape)
    labels = _multilabel(out_shape)
    if loss == "MaskedBCEWithLogitsLoss":
        mask = torch.ones(out_shape)
        mask[:, : out_shape[1] // 4] = 3.0
        return _wrap(mode, model, (sig,), _criterion(loss), labels, extra=(mask,))
    if loss == "WeightedBCELoss":
        from torch_ecg.models.loss import WeightedBCELoss

        crit = WeightedBCELoss(torch.ones((1, len(classes))), PosWeightIsDynamic=True)
        return _wrap(mode, model, (sig,), crit, labels, sigmoid=True)
    return _wrap(mode, model, (sig,), _criterion(loss), labels)


# --- U-Nets ----------------------------------------------------------------------------------

def _unet(mode, subtract=False):
    import torch
    from torch_ecg.model_configs import ECG_SUBTRACT_UNET_CONFIG, ECG_UNET_VANILLA_CONFIG
    from torch_ecg.models.unets.ecg_subtract_unet import ECG_SUBTRACT_UNET
    from torch_ecg.models.unets.ecg_unet import ECG_UNET
    from torch_ecg.utils.utils_nn import adjust_cnn_filter_lengths

    classes = ["p", "N", "t", "i"]
    base, cls = (ECG_SUBTRACT_UNET_CONFIG, ECG_SUBTRACT_UNET) if subtract else (ECG_UNET_VANILLA_CONFIG, ECG_UNET)
    config = adjust_cnn_filter_lengths(base, 400)
    model = cls(classes=classes, n_leads=_LEADS, config=config)
    sig = _signals()
    out_shape = _model_out_shape(model, _LEN, _B)
    if subtract:
        labels = _multilabel(out_shape)
        return _wrap(mode, model, (sig,), _criterion("FocalLoss", class_weight=torch.ones(1, 4)), labels)
    labels = torch.randint(0, len(classes), out_shape[:2])
    crit = _criterion("FocalLoss", class_weight=torch.ones(1, 4), multi_label=False)
    if mode != "train":
        return model, (sig,), {}

    class Permuted(torch.nn.Module):  # cross-entropy wants (batch, classes, seq_len)
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            return self.net(x).permute(0, 2, 1)

    step = _train_step_cls()(Permuted(model), crit)
    object.__setattr__(step, "__wrapped__", model)
    return step, (sig, labels), {}


# --- RR_LSTM ---------------------------------------------------------------------------------

def _rr_lstm(mode, base="RR_LSTM_CONFIG", clf=None, attn=None, batch_first=False, retseq=None, v1=False,
             loss=("BCEWithLogitsLoss", {})):
    import torch
    from copy import deepcopy

    from torch_ecg.model_configs import rr_lstm as cfgs
    from torch_ecg.models.rr_lstm import RR_LSTM, RR_LSTM_v1

    config = deepcopy(getattr(cfgs, base))
    config.lstm.hidden_sizes = [32]
    if clf is not None:
        config.clf.name = clf
    if attn is not None:
        config.attn.name = attn
    if retseq is not None:
        config.lstm.retseq = retseq
    config.batch_first = batch_first
    classes = ["N", "AF"]
    cls = RR_LSTM_v1 if v1 else RR_LSTM
    model = cls(classes=classes, config=config)
    inp = torch.randn(_B, 1, _RR_LEN) if batch_first else torch.randn(_RR_LEN, _B, 1)
    with torch.no_grad():
        out_shape = tuple(model.eval()(inp).shape)
    if config.clf.name == "crf" and config.lstm.retseq and mode == "train":
        # the CRF head's forward is a Viterbi decode (one-hot, no gradient): train on its own loss
        tags = torch.randint(0, len(classes), out_shape[:2])
        return _crf_nll_cls()(model, batch_first), (inp, tags), {}
    name, kw = loss
    kw = {k: (v() if callable(v) else v) for k, v in kw.items()}
    return _wrap(mode, model, (inp,), _criterion(name, **kw), _multilabel(out_shape))


@functools.cache
def _crf_nll_cls():
    import torch

    class CRFNLL(torch.nn.Module):
        """RR_LSTM's forward up to the CRF head's projection, then ``CRF.neg_log_likelihood``."""

        def __init__(self, net, batch_first):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.batch_first = batch_first

        def forward(self, rr, tags):
            x = self.net.in_rearrange(rr)
            x = self.net.lstm(x)
            x = self.net.attn_in_rearrange(x)
            x = self.net.attn(x)
            x = self.net.attn_out_rearrange(x)
            x = self.net.pool(x)
            x = self.net.pool_rearrange(x)  # (batch, seq_len, channels)
            emissions = self.net.clf.proj(x)
            return self.net.clf.crf.neg_log_likelihood(emissions, tags, reduction="token_mean")

    return CRFNLL


# --- backbones and blocks --------------------------------------------------------------------

def _backbone(mode, cls_name, cfg_name):
    from copy import deepcopy

    import torch_ecg.model_configs as mc
    import torch_ecg.models as models
    from torch_ecg.utils.utils_nn import adjust_cnn_filter_lengths

    config = deepcopy(getattr(mc, cfg_name))
    if cfg_name == "multi_scopic":
        config.block = deepcopy(mc.multi_scopic_block)
    config = adjust_cnn_filter_lengths(config, 500)
    net = getattr(models, cls_name)(in_channels=_LEADS, **config)
    net = net if mode != "train" else mean_loss_module()(net)
    return net, (_signals(),), {}


def _transformer(mode):
    import torch
    from torch_ecg.models import Transformer

    net = Transformer(input_size=32, hidden_size=64, num_heads=4, num_layers=2, dropout=0.1, batch_first=True)
    net = net if mode != "train" else mean_loss_module()(net)
    return net, (torch.randn(_B, 50, 32),), {}


def _block(mode, name):
    import torch
    from torch_ecg.models import _nets

    if name == "MLDecoder":
        net = _nets.MLDecoder(in_channels=64, out_channels=len(_CLASSES), decoder_embedding=64)
        x = torch.randn(_B, 64, 40)
    elif name == "CBAMBlock":
        net = _nets.CBAMBlock(gate_channels=32, reduction=8)
        x = torch.randn(_B, 32, 100)
    elif name == "AttentivePooling":
        net = _nets.AttentivePooling(in_channels=32)
        x = torch.randn(_B, 32, 100)
    elif name == "AttentionWithContext":
        net = _nets.AttentionWithContext(in_channels=32)
        x = torch.randn(_B, 32, 100)
    elif name == "SelfAttention":
        net = _nets.SelfAttention(embed_dim=32, num_heads=4, dropout=0.1)
        x = torch.randn(100, _B, 32)
    elif name == "StackedLSTM":
        net = _nets.StackedLSTM(input_size=12, hidden_sizes=[32, 16], dropouts=0.1, bidirectional=True,
                                return_sequences=False)
        x = torch.randn(100, _B, 12)
    else:
        raise KeyError(name)
    net = net if mode != "train" else mean_loss_module()(net)
    return net, (x,), {}


MODELS = {}
for _name, _kw in _CRNN_MODELS.items():
    MODELS[_name] = functools.partial(_crnn, **_kw)
MODELS.update({
    "ECG_CRNN_ATI_CNN": _ati_cnn,
    "ECG_CRNN_preproc_bandpass_minmax": functools.partial(
        _preproc_crnn, pp=dict(bandpass={"fs": 500}, normalize={"method": "min-max"})),
    "ECG_CRNN_preproc_baseline_zscore": functools.partial(
        _preproc_crnn, pp=dict(baseline_remove={"fs": 500}, normalize={"method": "z-score"})),
    "ECG_CRNN_preproc_resample": functools.partial(
        _preproc_crnn, pp=dict(resample={"fs": 500, "dst_fs": 250})),
    "ECG_CRNN_augmented_step": _augmented_crnn,
    "ECG_SEQ_LAB_NET": _seq_lab,
    "ECG_SEQ_LAB_NET_leadwise_gc_recover": functools.partial(
        _seq_lab, cnn="multi_scopic_leadwise", attn="gc", recover_length=True, loss="MaskedBCEWithLogitsLoss"),
    "ECG_SEQ_LAB_NET_nl_no_rnn": functools.partial(_seq_lab, rnn="none", attn="nl", loss="WeightedBCELoss"),
    "ECG_SEQ_LAB_NET_v1": functools.partial(_seq_lab, v1=True, recover_length=True),
    "ECG_UNET": _unet,
    "ECG_SUBTRACT_UNET": functools.partial(_unet, subtract=True),
    "RR_LSTM": _rr_lstm,
    "RR_LSTM_linear_nl_batch_first": functools.partial(_rr_lstm, clf="linear", attn="nl", batch_first=True,
                                                       loss=("AsymmetricLoss", {})),
    "RR_AF_VANILLA_gc": functools.partial(_rr_lstm, base="RR_AF_VANILLA_CONFIG", attn="gc",
                                          loss=("FocalLoss", {"class_weight": _cw2})),
    "RR_AF_CRF": functools.partial(_rr_lstm, base="RR_AF_CRF_CONFIG", batch_first=True),
    "RR_LSTM_no_retseq": functools.partial(_rr_lstm, clf="linear", attn="none", retseq=False),
    "RR_LSTM_v1": functools.partial(_rr_lstm, clf="linear", attn="se", v1=True),
    "ResNet_backbone": functools.partial(_backbone, cls_name="ResNet", cfg_name="resnet_nature_comm_se"),
    "Transformer": _transformer,
    "MLDecoder": functools.partial(_block, name="MLDecoder"),
    "CBAMBlock": functools.partial(_block, name="CBAMBlock"),
    "AttentivePooling": functools.partial(_block, name="AttentivePooling"),
    "AttentionWithContext": functools.partial(_block, name="AttentionWithContext"),
})
