import libcst as cst

from compilelint.rules.base import Rule

DEBUGGERS = frozenset({
    "builtins.breakpoint", "pdb.set_trace", "pdb.post_mortem", "pdb.pm", "pdb.run",
    "ipdb.set_trace", "ipdb.post_mortem", "pudb.set_trace", "IPython.embed",
    "IPython.terminal.embed.embed", "code.interact", "debugpy.breakpoint", "pydevd.settrace",
    "remote_pdb.set_trace", "web_pdb.set_trace",
})


class DebuggerCall(Rule):
    code = "CL113"
    name = "debugger-call"
    summary = "`breakpoint()`, `pdb.set_trace()`"
    message = "`{name}()` in a compiled region: Dynamo cannot trace a debugger and breaks the graph (and the stop is left in the code)"
    severity = "error"
    gb_id = "GB0059"
    help = ("Remove it before compiling; to debug compiled code, run eagerly (`torch.compiler.disable` "
           "or `TORCH_COMPILE_DISABLE=1`) or use `TORCH_LOGS=graph_breaks`.")
    breaks_graph = True

    VALID = [
        """
import pdb
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
def debug_run(model, x):
    pdb.set_trace()  # not compiled
    return model(x)
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, breakpoint=None):
        if breakpoint is not None:
            breakpoint(x)  # a parameter, not the builtin
        return x
""",
    ]
    INVALID = [
        """
import pdb
import torch
class M(torch.nn.Module):
    def forward(self, x):
        breakpoint()  # expect
        y = x * 2
        pdb.set_trace()  # expect
        import ipdb; ipdb.set_trace()  # expect
        return y
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified in DEBUGGERS:
            self.report(node, self.message.format(name=qualified.removeprefix("builtins.")))
