"""The pre-commit hook, for real, in a throwaway git repository: `pre-commit try-repo`
(which installs the hook from this repository's HEAD commit into a fresh environment
each time, about 30 s with PyPI), and `pre-commit run` with a `.pre-commit-config.yaml`
naming this repository and commit, as users configure it (installed once into a store
shared by the session's tests and xdist workers)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO

BAD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        return eval("x")
"""
GOOD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _clean_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid",
               GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1", **extra)
    env.pop("FORCE_COLOR", None)
    return env


@pytest.fixture(scope="session")
def precommit_home(tmp_path_factory):
    # One store for the whole session; with xdist, the workers share the parent folder
    # (pre-commit locks its store, so concurrent installs wait for each other).
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    home = base / "pre-commit-home"
    home.mkdir(exist_ok=True)
    return home


@pytest.fixture(scope="session")
def head():
    result = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                            env=_clean_env({}))
    if result.returncode != 0:
        pytest.fail(f"{REPO} is not a git checkout: {result.stderr}")
    tracked = subprocess.run(["git", "cat-file", "-e", "HEAD:.pre-commit-hooks.yaml"], cwd=REPO,
                             env=_clean_env({}))
    assert tracked.returncode == 0, ".pre-commit-hooks.yaml is not committed: commit before testing"
    return result.stdout.strip()


@pytest.fixture
def throwaway(tmp_path, precommit_home, head):
    """A git repository with one bad and one good file, committed; returns run(args)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    env = _clean_env({"PRE_COMMIT_HOME": str(precommit_home)})

    def git(*args):
        result = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result

    def write(name, source):
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")

    def run(*args):
        """`pre-commit run compilelint ARGS` with the config below."""
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "compilelint", "--color", "never", *args],
            cwd=repo, env=env, capture_output=True, text=True, timeout=600,
        )

    def try_repo(*args):
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "compilelint", "--ref", head,
             "--color", "never", *args],
            cwd=repo, env=env, capture_output=True, text=True, timeout=600,
        )

    git("init", "-q")
    write("bad.py", BAD)
    write("good.py", GOOD)
    write(".pre-commit-config.yaml", f"""
        repos:
          - repo: {REPO.as_posix()}
            rev: {head}
            hooks:
              - id: compilelint
    """)
    git("add", "bad.py", "good.py", ".pre-commit-config.yaml")
    git("commit", "-q", "-m", "init")
    run.repo, run.git, run.write, run.try_repo = repo, git, write, try_repo
    return run


def test_hook_definition():
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "compilelint" and hook["name"]
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi"]
    assert hook["require_serial"] is True
    assert hook["entry"] == "compilelint check --force-exclude"


def test_try_repo_fails_on_the_bad_file(throwaway):
    result = throwaway.try_repo("--files", "bad.py", "good.py")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "compilelint" in out and "Failed" in out
    assert "bad.py:5:16: CL101" in out
    assert "good.py:" not in out


def test_hook_fails_on_the_bad_file_and_passes_on_the_good_one(throwaway):
    result = throwaway("--files", "bad.py", "good.py")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "Failed" in out and "bad.py:5:16: CL101" in out and "good.py:" not in out

    result = throwaway("--files", "good.py")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "Passed" in out


def test_hook_checks_what_is_staged(throwaway):
    throwaway.write("good.py", GOOD + "\n\ndef helper(x):\n    return x + 1\n")
    throwaway.git("add", "good.py")
    result = throwaway()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout

    throwaway.write("models/new.py", BAD)
    throwaway.git("add", "models/new.py")
    result = throwaway()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "models/new.py:5:16: CL101" in result.stdout
    assert "bad.py:" not in result.stdout.replace("models/new.py", "")  # unchanged files are not passed


def test_hook_respects_excludes_and_file_types(throwaway):
    throwaway.write("pyproject.toml", '[tool.compilelint]\nextend-exclude = ["vendor"]\n')
    throwaway.write("vendor/third_party.py", BAD)
    throwaway.write("stubs/gate.pyi", BAD)
    throwaway.write("notes.txt", BAD)
    throwaway.git("add", ".")
    result = throwaway("--files", "vendor/third_party.py", "notes.txt")
    assert result.returncode == 0, result.stdout + result.stderr  # excluded even when passed by name

    result = throwaway("--files", "notes.txt")
    assert result.returncode == 0 and "no files to check" in result.stdout

    result = throwaway("--files", "stubs/gate.pyi")
    assert result.returncode == 1 and "stubs/gate.pyi:5:16: CL101" in result.stdout
