"""torch-audiomentations 0.12.0 (asteroid-team): GPU-friendly waveform data augmentation as
``nn.Module`` transforms, used as its README and docstrings use them: the augmentation inside a
user's ``nn.Module`` in a compiled training step, in front of a small audio network and its loss.
Tiny: batches of 4 clips of 4000 samples at 16 kHz (mono; stereo for the per-channel, channel
shuffling and README models), random weights, no download. Each augmentation with ``p=1.0`` (the
transform always applies) and with its default ``p`` (0.5: a random subset of the batch), in the
modes ``per_example`` (default), ``per_channel`` and ``per_batch``:

- ``Gain`` (p=1 with ``output_type="dict"``; default p and the default, deprecated tensor output;
  ``per_channel`` on stereo; ``per_batch``; with frame-level ``targets`` and ``target_rate``),
  ``PolarityInversion`` (p=1, default p), ``AddColoredNoise`` (p=1, default p, a fixed white noise
  at a fixed SNR ``per_channel``, and as the corruption of a denoising loss), ``BandPassFilter``,
  ``BandStopFilter``, ``HighPassFilter``, ``LowPassFilter`` (p=1 and default p; and a fixed cutoff,
  the cached ``julius.LowPassFilter`` path), ``Shift`` (fraction with rollover, p=1 and default p;
  samples without rollover; seconds ``per_batch``), ``TimeInversion`` (p=1; default p with
  targets), ``PeakNormalization`` (p=1; ``apply_to="only_too_loud_sounds"`` on loud clips),
  ``ShuffleChannels`` (stereo), ``SpliceOut``, ``Identity``, and the transforms the package has but
  does not export at its top: ``Mix`` (with targets, ``mix_target="union"``; ``"original"``),
  ``Padding`` and ``RandomCrop`` (a plain ``nn.Module``: it crops in eval too);
- compositions: the README's ``Compose([Gain(p=0.5), PolarityInversion(p=0.5)])`` on stereo,
  ``Compose(shuffle=True)`` with a plain ``nn.Module`` among the transforms, ``SomeOf((1, None),
  ...)``, ``SomeOf(2, ...)``, ``OneOf``, a ``Compose`` built by ``from_dict`` (its docstring's
  config), a ``Compose`` carrying targets, and ``freeze_parameters`` / ``unfreeze_parameters``
  (the same random augmentation on the noisy and the clean clip of a speech-enhancement pair, as
  the docstring suggests);
- ``convolve`` (``torch_audiomentations.utils.convolution``, exported at the top): an FFT
  convolution with an in-memory impulse response (what ``ApplyImpulseResponse`` does with a file).

Eval: the wrapper in ``.eval()``: every ``BaseWaveformTransform`` returns its input unchanged when
not training (the library's own switch), then the network's logits. Train: the augmentation
applies, then a small ``Conv1d`` classifier and its cross-entropy against fixed labels (plus a
frame-level BCE against the augmented targets where targets are passed, an MSE against the clean
clip for the denoising models): torch-audiomentations has no loss of its own.

    pip install --no-deps torch-audiomentations==0.12.0 julius==0.2.8 torch-pitch-shift==1.2.5 primePy==1.3

The package imports torch, julius, torch_pitch_shift (``PitchShift``) and torchaudio (``utils.io``:
audio-file loading) at its top; torch_pitch_shift imports torchaudio, primePy and packaging
(there). Stubbed (``stub_modules``): ``torchaudio``, ``torchaudio.functional`` and
``torchaudio.transforms``: torchaudio pulls torch and may not be installed (its wheels do not load
into torch 2.13 anyway, see braindecode's adapter).

Left out, each failing eagerly without torchaudio: ``PitchShift`` (its forward is
``torch_pitch_shift.pitch_shift``, ``torchaudio.transforms.Resample`` and ``TimeStretch``),
``AddBackgroundNoise`` and ``ApplyImpulseResponse`` (they accept only ``.wav`` paths and read them
with ``torchaudio.info`` / ``torchaudio.load`` inside the forward); ``from_yaml`` (needs PyYAML, the
same as ``from_dict``). Measured first as it came, before any rule looked at it.

First numbers (torch 2.13.0+cpu, frozen linter ``/tmp/lint-start89``, stop 89): 44 models, 88 runs,
all built, none failed; graph-break statement recall 0.48 (10/21), precision 1.00 (14/14), 39
findings (27 in files run), 13 unjudged. The breaks are all in the train runs' random-parameter and
per-example code: ``torch.distributions.Uniform(..., validate_args=True)`` (Dynamo skips
``constraints.is_dependent``), the ``should_apply`` boolean mask (``.any()`` branch, masked
indexing: ``nonzero``), ``.item()`` in per-example loops (filters, ``shift_cpu``, ``Padding``,
``RandomCrop``), ``random.random`` / ``shuffle`` / ``sample`` in the compositions.
"""

PACKAGE = "torch_audiomentations"
DISTRIBUTION = "torch-audiomentations"

mean_loss_module = None  # adapter.py's, set by ZooSuite
classifier_loss_module = None
stub_modules = None

_B = 4  # batch
_SR = 16000  # sample rate
_N = 4000  # samples per clip (0.25 s)
_CLASSES = 3
_FRAMES = 10  # frame-level targets: 40 frames per second
_K = 2  # target classes per frame


def _stubs():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchaudio": (("info", "load"), ()),
            "torchaudio.functional": (("resample",), ()),
            "torchaudio.transforms": ((), ("Resample", "TimeStretch")),
        },
        "torch_audiomentations / torch_pitch_shift import",
    )


def before_build():
    _stubs()


def warm_up():
    _stubs()
    import warnings

    import torch  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch_audiomentations  # noqa: F401
        import torch_audiomentations.augmentations.mix  # noqa: F401
        import torch_audiomentations.augmentations.padding  # noqa: F401
        import torch_audiomentations.augmentations.random_crop  # noqa: F401


def _quiet(fn):
    """Build without the FutureWarning / DeprecationWarning about ``output_type``."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


# --- the user's modules ------------------------------------------------------------------------

def _net(channels, classes=_CLASSES):
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv1d(channels, 8, kernel_size=64, stride=16),
        nn.ReLU(),
        nn.Conv1d(8, 8, kernel_size=3, stride=2),
        nn.ReLU(),
        nn.AdaptiveAvgPool1d(1),
        nn.Flatten(),
        nn.Linear(8, classes),
    )


def _classes():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class AugmentedClassifier(nn.Module):
        """The augmentation on the raw waveforms, then a classifier; in training its cross-entropy.
        ``dict_out``: the transform was built with ``output_type="dict"`` (``augment(x).samples``);
        ``pass_rate``: the sample rate is given at call time (else it was given at construction)."""

        def __init__(self, augment, channels=1, dict_out=True, pass_rate=True, crop=False):
            super().__init__()
            self.augment = augment
            self.net = _net(channels)
            self.dict_out = dict_out
            self.pass_rate = pass_rate
            self.register_buffer("labels", torch.arange(_B) % _CLASSES)

        def forward(self, samples):
            if self.pass_rate:
                out = self.augment(samples, sample_rate=_SR)
            else:
                out = self.augment(samples)
            x = out.samples if self.dict_out else out
            logits = self.net(x)
            if not self.training:
                return logits
            return F.cross_entropy(logits, self.labels)

    class AugmentedTagger(nn.Module):
        """Frame-level targets (batch, channels, frames, classes) augmented with the clip (pyannote
        style): a clip classifier and a frame head; in training CE + BCE on the augmented targets."""

        def __init__(self, augment):
            super().__init__()
            self.augment = augment
            self.net = _net(1)
            hop = _N // _FRAMES
            self.frames = nn.Conv1d(1, _K, kernel_size=hop, stride=hop)
            self.register_buffer("labels", torch.arange(_B) % _CLASSES)

        def forward(self, samples, targets):
            out = self.augment(samples, sample_rate=_SR, targets=targets, target_rate=_SR * _FRAMES // _N)
            x, y = out.samples, out.targets
            logits = self.net(x)
            frame_logits = self.frames(x).transpose(1, 2).unsqueeze(1)  # (B, 1, F, K)
            if not self.training:
                return logits, frame_logits
            return F.cross_entropy(logits, self.labels) + F.binary_cross_entropy_with_logits(frame_logits, y)

    class Denoiser(nn.Module):
        """Speech enhancement on an augmented pair: ``noisy`` is the clean clip corrupted by the
        augmentation; a conv net predicts the clean clip, MSE loss."""

        def __init__(self, augment, channels=1):
            super().__init__()
            self.augment = augment
            self.net = nn.Sequential(
                nn.Conv1d(channels, 8, 9, padding=4), nn.ReLU(), nn.Conv1d(8, channels, 9, padding=4)
            )

        def forward(self, clean):
            noisy = self.augment(clean, sample_rate=_SR).samples
            est = self.net(noisy)
            if not self.training:
                return est
            return F.mse_loss(est, clean)

    class FrozenPairDenoiser(nn.Module):
        """The same random augmentation on both clips of a (noisy, clean) pair: augment the noisy
        clip, freeze the parameters, augment the clean one with them, unfreeze (the docstring's use
        of ``freeze_parameters``)."""

        def __init__(self, augment):
            super().__init__()
            self.augment = augment
            self.net = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.ReLU(), nn.Conv1d(8, 1, 9, padding=4))

        def forward(self, noisy, clean):
            noisy = self.augment(noisy, sample_rate=_SR).samples
            self.augment.freeze_parameters()
            clean = self.augment(clean, sample_rate=_SR).samples
            self.augment.unfreeze_parameters()
            est = self.net(noisy)
            if not self.training:
                return est
            return F.mse_loss(est, clean)

    class Reverb(nn.Module):
        """``convolve`` with an impulse response kept in memory, cut back to the clip's length."""

        def __init__(self, mode):
            super().__init__()
            ir = torch.randn(1, 1, 256) * torch.exp(-torch.arange(256.0) / 40)
            ir[..., 0] = 1.0
            self.register_buffer("ir", ir)
            self.mode = mode

        def forward(self, samples, sample_rate=None):
            from torch_audiomentations import convolve

            out = convolve(samples, self.ir.expand(-1, samples.shape[1], -1), mode=self.mode)
            return out[..., : samples.shape[-1]]

    return AugmentedClassifier, AugmentedTagger, Denoiser, FrozenPairDenoiser, Reverb


def _clips(channels=1, scale=0.5):
    import torch

    return torch.rand(_B, channels, _N) * 2 * scale - scale


def _targets():
    import torch

    return (torch.rand(_B, 1, _FRAMES, _K) > 0.5).float()


def _classify(build, channels=1, dict_out=True, pass_rate=True, scale=0.5):
    def make(mode):
        Classifier = _classes()[0]
        augment = _quiet(build)
        return Classifier(augment, channels, dict_out, pass_rate), (_clips(channels, scale),), {}

    return make


def _tag(build):
    def make(mode):
        Tagger = _classes()[1]
        return Tagger(_quiet(build)), (_clips(), _targets()), {}

    return make


def _ta(name):
    import torch_audiomentations

    return getattr(torch_audiomentations, name)


def _aug(name, **kw):
    """A transform built lazily from the package's top (``output_type="dict"`` unless given)."""
    kw.setdefault("output_type", "dict")
    return lambda: _ta(name)(**kw)


def _mod(module, name, **kw):
    import importlib

    kw.setdefault("output_type", "dict")
    return lambda: getattr(importlib.import_module(f"torch_audiomentations.augmentations.{module}"), name)(**kw)


# --- compositions --------------------------------------------------------------------------------

def _readme_compose():
    from torch_audiomentations import Compose, Gain, PolarityInversion

    return Compose(
        transforms=[Gain(min_gain_in_db=-15.0, max_gain_in_db=5.0, p=0.5), PolarityInversion(p=0.5)],
        output_type="dict",
    )


def _compose_shuffle():
    import torch.nn as nn
    from torch_audiomentations import Compose, Gain, LowPassFilter, PolarityInversion

    class Clip(nn.Module):  # a plain nn.Module among the transforms (Compose feeds it the samples)
        def forward(self, x):
            return x.clamp(-1.0, 1.0)

    return Compose(
        [Gain(p=1.0), PolarityInversion(), LowPassFilter(p=1.0), Clip()], shuffle=True, output_type="dict"
    )


def _some_of_range():
    from torch_audiomentations import AddColoredNoise, Gain, HighPassFilter, PolarityInversion, SomeOf

    return SomeOf(
        (1, None), [Gain(p=1.0), PolarityInversion(p=1.0), AddColoredNoise(p=1.0), HighPassFilter(p=1.0)],
        output_type="dict",
    )


def _some_of_two():
    from torch_audiomentations import Gain, Shift, SomeOf, TimeInversion

    return SomeOf(2, [Gain(), Shift(), TimeInversion()], output_type="dict")


def _one_of():
    from torch_audiomentations import BandPassFilter, BandStopFilter, LowPassFilter, OneOf

    return OneOf([BandPassFilter(p=1.0), BandStopFilter(p=1.0), LowPassFilter(p=1.0)], output_type="dict")


def _from_dict():
    from torch_audiomentations import from_dict

    compose = from_dict(
        {
            "transform": "Compose",
            "params": {
                "transforms": [
                    {"transform": "Gain", "params": {"min_gain_in_db": -12.0, "mode": "per_channel"}},
                    {"transform": "PolarityInversion"},
                ],
                "shuffle": True,
            },
        }
    )
    compose.output_type = "dict"
    return compose


def _compose_targets():
    from torch_audiomentations import Compose, Gain, TimeInversion
    from torch_audiomentations.augmentations.mix import Mix

    return Compose([Gain(p=1.0), TimeInversion(p=1.0), Mix(p=1.0)], output_type="dict")


def _frozen_compose():
    from torch_audiomentations import Compose, Gain, Shift

    return Compose([Gain(p=1.0), Shift(p=1.0, rollover=False)], output_type="dict")


def _denoise(build):
    def make(mode):
        Denoiser = _classes()[2]
        return Denoiser(_quiet(build)), (_clips(),), {}

    return make


def _frozen_pair(mode):
    FrozenPairDenoiser = _classes()[3]
    return FrozenPairDenoiser(_quiet(_frozen_compose)), (_clips(), _clips()), {}


def _reverb(conv_mode):
    def make(mode):
        from torch_audiomentations import Compose, Gain

        Reverb = _classes()[4]
        augment = _quiet(lambda: Compose([Reverb(conv_mode), Gain(p=1.0)], output_type="dict"))
        Classifier = _classes()[0]
        return Classifier(augment), (_clips(),), {}

    return make


def _random_crop(mode):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch_audiomentations.augmentations.random_crop import RandomCrop

    class CropThenClassify(nn.Module):
        def __init__(self):
            super().__init__()
            self.crop = RandomCrop(max_length=2000, sampling_rate=_SR, max_length_unit="samples")
            self.net = _net(1)
            self.register_buffer("labels", torch.arange(_B) % _CLASSES)

        def forward(self, samples):
            logits = self.net(self.crop(samples, _SR))
            if not self.training:
                return logits
            return F.cross_entropy(logits, self.labels)

    return CropThenClassify(), (_clips(),), {}


MODELS = {
    # Gain
    "Gain_p1": _classify(_aug("Gain", p=1.0)),
    "Gain_default": _classify(lambda: _ta("Gain")(), dict_out=False),  # the deprecated tensor output
    "Gain_per_channel_stereo": _classify(_aug("Gain", p=1.0, mode="per_channel"), channels=2),
    "Gain_per_batch": _classify(_aug("Gain", min_gain_in_db=-6.0, max_gain_in_db=6.0, p=1.0, mode="per_batch")),
    "Gain_targets": _tag(_aug("Gain", p=1.0)),
    # PolarityInversion
    "PolarityInversion_p1": _classify(_aug("PolarityInversion", p=1.0)),
    "PolarityInversion_default": _classify(_aug("PolarityInversion")),
    # AddColoredNoise
    "AddColoredNoise_p1": _classify(_aug("AddColoredNoise", p=1.0)),
    "AddColoredNoise_default": _classify(_aug("AddColoredNoise", sample_rate=_SR), pass_rate=False),
    "AddColoredNoise_white_fixed_per_channel": _classify(
        _aug("AddColoredNoise", min_snr_in_db=10.0, max_snr_in_db=10.0, min_f_decay=0.0, max_f_decay=0.0,
             mode="per_channel", p=1.0), channels=2),
    "AddColoredNoise_denoise": _denoise(_aug("AddColoredNoise", p=1.0)),
    # filters
    "BandPassFilter_p1": _classify(_aug("BandPassFilter", p=1.0)),
    "BandPassFilter_default": _classify(_aug("BandPassFilter", sample_rate=_SR), pass_rate=False),
    "BandStopFilter_p1": _classify(_aug("BandStopFilter", p=1.0)),
    "HighPassFilter_p1": _classify(_aug("HighPassFilter", p=1.0)),
    "HighPassFilter_default": _classify(_aug("HighPassFilter")),
    "LowPassFilter_p1": _classify(_aug("LowPassFilter", p=1.0)),
    "LowPassFilter_default": _classify(_aug("LowPassFilter")),
    "LowPassFilter_fixed_cutoff": _classify(_aug("LowPassFilter", min_cutoff_freq=2000.0, max_cutoff_freq=2000.0,
                                                 p=1.0)),
    # Shift
    "Shift_p1": _classify(_aug("Shift", p=1.0)),
    "Shift_default": _classify(_aug("Shift")),
    "Shift_samples_no_rollover": _classify(_aug("Shift", min_shift=-400, max_shift=400, shift_unit="samples",
                                                rollover=False, p=1.0)),
    "Shift_seconds_per_batch": _classify(_aug("Shift", min_shift=-0.05, max_shift=0.05, shift_unit="seconds",
                                              mode="per_batch", p=1.0)),
    # TimeInversion, PeakNormalization, ShuffleChannels, SpliceOut, Identity
    "TimeInversion_p1": _classify(_aug("TimeInversion", p=1.0)),
    "TimeInversion_default_targets": _tag(_aug("TimeInversion")),
    "PeakNormalization_p1": _classify(_aug("PeakNormalization", p=1.0)),
    "PeakNormalization_too_loud": _classify(_aug("PeakNormalization", apply_to="only_too_loud_sounds"), scale=2.0),
    "ShuffleChannels_p1_stereo": _classify(_aug("ShuffleChannels", p=1.0), channels=2),
    "SpliceOut_p1": _classify(_aug("SpliceOut", num_time_intervals=4, max_width=20, p=1.0)),
    "Identity": _classify(_aug("Identity", p=1.0)),
    # not exported at the package's top
    "Mix_p1_targets_union": _tag(_mod("mix", "Mix", p=1.0)),
    "Mix_default_original": _classify(_mod("mix", "Mix", mix_target="original")),
    "Padding_p1": _classify(_mod("padding", "Padding", p=1.0)),
    "RandomCrop": _random_crop,
    # compositions
    "Compose_readme_stereo": _classify(_readme_compose, channels=2),
    "Compose_shuffle_plain_module": _classify(_compose_shuffle),
    "SomeOf_1_to_all": _classify(_some_of_range),
    "SomeOf_2": _classify(_some_of_two),
    "OneOf_filters": _classify(_one_of),
    "Compose_from_dict": _classify(_from_dict, channels=2),
    "Compose_targets": _tag(_compose_targets),
    "Compose_frozen_pair": _frozen_pair,
    "convolve_reverb_full": _reverb("full"),
    "convolve_reverb_same": _reverb("same"),
}
