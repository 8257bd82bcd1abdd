import libcst as cst

from compilelint.rules.base import Rule
from compilelint.semantic.facts import facts_of
from compilelint.semantic.kinds import TENSOR_ANNOTATIONS, VALUE_ANNOTATIONS, Kind, dotted, not_optional

# typing's names for what may be any value (truthiness Dynamo traces), not a class of objects
TYPING_NAMES = frozenset({"Any", "Iterable", "Iterator", "Generator", "Collection", "Hashable", "Sized", "Number"})


class AssertOnObject(Rule):
    code = "CL144"
    name = "assert-on-object"
    summary = "`assert self.layers`, `assert transforms`, `assert cache`: asserting a module or an object"
    message = ("`assert {what}` tests the truth of {holds}: Dynamo hands the value to the assertion it "
               "traces, cannot, and runs the whole function eagerly ({gb})")
    severity = "error"
    gb_id = "GB0055"
    help = ("Assert what you mean about it: `assert len(transforms) > 0`, `assert self.layers is not None`, "
           "`assert isinstance(self.head, nn.Linear)`; Dynamo traces those.")
    breaks_graph = True

    VALID = [
        """
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self, causal=True):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4)])
        self.causal = causal
    def forward(self, x, cache: "Cache", *sizes: int, n: int = 1):
        assert self.causal, "only causal"  # a flag
        assert len(self.layers) > 0 and self.layers is not None
        assert isinstance(self.layers[0], nn.Linear)
        assert sizes  # a tuple of ints
        assert n and cache is not None
        return self.layers[0](x)
""",
        """
import torch
class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
def build(head: Head):
    assert head.proj  # not compiled
    return head
""",
        """
import dataclasses
from typing import Any, Optional
import torch
@dataclasses.dataclass(frozen=True)
class Modules:
    policy: torch.nn.Linear
    use_temp: bool
    scale: torch.Tensor
    extra: Any
    temp_optim: Optional["Wrapper"]
class Impl(torch.nn.Module):
    _modules: Modules
    def forward(self, obs):
        assert self._modules.use_temp and self._modules.temp_optim is not None  # a flag, a test
        assert self._modules.scale  # a tensor: Dynamo traces `torch._assert`
        assert self._modules.extra
        return self._modules.policy(obs)
""",
    ]

    INVALID = [
        """
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(nn.Linear(4, 4))
    def forward(self, x):
        assert self.blocks, "no blocks"  # expect
        return self.blocks(x)
""",
        """
import torch
from typing import Optional
class Cache:
    pass
class Step(torch.nn.Module):
    def forward(self, x, cache: Optional[Cache] = None):
        if cache is not None:
            assert cache  # expect
        return x
""",
        """
import torch
from torch.distributions import Transform
class Composed(Transform):
    def __init__(self, *transforms: Transform):
        super().__init__()
        assert transforms, "empty"  # expect
        self.transforms = transforms
class Flow(torch.nn.Module):
    def forward(self, x):
        return Composed(torch.distributions.ExpTransform())(x)
""",
        """
import dataclasses
from typing import Optional
import torch
class OptimizerWrapper:
    def step(self):
        pass
@dataclasses.dataclass(frozen=True)
class Modules:
    policy: torch.nn.Linear
    temp_optim: Optional[OptimizerWrapper]
class Impl(torch.nn.Module):
    _modules: Modules
    def forward(self, obs):
        assert self._modules.temp_optim  # expect
        return self._modules.policy(obs)
""",
    ]

    def visit_Assert(self, node: cst.Assert) -> None:
        test = node.test
        if not isinstance(test, (cst.Name, cst.Attribute)):
            return
        if self.ctx.kind(test) == Kind.MODULE:
            self._report(test, "a module", "GB0055")
            return
        star, cls = self._annotation(test)
        if cls is None:
            cls = self._field_class(test)
        if star and cls in TENSOR_ANNOTATIONS:
            self._report(test, "a tuple of tensors", "GB0112")
        elif cls is not None and cls[:1].isupper() and cls not in VALUE_ANNOTATIONS | TENSOR_ANNOTATIONS | TYPING_NAMES:
            self._report(test, f"a tuple of `{cls}` objects" if star else f"a `{cls}` object", "GB0055")

    def visit_Module(self, node: cst.Module) -> None:
        # the fields each class of the file annotates in its body (a dataclass's, `_modules: SACModules`)
        self._fields = {stmt.name.value: {line.target.value: line.annotation.annotation
                                          for part in stmt.body.body if isinstance(part, cst.SimpleStatementLine)
                                          for line in part.body
                                          if isinstance(line, cst.AnnAssign) and isinstance(line.target, cst.Name)}
                        for stmt in node.body if isinstance(stmt, cst.ClassDef)}

    def _field_class(self, test: cst.BaseExpression) -> str | None:
        """The class `self.A.B` is annotated with: the function's class annotates `A` with a
        class of the same file that annotates `B` (d3rlpy's `assert self._modules.temp_optim`,
        `_modules: SACModules`, a frozen dataclass with `temp_optim: Optional[OptimizerWrapper]`)."""
        scope = self.ctx.function
        if scope is None or scope.class_name is None or not (
                isinstance(test, cst.Attribute) and isinstance(test.value, cst.Attribute)
                and dotted(test.value.value) == "self"):
            return None
        held = self._fields.get(scope.class_name.rsplit(".", 1)[-1], {}).get(test.value.attr.value)
        holder = dotted(not_optional(held)) if held is not None else None
        field = self._fields.get((holder or "").rsplit(".", 1)[-1], {}).get(test.attr.value)
        name = dotted(not_optional(field)) if field is not None else None
        return name.split(".")[-1] if name else None

    def _annotation(self, test: cst.BaseExpression) -> tuple[bool, str | None]:
        """(whether it is `*args`, the class it is annotated with) when the test names a
        parameter the function never rebinds: `*transforms: Transform`, `cache: Cache`,
        `Optional[Cache]` / `Cache | None` (asserted, it is not None)."""
        scope = self.ctx.function
        func = scope.node if scope is not None else None
        if not isinstance(test, cst.Name) or not isinstance(func, cst.FunctionDef):
            return False, None
        star = func.params.star_arg
        params = [p for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
                  if p.name.value == test.value]
        is_star = isinstance(star, cst.Param) and star.name.value == test.value
        param = star if is_star else (params[0] if params else None)
        if param is None or param.annotation is None or facts_of(scope).rebound(test.value):
            return False, None
        name = dotted(not_optional(param.annotation.annotation))
        return is_star, name.split(".")[-1] if name else None

    def _report(self, test: cst.BaseExpression, holds: str, gb: str) -> None:
        what = dotted(test) or "..."
        self.report(test, self.message.format(what=what, holds=holds, gb=gb))

