"""`given:` labels against what a probe run passed (probe.entry_args): a finding that holds
only when the caller passes an argument is `condition-not-met` on a target that never
passed it, and confirmed by Dynamo on one that did. Real static pass, real probe runs,
through the CLI as a user runs `check --probe`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from compilelint.probe.entry_args import entry_arguments, given_met  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probe" / "given_targets.py"


def check_probe(tmp_path: Path, targets: list[str]) -> list[dict]:
    shutil.copy(FIXTURE, tmp_path / "given_targets.py")
    listed = ", ".join(f'"given_targets.py:{t}"' for t in targets)
    (tmp_path / "pyproject.toml").write_text(f"[tool.compilelint.probe]\ntargets = [{listed}]\ntiming = false\n")
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "given_targets.py", "--probe",
                          "--format", "json"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr[-2000:]
    return [f for f in json.loads(out.stdout)["findings"] if f["code"] in ("CL150", "CL102")]


def test_unpassed_argument_leaves_the_finding_unjudged(tmp_path):
    found = check_probe(tmp_path, ["plain", "wrapped"])
    assert {f["code"] for f in found} == {"CL150", "CL102"}
    for f in found:
        assert f["when"] == ["given:early_exit"]
        assert f["evidence"]["status"] == "condition-not-met", f["evidence"]
        assert "passes `early_exit`" in f["evidence"]["note"]


def test_a_target_that_passes_it_confirms_the_finding(tmp_path):
    found = check_probe(tmp_path, ["plain", "exits"])
    assert found and all(f["evidence"]["status"] == "confirmed" for f in found), found


def test_entry_arguments_bind_the_real_calls():
    import torch

    sys.path.insert(0, str(FIXTURE.parent))
    import given_targets

    model, args = given_targets.plain()
    entry = entry_arguments(model, [(args, {}), (args, {"early_exit": 0})])
    assert entry["qualname"] == "Looped.forward" and entry["file"] == str(FIXTURE)
    assert entry["params"]["early_exit"] == ["passed", "not_none"]  # passed, not None, but falsy
    assert given_met("given:early_exit", entry["params"]) is False
    assert given_met("given:early_exit!=None", entry["params"]) is True
    assert given_met("given:self.norm|early_exit", entry["params"]) is None
    wrapped, args = given_targets.wrapped()
    assert entry_arguments(wrapped, [(args, {"early_exit": True})])["params"]["early_exit"] == \
        ["passed", "not_none", "truthy"]
    assert entry_arguments(torch.nn.Linear(2, 2), [((1, 2, 3), {})]) is None  # cannot bind: no facts
