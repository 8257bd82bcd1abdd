"""Issue 20 on a GPU: latency vs throughput, regional compilation, the Parameter() break.

    python benchmarks/gpu_latency.py OUTDIR [--only SUBSTR,...] [--budget 540] [--device cuda]

Three checks, each written to OUTDIR as it goes (OUTDIR/gpu_latency.md, a markdown
table per check; OUTDIR/results.json, the probe's JSON document):

1. **Latency vs throughput.** Each target goes through the real probe (one worker each,
   inductor, mode default; capture, timing, what-if): its eager and compiled times back
   to back (throughput) and one call at a time (latency), the worth-it verdict and which
   of the two it used. Beside them, an independent per-call loop in a fresh process
   (CUDA events around each call, ``synchronize`` after each, none of the probe's
   code): its speedup should match the probe's latency speedup, not its throughput one.
2. **Regional compilation.** The probe's regional entry for the targets with repeated
   blocks (GPT-2 ``transformer.h``, T5 ``encoder.block``/``decoder.block``, Llama
   ``model.layers``, the bundled ``blocks.py:stack``): compile seconds and ms per call,
   whole module vs each block.
3. **The ``nn.Parameter()`` break** (Switch Transformers, transformers' router casts its
   classifier in ``forward``): Dynamo's own count of those breaks on the first and the
   second call of a plain ``torch.compile`` (counting backend, fresh process, eval), under
   ``torch.no_grad()`` and with gradients on, beside the probe's breaks and their
   first-call-only flags. Also the bundled ``param_ctor.py`` twins.

Needs transformers (the lead's H100: torch 2.11, transformers 5.17). ``GPU_PROBE_SMALL=1``
shrinks the transformers models (a CPU check of the plumbing with ``--device cpu``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

LATENCY_TARGETS = [
    "fixtures/probe/decoder.py:broken",
    "fixtures/probe/gated_mlp.py:fixed",
    "fixtures/probe/blocks.py:stack",
    "benchmarks/gpu_probe.py:gpt2",
    "benchmarks/gpu_probe.py:llama",
    "benchmarks/gpu_probe.py:t5",
]
PARAM_TARGETS = ["benchmarks/gpu_probe.py:switch", "fixtures/probe/param_ctor.py:cast_on_first_call",
                 "fixtures/probe/param_ctor.py:cast_is_a_no_op"]
PARAM_CTOR = "torch.nn.Parameter()"

# the independent per-call loop: nothing of compilelint's
_PER_CALL = r'''
import importlib.util, json, statistics, sys, time
import torch
path, factory, device, grad = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "grad"
sys.path.insert(0, str(__import__("pathlib").Path(path).parent))
spec = importlib.util.spec_from_file_location("_t", path); mod = importlib.util.module_from_spec(spec)
sys.modules["_t"] = mod; spec.loader.exec_module(mod)
made = getattr(mod, factory)()
fn, args, kwargs = (made + ({},))[:3] if isinstance(made, tuple) else (made["fn"], made.get("args", ()), made.get("kwargs") or {})
def to(o):
    if isinstance(o, (torch.Tensor, torch.nn.Module)): return o.to(device)
    if isinstance(o, (list, tuple)): return type(o)(to(x) for x in o)
    if isinstance(o, dict): return {k: to(v) for k, v in o.items()}
    return o
fn, args, kwargs = to(fn), to(tuple(args)), to(dict(kwargs))
def per_call(f, n=200, warm=20):
    with torch.no_grad():
        for _ in range(warm): f(*args, **kwargs)
        torch.cuda.synchronize()
        out = []
        for _ in range(n):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); f(*args, **kwargs); e.record(); e.synchronize()
            out.append(s.elapsed_time(e))
    return statistics.median(out)
eager = per_call(fn)
compiled = torch.compile(fn)
with torch.no_grad(): compiled(*args, **kwargs)
comp = per_call(compiled)
print(json.dumps({"eager_ms": eager, "compiled_ms": comp, "speedup": eager / comp}))
'''

# a plain compile as a user runs one: Parameter() breaks Dynamo counted per call
_PLAIN = r'''
import importlib.util, json, sys
import torch, torch._dynamo
from torch._dynamo.utils import counters
path, factory, device, grad = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "grad"
sys.path.insert(0, str(__import__("pathlib").Path(path).parent))
spec = importlib.util.spec_from_file_location("_t", path); mod = importlib.util.module_from_spec(spec)
sys.modules["_t"] = mod; spec.loader.exec_module(mod)
made = getattr(mod, factory)()
fn, args, kwargs = (made + ({},))[:3]
fn = fn.to(device).eval()
args = tuple(a.to(device) if isinstance(a, torch.Tensor) else a for a in args)
kwargs = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
compiled = torch.compile(fn, backend=lambda gm, ex: gm.forward)
per_call = []
with torch.set_grad_enabled(grad):
    for _ in range(2):
        counters.clear()
        compiled(*args, **kwargs)
        per_call.append(sum(n for r, n in counters["graph_break"].items() if "PARAM_CTOR" in r))
print(json.dumps({"per_call": per_call, "torch": torch.__version__}))
'''.replace("PARAM_CTOR", PARAM_CTOR)


def _child(code: str, target: str, device: str, grad: bool, timeout: float) -> dict:
    path, _, factory = target.rpartition(":")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    try:
        p = subprocess.run([sys.executable, "-c", code, str(REPO / path), factory, device, "grad" if grad else "nograd"],
                           capture_output=True, text=True, timeout=timeout, cwd=REPO, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = p.stdout.strip().splitlines()
    if p.returncode or not lines:
        return {"error": (p.stderr.strip().splitlines() or ["no output"])[-1][:200]}
    return json.loads(lines[-1])


def _fmt(x, spec=".3g", none="—"):
    return none if x is None else format(x, spec)


def latency_rows(results, independent: dict) -> list[str]:
    rows = ["| target | eager ms (thr / lat) | compiled ms (thr / lat) | speedup throughput | speedup latency | "
            "independent per-call speedup | verdict (on) |", "| --- | --- | --- | ---: | ---: | ---: | --- |"]
    for r in results:
        t = r.timing
        m = next((m for m in (t.modes if t else []) if m.ok and m.stats), None)
        if m is None:
            rows.append(f"| {r.name} | {r.error or 'not timed'} | | | | | |")
            continue
        lat = (t.eager_latency.median_s / m.latency.median_s) if (t.eager_latency and m.latency) else None
        ind = independent.get(r.target, {})
        v = m.worth_it or {}
        rows.append(
            f"| {r.name} | {_fmt(t.eager.median_s * 1e3)} / {_fmt(t.eager_latency and t.eager_latency.median_s * 1e3)} "
            f"| {_fmt(m.stats.median_s * 1e3)} / {_fmt(m.latency and m.latency.median_s * 1e3)} | {m.speedup:.2f}× | "
            f"{_fmt(lat, '.2f')}× | {_fmt(ind.get('speedup'), '.2f') if 'speedup' in ind else ind.get('error', '—')}× | "
            f"{v.get('verdict', '—')} ({v.get('timing', '—')}) |")
    return rows


def regional_rows(results) -> list[str]:
    rows = ["| target | blocks | whole: compile s / ms | each block: compile s / ms | compile saved s | "
            "outputs match (whole / blocks) | status |", "| --- | --- | --- | --- | ---: | --- | --- |"]
    for r in results:
        g = r.regional
        if g is None:
            rows.append(f"| {r.name} | no repeated blocks{': ' + r.regional_error if r.regional_error else ''} | | | | | |")
            continue
        stacks = ", ".join(f"{s.count} × {s.block_class.rsplit('.', 1)[-1]} ({s.path})" for s in g.stacks)
        rows.append(f"| {r.name} | {stacks} | {_fmt(g.whole_compile_s, '.1f')} / {_fmt(g.whole_median_s and g.whole_median_s * 1e3)} "
                    f"| {_fmt(g.regional_compile_s, '.1f')} / {_fmt(g.regional_median_s and g.regional_median_s * 1e3)} "
                    f"| {_fmt(g.compile_saved_s, '.1f')} | {g.whole_outputs_match} / {g.regional_outputs_match} "
                    f"| {g.status} {g.error or ''} |")
    return rows


def param_rows(probed, plain: dict) -> list[str]:
    rows = ["| target | plain no_grad: breaks call 1, call 2 | plain with grad: call 1, call 2 | probe: breaks "
            "(places) | probe: first-call-only |", "| --- | --- | --- | --- | --- |"]
    for r in probed:
        ctor = [b for b in r.breaks if b.kind == "graph_break" and PARAM_CTOR in b.reason]
        cells = []
        for grad in (False, True):
            p = plain.get((r.target, grad), {})
            cells.append(", ".join(map(str, p["per_call"])) if "per_call" in p else p.get("error", "—"))
        places = ", ".join(f"{os.path.basename(b.file or '?')}:{b.line}×{b.count}" for b in ctor) or "none"
        fco = ", ".join(str(b.first_call_only) for b in ctor) or "—"
        rows.append(f"| {r.name} | {cells[0]} | {cells[1]} | {sum(b.count for b in ctor)} ({places}) | {fco} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    from compilelint.probe.output import probe_document
    from compilelint.probe.runner import run_target
    from compilelint.probe.targets import parse_target

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--only", default="", help="comma-separated substrings of the targets to run")
    ap.add_argument("--budget", type=float, default=540.0, help="seconds for the whole run")
    ap.add_argument("--device", default="cuda")
    a = ap.parse_args(argv)
    out = Path(a.outdir)
    out.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + a.budget
    keys = [k for k in a.only.split(",") if k]

    def chosen(ts):
        return [t for t in ts if not keys or any(k in t for k in keys)]

    import torch

    md = [f"torch {torch.__version__}, python {sys.version.split()[0]}, device {a.device}"
          + (f" ({torch.cuda.get_device_name()})" if a.device.startswith("cuda") else "")]
    try:
        import transformers

        md[0] += f", transformers {transformers.__version__}"
    except ImportError:
        pass

    def save(results, sections):
        (out / "results.json").write_text(json.dumps(probe_document(results, []), indent=1), encoding="utf-8")
        (out / "gpu_latency.md").write_text("\n".join(md + sections) + "\n", encoding="utf-8")

    # 3 first: capture only, quick
    probed, plain = [], {}
    for t in chosen(PARAM_TARGETS):
        for grad in (False, True):
            plain[(t, grad)] = _child(_PLAIN, t, a.device, grad, timeout=max(30.0, min(300.0, deadline - time.time())))
        probed.append(run_target(parse_target(t, base=str(REPO)), device=a.device, timing=False, timeout=300))
        print(f"{t}: {plain[(t, False)]} {plain[(t, True)]} probe {probed[-1].status}", file=sys.stderr, flush=True)
    sections = ["", "### The nn.Parameter() break: a plain compile vs the probe", "", *param_rows(probed, plain)]
    save(probed, sections)

    results, independent = [], {}
    for t in chosen(LATENCY_TARGETS):
        left = deadline - time.time()
        if left < 60:
            print(f"{t}: skipped (budget)", file=sys.stderr)
            continue
        if a.device.startswith("cuda"):
            independent[t] = _child(_PER_CALL, t, a.device, False, timeout=min(240.0, left / 2))
        res = run_target(parse_target(t, base=str(REPO)), device=a.device, modes=["default"],
                         timeout=max(30.0, min(400.0, deadline - time.time() - 15)))
        results.append(res)
        print(f"{t}: {res.status} {res.error or ''} independent {independent.get(t)}", file=sys.stderr, flush=True)
        secs = ["", "### Latency vs throughput", "", *latency_rows(results, independent),
                "", "### Regional compilation", "", *regional_rows(results)]
        save(results + probed, secs + sections)
    print((out / "gpu_latency.md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
