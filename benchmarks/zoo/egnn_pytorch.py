"""egnn-pytorch 0.2.8 (Phil Wang / lucidrains, Eric Alcaide): E(n)-equivariant graph neural
networks (Satorras et al. 2021), as its README, its tests (``tests/test_equivariance.py``), its
denoising script (``denoise_sparse.py``) and its notebook (``examples/egnn_test.ipynb``) use them,
tiny (batches of 2 point clouds of 8 nodes, width 16; 2-3 layers), random weights, no download:

- the dense ``EGNN`` layer: the README's plain layer and its two-layer stacks (with and without
  continuous edges), the tests' edges + mask, 5-d coordinates (``test_higher_dimension``),
  ``num_nearest_neighbors`` with edges and mask (and ``norm_coors``, as
  ``test_egnn_equivariance_with_coord_norm``), a ``valid_radius``, nearest neighbours ranked
  with a 2-d adjacency matrix, ``only_sparse_neighbors`` with an adjacency matrix,
  ``fourier_features``, ``soft_edges``, ``m_pool_method="mean"`` (plain and masked),
  ``update_feats=False`` / ``update_coors=False``, and ``norm_feats`` with dropout and
  ``coor_weights_clamp_value`` (the README's "All parameters");
- ``EGNN_Network``: the README's token network with positions, nearest neighbours and clamped
  coordinate weights, ``only_sparse_neighbors`` over a chain adjacency matrix,
  ``num_adj_degrees=3`` with an ``adj_dim`` embedding (and 2 degrees with nearest neighbours, no
  embedding), continuous edges with an adjacency matrix ("Edges"), ``num_edge_tokens`` edges,
  the "Stability" settings, the global linear attention (``global_linear_attn_every``, global
  tokens, mask), ``return_coor_changes`` with mean pooling and soft edges, and
  ``denoise_sparse.py``'s network (Fourier features, normalised coordinates, clamped weights,
  4 residues x 3 backbone atoms) trained on the MSE of the masked denoised coordinates;
- ``EGNN_Sparse`` (a ``torch_geometric`` ``MessagePassing`` layer over ``edge_index``; two graphs
  of 8 nodes, 12 random edges each): the tests' ``feats_dim=1`` with Fourier features and
  ``test_geom_equivalence``'s ``edge_attr``, ``norm_feats`` (PyG's graph ``LayerNorm`` over
  ``batch``) with ``soft_edge`` and mean aggregation, ``norm_coors`` with max aggregation, and
  coordinates only;
- ``EGNN_Sparse_Network`` as the notebook builds it (token embeddings for the last two point
  columns and the edge column, Fourier features), with and without ``norm_feats``, with
  ``recalc=1`` and a k-nearest-neighbour ``recalc_edge`` (edges recomputed and re-embedded after
  the first layer), and the notebook's training loss (MSE of the masked predicted coordinates).

Eval: the model's output (``(feats, coors)``; ``x`` for the sparse layers). Train: the two
denoising examples compute their own loss; every other model the sum of the means of its float
outputs (``mean_loss_module``).

    pip install --no-deps egnn-pytorch==0.2.8
    pip install --no-deps einops==0.8.2            # (already installed)
    pip install --no-deps torch-geometric==2.8.1   # (already installed; + its pure dependencies
                                                   #  aiohttp, fsspec, jinja2, psutil, pyparsing,
                                                   #  requests, tqdm, xxhash: installed)

It imports torch and einops; ``egnn_pytorch_geometric`` (imported by the package's
``__init__``) imports ``torch_geometric`` in a ``try`` and needs it for ``EGNN_Sparse``. PyG
2.8.1 is pure Python and runs here without any compiled extension (no ``pyg-lib``,
``torch-scatter``, ``torch-sparse``: its scatter falls back to torch). The declared ``numpy`` /
``numba`` requirements are never imported by 0.2.8 (both installed anyway: numpy 2.4.6, numba
0.68.1). Nothing stubbed. Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 36 models, 72 runs, all built, all 72 ran under Dynamo (36 eval,
36 train), none failed. 60 runs have no break at all (the dense layers, the networks and
PyG's ``MessagePassing`` plumbing — ``_check_input``, ``_collect``, ``inspector`` — trace into
one graph). 12 runs break: ``only_sparse_neighbors`` (``EGNN`` and two ``EGNN_Network``
entries, both modes) at ``egnn_pytorch.py:249``, ``num_nearest = int(adj_mat.float().sum(dim =
-1).max().item())`` (GB0124 ``Tensor.item()``; inside ``EGNN_Network``'s layer loop a GB7000 frame
skip, then ``requires_grad`` recompiles of ``EGNN.forward`` and its resume function in
training); PyG's ``LayerNorm`` under ``norm_feats`` (``torch_geometric/nn/norm/layer_norm.py:89``,
``int(batch.max())``: GB0124, outside the package; in ``EGNN_Sparse_Network``'s layer loop a
GB7000 frame skip of its ``forward`` and a size recompile of ``embedd_token``, called on 16 nodes
then 24 edges); and the two denoising losses (boolean-mask indexing in this adapter: GB0036
``aten.nonzero``). First numbers with the frozen linter (``/tmp/lint-start55``): graph-break
statement recall 1.00 (1/1), precision 1.00 (2/2: CL103 on the ``.item()`` at line 249, CL150
on ``EGNN_Sparse_Network.forward``'s layer loop), 5 findings (all in files run), 3 unjudged (all
not reached: ``torch.unique`` in ``Attention_Sparse.sparse_forward`` and in the global-token
branch of ``EGNN_Sparse_Network.forward``, and ``torch.arange`` over its counts). No miss, no
false alarm; 2 of the 3 recompile sites (``embedd_token``, ``EGNN.forward``) are not flagged.

Left out: the sparse global attention, broken in 0.2.8 before any tracing:
``EGNN_Sparse_Network(global_linear_attn_every > 0)`` raises ``NameError`` (``dim``) at
construction, ``GlobalLinearAttention_Sparse`` raises ``NameError`` (``torch_geomtric``), and
``Attention_Sparse.sparse_forward`` over several graphs raises ``NameError`` (``n_i``).
``egnn_pytorch.utils.rot`` (the tests' rotation for equivariance checks, not model code),
the float64 default dtype of the tests, ``.cuda()`` and sidechainnet data (random coordinates
and tokens instead), and the README's full sizes (dim 512, 1024 nodes).
"""

import functools

PACKAGE = "egnn_pytorch"
DISTRIBUTION = "egnn-pytorch"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _N, _D = 2, 8, 16  # batch, nodes, feature width


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Stack(nn.Module):
        """The README's first usage: two ``EGNN`` layers applied in turn."""

        def __init__(self, *layers):
            super().__init__()
            self.layers = nn.ModuleList(layers)

        def forward(self, feats, coors, *args, **kwargs):
            for layer in self.layers:
                feats, coors = layer(feats, coors, *args, **kwargs)
            return feats, coors

    class Denoise(nn.Module):
        """``denoise_sparse.py``: noised backbone coordinates through an ``EGNN_Network`` with a
        chain adjacency matrix; training takes the MSE of the masked denoised coordinates."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, seq, coords, noise, adj_mat, masks):
            noised_coords = coords + noise
            feats, denoised_coords = self.net(seq, noised_coords, adj_mat=adj_mat, mask=masks)
            if not self.training:
                return feats, denoised_coords
            return F.mse_loss(denoised_coords[masks], coords[masks])

    class SparseDenoise(nn.Module):
        """The notebook (``examples/egnn_test.ipynb``): an ``EGNN_Sparse_Network`` over atoms
        whose last columns are token ids, trained on the masked MSE of the predicted coordinates."""

        def __init__(self, net, pos_dim=3):
            super().__init__()
            self.net, self.pos_dim = net, pos_dim

        def forward(self, x, edge_index, batch, edge_attr, target_coords, chain_mask):
            preds = self.net(x, edge_index, batch=batch, edge_attr=edge_attr)
            if not self.training:
                return preds
            pred_coords = preds[:, :self.pos_dim]
            return ((pred_coords - target_coords)[chain_mask] ** 2).mean()

    return {"Stack": Stack, "Denoise": Denoise, "SparseDenoise": SparseDenoise}


# --- inputs ---------------------------------------------------------------------------------

def _feats(d=_D, n=_N):
    import torch

    return torch.randn(_B, n, d)


def _coors(c=3, n=_N):
    import torch

    return torch.randn(_B, n, c)


def _edges(e=4, n=_N):
    import torch

    return torch.randn(_B, n, n, e)


def _mask(n=_N):
    """The second graph padded: its last 2 nodes masked out."""
    import torch

    mask = torch.ones(_B, n, dtype=torch.bool)
    mask[1, -2:] = False
    return mask


def _chain(n=_N):
    """The README's naive adjacency matrix: a chain, at most 2 neighbours (n, n)."""
    import torch

    i = torch.arange(n)
    return (i[:, None] >= (i[None, :] - 1)) & (i[:, None] <= (i[None, :] + 1))


def _tokens(num=21, n=_N):
    import torch

    return torch.randint(0, num, (_B, n))


# --- builders --------------------------------------------------------------------------------

def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _egnn(inputs, dim=_D, **kwargs):
    """One ``EGNN(dim, **kwargs)`` layer; ``inputs()`` -> (args, kwargs)."""

    def make(mode):
        from egnn_pytorch import EGNN

        args, kw = inputs()
        return _wrap(EGNN(dim=dim, **kwargs), mode), args, kw

    return make


def _stack(mode):
    from egnn_pytorch import EGNN

    net = _modules()["Stack"](EGNN(dim=_D), EGNN(dim=_D))
    return _wrap(net, mode), (_feats(), _coors()), {}


def _stack_edges(mode):
    from egnn_pytorch import EGNN

    net = _modules()["Stack"](EGNN(dim=_D, edge_dim=4), EGNN(dim=_D, edge_dim=4))
    return _wrap(net, mode), (_feats(), _coors(), _edges()), {}


def _network(inputs, depth=2, dim=_D, **kwargs):
    """An ``EGNN_Network(depth, dim, **kwargs)``; ``inputs()`` -> (args, kwargs)."""

    def make(mode):
        from egnn_pytorch import EGNN_Network

        args, kw = inputs()
        return _wrap(EGNN_Network(depth=depth, dim=dim, **kwargs), mode), args, kw

    return make


def _denoise(mode):
    """``denoise_sparse.py``'s network (dim 8, Fourier features, normalised coordinates, clamped
    coordinate weights, nearest neighbours), 3 backbone atoms for each of 4 residues."""
    import torch
    from einops import repeat

    from egnn_pytorch import EGNN_Network

    residues, atoms = 4, 3
    n = residues * atoms
    net = EGNN_Network(num_tokens=21, num_positions=n, depth=2, dim=8, num_nearest_neighbors=4,
                       fourier_features=2, norm_coors=True, coor_weights_clamp_value=2.)
    seqs = torch.randint(0, 21, (_B, residues))
    masks = torch.ones(_B, residues, dtype=torch.bool)
    masks[1, -1] = False
    seq = repeat(seqs, "b n -> b (n c)", c=atoms)
    masks = repeat(masks, "b n -> b (n c)", c=atoms)
    coords = torch.randn(_B, n, 3)
    return (_modules()["Denoise"](net), (seq, coords, torch.randn_like(coords), _chain(n), masks), {})


def _sparse_graph(feats_dim, edge_attr_dim=0, pos_dim=3, per_graph=_N, edges_per_graph=12, tokens=None,
                  edge_tokens=None):
    """Two graphs of ``per_graph`` nodes as PyG inputs: ``x`` (coordinates then features),
    ``edge_index`` within each graph, ``batch``; ``edge_attr`` when asked. ``tokens``: the
    last columns of ``x`` are token ids (as floats) for ``EGNN_Sparse_Network``'s embeddings."""
    import torch

    n = _B * per_graph
    coors = torch.randn(n, pos_dim)
    if tokens:
        feats = torch.cat([torch.randn(n, feats_dim - len(tokens))]
                          + [torch.randint(0, t, (n, 1)).float() for t in tokens], dim=-1)
    else:
        feats = torch.randn(n, feats_dim)
    x = torch.cat([coors, feats], dim=-1)
    src = torch.randint(0, per_graph, (_B, edges_per_graph))
    dst = torch.randint(0, per_graph, (_B, edges_per_graph))
    offset = (torch.arange(_B) * per_graph)[:, None]
    edge_index = torch.stack([(src + offset).flatten(), (dst + offset).flatten()])
    batch = torch.arange(_B).repeat_interleave(per_graph)
    e = edge_index.shape[1]
    edge_attr = None
    if edge_tokens:
        edge_attr = torch.cat([torch.randn(e, edge_attr_dim - len(edge_tokens))]
                              + [torch.randint(0, t, (e, 1)).float() for t in edge_tokens], dim=-1)
    elif edge_attr_dim:
        edge_attr = torch.randn(e, edge_attr_dim)
    return x, edge_index, batch, edge_attr


def _egnn_sparse(feats_dim=_D, edge_attr_dim=0, use_batch=False, **kwargs):
    """One ``EGNN_Sparse`` message-passing layer over two small graphs."""

    def make(mode):
        from egnn_pytorch import EGNN_Sparse

        x, edge_index, batch, edge_attr = _sparse_graph(feats_dim, edge_attr_dim)
        net = EGNN_Sparse(feats_dim=feats_dim, edge_attr_dim=edge_attr_dim, **kwargs)
        kw = {}
        if edge_attr is not None:
            kw["edge_attr"] = edge_attr
        if use_batch:
            kw["batch"] = batch
        return _wrap(net, mode), (x, edge_index), kw

    return make


def _knn_recalc(k=3):
    """A ``recalc_edge`` for ``EGNN_Sparse_Network(recalc=1)``: the k nearest neighbours of each
    point (within its own graph) from the updated coordinates, edge token 0 for every new edge."""

    def recalc_edge(x):
        import torch

        coors = x[:, :3]
        n = coors.shape[0]
        graph = torch.arange(n, device=x.device) // _N
        dist = torch.cdist(coors, coors)
        dist = dist.masked_fill(graph[:, None] != graph[None, :], float("inf"))
        dist = dist.masked_fill(torch.eye(n, dtype=torch.bool, device=x.device), float("inf"))
        nbrs = dist.topk(k, dim=-1, largest=False).indices
        edge_index = torch.stack([torch.arange(n, device=x.device).repeat_interleave(k), nbrs.flatten()])
        return edge_index, x.new_zeros(edge_index.shape[1], 1), None

    return recalc_edge


def _sparse_network_recalc(mode):
    """``recalc=1``: the edges recomputed by ``recalc_edge`` after the first layer (and
    re-embedded), as the network's docstring describes."""
    net, args, kwargs = _egnn_sparse_network(norm_feats=False, recalc=1)(mode)
    return net, args, dict(kwargs, recalc_edge=_knn_recalc())


def _egnn_sparse_network(loss=False, feats_dim=2, edge_attr_dim=1, embedding_nums=(36, 20),
                         embedding_dims=(8, 8), edge_embedding_nums=(3,), edge_embedding_dims=(2,), **kwargs):
    """``EGNN_Sparse_Network`` as the notebook builds it (token embeddings for the last two
    point columns and the edge column), tiny."""

    def make(mode):
        import torch

        from egnn_pytorch import EGNN_Sparse_Network

        net = EGNN_Sparse_Network(n_layers=2, feats_dim=feats_dim, pos_dim=3, edge_attr_dim=edge_attr_dim,
                                  m_dim=16, fourier_features=4, embedding_nums=list(embedding_nums),
                                  embedding_dims=list(embedding_dims), edge_embedding_nums=list(edge_embedding_nums),
                                  edge_embedding_dims=list(edge_embedding_dims), **kwargs)
        x, edge_index, batch, edge_attr = _sparse_graph(feats_dim, edge_attr_dim, tokens=embedding_nums,
                                                        edge_tokens=edge_embedding_nums)
        if loss:
            target = x[:, :3] + 0.1 * torch.randn(x.shape[0], 3)
            chain_mask = torch.ones(x.shape[0], dtype=torch.bool)
            chain_mask[-3:] = False
            return _modules()["SparseDenoise"](net), (x, edge_index, batch, edge_attr, target, chain_mask), {}
        return _wrap(net, mode), (x, edge_index, batch, edge_attr), {}

    return make


# --- input sets --------------------------------------------------------------------------------

def _in_plain():
    return (_feats(), _coors()), {}


def _in_edges():
    return (_feats(), _coors(), _edges()), {}


def _in_edges_mask():
    """``test_egnn_equivariance``: features, coordinates, edges, a mask."""
    return (_feats(), _coors(), _edges()), {"mask": _mask()}


def _in_higher_dim():
    """``test_higher_dimension``: 5-d coordinates."""
    return (_feats(), _coors(5), _edges()), {"mask": _mask()}


def _in_edge1_mask():
    return (_feats(), _coors(), _edges(1)), {"mask": _mask()}


def _in_mask():
    return (_feats(), _coors()), {"mask": _mask()}


def _in_adj():
    return (_feats(), _coors()), {"adj_mat": _chain()}


def _in_adj_mask():
    return (_feats(), _coors()), {"adj_mat": _chain(), "mask": _mask()}


def _in_tokens_mask():
    return (_tokens(), _coors()), {"mask": _mask()}


def _in_tokens_adj_mask():
    return (_tokens(), _coors()), {"adj_mat": _chain(), "mask": _mask()}


def _in_tokens_edges_adj_mask():
    return (_tokens(), _coors()), {"edges": _edges(), "adj_mat": _chain(), "mask": _mask()}


def _in_edge_tokens():
    import torch

    return (_tokens(), _coors()), {"edges": torch.randint(0, 5, (_B, _N, _N)), "mask": _mask()}


def _in_feats_mask_changes():
    return (_feats(), _coors()), {"mask": _mask(), "return_coor_changes": True}


MODELS = {
    # --- the EGNN layer (README "Usage", "All parameters"; tests/test_equivariance.py) ---
    "EGNN": _egnn(_in_plain),
    "EGNN_stack": _stack,
    "EGNN_stack_edges": _stack_edges,
    "EGNN_edges_mask": _egnn(_in_edges_mask, edge_dim=4),
    "EGNN_higher_dimension": _egnn(_in_higher_dim, edge_dim=4),
    "EGNN_nearest_neighbors": _egnn(_in_edge1_mask, edge_dim=1, num_nearest_neighbors=4),
    "EGNN_nearest_norm_coors": _egnn(_in_edge1_mask, edge_dim=1, num_nearest_neighbors=4, norm_coors=True),
    "EGNN_nearest_valid_radius": _egnn(_in_mask, num_nearest_neighbors=4, valid_radius=1.0),
    "EGNN_nearest_adj_mat": _egnn(_in_adj_mask, num_nearest_neighbors=3),
    "EGNN_only_sparse_neighbors": _egnn(_in_adj, only_sparse_neighbors=True),
    "EGNN_fourier_features": _egnn(_in_edges, edge_dim=4, fourier_features=4),
    "EGNN_soft_edges": _egnn(_in_mask, soft_edges=True),
    "EGNN_mean_pool": _egnn(_in_plain, m_pool_method="mean"),
    "EGNN_mean_pool_mask": _egnn(_in_mask, m_pool_method="mean"),
    "EGNN_update_coors_only": _egnn(_in_mask, update_feats=False),
    "EGNN_update_feats_only": _egnn(_in_mask, update_coors=False),
    "EGNN_norm_feats_dropout_clamp": _egnn(_in_mask, norm_feats=True, dropout=0.1, coor_weights_clamp_value=2.),
    # --- EGNN_Network (README "A full EGNN network", "Edges", "Stability"; denoise_sparse.py) ---
    "EGNN_Network_nearest": _network(_in_tokens_mask, num_tokens=21, num_positions=16, num_nearest_neighbors=4,
                                     coor_weights_clamp_value=2.),
    "EGNN_Network_only_sparse_neighbors": _network(_in_tokens_adj_mask, num_tokens=21, only_sparse_neighbors=True),
    "EGNN_Network_adj_degrees": _network(_in_tokens_adj_mask, num_tokens=21, num_adj_degrees=3, adj_dim=8,
                                         only_sparse_neighbors=True),
    "EGNN_Network_adj_degrees_nearest": _network(_in_tokens_adj_mask, num_tokens=21, num_adj_degrees=2,
                                                 num_nearest_neighbors=4),
    "EGNN_Network_edges": _network(_in_tokens_edges_adj_mask, num_tokens=21, edge_dim=4, num_nearest_neighbors=3),
    "EGNN_Network_edge_tokens": _network(_in_edge_tokens, num_tokens=21, num_edge_tokens=5, edge_dim=4),
    "EGNN_Network_stability": _network(_in_tokens_mask, num_tokens=21, num_nearest_neighbors=4, norm_coors=True,
                                       coor_weights_clamp_value=2.),
    "EGNN_Network_global_attention": _network(_in_tokens_mask, depth=3, num_tokens=21, global_linear_attn_every=2,
                                              global_linear_attn_heads=2, global_linear_attn_dim_head=8,
                                              num_global_tokens=2),
    "EGNN_Network_coor_changes": _network(_in_feats_mask_changes, m_pool_method="mean", soft_edges=True),
    "EGNN_Network_denoise": _denoise,
    # --- EGNN_Sparse (torch_geometric MessagePassing; tests/test_equivariance.py, the notebook) ---
    "EGNN_Sparse_fourier": _egnn_sparse(feats_dim=1, m_dim=16, fourier_features=4),
    "EGNN_Sparse_edge_attr": _egnn_sparse(edge_attr_dim=4, m_dim=16, fourier_features=4),
    "EGNN_Sparse_norm_feats_soft_edge_mean": _egnn_sparse(use_batch=True, norm_feats=True, soft_edge=1, aggr="mean"),
    "EGNN_Sparse_norm_coors_max": _egnn_sparse(norm_coors=True, aggr="max"),
    "EGNN_Sparse_coors_only": _egnn_sparse(update_feats=False),
    "EGNN_Sparse_Network": _egnn_sparse_network(norm_feats=False),
    "EGNN_Sparse_Network_norm_feats": _egnn_sparse_network(),
    "EGNN_Sparse_Network_recalc": _sparse_network_recalc,
    "EGNN_Sparse_Network_denoise": _egnn_sparse_network(loss=True, norm_feats=False),
}
