"""How CL119 reads a knowledge row at a call: a scalar draw, the finding's wording, the
tensors a row of the "input" form breaks on; and NumPy object arrays, which no row names."""

import libcst as cst

from compilelint import knowledge
from compilelint.rules._callsite import arg_value, has_keyword, keyword_value
from compilelint.semantic.passed_functions import partial_target


def draws_scalar(node: cst.Call, size_at: int) -> bool:
    """No `size=` and nothing at positional index `size_at` (-1: no argument at all)."""
    if size_at < 0:
        return not node.args
    if has_keyword(node, "size"):
        return False
    positional = [a for a in node.args if a.keyword is None]
    if any(a.star for a in positional):
        return False
    return len(positional) <= size_at


def passes_mask(node: cst.Call, masked: tuple[tuple[int, str, str], ...]) -> bool:
    """The call gives one of the masks (at its position or by keyword, not `None`) and leaves
    that mask's `is_causal` keyword unset or `None`."""
    if any(a.star for a in node.args):
        return False  # (`*args`, `**kwargs`: what they hold is not read)
    for index, keyword, causal in masked:
        mask, is_causal = arg_value(node, index, keyword), keyword_value(node, causal)
        if mask is not None and not _none(mask) and (is_causal is None or _none(is_causal)):
            return True
    return False


def _none(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"


def why_text(entry: knowledge.Entry) -> str:
    if entry.why:
        return f"{entry.why} ({entry.gb_id})"
    if entry.form == "instance":
        return f"its forward cannot be traced and breaks the graph ({entry.gb_id}: {entry.reason})"
    if entry.form == "branch":
        return ("Dynamo traces the draw as a graph input, and deciding a branch on it breaks the graph "
                f"({entry.gb_id}); decide outside the region or with `torch.where`")
    if entry.size_at is not None:
        return ("a scalar draw (no `size`): Dynamo traces `np.random` through torch, and turning the draw "
                f"into a Python number breaks the graph ({entry.gb_id})")
    if entry.category == "rng":
        return f"Dynamo does not trace this random-number state or draw and breaks the graph ({entry.gb_id})"
    return f"Dynamo cannot trace it and breaks the graph ({entry.gb_id})"


def held_state(node: cst.BaseExpression) -> bool:
    """A tensor kept on the module or class (`self.mem`, `cls.instances[i].mem`): a graph
    input, where a tensor made in the region is not."""
    if not isinstance(node, cst.Attribute):
        return False
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return isinstance(node, cst.Name) and node.value in ("self", "cls")


def object_array(rule, node: cst.Call, qualified: str | None) -> bool:
    """`np.empty(n, dtype=object)`: torch._numpy has no object dtype (GB0055; torchcde's
    `tridiagonal_solve` keeps tensors in NumPy object arrays)."""
    dtype = keyword_value(node, "dtype")
    if not (qualified or "").startswith("numpy.") or dtype is None \
            or rule.ctx.qualify(dtype) not in ("builtins.object", "numpy.object_"):
        return False
    rule.report(node, rule.message.format(what=f"`{qualified}(..., dtype=object)`", why=(
        "torch._numpy has no object dtype, so Dynamo cannot trace the array and breaks the graph (GB0055)")),
        help="Keep the tensors in a Python list (or stack them into one tensor) inside the region.")
    return True


def applied_call(node: cst.Call, qualify) -> tuple[str, cst.BaseExpression] | None:
    """(`map`, f) for `map(f, xs)` and (`partial`, f) for `partial(f, ...)(x)`, f possibly
    itself a `partial` of a function: a call that runs f on the arguments (torchdyn's LNN maps
    `partial(jacobian, self._lagrangian, create_graph=True)` over the batch's rows)."""
    if (qualify(node.func) or "") == "builtins.map" and node.args and node.args[0].keyword is None \
            and not node.args[0].star:
        how, func = "map", node.args[0].value
    elif isinstance(node.func, cst.Call) and partial_target(node.func, qualify) is not None:
        how, func = "partial", node.func
    else:
        return None
    return how, partial_target(func, qualify) or func
