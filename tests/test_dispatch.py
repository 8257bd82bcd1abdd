"""`self.m()` in a base class runs the override of the instance's class (issue 19): the
override is in the compiled region and its break is reported. A loop that reaches a break
only through an override is not made a CL150 (whether the base calls the override is mostly
a type test the walk cannot decide): here a sibling's loop, clean under Dynamo, stays clean.
Each claim is checked against real Dynamo."""

import importlib.util
import sys
import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check

SOURCE = textwrap.dedent("""
    import torch
    from torch import nn


    class MessagePassing(nn.Module):
        def propagate(self, x):
            return self.message(x)

        def message(self, x):
            return x


    class Gated(MessagePassing):
        def message(self, x):
            if x.sum() > 0:  # BREAK
                return x + 1
            return x


    class Stacked(MessagePassing):
        def __init__(self):
            super().__init__()
            self.lins = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

        def forward(self, x):
            for lin in self.lins:  # CLEAN LOOP
                x = self.propagate(lin(x))
            return x


    class GatedStack(Gated):
        def forward(self, x):
            return self.propagate(x)
""")


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.splitlines(), 1) if marker in text)


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "graphs.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    return tmp_path


def test_the_override_is_compiled_and_a_sibling_loop_is_not_a_loop_break(project):
    settings = config_mod.load(start=str(project))
    found = {(f.line, f.code) for f in check([str(project)], settings).findings}
    assert found == {(_line("# BREAK"), "CL102")}


def test_dynamo_agrees(project):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    spec = importlib.util.spec_from_file_location("graphs", project / "graphs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["graphs"] = module
    try:
        spec.loader.exec_module(module)
        x = torch.randn(2, 4)
        clean = capture(module.Stacked(), (x,), backend="eager")
        breaking = capture(module.GatedStack(), (x,), backend="eager")
    finally:
        sys.modules.pop("graphs", None)
    assert clean.error is None and breaking.error is None
    assert [r for r in clean.breaks if r.kind in ("graph_break", "frame_skip")] == []
    lines = {r.line for r in breaking.breaks if r.kind in ("graph_break", "frame_skip")}
    assert _line("# BREAK") in lines


HELPER = textwrap.dedent("""
    import torch
    from torch import nn


    class Clamp:
        def limit(self, x):
            bound = x.abs().max().item()  # BREAK
            return x.clamp(-bound, bound)


    class Net(nn.Module):
        def forward(self, x):
            return Clamp().limit(x * 2)  # AGAIN
""")


def test_a_method_of_a_helper_made_on_the_spot_is_compiled(tmp_path):
    """`Clamp().limit(x)` runs `Clamp.limit` compiled: its `.item()` is reported, and Dynamo
    breaks there (and again at the calling line: the helper has no source to rebuild)."""
    _reported_and_broken(tmp_path, HELPER, "helper", "CL103")


def _reported_and_broken(tmp_path, source: str, name: str, code: str) -> None:
    """The static pass reports `code` at the `# BREAK` line of `source` and CL151 at the
    `# AGAIN` line (the call on the object built in forward), and Dynamo breaks the graph at
    both when `Net` runs compiled."""
    (tmp_path / f"{name}.py").write_text(source)
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text)
    again = next(i for i, text in enumerate(source.splitlines(), 1) if "# AGAIN" in text)
    settings = config_mod.load(start=str(tmp_path))
    assert {(f.line, f.code) for f in check([str(tmp_path)], settings).findings} == {(line, code), (again, "CL151")}
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    spec = importlib.util.spec_from_file_location(f"{name}_mod", tmp_path / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = capture(module.Net(), (torch.randn(2, 4),), backend="eager")
    assert {line, again} <= {r.line for r in result.breaks if r.kind == "graph_break"}

LOCAL = textwrap.dedent("""
    import torch
    from torch import nn


    class Ranker:
        def __init__(self, k):
            self.k = k

        def top(self, x):
            return x.argsort(dim=-1)[..., : self.k].tolist()  # BREAK

        def unused(self, x):
            print(x.sum().item())


    class Net(nn.Module):
        def forward(self, x):
            ranker = Ranker(2)
            picked = ranker.top(x)  # AGAIN
            hook = ranker.unused  # referenced, never called
            ranker = x + 1
            return ranker.view(-1) * len(picked)
""")


def test_a_method_of_a_local_holding_a_helper_is_compiled(tmp_path):
    """`ranker = Ranker(2)`; `ranker.top(x)` runs `Ranker.top` compiled: its `.tolist()` is
    reported and Dynamo breaks there; `ranker.unused` is only referenced, and once `ranker`
    is bound to a tensor, `ranker.view` is the tensor's."""
    _reported_and_broken(tmp_path, LOCAL, "local", "CL104")
