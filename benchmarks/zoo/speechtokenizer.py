"""speechtokenizer 1.0.1 (Zhang, Zhang, Li, Zhou, Qiu): SpeechTokenizer, a SEANet encoder /
decoder speech codec with residual vector quantization whose first codebook is distilled from a
semantic teacher, built from small config dicts as ``SpeechTokenizer(cfg)`` takes them (the keys
of the repository's ``config/spt_base_cfg.json``), and its parts and discriminators as the
README's training section wires them; tiny (batches of 2 clips of 256 samples at 8 kHz; SEANet
with 4 base filters, strides ``[4, 2]`` (hop 8, so 32 frames), a 16-d latent, a 24-d semantic
projection; 4 codebooks of 32 bins), random weights, no checkpoint (``load_from_checkpoint`` is
never called):

- ``SpeechTokenizer``: its ``forward`` (``(o, commit_loss, feature)``; ELU with a bidirectional
  LSTM as the base config; Snake activation as the "snake" release; semantic dimension equal to
  the latent (``nn.Identity`` transform) with a 2-layer unidirectional LSTM; no LSTM (with
  ``bidirectional=False``: the encoder doubles its last width for ``bidirectional`` even without
  an LSTM, so ``lstm_layers=0`` with ``bidirectional=True`` fails in eager); a given ``n_q`` with
  ``layers=[0, 1]``); ``forward_feature`` (all layers; ``layers=[0, 2]``); ``encode``
  then ``decode`` (all codebooks; ``n_q=2``; ``st=1``); ``decode`` of given codes (and with
  ``st=1``); the README's semantic / acoustic token use (``codes[:1]`` and ``codes[1:]``,
  ``decode(torch.cat(...))``, ``decode(codes[i:j+1], st=i)``);
- ``modules``: ``SEANetEncoder`` (bidirectional LSTM; Snake; causal without LSTM;
  ``time_group_norm`` stereo), ``SEANetDecoder`` (default; causal with ``trim_right_ratio=0.5`` and
  a final ``Tanh``; Snake), ``SEANetResnetBlock`` (Snake, true skip), ``Snake1d``, ``SLSTM``
  (bidirectional; unidirectional without skip), ``SConv1d`` on a clip shorter than its padding,
  causal ``SConvTranspose1d``, ``NormConv2d`` (``weight_norm``);
- ``quantization``: ``ResidualVectorQuantizer`` (its defaults: k-means codebook init on the first
  batch, here 4 iterations; with ``layers``; without k-means init and dead-code expiry off;
  ``encode`` / ``decode`` with ``st``), ``core_vq.VectorQuantization`` with a ``codebook_dim``
  projection;
- ``discriminators``: ``DiscriminatorP`` (period 3), ``MultiPeriodDiscriminator``,
  ``DiscriminatorS`` (spectral norm), ``MultiScaleDiscriminator``, ``DiscriminatorSTFT`` and a
  small ``MultiScaleSTFTDiscriminator(4, n_ffts=[64, 32], ...)`` (the README builds it with 32
  filters and the 1024..128 FFT sizes; MPD / MSD take no size arguments: their 1024-channel
  convolutions are built as they are);
- ``trainer.loss``: ``mel_loss`` (``mel_spectrogram`` with its module-global caches) at two scales,
  ``recon_loss``, ``d_axis_distill_loss`` on a linear projection, and through the train steps
  ``feature_loss``, ``adversarial_loss`` and ``discriminator_loss``.

Eval: the callable's outputs as the library returns them. Train: the generator step of
``SpeechTokenizerTrainer.train`` copied without the accelerator, optimizers, logging and its
``.item()`` calls: ``x_hat, loss_q, feature = generator(x)``, then L1 ``recon_loss``, the
weighted sum of ``mel_loss`` at two scales (``n_fft`` halved as the trainer's ``mult`` does),
``loss_q`` times the commitment weight and ``d_axis_distill_loss(feature, semantic_feature)``
(against a fixed random teacher feature), plus, for the ``_gan_step`` entry, the
discriminator's ``feature_loss`` and ``adversarial_loss`` (the small MS-STFT one only: with the
fixed-size MPD and MSD in the same step an eager train step took 38 s on the shared cores); the
``_discriminator_step`` entry is the trainer's discriminator loss on ``x_hat.detach()`` (same
discriminator; its eval mode runs the same wrapper); MPD / MSD / MS-STFT alone:
``discriminator_loss`` plus ``feature_loss`` of their real / generated outputs; a sub-discriminator
alone (``DiscriminatorP`` / ``S`` / ``STFT``): ``discriminator_loss`` plus ``adversarial_loss``;
``SpeechTokenizer_encode`` (integer codes) trains through ``encode`` then ``decode``; the quantizers: a
1x1 conv, then the quantizer, MSE to its input plus the commitment loss (``encode`` /
``decode``: the MSE of the decoded codes to the conv's output); the rest (method
wrappers, encoder / decoder / layers) the sum of the means of the float outputs
(``mean_loss_module``). The loss weights are illustrative (45 / 1 on the mel scales, 10
commitment, 500 reconstruction, 120 distillation).

    pip install --no-deps speechtokenizer==1.0.1
    pip install --no-deps lion-pytorch==0.2.5
    pip install --no-deps accelerate==1.15.0
    # already there from other adapters: einops 0.8.2, numpy 2.4.6, scipy 1.17.1, beartype 0.22.9,
    # tqdm 4.70.1, matplotlib 3.11.2, pyyaml 6.0.3, tensorboard 2.21.0, huggingface_hub 0.36.0,
    # psutil 7.2.2, safetensors 0.8.0, packaging 26.4

``import speechtokenizer`` imports the trainer (``speechtokenizer/__init__.py``:
``from .trainer import SpeechTokenizerTrainer``): beartype, tensorboard, tqdm, accelerate,
lion_pytorch, matplotlib, yaml and torchaudio at the top of the package's import.

Stubbed (``stub_modules``): ``torchaudio`` (``trainer/loss.py``, ``trainer/dataset.py`` and
``discriminators.py`` import it at their top): the only torchaudio wheel on PyPI does not load its
compiled ops into torch 2.13.0+cpu, so it cannot be installed here. Two of its classes are
used by models and are given small pure-torch stand-ins in the stub module (the adapter's code,
not the library's): ``transforms.MelScale`` (an ``nn.Module`` whose ``fb`` buffer is the HTK-scale,
Slaney-normalised triangular filter bank, as ``torchaudio.functional.melscale_fbanks`` builds it;
``mel_spectrogram`` builds one on every call) and ``transforms.Spectrogram`` (``torch.stft`` with
the window buffer, ``normalized=True`` as division by the window's norm, ``power=None``: the
complex spectrum). ``torchaudio.load`` / ``functional.resample`` (the dataset) raise.

Left out: ``t_axis_distill_loss`` (it calls ``torch.functional.l1_loss``, which does not exist:
AttributeError in eager); ``norm="layer_norm"`` (``ConvLayerNorm.forward`` ends in a bare
``return``, as encodec 0.1.1's: the next layer gets ``None`` in eager); ``load_from_checkpoint``
and the released configs at full size (checkpoints to download; the full-size model would take
most of the capture's 120 s per run); ``SpeechTokenizerTrainer`` itself (accelerate, data loaders,
optimizers and file logging around the losses kept); ``trainer.dataset`` (torchaudio file loading);
``quantization.ac`` (arithmetic coding in Python integers, and it imports ``..binary``, a module
the wheel does not ship); ``quantization.distrib`` (only when distributed);
``loss.plot_spectrogram`` (matplotlib). Measured first as it came, before any rule looked at it.
"""

import functools

PACKAGE = "speechtokenizer"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None

_B = 2
_SR = 8000
_LEN = 256
_NQ, _BINS = 4, 32
_CFG = dict(
    n_filters=4, dimension=16, semantic_dimension=24, strides=[4, 2], lstm_layers=1,
    bidirectional=True, dilation_base=2, residual_kernel_size=3, n_residual_layers=1,
    activation="ELU", sample_rate=_SR, n_q=_NQ, codebook_size=_BINS,
)
_MEL = dict(n_fft=64, num_mels=16, sample_rate=_SR, hop_size=16, win_size=64, fmin=0, fmax=4000)
_MEL_LAMBDAS = [45.0, 1.0]
_COMMIT, _RECON, _DISTILL = 10.0, 500.0, 120.0


def _standins():
    """Pure-torch stand-ins for the two torchaudio transforms the models build."""
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
        {
            "torchaudio": (("load", "save"), ()),
            "torchaudio.transforms": ((), ()),
            "torchaudio.functional": (("resample",), ()),
        },
        "speechtokenizer imports",
    )
    tr = sys.modules["torchaudio.transforms"]
    if getattr(tr, "__file__", None) is None and not hasattr(tr, "MelScale"):
        tr.MelScale, tr.Spectrogram = _standins()


def before_build():
    _stubs()


def warm_up():
    _stubs()
    import warnings

    import torch  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import speechtokenizer  # noqa: F401
        import speechtokenizer.discriminators  # noqa: F401
        import speechtokenizer.trainer.loss  # noqa: F401


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    from speechtokenizer.trainer.loss import (adversarial_loss, d_axis_distill_loss, discriminator_loss,
                                              feature_loss, mel_loss, recon_loss)

    def mel_kwargs_list():
        out, mult = [], 1
        for _ in _MEL_LAMBDAS:
            out.append(dict(_MEL, n_fft=_MEL["n_fft"] // mult, hop_size=_MEL["hop_size"] // mult,
                            win_size=_MEL["win_size"] // mult, fmax=_MEL["fmax"]))
            mult *= 2
        return out

    class GeneratorStep(nn.Module):
        """The generator half of ``SpeechTokenizerTrainer.train``'s step."""

        def __init__(self, generator, discriminators=None):
            super().__init__()
            self.generator = generator
            self.discriminators = nn.ModuleDict(discriminators or {})
            self.mel_loss_kwargs_list = mel_kwargs_list()

        def forward(self, x, semantic_feature):
            x_hat, loss_q, feature = self.generator(x)
            discriminator_outputs = [disc(x, x_hat) for disc in self.discriminators.values()]
            loss_recon = recon_loss(x, x_hat)
            loss_mel = sum(lam * mel_loss(x, x_hat, **kw) for lam, kw in zip(_MEL_LAMBDAS, self.mel_loss_kwargs_list))
            loss_feature = sum(feature_loss(*o[2:]) for o in discriminator_outputs)
            loss_adversarial = sum(adversarial_loss(o[1]) for o in discriminator_outputs)
            loss_distill = d_axis_distill_loss(feature, semantic_feature)
            return (loss_feature + loss_adversarial + loss_mel + loss_q * _COMMIT + loss_recon * _RECON
                    + _DISTILL * loss_distill)

    class DiscriminatorStep(nn.Module):
        """The discriminator half: ``discriminator_loss`` on each discriminator's outputs for
        ``x`` and the detached reconstruction."""

        def __init__(self, generator, discriminators):
            super().__init__()
            self.generator = generator
            self.discriminators = nn.ModuleDict(discriminators)

        def forward(self, x):
            x_hat, loss_q, feature = self.generator(x)
            outs = [disc(x, x_hat.detach()) for disc in self.discriminators.values()]
            return sum(discriminator_loss(*o[:2]) for o in outs)

    class PairDiscLoss(nn.Module):
        """A (y, y_hat) discriminator: ``discriminator_loss`` of its real / generated logits."""

        def __init__(self, disc):
            super().__init__()
            self.disc = disc

        def forward(self, y, y_hat):
            y_d_rs, y_d_gs, fmap_rs, fmap_gs = self.disc(y, y_hat)
            return discriminator_loss(y_d_rs, y_d_gs) + feature_loss(fmap_rs, fmap_gs)

    class SingleDiscLoss(nn.Module):
        """One sub-discriminator on real and generated clips: ``discriminator_loss``."""

        def __init__(self, disc):
            super().__init__()
            self.disc = disc

        def forward(self, y, y_hat):
            r, _ = self.disc(y)
            g, _ = self.disc(y_hat)
            return discriminator_loss([r], [g]) + adversarial_loss([g])

    class QuantizerStep(nn.Module):
        """A 1x1 conv then a quantizer: MSE to its input plus the commitment loss."""

        def __init__(self, quantizer, rvq=True, **kwargs):
            super().__init__()
            self.proj = nn.Conv1d(16, 16, 1)
            self.quantizer, self.rvq, self.kwargs = quantizer, rvq, kwargs

        def forward(self, x):
            emb = self.proj(x)
            if self.rvq:
                quantized, codes, commit_loss, quantized_list = self.quantizer(emb, **self.kwargs)
            else:
                quantized, codes, loss = self.quantizer(emb)
                commit_loss = loss.mean()
            return F.mse_loss(quantized, emb) + commit_loss

    class RVQCodeStep(nn.Module):
        """A 1x1 conv, ``encode`` then ``decode`` (from ``st``): MSE of the decoded codes to the
        conv's output (codes carry no gradient; the conv's output does)."""

        def __init__(self, quantizer, n_q=None, st=None):
            super().__init__()
            self.proj = nn.Conv1d(16, 16, 1)
            self.quantizer, self.n_q, self.st = quantizer, n_q, st

        def forward(self, x):
            emb = self.proj(x)
            codes = self.quantizer.encode(emb, n_q=self.n_q, st=self.st)
            return F.mse_loss(self.quantizer.decode(codes, st=self.st or 0), emb)

    class Call(nn.Module):
        """A method of a model, with fixed keyword arguments."""

        def __init__(self, model, method, **kwargs):
            super().__init__()
            self.model, self.method, self.kwargs = model, method, kwargs

        def forward(self, *args):
            return getattr(self.model, self.method)(*args, **self.kwargs)

    class EncodeDecode(nn.Module):
        """``codes = model.encode(x, n_q, st)`` then ``model.decode(codes, st)``."""

        def __init__(self, model, n_q=None, st=None):
            super().__init__()
            self.model, self.n_q, self.st = model, n_q, st

        def forward(self, x):
            codes = self.model.encode(x, n_q=self.n_q, st=self.st)
            return self.model.decode(codes, st=self.st or 0), codes

    class ReadmeTokens(nn.Module):
        """The README: semantic tokens ``codes[:1]``, acoustic ``codes[1:]``, decode their
        concatenation, and decode from layer i to j with ``st=i``."""

        def __init__(self, model, i=1, j=2):
            super().__init__()
            self.model, self.i, self.j = model, i, j

        def forward(self, wav):
            codes = self.model.encode(wav)
            RVQ_1 = codes[:1, :, :]
            RVQ_supplement = codes[1:, :, :]
            wav_all = self.model.decode(torch.cat([RVQ_1, RVQ_supplement], axis=0))
            wav_ij = self.model.decode(codes[self.i:(self.j + 1)], st=self.i)
            return wav_all, wav_ij, RVQ_1

    class Distill(nn.Module):
        """``d_axis_distill_loss`` of a linear projection of features against a teacher's."""

        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(16, 24)

        def forward(self, feature, target_feature):
            return d_axis_distill_loss(self.proj(feature), target_feature)

    class MelRecon(nn.Module):
        """A conv's output against the clip: ``recon_loss`` plus ``mel_loss`` at two scales."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(1, 1, 5, padding=2)
            self.mel_loss_kwargs_list = mel_kwargs_list()

        def forward(self, x):
            x_hat = self.conv(x)
            loss = recon_loss(x, x_hat)
            for lam, kw in zip(_MEL_LAMBDAS, self.mel_loss_kwargs_list):
                loss = loss + lam * mel_loss(x, x_hat, **kw)
            return loss

    return {"GeneratorStep": GeneratorStep, "DiscriminatorStep": DiscriminatorStep,
            "PairDiscLoss": PairDiscLoss, "SingleDiscLoss": SingleDiscLoss, "QuantizerStep": QuantizerStep, "RVQCodeStep": RVQCodeStep,
            "Call": Call, "EncodeDecode": EncodeDecode, "ReadmeTokens": ReadmeTokens, "Distill": Distill,
            "MelRecon": MelRecon}


# --- builders --------------------------------------------------------------------------------

def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net  # noqa: F821


def _wav(chs=1, length=_LEN):
    import torch

    return 0.1 * torch.randn(_B, chs, length)


def _semantic(dim=_CFG["semantic_dimension"]):
    import torch

    return torch.randn(_B, _LEN // 8, dim)


def _model(**kwargs):
    import warnings

    from speechtokenizer import SpeechTokenizer

    cfg = dict(_CFG, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # weight_norm's deprecation
        return SpeechTokenizer(cfg)


def _small_mstftd():
    from speechtokenizer.discriminators import MultiScaleSTFTDiscriminator

    return MultiScaleSTFTDiscriminator(4, n_ffts=[64, 32], hop_lengths=[16, 8], win_lengths=[64, 32])


def _speechtokenizer(**kwargs):
    """``SpeechTokenizer(cfg).forward``; train: the generator step."""

    def make(mode):
        model = _model(**kwargs)
        if mode == "train":
            dim = kwargs.get("semantic_dimension", _CFG["semantic_dimension"])
            return _modules()["GeneratorStep"](model), (_wav(), _semantic(dim)), {}
        return model, (_wav(),), {}

    return make


def _forward_nq_layers(mode):
    model = _model()
    return _wrap(model, mode), (_wav(),), {"n_q": 2, "layers": [0, 1]}


def _gan_step(mode):
    model = _model()
    if mode == "train":
        discs = {"mstftd": _small_mstftd()}
        return _modules()["GeneratorStep"](model, discs), (_wav(), _semantic()), {}
    return model, (_wav(),), {}


def _discriminator_step(mode):
    model = _model()
    discs = {"mstftd": _small_mstftd()}
    return _modules()["DiscriminatorStep"](model, discs), (_wav(),), {}


def _method(method, **kwargs):
    def make(mode):
        if method == "encode" and mode == "train":  # integer codes: train through decode too
            return _wrap(_modules()["EncodeDecode"](_model()), mode), (_wav(),), {}
        net = _modules()["Call"](_model(), method, **kwargs)
        return _wrap(net, mode), (_wav(),), {}

    return make


def _encode_decode(**kwargs):
    def make(mode):
        return _wrap(_modules()["EncodeDecode"](_model(), **kwargs), mode), (_wav(),), {}

    return make


def _decode(st=0):
    def make(mode):
        import torch

        codes = torch.randint(0, _BINS, (_NQ - st, _B, _LEN // 8))
        net = _modules()["Call"](_model(), "decode", st=st)
        return _wrap(net, mode), (codes,), {}

    return make


def _readme(mode):
    return _wrap(_modules()["ReadmeTokens"](_model()), mode), (_wav(),), {}


def _encoder(chs=1, **kwargs):
    def make(mode):
        from speechtokenizer.modules import SEANetEncoder

        cfg = dict(channels=chs, n_filters=4, dimension=16, ratios=[4, 2], lstm=1, bidirectional=True)
        cfg.update(kwargs)
        return _wrap(SEANetEncoder(**cfg), mode), (_wav(chs),), {}

    return make


def _decoder(chs=1, **kwargs):
    def make(mode):
        import torch

        from speechtokenizer.modules import SEANetDecoder

        cfg = dict(channels=chs, n_filters=4, dimension=16, ratios=[4, 2], lstm=1)
        cfg.update(kwargs)
        return _wrap(SEANetDecoder(**cfg), mode), (torch.randn(_B, 16, 32),), {}

    return make


def _resnet_block(mode):
    import torch

    from speechtokenizer.modules.seanet import SEANetResnetBlock

    net = SEANetResnetBlock(8, kernel_sizes=[3, 1], dilations=[2, 1], activation="Snake", true_skip=True)
    return _wrap(net, mode), (torch.randn(_B, 8, 64),), {}


def _snake(mode):
    import torch

    from speechtokenizer.modules.seanet import Snake1d

    return _wrap(Snake1d(8), mode), (torch.randn(_B, 8, 64),), {}


def _slstm(**kwargs):
    def make(mode):
        import torch

        from speechtokenizer.modules import SLSTM

        return _wrap(SLSTM(16, **kwargs), mode), (torch.randn(_B, 16, 12),), {}

    return make


def _sconv_short(mode):
    import torch

    from speechtokenizer.modules import SConv1d

    net = SConv1d(4, 8, kernel_size=8, stride=2, norm="weight_norm", pad_mode="reflect")
    return _wrap(net, mode), (torch.randn(_B, 4, 3),), {}


def _sconvtr_causal(mode):
    import torch

    from speechtokenizer.modules import SConvTranspose1d

    net = SConvTranspose1d(8, 4, kernel_size=8, stride=4, causal=True, norm="none", trim_right_ratio=1.0)
    return _wrap(net, mode), (torch.randn(_B, 8, 16),), {}


def _normconv2d(mode):
    import torch

    from speechtokenizer.modules import NormConv2d

    net = NormConv2d(2, 8, kernel_size=(3, 9), stride=(1, 2), padding=(1, 4), norm="weight_norm")
    return _wrap(net, mode), (torch.randn(_B, 2, 16, 33),), {}


def _rvq(kind="forward", layers=None, n_q=None, **kwargs):
    """``ResidualVectorQuantizer(dimension=16, n_q=4, bins=32)`` on a (2, 16, 12) latent."""

    def make(mode):
        import torch

        from speechtokenizer.quantization import ResidualVectorQuantizer

        cfg = dict(dimension=16, n_q=_NQ, bins=_BINS, kmeans_iters=4)
        cfg.update(kwargs)
        q = ResidualVectorQuantizer(**cfg)
        x = torch.randn(_B, 16, 12)
        if kind == "encode_decode":
            if mode == "train":
                return _modules()["RVQCodeStep"](q, n_q=n_q, st=1), (x,), {}
            return _modules()["EncodeDecode"](q, n_q=n_q, st=1), (x,), {}
        call = {}
        if layers is not None:
            call["layers"] = layers
        if n_q is not None:
            call["n_q"] = n_q
        if mode == "train":
            return _modules()["QuantizerStep"](q, **call), (x,), {}
        return q, (x,), call

    return make


def _vq_projected(mode):
    import torch

    from speechtokenizer.quantization.core_vq import VectorQuantization

    vq = VectorQuantization(dim=16, codebook_size=_BINS, codebook_dim=8, kmeans_init=False,
                            threshold_ema_dead_code=1, commitment_weight=0.25)
    x = torch.randn(_B, 16, 12)
    if mode == "train":
        return _modules()["QuantizerStep"](vq, rvq=False), (x,), {}
    return vq, (x,), {}


def _pair_disc(name):
    def make(mode):
        import warnings

        from speechtokenizer import discriminators as D

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            disc = _small_mstftd() if name == "MultiScaleSTFTDiscriminator" else getattr(D, name)()
        if mode == "train":
            return _modules()["PairDiscLoss"](disc), (_wav(), _wav()), {}
        return disc, (_wav(), _wav()), {}

    return make


def _single_disc(name, *args, **kwargs):
    def make(mode):
        import warnings

        from speechtokenizer import discriminators as D

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            disc = getattr(D, name)(*args, **kwargs)
        if mode == "train":
            return _modules()["SingleDiscLoss"](disc), (_wav(), _wav()), {}
        return disc, (_wav(),), {}

    return make


def _mel_recon(mode):
    return _modules()["MelRecon"](), (_wav(),), {}


def _distill(mode):
    import torch

    return _modules()["Distill"](), (torch.randn(_B, 32, 16), _semantic()), {}


MODELS = {
    # --- the codec ---
    "SpeechTokenizer": _speechtokenizer(),
    "SpeechTokenizer_snake": _speechtokenizer(activation="Snake"),
    "SpeechTokenizer_identity_transform_lstm2": _speechtokenizer(semantic_dimension=16, lstm_layers=2,
                                                                 bidirectional=False),
    "SpeechTokenizer_no_lstm": _speechtokenizer(lstm_layers=0, bidirectional=False),
    "SpeechTokenizer_n_q_layers": _forward_nq_layers,
    "SpeechTokenizer_gan_step": _gan_step,
    "SpeechTokenizer_discriminator_step": _discriminator_step,
    "SpeechTokenizer_forward_feature": _method("forward_feature"),
    "SpeechTokenizer_forward_feature_layers": _method("forward_feature", layers=[0, 2]),
    "SpeechTokenizer_encode": _method("encode"),
    "SpeechTokenizer_encode_decode": _encode_decode(),
    "SpeechTokenizer_encode_decode_n_q_st": _encode_decode(n_q=3, st=1),
    "SpeechTokenizer_decode": _decode(),
    "SpeechTokenizer_decode_st": _decode(st=1),
    "SpeechTokenizer_readme_tokens": _readme,
    # --- SEANet and layers ---
    "SEANetEncoder_bilstm": _encoder(),
    "SEANetEncoder_snake": _encoder(activation="Snake"),
    "SEANetEncoder_causal_no_lstm": _encoder(causal=True, lstm=0, bidirectional=False),
    "SEANetEncoder_time_group_norm_stereo": _encoder(chs=2, norm="time_group_norm"),
    "SEANetDecoder": _decoder(),
    "SEANetDecoder_causal_trim_tanh": _decoder(causal=True, trim_right_ratio=0.5, final_activation="Tanh"),
    "SEANetDecoder_snake": _decoder(activation="Snake"),
    "SEANetResnetBlock_snake_true_skip": _resnet_block,
    "Snake1d": _snake,
    "SLSTM_bidirectional": _slstm(bidirectional=True),
    "SLSTM_no_skip": _slstm(skip=False, num_layers=1),
    "SConv1d_short_input": _sconv_short,
    "SConvTranspose1d_causal": _sconvtr_causal,
    "NormConv2d_weight_norm": _normconv2d,
    # --- quantizer ---
    "ResidualVectorQuantizer_kmeans_init": _rvq(),
    "ResidualVectorQuantizer_layers": _rvq(layers=[0, 2], n_q=3),
    "ResidualVectorQuantizer_no_kmeans_no_expiry": _rvq(kmeans_init=False, threshold_ema_dead_code=0),
    "ResidualVectorQuantizer_encode_decode_st": _rvq(kind="encode_decode", n_q=3, kmeans_init=False),
    "VectorQuantization_codebook_dim": _vq_projected,
    # --- discriminators ---
    "DiscriminatorP": _single_disc("DiscriminatorP", 3),
    "MultiPeriodDiscriminator": _pair_disc("MultiPeriodDiscriminator"),
    "DiscriminatorS_spectral_norm": _single_disc("DiscriminatorS", use_spectral_norm=True),
    "MultiScaleDiscriminator": _pair_disc("MultiScaleDiscriminator"),
    "DiscriminatorSTFT": _single_disc("DiscriminatorSTFT", 4, n_fft=64, hop_length=16, win_length=64),
    "MultiScaleSTFTDiscriminator": _pair_disc("MultiScaleSTFTDiscriminator"),
    # --- losses ---
    "mel_loss_recon_loss": _mel_recon,
    "d_axis_distill_loss": _distill,
}
