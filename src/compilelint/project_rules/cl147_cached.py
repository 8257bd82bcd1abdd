"""CL147 (the project phase of `rules/cl147_cached_property_read.py`): a read of a
`functools.cached_property` in the compiled region, `self.x`, `self.tokenizer.x` or `tok.x` of an
object the function built (`tok = get_tokenizer(...)`; not `p.x` of a parameter: the caller
used the object first, and most often the value is cached). Whether `x` is a cached property only the
project's summaries say (the class may live in any file), and the walk keeps a read as a
call edge, not a place: the read is found again in the function's source, with `ast`, for
the few edges that resolve to one. On Python 3.12 and newer (`target-python`, or the Python
running the check) the getter takes no lock and Dynamo traces it: nothing to report.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from compilelint.finding import API, Finding, when_text
from compilelint.project_rules._sources import Sources


def run(context) -> list:
    if context.python >= (3, 12):
        return []
    index, rule = context.index, context.rules["CL147"]
    by_module = {a.module: a for a in context.analyses}
    sources = context.sources
    out = []
    for key in sorted(context.region | context.api):
        module, qualname = key.split(":", 1)
        analysis = by_module.get(module)
        if analysis is None:
            continue
        first = None  # the function's first read: its frame runs eagerly from there, later reads untraced
        for call in index.functions[key].calls:
            getter = _getter(index, key, call)
            if getter is None or not index.functions[getter].cached:
                continue
            place = _read(sources, analysis.path, qualname, call)
            if place is not None and (first is None or place[:2] < first[0][:2]):
                first = (place, getter, call)
        if first is None:
            continue
        place, getter, call = first
        when = tuple(call.when) + ((API,) if key not in context.region else ())
        message = rule.message.format(read=place[4], prop=getter.split(":", 1)[1]) + when_text(when)
        out.append((analysis, Finding(
            path=analysis.path, line=place[0], col=place[1], end_line=place[2], end_col=place[3],
            code="CL147", name=rule.name, severity="note" if API in when else rule.severity,
            message=message, help=rule.help, scope=qualname, when=when)))
    return out


def _getter(index, key: str, call) -> str | None:
    """The function a read edge's attribute is, if a method of a project class."""
    if call.kind == "attrprop":
        owner = index.owner(key)
        found = index.held_method(owner, call.target, call.method) if owner else None
        if found is None and owner:  # `self.tokenizer = get_tokenizer(...)`: what the factory builds
            found = next(iter(index.attr_made(key, replace(call, kind="attrcall"))), None)
        return found
    if call.kind != "property" or call.method.endswith((".setter", ".deleter")):
        return None
    # `tok.x` of a local: `_read` keeps it only where this function built the object (not `p.x`
    # of an object the caller hands over: measured on whisper, its values were cached by the
    # time, read by the code that used the object before)
    if call.target == "self":
        cls = index.owner(key)
    else:
        cls = index.resolve_class(key.split(":", 1)[0], call.target)
        if cls is None:  # tok.sot, `tok = get_tokenizer(...)`: what the factory builds
            return next(iter(index.callees(key, call)), None)
    return index.method(cls, call.method) if cls else None


def _read(sources: Sources, path: str, qualname: str, call) -> tuple | None:
    """(line, col, end_line, end_col, text) of the first read of the edge's attribute in the
    function's own body (1-based columns in characters), or None when it is not found."""
    function = sources.function(path, qualname)
    if function is None:
        return None
    best = None
    built = _built_names(function) if call.kind == "property" and call.target != "self" else set()
    for node in _own_nodes(function):
        if isinstance(node, ast.Attribute) and node.attr == call.method and isinstance(node.ctx, ast.Load) \
                and _owner_matches(node.value, call, built):
            if best is None or (node.lineno, node.col_offset) < (best.lineno, best.col_offset):
                best = node
    if best is None:
        return None
    return (*sources.place(path, best), ast.unparse(best))


def _own_nodes(function):
    """The nodes of a function's body, not those of functions or classes nested in it."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(
            child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))


def _built_names(function) -> set[str]:
    """Names the function binds to what a call returns (`tok = get_tokenizer(...)`, also under
    `if tok is None:`): a fresh object, whose cached values are not computed yet."""
    return {target.id for node in _own_nodes(function) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) for target in node.targets if isinstance(target, ast.Name)}


def _owner_matches(value: ast.AST, call, built: set[str]) -> bool:
    if call.kind == "attrprop":
        return isinstance(value, ast.Attribute) and value.attr == call.target \
            and isinstance(value.value, ast.Name) and value.value.id == "self"
    if call.target != "self":
        return isinstance(value, ast.Name) and value.id in built
    return isinstance(value, ast.Name) and value.id == "self"
