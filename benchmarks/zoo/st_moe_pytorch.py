"""st-moe-pytorch 0.1.8 (lucidrains): ST-MoE mixture of experts (Zoph et al. 2022), as its README
(``MoE`` with its options, ``SparseMoEBlock`` with ``add_ff_before`` / ``add_ff_after``, the
auxiliary losses "summed and then added to the main loss") and its ``assert.py`` (``Experts`` of
``Expert(dim)`` run locally with ``is_distributed = False``: 3 experts, 32 tokens per expert,
``dim = 8``, batch 2) use them, tiny (batch 2, 16-32 tokens, ``dim`` 8-16, 3-8 experts), random
weights, no download:

- ``MoE``: the README's options scaled down (16 -> 4 experts, top-2 gating, thresholds 0.2,
  capacity factors 1.25 / 2.0, balance / router z-loss coefficients 1e-2 / 1e-3), the default
  ``is_distributed=None`` (resolved at construction), top-3 gating with a lower threshold for the
  third expert (``threshold_train=(0.2, 0.1)``: "3 was tested in the paper with a lower
  threshold"), top-4 of 8 experts, no straight-through dispatch tensor, the differentiable
  top-k (CoLT5's coordinate descent, unfused on CPU), tight capacity (factors 1.0 / 1.0 with 4
  experts and 32 tokens: tokens overflow and are dropped), generous capacity (3.0 / 4.0),
  gumbel-noised gates (``noise_gates=True, noise_mult=0.5`` in the forward), a smaller expert
  hidden width, larger loss coefficients, and user-supplied experts (an ``nn.ModuleList`` of
  ``Expert(dim, prenorm=True, mult_bias=False)``: ``experts`` is type-checked by beartype as
  ``Optional[Module]``);
- ``SparseMoEBlock``: the README's block (feed-forward before and after), the default (after
  only), none, top-3 with the differentiable top-k, and noised gates;
- the parts: ``TopNGating`` (dispatch and combine tensors, balance and router z-losses),
  ``Experts`` (``assert.py``'s config, local) and ``Expert`` (GEGLU with multiplicative bias,
  with and without prenorm);
- a user model: a two-layer causal transformer language model whose feed-forwards are
  ``SparseMoEBlock`` s, trained with the cross-entropy plus the sum of the blocks'
  ``total_aux_loss`` (as the README says to).

Eval: the module's own output (``MoE`` / ``SparseMoEBlock``: the ``MixtureOfExpertsReturn``
namedtuple of output, total aux loss, balance loss, router z-loss). Train: the mean squared error
of the output against a fixed random target plus the returned ``total_aux_loss`` (the README's
recipe; the language model: cross-entropy plus the aux losses); ``TopNGating``: the combine
tensor's mean plus its balance and z-losses; ``Experts`` / ``Expert``: ``mean_loss_module``.

    pip install --no-deps st-moe-pytorch==0.1.8
    pip install --no-deps beartype==0.22.9
    pip install --no-deps colt5-attention==0.11.2 local-attention==1.11.2 hyper-connections==0.4.11 \\
        torch-einops-utils==0.2.0 einops==0.8.2 packaging==26.4      # (already installed)

It imports torch, ``torch.distributed`` (never initialised here), beartype, einops and
``colt5_attention.topk`` at the top (colt5-attention in turn imports local-attention,
hyper-connections and torch-einops-utils). Nothing stubbed. Measured first as it came, before any
rule looked at it.

Capture (torch 2.13.0+cpu): 26 models, 52 runs, all built, all 52 ran under Dynamo (26 eval,
26 train), none failed, none timed out. 46 runs break, every one that routes (all but ``Expert``,
``Expert_prenorm_no_mult_bias`` and ``Experts_assert``) and at one statement: ``safe_one_hot``'s
``F.one_hot(indexes, one_hot_classes)`` (``st_moe_pytorch.py:94``), whose ``num_classes`` is
``max(indexes.max() + 1 + 1, max_length)``, a tensor: converting it to an int is a
data-dependent ``aten._local_scalar_dense`` (GB0033). In the two language models the break sits
under the user model's loop over layers, so that frame is skipped (GB7000 "graph break in loop",
4 runs), and the resume functions after the break recompile in 3 runs (the one-hot width, and so
the shapes and strides after it, follow the data: "size mismatch at index 3. expected 16, actual
15" at line 94, a stride mismatch at ``TopNGating``'s call at line 511). First numbers with the
frozen linter (``/tmp/lint-mid55``): graph-break statement recall 0.00 (0/1: line 94 is missed,
the ``.item()`` there is implicit), precision undefined (0/0), 9 findings (6 in files run:
``distributed.py``'s 3 are in a file never run), 6 unjudged (5 not reached: the distributed
branches of ``Experts.forward``; 1 condition not met: ``torch.empty_like(x, requires_grad =
self.training)``, only when a rank holds no expert). No false alarm.

Left out: the distributed path (``is_distributed=True``, ``AllGather`` / ``split_by_rank``:
needs an initialised process group, ``assert.py`` spawns 8 gloo processes); ``allow_var_seq_len``
(only read when distributed); ``differentiable_topk_fused`` (``MoE`` accepts it but does not pass
it to ``TopNGating``; the fused kernel is Triton on CUDA only); CUDA and half precision; the
README's full size (dim 512, 16 experts, 4 x 1024 tokens).
"""

import functools

PACKAGE = "st_moe_pytorch"
DISTRIBUTION = "st-moe-pytorch"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _N, _D = 2, 16, 16  # batch, tokens, width
_VOCAB = 32


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    from st_moe_pytorch import MoE, SparseMoEBlock

    class AuxLoss(nn.Module):
        """The README's training recipe: a main loss (MSE against a fixed target) plus the
        ``total_aux_loss`` the MoE returns."""

        def __init__(self, net, shape, **call_kwargs):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)  # the probe judges `given:` labels on net's forward
            self.register_buffer("target", torch.randn(*shape))
            self.call_kwargs = call_kwargs

        def forward(self, x):
            out, total_aux_loss, balance_loss, router_z_loss = self.net(x, **self.call_kwargs)
            return F.mse_loss(out, self.target) + total_aux_loss.sum()

    class Call(nn.Module):
        """The net called with fixed keyword arguments (``noise_gates``) in eval."""

        def __init__(self, net, **call_kwargs):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.call_kwargs = call_kwargs

        def forward(self, x):
            return self.net(x, **self.call_kwargs)

    class GatingLoss(nn.Module):
        """``TopNGating`` in training: the combine tensor's mean plus its two losses."""

        def __init__(self, gate):
            super().__init__()
            self.gate = gate
            object.__setattr__(self, "__wrapped__", gate)

        def forward(self, x):
            dispatch, combine, balance_loss, router_z_loss = self.gate(x)
            return combine.mean() + dispatch.mean() + balance_loss.sum() + router_z_loss.sum()

    class MoELM(nn.Module):
        """A causal transformer language model whose feed-forwards are ``SparseMoEBlock`` s."""

        def __init__(self, depth=2, dim=_D, heads=2, num_experts=4, **moe_kwargs):
            super().__init__()
            self.emb = nn.Embedding(_VOCAB, dim)
            self.heads = heads
            self.attn_norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
            self.qkv = nn.ModuleList(nn.Linear(dim, 3 * dim, bias=False) for _ in range(depth))
            self.attn_out = nn.ModuleList(nn.Linear(dim, dim, bias=False) for _ in range(depth))
            self.moes = nn.ModuleList(
                SparseMoEBlock(MoE(dim=dim, num_experts=num_experts, is_distributed=False, **moe_kwargs),
                               add_ff_before=False, add_ff_after=True)
                for _ in range(depth))
            self.norm = nn.LayerNorm(dim)
            self.to_logits = nn.Linear(dim, _VOCAB)

        def forward(self, tokens, labels=None):
            x = self.emb(tokens)
            b, n, d = x.shape
            aux = x.new_zeros(())
            for norm, qkv, out, moe in zip(self.attn_norms, self.qkv, self.attn_out, self.moes):
                q, k, v = qkv(norm(x)).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
                a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                x = x + out(a.transpose(1, 2).reshape(b, n, d))
                x, total_aux_loss, _, _ = moe(x)
                aux = aux + total_aux_loss.sum()
            logits = self.to_logits(self.norm(x))
            if labels is None:
                return logits, aux
            return F.cross_entropy(logits.transpose(1, 2), labels) + aux

    return {"AuxLoss": AuxLoss, "Call": Call, "GatingLoss": GatingLoss, "MoELM": MoELM}


def _x(n=_N, d=_D):
    import torch

    return torch.randn(_B, n, d)


def _moe(n=_N, d=_D, call=None, **kwargs):
    """``MoE(dim=d, **kwargs)`` (``is_distributed=False`` unless given); ``call``: forward kwargs."""

    def make(mode):
        from st_moe_pytorch import MoE

        kw = dict(num_experts=4, is_distributed=False)
        kw.update(kwargs)
        if kw.get("is_distributed", False) is None:
            del kw["is_distributed"]  # the default: resolved from torch.distributed at construction
        net = MoE(dim=d, **kw)
        return _wrap(net, mode, n, d, call)

    return make


def _block(n=_N, d=_D, call=None, moe=None, **kwargs):
    """``SparseMoEBlock(MoE(dim=d, **moe), **kwargs)``."""

    def make(mode):
        from st_moe_pytorch import MoE, SparseMoEBlock

        kw = dict(num_experts=4, is_distributed=False)
        kw.update(moe or {})
        net = SparseMoEBlock(MoE(dim=d, **kw), **kwargs)
        return _wrap(net, mode, n, d, call)

    return make


def _wrap(net, mode, n, d, call):
    m = _modules()
    if mode == "train":
        return m["AuxLoss"](net, (_B, n, d), **(call or {})), (_x(n, d),), {}
    if call:
        return m["Call"](net, **call), (_x(n, d),), {}
    return net, (_x(n, d),), {}


def _custom_experts(mode):
    """``MoE`` with user-supplied experts (an ``nn.ModuleList``: beartype checks ``Optional[Module]``)."""
    from torch import nn

    from st_moe_pytorch import MoE
    from st_moe_pytorch.st_moe_pytorch import Expert

    experts = nn.ModuleList(Expert(dim=_D, hidden_mult=2, prenorm=True, mult_bias=False) for _ in range(4))
    net = MoE(dim=_D, num_experts=4, experts=experts, is_distributed=False)
    return _wrap(net, mode, _N, _D, None)


def _gating(top_n=2, **kwargs):
    def make(mode):
        from st_moe_pytorch.st_moe_pytorch import TopNGating

        gate = TopNGating(_D, num_gates=4, top_n=top_n, **kwargs)
        if mode == "train":
            return _modules()["GatingLoss"](gate), (_x(),), {}
        return gate, (_x(),), {}

    return make


def _experts(mode):
    """``assert.py``: ``Experts([Expert(dim) for _ in range(3)])`` on (batch, experts, tokens, dim),
    run locally."""
    import torch

    from st_moe_pytorch.st_moe_pytorch import Expert, Experts

    net = Experts([Expert(8) for _ in range(3)], is_distributed=False)
    x = torch.randn(2, 3, 32, 8)
    return (mean_loss_module()(net) if mode == "train" else net), (x,), {}


def _expert(**kwargs):
    def make(mode):
        from st_moe_pytorch.st_moe_pytorch import Expert

        net = Expert(_D, **kwargs)
        return (mean_loss_module()(net) if mode == "train" else net), (_x(),), {}

    return make


def _lm(**moe_kwargs):
    def make(mode):
        import torch

        net = _modules()["MoELM"](**moe_kwargs)
        tokens = torch.randint(0, _VOCAB, (_B, _N))
        if mode == "train":
            return net, (tokens, torch.roll(tokens, -1, 1)), {}
        return net, (tokens,), {}

    return make


MODELS = {
    # --- MoE ---
    "MoE_readme": _moe(num_experts=4, gating_top_n=2, threshold_train=0.2, threshold_eval=0.2,
                       capacity_factor_train=1.25, capacity_factor_eval=2.0, balance_loss_coef=1e-2,
                       router_z_loss_coef=1e-3),
    "MoE_default_distributed_none": _moe(is_distributed=None),
    "MoE_top3_thresholds": _moe(gating_top_n=3, threshold_train=(0.2, 0.1), threshold_eval=(0.2, 0.1)),
    "MoE_top4_of_8": _moe(num_experts=8, gating_top_n=4, threshold_train=0.1, threshold_eval=0.1),
    "MoE_no_straight_through": _moe(straight_through_dispatch_tensor=False),
    "MoE_differentiable_topk": _moe(differentiable_topk=True),
    "MoE_top3_differentiable_topk": _moe(gating_top_n=3, differentiable_topk=True, threshold_train=0.1,
                                         threshold_eval=0.1),
    "MoE_tight_capacity": _moe(n=32, capacity_factor_train=1.0, capacity_factor_eval=1.0),
    "MoE_generous_capacity": _moe(capacity_factor_train=3.0, capacity_factor_eval=4.0),
    "MoE_noise_gates": _moe(call=dict(noise_gates=True, noise_mult=0.5)),
    "MoE_hidden_mult2": _moe(expert_hidden_mult=2),
    "MoE_loss_coefs": _moe(balance_loss_coef=1e-1, router_z_loss_coef=1e-2),
    "MoE_custom_experts": _custom_experts,
    "MoE_dim8_3experts": _moe(n=32, d=8, num_experts=3),
    # --- SparseMoEBlock ---
    "SparseMoEBlock_readme": _block(add_ff_before=True, add_ff_after=True),
    "SparseMoEBlock_default": _block(),
    "SparseMoEBlock_no_ff": _block(add_ff_before=False, add_ff_after=False),
    "SparseMoEBlock_top3_differentiable": _block(moe=dict(gating_top_n=3, differentiable_topk=True,
                                                          threshold_train=0.1, threshold_eval=0.1)),
    "SparseMoEBlock_noise_gates": _block(call=dict(noise_gates=True), add_ff_before=True),
    # --- parts ---
    "TopNGating_top2": _gating(),
    "TopNGating_top3_no_straight_through": _gating(top_n=3, straight_through_dispatch_tensor=False),
    "Experts_assert": _experts,
    "Expert": _expert(),
    "Expert_prenorm_no_mult_bias": _expert(prenorm=True, mult_bias=False),
    # --- a user model ---
    "MoE_transformer_lm": _lm(),
    "MoE_transformer_lm_top3": _lm(gating_top_n=3, threshold_train=(0.2, 0.1), threshold_eval=(0.2, 0.1)),
}
