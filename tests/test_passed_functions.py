"""Functions handed to a call, against Dynamo: the ones the callee calls run in the region (their
breaks are the compiled function's), the ones kept for later or handed to
`torch.compiler.disable` do not (a break inside them is no finding, and Dynamo does not break
there either)."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

STEPS = '''
from functools import partial

import torch
import torch.nn as nn


def shift(x, k):
    return x[: int(x.sum() > k)]  # BREAK: handed on in a partial, called by `apply_all`


def as_list(x):
    return x.tolist()  # never traced: kept on `self.hooks`, or run eagerly by `disable`


def apply_all(items, function):
    return [function(item) for item in items]


class Steps(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.hooks = []

    def forward(self, x):
        self.hooks.append(as_list)
        eager = torch.compiler.disable(as_list)(x)  # BREAK: the disabled call itself
        out = apply_all([self.proj(x), x], partial(shift, k=0.5))
        return out, eager
'''


def _marked(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_only_the_functions_a_callee_calls_are_reached(tmp_path):
    write_package(tmp_path, "nets", {"steps.py": STEPS})
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    static = {f["line"] for f in json.loads(out.stdout)["findings"] if f["path"].endswith("steps.py")}
    assert static == set(_marked(STEPS))
    with imported(tmp_path, "nets.steps") as mod:
        obs = observe(mod.Steps(), [((torch.randn(2, 4),), {})], backend="eager", recapture=False)
    dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("steps.py")}
    assert dynamo == static
