"""reformer-pytorch (lucidrains): LSH-attention language models, encoders, the encoder-decoder
and the bare attention layers at one or two layers and a small width, random weights. In
"train" the language models return the cross-entropy of their logits (a mean-loss wrapper
for the rest). Stop 33: measured first as it came (RESULTS §27), before any rule looked at it.

    pip install --no-deps reformer-pytorch==1.4.4 axial-positional-embedding==0.3.12 \
        local-attention==1.11.2 product-key-memory==0.3.0 hyper-connections==0.4.11 \
        colt5-attention==0.11.2
"""

PACKAGE = "reformer_pytorch"
DISTRIBUTION = "reformer-pytorch"

_TOKENS, _SEQ, _DIM = 64, 32, 32
mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite


def _lm_loss():
    import torch

    class LMLoss(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, tokens):
            logits = self.net(tokens)
            return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens.reshape(-1))

    return LMLoss


def _lm(**options):
    def make(mode):
        import torch
        from reformer_pytorch import ReformerLM

        opts = dict(num_tokens=_TOKENS, dim=_DIM, depth=2, max_seq_len=_SEQ, heads=2, dim_head=16,
                    bucket_size=4, n_hashes=2, ff_chunks=2)
        opts.update(options)
        net = ReformerLM(**opts)
        x = torch.randint(0, _TOKENS, (2, _SEQ))
        return (_lm_loss()(net) if mode == "train" else net), (x,), {}

    return make


def _reformer(**options):
    def make(mode):
        import torch
        from reformer_pytorch import Reformer

        net = Reformer(dim=_DIM, depth=2, heads=2, dim_head=16, bucket_size=4, n_hashes=2, **options)
        x = torch.randn(2, _SEQ, _DIM, requires_grad=mode == "train")  # its reversible blocks need it
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _attention(cls, **options):
    def make(mode):
        import torch
        import reformer_pytorch

        net = getattr(reformer_pytorch, cls)(dim=_DIM, heads=2, bucket_size=4, n_hashes=2, **options)
        x = torch.randn(2, _SEQ, _DIM)
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _enc_dec(mode):
    import torch
    from reformer_pytorch import ReformerEncDec

    net = ReformerEncDec(dim=_DIM, enc_num_tokens=_TOKENS, enc_depth=1, enc_max_seq_len=_SEQ,
                         dec_num_tokens=_TOKENS, dec_depth=1, dec_max_seq_len=_SEQ, bucket_size=4, n_hashes=2)
    src = torch.randint(0, _TOKENS, (2, _SEQ))
    tgt = torch.randint(0, _TOKENS, (2, _SEQ))
    return net, (src, tgt), {"return_loss": True}


def _lsh(mode):
    import torch
    from reformer_pytorch import LSHAttention

    net = LSHAttention(bucket_size=4, n_hashes=2, causal=True)
    qk = torch.randn(2, _SEQ, 16, requires_grad=mode == "train")  # the layer has no weights
    v = torch.randn(2, _SEQ, 16, requires_grad=mode == "train")
    if mode == "train":
        class Out(torch.nn.Module):
            def __init__(self, attn):
                super().__init__()
                self.attn = attn

            def forward(self, qk, v):
                return self.attn(qk, v)[0].mean()

        return Out(net), (qk, v), {}
    return net, (qk, v), {}


MODELS = {
    "lm": _lm(),
    "lm_causal": _lm(causal=True),
    "lm_full_attn": _lm(use_full_attn=True),
    "lm_axial_pos": _lm(axial_position_emb=True, axial_position_shape=(4, 8)),
    "lm_fixed_pos": _lm(fixed_position_emb=True),
    "lm_weight_tie": _lm(weight_tie=True, weight_tie_embedding=True),
    "lm_mem_kv": _lm(num_mem_kv=8),
    "lm_local_heads": _lm(n_local_attn_heads=1),
    "lm_pkm": _lm(pkm_layers=(1,), pkm_num_keys=32),
    "lm_rezero_scalenorm": _lm(use_rezero=True, use_scale_norm=True),
    "lm_reverse_thres": _lm(reverse_thres=_SEQ * 2),
    "lm_one_value_head": _lm(one_value_head=True),
    "reformer": _reformer(),
    "reformer_layer_dropout": _reformer(layer_dropout=0.1),
    "lsh_self_attention": _attention("LSHSelfAttention"),
    "lsh_self_attention_return_attn": _attention("LSHSelfAttention", return_attn=False, random_rotations_per_head=True),
    "lsh_attention": _lsh,
    "enc_dec": _enc_dec,
}
