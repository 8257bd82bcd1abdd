import libcst as cst

from compilelint.semantic.kinds import Kind, literal_kind
from compilelint.rules.base import Rule


def _self_attr(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _mentions(node: cst.CSTNode, attr: str) -> bool:
    found = False

    class Finder(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            nonlocal found
            if _self_attr(n) == attr:
                found = True

    node.visit(Finder())
    return found


class PythonStateMutation(Rule):
    code = "CL202"
    name = "python-state-mutation"
    summary = "Python-scalar attribute changed in a region (`self.calls += 1`)"
    message = ("`self.{attr}` is a Python value changed on every call: Dynamo specialises on it, so each "
               "call recompiles until the recompile limit, then runs eagerly")
    severity = "warning"
    gb_id = None
    ONCE = ("`self.{attr}` is a Python value set in a compiled region: Dynamo guards on it, so the next "
            "call recompiles")
    own_state = True
    help = "Keep counters as tensors (a buffer updated in place: `self.calls.add_(1)`), or update them outside the compiled region."

    VALID = [
        """
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
    def forward(self, x):
        self.steps += 1  # a buffer: a tensor updated in place
        self.cache = x.detach()  # a tensor: a tracked side effect
        self.last_shape = x.shape  # set, not accumulated
        return x
    def count(self):
        self.calls += 1  # not compiled
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.total = 0.0
    def forward(self, x):
        self.calls += 1  # expect
        self.total = self.total + 0.5  # expect
        return x
""",
        """
import torch
from torch import nn
class DataInit(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("shift", torch.zeros(4))
        self.initialized = False
    def forward(self, x):
        if not self.initialized:
            self.shift.copy_(x.mean(0))
            self.initialized = True  # expect
        return x - self.shift
""",
    ]

    def _tensor_display(self, node: cst.BaseExpression) -> bool:
        """A dict, list, tuple or set display holding tensors the call computes (torch-audiomentations'
        `self.transform_parameters = {"should_apply": mask}` per call): measured on 2.13.0 and 2.14.1,
        no recompile (corpus `xf_mask_dict_attribute_02`), unlike a flag overwritten with a constant
        or a list of sizes (kornia's `self._pad = [pad_wd // 2, ...]`)."""
        if isinstance(node, cst.Dict):
            values = [e.value for e in node.elements if isinstance(e, cst.DictElement)]
        elif isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            values = [e.value for e in node.elements]
        else:
            return False
        return any(self.ctx.kind(v).tensorish for v in values)

    def _python(self, attr: str, value: cst.BaseExpression) -> bool:
        kind = self.ctx.self_attr_kind(attr)
        if kind in (Kind.TENSOR, Kind.LIKELY, Kind.MODULE):
            return False
        if kind == Kind.VALUE:
            return True
        return self.ctx.kind(value) == Kind.VALUE

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        attr = _self_attr(node.target)
        if attr and self._python(attr, node.value):
            self.report(node, self.message.format(attr=attr))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            attr = _self_attr(target.target)
            if not attr:
                continue
            if _mentions(node.value, attr) and self._python(attr, node.value):
                self.report(node, self.message.format(attr=attr))
            elif self.ctx.self_attr_kind(attr) == Kind.VALUE and literal_kind(node.value) == Kind.VALUE \
                    and attr != "training" and not self._tensor_display(node.value):
                # A flag __init__ set to a Python value and forward overwrites: one recompile.
                self.report(node, self.ONCE.format(attr=attr), severity="note")
