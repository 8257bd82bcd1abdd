import libcst as cst

from compilelint.rules.base import Rule

STRUCTURAL = {"register_buffer", "register_parameter", "add_module", "register_module",
              "register_forward_hook", "register_forward_pre_hook"}


class MutationAfterCompile(Rule):
    code = "CL203"
    name = "mutation-after-compile"
    message = "`{what}` changes a model after it was compiled: the guards fail and the next call recompiles"
    severity = "warning"
    gb_id = None
    fix = "Finish building the model (submodules, buffers, hooks) before calling torch.compile."
    region_only = False

    VALID = [
        """
import torch
from torch import nn
model = nn.Sequential(nn.Linear(4, 4))
model.add_module("head", nn.Linear(4, 2))
model.register_buffer("scale", torch.ones(2))
model = torch.compile(model)
out = model(torch.randn(1, 4))
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
model = nn.Sequential(nn.Linear(4, 4))
model.compile()
model.add_module("head", nn.Linear(4, 2))  # expect
model.head = nn.Linear(4, 3)  # expect
""",
        """
import torch
from torch import nn
def build(model):
    compiled = torch.compile(model)
    compiled.register_forward_hook(lambda m, i, o: o)  # expect
    return compiled
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in STRUCTURAL \
                and self.ctx.compiled_state(func.value):
            self.report(node, self.message.format(what=func.attr.value + "()"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and self.ctx.compiled_state(t.value) \
                    and self.ctx.kind(node.value).value == "module":
                self.report(node, self.message.format(what=f"assigning a new submodule to `.{t.attr.value}`"))
