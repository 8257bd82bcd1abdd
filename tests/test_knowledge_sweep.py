"""benchmarks/knowledge_sweep.py writes one compiled function per case and maps each case to
its lines; a wrong map would pair one call's finding with another call's break. The module
it writes parses, every case's statements sit in its span, and one case runs end to end:
a call Dynamo breaks on (`F.ctc_loss`) that the static pass reports."""

import ast
import importlib.util
import os
import sys

import pytest

BENCH = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "knowledge_sweep.py")


def _sweep():
    spec = importlib.util.spec_from_file_location("knowledge_sweep", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_case_is_its_own_function_on_its_own_lines(tmp_path):
    sweep = _sweep()
    path, spans = sweep.write_module(str(tmp_path))
    tree = ast.parse(open(path).read())
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(spans) == set(sweep.CASES)
    for name, span in spans.items():
        fn = functions[f"f_{name}"]
        body = [stmt for stmt in fn.body if not isinstance(stmt, ast.Return)]
        assert body[0].lineno == span.start, name
        assert max(stmt.end_lineno for stmt in body) == span.stop - 1, name


def test_a_case_is_judged_by_dynamo_and_by_the_linter(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    sweep = _sweep()
    monkeypatch.setattr(sweep, "CASES", {"ctc": sweep.CASES["ctc_loss"], "mean": "y = x.mean() * 2"})
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    path, spans = sweep.write_module(str(tmp_path))
    monkeypatch.setattr(sys, "path", list(sys.path))
    sys.modules.pop("sweep_cases", None)
    breaks = sweep.dynamo(path)
    found = sweep.linter(path)
    assert {gb for line, gb in breaks["ctc"] if line in spans["ctc"]} == {"GB0036"}
    assert not breaks["mean"]
    assert {code for line, code in found if line in spans["ctc"]} == {"CL120"}
    assert not [code for line, code in found if line in spans["mean"]]
