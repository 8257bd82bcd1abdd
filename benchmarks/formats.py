#!/usr/bin/env python3
"""What each report format costs on a fully cached run (issue 14: `--format sarif` no more
than `--format json` + 10 %; SARIF is what CI uploads).

    bash benchmarks/setup_speed.sh                 # once: the corpora in .bench/
    python benchmarks/formats.py                   # the subset and the full transformers source
    python benchmarks/formats.py --corpus subset --repeat 9

Each corpus is checked once to fill a private cache, then every format runs --repeat
times in alternation (a change in the machine's load falls on every row alike); the
median wall time is printed, with `--statistics` as one more row. Also whether the run
imported libcst (`-X importtime`): a cached run must not.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPORA = {"subset": REPO / ".bench" / "subset", "full": REPO / ".bench" / "transformers"}
IMPORTS_LIBCST = re.compile(r"\|\s+libcst$", re.MULTILINE)  # a line of -X importtime's table
ROWS = {
    "json": ["--format", "json"],
    "sarif": ["--format", "sarif"],
    "text": ["--format", "text"],
    "github": ["--format", "github"],
    "text --statistics": ["--statistics"],
}


def run(folder: Path, cache: str, extra: list[str], importtime: bool = False) -> tuple[float, str]:
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "compilelint", "check",
               ".", "--cache-dir", cache, "--exit-zero", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, NO_COLOR="1", COMPILELINT_NO_DAEMON="1"))
    return time.perf_counter() - start, done.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", choices=["subset", "full", "both"], default="both")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    names = ["subset", "full"] if args.corpus == "both" else [args.corpus]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; load before "
          f"{os.getloadavg()[0]:.1f}\n")
    for name in names:
        folder = CORPORA[name]
        if not folder.is_dir():
            sys.exit("run `bash benchmarks/setup_speed.sh` first")
        with tempfile.TemporaryDirectory() as cache:
            run(folder, cache, ["--format", "json"])  # fill the cache
            times: dict[str, list[float]] = {row: [] for row in ROWS}
            for _ in range(args.repeat):
                for row, extra in ROWS.items():
                    times[row].append(run(folder, cache, extra)[0])
            imports = {row: bool(IMPORTS_LIBCST.search(run(folder, cache, extra, importtime=True)[1]))
                       for row, extra in ROWS.items()}
        base = statistics.median(times["json"])
        print(f"**{name}** ({folder.relative_to(REPO)}), fully cached, median of {args.repeat}:\n")
        print("| format | wall (s) | × json | imports libcst |")
        print("| --- | ---: | ---: | :---: |")
        for row in ROWS:
            median = statistics.median(times[row])
            print(f"| {row} | {median:.3f} | {median / base:.2f} | {'yes' if imports[row] else 'no'} |")
        print()
    print(f"load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
