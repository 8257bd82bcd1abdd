import libcst as cst

from compilelint.semantic.kinds import Kind
from compilelint.semantic.ndarrays import is_ndarray, numpy_value
from compilelint.rules.base import Rule


def method_call(node: cst.Call, name: str) -> cst.BaseExpression | None:
    """The receiver of `receiver.name()` called with no positional arguments, else None."""
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == name and \
            not any(a.keyword is None for a in node.args):
        return func.value
    return None


def receiver_severity(ctx, receiver: cst.BaseExpression) -> str | None:
    """error for a tensor, warning for a likely or unknown receiver (among what compiled code
    calls, only tensors and NumPy arrays have these methods), None for Python values."""
    kind = ctx.kind(receiver)
    if kind == Kind.TENSOR:
        return "error"
    if kind in (Kind.VALUE, Kind.MODULE):
        return None
    if isinstance(receiver, cst.Name) and ctx.is_import(receiver.value):
        return None  # a module's function named like the method
    if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls"):
        return None
    return "warning"


class TensorItem(Rule):
    code = "CL103"
    name = "tensor-item"
    summary = "`.item()` on a tensor"
    message = ("`.item()` copies a tensor's value to Python: Dynamo cannot trace the value and "
               "breaks the graph (and syncs with the device)")
    severity = "error"
    gb_id = "GB0124"
    help = ("Keep the value as a tensor (`x.sum()`, not `x.sum().item()`), move the read out of the "
           "region, or set `torch._dynamo.config.capture_scalar_outputs = True` to trace it.")
    breaks_graph = True
    infers_across_functions = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mapping: dict):
        for key, value in mapping.items():  # dict.items(), not Tensor.item()
            x = x + value
        return x * x.shape[0]
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x.sum()
    def training_step(self, batch):
        loss = self(batch)
        self.last = loss.item()  # not compiled: nothing compiled calls training_step
        return loss
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            print(x.mean().item())  # runs only eagerly
        return x * 2
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return self._stats(x) + x
    @torch.compiler.disable
    def _stats(self, x):
        self.peak = x.abs().max().item()  # under torch.compiler.disable: runs eagerly
        return 0
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, n: int = 3):
        steps = x.size(0)
        return x * float(n) * steps
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, batch, path=None):
        if 0 in x.shape or "mask" not in batch:  # a size tuple; a mapping's keys
            return x
        if path is not None:
            ckpt = torch.load(path)  # whatever was saved: a checkpoint's dict
            if "state_dict" in ckpt:
                x = x + 1
        return x * batch["mask"]
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        scale = x.abs().max().item()  # expect
        return x / scale
""",
        """
import torch
import torch.nn.functional as F
@torch.compile
def step(model, batch, target):
    loss = F.cross_entropy(model(batch), target)
    value = loss.item()  # expect
    acc = (model(batch).argmax(-1) == target).float().mean().item()  # expect
    return loss, value, acc
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        out = self.helper(x)
        return x * out.item()  # expect
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, y):
        peak = y.abs().amax(dim=1)
        if 0 in peak:  # expect
            peak = peak + 1e-12
        return y / peak
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "item")
        if receiver is None or is_ndarray(receiver, self.ctx) or numpy_value(receiver, self.ctx):
            return  # an ndarray or a NumPy value: CL105 reports it
        named = receiver.value if isinstance(receiver, cst.Name) else None
        severity = receiver_severity(self.ctx, receiver)
        if severity is not None:
            self.report(node, severity=severity)
            if named is not None:
                self.ctx.note_number_read(named)  # (`.item()` breaks even on an input: only noted)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        """`0 in peak`: `Tensor.__contains__` reads its answer with `.item()` (GB0124)."""
        for target in node.comparisons:
            if isinstance(target.operator, (cst.In, cst.NotIn)) and self.ctx.kind(target.comparator) == Kind.TENSOR:
                self.report(node, "a membership test (`in`) on a tensor: `Tensor.__contains__` copies its answer "
                                  "to Python with `.item()`, so Dynamo breaks the graph")
                return
