"""`compilelint check` parses; it never imports torch, nor imports, executes or evaluates
the code it reads (safe on a pull request from a fork, fast in a pre-commit hook)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cli_helpers import make_project

TRAP = """
import os
open(os.environ["COMPILELINT_MARKER_DIR"] + "/{name}", "w").close()
"""


def trap(name: str, extra: str = "") -> str:
    return textwrap.dedent(TRAP.format(name=name)) + textwrap.dedent(extra)


@pytest.fixture
def trapped(tmp_path):
    """A project every file of which leaves a marker when imported or run, including a
    `torch.py` that would shadow the real torch if anything imported `torch` from here."""
    markers = tmp_path / "markers"
    markers.mkdir()
    project = make_project(tmp_path / "project", {
        "pyproject.toml": "[tool.compilelint]\n",
        "torch.py": trap("torch-imported"),
        "conftest.py": trap("conftest-imported"),
        "setup.py": trap("setup-run"),
        "pkg/__init__.py": trap("pkg-imported"),
        "pkg/__main__.py": trap("main-run"),
        "pkg/model.py": trap("model-imported", """
            import torch

            class Net(torch.nn.Module):
                def forward(self, x):
                    eval("__import__('os').system('touch ' + os.environ['COMPILELINT_MARKER_DIR'] + '/evaluated')")
                    if x.sum() > 0:
                        return x
                    return -x

            fast = torch.compile(Net())
        """),
        "pkg/stub.pyi": "def f() -> int: ...\n",
    })
    return project, markers


def test_check_imports_neither_torch_nor_the_code(trapped):
    project, markers = trapped
    env = dict(os.environ, COMPILELINT_MARKER_DIR=str(markers), NO_COLOR="1")
    env.pop("PYTHONPATH", None)
    # In-process: run the CLI's main, then report what got imported. The working
    # directory is the project, so an import of `torch` would find the trap first.
    program = textwrap.dedent("""
        import sys
        from compilelint.cli import main
        try:
            main(["check", "--no-cache", "--format", "json", "-o", "report.json", "."])
        except SystemExit as exc:
            code = exc.code
        mods = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "pkg", "conftest", "setup"))
        print("EXIT", code)
        print("MODULES", ",".join(mods))
    """)
    result = subprocess.run([sys.executable, "-c", program], cwd=project, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "EXIT 1" in result.stdout, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].strip() == "MODULES", result.stdout
    assert sorted(os.listdir(markers)) == []
    report = json.loads((project / "report.json").read_text())
    assert {(f["path"], f["code"]) for f in report["findings"]} >= {("pkg/model.py", "CL101"), ("pkg/model.py", "CL102")}
    assert report["summary"]["files"] == 7


def test_check_from_elsewhere_does_not_import_the_installed_torch(trapped, tmp_path):
    """Run from a folder where the real torch (if installed) would be importable."""
    project, markers = trapped
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, COMPILELINT_MARKER_DIR=str(markers), NO_COLOR="1")
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "compilelint", "check", "--no-cache", str(project)],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr[-2000:]
    imported = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            imported.add(line.rsplit("|", 1)[1].strip())
    assert imported, "no -X importtime output"
    assert "compilelint.engine" in imported
    torchy = sorted(name for name in imported if name == "torch" or name.startswith(("torch.", "numpy")))
    assert torchy == []
    assert sorted(os.listdir(markers)) == []


def test_importing_compilelint_is_light(tmp_path):
    program = ("import sys, compilelint, compilelint.cli, compilelint.engine, compilelint.report.sarif_format;"
               "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'numpy')))")
    result = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
