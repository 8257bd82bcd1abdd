"""Which lines the probe says Dynamo traced, and which breaks it reports, on real
torch.compile runs: a false `if` must not mark its body traced, and a break inside an
inlined call must not come back as a second break at the calling line."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
from pathlib import Path

import pytest

pytest.importorskip("torch")

from helpers import lint_snippet  # noqa: E402

from compilelint.finding import Finding  # noqa: E402
from compilelint.probe.capture import drop_echoes, capture  # noqa: E402
from compilelint.probe.match import match  # noqa: E402
from compilelint.probe.observe import observe  # noqa: E402
from compilelint.probe.records import BreakRecord  # noqa: E402

# T5's attention: the requires_grad toggle sits in an `if` nested in an `if/else`, so
# the jump over the `else:` closes the toggle's block and carries its line
BRANCHES = '''\
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, checkpointing):
        super().__init__()
        self.has_relative_attention_bias = False
        self.gradient_checkpointing = checkpointing

    def forward(self, x, position_bias):
        if not self.has_relative_attention_bias:
            position_bias = torch.zeros_like(x)  # ZEROS
            if self.gradient_checkpointing and self.training:
                position_bias.requires_grad = True  # TOGGLE
        else:
            position_bias = position_bias + 1
        return x * position_bias


def gated(x, flags):
    for flag in flags:
        if flag:
            x = x * 2  # LOOP-BODY
    return x + 1
'''

# the break sits in a property getter: Dynamo cannot resume inside it (transformers'
# `self.loss_function` property warns once), and in a plain helper
ECHOES = '''\
import torch
from torch import nn


def helper(x):
    print("helper")  # HELPER-PRINT
    return x + 1


class Loss(nn.Module):
    @property
    def loss_function(self):
        print("unknown loss type")  # PROPERTY-PRINT
        return torch.cos

    def forward(self, x):
        x = x.sin() + 1
        return self.loss_function(x) * 2  # PROPERTY-CALL


class Both(nn.Module):
    @property
    def loss_function(self):
        print("unknown loss type")  # BOTH-PROPERTY-PRINT
        return torch.cos

    def forward(self, x):
        x = x.sin() + 1
        print("caller")  # CALLER-PRINT
        x = x.cos() * 2
        return self.loss_function(x)  # BOTH-CALL


def plain(x):
    x = x.sin() + 1
    return helper(x).cos()  # HELPER-CALL
'''

_ids = itertools.count()


def _load(tmp_path: Path, source: str):
    """Import ``source`` as a fresh module from a user file (a name no other test uses)."""
    name = f"line_accuracy_{next(_ids)}"
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, str(path)


def line(source: str, marker: str) -> int:
    return next(i for i, text in enumerate(source.splitlines(), 1) if text.rstrip().endswith(marker))


def _traced(obs, path: str) -> set[int]:
    return set((obs.capture.lines_traced or {}).get(path, ()))


def test_a_false_condition_does_not_mark_the_skipped_body_traced(tmp_path):
    import torch

    mod, path = _load(tmp_path, BRANCHES)
    model = mod.Attention(checkpointing=False).train()
    obs = observe(model, [((torch.randn(4), torch.randn(4)), {})], train=True, recapture=False)
    assert obs.reached_by == "compiled-call" and obs.capture.error is None
    traced = _traced(obs, path)
    assert line(BRANCHES, "# ZEROS") in traced
    assert line(BRANCHES, "# TOGGLE") not in traced
    assert line(BRANCHES, "# TOGGLE") not in obs.lines_run[path]

    # the real static finding: CL132, training only; the run trains, so only reaching decides
    (toggle,) = [f for f in lint_snippet(tmp_path, BRANCHES, name="static_branches.py") if f.code == "CL132"]
    assert toggle.line == line(BRANCHES, "# TOGGLE") and "training" in toggle.when
    toggle.path = path
    zeros = Finding(path=path, line=line(BRANCHES, "# ZEROS"), col=1, code="CL110", message="static")
    match([toggle, zeros], [obs.as_result("attention")])
    assert toggle.evidence["status"] == "not-reached"
    # a line Dynamo really traced is still judged
    assert zeros.evidence["status"] == "not-reproduced"


def test_the_body_that_runs_is_still_traced_or_broken(tmp_path):
    import torch

    mod, path = _load(tmp_path, BRANCHES)
    model = mod.Attention(checkpointing=True).train()
    obs = observe(model, [((torch.randn(4), torch.randn(4)), {})], train=True, recapture=False)
    toggle = Finding(path=path, line=line(BRANCHES, "# TOGGLE"), col=1, code="CL132", message="static")
    match([toggle], [obs.as_result("attention")])
    assert toggle.evidence["status"] == "confirmed" and toggle.evidence["gb_id"]


def test_a_loop_body_counts_as_traced_only_when_its_condition_holds(tmp_path):
    import torch

    mod, path = _load(tmp_path, BRANCHES)
    body = line(BRANCHES, "# LOOP-BODY")
    skipped = observe(mod.gated, [((torch.ones(2), [False, False]), {})], recapture=False)
    assert body not in _traced(skipped, path) and line(BRANCHES, "return x + 1") in _traced(skipped, path)
    ran = observe(mod.gated, [((torch.ones(2), [False, True]), {})], recapture=False)
    assert body in _traced(ran, path)


def _breaks(fn, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        res = capture(fn, args)
    assert res.error is None, res.error
    return [(b.line, b.reason) for b in res.breaks if b.kind == "graph_break"]


@pytest.mark.parametrize("target, at, caller", [
    ("Loss", "# PROPERTY-PRINT", "# PROPERTY-CALL"),
    ("plain", "# HELPER-PRINT", "# HELPER-CALL"),
])
def test_a_break_in_an_inlined_call_is_reported_once_at_the_break(tmp_path, target, at, caller):
    import torch

    mod, _ = _load(tmp_path, ECHOES)
    fn = getattr(mod, target)
    breaks = _breaks(fn() if isinstance(fn, type) else fn, torch.randn(4))
    assert [ln for ln, _ in breaks] == [line(ECHOES, at)], breaks
    assert "print" in breaks[0][1]


def test_independent_breaks_in_caller_and_callee_are_both_kept(tmp_path):
    import torch

    mod, _ = _load(tmp_path, ECHOES)
    breaks = _breaks(mod.Both(), torch.randn(4))
    assert sorted(ln for ln, _ in breaks) == sorted([line(ECHOES, "# CALLER-PRINT"),
                                                     line(ECHOES, "# BOTH-PROPERTY-PRINT")]), breaks


def test_only_echoes_without_a_reason_of_their_own_are_dropped():
    real = BreakRecord("graph_break", "logging.Logger method not supported", "GB0291", "/p/utils.py", 40,
                       stack=[("/p/model.py", 10), ("/p/utils.py", 40)])
    echo = BreakRecord("graph_break", "step_unsupported", None, "/p/model.py", 10, stack=[("/p/model.py", 10)])
    again = BreakRecord("graph_break", "Encountered graph break that we cannot resume from. Compiling up to…",
                        "GB0291", "/p/utils.py", 40, stack=[("/p/utils.py", 40)])
    alone = BreakRecord("graph_break", "step_unsupported", None, "/p/model.py", 77, stack=[("/p/model.py", 77)])
    own = BreakRecord("graph_break", "Data-dependent branching", "GB0170", "/p/model.py", 10,
                      stack=[("/p/model.py", 10)])
    skip = BreakRecord("frame_skip", "frame skipped", None, "/p/model.py", 10, stack=[("/p/model.py", 10)])
    assert drop_echoes([real, echo, again, alone, own, skip]) == [real, alone, own, skip]
