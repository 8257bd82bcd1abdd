"""Parameters a function's body shows are not tensors: it unpacks them as a mapping
(`f(**options)`, `{**options}`) or calls a string or dict method on them
(`name.startswith("efficientnet")`, `options.items()`). A parameter whose kind is only a
guess (a forward's first input, a package API's argument) is then a Python value."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import NON_TENSOR_METHODS
from compilelint.traverse import TRIVIA, iter_nodes


def non_tensor_params(func: cst.FunctionDef) -> frozenset[str]:
    """The parameters of `func` its body uses as a mapping or a string and never rebinds."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params,
                                     *func.params.kwonly_params)}
    used: set[str] = set()
    bound: set[str] = set()
    for node in iter_nodes(func.body, skip=TRIVIA):  # (whitespace and comments hold no use)
        if isinstance(node, (cst.Arg, cst.StarredDictElement)):
            star = node.star if isinstance(node, cst.Arg) else "**"
            if star == "**" and isinstance(node.value, cst.Name):
                used.add(node.value.value)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                and isinstance(node.func.value, cst.Name) and node.func.attr.value in NON_TENSOR_METHODS:
            used.add(node.func.value.value)
        elif isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Name):
            bound.add(node.target.value)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Name):
            bound.add(node.target.value)
        elif isinstance(node, (cst.For, cst.NamedExpr)) and isinstance(node.target, cst.Name):
            bound.add(node.target.value)
    return frozenset((used & params) - bound)
