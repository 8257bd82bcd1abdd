import libcst as cst

from compilelint.rules.base import Rule

PLAIN_TENSOR = frozenset({"torch.Tensor", "torch._tensor.Tensor"})


class UnwrapTensorSubclass(Rule):
    code = "CL165"
    name = "unwrap-tensor-subclass"
    summary = ("`x.as_subclass(torch.Tensor)` (or `torch.Tensor.as_subclass(x, torch.Tensor)`), the idiom that "
               "unwraps a tensor subclass: Dynamo cannot turn a tensor into the plain class")
    message = ("`{call}` turns a tensor into a plain `torch.Tensor`: Dynamo supports `as_subclass` only towards "
               "a subclass (\"must be a non-dispatcher-style tensor subclass\") and breaks the graph")
    severity = "error"
    gb_id = "GB0001"
    help = ("Unwrap outside the compiled region, or keep the subclass: `x.as_subclass(MyTensor)` is traced. "
            "Inside `__torch_function__`, `torch._C.DisableTorchFunctionSubclass()` gives plain results.")
    breaks_graph = True

    VALID = [
        """
import torch
class Rotation(torch.Tensor):
    pass
@torch.compile
def f(x):
    r = x.as_subclass(Rotation)  # towards a subclass: traced
    s = torch.Tensor.as_subclass(x, Rotation)
    return r * 2 + s
""",
    ]
    INVALID = [
        """
import torch
from torch import Tensor
@torch.compile
def f(x):
    plain = x.as_subclass(Tensor)  # expect
    other = torch.Tensor.as_subclass(x, cls=torch.Tensor)  # expect
    return plain * 2 + other
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.ctx.function is None or not (isinstance(func, cst.Attribute) and func.attr.value == "as_subclass"):
            return
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        unbound = self.ctx.qualify(func.value) in PLAIN_TENSOR  # `torch.Tensor.as_subclass(x, cls)`
        target = positional[1] if unbound and len(positional) > 1 else positional[0] if positional and not unbound \
            else next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "cls"), None)
        if target is not None and self.ctx.qualify(target) in PLAIN_TENSOR:
            call = "torch.Tensor.as_subclass(..., torch.Tensor)" if unbound else ".as_subclass(torch.Tensor)"
            self.report(node, self.message.format(call=call))
