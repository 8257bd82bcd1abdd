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

import contextlib
import linecache
import os
import re
import traceback
from typing import Any, Callable

from compilelint.probe.dynamo_text import (
    CANNOT_RESUME, _frames_in, _gb_ids, _mk, _one_line, _reason_from_block, _user_stack_section, parse_record_text,
)
from compilelint.probe.logcapture import _LogCapture
from compilelint.probe.records import KINDS, BreakRecord, CaptureResult
from compilelint.probe.source_spans import class_lineage, enclosing_def
from compilelint.probe.trace import LineRecorder
from compilelint.probe.userfiles import is_user_file

__all__ = ["KINDS", "BreakRecord", "CaptureResult", "capture", "parse_record_text", "is_user_file"]


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


_NOT_CALLS = frozenset({"print", "len", "int", "float", "bool", "str", "isinstance", "range", "super", "getattr"})
_CALL_RE = re.compile(r"([A-Za-z_][\w.]*)\s*\(")


def _calls_into(path: str | None, line: int | None, function: str | None) -> bool:
    """Whether source line `line` calls `function` by name, or (for a module's `forward` /
    `__call__`, reached as `self.block(x)`) calls anything but a builtin."""
    called = _called_names(path, line)
    if function and function in called:
        return True
    return function in ("forward", "__call__") and _calls_a_module(path, line)


def _calls_by_name(path: str | None, line: int | None, function: str | None) -> bool:
    """Whether source line `line` calls `function` by its own name (not a `forward`)."""
    return bool(function) and function not in ("forward", "__call__") and function in _called_names(path, line)


def _calls_a_module(path: str | None, line: int | None) -> bool:
    """Whether the line makes a call that can run a module's forward: `self.encoder(x)`,
    `layer(x)`; not a builtin, a torch function (`torch.arange(n)`) or a tensor method
    (`t.repeat_interleave(r)`): a break of the line's own can share an inner one's reason."""
    import torch

    text = (linecache.getline(path, line) if path and line else "").split("#", 1)[0]
    for match in _CALL_RE.finditer(text):
        name = match.group(1)
        last = name.rsplit(".", 1)[-1]
        if last in _NOT_CALLS or name.split(".", 1)[0] in ("torch", "F", "np", "math"):
            continue
        method = "." in name or text[:match.start()].rstrip().endswith((".", ")", "]"))
        if method and not name.startswith("self.") and hasattr(torch.Tensor, last):
            continue
        return True
    return False


def _other_class(r: BreakRecord, inner: BreakRecord) -> bool:
    """`r`'s line calls through `super()`, and `inner` lies in a class that neither derives from
    `r`'s nor is one of its bases: two overrides of a method in unrelated classes (two `__hash__`s
    that each break at their own `super().__hash__()`), not a caller and its callee."""
    if "super(" not in (linecache.getline(r.file, r.line) if r.file and r.line else ""):
        return False
    mine, theirs = class_lineage(r.file, r.line), class_lineage(inner.file, inner.line)
    return mine is not None and theirs is not None and theirs[0] not in mine and mine[0] not in theirs


def _called_names(path: str | None, line: int | None) -> list[str]:
    text = linecache.getline(path, line) if path and line else ""
    return [name.rsplit(".", 1)[-1] for name in _CALL_RE.findall(text)]


# the compile reason Dynamo gives when it compiles up to the last resumable point
_STEP_UNSUPPORTED = "step_unsupported"
# breaks that refuse the object called on their own line: never an echo of a break inside it
# (an RNN module: the caller breaks at the call, then the module's own forward, as a frame of
# its own, at its `super().forward(...)`; the same reason, two breaks)
_REFUSED_CALLS = frozenset({"GB0014"})


def drop_echoes(records: list[BreakRecord]) -> list[BreakRecord]:
    """Drop the records that only repeat another break of the same run.

    When an inlined call Dynamo cannot resume in breaks (a property getter that logs, as
    in transformers' ``self.loss_function``), torch 2.13 compiles the caller up to the
    calling line and lists that line as a ``step_unsupported`` compile reason with no
    reason of its own; the logged break has the line in its stack. It also logs the
    break twice at its own line, once wrapped in "cannot resume from". And a break in an
    inlined call is logged again at the calling line of every frame above it, with the same
    reason: the break is the innermost one."""
    breaks = [r for r in records if r.kind == "graph_break"]
    callers = {(f, ln) for r in breaks if r.reason != _STEP_UNSUPPORTED for f, ln in r.stack[:-1]}
    places = {(r.file, r.line, r.gb_id) for r in breaks if not r.reason.startswith(CANNOT_RESUME)}
    # Each frame a break happened under logs it again after it, with the same reason, at its
    # calling line (`x = self.blocks(x)` for an `if` on a tensor in a helper the block calls).
    # Only a record logged after the inner one: a break of the caller's own, logged first,
    # can share the reason (two `print`s) and sit in the inner one's stack (its resume frame).
    calling: dict[tuple, list[BreakRecord]] = {}
    for r in breaks:
        for f, ln in r.stack[:-1]:
            calling.setdefault((f, ln, r.gb_id, r.reason), []).append(r)
    # Dynamo logs a break at one place once: when the same helper breaks again under another
    # caller, only that caller's echo is logged, with no inner record naming its line.
    earlier: dict[tuple, list[BreakRecord]] = {}
    echoes = set()
    for r in breaks:
        # a resume frame can list a line of the break's own function, or a break of the
        # caller's own that shares the reason (two `print`s): the line must call the inner one
        if r.reason != _STEP_UNSUPPORTED and r.gb_id not in _REFUSED_CALLS and (any(
                enclosing_def(inner.file, inner.line) != enclosing_def(r.file, r.line)
                and _calls_into(r.file, r.line, inner.function)
                for inner in calling.get((r.file, r.line, r.gb_id, r.reason), ())) or any(
                enclosing_def(inner.file, inner.line) != enclosing_def(r.file, r.line)
                and _calls_by_name(r.file, r.line, inner.function)
                and not _other_class(r, inner) for inner in earlier.get((r.gb_id, r.reason), ()))):
            echoes.add(id(r))
        earlier.setdefault((r.gb_id, r.reason), []).append(r)

    def echo(r: BreakRecord) -> bool:
        if r.kind != "graph_break":
            return False
        if r.reason == _STEP_UNSUPPORTED:
            return (r.file, r.line) in callers
        if id(r) in echoes:
            return True
        return r.reason.startswith(CANNOT_RESUME) and (r.file, r.line, r.gb_id) in places

    return [r for r in records if not echo(r)]


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
    record_lines: bool = False,
) -> CaptureResult:
    """Compile ``fn`` and run it once (or hand the compiled callable to ``driver``),
    recording every graph break, recompile and frame skip Dynamo reports.

    ``backend`` is a backend name or callable (``"eager"`` when only the breaks
    matter). ``quiet`` keeps torch from printing the records it was asked to emit.
    The logging state is restored afterwards; Dynamo is reset first (``reset``).

    ``record_lines`` also records which user lines Dynamo traced (its
    ``trace_source`` log) and which the interpreter ran while the compiled callable
    ran (``lines_traced`` / ``lines_ran_eagerly``): together, the lines this call
    reached, measured on the compiled call itself, so work done only on a first call
    is seen by Dynamo and counted as reached.
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
    recorder = LineRecorder() if record_lines else None
    with _LogCapture(quiet=quiet, trace_lines=record_lines) as cap:
        try:
            compiled = torch.compile(
                fn,
                backend=_counting_backend(backend, counts),
                fullgraph=fullgraph,
                dynamic=dynamic,
            )
            with recorder if recorder is not None else contextlib.nullcontext():
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
        breaks=_dedupe(drop_echoes(records)),
        graph_count=len(counts),
        op_count=sum(counts),
        error=error,
        ops_per_graph=counts,
        error_traceback=error_tb,
        torch_version=str(torch.__version__),
        lines_traced={f: sorted(ls) for f, ls in cap.collector.traced.items()} if record_lines else None,
        lines_ran_eagerly=recorder.as_json() if recorder is not None else None,
    )
