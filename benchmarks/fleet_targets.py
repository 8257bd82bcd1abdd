"""Fourteen real transformers models as probe targets, for the fleet benchmark
(benchmarks/fleet.py, RESULTS.md section 12): each factory builds the model from a
small config with random weights (no download) and returns it with a batch of token
ids. ``FLEET_WIDTH`` (default 256) sets the hidden size, ``FLEET_LAYERS`` (default 2)
the depth, ``FLEET_SEQ`` (default 128) the sequence length.

    compilelint probe --no-timing -j 8 benchmarks/fleet_targets.py:bert benchmarks/fleet_targets.py:gpt2 ...
    python benchmarks/fleet.py --targets models --jobs 8

Needs transformers (not a dependency of compilelint)."""

from __future__ import annotations

import os

WIDTH = int(os.environ.get("FLEET_WIDTH", "256"))
LAYERS = int(os.environ.get("FLEET_LAYERS", "2"))
SEQ = int(os.environ.get("FLEET_SEQ", "128"))
VOCAB = 4096
BATCH = 4
HEADS = 4

NAMES = ["bert", "roberta", "distilbert", "albert", "electra", "gpt2", "gpt_neo", "opt", "llama", "mistral",
         "qwen2", "t5", "bart", "funnel"]


def _ids(n: int = SEQ):
    import torch

    return torch.randint(0, VOCAB, (BATCH, n), generator=torch.Generator().manual_seed(0))


def _build(config_cls: str, model_cls: str, *, seq2seq: bool = False, **config):
    import torch
    import transformers

    torch.manual_seed(0)
    cfg = getattr(transformers, config_cls)(**config)
    model = getattr(transformers, model_cls)(cfg).eval()
    kwargs = {"input_ids": _ids()}
    if seq2seq:
        kwargs["decoder_input_ids"] = _ids(SEQ // 4)
    if "use_cache" in cfg.to_dict():
        kwargs["use_cache"] = False
    return model, (), kwargs


def _encoder(config_cls: str, model_cls: str, **extra):
    return _build(config_cls, model_cls, vocab_size=VOCAB, hidden_size=WIDTH, num_hidden_layers=LAYERS,
                  num_attention_heads=HEADS, intermediate_size=WIDTH * 4, max_position_embeddings=512, **extra)


def bert():
    return _encoder("BertConfig", "BertModel")


def roberta():
    return _encoder("RobertaConfig", "RobertaModel", pad_token_id=1)


def electra():
    return _encoder("ElectraConfig", "ElectraModel", embedding_size=WIDTH)


def albert():
    return _encoder("AlbertConfig", "AlbertModel", embedding_size=WIDTH // 2)


def distilbert():
    return _build("DistilBertConfig", "DistilBertModel", vocab_size=VOCAB, dim=WIDTH, n_layers=LAYERS, n_heads=HEADS,
                  hidden_dim=WIDTH * 4, max_position_embeddings=512)


def gpt2():
    return _build("GPT2Config", "GPT2LMHeadModel", vocab_size=VOCAB, n_positions=512, n_embd=WIDTH, n_layer=LAYERS,
                  n_head=HEADS, bos_token_id=0, eos_token_id=0)


def gpt_neo():
    return _build("GPTNeoConfig", "GPTNeoForCausalLM", vocab_size=VOCAB, max_position_embeddings=512,
                  hidden_size=WIDTH, num_layers=LAYERS, num_heads=HEADS, attention_types=[[["global", "local"], LAYERS // 2 or 1]],
                  window_size=64, bos_token_id=0, eos_token_id=0)


def opt():
    return _build("OPTConfig", "OPTForCausalLM", vocab_size=VOCAB, hidden_size=WIDTH, num_hidden_layers=LAYERS,
                  ffn_dim=WIDTH * 4, num_attention_heads=HEADS, max_position_embeddings=512, word_embed_proj_dim=WIDTH,
                  pad_token_id=1, bos_token_id=2, eos_token_id=2)


def _decoder(config_cls: str, model_cls: str, **extra):
    return _build(config_cls, model_cls, vocab_size=VOCAB, hidden_size=WIDTH, intermediate_size=WIDTH * 11 // 4,
                  num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=HEADS // 2,
                  max_position_embeddings=512, **extra)


def llama():
    return _decoder("LlamaConfig", "LlamaForCausalLM")


def mistral():
    return _decoder("MistralConfig", "MistralForCausalLM", sliding_window=64)


def qwen2():
    return _decoder("Qwen2Config", "Qwen2ForCausalLM")


def t5():
    return _build("T5Config", "T5ForConditionalGeneration", seq2seq=True, vocab_size=VOCAB, d_model=WIDTH,
                  d_kv=WIDTH // HEADS, d_ff=WIDTH * 4, num_layers=LAYERS, num_decoder_layers=LAYERS, num_heads=HEADS)


def bart():
    return _build("BartConfig", "BartForConditionalGeneration", seq2seq=True, vocab_size=VOCAB, d_model=WIDTH,
                  encoder_layers=LAYERS, decoder_layers=LAYERS, encoder_attention_heads=HEADS,
                  decoder_attention_heads=HEADS, encoder_ffn_dim=WIDTH * 4, decoder_ffn_dim=WIDTH * 4,
                  max_position_embeddings=512)


def funnel():
    return _build("FunnelConfig", "FunnelModel", vocab_size=VOCAB, d_model=WIDTH, n_head=HEADS, d_head=WIDTH // HEADS,
                  d_inner=WIDTH * 4, block_sizes=[1] * max(2, LAYERS), num_decoder_layers=1)
