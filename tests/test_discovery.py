"""Which files `check` reads: folders walked, excludes, .gitignore, --force-exclude,
links, odd paths. Through the real command line."""

from __future__ import annotations

import os

import pytest

from cli_helpers import check_json, make_project

BAD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        return eval("x")
"""


def checked(*args, cwd, expect_rc=None) -> set[str]:
    """Paths with a finding (every file here has exactly one, CL101, or a CL000)."""
    document, _ = check_json(*args, cwd=cwd, expect_rc=expect_rc)
    return {f["path"] for f in document["findings"]}


def test_walks_folders_python_and_stub_files_only(tmp_path):
    make_project(tmp_path, {
        "a.py": BAD, "pkg/b.py": BAD, "pkg/sub/c.pyi": BAD, "notes.txt": BAD, "script": BAD,
        "pkg/data.json": "{}", "pkg/d.PY": BAD,
    })
    assert checked(cwd=tmp_path) == {"a.py", "pkg/b.py", "pkg/sub/c.pyi"}


def test_default_excludes(tmp_path):
    make_project(tmp_path, {
        "ok.py": BAD, ".venv/lib/x.py": BAD, "venv/x.py": BAD, "build/x.py": BAD, "dist/x.py": BAD,
        "node_modules/x.py": BAD, ".git/x.py": BAD, "a/site-packages/x.py": BAD, ".tox/x.py": BAD,
        ".compilelint_cache/x.py": BAD, "src/build/x.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"ok.py"}


def test_exclude_replaces_the_defaults_and_extend_exclude_adds(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nexclude = ["generated"]\n',
        "ok.py": BAD, "generated/x.py": BAD, "build/x.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"ok.py", "build/x.py"}
    make_project(tmp_path, {"pyproject.toml": '[tool.compilelint]\nextend-exclude = ["generated", "*_pb2.py", "docs/examples/*"]\n',
                            "proto/msg_pb2.py": BAD, "docs/examples/ex.py": BAD, "docs/conf.py": BAD})
    assert checked(cwd=tmp_path) == {"ok.py", "docs/conf.py"}


def test_excludes_are_relative_to_the_project_root(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nextend-exclude = ["src/legacy"]\n',
        "src/legacy/x.py": BAD, "src/new/x.py": BAD, "other/src/legacy/x.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"src/new/x.py", "other/src/legacy/x.py"}
    assert checked(".", cwd=tmp_path / "src") == {"new/x.py"}


def test_gitignore(tmp_path):
    make_project(tmp_path, {
        ".gitignore": "scratch/\n*.gen.py\n/top_only.py\n!keep.gen.py\n",
        "ok.py": BAD, "scratch/x.py": BAD, "a.gen.py": BAD, "keep.gen.py": BAD, "top_only.py": BAD,
        "sub/top_only.py": BAD,
        "sub/.gitignore": "local.py\n",
        "sub/local.py": BAD, "local.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"ok.py", "keep.gen.py", "sub/top_only.py", "local.py"}
    make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\nrespect-gitignore = false\n"})
    assert "scratch/x.py" in checked(cwd=tmp_path)


def test_files_passed_by_name_are_checked_unless_force_exclude(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nextend-exclude = ["vendor"]\n',
        ".gitignore": "ignored.py\n",
        "vendor/lib.py": BAD, "ignored.py": BAD, "ok.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"ok.py"}
    names = ("vendor/lib.py", "ignored.py", "ok.py")
    assert checked(*names, cwd=tmp_path) == set(names)
    assert checked("--force-exclude", *names, cwd=tmp_path) == {"ok.py"}
    make_project(tmp_path, {"pyproject.toml": '[tool.compilelint]\nextend-exclude = ["vendor"]\nforce-exclude = true\n'})
    assert checked(*names, cwd=tmp_path) == {"ok.py"}


def test_folder_inside_an_excluded_folder_passed_by_name(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nextend-exclude = ["fixtures"]\n',
        "fixtures/demo/pkg/m.py": BAD, "src/m.py": BAD,
    })
    assert checked(cwd=tmp_path) == {"src/m.py"}
    assert checked("fixtures/demo", cwd=tmp_path) == {"fixtures/demo/pkg/m.py"}
    assert checked("--force-exclude", "fixtures/demo", "src", cwd=tmp_path) == {"src/m.py"}


def test_each_file_once_in_a_stable_order(tmp_path):
    make_project(tmp_path, {"b.py": BAD, "a.py": BAD, "sub/c.py": BAD})
    document, _ = check_json("b.py", ".", "./a.py", str(tmp_path / "sub"), cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["a.py", "b.py", "sub/c.py"]
    assert document["summary"]["files"] == 3


def test_symlink_loops_and_dangling_links(tmp_path):
    make_project(tmp_path, {"pkg/m.py": BAD})
    os.symlink(tmp_path / "pkg", tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "missing.py", tmp_path / "pkg" / "dangling.py")
    os.symlink(tmp_path / "pkg" / "m.py", tmp_path / "alias.py")
    document, result = check_json(cwd=tmp_path)
    found = {(f["path"], f["code"]) for f in document["findings"]}
    assert found == {("pkg/m.py", "CL101"), ("pkg/dangling.py", "CL000"), ("alias.py", "CL101")}
    assert "Traceback" not in result.stderr


def test_missing_and_directory_like_paths(tmp_path):
    make_project(tmp_path, {"ok.py": BAD, "folder.py/inner.py": BAD})
    document, _ = check_json("ok.py", "gone.py", "gone_dir", "folder.py", cwd=tmp_path, expect_rc=1)
    found = {(f["path"], f["code"]) for f in document["findings"]}
    assert found == {("ok.py", "CL101"), ("gone.py", "CL000"), ("gone_dir", "CL000"),
                     ("folder.py/inner.py", "CL101")}


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file_and_folder(tmp_path):
    make_project(tmp_path, {"ok.py": BAD, "secret.py": BAD, "locked/x.py": BAD})
    (tmp_path / "secret.py").chmod(0)
    (tmp_path / "locked").chmod(0)
    try:
        document, _ = check_json(cwd=tmp_path, expect_rc=1)
    finally:
        (tmp_path / "secret.py").chmod(0o644)
        (tmp_path / "locked").chmod(0o755)
    found = {(f["path"], f["code"]) for f in document["findings"]}
    assert ("ok.py", "CL101") in found and ("secret.py", "CL000") in found
    assert any(code == "CL000" and path.startswith("locked") for path, code in found)


def test_paths_outside_the_working_directory_are_absolute(tmp_path):
    make_project(tmp_path, {"proj/m.py": BAD, "here/.keep": ""})
    document, _ = check_json("../proj", cwd=tmp_path / "here", expect_rc=1)
    assert [f["path"] for f in document["findings"]] == [(tmp_path / "proj" / "m.py").as_posix()]


def _release_readers(fifo):
    """Unblock any leftover process stuck opening the FIFO: open it for writing, close it (EOF)."""
    import time

    for _ in range(20):
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            return  # no reader left
        time.sleep(0.1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_named_like_python_does_not_hang_the_run(tmp_path):
    import json
    import subprocess

    from conftest import run_cli

    make_project(tmp_path, {"ok.py": BAD})
    os.mkfifo(tmp_path / "pipe.py")
    for extra in ([], ["--no-cache"], ["--jobs", "2"]):
        try:
            result = run_cli("check", "--format", "json", *extra, cwd=tmp_path, timeout=30)
        except subprocess.TimeoutExpired:
            _release_readers(tmp_path / "pipe.py")
            pytest.fail(f"check {' '.join(extra)} hangs on a FIFO named pipe.py (opened with a blocking read)")
        assert result.returncode == 1, result.stderr
        found = {(f["path"], f["code"]) for f in json.loads(result.stdout)["findings"]}
        assert found == {("ok.py", "CL101"), ("pipe.py", "CL000")}, extra
