"""The parent side of `compilelint probe -- COMMAND`: run the user's program with the
probe's hook injected from outside, and turn what the hook wrote into the probe's
:class:`~compilelint.probe.runner.TargetResult` (one per root), so matching, verdicts
and reports work as for factories.

The command runs in its own process group with the user's stdin, stdout and stderr
(its output passes through, a tail is kept for the report) and a PYTHONPATH whose first
entry holds :mod:`compilelint.probe.inject.sitecustomize`. ``timeout`` ends a hung
program: the whole group is killed. No torch here.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from compilelint.probe.records import BreakRecord, CaptureResult
from compilelint.probe.runner import _PKG_PARENT, TargetResult, _kill_group
from compilelint.probe.timing import TimingResult

INJECT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inject")
DEFAULT_RUN_TIMEOUT = 1800.0
TAIL = 4000


@dataclass
class ProgramRun:
    """One run of the user's command under the probe."""

    command: list[str]
    returncode: int | None = None
    timed_out: bool = False
    wall_s: float = 0.0
    stdout_tail: str = ""
    stderr_tail: str = ""
    phase: str | None = None  # how far the hook got: running | exit | timing | done
    torch_version: str | None = None
    device: str | None = None
    results: list[TargetResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)  # what was asked to compile in place

    @property
    def command_text(self) -> str:
        return shlex.join(self.command)

    def to_dict(self) -> dict[str, Any]:
        return {"source": "run", "command": self.command_text, "returncode": self.returncode,
                "timed_out": self.timed_out, "wall_s": round(self.wall_s, 3), "phase": self.phase,
                "torch_version": self.torch_version, "device": self.device, "roots": self.roots,
                "stdout_tail": self.stdout_tail, "stderr_tail": self.stderr_tail, "errors": self.errors}


def parse_command(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


def _env(request_path: str) -> dict[str, str]:
    env = dict(os.environ)
    parts = [INJECT_DIR, _PKG_PARENT]
    if env.get("PYTHONPATH"):
        parts.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    env["COMPILELINT_RUN_REQUEST"] = request_path
    return env


class _Tee(threading.Thread):
    """Copy a pipe to our own stream as it comes, keeping the tail."""

    def __init__(self, pipe, sink) -> None:
        super().__init__(daemon=True)
        self.pipe, self.sink, self.tail = pipe, sink, b""

    def run(self) -> None:
        out = getattr(self.sink, "buffer", self.sink)
        for chunk in iter(lambda: self.pipe.read1(65536), b""):
            try:
                out.write(chunk)
                out.flush()
            except (OSError, ValueError):
                pass
            self.tail = (self.tail + chunk)[-TAIL:]


def run_program(command: str | list[str], roots: list[str], *, timeout: float | None = DEFAULT_RUN_TIMEOUT,
                timing: bool = False, backend: str = "inductor", cwd: str | None = None,
                stdout=None, stderr=None) -> ProgramRun:
    """Run ``command`` with ``roots`` compiled in place; never raises for the program's faults."""
    argv = parse_command(command)
    run = ProgramRun(command=argv, roots=list(roots))
    if not argv:
        run.errors.append("empty command")
        return run
    with tempfile.TemporaryDirectory(prefix="compilelint-run-") as tmp:
        out_path = os.path.join(tmp, "result.json")
        req_path = os.path.join(tmp, "request.json")
        with open(req_path, "w", encoding="utf-8") as fh:
            json.dump({"roots": roots, "out": out_path, "timing": timing, "backend": backend}, fh)
        started = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=_env(req_path), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            run.errors.append(f"cannot run {argv[0]!r}: {exc.strerror or exc}")
            run.returncode = 127
            return run
        tees = [_Tee(proc.stdout, stdout or sys.stdout), _Tee(proc.stderr, stderr or sys.stderr)]
        for t in tees:
            t.start()
        try:
            run.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            _kill_group(proc)
            run.returncode = proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            run.returncode = proc.wait()
        _kill_group(proc)  # what the program left running goes with its group
        for t in tees:
            t.join(timeout=5)
        run.wall_s = time.perf_counter() - started
        run.stdout_tail = tees[0].tail.decode("utf-8", "replace")
        run.stderr_tail = tees[1].tail.decode("utf-8", "replace")
        data = None
        try:
            with open(out_path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            if not run.errors:
                run.errors.append("the program wrote no probe results (the hook did not start, or "
                                  "the command is not a Python program)")
    if data:
        run.phase = data.get("phase")
        run.torch_version = data.get("torch_version")
        run.device = data.get("device")
        run.errors.extend(data.get("errors") or [])
        run.results = results_from(data, run)
    return run


def results_from(data: dict[str, Any], run: ProgramRun) -> list[TargetResult]:
    """One TargetResult per root the program imported (and one for the program's own
    compiles, when it compiled something itself and Dynamo logged breaks there)."""
    out = []
    for root in data.get("roots", []):
        if not root.get("imported"):
            continue
        out.append(_root_result(root, run))
    program_breaks = data.get("program_breaks") or []
    if program_breaks:
        from compilelint.probe.capture import _dedupe

        cap = CaptureResult(breaks=_dedupe([BreakRecord.from_dict(b) for b in program_breaks]), graph_count=0,
                            op_count=0, error=None, torch_version=run.torch_version)
        out.append(TargetResult(target="(program)", name="(the program's own torch.compile)", status="ok",
                                device=run.device, torch_version=run.torch_version, capture=cap,
                                conditions={"source": "run"}))
    return out


def _root_result(root: dict[str, Any], run: ProgramRun) -> TargetResult:
    from compilelint.probe.capture import _dedupe

    breaks = _dedupe([BreakRecord.from_dict(b) for b in root.get("breaks", [])])
    cap = CaptureResult(
        breaks=breaks, graph_count=len(root.get("ops_per_graph", [])),
        op_count=sum(root.get("ops_per_graph", [])), error=root.get("error"),
        ops_per_graph=list(root.get("ops_per_graph", [])), torch_version=run.torch_version,
        lines_traced=root.get("lines_traced") or {}, lines_ran_eagerly=root.get("lines_ran_eagerly") or {},
    )
    lines: dict[str, set[int]] = {}
    for src in (root.get("lines_traced") or {}, root.get("lines_ran_eagerly") or {}):
        for f, ls in src.items():
            lines.setdefault(f, set()).update(ls)
    if root.get("file") and not root.get("user_compiled"):
        # the module ran: a finding there that no call reached is not-reached (unless the
        # program compiled the root itself: its lines were not recorded, no verdict then)
        lines.setdefault(root["file"], set())
    training = root.get("training") or []
    conditions: dict[str, Any] = {"dtype": root.get("dtype"), "labels": bool(root.get("labels")),
                                  "calls": root.get("calls", 0)}
    if len(training) == 1:
        conditions["training"] = bool(training[0])
    replay = root.get("replay") or {}
    status = "ok" if root.get("status") == "ok" else "failed"
    error = None if status == "ok" else f"fell back to eager: {root.get('error')}"
    return TargetResult(
        target=root["root"], name=root["root"], status=status, error=error,
        phase="done" if run.phase == "done" else run.phase, device=run.device,
        torch_version=run.torch_version, capture=cap,
        lines_run={f: sorted(ls) for f, ls in lines.items()},
        reached_by="compiled-call", conditions=conditions,
        target_files=[root["file"]] if root.get("file") else [],
        timing=TimingResult.from_dict(replay.get("timing")),
        durations={k: v for k, v in (("first_call", root.get("first_call_s")),
                                     ("compile_calls", root.get("compile_s")),
                                     ("steady_calls", root.get("steady_s"))) if v is not None},
        traceback=root.get("traceback"),
        run=dict(calls=root.get("calls", 0), instances=root.get("instances", 0), kind=root.get("kind"),
                 steady_calls=root.get("steady_calls", 0), user_compiled=int(root.get("user_compiled") or 0), input_signatures=root.get("input_signatures", []),
                 replay_signature=replay.get("signature"), replay_calls=replay.get("calls_like_this"),
                 replay_error=replay.get("error"), program=replay.get("program"), command=run.command_text),
    )
