"""openunmix 1.3.0 (sigsep: Stoter, Uhlich, Liutkus, Mitsufuji): Open-Unmix music source
separation, as its README, its tests (``tests/test_model.py``, ``test_transforms.py``,
``test_wiener.py``, ``test_regression.py``, ``test_augmentations.py``, ``test_jit.py``), its
trainer ``scripts/train.py`` and its hub factories (``openunmix/__init__.py``) use it, tiny
(batches of 2; stereo or mono clips of 1024 samples at 16 kHz; STFT of 128 points, hop 32:
65 bins, 33 frames; spectrogram models with ``hidden_size=32``, ``nb_layers=1`` as the tests
build them), random weights, ``pretrained=False``, no download, the ``torch`` filterbank:

- ``model.OpenUnmix`` on ``(batch, channels, bins, frames)`` spectrograms: stereo, mono,
  ``unidirectional``, the default 3 LSTM layers (dropout 0.4), and a ``max_bin`` crop with the
  input scaler's numpy mean / std (``train.py``'s ``get_statistics``);
- ``train.py``'s training step: ``encoder = Sequential(stft, ComplexNorm(mono))``
  (``make_filterbanks`` with its default ``center=False``), ``mse_loss(unmix(encoder(x)),
  encoder(y))``, with ``max_bin`` from ``utils.bandwidth_to_max_bin`` (a numpy integer, passed
  on as ``train.py`` does) and the scaler statistics, mono, unidirectional with 3 layers, and
  with the MUSDB data set's default source augmentations (``data.aug_from_str(["gain",
  "channelswap"])``, a ``Compose`` applied to each source, the mixture their sum);
- transforms: ``test_regression.py``'s encoder (``TorchSTFT`` + ``ComplexNorm``, centred stereo
  and uncentred mono), ``test_transforms.py``'s ``stft`` / ``istft(length=...)`` round trip (two
  FFT sizes and hops), ``TorchISTFT`` on a 6-d (batch, targets, channels, bins, frames, 2)
  STFT as the ``Separator`` calls it, ``ComplexNorm`` stereo and mono;
- ``filtering`` (``test_wiener.py``'s shapes: 10 frames x 10 bins): ``wiener`` without EM (the
  mixture phase through the module's own ``atan2``), with ``softmask`` and ``residual``, one EM
  iteration, two EM iterations on one mono source plus the residual, three sources with
  ``softmask`` in float64 (``test_dtype``); ``expectation_maximization`` with ``batch_size=4``
  (three frame batches); ``atan2`` on a grid with exact zeros; ``_covariance`` + ``_invert``
  (2x2 analytic and 1x1);
- ``model.Separator`` over tiny ``OpenUnmix`` targets: two targets with one EM iteration,
  one target without EM, one target plus ``residual``, ``softmask``, mono (``umxse``-like
  speech / noise), ``wiener_win_len=8`` (five windows per example), three 3-layer targets
  with two EM iterations over the whole clip (``wiener_win_len=None``); ``predict.separate``
  with a given separator (``utils.preprocess`` of a ``(channels, time)`` clip, mono duplicated
  to stereo; ``Separator.to_dict``, and the README's vocals / accompaniment
  ``aggregate_dict``);
- the hub factories at full size with random weights: ``umxse`` (3.2M parameters, 1024-point
  STFT), ``umx(targets=["vocals"], residual=True, niter=1)`` (8.9M) and
  ``umxhq(targets=["vocals", "drums"], niter=0)`` (17.8M) on clips of 4096 samples.

Eval: the forward. Train: ``train.py``'s loss (``mse_loss`` of the estimated against a target
spectrogram) for the ``OpenUnmix`` entries and the training steps; a ``Separator`` (the class
"to enable end-to-end learning") trained on the MSE of its waveform estimates against target
stems; else the sum of the means of the float outputs (``mean_loss_module``), the
parameter-free transforms and filters behind a learned scalar gain so training has a
parameter.

    pip install --no-deps openunmix==1.3.0
    # already there: numpy 2.4.6, tqdm 4.70.1 (``data.py`` imports it)

Stubbed (``stub_modules``): ``torchaudio`` (``utils.py``, ``transforms.py`` and ``data.py``
import it at their top; ``openunmix/__init__`` imports ``utils``): never installed here (the
PyPI wheel does not load into torch 2.13.0+cpu, as the encodec and braindecode adapters
record). No model uses it: it serves audio I/O and ``preprocess``' resampling only. Measured
first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 37 models, 74 runs, all built, all 74 ran under Dynamo (37 eval,
37 train), none failed or timed out. 20 runs have no break at all: the transforms, ``atan2``
and ``wiener`` without EM. 54 runs break, in eight statements: ``OpenUnmix.forward``'s
``self.lstm(x)`` (``model.py:141``, GB0014, every spectrogram model; the frame skipped,
GB7000, where a ``Separator`` calls its targets in a loop); ``self.fc1(x.reshape(-1,
nb_channels * self.nb_bins))`` (``:133``, GB0033) when ``max_bin`` is the numpy integer of
``bandwidth_to_max_bin`` (the hub factories, ``train.py``); ``expectation_maximization``'s
``pos = int(t[-1]) + 1`` (``filtering.py:282``, GB0124, in its ``while``: GB7000);
``_covariance``'s indexing by the rows of ``torch.cartesian_prod`` (``for index in
indices: ... y_j[:, :, index[0], :]``, ``:494``, GB0033 ``_local_scalar_dense``, in the loop:
GB7000); ``_mul_add`` hitting the recompile limit (``:50``, ``Separator_wiener_win8[train]``);
``utils.preprocess``' ``if shape.min() <= 2:`` (``utils.py:279``, GB0170) and ``if rate !=
model_rate:`` against the separator's ``sample_rate`` buffer (``:296``, GB0170); and
``data._augment_channelswap``'s ``torch.tensor(1.0).uniform_() < 0.5`` in an ``if``
(``data.py:99``, GB0170, in ``Compose``'s loop: GB7000). Six recompile locations
(``_mul_add``, ``_conj``, ``_invert``, ``wiener`` and its resume function,
``expectation_maximization``'s list comprehension: new frame counts per Wiener window and per
EM batch). First numbers with the frozen linter (``/tmp/lint-start56``): graph-break
statement recall 0.50 (4/8), precision 1.00 (5/5), 19 findings (all in files run), 14
unjudged (2 shadowed: the ``int()`` of the second EM ``while`` and of ``Separator.forward``'s
window loop; 12 not reached: ``make_filterbanks``' ``nn.Parameter`` at construction, the file
and JSON I/O of ``load_target_models`` / ``load_separator``, ``preprocess``' ``warnings.warn``
branches). Missed: ``data.py:99``, ``filtering.py:50`` (recompile limit), ``filtering.py:494``
and ``utils.py:296``; no false alarm; none of the 6 recompile locations has a finding.
(``model.py:133`` is counted found though no finding sits on its line.)

Left out: ``umxl`` (``hidden_size=1024``: 28M parameters per target); ``filterbank="asteroid"``
(asteroid_filterbanks' code, measured by its own adapter; this adapter keeps the torch
backend); ``preprocess``' resampling (``torchaudio.transforms.Resample``: the stand-in
raises); ``pretrained=True``, ``utils.load_target_models`` / ``load_separator`` (downloads or
model folders on disk); the data sets and ``load_audio`` / ``load_info`` (torchaudio, musdb),
``cli.py`` and ``evaluate.py`` (musdb, museval), ``train.py``'s ``get_statistics`` (scikit-learn
over a data set); ``utils.AverageMeter`` / ``EarlyStopping`` (Python bookkeeping, not model
code). To keep the capture short: the tests' full sizes (1024 bins x 100 frames; 4096-point
STFTs on the tiny entries) and the remaining ``test_wiener.py`` combinations (the same code as
the entries kept).
"""

import functools

PACKAGE = "openunmix"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None

_B = 2
_SR = 16000.0
_NFFT, _NHOP = 128, 32          # 65 bins
_T = 1024                       # 33 frames (center=True), 29 (center=False)
_BINS = _NFFT // 2 + 1
_HIDDEN = 32                    # tests/test_model.py: hidden_size=32, nb_layers=1


def _stubs():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchaudio": (("load", "save", "info", "get_audio_backend", "set_audio_backend"), ()),
            "torchaudio.transforms": ((), ("Resample",)),
        },
        "openunmix imports",
    )


def before_build():
    _stubs()


def warm_up():
    _stubs()
    import torch  # noqa: F401

    import openunmix  # noqa: F401
    import openunmix.data  # noqa: F401
    import openunmix.model  # noqa: F401
    import openunmix.predict  # noqa: F401


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    from openunmix import data, filtering, model, predict, transforms

    class SpecLoss(nn.Module):
        """``scripts/train.py``'s loss on spectrograms: ``mse_loss(unmix(X), Y)``."""

        def __init__(self, unmix):
            super().__init__()
            self.unmix = unmix

        def forward(self, X, Y):
            return F.mse_loss(self.unmix(X), Y)

    class TrainStep(nn.Module):
        """``scripts/train.py``'s ``train()`` step: ``encoder = Sequential(stft, ComplexNorm(mono))``
        (``make_filterbanks`` with its default ``center=False``), ``Y_hat = unmix(encoder(x))``,
        ``mse_loss(Y_hat, encoder(y))``; ``augment``: the dataset's source augmentations
        (``data.aug_from_str(["gain", "channelswap"])``) on each source of each example, the
        mixture their sum and the target the first source (as ``MUSDBDataset.__getitem__``)."""

        def __init__(self, unmix, nb_channels, augment=False, n_fft=_NFFT, n_hop=_NHOP):
            super().__init__()
            stft, _ = transforms.make_filterbanks(n_fft=n_fft, n_hop=n_hop, sample_rate=_SR)
            self.encoder = nn.Sequential(stft, model.ComplexNorm(mono=nb_channels == 1))
            self.unmix = unmix
            self.augment = data.aug_from_str(["gain", "channelswap"]) if augment else None

        def forward(self, x, y=None):
            if self.augment is not None:  # x: (batch, sources, channels, time)
                mixes, targets = [], []
                for example in x:
                    audio_sources = [self.augment(source) for source in example]
                    stems = torch.stack(audio_sources, dim=0)
                    mixes.append(stems.sum(0))
                    targets.append(stems[0])
                x, y = torch.stack(mixes), torch.stack(targets)
            X = self.encoder(x)
            Y_hat = self.unmix(X)
            Y = self.encoder(y)
            return F.mse_loss(Y_hat, Y)

    class Gain(nn.Module):
        """A learned scalar gain on the input, then a parameter-free library transform or
        function (so training has a parameter)."""

        def __init__(self, fn, **kwargs):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))
            self.fn, self.kwargs = fn, kwargs

        def forward(self, x, *rest):
            return self.fn(x * self.scale, *rest, **self.kwargs)

    class Roundtrip(nn.Module):
        """``tests/test_transforms.py``: ``stft`` then ``istft(X, length=...)``."""

        def __init__(self, n_fft, n_hop, center):
            super().__init__()
            self.stft, self.istft = transforms.make_filterbanks(n_fft=n_fft, n_hop=n_hop, center=center)
            self.scale = nn.Parameter(torch.ones(()))

        def forward(self, audio):
            X = self.stft(audio * self.scale)
            return self.istft(X, length=audio.shape[-1])

    class Wiener(nn.Module):
        """``filtering.wiener(targets, mix, ...)`` (``tests/test_wiener.py``), the target
        spectrograms scaled by a learned gain."""

        def __init__(self, **kwargs):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))
            self.kwargs = kwargs

        def forward(self, targets, mix):
            return filtering.wiener(targets * self.scale, mix, **self.kwargs)

    class EM(nn.Module):
        """``filtering.expectation_maximization(y, x, iterations, batch_size=...)`` on initial
        estimates scaled by a learned gain: returns ``(y, v, R)``."""

        def __init__(self, **kwargs):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))
            self.kwargs = kwargs

        def forward(self, y, x):
            return filtering.expectation_maximization(y * self.scale, x, **self.kwargs)

    class Covariance(nn.Module):
        """The EM's building blocks: ``_covariance`` of a source estimate, summed over frames,
        plus a regularizer, inverted with ``_invert`` (2x2 analytic, or 1x1)."""

        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))

        def forward(self, y_j):
            C = filtering._covariance(y_j * self.scale).sum(0)
            nb_channels = C.shape[-2]
            eye = torch.eye(nb_channels)[..., None] * torch.tensor([1.0, 0.0])
            return filtering._invert(C + eye)

    class SeparatorLoss(nn.Module):
        """A ``Separator`` trained end to end: the MSE of its waveform estimates
        ``(batch, targets, channels, time)`` against target stems."""

        def __init__(self, separator):
            super().__init__()
            self.separator = separator

        def forward(self, audio, stems):
            return F.mse_loss(self.separator(audio), stems)

    class Separate(nn.Module):
        """``predict.separate(audio, rate, separator=..., aggregate_dict=...)``: ``utils.preprocess``
        (a (channels, time) clip -> (1, 2, time), mono duplicated to stereo), the separator,
        ``Separator.to_dict`` (with the aggregation of targets into new ones)."""

        def __init__(self, separator, aggregate_dict=None):
            super().__init__()
            self.separator = separator
            self.aggregate_dict = aggregate_dict

        def forward(self, audio):
            return predict.separate(audio, rate=_SR, separator=self.separator,
                                    aggregate_dict=self.aggregate_dict)

    return {"SpecLoss": SpecLoss, "TrainStep": TrainStep, "Gain": Gain, "Roundtrip": Roundtrip,
            "Wiener": Wiener, "EM": EM, "Covariance": Covariance, "SeparatorLoss": SeparatorLoss,
            "Separate": Separate}


# --- inputs ---------------------------------------------------------------------------------

def _spec(chs=2, bins=_BINS, frames=16):
    """A magnitude spectrogram ``(nb_samples, nb_channels, nb_bins, nb_frames)``."""
    import torch

    return torch.rand(_B, chs, bins, frames)


def _audio(chs=2, t=_T, batch=_B):
    import torch

    return torch.rand(batch, chs, t) * 2 - 1


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


# --- builders --------------------------------------------------------------------------------

def _unmix(chs=2, stats=False, **kwargs):
    """``model.OpenUnmix`` as ``tests/test_model.py`` builds it (tiny); ``stats``: the input
    scaler's mean and std as numpy arrays (``scripts/train.py``'s ``get_statistics``)."""
    import numpy as np

    from openunmix import model

    if stats:
        rng = np.random.default_rng(0)
        kwargs.update(input_mean=rng.random(_BINS), input_scale=np.maximum(rng.random(_BINS), 1e-4))
    cfg = dict(nb_bins=_BINS, nb_channels=chs, hidden_size=_HIDDEN, nb_layers=1)
    cfg.update(kwargs)
    return model.OpenUnmix(**cfg)


def _open_unmix(chs=2, **kwargs):
    """Eval: the filtered spectrogram. Train: ``scripts/train.py``'s MSE against a target
    spectrogram."""

    def make(mode):
        unmix = _unmix(chs, **kwargs)
        if mode == "train":
            return _modules()["SpecLoss"](unmix), (_spec(chs), _spec(chs)), {}
        return unmix, (_spec(chs),), {}

    return make


def _max_bin():
    """``utils.bandwidth_to_max_bin`` at ``scripts/train.py``'s bandwidth scaled down: 6 kHz of 8
    (a numpy integer, passed on as ``train.py`` does)."""
    from openunmix import utils

    return utils.bandwidth_to_max_bin(_SR, _NFFT, 6000.0)


def _train_step(chs=2, augment=False, max_bin=False, **kwargs):
    """``scripts/train.py``'s step (its loss in both modes; eval is ``valid()``)."""

    def make(mode):
        import torch

        cfg = dict(kwargs, max_bin=_max_bin()) if max_bin else kwargs
        net = _modules()["TrainStep"](_unmix(chs, **cfg), chs, augment=augment)
        if augment:
            return net, (torch.rand(_B, 4, chs, _T) * 2 - 1,), {}
        return net, (_audio(chs), _audio(chs)), {}

    return make


def _encoder(center, mono):
    """``tests/test_regression.py``'s encoder: ``Sequential(stft, ComplexNorm(mono))``."""

    def make(mode):
        from torch import nn

        from openunmix import model, transforms

        stft, _ = transforms.make_filterbanks(n_fft=_NFFT, n_hop=_NHOP, center=center, sample_rate=_SR)
        enc = nn.Sequential(stft, model.ComplexNorm(mono=mono))
        return _wrap(_modules()["Gain"](enc), mode), (_audio(),), {}

    return make


def _roundtrip(n_fft, div, center=True):
    def make(mode):
        import torch

        net = _modules()["Roundtrip"](n_fft, n_fft // div, center)
        return _wrap(net, mode), (torch.rand(_B, 2, 2048),), {}

    return make


def _istft_sources(mode):
    """``TorchISTFT`` on a 6-d ``(batch, targets, channels, bins, frames, 2)`` STFT with
    ``length``, as the ``Separator`` calls it."""
    import torch

    from openunmix import transforms

    _, istft = transforms.make_filterbanks(n_fft=_NFFT, n_hop=_NHOP, center=True)
    X = torch.randn(_B, 3, 2, _BINS, 33, 2)
    return _wrap(_modules()["Gain"](istft, length=_T), mode), (X,), {}


def _complex_norm(mono):
    def make(mode):
        import torch

        from openunmix import model

        spec = torch.randn(_B, 2, _BINS, 16, 2)
        return _wrap(_modules()["Gain"](model.ComplexNorm(mono=mono)), mode), (spec,), {}

    return make


def _wiener(frames=10, bins=10, chs=2, sources=2, dtype=None, **kwargs):
    """``tests/test_wiener.py``: targets ``(frames, bins, channels, sources)``, mix
    ``(frames, bins, channels, 2)``."""

    def make(mode):
        import torch

        net = _modules()["Wiener"](**kwargs)
        targets, mix = torch.rand(frames, bins, chs, sources), torch.rand(frames, bins, chs, 2)
        if dtype:
            targets, mix = targets.to(getattr(torch, dtype)), mix.to(getattr(torch, dtype))
            net = net.to(getattr(torch, dtype))
        return _wrap(net, mode), (targets, mix), {}

    return make


def _em(frames=10, bins=10, chs=2, sources=2, **kwargs):
    def make(mode):
        import torch

        y = torch.randn(frames, bins, chs, 2, sources)
        x = y.sum(-1) + 0.1 * torch.randn(frames, bins, chs, 2)
        return _wrap(_modules()["EM"](**kwargs), mode), (y, x), {}

    return make


def _atan2(mode):
    """``filtering.atan2`` (the Wiener filter's own arctangent) on a grid with exact zeros."""
    import torch

    from openunmix import filtering

    y = torch.randn(_B, 64)
    x = torch.randn(_B, 64)
    x[:, :8] = 0.0
    y[:, :4] = 0.0
    return _wrap(_modules()["Gain"](filtering.atan2), mode), (y, x), {}


def _covariance(chs):
    def make(mode):
        import torch

        return _wrap(_modules()["Covariance"](), mode), (torch.randn(10, 12, chs, 2),), {}

    return make


def _separator(targets=("vocals", "drums"), chs=2, layers=1, t=_T, **kwargs):
    """``model.Separator`` over tiny ``OpenUnmix`` target models (``tests/test_jit.py``'s
    construction, ``filterbank="torch"``). Eval: the waveform estimates. Train: their MSE
    against target stems (end to end through the Wiener filter and the iSTFT)."""

    def make(mode):
        import torch

        from openunmix import model

        models = {name: _unmix(chs, nb_layers=layers) for name in targets}
        sep = model.Separator(models, n_fft=_NFFT, n_hop=_NHOP, nb_channels=chs, sample_rate=_SR,
                              filterbank="torch", **kwargs)
        audio = _audio(chs, t)
        if mode == "train":
            n = len(targets) + (1 if kwargs.get("residual") else 0)
            stems = torch.rand(_B, n, chs, t) * 2 - 1
            return _modules()["SeparatorLoss"](sep), (audio, stems), {}
        return sep, (audio,), {}

    return make


def _separate(chs_in, aggregate):
    """``predict.separate`` with a given separator: a ``(channels, time)`` clip in, a dict of
    target waveforms out (``aggregate``: README's vocals / accompaniment aggregation)."""

    def make(mode):
        from openunmix import model

        names = ("vocals", "drums", "bass")
        models = {name: _unmix(2) for name in names}
        sep = model.Separator(models, niter=1, n_fft=_NFFT, n_hop=_NHOP, nb_channels=2, sample_rate=_SR)
        agg = {"vocals": ["vocals"], "accompaniment": ["drums", "bass"]} if aggregate else None
        net = _modules()["Separate"](sep, aggregate_dict=agg)
        return _wrap(net, mode), (_audio(chs_in, batch=1)[0],), {}

    return make


def _hub(name, t=4096, chs=2, **kwargs):
    """``openunmix.<name>(pretrained=False, ...)``: the hub factories at their full size,
    random weights."""

    def make(mode):
        import torch

        import openunmix

        sep = getattr(openunmix, name)(pretrained=False, device="cpu", **kwargs)
        audio = _audio(chs, t)
        if mode == "train":
            n = sep.nb_targets + (1 if kwargs.get("residual") else 0)
            return _modules()["SeparatorLoss"](sep), (audio, torch.rand(_B, n, chs, t) * 2 - 1), {}
        return sep, (audio,), {}

    return make


MODELS = {
    # --- the spectrogram model ---
    "OpenUnmix": _open_unmix(),
    "OpenUnmix_mono": _open_unmix(chs=1),
    "OpenUnmix_unidirectional": _open_unmix(unidirectional=True),
    "OpenUnmix_3layers": _open_unmix(nb_layers=3),
    "OpenUnmix_max_bin_stats": _open_unmix(max_bin=40, stats=True),
    # --- scripts/train.py's training step ---
    "TrainStep": _train_step(max_bin=True, stats=True),
    "TrainStep_mono": _train_step(chs=1),
    "TrainStep_unidirectional_3layers": _train_step(unidirectional=True, nb_layers=3),
    "TrainStep_augmented": _train_step(augment=True),
    # --- transforms ---
    "Encoder_center": _encoder(center=True, mono=False),
    "Encoder_mono_no_center": _encoder(center=False, mono=True),
    "STFT_ISTFT_roundtrip": _roundtrip(256, 2),
    "STFT_ISTFT_roundtrip_hop4": _roundtrip(128, 4),
    "TorchISTFT_sources": _istft_sources,
    "ComplexNorm": _complex_norm(mono=False),
    "ComplexNorm_mono": _complex_norm(mono=True),
    # --- filtering ---
    "wiener": _wiener(iterations=0),
    "wiener_softmask_residual": _wiener(iterations=0, softmask=True, residual=True),
    "wiener_em1": _wiener(iterations=1),
    "wiener_em2_mono_residual": _wiener(chs=1, sources=1, iterations=2, residual=True),
    "wiener_softmask_3src_float64": _wiener(sources=3, softmask=True, iterations=1, dtype="float64"),
    "expectation_maximization_batched": _em(frames=10, iterations=1, batch_size=4),
    "atan2": _atan2,
    "covariance_invert_stereo": _covariance(2),
    "covariance_invert_mono": _covariance(1),
    # --- Separator ---
    "Separator": _separator(niter=1),
    "Separator_niter0_one_target": _separator(targets=("vocals",), niter=0),
    "Separator_residual": _separator(targets=("vocals",), niter=1, residual=True),
    "Separator_softmask": _separator(niter=0, softmask=True),
    "Separator_mono": _separator(targets=("speech", "noise"), chs=1, niter=1),
    "Separator_wiener_win8": _separator(niter=1, wiener_win_len=8),
    "Separator_no_win_niter2_3layers": _separator(targets=("vocals", "drums", "bass"), niter=2,
                                                  wiener_win_len=None, layers=3),
    "separate": _separate(2, aggregate=False),
    "separate_mono_aggregate": _separate(1, aggregate=True),
    # --- hub factories, random weights ---
    "umxse": _hub("umxse", chs=1),
    "umx_vocals_residual": _hub("umx", targets=["vocals"], residual=True, niter=1),
    "umxhq_niter0": _hub("umxhq", targets=["vocals", "drums"], niter=0),
}
