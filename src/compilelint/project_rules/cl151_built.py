"""CL151 (the project phase of `rules/cl151_break_in_built_object.py`): `obj.method(...)` on
an object built in the compiled function, where the method breaks the graph, directly or
through what it calls. Dynamo must rebuild the call's receiver to resume after the break;
an object it made while tracing has no source to rebuild it from, so it breaks again at the
calling line (GB0092) and runs the rest of the calling function eagerly.
"""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import BREAKS, common_when, when_text
from compilelint.project_rules.breaking import both, breaking_reach


def run(context) -> list:
    own = context.candidates(BREAKS)
    if not own:
        return []
    index, sites = context.index, context.sites
    breaks, reach = breaking_reach(context)
    out = []
    for analysis, finding, key, call in own:
        breaking = [c for c in index.callees(key, call) if c in reach and c != key]
        if not breaking:
            continue
        callee = breaking[0]  # (a registry's object: the first of its classes whose method breaks)
        if key in context.region:
            reached = [sites.through(callee, call, when, key) for when in reach[callee]]
            reached = [both(tuple(call.when), when) for when in reached if when is not None]
            if not reached:
                continue
            when = reached[0]
            for other in reached[1:]:
                when = common_when(when, other)
            when = sites.resolve(key, when)
            if when is None:
                continue
        else:  # a note outside the region (the package's API, a dispatcher's fallback): its own condition
            when = finding.when
        cause = breaks[callee]
        message = finding.message.removesuffix(when_text(finding.when))
        named = callee.split(":", 1)[1]
        because = f"{cause.code} at {cause.path}:{cause.line}"
        if len(breaking) > 1:  # SOLVERS[method](...).integrate(t): any of several classes
            others = len(breaking) - 1
            because += f"; so does `{named.rsplit('.', 1)[-1]}` of {others} other class{'es' if others > 1 else ''}"
        message = message.replace("{callee}", named).replace("{cause}", because)
        out.append((analysis, replace(finding, needs=(), when=when, message=message + when_text(when))))
    return out
