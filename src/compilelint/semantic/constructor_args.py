"""What a constructor sets on `self` through another function it hands arguments to (a part of
`semantic.classes`): a setter of its own class (`self.set_processor(processor)`, which does
`self.processor = processor`) or a base's constructor of the same file (`super().__init__(f, kernel)`
or `LimeBase.__init__(self, f, kernel)`, whose `__init__` does `self.similarity_func =
similarity_func`: captum's `Lime`). Each gives (attr, argument) pairs, read in the constructor as if
it assigned the argument itself."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from compilelint.semantic.compile_values import nested_scope
from compilelint.traverse import iter_nodes


def set_through(methods: dict[str, cst.FunctionDef], self_calls: list, scanned: Callable) -> list:
    """(attr, argument) for `self.<setter>(...)` calls (`self_calls`: (name, call)) of the
    class's own `methods`; `scanned(method)[0]`: what a method assigns on `self`."""
    found = []
    for name, call in self_calls:
        setter = methods.get(name)
        if setter is not None:
            found += _assigned(setter, [a for a in call.args if not a.star], scanned)
    return found


def set_by_base(bases: list[str], init: cst.FunctionDef, inits: dict[str, cst.FunctionDef],
                scanned: Callable) -> list:
    """(attr, argument) for what a base of this file (`bases`, as `inits` keys their `__init__`)
    stores from the arguments `init` hands its constructor."""
    bases = [b for b in bases if b in inits]
    if not bases:
        return []
    found = []
    for call in iter_nodes(init.body, prune=nested_scope):
        func = call.func if isinstance(call, cst.Call) else None
        if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__") or any(a.star for a in call.args):
            continue
        args = list(call.args)
        if isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name) \
                and func.value.func.value == "super":
            base = bases[0]
        elif isinstance(func.value, cst.Name) and func.value.value in bases and args \
                and isinstance(args[0].value, cst.Name) and args[0].value.value == "self":
            base, args = func.value.value, args[1:]  # `LimeBase.__init__(self, ...)`
        else:
            continue
        found += _assigned(inits[base], args, scanned)
    return found


def passes(call: cst.Call, name: str) -> bool:
    """The call hands `name` on (`x = as_tensor(x)`: a conversion, not a new object)."""
    return any(isinstance(a.value, cst.Name) and a.value.value == name for a in call.args)


def _assigned(method: cst.FunctionDef, args: list, scanned: Callable) -> list:
    """(attr, argument) for each `self.attr = <parameter>` of `method` called with `args`."""
    params = [p.name.value for p in (*method.params.posonly_params, *method.params.params)][1:]
    given = {params[i]: a.value for i, a in enumerate(a for a in args if a.keyword is None) if i < len(params)}
    given.update({a.keyword.value: a.value for a in args if a.keyword is not None})
    return [(attr, given[value.value]) for attr, value in scanned(method)[0]
            if isinstance(value, cst.Name) and value.value in given]
