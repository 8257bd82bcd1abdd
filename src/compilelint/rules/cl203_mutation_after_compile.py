import libcst as cst

from compilelint.rules.base import Rule

DTYPE_CHANGES = {"half", "bfloat16", "double"}
STRUCTURAL = {"register_buffer", "register_parameter", "add_module", "register_module",
              "register_forward_hook", "register_forward_pre_hook"}


class MutationAfterCompile(Rule):
    code = "CL203"
    name = "mutation-after-compile"
    summary = "structural change to a model after it was compiled"
    message = "`{what}` changes a model after it was compiled: the guards fail and the next call recompiles"
    severity = "warning"
    gb_id = None
    help = "Finish building the model (submodules, buffers, hooks) before calling torch.compile."
    region_only = False

    VALID = [
        """
import torch
from torch import nn
net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1))
net[1].p = 0.3
for p in net[0].parameters():
    p.requires_grad_(False)
net.half()
fast = torch.compile(net)  # everything above happens before compiling
""",
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
net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1))
fast = torch.compile(net)
def finetune(batches):
    net[1].p = 0.3  # expect
    for p in net[0].parameters():
        p.requires_grad_(False)  # expect
    net.half()  # expect
    for x in batches:
        fast(x)
""",
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

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._param_loops: list[str] = []  # `for p in model.parameters():` names

    def _root_compiled(self, node: cst.BaseExpression) -> bool:
        """`model`, `model.encoder.layer` …: rooted at something compiled or wrapped."""
        while isinstance(node, (cst.Attribute, cst.Subscript)):
            if self.ctx.compiled_state(node):
                return True
            node = node.value
        return bool(self.ctx.compiled_state(node))

    def visit_For(self, node: cst.For) -> None:
        it = node.iter
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) \
                and it.func.attr.value in ("parameters", "buffers") and self._root_compiled(it.func.value) \
                and isinstance(node.target, cst.Name):
            self._param_loops.append(node.target.value)
        else:
            self._param_loops.append("")

    def leave_For(self, original_node: cst.For) -> None:
        self._param_loops.pop()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        method = func.attr.value
        if method in STRUCTURAL and self._root_compiled(func.value):
            self.report(node, self.message.format(what=method + "()"))
        elif method in DTYPE_CHANGES and not node.args and self._root_compiled(func.value):
            self.report(node, self.message.format(what=method + "()"))
        elif method == "requires_grad_" and (
            self._root_compiled(func.value)
            or (isinstance(func.value, cst.Name) and func.value.value in self._param_loops)
        ):
            self.report(node, self.message.format(what="requires_grad_() on its parameters"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if not isinstance(t, cst.Attribute) or not self._root_compiled(t.value):
                continue
            kind = self.ctx.kind(node.value).value
            nested = not self.ctx.compiled_state(t.value)  # model.drop.p = 0.3
            if kind == "module":
                self.report(node, self.message.format(what=f"assigning a new submodule to `.{t.attr.value}`"))
            elif nested and kind == "value" and t.attr.value not in ("grad", "data"):
                self.report(node, self.message.format(what=f"setting `.{t.attr.value}` of a submodule"))
