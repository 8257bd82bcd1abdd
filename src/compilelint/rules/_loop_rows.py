"""The elements of a tensor a `for` loop walks, for CL107: `for idx in perm:` and `for i, n
in enumerate(lengths):` bind, per step, a tensor of one dimension less than what they walk (a
0-d one of a 1-d tensor), which as an index Dynamo reads as an int. The linter knows no ranks,
so only a name or attribute certainly holding a tensor counts, not one bound to a matrix of
indices (`.nonzero()`: its rows index, a gather), nor a loop whose body indexes into the element
(`expert_idx[0]`: it has a dimension), and the loop's name must be bound nowhere else.
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.facts import facts_of
from compilelint.semantic.iteration import walked
from compilelint.semantic.kinds import Kind
from compilelint.traverse import iter_nodes

ROW_MAKERS = frozenset({"nonzero", "argwhere"})  # a matrix of indices: a loop walks its rows


class LoopRows:
    """Enter and leave each `for` of the walk; `walked(name)`: the tensor the loop binding
    `name` walks, while inside that loop."""

    def __init__(self) -> None:
        self._rows: dict[str, tuple[str, cst.For]] = {}

    def enter(self, node: cst.For, ctx) -> None:
        iterable, target = walked(node, ctx.qualify)
        facts = facts_of(ctx.function)
        if isinstance(target, cst.Name) and facts is not None and isinstance(iterable, (cst.Name, cst.Attribute)) \
                and ctx.kind(iterable) == Kind.TENSOR and len(facts.binders(target.value)) == 1 \
                and not _matrix(iterable, ctx) and not _subscripted(node.body, target.value):
            self._rows[target.value] = (cst.Module([]).code_for_node(iterable), node)

    def leave(self, node: cst.For) -> None:
        for name in [name for name, (_, loop) in self._rows.items() if loop is node]:
            del self._rows[name]

    def walked(self, name: str) -> str | None:
        found = self._rows.get(name)
        return found[0] if found else None


def _matrix(iterable: cst.BaseExpression, ctx) -> bool:
    """A name bound to a matrix of indices (`(mask.sum(-1) > 0).nonzero()`, (k, 1): transformers'
    MoE `for expert_idx in expert_hit`)."""
    bound = ctx.local_flag(iterable.value) if isinstance(iterable, cst.Name) else None
    func = bound.func if isinstance(bound, cst.Call) else None
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return name in ROW_MAKERS


def _subscripted(body: cst.CSTNode, name: str) -> bool:
    """The loop body indexes into `name` (`expert_idx[0]`): an element that has a dimension."""
    return any(isinstance(n, cst.Subscript) and isinstance(n.value, cst.Name) and n.value.value == name
               for n in iter_nodes(body))
