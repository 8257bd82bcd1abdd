"""CL150 across functions (the project phase of `rules/cl150_break_in_loop.py`): a loop in
a compiled function that calls, directly or not, a function with a graph break. Dynamo
cannot resume inside the loop, so the whole calling frame runs eagerly: in a
decoder-layer loop, that is the whole model.

A break reaches a caller only through call sites that can run it: each function keeps
the conditions (`when`) under which one of its breaks is reached, as alternatives, and a
call site passes on those its arguments allow (`callsites.CallSites.through`: a break
behind `if profile:` does not reach a loop whose call leaves `profile` at `False`). A
break only reached once an exception was raised (`ON_ERROR`) reaches no loop.
"""

from __future__ import annotations

from compilelint.finding import ON_ERROR, common_when, loop_break

MAX_ALTERNATIVES = 8  # beyond this, a function's alternatives merge into what they share


def run(context) -> list:
    loop_rule = context.rules.get("CL150")
    index, region, sites = context.index, context.region, context.sites
    breaking_codes = {code for code, rule in context.rules.items() if rule.breaks_graph}
    breaks = {}  # a function -> its first break (named in the message)
    reach: dict[str, frozenset] = {}  # a function -> the conditions under which it breaks
    for analysis, finding in context.in_region:
        if finding.code in breaking_codes and finding.scope and ON_ERROR not in finding.when:
            key = f"{analysis.module}:{finding.scope}"
            breaks.setdefault(key, finding)
            reach[key] = _add(reach.get(key, frozenset()), tuple(finding.when))
    if not breaks:
        return []
    # A function breaks if it calls a function that breaks, outside a loop or not.
    queue = list(breaks)
    while queue:
        callee = queue.pop()
        for caller, call in sites.callers.get(callee, ()):
            grown = reach.get(caller, frozenset())
            for when in reach[callee]:
                through = sites.through(callee, call, when)
                # the call must run, then the callee's break
                if through is not None and not _through_override(index, caller, call, callee):
                    grown = _add(grown, _both(tuple(call.when), through))
            if grown != reach.get(caller, frozenset()):
                reach[caller] = grown  # only widens, to a bounded set: the queue empties
                breaks.setdefault(caller, breaks[callee])
                queue.append(caller)
    by_module = {a.module: a for a in context.analyses}
    have = {(a.path, f.line) for a, f in context.in_region if f.code == "CL150"}
    found: dict[tuple[str, int], list] = {}  # a loop -> [analysis, its CL150's arguments, when]
    for key in sorted(region):
        module, qualname = key.split(":", 1)
        for call in index.functions[key].calls:
            if call.loop is None:
                continue
            callee = index.resolve_call(key, call)
            if callee not in reach or callee == key:
                continue
            analysis = by_module.get(module)
            if analysis is None:
                continue
            position = loop_position(analysis, call.loop)
            if position is None or (analysis.path, position[0]) in have:
                continue
            reached = [sites.through(callee, call, when) for when in reach[callee]]
            reached = [_both(tuple(call.when), when) for when in reached if when is not None]
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
                f"calls `{callee.split(':', 1)[1]}`, which breaks the graph ({cause.code} at {cause.path}:{cause.line})",
                loop_rule, qualname), when]
    return [(analysis, loop_break(*args[:-1], scope=args[-1], when=when)) for analysis, args, when in found.values()]


def _through_override(index, caller: str, call, callee: str) -> bool:
    """Whether the edge reaches `callee` only as a subclass's override of `self.m()`, or as
    the module's own `__call__` around its forward. Their own findings are reported, but they
    make no loop a CL150. Which override runs is the instance's class, and whether the base
    calls it at all is mostly a type test on the inputs (`if is_sparse(adj):
    self.message_and_aggregate(...)`) the walk cannot decide: calibration (PyG's convolution
    loops) found such CL150s wrong on the inputs models run. A `__call__` wrapper's breaks
    sit behind opt-in modes (transformers' gradient-checkpointing warning): the same
    calibration found every loop over layers made a CL150 by it wrong."""
    dispatched = call.kind == "self" or (call.kind in ("instance", "selfattr") and callee.endswith(".__call__"))
    return dispatched and callee != index.resolve_call(caller, call)


def _add(alternatives: frozenset, when: tuple[str, ...]) -> frozenset:
    """`alternatives` and `when`, keeping only the weakest: a condition that includes
    another's labels adds nothing (whenever it holds, the other does)."""
    labels = set(when)
    if any(set(other) <= labels for other in alternatives):
        return alternatives
    kept = {other for other in alternatives if not labels <= set(other)}
    kept.add(when)
    if len(kept) > MAX_ALTERNATIVES:
        merged = when
        for other in kept:
            merged = common_when(merged, other)
        return frozenset({merged})
    return frozenset(kept)


def _both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """The modes a break behind a call needs: the call's and the callee break's."""
    return a + tuple(label for label in b if label not in a)


def loop_position(analysis, ordinal: int) -> tuple[int, int] | None:
    """(line, 1-based column) of the `ordinal`-th for/while loop of a file, in walk order
    (the summary has them whenever a function of the file calls something in a loop)."""
    loops = analysis.summary.loops
    return tuple(loops[ordinal]) if 0 <= ordinal < len(loops) else None
