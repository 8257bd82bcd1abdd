"""Breaks Dynamo reports on another line than the statement that made them, given back to
the finding there (torch 2.13 on Python 3.11 puts some breaks of a resume function on the
wrong line). Records are `probe.match`'s observed breaks (`.rec`, `.loc`, `.stack`,
`.target`, `.abs_file`)."""

from __future__ import annotations

import os
import re

from compilelint.finding import Finding
from compilelint.probe.source_spans import function_spans, statement_span
from compilelint.registry import get as get_rule


def abs_path(path: str, cwd: str) -> str:
    """`path` (relative to `cwd`) as the matcher compares paths: absolute, real, case-folded."""
    p = path if os.path.isabs(path) else os.path.join(cwd, path)
    try:
        return os.path.normcase(os.path.realpath(p))
    except OSError:
        return os.path.normcase(os.path.abspath(p))


RESUME_RE = re.compile(r"^torch_dynamo_resume_in_(?P<name>\w+?)_at_\d+$")


def misplaced_breaks(findings: list[Finding], observed: list, cwd: str) -> dict[int, list]:
    """Graph breaks Dynamo puts on a line that is not their statement's (torch 2.13 on
    Python 3.11), each given to the finding it came from. A break carrying a line past the
    end of the function it names goes to that function's one breaking finding, if it has
    exactly one (the function is the def of that name holding another line of the
    record's stack: the resume point); one shifted down its function after an earlier
    break, to the finding `_shifted_after_resume` finds. {id(finding): [records]}."""
    out: dict[int, list] = {}
    for o in observed:
        if o.rec.kind != "graph_break" or not o.loc or not o.rec.function:
            continue
        m = RESUME_RE.match(o.rec.function)
        name = m.group("name") if m else o.rec.function
        spans = function_spans(o.abs_file, name)
        if not spans:
            continue
        if any(o.loc[1] in span for span in spans):
            shifted = _shifted_after_resume(o, observed, findings, spans, name, cwd)
            if shifted is not None:
                out.setdefault(id(shifted), []).append(o)
            continue
        homes = [span for span in spans if any(p == o.abs_file and ln in span for p, ln in o.stack)]
        if len(homes) != 1:
            continue
        cands = [f for f in findings if f.code.startswith("CL1") and f.code != "CL150" and f.line in homes[0]
                 and abs_path(f.path, cwd) == o.abs_file and same_function(f.scope, name)]
        if len(cands) == 1:
            out.setdefault(id(cands[0]), []).append(o)
    return out


def _shifted_after_resume(o, observed: list, findings: list[Finding],
                          spans: tuple[range, ...], name: str, cwd: str) -> Finding | None:
    """The finding a break was shifted from. torch 2.13 on Python 3.11: after a function
    breaks, a later break in its resume function can carry a later line of the function
    (measured: FractalNet's `np.where` reported three lines down, after a break at a call
    spanning lines; pytorch-metric-learning's SmoothAP `torch.unique` two lines down). Such
    a break at a line holding no finding is given to the one breaking finding with the
    break's id between the earlier break's statement and that line."""
    line = o.loc[1]
    home = next(span for span in spans if line in span)
    ends = []
    for e in observed:
        if e is o or e.target != o.target or e.rec.kind != "graph_break" or not e.loc \
                or e.abs_file != o.abs_file or e.loc[1] not in home or e.loc[1] >= line:
            continue
        stmt = statement_span(o.abs_file, e.loc[1])
        ends.append(stmt[-1] if stmt is not None else e.loc[1])
    if not ends or not o.rec.gb_id:
        return None
    after = max(ends)
    mine = [f for f in findings if abs_path(f.path, cwd) == o.abs_file and same_function(f.scope, name)]
    at_line = statement_span(o.abs_file, line) or range(line, line + 1)
    if any(f.line in at_line for f in mine):
        return None
    cands = [f for f in mine if f.code.startswith("CL1") and f.code != "CL150" and after < f.line < line
             and o.rec.gb_id in _gb_ids(f)]
    return cands[0] if len(cands) == 1 else None


_GB_ID = re.compile(r"\bGB\d{4}\b")


def _gb_ids(finding: Finding) -> set[str]:
    """The graph-break ids a finding stands for: its rule's, and the one its message names
    (`CL119` speaks for every knowledge row: an `nn.LSTM` call says GB0014)."""
    info = get_rule(finding.code)
    return {*_GB_ID.findall(finding.message), *((info.gb_id,) if info is not None and info.gb_id else ())}


def same_function(scope: str | None, function: str | None) -> bool:
    if not scope or not function:
        return False
    return scope == function or scope.endswith("." + function)
