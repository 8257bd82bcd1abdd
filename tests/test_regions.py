"""Compiled regions and the walker's scoping, through the engine."""

import textwrap

from helpers import lint_snippet


def codes_by_line(findings):
    return {(f.line, f.code) for f in findings}


def test_decorator_calls_belong_to_the_definition_site_not_the_function(tmp_path):
    findings = lint_snippet(tmp_path, """
        import logging
        import torch
        logger = logging.getLogger(__name__)
        def hub(name):
            logger.warning("loading %s", name)
            return lambda f: f
        @hub("rope")
        def rope(x, n=print("default")):
            return x
        class M(torch.nn.Module):
            def forward(self, x):
                return rope(x)
    """)
    assert findings == []


def test_and_not_is_compiling_guard_is_eager_only(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class M(torch.nn.Module):
            def forward(self, x, verbose=False):
                if verbose and not torch.compiler.is_compiling():
                    print("eager", x.sum().item())
                if torch.compiler.is_compiling() and verbose:
                    print("compiled")
                return x
    """)
    assert codes_by_line(findings) == {(7, "CL110")}


def test_mutating_the_module_a_compiled_wrapper_wraps(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        from torch import nn
        model = nn.Sequential(nn.Linear(2, 2))
        fast = torch.compile(model)
        def finetune():
            model.head = nn.Linear(2, 3)
            model(torch.randn(1, 2))
            fast.load_state_dict({})
    """)
    assert codes_by_line(findings) == {(6, "CL203"), (8, "CL301")}


def test_break_in_a_layer_called_from_a_loop_skips_the_calling_frame(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        from torch import nn
        class Layer(nn.Module):
            def forward(self, x):
                return x if x.sum() > 0 else -x
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Layer() for _ in range(2)])
            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x
    """)
    assert codes_by_line(findings) == {(5, "CL102"), (11, "CL150")}


# ---- property reads: `self.x` and `p.x` with `p` annotated with a class --------------------

STATS = textwrap.dedent("""
    import typing
    import torch
    class Stats:
        def __init__(self, x):
            self.x = x
        @property
        def spread(self):
            print("spread")
            return self.x.std()
        @spread.setter
        def spread(self, value):
            print("set")
        def plain(self):
            print("plain")
            return self.x
""").lstrip("\n")  # prints at line 8 (the getter), 12 (the setter), 14 (a method)


def test_a_read_through_an_annotation_runs_the_getter_in_any_spelling(tmp_path):
    for annotation in ("Stats", "'Stats'", "typing.Optional[Stats]", "Stats | None"):
        findings = lint_snippet(tmp_path, STATS + textwrap.dedent(f"""
            def use(x, stats: {annotation}):
                return x / stats.spread
            class M(torch.nn.Module):
                def forward(self, x):
                    return use(x, Stats(x))
        """))
        assert codes_by_line(findings) == {(8, "CL110")}, annotation


def test_an_assignment_runs_the_setter_and_other_reads_run_nothing(tmp_path):
    findings = lint_snippet(tmp_path, STATS + textwrap.dedent("""
        def use(x, stats: Stats, other: typing.Any):
            stats.spread = x
            keep = stats.plain  # a method, not called
            return x + other.spread + len([keep])
        class M(torch.nn.Module):
            def forward(self, x):
                return use(x, Stats(x), None)
    """))
    assert codes_by_line(findings) == {(12, "CL110")}


def test_a_rebound_parameter_is_not_the_annotated_class(tmp_path):
    findings = lint_snippet(tmp_path, STATS + textwrap.dedent("""
        def use(x, stats: Stats):
            stats = {"spread": x}
            return x + stats.spread
        class M(torch.nn.Module):
            def forward(self, x):
                return use(x, Stats(x))
    """))
    assert findings == []


def test_a_read_on_an_object_just_built_runs_the_getter_only(tmp_path):
    findings = lint_snippet(tmp_path, STATS + textwrap.dedent("""
        class M(torch.nn.Module):
            def forward(self, x):
                return x / Stats(x).spread + Stats(x).plain
    """))
    assert codes_by_line(findings) == {(8, "CL110")}  # the getter; the method is not called
    findings = lint_snippet(tmp_path, STATS + textwrap.dedent("""
        class M(torch.nn.Module):
            def forward(self, x):
                return x / Stats(x).x  # a plain attribute: no code runs
    """))
    assert findings == []


def test_a_method_or_submodule_picked_by_name_is_in_the_region(tmp_path):
    """`getattr(self, <pattern>)` runs one of the methods (or submodules) whose name the
    pattern spells, in any spelling of the string; a bare name or too little text picks
    nothing, and a method no pattern matches stays out."""
    findings = lint_snippet(tmp_path, """
        import torch
        class Reducer(torch.nn.Module):
            def forward(self, x, kind, mode, name):
                a = getattr(self, "{}_reduction".format(kind))(x)
                b = getattr(self, f"pool_{mode}")(x)
                c = getattr(self, "norm_%s" % mode)(x)
                d = getattr(self, "head_" + mode)(x)
                e = getattr(self, name)(x) + getattr(self, f"{name}_x")(x)
                return a + b + c + d + e
            def mean_reduction(self, x):
                print("a")
                return x
            def pool_max(self, x):
                print("b")
                return x
            def norm_l2(self, x):
                print("c")
                return x
            def head_linear(self, x):
                print("d")
                return x
            def debug_x(self, x):
                print("e")
                return x
        class Sub(Reducer):
            def sum_reduction(self, x):
                print("f")
                return x
    """)
    # (`debug_x`'s print, line 23: `f"{name}_x"` is too little text to pick it by)
    assert codes_by_line(findings) == {(11, "CL110"), (14, "CL110"), (17, "CL110"), (20, "CL110"),
                                       (27, "CL110")}


def test_a_torchmetrics_metric_runs_update_and_compute_from_its_own_forward(tmp_path):
    # torchmetrics' Metric.forward (outside the project) calls the subclass's update and
    # compute: they run compiled when the metric is called in a compiled step (Dynamo
    # confirms it: fixtures/corpus/xf_torchmetrics_update_01.py). A metric whose own class
    # defines forward is followed from there; a plain class's `update` is not a root.
    findings = lint_snippet(tmp_path, """
        import torch
        from torchmetrics import Metric
        class GuardedMSE(Metric):
            def update(self, preds, target):
                if preds.sum() > 0:
                    print("positive")
        class Own(Metric):
            def forward(self, preds):
                return preds
            def update(self, preds):
                print("never from forward")
        class Plain:
            def update(self, preds):
                print("not a module")
    """)
    assert codes_by_line(findings) == {(5, "CL102"), (6, "CL110")}


def test_a_metric_state_is_a_tensor_whatever_order_add_state_takes_its_arguments_in(tmp_path):
    # `add_state(name, default)` and `add_state(name, dist_reduce_fx="sum", default=...)` (tsl's
    # MaskedMetric) both register a tensor: `compute`'s `if` on it breaks (Dynamo confirms it:
    # fixtures/corpus/xf_metric_state_keyword_01.py); a state with a list default is no tensor
    findings = lint_snippet(tmp_path, """
        import torch
        from torchmetrics import Metric
        class Masked(Metric):
            def __init__(self):
                super().__init__()
                self.add_state("total", torch.tensor(0.0), dist_reduce_fx="sum")
                self.add_state("numel", dist_reduce_fx="sum", default=torch.tensor(0.0))
                self.add_state("seen", dist_reduce_fx="cat", default=[])
            def update(self, preds):
                self.total += preds.sum()
                self.numel += preds.numel()
            def compute(self):
                if self.numel > 0:
                    return self.total / self.numel
                if self.total > 0:
                    return self.total
                if self.seen:
                    return self.total
                return self.total
    """)
    assert codes_by_line(findings) == {(13, "CL102"), (15, "CL102")}


def test_a_dataclass_built_in_the_region_runs_its_post_init_on_its_tensor_fields(tmp_path):
    # the generated __init__ calls __post_init__ (fixtures/corpus/xf_dataclass_post_init_01.py,
    # confirmed by Dynamo); a plain class's __post_init__ is never called by construction
    findings = lint_snippet(tmp_path, """
        import dataclasses
        import torch
        from torch import Tensor
        @dataclasses.dataclass
        class Params:
            loc: Tensor
            def __post_init__(self):
                if (self.loc < 0).any():
                    print("negative")
        class Plain:
            loc: Tensor
            def __post_init__(self):
                print("never")
        class M(torch.nn.Module):
            def forward(self, x):
                return Params(loc=x).loc + Plain().loc
    """)
    assert codes_by_line(findings) == {(8, "CL102"), (9, "CL110")}


def test_a_method_handed_to_a_constructor_runs_where_the_class_keeps_it_unless_it_builds_its_own(tmp_path):
    """`FixedPoint(check=self.check)` stores a bound method on `self.check`: the solver's
    `self.check(x)` runs it (its print is region code). A class that builds its own object
    for the attribute (`self.step = Step()`) runs that object's `__call__`, whatever a
    constructor call passes."""
    findings = lint_snippet(tmp_path, """
        import torch
        class Step:
            def __call__(self, x):
                return x * 2
        class FixedPoint(torch.nn.Module):
            def __init__(self, check=None, step=None):
                super().__init__()
                self.check = check
                self.step = Step()
            def forward(self, x):
                self.check(x)
                return self.step(x)
        class Optim(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.solver = FixedPoint(check=self.check, step=self.noisy)
            def check(self, x):
                print("checked")
            def noisy(self, x):
                print("noisy")
                return x
            def forward(self, x):
                return self.solver(x)
    """)
    assert {(f.scope, f.code) for f in findings} == {("Optim.check", "CL110")}, findings
