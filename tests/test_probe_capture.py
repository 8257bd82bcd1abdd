"""capture(): every graph break, recompile and frame skip, from Dynamo's own records.

Real torch.compile with backend="eager" (capture does not need a real compiler)."""

from __future__ import annotations

import inspect
import logging

import pytest

torch = pytest.importorskip("torch")

from compilelint.probe.capture import BreakRecord, CaptureResult, capture, is_user_file  # noqa: E402

HERE = __file__


def line_of(fn, marker: str) -> int:
    src, start = inspect.getsourcelines(fn)
    for i, text in enumerate(src):
        if marker in text:
            return start + i
    raise AssertionError(f"{marker!r} not in {fn.__name__}")


def f_if(x):
    y = x * 2
    if y.sum() > 0:  # BREAK
        return y + 1
    return y - 1


def f_item(x):
    y = x * 2
    v = y.sum().item()  # BREAK
    return y + v


def f_print(x):
    print("probe says hi")  # BREAK
    return x * 2


def f_explicit(x):
    y = x + 1
    torch._dynamo.graph_break()  # BREAK
    return y * 2


def f_loop(x):
    for i in range(3):  # LOOP
        x = x + 1
        print(i)  # BREAK
    return x


def f_nonzero(x):
    y = x * 2
    return y.nonzero()  # BREAK


def f_scale(x, s):
    return x * s  # GUARD


def _helper(x):
    print("in helper")  # BREAK
    return x


def f_nested(x):
    return _helper(x + 1) * 2  # CALL


def f_clean(x):
    return torch.relu(x * 2) + 1


def f_first_instruction(x):
    print("before any op")  # BREAK
    return x


def f_raises(x):
    y = x * 2
    raise ValueError("boom from the target")


def _one(fn, *args, **kw) -> CaptureResult:
    return capture(fn, args or (torch.randn(8),), backend="eager", **kw)


def _only_break(res: CaptureResult) -> BreakRecord:
    gbs = res.graph_breaks
    assert len(gbs) == 1, [b.reason for b in res.breaks]
    return gbs[0]


def test_data_dependent_if():
    res = _one(f_if)
    b = _only_break(res)
    assert b.file == HERE and b.line == line_of(f_if, "# BREAK")
    assert b.function == "f_if"
    assert "data-dependent" in b.reason.lower() or "jump" in b.reason.lower()
    assert b.gb_id in (None, "GB0170")
    assert res.graph_count >= 1 and res.op_count >= 1
    assert res.error is None
    # the stack holds user frames only, the break's frame innermost
    assert b.stack[-1] == (HERE, b.line)
    assert all(is_user_file(f) for f, _ in b.stack)


def test_item():
    b = _only_break(_one(f_item))
    assert b.line == line_of(f_item, "# BREAK")
    assert "item" in b.reason
    assert b.gb_id in (None, "GB0124")


def test_print():
    b = _only_break(_one(f_print))
    assert b.line == line_of(f_print, "# BREAK")
    assert "print" in b.reason
    assert b.gb_id in (None, "GB0059")


def test_explicit_graph_break():
    b = _only_break(_one(f_explicit))
    assert b.line == line_of(f_explicit, "# BREAK")
    assert "graph_break" in b.reason
    assert b.gb_id in (None, "GB0025")


def test_break_in_loop_is_a_frame_skip():
    res = _one(f_loop)
    skips = res.frame_skips
    assert skips, [b.reason for b in res.breaks]
    assert skips[0].file == HERE
    assert skips[0].line in (line_of(f_loop, "# BREAK"), line_of(f_loop, "# LOOP"))
    assert "loop" in skips[0].reason.lower()
    # the whole frame ran eagerly: no graph was compiled for it
    assert res.graph_count == 0
    # explain() sees nothing here; the log records do
    expl = torch._dynamo.explain(f_loop)(torch.randn(8))
    assert expl.break_reasons == [] and expl.graph_count == 0


def test_nonzero():
    b = _only_break(_one(f_nonzero))
    assert b.line == line_of(f_nonzero, "# BREAK")
    assert "nonzero" in b.reason or "dynamic" in b.reason.lower()


def test_break_in_a_called_function_has_the_call_chain():
    b = _only_break(_one(f_nested))
    assert b.line == line_of(_helper, "# BREAK")
    assert b.function == "_helper"
    assert (HERE, line_of(f_nested, "# CALL")) in b.stack


def test_break_before_the_first_op():
    b = _only_break(_one(f_first_instruction))
    assert b.line == line_of(f_first_instruction, "# BREAK")


def test_recompile_from_changing_python_float():
    calls = []

    def driver(compiled):
        for s in (1.0, 2.0, 3.0):
            compiled(torch.randn(8), s)  # DRIVER
            calls.append(s)

    res = capture(f_scale, backend="eager", driver=driver)
    assert calls == [1.0, 2.0, 3.0]
    recs = res.recompiles
    assert recs, [b.reason for b in res.breaks]
    r = recs[0]
    assert r.file == HERE
    assert r.line in (line_of(f_scale, "# GUARD"), line_of(f_scale, "def f_scale"))
    assert "s" in r.reason
    # the caller that triggered the recompile is in the stack
    assert (HERE, line_of(driver, "# DRIVER")) in r.stack
    assert not res.graph_breaks


def test_clean_function_has_no_breaks():
    res = _one(f_clean)
    assert res.breaks == []
    assert res.graph_count == 1
    assert res.op_count >= 2


def test_target_exception_becomes_error():
    res = _one(f_raises)
    assert res.error is not None and "boom from the target" in res.error
    assert res.error.startswith("ValueError")


def test_fullgraph_reports_the_break_as_error():
    res = _one(f_if, fullgraph=True)
    assert res.error is not None
    b = _only_break(res)
    assert b.line == line_of(f_if, "# BREAK")


def test_logging_state_is_restored():
    art = logging.getLogger("torch._dynamo")
    before_level = art.level
    before_handlers = list(art.handlers)
    from torch._logging import _internal

    before_artifacts = set(_internal.log_state.artifact_names)
    _one(f_print)
    assert art.level == before_level
    # torch re-creates its own handlers when its log settings are re-applied
    def kinds(handlers):
        return sorted(type(h).__name__ for h in handlers if not type(h).__module__.startswith("_pytest"))

    assert kinds(art.handlers) == kinds(before_handlers)
    assert set(_internal.log_state.artifact_names) == before_artifacts


def test_round_trip_to_dict():
    res = _one(f_nested)
    back = CaptureResult.from_dict(res.to_dict())
    assert back == res


def test_repeated_capture_resets_dynamo():
    # the same break seen twice in one process must be reported both times
    a = _one(f_print)
    b = _one(f_print)
    assert len(a.graph_breaks) == len(b.graph_breaks) == 1


def _drop_if_any(layers, p):
    to_drop = torch.rand(len(layers)) < p
    if all(to_drop):  # BREAK (innermost)
        return layers[:1]
    return layers


class _Blocks(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        layers = _drop_if_any(self.layers, 0.1)  # CALL (echo)
        for layer in layers:
            x = layer(x)
        return x


class _Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = _Blocks()

    def forward(self, x):
        return self.blocks(x) * 2  # CALL (echo)


def test_a_break_in_an_inlined_call_is_reported_once_at_its_own_line():
    """Dynamo logs the break again, with the same reason, at the calling line of each frame
    above it; those are the same break, not new ones."""
    res = capture(_Outer(), (torch.randn(2, 4),), backend="eager")
    lines = {(b.function, b.line) for b in res.breaks if b.kind == "graph_break"}
    assert lines == {("_drop_if_any", line_of(_drop_if_any, "# BREAK"))}


class _OtherBlocks(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        kept = _drop_if_any(self.layers, 0.2)  # CALL (second caller: echo only)
        for layer in kept:
            x = layer(x)
        return x


class _TwoCallers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = _Blocks()
        self.second = _OtherBlocks()

    def forward(self, x):
        return self.second(self.first(x))


def test_a_helper_breaking_under_a_second_caller_is_not_a_new_break():
    """Dynamo logs a break at one place once: when the helper breaks again under another
    caller (XCiT's two transformers sharing `dropout_layers`), only that caller's echo is
    logged, with no inner record naming its line. It is the same break."""
    res = capture(_TwoCallers(), (torch.randn(2, 4),), backend="eager")
    lines = {(b.function, b.line) for b in res.breaks if b.kind == "graph_break"}
    assert ("_drop_if_any", line_of(_drop_if_any, "# BREAK")) in lines
    assert not any(function == "forward" and line == line_of(_OtherBlocks.forward, "# CALL") for function, line in lines)


class _WeightedLoss(torch.nn.Module):
    def forward(self, w, ptr):
        return torch.repeat_interleave(w, ptr[1:] - ptr[:-1]).sum()  # BREAK (inner)


class _SpreadThenLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = _WeightedLoss()

    def forward(self, w, ptr, sizes):
        nodes = torch.arange(3).repeat_interleave(sizes)  # BREAK (own, same reason)
        return self.loss(w, ptr), nodes


def test_a_break_of_a_line_that_calls_no_module_is_its_own():
    """A caller's own break can share the inner break's reason and sit in its stack (the
    resume frame names the line): a line that calls only torch functions and tensor methods
    runs no module's forward, so its record is a break of its own, not an echo."""
    ptr = torch.tensor([0, 2, 5])
    res = capture(_SpreadThenLoss(), (torch.rand(2), ptr, torch.tensor([1, 2, 1])), backend="eager")
    lines = {(b.function, b.line) for b in res.breaks if b.kind == "graph_break"}
    assert lines == {("forward", line_of(_SpreadThenLoss.forward, "# BREAK")),
                     ("forward", line_of(_WeightedLoss.forward, "# BREAK"))}


class _Transformish(torch.distributions.Transform, torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(4))

    def __hash__(self):
        return super(torch.nn.Module, self).__hash__()  # BREAK


class _PlainHash(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.shift = torch.nn.Parameter(torch.zeros(4))

    def __hash__(self):
        return super().__hash__()  # BREAK


class _HashedTwice(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.t, self.p = _Transformish(), _PlainHash()

    def forward(self, x):
        held = len(list(self.t.parameters()))
        held += len(list(self.p.named_parameters()))
        return x * self.t.scale + self.p.shift + held


def test_two_overrides_breaking_at_their_own_super_call_are_two_breaks():
    """Two classes' `__hash__` each break at `super().__hash__()` with the same reason (GB0006),
    and each line calls `__hash__` by name: the second is no echo of the first, whose class is
    not one of its bases (pyro's `TransformModule` and `ComposeTransformModule`)."""
    res = capture(_HashedTwice(), (torch.randn(2, 4),), backend="eager")
    lines = {b.line for b in res.breaks if b.kind == "graph_break"}
    assert lines == {line_of(_Transformish.__hash__, "# BREAK"), line_of(_PlainHash.__hash__, "# BREAK")}
