"""The probe at fleet scale (RESULTS.md section 12): the same targets one after another
and side by side, through the real command line, wall times beside each other and
whether the breaks are identical.

    python benchmarks/fleet.py [--targets fixtures|models|SPEC,SPEC...] [--jobs N] [--repeat R]
                               [--timing [--gpus 0,1]] [--probe-args "..."] [--out DIR]
                               [--cluster tcp://HOST:PORT] [--only serial|side]   # one run per command; then:
    python benchmarks/fleet.py --report --out DIR

Capture only by default (`--no-timing`): `probe -j 1` against `probe -j N` (default N:
the number of cores), back to back, R times alternating. ``--timing``: the same with
timing on (inductor, what-if off unless --probe-args says otherwise): `-j 1` times every
target on one device, `-j N` spreads them over the GPUs (`--gpus`, default every visible
one) with one timing per GPU at a time; the script checks from each result's
``device_hold`` that no two timings overlapped on a device. Each run writes its sweep
file under --out (default .bench/fleet/); the markdown table goes to stdout.

``--targets models`` is the fourteen transformers models of benchmarks/fleet_targets.py
(needs transformers); ``fixtures`` the probe's bundled fixtures (eight small targets).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

REPO = Path(__file__).resolve().parents[1]
FIXTURES = ["fixtures/probe/gated_mlp.py:broken", "fixtures/probe/decoder.py:broken",
            "fixtures/probe/postprocess.py:broken", "fixtures/probe/gated_mlp.py:fixed",
            "fixtures/probe/decoder.py:fixed", "fixtures/probe/postprocess.py:fixed",
            "fixtures/probe/tiny.py:mlp", "fixtures/probe/bench.py:convnet"]


def targets(choice: str) -> list[str]:
    if choice == "fixtures":
        return FIXTURES
    if choice == "models":
        sys.path.insert(0, str(REPO / "benchmarks"))
        from fleet_targets import NAMES

        return [f"benchmarks/fleet_targets.py:{name}" for name in NAMES]
    return [t.strip() for t in choice.split(",") if t.strip()]


def run(label: str, specs: list[str], args: list[str], out: Path) -> dict:
    sweep = out / f"{label}.json"
    sweep.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH"))
                                                       if p)}
    cmd = [sys.executable, "-m", "compilelint", "probe", *args, "--format", "json", "-o", str(sweep), *specs]
    load = os.getloadavg()[0]  # a shared machine: how busy it was when the run started
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        sys.exit(f"{label}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    meta = {"label": label, "command": "compilelint probe " + " ".join(shlex.quote(a) for a in args),
            "wall_s": wall, "load": load}
    (out / f"{label}.meta.json").write_text(json.dumps(meta))
    return {**meta, "doc": json.loads(sweep.read_text())}


def saved(out: Path) -> list[dict]:
    """The runs recorded under `out` (`--only` runs, one command each), serial ones first."""
    runs = []
    for meta in sorted(out.glob("*.meta.json")):
        m = json.loads(meta.read_text())
        runs.append({**m, "doc": json.loads((out / f"{m['label']}.json").read_text())})
    return sorted(runs, key=lambda r: (not r["label"].startswith("serial"), r["label"]))


def breaks(doc: dict) -> list:
    return [(t["target"], t["status"], [(b["kind"], b["gb_id"], b["path"], b["line"], b["reason"])
                                        for b in t["breaks"]]) for t in doc["targets"]]


def overlaps(doc: dict) -> list[str]:
    """Pairs of targets whose timings held the same device lock at the same time."""
    holds = [(e["result"]["name"], e["result"].get("device_hold")) for e in doc["sweep"]["results"]]
    holds = [(n, h) for n, h in holds if h and h.get("end")]
    found = []
    for i, (a, ha) in enumerate(holds):
        for b, hb in holds[i + 1:]:
            if ha["lock"] == hb["lock"] and ha["start"] < hb["end"] and hb["start"] < ha["end"]:
                found.append(f"{a} and {b} on {ha['lock']}")
    return found


def versions() -> str:
    import importlib.metadata as md

    parts = [f"Python {platform.python_version()}"]
    for name in ("torch", "transformers", "dask", "distributed"):
        try:
            parts.append(f"{name} {md.version(name)}")
        except md.PackageNotFoundError:
            pass
    return ", ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="fixtures")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--gpus", default=None)
    ap.add_argument("--cluster", default=None, help="the side-by-side run goes to this Dask scheduler instead")
    ap.add_argument("--probe-args", default="", help="more `compilelint probe` options for both runs")
    ap.add_argument("--out", default=str(REPO / ".bench" / "fleet"))
    ap.add_argument("--only", choices=["serial", "side"],
                    help="run only the serial run or only the -j run (a command each, where commands have a time "
                         "limit); then --report")
    ap.add_argument("--report", action="store_true", help="print the table of the runs saved under --out")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.report:
        return table(saved(out), a)
    specs = targets(a.targets)
    common = shlex.split(a.probe_args) + ([] if a.timing else ["--no-timing"])
    if a.timing and "--what-if" not in a.probe_args:
        common.append("--no-what-if")
    parallel = ["--cluster", a.cluster] if a.cluster else ["-j", str(a.jobs)] + (["--gpus", a.gpus] if a.gpus else [])
    runs = []
    for r in range(a.repeat):
        if a.only != "side":
            runs.append(run(f"serial-{r}", specs, common + ["-j", "1"], out))
        if a.only != "serial":
            runs.append(run(f"cluster-{r}" if a.cluster else f"jobs{a.jobs}-{r}", specs, common + parallel, out))
    if a.only:
        print(f"{runs[-1]['label']}: {runs[-1]['wall_s']:.1f} s; `--report --out {out}` compares the runs")
        return
    table(runs, a)


def table(runs: list[dict], a) -> None:
    reference = breaks(runs[0]["doc"])
    n = runs[0]["doc"]["summary"]["targets"]
    print(f"{n} targets; {versions()}; {os.cpu_count()} cores, {platform.processor() or platform.machine()}\n")
    base = median([r["wall_s"] for r in runs if r["label"].startswith("serial")] or [runs[0]["wall_s"]])
    print("| run | command | wall s | ratio to the serial median | load average at start | targets ok |"
          " breaks identical to serial | timings overlapping on a device |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for i, r in enumerate(runs):
        doc = r["doc"]
        ratio = f"{r['wall_s'] / base:.2f}×"
        same = "yes" if breaks(doc) == reference else "NO"
        timed = any(e["result"].get("timing") for e in doc["sweep"]["results"])
        over = ", ".join(overlaps(doc)) or ("none" if timed else "—")
        print(f"| {r['label']} | `{r['command']} TARGETS` | {r['wall_s']:.1f} | {ratio} | {r.get('load', 0):.1f} | "
              f"{doc['summary']['ok']}/{doc['summary']['targets']} | {same} | {over} |")
    side = [r["wall_s"] for r in runs if not r["label"].startswith("serial")]
    if len(runs) > 2 and side:
        print(f"\nmedian wall: serial {base:.1f} s, side by side {median(side):.1f} s ({median(side) / base:.2f}×)")


if __name__ == "__main__":
    main()
