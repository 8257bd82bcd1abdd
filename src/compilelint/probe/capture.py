"""Capture every graph break, recompile and frame skip Dynamo reports for one call.

``torch._dynamo.explain`` under-reports: it misses breaks before the first captured op
and whole-frame skips (a break inside a ``for`` loop makes Dynamo run the whole frame
eagerly), and while it runs Dynamo suppresses its own graph-break log. So ``capture``
listens to Dynamo's ``graph_breaks`` and ``recompiles`` log artifacts (plus the
``torch._dynamo`` INFO/WARNING records that announce frame skips on older releases),
parses each record into a :class:`BreakRecord` (reason, ``GBxxxx`` id, user stack,
innermost user ``file:line``), and counts graphs and ops with a counting backend that
wraps the real one.

Works on torch 2.4 → 2.13: everything version-specific is looked up defensively and
the text formats of every release in that range are parsed.

This module imports torch lazily (inside :func:`capture`), so importing it is cheap.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import sysconfig
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

__all__ = ["BreakRecord", "CaptureResult", "capture", "parse_record_text", "is_user_file"]

KINDS = ("graph_break", "recompile", "frame_skip")


@dataclass
class BreakRecord:
    kind: str  # "graph_break" | "recompile" | "frame_skip"
    reason: str  # Dynamo's reason text (one line)
    gb_id: str | None  # e.g. "GB0170" when Dynamo gives one
    file: str | None  # innermost USER frame (not torch internals) of the break
    line: int | None
    stack: list[tuple[str, int]] = field(default_factory=list)  # user frames, outermost first
    function: str | None = None  # name of the function of the innermost user frame
    detail: str = ""  # Dynamo's full message (multi-line), for humans
    count: int = 1  # how many identical records were seen
    # other user locations Dynamo names (the loop a break sits in, the skipped
    # function's def line, where a branch condition was computed)
    related: list[tuple[str, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stack"] = [list(f) for f in self.stack]
        d["related"] = [list(f) for f in self.related]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BreakRecord":
        data = dict(data)
        data["stack"] = [(str(f), int(n)) for f, n in data.get("stack", [])]
        data["related"] = [(str(f), int(n)) for f, n in data.get("related", [])]
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def key(self) -> tuple:
        return (self.kind, self.reason, self.gb_id, self.file, self.line)


@dataclass
class CaptureResult:
    breaks: list[BreakRecord]
    graph_count: int
    op_count: int
    error: str | None  # exception text if running the target raised
    ops_per_graph: list[int] = field(default_factory=list)
    error_traceback: str | None = None
    torch_version: str | None = None

    @property
    def graph_breaks(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "graph_break"]

    @property
    def recompiles(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "recompile"]

    @property
    def frame_skips(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "frame_skip"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "breaks": [b.to_dict() for b in self.breaks],
            "graph_count": self.graph_count,
            "op_count": self.op_count,
            "error": self.error,
            "ops_per_graph": list(self.ops_per_graph),
            "error_traceback": self.error_traceback,
            "torch_version": self.torch_version,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CaptureResult":
        return cls(
            breaks=[BreakRecord.from_dict(b) for b in data.get("breaks", [])],
            graph_count=int(data.get("graph_count", 0)),
            op_count=int(data.get("op_count", 0)),
            error=data.get("error"),
            ops_per_graph=list(data.get("ops_per_graph", [])),
            error_traceback=data.get("error_traceback"),
            torch_version=data.get("torch_version"),
        )


# --------------------------------------------------------------------------------------
# Which frames are "user" frames
# --------------------------------------------------------------------------------------

_PROBE_DIR = os.path.dirname(os.path.abspath(__file__))


def _norm_dir(p: str | None) -> str | None:
    if not p:
        return None
    return os.path.normcase(os.path.realpath(p)).rstrip(os.sep) + os.sep


def _internal_dirs() -> tuple[list[str], list[str], list[str]]:
    """(always-internal prefixes, library prefixes, stdlib prefixes)."""
    always: list[str] = []
    libs: list[str] = []
    stdlib: list[str] = []
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib"):
        d = _norm_dir(paths.get(key))
        if d:
            stdlib.append(d)
    for key in ("purelib", "platlib"):
        d = _norm_dir(paths.get(key))
        if d:
            libs.append(d)
    torch_mod = sys.modules.get("torch")
    if torch_mod is not None and getattr(torch_mod, "__file__", None):
        always.append(_norm_dir(os.path.dirname(torch_mod.__file__)))  # type: ignore[arg-type]
    always.append(_norm_dir(_PROBE_DIR))  # type: ignore[arg-type]
    return always, libs, stdlib


_DIRS_CACHE: tuple[list[str], list[str], list[str]] | None = None


def is_user_file(path: str | None) -> bool:
    """True for a frame in code the user wrote (or a library they call), False for
    torch internals, the standard library, compilelint's probe and synthetic files."""
    global _DIRS_CACHE
    if not path or path.startswith("<") or path.endswith(">"):
        return False
    if _DIRS_CACHE is None or (len(_DIRS_CACHE[0]) < 2 and "torch" in sys.modules):
        _DIRS_CACHE = _internal_dirs()
    always, libs, stdlib = _DIRS_CACHE
    p = os.path.normcase(os.path.realpath(path))
    if any(p.startswith(d) for d in always):
        return False
    if any(p.startswith(d) for d in libs):
        return True
    if any(p.startswith(d) for d in stdlib):
        return False
    return True


# --------------------------------------------------------------------------------------
# Parsing Dynamo's messages
# --------------------------------------------------------------------------------------

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
_FN_LOC_RE = re.compile(r"function: '(?P<func>[^']+)' \((?P<file>.+?):(?P<line>\d+)\)")
_FRAME_SKIPPED_RE = re.compile(r"frame skipped: (?P<func>\S+) \((?P<file>.+?) line (?P<line>\d+)\)")
_FRAME_SUMMARY_RE = re.compile(r"<FrameSummary file (?P<file>.+?), line (?P<line>\d+) in (?P<func>[^>\s]+)>")
_SKIP_FRAME_RE = re.compile(r"Skipping frame because (?P<why>[^\n]+)")
_WRAPPER_PREFIXES = (
    "Encountered graph break when attempting to trace",
    "Failed to handle graph break gracefully",
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
        reason = f"hit {lim.group('which')} ({lim.group('n')}): the function runs eagerly from now on"
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


# --------------------------------------------------------------------------------------
# The log handler
# --------------------------------------------------------------------------------------


def _caller_frames() -> list[tuple[str, int, str | None]]:
    """User frames on the real Python stack right now, outermost first."""
    out = []
    f = sys._getframe(1)
    while f is not None:
        code = f.f_code
        # a frame still at its def line has not started: it is the one being compiled
        if is_user_file(code.co_filename) and f.f_lineno != code.co_firstlineno:
            out.append((code.co_filename, f.f_lineno, code.co_name))
        f = f.f_back
    out.reverse()
    return out


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[BreakRecord] = []
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:  # noqa: D401
        try:
            name = record.name
            is_artifact = name.endswith(("__graph_breaks", "__recompiles", "__recompiles_verbose"))
            if not is_artifact and record.levelno < logging.INFO:
                return
            try:
                text = record.getMessage()
            except Exception:  # pragma: no cover - malformed record
                text = str(record.msg)
            if not is_artifact and not (_LIMIT_RE.search(text) or _SKIP_FRAME_RE.search(text)):
                return
            exc_text = None
            if record.exc_info and record.exc_info[0] is not None:
                exc_text = "".join(traceback.format_exception(*record.exc_info))
            self.records.extend(parse_record_text(name, text, exc_text, _caller_frames()))
        except Exception as e:  # never let parsing break the user's run
            self.errors.append(f"{type(e).__name__}: {e}")


class _QuietFilter(logging.Filter):
    """Drops, from torch's own console handlers, what capture switched on."""

    def filter(self, record: logging.LogRecord) -> bool:
        name = record.name
        if name.endswith(("__graph_breaks", "__recompiles", "__recompiles_verbose")):
            return False
        if name.startswith("torch._dynamo") and record.levelno < logging.WARNING:
            return False
        return True


_DYNAMO_LOGGER_NAMES = ("torch._dynamo",)


class _LogCapture:
    """Context manager: enable the artifacts, attach the collector, restore afterwards."""

    def __init__(self, quiet: bool = True) -> None:
        self.quiet = quiet
        self.collector = _Collector()
        self._saved_state: tuple[dict, set] | None = None
        self._saved_levels: dict[str, int] = {}
        self._filtered: list[logging.Handler] = []
        self._quiet_filter = _QuietFilter()
        self._loggers: list[logging.Logger] = []

    def __enter__(self) -> "_LogCapture":
        import torch._logging as tlog

        internal = getattr(tlog, "_internal", None)
        log_state = getattr(internal, "log_state", None)
        ok = False
        if log_state is not None and hasattr(internal, "_init_logs"):
            try:
                self._saved_state = (
                    dict(log_state.log_qname_to_level),
                    set(log_state.artifact_names),
                )
                for art in ("graph_breaks", "recompiles"):
                    log_state.enable_artifact(art)
                internal._init_logs()
                ok = True
            except Exception:
                ok = False
        if not ok:
            self._saved_state = None
            tlog.set_logs(graph_breaks=True, recompiles=True)

        # INFO on torch._dynamo: older releases announce frame skips at INFO
        for lname in _DYNAMO_LOGGER_NAMES:
            lg = logging.getLogger(lname)
            self._saved_levels[lname] = lg.level
            if lg.getEffectiveLevel() > logging.INFO:
                lg.setLevel(logging.INFO)
            lg.addHandler(self.collector)
            self._loggers.append(lg)
        # the artifact loggers may not propagate to torch._dynamo (off-by-default
        # artifacts); attach to every registered artifact logger we care about
        for lname in list(logging.Logger.manager.loggerDict):
            if lname.endswith(("__graph_breaks", "__recompiles", "__recompiles_verbose")):
                lg = logging.getLogger(lname)
                if not lg.propagate or not lname.startswith("torch._dynamo"):
                    lg.addHandler(self.collector)
                    self._loggers.append(lg)
        if self.quiet:
            torch_handlers = getattr(internal, "handlers", None)
            hs = list(torch_handlers) if torch_handlers is not None else []
            if not hs:
                for lname in ("torch", "torch._dynamo"):
                    hs.extend(logging.getLogger(lname).handlers)
            for h in hs:
                if h is self.collector:
                    continue
                h.addFilter(self._quiet_filter)
                self._filtered.append(h)
        return self

    def __exit__(self, *exc: object) -> None:
        for lg in self._loggers:
            try:
                lg.removeHandler(self.collector)
            except Exception:
                pass
        for h in self._filtered:
            try:
                h.removeFilter(self._quiet_filter)
            except Exception:
                pass
        import torch._logging as tlog

        internal = getattr(tlog, "_internal", None)
        if self._saved_state is not None:
            try:
                log_state = internal.log_state
                log_state.clear()
                log_state.log_qname_to_level.update(self._saved_state[0])
                log_state.artifact_names.update(self._saved_state[1])
                internal._init_logs()
            except Exception:
                pass
        else:
            try:
                tlog.set_logs()
            except Exception:
                pass
        for lname, lvl in self._saved_levels.items():
            logging.getLogger(lname).setLevel(lvl)


# --------------------------------------------------------------------------------------
# Counting backend
# --------------------------------------------------------------------------------------


def _count_ops(gm: Any) -> int:
    n = 0
    for node in gm.graph.nodes:
        if node.op in ("call_function", "call_method", "call_module"):
            n += 1
    return n


def _counting_backend(backend: Any, counts: list[int]) -> Callable:
    import torch._dynamo

    if isinstance(backend, str):
        real = torch._dynamo.lookup_backend(backend)
    else:
        real = backend

    def counting(gm, example_inputs, **kwargs):
        counts.append(_count_ops(gm))
        return real(gm, example_inputs, **kwargs)

    return counting


def _reset_dynamo() -> None:
    import torch._dynamo

    torch._dynamo.reset()
    utils = getattr(torch._dynamo, "utils", None)
    checker = getattr(utils, "graph_break_dup_warning_checker", None)
    if checker is not None and hasattr(checker, "reset"):
        try:
            checker.reset()
        except Exception:
            pass


def _from_compile_reasons(records: list[BreakRecord]) -> list[BreakRecord]:
    """Graph breaks Dynamo recorded as compile reasons but did not log.

    torch 2.4–2.6 compile a partial graph on a data-dependent jump without a
    ``graph_breaks`` record; ``torch._dynamo.utils.graph_break_reasons`` (what
    ``explain`` reads) still has it."""
    import torch._dynamo

    utils = getattr(torch._dynamo, "utils", None)
    reasons = list(getattr(utils, "graph_break_reasons", None) or [])
    seen = {(r.file, r.line) for r in records if r.kind in ("graph_break", "frame_skip")}
    out: list[BreakRecord] = []
    for cr in reasons:
        if not getattr(cr, "graph_break", True):
            continue
        try:
            frames = [(fs.filename, fs.lineno, fs.name) for fs in (cr.user_stack or [])]
        except Exception:
            frames = []
        text = str(getattr(cr, "reason", "") or "")
        rec = _mk("graph_break", "", None, frames, text)
        if rec.file is None or (rec.file, rec.line) in seen:
            continue
        if text.startswith("generic_jump"):
            reason = f"Data-dependent branching ({_one_line(text)})"
        else:
            reason = _reason_from_block(text) or _one_line(text)
        rec.reason = reason
        ids = _gb_ids(text)
        rec.gb_id = ids[0] if ids else ("GB0170" if text.startswith("generic_jump") and _has_gb_ids() else None)
        seen.add((rec.file, rec.line))
        out.append(rec)
    return out


def _has_gb_ids() -> bool:
    # graph-break ids appeared with the graph-break registry (torch 2.8+)
    import torch._dynamo

    return os.path.exists(
        os.path.join(os.path.dirname(torch._dynamo.__file__), "graph_break_registry.json")
    )


def _dedupe(records: list[BreakRecord]) -> list[BreakRecord]:
    out: list[BreakRecord] = []
    index: dict[tuple, BreakRecord] = {}
    for r in records:
        k = r.key()
        if k in index:
            index[k].count += 1
            continue
        index[k] = r
        out.append(r)
    return out


def _error_as_break(exc: BaseException) -> list[BreakRecord]:
    """With fullgraph=True Dynamo raises instead of logging: turn that into a record."""
    name = type(exc).__name__
    if name not in ("Unsupported", "UserError", "Unsupported_", "UncapturedHigherOrderOpError"):
        mod = type(exc).__module__ or ""
        if not mod.startswith("torch._dynamo"):
            return []
    text = str(exc)
    frames = []
    real_stack = getattr(exc, "real_stack", None)
    if real_stack:
        try:
            frames = [(fs.filename, fs.lineno, fs.name) for fs in real_stack]
        except Exception:
            frames = []
    if not frames:
        sec = _user_stack_section(text)
        frames = _frames_in(sec) if sec else _frames_in(text)
    reason = _reason_from_block(text) or _one_line(text.splitlines()[0] if text else name)
    ids = _gb_ids(text)
    return [_mk("graph_break", reason, ids[0] if ids else None, frames, text)]


def capture(
    fn: Callable,
    args: tuple | list = (),
    kwargs: dict | None = None,
    *,
    backend: Any = "eager",
    driver: Callable[[Callable], Any] | None = None,
    fullgraph: bool = False,
    dynamic: bool | None = None,
    quiet: bool = True,
    reset: bool = True,
) -> CaptureResult:
    """Compile ``fn`` and run it once (or hand the compiled callable to ``driver``),
    recording every graph break, recompile and frame skip Dynamo reports.

    ``backend`` is a backend name or callable (``"eager"`` when only the breaks
    matter). ``quiet`` keeps torch from printing the records it was asked to emit.
    The logging state is restored afterwards; Dynamo is reset first (``reset``).
    """
    import torch
    import torch._dynamo  # noqa: F401

    kwargs = dict(kwargs or {})
    counts: list[int] = []
    if reset:
        _reset_dynamo()
    error = None
    error_tb = None
    extra: list[BreakRecord] = []
    with _LogCapture(quiet=quiet) as cap:
        try:
            compiled = torch.compile(
                fn,
                backend=_counting_backend(backend, counts),
                fullgraph=fullgraph,
                dynamic=dynamic,
            )
            if driver is not None:
                driver(compiled)
            else:
                compiled(*args, **kwargs)
        except Exception as e:  # the target raised (or Dynamo did, with fullgraph)
            error = f"{type(e).__name__}: {_one_line(str(e), 2000)}"
            error_tb = traceback.format_exc()
            try:
                extra = _error_as_break(e)
            except Exception:
                extra = []
    records = list(cap.collector.records)
    try:
        records.extend(_from_compile_reasons(records))
    except Exception:
        pass
    if extra and not any(r.kind == "graph_break" for r in records):
        records.extend(extra)
    return CaptureResult(
        breaks=_dedupe(records),
        graph_count=len(counts),
        op_count=sum(counts),
        error=error,
        ops_per_graph=counts,
        error_traceback=error_tb,
        torch_version=str(torch.__version__),
    )
