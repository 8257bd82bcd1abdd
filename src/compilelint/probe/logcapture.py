"""Listening to Dynamo's logs: switch on the artifacts the probe needs, collect each
record as :class:`BreakRecord`s (and, when asked, the user lines Dynamo traced), keep
torch's own console quiet, and restore the logging state afterwards."""

from __future__ import annotations

import logging
import re
import sys
import traceback

from compilelint.probe.dynamo_text import _LIMIT_RE, _SKIP_FRAME_RE, parse_record_text
from compilelint.probe.records import BreakRecord
from compilelint.probe.userfiles import is_user_file

_ARTIFACTS = ("__graph_breaks", "__recompiles", "__recompiles_verbose")
_TRACE_SOURCE = "__trace_source"
# "TRACE starts_line /p/model.py:12 in forward (Model.forward)": one per line Dynamo traces
_STARTS_LINE_RE = re.compile(r"TRACE starts_line (?P<file>.+?):(?P<line>\d+)(?: in |\s*$)", re.MULTILINE)

# instructions that do nothing but move control elsewhere
_JUMPS = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP",
                    "JUMP_NO_INTERRUPT"})
_NO_OPS = frozenset({"NOP", "NOT_TAKEN"})


def _translator() -> object | None:
    """The Dynamo instruction translator whose ``step`` is logging the current record."""
    f = sys._getframe(2)
    for _ in range(16):  # logging's own frames sit between it and the handler
        if f is None:
            return None
        if f.f_code.co_name in ("starts_line", "step") and f.f_code.co_filename.endswith("symbolic_convert.py"):
            tx = f.f_locals.get("self")
            return tx if hasattr(tx, "current_instruction") else None
        f = f.f_back
    return None


def _pass_through(tx: object, line: int) -> bool:
    """True when Dynamo logged ``line`` on an instruction that only jumps to another line.

    Dynamo numbers every instruction with the line of the instruction before it in the
    code (``propagate_line_nums``), so the line-less ``JUMP_FORWARD`` that closes an
    ``if`` body (or a loop body's ``JUMP_BACKWARD``) carries the body's last line: a
    false condition jumps onto it and ``trace_source`` names a line that never ran.
    Follow such jumps (and line-less no-ops): the line was traced only if an instruction
    of that line is reached before another line starts."""
    inst = getattr(tx, "current_instruction", None)
    if inst is None or inst.starts_line != line:
        return False  # not the record we understand: keep the line
    for _ in range(8):
        if inst.opname in _JUMPS and getattr(inst, "target", None) is not None:
            inst = inst.target
        elif inst.opname in _NO_OPS and getattr(getattr(inst, "positions", None), "lineno", 0) is None:
            index = getattr(tx, "indexof", {}).get(inst)
            if index is None or index + 1 >= len(tx.instructions):
                return False
            inst = tx.instructions[index + 1]
        else:
            return inst.starts_line != line
    return False


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
        self.traced: dict[str, set[int]] = {}  # user file -> lines Dynamo traced
        self._user: dict[str, bool] = {}

    def _trace_line(self, record: logging.LogRecord) -> None:
        m = _STARTS_LINE_RE.search(record.getMessage())
        if not m:
            return
        f = m.group("file")
        user = self._user.get(f)
        if user is None:
            user = self._user[f] = is_user_file(f)
        line = int(m.group("line"))
        if not user or line in self.traced.get(f, ()):
            return
        try:
            tx = _translator()
            borrowed = tx is not None and _pass_through(tx, line)
        except Exception:  # an unfamiliar Dynamo: keep the line, as its log says
            borrowed = False
        if not borrowed:
            self.traced.setdefault(f, set()).add(line)

    def emit(self, record: logging.LogRecord) -> None:  # noqa: D401
        try:
            name = record.name
            if name.endswith(_TRACE_SOURCE):
                self._trace_line(record)
                return
            is_artifact = name.endswith(_ARTIFACTS)
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
        if name.endswith(_ARTIFACTS + (_TRACE_SOURCE,)):
            return False
        if name.startswith("torch._dynamo") and record.levelno < logging.WARNING:
            return False
        return True


_DYNAMO_LOGGER_NAMES = ("torch._dynamo",)


class _LogCapture:
    """Context manager: enable the artifacts, attach the collector, restore afterwards."""

    def __init__(self, quiet: bool = True, trace_lines: bool = False) -> None:
        self.quiet = quiet
        # trace_source: one record per user line Dynamo traces (what it judged)
        self.trace_lines = trace_lines
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
                for art in ("graph_breaks", "recompiles") + (("trace_source",) if self.trace_lines else ()):
                    log_state.enable_artifact(art)
                internal._init_logs()
                ok = True
            except Exception:
                ok = False
        if not ok:
            self._saved_state = None
            extra = {"trace_source": True} if self.trace_lines else {}
            tlog.set_logs(graph_breaks=True, recompiles=True, **extra)

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
        wanted = _ARTIFACTS + ((_TRACE_SOURCE,) if self.trace_lines else ())
        for lname in list(logging.Logger.manager.loggerDict):
            if lname.endswith(wanted):
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
