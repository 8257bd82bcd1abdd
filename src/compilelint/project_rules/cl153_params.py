"""CL153 across files (the project phase of `rules/cl153_sparse_tensor_use.py`): a function
handed a sparse tensor by a call in another file. torch-harmonics' `DiscoConvS2.forward` passes
`self.psi.to(x.device)` to `_disco_s2_contraction_torch` of `kernels_torch/disco_torch.py`: the
caller breaks at that call (its own CL153), so the callee runs as a frame of its own, and
Dynamo breaks again, and runs the callee eagerly, where it first uses the parameter (GB0015).

The walk marks the call edges that pass a sparse value (`CallEdge.sparse`, from the file's
sparse model); this phase reads each callee's file again with those parameters sparse
(rules._sparse, so libcst is imported only when some compiled call passes one), reports the
first uses the file's own model did not, and follows what those functions hand on in turn to
a third file, as far as DEPTH files from the first.
"""

from __future__ import annotations

from compilelint.finding import API, SPARSE, Finding, when_text
from compilelint.summary import CallEdge

DEPTH = 4
FIRST_PARAMS = ("self", "cls", "ctx", "_ctx", "context")  # what a bound call or `.apply` fills itself


def run(context) -> list:
    index = context.index
    given: dict[str, dict[str, set]] = {}  # module -> qualname -> positions / keywords passed sparse
    for key in sorted(context.region | context.api):  # (what only the API reaches: notes)
        for call in index.functions[key].calls:
            if call.sparse:
                _give(index, key, call, tuple(call.sparse), given)
    if not given:
        return []
    by_module = {a.module: a for a in context.analyses}
    rule = context.rules["CL153"]
    out, seen, read = [], set(), {}
    for _ in range(DEPTH):
        todo, given = given, {}
        for module, passed in sorted(todo.items()):
            analysis = by_module.get(module)
            found = _read_again(analysis, passed, read) if analysis is not None else None
            if found is None:
                continue
            uses, onward = found
            for use, pos in uses:
                key = f"{module}:{use.qualname}"
                place = (analysis.path, pos.start.line, pos.start.column)
                if place in seen or key not in context.region | context.api:
                    continue
                seen.add(place)
                when = tuple(dict.fromkeys(use.guards + use.when)) + ((API,) if key not in context.region else ())
                message = rule.message.format(holder=use.holder, what=f"statement {use.what}") + when_text(when)
                out.append((analysis, Finding(
                    path=analysis.path, line=pos.start.line, col=pos.start.column + 1, end_line=pos.end.line,
                    end_col=pos.end.column + 1, code="CL153", name=rule.name, message=message, help=rule.help,
                    severity="note" if API in when else rule.severity, scope=use.qualname, when=when)))
            for qualname, edge, keys in onward:
                _give(index, f"{module}:{qualname}", edge, keys, given)
    return out


def _give(index, key: str, call, keys: tuple, given: dict) -> None:
    """The functions of other files `call` runs get a sparse value at `keys`."""
    module = key.split(":", 1)[0]
    for callee in index.callees(key, call):
        callee_module, qualname = callee.split(":", 1)
        if callee_module != module:  # (a callee of the same file: that file's model followed the call)
            given.setdefault(callee_module, {}).setdefault(qualname, set()).update(keys)


def _read_again(analysis, passed: dict[str, set], read: dict) -> tuple | None:
    """The first uses that the file makes of the values it is passed, and not of what it holds
    itself (a use of both: its own check reported it), with their places; and the calls of
    functions it does not define that it hands one to, as (qualname, call edge, keys)."""
    import libcst as cst

    from compilelint.rules._sparse import analyse, imported_returners
    from compilelint.semantic.imports import module_qualifier
    from compilelint.source import SourceError, read as read_source
    from compilelint.traverse import positions

    if analysis.path not in read:
        try:
            text = read_source(analysis.path).text
            tree = cst.parse_module(text)
        except (OSError, SourceError, cst.ParserSyntaxError):
            read[analysis.path] = None
        else:
            imported, qualify = imported_returners(analysis.path, analysis.module, text), module_qualifier(tree)
            # (what the file holds itself: its own check reported those uses; worked out once)
            read[analysis.path] = (tree, qualify, imported, analyse(tree, qualify, imported=imported))
    if read[analysis.path] is None:
        return None
    tree, qualify, imported, own = read[analysis.path]
    model = analyse(tree, qualify, imported=imported, given={
        qualname: {name: (f"given:{name}{SPARSE}",) for name in _params(own, qualname, keys)}
        for qualname, keys in passed.items() if qualname in own.functions})
    before = set(own.uses)
    new = [use for node_id, use in model.uses.items() if node_id not in before]
    places = positions(tree, [use.node for use in new])
    onward = [(p.qualname, _edge(p.node.func, qualify), p.keys) for node_id, p in model.passes.items()
              if node_id not in own.passes]
    return [(use, places[use.node]) for use in new], [(q, e, k) for q, e, k in onward if e is not None]


def _params(model, qualname: str, keys: set) -> set[str]:
    """The parameter names that the positions and keywords `keys` fill."""
    from compilelint.rules._sparse_terms import param_names

    names = param_names(model.functions[qualname])
    if "." in qualname and names and names[0] in FIRST_PARAMS:
        names = names[1:]
    return {names[k] if isinstance(k, int) else k for k in keys
            if (isinstance(k, int) and k < len(names)) or k in names}


def _edge(func, qualify) -> CallEdge | None:
    """The call edge the walk makes of a call of another file's function: `f(...)` of a name
    it imports, `mod.f(...)`, `self.m(...)` (a base class of another file)."""
    import libcst as cst

    if isinstance(func, cst.Name):
        return CallEdge("name", func.value)
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        return CallEdge("self", func.attr.value)
    qualified = qualify(func)
    return CallEdge("dotted", qualified) if qualified else None
