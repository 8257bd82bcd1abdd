"""Matching static findings with what Dynamo did on the bundled targets."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.finding import Finding  # noqa: E402
from compilelint.probe.match import display_path, findings_from_results, match  # noqa: E402

BROKEN = ["gated_mlp.py:broken", "decoder.py:broken", "postprocess.py:broken"]
FIXED = ["gated_mlp.py:fixed", "decoder.py:fixed", "postprocess.py:fixed"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return cached_run(tmp_path_factory, "bundled", BROKEN + FIXED, timeout=240, timing=False)


def line(file: str, marker: str) -> int:
    for i, text in enumerate((FIXTURES / file).read_text().splitlines(), 1):
        if marker in text:
            return i
    raise AssertionError(marker)


def finding(file: str, ln: int, code: str, scope: str | None = None, rel: bool = True) -> Finding:
    path = str(FIXTURES / file)
    if rel:
        path = os.path.relpath(path)
    return Finding(path=path, line=ln, col=1, code=code, message="static", scope=scope)


def test_bundled_targets_run_and_their_twins_are_clean(results):
    by = {r.target: r for r in results}
    for spec in BROKEN + FIXED:
        assert by[spec].status == "ok", (spec, by[spec].error)
    for spec in FIXED:
        r = by[spec]
        assert r.breaks == [], (spec, [b.reason for b in r.breaks])
        assert r.fullgraph_ok is True
        assert r.capture.graph_count == 1
    for spec in BROKEN:
        assert by[spec].breaks
    # a data-dependent `if` and a `print` stop fullgraph=True; torch 2.13's fullgraph
    # traces nonzero/tolist with unbacked sizes, so postprocess may compile whole
    assert by["gated_mlp.py:broken"].fullgraph_ok is False
    assert by["decoder.py:broken"].fullgraph_ok is False


def test_known_breaks_are_where_the_fixtures_say(results):
    seen = {(Path(b.file).name, b.line) for r in results for b in r.breaks if b.file}
    for file in ("gated_mlp.py", "decoder.py", "postprocess.py"):
        for i, text in enumerate((FIXTURES / file).read_text().splitlines(), 1):
            if "# BREAK:" in text or "# RECOMPILE:" in text:
                assert (file, i) in seen, (file, i, text.strip())


def test_lines_run_are_measured(results):
    broken = next(r for r in results if r.target == "gated_mlp.py:broken")
    ran = broken.lines_run[str(FIXTURES / "gated_mlp.py")]
    assert line("gated_mlp.py", "# BREAK: CL103") in ran
    # GatedMLPFixed.forward did not run in the broken target
    assert line("gated_mlp.py", "h = torch.where(peak > 10") not in ran


def test_statuses(results):
    confirmed = finding("gated_mlp.py", line("gated_mlp.py", "# BREAK: CL102"), "CL102")
    item = finding("gated_mlp.py", line("gated_mlp.py", "# BREAK: CL103"), "CL103", rel=False)
    fine = finding("gated_mlp.py", line("gated_mlp.py", "out = self.down(h)"), "CL110")
    unreached = finding("postprocess.py", line("postprocess.py", "top, idx = best.topk"), "CL120")
    unrelated = Finding(path="somewhere/else.py", line=3, col=1, code="CL110", message="static")
    extra = match([confirmed, item, fine, unreached, unrelated], results)

    assert confirmed.evidence["status"] == "confirmed"
    assert confirmed.evidence["target"] == "gated_mlp.py:broken"
    assert confirmed.evidence["gb_id"] in (None, "GB0170")
    assert confirmed.evidence["reason"]
    assert item.evidence["status"] == "confirmed" and "item" in item.evidence["reason"]
    assert fine.evidence["status"] == "not-reproduced"
    # postprocess.py ran (its broken target), but not PostProcessFixed.forward's body
    # in that target; the fixed target ran it without a break
    assert unreached.evidence["status"] == "not-reproduced"
    assert unrelated.evidence is None
    # the two matched breaks are explained; the other observed ones become CL9xx
    lines = {(Path(f.path).name, f.line) for f in extra}
    assert ("gated_mlp.py", confirmed.line) not in lines
    assert ("gated_mlp.py", item.line) not in lines
    assert ("gated_mlp.py", line("gated_mlp.py", "# BREAK: CL110")) in lines


def test_not_reached(results):
    only_broken = [r for r in results if r.target == "postprocess.py:broken"]
    unreached = finding("postprocess.py", line("postprocess.py", "top, idx = best.topk"), "CL120")
    match([unreached], only_broken)
    assert unreached.evidence["status"] == "not-reached"
    assert unreached.evidence["target"] == "postprocess.py:broken"


def test_recompile_confirmed_through_the_user_stack(results):
    dec = [r for r in results if r.target == "decoder.py:broken"]
    at_guard = finding("decoder.py", line("decoder.py", "# RECOMPILE: CL206"), "CL206")
    at_call = finding("decoder.py", line("decoder.py", "return self.logits(x, temperature)"), "CL206")
    loop = finding("decoder.py", line("decoder.py", "# LOOP: CL150"), "CL150", scope="Decoder.forward")
    extra = match([at_guard, at_call, loop], dec)
    assert at_guard.evidence["status"] == "confirmed" and at_guard.evidence["kind"] == "recompile"
    assert at_call.evidence["status"] == "confirmed" and at_call.evidence["matched"] == "stack"
    assert loop.evidence["status"] == "confirmed" and loop.evidence["kind"] == "frame_skip"
    codes = {f.code for f in extra}
    assert "CL902" not in codes  # the recompile is explained by the static finding
    assert {"CL901", "CL903"} <= codes  # the print in the loop, and the skipped frame


def test_probe_only_findings(results):
    extra = findings_from_results(results)
    by_code = {}
    for f in extra:
        by_code.setdefault(f.code, []).append(f)
    assert set(by_code) == {"CL901", "CL902", "CL903"}
    assert all(f.severity == "error" for f in by_code["CL901"])
    assert all(f.severity == "warning" for f in by_code["CL902"])
    for f in extra:
        assert f.evidence["status"] == "confirmed"
        assert f.evidence["reason"] and f.evidence["reason"] in f.message
        assert not os.path.isabs(f.path) or not str(FIXTURES).startswith(os.getcwd())
        assert f.name.startswith("probe-")
    item = [f for f in by_code["CL901"] if "item" in f.message]
    assert item and item[0].line == line("gated_mlp.py", "# BREAK: CL103")
    # sorted, no duplicates
    keys = [(f.path, f.line, f.code, f.message) for f in extra]
    assert keys == sorted(set(keys), key=keys.index) and len(set(keys)) == len(keys)


def test_match_accepts_result_dicts(results):
    f1 = finding("gated_mlp.py", line("gated_mlp.py", "# BREAK: CL120"), "CL120")
    match([f1], [r.to_dict() for r in results])
    assert f1.evidence["status"] == "confirmed"


def test_display_path(tmp_path):
    inside = os.path.join(os.getcwd(), "a", "b.py")
    assert display_path(inside) == os.path.join("a", "b.py")
    assert display_path("/elsewhere/x.py", cwd=str(tmp_path)) == "/elsewhere/x.py"


def test_loop_confirmed_by_a_frame_skip_whose_stack_passes_through_its_body():
    # The demo's case: the break sits in a helper the loop body calls (another function),
    # so Dynamo's frame-skip record names the helper's line and the loop body's call in its
    # stack, not the `for` line.
    from compilelint.probe.records import BreakRecord
    from compilelint.probe.runner import TargetResult

    loop = line("decoder.py", "LOOP: CL150")
    path = str(FIXTURES / "decoder.py")
    helper_line = line("decoder.py", "def logits")

    def result(stack_line):
        rec = BreakRecord(kind="frame_skip", reason="graph break in loop", gb_id=None, file=path,
                          line=helper_line + 1, function="logits",
                          stack=[(path, stack_line), (path, helper_line + 1)])
        from compilelint.probe.records import CaptureResult
        return TargetResult(target="t", name="t", status="ok",
                            capture=CaptureResult(breaks=[rec], graph_count=2, op_count=4, error=None),
                            lines_run={path: list(range(1, 200))})

    inside, after = finding("decoder.py", loop, "CL150", "Decoder.forward"), \
        finding("decoder.py", loop, "CL150", "Decoder.forward")
    match([inside], [result(loop + 1)])
    assert inside.evidence["status"] == "confirmed"
    # a skip reached through a line outside the loop's body does not confirm it
    match([after], [result(loop - 1)])
    assert after.evidence["status"] != "confirmed"


RESUME_LINE_SOURCE = '''
import torch


def nonzero_rows(pos):
    return (pos > 0).nonzero()


class Pool(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def prepare(self, pos):
        return pos, nonzero_rows(pos)

    def forward(self, pos):
        pos, idx = self.prepare(pos)
        out = self.lin(pos)
        scaled = out.mul(
            2.0,
        ).add(1.0)
        return scaled.sum(0).expand(int(idx.max()) + 1, 3)  # the break


class Unrelated(torch.nn.Module):
    def __init__(
        self,
        a,
    ):
        super().__init__()
'''


def test_break_dynamo_puts_past_its_function_matches_that_functions_finding(tmp_path, monkeypatch):
    """Dynamo 2.13 on Python 3.11 can report a break in a resume function on a line past
    the function's end (e3nn's SimpleNetwork: `int(batch.max())` at 103, reported at 110):
    the record goes to the one breaking finding of that function, and nothing else."""
    from compilelint.probe.capture import capture
    from compilelint.probe.runner import TargetResult

    (tmp_path / "resume_line.py").write_text(RESUME_LINE_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import torch
    import resume_line

    res = capture(resume_line.Pool(), (torch.randn(5, 3),))
    path = str(tmp_path / "resume_line.py")
    text = RESUME_LINE_SOURCE.splitlines()
    at = next(i for i, t in enumerate(text, 1) if "# the break" in t)
    end = next(i for i, t in enumerate(text, 1) if t.startswith("class Unrelated")) - 1
    item = [b for b in res.breaks if b.file == path and "item" in (b.reason or "").lower()]
    assert item, res.breaks
    result = TargetResult(target="t", name="t", status="ok", capture=res, lines_run={path: list(range(1, 40))})
    int_call = Finding(path=path, line=at, col=1, code="CL102", message="static", scope="Pool.forward")
    elsewhere = Finding(path=path, line=end + 4, col=1, code="CL102", message="static", scope="Unrelated.__init__")
    new = match([int_call, elsewhere], [result])
    assert int_call.evidence["status"] == "confirmed"
    assert elsewhere.evidence is None or elsewhere.evidence["status"] != "confirmed"
    assert not [n for n in new if n.line == item[0].line]  # explained, not a probe-only break
    if item[0].line == at:
        pytest.skip("this torch reports the break on its own line")


ECHO_SOURCE = '''
import functools

import numpy as np
import torch


class Quadrature(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return Quadrature.integrate(a, b)

    @staticmethod
    def backward(ctx, grad):
        return grad, grad

    @staticmethod
    @functools.cache
    def nodes(n):
        x, w = np.polynomial.legendre.leggauss(n)  # the break
        return torch.as_tensor(x, dtype=torch.float32), torch.as_tensor(w, dtype=torch.float32)

    @staticmethod
    def integrate(a, b):
        x, w = Quadrature.nodes(4)  # its echo
        return ((b - a)[..., None] * w * torch.lerp(a[..., None], b[..., None], x)).sum(-1)


def area(a, b):
    return Quadrature.apply(a, b) * 2
'''


def _program(tmp_path, monkeypatch, name: str, source: str, build):
    """Capture a real program written to `name`.py (`build(module, torch)` gives the
    callable and its arguments): its breaks, the line of each `# marker` comment, and the
    lines of the new (probe-only) findings `match` makes for given static findings."""
    import importlib

    import torch
    from compilelint.probe.capture import capture
    from compilelint.probe.runner import TargetResult

    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    fn, args = build(importlib.import_module(name), torch)
    res = capture(fn, args)
    path = str(tmp_path / f"{name}.py")
    lines = source.splitlines()
    line_of = lambda mark: next(i for i, t in enumerate(lines, 1) if f"# {mark}" in t)  # noqa: E731
    result = TargetResult(target="t", name="t", status="ok", capture=res,
                          lines_run={path: list(range(1, len(lines) + 1))})

    def new_lines(findings, codes=("CL901", "CL902", "CL903")):
        return {n.line for n in match(findings, [result]) if n.path == path and n.code in codes}
    return res, path, line_of, new_lines


def test_a_breaks_echo_at_the_call_is_explained_by_the_finding_that_explains_the_break(tmp_path, monkeypatch):
    """zuko's Gauss-Legendre quadrature: Dynamo cannot resume inside a `functools.cache`
    function called from an autograd.Function's forward, and reports the same break (GB0007)
    once more at the call. The finding at the break explains both; without it both are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "echo_quadrature", ECHO_SOURCE,
        lambda mod, torch: (mod.area, (torch.zeros(3), torch.ones(3))))
    brk, echo = line_of("the break"), line_of("its echo")
    assert {brk, echo} <= {b.line for b in res.breaks if b.file == path and b.gb_id == "GB0007"}, res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=16, code="CL119", message="static", scope="Quadrature.nodes")
    assert not {brk, echo} & new_lines([finding])
    assert finding.evidence["status"] == "confirmed"

WITH_SOURCE = '''
import warnings

import torch
import torch.nn as nn


class Base(nn.Module):
    def forward(self, a, b):
        return a @ b.T


class Grid(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = Base()

    def forward(self, x):
        first = torch.stack([p[0].unsqueeze(0) for p in x], dim=-1)
        with warnings.catch_warnings():  # the with
            warnings.simplefilter("ignore", DeprecationWarning)  # the break
            covars = self.base(first, first)
        return covars.relu()


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.grid = Grid()

    def forward(self, x):
        return self.grid(x) * 3  # the call
'''


def test_a_break_inside_a_with_block_is_echoed_at_the_with_and_at_the_call(tmp_path, monkeypatch):
    """gpytorch's grid kernel: `warnings.simplefilter` inside `with warnings.catch_warnings()`
    in an inlined forward. Dynamo logs the break (GB0007), the `with` as a step it could not
    take (`step_unsupported`) and the same id again at the caller's call. The finding at the
    break explains all three; without it all three are new."""
    from compilelint.probe.capture import capture
    from compilelint.probe.runner import TargetResult

    (tmp_path / "with_echo.py").write_text(WITH_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import torch
    import with_echo

    res = capture(with_echo.Outer(), (torch.randn(2, 4),))
    path = str(tmp_path / "with_echo.py")
    text = WITH_SOURCE.splitlines()
    at = {label: next(i for i, t in enumerate(text, 1) if f"# the {label}" in t) for label in ("with", "break", "call")}
    logged = {b.line for b in res.breaks if b.file == path and b.kind == "graph_break"}
    assert set(at.values()) <= logged, res.breaks
    result = TargetResult(target="t", name="t", status="ok", capture=res, lines_run={path: list(range(1, 36))})
    new_lines = lambda findings: {n.line for n in match(findings, [result]) if n.path.endswith("with_echo.py")}  # noqa: E731
    assert set(at.values()) <= new_lines([])
    finding = Finding(path=path, line=at["break"], col=13, code="CL112", message="static", scope="Grid.forward")
    assert not set(at.values()) & new_lines([finding])


COMPREHENSION_SOURCE = '''
import torch
import torch.nn as nn


class Prompted(nn.Module):
    def forward(self, batch):
        images = torch.stack([self.scale(r["image"]) for r in batch])  # the comprehension
        out = []
        for r in batch:
            out.append(r["image"].nonzero())  # the break
        return images, out

    def scale(self, t):
        return t * 2


class Plain(nn.Module):
    def forward(self, batch):
        return torch.stack([self.scale(r["image"]) for r in batch])  # no break around it

    def scale(self, t):
        return t * 2
'''


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 inlines comprehensions (PEP 709)")
def test_a_comprehension_compiled_alone_after_its_function_broke_is_an_echo(tmp_path, monkeypatch):
    """segment-anything's forward: a break in a loop makes Dynamo run the whole function
    eagerly; before Python 3.12 the comprehension in it is then a frame of its own, which
    Dynamo compiles alone and cannot step (`Missing tp_iternext`). The finding at the break
    explains it; without that finding it is new, and a comprehension in a function that did
    not break is never compiled alone."""
    from compilelint.probe.capture import capture
    from compilelint.probe.runner import TargetResult

    (tmp_path / "comp_echo.py").write_text(COMPREHENSION_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import torch
    import comp_echo

    batch = [{"image": torch.randn(3)}, {"image": torch.randn(3)}]
    path = str(tmp_path / "comp_echo.py")
    text = COMPREHENSION_SOURCE.splitlines()
    at = {label: next(i for i, t in enumerate(text, 1) if f"# the {label}" in t) for label in ("comprehension", "break")}
    res = capture(comp_echo.Prompted(), (batch,))
    iternext = {b.line for b in res.breaks if b.file == path and b.reason.startswith("Missing tp_iternext")}
    assert iternext == {at["comprehension"]}, res.breaks
    assert not capture(comp_echo.Plain(), (batch,)).breaks
    result = TargetResult(target="t", name="t", status="ok", capture=res, lines_run={path: list(range(1, 25))})
    new_lines = lambda findings: {n.line for n in match(findings, [result]) if n.path.endswith("comp_echo.py")}  # noqa: E731
    assert set(at.values()) <= new_lines([])
    finding = Finding(path=path, line=at["break"], col=24, code="CL120", message="static", scope="Prompted.forward")
    assert not set(at.values()) & new_lines([finding])


SUBMODULE_ECHO_SOURCE = '''
import torch
from torch.autograd import Variable


class Select(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("index", torch.zeros(3, dtype=torch.long))

    def forward(self, x):
        return torch.index_select(x, 1, Variable(self.index)) * 2  # the break


class Parent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.select = Select()

    def forward(self, x):
        y = self.select(x + 1)  # its echo
        return y - 1
'''


def test_a_submodules_break_echoed_at_its_call_is_explained_by_dynamos_duplicate_mark(tmp_path, monkeypatch):
    """pytorchcv's condensenet: `Variable(self.index)` in a submodule breaks (GB0007); Dynamo
    logs it once more at the call in the parent, its user stack "suppressed due to
    duplicate graph break". The finding at the break explains the echo; without it both
    are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "echo_select", SUBMODULE_ECHO_SOURCE,
        lambda mod, torch: (mod.Parent(), (torch.zeros(2, 4),)))
    brk, echo = line_of("the break"), line_of("its echo")
    echoes = [b for b in res.breaks if b.file == path and b.line == echo]
    assert echoes and all("duplicate" in b.detail for b in echoes), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=40, code="CL119", message="static", scope="Select.forward")
    assert not {brk, echo} & new_lines([finding])

RECOMPILED_SOURCE = '''
import torch
from torch.autograd import Variable


class Select(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("index", torch.arange(n))

    def forward(self, x):  # the skip
        x = torch.index_select(x, 1, Variable(self.index))  # the break
        return torch.cat([x, x], 1)


class Parent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Select(2 ** i) for i in range(10))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x
'''


def test_a_recompile_limit_in_a_function_that_breaks_is_explained_by_its_break(tmp_path, monkeypatch):
    """A module whose forward breaks runs as frames of its own, compiled again for each of
    the ten instances until the recompile limit skips it (pytorchcv's condensenet): the
    finding at the break explains the skip too; without it both are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "recompiled_select", RECOMPILED_SOURCE,
        lambda mod, torch: (mod.Parent(), (torch.zeros(2, 1),)))
    brk, skip = line_of("the break"), line_of("the skip")
    assert any(b.kind == "frame_skip" and b.line == skip and "recompile_limit" in b.reason for b in res.breaks), \
        res.breaks
    breaks_only = ("CL901", "CL903")  # (not the recompiles, CL902)
    assert {brk, skip} <= new_lines([], breaks_only)
    finding = Finding(path=path, line=brk, col=38, code="CL119", message="static", scope="Select.forward")
    assert not {brk, skip} & new_lines([finding], breaks_only)


SHIFTED_SOURCE = '''
import numpy as np
import torch


def drop_mask(n, b):
    m = np.random.binomial(  # the first break
        n=1,
        p=0.5,
        size=(n, b)).astype(np.float32)
    alive = m.sum(axis=0)
    dead = np.where(alive == 0.0)[0]  # the second break
    m[np.random.randint(0, n, size=dead.shape), dead] = 1.0
    d = np.concatenate((m, m), axis=1)
    return torch.from_numpy(d)


def masked(x):
    return x + drop_mask(3, 4).sum()
'''


def test_a_break_shifted_after_a_multi_line_statement_goes_to_the_finding_it_came_from(tmp_path, monkeypatch):
    """pytorchcv's FractalNet drop mask: once a function breaks at a statement of several
    lines (`np.random.binomial(...)`), torch 2.13 on Python 3.11 reports the next break
    (the `np.where`, GB0036) on a later line of the function. It is the finding's, of the
    same Dynamo id, between the two; a finding of another id there does not take it."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "shifted_break", SHIFTED_SOURCE,
        lambda mod, torch: (mod.masked, (torch.rand(3),)))
    first, second = line_of("the first break"), line_of("the second break")
    nonzero = [b for b in res.breaks if b.file == path and b.gb_id == "GB0036"]
    assert nonzero, res.breaks
    reported = nonzero[0].line
    if reported == second:
        pytest.skip("this torch reports the break on its own line")
    rng = Finding(path=path, line=first, col=9, code="CL119", message="static", scope="drop_mask")
    where = Finding(path=path, line=second, col=12, code="CL120", message="static", scope="drop_mask")
    assert reported in new_lines([rng])
    assert reported not in new_lines([rng, where])
    assert where.evidence["status"] == "confirmed"
    other = Finding(path=path, line=second, col=12, code="CL103", message="static", scope="drop_mask")
    assert reported in new_lines([rng, other])
    assert other.evidence["status"] != "confirmed"


BUILT_SOURCE = '''
import torch
import torch.nn as nn


class Scaler:
    def __init__(self, s):
        self.s = s

    def apply(self, x):
        print("scaling")  # the break
        return x * self.s


class Meta(nn.Module):
    def forward(self, x):
        return Scaler(2.0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.meta = Meta()

    def forward(self, x):
        y = self.meta(x).apply(x)  # its echo
        return y + 1
'''


def test_a_break_in_a_method_of_a_built_object_is_echoed_at_the_call_as_a_reconstruction_failure(
        tmp_path, monkeypatch):
    """zuko's autoregressive transforms: `self.meta(x).call_and_ladj(x)` calls a method of a
    transform the frame just built, and a break inside it (`print` here) is logged once more
    at the call as GB0092: Dynamo cannot rebuild the bound method to resume. The finding at
    the break explains that echo; without one, both are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "built_echo", BUILT_SOURCE,
        lambda mod, torch: (mod.Net(), (torch.rand(3),)))
    brk, echo = line_of("the break"), line_of("its echo")
    assert any(b.line == echo and b.gb_id == "GB0092" and "reconstruction" in b.reason.lower()
               for b in res.breaks if b.file == path), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL110", message="static", scope="Scaler.apply")
    assert not {brk, echo} & new_lines([finding])
    assert finding.evidence["status"] == "confirmed"


UNINITIALIZED_SOURCE = '''
import torch
from torch import nn


class Solver(nn.Module):
    def __init__(self, model):
        super().__init__()  # solver echo
        self.model = model

    def forward(self, x):
        return self.model(x) * 2


class Control(nn.Module):
    def __init__(self, x):
        super().__init__()  # control echo
        if x.sum() > 0:  # control break
            self.scale = 1.0
        else:
            self.scale = 2.0

    def forward(self, x):
        return x * self.scale


def sample(x):
    for i in range(3):
        print("step", i)  # loop break
        x = x + 1
    return Solver(torch.sin)(x)


def controlled(x):
    return Control(x)(x) + 1


def plain(x):
    return Solver(torch.sin)(x) + 1


class Child(Solver):
    def __init__(self):
        super().__init__(torch.cos)  # child echo


SOLVERS = {"child": Child}


def chained(x):
    solver = SOLVERS["child"]()
    for i in range(3):
        print("step", i)  # chained break
        x = x + 1
    return solver(x)


def noisy(x):
    print("noisy", x.shape)  # helper break
    return x + 1


def looped(x):
    for i in range(3):
        x = noisy(x)
    return Solver(torch.sin)(x)
'''


@pytest.mark.parametrize("entry, brk, echo, code, scope", [
    ("sample", "loop break", "solver echo", "CL110", "sample"),
    ("controlled", "control break", "control echo", "CL102", "Control.__init__"),
])
def test_a_module_built_by_eager_code_is_refused_at_its_init_as_an_echo(tmp_path, monkeypatch, entry, brk, echo,
                                                                        code, scope):
    """k-diffusion's samplers: a break in a loop makes Dynamo run the sampler eagerly, and the
    `DPMSolver(...)` it builds then has its `__init__` compiled as a frame of its own, which
    Dynamo refuses (an uninitialized module, GB0119); a break inside a constructor does the
    same. The finding at the break explains that echo; without one, both are new; a module
    built inside a frame Dynamo traces is no break at all."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, f"uninit_{entry}", UNINITIALIZED_SOURCE,
        lambda mod, torch: (getattr(mod, entry), (torch.ones(3),)))
    brk, echo = line_of(brk), line_of(echo)
    assert any(b.line == echo and b.gb_id == "GB0119" and b.kind == "graph_break" for b in res.breaks
               if b.file == path), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code=code, message="static", scope=scope)
    assert not {brk, echo} & new_lines([finding])
    assert finding.evidence["status"] == "confirmed"


def test_a_module_init_skipped_alone_is_an_echo_of_its_builders_break(tmp_path, monkeypatch):
    """torchode's `solve_ivp` builds its step method through a dict (`METHODS[method](...)`)
    and runs eagerly for a break further on: Dynamo then skips the class's `__init__` and
    each base's `__init__` it runs, as frames of their own (GB0119 on the skip, no break
    logged). The finding at the builder's break explains both skips; without it they are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "uninit_chained", UNINITIALIZED_SOURCE,
        lambda mod, torch: (mod.chained, (torch.ones(3),)))
    brk, child, base = line_of("chained break"), line_of("child echo"), line_of("solver echo")
    skips = {b.line for b in res.breaks if b.file == path and b.kind == "frame_skip" and b.gb_id == "GB0119"}
    assert skips == {child, base}, res.breaks
    assert not any(b.kind == "graph_break" and b.gb_id == "GB0119" for b in res.breaks), res.breaks
    assert {brk, child, base} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL110", message="static", scope="chained")
    assert not {brk, child, base} & new_lines([finding])


def test_a_module_built_by_a_function_whose_callee_broke_is_an_echo_of_that_break(tmp_path, monkeypatch):
    """asteroid-filterbanks' `misi`: its loop calls a helper that breaks, so Dynamo skips the
    whole function (a break in a loop) and the `Decoder(STFTFB(...))` it builds after the loop
    has its `__init__` compiled as a frame of its own, refused (GB0119). The break is not in the
    builder's own lines but in a call it makes (the builder on the break's stack): the finding
    at that break explains the refused constructor too; without it, both are new."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "uninit_looped", UNINITIALIZED_SOURCE,
        lambda mod, torch: (mod.looped, (torch.ones(3),)))
    brk, echo = line_of("helper break"), line_of("solver echo")
    assert any(b.line == echo and b.gb_id == "GB0119" for b in res.breaks if b.file == path), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=5, code="CL110", message="static", scope="noisy")
    assert not {brk, echo} & new_lines([finding])
    assert finding.evidence["status"] == "confirmed"


LED_SOURCE = '''
import torch
from torch import nn
from abc import ABC


class Logged(nn.Module, ABC):
    def __init__(self, **kwargs):
        super().__init__()  # logged echo
        self.device = torch.get_default_device()  # inside the construction


class Loss(Logged):
    def __init__(self):
        super().__init__()  # loss echo


def step(x):
    loss = Loss()  # the construction
    return x * 2, loss
'''


def test_a_module_whose_construction_a_finding_leads_to_explains_its_init_echoes(tmp_path, monkeypatch):
    """pytorch-forecasting builds a torchmetrics metric in NHiTS' forward: the break is inside
    torchmetrics' `Metric.__init__` (`torch.get_default_device()`, GB0208), reached from the
    construction line, and each `__init__` then runs as a frame of its own, refused (GB0119).
    A finding at the construction line is confirmed through the break's stack, and explains
    the refused `__init__` frames; the break inside the base stays new (no finding there)."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "led_construction", LED_SOURCE, lambda mod, torch: (mod.step, (torch.ones(3),)))
    inside, built = line_of("inside the construction"), line_of("the construction")
    echoes = {line_of("logged echo"), line_of("loss echo")}
    assert any(b.line == inside and b.gb_id == "GB0208" for b in res.breaks if b.file == path), res.breaks
    skipped = {b.line for b in res.breaks if b.file == path and b.kind == "frame_skip" and b.gb_id == "GB0119"}
    assert echoes <= skipped, res.breaks
    assert echoes | {inside} <= new_lines([])
    finding = Finding(path=path, line=built, col=12, code="CL119", message="static", scope="step")
    assert not echoes & new_lines([finding])
    assert inside in new_lines([finding])
    assert finding.evidence["status"] == "confirmed"


ECHOED_BUILDER_SOURCE = '''
import torch
from torch import nn


class Helper:
    def go(self, x):
        print("go")  # the break
        return x * 2


class Solver(nn.Module):
    def __init__(self):
        super().__init__()  # solver echo
        self.scale = 2.0


def check(x):
    s = Solver()
    y = Helper().go(x)  # its echo
    return y * s.scale
'''


def test_a_module_whose_builder_broke_at_an_echo_is_an_echo_too(tmp_path, monkeypatch):
    """torchsde's `check_contract` builds `ForwardSDE(sde)`, then a `BrownianInterval` whose
    method breaks: Dynamo cannot rebuild the object to resume (a reconstruction failure at the
    call, GB0092), runs the function eagerly, and refuses the module's `__init__` as a frame of
    its own (GB0119). The finding at the break explains the echo at the call, and so the
    builder's break, and so the refused `__init__`."""
    res, path, line_of, new_lines = _program(
        tmp_path, monkeypatch, "echoed_builder", ECHOED_BUILDER_SOURCE, lambda mod, torch: (mod.check, (torch.ones(3),)))
    brk, echo, init = line_of("the break"), line_of("its echo"), line_of("solver echo")
    assert any(b.line == echo and b.gb_id == "GB0092" for b in res.breaks if b.file == path), res.breaks
    assert any(b.line == init and b.gb_id == "GB0119" for b in res.breaks if b.file == path), res.breaks
    assert {brk, echo, init} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL110", message="static", scope="Helper.go")
    assert not {brk, echo, init} & new_lines([finding])


def test_a_module_built_inside_a_traced_frame_breaks_nowhere(tmp_path, monkeypatch):
    res, path, _, new_lines = _program(tmp_path, monkeypatch, "uninit_plain", UNINITIALIZED_SOURCE,
                                       lambda mod, torch: (mod.plain, (torch.ones(3),)))
    assert not [b for b in res.breaks if b.file == path]
    assert not new_lines([])


RESUMED_LOOP_SOURCE = '''
import torch
from torch import nn


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 4, batch_first=True)
        self.proj = nn.Linear(4, 3)

    def unroll(self, x):
        return self.rnn(x)  # the first lstm

    def forward(self, x):
        out, state = self.unroll(x)
        nxt = self.proj(out[:, -1:])
        samples = [nxt]
        WITH
        for k in range(1, 3):  # the loop
            output, state = self.rnn(nxt, state)  # the second lstm
            nxt = self.proj(output)
            samples.append(nxt)
        return torch.cat(samples, 1)
'''


@pytest.mark.parametrize("within", [False, True])
def test_a_break_a_resume_function_cannot_resume_from_in_a_loop(tmp_path, monkeypatch, within):
    """gluonts' DeepAR sampling loop: after a break before it, the rest of `forward` is a
    resume function, and the LSTM called in its loop is a break Dynamo cannot resume from:
    it compiles up to the loop (a `step_unsupported` at the loop, or at a `with` around it)
    and runs the rest eagerly. The finding at the call explains the step; the loop's CL150
    is confirmed by the break, wherever Dynamo put the step."""
    source = RESUMED_LOOP_SOURCE
    if within:  # the same loop inside `with torch.no_grad():`
        head, _, tail = source.partition("        WITH\n")
        body, _, rest = tail.partition("        return")
        source = head + "        with torch.no_grad():\n" + "".join(
            "    " + ln + "\n" for ln in body.rstrip("\n").split("\n")) + "        return" + rest
    else:
        source = source.replace("        WITH\n", "")
    res, path, line_of, new_lines = _program(tmp_path, monkeypatch, f"resumed_loop_{within}", source,
                                             lambda mod, torch: (mod.Sampler(), (torch.randn(2, 5, 3),)))
    first, loop, second = line_of("the first lstm"), line_of("the loop"), line_of("the second lstm")
    assert any(b.line == second and b.reason.startswith("Encountered graph break that we cannot resume from")
               for b in res.breaks if b.file == path), res.breaks
    steps = {b.line for b in res.breaks if b.file == path and b.reason == "step_unsupported"}
    assert steps == {loop - 1 if within else loop}, res.breaks
    lstm = [Finding(path=path, line=ln, col=9, code="CL119", message="calling an `nn.LSTM` (GB0014)",
                    scope=scope) for ln, scope in ((first, "Sampler.unroll"), (second, "Sampler.forward"))]
    assert not new_lines(lstm)
    cl150 = Finding(path=path, line=loop, col=9, code="CL150", message="static", scope="Sampler.forward")
    assert not new_lines([*lstm, cl150])
    assert cl150.evidence["status"] == "confirmed", cl150.evidence
    assert {second} | steps <= new_lines(lstm[:1])


def test_a_finding_stands_for_the_graph_break_id_its_message_names():
    from compilelint.probe.misplaced import _gb_ids

    lstm = Finding(path="m.py", line=3, col=1, code="CL119", message="calling an `nn.LSTM` ... (GB0014)")
    assert _gb_ids(lstm) == {"GB0014", "GB0007"}
    assert _gb_ids(Finding(path="m.py", line=3, col=1, code="CL120", message="static")) == {"GB0036"}


UNWOUND_SOURCE = '''
import torch
from torch import nn


def solve(y):
    x = y.clone().detach()
    torch.optim.LBFGS([x], lr=1.0)  # the break
    return x


class Flow(nn.Module):
    def reverse(self, y):
        return solve(y) * 2  # flow frame


class Flows(nn.Module):
    def __init__(self):
        super().__init__()
        self.flows = nn.ModuleList([Flow(), Flow()])

    def reverse(self, y):
        for flow in self.flows:
            y = flow.reverse(y)  # flows frame
        return y


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.flows = Flows()

    def forward(self, y):
        return self.flows.reverse(y) + 1  # model frame
'''


def test_the_frames_an_exception_unwinds_are_the_breaks_echoes(tmp_path, monkeypatch):
    """gluonts' MQF2 sampler: building an LBFGS optimiser deep in a model's calls raises while
    Dynamo traces it (an observed exception, GB0088), and no frame catches it: Dynamo skips
    the model's frame, then compiles each function it calls eagerly on the way down, and
    skips each of them in turn, the loop's frame too (whose line is not on the break's own
    user stack). The finding at the construction explains every one of them."""
    res, path, line_of, new_lines = _program(tmp_path, monkeypatch, "unwound", UNWOUND_SOURCE,
                                             lambda mod, torch: (mod.Model(), (torch.ones(3),)))
    frames = {line_of(f"{name} frame") for name in ("flow", "flows", "model")}
    brk = line_of("the break")
    if not any(b.line == brk and b.gb_id == "GB0088" for b in res.breaks if b.file == path):
        pytest.skip("this torch release does not raise while building the optimiser (2.11: a setattr break)")
    skipped = {b.line for b in res.breaks if b.file == path and b.kind == "frame_skip" and b.gb_id == "GB0088"}
    assert frames <= skipped, res.breaks
    assert frames | {brk} <= new_lines([])
    finding = Finding(path=path, line=brk, col=5, code="CL119", message="static", scope="solve")
    assert not (frames | {brk}) & new_lines([finding])


METACLASS_SOURCE = '''
import abc

import torch


class Checked(abc.ABCMeta):
    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)  # metaclass echo
        return instance


class Solver(metaclass=Checked):
    def __init__(self, y0):
        self.y0 = y0 * 2


def solve(x):
    for step in range(2):
        print("step", step)  # the break
    return Solver(x).y0  # built eagerly
'''


def test_a_metaclass_call_compiled_alone_is_its_builders_echo(tmp_path, monkeypatch):
    """torchsde's `sdeint` breaks in its solver loop, so Dynamo runs it eagerly, and the
    solver it builds goes through `better_abc.ABCMeta.__call__` as a frame of its own, where
    `super().__call__()` cannot be traced (GB0006; inlined in a traced frame it is). The
    finding at the builder's break explains the metaclass's."""
    res, path, line_of, new_lines = _program(tmp_path, monkeypatch, "metaclass_echo", METACLASS_SOURCE,
                                             lambda mod, torch: (mod.solve, (torch.ones(3),)))
    brk, echo = line_of("the break"), line_of("metaclass echo")
    assert any(b.line == echo and b.gb_id == "GB0006" for b in res.breaks if b.file == path), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL110", message="static", scope="solve")
    assert not {brk, echo} & new_lines([finding])


REBUILT_SOURCE = '''
import torch
from torch import nn


class Spline:
    def __init__(self, w):
        self.w = w

    def inv(self, y):
        print("inv")  # the break
        return y * self.w


class Coupling(nn.Module):
    def __init__(self):
        super().__init__()
        self.lower = Spline(2.0)

    def forward(self, y):
        x1 = self.lower.inv(y)  # resumed
        upper = Spline(3.0)
        return upper.inv(x1)  # rebuilt echo
'''


def test_a_reconstruction_failure_after_the_same_break_in_the_function_is_its_echo(tmp_path, monkeypatch):
    """pyro's `SplineCoupling._inverse`: the lower spline's `_inv_call` (an attribute's) breaks
    and Dynamo resumes after it; the upper spline's (an object the function built) meets the
    same break, which Dynamo does not log again, and cannot rebuild the method to resume
    (GB0092). The finding at the break explains the reconstruction failure too."""
    res, path, line_of, new_lines = _program(tmp_path, monkeypatch, "rebuilt_echo", REBUILT_SOURCE,
                                             lambda mod, torch: (mod.Coupling(), (torch.ones(3),)))
    brk, echo = line_of("the break"), line_of("rebuilt echo")
    assert any(b.line == echo and b.gb_id == "GB0092" for b in res.breaks if b.file == path), res.breaks
    assert {brk, echo} <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL110", message="static", scope="Spline.inv")
    assert not {brk, echo} & new_lines([finding])


TRANSFORMED_SOURCE = '''
import torch


def radon(x):
    n = int(x.sum().abs().ceil())  # the break
    y = x.sin() * n
    return y.cos()


def adjoint(y):
    x = torch.ones_like(y)
    _, vjp = torch.func.vjp(radon, x)  # transform echo
    return vjp(y)[0]
'''


def test_a_torch_func_transform_of_a_breaking_function_is_its_echo(tmp_path, monkeypatch):
    """deepinv's adjoint of a Radon transform: `torch.func.vjp` traces the transform, which
    reads a tensor's value (a break); Dynamo cannot resume inside the functorch transform and
    says so (GB0149) at the `vjp` call (in deepinv, also at a later line of the transform). The
    finding at the break explains it."""
    res, path, line_of, new_lines = _program(tmp_path, monkeypatch, "transformed_echo", TRANSFORMED_SOURCE,
                                             lambda mod, torch: (mod.adjoint, (torch.ones(3),)))
    brk = line_of("the break")
    echoes = {b.line for b in res.breaks if b.file == path and b.gb_id == "GB0149"}
    if not echoes:
        pytest.skip("this torch release traces the transform after the break")
    assert {brk} | echoes <= new_lines([])
    finding = Finding(path=path, line=brk, col=9, code="CL107", message="static", scope="radon")
    assert not ({brk} | echoes) & new_lines([finding])
