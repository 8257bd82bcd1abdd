"""The timing probe: real inductor on CPU for one tiny target, eager backend for --train."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe.runner import run_target  # noqa: E402
from compilelint.probe.targets import parse_target  # noqa: E402
from compilelint.probe.timing import summarize  # noqa: E402


@pytest.fixture(scope="module")
def timed(tmp_path_factory):
    (r,) = cached_run(tmp_path_factory, "timed", ["tiny.py:pointwise"], timeout=400,
                      device="cpu", modes=["default"], backend="inductor", warmup=2, runs=15)
    return r


def test_inductor_timing_on_cpu(timed):
    assert timed.status == "ok", timed.error
    t = timed.timing
    assert t.device == "cpu" and t.device_name.startswith("CPU")
    assert t.eager is not None and t.eager.n >= 15 and t.eager.median_s > 0
    assert t.eager.warmup_calls >= 2 and t.eager.calls_per_sample >= 1
    (m,) = t.modes
    assert m.ok, m.error
    assert m.mode == "default" and m.backend == "inductor"
    assert m.stats.n >= 15 and m.stats.median_s > 0
    # the first call compiled: it took far longer than a steady-state call
    assert m.first_call_s > 10 * m.stats.median_s
    assert m.compile_s > 0
    assert m.speedup == pytest.approx(t.eager.median_s / m.stats.median_s)
    if m.never_breaks_even:
        assert m.break_even_calls is None and m.saved_per_call_s <= 0
    else:
        saved = t.eager.median_s - m.stats.median_s
        assert m.break_even_calls == math.ceil(m.compile_s / saved)
    # same maths, same answer
    assert m.max_abs_diff is not None and m.max_abs_diff < 1e-3
    assert m.max_rel_diff is not None and m.max_rel_diff < 1e-5
    if t.memory_kind:
        assert t.eager_peak_mem_bytes > 0 and m.peak_mem_bytes > 0
    assert timed.fullgraph_ok is True


def test_train_times_forward_and_backward():
    spec = parse_target("tiny.py:mlp", base=FIXTURES)
    r = run_target(spec, timeout=200, device="cpu", backend="eager", warmup=1, runs=5, train=True)
    assert r.status == "ok", r.error
    assert r.timing.train is True
    (m,) = r.timing.modes
    assert m.ok, m.error
    assert m.backend == "eager" and m.stats.n >= 5
    assert m.max_abs_diff == 0.0


def test_time_step_blocks_short_calls():
    import time as _time

    from compilelint.probe.timing import time_step

    calls = []
    t = time_step(lambda: calls.append(1), device="cpu", warmup=3, runs=10, warmup_s=0.01,
                  min_time_s=0.05)
    assert len(t.samples) >= 10 and t.calls_per_sample > 1 and t.warmup_calls >= 3
    assert len(calls) >= t.warmup_calls + len(t.samples) * t.calls_per_sample
    slow = time_step(lambda: _time.sleep(0.003), device="cpu", warmup=1, runs=4, warmup_s=0,
                     min_time_s=0)
    assert slow.calls_per_sample == 1 and len(slow.samples) == 4
    assert all(s >= 0.003 for s in slow.samples)


def test_summarize():
    s = summarize([3.0, 1.0, 2.0, 4.0])
    assert s.median_s == 2.5 and s.min_s == 1.0 and s.max_s == 4.0
    assert s.p25_s == 1.75 and s.p75_s == 3.25
    assert s.spread == pytest.approx(1.5 / 2.5)
