#!/usr/bin/env python3
"""A transformers causal LM, built from a tiny config (random weights), trained for a
few steps on random tokens whose sequence length changes between batches, then one
evaluation batch under no_grad. A program for `compilelint probe -- ...` (issue 20):

    compilelint probe --module transformers.models.llama.modeling_llama:LlamaForCausalLM \\
        -- python benchmarks/run_programs/train_transformer.py --model llama --steps 6

Prints the loss of every step and writes the final weights' checksum to --out, so a run
under the probe can be compared with a plain one.
"""

from __future__ import annotations

import argparse

import torch

from checksum import report


def build(name: str):
    if name == "llama":
        from transformers import LlamaConfig, LlamaForCausalLM

        cfg = LlamaConfig(vocab_size=1024, hidden_size=256, intermediate_size=512, num_hidden_layers=4,
                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512)
        return LlamaForCausalLM(cfg)
    if name == "gpt2":
        from transformers import GPT2Config, GPT2LMHeadModel

        cfg = GPT2Config(vocab_size=1024, n_embd=256, n_layer=4, n_head=4, n_positions=512)
        return GPT2LMHeadModel(cfg)
    raise SystemExit(f"unknown --model {name}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="llama", choices=["llama", "gpt2"])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = build(args.model).to(args.device)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    lengths = [128, 128, 96, 128, 160, 128]
    for step in range(args.steps):
        seq = lengths[step % len(lengths)]
        ids = torch.randint(0, 1024, (args.batch, seq), device=args.device)
        out = model(input_ids=ids, labels=ids)
        opt.zero_grad(set_to_none=True)
        out.loss.backward()
        opt.step()
        print(f"step {step} seq {seq} loss {out.loss.item():.6f}", flush=True)
    model.eval()
    with torch.no_grad():
        logits = model(input_ids=torch.randint(0, 1024, (2, 64), device=args.device)).logits
    report(model, "eval logits mean", logits.float().mean().item(), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
