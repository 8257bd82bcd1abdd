"""Fuzz the static pass: it must never crash, hang, or die on what it reads.

    python benchmarks/fuzz.py --count 10000            # 10,000 generated programs
    python benchmarks/fuzz.py --count 500 --mutations 2000 --seed 7

Three kinds of input, each run through the whole static pass in process (read/decode,
screen, parse, walk and every rule, project index and regions, suppressions, every
report format, fingerprints for baselines, autofixes where there are fixable findings):

- generated: programs from hypothesmith's grammar strategy (`--count` of them);
- spliced: each generated program, indented into `forward` of an `nn.Module` in a torch
  file, so that rules see odd code inside a compiled region;
- mutated: real files (fixtures/corpus, the package's own source, the tests) truncated,
  with bytes inserted or deleted, lines shuffled, duplicated or re-indented, tokens
  dropped in, line ends and encodings changed (`--mutations` of them).

A crash is an exception out of the static pass, a CL001 (a rule crashed), a fix that
turns parsing code into code that does not parse, the worker process dying (a segfault)
or a program taking longer than `--timeout` seconds. The work runs in a worker process;
the parent restarts it after a death or a hang and keeps each crashing program under
`--out` (default: a temporary folder) for a bug report. The last line printed is a
summary: programs tried per kind, crashes, time.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FORMATS = ("text", "concise", "json", "sarif", "github")

TEMPLATE_HEAD = """import torch
from torch import nn


class Fuzzed(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)
"""
TEMPLATE_TAIL = """        return y


model = torch.compile(Fuzzed())
model.load_state_dict(torch.load("ckpt.pt"))
"""

TOKENS = [
    "(", ")", "[", "]", "{", "}", ":", ",", ";", "\\\n", "\n", "\r", "\r\n", "\t", "\x0c", " ",
    '"', "'", '"""', "'''", 'f"{', "}", "#", "# noqa", "# noqa: CL102", "# compilelint: noqa",
    "lambda", "await ", "yield ", "async ", "*", "**", "@", "if ", "else", "elif ", "match ",
    "case ", "type ", "print ", "exec ", "global x", "nonlocal x", "del ", "return", "->",
    ":=", "...", "\\", "`", "<>", "0777", "1_000", "1e", "0x", "'\\N{", "\ufeff", "\u2028",
    "torch.compile(", ".item()", ".tolist()", "if x.sum() > 0:\n", "for i in range(3):\n",
    "model.compile()", "torch.compile(model)", "self.n += 1", "print(x)", "x.backward()",
    "torch._dynamo.graph_break()", "@torch.compile\n", "@torch.compiler.disable\n",
]
RAW_BYTES = [b"\x00", b"\xff", b"\xfe", b"\xe9", b"\xc3", b"\x80", b"\xef\xbb\xbf", b"\x1a", b"\x7f"]


# ---- inputs ---------------------------------------------------------------------------

def corpus_files() -> list[Path]:
    found: list[Path] = []
    for folder in ("fixtures", "src/compilelint", "tests", "benchmarks"):
        base = REPO / folder
        if base.is_dir():
            found.extend(p for p in sorted(base.rglob("*.py")) if p.is_file() and not p.is_symlink())
    return found


def splice(program: str) -> str:
    """`program` indented into a compiled forward()."""
    body = "".join("        " + line + "\n" for line in program.splitlines())
    return TEMPLATE_HEAD + body + TEMPLATE_TAIL


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random damages to `data`."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(11)
        n = len(data)
        if op == 0 and n:  # truncate
            data = data[: rng.randrange(n)]
        elif op == 1:  # insert raw bytes
            for _ in range(rng.randint(1, 5)):
                at = rng.randint(0, len(data))
                data = data[:at] + rng.choice(RAW_BYTES) * rng.randint(1, 3) + data[at:]
        elif op == 2 and n:  # delete a range
            at = rng.randrange(n)
            data = data[:at] + data[at + rng.randint(1, 40):]
        elif op == 3:  # shuffle a window of lines (or all of them)
            lines = data.split(b"\n")
            if len(lines) > 2:
                lo = rng.randrange(len(lines) - 1)
                hi = min(len(lines), lo + rng.randint(2, 30)) if rng.random() < 0.8 else len(lines)
                window = lines[lo:hi]
                rng.shuffle(window)
                lines[lo:hi] = window
            data = b"\n".join(lines)
        elif op == 4:  # duplicate lines
            lines = data.split(b"\n")
            at = rng.randrange(len(lines))
            lines[at:at] = lines[at: at + rng.randint(1, 10)]
            data = b"\n".join(lines)
        elif op == 5:  # re-indent a line
            lines = data.split(b"\n")
            at = rng.randrange(len(lines))
            lines[at] = rng.choice([b"", b" ", b"    ", b"\t", b"        "]) + lines[at].lstrip(b" \t")
            data = b"\n".join(lines)
        elif op == 6:  # insert tokens
            for _ in range(rng.randint(1, 4)):
                at = rng.randint(0, len(data))
                data = data[:at] + rng.choice(TOKENS).encode("utf-8") + data[at:]
        elif op == 7:  # line ends
            data = rng.choice([data.replace(b"\n", b"\r\n"), data.replace(b"\n", b"\r"),
                               data.replace(b"\r\n", b"\n")])
        elif op == 8:  # encodings
            choice = rng.randrange(4)
            if choice == 0:
                data = b"\xef\xbb\xbf" + data
            elif choice == 1:
                data = b"# -*- coding: latin-1 -*-\n" + data
            elif choice == 2:
                data = data.decode("utf-8", "replace").encode("utf-16")
            else:
                data = b"# -*- coding: " + rng.choice([b"cp1252", b"nonsense", b"utf-8", b"ascii"]) + b" -*-\n" + data
        elif op == 9:  # deep nesting dropped in
            depth = rng.choice([50, 150, 250, 600, 3000])
            kind = rng.randrange(4)
            snippet = {0: "(" * depth + "x" + ")" * depth, 1: "-" * depth + "x",
                       2: " and ".join(["x"] * depth), 3: "x" + ".a" * depth}[kind]
            at = rng.randint(0, len(data))
            data = data[:at] + b"\ny = " + snippet.encode() + b"\n" + data[at:]
        else:  # swap two lines
            lines = data.split(b"\n")
            if len(lines) > 1:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
            data = b"\n".join(lines)
    return data


# ---- the static pass on one input ------------------------------------------------------

class Pass:
    """The static pass, set up once per process."""

    def __init__(self) -> None:
        from compilelint import config, engine

        self.engine = engine
        self.settings = config.load(None, start=str(REPO / "fixtures"), target_torch="2.13")
        self.rule_classes = engine.rules_for(self.settings)
        try:
            from compilelint import fixes
        except ImportError:
            fixes = None
        try:
            from compilelint import baseline
        except ImportError:
            baseline = None
        self.fixes, self.baseline = fixes, baseline

    def run(self, path: Path, data: bytes) -> list[str]:
        """Problems found (empty: fine). Exceptions out of here are crashes too."""
        from compilelint.report import render

        problems: list[str] = []
        path.write_bytes(data)
        display = str(path)
        analysis, lines = self.engine.analyze_path(display, self.settings, self.rule_classes)
        findings = self.engine.select_findings([analysis], self.settings)
        for finding in findings:
            if finding.code == "CL001":
                problems.append(f"CL001: {finding.message}")
        for fmt in FORMATS:
            render(fmt, findings, files=1, lines=lines, torch="2.13", root=str(path.parent))
        if self.baseline is not None:
            self.baseline.fingerprints(findings)
        if self.fixes is not None and any(f.code != "CL000" for f in findings):
            problems.extend(self._check_fixes(data, findings))
        return problems

    def _check_fixes(self, data: bytes, findings) -> list[str]:
        import libcst as cst
        from compilelint.source import SourceError, decode

        try:
            text = decode(data).text
        except SourceError:
            return []
        fixed = self.fixes.apply(text, findings)
        if fixed == text:
            return []
        try:
            cst.parse_module(fixed)
        except Exception as exc:
            return [f"fix broke the code: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"]
        again = self.fixes.apply(fixed, self._findings_for(fixed))
        if again != fixed:
            return ["fix is not idempotent"]
        return []

    def _findings_for(self, text: str):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "again.py"
            path.write_text(text, encoding="utf-8")
            analysis, _ = self.engine.analyze_path(str(path), self.settings, self.rule_classes)
            return self.engine.select_findings([analysis], self.settings)


def generated(count: int, seed: int, batch: int = 200):
    """`count` different programs from hypothesmith's grammar strategy, reproducibly, in batches
    generated in this thread (not beside the analysis: CPython 3.11's AST constructor
    keeps per-interpreter state that two threads building ASTs at once corrupt)."""
    import warnings

    import hypothesmith
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    warnings.filterwarnings("ignore")
    strategy = hypothesmith.from_grammar()
    seen: set[str] = set()  # every program once: hypothesis repeats a few small ones
    made = 0
    round_ = 0
    while made < count:
        size = batch  # a full batch even near the end: tiny runs give only the simplest programs
        programs: list[str] = []

        @hseed(seed * 1_000_003 + round_)
        @settings(max_examples=size, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def produce(program: str) -> None:
            if len(programs) < size:
                programs.append(program)

        produce()
        round_ += 1
        fresh = [p for p in dict.fromkeys(programs) if p not in seen]
        if not fresh:
            return  # the strategy has nothing new to give
        for program in fresh[: count - made]:
            seen.add(program)
            made += 1
            yield program


# ---- worker and parent -----------------------------------------------------------------

def worker(args) -> None:
    """Runs inputs, printing `start KIND N` before and `ok|fail KIND N JSON` after each."""
    out = Path(args.out)
    static = Pass()
    rng = random.Random(args.seed)
    corpus = [p.read_bytes() for p in corpus_files()]

    def one(kind: str, index: int, data: bytes) -> None:
        current = out / f"current-{kind}.py"
        print(f"start {kind} {index}", flush=True)
        try:
            problems = static.run(current, data)
        except BaseException as exc:  # a crash: keep the program, report, go on
            problems = [f"{type(exc).__name__}: {exc}\n" + traceback.format_exc(limit=8)]
        status = "fail" if problems else "ok"
        if problems:
            keep = out / "crashes" / f"{kind}-seed{args.seed}-{index}.py"
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_bytes(data)
        print(f"{status} {kind} {index} {json.dumps(problems)}", flush=True)

    mutations_per_program = args.mutations / max(args.count, 1)
    owed = 0.0
    distinct: set[int] = set()
    for index, program in enumerate(generated(args.count, args.seed)):
        distinct.add(hash(program))
        one("generated", index, program.encode("utf-8", "surrogatepass"))
        one("spliced", index, splice(program).encode("utf-8", "surrogatepass"))
        owed += mutations_per_program
        while owed >= 1 and corpus:
            owed -= 1
            one("mutated", index, mutate(rng.choice(corpus), rng))
    if args.count == 0:
        for i in range(args.mutations):
            one("mutated", i, mutate(rng.choice(corpus), rng))
    print(f"finished {len(distinct)}", flush=True)


def parent(args) -> int:
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="compilelint-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    tried = {"generated": 0, "spliced": 0, "mutated": 0}
    crashes: list[dict] = []
    started = time.perf_counter()
    distinct = 0  # different generated programs (hypothesis repeats a few small ones)
    remaining, mutations, seed = args.count, args.mutations, args.seed
    while True:
        command = [sys.executable, __file__, "--worker", "--count", str(remaining), "--mutations",
                   str(mutations), "--seed", str(seed), "--out", str(out)]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=str(REPO),
                                env={**os.environ, "PYTHONHASHSEED": "0"})
        lines: queue.Queue = queue.Queue()

        def pump(stream=proc.stdout) -> None:
            for line in stream:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        in_flight: tuple[str, str] | None = None
        finished = False
        while True:
            try:
                line = lines.get(timeout=args.timeout)
            except queue.Empty:  # a hang
                proc.kill()
                proc.wait()
                crashes.append(_died(out, in_flight, f"no result within {args.timeout}s", seed))
                break
            if line is None:
                proc.wait()
                if not finished:
                    crashes.append(_died(out, in_flight, f"worker died (exit status {proc.returncode})", seed))
                break
            parts = line.rstrip("\n").split(" ", 3)
            if parts[0] == "start":
                in_flight = (parts[1], parts[2])
            elif parts[0] in ("ok", "fail"):
                kind = parts[1]
                tried[kind] += 1
                in_flight = None
                if parts[0] == "fail":
                    problems = json.loads(parts[3])
                    crashes.append({"kind": kind, "index": int(parts[2]), "seed": seed, "problems": problems})
                    print(f"CRASH {kind} #{parts[2]}: {problems[0].splitlines()[0][:200]}", flush=True)
                done = tried["generated"]
                if kind == "generated" and done % args.report_every == 0:
                    print(f"... {done} generated, {tried['spliced']} spliced, {tried['mutated']} mutated, "
                          f"{len(crashes)} crashes, {time.perf_counter() - started:.0f}s", flush=True)
            elif parts[0] == "finished":
                finished = True
                distinct += int(parts[1])
        if finished:
            break
        # restart after a death or a hang, with what is left and another seed
        remaining = max(args.count - tried["generated"], 0)
        mutations = max(args.mutations - tried["mutated"], 0)
        seed += 1000
        if remaining == 0 and mutations == 0:
            break
    elapsed = time.perf_counter() - started
    summary = {
        "generated": tried["generated"], "spliced": tried["spliced"], "mutated": tried["mutated"],
        "tried": sum(tried.values()), "distinct_generated": distinct, "crashes": len(crashes),
        "seconds": round(elapsed, 1),
        "seed": args.seed, "out": str(out),
    }
    (out / "summary.json").write_text(json.dumps({**summary, "crash_details": crashes}, indent=2))
    print(f"programs tried: {summary['tried']} ({summary['generated']} generated ({distinct} distinct), "
          f"{summary['spliced']} spliced, {summary['mutated']} mutated); crashes: {summary['crashes']}; "
          f"time: {elapsed:.0f}s")
    print(json.dumps(summary), flush=True)
    return 1 if crashes else 0


def _died(out: Path, in_flight, why: str, seed: int) -> dict:
    record = {"kind": in_flight[0] if in_flight else "?", "index": int(in_flight[1]) if in_flight else -1,
              "seed": seed, "problems": [why]}
    if in_flight:
        current = out / f"current-{in_flight[0]}.py"
        if current.exists():
            keep = out / "crashes" / f"{in_flight[0]}-seed{seed}-{in_flight[1]}-died.py"
            keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(current, keep)
    print(f"CRASH {record['kind']} #{record['index']}: {why}", flush=True)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="generated programs (each also spliced)")
    parser.add_argument("--mutations", type=int, default=None, help="mutated real files (default: count / 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds one input may take")
    parser.add_argument("--out", help="where crashing programs and summary.json go")
    parser.add_argument("--report-every", type=int, default=500)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mutations is None:
        args.mutations = args.count // 2
    if args.worker:
        worker(args)
        return 0
    return parent(args)


if __name__ == "__main__":
    sys.exit(main())
