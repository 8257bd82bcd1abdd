import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.rules.base import Rule

class TimeCall(Rule):
    code = "CL115"
    name = "time-call"
    summary = "`time.*` calls"
    message = ("`{name}()` in a compiled region: Dynamo cannot trace the clock and breaks the graph; "
               "the time it measures is not the compiled code's either")
    severity = "error"
    gb_id = "GB0007"
    help = ("Time the compiled call from outside (with `torch.cuda.synchronize()` on GPU, or "
           "`torch.profiler`), or wrap the timed helper in `torch.compiler.disable`.")
    breaks_graph = True

    VALID = [
        """
import time
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
def bench(model, x):
    start = time.perf_counter()  # the caller of the compiled model: not compiled
    model(x)
    return time.perf_counter() - start
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, time: float = 0.0):
        return x * time  # a parameter named time
""",
    ]
    INVALID = [
        """
import time
from time import perf_counter
import torch
class M(torch.nn.Module):
    def forward(self, x):
        t0 = time.time()  # expect
        y = x.relu()
        self.elapsed = perf_counter() - t0  # expect
        return y
""",
        """
import datetime
import torch
@torch.compile
def stamp(x):
    return x, datetime.datetime.now()  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._known = knowledge.table(self.code, torch_version(walker.settings))  # time.*, datetime.now, ...

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if self._known.get(qualified) is not None:
            self.report(node, self.message.format(name=qualified))
