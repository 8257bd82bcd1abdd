"""A class handed to a function as an argument and built there (torchmin's
`_minimize_trust_region(fun, x0, subproblem=CGSteihaugSubproblem)`, then `m = subproblem(x)` and
`m.solve(r)`): the classes the call sites pass are what runs, so their methods are compiled code;
a class no call passes is not. Checked against Dynamo on the same package."""

import json
import subprocess
import sys

import pytest
import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

SUBPROBLEMS = '''
import torch


class Branching:
    def __init__(self, x):
        self.jac = x * 2

    def solve(self, radius):
        p = -self.jac
        if p.norm() >= radius:  # BREAK
            p = p * (radius / p.norm())
        return p


class Unused:
    def __init__(self, x):
        self.jac = x

    def solve(self, radius):
        print("never passed")
        return self.jac
'''

SOLVERS = '''
import torch.nn as nn

from .subproblems import Branching


def minimize(x, subproblem=None, radius=1.0):
    m = subproblem(x)
    return x + m.solve(radius)


def minimize_positional(x, subproblem, radius=1.0):
    return x + subproblem(x).solve(radius)


class ByKeyword(nn.Module):
    def forward(self, x):
        return minimize(x, subproblem=Branching)


class ByPosition(nn.Module):
    def forward(self, x):
        return minimize_positional(x, Branching)
'''


def _static(tmp_path):
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    return json.loads(out.stdout)["findings"]


@pytest.mark.parametrize("model", ["ByKeyword", "ByPosition"])
def test_the_methods_of_a_class_a_call_site_passes_are_compiled_code(tmp_path, model):
    other = {"ByKeyword": "ByPosition", "ByPosition": "ByKeyword"}[model]
    solvers = SOLVERS.split(f"class {other}(")[0] + "class " + model + "(" + SOLVERS.split(f"class {model}(")[1]
    if model == "ByKeyword":
        solvers = solvers.split("class ByPosition(")[0]
    write_package(tmp_path, "nets", {"subproblems.py": SUBPROBLEMS, "solvers.py": solvers})
    found = {(f["path"].rsplit("/", 1)[-1], f["line"], f["code"]) for f in _static(tmp_path)}
    line = next(i for i, text in enumerate(SUBPROBLEMS.splitlines(), 1) if "# BREAK" in text)
    assert ("subproblems.py", line, "CL102") in found
    assert not any(name == "subproblems.py" and code == "CL110" for name, _, code in found)  # (Unused: no call passes it)
    with imported(tmp_path, "nets.solvers") as mod:
        assert not hasattr(mod, other)
        obs = observe(getattr(mod, model)(), [((torch.randn(5),), {})], backend="eager", recapture=False)
    assert {b.line for b in obs.capture.breaks if (b.file or "").endswith("subproblems.py")} == {line}
