"""What a function returns, as a kind spec: for the whole value (`FunctionSummary.ret`) and,
when it returns tuple displays (`return y, total`), for each element (`items`), so that
`y, total = f(x)` gives each name its own kind instead of the tuple's."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import Kind, annotation_kind, dotted


# a `return True` / `return False`: a predicate's early answer (`if S.size(-1) <= rank: return
# True`) before the tensor it otherwise returns (`return (err < eps).all()`)
BOOL = "bool"


def join_returns(specs: list) -> object:
    """One kind spec for all of a function's returns: a tensor kind when every return is
    one, the leaves when the rest may be tensors, else unknown. A predicate whose other
    returns are all tensors is likely one: branching on it breaks wherever the tensor path
    runs (which path runs is the call's shapes' to say, out of the static pass's sight)."""
    kinds = {s for s in specs if isinstance(s, str)}
    leaves = sorted({leaf for s in specs if isinstance(s, tuple) for leaf in s})
    if BOOL in kinds:
        rest = kinds - {BOOL}
        return "likely" if rest and rest <= {"tensor", "likely"} and not leaves else Kind.UNKNOWN.value
    if kinds - {"tensor", "likely"}:
        return Kind.UNKNOWN.value
    if leaves:
        return tuple(leaves)
    return "tensor" if kinds == {"tensor"} else "likely"


def displayed_items(value: cst.BaseExpression, kind_spec, tuple_fields: dict | None = None) -> list | None:
    """Each element's spec of `return a, b`, or of `return Result(f=a, grad=b)` with `Result` a
    namedtuple of the file (None for anything else, or a display with `*`)."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and tuple_fields \
            and (fields := tuple_fields.get(value.func.value)):
        return _fielded_items(value, fields, kind_spec)
    if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return [kind_spec(e.value) for e in value.elements]


def _fielded_items(call: cst.Call, fields: tuple[str, ...], kind_spec) -> list | None:
    """`sf_value(f=f.detach(), grad=g)`: each field's spec, in the namedtuple's order (a field
    left to its default: unknown)."""
    specs = [Kind.UNKNOWN.value] * len(fields)
    for n, arg in enumerate(call.args):
        if arg.star:
            return None
        index = n if arg.keyword is None else (
            fields.index(arg.keyword.value) if arg.keyword.value in fields else None)
        if index is None or index >= len(fields):
            return None
        specs[index] = kind_spec(arg.value)
    return specs


def tuple_fields(module: cst.Module) -> dict[str, tuple[str, ...]]:
    """The file's namedtuples and their fields, in order: `Out = namedtuple("Out", ["f", "g"])`
    (or `"f g"`), `Out = NamedTuple("Out", [("f", Tensor), ...])`, `class Out(NamedTuple): f: Tensor`."""
    found = {}
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef):
            if any((dotted(b.value) or "").rsplit(".", 1)[-1] == "NamedTuple" for b in stmt.bases):
                found[stmt.name.value] = tuple(
                    s.body[0].target.value for s in stmt.body.body if isinstance(s, cst.SimpleStatementLine)
                    and isinstance(s.body[0], cst.AnnAssign) and isinstance(s.body[0].target, cst.Name))
            continue
        if not isinstance(stmt, cst.SimpleStatementLine) or not isinstance(stmt.body[0], cst.Assign):
            continue
        assign = stmt.body[0]
        value = assign.value
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name) \
                or not isinstance(value, cst.Call) or len(value.args) < 2 \
                or (dotted(value.func) or "").rsplit(".", 1)[-1] not in ("namedtuple", "NamedTuple"):
            continue
        fields = _field_names(value.args[1].value)
        if fields:
            found[assign.targets[0].target.value] = fields
    return found


def _field_names(node: cst.BaseExpression) -> tuple[str, ...] | None:
    if isinstance(node, cst.SimpleString):
        return tuple(node.evaluated_value.replace(",", " ").split())
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    names = []
    for element in node.elements:
        item = element.value
        if isinstance(item, cst.Tuple) and item.elements:  # NamedTuple's ("f", Tensor)
            item = item.elements[0].value
        if not isinstance(item, cst.SimpleString):
            return None
        names.append(item.evaluated_value)
    return tuple(names)


def join_items(items: list) -> tuple | None:
    """Per element, the join of every return's, when each return is a display of one length."""
    if not items or any(i is None or len(i) != len(items[0]) for i in items):
        return None
    return tuple(join_returns([i[n] for i in items]) for n in range(len(items[0])))


def annotated_items(returns: cst.Annotation | None, walked: tuple | None, qualify) -> tuple | None:
    """`-> Tuple[Tensor, int]` states each element's kind; where it says nothing
    (`Optional[...]`, a class), what the walk found stands."""
    annotation = returns.annotation if returns is not None else None
    if not isinstance(annotation, cst.Subscript) or (dotted(annotation.value) or "").split(".")[-1] not in (
            "Tuple", "tuple"):
        return walked
    elements = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
    if len(elements) != len(annotation.slice) or any(isinstance(e, cst.Ellipsis) for e in elements) \
            or (walked is not None and len(walked) != len(elements)):
        return walked
    kinds = [annotation_kind(e, qualify) for e in elements]
    return tuple(k.value if k != Kind.UNKNOWN else (walked[n] if walked else Kind.UNKNOWN.value)
                 for n, k in enumerate(kinds))
