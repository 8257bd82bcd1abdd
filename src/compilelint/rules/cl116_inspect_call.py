import libcst as cst

from compilelint.rules.base import Rule

# Measured on torch 2.11 and 2.13: these break (frames: sys._getframe; source: file reads;
# members: dir()). signature, getfullargspec, getcallargs, is*, unwrap, getmodule are traced.
BREAKING = frozenset({
    "stack", "currentframe", "getframeinfo", "getouterframes", "getinnerframes", "trace",
    "getsource", "getsourcelines", "getsourcefile", "getfile", "getabsfile", "findsource",
    "getcomments", "getmembers", "getmembers_static", "getdoc", "cleandoc", "getattr_static",
})
OTHER = frozenset({"sys._getframe", "sys._current_frames", "traceback.extract_stack",
                   "traceback.format_stack", "traceback.print_stack",
                   "builtins.dir"})  # measured on 2.11, 2.13, 2.14.1: `dir(obj)` of any object, GB0059


class InspectCall(Rule):
    code = "CL116"
    name = "inspect-call"
    summary = "`inspect.*` calls"
    message = ("`{name}()` in a compiled region reads frames, source files or `dir()`: Dynamo cannot "
               "trace it and breaks the graph")
    severity = "error"
    gb_id = "GB0007"
    help = ("Do the introspection once, outside the region (in `__init__` or at import), and keep the "
           "result; `inspect.signature` and `inspect.is*` are fine.")
    breaks_graph = True

    VALID = [
        """
import inspect
import torch
class M(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.src = inspect.getsource(fn)  # __init__: eager
    def forward(self, x, **kwargs):
        params = inspect.signature(self.fn).parameters  # traced
        if inspect.isfunction(self.fn) and "scale" in params:
            x = x * 2
        return self.fn(x)
""",
        """
import torch
class Solve(torch.nn.Module):
    def forward(self, a, b):
        if "cholesky_ex" in dir(torch.linalg):  # a module's names: traced
            return torch.cholesky_solve(b, torch.linalg.cholesky_ex(a).L)
        return torch.linalg.solve(a, b)
""",
    ]
    INVALID = [
        """
import inspect
import sys
import torch
class M(torch.nn.Module):
    def forward(self, x):
        caller = inspect.stack()[1].function  # expect
        frame = sys._getframe(1)  # expect
        here = inspect.currentframe()  # expect
        return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        names = [a for a in dir(self) if a.startswith("scale")]  # expect
        return x * len(names) + hasattr(self, "scale")
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        module, _, fn = qualified.rpartition(".")
        if qualified == "builtins.dir" and node.args and self._module(node.args[0].value):
            return  # `dir(torch.linalg)`: a module's names, which Dynamo reads while tracing
        if (module == "inspect" and fn in BREAKING) or qualified in OTHER:
            self.report(node, self.message.format(name=qualified.removeprefix("builtins.")))

    def _module(self, node: cst.BaseExpression) -> bool:
        """A module an `import` binds (`np`, `torch`), or a lowercase path into one (`torch.linalg`)."""
        while isinstance(node, cst.Attribute) and node.attr.value.islower():
            node = node.value
        return isinstance(node, cst.Name) and "." not in self.ctx.imports.get(node.value, ".")
