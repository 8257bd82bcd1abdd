"""xlstm (NX-AI) 2.0.6, import name ``xlstm``: the NeurIPS-paper xLSTM (``xLSTMBlockStack``,
``xLSTMLMModel``, their mLSTM and sLSTM blocks and layers) and the xLSTM 7B architecture
(``xlstm.xlstm_large``: ``xLSTMLarge``, its block stack and mLSTM layer, ``generate``), as its
README, ``experiments/`` and ``tests/`` use them, tiny (``embedding_dim`` 32, 4 heads, 2-4 blocks,
batch 2, 16-32 steps, a 64-token vocabulary), random weights, no download, CPU, pure PyTorch only:
sLSTM ``backend="vanilla"`` (the README's ``"cuda"`` compiles a CUDA extension), xLSTM Large with
the README's "other hardware" native kernels (``chunkwise--native_autograd`` /
``native_sequence__native`` / ``native`` step, from ``mlstm_kernels``, whose Triton kernels are
skipped by its own ``try: ... except ModuleNotFoundError`` when Triton is absent):

- ``xLSTMBlockStack`` on ``(B, S, D)`` embeddings: mLSTM only, sLSTM only, the README's mixed
  stack (sLSTM at block 1), the parity experiments' shapes (1 head, ``embedding_dim`` 64, xLSTM[1:1]),
  a sequence shorter than ``context_length`` (the causal mask built on the fly), bias and dropout
  without the post-blocks norm, an sLSTM without its causal conv (``conv1d_kernel_size=0``, small
  init, standard recurrent init), the plain-LSTM pointwise function (``function="lstm"``), the
  gated feed-forward's other activations; the recurrent inference path ``xLSTMBlockStack.step``
  (one token at a time from an empty state over the sequence: mLSTM, sLSTM, mixed; and one step
  from a warm state);
- single blocks and layers: ``mLSTMBlock``, ``sLSTMBlock``, ``mLSTMLayer``, and ``sLSTMLayer``
  over a sequence in two halves, carrying ``return_last_state`` conv and sLSTM states;
- ``xLSTMLMModel``: the README's mixed LM, the three parity configs (``parity_xlstm01/10/11.yaml``:
  sLSTM only, mLSTM only, both), tied weights with embedding dropout, ``main.py``'s bfloat16
  ``torch.autocast`` step (CPU autocast here), and the recurrent ``step``: greedy generation
  (prefill by steps, then 4 new tokens; user side: the library has no generate for it) and one
  step from a warm state;
- ``xLSTMLarge`` (the 7B config's ratios: ``qk_dim_factor`` 0.5, soft caps 15/30, FFN 2.667 rounded
  to 64): the README inference forward (``return_last_states=True``, ``mode="inference"``:
  chunkwise with padding), a prefill whose length is not a multiple of the chunk size, the fused
  weights (``weight_mode="fused"``), bias without the out norm or the soft caps, one decode step
  from a prefilled state (the state copied in place), ``generate`` (greedy, with a prefill) and
  ``generate_tokens`` with no prefill (from the BOS token) as ``tests/test_generation.py`` calls
  them; ``mode="train"`` with the chunkwise kernels ``native_autograd`` and ``native_custbw`` (its
  own ``autograd.Function``); the backbone ``xLSTMLargeBlockStack`` and one ``mLSTMLayer``.

Eval: the outputs above (logits; ``(logits, state)`` where the model returns its state; the
generated tokens). Train: the LMs' next-token cross-entropy as ``experiments/main.py`` computes it
(``cross_entropy(outputs.view(-1, vocab), labels.view(-1), ignore_index=-1)``, masked labels -1
as the parity data set makes them; ``LMLoss``), the stacks, blocks and layers through
``mean_loss_module``. The recurrent step, generate and inference-mode models have no training
form (``mode="inference"`` "does not support training"; the step paths copy into their conv
state in place): in "train" they run the training step of the same config instead (the stack's
``forward`` through ``mean_loss_module``, the LM's ``LMLoss``, xLSTM Large switched to
``mode="train"`` with ``return_last_states=True`` and a chunk size that divides the sequence).

    pip install --no-deps xlstm==2.0.6 mlstm_kernels==2.0.6

(``xlstm.xlstm_large.model`` imports ``mlstm_kernels`` at its top; PyYAML, safetensors, packaging,
einops and numpy are installed already; ``ninja`` only builds the sLSTM CUDA kernel and
``matplotlib`` only plots in ``mlstm_kernels``' benchmarks, neither is imported here.)
Nothing stubbed.

Left out: the sLSTM ``"cuda"`` backend (a CUDA extension compiled at build) and the Triton kernels
of ``mlstm_kernels`` (``triton_limit_chunk``, ``triton_xl_chunk``, the Triton step and sequence
kernels); xLSTM Large with ``mode="train_with_padding"`` or a ``parallel--*`` kernel (both refuse
``return_last_states=True``, and ``xLSTMLarge``'s ``mLSTMLayer`` always unpacks ``h, state`` from
the backend, so without the states it fails in eager) and with the default
``return_last_states=False`` in ``mode="train"`` (the same unpacking);
``xlstm_large.from_pretrained.load_from_pretrained`` (checkpoints on disk); building configs from
YAML through ``dacite`` (the README's alternative; same configs, the same forward).
"""

import functools

PACKAGE = "xlstm"

_B, _S, _D, _VOCAB = 2, 16, 32, 64  # batch, sequence length, embedding dim, vocabulary
_NEW = 4  # tokens the generate loops add


def warm_up():
    import torch  # noqa: F401

    import xlstm  # noqa: F401
    import xlstm.xlstm_large.model  # noqa: F401
    import xlstm.xlstm_large.generate  # noqa: F401


# --- the user-side modules (built once) ---------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from torch import nn

    class LMLoss(nn.Module):
        """``experiments/main.py``'s training step: the cross-entropy of the logits against the
        labels, ``ignore_index=-1``, optionally under ``torch.autocast`` (bfloat16)."""

        def __init__(self, model, vocab_size, autocast=False):
            super().__init__()
            self.model, self.vocab_size, self.autocast = model, vocab_size, autocast

        def forward(self, inputs, labels):
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=self.autocast):
                outputs = self.model(inputs)
                if isinstance(outputs, tuple):  # xLSTMLarge with return_last_states=True: (logits, state)
                    outputs = outputs[0]
                loss = F.cross_entropy(outputs.view(-1, self.vocab_size), labels.view(-1), ignore_index=-1)
            return loss

    class Autocast(nn.Module):
        """``main.py``'s validation forward: the model under bfloat16 ``torch.autocast``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, inputs):
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
                return self.model(inputs)

    class StepLoop(nn.Module):
        """Recurrent inference over a sequence: ``model.step`` one time step at a time from an
        empty state (``state=None``)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            state = None
            ys = []
            for t in range(x.size(1)):
                y, state = self.model.step(x[:, t : t + 1], state)
                ys.append(y)
            return torch.cat(ys, dim=1), state

    class Step(nn.Module):
        """One ``model.step(x, state)`` from the state given."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x, state):
            return self.model.step(x, state)

    class GreedyGenerate(nn.Module):
        """Greedy generation with ``xLSTMLMModel.step``: the prompt fed token by token, then
        ``new`` tokens, each the argmax of the last logits fed back."""

        def __init__(self, model, new):
            super().__init__()
            self.model, self.new = model, new

        def forward(self, prompt):
            state = None
            for t in range(prompt.size(1)):
                logits, state = self.model.step(prompt[:, t : t + 1], state)
            tokens = [prompt]
            for _ in range(self.new):
                nxt = logits[:, -1:].argmax(dim=-1)
                tokens.append(nxt)
                logits, state = self.model.step(nxt, state)
            return torch.cat(tokens, dim=1)

    class LargeGenerate(nn.Module):
        """``xLSTMLarge.generate(prefill_tokens, max_length)`` (greedy): the generated tokens."""

        def __init__(self, model, max_length):
            super().__init__()
            self.model, self.max_length = model, max_length

        def forward(self, prefill_tokens):
            tokens, _ = self.model.generate(prefill_tokens=prefill_tokens, max_length=self.max_length)
            return tokens

    class GenerateTokens(nn.Module):
        """``generate_tokens(llm_forward, prefill_tokens=None, ...)`` as ``tests/test_generation.py``
        calls it: no prefill, generation from the BOS token."""

        def __init__(self, model, max_length):
            super().__init__()
            self.model, self.max_length = model, max_length

        def forward(self, bos):
            from xlstm.xlstm_large.generate import generate_tokens

            def llm_forward(tokens, state):
                return self.model(tokens, state)

            tokens, _ = generate_tokens(llm_forward=llm_forward, prefill_tokens=bos, max_length=self.max_length,
                                        device="cpu")
            return tokens

    class Chunked(nn.Module):
        """A long sequence in two halves through an ``sLSTMLayer``, the second half started from
        the first half's conv and sLSTM states (``return_last_state=True``)."""

        def __init__(self, layer):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            half = x.size(1) // 2
            y1, state = self.layer(x[:, :half], return_last_state=True)
            y2, state = self.layer(x[:, half:], return_last_state=True, **state)
            return torch.cat([y1, y2], dim=1)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- configs ---------------------------------------------------------------------------------------

def _mlstm_block(num_heads=4, conv1d_kernel_size=4, qkv_proj_blocksize=4, proj_factor=2.0):
    from xlstm import mLSTMBlockConfig, mLSTMLayerConfig

    return mLSTMBlockConfig(mlstm=mLSTMLayerConfig(conv1d_kernel_size=conv1d_kernel_size,
                                                   qkv_proj_blocksize=qkv_proj_blocksize, num_heads=num_heads,
                                                   proj_factor=proj_factor))


def _slstm_block(num_heads=4, conv1d_kernel_size=4, act_fn="gelu", proj_factor=1.3, feedforward=True, **slstm):
    from xlstm import FeedForwardConfig, sLSTMBlockConfig, sLSTMLayerConfig

    slstm.setdefault("bias_init", "powerlaw_blockdependent")
    return sLSTMBlockConfig(
        slstm=sLSTMLayerConfig(backend="vanilla", num_heads=num_heads, conv1d_kernel_size=conv1d_kernel_size, **slstm),
        feedforward=FeedForwardConfig(proj_factor=proj_factor, act_fn=act_fn) if feedforward else None,
    )


def _stack_kwargs(kind, num_blocks=2, embedding_dim=_D, context_length=_S, heads=4, slstm_at=(1,), **over):
    """``xLSTMBlockStackConfig`` keywords: ``kind`` "m" (mLSTM only), "s" (sLSTM only) or "ms" (both)."""
    mlstm = over.pop("mlstm", {})
    slstm = over.pop("slstm", {})
    kw = dict(context_length=context_length, num_blocks=num_blocks, embedding_dim=embedding_dim)
    if "m" in kind:
        kw["mlstm_block"] = _mlstm_block(num_heads=heads, **mlstm)
    if "s" in kind:
        kw["slstm_block"] = _slstm_block(num_heads=heads, **slstm)
        kw["slstm_at"] = list(slstm_at) if "m" in kind else "all"
    kw.update(over)
    return kw


def _stack(kind, **kw):
    from xlstm import xLSTMBlockStack, xLSTMBlockStackConfig

    return xLSTMBlockStack(xLSTMBlockStackConfig(**_stack_kwargs(kind, **kw)))


def _lm(kind, vocab_size=_VOCAB, **kw):
    """``xLSTMLMModel`` with ``reset_parameters()`` as ``experiments/main.py`` calls it."""
    from xlstm import xLSTMLMModel, xLSTMLMModelConfig

    model = xLSTMLMModel(xLSTMLMModelConfig(vocab_size=vocab_size, **_stack_kwargs(kind, **kw)))
    model.reset_parameters()
    return model


_LARGE_NATIVE = dict(chunkwise_kernel="chunkwise--native_autograd", sequence_kernel="native_sequence__native",
                     step_kernel="native")


def _large_config(mode="inference", **over):
    """The README's native ("other hardware") ``xLSTMLargeConfig``, tiny."""
    from xlstm.xlstm_large.model import xLSTMLargeConfig

    kw = dict(embedding_dim=_D, num_heads=4, num_blocks=2, vocab_size=_VOCAB, return_last_states=True, mode=mode,
              chunk_size=16, **_LARGE_NATIVE)
    kw.update(over)
    return xLSTMLargeConfig(**kw)


def _large(mode="inference", **over):
    from xlstm.xlstm_large.model import xLSTMLarge

    return xLSTMLarge(_large_config(mode, **over))


# --- inputs ------------------------------------------------------------------------------------------

def _x(length=_S, dim=_D, batch=_B):
    import torch

    return torch.randn(batch, length, dim)


def _tokens(length=_S, batch=_B, vocab=_VOCAB):
    import torch

    return torch.randint(0, vocab, (batch, length))


def _lm_batch(length=_S, vocab=_VOCAB):
    """Inputs and next-token labels, the first quarter masked to -1 (the parity data set masks the
    prompt part of each sequence)."""
    data = _tokens(length + 1, vocab=vocab)
    inputs, labels = data[:, :-1].contiguous(), data[:, 1:].clone()
    labels[:, : length // 4] = -1
    return inputs, labels


# --- models ------------------------------------------------------------------------------------------

def _stack_model(kind, length=_S, **kw):
    """``xLSTMBlockStack(cfg)(x)``; train: ``mean_loss_module``."""

    def make(mode):
        net = _stack(kind, **kw)
        if mode == "train":
            return mean_loss_module()(net), (_x(length, kw.get("embedding_dim", _D)),), {}  # noqa: F821
        return net, (_x(length, kw.get("embedding_dim", _D)),), {}

    return make


def _stack_step(kind, warm=False, **kw):
    """``xLSTMBlockStack.step`` over the sequence from an empty state (``warm``: one step after a
    no-grad prefill by steps); train: the stack's forward through ``mean_loss_module``."""

    def make(mode):
        import torch

        net = _stack(kind, **kw)
        if mode == "train":
            return mean_loss_module()(net), (_x(),), {}  # noqa: F821
        if not warm:
            return _nets().StepLoop(net), (_x(),), {}
        net.eval()
        with torch.no_grad():
            _, state = _nets().StepLoop(net)(_x(8))
        return _nets().Step(net), (_x(1), state), {}

    return make


def _block(which):
    """One ``mLSTMBlock`` / ``sLSTMBlock`` / ``mLSTMLayer`` (the configs' ``__post_init__`` as the
    stack runs it); ``sLSTMLayer`` over two halves with carried states."""

    def make(mode):
        from xlstm import mLSTMBlock, mLSTMLayer, mLSTMLayerConfig, sLSTMBlock, sLSTMLayer, sLSTMLayerConfig

        if which == "mLSTMBlock":
            cfg = _mlstm_block()
            cfg.mlstm.embedding_dim, cfg.mlstm.context_length = _D, _S
            cfg._num_blocks, cfg._block_idx = 1, 0
            cfg.__post_init__()
            net = mLSTMBlock(cfg)
        elif which == "sLSTMBlock":
            cfg = _slstm_block()
            cfg.slstm.embedding_dim = _D
            cfg._num_blocks, cfg._block_idx = 1, 0
            cfg.__post_init__()
            net = sLSTMBlock(cfg)
        elif which == "mLSTMLayer":
            net = mLSTMLayer(mLSTMLayerConfig(embedding_dim=_D, context_length=_S, num_heads=4))
        else:
            net = _nets().Chunked(sLSTMLayer(sLSTMLayerConfig(embedding_dim=_D, num_heads=4, backend="vanilla")))
        if mode == "train":
            return mean_loss_module()(net), (_x(),), {}  # noqa: F821
        return net, (_x(),), {}

    return make


def _lm_model(kind, autocast=False, vocab_size=_VOCAB, **kw):
    """``xLSTMLMModel(cfg)(idx)``; train: ``LMLoss``."""

    def make(mode):
        model = _lm(kind, vocab_size=vocab_size, **kw)
        length = kw.get("context_length", _S)
        if mode == "train":
            return _nets().LMLoss(model, vocab_size, autocast), _lm_batch(length, vocab_size), {}
        if autocast:
            return _nets().Autocast(model), (_tokens(length, vocab=vocab_size),), {}
        return model, (_tokens(length, vocab=vocab_size),), {}

    return make


def _lm_step(kind, generate=False, **kw):
    """``xLSTMLMModel.step``: greedy generation (``generate``) or one step after a no-grad prefill
    by steps; train: ``LMLoss`` on the same config."""

    def make(mode):
        import torch

        model = _lm(kind, **kw)
        if mode == "train":
            return _nets().LMLoss(model, _VOCAB), _lm_batch(), {}
        if generate:
            return _nets().GreedyGenerate(model, _NEW), (_tokens(8),), {}
        model.eval()
        with torch.no_grad():
            _, state = _nets().StepLoop(model)(_tokens(8))
        return _nets().Step(model), (_tokens(1), state), {}

    return make


def _large_train(**over):
    """``xLSTMLarge`` in ``mode="train"`` (chunkwise, last states returned), ``LMLoss``."""
    model = _large("train", **over)
    return _nets().LMLoss(model, _VOCAB), _lm_batch(32), {}


def _large_model(length=_S, **over):
    """``xLSTMLarge(cfg)(x)`` in the README's inference mode: ``(logits, state)``."""

    def make(mode):
        if mode == "train":
            return _large_train(**over)
        return _large(**over), (_tokens(length),), {}

    return make


def _large_trained(kernel):
    """``mode="train"`` with the chunkwise kernel named: eval the logits and last states of the
    training forward, train ``LMLoss``."""

    def make(mode):
        if mode == "train":
            return _large_train(chunkwise_kernel=kernel)
        return _large("train", chunkwise_kernel=kernel), (_tokens(32),), {}

    return make


def _large_step(**over):
    """One decode step ``model(token, state)`` from a no-grad prefill's state."""

    def make(mode):
        import torch

        if mode == "train":
            return _large_train(**over)
        model = _large(**over).eval()
        with torch.no_grad():
            _, state = model(_tokens())
        return model, (_tokens(1), state), {}

    return make


def _large_generate(prefill=True):
    def make(mode):
        import torch

        if mode == "train":
            return _large_train()
        model = _large()
        if prefill:
            return _nets().LargeGenerate(model, _NEW), (_tokens(),), {}
        return _nets().GenerateTokens(model, _NEW), (torch.zeros(1, 1, dtype=torch.long),), {}

    return make


def _large_part(which):
    """The backbone ``xLSTMLargeBlockStack`` (``(x, state)``) or one xLSTM Large ``mLSTMLayer``."""

    def make(mode):
        from xlstm.xlstm_large.model import mLSTMBackendConfig, mLSTMLayer, mLSTMLayerConfig, xLSTMLargeBlockStack

        if which == "backbone":
            net = xLSTMLargeBlockStack(_large_config("train" if mode == "train" else "inference"))
        else:
            backend = mLSTMBackendConfig(mode="train" if mode == "train" else "inference", chunk_size=16,
                                         **_LARGE_NATIVE)
            net = mLSTMLayer(mLSTMLayerConfig(embedding_dim=_D, num_heads=4, mlstm_backend=backend))
        if mode == "train":
            return mean_loss_module()(net), (_x(),), {}  # noqa: F821
        return net, (_x(),), {}

    return make


MODELS = {
    # xLSTMBlockStack
    "stack_mlstm": _stack_model("m"),
    "stack_slstm": _stack_model("s"),
    "stack_readme_mixed": _stack_model("ms", num_blocks=4, context_length=32, length=32),
    "stack_parity_11_one_head": _stack_model("ms", num_blocks=2, embedding_dim=64, heads=1),
    "stack_mlstm_shorter_than_context": _stack_model("m", context_length=32, length=12),
    "stack_mlstm_bias_dropout_no_post_norm": _stack_model("m", bias=True, dropout=0.1, add_post_blocks_norm=False),
    "stack_slstm_no_conv_small_init": _stack_model(
        "s", slstm=dict(conv1d_kernel_size=0, bias_init="small_init", recurrent_weight_init="standard")),
    "stack_slstm_lstm_function": _stack_model("s", slstm=dict(function="lstm")),
    "stack_slstm_swish_ffn": _stack_model("ms", num_blocks=3, slstm_at=(0, 2), slstm=dict(act_fn="swish",
                                                                                          proj_factor=2.0)),
    "stack_mlstm_step_loop": _stack_step("m"),
    "stack_slstm_step_loop": _stack_step("s"),
    "stack_mixed_step_loop": _stack_step("ms"),
    "stack_mixed_step_warm": _stack_step("ms", warm=True),
    # single blocks and layers
    "mlstm_block": _block("mLSTMBlock"),
    "slstm_block": _block("sLSTMBlock"),
    "mlstm_layer": _block("mLSTMLayer"),
    "slstm_layer_chunked_state": _block("sLSTMLayer"),
    # xLSTMLMModel
    "lm_readme_mixed": _lm_model("ms", num_blocks=4, context_length=32),
    "lm_parity_01_slstm": _lm_model("s", num_blocks=2, embedding_dim=64, heads=1, vocab_size=3),
    "lm_parity_10_mlstm": _lm_model("m", num_blocks=2, embedding_dim=64, heads=1, vocab_size=3),
    "lm_parity_11_mixed": _lm_model("ms", num_blocks=2, embedding_dim=64, heads=1, vocab_size=3),
    "lm_parity_11_autocast_bf16": _lm_model("ms", autocast=True, num_blocks=2, embedding_dim=64, heads=1,
                                            vocab_size=3),
    "lm_tied_embedding_dropout": _lm_model("ms", tie_weights=True, add_embedding_dropout=True, dropout=0.1),
    "lm_greedy_generate_step": _lm_step("ms", generate=True),
    "lm_step_warm": _lm_step("ms"),
    # xLSTMLarge
    "large_inference": _large_model(),
    "large_inference_unaligned_prefill": _large_model(length=20),
    "large_fused_weights": _large_model(weight_mode="fused"),
    "large_bias_no_out_norm_no_caps": _large_model(use_bias=True, add_out_norm=False, gate_soft_cap=None,
                                                   output_logit_soft_cap=None),
    "large_7b_ratios_8_heads": _large_model(embedding_dim=64, num_heads=8, num_blocks=3),
    "large_decode_step": _large_step(),
    "large_generate": _large_generate(),
    "large_generate_no_prefill": _large_generate(prefill=False),
    "large_train_native_autograd": _large_trained("chunkwise--native_autograd"),
    "large_train_native_custbw": _large_trained("chunkwise--native_custbw"),
    "large_backbone": _large_part("backbone"),
    "large_mlstm_layer": _large_part("layer"),
}
