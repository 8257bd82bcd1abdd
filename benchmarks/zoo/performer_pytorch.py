"""performer-pytorch (lucidrains): FAVOR+ linear-attention language models, encoders, the
encoder-decoder and the attention layers at one or two layers and a small width, random
weights. In "train" the language models return the cross-entropy of their logits (a
mean-loss wrapper for the rest). Stop 33: measured first as it came (RESULTS §27), before any
rule looked at it.

    pip install --no-deps performer-pytorch==1.1.4 axial-positional-embedding==0.3.12 \
        local-attention==1.11.2 hyper-connections==0.4.11
"""

PACKAGE = "performer_pytorch"
DISTRIBUTION = "performer-pytorch"

_TOKENS, _SEQ, _DIM = 64, 16, 32
mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite


def _lm(**options):
    def make(mode):
        import torch
        from performer_pytorch import AutoregressiveWrapper, PerformerLM

        opts = dict(num_tokens=_TOKENS, max_seq_len=_SEQ, dim=_DIM, depth=2, heads=2, dim_head=16)
        opts.update(options)
        net = PerformerLM(**opts)
        x = torch.randint(0, _TOKENS, (2, _SEQ))
        if mode == "train" and opts.get("causal"):
            return AutoregressiveWrapper(net), (x,), {}
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _performer(**options):
    def make(mode):
        import torch
        from performer_pytorch import Performer

        net = Performer(dim=_DIM, depth=2, heads=2, dim_head=16, **options)
        x = torch.randn(2, _SEQ, _DIM)
        kwargs = {"context": torch.randn(2, _SEQ, _DIM)} if options.get("cross_attend") else {}
        return (mean_loss_module()(net) if mode == "train" else net), (x,), kwargs

    return make


def _attention(cls, **options):
    def make(mode):
        import torch
        import performer_pytorch

        net = getattr(performer_pytorch, cls)(dim=_DIM, heads=2, dim_head=16, **options)
        x = torch.randn(2, _SEQ, _DIM)
        args = (x, torch.randn(2, _SEQ, _DIM)) if cls == "CrossAttention" else (x,)
        kwargs = {"context": args[1]} if cls == "CrossAttention" else {}
        return (mean_loss_module()(net) if mode == "train" else net), args[:1], kwargs

    return make


def _enc_dec(mode):
    import torch
    from performer_pytorch import PerformerEncDec

    net = PerformerEncDec(dim=_DIM, enc_num_tokens=_TOKENS, enc_depth=1, enc_heads=2, enc_max_seq_len=_SEQ,
                          dec_num_tokens=_TOKENS, dec_depth=1, dec_heads=2, dec_max_seq_len=_SEQ)
    src = torch.randint(0, _TOKENS, (2, _SEQ))
    tgt = torch.randint(0, _TOKENS, (2, _SEQ))
    mask = torch.ones_like(src).bool()
    return net, (src, tgt), {"enc_mask": mask}


MODELS = {
    "lm": _lm(),
    "lm_causal": _lm(causal=True),
    "lm_local_heads": _lm(local_attn_heads=1, local_window_size=4),
    "lm_reversible": _lm(reversible=True),
    "lm_ff_chunks": _lm(ff_chunks=2),
    "lm_generalized": _lm(generalized_attention=True),
    "lm_rotary": _lm(rotary_position_emb=True),
    "lm_axial": _lm(axial_position_emb=True, axial_position_shape=(4, 4)),
    "lm_no_projection": _lm(no_projection=True),
    "lm_shift_tokens": _lm(shift_tokens=True),
    "lm_feature_redraw": _lm(feature_redraw_interval=1),
    "performer": _performer(),
    "performer_cross": _performer(cross_attend=True),
    "self_attention": _attention("SelfAttention"),
    "self_attention_causal": _attention("SelfAttention", causal=True),
    "cross_attention": _attention("CrossAttention"),
    "enc_dec": _enc_dec,
}
