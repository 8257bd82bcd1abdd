"""A method torch.Tensor lacks, called on a tensor, is a tensor subclass's own: what it returns
is what the project's definition returns (semantic.tensor_api, the solver's leaf "v"), across
files. flowtorch's `BijectiveTensor.from_forward() -> bool` in an `and` is no tensor value;
pypose-style `LieTensor.energy()` computing on `self` is one. Against Dynamo in the corpus
(clean_tensor_subclass_predicate_01, cf_tensor_subclass_method_01)."""

import textwrap

import torch

from compilelint import config as config_mod
from compilelint.engine import check
from compilelint.semantic.tensor_api import TENSOR_API

SUBCLASS = """
    import torch


    class Tagged(torch.Tensor):
        def from_cache(self) -> bool:
            return self._mode == "cache"

        def check_owner(self, owner):
            return owner in tuple(self.owners())

        def owners(self):
            yield self._owner

        def energy(self):
            return (self * self).sum()
"""

USER = """
    import torch
    from torch import nn

    from tagged import Tagged


    def reuse(x: torch.Tensor, owner) -> bool:
        return isinstance(x, Tagged) and x.from_cache() and x.check_owner(owner)


    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x: torch.Tensor):
            if reuse(x, self):
                return x
            if {test}:
                x = x * 0.5
            return self.proj(x)
"""


def _check(tmp_path, test: str):
    (tmp_path / "tagged.py").write_text(textwrap.dedent(SUBCLASS))
    (tmp_path / "user.py").write_text(textwrap.dedent(USER.format(test=test)))
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    result = check([str(tmp_path)], config_mod.load(start=str(tmp_path)))
    return {(f.path.rsplit("/", 1)[-1], f.line, f.code): f for f in result.findings}


def test_a_subclass_predicate_is_no_tensor_value(tmp_path):
    assert _check(tmp_path, "x.shape[0] > 1") == {}


def test_a_subclass_method_that_computes_on_self_returns_a_tensor(tmp_path):
    found = _check(tmp_path, "x.energy() > 1.0")
    assert set(found) == {("user.py", 20, "CL102")}
    assert found["user.py", 20, "CL102"].message.endswith("(`.energy()` of the project's tensor subclass returns a tensor)")


def test_a_method_no_subclass_defines_claims_nothing(tmp_path):
    """`x.energy_of()` on a tensor: no project class has it, so the receiver was no tensor."""
    assert _check(tmp_path, "x.energy_of() > 1.0") == {}


def test_a_tensor_method_keeps_the_tensor_kind(tmp_path):
    assert set(_check(tmp_path, "x.abs().sum() > 1.0")) == {("user.py", 20, "CL102")}


def test_the_tensor_api_is_the_installed_torchs():
    public = {name for name in dir(torch.Tensor) if not name.startswith("_")}
    assert public == TENSOR_API, (sorted(public - TENSOR_API), sorted(TENSOR_API - public))
