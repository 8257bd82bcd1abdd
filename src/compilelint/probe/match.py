"""Match static findings with what the probe saw.

Each static finding in a file a target ran becomes

* ``confirmed``       — a graph break, recompile or frame skip at its line(s), or with
  its line in the break's user stack;
* ``not-reproduced``  — the line ran (measured during an eager call) and Dynamo was fine;
* ``not-reached``     — the file ran but the line did not.

Findings in files no target ran keep ``evidence`` None. Every observed break with no
static finding at its line becomes a ``CL901`` (graph break), ``CL902`` (recompile) or
``CL903`` (frame skip) finding carrying Dynamo's reason.

Needs no torch; takes ``list[Finding]`` and :class:`TargetResult` objects (or their
dicts).
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from compilelint.finding import Finding
from compilelint.probe.capture import BreakRecord

PROBE_CODES = {
    "graph_break": ("CL901", "probe-graph-break", "error"),
    "recompile": ("CL902", "probe-recompile", "warning"),
    "frame_skip": ("CL903", "probe-frame-skip", "error"),
}

_FIX = {
    "graph_break": "Remove the construct Dynamo cannot trace from the compiled region, or move it out "
                   "(see the reason and the graph-break page).",
    "recompile": "Keep the guarded value stable between calls (pass it as a tensor, or mark it dynamic).",
    "frame_skip": "Remove the graph break inside the loop: Dynamo runs the whole function eagerly otherwise.",
}


def _abs(path: str, cwd: str) -> str:
    p = path if os.path.isabs(path) else os.path.join(cwd, path)
    try:
        return os.path.normcase(os.path.realpath(p))
    except OSError:
        return os.path.normcase(os.path.abspath(p))


def display_path(path: str, cwd: str | None = None) -> str:
    """Relative to ``cwd`` when inside it, else absolute."""
    cwd = cwd or os.getcwd()
    ap = os.path.abspath(path)
    try:
        rel = os.path.relpath(ap, cwd)
    except ValueError:
        return ap
    if rel.startswith(os.pardir + os.sep) or rel == os.pardir:
        return ap
    return rel


def _as_result(r: Any):
    if isinstance(r, dict):
        from compilelint.probe.runner import TargetResult

        return TargetResult.from_dict(r)
    return r


class _Observed:
    """A break with the resolved paths we compare on."""

    def __init__(self, rec: BreakRecord, target: str, cwd: str) -> None:
        self.rec = rec
        self.target = target
        self.loc = (_abs(rec.file, cwd), rec.line) if rec.file and rec.line else None
        self.stack = {(_abs(f, cwd), ln) for f, ln in rec.stack}
        self.related = {(_abs(f, cwd), ln) for f, ln in rec.related}
        self.abs_file = self.loc[0] if self.loc else None
        self.explained = False


def _evidence(status: str, target: str, obs: _Observed | None, how: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"status": status, "target": target}
    if obs is not None:
        r = obs.rec
        ev.update({
            "reason": r.reason,
            "gb_id": r.gb_id,
            "kind": r.kind,
            "dynamo_file": r.file,
            "dynamo_line": r.line,
            "matched": how,
        })
    else:
        ev.update({"reason": None, "gb_id": None})
    return ev


def match(
    findings: list[Finding],
    target_results: Iterable[Any],
    *,
    cwd: str | None = None,
) -> list[Finding]:
    """Set ``finding.evidence`` on each static finding a target's run covered, and
    return new CL901/CL902/CL903 findings for observed breaks no finding explains."""
    cwd = cwd or os.getcwd()
    results = [_as_result(r) for r in target_results]

    observed: list[_Observed] = []
    lines_run: dict[str, dict[str, set[int]]] = {}  # target -> abs file -> lines
    for res in results:
        for rec in res.breaks:
            observed.append(_Observed(rec, res.name, cwd))
        per_file: dict[str, set[int]] = {}
        for f, lines in (res.lines_run or {}).items():
            per_file.setdefault(_abs(f, cwd), set()).update(lines)
        lines_run[res.name] = per_file

    for f in findings:
        fpath = _abs(f.path, cwd)
        first = f.line
        last = f.end_line if f.end_line and f.end_line >= f.line else f.line
        span = range(first, last + 1)
        # 1. a break at the finding's line(s)
        exact = [o for o in observed if o.loc and o.loc[0] == fpath and o.loc[1] in span]
        # 2. the finding's line is in a break's user stack (a call that led to it)
        in_stack = [o for o in observed if o not in exact and any((fpath, ln) in o.stack for ln in span)]
        # 3. a location Dynamo names in the message (the loop around a break, the
        #    skipped function), or, for break-in-loop, a frame skip in the same function
        related = [o for o in observed if o not in exact and o not in in_stack
                   and (any((fpath, ln) in o.related for ln in span)
                        or (f.code == "CL150" and o.rec.kind == "frame_skip" and o.abs_file == fpath
                            and _same_function(f.scope, o.rec.function))
                        # older torch names only the recompiled function, not the guard's line
                        or (f.code.startswith("CL2") and o.rec.kind == "recompile" and o.abs_file == fpath
                            and _same_function(f.scope, o.rec.function)))]
        in_stack += related
        if exact:
            best = _prefer(exact, f)
            for o in exact:
                o.explained = True
            f.evidence = _evidence("confirmed", best.target, best, "line")
            continue
        if in_stack:
            best = _prefer(in_stack, f)
            f.evidence = _evidence("confirmed", best.target, best,
                                   "stack" if best not in related else "related")
            continue
        ran_targets = [t for t, per_file in lines_run.items() if fpath in per_file]
        if not ran_targets:
            continue  # no target ran this file: no evidence either way
        reached = [t for t in ran_targets if any(ln in lines_run[t][fpath] for ln in span)]
        if reached:
            f.evidence = _evidence("not-reproduced", reached[0], None)
        else:
            f.evidence = _evidence("not-reached", ran_targets[0], None)

    return _new_findings(observed, cwd)


def _same_function(scope: str | None, function: str | None) -> bool:
    if not scope or not function:
        return False
    return scope == function or scope.endswith("." + function)


def _prefer(cands: list[_Observed], f: Finding) -> _Observed:
    """Prefer a record of the kind the finding's family predicts."""
    want = "recompile" if f.code.startswith("CL2") else ("frame_skip" if f.code == "CL150" else "graph_break")
    for o in cands:
        if o.rec.kind == want:
            return o
    return cands[0]


def _new_findings(observed: list[_Observed], cwd: str) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[tuple, Finding] = {}
    for o in observed:
        if o.explained or o.loc is None:
            continue
        r = o.rec
        code, name, severity = PROBE_CODES.get(r.kind, PROBE_CODES["graph_break"])
        key = (code, o.loc, r.reason)
        if key in seen:
            targets = seen[key].evidence.setdefault("targets", [seen[key].evidence["target"]])
            if o.target not in targets:
                targets.append(o.target)
            continue
        label = {"graph_break": "graph break", "recompile": "recompile", "frame_skip": "frame skipped"}[r.kind]
        gb = f" [{r.gb_id}]" if r.gb_id else ""
        finding = Finding(
            path=display_path(r.file, cwd),  # type: ignore[arg-type]
            line=int(r.line),  # type: ignore[arg-type]
            col=1,
            code=code,
            message=f"{label} seen by probe{gb}: {r.reason}",
            severity=severity,
            name=name,
            fix=_FIX[r.kind],
            scope=r.function,
            evidence={
                "status": "confirmed",
                "target": o.target,
                "reason": r.reason,
                "gb_id": r.gb_id,
                "kind": r.kind,
                "count": r.count,
                "stack": [[display_path(f, cwd), ln] for f, ln in r.stack],
            },
        )
        seen[key] = finding
        out.append(finding)
    out.sort(key=lambda f: f.sort_key())
    return out


def findings_from_results(target_results: Iterable[Any], *, cwd: str | None = None) -> list[Finding]:
    """Every observed break as a CL9xx finding (probe alone, no static pass)."""
    return match([], target_results, cwd=cwd)
