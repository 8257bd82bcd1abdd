"""Static findings in transformers checked against Dynamo on CPU, small-config models.

    pip install transformers==5.4.0          # in a venv beside torch 2.13 (CPU)
    python benchmarks/transformers_cpu_check.py [TARGET ...]

Each factory below builds a transformers model from a small config (random weights, no
download). Every target runs through the real probe (worker subprocess, `backend="eager"`
capture, no timing); then `compilelint check` runs over every file the target ran and
each static finding is matched with what Dynamo did: confirmed / not reproduced / not
reached, plus the breaks no finding explains (CL9xx). Results: benchmarks/RESULTS.md §3.
"""

from __future__ import annotations

import os
import sys

import torch

def biogpt_train():
    from transformers import BioGptConfig, BioGptForCausalLM
    torch.manual_seed(0)
    cfg = BioGptConfig(vocab_size=512, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                       intermediate_size=128, layerdrop=0.1)
    return BioGptForCausalLM(cfg).train(), (), {"input_ids": torch.randint(0, 512, (2, 16))}


def wav2vec2_ctc():
    from transformers import Wav2Vec2Config, Wav2Vec2ForCTC
    torch.manual_seed(0)
    cfg = Wav2Vec2Config(vocab_size=32, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=128, conv_dim=(32, 32), conv_stride=(5, 2), conv_kernel=(10, 3),
                         num_feat_extract_layers=2)
    return Wav2Vec2ForCTC(cfg).eval(), (), {"input_values": torch.randn(2, 4000),
                                             "labels": torch.randint(1, 32, (2, 8))}


def switch_fp32():
    from transformers import SwitchTransformersConfig, SwitchTransformersEncoderModel
    torch.manual_seed(0)
    cfg = SwitchTransformersConfig(vocab_size=512, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=2,
                                   num_experts=4, expert_capacity=8, num_sparse_encoder_layers=1)
    return SwitchTransformersEncoderModel(cfg).eval(), (), {"input_ids": torch.randint(0, 512, (2, 16))}


TARGETS = ["biogpt_train", "wav2vec2_ctc", "switch_fp32"]


def main(argv: list[str]) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "src"))
    sys.path.insert(0, here)
    import gpu_probe
    from compilelint.probe.runner import run_target
    from compilelint.probe.targets import parse_target

    results = []
    for name in argv or TARGETS:
        r = run_target(parse_target(f"{os.path.abspath(__file__)}:{name}"), device="cpu", timing=False,
                       timeout=300)
        print(f"{name}: {r.status} {r.error or ''}", flush=True)
        results.append(r)
    findings = gpu_probe.static_findings(results)
    for name, (mine, extra) in gpu_probe.match_per_target(results, findings, here).items():
        print(f"== {name}")
        for f in sorted((f for f in mine if f.evidence), key=lambda f: (f.evidence["status"], f.path, f.line)):
            print(f"   {f.evidence['status']:15} {f.path.split('site-packages/')[-1]}:{f.line} {f.code}")
        for f in extra:
            print(f"   {f.code:15} {f.path.split('site-packages/')[-1]}:{f.line} {f.message[:90]}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
