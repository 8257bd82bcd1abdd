"""A name an `isinstance` test proves to be one of the project's classes calls that class's
methods: in a comprehension's filter (pykeen's `sum(r.pop_regularization_term() for r in
self.modules() if isinstance(r, Regularizer))`) and in the body of an `if` (a walk over
`self.modules()`); a walk that picks another class does not reach them. Against Dynamo."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

REGS = '''
import torch
from torch import nn


class Regularizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("term", torch.zeros(1))

    def pop_term(self):
        result = self.term * 2
        self.term.detach_().zero_()  # BREAK
        return result

    def report(self):
        print("term")  # BREAK


class Quiet(nn.Module):
    def report(self):
        return 1


class Pooled(nn.Module):
    def __init__(self):
        super().__init__()
        self.reg = Regularizer()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        terms = [r.pop_term() for r in self.modules() if isinstance(r, Regularizer)]
        return self.lin(x).sum() + terms[0]


class Reported(nn.Module):
    def __init__(self):
        super().__init__()
        self.quiet = Quiet()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        for m in self.modules():
            if isinstance(m, Quiet):
                m.report()
        return self.lin(x)


class Loud(nn.Module):
    def __init__(self):
        super().__init__()
        self.reg = Regularizer()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        for m in self.modules():  # BREAK
            if isinstance(m, Regularizer):
                m.report()
        return self.lin(x)
'''


def test_an_isinstance_test_types_the_name_it_checks(tmp_path):
    write_package(tmp_path, "nets", {"regs.py": REGS})
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    static = {(f["line"], f["code"]) for f in json.loads(out.stdout)["findings"] if f["path"].endswith("regs.py")}
    marked = {i for i, text in enumerate(REGS.splitlines(), 1) if "# BREAK" in text}
    assert {line for line, _ in static} == marked
    breaks, skips = set(), set()
    with imported(tmp_path, "nets.regs") as regs:
        for model in (regs.Pooled(), regs.Reported(), regs.Loud()):
            obs = observe(model, [((torch.randn(3, 2),), {})], backend="eager", recapture=False)
            found = [b for b in obs.capture.breaks if (b.file or "").endswith("regs.py")]
            breaks |= {b.line for b in found if b.kind == "graph_break"}
            skips |= {type(model).__name__ for b in found if b.kind == "frame_skip"}
    # the quiet walk breaks nowhere; the loud one breaks in the loop, which runs its frame eagerly
    assert {line for line, code in static if code != "CL150"} <= breaks
    assert "Loud" in skips and {code for _, code in static if code == "CL150"} == {"CL150"}
