"""The worth-it verdict: speedup with its spread, compile time, break-even calls."""

from __future__ import annotations

from compilelint.probe.measure import Stats
from compilelint.probe.timing import ModeResult
from compilelint.probe.worth import assess, best, sentence


def stats(median: float, iqr: float) -> Stats:
    return Stats(n=30, median_s=median, mean_s=median, min_s=median - iqr, max_s=median + iqr, stdev_s=iqr / 2,
                 p25_s=median - iqr / 2, p75_s=median + iqr / 2)


def mode(eager: Stats, median: float, iqr: float, compile_s: float, name: str = "default") -> ModeResult:
    st = stats(median, iqr)
    saved = eager.median_s - median
    be = int(-(-compile_s // saved)) if saved > 0 else None
    return ModeResult(mode=name, backend="inductor", stats=st, compile_s=compile_s, speedup=eager.median_s / median,
                      break_even_calls=be, never_breaks_even=be is None)


EAGER = stats(3.08e-3, 0.04e-3)


def test_clear_speedup_that_pays_off_is_worth_it():
    v = assess(EAGER, mode(EAGER, 2.39e-3, 0.04e-3, compile_s=0.5))
    assert v["verdict"] == "worth-it" and v["reasons"] == []
    assert v["speedup_low"] < v["speedup"] < v["speedup_high"]
    assert v["speedup_low"] > 1.0
    assert v["break_even_calls"] == 725  # ceil(0.5 s / 0.69 ms saved per call)
    assert sentence(v).startswith("worth it: 1.29×")


def test_spread_covering_one_is_not_worth_it():
    v = assess(EAGER, mode(EAGER, 3.04e-3, 0.2e-3, compile_s=0.5))
    assert v["verdict"] == "not-worth-it"
    assert "covers 1.0×" in v["reasons"][0]


def test_slower_compiled_never_pays_off():
    v = assess(EAGER, mode(EAGER, 3.12e-3, 0.01e-3, compile_s=0.5))
    assert v["verdict"] == "not-worth-it" and v["break_even_calls"] == "never"
    assert "slower" in v["reasons"][0]


def test_break_even_past_the_limit_is_not_worth_it():
    m = mode(EAGER, 2.39e-3, 0.04e-3, compile_s=60.0)  # 86,957 calls to pay back
    assert assess(EAGER, m)["verdict"] == "not-worth-it"
    assert assess(EAGER, m, max_calls=100_000)["verdict"] == "worth-it"
    assert "86,957 calls" in assess(EAGER, m)["reasons"][0]


def test_failed_or_untimed_modes_have_no_verdict():
    assert assess(EAGER, ModeResult(mode="default", backend="inductor", ok=False, error="boom")) is None
    assert assess(None, mode(EAGER, 2e-3, 1e-5, 1.0)) is None


def test_best_prefers_the_fastest_worth_it_mode():
    fast_but_slow_to_pay = assess(EAGER, mode(EAGER, 1.0e-3, 0.01e-3, compile_s=600.0))
    ok = assess(EAGER, mode(EAGER, 2.0e-3, 0.01e-3, compile_s=1.0))
    b = best({"max-autotune": fast_but_slow_to_pay, "default": ok, "reduce-overhead": None})
    assert b["mode"] == "default" and b["verdict"] == "worth-it"
    assert best({"default": fast_but_slow_to_pay})["mode"] == "default"
    assert best({}) is None
