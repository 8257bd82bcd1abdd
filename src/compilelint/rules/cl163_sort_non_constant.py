import libcst as cst

from compilelint.semantic.kinds import Kind
from compilelint.rules._callsite import target_version
from compilelint.rules.base import Rule

# a module's methods that give (name, parameter / buffer / submodule) pairs
NAMED = frozenset({"named_parameters", "named_buffers", "named_modules", "named_children"})
PAIRS_SORTED = (2, 14)  # from 2.14 Dynamo sorts (name, module) pairs by their names (measured on 2.14.1)


class SortNonConstant(Rule):
    code = "CL163"
    name = "sort-non-constant"
    summary = "`sorted()` of pairs that hold modules or tensors, with no `key`: Dynamo sorts only constants"
    message = ("`sorted()` of {what}: Dynamo sorts only constants (\"sort with non-constant keys\") and breaks the "
               "graph")
    severity = "error"
    gb_id = "GB0207"
    breaks_graph = True
    help = ("Sort what is constant and look the rest up: `for name in sorted(self.layers): layer = self.layers[name]`, "
            "or give a key that reads it, `sorted(pairs, key=lambda kv: kv[0])`.")

    VALID = [
        """
import torch
import torch.nn as nn
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"1": nn.Linear(2, 2), "0": nn.Linear(2, 2)})
        self.scales = {"b": 2, "a": 1}
    def forward(self, x, sizes):
        for name in sorted(self.layers):  # the names alone: constants
            x = self.layers[name](x)
        for _, layer in sorted(self.layers.items(), key=lambda kv: kv[0]):  # a key that gives constants
            x = layer(x)
        for _, n in sorted(self.scales.items()):  # a dict of numbers
            x = x * n
        order = sorted(zip(sizes, range(3)))  # what `sizes` holds is not known here
        return x + len(order)
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"1": nn.Linear(2, 2), "0": nn.Linear(2, 2)})
    def forward(self, x, lengths: torch.Tensor):
        for _, layer in sorted(self.layers.items()):  # expect
            x = layer(x)
        norm = [p.square().sum() for _, p in sorted(self.named_parameters())]  # expect
        order = sorted(zip(lengths, range(3)))  # expect
        return x + len(norm) + len(order)
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.function is None or len(node.args) != 1 or node.args[0].keyword is not None \
                or node.args[0].star or self.ctx.qualify(node.func) != "builtins.sorted":
            return
        found = self._pairs(node.args[0].value)
        if found is not None:
            self.report(node, self.message.format(what=found))

    def _pairs(self, value: cst.BaseExpression) -> str | None:
        """What the pairs hold, when each holds a module or a tensor: a module container's
        `.items()` or a module's `named_*()` before torch 2.14, a `zip` over a tensor (whose
        elements Python compares first) on every release."""
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if isinstance(func, cst.Attribute) and target_version(self.ctx) < PAIRS_SORTED:
            if func.attr.value == "items" and not value.args and self.ctx.kind(func.value) == Kind.MODULE:
                return "a module container's `.items()`, pairs that hold modules (Python would compare only the names)"
            if func.attr.value in NAMED:
                return f"`{func.attr.value}()`, pairs that hold modules or tensors (Python would compare only the names)"
        if self.ctx.qualify(func) == "builtins.zip" and any(
                arg.keyword is None and not arg.star and self.ctx.kind(arg.value).tensorish for arg in value.args):
            return "a `zip` over a tensor, tuples that hold its elements"
        return None
