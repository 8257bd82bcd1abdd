#!/usr/bin/env python3
"""What `compilelint probe --no-timing -- COMMAND` costs beside the command run plainly.

    python benchmarks/run_overhead.py                       # the bundled demo's train_small.py
    python benchmarks/run_overhead.py --cwd fixtures/demo --repeat 3 -- python train_small.py --steps 8

For each repeat: the command plainly, then under the probe (roots: those holding static
findings, as by default). Prints a markdown table: plain seconds, probe seconds, the
seconds the probe's compiled calls spent compiling (Dynamo tracing with the eager
backend, as the probe reports them), and probe / (plain + compile), which issue 20 wants
at most 3. Also checks the program's stdout is the same both ways.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = ["python", "train_small.py", "--steps", "4"]


def _timed(argv: list[str], cwd: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    res = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if res.returncode not in (0, 1):
        raise SystemExit(f"{argv} failed ({res.returncode}):\n{res.stderr[-3000:]}")
    return wall, res.stdout


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default=str(REPO / "fixtures" / "demo"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    command = args.command or DEFAULT
    if command[0] == "python":
        command = [sys.executable, *command[1:]]
    import torch

    print(f"python {platform.python_version()}, torch {torch.__version__}, {platform.machine()} "
          f"({os.cpu_count()} cores), command: `{' '.join(args.command or DEFAULT)}` in {args.cwd}\n")
    print("| run | plain s | probe --no-timing s | compile s | probe / plain | probe / (plain + compile) |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = []
    for i in range(args.repeat):
        plain, plain_out = _timed(command, args.cwd)
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report.json")
            probe, probe_out = _timed([sys.executable, "-m", "compilelint", "probe", "--no-timing", "--format",
                                       "json", "-o", report, "--", *command], args.cwd)
            doc = json.loads(Path(report).read_text())
        if probe_out != plain_out:
            print(f"run {i + 1}: the program's stdout differs under the probe", file=sys.stderr)
        compile_s = sum(t["durations"].get("compile_calls", 0.0) for t in doc["targets"])
        ratio = probe / (plain + compile_s)
        rows.append((plain, probe, compile_s, ratio))
        print(f"| {i + 1} | {plain:.2f} | {probe:.2f} | {compile_s:.2f} | {probe / plain:.2f}x | {ratio:.2f}x |",
              flush=True)
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"| median | {med[0]:.2f} | {med[1]:.2f} | {med[2]:.2f} | {med[1] / med[0]:.2f}x | {med[3]:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
