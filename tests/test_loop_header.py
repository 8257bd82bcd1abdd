"""Where a `for` loop starts (semantic.loops): at its body. Its iterable is made once, before the
loop, so a break there resumes and skips no frame; its `else` runs once, after it. A break in
the body skips the frame (CL150), as does a break in an inner loop's iterable, made at each step
of the outer one. Checked against Dynamo: a frame skip is what CL150 promises."""

import torch

from compilelint.probe.observe import observe
from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

MODEL = '''
import torch
from torch import nn


class Header(nn.Module):
    def forward(self, x):
        out = x
        for i in range(int(x.abs().sum().item() > -1) + 1):  # (made once, before the loop: no CL150)
            out = out + x * i
        else:
            print("done")  # (once, after the loop: no CL150)
        return out


class Inner(nn.Module):
    def forward(self, x):
        out = x
        for j in range(2):  # CL150
            for i in range(int(x.abs().sum().item() > -1) + 1):
                out = out + x * i * j
        return out
'''


def _skips(model, x) -> set[str]:
    obs = observe(model, [((x,), {})], backend="eager", recapture=False)
    return {b.function for b in obs.capture.breaks if b.kind == "frame_skip"}


def test_a_break_in_a_for_header_is_outside_the_loop_unless_an_outer_loop_remakes_it(tmp_path):
    write_package(tmp_path, "header_pkg", {"model.py": MODEL})
    root = tmp_path / "header_pkg"
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    loops = {f.line for f in findings if f.code == "CL150"}
    assert loops == {i for i, text in enumerate(MODEL.splitlines(), 1) if text.endswith("# CL150")}
    with imported(tmp_path, "header_pkg.model") as mod:
        x = torch.randn(2, 3)
        assert "forward" not in _skips(mod.Header(), x)
        assert "forward" in _skips(mod.Inner(), x)
