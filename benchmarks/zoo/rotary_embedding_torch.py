"""rotary-embedding-torch (lucidrains) 0.9.1, import name ``rotary_embedding_torch``: the
``RotaryEmbedding`` module and its helpers as its README uses them, on tiny queries and keys
(batch 2, 2 heads, 16 positions, head dim 16; rotary dim 8, so partial rotation as in the README,
unless said), random weights, no download:

- ``rotate_queries_or_keys`` on ``q`` and ``k``: partial and full head dim, the frequency cache
  off (``cache_if_possible=False``), ``seq_before_head_dim`` (``(B, N, H, D)``), heads folded
  into the batch (``(B, N, D)``), a key/value-cache offset by hand (``offset=k_len - q_len``,
  the README's manual form), ``interpolate_factor=2``, NTK-aware ``theta_rescale_factor``,
  ``learned_freq``, ``freqs_for="pixel"``, ``freqs_for="constant"``, ``custom_freqs``;
- ``rotate_queries_with_cached_keys`` (one query, 16 cached keys), without and with xpos;
- xpos (``use_xpos=True``, ``rotate_queries_and_keys``): cached, uncached, sequence before heads;
- axial frequencies: the README's video (``freqs_for="pixel"``, ``max_freq=256``,
  ``get_axial_freqs(4, 4, 4)``, then ``apply_rotary_emb`` on ``(1, 4, 4, 4, 16)``), an image
  grid with language frequencies, ``get_axial_freqs`` with ``offsets``, and the older 2-D form
  (``broadcat`` of per-axis frequencies, as tortoise-tts does);
- ``apply_rotary_emb`` on frequencies from ``rotary_emb(positions)`` with ``start_index``;
  ``apply_learned_rotations`` of rotations a linear layer predicts, with ``freq_ranges``;
- tiny attention modules built as the README says ("instantiate the positional embedding in
  your transformer and pass to all your attention layers"): one causal self-attention, a
  2-layer causal transformer LM sharing one ``RotaryEmbedding`` (plain and xpos), a greedy
  decoder with a key/value cache (``rotate_queries_with_cached_keys`` per step), and a ViT-style
  classifier with axial pixel frequencies on its 4x4 patch grid;
- the package's fused-attention front ends on their PyTorch reference path
  (``get_flash_attention_fused(force_reference=True)`` of ``flash_attn_with_rotary`` and of
  ``flash_fused_rotary``): ``rotary_pos_emb`` with grouped KV heads, ``rotary_pos_emb_indices``
  with a boolean key mask, explicit ``cos`` / ``sin``.

Eval: the rotated tensors or the modules' outputs. Train: the LMs' next-token cross-entropy, the
classifier's cross-entropy (``classifier_loss_module``), ``mean_loss_module`` over the rest, its
float inputs requiring grad (the queries and keys of a training step are activations).

    pip install --no-deps rotary-embedding-torch==0.9.1
    pip install einops==0.8.2

Nothing stubbed (it imports torch and einops; the fused-attention modules import triton when it
is there, and otherwise fall back to the reference path themselves).

Left out: the Triton kernels of ``flash_attn_with_rotary`` / ``flash_fused_rotary``
(``FlashAttentionFused``, CUDA only; ``force_reference=True`` picks the PyTorch path, which they
also take on their own without triton).
"""

import functools

PACKAGE = "rotary_embedding_torch"
DISTRIBUTION = "rotary-embedding-torch"

_B, _H, _N, _D = 2, 2, 16, 16  # batch, heads, positions, head dim
_ROT = 8  # rotary dim (partial rotation of the head dim)
_VOCAB, _WIDTH = 32, 32  # the tiny LMs' vocabulary and width


def warm_up():
    import torch  # noqa: F401

    import rotary_embedding_torch  # noqa: F401
    import rotary_embedding_torch.flash_attn_with_rotary  # noqa: F401
    import rotary_embedding_torch.flash_fused_rotary  # noqa: F401


# --- the user-side modules (built once) ---------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from einops import rearrange
    from torch import nn

    from rotary_embedding_torch import RotaryEmbedding, apply_learned_rotations, apply_rotary_emb, broadcat

    class RotateQK(nn.Module):
        """``q`` and ``k`` each through ``rotate_queries_or_keys`` (``offset``: the query's,
        ``k_len - q_len``, as a key/value cache needs)."""

        def __init__(self, rotary, seq_dim=None, cache_offset=False):
            super().__init__()
            self.rotary, self.seq_dim, self.cache_offset = rotary, seq_dim, cache_offset

        def forward(self, q, k):
            offset = 0
            if self.cache_offset:
                dim = self.seq_dim if self.seq_dim is not None else -2
                offset = k.shape[dim] - q.shape[dim]
            q = self.rotary.rotate_queries_or_keys(q, seq_dim=self.seq_dim, offset=offset)
            k = self.rotary.rotate_queries_or_keys(k, seq_dim=self.seq_dim)
            return q, k

    class RotateXPos(nn.Module):
        """``rotate_queries_and_keys(q, k)`` (xpos)."""

        def __init__(self, rotary):
            super().__init__()
            self.rotary = rotary

        def forward(self, q, k):
            return self.rotary.rotate_queries_and_keys(q, k)

    class RotateCached(nn.Module):
        """``rotate_queries_with_cached_keys(q, k)``."""

        def __init__(self, rotary):
            super().__init__()
            self.rotary = rotary

        def forward(self, q, k):
            return self.rotary.rotate_queries_with_cached_keys(q, k)

    class Axial(nn.Module):
        """``freqs = rotary.get_axial_freqs(*dims[, offsets=])``, then ``apply_rotary_emb`` on
        ``q`` and ``k`` (their axes ``dims`` before the feature dim)."""

        def __init__(self, rotary, dims, offsets=None):
            super().__init__()
            self.rotary, self.dims, self.offsets = rotary, dims, offsets

        def forward(self, q, k):
            freqs = self.rotary.get_axial_freqs(*self.dims, offsets=self.offsets)
            return apply_rotary_emb(freqs, q), apply_rotary_emb(freqs, k)

    class Broadcat2d(nn.Module):
        """The older 2-D form: per-axis frequencies ``rotary(positions)``, broadcast-concatenated
        (``broadcat``) into an ``(h, w, 2 * dim)`` grid, applied to ``(B, h, w, D)`` features."""

        def __init__(self, rotary):
            super().__init__()
            self.rotary = rotary

        def forward(self, t):
            h, w = t.shape[1], t.shape[2]
            freqs_h = self.rotary(torch.linspace(-1, 1, steps=h))
            freqs_w = self.rotary(torch.linspace(-1, 1, steps=w))
            freqs = broadcat((freqs_h[:, None, :], freqs_w[None, :, :]), dim=-1)
            return apply_rotary_emb(freqs, t)

    class StartIndex(nn.Module):
        """``apply_rotary_emb(rotary(positions), t, start_index=4)``: rotate features 4..4+dim."""

        def __init__(self, rotary):
            super().__init__()
            self.rotary = rotary

        def forward(self, q):
            freqs = self.rotary(torch.arange(q.shape[-2], device=q.device))
            return apply_rotary_emb(freqs, q, start_index=4)

    class LearnedRotations(nn.Module):
        """Rotations predicted from the tokens (a linear layer), expanded over two frequency
        ranges, applied with ``apply_learned_rotations``."""

        def __init__(self):
            super().__init__()
            self.to_rotations = nn.Linear(_WIDTH, _ROT // 4)
            self.register_buffer("freq_ranges", torch.tensor([1.0, 2.0]))

        def forward(self, x, q):
            rotations = rearrange(self.to_rotations(x), "b n r -> b 1 n r")
            return apply_learned_rotations(rotations, q, freq_ranges=self.freq_ranges)

    class Attention(nn.Module):
        """Multi-head self-attention, rotary on ``q`` and ``k`` (``xpos``: both at once), causal
        scaled dot-product attention."""

        def __init__(self, rotary, xpos=False, causal=True):
            super().__init__()
            self.rotary, self.xpos, self.causal = rotary, xpos, causal
            self.to_qkv = nn.Linear(_WIDTH, 3 * _WIDTH, bias=False)
            self.to_out = nn.Linear(_WIDTH, _WIDTH)

        def forward(self, x):
            q, k, v = rearrange(self.to_qkv(x), "b n (three h d) -> three b h n d", three=3, h=_H)
            if self.xpos:
                q, k = self.rotary.rotate_queries_and_keys(q, k)
            else:
                q = self.rotary.rotate_queries_or_keys(q)
                k = self.rotary.rotate_queries_or_keys(k)
            out = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
            return self.to_out(rearrange(out, "b h n d -> b n (h d)"))

    class TransformerLM(nn.Module):
        """A 2-layer causal transformer LM, one ``RotaryEmbedding`` shared by its layers."""

        def __init__(self, xpos=False):
            super().__init__()
            self.rotary = RotaryEmbedding(dim=_ROT, use_xpos=xpos)
            self.embed = nn.Embedding(_VOCAB, _WIDTH)
            self.layers = nn.ModuleList(
                nn.ModuleList([nn.LayerNorm(_WIDTH), Attention(self.rotary, xpos=xpos), nn.LayerNorm(_WIDTH),
                               nn.Sequential(nn.Linear(_WIDTH, 2 * _WIDTH), nn.GELU(), nn.Linear(2 * _WIDTH, _WIDTH))])
                for _ in range(2))
            self.norm = nn.LayerNorm(_WIDTH)
            self.head = nn.Linear(_WIDTH, _VOCAB)

        def forward(self, tokens):
            x = self.embed(tokens)
            for norm1, attn, norm2, ff in self.layers:
                x = x + attn(norm1(x))
                x = x + ff(norm2(x))
            return self.head(self.norm(x))

    class LMLoss(nn.Module):
        """Next-token cross-entropy."""

        def __init__(self, lm):
            super().__init__()
            self.lm = lm

        def forward(self, tokens):
            logits = self.lm(tokens[:, :-1])
            return F.cross_entropy(logits.reshape(-1, _VOCAB), tokens[:, 1:].reshape(-1))

    class CachedDecoder(nn.Module):
        """Greedy decoding with a key/value cache: the prompt at once, then one token per step,
        its query rotated against all cached keys (``rotate_queries_with_cached_keys``)."""

        def __init__(self, steps=4):
            super().__init__()
            self.steps = steps
            self.rotary = RotaryEmbedding(dim=_ROT)
            self.embed = nn.Embedding(_VOCAB, _WIDTH)
            self.to_qkv = nn.Linear(_WIDTH, 3 * _WIDTH, bias=False)
            self.to_out = nn.Linear(_WIDTH, _WIDTH)
            self.head = nn.Linear(_WIDTH, _VOCAB)

        def attend(self, x, cache):
            q, k, v = rearrange(self.to_qkv(x), "b n (three h d) -> three b h n d", three=3, h=_H)
            if cache is not None:
                k = torch.cat([cache[0], k], dim=-2)
                v = torch.cat([cache[1], v], dim=-2)
            rq, rk = self.rotary.rotate_queries_with_cached_keys(q, k)
            out = F.scaled_dot_product_attention(rq, rk, v, is_causal=cache is None)
            out = self.to_out(rearrange(out, "b h n d -> b n (h d)"))
            return self.head(x + out), (k, v)

        def forward(self, prompt):
            logits, cache = self.attend(self.embed(prompt), None)
            tokens = [prompt]
            for _ in range(self.steps):
                nxt = logits[:, -1:].argmax(dim=-1)
                tokens.append(nxt)
                logits, cache = self.attend(self.embed(nxt), cache)
            return torch.cat(tokens, dim=1), logits

    class AxialViT(nn.Module):
        """A ViT-style classifier: 4x4 patches of a 16x16 image, attention whose queries and keys
        take axial pixel frequencies of the 4x4 grid (``get_axial_freqs(4, 4)``), mean pooling."""

        def __init__(self, classes=10):
            super().__init__()
            self.rotary = RotaryEmbedding(dim=_ROT // 2, freqs_for="pixel", max_freq=16)
            self.patch = nn.Conv2d(3, _WIDTH, kernel_size=4, stride=4)
            self.to_qkv = nn.Linear(_WIDTH, 3 * _WIDTH, bias=False)
            self.to_out = nn.Linear(_WIDTH, _WIDTH)
            self.head = nn.Linear(_WIDTH, classes)

        def forward(self, images):
            x = self.patch(images)  # (B, C, 4, 4)
            h, w = x.shape[-2:]
            x = rearrange(x, "b c h w -> b (h w) c")
            q, k, v = rearrange(self.to_qkv(x), "b n (three h d) -> three b h n d", three=3, h=_H)
            freqs = rearrange(self.rotary.get_axial_freqs(h, w), "h w d -> (h w) d")
            q, k = apply_rotary_emb(freqs, q), apply_rotary_emb(freqs, k)
            out = F.scaled_dot_product_attention(q, k, v)
            x = x + self.to_out(rearrange(out, "b h n d -> b n (h d)"))
            return self.head(x.mean(dim=1))

    class FusedAttention(nn.Module):
        """A fused-attention front end on its reference path, ``rotary_pos_emb`` from
        ``rotary(positions)`` (``indices``: only the positions listed are rotated)."""

        def __init__(self, module, indices=False):
            super().__init__()
            self.attend = getattr(__import__(f"rotary_embedding_torch.{module}", fromlist=["x"]),
                                  "get_flash_attention_fused")(force_reference=True)
            self.rotary = RotaryEmbedding(dim=_ROT)
            self.indices = indices

        def forward(self, q, k, v, mask=None):
            if self.indices:
                idx = torch.arange(0, q.shape[-2], 2, device=q.device)
                freqs = self.rotary(torch.arange(idx.shape[0], device=q.device))
                return self.attend(q, k, v, rotary_pos_emb=freqs, rotary_pos_emb_indices=idx, attn_mask=mask)
            freqs = self.rotary(torch.arange(q.shape[-2], device=q.device))
            return self.attend(q, k, v, rotary_pos_emb=freqs, attn_mask=mask)

    class FusedCosSin(nn.Module):
        """``flash_fused_rotary``'s front end on its reference path with ``cos`` / ``sin`` given."""

        def __init__(self):
            super().__init__()
            from rotary_embedding_torch.flash_fused_rotary import get_flash_attention_fused

            self.attend = get_flash_attention_fused(force_reference=True)
            self.rotary = RotaryEmbedding(dim=_ROT)

        def forward(self, q, k, v):
            freqs = self.rotary(torch.arange(q.shape[-2], device=q.device))
            return self.attend(q, k, v, cos=freqs.cos(), sin=freqs.sin(), is_causal=True)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


def _loss(mode, net, args, kwargs=None):
    """``net`` in eval; ``mean_loss_module(net)`` in train, its float inputs (queries, keys,
    features: activations of the layers before, in training) requiring grad."""
    if mode == "train":
        net = mean_loss_module()(net)  # noqa: F821 (set by ZooSuite)
        for a in args:
            if a.is_floating_point():
                a.requires_grad_(True)
    return net, args, kwargs or {}


def _qk(*shape):
    import torch

    shape = shape or (_B, _H, _N, _D)
    return torch.randn(*shape), torch.randn(*shape)


# --- rotations --------------------------------------------------------------------------------------

def _rotate(shape=None, seq_dim=None, cache_offset=False, **options):
    """``RotateQK`` of ``RotaryEmbedding(dim=8, **options)``."""

    def make(mode):
        from rotary_embedding_torch import RotaryEmbedding

        options.setdefault("dim", _ROT)
        rotary = RotaryEmbedding(**options)
        q, k = _qk(*(shape or ()))
        if cache_offset:
            q = q[..., -1:, :]
        return _loss(mode, _nets().RotateQK(rotary, seq_dim=seq_dim, cache_offset=cache_offset), (q, k))

    return make


def _custom_freqs(mode):
    import torch

    from rotary_embedding_torch import RotaryEmbedding

    rotary = RotaryEmbedding(dim=_ROT, custom_freqs=torch.tensor([1.0, 0.5, 0.1, 0.01]))
    return _loss(mode, _nets().RotateQK(rotary), _qk())


def _cached_keys(**options):
    def make(mode):
        from rotary_embedding_torch import RotaryEmbedding

        rotary = RotaryEmbedding(dim=_ROT, **options)
        q, k = _qk()
        return _loss(mode, _nets().RotateCached(rotary), (q[..., -1:, :], k))

    return make


def _xpos(shape=None, **options):
    def make(mode):
        from rotary_embedding_torch import RotaryEmbedding

        rotary = RotaryEmbedding(dim=_ROT, use_xpos=True, **options)
        return _loss(mode, _nets().RotateXPos(rotary), _qk(*(shape or ())))

    return make


# --- axial ------------------------------------------------------------------------------------------

def _axial(dims, shape, offsets=None, **options):
    def make(mode):
        from rotary_embedding_torch import RotaryEmbedding

        rotary = RotaryEmbedding(**options)
        return _loss(mode, _nets().Axial(rotary, dims, offsets=offsets), _qk(*shape))

    return make


def _broadcat(mode):
    import torch

    from rotary_embedding_torch import RotaryEmbedding

    rotary = RotaryEmbedding(dim=_ROT // 2, freqs_for="pixel", max_freq=16)
    return _loss(mode, _nets().Broadcat2d(rotary), (torch.randn(_B, 4, 4, _D),))


def _start_index(mode):
    from rotary_embedding_torch import RotaryEmbedding

    q, _ = _qk()
    return _loss(mode, _nets().StartIndex(RotaryEmbedding(dim=_ROT)), (q,))


def _learned_rotations(mode):
    import torch

    q, _ = _qk()
    return _loss(mode, _nets().LearnedRotations(), (torch.randn(_B, _N, _WIDTH), q))


# --- attention modules -----------------------------------------------------------------------------------

def _attention(mode):
    import torch

    from rotary_embedding_torch import RotaryEmbedding

    net = _nets().Attention(RotaryEmbedding(dim=_ROT))
    return _loss(mode, net, (torch.randn(_B, _N, _WIDTH),))


def _transformer_lm(xpos=False):
    def make(mode):
        import torch

        lm = _nets().TransformerLM(xpos=xpos)
        tokens = torch.randint(0, _VOCAB, (_B, _N + 1))
        if mode == "train":
            return _nets().LMLoss(lm), (tokens,), {}
        return lm, (tokens[:, :-1],), {}

    return make


def _cached_decoder(mode):
    import torch

    return _loss(mode, _nets().CachedDecoder(), (torch.randint(0, _VOCAB, (_B, 6)),))


def _axial_vit(mode):
    import torch

    net = _nets().AxialViT()
    images = torch.randn(_B, 3, 16, 16)
    if mode == "train":
        return classifier_loss_module()(net, _B, 10), (images,), {}  # noqa: F821 (set by ZooSuite)
    return net, (images,), {}


def _fused(module, indices=False, gqa=False):
    def make(mode):
        import torch

        q = torch.randn(_B, _H * (2 if gqa else 1), _N, _D)
        k, v = torch.randn(_B, _H, _N, _D), torch.randn(_B, _H, _N, _D)
        kwargs = {}
        if indices:
            mask = torch.ones(_B, _N, dtype=torch.bool)
            mask[1, -3:] = False  # the second sequence's last 3 keys are padding
            kwargs["mask"] = mask
        return _loss(mode, _nets().FusedAttention(module, indices=indices), (q, k, v), kwargs)

    return make


def _fused_cos_sin(mode):
    import torch

    q, k = _qk()
    return _loss(mode, _nets().FusedCosSin(), (q, k, torch.randn(_B, _H, _N, _D)))


MODELS = {
    # rotate_queries_or_keys and the constructor's options
    "rotate_queries_or_keys": _rotate(),
    "rotate_full_head_dim": _rotate(dim=_D),
    "rotate_no_cache": _rotate(cache_if_possible=False),
    "rotate_seq_before_head_dim": _rotate(shape=(_B, _N, _H, _D), seq_before_head_dim=True),
    "rotate_no_heads": _rotate(shape=(_B, _N, _D)),
    "rotate_kv_cache_offset": _rotate(cache_offset=True),
    "rotate_interpolate_factor": _rotate(interpolate_factor=2.0),
    "rotate_theta_rescale": _rotate(theta_rescale_factor=4.0),
    "rotate_learned_freq": _rotate(learned_freq=True),
    "rotate_freqs_pixel": _rotate(freqs_for="pixel", max_freq=10),
    "rotate_freqs_constant": _rotate(freqs_for="constant", num_freqs=_ROT // 2),
    "rotate_custom_freqs": _custom_freqs,
    "rotate_queries_with_cached_keys": _cached_keys(),
    "rotate_queries_with_cached_keys_xpos": _cached_keys(use_xpos=True),
    # xpos
    "xpos_rotate_queries_and_keys": _xpos(),
    "xpos_no_cache": _xpos(cache_if_possible=False),
    "xpos_seq_before_head_dim": _xpos(shape=(_B, _N, _H, _D), seq_before_head_dim=True),
    # axial
    "axial_video_pixel": _axial((4, 4, 4), (1, 4, 4, 4, _D), dim=4, freqs_for="pixel", max_freq=256),
    "axial_image_lang": _axial((4, 4), (_B, _H, 4, 4, _D), dim=4),
    "axial_offsets": _axial((4, 4), (_B, _H, 4, 4, _D), offsets=(2, 0), dim=4, freqs_for="pixel", max_freq=16),
    "broadcat_2d": _broadcat,
    # the functions
    "apply_rotary_emb_start_index": _start_index,
    "apply_learned_rotations": _learned_rotations,
    # in attention modules
    "Attention": _attention,
    "TransformerLM": _transformer_lm(),
    "TransformerLM_xpos": _transformer_lm(xpos=True),
    "CachedDecoder": _cached_decoder,
    "AxialViT": _axial_vit,
    # fused-attention front ends (reference path)
    "flash_attn_with_rotary_gqa": _fused("flash_attn_with_rotary", gqa=True),
    "flash_attn_with_rotary_indices_mask": _fused("flash_attn_with_rotary", indices=True),
    "flash_fused_rotary_cos_sin": _fused_cos_sin,
}
