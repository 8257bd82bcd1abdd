"""neuralhydrology 1.13.0: the rainfall-runoff models of ``neuralhydrology.modelzoo``, each built as
a user builds one, through ``get_model(Config({...}))`` from a run configuration (the keys of the
library's test configs, ``test/test_configs/*.test.yml``, cut to tiny sizes: hidden size 8, batch 4,
sequences of 12 daily steps / 8 daily + 48 hourly steps, ``predict_last_n`` 4), random weights, no
download, no dataset on disk.

Data: the batch dict a ``BaseDataset`` / its ``collate_fn`` hands the trainer, made of random
tensors with the dataset's layout: ``x_d`` (``{feature: [B, T, 1]}``; with ``hindcast_inputs`` /
``forecast_inputs``: ``x_d_hindcast`` over ``seq_length - forecast_seq_length (+ overlap)`` steps and
``x_d_forecast`` over ``forecast_seq_length`` steps, ``x_d`` empty), ``x_s`` ``[B, n_static]``, ``y``
``[B, T, n_targets]`` (a few NaN targets in one model), ``per_basin_target_stds`` ``[B, 1,
n_targets]`` for the NSE loss, ``x_one_hot`` with ``use_basin_id_encoding``; multi-frequency models
get ``x_d_1D`` / ``x_d_1h``, ``x_s_1D`` / ``x_s_1h``, ``y_1D`` / ``y_1h`` as the dataset suffixes them.
The ``date`` arrays (numpy datetime64, only read by the tester outside the model) are left out.

Eval: ``Predict(model)(data)``: what ``BaseTester.evaluate`` runs per batch, ``model.pre_model_hook(data,
is_train=False)`` then ``model(data)`` (the loss and the numpy conversion after it left out). Train: ``TrainStep(model, loss_obj)``:
``BaseTrainer._train_epoch`` from the batch to the loss: ``model.pre_model_hook(data,
is_train=True)`` (UMAL: ``umal_extend_batch``), ``model(data)``, ``loss_obj(predictions, data)``
(``get_loss_obj(cfg)`` with ``set_regularization_terms(get_regularization_obj(cfg))``: MSE, RMSE, NSE,
GMMLoss, CMALLoss, UMALLoss; ``tie_frequencies`` / ``forecast_overlap`` regularization), returning
``total_loss``. The batch dict is copied one level deep first, as the trainer gets a fresh batch from
its loader each step (``umal_extend_batch`` adds ``_tau`` to ``x_d`` in place and asserts it is new).
Left out of the step: the NaN-loss check, ``backward``, gradient clipping, the optimizer step and the
``.item()`` logging.
Uncertainty sampling (``BaseModel.sample`` -> ``sample_pointpredictions``, as ``UncertaintyTester``
calls it, with a scaler dict of small ``xarray`` Datasets in place of ``load_scaler(run_dir)``): eval
only (inference; the train factories raise).

Models (43; 38 with a training step):
- ``CudaLSTM``: MSE; NSE; two targets with RMSE and ``target_loss_weights``; statics / dynamics FC
  embeddings; basin one-hot encoding; relu / softplus output activation; NaN targets; GMM, CMAL and
  UMAL heads with their losses; feature groups with each ``nan_handling_method`` (``masked_mean`` with
  positional encoding, ``input_replacing``, ``attention``) on inputs with NaN;
- ``EmbCudaLSTM`` (statics embedding; basin one-hot with a CMAL head), ``CustomLSTM`` (statics
  embedding; and ``copy_weights`` from a CudaLSTM),
  ``EALSTM`` (plain; with a dynamics embedding), ``GRU``, ``ARLSTM`` (lagged target with NaN gaps),
  ``MCLSTM`` (precipitation as mass input), ``Transformer`` (``sum`` and ``concatenate`` positional
  encodings), ``XLSTM`` (mLSTM + sLSTM blocks, the ``vanilla`` sLSTM backend on CPU);
- multi-timescale (1D + 1h): ``MTSLSTM`` (``tie_frequencies`` regularization; per-frequency inputs and
  hidden sizes with embeddings and NSE; UMAL head), shared ``sMTS-LSTM`` with identity state transfer,
  ``ODELSTM`` (euler; rk4 with a statics embedding);
- forecast: ``HandoffForecastLSTM`` (overlap, ``forecast_overlap`` regularization; no overlap, NSE),
  ``MultiHeadForecastLSTM``, ``SequentialForecastLSTM``, ``StackedForecastLSTM``
  (bidirectional hindcast);
- ``HybridModel`` (LSTM -> SHM conceptual model, warm-up period);
- sampling (eval only): GMM (clip negatives; with MC dropout), CMAL (truncate negatives: resampling
  loop), UMAL (``predict_last_n=1`` as in the library's test configs: ``sample_umal`` fails eagerly
  in 1.13.0 for a longer ``predict_last_n``, a shape mismatch writing ``sample_points``), MC dropout on
  the regression head.
Config values the trainer fills in itself are given here: ``number_of_basins`` (``BaseTrainer`` sets it
from the basin list; the MTS-LSTM's embedding configs read it).

    pip install --no-deps neuralhydrology==1.13.0

(its other declared dependencies were already installed: numpy, pandas, scipy, xarray, numba,
ruamel.yaml, tqdm, matplotlib, h5py, tensorboard; xlstm 2.0.6, already installed, for ``XLSTM``.
``netCDF4`` is declared but not installed: no module imports it, xarray needs it only to read the
datasets' netCDF files, none read here.) Nothing stubbed.

Left out: ``Mamba`` (needs ``mamba_ssm``, CUDA kernels only); ``timestep_counter`` on the forecast
models (fails eagerly in 1.13.0: ``InputLayer`` adds a second, wider feature group for
``forecast_counter`` (``+=`` where the hindcast branch assigns), so the embedding sizes disagree);
ODE-LSTM with a mixture head (its forward reads ``y_hat``, regression only); the datasets (CAMELS
files on disk), the ``Trainer`` / ``Tester`` loops (data loading, logging, metrics, plotting), ``nh_run``, fine-tuning.
"""

import functools

PACKAGE = "neuralhydrology"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4  # batch
_T = 12  # daily sequence length
_LAST = 4  # predict_last_n
_DYN = ["prcp(mm/day)", "tmax(C)", "srad(W/m2)"]
_STAT = ["elev_mean", "slope_mean"]
_TARGET = ["QObs(mm/d)"]


def warm_up():
    import torch  # noqa: F401

    import neuralhydrology.modelzoo  # noqa: F401
    import neuralhydrology.training  # noqa: F401
    import neuralhydrology.utils.samplingutils  # noqa: F401


# --- config and data ----------------------------------------------------------------------------

def _config(**overrides):
    from neuralhydrology.utils.config import Config

    cfg = dict(model="cudalstm", head="regression", output_activation="linear", hidden_size=8,
               initial_forget_bias=3, output_dropout=0.2, optimizer="Adam", loss="MSE", batch_size=_B,
               predict_last_n=_LAST, seq_length=_T, dynamic_inputs=list(_DYN), static_attributes=list(_STAT),
               target_variables=list(_TARGET), seed=111, device="cpu",
               number_of_basins=_B)  # set by BaseTrainer from the basin list
    cfg.update(overrides)
    cfg = {k: v for k, v in cfg.items() if v is not None}
    return Config(cfg)


def _flat(groups):
    if not groups:
        return []
    if isinstance(groups, dict):
        groups = [f for v in groups.values() for f in (v if isinstance(v[0], str) else sum(v, []))]
        return groups
    if isinstance(groups[0], str):
        return list(groups)
    return [f for g in groups for f in g]


def _batch(cfg, nan_inputs=False, nan_targets=False):
    """A batch with the layout ``BaseDataset.__getitem__`` + ``collate_fn`` give (random values)."""
    import torch

    freqs = cfg.use_frequencies if len(cfg.use_frequencies) > 1 else [""]
    seq = cfg.seq_length
    data = {}
    n_t = len(cfg.target_variables)
    for freq in freqs:
        sfx = f"_{freq}" if freq else ""
        t = seq[freq] if isinstance(seq, dict) else seq
        dyn = _flat(cfg.dynamic_inputs[freq] if isinstance(cfg.dynamic_inputs, dict) else cfg.dynamic_inputs) \
            if not cfg.hindcast_inputs else []
        extra = list(cfg.mass_inputs) + list(cfg.autoregressive_inputs) + list(cfg.dynamic_conceptual_inputs)
        x_d = {}
        for k in dict.fromkeys(dyn + extra):
            v = torch.randn(_B, t, 1)
            if k in cfg.mass_inputs or k in cfg.dynamic_conceptual_inputs:
                v = v.abs() * 2.0
            if k in cfg.autoregressive_inputs:
                v[:, 3:6] = float("nan")  # holdout gaps the AR-LSTM fills with its own predictions
            if nan_inputs and k == dyn[0]:
                v[0, 2:5] = float("nan")
                v[1, :, :] = float("nan")
            x_d[k] = v
        data[f"x_d{sfx}"] = x_d
        if cfg.hindcast_inputs:
            overlap = cfg.forecast_overlap or 0
            th = t - cfg.forecast_seq_length + overlap
            data[f"x_d{sfx}_hindcast"] = {k: torch.randn(_B, th, 1) for k in _flat(cfg.hindcast_inputs)}
            data[f"x_d{sfx}_forecast"] = {k: torch.randn(_B, cfg.forecast_seq_length, 1)
                                          for k in _flat(cfg.forecast_inputs)}
            if cfg.timestep_counter:
                # BaseDataset puts its counters in x_d (a [T, 1] tensor per sample, stacked by collate_fn)
                data[f"x_d{sfx}_hindcast"]["hindcast_counter"] = torch.linspace(0, 1, th).view(1, th, 1).repeat(_B, 1, 1)
                data[f"x_d{sfx}_forecast"]["forecast_counter"] = (
                    torch.linspace(0, 1, cfg.forecast_seq_length).view(1, -1, 1).repeat(_B, 1, 1))
        y = torch.rand(_B, t, n_t)
        if nan_targets:
            y[0, -2:, 0] = float("nan")
            y[2, -1, :] = float("nan")
        data[f"y{sfx}"] = y
        if cfg.static_attributes:
            data[f"x_s{sfx}"] = torch.randn(_B, len(cfg.static_attributes))
    if cfg.loss.lower() == "nse":
        data["per_basin_target_stds"] = torch.rand(_B, 1, n_t) + 0.5
    if cfg.use_basin_id_encoding:
        data["x_one_hot"] = torch.nn.functional.one_hot(torch.arange(_B) % cfg.number_of_basins,
                                                        num_classes=cfg.number_of_basins).float()
    return data


def _copy_batch(data):
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}


# --- the training step / the sampler ------------------------------------------------------------

@functools.cache
def _train_step():
    import torch

    class TrainStep(torch.nn.Module):
        """``BaseTrainer._train_epoch``'s step, from the batch to ``total_loss``."""

        def __init__(self, model, loss_obj):
            super().__init__()
            self.model = model
            self.loss_obj = loss_obj
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, data):
            data = _copy_batch(data)  # the loader's fresh batch
            data = self.model.pre_model_hook(data, is_train=True)
            predictions = self.model(data)
            loss, all_losses = self.loss_obj(predictions, data)
            return loss

    return TrainStep


@functools.cache
def _predict():
    import torch

    class Predict(torch.nn.Module):
        """``BaseTester.evaluate``'s per-batch call: ``pre_model_hook(data, is_train=False)``, ``model(data)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, data):
            data = _copy_batch(data)
            data = self.model.pre_model_hook(data, is_train=False)
            return self.model(data)

    return Predict


@functools.cache
def _sampler():
    import torch

    class Sample(torch.nn.Module):
        """``UncertaintyTester._get_predictions_and_loss``'s ``model.sample(data, n_samples)``."""

        def __init__(self, model, scaler, n_samples):
            super().__init__()
            self.model = model
            self.scaler = scaler
            self.n_samples = n_samples
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, data):
            from neuralhydrology.utils.samplingutils import sample_pointpredictions

            data = _copy_batch(data)
            data = self.model.pre_model_hook(data, is_train=False)  # the tester's call before model.sample
            return sample_pointpredictions(self.model, data, self.n_samples, self.scaler)

    return Sample


def _scaler(cfg):
    import xarray as xr

    center = xr.Dataset({t: ((), 1.5) for t in cfg.target_variables})
    scale = xr.Dataset({t: ((), 2.0) for t in cfg.target_variables})
    return {"xarray_feature_center": center, "xarray_feature_scale": scale}


def _model(nan_inputs=False, nan_targets=False, post=None, **overrides):
    """A factory: ``get_model(cfg)`` for the config ``overrides``; train: its ``TrainStep``."""

    def make(mode):
        from neuralhydrology.modelzoo import get_model
        from neuralhydrology.training import get_loss_obj, get_regularization_obj

        cfg = _config(**overrides)
        model = get_model(cfg)
        if post is not None:
            post(model, cfg)
        data = _batch(cfg, nan_inputs=nan_inputs, nan_targets=nan_targets)
        if mode == "eval":
            return _predict()(model), (data,), {}
        loss_obj = get_loss_obj(cfg)
        loss_obj.set_regularization_terms(get_regularization_obj(cfg))
        return _train_step()(model, loss_obj), (data,), {}

    return make


def _sample(n_samples=5, **overrides):
    """Eval only: ``sample_pointpredictions`` (``BaseModel.sample``) with a scaler in memory."""

    def make(mode):
        if mode == "train":
            raise ValueError("sampling is inference only (UncertaintyTester); no training step")
        from neuralhydrology.modelzoo import get_model

        cfg = _config(**overrides)
        model = get_model(cfg)
        return _sampler()(model, _scaler(cfg), n_samples), (_batch(cfg),), {}

    return make


def _copy_from_cudalstm(model, cfg):
    """``CustomLSTM.copy_weights``: the test's use, weights of a trained CudaLSTM into the custom one."""
    from neuralhydrology.modelzoo.cudalstm import CudaLSTM

    model.copy_weights(CudaLSTM(cfg))


_EMB = {"type": "fc", "hiddens": [6, 8], "activation": "tanh", "dropout": 0.1}
_GROUPS = [["prcp(mm/day)", "tmax(C)"], ["prcp_nldas", "tmax_nldas"], ["srad(W/m2)", "tmax(C)"]]
_MTS = dict(use_frequencies=["1D", "1h"], seq_length={"1D": 8, "1h": 48}, predict_last_n={"1D": 2, "1h": 24},
            dynamic_inputs=["prcp(mm/day)", "tmax(C)"], target_variables=["qobs_mm_per_hour"])
_FC = dict(forecast_inputs=["prcp_fc", "tmax_fc"], hindcast_inputs=["prcp(mm/day)", "tmax(C)", "QObs_obs"],
           forecast_seq_length=4, dynamic_inputs=None, seq_length=_T, predict_last_n=4)
_GMM = dict(head="gmm", loss="GMMLoss", n_distributions=3)
_CMAL = dict(head="cmal", loss="CMALLoss", n_distributions=3)
_UMAL = dict(head="umal", loss="UMALLoss", n_taus=3, tau_down=0.01, tau_up=0.99)

MODELS = {
    # CudaLSTM: losses, heads, embeddings, NaN handling
    "CudaLSTM": _model(),
    "CudaLSTM_NSE": _model(loss="NSE"),
    "CudaLSTM_two_targets_RMSE": _model(loss="RMSE", target_variables=["QObs(mm/d)", "swe(mm)"],
                                        target_loss_weights=[0.7, 0.3]),
    "CudaLSTM_embeddings": _model(statics_embedding=_EMB, dynamics_embedding=_EMB),
    "CudaLSTM_basin_one_hot": _model(use_basin_id_encoding=True, static_attributes=None),
    "CudaLSTM_relu_output": _model(output_activation="relu"),
    "CudaLSTM_softplus_output": _model(output_activation="softplus", loss="NSE"),
    "CudaLSTM_nan_targets": _model(nan_targets=True),
    "CudaLSTM_GMM": _model(**_GMM),
    "CudaLSTM_CMAL": _model(**_CMAL),
    "CudaLSTM_UMAL": _model(**_UMAL),
    "CudaLSTM_masked_mean": _model(nan_inputs=True, dynamic_inputs=_GROUPS, nan_handling_method="masked_mean",
                                   nan_handling_pos_encoding_size=4, dynamics_embedding=_EMB),
    "CudaLSTM_input_replacing": _model(nan_inputs=True, dynamic_inputs=_GROUPS,
                                       nan_handling_method="input_replacing", dynamics_embedding=_EMB),
    "CudaLSTM_attention": _model(nan_inputs=True, dynamic_inputs=_GROUPS, nan_handling_method="attention",
                                 dynamics_embedding=_EMB, statics_embedding=_EMB),
    # the other single-timescale models
    "EmbCudaLSTM": _model(model="embcudalstm", statics_embedding=_EMB),
    "CustomLSTM": _model(model="customlstm", statics_embedding=_EMB),
    "CustomLSTM_copy_weights": _model(model="customlstm", post=_copy_from_cudalstm),
    "EmbCudaLSTM_one_hot": _model(model="embcudalstm", use_basin_id_encoding=True,
                                  statics_embedding=_EMB, **_CMAL),
    "EALSTM": _model(model="ealstm"),
    "EALSTM_dynamics_embedding": _model(model="ealstm", dynamics_embedding=_EMB, statics_embedding=_EMB),
    "GRU": _model(model="gru", loss="NSE"),
    "ARLSTM": _model(model="arlstm", lagged_features={"QObs(mm/d)": [1]},
                     autoregressive_inputs=["QObs(mm/d)_shift1"]),
    "MCLSTM": _model(model="mclstm", mass_inputs=["prcp_mass(mm/day)"], dynamic_inputs=["tmax(C)", "srad(W/m2)"]),
    "Transformer": _model(model="transformer", transformer_nheads=2, transformer_positional_encoding_type="sum",
                          transformer_dim_feedforward=5, transformer_nlayers=2, transformer_dropout=0.1,
                          transformer_positional_dropout=0.1, dynamics_embedding=_EMB, statics_embedding=None,
                          static_attributes=None),
    "Transformer_concatenate": _model(model="transformer", transformer_nheads=5,
                                      transformer_positional_encoding_type="concatenate",
                                      transformer_dim_feedforward=8, transformer_nlayers=1, transformer_dropout=0.0,
                                      transformer_positional_dropout=0.0),
    "XLSTM": _model(model="x_lstm", xlstm_heads=2, xlstm_kernel_size=2, xlstm_num_blocks=2,
                    xlstm_proj_factor=1.3, xlstm_slstm_at=[1]),
    # multi-timescale
    "MTSLSTM": _model(model="mtslstm", regularization=["tie_frequencies"], **_MTS),
    "sMTSLSTM_shared": _model(model="mtslstm", shared_mtslstm=True,
                              transfer_mtslstm_states={"h": "identity", "c": "identity"}, **_MTS),
    "MTSLSTM_per_frequency": _model(model="mtslstm", hidden_size={"1D": 8, "1h": 6}, statics_embedding=_EMB,
                                    dynamics_embedding=_EMB, loss="NSE",
                                    **dict(_MTS, dynamic_inputs={"1D": ["prcp(mm/day)", "tmax(C)"],
                                                                 "1h": ["prcp_h", "tmax_h", "srad_h"]})),
    "MTSLSTM_UMAL": _model(model="mtslstm", **_UMAL, **_MTS),
    "ODELSTM": _model(model="odelstm", ode_method="euler", ode_num_unfolds=4, ode_random_freq_lower_bound="2D",
                      **_MTS),
    "ODELSTM_rk4": _model(model="odelstm", ode_method="rk4", ode_num_unfolds=2, ode_random_freq_lower_bound="2D",
                          statics_embedding=_EMB, **_MTS),
    # forecast models
    "HandoffForecastLSTM": _model(model="handoff_forecast_lstm", forecast_overlap=2,
                                  regularization=["forecast_overlap"],
                                  state_handoff_network={"type": "fc", "hiddens": [8], "activation": "tanh",
                                                         "dropout": 0.0},
                                  hindcast_hidden_size=8, forecast_hidden_size=6, **_FC),
    "HandoffForecastLSTM_no_overlap": _model(model="handoff_forecast_lstm", loss="NSE",
                                             state_handoff_network=_EMB, statics_embedding=_EMB, **_FC),
    "MultiHeadForecastLSTM": _model(model="multihead_forecast_lstm",
                                    forecast_network={"type": "fc", "hiddens": [8, 8], "activation": "tanh",
                                                      "dropout": 0.0}, **_FC),
    "SequentialForecastLSTM": _model(model="sequential_forecast_lstm",
                                     **dict(_FC, forecast_inputs=["prcp_fc", "tmax_fc", "srad_fc"])),
    "StackedForecastLSTM": _model(model="stacked_forecast_lstm", bidirectional_stacked_forecast_lstm=True,
                                  hindcast_hidden_size=6, forecast_hidden_size=8,
                                  **dict(_FC, forecast_overlap=_T - 8, forecast_seq_length=_T - 4)),
    # hybrid
    "HybridModel_SHM": _model(model="hybrid_model", conceptual_model="SHM", warmup_period=4,
                              dynamic_conceptual_inputs=["prcp_shm", "pet_shm", "tmax_shm", "tmin_shm"],
                              custom_normalization={k: {"centering": None, "scaling": None}
                                                    for k in ["prcp_shm", "pet_shm", "tmax_shm", "tmin_shm", "QObs(mm/d)"]},
                              head="regression"),
    # uncertainty sampling (eval only)
    "sample_GMM_clip": _sample(negative_sample_handling="clip", **_GMM),
    "sample_CMAL_truncate": _sample(negative_sample_handling="truncate", negative_sample_max_retries=3, **_CMAL),
    "sample_UMAL": _sample(negative_sample_handling="none", predict_last_n=1, **_UMAL),
    "sample_GMM_mc_dropout": _sample(mc_dropout=True, negative_sample_handling="none", **_GMM),
    "sample_MCD": _sample(mc_dropout=True, negative_sample_handling="clip", output_dropout=0.3),
}
