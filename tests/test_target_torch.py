"""Which torch release the rules follow: `target-torch`, else the installed torch read from
its metadata (a real `torch-X.dist-info` folder put first on the subprocess's path; torch
is never imported), capped at the newest release the knowledge is confirmed on, with a
one-line notice (stderr, JSON, SARIF) when the release asked for is newer."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from cli_helpers import check_json, hits, make_project, sarif_schema
from compilelint import config as config_mod
from conftest import run_cli

NEWEST = config_mod.SUPPORTED_TORCH[1]

# copy.deepcopy of a dict breaks before 2.13 (CL114); `random.shuffle` before 2.14 (CL119)
SOURCE = """
import copy
import random

import torch


class M(torch.nn.Module):
    def forward(self, x):
        options = copy.deepcopy({"scale": 2})
        random.shuffle(self.order)
        return x * options["scale"]
"""


def installed(tmp_path, version: str) -> dict:
    """An environment whose first path entry holds `torch-<version>.dist-info`."""
    site = tmp_path / f"site-{version}"
    info = site / f"torch-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n", encoding="utf-8")
    return {"PYTHONPATH": os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}


@pytest.fixture
def proj(tmp_path):
    folder = tmp_path / "proj"
    make_project(folder, {"pyproject.toml": "[tool.compilelint]\n", "m.py": SOURCE})
    return folder


def test_follows_the_installed_release(tmp_path, proj):
    document, result = check_json(cwd=proj, expect_rc=1, env=installed(tmp_path, "2.11.0+cu130"))
    assert document["target_torch"] == "2.11" and document["target_torch_notice"] is None
    assert hits(document) == {("m.py", 9, "CL114"), ("m.py", 10, "CL119")}
    assert "notice" not in result.stderr
    document, result = check_json(cwd=proj, expect_rc=0, env=installed(tmp_path, "2.14.1"))
    assert document["target_torch"] == "2.14" and document["target_torch_notice"] is None
    assert hits(document) == set()  # 2.13 traces the deepcopy, 2.14 the shuffle
    assert "notice" not in result.stderr


def test_a_newer_installed_release_is_checked_as_the_newest_confirmed_and_said(tmp_path, proj):
    env = installed(tmp_path, "2.17.0")
    document, result = check_json(cwd=proj, expect_rc=0, env=env)
    assert document["target_torch"] == NEWEST
    notice = document["target_torch_notice"]
    assert "2.17.0" in notice and f"the rules follow torch {NEWEST}" in notice
    lines = [line for line in result.stderr.splitlines() if "notice" in line]
    assert lines == [f"compilelint: notice: {notice}"]
    sarif = run_cli("check", "--no-cache", "--format", "sarif", cwd=proj, env=env)
    assert sarif.returncode == 0, sarif.stderr
    log = json.loads(sarif.stdout)
    jsonschema.validate(log, sarif_schema(), format_checker=jsonschema.FormatChecker())
    run = log["runs"][0]
    assert run["properties"]["targetTorch"] == NEWEST and run["properties"]["targetTorchNotice"] == notice
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [(n["level"], n["descriptor"]["id"], n["message"]["text"]) for n in notes] == [("note", "target-torch", notice)]


def test_target_torch_wins_over_the_installed_release(tmp_path, proj):
    env = installed(tmp_path, "2.17.0")
    document, result = check_json("--target-torch", "2.11", cwd=proj, expect_rc=1, env=env)
    assert document["target_torch"] == "2.11" and document["target_torch_notice"] is None
    assert "notice" not in result.stderr
    # a newer target-torch than confirmed is not an error either: checked as the newest, said
    document, result = check_json("--target-torch", "2.16", cwd=proj, expect_rc=0, env=env)
    assert document["target_torch"] == NEWEST and "target-torch is 2.16" in document["target_torch_notice"]


def test_resolution_in_process():
    newest = config_mod.parse_version(NEWEST)
    assert config_mod.resolve_torch(config_mod.Settings(target_torch="2.9")).version == (2, 9)
    target = config_mod.resolve_torch(config_mod.Settings(target_torch="3.0"))
    assert target.version == newest and target.source == "target-torch" and "3.0" in target.notice
    assert config_mod.resolve_torch(config_mod.Settings(target_torch=NEWEST)).notice is None


def test_a_plain_check_message_breaks_only_before_2_14(tmp_path):
    """CL156: `torch._check(cond, "text")` breaks on 2.13 (GB9840), not on 2.14; a message
    closure over a tensor's shape breaks on both (GB9158). Both measured (fixtures/corpus/
    cf_check_message_01.py)."""
    folder = tmp_path / "checks"
    make_project(folder, {"pyproject.toml": "[tool.compilelint]\n", "m.py": (
        "import torch\n"
        "class M(torch.nn.Module):\n"
        "    def forward(self, q: torch.Tensor, k: torch.Tensor):\n"
        "        torch._check(q.dtype == k.dtype, 'dtypes must match')\n"
        "        torch._check(q.shape == k.shape, lambda: f'{q.shape} vs {k.shape}')\n"
        "        return q + k\n")})
    old, _ = check_json("--target-torch", "2.13", cwd=folder, expect_rc=1)
    new, _ = check_json("--target-torch", "2.14", cwd=folder, expect_rc=1)
    assert {(line, code) for _, line, code in hits(old)} == {(4, "CL156"), (5, "CL156")}
    assert {(line, code) for _, line, code in hits(new)} == {(5, "CL156")}
