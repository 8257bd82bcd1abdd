"""snac 1.2.1 (Hubert Siuzdak): SNAC, the multi-scale neural audio codec (DAC-style SEANet
encoder / decoder with Snake activations, local windowed attention, and a residual VQ whose
coarse codebooks run at lower frame rates), built from its constructors as its README uses it
(``SNAC(...)``, ``model(audio)``, ``model.encode(audio)`` then ``model.decode(codes)``) and as
the three pretrained ``config.json`` files (``hubertsiuzdak/snac_24khz`` / ``_32khz`` /
``_44khz``) and the class defaults set it up: their rates, VQ strides and attention windows
kept, narrowed to tiny widths (``encoder_dim`` 4, so a 64-channel latent and one 64-d head;
``decoder_dim`` 64-128; 64-entry codebooks of dim 8), batches of 2 mono clips of 60-14000
samples, random weights, no download. (The configs are on the Hub, not in the repository: the
24 kHz one as ports quote it, e.g. mlx-audio's SNAC test; the 32 / 44 kHz rates ``[2, 3, 8, 8]``
with window 32 and strides ``[8, 4, 2, 1]`` as the README's code lengths ``[12, 24, 48, 96]``
for a 32000-sample clip and the table's bitrates, 1.9 / 2.6 kbps, fix them.) The repository
has no tests or examples beyond the README, so the building blocks are configured from the
constructors SNAC itself calls:

- ``SNAC`` whole (forward: ``preprocess``' right pad to ``hop_length * lcm(vq_strides[0],
  attn_window_size)``, encode, quantize, decode, trim; returns audio and the list of codes):
  24 kHz-like (rates ``[2, 4, 8, 8]``, no attention, strides ``[4, 2, 1]``), 32 kHz-like
  (``[2, 3, 8, 8]``, window 32, ``[8, 4, 2, 1]``), 44 kHz-like (the same, two decoder heads),
  the defaults (``[3, 3, 7, 7]``), and small rates ``[2, 2]`` (window 4, strides ``[2, 1]``)
  plain, without attention, and with ``noise=False, depthwise=False``;
- ``SNAC.encode`` (small and 24 kHz-like), ``SNAC.decode`` of the codes ``encode`` gives
  (small and 44 kHz-like), and the README's ``encode`` then ``decode``;
- ``layers.py``: ``Encoder`` (depthwise with ``LocalMHA``; plain without), ``Decoder``
  (depthwise, ``NoiseBlock``s and ``LocalMHA``; plain, no noise, ``d_out=2``),
  ``EncoderBlock`` (stride 3, grouped), ``DecoderBlock`` (stride 3 with its
  ``output_padding`` and noise; stride 2), ``ResidualUnit`` (dilation 9, grouped),
  ``NoiseBlock``, ``Snake1d`` (its ``@torch.jit.script`` ``snake``) and the ``WNConv1d`` /
  ``WNConvTranspose1d`` weight-norm parametrizations;
- ``vq.py``: ``VectorQuantize`` (stride 1; stride 4: ``avg_pool1d`` then
  ``repeat_interleave``), ``ResidualVectorQuantize`` (SNAC's ``[8, 4, 2, 1]`` and its default
  ``[1, 1, 1, 1]``) and its ``from_codes``;
- ``attention.py``: ``LocalMHA`` (rotary, 2 heads; no rotary; ``dim_head=16``, 4 heads) and
  ``SinusoidalEmbeddings`` + ``apply_rotary_pos_emb`` on windowed q / k, plain and with xpos
  scaling (``use_xpos=True``, which ``LocalMHA`` never sets).

Eval: the forward. Train: the sum of the means of the float outputs (``mean_loss_module``):
snac ships no loss (the paper trains with DAC's mel / adversarial losses, not in the package),
and its VQ returns no commitment loss; the straight-through estimator carries the gradient.
The two ``encode`` entries are eval only (integer codes: nothing to train; the factory raises
for "train").

    pip install --no-deps snac==1.2.1
    # already there from other adapters: einops 0.8.2, numpy 2.4.6 (huggingface-hub 0.36.0,
    #  its other requirement, is imported only inside ``SNAC.from_pretrained``, not used)

It imports torch, numpy and einops at the top. Nothing stubbed. Measured first as it came,
before any rule looked at it.

Capture (torch 2.13.0+cpu): 33 models, 66 runs, all built; 64 ran under Dynamo (33 eval, 31
train), none failed or timed out; the 2 others are the ``encode`` entries' "train", refused by
the factory. 46 runs have no break at all: every building block (the jit-scripted ``snake``,
weight norm, ``LocalMHA`` and its rotary embeddings, the VQ's argmax and straight-through
estimator, ``NoiseBlock``'s ``torch.randn``), ``SNAC.decode`` and ``from_codes``. 18 runs break
(every run through ``SNAC.preprocess``: the ``SNAC`` forwards, ``encode``, ``encode`` then
``decode``), at two statements, both GB0033 (``aten._local_scalar_dense``, a data-dependent
scalar): ``hop_length`` is ``np.prod(encoder_rates)`` (``snac.py:39``), a NumPy ``int64``, which
Dynamo traces as a 0-d tensor, so ``math.ceil(length / pad_to)`` (``snac.py:70``) and then the
``(0, right_pad)`` pad widths of ``nn.functional.pad`` (``snac.py:71``) need its value. No
recompiles. First numbers with the frozen linter (``/tmp/lint-start56``): graph-break
statement recall 0.00 (0/2), precision — (no finding on executed lines), 0 findings in the
package, 0 unjudged. Both breaks are misses.

Left out: ``SNAC.from_pretrained`` / ``from_config`` (download or read checkpoints and JSON);
the pretrained widths (``encoder_dim`` 48-64, ``decoder_dim`` 1024-1536, 4096-entry codebooks:
20-55M parameters) and clips of a second or more, to keep the capture short;
``latent_dim`` other than ``encoder_dim * 2 ** len(encoder_rates)`` (the encoder's width is
fixed by that product, so the quantizer's first conv would not match: an eager failure).
"""

import functools

PACKAGE = "snac"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B = 2
# The pretrained configs (hubertsiuzdak/snac_{24,32,44}khz config.json: see the docstring),
# kept in their rates, strides and windows, narrowed to encoder_dim 4 (a 64-channel latent:
# LocalMHA's dim_head is 64, one head), decoder_dim 64-128, 64-entry codebooks.
_24K = dict(sampling_rate=24000, encoder_dim=4, encoder_rates=[2, 4, 8, 8], decoder_dim=64,
            decoder_rates=[8, 8, 4, 2], attn_window_size=None, codebook_size=64, codebook_dim=8,
            vq_strides=[4, 2, 1], noise=True, depthwise=True)
_32K = dict(sampling_rate=32000, encoder_dim=4, encoder_rates=[2, 3, 8, 8], decoder_dim=64,
            decoder_rates=[8, 8, 3, 2], attn_window_size=32, codebook_size=64, codebook_dim=8,
            vq_strides=[8, 4, 2, 1], noise=True, depthwise=True)
_44K = dict(sampling_rate=44100, encoder_dim=4, encoder_rates=[2, 3, 8, 8], decoder_dim=128,
            decoder_rates=[8, 8, 3, 2], attn_window_size=32, codebook_size=64, codebook_dim=8,
            vq_strides=[8, 4, 2, 1], noise=True, depthwise=True)
_DEFAULT = dict(encoder_dim=4, decoder_dim=64, codebook_size=64)  # rates [3, 3, 7, 7], window 32, strides [8, 4, 2, 1]
# small rates (hop 4): a 64-channel latent from encoder_dim 16, windows of 4
_SMALL = dict(sampling_rate=16000, encoder_dim=16, encoder_rates=[2, 2], decoder_dim=64, decoder_rates=[2, 2],
              attn_window_size=4, codebook_size=32, codebook_dim=4, vq_strides=[2, 1])


@functools.cache
def _modules():
    import torch
    from torch import nn

    from snac.attention import SinusoidalEmbeddings, apply_rotary_pos_emb

    class Encode(nn.Module):
        """``codes = model.encode(audio)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, audio):
            return self.model.encode(audio)

    class Decode(nn.Module):
        """``audio_hat = model.decode(codes)`` (codes: a list of index tensors, one per scale)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, *codes):
            return self.model.decode(list(codes))

    class EncodeDecode(nn.Module):
        """The README's ``codes = model.encode(audio)`` then ``audio_hat = model.decode(codes)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, audio):
            codes = self.model.encode(audio)
            return self.model.decode(codes), codes

    class FromCodes(nn.Module):
        """``ResidualVectorQuantize.from_codes(codes)``."""

        def __init__(self, rvq):
            super().__init__()
            self.rvq = rvq

        def forward(self, *codes):
            return self.rvq.from_codes(list(codes))

    class RotaryQK(nn.Module):
        """``LocalMHA``'s rotary path alone: a linear q/k projection into (b, h, w, n, d) windows,
        ``SinusoidalEmbeddings(k)``, ``apply_rotary_pos_emb(q, k, freqs, scale)``."""

        def __init__(self, dim=32, heads=2, window=8, use_xpos=False):
            super().__init__()
            self.heads, self.window = heads, window
            self.to_qk = nn.Linear(dim, 2 * dim, bias=False)
            self.rel_pos = SinusoidalEmbeddings(dim // heads, scale_base=window // 2, use_xpos=use_xpos)

        def forward(self, x):
            b, t, d = x.shape
            q, k = self.to_qk(x).chunk(2, dim=-1)
            q, k = (z.reshape(b, t // self.window, self.window, self.heads, d // self.heads).permute(0, 3, 1, 2, 4)
                    for z in (q, k))
            freqs, scale = self.rel_pos(k)
            return apply_rotary_pos_emb(q, k, freqs, scale)

    return {"Encode": Encode, "Decode": Decode, "EncodeDecode": EncodeDecode, "FromCodes": FromCodes,
            "RotaryQK": RotaryQK}


def _audio(length):
    import torch

    return torch.randn(_B, 1, length).clamp(-1, 1)


def _train(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _snac(config, length, wrap=None):
    """``SNAC(**config)`` on ``_B`` mono clips of ``length`` samples (``preprocess`` pads them
    right to a multiple of ``hop_length * lcm(vq_strides[0], attn_window_size)``)."""

    def make(mode):
        from snac import SNAC

        if wrap == "Encode" and mode == "train":
            raise NotImplementedError("SNAC.encode returns integer codes only: nothing to train (eval only)")
        model = SNAC(**config)
        net = model if wrap is None else _modules()[wrap](model)
        return _train(net, mode), (_audio(length),), {}

    return make


def _snac_decode(config, length):
    """``SNAC.decode`` of the codes its ``encode`` gives for a random clip (found in eager)."""

    def make(mode):
        import torch

        from snac import SNAC

        model = SNAC(**config)
        with torch.no_grad():
            codes = model.encode(_audio(length))
        return _train(_modules()["Decode"](model), mode), tuple(codes), {}

    return make


def _layer(module, name, shape, **kwargs):
    """``snac.<module>.<name>(**kwargs)`` on ``torch.randn(*shape)``."""

    def make(mode):
        import importlib

        import torch

        net = getattr(importlib.import_module(f"snac.{module}"), name)(**kwargs)
        return _train(net, mode), (torch.randn(*shape),), {}

    return make


def _wn_convs(mode):
    """``WNConv1d`` -> ``Snake1d`` -> ``WNConvTranspose1d`` (weight-norm parametrizations)."""
    import torch
    from torch import nn

    from snac.layers import Snake1d, WNConv1d, WNConvTranspose1d

    net = nn.Sequential(WNConv1d(4, 8, kernel_size=4, stride=2, padding=1), Snake1d(8),
                        WNConvTranspose1d(8, 4, kernel_size=4, stride=2, padding=1))
    return _train(net, mode), (torch.randn(_B, 4, 32),), {}


def _from_codes(vq_strides, t=16):
    """``ResidualVectorQuantize.from_codes`` of random codes at each stride's rate."""

    def make(mode):
        import torch

        from snac.vq import ResidualVectorQuantize

        rvq = ResidualVectorQuantize(input_dim=16, codebook_size=32, codebook_dim=4, vq_strides=vq_strides)
        codes = tuple(torch.randint(0, 32, (_B, t // s)) for s in vq_strides)
        return _train(_modules()["FromCodes"](rvq), mode), codes, {}

    return make


def _rotary(use_xpos):
    def make(mode):
        import torch

        return _train(_modules()["RotaryQK"](use_xpos=use_xpos), mode), (torch.randn(_B, 16, 32),), {}

    return make


MODELS = {
    # --- SNAC, whole codec (forward: padded, encoded, quantized, decoded, trimmed; and codes) ---
    "SNAC_24khz_like": _snac(_24K, 2000),
    "SNAC_32khz_like": _snac(_32K, 12000),
    "SNAC_44khz_like": _snac(_44K, 12000),
    "SNAC_defaults": _snac(_DEFAULT, 14000),
    "SNAC_small": _snac(_SMALL, 60),
    "SNAC_small_no_attn": _snac(dict(_SMALL, attn_window_size=None), 60),
    "SNAC_small_plain": _snac(dict(_SMALL, noise=False, depthwise=False), 60),
    "SNAC_encode": _snac(_SMALL, 60, wrap="Encode"),
    "SNAC_encode_24khz_like": _snac(_24K, 2000, wrap="Encode"),
    "SNAC_decode": _snac_decode(_SMALL, 64),
    "SNAC_decode_44khz_like": _snac_decode(_44K, 12288),
    "SNAC_encode_decode": _snac(_SMALL, 60, wrap="EncodeDecode"),
    # --- layers.py ---
    "Encoder": _layer("layers", "Encoder", (_B, 1, 64), d_model=16, strides=[2, 2], depthwise=True,
                      attn_window_size=8),
    "Encoder_plain": _layer("layers", "Encoder", (_B, 1, 64), d_model=4, strides=[3, 2], depthwise=False,
                            attn_window_size=None),
    "Decoder": _layer("layers", "Decoder", (_B, 32, 16), input_channel=32, channels=64, rates=[2, 3], noise=True,
                      depthwise=True, attn_window_size=8),
    "Decoder_plain": _layer("layers", "Decoder", (_B, 16, 10), input_channel=16, channels=16, rates=[3, 2],
                            noise=False, depthwise=False, attn_window_size=None, d_out=2),
    "EncoderBlock": _layer("layers", "EncoderBlock", (_B, 8, 30), output_dim=16, stride=3, groups=8),
    "DecoderBlock_noise": _layer("layers", "DecoderBlock", (_B, 16, 10), input_dim=16, output_dim=8, stride=3,
                                 noise=True, groups=8),
    "DecoderBlock": _layer("layers", "DecoderBlock", (_B, 16, 10), input_dim=16, output_dim=8, stride=2),
    "ResidualUnit": _layer("layers", "ResidualUnit", (_B, 8, 40), dim=8, dilation=9, groups=8),
    "NoiseBlock": _layer("layers", "NoiseBlock", (_B, 8, 20), dim=8),
    "Snake1d": _layer("layers", "Snake1d", (_B, 8, 20), channels=8),
    "WNConv1d_WNConvTranspose1d": _wn_convs,
    # --- vq.py ---
    "VectorQuantize": _layer("vq", "VectorQuantize", (_B, 16, 12), input_dim=16, codebook_size=32,
                             codebook_dim=4),
    "VectorQuantize_stride4": _layer("vq", "VectorQuantize", (_B, 16, 16), input_dim=16, codebook_size=32,
                                     codebook_dim=4, stride=4),
    "ResidualVectorQuantize": _layer("vq", "ResidualVectorQuantize", (_B, 16, 16), input_dim=16,
                                     codebook_size=32, codebook_dim=4, vq_strides=[8, 4, 2, 1]),
    "ResidualVectorQuantize_defaults": _layer("vq", "ResidualVectorQuantize", (_B, 16, 12), input_dim=16,
                                              codebook_size=32, codebook_dim=4),
    "ResidualVectorQuantize_from_codes": _from_codes([8, 4, 2, 1]),
    # --- attention.py ---
    "LocalMHA": _layer("attention", "LocalMHA", (_B, 128, 16), dim=128, window_size=8),
    "LocalMHA_no_rotary": _layer("attention", "LocalMHA", (_B, 64, 16), dim=64, window_size=4,
                                 use_rotary_pos_emb=False),
    "LocalMHA_dim_head16": _layer("attention", "LocalMHA", (_B, 64, 12), dim=64, window_size=6, dim_head=16),
    "SinusoidalEmbeddings_rotary": _rotary(False),
    "SinusoidalEmbeddings_xpos_rotary": _rotary(True),
}
