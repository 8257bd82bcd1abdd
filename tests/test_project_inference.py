"""Project-wide inference: kinds that cross function and file boundaries (semantic.project),
and what it must not claim. Each capability has a must-fire and a must-not-fire case; the
corpus cases xf_* / clean_xf_* pin the same patterns against Dynamo."""

import textwrap

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import lint_snippet, write_package


def _codes(findings, code="CL102"):
    return sorted(f.line for f in findings if f.code == code)


def test_a_parameter_takes_the_kind_its_compiled_callers_pass(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def width(box, pad):
            return int(box[2] - box[0] + pad)
        def depth(n, pad):
            return int(n + pad)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return x[: width(x, 1)] * depth(3, 1)
    """)
    assert _codes(findings) == [3]
    (finding,) = [f for f in findings if f.code == "CL102"]
    assert finding.severity == "warning"
    assert "`box` is a tensor at the compiled calls of `width`" in finding.message


def test_a_site_passing_a_tensor_decides_and_uncompiled_callers_claim_nothing(tmp_path):
    # scale(x.sum()) breaks at `if v > 1` under Dynamo, whatever scale(3) does; report() is
    # called only from uncompiled code
    findings = lint_snippet(tmp_path, """
        import torch
        def scale(v):
            if v > 1:
                return 2
            return 1
        def report(v):
            if v > 0:
                print(v)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return x * scale(x.sum()) * scale(3)
        def cli(x: torch.Tensor):
            report(x.sum())
    """)
    assert _codes(findings) == [3]


def test_a_guess_at_one_site_and_a_number_at_another_claim_nothing(tmp_path):
    # a helper given a number at one compiled site takes either (transformers' torch_int)
    findings = lint_snippet(tmp_path, """
        import torch
        def as_int(v):
            return int(v)
        class M(torch.nn.Module):
            def forward(self, window, x: torch.Tensor):
                return x[: as_int(window[0]), : as_int(x.shape[1] / 2)]
    """)
    assert _codes(findings) == []


def test_optional_arguments_do_not_hide_a_tensor(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def gate(x, mask=None):
            if mask is not None and mask[0]:
                x = x * 2
            return x
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return gate(x) + gate(x, x > 0)
    """)
    assert _codes(findings) == [3]


def test_return_kinds_flow_back_across_files(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "stats.py").write_text(textwrap.dedent("""
        def spread(x):
            return x.abs().mean()
        def rows(x):
            return x.shape[0]
    """))
    (pkg / "model.py").write_text(textwrap.dedent("""
        import torch
        from pkg.stats import rows, spread
        class M(torch.nn.Module):
            def forward(self, x):
                if rows(x) > 1:
                    x = x * 2
                if spread(x) > 1:
                    x = x / 2
                return x
    """))
    settings = config_mod.load(start=str(tmp_path))
    findings = check([str(pkg)], settings).findings
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("model.py", 8, "CL102")]
    assert "`stats.spread()` returns a tensor" in findings[0].message or "spread()` returns a tensor" in findings[0].message


def test_recursion_and_mutual_recursion_end_as_unknown(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def ping(v, n):
            if n == 0:
                return v
            return pong(v, n - 1)
        def pong(v, n):
            return ping(v, n)
        def loop(v):
            return loop(v)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                if loop(x):
                    x = x + 1
                return ping(x, 3)
    """)
    # ping's `v` is a tensor (the compiled call passes one); nothing in them branches on
    # it, and `loop` returns only what it returns: unknown, so `if loop(x)` is not claimed.
    assert _codes(findings) == []


def test_star_arguments_map_no_positions(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def pick(a, b):
            if b:
                return a
            return -a
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                args = (x, True)
                return pick(*args) + pick(x, *[False])
    """)
    assert _codes(findings) == []


def test_type_comments_type_parameters(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def extent(t, k):
            # type: (Tensor, int) -> int
            if k > 1:
                return k
            return int(t[0])
    """, roots="modules")
    assert _codes(findings) == []  # not compiled: nothing calls it from a region
    findings = lint_snippet(tmp_path, """
        import torch
        @torch.compile
        def extent(t, k):
            # type: (Tensor, int) -> int
            if k > 1:
                return k
            return int(t[0])
    """)
    assert _codes(findings) == [7]
    assert [f.severity for f in findings if f.code == "CL102"] == ["error"]


def test_a_parameter_annotated_with_an_unknown_alias_is_decided_by_its_call_sites(tmp_path):
    # `Scalar` names nothing the linter knows (torchsde's Union[float, Tensor] alias): the
    # compiled call passes a 0-d tensor, so the comparison breaks; `steps: int` stays a number
    # and `Optional[torch.Tensor]` keeps its own meaning (truth tests are real questions)
    findings = lint_snippet(tmp_path, """
        from typing import Optional, Union
        import torch
        from .types import Scalar
        def check(t0: Optional[Scalar] = 0.0, t1: "Scalar" = 1.0, steps: int = 2,
                  mask: Optional[torch.Tensor] = None):
            if t0 > t1:
                raise ValueError("order")
            if steps > 1:
                return float(t1)
            return t0
        class M(torch.nn.Module):
            def forward(self, x, ts: torch.Tensor):
                return x * check(ts[0], ts[-1], 3)
    """)
    assert _codes(findings) == [6, 9]
    findings = lint_snippet(tmp_path, """
        from typing import Optional
        import torch
        from .types import Scalar
        def check(t0: Optional[Scalar] = 0.0, t1: Optional[Scalar] = 1.0):
            if t0 > t1:
                raise ValueError("order")
            return t0
        class M(torch.nn.Module):
            def forward(self, x):
                return x * check(0.0, 0.5)
    """)
    assert _codes(findings) == []  # Python floats at the only compiled call


def test_rows_of_enumerate_of_a_tensor_are_tensors(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                y = torch.relu(x)
                for i, row in enumerate(y):
                    if row[0] > 0:
                        y = y + i
                for i, n in enumerate(y.shape):
                    if n > 1:
                        y = y * 2
                return y
    """)
    assert _codes(findings) == [6]
    assert _codes(findings, "CL150") == [5]


def test_methods_reached_through_a_typed_attribute_are_compiled(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class Config:
            def text_config(self):
                print("resolving")
                return self
        class Helper:
            def __call__(self, x):
                print("called")
                return x
        class M(torch.nn.Module):
            def __init__(self, config: Config):
                super().__init__()
                self.config = config
            def forward(self, x):
                self.config.text_config()
                return x
        fast = torch.compile(Helper())
    """, select=["CL110"])
    assert sorted(f.line for f in findings) == [4, 8]


def test_a_rule_crash_in_inference_is_cl001_and_the_run_goes_on(tmp_path):
    # dynamic getattr, exec-built classes and decorators that return other functions fall
    # back to unknown without claims
    findings = lint_snippet(tmp_path, """
        import torch
        def deco(fn):
            return lambda *a: 0
        @deco
        def helper(v):
            if v:
                return 1
            return 0
        Cls = type("Cls", (), {})
        class M(torch.nn.Module):
            def forward(self, x):
                f = getattr(self, "fn")
                return x * helper(x) * f(x)
    """)
    assert [f.code for f in findings if f.code in ("CL000", "CL001")] == []


def test_calls_on_the_eager_side_of_a_compiling_guard_are_not_compiled(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def describe(x):
            print(x)
        def always(x):
            print(x)
        class M(torch.nn.Module):
            def forward(self, x):
                if not torch.compiler.is_compiling():
                    describe(x)
                always(x)
                return x
    """, select=["CL110"])
    assert [f.line for f in findings] == [5]


def test_a_forward_swapped_by_a_project_decorator(tmp_path):
    """Replaced outright: the class's own forward never runs. Replaced by a dispatcher that
    keeps the original to fall back to: what breaks there is a note with that condition."""
    source = """
        import torch
        def use_impl(cls):
            {keep}
            def forward(self, *args):
                return IMPLS.get(self.impl, original)(self, *args)
            {swap}
            return cls
        @use_impl
        class Experts(torch.nn.Module):
            def forward(self, x):
                print(x)
                return x
        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = Experts()
            def forward(self, x):
                return self.experts(x)
    """
    def lint(keep, swap):
        return lint_snippet(tmp_path, source.replace("{keep}", keep).replace("{swap}", swap), select=["CL110"])

    replaced = lint("original = None", "cls.forward = forward")
    fallback = lint("original = cls.forward", "cls.forward = forward")
    kept = lint("original = cls.forward", "cls.other = forward")
    assert replaced == []
    assert [(f.line, f.severity, f.when) for f in fallback] == [(11, "note", ("fallback",))]
    assert "falls back to this forward" in fallback[0].message
    assert [(f.line, f.severity) for f in kept] == [(11, "error")]


def _package(tmp_path, files: dict) -> list:
    pkg = write_package(tmp_path, "pkg", files)
    return check([str(pkg)], config_mod.load(start=str(tmp_path))).findings


def test_a_typed_dict_with_optional_keys_is_decided_across_files(tmp_path):
    # pyro's shape: `Message(TypedDict, total=False)` in one module, built in another; a
    # subclass in a third inherits the optional keys; a total TypedDict and a plain class
    # of the same spelling are left alone
    findings = _package(tmp_path, {
        "messages.py": """
            from typing import TypedDict
            import torch
            class Message(TypedDict, total=False):
                name: str
                value: torch.Tensor
            class Step(TypedDict):
                value: torch.Tensor
        """,
        "sites.py": """
            from pkg.messages import Message
            class Sample(Message):
                scale: float
        """,
        "model.py": """
            import torch
            from pkg import messages
            from pkg.messages import Step
            from pkg.sites import Sample
            class Record:
                def __init__(self, value):
                    self.value = value
            class M(torch.nn.Module):
                def forward(self, x):
                    msg = messages.Message(name="x", value=x)
                    sample = Sample(value=x, scale=2.0)
                    step = Step(value=x)
                    return Record(msg["value"] + sample["value"] + step["value"]).value
        """,
    })
    found = [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings]
    assert found == [("model.py", 11, "CL146"), ("model.py", 12, "CL146")]
    assert "`Message`" in findings[0].message and "`Sample`" in findings[1].message


def test_a_function_stored_on_an_attribute_in_another_file_is_in_the_region(tmp_path):
    # neuralop's NeighborSearch: `self.search_fn = native_neighbor_search` (imported), or a
    # module in the other branch; a function stored but never called stays outside
    findings = _package(tmp_path, {
        "search.py": """
            import torch
            def native_search(data, queries):
                return (torch.cdist(queries, data) < 0.5).nonzero()
            def debug_search(data, queries):
                print(data.shape)
                return data
        """,
        "model.py": """
            import torch
            from pkg.search import debug_search, native_search
            class Fast(torch.nn.Module):
                def forward(self, data, queries):
                    return torch.cdist(queries, data)
            class Search(torch.nn.Module):
                def __init__(self, fast=False):
                    super().__init__()
                    self.search_fn = Fast() if fast else native_search
                    self.debug_fn = debug_search
                def forward(self, data, queries):
                    return self.search_fn(data, queries)
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("search.py", 4, "CL120")]


def test_a_class_a_factory_in_another_file_picks_is_built_and_run(tmp_path):
    # torchsde's `methods.select(method)` returns one of several classes, imported into the
    # factory's package; `sdeint` builds what it returned and calls `.integrate`. A class
    # only another factory returns, which nothing compiled calls, stays outside.
    findings = _package(tmp_path, {
        "euler.py": """
            class Euler:
                def __init__(self, f):
                    self.f = f
                def integrate(self, y):
                    return y + self.f(y)
        """,
        "heun.py": """
            class Heun:
                def __init__(self, f):
                    self.f = f
                def integrate(self, y):
                    print("heun", y.shape)
                    return y + self.f(y)
            class Debug:
                def integrate(self, y):
                    return y.sum().item()
        """,
        "methods.py": """
            from pkg.euler import Euler
            from pkg.heun import Debug, Heun
            def select(method):
                if method == "euler":
                    return Euler
                elif method == "heun":
                    return Heun
                raise ValueError(method)
            def select_debug():
                return Debug
        """,
        "core.py": """
            import torch
            from pkg import methods
            def sdeint(f, y0, method="heun"):
                solver_fn = methods.select(method)
                solver = solver_fn(f)
                return solver.integrate(y0)
            class Flow(torch.nn.Module):
                def forward(self, y0):
                    return sdeint(torch.tanh, y0)
        """,
    })
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == [("core.py", 7, "CL151"), ("heun.py", 6, "CL110")]
    assert "`Heun.integrate`" in next(f for f in findings if f.code == "CL151").message


def test_objects_built_by_factory_methods_run_their_methods(tmp_path):
    # a detector's `self.criterion = self.init_criterion()` (made lazily in forward, the
    # override in a subclass in another file builds the loss) and `self.matcher =
    # self.make_matcher() if matcher is None else matcher`; a factory whose object forward
    # never calls is left alone
    findings = _package(tmp_path, {
        "losses.py": """
            class CountLoss:
                def __call__(self, preds, target):
                    return preds.sum() / (target > 0).sum().item()
            class Matcher:
                def match(self, scores):
                    return scores[scores > 0.5]
            class Reporter:
                def report(self, loss):
                    print(loss)
        """,
        "base.py": """
            import torch
            from pkg.losses import Matcher, Reporter
            class Base(torch.nn.Module):
                def __init__(self, matcher=None):
                    super().__init__()
                    self.matcher = self.make_matcher() if matcher is None else matcher
                    self.reporter = self.make_reporter()
                def make_matcher(self):
                    return Matcher()
                def make_reporter(self):
                    return Reporter()
                def init_criterion(self):
                    raise NotImplementedError
                def forward(self, x, target):
                    if not hasattr(self, "criterion"):
                        self.criterion = self.init_criterion()
                    return self.criterion(x, target) + self.matcher.match(x).sum()
        """,
        "detector.py": """
            from pkg.base import Base
            from pkg.losses import CountLoss
            class Detector(Base):
                def init_criterion(self):
                    return CountLoss()
        """,
    })
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == [("losses.py", 4, "CL103"), ("losses.py", 7, "CL121")]


def test_a_factory_mark_does_not_hide_the_class_an_annotation_gives(tmp_path):
    # transformers' `self.generation_config = GenerationConfig.from_model_config(config)`
    # beside `self.generation_config = generation_config` (`generation_config: GenerationConfig`):
    # a classmethod returning a local tells nothing, the annotation still types the attribute
    findings = _package(tmp_path, {
        "config.py": """
            class GenerationConfig:
                @classmethod
                def from_model_config(cls, config):
                    made = cls()
                    return made
                def to_dict(self):
                    print(self.__dict__)
                    return {}
        """,
        "model.py": """
            import torch
            from pkg.config import GenerationConfig
            class Model(torch.nn.Module):
                def __init__(self, config, generation_config: GenerationConfig = None):
                    super().__init__()
                    if generation_config is None:
                        self.generation_config = GenerationConfig.from_model_config(config)
                    else:
                        self.generation_config = generation_config
                def forward(self, x):
                    return x * len(self.generation_config.to_dict())
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("config.py", 8, "CL110")]


def test_the_nearest_class_that_sets_an_attribute_types_it(tmp_path):
    # a subclass that builds its own loss (`self.criterion = QuietLoss()`) over the base's
    # factory (`self.criterion = self.init_criterion()`): its forward runs QuietLoss, not
    # what the base's factory builds
    findings = _package(tmp_path, {
        "model.py": """
            import torch
            class LoudLoss:
                def __call__(self, x):
                    print(x.shape)
                    return x.sum()
            class QuietLoss:
                def __call__(self, x):
                    return x.mean()
            class Base(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.criterion = self.init_criterion()
                def init_criterion(self):
                    return LoudLoss()
            class Quiet(Base):
                def __init__(self):
                    super().__init__()
                    self.criterion = QuietLoss()
                def forward(self, x):
                    return self.criterion(x)
        """,
    })
    assert findings == []


def test_a_call_through_a_star_re_export_reaches_the_class(tmp_path):
    # snntorch's `__init__`: `from ._neurons import *`; `snn.Leaky.detach_hidden()` in
    # `utils.reset` then runs the classmethod, whose in-place detach of a module's state breaks
    findings = _package(tmp_path, {
        "__init__.py": "from ._neurons import *\n",
        "_neurons.py": """
            import torch
            class Leaky(torch.nn.Module):
                instances = []
                def __init__(self):
                    super().__init__()
                    self.mem = torch.zeros(3)
                    Leaky.instances.append(self)
                @classmethod
                def detach_hidden(cls):
                    for layer in range(len(cls.instances)):
                        cls.instances[layer].mem.detach_()
                def forward(self, x):
                    return x + self.mem
        """,
        "model.py": """
            import torch
            import pkg as snn
            class Net(torch.nn.Module):
                def forward(self, x):
                    snn.Leaky.detach_hidden()
                    return x * 2
        """,
    })
    assert ("_neurons.py", 12, "CL119") in [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings]


def test_a_context_manager_built_before_the_region_is_decided_across_files(tmp_path):
    # pyro's shape, split over files: a context class (its `__enter__` in a base of another
    # file) built in `__init__` and entered in forward; a class of an installed library the
    # project cannot read, and a context built by the `with` itself, are left alone
    settings = "[tool.compilelint]\ntarget-torch = \"2.13\"\n"
    (tmp_path / "pyproject.toml").write_text(settings)
    findings = _package(tmp_path, {
        "contexts.py": """
            class Context:
                def __enter__(self):
                    return self
                def __exit__(self, *exc):
                    return False
        """,
        "scopes.py": """
            from pkg.contexts import Context
            class Scope(Context):
                pass
        """,
        "model.py": """
            import torch
            from elsewhere import Timer
            from pkg.scopes import Scope
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.scope = Scope()
                    self.timer = Timer()
                def forward(self, x):
                    with self.scope:
                        x = x * 2
                    with self.timer, Scope():
                        return x + 1
        """,
    })
    found = [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings]
    assert found == [("model.py", 11, "CL141")]
    assert "`Scope`" in findings[0].message


def test_a_dispatch_table_a_subclass_stores_runs_through_a_base_typed_attribute(tmp_path):
    # torchsde: the solver holds `sde: BaseSDE` and calls `self.sde.g_prod(...)`, which only
    # the subclass has, stored in `__init__` from `{...}.get(noise, self.default)`; a class
    # outside BaseSDE's family storing the same name is not run
    findings = _package(tmp_path, {
        "sde.py": """
            import torch
            class BaseSDE(torch.nn.Module):
                pass
            class ForwardSDE(BaseSDE):
                def __init__(self, noise):
                    super().__init__()
                    self.g_prod = {"diagonal": self.g_prod_diagonal}.get(noise, self.g_prod_default)
                    self.f = getattr(noise, "f", self.f_default)
                def g_prod_diagonal(self, y, v):
                    return y * v
                def g_prod_default(self, y, v):
                    return y[v > 0]
                def f_default(self, y):
                    return y.nonzero()
            class Tracer:
                def __init__(self):
                    self.g_prod = self.g_prod_verbose
                def g_prod_verbose(self, y, v):
                    print(y)
                    return y
        """,
        "solver.py": """
            import torch
            from pkg.sde import BaseSDE
            class Solver(torch.nn.Module):
                def __init__(self, sde: BaseSDE):
                    super().__init__()
                    self.sde = sde
                def forward(self, y, v):
                    return self.sde.g_prod(y, v) + self.sde.f(y).sum()
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [
        ("sde.py", 13, "CL121"), ("sde.py", 15, "CL120")]


def test_a_method_on_the_elements_of_given_layers_runs_their_family(tmp_path):
    # normflows: `self.flows = nn.ModuleList(flows)` then `self.flows[i].inverse(x)`; pyro:
    # `[t.condition(c) for t in self.transforms]`. The elements are what the caller passed,
    # so each implementation of one family may run (here in another file). Layers the class
    # builds itself run their own class's method only, and a name two unrelated classes
    # define (`describe`) dispatches to neither.
    findings = _package(tmp_path, {
        "flows.py": """
            import torch
            class Flow(torch.nn.Module):
                def inverse(self, z):
                    raise NotImplementedError
                def condition(self, c):
                    return self
            class Masked(Flow):
                def inverse(self, z):
                    return z[z > 0]
                def condition(self, c):
                    print(c)
                    return self
            class Shift(Flow):
                def inverse(self, z):
                    return z - 1
                def describe(self, z):
                    return z.nonzero()
            class Printer:
                def describe(self, z):
                    return z.nonzero()
        """,
        "core.py": """
            import torch
            from pkg.flows import Shift
            class NormalizingFlow(torch.nn.Module):
                def __init__(self, flows, extras):
                    super().__init__()
                    self.flows = torch.nn.ModuleList(flows)
                    self.transforms = [t for t in flows]
                    self.extras = list(extras)
                    self.own = torch.nn.ModuleList([Shift() for _ in range(2)])
                def forward(self, x, c):
                    for flow in self.own:
                        x = flow.inverse(x)
                    x = self.own[0].inverse(x)
                    for extra in self.extras:
                        x = extra.describe(x)
                    [t.condition(c) for t in self.transforms]
                    return self.flows[0].inverse(x)
        """,
    })
    # (`Shift.describe` is API of its own: a public method that takes a tensor, of a module
    # class a public submodule defines; its break is a note for user code that calls it)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings] == [
        ("flows.py", 10, "CL121", ()), ("flows.py", 12, "CL110", ()), ("flows.py", 18, "CL120", ("api",))]


def test_a_list_init_fills_with_objects_runs_their_methods(tmp_path):
    # whisper's DecodingTask: `self.logit_filters = []`, `.append(SuppressBlank(...))`, then
    # `for f in self.logit_filters: f.apply(...)` runs each appended class's `apply` (in
    # another file here); a list that also takes what the caller passed is not followed
    findings = _package(tmp_path, {
        "filters.py": """
            import torch
            class SuppressBlank:
                def apply(self, logits: torch.Tensor):
                    return logits[logits > 0]
            class Rules:
                def apply(self, logits: torch.Tensor):
                    print(logits)
                    return logits
        """,
        "task.py": """
            import torch
            from pkg.filters import Rules, SuppressBlank
            class Task(torch.nn.Module):
                def __init__(self, extra):
                    super().__init__()
                    self.logit_filters = []
                    self.logit_filters.append(SuppressBlank())
                    self.others = []
                    self.others.append(Rules())
                    self.others.append(extra)
                def forward(self, logits):
                    for logit_filter in self.logit_filters:
                        logits = logit_filter.apply(logits)
                    for other in self.others:
                        logits = other.apply(logits)
                    return logits
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [
        ("filters.py", 5, "CL121"), ("task.py", 13, "CL150")]


def test_a_parameter_annotated_int_is_a_tensor_where_a_call_passes_one(tmp_path):
    # pytorch-forecasting's `create_mask(size: int, lengths)`, called with `lengths.max()`:
    # the annotation is a promise a call site breaks, so the sites decide (`a|` leaves). Only a
    # certain tensor counts: a size, a number or a value the walk cannot type keeps it an int,
    # and a public method whose parameters are all `int` takes no tensor (no API entry).
    findings = _package(tmp_path, {
        "__init__.py": "from .masks import Masks\n",
        "utils.py": """
            import torch
            def create_mask(size: int, lengths):
                return torch.arange(size) >= lengths.unsqueeze(-1)
            def window(x, n: int):
                return x[:, :n] if n > 1 else x
        """,
        "masks.py": """
            import torch
            from pkg.utils import create_mask, window
            class Masks(torch.nn.Module):
                def forward(self, x, lengths, n):
                    padded = create_mask(lengths.max(), lengths)
                    kept = create_mask(x.shape[1], lengths)
                    return window(x, n) * padded * kept + window(x, 3)
                def layers(self, depth: int, width: int):
                    print("building", depth)  # (not compiled: no API entry takes only numbers)
                    return [torch.nn.Linear(width, width) for _ in range(depth)] if depth > 0 else []
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("utils.py", 4, "CL107")]
    assert "`size` is a tensor at the compiled calls of `create_mask`" in findings[0].message


def _aligner(tmp_path, heads: str):
    """whisper's `find_alignment(model: "Whisper", ...)` in timing.py, the class in model.py,
    imported only for type checking; `heads` is what the class keeps its head pairs as."""
    return _package(tmp_path, {
        "model.py": f"""
            import torch
            class Whisper(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.blocks = torch.nn.ModuleList([torch.nn.Linear(4, 4)])
                    {heads}
                def forward(self, x):
                    from pkg.timing import find_alignment
                    return find_alignment(self, x)
        """,
        "timing.py": """
            from typing import TYPE_CHECKING
            import torch
            if TYPE_CHECKING:
                from pkg.model import Whisper
            def find_alignment(model: "Whisper", x: torch.Tensor):
                qks = [block(x) for block in model.blocks]
                return torch.stack([qks[l][:, h] for l, h in model.alignment_heads])
        """,
    })


def test_an_attribute_of_a_parameter_annotated_with_a_class_of_another_file(tmp_path):
    # the class registers the pairs as a buffer: each unpacked row is a tensor, and a list
    # indexed by one reads its value (Dynamo: `.item()`, a break); the same class keeping
    # Python ints there claims nothing
    findings = _aligner(tmp_path, 'self.register_buffer("alignment_heads", torch.tensor([[0, 1]]))')
    (finding,) = [f for f in findings if f.code == "CL107"]
    assert finding.path.endswith("timing.py") and finding.line == 8
    assert "`alignment_heads` of a `Whisper` is a tensor" in finding.message
    (tmp_path / "ints").mkdir()
    assert not [f for f in _aligner(tmp_path / "ints", "self.alignment_heads = [(0, 1)]") if f.code == "CL107"]


def test_a_number_or_tensor_annotation_is_decided_by_the_call_sites(tmp_path):
    # `Union[int, Tensor]` / `float | Tensor` say "either": the compiled caller passing a
    # buffer makes it a tensor (fixtures/corpus/xf_union_number_tensor_01.py, confirmed by
    # Dynamo); a union with a container, or a caller passing an int, claims nothing
    findings = lint_snippet(tmp_path, """
        from typing import List, Union
        import torch
        from torch import Tensor
        def by_union(n: Union[int, Tensor]):
            if n < 2:
                return 0
            return 1
        def by_bar(n: "float | Tensor"):
            return 0 if n < 2 else 1
        def by_container(n: Union[Tensor, List[int]]):
            return 0 if n < 2 else 1
        def by_int(n: Union[int, Tensor]):
            return 0 if n < 2 else 1
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("count", torch.tensor(0))
            def forward(self, x):
                return by_union(self.count) + by_bar(self.count) + by_container(self.count) + by_int(x.shape[0])
    """)
    assert {(f.line, f.code) for f in findings} == {(5, "CL102"), (9, "CL102")}


SEPARATE = {
    "model.py": """
        import torch
        from torch import nn
        class Separator(nn.Module):
            def __init__(self, sample_rate: float = 44100.0):
                super().__init__()
                self.register_buffer("sample_rate", torch.as_tensor(sample_rate))
            def forward(self, x):
                return x * 2
        class Plain(nn.Module):
            def __init__(self, sample_rate: float = 44100.0):
                super().__init__()
                self.sample_rate = sample_rate
            def forward(self, x):
                return x * 2
    """,
    "utils.py": """
        import torch
        from .model import Plain, Separator
        def load_separator(rate: float = 44100.0):
            return Separator(rate)
        def load_plain(rate: float = 44100.0):
            return Plain(rate)
        def preprocess(audio: torch.Tensor, rate: float, model_rate: float) -> torch.Tensor:
            if rate != model_rate:  # BREAKS
                audio = audio * 2
            return audio
        def trim(audio: torch.Tensor, rate: float, model_rate: float) -> torch.Tensor:
            if rate != model_rate:
                audio = audio[..., :-1]
            return audio
    """,
    "predict.py": """
        import torch
        from . import utils
        class Separate(torch.nn.Module):
            def forward(self, audio, rate: float = 44100.0, separator=None):
                if separator is None:
                    separator = utils.load_separator()
                audio = utils.preprocess(audio, rate, separator.sample_rate)
                plain = utils.load_plain()
                audio = utils.trim(audio, rate, plain.sample_rate)
                return separator(audio)
    """,
}


def test_an_attribute_of_what_another_files_factory_builds(tmp_path):
    # openunmix's `separate()`: `separator = utils.load_separator()` when none is given, then
    # `preprocess(audio, rate, separator.sample_rate)`, a buffer, tested with `if rate !=
    # model_rate:` in the helper; a factory whose class keeps a Python float claims nothing
    findings = _package(tmp_path, SEPARATE)
    line = _marked(tmp_path / "pkg" / "utils.py", "# BREAKS")
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("utils.py", line, "CL102")]
    assert "`model_rate` is a tensor at the compiled calls of `preprocess`" in findings[0].message


def test_dynamo_breaks_on_an_attribute_of_what_another_files_factory_builds(tmp_path):
    # the corpus pins one file's form (xf_factory_attr_01); this is the package's, run for real
    import pytest

    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture
    from helpers import imported

    write_package(tmp_path, "pkg", SEPARATE)
    with imported(tmp_path, "pkg.predict") as predict:
        result = capture(predict.Separate(), (torch.randn(2, 8),), backend="eager")
    assert result.error is None
    line = _marked(tmp_path / "pkg" / "utils.py", "# BREAKS")
    assert {(r.file.rsplit("/", 1)[-1], r.line) for r in result.breaks if r.kind == "graph_break"} == {("utils.py", line)}


def _marked(path, marker: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if marker in text)


VSA = {
    "base.py": """
        import torch
        class VSATensor(torch.Tensor):
            pass
    """,
    "hrr.py": """
        import warnings
        import torch
        from pkg.base import VSATensor
        class HRRTensor(VSATensor):
            def cosine_similarity(self, others, *, eps=1e-8):
                self_mag = torch.sqrt(torch.sum(self * self, dim=-1))
                magnitude = self_mag * torch.sqrt(torch.sum(others * others, dim=-1))
                if torch.isclose(magnitude, torch.zeros_like(magnitude)).any():  # BREAKS
                    warnings.warn("a vector is nearly zero")
                return torch.sum(self * others, dim=-1) / torch.clamp(magnitude, min=eps)
            def dot_similarity(self, others):
                return torch.sum(self * others, dim=-1)
        class Codebook:
            def cosine_similarity(self, others, *, eps=1e-8):
                magnitude = torch.sqrt(torch.sum(others * others, dim=-1))
                if torch.isclose(magnitude, torch.zeros_like(magnitude)).any():
                    warnings.warn("a vector is nearly zero")
                return magnitude
    """,
}


def test_a_tensor_subclass_methods_take_a_tensor_whatever_their_bodies_show(tmp_path):
    # torchhd's `HRRTensor.cosine_similarity(others)`: `self` is the tensor, so the public
    # method is the library's API though its body hands nothing to torch that shows it; a
    # plain class with the same body (`Codebook`) shows no tensor and stays out
    files = {**VSA, "__init__.py": "from pkg.hrr import HRRTensor, Codebook\n"}
    pkg = write_package(tmp_path, "pkg", {k: v for k, v in files.items() if k != "__init__.py"})
    (pkg / "__init__.py").write_text(files["__init__.py"])
    findings = check([str(pkg)], config_mod.load(start=str(tmp_path))).findings
    line = _marked(pkg / "hrr.py", "# BREAKS")
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings] == [
        ("hrr.py", line, "CL102", ("api",)), ("hrr.py", line + 1, "CL112", ("api",))]


def test_dynamo_breaks_in_a_tensor_subclass_method_and_not_in_its_neighbour(tmp_path):
    import pytest

    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture
    from helpers import imported

    write_package(tmp_path, "pkg", VSA)
    with imported(tmp_path, "pkg.hrr") as hrr:
        a, b = torch.randn(3, 8).as_subclass(hrr.HRRTensor), torch.randn(3, 8).as_subclass(hrr.HRRTensor)
        cosine = capture(lambda x, y: x.cosine_similarity(y), (a, b), backend="eager")
        dot = capture(lambda x, y: x.dot_similarity(y), (a, b), backend="eager")
    assert cosine.error is None and dot.error is None
    line = _marked(tmp_path / "pkg" / "hrr.py", "# BREAKS")
    # (the lambda's call, where the inlined method broke, is logged too: not the package's)
    assert {r.line for r in cosine.breaks if r.kind == "graph_break" and r.file.endswith("hrr.py")} == {line}
    assert not [r for r in dot.breaks if r.kind == "graph_break"]


KERNELS = {
    "kernels.py": """
        import torch
        def rbf(x):
            if x.sum() > 0:  # BREAKS
                return x
            return -x
        def plain(x):
            return x * 2
    """,
    "model.py": """
        import torch
        from pkg import kernels
        class Model(torch.nn.Module):
            def __init__(self, kernel=kernels.rbf):
                super().__init__()
                self.kernel = kernel
                self.other = kernels.plain
            def forward(self, x):
                return self.kernel(x) + self.other(x)
    """,
}


def test_an_attribute_holds_the_module_function_its_parameter_defaults_to(tmp_path):
    # `kernel=kernels.rbf` kept as `self.kernel`, and `self.other = kernels.plain`: calling
    # the attributes runs those functions of another module (the first breaks, the second not)
    findings = _package(tmp_path, KERNELS)
    line = _marked(tmp_path / "pkg" / "kernels.py", "# BREAKS")
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("kernels.py", line, "CL102")]


def test_dynamo_breaks_in_the_function_an_attribute_holds_by_default(tmp_path):
    import pytest

    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture
    from helpers import imported

    write_package(tmp_path, "pkg", KERNELS)
    with imported(tmp_path, "pkg.model") as model:
        result = capture(model.Model(), (torch.randn(3),), backend="eager")
    assert result.error is None
    line = _marked(tmp_path / "pkg" / "kernels.py", "# BREAKS")
    assert {r.line for r in result.breaks if r.kind == "graph_break" and r.file.endswith("kernels.py")} == {line}


def test_a_method_called_on_an_untyped_local_runs_the_one_family_that_defines_it(tmp_path):
    # torchphysics: the forward is handed the sampler's `Points` and calls
    # `x.track_coord_gradients()`; nothing types `x`, but one family of project classes
    # defines the name, so its breaks are the forward's. A name a library object answers
    # (`dist.sample()`, `parts.append(x)`) and one two unrelated classes define (`scaled`)
    # are not followed.
    findings = _package(tmp_path, {
        "points.py": """
            import torch
            class Points:
                def __init__(self, data):
                    self.data = data
                def track_coord_gradients(self):
                    return self.data.nonzero()
                def sample(self):
                    return self.data.tolist()
                def scaled(self):
                    return self.data[self.data > 0]
            class Grid:
                def scaled(self):
                    print(self)
                    return self
        """,
        "model.py": """
            import torch
            class Field(torch.nn.Module):
                def forward(self, x, dist):
                    parts = []
                    parts.append(x.track_coord_gradients())
                    return parts, dist.sample(), x.scaled()
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("points.py", 7, "CL120")]


def test_skipping_an_isinstance_check_of_either_argument_means_no_tensor_in_both(tmp_path):
    # torchdr's `check_neighbor_param`, part of the package's API: `if isinstance(k, Tensor) or
    # isinstance(n, Tensor): return ...`; past it neither is a tensor (corpus
    # clean_isinstance_or_return_01). With `and` nothing is proved (cf_isinstance_and_return_01).
    findings = _package(tmp_path, {
        "__init__.py": """
            from pkg.checks import check, check_both
        """,
        "checks.py": """
            import torch
            def check(k, n):
                if isinstance(k, torch.Tensor) or isinstance(n, torch.Tensor):
                    return torch.clamp(torch.as_tensor(k), 2, 5)
                if n <= 1 or k >= n:
                    raise ValueError("bad")
                return k
            def check_both(k, n):
                if isinstance(k, torch.Tensor) and isinstance(n, torch.Tensor):
                    return torch.clamp(k, 2, 5)
                if k <= 1:
                    k = k + 2
                return k
        """,
    })
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [("checks.py", 12, "CL102")]
