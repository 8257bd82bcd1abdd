"""rwkv 0.8.32 (the ``rwkv`` pip package of ChatRWKV, BlinkDL): its inference model ``rwkv.model.RWKV``
for each architecture it loads (RWKV-4, 5.0, 5.1, 5.2, 6.0 through the one ``RWKV`` class, RWKV-7
``RWKV_x070`` with ``RWKV_V7_ON=1``, and RWKV-7 DeepEmbed with ``RWKV_DE_VERSION=1``), and the
``rwkv.utils.PIPELINE`` sampling / generation utilities; tiny (2 layers, n_embd 32, 4 heads of 8 for
v5 / v6, 2 heads of 16 for v7, vocabulary 64), random weights written by the factory as a ``.pth``
state dict in the layout the loader expects (checkpoint key names and shapes: ``emb.weight``,
``blocks.N.ln0/ln1/ln2``, ``att.time_mix_*`` / ``time_maa_*`` / ``time_decay`` / ``time_first`` or
``time_faaaa`` / ``key|value|receptance|gate|output.weight`` / ``ln_x``, ``ffn.*``, ``ln_out``,
``head.weight``; v7: ``att.x_r..x_g``, ``w0..w2``, ``a0..a2``, ``v0..v2``, ``g1, g2``, ``k_k, k_a,
r_k``), no download:

- ``model.forward(tokens, state)`` as the README uses it: a prompt (a list of 5 token ids, the
  sequence path ``att_seq*`` / ``ffn_seq*``) and one token (``[id]``, the ``att_one*`` / ``ffn_one*``
  path), each with ``state=None`` (the model builds the zero state) and with the state a previous
  eager ``forward`` returned (the RNN use: ``model.forward([1563], state)``); ``full_output=True``;
- strategies: ``cpu fp32``, ``cpu bf16``, ``cpu fp16`` (with ``RWKV_RESCALE_LAYER=1``, so the
  fp16 rescale runs), ``cpu fp32i8`` (the int8 ``mm8`` weights), a split strategy
  ``cpu fp32 *1 -> cpu fp32i8`` and a streamed one ``cpu fp32 *1+``;
- v5.2 / v6 with a ``time_state`` (state-tuned checkpoints: the zero state is read from the weights);
- RWKV-7: ``forward`` (prompt, one token, with state, ``full_output``, bf16), ``forward_one_alt`` on
  an embedding tensor (the README's CUDA-graph decode step, run on CPU), DeepEmbed prompt and token;
- ``PIPELINE`` (``rwkv_vocab_v20230424``, the package's own TRIE tokenizer): ``sample_logits`` on a
  logits tensor (top-p; temperature with top-k) and ``generate`` (prompt
  encode, chunked forward, presence / frequency penalties, sampling, decode) for 3 tokens.

45 models: 15 RWKV-4, 10 RWKV-5.x, 8 RWKV-6, 9 RWKV-7 (2 DeepEmbed), 3 PIPELINE.

``RWKV_CUDA_ON=0`` always (no CUDA kernels). The model-level switches are read when
``rwkv.model`` is imported (``RWKV_JIT_ON``, ``RWKV_V7_ON``, ``RWKV_DE_VERSION``), as the README
says ("set these os.environ[] before import RWKV"): the default (``RWKV_JIT_ON`` unset, so '1':
``RWKV`` is a ``torch.jit.ScriptModule`` whose ``att_*`` / ``ffn_*`` are ``script_method`` s and
``mm8_*`` are ``torch.jit.script``) is the real ``rwkv.model``; ``RWKV_JIT_ON=0`` (plain
``nn.Module``, plain functions), ``RWKV_V7_ON=1`` (always TorchScript: the v7 block re-binds
``MyModule`` to ``ScriptModule`` whatever ``RWKV_JIT_ON`` says) and ``RWKV_DE_VERSION=1`` are each
another copy of the same file ``rwkv/model.py`` executed under its own module name
(``rwkv._model_nojit`` / ``_model_v7`` / ``_model_v7de``) with those variables set, so one process
can build any of them (same source file and lines as the static pass reads). Model names end in
``_jit`` / ``_nojit``; v7 models are TorchScript (the library gives no other v7 mode).

Eval only (``SETTINGS = ("eval",)``): the package is inference only: ``forward`` runs under
``torch.no_grad()``, the weights are plain tensors in a dict (``self.w`` / ``self.z``, no
``nn.Parameter``), and there is no loss or training step (training lives in the separate RWKV-LM
repository, not in this package).

    pip install --no-deps rwkv==0.8.32

``rwkv`` declares ``tokenizers`` but imports it only inside ``PIPELINE`` for a HF tokenizer file
(and ``tiktoken`` for ``cl100k_base``); the ``rwkv_vocab_v20230424`` TRIE tokenizer used here is
pure Python in the package, so nothing else is installed; numpy is there. Nothing stubbed.

Left out: ``RWKV_CUDA_ON=1`` (CUDA kernels ``wkv_cuda`` / ``rwkv5`` / ``rwkv6`` / ``wkv7s``, needs
nvcc), ``cuda`` / ``mps`` / ``dml`` strategies (CPU torch), ``fp16i8`` on CPU (the same ``mm8``
path as ``fp32i8``), ``convert_and_save_and_exit`` (calls ``exit(0)``), DeepEmbed ``forward_one_alt``
(it reads an undefined ``idx``: NameError in eager), the ``tokenizers`` / ``tiktoken`` tokenizers
(need a tokenizer file or a download), ``encode`` / ``decode`` on their own (no tensors).
Notes: the three ``PIPELINE`` models build the TRIE tokenizer from the 65,536-line vocabulary
(several seconds each) and their model has a 65,536-token vocabulary so the tokenizer's ids fit;
``generate`` and ``sample_logits`` draw with ``np.random`` / ``torch.multinomial`` (the CPU branch
is numpy). ``forward`` replaces the entries of the state list it is given (in place), so a model
fed a state gets the list an eager forward returned at build time. Each checkpoint is written to a
fresh temporary folder and removed once loaded.
"""

import os

PACKAGE = "rwkv"
SETTINGS = ("eval",)

_V = 64  # vocabulary
_C = 32  # n_embd (= n_att)
_F = 64  # ffn size
_L = 2  # layers
_H5 = 4  # v5 / v6 heads (head size 8)
_PROMPT = [1, 5, 9, 2, 7]

_CONFIGS = {  # name -> (module name, environment read at import)
    "jit": ("rwkv.model", {"RWKV_JIT_ON": "1", "RWKV_V7_ON": "0", "RWKV_DE_VERSION": "0"}),
    "nojit": ("rwkv._model_nojit", {"RWKV_JIT_ON": "0", "RWKV_V7_ON": "0", "RWKV_DE_VERSION": "0"}),
    "v7": ("rwkv._model_v7", {"RWKV_JIT_ON": "1", "RWKV_V7_ON": "1", "RWKV_DE_VERSION": "0"}),
    "v7de": ("rwkv._model_v7de", {"RWKV_JIT_ON": "1", "RWKV_V7_ON": "1", "RWKV_DE_VERSION": "1"}),
}


def before_build():
    os.environ["RWKV_CUDA_ON"] = "0"


def warm_up():
    os.environ["RWKV_CUDA_ON"] = "0"
    import torch  # noqa: F401

    import rwkv.utils  # noqa: F401

    _model_module("jit")


def _model_module(config):
    """``rwkv.model`` imported with the config's environment (a copy of the file for non-default)."""
    import importlib
    import importlib.util
    import sys

    name, env = _CONFIGS[config]
    if name in sys.modules:
        return sys.modules[name]
    os.environ["RWKV_CUDA_ON"] = "0"
    os.environ.update(env)
    try:
        if name == "rwkv.model":
            return importlib.import_module(name)
        import rwkv

        path = os.path.join(os.path.dirname(rwkv.__file__), "model.py")
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod
    finally:
        # what RWKV.__init__ prints and forward reads at run time
        os.environ["RWKV_JIT_ON"] = "0" if config == "nojit" else "1"
        os.environ["RWKV_CUDA_ON"] = "0"


# --- checkpoints ---------------------------------------------------------------------------------

def _r(*shape, scale=0.1):
    import torch

    return torch.randn(*shape) * scale


def _u(*shape):
    import torch

    return torch.rand(*shape)


def _state_dict(version, vocab=_V, time_state=False):
    """A random checkpoint of RWKV-``version`` (4, 5.0, 5.1, 5.2, 6.0), keys as the loader expects."""
    import torch

    C, A, F, L = _C, _C, _F, _L
    H = _H5
    N = A // H
    w = {"emb.weight": _r(vocab, C, scale=1.0)}
    for i in range(L):
        b, att, ffn = f"blocks.{i}.", f"blocks.{i}.att.", f"blocks.{i}.ffn."
        if i == 0:
            w[b + "ln0.weight"], w[b + "ln0.bias"] = torch.ones(C), torch.zeros(C)
        w[b + "ln1.weight"], w[b + "ln1.bias"] = torch.ones(C), torch.zeros(C)
        w[b + "ln2.weight"], w[b + "ln2.bias"] = torch.ones(C), torch.zeros(C)
        if version >= 5:
            w[att + "ln_x.weight"], w[att + "ln_x.bias"] = torch.ones(A), torch.zeros(A)
        if version >= 5.1:
            w[att + "gate.weight"] = _r(A, C)
        if version < 6:
            for m in ("k", "v", "r") + (("g",) if version >= 5.1 else ()):
                w[att + f"time_mix_{m}"] = _u(1, 1, C)
            if version == 4:
                w[att + "time_decay"] = _r(A, scale=1.0)
                w[att + "time_first"] = _r(A, scale=1.0)
            elif version < 5.2:
                w[att + "time_decay"] = _r(H, scale=1.0)
                w[att + "time_first"] = _r(H, scale=1.0)
            else:
                w[att + "time_decay"] = _r(H, N, scale=1.0)
                w[att + "time_faaaa"] = _r(H, N, scale=1.0)
            w[ffn + "time_mix_k"], w[ffn + "time_mix_r"] = _u(1, 1, C), _u(1, 1, C)
        else:
            D, D2 = 8, 16
            for m in ("x", "w", "k", "v", "r", "g"):
                w[att + f"time_maa_{m}"] = _u(1, 1, C)
            w[att + "time_maa_w1"] = _r(C, 5 * D)
            w[att + "time_maa_w2"] = _r(5, D, C)
            w[att + "time_decay_w1"] = _r(C, D2)
            w[att + "time_decay_w2"] = _r(D2, A)
            w[att + "time_decay"] = _r(1, 1, A, scale=1.0)
            w[att + "time_faaaa"] = _r(H, N, scale=1.0)
            w[ffn + "time_maa_k"], w[ffn + "time_maa_r"] = _u(1, 1, C), _u(1, 1, C)
        if time_state:
            w[att + "time_state"] = _r(H, N, N)
        w[att + "key.weight"] = _r(A, C)
        w[att + "value.weight"] = _r(A, C)
        w[att + "receptance.weight"] = _r(A, C)
        w[att + "output.weight"] = _r(C, A)
        w[ffn + "key.weight"] = _r(F, C)
        w[ffn + "receptance.weight"] = _r(C, C)
        w[ffn + "value.weight"] = _r(C, F)
    w["ln_out.weight"], w["ln_out.bias"] = torch.ones(C), torch.zeros(C)
    w["head.weight"] = _r(vocab, C)
    return w


def _state_dict_v7(deep_embed=False):
    import torch

    C, F, L = _C, _F, _L
    H, N = 2, 16
    D = 8
    w = {"emb.weight": _r(_V, C, scale=1.0)}
    for i in range(L):
        b, att, ffn = f"blocks.{i}.", f"blocks.{i}.att.", f"blocks.{i}.ffn."
        if i == 0:
            w[b + "ln0.weight"], w[b + "ln0.bias"] = torch.ones(C), torch.zeros(C)
        w[b + "ln1.weight"], w[b + "ln1.bias"] = torch.ones(C), torch.zeros(C)
        w[b + "ln2.weight"], w[b + "ln2.bias"] = torch.ones(C), torch.zeros(C)
        for m in ("r", "w", "k", "v", "a", "g"):
            w[att + f"x_{m}"] = _u(1, 1, C)
        w[att + "w0"], w[att + "w1"], w[att + "w2"] = _r(1, 1, C), _r(C, D), _r(D, C)
        w[att + "a0"], w[att + "a1"], w[att + "a2"] = _r(1, 1, C), _r(C, D), _r(D, C)
        if i > 0:
            w[att + "v0"], w[att + "v1"], w[att + "v2"] = _r(1, 1, C), _r(C, D), _r(D, C)
        w[att + "g1"], w[att + "g2"] = _r(C, D), _r(D, C)
        w[att + "k_k"], w[att + "k_a"] = _u(1, 1, C), _u(1, 1, C)
        w[att + "r_k"] = _r(H, N)
        for m in ("receptance", "key", "value", "output"):
            w[att + f"{m}.weight"] = _r(C, C)
        w[att + "ln_x.weight"], w[att + "ln_x.bias"] = torch.ones(C), torch.zeros(C)
        w[ffn + "x_k"] = _u(1, 1, C)
        w[ffn + "key.weight"] = _r(F, C)
        w[ffn + "value.weight"] = _r(C, F)
        if deep_embed:
            w[ffn + "s_emb.weight"] = _r(_V, 32 * 32)
            w[ffn + "s_emb_x.weight"] = _r(32 * 32, C)
            w[ffn + "s1"] = _r(C, 32)
            w[ffn + "s2"] = _r(32, F)
            w[ffn + "s0"] = _r(F)
    w["ln_out.weight"], w["ln_out.bias"] = torch.ones(C), torch.zeros(C)
    w["head.weight"] = _r(_V, C)
    return w


def _save(sd, tag):
    """Writes the checkpoint to a temporary .pth; returns its path without the suffix (as users pass)."""
    import tempfile

    import torch

    d = tempfile.mkdtemp(prefix=f"rwkv-{tag}-")
    path = os.path.join(d, "model")
    torch.save(sd, path + ".pth")
    return path


def _load(version, config, strategy="cpu fp32", time_state=False, vocab=_V, rescale=None):
    if rescale is None:
        os.environ.pop("RWKV_RESCALE_LAYER", None)
    else:
        os.environ["RWKV_RESCALE_LAYER"] = str(rescale)
    import shutil

    mod = _model_module(config)
    if version == 7:
        path = _save(_state_dict_v7(deep_embed=(config == "v7de")), "v7")
    else:
        path = _save(_state_dict(version, vocab=vocab, time_state=time_state), f"v{version}")
    try:
        if version == 7:
            return mod.RWKV_x070(path, strategy)
        return mod.RWKV(path, strategy, verbose=False)
    finally:
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)  # loaded (v7 mmaps it: the inode stays)


# --- factories -----------------------------------------------------------------------------------

def _forward(version, config, mode, *, one=False, with_state=False, full_output=False, **load):
    """model.forward(tokens, state[, full_output]): a prompt or one token, fresh or carried state."""
    model = _load(version, config, **load)
    tokens = [4] if one else list(_PROMPT)
    state = None
    if with_state:
        _, state = model.forward([3, 8, 6], None)  # the prompt before, run eagerly
    kwargs = {"full_output": True} if full_output else {}
    return model, (tokens, state), kwargs


def _v7_forward_one_alt(mode):
    """The README's CUDA-graph decode step: forward_one_alt(embedding row, state), on CPU."""
    model = _load(7, "v7")
    _, state = model.forward([3, 8, 6], None)
    x = model.z["emb.weight"][4].clone()
    return model.forward_one_alt, (x, state), {}


def _pipeline(version, config):
    from rwkv.utils import PIPELINE

    model = _load(version, config, vocab=65536)
    return PIPELINE(model, "rwkv_vocab_v20230424"), model


def _sample_logits(temperature, top_p, top_k):
    def make(mode):
        import torch

        pipeline, _ = _pipeline(4, "nojit")
        logits = torch.randn(65536)
        return pipeline.sample_logits, (logits,), {"temperature": temperature, "top_p": top_p, "top_k": top_k}

    return make


def _generate(mode):
    from rwkv.utils import PIPELINE_ARGS

    pipeline, _ = _pipeline(6.0, "nojit")
    args = PIPELINE_ARGS(temperature=1.0, top_p=0.7, top_k=100, alpha_frequency=0.25, alpha_presence=0.25,
                         alpha_decay=0.996, token_ban=[0], token_stop=[], chunk_len=4)
    return pipeline.generate, ("Hello RWKV world",), {"token_count": 3, "args": args}


def _forward_model(version, config, **kw):
    def make(mode):
        return _forward(version, config, mode, **kw)

    return make


MODELS = {
    # RWKV-4
    "v4_seq_jit": _forward_model(4, "jit"),
    "v4_one_jit": _forward_model(4, "jit", one=True),
    "v4_seq_state_jit": _forward_model(4, "jit", with_state=True),
    "v4_one_state_jit": _forward_model(4, "jit", one=True, with_state=True),
    "v4_full_output_jit": _forward_model(4, "jit", full_output=True),
    "v4_fp32i8_seq_jit": _forward_model(4, "jit", strategy="cpu fp32i8"),
    "v4_fp32i8_one_jit": _forward_model(4, "jit", one=True, strategy="cpu fp32i8"),
    "v4_bf16_seq_jit": _forward_model(4, "jit", strategy="cpu bf16"),
    "v4_split_strategy_jit": _forward_model(4, "jit", strategy="cpu fp32 *1 -> cpu fp32i8"),
    "v4_seq_nojit": _forward_model(4, "nojit"),
    "v4_one_state_nojit": _forward_model(4, "nojit", one=True, with_state=True),
    "v4_full_output_nojit": _forward_model(4, "nojit", full_output=True),
    "v4_fp32i8_seq_nojit": _forward_model(4, "nojit", strategy="cpu fp32i8"),
    "v4_fp16_rescale_nojit": _forward_model(4, "nojit", strategy="cpu fp16", rescale=1),
    "v4_stream_nojit": _forward_model(4, "nojit", strategy="cpu fp32 *1+"),
    # RWKV-5.0 / 5.1 / 5.2
    "v5_seq_jit": _forward_model(5, "jit"),
    "v5_one_state_jit": _forward_model(5, "jit", one=True, with_state=True),
    "v5_seq_nojit": _forward_model(5, "nojit"),
    "v5_1_seq_jit": _forward_model(5.1, "jit"),
    "v5_1_one_nojit": _forward_model(5.1, "nojit", one=True),
    "v5_2_seq_jit": _forward_model(5.2, "jit"),
    "v5_2_one_state_jit": _forward_model(5.2, "jit", one=True, with_state=True),
    "v5_2_seq_nojit": _forward_model(5.2, "nojit"),
    "v5_2_time_state_nojit": _forward_model(5.2, "nojit", time_state=True),
    "v5_2_fp32i8_one_nojit": _forward_model(5.2, "nojit", one=True, strategy="cpu fp32i8"),
    # RWKV-6
    "v6_seq_jit": _forward_model(6.0, "jit"),
    "v6_one_state_jit": _forward_model(6.0, "jit", one=True, with_state=True),
    "v6_seq_nojit": _forward_model(6.0, "nojit"),
    "v6_one_nojit": _forward_model(6.0, "nojit", one=True),
    "v6_seq_state_nojit": _forward_model(6.0, "nojit", with_state=True),
    "v6_fp32i8_seq_nojit": _forward_model(6.0, "nojit", strategy="cpu fp32i8"),
    "v6_time_state_one_nojit": _forward_model(6.0, "nojit", one=True, time_state=True),
    "v6_bf16_seq_nojit": _forward_model(6.0, "nojit", strategy="cpu bf16"),
    # RWKV-7 (TorchScript always)
    "v7_seq": _forward_model(7, "v7"),
    "v7_one": _forward_model(7, "v7", one=True),
    "v7_seq_state": _forward_model(7, "v7", with_state=True),
    "v7_one_state": _forward_model(7, "v7", one=True, with_state=True),
    "v7_full_output": _forward_model(7, "v7", full_output=True),
    "v7_bf16_seq": _forward_model(7, "v7", strategy="cpu bf16"),
    "v7_forward_one_alt": _v7_forward_one_alt,
    "v7_deepembed_seq": _forward_model(7, "v7de"),
    "v7_deepembed_one_state": _forward_model(7, "v7de", one=True, with_state=True),
    # PIPELINE
    "pipeline_sample_logits_top_p": _sample_logits(1.0, 0.85, 0),
    "pipeline_sample_logits_temp_top_k": _sample_logits(0.7, 0.5, 100),
    "pipeline_generate": _generate,
}
