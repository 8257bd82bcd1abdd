"""Accuracy of compilelint against the labelled corpus in ``fixtures/corpus``.

Two parts:

(a) *labels*: every case is run under Dynamo (torch.compile, backend="eager") in its own
    subprocess, through :func:`compilelint.probe.capture.capture`, and its
    ``# expect: CLxxx`` comments are checked against what Dynamo reports:

    - CL1xx (not CL150): the set of lines of the case file where Dynamo reports a graph
      break (innermost user frame) must equal the set of CL1xx lines (a labelled line where
      Dynamo skips the whole frame holding what breaks, the break itself reported in the
      callee, counts: the call that hands a sparse tensor on);
    - CL150 (on a ``for``/``while`` line): Dynamo must report the frame skip ("graph
      break in loop"), or (torch 2.13) a graph break on the loop's own line — it compiled
      up to the loop and ran the loop eagerly —, and a break inside that loop (or inside
      the function it skips);
    - CL2xx: ``drive(compiled)`` must make Dynamo recompile at least once; a case with a
      ``drive`` and no CL2xx label must not recompile;
    - cases with ``confirm()`` (compile-API misuse, CL3xx): ``confirm()`` must return
      True when the file carries a label, False when it carries none.

    Every contradiction is printed; the exit status is 1 if there is any. A label may hold
    only on some releases: ``# expect: CL119 [torch < 2.14]`` (or ``[torch >= 2.14]``, or
    ``[python < 3.12]`` for the Python running it);
    the labels are read for the installed torch (as ``compilelint check`` resolves it) or
    for ``COMPILELINT_LABELS_TORCH=2.13``.

(b) *score*: runs ``python -m compilelint check fixtures/corpus --format json --no-cache
    --exit-zero`` and compares its findings with the labels, per rule and overall, at
    line level (a predicted line is right if it is labelled with any code) and strictly
    (line and code). Exit 1 if overall precision or recall < 0.95 or a rule's < 0.90
    (``--no-fail`` only prints).

Usage::

    python benchmarks/accuracy.py [-j N] [--only-labels | --only-score] [--no-fail]
                                  [--strict] [--cases GLOB ...] [--only CODE ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import fnmatch
import io
import json
import os
import re
import subprocess
import sys
import time
import tokenize
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
SITE = ROOT / "fixtures" / "site"  # packages the cases import as installed ones (its README)
SRC = ROOT / "src"
RESULT_MARK = "@@ACCURACY-RESULT@@ "
CASE_TIMEOUT_S = 180
BATCH = 16  # cases per worker interpreter

# `# expect: CL119` holds on every release; `# expect: CL119 [torch < 2.14]` (or `>= 2.14`)
# only on those releases (Dynamo's behaviour moved); `[python < 3.12]`, only on those Pythons
# (the standard library moved: `functools.cached_property` took a lock up to 3.11)
EXPECT_RE = re.compile(
    r"#\s*expect:\s*(CL\d{3}(?:\s*,\s*CL\d{3})*)(?:\s*\[(torch|python)\s*(<|>=)\s*(\d+)\.(\d+)\])?"
)


def _release() -> tuple[int, int]:
    """The torch release the labels are read for: the installed one (from its metadata,
    as `compilelint check` resolves it, capped at the newest release the knowledge is
    confirmed on), or COMPILELINT_LABELS_TORCH=MAJOR.MINOR."""
    sys.path.insert(0, str(SRC))
    from compilelint import config

    forced = os.environ.get("COMPILELINT_LABELS_TORCH")
    return config.parse_version(forced) if forced else config.torch_version(config.Settings())


RELEASE = _release()

OVERALL_MIN = 0.95
RULE_MIN = 0.90


# --------------------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------------------


@dataclass
class Case:
    path: Path
    labels: dict[int, list[str]]  # line -> codes
    has_make: bool
    has_drive: bool
    has_confirm: bool
    loops: dict[int, tuple[int, int]] = field(default_factory=dict)  # loop line -> span
    functions: list[tuple[str, int, int]] = field(default_factory=list)  # (name, def line, end)

    @property
    def name(self) -> str:
        return self.path.name

    def lines_with(self, pred) -> set[int]:
        return {ln for ln, codes in self.labels.items() if any(pred(c) for c in codes)}

    @property
    def break_lines(self) -> set[int]:
        return self.lines_with(lambda c: c.startswith("CL1") and c != "CL150")

    @property
    def loop_lines(self) -> set[int]:
        return self.lines_with(lambda c: c == "CL150")

    @property
    def recompile_lines(self) -> set[int]:
        return self.lines_with(lambda c: c.startswith("CL2"))

    @property
    def api_lines(self) -> set[int]:
        return self.lines_with(lambda c: c.startswith("CL3"))

    @property
    def kind(self) -> str:
        if self.has_confirm:
            return "api" if self.labels else "clean"
        if not self.labels:
            return "clean"
        if self.recompile_lines and not (self.break_lines or self.loop_lines):
            return "recompile"
        return "breaking"


def label_holds(op: str | None, bound: tuple[int, int], release: tuple[int, int]) -> bool:
    return op is None or (release < bound if op == "<" else release >= bound)


def parse_labels(path: Path, release: tuple[int, int] | None = None) -> dict[int, list[str]]:
    """line -> codes of the labels that hold on `release` (default: RELEASE)."""
    release = release or RELEASE
    labels: dict[int, list[str]] = {}
    with open(path, "rb") as fh:
        for tok in tokenize.tokenize(fh.readline):
            if tok.type != tokenize.COMMENT:
                continue
            for m in EXPECT_RE.finditer(tok.string):  # (`# expect: CL102  # expect: CL150 [torch < 2.13]`)
                against = tuple(sys.version_info[:2]) if m.group(2) == "python" else release
                if label_holds(m.group(3), (int(m.group(4) or 0), int(m.group(5) or 0)), against):
                    codes = [c.strip() for c in m.group(1).split(",")]
                    labels.setdefault(tok.start[0], []).extend(codes)
    return labels


def labelled_codes(path: Path) -> set[str]:
    """Every code a label of the case names, whatever release it holds on."""
    text = path.read_text(encoding="utf-8")
    return {code.strip() for m in EXPECT_RE.finditer(text) for code in m.group(1).split(",")}


def load_case(path: Path, release: tuple[int, int] | None = None) -> Case:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    loops: dict[int, tuple[int, int]] = {}
    functions: list[tuple[str, int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            loops[node.lineno] = (node.lineno, node.end_lineno or node.lineno)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            functions.append((node.name, first, node.end_lineno or node.lineno))
    return Case(
        path=path,
        labels=parse_labels(path, release),
        has_make="make" in top,
        has_drive="drive" in top,
        has_confirm="confirm" in top,
        loops=loops,
        functions=functions,
    )


def discover(patterns: list[str] | None = None, release: tuple[int, int] | None = None) -> list[Case]:
    files = sorted(p for p in CORPUS.glob("*.py") if not p.name.startswith("_"))
    if patterns:
        files = [p for p in files if any(fnmatch.fnmatch(p.name, g) or fnmatch.fnmatch(p.stem, g) for g in patterns)]
    return [load_case(p, release) for p in files]


# --------------------------------------------------------------------------------------
# (a) worker: runs ONE case in this (fresh) process and prints its result as JSON
# --------------------------------------------------------------------------------------


def _unwrap_compiled(fn):
    """A case may hand over an already compiled callable (``@torch.compile``-decorated
    function, ``torch.compile(model, dynamic=False)``): return the original callable and
    the ``dynamic`` setting it was compiled with, so that capture compiles it the same
    way (with its counting eager backend)."""
    dynamic = None
    orig_mod = getattr(fn, "_orig_mod", None)
    ctx = getattr(fn, "dynamo_ctx", None)
    if orig_mod is not None and ctx is not None:  # OptimizedModule
        return orig_mod, getattr(ctx, "_dynamic", None)
    orig = getattr(fn, "_torchdynamo_orig_callable", None)
    if orig is not None:
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                obj = cell.cell_contents
            except ValueError:
                continue
            if hasattr(obj, "_dynamic"):
                dynamic = obj._dynamic
        return orig, dynamic
    return fn, dynamic


def _import_case(path: Path):
    import importlib.util

    name = "corpus_case_" + re.sub(r"\W", "_", path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _run_one(path: Path) -> dict:
    out: dict = {"case": path.name}
    t0 = time.perf_counter()
    try:
        try:
            mod = _import_case(path)
        except ModuleNotFoundError as e:  # a library the case exercises is not installed here
            out["skipped"] = f"needs `{e.name}`, which does not import here"
            out["seconds"] = round(time.perf_counter() - t0, 2)
            return out
        if hasattr(mod, "confirm"):
            out["confirm"] = bool(mod.confirm())
        else:
            from compilelint.probe.capture import capture

            made = mod.make()
            fn, args = made[0], tuple(made[1])
            kwargs = dict(made[2]) if len(made) > 2 and made[2] else {}
            fn, dynamic = _unwrap_compiled(fn)
            res = capture(
                fn,
                args,
                kwargs,
                backend="eager",
                driver=getattr(mod, "drive", None),
                dynamic=dynamic,
            )
            out["capture"] = res.to_dict()
    except BaseException as e:  # noqa: BLE001 - report everything
        import traceback

        out["error"] = f"{type(e).__name__}: {e}"
        out["traceback"] = traceback.format_exc()
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def worker(paths: list[str]) -> int:
    """Run the given cases one after another in this process (Dynamo is reset before
    each by capture) and print one result line per case."""
    import warnings

    warnings.simplefilter("ignore")
    sys.path.insert(0, str(SRC))
    real_stdout = sys.stdout
    for p in paths:
        sink = io.StringIO()  # user code prints: keep the result channel clean
        with contextlib.redirect_stdout(sink):
            out = _run_one(Path(p).resolve())
        real_stdout.write(RESULT_MARK + json.dumps(out) + "\n")
        real_stdout.flush()
    return 0


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONBREAKPOINT"] = "0"  # breakpoint() cases: Dynamo still sees the call
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(SITE)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.setdefault("OMP_NUM_THREADS", "1")
    env.pop("TORCH_LOGS", None)
    return env


def run_batch(cases: list[Case]) -> list[dict]:
    """Run ``cases`` in one fresh interpreter (saves the ~2 s torch import per case);
    whatever did not report (a crash, a hang) is retried alone, in its own process."""
    timeout = CASE_TIMEOUT_S * len(cases)
    results: dict[str, dict] = {}
    stderr = ""
    try:
        proc = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--_worker", *[str(c.path) for c in cases]],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=_env(),
            cwd=str(ROOT),
        )
        stdout, stderr = proc.stdout, proc.stderr or ""
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = f"timed out after {timeout}s"
    for line in stdout.splitlines():
        if line.startswith(RESULT_MARK):
            res = json.loads(line[len(RESULT_MARK):])
            results[res["case"]] = res
    missing = [c for c in cases if c.name not in results]
    if missing and len(cases) > 1:
        for c in missing:
            results[c.name] = run_batch([c])[0]
    elif missing:
        tail = stderr.strip().splitlines()[-15:]
        c = missing[0]
        results[c.name] = {"case": c.name, "error": "worker died without a result", "traceback": "\n".join(tail)}
    return [results[c.name] for c in cases]


def _same_file(a: str | None, b: Path) -> bool:
    if not a:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == str(b.resolve())


_SKIPPED_FN_RE = re.compile(r"frame skipped: (?P<func>\S+) \((?P<file>.+?) line (?P<line>\d+)\)")


def _is_loop_skip(rec: dict) -> bool:
    text = (rec.get("reason") or "") + "\n" + (rec.get("detail") or "")
    return "GB7000" in (rec.get("gb_id") or "").upper() or "gb7000" in text or "in a for/while loop" in text or (
        "graph break in loop" in text
    )


_LIBRARY_DIRS = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)


def _case_line(rec: dict, case_path: Path) -> int | None:
    """The line of the case file a graph break belongs to: its innermost user frame, or,
    when that frame lies in an installed library (torchvision's `nms` calls its op in
    torchvision/ops/boxes.py), the innermost frame of the case file that called into it."""
    if _same_file(rec.get("file"), case_path):
        return int(rec["line"])
    if not any(d in (rec.get("file") or "") for d in _LIBRARY_DIRS):
        return None
    for file, line in reversed(rec.get("stack") or []):
        if _same_file(file, case_path):
            return int(line)
    return None


def check_case(case: Case, res: dict) -> list[str]:
    """The contradictions between the labels of ``case`` and what Dynamo did."""
    problems: list[str] = []
    if res.get("skipped"):
        return problems
    if res.get("error"):
        problems.append(f"the case itself failed: {res['error']}")
        return problems
    if case.has_confirm:
        want = bool(case.labels)
        got = res.get("confirm")
        if got is not want:
            if want:
                problems.append(f"confirm() returned {got}: the labelled hazard {sorted(case.api_lines or case.labels)} did not occur")
            else:
                problems.append(f"confirm() returned {got} for an unlabelled (clean) case: the hazard occurs")
        return problems
    cap = res.get("capture") or {}
    if cap.get("error"):
        problems.append(f"running the compiled target raised: {cap['error'][:300]}")
    breaks = cap.get("breaks", [])
    gbs = [b for b in breaks if b.get("kind") == "graph_break"]
    observed: set[int] = set()
    for b in gbs:
        line = _case_line(b, case.path)
        if line is not None:
            observed.add(line)
        else:
            problems.append(
                f"graph break outside the case file ({b.get('file')}:{b.get('line')}): {b.get('reason', '')[:120]}"
            )
    want = case.break_lines
    # torch 2.13 also handles a break in a loop by compiling up to the loop and running the
    # loop eagerly ("cannot resume ... compiling up to the previous resumable state"): a
    # graph break on the loop's own line, which its CL150 label accounts for
    for ln in sorted(observed - want - case.loop_lines):
        reasons = sorted({(b.get("gb_id") or "-") + " " + b.get("reason", "")[:100] for b in gbs if _case_line(b, case.path) == ln})
        problems.append(f"line {ln}: Dynamo breaks here but the line has no CL1xx label ({'; '.join(reasons)})")
    # a frame that holds what breaks it (a sparse tensor it passes on) is skipped whole at
    # the call, and the graph break is reported in the callee: the skip is this line's break
    skipped = {ln for b in breaks if b.get("kind") == "frame_skip" and (ln := _case_line(b, case.path)) is not None}
    for ln in sorted(want - observed - skipped):
        problems.append(f"line {ln}: labelled {case.labels[ln]} but Dynamo reports no graph break there")

    # CL150: whole-frame skips because of a break inside a loop
    loop_skips = [b for b in breaks if b.get("kind") == "frame_skip" and _is_loop_skip(b)]
    for ln in sorted(case.loop_lines):
        start, end = case.loops.get(ln, (None, None))
        if start is None:
            problems.append(f"line {ln}: CL150 label on a line that starts no for/while loop")
            continue
        if not loop_skips and ln not in observed:
            problems.append(f"line {ln}: labelled CL150 but Dynamo reports no frame skip for a break in a loop")
            continue
        # a break on the loop line itself is the loop's own (its iterator), unless it is
        # the "compiled up to the loop" break, which needs a break inside the body
        inside = any(start < o <= end for o in observed) or (bool(loop_skips) and start in observed)
        enclosing = [f for f in case.functions if f[1] <= ln <= f[2]]
        fn_hit = False
        for b in loop_skips:
            m = _SKIPPED_FN_RE.search(b.get("detail") or "")
            if m and _same_file(m.group("file"), case.path):
                skipped_def = int(m.group("line"))
                if any(f[1] <= skipped_def <= f[2] and f[0] == m.group("func") for f in enclosing):
                    fn_hit = True
        if not (inside or fn_hit):
            problems.append(f"line {ln}: labelled CL150 but no observed break lies in this loop or its skipped function")
    if loop_skips and not case.loop_lines:
        names = set()
        for b in loop_skips:
            m = _SKIPPED_FN_RE.search(b.get("detail") or "")
            names.add(m.group(0) if m else (b.get("reason") or "")[:80])
        problems.append(
            "Dynamo skips a whole frame because of a break in a loop, but no line is labelled CL150 ("
            + "; ".join(sorted(names)) + ")"
        )

    # CL2xx: recompiles during drive()
    recompiles = [b for b in breaks if b.get("kind") == "recompile"]
    limit_skips = [b for b in breaks if b.get("kind") == "frame_skip" and "limit" in (b.get("reason") or "")]
    n_recompiles = sum(int(b.get("count", 1)) for b in recompiles) + len(limit_skips)
    if case.recompile_lines:
        if not case.has_drive:
            problems.append("CL2xx label but the case has no drive()")
        if n_recompiles == 0:
            problems.append(f"lines {sorted(case.recompile_lines)}: labelled CL2xx but drive() caused no recompile")
    elif case.has_drive and n_recompiles:
        why = "; ".join(sorted({b.get("reason", "")[:140] for b in recompiles + limit_skips}))
        problems.append(f"unlabelled case recompiles {n_recompiles}x during drive(): {why}")
    return problems


def run_labels(cases: list[Case], jobs: int, verbose: bool) -> tuple[int, list[dict]]:
    runnable = [c for c in cases if c.has_make or c.has_confirm]
    for c in cases:
        if not (c.has_make or c.has_confirm):
            print(f"SKIP  {c.name}: neither make() nor confirm()")
    t0 = time.perf_counter()
    # cases share interpreters in batches (Dynamo is reset before each case; confirm()
    # cases clean up what they set up), spread round-robin over the workers
    n_batches = max(max(1, jobs), -(-len(runnable) // BATCH))
    batches = [b for b in (runnable[i::n_batches] for i in range(n_batches)) if b]
    by_name: dict[str, dict] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for res_list in ex.map(run_batch, batches):
            for r in res_list:
                by_name[r["case"]] = r
    results = [by_name[c.name] for c in runnable]
    n_bad = 0
    rows = []
    skipped = [(c, r["skipped"]) for c, r in zip(runnable, results) if r.get("skipped")]
    for case, why in skipped:
        print(f"SKIP  {case.name}: {why}")
    for case, res in zip(runnable, results):
        if res.get("skipped"):
            rows.append({"case": case.name, "kind": case.kind, "skipped": res["skipped"]})
            continue
        problems = check_case(case, res)
        rows.append({"case": case.name, "kind": case.kind, "problems": problems, "seconds": res.get("seconds")})
        if problems:
            n_bad += 1
            print(f"FAIL  {case.name} [{case.kind}]")
            for p in problems:
                print(f"      - {p}")
            if res.get("traceback") and verbose:
                print("      " + res["traceback"].replace("\n", "\n      "))
        elif verbose:
            print(f"ok    {case.name} [{case.kind}] ({res.get('seconds')}s)")
    kinds = defaultdict(int)
    for c in runnable:
        kinds[c.kind] += 1
    dt = time.perf_counter() - t0
    print(
        f"\nlabels: {len(runnable)} cases ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}); "
        f"{len(runnable) - n_bad - len(skipped)} confirmed by Dynamo, {n_bad} contradicted, "
        f"{len(skipped)} skipped (a library they need is missing); {dt:.1f}s with -j {jobs}"
    )
    return n_bad, rows


# --------------------------------------------------------------------------------------
# (b) score the static pass
# --------------------------------------------------------------------------------------


def run_cli(corpus: Path) -> list[dict]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(SITE)] + [p for p in [env.get("PYTHONPATH")] if p])
    cmd = [sys.executable, "-m", "compilelint", "check", str(corpus), "--format", "json", "--no-cache", "--exit-zero",
           "--target-torch", "%d.%d" % RELEASE]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=600)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"`{' '.join(cmd[1:])}` exited {proc.returncode}:\n{proc.stderr.strip()[-2000:]}")
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise RuntimeError(f"compilelint did not print JSON ({e}):\n{proc.stdout[:500]}\n{proc.stderr[-1000:]}")
    findings = data.get("findings", data if isinstance(data, list) else [])
    return findings


def _norm_path(p: str) -> str:
    path = Path(p)
    if not path.is_absolute():
        path = ROOT / path
    return str(path.resolve())


def score(cases: list[Case], findings: list[dict], strict_gate: bool) -> tuple[bool, str]:
    case_paths = {str(c.path.resolve()) for c in cases}
    labelled: set[tuple[str, int, str]] = set()
    labelled_lines: set[tuple[str, int]] = set()
    for c in cases:
        p = str(c.path.resolve())
        for ln, codes in c.labels.items():
            labelled_lines.add((p, ln))
            for code in codes:
                labelled.add((p, ln, code))
    predicted: set[tuple[str, int, str]] = set()
    for f in findings:
        p = _norm_path(f["path"])
        if p not in case_paths:
            continue
        predicted.add((p, int(f["line"]), str(f["code"])))
    predicted_lines = {(p, ln) for p, ln, _ in predicted}

    codes = sorted({c for _, _, c in labelled} | {c for _, _, c in predicted})
    rows = []

    def ratio(a: int, b: int) -> float | None:
        return a / b if b else None

    for code in codes:
        preds = {(p, ln) for p, ln, c in predicted if c == code}
        labs = {(p, ln) for p, ln, c in labelled if c == code}
        tp_line = len(preds & labelled_lines)
        hit_line = len({x for x in labs if x in predicted_lines})
        tp_strict = len(preds & labs)
        rows.append(
            {
                "code": code,
                "labels": len(labs),
                "predicted": len(preds),
                "p_line": ratio(tp_line, len(preds)),
                "r_line": ratio(hit_line, len(labs)),
                "p_strict": ratio(tp_strict, len(preds)),
                "r_strict": ratio(tp_strict, len(labs)),
            }
        )
    overall = {
        "code": "overall",
        "labels": len(labelled),
        "predicted": len(predicted),
        "p_line": ratio(len(predicted_lines & labelled_lines), len(predicted_lines)),
        "r_line": ratio(len(labelled_lines & predicted_lines), len(labelled_lines)),
        "p_strict": ratio(len(predicted & labelled), len(predicted)),
        "r_strict": ratio(len(predicted & labelled), len(labelled)),
    }

    def fmt(v: float | None) -> str:
        return "   -" if v is None else f"{v:5.2f}"

    out = io.StringIO()
    out.write(f"\n{'rule':<8} {'labels':>6} {'pred':>5} | {'P line':>6} {'R line':>6} | {'P code':>6} {'R code':>6}\n")
    out.write("-" * 58 + "\n")
    for r in rows + [overall]:
        if r is overall:
            out.write("-" * 58 + "\n")
        out.write(
            f"{r['code']:<8} {r['labels']:>6} {r['predicted']:>5} | {fmt(r['p_line']):>6} {fmt(r['r_line']):>6} |"
            f" {fmt(r['p_strict']):>6} {fmt(r['r_strict']):>6}\n"
        )
    pk, rk = ("p_strict", "r_strict") if strict_gate else ("p_line", "r_line")
    failures = []
    for key, name in ((pk, "precision"), (rk, "recall")):
        v = overall[key]
        if v is not None and v < OVERALL_MIN:
            failures.append(f"overall {name} {v:.2f} < {OVERALL_MIN}")
        if v is None and key == rk and labelled:
            failures.append("no labels hit")
    if overall[pk] is None and not predicted and labelled:
        failures.append("the static pass predicted nothing")
    for r in rows:
        for key, name in ((pk, "precision"), (rk, "recall")):
            v = r[key]
            if v is not None and v < RULE_MIN:
                failures.append(f"{r['code']} {name} {v:.2f} < {RULE_MIN}")
    # false positives and misses, for the rule authors
    fps = sorted((p, ln, c) for p, ln, c in predicted if (p, ln) not in labelled_lines)
    fns = sorted((p, ln, c) for p, ln, c in labelled if (p, ln) not in predicted_lines)
    wrong = sorted((p, ln, c) for p, ln, c in predicted if (p, ln) in labelled_lines and (p, ln, c) not in labelled)

    def rel(p: str) -> str:
        try:
            return str(Path(p).relative_to(ROOT))
        except ValueError:
            return p

    if fps:
        out.write("\nfalse positives (predicted line not labelled):\n")
        for p, ln, c in fps:
            out.write(f"  {rel(p)}:{ln}: {c}\n")
    if fns:
        out.write("\nmissed (labelled line with no finding):\n")
        for p, ln, c in fns:
            out.write(f"  {rel(p)}:{ln}: {c}\n")
    if wrong:
        out.write("\nright line, other code:\n")
        for p, ln, c in wrong:
            out.write(f"  {rel(p)}:{ln}: predicted {c}, labelled {','.join(cc for pp, ll, cc in labelled if pp == p and ll == ln)}\n")
    gate = "strict (line, code)" if strict_gate else "line level"
    if failures:
        out.write(f"\nbelow the bar ({gate}): " + "; ".join(failures) + "\n")
    else:
        out.write(f"\nscore passes the bar ({gate}: overall ≥ {OVERALL_MIN}, every rule ≥ {RULE_MIN})\n")
    return not failures, out.getvalue()


# --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--_worker"]:
        return worker(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="parallel subprocesses for (a)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--only-labels", action="store_true", help="check the labels against Dynamo, skip scoring")
    g.add_argument("--only-score", action="store_true", help="score the static pass, skip Dynamo")
    ap.add_argument("--no-fail", action="store_true", help="print the score, never fail because of it")
    ap.add_argument("--strict", action="store_true", help="gate on (line, code) matching instead of line level")
    ap.add_argument("--cases", nargs="*", help="only the cases whose file name matches these globs (labels only)")
    ap.add_argument("--only", nargs="*", metavar="CODE",
                    help="only the cases labelled with one of these codes (or prefixes: CL15) on any release")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case and worker tracebacks")
    ap.add_argument("--json", help="write the per-case label results and the score rows here")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    print(f"labels for torch {RELEASE[0]}.{RELEASE[1]} (python {sys.version.split()[0]})")
    cases = discover(args.cases)
    if args.only:
        cases = [c for c in cases if any(code.startswith(tuple(args.only)) for code in labelled_codes(c.path))]
    if not cases:
        print(f"no cases under {CORPUS}")
        return 2
    status = 0
    report: dict = {}
    if not args.only_score:
        n_bad, rows = run_labels(cases, args.jobs, args.verbose)
        report["labels"] = rows
        if n_bad:
            status = 1
    if not args.only_labels:
        all_cases = discover(None) if (args.cases or args.only) else cases
        try:
            findings = run_cli(CORPUS)
        except Exception as e:  # noqa: BLE001
            print(f"\nscore: could not run the static pass: {e}")
            status = status or (0 if args.no_fail else 1)
        else:
            ok, table = score(all_cases, findings, args.strict)
            print(table)
            report["score_ok"] = ok
            if not ok and not args.no_fail:
                status = 1
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    print(f"accuracy.py finished in {time.perf_counter() - t0:.1f}s")
    return status


if __name__ == "__main__":
    sys.exit(main())
