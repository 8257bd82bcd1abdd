#!/usr/bin/env python3
"""One file from the command line, with and without a running `compilelint daemon`,
beside ruff and TorchFix on the same file (the pre-commit case).

    bash benchmarks/setup_speed.sh           # once: the corpora and the peers' venvs in .bench/
    python benchmarks/one_file.py            # models/llama/modeling_llama.py of the subset
    python benchmarks/one_file.py --repeat 9

Rows, each the median of --repeat runs, in alternation (so that a change in the machine's
load falls on every row alike):
- compilelint, the file changed (a comment line appended before each run, as the cache
  ignores mtimes), without a daemon (COMPILELINT_NO_DAEMON=1) and with one;
- compilelint, the file unchanged (cached), without and with a daemon;
- ruff (--no-cache) and TorchFix 0.7.0 on the same file;
- floors: `python -c pass`, `python -c 'import libcst'`.
The daemon gets a private folder of its own (COMPILELINT_DAEMON_DIR) and is stopped at
the end. Prints a markdown table with the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / ".bench"
PEERS = BENCH / "venv-peers" / "bin"
TORCHFIX = BENCH / "venv-torchfix" / "bin"


def timed(command: list[str], env: dict, cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-1000:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", default="subset/models/llama/modeling_llama.py", help="relative to .bench/")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    target = BENCH / args.file
    if not target.is_file():
        sys.exit(f"{target} is missing: run `bash benchmarks/setup_speed.sh` first")
    scratch = Path(tempfile.mkdtemp(prefix="compilelint-one-file-"))
    base = dict(os.environ, NO_COLOR="1", COMPILELINT_DAEMON_DIR=str(scratch / "daemon"))
    local = dict(base, COMPILELINT_NO_DAEMON="1")
    check = [sys.executable, "-m", "compilelint", "check", "--format", "concise", "--exit-zero",
             "--cache-dir", str(scratch / "cache"), args.file]
    original = target.read_bytes()
    counter = [0]

    def changed(env):
        def run() -> float:
            counter[0] += 1
            target.write_bytes(original + f"\n# changed for the benchmark {counter[0]} {time.time()}\n".encode())
            return timed(check, env, BENCH)
        return run

    def unchanged(env):
        def run() -> float:
            target.write_bytes(original)
            return timed(check, env, BENCH)
        return run

    rows = {
        "compilelint, file changed, no daemon": changed(local),
        "compilelint, file changed, daemon up": changed(base),
        "compilelint, file unchanged (cached), no daemon": unchanged(local),
        "compilelint, file unchanged (cached), daemon up": unchanged(base),
        "ruff check --no-cache --select E,F,B": lambda: timed(
            [str(PEERS / "ruff"), "check", "--no-cache", "--select", "E,F,B", "--quiet", "--exit-zero", args.file],
            base, BENCH),
        "TorchFix 0.7.0": lambda: timed([str(TORCHFIX / "torchfix"), args.file], base, BENCH),
        "floor: python -c pass": lambda: timed([sys.executable, "-c", "pass"], base, BENCH),
        "floor: python -c 'import libcst'": lambda: timed([sys.executable, "-c", "import libcst"], base, BENCH),
    }
    if not (TORCHFIX / "torchfix").exists():
        rows.pop("TorchFix 0.7.0")
    if not (PEERS / "ruff").exists():
        rows.pop("ruff check --no-cache --select E,F,B")
    started = subprocess.run([sys.executable, "-m", "compilelint", "daemon", "start"], env=base, capture_output=True)
    if started.returncode != 0:
        sys.exit(started.stderr.decode())
    walls: dict[str, list[float]] = {label: [] for label in rows}
    loads = [os.getloadavg()[0]]
    try:
        unchanged(local)()  # the cache holds the file as it is
        for _ in range(args.repeat):
            for label, run in rows.items():
                walls[label].append(run())
            loads.append(os.getloadavg()[0])
    finally:
        target.write_bytes(original)
        subprocess.run([sys.executable, "-m", "compilelint", "daemon", "stop"], env=base, capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    lines = original.count(b"\n")
    print(f"One file ({args.file}, {lines} lines), git {head}; Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, {platform.platform()}; load average (1 min) during the runs: "
          f"{min(loads):.1f}-{max(loads):.1f}. Median of {args.repeat} (rows alternate).\n")
    print("| command | median wall (s) | min (s) | max (s) |")
    print("| --- | ---: | ---: | ---: |")
    for label, values in walls.items():
        print(f"| {label} | {statistics.median(values):.3f} | {min(values):.3f} | {max(values):.3f} |")


if __name__ == "__main__":
    main()
