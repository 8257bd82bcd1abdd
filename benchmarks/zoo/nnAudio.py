"""nnAudio 0.3.4 (KinWaiCheuk): its spectrogram layers (``nnAudio.features``), each a
``nn.Module`` of Fourier / CQT kernels made with numpy and scipy at construction, with the options
its docs and tests use, tiny (batch 2, 8192 samples at 16 kHz; n_fft 256-512, 24-72 CQT bins),
random weights, no download:

- ``STFT``: ``output_format`` "Complex" (the default), "Magnitude" and "Phase" (that one given to
  ``forward``), ``freq_scale`` "log" / "linear" (``fmin``, ``fmax``, ``freq_bins``), a
  ``hamming`` window, ``win_length`` < ``n_fft``, ``center=False``, ``pad_mode="constant"``,
  ``trainable`` kernels, and the round trip through ``iSTFT=True`` and ``STFT.inverse``;
- ``iSTFT`` (``onesided``, ``length``; trainable kernels and window for training);
- ``MelSpectrogram`` (htk, power 1, no filter normalisation, ``win_length``; trainable mel
  filters and STFT), ``MFCC`` (``top_db`` on and off), ``Gammatonegram`` (trainable bins/STFT);
- the CQTs: ``CQT1992`` (trainable STFT and CQT kernels, complex output), ``CQT1992v2`` and its
  alias ``CQT`` (magnitude, complex, phase; trainable kernels, ``normalization_type`` "wrap" and
  "convolutional", ``pad_mode="constant"``), ``CQT2010``, ``CQT2010v2`` (with and without
  ``earlydownsample``), ``VQT`` (``gamma``);
- ``CFP`` and ``Combined_Frequency_Periodicity`` (the combined frequency / periodicity feature);
- small models that use them as a front end, as its README suggests: a mel-spectrogram CNN
  (trainable mel and STFT), an MFCC GRU, a CQT CNN (trainable kernels) and a spectral-mask speech
  enhancer (complex STFT, a mask network, ``STFT.inverse``).

Eval: the layer's output (or the classifier logits / enhanced waveform). Train: the layer as the
front end of a linear classifier over its time-averaged (log) features, cross-entropy against
fixed labels (``classifier_loss_module``); the inverses train to reconstruct the waveform (L1).

    pip install --no-deps nnAudio==0.3.4          # (+ numpy, scipy: above)

It imports torch, numpy and scipy. Nothing stubbed; one compatibility alias: ``CFP`` calls
``scipy.signal.blackmanharris``, which scipy 1.13 removed (it lives in ``scipy.signal.windows``):
the factories set ``scipy.signal.blackmanharris = scipy.signal.windows.blackmanharris`` if it is
missing, as a user of the installed scipy must.

Left out: ``Griffin_Lim`` (it hands ``torch.istft`` a real ``(..., 2)`` tensor, which torch >= 2.0
rejects: it fails eagerly), the deprecated ``nnAudio.Spectrogram`` module (the same classes), and
the layers' ``device=`` / ``verbose=`` arguments (CPU; ``verbose=False`` where taken, to keep the
construction prints out of the logs). ``CQT1992`` and ``CQT2010`` take no ``verbose``.
"""

import functools

PACKAGE = "nnAudio"

_B, _SR, _LEN, _CLASSES = 2, 16000, 8192, 3
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite


def _features():
    """``nnAudio.features``, after restoring the scipy alias that ``CFP`` needs."""
    import scipy.signal
    import scipy.signal.windows

    if not hasattr(scipy.signal, "blackmanharris"):
        scipy.signal.blackmanharris = scipy.signal.windows.blackmanharris
    from nnAudio import features

    return features


def warm_up():
    import torch  # noqa: F401

    _features()


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn

    class FeatureClassifier(nn.Module):
        """A spectrogram layer as a classifier's front end: its output averaged over time
        (complex / phase outputs: the last axis folded into the channels), ``log`` of magnitudes,
        then a linear layer. ``forward_kwargs`` go to the layer's forward."""

        def __init__(self, layer, features, log=True, **forward_kwargs):
            super().__init__()
            self.layer, self.log, self.forward_kwargs = layer, log, forward_kwargs
            self.fc = nn.Linear(features, _CLASSES)

        def forward(self, x):
            out = self.layer(x, **self.forward_kwargs)
            if isinstance(out, tuple):
                out = out[0]
            if out.dim() == 4:
                out = out.movedim(-1, 1).flatten(1, 2)
            if self.log:
                out = torch.log(out.clamp(min=1e-6))
            return self.fc(out.mean(-1))

    class WithKwargs(nn.Module):
        """The layer called with forward keyword arguments (eval of the same as the above)."""

        def __init__(self, layer, **forward_kwargs):
            super().__init__()
            self.layer, self.forward_kwargs = layer, forward_kwargs

        def forward(self, x):
            return self.layer(x, **self.forward_kwargs)

    class RoundTrip(nn.Module):
        """``STFT(iSTFT=True)``: the complex spectrogram, then ``stft.inverse`` back to the
        waveform (``length`` the input's); train: the L1 reconstruction error."""

        def __init__(self, stft, loss=False):
            super().__init__()
            self.stft, self.loss = stft, loss

        def forward(self, x):
            spec = self.stft(x, output_format="Complex")
            y = self.stft.inverse(spec, onesided=True, length=x.shape[-1])
            return (y - x).abs().mean() if self.loss else y

    class Inverse(nn.Module):
        """``iSTFT(spec, onesided=True, length=...)``; train: the L1 reconstruction error."""

        def __init__(self, istft, loss=False):
            super().__init__()
            self.istft, self.loss = istft, loss

        def forward(self, spec, audio):
            y = self.istft(spec, onesided=True, length=audio.shape[-1])
            return (y - audio).abs().mean() if self.loss else y

    class MelCNN(nn.Module):
        """A log-mel CNN classifier (trainable mel filters and STFT)."""

        def __init__(self, F):
            super().__init__()
            self.spec = F.MelSpectrogram(sr=_SR, n_fft=512, n_mels=40, hop_length=128, trainable_mel=True,
                                         trainable_STFT=True, verbose=False)
            self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
            self.fc = nn.Linear(16, _CLASSES)

        def forward(self, x):
            s = torch.log(self.spec(x) + 1e-6).unsqueeze(1)
            return self.fc(self.conv(s).flatten(1))

    class MFCCGRU(nn.Module):
        """MFCC frames through a GRU; the last hidden state classified."""

        def __init__(self, F):
            super().__init__()
            self.mfcc = F.MFCC(sr=_SR, n_mfcc=13, n_fft=512, n_mels=40, hop_length=128, verbose=False)
            self.norm = nn.LayerNorm(13)
            self.gru = nn.GRU(13, 32, batch_first=True)
            self.fc = nn.Linear(32, _CLASSES)

        def forward(self, x):
            feats = self.norm(self.mfcc(x).transpose(1, 2))  # (batch, frames, n_mfcc)
            _, h = self.gru(feats)
            return self.fc(h[-1])

    class CQTCNN(nn.Module):
        """A log-CQT CNN classifier (trainable CQT kernels)."""

        def __init__(self, F):
            super().__init__()
            self.cqt = F.CQT1992v2(sr=_SR, hop_length=128, fmin=55, n_bins=48, bins_per_octave=12, trainable=True,
                                   verbose=False)
            self.conv = nn.Sequential(nn.Conv2d(1, 8, (5, 3), padding=(2, 1)), nn.ReLU(), nn.AdaptiveMaxPool2d((4, 4)))
            self.fc = nn.Linear(8 * 16, _CLASSES)

        def forward(self, x):
            s = torch.log1p(self.cqt(x)).unsqueeze(1)
            return self.fc(self.conv(s).flatten(1))

    class MaskEnhancer(nn.Module):
        """Spectral masking: the complex STFT, a mask from a small network over the log
        magnitude, the masked spectrogram back through ``STFT.inverse``; train: the L1 error
        against a clean target."""

        def __init__(self, F, loss=False):
            super().__init__()
            self.stft = F.STFT(n_fft=256, hop_length=64, iSTFT=True, output_format="Complex", verbose=False)
            self.mask = nn.Sequential(nn.Conv1d(129, 64, 3, padding=1), nn.ReLU(), nn.Conv1d(64, 129, 3, padding=1),
                                      nn.Sigmoid())
            self.loss = loss

        def forward(self, noisy, clean=None):
            spec = self.stft(noisy)  # (batch, freq, frames, 2)
            mag = spec.pow(2).sum(-1).add(1e-8).sqrt()
            m = self.mask(torch.log(mag))
            enhanced = self.stft.inverse(spec * m.unsqueeze(-1), onesided=True, length=noisy.shape[-1])
            if self.loss:
                return (enhanced - clean).abs().mean()
            return enhanced

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _audio():
    """``(batch, samples)``: a chirp and a two-tone chord with a little noise, at 16 kHz."""
    import math

    import torch

    t = torch.arange(_LEN) / _SR
    chirp = torch.sin(2 * math.pi * (110 * t + 1500 * t ** 2))
    chord = 0.5 * torch.sin(2 * math.pi * 220 * t) + 0.5 * torch.sin(2 * math.pi * 330 * t)
    return torch.stack([chirp, chord]) + 0.01 * torch.randn(_B, _LEN)


# --- models ------------------------------------------------------------------------------------

def _layer(build, log=True, **forward_kwargs):
    """A spectrogram layer: eval, the layer (forward kwargs through ``WithKwargs``); train,
    ``FeatureClassifier`` over it (``log``: take the log of its magnitudes)."""

    def make(mode):
        import torch

        layer = build(_features())
        x = _audio()
        if mode == "train":
            with torch.no_grad():
                out = layer(x, **forward_kwargs)
            out = out[0] if isinstance(out, tuple) else out
            features = out.shape[1] * (out.shape[-1] if out.dim() == 4 else 1)
            net = _nets().FeatureClassifier(layer, features, log=log, **forward_kwargs)
            return classifier_loss_module()(net, _B, _CLASSES), (x,), {}
        if forward_kwargs:
            return _nets().WithKwargs(layer, **forward_kwargs), (x,), {}
        return layer, (x,), {}

    return make


def _roundtrip(mode):
    F = _features()
    stft = F.STFT(n_fft=256, hop_length=64, iSTFT=True, trainable=mode == "train", verbose=False)
    return _nets().RoundTrip(stft, loss=mode == "train"), (_audio(),), {}


def _istft(mode):
    import torch

    F = _features()
    audio = _audio()
    with torch.no_grad():
        spec = F.STFT(n_fft=256, hop_length=64, verbose=False)(audio)
    train = mode == "train"
    istft = F.iSTFT(n_fft=256, hop_length=64, trainable_kernels=train, trainable_window=train, verbose=False)
    return _nets().Inverse(istft, loss=train), (spec, audio), {}


def _classifier(name):
    def make(mode):
        net = getattr(_nets(), name)(_features())
        if mode == "train":
            return classifier_loss_module()(net, _B, _CLASSES), (_audio(),), {}
        return net, (_audio(),), {}

    return make


def _enhancer(mode):
    net = _nets().MaskEnhancer(_features(), loss=mode == "train")
    noisy = _audio()
    if mode == "train":
        return net, (noisy, noisy - 0.01 * noisy.sign()), {}
    return net, (noisy,), {}


_NO = dict(verbose=False)

MODELS = {
    # STFT
    "STFT_complex": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, **_NO), log=False),
    "STFT_magnitude_hamming": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, window="hamming",
                                                      output_format="Magnitude", **_NO)),
    "STFT_phase": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, **_NO), log=False, output_format="Phase"),
    "STFT_log_freq": _layer(lambda F: F.STFT(n_fft=512, hop_length=128, freq_bins=64, freq_scale="log", fmin=50,
                                             fmax=6000, sr=_SR, output_format="Magnitude", **_NO)),
    "STFT_linear_freq": _layer(lambda F: F.STFT(n_fft=512, hop_length=128, freq_bins=64, freq_scale="linear",
                                                fmin=50, fmax=6000, sr=_SR, output_format="Magnitude", **_NO)),
    "STFT_win_length": _layer(lambda F: F.STFT(n_fft=512, win_length=400, hop_length=128,
                                               output_format="Magnitude", **_NO)),
    "STFT_no_center": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, center=False,
                                              output_format="Magnitude", **_NO)),
    "STFT_constant_pad": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, pad_mode="constant",
                                                 output_format="Magnitude", **_NO)),
    "STFT_trainable": _layer(lambda F: F.STFT(n_fft=256, hop_length=64, trainable=True,
                                              output_format="Magnitude", **_NO)),
    "STFT_inverse_roundtrip": _roundtrip,
    "iSTFT": _istft,
    # mel, MFCC, gammatone
    "MelSpectrogram": _layer(lambda F: F.MelSpectrogram(sr=_SR, n_fft=512, n_mels=40, hop_length=128, **_NO)),
    "MelSpectrogram_htk_power1": _layer(lambda F: F.MelSpectrogram(sr=_SR, n_fft=512, win_length=400, n_mels=32,
                                                                   hop_length=160, power=1.0, htk=True, fmin=20.0,
                                                                   fmax=7600.0, norm=None, **_NO)),
    "MelSpectrogram_trainable": _layer(lambda F: F.MelSpectrogram(sr=_SR, n_fft=512, n_mels=40, hop_length=128,
                                                                  trainable_mel=True, trainable_STFT=True, **_NO)),
    "MFCC": _layer(lambda F: F.MFCC(sr=_SR, n_mfcc=13, n_fft=512, n_mels=40, hop_length=128, **_NO), log=False),
    "MFCC_no_top_db": _layer(lambda F: F.MFCC(sr=_SR, n_mfcc=20, top_db=None, n_fft=256, n_mels=32, hop_length=64,
                                              **_NO), log=False),
    "Gammatonegram": _layer(lambda F: F.Gammatonegram(sr=_SR, n_fft=512, n_bins=32, hop_length=128, **_NO)),
    "Gammatonegram_trainable": _layer(lambda F: F.Gammatonegram(sr=_SR, n_fft=512, n_bins=32, hop_length=128,
                                                                power=1.0, trainable_bins=True, trainable_STFT=True,
                                                                **_NO)),
    # constant-Q and variable-Q transforms
    "CQT1992": _layer(lambda F: F.CQT1992(sr=_SR, hop_length=128, fmin=220, n_bins=24)),
    "CQT1992_complex_trainable": _layer(lambda F: F.CQT1992(sr=_SR, hop_length=128, fmin=220, n_bins=24,
                                                            output_format="Complex", trainable_STFT=True,
                                                            trainable_CQT=True), log=False),
    "CQT1992v2": _layer(lambda F: F.CQT1992v2(sr=_SR, hop_length=128, fmin=55, n_bins=48, **_NO)),
    "CQT1992v2_complex": _layer(lambda F: F.CQT1992v2(sr=_SR, hop_length=128, fmin=55, n_bins=48,
                                                      output_format="Complex", **_NO), log=False),
    "CQT1992v2_trainable_wrap": _layer(lambda F: F.CQT1992v2(sr=_SR, hop_length=128, fmin=55, n_bins=48,
                                                             trainable=True, **_NO), normalization_type="wrap"),
    "CQT_phase_constant_pad": _layer(lambda F: F.CQT(sr=_SR, hop_length=128, fmin=55, n_bins=72, bins_per_octave=24,
                                                     pad_mode="constant", output_format="Phase", **_NO), log=False),
    "CQT2010": _layer(lambda F: F.CQT2010(sr=_SR, hop_length=128, fmin=55, n_bins=48, verbose=False)),
    "CQT2010v2": _layer(lambda F: F.CQT2010v2(sr=_SR, hop_length=128, fmin=55, n_bins=48, **_NO)),
    "CQT2010v2_complex_no_early_downsample": _layer(
        lambda F: F.CQT2010v2(sr=_SR, hop_length=128, fmin=55, n_bins=48, earlydownsample=False, trainable=True,
                              output_format="Complex", **_NO), log=False, normalization_type="convolutional"),
    "VQT": _layer(lambda F: F.VQT(sr=_SR, hop_length=128, fmin=55, n_bins=48, gamma=5, **_NO)),
    "VQT_complex_trainable": _layer(lambda F: F.VQT(sr=_SR, hop_length=128, fmin=55, n_bins=48, gamma=2,
                                                    earlydownsample=False, trainable=True, output_format="Complex",
                                                    **_NO), log=False),
    # combined frequency and periodicity
    "CFP": _layer(lambda F: F.CFP(fr=2, fs=_SR, hop_length=320, window_size=1025)),
    "Combined_Frequency_Periodicity": _layer(lambda F: F.Combined_Frequency_Periodicity(fr=2, fs=_SR, hop_length=320,
                                                                                        window_size=1025)),
    # models with a spectrogram front end
    "MelCNN_classifier": _classifier("MelCNN"),
    "MFCC_GRU_classifier": _classifier("MFCCGRU"),
    "CQT_CNN_classifier": _classifier("CQTCNN"),
    "STFT_mask_enhancer": _enhancer,
}
