"""Where torch calls take Python ints or Scalars — sizes of factories and of `.view()`-like
methods, Scalar arguments (`alpha=`, `negative_slope`) — for CL107 and CL105's NumPy sizes."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import Kind, is_self_attribute

# methods that give a tensor of their receiver's shape: a 0-d tensor stays one (`x.sum().long()`)
KEEPS_SHAPE = frozenset({"long", "int", "to", "type", "detach", "cpu", "cuda", "clamp", "clip", "abs", "floor",
                         "ceil", "round", "add", "sub", "mul", "neg"})

# torch factories whose positional arguments are sizes or bounds (Python ints).
SIZE_FACTORIES = frozenset({
    "torch.arange", "torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn",
    "torch.full",
})
# Functions whose `size` (second positional) is an output size of Python ints.
RESIZE_FUNCS = frozenset({
    "torch.nn.functional.interpolate", "torch.nn.functional.upsample", "torch.nn.functional.adaptive_avg_pool2d",
    "torch.nn.functional.adaptive_max_pool2d", "torch.nn.functional.adaptive_avg_pool1d",
})
# Tensor methods whose positional arguments are sizes, dims or lengths.
SIZE_METHODS = frozenset({
    "view", "reshape", "expand", "narrow", "new_zeros", "new_ones", "new_empty", "new_full", "repeat", "permute",
})


# torch's Scalar arguments, which a tensor cannot fill: Dynamo reads its value (`.item()`,
# GB0033; measured on 2.13 and 2.14). (keyword, position or None) per name; the in-place
# `add_(alpha=)` / `addcmul_(value=)`, `torch.full`, `masked_fill`, `clamp` and `lerp` take
# a tensor and are traced.
_F = "torch.nn.functional."
SCALAR_ARGS = {
    "torch.add": (("alpha", None),), "torch.sub": (("alpha", None),), "torch.subtract": (("alpha", None),),
    "torch.addcmul": (("value", None),), "torch.norm": (("p", 1),),
    **{f"torch.{f}": (("beta", None), ("alpha", None)) for f in ("addmm", "baddbmm", "addbmm", "addmv", "addr")},
    **{_F + f: (("p", 1),) for f in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                                      "normalize")},
    _F + "leaky_relu": (("negative_slope", 1),), _F + "elu": (("alpha", 1),), _F + "celu": (("alpha", 1),),
    _F + "softplus": (("beta", 1), ("threshold", 2)), _F + "hardtanh": (("min_val", 1), ("max_val", 2)),
    _F + "threshold": (("threshold", 1), ("value", 2)), _F + "rrelu": (("lower", 1), ("upper", 2)),
}
SCALAR_METHODS = {"add": (("alpha", None),), "sub": (("alpha", None),), "addcmul": (("value", None),),
                  "new_full": (("fill_value", 1),),
                  **{f: (("beta", None), ("alpha", None)) for f in ("addmm", "baddbmm", "addbmm", "addmv", "addr")}}


# torch's int arguments that are no size (one-hot classes, `k`, chunks, shifts, diagonals,
# samples, pads, window sizes): a tensor there is read with `.item()` too (GB0033, measured on
# 2.13: st-moe-pytorch's `F.one_hot(indexes, max(indexes.max() + 2, max_length))`)
INT_ARGS = {
    _F + "one_hot": (("num_classes", 1),), _F + "pad": (("pad", 1),),
    "torch.topk": (("k", 1),), "torch.kthvalue": (("k", 1),), "torch.chunk": (("chunks", 1),),
    "torch.split": (("split_size_or_sections", 1),), "torch.roll": (("shifts", 1),),
    "torch.tril": (("diagonal", 1),), "torch.triu": (("diagonal", 1),), "torch.multinomial": (("num_samples", 1),),
    # (by keyword here; positional bounds are named by their count: `randint_bounds`)
    "torch.randint": (("low", None), ("high", None)),
    # the size of the output that saves a sync: a 0-d tensor is read (torch_frame's
    # `count.repeat_interleave(count, output_size=ptr[-1])`, GB0033)
    "torch.repeat_interleave": (("output_size", None),),
}
INT_METHODS = {"topk": (("k", 0),), "kthvalue": (("k", 0),), "chunk": (("chunks", 0),),
               "split": (("split_size", 0),), "roll": (("shifts", 0),), "tril": (("diagonal", 0),),
               "triu": (("diagonal", 0),), "multinomial": (("num_samples", 0),),
               "unfold": (("dimension", 0), ("size", 1), ("step", 2)),
               "repeat_interleave": (("output_size", None),)}


def scalar_arguments(ctx, node: cst.Call, qualified: str) -> list[tuple[str, cst.BaseExpression]]:
    """(name, argument) of each Scalar argument a torch call or a tensor's method is given."""
    return _arguments(ctx, node, qualified, SCALAR_ARGS, SCALAR_METHODS)


def int_arguments(ctx, node: cst.Call, qualified: str) -> list[tuple[str, cst.BaseExpression]]:
    """(name, argument) of each int argument (not a size) a torch call or a tensor's method is given."""
    found = _arguments(ctx, node, qualified, INT_ARGS, INT_METHODS)
    return found + randint_bounds(node) if qualified == "torch.randint" else found


def randint_bounds(node: cst.Call) -> list[tuple[str, cst.BaseExpression]]:
    """`torch.randint(high, size)` / `torch.randint(low, high, size)`: the positional arguments
    before the size (its one tuple or list) are the bounds, `high` alone or `low, high`
    (speechbrain's SpecAugment: `torch.randint(0, max(1, D, -mask_len.max()), ...)`, GB0033)."""
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    size = _randint_size(positional)
    if size is None or size > 2:
        return []
    return list(zip(("high",) if size == 1 else ("low", "high"), positional[:size]))


def _randint_size(positional: list) -> int | None:
    """Where `torch.randint`'s size is among its positional arguments: its one tuple or list."""
    return next((i for i, v in enumerate(positional) if isinstance(v, (cst.Tuple, cst.List))), None)


def _arguments(ctx, node: cst.Call, qualified: str, functions: dict, methods: dict) -> list:
    func = node.func
    if qualified in functions:
        spots = functions[qualified]
    elif isinstance(func, cst.Attribute) and func.attr.value in methods and not qualified \
            and ctx.kind(func.value).tensorish:
        spots = methods[func.attr.value]
    else:
        return []
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    found = []
    for name, position in spots:
        value = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == name), None)
        if value is None and position is not None and len(positional) > position:
            value = positional[position]
        if value is not None:
            found.append((name, value))
    return found


# the calls whose sizes are some positions only (narrow(dim, start, length): a tensor `start`
# is traced; full's and new_full's fill value too); every positional argument of the others
SIZES_AT = {"torch.full": slice(0, 1), "new_full": slice(0, 1), "narrow": slice(2, 3)}


def size_arguments(ctx, node: cst.Call, qualified: str, starred: bool = False) -> tuple[list, str] | None:
    """The arguments of a torch factory or of a tensor's `.view()` / `.reshape()` / ... that
    are sizes (Python ints), and what to call them; None for any other call. With `starred`,
    also what a call that takes sizes at every position is given as `*counts`."""
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    if qualified in SIZE_FACTORIES or qualified == "torch.randint":
        name, what = qualified, f"a size of `{qualified}()`"
    elif isinstance(node.func, cst.Attribute) and node.func.attr.value in SIZE_METHODS \
            and (ctx.kind(node.func.value).tensorish or starred and _unpacks_tensor(ctx, node)):
        name, what = node.func.attr.value, f"a size of `.{node.func.attr.value}()`"
    else:
        return None
    # `size=(b, n)` (`torch.randint(0, k, size=...)`, `torch.zeros(size=...)`, `x.new_zeros(size=...)`)
    keyword = [a.value for a in node.args if a.keyword is not None and a.keyword.value == "size"]
    if name == "torch.randint":  # its size is its one tuple or list; the ints before it are bounds
        size = _randint_size(positional)
        return ([] if size is None else [positional[size]]) + keyword, what
    if name in SIZES_AT:
        return positional[SIZES_AT[name]] + keyword, what
    return positional + ([a.value for a in node.args if a.star == "*"] if starred else []) + keyword, what


def _unpacks_tensor(ctx, node: cst.Call) -> bool:
    """`t.expand(*dims)` with `dims` a tensor and `t` of no kind the file shows (an element of a
    list it is handed: tsl's `expand_then_cat`): only a tensor takes sizes so, one by one."""
    return ctx.kind(node.func.value) == Kind.UNKNOWN \
        and any(a.star == "*" and ctx.kind(a.value) == Kind.TENSOR for a in node.args)


def computed_from_values(ctx, value: cst.BaseExpression) -> bool:
    """A torch call on Python values only (`torch.div(seq_len, w, rounding_mode="trunc")`, `torch.tensor(3)`):
    as a *size* Dynamo computes it (measured on 2.13: no break); a slice bound still reads it and breaks."""
    return isinstance(value, cst.Call) and (ctx.qualify(value.func) or "").startswith("torch.") \
        and bool(value.args) and all(ctx.kind(a.value) == Kind.VALUE for a in value.args
                                     if a.keyword is None)


def construction_attribute(ctx, value: cst.BaseExpression) -> bool:
    """An attribute of `self` set at construction only (norse's `self.hidden_size =
    torch.as_tensor(hidden_size)` in `__init__`): the frame is handed it, and as a size
    Dynamo specialises on its value (measured on 2.13: no break; a slice bound or `range()`
    of it still breaks). Not a parameter: an inlined call may pass one the graph computed."""
    scope = ctx.function
    if not (is_self_attribute(value) and scope is not None and isinstance(scope.node, cst.FunctionDef)):
        return False
    info = ctx.class_table.get(scope.class_name) if scope.class_name else None
    if info is not None and value.attr.value in info.late_attrs:
        return False
    return value.attr.value not in ctx.self_stores(scope.node)
