from compilelint.rules.base import Rule


class BreakInLoop(Rule):
    """Emitted by the walker next to any graph-breaking finding inside a loop."""

    code = "CL150"
    name = "break-in-loop"
    message = "loop contains a graph break: Dynamo cannot resume inside a loop and runs the whole function eagerly"
    severity = "error"
    gb_id = None
    fix = "Move the breaking call out of the loop, or put the loop body in a function of its own so only that frame falls back."

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        print("done")  # a break, but after the loop
        return x
""",
    ]
    INVALID = [
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
