"""LitGPT (Lightning AI) 0.5.13, import name ``litgpt``: its one decoder-only ``GPT``
(``litgpt/model.py``) built from ``Config.from_name(<named config>, ...)`` shrunk tiny the way
its tests do (``n_layer=2``, 4 heads of 16, ``n_embd=64``, MLP 128 wide, a 256-token vocabulary,
``block_size=32``; grouped-query configs keep 2 key/value groups, multi-query ones 1; MoE configs
4 experts, 2 per token; sliding windows 8), random weights, no download; batch 2, 16 tokens:

- the full forward (``model(idx)``, logits) over the config families: Pythia (GPT-NeoX MLP,
  parallel residual, partial rotary), Falcon 7B (multi-query, shared attention norm) and 40B,
  phi-2 (partial rotary 0.4, ``lm_head`` bias), StableLM 3B (LLaMA MLP, LayerNorm), Llama 2,
  Llama 3.2 (the Llama-3 RoPE adjustments), LLaMA-2-7B-32K (RoPE condense ratio), Mistral 7B
  (sliding-window attention), Mixtral (``LLaMAMoE``), Qwen2.5 (attention bias), Qwen3 (q/k norm),
  Qwen3-30B-A3B (MoE with q/k norm), Gemma (``GemmaMLP``, scaled embeddings, unit-offset RMSNorm),
  Gemma 2 (attention and final logit soft-capping, alternating sliding window, post norms),
  Gemma 3 (6 layers: local/global RoPE through ``rope_indices``, sliding window 5:1, q/k norm),
  OLMo (affine-free LayerNorm), OLMo 2 (``olmo2`` q/k norm, post norms only), Phi-4-mini
  (rotary 0.75, sliding window), and a DeepSeek-V3-style ``Config`` built directly as
  ``tests/test_model_deepseek_v3.py`` does (0.5.13 names no DeepSeek config): multi-head latent
  attention, the grouped top-k router, a shared expert, ``first_k_dense_replace``, YaRN RoPE;
- the KV cache as ``litgpt/generate/base.py`` drives it (``model.max_seq_length = 32``,
  ``model.set_kv_cache(batch_size=...)``): the prefill (``input_pos = arange(T)``,
  ``input_pos_maxp1=T``) and one decode step after a prefill (``input_pos = [T]``,
  ``input_pos_maxp1=T+1``) for Pythia (``rope_cache_length`` of a partial rotary), Llama 3.2,
  Falcon 7B (multi-query: no repeat), Gemma 2 and 3 (the sliding-window ring buffer; window 16 so
  that the 16-token prefill fits it, as ``KVCache`` requires, and the decode step wraps), Mixtral
  and the DeepSeek-V3 style (the latent attention's cache); ``batched_generate_fn``'s batch of 2
  without ``input_pos_maxp1``, and a ``(B, T)`` batched ``input_pos``; ``next_token`` (what
  ``generate.base.main(compile=True)`` compiles; top-k / temperature sampling) and the whole
  ``generate`` loop (top-k, top-p);
- ``litgpt.lora.GPT``: the finetune defaults (LoRA on query and value: the grouped ``conv1d`` and
  ``zero_pad``), every LoRA flag on a grouped-query Llama (split ``conv1d``, LoRA MLP and head),
  LoRA on a Mixtral (the gate), a LoRA decode step, and ``merge_lora_weights`` then the forward;
- ``litgpt.adapter.GPT`` (the prefix adapter from layer 1, prompt length 4) on Llama and a
  Pythia decode step; ``litgpt.adapter_v2.GPT`` on Gemma (``GemmaMLP``), Mixtral and a Llama
  decode step.

Eval: the logits (``next_token``: the sampled token; ``generate``: the token sequence). Train: the plain models run ``pretrain.py``'s step
(``PretrainStep``: ``chunked_cross_entropy(model(input_ids), targets)``); the KV-cache, next-token
and generate models, which have no training form, and the LoRA / adapter models run
``finetune/*.py``'s step instead (``FinetuneStep``: ``model(input_ids, lm_head_chunk_size=128)``,
the last chunk shifted, ``chunked_cross_entropy`` against labels with the prompt masked to -100)
on the same config, after ``mark_only_lora_as_trainable`` / ``mark_only_adapter_as_trainable`` /
``mark_only_adapter_v2_as_trainable`` for the fine-tuning models.

    pip install --no-deps litgpt==0.5.13 lightning==2.6.6 safetensors==0.8.0

(``import litgpt`` pulls ``lightning`` for ``litgpt.utils``; ``safetensors`` is imported by the
checkpoint converter ``model.py`` imports; psutil, PyYAML, tqdm, typing_extensions, packaging,
fsspec, lightning-utilities and torchmetrics are installed already; ``tokenizers`` and
``jsonargparse`` are not imported by the model code.) Nothing stubbed.

Left out: ``litgpt.api.LLM`` and the CLI scripts (they load checkpoints and tokenizers from disk),
quantization (bitsandbytes), Thunder, ``lora_legacy``, the tensor-parallel / sequential / speculative
generation scripts (several devices or two models).

Notes: the train steps run ``fit``'s sanity-check ``validate`` forward (no grad, eval mode) in the
factory first, as every ``finetune/*.py`` does: the prefix adapter fills its
``adapter_kv_cache`` on the first forward and never clears it (training twice without that
no-grad pass fails, "backward through the graph a second time"); the decode-step factories run
the prefill (no grad) before handing over the one-token step; ``KVCache`` reads
``input_pos.max().item()`` for a sliding window; ``generate`` is ``torch.inference_mode`` and a
Python loop with ``token.item()`` per token.
"""

import functools

PACKAGE = "litgpt"

_B, _T, _BLOCK, _VOCAB = 2, 16, 32, 256  # batch, tokens, block size (KV cache length), padded vocabulary
_NEW = 4  # tokens the generate loop adds


def warm_up():
    import torch  # noqa: F401

    import litgpt  # noqa: F401
    import litgpt.adapter  # noqa: F401
    import litgpt.adapter_v2  # noqa: F401
    import litgpt.generate.base  # noqa: F401
    import litgpt.lora  # noqa: F401
    import litgpt.utils  # noqa: F401


# --- configs ---------------------------------------------------------------------------------------

def _shrunk(name, **over):
    """``Config.from_name`` keyword overrides that shrink the named config as litgpt's tests do."""
    from litgpt.config import Config

    base = Config.from_name(name)
    groups = 4 if base.n_query_groups == base.n_head else (1 if base.n_query_groups == 1 else 2)
    kw = dict(block_size=_BLOCK, n_layer=2, n_embd=64, n_head=4, n_query_groups=groups, head_size=16,
              intermediate_size=128, padded_vocab_size=_VOCAB)
    if base.n_expert:
        kw.update(n_expert=4, n_expert_per_token=2, moe_intermediate_size=64)
    if base.sliding_window_size is not None:
        kw.update(sliding_window_size=8)
    kw.update(over)
    return kw


def _deepseek_kwargs():
    """A DeepSeek-V3-style config (as ``tests/test_model_deepseek_v3.py`` shrinks it), YaRN RoPE."""
    return dict(name="deepseek-v3-tiny", block_size=_BLOCK, padded_vocab_size=_VOCAB, n_layer=2, n_embd=32,
                n_head=8, n_query_groups=8, norm_class_name="RMSNorm", norm_eps=1e-6, bias=False,
                parallel_residual=False, rotary_percentage=1.0, mlp_class_name="LLaMAMoE", intermediate_size=86,
                moe_intermediate_size=20, n_expert=4, n_shared_expert=1, n_expert_per_token=2, n_expert_groups=2,
                n_topk_groups=2, n_topk_scores_per_group=2, first_k_dense_replace=1, routed_scaling_factor=2.5,
                norm_topk_prob=True,
                latent_attention=dict(q_lora_rank=16, kv_lora_rank=16, qk_rope_head_dim=4, qk_nope_head_dim=8,
                                      v_head_dim=8),
                rope_adjustments=dict(factor=40.0, beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0,
                                      original_max_seq_len=4096))


_MODULES = {"gpt": "litgpt.model", "lora": "litgpt.lora", "adapter": "litgpt.adapter", "adapter_v2": "litgpt.adapter_v2"}


def _build(name, kind="gpt", **over):
    """``<kind>.GPT(<kind>.Config.from_name(name, **shrunk))`` (``name=None``: the DeepSeek style)."""
    import importlib

    mod = importlib.import_module(_MODULES[kind])
    if name is None:
        config = mod.Config(**_deepseek_kwargs(), **over)
    else:
        config = mod.Config.from_name(name, **_shrunk(name, **over))
    return mod.GPT(config)


# --- the user-side modules --------------------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn

    from litgpt.generate.base import generate, next_token
    from litgpt.utils import chunked_cross_entropy

    class PretrainStep(nn.Module):
        """``pretrain.py``'s training step: the loss of the full logits against the next tokens."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, targets):
            logits = self.model(input_ids)
            return chunked_cross_entropy(logits, targets)

    class FinetuneStep(nn.Module):
        """``finetune/{full,lora,adapter,adapter_v2}.py``'s step: the head in chunks, shifted labels."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, targets):
            logits = self.model(input_ids, lm_head_chunk_size=128)
            # shift the targets such that output n predicts token n+1
            logits[-1] = logits[-1][..., :-1, :]
            return chunked_cross_entropy(logits, targets[..., 1:])

    class NextToken(nn.Module):
        """``generate.base.next_token``: one forward through the KV cache, then sampling."""

        def __init__(self, model, temperature=0.8, top_k=50):
            super().__init__()
            self.model, self.temperature, self.top_k = model, temperature, top_k

        def forward(self, x, input_pos, input_pos_maxp1=None):
            return next_token(self.model, input_pos, x, input_pos_maxp1=input_pos_maxp1,
                              temperature=self.temperature, top_k=self.top_k)

    class Generate(nn.Module):
        """``generate.base.generate``: prefill, then one token at a time (inference mode)."""

        def __init__(self, model, max_returned_tokens, **sampling):
            super().__init__()
            self.model, self.max_returned_tokens, self.sampling = model, max_returned_tokens, sampling

        def forward(self, prompt):
            return generate(self.model, prompt, self.max_returned_tokens, **self.sampling)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- inputs ------------------------------------------------------------------------------------------

def _tokens(batch=_B, length=_T):
    import torch

    return torch.randint(0, _VOCAB, (batch, length))


def _pretrain_batch():
    """``pretrain.py``: ``input_ids = data[:, 0:T]``, ``targets = data[:, 1:T+1]``."""
    data = _tokens(length=_T + 1)
    return data[:, :_T].contiguous(), data[:, 1:].contiguous()


def _finetune_batch():
    """An SFT batch: labels equal to the inputs with the prompt (first 5 tokens) masked to -100."""
    input_ids = _tokens()
    labels = input_ids.clone()
    labels[:, :5] = -100
    return input_ids, labels


def _finetune(model, kind):
    """``FinetuneStep`` after the fine-tuning script's ``mark_only_*_as_trainable`` and its ``fit``'s
    sanity-check ``validate`` (a no-grad forward in eval mode; the prefix adapter caches its
    prompt's keys and values there: ``adapter.CausalSelfAttention.adapter_kv_cache`` is filled on
    the first forward and never cleared, so without it a second training step would backpropagate
    through the first step's freed graph)."""
    import torch

    if kind == "lora":
        from litgpt.lora import mark_only_lora_as_trainable

        mark_only_lora_as_trainable(model)
    elif kind == "adapter":
        from litgpt.adapter import mark_only_adapter_as_trainable

        mark_only_adapter_as_trainable(model)
    elif kind == "adapter_v2":
        from litgpt.adapter_v2 import mark_only_adapter_v2_as_trainable

        mark_only_adapter_v2_as_trainable(model)
    input_ids, labels = _finetune_batch()
    model.eval()
    with torch.no_grad():
        model(input_ids)
    model.train()
    return _nets().FinetuneStep(model), (input_ids, labels), {}


# --- models ------------------------------------------------------------------------------------------

def _forward(name, kind="gpt", merge=False, **over):
    """Eval: ``model(idx)``; train: ``PretrainStep`` (the fine-tuning kinds: ``FinetuneStep``)."""

    def make(mode):
        model = _build(name, kind, **over)
        if mode == "train":
            if kind != "gpt":
                return _finetune(model, kind)
            return _nets().PretrainStep(model), _pretrain_batch(), {}
        if merge:
            from litgpt.lora import merge_lora_weights

            merge_lora_weights(model)
        return model, (_tokens(),), {}

    return make


def _kv(name, step="prefill", kind="gpt", batch=1, maxp1=True, pos2d=False, sample=False, **over):
    """The KV cache as ``generate.base`` drives it. ``step``: "prefill" (``input_pos = arange(T)``)
    or "decode" (one token at ``input_pos = [T]`` after a prefill done here); ``maxp1``: pass
    ``input_pos_maxp1`` (``generate_fn`` does, ``batched_generate_fn`` does not); ``pos2d``: a
    ``(B, T)`` ``input_pos``; ``sample``: through ``next_token``. Train: ``FinetuneStep``."""

    def make(mode):
        import torch

        model = _build(name, kind, **over)
        if mode == "train":
            return _finetune(model, kind)
        model.max_seq_length = _BLOCK
        model.set_kv_cache(batch_size=batch)
        prompt = _tokens(batch=batch)
        input_pos = torch.arange(0, _T, dtype=torch.int64)
        if step == "decode":
            with torch.no_grad():
                model(prompt, input_pos, input_pos_maxp1=_T if maxp1 else None)
            x, input_pos, n = _tokens(batch=batch, length=1), torch.tensor([_T], dtype=torch.int64), _T + 1
        else:
            x, n = prompt, _T
        if pos2d:
            input_pos = input_pos.unsqueeze(0).expand(batch, -1).contiguous()
        kwargs = {"input_pos_maxp1": n} if maxp1 else {}
        if sample:
            return _nets().NextToken(model), (x, input_pos), kwargs
        return model, (x,), {"input_pos": input_pos, **kwargs}

    return make


def _generate(name, **sampling):
    """``generate.base.generate(model, prompt, T + 4, ...)`` as its ``main`` sets the model up."""

    def make(mode):
        model = _build(name)
        if mode == "train":
            return _finetune(model, "gpt")
        model.max_seq_length = _T + _NEW
        model.set_kv_cache(batch_size=1)
        return _nets().Generate(model, _T + _NEW, **sampling), (_tokens(batch=1)[0],), {}

    return make


_LORA_DEFAULT = dict(lora_r=8, lora_alpha=16, lora_dropout=0.05, lora_query=True, lora_key=False, lora_value=True)
_LORA_ALL = dict(lora_r=4, lora_alpha=8, lora_dropout=0.0, lora_query=True, lora_key=True, lora_value=True,
                 lora_projection=True, lora_mlp=True, lora_head=True)
_ADAPTER = dict(adapter_prompt_length=4, adapter_start_layer=1)

MODELS = {
    # the full forward over the config families
    "pythia": _forward("pythia-14m"),
    "falcon_7b_mqa": _forward("falcon-7b"),
    "falcon_40b": _forward("falcon-40b"),
    "phi_2": _forward("phi-2"),
    "stablelm_3b": _forward("stablelm-3b-4e1t"),
    "llama_2": _forward("Llama-2-7b-hf"),
    "llama_3_2_rope_adjusted": _forward("Llama-3.2-1B"),
    "llama_2_32k_condensed_rope": _forward("LLaMA-2-7B-32K"),
    "mistral_sliding_window": _forward("Mistral-7B-v0.1"),
    "mixtral_moe": _forward("Mixtral-8x7B-v0.1"),
    "qwen2_5_attn_bias": _forward("Qwen2.5-0.5B"),
    "qwen3_qk_norm": _forward("Qwen3-0.6B"),
    "qwen3_moe": _forward("Qwen3-30B-A3B"),
    "gemma": _forward("Gemma-2b"),
    "gemma_2_softcapping": _forward("Gemma-2-2b"),
    "gemma_3_local_global_rope": _forward("Gemma-3-1b-it", n_layer=6),
    "olmo": _forward("OLMo-1B-hf"),
    "olmo_2": _forward("OLMo-2-1124-7B"),
    "phi_4_mini": _forward("Phi-4-mini-instruct"),
    "deepseek_v3_style_mla_moe": _forward(None),
    # the KV cache (generate)
    "pythia_kv_prefill": _kv("pythia-14m"),
    "pythia_kv_decode": _kv("pythia-14m", "decode"),
    "llama_3_2_kv_prefill": _kv("Llama-3.2-1B"),
    "llama_3_2_kv_decode": _kv("Llama-3.2-1B", "decode"),
    "llama_3_2_kv_batched": _kv("Llama-3.2-1B", "decode", batch=_B, maxp1=False),
    "llama_3_2_kv_batched_input_pos_2d": _kv("Llama-3.2-1B", batch=_B, pos2d=True),
    "falcon_7b_kv_decode": _kv("falcon-7b", "decode"),
    "gemma_2_kv_prefill": _kv("Gemma-2-2b", sliding_window_size=_T),
    "gemma_2_kv_decode": _kv("Gemma-2-2b", "decode", sliding_window_size=_T),
    "gemma_3_kv_decode": _kv("Gemma-3-1b-it", "decode", n_layer=6, sliding_window_size=_T),
    "mixtral_kv_decode": _kv("Mixtral-8x7B-v0.1", "decode"),
    "deepseek_v3_style_kv_decode": _kv(None, "decode"),
    "llama_3_2_next_token_decode": _kv("Llama-3.2-1B", "decode", sample=True),
    "pythia_generate": _generate("pythia-14m", temperature=0.8, top_k=50, top_p=0.9),
    # LoRA
    "lora_pythia_query_value": _forward("pythia-14m", "lora", **_LORA_DEFAULT),
    "lora_llama_3_2_all": _forward("Llama-3.2-1B", "lora", **_LORA_ALL),
    "lora_mixtral_mlp": _forward("Mixtral-8x7B-v0.1", "lora", **_LORA_ALL),
    "lora_llama_3_2_kv_decode": _kv("Llama-3.2-1B", "decode", "lora", **_LORA_DEFAULT),
    "lora_llama_3_2_merged": _forward("Llama-3.2-1B", "lora", merge=True, **_LORA_ALL),
    # adapter (v1)
    "adapter_llama_2": _forward("Llama-2-7b-hf", "adapter", **_ADAPTER),
    "adapter_pythia_kv_decode": _kv("pythia-14m", "decode", "adapter", **_ADAPTER),
    # adapter v2
    "adapter_v2_gemma": _forward("Gemma-2b", "adapter_v2", **_ADAPTER),
    "adapter_v2_mixtral": _forward("Mixtral-8x7B-v0.1", "adapter_v2", **_ADAPTER),
    "adapter_v2_llama_3_2_kv_decode": _kv("Llama-3.2-1B", "decode", "adapter_v2", **_ADAPTER),
}
