"""Which Python the code runs on: `target-python` (or `--target-python`), else the Python running
the check. A standard-library behaviour Dynamo meets moved in 3.12: `functools.cached_property`
took a lock up to 3.11 (CL147); the corpus case `cf_cached_property_01` confirms the break on
3.11 (`[python < 3.12]`). Real command line, real files."""

from __future__ import annotations

import sys

from cli_helpers import check_json, make_project
from conftest import run_cli

SOURCE = """
import functools

import torch


class Tokenizer:
    def __init__(self, vocab):
        self.vocab = vocab

    @functools.cached_property
    def eot(self):
        return self.vocab - 1


class Head(torch.nn.Module):
    def __init__(self, tokenizer: Tokenizer):
        super().__init__()
        self.tokenizer = tokenizer

    def forward(self, x):
        return x[..., : self.tokenizer.eot]
"""


def _codes(doc) -> list[tuple[str, int]]:
    return [(f["code"], f["line"]) for f in doc["findings"]]


def test_the_flag_and_the_key_choose_the_python(tmp_path):
    make_project(tmp_path, {"head.py": SOURCE, "pyproject.toml": '[tool.compilelint]\ntarget-python = "3.12"\n'})
    doc, _ = check_json("head.py", cwd=tmp_path)
    assert _codes(doc) == []  # 3.12 takes no lock
    doc, _ = check_json("head.py", "--target-python", "3.11", cwd=tmp_path)
    assert _codes(doc) == [("CL147", 21)]


def test_the_default_is_the_python_running_the_check(tmp_path):
    make_project(tmp_path, {"head.py": SOURCE})
    doc, _ = check_json("head.py", cwd=tmp_path)
    assert _codes(doc) == ([("CL147", 21)] if sys.version_info < (3, 12) else [])


def test_a_bad_release_is_a_clear_error(tmp_path):
    make_project(tmp_path, {"head.py": SOURCE, "pyproject.toml": '[tool.compilelint]\ntarget-python = "3"\n'})
    result = run_cli("check", "head.py", cwd=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert '`target-python` must be a Python release like "3.11"' in result.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    result = run_cli("check", "head.py", "--target-python", "py3.12", cwd=tmp_path)
    assert result.returncode == 2 and "`--target-python` must be a Python release" in result.stderr
