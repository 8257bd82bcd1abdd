"""Folders without an `__init__.py` inside a package are namespace packages (PEP 420), imported
as `pkg.utils.operators.grads` (torchphysics' `utils/differentialoperators/`); a subpackage's
names that the top-level package star-imports (`from .utils import *`) are the package's API.
Both are checked against the import system and against Dynamo."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check, module_name
from helpers import break_line, imported

GRADS = """
    import torch


    def laplace(u):
        if u.abs().max() > 10:  # BREAK
            u = u / 10
        return u
"""

SCALE = """
    def clipped(x):
        if x.max() > 1:  # BREAK
            return x / x.max()
        return x
"""

MODEL = """
    import torch

    from .utils.operators.grads import laplace


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(2, 2)

        def forward(self, x):
            return laplace(self.lin(x))
"""

FILES = {
    "__init__.py": "from .utils import *\nfrom .model import Net\n",
    "model.py": MODEL,
    "utils/__init__.py": "from .operators.grads import laplace\nfrom .scale import clipped\n",
    "utils/scale.py": SCALE,
    "utils/operators/grads.py": GRADS,  # (no `operators/__init__.py`)
}


def _write(root):
    for name, source in FILES.items():
        path = root / "physlib" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    (root / "pyproject.toml").write_text("[tool.compilelint]\n")
    return root / "physlib"


def _findings(tmp_path):
    pkg = _write(tmp_path)
    found = check([str(pkg)], config_mod.load(start=str(tmp_path))).findings
    return {(f.path.rsplit("/", 1)[-1], f.line, f.code): f for f in found}


def test_a_folder_without_init_inside_a_package_is_part_of_its_name(tmp_path):
    pkg = _write(tmp_path)
    assert module_name(str(pkg / "utils/operators/grads.py")) == "physlib.utils.operators.grads"
    assert module_name(str(pkg / "utils/scale.py")) == "physlib.utils.scale"
    (tmp_path / "scripts").mkdir()
    assert module_name(str(tmp_path / "scripts" / "run.py")) == "run"  # (in no package)
    (pkg / "data-files").mkdir()
    assert module_name(str(pkg / "data-files" / "make.py")) == "make"  # (no importable name)
    with imported(tmp_path, "physlib.utils.operators.grads") as module:
        assert module.__name__ == "physlib.utils.operators.grads"


def test_code_in_a_namespace_folder_is_reached_from_the_model(tmp_path):
    found = _findings(tmp_path)
    assert ("grads.py", break_line(GRADS), "CL102") in found


def test_a_star_imported_subpackage_hands_out_its_names(tmp_path):
    found = _findings(tmp_path)
    finding = found[("scale.py", break_line(SCALE), "CL102")]
    assert finding.when[-1:] == ("api",)  # (what user code calls as `physlib.clipped(x)`)


def test_dynamo_breaks_where_the_findings_are(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    _write(tmp_path)
    with imported(tmp_path, "physlib") as physlib:
        model = capture(physlib.Net(), (torch.randn(3, 2),), backend="eager")
        user = capture(lambda x: physlib.clipped(x * 2), (torch.randn(3),), backend="eager")
    assert break_line(GRADS) in {r.line for r in model.breaks if r.file.endswith("grads.py")}
    assert break_line(SCALE) in {r.line for r in user.breaks if r.file.endswith("scale.py")}
