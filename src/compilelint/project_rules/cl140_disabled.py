"""CL140 (the project phase of `rules/cl140_explicit_graph_break.py`): a call from a compiled
region of a function another file of the project puts under `torch.compiler.disable` (torchdr's
affinities call `binary_search`, disabled in `utils/root_search.py`). Dynamo ends the graph before
the call (GB0098). The per-file rule sees the call and the import; the index knows how each function
is kept from Dynamo (`FunctionSummary.disabled`): skipped, a break at each call, or, under
`allow_in_graph` / `assume_constant_result` / a custom op, one node in the graph (no break)."""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import DISABLED_CALL
from compilelint.summary import SKIPPED


def run(context) -> list:
    index, out = context.index, []
    for analysis, finding, key, call in context.candidates(DISABLED_CALL):
        skipped = [callee for callee in index.callees(key, call) if index.functions[callee].disabled == SKIPPED]
        if skipped:
            named = f"`{skipped[0].split(':', 1)[1]}`"
            out.append((analysis, replace(finding, needs=(), message=finding.message.replace("{callee}", named))))
    return out
