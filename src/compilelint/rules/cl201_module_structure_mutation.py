import libcst as cst

from compilelint.rules.base import Rule

STRUCTURAL = {"register_buffer", "register_parameter", "add_module", "register_module"}


class ModuleStructureMutation(Rule):
    code = "CL201"
    name = "module-structure-mutation"
    summary = "`register_buffer`/`register_parameter`/`add_module` in a region"
    message = "`{what}` in a compiled region changes the module's structure, which Dynamo guards on: expect recompiles or a graph break"
    severity = "warning"
    gb_id = None
    own_state = True
    help = "Create buffers, parameters and submodules in `__init__`; in forward, update existing buffers in place (`self.buf.copy_(...)`)."

    VALID = [
        """
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.zeros(()))
        self.add_module("proj", nn.Linear(4, 4))
    def forward(self, x):
        self.steps.add_(1)  # in-place update of an existing buffer
        self.cache = x.detach()  # a tensor attribute: a tracked side effect
        return self.proj(x)
""",
        """
import torch
from torch import nn
class Blur(nn.Module):
    def __init__(self, kernel):
        super().__init__()
        self.register_buffer("kernel", kernel / kernel.sum())  # a new module's own buffer
class M(nn.Module):
    def forward(self, x, kernel):
        return x * Blur(kernel).kernel.sum()  # built per call: its __init__ runs compiled
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
class M(nn.Module):
    def forward(self, x):
        if not hasattr(self, "scale"):
            self.register_buffer("scale", torch.ones(x.shape[-1]))  # expect
        self.add_module("extra", nn.Identity())  # expect
        self.head = nn.Linear(4, 2)  # expect
        return x * self.scale
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in STRUCTURAL:
            self.report(node, self.message.format(what=func.attr.value + "()"))
        elif self.ctx.qualify(func) == "builtins.setattr" and len(node.args) == 3 \
                and self.ctx.kind(node.args[2].value).value == "module":
            self.report(node, self.message.format(what="setattr(..., <module>)"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self" \
                    and self.ctx.kind(node.value).value == "module":
                self.report(node, self.message.format(what=f"self.{t.attr.value} = <new module>"))

    def visit_Del(self, node: cst.Del) -> None:
        t = node.target
        if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
            if self.ctx.self_attr_kind(t.attr.value).value in ("module", "tensor"):
                self.report(node, self.message.format(what=f"del self.{t.attr.value}"))
