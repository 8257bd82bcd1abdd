"""The probe on a GPU: bundled targets, torchvision Faster R-CNN, a small transformers LM.

    python benchmarks/gpu_probe.py OUTDIR [--budget 450] [--scale 4]

Runs every target through the real probe (one worker subprocess each, CUDA, inductor)
and writes OUTDIR/gpu_probe.md (a markdown table), OUTDIR/gpu_probe.json (the probe's
JSON document, plus run metadata) and OUTDIR/gpu_probe.svg / .html (latency plot).
The whole run keeps within ``--budget`` seconds (default 450, i.e. under 8 minutes
with start-up): each target's timeout is cut to what is left, and targets that no
longer fit are recorded as skipped.

This file is also the home of the two external targets (``benchmarks/gpu_probe.py:fasterrcnn``,
``benchmarks/gpu_probe.py:llama``): the worker imports it as a module, so nothing
below the ``__main__`` guard runs there.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# (target, modes, timeout seconds): the order is the order of importance
PLAN = [
    ("fixtures/probe/gated_mlp.py:broken", ["default", "reduce-overhead"], 150),
    ("fixtures/probe/gated_mlp.py:fixed", ["default", "reduce-overhead", "max-autotune"], 200),
    ("fixtures/probe/decoder.py:broken", ["default", "reduce-overhead"], 150),
    ("fixtures/probe/decoder.py:fixed", ["default", "reduce-overhead"], 150),
    ("benchmarks/gpu_probe.py:llama", ["default", "reduce-overhead"], 200),
    ("benchmarks/gpu_probe.py:fasterrcnn", ["default"], 240),
    ("fixtures/probe/postprocess.py:broken", ["default"], 120),
    ("fixtures/probe/postprocess.py:fixed", ["default", "reduce-overhead"], 120),
]


# --------------------------------------------------------------------------------------
# external targets (run inside the worker)
# --------------------------------------------------------------------------------------


def fasterrcnn():
    """torchvision Faster R-CNN (ResNet-50 FPN), random weights, two 480×640 images."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None).eval()
    images = [torch.rand(3, 480, 640), torch.rand(3, 480, 640)]
    return model, (images,)


def llama():
    """A small Llama-style causal LM from transformers, random weights (no download)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=8192, hidden_size=512, intermediate_size=1408, num_hidden_layers=6,
        num_attention_heads=8, num_key_value_heads=4, max_position_embeddings=1024,
    )
    try:
        model = LlamaForCausalLM(config, attn_implementation="sdpa")
    except TypeError:
        config._attn_implementation = "sdpa"
        model = LlamaForCausalLM(config)
    model = model.eval()
    ids = torch.randint(0, config.vocab_size, (8, 256))
    return model, (), {"input_ids": ids, "use_cache": False}


# --------------------------------------------------------------------------------------
# the run
# --------------------------------------------------------------------------------------


def static_findings(results) -> list:
    """`compilelint check` (a subprocess: the static pass as users run it) over every
    Python file the targets ran, library code included (torch itself aside)."""
    from compilelint.finding import Finding

    files = sorted({f for r in results for f in (r.lines_run or {})
                    if f.endswith(".py") and os.path.isfile(f)
                    and f"site-packages{os.sep}torch{os.sep}" not in f})
    if not files:
        return []
    proc = subprocess.run([sys.executable, "-m", "compilelint", "check", *files, "--format", "json",
                           "--no-cache", "--exit-zero"], capture_output=True, text=True, cwd=REPO)
    try:
        found = json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError):
        print(f"static pass failed: {proc.stderr[-2000:]}", file=sys.stderr)
        return []
    return [Finding.from_dict(f) for f in found]


def match_per_target(results, findings, cwd: str) -> dict[str, tuple[list, list]]:
    """Per target: (copies of `findings` with that target's evidence, CL9xx findings for
    its breaks that no finding explains). Each target on its own: two may run one file."""
    import copy

    from compilelint.probe.match import match

    out = {}
    for r in results:
        mine = [copy.copy(f) for f in findings]
        out[r.name] = (mine, match(mine, [r], cwd=cwd))
    return out


def static_columns(results, findings) -> dict[str, dict[str, int]]:
    """Per target: static findings confirmed / not reproduced / not reached, and breaks
    (graph breaks, recompiles, frame skips) with no static finding (CL9xx)."""
    out: dict[str, dict[str, int]] = {}
    for name, (mine, extra) in match_per_target(results, findings, str(REPO)).items():
        counts = out[name] = Counter(f.evidence["status"] for f in mine if f.evidence)
        counts["missed"] = len(extra)
    return out


def _fmt(x, spec: str, dash: str = "—") -> str:
    return dash if x is None else format(x, spec)


def _markdown(results, started: float, budget: float, skipped: list[str], static=None) -> str:
    from compilelint.probe.output import fmt_bytes

    dev = next((r.timing.device_name for r in results if r.timing), None) or \
        next((r.device_name for r in results if r.device_name), "?")
    torch_v = next((r.torch_version for r in results if r.torch_version), "?")
    lines = [
        f"# compilelint probe on {dev} (torch {torch_v})",
        "",
        "| target | status | graphs | breaks / recompiles / frame skips | fullgraph | mode | eager ms | "
        "compiled ms | speedup | compile s | break-even calls | peak mem eager → compiled | max abs diff |",
        "| --- | --- | ---: | :---: | :---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    if static:
        lines[2:2] = [
            "Static findings in the code each target ran, matched with what Dynamo did "
            "(`compilelint check` on those files, then the probe's matching):",
            "",
            "| target | static findings | confirmed | not reproduced | not reached | breaks with no static finding (CL9xx) |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
            *(f"| {r.name} | {sum(static[r.name][k] for k in ('confirmed', 'not-reproduced', 'not-reached'))} | "
              f"{static[r.name]['confirmed']} | {static[r.name]['not-reproduced']} | "
              f"{static[r.name]['not-reached']} | {static[r.name]['missed']} |" for r in results),
            "",
        ]
    for r in results:
        counts = {k: sum(1 for b in r.breaks if b.kind == k) for k in ("graph_break", "recompile", "frame_skip")}
        c = f"{counts['graph_break']} / {counts['recompile']} / {counts['frame_skip']}"
        graphs = r.capture.graph_count if r.capture else "—"
        fg = {True: "yes", False: "no", None: "—"}[r.fullgraph_ok]
        status = "ok" if r.ok else f"failed: {(r.error or '')[:80]}"
        t = r.timing
        if t is None or not t.modes:
            eager = _fmt(t.eager.median_s * 1e3, ".3g") if (t and t.eager) else "—"
            lines.append(f"| {r.name} | {status} | {graphs} | {c} | {fg} | — | {eager} | — | — | — | — | — | — |")
            continue
        for i, m in enumerate(t.modes):
            head = f"| {r.name} | {status} | {graphs} | {c} | {fg} |" if i == 0 else "| | | | | |"
            eager = _fmt(t.eager.median_s * 1e3, ".3g") if t.eager else "—"
            if not m.ok:
                lines.append(f"{head} {m.mode} | {eager} | failed: {(m.error or '')[:60]} | | | | | |")
                continue
            be = "never" if m.never_breaks_even else _fmt(m.break_even_calls, ",d")
            mem = f"{fmt_bytes(t.eager_peak_mem_bytes)} → {fmt_bytes(m.peak_mem_bytes)}"
            lines.append(
                f"{head} {m.mode} | {eager} | {_fmt(m.stats.median_s * 1e3, '.3g')} | "
                f"{_fmt(m.speedup, '.2f')}× | {_fmt(m.compile_s, '.1f')} | {be} | {mem} | "
                f"{_fmt(m.max_abs_diff, '.1e')} |"
            )
    for s in skipped:
        lines.append(f"| {s} | skipped: time budget | | | | | | | | | | | |")
    lines += [
        "",
        f"Median of the timed calls (CUDA events), eager and compiled; compile s = first call minus "
        f"one steady-state call, cold inductor cache; break-even = compile time ÷ time saved per call. "
        f"Wall time {time.time() - started:.0f} s (budget {budget:.0f} s).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="folder for gpu_probe.md / .json / .svg / .html")
    ap.add_argument("--budget", type=float, default=450.0, help="seconds for the whole run")
    ap.add_argument("--scale", type=int, default=4, help="COMPILELINT_FIXTURE_SCALE for the bundled targets")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--only", default=None, help="comma-separated substrings: run only matching targets")
    a = ap.parse_args(argv)

    sys.path.insert(0, str(REPO / "src"))
    os.environ["COMPILELINT_FIXTURE_SCALE"] = str(a.scale)
    from compilelint.probe.match import findings_from_results
    from compilelint.probe.output import probe_document
    from compilelint.probe.plot import render_html, render_svg
    from compilelint.probe.runner import run_target
    from compilelint.probe.targets import parse_target

    started = time.time()
    deadline = started + a.budget
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    plan = PLAN
    if a.only:
        keys = [k.strip() for k in a.only.split(",") if k.strip()]
        plan = [p for p in PLAN if any(k in p[0] for k in keys)]
    results = []
    skipped: list[str] = []
    for spec_text, modes, timeout in plan:
        left = deadline - time.time()
        if left < 45:
            skipped.append(spec_text)
            print(f"{spec_text}: skipped (time budget)", file=sys.stderr, flush=True)
            continue
        spec = parse_target(spec_text, base=str(REPO))
        t0 = time.time()
        res = run_target(spec, device=a.device, modes=modes, backend="inductor", runs=a.runs,
                         warmup=a.warmup, timeout=min(timeout, left - 15))
        results.append(res)
        speed = ", ".join(f"{m.mode} {m.speedup:.2f}x" for m in (res.timing.modes if res.timing else [])
                          if m.speedup)
        print(f"{spec_text}: {res.status} in {time.time() - t0:.0f} s {res.error or ''} {speed}",
              file=sys.stderr, flush=True)
        # write as we go: a cut-off run still leaves its table
        md = _markdown(results, started, a.budget, skipped)
        (out / "gpu_probe.md").write_text(md, encoding="utf-8")
        doc = probe_document(results, findings_from_results(results, cwd=str(REPO)), cwd=str(REPO))
        doc["run"] = {"budget_s": a.budget, "wall_s": round(time.time() - started, 1), "scale": a.scale,
                      "skipped": skipped}
        (out / "gpu_probe.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    findings = static_findings(results)
    static = static_columns(results, findings)
    md = _markdown(results, started, a.budget, skipped, static)
    (out / "gpu_probe.md").write_text(md, encoding="utf-8")
    doc = probe_document(results, findings_from_results(results, cwd=str(REPO)), cwd=str(REPO))
    doc["run"] = {"budget_s": a.budget, "wall_s": round(time.time() - started, 1), "scale": a.scale,
                  "skipped": skipped}
    doc["static"] = {"findings": [f.to_dict() for f in findings], "per_target": static}
    (out / "gpu_probe.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    (out / "gpu_probe.svg").write_text(render_svg(results), encoding="utf-8")
    (out / "gpu_probe.html").write_text(render_html(results), encoding="utf-8")
    print(md)
    return 0 if results and all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
