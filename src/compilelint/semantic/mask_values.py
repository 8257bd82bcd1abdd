"""Whether a value handed to a project object's `__getitem__` is a boolean mask: the call
site's fact behind `given:index@mask` (a `States[mask]` runs `self.tensor[index]` with a mask,
which Dynamo breaks on; `States[t]` with an int does not). Syntax and kinds only: a comparison
of tensors, `~` of a tensor or of a predicate (`~states.is_sink_state`), `&` / `|` of masks,
`isnan()`-like calls, or a local bound once to one of these."""

from __future__ import annotations

import re

import libcst as cst

from compilelint.semantic.infer import infer
from compilelint.semantic.kinds import dotted

# functions (and tensor methods) that give a boolean tensor of their arguments' shape
BOOL_FUNCS = frozenset({
    "isnan", "isinf", "isfinite", "isneginf", "isposinf", "isreal", "isclose", "isin",
    "logical_and", "logical_or", "logical_not", "logical_xor", "eq", "ne", "gt", "lt", "ge", "le",
    "greater", "less", "greater_equal", "less_equal", "not_equal", "signbit",
})
BOOL_METHODS = BOOL_FUNCS | {"bool"}
MASK_NAME = re.compile(r"(^|_)masks?$", re.IGNORECASE)  # `mask`, `masks`, `pad_mask`
# `is_terminating`, `has_parent`: a predicate's name (torchgfn's `~transitions.is_terminating`);
# `~` of a Python bool is an int no one indexes with
PREDICATE_NAME = re.compile(r"^(is|has)_[a-z]")
COMPARE = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


def mask_value(walker, node: cst.BaseExpression, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if isinstance(node, cst.Name) and walker.scopes and (bound := walker.local_flag(node.value)) is not None:
        return mask_value(walker, bound, depth + 1)  # `step_mask = ~step_states.is_sink_state`
    if isinstance(node, cst.Comparison):
        return all(isinstance(c.operator, COMPARE) for c in node.comparisons) and infer(node, walker).tensorish
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        inner = node.expression
        return infer(inner, walker).tensorish or _predicate(inner) or mask_value(walker, inner, depth + 1)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr)):
        return mask_value(walker, node.left, depth + 1) or mask_value(walker, node.right, depth + 1)
    if isinstance(node, cst.Call):
        name = (dotted(node.func) or "").rsplit(".", 1)[-1]
        return name in BOOL_METHODS and infer(node, walker).tensorish
    return False


def _predicate(node: cst.BaseExpression) -> bool:
    name = (dotted(node) or "").rsplit(".", 1)[-1]
    return PREDICATE_NAME.match(name) is not None or MASK_NAME.search(name) is not None
