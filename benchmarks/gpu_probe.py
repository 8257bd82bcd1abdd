"""The probe on a GPU: real models from torchvision, transformers and timm, and the
bundled twins, with an independent capture from Dynamo's own logs beside each.

    python benchmarks/gpu_probe.py OUTDIR [--group fast|det1|det2|all] [--budget 540]
                                         [--independent [--independent-all]] [--no-static]
                                         [--only SUBSTR,...] [--capture-only SUBSTR,...]
    python benchmarks/gpu_probe.py --report OUTDIR [OUTDIR ...] [-o REPORT.md]

Runs every target of the group through the real probe (one worker subprocess each,
CUDA, inductor; capture first, what-if re-timing, worth-it verdicts) and writes, as it
goes, OUTDIR/gpu_probe.md (a table), OUTDIR/gpu_probe.json (the probe's JSON document),
OUTDIR/results.json (the raw results: lines reached included) and at the end
OUTDIR/gpu_probe.svg (latency plot) and OUTDIR/sources.tar.gz (every non-torch Python
file the targets ran, to match static findings with elsewhere). ``--independent``
first runs benchmarks/independent_capture.py on the group's targets (several at a
time, before any timing): OUTDIR/independent.json. The whole run keeps within
``--budget`` seconds: each target's timeout is cut to what is left, and targets that
no longer fit are recorded as skipped.

``--report`` reads one or more such folders (from the device), unpacks the sources
under .bench/gpu_sources/, points the results' paths at them, runs `compilelint
check` over every file each target ran, matches the findings per target and writes
the markdown of RESULTS.md section 9: per target the probe's breaks beside the
independent capture, the verdict counts, the what-if table and the worth-it verdict.

This file is also the home of the external targets (``benchmarks/gpu_probe.py:NAME``):
the worker imports it as a module, so nothing below the ``__main__`` guard runs there.
``GPU_PROBE_SMALL=1`` shrinks every model and input (a CPU check of the plumbing).
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
SMALL = os.environ.get("GPU_PROBE_SMALL") == "1"
_ME = "benchmarks/gpu_probe.py"

# (target, modes, timeout seconds, group): the order is the order of importance
PLAN = [
    ("fixtures/probe/gated_mlp.py:broken", ["default"], 120, "fast"),
    ("fixtures/probe/decoder.py:broken", ["default", "reduce-overhead"], 150, "fast"),
    ("fixtures/probe/postprocess.py:broken", ["default"], 120, "fast"),
    (f"{_ME}:switch", ["default"], 200, "fast"),
    (f"{_ME}:funnel", ["default"], 170, "fast"),
    (f"{_ME}:llama", ["default", "reduce-overhead"], 150, "fast"),
    (f"{_ME}:gpt2", ["default"], 120, "fast"),
    (f"{_ME}:t5", ["default"], 150, "fast"),
    (f"{_ME}:bart", ["default"], 150, "fast"),
    (f"{_ME}:timm_resnet50", ["default"], 120, "fast"),
    ("fixtures/probe/gated_mlp.py:fixed", ["default"], 90, "fast"),
    ("fixtures/probe/decoder.py:fixed", ["default", "reduce-overhead"], 120, "fast"),
    ("fixtures/probe/postprocess.py:fixed", ["default"], 90, "fast"),
    (f"{_ME}:retinanet", ["default"], 250, "det1"),
    (f"{_ME}:fasterrcnn", ["default"], 300, "det1"),
    (f"{_ME}:maskrcnn", ["default"], 290, "det2"),
    (f"{_ME}:ssd", ["default"], 250, "det2"),
]


# --------------------------------------------------------------------------------------
# external targets (run inside the worker): random weights, no download
# --------------------------------------------------------------------------------------


def _images(n: int, h: int, w: int) -> list:
    import torch

    if SMALL:
        n, h, w = 1, 160, 224
    return [torch.rand(3, h, w) for _ in range(n)]


def fasterrcnn():
    """torchvision Faster R-CNN (ResNet-50 FPN), random weights, two 480×640 images."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None).eval()
    return model, (_images(2, 480, 640),)


def maskrcnn():
    """torchvision Mask R-CNN (ResNet-50 FPN), random weights, two 480×640 images."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.detection.maskrcnn_resnet50_fpn(weights=None, weights_backbone=None).eval()
    return model, (_images(2, 480, 640),)


def retinanet():
    """torchvision RetinaNet (ResNet-50 FPN), random weights, two 480×640 images."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.detection.retinanet_resnet50_fpn(weights=None, weights_backbone=None).eval()
    return model, (_images(2, 480, 640),)


def ssd():
    """torchvision SSD300 (VGG-16), random weights, four 300×300 images."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.detection.ssd300_vgg16(weights=None, weights_backbone=None).eval()
    return model, (_images(4, 300, 300),)


def _hf(model_cls, config, **inputs):
    """A transformers model from a config, random weights, SDPA attention where it has it."""
    model = model_cls(config).eval()
    return model, (), inputs


def _ids(vocab: int, batch: int, seq: int):
    import torch

    if SMALL:
        batch, seq = 2, 16
    return torch.randint(0, vocab, (batch, seq))


def _width(d: int) -> int:
    return 64 if SMALL else d


def llama():
    """A small Llama-style causal LM from transformers, random weights (no download)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=8192, hidden_size=_width(512), intermediate_size=_width(512) * 11 // 4,
        num_hidden_layers=2 if SMALL else 6, num_attention_heads=8, num_key_value_heads=4,
        max_position_embeddings=1024,
    )
    model, _, kw = _hf(LlamaForCausalLM, config, input_ids=_ids(8192, 8, 256), use_cache=False)
    return model, (), kw


def gpt2():
    """GPT-2 (transformers), 6 layers of width 512, random weights."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(vocab_size=8192, n_positions=1024, n_embd=_width(512), n_layer=2 if SMALL else 6, n_head=8,
                        bos_token_id=0, eos_token_id=0)
    return _hf(GPT2LMHeadModel, config, input_ids=_ids(8192, 8, 256), use_cache=False)


def t5():
    """T5 encoder-decoder (transformers), 6+6 layers of width 512, random weights."""
    import torch
    from transformers import T5Config, T5ForConditionalGeneration

    torch.manual_seed(0)
    n = 2 if SMALL else 6
    config = T5Config(vocab_size=8192, d_model=_width(512), d_kv=_width(512) // 8, d_ff=_width(512) * 4,
                      num_layers=n, num_decoder_layers=n, num_heads=8)
    return _hf(T5ForConditionalGeneration, config, input_ids=_ids(8192, 8, 256),
               decoder_input_ids=_ids(8192, 8, 64), use_cache=False)


def bart():
    """BART encoder-decoder (transformers), 6+6 layers of width 512, random weights."""
    import torch
    from transformers import BartConfig, BartForConditionalGeneration

    torch.manual_seed(0)
    n = 2 if SMALL else 6
    config = BartConfig(vocab_size=8192, d_model=_width(512), encoder_layers=n, decoder_layers=n,
                        encoder_attention_heads=8, decoder_attention_heads=8, encoder_ffn_dim=_width(512) * 4,
                        decoder_ffn_dim=_width(512) * 4, max_position_embeddings=1024)
    return _hf(BartForConditionalGeneration, config, input_ids=_ids(8192, 8, 256),
               decoder_input_ids=_ids(8192, 8, 64), use_cache=False)


def switch():
    """Switch Transformers (transformers' MoE T5), 4+4 layers, 8 experts, random weights."""
    import torch
    from transformers import SwitchTransformersConfig, SwitchTransformersForConditionalGeneration

    torch.manual_seed(0)
    n = 2 if SMALL else 4
    config = SwitchTransformersConfig(vocab_size=8192, d_model=_width(512), d_kv=_width(512) // 8,
                                      d_ff=_width(512) * 4, num_layers=n, num_decoder_layers=n, num_heads=8,
                                      num_experts=8, expert_capacity=64, num_sparse_encoder_layers=n // 2,
                                      num_sparse_decoder_layers=n // 2)
    return _hf(SwitchTransformersForConditionalGeneration, config, input_ids=_ids(8192, 8, 128),
               decoder_input_ids=_ids(8192, 8, 32), use_cache=False)


def funnel():
    """Funnel Transformer (transformers), blocks 2-2-2 + 2 decoder layers, width 512, random weights."""
    import torch
    from transformers import FunnelConfig, FunnelModel

    torch.manual_seed(0)
    config = FunnelConfig(vocab_size=8192, d_model=_width(512), n_head=8, d_head=_width(512) // 8,
                          d_inner=_width(512) * 4, block_sizes=[1, 1, 1] if SMALL else [2, 2, 2],
                          num_decoder_layers=2)
    return _hf(FunnelModel, config, input_ids=_ids(8192, 8, 256))


def timm_resnet50():
    """timm ResNet-50, random weights (pretrained=False), 16 images of 224×224."""
    import timm
    import torch

    torch.manual_seed(0)
    model = timm.create_model("resnet18" if SMALL else "resnet50", pretrained=False).eval()
    return model, (torch.randn(2 if SMALL else 16, 3, 224, 224),)


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
    return [_finding(Finding, f) for f in found]


def _finding(cls, d: dict):
    """A Finding from its JSON dict, whatever the release calls its fields (fix/help)."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(cls)}
    d = dict(d)
    if "help" in names and "help" not in d and "fix" in d:
        d["help"] = d.pop("fix")
    if "fix" in names and "fix" not in d and "help" in d:
        d["fix"] = d.pop("help")
    for k in ("when", "needs"):
        if k in d and isinstance(d[k], list):
            d[k] = tuple(d[k])
    return cls(**{k: v for k, v in d.items() if k in names})


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
    """Per target: static findings by verdict (confirmed / not-reproduced / shadowed /
    condition-not-met / not-reached), and breaks (graph breaks, recompiles, frame skips)
    with no static finding (CL9xx)."""
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
        verdicts = ("confirmed", "not-reproduced", "shadowed", "condition-not-met", "not-reached")
        lines[2:2] = [
            "Static findings in the code each target ran, matched with what Dynamo did "
            "(`compilelint check` on those files, then the probe's matching):",
            "",
            "| target | static findings | " + " | ".join(verdicts) + " | breaks with no static finding (CL9xx) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            *(f"| {r.name} | {sum(static[r.name][k] for k in verdicts)} | "
              + " | ".join(str(static[r.name][k]) for k in verdicts)
              + f" | {static[r.name]['missed']} |" for r in results if r.name in static),
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




def _versions(python: str = sys.executable) -> dict:
    """torch, torchvision, transformers, timm, CUDA and the GPU, from a subprocess (this
    process never imports torch)."""
    code = r"""
import json, importlib
out = {}
for name in ("torch", "torchvision", "transformers", "timm", "triton"):
    try:
        out[name] = importlib.import_module(name).__version__
    except Exception as exc:
        out[name] = None
import sys, platform
out["python"] = platform.python_version()
try:
    import torch
    out["cuda"] = torch.version.cuda
    out["gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
except Exception:
    pass
print(json.dumps(out))
"""
    try:
        proc = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=180)
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except Exception as exc:  # noqa: BLE001 - metadata only
        return {"error": str(exc)}


def _ran_files(results) -> list[str]:
    """Every Python file (torch aside) a target ran, broke in or named."""
    files: set[str] = set()
    for r in results:
        files.update(r.lines_run or {})
        if r.capture:
            files.update((r.capture.lines_traced or {}))
            for b in r.capture.breaks:
                files.update(f for f, _ in b.stack)
                if b.file:
                    files.add(b.file)
        files.update(r.target_files or [])
    return sorted(f for f in files if f.endswith(".py") and os.path.isfile(f)
                  and f"site-packages{os.sep}torch{os.sep}" not in f)


def _pack_sources(results, dest: Path) -> int:
    """sources.tar.gz: the files outside this checkout that the targets ran (library code)."""
    import tarfile

    files = [f for f in _ran_files(results) if not os.path.abspath(f).startswith(str(REPO) + os.sep)]
    with tarfile.open(dest, "w:gz") as tar:
        for f in files:
            tar.add(f, arcname=os.path.abspath(f).lstrip(os.sep))
    return len(files)


def _save(out: Path, results, meta: dict, started: float, budget: float, skipped: list[str]) -> None:
    from compilelint.probe.match import findings_from_results
    from compilelint.probe.output import probe_document

    (out / "gpu_probe.md").write_text(_markdown(results, started, budget, skipped), encoding="utf-8")
    doc = probe_document(results, findings_from_results(results, cwd=str(REPO)), cwd=str(REPO))
    doc["run"] = {**meta, "wall_s": round(time.time() - started, 1), "skipped": skipped}
    (out / "gpu_probe.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    raw = {"meta": {**meta, "repo": str(REPO), "skipped": skipped}, "results": [r.to_dict() for r in results]}
    (out / "results.json").write_text(json.dumps(raw), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="*", help="folder for the outputs (with --report: the folders to read)")
    ap.add_argument("--group", default="all", help="fast, det1, det2 or all (comma-separated)")
    ap.add_argument("--budget", type=float, default=540.0, help="seconds for the whole run")
    ap.add_argument("--scale", type=int, default=4, help="COMPILELINT_FIXTURE_SCALE for the bundled targets")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--only", default=None, help="comma-separated substrings: run only matching targets")
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every target's timeout")
    ap.add_argument("--independent", action="store_true",
                    help="first run benchmarks/independent_capture.py on the targets (independent.json)")
    ap.add_argument("--independent-only", action="store_true", help="only the independent capture")
    ap.add_argument("--jobs", type=int, default=6, help="independent captures at a time")
    ap.add_argument("--independent-all", action="store_true",
                    help="the independent capture for every planned target, whatever the group")
    ap.add_argument("--independent-timeout", type=float, default=150.0, help="seconds per independent capture")
    ap.add_argument("--capture-only", default=None,
                    help="comma-separated substrings: these targets get the capture only (no timing, no what-if), "
                         "all at once before the timed ones (nothing is timed meanwhile)")
    ap.add_argument("--no-static", action="store_true", help="skip the static pass here (do it with --report)")
    ap.add_argument("--report", action="store_true", help="read OUT folders and write section 9's markdown")
    ap.add_argument("-o", "--output", default=None, help="with --report: the markdown file (default: stdout)")
    a = ap.parse_args(argv)

    # GPU_PROBE_SRC: a snapshot of src/ to run (others edit the working tree meanwhile)
    sys.path.insert(0, os.environ.get("GPU_PROBE_SRC") or str(REPO / "src"))
    if a.report:
        md = report([Path(p) for p in a.out])
        if a.output:
            Path(a.output).write_text(md, encoding="utf-8")
        else:
            print(md)
        return 0
    if len(a.out) != 1:
        ap.error("give one output folder")
    os.environ["COMPILELINT_FIXTURE_SCALE"] = str(a.scale)
    from compilelint.probe.plot import render_svg
    from compilelint.probe.runner import run_target
    from compilelint.probe.targets import parse_target

    started = time.time()
    deadline = started + a.budget
    out = Path(a.out[0])
    out.mkdir(parents=True, exist_ok=True)
    groups = {g.strip() for g in a.group.split(",")}
    plan = [p for p in PLAN if "all" in groups or p[3] in groups]
    if a.only:
        keys = [k.strip() for k in a.only.split(",") if k.strip()]
        plan = [p for p in plan if any(k in p[0] for k in keys)]
    meta = {"budget_s": a.budget, "scale": a.scale, "device": a.device, "runs": a.runs, "warmup": a.warmup,
            "group": a.group, "command": " ".join([os.path.basename(sys.argv[0]), *(argv or sys.argv[1:])]),
            "versions": _versions()}
    print(f"versions: {meta['versions']}", file=sys.stderr, flush=True)

    if a.independent or a.independent_only:
        sys.path.insert(0, str(REPO / "benchmarks"))
        import independent_capture as ic

        t0 = time.time()
        # the slow ones (detection models) first: they start while the others queue
        ind_plan = sorted(PLAN if a.independent_all else plan, key=lambda p: p[3] == "fast")
        ind = ic.run_all([str(REPO / p[0].split(":")[0]) + ":" + p[0].split(":")[1] for p in ind_plan], a.device,
                         jobs=a.jobs, timeout=max(30.0, min(a.independent_timeout, deadline - time.time() - 60)),
                         on_done=lambda r: print(f"independent {r['target'].split('/')[-1]}: "
                                                 f"{len(r['records'])} record(s), {r.get('graph_count')} graph(s), "
                                                 f"{r.get('wall_s')} s {r.get('error') or ''}",
                                                 file=sys.stderr, flush=True))
        ind = {k.replace(str(REPO) + os.sep, ""): v for k, v in ind.items()}
        (out / "independent.json").write_text(json.dumps(ind, indent=1), encoding="utf-8")
        print(f"independent capture: {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        if a.independent_only:
            return 0

    results = []
    skipped: list[str] = []
    if a.capture_only:
        from concurrent.futures import ThreadPoolExecutor

        keys = [k.strip() for k in a.capture_only.split(",") if k.strip()]
        quick = [p for p in plan if any(k in p[0] for k in keys)]
        plan = [p for p in plan if p not in quick]
        t0 = time.time()

        def capture_only(p):
            return run_target(parse_target(p[0], base=str(REPO)), device=a.device, timing=False,
                              timeout=min(p[2], deadline - time.time() - 15))

        with ThreadPoolExecutor(max_workers=len(quick) or 1) as pool:
            for res in pool.map(capture_only, quick):
                results.append(res)
                print(f"{res.target}: capture only: {res.status} {res.error or ''} breaks={len(res.breaks)}",
                      file=sys.stderr, flush=True)
        print(f"capture-only targets: {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        _save(out, results, meta, started, a.budget, skipped)
    for spec_text, modes, timeout, _group in plan:
        left = deadline - time.time()
        if left < 45:
            skipped.append(spec_text)
            print(f"{spec_text}: skipped (time budget)", file=sys.stderr, flush=True)
            continue
        spec = parse_target(spec_text, base=str(REPO))
        t0 = time.time()
        res = run_target(spec, device=a.device, modes=modes, backend="inductor", runs=a.runs,
                         warmup=a.warmup, timeout=min(timeout * a.timeout_scale, left - 15))
        results.append(res)
        speed = ", ".join(f"{m.mode} {m.speedup:.2f}x" for m in (res.timing.modes if res.timing else [])
                          if m.speedup)
        wi = ", ".join(f"{w.knob}:{w.status}" + (f" {w.speedup_vs_compiled:.2f}x" if w.speedup_vs_compiled else "")
                       for w in res.what_if)
        print(f"{spec_text}: {res.status} in {time.time() - t0:.0f} s {res.error or ''} {speed} "
              f"breaks={len(res.breaks)} what-if=[{wi}] {res.what_if_error or ''}", file=sys.stderr, flush=True)
        _save(out, results, meta, started, a.budget, skipped)  # write as we go
    _save(out, results, meta, started, a.budget, skipped)
    try:
        n = _pack_sources(results, out / "sources.tar.gz")
        print(f"sources.tar.gz: {n} files", file=sys.stderr, flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"packing the sources failed: {exc}", file=sys.stderr)
    try:
        (out / "gpu_probe.svg").write_text(render_svg(results), encoding="utf-8")
    except Exception as exc:  # noqa: BLE001
        print(f"plot failed: {exc}", file=sys.stderr)
    md = _markdown(results, started, a.budget, skipped)
    if not a.no_static:
        findings = static_findings(results)
        md = _markdown(results, started, a.budget, skipped, static_columns(results, findings))
        (out / "gpu_probe.md").write_text(md, encoding="utf-8")
    print(md)
    return 0 if results and all(r.ok for r in results) else 1


# --------------------------------------------------------------------------------------
# the report (here, from what the device wrote)
# --------------------------------------------------------------------------------------


def _remap(d: dict, device_repo: str, root: Path) -> dict:
    """Point every path of a raw result at this checkout (fixtures) or the unpacked sources."""

    def p(path):
        if not isinstance(path, str) or not path:
            return path
        if path.startswith(device_repo + os.sep):
            return str(REPO / path[len(device_repo) + 1:])
        if os.path.isabs(path):
            return str(root / path.lstrip(os.sep))
        return path

    d = json.loads(json.dumps(d))
    d["lines_run"] = {p(k): v for k, v in (d.get("lines_run") or {}).items()}
    d["target_files"] = [p(f) for f in d.get("target_files") or []]
    cap = d.get("capture")
    if cap:
        for key in ("lines_traced", "lines_ran_eagerly"):
            if cap.get(key):
                cap[key] = {p(k): v for k, v in cap[key].items()}
        for b in cap.get("breaks") or []:
            b["file"] = p(b.get("file"))
            b["stack"] = [[p(f), ln] for f, ln in b.get("stack") or []]
            b["related"] = [[p(f), ln] for f, ln in b.get("related") or []]
    return d


def _short(path: str | None) -> str:
    if not path:
        return "?"
    parts = Path(path).parts
    if "site-packages" in parts:
        return "/".join(parts[parts.index("site-packages") + 1:])
    if "gpu_sources" in parts:
        return "/".join(parts[-3:])
    try:
        return str(Path(path).relative_to(REPO))
    except ValueError:
        return "/".join(parts[-3:])


def _out_as_var(command: str) -> str:
    """The device's output folder as $OUT/NAME in a recorded command line."""
    words = command.split()
    if len(words) > 1 and words[1].startswith("/"):
        words[1] = "$OUT/" + Path(words[1]).name
    return " ".join(words)


def report(dirs: list[Path]) -> str:
    import tarfile

    from compilelint.probe.roi_report import target_worth
    from compilelint.probe.runner import TargetResult
    from compilelint.probe.worth import sentence

    sys.path.insert(0, str(REPO / "benchmarks"))
    import independent_capture as ic

    results, metas, independent = [], [], {}
    for d in dirs:
        raw = json.loads((d / "results.json").read_text(encoding="utf-8"))
        meta = raw["meta"]
        metas.append(meta)
        root = REPO / ".bench" / "gpu_sources" / d.name
        if (d / "sources.tar.gz").exists():
            root.mkdir(parents=True, exist_ok=True)
            with tarfile.open(d / "sources.tar.gz") as tar:
                tar.extractall(root, filter="data")
        for r in raw["results"]:
            results.append(TargetResult.from_dict(_remap(r, meta["repo"], root)))
        if (d / "independent.json").exists():
            independent.update(json.loads((d / "independent.json").read_text(encoding="utf-8")))
    findings = static_findings(results)
    per = match_per_target(results, findings, str(REPO))
    verdicts = ("confirmed", "not-reproduced", "shadowed", "condition-not-met", "not-reached")
    v = next((m["versions"] for m in metas if m.get("versions")), {})
    lines = [
        "## 9. The probe on a GPU with what-if and worth-it (issue 12)",
        "",
        "```bash",
        *(f"python benchmarks/{_out_as_var(m['command'])}" for m in metas),
        f"python benchmarks/gpu_probe.py --report {' '.join(d.name for d in dirs)}   "
        "# here, on the folders fetched from the device: static pass + matching",
        "```",
        "",
        f"{v.get('gpu')}, CUDA {v.get('cuda')}, Python {v.get('python')}: torch {v.get('torch')}, "
        f"torchvision {v.get('torchvision')}, transformers {v.get('transformers')}, timm {v.get('timm')}, "
        f"triton {v.get('triton')}. Random weights throughout; inference (eval, `no_grad`), fp32; "
        f"{metas[0].get('runs')} timed calls after {metas[0].get('warmup')} warm-up calls per mode.",
        "",
        "### Breaks: the probe beside an independent capture",
        "",
        "`benchmarks/independent_capture.py` (none of the probe's code): a fresh process per target "
        "with `TORCH_LOGS=graph_breaks,recompiles`, a counting backend, the target's calls in eval "
        "and `no_grad`, first call first; the log text parsed into (kind, file, line). Graph breaks / "
        "recompiles / frame skips, as (kind, file, line) places:",
        "",
        "| target | probe: graphs | probe: breaks / recompiles / frame skips | independent: graphs | "
        "independent: breaks / recompiles / frame skips | explain (warm): graphs, breaks | same places? |",
        "| --- | ---: | :---: | ---: | :---: | :---: | --- |",
    ]
    diffs = []
    occurrences = []
    for r in results:
        key = next((k for k in independent if k == r.target or k.endswith(r.target.split("/", 1)[-1])), None)
        ind = independent.get(key) if key else None
        c = Counter(b.kind for b in r.breaks)
        pc = f"{c['graph_break']} / {c['recompile']} / {c['frame_skip']}"
        graphs = r.capture.graph_count if r.capture else "—"
        if ind is None:
            lines.append(f"| {r.name} | {graphs} | {pc} | — | — | — | no independent capture |")
            continue
        ic_c = Counter(x["kind"] for x in ind.get("records", []))
        ex = ind.get("explain") or {}
        exs = f"{ex.get('graph_count')}, {ex.get('graph_break_count')}" if "graph_count" in ex else "—"
        cmp = ic.compare(r.breaks, ind)
        moved = len(cmp["same_break_placed_differently"])
        if cmp["agree"]:
            same = "agree" + (f" ({moved} placed differently)" if moved else "")
        else:
            bits = []
            if cmp["only_probe"]:
                bits.append(f"{len(cmp['only_probe'])} only in the probe")
            if cmp["only_independent"]:
                bits.append(f"{len(cmp['only_independent'])} only in the logs")
            if moved:
                bits.append(f"{moved} placed differently")
            same = "differ: " + ", ".join(bits)
        if not cmp["agree"] or moved:
            diffs.append((r, cmp))
        err = f" (error: {ind['error'][:60]})" if ind.get("error") else ""
        lines.append(f"| {r.name} | {graphs} | {pc} | {ind.get('graph_count')} | "
                     f"{ic_c['graph_break']} / {ic_c['recompile']} / {ic_c['frame_skip']} | {exs} | {same}{err} |")
        n = Counter()
        for b in r.breaks:
            n[b.kind] += b.count
        frames = (ind.get("counters") or {}).get("frames") or {}
        log_rc = sum(x.get("count", 1) for x in ind.get("records", []) if x["kind"] == "recompile")
        cgb = sum(((ind.get("counters") or {}).get("graph_break") or {}).values())
        occurrences.append(f"| {r.name} | {n['graph_break']} | {cgb} | {n['recompile']} | {log_rc} | "
                           f"{n['frame_skip']} | {frames.get('total', 0) - frames.get('ok', 0)} |")
    if diffs:
        lines += ["", "Where the places differ:", ""]
        for r, cmp in diffs:
            reasons = {}
            for b in r.breaks:
                k = ic._key(b.file, b.line)
                if k:
                    reasons.setdefault(f"{b.kind} {k[0]}:{k[1]}", b.reason)
            for x in cmp["only_probe"]:
                lines.append(f"- {r.name}: only in the probe: `{x}` — {(reasons.get(x) or '')[:110]}")
            for x in cmp["only_independent"]:
                lines.append(f"- {r.name}: only in the logs: `{x}`")
            if cmp["same_break_placed_differently"]:
                lines.append(f"- {r.name}: placed differently: "
                             + "; ".join(f"`{x}`" for x in cmp["same_break_placed_differently"]))
    lines += [
        "",
        "Occurrences (each break counted as often as Dynamo met it on the first call): the probe's "
        "graph breaks beside `torch._dynamo.utils.counters['graph_break']`, its recompiles beside the "
        "recompile records of the log, its frame skips beside the frames Dynamo did not compile "
        "(`counters['frames']`: total − ok):",
        "",
        "| target | probe: graph breaks | counters: graph_break | probe: recompiles | log: recompiles | "
        "probe: frame skips | counters: frames not compiled |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *occurrences,
    ]
    lines += [
        "",
        "### Static findings in the files each target ran: verdicts",
        "",
        "`compilelint check` over every non-torch file each target ran (library code included), "
        "then the probe's matching, each target on its own:",
        "",
        "| target | files | static findings there | " + " | ".join(verdicts) + " | breaks with no finding (CL9xx) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        mine, extra = per[r.name]
        cnt = Counter(f.evidence["status"] for f in mine if f.evidence)
        nfiles = len([f for f in r.lines_run if f.endswith(".py")])
        lines.append(f"| {r.name} | {nfiles} | {sum(cnt.values())} | " + " | ".join(str(cnt[k]) for k in verdicts)
                     + f" | {len(extra)} |")
    lines += [
        "",
        "### Timing, what-if and worth-it",
        "",
        _markdown(results, time.time(), 0, [m for meta in metas for m in meta.get("skipped", [])
                                            if m not in {x.target for x in results}])
        .split("\n", 2)[2].rsplit("\nMedian of the timed calls", 1)[0].rstrip(),
        "",
        "What-if (each class of break removed by its Dynamo knob, compiled target re-timed in "
        "its first mode):",
        "",
        "| target | knob | breaks removed | median ms | speedup vs compiled | speedup vs eager | outputs match eager |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    any_wi = False
    for r in results:
        for w in r.what_if:
            any_wi = True
            if w.status != "ok":
                lines.append(f"| {r.name} | `{w.knob}` | {_fmt(w.breaks_removed, 'd')} | {w.status}: "
                             f"{(w.error or '')[:90]} | | | |")
                continue
            match = "yes" if w.outputs_match else f"no ({(w.error or '')[:60]})"
            lines.append(f"| {r.name} | `{w.knob}` | {w.breaks_removed} of {w.breaks_before} | "
                         f"{w.median_s * 1e3:.3g} | {w.speedup_vs_compiled:.2f}× | {w.speedup_vs_eager:.2f}× | {match} |")
        if r.what_if_error:
            lines.append(f"| {r.name} | — | | what-if failed: {r.what_if_error[:90]} | | | |")
    if not any_wi:
        lines.append("| (none) | | | | | | |")
    lines += ["", "Worth-it verdicts (best mode per target):", ""]
    for r in results:
        wv = target_worth(r)
        mode = f" (mode {wv['mode']})" if wv else ""
        lines.append(f"- **{r.name}**{mode}: {sentence(wv)}")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
