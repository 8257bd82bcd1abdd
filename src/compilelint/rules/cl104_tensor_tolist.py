import libcst as cst

from compilelint.semantic.ndarrays import is_ndarray
from compilelint.rules.base import Rule
from compilelint.rules.cl103_tensor_item import method_call, receiver_severity


class TensorTolist(Rule):
    code = "CL104"
    name = "tensor-tolist"
    summary = "`.tolist()` on a tensor"
    message = ("`.tolist()` copies a tensor's values into Python lists: Dynamo cannot trace it "
               "(float tensors) or the values (integer tensors) and breaks the graph")
    severity = "error"
    gb_id = "GB0109"
    help = ("Keep the values in a tensor and index or reduce it there; if Python needs them, read "
           "them after the compiled call returns.")
    breaks_graph = True
    infers_across_functions = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        sizes = list(x.shape)  # shapes are Python values already
        dims = [d for d in x.size()]
        return x.reshape(sizes[0], -1) * len(dims)
""",
        """
import torch
class Decoder(torch.nn.Module):
    def forward(self, ids):
        return self.embed(ids)
def decode(model, ids):
    return model(ids).argmax(-1).tolist()  # outside the compiled region
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, lengths: list):
        total = sum(lengths)  # a Python list parameter
        return x[:, :total]
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, lengths):
        starts = torch.cumsum(lengths, 0).tolist()  # expect
        return [x[s] for s in starts]
""",
        """
import torch
@torch.compile
def tokens(logits):
    ids = logits.argmax(-1)
    return ids.tolist()  # expect
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "tolist")
        if receiver is None or is_ndarray(receiver, self.ctx):
            return  # an ndarray: CL105 reports it
        severity = receiver_severity(self.ctx, receiver)
        if severity is not None:
            self.report(node, severity=severity)
