"""Names a loop or a comprehension binds: rows of what it iterates (`for i, row in
enumerate(t)`, `for s, e in zip(starts, ends)`, `[f(h) for h in heights]`), `enumerate`'s
int index, `range()`'s ints, and the project class of `for layer in self.layers`."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.bindings import target_names
from compilelint.semantic.calls import ELEMENT
from compilelint.semantic.infer import infer
from compilelint.semantic.kinds import Kind
from compilelint.semantic.narrowing import class_check


class IterationBindings:
    """Walker part (after Bindings): what loop and comprehension targets hold."""

    def enter_For(self, node: cst.For) -> None:
        if not self.scopes:
            return
        scope = self.scopes[-1]
        iterable, target = walked(node, self.qualify)
        element = self.element_class(iterable)
        iter_kind = infer(node.iter, self)
        for name in target_names(node.target):
            scope.env[name] = iter_kind if iter_kind.tensorish else (
                Kind.VALUE if _is_range_call(node.iter, self) else Kind.UNKNOWN)
            scope.var_class.pop(name, None)
            scope.built.discard(name)
            scope.open.pop(name, None)
            scope.typed.pop(name, None)
        if target is not node.target and isinstance(node.target.elements[0].value, cst.Name):
            scope.env[node.target.elements[0].value.value] = Kind.VALUE  # enumerate's index: an int
        if target is not node.target and isinstance(target, cst.Name):
            # `for i, row in enumerate(t)`: rows of a tensor are tensors
            row = infer(iterable, self)
            if row.tensorish:
                scope.env[target.value] = row
        self._bind_zip(iterable, target)
        if isinstance(target, cst.Name) and scope.env.get(target.value) == Kind.UNKNOWN:
            self._set_open(target.value, iterable)  # iterating what the project types
        elif target is node.target and isinstance(target, (cst.Tuple, cst.List)) and not _is_zip(iterable, self):
            for name in target_names(target):  # `for l, h in model.heads.T`: a row unpacked
                if scope.env.get(name) == Kind.UNKNOWN:
                    self._set_open(name, iterable)
        if element is None and isinstance(target, cst.Name) and (held := _iterated_attr(iterable)):
            scope.typed[target.value] = ELEMENT + held  # for t in self.transforms: t.condition(c)
        if element and isinstance(target, cst.Name):  # for layer in self.layers: a Block
            scope.env[target.value] = Kind.MODULE
            scope.var_class[target.value] = element
            scope.open.pop(target.value, None)

    def enter_ListComp(self, node) -> None:
        self._bind_comprehension(node.for_in)  # the element is walked before its `for`

    enter_SetComp = enter_GeneratorExp = enter_DictComp = enter_ListComp

    def _bind_comprehension(self, node: cst.CompFor | None) -> None:
        while node is not None:
            self.enter_CompFor(node)
            node = node.inner_for_in

    def enter_CompFor(self, node: cst.CompFor) -> None:
        """`[l for l, drop in zip(layers, to_drop) if not drop]`: a comprehension's names hold
        rows of what they iterate, as a `for` statement's do (only names the function does
        not bind itself: the comprehension's own scope ends with it)."""
        if not self.scopes:
            return
        env = self.scopes[-1].env
        names = target_names(node.target)
        if isinstance(node.target, cst.Name) and self.element_class(node.iter) is None \
                and (held := _iterated_attr(node.iter)):
            self.scopes[-1].typed[node.target.value] = ELEMENT + held  # [t.condition(c) for t in self.ts]
        for test in node.ifs:  # `r.pop_term() for r in self.modules() if isinstance(r, Regularizer)`
            checked = class_check(test.test, self.qualify)
            if checked is not None and isinstance(node.target, cst.Name) and checked[0] == node.target.value \
                    and node.target.value not in self.scopes[-1].typed:
                self.scopes[-1].typed[checked[0]] = checked[1]
        made = self.scopes[-1].comprehended
        if any(name in env and (name not in made or env[name] != made[name]) for name in names):
            return  # (the function binds it: an earlier comprehension's binding is no longer there)
        if isinstance(node.target, cst.Name) or (
                isinstance(node.target, (cst.Tuple, cst.List)) and not _is_zip(node.iter, self)):
            row = infer(node.iter, self)
            # `[qk[l][h] for l, h in heads.indices().T]`: a row unpacked holds tensors too
            for name in names:
                if row.tensorish:
                    self._bind_row(name, row)
                else:  # rows of a parameter: what the project types it as (`all(t > 0 for t in ts)`)
                    self._open_row(name, node.iter)
        self._bind_zip(node.iter, node.target, comprehension=True)

    def _bind_row(self, name: str, kind: Kind, comprehension: bool = True) -> None:
        """`name` holds a row of a tensor (in a comprehension: until another comprehension binds it)."""
        scope = self.scopes[-1]
        scope.env[name] = kind
        scope.open.pop(name, None)
        if comprehension:
            scope.comprehended[name] = kind

    def _bind_zip(self, iterable: cst.BaseExpression, target: cst.BaseExpression, comprehension: bool = False) -> None:
        """`for s, e in zip(starts, ends)`: each name holds a row of its own argument, a
        tensor where that argument is one (in a comprehension, what the project types the
        argument as, when only it can tell)."""
        if not (_is_zip(iterable, self) and isinstance(target, (cst.Tuple, cst.List))
                and len(target.elements) == len(iterable.args)
                and all(a.keyword is None and not a.star for a in iterable.args)):
            return
        for element, arg in zip(target.elements, iterable.args):
            if isinstance(element.value, cst.Name):
                row = infer(arg.value, self)
                if row.tensorish:
                    self._bind_row(element.value.value, row, comprehension)
                elif comprehension:
                    self._open_row(element.value.value, arg.value)

    def _open_row(self, name: str, iterable: cst.BaseExpression) -> None:
        """A comprehension's name over what only the project types: open on the same leaves."""
        self._set_open(name, iterable)
        if name in self.scopes[-1].open:
            self.scopes[-1].env[name] = self.scopes[-1].comprehended[name] = Kind.UNKNOWN


def walked(node: cst.For | cst.CompFor, qualify) -> tuple[cst.BaseExpression, cst.BaseExpression]:
    """(what the loop, or a comprehension's `for`, walks, the target bound to each of its
    elements): `for i, row in enumerate(t)` walks `t` and binds `row`; any other loop, its own
    iterable and target."""
    return _walked(node.iter, node.target, qualify)


def _walked(iterable: cst.BaseExpression, target: cst.BaseExpression, qualify) -> tuple:
    if isinstance(iterable, cst.Call) and qualify(iterable.func) == "builtins.enumerate" \
            and iterable.args and isinstance(target, cst.Tuple) and len(target.elements) == 2:
        return iterable.args[0].value, target.elements[1].value
    return iterable, target


def element_names(target: cst.BaseExpression, iterable: cst.BaseExpression, qualify, holds) -> list[str]:
    """The names `for target in iterable` (or a comprehension's `for`) binds to elements of what
    `holds(node)` accepts: every name over such a value, the row of `enumerate(...)` over one,
    and the names in its places of a `zip(...)` (a single name over the zip: the tuple, which
    holds one). CL105's NumPy element lists, `semantic.entries`' loops over a parameter."""
    iterable, target = _walked(iterable, target, qualify)
    if holds(iterable):
        return target_names(target)
    if not (isinstance(iterable, cst.Call) and qualify(iterable.func) == "builtins.zip") \
            or any(a.keyword or a.star for a in iterable.args):
        return []
    places = [holds(a.value) for a in iterable.args]
    if isinstance(target, cst.Name):
        return [target.value] if any(places) else []
    if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(places):
        return [n for e, place in zip(target.elements, places) if place for n in target_names(e.value)]
    return []


def _iterated_attr(node: cst.BaseExpression) -> str | None:
    """`ts` of `self.ts`, `reversed(self.ts)` or a slice of it (`self.ts[::-1]`)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "reversed" \
            and len(node.args) == 1:
        node = node.args[0].value
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
        node = node.value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _is_zip(node: cst.BaseExpression, walker) -> bool:
    return isinstance(node, cst.Call) and walker.qualify(node.func) == "builtins.zip"


def _is_range_call(node: cst.BaseExpression, walker) -> bool:
    return isinstance(node, cst.Call) and walker.qualify(node.func) == "builtins.range"
