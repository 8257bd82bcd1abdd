"""CL160 across files against Dynamo: `cast(list[Details], x)` breaks the graph when `Details`,
imported from another file (directly or through the package's `__init__`), is an alias of a
builtin generic (ptwt's `WaveletDetailDict: TypeAlias = dict[str, torch.Tensor]`); an imported
alias spelled with `typing`, and an imported class, are folded and left alone."""

import json
import subprocess
import sys

import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

CONSTANTS = '''
from typing import Dict, NamedTuple, TypeAlias

import torch

Details: TypeAlias = dict[str, torch.Tensor]
Named = Dict[str, torch.Tensor]


class Pair(NamedTuple):
    low: torch.Tensor
    high: torch.Tensor
'''

INIT = '''
from .constants import Details
'''

LAYERS = '''
from typing import List, Union, cast

import torch
import torch.nn as nn

from . import Details as Exported
from .constants import Details, Named, Pair


class Decompose(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        levels = [{"a": self.proj(x)}, {"a": x}]
        levels = cast(list[Details], levels)  # BREAK: the alias of another file
        first = cast(Union[Exported, None], levels[0])  # BREAK: re-exported by the package
        named = cast(List[Named], levels)  # a typing alias: folded
        pairs = cast(list[Pair], [Pair(x, x)])  # a class: folded
        return first["a"] + named[1]["a"] + pairs[0].low
'''


def _marked(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_an_alias_of_another_file_breaks_where_it_is_subscripted(tmp_path):
    pkg = write_package(tmp_path, "nets", {"constants.py": CONSTANTS, "layers.py": LAYERS})
    (pkg / "__init__.py").write_text(INIT)
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "nets", "--output-format", "json",
                          "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    found = [f for f in json.loads(out.stdout)["findings"] if f["code"] == "CL160"]
    assert {(f["path"].rsplit("/", 1)[-1], f["line"]) for f in found} == {("layers.py", n) for n in _marked(LAYERS)}
    assert all("an alias of `dict[str, torch.Tensor]`" in f["message"] for f in found)
    with imported(tmp_path, "nets.layers") as mod:
        obs = observe(mod.Decompose(), [((torch.randn(2, 4),), {})], backend="eager", recapture=False)
    dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("layers.py")}
    assert dynamo == set(_marked(LAYERS))
