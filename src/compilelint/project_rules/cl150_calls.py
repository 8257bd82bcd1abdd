"""CL150 across functions (the project phase of `rules/cl150_break_in_loop.py`): a loop in
a compiled function that calls, directly or not, a function with a graph break. Dynamo
cannot resume inside the loop, so the whole calling frame runs eagerly: in a
decoder-layer loop, that is the whole model.

Which functions break, and under which conditions, is `breaking.breaking_reach`'s (shared
with CL151).
"""

from __future__ import annotations

from compilelint.finding import call_cause, common_when, loop_break, on_class, on_self
from compilelint.project_rules.breaking import both, breaking_reach, through_override


def run(context) -> list:
    loop_rule = context.rules.get("CL150")
    index, region, sites = context.index, context.region, context.sites
    breaks, reach = breaking_reach(context)
    if not breaks:
        return []
    by_module = {a.module: a for a in context.analyses}
    have = {(a.path, f.line) for a, f in context.in_region if f.code == "CL150"}
    found: dict[tuple[str, int], list] = {}  # a loop -> [analysis, its CL150's arguments, when]
    for key in sorted(region):
        module, qualname = key.split(":", 1)
        for call in index.functions[key].calls:
            if call.loop is None:
                continue
            # an edge may run one of several (`getattr(self, f"{kind}_loss")`, `fn = a if c else b`);
            # a module's own `__call__` around its forward is left to its class (as before)
            callees = (index.resolve_call(key, call),) if call.kind in ("instance", "selfattr") \
                else index.callees(key, call)
            callee = next((c for c in callees if c in reach and c != key), None)
            if callee is None:
                continue
            analysis = by_module.get(module)
            if analysis is None:
                continue
            position = loop_position(analysis, call.loop)
            if position is None or (analysis.path, position[0]) in have:
                continue
            reached = [sites.through(callee, call, when, key) for when in reach[callee]]
            reached = [both(tuple(call.when), when) for when in reached if when is not None]
            if callee == index.function_backward(index.resolve_call(key, call)):
                reached = [both(when, ("training",)) for when in reached]  # (traced only when gradients flow)
            if through_override(index, key, call, callee) and (owner := index.owner(callee)):
                # a subclass's override of `self.m()`: its `self.` tests are on that class's instances
                reached = [tuple(on_class(label, owner) if on_self(label) else label for label in when)
                           for when in reached]
            if not reached:
                continue  # this call passes nothing that reaches the callee's breaks
            when = reached[0]
            for other in reached[1:]:
                when = common_when(when, other)
            when = sites.resolve(key, when)  # the loop's own `given:` labels, over its callers
            if when is None:
                continue
            held = found.get((analysis.path, position[0]))
            if held is not None:  # another breaking call in the same loop
                held[2] = common_when(held[2], when)
                continue
            cause = breaks[callee]
            found[(analysis.path, position[0])] = [analysis, (
                analysis.path, position[0], position[1], call.loop_keyword,
                call_cause(callee.split(":", 1)[1], cause.code, cause.path, cause.line),
                loop_rule, qualname), when]
    return [(analysis, loop_break(*args[:-1], scope=args[-1], when=when)) for analysis, args, when in found.values()]


def loop_position(analysis, ordinal: int) -> tuple[int, int] | None:
    """(line, 1-based column) of the `ordinal`-th for/while loop of a file, in walk order
    (the summary has them whenever a function of the file calls something in a loop)."""
    loops = analysis.summary.loops
    return tuple(loops[ordinal]) if 0 <= ordinal < len(loops) else None
