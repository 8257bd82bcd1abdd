"""Values a compile-aware library fixes under torch.compile, read from its own helpers:

    def _can_stop_early(x) -> bool:          # False under compile: its first reachable
        if torch.jit.is_scripting():          # return is behind `is_compiling()`
            return False
        if is_compiling() or x.requires_grad:
            return False
        ...
    checks = rounds(n) if _can_stop_early(x) else ()   # () under compile
    for i in range(n):
        if i in checks and not bool(mask.any()):        # never tested compiled
            break

A helper's *compile constant* is the literal its first reachable `return` gives under
compile, found by walking its top-level statements with the compiling guards folded; a
name's value is *empty under compile* when its only binding is `()` / `frozenset()` or an
`if`-expression whose compiled side is one. Same-file helpers only: the walk never imports.
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.traverse import iter_nodes

Guard = Callable[[cst.BaseExpression], "bool | None"]
_LITERALS = {"True": True, "False": False}


def compile_constant(fn: cst.FunctionDef, guard: Guard) -> bool | None:
    """True / False: what every call of `fn` returns under compile; None: not known."""
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    return _first_return(body, guard)


def _first_return(statements, guard: Guard) -> bool | None:
    for statement in statements:
        if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in statement.body:
                if isinstance(small, cst.Return):
                    value = small.value
                    if isinstance(value, cst.Name) and value.value in _LITERALS:
                        return _LITERALS[value.value]
                    # `return torch._C._is_tracing()`, `return torch.compiler.is_compiling()`
                    return guard(value) if value is not None else None
                if isinstance(small, cst.Raise):
                    return None
            continue
        if isinstance(statement, cst.If):
            held = guard(statement.test)
            if held is True:
                return _first_return([statement.body] if isinstance(statement.body, cst.SimpleStatementSuite)
                                     else statement.body.body, guard)
            if held is False:
                if statement.orelse is not None:
                    return None
                continue
            if _returns(statement):
                return None
            continue
        if _returns(statement):
            return None
    return None


def _returns(node: cst.CSTNode) -> bool:
    """Whether a compound statement holds a `return` or `raise` of its own (not in a nested def)."""
    return any(type(n) in (cst.Return, cst.Raise) for n in iter_nodes(node, prune=nested_scope))


def nested_scope(node: cst.CSTNode) -> bool:
    """A function, lambda or class inside the node being scanned: its returns are its own."""
    return type(node) in (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def empty_names(fn: cst.FunctionDef, guard: Guard) -> frozenset[str]:
    """Names `fn` binds once, to a value that is an empty tuple or frozenset under compile."""
    collector = _Bindings()
    fn.body.visit(collector)
    return frozenset(name for name, values in collector.values.items()
                     if len(values) == 1 and values[0] is not None and _empty(values[0], guard))


def _empty(value: cst.BaseExpression, guard: Guard) -> bool:
    if isinstance(value, cst.IfExp):
        held = guard(value.test)
        if held is None:
            return False
        return _empty(value.body if held else value.orelse, guard)
    if isinstance(value, cst.Tuple):
        return not value.elements
    return isinstance(value, cst.Call) and not value.args and dotted(value.func) == "frozenset"


class _Bindings(cst.CSTVisitor):
    """Every binding of each name in a function body: the value for `name = value`, None for
    any other (augmented assignment, loop or `with` target, a nested scope's own names)."""

    def __init__(self) -> None:
        self.values: dict[str, list[cst.BaseExpression | None]] = {}

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            self.values.setdefault(target.value, []).append(value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, None)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value if len(node.targets) == 1 else None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._bind(node.name, None)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._bind(node.name, None)
        return False

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self._bind(item.name, None)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self._bind(item.name, None)


def membership_in_empty(test: cst.BaseExpression, empties: frozenset[str]) -> bool | None:
    """`x in checks` with `checks` empty under compile: False (`not in`: True); else None."""
    if not (empties and isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    comparison = test.comparisons[0]
    if not (isinstance(comparison.comparator, cst.Name) and comparison.comparator.value in empties):
        return None
    if isinstance(comparison.operator, cst.In):
        return False
    if isinstance(comparison.operator, cst.NotIn):
        return True
    return None
