"""CL153 across files against Dynamo: a function handed a sparse tensor by a call in another
file breaks where it first uses it (the caller breaks at the call, so the callee runs as a
frame of its own), and so does a function of a third file it hands the tensor on to. The
finding holds only for callers that pass a sparse tensor: its `given:psi@sparse` label says
so, and a probe run judges it by what the calls held."""

import json
import subprocess
import sys

import torch

from compilelint.probe.call_args import function_key
from compilelint.probe.conditions import unmet_conditions
from compilelint.probe.observe import observe
from helpers import imported, write_package

LAYERS = '''
import torch
import torch.nn as nn

from .kernels import contract


def band(n):
    index = torch.arange(n).repeat(2, 1)
    return torch.sparse_coo_tensor(index, torch.ones(n), (n, n)).coalesce()


class Conv(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.psi = band(n)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        x = x * self.scale
        return contract(x, self.psi.to(x.device))  # BREAK: the caller's own first use


class Dense(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.register_buffer("psi", torch.eye(n))

    def forward(self, x):
        return contract(x, self.psi)
'''

KERNELS = '''
import torch

from .norms import normalised


def check(ok, message):
    if not ok:
        raise ValueError(message())


def contract(x, psi):
    check(x.dim() == 2, lambda: "a 2-d input")
    check(psi.dim() == 2, lambda: "a 2-d psi")  # BREAK: the parameter's first use
    y = x * 2
    return normalised(psi) @ y


def passthrough(x, psi):
    return x
'''

NORMS = '''
def normalised(m, scale=1.0):
    return m * (scale / m.shape[0])  # BREAK: handed on from kernels.py
'''


def _static(tmp_path):
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--select", "CL153",
                          "--output-format", "json", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    return json.loads(out.stdout)["findings"]


def _marked(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_a_callee_of_another_file_breaks_where_it_first_uses_the_sparse_tensor_it_is_passed(tmp_path):
    write_package(tmp_path, "nets", {"layers.py": LAYERS, "kernels.py": KERNELS, "norms.py": NORMS})
    found = _static(tmp_path)
    static = {(f["path"].rsplit("/", 1)[-1], f["line"]) for f in found}
    files = {"layers.py": LAYERS, "kernels.py": KERNELS, "norms.py": NORMS}
    assert static == {(name, line) for name, source in files.items() for line in _marked(source)}
    labels = {f["path"].rsplit("/", 1)[-1]: f["when"] for f in found}
    assert labels == {"layers.py": [], "kernels.py": ["given:psi@sparse"], "norms.py": ["given:m@sparse"]}
    with imported(tmp_path, "nets.layers") as mod:
        obs = observe(mod.Conv(), [((torch.randn(4, 3),), {})], backend="eager", recapture=False)
    dynamo = {(b.file.rsplit("/", 1)[-1], b.line) for b in obs.capture.breaks if "/nets/" in (b.file or "")}
    assert dynamo == static


def test_a_run_that_passes_a_dense_tensor_does_not_meet_the_label(tmp_path):
    pkg = write_package(tmp_path, "nets", {"layers.py": LAYERS, "kernels.py": KERNELS, "norms.py": NORMS})
    finding = next(f for f in _static(tmp_path) if f["path"].endswith("kernels.py"))
    key = function_key(str(pkg / "kernels.py"), finding["scope"])
    verdicts = {}
    with imported(tmp_path, "nets.layers") as mod:
        for cls in (mod.Conv, mod.Dense):
            obs = observe(cls(), [((torch.randn(4, 3),), {})], backend="eager", recapture=False)
            passed = obs.conditions["passed"]
            called = next(facts for k, facts in passed.items() if k.endswith(key.rsplit("/", 1)[-1]))
            verdicts[cls.__name__] = (unmet_conditions(finding["when"], obs.conditions, called=called),
                                      any((b.file or "").endswith("kernels.py") for b in obs.capture.breaks))
    assert verdicts == {"Conv": ([], True), "Dense": (["given:psi@sparse"], False)}


def test_a_run_that_fails_under_dynamo_still_says_what_the_calls_held(tmp_path):
    # (torch_geometric's GraphUNet fails inside Dynamo: its findings' labels are judged all the same)
    write_package(tmp_path, "nets", {"layers.py": LAYERS, "kernels.py": KERNELS, "norms.py": NORMS})

    def failing_backend(gm, example_inputs):
        raise RuntimeError("the backend cannot compile this graph")

    with imported(tmp_path, "nets.layers") as mod:
        obs = observe(mod.Dense(), [((torch.randn(4, 3),), {})], backend=failing_backend, recapture=False)
    assert obs.capture.error is not None
    called = next(facts for key, facts in obs.conditions["passed"].items() if key.endswith("kernels.py:contract"))
    assert "not_none" in called["psi"] and "sparse" not in called["psi"]


GRAPH = '''
import torch
import torch.nn as nn

from .blocks import Mixer


def band(n):
    index = torch.arange(n).repeat(2, 1)
    return torch.sparse_coo_tensor(index, torch.ones(n), (n, n))


class Graph(nn.Module):
    def __init__(self):
        super().__init__()
        self.mixer = Mixer()
        self.adj = band(4)

    def forward(self, x):
        return self.mixer(x, self.adj.coalesce())  # BREAK: the caller's own first use
'''

BLOCKS = '''
import torch
import torch.nn as nn


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x, adj):
        y = x * self.scale
        if self.training:
            y = y + adj.to_dense().sum()  # BREAK: in training only
        return y
'''


def test_a_callee_of_another_file_keeps_the_mode_its_use_needs(tmp_path):
    write_package(tmp_path, "nets", {"graph.py": GRAPH, "blocks.py": BLOCKS})
    found = {f["path"].rsplit("/", 1)[-1]: f for f in _static(tmp_path)}
    assert found["blocks.py"]["line"] == _marked(BLOCKS)[0]
    assert found["blocks.py"]["when"] == ["training", "given:adj@sparse"]
    lines = {}
    with imported(tmp_path, "nets.graph") as mod:
        for training in (False, True):
            obs = observe(mod.Graph().train(training), [((torch.randn(4, 3),), {})], backend="eager",
                          recapture=False, train=training)
            lines[training] = {b.line for b in obs.capture.breaks if (b.file or "").endswith("blocks.py")}
    assert lines == {False: set(), True: {found["blocks.py"]["line"]}}


def test_a_project_phase_that_crashes_is_reported_and_the_check_goes_on(tmp_path, monkeypatch):
    # (fault injection: no phase is known to crash; the guard is what a user meets when one does)
    from compilelint import config as config_mod
    from compilelint.engine import check
    from compilelint.project_rules import cl153_params

    write_package(tmp_path, "nets", {"layers.py": LAYERS, "kernels.py": KERNELS, "norms.py": NORMS})

    def broken(context):
        raise KeyError("a phase's bug")

    monkeypatch.setattr(cl153_params, "run", broken)
    settings = config_mod.load(start=str(tmp_path), select=["CL153", "CL001"])
    found = check([str(tmp_path / "nets")], settings).findings
    crash = [f for f in found if f.code == "CL001"]
    assert len(crash) == 1 and "CL153's project phase crashed" in crash[0].message and "KeyError" in crash[0].message
    assert {(f.path.rsplit("/", 1)[-1], f.line) for f in found if f.code == "CL153"} == {
        ("layers.py", line) for line in _marked(LAYERS)}  # the caller's own finding, per file
