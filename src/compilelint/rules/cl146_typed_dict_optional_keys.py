from compilelint.finding import CLASS
from compilelint.rules.base import Rule


class TypedDictOptionalKeys(Rule):
    code = "CL146"
    name = "typed-dict-optional-keys"
    summary = "builds a TypedDict with optional keys (`total=False`, `NotRequired`) in the compiled region"
    message = ("builds `{cls}`, a TypedDict with optional keys: Dynamo does not trace the constructor of a "
               "TypedDict whose keys may be missing, and breaks the graph (GB0257)")
    severity = "error"
    gb_id = "GB0257"
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl146_typed_dict"
    help = ("Build a plain dict instead: `msg: Message = {\"type\": \"sample\", ...}` is the same dict at run "
            "time, the annotation keeps the type checker's view, and Dynamo traces a dict display.")

    VALID = [
        """
import torch
from typing import TypedDict
class Step(TypedDict):  # every key required
    scale: float
    value: torch.Tensor
class M(torch.nn.Module):
    def forward(self, x):
        step = Step(scale=2.0, value=x)
        return step["value"] * step["scale"]
""",
        """
import torch
from typing import TypedDict
class Message(TypedDict, total=False):
    name: str
    value: torch.Tensor
class Record:  # a plain class: built like any object
    def __init__(self, value):
        self.value = value
class M(torch.nn.Module):
    def forward(self, x):
        msg: Message = {"name": "x", "value": x}  # a dict display: traced
        return msg["value"] + Record(x).value
""",
    ]

    INVALID = [
        """
import torch
from typing import NotRequired, TypedDict
class Message(TypedDict, total=False):
    name: str
    value: torch.Tensor
class Site(TypedDict):
    name: str
    mask: NotRequired[torch.Tensor]
class Sample(Message):  # optional keys through its base
    scale: float
class M(torch.nn.Module):
    def forward(self, x):
        msg = Message(name="x", value=x)  # expect
        site = Site(name="y")  # expect
        sample = Sample(name="z", value=x, scale=2.0)  # expect
        return msg["value"] + sample["value"] * sample["scale"]
""",
    ]

    def visit_Call(self, node) -> None:
        index = self.ctx.class_call(node)
        if index is not None:  # which class it is, and whether its keys may be missing: the project decides
            self.report(node, needs=(f"{CLASS}{self.ctx.function.qualname}|{index}",))
