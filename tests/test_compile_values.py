"""Helpers' values under torch.compile and names empty under compile
(semantic.compile_values), through the static pass as a user runs it: each shape must fold
the way Dynamo runs it, and anything the walk cannot settle must leave the finding."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

HELPERS = textwrap.dedent('''\
    import torch

    def folds_false(x):
        if torch.jit.is_scripting():
            return False
        if torch.compiler.is_compiling() or x.requires_grad:
            return False
        return True

    def folds_true(x):
        if torch.compiler.is_compiling(): return True
        return bool(x.requires_grad)

    def unknown_first(x):
        if x.requires_grad:
            return True
        if torch.compiler.is_compiling():
            return False
        return True

    def raises_first(x):
        if x.dim() > 4:
            raise ValueError("too many dims")
        if torch.compiler.is_compiling():
            return False
        return True

    def non_literal(x):
        if torch.compiler.is_compiling():
            return x.requires_grad
        return True

    class M(torch.nn.Module):
        def forward(self, x):
            checks = (1, 2) if {helper}(x) else ()
            for i in range(3):
                if i in checks and bool(x.any()):
                    break
            return x
''')


@pytest.mark.parametrize("helper,reported", [
    ("folds_false", False),  # () under compile: `i in checks` short-circuits
    ("folds_true", True),  # (1, 2) under compile: the bool() runs
    ("unknown_first", True),  # an earlier return the walk cannot decide
    ("raises_first", True),  # an earlier raise: not every call reaches the guard
    ("non_literal", True),  # the compiled return is not a literal
])
def test_helper_values_under_compile(tmp_path, helper, reported):
    path = tmp_path / "model.py"
    path.write_text(HELPERS.replace("{helper}", helper))
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", str(path), "--select", "CL102",
                          "--output-format", "concise"], capture_output=True, text=True, timeout=120)
    assert out.returncode == (1 if reported else 0), out.stdout + out.stderr
    assert ("CL102" in out.stdout) is reported


def test_a_name_rebound_is_not_empty(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(HELPERS.replace("{helper}", "folds_false").replace(
        "        for i in range(3):", "        checks = checks + (2,)\n        for i in range(3):"))
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", str(path), "--select", "CL102",
                          "--output-format", "concise"], capture_output=True, text=True, timeout=120)
    assert "CL102" in out.stdout, out.stdout + out.stderr
