"""Which compiled functions break the graph, directly or through what they call, and under
which conditions: what CL150 (a loop calling one) and CL151 (a method of an object built in
the region) are decided on.

A break reaches a caller only through call sites that can run it: each function keeps
the conditions (`when`) under which one of its breaks is reached, as alternatives, and a
call site passes on those its arguments allow (`callsites.CallSites.through`: a break
behind `if profile:` does not reach a loop whose call leaves `profile` at `False`). A
break only reached once an exception was raised (`ON_ERROR`), or through a call made then,
reaches no caller.
"""

from __future__ import annotations

from compilelint.finding import ON_ERROR, common_when

MAX_ALTERNATIVES = 8  # beyond this, a function's alternatives merge into what they share


def breaking_reach(context) -> tuple[dict, dict[str, frozenset]]:
    """(function -> its first break, the finding named in messages; function -> the
    alternative conditions under which it breaks), over the findings kept so far; worked
    out once per check (`context.reach`)."""
    if context.reach is None:
        context.reach = _reach(context)
    return context.reach


def _reach(context) -> tuple[dict, dict[str, frozenset]]:
    index, sites = context.index, context.sites
    breaking_codes = {code for code, rule in context.rules.items() if rule.breaks_graph and rule.breaks_callers}
    breaks = {}
    reach: dict[str, frozenset] = {}
    for analysis, finding in context.in_region:
        if finding.code in breaking_codes and finding.scope and ON_ERROR not in finding.when:
            key = f"{analysis.module}:{finding.scope}"
            breaks.setdefault(key, finding)
            when = tuple(finding.when) + sites.settled.get(id(finding), ())  # each call site decides these
            reach[key] = _add(reach.get(key, frozenset()), when)
    # A function breaks if it calls a function that breaks, outside a loop or not. In a fixed
    # order (by name), so that the break a caller's message names is the same on every run.
    queue = sorted(breaks, reverse=True)
    while queue:
        callee = queue.pop()
        for caller, call in sorted(sites.callers.get(callee, ()), key=lambda site: site[0]):
            if ON_ERROR in call.when:
                continue  # (a call made once an exception was raised: off the normal path too)
            grown = reach.get(caller, frozenset())
            for when in reach[callee]:
                through = sites.through(callee, call, when, caller)
                # the call must run, then the callee's break
                if through is not None and not through_override(index, caller, call, callee):
                    grown = _add(grown, both(tuple(call.when), through))
            if grown != reach.get(caller, frozenset()):
                reach[caller] = grown  # only widens, to a bounded set: the queue empties
                breaks.setdefault(caller, breaks[callee])
                queue.append(caller)
    return breaks, reach


def through_override(index, caller: str, call, callee: str) -> bool:
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


def both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """The modes a break behind a call needs: the call's and the callee break's."""
    return a + tuple(label for label in b if label not in a)
