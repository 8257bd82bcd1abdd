"""Local flags: `should_drop = self.training and self.quantize_dropout`, then `if should_drop:`.
A name a function binds exactly once (not a parameter) stands for the expression it was bound
to, so the guards can read the modes a branch on it needs."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.compile_values import nested_scope
from compilelint.traverse import scan


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

    for node in scan(fn.body, prune=nested_scope):
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


def may_be_none(value: cst.BaseExpression) -> bool:
    """An expression that may evaluate to None: `None`, `a if c else None`, `d.get("k")`,
    `getattr(o, "a", None)` (what a call site may pass for a `None`-defaulted argument)."""
    if isinstance(value, cst.Name):
        return value.value == "None"
    if isinstance(value, cst.IfExp):
        return may_be_none(value.body) or may_be_none(value.orelse)
    if isinstance(value, cst.BooleanOperation):
        return may_be_none(value.right)
    if isinstance(value, cst.Call) and not any(arg.star for arg in value.args):
        func, args = value.func, value.args
        if isinstance(func, cst.Attribute) and func.attr.value == "get":
            return len(args) < 2 or may_be_none(args[1].value)
        if isinstance(func, cst.Name) and func.value == "getattr" and len(args) == 3:
            return may_be_none(args[2].value)
    return False


def optional_locals(fn: cst.FunctionDef) -> frozenset[str]:
    """The names the function binds, somewhere, to a value that may be None (nested
    functions and classes left out)."""
    names = set()
    for node in scan(fn.body, prune=nested_scope):
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None and may_be_none(node.value):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            names.update(t.value for t in targets if isinstance(t, cst.Name))
    return frozenset(names)


def self_stores(fn: cst.FunctionDef) -> frozenset[str]:
    """The attributes `X` the function assigns as `self.X` (a value it computes, not one it was handed)."""
    return frozenset(target.attr.value for node in scan(fn.body)
                     if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign))
                     for target in ([t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target])
                     if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                     and target.value.value == "self")
