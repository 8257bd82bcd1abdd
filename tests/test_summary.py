"""The typed summary: what a file's walk records for the project index, and its cache form."""

from __future__ import annotations

import subprocess
import sys

from compilelint.analysis import analyze
from compilelint.config import Settings
from compilelint.engine import rules_for
from compilelint.summary import CallEdge, FunctionSummary, ModuleSummary

SOURCE = """\
import torch
import torch.nn as nn

def helper(x, y=None):
    return x.relu()

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 2)

    def forward(self, x):
        def inner(z):
            return z
        for _ in range(2):
            x = helper(self.proj(x))
        return inner(x)

fast = torch.compile(Block())
"""


def summary() -> ModuleSummary:
    return analyze("m.py", SOURCE, "m", rules_for(Settings()), Settings()).summary


def test_the_walk_records_typed_edges_and_targets():
    found = summary()
    forward = found.functions["Block.forward"]
    assert forward.class_name == "Block"
    looped = [edge for edge in forward.calls if edge.loop is not None]
    assert [(e.kind, e.target, e.loop, e.loop_keyword) for e in looped] == [
        ("name", "range", 0, "for"), ("name", "helper", 0, "for"), ("self", "proj", 0, "for")]
    assert CallEdge("local", "Block.forward.<locals>.inner") in forward.calls
    assert found.functions["helper"].params == ("x", "y")
    assert found.functions["helper"].defaults == {"y": "none"}
    assert found.classes["Block"].attr_classes == {"proj": "torch.nn.Linear"}
    assert [(t.kind, t.name) for t in found.compile_targets] == [("class", "m.Block")]
    assert found.loops == ((15, 9),)


def test_the_cache_form_round_trips_and_leaves_defaults_off():
    found = summary()
    assert ModuleSummary.from_json(found.to_json()) == found
    assert FunctionSummary().to_json() == ()
    assert CallEdge("self", "proj").to_json() == ("self", "proj")


def test_the_summary_module_imports_no_libcst():
    code = "import sys, compilelint.summary; print('libcst' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_project_phase_marks_are_no_kind_leaves():
    """A finding's `needs` holds kind leaves (`s|Cls|attr`, solved by semantic.project) or a
    project phase's candidate mark: a mark that starts like a leaf hands the phase a leaf."""
    from compilelint.finding import PROJECT_DECIDES
    from compilelint.summary import LEAF_TAGS

    assert all(mark.endswith("|") and len(mark) == 2 for mark in PROJECT_DECIDES)
    assert not {mark[0] for mark in PROJECT_DECIDES} & LEAF_TAGS
    assert len(set(PROJECT_DECIDES)) == len(PROJECT_DECIDES)
