"""demucs 4.1.0 (Alexandre Defossez, Meta): music source separation, as its training config
(``conf/config.yaml``: one block of options per model class), its experiment grids
(``demucs/grids/repro.py``, ``mmi.py``), its pretrained bags (``demucs/remote/*.yaml``), its
Makefile's ``test_train`` (``model=demucs demucs.depth=2 demucs.channels=4``) and its solver
(``demucs/solver.py``) use it, tiny (batches of 2 stereo mixes of 4 sources, 2048 samples for the
waveform models, 4096 for the transformer; 4-8 channels, 2-4 layers, FFT sizes 256-512, a
transformer of width 16 with 2 heads and 2-3 layers; ``samplerate`` 4096 so that a segment of
one second is 4096 samples), random weights, no download:

- ``Demucs`` (v2/v3, waveform U-Net): the Makefile's unit-test model (depth 2, 4 channels, the
  config's defaults: DConv branches in the encoder, GLU rewrites, GELU, x2 resampling with
  julius); the repro grid's v2 baseline (``dconv_mode=0``, ReLU, a 2-layer bidirectional LSTM at
  the bottom) and its ``normalize=True`` model; the DConv branch with ``LocalState`` attention
  and a chunked ``BLSTM`` (``max_steps=200``: the ``unfold`` / frame-loop path runs) from layer
  1 on (the config turns them on from layer 4 of 6); DConv in encoder and decoder with ReLU
  rewrites, no resampling and GroupNorm everywhere; mono with two sources, no rewrite;
- ``HDemucs`` (v3 hybrid, FFT size 256 and depth 4: the config's 4096 / 6 shrunk with the same
  shape, 3 frequency layers whose last merges the time branch, then a time layer; attention and
  LSTM in the last 2 DConv branches as the default 6 layers have them in their last 2): complex
  as channels (the config); MDX's ``hybrid_old`` padding; a frequency-only model without CaC and
  with Wiener filtering (1 EM step, train and test); plain masking (``wiener_iters=-1``); Wiener
  filtering with ``wiener_residual``; ``MultiWrap`` frequency bands (``multi_freqs=[0.25]`` over
  the 2 outer layers); a wider time branch (``channels_time``), encoder context, DConv in both
  and no frequency embedding;
- ``HTDemucs`` (v4 hybrid transformer, FFT size 512, depth 3, ``t_layers=2``): the config's
  defaults (sine embeddings, LayerNorm in, pre-norm, GroupNorm out, LayerScale); a segment
  longer than the input (the eval forward pads to the training length and trims back); no
  ``use_train_segment``; CAPE embeddings (numpy-drawn shifts and scales in training); learned
  scaled embeddings; ``bottom_channels`` (mmi grid: 1x1 convolutions around the transformer);
  cross-attention first with post-norm, ReLU, GroupNorm in and in the layers, no LayerScale; the
  mmi grid's DConv in both with transformer dropout; the 6-source ``htdemucs_6s``; Wiener
  filtering without CaC; ``t_sin_random_shift``; ``MultiWrap`` bands; no transformer
  (``t_layers=0``);
- the solver's steps: a training step with its augmentations (``Shift``, ``FlipChannels``,
  ``FlipSign``, ``Remix`` in groups of 2, ``Scale``) on the stacked sources, then the model on
  their sum and the weighted L1 loss (Demucs, HDemucs, HTDemucs); the MSE loss with the SVD
  penalty (``svd_penalty``: ``torch.svd_lowrank``, and the power method ``powm=True``);
  the validation step (``apply_model`` on the mixture, split in overlapping segments, with
  the random-shift trick, then the L1 loss) for Demucs and HTDemucs; a ``BagOfModels`` of an
  HDemucs and an HTDemucs with per-source weights (``mdx.yaml``'s shape) through ``apply_model``.

Eval: a model alone separates the mixture (``model(mix)``, shape (B, sources, channels, T)); the
solver entries run as they are. Train: the solver's loss: the model on ``sources.sum(dim=1)`` and
``F.l1_loss(estimate, sources, reduction="none").mean(dims).mean(0)`` weighted per source
(``weights: [1., 1., 1., 1.]``). ``apply_model`` switches the model to eval and runs it under
``no_grad`` in either mode (the validation entries have no gradient).

    pip install --no-deps demucs==4.1.0
    pip install --no-deps julius==0.2.8    # (installed)
    pip install --no-deps einops==0.8.2    # (installed)
    pip install --no-deps tqdm==4.70.1     # (installed: demucs.apply imports it)

The model modules (``demucs.demucs``, ``hdemucs``, ``htdemucs``, ``transformer``, ``apply``,
``augment``, ``svd``) import torch, numpy, julius, einops and tqdm only; none imports torchaudio
at its top. Nothing stubbed. demucs' other declared dependencies (huggingface-hub, safetensors,
sphn, lameenc, pyyaml) serve the audio I/O, the pretrained downloads and the CLI: not installed.
Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 34 models, 68 runs; 32 models built and ran under Dynamo (64 runs:
32 eval, 32 train), none failed under Dynamo; 2 timed out at the 120 s capture limit
(``Solver_valid_apply_HTDemucs`` and ``BagOfModels_apply``: ``apply_model`` splitting and shifting
over an HTDemucs, whose chunks of changing lengths recompile; eval timed out, train not run).
37 of the 64 runs break, 30 of them in demucs' own files, 7 only inside julius (``resample_frac``
in ``Demucs``' x2 resampling: ``.item()``, a ``ResampleFrac`` built in the forward). 27 runs are
one graph: every HTDemucs with complex-as-channels (transformer, CAPE's numpy draws and the
``Fraction`` segment included), Demucs without resampling, the HTDemucs solver step in eval.
The breaks in demucs: ``nn.LSTM`` in ``BLSTM.forward`` (``demucs.py:48``, GB0014, frame skipped:
Demucs v2 and every DConv branch with an LSTM, so every HDemucs), Wiener filtering
(``wiener.py:305`` ``int(t[-1])``, GB0124; ``wiener.py:517`` indexing with a 0-d tensor from
``cartesian_prod``, GB0033; both in loops, GB7000), the augmentations' ``random.random()``
(``augment.py:85``, ``108``, GB0007), ``svd_penalty`` (``penalty_rng.random()``, GB0170; its
``model.modules()`` loop reaching an ``nn.LSTM``, frame skipped) and ``apply_model`` (a
``threading.Lock``, ``copy.copy`` of a dict, the lock as a context manager, ``TensorChunk``
arithmetic, ``DummyPoolExecutor``). First numbers with the frozen linter
(``/tmp/lint-start56``): graph-break statement recall 0.27 (4/15), precision 1.00 (7/7), 11
findings (all in files run), 4 unjudged (1 shadowed, 3 not reached). 11 misses (7 in
``apply.py``, 2 in ``svd.py``, ``utils.py:138``, ``wiener.py:517``), no false alarm.

Left out: the sparse attention of ``HTDemucs`` (``t_sparse_self_attn`` / ``t_sparse_cross_attn``
/ ``t_auto_sparsity``: xformers' kernels); ``TorchHDemucsWrapper`` (torchaudio's HDemucs) and
``RepitchedWrapper`` (``demucs.repitch``: torchaudio and the ``soundstretch`` binary); the
validation metric ``new_sdr`` (``demucs.evaluate`` imports dora, musdb, museval and lameenc at its
top); ``demucs.train`` (dora, hydra, torchaudio) and the pretrained loaders and separation API
(downloads, audio files): the models are built directly with the keyword arguments
``train.get_model`` passes; ``ModelEMA`` and diffq quantization (optimizer-side, not forward
code); full-size configs (channels 48-64, FFT 4096, 10-second segments at 44.1 kHz).
"""

import functools

PACKAGE = "demucs"

_B = 2
_SOURCES = ["drums", "bass", "other", "vocals"]
_SOURCES6 = _SOURCES + ["guitar", "piano"]
_SR = 4096          # samplerate: a 1-second segment is 4096 samples
_LEN_WAVE = 2048    # Demucs / HDemucs clips
_LEN_HT = 4096      # HTDemucs clips (its training segment)


@functools.cache
def _modules():
    import torch
    from torch import nn
    from torch.nn import functional as F

    from demucs import augment
    from demucs.apply import apply_model
    from demucs.svd import svd_penalty

    class SolverTrain(nn.Module):
        """``Solver._run_one_epoch(train=True)``: augment the stacked sources, mix them, separate,
        the per-source weighted reconstruction loss (plus the SVD penalty when set)."""

        def __init__(self, model, augments=(), loss="l1", weights=None, svd=None):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.augment = nn.Sequential(*augments)
            self.loss = loss
            self.weights = list(weights or [1.0] * len(model.sources))
            self.svd = svd  # (penalty, kwargs) or None

        def forward(self, sources):
            sources = self.augment(sources)
            mix = sources.sum(dim=1)
            estimate = self.model(mix)
            if hasattr(self.model, "transform_target"):
                sources = self.model.transform_target(mix, sources)
            assert estimate.shape == sources.shape, (estimate.shape, sources.shape)
            dims = tuple(range(2, sources.dim()))
            if self.loss == "l1":
                loss = F.l1_loss(estimate, sources, reduction="none")
                loss = loss.mean(dims).mean(0)
            elif self.loss == "mse":
                loss = F.mse_loss(estimate, sources, reduction="none")
                loss = loss.mean(dims)
            else:
                raise ValueError(f"Invalid loss {self.loss}")
            weights = torch.tensor(self.weights).to(sources)
            loss = (loss * weights).sum() / weights.sum()
            if self.svd is not None:
                penalty, kw = self.svd
                loss = loss + penalty * svd_penalty(self.model, **kw)
            return loss

    class SolverValid(nn.Module):
        """``Solver._run_one_epoch(train=False)`` with ``valid_apply``: the first stem is the
        mixture; ``apply_model`` (split, shifts) separates it; the weighted L1 loss."""

        def __init__(self, model, shifts=1, split=True, overlap=0.25):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.shifts, self.split, self.overlap = shifts, split, overlap

        def forward(self, stems):
            mix = stems[:, 0]
            sources = stems[:, 1:]
            estimate = apply_model(self.model, mix, shifts=self.shifts, split=self.split,
                                   overlap=self.overlap)
            dims = tuple(range(2, sources.dim()))
            loss = F.l1_loss(estimate, sources, reduction="none").mean(dims).mean(0)
            weights = torch.tensor([1.0] * len(self.model.sources)).to(sources)
            return (loss * weights).sum() / weights.sum(), estimate

    class BagApply(nn.Module):
        """``apply_model`` on a ``BagOfModels`` (as ``separate.py`` / ``api.py`` call it)."""

        def __init__(self, bag, shifts=1, split=True, overlap=0.25):
            super().__init__()
            self.bag = bag
            self.shifts, self.split, self.overlap = shifts, split, overlap

        def forward(self, mix):
            return apply_model(self.bag, mix, shifts=self.shifts, split=self.split, overlap=self.overlap)

    return {"SolverTrain": SolverTrain, "SolverValid": SolverValid, "BagApply": BagApply,
            "augment": augment}


# --- models ---------------------------------------------------------------------------------

def _demucs_net(sources=_SOURCES, **kw):
    """``Demucs`` with ``conf/config.yaml``'s ``demucs:`` block (``normalize: false``), tiny."""
    from demucs.demucs import Demucs

    cfg = dict(audio_channels=2, channels=8, growth=2, depth=3, rewrite=True, lstm_layers=0,
               kernel_size=8, stride=4, context=1, gelu=True, glu=True, norm_groups=4, norm_starts=4,
               dconv_mode=1, dconv_depth=2, dconv_comp=4, dconv_attn=4, dconv_lstm=4, dconv_init=1e-4,
               resample=True, normalize=False, rescale=0.1, samplerate=_SR, segment=0.5)
    cfg.update(kw)
    return Demucs(sources=list(sources), **cfg)


def _hdemucs_net(sources=_SOURCES, **kw):
    """``HDemucs`` with the config's ``hdemucs:`` block, FFT 256 and depth 4 (3 frequency layers,
    the last merging the time branch, then one time layer), attention and LSTM in the last 2."""
    from demucs.hdemucs import HDemucs

    cfg = dict(audio_channels=2, channels=4, channels_time=None, growth=2, nfft=256, wiener_iters=0,
               end_iters=0, wiener_residual=False, cac=True, depth=4, rewrite=True, hybrid=True,
               hybrid_old=False, multi_freqs=[], multi_freqs_depth=3, freq_emb=0.2, emb_scale=10,
               emb_smooth=True, kernel_size=8, stride=4, time_stride=2, context=1, context_enc=0,
               norm_starts=3, norm_groups=4, dconv_mode=1, dconv_depth=2, dconv_comp=4, dconv_attn=2,
               dconv_lstm=2, dconv_init=1e-3, rescale=0.1, samplerate=_SR, segment=0.5)
    cfg.update(kw)
    return HDemucs(sources=list(sources), **cfg)


def _htdemucs_net(sources=_SOURCES, **kw):
    """``HTDemucs`` with the config's ``htdemucs:`` block, FFT 512, depth 3, a 2-layer transformer
    (one self-attention layer, one cross-attention layer per branch) of width 16."""
    from demucs.htdemucs import HTDemucs

    cfg = dict(audio_channels=2, channels=8, channels_time=None, growth=2, nfft=512, wiener_iters=0,
               end_iters=0, wiener_residual=False, cac=True, depth=3, rewrite=True, multi_freqs=[],
               multi_freqs_depth=3, freq_emb=0.2, emb_scale=10, emb_smooth=True, kernel_size=8,
               stride=4, time_stride=2, context=1, context_enc=0, norm_starts=4, norm_groups=4,
               dconv_mode=1, dconv_depth=2, dconv_comp=4, dconv_init=1e-3, bottom_channels=0,
               t_layers=2, t_hidden_scale=2.0, t_heads=4, t_dropout=0.0, t_layer_scale=True,
               t_gelu=True, t_emb="sin", t_max_positions=10000, t_max_period=10000.0,
               t_weight_pos_embed=1.0, t_cape_mean_normalize=True, t_cape_augment=True,
               t_cape_glob_loc_scale=[5000.0, 1.0, 1.4], t_sin_random_shift=0, t_norm_in=True,
               t_norm_in_group=False, t_group_norm=False, t_norm_first=True, t_norm_out=True,
               t_weight_decay=0.0, t_lr=None, t_sparse_self_attn=False, t_sparse_cross_attn=False,
               t_mask_type="diag", t_mask_random_seed=42, t_sparse_attn_window=400,
               t_global_window=100, t_sparsity=0.95, t_auto_sparsity=False, t_cross_first=False,
               rescale=0.1, samplerate=_SR, segment=_LEN_HT / _SR)
    cfg.update(kw)
    return HTDemucs(sources=list(sources), **cfg)


_NETS = {"demucs": (_demucs_net, _LEN_WAVE), "hdemucs": (_hdemucs_net, _LEN_WAVE),
         "htdemucs": (_htdemucs_net, _LEN_HT)}


def _sources(n_sources, length, channels=2, batch=_B):
    import torch

    return 0.1 * torch.randn(batch, n_sources, channels, length)


def _model(kind, sources=_SOURCES, audio_channels=2, **kw):
    """Eval: ``model(mix)``. Train: the solver's weighted L1 loss on the stacked sources."""

    def make(mode):
        build, length = _NETS[kind]
        net = build(sources=sources, audio_channels=audio_channels, **kw)
        src = _sources(len(sources), length, audio_channels)
        if mode == "train":
            return _modules()["SolverTrain"](net), (src,), {}
        return net, (src.sum(dim=1),), {}

    return make


def _augments(shift):
    """``Solver.__init__``'s augmentations with the config's ``augment:`` block (remix groups
    of 2: the batch)."""
    aug = _modules()["augment"]
    return [aug.Shift(shift=shift, same=False), aug.FlipChannels(), aug.FlipSign(),
            aug.Remix(proba=1, group_size=_B), aug.Scale(proba=1, min=0.25, max=1.25)]


def _solver_train(kind, loss="l1", svd=None):
    """The training step with augmentations (eval: the same module in eval, where ``Shift``
    only trims and the random augmentations are off)."""

    def make(mode):
        build, length = _NETS[kind]
        net = build()
        shift = 256
        step = _modules()["SolverTrain"](net, _augments(shift), loss=loss, svd=svd)
        return step, (_sources(len(_SOURCES), length + shift),), {}

    return make


def _solver_valid(kind, **kw):
    """The validation step: ``apply_model(model, mix, split=True)`` with one random shift."""

    def make(mode):
        build, length = _NETS[kind]
        net = build(**kw)
        return _modules()["SolverValid"](net), (_sources(1 + len(_SOURCES), length),), {}

    return make


def _bag(mode):
    """A ``BagOfModels`` of an HDemucs and an HTDemucs weighted per source (``mdx.yaml``)."""
    from demucs.apply import BagOfModels

    models = [_hdemucs_net(segment=_LEN_HT / _SR), _htdemucs_net()]
    bag = BagOfModels(models, weights=[[1., 1., 0., 0.], [1., 0., 1., 1.]])
    return _modules()["BagApply"](bag), (_sources(len(_SOURCES), _LEN_HT).sum(dim=1),), {}


MODELS = {
    # --- Demucs (waveform) ---
    "Demucs_unittest": _model("demucs", depth=2, channels=4),
    "Demucs_v2_blstm": _model("demucs", dconv_mode=0, gelu=False, lstm_layers=2),
    "Demucs_normalize": _model("demucs", normalize=True),
    "Demucs_dconv_attn_lstm": _model("demucs", dconv_attn=1, dconv_lstm=1),
    "Demucs_dconv_both_relu_noresample": _model("demucs", dconv_mode=3, glu=False, gelu=False,
                                                resample=False, context=0, norm_starts=0),
    "Demucs_mono_2stems_norewrite": _model("demucs", sources=["vocals", "accompaniment"], audio_channels=1,
                                           rewrite=False),
    # --- HDemucs (hybrid) ---
    "HDemucs": _model("hdemucs"),
    "HDemucs_hybrid_old": _model("hdemucs", hybrid_old=True),
    "HDemucs_freq_only_wiener": _model("hdemucs", hybrid=False, cac=False, wiener_iters=1, end_iters=1),
    "HDemucs_mask": _model("hdemucs", cac=False, wiener_iters=-1, end_iters=-1),
    "HDemucs_wiener_residual": _model("hdemucs", cac=False, wiener_iters=1, end_iters=1,
                                      wiener_residual=True),
    "HDemucs_multi_freqs": _model("hdemucs", multi_freqs=[0.25], multi_freqs_depth=2),
    "HDemucs_channels_time_context": _model("hdemucs", channels_time=8, context_enc=1, dconv_mode=3,
                                            freq_emb=0),
    # --- HTDemucs (hybrid transformer) ---
    "HTDemucs": _model("htdemucs"),
    "HTDemucs_padded_segment": _model("htdemucs", segment=1.25),
    "HTDemucs_no_train_segment": _model("htdemucs", use_train_segment=False),
    "HTDemucs_cape": _model("htdemucs", t_emb="cape"),
    "HTDemucs_scaled_emb": _model("htdemucs", t_emb="scaled", t_max_positions=256),
    "HTDemucs_bottom_channels": _model("htdemucs", bottom_channels=8),
    "HTDemucs_cross_first_postnorm_groupnorm": _model(
        "htdemucs", t_cross_first=True, t_norm_first=False, t_norm_out=False, t_layer_scale=False,
        t_gelu=False, t_norm_in=False, t_norm_in_group=True, t_group_norm=True),
    "HTDemucs_mmi_dconv_both_dropout": _model("htdemucs", dconv_mode=3, t_dropout=0.02, t_layers=3),
    "HTDemucs_6s": _model("htdemucs", sources=_SOURCES6),
    "HTDemucs_wiener": _model("htdemucs", cac=False, wiener_iters=1, end_iters=1),
    "HTDemucs_sin_random_shift": _model("htdemucs", t_sin_random_shift=2),
    "HTDemucs_multi_freqs": _model("htdemucs", multi_freqs=[0.5], multi_freqs_depth=2),
    "HTDemucs_no_transformer": _model("htdemucs", t_layers=0),
    # --- the solver ---
    "Solver_train_augment_Demucs": _solver_train("demucs"),
    "Solver_train_augment_HDemucs": _solver_train("hdemucs"),
    "Solver_train_augment_HTDemucs": _solver_train("htdemucs"),
    "Solver_train_mse_svd_lowrank": _solver_train("demucs", loss="mse",
                                                  svd=(1e-5, dict(min_size=0.0001, dim=1, niters=2))),
    "Solver_train_svd_powm": _solver_train("hdemucs", svd=(1e-5, dict(min_size=0.0001, powm=True,
                                                                     conv_only=True, convtr=False))),
    "Solver_valid_apply_Demucs": _solver_valid("demucs"),
    "Solver_valid_apply_HTDemucs": _solver_valid("htdemucs", segment=0.5),
    "BagOfModels_apply": _bag,
}
