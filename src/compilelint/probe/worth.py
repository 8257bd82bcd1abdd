"""Is compiling worth it? A verdict per target and mode that a person can act on.

*Worth it* when the compiled median is faster with its spread clear of 1.0× (the
interquartile ranges: the lowest plausible speedup is eager p25 ÷ compiled p75, the
highest eager p75 ÷ compiled p25) and the compile pays for itself within
``max_calls`` calls (``--worth-it-calls``, default 10,000). Otherwise *not worth it*,
with the reasons. No torch here.

On a GPU the verdict is judged on *latency* (each call waited for), not on throughput
(calls queued back to back, one synchronise at the end): most programs wait for each
call's result — a served request, a training step that reads its loss, outputs copied
to the host — so the CPU's launch and guard overhead is theirs to pay, and a throughput
speedup would promise them time they do not get. Throughput is reported beside it. On a
CPU a call returns when its work is done: the per-call time is both.
"""

from __future__ import annotations

import math
from typing import Any

DEFAULT_MAX_CALLS = 10_000


def assess_timed(timing: Any, mode: Any, max_calls: int = DEFAULT_MAX_CALLS) -> dict[str, Any] | None:
    """The verdict for one mode of a :class:`~compilelint.probe.timing.TimingResult`: on
    latency where it was measured (a GPU), else on the per-call time; ``timing`` in the
    verdict says which."""
    if timing.eager_latency is not None and getattr(mode, "latency", None) is not None:
        v = assess(timing.eager_latency, mode, max_calls, compiled=mode.latency)
        kind = "latency"
    else:
        v = assess(timing.eager, mode, max_calls)
        kind = "per-call" if not str(timing.device).startswith("cuda") else "throughput"
    if v is not None:
        v["timing"] = kind
    return v


def assess(eager: Any, mode: Any, max_calls: int = DEFAULT_MAX_CALLS, *, compiled: Any = None) -> dict[str, Any] | None:
    """The verdict for one timed mode (``eager``: a :class:`~compilelint.probe.measure.Stats`,
    ``mode``: a :class:`~compilelint.probe.timing.ModeResult`, judged on its ``stats`` or on
    ``compiled`` stats given); None when it was not timed."""
    st = compiled if compiled is not None else getattr(mode, "stats", None)
    if eager is None or st is None or not getattr(mode, "ok", False) or st.median_s <= 0:
        return None
    speedup = eager.median_s / st.median_s
    low = eager.p25_s / st.p75_s if st.p75_s > 0 else speedup
    high = eager.p75_s / st.p25_s if st.p25_s > 0 else speedup
    saved = eager.median_s - st.median_s
    compile_s = mode.compile_s or 0.0
    break_even = int(math.ceil(compile_s / saved)) if saved > 0 else None
    reasons = []
    if high < 1.0:
        reasons.append(f"compiled is slower ({speedup:.2f}×, {low:.2f}–{high:.2f}×)")
    elif low <= 1.0:
        reasons.append(f"the speedup's spread covers 1.0× ({low:.2f}–{high:.2f}×)")
    if break_even is None:
        if high >= 1.0:
            reasons.append("the compile never pays for itself (no time saved per call)")
    elif break_even > max_calls:
        reasons.append(f"the compile pays for itself only after {break_even:,} calls (> {max_calls:,})")
    return {
        "verdict": "not-worth-it" if reasons else "worth-it",
        "speedup": speedup,
        "speedup_low": low,
        "speedup_high": high,
        "compile_s": mode.compile_s,
        "break_even_calls": "never" if break_even is None else break_even,
        "max_calls": max_calls,
        "reasons": reasons,
    }


def best(verdicts: dict[str, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The target's verdict: its fastest worth-it mode, else its fastest mode."""
    timed = [(m, v) for m, v in verdicts.items() if v]
    if not timed:
        return None
    worth = [(m, v) for m, v in timed if v["verdict"] == "worth-it"]
    mode, v = max(worth or timed, key=lambda mv: mv[1]["speedup"])
    return {"mode": mode, **v}


def sentence(v: dict[str, Any] | None) -> str:
    """One line for a person: "worth it: 1.31× (1.25–1.37×), 42 s to compile, pays off
    after 310 calls" or "not worth it: …"."""
    if not v:
        return "not timed"
    be = v["break_even_calls"]
    pays = "never pays off" if be == "never" else f"pays off after {be:,} calls"
    comp = f"{v['compile_s']:.1f} s to compile" if v.get("compile_s") is not None else "compile time unknown"
    on = f" ({v['timing']})" if v.get("timing") in ("latency", "throughput") else ""
    head = (f"{v['speedup']:.2f}×{on} ({v['speedup_low']:.2f}–{v['speedup_high']:.2f}×), {comp}, {pays}")
    if v["verdict"] == "worth-it":
        return f"worth it: {head}"
    return f"not worth it: {head} — " + "; ".join(v["reasons"])
