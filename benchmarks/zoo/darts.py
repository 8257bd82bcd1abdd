"""darts (unit8) 0.48.1: its torch forecasting models (``darts.models``), tiny configs, random
weights, no download, built and fed through the library's own ``fit`` set-up path.

Data: one daily ``TimeSeries`` of 30 float32 points (target; 2 numeric static covariates), a
2-component past covariate and a 2-component future covariate series over the same 30 days;
likelihood models get a target in their support (positive, counts, 0/1, (0, 1), or a
3-component simplex for Dirichlet). ``input_chunk_length`` 6, ``output_chunk_length`` 2
(``RNNModel``: ``training_length`` 8; foundation models 14-16 / 2-7, within their tiny
context), hidden widths 8, one layer / block / stack where the model has them.

Build (as ``TorchForecastingModel.fit`` does, without ``trainer.fit``):
``model._setup_for_fit_from_dataset(series, past_covariates, future_covariates, sample_weight)``
(encoders, static-covariate checks, the model's own ``TorchTrainingDataset``) then
``model._setup_for_train(**params)``, which calls ``_init_model`` -> the model's
``_create_model(train_sample)`` (the ``PLForecastingModule``), sets the loss reduction for
sample weights and makes the Lightning ``Trainer`` (not run). A batch of 4 is the first 4
samples of the training dataset through darts' ``_batch_collate_fn_train`` (a
``TorchTrainingBatch``).

Eval: ``module(PLModuleInput)`` with ``stage=PREDICT`` and no ``future_target``, as
``_get_batch_prediction`` builds it for the first forecast chunk (its forward, with the
``io_processor`` reversible-instance-norm wrapper). Train: ``TrainStep(module)(**batch fields)``,
``PLForecastingModule._train_val_step`` without ``self.log`` and the (empty) torchmetrics
update: ``TorchTrainingBatch(...)`` -> ``module(batch.to_module_input(stage=TRAIN))`` ->
``module._compute_loss(output, future_target, module.train_criterion, sample_weight)`` (the
likelihood's ``compute_loss`` or the criterion, MSE by default).

Models (45; covariates = past / future / static where named):
- recurrent: ``RNNModel`` (LSTM + future covariates; GRU + Gaussian; LSTM + future covariates +
  quantiles), ``BlockRNNModel`` (LSTM + past / static covariates + fc head; GRU + Laplace +
  dropout; LSTM + reversible instance norm; GRU + Bernoulli on a 0/1 target);
- MLP stacks: ``NBEATSModel`` (generic + past covariates; interpretable + L1 loss; Gaussian +
  reversible instance norm; Gamma), ``NHiTSModel`` (past covariates; AvgPool + Gaussian with a
  prior; LogNormal);
- convolutional: ``TCNModel`` (past covariates; weight norm + Cauchy; 2 layers + dropout + Gumbel);
- attention: ``TransformerModel`` (past covariates; SwiGLU + LayerNormNoBias; GEGLU + RMSNorm +
  Gaussian), ``TFTModel`` (all covariates, default quantile loss; no covariates +
  add_relative_index + MSE; full attention + GEGLU + RMSNorm + a categorical static covariate
  with ``categorical_embedding_sizes``; future covariates + Gaussian + skip_interpolation);
- linear: ``DLinearModel`` (all covariates; shared weights; Poisson on counts), ``NLinearModel``
  (all covariates; linear sample weights; ContinuousBernoulli, unnormalised);
- MLP encoder-decoder / mixer: ``TiDEModel`` (all covariates + reversible instance norm; layer
  norm + NegativeBinomial on counts; future covariates + temporal_width 0 + Beta on (0, 1); past
  covariates + exponential sample weights + ``add_encoders`` (cyclic month, day of week);
  Dirichlet on a 3-component simplex), ``TSMixerModel`` (all covariates; TimeBatchNorm2d +
  normalize_before + quantiles; LayerNormNoBias + GELU + Exponential);
- ``GlobalNaiveAggregate`` / ``GlobalNaiveDrift`` / ``GlobalNaiveSeasonal``: eval only (no
  parameters; the model skips training, so their train factory raises);
- foundation models, fine-tuning (``enable_finetuning=True``), random weights:
  ``Chronos2Model`` (all covariates) and ``PatchTSTFMModel`` with the darts tests' tiny
  ``config.json`` (``darts/tests/models/forecasting/artefacts/*``), ``TimesFM3Model`` (all
  covariates) with a tiny config.json written here (the released layout cut to width 8, one
  layer), ``TimesFM2p5Model`` with the tests' tiny architecture (``timesfm2p5_tiny_context``:
  TimesFM 2.5 ignores config.json and builds ``_TimesFM2p5_200M_Definition()``; the adapter
  puts the tiny definition on ``_TimesFM2p5Module.config`` and in place of that constructor, as
  the tests patch it). Each gets a temporary ``local_dir`` holding the config and a
  ``model.safetensors`` saved from a randomly initialised module of that config, which
  ``HuggingFaceConnector`` loads instead of downloading. ``TimesFM3Model`` needs
  ``accept_license=True`` (a gate for the released weights, none used here).

    pip install --no-deps darts==0.48.1 holidays==0.109 xarray==2026.9.0

(already installed and used: pytorch-lightning 2.6.6, lightning-utilities, torchmetrics,
numpy, pandas, scipy, scikit-learn, narwhals, joblib, tqdm, matplotlib, requests, pyod,
numba, safetensors, huggingface-hub, typing-extensions, python-dateutil.) ``darts.models``
loads its models lazily, so statsmodels / shap / nfoursid / tensorboardX (the non-torch
models, explainability, Kalman filter, the tensorboard logger) are never imported here.
Nothing stubbed.

Left out: ``TiRexModel`` / ``TiRex2Model`` / ``T0Model`` (they need the tirex-ts / tfc-t0
packages and their checkpoints), ``NeuralForecastModel``
(a wrapper of neuralforecast's modules, calibrated in its own adapter), the Lightning ``fit`` / ``predict`` loops (``trainer.fit``, ``predict_step``'s
sample tiling and the autoregressive roll-out of ``_get_batch_prediction``), ``self.log``
and torchmetrics (not in a compiled step).
"""

import functools

PACKAGE = "darts"

_ICL, _OCL, _B, _T = 6, 2, 4, 30
_TRAINER = dict(accelerator="cpu", enable_progress_bar=False, enable_model_summary=False, logger=False,
                enable_checkpointing=False)


def warm_up():
    import pandas  # noqa: F401
    import pytorch_lightning  # noqa: F401
    import torch  # noqa: F401

    import darts.models  # noqa: F401
    from darts.models.forecasting import torch_forecasting_model  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

def _series(kind="real", categorical=False):
    """(target, past covariates, future covariates): 30 daily float32 points."""
    import numpy as np
    import pandas as pd
    from darts import TimeSeries

    rng = np.random.default_rng(0)
    idx = pd.date_range("2024-01-01", periods=_T, freq="D")
    t = np.arange(_T)
    base = np.sin(2 * np.pi * t / 7)[:, None] + 0.3 * rng.normal(size=(_T, 1))
    if kind == "real":
        y = base
    elif kind == "positive":
        y = np.abs(base) + 0.1
    elif kind == "count":
        y = rng.poisson(3.0, size=(_T, 1))
    elif kind == "binary":
        y = (base > 0).astype(float)
    elif kind == "unit":
        y = 0.05 + 0.9 / (1 + np.exp(-base))
    elif kind == "simplex":
        e = np.exp(rng.normal(size=(_T, 3)))
        y = e / e.sum(axis=1, keepdims=True)
    else:
        raise ValueError(kind)
    static = pd.DataFrame({"s1": [0.5], "s2": [1.0]})
    if categorical:
        static = pd.DataFrame({"s1": [0.5], "cat": [2]})
    target = TimeSeries.from_times_and_values(idx, y.astype(np.float32)).with_static_covariates(
        static if y.shape[1] == 1 else None)
    past = TimeSeries.from_times_and_values(idx, rng.normal(size=(_T, 2)).astype(np.float32))
    future = TimeSeries.from_times_and_values(
        idx, np.stack([np.cos(2 * np.pi * t / 7), t / _T], axis=1).astype(np.float32))
    return target, past, future


# --- the training step --------------------------------------------------------------------------

@functools.cache
def _train_step():
    from torch import nn

    from darts.utils.data.torch_datasets.utils import ModuleStage, TorchTrainingBatch

    class TrainStep(nn.Module):
        """``PLForecastingModule._train_val_step`` (training) without ``self.log`` / metrics."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, past_target, past_covariates=None, historic_future_covariates=None,
                    future_covariates=None, static_covariates=None, sample_weight=None, future_target=None):
            batch = TorchTrainingBatch(
                past_target=past_target, past_covariates=past_covariates,
                historic_future_covariates=historic_future_covariates, future_covariates=future_covariates,
                static_covariates=static_covariates, sample_weight=sample_weight, future_target=future_target)
            net = self.net
            output = net(batch.to_module_input(stage=ModuleStage.TRAIN))
            return net._compute_loss(output, batch.future_target, net.train_criterion, batch.sample_weight)

    return TrainStep


_FIELDS = ("past_target", "past_covariates", "historic_future_covariates", "future_covariates",
           "static_covariates", "sample_weight", "future_target")


def _model(cls_name, covs=(), data="real", likelihood=None, sample_weight=None, categorical=False,
           ocl=_OCL, icl=_ICL, loss=None, eval_only=False, local_dir=None, **kwargs):
    """A factory: ``darts.models.<cls_name>`` with ``kwargs``; ``covs``: which of "past" /
    "future" covariates ``fit`` gets (static covariates ride on the target)."""

    def make(mode):
        import darts.models as models
        from darts.utils.data.torch_datasets.utils import ModuleStage, PLModuleInput, _batch_collate_fn_train

        if eval_only and mode == "train":
            raise NotImplementedError(f"{cls_name} has no parameters and skips training (_requires_training is False)")
        cls = getattr(models, cls_name)
        params = dict(input_chunk_length=icl, n_epochs=1, batch_size=_B, random_state=0,
                      pl_trainer_kwargs=dict(_TRAINER))
        if cls_name != "RNNModel":
            params["output_chunk_length"] = ocl
        if likelihood is not None:
            params["likelihood"] = likelihood()
        if loss is not None:
            params["loss_fn"] = loss()
        params.update(kwargs)
        if cls_name == "TimesFM2p5Model":
            _timesfm2p5_tiny()
        write_weights = None
        if local_dir is not None:  # a foundation model: its checkpoint folder
            params["local_dir"], write_weights = local_dir()
        model = cls(**params)
        if write_weights is not None:
            write_weights(model.pl_module_params)
        target, past, future = _series(data, categorical)
        _, fit_params = model._setup_for_fit_from_dataset(
            series=target,
            past_covariates=past if "past" in covs else None,
            future_covariates=future if "future" in covs else None,
            sample_weight=sample_weight,
        )
        train_params = model._setup_for_train(**fit_params)
        if write_weights is not None:  # loaded by _create_model: the folder is not needed any more
            import shutil

            shutil.rmtree(params["local_dir"], ignore_errors=True)
        net = train_params["model"]
        dataset = fit_params["train_dataset"]
        batch = _batch_collate_fn_train([dataset[i] for i in range(_B)])
        if mode == "train":
            return _train_step()(net), (), {name: getattr(batch, name) for name in _FIELDS}
        x_in = PLModuleInput(
            past_target=batch.past_target, past_covariates=batch.past_covariates,
            historic_future_covariates=batch.historic_future_covariates,
            future_covariates=batch.future_covariates, static_covariates=batch.static_covariates,
            future_target=None, state=None, stage=ModuleStage.PREDICT)
        return net, (x_in,), {}

    return make


# the darts tests' tiny foundation-model configs (darts/tests/models/forecasting/artefacts/*/config.json)
_CHRONOS2_CFG = {
    "architectures": ["Chronos2Model"],
    "chronos_config": {"context_length": 21, "input_patch_size": 7, "input_patch_stride": 7, "max_output_patches": 11,
                       "output_patch_size": 7, "quantiles": [0.01, 0.1, 0.5, 0.9, 0.99], "time_encoding_scale": 21,
                       "use_arcsinh": True, "use_reg_token": True},
    "chronos_pipeline_class": "Chronos2Pipeline", "d_ff": 32, "d_kv": 4, "d_model": 8, "dropout_rate": 0.1,
    "dense_act_fn": "relu", "dtype": "float32", "feed_forward_proj": "relu", "initializer_factor": 0.05,
    "is_gated_act": False, "layer_norm_epsilon": 1e-06, "model_type": "t5", "num_heads": 3, "num_layers": 2,
    "pad_token_id": 0, "reg_token_id": 1, "rope_theta": 10000.0, "use_cache": True, "vocab_size": 2,
}
_PATCHTST_FM_CFG = {
    "architectures": ["PatchTSTFMForPrediction"], "context_length": 128, "d_model": 32, "d_patch": 16,
    "dtype": "float32", "model_type": "patchtst_fm", "n_head": 4, "n_layer": 2, "n_patch": 8, "norm_first": True,
    "num_quantile": 9, "prediction_length": 16, "pretrain_mask_cont": 2, "pretrain_mask_ratio": 0.4,
    "quantile_levels": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
}

# TimesFM 3.0 reads its architecture from config.json: the released layout, cut to 8 units
_TIMESFM3_CFG = {
    "input_patch_len": 4, "output_patch_len": 8, "quantiles": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
    "residual_block_config": {"hidden_dims": 8, "output_dims": 8, "use_bias": False, "activation": "relu"},
    "transformer_config": {"num_layers": 1, "transformer": {
        "model_dims": 8, "hidden_dims": 8, "num_heads": 2, "attention_norm": "rms", "feedforward_norm": "rms",
        "qk_norm": "rms", "use_rope_seq": True, "use_rope_var": False, "use_bias": False, "ff_activation": "relu",
        "deterministic": True, "max_variates": 32}},
}


def _timesfm2p5_tiny():
    """The darts tests' ``timesfm2p5_tiny_context``: TimesFM 2.5 ignores config.json and builds
    ``_TimesFM2p5_200M_Definition()``; the tests put a tiny definition in its place (context 64,
    patches 4 / 8, width 8, one layer). Here for the whole (one-model) process."""
    from darts.models.components.timesfm2p5_submodels import (
        _ResidualBlockConfig,
        _StackedTransformersConfig,
        _TransformerConfig,
    )
    from darts.models.forecasting import timesfm2p5_model as tm

    if getattr(tm, "_tiny_installed", False):
        return

    class _TinyTimesFM2p5Definition(tm._TimesFM2p5_200M_Definition):
        context_limit = 64

    d, nq, out = 8, 10, 8
    tiny = _TinyTimesFM2p5Definition(
        input_patch_len=4, output_patch_len=out, output_quantile_len=16,
        tokenizer=_ResidualBlockConfig(input_dims=8, hidden_dims=d, output_dims=d, use_bias=True, activation="swish"),
        stacked_transformers=_StackedTransformersConfig(num_layers=1, transformer=_TransformerConfig(
            model_dims=d, hidden_dims=d, num_heads=2, attention_norm="rms", feedforward_norm="rms", qk_norm="rms",
            use_bias=False, use_rotary_position_embeddings=True, ff_activation="swish", fuse_qkv=True)),
        output_projection_point=_ResidualBlockConfig(input_dims=d, hidden_dims=d, output_dims=out * nq,
                                                     use_bias=False, activation="swish"),
        output_projection_quantiles=_ResidualBlockConfig(input_dims=d, hidden_dims=d, output_dims=16 * nq,
                                                         use_bias=False, activation="swish"),
    )
    tm._TimesFM2p5Module.config = tiny
    tm._TimesFM2p5_200M_Definition = lambda: tiny
    tm._tiny_installed = True


def _foundation(cls_name, module_path, module_name, config):
    """A ``local_dir`` for a foundation model: the tests' tiny ``config.json`` and a
    ``model.safetensors`` of a randomly initialised module (what ``HuggingFaceConnector``
    loads instead of downloading)."""

    def make_dir():
        import json
        import os
        import tempfile

        d = tempfile.mkdtemp(prefix=f"darts-{cls_name}-")
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(config, f)

        def write_weights(pl_module_params):
            import importlib

            from safetensors.torch import save_file

            from darts.models.components.huggingface_connector import HuggingFaceConnector

            module_cls = getattr(importlib.import_module(module_path), module_name)
            module = module_cls(**HuggingFaceConnector._extract_module_params(module_cls, config), **pl_module_params)
            save_file(module.state_dict(), os.path.join(d, "model.safetensors"))

        return d, write_weights

    return make_dir


def _lik(name, **kwargs):
    def make():
        from darts.utils.likelihood_models import torch as lik

        return getattr(lik, name)(**kwargs)

    return make


def _mae():
    import torch

    return torch.nn.L1Loss()


def _mse():
    import torch

    return torch.nn.MSELoss()


_ALL = ("past", "future")  # static covariates come with the target series

MODELS = {
    # recurrent
    "RNNModel_LSTM_future": _model("RNNModel", covs=("future",), model="LSTM", hidden_dim=8, training_length=8),
    "RNNModel_GRU_Gaussian": _model("RNNModel", model="GRU", hidden_dim=8, training_length=8,
                                    likelihood=_lik("GaussianLikelihood")),
    "RNNModel_LSTM_quantile": _model("RNNModel", covs=("future",), model="LSTM", hidden_dim=8, training_length=8,
                                     likelihood=_lik("QuantileRegression", quantiles=[0.1, 0.5, 0.9])),
    "BlockRNNModel_LSTM_cov": _model("BlockRNNModel", covs=("past",), model="LSTM", hidden_dim=8,
                                     hidden_fc_sizes=[8]),
    "BlockRNNModel_GRU_Laplace": _model("BlockRNNModel", model="GRU", hidden_dim=8, dropout=0.1,
                                        likelihood=_lik("LaplaceLikelihood")),
    "BlockRNNModel_LSTM_RIN": _model("BlockRNNModel", model="LSTM", hidden_dim=8,
                                     use_reversible_instance_norm=True),
    "BlockRNNModel_Bernoulli": _model("BlockRNNModel", data="binary", model="GRU", hidden_dim=8,
                                      likelihood=_lik("BernoulliLikelihood")),
    # MLP stacks
    "NBEATSModel_generic": _model("NBEATSModel", covs=("past",), num_stacks=2, num_blocks=1, num_layers=1,
                                  layer_widths=8),
    "NBEATSModel_interpretable_L1": _model("NBEATSModel", generic_architecture=False, num_blocks=1, num_layers=1,
                                           layer_widths=8, loss=_mae),
    "NBEATSModel_Gaussian_RIN": _model("NBEATSModel", num_stacks=2, num_blocks=1, num_layers=1, layer_widths=8,
                                       use_reversible_instance_norm=True, likelihood=_lik("GaussianLikelihood")),
    "NBEATSModel_Gamma": _model("NBEATSModel", data="positive", num_stacks=1, num_blocks=1, num_layers=1,
                                layer_widths=8, likelihood=_lik("GammaLikelihood")),
    "NHiTSModel": _model("NHiTSModel", covs=("past",), num_stacks=2, num_blocks=1, num_layers=1, layer_widths=8),
    "NHiTSModel_avgpool_Gaussian_prior": _model("NHiTSModel", num_stacks=2, num_blocks=1, num_layers=1,
                                                layer_widths=8, MaxPool1d=False,
                                                likelihood=_lik("GaussianLikelihood", prior_mu=0.0,
                                                                prior_sigma=1.0)),
    "NHiTSModel_LogNormal": _model("NHiTSModel", data="positive", num_stacks=1, num_blocks=1, num_layers=1,
                                   layer_widths=8, likelihood=_lik("LogNormalLikelihood")),
    # convolutional
    "TCNModel": _model("TCNModel", covs=("past",), kernel_size=3, num_filters=4, dilation_base=2),
    "TCNModel_weightnorm_Cauchy": _model("TCNModel", kernel_size=2, num_filters=4, weight_norm=True,
                                         likelihood=_lik("CauchyLikelihood")),
    "TCNModel_2layers_Gumbel": _model("TCNModel", kernel_size=3, num_filters=4, num_layers=2, dropout=0.1,
                                      likelihood=_lik("GumbelLikelihood")),
    # attention
    "TransformerModel": _model("TransformerModel", covs=("past",), d_model=8, nhead=2, num_encoder_layers=1,
                               num_decoder_layers=1, dim_feedforward=16),
    "TransformerModel_SwiGLU_LayerNormNoBias": _model("TransformerModel", d_model=8, nhead=2, num_encoder_layers=1,
                                                      num_decoder_layers=1, dim_feedforward=16,
                                                      activation="SwiGLU", norm_type="LayerNormNoBias"),
    "TransformerModel_GEGLU_RMSNorm_Gaussian": _model("TransformerModel", d_model=8, nhead=2,
                                                      num_encoder_layers=1, num_decoder_layers=1,
                                                      dim_feedforward=16, activation="GEGLU", norm_type="RMSNorm",
                                                      likelihood=_lik("GaussianLikelihood")),
    "TFTModel": _model("TFTModel", covs=_ALL, hidden_size=8, lstm_layers=1, num_attention_heads=2,
                       hidden_continuous_size=4),
    "TFTModel_relative_index_MSE": _model("TFTModel", hidden_size=8, lstm_layers=1, num_attention_heads=2,
                                          hidden_continuous_size=4, add_relative_index=True, loss=_mse),
    "TFTModel_full_attention_GEGLU_categorical": _model(
        "TFTModel", covs=_ALL, categorical=True, hidden_size=8, lstm_layers=1, num_attention_heads=2,
        hidden_continuous_size=4, full_attention=True, feed_forward="GEGLU", norm_type="RMSNorm",
        categorical_embedding_sizes={"cat": 4}),
    "TFTModel_Gaussian_skip_interpolation": _model("TFTModel", covs=("future",), hidden_size=8, lstm_layers=1,
                                                   num_attention_heads=2, hidden_continuous_size=4,
                                                   skip_interpolation=True, likelihood=_lik("GaussianLikelihood")),
    # linear
    "DLinearModel": _model("DLinearModel", covs=_ALL, kernel_size=5),
    "DLinearModel_shared": _model("DLinearModel", shared_weights=True, kernel_size=3),
    "DLinearModel_Poisson": _model("DLinearModel", data="count", kernel_size=5, likelihood=_lik("PoissonLikelihood")),
    "NLinearModel": _model("NLinearModel", covs=_ALL),
    "NLinearModel_sample_weight": _model("NLinearModel", covs=("past",), sample_weight="linear"),
    "NLinearModel_ContinuousBernoulli": _model("NLinearModel", data="unit", normalize=False,
                                               likelihood=_lik("ContinuousBernoulliLikelihood")),
    # MLP encoder-decoder / mixer
    "TiDEModel_RIN": _model("TiDEModel", covs=_ALL, hidden_size=8, decoder_output_dim=4, temporal_decoder_hidden=8,
                            temporal_width_past=2, temporal_width_future=2, use_reversible_instance_norm=True),
    "TiDEModel_layernorm_NegativeBinomial": _model("TiDEModel", data="count", hidden_size=8, decoder_output_dim=4,
                                                   temporal_decoder_hidden=8, use_layer_norm=True,
                                                   likelihood=_lik("NegativeBinomialLikelihood")),
    "TiDEModel_Beta": _model("TiDEModel", data="unit", covs=("future",), hidden_size=8, decoder_output_dim=4,
                             temporal_decoder_hidden=8, temporal_width_future=0, likelihood=_lik("BetaLikelihood")),
    "TiDEModel_encoders_sample_weight": _model("TiDEModel", covs=("past",), hidden_size=8, decoder_output_dim=4,
                                               temporal_decoder_hidden=8, sample_weight="exponential",
                                               add_encoders={"cyclic": {"future": ["month"]},
                                                             "datetime_attribute": {"past": ["dayofweek"]}}),
    "TiDEModel_Dirichlet": _model("TiDEModel", data="simplex", hidden_size=8, decoder_output_dim=4,
                                  temporal_decoder_hidden=8, likelihood=_lik("DirichletLikelihood")),
    "TSMixerModel": _model("TSMixerModel", covs=_ALL, hidden_size=8, ff_size=8, num_blocks=1),
    "TSMixerModel_batchnorm_quantile": _model("TSMixerModel", covs=("future",), hidden_size=8, ff_size=8,
                                              num_blocks=1, norm_type="TimeBatchNorm2d", normalize_before=True,
                                              likelihood=_lik("QuantileRegression", quantiles=[0.1, 0.5, 0.9])),
    "TSMixerModel_LayerNormNoBias_Exponential": _model("TSMixerModel", data="positive", hidden_size=8, ff_size=8,
                                                        num_blocks=1, norm_type="LayerNormNoBias", activation="GELU",
                                                       likelihood=_lik("ExponentialLikelihood")),
    # parameter-free global baselines (eval only: they skip training)
    "GlobalNaiveAggregate": _model("GlobalNaiveAggregate", agg_fn="mean", eval_only=True),
    "GlobalNaiveDrift": _model("GlobalNaiveDrift", eval_only=True),
    "GlobalNaiveSeasonal": _model("GlobalNaiveSeasonal", eval_only=True),
    # foundation models (fine-tuning mode: enable_finetuning=True), the tests' tiny configs, random weights
    "Chronos2Model_covariates": _model("Chronos2Model", covs=_ALL, icl=14, ocl=7, enable_finetuning=True,
                                       local_dir=_foundation("Chronos2Model", "darts.models.forecasting.chronos2_model",
                                                             "_Chronos2Module", _CHRONOS2_CFG)),
    "TimesFM2p5Model": _model("TimesFM2p5Model", icl=16, ocl=4, enable_finetuning=True,
                              local_dir=_foundation("TimesFM2p5Model", "darts.models.forecasting.timesfm2p5_model",
                                                    "_TimesFM2p5Module", {})),
    "TimesFM3Model_covariates": _model("TimesFM3Model", covs=_ALL, icl=16, ocl=4, enable_finetuning=True, accept_license=True,
                                       local_dir=_foundation("TimesFM3Model", "darts.models.forecasting.timesfm3_model",
                                                             "_TimesFM3Module", _TIMESFM3_CFG)),
    "PatchTSTFMModel": _model("PatchTSTFMModel", icl=16, ocl=2, enable_finetuning=True,
                              local_dir=_foundation("PatchTSTFMModel", "darts.models.forecasting.patchtst_fm_model",
                                                    "_PatchTSTFMModule", _PATCHTST_FM_CFG)),
}
