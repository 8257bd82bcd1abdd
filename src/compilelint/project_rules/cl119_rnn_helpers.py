"""CL119 in a helper that reads the first parameter of the module it is handed (part of the
project phase of `rules/cl119_untraceable_call.py`). tianshou's networks call
`torch_device(self)`, which returns `next(module.parameters()).device`: when the module's first
parameter is an RNN's (`self.nn = nn.LSTM(...)` assigned before any other submodule), Dynamo must
wrap the LSTM to read it and refuses (GB0014), in the helper, on 2.13.0 and 2.14.1. The class's
own `next(self.parameters())` is the walk's (rules._rnn_walks); a function of any file handed
`self` is this phase's: the caller's class comes from the summaries, the call and the helper's
statement from the two functions' source, read with `ast` (no libcst). The helper serves every
network, so the finding holds only for callers that hand it such a module: `given:module@rnn`,
which a probe run judges by what the calls held.
"""

from __future__ import annotations

import ast

from compilelint.finding import API, RNN_FIRST, Finding, when_text
from compilelint.project_rules._sources import Sources
from compilelint.rules._rnn_reads import refused
from compilelint.rules._rnn_walks import PARAMETERLESS


def run(context, known) -> list:
    index = context.index
    by_module = {a.module: a for a in context.analyses}
    sources = context.sources
    out, seen = [], set()
    for key in sorted(context.region | context.api):
        owner = index.owner(key)
        rnn = _first_rnn(index, known, owner) if owner else None
        if rnn is None:
            continue
        caller = _function(by_module, sources, key)
        for call in index.functions[key].calls:
            if call.kind not in ("name", "dotted"):
                continue
            for position in _self_positions(caller, call.target.rsplit(".", 1)[-1]):
                for callee in index.callees(key, call):
                    found = _first_read(by_module, sources, callee, position)
                    if found is None or (callee, found[1]) in seen:
                        continue
                    seen.add((callee, found[1]))
                    param, line, col, end_line, end_col = found
                    analysis = by_module[callee.split(":", 1)[0]]
                    when = (f"given:{param}{RNN_FIRST}",) + ((API,) if callee not in context.region else ())
                    message = (f"`next({param}.parameters())` reads the first parameter of the module it is handed, "
                               f"an `nn.{rnn}`'s when the caller passes one (`{key.split(':', 1)[1]}` passes "
                               f"`self`): Dynamo refuses to wrap RNN, GRU and LSTM modules and breaks the graph "
                               f"(GB0014)") + when_text(when)
                    out.append((analysis, Finding(
                        path=analysis.path, line=line, col=col, end_line=end_line, end_col=end_col, code="CL119",
                        name=context.rules["CL119"].name, message=message, severity="note" if API in when else "error",
                        help="Read the device from a tensor the module keeps (a buffer), or from the input "
                             "(`x.device`), not from the module's first parameter.",
                        scope=callee.split(":", 1)[1], when=when)))
    return out


def _first_rnn(index, known, class_key: str) -> str | None:
    """The RNN class (`LSTM`) whose parameters come first in `class_key`'s `.parameters()`: the
    first submodule `__init__` assigns that has parameters, in a class with no project base
    holding submodules of its own (theirs would come first)."""
    info = index.classes.get(class_key)
    if info is None or any(index.classes.get(base) and index.classes[base].attr_classes
                           for base in index.lineage(class_key)[1:]):
        return None
    for held in info.attr_classes.values():
        if held in PARAMETERLESS:
            continue
        return held.rsplit(".", 1)[-1] if refused(known.get(held)) else None
    return None


def _function(by_module: dict, sources: Sources, key: str) -> ast.FunctionDef | None:
    module, qualname = key.split(":", 1)
    analysis = by_module.get(module)
    return sources.function(analysis.path, qualname) if analysis is not None else None


def _self_positions(function, name: str) -> set[int]:
    """The positions at which the function's calls of `name` pass `self`."""
    found = set()
    for node in ast.walk(function) if function is not None else ():
        if isinstance(node, ast.Call) and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name):
            found.update(i for i, arg in enumerate(node.args) if isinstance(arg, ast.Name) and arg.id == "self")
    return found


def _first_read(by_module: dict, sources: Sources, callee: str, position: int) -> tuple | None:
    """(parameter, line, col, end line, end col) of the callee's first `next(p.parameters())`,
    `p` the parameter at `position` (1-based columns in characters, as findings have them)."""
    function = _function(by_module, sources, callee)
    if function is None or "." in callee.split(":", 1)[1]:
        return None  # (a method: `self` lands past its own `self`; the walk reads those)
    params = [a.arg for a in function.args.posonlyargs + function.args.args]
    if position >= len(params):
        return None
    param = params[position]
    reads = [node for node in ast.walk(function) if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "next"
             and node.args and isinstance(inner := node.args[0], ast.Call) and isinstance(inner.func, ast.Attribute)
             and inner.func.attr == "parameters" and isinstance(inner.func.value, ast.Name)
             and inner.func.value.id == param]
    if not reads:
        return None
    node = min(reads, key=lambda n: (n.lineno, n.col_offset))
    return (param, *sources.place(by_module[callee.split(":", 1)[0]].path, node))
