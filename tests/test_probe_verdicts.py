"""Exact verdicts on real Dynamo runs: a break on the first call only, a line shadowed
by a break in a loop, training-only and fp16-only findings, and the statuses match()
gives each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("torch")

from filelock import FileLock  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "probe"))

from probe_cache import cached_run  # noqa: E402

from compilelint.finding import Finding  # noqa: E402
from compilelint.probe.conditions import unmet_conditions  # noqa: E402
from compilelint.probe.match import VERDICTS, match, verdict_counts  # noqa: E402

TARGETS = '''\
import torch
from torch import nn

_WARNED = set()


def warn_once(msg):
    if msg not in _WARNED:
        _WARNED.add(msg)
        print(msg)  # FIRST-CALL


class Lazy(nn.Module):
    def forward(self, x):
        warn_once("Lazy: first call")
        return torch.relu(x) * 2  # AFTER-LAZY


class Filter(nn.Module):
    def forward(self, levels):
        out = []
        for scores in levels:
            keep = scores > 0.5  # BEFORE-MASK
            scores = scores[keep]  # MASK
            idx = torch.where(keep)[0]  # SHADOWED
            out.append(scores.sum() + idx.sum())
        return out


class Conditional(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)

    def forward(self, x):
        x = self.lin(x)
        if x.dtype == torch.float16 and not torch.isfinite(x).all():  # HALF
            x = torch.nan_to_num(x)
        if self.training:
            x = x * x.std().item()  # TRAIN
        return x + 1


def lazy():
    return Lazy(), (torch.randn(4, 8),)


def filter_levels():
    torch.manual_seed(0)
    return Filter(), ([torch.rand(64), torch.rand(32)],)


def conditional():
    torch.manual_seed(0)
    return Conditional().eval(), (torch.randn(4, 16),)
'''


@dataclass
class ConditionalFinding(Finding):
    """A static finding with the `when` the static pass gives conditional findings."""

    when: tuple = ()


@pytest.fixture(scope="module")
def target_file(tmp_path_factory) -> Path:
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # one file for every worker: cached_run shares results by spec
    path = root / "verdict_targets.py"
    with FileLock(str(path) + ".lock"):
        if not path.exists():
            path.write_text(TARGETS)
    return path


@pytest.fixture(scope="module")
def plain(tmp_path_factory, target_file):
    specs = [f"{target_file}:{name}" for name in ("lazy", "filter_levels", "conditional")]
    return cached_run(tmp_path_factory, "verdicts", specs, timeout=240, timing=False)


@pytest.fixture(scope="module")
def train_fp16(tmp_path_factory, target_file):
    return cached_run(tmp_path_factory, "verdicts-train", [f"{target_file}:conditional"], timeout=240,
                      timing=False, train=True, dtype="fp16")


def line(marker: str) -> int:
    for i, text in enumerate(TARGETS.splitlines(), 1):
        if marker in text:
            return i
    raise AssertionError(marker)


def at(target_file: Path, marker: str, code: str = "CL110", **kw) -> Finding:
    cls = ConditionalFinding if "when" in kw else Finding
    return cls(path=str(target_file), line=line(marker), col=1, code=code, message="static", **kw)


def test_a_break_seen_only_on_the_first_call_is_reported_as_such(plain):
    lazy = next(r for r in plain if r.name.endswith(":lazy"))
    assert lazy.status == "ok", lazy.error
    assert lazy.reached_by == "compiled-call"
    first = [b for b in lazy.breaks if b.line == line("# FIRST-CALL")]
    assert first and all(b.first_call_only for b in first)


def test_first_call_only_break_is_confirmed_and_flagged(plain, target_file):
    f = at(target_file, "# FIRST-CALL")
    match([f], plain)
    assert f.evidence["status"] == "confirmed"
    assert f.evidence["first_call_only"] is True


def test_a_break_on_every_call_is_not_first_call_only(plain):
    filt = next(r for r in plain if r.name.endswith(":filter_levels"))
    mask = [b for b in filt.breaks if b.line == line("# MASK")]
    assert mask and not any(b.first_call_only for b in mask)


def test_lines_after_a_break_in_a_loop_are_shadowed_by_it(plain, target_file):
    shadowed = at(target_file, "# SHADOWED", code="CL121")
    before = at(target_file, "# BEFORE-MASK", code="CL102")
    match([shadowed, before], plain)
    ev = shadowed.evidence
    assert ev["status"] == "shadowed"
    assert ev["shadowed_by"]["line"] == line("# MASK")
    assert ev["shadowed_by"]["kind"] == "graph_break" and ev["shadowed_by"]["reason"]
    # Dynamo traced the line before the break in the same frame and did not break there
    assert before.evidence["status"] == "not-reproduced"


def test_reached_lines_include_work_done_on_the_first_call(plain, target_file):
    lazy = next(r for r in plain if r.name.endswith(":lazy"))
    ran = lazy.lines_run[str(target_file)]
    assert line("# FIRST-CALL") in ran and line("# AFTER-LAZY") in ran
    traced = lazy.capture.lines_traced[str(target_file)]
    assert line("# AFTER-LAZY") in traced


def test_conditional_findings_say_which_condition_the_run_did_not_meet(plain, target_file):
    cond = [r for r in plain if r.name.endswith(":conditional")]
    conditions = dict(cond[0].conditions)
    assert conditions.pop("entry")["params"] == {"x": ["passed", "not_none", "truthy", "nograd"]}
    assert conditions.pop("attrs") == {f"{target_file}:Conditional": {"lin": ["truthy"], "training": ["falsy"]}}
    # what each user function's calls were passed on the eager pass (probe.call_args)
    assert conditions.pop("passed")[f"{target_file}:Conditional.forward"]["x"] == ["not_none", "truthy", "nograd"]
    assert conditions == {"training": False, "dtype": "float32", "labels": False}
    half = at(target_file, "# HALF", code="CL102", when=("dtype=float16",))
    train = at(target_file, "# TRAIN", code="CL103", when=("training",))
    plain_half = at(target_file, "# HALF", code="CL102")
    match([half, train, plain_half], cond)
    assert half.evidence["status"] == "condition-not-met" and half.evidence["unmet"] == ["dtype=float16"]
    assert "--dtype fp16" in half.evidence["note"]
    assert train.evidence["status"] == "condition-not-met" and train.evidence["unmet"] == ["training"]
    # without a `when`, the same traced line is simply not reproduced
    assert plain_half.evidence["status"] == "not-reproduced"


def test_train_and_fp16_cover_those_paths(train_fp16, target_file):
    (r,) = train_fp16
    assert r.status == "ok", r.error
    assert r.conditions["training"] is True and r.conditions["dtype"] == "float16"
    half = at(target_file, "# HALF", code="CL102", when=("dtype=float16",))
    train = at(target_file, "# TRAIN", code="CL103", when=("training",))
    match([half, train], train_fp16)
    assert half.evidence["status"] == "confirmed"
    assert train.evidence["status"] == "confirmed" and "item" in train.evidence["reason"]


def test_the_strongest_verdict_wins_across_targets(plain, train_fp16, target_file):
    train = at(target_file, "# TRAIN", code="CL103", when=("training",))
    other = at(target_file, "# SHADOWED", code="CL121")
    match([train, other], [*plain, *train_fp16])
    assert train.evidence["status"] == "confirmed"
    counts = verdict_counts([train, other, Finding(path="x.py", line=1, col=1, code="CL110", message="m")])
    assert counts["confirmed"] == 1 and counts["shadowed"] == 1 and counts["none"] == 1
    assert set(VERDICTS) <= set(counts)


def test_unmet_conditions():
    run = {"training": False, "dtype": "float32", "labels": True}
    assert unmet_conditions(("training", "dtype=float16"), run) == ["training", "dtype=float16"]
    assert unmet_conditions(("eval", "labels"), run) == []
    assert unmet_conditions(("labels is not None",), {"labels": False}) == ["labels is not None"]
    # a label the run cannot judge is not held against it
    assert unmet_conditions(("use_cache",), run) == []
    assert unmet_conditions(("training",), {}) == []


def test_cli_json_carries_verdict_inputs(target_file, tmp_path):
    out = tmp_path / "probe.json"
    proc = subprocess.run(
        [sys.executable, "-m", "compilelint", "probe", f"{target_file}:conditional", "--no-timing",
         "--config-free", "--train", "--dtype", "bf16", "--format", "json", "-o", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr  # the .item() break under --train
    (t,) = json.loads(out.read_text())["targets"]
    assert t["conditions"].pop("entry")["qualname"] == "Conditional.forward"
    assert t["conditions"].pop("attrs")[f"{target_file}:Conditional"]["training"] == ["truthy"]
    assert set(t["conditions"].pop("passed")) == {f"{target_file}:Conditional.forward"}
    assert t["conditions"] == {"training": True, "dtype": "bfloat16", "labels": False}
    assert t["reached_by"] == "compiled-call"
    assert any(b["line"] == line("# TRAIN") and b["first_call_only"] is False for b in t["breaks"])


def test_observe_in_process_feeds_match(tmp_path):
    """The calibration path: observe() in the caller's process, match() on its result."""
    import torch

    from compilelint.probe.observe import observe

    src = tmp_path / "inproc_model.py"
    src.write_text(
        "import torch\n"
        "def step(x):\n"
        "    y = x * 2\n"
        "    if y.sum() > 0:  # BRANCH\n"
        "        y = y + 1\n"
        "    return y.cos()  # AFTER\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import inproc_model
    finally:
        sys.path.remove(str(tmp_path))
    obs = observe(inproc_model.step, [((torch.ones(4),), {})])
    assert obs.reached_by == "compiled-call" and obs.capture.error is None
    branch = Finding(path=str(src), line=4, col=1, code="CL102", message="static")
    after = Finding(path=str(src), line=6, col=1, code="CL110", message="static")
    match([branch, after], [obs.as_result("inproc")])
    assert branch.evidence["status"] == "confirmed" and branch.evidence["target"] == "inproc"
    # Dynamo resumed after the branch and traced the return line
    assert after.evidence["status"] == "not-reproduced"


def test_a_gradients_label_is_judged_by_whether_the_run_had_gradients_on(tmp_path):
    """CL155's `apply` of a classmethod-forward Function breaks only with gradients on (`when:
    grad`): an eval run (gradients off) leaves it unmet, a train run confirms it; the
    `super().forward` finding (`when: no_grad`) is the other way round."""
    import torch

    from compilelint.config import load
    from compilelint.engine import check
    from compilelint.probe.observe import observe

    src = tmp_path / "cm_function_model.py"
    src.write_text(
        "import torch\n"
        "from torch.autograd import Function\n"
        "class Clip(Function):\n"
        "    @classmethod\n"
        "    def forward(cls, ctx, x):\n"
        "        ctx.save_for_backward(x)\n"
        "        return x.clamp(min=0)\n"
        "    @classmethod\n"
        "    def backward(cls, ctx, grad):\n"
        "        (x,) = ctx.saved_tensors\n"
        "        return grad * (x > 0)\n"
        "class Net(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return Clip.apply(x) * 2  # APPLY\n"
    )
    settings = load(None)
    found = [f for f in check([str(src)], settings).findings if f.code == "CL155"]
    assert [(f.line, f.when) for f in found] == [(14, ("grad",))]
    sys.path.insert(0, str(tmp_path))
    try:
        import cm_function_model
    finally:
        sys.path.remove(str(tmp_path))
    verdicts = {}
    for train in (False, True):
        torch._dynamo.reset()
        obs = observe(cm_function_model.Net(), [((torch.randn(3, requires_grad=train),), {})], train=train)
        (finding,) = [Finding(**{**f.to_dict(), "evidence": None}) for f in found]
        match([finding], [obs.as_result("train" if train else "eval")])
        verdicts[train] = finding.evidence["status"]
    assert verdicts == {False: "condition-not-met", True: "confirmed"}
    assert unmet_conditions(("no_grad",), {"training": True}) == ["no_grad"]
    assert unmet_conditions(("no_grad",), {"training": False}) == []
