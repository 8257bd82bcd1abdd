"""pytorch-tcn 1.2.3 (Paul Krug): temporal convolutional networks, as its README and its own
tests (``tests/unit/test_tcn.py``'s grid of ``TCN`` options, ``tests/unit/test_conv.py``'s
``TemporalConv1d`` / ``TemporalConvTranspose1d`` and streaming checks) use them, tiny (batches of
2, 4 input channels, 32 time steps, 4-6 residual blocks of 8-16 channels; streaming on batch 1
as the library requires), random weights, no download:

- ``TCN`` with the tests' options: the defaults (causal, ``weight_norm``, ``relu``,
  ``xavier_uniform``), non-causal, ``output_projection`` with ``output_activation="relu"``
  (causal and not; ``kernel_size=3``), ``kernel_size=7``, explicit ``dilations``
  ``[1, 2, 3, 4]``, ``dilation_reset=4`` (dilations 1, 2, 4, 1, 2, 4), ``use_norm``
  ``batch_norm`` / ``layer_norm`` with and without ``use_gate`` (a ``GLU``) and ``None``
  (the default ``weight_norm`` is a parametrization of both convs of each block), the
  activations ``gelu``, ``softmax`` (an implicit-dim ``nn.Softmax()``), ``log_softmax`` with a
  gate and a custom ``torch.nn.SiLU`` class, ``kernel_initializer="kaiming_normal"``
  (construction only), ``use_skip_connections`` (1x1 downsampling of the blocks
  whose width differs), ``input_shape="NLC"``, and ``embedding_shapes`` as the tests give them
  (global ``[(10,)]`` added, two global ``[(10,), (12,)]`` concatenated, local ``[(1, None)]``
  added with a gate, mixed ``[(8,), (6, None)]`` concatenated with a gate);
- streaming inference (README "Streaming Inference", ``test_tcn``'s inference part): one
  ``tcn(x, inference=True)`` call over a whole batch-1 sequence (internal buffers reassigned in
  ``TemporalPad1d.pad_inference``); blockwise processing of a new sequence
  (``reset_buffers()``, then ``tcn.inference`` on blocks of 2 steps, concatenated) plain, with
  the mixed global / local embeddings (the local one narrowed per block), and ``NLC`` with skip
  connections and ``layer_norm``;
- ``TemporalConv1d``: causal, non-causal (``test_noncausal_convolution``), dilated with
  ``padding_mode="reflect"``, strided with ``"replicate"``; streaming with its internal buffer
  (``reset_buffer()`` then frame by frame) and with an external ``BufferIO`` (``step()`` after
  each frame); the tests' two-layer ``ConvModel`` (a ``BufferIO`` built in ``forward`` from
  ``in_buffers``, ``torch.no_grad()``, returns the output and ``out_buffers``);
- ``TemporalConvTranspose1d``: causal (stride 4, kernel 8), non-causal with an odd stride
  (3, kernel 6: the last sample dropped), streaming with its internal and with an external
  buffer, and ``ConvModel`` of two of them (``test_convtranspose1d_streaming_with_onnx``);
- ``pytorch_tcn.condition.Condition`` (in the 1.2.3 wheel, not in the repository, not used by
  ``TCN`` nor tested): ``film`` with a list of a global (B, 5) and a local (B, 3, T) condition.

Eval: the output. Train: ``mean_loss_module`` (the library has no loss): the sum of the means of
the float outputs (``ConvModel``: the output and the out buffers).

    pip install --no-deps pytorch-tcn==1.2.3

It imports torch and numpy (installed) only. Nothing stubbed. Measured first as it came, before
any rule looked at it.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built, all 80 ran under Dynamo (40 eval,
40 train), none failed, and none has a break: every run is one graph (2-353 ops). Dynamo traces
the whole library as it is: the ``weight_norm`` parametrizations, the embedding checks on
shapes, the streaming buffers (``self.buffer = out_buffer`` in ``TemporalPad1d.pad_inference``,
``reset_buffers()`` through ``Module.apply`` and ``zero_()`` inside the forward), ``BufferIO``'s
iterator and lists, the ``torch.no_grad()`` block of ``ConvModel`` and the blockwise loops
(unrolled: up to 353 ops). First numbers with the frozen linter (``/tmp/lint-start55``):
graph-break statement recall -- (0/0), precision -- (0/0), 1 finding (in a file run), 1
unjudged (not reached): CL112 on the ``warnings.warn`` of ``get_kernel_init_fn``
(``tcn.py:117``), which runs at construction only, eagerly (it fires for ``gelu`` /
``softmax`` / ``log_softmax`` with the default ``xavier_uniform``). No miss, no false alarm.

Left out: ``DepthwiseConv1d`` and ``PointwiseConv1d`` (1.2.3 calls ``super(Cls).__init__(...)``
without ``self``: a ``TypeError`` at construction); ``TCN(..., in_buffers=...)`` (``TCN.forward``
hands each block ``in_buffers[2 * index:]``, which ``TemporalBlock`` unpacks into two: a
``ValueError``, and would pass on as ``in_buffer=``, which ``TemporalConv1d.forward`` rejects
since 1.2.2) and ``BaseTCN.get_in_buffers`` (calls ``self(..., buffer_io=...)``, an argument
``TCN.forward`` does not take: ``TypeError``); the tests' ONNX export and ``onnxruntime``; the
invalid-argument cases of the grid (they raise at construction); ``lookahead`` (must be 0); the
tests' full sizes (8 blocks of 32-128 channels, batch 10, 196 steps); ``Condition`` given one
tensor (the forward's comment allows it, but a tensor is itself ``Iterable``: the loop walks its
batch rows, ``IndexError`` / ``ValueError`` in eager), and its ``add`` / ``concat`` modes (the
same loop, one 1x1 conv), to stay at 40 models; the activation ``tanh``, ``weight_norm`` with a
gate, ``kernel_size=3`` alone and ``kernel_initializer="normal"`` (the same forward code as
entries kept).
"""

import functools

PACKAGE = "pytorch_tcn"
DISTRIBUTION = "pytorch-tcn"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _C, _T = 2, 4, 32           # batch, input channels, time steps
_CH = [8, 16, 16, 8]            # residual blocks' widths
_BLOCK, _T_STREAM = 2, 8        # streaming: block size, sequence length (batch 1)


@functools.cache
def _modules():
    import torch
    from torch import nn

    from pytorch_tcn.buffer import BufferIO

    class StreamBlocks(nn.Module):
        """A new sequence processed blockwise (README, ``test_tcn``'s piecewise inference):
        ``reset_buffers()``, then ``inference`` on each block of ``block`` steps (embeddings
        of shape (B, C, T) narrowed to the block), the outputs concatenated."""

        def __init__(self, tcn, block=_BLOCK, time_dim=-1):
            super().__init__()
            self.tcn, self.block, self.time_dim = tcn, block, time_dim

        def forward(self, x, embeddings=None):
            self.tcn.reset_buffers()
            outs = []
            for i in range(0, x.shape[self.time_dim], self.block):
                frame = x.narrow(dim=self.time_dim, start=i, length=self.block)
                if embeddings is None:
                    emb = None
                else:
                    emb = [e if len(e.shape) == 2 else e.narrow(dim=-1, start=i, length=self.block)
                           for e in embeddings]
                outs.append(self.tcn.inference(frame, embeddings=emb))
            return torch.cat(outs, dim=self.time_dim)

    class StreamInternal(nn.Module):
        """A conv layer frame by frame with its internal buffer (``test_conv``:
        ``reset_buffer()``, then ``conv(x[..., t:t+1], inference=True)``)."""

        def __init__(self, conv):
            super().__init__()
            self.conv = conv

        def forward(self, x):
            self.conv.reset_buffer()
            outs = []
            for t in range(x.shape[2]):
                outs.append(self.conv(x[:, :, t:t + 1], inference=True))
            return torch.cat(outs, dim=2)

    class StreamExternal(nn.Module):
        """A conv layer frame by frame with an external buffer: ``BufferIO([in_buffer])``,
        ``conv(frame, inference=True, buffer_io=...)``, ``buffer_io.step()``."""

        def __init__(self, conv):
            super().__init__()
            self.conv = conv

        def forward(self, x, in_buffer):
            buffer_io = BufferIO(in_buffers=[in_buffer])
            outs = []
            for t in range(x.shape[2]):
                outs.append(self.conv(x[:, :, t:t + 1], inference=True, buffer_io=buffer_io))
                buffer_io.step()
            return torch.cat(outs, dim=2)

    class ConvModel(nn.Module):
        """``tests/unit/test_conv.py``'s model (as exported to ONNX)."""

        def __init__(self, layer_1, layer_2):
            super(ConvModel, self).__init__()
            self.conv1 = layer_1
            self.conv2 = layer_2

        def forward(self, x, in_buffers):
            buffer_io = BufferIO(in_buffers=in_buffers)
            with torch.no_grad():
                x = self.conv1(x=x, inference=True, buffer_io=buffer_io)
                x = self.conv2(x=x, inference=True, buffer_io=buffer_io)
            out_buffers = buffer_io.out_buffers
            return x, out_buffers

    return {"StreamBlocks": StreamBlocks, "StreamInternal": StreamInternal, "StreamExternal": StreamExternal,
            "ConvModel": ConvModel}


def _train(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _randn(*shape):
    import torch

    return torch.randn(*shape)


# --- TCN ------------------------------------------------------------------------------------

def _tcn(channels=_CH, embeddings=None, **kwargs):
    """``TCN(4, channels, **kwargs)`` on (2, 4, 32) (``NLC``: transposed); ``embeddings``:
    the ``embedding_shapes``, ``None`` standing for the time steps."""

    def make(mode):
        from pytorch_tcn import TCN

        tcn = TCN(_C, channels, embedding_shapes=embeddings, **kwargs)
        x = _randn(_B, _T, _C) if kwargs.get("input_shape") == "NLC" else _randn(_B, _C, _T)
        kw = {}
        if embeddings is not None:
            kw["embeddings"] = [_randn(_B, *[_T if s is None else s for s in shape]) for shape in embeddings]
        return _train(tcn, mode), (x,), kw

    return make


def _tcn_activation(name):
    """``activation`` given as a module class (the tests' ``torch.nn.SiLU``)."""

    def make(mode):
        import torch

        return _tcn(activation=getattr(torch.nn, name))(mode)

    return make


def _tcn_stream(channels=_CH, **kwargs):
    """One ``tcn(x, inference=True)`` call over a whole batch-1 sequence."""

    def make(mode):
        from pytorch_tcn import TCN

        tcn = TCN(_C, channels, **kwargs)
        return _train(tcn, mode), (_randn(1, _C, _T),), {"inference": True}

    return make


def _tcn_blocks(channels=_CH, embeddings=None, **kwargs):
    """``StreamBlocks``: a batch-1 sequence of 8 steps in blocks of 2."""

    def make(mode):
        from pytorch_tcn import TCN

        tcn = TCN(_C, channels, embedding_shapes=embeddings, **kwargs)
        nlc = kwargs.get("input_shape") == "NLC"
        net = _modules()["StreamBlocks"](tcn, time_dim=1 if nlc else -1)
        x = _randn(1, _T_STREAM, _C) if nlc else _randn(1, _C, _T_STREAM)
        kw = {}
        if embeddings is not None:
            kw["embeddings"] = [_randn(1, *[_T_STREAM if s is None else s for s in shape]) for shape in embeddings]
        return _train(net, mode), (x,), kw

    return make


# --- conv layers -----------------------------------------------------------------------------

def _conv(transpose=False, batch=_B, length=_T, **kwargs):
    def make(mode):
        from pytorch_tcn import TemporalConv1d, TemporalConvTranspose1d

        cls = TemporalConvTranspose1d if transpose else TemporalConv1d
        return _train(cls(_C, 8, **kwargs), mode), (_randn(batch, _C, length),), {}

    return make


def _conv_stream(transpose=False, external=False, **kwargs):
    def make(mode):
        import torch

        from pytorch_tcn import TemporalConv1d, TemporalConvTranspose1d

        conv = (TemporalConvTranspose1d if transpose else TemporalConv1d)(_C, 8, causal=True, **kwargs)
        x = _randn(1, _C, _T_STREAM)
        if external:
            size = conv.buffer_size if transpose else kwargs["kernel_size"] - 1
            net = _modules()["StreamExternal"](conv)
            return _train(net, mode), (x, torch.zeros(1, _C, size)), {}
        return _train(_modules()["StreamInternal"](conv), mode), (x,), {}

    return make


def _conv_model(transpose=False):
    """``test_conv``'s ``ConvModel`` of two causal layers (4 -> 6 -> 8 channels) on one frame,
    its external buffers as the second argument."""

    def make(mode):
        import torch

        from pytorch_tcn import TemporalConv1d, TemporalConvTranspose1d

        if transpose:
            l1 = TemporalConvTranspose1d(_C, 6, kernel_size=8, stride=4, causal=True)
            l2 = TemporalConvTranspose1d(6, 8, kernel_size=8, stride=4, causal=True)
            sizes = (l1.buffer_size, l2.buffer_size)
        else:
            l1 = TemporalConv1d(_C, 6, kernel_size=3, stride=1, dilation=1, causal=True)
            l2 = TemporalConv1d(6, 8, kernel_size=3, stride=1, dilation=1, causal=True)
            sizes = (2, 2)
        net = _modules()["ConvModel"](l1, l2)
        in_buffers = [torch.zeros(1, _C, sizes[0]), torch.zeros(1, 6, sizes[1])]
        return _train(net, mode), (_randn(1, _C, 1), in_buffers), {}

    return make


# --- Condition ---------------------------------------------------------------------------------

def _condition(mode_name, dim_cond, conds):
    """``Condition(8, dim_cond, mode)`` on x (2, 8, 32); ``conds``: shapes, ``None`` for time."""

    def make(mode):
        from pytorch_tcn.condition import Condition

        net = Condition(8, dim_cond, mode_name)
        c = [_randn(_B, *[_T if s is None else s for s in shape]) for shape in conds]
        return _train(net, mode), (_randn(_B, 8, _T), c), {}

    return make


MODELS = {
    # --- TCN: test_tcn's option grid ---
    "TCN": _tcn(),
    "TCN_noncausal": _tcn(causal=False),
    "TCN_projection_relu": _tcn(kernel_size=3, output_projection=6, output_activation="relu"),
    "TCN_noncausal_projection_relu": _tcn(kernel_size=3, causal=False, output_projection=6,
                                          output_activation="relu"),
    "TCN_kernel7": _tcn(kernel_size=7),
    "TCN_dilations": _tcn(dilations=[1, 2, 3, 4]),
    "TCN_dilation_reset": _tcn(channels=[8] * 6, dilation_reset=4),
    "TCN_batch_norm": _tcn(use_norm="batch_norm"),
    "TCN_batch_norm_gate": _tcn(use_norm="batch_norm", use_gate=True),
    "TCN_layer_norm": _tcn(use_norm="layer_norm"),
    "TCN_layer_norm_gate": _tcn(use_norm="layer_norm", use_gate=True),
    "TCN_no_norm": _tcn(use_norm=None),
    "TCN_gelu": _tcn(activation="gelu"),
    "TCN_softmax": _tcn(activation="softmax"),
    "TCN_log_softmax_gate": _tcn(activation="log_softmax", use_gate=True),
    "TCN_SiLU_class": _tcn_activation("SiLU"),
    "TCN_kaiming_normal": _tcn(kernel_initializer="kaiming_normal"),
    "TCN_skip_connections": _tcn(use_skip_connections=True),
    "TCN_NLC": _tcn(input_shape="NLC"),
    "TCN_embedding_global_add": _tcn(embeddings=[(10,)], embedding_mode="add"),
    "TCN_embedding_two_concat": _tcn(embeddings=[(10,), (12,)], embedding_mode="concat"),
    "TCN_embedding_local_add_gate": _tcn(embeddings=[(1, None)], embedding_mode="add", use_gate=True),
    "TCN_embedding_mixed_concat_gate": _tcn(embeddings=[(8,), (6, None)], embedding_mode="concat",
                                            use_gate=True),
    # --- TCN: streaming inference ---
    "TCN_stream_one_call": _tcn_stream(),
    "TCN_stream_blocks": _tcn_blocks(),
    "TCN_stream_blocks_embeddings": _tcn_blocks(embeddings=[(8,), (6, None)], embedding_mode="concat"),
    "TCN_stream_blocks_NLC_skip_layer_norm": _tcn_blocks(input_shape="NLC", use_skip_connections=True,
                                                         use_norm="layer_norm"),
    # --- TemporalConv1d ---
    "TemporalConv1d": _conv(kernel_size=3),
    "TemporalConv1d_noncausal": _conv(kernel_size=3, causal=False),
    "TemporalConv1d_dilated_reflect": _conv(kernel_size=3, dilation=2, padding_mode="reflect"),
    "TemporalConv1d_strided_replicate": _conv(kernel_size=4, stride=2, padding_mode="replicate"),
    "TemporalConv1d_stream_internal": _conv_stream(kernel_size=3),
    "TemporalConv1d_stream_external": _conv_stream(external=True, kernel_size=3),
    "TemporalConv1d_ConvModel": _conv_model(),
    # --- TemporalConvTranspose1d ---
    "TemporalConvTranspose1d": _conv(transpose=True, kernel_size=8, stride=4),
    "TemporalConvTranspose1d_noncausal_odd": _conv(transpose=True, kernel_size=6, stride=3, causal=False),
    "TemporalConvTranspose1d_stream_internal": _conv_stream(transpose=True, kernel_size=8, stride=4),
    "TemporalConvTranspose1d_stream_external": _conv_stream(transpose=True, external=True, kernel_size=8,
                                                            stride=4),
    "TemporalConvTranspose1d_ConvModel": _conv_model(transpose=True),
    # --- Condition ---
    "Condition_film_list": _condition("film", [5, 3], [(5,), (3, None)]),
}
