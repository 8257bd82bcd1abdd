"""gluonts 0.17.0, its PyTorch models (``gluonts.torch.model``) and output heads
(``gluonts.torch.distributions``): the Lightning-free networks the estimators build
(``DeepARModel``, ``SimpleFeedForwardModel``, ``DLinearModel``, ``PatchTSTModel``,
``LagTSTModel``, ``ITransformerModel``, ``TiDEModel``, ``TemporalFusionTransformerModel``,
``MQF2MultiHorizonModel``, ``WaveNet``, the DeepNPTS networks), each from a tiny version of its
estimator's ``model_kwargs``, random weights, no dataset. Inputs: one random batch of 4 series
shaped as the model's ``describe_inputs(4)`` says (for WaveNet and DeepNPTS, which have none,
as their estimators' instance splitters shape it): positive targets (counts for the count
heads, values in (0, 1) for ``BetaOutput``), all-observed indicators, time features in
[-0.5, 0.5] as ``gluonts.time_feature`` makes them, categoricals below their cardinality;
inputs the estimator would not produce (a ``describe_inputs`` field with a zero-width
feature axis) are left out, as the Lightning modules' ``select(..., ignore_missing=True)`` does.

Eval: what the predictor runs. For the models whose forward returns ``(distr_args, loc,
scale)``, the forward (most models), or the forward then the forecast the predictor builds of
it (``*_forecast``: ``distr_output.distribution(distr_args, loc, scale)`` and
``DistributionForecast.to_sample_forecast`` / ``.mean`` / ``.quantile``'s ``icdf``;
``ITransformer_sample``: ``ITransformerLightningModule.forward``, sampling). DeepAR and
WaveNet's forward sample paths autoregressively, MQF2's through the gradient of its convex
potential (``num_parallel_samples`` cut to 8); DeepNPTS:
``DeepNPTSMultiStepNetwork`` (what ``get_predictor`` wraps the net in). Train: what the
Lightning module's ``training_step`` returns, less its logging: ``model.loss(**inputs,
future_target=..., future_observed_values=...).mean()`` (WaveNet also passes ``scale``);
DeepNPTS: ``train_model``'s step, ``(-net(**x).log_prob(y) / scale).mean()``.

Models (40):
- ``SimpleFeedForwardModel`` with each output head that builds: ``StudentTOutput`` (the
  default), ``NormalOutput`` with batch norm, ``PoissonOutput``, ``NegativeBinomialOutput``,
  ``QuantileOutput``, ``ISQFOutput``, ``PiecewiseLinearOutput``,
  ``ImplicitQuantileNetworkOutput``, ``SplicedBinnedParetoOutput``; forecasts of the StudentT
  (samples), negative-binomial (mean), ISQF and piecewise-linear (samples) and
  spliced-binned-Pareto (samples; quantiles through ``icdf``) heads;
- ``DLinearModel``: mean scaling / StudentT; std scaling / Normal; no scaling / ``BetaOutput``
  (a target in (0, 1): with mean scaling the scaled target leaves Beta's support);
- ``PatchTSTModel``: the tests' config (end padding, mean scaling); with two dynamic real
  features, std scaling, pre-norm, GELU;
- ``LagTSTModel``: monthly lags ("ME"); hand-set lags, std scaling;
- ``ITransformerModel`` (3 series): forward; the Lightning module's sampling forward;
- ``TiDEModel``: mean scaling / StudentT; layer norm, std scaling, negative binomial;
- ``TemporalFusionTransformerModel``: defaults (``QuantileOutput``); the tests' full
  covariates (past-only and known dynamic reals and categoricals, static reals and
  categoricals); StudentT head;
- ``DeepARModel``: weekly lags (the default StudentT); hand-set lags with a negative-binomial
  head and non-negative samples; no scaling, Normal head; ``log_prob`` (eval);
- ``MQF2MultiHorizonModel``: energy score (the default); log-likelihood
  (``MQF2DistributionOutput(is_energy_score=False)``, ``ActNorm`` layers; eval samples by
  inverting the convex potential with LBFGS);
- ``WaveNet``: sampling at temperature 1; greedy (temperature 0) without the log-scale feature;
- DeepNPTS: ``DeepNPTSNetworkDiscrete`` (normalized softplus); ``DeepNPTSNetworkSmooth``;
  discrete with softmax, standard-normal input scaling and min-max loss scaling.
``ISQFOutput`` and ``PiecewiseLinearOutput`` distributions have no ``log_prob`` in 0.17.0, so
``model.loss`` (the negative log-likelihood) raises ``NotImplementedError`` for them: their
train is the distribution's own ``crps`` (its ``loss``), weighted by the observed values as
``model.loss`` weights the NLL (``CRPSStep``). MQF2's ``ActNorm`` layers initialise from
the first batch they see and sampling asserts they have: ``MQF2_log_likelihood``'s eval runs
one ``loss`` on the batch at build time first, as training would have.

    pip install --no-deps gluonts==0.17.0

(its other dependencies, numpy, pandas, pydantic, toolz, tqdm, typing-extensions, and for
``gluonts.torch`` lightning and scipy, are installed already; gluonts pins pandas < 3, and
pandas 3.0.6 works for everything here: no frequency string is parsed except by
``get_lags_for_frequency``, given the pandas-3 aliases "W" and "ME".) Nothing stubbed: no
held-out package is imported. MQF2's convex-potential flows are vendored
(``gluonts.torch.model.mqf2._cpflows``), not the ``cpflows`` package.

Left out: ``BinnedUniformsOutput``, ``GeneralizedParetoOutput`` and ``TruncatedNormalOutput``
(their constructors call ``super().__init__(self)``, passing themselves as the validated
``beta: float`` of ``DistributionOutput.__init__``: a pydantic ``ValidationError``, so no
model can use them); ``LaplaceOutput``, ``GammaOutput`` (torch distributions through the same
``AffineTransformed`` path as Normal); the estimators, Lightning modules, ``PyTorchPredictor``
and data pipeline (``Transformation`` chains, instance splitters, ``as_stacked_batches``:
NumPy / pandas around the networks, needing a dataset and a ``Trainer``); the forecast
objects' NumPy post-processing. Notes: ``ImplicitQuantileNetworkOutput``'s distribution has no
``mean`` or ``icdf`` (its forecast is its sample); DeepNPTS's base network calls
``torch.tensor(feat_static_real)`` on a tensor (a copy, with a warning), as written;
``SFF_isqf_forecast`` / ``SFF_piecewise_linear_forecast``'s train is ``SFF_isqf`` /
``SFF_piecewise_linear``'s.
"""

import functools

PACKAGE = "gluonts"

_B = 4  # batch size
_CTX, _PRED = 24, 6  # context / prediction lengths (the tests' 24; a short horizon)
_SAMPLES = 8  # num_parallel_samples / forecast samples (the default 100, cut)


def warm_up():
    import torch  # noqa: F401

    import gluonts.torch  # noqa: F401
    import gluonts.torch.model.deepar  # noqa: F401


# --- inputs -------------------------------------------------------------------------------------

def _target(shape, kind):
    """A positive random series (``kind``: "real", "count" or "unit")."""
    import torch

    if kind == "count":
        return torch.poisson(torch.full(shape, 5.0))
    if kind == "unit":
        return torch.rand(shape) * 0.9 + 0.05
    level = torch.rand(shape[:1] + (1,) * (len(shape) - 1)) * 20 + 5
    return level * (1 + 0.2 * torch.randn(shape)).abs()


def _batch(spec, cards=(), kind="real", future=None):
    """Random tensors for an ``InputSpec``: targets (``kind``), observed indicators (ones),
    time features in [-0.5, 0.5], categoricals below ``cards`` (per categorical field, in
    order: a list of cardinalities), fields with a zero-size dimension left out. ``future``:
    (prediction shape) to add ``future_target`` and ``future_observed_values``."""
    import torch

    out, cards = {}, list(cards)
    for name, inp in spec.items():
        shape = tuple(inp.shape)
        if 0 in shape:
            continue
        if inp.dtype == torch.long:
            card = cards.pop(0)
            out[name] = torch.stack([torch.randint(0, c, shape[:-1]) for c in card], dim=-1)
        elif "target" in name:
            out[name] = _target(shape, kind)
        elif "observed" in name:
            out[name] = torch.ones(shape)
        elif name == "feat_static_real":
            out[name] = torch.randn(shape)
        else:
            out[name] = torch.rand(shape) - 0.5
    if future is not None:
        out["future_target"] = _target(future, kind)
        out["future_observed_values"] = torch.ones(future)
    return out


# --- wrappers -----------------------------------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn

    class TrainStep(nn.Module):
        """The Lightning module's ``training_step``, less the logging: ``model.loss(**batch).mean()``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, **batch):
            return self.model.loss(**batch).mean()

    class Forecast(nn.Module):
        """The predictor's forecast of a ``(distr_args, loc, scale)`` forward: the distribution
        ``distr_output`` builds, then a ``DistributionForecast``'s samples, mean or quantiles."""

        def __init__(self, model, how):
            super().__init__()
            self.model, self.how = model, how
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, **batch):
            distr_args, loc, scale = self.model(**batch)
            distr = self.model.distr_output.distribution(distr_args, loc=loc, scale=scale)
            if self.how == "mean":
                return distr.mean
            if self.how == "quantile":
                return torch.stack([distr.icdf(torch.tensor([q])) for q in (0.1, 0.5, 0.9)])
            return distr.sample(torch.Size((_SAMPLES,)))

    class ITransformerSample(nn.Module):
        """``ITransformerLightningModule.forward``: sample paths of the forward's distribution."""

        def __init__(self, model, num_parallel_samples):
            super().__init__()
            self.model, self.num_parallel_samples = model, num_parallel_samples
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, past_target, past_observed_values):
            distr_args, loc, scale = self.model(past_target, past_observed_values)
            distr = self.model.distr_output.distribution(distr_args, loc, scale)
            samples = distr.sample((self.num_parallel_samples,))
            if self.model.nonnegative_pred_samples:
                samples = torch.relu(samples)
            return samples.transpose(0, 1)

    class DeepNPTSStep(nn.Module):
        """``DeepNPTSEstimator.train_model``'s step: the one-step distribution's scaled NLL."""

        def __init__(self, net, loss_scaling):
            super().__init__()
            self.net, self.loss_scaling = net, loss_scaling
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, future_target, **x):
            predicted_distribution = self.net(**x)
            if self.loss_scaling is not None:
                scale = self.loss_scaling(x["past_target"])[1]
            else:
                scale = 1.0
            return (-predicted_distribution.log_prob(future_target) / scale).mean()

    class CRPSStep(nn.Module):
        """The training step of a head without ``log_prob`` (ISQF, piecewise linear): the mean
        of its distribution's ``crps`` (``loss``), weighted by the observed values, as the
        NLL's ``model.loss`` weights it."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, future_target, future_observed_values, **batch):
            from gluonts.torch.util import weighted_average

            distr_args, loc, scale = self.model(**batch)
            distr = self.model.distr_output.distribution(distr_args, loc=loc, scale=scale)
            return weighted_average(distr.crps(future_target), weights=future_observed_values, dim=-1).mean()

    class LogProb(nn.Module):
        """``DeepARModel.log_prob``: the likelihood of the future target."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, **batch):
            return self.model.log_prob(**batch)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- models -------------------------------------------------------------------------------------

def _output(name, *args, **kwargs):
    def make():
        from gluonts.torch import distributions

        return getattr(distributions, name)(*args, **kwargs)

    return make


def _mqf2_output(**kwargs):
    def make():
        from gluonts.torch.model.mqf2.distribution import MQF2DistributionOutput

        return MQF2DistributionOutput(_PRED, **kwargs)

    return make


_KIND = {"NegativeBinomialOutput": "count", "PoissonOutput": "count", "BetaOutput": "unit"}


def _model(module, cls_name, distr=None, kind=None, cards=(), forecast=None, crps=False, **kwargs):
    """``cls(**kwargs, distr_output=distr())`` from ``gluonts.torch.model.<module>``; eval: its
    forward on ``describe_inputs(_B)`` (``forecast``: the ``Forecast`` wrapper), train: its loss
    (``crps``: ``CRPSStep``)."""

    def make(mode):
        import importlib

        cls = getattr(importlib.import_module(f"gluonts.torch.model.{module}"), cls_name)
        hp = dict(kwargs)
        if distr is not None:
            hp["distr_output"] = distr()
        model = cls(**hp)
        k = kind or _KIND.get(type(hp.get("distr_output")).__name__, "real")
        future = None
        if mode == "train":
            past = model.describe_inputs(_B)["past_target"].shape
            future = (past[0], model.prediction_length) + tuple(past[2:])
        batch = _batch(model.describe_inputs(_B), cards, k, future)
        if mode == "train":
            return (_nets().CRPSStep(model) if crps else _nets().TrainStep(model)), (), batch
        if forecast is not None:
            return _nets().Forecast(model, forecast), (), batch
        return model, (), batch

    return make


def _sff(distr=None, forecast=None, crps=False, **kwargs):
    return _model("simple_feedforward", "SimpleFeedForwardModel", distr, forecast=forecast, crps=crps,
                  prediction_length=_PRED, context_length=_CTX, hidden_dimensions=[16, 8], **kwargs)


def _itransformer(sample, series=3):
    """``ITransformerModel`` on ``series`` series (``describe_inputs`` leaves their axis free)."""

    def make(mode):
        import torch
        from gluonts.torch.model.i_transformer import ITransformerModel

        model = ITransformerModel(prediction_length=_PRED, context_length=_CTX, d_model=16, nhead=2,
                                  dim_feedforward=32, dropout=0.1, activation="relu", norm_first=False,
                                  num_encoder_layers=2, scaling="mean")
        batch = dict(past_target=_target((_B, _CTX, series), "real"), past_observed_values=torch.ones(_B, _CTX, series))
        if mode == "train":
            batch.update(future_target=_target((_B, _PRED, series), "real"),
                         future_observed_values=torch.ones(_B, _PRED, series))
            return _nets().TrainStep(model), (), batch
        if sample:
            return _nets().ITransformerSample(model, _SAMPLES), (), batch
        return model, (), batch

    return make


def _deepar(module="deepar", cls_name="DeepARModel", distr=None, log_prob=False, init_step=False, cards=([3],),
            **kwargs):
    """DeepAR / MQF2: the estimator's ``model_kwargs`` (``num_feat_dynamic_real``: 1 (age) +
    the time features), tiny; eval samples ``_SAMPLES`` paths (``log_prob``: the likelihood).
    ``init_step``: one ``loss`` on the batch at build time before eval, as training would have
    run (MQF2's ``ActNorm`` layers initialise from the first batch they see, and sampling
    asserts they have)."""

    def make(mode):
        import importlib

        cls = getattr(importlib.import_module(f"gluonts.torch.model.{module}"), cls_name)
        hp = dict(context_length=_CTX, prediction_length=_PRED, num_feat_dynamic_real=3, num_feat_static_real=1,
                  num_feat_static_cat=1, cardinality=[3], num_layers=2, hidden_size=16,
                  num_parallel_samples=_SAMPLES)
        hp.update(kwargs)
        if distr is not None:
            hp["distr_output"] = distr()
        model = cls(**hp)
        k = _KIND.get(type(hp.get("distr_output")).__name__, "real")
        future = (_B, _PRED) if mode == "train" or log_prob or init_step else None
        batch = _batch(model.describe_inputs(_B), cards, k, future)
        if init_step and mode == "eval":
            import torch

            with torch.no_grad():
                model.loss(**batch)
            batch = {k: v for k, v in batch.items() if not k.startswith("future_") or k == "future_time_feat"}
        if mode == "train":
            return _nets().TrainStep(model), (), batch
        if log_prob:
            batch.pop("future_observed_values")
            return _nets().LogProb(model), (), batch
        return model, (), batch

    return make


def _wavenet(**kwargs):
    """``WaveNetEstimator``'s model (``num_bins`` bin centres over [0, 10], the default
    range), its batch as ``QuantizeMeanScaled`` leaves it (bin indices, ``scale``;
    time features channel-first)."""

    def make(mode):
        import numpy as np
        import torch
        from gluonts.torch.model.wavenet import WaveNet

        num_bins, depth = 32, 3
        hp = dict(pred_length=_PRED, bin_values=np.linspace(0, 10, num_bins).tolist(), num_residual_channels=8,
                  num_skip_channels=8, dilation_depth=depth, num_stacks=1, num_feat_dynamic_real=3,
                  num_feat_static_real=1, cardinality=[3], embedding_dimension=5, num_parallel_samples=_SAMPLES)
        hp.update(kwargs)
        model = WaveNet(**hp)
        ctx = WaveNet.get_receptive_field(dilation_depth=depth, num_stacks=1)
        batch = dict(
            feat_static_cat=torch.randint(0, 3, (_B, 1)), feat_static_real=torch.randn(_B, 1),
            past_target=torch.randint(0, num_bins + 1, (_B, ctx)).float(), past_observed_values=torch.ones(_B, ctx),
            past_time_feat=torch.rand(_B, 3, ctx) - 0.5, future_time_feat=torch.rand(_B, 3, _PRED) - 0.5,
            scale=torch.rand(_B, 1) * 20 + 1,
        )
        if mode == "train":
            batch["future_target"] = torch.randint(0, num_bins + 1, (_B, _PRED)).float()
            batch["future_observed_values"] = torch.ones(_B, _PRED)
            return _nets().TrainStep(model), (), batch
        return model, (), batch

    return make


def _deep_npts(cls_name, input_scaling=None, loss_scaling=None, **kwargs):
    """``DeepNPTSEstimator``'s network (``num_time_features``: the age feature + the
    frequency's time features), eval through ``DeepNPTSMultiStepNetwork``."""

    def make(mode):
        import torch
        from gluonts.torch.model.deep_npts import _estimator, _network

        ctx, tf = 16, 3
        net = getattr(_network, cls_name)(context_length=ctx, num_hidden_nodes=[16, 16], cardinality=[3],
                                          embedding_dimension=[2], num_time_features=tf,
                                          input_scaling=input_scaling, dropout_rate=0.1, **kwargs)
        x = dict(feat_static_cat=torch.randint(0, 3, (_B, 1)), feat_static_real=torch.randn(_B, 1),
                 past_target=_target((_B, ctx), "real"), past_observed_values=torch.ones(_B, ctx),
                 past_time_feat=torch.rand(_B, ctx, tf) - 0.5)
        if mode == "train":
            scaling = _estimator.LOSS_SCALING_MAP[loss_scaling] if loss_scaling else None
            return _nets().DeepNPTSStep(net, scaling), (), dict(x, future_target=_target((_B, 1), "real"))
        multi = _network.DeepNPTSMultiStepNetwork(net=net, prediction_length=_PRED, num_parallel_samples=_SAMPLES)
        return multi, (), dict(x, future_time_feat=torch.rand(_B, _PRED, tf) - 0.5)

    return make


_PATCH = dict(prediction_length=_PRED, context_length=_CTX, patch_len=8, stride=4, padding_patch="end", d_model=16,
              nhead=2, dim_feedforward=32, dropout=0.1, num_encoder_layers=2)
_LAG = dict(prediction_length=_PRED, context_length=_CTX, d_model=16, nhead=2, dim_feedforward=32, dropout=0.1,
            activation="relu", norm_first=False, num_encoder_layers=2)
_TIDE = dict(context_length=_CTX, prediction_length=_PRED, num_feat_dynamic_real=7, num_feat_dynamic_proj=2,
             num_feat_static_real=1, num_feat_static_cat=1, cardinality=[3], embedding_dimension=[4],
             feat_proj_hidden_dim=4, encoder_hidden_dim=16, decoder_hidden_dim=16, temporal_hidden_dim=8,
             distr_hidden_dim=4, decoder_output_dim=4, dropout_rate=0.1, num_layers_encoder=1, num_layers_decoder=1)
_TFT = dict(context_length=_CTX, prediction_length=_PRED, d_var=8, d_hidden=16, num_heads=2,
            d_feat_dynamic_real=[1, 1, 1], dropout_rate=0.1)
_TFT_FULL = dict(_TFT, d_past_feat_dynamic_real=[1], d_feat_dynamic_real=[2, 5], d_feat_static_real=[3, 1, 1],
                 c_past_feat_dynamic_cat=[2, 2, 2], c_feat_dynamic_cat=[2], c_feat_static_cat=[2, 2])

_ISQF = _output("ISQFOutput", num_pieces=3, qk_x=[0.1, 0.5, 0.9])
_PWL = _output("PiecewiseLinearOutput", num_pieces=4)
_SBP = _output("SplicedBinnedParetoOutput", bins_lower_bound=0.0, bins_upper_bound=10.0, num_bins=16,
               tail_percentile_gen_pareto=0.05)
_DLINEAR = dict(prediction_length=_PRED, context_length=_CTX, hidden_dimension=8, kernel_size=5)
_DEEPAR = dict(freq="W", lags_seq=[1, 2, 3, 7])
_MQF2 = dict(_DEEPAR, icnn_hidden_size=8, icnn_num_layers=2)

MODELS = {
    # SimpleFeedForward with each output head
    "SFF_studentt": _sff(),
    "SFF_normal_batchnorm": _sff(_output("NormalOutput"), batch_norm=True),
    "SFF_poisson": _sff(_output("PoissonOutput")),
    "SFF_negbin": _sff(_output("NegativeBinomialOutput")),
    "SFF_quantile": _sff(_output("QuantileOutput", [0.1, 0.5, 0.9])),
    "SFF_isqf": _sff(_ISQF, crps=True),
    "SFF_piecewise_linear": _sff(_PWL, crps=True),
    "SFF_iqn": _sff(_output("ImplicitQuantileNetworkOutput", cos_embedding_dim=16)),
    "SFF_spliced_binned_pareto": _sff(_SBP),
    # forecasts of the heads (DistributionForecast: samples, mean, icdf)
    "SFF_studentt_forecast": _sff(forecast="sample"),
    "SFF_negbin_forecast_mean": _sff(_output("NegativeBinomialOutput"), forecast="mean"),
    "SFF_isqf_forecast": _sff(_ISQF, forecast="sample", crps=True),
    "SFF_piecewise_linear_forecast": _sff(_PWL, forecast="sample", crps=True),
    "SFF_spliced_binned_pareto_forecast": _sff(_SBP, forecast="sample"),
    "SFF_spliced_binned_pareto_quantile": _sff(_SBP, forecast="quantile"),
    # DLinear
    "DLinear_mean_studentt": _model("d_linear", "DLinearModel", scaling="mean", **_DLINEAR),
    "DLinear_std_normal": _model("d_linear", "DLinearModel", _output("NormalOutput"), scaling="std", **_DLINEAR),
    "DLinear_beta_noscaling": _model("d_linear", "DLinearModel", _output("BetaOutput"), scaling=None, **_DLINEAR),
    # PatchTST
    "PatchTST": _model("patch_tst", "PatchTSTModel", num_feat_dynamic_real=0, activation="relu", norm_first=False,
                       scaling="mean", **_PATCH),
    "PatchTST_time_feat_std": _model("patch_tst", "PatchTSTModel", num_feat_dynamic_real=2, activation="gelu",
                                     norm_first=True, scaling="std", **_PATCH),
    # LagTST
    "LagTST_monthly": _model("lag_tst", "LagTSTModel", freq="ME", scaling="mean", **_LAG),
    "LagTST_lags_std": _model("lag_tst", "LagTSTModel", freq="W", lags_seq=[1, 2, 3, 7, 14], scaling="std", **_LAG),
    # iTransformer (multivariate)
    "ITransformer": _itransformer(sample=False),
    "ITransformer_sample": _itransformer(sample=True),
    # TiDE
    "TiDE_mean": _model("tide", "TiDEModel", _output("StudentTOutput"), cards=([3],), layer_norm=False,
                        scaling="mean", **_TIDE),
    "TiDE_layernorm_negbin": _model("tide", "TiDEModel", _output("NegativeBinomialOutput"), cards=([3],),
                                    layer_norm=True, scaling="std", **_TIDE),
    # Temporal Fusion Transformer
    "TFT_quantile": _model("tft", "TemporalFusionTransformerModel", cards=([1],), **_TFT),
    "TFT_full_covariates": _model("tft", "TemporalFusionTransformerModel",
                                  _output("QuantileOutput", [0.2, 0.25, 0.5, 0.9, 0.95]),
                                  cards=([2, 2], [2], [2, 2, 2]), **_TFT_FULL),
    "TFT_studentt": _model("tft", "TemporalFusionTransformerModel", _output("StudentTOutput"), cards=([1],), **_TFT),
    # DeepAR
    "DeepAR_weekly": _deepar(freq="W"),
    "DeepAR_negbin_nonnegative": _deepar(distr=_output("NegativeBinomialOutput"), nonnegative_pred_samples=True,
                                         **_DEEPAR),
    "DeepAR_normal_noscaling": _deepar(distr=_output("NormalOutput"), scaling=False, **_DEEPAR),
    "DeepAR_log_prob": _deepar(log_prob=True, **_DEEPAR),
    # MQF2
    "MQF2_energy_score": _deepar("mqf2", "MQF2MultiHorizonModel", distr=_mqf2_output(es_num_samples=8),
                                 es_num_samples=8, **_MQF2),
    "MQF2_log_likelihood": _deepar("mqf2", "MQF2MultiHorizonModel", distr=_mqf2_output(is_energy_score=False),
                                   is_energy_score=False, init_step=True, **_MQF2),
    # WaveNet
    "WaveNet": _wavenet(),
    "WaveNet_greedy_nologscale": _wavenet(temperature=0.0, use_log_scale_feature=False),
    # DeepNPTS
    "DeepNPTS_discrete": _deep_npts("DeepNPTSNetworkDiscrete"),
    "DeepNPTS_smooth": _deep_npts("DeepNPTSNetworkSmooth"),
    "DeepNPTS_discrete_softmax_scaled": _deep_npts("DeepNPTSNetworkDiscrete", use_softmax=True,
                                                   input_scaling="standard_normal_scaling",
                                                   loss_scaling="min_max_scaling"),
}
