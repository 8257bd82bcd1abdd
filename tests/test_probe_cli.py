"""`compilelint probe` end to end: real CLI, real worker subprocesses, real torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures" / "probe"

MODEL = '''
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x)
        print("debug", y.shape)
        return torch.relu(y)


def factory():
    return Net(), (torch.randn(2, 8),)
'''
PRINT_LINE = 12


def probe(*args, cwd, timeout=300):
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "src"), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "compilelint", "probe", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "model.py").write_text(MODEL.lstrip("\n"))
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.compilelint.probe]
        targets = ["model.py:factory"]
        timeout = 200
    """))
    assert (tmp_path / "model.py").read_text().splitlines()[PRINT_LINE - 1].strip().startswith("print")
    return tmp_path


@pytest.mark.parametrize("args, message", [
    ((), "no targets"),
    (("nope",), "expected path/to/file.py:factory"),
    (("missing.py:f",), "no such file"),
    (("x.py:f", "--plot", "out.gif"), ".svg, .html or .png"),
    (("x.py:f", "--modes", "fastest"), "unknown mode"),
])
def test_usage_errors_exit_2(tmp_path, args, message):
    (tmp_path / "x.py").write_text("def f():\n    return abs, (1,)\n")
    r = probe(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
    assert r.stdout == ""


def test_config_free_ignores_pyproject(project):
    r = probe("--config-free", cwd=project)
    assert r.returncode == 2 and "no targets" in r.stderr


def test_clean_target_json_exit_0(tmp_path):
    r = probe(f"{FIXTURES / 'faults.py'}:ok", "--no-timing", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    (t,) = doc["targets"]
    assert t["status"] == "ok" and t["breaks"] == [] and t["graph_count"] == 1 and t["fullgraph"] is True
    assert doc["findings"] == [] and t["timing"] is None


def test_config_targets_sarif_and_plot_exit_1(project):
    r = probe("--no-timing", "--format", "sarif", "-o", "out.sarif", "--plot", "plot.svg", cwd=project)
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    log = json.loads((project / "out.sarif").read_text())
    results = log["runs"][0]["results"]
    (res,) = results
    assert res["ruleId"] == "CL901" and "print" in res["message"]["text"]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "model.py"
    assert loc["region"]["startLine"] == PRINT_LINE
    svg = (project / "plot.svg").read_text()
    assert "model.py:factory" in svg and "not timed" in svg


def test_failed_target_text_exit_1(tmp_path):
    r = probe(f"{FIXTURES / 'faults.py'}:raises", "--no-timing", cwd=tmp_path)
    assert r.returncode == 1
    assert "target failed: RuntimeError: the target raised on purpose" in r.stdout
    assert "1 target: 0 ok, 1 failed" in r.stdout


def test_check_with_probe_merges_evidence(project):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "src"), env.get("PYTHONPATH")) if p)
    r = subprocess.run([sys.executable, "-m", "compilelint", "check", "--no-cache", "--format", "json",
                        "--probe", "model.py"], cwd=project, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    at_print = [f for f in doc["findings"] if f["line"] == PRINT_LINE and f["path"] == "model.py"]
    assert at_print, doc["findings"]
    assert all(f["evidence"] and f["evidence"]["status"] == "confirmed" for f in at_print)
    assert doc["probe"]["targets"][0]["name"] == "model.py:factory"
