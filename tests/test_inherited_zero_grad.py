"""`zero_grad()` that runs `torch.optim.Optimizer.zero_grad`, which Dynamo skips (GB0008), where
no binding names an optimiser class: a project optimiser whose base (in another file) derives
from `Optimizer` zeroes with the method it inherits (pytorch_optimizer's SAM), a module holds
one, a trainer keeps an untyped `optimizer` parameter. Not an optimiser with its own tensor-only
`zero_grad` (in another file too), nor `model.zero_grad()` on a module. Dynamo agrees on each line."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

BASE = textwrap.dedent("""
    from abc import ABC

    import torch
    from torch.optim import Optimizer


    class BaseOptimizer(ABC, Optimizer):
        def __init__(self, params, defaults):
            super().__init__(params, defaults)


    class OwnZeroing(Optimizer):
        def __init__(self, params):
            super().__init__(params, {})

        def zero_grad(self, set_to_none=True):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.grad.zero_()
""")
OPTIM = textwrap.dedent("""
    import torch

    from .base import BaseOptimizer, OwnZeroing


    class SAM(BaseOptimizer):
        def __init__(self, params, rho=0.05):
            super().__init__(params, dict(rho=rho))

        @torch.no_grad()
        def first_step(self, zero_grad=True):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.add_(p.grad, alpha=group["rho"])
            self.zero_grad()  # BREAK


    class Quiet(OwnZeroing):
        @torch.no_grad()
        def first_step(self):
            self.zero_grad()
""")
MODELS = textwrap.dedent("""
    import torch.nn as nn

    from .optim import SAM, Quiet


    class Sharp(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)
            self.sam = SAM(self.net.parameters())

        def forward(self, x):
            self.sam.zero_grad()  # BREAK
            self.sam.first_step()
            return self.net(x)


    class Handed(nn.Module):
        def __init__(self, net, optimizer):
            super().__init__()
            self.net = net
            self.optimizer = optimizer

        def forward(self, x):
            self.optimizer.zero_grad()  # BREAK
            return self.net(x)


    class Clean(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model
            self.opt = Quiet(model.parameters())

        def forward(self, x):
            self.model.zero_grad()
            self.opt.zero_grad()
            self.opt.first_step()
            return self.model(x)
""")


@pytest.fixture()
def root(tmp_path):
    write_package(tmp_path, "sharp", {"base.py": BASE, "optim.py": OPTIM, "models.py": MODELS})
    return tmp_path


def _breaks(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_zero_grad_an_optimiser_inherits_is_reported_across_files(root):
    findings = check([str(root / "sharp")], config_mod.load(start=str(root))).findings
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == sorted([("optim.py", line, "CL119") for line in _breaks(OPTIM)]
                           + [("models.py", line, "CL119") for line in _breaks(MODELS)])
    by_line = {(f.path.rsplit("/", 1)[-1], f.line): f for f in findings}
    inherited = by_line[("optim.py", _breaks(OPTIM)[0])]
    assert "inherited from `torch.optim.Optimizer`" in inherited.message and "GB0008" in inherited.message
    assert inherited.severity == "error" and "{" not in inherited.message
    named = by_line[("models.py", _breaks(MODELS)[1])]
    assert "by its name" in named.message and named.severity == "warning"


def test_dynamo_breaks_at_the_inherited_zero_grad_only(root):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    lines = {}
    with imported(root, "sharp.models") as models:
        net = torch.nn.Linear(4, 4)
        built = {"Sharp": models.Sharp(), "Handed": models.Handed(net, torch.optim.SGD(net.parameters(), lr=0.1)),
                 "Clean": models.Clean(torch.nn.Linear(4, 4))}
        for name, model in built.items():
            run = capture(model, (torch.randn(2, 4),), backend="eager")
            lines[name] = {(r.file.rsplit("/", 1)[-1], r.line) for r in run.breaks if r.kind == "graph_break"}
    sharp, handed = _breaks(MODELS)
    assert ("models.py", sharp) in lines["Sharp"] and ("optim.py", _breaks(OPTIM)[0]) in lines["Sharp"]
    assert lines["Handed"] == {("models.py", handed)}
    assert lines["Clean"] == set()
