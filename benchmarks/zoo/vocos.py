"""vocos 0.1.0 (charactr: Siuzdak): the Vocos Fourier-based neural vocoder, built from its own
classes as its README ("Reconstruct audio from mel-spectrogram", "Reconstruct audio from EnCodec
tokens", copy-synthesis with ``bandwidth_id``) and its training configs (``configs/vocos.yaml``,
``vocos-imdct.yaml``, ``vocos-resnet.yaml``, ``vocos-encodec.yaml``; ``vocos/experiment.py``'s
``VocosExp`` / ``VocosEncodecExp`` steps) wire them, tiny, random weights, no download (the
package has no tests of its own). Mel configs: 16 mel bins over 12 frames, backbone width 32
(intermediate 96, 2 layers), ``n_fft`` 64 / hop 16 (the IMDCT head: frame 32 = 2 x hop);
EnCodec config: 24 kHz clips of 3200 samples (10 frames at hop 320, as ``vocos-encodec.yaml``'s
head ``n_fft`` 1280 / hop 320), batches of 2:

- backbones: ``VocosBackbone`` (ConvNeXt blocks, ``LayerNorm``), the same with adaLN
  (``adanorm_num_embeddings=4``, a ``bandwidth_id`` tensor as in the README),
  ``VocosResNetBackbone`` (weight-normed ``ResBlock1``); ``ResBlock1`` alone without layer
  scale (a ``ParameterList`` of ``None``) and after ``remove_weight_norm``;
- heads: ``ISTFTHead``, ``IMDCTCosHead`` and ``IMDCTSymExpHead`` with ``"same"`` and
  ``"center"`` padding (``clip_audio=True`` once: 0.1.0 then returns the clipped coefficients
  ``torch.clip(x, ...)``, not the audio; it runs, so it is kept);
- spectral ops: ``ISTFT`` (``"same"``: ``irfft`` plus ``fold`` overlap-add and the
  ``assert (window_envelope > 1e-11).all()``; ``"center"``: ``torch.istft``), ``MDCT`` and
  ``IMDCT`` (both paddings; an MDCT-IMDCT round trip), behind a learned scalar so training has
  a parameter;
- the feature extractor ``EncodecFeatures`` (EnCodec codes embedded with the concatenated
  codebooks, ``self.bandwidths[bandwidth_id]`` picked by a tensor index), frozen codebooks and
  ``train_codebooks=True``;
- the ``Vocos`` module: ``decode`` of a mel (the mel, IMDCT and ResNet configs),
  copy-synthesis ``Vocos(audio, bandwidth_id=...)`` through ``EncodecFeatures`` and the README's
  ``codes_to_features`` then ``decode`` (all under its ``@torch.inference_mode()``);
- ``MultiPeriodDiscriminator`` (plain and conditional on ``bandwidth_id``), one
  ``DiscriminatorP`` on a clip its period does not divide (the reflect pad), and the losses
  ``GeneratorLoss``, ``DiscriminatorLoss`` and ``FeatureMatchingLoss``;
- ``VocosExp``'s two training steps as small modules: the generator step (features, backbone,
  head, the MPD's ``GeneratorLoss`` and ``FeatureMatchingLoss`` each divided by the number of
  sub-discriminators, plus 45 x a reconstruction term) and the discriminator step
  (``torch.no_grad()`` synthesis, ``DiscriminatorLoss`` of real and generated scores, ``/=``
  their count); ``VocosEncodecExp``'s with a random ``bandwidth_id``
  (``torch.randint(..., size=(1,))``) and the conditional MPD.

Eval: the forward (``Vocos``: ``decode`` or copy-synthesis; discriminators: their four lists).
Train: ``VocosExp``'s generator step for the ``Vocos`` entries (the ``Vocos`` class is
inference-only), its discriminator step for the discriminators, else the sum of the means of
the float outputs (``mean_loss_module``). The reconstruction term stands in for
``MelSpecReconstructionLoss`` (torchaudio): the L1 between ``safe_log`` STFT magnitudes
(``torch.stft``, ``n_fft`` 64).

    pip install --no-deps vocos==0.1.0
    # already there from other adapters: einops 0.8.2, encodec 0.1.1, huggingface-hub 0.36.0,
    # numpy 2.4.6, PyYAML 6.0.3, scipy 1.17.1

Stubbed (``stub_modules``): ``torchaudio`` (the only wheel on PyPI is a CUDA build that does not
load into torch 2.13.0+cpu; never installed), imported at the top of ``feature_extractors.py``,
``heads.py`` (``torchaudio.functional.functional._hz_to_mel`` / ``_mel_to_hz``),
``discriminators.py`` (``transforms.Spectrogram``), ``loss.py`` (``transforms.MelSpectrogram``)
and encodec's ``utils.py``. ``EncodecFeatures.__init__`` loads the pretrained 24 kHz EnCodec
(``pretrained=True``, a download): a subclass here replaces only its constructor, building the
24 kHz EnCodec as ``EncodecModel._get_model`` wires it (causal, ``weight_norm``, ratios
``[8, 5, 4, 2]``, target bandwidths 1.5-12 kbps, 1024 bins: 16 codebooks) but with 4 base
filters, a 16-d latent, one LSTM layer and codebooks initialized at construction
(``kmeans_init=False``, as a loaded checkpoint has them), then sets what the library's
constructor sets; its ``forward`` / ``get_encodec_codes`` are the library's. Shimmed: ``MDCT`` /
``IMDCT.__init__`` call ``scipy.signal.cosine``, an alias scipy 1.13 removed (1.17.1 is
installed, shared with other adapters): without it every ``MDCT`` / ``IMDCT`` / IMDCT-head entry
fails at construction, so ``before_build`` puts the alias back (``scipy.signal.windows.cosine``,
the same window; construction only, no forward calls scipy). Measured first as it came, before
any rule looked at it.

Capture (torch 2.13.0+cpu): 29 models, 58 runs, all built, all 58 ran under Dynamo (29 eval,
29 train), none failed or timed out. 51 runs have no break at all: the backbones (adaLN
included), the heads, ``ISTFT`` (its data-dependent ``assert`` included), ``MDCT`` / ``IMDCT``,
``Vocos.decode`` under ``@torch.inference_mode()``, the weight-normed discriminators and the
training steps (``no_grad``, ``torch.randint``, the losses' Python loops). The 7 that break are
the ones running ``EncodecFeatures.forward`` (both ``EncodecFeatures`` entries and
``Vocos_encodec_copy_synthesis`` in both modes, ``Vocos_encodec_codes_decode[train]``), in two
statements: ``self.encodec.eval()`` in the forward (``feature_extractors.py:89``: ``Module.train``
walks ``named_children`` into the SEANet's ``nn.LSTM``, GB0014 "Dynamo does not support RNN,
GRU, or LSTM"; the same break is recorded in the caller ``Vocos.forward``,
``pretrained.py:95``) and ``self.bandwidths[bandwidth_id]``, a Python list indexed by the
``bandwidth_id`` tensor (``:90``, GB0124 ``Tensor.item()``). Outside vocos: encodec's
``SLSTM.forward`` (``lstm.py:24``, GB0014, frame skipped) and 8 recompile locations in its
SEANet convolutions (re-specialized per channel count); none in vocos. First numbers with the
frozen linter (``/tmp/lint-mid56``): graph-break statement recall 0.00 (0/3), precision -- (0/0),
1 finding (0 in files run: CL119 ``np.fromstring`` in ``helpers.py``, never imported), 0
unjudged. Three misses, no false alarm.

Left out: ``MelSpectrogramFeatures``, ``MultiResolutionDiscriminator`` / ``DiscriminatorR``
and ``MelSpecReconstructionLoss`` (their constructors build ``torchaudio.transforms``
objects: the stand-in raises); ``IMDCTSymExpHead(sample_rate=...)`` (torchaudio's
``_hz_to_mel``); ``experiment.py`` (``VocosExp`` is a ``pytorch_lightning.LightningModule``
needing ``transformers``, torchaudio and the MRD; its steps are rebuilt above without logging,
the MRD and the mel loss), ``dataset.py`` and ``helpers.py`` (Lightning data module and
matplotlib callback); ``Vocos.from_pretrained`` / ``from_hparams`` (download, yaml files) and
``EncodecFeatures(encodec_model="encodec_48khz")`` (same download); full-size configs (512-d
backbones of 8 layers, ``n_fft`` 1024) and the MPD's default five periods in the training steps
(two periods there, three in the MPD entries: its channel widths, up to 1024, are fixed).
"""

import functools

PACKAGE = "vocos"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None

_B = 2
_MELS, _FRAMES, _NFFT, _HOP = 16, 12, 64, 16
_DIM, _INTER, _LAYERS = 32, 96, 2
_SR, _ENC_HOP, _ENC_FRAMES, _ENC_DIM = 24000, 320, 10, 16
_BANDWIDTHS = [1.5, 3.0, 6.0, 12.0]


def _stubs():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchaudio": (("load", "save"), ()),
            "torchaudio.functional": (("resample",), ()),
            "torchaudio.functional.functional": (("_hz_to_mel", "_mel_to_hz"), ()),
            "torchaudio.transforms": ((), ("Spectrogram", "MelSpectrogram", "Resample")),
        },
        "vocos imports",
    )


def _scipy_cosine():
    """``MDCT`` / ``IMDCT`` build their window with ``scipy.signal.cosine``, an alias scipy 1.13
    removed (scipy 1.17.1 is installed): put the alias back to ``scipy.signal.windows.cosine``,
    the same function (construction only; no forward calls scipy)."""
    import scipy.signal

    if not hasattr(scipy.signal, "cosine"):
        scipy.signal.cosine = scipy.signal.windows.cosine


def before_build():
    _stubs()
    _scipy_cosine()


def warm_up():
    _stubs()
    _scipy_cosine()
    import warnings

    import torch  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import vocos  # noqa: F401
        import vocos.discriminators  # noqa: F401
        import vocos.heads  # noqa: F401
        import vocos.loss  # noqa: F401
        import vocos.models  # noqa: F401
        import vocos.spectral_ops  # noqa: F401


@functools.cache
def _modules():
    import torch
    from torch import nn

    from vocos.feature_extractors import EncodecFeatures, FeatureExtractor
    from vocos.loss import DiscriminatorLoss, FeatureMatchingLoss, GeneratorLoss
    from vocos.modules import safe_log

    class TinyEncodecFeatures(EncodecFeatures):
        """``EncodecFeatures`` whose constructor builds a tiny random 24 kHz EnCodec instead of
        downloading the pretrained one; the rest is the library's constructor, verbatim."""

        def __init__(self, bandwidths=_BANDWIDTHS, train_codebooks=False):
            FeatureExtractor.__init__(self)
            from encodec import EncodecModel
            from encodec.modules import SEANetDecoder, SEANetEncoder
            from encodec.quantization import ResidualVectorQuantizer

            seanet = dict(channels=1, norm="weight_norm", causal=True, n_filters=4, dimension=_ENC_DIM, lstm=1)
            encoder, decoder = SEANetEncoder(**seanet), SEANetDecoder(**seanet)
            target = [1.5, 3.0, 6.0, 12.0, 24.0]
            n_q = int(1000 * target[-1] // (-(-_SR // encoder.hop_length) * 10))
            quantizer = ResidualVectorQuantizer(dimension=encoder.dimension, n_q=n_q, bins=1024, kmeans_init=False)
            self.encodec = EncodecModel(encoder, decoder, quantizer, target, _SR, 1, normalize=False,
                                        segment=None, name="tiny_encodec_24khz")
            self.encodec.eval()
            for param in self.encodec.parameters():
                param.requires_grad = False
            self.num_q = self.encodec.quantizer.get_num_quantizers_for_bandwidth(
                self.encodec.frame_rate, bandwidth=max(bandwidths)
            )
            codebook_weights = torch.cat([vq.codebook for vq in self.encodec.quantizer.vq.layers[: self.num_q]],
                                         dim=0)
            self.codebook_weights = torch.nn.Parameter(codebook_weights, requires_grad=train_codebooks)
            self.bandwidths = bandwidths

    class Scaled(nn.Module):
        """A spectral op applied to the input times a learned scalar."""

        def __init__(self, op):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))
            self.op = op

        def forward(self, x):
            return self.op(x * self.scale)

    class RoundTrip(nn.Module):
        """``MDCT`` then ``IMDCT`` of the learned-scaled clip."""

        def __init__(self, mdct, imdct):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(()))
            self.mdct, self.imdct = mdct, imdct

        def forward(self, audio):
            return self.imdct(self.mdct(audio * self.scale))

    class Decode(nn.Module):
        """``vocos.decode(features)`` (the README's mel path)."""

        def __init__(self, vocos):
            super().__init__()
            self.vocos = vocos

        def forward(self, features):
            return self.vocos.decode(features)

    class CodesDecode(nn.Module):
        """The README's EnCodec-token path: ``codes_to_features`` then ``decode``."""

        def __init__(self, vocos):
            super().__init__()
            self.vocos = vocos

        def forward(self, codes, bandwidth_id):
            features = self.vocos.codes_to_features(codes)
            return self.vocos.decode(features, bandwidth_id=bandwidth_id)

    def _recon(y_hat, y):
        """Stand-in for ``MelSpecReconstructionLoss``: L1 of ``safe_log`` STFT magnitudes."""
        window = torch.hann_window(_NFFT)
        spec = lambda a: safe_log(torch.stft(a, _NFFT, _HOP, window=window, return_complex=True).abs())  # noqa: E731
        return torch.nn.functional.l1_loss(spec(y), spec(y_hat))

    class Generator(nn.Module):
        """``VocosExp.forward``: feature extractor (none: features are given), backbone, head."""

        def __init__(self, backbone, head, feature_extractor=None):
            super().__init__()
            self.feature_extractor, self.backbone, self.head = feature_extractor, backbone, head

        def forward(self, inputs, **kwargs):
            features = self.feature_extractor(inputs, **kwargs) if self.feature_extractor is not None else inputs
            x = self.backbone(features, **kwargs)
            return self.head(x)

    class GeneratorStep(nn.Module):
        """``VocosExp.training_step`` with ``optimizer_idx == 1`` and the discriminator on:
        synthesis, the MPD's generator and feature-matching losses (each over the number of
        sub-discriminators), plus 45 x the reconstruction term. ``random_bandwidth``:
        ``VocosEncodecExp`` (a random ``bandwidth_id`` each step, a conditional MPD)."""

        def __init__(self, generator, random_bandwidth=False):
            super().__init__()
            from vocos.discriminators import MultiPeriodDiscriminator

            self.generator = generator
            self.multiperioddisc = MultiPeriodDiscriminator(
                periods=(2, 3), num_embeddings=len(_BANDWIDTHS) if random_bandwidth else None)
            self.gen_loss, self.feat_matching_loss = GeneratorLoss(), FeatureMatchingLoss()
            self.mel_loss_coeff, self.random_bandwidth = 45.0, random_bandwidth

        def forward(self, inputs, audio_input):
            kwargs = {}
            if self.random_bandwidth:
                kwargs["bandwidth_id"] = torch.randint(
                    low=0, high=len(self.generator.feature_extractor.bandwidths), size=(1,))
            audio_hat = self.generator(inputs, **kwargs)
            _, gen_score_mp, fmap_rs_mp, fmap_gs_mp = self.multiperioddisc(y=audio_input, y_hat=audio_hat, **kwargs)
            loss_gen_mp, list_loss_gen_mp = self.gen_loss(disc_outputs=gen_score_mp)
            loss_gen_mp = loss_gen_mp / len(list_loss_gen_mp)
            loss_fm_mp = self.feat_matching_loss(fmap_r=fmap_rs_mp, fmap_g=fmap_gs_mp) / len(fmap_rs_mp)
            mel_loss = _recon(audio_hat, audio_input)
            return loss_gen_mp + loss_fm_mp + self.mel_loss_coeff * mel_loss

    class DiscriminatorStep(nn.Module):
        """``VocosExp.training_step`` with ``optimizer_idx == 0``: synthesis under
        ``torch.no_grad()`` (or given generated audio), the MPD's ``DiscriminatorLoss`` divided
        by the number of sub-discriminators."""

        def __init__(self, mpd, generator=None, random_bandwidth=False):
            super().__init__()
            self.multiperioddisc, self.generator = mpd, generator
            self.disc_loss = DiscriminatorLoss()
            self.random_bandwidth = random_bandwidth

        def forward(self, audio_input, audio_hat_or_inputs, bandwidth_id=None):
            kwargs = {} if bandwidth_id is None else {"bandwidth_id": bandwidth_id}
            if self.random_bandwidth:
                kwargs["bandwidth_id"] = torch.randint(low=0, high=len(_BANDWIDTHS), size=(1,))
            if self.generator is not None:
                with torch.no_grad():
                    audio_hat = self.generator(audio_hat_or_inputs, **kwargs)
            else:
                audio_hat = audio_hat_or_inputs
            real_score_mp, gen_score_mp, _, _ = self.multiperioddisc(y=audio_input, y_hat=audio_hat, **kwargs)
            loss_mp, loss_mp_real, _ = self.disc_loss(disc_real_outputs=real_score_mp,
                                                      disc_generated_outputs=gen_score_mp)
            loss_mp /= len(loss_mp_real)
            return loss_mp

    class SingleDiscriminator(nn.Module):
        """One ``DiscriminatorP`` on real and generated clips: ``GeneratorLoss`` of the generated
        score plus ``FeatureMatchingLoss`` of the feature maps."""

        def __init__(self, disc):
            super().__init__()
            self.disc = disc
            self.gen_loss, self.feat_matching_loss = GeneratorLoss(), FeatureMatchingLoss()

        def forward(self, y, y_hat):
            _, fmap_r = self.disc(y)
            score_g, fmap_g = self.disc(y_hat)
            loss, _ = self.gen_loss([score_g])
            return loss + self.feat_matching_loss([fmap_r], [fmap_g])

    return {"TinyEncodecFeatures": TinyEncodecFeatures, "Scaled": Scaled, "RoundTrip": RoundTrip,
            "CodesDecode": CodesDecode, "Decode": Decode, "Generator": Generator, "GeneratorStep": GeneratorStep, "DiscriminatorStep": DiscriminatorStep,
            "SingleDiscriminator": SingleDiscriminator}


# --- inputs ---------------------------------------------------------------------------------

def _mel(frames=_FRAMES):
    import torch

    return torch.randn(_B, _MELS, frames)


def _audio(n):
    import torch

    return torch.rand(_B, n) * 2 - 1


def _bandwidth_id(i=2):
    """The README: ``bandwidth_id = torch.tensor([2])  # 6 kbps``."""
    import torch

    return torch.tensor([i])


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


# --- builders --------------------------------------------------------------------------------

def _backbone(kind="mel"):
    from vocos.models import VocosBackbone, VocosResNetBackbone

    if kind == "mel":
        return VocosBackbone(input_channels=_MELS, dim=_DIM, intermediate_dim=_INTER, num_layers=_LAYERS)
    if kind == "adanorm":
        return VocosBackbone(input_channels=_ENC_DIM, dim=_DIM, intermediate_dim=_INTER, num_layers=_LAYERS,
                             adanorm_num_embeddings=len(_BANDWIDTHS))
    return VocosResNetBackbone(input_channels=_MELS, dim=_DIM, num_blocks=2)


def _head(kind="istft", padding="center", dim=_DIM, **kwargs):
    from vocos.heads import IMDCTCosHead, IMDCTSymExpHead, ISTFTHead

    if kind == "istft":
        return ISTFTHead(dim=dim, n_fft=kwargs.get("n_fft", _NFFT), hop_length=kwargs.get("hop_length", _HOP),
                         padding=padding)
    if kind == "imdct_cos":
        return IMDCTCosHead(dim=dim, mdct_frame_len=2 * _HOP, padding=padding, **kwargs)
    return IMDCTSymExpHead(dim=dim, mdct_frame_len=2 * _HOP, padding=padding, **kwargs)


def _backbone_entry(kind):
    def make(mode):
        import torch

        net = _backbone(kind)
        if kind == "adanorm":
            return _wrap(net, mode), (torch.randn(_B, _ENC_DIM, _FRAMES),), {"bandwidth_id": _bandwidth_id()}
        return _wrap(net, mode), (_mel(),), {}

    return make


def _resblock(remove_wn=False):
    def make(mode):
        import torch

        from vocos.modules import ResBlock1

        if remove_wn:
            net = ResBlock1(dim=_DIM, layer_scale_init_value=1 / 6)
            net.remove_weight_norm()
        else:
            net = ResBlock1(dim=_DIM, kernel_size=5, dilation=(1, 2, 4), lrelu_slope=0.2)
        return _wrap(net, mode), (torch.randn(_B, _DIM, _FRAMES),), {}

    return make


def _head_entry(kind, padding, **kwargs):
    def make(mode):
        import torch

        return _wrap(_head(kind, padding, **kwargs), mode), (torch.randn(_B, _FRAMES, _DIM),), {}

    return make


def _istft(padding):
    def make(mode):
        import torch

        from vocos.spectral_ops import ISTFT

        op = ISTFT(n_fft=_NFFT, hop_length=_HOP, win_length=_NFFT, padding=padding)
        spec = torch.randn(_B, _NFFT // 2 + 1, _FRAMES, dtype=torch.complex64)
        return _wrap(_modules()["Scaled"](op), mode), (spec,), {}

    return make


def _mdct(padding):
    def make(mode):
        from vocos.spectral_ops import MDCT

        op = MDCT(frame_len=2 * _HOP, padding=padding)
        return _wrap(_modules()["Scaled"](op), mode), (_audio(_FRAMES * _HOP),), {}

    return make


def _imdct(padding):
    def make(mode):
        import torch

        from vocos.spectral_ops import IMDCT

        op = IMDCT(frame_len=2 * _HOP, padding=padding)
        return _wrap(_modules()["Scaled"](op), mode), (torch.randn(_B, _FRAMES, _HOP),), {}

    return make


def _mdct_roundtrip(mode):
    from vocos.spectral_ops import IMDCT, MDCT

    net = _modules()["RoundTrip"](MDCT(frame_len=2 * _HOP, padding="center"), IMDCT(frame_len=2 * _HOP,
                                                                                      padding="center"))
    return _wrap(net, mode), (_audio(_FRAMES * _HOP),), {}


def _encodec_features(train_codebooks=False):
    def make(mode):
        fe = _modules()["TinyEncodecFeatures"](train_codebooks=train_codebooks)
        return _wrap(fe, mode), (_audio(_ENC_FRAMES * _ENC_HOP),), {"bandwidth_id": _bandwidth_id()}

    return make


def _mel_vocos(head_kind, backbone_kind="mel"):
    """``Vocos(FeatureExtractor(), backbone, head).decode(mel)`` (``MelSpectrogramFeatures``
    needs torchaudio; ``decode`` does not use the extractor). Train: the generator step."""

    def make(mode):
        from vocos.feature_extractors import FeatureExtractor
        from vocos.pretrained import Vocos

        backbone, head = _backbone(backbone_kind), _head(head_kind, "center")
        mel = _mel()
        if mode == "train":
            net = _modules()["GeneratorStep"](_modules()["Generator"](backbone, head))
            return net, (mel, _audio((_FRAMES - 1) * _HOP)), {}  # both heads, "center": (frames - 1) x hop
        return _modules()["Decode"](Vocos(FeatureExtractor(), backbone, head)), (mel,), {}

    return make


def _encodec_vocos(mode):
    """Copy-synthesis: ``Vocos(audio, bandwidth_id=...)`` with the ``vocos-encodec.yaml`` layout
    (``EncodecFeatures``, adaLN backbone, ``ISTFTHead`` ``n_fft`` 1280 / hop 320 ``"same"``).
    Train: ``VocosEncodecExp``'s generator step (random ``bandwidth_id``, conditional MPD)."""
    from vocos.pretrained import Vocos

    fe = _modules()["TinyEncodecFeatures"]()
    backbone = _backbone("adanorm")
    head = _head("istft", "same", n_fft=4 * _ENC_HOP, hop_length=_ENC_HOP)
    audio = _audio(_ENC_FRAMES * _ENC_HOP)
    if mode == "train":
        net = _modules()["GeneratorStep"](_modules()["Generator"](backbone, head, feature_extractor=fe),
                                          random_bandwidth=True)
        return net, (audio, audio.clone()), {}
    return Vocos(fe, backbone, head), (audio,), {"bandwidth_id": _bandwidth_id()}


def _encodec_codes(mode):
    """The README's tokens: ``codes_to_features(audio_tokens)`` (8 codebooks, (K, B, L) codes)
    then ``decode(features, bandwidth_id=...)``. Train: ``VocosEncodecExp``'s discriminator
    step (synthesis from audio under ``no_grad``, random ``bandwidth_id``)."""
    import torch

    from vocos.discriminators import MultiPeriodDiscriminator
    from vocos.pretrained import Vocos

    fe = _modules()["TinyEncodecFeatures"]()
    backbone = _backbone("adanorm")
    head = _head("istft", "same", n_fft=4 * _ENC_HOP, hop_length=_ENC_HOP)
    if mode == "train":
        gen = _modules()["Generator"](backbone, head, feature_extractor=fe)
        mpd = MultiPeriodDiscriminator(periods=(2, 3), num_embeddings=len(_BANDWIDTHS))
        net = _modules()["DiscriminatorStep"](mpd, generator=gen, random_bandwidth=True)
        audio = _audio(_ENC_FRAMES * _ENC_HOP)
        return net, (audio, audio.clone()), {}
    vocos = Vocos(fe, backbone, head)
    codes = torch.randint(low=0, high=1024, size=(8, _B, _ENC_FRAMES))  # (K, B, L)
    return _modules()["CodesDecode"](vocos), (codes, _bandwidth_id()), {}


def _mpd(conditional=False):
    """Eval: ``MultiPeriodDiscriminator(y, y_hat)``'s four lists. Train: the discriminator step
    on given generated audio."""

    def make(mode):
        from vocos.discriminators import MultiPeriodDiscriminator

        mpd = MultiPeriodDiscriminator(periods=(2, 3, 5), num_embeddings=len(_BANDWIDTHS) if conditional else None)
        y, y_hat = _audio(512), _audio(512)
        kwargs = {"bandwidth_id": _bandwidth_id(1)} if conditional else {}
        if mode == "train":
            return _modules()["DiscriminatorStep"](mpd), (y, y_hat), kwargs
        return mpd, (y, y_hat), kwargs

    return make


def _discriminator_p(mode):
    """``DiscriminatorP(period=7)`` on 500-sample clips (7 does not divide 500: the reflect
    pad). Eval: its score and feature maps. Train: ``GeneratorLoss`` plus ``FeatureMatchingLoss``."""
    from vocos.discriminators import DiscriminatorP

    disc = DiscriminatorP(period=7)
    y, y_hat = _audio(500), _audio(500)
    if mode == "train":
        return _modules()["SingleDiscriminator"](disc), (y, y_hat), {}
    return disc, (y_hat,), {}


def _discriminator_step(mode):
    """``VocosExp``'s discriminator step on the mel config: ``no_grad`` synthesis, MPD, loss."""
    from vocos.discriminators import MultiPeriodDiscriminator

    gen = _modules()["Generator"](_backbone("mel"), _head("istft", "center"))
    net = _modules()["DiscriminatorStep"](MultiPeriodDiscriminator(periods=(2, 3)), generator=gen)
    return net, (_audio((_FRAMES - 1) * _HOP), _mel()), {}


MODELS = {
    # --- backbones and blocks ---
    "VocosBackbone": _backbone_entry("mel"),
    "VocosBackbone_adanorm": _backbone_entry("adanorm"),
    "VocosResNetBackbone": _backbone_entry("resnet"),
    "ResBlock1_no_layer_scale": _resblock(),
    "ResBlock1_remove_weight_norm": _resblock(remove_wn=True),
    # --- heads ---
    "ISTFTHead_same": _head_entry("istft", "same"),
    "ISTFTHead_center": _head_entry("istft", "center"),
    "IMDCTCosHead_same": _head_entry("imdct_cos", "same"),
    "IMDCTCosHead_center": _head_entry("imdct_cos", "center"),
    "IMDCTSymExpHead_same": _head_entry("imdct_symexp", "same"),
    "IMDCTSymExpHead_center_clip": _head_entry("imdct_symexp", "center", clip_audio=True),
    # --- spectral ops ---
    "ISTFT_same": _istft("same"),
    "ISTFT_center": _istft("center"),
    "MDCT_same": _mdct("same"),
    "MDCT_center": _mdct("center"),
    "IMDCT_same": _imdct("same"),
    "IMDCT_center": _imdct("center"),
    "MDCT_IMDCT_roundtrip": _mdct_roundtrip,
    # --- feature extractor ---
    "EncodecFeatures": _encodec_features(),
    "EncodecFeatures_train_codebooks": _encodec_features(train_codebooks=True),
    # --- the vocoder ---
    "Vocos_mel_decode": _mel_vocos("istft"),
    "Vocos_imdct_decode": _mel_vocos("imdct_cos"),
    "Vocos_resnet_decode": _mel_vocos("istft", backbone_kind="resnet"),
    "Vocos_encodec_copy_synthesis": _encodec_vocos,
    "Vocos_encodec_codes_decode": _encodec_codes,
    # --- discriminators and losses ---
    "MultiPeriodDiscriminator": _mpd(),
    "MultiPeriodDiscriminator_conditional": _mpd(conditional=True),
    "DiscriminatorP_reflect_pad": _discriminator_p,
    "VocosExp_discriminator_step": _discriminator_step,
}
