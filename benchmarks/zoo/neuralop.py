"""neuraloperator (``neuralop``, the neural-operator library): ``FNO`` (1-d, 2-d, 3-d; grid
embedding or none, domain padding, group / instance norm, pre-activation with the tanh
stabilizer, complex data, separable weights, resolution scaling and an explicit ``output_shape``,
fewer modes than ``max_n_modes``, the skip variants), ``TFNO`` (Tucker, CP and TT factorized
weights, factorized and reconstructed), ``UNO``, ``UQNO`` (a frozen FNO and its quantile FNO),
``CODANO`` (variable-id positional encodings, static channels, a class token), ``FNOGNO`` and
``GINO`` (the native-torch neighbour search and segment reduction: no open3d, no torch_scatter),
the layers users call directly (``SpectralConv``, ``FNOBlocks``, ``CODALayer``, ``GNOBlock``,
``AttentionKernelIntegral`` with ``RotaryEmbedding2D``, ``FiniteDifferenceConvolution``,
``GridEmbedding2D`` and ``SinusoidalEmbedding`` each under the channel MLP that lifts it), an FNO
between ``FCLegendre`` Fourier continuation and the crop back, an FNO under
``spectral_projection_divergence_free``, and a ``Trainer`` batch step through a
``DefaultDataProcessor`` with ``UnitGaussianNormalizer`` s. Tiny sizes (batch 2, 16x16 grids,
6 modes a dimension, hidden width 8, 2 layers), random weights, no download.

"train" runs the library's own losses on the output against a fixed random target (a buffer of
the wrapper): ``LpLoss`` (d = 1, 2, 3; relative L2, and L1), ``H1Loss``, ``HdivLoss``,
``MSELoss``, ``FieldwiseAggregatorLoss`` (FNOGNO), the PINO-style ``BurgersEqnLoss`` + ``ICLoss``
under ``WeightedSumLoss``, ``PointwiseQuantileLoss`` for ``UQNO``, and the ``Relobralo`` /
``SoftAdapt`` loss aggregators (past their step 0, whose buffers are filled at build); layers
and embeddings without a loss of their own use the mean-loss wrapper. "eval" runs the bare
model (the trainer step: its ``eval_one_batch``, the dict of eval losses).

Stop 34: measured first as it came (RESULTS §28), before any rule looked at it.

    pip install --no-deps neuraloperator==2.0.0 tensorly==0.10.0 tensorly-torch==0.5.0

(numpy, scipy and opt-einsum, the rest of what ``import neuralop`` needs, were already there.
Of what else the wheel lists, wandb is imported behind a ``try`` (the trainer's logging), h5py
only by ``data/datasets/hdf5_dataset.py``, which nothing imports, zencfg and configmypy only by
the package's own tests, and matplotlib and ruamel.yaml not at all: none is installed and
nothing is stubbed.)

Left out: ``SFNO`` and ``LocalNO`` (``SphericalConv`` and the DISCO convolutions need
``torch_harmonics``, which ``neuralop.models`` skips when absent: ``from neuralop.models import
SFNO`` fails); ``FCGram`` (its Gram matrices are ``.npz`` files the wheel does not ship); the
``fno_block_precision="mixed"`` / ``"half"`` FNOs (half-precision FFTs: on CPU "MKL FFT doesn't
support tensors of type: Half"); ``DefaultDataProcessor.forward`` (it calls
``self.postprocess(output)`` without ``data_dict``: a TypeError in 2.0.0; the trainer step below
calls preprocess / model / postprocess as ``Trainer`` does); ``get_model`` (zencfg configs of
the same classes).
"""

import functools

PACKAGE = "neuralop"
DISTRIBUTION = "neuraloperator"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _S, _W, _M = 2, 16, 8, 6  # batch, grid side, hidden channels, Fourier modes per dimension
_POINTS, _LATENT = 48, 8  # points of the GNO models' input / output clouds, their latent grid side


@functools.cache
def _wrappers():
    """The loss modules, built when the first model is."""
    import torch

    class Fit(torch.nn.Module):
        """train: ``loss(net(*args), target)`` with one of the library's losses (plain objects)."""

        def __init__(self, net, loss, target):
            super().__init__()
            self.net, self.loss = net, loss
            object.__setattr__(self, "__wrapped__", net)  # `given:` labels judge net's forward
            self.register_buffer("target", target)

        def forward(self, *args, **kwargs):
            return self.loss(self.net(*args, **kwargs), self.target)

    class ComplexFit(Fit):
        """train: the L2 loss of a complex output, its real and imaginary parts apart."""

        def forward(self, *args, **kwargs):
            out = self.net(*args, **kwargs)
            return self.loss(out.real, self.target.real) + self.loss(out.imag, self.target.imag)

    class QuantileFit(Fit):
        """train: UQNO's quantile loss, the residual model's band against the frozen model's error."""

        def forward(self, *args, **kwargs):
            solution, quantile = self.net(*args, **kwargs)
            return self.loss(quantile, solution - self.target)

    class Aggregated(Fit):
        """train: a data loss and an H1 loss weighed by an ``Aggregator`` (Relobralo, SoftAdapt)."""

        def __init__(self, net, losses, aggregator, target, step=1):
            super().__init__(net, losses, target)
            self.aggregator, self.step = aggregator, step

        def forward(self, *args, **kwargs):
            out = self.net(*args, **kwargs)
            loss, _ = self.aggregator({k: fn(out, self.target) for k, fn in self.loss.items()}, self.step)
            return loss

    class TrainerStep(torch.nn.Module):
        """``Trainer.train_one_batch`` / ``eval_one_batch``: the data processor's preprocess, the
        model on ``**sample``, postprocess, then the training loss (train) or the dict of eval
        losses (eval) on ``(out, **sample)``."""

        def __init__(self, processor, model, train_loss, eval_losses):
            super().__init__()
            self.processor, self.model = processor, model
            self.train_loss, self.eval_losses = train_loss, eval_losses

        def forward(self, x, y):
            sample = self.processor.preprocess({"x": x, "y": y})
            out = self.model(**sample)
            out, sample = self.processor.postprocess(out, sample)
            if self.training:
                return self.train_loss(out, **sample)
            return {name: loss(out, **sample) for name, loss in self.eval_losses.items()}

    class Call(torch.nn.Module):
        """A module whose forward is one function of the library (``spectral_projection_divergence_free``)."""

        def __init__(self, fn, *consts):
            super().__init__()
            self.fn, self.consts = fn, consts

        def forward(self, x):
            return self.fn(x, *self.consts)

    return Fit, ComplexFit, QuantileFit, Aggregated, TrainerStep, Call


def _grid(d, c=3, side=_S, complex_data=False):
    import torch

    dtype = torch.cfloat if complex_data else torch.float32
    return torch.randn(_B, c, *(side,) * d, dtype=dtype)


def _lp(d, **kw):
    from neuralop.losses import LpLoss

    return LpLoss(d=d, **kw)


def _fit(mode, net, args, kwargs, loss, target):
    """eval: the bare net; train: ``Fit(net, loss, target)``."""
    if mode != "train":
        return net, args, kwargs
    Fit = _wrappers()[0]
    return Fit(net, loss, target), args, kwargs


# --- FNO / TFNO ---------------------------------------------------------------------------

def _fno(d=2, cls="FNO", loss=None, side=_S, out_side=None, output_shape=None, **options):
    """``FNO`` (or ``TFNO``) with ``d`` dimensions of ``_M`` modes, 3 channels in, 1 out, 2 layers;
    train: ``loss`` (default relative L2 over the d spatial dims) against a random target."""

    def make(mode):
        import neuralop.models

        net = getattr(neuralop.models, cls)(n_modes=(_M,) * d, in_channels=3, out_channels=1,
                                            hidden_channels=_W, n_layers=2, **options)
        x = _grid(d, side=side, complex_data=options.get("complex_data", False))
        kwargs = {"output_shape": output_shape} if output_shape else {}
        target = _grid(d, 1, out_side or side, complex_data=options.get("complex_data", False))
        if mode == "train" and options.get("complex_data"):
            return _wrappers()[1](net, _lp(d), target), (x,), kwargs
        return _fit(mode, net, (x,), kwargs, (loss or functools.partial(_lp, d))(), target)

    return make


def _h1(d=2):
    from neuralop.losses import H1Loss

    return H1Loss(d=d)


def _hdiv():
    from neuralop.losses.data_losses import HdivLoss

    return HdivLoss(d=2)


def _mse():
    from neuralop.losses.data_losses import MSELoss

    return MSELoss()


def _fieldwise():
    """Separate L2 losses on two sets of query points of an unbatched (points, 1) output, as the
    car-CFD GINO / FNOGNO configs split pressure points (``FieldwiseAggregatorLoss`` mappings)."""
    from neuralop.losses import FieldwiseAggregatorLoss, LpLoss

    half = _POINTS // 2
    return FieldwiseAggregatorLoss({"near": LpLoss(d=2), "far": LpLoss(d=2)},
                                   {"near": (slice(0, half),), "far": (slice(half, _POINTS),)})


def _fno_two_fields(loss):
    """A 2-d FNO with 2 output channels (velocity-like), trained with ``loss()`` on both."""

    def make(mode):
        from neuralop.models import FNO

        net = FNO(n_modes=(_M, _M), in_channels=3, out_channels=2, hidden_channels=_W, n_layers=2)
        return _fit(mode, net, (_grid(2),), {}, loss(), _grid(2, 2))

    return make


def _fno_burgers(mode):
    """PINO on Burgers' equation: an FNO over a (t, x) grid, the equation residual (finite
    differences) plus the initial-condition loss, summed by ``WeightedSumLoss``."""
    import torch
    from neuralop.losses import BurgersEqnLoss, ICLoss, WeightedSumLoss
    from neuralop.models import FNO

    net = FNO(n_modes=(_M, _M), in_channels=1, out_channels=1, hidden_channels=_W, n_layers=2)
    x = torch.randn(_B, 1, _S, _S)
    if mode != "train":
        return net, (x,), {}
    Fit = _wrappers()[0]

    class Pino(Fit):
        """The equation residual of the output, and its t = 0 row against the input's (the target)."""

        def forward(self, *args, **kwargs):
            return self.loss(self.net(*args, **kwargs), x=self.target)

    loss = WeightedSumLoss([BurgersEqnLoss(visc=0.01), ICLoss()], weights=[1.0, 1.0])
    return Pino(net, loss, x.clone()), (x,), {}


def _fno_aggregated(aggregator):
    """A 2-d FNO whose L2 and H1 losses an ``Aggregator`` weighs (its step-0 buffers filled at build)."""

    def make(mode):
        import neuralop.losses
        import torch
        from neuralop.losses import H1Loss, LpLoss
        from neuralop.models import FNO

        net = FNO(n_modes=(_M, _M), in_channels=3, out_channels=1, hidden_channels=_W, n_layers=2)
        x, target = _grid(2), _grid(2, 1)
        if mode != "train":
            return net, (x,), {}
        agg = getattr(neuralop.losses, aggregator)(net.parameters(), num_losses=2)
        wrapped = _wrappers()[3](net, {"l2": LpLoss(d=2), "h1": H1Loss(d=2)}, agg, target)
        with torch.no_grad():
            wrapped.step = 0
            wrapped(x)
            wrapped.step = 1
        return wrapped, (x,), {}

    return make


def _uno(mode):
    """``UNO``: 5 layers down (0.5) and back up (2), horizontal skips 4->0 and 3->1, padding."""
    from neuralop.models import UNO

    net = UNO(3, 1, _W, lifting_channels=16, projection_channels=16, n_layers=5,
              uno_out_channels=[8, 16, 16, 16, 8], uno_n_modes=[[_M, _M], [4, 4], [4, 4], [4, 4], [_M, _M]],
              uno_scalings=[[1.0, 1.0], [0.5, 0.5], [1, 1], [1, 1], [2, 2]], horizontal_skips_map={4: 0, 3: 1},
              domain_padding=0.2, channel_mlp_skip="linear")
    return _fit(mode, net, (_grid(2),), {}, _lp(2), _grid(2, 1))


def _uqno(mode):
    """``UQNO`` over a small FNO (its residual model a deep copy); train: ``PointwiseQuantileLoss``."""
    from neuralop.losses.data_losses import PointwiseQuantileLoss
    from neuralop.models import FNO, UQNO

    base = FNO(n_modes=(_M, _M), in_channels=3, out_channels=1, hidden_channels=_W, n_layers=2)
    net = UQNO(base)
    x = _grid(2)
    if mode != "train":
        return net, (x,), {}
    return _wrappers()[2](net, PointwiseQuantileLoss(alpha=0.9), _grid(2, 1)), (x,), {}


# --- CODANO -------------------------------------------------------------------------------

def _codano(positional=True, static=0, cls_token=False, n_vars=3):
    """``CODANO``: 3 layers (scaling 1, 0.5, 2; a horizontal skip 2->0), 2 heads, codimension 2,
    on a 16x16 grid; ``positional`` gives per-variable positional encodings (the ids passed)."""

    def make(mode):
        import torch
        from neuralop.models import CODANO

        ids = ["u", "v", "p", "T"][:n_vars] if positional else None
        net = CODANO(output_variable_codimension=1, hidden_variable_codimension=2, lifting_channels=4,
                     projection_channels=4, use_positional_encoding=positional, positional_encoding_dim=2,
                     positional_encoding_modes=[4, 4], static_channel_dim=static, variable_ids=ids,
                     use_horizontal_skip_connection=True, horizontal_skips_map={2: 0}, n_layers=3,
                     n_modes=[[_M, _M]] * 3, per_layer_scaling_factors=[[1, 1], [0.5, 0.5], [2, 2]],
                     n_heads=[2] * 3, attention_scaling_factors=[0.5] * 3, enable_cls_token=cls_token)
        x = torch.randn(_B, n_vars, _S, _S)
        statics = torch.randn(_B, static, _S, _S) if static else None
        return _fit(mode, net, (x, statics, ids), {}, _lp(2), torch.randn(_B, n_vars, _S, _S))

    return make


# --- GNO models ---------------------------------------------------------------------------

def _latent_grid(d=2):
    import torch

    axes = torch.meshgrid([torch.linspace(0, 1, _LATENT)] * d, indexing="ij")
    return torch.stack(axes, dim=-1)  # (LATENT, ..., d)


def _fnogno(batched=False, transform="linear", ada_in=False, embed="transformer"):
    """``FNOGNO``: an FNO on an 8x8 latent grid, a GNO from it to 48 query points (radius 0.3).
    Unbatched: one output channel, trained with the fieldwise loss; batched: two, with MSE."""

    def make(mode):
        import torch
        from neuralop.models import FNOGNO

        out = 2 if batched else 1
        net = FNOGNO(in_channels=3, out_channels=out, projection_channel_ratio=2, gno_coord_dim=2,
                     gno_pos_embed_type=embed, gno_transform_type=transform, fno_n_modes=(4, 4),
                     fno_hidden_channels=_W, fno_lifting_channel_ratio=2, fno_n_layers=2, gno_embed_channels=8,
                     gno_radius=0.3, gno_channel_mlp_hidden_layers=[16, 16], gno_use_open3d=False,
                     gno_use_torch_scatter=False, gno_batched=batched,
                     fno_norm="ada_in" if ada_in else None, fno_ada_in_features=4 if ada_in else None)
        in_p = _latent_grid()
        out_p = torch.rand(_POINTS, 2)
        f = torch.randn(*((_B,) if batched else ()), _LATENT, _LATENT, 3)
        args = (in_p, out_p, f) + ((torch.rand(1),) if ada_in else ())
        target = torch.randn(*((_B,) if batched else ()), _POINTS, out)
        return _fit(mode, net, args, {}, _mse() if batched else _fieldwise(), target)

    return make


def _gino(transform="linear", latent_features=False, embed="transformer"):
    """``GINO``: a GNO from 48 input points onto an 8x8 latent grid, an FNO there, a GNO out to 48
    query points; ``latent_features`` concatenates a feature map on the latent grid."""

    def make(mode):
        import torch
        from neuralop.models import GINO

        net = GINO(in_channels=3, out_channels=2, latent_feature_channels=2 if latent_features else None,
                   projection_channel_ratio=2, gno_coord_dim=2, in_gno_radius=0.3, out_gno_radius=0.3,
                   in_gno_transform_type=transform, out_gno_transform_type=transform,
                   in_gno_pos_embed_type=embed, out_gno_pos_embed_type=embed, fno_n_modes=(4, 4),
                   fno_hidden_channels=_W, fno_lifting_channel_ratio=2, fno_n_layers=2, gno_embed_channels=8,
                   in_gno_channel_mlp_hidden_layers=[16, 16], out_gno_channel_mlp_hidden_layers=[16, 16],
                   gno_use_open3d=False, gno_use_torch_scatter=False)
        kwargs = {"input_geom": torch.rand(_POINTS, 2), "latent_queries": _latent_grid(),
                  "output_queries": torch.rand(_POINTS, 2), "x": torch.randn(_B, _POINTS, 3)}
        if latent_features:
            kwargs["latent_features"] = torch.randn(_B, _LATENT, _LATENT, 2)
        return _fit(mode, net, (), kwargs, _mse(), torch.randn(_B, _POINTS, 2))

    return make


# --- layers -------------------------------------------------------------------------------

def _mean(mode, net, args, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), args, kwargs or {}


def _spectral_conv(d=2, output_shape=None, **options):
    """``SpectralConv`` (dense, or factorized by ``options``), 8 -> 8 channels."""

    def make(mode):
        from neuralop.layers.spectral_convolution import SpectralConv

        net = SpectralConv(_W, _W, n_modes=(_M,) * d, **options)
        kwargs = {"output_shape": output_shape} if output_shape else {}
        return _mean(mode, net, (_grid(d, _W),), kwargs)

    return make


def _fno_blocks(mode):
    """``FNOBlocks`` of 2 layers with instance norm and a channel MLP, layer 1 called alone."""
    from neuralop.layers.fno_block import FNOBlocks

    net = FNOBlocks(_W, _W, n_modes=(_M, _M), n_layers=2, norm="instance_norm")
    return _mean(mode, net, (_grid(2, _W), 1), {})


def _coda_layer(mode):
    """``CODALayer``: codimension-2 tokens, 2 heads, attention over variables, output at 2x."""
    from neuralop.layers.coda_layer import CODALayer

    net = CODALayer(n_modes=[_M, _M], n_heads=2, token_codimension=2, head_codimension=2,
                    per_channel_attention=False, norm="instance_norm")
    return _mean(mode, net, (_grid(2, 6),), {"output_shape": [2 * _S, 2 * _S]})


def _gno_block(transform="nonlinear", embed="nerf"):
    def make(mode):
        import torch
        from neuralop.layers.gno_block import GNOBlock

        net = GNOBlock(in_channels=3, out_channels=3, coord_dim=2, radius=0.3, transform_type=transform,
                       pos_embedding_type=embed, pos_embedding_channels=8, channel_mlp_layers=[16, 16],
                       use_torch_scatter_reduce=False, use_open3d_neighbor_search=False)
        return _mean(mode, net, (torch.rand(_POINTS, 2), torch.rand(_POINTS, 2), torch.randn(_B, _POINTS, 3)))

    return make


def _attention_kernel(mode):
    """``AttentionKernelIntegral`` with 2-d rotary positions (``RotaryEmbedding2D``), 2 heads."""
    import torch
    from neuralop.layers.attention_kernel_integral import AttentionKernelIntegral
    from neuralop.layers.embeddings import RotaryEmbedding2D

    net = AttentionKernelIntegral(16, 16, n_heads=2, head_n_channels=8)

    class WithRope(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn, self.rope = net, RotaryEmbedding2D(8 // 2)

        def forward(self, u, pos):
            return self.attn(u, pos, positional_embedding_module=self.rope)

    return _mean(mode, WithRope(), (torch.randn(_B, 32, 16), torch.rand(_B, 32, 2)))


def _finite_difference_conv(mode):
    from neuralop.layers.differential_conv import FiniteDifferenceConvolution

    net = FiniteDifferenceConvolution(4, 4, n_dim=2, kernel_size=3)
    return _mean(mode, net, (_grid(2, 4), 1.0 / _S))


def _fc_fno(mode):
    """A non-periodic 1-d signal through ``FCLegendre`` (8 points of Fourier continuation), an FNO
    on the extended, periodic domain, and the crop back (the library's FC recipe); train: L2."""
    import torch
    from neuralop.layers.fourier_continuation import FCLegendre
    from neuralop.models import FNO

    class FCFNO(torch.nn.Module):
        def __init__(self, extra=8):
            super().__init__()
            self.extra = extra
            self.fc = FCLegendre(d=3, n_additional_pts=extra)
            self.fno = FNO(n_modes=(_M,), in_channels=3, out_channels=1, hidden_channels=_W, n_layers=2)

        def forward(self, x):
            out = self.fno(self.fc(x, dim=1))
            return out[..., self.extra // 2: -(self.extra // 2)]

    return _fit(mode, FCFNO(), (_grid(1, side=32),), {}, _lp(1), _grid(1, 1, 32))


def _divergence_free(mode):
    """``spectral_projection_divergence_free`` of an FNO's 2-d velocity (the hard-constraint layer)."""
    import torch
    from neuralop.layers.spectral_projection import spectral_projection_divergence_free
    from neuralop.models import FNO

    Call = _wrappers()[5]
    net = torch.nn.Sequential(FNO(n_modes=(_M, _M), in_channels=3, out_channels=2, hidden_channels=_W, n_layers=2),
                              Call(spectral_projection_divergence_free, 1.0, (_S, _S)))
    return _fit(mode, net, (_grid(2),), {}, _lp(2), _grid(2, 2))


def _embedding(kind):
    """A positional embedding (no parameters of its own) and the channel MLP a user lifts it with:
    ``GridEmbedding2D`` + ``ChannelMLP`` on a grid, ``SinusoidalEmbedding`` + ``LinearChannelMLP``
    on a point cloud."""

    def make(mode):
        import torch
        from neuralop.layers import embeddings
        from neuralop.layers.channel_mlp import ChannelMLP, LinearChannelMLP

        if kind == "grid2d":
            net = torch.nn.Sequential(embeddings.GridEmbedding2D(in_channels=3, grid_boundaries=[[0, 2], [0, 1]]),
                                      ChannelMLP(in_channels=5, out_channels=_W, hidden_channels=16, n_layers=2))
            args = (_grid(2),)
        else:
            emb = embeddings.SinusoidalEmbedding(in_channels=2, num_frequencies=4, embedding_type=kind)
            net = torch.nn.Sequential(emb, LinearChannelMLP([emb.out_channels, 16, _W]))
            args = (torch.rand(_B, _POINTS, 2),)
        return _mean(mode, net, args)

    return make


def _trainer_step(mode):
    """The ``Trainer`` step on a 2-d FNO: ``DefaultDataProcessor`` with ``UnitGaussianNormalizer``
    s fitted on a random batch (train: L2 on normalized data; eval: L2 and H1 on decoded outputs)."""
    from neuralop.data.transforms.data_processors import DefaultDataProcessor
    from neuralop.data.transforms.normalizers import UnitGaussianNormalizer
    from neuralop.losses import H1Loss, LpLoss
    from neuralop.models import FNO

    x, y = _grid(2), _grid(2, 1)
    in_norm, out_norm = UnitGaussianNormalizer(dim=[0, 2, 3]), UnitGaussianNormalizer(dim=[0, 2, 3])
    in_norm.fit(x)
    out_norm.fit(y)
    processor = DefaultDataProcessor(in_norm, out_norm)
    net = FNO(n_modes=(_M, _M), in_channels=3, out_channels=1, hidden_channels=_W, n_layers=2)
    step = _wrappers()[4](processor, net, LpLoss(d=2), {"l2": LpLoss(d=2), "h1": H1Loss(d=2)})
    return step, (x, y), {}


MODELS = {
    # FNO, as the README builds it, and its options
    "FNO1d": _fno(1, side=32),
    "FNO2d": _fno(2),
    "FNO3d": _fno(3, side=8, loss=lambda: _lp(3)),
    "FNO2d_no_embedding_padding": _fno(2, positional_embedding=None, domain_padding=0.25),
    "FNO2d_group_norm": _fno(2, norm="group_norm", loss=_h1),
    "FNO2d_instance_norm_no_mlp": _fno(2, norm="instance_norm", use_channel_mlp=False),
    "FNO2d_preactivation_tanh": _fno(2, preactivation=True, stabilizer="tanh"),
    "FNO2d_complex": _fno(2, complex_data=True),
    "FNO2d_separable_skips_l1": _fno(2, separable=True, fno_skip="soft-gating", channel_mlp_skip="linear",
                                     channel_mlp_dropout=0.1, loss=lambda: _lp(2, p=1)),
    "FNO2d_superresolution": _fno(2, resolution_scaling_factor=[1, 2], out_side=2 * _S),
    "FNO2d_output_shape": _fno(2, output_shape=(20, 20), out_side=20),
    "FNO2d_incremental_modes": _fno(2, max_n_modes=(8, 8)),
    "FNO2d_hdiv": _fno_two_fields(_hdiv),
    "FNO2d_burgers_pino": _fno_burgers,
    "FNO2d_relobralo": _fno_aggregated("Relobralo"),
    "FNO2d_softadapt": _fno_aggregated("SoftAdapt"),
    "FNO2d_divergence_free": _divergence_free,
    "TFNO2d_tucker": _fno(2, cls="TFNO"),
    "TFNO2d_cp_reconstructed": _fno(2, cls="TFNO", factorization="cp", implementation="reconstructed"),
    "TFNO1d_tt": _fno(1, cls="TFNO", factorization="tt", side=32),
    "UNO": _uno,
    "UQNO": _uqno,
    "CODANO": _codano(static=2),
    "CODANO_cls_token_no_pe": _codano(positional=False, cls_token=True),
    "FNOGNO": _fnogno(),
    "FNOGNO_batched_nonlinear_ada_in": _fnogno(batched=True, transform="nonlinear", ada_in=True),
    "GINO": _gino(),
    "GINO_latent_features_kernelonly": _gino(transform="nonlinear_kernelonly", latent_features=True, embed="nerf"),
    "trainer_step": _trainer_step,
    # the layers
    "SpectralConv2d": _spectral_conv(2),
    "SpectralConv3d_tucker": _spectral_conv(3, factorization="tucker", implementation="factorized"),
    "FNOBlocks": _fno_blocks,
    "CODALayer": _coda_layer,
    "GNOBlock": _gno_block(),
    "AttentionKernelIntegral_rope": _attention_kernel,
    "FiniteDifferenceConvolution": _finite_difference_conv,
    "FNO1d_fc_legendre": _fc_fno,
    "GridEmbedding2D_channel_mlp": _embedding("grid2d"),
    "SinusoidalEmbedding_nerf_mlp": _embedding("nerf"),
}
