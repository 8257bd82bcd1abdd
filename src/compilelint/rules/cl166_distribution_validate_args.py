import libcst as cst

from compilelint.rules.base import Rule


class DistributionValidateArgs(Rule):
    code = "CL166"
    name = "distribution-validate-args"
    summary = "a `torch.distributions` distribution built with `validate_args=True` in a region"
    message = ("`{name}(..., validate_args=True)` in a compiled region: validating the arguments calls "
               "`constraints.is_dependent`, which Dynamo skips, and the graph breaks")
    severity = "error"
    gb_id = "GB0007"
    help = ("Leave `validate_args` at its default (or `False`) in compiled code, and validate once outside "
            "the region: `torch.distributions.Distribution.set_default_validate_args(True)` in a test.")
    breaks_graph = True

    VALID = [
        """
import torch
from torch.distributions import Normal, Uniform
class Gain(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.dist = Uniform(torch.tensor(0.5), torch.tensor(2.0), validate_args=True)  # __init__: eager
    def forward(self, x):
        low = Uniform(torch.tensor(0.0), torch.tensor(1.0))  # the default: traced
        noise = Normal(x, 1.0, validate_args=False)
        return x * low.sample() + noise.rsample()
""",
    ]
    INVALID = [
        """
import torch
import torch.distributions as D
class Gain(torch.nn.Module):
    def forward(self, x):
        gain = D.Uniform(torch.tensor(0.5), torch.tensor(2.0), validate_args=True).sample()  # expect
        return x * gain
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if self.ctx.function is None or not qualified.startswith("torch.distributions."):
            return
        name = qualified.rsplit(".", 1)[-1]
        if name[:1].isupper() and any(a.keyword is not None and a.keyword.value == "validate_args"
                                      and isinstance(a.value, cst.Name) and a.value.value == "True" for a in node.args):
            self.report(node, self.message.format(name=name))
