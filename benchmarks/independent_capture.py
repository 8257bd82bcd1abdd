"""An independent record of what Dynamo does on a target's first compiled call.

    python benchmarks/independent_capture.py OUT.json TARGET [TARGET ...] [--device cuda] [--jobs 4]

Written to check the probe (``compilelint probe``) from outside: it uses none of the
probe's code. Each target (``path/to/file.py:factory``, the probe's factory convention:
``(fn, args)``, ``(fn, args, kwargs)`` or ``{"fn", "args", "kwargs", "calls"}``) runs
in a fresh Python process with ``TORCH_LOGS="graph_breaks,recompiles"`` set in its
environment, so torch itself writes Dynamo's ``graph_breaks`` and ``recompiles``
artifacts to stderr; this file parses that text. The process compiles the target with
a counting backend (graphs and FX nodes; Dynamo decides the breaks, no inductor), gives
it the target's calls under ``torch.no_grad()`` in eval mode, first call first, and
records ``torch._dynamo.utils.counters`` (``graph_break``, ``frames``, ``unimplemented``).
Then, after ``torch._dynamo.reset()``, ``torch._dynamo.explain`` on the first call, for
its own graph and break counts (a second, warm capture: explain misses whole-frame
skips and work done only on a first call).

Per target the JSON has ``records`` (kind ``graph_break`` / ``recompile`` /
``frame_skip``, file, line, function, reason, gb id, user stack), the counters, the
graph count, explain's numbers and the log text's tail. :func:`compare` sets a probe
result's breaks beside these records.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# "V1123 11:22:30.162000 13135 site-packages/torch/_dynamo/symbolic_convert.py:5124] [0/0] [__graph_breaks] text"
_PREFIX_RE = re.compile(
    r"^(?P<head>[VIWEDC]\d{4} [\d:.]+\s+\d+ \S+\])(?: \[(?P<frame>[^\]]*)\])?(?: \[__(?P<art>\w+)\])? ?(?P<text>.*)$")
# "Graph break in user code at F:L", or for a repeat of the same break type and place chain
# "Graph break (user stack suppressed due to duplicate graph break) in user code at F:L"
_GB_AT_RE = re.compile(r"^Graph break(?: \([^)]*\))? in user code at (?P<file>.+):(?P<line>\d+)\s*$")
_RECOMPILE_RE = re.compile(r"^Recompiling function (?P<func>\S+) in (?P<file>.+):(?P<line>\d+)\s*$")
_SKIPPED_RE = re.compile(r"frame skipped: (?P<func>\S+) \((?P<file>.+?) line (?P<line>\d+)\)")
_GB_ID_RE = re.compile(r"/gb/gb(\d{4})\.html", re.IGNORECASE)
_TB_FRAME_RE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?')
_LIMIT_RE = re.compile(r"hit config\.(?P<which>\w*(?:recompile_limit|cache_size_limit)\w*) \((?P<n>\d+)\)")
_LIMIT_FN_RE = re.compile(r"function: '(?P<func>[^']+)' \((?P<file>.+?):(?P<line>\d+)\)")


# --------------------------------------------------------------------------------------
# the child: one target, one fresh process
# --------------------------------------------------------------------------------------


def _load(target: str):
    import importlib.util

    path, _, factory = target.rpartition(":")
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))
    name = f"_independent_{Path(path).stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    made = getattr(mod, factory)()
    if isinstance(made, dict):
        fn, args, kwargs = made["fn"], tuple(made.get("args", ())), dict(made.get("kwargs") or {})
        calls = [(args, kwargs)]
        for c in made.get("calls", []):
            if isinstance(c, dict):
                calls.append((tuple(c.get("args", ())), dict(c.get("kwargs") or {})))
            elif isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], (tuple, list)) and isinstance(c[1], dict):
                calls.append((tuple(c[0]), dict(c[1])))
            else:
                calls.append((tuple(c), {}))
        return fn, calls
    fn, args, *rest = made
    return fn, [(tuple(args), dict(rest[0]) if rest else {})]


def _to(obj, device):
    import torch

    if isinstance(obj, (torch.Tensor, torch.nn.Module)):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: _to(v, device) for k, v in obj.items()}
    return obj


def child(target: str, device: str, result_path: str) -> int:
    out: dict[str, Any] = {"target": target, "device": device, "error": None}

    def save():
        Path(result_path).write_text(json.dumps(out, default=str), encoding="utf-8")

    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    out["torch_version"] = torch.__version__
    os.environ.setdefault("COMPILELINT_PROBE_DEVICE", device)
    fn, calls = _load(target)
    fn = _to(fn, device)
    calls = [(_to(a, device), _to(k, device)) for a, k in calls]
    if isinstance(fn, torch.nn.Module):
        fn.eval()
    graphs: list[int] = []

    def counting_backend(gm, example_inputs):
        graphs.append(sum(1 for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")))
        return gm.forward

    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(fn, backend=counting_backend)
    t0 = time.perf_counter()
    try:
        with torch.no_grad():
            for a, k in calls:
                compiled(*a, **k)
    except Exception as exc:  # recorded: the logs up to here still count
        out["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    out["first_call_s"] = round(time.perf_counter() - t0, 3)
    out["graph_count"] = len(graphs)
    out["op_count"] = sum(graphs)
    out["counters"] = {k: {str(r): n for r, n in v.items()} for k, v in counters.items()
                       if k in ("graph_break", "frames", "unimplemented", "recompiles", "stats")}
    save()
    print("@@END_OF_FIRST_CALL@@", file=sys.stderr, flush=True)
    # explain: a second capture, after a reset (warm process)
    torch._dynamo.reset()
    try:
        a, k = calls[0]
        with torch.no_grad():
            ex = torch._dynamo.explain(fn)(*a, **k)
        out["explain"] = {
            "graph_count": ex.graph_count,
            "graph_break_count": ex.graph_break_count,
            "break_reasons": [
                {"reason": str(getattr(br, "reason", br)).splitlines()[0][:300],
                 "where": [f"{fs.filename}:{fs.lineno}" for fs in (getattr(br, "user_stack", None) or [])][-1:]}
                for br in ex.break_reasons
            ],
        }
    except Exception as exc:
        out["explain"] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    save()
    return 0


# --------------------------------------------------------------------------------------
# parsing the log text
# --------------------------------------------------------------------------------------


def _records_of(text: str) -> list[tuple[str, str]]:
    """(artifact, message) per log record: a record's lines share one prefix."""
    out: list[tuple[str, list[str]]] = []
    last_head = None
    for raw in text.splitlines():
        m = _PREFIX_RE.match(raw)
        if not m:
            last_head = None
            continue
        head = (m.group("head"), m.group("frame"), m.group("art"))
        if head != last_head:
            out.append((m.group("art") or "", []))
            last_head = head
        out[-1][1].append(m.group("text"))
    return [(art, "\n".join(lines)) for art, lines in out]


def _user_stack(msg: str) -> list[tuple[str, int]]:
    i = msg.rfind("User code traceback:")
    if i < 0:
        return []
    stack = []
    for ln in msg[i:].splitlines():
        m = _TB_FRAME_RE.match(ln)
        if m:
            stack.append((m.group("file"), int(m.group("line"))))
    return stack


def _reason(msg: str) -> str:
    """The graph-break type line: first line after the 'Graph Break Reason:' wrapper."""
    lines = msg.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("Graph Break Reason:"):
            head = ln[len("Graph Break Reason:"):].strip()
            rest = [x.strip() for x in lines[i + 1:] if x.strip()]
            wrapper = head.startswith(("Encountered graph break", "Failed to handle graph break"))
            if wrapper and rest:
                expl = next((x[len("Explanation:"):].strip() for x in rest[1:3] if x.startswith("Explanation:")), "")
                return (rest[0] + (f": {expl}" if expl else ""))[:300]
            return head[:300]
    return (lines[1] if len(lines) > 1 else lines[0])[:300] if lines else ""


def parse_log(text: str) -> list[dict[str, Any]]:
    """Graph breaks, recompiles and frame skips from TORCH_LOGS text (torch >= 2.7 format)."""
    recs: list[dict[str, Any]] = []
    for art, msg in _records_of(text):
        first = msg.splitlines()[0] if msg else ""
        if art == "graph_breaks":
            m = _GB_AT_RE.match(first)
            if not m:
                continue
            ids = ["GB" + x for x in _GB_ID_RE.findall(msg)]
            stack = _user_stack(msg)
            recs.append({"kind": "graph_break", "file": m.group("file"), "line": int(m.group("line")),
                         "function": None, "reason": _reason(msg), "gb_id": ids[0] if ids else None,
                         "stack": stack})
            s = _SKIPPED_RE.search(msg)
            if s:
                recs.append({"kind": "frame_skip", "file": s.group("file"), "line": int(s.group("line")),
                             "function": s.group("func"), "reason": "graph break in a loop: whole frame skipped",
                             "gb_id": ids[-1] if ids else None, "stack": stack})
        elif art in ("recompiles", "recompiles_verbose"):
            m = _RECOMPILE_RE.match(first)
            if m:
                guard = next((x.strip() for x in msg.splitlines()[1:] if x.strip()
                              and not x.strip().startswith("triggered by")), "")
                recs.append({"kind": "recompile", "file": m.group("file"), "line": int(m.group("line")),
                             "function": m.group("func"), "reason": guard[:300], "gb_id": None, "stack": []})
        elif _LIMIT_RE.search(msg):
            fm = _LIMIT_FN_RE.search(msg)
            if fm:
                recs.append({"kind": "frame_skip", "file": fm.group("file"), "line": int(fm.group("line")),
                             "function": fm.group("func"), "reason": _LIMIT_RE.search(msg).group(0),
                             "gb_id": None, "stack": []})
    return recs


def dedup(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: dict[tuple, dict[str, Any]] = {}
    for r in recs:
        key = (r["kind"], r["file"], r["line"])
        if key in out:
            out[key]["count"] += 1
        else:
            out[key] = {**r, "count": 1}
    return list(out.values())


# --------------------------------------------------------------------------------------
# the parent
# --------------------------------------------------------------------------------------


def run_one(target: str, device: str, timeout: float) -> dict[str, Any]:
    import tempfile

    env = dict(os.environ)
    env["TORCH_LOGS"] = "graph_breaks,recompiles"
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("TORCH_COMPILE_DEBUG", None)
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="indep-") as tmp:
        res_path = os.path.join(tmp, "r.json")
        try:
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", target, "--device", device,
                                   "--result", res_path], capture_output=True, text=True, env=env,
                                  timeout=timeout, cwd=str(REPO))
            stderr, rc = proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as exc:
            stderr = (exc.stderr or b"").decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
            rc = "timeout"
        data: dict[str, Any] = {"target": target, "device": device}
        if os.path.exists(res_path):
            data.update(json.loads(Path(res_path).read_text(encoding="utf-8")))
    first_text = stderr.split("@@END_OF_FIRST_CALL@@")[0]
    data["returncode"] = rc
    data["wall_s"] = round(time.time() - t0, 1)
    data["records"] = dedup(parse_log(first_text))
    data["log_records"] = sum(1 for art, _ in _records_of(first_text) if art)
    data["stderr_tail"] = stderr[-3000:]
    data["log_text"] = first_text[-500_000:]  # to parse again later (its end, at most 500k characters)
    if rc not in (0,) and not data.get("error"):
        data["error"] = f"child exited {rc}: " + (stderr.strip().splitlines() or [""])[-1][:300]
    return data


def run_all(targets: list[str], device: str, jobs: int = 4, timeout: float = 300.0,
            on_done=None) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def one(t):
        r = run_one(t, device, timeout)
        if on_done:
            on_done(r)
        return t, r

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for t, r in pool.map(one, targets):
            out[t] = r
    return out


# --------------------------------------------------------------------------------------
# comparing with the probe
# --------------------------------------------------------------------------------------


def _key(path: str | None, line: int | None) -> tuple[str, int] | None:
    if not path or not line:
        return None
    parts = Path(path).parts
    # compare on the path below site-packages (or the last three parts): the probe and
    # the logs may spell one file differently (symlinks, relative paths)
    if "site-packages" in parts:
        parts = parts[parts.index("site-packages") + 1:]
    return "/".join(parts[-3:]), int(line)


_RECOMPILING_RE = re.compile(r"recompiling (?P<func>[^\s:]+)")


def compare(probe_breaks: list[Any], independent: dict[str, Any]) -> dict[str, Any]:
    """The probe's breaks (BreakRecords or dicts: kind, file/path, line, stack, related,
    function, reason) beside this capture's records, as places (kind, file, line).

    ``both``: the same place. ``same_break_placed_differently``: one break named at two
    places: a frame skip the probe puts at the breaking line (the skipped function's def
    in its ``related``) and the log at the skipped function; a recompile the probe puts at
    the guard's line and the log at the function's def (same file and function); a graph
    break whose place is in the other's user stack (the log names a torch-internal frame,
    the probe the innermost user frame). ``agree``: nothing is left on either side."""

    def get(b, k):
        return b.get(k) if isinstance(b, dict) else getattr(b, k, None)

    probe = {}
    for b in probe_breaks:
        k = _key(get(b, "file") or get(b, "path"), get(b, "line"))
        if k:
            probe.setdefault((get(b, "kind"), *k), b)
    mine = {}
    for r in independent.get("records", []):
        k = _key(r["file"], r["line"])
        if k:
            mine.setdefault((r["kind"], *k), r)
    both = sorted(set(probe) & set(mine))
    only_probe = sorted(set(probe) - set(mine))
    only_mine = sorted(set(mine) - set(probe))

    def same(kp, km) -> bool:
        if kp[0] != km[0]:
            return False
        b, r = probe[kp], mine[km]
        if kp[0] == "frame_skip":
            related = {_key(f, ln) for f, ln in (get(b, "related") or [])}
            return km[1:] in related
        if kp[0] == "recompile":
            m = _RECOMPILING_RE.search(get(b, "reason") or "")
            func = m.group("func") if m else get(b, "function")
            return kp[1] == km[1] and func == r.get("function")
        bstack = {_key(f, ln) for f, ln in (get(b, "stack") or [])}
        rstack = {_key(f, ln) for f, ln in r.get("stack") or []}
        return kp[1:] in rstack or km[1:] in bstack

    placed = []
    for kp in list(only_probe):
        for km in list(only_mine):
            if same(kp, km):
                placed.append((kp, km))
                only_probe.remove(kp)
                only_mine.remove(km)
                break
    # a log place may stand for several probe places (a recompiled function's guards on
    # several lines; one torch-internal place for breaks in several user frames)
    for kp in list(only_probe):
        for km in [k for _, k in placed] + both:
            if km in mine and same(kp, km):
                placed.append((kp, km))
                only_probe.remove(kp)
                break

    def fmt(k):
        return f"{k[0]} {k[1]}:{k[2]}"

    return {
        "agree": not only_probe and not only_mine,
        "both": [fmt(k) for k in both],
        "same_break_placed_differently": [f"{fmt(a)} (probe) ~ {b[1]}:{b[2]} (log)" for a, b in placed],
        "only_probe": [fmt(k) for k in only_probe],
        "only_independent": [fmt(k) for k in only_mine],
        "probe_n": len(probe),
        "independent_n": len(mine),
        "independent_graphs": independent.get("graph_count"),
        "independent_error": independent.get("error"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?")
    ap.add_argument("targets", nargs="*")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--result", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        return child(a.child, a.device, a.result)
    if not a.out or not a.targets:
        ap.error("give OUT.json and at least one target")
    res = run_all(a.targets, a.device, a.jobs, a.timeout,
                  on_done=lambda r: print(f"{r['target']}: {len(r['records'])} record(s), "
                                          f"{r.get('graph_count')} graph(s) {r.get('error') or ''}",
                                          file=sys.stderr, flush=True))
    Path(a.out).write_text(json.dumps(res, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
