"""Kind of an expression, from what one function's walk knows.

`env` (the walker) answers lookups: `name_kind`, `self_attr_kind`, `qualify`, `is_import`,
and `open_call(node)`: whether a call lands in a project function whose result only the
project index can tell. While `env.assuming` is a set, values that only the project can
decide (a parameter no annotation types, what a project function returns) count as likely
tensors, and the leaves they came from are added to the set: a finding made then holds
only if one of those leaves turns out to be a tensor (semantic.project decides).
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import (
    FULL_REDUCTIONS, NON_TENSOR_METHODS, OPERAND_METHODS, STRICT_TENSOR_METHODS, TENSOR_ATTRS, TENSOR_ONLY_METHODS,
    VALUE_ATTRS, VALUE_BUILTINS, VALUE_METHODS, Kind, annotation_kind, computed_name, dotted, join, literal_kind,
    name_pattern, self_getattr, strongest, torch_call_kind,
)
from compilelint.semantic.tensor_api import TENSOR_API

# measured: torch 2.11 breaks on `tensor == None` (GB0208), 2.13.0 and 2.14.1 give Python's False
EQ_NONE_FOLDED_FROM = (2, 13)


def infer(node: cst.BaseExpression, env) -> Kind:
    """Kind of an expression. `env` answers lookups: `env.name_kind(name)`,
    `env.self_attr_kind(attr)`, `env.qualify(expr)`."""
    lit = literal_kind(node)
    if lit is not None:
        return lit
    if isinstance(node, cst.Name):
        return env.name_kind(node.value)
    if isinstance(node, cst.Attribute):
        attr = node.attr.value
        if isinstance(node.value, cst.Name) and node.value.value == "self":
            kind = env.self_attr_kind(attr)
            return kind if kind != Kind.UNKNOWN else _getter_kind(attr, env)
        if attr in VALUE_ATTRS:
            return Kind.VALUE
        if (held_class := self_attribute_class_ref(node.value, env)) is not None:
            held = env.object_attr_kind(None, attr, held_class)  # `self.emp_norm._std`, a buffer of its class
            if held != Kind.UNKNOWN:
                return held
        if isinstance(node.value, cst.Name):
            held = env.object_attr_kind(node.value.value, attr)  # `flat.num_segments`, flat an IndexMap
            if held != Kind.UNKNOWN:
                return held
        base = infer(node.value, env)
        if (attr in TENSOR_ATTRS or attr in RESULT_FIELDS) and base.tensorish:
            return base  # (`torch.max(x, 0).values`: a reduction's named result, read as a tensor)
        return Kind.UNKNOWN
    if isinstance(node, cst.Subscript):
        if isinstance(node.value, cst.Name) and env.holds_tensors(node.value.value) \
                and not any(isinstance(e.slice, cst.Slice) for e in node.slice):
            return Kind.TENSOR  # `inputs["idx_m"]` with `inputs: Dict[str, Tensor]`
        base = infer(node.value, env)
        if base.tensorish:
            return base
        if base == Kind.VALUE and isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
            return Kind.VALUE
        if base == Kind.VALUE:
            return Kind.UNKNOWN  # a list of tensors indexed is not a value
        return Kind.UNKNOWN
    if isinstance(node, cst.Call):
        return call_kind(node, env)
    if isinstance(node, cst.BinaryOperation):
        return strongest(infer(node.left, env), infer(node.right, env))
    if isinstance(node, cst.UnaryOperation):
        if isinstance(node.operator, cst.Not):
            return Kind.VALUE
        return infer(node.expression, env)
    if isinstance(node, cst.Comparison):
        ops = [c.operator for c in node.comparisons]
        if all(isinstance(op, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for op in ops):
            return Kind.VALUE
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        if any(isinstance(n, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) for n in operands):
            return Kind.VALUE  # `reduction_type != "already_reduced"`: text, whatever the other side's guess
        if any(isinstance(n, cst.Name) and n.value == "None" for n in operands) and _eq_none_folded(env):
            return Kind.VALUE  # `wcos == None`: a tensor's `==` with None is Python's False (nnAudio)
        kinds = [infer(node.left, env)] + [infer(c.comparator, env) for c in node.comparisons]
        result = Kind.VALUE
        for kind in kinds:
            result = strongest(result, kind) if kind != Kind.VALUE else result
        if any(k == Kind.UNKNOWN for k in kinds) and not result.tensorish:
            return Kind.UNKNOWN
        if result == Kind.LIKELY and any(is_size(n) for n in operands) and all(
                isinstance(n, cst.Name) for n, k in zip(operands, kinds) if k == Kind.LIKELY):
            return Kind.UNKNOWN  # `x.shape[-1] >= n`: a name guessed a tensor, compared with a size, is a number
        return result
    if isinstance(node, cst.IfExp):
        escaped = getattr(env, "escaped_nodes", ())  # `a if torch.jit.is_tracing() else b` compiles b
        if id(node.body) in escaped:
            return infer(node.orelse, env)
        if id(node.orelse) in escaped:
            return infer(node.body, env)
        return join(infer(node.body, env), infer(node.orelse, env))
    if isinstance(node, cst.BooleanOperation):
        left, right = infer(node.left, env), infer(node.right, env)
        if left == Kind.VALUE and right.tensorish:
            # `self.training and rand < p`: the Python flag when it is false, else the
            # tensor (returned untested): a tensor whenever the flag lets it through
            return Kind.LIKELY
        return join(left, right)
    if isinstance(node, (cst.Tuple,)):
        return Kind.VALUE
    return Kind.UNKNOWN


SIZE_ATTRS = frozenset({"shape", "ndim"})
RESULT_FIELDS = frozenset({"values", "indices"})  # torch.max / min / sort / topk / mode / kthvalue's fields
SIZE_METHODS = frozenset({"size", "dim", "numel", "nelement", "ndimension"})


def is_size(node: cst.BaseExpression) -> bool:
    """`x.shape[-1]`, `x.size(0)`, `x.ndim`, `len(x)`: an expression that reads a size."""
    if isinstance(node, cst.Subscript):
        node = node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value in SIZE_ATTRS
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute):
            return func.attr.value in SIZE_METHODS
        return isinstance(func, cst.Name) and func.value == "len"
    return False


def call_kind(node: cst.Call, env) -> Kind:
    func = node.func
    qualified = env.qualify(func)
    if qualified:
        kind = torch_call_kind(qualified)
        if kind is not None:
            return kind
        if qualified.startswith("builtins."):
            name = qualified[len("builtins."):]
            if name in ("max", "min", "sum", "abs"):
                # `sum(torch.dot(k, g) for k, g in pairs)`: what the comprehension yields
                kinds = [infer(a.value.elt if isinstance(a.value, (cst.GeneratorExp, cst.ListComp)) and not a.keyword
                               else a.value, env) for a in node.args]
                if Kind.TENSOR in kinds and not any(a.star for a in node.args):
                    return Kind.TENSOR  # `min(n, k)` with `n` a tensor: Dynamo computes it as one
                return Kind.VALUE if kinds and all(k == Kind.VALUE for k in kinds) else Kind.UNKNOWN
            attr = self_getattr(node)
            # `getattr(self, "_flag", False)`: the attribute, when the class says what it holds;
            # `getattr(self, f"indices_{s}")`: a buffer registered under that computed name (e2cnn)
            pattern = name_pattern(attr) if isinstance(attr, cst.SimpleString) else computed_name(attr) if attr else None
            if pattern is not None and env.self_attr_kind(pattern) == Kind.TENSOR:
                return Kind.TENSOR
            if name in VALUE_BUILTINS:
                return Kind.VALUE
        if qualified.startswith(("math.", "operator.")):
            return Kind.VALUE
        if qualified == "typing.cast" and node.args and node.args[0].keyword is None:
            # `cast(torch.Tensor, update_prob(step))`: the project says what it holds (pytorch-optimizer's Kron)
            kind = annotation_kind(node.args[0].value, env.qualify)
            if kind is not Kind.UNKNOWN:
                return kind
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        if env.self_attr_kind(func.attr.value) == Kind.MODULE:
            return Kind.LIKELY
    if isinstance(func, cst.Attribute):
        method = func.attr.value
        object_method = getattr(env, "object_method_call", None)
        if object_method is not None and object_method(node):
            return env.open_call(node)  # `solver.t(sigma)`: what `t` returns, not the solver's kind
        assuming = getattr(env, "assuming", None)
        before = set(assuming) if assuming is not None and method in VALUE_METHODS else None
        receiver = infer(func.value, env)
        if receiver.tensorish and method in NON_TENSOR_METHODS:
            return Kind.UNKNOWN  # `name.startswith(...)`: the receiver was no tensor
        if receiver.tensorish:
            if method in VALUE_METHODS and not (method == "type" and node.args):  # `.type(dtype)`: a tensor
                if before is not None:  # `idx.numel()` is a number whatever `idx` turns out to be
                    assuming.intersection_update(before)
                return Kind.VALUE
            if receiver == Kind.LIKELY and (_full_reduction(node, env) or method in STRICT_TENSOR_METHODS
                                            or _dim_keyword(node)):
                return Kind.TENSOR
            if method in OPERAND_METHODS and receiver == Kind.LIKELY and getattr(env, "assuming", None) is not None:
                for arg in node.args:  # `y.dot(s)`, both parameters: a tensor passed for either will do
                    if arg.keyword is None:
                        infer(arg.value, env)
            if method not in TENSOR_API and method[:1] != "_" and hasattr(env, "open_leaf"):
                return env.open_leaf("v", method)  # a tensor subclass's own method (`x.from_forward()`)
            return Kind.UNKNOWN if method == "tolist" else receiver
        if receiver == Kind.MODULE:
            return Kind.LIKELY if method == "forward" else Kind.UNKNOWN
        if receiver == Kind.UNKNOWN and (method in TENSOR_ONLY_METHODS or method in FULL_REDUCTIONS):
            # x.sum() with x unknown: among what compiled code calls, only tensors have these.
            name = dotted(func.value)
            if name is None or not env.is_import(name.split(".")[0]):
                return Kind.TENSOR if _full_reduction(node, env) or method in STRICT_TENSOR_METHODS \
                    or _dim_keyword(node) else Kind.LIKELY
        if receiver == Kind.UNKNOWN and method in OPERAND_METHODS \
                and any(a.keyword is None and infer(a.value, env) == Kind.TENSOR for a in node.args):
            return Kind.LIKELY
        return env.open_call(node)
    if isinstance(func, cst.Name):
        kind = env.name_kind(func.value)
        if kind == Kind.MODULE:
            return Kind.LIKELY
    return env.open_call(node)


def _getter_kind(attr: str, env) -> Kind:
    """`self.ranks_tt`, a `@property` of the class (or a base of this file) walked already, all
    of whose returns are tensors (tntorch's `return torch.tensor([first] + [...])`): a tensor."""
    scope, functions, lineage = getattr(env, "function", None), getattr(env, "functions", None), \
        getattr(env, "local_lineage", None)
    if scope is None or scope.class_name is None or functions is None or lineage is None:
        return Kind.UNKNOWN
    for info in lineage(scope.class_name):
        getter = functions.get(f"{info.qualname}.{attr}")
        if getter is not None:
            return Kind.TENSOR if getter.accessor and getter.ret == "tensor" else Kind.UNKNOWN
    return Kind.UNKNOWN


def _dim_keyword(node: cst.Call) -> bool:
    """`counts.sum(dim=1)`: a reduction given `dim=` by keyword is torch's (NumPy's and pandas'
    take `axis=`; no list, tuple or number has the method)."""
    return node.func.attr.value in TENSOR_ONLY_METHODS and any(
        a.keyword is not None and a.keyword.value == "dim" for a in node.args)


def _full_reduction(node: cst.Call, env) -> bool:
    """`lengths.max()`, `x["mask"].sum()`: a reduction of every element, of what is no NumPy
    array (no int, list or tuple has the method): a 0-d tensor."""
    func = node.func
    if node.args or func.attr.value not in FULL_REDUCTIONS:
        return False
    names = getattr(env, "ndarray_names", None)
    return not (isinstance(func.value, cst.Name) and names is not None and func.value.value in names())


def is_sizes(value: cst.BaseExpression | None) -> bool:
    """`x.shape`, `x.size()`, `x.shape[:2]`: a tuple of ints (`b, n, d = x.shape`)."""
    if isinstance(value, cst.Subscript):
        value = value.value
    if isinstance(value, cst.Call) and not value.args:
        value = value.func
        return isinstance(value, cst.Attribute) and value.attr.value == "size"
    return isinstance(value, cst.Attribute) and value.attr.value == "shape"


def _eq_none_folded(env) -> bool:
    """Whether the target torch gives Python's False for `tensor == None` (the walker knows the
    target; elsewhere no target is known: folded, as on the pinned 2.13)."""
    release = getattr(env, "target_release", None)
    return release is None or release() >= EQ_NONE_FOLDED_FROM


def self_attribute_class_ref(node: cst.BaseExpression, env) -> str | None:
    """The one class `self.<attr>` holds (`self.emp_norm = EmpiricalNormalization(...)`), not a
    container's, a factory's or one of several."""
    scope = env.function
    if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"
            and scope is not None and scope.class_name):
        return None
    ref = held_class_ref(env, scope.class_name, node.attr.value)
    return ref if ref and ref[:1].isalpha() and not any(c in ref for c in ":|") else None


def held_class_ref(env, owner: str, attr: str) -> str | None:
    """What the file's class `owner` (or a base of this file) records `self.<attr>` to hold:
    a class, "A|B", or a container's or factory's mark."""
    return next((info.attr_classes[attr] for info in env.local_lineage(owner) if info.attr_classes.get(attr)), None)
