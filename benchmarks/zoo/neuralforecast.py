"""neuralforecast (Nixtla) 3.3.0: its model zoo (``neuralforecast.models``), tiny configs,
random weights, no download, fed as ``BaseModel.training_step`` feeds them.

Data: a small random panel (4 series x 40 daily steps: target ``y``, two future exogenous
columns ``f1``/``f2`` (calendar-like), one historic ``h1``, two static ``s1``/``s2``) goes
through the library's own pipeline: ``TimeSeriesDataset.from_df`` -> ``TimeSeriesLoader``
(one batch of all series) -> the model's ``_create_windows(batch, "train")`` ->
``_sample_windows`` (8 windows; multivariate models: 8 windows of all 4 series) ->
``_normalization`` (the model's ``scaler_type``) -> ``_parse_windows``, which gives the
``windows_batch`` dict every ``forward`` takes (``insample_y``, ``insample_mask``,
``futr_exog``, ``hist_exog``, ``stat_exog``), with the recurrent models' one-step shift.
Horizon ``h=4``, ``input_size=12``, widths cut to a few units.

Eval: ``net(windows_batch)``. For the recurrent models (``DeepAR``, and ``LSTM`` / ``RNN`` with
``recurrent=True``) eval is the first step of the library's recurrent
validation / prediction (``_validate_step_recurrent_batch``): ``h = 1``,
``maintain_state = True`` (the forward keeps ``rnn_state`` on the module), the insample part.
Train: ``TrainStep(net)(windows_batch, outsample_y, outsample_mask, y_loc, y_scale)``:
``training_step`` from "Model Predictions" to the loss, without the Lightning logging and the
NaN checks: ``net(windows_batch)``, ``net.loss.domain_map``, and for distribution losses
``scale_decouple`` with the scaler's loc / scale and the loss on the unscaled target
(``DistributionLoss``, ``GMM``, ``PMM``), else the point loss on the scaled target
(``MAE`` default, ``MQLoss``, ``HuberMQLoss``, ``MSE``, ``HuberLoss``); recurrent models run at
``h_train = 1`` as ``training_step`` sets.

Models (40; exogenous = the future / historic / static columns the model takes; loss MAE unless
named):
- MLP-style: ``MLP`` (exogenous), ``NHITS`` (exogenous, robust scaler; AvgPool1d /
  nearest interpolation / dropout with ``GMM``), ``NBEATS`` (identity / trend / seasonality,
  standard scaler; two generic stacks with shared weights and ``HuberMQLoss``), ``NBEATSx``
  (exogenous), ``MLPMultivariate``, ``TiDE``, ``DeepNPTS``, ``KAN`` (exogenous), ``DLinear``,
  ``NLinear`` (MSE);
- recurrent / convolutional: ``LSTM`` (exogenous; ``recurrent=True``), ``GRU`` (exogenous,
  MQLoss), ``RNN`` (``recurrent=True``), ``TCN``, ``BiTCN``, ``DilatedRNN`` (exogenous, LSTM
  cells; ``ResLSTM`` cells), ``DeepAR`` (Normal ``DistributionLoss``; StudentT with exogenous
  and a decoder layer), ``xLSTM`` (mLSTM backbone);
- transformers: ``TFT`` (exogenous; GRU with StudentT), ``PatchTST``, ``VanillaTransformer``,
  ``Informer``, ``Autoformer``, ``FEDformer``, ``TimesNet`` (exogenous where taken);
- multivariate (``n_series=4``): ``iTransformer``, ``TSMixer``, ``TSMixerx`` (exogenous,
  ``PMM``), ``SOFTS``, ``TimeMixer``, ``StemGNN`` (HuberLoss), ``RMoK``, ``TimeXer``
  (exogenous), ``XLinear`` (exogenous).

    pip install --no-deps neuralforecast==3.3.0 pytorch-lightning==2.6.6 utilsforecast==0.2.17 \\
        coreforecast==0.0.20

(already installed and used: pandas, numpy, scipy, fsspec, safetensors, narwhals, torchmetrics,
lightning-utilities, PyYAML, tqdm, packaging; xlstm 2.0.6 for ``xLSTM``.)

Stubbed: ``ray`` (``ray.air``, ``ray.tune``, ``ray.tune.integration.pytorch_lightning``,
``ray.tune.search.basic_variant``): ``neuralforecast/__init__`` imports ``core``, which imports
``common/_base_auto`` (the Auto* hyperparameter search) at its top; no model uses it.
``BasicVariantGenerator`` is a stand-in that can be built (``BaseAuto.__init__`` builds one as a
default argument, at import). optuna is imported lazily (Auto models only).

Left out: the Auto* models (ray / optuna search), ``TimeLLM`` (needs a ``transformers`` LLM),
``HINT`` (a reconciliation wrapper around another model, not a module), ``SOFTSSharp`` (SOFTS
with a positional-encoding dropout; SOFTS is in), ``DilatedRNN(cell_type="AttentiveLSTM")``
(fails eagerly in 3.3.0: ``AttentiveLSTMLayer.forward`` concatenates the ``(h, c)`` tuple it is
handed as a tensor), the Lightning
``fit`` / ``predict`` loops, and the whole ``training_step`` (pandas ``Index.get_loc`` window
bookkeeping, ``self.log``, ``loss.item()``), which a user does not compile.
"""

import functools

PACKAGE = "neuralforecast"

_H, _L = 4, 12  # horizon, input size
_N, _T = 4, 40  # series, length
_W = 8  # windows in a batch
_FUTR, _HIST, _STAT = ["f1", "f2"], ["h1"], ["s1", "s2"]

_RAY = ("ray", "ray.air", "ray.tune", "ray.tune.integration", "ray.tune.integration.pytorch_lightning",
        "ray.tune.search", "ray.tune.search.basic_variant")


def before_build():
    import sys

    if "ray" in sys.modules and getattr(sys.modules["ray"], "__file__", None) is not None:
        return
    stub_modules({name: ((), ()) for name in _RAY}, "neuralforecast")
    stub_modules({"ray.tune.integration.pytorch_lightning": ((), ("TuneReportCallback",))}, "neuralforecast")
    bvg = sys.modules["ray.tune.search.basic_variant"]
    if not hasattr(bvg, "BasicVariantGenerator"):
        class BasicVariantGenerator:  # built as a default argument of BaseAuto.__init__
            def __init__(self, *args, **kwargs):
                pass

        bvg.BasicVariantGenerator = BasicVariantGenerator


def warm_up():
    before_build()
    import pandas  # noqa: F401
    import pytorch_lightning  # noqa: F401
    import torch  # noqa: F401

    import neuralforecast.models  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

@functools.cache
def _frames():
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    ds = pd.date_range("2024-01-01", periods=_T, freq="D")
    rows = []
    for i in range(_N):
        level = rng.uniform(5, 20)
        y = level + 2 * np.sin(2 * np.pi * np.arange(_T) / 7 + i) + rng.normal(0, 0.5, _T)
        rows.append(pd.DataFrame({
            "unique_id": f"s{i}", "ds": ds, "y": y.astype("float32"),
            "f1": (ds.dayofweek.values / 6.0).astype("float32"),
            "f2": np.cos(2 * np.pi * np.arange(_T) / 7).astype("float32"),
            "h1": rng.normal(0, 1, _T).astype("float32"),
        }))
    df = pd.concat(rows, ignore_index=True)
    static = pd.DataFrame({"unique_id": [f"s{i}" for i in range(_N)],
                           "s1": rng.normal(0, 1, _N), "s2": (np.arange(_N) % 2).astype(float)})
    return df, static


def _batch():
    """One ``TimeSeriesLoader`` batch of all series (what the Lightning loop hands ``training_step``)."""
    from neuralforecast.tsdataset import TimeSeriesDataset, TimeSeriesLoader

    df, static = _frames()
    dataset, *_ = TimeSeriesDataset.from_df(df, static_df=static)
    return next(iter(TimeSeriesLoader(dataset, batch_size=_N, shuffle=False)))


def _windows(net):
    """``training_step``'s windows, up to the ``windows_batch`` (and the loss's targets)."""
    import torch

    batch = _batch()
    y_idx = batch["y_idx"]
    if net.RECURRENT:
        net.h = net.h_train
    temporal, static, static_cols, cond, sample_weight, temporal_cols = net._create_windows(batch, step="train")
    n = len(cond)
    w_idxs = torch.arange(0, n, max(1, n // _W))[:_W]
    windows = net._sample_windows(
        windows_temporal=temporal, static=static, static_cols=static_cols, temporal_cols=temporal_cols,
        w_idxs=w_idxs, final_condition=cond, sample_weight=sample_weight,
    )
    original_outsample_y = torch.clone(windows["temporal"][:, net.input_size:, y_idx])
    windows = net._normalization(windows=windows, y_idx=y_idx)
    insample_y, insample_mask, outsample_y, outsample_mask, hist_exog, futr_exog, stat_exog = (
        net._parse_windows(batch, windows))
    y_loc, y_scale = net._get_loc_scale(y_idx)
    windows_batch = dict(insample_y=insample_y, insample_mask=insample_mask, futr_exog=futr_exog,
                         hist_exog=hist_exog, stat_exog=stat_exog)
    if net.loss.is_distribution_output:
        outsample_y = original_outsample_y
    return windows_batch, outsample_y, outsample_mask, y_loc, y_scale


# --- the training step --------------------------------------------------------------------------

@functools.cache
def _train_step():
    from torch import nn

    class TrainStep(nn.Module):
        """``BaseModel.training_step`` from the model's forward to its loss."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, windows_batch, outsample_y, outsample_mask, y_loc, y_scale):
            net = self.net
            output = net(windows_batch)
            output = net.loss.domain_map(output)
            if net.loss.is_distribution_output:
                distr_args = net.loss.scale_decouple(output=output, loc=y_loc, scale=y_scale)
                return net.loss(y=outsample_y, distr_args=distr_args, mask=outsample_mask)
            return net.loss(y=outsample_y, y_hat=output, y_insample=windows_batch["insample_y"],
                            mask=outsample_mask)

    return TrainStep


def _model(cls_name, exog=False, losses=None, **kwargs):
    """A factory: ``cls_name`` from ``neuralforecast.models`` with ``kwargs`` (``exog``: the
    future / historic / static columns, where the model takes them)."""

    def make(mode):
        import neuralforecast.models as models

        cls = getattr(models, cls_name)
        params = dict(h=_H, input_size=_L, max_steps=1, random_seed=1, enable_progress_bar=False,
                      logger=False, enable_checkpointing=False)
        if cls.MULTIVARIATE:
            params["n_series"] = _N
        if exog:
            if cls.EXOGENOUS_FUTR:
                params["futr_exog_list"] = _FUTR
            if cls.EXOGENOUS_HIST:
                params["hist_exog_list"] = _HIST
            if cls.EXOGENOUS_STAT:
                params["stat_exog_list"] = _STAT
        params.update(kwargs)
        if losses is not None:
            params.update(losses())
        net = cls(**params)
        windows_batch, outsample_y, outsample_mask, y_loc, y_scale = _windows(net)
        if mode == "train":
            return _train_step()(net), (windows_batch, outsample_y, outsample_mask, y_loc, y_scale), {}
        if net.RECURRENT:  # the first step of _validate_step_recurrent_batch
            net.rnn_state = None
            net.maintain_state = True
            net.h = 1
            size = net.input_size
            windows_batch = {k: (v[:, :size] if k in ("insample_y", "insample_mask", "hist_exog", "futr_exog")
                                 and v is not None else v) for k, v in windows_batch.items()}
        return net, (windows_batch,), {}

    return make


def _mq():
    from neuralforecast.losses.pytorch import MQLoss

    return dict(loss=MQLoss(level=[80, 90]))


def _huber_mq():
    from neuralforecast.losses.pytorch import HuberMQLoss

    return dict(loss=HuberMQLoss(quantiles=[0.1, 0.5, 0.9]))


def _normal():
    from neuralforecast.losses.pytorch import DistributionLoss, MQLoss

    return dict(loss=DistributionLoss(distribution="Normal", level=[80, 90]), valid_loss=MQLoss(level=[80, 90]))


def _student():
    from neuralforecast.losses.pytorch import DistributionLoss

    return dict(loss=DistributionLoss(distribution="StudentT", level=[80]))


def _gmm():
    from neuralforecast.losses.pytorch import GMM

    return dict(loss=GMM(n_components=2, level=[80]))


def _pmm():
    from neuralforecast.losses.pytorch import PMM

    return dict(loss=PMM(n_components=2, level=[80]))


def _mse():
    from neuralforecast.losses.pytorch import MSE

    return dict(loss=MSE())


def _huber():
    from neuralforecast.losses.pytorch import HuberLoss

    return dict(loss=HuberLoss())


MODELS = {
    # MLP-based
    "MLP": _model("MLP", exog=True, num_layers=2, hidden_size=16),
    "NHITS": _model("NHITS", exog=True, mlp_units=3 * [[16, 16]], n_pool_kernel_size=[2, 2, 1],
                    n_freq_downsample=[2, 1, 1], scaler_type="robust"),
    "NHITS_avgpool_GMM": _model("NHITS", mlp_units=3 * [[16, 16]], pooling_mode="AvgPool1d",
                                interpolation_mode="nearest", dropout_prob_theta=0.1, losses=_gmm),
    "NBEATS": _model("NBEATS", mlp_units=3 * [[16, 16]], scaler_type="standard"),
    "NBEATS_generic_shared": _model("NBEATS", stack_types=["identity", "identity"], n_blocks=[2, 1],
                                    mlp_units=2 * [[16, 16]], shared_weights=True, losses=_huber_mq),
    "NBEATSx": _model("NBEATSx", exog=True, mlp_units=3 * [[16, 16]]),
    "MLPMultivariate": _model("MLPMultivariate", exog=True, num_layers=2, hidden_size=16),
    "TiDE": _model("TiDE", exog=True, hidden_size=16, decoder_output_dim=4, temporal_decoder_dim=8),
    "DeepNPTS": _model("DeepNPTS", exog=True, hidden_size=8, n_layers=2),
    "KAN": _model("KAN", exog=True, hidden_size=8, grid_size=4),
    "DLinear": _model("DLinear", moving_avg_window=5),
    "NLinear": _model("NLinear", losses=_mse),
    # recurrent / convolutional
    "LSTM": _model("LSTM", exog=True, encoder_hidden_size=8, decoder_hidden_size=8),
    "LSTM_recurrent": _model("LSTM", exog=True, encoder_hidden_size=8, decoder_hidden_size=8, recurrent=True),
    "GRU": _model("GRU", exog=True, encoder_hidden_size=8, decoder_hidden_size=8, losses=_mq),
    "RNN_recurrent": _model("RNN", encoder_hidden_size=8, decoder_hidden_size=8, recurrent=True),
    "TCN": _model("TCN", exog=True, dilations=[1, 2, 4], encoder_hidden_size=8, decoder_hidden_size=8),
    "BiTCN": _model("BiTCN", exog=True, hidden_size=8),
    "DilatedRNN": _model("DilatedRNN", exog=True, encoder_hidden_size=8, decoder_hidden_size=8),
    "DilatedRNN_ResLSTM": _model("DilatedRNN", cell_type="ResLSTM", dilations=[[1, 2]],
                                 encoder_hidden_size=8, decoder_hidden_size=8),
    "DeepAR": _model("DeepAR", lstm_hidden_size=8, lstm_n_layers=2, losses=_normal),
    "DeepAR_StudentT_exog": _model("DeepAR", exog=True, lstm_hidden_size=8, decoder_hidden_layers=1,
                                   decoder_hidden_size=8, losses=_student),
    "xLSTM": _model("xLSTM", encoder_hidden_size=8, encoder_n_blocks=1, decoder_hidden_size=8),
    # transformers
    "TFT": _model("TFT", exog=True, hidden_size=8, n_head=2),
    "TFT_gru_StudentT": _model("TFT", hidden_size=8, n_head=2, rnn_type="gru", losses=_student),
    "PatchTST": _model("PatchTST", encoder_layers=1, n_heads=2, hidden_size=8, linear_hidden_size=16,
                       patch_len=4, stride=2),
    "VanillaTransformer": _model("VanillaTransformer", exog=True, hidden_size=8, n_head=2,
                                 conv_hidden_size=8, encoder_layers=1),
    "Informer": _model("Informer", exog=True, hidden_size=8, n_head=2, conv_hidden_size=8),
    "Autoformer": _model("Autoformer", exog=True, hidden_size=8, n_head=2, conv_hidden_size=8,
                         MovingAvg_window=5),
    "FEDformer": _model("FEDformer", exog=True, hidden_size=8, modes=4, conv_hidden_size=8,
                        MovingAvg_window=5),
    "TimesNet": _model("TimesNet", exog=True, hidden_size=8, conv_hidden_size=8, top_k=2, num_kernels=2,
                       encoder_layers=1),
    # multivariate
    "iTransformer": _model("iTransformer", hidden_size=8, n_heads=2, e_layers=1, d_ff=16),
    "TSMixer": _model("TSMixer", n_block=2, ff_dim=8, dropout=0.1),
    "TSMixerx": _model("TSMixerx", exog=True, n_block=2, ff_dim=8, losses=_pmm),
    "SOFTS": _model("SOFTS", hidden_size=8, d_core=8, e_layers=1, d_ff=16),
    "TimeMixer": _model("TimeMixer", d_model=8, d_ff=8, e_layers=1, top_k=2, moving_avg=5,
                        down_sampling_layers=1),
    "StemGNN": _model("StemGNN", n_stacks=2, multi_layer=2, losses=_huber),
    "RMoK": _model("RMoK", taylor_order=2, jacobi_degree=3),
    "TimeXer": _model("TimeXer", exog=True, patch_len=4, hidden_size=8, n_heads=2, e_layers=1, d_ff=16),
    "XLinear": _model("XLinear", exog=True, hidden_size=8, temporal_ff=16, channel_ff=4),
}
