"""`compilelint daemon`: a real daemon process; `check` through it gives what `check`
gives without it, and the command line then imports neither click's command nor libcst."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_helpers import make_project
from conftest import run_cli

HELPERS = """
def helper(x):
    print("compiled")
    return x
"""
MODEL = """
import torch
from proj.helpers import helper


class Model(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        return helper(x)
"""


@pytest.fixture
def daemon(tmp_path):
    """A daemon serving from a private folder of this test (never the user's own)."""
    env = {"COMPILELINT_DAEMON_DIR": str(tmp_path / "daemons")}
    started = run_cli("daemon", "start", "--idle", "300", env=env)
    assert started.returncode == 0, started.stderr
    yield env
    run_cli("daemon", "stop", env=env)


def served(env) -> int:
    status = run_cli("daemon", "status", env=env)
    assert status.returncode == 0, status.stdout + status.stderr
    return int(status.stdout.split(" run(s) served")[0].rsplit(" ", 1)[1])


def test_check_through_the_daemon_is_check(tmp_path, daemon):
    root = make_project(tmp_path / "repo", {"pyproject.toml": "[tool.compilelint]\n", "proj/__init__.py": "",
                                            "proj/helpers.py": HELPERS, "proj/model.py": MODEL})
    local = run_cli("check", "--format", "json", ".", cwd=root, env={"COMPILELINT_NO_DAEMON": "1"})
    before = served(daemon)
    remote = run_cli("check", "--format", "json", ".", cwd=root, env=daemon)
    assert served(daemon) == before + 1
    assert (remote.returncode, json.loads(remote.stdout)) == (local.returncode, json.loads(local.stdout))
    assert remote.returncode == 1 and json.loads(remote.stdout)["findings"]
    # its working directory, flags, output file and errors are the caller's
    remote = run_cli("check", "--format", "concise", "--select", "CL110", "-o", "out.txt", "proj", cwd=root, env=daemon)
    assert remote.returncode == 1 and remote.stdout == ""
    assert (root / "out.txt").read_text(encoding="utf-8").startswith("proj/helpers.py:2:5: CL110")
    bad = run_cli("check", "--select", "XX1", ".", cwd=root, env=daemon)
    assert bad.returncode == 2 and "XX1" in bad.stderr
    # stdin goes along
    piped = run_cli("check", "--format", "concise", "--stdin-filename", "proj/helpers.py", "-", cwd=root,
                    env=daemon, input="def helper(x):\n    return x\n")
    assert piped.returncode == 0 and piped.stdout == ""
    assert served(daemon) == before + 4


def test_a_changed_file_through_the_daemon_imports_no_libcst_here(tmp_path, daemon):
    root = make_project(tmp_path / "repo", {"pyproject.toml": "[tool.compilelint]\n", "proj/__init__.py": "",
                                            "proj/helpers.py": HELPERS, "proj/model.py": MODEL})
    (root / "proj/model.py").write_text(MODEL.lstrip() + "\n# changed\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "compilelint", "check", "--format",
                             "concise", "proj/model.py"], cwd=root, capture_output=True, text=True,
                            env=dict(os.environ, **daemon), timeout=120)
    assert result.returncode == 1 and "proj/model.py:7:12: CL102" in result.stdout
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "compilelint.daemon.client" in imported
    assert not {"libcst", "click", "compilelint.cli", "compilelint.rules"} & imported


def test_no_daemon_or_a_folder_others_may_enter_means_running_here(tmp_path):
    folder = tmp_path / "daemons"
    env = {"COMPILELINT_DAEMON_DIR": str(folder)}
    assert run_cli("daemon", "status", env=env).returncode == 1
    assert run_cli("daemon", "start", "--idle", "300", env=env).returncode == 0
    try:
        folder.chmod(0o755)  # no longer private: never used
        assert run_cli("daemon", "status", env=env).returncode == 1
        root = make_project(tmp_path / "repo", {"proj/helpers.py": HELPERS})
        assert run_cli("check", "--no-cache", ".", cwd=root, env=env).returncode == 0
        folder.chmod(0o700)
        assert served(env) == 0
    finally:
        folder.chmod(0o700)
        run_cli("daemon", "stop", env=env)
    assert run_cli("daemon", "status", env=env).returncode == 1
