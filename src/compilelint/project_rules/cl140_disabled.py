"""CL140 (the project phase of `rules/cl140_explicit_graph_break.py`): a call from a compiled
region of a function another file of the project puts under `torch.compiler.disable` (torchdr's
affinities call `binary_search`, disabled in `utils/root_search.py`). Dynamo ends the graph before
the call (GB0098). The per-file rule sees the call and the import; the index knows which functions
Dynamo does not trace (`FunctionSummary.disabled`), and the callee's file, read with `ast`, says
whether by `disable` (a break) or by `allow_in_graph` / `assume_constant_result` / a custom op
(one node in the graph: no break)."""

from __future__ import annotations

import ast
from dataclasses import replace

from compilelint.finding import DISABLED_CALL

_DISABLE = frozenset({"disable", "_disable_dynamo"})  # the last part of the decorator's dotted name


def run(context) -> list:
    index, out = context.index, []
    paths = {analysis.module: analysis.path for analysis in context.analyses}
    for analysis, finding, key, call in context.candidates(DISABLED_CALL):
        disabled = [callee for callee in index.callees(key, call)
                    if index.functions[callee].disabled and _disables(callee, paths, context.sources)]
        if disabled:
            named = f"`{disabled[0].split(':', 1)[1]}`"
            out.append((analysis, replace(finding, needs=(), message=finding.message.replace("{callee}", named))))
    return out


def _disables(key: str, paths: dict, sources) -> bool:
    """Function `key` (`module:Cls.name`, at top level or in a top-level class) is decorated with
    `torch.compiler.disable` (or dynamo's)."""
    module, _, qualname = key.partition(":")
    tree = sources.tree(paths[module]) if module in paths else None
    body = tree.body if tree is not None else []
    *owners, name = qualname.split(".")
    for owner in owners:
        body = next((s.body for s in body if isinstance(s, ast.ClassDef) and s.name == owner), [])
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return any(_last(d.func if isinstance(d, ast.Call) else d) in _DISABLE for d in stmt.decorator_list)
    return False


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
