"""What an argument tells the callee's tests about the parameter it binds (a part of
`semantic.calls`' argument specs): a number surely not None, or a literal flag."""

from __future__ import annotations

import libcst as cst

SIZE_METHODS = frozenset({"size", "numel", "dim", "ndimension", "nelement"})
SIZE_BUILTINS = frozenset({"len", "int", "min", "max"})


def argument_size(value: cst.BaseExpression) -> str | None:
    """"set" for a number that is surely not None: a literal, a size (`x.size(0)`,
    `x.shape[0]`, `len(xs)`) or arithmetic on one (`n + 1`): what decides a callee's
    `if num_nodes is None`."""
    if isinstance(value, cst.BinaryOperation):
        return "set" if argument_size(value.left) or argument_size(value.right) else None
    if isinstance(value, (cst.Integer, cst.Float)):
        return "set"
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in SIZE_METHODS:
            return "set"
        if isinstance(func, cst.Name) and func.value in SIZE_BUILTINS and value.args:
            return "set"
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) and value.value.attr.value == "shape":
        return "set"
    return None


def argument_constant(value: cst.BaseExpression) -> str | None:
    """"false" / "true" for a literal the callee's `if flag:` decides on (semantic.facts)."""
    if isinstance(value, cst.Name) and value.value in ("False", "True"):
        return value.value.lower()
    if isinstance(value, cst.Integer):
        return "false" if value.evaluated_value == 0 else "true"
    return None
