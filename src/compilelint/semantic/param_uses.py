"""What a function does with its parameters. Those its body shows are not tensors: it unpacks
them as a mapping (`f(**options)`, `{**options}`) or calls a string or dict method on them
(`name.startswith("efficientnet")`, `options.items()`); a parameter whose kind is only a
guess (a forward's first input, a package API's argument) is then a Python value. A
constructor parameter a container holds (`nn.ModuleList(flows)`), and whether a method
takes arguments without defaults."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import NON_TENSOR_METHODS, dotted
from compilelint.traverse import scan

CONTAINERS = frozenset({"ModuleList", "Sequential", "ModuleDict"})


def non_tensor_params(func: cst.FunctionDef) -> frozenset[str]:
    """The parameters of `func` its body uses as a mapping or a string and never rebinds."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params,
                                     *func.params.kwonly_params)}
    used: set[str] = set()
    bound: set[str] = set()
    for node in scan(func.body):  # (whitespace and comments hold no use)
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


def given_items(value: cst.BaseExpression, params: set[str]) -> bool:
    """`nn.ModuleList(flows)`, `list(flows)`, `[wrap(t) for t in flows]` with `flows` an
    untyped constructor parameter: a container of what the caller passed."""
    if isinstance(value, (cst.ListComp, cst.GeneratorExp)):
        value = value.for_in.iter
    elif isinstance(value, cst.Call) and len(value.args) == 1 \
            and (dotted(value.func) or "").rsplit(".", 1)[-1] in CONTAINERS | {"list", "tuple"}:
        value = value.args[0].value
    else:
        return False
    return isinstance(value, cst.Name) and value.value in params


def requires_arguments(func: cst.FunctionDef) -> bool:
    """A method whose parameters past `self` include one without a default (not `*args`)."""
    params = func.params
    return any(p.default is None for p in (*params.posonly_params, *params.params)[1:]) \
        or any(p.default is None for p in params.kwonly_params)
