"""braindecode 1.8.1 (import name ``braindecode``): the EEG / EMG decoding networks of
``braindecode.models``, built as its own tests build them (the mandatory signal parameters
``n_chans`` / ``n_outputs`` / ``n_times`` / ``sfreq`` / ``chs_info`` and the per-model overrides
of ``braindecode.models.util.models_mandatory_parameters``), small: 8 EEG channels of the 10-20
montage (``chs_info`` is ``mne.create_info(...).set_montage("standard_1020")["chs"]``, what a
user passes from ``raw.info``), 2 classes, 500 samples at 250 Hz, batch 4, random weights,
random inputs of shape ``(batch, n_chans, n_times)``, nothing downloaded.

Models: the convolutional classics (``ShallowFBCSPNet``, also in its cropped-decoding form
``final_conv_length=30`` with ``braindecode.training.CroppedLoss``, ``Deep4Net``, ``EEGNet``,
``EEGNeX``, ``EEGInceptionERP``, ``EEGInceptionMI``, ``EEGITNet``, ``EEGTCNet``, ``TIDNet``,
``BDTCN``, ``SCCNet``, ``SincShallowNet``, ``TSception``, ``EEGSym``, ``SyncNet``, ``EEGMiner``,
``AttentionBaseNet``, ``SSTDPN``, ``DGCNN``), the convolution + attention ones (``ATCNet``,
``EEGConformer``, ``CTNet``, ``TCFormer``, ``MSVTNet``), sleep staging
(``SleepStagerChambon2018`` at 100 Hz x 30 s, ``SleepStagerBlanco2020``, ``USleep``,
``AttnSleep``, ``DeepSleepNet`` with a small LSTM), spectrogram / transformer foundation models
shrunk through their constructor arguments (``BIOT`` (linear attention from
``linear_attention_transformer``), ``ContraWR``, ``SPARCNet``, ``Labram`` (2 layers; as the tokenizer-style encoder,
forwarded the channel names, and in its decoder mode ``neural_tokenizer=False``),
``EEGPT`` (2 layers, width 64), ``PBT``, ``EEGDINO``, ``MEDFormer`` (2 layers),
``MVPFormer``), ``SignalJEPA`` (the self-supervised context encoder: features) and its three
downstream heads (``_Contextual``, ``_PostLocal``, ``_PreLocal``), ``BrainModule`` (small),
and the EMG regressor ``SensingDynamics`` (a (batch, time, 20) sequence).

Eval: the logits. Train: the cross-entropy against fixed labels (``classifier_loss_module``,
what ``EEGClassifier``'s default criterion computes); ``CroppedLoss(cross_entropy)`` for the
cropped ShallowFBCSPNet; ``mean_loss_module`` for ``SignalJEPA``'s features and the sequence
regressor.

    pip install --no-deps braindecode==1.8.1
    pip install --no-deps mne==1.13.2 lazy-loader==0.6 pooch==1.9.0    # mne: imported by the models (mne.utils.warn, mne.filter)
    pip install --no-deps skorch==1.4.0 tabulate==0.10.0               # skorch: braindecode/__init__ imports EEGClassifier
    pip install --no-deps docstring-inheritance==3.0.0 torchinfo==1.8.0 # models/base.py
    pip install --no-deps linear-attention-transformer==0.19.1 linformer==0.2.3  # BIOT
    # already there from other adapters: einops, scipy, pandas, scikit-learn, pydantic, tqdm,
    # decorator, jinja2, packaging, platformdirs, requests, local-attention,
    # axial-positional-embedding, product-key-memory, colt5-attention

Stubbed (``stub_modules``): ``torchaudio`` (``braindecode.modules.filter`` imports
``torchaudio.functional`` at its top, and a few models ``torchaudio.transforms``): the only
torchaudio wheel on PyPI (2.11.0) does not load its compiled ops into torch 2.13, so it cannot
be installed here; ``h5py`` (``braindecode.util`` imports it for the dataset serializers),
``mne_bids`` and ``wfdb`` (dataset readers imported by ``braindecode.datasets`` through
``braindecode/__init__``): no model uses them.

Left out: the models whose forward or constructor needs torchaudio (``FBCNet``, ``FBMSNet``,
``FBLightConvNet``, ``IFNet`` (``FilterBankLayer``: torchaudio's ``fftconvolve`` /
``filtfilt``), ``EEGSimpleConv`` (``Resample``), ``EMG2QwertyNet``, ``MetaNeuromotorHand``
(``Spectrogram``)); ``REVE`` (downloads its position bank from the Hugging Face hub in its
constructor); the ``Interpolated*`` wrappers (``InterpolatedEEGPT``, ``-BIOT``, ``-LaBraM``,
``-BENDR``, ``-SignalJEPA``: channel interpolation for pretrained checkpoints); to keep the
capture short, the large foundation models at their documented sizes (``ZUNA`` 172M,
``CodeBrain`` 107M, ``DANCE`` 30M, ``STEEGFormer``, ``CBraMod``, ``LUNA``, ``BENDR``) and the
EMG pose models (``NeuroPose``, ``VEMG2Pose``: 10k-sample windows); ``EEGClassifier`` /
``EEGRegressor`` (skorch trainers: ``fit`` runs data loaders and callbacks, not one forward).
"""

import functools

PACKAGE = "braindecode"

mean_loss_module = None  # adapter.py's, set by ZooSuite
classifier_loss_module = None
stub_modules = None

_B = 4  # batch
_CH_NAMES = ["Fz", "C3", "Cz", "C4", "P3", "Pz", "P4", "Oz"]
_SIG = dict(n_chans=8, n_outputs=2, n_times=500, sfreq=250.0)


def _stubs():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchaudio": ((), ()),
            "torchaudio.functional": (("fftconvolve", "filtfilt", "lfilter"), ()),
            "torchaudio.transforms": ((), ("Resample", "Spectrogram", "TimeMasking", "FrequencyMasking")),
            "h5py": ((), ()),
            "mne_bids": ((), ()),
            "mne_bids.write": (("_channels_tsv", "_sidecar_json"), ()),
            "wfdb": ((), ()),
        },
        "braindecode imports",
    )


def warm_up():
    _stubs()
    import warnings

    import torch  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import braindecode  # noqa: F401
        import braindecode.models  # noqa: F401
        import braindecode.training  # noqa: F401
    _chs_info(8)


@functools.cache
def _chs_info_cached(n_chans, sfreq):
    import warnings

    import mne

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mne 1.13: "standard_1020" is to be renamed
        info = mne.create_info(_CH_NAMES[:n_chans], sfreq, "eeg")
        info.set_montage("standard_1020")
    return info["chs"]


def _chs_info(n_chans=8, sfreq=250.0):
    import copy

    return copy.deepcopy(list(_chs_info_cached(n_chans, sfreq)))


def _model(name, loss="classifier", chs=False, ch_names=False, **params):
    """``braindecode.models.<name>(**signal, **params)`` on a (4, n_chans, n_times) batch;
    ``chs`` passes ``chs_info`` (8 channels) too, ``ch_names`` the channel names to forward
    (Labram's keyword). ``loss``: "classifier" (cross-entropy), "cropped" (CroppedLoss over
    the time axis) or "mean"."""

    def make(mode):
        _stubs()
        import torch

        from braindecode import models

        kwargs = dict(_SIG)
        kwargs.update(params)
        if chs:
            kwargs["chs_info"] = _chs_info(kwargs["n_chans"], kwargs["sfreq"])
        net = getattr(models, name)(**kwargs)
        x = torch.randn(_B, net.n_chans, net.n_times)
        fwd = {"ch_names": _CH_NAMES[: net.n_chans]} if ch_names else {}
        if mode != "train":
            return net, (x,), fwd
        if loss == "classifier":
            return classifier_loss_module()(net, _B, net.n_outputs), (x,), fwd  # noqa: F821
        if loss == "cropped":
            return _cropped_loss()(net, net.n_outputs), (x,), fwd
        return mean_loss_module()(net), (x,), fwd  # noqa: F821

    return make


@functools.cache
def _cropped_loss():
    import torch
    import torch.nn.functional as F

    from braindecode.training import CroppedLoss

    class CroppedTrainLoss(torch.nn.Module):
        """Cropped decoding's criterion (``EEGClassifier(cropped=True, criterion=CroppedLoss,
        criterion__loss_function=cross_entropy)``): the time-averaged logits' cross-entropy."""

        def __init__(self, net, classes):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.loss = CroppedLoss(F.cross_entropy)
            self.register_buffer("labels", torch.arange(_B) % classes)

        def forward(self, x):
            return self.loss(self.net(x), self.labels)

    return CroppedTrainLoss


MODELS = {
    # --- convolutional classifiers ---
    "ShallowFBCSPNet": _model("ShallowFBCSPNet"),
    "ShallowFBCSPNet_cropped": _model("ShallowFBCSPNet", loss="cropped", n_times=1000,
                                      final_conv_length=30),
    "Deep4Net": _model("Deep4Net"),
    "EEGNet": _model("EEGNet"),
    "EEGNeX": _model("EEGNeX"),
    "EEGInceptionERP": _model("EEGInceptionERP"),
    "EEGInceptionMI": _model("EEGInceptionMI", n_filters=12, n_convs=3),
    "EEGITNet": _model("EEGITNet"),
    "EEGTCNet": _model("EEGTCNet"),
    "TIDNet": _model("TIDNet"),
    "BDTCN": _model("BDTCN"),
    "SCCNet": _model("SCCNet", sfreq=200.0),
    "SincShallowNet": _model("SincShallowNet"),
    "TSception": _model("TSception", sfreq=200.0),
    "EEGSym": _model("EEGSym", chs=True),
    "SyncNet": _model("SyncNet"),
    "EEGMiner": _model("EEGMiner", sfreq=200.0),
    "AttentionBaseNet": _model("AttentionBaseNet"),
    "SSTDPN": _model("SSTDPN"),
    "DGCNN": _model("DGCNN", chs=True),
    # --- convolution + attention ---
    "ATCNet": _model("ATCNet"),
    "EEGConformer": _model("EEGConformer", num_layers=2),
    "CTNet": _model("CTNet"),
    "TCFormer": _model("TCFormer"),
    "MSVTNet": _model("MSVTNet"),
    # --- sleep staging ---
    "SleepStagerChambon2018": _model("SleepStagerChambon2018", n_chans=2, n_outputs=5, n_times=3000, sfreq=100.0),
    "SleepStagerBlanco2020": _model("SleepStagerBlanco2020", n_chans=4, n_outputs=5, n_times=3000, sfreq=100.0),
    "USleep": _model("USleep", n_chans=2, n_outputs=5, n_times=3840, sfreq=128.0, depth=4),
    "AttnSleep": _model("AttnSleep", n_chans=1, n_outputs=5, n_times=3000, sfreq=100.0),
    "DeepSleepNet": _model("DeepSleepNet", n_chans=1, n_outputs=5, n_times=3000, sfreq=100.0, bilstm_hidden_size=32),
    # --- spectrogram / transformer models, shrunk ---
    "BIOT": _model("BIOT", embed_dim=64, num_layers=2),
    "ContraWR": _model("ContraWR", sfreq=200.0, emb_size=64),
    "SPARCNet": _model("SPARCNet"),
    "Labram": _model("Labram", chs=True, ch_names=True, n_times=800, sfreq=200.0, num_layers=2),
    "Labram_decoder": _model("Labram", chs=True, ch_names=True, n_times=800, sfreq=200.0, num_layers=2, neural_tokenizer=False),
    "EEGPT": _model("EEGPT", chs=True, embed_dim=64, depth=2, num_heads=4),
    "PBT": _model("PBT"),
    "EEGDINO": _model("EEGDINO"),
    "MEDFormer": _model("MEDFormer", num_layers=2, embed_dim=32, dim_feedforward=64, num_heads=4),
    "MVPFormer": _model("MVPFormer", n_times=2000, sfreq=100.0),
    "BrainModule": _model("BrainModule", hidden_dim=32, depth=4),
    # --- SignalJEPA: the self-supervised encoder and its downstream heads ---
    "SignalJEPA": _model("SignalJEPA", loss="mean", chs=True, transformer__num_encoder_layers=2),
    "SignalJEPA_Contextual": _model("SignalJEPA_Contextual", chs=True, transformer__num_encoder_layers=2),
    "SignalJEPA_PostLocal": _model("SignalJEPA_PostLocal"),
    "SignalJEPA_PreLocal": _model("SignalJEPA_PreLocal"),
    # --- EMG regression (a sequence of 20 joint angles) ---
    "SensingDynamics": _model("SensingDynamics", loss="mean", n_chans=16, n_outputs=20, n_times=480, sfreq=2000.0),
}
