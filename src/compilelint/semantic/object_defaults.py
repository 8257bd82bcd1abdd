"""Parameters whose default is an object instance (`noise_model=ZeroNoise()`,
`act=nn.ReLU()`, `w=torch.ones(2)`, `f=functools.partial(...)`).

Dynamo builds a class's `__init__` without a source when it traces `Cls(...)` or
`super().__init__(...)`, so a default it has to use is wrapped as a constant; an object
instance is none it knows how to wrap, and it breaks the graph there (GB0116, CL152). A
constant, a tuple, a `torch.device`/`dtype`, a function or a class is wrapped.
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import dotted

# torch calls that return a new tensor (the rest of torch.* is a function or a constant)
TENSOR_FACTORIES = frozenset({
    "tensor", "as_tensor", "from_numpy", "ones", "zeros", "empty", "full", "rand", "randn", "randint",
    "arange", "linspace", "logspace", "eye", "ones_like", "zeros_like", "empty_like", "full_like",
    "Tensor", "FloatTensor", "LongTensor", "BoolTensor", "DoubleTensor", "IntTensor",
})


def object_defaults(node: cst.FunctionDef, qualify) -> tuple[str, ...]:
    """The parameters of `node` (positional or keyword-only) whose default builds an object."""
    params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
    return tuple(p.name.value for p in params if p.default is not None and builds_object(p.default, qualify))


def builds_object(value: cst.BaseExpression, qualify) -> bool:
    """A call that makes an instance: a class of the project or a library (a capitalised
    name), a torch.nn module, a tensor factory, `functools.partial`."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
        return False
    name = qualify(value.func) or dotted(value.func)
    if not name:
        return False
    last = name.rsplit(".", 1)[-1]
    if name == "functools.partial":
        return True
    if name.startswith("torch."):
        if name.startswith("torch.nn.") and last[:1].isupper():
            return True
        return name.count(".") == 1 and last in TENSOR_FACTORIES
    if name.startswith(("builtins.", "typing.", "collections.", "enum.", "dataclasses.", "numpy.")):
        return False
    return last[:1].isupper() and not last.isupper()  # (`DEFAULTS()`-like all-caps: a constant's call)
