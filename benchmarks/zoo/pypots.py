"""pypots 1.5: the inner model cores (``ModelCore`` nn.Modules such as ``_SAITS``) of its
imputation, forecasting, classification, clustering and anomaly-detection models, as the
library's own training loop and ``predict`` call them. Tiny random weights, no download.

Each entry builds the public model class (``pypots.imputation.SAITS(...)`` etc.) from the
config of the library's own test for it (``tests/<task>/<model>.py`` at WenjieDu/PyPOTS; a few
widths cut down), ``epochs=1, batch_size=4``, on the CPU, and takes its core ``model.model``.
The inputs are those the library itself assembles: a forward pre-hook on the core records the
first call that ``model.fit(train_set)`` (train) or ``model.predict(test_set)`` (eval) makes
with one batch of its own ``Dataset``/``DataLoader``/``_assemble_input_for_*`` (the dict
``{"X", "missing_mask", "X_ori", "indicating_mask", "deltas", "y", "X_pred", ...}`` that model
expects, MIT masking by its dataset included) and stops the loop there. Data: a random walk
like the tests' ``preprocess_random_walk`` (8 samples, 8 steps, 5 features, 10% missing
completely at random; forecasting: 6 observed steps, 2 predicted; 2 classes).

Eval: ``core(inputs, **kwargs)`` exactly as ``predict`` calls it (CSDI / GPVAE with their
sampling counts, TS2Vec with ``encoding_window="full_series"``). Train: what
``BaseNNModel._train_model`` runs, ``core(inputs, calc_criterion=True)["loss"].sum()``, or the
first step of the models' own loops: USGAN's generator step (``training_object="generator"``),
CRLI's discriminator step (``["discrimination_loss"]``), VaDER's pre-training step
(``pretrain=True``).

Models (39):
- imputation: SAITS, Transformer, iTransformer, ETSformer, FEDformer (Wavelets), FiLM, FreTS,
  Crossformer, TimesNet, PatchTST, DLinear, Informer, Autoformer, Reformer,
  NonstationaryTransformer, Pyraformer, BRITS, MRNN, GPVAE, USGAN, CSDI, SCINet, StemGNN,
  ImputeFormer, TimeMixer, TEFN, TOTEM, TSLANet, GRUD, TiDE;
- forecasting: CSDI, Transformer, FITS;
- classification: BRITS, SeFT, TS2Vec;
- clustering: CRLI, VaDER;
- anomaly detection: TimesNet.

    pip install --no-deps pypots==1.5 pygrinder==0.7 tsdb==0.8 benchpots==1 ai4ts==0.0.3

(numpy, scipy, sympy, einops, pandas, h5py, scikit-learn, tensorboard, requests, tqdm are
installed already.) Stubbed: ``nonlinear_benchmarks`` (a dataset downloader that
``benchpots.datasets`` imports at its top; pypots imports benchpots for its sliding-window
utilities) and ``transformers`` (imported at the top of the TimeLLM / GPT4TS backbones, which
``pypots.imputation`` imports; the LLM models need pretrained weights and are left out, as
are MOMENT, TimeLLM, GPT4TS). Left out as well: the non-neural models (LOCF, Mean, Median,
Lerp, TRMF, BTTF) and the numpy post-processing of ``predict`` (anomaly scores, clustering).
"""

PACKAGE = "pypots"
DISTRIBUTION = "pypots"

mean_loss_module = None
classifier_loss_module = None
stub_modules = None

N_STEPS, N_PRED_STEPS, N_FEATURES, N_CLASSES, N_SAMPLES = 8, 2, 5, 2, 8

_TRANSFORMERS = ("LlamaModel", "LlamaTokenizer", "GPT2Model", "GPT2Tokenizer", "BertModel",
                 "BertTokenizer", "T5Config", "T5EncoderModel", "T5Model")


def before_build():
    stub_modules(
        {
            "nonlinear_benchmarks": (("EMPS", "CED"), ()),
            "transformers": ((), _TRANSFORMERS),
            "transformers.models": ((), ()),
            "transformers.models.gpt2": ((), ()),
            "transformers.models.gpt2.modeling_gpt2": ((), ("GPT2Model",)),
        },
        "pypots",
    )


def warm_up():
    before_build()
    import torch  # noqa: F401
    import pypots.anomaly_detection  # noqa: F401
    import pypots.classification  # noqa: F401
    import pypots.clustering  # noqa: F401
    import pypots.forecasting  # noqa: F401
    import pypots.imputation  # noqa: F401


def _data(task):
    """A random walk with 10% of the values missing, as the tests' data (numpy, NaN = missing)."""
    import numpy as np

    rng = np.random.RandomState(2023)
    X = np.cumsum(rng.randn(N_SAMPLES, N_STEPS, N_FEATURES), axis=1).astype("float32")
    X_ori = X.copy()
    X[rng.rand(*X.shape) < 0.1] = np.nan
    y = (np.arange(N_SAMPLES) % N_CLASSES).astype(float)
    if task == "forecasting":
        return {"X": X[:, :-N_PRED_STEPS], "X_pred": X_ori[:, -N_PRED_STEPS:]}
    return {"X": X, "X_ori": X_ori, "y": y, "anomaly_y": np.zeros(X.shape[:2], dtype=float)}


class _Stop(BaseException):
    """Ends fit / predict at the core's first call (not an Exception: their loops catch those)."""


def _record(model, run):
    """The (args, kwargs) of the first call ``run`` makes to ``model.model``."""
    calls = []

    def hook(module, args, kwargs):
        calls.append((args, dict(kwargs)))
        raise _Stop

    handle = model.model.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        run()
    except _Stop:
        pass
    finally:
        handle.remove()
    if not calls:
        raise RuntimeError("the core was never called")
    return calls[0]


def _train_step_module():
    import torch

    class TrainStep(torch.nn.Module):
        """One step of the library's training loop: the core's loss, summed as it backpropagates it."""

        def __init__(self, core, kwargs, key):
            super().__init__()
            self.core = core
            object.__setattr__(self, "__wrapped__", core)
            self.kwargs = kwargs
            self.key = key

        def forward(self, inputs):
            return self.core(inputs, **self.kwargs)[self.key].sum()

    return TrainStep


def _entry(task, cls_name, train_key="loss", train_kwargs=None, **config):
    def make(mode):
        import importlib

        import torch

        cls = getattr(importlib.import_module(f"pypots.{task}"), cls_name)
        n_steps = N_STEPS - N_PRED_STEPS if task == "forecasting" else N_STEPS
        extra = {"n_pred_steps": N_PRED_STEPS, "n_pred_features": N_FEATURES} if task == "forecasting" else {}
        model = cls(n_steps=n_steps, n_features=N_FEATURES, **extra, **config,
                    epochs=1, batch_size=4, device="cpu", verbose=False)
        core = model.model
        data = _data(task)
        if mode == "train":
            core.train()
            (inputs, *rest), kwargs = _record(model, lambda: model.fit(data))
            if train_kwargs is not None:
                kwargs = train_kwargs
            assert not rest, rest
            return _train_step_module()(core, kwargs, train_key), (inputs,), {}
        if task == _A:  # predict scores the training set too: the one fit stored
            _record(model, lambda: model.fit(data))
        core.eval()
        test = {k: v for k, v in data.items() if k in ("X", "X_pred")}
        with torch.no_grad():
            (inputs, *rest), kwargs = _record(model, lambda: model.predict(test))
        assert not rest, rest
        return core, (inputs,), kwargs

    return make


_I, _F, _C, _K, _A = "imputation", "forecasting", "classification", "clustering", "anomaly_detection"

MODELS = {
    # imputation
    "SAITS": _entry(_I, "SAITS", n_layers=2, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32, dropout=0.1),
    "Transformer": _entry(_I, "Transformer", n_layers=2, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32,
                          dropout=0.1),
    "iTransformer": _entry(_I, "iTransformer", n_layers=2, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32,
                           dropout=0.1),
    "ETSformer": _entry(_I, "ETSformer", n_encoder_layers=2, n_decoder_layers=2, d_model=32, n_heads=2, d_ffn=32,
                        top_k=3, dropout=0),
    "FEDformer": _entry(_I, "FEDformer", n_layers=1, d_model=32, n_heads=2, d_ffn=32, moving_avg_window_size=3,
                        dropout=0, version="Wavelets", modes=32, mode_select="random"),
    "FiLM": _entry(_I, "FiLM", window_size=[2], multiscale=[1, 2], modes1=32, dropout=0.5, d_model=32),
    "FreTS": _entry(_I, "FreTS", embed_size=16, hidden_size=32, channel_independence=False),
    "Crossformer": _entry(_I, "Crossformer", n_layers=2, d_model=32, n_heads=2, d_ffn=32, factor=10, seg_len=12,
                          win_size=2, dropout=0),
    "TimesNet": _entry(_I, "TimesNet", n_layers=2, top_k=3, d_model=32, d_ffn=32, n_kernels=3, dropout=0.1),
    "PatchTST": _entry(_I, "PatchTST", n_layers=2, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32,
                       patch_size=N_STEPS, patch_stride=8, dropout=0.1, attn_dropout=0),
    "DLinear": _entry(_I, "DLinear", moving_avg_window_size=3, individual=False, d_model=32),
    "Informer": _entry(_I, "Informer", n_layers=2, d_model=32, n_heads=2, d_ffn=32, factor=3, dropout=0),
    "Autoformer": _entry(_I, "Autoformer", n_layers=2, d_model=32, n_heads=2, d_ffn=32, factor=3,
                         moving_avg_window_size=3, dropout=0),
    "Reformer": _entry(_I, "Reformer", n_layers=2, d_model=32, n_heads=2, bucket_size=4, n_hashes=4, causal=True,
                       d_ffn=32, dropout=0),
    "NonstationaryTransformer": _entry(_I, "NonstationaryTransformer", n_layers=2, d_model=32, n_heads=2, d_ffn=32,
                                       d_projector_hidden=[64, 64], n_projector_hidden_layers=2, dropout=0),
    "Pyraformer": _entry(_I, "Pyraformer", n_layers=2, d_model=32, n_heads=2, d_ffn=32, window_size=[2, 2],
                         inner_size=3, dropout=0, attn_dropout=0),
    "BRITS": _entry(_I, "BRITS", rnn_hidden_size=32),
    "MRNN": _entry(_I, "MRNN", rnn_hidden_size=32),
    "GPVAE": _entry(_I, "GPVAE", latent_size=16),
    "USGAN": _entry(_I, "USGAN", rnn_hidden_size=32),
    "CSDI": _entry(_I, "CSDI", n_layers=1, n_channels=8, d_time_embedding=32, d_feature_embedding=3,
                   d_diffusion_embedding=32, n_diffusion_steps=5, n_heads=1),
    "SCINet": _entry(_I, "SCINet", n_stacks=2, n_levels=2, n_groups=1, n_decoder_layers=2, d_hidden=32,
                     kernel_size=5, dropout=0, concat_len=0, pos_enc=True),
    "StemGNN": _entry(_I, "StemGNN", n_layers=2, n_stacks=2, d_model=32),
    "ImputeFormer": _entry(_I, "ImputeFormer", n_layers=2, d_input_embed=32, d_learnable_embed=32, d_proj=32,
                           d_ffn=32, n_temporal_heads=2, dropout=0),
    "TimeMixer": _entry(_I, "TimeMixer", n_layers=2, top_k=5, d_model=32, d_ffn=32, dropout=0.1),
    "TEFN": _entry(_I, "TEFN", n_fod=2),
    "TOTEM": _entry(_I, "TOTEM", d_block_hidden=32, n_residual_layers=2, d_residual_hidden=32, d_embedding=32,
                    n_embeddings=64, commitment_cost=0.25, compression_factor=4),
    "TSLANet": _entry(_I, "TSLANet", n_layers=1, patch_size=2, d_embedding=32, dropout=0),
    "GRUD": _entry(_I, "GRUD", rnn_hidden_size=32),
    "TiDE": _entry(_I, "TiDE", n_layers=2, d_model=32, d_hidden=32, d_feature_encode=2, d_temporal_decoder_hidden=32,
                   dropout=0.1),
    # forecasting
    "forecasting_CSDI": _entry(_F, "CSDI", n_layers=1, n_channels=8, d_time_embedding=32, d_feature_embedding=3,
                               d_diffusion_embedding=32, n_diffusion_steps=5, n_heads=1),
    "forecasting_Transformer": _entry(_F, "Transformer", n_encoder_layers=1, n_decoder_layers=1, d_model=32,
                                      n_heads=2, d_k=16, d_v=16, d_ffn=32, dropout=0.1),
    "forecasting_FITS": _entry(_F, "FITS", individual=False, cut_freq=3),
    # classification
    "classification_BRITS": _entry(_C, "BRITS", n_classes=N_CLASSES, rnn_hidden_size=32),
    "classification_SeFT": _entry(_C, "SeFT", n_classes=N_CLASSES, n_layers=2, n_heads=2, d_model=32, d_ffn=64,
                                  n_seeds=2, dropout=0.1),
    "classification_TS2Vec": _entry(_C, "TS2Vec", n_classes=N_CLASSES, n_output_dims=8, d_hidden=32, n_layers=2),
    # clustering
    "clustering_CRLI": _entry(_K, "CRLI", train_key="discrimination_loss", n_clusters=N_CLASSES,
                              n_generator_layers=2, rnn_hidden_size=32, rnn_cell_type="GRU"),
    "clustering_VaDER": _entry(_K, "VaDER", n_clusters=N_CLASSES, rnn_hidden_size=32, d_mu_stddev=5),
    # anomaly detection
    "anomaly_detection_TimesNet": _entry(_A, "TimesNet", anomaly_rate=0.05, n_layers=2, top_k=3, d_model=32,
                                         d_ffn=32, n_kernels=3, dropout=0.1, apply_nonstationary_norm=False),
}
