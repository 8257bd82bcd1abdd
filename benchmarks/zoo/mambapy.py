"""mambapy (alxndrTL's mamba.py) 1.2.0, import name ``mambapy``: the pure-PyTorch Mamba (selective
scan by its Blelloch parallel scan ``pscan`` or the sequential loop), the language-model wrapper
``mambapy.lm.LM``, Jamba (Mamba + attention layers, MoE MLPs), Vision Mamba (``mambapy.vim``) and
the ONNX-export flavour (``mambapy.onnx``), as its README / tests use them, tiny (``d_model`` 16,
2 layers, ``d_state`` 8, batch 2, 16 steps, a 64-token vocabulary), random weights, no download,
``use_cuda=False`` throughout (CPU):

- ``Mamba`` (``(B, L, D) -> (B, L, D)``): the parallel scan (the default ``pscan=True``) at a
  power-of-two length and at 10 steps (``pscan`` pads to the next power of two), the sequential
  scan (``pscan=False``), Jamba's ``inner_layernorms``, ``bias`` with no conv bias and a
  ``"constant"`` dt init, muP (``mup=True``: RMSNorms without gains); one ``MambaBlock`` (the
  README's test builds one with ``n_layers=0``); the scan itself (``pscan(A, X)``, the autograd
  function);
- inference with caches as ``LM.generate`` builds them (``[(None, zeros(B, ED, d_conv-1))]`` per
  layer): ``Mamba.step`` from empty caches over the sequence, one ``step`` from warm caches;
- ``LM`` over a ``MambaConfig``: logits (parallel and sequential scan, muP, a padded vocabulary
  ``pad_vocab_size_multiple=8``), ``LM.step`` (one token, warm caches) and ``LM.generate``
  (4 new tokens, top-k sampling and greedy) through a small character tokenizer (user side: the
  README passes a ``transformers`` tokenizer);
- ``JambaLM`` / ``Jamba`` (4 layers: attention every 2nd, 4 experts top-2 every 2nd; GQA 4 heads /
  2 KV heads): with experts (logits and router logits), without (``num_experts=1``: logits only),
  the sequential scan, untied head without inner layernorms, the core ``Jamba`` on ``(B, L, D)``,
  ``JambaLM.step`` over a prompt from ``get_empty_cache`` caches, ``JambaLM.generate``;
- ``VMamba`` (vim.py, bidirectional by default): bidirectional, one direction, the sum of both
  directions (``divide_output=False``), the sequential scan, ``VMamba.step``, and a Vim-style image
  classifier (user side: 4x4 patch embedding of a 16x16 image, a class token, positions, VMamba,
  a linear head);
- ``mambapy.onnx``: the export model ``MambaLM`` (its forward is one step ``(token, hs, inputs)``
  from ``init_caches()``) and its ``Mamba`` core's full-sequence forward.

Eval: the outputs above. Train: the LMs' next-token cross-entropy (``LMLoss``; Jamba adds its
``load_balancing_loss`` on the router logits, as its training code does), the classifier's
cross-entropy (``classifier_loss_module``), ``generate`` after a training loss (``GenerateStep``:
a training step that also samples, as training loops log samples; the strings are dropped), and
``mean_loss_module`` over every other output. The ONNX export model is inference only: its
step writes the new states into the ``hs`` / ``inputs`` tensors in place, so a backward through
its train loss fails (the forward, which the capture runs, does not).

    pip install --no-deps mambapy==1.2.0
    pip install einops==0.8.2

Stubbed (``stub_modules``): ``mamba_ssm.ops.triton.ssd_combined`` (``mambapy/mamba2.py`` imports
its two Triton kernels at the top, and ``mambapy.lm`` imports ``mamba2``); ``mamba_ssm`` is the
CUDA package, not installable here. Its optional imports (``causal_conv1d``, the gated RMSNorm,
``selective_scan_fn``) stay absent as the code expects.

Left out: ``Mamba2`` / ``LM`` over a ``Mamba2Config`` (CUDA only: ``Mamba2Block`` asserts the
``mamba_ssm`` Triton RMSNorm and calls its Triton scan kernels); ``use_cuda=True`` (the official
CUDA kernels); ``from_pretrained`` (downloads); ``configure_optimizers`` (not a forward).
"""

import functools

PACKAGE = "mambapy"

_B, _L, _D, _N = 2, 16, 16, 8  # batch, sequence length, d_model, d_state
_VOCAB = 64
_PROMPT = "mamba"


def _stub_mamba_ssm():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {"mamba_ssm": ((), ()), "mamba_ssm.ops": ((), ()), "mamba_ssm.ops.triton": ((), ()),
         "mamba_ssm.ops.triton.ssd_combined": (("mamba_chunk_scan_combined", "mamba_split_conv1d_scan_combined"), ())},
        "mambapy.mamba2 imports",
    )


def warm_up():
    _stub_mamba_ssm()
    import torch  # noqa: F401

    import mambapy.jamba  # noqa: F401
    import mambapy.lm  # noqa: F401
    import mambapy.mamba  # noqa: F401
    import mambapy.onnx.mamba_lm_onnx  # noqa: F401
    import mambapy.vim  # noqa: F401


# --- the user-side modules (built once) ---------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from torch import nn

    class Step(nn.Module):
        """``model.step(x, caches)``: one inference step from the caches given."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x, caches):
            return self.model.step(x, caches)

    class StepLoop(nn.Module):
        """Recurrent inference over a sequence: empty caches (``(None, zeros)`` per layer, as
        ``LM.generate`` makes them), then ``model.step`` on each time step."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            cfg = self.model.config
            caches = [(None, torch.zeros(x.size(0), cfg.d_inner, cfg.d_conv - 1, device=x.device))
                      for _ in range(cfg.n_layers)]
            ys = []
            for t in range(x.size(1)):
                y, caches = self.model.step(x[:, t], caches)
                ys.append(y)
            return torch.stack(ys, dim=1)

    class Scan(nn.Module):
        """``pscan(A, X)``: the parallel scan H[t] = A[t] * H[t-1] + X[t]."""

        def forward(self, A, X):
            from mambapy.pscan import pscan

            return pscan(A, X)

    class LMLoss(nn.Module):
        """Next-token cross-entropy of an LM's logits; a Jamba LM with experts adds its
        load-balancing loss on the router logits."""

        def __init__(self, lm, aux_coef=0.01):
            super().__init__()
            self.lm, self.aux_coef = lm, aux_coef

        def forward(self, tokens, targets):
            out = self.lm(tokens)
            if isinstance(out, tuple):
                from mambapy.jamba import load_balancing_loss

                logits, router_logits = out
                cfg = self.lm.config
                aux = load_balancing_loss(router_logits, cfg.num_experts, cfg.num_experts_per_tok)
            else:
                logits, aux = out, 0.0
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
            return loss + self.aux_coef * aux

    class Encoding:
        """What a tokenizer call returns (``.input_ids``)."""

        def __init__(self, input_ids):
            self.input_ids = input_ids

    class CharTokenizer:
        """A character tokenizer with the two calls ``generate`` makes (``tokenizer(prompt,
        return_tensors='pt').input_ids`` and ``tokenizer.decode``)."""

        eos_token_id = 1

        def __call__(self, text, return_tensors="pt"):
            return Encoding(torch.tensor([[2 + ord(c) % (_VOCAB - 2) for c in text]]))

        def decode(self, ids, skip_special_tokens=False):
            return "".join(chr(97 + i % 26) for i in ids if not (skip_special_tokens and i < 2))

    class Generate(nn.Module):
        """``lm.generate(tokenizer, prompt, ...)`` (its token budget is ``num_tokens`` for ``LM``
        and ``max_tokens`` for ``JambaLM``)."""

        def __init__(self, lm, **options):
            super().__init__()
            self.lm, self.options = lm, options
            self.tokenizer = CharTokenizer()

        def forward(self, prompt):
            return self.lm.generate(self.tokenizer, prompt, **self.options)

    class GenerateStep(nn.Module):
        """A training step that also samples: the LM loss on the batch, then ``generate`` from the
        prompt (the sample, which a training loop prints, is dropped)."""

        def __init__(self, lm, **options):
            super().__init__()
            self.loss = LMLoss(lm)
            self.gen = Generate(lm, **options)

        def forward(self, tokens, targets, prompt):
            loss = self.loss(tokens, targets)
            self.gen(prompt)
            return loss

    class VimClassifier(nn.Module):
        """Vision Mamba as an image classifier: 4x4 patches of a 16x16 image, a class token in
        the middle of the sequence (Vim's placement), learned positions, VMamba, the class
        token's features to the head."""

        def __init__(self, classes=10):
            super().__init__()
            from mambapy.vim import MambaConfig, VMamba

            self.patch = nn.Conv2d(3, _D, kernel_size=4, stride=4)
            self.cls = nn.Parameter(torch.zeros(1, 1, _D))
            self.pos = nn.Parameter(torch.randn(1, 17, _D) * 0.02)
            self.vmamba = VMamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N))
            self.norm = nn.LayerNorm(_D)
            self.head = nn.Linear(_D, classes)

        def forward(self, images):
            x = self.patch(images).flatten(2).transpose(1, 2)  # (B, 16, D)
            mid = x.size(1) // 2
            cls = self.cls.expand(x.size(0), -1, -1)
            x = torch.cat([x[:, :mid], cls, x[:, mid:]], dim=1) + self.pos
            x = self.vmamba(x)
            return self.head(self.norm(x[:, mid]))

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


def _loss(mode, net, args, kwargs=None):
    """``net`` in eval; ``mean_loss_module(net)`` in train."""
    if mode == "train":
        net = mean_loss_module()(net)  # noqa: F821 (set by ZooSuite)
    return net, args, kwargs or {}


def _x(length=_L):
    import torch

    return torch.randn(_B, length, _D)


def _tokens():
    import torch

    return torch.randint(1, _VOCAB, (_B, _L)), torch.randint(1, _VOCAB, (_B, _L))


def _empty_caches(model, batch=_B):
    import torch

    cfg = model.config
    return [(None, torch.zeros(batch, cfg.d_inner, cfg.d_conv - 1)) for _ in range(cfg.n_layers)]


# --- Mamba ---------------------------------------------------------------------------------------

def _mamba(length=_L, **options):
    def make(mode):
        _stub_mamba_ssm()
        from mambapy.mamba import Mamba, MambaConfig

        model = Mamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N, **options))
        return _loss(mode, model, (_x(length),))

    return make


def _mamba_block(mode):
    from mambapy.mamba import MambaBlock, MambaConfig

    return _loss(mode, MambaBlock(MambaConfig(d_model=_D, n_layers=0, d_state=_N)), (_x(),))


def _pscan(mode):
    import torch

    A = torch.rand(_B, _L, 2 * _D, _N)  # exp(delta * A) in (0, 1)
    X = torch.randn(_B, _L, 2 * _D, _N)
    if mode == "train":
        A.requires_grad_(True)
        X.requires_grad_(True)
    return _loss(mode, _nets().Scan(), (A, X))


def _mamba_step_loop(**options):
    def make(mode):
        from mambapy.mamba import Mamba, MambaConfig

        model = Mamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N, **options))
        return _loss(mode, _nets().StepLoop(model), (_x(8),))

    return make


def _mamba_step(mode):
    """One step from warm caches (the first step of the sequence run beforehand)."""
    import torch

    from mambapy.mamba import Mamba, MambaConfig

    model = Mamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N))
    x = _x(2)
    with torch.no_grad():
        _, caches = model.step(x[:, 0], _empty_caches(model))
    return _loss(mode, _nets().Step(model), (x[:, 1], caches))


# --- LM ------------------------------------------------------------------------------------------

def _lm(vocab=_VOCAB, **options):
    def make(mode):
        _stub_mamba_ssm()
        from mambapy.lm import LM
        from mambapy.mamba import MambaConfig

        lm = LM(MambaConfig(d_model=_D, n_layers=2, d_state=_N, **options), vocab_size=vocab,
                **({"pad_vocab_size_multiple": 8} if vocab != _VOCAB else {}))
        tokens, targets = _tokens()
        tokens, targets = tokens % vocab, targets % vocab
        if mode == "train":
            return _nets().LMLoss(lm), (tokens, targets), {}
        return lm, (tokens,), {}

    return make


def _lm_step(mode):
    _stub_mamba_ssm()
    import torch

    from mambapy.lm import LM
    from mambapy.mamba import MambaConfig

    lm = LM(MambaConfig(d_model=_D, n_layers=2, d_state=_N), vocab_size=_VOCAB)
    tokens, _ = _tokens()
    with torch.no_grad():
        _, caches = lm.step(tokens[:, 0], _empty_caches(lm))
    return _loss(mode, _nets().Step(lm), (tokens[:, 1], caches))


def _lm_generate(**options):
    def make(mode):
        _stub_mamba_ssm()
        from mambapy.lm import LM
        from mambapy.mamba import MambaConfig

        lm = LM(MambaConfig(d_model=_D, n_layers=2, d_state=_N), vocab_size=_VOCAB)
        options.setdefault("num_tokens", 4)
        if mode == "train":
            return _nets().GenerateStep(lm, **options), (*_tokens(), _PROMPT), {}
        return _nets().Generate(lm, **options), (_PROMPT,), {}

    return make


# --- Jamba ---------------------------------------------------------------------------------------

def _jamba_config(**options):
    from mambapy.jamba import JambaLMConfig

    cfg = dict(d_model=_D, n_layers=4, mlp_size=32, d_state=_N, num_attention_heads=4, num_key_value_heads=2,
               num_experts=4, num_experts_per_tok=2, attn_layer_offset=1, attn_layer_period=2,
               expert_layer_offset=1, expert_layer_period=2, vocab_size=_VOCAB)
    cfg.update(options)
    return JambaLMConfig(**cfg)


def _jamba_lm(**options):
    def make(mode):
        from mambapy.jamba import JambaLM

        lm = JambaLM(_jamba_config(**options))
        tokens, targets = _tokens()
        if mode == "train":
            return _nets().LMLoss(lm), (tokens, targets), {}
        return lm, (tokens,), {}

    return make


def _jamba_core(mode):
    from mambapy.jamba import Jamba

    return _loss(mode, Jamba(_jamba_config()), (_x(),))


def _jamba_step(mode):
    """``JambaLM.step`` over a 6-token prompt, one token at a time (as ``generate`` feeds it)."""
    import torch
    from torch import nn

    from mambapy.jamba import JambaLM

    class PromptSteps(nn.Module):
        def __init__(self, lm):
            super().__init__()
            self.lm = lm

        def forward(self, tokens):
            caches = [layer.get_empty_cache(tokens.size(0), tokens.device) for layer in self.lm.jamba.layers]
            logits = []
            for i in range(tokens.size(1)):
                out, caches = self.lm.step(tokens[:, [i]], caches)
                logits.append(out)
            return torch.cat(logits, dim=1)

    tokens, _ = _tokens()
    return _loss(mode, PromptSteps(JambaLM(_jamba_config())), (tokens[:, :6],))


def _jamba_generate(mode):
    from mambapy.jamba import JambaLM

    lm = JambaLM(_jamba_config())
    if mode == "train":
        return _nets().GenerateStep(lm, max_tokens=4), (*_tokens(), _PROMPT), {}
    return _nets().Generate(lm, max_tokens=4), (_PROMPT,), {}


# --- Vision Mamba ----------------------------------------------------------------------------------

def _vmamba(**options):
    def make(mode):
        from mambapy.vim import MambaConfig, VMamba

        return _loss(mode, VMamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N, **options)), (_x(),))

    return make


def _vmamba_step(mode):
    from mambapy.vim import MambaConfig, VMamba

    model = VMamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N))
    return _loss(mode, _nets().StepLoop(model), (_x(8),))


def _vim_classifier(mode):
    import torch

    net = _nets().VimClassifier()
    images = torch.randn(_B, 3, 16, 16)
    if mode == "train":
        return classifier_loss_module()(net, _B, 10), (images,), {}  # noqa: F821 (set by ZooSuite)
    return net, (images,), {}


# --- the ONNX-export flavour ------------------------------------------------------------------------

def _onnx_lm(mode):
    import torch

    from mambapy.onnx.mamba_lm_onnx import MambaLM, MambaLMConfig

    lm = MambaLM(MambaLMConfig(d_model=_D, n_layers=2, d_state=_N, vocab_size=_VOCAB))
    hs, inputs = lm.init_caches()
    return _loss(mode, lm, (torch.tensor([5]), hs, inputs))


def _onnx_mamba(mode):
    from mambapy.onnx.mamba_onnx import Mamba, MambaConfig

    return _loss(mode, Mamba(MambaConfig(d_model=_D, n_layers=2, d_state=_N)), (_x(),))


MODELS = {
    # Mamba: scans and options
    "Mamba_pscan": _mamba(),
    "Mamba_pscan_len10": _mamba(length=10),
    "Mamba_sequential": _mamba(pscan=False),
    "Mamba_inner_layernorms": _mamba(inner_layernorms=True),
    "Mamba_bias_constant_dt": _mamba(bias=True, conv_bias=False, dt_init="constant", dt_rank=4),
    "Mamba_mup": _mamba(mup=True),
    "MambaBlock": _mamba_block,
    "pscan": _pscan,
    # recurrent inference with caches
    "Mamba_step_loop": _mamba_step_loop(),
    "Mamba_step_loop_inner_layernorms": _mamba_step_loop(inner_layernorms=True),
    "Mamba_step": _mamba_step,
    # the language model
    "LM": _lm(),
    "LM_sequential": _lm(pscan=False),
    "LM_mup": _lm(mup=True),
    "LM_padded_vocab": _lm(vocab=50),
    "LM_step": _lm_step,
    "LM_generate_topk": _lm_generate(),
    "LM_generate_greedy": _lm_generate(sample=False, top_k=None, batch_size=2),
    # Jamba
    "JambaLM": _jamba_lm(),
    "JambaLM_no_experts": _jamba_lm(num_experts=1),
    "JambaLM_sequential": _jamba_lm(pscan=False),
    "JambaLM_untied_no_inner_norms": _jamba_lm(tie_lm_weights=False, inner_layernorms=False),
    "Jamba": _jamba_core,
    "JambaLM_step": _jamba_step,
    "JambaLM_generate": _jamba_generate,
    # Vision Mamba
    "VMamba": _vmamba(),
    "VMamba_unidirectional": _vmamba(bidirectional=False),
    "VMamba_sum_directions": _vmamba(divide_output=False),
    "VMamba_sequential": _vmamba(pscan=False),
    "VMamba_step_loop": _vmamba_step,
    "Vim_classifier": _vim_classifier,
    # ONNX export flavour
    "MambaLM_onnx_step": _onnx_lm,
    "Mamba_onnx": _onnx_mamba,
}
