"""Which lines of user code one eager call ran: measured, not guessed.

``sys.monitoring`` (Python 3.12+) where available, else ``sys.settrace``; only frames
in user files (see :func:`compilelint.probe.userfiles.is_user_file`) are traced.
"""

from __future__ import annotations

import sys
import threading
from collections import defaultdict

from compilelint.probe.userfiles import is_user_file


class LineRecorder:
    def __init__(self) -> None:
        self.lines: dict[str, set[int]] = defaultdict(set)
        self._user: dict[str, bool] = {}
        self._tool: int | None = None
        self._old_trace = None

    def _is_user(self, filename: str) -> bool:
        v = self._user.get(filename)
        if v is None:
            v = self._user[filename] = is_user_file(filename)
        return v

    # sys.settrace ---------------------------------------------------------------
    def _global(self, frame, event, arg):
        if event != "call":
            return None
        fn = frame.f_code.co_filename
        if not self._is_user(fn):
            return None
        self.lines[fn].add(frame.f_code.co_firstlineno)
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines[frame.f_code.co_filename].add(frame.f_lineno)
        return self._local

    # sys.monitoring -------------------------------------------------------------
    def _start_monitoring(self) -> bool:
        mon = getattr(sys, "monitoring", None)
        if mon is None:
            return False
        for tool in (3, 4, 1, 2):
            try:
                mon.use_tool_id(tool, "compilelint-probe")
            except ValueError:
                continue
            self._tool = tool
            break
        if self._tool is None:
            return False
        disable = mon.DISABLE

        def on_line(code, line):
            fn = code.co_filename
            if not self._is_user(fn):
                return disable
            self.lines[fn].add(line)
            return disable  # once is enough: this location ran

        def on_start(code, offset):
            fn = code.co_filename
            if not self._is_user(fn):
                return disable
            self.lines[fn].add(code.co_firstlineno)
            return disable

        mon.register_callback(self._tool, mon.events.LINE, on_line)
        mon.register_callback(self._tool, mon.events.PY_START, on_start)
        mon.set_events(self._tool, mon.events.LINE | mon.events.PY_START)
        return True

    def _stop_monitoring(self) -> None:
        mon = sys.monitoring
        mon.set_events(self._tool, 0)
        mon.register_callback(self._tool, mon.events.LINE, None)
        mon.register_callback(self._tool, mon.events.PY_START, None)
        mon.free_tool_id(self._tool)
        try:
            mon.restart_events()
        except Exception:
            pass
        self._tool = None

    def __enter__(self) -> "LineRecorder":
        if self._start_monitoring():
            return self
        self._old_trace = sys.gettrace()
        threading.settrace(self._global)
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tool is not None:
            self._stop_monitoring()
            return
        sys.settrace(self._old_trace)
        threading.settrace(self._old_trace)  # type: ignore[arg-type]

    def as_json(self) -> dict[str, list[int]]:
        return {f: sorted(ls) for f, ls in self.lines.items()}
