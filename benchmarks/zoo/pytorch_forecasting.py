"""pytorch-forecasting (sktime) 1.8.0, import name ``pytorch_forecasting``: its forecasting
networks through the v1 API (a ``TimeSeriesDataSet``, ``Model.from_dataset(dataset, **hparams)``,
batches ``(x, y)`` from ``dataset.to_dataloader``), built as its own tests build them (the
``_pkg`` classes' ``get_base_test_params``, ``tests/_data_scenarios.py``, ``tests/_loss_mapping.py``)
and as its tutorials do, tiny, random weights, no download. Two small random pandas frames stand
in for the tests' data (the tests download the Stallion data set):

- a Stallion-like panel (2 agencies x 2 SKUs x 30 months: volume, prices, discount, weather,
  static population / income, month and three special days as categoricals), cut at month 22
  into a training set and a validation set ``from_dataset`` of it (the tests' ``make_dataloaders``:
  encoder 4, prediction 3), with the tests' model defaults (``price_actual`` known, the target
  unknown, ``agency`` static, a relative time index) and, for one TFT, the tutorial's full set
  (static categoricals and reals, known categoricals with a ``variable_groups`` group,
  ``NaNLabelEncoder(add_nan=True)``, a softplus ``GroupNormalizer``, random encoder lengths 2-4);
- ``generate_ar_data`` (the library's own synthetic generator, which the N-BEATS / N-HiTS
  tutorials and the tests use): 4 series without covariates, one held out for validation,
  encoder 30, prediction 10, an ``EncoderNormalizer`` (the tests' fixed-window scenario).

Eval: ``net(x)`` on the first batch of the validation dataloader (``train=False``, batch 4);
``DeepAR_sample``: ``net(x, n_samples=8)``, the sampling path ``predict`` takes (``Sample``).
Train: ``TrainStep(net)(x, y)`` on the first batch of the training dataloader (``train=True``,
shuffled, batch 4): ``BaseModel.step`` as ``training_step`` runs it, less the Lightning logging
(which needs a ``Trainer``): ``y`` packed with ``pack_padded_sequence`` when decoder lengths
differ, ``net(x)``, the model's loss metric (``MASE`` / ``MultiLoss`` also given the encoder
target), the monotone constraints' gradient penalty (``torch.autograd.grad``, ``create_graph``)
where set, and N-BEATS / N-HiTS's backcast loss when ``backcast_loss_ratio > 0``.

Models (39; ``from_dataset`` with the tests' hyperparameters, widths cut where the defaults are
large):
- ``TemporalFusionTransformer`` (``QuantileLoss``): defaults; tiny with dropout; non-causal
  attention; shared single-variable networks; the tutorial's full covariates; two targets
  (a ``MultiLoss``); a categorical target (``agency``) with ``CrossEntropy``;
- ``NBeats`` (``MASE``): interpretable (trend + seasonality, the default); with backcast loss;
  generic; ``NBeatsKAN``: defaults; the tests' KAN config (``num``, ``k``, ``sparse_init``,
  ``grid_range``, ``sp_trainable``);
- ``NHiTS``: hidden 16 (the tests'); with backcast loss; with covariates and
  ``NormalDistributionLoss``; ``QuantileLoss`` with average pooling and nearest interpolation;
- ``DeepAR``: LSTM and GRU cells (``NormalDistributionLoss``); target lags; the tests'
  ``NegativeBinomialDistributionLoss`` (rounded target, uncentred ``GroupNormalizer``),
  ``BetaDistributionLoss`` (a fraction target, logit normalizer) and
  ``MultivariateNormalDistributionLoss`` (log1p normalizer; two layers, as the tutorial);
  ``ImplicitQuantileNetworkDistributionLoss``; sampling;
- ``RecurrentNetwork`` (``MAE``): LSTM, GRU, target lags (eval decodes autoregressively);
- ``DecoderMLP`` (``QuantileLoss``): defaults; min encoder / prediction lengths 2; monotone
  constraints on ``price_actual``;
- ``TiDEModel``: the tests' three (default; ``temporal_decoder_hidden``; layer norm, dropout
  and a softplus ``GroupNormalizer``);
- ``TimeXer``: the tests' patch-1, patch-4 / gelu / 2 layers, and efficient-attention configs;
- ``xLSTMTime``: sLSTM, mLSTM, two sLSTM layers with an input projection (the tests' configs,
  ``output_size`` set to the horizon so that the prediction covers it).
``TiDEModel`` and ``xLSTMTime`` get the default loss (``SMAPE``) passed fresh: the default is
one ``SMAPE()`` instance shared by every model built in a process, and once a training step has
run through it its cached batch value makes the next ``from_dataset``'s deepcopy fail.

    pip install --no-deps pytorch-forecasting==1.8.0 lightning==2.6.6 scikit-base==1.0.2 \
        pandas==3.0.6 scikit-learn==1.9.1 joblib==1.6.0 threadpoolctl==3.8.0 narwhals==2.29.0

(lightning's other dependencies, torchmetrics, lightning-utilities, fsspec, PyYAML, tqdm, and
joblib's cloudpickle are installed above; pytorch-forecasting wants scikit-base < 1.1.) Nothing stubbed: matplotlib
(plots only) is imported lazily, and no held-out package is imported.

Left out: ``Baseline`` (no parameters, so no train loss); ``MQF2DistributionLoss`` (needs
``cpflows``, not installed; the tests skip it too); the experimental v2 API (``TimeSeries`` and
its data modules: ``DLinear``, ``Samformer``, the v2 TFT / TimeXer / TiDE), which a
``TimeSeriesDataSet`` does not feed; ``predict`` / ``to_prediction`` / ``to_quantiles``
(post-processing around the forward, with Lightning's prediction loop); the steps' logging and
interpretation plots; the remaining point losses (``RMSE``, ``MAPE``, ``PoissonLoss``,
``TweedieLoss``), ``LogNormalDistributionLoss`` (the same metric code paths as those covered).
Notes: every N-HiTS run fails under Dynamo (measured as it came; eager runs fine): its forward
builds ``MultiHorizonMetric()`` (to rescale the backcast and the block outputs), and tracing that
torchmetrics ``Metric.__init__`` ends in ``InternalTorchDynamoError`` (``Metric.__hash__`` reads
``_defaults`` before it is set); the breaks before it are captured. ``DeepAR_sample``'s train
is ``DeepAR_lstm``'s (``n_samples`` is refused while training);
the first shuffled training batch has full decoder lengths, so ``y`` is never packed here (TFT's
full-covariates and the lags models get random encoder lengths); the losses are torchmetrics
``Metric`` objects, whose ``__call__`` (``forward``) also updates their accumulated state.
"""

import functools

PACKAGE = "pytorch_forecasting"
DISTRIBUTION = "pytorch-forecasting"

_B = 4  # batch size
_ENC, _PRED = 4, 3  # covariates panel: encoder / prediction lengths (the tests')
_AR_ENC, _AR_PRED = 30, 10  # univariate AR data (the tests')
_MONTHS, _CUTOFF = 30, 22  # panel length, first validation time index
_SPECIAL = ["easter_day", "christmas", "music_fest"]


def warm_up():
    import lightning.pytorch  # noqa: F401
    import pandas  # noqa: F401
    import pytorch_forecasting  # noqa: F401
    import torch  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

@functools.cache
def _panel():
    """A stallion-like random panel: 2 agencies x 2 SKUs x ``_MONTHS`` months."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    rows = []
    for a, agency in enumerate(["Agency_01", "Agency_02"]):
        population, income = rng.uniform(1e5, 1e6), rng.uniform(1e5, 3e5)
        for s, sku in enumerate(["SKU_01", "SKU_02"]):
            level = rng.uniform(20, 80)
            for t in range(_MONTHS):
                month = t % 12 + 1
                price_regular = 1500 + 100 * s + rng.normal(0, 10)
                discount = max(0.0, rng.normal(100, 40))
                rows.append({
                    "agency": agency, "sku": sku, "time_idx": t, "month": str(month),
                    "volume": max(0.0, level * (1 + 0.3 * np.sin(2 * np.pi * month / 12)) + rng.normal(0, 5)),
                    "price_regular": price_regular, "price_actual": price_regular - discount,
                    "discount": discount, "discount_in_percent": 100 * discount / price_regular,
                    "industry_volume": rng.uniform(4e8, 6e8), "soda_volume": rng.uniform(6e8, 8e8),
                    "avg_max_temp": 25 + 5 * np.sin(2 * np.pi * month / 12) + rng.normal(0, 1),
                    "avg_population_2017": population, "avg_yearly_household_income_2017": income,
                    "easter_day": "easter_day" if month == 4 else "",
                    "christmas": "christmas" if month == 12 else "",
                    "music_fest": "music_fest" if month in (7, 8) and rng.random() < 0.5 else "",
                })
    data = pd.DataFrame(rows)
    data[_SPECIAL] = data[_SPECIAL].astype("category")
    data["log_volume"] = np.log1p(data.volume)
    data["target"] = data["volume"]
    return data


def _covariate_sets(**kwargs):
    """``make_dataloaders`` of the tests: the training set (before ``_CUTOFF``) and the
    validation set ``from_dataset`` of it, the tests' model defaults updated by ``kwargs``
    (``frame``: a function of the panel)."""
    from pytorch_forecasting import TimeSeriesDataSet

    data = _panel().copy()
    transform = kwargs.pop("frame", None)
    if transform is not None:
        data = transform(data)
    params = dict(
        target="target", group_ids=["agency", "sku"], time_varying_known_reals=["price_actual"],
        time_varying_unknown_reals=["target"], static_categoricals=["agency"], add_relative_time_idx=True,
    )
    params.update(kwargs)
    training = TimeSeriesDataSet(
        data[lambda d: d.time_idx < _CUTOFF].copy(), time_idx="time_idx",
        max_encoder_length=_ENC, max_prediction_length=_PRED, **params,
    )
    validation = TimeSeriesDataSet.from_dataset(training, data, min_prediction_idx=_CUTOFF)
    return training, validation


def _ar_sets():
    """``dataloaders_fixed_window_without_covariates`` of the tests (4 series, one held out)."""
    from pytorch_forecasting import TimeSeriesDataSet
    from pytorch_forecasting.data import EncoderNormalizer, NaNLabelEncoder
    from pytorch_forecasting.data.examples import generate_ar_data

    data = generate_ar_data(seasonality=10.0, timesteps=60, n_series=4, seed=213)
    held_out = data.series.iloc[:2]
    training = TimeSeriesDataSet(
        data[lambda d: ~d.series.isin(held_out)], time_idx="time_idx", target="value",
        categorical_encoders={"series": NaNLabelEncoder().fit(data.series)}, group_ids=["series"],
        static_categoricals=[], max_encoder_length=_AR_ENC, max_prediction_length=_AR_PRED,
        time_varying_unknown_reals=["value"], target_normalizer=EncoderNormalizer(),
    )
    validation = TimeSeriesDataSet.from_dataset(training, data[lambda d: d.series.isin(held_out)],
                                                stop_randomization=True)
    return training, validation


def _batch(sets, mode):
    """The first ``(x, y)`` of the training (train) or validation (eval) dataloader."""
    training, validation = sets
    if mode == "train":
        loader = training.to_dataloader(train=True, batch_size=_B, num_workers=0)
    else:
        loader = validation.to_dataloader(train=False, batch_size=_B, num_workers=0)
    return next(iter(loader))


# --- the training step --------------------------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    from torch.nn.utils import rnn

    from pytorch_forecasting.metrics import MASE, MultiLoss
    from pytorch_forecasting.models import NBeats, NBeatsKAN, NHiTS

    class TrainStep(nn.Module):
        """``BaseModel.step`` as ``training_step`` runs it (the loss it returns), without the
        logging: pack ``y`` when decoder lengths differ, ``net(x)``, the loss; the monotone
        constraints' penalty; N-BEATS / N-HiTS's backcast loss."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x, y):
            net = self.net
            if (x["decoder_lengths"] < x["decoder_lengths"].max()).any():
                lengths = x["decoder_lengths"].cpu()
                if isinstance(y[0], (list, tuple)):
                    y = ([rnn.pack_padded_sequence(p, lengths=lengths, batch_first=True, enforce_sorted=False)
                          for p in y[0]], y[1])
                else:
                    y = (rnn.pack_padded_sequence(y[0], lengths=lengths, batch_first=True, enforce_sorted=False),
                         y[1])
            constraints = getattr(net.hparams, "monotone_constraints", None) or {}
            if self.training and len(constraints) > 0:
                x["decoder_cont"].requires_grad_(True)
                out = net(x)
                prediction = out["prediction"]
                gradient = 0
                for pred in (prediction if isinstance(prediction, (list, tuple)) else [prediction]):
                    gradient = gradient + torch.autograd.grad(
                        outputs=pred, inputs=x["decoder_cont"], grad_outputs=torch.ones_like(pred),
                        create_graph=True, allow_unused=True)[0]
                indices = torch.tensor([net.hparams.x_reals.index(name) for name in constraints])
                monotonicity = torch.tensor(list(constraints.values()), dtype=gradient.dtype,
                                            device=gradient.device)
                gradient = gradient[..., indices] * monotonicity[None, None]
                penalty = 10 * torch.pow(gradient.clamp_max(0).mean(), 2)
            else:
                out = net(x)
                prediction = out["prediction"]
                penalty = None
            if isinstance(net.loss, (MASE, MultiLoss)):
                loss = net.loss(prediction, y, encoder_target=x["encoder_target"],
                                encoder_lengths=x["encoder_lengths"])
            else:
                loss = net.loss(prediction, y)
            if penalty is not None:
                loss = loss * (1 + penalty)
            ratio = getattr(net.hparams, "backcast_loss_ratio", 0.0) or 0.0
            if isinstance(net, (NBeats, NBeatsKAN, NHiTS)) and ratio > 0:
                backcast = out["backcast"]
                weight = ratio * net.hparams.prediction_length / net.hparams.context_length
                weight = weight / (weight + 1)
                if isinstance(net, NHiTS) and isinstance(net.loss, (MultiLoss, MASE)):
                    backcast_loss = net.loss(backcast, (x["encoder_target"], None), encoder_target=x["decoder_target"],
                                             encoder_lengths=x["decoder_lengths"])
                elif isinstance(net.loss, MASE):
                    backcast_loss = net.loss(backcast, x["encoder_target"], x["decoder_target"])
                else:
                    backcast_loss = net.loss(backcast, x["encoder_target"])
                loss = loss * (1 - weight) + backcast_loss * weight
            return loss

    class Sample(nn.Module):
        """``net(x, n_samples=n)``: DeepAR's sampling forward, as ``predict`` calls it."""

        def __init__(self, net, n_samples):
            super().__init__()
            self.net, self.n_samples = net, n_samples
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x):
            return self.net(x, n_samples=self.n_samples)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- models -------------------------------------------------------------------------------------

def _model(cls_name, sets="covariates", data=None, sample=None, **hparams):
    """``cls.from_dataset(training, **hparams)`` on the training set of ``sets`` ("covariates":
    the tests' panel updated by ``data``; "ar": the univariate AR data). Eval: ``net(x)``
    (``sample``: ``net(x, n_samples=sample)``); train: ``TrainStep``."""

    def make(mode):
        import pytorch_forecasting.models as pf

        cls = getattr(pf, cls_name)
        built = _ar_sets() if sets == "ar" else _covariate_sets(**_fresh(data or {}))
        net = cls.from_dataset(built[0], **_fresh(hparams))
        x, y = _batch(built, mode)
        if mode == "train":
            return _nets().TrainStep(net), (x, y), {}
        if sample is not None:
            return _nets().Sample(net, sample), (x,), {}
        return net, (x,), {}

    return make


def _fresh(hparams):
    """``hparams`` with callables (a loss, a normalizer factory) called: a fresh object per build."""
    return {k: (v() if callable(v) and k != "frame" else v) for k, v in hparams.items()}


def _loss(name, **kwargs):
    def make():
        from pytorch_forecasting import metrics

        return getattr(metrics, name)(**kwargs)

    return make


def _group_normalizer(**kwargs):
    def make():
        from pytorch_forecasting.data import GroupNormalizer

        return GroupNormalizer(**kwargs)

    return make


def _nan_encoder():
    from pytorch_forecasting.data import NaNLabelEncoder

    return {"sku": NaNLabelEncoder(add_nan=True)}


_FULL_COVARIATES = dict(  # the TFT tutorial's / the tests' full stallion covariates
    static_categoricals=["agency", "sku"],
    static_reals=["avg_population_2017", "avg_yearly_household_income_2017"],
    time_varying_known_categoricals=["special_days", "month"],
    variable_groups={"special_days": _SPECIAL},
    time_varying_known_reals=["time_idx", "price_regular", "price_actual", "discount", "discount_in_percent"],
    time_varying_unknown_categoricals=[],
    time_varying_unknown_reals=["target", "log_volume", "industry_volume", "soda_volume", "avg_max_temp"],
    min_encoder_length=2,
    randomize_length=True,
)


def _data(**kwargs):
    """``TimeSeriesDataSet`` kwargs (callables: called per build; ``frame``: a function of the panel)."""
    return kwargs


_SMAPE = _loss("SMAPE")  # the BaseModel default (TiDE, xLSTMTime), fresh: the default instance is shared

_TINY_TFT = dict(hidden_size=8, attention_head_size=2, hidden_continuous_size=4)

MODELS = {
    # Temporal Fusion Transformer (default loss: QuantileLoss)
    "TFT_default": _model("TemporalFusionTransformer"),
    "TFT_tiny_dropout": _model("TemporalFusionTransformer", hidden_size=4, attention_head_size=1, dropout=0.2,
                               hidden_continuous_size=2),
    "TFT_noncausal": _model("TemporalFusionTransformer", causal_attention=False, **_TINY_TFT),
    "TFT_shared_vsn": _model("TemporalFusionTransformer", share_single_variable_networks=True, **_TINY_TFT),
    "TFT_full_covariates": _model(
        "TemporalFusionTransformer",
        data=_data(**_FULL_COVARIATES, categorical_encoders=_nan_encoder,
                   target_normalizer=_group_normalizer(groups=["agency", "sku"], transformation="softplus")),
        dropout=0.1, **_TINY_TFT),
    "TFT_multi_target": _model("TemporalFusionTransformer",
                               data=_data(target=["target", "discount"],
                                          time_varying_unknown_reals=["target", "discount"]),
                               **_TINY_TFT),
    "TFT_crossentropy": _model("TemporalFusionTransformer", data=_data(target="agency"),
                               loss=_loss("CrossEntropy"), **_TINY_TFT),
    # N-BEATS (univariate): interpretable (trend + seasonality, the default), backcast loss, generic
    "NBeats_interpretable": _model("NBeats", sets="ar", widths=[16, 32]),
    "NBeats_backcast_loss": _model("NBeats", sets="ar", widths=[16, 32], backcast_loss_ratio=1.0),
    "NBeats_generic": _model("NBeats", sets="ar", stack_types=["generic"], num_blocks=[2], num_block_layers=[2],
                             widths=[16], expansion_coefficient_lengths=[8], sharing=[False]),
    "NBeatsKAN_default": _model("NBeatsKAN", sets="ar", widths=[16, 32]),
    "NBeatsKAN_kan_config": _model("NBeatsKAN", sets="ar", widths=[16, 32], num=7, k=4, sparse_init=True,
                                   grid_range=[-0.5, 0.5], sp_trainable=False),
    # N-HiTS
    "NHiTS_default": _model("NHiTS", sets="ar", hidden_size=16),
    "NHiTS_backcast_loss": _model("NHiTS", sets="ar", hidden_size=16, backcast_loss_ratio=1.0),
    "NHiTS_covariates_normal": _model("NHiTS", data=_data(add_relative_time_idx=False), hidden_size=16,
                                      loss=_loss("NormalDistributionLoss")),
    "NHiTS_quantile_avgpool": _model("NHiTS", sets="ar", hidden_size=16, loss=_loss("QuantileLoss"),
                                     pooling_mode="average", interpolation_mode="nearest"),
    # DeepAR (default loss: NormalDistributionLoss)
    "DeepAR_lstm": _model("DeepAR", hidden_size=5, cell_type="LSTM"),
    "DeepAR_gru": _model("DeepAR", hidden_size=5, cell_type="GRU"),
    "DeepAR_lags": _model("DeepAR", data=_data(lags={"volume": [2, 5]}, target="volume",
                                               time_varying_unknown_reals=["volume"], min_encoder_length=2),
                          hidden_size=5),
    "DeepAR_negbinomial": _model(
        "DeepAR", data=_data(frame=lambda d: d.assign(target=d.volume.round()),
                             target_normalizer=_group_normalizer(groups=["agency", "sku"], center=False)),
        hidden_size=5, loss=_loss("NegativeBinomialDistributionLoss")),
    "DeepAR_beta": _model(
        "DeepAR", data=_data(frame=lambda d: d.assign(target=(d.discount_in_percent / 100).clip(1e-3, 1.0)),
                             target_normalizer=_group_normalizer(groups=["agency", "sku"], transformation="logit")),
        hidden_size=5, loss=_loss("BetaDistributionLoss")),
    "DeepAR_multivariate_normal": _model(
        "DeepAR", data=_data(target_normalizer=_group_normalizer(groups=["agency", "sku"], transformation="log1p")),
        hidden_size=8, rnn_layers=2, dropout=0.1, loss=_loss("MultivariateNormalDistributionLoss", rank=4)),
    "DeepAR_iqn": _model("DeepAR", hidden_size=5, loss=_loss("ImplicitQuantileNetworkDistributionLoss", hidden_size=8)),
    "DeepAR_sample": _model("DeepAR", hidden_size=5, sample=8),
    # RecurrentNetwork (eval: autoregressive decoding)
    "RNN_lstm": _model("RecurrentNetwork", hidden_size=5, cell_type="LSTM"),
    "RNN_gru": _model("RecurrentNetwork", hidden_size=5, cell_type="GRU"),
    "RNN_lags": _model("RecurrentNetwork", data=_data(lags={"volume": [2, 5]}, target="volume",
                                                      time_varying_unknown_reals=["volume"], min_encoder_length=2),
                       hidden_size=5),
    # DecoderMLP
    "DecoderMLP_default": _model("DecoderMLP", hidden_size=16),
    "DecoderMLP_variable_lengths": _model("DecoderMLP", data=_data(min_prediction_length=2, min_encoder_length=2),
                                          hidden_size=16),
    "DecoderMLP_quantile_monotone": _model("DecoderMLP", hidden_size=16, loss=_loss("QuantileLoss"),
                                           monotone_constraints={"price_actual": -1}),
    # TiDE
    "TiDE_default": _model("TiDEModel", data=_data(add_relative_time_idx=False), hidden_size=5, loss=_SMAPE),
    "TiDE_temporal_decoder": _model("TiDEModel", data=_data(add_relative_time_idx=False), hidden_size=5, loss=_SMAPE,
                                    temporal_decoder_hidden=16),
    "TiDE_layernorm_softplus": _model(
        "TiDEModel",
        data=_data(add_relative_time_idx=False,
                   target_normalizer=_group_normalizer(groups=["agency", "sku"], transformation="softplus")),
        hidden_size=5, loss=_SMAPE, dropout=0.2, use_layer_norm=True),
    # TimeXer
    "TimeXer_patch1": _model("TimeXer", hidden_size=16, patch_length=1, n_heads=2, e_layers=1, d_ff=32, dropout=0.1),
    "TimeXer_patch4_gelu": _model("TimeXer", hidden_size=32, n_heads=4, e_layers=2, d_ff=64, patch_length=4,
                                  dropout=0.2, activation="gelu"),
    "TimeXer_efficient_attention": _model("TimeXer", hidden_size=32, patch_length=1, n_heads=4, e_layers=1, d_ff=32,
                                          dropout=0.1, use_efficient_attention=True),
    # xLSTMTime (univariate)
    "xLSTMTime_slstm": _model("xLSTMTime", sets="ar", hidden_size=32, input_size=1, output_size=_AR_PRED, loss=_SMAPE),
    "xLSTMTime_mlstm": _model("xLSTMTime", sets="ar", hidden_size=32, input_size=1, output_size=_AR_PRED, loss=_SMAPE,
                              xlstm_type="mlstm"),
    "xLSTMTime_slstm_projection": _model("xLSTMTime", sets="ar", hidden_size=32, input_size=1, output_size=_AR_PRED,
                                         loss=_SMAPE, num_layers=2, input_projection_size=32),
}
