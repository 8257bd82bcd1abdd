import libcst as cst

from compilelint.rules.base import Rule


class CompileBeforeLoadStateDict(Rule):
    code = "CL301"
    name = "compile-before-load-state-dict"
    summary = "compile, then `load_state_dict`/`state_dict()` on the compiled object"
    message = ("`{method}()` on the object `torch.compile` returned: its keys carry an `_orig_mod.` prefix, "
               "so loading a plain checkpoint raises (or, with strict=False, silently loads nothing)")
    severity = "error"
    gb_id = None
    fix = ("Load (and save) through the original module: load the checkpoint before compiling, "
           "or compile in place with `model.compile()`, which keeps the keys.")
    region_only = False
    fixable = True

    VALID = [
        """
import torch
model = Net()
model.load_state_dict(torch.load("ckpt.pt"))
model = torch.compile(model)
""",
        """
import torch
model = Net()
model.compile()
model.load_state_dict(torch.load("ckpt.pt"))
torch.save(model.state_dict(), "out.pt")
""",
        """
import torch
def train(model):
    fast = torch.compile(model)
    model.load_state_dict(torch.load("ckpt.pt"))  # the original module: keys unchanged
    torch.save(fast._orig_mod.state_dict(), "out.pt")
""",
    ]
    INVALID = [
        """
import torch
model = Net()
model = torch.compile(model)
model.load_state_dict(torch.load("ckpt.pt"))  # expect
""",
        """
import torch
class Trainer:
    def __init__(self, model):
        self.model = torch.compile(model)
    def save(self, path):
        torch.save(self.model.state_dict(), path)  # expect
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("load_state_dict", "state_dict"):
            if self.ctx.compiled_state(func.value) == "optimized":
                self.report(node, self.message.format(method=func.attr.value))
