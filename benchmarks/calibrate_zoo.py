"""The model-zoo calibration (issue 19): ``benchmarks/calibrate.py`` over every library adapter
in ``benchmarks/zoo/`` (docs/calibration.md says how to add one), then one table.

    python benchmarks/calibrate_zoo.py --capture --budget 1800     # resumable; cached per library
    python benchmarks/calibrate_zoo.py                               # classify -> benchmarks/calibration/zoo-*.json
    python benchmarks/calibrate_zoo.py --linter-src /work/wt-reach/src --out-dir /tmp/zoo-after \\
        --compare benchmarks/calibration                             # another linter, before/after table

Per library it runs ``calibrate.py --suite benchmarks/zoo/<library>.py`` (capture: each
(model, mode) in its own process through the probe worker, Dynamo ``backend="eager"``;
classify: ``compilelint check`` on the installed package, matched against the captures),
writes ``<out-dir>/zoo-<library>.json`` and prints, per library and in total, graph-break
statement recall, precision on executed lines, and the findings left unjudged.
``--findings FILE`` also writes the missed breaks and the not-reproduced findings
(file:line, rule, Dynamo's reason) as Markdown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZOO = REPO / "benchmarks" / "zoo"
CALIBRATE = REPO / "benchmarks" / "calibrate.py"
DEFAULT_OUT = REPO / "benchmarks" / "calibration"


def libraries(zoo: Path = ZOO) -> list[str]:
    """Every adapter file in ``zoo`` (adapter.py is the interface, not a library)."""
    return sorted(p.stem for p in zoo.glob("*.py") if p.stem != "adapter" and not p.stem.startswith("_"))


def row(doc: dict) -> dict:
    """One library's numbers from a calibrate.py JSON."""
    s, m = doc["summary"], doc["models"]
    o, gb = s["overall"], s["graph_breaks"]
    settings = doc["settings"]
    failed = sum(1 for model in m["chosen"] if set(m["skipped"].get(model, {})) >= set(settings))
    return {
        "library": doc["versions"]["suite"], "version": doc["versions"][doc["versions"]["suite"]],
        "models": m["requested"], "built": len(m["chosen"]) - failed, "failed": failed,
        "not_captured": len(m["not_captured"]),
        "runs": m["runs"], "runs_failed_under_dynamo": len(m["runs_failed_under_dynamo"]),
        "gb_found": gb["found"], "gb_locations": gb["locations"], "recall": gb["recall"],
        "confirmed": o["confirmed"], "not_reproduced": o["not-reproduced"], "precision": o["precision"],
        "findings_in_source": doc["static"]["in_source"], "findings_in_files_run": doc["static"]["judged"],
        "unjudged": o["shadowed"] + o["condition-not-met"] + o["not-reached"] + o.get("one-call", 0),
        "linter": doc["versions"]["linter"].get("commit", "?")[:10],
    }


def _f(x) -> str:
    return "—" if x is None else f"{x:.2f}"


def table(rows: list[dict], before: dict[str, dict] | None = None) -> str:
    head = ("| library | version | models built / failed | graph-break recall | precision (executed lines) | "
            "findings (in source / in files run) | unjudged |")
    if before:
        head += " before: recall | before: precision |"
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    total = Counter()
    for r in rows:
        missing = f" ({r['not_captured']} not captured)" if r["not_captured"] else ""
        line = (f"| {r['library']} | {r['version']} | {r['built']} / {r['failed']}{missing} | {_f(r['recall'])} "
                f"({r['gb_found']}/{r['gb_locations']}) | {_f(r['precision'])} ({r['confirmed']}/"
                f"{r['confirmed'] + r['not_reproduced']}) | {r['findings_in_source']} / {r['findings_in_files_run']} "
                f"| {r['unjudged']} |")
        if before:
            b = before.get(r["library"])
            line += (f" {_f(b['recall'])} ({b['gb_found']}/{b['gb_locations']}) | {_f(b['precision'])} "
                     f"({b['confirmed']}/{b['confirmed'] + b['not_reproduced']}) |" if b else " — | — |")
        out.append(line)
        total.update({k: r[k] for k in ("built", "failed", "gb_found", "gb_locations", "confirmed", "not_reproduced",
                                        "findings_in_source", "findings_in_files_run", "unjudged")})
    rec = total["gb_found"] / total["gb_locations"] if total["gb_locations"] else None
    judged = total["confirmed"] + total["not_reproduced"]
    prec = total["confirmed"] / judged if judged else None
    line = (f"| **all** | | {total['built']} / {total['failed']} | {_f(rec)} ({total['gb_found']}/"
            f"{total['gb_locations']}) | {_f(prec)} ({total['confirmed']}/{judged}) | {total['findings_in_source']} / "
            f"{total['findings_in_files_run']} | {total['unjudged']} |")
    if before:
        bt = Counter()
        for b in before.values():
            bt.update({k: b[k] for k in ("gb_found", "gb_locations", "confirmed", "not_reproduced")})
        bj = bt["confirmed"] + bt["not_reproduced"]
        line += (f" {_f(bt['gb_found'] / bt['gb_locations'] if bt['gb_locations'] else None)} | "
                 f"{_f(bt['confirmed'] / bj if bj else None)} |")
    out.append(line)
    return "\n".join(out)


def findings_md(docs: dict[str, dict]) -> str:
    """Missed graph-break statements and not-reproduced findings, per library."""
    out = []
    for lib, doc in docs.items():
        site = str(Path(doc["source"]).parent)
        out.append(f"### {lib} {doc['versions'][doc['versions']['suite']]} (source: {doc['source']})\n")
        missed: dict[tuple, dict] = {}
        for b in doc["breaks"]:
            if b["kind"] in ("graph_break", "frame_skip") and not b["found"]:
                missed.setdefault((b["path"], b["line"]), b)
        out.append(f"Missed graph-break statements ({len(missed)}):\n")
        for (path, line), b in sorted(missed.items()):
            runs = b["runs"]
            more = f" +{len(runs) - 1} runs" if len(runs) > 1 else ""
            reason = " ".join((b["reason"] or "").split())[:160]
            out.append(f"- `{path}:{line}` {b['gb_id'] or '-'} in `{b['function']}` ({runs[0]}{more}): {reason}")
        nr = [f for f in doc["findings"] if f["verdict"] == "not-reproduced"]
        out.append(f"\nFalse alarms: not-reproduced findings on executed lines ({len(nr)}):\n")
        for f in nr:
            runs = f["runs"]["not-reproduced"]
            more = f" +{len(runs) - 1} runs" if len(runs) > 1 else ""
            when = f" when {','.join(f['when'])}" if f["when"] else ""
            msg = " ".join(f["message"].split())[:200]
            out.append(f"- `{f['path']}:{f['line']}` {f['code']}{when} ({runs[0]}{more}): {msg}")
        out.append(f"\n(paths are relative to {site}/)\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libraries", help=f"comma-separated adapters (default: all: {','.join(libraries())})")
    ap.add_argument("--zoo-dir", default=str(ZOO), help="where the adapter files are (default %(default)s)")
    ap.add_argument("--capture", action="store_true", help="capture what is not cached first (slow; resumable)")
    ap.add_argument("--capture-only", action="store_true", help="capture, do not classify")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per model and mode")
    ap.add_argument("--budget", type=float, default=0, help="per library: stop starting captures after this many s")
    ap.add_argument("--limit", type=int, default=0, help="per library: only the first N models (calibrate.py's "
                                                          "fixed shuffle)")
    ap.add_argument("--linter-src", help="run the static pass from this src/ folder (another worktree's)")
    ap.add_argument("--linter-rev", help="run the static pass from this git revision")
    ap.add_argument("--out-dir", default=str(DEFAULT_OUT), help="where zoo-<library>.json go (default %(default)s)")
    ap.add_argument("--compare", help="a folder of earlier zoo-<library>.json: before/after columns")
    ap.add_argument("--findings", help="also write the missed breaks and false alarms here (Markdown)")
    ap.add_argument("--cache", help="calibrate.py's --cache (default .bench/calibration)")
    args = ap.parse_args(argv)
    zoo = Path(args.zoo_dir)
    libs = [x.strip() for x in (args.libraries or ",".join(libraries(zoo))).split(",") if x.strip()]
    unknown = [x for x in libs if not (zoo / f"{x}.py").is_file()]
    if unknown or not libs:
        ap.error(f"no adapter for {', '.join(unknown) or 'any library'} in {zoo} (have: {', '.join(libraries(zoo))})")
    common = ["--jobs", str(args.jobs), "--timeout", str(args.timeout)]
    if args.limit:
        common += ["--limit", str(args.limit)]
    if args.cache:
        common += ["--cache", args.cache]
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, docs, failed = [], {}, []
    for lib in libs:
        base = [sys.executable, str(CALIBRATE), "--suite", str(zoo / f"{lib}.py"), *common]
        if args.capture or args.capture_only:
            extra = ["--budget", str(args.budget)] if args.budget else []
            print(f"== {lib}: capture", file=sys.stderr, flush=True)
            if subprocess.run([*base, "--capture-only", *extra]).returncode != 0:
                failed.append(lib)
                continue
        if args.capture_only:
            continue
        out = out_dir / f"zoo-{lib}.json"
        cmd = [*base, "--classify-only", "--out", str(out), "--show", "0"]
        if args.linter_src:
            cmd += ["--linter-src", args.linter_src]
        if args.linter_rev:
            cmd += ["--linter-rev", args.linter_rev]
        print(f"== {lib}: classify", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stderr[-3000:], file=sys.stderr)
            failed.append(lib)
            continue
        docs[lib] = json.loads(out.read_text(encoding="utf-8"))
        rows.append(row(docs[lib]))
    if rows:
        before = None
        if args.compare:
            before = {}
            for lib in libs:
                p = Path(args.compare) / f"zoo-{lib}.json"
                if p.is_file():
                    r = row(json.loads(p.read_text(encoding="utf-8")))
                    before[r["library"]] = r
        print(table(rows, before))
        if args.findings:
            Path(args.findings).write_text(findings_md(docs), encoding="utf-8")
            print(f"wrote {args.findings}", file=sys.stderr)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
