"""x-transformers: one tiny decoder, encoder or wrapper per option family (rotary, ALiBi,
memory tokens, talking heads, ...), random weights. In "train" the language models run
through ``AutoregressiveWrapper`` (the forward returns the loss).

    pip install --no-deps x-transformers==2.31.10 torch-einops-utils==0.2.0
    pip install einops==0.8.2 einx==0.4.3 loguru==0.7.3 frozendict==2.5.1
"""

PACKAGE = "x_transformers"
DISTRIBUTION = "x-transformers"

_TOKENS, _SEQ, _DIM = 64, 16, 32


def _lm(layers="Decoder", wrapper=None, **options):
    """A TransformerWrapper whose attention layers take ``attn_*``/``ff_*``/layer
    options; ``wrapper`` keys go to the TransformerWrapper itself."""

    def make(mode):
        import torch
        import x_transformers as xt

        cls = getattr(xt, layers)
        net = xt.TransformerWrapper(num_tokens=_TOKENS, max_seq_len=_SEQ,
                                    attn_layers=cls(dim=_DIM, depth=2, heads=2, attn_dim_head=16, **options),
                                    **(wrapper or {}))
        x = torch.randint(0, _TOKENS, (2, _SEQ))
        if mode == "train" and layers == "Decoder":
            return xt.AutoregressiveWrapper(net), (torch.randint(0, _TOKENS, (2, _SEQ)),), {}
        mask = torch.ones(2, _SEQ, dtype=torch.bool)
        mask[0, -3:] = False
        return net, (x,), ({"mask": mask} if layers == "Encoder" else {})

    return make


def _xtransformer(mode):
    import torch
    import x_transformers as xt

    net = xt.XTransformer(dim=_DIM, enc_num_tokens=_TOKENS, enc_depth=1, enc_heads=2, enc_max_seq_len=_SEQ,
                          dec_num_tokens=_TOKENS, dec_depth=1, dec_heads=2, dec_max_seq_len=_SEQ,
                          tie_token_emb=True)
    src = torch.randint(0, _TOKENS, (2, _SEQ))
    mask = torch.ones_like(src).bool()
    return net, (src, torch.randint(0, _TOKENS, (2, _SEQ))), {"mask": mask}


def _continuous(mode):
    import torch
    import x_transformers as xt

    net = xt.ContinuousTransformerWrapper(dim_in=8, dim_out=8, max_seq_len=_SEQ,
                                          attn_layers=xt.Decoder(dim=_DIM, depth=2, heads=2, rotary_pos_emb=True))
    x = torch.randn(2, _SEQ, 8)
    if mode == "train":
        return xt.ContinuousAutoregressiveWrapper(net), (x,), {}
    return net, (x,), {}


def _vit(mode):
    import torch
    import x_transformers as xt

    net = xt.ViTransformerWrapper(image_size=32, patch_size=8, num_classes=4,
                                  attn_layers=xt.Encoder(dim=_DIM, depth=2, heads=2))
    return net, (torch.randn(2, 3, 32, 32),), {}


def _nar(mode):
    import torch
    import x_transformers as xt

    net = xt.TransformerWrapper(num_tokens=_TOKENS + 1, logits_dim=_TOKENS, max_seq_len=_SEQ,
                                attn_layers=xt.Encoder(dim=_DIM, depth=2, heads=2))
    wrapper = xt.NonAutoregressiveWrapper(net, mask_id=_TOKENS)
    return wrapper, (torch.randint(0, _TOKENS, (2, _SEQ)),), {}


def _xl(mode):
    import torch
    import x_transformers as xt

    net = xt.TransformerWrapper(num_tokens=_TOKENS, max_seq_len=8, max_mem_len=8,
                                attn_layers=xt.Decoder(dim=_DIM, depth=2, heads=2, rel_pos_bias=True))
    return xt.XLAutoregressiveWrapper(net), (torch.randint(0, _TOKENS, (2, 17)),), {}


def _xval(mode):
    import torch
    import x_transformers as xt

    net = xt.XValTransformerWrapper(num_tokens=_TOKENS, numerical_token_id=_TOKENS - 1, max_seq_len=_SEQ,
                                    attn_layers=xt.Decoder(dim=_DIM, depth=2, heads=2))
    ids = torch.randint(0, _TOKENS, (2, _SEQ))
    nums = torch.randn(2, _SEQ)
    if mode == "train":
        return xt.XValAutoregressiveWrapper(net), (ids, nums), {}
    return net, (ids, nums), {}


MODELS = {
    "decoder": _lm(),
    "encoder": _lm("Encoder"),
    "decoder_rotary": _lm(rotary_pos_emb=True),
    "decoder_rotary_xpos": _lm(rotary_pos_emb=True, rotary_xpos=True),
    "decoder_alibi": _lm(alibi_pos_bias=True, alibi_num_heads=1),
    "decoder_rel_pos": _lm(rel_pos_bias=True),
    "decoder_dynamic_pos": _lm(dynamic_pos_bias=True, dynamic_pos_bias_log_distance=False),
    "decoder_glu_rmsnorm": _lm(ff_glu=True, use_rmsnorm=True),
    "decoder_simple_rmsnorm": _lm(use_simple_rmsnorm=True),
    "decoder_scalenorm": _lm(use_scalenorm=True),
    "decoder_residual_attn": _lm(residual_attn=True),
    "decoder_macaron": _lm(macaron=True),
    "decoder_sandwich_norm": _lm(sandwich_norm=True),
    "decoder_shift_tokens": _lm(shift_tokens=1),
    "decoder_gate_residual": _lm(gate_residual=True),
    "decoder_scale_residual": _lm(scale_residual=True),
    "decoder_layerscale": _lm(use_layerscale=True),
    "decoder_mem_kv": _lm(attn_num_mem_kv=4),
    "decoder_talking_heads": _lm(attn_pre_talking_heads=True, attn_post_talking_heads=True),
    "decoder_qk_norm": _lm(attn_qk_norm=True),
    "decoder_gate_values": _lm(attn_gate_values=True),
    "decoder_one_kv_head": _lm(attn_one_kv_head=True),
    "decoder_kv_heads": _lm(attn_kv_heads=1),
    "decoder_sparse_topk": _lm(attn_sparse_topk=4),
    "decoder_flash": _lm(attn_flash=True),
    "decoder_value_residual": _lm(add_value_residual=True),
    "decoder_hyper_connections": _lm(num_residual_streams=2),
    "decoder_layer_dropout": _lm(layer_dropout=0.1),
    "decoder_memory_tokens": _lm(wrapper={"num_memory_tokens": 2}),
    "decoder_l2norm_embed": _lm(wrapper={"l2norm_embed": True, "emb_frac_gradient": 0.5}),
    "decoder_no_abs_pos": _lm(rotary_pos_emb=True, wrapper={"use_abs_pos_emb": False}),
    "decoder_cope": _lm(attn_use_cope=True),
    "decoder_softclamp": _lm(attn_softclamp_logits=True, softclamp_output=True),
    "decoder_custom_layers": _lm(custom_layers=("a", "f", "a", "f", "f")),
    "decoder_par_ratio": _lm(par_ratio=2),
    "decoder_unet_skips": _lm(unet_skips=True),
    "encoder_cls_pool": _lm("Encoder", wrapper={"use_cls_token": True, "logits_dim": 3}),
    "encoder_attn_pool": _lm("Encoder", wrapper={"attn_pool": True, "logits_dim": 3}),
    "prefix_decoder": _lm("PrefixDecoder"),
    "xtransformer": _xtransformer,
    "continuous": _continuous,
    "vit": _vit,
    "non_autoregressive": _nar,
    "xl_autoregressive": _xl,
    "xval": _xval,
}
