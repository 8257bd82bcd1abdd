import libcst as cst

from compilelint.rules._attribute_writes import AttributeWrites
from compilelint.rules.base import Rule


class FunctionAttributeSet(AttributeWrites, Rule):
    augmented = True  # `f.calls += 1`
    code = "CL158"
    name = "function-attribute-set"
    summary = "`fn.cache = ...` / `setattr(fn, ...)` on a function of the module, in a region"
    message = ("`{target}` sets an attribute on the function `{function}`: Dynamo cannot set attributes on a "
               "function object and breaks the graph (GB0467)")
    severity = "error"
    gb_id = "GB0467"
    torch_max = (2, 14)  # 2.14 records the write (measured on 2.14.1)
    help = ("Cache at module level (`_TRANSITION = None`, then `global`), with `functools.lru_cache` on a helper "
            "that builds the value, or compute it once outside the compiled code.")
    breaks_graph = True

    VALID = [
        """
import functools
import torch
_WEIGHTS = {}
def helper(x):
    return x * 2
helper.scale = 2.0  # module level: not compiled
class Box:
    pass
@functools.lru_cache(maxsize=None)
def weights(n):
    return torch.ones(n)
@torch.compile
def f(x):
    box = Box()
    box.tag = "ok"  # a user object: Dynamo records the setattr
    _WEIGHTS["w"] = weights(3)
    helper = torch.relu  # rebound: no longer the function
    helper.tag = 1
    return helper(x) * _WEIGHTS["w"]
""",
    ]
    INVALID = [
        """
import numpy as np
import torch
def viterbi(logits):
    if not hasattr(viterbi, "transition"):
        viterbi.transition = np.ones((4, 4)) / 4  # expect
    return logits.softmax(-1)
def weighted(x):
    setattr(weighted, "calls", getattr(weighted, "calls", 0) + 1)  # expect
    return x
@torch.compile
def f(x):
    return viterbi(x) + weighted(x)
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._functions: frozenset[str] = frozenset()

    def visit_Module(self, node: cst.Module) -> None:
        """The module's functions: names a top-level `def` binds and nothing else at top level rebinds."""
        defs = {stmt.name.value for stmt in node.body if isinstance(stmt, cst.FunctionDef)}
        rebound = {t.target.value for stmt in node.body if isinstance(stmt, cst.SimpleStatementLine)
                   for small in stmt.body if isinstance(small, cst.Assign)
                   for t in small.targets if isinstance(t.target, cst.Name)}
        self._functions = frozenset(defs - rebound)

    def _written(self, node: cst.CSTNode, owner: cst.BaseExpression, shown: str) -> None:
        if isinstance(owner, cst.Name) and owner.value in self._functions and not self.ctx.locally_bound(owner.value):
            self.report(node, self.message.format(target=shown, function=owner.value))
