"""CL150 through an autograd Function's backward (`project_rules/cl150_calls.py`): a loop that
calls `F.apply` breaks only when Dynamo traces the backward, with gradients on, so the finding
is `when: training` even when the breaking helper also runs in the forward transform. Checked
against Dynamo on the corpus case itself, both ways."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import torch

from conftest import run_cli

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "xf_function_backward_loop_01.py"


def _breaks(grad: bool) -> int:
    from torch._dynamo.utils import counters

    spec = importlib.util.spec_from_file_location("backward_loop_case", CASE)
    case = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(case)
    model, (lo, highs) = case.make()
    torch._dynamo.reset()
    counters.clear()
    with torch.set_grad_enabled(grad):
        torch.compile(model, backend="eager")(lo, highs)
    # (a break Dynamo cannot resume from, inside the loop, is counted as unimplemented)
    return sum(counters["graph_break"].values()) + sum(counters["unimplemented"].values())


def test_the_loop_over_a_function_breaks_only_in_training():
    proc = run_cli("check", "--no-cache", "--format", "json", str(CASE))
    assert proc.returncode in (0, 1), proc.stderr
    loops = [f for f in json.loads(proc.stdout)["findings"] if f["code"] == "CL150"]
    assert [(f["line"], f["when"]) for f in loops] == [(37, ["training"])]
    assert _breaks(grad=False) == 0  # the backward is not traced: the loop compiles
    assert _breaks(grad=True) > 0
