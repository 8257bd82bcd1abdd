"""CL132 on a tensor a helper is handed or computes from what it is handed (issue 19:
torch-struct's `semiring.convert(terms).requires_grad_(True)`): Dynamo refuses the call only
with gradients on and only on a tensor that does not require grad yet, so the finding says
both (`nograd:scores[*]`, `grad`) and a probe run judges them. Real static pass, real
torch.compile, real probe runs through the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from compilelint import config as config_mod
from compilelint.engine import check

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probe" / "grad_targets.py"


def _lines(marker: str) -> int:
    return next(i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if line.endswith(f"# {marker}"))


def _static(tmp_path, source: str) -> dict:
    (tmp_path / "m.py").write_text(textwrap.dedent(source))
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    result = check([str(tmp_path)], config_mod.load(start=str(tmp_path)))
    return {(f.line, f.code): f.when for f in result.findings}


def test_the_labels_follow_the_tensor_back_to_the_parameter(tmp_path):
    found = _static(tmp_path, """
        import torch
        def convert(t):
            return t.unsqueeze(0)
        class Parser(torch.nn.Module):
            def dim(self, edge):
                for t in edge:
                    t.requires_grad_(True)
                return edge[0].shape
            def dep(self, arc, lengths=None):
                arc = convert(arc)
                arc, n = self.check(arc, lengths)
                arc.requires_grad_(True)
                return arc.sum() * 2
            def check(self, arc, lengths):
                return arc, 3
            def forward(self, x, xs):
                with torch.enable_grad():
                    y = convert(x).requires_grad_(True)
                for t in xs:
                    t.requires_grad_(True)
                mix = (x * 2).requires_grad_(True)
                return self.dim([x]).numel() + self.dep(x) + y.sum(), mix
    """)
    assert found[(8, "CL132")] == ("nograd:edge[*]", "grad")  # a helper's list: its caller's tensors
    assert found[(13, "CL132")] == ("nograd:arc", "grad")  # through `arc = convert(arc)` and an unpacked call
    assert found[(19, "CL132")] == ("nograd:x",)  # under enable_grad: whatever the caller's mode
    assert found[(21, "CL132")] == ("nograd:xs[*]",)  # a forward's input list: refused in either mode
    assert found[(22, "CL132")] == ()  # a tensor the frame returns: refused in either mode


FLAGGED = """
    import torch
    class Semi:
        def convert(self, t):
            return t.unsqueeze(0)
    class CKY(torch.nn.Module):
        def logpartition(self, scores, force_grad=False):
            semiring = Semi()
            terms, rules = scores
            terms, rules = (
                semiring.convert(terms).requires_grad_(True),
                semiring.convert(rules).requires_grad_(True),
            )
            chart = torch.zeros(3).requires_grad_(force_grad and not terms.requires_grad)
            return terms.sum() + rules.sum() + chart.sum()
        def forward(self, x):
            return self.logpartition((x * 2, x * 3){passed})
"""


def test_a_flag_the_caller_passes_and_a_rebinding_tuple(tmp_path):
    """torch-struct's `logpartition`: the tuple that rebinds `terms` reads the old one, and
    `requires_grad_(force_grad and ...)` turns grad on only when a caller passes `force_grad`."""
    found = _static(tmp_path, FLAGGED.format(passed=""))
    assert found == {(11, "CL132"): ("nograd:scores[*]", "grad"), (12, "CL132"): ("nograd:scores[*]", "grad")}
    found = _static(tmp_path, FLAGGED.format(passed=", force_grad=True"))
    assert found[(14, "CL132")] == ()


def test_dynamo_on_the_flagged_helper():
    """Measured: with gradients on, the two intermediates break; a flag left False is a no-op."""
    torch = pytest.importorskip("torch")
    import torch._dynamo as dynamo

    scope: dict = {}
    exec(compile(textwrap.dedent(FLAGGED.format(passed="")), "flagged.py", "exec"), scope)  # noqa: S102
    dynamo.reset()
    explained = dynamo.explain(scope["CKY"]())(torch.randn(3))
    assert {r.user_stack[-1].lineno for r in explained.break_reasons} == {11, 12}


@pytest.mark.parametrize("grad", [True, False])
def test_dynamo_refuses_only_with_gradients_on_and_inputs_without_grad(grad):
    """What the labels say, measured: the helper inlined into a forward whose potentials need
    no grad breaks at both lines with gradients on, and not at all under no_grad; potentials
    a layer computed (they require grad) never break."""
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(FIXTURE.parent))
    try:
        import grad_targets as g
    finally:
        sys.path.remove(str(FIXTURE.parent))
    import torch._dynamo as dynamo

    for factory, breaks_expected in ((g.fixed, grad), (g.learned, False)):
        model, args = factory()
        dynamo.reset()
        with torch.enable_grad() if grad else torch.no_grad():
            explained = dynamo.explain(model)(*args)
        lines = {r.user_stack[-1].lineno for r in explained.break_reasons if r.user_stack}
        assert lines == ({_lines("RULES"), _lines("TERMS")} if breaks_expected else set()), (factory, grad, lines)


def _probe(tmp_path: Path, targets: list[str], train: bool) -> dict[int, dict]:
    shutil.copy(FIXTURE, tmp_path / FIXTURE.name)
    listed = ", ".join(f'"{FIXTURE.name}:{t}"' for t in targets)
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.compilelint.probe]\ntargets = [{listed}]\ntiming = false\ntrain = {'true' if train else 'false'}\n")
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", FIXTURE.name, "--probe", "--format", "json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr[-2000:]
    found = {f["line"]: f for f in json.loads(out.stdout)["findings"] if f["code"] == "CL132"}
    for line in (_lines("RULES"), _lines("TERMS")):
        assert found[line]["when"] == ["nograd:scores[*]", "grad"], found[line]
    return found


def test_a_run_without_gradients_does_not_judge_it(tmp_path):
    found = _probe(tmp_path, ["fixed"], train=False)
    for line in (_lines("RULES"), _lines("TERMS")):
        assert found[line]["evidence"]["status"] == "condition-not-met", found[line]["evidence"]
        assert "grad" in found[line]["evidence"]["unmet"]


def test_potentials_that_require_grad_do_not_judge_it_and_plain_ones_confirm_it(tmp_path):
    found = _probe(tmp_path, ["learned"], train=True)
    assert found[_lines("TERMS")]["evidence"]["status"] == "condition-not-met", found[_lines("TERMS")]["evidence"]
    assert found[_lines("TERMS")]["evidence"]["unmet"] == ["nograd:scores[*]"]
    found = _probe(tmp_path, ["learned", "fixed"], train=True)
    for line in (_lines("RULES"), _lines("TERMS")):
        assert found[line]["evidence"]["status"] == "confirmed", found[line]["evidence"]


def test_a_flag_at_module_level_is_no_caller_s(tmp_path):
    # (a module-level `p.requires_grad_(flag)` has no function whose callers decide: no crash)
    found = _static(tmp_path, """
        import torch
        model = torch.nn.Linear(2, 2)
        freeze = True
        for p in model.parameters():
            p.requires_grad_(not freeze)
            p.requires_grad_(False)
    """)
    assert all(code != "CL001" for _, code in found)


CHART = """
    import torch
    class Chart(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = torch.nn.Linear(3, 3)
        def _make_chart(self, potentials, force_grad=False):
            chart = torch.zeros(3, dtype=potentials.dtype)
            return chart.requires_grad_(force_grad and not potentials.requires_grad)
        def forward(self, x):
            potentials = {potentials}
            return (self._make_chart(potentials, force_grad=True) + potentials).sum()
"""


def test_a_flag_that_tests_a_caller_s_tensor_needs_it_without_grad(tmp_path):
    """torch-struct's `_make_chart`: `requires_grad_(force_grad and not potentials.requires_grad)`
    turns grad on only when the caller's potentials need none (a model's potentials do)."""
    found = _static(tmp_path, CHART.format(potentials="self.proj(x)"))
    assert found[(9, "CL132")] == ("nograd:potentials", "grad")  # (the one caller passes the flag)


@pytest.mark.parametrize(("potentials", "breaks"), [("self.proj(x)", False), ("x * 2", True)])
def test_dynamo_on_a_flag_that_tests_a_caller_s_tensor(potentials, breaks):
    """Measured: potentials a layer computed (they require grad) leave the call a no-op; plain
    ones make it turn grad on, which Dynamo refuses."""
    torch = pytest.importorskip("torch")
    import torch._dynamo as dynamo

    scope: dict = {}
    exec(compile(textwrap.dedent(CHART.format(potentials=potentials)), "chart.py", "exec"), scope)  # noqa: S102
    dynamo.reset()
    explained = dynamo.explain(scope["Chart"]())(torch.randn(3))
    assert {r.user_stack[-1].lineno for r in explained.break_reasons} == ({9} if breaks else set())
