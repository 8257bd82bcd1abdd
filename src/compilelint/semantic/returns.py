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


def displayed_items(value: cst.BaseExpression, kind_spec) -> list | None:
    """Each element's spec of `return a, b` (None for anything but a tuple display without `*`)."""
    if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return [kind_spec(e.value) for e in value.elements]


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
