"""Local flags (semantic.local_flags): a branch on `drop = self.training and self.p > 0`
needs what that test needs, and a draw bound under such a flag is tested only then (CL119);
a loop calling a layer whose break is under the layer's own attribute needs it on the
layer's class (finding.on_class).
Real static pass, real probe runs, through the CLI as a user runs `check --probe`: the
findings are confirmed by Dynamo on a target that meets the flag, and `condition-not-met` on
one that does not (eval mode; a module built with `p=0`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_probe as probe_check

pytest.importorskip("torch")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probe" / "flag_targets.py"


def marker_line(marker: str) -> int:
    return next(i for i, text in enumerate(FIXTURE.read_text().splitlines(), 1) if marker in text)


def check_probe(tmp_path: Path, targets: list[str]) -> dict[int, dict]:
    return {f["line"]: f for f in probe_check(tmp_path, FIXTURE, targets)}


def test_a_flag_carries_its_conditions_and_a_name_bound_twice_none(tmp_path):
    found = check_probe(tmp_path, ["flag_eval", "flag_train_p0", "drawn_eval"])
    flag, twice = found[marker_line("# FLAG-PRINT")], found[marker_line("# TWICE-PRINT")]
    assert flag["when"] == ["training", "set:self.p"]
    assert flag["evidence"]["status"] == "condition-not-met", flag["evidence"]
    assert twice["when"] == [] and twice["evidence"]["status"] == "confirmed"
    drawn = found[marker_line("# DRAWN-BRANCH")]
    assert drawn["code"] == "CL119" and drawn["when"] == ["training", "set:self.quantize_dropout"]
    assert drawn["evidence"]["status"] == "condition-not-met", drawn["evidence"]


def test_targets_that_meet_the_flags_confirm_them(tmp_path):
    found = check_probe(tmp_path, ["flag_train", "drawn_train"])
    for marker in ("# FLAG-PRINT", "# DRAWN-BRANCH"):
        assert found[marker_line(marker)]["evidence"]["status"] == "confirmed", found[marker_line(marker)]


def test_a_loop_needs_what_its_callee_needs_on_the_callee_s_class(tmp_path):
    """The layer's `if self.debug:` seen from the stack's loop is a condition on the layers'
    class: judged by what the run's `DebugLayer`s held, not dropped."""
    loop = marker_line("# STACK-LOOP")
    quiet = check_probe(tmp_path, ["stack_quiet"])[loop]
    assert quiet["code"] == "CL150" and quiet["when"] == ["set:flag_targets:DebugLayer.debug"]
    assert "`DebugLayer.debug` is set" in quiet["message"]
    assert quiet["evidence"]["status"] == "condition-not-met", quiet["evidence"]
    debug = check_probe(tmp_path, ["stack_debug"])[loop]
    assert debug["evidence"]["status"] == "confirmed", debug["evidence"]


def test_a_loop_over_a_subclass_s_override_is_unmet_without_an_instance_of_that_class(tmp_path):
    """The base class's loop calls `self.step`; only `NormNode`'s override breaks, under its
    `normalize`: a run whose module is a `PlainNode` holds no `NormNode`, so the loop's
    `set:...NormNode.normalize` is condition-not-met, not a false alarm; a `NormNode` run
    confirms it."""
    loop = marker_line("# NODE-LOOP")
    plain = check_probe(tmp_path, ["node_plain"])[loop]
    assert plain["code"] == "CL150" and plain["when"] == ["set:flag_targets:NormNode.normalize"]
    assert plain["evidence"]["status"] == "condition-not-met", plain["evidence"]
    norm = check_probe(tmp_path, ["node_norm"])[loop]
    assert norm["evidence"]["status"] == "confirmed", norm["evidence"]
