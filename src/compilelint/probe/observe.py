"""What Dynamo does with a target, first call first: the probe's capture procedure.

1. **First call, fresh state.** The compiled callable (backend ``eager``: Dynamo
   decides the breaks) gets the target's first call in this process, so work done
   only once — lazy initialisation, caches, warn-once logging — is traced by Dynamo
   as a user's first compiled call is. The same call records which user lines Dynamo
   traced and which the interpreter ran instead: together, the lines reached.
2. **Again, warm.** After a Dynamo reset the calls are captured once more; a break
   seen on the first capture only is marked ``first_call_only``.
3. **Eagerly, once.** The calls run without Dynamo under a profile hook that reads what
   each user function was passed (:mod:`compilelint.probe.call_args`): Dynamo inlines
   helpers without running them, and their `given:` labels need those arguments.

Lines are measured on the compiled call itself, never on an eager call run before it
(which would hide first-call-only work from Dynamo). Where Dynamo's ``trace_source``
log yields nothing (a torch without it), one eager call is traced after the capture
instead, and the result says so (``reached_by``).

:func:`observe` runs in the calling process (the probe's worker, or a calibration
script's own subprocess); its result feeds :func:`compilelint.probe.match.match`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from compilelint.probe.records import CaptureResult

LABEL_KWARGS = ("labels", "label", "targets", "target")


@dataclass
class Observation:
    capture: CaptureResult
    lines_run: dict[str, list[int]]  # every user line reached (traced or run eagerly)
    reached_by: str  # "compiled-call" | "eager-call"
    # what the run covered, for conditional findings: training, dtype, labels
    conditions: dict[str, Any] = field(default_factory=dict)
    recapture_error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "capture": self.capture.to_dict(),
            "lines_run": self.lines_run,
            "reached_by": self.reached_by,
            "conditions": self.conditions,
            "recapture_error": self.recapture_error,
        }

    def as_result(self, name: str):
        """A :class:`~compilelint.probe.runner.TargetResult` for :func:`match`."""
        from compilelint.probe.runner import TargetResult

        return TargetResult.from_dict({"target": name, "name": name, "status": "ok", **self.to_dict()})


def run_conditions(fn: Any, calls: Sequence[tuple[tuple, dict]], *, train: bool) -> dict[str, Any]:
    """The conditions a run meets: ``training``, ``dtype`` (of the module's first
    floating-point parameter, else of the first floating-point input) and ``labels``
    (a call passed a labels/targets keyword that is not None), ``entry``: what the
    calls passed to the function they call (its `given:` facts, probe.entry_args), and
    ``attrs``: what the modules hold (`self.` labels' facts, probe.attr_facts)."""
    from compilelint.probe.attr_facts import attribute_facts
    from compilelint.probe.entry_args import entry_arguments
    from compilelint.probe.tensors import floating_dtype

    labels = any(k.get(name) is not None for _, k in calls for name in LABEL_KWARGS)
    return {"training": bool(train), "dtype": floating_dtype(fn, calls), "labels": labels,
            "entry": entry_arguments(fn, calls), "attrs": attribute_facts(fn)}


def observe(
    fn: Callable,
    calls: Sequence[tuple[tuple, dict]],
    *,
    backend: Any = "eager",
    train: bool = False,
    recapture: bool = True,
) -> Observation:
    """Capture ``fn`` over ``calls`` (``[(args, kwargs), ...]``), first call first.

    ``fn`` and ``calls`` must already be on their device, in their dtype and mode
    (:func:`compilelint.probe.tensors.to_dtype`, ``set_training``); ``train`` runs
    with gradients on. The capture's ``error`` is set when the target raised."""
    import torch

    from compilelint.probe.capture import capture

    grad_ctx = torch.enable_grad if train else torch.no_grad

    def driver(compiled):
        for a, k in calls:
            compiled(*a, **k)

    with grad_ctx():
        first = capture(fn, backend=backend, driver=driver, record_lines=True)
    traced = first.lines_traced or {}
    lines: dict[str, set[int]] = {}
    for src in (traced, first.lines_ran_eagerly or {}):
        for f, ls in src.items():
            lines.setdefault(f, set()).update(ls)
    reached_by = "compiled-call"
    if not traced and first.graph_count and first.error is None:
        reached_by = "eager-call"
        lines = _eager_lines(fn, calls, grad_ctx)
    obs = Observation(capture=first, lines_run={f: sorted(ls) for f, ls in lines.items()},
                      reached_by=reached_by, conditions=run_conditions(fn, calls, train=train))
    if recapture and first.error is None:
        with grad_ctx():
            warm = capture(fn, backend=backend, driver=driver)
        if warm.error is not None:
            obs.recapture_error = warm.error
        else:
            mark_first_call_only(first, warm)
    # what each helper was passed (Dynamo inlined them unrun): `given:` labels; also after a
    # capture that failed inside Dynamo, whose eager pass still runs (empty if that raises too)
    from compilelint.probe.call_args import call_arguments

    obs.conditions["passed"] = call_arguments(fn, calls, grad_ctx)
    return obs


def mark_first_call_only(first: CaptureResult, warm: CaptureResult) -> None:
    """Flag the breaks of ``first`` that a capture in a warm process did not see."""
    seen = {b.place() for b in warm.breaks}
    for b in first.breaks:
        b.first_call_only = b.place() not in seen


def _eager_lines(fn: Callable, calls, grad_ctx) -> dict[str, set[int]]:
    from compilelint.probe.trace import LineRecorder

    with grad_ctx(), LineRecorder() as rec:
        for a, k in calls:
            fn(*a, **k)
    return {f: set(ls) for f, ls in rec.lines.items()}
