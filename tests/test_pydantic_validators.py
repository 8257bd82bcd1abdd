"""Building a pydantic model in a compiled region: `BaseModel.__init__` hands the fields to
pydantic-core (C, GB0156), which calls the model's validators; Dynamo compiles each as a frame
of its own, so their breaks are the region's too. The validators live in another file than the
forward that builds the model (torchsurv's layout); a model built in `__init__`, a helper
no validator calls, and an after-validator naming no torch module (a frame Dynamo skips) stay
out. Dynamo agrees on each line."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

CHECKS = textwrap.dedent("""
    import torch
    from pydantic import BaseModel, ConfigDict, field_validator, model_validator


    def coerced(v):
        if torch.any(torch.isnan(v)):  # BREAK
            raise ValueError("NaN")
        return v.float()


    def unused(v):
        if torch.any(v > 1e9):
            raise ValueError("huge")
        return v


    class Inputs(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)

        time: torch.Tensor

        @field_validator("time", mode="before")
        @classmethod
        def coerce_time(cls, v):
            return coerced(v)

        @model_validator(mode="after")
        def check_order(self):
            ordered, _ = torch.sort(self.time)
            if ordered[0] < 0:  # BREAK
                raise ValueError("negative")
            return self

        @field_validator("time", mode="after")
        @classmethod
        def positive_time(cls, v):  # handed the field's value, a tensor: compiled, naming no torch
            if (v < 0).any():  # BREAK
                raise ValueError("negative time")
            return v

        @model_validator(mode="after")
        def check_range(self):  # handed only the model, naming no torch module: not compiled
            if self.time.max() > 1e6:
                raise ValueError("time out of range")
            return self


    class Width(BaseModel):
        width: int

        @field_validator("width")
        @classmethod
        def positive(cls, v):
            if v <= 0:
                raise ValueError("width")
            return v
""")
MODELS = textwrap.dedent("""
    import torch.nn as nn

    from .checks import Inputs, Width


    class Risk(nn.Module):
        def __init__(self):
            super().__init__()
            self.width = Width(width=2)

        def forward(self, x):
            inputs = Inputs(time=x)  # BREAK
            return inputs.time[: self.width.width].sum()
""")


@pytest.fixture()
def root(tmp_path):
    write_package(tmp_path, "surv", {"checks.py": CHECKS, "models.py": MODELS})
    return tmp_path


def _breaks(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_validators_are_in_the_region_where_the_model_is_built(root):
    findings = check([str(root / "surv")], config_mod.load(start=str(root))).findings
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == sorted([("checks.py", line, "CL102") for line in _breaks(CHECKS)]
                           + [("models.py", line, "CL119") for line in _breaks(MODELS)])
    built = next(f for f in findings if f.code == "CL119")
    assert "`Inputs`, a subclass of `pydantic.BaseModel`" in built.message and "GB0156" in built.message


def test_dynamo_breaks_in_the_validators(root):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(root, "surv.models") as models:
        run = capture(models.Risk(), (torch.rand(4),), backend="eager")
    lines = {(r.file.rsplit("/", 1)[-1], r.line) for r in run.breaks if r.kind == "graph_break"}
    assert {("checks.py", line) for line in _breaks(CHECKS)} <= lines
    built = [r for r in run.breaks if r.kind == "graph_break" and r.file.endswith("pydantic/main.py")]
    assert built and "validate_python" in built[0].reason  # what the forward's `Inputs(time=x)` runs
    assert not {("checks.py", i) for i, text in enumerate(CHECKS.splitlines(), 1) if "BREAK" not in text} & lines
