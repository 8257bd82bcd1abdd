"""Which values of a file are sparse tensors, and where each function first uses one, for
CL153. Dynamo cannot wrap a sparse tensor (GB0015): a frame that holds one (a parameter,
an attribute, a local) breaks, and runs eagerly, at the first statement that makes Dynamo
look at it — a method call on it, an operator, a type test, a call that hands it to code
that uses it, a `return` of it — and the rest of the frame is not traced. Binding it to a name
(`g = self.graph`) or handing it to a function that only returns it does not.

Worked out per file, once, when the file may hold one (its text names `torch.sparse`, a
sparse builder or conversion, `._values(`, `.coalesce(`…): what is sparse is found by a
fixed point over the file's functions — sparse builders, `self.X` set from one, functions
returning one, parameters used as one (`x._values()`, `torch.sparse.mm(x, w)`) or given
one by a call in the file. A function the file imports from a module of its own package that
builds sparse tensors (ptwt's `construct_strided_conv_matrix`, from `.sparse_math`) returns one
when that module's own model says so (sparse_sources finds the modules; each is parsed once
per run while its bytes stay the same).
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from compilelint.rules._sparse_flow import Flow
from compilelint.rules._sparse_model import FileSparse
from compilelint.semantic.imports import module_qualifier
from compilelint.semantic.kinds import dotted
from compilelint.semantic.method_scan import method_scan
from compilelint.sparse_sources import DEPTH, names_text, sources, sparse_bytes

_returns: dict[str, tuple[bytes, frozenset[str]]] = {}  # module file -> (its bytes, its sparse-returning functions)


def file_model(ctx, module: cst.Module) -> FileSparse | None:
    """The file's model, worked out once per walk, at the module (None when the file's text
    rules it out). Its digest is walker state: an edit that changes what it finds anywhere
    makes the incremental walk redo the whole file (incremental.state)."""
    if ctx.sparse_model is None:
        text = ctx.text
        imported = imported_returners(ctx.path, ctx.module, text) if text is not None else frozenset()
        ctx.sparse_model = False if text is not None and not names_text(text) and not imported \
            else analyse(module, module_qualifier(module), ctx.scanned, imported)
        ctx.sparse_key = ctx.sparse_model.digest() if ctx.sparse_model else ()
    return ctx.sparse_model or None


def product_when(ctx, node: cst.Call) -> tuple | None:
    """For CL119's sparse product: None after the frame's first sparse use (the frame runs
    eagerly from there), else the labels it needs (the other mode than an earlier use's)."""
    model = ctx.sparse_model
    if not model:
        return ()
    return None if id(node) in model.shadowed else model.product_when.get(id(node), ())


def imported_returners(path: str, module: str, text: str, depth: int = 0,
                       seen: tuple[str, ...] = ()) -> frozenset[str]:
    """The names the file imports from its package's sparse-building modules that return a
    sparse tensor they build there."""
    found = set()
    for local, (source_path, source, name) in sources(text.encode("utf-8", "replace"), path, module).items():
        if name in _module_returns(source_path, source, depth + 1, (*seen, path)):
            found.add(local)
    return frozenset(found)


def _module_returns(path: str, module: str, depth: int, seen: tuple[str, ...]) -> frozenset[str]:
    """The module-level functions of the module at `path` that return a sparse tensor they build."""
    data = sparse_bytes(path)
    if data is None or depth > DEPTH or path in seen:
        return frozenset()
    kept = _returns.get(path)
    if kept is not None and kept[0] == data:
        return kept[1]
    text = data.decode("utf-8", "replace")
    try:
        tree = cst.parse_module(text)
    except Exception:  # (a file that does not parse: its own check reports it)
        return frozenset()
    model = analyse(tree, module_qualifier(tree), method_scan, imported_returners(path, module, text, depth, seen))
    found = frozenset(q for q in model.builds if "." not in q)
    _returns[path] = (data, found)
    return found


def analyse(module: cst.Module, qualify: Callable[[cst.BaseExpression], str | None],
            scan: Callable[[cst.FunctionDef], tuple] = method_scan, imported: frozenset[str] = frozenset(),
            given: dict[str, dict[str, tuple]] | None = None) -> FileSparse:
    """`scan`: `method_scan`, or the walker's cached one (the class table scans the same methods);
    `imported`: the names the file imports that return a sparse tensor (`imported_returners`);
    `given`: the parameters calls of other files pass a sparse tensor, with their labels
    (project_rules.cl153_params)."""
    model = FileSparse(imported=imported)
    for qualname, params in (given or {}).items():
        model.params.setdefault(qualname, {}).update(params)
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            model.functions[stmt.name.value] = stmt
            model.owner[stmt.name.value] = ""
        elif isinstance(stmt, cst.ClassDef):
            model.bases[stmt.name.value] = [(dotted(b.value) or "").split(".")[-1] for b in stmt.bases]
            for item in stmt.body.body:
                if isinstance(item, cst.FunctionDef):
                    model.functions[f"{stmt.name.value}.{item.name.value}"] = item
                    model.owner[f"{stmt.name.value}.{item.name.value}"] = stmt.name.value
    classes = {q.split(".")[0] for q, o in model.owner.items() if o}
    for qualname, fn in model.functions.items():
        cls = model.owner[qualname]
        for attr, value in scan(fn)[0] if cls else ():  # `self.encoder = Encoder(...)`
            if isinstance(value, cst.Call) and (built := dotted(value.func)) in classes:
                model.members.setdefault(cls, {})[attr] = built
    for _ in range(4):  # a fixed point: each round may find more that is sparse
        before = (_size(model.attrs), _size(model.params), len(model.returns), len(model.builds))
        for qualname in model.functions:
            Flow(model, qualname, qualify, report=False).run()
        if (_size(model.attrs), _size(model.params), len(model.returns), len(model.builds)) == before:
            break
    for qualname in model.functions:
        for param in model.params.get(qualname, {}):
            model.consumes[(qualname, param)] = Flow(model, qualname, qualify, report=False, only=param).run()
    for qualname in model.functions:
        Flow(model, qualname, qualify, report=True).run()
    return model


def _size(table: dict) -> int:
    return sum(len(v) for v in table.values())
