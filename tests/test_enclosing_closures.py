"""A compiled closure calling the closures its enclosing function defines, against Dynamo: what
the step calls runs in its region (a training script's `step` calling its `loss_fn`); a closure
kept for later, and a name the builder binds to something else than a `def`, do not. A loop that
calls such a closure only for some configurations is judged by the runs that ran its break."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import check_probe_package, imported, write_package

LOOP = '''
import torch


def report(x):
    print(x)  # never reached: the step's `report` is the lambda its builder binds


def build(net):
    scale = 2.0

    def loss_fn(out):
        return out.sum() / out.numel()

    def count(out):
        return int(out.argmax())  # BREAK: reached from the compiled step through `loss_and_count`

    def loss_and_count(out):
        return loss_fn(out), count(out)

    def log_fn(out):
        print(out.tolist())  # never reached: kept for later, not called by the step

    report = lambda t: t * scale  # noqa: E731

    def step(x):
        out = report(net(x))
        return loss_and_count(out)

    return step, torch.compile(step), log_fn
'''


def test_a_compiled_closure_reaches_the_closures_it_calls(tmp_path):
    write_package(tmp_path, "trainer", {"loop.py": LOOP})
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "trainer", "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    static = {f["line"] for f in json.loads(out.stdout)["findings"] if f["path"].endswith("loop.py")}
    marked = {i for i, text in enumerate(LOOP.splitlines(), 1) if "# BREAK" in text}
    assert static == marked
    with imported(tmp_path, "trainer.loop") as mod:
        step, _, _ = mod.build(torch.nn.Linear(4, 4))
        obs = observe(step, [((torch.randn(2, 4),), {})], backend="eager", recapture=False)
    dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("loop.py")}
    assert dynamo == static


ROPE = '''
from functools import wraps

import torch
from torch import nn


def dynamic_update(forward):
    def refresh(self, positions):
        seq_len = positions.max() + 1
        if seq_len > self.cached:  # a tensor's value: breaks when the update runs
            self.cached = 0

    @wraps(forward)
    def wrapper(self, x, positions):
        if "dynamic" in self.rope_type:
            refresh(self, positions)
        return forward(self, x, positions)

    return wrapper


class Rotary(nn.Module):
    def __init__(self, rope_type="default"):
        super().__init__()
        self.rope_type = rope_type
        self.cached = 4

    @dynamic_update
    def forward(self, x, positions):
        return x * positions.unsqueeze(-1).float().cos()


class Decoder(nn.Module):
    def __init__(self, rope_type="default", layers=("full", "sliding")):
        super().__init__()
        self.rotary = Rotary(rope_type)
        self.layers = layers

    def forward(self, x, positions):
        for _ in self.layers:
            x = self.rotary(x, positions)
        return x
'''

ROPE_TARGETS = '''
import torch
from ropelib import Decoder


def default_rope():
    return Decoder(), (torch.randn(2, 5, 3), torch.arange(5).expand(2, 5))


def dynamic_rope():
    return Decoder("dynamic"), (torch.randn(2, 5, 3), torch.arange(5).expand(2, 5))
'''


def rope_findings(tmp_path, targets: list[str]) -> dict:
    """A decorator's wrapper calling the closure beside it only for one configuration
    (transformers' dynamic-RoPE update): the loop over the layers calls the breaking update."""
    files = {"__init__.py": "from .rope import Decoder\n", "rope.py": ROPE}
    return {f["code"]: f for f in check_probe_package(tmp_path, "ropelib", files, ROPE_TARGETS, targets)}


def test_a_loop_whose_callees_break_did_not_run_is_not_judged(tmp_path):
    found = rope_findings(tmp_path, ["default_rope"])
    assert set(found) == {"CL102", "CL150"}
    assert found["CL150"]["evidence"]["status"] == "not-reached", found["CL150"]["evidence"]
    assert "the break it calls (ropelib/rope.py:" in found["CL150"]["evidence"]["note"]


def test_a_configuration_that_runs_the_callees_break_confirms_the_loop(tmp_path):
    found = rope_findings(tmp_path, ["default_rope", "dynamic_rope"])
    assert found["CL150"]["evidence"]["status"] == "confirmed", found["CL150"]["evidence"]
    assert found["CL102"]["evidence"]["status"] == "confirmed", found["CL102"]["evidence"]
