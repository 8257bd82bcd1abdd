"""`from ..backend import torch`: a project package that loads its back end at import time and
hands the torch module on (deepxde's `backend`, filled in by `setattr`), or a module that says
`import torch` (thinc's `compat`). Its `torch.equal` is torch's, and breaks the graph; what a
project's own `torch` module binds (einx's tracer signature, `from .torch import torch`) is not
torch.
Dynamo agrees on both."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

BACKEND = textwrap.dedent("""
    import importlib
    import sys

    _module = importlib.import_module("torch")
    setattr(sys.modules[__name__], "torch", _module)
""")
COMPAT = textwrap.dedent("""
    try:
        import torch
    except ImportError:
        torch = None
""")
LAYERS = textwrap.dedent("""
    import torch.nn as nn

    from .backend import torch
    from .compat import torch as th


    class Same(nn.Module):
        def forward(self, x, y):
            same = torch.equal(x, y)  # BREAK
            return x * same


    class Twice(nn.Module):
        def forward(self, x, y):
            return x * th.equal(x, y)  # BREAK
""")
SIGNATURE = textwrap.dedent("""
    class _Signature:
        def equal(self, x, y):
            return x + y


    torch = _Signature()
""")
OWN = textwrap.dedent("""
    import torch.nn as nn

    from .torch import torch


    class Traced(nn.Module):
        def forward(self, x, y):
            return torch.equal(x, y) * 2
""")


@pytest.fixture()
def root(tmp_path):
    pkg = write_package(tmp_path, "physics", {"compat.py": COMPAT, "layers.py": LAYERS})
    (pkg / "backend").mkdir()
    (pkg / "backend" / "__init__.py").write_text(BACKEND)
    write_package(tmp_path, "tracer", {"torch.py": SIGNATURE, "layers.py": OWN})
    return tmp_path


def _breaks() -> list[int]:
    return [i for i, text in enumerate(LAYERS.splitlines(), 1) if "# BREAK" in text]


def test_the_torch_a_project_module_hands_on_is_torch(root):
    findings = check([str(root / "physics"), str(root / "tracer")], config_mod.load(start=str(root))).findings
    assert sorted((f.path.rsplit("/", 2)[-2], f.line, f.code) for f in findings) == \
        [("physics", line, "CL119") for line in _breaks()]


def test_dynamo_breaks_on_the_handed_on_torch_only(root):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    x, y = torch.ones(3), torch.ones(3)
    lines = set()
    with imported(root, "physics.layers") as layers:
        for model in (layers.Same(), layers.Twice()):
            run = capture(model, (x, y), backend="eager")
            lines |= {r.line for r in run.breaks if r.kind == "graph_break" and r.file.endswith("layers.py")}
    assert lines == set(_breaks())
    with imported(root, "tracer.layers") as own:
        run = capture(own.Traced(), (x, y), backend="eager")
    assert not [r for r in run.breaks if r.kind == "graph_break"]


def test_the_cache_sees_a_change_in_the_module_that_hands_torch_on(root):
    # the reading depends on compat.py, another file: a cached analysis of layers.py must not
    # outlive compat.py's `import torch` (cache.entry_key hashes handed_torch.handed_on)
    import subprocess
    import sys

    def lines():
        out = subprocess.run([sys.executable, "-m", "compilelint", "check", "physics", "--output-format", "json"],
                             cwd=root, capture_output=True, text=True)
        return sorted(f["line"] for f in __import__("json").loads(out.stdout)["findings"])

    assert lines() == _breaks()
    (root / "physics" / "compat.py").write_text("torch = None\n")
    assert lines() == _breaks()[:1]  # (`th.equal` is no longer torch's)
