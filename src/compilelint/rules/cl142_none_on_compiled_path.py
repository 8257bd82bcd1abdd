from __future__ import annotations

import libcst as cst

from compilelint import traverse
from compilelint.rules.base import Rule


def _none_test_name(test: cst.BaseExpression) -> str | None:
    """`x` of an `x is None` operand of an `and` chain."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _none_test_name(test.left) or _none_test_name(test.right)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name):
        part = test.comparisons[0]
        if isinstance(part.operator, cst.Is) and isinstance(part.comparator, cst.Name) \
                and part.comparator.value == "None":
            return test.left.value
    return None


def _assigns(body: cst.BaseSuite, name: str) -> bool:
    for statement in getattr(body, "body", ()):
        for small in getattr(statement, "body", ()):
            if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets):
                return True
    return False


def _mentions(node: cst.CSTNode, names: set[str]) -> set[str]:
    return {n.value for n in traverse.iter_nodes(node) if type(n) is cst.Name and n.value in names}


class NoneOnCompiledPath(Rule):
    code = "CL142"
    name = "none-on-compiled-path"
    summary = "a value set only when not compiling (`if x is None and not is_compiling(): x = …`), then used"
    message = ("`{name}` is set only when not compiling: under torch.compile it stays "
               "None when the caller omits it, this use raises, and Dynamo gives up on the whole frame")
    severity = "error"
    gb_id = "GB0088"
    help = ("Build the default on both paths (drop the `not is_compiling()` test), or guard the use "
            "with `if {name} is not None`.")
    breaks_graph = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is None and not torch.compiler.is_compiling():
            mask = torch.ones_like(x)
        if mask is not None:  # the use is guarded
            x = x * mask
        return helper(x, mask)  # passed on: the callee decides
def helper(x, mask):
    return x if mask is None else x * mask
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is None:  # set on every path
            mask = torch.ones_like(x)
        return x * mask[:, None].squeeze(1)
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is None and not torch.compiler.is_compiling():
            mask = torch.ones_like(x)
        mask = torch.ones_like(x) if mask is None else mask
        return x * mask[0]
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is None and not torch.compiler.is_compiling():
            mask = torch.ones_like(x)
        return x * mask[:, None].squeeze(1)  # expect
""",
        """
import torch
from transformers.utils import is_torchdynamo_compiling
class M(torch.nn.Module):
    def forward(self, x, attention_mask=None):
        if attention_mask is None and not is_torchdynamo_compiling():
            attention_mask = torch.ones(x.shape[0], x.shape[1])
        if self.is_decoder:
            mask = self.causal(attention_mask)
        else:
            mask = attention_mask.float()  # expect
        return x * mask
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self.pending: list[set[str]] = [set()]  # per function: names left None when compiled
        self.guarded: list[set[str]] = []  # names an enclosing test looks at

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.pending.append(set())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.pending.pop()

    def visit_If(self, node: cst.If) -> None:
        self._guard(node.test)

    def leave_If(self, original_node: cst.If) -> None:
        self.guarded.pop()
        name = _none_test_name(original_node.test)
        if name and original_node.orelse is None and self.ctx.compiling_guard(original_node.test) is False \
                and _assigns(original_node.body, name):
            self.pending[-1].add(name)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._guard(node.test)

    def leave_IfExp(self, original_node: cst.IfExp) -> None:
        self.guarded.pop()

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._guard(node.left)

    def leave_BooleanOperation(self, original_node: cst.BooleanOperation) -> None:
        self.guarded.pop()

    def _guard(self, test: cst.BaseExpression) -> None:
        pending = self.pending[-1]
        self.guarded.append(_mentions(test, pending) if pending else set())

    def leave_Assign(self, original_node: cst.Assign) -> None:
        for target in original_node.targets:
            if isinstance(target.target, cst.Name):
                self.pending[-1].discard(target.target.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._use(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._use(node.value)

    def _use(self, value: cst.BaseExpression) -> None:
        if not isinstance(value, cst.Name):
            return
        pending = self.pending[-1]
        name = value.value
        if name in pending and not any(name in g for g in self.guarded):
            pending.discard(name)  # the first use is where Dynamo gives up
            self.report(value, self.message.format(name=name), help=self.help.format(name=name))
