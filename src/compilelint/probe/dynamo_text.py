"""Parsing Dynamo's log messages into :class:`BreakRecord`s.

Every text format from torch 2.4 to 2.13 is handled: the 2.7+ blocks with a
``GBxxxx`` id and ``User code traceback:``, the older "Graph break: from user code at:"
with the reason in the attached exception, recompile guard failures, recompile-limit
fallbacks and frame skips. No torch import here.
"""

from __future__ import annotations

import re

from compilelint.probe.records import BreakRecord
from compilelint.probe.userfiles import is_user_file

_FILE_LINE_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>[^\n,]+))?')
_GB_ID_RE = re.compile(r"\bgb(\d{4})\b", re.IGNORECASE)
_GB_AT_RE = re.compile(
    r"Graph break(?: \([^)]*\))? in user code at (?P<file>.+?):(?P<line>\d+)\s*$",
    re.MULTILINE,
)
_RECOMPILE_RE = re.compile(r"Recompiling function (?P<func>\S+) in (?P<file>.+?):(?P<line>\d+)\s*$", re.MULTILINE)
_NESTED_MARK = "*** While handling this graph break, another graph break occurred: ***"
_LIMIT_RE = re.compile(
    r"hit config\.(?P<which>\w*(?:cache_size_limit|recompile_limit)\w*)\s*\((?P<n>\d+)\)"
)
LIMIT_HIT = "the function runs eagerly from now on"  # a frame skip's reason when a recompile limit is hit
_FN_LOC_RE = re.compile(r"function: '(?P<func>[^']+)' \((?P<file>.+?):(?P<line>\d+)\)")
_FRAME_SKIPPED_RE = re.compile(r"frame skipped: (?P<func>\S+) \((?P<file>.+?) line (?P<line>\d+)\)")
_FRAME_SUMMARY_RE = re.compile(r"<FrameSummary file (?P<file>.+?), line (?P<line>\d+) in (?P<func>[^>\s]+)>")
_SKIP_FRAME_RE = re.compile(r"Skipping frame because (?P<why>[^\n]+)")
# Dynamo's words when it cannot resume after a break (inside a call it inlined)
GRACEFUL_FAILURE = "Failed to handle graph break gracefully"
CANNOT_RESUME = "Encountered graph break that we cannot resume from"
# GB0149: a break inside a function a torch.func transform (vmap, vjp, grad) traces, reported
# again at the transform's call or at the next statement of the transformed function
FUNCTORCH = "Unsupported functorch tracing attempt"
RECONSTRUCTION = "Reconstruction failure"  # GB0092: a method of an object the frame built, which it cannot rebuild
UNRESUMABLE = (GRACEFUL_FAILURE, CANNOT_RESUME, RECONSTRUCTION)
UNINITIALIZED_MODULE = "Uninitialized nn.Module"  # GB0119: a module's __init__ compiled as a frame of its own
UNINITIALIZED_GB = "GB0119"  # its id, which the frame skip alone carries when no break is logged
# GB0006 for a metaclass's `super().__call__()`: met only when the metaclass's `__call__` is a frame of
# its own (the class built by code that runs eagerly); inlined in a traced frame, it is traced
METACLASS_CALL = "Dynamo does not know how to trace the call `super().__call__()`"
OBSERVED_EXCEPTION_GB = "GB0088"  # an exception raised while tracing, which no handler in the frame catches
_WRAPPER_PREFIXES = (
    "Encountered graph break when attempting to trace",
    GRACEFUL_FAILURE,
)
_SECTION_ENDS = (
    "User code traceback:",
    "Stack variable source attribution:",
    "Most recent bytecode instructions traced",
    "For more details about this graph break",
    "Developer debug context:",
)


def _frames_in(text: str) -> list[tuple[str, int, str | None]]:
    out = []
    for m in _FILE_LINE_RE.finditer(text):
        out.append((m.group("file"), int(m.group("line")), (m.group("func") or None)))
    return out


def _user_stack_section(text: str) -> str | None:
    for marker in ("User code traceback:", "from user code at:", "User stack trace:"):
        i = text.rfind(marker)
        if i >= 0:
            return text[i + len(marker):]
    return None


def _gb_ids(text: str) -> list[str]:
    return ["GB" + m.group(1) for m in _GB_ID_RE.finditer(text)]


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reason_from_block(block: str) -> str:
    """The one-line reason of a 2.7+ style block: ``<gb_type>: <explanation>``."""
    lines = [ln.rstrip() for ln in block.splitlines()]
    # drop the end sections
    kept: list[str] = []
    for ln in lines:
        if any(ln.strip().startswith(e) for e in _SECTION_ENDS):
            break
        kept.append(ln)
    lines = [ln for ln in kept]
    # skip wrapper lines ("Encountered graph break when attempting to trace CALL: ...")
    idx = 0
    while idx < len(lines):
        s = lines[idx].strip()
        if not s or s.startswith(_WRAPPER_PREFIXES):
            idx += 1
            continue
        break
    if idx >= len(lines):
        non_empty = [ln.strip() for ln in kept if ln.strip()]
        return _one_line(non_empty[0]) if non_empty else ""
    head = lines[idx].strip()
    explanation = None
    for ln in lines[idx + 1:]:
        s = ln.strip()
        if s.startswith("Explanation:"):
            explanation = s[len("Explanation:"):].strip()
            break
        if s.startswith(("Hint:", "Developer debug context:")):
            break
    if explanation and explanation not in head:
        return _one_line(f"{head}: {explanation}")
    return _one_line(head)


def _innermost(stack: list[tuple[str, int, str | None]]) -> tuple[str | None, int | None, str | None]:
    for f, ln, fn in reversed(stack):
        if is_user_file(f):
            return f, ln, fn
    return None, None, None


def _merge_stacks(
    callers: list[tuple[str, int, str | None]], parsed: list[tuple[str, int, str | None]]
) -> list[tuple[str, int, str | None]]:
    """Emit-time caller frames, then the frames Dynamo reported, without repeats."""
    caller_keys = {(f, ln) for f, ln, _ in callers}
    out = list(callers)
    started = False
    for fr in parsed:
        if not started and (fr[0], fr[1]) in caller_keys:
            continue
        started = True
        if out and (out[-1][0], out[-1][1]) == (fr[0], fr[1]):
            continue
        out.append(fr)
    return out


def _mk(
    kind: str,
    reason: str,
    gb_id: str | None,
    frames: list[tuple[str, int, str | None]],
    detail: str,
    fallback: tuple[str | None, int | None, str | None] = (None, None, None),
) -> BreakRecord:
    user = [fr for fr in frames if is_user_file(fr[0])]
    f, ln, fn = _innermost(user)
    if f is None:
        f, ln, fn = fallback if is_user_file(fallback[0]) else (None, None, None)
    return BreakRecord(
        kind=kind,
        reason=reason,
        gb_id=gb_id,
        file=f,
        line=ln,
        stack=[(fr[0], fr[1]) for fr in user],
        function=fn,
        detail=detail.strip(),
    )


def parse_record_text(
    logger_name: str,
    text: str,
    exc_text: str | None = None,
    callers: list[tuple[str, int, str | None]] | None = None,
) -> list[BreakRecord]:
    """Turn one Dynamo log record (its logger name and formatted message) into records.

    ``exc_text`` is the formatted exception attached to the record (torch ≤ 2.5 puts the
    graph-break reason there). ``callers`` are the user frames that were on the Python
    stack when the record was emitted (the callers of the compiled function).
    """
    callers = list(callers or [])
    name = logger_name.rsplit(".", 1)[-1]
    if name == "__graph_breaks":
        return _parse_graph_break(text, exc_text, callers)
    if name in ("__recompiles", "__recompiles_verbose"):
        return _parse_recompile(text, callers)
    return _parse_other(text, callers)


def _parse_graph_break(text: str, exc_text: str | None, callers) -> list[BreakRecord]:
    out: list[BreakRecord] = []
    stack_section = _user_stack_section(text)
    parsed = _frames_in(stack_section) if stack_section is not None else []
    at = _GB_AT_RE.search(text)
    fallback = (at.group("file"), int(at.group("line")), None) if at else (None, None, None)
    if not parsed and at:
        parsed = [fallback]
    frames = _merge_stacks(callers, parsed)

    body = text
    if "Graph Break Reason:" in text:
        body = text.split("Graph Break Reason:", 1)[1]
    elif re.search(r"^Reason:", text, re.MULTILINE):
        body = re.split(r"^Reason:", text, maxsplit=1, flags=re.MULTILINE)[1]
    elif exc_text:
        # torch 2.4/2.5: "Graph break: from user code at: <stack>" + the Unsupported
        # exception in exc_info; its last line is "ExcType: message"
        body = _exception_message(exc_text)
    else:
        body = text.split("from user code at:", 1)[0]
    parts = body.split(_NESTED_MARK)
    first = parts[0]
    reason = _reason_from_block(first) or "graph break"
    ids = _gb_ids(first)
    gb_id = ids[0] if ids else None
    skip_text = "Skipping the function and falling back to eager"
    frame_skipped = _FRAME_SKIPPED_RE.search(text)
    related = _related(text, stack_section)
    out.append(_mk("graph_break", reason, gb_id, frames, text, fallback))
    for extra in parts[1:]:
        r = _reason_from_block(extra) or "graph break"
        eids = _gb_ids(extra)
        kind = "frame_skip" if (frame_skipped or skip_text in text or "loop" in r.lower()) else "graph_break"
        out.append(_mk(kind, r, eids[0] if eids else None, frames, text, fallback))
    if (frame_skipped or skip_text in text) and not any(b.kind == "frame_skip" for b in out):
        r = "frame skipped: Dynamo fell back to eager for the whole function"
        if frame_skipped:
            r += f" {frame_skipped.group('func')}"
        out.append(_mk("frame_skip", r, gb_id, frames, text, fallback))
    for b in out:
        b.related = [loc for loc in related if loc != (b.file, b.line)]
    return out


def _related(text: str, stack_section: str | None) -> list[tuple[str, int]]:
    head = text
    if stack_section is not None:
        head = text[: len(text) - len(stack_section)]
    locs: list[tuple[str, int]] = []
    for m in re.finditer(r'File "(?P<file>[^"]+)", line (?P<line>\d+)', head):
        locs.append((m.group("file"), int(m.group("line"))))
    fs = _FRAME_SKIPPED_RE.search(text)
    if fs:
        locs.append((fs.group("file"), int(fs.group("line"))))
    out: list[tuple[str, int]] = []
    for loc in locs:
        if is_user_file(loc[0]) and loc not in out:
            out.append(loc)
    return out


def _exception_message(exc_text: str) -> str:
    """The message of the last exception in a formatted traceback."""
    lines = exc_text.rstrip().splitlines()
    # find the last line that starts an exception message ("pkg.Exc: message")
    for i in range(len(lines) - 1, -1, -1):
        m = re.match(r"^([\w.]+(?:Error|Unsupported|Exception|SkipFrame|Exc\w*)):\s?(.*)$", lines[i])
        if m:
            return "\n".join([m.group(2)] + lines[i + 1:])
    return lines[-1] if lines else ""


def _parse_recompile(text: str, callers) -> list[BreakRecord]:
    m = _RECOMPILE_RE.search(text)
    fn_loc = (m.group("file"), int(m.group("line")), m.group("func")) if m else (None, None, None)
    guard = None
    after = text.split("triggered by the following guard failure(s):", 1)
    if len(after) == 2:
        for ln in after[1].splitlines():
            s = ln.strip()
            if not s.startswith("-"):
                continue
            s = s[1:].strip()
            if not s or s.startswith(("User stack trace", "File ")) or _FILE_LINE_RE.search(s):
                continue
            if guard is None:
                guard = s
            break
    if guard:
        guard = re.sub(r"^\d+/\d+:\s*", "", guard)
        guard = re.split(r"\s{2,}#\s", guard)[0].strip()
        guard = re.sub(r"\s+#\s.*$", "", guard).strip()
    reason = f"guard failed: {guard}" if guard else "recompiled"
    if fn_loc[2]:
        reason = f"recompiling {fn_loc[2]}: " + (f"guard failed: {guard}" if guard else "guards failed")
    section = _user_stack_section(text)
    guard_frames = _frames_in(section) if section else []
    parsed = ([fn_loc] if fn_loc[0] else []) + guard_frames
    frames = _merge_stacks(callers, parsed)
    return [_mk("recompile", _one_line(reason), None, frames, text, fn_loc)]


def _parse_other(text: str, callers) -> list[BreakRecord]:
    lim = _LIMIT_RE.search(text)
    if lim:
        fl = _FN_LOC_RE.search(text)
        loc = (fl.group("file"), int(fl.group("line")), fl.group("func")) if fl else (None, None, None)
        parsed = [loc] if loc[0] else []
        reason = f"hit {lim.group('which')} ({lim.group('n')}): {LIMIT_HIT}"
        if loc[2]:
            reason = f"{loc[2]}: " + reason
        return [_mk("frame_skip", reason, None, _merge_stacks(callers, parsed), text, loc)]
    sk = _SKIP_FRAME_RE.search(text)
    if sk:
        parsed = _frames_in(text)
        if not parsed:
            # torch 2.4: "<FrameSummary file /p/f.py, line 12 in fn>"
            m = _FRAME_SUMMARY_RE.search(text)
            if m:
                parsed = [(m.group("file"), int(m.group("line")), m.group("func"))]
        reason = _one_line("Skipping frame because " + sk.group("why"))
        return [_mk("frame_skip", reason, None, _merge_stacks(callers, parsed), text)]
    return []
