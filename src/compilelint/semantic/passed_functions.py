"""Functions handed to a call as values: `tree_map(coeffs, partial(_undo_swap_axes, axes=axes))`,
`map(flip, xs)`, `checkpoint(self._block, x)`. The callee calls them, so they run in the region
with it: Dynamo inlines a function it is handed, and a break inside breaks the caller's graph
(measured on 2.13.0 and 2.14.1; ptwt's coefficient maps). The walk records one call edge per
function passed, its arguments unknown (the callee chooses them): a module-level function by
name, a local bound to one or to a `partial` of one, and `self.m` only where the class's own body
defines `m` as a method (`self.device` handed on is a property's value, not a function)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.compiled import DISABLE_NAMES

# methods that keep what they are given for later rather than call it (`hooks.append(fn)`,
# `x.register_hook(fn)`: a backward hook runs outside the forward graph)
KEEPS = frozenset({"append", "extend", "insert", "add", "setdefault", "update", "put", "connect", "submit"})
UNKNOWN_ARGS = (("*", "unknown"), ("**", "unknown"))
# handed to these, a function runs eagerly (`torch.compiler.disable(f)`), scripted, or not at all
NOT_CALLED = tuple(sorted(DISABLE_NAMES)) + ("torch.jit.", "atexit.", "threading.", "weakref.")


def partial_target(value: cst.BaseExpression, qualify, keywords_only: bool = False) -> cst.BaseExpression | None:
    """`f` of `functools.partial(f, ...)`; with `keywords_only`, only when the partial binds
    nothing but keywords (a call of it then passes its positional arguments on unshifted)."""
    if not (isinstance(value, cst.Call) and qualify(value.func) == "functools.partial" and value.args
            and not value.args[0].keyword and not value.args[0].star):
        return None
    if keywords_only and any(arg.keyword is None for arg in value.args[1:]):
        return None
    return value.args[0].value


def keeps_for_later(node: cst.Call) -> bool:
    func = node.func
    return isinstance(func, cst.Attribute) and (func.attr.value in KEEPS or func.attr.value.startswith("register"))


def passed_values(node: cst.Call):
    """The argument values of a call that may be functions (not `*args`, not literals)."""
    for arg in node.args:
        if not arg.star and isinstance(arg.value, (cst.Name, cst.Attribute)):
            yield arg.value


def function_like(name: str) -> bool:
    """A name spelled as a function (`_undo_swap_axes`, `flip`), not a class or a constant."""
    stripped = name.lstrip("_")
    return bool(stripped) and stripped[:1].islower()
