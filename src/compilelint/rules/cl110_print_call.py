import libcst as cst

from compilelint.rules.base import Rule


class PrintCall(Rule):
    code = "CL110"
    name = "print-call"
    summary = "`print()` in a compiled region"
    message = "`print()` in a compiled region: Dynamo cannot trace it and breaks the graph around it"
    severity = "error"
    gb_id = "GB0059"
    help = ("Remove it or move it out of the region; to keep it, add `print` to "
           "`torch._dynamo.config.reorderable_logging_functions` (printed after the graph runs, "
           "tensor and constant arguments only) or guard it with `if not torch.compiler.is_compiling():`.")
    breaks_graph = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        print("building", dim)  # __init__ runs eagerly
        self.proj = torch.nn.Linear(dim, dim)
    def forward(self, x):
        if not torch.compiler.is_compiling():
            print("eager call", x.shape)
        return self.proj(x)
def main():
    model = torch.compile(M(4))
    print(model(torch.randn(2, 4)))  # the caller of the compiled model, not compiled
""",
        """
import torch
from rich.console import Console
console = Console()
class M(torch.nn.Module):
    def forward(self, x, print=None):
        if print is not None:
            print(x)  # a parameter named print, not the builtin
        self.print("step")  # a method, not the builtin
        return x
    def print(self, text):
        pass
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        print("input", x.shape)  # expect
        for layer in self.layers:
            x = layer(x)
            print(x.norm())  # expect
        return x
""",
        """
import sys
import torch
@torch.compile
def step(x):
    print(f"step {x.sum()}", file=sys.stderr)  # expect
    return x * 2
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) == "builtins.print":
            self.report(node)
