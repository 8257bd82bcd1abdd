"""`compilelint check --stdin-filename PATH -`: the source on stdin, checked as PATH
(ruff's and black's convention), through the real command line."""

from __future__ import annotations

import json

import pytest
from cli_helpers import make_project
from conftest import run_cli

MODEL = """
import torch
from proj.helpers import helper


class Model(torch.nn.Module):
    def forward(self, x):
        return helper(x)
"""
CLEAN_HELPERS = """
def helper(x):
    return x


def elsewhere(x):
    return x
"""
PRINTING_HELPERS = """
def helper(x):
    print("in the compiled region")
    return x


def elsewhere(x):
    print("never compiled")
    return x
"""
PRINTING_MODEL = """
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        print(x.shape)
        return x
"""


@pytest.fixture
def root(tmp_path):
    return make_project(tmp_path / "repo", {
        "pyproject.toml": '[tool.compilelint]\nextend-exclude = ["generated"]\n'
                          'per-file-ignores = { "tests/*" = ["CL110"] }\n',
        "proj/__init__.py": "", "proj/model.py": MODEL, "proj/helpers.py": CLEAN_HELPERS,
    })


def stdin_check(cwd, path, source, *args, cache=False, expect_rc=None):
    flags = [] if cache else ["--no-cache"]
    result = run_cli("check", *flags, "--format", "json", "--stdin-filename", str(path), *args, "-",
                     cwd=cwd, input=source)
    if expect_rc is not None:
        assert result.returncode == expect_rc, (result.returncode, result.stdout, result.stderr)
    return json.loads(result.stdout) if result.stdout.strip() else None, result


def test_stdin_is_checked_as_the_file_within_its_project(root, tmp_path):
    # On disk the helpers are clean; the buffer on stdin prints. Run from outside the
    # project: the settings are those above PATH, as for the file itself.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    document, _ = stdin_check(outside, root / "proj/helpers.py", PRINTING_HELPERS.lstrip(), expect_rc=1)
    found = [(f["path"], f["line"], f["code"]) for f in document["findings"]]
    # helper runs compiled because Model.forward, in another file, calls it; elsewhere does not
    assert found == [(str(root / "proj/helpers.py"), 2, "CL110")]
    assert document["summary"]["files"] == 1
    # the same as checking the project with the file saved so
    (root / "proj/helpers.py").write_text(PRINTING_HELPERS.lstrip(), encoding="utf-8")
    saved = json.loads(run_cli("check", "--no-cache", "--format", "json", cwd=root).stdout)
    assert [(f["line"], f["code"], f["message"]) for f in saved["findings"]] == \
        [(f["line"], f["code"], f["message"]) for f in document["findings"]]


def test_the_text_report_shows_the_lines_read_from_stdin(root):
    result = run_cli("check", "--no-cache", "--stdin-filename", "proj/helpers.py", "-", cwd=root,
                     input=PRINTING_HELPERS.lstrip())
    assert result.returncode == 1, result.stderr
    assert "proj/helpers.py:2:5: CL110" in result.stdout
    assert 'print("in the compiled region")' in result.stdout  # not on disk


def test_per_file_settings_of_the_path_apply(root):
    # the same source under tests/ (CL110 ignored there by per-file-ignores) and under proj/
    ignored, _ = stdin_check(root, "tests/test_model.py", PRINTING_MODEL.lstrip(), expect_rc=0)
    assert ignored["findings"] == []
    reported, _ = stdin_check(root, "proj/other.py", PRINTING_MODEL.lstrip(), expect_rc=1)
    assert [(f["path"], f["code"]) for f in reported["findings"]] == [("proj/other.py", "CL110")]


def test_excludes_apply_with_force_exclude_as_in_ruff(root):
    # Named explicitly, an excluded path is checked (as a file named on the command line
    # is); with --force-exclude it is not, and the run is clean.
    named, _ = stdin_check(root, "generated/model.py", PRINTING_MODEL.lstrip(), expect_rc=1)
    assert [f["code"] for f in named["findings"]] == ["CL110"]
    skipped, _ = stdin_check(root, "generated/model.py", PRINTING_MODEL.lstrip(), "--force-exclude", expect_rc=0)
    assert skipped["findings"] == [] and skipped["summary"]["files"] == 0


def test_a_syntax_error_on_stdin_is_cl000_under_the_path(root):
    document, _ = stdin_check(root, "proj/helpers.py", "def helper(x:\n    return x\n", expect_rc=1)
    (error,) = document["findings"]
    assert (error["path"], error["code"]) == ("proj/helpers.py", "CL000")


def test_stdin_never_reaches_the_cache(root):
    from compilelint import cache

    stdin_check(root, "proj/helpers.py", PRINTING_HELPERS.lstrip() + "\ndef only_on_stdin():\n    pass\n",
                cache=True, expect_rc=1)
    entries = [p for p in (root / ".compilelint_cache").rglob("*") if p.is_file() and len(p.name) == 30]
    functions = set()
    for entry in entries:
        analysis, _ = cache.decode(entry.read_bytes())
        functions.update(analysis.summary.functions)
    assert "Model.forward" in functions  # the other files were cached
    assert "only_on_stdin" not in functions


def test_paths_beside_stdin_are_refused(root):
    result = run_cli("check", "--stdin-filename", "proj/helpers.py", "proj/model.py", cwd=root, input="x = 1\n")
    assert result.returncode == 2
    assert "--stdin-filename" in result.stderr
    result = run_cli("check", "--stdin-filename", "proj/helpers.py", "--fix", "-", cwd=root, input="x = 1\n")
    assert result.returncode == 2 and "--fix" in result.stderr
