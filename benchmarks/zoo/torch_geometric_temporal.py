"""PyTorch Geometric Temporal 0.56.2: its spatio-temporal graph layers and models
(``torch_geometric_temporal.nn``: ``recurrent``, ``attention``, ``hetero``), tiny configs cut down
from the library's own tests (``test/recurrent_test.py``, ``test/attention_test.py``,
``test/heterogeneous_test.py``), random weights, no download (no dataset loader is used).

Data: one small static graph (12 nodes, a ring both ways plus skip-2 chords: 48 directed edges)
with random edge weights; node features / hidden sizes of 4-16; sequences of 3-12 steps; batch 2.

Eval: the layer or model called as the tests call it (recurrent cells with an edge weight and a
given hidden state where the test passes one).
Train: the training step of the library's examples (``examples/recurrent/*_example.py``): the
example's ``RecurrentGCN`` (cell -> ReLU -> ``Linear``) run over 3 snapshots of a static-graph
temporal signal, carrying ``h`` / ``c`` where the example does (GConvLSTM, GCLSTM, LRGCN,
DyGrEncoder, AGCRN), ``cost = cost + torch.mean((y_hat - y) ** 2)`` per snapshot, divided by
the number of snapshots; the batched ones as ``tgcn2_example`` (TGCN2 over the ``T`` axis, MSE)
and ``a3tgcn2_example`` (A3TGCN2 -> ReLU -> Linear to periods, MSE), BatchedDCRNN as the
index-batching DCRNN example (MAE); the attention models (no example of their own in the repo)
with an MSE against a fixed target of the output's shape (``_MSELoss``), and ``mean_loss_module``
for the building blocks / hetero layer.

    pip install --no-deps torch-geometric-temporal==0.56.2

(already installed and used: torch 2.13.0 CPU, torch_geometric 2.8.1, numpy, networkx;
tqdm, requests, dask only for the dataset loaders, not used.)

Stubbed: ``torch_sparse`` (compiled, not installed): ``nn/recurrent/evolvegcno.py`` imports
``from torch_sparse import SparseTensor`` at its top, only for a class attribute annotation
(``_cached_adj_t: Optional[SparseTensor]``), and ``nn/recurrent/__init__`` imports it, so the
whole package fails to import without it. ``SparseTensor`` is a stand-in class that raises if built;
torch_geometric is imported first so that its own ``WITH_TORCH_SPARSE`` stays False. No model
needs torch_scatter / torch_sparse at run time (torch_geometric 2.8 scatters with torch).

Left out: the dataset loaders and ``signal`` iterators (downloads, numpy / dask bookkeeping, no
network); the DDP / dask index-batching scripts; ``GConvGRU`` / ``GConvLSTM`` with
``normalization="rw"`` / ``None`` (need a ``lambda_max`` per graph; the ``sym`` default is in,
and one GConvGRU passes ``lambda_max`` explicitly).

Models (43): recurrent ``GConvGRU`` (and with ``lambda_max``), ``GConvLSTM``, ``GCLSTM``, ``DCRNN``
(K=2 with weights and hidden state; K=1 without weights, as the Lightning example), ``TGCN``,
``A3TGCN``, ``MPNNLSTM``, ``EvolveGCNH``, ``EvolveGCNO``, ``LRGCN``, ``DyGrEncoder``, ``AGCRN`` (K=2,
K=3), ``TGCN2``, ``A3TGCN2``, ``BatchedDCRNN``, ``HeteroGCLSTM`` (author / paper graph made
undirected by ``T.ToUndirected`` as the test does); attention ``TemporalConv``, ``STConv``,
``ChebConvAttention`` (and batched with ``batch`` / ``lambda_max``), ``ASTGCN`` (normalization
None / sym without bias / rw; one edge index or a list of one per time step), ``MSTGCN`` (both
edge forms), ``GMAN`` (L=1; L=2 with the causal mask and no bias), ``SpatioTemporalAttention``,
``SpatioTemporalEmbedding``, ``MTGNN`` (learned adjacency with a node permutation ``idx``; with
static node features ``FE``; the given ``A_tilde``; no graph convolution and dilation 2; input
longer than the receptive field), ``MixProp``, ``GraphConstructor``, ``AAGCN`` (adaptive / not),
``DNNTSP``.
Notes: GMAN and SpatioTemporalAttention use ``K == d`` heads as the test does: the causal mask is
repeated ``K * batch`` times while the heads are split into chunks of ``K`` channels, so it only
lines up when ``K == d`` (a library bug, not a Dynamo one). ``SpatioTemporalEmbedding`` gets
``T = steps_per_day`` as GMAN passes it. ``DNNTSP``'s ``MaskedSelfAttention`` prints shapes in
its forward (the library's own ``print``). The train wrappers are ``torch.nn.Module`` classes
made inside the factories (torch is imported lazily): ``SnapshotStep``, ``BatchedTGCN``,
``TemporalGNN``, ``MAEStep``, ``MSELoss``.
"""

PACKAGE = "torch_geometric_temporal"
DISTRIBUTION = "torch-geometric-temporal"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
stub_modules = None  # adapter.stub_modules, set by ZooSuite

_N = 12  # nodes
_F = 4  # node features
_H = 8  # hidden
_T = 3  # snapshots in a training step
_B = 2  # batch


def before_build():
    import sys

    if "torch_sparse" in sys.modules and getattr(sys.modules["torch_sparse"], "__file__", None):
        return
    import torch_geometric  # noqa: F401  (its typing decides WITH_TORCH_SPARSE before the stand-in)

    stub_modules({"torch_sparse": ((), ("SparseTensor",))}, "torch_geometric_temporal")


def warm_up():
    before_build()
    import torch  # noqa: F401

    import torch_geometric_temporal  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

def _graph(n=_N):
    import torch

    src, dst = [], []
    for i in range(n):
        for k in (1, 2):
            j = (i + k) % n
            src += [i, j]
            dst += [j, i]
    return torch.tensor([src, dst], dtype=torch.long)


def _edge_weight(edge_index):
    import torch

    return torch.rand(edge_index.size(1))


def _module(cls_body):
    """A torch.nn.Module subclass built lazily (torch is imported inside the factories)."""
    import torch

    body = {k: v for k, v in cls_body.__dict__.items() if k not in ("__dict__", "__weakref__")}
    return type(cls_body.__name__.lstrip("_").replace("Body", ""), (torch.nn.Module,), body)


class _MSELossBody:
    def __init__(self, net, target):
        super(self.__class__, self).__init__()
        self.net = net
        object.__setattr__(self, "__wrapped__", net)
        self.register_buffer("target", target)

    def forward(self, *args, **kwargs):
        out = self.net(*args, **kwargs)
        return ((out - self.target) ** 2).mean()


def _mse_module(net, args, kwargs):
    import torch

    with torch.no_grad():
        out = net(*args, **kwargs)
    cls = _module(_MSELossBody)
    return cls(net, torch.randn_like(out))


# --- recurrent: the examples' RecurrentGCN and training loop --------------------------------------

class _SnapshotStepBody:
    """``RecurrentGCN`` of the examples + the epoch's cost over the snapshots."""

    def __init__(self, recurrent, hidden, kind):
        super(self.__class__, self).__init__()
        import torch

        self.recurrent = recurrent
        self.linear = torch.nn.Linear(hidden, 1)
        self.kind = kind

    def forward(self, xs, edge_index, edge_attr, ys):
        import torch
        import torch.nn.functional as F

        cost = 0
        h, c = None, None
        for time in range(xs.shape[0]):
            x, y = xs[time], ys[time]
            if self.kind == "plain":
                h_out = self.recurrent(x, edge_index, edge_attr)
            elif self.kind == "a3tgcn":
                h_out = self.recurrent(x.view(x.shape[0], x.shape[1], 1), edge_index, edge_attr)
            elif self.kind == "hc":
                h, c = self.recurrent(x, edge_index, edge_attr, h, c)
                h_out = h
            elif self.kind == "dygr":
                h_out, h, c = self.recurrent(x, edge_index, edge_attr, h, c)
            elif self.kind == "agcrn":  # edge_attr: the node embedding E
                h = self.recurrent(x.view(1, x.shape[0], x.shape[1]), edge_attr, h)
                h_out = h
            y_hat = self.linear(F.relu(h_out))
            cost = cost + torch.mean((y_hat - y) ** 2)
        cost = cost / (time + 1)
        return cost


def _snapshots(n_feat, y_shape=None, n=_N):
    import torch

    xs = torch.randn(_T, n, n_feat)
    ys = torch.randn(_T, *(y_shape or (n, 1)))
    return xs, ys


def _recurrent(layer, eval_args, hidden, kind, mode, n_feat=_F, edge_attr=None):
    if mode == "eval":
        return layer, eval_args, {}
    edge_index = _graph()
    if edge_attr is None:
        edge_attr = _edge_weight(edge_index)
    xs, ys = _snapshots(n_feat, (1, _N, 1) if kind == "agcrn" else None)
    net = _module(_SnapshotStepBody)(layer, hidden, kind)
    return net, (xs, edge_index, edge_attr, ys), {}


def _gconv_gru(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import GConvGRU

    ei = _graph()
    layer = GConvGRU(_F, _H, K=2)
    args = (torch.randn(_N, _F), ei, _edge_weight(ei), torch.randn(_N, _H))
    return _recurrent(layer, args, _H, "plain", mode)


def _gconv_gru_lambda_max(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import GConvGRU

    ei = _graph()
    layer = GConvGRU(_F, _H, K=3)
    if mode == "train":
        return _recurrent(layer, None, _H, "plain", mode)
    return layer, (torch.randn(_N, _F), ei, _edge_weight(ei)), {"lambda_max": torch.tensor(2.0)}


def _gconv_lstm(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import GConvLSTM

    ei = _graph()
    layer = GConvLSTM(_F, _H, K=2)
    args = (torch.randn(_N, _F), ei, _edge_weight(ei), torch.randn(_N, _H), torch.randn(_N, _H))
    return _recurrent(layer, args, _H, "hc", mode)


def _gc_lstm(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import GCLSTM

    ei = _graph()
    layer = GCLSTM(_F, _H, K=2)
    args = (torch.randn(_N, _F), ei, _edge_weight(ei), torch.randn(_N, _H), torch.randn(_N, _H))
    return _recurrent(layer, args, _H, "hc", mode)


def _dcrnn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import DCRNN

    ei = _graph()
    layer = DCRNN(_F, _H, K=2)
    args = (torch.randn(_N, _F), ei, _edge_weight(ei), torch.randn(_N, _H))
    return _recurrent(layer, args, _H, "plain", mode)


def _dcrnn_k1(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import DCRNN

    ei = _graph()
    layer = DCRNN(_F, _H, K=1)  # the examples' DCRNN(node_features, 32, 1)
    args = (torch.randn(_N, _F), ei)
    return _recurrent(layer, args, _H, "plain", mode)


def _tgcn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import TGCN

    ei = _graph()
    layer = TGCN(_F, _H)
    args = (torch.randn(_N, _F), ei, _edge_weight(ei), torch.randn(_N, _H))
    return _recurrent(layer, args, _H, "plain", mode)


def _a3tgcn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import A3TGCN

    ei = _graph()
    if mode == "train":  # a3tgcn_example: periods=1 (x.view(N, F, 1))
        return _recurrent(A3TGCN(_F, _H, 1), None, _H, "a3tgcn", mode)
    layer = A3TGCN(_F, _H, periods=4)
    args = (torch.randn(_N, _F, 4), ei, _edge_weight(ei), torch.randn(_N, _H))
    return layer, args, {}


def _mpnn_lstm(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import MPNNLSTM

    ei = _graph()
    layer = MPNNLSTM(_F, _H, _N, 1, 0.5)
    if mode == "train":
        return _recurrent(layer, None, 2 * _H + _F, "plain", mode)
    return layer, (torch.randn(_N, _F), ei, _edge_weight(ei)), {}


def _evolve_gcn_h(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import EvolveGCNH

    ei = _graph()
    layer = EvolveGCNH(_N, _F)
    if mode == "train":
        return _recurrent(layer, None, _F, "plain", mode)
    return layer, (torch.randn(_N, _F), ei, _edge_weight(ei)), {}


def _evolve_gcn_o(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import EvolveGCNO

    ei = _graph()
    layer = EvolveGCNO(_F)
    if mode == "train":
        return _recurrent(layer, None, _F, "plain", mode)
    return layer, (torch.randn(_N, _F), ei, _edge_weight(ei)), {}


def _lrgcn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import LRGCN

    ei = _graph()
    rel = torch.randint(0, 3, (ei.size(1),))
    layer = LRGCN(_F, _H, num_relations=3, num_bases=2)
    if mode == "train":
        return _recurrent(layer, None, _H, "hc", mode, edge_attr=rel)
    return layer, (torch.randn(_N, _F), ei, rel, torch.randn(_N, _H), torch.randn(_N, _H)), {}


def _dygrencoder(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import DyGrEncoder

    ei = _graph()
    layer = DyGrEncoder(conv_out_channels=_F, conv_num_layers=2, conv_aggr="add",
                        lstm_out_channels=_H, lstm_num_layers=1)
    if mode == "train":
        return _recurrent(layer, None, _H, "dygr", mode)
    return layer, (torch.randn(_N, _F), ei, _edge_weight(ei)), {}


def _agcrn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import AGCRN

    layer = AGCRN(number_of_nodes=_N, in_channels=_F, out_channels=_H, K=2, embedding_dimensions=4)
    e = torch.empty(_N, 4)
    torch.nn.init.xavier_uniform_(e)
    if mode == "train":
        return _recurrent(layer, None, _H, "agcrn", mode, edge_attr=e)
    return layer, (torch.randn(1, _N, _F), e, torch.randn(1, _N, _H)), {}


def _agcrn_k3(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import AGCRN

    layer = AGCRN(number_of_nodes=_N, in_channels=_F, out_channels=_H, K=3, embedding_dimensions=4)
    e = torch.nn.Parameter(torch.randn(_N, 4))
    if mode == "train":
        return mean_loss_module()(layer), (torch.randn(1, _N, _F), e), {}
    return layer, (torch.randn(1, _N, _F), e), {}


class _BatchedTGCNBody:
    """tgcn2_example's ``BatchedTGCN`` and its MSE step."""

    def __init__(self, tgnn, hidden):
        super(self.__class__, self).__init__()
        import torch

        self.tgnn = tgnn
        self.linear = torch.nn.Linear(hidden, 1)

    def forward(self, x, edge_index, edge_weight, y):
        import torch
        import torch.nn.functional as F

        B, N, Fin, T = x.shape
        h = None
        output_sequence = []
        for t in range(T):
            h = self.tgnn(x[..., t], edge_index, edge_weight, h)
            h_t = F.relu(h)
            out_t = self.linear(h_t).unsqueeze(1)
            output_sequence.append(out_t)
        y_hat = torch.cat(output_sequence, dim=1).squeeze()
        return F.mse_loss(y_hat, y.permute(0, 2, 1))


def _tgcn2(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import TGCN2

    ei = _graph()
    ew = _edge_weight(ei)
    layer = TGCN2(_F, _H, batch_size=1)  # the example's TGCN2(in, hidden, 1): broadcast over B
    if mode == "train":
        net = _module(_BatchedTGCNBody)(layer, _H)
        return net, (torch.randn(_B, _N, _F, 4), ei, ew, torch.randn(_B, _N, 4)), {}
    return layer, (torch.randn(_B, _N, _F), ei, ew, torch.randn(_B, _N, _H)), {}


class _TemporalGNNBody:
    """a3tgcn2_example's ``TemporalGNN`` and its MSE step."""

    def __init__(self, tgnn, hidden, periods):
        super(self.__class__, self).__init__()
        import torch

        self.tgnn = tgnn
        self.linear = torch.nn.Linear(hidden, periods)

    def forward(self, x, edge_index, labels):
        import torch.nn.functional as F

        h = self.tgnn(x, edge_index)
        h = F.relu(h)
        y_hat = self.linear(h)
        return F.mse_loss(y_hat, labels)


def _a3tgcn2(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import A3TGCN2

    ei = _graph()
    periods = 4
    layer = A3TGCN2(_F, _H, periods=periods, batch_size=_B)
    x = torch.randn(_B, _N, _F, periods)
    if mode == "train":
        net = _module(_TemporalGNNBody)(layer, _H, periods)
        return net, (x, ei, torch.randn(_B, _N, periods)), {}
    return layer, (x, ei, _edge_weight(ei)), {}


class _MAEStepBody:
    """The index-batching DCRNN example: ``outputs = model(X, ei, ew)``, masked MAE."""

    def __init__(self, net):
        super(self.__class__, self).__init__()
        self.net = net

    def forward(self, x, edge_index, edge_weight, y):
        import torch

        out = self.net(x, edge_index, edge_weight)
        mask = (y != 0).float()
        mask = mask / mask.mean()
        loss = torch.abs(out - y) * mask
        loss[loss != loss] = 0
        return loss.mean()


def _batched_dcrnn(mode):
    import torch
    from torch_geometric_temporal.nn.recurrent import BatchedDCRNN

    ei = _graph()
    ew = _edge_weight(ei)
    layer = BatchedDCRNN(_F, _F, K=2)
    x = torch.randn(_B, 4, _N, _F)
    if mode == "train":
        return _module(_MAEStepBody)(layer), (x, ei, ew, torch.randn(_B, 4, _N, _F)), {}
    return layer, (x, ei, ew), {}


def _hetero_gclstm(mode):
    import torch
    import torch_geometric.transforms as T
    from torch_geometric.data import HeteroData
    from torch_geometric_temporal.nn.hetero import HeteroGCLSTM

    n = 10
    feats = {"author": 6, "paper": 5}
    data = HeteroData()
    data["author"].x = torch.rand(n, feats["author"])
    data["paper"].x = torch.rand(n, feats["paper"])
    src = torch.arange(n)
    data["author", "writes", "paper"].edge_index = torch.stack([src, (src * 3 + 1) % n])
    data = T.ToUndirected()(data)
    layer = HeteroGCLSTM(in_channels_dict=feats, out_channels=_H, metadata=data.metadata())
    args = (data.x_dict, data.edge_index_dict)
    if mode == "train":
        return mean_loss_module()(layer), args, {}
    return layer, args, {}


# --- attention ------------------------------------------------------------------------------------

def _attention(net, args, kwargs, mode):
    if mode == "train":
        return _mse_module(net, args, kwargs), args, kwargs
    return net, args, kwargs


def _temporal_conv(mode):
    import torch
    from torch_geometric_temporal.nn.attention import TemporalConv

    net = TemporalConv(in_channels=_F, out_channels=_H, kernel_size=3)
    return _attention(net, (torch.randn(_B, 5, _N, _F),), {}, mode)


def _stconv(mode):
    import torch
    from torch_geometric_temporal.nn.attention import STConv

    ei = _graph()
    net = STConv(num_nodes=_N, in_channels=_F, hidden_channels=_H, out_channels=_H, kernel_size=3, K=2)
    return _attention(net, (torch.randn(_B, 5, _N, _F), ei, _edge_weight(ei)), {}, mode)


def _cheb_conv_attention(mode):
    import torch
    from torch_geometric_temporal.nn.attention import ChebConvAttention

    ei = _graph()
    net = ChebConvAttention(_F, _H, K=3, normalization="sym")
    att = torch.softmax(torch.rand(_B, _N, _N), dim=1)
    return _attention(net, (torch.randn(_B, _N, _F), ei, att, _edge_weight(ei)), {}, mode)


def _cheb_conv_attention_batch(mode):
    import torch
    from torch_geometric_temporal.nn.attention import ChebConvAttention

    net = ChebConvAttention(_F, _H, K=3, normalization="sym")
    ei = torch.tensor([[0, 1, 2, 3], [1, 0, 3, 2]])
    att = torch.softmax(torch.rand(3, 4, 4), dim=1)
    args = (torch.randn(3, 4, _F), ei, att, torch.rand(4), torch.tensor([0, 0, 1, 1]), torch.tensor([2.0, 3.0]))
    return _attention(net, args, {}, mode)


def _astgcn_args(seq):
    import torch

    T = 6
    x = torch.randn(_B, _N, 2, T)
    ei = _graph()
    return x, ([ei] * T if seq else ei)


def _astgcn(normalization, bias, seq):
    def make(mode):
        from torch_geometric_temporal.nn.attention import ASTGCN

        net = ASTGCN(2, 2, 3, 8, 8, 1, 4, 6, _N, normalization, bias)
        return _attention(net, _astgcn_args(seq), {}, mode)

    return make


def _mstgcn(seq):
    def make(mode):
        from torch_geometric_temporal.nn.attention import MSTGCN

        net = MSTGCN(2, 2, 3, 8, 8, 1, 4, 6)
        return _attention(net, _astgcn_args(seq), {}, mode)

    return make


def _gman(L, use_bias, mask):
    def make(mode):
        import torch
        from torch_geometric_temporal.nn.attention import GMAN

        K, d, num_his, num_pred = 4, 4, 4, 3  # K == d as the test (the mask assumes it)
        net = GMAN(L, K, d, num_his, bn_decay=0.1, steps_per_day=288, use_bias=use_bias, mask=mask)
        X = torch.rand(_B, num_his, _N)
        SE = torch.rand(_N, K * d)
        TE = 2 * torch.rand(_B, num_his + num_pred, 2) - 1
        return _attention(net, (X, SE, TE), {}, mode)

    return make


def _spatio_temporal_attention(mode):
    import torch
    from torch_geometric_temporal.nn.attention import SpatioTemporalAttention

    K, d = 4, 4
    net = SpatioTemporalAttention(K, d, bn_decay=0.1, mask=True)
    X = torch.randn(_B, 4, _N, K * d)
    STE = torch.randn(_B, 4, _N, K * d)
    return _attention(net, (X, STE), {}, mode)


def _spatio_temporal_embedding(mode):
    import torch
    from torch_geometric_temporal.nn.attention import SpatioTemporalEmbedding

    D = 8
    net = SpatioTemporalEmbedding(D, bn_decay=0.1, steps_per_day=288, use_bias=True)
    SE = torch.rand(_N, D)
    TE = 2 * torch.rand(_B, 7, 2) - 1
    return _attention(net, (SE, TE, 288), {}, mode)  # T: steps per day, as GMAN passes it


def _mtgnn(gcn_true=True, build_adj=True, dilation_exponential=1, layer_norm_affline=True, xd=None,
           seq_in_len=12, use_idx=False, use_fe=False):
    def make(mode):
        import torch
        from torch_geometric_temporal.nn.attention import MTGNN

        torch.manual_seed(0)
        net = MTGNN(gcn_true=gcn_true, build_adj=build_adj, gcn_depth=2, num_nodes=_N,
                    kernel_set=[2, 3, 6, 7], kernel_size=7, dropout=0.3, subgraph_size=4, node_dim=4,
                    dilation_exponential=dilation_exponential, conv_channels=8, residual_channels=8,
                    skip_channels=16, end_channels=16, seq_length=seq_in_len, in_dim=2, out_dim=4,
                    layers=3, propalpha=0.05, tanhalpha=3, layer_norm_affline=layer_norm_affline, xd=xd)
        ei = _graph()
        A = torch.sparse_coo_tensor(ei, torch.ones(ei.size(1)), (_N, _N)).to_dense()
        x = (2 * torch.rand(_B, seq_in_len, _N, 2) - 1).transpose(1, 3)
        kwargs = {}
        if use_idx:
            idx = torch.randperm(_N)
            x = x[:, :, idx, :]
            kwargs["idx"] = idx
        if use_fe:
            kwargs["FE"] = torch.rand(_N, xd)
        return _attention(net, (x, A), kwargs, mode)

    return make


def _mixprop(mode):
    import torch
    from torch_geometric_temporal.nn.attention import MixProp

    net = MixProp(4, 8, gdep=2, dropout=0.3, alpha=0.05)
    A = torch.rand(_N, _N)
    return _attention(net, (torch.randn(_B, 4, _N, 6), A), {}, mode)


def _graph_constructor(mode):
    import torch
    from torch_geometric_temporal.nn.attention import GraphConstructor

    net = GraphConstructor(_N, k=4, dim=4, alpha=3, xd=5)
    args = (torch.arange(_N),)
    kwargs = {"FE": torch.rand(_N, 5)}
    if mode == "train":
        return mean_loss_module()(net), args, kwargs
    return net, args, kwargs


def _aagcn(adaptive, attention=True):
    def make(mode):
        import torch
        from torch_geometric_temporal.nn.attention import AAGCN

        ei = _graph()
        net = AAGCN(in_channels=_F, out_channels=_H, edge_index=ei, num_nodes=_N, stride=2,
                    adaptive=adaptive, attention=attention)
        x = torch.randn(_B, _F, 5, _N)
        return _attention(net, (x,), {}, mode)

    return make


def _dnntsp(mode):
    import torch
    from torch_geometric_temporal.nn.attention import DNNTSP

    items = 12
    net = DNNTSP(items_total=items, item_embedding_dim=8, n_heads=2)
    n = 2 * items
    ei = _graph(n)
    args = (torch.rand(n, 8), ei, _edge_weight(ei))
    return _attention(net, args, {}, mode)


MODELS = {
    # recurrent (examples/recurrent)
    "GConvGRU": _gconv_gru,
    "GConvGRU_lambda_max": _gconv_gru_lambda_max,
    "GConvLSTM": _gconv_lstm,
    "GCLSTM": _gc_lstm,
    "DCRNN": _dcrnn,
    "DCRNN_K1_no_weight": _dcrnn_k1,
    "TGCN": _tgcn,
    "A3TGCN": _a3tgcn,
    "MPNNLSTM": _mpnn_lstm,
    "EvolveGCNH": _evolve_gcn_h,
    "EvolveGCNO": _evolve_gcn_o,
    "LRGCN": _lrgcn,
    "DyGrEncoder": _dygrencoder,
    "AGCRN": _agcrn,
    "AGCRN_K3": _agcrn_k3,
    "TGCN2": _tgcn2,
    "A3TGCN2": _a3tgcn2,
    "BatchedDCRNN": _batched_dcrnn,
    "HeteroGCLSTM": _hetero_gclstm,
    # attention (test/attention_test.py)
    "TemporalConv": _temporal_conv,
    "STConv": _stconv,
    "ChebConvAttention": _cheb_conv_attention,
    "ChebConvAttention_batch_lambda_max": _cheb_conv_attention_batch,
    "ASTGCN": _astgcn(None, True, False),
    "ASTGCN_edge_seq": _astgcn(None, True, True),
    "ASTGCN_sym_nobias": _astgcn("sym", False, False),
    "ASTGCN_rw_edge_seq": _astgcn("rw", True, True),
    "MSTGCN": _mstgcn(False),
    "MSTGCN_edge_seq": _mstgcn(True),
    "GMAN": _gman(1, True, False),
    "GMAN_L2_mask": _gman(2, False, True),
    "SpatioTemporalAttention": _spatio_temporal_attention,
    "SpatioTemporalEmbedding": _spatio_temporal_embedding,
    "MTGNN_idx": _mtgnn(use_idx=True),
    "MTGNN_FE": _mtgnn(xd=5, use_fe=True),
    "MTGNN_static_adj": _mtgnn(build_adj=False, xd=5, use_fe=True),
    "MTGNN_no_gcn_dil2": _mtgnn(gcn_true=False, dilation_exponential=2, layer_norm_affline=False),
    "MTGNN_seq24_idx": _mtgnn(seq_in_len=24, layer_norm_affline=False, use_idx=True),
    "MixProp": _mixprop,
    "GraphConstructor": _graph_constructor,
    "AAGCN_adaptive": _aagcn(True),
    "AAGCN_static": _aagcn(False),
    "DNNTSP": _dnntsp,
}
