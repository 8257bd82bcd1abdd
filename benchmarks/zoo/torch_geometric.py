"""PyTorch Geometric: GNN models and convolution layers on a small random graph, random
weights (no torch_scatter / torch_sparse / torch_cluster: PyG's pure-torch paths).

    pip install --no-deps torch_geometric==2.8.1
    pip install aiohttp==3.14.5 psutil==7.2.2 xxhash==4.1.0   # (+ fsspec, jinja2, pyparsing, requests, tqdm)
"""

PACKAGE = "torch_geometric"

_N, _F, _E = 12, 8, 40


def _graph():
    import torch

    g = torch.Generator().manual_seed(0)
    x = torch.randn(_N, _F, generator=g)
    edge_index = torch.randint(0, _N, (2, _E), generator=g)
    return x, edge_index


def _model(name, **kwargs):
    def make(mode):
        import torch_geometric.nn.models as models

        x, ei = _graph()
        return getattr(models, name)(**kwargs), (x, ei), {}

    return make


def _conv(name, *args, edge_dim=None, edge_dim_arg=True, **kwargs):
    def make(mode):
        import torch
        import torch_geometric.nn as gnn

        x, ei = _graph()
        extra = {"edge_attr": torch.randn(_E, edge_dim)} if edge_dim else {}
        if edge_dim and edge_dim_arg:
            kwargs["edge_dim"] = edge_dim
        return getattr(gnn, name)(*args, **kwargs), (x, ei), extra

    return make


def _batched(name, **kwargs):
    """A graph-level model: two graphs in one batch (``batch`` vector)."""

    def make(mode):
        import torch
        import torch_geometric.nn.models as models

        x, ei = _graph()
        batch = torch.tensor([0] * (_N // 2) + [1] * (_N - _N // 2))
        return getattr(models, name)(**kwargs), (x, ei), {"batch": batch}

    return make


def _attentive_fp(mode):
    import torch
    from torch_geometric.nn.models import AttentiveFP

    x, ei = _graph()
    batch = torch.tensor([0] * (_N // 2) + [1] * (_N - _N // 2))
    net = AttentiveFP(_F, 16, 2, edge_dim=4, num_layers=2, num_timesteps=2)
    return net, (x, ei, torch.randn(_E, 4), batch), {}


def _graph_unet(mode):
    from torch_geometric.nn.models import GraphUNet

    x, ei = _graph()
    return GraphUNet(_F, 16, 4, depth=2), (x, ei), {}


def _gae(mode):
    import torch
    from torch_geometric.nn.models import GAE, GCN

    x, ei = _graph()

    class Step(torch.nn.Module):  # encode, then the reconstruction loss on the known edges
        def __init__(self):
            super().__init__()
            self.gae = GAE(GCN(_F, 16, 2))

        def forward(self, x, ei):
            return self.gae.recon_loss(self.gae.encode(x, ei), ei)

    return Step(), (x, ei), {}


MODELS = {
    "GCN": _model("GCN", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3),
    "GCN_jk": _model("GCN", in_channels=_F, hidden_channels=16, num_layers=3, out_channels=3, jk="cat"),
    "GraphSAGE": _model("GraphSAGE", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3),
    "GIN": _model("GIN", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3),
    "GAT": _model("GAT", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3, heads=2),
    "GATv2": _model("GAT", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3, v2=True),
    "PNA": lambda mode: _model("PNA", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3,
                               aggregators=["mean", "max"], scalers=["identity"],
                               deg=__import__("torch").tensor([0, 2, 4, 3, 1]))(mode),
    "EdgeCNN": _model("EdgeCNN", in_channels=_F, hidden_channels=16, num_layers=2, out_channels=3),
    "LINKX": _model("LINKX", num_nodes=_N, in_channels=_F, hidden_channels=16, out_channels=3, num_layers=2),
    "PMLP": _model("PMLP", in_channels=_F, hidden_channels=16, out_channels=3, num_layers=2),
    "MLP": lambda mode: (__import__("torch_geometric.nn.models", fromlist=["MLP"]).MLP([_F, 16, 3], dropout=0.1),
                         (_graph()[0],), {}),
    "AttentiveFP": _attentive_fp,
    "GraphUNet": _graph_unet,
    "GAE": _gae,
    "GCNConv": _conv("GCNConv", _F, 16),
    "SAGEConv": _conv("SAGEConv", _F, 16),
    "GATConv": _conv("GATConv", _F, 8, heads=2),
    "GATv2Conv_edge": _conv("GATv2Conv", _F, 8, heads=2, edge_dim=4),
    "TransformerConv": _conv("TransformerConv", _F, 8, heads=2, edge_dim=4),
    "GINEConv": lambda mode: _conv("GINEConv", __import__("torch").nn.Linear(_F, 16), edge_dim=_F, edge_dim_arg=False)(mode),
    "ChebConv": _conv("ChebConv", _F, 16, K=3),
    "GatedGraphConv": _conv("GatedGraphConv", 16, 2),
    "ResGatedGraphConv": _conv("ResGatedGraphConv", _F, 16),
    "ARMAConv": _conv("ARMAConv", _F, 16, num_stacks=2, num_layers=2),
    "SGConv": _conv("SGConv", _F, 16, K=2),
    "TAGConv": _conv("TAGConv", _F, 16),
    "GENConv": _conv("GENConv", _F, 16),
    "GeneralConv": _conv("GeneralConv", _F, 16),
    "FiLMConv": _conv("FiLMConv", _F, 16),
    "SuperGATConv": _conv("SuperGATConv", _F, 8, heads=2),
    "EGConv": _conv("EGConv", _F, 16),
    "APPNP": _conv("APPNP", K=3, alpha=0.1),
    "GIN_batch": _batched("GIN", in_channels=_F, hidden_channels=16, num_layers=1, out_channels=3),
}
