"""Which expressions hold a NumPy array (CL103-CL106 tell them apart).

Dynamo traces `.numpy()` and NumPy calls as tensor operations (torch 2.1+), so the array
itself is fine; what breaks is turning it into Python data. CL105 owns those conversions;
CL103/CL104/CL106 skip them so one line gets one finding.

Purely syntactic and local to the enclosing function: an expression is an ndarray if it
calls `.numpy()`; builds one (`np.array`, `np.arange`, ...: whatever it holds, Dynamo
traces it); calls `numpy.*` on an ndarray, a tensor, a tuple of sizes (`x.shape[1:]`), a
tuple or list display, or a value the walk cannot type (a helper's parameter), but not on
a Python number (`np.ceil(h / 2)`, `np.sqrt(x.shape[1])`: Dynamo folds those where they are
cast, but a test on one breaks, `tests_numpy_value`, and so does `math.floor` of one or
`.item()` of an integer one, `numpy_integer`); indexes
anything with an ndarray; is `tuple()` / `list()` of one, or a tuple of them (each name
unpacked from it is an array); or reads a local name bound earlier (in source order) to
such an expression (the walker's bindings keep those names).
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.guards import isinstance_name, proved_names
from compilelint.semantic.infer import is_sizes
from compilelint.semantic.kinds import Kind

# ndarray attributes that are Python values (or shapes), not arrays.
VALUE_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides", "flags"})
# attributes that hold an ndarray whatever object they are read from: gym's and gymnasium's
# `MultiDiscrete.nvec` (no other library names one so)
ARRAY_ATTRS = frozenset({"nvec"})
# the class an `isinstance` test proves a name an array by (`tested_arrays`)
ARRAY_CLASSES = frozenset({"numpy.ndarray"})
# ndarray methods that leave NumPy for Python values: the conversion itself.
PYTHON_METHODS = frozenset({"item", "tolist", "tobytes", "__len__"})
# numpy functions that build an array from whatever they are given (a list, a shape):
# Dynamo traces the result as a tensor even when it holds constants (measured on 2.13.0:
# `int(np.arange(n)[-1])` and slicing by `np.array([1, 3])[0]` read the value, GB0033).
CONSTRUCTORS = frozenset({
    "numpy.array", "numpy.asarray", "numpy.stack", "numpy.concatenate", "numpy.vstack", "numpy.hstack",
    "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "numpy.arange", "numpy.linspace",
    "numpy.eye", "numpy.zeros_like", "numpy.ones_like", "numpy.full_like", "numpy.empty_like",
})
# numpy functions whose result is a Python value (a flag, a shape, a type), not an array.
PYTHON_FUNCTIONS = frozenset({
    "numpy.isscalar", "numpy.ndim", "numpy.shape", "numpy.size", "numpy.iterable", "numpy.dtype",
    "numpy.issubdtype", "numpy.result_type", "numpy.promote_types", "numpy.can_cast", "numpy.iinfo",
    "numpy.finfo", "numpy.broadcast_shapes", "numpy.isrealobj", "numpy.iscomplexobj",
    # a Python bool (CL119 reports the call itself: Dynamo breaks there, GB0033)
    "numpy.allclose", "numpy.array_equal", "numpy.array_equiv",
})


def is_numpy_call(node: cst.BaseExpression) -> bool:
    """`x.numpy()`, `x.cpu().numpy(force=True)`."""
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "numpy" and all(a.keyword is not None for a in node.args))


def is_ndarray(node: cst.BaseExpression, ctx, names: frozenset[str] | None = None) -> bool:
    if names is None:
        names = ctx.ndarray_names()
    if isinstance(node, cst.Name):
        return node.value in names
    if isinstance(node, cst.Call):
        if is_numpy_call(node):
            return True
        func = node.func
        qualified = ctx.qualify(func) or ""
        if qualified.startswith("numpy."):
            draw = _draw(node, qualified)
            if qualified in PYTHON_FUNCTIONS or draw is not None:
                return draw == "array"
            if qualified in CONSTRUCTORS:
                return True
            return any(is_ndarray(a.value, ctx, names) or _array_like(a.value, ctx, qualified) for a in node.args)
        if qualified in ("builtins.tuple", "builtins.list"):  # its elements are arrays
            return bool(node.args) and is_ndarray(node.args[0].value, ctx, names)
        if isinstance(func, cst.Attribute):
            if func.attr.value in PYTHON_METHODS:
                return False
            return is_ndarray(func.value, ctx, names)
        return False
    if isinstance(node, cst.Attribute):
        if node.attr.value in VALUE_ATTRS:
            return False
        return node.attr.value in ARRAY_ATTRS or array_attribute(node, ctx) or is_ndarray(node.value, ctx, names)
    if isinstance(node, cst.Subscript):
        return is_ndarray(node.value, ctx, names) or any(
            isinstance(e.slice, cst.Index) and is_ndarray(e.slice.value, ctx, names) for e in node.slice)
    if isinstance(node, cst.BinaryOperation):
        return is_ndarray(node.left, ctx, names) or is_ndarray(node.right, ctx, names) or any(
            numpy_attribute(side, ctx) and ctx.kind(other) != Kind.TENSOR
            for side, other in ((node.left, node.right), (node.right, node.left)))
    if isinstance(node, cst.UnaryOperation):
        return not isinstance(node.operator, cst.Not) and is_ndarray(node.expression, ctx, names)
    if isinstance(node, cst.Comparison):
        if all(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
            return False
        return is_ndarray(node.left, ctx, names) or any(is_ndarray(c.comparator, ctx, names) for c in node.comparisons)
    if isinstance(node, cst.Tuple):  # `y0, y1 = boxes[0], boxes[1]`
        return bool(node.elements) and all(is_ndarray(e.value, ctx, names) for e in node.elements)
    if isinstance(node, cst.BooleanOperation):
        return is_ndarray(node.left, ctx, names) or is_ndarray(node.right, ctx, names)
    return False


def _init_made(node: cst.BaseExpression, ctx) -> str:
    """What call `self.<attr>` is made by in the class's `__init__`, when it is written there
    only and from that call alone (not a method's later write, nor another value in the init
    methods, nor a tensor made from it): its qualified name, or ""."""
    if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"):
        return ""
    scope = ctx.function
    info = ctx.class_table.get(scope.class_name) if scope is not None and scope.class_name else None
    if info is None or node.attr.value in info.late_attrs or node.attr.value in info.init_rewritten \
            or info.attr_kinds.get(node.attr.value, Kind.UNKNOWN).tensorish:
        return ""
    return info.init_calls.get(node.attr.value, "")


def array_attribute(node: cst.BaseExpression, ctx) -> bool:
    """`self.has_bias`, built in `__init__` by a NumPy constructor (`np.zeros(n, dtype=bool)`)
    and nowhere else: an array kept on the object, which Dynamo traces as a tensor where it is
    read, unlike a NumPy scalar (`numpy_attribute`): `if self.has_bias[i]:` and
    `int(self.sizes[0])` read its values (GB0170, GB0033; measured on 2.13.0 and 2.14.1)."""
    return _init_made(node, ctx) in CONSTRUCTORS


def numpy_attribute(node: cst.BaseExpression, ctx) -> bool:
    """`self.hop_length`, set in the class's `__init__` from a NumPy call (`np.prod(rates)`)
    and nowhere else: a NumPy value kept on the object. Read alone Dynamo takes it as a
    constant (`int(self.h)`, `pad(x, (0, self.h))`), but arithmetic on it is traced NumPy, a
    0-d array (`n // self.hop_length`; measured on 2.13.0 and 2.14.1)."""
    made = _init_made(node, ctx)
    return made.startswith("numpy.") and made not in PYTHON_FUNCTIONS


def tests_numpy_value(node: cst.BaseExpression, ctx) -> bool:
    """A test on what a NumPy function returns, whatever its arguments: `np.remainder(gc, 2)
    == 1`, `np.isnan(v)` on a Python float. Dynamo folds such a call where the value is cast
    (`int(np.ceil(h / 2))`) but traces a 0-d array where it is tested, which is data-dependent
    (GB0170; measured on 2.13.0 and 2.14.1), or read by `math.floor` and its kind (CL105's
    `SCALAR_READS`, GB0208). Not `numpy.random` (CL119's), nor a function
    that gives a Python value."""
    if isinstance(node, cst.Comparison):
        return tests_numpy_value(node.left, ctx) or any(tests_numpy_value(c.comparator, ctx) for c in node.comparisons)
    if isinstance(node, cst.BinaryOperation):
        return tests_numpy_value(node.left, ctx) or tests_numpy_value(node.right, ctx)
    if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
        return tests_numpy_value(node.expression, ctx)
    if not isinstance(node, cst.Call):
        return False
    qualified = ctx.qualify(node.func) or ""
    return qualified.startswith("numpy.") and not qualified.startswith("numpy.random.") \
        and qualified not in PYTHON_FUNCTIONS


def _array_like(node: cst.BaseExpression, ctx, function: str) -> bool:
    """A numpy call's argument that makes its result a traced array: a tensor, or (outside
    `numpy.random`, CL119's) a shape, a tuple or list display, or a value the walk cannot
    type read from a name; not a number (`np.ceil(h / 2)` on an int is folded)."""
    kind = ctx.kind(node)
    if kind.tensorish:
        return True
    if function.startswith("numpy.random."):
        return False
    if isinstance(node, cst.Comparison) and not all(
            isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
        # `np.any(space.low != 0)`: an elementwise comparison of what the walk cannot type
        return _array_like(node.left, ctx, function)
    if _shape(node) or (isinstance(node, (cst.Tuple, cst.List)) and node.elements):
        return True  # `np.prod(x.shape[1:])`, `np.prod((16, 224))`: measured, a traced array
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and any(
            isinstance(side, (cst.Tuple, cst.List)) and side.elements for side in (node.left, node.right)):
        return True  # `np.cumsum([0] + self.num_bcs)`: a list joined to a display is a list
    if kind is not Kind.UNKNOWN:
        return False
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return isinstance(node, cst.Name)


INT_DTYPES = frozenset({"int", "long", "int8", "int16", "int32", "int64", "intp", "int_", "uint8", "uint16", "uint32",
                        "uint64", "uintp"})


def numpy_integer(node: cst.BaseExpression, ctx) -> bool:
    """An integer NumPy value: `v.astype(int)` (`"int"`, `np.int64`) of a NumPy value or array,
    or `np.int64(v)`. Turned into Python (`.item()`, `int()`) it breaks even when Dynamo folds
    the float it came from (`np.ceil(np.log(n)).astype("int").item()`, GB0208; measured on
    2.13.0 and 2.14.1, while `np.log(n).item()` and `int(np.log2(n))` are traced)."""
    if not isinstance(node, cst.Call):
        return False
    qualified = ctx.qualify(node.func) or ""
    if qualified.startswith("numpy."):
        return qualified[len("numpy."):] in INT_DTYPES
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "astype" and node.args):
        return False
    dtype = node.args[0].value
    name = (dtype.value if isinstance(dtype, cst.Name) else dtype.raw_value if isinstance(dtype, cst.SimpleString)
            else (ctx.qualify(dtype) or "").removeprefix("numpy."))
    return name in INT_DTYPES and (tests_numpy_value(func.value, ctx) or is_ndarray(func.value, ctx))


def numpy_value(node: cst.BaseExpression, ctx) -> bool:
    """What a NumPy call returns, whatever its arguments, or `.astype()` of it: a NumPy value,
    not a tensor (`np.log(n).item()` is traced: CL103 leaves it to CL105)."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "astype":
        node = node.func.value
    return tests_numpy_value(node, ctx)


def _shape(node: cst.BaseExpression) -> bool:
    """A tuple of sizes (`infer.is_sizes`), not one size: `x.shape[1]`
    (`int(np.sqrt(x.shape[1]))` is folded: measured, no break)."""
    return is_sizes(node) and not (isinstance(node, cst.Subscript)
                                   and any(isinstance(e.slice, cst.Index) for e in node.slice))


def tested_arrays(test: cst.BaseExpression, ctx, truth: bool = True) -> frozenset[str]:
    """The names a test proves are ndarrays when it is `truth`: `isinstance(x, np.ndarray)`
    (alone or in an `and` chain), or false where it reads `not isinstance(x, np.ndarray)` (in
    an `or` chain). Only the bare class: a tuple with `torch.Tensor` may hold a tensor."""
    def leaf(single: cst.BaseExpression, holds: bool) -> frozenset[str]:
        name = isinstance_name(single)
        return frozenset({name}) if holds and name is not None \
            and ctx.qualify(single.args[1].value) in ARRAY_CLASSES else frozenset()
    return proved_names(test, truth, leaf)


# torch._numpy's draws and where each takes its size: with one, the draw is traced as an array
TRACED_DRAWS = {"rand": -1, "randn": -1, "random": 0, "random_sample": 0, "uniform": 2, "normal": 2, "randint": 2}


def _draw(call: cst.Call, qualified: str) -> str | None:
    """"eager" for a NumPy draw Dynamo breaks at (CL119's: `np.random.choice`, a scalar
    `np.random.uniform()`, a distribution torch._numpy lacks): it runs eagerly, and what it returns
    is NumPy's own value, no traced array (rwkv's `int(np.random.choice(a=n, p=probs))` after the
    break is traced); "array" for a draw given a size, which torch._numpy traces as an array."""
    if not qualified.startswith("numpy.random."):
        return None
    at = TRACED_DRAWS.get(qualified[len("numpy.random."):])
    if at is None:
        return "eager"
    positional = [a for a in call.args if a.keyword is None and not a.star]
    sized = any(a.keyword is not None and a.keyword.value == "size" for a in call.args)
    return "array" if sized or (positional if at == -1 else len(positional) > at) else "eager"
