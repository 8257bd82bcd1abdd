"""equiformer-pytorch 0.5.4 (lucidrains): the ``Equiformer`` SE(3)-equivariant graph attention
transformer across its constructor and forward options, and its building blocks on their own, as
the README and ``tests/`` use them; tiny (batch 2, 6 random atoms with random coordinates, fibers
of 4-16 channels, depth 1, degrees 0-1 but for one README model with 0-2), random weights, no
download.

Whole models (``Equiformer(...)(feats, coors, mask, ...)``, 22), from the README's examples (token
atoms with MLP attention; with L2-distance attention and 3 degrees; reversible; edges; adjacency
matrix) and the tests (shape test; equivariance test with ``dim_in`` / ``input_degrees`` and
dict-of-degree inputs, L2 and MLP-reversible; the edges test with MLP attention and
``reversible``; the adjacency test with MLP attention), then one option at a time:
``num_degrees=1``, ``num_positions`` with ``embedding_grad_frac``, ``num_neighbors`` with
``valid_radius`` and padded masks, ``single_headed_kv`` (MLP attention), ``num_linear_attn_heads``
(the Taylor-series linear attention heads), ``gate_attn_head_outputs=False``,
``ff_include_htype_norms``, ``linear_out=False`` (a ``FeedForward`` out), ``init_out_zero=False``
with ``attn_hidden_dim_mult`` / ``attn_leakyrelu_slope`` / ``radial_hidden_dim``, continuous edge
features (``edge_dim`` without ``num_edge_tokens``), a batched (3-d) adjacency matrix with
``num_neighbors`` > 0 and a ``max_sparse_neighbors`` below the bonded count (the noise path),
``return_pooled`` with padded masks, and the repository's ``denoise.py`` model (tokens,
reversible, padded, ``num_neighbors``; 2 degrees and depth 1 instead of 4 and 10).

Sizes: the first attempt (README / test sizes: 2-4 degrees, depth 2-3, 12 atoms) timed out at
120 s per setting under Dynamo on this shared 2-core CPU (a 2-degree depth-1 model takes ~1-2 min
to trace with the eager backend: per-degree-pair Python loops with an ``einx.get_at`` and an
``opt_einsum`` each, beartype wrappers), so every model is cut to depth 1 and 2 degrees.

Building blocks (from ``equiformer_pytorch.equiformer_pytorch``): ``DTP`` (pooled, with
self-interaction; unpooled without projections), ``L2DistAttention``, ``MLPAttention``,
``FeedForward``, ``Norm``, ``Gate``, ``Linear``, ``Radial``, ``LinearAttention``, and the
``reversible.SequentialSequence`` / ``ReversibleSequence`` trunks, each fed the degree-dict
features and the ``EdgeInfo`` / relative distances / ``get_basis`` / ``get_D_to_from_z_axis``
that ``Equiformer.forward`` computes (built here in the factory, eagerly, the same way).

Eval: the callable's outputs (``Return(type0, type1)`` for the models). Train: a loss a user
computes in the forward: denoising (``denoise.py``: noise the coordinates, predict the offset as
type-1 output with ``reduce_dim_out=True``, masked MSE to the clean coordinates) for models with a
reduced type-1 output; otherwise a regression MSE of type 0 (and type 1 when there is one) to
fixed random targets, or of the ``return_pooled`` type 0 to a per-molecule target (an energy);
``mean_loss_module`` for the building blocks. Measured first as it came, before any rule looked.

    pip install --no-deps equiformer-pytorch==0.5.4
    pip install --no-deps taylor-series-linear-attention==0.2.0

(already installed and used: einops 0.8.2, einx 0.4.3, beartype 0.22.9, filelock 4.3.2,
opt_einsum 3.4.0; taylor-series-linear-attention needs jaxtyping 0.3.11 and
rotary-embedding-torch 0.9.1, both there.) Nothing stubbed.

``CLEAR_CACHE=1`` is set before the import: ``basis.py`` reads it at import and then keeps
``get_basis`` in memory (its ``lru_cache``) instead of pickling it under
``~/.cache.equivariant_attention`` behind a ``FileLock``; the basis is the same.

Left out (fail eagerly in 0.5.4, library bugs): ``attend_self=False`` (the attention's
``DTP(self_interaction=False, project_out=True)`` never builds ``self_interact`` but its forward
calls it: AttributeError; the standalone attentions here pass ``attend_self=True`` as
``Equiformer`` does by default); ``adj_dim > 0`` (adds ``adj_dim`` to the radial nets' edge input,
but ``forward`` never embeds the adjacency degrees: a shape mismatch in ``Radial``). The
equivariance checks themselves (rotating inputs and comparing two eager runs: the
same forwards as kept); the pure-function helpers (``irr_repr.rot``, ``get_basis``, a
``torch.no_grad`` cached builder); ``get_D_to_from_z_axis`` (``no_grad``, run by every model);
sidechainnet data loading of ``denoise.py`` (random atoms instead).
"""

import functools

PACKAGE = "equiformer_pytorch"
DISTRIBUTION = "equiformer-pytorch"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _N = 2, 6  # molecules, atoms


def before_build():
    import os

    os.environ.setdefault("CLEAR_CACHE", "1")


def warm_up():
    before_build()
    import torch  # noqa: F401
    import equiformer_pytorch  # noqa: F401
    import equiformer_pytorch.reversible  # noqa: F401
    from equiformer_pytorch.basis import get_basis

    for max_degree in range(3):  # what Equiformer(num_degrees=1..3) computes at build, kept in memory
        get_basis(max_degree)


# --- losses ----------------------------------------------------------------------------------

@functools.cache
def _loss_classes():
    import torch
    import torch.nn.functional as F
    from torch import nn

    def masked_mse(pred, target, mask):
        err = (pred - target) ** 2
        err = err.reshape(*mask.shape, -1).mean(-1)
        m = mask.float()
        return (err * m).sum() / m.sum().clamp(min=1.0)

    class DenoiseLoss(nn.Module):
        """``denoise.py``: noised coordinates in, the type-1 output is the predicted offset."""

        def __init__(self, net, noise=0.5):
            super().__init__()
            self.net = net
            self.noise = noise

        def forward(self, feats, coors, mask, **kwargs):
            noised = coors + torch.randn_like(coors) * self.noise
            out = self.net(feats, noised, mask, **kwargs)
            denoised = noised + out.type1
            return masked_mse(denoised, coors, mask)

    class RegressLoss(nn.Module):
        """MSE of the per-atom outputs (type 0, and type 1 if any) to fixed targets."""

        def __init__(self, net, type0_shape, type1_shape=None):
            super().__init__()
            self.net = net
            self.register_buffer("t0", torch.randn(type0_shape))
            self.register_buffer("t1", torch.randn(type1_shape) if type1_shape is not None else None)

        def forward(self, feats, coors, mask=None, **kwargs):
            out = self.net(feats, coors, mask, **kwargs)
            if mask is None:
                loss = F.mse_loss(out.type0, self.t0)
            else:
                loss = masked_mse(out.type0, self.t0, mask)
            if self.t1 is not None:
                if mask is None:
                    loss = loss + F.mse_loss(out.type1, self.t1)
                else:
                    loss = loss + masked_mse(out.type1, self.t1, mask)
            return loss

    class PooledLoss(nn.Module):
        """``return_pooled=True``: a molecule-level property (energy) regressed from pooled type 0."""

        def __init__(self, net, batch):
            super().__init__()
            self.net = net
            self.register_buffer("energy", torch.randn(batch))

        def forward(self, feats, coors, mask, **kwargs):
            out = self.net(feats, coors, mask, return_pooled=True, **kwargs)
            pred = out.type0.sum(-1) if out.type0.ndim > 1 else out.type0
            return F.mse_loss(pred, self.energy)

    return DenoiseLoss, RegressLoss, PooledLoss


# --- inputs ----------------------------------------------------------------------------------

def _coors(b=_B, n=_N):
    import torch

    return torch.randn(b, n, 3)


def _mask(b=_B, n=_N, padded=False):
    import torch

    mask = torch.ones(b, n, dtype=torch.bool)
    if padded:
        mask[1, n - 3:] = False
    return mask


def _chain_adj(n=_N):
    import torch

    i = torch.arange(n)
    return (i[:, None] <= (i[None, :] + 1)) & (i[:, None] >= (i[None, :] - 1))


# --- whole models ----------------------------------------------------------------------------

def _model(loss="regress", tokens=None, feat_dim=None, dict_in=None, padded=False, edges=None,
           adj=None, pooled=False, **kwargs):
    """A factory: ``Equiformer(**kwargs)``; inputs: ``tokens`` (atom ids below it), or float
    features of ``feat_dim``, or ``dict_in`` (a tuple of per-degree dims: a degree dict);
    ``edges``: "tokens" (bond ids below ``num_edge_tokens``) or "float" (``edge_dim`` features);
    ``adj``: "chain" (a 2-d chain adjacency) or "batched" (3-d, a chain plus random bonds)."""

    def make(mode):
        import torch
        from equiformer_pytorch import Equiformer

        net = Equiformer(**kwargs)
        b, n = _B, _N
        if tokens is not None:
            feats = torch.randint(0, tokens, (b, n))
        elif dict_in is not None:
            feats = {deg: torch.randn(b, n, d, 2 * deg + 1) for deg, d in enumerate(dict_in)}
        else:
            feats = torch.randn(b, n, feat_dim)
        coors, mask = _coors(b, n), _mask(b, n, padded)
        kw = {}
        if edges == "tokens":
            kw["edges"] = torch.randint(0, kwargs["num_edge_tokens"], (b, n, n))
        elif edges == "float":
            kw["edges"] = torch.randn(b, n, n, kwargs["edge_dim"])
        if adj == "chain":
            kw["adj_mat"] = _chain_adj(n)
        elif adj == "batched":
            extra = torch.rand(b, n, n) < 0.15
            kw["adj_mat"] = _chain_adj(n)[None] | extra | extra.transpose(-1, -2)
        if mode == "eval":
            if pooled:
                kw["return_pooled"] = True
            return net, (feats, coors, mask), kw
        DenoiseLoss, RegressLoss, PooledLoss = _loss_classes()
        if pooled:
            return PooledLoss(net, b), (feats, coors, mask), kw
        if loss == "denoise":
            return DenoiseLoss(net), (feats, coors, mask), kw
        with torch.no_grad():
            out = net(dict(feats) if isinstance(feats, dict) else feats, coors, mask, **kw)
        t1 = None if out.type1 is None else tuple(out.type1.shape)
        return RegressLoss(net, tuple(out.type0.shape), t1), (feats, coors, mask), kw

    return make


_README = dict(num_tokens=24, dim=(4, 4, 2), dim_head=(4, 4, 4), heads=(2, 2, 2), num_linear_attn_heads=0,
               num_degrees=3, depth=1, attend_self=True, reduce_dim_out=True)
_README2 = dict(_README, dim=(4, 4), dim_head=(4, 4), heads=(2, 2), num_degrees=2)
_EDGES = dict(num_tokens=28, dim=16, num_edge_tokens=4, edge_dim=8, depth=1, input_degrees=1, num_degrees=2,
              heads=2, dim_head=8, reduce_dim_out=True)
_ADJ = dict(dim=16, heads=2, depth=1, dim_head=8, num_degrees=2, valid_radius=10, reduce_dim_out=True,
            attend_sparse_neighbors=True, num_neighbors=0, num_adj_degrees_embed=2, max_sparse_neighbors=8)
_BASE = dict(dim=16, heads=2, dim_head=8, depth=1, num_degrees=2, radial_hidden_dim=16)


def _m(**kw):
    return {**_BASE, **kw}


MODELS = {
    # README
    "readme_mlp_attention": _model("denoise", tokens=24, **_README2, l2_dist_attention=False),
    "readme_l2_attention_3_degrees": _model("denoise", tokens=24, **_README),
    "readme_reversible": _model(tokens=24, **dict(_README2, reduce_dim_out=False), reversible=True),
    "readme_edges": _model("denoise", tokens=28, edges="tokens", **_EDGES),
    "readme_adj_mat": _model("denoise", feat_dim=16, adj="chain", **_ADJ),
    # tests
    "test_transformer_shape": _model(feat_dim=16, dim=16, depth=1, num_degrees=2, init_out_zero=False, heads=2,
                                     dim_head=8),
    "test_equivariance_dict_in": _model("denoise", dict_in=(8, 8), dim=(8, 4), dim_in=(8, 8), input_degrees=2,
                                        depth=1, num_degrees=2, reduce_dim_out=True, init_out_zero=False,
                                        heads=2, dim_head=8),
    "test_equivariance_dict_in_mlp_reversible": _model("denoise", dict_in=(8, 8), dim=16, dim_in=(8, 8),
                                                       input_degrees=2, depth=1, num_degrees=2, reduce_dim_out=True,
                                                       l2_dist_attention=False, reversible=True, init_out_zero=False,
                                                       heads=2, dim_head=8),
    "test_edges_mlp_reversible": _model("denoise", tokens=28, edges="tokens", **_EDGES, l2_dist_attention=False,
                                        reversible=True, init_out_zero=False),
    "test_adj_mat_mlp": _model("denoise", feat_dim=16, adj="chain", **_ADJ, l2_dist_attention=False,
                               init_out_zero=False),
    # denoise.py (tiny: 2 degrees, depth 1)
    "denoise_py": _model("denoise", tokens=24, num_tokens=24, dim=(8, 4), dim_head=(8, 4), heads=(2, 1), depth=1,
                         reversible=True, attend_self=True, reduce_dim_out=True, num_neighbors=3, num_degrees=2,
                         linear_out=True, padded=True),
    # one option at a time
    "num_degrees_1": _model(feat_dim=16, **_m(num_degrees=1)),
    "positions_tokens": _model("denoise", tokens=10, **_m(num_tokens=10, num_positions=16, embedding_grad_frac=1.0,
                                                         reduce_dim_out=True)),
    "local_neighbors_radius": _model("denoise", feat_dim=16, padded=True,
                                     **_m(num_neighbors=3, valid_radius=1.5, reduce_dim_out=True)),
    "single_headed_kv_mlp": _model(feat_dim=16, **_m(single_headed_kv=True, l2_dist_attention=False)),
    "linear_attn_heads_l2": _model("denoise", feat_dim=16, padded=True,
                                   **_m(num_linear_attn_heads=2, linear_attn_dim_head=4, reduce_dim_out=True)),
    "no_head_gates": _model(feat_dim=16, **_m(gate_attn_head_outputs=False, l2_dist_attention=False)),
    "ff_htype_norms": _model("denoise", feat_dim=16, **_m(ff_include_htype_norms=True, reduce_dim_out=True)),
    "feedforward_out": _model("denoise", feat_dim=16, **_m(linear_out=False, reduce_dim_out=True)),
    "mlp_attention_options": _model(feat_dim=16, **_m(l2_dist_attention=False, init_out_zero=False,
                                                      attn_hidden_dim_mult=2, attn_leakyrelu_slope=0.2,
                                                      radial_hidden_dim=8)),
    "edges_continuous": _model("denoise", feat_dim=16, edges="float", **_m(edge_dim=4, reduce_dim_out=True)),
    "adj_mat_batched_neighbors": _model("denoise", feat_dim=16, adj="batched",
                                        **{**_ADJ, "num_neighbors": 2, "max_sparse_neighbors": 2}),
    "pooled_energy": _model(feat_dim=16, padded=True, pooled=True, **_m()),
}


# --- building blocks -------------------------------------------------------------------------

def _graph(fiber, k=3, edge_dim=0, b=_B, n=_N):
    """Degree-dict features, the ``EdgeInfo`` of the ``k`` nearest neighbours, their distances,
    the basis and D, as ``Equiformer.forward`` builds them."""
    import torch
    from einx import get_at
    from equiformer_pytorch.basis import get_basis, get_D_to_from_z_axis
    from equiformer_pytorch.equiformer_pytorch import EdgeInfo

    feats = {deg: torch.randn(b, n, d, 2 * deg + 1) for deg, d in enumerate(fiber)}
    coors = torch.randn(b, n, 3)
    keep = ~torch.eye(n, dtype=torch.bool)[None]
    indices = torch.arange(n).expand(b, n, n).masked_select(keep).reshape(b, n, n - 1)
    rel_pos = (coors[:, :, None] - coors[:, None]).masked_select(keep[..., None]).reshape(b, n, n - 1, 3)
    rel_dist = rel_pos.norm(dim=-1)
    _, nearest = rel_dist.topk(k, dim=-1, largest=False)
    neighbor_indices = get_at("b i [j], b i k -> b i k", indices, nearest)
    neighbor_rel_pos = get_at("b i [j] c, b i k -> b i k c", rel_pos, nearest)
    neighbor_rel_dist = get_at("b i [j], b i k -> b i k", rel_dist, nearest)[..., None]
    neighbor_mask = torch.ones(b, n, k, dtype=torch.bool)
    neighbor_mask[1, :, -1] = False
    edges = torch.randn(b, n, k, edge_dim) if edge_dim else None
    basis = get_basis(len(fiber) - 1)
    D = get_D_to_from_z_axis(neighbor_rel_pos, len(fiber) - 1)
    return feats, EdgeInfo(neighbor_indices, neighbor_mask, edges), neighbor_rel_dist, basis, D


def _block(build, call):
    """A factory: ``build()`` a block, ``call(block)`` -> (callable, args, kwargs); in train the
    degree-dict features require grad (as inside a model: ``Gate`` has no weights of its own)."""

    def make(mode):
        net, args, kwargs = call(build())
        if mode == "train":
            for a in args:
                if isinstance(a, dict):
                    for t in a.values():
                        t.requires_grad_(True)
            return mean_loss_module()(net), args, kwargs
        return net, args, kwargs

    return make


def _dtp(pool, **kw):
    def build():
        from equiformer_pytorch.equiformer_pytorch import DTP

        return DTP((8, 4, 4), (8, 8, 4), pool=pool, radial_hidden_dim=8, edge_dim=kw.get("edge_dim", 0), **{
            k: v for k, v in kw.items() if k != "edge_dim"})

    def call(net):
        feats, info, dist, basis, D = _graph((8, 4, 4), edge_dim=kw.get("edge_dim", 0))
        return net, (feats,), dict(basis=basis, D=D, edge_info=info, rel_dist=dist)

    return _block(build, call)


def _attention(cls_name, fiber=(8, 4), **kw):
    def build():
        from equiformer_pytorch import equiformer_pytorch as ep

        return getattr(ep, cls_name)(fiber, dim_head=4, heads=2, radial_hidden_dim=8, attend_self=True, **kw)

    def call(net):
        feats, info, dist, basis, D = _graph(fiber, edge_dim=kw.get("edge_dim") or 0)
        return net, (feats,), dict(edge_info=info, rel_dist=dist, basis=basis, D=D, mask=_mask())

    return _block(build, call)


def _features_block(cls_name, fiber=(16, 4, 2), **kw):
    def build():
        from equiformer_pytorch import equiformer_pytorch as ep

        return getattr(ep, cls_name)(fiber, **kw)

    def call(net):
        import torch

        return net, ({deg: torch.randn(_B, _N, d, 2 * deg + 1) for deg, d in enumerate(fiber)},), {}

    return _block(build, call)


def _linear(fiber_in, fiber_out):
    def build():
        from equiformer_pytorch.equiformer_pytorch import Linear

        return Linear(fiber_in, fiber_out)

    def call(net):
        import torch

        return net, ({deg: torch.randn(_B, _N, d, 2 * deg + 1) for deg, d in enumerate(fiber_in)},), {}

    return _block(build, call)


def _radial():
    def build():
        from equiformer_pytorch.equiformer_pytorch import Radial

        return Radial(1, 4, 2, 6, edge_dim=3, radial_hidden_dim=8)

    def call(net):
        import torch

        return net, (torch.randn(_B, _N, 5, 4),), {}

    return _block(build, call)


def _linear_attention():
    def build():
        from equiformer_pytorch.equiformer_pytorch import LinearAttention

        return LinearAttention(16, dim_head=4, heads=2)

    def call(net):
        import torch

        return net, (torch.randn(_B, _N, 16, 1),), dict(mask=_mask(padded=True))

    return _block(build, call)


def _trunk(reversible, l2=True):
    def build():
        from equiformer_pytorch import equiformer_pytorch as ep
        from equiformer_pytorch.reversible import ReversibleSequence, SequentialSequence

        fiber = (8, 4)
        attn = ep.L2DistAttention if l2 else ep.MLPAttention
        layers = [(attn(fiber, dim_head=4, heads=2, radial_hidden_dim=8, attend_self=True, init_out_zero=False),
                   ep.FeedForward(fiber, init_out_zero=False)) for _ in range(2)]
        return (ReversibleSequence if reversible else SequentialSequence)(layers)

    def call(net):
        feats, info, dist, basis, D = _graph((8, 4))
        return net, (feats,), dict(edge_info=info, rel_dist=dist, basis=basis, D=D, mask=_mask())

    return _block(build, call)


MODELS.update({
    "block_DTP_pooled": _dtp(True),
    "block_DTP_unpooled_edges": _dtp(False, self_interaction=False, project_xi_xj=False, project_out=False,
                                     edge_dim=3),
    "block_L2DistAttention": _attention("L2DistAttention", init_out_zero=False),
    "block_L2DistAttention_edges_linear_heads": _attention("L2DistAttention", fiber=(8, 4), edge_dim=3,
                                                           num_linear_attn_heads=1, linear_attn_dim_head=4,
                                                           single_headed_kv=True, init_out_zero=False),
    "block_MLPAttention": _attention("MLPAttention", init_out_zero=False),
    "block_FeedForward_htype_norms": _features_block("FeedForward", include_htype_norms=True, init_out_zero=False),
    "block_Norm": _features_block("Norm"),
    "block_Gate": _features_block("Gate"),
    "block_Linear": _linear((8, 4, 2), (4, 4)),
    "block_Radial": _radial(),
    "block_LinearAttention": _linear_attention(),
    "block_SequentialSequence": _trunk(False),
    "block_ReversibleSequence_mlp": _trunk(True, l2=False),
})
