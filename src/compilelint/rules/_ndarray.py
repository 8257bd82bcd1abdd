"""Shared by CL103-CL106: which expressions hold a NumPy array made from a tensor.

Dynamo traces `.numpy()` and NumPy calls on the result as tensor operations (torch 2.1+),
so the array itself is fine; what breaks is turning it into Python data. CL105 owns those
conversions; CL103/CL104/CL106 skip them so one line gets one finding.

Purely syntactic and local to the enclosing function: an expression is an ndarray if it
calls `.numpy()`, calls `numpy.*` on an ndarray or a tensor, or reads a local name bound
earlier (in source order) to such an expression.
"""

from __future__ import annotations

import weakref

import libcst as cst

# ndarray attributes that are Python values (or shapes), not arrays.
VALUE_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides", "flags"})
# ndarray methods that leave NumPy for Python values: the conversion itself.
PYTHON_METHODS = frozenset({"item", "tolist", "tobytes", "__len__"})

# walker -> {id(function node): names, 0: ids of assignments already seen}
_CACHE: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()


def is_numpy_call(node: cst.BaseExpression) -> bool:
    """`x.numpy()`, `x.cpu().numpy(force=True)`."""
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "numpy" and all(a.keyword is not None for a in node.args))


def is_ndarray(node: cst.BaseExpression, ctx, names: frozenset[str] | None = None) -> bool:
    if names is None:
        names = ndarray_names(ctx)
    if isinstance(node, cst.Name):
        return node.value in names
    if isinstance(node, cst.Call):
        if is_numpy_call(node):
            return True
        func = node.func
        qualified = ctx.qualify(func) or ""
        if qualified.startswith("numpy."):
            return any(is_ndarray(a.value, ctx, names) or ctx.kind(a.value).tensorish for a in node.args)
        if isinstance(func, cst.Attribute):
            if func.attr.value in PYTHON_METHODS:
                return False
            return is_ndarray(func.value, ctx, names)
        return False
    if isinstance(node, cst.Attribute):
        if node.attr.value in VALUE_ATTRS:
            return False
        return is_ndarray(node.value, ctx, names)
    if isinstance(node, cst.Subscript):
        return is_ndarray(node.value, ctx, names)
    if isinstance(node, cst.BinaryOperation):
        return is_ndarray(node.left, ctx, names) or is_ndarray(node.right, ctx, names)
    if isinstance(node, cst.UnaryOperation):
        return not isinstance(node.operator, cst.Not) and is_ndarray(node.expression, ctx, names)
    if isinstance(node, cst.Comparison):
        if all(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
            return False
        return is_ndarray(node.left, ctx, names) or any(is_ndarray(c.comparator, ctx, names) for c in node.comparisons)
    if isinstance(node, cst.BooleanOperation):
        return is_ndarray(node.left, ctx, names) or is_ndarray(node.right, ctx, names)
    return False


def ndarray_names(ctx) -> frozenset[str] | set[str]:
    """Local names of the current function bound (so far, in source order) to ndarrays made
    from tensors."""
    scope = ctx.function
    if scope is None or scope.node is None:
        return frozenset()
    state = _CACHE.get(ctx)
    if state is None:
        return frozenset()
    return state.get(id(scope.node), frozenset())


def record(ctx, node: cst.CSTNode) -> None:
    """Called on every Assign/AnnAssign/AugAssign (by each rule that uses the names; the
    first call does the work)."""
    scope = ctx.function
    if scope is None or scope.node is None:
        return
    state = _CACHE.setdefault(ctx, {})
    done = state.setdefault(0, set())
    if id(node) in done:
        return
    done.add(id(node))
    value = getattr(node, "value", None)
    if value is None:
        return
    names = state.get(id(scope.node), frozenset())
    if not is_ndarray(value, ctx, names):
        return
    if isinstance(node, cst.Assign):
        targets = [n for t in node.targets for n in _names(t.target)]
    else:
        targets = _names(node.target)
    if targets:
        state[id(scope.node)] = frozenset(names) | frozenset(targets)


class TracksNdarrays:
    """Mixin for rules that ask `is_ndarray`: keeps the per-function names up to date."""

    def visit_Assign(self, node: cst.Assign) -> None:
        record(self.ctx, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        record(self.ctx, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        record(self.ctx, node)


def _names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out = []
        for element in target.elements:
            out.extend(_names(element.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _names(target.value)
    return []
