"""Run probe targets, each in its own subprocess with a time limit.

The parent never imports torch: it writes a request JSON, starts
``python -m compilelint.probe.worker`` in a new process group, waits at most
``timeout`` seconds, and reads the result JSON the worker keeps up to date. An
exception, a hang, a segfault, ``os.abort()`` or an out-of-memory kill in user code
becomes a failed :class:`TargetResult` ("target failed: …"); the other targets run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from compilelint.probe.capture import BreakRecord, CaptureResult
from compilelint.probe.devicelock import WAITING_SUFFIX
from compilelint.probe.regional import RegionalResult
from compilelint.probe.request import DEFAULT_TIMEOUT, ProbeOptions
from compilelint.probe.targets import TargetSpec, parse_target
from compilelint.probe.timing import TimingResult
from compilelint.probe.whatif import WhatIf

_PKG_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class TargetResult:
    target: str  # the spec as written
    name: str
    status: str  # "ok" | "failed"
    error: str | None = None  # "target failed: …" detail, when failed
    phase: str | None = None  # where it stopped
    device: str | None = None
    device_name: str | None = None
    torch_version: str | None = None
    capture: CaptureResult | None = None
    fullgraph_ok: bool | None = None
    fullgraph_error: str | None = None
    lines_run: dict[str, list[int]] = field(default_factory=dict)
    reached_by: str | None = None  # "compiled-call" (lines measured under Dynamo) | "eager-call"
    conditions: dict[str, Any] = field(default_factory=dict)  # training, dtype, labels
    recapture_error: str | None = None
    target_files: list[str] = field(default_factory=list)
    timing: TimingResult | None = None
    what_if: list[WhatIf] = field(default_factory=list)
    what_if_error: str | None = None
    regional: RegionalResult | None = None  # compile each repeated block vs the whole module
    regional_error: str | None = None
    durations: dict[str, float] = field(default_factory=dict)
    device_hold: dict[str, Any] | None = None  # side by side: the device lock held while timing, and when
    wall_s: float = 0.0
    returncode: int | None = None
    stdout_tail: str = ""
    stderr_tail: str = ""
    traceback: str | None = None
    # `probe -- COMMAND`: the root's calls, input signatures, replay (compilelint.probe.program)
    run: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def breaks(self) -> list[BreakRecord]:
        return list(self.capture.breaks) if self.capture else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "name": self.name,
            "status": self.status,
            "error": self.error,
            "phase": self.phase,
            "device": self.device,
            "device_name": self.device_name,
            "torch_version": self.torch_version,
            "capture": self.capture.to_dict() if self.capture else None,
            "fullgraph_ok": self.fullgraph_ok,
            "fullgraph_error": self.fullgraph_error,
            "lines_run": self.lines_run,
            "reached_by": self.reached_by,
            "conditions": self.conditions,
            "recapture_error": self.recapture_error,
            "target_files": self.target_files,
            "timing": self.timing.to_dict() if self.timing else None,
            "what_if": [w.to_dict() for w in self.what_if],
            "what_if_error": self.what_if_error,
            "regional": self.regional.to_dict() if self.regional else None,
            "regional_error": self.regional_error,
            "durations": self.durations,
            "device_hold": self.device_hold,
            "wall_s": self.wall_s,
            "returncode": self.returncode,
            "stdout_tail": self.stdout_tail,
            "stderr_tail": self.stderr_tail,
            "traceback": self.traceback,
            "run": self.run,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TargetResult":
        return cls(
            target=d["target"], name=d["name"], status=d["status"], error=d.get("error"),
            phase=d.get("phase"), device=d.get("device"), device_name=d.get("device_name"),
            torch_version=d.get("torch_version"),
            capture=CaptureResult.from_dict(d["capture"]) if d.get("capture") else None,
            fullgraph_ok=d.get("fullgraph_ok"), fullgraph_error=d.get("fullgraph_error"),
            lines_run={k: list(v) for k, v in (d.get("lines_run") or {}).items()},
            reached_by=d.get("reached_by"), conditions=dict(d.get("conditions") or {}),
            recapture_error=d.get("recapture_error"),
            target_files=list(d.get("target_files") or []),
            timing=TimingResult.from_dict(d.get("timing")),
            what_if=[WhatIf.from_dict(w) for w in d.get("what_if") or []],
            what_if_error=d.get("what_if_error"),
            regional=RegionalResult.from_dict(d.get("regional")), regional_error=d.get("regional_error"),
            durations=dict(d.get("durations") or {}), device_hold=d.get("device_hold"),
            wall_s=d.get("wall_s", 0.0),
            returncode=d.get("returncode"), stdout_tail=d.get("stdout_tail", ""),
            stderr_tail=d.get("stderr_tail", ""), traceback=d.get("traceback"), run=d.get("run"),
        )


def _tail(path: str, limit: int = 4000) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - limit))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


_SIGNAL_MEANING = {
    "SIGSEGV": "segmentation fault",
    "SIGABRT": "aborted",
    "SIGKILL": "killed (out of memory?)",
    "SIGBUS": "bus error",
    "SIGFPE": "floating-point exception",
    "SIGILL": "illegal instruction",
    "SIGTERM": "terminated",
}


def _worker_env(extra_path: Iterable[str]) -> dict[str, str]:
    env = dict(os.environ)
    parts = [_PKG_PARENT, *extra_path]
    if env.get("PYTHONPATH"):
        parts.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(p for p in parts if p))
    env["COMPILELINT_PROBE_PARENT"] = str(os.getpid())  # the worker exits when this process is gone
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.setdefault("PYTHONFAULTHANDLER", "1")
    env.update(ALLOCATOR_ENV)
    return env


# glibc's malloc serves large blocks with mmap and adapts its threshold to the allocation
# history, so an eager CPU call making MB-sized tensors ran 2.5x slower or not depending
# on what the process did before (12.4 vs 4.9 ms for bench.py:norm_act, same process).
# Fixed thresholds keep such tensors on the heap, as in a long-running training process.
ALLOCATOR_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def _wait(proc: subprocess.Popen, timeout: float | None, waiting_marker: str) -> tuple[int, bool]:
    """The worker's exit code, and whether it ran out of time. Time it spends waiting
    for a device lock (its marker file exists) does not count."""
    budget = timeout
    last = time.monotonic()
    while True:
        try:
            return proc.wait(timeout=None if budget is None else min(0.5, max(budget, 0.01))), False
        except subprocess.TimeoutExpired:
            now = time.monotonic()
            if not os.path.exists(waiting_marker):
                budget -= now - last
            last = now
            if budget <= 0:
                return None, True


# workers running now, so that an interrupted run can stop them all (schedule.stop_all)
LIVE: set[subprocess.Popen] = set()


def run_target(spec: TargetSpec, *, python: str | None = None, env: dict[str, str] | None = None,
               **options: Any) -> TargetResult:
    """Run one target in a fresh worker process; never raises for user-code faults.
    `env`: extra environment for the worker (the GPU it sees, its device lock; None unsets).
    `options`: the fields of :class:`~compilelint.probe.request.ProbeOptions`."""
    opts = ProbeOptions(**options)
    timeout = opts.timeout
    request = opts.to_request(spec.to_dict(), spec.name)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="compilelint-probe-") as tmp:
        req_path = os.path.join(tmp, "request.json")
        out_path = os.path.join(tmp, "result.json")
        so_path = os.path.join(tmp, "stdout.txt")
        se_path = os.path.join(tmp, "stderr.txt")
        with open(req_path, "w", encoding="utf-8") as fh:
            json.dump(request, fh)
        cmd = [python or sys.executable, "-m", "compilelint.probe.worker", req_path, out_path]
        timed_out = False
        with open(so_path, "wb") as so, open(se_path, "wb") as se:
            proc = subprocess.Popen(
                cmd, cwd=spec.cwd, stdin=subprocess.DEVNULL, stdout=so, stderr=se,
                env={k: v for k, v in {**_worker_env([spec.cwd]), **(env or {})}.items() if v is not None},
                start_new_session=True,
            )
            LIVE.add(proc)
            try:
                rc, timed_out = _wait(proc, timeout, out_path + WAITING_SUFFIX)
                if timed_out:
                    _kill_group(proc)
                    rc = proc.wait()
            finally:
                # the worker's children (compile workers) go with its process group;
                # so does the worker itself when this run is interrupted
                _kill_group(proc)
                LIVE.discard(proc)
        data: dict[str, Any] | None = None
        if os.path.exists(out_path):
            try:
                with open(out_path, encoding="utf-8") as fh:
                    data = json.load(fh)
            except (OSError, ValueError):
                data = None
        stdout_tail = _tail(so_path)
        stderr_tail = _tail(se_path)
    wall = time.perf_counter() - started
    result = _result_from(spec, data)
    result.wall_s = round(wall, 3)
    result.returncode = rc
    result.stdout_tail = stdout_tail
    result.stderr_tail = stderr_tail
    if (timed_out or rc) and result.phase in ("what_if", "regional") and data and data.get("status") == "ok":
        # killed while re-timing a knob or the blocks: the target's results stand, that line failed
        why = f"timed out after {timeout:g} s (the target's timeout)" if timed_out else (
            f"the worker died ({_signal_name(-rc)})" if rc < 0 else f"the worker exited with code {rc}")
        for w in [*result.what_if, *([result.regional] if result.regional else [])]:
            if w.status == "running":
                w.status = "timed-out" if timed_out else "failed"
                w.error = why
    elif timed_out:
        result.status = "failed"
        where = f" (during {result.phase})" if result.phase and result.phase != "done" else ""
        result.error = f"timed out after {timeout:g} s{where}"
    elif rc != 0 and rc is not None:
        result.status = "failed"
        if rc < 0:
            name = _signal_name(-rc)
            meaning = _SIGNAL_MEANING.get(name, "killed")
            where = f" during {result.phase}" if result.phase else ""
            result.error = f"worker {meaning} ({name}){where}"
        else:
            last = stderr_tail.strip().splitlines()[-1:] if stderr_tail.strip() else []
            result.error = f"worker exited with code {rc}" + (f": {last[0]}" if last else "")
    elif data is None:
        result.status = "failed"
        result.error = "worker wrote no result"
    elif result.status not in ("ok", "failed"):
        result.status = "failed"
        result.error = result.error or f"worker stopped during {result.phase}"
    return result


def _result_from(spec: TargetSpec, data: dict[str, Any] | None) -> TargetResult:
    """The worker's result file (TargetResult's own encoding, as far as the worker got;
    what only the parent knows, the wall time and the process's end, left out)."""
    if not data:
        return TargetResult(target=spec.spec, name=spec.name, status="failed")
    parent_only = ("wall_s", "returncode", "stdout_tail", "stderr_tail")
    return TargetResult.from_dict({**{k: v for k, v in data.items() if k not in parent_only},
                                   "target": spec.spec, "name": data.get("name") or spec.name,
                                   "status": data.get("status", "failed")})


def run_probe(
    targets: Iterable[str | TargetSpec],
    *,
    base: str | None = None,
    on_start: Callable[[TargetSpec, int, int], None] | None = None,
    on_done: Callable[[TargetResult, int, int], None] | None = None,
    **opts: Any,
) -> list[TargetResult]:
    """Run every target (``file.py:factory`` / ``pkg.mod:factory`` strings or specs),
    one subprocess each, in order. ``opts`` go to :func:`run_target` (``timeout``,
    ``device``, ``modes``, ``backend``, ``timing``, ``warmup``, ``runs``, ``train``…).
    Raises :class:`~compilelint.probe.targets.TargetError` for a malformed spec
    before anything runs."""
    specs = [t if isinstance(t, TargetSpec) else parse_target(t, base=base) for t in targets]
    results: list[TargetResult] = []
    total = len(specs)
    for i, spec in enumerate(specs):
        if on_start:
            on_start(spec, i, total)
        res = run_target(spec, **opts)
        results.append(res)
        if on_done:
            on_done(res, i, total)
    return results
