"""A module class's public property that computes what it returns from the module's state
(pypose's `system.A`: the Jacobian of a linearised system) is the package's API: user code
reads it in the step it compiles, as it calls `forward` (`when: api`). A private property,
one that only hands back an attribute, and one on a plain object are not. Against Dynamo:
reading the property in a compiled function breaks where the finding is."""

import pytest

from helpers import break_line, imported, library_findings

SYSTEM = """
    import torch
    from torch import nn


    class System(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.eye(3))
            self.state = torch.ones(3)

        def forward(self, x):
            return x @ self.weight

        @property
        def energy(self):
            return float(self.state.sum())  # BREAK

        @property
        def _gain(self):
            return self.state.sum().item()

        @property
        def size(self):
            return self.state


    class Record:
        @property
        def total(self):
            return torch.ones(2).sum().item()
"""


def _findings(tmp_path):
    return library_findings(tmp_path, "dynlib", {"system.py": SYSTEM}, "from .system import Record, System\n")


def test_a_public_property_of_a_module_class_is_api(tmp_path):
    found = {(f.line, f.code): f for f in _findings(tmp_path)}
    line = break_line(SYSTEM)
    assert set(found) == {(line, "CL102")}  # (not `_gain`'s, nor the plain object's `.item()`)
    assert found[line, "CL102"].when[-1:] == ("api",)


def test_dynamo_breaks_in_the_property(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    _findings(tmp_path)
    line = break_line(SYSTEM)
    with imported(tmp_path, "dynlib.system") as module:
        system = module.System()

        def energy_step(x):
            return system(x) * system.energy

        run = capture(energy_step, (torch.randn(2, 3),), backend="eager")
    assert line in {r.line for r in run.breaks if r.file.endswith("system.py")}
