import libcst as cst

from compilelint.rules.base import Rule
from compilelint.semantic.kinds import Kind, dotted

# what Dynamo refuses to set on a tensor it traces: the views of a complex tensor (GB0058).
# `.grad`, a project's own attribute, in-place ops on the views (`c.real.add_(1)`) and
# `.data` of a parameter or an input are traced (`.data` of an intermediate breaks, GB0056:
# not told apart here)
REFUSED = frozenset({"real", "imag"})


class TensorAttributeSet(Rule):
    code = "CL157"
    name = "tensor-attribute-set"
    summary = "`t.real = ...`, `t.imag += ...` on a tensor in a region"
    message = ("setting `{target}` in a compiled region: Dynamo cannot set a tensor's `.{attr}` while tracing "
               "and breaks the graph")
    severity = "error"
    gb_id = "GB0058"
    help = "Build a new tensor instead, `torch.complex(c.real + 1, c.imag)`, or work in place on the view, `c.real.add_(1)`."
    breaks_graph = True

    VALID = [
        """
import torch
class Shift(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(4))
        self.scale.data = self.scale.data * 2
    def forward(self, x):
        c = torch.fft.fft(x)
        c.real.add_(1)  # in place on the view: traced
        self.scale.grad = None  # `.grad` is traced
        y = x * 2
        y.tag = "scaled"  # a project's own attribute: traced
        self.scale.data = self.scale.data.clamp(0, 1)  # a parameter's `.data`: traced
        return torch.complex(c.real + 1, c.imag).abs() + y
""",
        """
import torch
class Config:
    def __init__(self):
        self.data = None
class Reader(torch.nn.Module):
    def forward(self, x, config: Config):
        config.data = x.shape  # a Python object, not a tensor
        return x
""",
    ]
    INVALID = [
        """
import torch
import torch.nn.functional as F
class Cepstrum(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(4))
    def forward(self, x):
        c = torch.fft.fft(F.pad(x, (1, 0)))
        c.real += 1  # expect
        c.imag = c.imag * 0.5  # expect
        return c.abs() * self.weight
""",
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._check(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node.target)

    def _check(self, target: cst.BaseExpression) -> None:
        if not (isinstance(target, cst.Attribute) and target.attr.value in REFUSED):
            return
        if self.ctx.kind(target.value) not in (Kind.TENSOR, Kind.LIKELY):
            return
        attr = target.attr.value
        self.report(target, self.message.format(target=dotted(target) or f"….{attr}", attr=attr))
