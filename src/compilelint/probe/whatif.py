"""What-if re-timing: what would removing each class of break be worth?

For a target with breaks or recompiles, each knob that applies
(:mod:`compilelint.probe.knobs`) is switched on, the target captured again (how many
breaks go) and the compiled target timed again in the first timed mode: its median,
the speedup over today's compiled and over eager, and whether the outputs still match
eager's. Runs in the worker, after the timing; every failure — a knob that makes
Dynamo raise, an out-of-memory error, diverging outputs, too little time left in the
target's timeout — is a line of the result, never an exception.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Sequence

from compilelint.probe.knobs import ALL, KNOBS

# outputs match eager's when the largest difference, relative to the largest reference
# magnitude, is at most this (inductor's own drift is ~1e-6 in fp32)
MATCH_TOLERANCE = {"float32": 1e-3, "float64": 1e-6, "float16": 1e-2, "bfloat16": 5e-2}


@dataclass
class WhatIf:
    knob: str
    mode: str
    status: str = "running"  # "ok" | "failed" | "skipped" | "timed-out" | "running"
    error: str | None = None
    breaks_before: int | None = None
    breaks_after: int | None = None
    breaks_removed: int | None = None
    median_s: float | None = None
    compile_s: float | None = None
    speedup_vs_compiled: float | None = None
    speedup_vs_eager: float | None = None
    max_abs_diff: float | None = None
    max_rel_diff: float | None = None
    outputs_match: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "WhatIf":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def knob_settings(knob: str, applicable: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(``torch._dynamo.config`` values, ``torch.compile`` arguments) for a knob."""
    import logging
    import warnings

    config: dict[str, Any] = {}
    compile_args: dict[str, Any] = {}
    for k in (applicable if knob == ALL else [knob]):
        if k in ("capture_scalar_outputs", "capture_dynamic_output_shape_ops"):
            config[k] = True
        elif k == "reorderable_logging_functions":
            config[k] = {print, warnings.warn, logging.Logger.debug, logging.Logger.info,
                         logging.Logger.warning, logging.Logger.error, logging.Logger.critical}
        elif k == "dynamic":
            compile_args["dynamic"] = True
        elif k != ALL:
            raise ValueError(f"unknown knob {k!r} (known: {', '.join(KNOBS)})")
    return config, compile_args


def run_what_ifs(
    fn: Callable,
    calls: Sequence[tuple[tuple, dict]],
    knobs: Sequence[str],
    *,
    breaks_before: int,
    timing: Any,
    backend: str,
    warmup: int,
    runs: int,
    train: bool,
    dtype: str | None,
    deadline: float | None,
    estimate_s: float,
    min_time_s: float | None = None,
    warmup_s: float | None = None,
    on_progress: Callable[[list[WhatIf]], None] | None = None,
) -> list[WhatIf]:
    """One :class:`WhatIf` per knob. ``timing`` is the target's
    :class:`~compilelint.probe.timing.TimingResult` (eager stats, the reference
    outputs, today's compiled modes); ``deadline`` a ``time.monotonic()`` after which
    the worker will be killed; ``estimate_s`` what one knob is expected to take."""
    mode = next((m for m in timing.modes if m.ok and m.stats), None)
    out: list[WhatIf] = []
    for knob in knobs:
        w = WhatIf(knob=knob, mode=mode.mode if mode else "default", breaks_before=breaks_before)
        out.append(w)
        left = None if deadline is None else deadline - time.monotonic()
        if mode is None:
            w.status, w.error = "skipped", "no compiled mode was timed to compare with"
        elif left is not None and left < estimate_s:
            w.status = "skipped"
            w.error = f"not enough time left in the target's timeout (~{estimate_s:.0f} s needed, {left:.0f} s left)"
        else:
            if on_progress:
                on_progress(out)
            _one(w, fn, calls, knobs, mode, timing=timing, backend=backend, warmup=warmup, runs=runs,
                 train=train, dtype=dtype, min_time_s=min_time_s, warmup_s=warmup_s)
        if on_progress:
            on_progress(out)
    return out


def _one(w: WhatIf, fn, calls, knobs, mode, *, timing, backend, warmup, runs, train, dtype,
         min_time_s, warmup_s) -> None:
    import torch._dynamo

    from compilelint.probe.capture import capture
    from compilelint.probe.timing import time_one_mode

    try:
        config, compile_args = knob_settings(w.knob, [k for k in knobs if k != ALL])
    except ValueError as exc:
        w.status, w.error = "failed", str(exc)
        return
    grad = torch.enable_grad if train else torch.no_grad

    def driver(compiled):
        for a, k in calls:
            compiled(*a, **k)

    try:
        with torch._dynamo.config.patch(**config), grad():
            cap = capture(fn, backend="eager", driver=driver, dynamic=compile_args.get("dynamic"))
    except Exception as exc:  # an unknown config key on this torch, …
        w.status, w.error = "failed", f"Dynamo raised with this knob: {type(exc).__name__}: {exc}"[:500]
        return
    if cap.error:
        w.status, w.error = "failed", f"Dynamo raised with this knob: {cap.error}"[:500]
        return
    w.breaks_after = len(cap.breaks)
    w.breaks_removed = w.breaks_before - w.breaks_after
    a, k = calls[0]
    with torch._dynamo.config.patch(**config):
        mr = time_one_mode(mode.mode, fn, a, k, device=timing.device, backend=backend, warmup=warmup,
                           runs=runs, train=train, ref=timing.reference, eager=timing.eager,
                           warmup_s=warmup_s, min_time_s=min_time_s, compile_extra=compile_args)
    if not mr.ok or mr.stats is None:
        w.status, w.error = "failed", mr.error or "not timed"
        return
    w.status = "ok"
    w.median_s = mr.stats.median_s
    w.compile_s = mr.compile_s
    w.speedup_vs_compiled = mode.stats.median_s / mr.stats.median_s
    w.speedup_vs_eager = timing.eager.median_s / mr.stats.median_s
    w.max_abs_diff, w.max_rel_diff = mr.max_abs_diff, mr.max_rel_diff
    tol = MATCH_TOLERANCE.get(dtype or "float32", 1e-3)
    w.outputs_match = mr.max_rel_diff is not None and mr.max_rel_diff <= tol
    if not w.outputs_match:
        w.error = ("outputs differ from eager" if mr.max_rel_diff is None
                   else f"outputs differ from eager (max rel Δ {mr.max_rel_diff:.1e} > {tol:.0e})")
