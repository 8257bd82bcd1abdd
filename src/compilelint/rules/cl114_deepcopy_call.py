import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.index import EXTERNAL_MODULE_BASES
from compilelint.semantic.kinds import Kind
from compilelint.rules.base import Rule


class DeepcopyCall(Rule):
    code = "CL114"
    name = "deepcopy-call"
    summary = "`copy.deepcopy`"
    message = "`copy.{fn}()` of {what} in a compiled region: Dynamo cannot copy tensors while tracing and breaks the graph"
    severity = "error"
    gb_id = "GB4198"
    help = ("Copy modules and state outside the region (once, at setup); inside it use tensor ops "
           "(`x.clone()`, `x.detach().clone()`) instead of copy.deepcopy.")
    breaks_graph = True

    VALID = [
        """
import copy
import torch
class M(torch.nn.Module):
    def __init__(self, block, n):
        super().__init__()
        self.layers = torch.nn.ModuleList(copy.deepcopy(block) for _ in range(n))  # __init__: eager
    def forward(self, x, options: dict):
        opts = copy.deepcopy(options)  # plain Python data: traced on torch 2.13
        opts["scale"] = 2
        return x.clone() * opts["scale"]
""",
        """
import copy
import torch
class EMA:
    def __init__(self, model):
        self.shadow = copy.deepcopy(model)  # not compiled
class M(torch.nn.Module):
    def forward(self, x):
        return x
""",
    ]
    INVALID = [
        """
import copy
import torch
class Cell(torch.nn.Module):
    def forward(self, x, h):
        prev = copy.deepcopy(h)  # expect
        return x + h - prev
""",
        """
import copy
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 4)
    def forward(self, x):
        saved = copy.deepcopy(x)  # expect
        head = copy.deepcopy(self.head)  # expect
        me = copy.deepcopy(self)  # expect
        pair = copy.deepcopy([x, saved])  # expect
        shallow = copy.copy(torch.relu(x))  # expect
        return head(saved), me, pair, shallow
""",
    ]

    def _module_self(self) -> bool:
        scope = self.ctx.function
        if scope is None or scope.class_name is None:
            return False
        if scope.is_forward:
            return True
        info = self.ctx.class_table.get(scope.class_name)
        return bool(info) and any(b.startswith(EXTERNAL_MODULE_BASES) for b in info.bases)

    def _what(self, arg: cst.BaseExpression) -> tuple[str, str] | None:
        """(description, severity) of what is copied, None if it is not known to hold tensors."""
        if isinstance(arg, cst.Name) and arg.value == "self":
            return ("the module itself", "error") if self._module_self() else None
        kind = self.ctx.kind(arg)
        if kind == Kind.TENSOR:
            return "a tensor", "error"
        if kind == Kind.LIKELY:
            return "a tensor", "warning"
        if kind == Kind.MODULE:
            return "a module (its parameters)", "error"
        if isinstance(arg, (cst.List, cst.Tuple, cst.Set)):
            kinds = [self.ctx.kind(e.value) for e in arg.elements]
            if Kind.TENSOR in kinds:
                return "a container of tensors", "error"
            if Kind.LIKELY in kinds:
                return "a container of tensors", "warning"
        scope = self.ctx.function
        if kind == Kind.UNKNOWN and isinstance(arg, cst.Name) and scope is not None and arg.value in scope.params:
            return "an argument (a tensor or state holding tensors, most likely)", "warning"
        if isinstance(arg, cst.Dict):
            kinds = [self.ctx.kind(e.value) for e in arg.elements if isinstance(e, cst.DictElement)]
            if Kind.TENSOR in kinds or Kind.LIKELY in kinds:
                return "a container of tensors", "error" if Kind.TENSOR in kinds else "warning"
        return None

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified not in ("copy.deepcopy", "copy.copy") or not node.args:
            return
        fn = qualified.split(".")[1]
        what = self._what(node.args[0].value)
        # releases that reject copy.deepcopy() outright (GB0179): the knowledge table's entry
        rejected = knowledge.table(self.code, torch_version(self.ctx.settings)).get(qualified) is not None
        if what is None and rejected:
            self.report(node, f"`copy.deepcopy()` in a compiled region: this torch release does not trace "
                              "copy.deepcopy at all and breaks the graph", severity="error")
            return
        if what is not None:
            self.report(node, self.message.format(fn=fn, what=what[0]), severity=what[1])
