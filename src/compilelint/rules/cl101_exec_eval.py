import libcst as cst

from compilelint.rules.base import Rule

BUILTINS = {"builtins.exec": "exec", "builtins.eval": "eval", "builtins.compile": "compile"}


class ExecEval(Rule):
    code = "CL101"
    name = "exec-eval"
    summary = "`exec`, `eval` or builtin `compile` in a compiled region"
    message = "`{name}()` in a compiled region: Dynamo cannot trace it and breaks the graph"
    severity = "error"
    gb_id = "GB0059"
    help = "Build the code ahead of time (a function, a dict of callables, functools.partial) instead of running source strings."
    breaks_graph = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return self.fn(x)
    def build(self):
        self.fn = eval("lambda x: x + 1")  # not compiled: build() runs eagerly
""",
        """
import re
import torch
class M(torch.nn.Module):
    def forward(self, x):
        pattern = re.compile("a+")  # re.compile, not the builtin
        return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, eval=None):
        return eval(x)  # a parameter named eval, not the builtin
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return eval("x * 2")  # expect
""",
        """
import torch
@torch.compile
def step(x, code):
    exec(code)  # expect
    return x
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        name = BUILTINS.get(self.ctx.qualify(node.func) or "")
        if name:
            self.report(node, self.message.format(name=name))
