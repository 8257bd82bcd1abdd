"""PyTorch Geometric Signed Directed 1.2.0 (``torch_geometric_signed_directed``): its signed /
directed / signed-directed graph networks and convolutions (``nn.directed``, ``nn.signed``,
``nn.general``), tiny configs cut down from the library's own tests (``test/directed_test.py``,
``test/signed_test.py``, ``test/general_test.py``), random weights, no download (no real-data
loader is used).

Data: small random graphs made by the library's own generators, as its tests' ``create_mock_data``
make them (numpy seeded): a directed SBM (``meta_graph_generation`` cyclic, ``DSBM`` with 36 nodes,
3 clusters, p=0.3, ``extract_network``), a signed SBM (``SSBM``: 36 nodes, 3 clusters, p=0.3,
eta=0.1; positive / negative parts), a signed directed SBM (``SDSBM``: 36 nodes, 4 clusters,
p=0.3, signs flipped on odd cluster pairs, ``extract_network``); node features uniform in
[-1, 1] (3 features; ``in_out_degree`` for one MSGNN model); the DiGCN adjacencies from
``get_appr_directed_adj`` / ``get_second_directed_adj`` / ``cal_fast_appr``, DGCN's
``directed_features_in_out``, link splits from ``link_class_split`` (``existence``,
``three_class_digraph``, ``four_class_signed_digraph``, ``five_class_signed_digraph``), signed
edge lists ``[i, j, sign]`` from ``SignedData`` as the tests build them. Hidden sizes 2-16.

Eval: the model's forward as the tests call it (the signed embedding models: ``model()``).
Train: the examples' training steps up to the loss:
- node classification / link prediction (MagNet, DGCN, DiGCN, DiGCN inception, MSGNN link,
  SSSNET link): ``nn.NLLLoss`` on the log-probabilities (``out[mask]``, ``y[mask]`` for nodes,
  the split's ``label`` for the query edges), as ``examples/*_node.py`` / ``*_link.py``;
- DIGRAC: ``Prob_Imbalance_Loss(F)(prob[mask], A, K, 'vol_sum', 'sort')`` as
  ``examples/digrac_node.py`` (and ``'vol_min', 'std'`` / ``'plain', 'naive'`` as the test);
- SSSNET node clustering: ``examples/sssnet.py``: ``Prob_Balanced_Normalized_Loss`` +
  50 * (NLL on the seed nodes + 0.1 * ``triplet_loss_node_classification``); the directed one
  with ``Prob_Balanced_Ratio_Loss`` instead;
- MSGNN node classification: ``examples/msgnn_node.py``: NLL + triplet + pbnc +
  ``Prob_Imbalance_Loss`` on the absolute adjacency;
- DiGCL: ``examples/digcl_node.py``: ``drop_feature`` twice, two encoder passes over the two
  PageRank views, ``model.loss(z1, z2, batch_size=0)`` (and ``batch_size=16``);
- SGCN, SNEA, SiGAT, SDGNN: ``model.loss()`` (``examples/run_link_sign_prediction.py``);
- the bare convolutions (MagNetConv, MSConv, DGCNConv, DiGCNConv, SGCNConv, SNEAConv, DIMPA,
  SIMPA): ``mean_loss_module``.

    pip install --no-deps torch-geometric-signed-directed==1.2.0

(already installed and used: torch 2.13.0 CPU, torch_geometric 2.8.1, numpy, scipy,
scikit-learn (``TruncatedSVD`` in ``create_spectral_features``; ``DiGCL_utils`` imports it at
its top), networkx (``link_class_split``'s spanning tree).)

Stubbed: nothing (the package imports no compiled extension: torch_sparse / torch_scatter are
not installed and not needed).

Left out: the real-data loaders (downloads), ``pred_digcl_node`` / ``pred_digcl_link`` and the
``link_*_logistic_function`` evaluators (scikit-learn on numpy after training, no network),
the ``SparseTensor`` forms of the tests' conv calls (torch_sparse is not installed).
Models (47, all in ``MODELS``): MagNet node (3) / link (3) / ``MagNetConv``; DGCN node (2) /
link (2) / ``DGCNConv`` (2); DiGCN node / link, with inception blocks node / link, ``DiGCNConv``;
DiGCL (2); DIGRAC (3 loss settings), ``DIMPA``; SSSNET node (2) / link (2), ``SIMPA`` (2); SGCN (2),
``SGCNConv`` (2), SNEA (2), ``SNEAConv`` (2), SiGAT, SDGNN; MSGNN node (3) / link (2), ``MSConv`` (2).
DGCN link prediction has no split in its test (``edge_index[:, :10].T`` as query edges): its
train labels are the source node's cluster (3 classes), made up for the loss.
Notes: SGCN / SNEA / SiGAT / SDGNN take the graph at construction (``edge_index_s``) and their
forward takes no argument; their train wrapper's forward is ``model.loss()``. DIGRAC's and
MSGNN's ``Prob_Imbalance_Loss`` gets the adjacency as a sparse COO tensor
(``scipy_sparse_to_torch_sparse``) as the examples pass it. The SSSNET / MSGNN pbnc losses
hold their sparse matrices as plain attributes (the library's own classes).
"""

import functools

PACKAGE = "torch_geometric_signed_directed"
DISTRIBUTION = "torch-geometric-signed-directed"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_N = 36  # nodes
_FEAT = 3
_EMB = 4  # the tests' given initial embeddings of SGCN / SNEA (num_features=4)


def warm_up():
    import torch  # noqa: F401
    import torch_geometric  # noqa: F401
    import torch_geometric_signed_directed.nn  # noqa: F401
    import torch_geometric_signed_directed.utils  # noqa: F401
    import torch_geometric_signed_directed.data  # noqa: F401


# --- data --------------------------------------------------------------------------------------

def _seed():
    import random

    import numpy as np

    np.random.seed(0)
    random.seed(0)


@functools.cache
def _directed():
    """test/directed_test.py's create_mock_data: DSBM over a cyclic meta-graph."""
    import numpy as np
    import scipy.sparse as sp
    import torch
    from torch_geometric_signed_directed.data import DSBM
    from torch_geometric_signed_directed.utils import extract_network, meta_graph_generation

    _seed()
    K = 3
    F = meta_graph_generation("cyclic", K, 0.1, False, 0)
    F_data = meta_graph_generation("cyclic", K, 0.1, False, 0.5)
    A, labels = DSBM(N=_N, K=K, p=0.3, F=F_data, size_ratio=1.5)
    A, labels = extract_network(A=A, labels=labels)
    A = sp.csr_matrix(A)
    n = A.shape[0]
    X = torch.FloatTensor(np.random.uniform(-1, 1, (n, _FEAT)))
    edge_index = torch.LongTensor(np.array(A.nonzero()))
    edge_weight = torch.FloatTensor(A.data)
    y = torch.LongTensor(labels)
    return dict(A=A, F=F, X=X, edge_index=edge_index, edge_weight=edge_weight, y=y, K=K, n=n)


@functools.cache
def _directed_link(task):
    import torch
    from torch_geometric_signed_directed.data import DirectedData
    from torch_geometric_signed_directed.utils import link_class_split

    d = _directed()
    _seed()
    torch.manual_seed(0)
    data = DirectedData(x=d["X"], edge_index=d["edge_index"], edge_weight=d["edge_weight"])
    link = link_class_split(data, prob_val=0.15, prob_test=0.05, task=task, device="cpu")[0]
    return dict(graph=link["graph"], weights=link["weights"], edges=link["train"]["edges"],
                label=link["train"]["label"])


@functools.cache
def _signed():
    """test/signed_test.py's create_mock_data: SSBM, positive and negative parts."""
    import numpy as np
    import scipy.sparse as sp
    import torch
    from torch_geometric_signed_directed.data import SSBM

    _seed()
    K = 3
    (A_p, A_n), labels = SSBM(_N, K, 0.3, 0.1)
    A_p, A_n = sp.csr_matrix(A_p), sp.csr_matrix(A_n)
    X = torch.FloatTensor(np.random.uniform(-1, 1, (_N, _FEAT)))
    return dict(A_p=A_p, A_n=A_n, X=X, K=K, y=torch.LongTensor(labels),
                edge_index_p=torch.LongTensor(np.array(A_p.nonzero())),
                edge_weight_p=torch.FloatTensor(A_p.data),
                edge_index_n=torch.LongTensor(np.array(A_n.nonzero())),
                edge_weight_n=torch.FloatTensor(A_n.data))


@functools.cache
def _signed_edges():
    """The tests' signed edge list ``[i, j, sign]`` (SignedData over the SSBM graph)."""
    import torch
    from torch_geometric_signed_directed.data import SignedData

    s = _signed()
    data = SignedData(A=(s["A_p"], s["A_n"]))
    edge_i_list = data.edge_index.t().cpu().numpy().tolist()
    edge_s_list = data.edge_weight.long().cpu().numpy().tolist()
    return torch.LongTensor([[i, j, w] for (i, j), w in zip(edge_i_list, edge_s_list)]), data.num_nodes


@functools.cache
def _signed_directed():
    """test/general_test.py's create_mock_data: SDSBM with signs flipped on odd cluster pairs."""
    import numpy as np
    import scipy.sparse as sp
    import torch
    from torch_geometric_signed_directed.data import SDSBM
    from torch_geometric_signed_directed.utils import extract_network, meta_graph_generation

    _seed()
    K = 4
    F_data = meta_graph_generation("cyclic", K, 0.1, False, 0.5)
    for i in range(K):
        for j in range(K):
            if (i + j) % 2:
                F_data[i, j] = -F_data[i, j]
    A, labels = SDSBM(N=_N, K=K, p=0.3, F=F_data, eta=0.1, size_ratio=1.5)
    A, labels = extract_network(A=A, labels=labels)
    A = sp.csr_matrix(A)
    n = A.shape[0]
    X = torch.FloatTensor(np.random.uniform(-1, 1, (n, _FEAT)))
    return dict(A=A, F=F_data, X=X, edge_index=torch.LongTensor(np.array(A.nonzero())),
                edge_weight=torch.FloatTensor(A.data), y=torch.LongTensor(labels), K=K, n=n)


@functools.cache
def _signed_directed_link(task):
    import torch
    from torch_geometric_signed_directed.data import SignedData
    from torch_geometric_signed_directed.utils import link_class_split

    d = _signed_directed()
    _seed()
    torch.manual_seed(0)
    data = SignedData(x=d["X"], edge_index=d["edge_index"], edge_weight=d["edge_weight"])
    link = link_class_split(data, splits=2, task=task, prob_val=0.15, prob_test=0.1, seed=10,
                            device="cpu")[0]
    return dict(graph=link["graph"], weights=link["weights"], edges=link["train"]["edges"],
                label=link["train"]["label"], is_directed=data.is_directed)


def _mask(n, frac=2):
    import torch

    return torch.arange(n) % frac == 0


def _seed_mask(y):
    """Every other node of each class (the examples' ``seed_mask``: a few labelled nodes per class)."""
    import torch

    mask = torch.zeros(len(y), dtype=torch.bool)
    for c in y.unique():
        mask[(y == c).nonzero().flatten()[::2]] = True
    return mask


# --- train wrappers (made lazily: torch is imported inside the factories) ----------------------

@functools.cache
def _wrappers():
    import torch
    import torch.nn.functional as F
    from torch_geometric_signed_directed.utils import drop_feature, triplet_loss_node_classification

    class NLLStep(torch.nn.Module):
        """examples/*: ``loss = criterion(out[mask], y[mask])`` with ``criterion = nn.NLLLoss()``."""

        def __init__(self, net, y, mask=None, index=None):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.criterion = torch.nn.NLLLoss()
            self.register_buffer("y", y)
            self.mask = mask
            self.index = index

        def forward(self, *args, **kwargs):
            out = self.net(*args, **kwargs)
            if self.index is not None:
                out = out[self.index]
            if self.mask is None:
                return self.criterion(out, self.y)
            return self.criterion(out[self.mask], self.y[self.mask])

    class DIGRACStep(torch.nn.Module):
        """examples/digrac_node.py: ``imbalance_loss(prob[mask], train_A, num_classes, ...)``."""

        def __init__(self, net, loss, K, normalization, threshold):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.imbalance_loss = loss
            self.K, self.normalization, self.threshold = K, normalization, threshold

        def forward(self, edge_index, edge_weight, features, A):
            _, _, _, prob = self.net(edge_index, edge_weight, features)
            return self.imbalance_loss(prob, A, self.K, self.normalization, self.threshold)

    class SSSNETStep(torch.nn.Module):
        """examples/sssnet.py: pbnc + 50 * (NLL on seeds + 0.1 * triplet)."""

        def __init__(self, net, loss_func, y, seed_mask, supervised_loss_ratio=50, triplet_loss_ratio=0.1):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.loss_func = loss_func
            self.loss_func_ce = torch.nn.NLLLoss()
            self.register_buffer("y", y)
            self.seed_mask = seed_mask
            self.supervised_loss_ratio = supervised_loss_ratio
            self.triplet_loss_ratio = triplet_loss_ratio

        def forward(self, edge_index_p, edge_weight_p, edge_index_n, edge_weight_n, features):
            Z, log_prob, _, prob = self.net(edge_index_p, edge_weight_p, edge_index_n, edge_weight_n, features)
            loss_pbnc = self.loss_func(prob)
            loss_triplet = triplet_loss_node_classification(
                y=self.y[self.seed_mask], Z=Z[self.seed_mask], n_sample=500, thre=0.1)
            loss_ce = self.loss_func_ce(log_prob[self.seed_mask], self.y[self.seed_mask])
            return self.supervised_loss_ratio * (loss_ce + self.triplet_loss_ratio * loss_triplet) + loss_pbnc

    class MSGNNNodeStep(torch.nn.Module):
        """examples/msgnn_node.py's train(): NLL + triplet + pbnc + imbalance."""

        def __init__(self, net, loss_func_pbnc, loss_func_imbalance, K, y, seed_mask):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.loss_func_pbnc = loss_func_pbnc
            self.loss_func_imbalance = loss_func_imbalance
            self.loss_func_ce = torch.nn.NLLLoss()
            self.K = K
            self.register_buffer("y", y)
            self.seed_mask = seed_mask

        def forward(self, A_abs, features, edge_index, edge_weight):
            Z, log_prob, _, prob = self.net(features, features, edge_index=edge_index, edge_weight=edge_weight)
            loss_pbnc = self.loss_func_pbnc(prob)
            loss_triplet = triplet_loss_node_classification(
                y=self.y[self.seed_mask], Z=Z[self.seed_mask], n_sample=500, thre=0.1)
            loss_imbalance = self.loss_func_imbalance(prob, A_abs, self.K, "vol_sum", "sort")
            loss_ce = self.loss_func_ce(log_prob[self.seed_mask], self.y[self.seed_mask])
            return 50 * (loss_ce + 0.1 * loss_triplet) + loss_pbnc + loss_imbalance

    class DiGCLStep(torch.nn.Module):
        """examples/digcl_node.py's train(): two feature-dropped views, ``model.loss``."""

        def __init__(self, net, rate_1=0.3, rate_2=0.4, batch_size=0):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.rate_1, self.rate_2, self.batch_size = rate_1, rate_2, batch_size

        def forward(self, x, edge_index_1, edge_weight_1, edge_index_2, edge_weight_2):
            x_1 = drop_feature(x, self.rate_1)
            x_2 = drop_feature(x, self.rate_2)
            z1 = self.net(x_1, edge_index_1, edge_weight_1)
            z2 = self.net(x_2, edge_index_2, edge_weight_2)
            return self.net.loss(z1, z2, batch_size=self.batch_size)

    class OwnLoss(torch.nn.Module):
        """examples/run_link_sign_prediction.py's train(): ``loss = model.loss()``."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self):
            return self.net.loss()

    return dict(NLLStep=NLLStep, DIGRACStep=DIGRACStep, SSSNETStep=SSSNETStep, MSGNNNodeStep=MSGNNNodeStep,
                DiGCLStep=DiGCLStep, OwnLoss=OwnLoss)


def _nll(mode, net, args, kwargs, y, mask=None, index=None):
    if mode == "eval":
        return net, args, kwargs
    return _wrappers()["NLLStep"](net, y, mask, index), args, kwargs


def _mean(mode, net, args, kwargs=None):
    kwargs = kwargs or {}
    if mode == "eval":
        return net, args, kwargs
    return mean_loss_module()(net), args, kwargs


# --- directed: MagNet ---------------------------------------------------------------------------

def _magnet_node(mode, **cfg):
    from torch_geometric_signed_directed.nn import MagNet_node_classification

    d = _directed()
    net = MagNet_node_classification(_FEAT, label_dim=d["K"], **cfg)
    return _nll(mode, net, (d["X"], d["X"], d["edge_index"], d["edge_weight"]), {}, d["y"], _mask(d["n"]))


def _magnet_link(mode, task, **cfg):
    from torch_geometric_signed_directed.nn import MagNet_link_prediction

    d, lk = _directed(), _directed_link(task)
    net = MagNet_link_prediction(_FEAT, **cfg)
    return _nll(mode, net, (d["X"], d["X"]),
                dict(edge_index=lk["graph"], query_edges=lk["edges"], edge_weight=lk["weights"]), lk["label"])


def _magnet_conv(mode):
    from torch_geometric_signed_directed.nn import MagNetConv

    d = _directed()
    net = MagNetConv(_FEAT, 4, K=2, q=0.25, trainable_q=False, normalization="sym")
    return _mean(mode, net, (d["X"], d["X"], d["edge_index"], d["edge_weight"]))


# --- directed: DGCN -----------------------------------------------------------------------------

@functools.cache
def _dgcn_inputs(weighted):
    from torch_geometric_signed_directed.utils import directed_features_in_out

    d = _directed()
    return directed_features_in_out(d["edge_index"], d["n"], d["edge_weight"] if weighted else None)


def _dgcn_node(mode, weighted, *cfg, **kw):
    from torch_geometric_signed_directed.nn import DGCN_node_classification

    d = _directed()
    edge_index, edge_in, in_w, edge_out, out_w = _dgcn_inputs(weighted)
    net = DGCN_node_classification(_FEAT, 4, d["K"], *cfg, **kw)
    return _nll(mode, net, (d["X"], edge_index), dict(edge_in=edge_in, in_w=in_w, edge_out=edge_out, out_w=out_w),
                d["y"], _mask(d["n"]))


def _dgcn_link(mode, *cfg):
    from torch_geometric_signed_directed.nn import DGCN_link_prediction

    d = _directed()
    edge_index, edge_in, in_w, edge_out, out_w = _dgcn_inputs(True)
    net = DGCN_link_prediction(_FEAT, 4, 3, *cfg)
    query = edge_index[:, :10].T
    y = d["y"][query[:, 0]]  # a fixed 3-class label per query edge
    return _nll(mode, net, (d["X"], edge_index, edge_in, edge_out, query, in_w, out_w), {}, y)


def _dgcn_conv(mode, cached, weighted):
    import torch
    from torch_geometric_signed_directed.nn import DGCNConv

    d = _directed()
    net = DGCNConv(cached=cached)
    x = torch.randn(d["n"], 16)
    args = (x, d["edge_index"], d["edge_weight"]) if weighted else (x, d["edge_index"])
    if mode == "eval":
        return net, args, {}
    x.requires_grad_(True)  # DGCNConv has no weights of its own
    return mean_loss_module()(net), args, {}


# --- directed: DiGCN ----------------------------------------------------------------------------

@functools.cache
def _digcn_adj(graph_key, weighted_second):
    from torch_geometric_signed_directed.utils import get_appr_directed_adj, get_second_directed_adj

    d = _directed()
    if graph_key == "full":
        edge_index, edge_weight = d["edge_index"], d["edge_weight"]
    else:
        lk = _directed_link(graph_key)
        edge_index, edge_weight = lk["graph"], lk["weights"]
    ei1, ew1 = get_appr_directed_adj(0.1, edge_index, d["n"], d["X"].dtype, None)
    ei2, ew2 = get_second_directed_adj(edge_index, d["n"], d["X"].dtype, edge_weight if weighted_second else None)
    return ei1, ew1, ei2, ew2


def _digcn_node(mode):
    from torch_geometric_signed_directed.nn import DiGCN_node_classification

    d = _directed()
    ei1, ew1, _, _ = _digcn_adj("full", True)
    net = DiGCN_node_classification(_FEAT, 4, d["K"], 0.5)
    return _nll(mode, net, (d["X"], ei1, ew1), {}, d["y"], _mask(d["n"]))


def _digcn_inception_node(mode):
    from torch_geometric_signed_directed.nn import DiGCN_Inception_Block_node_classification

    d = _directed()
    ei1, ew1, ei2, ew2 = _digcn_adj("full", True)
    net = DiGCN_Inception_Block_node_classification(_FEAT, 4, d["K"], 0.5)
    return _nll(mode, net, (d["X"], (ei1, ei2), (ew1, ew2)), {}, d["y"], _mask(d["n"]))


def _digcn_link(mode):
    from torch_geometric_signed_directed.nn import DiGCN_link_prediction

    d, lk = _directed(), _directed_link("existence")
    ei1, ew1, _, _ = _digcn_adj("existence", False)
    net = DiGCN_link_prediction(_FEAT, 4, 2, 0.5)
    return _nll(mode, net, (d["X"], ei1), dict(query_edges=lk["edges"], edge_weight=ew1), lk["label"])


def _digcn_inception_link(mode):
    from torch_geometric_signed_directed.nn import DiGCN_Inception_Block_link_prediction

    d, lk = _directed(), _directed_link("existence")
    ei1, ew1, ei2, ew2 = _digcn_adj("existence", False)
    net = DiGCN_Inception_Block_link_prediction(_FEAT, 4, 2, 0.5)
    return _nll(mode, net, (d["X"], (ei1, ei2)), dict(query_edges=lk["edges"], edge_weight_tuple=(ew1, ew2)),
                lk["label"])


def _digcn_conv(mode):
    from torch_geometric_signed_directed.nn import DiGCNConv

    d = _directed()
    ei1, ew1, _, _ = _digcn_adj("full", True)
    net = DiGCNConv(_FEAT, 8)
    return _mean(mode, net, (d["X"], ei1, ew1))


# --- directed: DiGCL ----------------------------------------------------------------------------

@functools.cache
def _digcl_views():
    import numpy as np
    from torch_geometric_signed_directed.utils import cal_fast_appr

    d = _directed()
    a, b, epochs = 0.9, 0.1, 10
    alpha_2 = a - (a - b) * (1 / 3 * np.log(epochs / (epochs + 1) + np.exp(-3)))
    ei0, ew0 = cal_fast_appr(0.1, d["edge_index"], d["n"], d["X"].dtype, edge_weight=None)
    ei1, ew1 = cal_fast_appr(0.1, d["edge_index"], d["n"], d["X"].dtype, edge_weight=d["edge_weight"])
    ei2, ew2 = cal_fast_appr(alpha_2, d["edge_index"], d["n"], d["X"].dtype, edge_weight=d["edge_weight"])
    return ei0, ew0, ei1, ew1, ei2, ew2


def _digcl(mode, activation, num_layers, batch_size):
    from torch_geometric_signed_directed.nn import DiGCL

    d = _directed()
    ei0, ew0, ei1, ew1, ei2, ew2 = _digcl_views()
    net = DiGCL(in_channels=_FEAT, activation=activation, num_hidden=8, num_proj_hidden=4, tau=0.5,
                num_layers=num_layers)
    if mode == "eval":
        return net, (d["X"], ei0, ew0), {}
    return _wrappers()["DiGCLStep"](net, batch_size=batch_size), (d["X"], ei1, ew1, ei2, ew2), {}


# --- directed: DIGRAC ---------------------------------------------------------------------------

def _digrac(mode, normalization="vol_sum", threshold="sort", F_given=True):
    from torch_geometric_signed_directed.nn import DIGRAC_node_clustering
    from torch_geometric_signed_directed.utils import Prob_Imbalance_Loss, scipy_sparse_to_torch_sparse

    d = _directed()
    net = DIGRAC_node_clustering(num_features=_FEAT, hidden=8, nclass=d["K"], dropout=0.5, hop=2, fill_value=0.5)
    if mode == "eval":
        return net, (d["edge_index"], d["edge_weight"], d["X"]), {}
    loss = Prob_Imbalance_Loss(d["F"] if F_given else 3)
    A = scipy_sparse_to_torch_sparse(d["A"])
    return (_wrappers()["DIGRACStep"](net, loss, d["K"], normalization, threshold),
            (d["edge_index"], d["edge_weight"], d["X"], A), {})


def _dimpa(mode):
    import torch
    from torch_geometric_signed_directed.nn.directed import DIMPA

    d = _directed()
    net = DIMPA(hop=2, fill_value=0.5)
    x_s, x_t = torch.randn(d["n"], 8), torch.randn(d["n"], 8)
    if mode == "train":
        x_s.requires_grad_(True)
        x_t.requires_grad_(True)
    return _mean(mode, net, (x_s, x_t, d["edge_index"], d["edge_weight"]))


# --- signed: SSSNET -----------------------------------------------------------------------------

def _sssnet_node(mode, directed, weighted, ratio_loss):
    from torch_geometric_signed_directed.nn import SSSNET_node_clustering
    from torch_geometric_signed_directed.utils import Prob_Balanced_Normalized_Loss, Prob_Balanced_Ratio_Loss

    s = _signed()
    net = SSSNET_node_clustering(nfeat=_FEAT, hidden=8, nclass=s["K"], dropout=0.5, hop=2, fill_value=0.5,
                                 directed=directed)
    args = (s["edge_index_p"], s["edge_weight_p"] if weighted else None,
            s["edge_index_n"], s["edge_weight_n"] if weighted else None, s["X"])
    if mode == "eval":
        return net, args, {}
    cls = Prob_Balanced_Ratio_Loss if ratio_loss else Prob_Balanced_Normalized_Loss
    loss = cls(A_p=s["A_p"], A_n=s["A_n"])
    return _wrappers()["SSSNETStep"](net, loss, s["y"], _seed_mask(s["y"])), args, {}


def _sssnet_link(mode, directed):
    from torch_geometric_signed_directed.data import SignedData
    from torch_geometric_signed_directed.nn import SSSNET_link_prediction

    d, lk = _signed_directed(), _signed_directed_link("four_class_signed_digraph")
    net = SSSNET_link_prediction(nfeat=_FEAT, hidden=4, nclass=4, dropout=0.5, hop=2, fill_value=0.5,
                                 directed=lk["is_directed"] if directed else False)
    data1 = SignedData(edge_index=d["edge_index"], edge_weight=d["edge_weight"])
    data1.separate_positive_negative()
    args = (data1.edge_index_p, data1.edge_weight_p, data1.edge_index_n, data1.edge_weight_n, d["X"], lk["edges"])
    return _nll(mode, net, args, {}, lk["label"])


def _simpa(mode, directed):
    import torch
    from torch_geometric_signed_directed.nn.signed import SIMPA

    s = _signed()
    net = SIMPA(hop=2, fill_value=0.5, directed=directed)
    xs = [torch.randn(_N, 8) for _ in range(4 if directed else 2)]
    if mode == "train":
        for x in xs:
            x.requires_grad_(True)
    return _mean(mode, net, (s["edge_index_p"], s["edge_weight_p"], s["edge_index_n"], s["edge_weight_n"], *xs))


# --- signed: SGCN, SNEA, SiGAT, SDGNN ----------------------------------------------------------

def _signed_embedding(mode, cls_name, *cfg, init_emb=False, **kw):
    import torch_geometric_signed_directed.nn as tnn

    edge_index_s, nodes_num = _signed_edges()
    if init_emb:
        import numpy as np
        import torch

        _seed()
        kw["init_emb"] = torch.FloatTensor(np.random.uniform(-1, 1, (nodes_num, _EMB)))
    net = getattr(tnn, cls_name)(nodes_num, edge_index_s, *cfg, **kw)
    if mode == "eval":
        return net, (), {}
    return _wrappers()["OwnLoss"](net), (), {}


def _sgcn_conv(mode, first_aggr):
    import torch
    from torch_geometric_signed_directed.nn import SGCNConv

    s = _signed()
    net = SGCNConv(16 if first_aggr else 8, 8, first_aggr=first_aggr)
    x = torch.randn(_N, 16)
    return _mean(mode, net, (x, s["edge_index_p"], s["edge_index_n"]))


def _snea_conv(mode, first_aggr):
    import torch
    from torch_geometric_signed_directed.nn import SNEAConv

    s = _signed()
    net = SNEAConv(16 if first_aggr else 8, 8, first_aggr=first_aggr)
    x = torch.randn(_N, 16)
    return _mean(mode, net, (x, s["edge_index_p"], s["edge_index_n"]))


# --- signed directed: MSGNN ---------------------------------------------------------------------

def _msgnn_node(mode, degree_features=False, **cfg):
    import scipy.sparse as sp
    from torch_geometric_signed_directed.data import SignedData
    from torch_geometric_signed_directed.nn import MSGNN_node_classification
    from torch_geometric_signed_directed.utils import (Prob_Balanced_Normalized_Loss, Prob_Imbalance_Loss,
                                                       in_out_degree, scipy_sparse_to_torch_sparse)

    d = _signed_directed()
    x = d["X"]
    if degree_features:
        x = in_out_degree(d["edge_index"], size=d["n"], signed=True, edge_weight=d["edge_weight"])
    net = MSGNN_node_classification(num_features=x.shape[1], hidden=2, label_dim=d["K"], **cfg)
    if mode == "eval":
        return net, (x, x), dict(edge_index=d["edge_index"], edge_weight=d["edge_weight"])
    data = SignedData(edge_index=d["edge_index"], edge_weight=d["edge_weight"])
    data.separate_positive_negative()
    loss_pbnc = Prob_Balanced_Normalized_Loss(A_p=sp.csr_matrix(data.A_p), A_n=sp.csr_matrix(data.A_n))
    F_plain = abs(d["F"])
    loss_imb = Prob_Imbalance_Loss(F_plain)
    A_abs = scipy_sparse_to_torch_sparse(abs(d["A"]))
    step = _wrappers()["MSGNNNodeStep"](net, loss_pbnc, loss_imb, d["K"], d["y"], _seed_mask(d["y"]))
    return step, (A_abs, x, d["edge_index"], d["edge_weight"]), {}


def _msgnn_link(mode, task, label_dim, **cfg):
    from torch_geometric_signed_directed.nn import MSGNN_link_prediction

    d, lk = _signed_directed(), _signed_directed_link(task)
    net = MSGNN_link_prediction(num_features=_FEAT, hidden=2, label_dim=label_dim, **cfg)
    return _nll(mode, net, (d["X"], d["X"]),
                dict(edge_index=lk["graph"], query_edges=lk["edges"], edge_weight=lk["weights"]), lk["label"])


def _msconv(mode, **cfg):
    from torch_geometric_signed_directed.nn import MSConv

    d = _signed_directed()
    net = MSConv(_FEAT, 4, K=2, q=0.25, trainable_q=False, **cfg)
    return _mean(mode, net, (d["X"], d["X"], d["edge_index"], d["edge_weight"]))


def P(make, *args, **kwargs):
    """``make(mode, *args, **kwargs)`` as a factory of ``mode`` alone."""
    return functools.wraps(make)(lambda mode: make(mode, *args, **kwargs))

MODELS = {
    # MagNet (test_MagNet / test_MagNet_Link / examples/magnet_node.py)
    "MagNet_node_K1_noNorm": P(_magnet_node, K=1, q=0.1, layer=2, activation=True, hidden=2, dropout=0.5,
                               normalization=None),
    "MagNet_node_trainable_q_cached": P(_magnet_node, K=2, layer=3, trainable_q=True, activation=True, hidden=2,
                                        dropout=0.5, cached=True),
    "MagNet_node_example": P(_magnet_node, q=0.25, K=1, hidden=16),
    "MagNet_link_existence": P(_magnet_link, "existence", K=1, q=0.1, label_dim=2, layer=2, activation=True,
                               hidden=2, dropout=0.5, normalization=None),
    "MagNet_link_trainable_q": P(_magnet_link, "existence", K=2, label_dim=2, layer=3, trainable_q=True,
                                 activation=True, hidden=2, dropout=0.5),
    "MagNet_link_three_class_cached": P(_magnet_link, "three_class_digraph", K=1, q=0.1, label_dim=3, layer=2,
                                        activation=True, hidden=2, dropout=0.5, normalization=None, cached=True),
    "MagNetConv": _magnet_conv,
    # DGCN (test_DGCN / test_DGCN_link)
    "DGCN_node_cached": P(_dgcn_node, True, 0.5, cached=True),
    "DGCN_node_improved": P(_dgcn_node, False, 0.0, True, True),
    "DGCN_link": P(_dgcn_link, 0.5),
    "DGCN_link_improved_cached": P(_dgcn_link, 0.0, True, True),
    "DGCNConv": P(_dgcn_conv, False, False),
    "DGCNConv_cached_weighted": P(_dgcn_conv, True, True),
    # DiGCN (test_DiGCN / test_DiGCN_Link)
    "DiGCN_node": _digcn_node,
    "DiGCN_Inception_Block_node": _digcn_inception_node,
    "DiGCN_link": _digcn_link,
    "DiGCN_Inception_Block_link": _digcn_inception_link,
    "DiGCNConv": _digcn_conv,
    # DiGCL (test_DiGCL / examples/digcl_node.py)
    "DiGCL_relu": P(_digcl, "relu", 2, 0),
    "DiGCL_prelu_batched": P(_digcl, "prelu", 3, 16),
    # DIGRAC (test_DIGRAC / examples/digrac_node.py)
    "DIGRAC_vol_sum_sort": _digrac,
    "DIGRAC_vol_min_std": P(_digrac, normalization="vol_min", threshold="std"),
    "DIGRAC_plain_naive_int_F": P(_digrac, normalization="plain", threshold="naive", F_given=False),
    "DIMPA": _dimpa,
    # SSSNET (test_SSSNET / test_SSSNET_Link / examples/sssnet.py)
    "SSSNET_node_undirected": P(_sssnet_node, directed=False, weighted=True, ratio_loss=False),
    "SSSNET_node_directed_ratio": P(_sssnet_node, directed=True, weighted=False, ratio_loss=True),
    "SSSNET_link_directed": P(_sssnet_link, True),
    "SSSNET_link_undirected": P(_sssnet_link, False),
    "SIMPA_undirected": P(_simpa, False),
    "SIMPA_directed": P(_simpa, True),
    # signed embeddings (test_SGCN / test_SNEA / test_SiGAT / test_SDGNN)
    "SGCN": P(_signed_embedding, "SGCN", 20, 20, layer_num=2, lamb=5),
    "SGCN_norm_emb_init": P(_signed_embedding, "SGCN", _EMB, _EMB, layer_num=2, lamb=5, norm_emb=True,
                            init_emb=True),
    "SGCNConv_first": P(_sgcn_conv, True),
    "SGCNConv_deep": P(_sgcn_conv, False),
    "SNEA": P(_signed_embedding, "SNEA", 20, 20, layer_num=2, lamb=5),
    "SNEA_init_emb": P(_signed_embedding, "SNEA", _EMB, _EMB, layer_num=2, lamb=5, init_emb=True),
    "SNEAConv_first": P(_snea_conv, True),
    "SNEAConv_deep": P(_snea_conv, False),
    "SiGAT": P(_signed_embedding, "SiGAT", 20, 20),
    "SDGNN": P(_signed_embedding, "SDGNN", 20, 20),
    # MSGNN (test_MSGNN / test_MSGNN_Link / examples/msgnn_node.py)
    "MSGNN_node_trainable_q": P(_msgnn_node, q=0.25, K=1, dropout=0.5, activation=True, trainable_q=True,
                                cached=False, conv_bias=False),
    "MSGNN_node_cached_noNorm": P(_msgnn_node, q=0.25, K=2, dropout=0.5, cached=True, normalization=None),
    "MSGNN_node_degree_features": P(_msgnn_node, degree_features=True, q=0.25, K=2, dropout=0.5, cached=True),
    "MSGNN_link_four_class": P(_msgnn_link, "four_class_signed_digraph", 4, q=0.25, K=2, trainable_q=False,
                               dropout=0.5, cached=True),
    "MSGNN_link_five_class": P(_msgnn_link, "five_class_signed_digraph", 5, q=0.25, K=3, trainable_q=False,
                               dropout=0.5, cached=True),
    "MSConv": _msconv,
    "MSConv_noNorm_signed_degree": P(_msconv, normalization=None, absolute_degree=False),
}
