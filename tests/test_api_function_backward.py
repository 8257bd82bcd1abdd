"""A public autograd Function in a public submodule is the package's API (user code calls
`Fn.apply(x)` in the forward it compiles), and so is its `backward`: Dynamo traces it when
an input needs gradients (torchdeq's `DEQGradCkpt`, whose backward calls `autograd.grad`).
A private Function's backward is no API. Against Dynamo: compiling a call to `apply` breaks
in the backward, where the finding is."""

import pytest

from helpers import break_line, imported, library_findings

OPS = """
    import torch


    class Clip(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(-1, 1)

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            if grad.abs().max() > 10:  # BREAK
                grad = grad / 10
            return grad * (x.abs() <= 1)


    class _Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            if grad.sum() > 0:
                return grad * 2
            return grad
"""


def _findings(tmp_path):
    return library_findings(tmp_path, "gradlib", {"ops.py": OPS}, "from .ops import Clip\n")


def test_the_backward_of_a_public_function_is_api(tmp_path):
    found = {(f.line, f.code): f for f in _findings(tmp_path)}
    line = break_line(OPS)
    assert set(found) == {(line, "CL102")}  # (not the private `_Scale`'s)
    assert found[line, "CL102"].when[-1:] == ("api",)


def test_dynamo_breaks_in_the_backward(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    _findings(tmp_path)
    line = break_line(OPS)
    with imported(tmp_path, "gradlib.ops") as module:
        def step(x):
            return module.Clip.apply(x * 3).sum()

        run = capture(step, (torch.randn(4, requires_grad=True),), backend="eager")
    assert line in {r.line for r in run.breaks if r.file.endswith("ops.py")}
