"""CL152 (the project phase of `rules/cl152_object_default_argument.py`): `Cls(...)` or
`super().__init__(...)` in the compiled region, where the `__init__` that runs (the class's
own or a base's, in any file) has a parameter whose default builds an object and the call
leaves it out. A call that spreads `**kwargs` it was given leaves it out only when no
compiled call of its own function passes that keyword either (followed a few levels, as
deepinv's physics constructors hand `**kwargs` up their bases); one that spreads anything
else may pass it, and is dropped. Before torch 2.13 Dynamo wraps every default of such a
constructor, passed or not (measured on 2.11): any call of it breaks.
"""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import OBJECT_DEFAULT
from compilelint.semantic.project import passed

DEPTH = 4  # how many `**kwargs` hand-offs are followed to the call that builds the object
EVERY_DEFAULT_BEFORE = (2, 13)  # older releases wrap each default, whether the call passes it or not


def run(context) -> list:
    index = context.index
    every = context.torch < EVERY_DEFAULT_BEFORE
    out = []
    for analysis, finding, key, call in context.candidates(OBJECT_DEFAULT):
        for callee in index.callees(key, call):
            info = index.functions.get(callee)
            if not callee.endswith(".__init__") or info is None or not info.objects:
                continue  # (a summary with `objects` keeps its `params`: semantic.bindings)
            left = info.objects[0] if every else next(
                (name for name in info.objects if _left_out(context, key, call, info, name, DEPTH)), None)
            if left is None:
                continue
            how = "this torch wraps every default of a traced constructor" if every else "this call leaves it out"
            named = callee.split(":", 1)[1]
            message = finding.message.replace("{callee}", named).replace("{param}", left).replace("{how}", how)
            out.append((analysis, replace(finding, needs=(), message=message)))
            break
    return out


def _left_out(context, caller: str, call, info, name: str, depth: int) -> bool:
    """Whether the call surely leaves `name` to its default."""
    if passed(call, info, name) is not None:
        return False
    keys = {key for key, _ in call.args}
    if "*" in keys and name in info.params:
        return False  # (`*args` may fill it by position)
    return _spread_leaves_out(context, caller, keys, name, depth)


def _spread_leaves_out(context, caller: str, keys: set, name: str, depth: int) -> bool:
    """A call that spreads `**kwargs` in a constructor leaves `name` out when every compiled
    call of that constructor does (by keyword, or spreading what leaves it out in turn)."""
    if "**" not in keys:
        return True
    if depth == 0 or caller in context.sites.compiled or not caller.endswith(".__init__"):
        return False  # (called from outside the project, or a spread of anything)
    sites = context.sites.callers.get(caller, ())
    return bool(sites) and all(
        name not in (up_keys := {key for key, _ in edge.args}) and _spread_leaves_out(context, up, up_keys, name, depth - 1)
        for up, edge in sites)
