import libcst as cst

from compilelint.rules._attribute_writes import AttributeWrites
from compilelint.rules.base import Rule

PARTIALS = frozenset({"functools.partial"})


class PartialSetattr(AttributeWrites, Rule):
    code = "CL148"
    name = "partial-setattr"
    summary = "sets an attribute on a `functools.partial` object in the compiled region"
    message = ("`{target}` sets an attribute on a `functools.partial` object: Dynamo supports setattr on "
               "user objects, not on partials, and breaks the graph (GB0467)")
    severity = "error"
    gb_id = "GB0467"
    help = ("Keep the extra state beside the partial (a small class with `__call__`, or a tuple), or set it "
           "outside the compiled code.")
    breaks_graph = True

    VALID = [
        """
import functools
import torch
import torch.nn as nn
class Head(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.step = functools.partial(net, scale=2.0)
        self.step.tag = "scaled"  # __init__: not compiled
    def forward(self, x, context):
        step = functools.partial(self.net, context=context)
        box = Box()
        box.tag = "ok"  # a user object: Dynamo records the setattr
        step = torch.relu  # rebound: no longer the partial
        step.tag = 1
        return step(x)
class Box:
    pass
""",
    ]
    INVALID = [
        """
from functools import partial
import torch.nn as nn
class Conditional(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
    def forward(self, x, context):
        cond = partial(self.net, context=context)
        cond.permutation = self.net.permutation  # expect
        setattr(cond, "order", 2)  # expect
        return cond(x)
""",
    ]

    def _partial(self, name: cst.BaseExpression) -> bool:
        """A name the function binds once, to `functools.partial(...)` (semantic.local_flags)."""
        if not isinstance(name, cst.Name) or self.ctx.function is None:
            return False
        value = self.ctx.local_flag(name.value)
        return isinstance(value, cst.Call) and (self.ctx.qualify(value.func) or "") in PARTIALS

    def _written(self, node: cst.CSTNode, owner: cst.BaseExpression, shown: str) -> None:
        if self._partial(owner):
            self.report(node, self.message.format(target=shown))
