from compilelint.finding import PENDING_STATE
from compilelint.rules.base import Rule


class ParametersAfterStateChange(Rule):
    code = "CL154"
    name = "parameters-after-state-change"
    summary = "`.parameters()` (or a kin) of a module after the compiled call changed its state and an attribute"
    message = ("`.{read}()` of a module after this compiled call assigned its state, {state}, and a plain attribute, "
               "{plain}: Dynamo will not list the parameters, buffers or submodules of a module with pending "
               "changes and breaks the graph (GB0189)")
    severity = "error"
    gb_id = "GB0189"
    breaks_graph = True
    breaks_callers = False  # it breaks only after what a caller assigned: no loop around a caller is flagged for it
    project_phase = "compilelint.project_rules.cl154_pending"
    help = ("Read the device or dtype from a tensor at hand (`x.device`) or keep it as a plain attribute set in "
            "`__init__`; update parameters and buffers in place (`self.w.data.copy_(...)`, `self.buf.zero_()`) "
            "instead of assigning new ones in the compiled call.")

    VALID = [
        """
import torch
from torch import nn
class Dist(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("buf", torch.zeros(4))
        self.flag = False
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    def forward(self, x):
        y = x.to(self.dtype) * 2  # read before the writes: nothing pending yet
        self.buf = self.buf + 1
        self.flag = True
        return y
""",
        """
import torch
from torch import nn
class Dist(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.flag = False
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    def forward(self, x):
        self.cache = x * 2  # plain attributes only (a tensor not registered as a buffer)
        self.flag = True
        return x.to(self.dtype) * 2
""",
        """
import torch
from torch import nn
class Regularizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("term", torch.zeros(()))
        self.updated = False
    def forward(self, x):
        self.term = self.term + x.sum()
        self.updated = True
        return x
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.regularizer = Regularizer()
    def forward(self, x):
        x = self.regularizer(x)
        # `next()` stops at the first parameter, `lin.weight`, before it reaches the regularizer
        device = next(self.parameters()).device
        return self.lin(x.to(device))
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
class Dist(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("buf", torch.zeros(4))
        self.flag = False
    @property
    def dtype(self):
        return next(self.parameters()).dtype  # expect
    def forward(self, x):
        self.buf = self.buf + 1  # a buffer
        self.flag = True  # and a plain attribute
        return x.to(self.dtype) * 2
""",
        """
import torch
from torch import nn
class Regularizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("term", torch.zeros(()))
        self.updated = False
    def forward(self, x):
        self.term = self.term + x.sum()
        self.updated = True
        return x
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.regularizer = Regularizer()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        x = self.regularizer(x)  # a submodule's state changed
        devices = {p.device for p in self.parameters()}  # expect
        return self.lin(x.to(devices.pop()))
""",
        """
import torch
from torch import nn
def as_parameter(t):  # pomegranate's `_cast_as_parameter`
    return nn.Parameter(t, requires_grad=False)
class Dist(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.loc = as_parameter(torch.zeros(4))
        self.fitted = False
    @property
    def dtype(self):
        return next(self.parameters()).dtype  # expect
    def forward(self, x):
        self.loc = as_parameter(x.mean(0))  # a parameter, made by a helper
        self.fitted = True
        return x.to(self.dtype) * 2
""",
    ]

    def visit_Call(self, node) -> None:
        event = self.ctx.state_read(node)
        if event is not None:  # kept if the project finds state and plain writes before it
            read = node.func.attr.value
            self.report(node, self.message.replace("{read}", read),
                        needs=(f"{PENDING_STATE}{self.ctx.function.qualname}|{event}",))
