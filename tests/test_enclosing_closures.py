"""A compiled closure calling the closures its enclosing function defines, against Dynamo: what
the step calls runs in its region (a training script's `step` calling its `loss_fn`); a closure
kept for later, and a name the builder binds to something else than a `def`, do not."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

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
