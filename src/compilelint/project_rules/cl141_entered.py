"""CL141 (the project phase of `rules/cl141_unsupported_generator_or_context.py`): `with
self.scope:` or `with SCOPE:` in the compiled region, where the object was built before the
region from a class another file defines. Dynamo enters a user context manager only where
the `with` builds it; whether the class is one (it or a project base defines `__enter__`)
only the project's class table says, so a candidate whose class is anything else is dropped.
"""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import ENTERS


def run(context) -> list:
    index = context.index
    out = []
    for analysis, finding in context.deferred:
        if not finding.needs[0].startswith(ENTERS):
            continue
        class_key = index.resolve_class(analysis.module, finding.needs[0][len(ENTERS):])
        if class_key is not None and index.method(class_key, "__enter__"):
            out.append((analysis, replace(finding, needs=())))
    return out
