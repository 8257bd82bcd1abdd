"""Latency vs throughput (issue 20, "what speedup means"): on a GPU both are measured
and the worth-it verdict uses latency; on a CPU they are one number, measured once."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from compilelint.probe.measure import Stats, latency_differs, time_latency  # noqa: E402
from compilelint.probe.timing import ModeResult, TimingResult  # noqa: E402
from compilelint.probe.worth import assess_timed, sentence  # noqa: E402


def stats(median: float) -> Stats:
    return Stats(n=30, median_s=median, mean_s=median, min_s=median * 0.98, max_s=median * 1.02,
                 stdev_s=median * 0.01, p25_s=median * 0.99, p75_s=median * 1.01)


def test_latency_is_measured_apart_only_where_launches_are_asynchronous():
    assert latency_differs("cuda") and latency_differs("cuda:1")
    assert not latency_differs("cpu")


def test_time_latency_takes_one_sample_per_waited_call():
    calls = []
    t = time_latency(lambda: calls.append(1), device="cpu", runs=7, min_time_s=0.0)
    assert t.calls_per_sample == 1 and len(t.samples) == 7 == len(calls)
    assert all(s >= 0 for s in t.samples)


def test_the_verdict_uses_latency_where_it_was_measured():
    # as on the H100: 1.45× back to back, 0.82× waiting for each call
    mode = ModeResult(mode="default", backend="inductor", stats=stats(1.0e-3), latency=stats(2.2e-3),
                      compile_s=4.0, speedup=1.45)
    gpu = TimingResult(device="cuda", device_name="H100", train=False, warmup=3, runs=30,
                       eager=stats(1.45e-3), eager_latency=stats(1.8e-3), modes=[mode])
    v = assess_timed(gpu, mode)
    assert v["timing"] == "latency" and v["verdict"] == "not-worth-it"
    assert v["speedup"] == pytest.approx(1.8 / 2.2)
    assert v["break_even_calls"] == "never" and "(latency)" in sentence(v)
    # throughput alone would have said worth it
    mode.latency = None
    v = assess_timed(gpu, mode)
    assert v["timing"] == "throughput" and v["verdict"] == "worth-it"
    assert v["break_even_calls"] == 8_889  # ceil(4 s / 0.45 ms)


def test_cpu_timing_is_measured_once_and_reported_as_one_number():
    import torch

    from compilelint.probe.output import probe_document, render_text
    from compilelint.probe.runner import TargetResult
    from compilelint.probe.timing import run_timing

    lin = torch.nn.Linear(8, 8).eval()
    tr = run_timing(lin, (torch.randn(2, 8),), {}, device="cpu", modes=["default"], backend="eager",
                    warmup=1, runs=3, min_time_s=0.01, warmup_s=0.0)
    assert tr.eager is not None and tr.eager_latency is None
    (m,) = tr.modes
    assert m.ok and m.stats is not None and m.latency is None
    v = assess_timed(tr, m)
    assert v["timing"] == "per-call" and "(" not in sentence(v).split("×")[0]
    m.worth_it = v
    r = TargetResult(target="t", name="t", status="ok", device="cpu", timing=tr)
    t = json.loads(json.dumps(probe_document([r], [])))["targets"][0]["timing"]
    assert t["latency_measured"] is False and t["eager_latency"] is None
    assert t["modes"][0]["latency"] is None and t["modes"][0]["latency_speedup"] is None
    assert t["modes"][0]["worth_it"]["timing"] == "per-call"
    text = render_text([r], [])
    assert "both latency and throughput" in text and "latency ms" not in text


def test_gpu_latency_in_the_reports():
    from compilelint.probe.output import probe_document, render_text
    from compilelint.probe.runner import TargetResult

    mode = ModeResult(mode="default", backend="inductor", stats=stats(1.0e-3), latency=stats(2.2e-3),
                      compile_s=4.0, speedup=1.45)
    tr = TimingResult(device="cuda", device_name="H100", train=False, warmup=3, runs=30,
                      eager=stats(1.45e-3), eager_latency=stats(1.8e-3), modes=[mode])
    mode.worth_it = assess_timed(tr, mode)
    back = TimingResult.from_dict(json.loads(json.dumps(tr.to_dict())))
    assert back.eager_latency == tr.eager_latency and back.modes[0].latency == mode.latency
    r = TargetResult(target="t", name="t", status="ok", device="cuda", timing=back)
    r.timing.modes[0].worth_it = mode.worth_it
    t = json.loads(json.dumps(probe_document([r], [])))["targets"][0]
    assert t["timing"]["latency_measured"] is True
    assert t["timing"]["eager_latency_median_ms"] == pytest.approx(1.8)
    assert t["timing"]["modes"][0]["latency_median_ms"] == pytest.approx(2.2)
    assert t["timing"]["modes"][0]["latency_speedup"] == pytest.approx(1.8 / 2.2, rel=1e-4)
    assert t["timing"]["modes"][0]["speedup"] == pytest.approx(1.45)
    assert t["worth_it"]["timing"] == "latency"
    text = render_text([r], [])
    assert "latency ms (each call waited for): eager 1.80, default 2.20 (0.82×)" in text
    assert "the worth-it verdict uses latency" in text
