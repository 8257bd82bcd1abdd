"""Match static findings with what the probe saw.

Each static finding in a file a target ran becomes

* ``confirmed``          — a graph break, recompile or frame skip at its line(s), or
  with its line in the break's user stack, or a ``CL150`` loop Dynamo traced and the
  interpreter then ran, in a run that broke where the finding says;
* ``not-reproduced``     — Dynamo traced the line and did not break there;
* ``shadowed``           — the line ran only eagerly (in a frame Dynamo skipped, or
  after a break it did not resume after), so Dynamo never judged it; the evidence
  names the break that shadows it (``shadowed_by``);
* ``condition-not-met``  — a conditional finding (its ``when``: training only, fp16
  only, with labels) whose condition the run did not meet (``unmet``), where it would
  otherwise be not-reproduced or not-reached;
* ``not-reached``        — the file ran but the line did not.

Reached and traced lines are measured on the target's first compiled call
(:mod:`compilelint.probe.observe`). When several targets ran the file, the strongest
verdict wins (not-reproduced, shadowed, condition-not-met, not-reached).

Findings in files no target ran keep ``evidence`` None. Every observed break with no
static finding at its line becomes a ``CL901`` (graph break), ``CL902`` (recompile) or
``CL903`` (frame skip) finding carrying Dynamo's reason.

Needs no torch; takes ``list[Finding]`` and :class:`TargetResult` objects (or their
dicts).
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from compilelint.finding import Finding, called_cause, inner_line
from compilelint.probe.call_args import function_key
from compilelint.probe.conditions import how as _how, unmet_conditions
from compilelint.probe.dynamo_text import CANNOT_RESUME
from compilelint.probe.echoes import explain_echoes
from compilelint.probe.misplaced import abs_path as _abs, misplaced_breaks, same_function as _same_function
from compilelint.probe.records import BreakRecord
from compilelint.probe.source_spans import loop_body, statement_span
from compilelint.registry import PROBE_CODES

_HELP = {
    "graph_break": "Remove the construct Dynamo cannot trace from the compiled region, or move it out "
                   "(see the reason and the graph-break page).",
    "recompile": "Keep the guarded value stable between calls (pass it as a tensor, or mark it dynamic).",
    "frame_skip": "Remove the graph break inside the loop: Dynamo runs the whole function eagerly otherwise.",
}


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
        self.caller = (_abs(rec.stack[-2][0], cwd), rec.stack[-2][1]) if len(rec.stack) > 1 else None
        self.abs_file = self.loc[0] if self.loc else None
        self.explained = False
        self.led_to = False  # a finding's line is on its user stack (the call that led to it)


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
            "first_call_only": r.first_call_only,
        })
    else:
        ev.update({"reason": None, "gb_id": None})
    return ev


class _Run:
    """One target's run, with paths resolved: what it reached, traced and met."""

    def __init__(self, res: Any, cwd: str) -> None:
        self.name = res.name
        self.lines: dict[str, set[int]] = {}
        for f, lines in (res.lines_run or {}).items():
            self.lines.setdefault(_abs(f, cwd), set()).update(lines)
        traced = res.capture.lines_traced if res.capture else None
        # None: the run measured reached lines on an eager call (no shadowed verdicts)
        self.traced: dict[str, set[int]] | None = None
        if traced is not None and getattr(res, "reached_by", None) == "compiled-call":
            self.traced = {}
            for f, lines in traced.items():
                self.traced.setdefault(_abs(f, cwd), set()).update(lines)
        # the lines the interpreter ran during that compiled call: a frame Dynamo skipped
        self.eager: dict[str, set[int]] = {}
        if self.traced is not None:
            for f, lines in (res.capture.lines_ran_eagerly or {}).items():
                self.eager.setdefault(_abs(f, cwd), set()).update(lines)
        self.conditions = dict(getattr(res, "conditions", None) or {})
        # (file, class qualname) -> what the run's instances of the class held (probe.attr_facts)
        self.attrs: dict[tuple[str, str], dict[str, list[str]]] = {}
        for key, facts in (self.conditions.get("attrs") or {}).items():
            path, _, qualname = key.rpartition(":")
            self.attrs[(_abs(path, cwd), qualname)] = facts
        # "path:qualname" -> what the calls of that function were passed (probe.call_args)
        self.passed: dict[str, dict[str, list[str]]] = {}
        for key, facts in (self.conditions.get("passed") or {}).items():
            path, _, qualname = key.rpartition(":")
            self.passed[function_key(_abs(path, cwd), qualname)] = facts
        self.observed: list[_Observed] = []


def match(
    findings: list[Finding],
    target_results: Iterable[Any],
    *,
    cwd: str | None = None,
) -> list[Finding]:
    """Set ``finding.evidence`` on each static finding a target's run covered, and
    return new CL901/CL902/CL903 findings for observed breaks no finding explains.

    The one place verdicts are assigned. ``target_results`` are
    :class:`~compilelint.probe.runner.TargetResult` objects or their dicts (what the
    worker writes, or :meth:`compilelint.probe.observe.Observation.to_dict` plus a
    ``name``). ``evidence["status"]`` is one of :data:`VERDICTS`; count them with
    :func:`verdict_counts`."""
    cwd = cwd or os.getcwd()
    results = [_as_result(r) for r in target_results]

    observed: list[_Observed] = []
    runs: list[_Run] = []
    for res in results:
        run = _Run(res, cwd)
        for rec in res.breaks:
            run.observed.append(_Observed(rec, res.name, cwd))
        observed.extend(run.observed)
        runs.append(run)

    misplaced = misplaced_breaks(findings, observed, cwd)
    for f in findings:
        fpath = _abs(f.path, cwd)
        first = f.line
        last = f.end_line if f.end_line and f.end_line >= f.line else f.line
        span = range(first, last + 1)
        # 1. a break in the finding's statement (Python 3.12 puts a multi-line call's break on
        #    its first line), or put past the end of the finding's function
        statement = statement_span(fpath, first) or span
        exact = [o for o in observed if o.loc and o.loc[0] == fpath and (o.loc[1] in span or o.loc[1] in statement)] \
            + misplaced.get(id(f), [])
        # 2. the finding's line is in a break's user stack (a call that led to it)
        in_stack = [o for o in observed if o not in exact and any((fpath, ln) in o.stack for ln in span)]
        # 3. a location Dynamo names in the message (the loop around a break, the
        #    skipped function), or, for break-in-loop, a frame skip in the same function
        related = [o for o in observed if o not in exact and o not in in_stack
                   and (any((fpath, ln) in o.related for ln in span)
                        or (f.code == "CL150" and o.rec.kind == "frame_skip"
                            and ((o.abs_file == fpath and _same_function(f.scope, o.rec.function))
                                 or _passes_through_loop(o, fpath, f.line)))
                        # a resume function's loop: compiled up to the loop, the rest run eagerly
                        or (f.code == "CL150" and o.rec.reason.startswith(CANNOT_RESUME)
                            and _passes_through_loop(o, fpath, f.line))
                        # older torch names only the recompiled function, not the guard's line
                        or (f.code.startswith("CL2") and o.rec.kind == "recompile" and o.abs_file == fpath
                            and _same_function(f.scope, o.rec.function)))]
        led = list(in_stack)  # (a related break's user stack does not hold the finding's line)
        in_stack += related
        if exact:
            best = _prefer(exact, f)
            for o in exact:
                o.explained = True
            f.evidence = _evidence("confirmed", best.target, best, "line")
            continue
        if in_stack:
            best = _prefer(in_stack, f)
            for o in led:
                o.led_to = True
            f.evidence = _evidence("confirmed", best.target, best,
                                   "stack" if best not in related else "related")
            continue
        if f.code == "CL150" and (skipped := _skipped_loop(f, fpath, runs)) is not None:
            f.evidence = _evidence("confirmed", skipped.target, skipped, "eager")
            continue
        verdicts = [_verdict(f, fpath, span, run, cwd) for run in runs if fpath in run.lines]
        if verdicts:  # no target ran this file: no evidence either way
            f.evidence = min(verdicts, key=lambda ev: _RANK[ev["status"]])

    explain_echoes(observed)
    return _new_findings(observed, cwd)


VERDICTS = ("confirmed", "not-reproduced", "shadowed", "condition-not-met", "not-reached")
# which run's verdict a finding keeps when several targets ran its file: Dynamo having
# judged the line and not broken is the strongest evidence, not reaching it the weakest
_RANK = {"not-reproduced": 0, "shadowed": 1, "condition-not-met": 2, "not-reached": 3}


def verdict_counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings got each verdict (and ``"none"``: no target ran their file)."""
    counts = {v: 0 for v in (*VERDICTS, "none")}
    for f in findings:
        status = (f.evidence or {}).get("status", "none")
        counts[status] = counts.get(status, 0) + 1
    return counts


def _verdict(f: Finding, fpath: str, span: range, run: _Run, cwd: str) -> dict[str, Any]:
    """Not confirmed: what this run says about the finding's line."""
    reached = any(ln in run.lines[fpath] for ln in span)
    traced = run.traced is None or any(ln in run.traced.get(fpath, ()) for ln in span)
    if reached and not traced:
        return _shadowed(run, fpath, f, cwd)
    in_entry = _in_entry(f, fpath, run.conditions.get("entry"))
    unmet = unmet_conditions(getattr(f, "when", ()) or (), run.conditions,
                             in_entry=in_entry,
                             called=run.passed.get(function_key(fpath, f.scope)) if f.scope and not in_entry else None,
                             attrs=run.attrs.get((fpath, f.scope.rsplit(".", 1)[0])) if f.scope else None,
                             classes=run.attrs)
    if unmet:
        ev = _evidence("condition-not-met", run.name, None)
        ev["unmet"] = unmet
        ev["note"] = "the run did not meet " + ", ".join(f"`{c}` ({_how(c)})"
                                                          for c in unmet)
        return ev
    if reached and f.code == "CL150" and not in_entry and any(c.startswith("given:") for c in f.when) \
            and (inner := inner_line(f)) is not None and inner not in run.lines[fpath]:
        # a loop that breaks only when a caller passes an argument, in a function the run did
        # not call itself (its `given:` label unjudged): the break inside did not run, so the
        # run did not pass it either
        ev = _evidence("condition-not-met", run.name, None)
        ev["unmet"] = list(f.when)
        ev["note"] = f"the break inside the loop (line {inner}) did not run"
        return ev
    if reached and f.code == "CL150" and (inner := inner_line(f)) is not None and inner not in run.lines[fpath]:
        # the loop ran but its body's break did not (`for t in (...) if c else ():`, an empty
        # range): the run says nothing of what the loop does when it does
        ev = _evidence("not-reached", run.name, None)
        ev["note"] = f"the loop ran, the break inside it (line {inner}) did not"
        return ev
    if reached and (called := called_cause(f)) is not None and not _ran(run, *called):
        # the loop ran, the break in the function it calls did not (transformers' dynamic-RoPE
        # update, behind the rope type a default config does not pick): untested, as above
        ev = _evidence("not-reached", run.name, None)
        ev["note"] = f"the loop ran, the break it calls ({called[0]}:{called[1]}) did not"
        return ev
    return _evidence("not-reproduced" if reached else "not-reached", run.name, None)


def _project_file(file: str, path: str) -> bool:
    """Whether the absolute `file` is the one the linted project calls `path` (matched on its tail)."""
    path = os.path.normpath(path)
    return file == path or file.endswith(os.sep + path)


def _ran(run: _Run, path: str, line: int) -> bool:
    """Whether the run executed `line` of the file the linted project calls `path`."""
    return any(line in lines for file, lines in run.lines.items() if _project_file(file, path))


def _in_entry(f: Finding, fpath: str, entry: dict[str, Any] | None) -> bool:
    """The finding sits in the function the run called first (its `given:` labels are
    about that call's arguments)."""
    return bool(entry) and f.scope == entry.get("qualname") and _abs(entry.get("file") or "", "/") == fpath


def _shadowed(run: _Run, fpath: str, f: Finding, cwd: str) -> dict[str, Any]:
    """The line ran only eagerly: Dynamo skipped its frame, or it followed a break that
    Dynamo did not resume after. Name the break that shadows it."""
    ev = _evidence("shadowed", run.name, None)
    by = shadowing_break(run.observed, fpath, f.line, f.scope)
    if by is None:
        ev["shadowed_by"] = None
        ev["note"] = "Dynamo ran this line outside its trace and logged no break for it"
        return ev
    r = by.rec
    ev["shadowed_by"] = {"kind": r.kind, "path": display_path(r.file, cwd) if r.file else None, "line": r.line,
                         "gb_id": r.gb_id, "reason": r.reason}
    ev["note"] = (f"ran only eagerly: Dynamo stopped at the {r.kind.replace('_', ' ')} at "
                  f"{ev['shadowed_by']['path']}:{r.line} and never judged this line")
    return ev


def shadowing_break(observed: list[_Observed], fpath: str, line: int, scope: str | None) -> _Observed | None:
    """The break that most likely kept Dynamo from a line: the nearest one before it in
    its file (one in the same function first, a graph break before a frame skip at the
    same place), else one whose user stack passes through the file before the line,
    else the run's first break."""
    def score(o: _Observed, ln: int) -> tuple:
        return (_same_function(scope, o.rec.function), ln, o.rec.kind == "graph_break")

    here = [(score(o, o.loc[1]), i) for i, o in enumerate(observed)
            if o.loc and o.loc[0] == fpath and o.loc[1] <= line]
    if here:
        return observed[max(here)[1]]
    via = [((ln,), i) for i, o in enumerate(observed) for (p, ln) in o.stack if p == fpath and ln <= line]
    if via:
        return observed[max(via)[1]]
    return observed[0] if observed else None


def _skipped_loop(f: Finding, fpath: str, runs: list[_Run]) -> _Observed | None:
    """The break a CL150 names, seen in a run whose compiled call traced the loop and then ran
    it in the interpreter: the frame fell back to eager, as the finding says. Dynamo logs a
    break at one place once, so when the same helper breaks under a second loop (a forward
    and an inverse transform sharing a padding helper), that loop's frame skip goes unlogged."""
    inner = inner_line(f)
    called = called_cause(f)  # (its path is the linted project's: matched on its tail)
    if inner is None and called is None:
        return None

    def at_cause(place: tuple[str, int]) -> bool:
        if inner is not None:
            return place == (fpath, inner)
        return place[1] == called[1] and _project_file(place[0], called[0])

    def cause(o: _Observed) -> bool:  # the break itself, or one inside a library it calls (pywt)
        return o.loc is not None and o.rec.kind == "graph_break" and (at_cause(o.loc) or any(map(at_cause, o.stack)))

    for run in runs:
        if f.line in run.eager.get(fpath, ()) and f.line in (run.traced or {}).get(fpath, ()):
            found = next((o for o in run.observed if cause(o)), None)
            if found is not None:
                return found
    return None


def _passes_through_loop(o: _Observed, fpath: str, line: int) -> bool:
    """A frame skip whose user stack passes through the body of the loop at ``line``:
    the break sits in a call the loop makes (another function, often another file),
    and Dynamo names that call's line, not the loop's, in the stack."""
    body = loop_body(fpath, line)
    return body is not None and any(p == fpath and ln in body for p, ln in o.stack)


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
        if r.first_call_only:
            gb += " on the first call only"
        finding = Finding(
            path=display_path(r.file, cwd),  # type: ignore[arg-type]
            line=int(r.line),  # type: ignore[arg-type]
            col=1,
            code=code,
            message=f"{label} seen by probe{gb}: {r.reason}",
            severity=severity,
            name=name,
            help=_HELP[r.kind],
            scope=r.function,
            evidence={
                "status": "confirmed",
                "target": o.target,
                "reason": r.reason,
                "gb_id": r.gb_id,
                "kind": r.kind,
                "count": r.count,
                "first_call_only": r.first_call_only,
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
