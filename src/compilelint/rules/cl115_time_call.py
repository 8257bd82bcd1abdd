import libcst as cst

from compilelint.rules.base import Rule

TIME_FUNCS = frozenset({
    "time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
    "process_time", "process_time_ns", "thread_time", "thread_time_ns", "sleep", "localtime",
    "gmtime", "strftime", "ctime", "asctime", "mktime", "clock_gettime", "clock_gettime_ns",
})
OTHER = frozenset({
    "timeit.default_timer", "datetime.datetime.now", "datetime.datetime.utcnow",
    "datetime.datetime.today", "datetime.date.today", "datetime.now", "datetime.utcnow",
    "datetime.today", "date.today",
})


class TimeCall(Rule):
    code = "CL115"
    name = "time-call"
    message = ("`{name}()` in a compiled region: Dynamo cannot trace the clock and breaks the graph; "
               "the time it measures is not the compiled code's either")
    severity = "error"
    gb_id = "GB0007"
    fix = ("Time the compiled call from outside (with `torch.cuda.synchronize()` on GPU, or "
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

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        module, _, fn = qualified.rpartition(".")
        if (module == "time" and fn in TIME_FUNCS) or qualified in OTHER:
            self.report(node, self.message.format(name=qualified))
