import libcst as cst

from compilelint.rules.base import Rule
from compilelint.semantic.facts import CallerFacts
from compilelint.semantic.kinds import TENSOR_ANNOTATIONS, VALUE_ANNOTATIONS, Kind, dotted


class AssertOnObject(Rule):
    code = "CL144"
    name = "assert-on-object"
    summary = "`assert self.layers`, `assert transforms`: asserting a module or a tuple of objects"
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
    def forward(self, x, *sizes: int):
        assert self.causal, "only causal"  # a flag
        assert len(self.layers) > 0 and self.layers is not None
        assert isinstance(self.layers[0], nn.Linear)
        assert sizes  # a tuple of ints
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
    ]

    def visit_Assert(self, node: cst.Assert) -> None:
        test = node.test
        if not isinstance(test, (cst.Name, cst.Attribute)):
            return
        if self.ctx.kind(test) == Kind.MODULE:
            self._report(test, "a module", "GB0055")
            return
        star = self._star_annotation(test)
        if star in TENSOR_ANNOTATIONS:
            self._report(test, "a tuple of tensors", "GB0112")
        elif star is not None and star[:1].isupper() and star not in VALUE_ANNOTATIONS:
            self._report(test, f"a tuple of `{star}` objects", "GB0055")

    def _star_annotation(self, test: cst.BaseExpression) -> str | None:
        """The class a function's `*args` is annotated with, when the test is that name and the
        function never rebinds it (`*transforms: Transform`)."""
        scope = self.ctx.function
        func = scope.node if scope is not None else None
        if not isinstance(test, cst.Name) or not isinstance(func, cst.FunctionDef):
            return None
        star = func.params.star_arg
        if not isinstance(star, cst.Param) or star.name.value != test.value or star.annotation is None:
            return None
        if scope.facts is None:
            scope.facts = CallerFacts(func, scope.bound, scope.class_name is not None)
        if scope.facts.rebound(test.value):
            return None
        name = dotted(star.annotation.annotation)
        return name.split(".")[-1] if name else None

    def _report(self, test: cst.BaseExpression, holds: str, gb: str) -> None:
        what = dotted(test) or "..."
        self.report(test, self.message.format(what=what, holds=holds, gb=gb))
