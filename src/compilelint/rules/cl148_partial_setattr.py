import libcst as cst

from compilelint.rules.base import Rule

PARTIALS = frozenset({"functools.partial"})


class PartialSetattr(Rule):
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._frames: list[set[str]] = [set()]  # per function: names now bound to a partial

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._frames.append(set())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._frames.pop()

    def _is_partial(self, value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and (self.ctx.qualify(value.func) or "") in PARTIALS

    def visit_Assign(self, node: cst.Assign) -> None:
        names = self._frames[-1]
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value in names:
                self.report(node, self.message.format(target=f"{t.value.value}.{t.attr.value} = ..."))
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                if self._is_partial(node.value):
                    names.add(target.target.value)
                else:
                    names.discard(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) != "builtins.setattr" or len(node.args) < 2:
            return
        obj = node.args[0].value
        if isinstance(obj, cst.Name) and obj.value in self._frames[-1]:
            self.report(node, self.message.format(target=f"setattr({obj.value}, ...)"))
