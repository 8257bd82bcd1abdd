"""How accurate is the probe's timing? Compare it with an independent reference.

For each target this runs the real probe (``run_target``: a worker subprocess, per-call
timing, median) and then, in a separate process, measures the same eager and compiled
callables with ``torch.utils.benchmark.Timer.blocked_autorange`` (blocks of calls,
median of block means). It reports both medians and their relative difference; the
probe passes when every difference is within ``--tolerance`` (default 5 %).

    python benchmarks/probe_accuracy.py                      # CPU here, CUDA where there is one
    python benchmarks/probe_accuracy.py --device cuda --out results/

On a CPU the default is one thread (``--threads 1``) in both measurements: on a
shared, oversubscribed machine multi-threaded CPU kernels wait on descheduled threads
and both numbers become noise. Exit code: 0 all within tolerance, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

DEFAULT_TARGETS = [
    "fixtures/probe/bench.py:norm_act",
    "fixtures/probe/bench.py:mlp",
    "fixtures/probe/bench.py:convnet",
]


def reference(spec_text: str, device: str, modes: list[str], backend: str, min_run_time: float,
              warmup: int) -> dict:
    """Measured in this process, with torch.utils.benchmark only."""
    import torch
    import torch._dynamo
    from torch.utils.benchmark import Timer

    from compilelint.probe.targets import load_target, parse_target
    from compilelint.probe.timing import to_device

    spec = parse_target(spec_text, base=str(REPO))
    t = load_target(spec)
    fn = to_device(t.fn, device)
    args = to_device(t.args, device)
    kwargs = to_device(t.kwargs, device)
    threads = torch.get_num_threads()
    out: dict = {"threads": threads, "modes": {}}

    # On a GPU one blocked_autorange of a launch-bound call varied 40-140 % from the next
    # (H100, benchmarks/RESULTS.md §5): there the reference is the median of several.
    rounds = int(os.environ.get("PROBE_ACCURACY_REF_ROUNDS", "5" if device.startswith("cuda") else "1"))

    def measure(callable_) -> float:
        timer = Timer("f(*a, **k)", globals={"f": callable_, "a": args, "k": kwargs}, num_threads=threads)
        values = sorted(timer.blocked_autorange(min_run_time=min_run_time).median for _ in range(rounds))
        return values[len(values) // 2]

    def warm(callable_) -> None:
        # at least `warmup` calls and half a second: GPU clocks ramp up from idle
        t0, n = time.perf_counter(), 0
        while n < warmup or time.perf_counter() - t0 < 0.5:
            callable_(*args, **kwargs)
            n += 1
            if device.startswith("cuda") and n % 16 == 0:
                torch.cuda.synchronize()

    with torch.no_grad():
        warm(fn)
        out["eager_s"] = measure(fn)
        for mode in modes:
            torch._dynamo.reset()
            kw = {"mode": mode} if (backend == "inductor" and mode != "default") else {}
            compiled = torch.compile(fn, backend=backend, **kw)
            compiled(*args, **kwargs)
            from compilelint.probe.timing import shutdown_compile_workers

            shutdown_compile_workers()  # as the probe does: no compile workers while timing
            warm(compiled)
            out["modes"][mode] = measure(compiled)
    return out


def _ref_subprocess(spec: str, device: str, modes: list[str], backend: str, min_run_time: float,
                    warmup: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ref.json")
        cmd = [sys.executable, __file__, "--reference", spec, "--device", device, "--modes", ",".join(modes),
               "--backend", backend, "--min-run-time", str(min_run_time), "--warmup", str(warmup),
               "--json", path]
        from compilelint.probe.runner import ALLOCATOR_ENV

        # the same malloc settings as the probe's worker: the same program, the same conditions
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **ALLOCATOR_ENV})
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"reference failed for {spec}: {proc.stderr[-2000:]}")
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="*", default=None)
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--modes", default="default")
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--runs", type=int, default=30, help="probe: at least this many timed samples")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--min-run-time", type=float, default=None, help="reference seconds per measurement")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads (default 1 on CPU)")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of (probe, reference); each side keeps its fastest median "
                         "(interference from other tenants only ever adds time)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--out", default=None, help="folder for probe_accuracy.md and probe_accuracy.json")
    ap.add_argument("--reference", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    modes = [m.strip() for m in a.modes.split(",") if m.strip()]

    if a.reference:  # the independent measurement, in its own process
        data = reference(a.reference, a.device, modes, a.backend, a.min_run_time or 1.0, a.warmup)
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        return 0

    device = a.device
    if device == "auto":
        try:
            import torch

            device = "cuda" if torch.cuda.is_available() else "cpu"
        except ImportError:
            device = "cpu"
    if device == "cpu":
        threads = a.threads or 1
        os.environ["OMP_NUM_THREADS"] = str(threads)
        os.environ["MKL_NUM_THREADS"] = str(threads)
    elif a.threads:
        os.environ["OMP_NUM_THREADS"] = str(a.threads)
    runs = a.runs
    min_run_time = a.min_run_time or (1.0 if device == "cpu" else 0.5)
    targets = a.targets or DEFAULT_TARGETS

    # probe and reference share one inductor cache: the reference then runs the very
    # kernels the probe compiled (and autotuned), so what differs is the measurement
    cache_dir = tempfile.mkdtemp(prefix="probe-accuracy-inductor-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache_dir
    os.environ["TRITON_CACHE_DIR"] = os.path.join(cache_dir, "triton")

    from compilelint.probe.runner import run_target
    from compilelint.probe.targets import parse_target

    rows = []
    started = time.time()
    for spec_text in targets:
        spec = parse_target(spec_text, base=str(REPO))
        t0 = time.time()
        probe_best: dict[str, float] = {}
        ref_best: dict[str, float] = {}
        spreads: dict[str, float] = {}
        failed = None
        dev_name_t = None
        probe_wall = 0.0
        for _round in range(max(1, a.repeat)):
            t1 = time.time()
            res = run_target(spec, device=device, modes=modes, backend=a.backend, runs=runs, warmup=a.warmup,
                             timeout=a.timeout, fullgraph_check=False, min_time=min_run_time,
                             fresh_cache=False)
            probe_wall = time.time() - t1
            if not res.ok or res.timing is None or res.timing.eager is None:
                failed = res.error or "no timing"
                break
            dev_name_t = res.timing.device_name
            got = {"eager": (res.timing.eager.median_s, res.timing.eager.spread)}
            for m in res.timing.modes:
                if m.ok and m.stats is not None:
                    got[f"compiled ({m.mode})"] = (m.stats.median_s, m.stats.spread)
            for k, (v, sp) in got.items():
                if k not in probe_best or v < probe_best[k]:
                    probe_best[k], spreads[k] = v, sp
            ref = _ref_subprocess(spec_text, device, modes, a.backend, min_run_time, a.warmup, a.timeout)
            rgot = {"eager": ref["eager_s"], **{f"compiled ({m})": v for m, v in ref["modes"].items()}}
            for k, v in rgot.items():
                ref_best[k] = min(v, ref_best.get(k, v))
        if failed:
            rows.append({"target": spec_text, "error": failed})
            print(f"{spec_text}: probe failed: {failed}", file=sys.stderr)
            continue
        for what, probe_s in probe_best.items():
            if what not in ref_best:
                continue
            ref_s = ref_best[what]
            diff = probe_s / ref_s - 1.0
            rows.append({
                "target": spec_text, "what": what, "probe_ms": probe_s * 1e3, "reference_ms": ref_s * 1e3,
                "diff": diff, "within": abs(diff) <= a.tolerance, "probe_spread": spreads.get(what),
            })
        e_p, e_r = probe_best["eager"], ref_best["eager"]
        rows.append({"target": spec_text, "what": "speedup",
                     "probe": {k: e_p / v for k, v in probe_best.items() if k != "eager"},
                     "reference": {k: e_r / v for k, v in ref_best.items() if k != "eager"},
                     "probe_wall_s": probe_wall, "device_name": dev_name_t, "threads": ref.get("threads"),
                     "rounds": a.repeat})
        print(f"{spec_text}: done in {time.time() - t0:.0f} s", file=sys.stderr)

    timed = [r for r in rows if "diff" in r]
    ok = bool(timed) and all(r["within"] for r in timed) and not any("error" in r for r in rows)
    dev_name = next((r["device_name"] for r in rows if r.get("device_name")), device)
    lines = [
        f"# probe timing accuracy — {dev_name}",
        "",
        f"probe: median of ≥{runs} samples over ≥{min_run_time} s after a timed warm-up (worker subprocess, "
        f"GC off while timing, like timeit); "
        f"reference: torch.utils.benchmark.Timer.blocked_autorange(min_run_time={min_run_time}), "
        f"separate process, same inductor cache (the same kernels). Tolerance ±{a.tolerance:.0%}."
        + (f" {a.repeat} rounds; each side's fastest median." if a.repeat > 1 else ""),
        "",
        "| target | measured | probe ms | reference ms | difference | within |",
        "| --- | --- | ---: | ---: | ---: | :---: |",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['target']} | — | — | — | probe failed: {r['error']} | no |")
        elif "diff" in r:
            lines.append(f"| {r['target']} | {r['what']} | {r['probe_ms']:.4g} | {r['reference_ms']:.4g} | "
                         f"{r['diff']:+.1%} | {'yes' if r['within'] else 'no'} |")
    lines += ["", f"result: {'PASS' if ok else 'FAIL'} ({sum(r['within'] for r in timed)}/{len(timed)} "
              f"within ±{a.tolerance:.0%}); total {time.time() - started:.0f} s", ""]
    md = "\n".join(lines)
    print(md)
    if a.out:
        out = Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "probe_accuracy.md").write_text(md, encoding="utf-8")
        (out / "probe_accuracy.json").write_text(json.dumps({"device": device, "device_name": dev_name,
                                                             "tolerance": a.tolerance, "pass": ok,
                                                             "rows": rows}, indent=2), encoding="utf-8")
    import shutil

    shutil.rmtree(cache_dir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
