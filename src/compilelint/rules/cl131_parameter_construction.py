import libcst as cst

from compilelint.rules._callsite import arg_value, target_version
from compilelint.rules.base import Rule
from compilelint.semantic.facts import facts_of

PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# torch.nn layers whose constructor creates Parameters.
LAYERS = frozenset({
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
    "ConvTranspose2d", "ConvTranspose3d", "Embedding", "EmbeddingBag", "LayerNorm", "GroupNorm",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "RMSNorm", "PReLU", "MultiheadAttention",
    "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell", "Transformer",
    "TransformerEncoderLayer", "TransformerDecoderLayer",
})


class ParameterConstruction(Rule):
    code = "CL131"
    name = "parameter-construction"
    summary = "`nn.Parameter(...)` in a region"
    message = ("`nn.Parameter(...)` built inside the compiled region: Dynamo does not support creating "
               "parameters while tracing and breaks the graph")
    severity = "error"
    gb_id = "GB0264"
    help = ("Create parameters (and the layers that own them) in `__init__`, or lazily outside the compiled "
           "call; in forward, use the tensor itself.")
    breaks_graph = True

    VALID = [
        """
import torch
import torch.nn as nn
class RMSNorm(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))  # __init__: not compiled
        self.proj = nn.Linear(hidden_size, hidden_size)
    def _init_weights(self):
        self.bias = nn.Parameter(torch.zeros(3))
    def forward(self, x, w):
        p = nn.Parameter(w)  # a graph input: traced
        w = nn.Parameter(w)  # rebinds `w` only with the parameter built from it
        q = nn.Parameter(self.weight)  # an attribute: traced
        return self.proj(x) * self.weight * p * q
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
class LazyBias(nn.Module):
    def forward(self, x):
        if self.bias is None:
            self.bias = nn.Parameter(torch.zeros(x.shape[-1]))  # expect
        w = torch.randn(x.shape[-1])
        scale = torch.nn.Parameter(w, requires_grad=False)  # expect
        head = nn.Linear(x.shape[-1], 2)  # expect
        return head(x + self.bias) * scale
""",
        """
import torch
class Reinit(torch.nn.Module):
    def forward(self, x):
        fresh = torch.nn.Parameter(self.weight.data)  # expect
        return x * fresh
""",
    ]

    _assigned: tuple[int, set[int]] | None = None  # (id of an assignment's value, ids of its target names)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._assigned = (id(node.value), {id(t.target) for t in node.targets})

    def leave_Assign(self, node: cst.Assign) -> None:
        self._assigned = None  # (no state left between statements: the incremental walk compares it)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified in PARAMETER:
            data = arg_value(node, 0, "data")
            if data is None:
                return
            if isinstance(data, cst.Attribute) and data.attr.value == "data":
                self.report(node, "`nn.Parameter(t.data)` inside the compiled region: Dynamo cannot build a "
                                  "parameter from `.data` and breaks the graph", )
                return
            if target_version(self.ctx) < (2, 9):
                return  # 2.4-2.8 trace the constructor
            if self._has_source(data, node):
                return  # a graph input or attribute: traced (2.9+ inserts it as a graph input)
            self.report(node)
            return
        if qualified.startswith("torch.nn.") and qualified.rsplit(".", 1)[-1] in LAYERS \
                and not qualified.startswith(("torch.nn.functional.", "torch.nn.init.")):
            layer = qualified.rsplit(".", 1)[-1]
            self.report(node, f"`nn.{layer}(...)` constructed inside the compiled region: its parameters are "
                              "created while tracing, which Dynamo does not support (graph break; an error on 2.4)")

    def _has_source(self, data: cst.BaseExpression, call: cst.Call) -> bool:
        scope = self.ctx.function
        if isinstance(data, cst.Name):
            if scope is None or data.value not in scope.params:
                return False
            # `value = _cast_as_tensor(value)` before it: a tensor the function made, not the input
            # (`value = nn.Parameter(value)` itself binds it after the call)
            facts = facts_of(scope)
            own = self._assigned[1] if self._assigned and self._assigned[0] == id(call) else set()
            binders = [n for n in facts.binders(data.value) if isinstance(n, cst.Name) and id(n) not in own] \
                if facts is not None else []
            return not binders or facts.all_after(binders, call)
        node = data
        while isinstance(node, cst.Attribute):
            node = node.value
        return isinstance(node, cst.Name) and node.value == "self"
