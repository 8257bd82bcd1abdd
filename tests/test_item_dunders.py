"""Subscripts and operators on objects of project classes run the class's dunder methods
(`states[mask]` runs `States.__getitem__`, `1 - t` runs `TT.__rsub__`), which Dynamo inlines:
the static pass puts them in the compiled region, and a `__getitem__` that indexes a tensor
with what it is passed breaks only for the call sites that pass a boolean mask
(`given:index@mask`, decided across files). Each checked against Dynamo on the same code."""

import json
import subprocess
import sys

import torch

from compilelint.probe.entry_args import given_met, value_facts
from compilelint.probe.observe import observe
from helpers import imported, write_package

STATES = '''
import torch


class States:
    def __init__(self, tensor):
        self.tensor = tensor

    @property
    def is_done(self):
        return (self.tensor < 0).all(-1)

    def __getitem__(self, index):
        return States(self.tensor[index])  # BREAK: when a caller passes a mask


class TT:
    def __init__(self, core):
        self.core = core

    def __rsub__(self, other):
        scale = self.core.abs().max().item()  # BREAK: `1 - t` runs it
        return TT(other - self.core / scale)

    def __neg__(self):
        return TT(-self.core)
'''

POLICIES = '''
import torch
import torch.nn as nn

from .states import TT, States


class Masked(nn.Module):
    def forward(self, x):
        states = States(x)
        live = ~states.is_done
        return states[live].tensor.sum()


class Plain(nn.Module):
    def forward(self, x):
        states = States(x)
        return states[1:].tensor.sum() + states[0].tensor.sum()


class Complement(nn.Module):
    def forward(self, x):
        t = TT(x)
        return (1 - t).core.sum() + (-t).core.sum()
'''


def _static(tmp_path, *args):
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--output-format", "json",
                          "--no-cache", *args], cwd=tmp_path, capture_output=True, text=True)
    return json.loads(out.stdout)["findings"]


def _dynamo(tmp_path, name):
    with imported(tmp_path, "nets.policies") as mod:
        obs = observe(getattr(mod, name)(), [((torch.randn(4, 3),), {})], backend="eager", recapture=False)
    return {b.line for b in obs.capture.breaks if (b.file or "").endswith("states.py")}


def _marked(source: str, what: str) -> int:
    return next(i for i, text in enumerate(source.splitlines(), 1) if f"# BREAK: {what}" in text)


def test_a_dunder_reached_through_a_subscript_or_an_operator_is_in_the_region(tmp_path):
    write_package(tmp_path, "nets", {"states.py": STATES, "policies.py": POLICIES})
    found = {(f["code"], f["line"]) for f in _static(tmp_path) if f["path"].endswith("states.py")}
    item, rsub = _marked(STATES, "when a caller"), _marked(STATES, "`1 - t`")
    assert found == {("CL121", item), ("CL103", rsub)}
    assert _dynamo(tmp_path, "Masked") == {item}
    assert _dynamo(tmp_path, "Complement") == {rsub}


def test_the_mask_finding_holds_only_where_a_call_site_passes_a_mask(tmp_path):
    only_plain = POLICIES.replace("return states[live].tensor.sum()", "return states[0].tensor.sum()")
    write_package(tmp_path, "nets", {"states.py": STATES, "policies.py": only_plain})
    codes = {f["code"] for f in _static(tmp_path) if f["path"].endswith("states.py")}
    assert codes == {"CL103"}  # (no CL121: every site passes an int or a slice)
    assert _dynamo(tmp_path, "Plain") == set()


def test_a_run_judges_the_label_by_whether_the_index_it_passed_was_boolean():
    assert "mask" in value_facts(torch.tensor([True, False]))
    assert "mask" not in value_facts(torch.tensor([1, 0]))
    assert given_met("given:index@mask", {"index": value_facts(torch.tensor([True]))}) is True
    assert given_met("given:index@mask", {"index": value_facts(torch.tensor([0]))}) is False
    assert given_met("given:index@mask", {}) is None  # (the run did not see the call)
