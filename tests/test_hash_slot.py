"""CL161 across files against Dynamo: a module class of one file whose `__hash__` hands back
`object.__hash__` breaks the graph in every compiled walk of a module tree holding it, made in
another file (`self.parameters()`, `self.modules()`); a `__hash__` returning `id(self)` is traced,
and so is a file whose compiled code makes no walk."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

TRANSFORMS = '''
import torch
import torch.nn as nn


class TransformModule(torch.distributions.Transform, nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))

    def __hash__(self):
        return super(torch.nn.Module, self).__hash__()  # BREAK


class Keyed(nn.Module):
    def __init__(self):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(4))

    def __hash__(self):
        return id(self)
'''

FLOWS = '''
import torch.nn as nn

from .transforms import Keyed, TransformModule


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.t, self.k = TransformModule(), Keyed()

    def forward(self, x):
        held = len(list(self.k.parameters())) + len(list(self.modules()))
        return x * self.t.scale + self.k.shift + held
'''

QUIET = '''
import torch
import torch.nn as nn


class TransformModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))

    def __hash__(self):
        return super(torch.nn.Module, self).__hash__()

    def forward(self, x):
        return x * self.scale
'''


def _marked(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def _check(tmp_path, package: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", package, "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    return [f for f in json.loads(out.stdout)["findings"] if f["code"] == "CL161"]


def test_a_walk_of_another_file_breaks_in_the_hash_it_runs(tmp_path):
    write_package(tmp_path, "flows", {"transforms.py": TRANSFORMS, "model.py": FLOWS})
    found = _check(tmp_path, "flows")
    assert {(f["path"].rsplit("/", 1)[-1], f["line"]) for f in found} == {("transforms.py", n) for n in
                                                                        _marked(TRANSFORMS)}
    with imported(tmp_path, "flows.model") as mod:
        obs = observe(mod.Flow(), [((torch.randn(2, 4),), {})], backend="eager", recapture=False)
    dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("transforms.py")}
    assert dynamo == set(_marked(TRANSFORMS))


def test_no_walk_no_hash(tmp_path):
    write_package(tmp_path, "quiet", {"transforms.py": QUIET})
    assert _check(tmp_path, "quiet") == []
    with imported(tmp_path, "quiet.transforms") as mod:
        obs = observe(mod.TransformModule(), [((torch.randn(2, 4),), {})], backend="eager", recapture=False)
    assert not [b for b in obs.capture.breaks if b.kind == "graph_break"]
