"""torchcrepe 0.0.24 (Max Morrison): the CREPE pitch tracker in PyTorch, as its README's usage
section and its own tests (``tests/test_core.py``, ``test_filter.py``, ``test_threshold.py``,
``test_decode.py``) use it, tiny (batches of 2 clips of 2400 samples at 16 kHz, hop 800: 4 padded
frames of 1024 samples each), random weights, no download:

- the ``Crepe`` module itself, ``"full"`` and ``"tiny"`` capacity, on preprocessed frames (the
  tests' ``infer``), to the sigmoid activations and to the fifth max-pool embedding
  (``embed=True``);
- ``preprocess`` + ``infer`` as the README's "model output activations" snippet uses them
  (``next(torchcrepe.preprocess(audio, sr, hop_length))``): padded, unpadded with a
  ``batch_size`` (the generator's loop over batches), and 8 kHz audio resampled with resampy
  (one clip: ``resample`` squeezes the batch dimension);
- ``predict`` (its ``no_grad`` pipeline: preprocess, infer, postprocess) with each decoder:
  ``viterbi`` (the default: numpy + ``librosa.sequence.viterbi``), ``argmax``,
  ``weighted_argmax`` (a Python loop over batch and frames), the README's speech settings
  (``fmin=50``, ``fmax=550``, 5 ms hop, ``return_periodicity=True``), and ``"full"`` capacity;
- ``embed`` (``test_embed_tiny`` / ``test_embed_full``);
- ``postprocess`` on the network's own activations (``argmax`` / ``viterbi``, with periodicity);
- the README's filtering and thresholding chain after ``predict``: ``filter.median`` of the
  periodicity, ``threshold.At(.21)``, ``filter.mean`` of the pitch;
- ``filter.mean`` / ``filter.median`` on signals with NaNs (``test_filter.py``, windows 3 and 9)
  and the deprecated ``nanfilter`` with ``nanmean`` / ``nanmedian`` the tests compare against;
- ``threshold.At`` (``test_at``), ``threshold.Hysteresis`` (numpy, with ``return_threshold``),
  ``threshold.Silence`` and ``loudness.a_weighted`` (librosa STFT and A-weighting; at 16 kHz and
  at 8 kHz through resampy; one clip: they squeeze the batch dimension).

The pipeline entries bind a randomly initialised ``Crepe`` where ``torchcrepe.load.model`` would
bind the packaged weights (``torchcrepe.infer.model`` / ``infer.capacity``), so ``infer`` never
loads ``assets/*.pth``; the wrapper module owns that ``Crepe``, so it follows eval / train.

Eval: the output (pitch, periodicity, activations, embeddings). Train: the sum of the means of
the float outputs (``mean_loss_module``; the library has no loss; ``predict`` and
``postprocess`` run without gradients by design).

    pip install --no-deps torchcrepe==0.0.24
    pip install --no-deps resampy==0.4.3   # (+ librosa 0.11.0, scipy 1.17.1, numba, tqdm 4.70.1:
                                           #  installed)

Stubbed (``stub_modules``): ``torchaudio`` (``torchcrepe.load`` imports it at its top for
``torchaudio.load``, used only to read audio files): the only torchaudio wheel on PyPI does not
load its compiled ops into torch 2.13, so it is not installed; no model reads a file. And
librosa's audio I/O back ends ``soundfile``, ``audioread`` and ``soxr`` (``librosa.core.audio``
imports them at its top, loaded by ``librosa.stft`` in ``loudness.a_weighted``): compiled or
binary-bundling, not installed; no model loads audio or resamples with soxr (torchcrepe
resamples with resampy).

Capture (torch 2.13.0+cpu): 27 models, 54 runs, all built; 48 ran under Dynamo, 6 failed under
Dynamo itself (``loudness_a_weighted_16k`` / ``_8k`` and ``threshold_Silence``, both modes:
``AssertionError: Expected np.nditer base, got DummyArray`` tracing numpy inside librosa's
``util.frame`` (``np.moveaxis`` of an ``as_strided`` view) under ``librosa.stft``). 36 of the 48
runs break; the ``Crepe`` module itself (full and tiny, embed or not), ``filter.mean`` /
``filter.median``, ``nanfilter`` with ``nanmean`` and ``threshold.At`` have none. The breaks:
``infer`` storing ``infer.model = infer.model.to(device)`` on a function attribute (GB0467,
under ``preprocess``'s generator loop: GB7000), ``viterbi`` / ``a_weighted`` caching on
function attributes (GB0467), ``.cpu().numpy()`` and the Python loops of ``weighted_argmax``,
``Hysteresis`` (``np.nanmean``: GB0294; a data-dependent ``if`` in its ``while`` loop: GB0170, GB7000),
``nanmedian``'s boolean masks (GB0036) and recompiles on window sizes, and librosa / resampy
calls (GB0007). First numbers with the frozen linter (``/tmp/lint-end56``): graph-break
statement recall 0.55 (6/11), precision 1.00 (6/6), 11 findings (10 in files run), 4 unjudged
(2 shadowed, 2 condition not met). Misses: the three function-attribute stores
(``core.py:561``, ``decode.py:62``, ``loudness.py:46``) and ``Hysteresis``'s ``np.nanmean``
(``threshold.py:56``) and its data-dependent ``if`` in the ``while`` loop (``threshold.py:70``); no false alarm.
Measured first as it came, before any rule looked at it.

Left out: the ``*_from_file*`` functions and the command-line interface (audio files through
torchaudio, not installed; ``torch.save`` of the results), the packaged weights
(``load.model``: random weights instead), ``return_harmonicity`` (deprecated alias of
``return_periodicity``), ``device=`` (CPU), and the tests' full-size inputs (the 1001-frame test
clip and ``torch.rand(1, 44100)`` filters).
"""

import functools

PACKAGE = "torchcrepe"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None  # adapter.py's, set by ZooSuite

_B, _LEN, _SR, _HOP = 2, 2400, 16000, 800


def before_build():
    stub_modules({
        "torchaudio": (("load",), ()),
        "soundfile": (("read", "write", "info"), ("SoundFile", "SoundFileRuntimeError")),
        "audioread": (("audio_open", "available_backends"), ("AudioFile",)),
        "soxr": (("resample",), ()),
    }, "torchcrepe")


def warm_up():
    before_build()
    import torch  # noqa: F401

    import torchcrepe  # noqa: F401


@functools.cache
def _modules():
    import torch
    from torch import nn

    import torchcrepe

    class Pipeline(nn.Module):
        """A torchcrepe pipeline with a random ``Crepe`` bound where ``load.model`` binds the
        packaged weights."""

        def __init__(self, capacity, fn):
            super().__init__()
            self.crepe = torchcrepe.Crepe(capacity)
            torchcrepe.infer.capacity = capacity
            torchcrepe.infer.model = self.crepe
            self.capacity, self.fn = capacity, fn

        def forward(self, *args):
            return self.fn(self.capacity, *args)

    class Func(nn.Module):
        """A torchcrepe function with no model (filters, thresholds, loudness)."""

        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def forward(self, *args):
            return self.fn(*args)

    return {"Pipeline": Pipeline, "Func": Func}


def _audio(batch=_B, n=_LEN):
    import torch

    t = torch.arange(n) / _SR
    f0 = torch.tensor([220.0, 330.0, 440.0])[:batch, None]
    return torch.sin(2 * torch.pi * f0 * t) * 0.5 + 0.01 * torch.randn(batch, n)


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _crepe(capacity, embed=False):
    def make(mode):
        import torch

        import torchcrepe

        net = torchcrepe.Crepe(capacity)
        frames = torch.randn(_B * 4, torchcrepe.WINDOW_SIZE)
        return _wrap(net, mode), (frames,), ({"embed": True} if embed else {})

    return make


def _pipeline(capacity, fn, args):
    def make(mode):
        return _wrap(_modules()["Pipeline"](capacity, fn), mode), args(), {}

    return make


def _func(fn, args):
    def make(mode):
        return _wrap(_modules()["Func"](fn), mode), args(), {}

    return make


# --- pipeline bodies (capacity first) ---

def _pre_infer(cap, audio):
    import torchcrepe

    return torchcrepe.infer(next(torchcrepe.preprocess(audio, _SR, _HOP)), cap)


def _pre_infer_nopad_batched(cap, audio):
    import torch

    import torchcrepe

    outs = [torchcrepe.infer(frames, cap) for frames in torchcrepe.preprocess(audio, _SR, 400, 2, pad=False)]
    return torch.cat(outs)


def _pre_infer_resample(cap, audio):
    import torchcrepe

    return torchcrepe.infer(next(torchcrepe.preprocess(audio, 8000, 400)), cap)


def _predict(decoder, **kw):
    def fn(cap, audio):
        import torchcrepe

        return torchcrepe.predict(audio, _SR, kw.get("hop", _HOP),
                                  kw.get("fmin", 50.0), kw.get("fmax", torchcrepe.MAX_FMAX), cap,
                                  decoder=getattr(torchcrepe.decode, decoder),
                                  return_periodicity=kw.get("periodicity", False))

    return fn


def _embed(cap, audio):
    import torchcrepe

    return torchcrepe.embed(audio, _SR, _HOP, cap)


def _postprocess(decoder):
    def fn(cap, audio):
        import torchcrepe

        frames = next(torchcrepe.preprocess(audio, _SR, _HOP))
        probs = torchcrepe.infer(frames, cap)
        probs = probs.reshape(audio.size(0), -1, torchcrepe.PITCH_BINS).transpose(1, 2)
        return torchcrepe.postprocess(probs, 50.0, 550.0, getattr(torchcrepe.decode, decoder),
                                      return_periodicity=True)

    return fn


def _readme_filter_threshold(cap, audio):
    import torchcrepe

    pitch, periodicity = torchcrepe.predict(audio, _SR, 80, 50.0, 550.0, cap,
                                            decoder=torchcrepe.decode.viterbi, return_periodicity=True)
    periodicity = torchcrepe.filter.median(periodicity, 3)
    pitch = torchcrepe.threshold.At(.21)(pitch, periodicity)
    return torchcrepe.filter.mean(pitch, 3), periodicity


# --- function-only entries ---

def _nan_signal(n=400):
    def args():
        import torch

        x = torch.rand(_B, n) * 300 + 100
        x[torch.rand_like(x) < 0.1] = float("nan")
        return (x,)

    return args


def _filter(name, win):
    def fn(x):
        import torchcrepe

        return getattr(torchcrepe.filter, name)(x, win)

    return fn


def _nanfilter(name):
    def fn(x):
        import torchcrepe.filter as F

        return F.nanfilter(x, 3, getattr(F, name))

    return fn


def _at(pitch, periodicity):
    import torchcrepe

    return torchcrepe.threshold.At(.20)(pitch, periodicity)


def _at_args():
    import torch

    return torch.tensor([[100., 110., 120., 130., 140.]]).repeat(_B, 1), \
        torch.tensor([[.19, .22, .25, .17, .30]]).repeat(_B, 1)


def _hysteresis(pitch, periodicity):
    import torchcrepe

    return torchcrepe.threshold.Hysteresis(return_threshold=True)(pitch, periodicity)


def _hyst_args():
    import torch

    return torch.rand(1, 64) * 300 + 100, torch.rand(1, 64)


def _silence(periodicity, audio):
    import torchcrepe

    return torchcrepe.threshold.Silence(-60.)(periodicity, audio, _SR, _HOP)


def _silence_args():
    import torch

    audio = _audio(1)
    audio[:, : _LEN // 2] = 0.0
    return torch.rand(1, 1 + _LEN // _HOP), audio


def _loudness(sr):
    def fn(audio):
        import torchcrepe

        return torchcrepe.loudness.a_weighted(audio, sr, sr // 100)

    return fn


MODELS = {
    # --- the network ---
    "Crepe_full": _crepe("full"),
    "Crepe_tiny": _crepe("tiny"),
    "Crepe_full_embed": _crepe("full", embed=True),
    "Crepe_tiny_embed": _crepe("tiny", embed=True),
    # --- preprocess + infer ---
    "preprocess_infer_tiny": _pipeline("tiny", _pre_infer, lambda: (_audio(),)),
    "preprocess_infer_tiny_nopad_batched": _pipeline("tiny", _pre_infer_nopad_batched, lambda: (_audio(),)),
    "preprocess_infer_tiny_resample_8k": _pipeline("tiny", _pre_infer_resample, lambda: (_audio(1),)),
    # --- predict ---
    "predict_tiny_viterbi": _pipeline("tiny", _predict("viterbi"), lambda: (_audio(),)),
    "predict_tiny_argmax": _pipeline("tiny", _predict("argmax"), lambda: (_audio(),)),
    "predict_tiny_weighted_argmax": _pipeline("tiny", _predict("weighted_argmax"), lambda: (_audio(),)),
    "predict_tiny_speech_periodicity": _pipeline(
        "tiny", _predict("viterbi", hop=80, fmin=50.0, fmax=550.0, periodicity=True), lambda: (_audio(),)),
    "predict_full_argmax": _pipeline("full", _predict("argmax", periodicity=True), lambda: (_audio(),)),
    "embed_tiny": _pipeline("tiny", _embed, lambda: (_audio(),)),
    "embed_full": _pipeline("full", _embed, lambda: (_audio(),)),
    "postprocess_argmax": _pipeline("tiny", _postprocess("argmax"), lambda: (_audio(),)),
    "postprocess_viterbi": _pipeline("tiny", _postprocess("viterbi"), lambda: (_audio(),)),
    "readme_filter_threshold": _pipeline("tiny", _readme_filter_threshold, lambda: (_audio(),)),
    # --- filters, thresholds, loudness ---
    "filter_median_w3": _func(_filter("median", 3), _nan_signal()),
    "filter_median_w9": _func(_filter("median", 9), _nan_signal()),
    "filter_mean_w9": _func(_filter("mean", 9), _nan_signal()),
    "nanfilter_nanmean": _func(_nanfilter("nanmean"), _nan_signal(32)),
    "nanfilter_nanmedian": _func(_nanfilter("nanmedian"), _nan_signal(32)),
    "threshold_At": _func(_at, _at_args),
    "threshold_Hysteresis": _func(_hysteresis, _hyst_args),
    "threshold_Silence": _func(_silence, _silence_args),
    "loudness_a_weighted_16k": _func(_loudness(16000), lambda: (_audio(1),)),
    "loudness_a_weighted_8k": _func(_loudness(8000), lambda: (_audio(1),)),
}
