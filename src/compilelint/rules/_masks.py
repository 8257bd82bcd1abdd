"""Syntax that says a value is a boolean tensor or no mask at all (CL121's helpers)."""

import re

import libcst as cst

from compilelint.semantic.kinds import dotted
# (what makes a boolean tensor, shared with the call sites' mask facts: semantic.mask_values)
from compilelint.semantic.mask_values import BOOL_FUNCS, BOOL_METHODS, COMPARE, MASK_NAME, PREDICATE_NAME  # noqa: F401
from compilelint.traverse import TRIVIA, iter_nodes


def is_bool_dtype(node: cst.BaseExpression | None) -> bool:
    return node is not None and (dotted(node) or "") in ("torch.bool", "bool")


# tensor methods whose result has the receiver's dtype (a boolean mask stays one)
KEEPS_DTYPE = frozenset({"cuda", "cpu", "contiguous", "clone", "detach", "unsqueeze", "squeeze", "view",
                         "reshape", "flatten", "expand", "expand_as", "transpose", "permute"})


def dtype_argument(call: cst.Call) -> bool:
    """`.to(torch.float32)`, `.to(dtype=...)`, `.to(x)` (another tensor's dtype): not only a device move."""
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value == "dtype":
                return True
            continue
        name = dotted(arg.value) or ""
        if isinstance(arg.value, cst.SimpleString) or name.endswith("device") or name.startswith("torch.device"):
            continue
        if isinstance(arg.value, cst.Call) and (dotted(arg.value.func) or "").endswith("device"):
            continue
        return True
    return False


def bool_tensor_annotation(annotation: cst.BaseExpression) -> bool:
    """`torch.BoolTensor`, also as `BoolTensor | None` / `Optional[BoolTensor]`."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return bool_tensor_annotation(annotation.left) or bool_tensor_annotation(annotation.right)
    if isinstance(annotation, cst.Subscript) and (dotted(annotation.value) or "").endswith("Optional") \
            and len(annotation.slice) == 1 and isinstance(annotation.slice[0].slice, cst.Index):
        return bool_tensor_annotation(annotation.slice[0].slice.value)
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else ""
        return text.replace("Optional[", "").split("|")[0].strip().endswith("BoolTensor")
    return (dotted(annotation) or "").endswith("BoolTensor")


# a parameter's entry in a Google-style (`event (torch.Tensor, bool): ...`) or NumPy-style
# (`attn_mask : torch.BoolTensor`) docstring: the name, then its type
DOCUMENTED = re.compile(r"^\s*\*{0,2}(\w+)\s*(?:\(([^()]*)\)\s*:|:\s*([^\n]+?)\s*$)", re.MULTILINE)
BOOL_WORD = re.compile(r"\b(bool|boolean)\b", re.IGNORECASE)


def documented_bool_tensors(node: cst.FunctionDef) -> frozenset[str]:
    """Parameters the docstring gives the type of a boolean tensor (`torch.BoolTensor`, or a
    tensor and `bool` in one type: torchsurv's `event (torch.Tensor, bool):`), never a type
    with a choice in it (`Tensor or bool`, `Tensor | bool`: maybe a Python flag)."""
    doc = node.get_docstring(clean=True)
    if not doc or ("bool" not in doc.lower() and "BoolTensor" not in doc):
        return frozenset()
    params = {p.name.value for p in (*node.params.params, *node.params.kwonly_params, *node.params.posonly_params)}
    found = set()
    for match in DOCUMENTED.finditer(doc):
        name, kind = match.group(1), match.group(2) or match.group(3) or ""
        if name not in params or "|" in kind or re.search(r"\bor\b", kind):
            continue
        if "BoolTensor" in kind or ("Tensor" in kind and BOOL_WORD.search(kind)):
            found.add(name)
    return frozenset(found)


def literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)) or (
        isinstance(node, cst.Name) and node.value in ("None", "True", "False")) or (
        isinstance(node, cst.UnaryOperation) and literal(node.expression))


def equality(node: cst.BaseExpression) -> bool:
    """`key == limit`: an equality test of two values, neither a literal (`labels != -100` is a
    mask) nor an array's slice (`t_eval[:, 0] == t_start` compares elementwise)."""
    return isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
        and isinstance(node.comparisons[0].operator, (cst.Equal, cst.NotEqual)) \
        and not literal(node.left) and not literal(node.comparisons[0].comparator) \
        and not compares_slice(node)


def array_slice(node: cst.BaseExpression) -> bool:
    """`out[:, 4]`, `x[..., 0]`: an index along several dimensions with a slice or `...`,
    which a list, tuple, dict or number does not take: `node` reads an array."""
    return isinstance(node, cst.Subscript) and len(node.slice) > 1 and any(
        isinstance(e.slice, cst.Slice) or (isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis))
        for e in node.slice)


def compares_slice(node: cst.Comparison) -> bool:
    """A comparison with an array's slice on a side (`t_eval[:, 0] == t_start`): elementwise,
    a boolean array."""
    return array_slice(node.left) or any(array_slice(c.comparator) for c in node.comparisons)


def sliced_names(body: cst.CSTNode) -> frozenset[str]:
    """Names a body indexes along several dimensions with a slice or `...` (`out[:, 4]`,
    `x[..., 0]`): a list, tuple, dict or number takes no such index, so each is an array."""
    return frozenset(
        node.value.value for node in iter_nodes(body, skip=TRIVIA)
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and array_slice(node))


def ordered_names(body: cst.CSTNode) -> frozenset[str]:
    """Names a body orders against a number (`assert (lengths > 1).all()`): a list, tuple or
    dict cannot be (Python raises), so one the body also indexes is an array."""
    return frozenset(
        side.value for node in iter_nodes(body, skip=TRIVIA)
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1
        and isinstance(node.comparisons[0].operator, ORDERING)
        for side, other in ((node.left, node.comparisons[0].comparator), (node.comparisons[0].comparator, node.left))
        if isinstance(side, cst.Name) and numeric(other))


def compared_names(node: cst.BaseExpression, ctx=None) -> frozenset[str]:
    """Names a mask compares, by any operator (`x != n`), through `~`, `&`, `|`, `^` and
    (given the walker's `ctx`) a name the function binds once to such a mask."""
    if isinstance(node, cst.Name) and ctx is not None and ctx.function is not None \
            and (bound := ctx.local_flag(node.value)) is not None:
        return compared_names(bound)
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
            and isinstance(node.comparisons[0].operator, COMPARE):
        return frozenset(side.value for side in (node.left, node.comparisons[0].comparator) if isinstance(side, cst.Name))
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return compared_names(node.expression)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return compared_names(node.left) | compared_names(node.right)
    return frozenset()


# NumPy's functions that give a boolean array of their arguments' shape (Dynamo traces NumPy
# as tensor code). Only these four: the corpus measures them, not `np.isnan` and the like
NUMPY_BOOL_FUNCS = frozenset({"logical_and", "logical_or", "logical_not", "logical_xor"})
CREATION = frozenset({
    "ones", "zeros", "empty", "full", "ones_like", "zeros_like", "empty_like", "full_like",
    "tensor", "as_tensor", "rand", "randint", "bernoulli",
})


def mask_named(node: cst.BaseExpression) -> bool:
    """A name that says it holds a mask (`pad_mask`)."""
    return isinstance(node, cst.Name) and bool(MASK_NAME.search(node.value))


ORDERING = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual)


def numeric(node: cst.BaseExpression) -> bool:
    """A number, a negation (`-bound`: only numbers and arrays negate), or a bound kept on
    an object (`self.low`: a threshold; text and lists are not ordered against arrays)."""
    return isinstance(node, (cst.Integer, cst.Float)) or (
        isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)) or (
        isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self")


def weakest(verdicts: list[str | None]) -> str | None:
    """A mask when every part is one, as sure as the least sure part."""
    if None in verdicts:
        return None
    return "maybe" if "maybe" in verdicts else ("likely" if "likely" in verdicts else "certain")


def item_index(ctx, node: cst.Subscript) -> str | None:
    """The parameter `index` of a `__getitem__(self, index)` (or `__setitem__`) that `node` reads
    with, `self.tensor[index]`: a mask there when a call site's `obj[mask]` passes one, which
    only the project tells (`given:index@mask`, project_rules.callsites)."""
    function = ctx.function
    if function is None or function.class_name is None or len(function.params) < 2 \
            or function.qualname.rsplit(".", 1)[-1] not in ("__getitem__", "__setitem__"):
        return None
    index = function.params[1]
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
            and isinstance(node.slice[0].slice.value, cst.Name) and node.slice[0].slice.value.value == index:
        return index
    return None


def self_keys(node: cst.Assign) -> list[tuple[str, cst.BaseExpression]]:
    """What `node` stores on `self`, keyed as `self_key` reads it: `self.keep = v` ("keep"),
    `self.params["selector"] = v` and `self.params = {"selector": v}` ("params[selector]":
    torch-audiomentations keeps its masks in a dict attribute, `transform_parameters`)."""
    out = []
    for target in node.targets:
        key = self_key(target.target)
        if key is None:
            continue
        out.append((key, node.value))
        if isinstance(node.value, cst.Dict):
            out.extend((f"{key}[{e.key.evaluated_value}]", e.value) for e in node.value.elements
                       if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString))
    return out


def self_key(node: cst.BaseExpression) -> str | None:
    """`self.keep` -> "keep"; `self.params["selector"]` -> "params[selector]"; else None."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
            and isinstance(key := node.slice[0].slice.value, cst.SimpleString) and (owner := self_key(node.value)):
        return f"{owner}[{key.evaluated_value}]" if "[" not in owner else None
    return None
