from compilelint.rules.base import Rule


class BreakInLoop(Rule):
    """A loop holding a graph break. Two places make it: the walk, next to a graph-breaking
    finding inside a loop of the same function (`analysis.assemble`), and the project phase
    `compilelint.project_rules.cl150_calls`, for a loop that calls a function that breaks
    (in any file), through call sites whose arguments reach the break."""

    code = "CL150"
    name = "break-in-loop"
    summary = "a graph break inside a `for`/`while` of a compiled frame: the whole frame runs eagerly"
    message = "loop contains a graph break: Dynamo cannot resume inside a loop and runs the whole function eagerly"
    severity = "error"
    gb_id = "GB7000"
    project_phase = "compilelint.project_rules.cl150_calls"
    help = "Move the breaking call out of the loop, or put the loop body in a function of its own so only that frame falls back."

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        x = torch._dynamo.graph_break() or x  # a break, but after the loop
        return x
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        y = self.lin(x)
        if y.abs().max() > 50:  # the break is here, in another frame
            y = y.clamp(-50, 50)
        return y
class Net(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(depth)])
    def forward(self, x):
        for blk in self.blocks:  # expect
            x = blk(x)
        for i in range(len(self.blocks)):  # expect
            x = self.refine(x, i)
        return x
    def refine(self, x, i):
        return self.blocks[i](x)
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        for layer in self.layers:  # expect
            x = layer(x)
            if x.abs().max() > 1e4:
                x = x / x.abs().max()
        return x
""",
    ]
