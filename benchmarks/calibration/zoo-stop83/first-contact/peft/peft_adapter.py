"""peft (Hugging Face Parameter-Efficient Fine-Tuning) 0.21.2: its tuners wrapped around tiny
``transformers`` models built from configs in code (random weights, no download) and around small
custom ``nn.Module`` s, as peft's own tests (``tests/testing_common.py``, ``test_custom_models.py``,
``test_decoder_models.py``, ``test_encoder_decoder_models.py``, ``test_mixed.py``,
``test_xlora.py``) and its docs use them: ``get_peft_model(base, config)`` then the ``PeftModel``'s
forward.

Base models: ``LlamaForCausalLM`` (vocab 64, hidden 16, 2 layers, 4 heads / 2 KV heads, MLP 32),
``GPT2LMHeadModel`` (n_embd 16, 1 layer; ``Conv1D`` layers, ``fan_in_fan_out``),
``BertForSequenceClassification`` / ``BertForQuestionAnswering`` / ``BertModel`` (hidden 16,
1 layer), ``T5ForConditionalGeneration`` (d_model 16, 1 + 1 layers); custom: peft tests' ``MLP``
(``lin0``/``lin1``) and a Conv2d net. Batch 2 x 8 tokens, attention mask of ones.

Uses (46; 44 trained, 2 eval only), Llama causal LM unless named:
- LoRA: default targets (``q_proj``/``v_proj``), ``all-linear`` with dropout and ``lora_bias``,
  rsLoRA, DoRA, merged (``merge_adapter``; eval only), two adapters (``add_adapter`` then
  ``set_adapter("second")``), two adapters active at once (``base_model.set_adapter([...])``),
  ``disable_adapter()`` context (eval: the base model's logits; train: TRL's DPO-style step, the
  policy loss plus a distance to the reference logits computed under ``no_grad`` with the adapter
  disabled), mixed-adapter batches (``adapter_names=[...]``; eval only: peft refuses it in
  training), ``rank_pattern`` / ``alpha_pattern`` / ``layers_to_transform``, LoRA on
  ``embed_tokens`` (an ``Embedding`` LoRA) with ``q_proj``;
- other tuners on the same model: AdaLoRA (its training forward adds the orthogonal
  regularisation), IA3, LoHa, LoKr, OFT, BOFT, VeRA, FourierFT, LN tuning, HRA, VB-LoRA, RandLora,
  C3A, MiSS, RoAd, trainable tokens, Poly (``task_ids``), X-LoRA (two LoRA adapters saved to
  a temporary folder and loaded back, as ``test_xlora.py`` does), a ``PeftMixedModel`` of LoRA and
  LoHa both active;
- prompt learning: prompt tuning (random init), prefix tuning,
  p-tuning (MLP and LSTM prompt encoders), multitask prompt tuning (``task_ids``), adaption prompt
  (LLaMA-Adapter);
- GPT-2: LoRA on ``c_attn`` (``fan_in_fan_out``), prefix tuning;
- BERT: sequence classification with LoRA (``modules_to_save``: the classifier) and with
  p-tuning; question answering with LoRA; feature extraction with LoRA;
- T5: seq2seq LoRA, prefix tuning;
- custom modules: the tests' ``MLP`` with LoRA on ``lin0`` and ``modules_to_save=["lin1"]``,
  and a Conv2d net with DoRA on the convolution.

Eval: the ``PeftModel`` (or ``PeftMixedModel``) forward on the batch. Train: the same forward with
labels, returning ``outputs.loss`` (the transformers head's loss; for AdaLoRA plus peft's
orthogonal regulariser) - what a compiled training step runs; BERT feature extraction uses
``mean_loss_module``, the custom modules ``classifier_loss_module``. Measured first as it came,
before any rule looked at it.

    pip install --no-deps peft==0.21.2
    pip install --no-deps transformers==4.57.6 tokenizers==0.22.2 accelerate==1.16.0

(already installed and used: huggingface-hub 0.36.0 (transformers 4.57 wants < 1.0, hence not
transformers 5), safetensors 0.8.0, regex, numpy, packaging, psutil, PyYAML, tqdm, filelock,
requests, fsspec.)

Stubbed: ``soxr``: librosa is installed here without it, and ``transformers.audio_utils`` (reached
from ``modeling_layers`` by every model) imports ``soxr`` whenever librosa is there; no model here
uses audio.

Left out: LoftQ / PiSSA / OLoRA / EVA / CorDA initialisations (build-time only, the forward is
LoRA's), quantized layers (bitsandbytes, GPTQ, AWQ, HQQ: not installed / GPU), ``generate``,
the training mode of the merged and mixed-batch uses (their
"train" raises: peft refuses ``adapter_names`` in training, nobody trains merged weights),
``merge_and_unload`` (gives back a plain transformers model: no peft code runs), hotswapping,
``target_parameters`` (for MoE expert parameters), CPT (needs a tokenizer-built template).
"""

PACKAGE = "peft"

mean_loss_module = None  # set by ZooSuite
classifier_loss_module = None
stub_modules = None

_B, _T, _V = 2, 8, 64


def before_build():
    stub_modules({"soxr": ((), ())}, "transformers")


def warm_up():
    before_build()
    import torch  # noqa: F401
    import transformers  # noqa: F401

    import peft  # noqa: F401
    from transformers import LlamaForCausalLM  # noqa: F401


# --- base models ----------------------------------------------------------------------------------

def _llama(**over):
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = dict(vocab_size=_V, hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=4,
               num_key_value_heads=2, max_position_embeddings=64, pad_token_id=0)
    cfg.update(over)
    return LlamaForCausalLM(LlamaConfig(**cfg))


def _gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    return GPT2LMHeadModel(GPT2Config(vocab_size=_V, n_embd=16, n_layer=1, n_head=2, n_positions=64))


def _bert_config(num_labels=3):
    from transformers import BertConfig

    return BertConfig(vocab_size=_V, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                      intermediate_size=32, max_position_embeddings=64, num_labels=num_labels)


def _t5():
    from transformers import T5Config, T5ForConditionalGeneration

    return T5ForConditionalGeneration(T5Config(vocab_size=_V, d_model=16, d_kv=8, d_ff=32, num_layers=1,
                                               num_decoder_layers=1, num_heads=2, decoder_start_token_id=0,
                                               pad_token_id=0))


def _custom(kind):
    import torch
    from torch import nn

    class MLP(nn.Module):  # peft tests/test_custom_models.py
        def __init__(self, bias=True):
            super().__init__()
            self.lin0 = nn.Linear(10, 20, bias=bias)
            self.relu = nn.ReLU()
            self.drop = nn.Dropout(0.5)
            self.lin1 = nn.Linear(20, 2, bias=bias)
            self.sm = nn.LogSoftmax(dim=-1)

        def forward(self, X):
            X = X.float()
            X = self.lin0(X)
            X = self.relu(X)
            X = self.drop(X)
            X = self.lin1(X)
            X = self.sm(X)
            return X

    class ModelConv2D(nn.Module):  # peft tests/test_custom_models.py
        def __init__(self):
            super().__init__()
            self.conv2d = nn.Conv2d(5, 10, 3)
            self.relu = nn.ReLU()
            self.flat = nn.Flatten()
            self.lin0 = nn.Linear(10, 2)
            self.sm = nn.LogSoftmax(dim=-1)

        def forward(self, X):
            X = X.float().reshape(-1, 5, 3, 3)
            X = self.conv2d(X)
            X = self.relu(X)
            X = self.flat(X)
            X = self.lin0(X)
            X = self.sm(X)
            return X

    if kind == "mlp":
        return MLP(), torch.arange(90).view(9, 10).float() / 90
    return ModelConv2D(), torch.arange(90).view(2, 45).float() / 90


# --- inputs and training steps --------------------------------------------------------------------

def _tokens(batch=_B, length=_T):
    import torch

    return torch.randint(1, _V, (batch, length))


def _lm_batch(mode):
    import torch

    ids = _tokens()
    kw = dict(input_ids=ids, attention_mask=torch.ones_like(ids))
    if mode == "train":
        kw["labels"] = ids.clone()
    return kw


def _seq2seq_batch(mode):
    import torch

    ids = _tokens()
    kw = dict(input_ids=ids, attention_mask=torch.ones_like(ids))
    if mode == "train":
        kw["labels"] = _tokens(length=6)
    else:
        kw["decoder_input_ids"] = _tokens(length=6)
    return kw


def _steps():
    import types

    import torch
    from torch import nn

    class LossStep(nn.Module):
        """A training step's forward: the model on a batch with labels, its ``loss``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, **batch):
            return self.model(**batch).loss

    class DisabledAdapter(nn.Module):
        """Eval: the base model's output (``with model.disable_adapter()``). Train: TRL's reference-model
        pattern: the policy's loss plus the distance of its logits to the reference logits, computed
        without gradients with the adapter disabled."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, **batch):
            if not self.training:
                with self.model.disable_adapter():
                    return self.model(**batch).logits
            out = self.model(**batch)
            with torch.no_grad(), self.model.disable_adapter():
                ref = self.model(**batch).logits
            return out.loss + torch.nn.functional.mse_loss(out.logits, ref)

    return types.SimpleNamespace(LossStep=LossStep, DisabledAdapter=DisabledAdapter)


def _wrap(model, batch, mode):
    if mode == "train":
        return _steps().LossStep(model), (), batch
    return model, (), batch


# --- factories ------------------------------------------------------------------------------------

def _llama_peft(config_fn, base_over=None, after=None, eval_only=False, batch_extra=None):
    def make(mode):
        if eval_only and mode == "train":
            raise NotImplementedError("inference only (peft refuses it, or nobody trains it)")
        from peft import get_peft_model

        model = get_peft_model(_llama(**(base_over or {})), config_fn())
        if after is not None:
            model = after(model) or model
        batch = _lm_batch(mode)
        if batch_extra is not None:
            batch.update(batch_extra())
        return _wrap(model, batch, mode)

    return make


def _lora(**kw):
    def config():
        from peft import LoraConfig

        kw.setdefault("target_modules", ["q_proj", "v_proj"])
        return LoraConfig(task_type="CAUSAL_LM", r=4, lora_alpha=8, **kw)

    return config


def _cfg(cls_name, **kw):
    def config():
        import peft

        return getattr(peft, cls_name)(**kw)

    return config


def _merge(model):
    model.merge_adapter()


def _second_adapter(model):
    from peft import LoraConfig

    model.add_adapter("second", LoraConfig(task_type="CAUSAL_LM", r=2, lora_alpha=4,
                                           target_modules=["q_proj", "k_proj", "v_proj", "o_proj"],
                                           init_lora_weights=False))
    model.set_adapter("second")


def _two_active(model):
    from peft import LoraConfig

    model.add_adapter("second", LoraConfig(task_type="CAUSAL_LM", r=2, lora_alpha=4, target_modules=["q_proj"],
                                           init_lora_weights=False))
    model.base_model.set_adapter(["default", "second"])


def _mixed_batch_names():
    return {"adapter_names": ["default", "second"]}


def _disable_adapter(mode):
    from peft import LoraConfig, get_peft_model

    model = get_peft_model(_llama(), LoraConfig(task_type="CAUSAL_LM", r=4, init_lora_weights=False))
    batch = _lm_batch(mode)
    return _steps().DisabledAdapter(model), (), batch


def _xlora(mode):
    import os
    import tempfile

    import torch
    from peft import LoraConfig, PeftModel, XLoraConfig, get_peft_model

    tmp = tempfile.mkdtemp(prefix="peft-xlora-")
    paths = {}
    for i in range(2):
        torch.manual_seed(i)
        lora = get_peft_model(_llama(), LoraConfig(task_type="CAUSAL_LM", r=4, target_modules=["q_proj", "v_proj"],
                                                   init_lora_weights=False))
        lora.save_pretrained(os.path.join(tmp, f"adapter_{i}"))
        paths[str(i)] = os.path.join(tmp, f"adapter_{i}")
    torch.manual_seed(0)
    base = _llama(use_cache=False)
    model = get_peft_model(base, XLoraConfig(task_type="CAUSAL_LM", hidden_size=16, xlora_depth=2, adapters=paths))
    assert isinstance(model, PeftModel)
    return _wrap(model, _lm_batch(mode), mode)


def _mixed_lora_loha(mode):
    from peft import LoHaConfig, LoraConfig, get_peft_model

    model = get_peft_model(_llama(), LoraConfig(r=4, target_modules=["q_proj", "v_proj"], init_lora_weights=False),
                           mixed=True)
    model.add_adapter("loha", LoHaConfig(r=4, target_modules=["q_proj", "o_proj"], init_weights=False))
    model.set_adapter(["default", "loha"])
    return _wrap(model, _lm_batch(mode), mode)


def _task_ids():
    import torch

    return {"task_ids": torch.tensor([0, 1])}


def _gpt2_peft(config_fn):
    def make(mode):
        from peft import get_peft_model

        return _wrap(get_peft_model(_gpt2(), config_fn()), _lm_batch(mode), mode)

    return make


def _t5_peft(config_fn):
    def make(mode):
        from peft import get_peft_model

        return _wrap(get_peft_model(_t5(), config_fn()), _seq2seq_batch(mode), mode)

    return make


def _bert_peft(head, config_fn):
    def make(mode):
        import torch
        import transformers
        from peft import get_peft_model

        base = getattr(transformers, head)(_bert_config(2 if head == "BertForQuestionAnswering" else 3))
        model = get_peft_model(base, config_fn())
        ids = _tokens()
        batch = dict(input_ids=ids, attention_mask=torch.ones_like(ids))
        if head == "BertModel":
            return (mean_loss_module()(model) if mode == "train" else model), (), batch
        if mode == "train":
            if head == "BertForQuestionAnswering":
                batch.update(start_positions=torch.tensor([1, 2]), end_positions=torch.tensor([3, 5]))
            else:
                batch["labels"] = torch.tensor([0, 2])
        return _wrap(model, batch, mode)

    return make


def _custom_peft(kind, config_fn):
    def make(mode):
        from peft import get_peft_model

        net, x = _custom(kind)
        model = get_peft_model(net, config_fn())
        if mode == "train":
            return classifier_loss_module()(model, x.reshape(-1, 10 if kind == "mlp" else 45).shape[0], 2), (x,), {}
        return model, (x,), {}

    return make


_QV = ["q_proj", "v_proj"]

MODELS = {
    # LoRA and its variants
    "LoRA": _llama_peft(_lora()),
    "LoRA_all_linear": _llama_peft(_lora(target_modules="all-linear", lora_dropout=0.1, lora_bias=True)),
    "LoRA_rslora": _llama_peft(_lora(use_rslora=True, init_lora_weights=False)),
    "DoRA": _llama_peft(_lora(use_dora=True, init_lora_weights=False)),
    "LoRA_merged": _llama_peft(_lora(init_lora_weights=False), after=_merge, eval_only=True),
    "LoRA_set_adapter": _llama_peft(_lora(), after=_second_adapter),
    "LoRA_two_active": _llama_peft(_lora(init_lora_weights=False), after=_two_active),
    "LoRA_disable_adapter": _disable_adapter,
    "LoRA_mixed_batch": _llama_peft(_lora(init_lora_weights=False), after=_second_adapter, eval_only=True,
                                    batch_extra=_mixed_batch_names),
    "LoRA_patterns": _llama_peft(_lora(target_modules=["q_proj", "v_proj", "down_proj"], layers_to_transform=[1],
                                       rank_pattern={"down_proj": 2}, alpha_pattern={"v_proj": 16},
                                       init_lora_weights=False)),
    "LoRA_embedding": _llama_peft(_lora(target_modules=["embed_tokens", "q_proj"], init_lora_weights=False)),
    # other tuners
    "AdaLoRA": _llama_peft(_cfg("AdaLoraConfig", task_type="CAUSAL_LM", init_r=6, target_r=4, tinit=2, tfinal=2,
                                total_step=10, target_modules=_QV)),
    "IA3": _llama_peft(_cfg("IA3Config", task_type="CAUSAL_LM", init_ia3_weights=False)),
    "LoHa": _llama_peft(_cfg("LoHaConfig", task_type="CAUSAL_LM", r=4, alpha=8, target_modules=_QV,
                             rank_dropout=0.1, module_dropout=0.1)),
    "LoKr": _llama_peft(_cfg("LoKrConfig", task_type="CAUSAL_LM", r=4, alpha=8, target_modules=_QV,
                             init_weights=False)),
    "OFT": _llama_peft(_cfg("OFTConfig", task_type="CAUSAL_LM", r=0, oft_block_size=4, target_modules=_QV,
                            init_weights=False)),
    "BOFT": _llama_peft(_cfg("BOFTConfig", task_type="CAUSAL_LM", boft_block_size=4, boft_n_butterfly_factor=2,
                             target_modules=_QV, boft_dropout=0.1, init_weights=False)),
    "VeRA": _llama_peft(_cfg("VeraConfig", task_type="CAUSAL_LM", r=4, target_modules=_QV, init_weights=False)),
    "FourierFT": _llama_peft(_cfg("FourierFTConfig", task_type="CAUSAL_LM", n_frequency=8, target_modules=_QV,
                                  init_weights=False)),
    "LNTuning": _llama_peft(_cfg("LNTuningConfig", task_type="CAUSAL_LM",
                                 target_modules=["input_layernorm", "post_attention_layernorm", "norm"])),
    "HRA": _llama_peft(_cfg("HRAConfig", task_type="CAUSAL_LM", r=2, target_modules=_QV, init_weights=False)),
    "VBLoRA": _llama_peft(_cfg("VBLoRAConfig", task_type="CAUSAL_LM", r=2, num_vectors=8, vector_length=4, topk=2,
                               target_modules=_QV)),
    "RandLora": _llama_peft(_cfg("RandLoraConfig", task_type="CAUSAL_LM", r=4, target_modules=_QV)),
    "C3A": _llama_peft(_cfg("C3AConfig", task_type="CAUSAL_LM", block_size=4, target_modules=_QV,
                            init_weights="gaussian")),
    "MiSS": _llama_peft(_cfg("MissConfig", task_type="CAUSAL_LM", r=4, target_modules=_QV)),
    "RoAd": _llama_peft(_cfg("RoadConfig", task_type="CAUSAL_LM", variant="road_1", group_size=4, target_modules=_QV,
                             init_weights=False)),
    "TrainableTokens": _llama_peft(_cfg("TrainableTokensConfig", task_type="CAUSAL_LM",
                                        target_modules=["embed_tokens"], token_indices=[1, 2, 3])),
    "Poly": _llama_peft(_cfg("PolyConfig", task_type="CAUSAL_LM", r=2, n_tasks=2, n_skills=2, n_splits=2,
                             target_modules=_QV), batch_extra=_task_ids),
    "XLoRA": _xlora,
    "Mixed_LoRA_LoHa": _mixed_lora_loha,
    # prompt learning
    "PromptTuning": _llama_peft(_cfg("PromptTuningConfig", task_type="CAUSAL_LM", num_virtual_tokens=4)),
    "PrefixTuning": _llama_peft(_cfg("PrefixTuningConfig", task_type="CAUSAL_LM", num_virtual_tokens=4)),
    "PTuning_MLP": _llama_peft(_cfg("PromptEncoderConfig", task_type="CAUSAL_LM", num_virtual_tokens=4,
                                    encoder_hidden_size=16)),
    "PTuning_LSTM": _llama_peft(_cfg("PromptEncoderConfig", task_type="CAUSAL_LM", num_virtual_tokens=4,
                                     encoder_hidden_size=16, encoder_reparameterization_type="LSTM")),
    "MultitaskPromptTuning": _llama_peft(_cfg("MultitaskPromptTuningConfig", task_type="CAUSAL_LM",
                                              num_virtual_tokens=4, num_tasks=2), batch_extra=_task_ids),
    "AdaptionPrompt": _llama_peft(_cfg("AdaptionPromptConfig", task_type="CAUSAL_LM", adapter_len=4,
                                       adapter_layers=1)),
    # GPT-2
    "GPT2_LoRA": _gpt2_peft(_cfg("LoraConfig", task_type="CAUSAL_LM", r=4, target_modules=["c_attn"],
                                 fan_in_fan_out=True, init_lora_weights=False)),
    "GPT2_PrefixTuning": _gpt2_peft(_cfg("PrefixTuningConfig", task_type="CAUSAL_LM", num_virtual_tokens=4)),
    # BERT
    "Bert_SeqCls_LoRA": _bert_peft("BertForSequenceClassification",
                                   _cfg("LoraConfig", task_type="SEQ_CLS", r=4, target_modules=["query", "value"])),
    "Bert_SeqCls_PTuning": _bert_peft("BertForSequenceClassification",
                                      _cfg("PromptEncoderConfig", task_type="SEQ_CLS", num_virtual_tokens=4,
                                           encoder_hidden_size=16)),
    "Bert_QA_LoRA": _bert_peft("BertForQuestionAnswering",
                               _cfg("LoraConfig", task_type="QUESTION_ANS", r=4, target_modules=["query", "value"])),
    "Bert_FeatureExtraction_LoRA": _bert_peft("BertModel", _cfg("LoraConfig", task_type="FEATURE_EXTRACTION", r=4,
                                                                target_modules=["query", "value"],
                                                                init_lora_weights=False)),
    # T5
    "T5_LoRA": _t5_peft(_cfg("LoraConfig", task_type="SEQ_2_SEQ_LM", r=4, target_modules=["q", "v"])),
    "T5_PrefixTuning": _t5_peft(_cfg("PrefixTuningConfig", task_type="SEQ_2_SEQ_LM", num_virtual_tokens=4)),
    # custom modules
    "MLP_LoRA": _custom_peft("mlp", _cfg("LoraConfig", r=4, target_modules=["lin0"], modules_to_save=["lin1"],
                                         init_lora_weights=False)),
    "Conv2d_DoRA": _custom_peft("conv", _cfg("LoraConfig", r=4, target_modules=["conv2d", "lin0"], use_dora=True,
                                             init_lora_weights=False)),
}
