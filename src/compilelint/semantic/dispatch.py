"""Which of the instance's methods an attribute assignment stores (`self.f = self.m`): a
call through the attribute runs one of them (a part of `semantic.classes`)."""

from __future__ import annotations

import libcst as cst


def bound_methods(value: cst.BaseExpression) -> tuple[str, ...]:
    """The method names of `self.m`, of each branch of `self.a if c else self.b`, and of each
    entry of a dispatch table: `{k: self.a}.get(key, self.b)`, `{k: self.a}[key]` and
    `getattr(obj, "name", self.b)` (the object's own, outside the class, or the default)."""
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        return (value.attr.value,)
    options = _dispatch_options(value)
    names = [bound_methods(option) for option in options]
    if not options or not all(names):
        return ()
    return tuple(dict.fromkeys(name for found in names for name in found))


def _dispatch_options(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(value, cst.IfExp):
        return [value.body, value.orelse]
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Dict):
        return [e.value for e in value.value.elements if isinstance(e, cst.DictElement)]
    if not isinstance(value, cst.Call):
        return []
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Dict):
        table = [e.value for e in func.value.elements if isinstance(e, cst.DictElement)]
        return table + [arg.value for arg in value.args[1:2]] if table else []
    if isinstance(func, cst.Name) and func.value == "getattr" and len(value.args) == 3:
        return [value.args[2].value]
    return []
