"""perceiver-pytorch 0.11.0 (lucidrains): Perceiver, Perceiver IO and the experimental variants
it ships, as its README uses them, tiny (8 latents of width 16, 2 latent heads of 8, one cross
head of 8, 4 Fourier bands, depth 2-3; batches of 2: 8 x 8 x 3 images, 16 x 6 sequences,
2 x 4 x 4 x 3 videos, 24 x 12 sequences for Perceiver IO, 16 tokens of 50 for the LM), random
weights, no download:

- ``Perceiver`` (``perceiver_pytorch.perceiver_pytorch``): the README's classifier
  (Fourier-encoded 2-D positions); weight tying with two self-attention blocks per cross
  attention; a padded-input mask with attention and feed-forward dropout; 1-D input without
  Fourier encoding; 3-D (video) input; inverted (slot-style) cross attention given per layer as
  a tuple, with a mask (``l1norm`` after the masked fill); the Enformer attention residual over
  the kept hidden states; no classifier head with ``return_embeddings`` and ``return_hiddens``;
  and two Perceivers in a row, the second reading the first's hidden states as
  ``block_outputs`` (a list, and a single tensor);
- ``PerceiverBlock`` used on its own: queries joining the keys and values
  (``queries_contribute_kv``, the mask padded for them), dropout, then a block without cross
  attention;
- the experimental variants: ``gated.Perceiver`` (GRU-gated residuals; masked; weight tied),
  ``mixed_latents.Perceiver`` (a ``Conv1d`` mixer over the latents instead of self attention;
  masked) and ``experimental.Perceiver`` (linear attention over the input, latents written back
  to the input each layer; depth 3);
- ``PerceiverIO`` (``perceiver_io``): 2-D queries broadcast over the batch; batched queries
  with a decoder feed-forward and a mask; no queries (the latents returned); the structured
  sequence dropout of training (``dropout_seq``: ``topk`` of random logits, gathered; with a mask
  and without, weight tied); the attention residual with inverted cross attention, a mask and
  ``return_hiddens``;
- ``PerceiverLM`` (the README's, tiny): plain, and masked with a decoder feed-forward.

Eval: the output. Train: the classifiers through ``classifier_loss_module`` (cross-entropy
against fixed labels), Perceiver IO with logits through per-query cross-entropy, the LM through
next-token cross-entropy (the library has no loss of its own), the rest through
``mean_loss_module`` (the sum of the means of the float outputs).

    pip install --no-deps perceiver-pytorch==0.11.0
    # einops 0.8.2: installed

It imports torch and einops only. Nothing stubbed. Measured first as it came, before any rule
looked at it.

Capture (torch 2.13.0+cpu): 23 models, 46 runs, all built, all 46 ran under Dynamo (23 eval,
23 train), none failed, and not one graph break, frame skip or recompile: the einops
``rearrange`` / ``repeat`` / ``einsum`` / ``Reduce`` calls, the ``cache_fn`` weight tying (at
construction), ``dropout_seq``'s ``topk`` gather and ``max(1, int(...))`` and the list of hidden
states all trace. First numbers with the frozen linter (``/tmp/lint-start54``): graph-break
statement recall — (0/0), precision — (0/0), 2 findings (both in files run), both unjudged (not
reached: CL131 on the ``nn.Conv1d`` constructions in ``mixed_latents.Mixer``, which only runs in
``__init__``). No miss, no false alarm.

Left out: ``experimental.Perceiver`` with Fourier encoding (0.11.0 counts the input channels
twice in ``input_dim``: ``mat1 and mat2 shapes cannot be multiplied (128x21 and 24x24)`` in
``data_proj``, eagerly) and with a mask (``LinearAttention`` fills a ``(b*h, n, d)`` key with a
``(b, n)`` mask: a size mismatch, eagerly); the multi-modality Perceiver (not in 0.11.0, which
ships only ``perceiver_pytorch``, ``perceiver_io``, ``gated``, ``mixed_latents`` and
``experimental``). To keep the capture short: other depths, head counts and frequency bands
(the same code).
"""

import functools

PACKAGE = "perceiver_pytorch"
DISTRIBUTION = "perceiver-pytorch"

mean_loss_module = None  # adapter.py's, set by ZooSuite
classifier_loss_module = None  # adapter.py's, set by ZooSuite

_B, _CLASSES, _TOKENS, _SEQ = 2, 5, 50, 16
# the README's Perceiver, tiny: 4 frequency bands, 8 latents of width 16, heads of 8
_TINY = dict(num_freq_bands=4, max_freq=10.0, depth=2, num_latents=8, latent_dim=16, cross_heads=1,
             latent_heads=2, cross_dim_head=8, latent_dim_head=8, num_classes=_CLASSES)
_TINY_IO = dict(depth=2, num_latents=8, latent_dim=16, cross_heads=1, latent_heads=2, cross_dim_head=8,
                latent_dim_head=8)


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class LMLoss(nn.Module):
        """Next-token cross-entropy of a token model's logits (``PerceiverLM`` has no loss of
        its own), the mask passed through."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, tokens, mask=None):
            logits = self.net(tokens[:, :-1], mask=None if mask is None else mask[:, :-1])
            return F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:])

    class IOLoss(nn.Module):
        """PerceiverIO trained as its README uses it: per-query logits against fixed labels."""

        def __init__(self, net, classes):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.classes = classes

        def forward(self, data, **kwargs):
            out = self.net(data, **kwargs)
            logits = out[0] if isinstance(out, tuple) else out
            labels = torch.arange(logits.shape[1], device=logits.device) % self.classes
            return F.cross_entropy(logits.transpose(1, 2), labels.expand(logits.shape[0], -1))

    class TwoStage(nn.Module):
        """A Perceiver's hidden states handed to a second one (``block_outputs``) whose
        attention residual reads them, as a tensor or a list."""

        def __init__(self, first, second, as_tensor):
            super().__init__()
            self.first, self.second, self.as_tensor = first, second, as_tensor

        def forward(self, data):
            emb, hiddens = self.first(data, return_embeddings=True, return_hiddens=True)
            given = hiddens[-1] if self.as_tensor else hiddens
            return self.second(data, block_outputs=given)

    class Blocks(nn.Module):
        """``PerceiverBlock`` used on its own: latents cross-attend a context (queries joining
        the keys and values, padded context masked), then latent-only blocks."""

        def __init__(self):
            super().__init__()
            from perceiver_pytorch import PerceiverBlock

            self.latents = nn.Parameter(torch.randn(8, 16))
            self.cross = PerceiverBlock(dim=16, context_dim=16, cross_heads=2, latent_heads=2, cross_dim_head=8,
                                        latent_dim_head=8, self_per_cross_attn=2, queries_contribute_kv=True,
                                        attn_dropout=0.1, ff_dropout=0.1)
            self.latent_only = PerceiverBlock(dim=16, latent_heads=2, latent_dim_head=8, has_cross_attn=False)

        def forward(self, context, mask):
            x = self.latents.expand(context.shape[0], -1, -1)
            x = self.cross(x, context=context, mask=mask)
            return self.latent_only(x)

    return {"LMLoss": LMLoss, "IOLoss": IOLoss, "TwoStage": TwoStage, "Blocks": Blocks}


# --- inputs ---------------------------------------------------------------------------------

def _image(axes=(8, 8), channels=3):
    import torch

    return torch.randn(_B, *axes, channels)


def _mask(n, pad=3):
    import torch

    mask = torch.ones(_B, n, dtype=torch.bool)
    mask[1, n - pad:] = False
    return mask


def _tokens(n=_SEQ):
    import torch

    return torch.randint(0, _TOKENS, (_B, n))


# --- builders --------------------------------------------------------------------------------

def _perceiver(module="perceiver_pytorch", axes=(8, 8), channels=3, masked=False, call=None, **kwargs):
    """A ``Perceiver`` (``perceiver_pytorch.<module>``) over ``_B`` inputs of ``axes`` x
    ``channels``; a classifier, trained with cross-entropy, unless it has no head."""

    def make(mode):
        import importlib

        cls = importlib.import_module(f"perceiver_pytorch.{module}").Perceiver
        cfg = dict(_TINY, input_channels=channels, input_axis=len(axes))
        cfg.update(kwargs)
        net = cls(**cfg)
        args = (_image(axes, channels),)
        kw = dict(call or {})
        if masked:
            n = 1
            for a in axes:
                n *= a
            kw["mask"] = _mask(n)
        if mode != "train":
            return net, args, kw
        if cfg.get("final_classifier_head", True) and not kw.get("return_embeddings"):
            return classifier_loss_module()(net, _B, _CLASSES), args, kw
        return mean_loss_module()(net), args, kw

    return make


def _two_stage(as_tensor):
    def make(mode):
        from perceiver_pytorch import Perceiver

        first = Perceiver(**_TINY, input_channels=3, attn_residual=True, attn_residual_rank=4)
        second = Perceiver(**_TINY, input_channels=3, attn_residual=True, attn_residual_rank=4)
        net = _modules()["TwoStage"](first, second, as_tensor)
        if mode == "train":
            return classifier_loss_module()(net, _B, _CLASSES), (_image(),), {}
        return net, (_image(),), {}

    return make


def _io(queries="2d", masked=False, logits_dim=_CLASSES, call=None, **kwargs):
    """``PerceiverIO`` over a (``_B``, 24, 12) sequence, decoded by 2-D or batched queries (or
    none: the latents); trained with per-query cross-entropy (no queries: the mean)."""

    def make(mode):
        import torch

        from perceiver_pytorch import PerceiverIO

        cfg = dict(_TINY_IO, dim=12, queries_dim=10, logits_dim=logits_dim)
        cfg.update(kwargs)
        net = PerceiverIO(**cfg)
        kw = dict(call or {})
        if queries == "2d":
            kw["queries"] = torch.randn(6, 10)
        elif queries == "3d":
            kw["queries"] = torch.randn(_B, 6, 10)
        if masked:
            kw["mask"] = _mask(24)
        args = (torch.randn(_B, 24, 12),)
        if mode != "train":
            return net, args, kw
        if queries and logits_dim:
            return _modules()["IOLoss"](net, _CLASSES), args, kw
        return mean_loss_module()(net), args, kw

    return make


def _lm(masked=False, **kwargs):
    """``PerceiverLM`` over ``_SEQ`` tokens (the README's, tiny); trained on next tokens."""

    def make(mode):
        from perceiver_pytorch import PerceiverLM

        cfg = dict(_TINY_IO, dim=16, num_tokens=_TOKENS, max_seq_len=32)
        cfg.update(kwargs)
        net = PerceiverLM(**cfg)
        tokens = _tokens()
        kw = {"mask": _mask(_SEQ)} if masked else {}
        if mode == "train":
            return _modules()["LMLoss"](net), (tokens,), kw
        return net, (tokens,), kw

    return make


def _blocks(mode):
    import torch

    net = _modules()["Blocks"]()
    args = (torch.randn(_B, 12, 16), _mask(12))
    return (mean_loss_module()(net) if mode == "train" else net), args, {}


MODELS = {
    # --- Perceiver (perceiver_pytorch.perceiver_pytorch) ---
    "Perceiver": _perceiver(),
    "Perceiver_weight_tied_self2": _perceiver(depth=3, weight_tie_layers=True, self_per_cross_attn=2),
    "Perceiver_masked_dropout": _perceiver(masked=True, attn_dropout=0.1, ff_dropout=0.1),
    "Perceiver_no_fourier_1d": _perceiver(axes=(16,), channels=6, fourier_encode_data=False),
    "Perceiver_video_3d": _perceiver(axes=(2, 4, 4), channels=3),
    "Perceiver_inverted_tuple": _perceiver(masked=True, inverted_cross_attn=(True, False)),
    "Perceiver_attn_residual": _perceiver(depth=3, attn_residual=True, attn_residual_rank=4),
    "Perceiver_embeddings_hiddens": _perceiver(final_classifier_head=False,
                                               call=dict(return_embeddings=True, return_hiddens=True)),
    "Perceiver_block_outputs_list": _two_stage(as_tensor=False),
    "Perceiver_block_outputs_tensor": _two_stage(as_tensor=True),
    "PerceiverBlock_queries_contribute_kv": _blocks,
    # --- the experimental variants ---
    "Perceiver_gated": _perceiver("gated", masked=True),
    "Perceiver_gated_weight_tied": _perceiver("gated", depth=3, weight_tie_layers=True),
    "Perceiver_mixed_latents": _perceiver("mixed_latents", masked=True),
    "Perceiver_experimental": _perceiver("experimental", depth=3, fourier_encode_data=False),
    # --- PerceiverIO and PerceiverLM (perceiver_pytorch.perceiver_io) ---
    "PerceiverIO": _io(),
    "PerceiverIO_batched_queries_decoder_ff": _io(queries="3d", decoder_ff=True, masked=True),
    "PerceiverIO_latents_only": _io(queries=None, logits_dim=None),
    "PerceiverIO_seq_dropout_masked": _io(seq_dropout_prob=0.25, masked=True),
    "PerceiverIO_seq_dropout": _io(seq_dropout_prob=0.25, weight_tie_layers=True),
    "PerceiverIO_attn_residual_inverted": _io(attn_residual=True, attn_residual_rank=4, inverted_cross_attn=True,
                                              masked=True, call=dict(return_hiddens=True)),
    "PerceiverLM": _lm(),
    "PerceiverLM_masked": _lm(masked=True, decoder_ff=True),
}
