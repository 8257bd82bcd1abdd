"""scikit-learn transformers in a compiled region (CL119).

`_SetOutputMixin.__init_subclass__` (a base of `TransformerMixin`) replaces each `transform`
and `fit_transform` a subclass defines with a wrapper written in
`sklearn/utils/_set_output.py`, unless the class statement passes `auto_wrap_output_keys=None`.
Dynamo skips scikit-learn (its third-party skip list), so calling a wrapped method breaks the
graph: GB0008 when Dynamo meets the wrapper, GB0007 for `super().transform(...)`. Measured on
2.13.0 and 2.14.1 (corpus `kn_sklearn_transformer_01`, twin `clean_kn_sklearn_transformer_01`).
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.imports import module_qualifier
from compilelint.semantic.kinds import dotted

MIXINS = frozenset({"sklearn.base.TransformerMixin", "sklearn.utils._set_output._SetOutputMixin"})
WRAPPED = frozenset({"transform", "fit_transform"})
WRAPPED_WHY = "scikit-learn wraps it in a function of its own and Dynamo skips scikit-learn (GB0008)"


def file_classes(module: cst.Module) -> dict[str, tuple[tuple[str, ...], frozenset[str], bool]]:
    """Each top-level class: its bases (qualified by the module's imports), the methods it
    defines, whether it opts out of the wrapping (`auto_wrap_output_keys=None`). Read from the
    whole module, not the walker's class table, which holds only the classes above the call."""
    qualify, found = module_qualifier(module), {}
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef):
            bases = tuple(qualify(a.value) or dotted(a.value) or "?" for a in stmt.bases)
            methods = frozenset(s.name.value for s in stmt.body.body if isinstance(s, cst.FunctionDef))
            opted_out = any(a.keyword is not None and a.keyword.value == "auto_wrap_output_keys"
                            and isinstance(a.value, cst.Name) and a.value.value == "None" for a in stmt.keywords)
            found[stmt.name.value] = (bases, methods, opted_out)
    return found


def wrapped_call(node: cst.Call, ctx, classes: dict) -> str | None:
    """What the call runs, when it is a wrapped `transform` / `fit_transform` (`super().transform(y)`
    or `self.transform(y)` in a transformer of this file, `self.norm.transform(y)` /
    `norm.transform(y)` on one this file builds), in words; None otherwise."""
    func = node.func
    scope = ctx.function
    if not (isinstance(func, cst.Attribute) and func.attr.value in WRAPPED) or scope is None or not classes:
        return None
    receiver, owner = func.value, (scope.class_name or "").split(".")[0]
    start: tuple[str, ...] = ()
    if isinstance(receiver, cst.Call) and dotted(receiver.func) == "super" and owner in classes:
        start = classes[owner][0]
    elif isinstance(receiver, cst.Name) and receiver.value == "self" and owner in classes:
        start = (owner,)
    else:
        held = None
        if isinstance(receiver, cst.Attribute) and dotted(receiver.value) == "self" and owner:
            info = ctx.class_table.get(owner)
            held = info.attr_classes.get(receiver.attr.value) if info is not None else None
        elif isinstance(receiver, cst.Name):
            held = scope.var_class.get(receiver.value)
        start = (held.rsplit(".", 1)[-1],) if held and held.rsplit(".", 1)[-1] in classes else ()
    cls = _resolves(start, func.attr.value, classes)
    return f"`{cls}.{func.attr.value}()`, a scikit-learn transformer's method," if cls else None


def _resolves(start: tuple[str, ...], method: str, classes: dict) -> str | None:
    """Along the file's classes from `start` (depth first, as a simple MRO): the class that
    defines `method` when it is a wrapped transformer's, or scikit-learn's own (inherited
    `fit_transform`) when a mixin is met first."""
    for ref in start:
        if ref in MIXINS:
            return "TransformerMixin" if method == "fit_transform" else None
        name = ref.rsplit(".", 1)[-1]
        if name not in classes:
            continue
        bases, methods, opted_out = classes[name]
        if method in methods:
            return name if not opted_out and _transformer(name, classes, set()) else None
        found = _resolves(bases, method, classes)
        if found is not None:
            return found
    return None


def _transformer(name: str, classes: dict, seen: set) -> bool:
    if name in seen or name not in classes:
        return False
    seen.add(name)
    return any(b in MIXINS or _transformer(b.rsplit(".", 1)[-1], classes, seen) for b in classes[name][0])
