#!/usr/bin/env python3
"""The static pass's speed beside its peers, in one run, on the same machine and corpora.

    bash benchmarks/setup_speed.sh            # once: corpora and the peers' venvs in .bench/
    python benchmarks/speed.py                # both corpora (the full one takes a while)
    python benchmarks/speed.py --corpus subset --repeat 3

Corpora: transformers 5.4.0 (2,246 files, 951k lines) and the 14.5k-line subset (models
bert gpt2 llama t5 bart whisper vit). Rows: compilelint cold (empty cache), warm (nothing
changed), after changing one file (models/bert/modeling_bert.py gains a comment line: a
real content change, as the cache ignores mtimes), TorchFix 0.7.0 (own venv: it pins an
old libcst), Fixit 2.2.1 with its default rules, flake8, ruff --select E,F,B --no-cache.
Each tool runs with its default parallelism (all cores). Columns: wall time, lines/s
(corpus lines / wall: the same numerator for every tool), peak RSS of the largest
process (as /usr/bin/time -v reports it) and peak total PSS of the process tree (all
workers together, shared pages counted once), sampled every 50 ms. Then each tool on
one file (models/llama/modeling_llama.py, 519 lines; compilelint with an empty cache:
the pre-commit case of a changed file; and cached), median of --repeat runs, beside two
floors: starting Python, and starting Python and importing libcst.

Prints a table and writes markdown (for benchmarks/RESULTS.md) and JSON to .bench/.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / ".bench"
CORPORA = {"subset": BENCH / "subset", "full": BENCH / "transformers"}
ONE_FILE = "models/llama/modeling_llama.py"
TOUCHED = "models/bert/modeling_bert.py"
PEERS = BENCH / "venv-peers" / "bin"
TORCHFIX = BENCH / "venv-torchfix" / "bin"


# ---- measuring one command ------------------------------------------------------------

def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _tree_pss_kb(root: int) -> int:
    tree = _children()
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(tree.get(pid, ()))
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total


SNAPSHOT = BENCH / "snapshot"
ENV = dict(os.environ, NO_COLOR="1")


def take_snapshot(rev: str = "HEAD") -> str:
    """compilelint as committed (git HEAD, or REV), in .bench/snapshot/, first on PYTHONPATH:
    edits made while the benchmark runs can neither slow it nor invalidate its cache."""
    head = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout.strip()
    shutil.rmtree(SNAPSHOT, ignore_errors=True)
    SNAPSHOT.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", head, "src/compilelint"], cwd=REPO, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(SNAPSHOT)], input=archive.stdout, check=True)
    # bytecode compiled ahead, as pip does when it installs a wheel (the peers' venvs have
    # theirs); without it every run recompiled ~60 modules (65 ms) where
    # PYTHONDONTWRITEBYTECODE is set
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(SNAPSHOT / "src")], check=True)
    ENV["PYTHONPATH"] = str(SNAPSHOT / "src")
    return head


def measure(command: list[str], cwd: Path, ok=(0, 1)) -> dict:
    """Wall time, peak RSS of the largest process, peak PSS of the whole tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_pss_kb(proc.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode not in ok:
        raise RuntimeError(f"{' '.join(map(str, command))} exited {proc.returncode}: {err.decode()[-2000:]}")
    return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "pss_mb": peak[0] / 1024,
            "cpu": usage.ru_utime + usage.ru_stime, "load": os.getloadavg()[0]}


def median_of(runs: list[dict]) -> dict:
    out = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    out["runs"] = len(runs)
    out["walls"] = [round(r["wall"], 3) for r in runs]
    return out


# ---- the tools --------------------------------------------------------------------------

def compilelint(target: str, cache_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "compilelint", "check", "--format", "concise", "--exit-zero",
            "--cache-dir", str(cache_dir), *extra, target]


def peers(target: str) -> dict[str, list[str]]:
    return {
        "TorchFix 0.7.0": [str(TORCHFIX / "torchfix"), target],
        "Fixit 2.2.1 (default rules)": [str(PEERS / "fixit"), "lint", target],
        "flake8": [str(PEERS / "flake8"), target],
        "ruff --select E,F,B": [str(PEERS / "ruff"), "check", "--no-cache", "--select", "E,F,B", "--quiet", target],
    }


def count_lines(folder: Path) -> tuple[int, int]:
    files = sorted(folder.rglob("*.py"))
    lines = 0
    for path in files:
        text = path.read_bytes()
        lines += text.count(b"\n") + (1 if text and not text.endswith(b"\n") else 0)
    return len(files), lines


def version(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60, env=ENV)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


def bench_corpus(name: str, folder: Path, repeat: int, skip: set[str], log) -> dict:
    files, lines = count_lines(folder)
    target = os.path.relpath(folder, BENCH)
    rows: dict[str, dict] = {}
    scratch = Path(tempfile.mkdtemp(prefix="compilelint-bench-"))

    def run(label: str, make, times: int, ok=(0, 1)) -> None:
        results = []
        for i in range(times):
            results.append(measure(make(i), BENCH, ok))
            log(f"  {name:6} {label:34} run {i + 1}/{times}: {results[-1]['wall']:.2f} s "
                f"(load {results[-1]['load']:.1f})")
        rows[label] = median_of(results)

    try:
        run("compilelint cold (empty cache)", lambda i: compilelint(target, scratch / f"cold{i}"), repeat)
        warm_dir = scratch / "cold0"
        run("compilelint warm (nothing changed)", lambda i: compilelint(target, warm_dir), max(repeat, 3))
        touched = folder / TOUCHED
        original = touched.read_bytes()

        def touch(i: int) -> list[str]:
            touched.write_bytes(original + f"\n# changed for the benchmark, run {i} {time.time()}\n".encode())
            return compilelint(target, warm_dir)

        try:
            run("compilelint, one file changed", touch, max(repeat, 3))
        finally:
            touched.write_bytes(original)
        for label, command in peers(target).items():
            if any(s.lower() in label.lower() for s in skip):
                continue
            run(label, lambda i, command=command: command, repeat, ok=(0, 1, 2))
        # one file
        one = os.path.join(target, ONE_FILE)
        single: dict[str, dict] = {}
        for label, make in [
            ("compilelint (changed file, cache on)", lambda i: compilelint(one, scratch / f"one{i}")),
            ("compilelint (unchanged, cached)", lambda i: compilelint(one, scratch / "one0")),
            *[(label, lambda i, command=command: command) for label, command in peers(one).items()
              if not any(s.lower() in label.lower() for s in skip)],
            # floors: what any Python tool pays, and what a libcst-based one pays, before any work
            ("floor: python -c pass", lambda i: [sys.executable, "-c", "pass"]),
            ("floor: python -c 'import libcst'", lambda i: [sys.executable, "-c", "import libcst"]),
        ]:
            results = [measure(make(i), BENCH, (0, 1, 2)) for i in range(max(repeat, 5))]
            single[label] = median_of(results)
            log(f"  {name:6} one file: {label:34} {single[label]['wall']:.3f} s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"files": files, "lines": lines, "rows": rows, "one_file": single}


# ---- report -----------------------------------------------------------------------------

def machine() -> dict:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass
    return {"cpu": cpu, "cores": cores, "memory": mem, "python": platform.python_version(),
            "system": platform.platform()}


def versions(git: str) -> dict:
    return {
        "compilelint": version([sys.executable, "-m", "compilelint", "--version"]) + f" (git {git})",
        "libcst (compilelint)": version([sys.executable, "-c", "import libcst._version as v; print(v.__version__)"]),
        "TorchFix": version([str(TORCHFIX / "torchfix"), "--version"]),
        "libcst (TorchFix)": version([str(TORCHFIX / "python"), "-c", "import libcst._version as v; print(v.__version__)"]),
        "Fixit": version([str(PEERS / "fixit"), "--version"]),
        "flake8": version([str(PEERS / "flake8"), "--version"]),
        "ruff": version([str(PEERS / "ruff"), "--version"]),
    }


def markdown(results: dict) -> str:
    m, v = results["machine"], results["versions"]
    out = [f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; Python {m['python']}; {m['system']}.",
           "Versions: " + "; ".join(f"{k} {val}" for k, val in v.items()) + ".",
           f"Started {results['started']}; load average (1 min) before {results['load_before'][0]:.1f}, "
           f"after {results['load_after'][0]:.1f} (the `load` column: at the end of each run).", ""]
    for name, data in results["corpora"].items():
        title = "transformers 5.4.0, full" if name == "full" else "transformers 5.4.0, 7-model subset"
        out.append(f"**{title}: {data['files']:,} files, {data['lines']:,} lines**\n")
        out.append("| tool | wall (s) | lines/s | CPU s (all processes) | peak RSS, largest process (MB) "
                   "| peak PSS, all processes (MB) | load | runs |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for label, row in data["rows"].items():
            out.append(f"| {label} | {row['wall']:.2f} | {data['lines'] / row['wall']:,.0f} | {row['cpu']:.1f} | "
                       f"{row['rss_mb']:.0f} | {row['pss_mb']:.0f} | {row['load']:.1f} | {row['runs']} |")
        out.append("")
        out.append(f"One file ({ONE_FILE}), median:\n")
        out.append("| tool | wall (s) | CPU s | peak RSS (MB) |")
        out.append("| --- | ---: | ---: | ---: |")
        for label, row in data["one_file"].items():
            out.append(f"| {label} | {row['wall']:.3f} | {row['cpu']:.2f} | {row['rss_mb']:.0f} |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=["subset", "full", "both"], default="both")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per measurement (default: 3 on the subset, 1 on the full corpus; "
                             "warm, one-changed-file and one-file rows run at least 3 / 5 times)")
    parser.add_argument("--skip", action="append", default=[], help="skip peers whose name contains this")
    parser.add_argument("--out", default=str(BENCH / "speed-results"), help="prefix of the .md and .json written")
    parser.add_argument("--working-tree", action="store_true",
                        help="measure the working tree as it is, not a snapshot of git HEAD")
    parser.add_argument("--rev", default="HEAD",
                        help="measure this commit instead of HEAD (to compare before and after on one day)")
    args = parser.parse_args()
    for folder in CORPORA.values():
        if not folder.is_dir():
            sys.exit("run `bash benchmarks/setup_speed.sh` first")
    names = ["subset", "full"] if args.corpus == "both" else [args.corpus]

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if args.working_tree:
        git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                             text=True).stdout.strip() + "+working tree"
    else:
        git = take_snapshot(args.rev)
    results = {"machine": machine(), "versions": versions(git), "corpora": {},
               "started": time.strftime("%Y-%m-%d %H:%M:%S"), "load_before": os.getloadavg()}
    log(json.dumps(results["machine"]))
    for name in names:
        repeat = args.repeat or (3 if name == "subset" else 1)
        results["corpora"][name] = bench_corpus(name, CORPORA[name], repeat, set(args.skip), log)
    results["load_after"] = os.getloadavg()
    text = markdown(results)
    print(text)
    Path(args.out + ".md").write_text(text, encoding="utf-8")
    Path(args.out + ".json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    log(f"wrote {args.out}.md and {args.out}.json")


if __name__ == "__main__":
    main()
