"""audio-diffusion-pytorch (archinetai, Flavio Schneider) 0.1.3: its diffusion models as its
README builds them (``DiffusionModel``, ``DiffusionUpsampler``, ``DiffusionVocoder``,
``DiffusionAE`` with audio-encoders-pytorch's ``MelE1d`` as the README does, ``DiffusionAR``), its
``UNetV0`` (over a-unet's ``XUNet``) and ``LTPlugin``, its diffusion methods and samplers used
as components (``VDiffusion`` / ``VSampler``, ``ARVDiffusion`` / ``ARVSampler``, ``VInpainter``
as the README's "Inpainting"), and ``MelSpectrogram``; tiny (batch 2, stereo unless named,
waveforms of 64 samples, U-Nets of 8-16 channels over three depths with factors 1/2/2, 2 heads x
8 attention features, 16 modulation features, a 4-token 16-feature embedding, 3 sampling steps),
random weights, no download.

Eval: the sampling loop a user runs after training: ``model.sample(noise, num_steps=3)`` (the
``@torch.no_grad`` ``VSampler`` loop with its tqdm progress bar), ``upsampler.sample(downsampled)``,
``vocoder.sample(mel_spectrogram)``, ``autoencoder.decode(latent)`` / ``encode(audio)``,
``DiffusionAR.sample(num_items, num_chunks, num_steps)`` (the start chunks, and the autoregressive
ladder when ``num_chunks > num_splits``), ``VInpainter(net)(source, mask, ...)``; a bare
``UNetV0`` / ``MelSpectrogram``: its forward. Train: the diffusion loss forward as the README
trains (``loss = model(audio); loss.backward()``): ``VDiffusion`` (v-objective MSE with sigmas from
the ``sigma_distribution``) or ``ARVDiffusion`` (a sigma per split as an extra channel), through
the wrappers (the upsampler's sinc ``downsample`` / ``upsample`` re-upsampling, the vocoder's mel
spectrogram and ``to_flat``, the autoencoder's encoder and injected channels); a sampler-only model
trains its net through ``VDiffusion``; ``mean_loss_module`` for a bare U-Net or ``MelSpectrogram``.

Models (29):
- ``DiffusionModel``: the README's unconditional generator (attention at the deepest level),
  mono with resnets only, cross-attention over a given ``embedding``, classifier-free guidance
  over a given embedding (``use_embedding_cfg``: train with ``embedding_mask_proba=0.1``, sample
  with ``embedding_scale=5.0``), the learned-transform ``LTPlugin(UNetV0, ...)`` net, a 2-D model
  (``dim=2`` on 16x16 maps), and ``sampler_t=VInpainter`` (``model.sample(source=..., mask=...,
  num_resamples=2)``);
- components: ``VDiffusion`` + ``VSampler`` on a ``UNetV0`` (default, and a
  ``UniformDistribution(0.2, 0.8)`` sigma distribution with a ``LinearSchedule(0.8, 0.0)``),
  ``VInpainter`` as the README's "Inpainting" (``show_progress=True``), ``ARVDiffusion`` +
  ``ARVSampler`` on a ``UNetV0`` without time conditioning;
- ``UNetV0`` alone: time-conditioned with attention, with embedding CFG (``embedding_scale``),
  without time conditioning or modulation (``SkipCat``), with injected context ``channels``;
- ``DiffusionUpsampler``: the README's (factor 4), mono factor 2 sampled with a
  ``torch.Generator``, factor 8 with attention;
- ``DiffusionVocoder``: the README's (``mel_normalize_log=True``), ``mel_normalize=True`` mono
  with explicit hop / window; ``MelSpectrogram`` alone (log, power-normalised);
- ``DiffusionAE``: the README's ``MelE1d`` + ``TanhBottleneck`` encoder (decode; encode, with the
  ``with_info=True`` loss), ``Encoder1d`` + ``NoiserBottleneck``, a user ``EncoderBase`` subclass
  with an ``AdapterBase`` adapter (mu-law), explicit ``latent_factor`` and a generator in ``decode``;
- ``DiffusionAR``: start chunks only, the autoregressive ladder (6 chunks of 4 splits), with
  attention and a progress bar.

    pip install --no-deps audio-diffusion-pytorch==0.1.3
    pip install --no-deps audio-encoders-pytorch==0.0.22 einops-exts==0.0.4

(already installed and used: a-unet 0.0.16, einops 0.8.2, tqdm 4.70.1, typing_extensions.)
audio_diffusion_pytorch imports torch, einops, tqdm, typing_extensions, a_unet and torchaudio;
its declared ``data-science-types`` (type stubs) is imported by nothing. audio-encoders-pytorch
(the README's encoder for ``DiffusionAE``) imports torch, einops, einops_exts and torchaudio.

Stubbed (``stub_modules``): ``torchaudio``: ``components.py`` (and audio-encoders-pytorch's
``modules.py``) has ``from torchaudio import transforms`` at its top for ``MelSpectrogram``; the
only torchaudio wheel on PyPI does not load its compiled ops into torch 2.13.0+cpu and it may
not be installed here. The two classes ``MelSpectrogram`` builds are given small pure-torch
stand-ins in the stub module (the adapter's code, not the library's), as the speechtokenizer
adapter does: ``transforms.Spectrogram`` (``torch.stft`` with a Hann window buffer,
``power=None``: the complex spectrum) and ``transforms.MelScale`` (HTK-scale triangular filter
bank buffer ``fb``, as ``torchaudio.functional.melscale_fbanks`` builds it, applied by
``matmul``). So the vocoder and mel-encoder models run the library's own ``MelSpectrogram``.

Left out: text conditioning (``use_text_conditioning=True``: a-unet's ``T5Embedder`` needs
``transformers`` and downloads ``t5-base``; classifier-free guidance and cross-attention over a
given ``embedding`` are in); ``XUNet`` (a-unet's, re-exported, measured with a-unet);
``use_modulation=False`` with time conditioning (refused by an assert); the README's full-size
configs (9 levels, 2**18 samples: minutes per run); ``VariationalBottleneck`` (audio-encoders'
code, not this library's); ``diffusion.clip`` (dynamic thresholding: a helper nothing calls).
Cut for capture time on a shared 2-core machine (each sampling run compiles the U-Net once per
step, 60-150 s a model; a first capture of 35 was stopped after 8 and these six removed, none of
them captured): ``show_progress=True`` on ``DiffusionModel`` (the progress path runs in
``VInpainter`` and ``DiffusionAR``), the uniform / linear schedule on ``DiffusionModel`` (kept on
``VDiffusion`` / ``VSampler``), CFG with its defaults (no mask, scale 1), ``VInpainter`` given
``x_noisy``, ``UNetV0`` under ``LTPlugin`` alone (kept inside ``DiffusionModel``), the vocoder
sampled with a generator (the generator path kept on the upsampler and the autoencoder).
Measured first as it came, before any rule looked at it.
"""

import functools

PACKAGE = "audio_diffusion_pytorch"
DISTRIBUTION = "audio-diffusion-pytorch"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite

_B, _C, _T, _STEPS = 2, 2, 64, 3
_UNET = dict(channels=[8, 16, 16], factors=[1, 2, 2], items=[1, 1, 1], attentions=[0, 0, 1],
             attention_heads=2, attention_features=8, modulation_features=16)
_EMB_LEN, _EMB_F = 4, 16


def _standins():
    """Pure-torch stand-ins for the two torchaudio transforms ``MelSpectrogram`` builds."""
    import math

    import torch
    from torch import nn

    class MelScale(nn.Module):
        def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201,
                     norm=None, mel_scale="htk"):
            super().__init__()
            f_max = f_max if f_max is not None else float(sample_rate // 2)
            all_freqs = torch.linspace(0, sample_rate // 2, n_stft)
            m_min = 2595.0 * math.log10(1.0 + f_min / 700.0)
            m_max = 2595.0 * math.log10(1.0 + f_max / 700.0)
            m_pts = torch.linspace(m_min, m_max, n_mels + 2)
            f_pts = 700.0 * (10.0 ** (m_pts / 2595.0) - 1.0)
            f_diff = f_pts[1:] - f_pts[:-1]
            slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
            down = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
            up = slopes[:, 2:] / f_diff[1:]
            fb = torch.clamp(torch.min(down, up), min=0.0)
            if norm == "slaney":
                enorm = 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])
                fb = fb * enorm.unsqueeze(0)
            self.register_buffer("fb", fb)

        def forward(self, specgram):
            return torch.matmul(specgram.transpose(-1, -2), self.fb).transpose(-1, -2)

    class Spectrogram(nn.Module):
        def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window_fn=torch.hann_window,
                     power=2.0, normalized=False, wkwargs=None, center=True, pad_mode="reflect",
                     onesided=True, return_complex=None):
            super().__init__()
            self.n_fft = n_fft
            self.win_length = win_length if win_length is not None else n_fft
            self.hop_length = hop_length if hop_length is not None else self.win_length // 2
            self.register_buffer("window", window_fn(self.win_length))
            self.power, self.normalized, self.center = power, normalized, center
            self.pad_mode, self.onesided = pad_mode or "reflect", onesided

        def forward(self, waveform):
            shape = waveform.size()
            waveform = waveform.reshape(-1, shape[-1])
            spec = torch.stft(waveform, self.n_fft, self.hop_length, self.win_length, self.window,
                              self.center, self.pad_mode, False, self.onesided, return_complex=True)
            spec = spec.reshape(shape[:-1] + spec.shape[-2:])
            if self.normalized:
                spec = spec / self.window.pow(2.0).sum().sqrt()
            if self.power is not None:
                spec = spec.abs().pow(self.power)
            return spec

    return MelScale, Spectrogram


def _stubs():
    import sys

    stub_modules(  # noqa: F821 (set by ZooSuite)
        {"torchaudio": (("load", "save"), ()), "torchaudio.transforms": ((), ())},
        "audio_diffusion_pytorch imports",
    )
    tr = sys.modules["torchaudio.transforms"]
    if getattr(tr, "__file__", None) is None and not hasattr(tr, "MelScale"):
        tr.MelScale, tr.Spectrogram = _standins()


def before_build():
    _stubs()


def warm_up():
    _stubs()
    import torch  # noqa: F401

    import audio_diffusion_pytorch  # noqa: F401
    import audio_encoders_pytorch  # noqa: F401


def _audio(c=_C, t=_T):
    import torch

    return torch.randn(_B, c, t)


def _embedding():
    import torch

    return torch.randn(_B, _EMB_LEN, _EMB_F)


def _unet(**over):
    return {**_UNET, **over}


def _pair(build, sample_call, train_call=None):
    """A model whose eval is a sampling call and whose train is the diffusion loss forward.
    ``build()`` -> model; ``sample_call(model)`` -> (callable, args, kwargs) for eval;
    ``train_call(model)`` -> (args, kwargs) of ``model(...)`` (default: ``model(audio)``)."""

    def make(mode):
        model = build()
        if mode == "train":
            args, kwargs = train_call(model) if train_call else ((_audio(),), {})
            return model, args, kwargs
        model.eval()
        return sample_call(model)

    return make


def _sample(**kwargs):
    return lambda m: (m.sample, (_audio(),), {"num_steps": _STEPS, **kwargs})


# DiffusionModel


def _dm(**kw):
    from audio_diffusion_pytorch import DiffusionModel, UNetV0, VDiffusion, VSampler

    cfg = dict(net_t=UNetV0, in_channels=_C, diffusion_t=VDiffusion, sampler_t=VSampler, **_UNET)
    cfg.update(kw)
    return DiffusionModel(**cfg)


def _dm_mono():
    return _dm(in_channels=1, attentions=[0, 0, 0], items=[1, 2, 2])


def _dm_mono_call(m):
    return m.sample, (_audio(1),), {"num_steps": _STEPS}


def _dm_cross():
    return _dm(cross_attentions=[0, 0, 1], embedding_features=_EMB_F)


def _dm_cfg():
    return _dm(use_embedding_cfg=True, embedding_max_length=_EMB_LEN, embedding_features=_EMB_F,
               cross_attentions=[0, 1, 1])


def _dm_lt():
    from audio_diffusion_pytorch import LTPlugin, UNetV0

    return _dm(net_t=LTPlugin(UNetV0, num_filters=4, window_length=8, stride=4))


def _dm_2d():
    return _dm(dim=2, in_channels=3)


def _image():
    import torch

    return torch.randn(_B, 3, 16, 16)


def _dm_inpaint():
    from audio_diffusion_pytorch import VInpainter

    return _dm(sampler_t=VInpainter)


def _inpaint_call(m):
    import torch

    source = _audio()
    mask = torch.randint(0, 2, source.shape, dtype=torch.bool)
    return m.sample, (), {"source": source, "mask": mask, "num_steps": _STEPS, "num_resamples": 2}


# components on a bare UNetV0


def _net(**kw):
    from audio_diffusion_pytorch import UNetV0

    cfg = dict(dim=1, in_channels=_C, **_UNET)
    cfg.update(kw)
    return UNetV0(**cfg)


def _vdiffusion(sampler_kw=None, diffusion_kw=None):
    def make(mode):
        from audio_diffusion_pytorch import VDiffusion, VSampler

        net = _net()
        if mode == "train":
            return VDiffusion(net=net, **(diffusion_kw or {})), (_audio(),), {}
        sampler = VSampler(net=net, **(sampler_kw or {}))
        return sampler, (_audio(),), {"num_steps": _STEPS}

    return make


def _vdiffusion_custom(mode):
    from audio_diffusion_pytorch import LinearSchedule, UniformDistribution

    return _vdiffusion(sampler_kw=dict(schedule=LinearSchedule(start=0.8, end=0.0)),
                       diffusion_kw=dict(sigma_distribution=UniformDistribution(vmin=0.2, vmax=0.8)))(mode)


def _vinpainter(mode):
    import torch
    from audio_diffusion_pytorch import VDiffusion, VInpainter

    net = _net()
    if mode == "train":
        return VDiffusion(net=net), (_audio(),), {}
    inpainter = VInpainter(net=net)
    source = _audio()
    mask = torch.randint(0, 2, source.shape, dtype=torch.bool)
    return inpainter, (), dict(source=source, mask=mask, num_steps=_STEPS, num_resamples=2, show_progress=True)


_AR_NET = dict(in_channels=_C + 1, out_channels=_C, use_time_conditioning=False, use_modulation=False)


def _arv(mode):
    from audio_diffusion_pytorch.diffusion import ARVDiffusion, ARVSampler

    net = _net(**_AR_NET)
    if mode == "train":
        return ARVDiffusion(net=net, length=_T, num_splits=4), (_audio(),), {}
    sampler = ARVSampler(net=net, in_channels=_C, length=_T, num_splits=4)
    return sampler, (), {"num_items": _B, "num_chunks": 4, "num_steps": 4}


# UNetV0 alone


def _sigmas():
    import torch

    return torch.rand(_B)


def _unet_model(build, call):
    def make(mode):
        net = build()
        args, kwargs = call()
        if mode == "train":
            return mean_loss_module()(net), args, kwargs  # noqa: F821 (set by ZooSuite)
        return net, args, kwargs

    return make


def _unet_inject_call():
    import torch

    return (_audio(), _sigmas()), {"channels": [None, torch.randn(_B, 4, _T // 2)]}


# DiffusionUpsampler


def _ups(factor=4, in_channels=_C, **kw):
    from audio_diffusion_pytorch import DiffusionUpsampler, UNetV0, VDiffusion, VSampler

    cfg = dict(net_t=UNetV0, upsample_factor=factor, in_channels=in_channels, diffusion_t=VDiffusion,
               sampler_t=VSampler, **_unet(attentions=[0, 0, 0]))
    cfg.update(kw)
    return DiffusionUpsampler(**cfg)


def _ups_call(factor, c=_C, generator=False):
    def call(m):
        import torch

        kwargs = {"num_steps": _STEPS}
        if generator:
            kwargs["generator"] = torch.Generator().manual_seed(0)
        return m.sample, (_audio(c, _T // factor),), kwargs

    return call


# DiffusionVocoder

_MEL = dict(mel_n_fft=32, mel_channels=8, mel_sample_rate=8000)


def _voc(**kw):
    from audio_diffusion_pytorch import DiffusionVocoder, UNetV0, VDiffusion, VSampler

    cfg = dict(net_t=UNetV0, diffusion_t=VDiffusion, sampler_t=VSampler, **_MEL,
               **_unet(attentions=[0, 0, 0]))
    cfg.update(kw)
    return DiffusionVocoder(**cfg)


def _voc_call(c=_C, generator=False):
    def call(m):
        import torch

        kwargs = {"num_steps": _STEPS}
        if generator:
            kwargs["generator"] = torch.Generator().manual_seed(0)
        # [batch, in_channels, mel_channels, mel_length]: hop 8 -> 8 frames make 64 samples
        return m.sample, (torch.randn(_B, c, 8, _T // 8),), kwargs

    return call


def _mel(**kw):
    def make(mode):
        from audio_diffusion_pytorch import MelSpectrogram

        net = MelSpectrogram(n_fft=32, hop_length=8, win_length=32, sample_rate=8000, n_mel_channels=8, **kw)
        x = _audio(_C, 128)
        if mode == "train":
            x.requires_grad_(True)
            return mean_loss_module()(net), (x,), {}  # noqa: F821 (set by ZooSuite)
        return net, (x,), {}

    return make


# DiffusionAE


def _ae_mel():
    from audio_diffusion_pytorch import DiffusionAE, UNetV0, VDiffusion, VSampler
    from audio_encoders_pytorch import MelE1d, TanhBottleneck

    # mel hop 2 x factor 2 = 4: the latent's length (16) is the U-Net's at inject_depth 2 (factors 1, 2, 2)
    encoder = MelE1d(in_channels=_C, channels=8, multipliers=[1, 1], factors=[2], num_blocks=[1],
                     out_channels=4, mel_channels=8, mel_n_fft=16, mel_hop_length=2, mel_win_length=16,
                     mel_sample_rate=8000, mel_normalize_log=True, bottleneck=TanhBottleneck())
    return DiffusionAE(encoder=encoder, inject_depth=2, net_t=UNetV0, in_channels=_C, diffusion_t=VDiffusion,
                       sampler_t=VSampler, **_unet(attentions=[0, 0, 0]))


def _ae_decode_call(m):
    import torch

    with torch.no_grad():
        latent = m.encode(_audio())
    return m.decode, (latent,), {"num_steps": _STEPS}


def _ae_encode(mode):
    import torch

    model = _ae_mel()
    if mode == "train":

        class WithInfo(torch.nn.Module):
            """A training step that asks for the encoder's info too: ``loss, info = ae(x, with_info=True)``."""

            def __init__(self, ae):
                super().__init__()
                self.ae = ae
                object.__setattr__(self, "__wrapped__", ae)

            def forward(self, x):
                loss, info = self.ae(x, with_info=True)
                return loss

        return WithInfo(model), (_audio(),), {}
    model.eval()
    return model.encode, (_audio(),), {}


def _ae_noiser():
    from audio_diffusion_pytorch import DiffusionAE, UNetV0, VDiffusion, VSampler
    from audio_encoders_pytorch import Encoder1d, NoiserBottleneck

    encoder = Encoder1d(in_channels=_C, channels=8, multipliers=[1, 2, 2], factors=[2, 2], num_blocks=[1, 1],
                        out_channels=4, bottleneck=NoiserBottleneck(sigma=0.1))
    return DiffusionAE(encoder=encoder, inject_depth=2, net_t=UNetV0, in_channels=_C, diffusion_t=VDiffusion,
                       sampler_t=VSampler, **_unet(attentions=[0, 0, 1]))


@functools.cache
def _ae_user_classes():
    import torch
    from audio_diffusion_pytorch import EncoderBase
    from audio_diffusion_pytorch.models import AdapterBase
    from torch import nn

    class StridedEncoder(EncoderBase):
        """A user encoder: "any encoder ... subclasses the ``EncoderBase`` class"."""

        def __init__(self, in_channels, out_channels, factor):
            super().__init__()
            self.out_channels, self.downsample_factor = out_channels, factor
            self.conv = nn.Conv1d(in_channels, out_channels, kernel_size=factor, stride=factor)

        def forward(self, x, with_info=False):
            latent = torch.tanh(self.conv(x))
            return (latent, {"latent_std": latent.std()}) if with_info else latent

    class MuLawAdapter(AdapterBase):
        """A fixed adapter into the diffusion space and back (mu-law companding)."""

        def __init__(self, mu=255.0):
            super().__init__()
            self.register_buffer("mu", torch.tensor(mu))

        def encode(self, x):
            return torch.sign(x) * torch.log1p(self.mu * x.abs()) / torch.log1p(self.mu)

        def decode(self, x):
            return torch.sign(x) * torch.expm1(x.abs() * torch.log1p(self.mu)) / self.mu

    return StridedEncoder, MuLawAdapter


def _ae_user():
    from audio_diffusion_pytorch import DiffusionAE, UNetV0, VDiffusion, VSampler

    StridedEncoder, MuLawAdapter = _ae_user_classes()
    return DiffusionAE(encoder=StridedEncoder(_C, 4, 2), inject_depth=1, latent_factor=2, adapter=MuLawAdapter(),
                       net_t=UNetV0, in_channels=_C, diffusion_t=VDiffusion, sampler_t=VSampler,
                       **_unet(attentions=[0, 0, 0]))


def _ae_user_call(m):
    import torch

    with torch.no_grad():
        latent = m.encode(_audio())
    return m.decode, (latent,), {"num_steps": _STEPS, "generator": torch.Generator().manual_seed(0)}


# DiffusionAR


def _ar(**kw):
    from audio_diffusion_pytorch import DiffusionAR, UNetV0

    cfg = dict(net_t=UNetV0, in_channels=_C, length=_T, num_splits=4, **_unet(attentions=[0, 0, 0]))
    cfg.pop("modulation_features")
    cfg.update(kw)
    return DiffusionAR(**cfg)


def _ar_call(num_chunks, **kw):
    return lambda m: (m.sample, (), {"num_items": _B, "num_chunks": num_chunks, "num_steps": 4, **kw})


MODELS = {
    # DiffusionModel (README: unconditional generator, and its variants)
    "DiffusionModel": _pair(_dm, _sample()),
    "DiffusionModel_mono_resnets": _pair(_dm_mono, _dm_mono_call, lambda m: ((_audio(1),), {})),
    "DiffusionModel_cross_attention": _pair(
        _dm_cross, lambda m: (m.sample, (_audio(),), {"embedding": _embedding(), "num_steps": _STEPS}),
        lambda m: ((_audio(),), {"embedding": _embedding()})),
    "DiffusionModel_cfg": _pair(
        _dm_cfg,
        lambda m: (m.sample, (_audio(),), {"embedding": _embedding(), "embedding_scale": 5.0, "num_steps": _STEPS}),
        lambda m: ((_audio(),), {"embedding": _embedding(), "embedding_mask_proba": 0.1})),
    "DiffusionModel_LTPlugin": _pair(_dm_lt, _sample()),
    "DiffusionModel_2d": _pair(_dm_2d, lambda m: (m.sample, (_image(),), {"num_steps": _STEPS}),
                               lambda m: ((_image(),), {})),
    "DiffusionModel_VInpainter": _pair(_dm_inpaint, _inpaint_call),
    # components
    "VDiffusion_VSampler": _vdiffusion(),
    "VDiffusion_VSampler_uniform_linear": _vdiffusion_custom,
    "VInpainter": _vinpainter,
    "ARVDiffusion_ARVSampler": _arv,
    # UNetV0 alone
    "UNetV0": _unet_model(_net, lambda: ((_audio(), _sigmas()), {})),
    "UNetV0_cfg": _unet_model(
        lambda: _net(use_embedding_cfg=True, embedding_max_length=_EMB_LEN, embedding_features=_EMB_F,
                     cross_attentions=[0, 1, 1]),
        lambda: ((_audio(), _sigmas()), {"embedding": _embedding(), "embedding_scale": 3.0})),
    "UNetV0_no_time_skipcat": _unet_model(lambda: _net(use_time_conditioning=False, use_modulation=False),
                                          lambda: ((_audio(),), {})),
    "UNetV0_inject_channels": _unet_model(lambda: _net(context_channels=[0, 4, 0]), _unet_inject_call),
    # DiffusionUpsampler
    "DiffusionUpsampler": _pair(lambda: _ups(4), _ups_call(4)),
    "DiffusionUpsampler_mono_generator": _pair(lambda: _ups(2, in_channels=1), _ups_call(2, c=1, generator=True),
                                               lambda m: ((_audio(1),), {})),
    "DiffusionUpsampler_factor8_attention": _pair(lambda: _ups(8, attentions=[0, 1, 1]), _ups_call(8)),
    # DiffusionVocoder and its MelSpectrogram
    "DiffusionVocoder": _pair(lambda: _voc(mel_normalize_log=True), _voc_call()),
    "DiffusionVocoder_normalize_mono": _pair(
        lambda: _voc(mel_normalize=True, mel_hop_length=8, mel_win_length=32), _voc_call(c=1),
        lambda m: ((_audio(1),), {})),
    "MelSpectrogram_log": _mel(normalize_log=True),
    "MelSpectrogram_normalize": _mel(normalize=True),
    # DiffusionAE
    "DiffusionAE_MelE1d": _pair(_ae_mel, _ae_decode_call),
    "DiffusionAE_MelE1d_encode_with_info": _ae_encode,
    "DiffusionAE_Encoder1d_noiser": _pair(_ae_noiser, _ae_decode_call),
    "DiffusionAE_user_encoder_adapter": _pair(_ae_user, _ae_user_call),
    # DiffusionAR (ARVDiffusion / ARVSampler)
    "DiffusionAR": _pair(_ar, _ar_call(4)),
    "DiffusionAR_ladder": _pair(_ar, _ar_call(6)),
    "DiffusionAR_attention_progress": _pair(lambda: _ar(attentions=[0, 0, 1]), _ar_call(4, show_progress=True)),
}
