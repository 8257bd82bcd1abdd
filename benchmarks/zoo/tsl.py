"""tsl (torch-spatiotemporal) 0.9.5: spatiotemporal graph neural networks for time series, its
``tsl.nn.models``, layers and blocks, tiny configs, random weights, no download, fed as the library's
own pipeline feeds them and trained through ``tsl.engines.Predictor`` / ``Imputer``.

Data: a random series of 60 steps on 5 nodes (1 channel, a 12-step sine plus noise; a random
validity mask; 2 node-level exogenous channels ``u``), a ring graph with two chords and positive
weights as an ``(edge_index, edge_weight)`` pair. It goes through ``SpatioTemporalDataset`` (window 8,
horizon 3; imputers: ``ImputationDataset``, window = horizon 8, 20% of the valid points held out as
``eval_mask``) -> ``SpatioTemporalDataModule`` (``StandardScaler(axis=(0, 1))`` on the target,
``TemporalSplitter``, batch 2) -> the first ``train_dataloader()`` batch (a ``StaticBatch``).
Models are built as the forecasting / imputation examples build them: ``filter_model_args_`` on
the dataset's sizes, then the config's hparams cut to a few units.

Eval: ``model(**inputs)``, where ``inputs`` is ``batch.input`` filtered by the ``Predictor`` /
``Imputer``'s own ``_filter_forward_kwargs`` (what ``Predictor.forward`` hands the model).
Train: ``Predictor.training_step`` without its Lightning ``self.log`` / ``log_dict`` calls
(``predict_batch`` with the target scaler's ``inverse_transform``, optional ``scale_target``, the
``loss_fn`` -- ``MaskedMAE`` unless named -- and ``train_metrics.update`` of a
``MetricCollection`` of ``MaskedMAE``, ``MaskedMSE``, ``MaskedMAPE``, ``MaskedMAE(at=1)``); imputers:
``Imputer.training_step`` without logging (``shared_step``: warm-up trimming, imputation loss plus
the weighted losses of the intermediate predictions; ``train_metrics.update`` on ``eval_mask``),
after its ``on_train_batch_start`` whitening run eagerly (a Lightning hook). The batch object
itself is the compiled step's argument. Layers and blocks: ``mean_loss_module``.

Models (40):
- temporal forecasters: ``RNNModel`` (GRU, exogenous; LSTM with ``MaskedMSE`` and
  ``scale_target=True``), ``FCRNNModel``, ``TCNModel`` (batch norm, resnet; gated with layer norm),
  ``TransformerModel`` (axis both; time with ``MaskedMAPE``), ``ARModel``, ``VARModel``, ``STIDModel``
  (time-of-day / day-of-week index covariates, ``n_exog_emb=[12, 7]``);
- spatiotemporal forecasters: ``DCRNNModel``, ``GraphWaveNetModel`` (learned adjacency, batch norm;
  without), ``GatedGraphNetworkModel`` (on the graph; full graph), ``RNNEncGCNDecModel``,
  ``STCNModel``, ``EvolveGCNModel`` (variant O; variant H), ``GRUGCNModel``, ``AGCRNModel``;
- imputers: ``RNNImputerModel`` (fully connected), ``BiRNNImputerModel`` (one layer; two layers with
  ``cat_states_layers``), ``GRINModel``, ``SPINModel``, ``SPINHierarchicalModel``;
- the introduction notebook's ``TimeThenSpaceModel`` (``RNN`` block + ``DiffConv`` +
  ``NodeEmbedding``) in a ``Predictor`` (``MaskedMAE``; ``MaskedMRE``);
- layers / blocks: ``GATConv`` (``need_weights``), ``MultiHeadGraphAttention``, ``GraphConvRNN``
  (LSTM cells), ``DCRNN``, ``DenseDCRNN``, ``SpatioTemporalConvNet`` (gated), ``GraphPolyVAR``,
  ``MultiRNN``, ``SpatioTemporalTransformerLayer``, ``TemporalMLPAttention`` (SPIN's), ``MultiHorizonMLPDecoder``.

    pip install --no-deps torch-spatiotemporal==0.9.5

(already installed and used: einops, numpy, pandas, pytorch-lightning, PyYAML, scikit-learn,
scipy, torchmetrics, tqdm, torch_geometric 2.8.1; ``tables`` is declared but not imported here.)

Stand-ins: ``torch_sparse`` and ``torch_scatter`` are compiled extensions (not installed; pip would
build against torch). tsl imports both at its top (``tsl.typing``, ``tsl.ops.connectivity``,
``tsl.nn.functional``, the graph convolutions). ``torch_sparse`` is a ``stub_modules`` stand-in
(``SparseTensor`` a class that raises if built, so ``isinstance`` checks answer False; its functions
raise): every model here gets a dense ``edge_index``, never a ``SparseTensor`` layout; torch_geometric
is imported first so that its own ``WITH_TORCH_SPARSE`` stays False. ``torch_scatter`` (``scatter``,
``utils.broadcast``, ``segment_csr``, ``gather_csr``) is a working stand-in written in torch
(``scatter_add_`` / ``scatter_reduce_`` with ``torch_scatter``'s semantics; the two CSR ops raise,
used only when a ``ptr`` is passed, never here), compiled from a source string registered in
``linecache`` because tsl ``torch.jit.script``s ``sparse_softmax`` over it at import; Dynamo inlines
the scripted function's Python (GATConv, MultiHeadGraphAttention, SPIN's attention, MLPAttention
reach it). Its lines are the adapter's, not tsl's.

Left out: ``LSTM`` cells in the RNN imputers (``RNNImputerModel`` / ``BiRNNImputerModel`` with
``cell="lstm"`` fail eagerly in 0.9.5: the ``(h, c)`` state is passed to the readout ``Linear``);
``TemporalMLPAttention(causal_lag=...)`` (fails eagerly: it checks ``.size()`` of the mask tuple it
builds); ``STIDModel`` without ``n_exog_emb`` (fails eagerly in ``reset_parameters``);
``SparseTensor`` / CSR layouts (no torch_sparse); the Lightning ``fit`` loop, the ``self.log`` calls,
``on_train_batch_start`` (a hook), the datasets (downloads), and ``tsl.metrics.numpy``.
"""

import functools

PACKAGE = "tsl"
DISTRIBUTION = "torch-spatiotemporal"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
stub_modules = None  # adapter.stub_modules, set by ZooSuite

_B, _W, _H = 2, 8, 3  # batch, window, horizon
_N, _F, _U = 5, 1, 2  # nodes, channels, exogenous channels
_T = 60  # time steps of the random series

# torch_scatter stand-in: tsl.nn.functional (TorchScript-compiled sparse_softmax) and
# blocks/encoders/mlp_attention import scatter / broadcast / segment_csr / gather_csr at their top.
# The compiled extension is not installed; these are the same semantics written with torch
# (scatter_add_ / scatter_reduce_), scriptable because tsl scripts the functions that call them.
_SCATTER_SRC = '''
from typing import Optional
import torch
from torch import Tensor


def broadcast(src: Tensor, other: Tensor, dim: int) -> Tensor:
    if dim < 0:
        dim = other.dim() + dim
    if src.dim() == 1:
        for _ in range(0, dim):
            src = src.unsqueeze(0)
    for _ in range(src.dim(), other.dim()):
        src = src.unsqueeze(-1)
    src = src.expand(other.size())
    return src


def scatter(src: Tensor, index: Tensor, dim: int = -1, out: Optional[Tensor] = None,
            dim_size: Optional[int] = None, reduce: str = "sum") -> Tensor:
    index = broadcast(index, src, dim)
    if dim < 0:
        dim = src.dim() + dim
    size = list(src.size())
    if dim_size is not None:
        size[dim] = dim_size
    elif index.numel() == 0:
        size[dim] = 0
    else:
        size[dim] = int(index.max()) + 1
    if out is None:
        out = torch.zeros(size, dtype=src.dtype, device=src.device)
    if reduce == "sum" or reduce == "add":
        return out.scatter_add_(dim, index, src)
    if reduce == "mul":
        return out.scatter_reduce_(dim, index, src, "prod", include_self=False)
    if reduce == "mean":
        return out.scatter_reduce_(dim, index, src, "mean", include_self=False)
    if reduce == "max":
        return out.scatter_reduce_(dim, index, src, "amax", include_self=False)
    if reduce == "min":
        return out.scatter_reduce_(dim, index, src, "amin", include_self=False)
    raise ValueError("torch_scatter stand-in: unknown reduce")


def segment_csr(src: Tensor, indptr: Tensor, out: Optional[Tensor] = None, reduce: str = "sum") -> Tensor:
    raise NotImplementedError("torch_scatter stand-in: segment_csr (a compiled op) is not installed")


def gather_csr(src: Tensor, indptr: Tensor, out: Optional[Tensor] = None) -> Tensor:
    raise NotImplementedError("torch_scatter stand-in: gather_csr (a compiled op) is not installed")
'''


def before_build():
    import importlib.machinery
    import linecache
    import sys
    import types

    if "torch_scatter" in sys.modules:
        return
    import torch_geometric  # noqa: F401  (its typing decides WITH_TORCH_SPARSE before the stand-ins)

    stub_modules({"torch_sparse": (("fill_diag", "remove_diag", "set_diag", "matmul", "cat"),
                                   ("SparseTensor",))}, "tsl")
    filename = "<tsl adapter: torch_scatter stand-in>"
    linecache.cache[filename] = (len(_SCATTER_SRC), None, _SCATTER_SRC.splitlines(True), filename)
    mods = {}
    for name in ("torch_scatter", "torch_scatter.utils"):
        mod = types.ModuleType(name)
        mod.__path__ = []
        mod.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        mods[name] = mod
    exec(compile(_SCATTER_SRC, filename, "exec"), mods["torch_scatter"].__dict__)
    mods["torch_scatter.utils"].broadcast = mods["torch_scatter"].broadcast
    mods["torch_scatter"].utils = mods["torch_scatter.utils"]
    sys.modules.update(mods)


def warm_up():
    before_build()
    import torch  # noqa: F401

    import tsl.engines  # noqa: F401
    import tsl.metrics.torch  # noqa: F401
    import tsl.nn.models  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

def _graph():
    """A ring of ``_N`` nodes, both directions, plus two chords; positive weights."""
    import numpy as np

    src = list(range(_N)) + [(i + 1) % _N for i in range(_N)] + [0, 2]
    dst = [(i + 1) % _N for i in range(_N)] + list(range(_N)) + [2, 4]
    rng = np.random.default_rng(1)
    return np.array([src, dst], dtype=np.int64), rng.uniform(0.2, 1.0, len(src)).astype("float32")


def _series():
    import numpy as np

    rng = np.random.default_rng(0)
    t = np.arange(_T)[:, None, None]
    x = (np.sin(2 * np.pi * t / 12 + np.arange(_N)[None, :, None]) + rng.normal(0, 0.3, (_T, _N, _F)) + 5)
    u = np.concatenate([np.sin(2 * np.pi * t / 12), np.cos(2 * np.pi * t / 12)], -1)  # (T, 1, 2)
    mask = rng.uniform(size=(_T, _N, _F)) > 0.1
    return x.astype("float32"), np.repeat(u, _N, 1).astype("float32"), mask


def _batch(imputation=False, exog=True, scale=True):
    """One training batch through tsl's own pipeline: ``SpatioTemporalDataset`` (or
    ``ImputationDataset``) -> ``SpatioTemporalDataModule`` (``StandardScaler`` on the target,
    ``TemporalSplitter``) -> ``train_dataloader()``."""
    import numpy as np

    from tsl.data import ImputationDataset, SpatioTemporalDataModule, SpatioTemporalDataset
    from tsl.data.datamodule.splitters import TemporalSplitter
    from tsl.data.preprocessing import StandardScaler

    x, u, mask = _series()
    if exog == "index":  # time-of-day / day-of-week indices (STID's embeddings), one per step
        steps = np.arange(_T)
        covariates = {"u": (np.stack([steps % 12, (steps // 12) % 7], -1), "t f")}
    else:
        covariates = {"u": u} if exog else None
    if imputation:
        rng = np.random.default_rng(2)
        eval_mask = mask & (rng.uniform(size=mask.shape) < 0.2)
        data = ImputationDataset(target=x, mask=mask & ~eval_mask, eval_mask=eval_mask, connectivity=_graph(),
                                 covariates=covariates, window=_W)
    else:
        data = SpatioTemporalDataset(target=x, mask=mask, connectivity=_graph(), covariates=covariates,
                                     horizon=_H, window=_W)
    scalers = {"target": StandardScaler(axis=(0, 1))} if scale else None
    dm = SpatioTemporalDataModule(dataset=data, scalers=scalers, splitter=TemporalSplitter(val_len=0.1, test_len=0.1),
                                  batch_size=_B, workers=0)
    dm.setup()
    return next(iter(dm.train_dataloader(shuffle=False))), data


# --- the training step --------------------------------------------------------------------------

@functools.cache
def _steps():
    from torch import nn

    class PredictorStep(nn.Module):
        """``Predictor.training_step`` without the Lightning ``self.log`` calls: ``predict_batch``
        (the model on ``batch.input``, the target scaler's ``inverse_transform``), the optional
        target scaling, ``loss_fn`` and ``train_metrics.update``."""

        def __init__(self, engine):
            super().__init__()
            self.engine = engine

        def forward(self, batch):
            engine = self.engine
            y = y_loss = batch.y
            mask = batch.get("mask")
            y_hat_loss = engine.predict_batch(batch, preprocess=False, postprocess=not engine.scale_target)
            y_hat = y_hat_loss.detach()
            if engine.scale_target:
                y_loss = batch.transform["y"].transform(y)
                y_hat = batch.transform["y"].inverse_transform(y_hat)
            loss = engine.loss_fn(y_hat_loss, y_loss, mask)
            engine.train_metrics.update(y_hat, y, mask)
            return loss

    class ImputerStep(nn.Module):
        """``Imputer.training_step`` without the logging: ``shared_step`` (prediction, warm-up
        trimming, imputation loss plus the weighted loss of each intermediate prediction) on
        ``batch.original_mask`` and ``train_metrics.update`` on ``batch.eval_mask``."""

        def __init__(self, engine):
            super().__init__()
            self.engine = engine

        def forward(self, batch):
            y_hat, y, loss = self.engine.shared_step(batch, batch.original_mask)
            self.engine.train_metrics.update(y_hat, y, batch.eval_mask)
            return loss

    return PredictorStep, ImputerStep


def _inputs(engine, batch):
    """``batch.input`` as ``Predictor.forward`` hands it to the model (its forward's arguments only)."""
    inputs = dict(batch.input)
    return engine._filter_forward_kwargs(inputs) if engine.filter_forward_kwargs else inputs


def _metrics():
    from tsl.metrics import torch as tm

    return {"mae": tm.MaskedMAE(), "mse": tm.MaskedMSE(), "mape": tm.MaskedMAPE(), "mae_at_2": tm.MaskedMAE(at=1)}


def _forecaster(cls_name, exog=True, loss=None, scale_target=False, needs=(), **hparams):
    """A factory: ``tsl.nn.models.<cls_name>`` as the forecasting example builds it
    (``filter_model_args_`` on the dataset's sizes, then the hparams), fed one batch.
    Eval: ``model(**batch.input)`` (what ``Predictor.forward`` calls). Train: ``Predictor``'s
    training step with ``loss`` (default ``MaskedMAE``)."""

    def make(mode):
        import torch

        import tsl.nn.models as models
        from tsl.engines import Predictor
        from tsl.metrics import torch as tm

        batch, data = _batch(exog=exog)
        cls = getattr(models, cls_name)
        kwargs = dict(n_nodes=data.n_nodes, input_size=data.n_channels, output_size=data.n_channels,
                      horizon=data.horizon, window=data.window, input_window_size=data.window)
        kwargs["exog_size"] = data.input_map.u.shape[-1] if exog else 0
        cls.filter_model_args_(kwargs)
        kwargs.update(hparams)
        model = cls(**kwargs)
        engine = Predictor(model=model, loss_fn=getattr(tm, loss or "MaskedMAE")(), metrics=_metrics(),
                           optim_class=torch.optim.Adam, optim_kwargs={"lr": 1e-3}, scale_target=scale_target)
        if mode == "eval":
            return model, (), _inputs(engine, batch)
        return _steps()[0](engine), (batch,), {}

    return make


def _imputer(cls_name, exog=True, warm_up_steps=0, whiten_prob=0.05, **hparams):
    """A factory: an imputation model (``ImputationDataset``, window = horizon), as the
    imputation example builds it. Eval: ``model(**batch.input)``. Train: ``Imputer``'s training
    step after its ``on_train_batch_start`` whitening (run eagerly: a Lightning hook)."""

    def make(mode):
        import torch

        import tsl.nn.models as models
        from tsl.engines import Imputer
        from tsl.metrics import torch as tm

        batch, data = _batch(imputation=True, exog=exog)
        cls = getattr(models, cls_name)
        kwargs = dict(n_nodes=data.n_nodes, input_size=data.n_channels, output_size=data.n_channels,
                      window_size=data.window)
        kwargs["exog_size"] = data.input_map.u.shape[-1] if exog else 0
        cls.filter_model_args_(kwargs)
        kwargs.update(hparams)
        model = cls(**kwargs)
        engine = Imputer(model=model, loss_fn=tm.MaskedMAE(), metrics=_metrics(), whiten_prob=whiten_prob,
                         warm_up_steps=warm_up_steps, optim_class=torch.optim.Adam, optim_kwargs={"lr": 1e-3})
        if mode == "eval":
            return model, (), _inputs(engine, batch)
        engine.on_train_batch_start(batch, 0)
        return _steps()[1](engine), (batch,), {}

    return make

MODELS = {
    # temporal forecasters (forecasting example's configs, cut down)
    "RNNModel": _forecaster("RNNModel", hidden_size=8, ff_size=16, rec_layers=2, ff_layers=1, rec_dropout=0.1,
                            ff_dropout=0.1, cell_type="gru"),
    "RNNModel_lstm_MSE_scaled": _forecaster("RNNModel", exog=False, loss="MaskedMSE", scale_target=True,
                                            hidden_size=8, ff_size=16, cell_type="lstm"),
    "FCRNNModel": _forecaster("FCRNNModel", exog=False, hidden_size=8, ff_size=16, rec_layers=2, ff_layers=1, rec_dropout=0.1,
                              ff_dropout=0.1, cell_type="gru"),
    "TCNModel": _forecaster("TCNModel", hidden_size=8, ff_size=16, kernel_size=2, n_convs_layer=2, n_layers=2,
                            dropout=0.1, resnet=True, norm="batch", dilation=2),
    "TCNModel_gated": _forecaster("TCNModel", exog=False, hidden_size=8, ff_size=16, gated=True, norm="layer",
                                  n_layers=2),
    "TransformerModel": _forecaster("TransformerModel", hidden_size=8, ff_size=16, n_layers=2, n_heads=2,
                                    dropout=0.1, axis="both"),
    "TransformerModel_time": _forecaster("TransformerModel", exog=False, loss="MaskedMAPE", hidden_size=8,
                                         ff_size=16, n_heads=2, axis="time"),
    "ARModel": _forecaster("ARModel", temporal_order=3),
    "VARModel": _forecaster("VARModel", exog=False, temporal_order=3),
    "STIDModel": _forecaster("STIDModel", exog="index", n_exog_emb=[12, 7], hidden_size=8, n_layers=2),
    # spatiotemporal forecasters
    "DCRNNModel": _forecaster("DCRNNModel", hidden_size=8, ff_size=16, kernel_size=2, n_layers=1),
    "GraphWaveNetModel": _forecaster("GraphWaveNetModel", hidden_size=8, ff_size=16, emb_size=4, n_layers=4,
                                     dropout=0.3, temporal_kernel_size=2, spatial_kernel_size=2, dilation=2,
                                     dilation_mod=2, norm="batch", learned_adjacency=True),
    "GraphWaveNetModel_no_learned_adj": _forecaster("GraphWaveNetModel", exog=False, hidden_size=8, ff_size=16,
                                                    n_layers=2, learned_adjacency=False, norm="none"),
    "GatedGraphNetworkModel": _forecaster("GatedGraphNetworkModel", hidden_size=8, enc_layers=2, gnn_layers=2,
                                          activation="silu", full_graph=False),
    "GatedGraphNetworkModel_full": _forecaster("GatedGraphNetworkModel", exog=False, hidden_size=8, full_graph=True),
    "RNNEncGCNDecModel": _forecaster("RNNEncGCNDecModel", hidden_size=8, rnn_layers=1, gcn_layers=2, rnn_dropout=0.1,
                                     gcn_dropout=0.1),
    "STCNModel": _forecaster("STCNModel", hidden_size=8, ff_size=16, n_layers=2, dropout=0.1, temporal_kernel_size=2,
                             spatial_kernel_size=2, dilation=2, norm="batch"),
    "EvolveGCNModel_O": _forecaster("EvolveGCNModel", hidden_size=8, n_layers=2, norm="mean", cached=True, variant="O",
                                    root_weight=True),
    "EvolveGCNModel_H": _forecaster("EvolveGCNModel", hidden_size=4, n_layers=1, norm="asym", cached=False,
                                    variant="H", root_weight=False),
    "GRUGCNModel": _forecaster("GRUGCNModel", hidden_size=8, enc_layers=1, gcn_layers=2, norm="mean"),
    "AGCRNModel": _forecaster("AGCRNModel", hidden_size=8, emb_size=4, n_layers=2),
    # imputers (imputation example's configs, cut down)
    "RNNImputerModel": _imputer("RNNImputerModel", exog=False, hidden_size=8, cell="gru", concat_mask=False,
                                fully_connected=True, n_nodes=_N),
    "BiRNNImputerModel": _imputer("BiRNNImputerModel", hidden_size=8, cell="gru", concat_mask=True,
                                  fully_connected=False),
    "BiRNNImputerModel_2layers": _imputer("BiRNNImputerModel", exog=False, hidden_size=8, cell="gru", n_layers=2,
                                       cat_states_layers=True, dropout=0.1),
    "GRINModel": _imputer("GRINModel", hidden_size=8, ff_size=16, embedding_size=4, n_layers=1, kernel_size=2,
                          decoder_order=1, merge_mode="mlp"),
    "SPINModel": _imputer("SPINModel", hidden_size=8, eta=3, n_layers=2, message_layers=1,
                          temporal_self_attention=True, reweigh="softmax"),
    "SPINHierarchicalModel": _imputer("SPINHierarchicalModel", h_size=8, z_size=16, z_heads=2, eta=3, n_layers=2,
                                      message_layers=1, update_z_cross=False, norm=True, reweigh="softmax",
                                      spatial_aggr="softmax"),
}


# --- the introduction notebook's model, and layers / blocks on their own ------------------------

@functools.cache
def _time_then_space():
    from einops.layers.torch import Rearrange
    from torch import nn

    from tsl.nn.blocks.encoders import RNN
    from tsl.nn.layers import DiffConv, NodeEmbedding

    class TimeThenSpaceModel(nn.Module):
        """``a_gentle_introduction_to_tsl.ipynb``'s model: a GRU over time, then diffusion
        convolution over the graph."""

        def __init__(self, input_size, n_nodes, horizon, hidden_size=32, rnn_layers=1, gnn_kernel=2):
            super().__init__()
            self.encoder = nn.Linear(input_size, hidden_size)
            self.node_embeddings = NodeEmbedding(n_nodes, hidden_size)
            self.time_nn = RNN(input_size=hidden_size, hidden_size=hidden_size, n_layers=rnn_layers, cell="gru",
                               return_only_last_state=True)
            self.space_nn = DiffConv(in_channels=hidden_size, out_channels=hidden_size, k=gnn_kernel)
            self.decoder = nn.Linear(hidden_size, input_size * horizon)
            self.rearrange = Rearrange("b n (t f) -> b t n f", t=horizon)

        def forward(self, x, edge_index, edge_weight):
            x_enc = self.encoder(x)
            x_emb = x_enc + self.node_embeddings()
            h = self.time_nn(x_emb)
            z = self.space_nn(h, edge_index, edge_weight)
            x_out = self.decoder(z)
            return self.rearrange(x_out)

    return TimeThenSpaceModel


def _notebook(loss="MaskedMAE"):
    def make(mode):
        import torch

        from tsl.engines import Predictor
        from tsl.metrics import torch as tm

        batch, data = _batch(exog=False)
        model = _time_then_space()(input_size=data.n_channels, n_nodes=data.n_nodes, horizon=data.horizon,
                                   hidden_size=8, rnn_layers=1, gnn_kernel=2)
        engine = Predictor(model=model, loss_fn=getattr(tm, loss)(), metrics=_metrics(),
                           optim_class=torch.optim.Adam, optim_kwargs={"lr": 1e-3})
        if mode == "eval":
            return model, (), _inputs(engine, batch)
        return _steps()[0](engine), (batch,), {}

    return make


def _layer(build):
    """A layer or block on the batch's tensors: ``build(x, h, edge_index, edge_weight, u)`` returns
    ``(module, args, kwargs)`` (``h``: the input lifted to 8 channels). Train: ``mean_loss_module``."""

    def make(mode):
        import torch

        batch, _ = _batch()
        x, u = batch.input.x, batch.input.u
        h = torch.randn(*x.shape[:-1], 8)
        net, args, kwargs = build(x, h, batch.input.edge_index, batch.input.edge_weight, u)
        if mode == "train":
            return mean_loss_module()(net), args, kwargs
        return net, args, kwargs

    return make


def _gat(x, h, ei, ew, u):
    from tsl.nn.layers.graph_convs import GATConv

    return GATConv(8, 4, heads=2, concat=True, dropout=0.1), (h, ei), {"need_weights": True}


def _mhga(x, h, ei, ew, u):
    from tsl.nn.layers.graph_convs import MultiHeadGraphAttention

    return MultiHeadGraphAttention(8, num_heads=2, dropout=0.1), (h, h, h, ei), {}


def _graph_conv_rnn(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import GraphConvRNN

    return GraphConvRNN(8, 8, n_layers=2, cell="lstm", norm="asym"), (h, ei, ew), {}


def _dcrnn_block(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import DCRNN

    return DCRNN(8, 8, n_layers=2, k=2, return_only_last_state=True), (h, ei, ew), {}


def _dense_dcrnn(x, h, ei, ew, u):
    import torch

    from tsl.nn.blocks.encoders import DenseDCRNN

    adj = torch.zeros(_N, _N).index_put_((ei[0], ei[1]), ew)
    return DenseDCRNN(8, 8, n_layers=1, k=2), (h, adj), {}


def _st_convnet(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import SpatioTemporalConvNet

    return SpatioTemporalConvNet(8, 8, temporal_kernel_size=2, spatial_kernel_size=2, gated=True, norm="layer",
                                 dropout=0.1), (h, ei, ew), {}


def _gpvar(x, h, ei, ew, u):
    from tsl.nn.layers.graph_convs import GraphPolyVAR

    return GraphPolyVAR(temporal_order=3, spatial_order=2, norm="mean"), (x, ei, ew), {}


def _multi_rnn(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import MultiRNN

    return MultiRNN(8, 8, n_instances=_N, n_layers=1, cell="gru", return_only_last_state=True), (h,), {}


def _st_transformer(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import SpatioTemporalTransformerLayer

    return SpatioTemporalTransformerLayer(8, 8, ff_size=16, n_heads=2, causal=True, dropout=0.1), (h,), {}


def _temporal_mlp_attention(x, h, ei, ew, u):
    from tsl.nn.blocks.encoders import TemporalMLPAttention

    import torch

    mask = torch.rand(*h.shape[:-1], 1) > 0.2
    return TemporalMLPAttention(8, 8, msg_layers=1, reweigh="softmax", root_weight=True), ((h, h),), {"mask": mask}


def _multi_horizon_decoder(x, h, ei, ew, u):
    import torch

    from tsl.nn.blocks.decoders import MultiHorizonMLPDecoder

    u_future = torch.randn(x.size(0), _H, _N, _U)
    return MultiHorizonMLPDecoder(8, _U, hidden_size=8, context_size=4, output_size=1, n_layers=1, horizon=_H), (
        h, u_future), {}


MODELS.update({
    "TimeThenSpaceModel_notebook": _notebook(),
    "TimeThenSpaceModel_notebook_MRE": _notebook("MaskedMRE"),
    "GATConv": _layer(_gat),
    "MultiHeadGraphAttention": _layer(_mhga),
    "GraphConvRNN_lstm": _layer(_graph_conv_rnn),
    "DCRNN_block": _layer(_dcrnn_block),
    "DenseDCRNN": _layer(_dense_dcrnn),
    "SpatioTemporalConvNet_gated": _layer(_st_convnet),
    "GraphPolyVAR": _layer(_gpvar),
    "MultiRNN": _layer(_multi_rnn),
    "SpatioTemporalTransformerLayer": _layer(_st_transformer),
    "TemporalMLPAttention": _layer(_temporal_mlp_attention),
    "MultiHorizonMLPDecoder": _layer(_multi_horizon_decoder),
})
