import libcst as cst

from compilelint.rules.base import Rule

FUNCTIONS = frozenset({"warnings.warn", "warnings.warn_explicit", "warnings.simplefilter",
                       "warnings.filterwarnings", "warnings.resetwarnings"})


class WarningsWarn(Rule):
    code = "CL112"
    name = "warnings-warn"
    summary = "`warnings.warn`"
    message = "`{name}()` in a compiled region: Dynamo cannot trace the warnings machinery and breaks the graph"
    severity = "error"
    gb_id = "GB0007"
    help = ("Warn once outside the region (at construction, or before calling the compiled code), or "
           "add `warnings.warn` to `torch._dynamo.config.reorderable_logging_functions` to issue it "
           "after the graph runs.")
    breaks_graph = True

    VALID = [
        """
import warnings
import torch
class M(torch.nn.Module):
    def __init__(self, legacy=False):
        super().__init__()
        if legacy:
            warnings.warn("legacy mode is deprecated", DeprecationWarning)  # __init__: eager
    def forward(self, x):
        if not torch.compiler.is_compiling():
            warnings.warn("eager only")
        return x
""",
        """
import torch
class Checker:
    def warn(self, text):
        pass
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.warnings = Checker()
    def forward(self, x):
        self.warnings.warn("not the warnings module")
        return x
""",
    ]
    INVALID = [
        """
import warnings
from warnings import warn
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is None:
            warnings.warn("no mask given, attending everywhere")  # expect
        if x.dim() == 2:
            warn("2-d input is deprecated", FutureWarning)  # expect
        return x
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified in FUNCTIONS:
            self.report(node, self.message.format(name=qualified))
