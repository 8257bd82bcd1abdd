"""Shared by CL103-CL106: which expressions hold a NumPy array made from a tensor.

Dynamo traces `.numpy()` and NumPy calls on the result as tensor operations (torch 2.1+),
so the array itself is fine; what breaks is turning it into Python data. CL105 owns those
conversions; CL103/CL104/CL106 skip them so one line gets one finding.

Purely syntactic and local to the enclosing function: an expression is an ndarray if it
calls `.numpy()`, calls `numpy.*` on an ndarray or a tensor, or reads a local name bound
to such an expression (flow-insensitive).
"""

from __future__ import annotations

import weakref

import libcst as cst

# ndarray attributes that are Python values (or shapes), not arrays.
VALUE_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides", "flags"})
# ndarray methods that leave NumPy for Python values: the conversion itself.
PYTHON_METHODS = frozenset({"item", "tolist", "tobytes", "__len__"})

_CACHE: "weakref.WeakKeyDictionary[object, dict[int, frozenset[str]]]" = weakref.WeakKeyDictionary()


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


def ndarray_names(ctx) -> frozenset[str]:
    """Local names of the current function bound to ndarrays made from tensors."""
    scope = ctx.function
    if scope is None or scope.node is None:
        return frozenset()
    per_walker = _CACHE.setdefault(ctx, {})
    key = id(scope.node)
    if key not in per_walker:
        per_walker[key] = frozenset()  # guards recursion while computing
        per_walker[key] = _scan(scope.node, ctx)
    return per_walker[key]


def _scan(func: cst.FunctionDef, ctx) -> frozenset[str]:
    assignments: list[tuple[list[str], cst.BaseExpression]] = []

    class Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            names = []
            for target in node.targets:
                names.extend(_names(target.target))
            assignments.append((names, node.value))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if node.value is not None:
                assignments.append((_names(node.target), node.value))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            assignments.append((_names(node.target), node.value))

    if not _mentions_numpy(func, ctx):
        return frozenset()
    func.visit(Finder())
    names: set[str] = set()
    for _ in range(3):  # a few rounds reach a fixpoint for realistic chains
        before = len(names)
        for targets, value in assignments:
            if is_ndarray(value, ctx, frozenset(names)):
                names.update(targets)
        if len(names) == before:
            break
    return frozenset(names)


def _mentions_numpy(func: cst.FunctionDef, ctx) -> bool:
    """Cheap pre-check: does the function mention NumPy at all (`.numpy()`, a name imported
    from numpy)? Spares the scan of every other function."""
    found = []
    aliases = {name for name, full in ctx.imports.items() if full == "numpy" or full.startswith("numpy.")}

    class Finder(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if node.attr.value == "numpy":
                found.append(True)
            return not found

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in aliases:
                found.append(True)

    func.visit(Finder())
    return bool(found)


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
