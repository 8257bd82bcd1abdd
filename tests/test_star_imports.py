"""A bare name a module takes from `from .inputs import *` (deepctr-torch's models) calls the
function the star import brings: it is in the compiled region, and what breaks there is
reported; a clean function reached the same way stays clean. Dynamo agrees on both."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

INPUTS = textwrap.dedent("""
    import numpy as np


    def dense_input(X, index):
        lookup = np.array(index)
        return X[:, lookup[0]:lookup[1]].float()  # BREAK


    def plain_input(X, index):
        return X[:, index[0]:index[1]].float()
""")
MODELS = textwrap.dedent("""
    import torch
    from .inputs import *


    class Dense(torch.nn.Module):
        def forward(self, X):
            return dense_input(X, (0, 2)).sum(-1)


    class Plain(torch.nn.Module):
        def forward(self, X):
            return plain_input(X, (0, 2)).sum(-1)
""")


@pytest.fixture()
def root(tmp_path):
    write_package(tmp_path, "starred", {"inputs.py": INPUTS, "models.py": MODELS})
    return tmp_path


def _break_line() -> int:
    return next(i for i, text in enumerate(INPUTS.splitlines(), 1) if "# BREAK" in text)


def test_a_star_imported_function_is_in_the_region(root):
    findings = check([str(root / "starred")], config_mod.load(start=str(root))).findings
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("inputs.py", _break_line(), "CL105")]


def test_dynamo_breaks_in_the_star_imported_function_only(root):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(root, "starred.models") as models:
        dense = capture(models.Dense(), (torch.randn(3, 4),), backend="eager")
        plain = capture(models.Plain(), (torch.randn(3, 4),), backend="eager")
    assert _break_line() in {r.line for r in dense.breaks if r.kind == "graph_break"}
    assert not [r for r in plain.breaks if r.kind == "graph_break"]
