"""Reachability under the call site's facts (issue 19): a finding behind a branch only the
caller decides (`if profile:`, `if len(args) > 0 or kwargs.get("scale") is not None:`, an
optional part set to None at construction) holds only on calls that take it, and the
cross-function CL150 follows each call site. Also: attributes typed from construction."""

import textwrap

from compilelint import config as config_mod
from compilelint.engine import analyze_path, check
from compilelint.summary import ModuleSummary


def _check(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    settings = config_mod.load(start=str(tmp_path))
    result = check([str(tmp_path)], settings)
    return {(f.path.rsplit("/", 1)[-1], f.line, f.code): f for f in result.findings}


HELPER = """
    import torch
    import warnings

    def mix(x, profile=False, mask=None, *args, **kwargs):
        if profile:
            print("mix")
        if mask is not None:
            x = x[mask]
        if len(args) > 0 or kwargs.get("scale") is not None:
            warnings.warn("scale is deprecated")
        return x

    class Net(torch.nn.Module):
        def forward(self, x, m):
            for _ in range(3):
                x = mix(x{args})
            return x
"""


def test_a_branch_no_call_site_takes_is_not_reported(tmp_path):
    found = _check(tmp_path, {"m.py": HELPER.format(args="")})
    assert found == {}


def test_a_call_site_that_passes_the_argument_reaches_the_branch(tmp_path):
    found = _check(tmp_path, {"m.py": HELPER.format(args=", profile=True")})
    assert set(found) == {("m.py", 7, "CL110"), ("m.py", 16, "CL150")}
    assert found[("m.py", 7, "CL110")].when == ()  # a literal True: surely taken
    found = _check(tmp_path, {"m.py": HELPER.format(args=", mask=m")})
    assert set(found) == {("m.py", 9, "CL121"), ("m.py", 16, "CL150")}
    found = _check(tmp_path, {"m.py": HELPER.format(args=", None, None, 2")})  # *args not empty
    assert set(found) == {("m.py", 11, "CL112"), ("m.py", 16, "CL150")}
    found = _check(tmp_path, {"m.py": HELPER.format(args=", **{'scale': 2}")})  # may hold `scale`
    assert ("m.py", 11, "CL112") in found and ("m.py", 7, "CL110") in found


def test_an_undecided_condition_stays_on_the_finding(tmp_path):
    """The model a user compiles has callers outside the project: its finding says when."""
    found = _check(tmp_path, {"m.py": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x, debug=False):
                if debug:
                    print(x)
                return x
    """})
    finding = found[("m.py", 6, "CL110")]
    assert finding.when == ("given:debug",)
    assert finding.message.endswith("(only when the caller passes `debug`)")


def test_the_cross_function_loop_break_is_decided_per_call_site(tmp_path):
    """Two loops call the same layer; only the one passing `scale` breaks."""
    found = _check(tmp_path, {"m.py": """
        import torch
        class Layer(torch.nn.Module):
            def forward(self, x, *args, **kwargs):
                if len(args) > 0 or kwargs.get("scale", None) is not None:
                    print("deprecated")
                return x
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = torch.nn.ModuleList([Layer() for _ in range(2)])
            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                for layer in self.layers:
                    x = layer(x, scale=2.0)
                return x
    """})
    assert ("m.py", 13, "CL150") not in found
    assert ("m.py", 15, "CL150") in found


def test_optional_parts_set_to_none_at_construction(tmp_path):
    source = """
        import torch
        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.recorder = None
            def forward(self, x):
                if self.recorder is not None:
                    print(x)
                return x
        {extra}
    """
    assert _check(tmp_path, {"m.py": source.format(extra="")}) == {}
    # a subclass, or any code setting `.recorder` on another object, may fill it
    sub = "class Rec(Block):\n            def __init__(self):\n                super().__init__()\n" \
          "                self.recorder = print"
    assert ("m.py", 9, "CL110") in _check(tmp_path, {"m.py": source.format(extra=sub)})
    foreign = "def attach(model):\n            model.recorder = print"
    assert ("m.py", 9, "CL110") in _check(tmp_path, {"m.py": source.format(extra=foreign)})


def test_an_attribute_the_constructor_may_leave_none_stays_a_condition(tmp_path):
    source = """
        import torch
        class Block(torch.nn.Module):
            def __init__(self, recorder=None, verbose=False):
                super().__init__()
                self.recorder = recorder
                self.verbose = verbose
            def forward(self, x):
                if self.recorder is not None:
                    print(x)
                if self.verbose:
                    print(x.shape)
                return x
    """
    found = _check(tmp_path, {"m.py": source})
    # set from the constructor's argument or left None: the object decides (a probe run judges it)
    assert found[("m.py", 10, "CL110")].when == ("given:self.recorder",)
    # said once: `set:self.verbose` (truthy) already says it is not None
    assert found[("m.py", 12, "CL110")].when == ("set:self.verbose",)


def test_an_argument_taken_from_the_callers_attribute_is_named_on_their_class(tmp_path):
    source = """
        import torch
        def draw(y, rng=None):
            return torch.empty_like(y).normal_(generator=rng)
        class Loss(torch.nn.Module):
            def __init__(self, rng=None):
                super().__init__()
                self.rng = rng
            def forward(self, y):
                return draw(y, self.rng)
        class Ensure(Loss):
            def forward(self, y):
                return draw(y * 2, rng=self.rng)
        {other}
    """
    found = _check(tmp_path, {"m.py": source.format(other="")})
    # both callers' objects are `Loss`es: its attribute decides
    assert found[("m.py", 4, "CL119")].when == ("set:m:Loss.rng",)
    other = ("class Other(torch.nn.Module):\n            def forward(self, y):\n"
             "                return draw(y, self.gen)")
    found = _check(tmp_path, {"m.py": source.format(other=other)})
    assert found[("m.py", 4, "CL119")].when == ("given:rng",)  # no class in common: the caller's


def test_attributes_built_in_the_constructor_and_training_only_paths(tmp_path):
    found = _check(tmp_path, {"m.py": """
        import torch
        class Head(torch.nn.Module):
            def forward(self, x):
                return x
            def compute_loss(self, x):
                return x.sum().item()
        class Matcher:
            def __call__(self, x):
                return torch.nonzero(x)
        class Det(torch.nn.Module):
            def __init__(self, head=None):
                super().__init__()
                if head is None:
                    head = Head()
                self.head = head
                self.matcher = Matcher()
            def forward(self, x):
                if self.training:
                    self.matcher(x)
                    return self.head.compute_loss(x)
                return self.head(x)
    """})
    assert found[("m.py", 7, "CL103")].when == ("training",)
    assert found[("m.py", 10, "CL120")].when == ("training",)
    assert found[("m.py", 7, "CL103")].message.endswith("(only in training)")


def test_integer_literals_in_any_base_and_the_summary_round_trip(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(textwrap.dedent("""
        import torch
        def f(x, *args, n=0x0):
            if len(args) > 0x0 or n:
                print(x)
            return x
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.part = None
            def forward(self, x):
                return f(x, n=0b1)
        def attach(m):
            setattr(m, "part", 1)
    """))
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    analysis, _ = analyze_path(str(path), config_mod.load(start=str(tmp_path)))
    assert not analysis.diagnostics
    summary = analysis.summary
    assert summary.foreign_attrs == ("part",)
    assert summary.classes["M"].none_attrs == ("part",)
    assert ModuleSummary.from_json(summary.to_json()) == summary


def test_the_right_of_and_holds_only_on_calls_that_make_the_left_true(tmp_path):
    """`if first_spike_time and torch.max(data) > 1:` with `first_spike_time=0`: the tensor
    comparison runs only on calls that pass a true value (the right side of `and` carries the
    left's `given:` labels, semantic.guards); a module-level `and` has no caller to ask."""
    source = """
        import torch

        def encode(data, first_spike_time=0):
            if first_spike_time and torch.max(data) > 1:
                raise ValueError("data out of range")
            return data * 2

        flag = False
        if flag and torch.ones(2).sum() > 0:
            pass

        class Net(torch.nn.Module):
            def forward(self, x):
                return encode(x{args})
    """
    quiet = _check(tmp_path, {"enc.py": source.format(args="")})
    assert not [k for k in quiet if k[2] in ("CL102", "CL001")], quiet
    loud = _check(tmp_path, {"enc.py": source.format(args=", first_spike_time=2")})
    assert ("enc.py", 5, "CL102") in loud
    assert not [k for k in loud if k[2] == "CL001"], loud


def test_an_equality_with_a_truthy_literal_needs_the_callers_value(tmp_path):
    """`zero_division == "warn"` with `zero_division=0.0`: only a caller passing a value makes it
    true (torchmetrics' `_safe_divide`); the body rebinding the name after the test does not
    change what the test reads, one rebinding it before (or in a loop around it) does."""
    source = """
        import torch

        def safe_divide(num, denom, zero_division=0.0):
            {before}
            if zero_division == "warn" and torch.any(denom == 0):
                zero_division = 0.0
            zero_division = 0.0 if zero_division == "warn" else zero_division
            return num / denom + zero_division

        class Net(torch.nn.Module):
            def forward(self, x, y):
                return safe_divide(x, y{args})
    """
    quiet = _check(tmp_path, {"div.py": source.format(before="pass", args="")})
    assert not [k for k in quiet if k[2] == "CL102"], quiet
    loud = _check(tmp_path, {"div.py": source.format(before="pass", args=', zero_division="warn"')})
    assert ("div.py", 6, "CL102") in loud
    rebound = _check(tmp_path, {"div.py": source.format(before="zero_division = str(zero_division)", args="")})
    assert ("div.py", 6, "CL102") in rebound  # (the test reads the body's value: no caller decides it)


def test_a_parameter_passed_on_is_decided_by_the_callers_call_sites(tmp_path):
    """snntorch's `_latency_errors(data, ..., first_spike_time, normalize)`, reached through
    helpers that each pass their own `first_spike_time=0` on: the check runs only when a
    compiled call at the top passes one; a parameter without a default given a literal
    `False` at its one call site skips its branch (CallEdge.forwards, `given:=NAME`)."""
    errors = """
        import torch

        def check(data, first, strict):
            if first and torch.max(data) > 1:
                raise ValueError("out of range")
            if strict and bool(torch.isnan(data).any()):
                raise ValueError("nan")
    """
    source = """
        import torch
        from errors import check

        def _encode(data, first=0):
            check(data, first, False)
            return data * 2

        def encode(data, *, first=0):
            first_ = first
            return _encode(data, first)

        class Net(torch.nn.Module):
            def forward(self, x):
                for _ in range(2):
                    x = encode(x{args})
                return x
    """
    quiet = _check(tmp_path, {"errors.py": errors, "enc.py": source.format(args="")})
    assert quiet == {}, quiet
    loud = _check(tmp_path, {"errors.py": errors, "enc.py": source.format(args=", first=3")})
    assert set(loud) == {("errors.py", 5, "CL102"), ("enc.py", 15, "CL150")}, loud
    assert loud[("errors.py", 5, "CL102")].when == ()
    # a caller that rebinds what it passes on is not followed: undecided, the finding holds
    rebound = source.replace("first_ = first", "first = first or 0")
    kept = _check(tmp_path, {"errors.py": errors, "enc.py": rebound.format(args="")})
    assert ("errors.py", 5, "CL102") in kept, kept


LEFT_NONE = """
    import torch

    def maybe_num_nodes(edge_index, num_nodes=None):
        if num_nodes is not None:
            return num_nodes
        elif edge_index.dim() == 2:
            return int(edge_index.max()) + 1
        return 0

    def add_loops(edge_index, num_nodes=None):
        return maybe_num_nodes(edge_index, num_nodes)

    def auroc(fpr, max_fpr=None):
        if max_fpr is None or fpr.sum() == 0:
            return fpr
        return fpr * max_fpr

    class Net(torch.nn.Module):
        def forward(self, x, edge_index):
            for _ in range(2):
                x = x + add_loops(edge_index{count})
            return auroc(x{max_fpr})
"""


def test_what_runs_only_when_the_caller_leaves_an_argument_none(tmp_path):
    # every compiled call passes a count (a size): the `int()` after the early return and the
    # loop's CL150 through the wrapper are not reported; nor is the right of `max_fpr is None or`
    found = _check(tmp_path, {"m.py": LEFT_NONE.format(count=", num_nodes=x.size(0)", max_fpr="")})
    assert sorted(found) == []


def test_a_call_that_leaves_it_none_reaches_the_break(tmp_path):
    found = _check(tmp_path, {"m.py": LEFT_NONE.format(count="", max_fpr=", max_fpr=0.5")})
    assert {(f, line, code) for f, line, code in found} == {
        ("m.py", 8, "CL102"), ("m.py", 21, "CL150"), ("m.py", 15, "CL102")}
    assert found[("m.py", 8, "CL102")].when == ()  # the wrapper's caller leaves it None: it holds
    assert found[("m.py", 15, "CL102")].when == ()  # a number: max_fpr is not None


DEFAULTED = """
    import torch

    def sequence_mask(lengths, maxlen=None):
        if maxlen is None:
            maxlen = lengths.max()
        return torch.arange(0, maxlen) < lengths.unsqueeze(-1)

    def pad_mask(lengths, maxlen=None):
        return sequence_mask(lengths, maxlen)

    def steps(x, n=None):
        if n is None: n = x.sum()
        return x * int(n)

    class Net(torch.nn.Module):
        def forward(self, x, lengths, bound):
            for _ in range(2):
                x = x + pad_mask(lengths{loop}).sum()
            return steps(x{steps}) + sequence_mask(lengths{direct}).sum()
"""


def _defaulted(tmp_path, loop="", steps="", direct=""):
    found = _check(tmp_path, {"m.py": DEFAULTED.format(loop=loop, steps=steps, direct=direct)})
    return {(line, code): f for (_, line, code), f in found.items()}


def test_a_tensor_filled_in_for_an_argument_every_caller_passes_is_not_reported(tmp_path):
    # (semantic.defaulted) every compiled call passes a size: the `lengths.max()` default never
    # runs, so neither the `torch.arange` bound, the `int()` after the one-line `if`, nor the
    # loop's CL150 through the wrapper (which forwards its own `maxlen`) is a break
    found = _defaulted(tmp_path, loop=", x.shape[1]", steps=", n=3", direct=", maxlen=x.shape[1]")
    assert sorted(found) == []


def test_a_call_that_leaves_it_none_or_passes_a_tensor_reaches_the_break(tmp_path):
    found = _defaulted(tmp_path, loop=", x.shape[1]", steps=", n=3", direct="")  # left None
    assert sorted(found) == [(7, "CL107")]
    assert found[(7, "CL107")].when == ()
    found = _defaulted(tmp_path, loop="", steps=", n=3", direct=", maxlen=x.shape[1]")  # the wrapper's caller
    assert sorted(found) == [(7, "CL107"), (18, "CL150")]
    found = _defaulted(tmp_path, loop=", x.shape[1]", steps=", n=bound.sum()", direct=", maxlen=x.shape[1]")
    assert sorted(found) == [(14, "CL102")]  # `int()` of a tensor passed: it holds whatever the default


TYPE_TESTED = """
    import torch
    from torch import Tensor

    def max_level(bits, signed, narrow=False):
        is_signed = bool(signed.item()) if isinstance(signed, Tensor) else signed
        if torch.is_tensor(narrow):
            narrow = narrow.item()
        return 2 ** bits - 1 - narrow if is_signed else 2 ** bits

    def level_of(bits, signed):
        return max_level(bits, signed)

    class Quant(torch.nn.Module):
        def forward(self, x):
            return x.clamp(max={call})
"""


def test_a_tensor_branch_no_call_site_takes_is_not_reported(tmp_path):
    """`x.item() if isinstance(x, Tensor) else x` with Python values passed (a literal, the
    default, a number passed on by a helper whose own callers pass a bool): Dynamo takes the
    other branch on the Python type (corpus: clean_xf_callsite_tensor_01)."""
    for call in ("max_level(4, True)", "max_level(4, False, 1)", "level_of(4, True)"):
        assert _check(tmp_path, {"m.py": TYPE_TESTED.format(call=call)}) == {}, call


def test_a_call_site_that_passes_a_tensor_reaches_the_tensor_branch(tmp_path):
    found = _check(tmp_path, {"m.py": TYPE_TESTED.format(call="max_level(4, x.any())")})
    assert set(found) == {("m.py", 6, "CL103")} and found[("m.py", 6, "CL103")].when == ()
    found = _check(tmp_path, {"m.py": TYPE_TESTED.format(call="level_of(4, True) + max_level(4, True, x.sum())")})
    assert set(found) == {("m.py", 8, "CL103")}  # (`torch.is_tensor(narrow)` narrows too)
    found = _check(tmp_path, {"m.py": TYPE_TESTED.format(call="level_of(4, x.any())")})
    assert set(found) == {("m.py", 6, "CL103")}  # passed on by `level_of`, decided at its site


def test_an_undecided_tensor_branch_says_when(tmp_path):
    found = _check(tmp_path, {"m.py": TYPE_TESTED.format(call="max_level(4, self.signed)")})
    (finding,) = found.values()
    assert finding.when == ("given:signed@tensor",)
    assert finding.message.endswith("(only when the caller passes `signed` a tensor)")


LEAF_MADE = """
    import torch
    from torch import Tensor

    def as_leaf(data, scale=None):
        if not torch.is_tensor(scale):
            scale = torch.tensor(scale or 1.0, requires_grad=True)
        return (data if isinstance(data, Tensor) else torch.tensor(data, requires_grad=True)) * scale

    def leaf_of(data):
        return as_leaf(data, 2.0)

    class Net(torch.nn.Module):
        def gain(self, x):
            return torch.sigmoid(x.mean(0))

        def forward(self, x):
            return x * {call}
"""


def test_a_branch_for_what_is_no_tensor_is_decided_by_the_call_sites(tmp_path):
    """The other branch of `isinstance(data, Tensor)` / `torch.is_tensor(scale)`
    (`given:NAME@plain`): out where every compiled call passes a tensor (a torch call's result,
    a method's result read by the project's kind solver), in where one passes a list, a number
    or leaves the default (corpus: xf_callsite_plain_01 and its clean twin)."""
    tensors = "as_leaf(torch.ones(2), x.sum()) + as_leaf(self.gain(x), self.gain(x))"
    assert _check(tmp_path, {"m.py": LEAF_MADE.format(call=tensors)}) == {}
    found = _check(tmp_path, {"m.py": LEAF_MADE.format(call="as_leaf([0.5, 2.0], x.sum())")})
    assert set(found) == {("m.py", 8, "CL132")} and found[("m.py", 8, "CL132")].when == ()
    found = _check(tmp_path, {"m.py": LEAF_MADE.format(call="as_leaf(x)")})
    assert set(found) == {("m.py", 7, "CL132")}  # (`scale` left to its default None)
    found = _check(tmp_path, {"m.py": LEAF_MADE.format(call="leaf_of(x.mean(0))")})
    assert set(found) == {("m.py", 7, "CL132")}  # (`leaf_of` passes a tensor on, and 2.0)


def test_an_undecided_branch_for_what_is_no_tensor_says_when(tmp_path):
    found = _check(tmp_path, {"m.py": LEAF_MADE.format(call="as_leaf(self.table, x.sum())")})
    (finding,) = found.values()
    assert finding.when == ("given:data@plain",)
    assert finding.message.endswith("(only when the caller passes `data` no tensor)")


ARRAY_TESTED = """
    import numpy as np
    import torch

    def pick(rows, idx):
        if isinstance(idx, np.ndarray) and np.isscalar(idx):
            return rows[0]
        return rows[idx]

    def pick_on(rows, idx):
        return pick(rows, idx)

    class Rows(torch.nn.Module):
        def forward(self, x):
            return {call}
"""


def test_an_array_branch_no_call_site_takes_is_not_reported(tmp_path):
    """`isinstance(idx, np.ndarray) and np.isscalar(idx)` with ints, tensors and None passed (and
    passed on by a helper whose own caller passes a tensor): Dynamo stops at the type test
    (corpus: clean_ndarray_guard_01)."""
    for call in ("pick(x, 0)", "pick(x, torch.arange(2))", "pick(x, None)", "pick_on(x, x.argmax(0))"):
        assert _check(tmp_path, {"m.py": ARRAY_TESTED.format(call=call)}) == {}, call


def test_an_undecided_array_branch_says_when(tmp_path):
    found = _check(tmp_path, {"m.py": ARRAY_TESTED.format(call="pick(x, self.keep)")})
    (finding,) = found.values()
    assert (finding.line, finding.code, finding.when) == (6, "CL119", ("given:idx@ndarray",))
    assert finding.message.endswith("(only when the caller passes `idx` a NumPy array)")
