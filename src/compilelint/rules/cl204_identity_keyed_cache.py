import libcst as cst

from compilelint.semantic.kinds import Kind
from compilelint.rules.base import Rule


class IdentityKeyedCache(Rule):
    code = "CL204"
    name = "identity-keyed-cache"
    summary = "caches keyed by `id()` / `data_ptr()`"
    message = ("`id()` of a tensor inside the compiled region: Dynamo guards on the object's identity, so "
               "every new tensor recompiles (2.4 breaks the graph instead)")
    severity = "warning"
    gb_id = None
    help = ("Key caches by something stable — shapes, dtype, a step counter — or compute the value "
           "outside the compiled region and pass it in.")

    VALID = [
        """
import torch
_CACHE = {}
class Rope(torch.nn.Module):
    def forward(self, x, pos):
        key = (x.shape[-1], x.dtype, x.device)  # stable key
        if key not in _CACHE:
            _CACHE[key] = torch.arange(x.shape[-1])
        owner = id(self)  # a module: the same object on every call
        return x + _CACHE[key]
def remember(t):  # not compiled
    return id(t), t.data_ptr()
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        x.data_ptr()  # result unused
        return x * 2
""",
    ]
    INVALID = [
        """
import torch
_ROPE_CACHE = {}
@torch.compile
def rope_tables(pos: torch.Tensor, dim: int = 8):
    key = id(pos)  # expect
    if key not in _ROPE_CACHE:
        _ROPE_CACHE[key] = pos.cos()
    return _ROPE_CACHE[key]
""",
        """
import torch
_NORMS = {}
class Norm(torch.nn.Module):
    def forward(self, x):
        key = x.data_ptr()  # expect
        if key not in _NORMS:
            _NORMS[key] = x.norm()
        same = x.untyped_storage().data_ptr() == self.w.data_ptr()  # expect
        return x / _NORMS[key]
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._bare: set[int] = set()

    def visit_Expr(self, node: cst.Expr) -> None:
        self._bare.add(id(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._bare:
            return
        func = node.func
        if self.ctx.qualify(func) == "builtins.id" and len(node.args) == 1:
            if self.ctx.kind(node.args[0].value).tensorish:
                self.report(node)
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "data_ptr" and not node.args:
            receiver = func.value
            storage = isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) \
                and receiver.func.attr.value in ("untyped_storage", "storage")
            kind = self.ctx.kind(receiver)
            if storage or kind.tensorish or (kind == Kind.UNKNOWN and self._tensor_attr(receiver)):
                self.report(node, "`.data_ptr()` inside the compiled region: the address is a Python int that "
                                  "Dynamo guards on (and caches keyed by it grow), so new tensors recompile "
                                  "(2.4 breaks the graph instead)")

    def _tensor_attr(self, node: cst.BaseExpression) -> bool:
        # self.weight, self.w: parameters held by the module
        return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"
