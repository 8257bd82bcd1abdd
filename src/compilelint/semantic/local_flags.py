"""Local flags: `should_drop = self.training and self.quantize_dropout`, then `if should_drop:`.
A name a function binds exactly once (not a parameter) stands for the expression it was bound
to, so the guards can read the modes a branch on it needs."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.compile_values import nested_scope
from compilelint.traverse import iter_nodes


def local_flags(fn: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """Name -> the one value the function binds it to (nested functions and classes left
    out; a name bound twice, or any other way, is not a flag)."""
    params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    for star in (fn.params.star_arg, fn.params.star_kwarg):
        if isinstance(star, cst.Param):
            params.add(star.name.value)
    values: dict[str, cst.BaseExpression | None] = {}

    def bind(target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            values[name] = value if name not in values and name not in params else None
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                bind(element.value, None)
        elif isinstance(target, cst.StarredElement):
            bind(target.value, None)

    for node in iter_nodes(fn.body, prune=nested_scope):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                bind(target.target, node.value if len(node.targets) == 1 else None)
        elif isinstance(node, cst.AnnAssign):
            bind(node.target, node.value)
        elif isinstance(node, (cst.AugAssign, cst.For)):
            bind(node.target, None)
        elif isinstance(node, cst.NamedExpr):
            bind(node.target, None)
        elif isinstance(node, cst.AsName):
            bind(node.name, None)
    return {name: value for name, value in values.items() if value is not None}
