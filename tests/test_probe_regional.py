"""Regional compilation, measured (issue 20, item 4): on CPU with real inductor, a model
with a ModuleList of blocks gets "compile each block" timed beside "compile the whole
module"; a model without repeated blocks gets no regional entry."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

QUICK = {"runs": 5, "warmup": 1, "min_time": 0.05, "warmup_time": 0.02}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    specs = ["blocks.py:stack", "blocks.py:flat"]
    return {r.name.split(":")[1]: r for r in cached_run(tmp_path_factory, "regional", specs, timeout=400, **QUICK)}


def test_block_stacks_are_found_outermost_and_nested():
    import blocks

    from compilelint.probe.regional import find_block_stacks

    (s,) = find_block_stacks(blocks.Stack())
    assert (s.path, s.block_class, s.count) == ("layers", "blocks.Block", 3)
    (s,) = find_block_stacks(blocks.Nested())  # encoder.layer; the Sequential of bare layers is no stack
    assert (s.path, s.count) == ("encoder.layer", 2)
    assert find_block_stacks(blocks.Flat()) == []


def test_each_block_compiled_is_timed_against_the_whole_module(results):
    r = results["stack"]
    assert r.status == "ok", r.error
    g = r.regional
    assert r.regional_error is None
    assert g is not None and g.status == "ok", g and g.error
    assert [(s.path, s.count) for s in g.stacks] == [("layers", 3)]
    assert g.mode == r.timing.modes[0].mode
    assert g.eager_median_s == r.timing.eager.median_s
    for which in ("whole", "regional"):
        assert getattr(g, f"{which}_compile_s") > 0
        assert getattr(g, f"{which}_median_s") > 0
        assert getattr(g, f"{which}_outputs_match") is True
        assert getattr(g, f"{which}_max_rel_diff") < 1e-3
    assert g.compile_saved_s == pytest.approx(g.whole_compile_s - g.regional_compile_s)
    # the blocks compiled in place were put back: the module calls its own forward again
    assert "regional" in r.durations


def test_no_repeated_blocks_no_regional_entry(results):
    r = results["flat"]
    assert r.status == "ok", r.error
    assert r.timing is not None and r.timing.modes[0].ok
    assert r.regional is None and r.regional_error is None
    assert "regional" not in r.durations


def test_reports_carry_regional(results, tmp_path):
    from compilelint.probe.output import probe_document, render_sarif, render_text

    rs = list(results.values())
    doc = json.loads(json.dumps(probe_document(rs, [])))
    by = {t["name"].split(":")[1]: t for t in doc["targets"]}
    g = by["stack"]["regional"]
    assert g["status"] == "ok" and g["blocks"] == 3 and g["stacks"][0]["path"] == "layers"
    assert g["whole"]["outputs_match"] is True and g["regional"]["outputs_match"] is True
    assert g["regional"]["median_ms"] == pytest.approx(results["stack"].regional.regional_median_s * 1000, rel=1e-5)
    assert by["flat"]["regional"] is None
    sarif = json.loads(render_sarif(rs, [], root=str(tmp_path)))
    props = sarif["runs"][0]["properties"]["probe"]["targets"]
    assert any(t["regional"] and t["regional"]["blocks"] == 3 for t in props)
    text = render_text(rs, [])
    assert "regional compilation" in text and "3 × Block in layers" in text
    assert "each block" in text and "whole module" in text


def test_regional_result_round_trips_and_a_failure_is_a_line():
    from compilelint.probe.regional import BlockStack, RegionalResult

    g = RegionalResult(status="skipped", error="not enough time left", stacks=[BlockStack("layers", "m.B", 4)])
    back = RegionalResult.from_dict(json.loads(json.dumps(g.to_dict())))
    assert back == g and back.blocks == 4 and back.compile_saved_s is None


def test_a_compile_error_in_the_blocks_is_a_failed_line_not_an_exception():
    import torch

    import blocks
    from compilelint.probe.regional import measure_regional
    from compilelint.probe.request import ProbeOptions

    m, (x,) = blocks.stack()
    res = measure_regional(m, (x,), {}, ProbeOptions(backend="no-such-backend", runs=2, min_time=0.01),
                           device="cpu")
    assert res.status in ("failed", "skipped") and "no-such-backend" in (res.error or "")
    assert all(getattr(b, "_compiled_call_impl", None) is None for b in m.layers)
    assert torch.equal(m(x), m(x))
