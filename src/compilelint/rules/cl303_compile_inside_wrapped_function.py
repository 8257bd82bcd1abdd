import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import calls_in, is_compile_call, names_in, target_names
from compilelint.rules.base import Rule
from compilelint.traverse import iter_nodes

SETUP_NAMES = ("__init__", "setup", "build", "make", "create", "get_", "load", "main", "compile", "_compile",
               "wrap", "init", "prepare", "configure", "test_", "benchmark", "bench")


class CompileInsideWrappedFunction(Rule):
    code = "CL303"
    name = "compile-inside-wrapped-function"
    summary = "`torch.compile` inside the function it should wrap"
    message = ("`torch.compile` inside `{function}`, whose own arguments are passed to what it compiles: "
               "every call wraps again ({why})")
    severity = "warning"
    gb_id = None
    help = ("Compile once — at module level, in `__init__`, or by decorating the function with "
           "`@torch.compile` — and call the compiled object; pass changing values as arguments rather than "
           "closing over them.")
    region_only = False

    VALID = [
        """
import torch
def attention_core(q, k, v):
    return torch.softmax(q @ k.transpose(-1, -2), -1) @ v
compiled_attention = torch.compile(attention_core)
def attention_step(q, k, v):
    return compiled_attention(q, k, v)
""",
        """
import torch
class Trainer:
    def __init__(self, model):
        self.model = torch.compile(model)
def build(model, example):
    fast = torch.compile(model)
    fast(example)  # warm-up
    return fast
def benchmark(model, x, n=100):
    fast = torch.compile(model)
    for _ in range(n):
        fast(x)
""",
        """
import torch
def main():
    model = Net()
    x = torch.randn(4, 8)
    out = torch.compile(model)(x)  # a script's entry point: called once
    return out
""",
    ]
    INVALID = [
        """
import torch
def attention_step(q, k, v):
    fn = torch.compile(attention_core)  # expect
    return fn(q, k, v)
""",
        """
import torch
def score(batch, weight):
    def body(x):
        return (x * weight).sum(-1)
    return torch.compile(body)(batch)  # expect
""",
        """
import torch
class Block(torch.nn.Module):
    def forward(self, x):
        return torch.compile(self.inner)(x)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._direct: dict[int, cst.Call] = {}  # id(torch.compile call) -> the call of its result

    def visit_Call(self, node: cst.Call) -> None:
        if is_compile_call(self.ctx, node.func):
            self._direct[id(node.func)] = node
        if not is_compile_call(self.ctx, node) or not node.args:
            return
        scope = self.ctx.function
        if scope is None or self.ctx.loops or scope.node is None:
            return  # module level, or in a loop (CL302)
        name = scope.qualname.rsplit(".", 1)[-1]
        if name.lower().startswith(SETUP_NAMES):
            return
        params = {p for p in scope.params if p not in ("self", "cls")}
        target = dotted(node.args[0].value)
        if target and target.split(".")[-1] == name:
            self.report(node, self.message.format(function=name, why="it compiles itself"))
            return
        calls: list[cst.Call] = []
        if id(node) in self._direct:
            calls = [self._direct[id(node)]]
        else:
            bound = self._bound_name(scope.node, node)
            if bound is None or self._escapes(scope.node, bound):
                return
            calls = calls_in(scope.node.body, bound)
            if len(calls) != 1 or self._in_loop(scope.node, calls[0]):
                return  # called repeatedly here: compiled once per run of a driver
        if not any(names_in(arg.value) & params for call in calls for arg in call.args):
            return
        self.report(node, self.message.format(
            function=name, why="a new wrapper costs about 0.5-3 ms before the call runs, and a closure over "
                               "changing values recompiles each time"))

    def _bound_name(self, func: cst.FunctionDef, call: cst.Call) -> str | None:
        for sub in iter_nodes(func.body, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef))):
            if isinstance(sub, cst.Assign) and sub.value is call and len(sub.targets) == 1:
                names = target_names(sub.targets[0].target)
                return names[0] if len(names) == 1 else None
        return None

    def _escapes(self, func: cst.FunctionDef, name: str) -> bool:
        """Returned, stored or handed on: the function is a factory, not a per-call wrapper."""
        for sub in iter_nodes(func.body, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef))):
            if isinstance(sub, cst.Return) and sub.value is not None and name in target_names(sub.value):
                return True
            if isinstance(sub, (cst.Return, cst.Yield)) and isinstance(sub.value, cst.Name) and sub.value.value == name:
                return True
            if isinstance(sub, cst.Assign) and isinstance(sub.value, cst.Name) and sub.value.value == name:
                return True
            if isinstance(sub, cst.Arg) and isinstance(sub.value, cst.Name) and sub.value.value == name:
                return True
        return False

    def _in_loop(self, func: cst.FunctionDef, call: cst.Call) -> bool:
        for sub in iter_nodes(func.body, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef))):
            if isinstance(sub, (cst.For, cst.While)) and any(n is call for n in iter_nodes(sub.body)):
                return True
        return False
