"""The kind lattice: is a value a tensor, a plain Python value, a module, or unknown?

Dynamo breaks when Python needs the *value* of a tensor (a branch, `int()`, `.item()`);
it is fine with Python values derived from a tensor's metadata (`x.shape[0]`, `x.dtype`).
The linter's precision rests on telling the two apart without running anything.
"""

from __future__ import annotations

import enum
import re

import libcst as cst

from compilelint.knowledge import method_classes
from compilelint.traverse import iter_nodes


class Kind(enum.Enum):
    TENSOR = "tensor"  # certainly a tensor (torch call, annotation, arithmetic on one)
    LIKELY = "likely"  # almost certainly a tensor (forward's input, a submodule's output)
    VALUE = "value"  # a plain Python value (shape, dtype, len, bool, literal …)
    MODULE = "module"  # an nn.Module instance: calling it gives a tensor
    UNKNOWN = "unknown"

    @property
    def tensorish(self) -> bool:
        return self in (Kind.TENSOR, Kind.LIKELY)


# Tensor attributes that are Python values, not tensors.
VALUE_ATTRS = frozenset({
    "shape", "dtype", "device", "ndim", "is_cuda", "is_sparse", "is_quantized", "is_meta",
    "requires_grad", "is_leaf", "layout", "training", "names", "itemsize", "nbytes",
    "is_nested", "is_mps", "is_cpu", "is_xpu",
})
TENSOR_ATTRS = frozenset({"T", "mT", "H", "mH", "data", "grad", "real", "imag"})
# Tensor methods whose result is a Python value.
VALUE_METHODS = frozenset({
    "size", "dim", "numel", "nelement", "ndimension", "element_size", "stride",
    "storage_offset", "data_ptr", "get_device", "is_contiguous", "is_floating_point",
    "is_complex", "is_signed", "equal", "item", "tolist", "untyped_storage", "type",
    "is_pinned", "is_shared", "is_set_to", "__len__", "dim_order",
})
# tensor methods that, given no argument, reduce every element to a 0-d tensor
FULL_REDUCTIONS = frozenset({"argmax", "argmin", "sum", "max", "min", "prod", "amax", "amin", "count_nonzero"})
# Methods of str, dict and list that torch.Tensor does not have (checked against torch 2.13:
# `split`, `values`, `index` and `count` are left out, a tensor has or may be mistaken for them).
NON_TENSOR_METHODS = frozenset({
    "startswith", "endswith", "lower", "upper", "casefold", "strip", "lstrip", "rstrip", "rsplit",
    "splitlines", "partition", "join", "format", "replace", "encode", "decode", "isdigit", "isalpha",
    "keys", "items", "get", "setdefault", "update", "append", "extend", "insert", "remove",
    "_replace", "_asdict",
})
# Method names that only tensors (among what compiled code calls) have; calling one on an
# unknown receiver almost surely means the receiver is a tensor.
TENSOR_ONLY_METHODS = frozenset({
    "sum", "mean", "any", "all", "abs", "norm", "argmax", "argmin", "softmax", "log_softmax",
    "std", "var", "prod", "isnan", "isinf", "isfinite", "eq", "ne", "gt", "lt", "ge", "le",
    "nonzero", "count_nonzero", "amax", "amin", "float", "half", "bfloat16", "long", "int",
    "bool", "double", "clone", "detach", "contiguous", "view", "reshape", "transpose",
    "permute", "unsqueeze", "squeeze", "flatten", "masked_fill", "exp", "log", "sqrt",
    "rsqrt", "sigmoid", "tanh", "relu", "matmul", "bmm", "mm", "cumsum", "expand",
    "expand_as", "type_as", "to", "cuda", "cpu", "new_zeros", "new_ones", "new_empty",
    "new_full", "new_tensor", "max", "min", "topk", "argsort", "gather", "scatter",
    "masked_select", "unique", "clamp", "clip", "pow", "sign", "round", "floor", "ceil",
    "logical_and", "logical_or", "logical_not", "isclose", "allclose", "where", "chunk",
    "unbind", "roll", "flip", "tril", "triu", "diag", "square", "neg",
})
# Tensor arithmetic that NumPy arrays share (not `add`: a set has it): given a tensor, what
# answers one computes a tensor (`rho_inv = y.dot(s)` with `s` a tensor)
OPERAND_METHODS = frozenset({"dot", "mv", "mul", "div", "sub", "inner", "outer", "cross", "kron", "true_divide"})
# Of those, the methods no int, list, tuple, NumPy array or module has: whatever answers one is a tensor
STRICT_TENSOR_METHODS = frozenset({
    "unsqueeze", "masked_fill", "long", "int", "bool", "detach", "contiguous", "permute", "expand_as",
    "type_as", "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "masked_select", "unbind",
    "logical_not", "logical_and", "logical_or", "bmm", "topk",
})
# Tensor methods whose result is always a new tensor (not `.float()`, `.contiguous()`, `.to()`,
# which may hand back the tensor itself): CL132's computed tensors
NEW_TENSOR_METHODS = frozenset({
    "unsqueeze", "squeeze", "masked_fill", "permute", "expand", "expand_as", "view", "reshape", "clone",
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "masked_select", "logical_not",
    "logical_and", "logical_or", "bmm", "matmul", "transpose", "gather", "index_select", "sum", "mean",
})
# torch.* callables that return Python values (or non-tensors) rather than tensors.
TORCH_VALUE_FUNCS = frozenset({
    "is_tensor", "is_storage", "is_complex", "is_floating_point", "is_nonzero",
    "is_grad_enabled", "is_inference_mode_enabled", "is_autocast_enabled", "numel",
    "get_default_dtype", "get_default_device", "equal", "allclose", "finfo", "iinfo",
    "Size", "device", "dtype", "manual_seed", "initial_seed", "seed", "no_grad",
    "enable_grad", "inference_mode", "set_grad_enabled", "autocast", "compile",
    "is_deterministic_algorithms_warn_only_enabled", "are_deterministic_algorithms_enabled",
    "get_rng_state", "typename", "is_compiling", "cond", "Generator", "Stream", "Event", "broadcast_shapes",
    # torch.nn.init's helpers: a gain (float) and fans (ints), from shapes
    "calculate_gain", "_calculate_correct_fan", "_calculate_fan_in_and_fan_out",
    # F's attention checks, which libraries that vendor `multi_head_attention_forward` call: whether
    # the input is batched (a bool, from shapes), a mask's dtype
    "_mha_shape_check", "_none_or_dtype",
})
# Name prefixes of torch callables that answer a question or get/set state, never a tensor.
VALUE_PREFIXES = ("is_", "are_", "has_", "get_", "set_", "use_")
# Modules under torch whose functions return tensors unless listed above.
TENSOR_NAMESPACES = (
    "torch.", "torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.",
    "torch.nn.init.",
)
NON_TENSOR_NAMESPACES = (
    "torch.cuda.", "torch.backends.", "torch.compiler.", "torch._dynamo.", "torch.jit.",
    "torch.distributed.", "torch.utils.", "torch.autograd.", "torch.fx.", "torch.onnx.",
    "torch.testing.", "torch.optim.", "torch.export.", "torch.library.", "torch.ops.",
    "torch.overrides.", "torch.random.", "torch.hub.", "torch.multiprocessing.",
    "torch.profiler.", "torch.amp.", "torch.cpu.", "torch.mps.", "torch.xpu.",
)
# torch's version strings: what a call on them gives is text (`torch.__version__.split(".")`)
VERSION_TEXT = ("torch.__version__.", "torch.version.")
VALUE_BUILTINS = frozenset({
    "len", "isinstance", "issubclass", "hasattr", "callable", "id", "type", "str", "repr",
    "range", "enumerate", "zip", "int", "float", "bool", "tuple", "list", "dict", "set",
    "getattr", "round", "divmod", "hash", "ord", "chr", "format", "sorted", "reversed",
    "frozenset", "complex", "bytes", "all", "any",
})
VALUE_ANNOTATIONS = frozenset({
    "int", "float", "bool", "str", "bytes", "None", "complex", "list", "dict", "tuple",
    "set", "List", "Dict", "Tuple", "Set", "Sequence", "Mapping", "Callable", "dtype",
    "device", "Size", "Literal", "Type", "type",
})
# the bases of an autograd Function (CL155's `forward`, CL132's `backward`)
AUTOGRAD_FUNCTIONS = frozenset({"torch.autograd.Function", "torch.autograd.function.Function",
                                "torch.autograd.function.InplaceFunction", "torch.autograd.function.NestedIOFunction"})
TENSOR_ANNOTATIONS = frozenset({"Tensor", "FloatTensor", "LongTensor", "BoolTensor", "Parameter"})


def not_optional(annotation: cst.BaseExpression) -> cst.BaseExpression:
    """`X` of `Optional[X]` and of `X | None`; any other annotation as it is."""
    if isinstance(annotation, cst.Subscript):
        inner = annotation.slice
        if (dotted(annotation.value) or "").split(".")[-1] == "Optional" and len(inner) == 1 \
                and isinstance(inner[0].slice, cst.Index):
            return inner[0].slice.value
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        sides = [side for side in (annotation.left, annotation.right)
                 if not (isinstance(side, cst.Name) and side.value == "None")]
        if len(sides) == 1:
            return sides[0]
    return annotation


def annotated_class(annotation: cst.BaseExpression, qualify) -> str | None:
    """The class a parameter annotation names (`MultivariateNormal`, `dists.Normal`, the
    same under `Optional[...]` / `... | None` or as a string), if it looks like a project
    class: not a builtin, typing or torch name."""
    annotation = not_optional(annotation)
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else ""
        return text if all(part.isidentifier() for part in text.split(".")) and text[-1:].isalnum() \
            and text.split(".")[-1][:1].isupper() else None
    if not isinstance(annotation, (cst.Name, cst.Attribute)):
        return None
    name = qualify(annotation) or dotted(annotation)
    last = name.split(".")[-1] if name else ""
    if not last[:1].isupper() or last in TENSOR_ANNOTATIONS or last in VALUE_ANNOTATIONS \
            or name.startswith(("builtins.", "typing.", "torch.", "collections.", "numpy.")):
        return None
    return name


def annotation_kind(annotation: cst.BaseExpression, qualify) -> Kind:
    """Kind of a parameter from its annotation. Optional[...] of a tensor stays unknown:
    the branch `if mask:` on an optional tensor is a real question, `is None` is not."""
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else ""
        base = text.split("[")[0].split(".")[-1].strip()
        if base in TENSOR_ANNOTATIONS:
            return Kind.TENSOR
        if base in VALUE_ANNOTATIONS:
            return Kind.VALUE
        return Kind.UNKNOWN
    if isinstance(annotation, cst.Subscript):
        base = dotted(annotation.value)
        last = base.split(".")[-1] if base else ""
        if last in ("Optional", "Union"):
            return Kind.UNKNOWN
        if last in VALUE_ANNOTATIONS:
            return Kind.VALUE
        return Kind.UNKNOWN
    if isinstance(annotation, cst.BinaryOperation):  # int | None
        kinds = {annotation_kind(annotation.left, qualify), annotation_kind(annotation.right, qualify)}
        return Kind.VALUE if kinds == {Kind.VALUE} else Kind.UNKNOWN
    name = dotted(annotation)
    if not name:
        return Kind.UNKNOWN
    last = name.split(".")[-1]
    if last in TENSOR_ANNOTATIONS:
        return Kind.TENSOR
    if last in VALUE_ANNOTATIONS:
        return Kind.VALUE
    return Kind.UNKNOWN


MAPPINGS = frozenset({"Dict", "dict", "Mapping", "MutableMapping", "OrderedDict"})
SEQUENCES = frozenset({"List", "list", "Sequence", "MutableSequence", "Tuple", "tuple"})


def tensor_container(annotation: cst.BaseExpression, qualify) -> bool:
    """`Dict[str, Tensor]`, `list[torch.Tensor]`, `Tuple[Tensor, ...]`: a container whose items
    are tensors, so an item read (`inputs["idx_m"]`, `xs[0]`) is one (schnetpack's and MACE's
    batches are dicts of tensors)."""
    if not isinstance(annotation, cst.Subscript):
        return False
    last = (dotted(annotation.value) or "").rsplit(".", 1)[-1]
    items = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
    if last in MAPPINGS and len(items) == 2:
        return annotation_kind(items[1], qualify) == Kind.TENSOR
    if last in SEQUENCES and items:
        return all(annotation_kind(item, qualify) == Kind.TENSOR or isinstance(item, cst.Ellipsis) for item in items) \
            and annotation_kind(items[0], qualify) == Kind.TENSOR
    return False


ANNOTATION_WRAPPERS = frozenset({"Optional", "Union", "typing", "None"})
SCALAR_ANNOTATIONS = frozenset({"int", "float"})


def scalar_annotation(annotation: cst.BaseExpression) -> bool:
    """A bare `int` / `float` annotation: a promise the caller may break by passing a 0-d
    tensor (`create_mask(lengths.max(), lengths)` for `size: int`), so call sites decide."""
    if isinstance(annotation, cst.SimpleString):
        return annotation.evaluated_value in SCALAR_ANNOTATIONS
    return isinstance(annotation, cst.Name) and annotation.value in SCALAR_ANNOTATIONS


def _annotation_names(annotation: cst.BaseExpression) -> set[str]:
    """The names an annotation mentions, in strings too (`"Scalar"`), less `Optional` / `Union`."""
    names: set[str] = set()
    for node in iter_nodes(annotation):
        if isinstance(node, cst.Name):
            names.add(node.value)
        elif isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
            names.update(part for part in re.split(r"\W+", node.evaluated_value) if part)
    return names - ANNOTATION_WRAPPERS


NUMBER_ANNOTATIONS = frozenset({"int", "float", "bool", "complex"})


def call_sites_decide(annotation: cst.BaseExpression) -> bool:
    """An annotation that says no more than none, so the parameter's call sites decide what it
    holds: one naming no tensor or value type the linter knows (`Optional[Scalar]`, `Scalar`
    an alias made in another module: torchsde's `Union[float, Tensor]`), or a union of a
    number and a tensor (`Union[int, Tensor]`, `float | Tensor`: torchmetrics' `num_obs`, a
    metric state at one call site, an int at another)."""
    names = _annotation_names(annotation)
    opaque = bool(names) and not names & (TENSOR_ANNOTATIONS | VALUE_ANNOTATIONS | {"torch", "Any", "object"})
    return opaque or (bool(names & TENSOR_ANNOTATIONS) and bool(names & NUMBER_ANNOTATIONS)
                      and names <= TENSOR_ANNOTATIONS | NUMBER_ANNOTATIONS)


def is_self_attribute(node: cst.BaseExpression) -> bool:
    """`self.x`."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"


def self_getattr(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The name argument of `getattr(self, name, ...)`."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "getattr" \
            and len(node.args) >= 2 and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == "self":
        return node.args[1].value
    return None


def name_pattern(value: cst.BaseExpression) -> str | None:
    """A glob of the names a string expression can spell: text kept, each computed part put
    in `*` (`f"indices_{s}"`, `"indices_{}".format(s)`, `"indices_" + str(s)` all give
    `indices_*`): what a `getattr(self, ...)` may read, and what a `register_buffer` under a
    computed name registers. No identifier holds a `*`, so a glob never meets a literal name."""
    if isinstance(value, cst.SimpleString):
        text = value.evaluated_value
        return text if isinstance(text, str) else None
    if isinstance(value, cst.FormattedString):
        parts = [p.value if isinstance(p, cst.FormattedStringText) else "*" for p in value.parts]
        return "".join(parts)
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "format" \
            and isinstance(value.func.value, cst.SimpleString):
        text = value.func.value.evaluated_value
        return re.sub(r"\{[^{}]*\}", "*", text) if isinstance(text, str) else None
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Modulo) \
            and isinstance(value.left, cst.SimpleString):
        text = value.left.evaluated_value
        return re.sub(r"%[-+ #0-9.]*[sdifr]", "*", text) if isinstance(text, str) else None
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        left, right = name_pattern(value.left), name_pattern(value.right)
        return (left or "*") + (right or "*") if left or right else None
    return None


def computed_name(value: cst.BaseExpression) -> str | None:
    """`name_pattern` of a name built at run time that keeps some text (`indices_*`; not `*`
    alone, which would meet every computed name), from an f-string, `.format` or a leading
    literal's `+` (what Dynamo was measured on: `"indices_" + str(s)`)."""
    if isinstance(value, cst.BinaryOperation) and not (
            isinstance(value.operator, cst.Add) and isinstance(value.left, cst.SimpleString)):
        return None
    pattern = name_pattern(value)
    return pattern if pattern and "*" in pattern and pattern.strip("*") else None


def literal_kind(node: cst.BaseExpression) -> Kind | None:
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
                         cst.ConcatenatedString, cst.FormattedString, cst.List, cst.Dict,
                         cst.Set, cst.ListComp, cst.DictComp, cst.SetComp, cst.Lambda)):
        return Kind.VALUE
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return Kind.VALUE
    if isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float)):
        return Kind.VALUE
    return None


def dotted(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    # exact classes (libcst's parser makes no subclasses): isinstance on its ABCs is slow
    if type(node) is cst.Name:
        return node.value
    parts = []
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)
        node = node.value
    if type(node) is cst.Name:
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


LEGACY_TENSOR_TYPES = frozenset({
    "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "IntTensor", "LongTensor", "ShortTensor",
    "ByteTensor", "CharTensor", "BoolTensor",
})


def property_accessor(decorator: cst.BaseExpression, name: str) -> tuple[str, bool] | None:
    """("setter" / "deleter" / "getter", whether a base names the property) when `decorator` makes
    the function an accessor of property `name`: `@name.setter`, or `@Base.name.setter` (a
    subclass overriding a base's accessor)."""
    if not (isinstance(decorator, cst.Attribute) and decorator.attr.value in ("getter", "setter", "deleter")):
        return None
    prop = decorator.value
    if isinstance(prop, cst.Name) and prop.value == name:
        return decorator.attr.value, False
    if isinstance(prop, cst.Attribute) and prop.attr.value == name:
        return decorator.attr.value, True
    return None


# torch's makers of a tensor from Python or NumPy data (a list of rows, an array converted back)
DATA_TENSORS = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.from_numpy"})


def legacy_tensor(qualified: str) -> bool:
    """`torch.LongTensor`, `torch.Tensor`: a legacy constructor, whose call builds a tensor."""
    return qualified.startswith("torch.") and qualified.count(".") == 1 \
        and qualified[6:] in LEGACY_TENSOR_TYPES | {"Tensor"}


def torch_call_kind(qualified: str) -> Kind | None:
    """Kind of the result of calling a torch callable by qualified name, None if not torch."""
    if not qualified.startswith("torch."):
        return None
    last = qualified.rsplit(".", 1)[-1]
    if qualified.startswith("torch.nn.") and not qualified.startswith(("torch.nn.functional.", "torch.nn.init.")):
        if last[:1].isupper():
            return Kind.TENSOR if last in ("Parameter", "Buffer") else Kind.MODULE
        return Kind.UNKNOWN
    if qualified.startswith(VERSION_TEXT):
        return Kind.VALUE  # `torch.__version__.split(".")`: text
    if qualified.startswith(NON_TENSOR_NAMESPACES) or qualified in ("torch.load", "torch.save"):
        return Kind.UNKNOWN  # (`torch.load` gives back whatever was saved: a checkpoint's dict, mostly)
    # predicates and state accessors, private ones too: `torch._C._are_functorch_transforms_active()`
    if last in TORCH_VALUE_FUNCS or last.lstrip("_").startswith(VALUE_PREFIXES):
        return Kind.VALUE
    if last in LEGACY_TENSOR_TYPES:
        return Kind.TENSOR  # `torch.IntTensor([n])`: the legacy constructors build tensors
    if last[:1].isupper() and last not in ("Tensor",):
        return Kind.UNKNOWN  # classes: torch.Generator, torch.Size handled above
    if qualified.startswith(TENSOR_NAMESPACES):
        return Kind.TENSOR
    return Kind.UNKNOWN


def join(a: Kind, b: Kind) -> Kind:
    if a == b:
        return a
    if Kind.TENSOR in (a, b) and (Kind.LIKELY in (a, b)):
        return Kind.LIKELY
    return Kind.UNKNOWN


def strongest(a: Kind, b: Kind) -> Kind:
    """Arithmetic: a tensor on either side makes a tensor."""
    for kind in (Kind.TENSOR, Kind.LIKELY):
        if kind in (a, b):
            return kind
    if a == b == Kind.VALUE:
        return Kind.VALUE
    return Kind.UNKNOWN


PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                        "torch.nn.parameter.Buffer"})


def torch_state(qualified: str | None) -> bool:
    """A call that makes module state when stored on a module: a parameter, a buffer, or a
    torch.nn module (`nn.Linear(...)`, `nn.ModuleList(...)`)."""
    if not qualified or not qualified.startswith("torch.nn."):
        return False
    return qualified in PARAMETERS or (qualified.count(".") == 2 and qualified[9:10].isupper())


LIST_BUILDERS = ("list", "tuple", "sorted")


def builds_list(value: cst.BaseExpression, qualify=None) -> bool:
    """A Python list or tuple built here (`[...]`, a comprehension, `list(...)`, `sorted(...)`,
    `[None] * n`, `prefix + list(...)`): indexing one takes an int (`qualify`: the file's
    resolver, so a shadowed `list` is not taken for the builtin)."""
    if isinstance(value, (cst.List, cst.ListComp, cst.Tuple)):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return isinstance(value.left, cst.List) or isinstance(value.right, cst.List)
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return builds_list(value.left, qualify) or builds_list(value.right, qualify)
    if not isinstance(value, cst.Call):
        return False
    name = qualify(value.func) if qualify else dotted(value.func)
    return (name or "").removeprefix("builtins.") in LIST_BUILDERS


def known_class(annotation: cst.BaseExpression, qualify) -> str | None:
    """A library class the knowledge table names methods of (`optimizer: Optimizer`):
    `self.optimizer = optimizer` then holds one, and `self.optimizer.zero_grad()` is its."""
    qualified = qualify(not_optional(annotation))
    return qualified if qualified in method_classes() else None


def constructed(value: cst.BaseExpression, qualify) -> str | None:
    """The class a call builds (`Foo(...)`, a knowledge-table class; not a builtin, nor a legacy
    tensor constructor), or the classes either branch of `A(...) if c else B(...)` builds, "A|B"."""
    if isinstance(value, cst.IfExp):
        refs = [constructed(branch, qualify) for branch in (value.body, value.orelse)]
        return "|".join(dict.fromkeys(refs)) if all(refs) else None
    if not isinstance(value, cst.Call):
        return None
    ref = qualify(value.func) or dotted(value.func)
    return ref if ref and (ref.split(".")[-1][:1].isupper() or ref in method_classes()) \
        and not ref.startswith("builtins.") and not legacy_tensor(ref) else None


def not_required(annotation: cst.BaseExpression) -> bool:
    """`NotRequired[...]` (typing's or typing_extensions'), however it is imported."""
    if not isinstance(annotation, cst.Subscript):
        return False
    name = dotted(annotation.value) or ""
    return name.rsplit(".", 1)[-1] == "NotRequired"


# `# type: (Tensor, Tensor, int, int) -> Tensor` (PEP 484 function type comments)
TYPE_COMMENT = re.compile(r"#\s*type:\s*\((?P<args>.*)\)\s*->")


def type_comment_kinds(node: cst.FunctionDef) -> list[Kind] | None:
    """Kinds from a `# type: (...) -> ...` comment on the line after the `def`."""
    body = node.body
    comments = []
    if isinstance(body, cst.IndentedBlock):
        if body.header.comment is not None:
            comments.append(body.header.comment.value)
        if body.body:
            comments.extend(line.comment.value for line in getattr(body.body[0], "leading_lines", ())
                            if line.comment is not None)
    for text in comments:
        match = TYPE_COMMENT.search(text)
        if match:
            out = []
            for part in (p.strip() for p in match.group("args").split(",")):
                last = part.split("[")[0].split(".")[-1].strip()
                out.append(Kind.TENSOR if last in TENSOR_ANNOTATIONS else
                           Kind.VALUE if last in VALUE_ANNOTATIONS else Kind.UNKNOWN)
            return out
    return None
