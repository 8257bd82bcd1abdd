"""Every probe output format: text (rich), JSON, SARIF 2.1.0, SVG/HTML plot."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe import output  # noqa: E402
from compilelint.probe.match import findings_from_results  # noqa: E402
from compilelint.probe.plot import PlotError, render_html, render_svg, write_plot  # noqa: E402

BROKEN = ["gated_mlp.py:broken", "decoder.py:broken", "postprocess.py:broken"]
FIXED = ["gated_mlp.py:fixed", "decoder.py:fixed", "postprocess.py:fixed"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    # the same runs (same cache keys) as test_probe_match / test_probe_timing / test_probe_runner
    bundled = cached_run(tmp_path_factory, "bundled", BROKEN + FIXED, timeout=240, timing=False)
    timed = cached_run(tmp_path_factory, "timed", ["tiny.py:pointwise"], timeout=400,
                       device="cpu", modes=["default"], backend="inductor", warmup=2, runs=15)
    failed = cached_run(tmp_path_factory, "faults",
                        [f"faults.py:{n}" for n in ("raises", "raises_in_factory", "aborts", "segfaults",
                                                    "memory_error", "exits", "not_a_factory_result",
                                                    "no_args")] + ["faults:ok", "tiny.py:with_kwargs"],
                        timeout=120, timing=False)
    raised = [r for r in failed if r.target == "faults.py:raises"]
    return bundled[:1] + bundled[1:3] + timed + raised


def sarif_schema():
    for path in (REPO.parent / "shared/schemas/sarif-schema-2.1.0.json",
                 REPO / "tests/data/sarif-schema-2.1.0.json"):
        if path.is_file():
            return json.loads(path.read_text())
    pytest.skip("no SARIF schema here")


def test_text(results):
    text = output.render_text(results, findings_from_results(results), width=160)
    assert "gated_mlp.py:broken" in text and "tiny.py:pointwise" in text
    assert "graph break" in text and "frame skip" in text and "recompile" in text
    assert "gated_mlp.py:" in text  # break locations
    assert "GB0124" in text or "item" in text
    assert "timed on CPU" in text and "speedup" in text and "break-even" in text
    assert "target failed: RuntimeError: the target raised on purpose" in text
    assert "fullgraph=True fails" in text and "fullgraph=True compiles" in text
    assert "5 targets: 4 ok, 1 failed" in text


def test_json(results):
    findings = findings_from_results(results)
    doc = json.loads(output.render_json(results, findings))
    assert doc["version"] == 2 and doc["tool"]["command"] == "probe"
    assert doc["device"] == "cpu"
    s = doc["summary"]
    assert s["targets"] == 5 and s["failed"] == 1
    assert s["graph_breaks"] >= 7 and s["recompiles"] >= 1 and s["frame_skips"] >= 1
    by = {t["name"]: t for t in doc["targets"]}
    gm = by["gated_mlp.py:broken"]
    assert gm["status"] == "ok" and gm["counts"]["graph_break"] == 4 and gm["fullgraph"] is False
    assert all(b["path"] and b["line"] and b["reason"] for b in gm["breaks"])
    tm = by["tiny.py:pointwise"]["timing"]
    (mode,) = tm["modes"]
    assert mode["mode"] == "default" and mode["speedup"] > 0 and mode["compile_s"] > 0
    assert mode["break_even_calls"] == "never" or isinstance(mode["break_even_calls"], int)
    assert tm["eager_median_ms"] > 0 and mode["median_ms"] > 0
    assert by["faults.py:raises"]["status"] == "failed"
    assert "the target raised on purpose" in by["faults.py:raises"]["error"]
    assert {f["code"] for f in doc["findings"]} == {"CL901", "CL902", "CL903"}


def test_sarif_is_valid_and_carries_probe_evidence(results):
    jsonschema = pytest.importorskip("jsonschema")
    findings = findings_from_results(results)
    log = json.loads(output.render_sarif(results, findings, root=str(REPO)))
    jsonschema.validate(log, sarif_schema())
    run = log["runs"][0]
    res = run["results"]
    assert len(res) == len(findings)
    item = [r for r in res if "item" in r["message"]["text"]]
    assert item
    loc = item[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("fixtures/probe/gated_mlp.py")
    assert loc["region"]["startLine"] == next(
        i for i, t in enumerate((FIXTURES / "gated_mlp.py").read_text().splitlines(), 1) if "# BREAK: CL103" in t)
    assert "item" in json.dumps(item[0].get("properties", {}))
    assert {r["ruleId"] for r in res} == {"CL901", "CL902", "CL903"}
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any("target failed" in n["message"]["text"] for n in notes)
    assert run["properties"]["probe"]["targets"]


def test_svg_plot(results, tmp_path):
    svg = render_svg(results)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    rects = [e for e in root.iter() if e.tag.endswith("rect")]
    assert len(rects) >= 3  # background + eager + compiled
    assert "tiny.py:pointwise" in svg and "compiled (default)" in svg and "eager" in svg
    assert "target failed" in svg  # the failed target is shown, not dropped
    assert "http://" not in svg.replace("http://www.w3.org/2000/svg", "")  # self-contained
    out = tmp_path / "p.svg"
    write_plot(results, str(out))
    assert out.read_text() == svg


def test_html_plot(results, tmp_path):
    page = render_html(results)
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<table>" in page
    assert "<script" not in page and "src=" not in page
    out = tmp_path / "p.html"
    write_plot(results, str(out))
    assert out.read_text() == page


def test_plot_formats(results, tmp_path):
    with pytest.raises(PlotError):
        write_plot(results, str(tmp_path / "p.gif"))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(PlotError, match="matplotlib"):
            write_plot(results, str(tmp_path / "p.png"))
    else:
        write_plot(results, str(tmp_path / "p.png"))
        assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_path_shows_installed_libraries_from_their_package(tmp_path):
    from compilelint.probe.output import table_path

    lib = "/opt/venv/lib/python3.12/site-packages/transformers/models/gpt2/modeling_gpt2.py"
    assert table_path(lib, str(tmp_path)) == "transformers/models/gpt2/modeling_gpt2.py"
    mine = tmp_path / "pkg" / "model.py"
    assert table_path(str(mine), str(tmp_path)) == "pkg/model.py"
    assert table_path("/elsewhere/model.py", str(tmp_path)) == "/elsewhere/model.py"
