"""What-if re-timing, on CPU with real inductor (small targets): each applicable knob
re-captured and re-timed; a knob that fails, a worker killed mid-what-if, too little
time left: each a line of the result, the target's other results standing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from filelock import FileLock  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "probe"))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe.knobs import knob_for, knobs_for  # noqa: E402

TARGETS = '''\
import os
import signal

import torch
from torch import nn


class ScaleByItem(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(32, 32)

    def forward(self, x):
        h = self.lin(x)
        s = h.abs().max().item()  # ITEM
        return torch.relu(h) / (s + 1.0)


class DiesUnderKnob(ScaleByItem):
    def forward(self, x):
        if torch._dynamo.config.capture_scalar_outputs:
            os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
        return super().forward(x)


def scale_by_item():
    torch.manual_seed(0)
    return ScaleByItem().eval(), (torch.randn(8, 32),)


def dies_under_knob():
    torch.manual_seed(0)
    return DiesUnderKnob().eval(), (torch.randn(8, 32),)
'''

QUICK = {"runs": 5, "warmup": 1, "min_time": 0.05, "warmup_time": 0.02}


@pytest.fixture(scope="module")
def target_file(tmp_path_factory) -> Path:
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    path = root / "whatif_targets.py"
    with FileLock(str(path) + ".lock"):
        if not path.exists():
            path.write_text(TARGETS)
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory, target_file):
    specs = [f"{target_file}:scale_by_item", f"{target_file}:dies_under_knob"]
    return {r.name.split(":")[1]: r for r in cached_run(tmp_path_factory, "whatif", specs, timeout=400, **QUICK)}


def test_the_knob_that_removes_the_break_is_retimed(results):
    r = results["scale_by_item"]
    assert r.status == "ok", r.error
    (w,) = r.what_if
    assert w.knob == "capture_scalar_outputs" and w.status == "ok", w.error
    assert (w.breaks_before, w.breaks_after, w.breaks_removed) == (1, 0, 1)
    today = next(m for m in r.timing.modes if m.mode == w.mode)
    assert w.median_s > 0
    assert w.speedup_vs_compiled == pytest.approx(today.stats.median_s / w.median_s)
    assert w.speedup_vs_eager == pytest.approx(r.timing.eager.median_s / w.median_s)
    assert w.outputs_match is True and w.max_rel_diff < 1e-3


def test_a_worker_killed_during_what_if_is_a_line_not_a_failed_target(results):
    r = results["dies_under_knob"]
    assert r.status == "ok", r.error  # capture and timing stand
    assert r.timing is not None and r.timing.modes and r.timing.modes[0].ok
    assert [b.line for b in r.breaks]
    (w,) = r.what_if
    assert w.status == "failed" and "SIGKILL" in w.error


def test_json_report_carries_what_if_and_worth_it(results):
    from compilelint.probe.match import findings_from_results
    from compilelint.probe.output import probe_document
    from compilelint.probe.roi_report import attach_what_if

    rs = list(results.values())
    findings = findings_from_results(rs)
    attach_what_if(findings, rs)
    doc = json.loads(json.dumps(probe_document(rs, findings)))
    t = next(t for t in doc["targets"] if t["name"].endswith(":scale_by_item"))
    (entry,) = t["what_if"]
    for key in ("knob", "breaks_removed", "median_ms", "speedup_vs_compiled", "speedup_vs_eager", "outputs_match"):
        assert key in entry
    assert entry["median_ms"] == pytest.approx(results["scale_by_item"].what_if[0].median_s * 1000, rel=1e-5)
    assert t["worth_it"]["verdict"] in ("worth-it", "not-worth-it")
    assert t["timing"]["modes"][0]["worth_it"]["max_calls"] == 10_000
    item = next(f for f in doc["findings"] if f["path"].endswith("whatif_targets.py") and
                f["evidence"]["target"].endswith(":scale_by_item"))
    assert item["evidence"]["what_if"]["knob"] == "capture_scalar_outputs"


def test_text_and_plot_show_what_if(results, tmp_path):
    from compilelint.probe.output import render_text
    from compilelint.probe.plot import write_plot

    text = render_text(list(results.values()), [])
    assert "what if" in text and "capture_scalar_outputs" in text and "SIGKILL" in text
    assert "worth it" in text
    svg = tmp_path / "p.svg"
    write_plot(list(results.values()), str(svg))
    assert "what if capture_scalar_outputs" in svg.read_text()


def test_no_what_if_skips_it(target_file, tmp_path):
    out = tmp_path / "p.json"
    proc = subprocess.run(
        [sys.executable, "-m", "compilelint", "probe", f"{target_file}:scale_by_item", "--config-free",
         "--no-what-if", "--runs", "3", "--warmup", "1", "--min-time", "0.02", "--format", "json", "-o", str(out)],
        capture_output=True, text=True, timeout=400, cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr
    (t,) = json.loads(out.read_text())["targets"]
    assert t["timing"]["modes"][0]["ok"] and t["what_if"] == []


def test_knob_classes_on_real_breaks():
    """Dynamo's own reasons for each class, from a real capture."""
    import torch

    from compilelint.probe.capture import capture

    def f(x):
        if x.sum() > 0:  # data-dependent branch: no knob removes it
            x = x + 1
        s = x.max().item()
        print("max", s)
        idx = (x > 0).nonzero()
        return x * s, idx

    cap = capture(f, (torch.randn(8),))
    got = {b.line - f.__code__.co_firstlineno: knob_for(b.kind, b.reason, b.gb_id)
           for b in cap.breaks if b.kind == "graph_break"}
    assert got == {1: None, 3: "capture_scalar_outputs", 4: "reorderable_logging_functions",
                   5: "capture_dynamic_output_shape_ops"}
    assert knobs_for(cap.breaks) == ["capture_scalar_outputs", "capture_dynamic_output_shape_ops",
                                     "reorderable_logging_functions", "all"]
    assert knob_for("recompile", "guard failed: size mismatch") == "dynamic"


def test_each_failure_is_a_line(tmp_path):
    """An unknown knob, and a knob with too little time left, next to one that runs."""
    import time

    import torch

    from compilelint.probe.timing import run_timing
    from compilelint.probe.whatif import run_what_ifs

    def f(x):
        return torch.relu(x).sum().item() + x.mean()

    x = torch.randn(16)
    tr = run_timing(f, (x,), {}, device="cpu", modes=["default"], runs=3, warmup=1, min_time_s=0.01,
                    warmup_s=0.01)
    calls = [((x,), {})]
    common = dict(breaks_before=1, timing=tr, backend="inductor", warmup=1, runs=3, train=False,
                  dtype="float32", min_time_s=0.01, warmup_s=0.01)
    out = run_what_ifs(f, calls, ["no_such_knob", "capture_scalar_outputs"], deadline=None, estimate_s=1.0,
                       **common)
    assert out[0].status == "failed" and "unknown knob" in out[0].error
    assert out[1].status == "ok" and out[1].breaks_removed == 1, out[1].error
    late = run_what_ifs(f, calls, ["capture_scalar_outputs"], deadline=time.monotonic() + 5, estimate_s=60,
                        **common)
    assert late[0].status == "skipped" and "timeout" in late[0].error
