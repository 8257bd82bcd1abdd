import re

import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.semantic.kinds import Kind
from compilelint.rules._callsite import NdarrayNames, arg_value, captures_dynamic_output_shapes, has_keyword
from compilelint.rules.base import Rule

TENSOR = "torch.Tensor."  # the table's names of tensor methods
# `repeats` names that are ints in practice (`repeat_interleave(n_rep, dim=1)`).
INT_NAME = re.compile(
    r"^(n|k|num|count|times|factor|rep|reps|repeat|groups|n_rep)$|^(n|num)_|"
    r"_(size|num|count|groups|factor|heads|rep|reps|times|len|dim|per_\w+)$")


class DynamicShapeOp(Rule):
    code = "CL120"
    name = "dynamic-shape-op"
    summary = "`nonzero`, `unique`, `masked_select`, one-argument `torch.where`, `repeat_interleave` without `output_size`"
    message = ("`{op}` returns a tensor whose size depends on the input's values: Dynamo cannot "
               "trace it and breaks the graph")
    severity = "error"
    gb_id = "GB0036"
    help = ("Keep shapes static: `torch.where(cond, a, b)` or multiply by the mask instead of selecting, "
           "`nonzero_static(x, size=n)`, `repeat_interleave(..., output_size=n)`, `bincount(x, minlength=n)` "
           "as a one-hot sum; or set `torch._dynamo.config.capture_dynamic_output_shape_ops = True`.")
    breaks_graph = True
    infers_across_functions = True

    VALID = [
        """
import torch
class Router(torch.nn.Module):
    def forward(self, x, scores):
        keep = scores > 0
        y = torch.where(keep, x, torch.zeros_like(x))  # three arguments: static shape
        y = y * keep.float()  # masking by multiplication
        idx = torch.nonzero_static(keep.flatten(), size=4)
        top = torch.topk(scores, 2).indices
        n = torch.count_nonzero(keep)
        hot = torch.nn.functional.one_hot(top, num_classes=8)  # the class count is given
        return y, idx, top, n, hot
""",
        """
import torch
class Expand(torch.nn.Module):
    def __init__(self, n_rep):
        super().__init__()
        self.n_rep = n_rep
    def forward(self, h, durations):
        a = h.repeat_interleave(2, dim=0)  # int repeats: static
        b = h.repeat_interleave(self.n_rep, dim=1)
        c = torch.repeat_interleave(h, durations, dim=0, output_size=8)
        return a, b, c
def kv(hidden_states, n_rep: int, num_groups):
    x = hidden_states.repeat_interleave(n_rep, dim=1)
    return x.repeat_interleave(num_groups, dim=1)
class Pool(torch.nn.Module):
    def forward(self, x, ptr, sizes):
        counts = sizes[1:] + sizes[:-1]  # not a difference of offsets
        y = torch.repeat_interleave(x, ptr[1:] - ptr[:-1], dim=0, output_size=16)  # the size is given
        return y, x.repeat_interleave(len(ptr[1:]) - 1, dim=0), counts
""",
        """
import torch
torch._dynamo.config.capture_dynamic_output_shape_ops = True
class M(torch.nn.Module):
    def forward(self, x):
        return x[x.nonzero(as_tuple=True)]  # captured: the flag is on in this file
""",
        """
import torch
def stats(labels):  # not compiled: runs eagerly
    return torch.unique(labels), labels.nonzero()
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
""",
    ]
    INVALID = [
        """
import torch
class MoE(torch.nn.Module):
    def forward(self, x, expert_mask):
        choice = self.router(x).argmax(-1)
        idx = (choice == 0).nonzero().squeeze(-1)  # expect
        rows, cols = torch.where(expert_mask)  # expect
        hit = torch.greater(expert_mask.sum(-1), 0).nonzero()  # expect
        present = torch.unique(choice)  # expect
        return idx, rows, cols, hit, present
""",
        """
import torch
@torch.compile
def f(scores: torch.Tensor, labels: torch.Tensor, h: torch.Tensor, durations: torch.Tensor):
    pos = torch.masked_select(scores, labels.bool())  # expect
    counts = torch.bincount(labels, minlength=10)  # expect
    where = torch.argwhere(scores > 0)  # expect
    runs = labels.unique_consecutive()  # expect
    long = h.repeat_interleave(durations, dim=0)  # expect
    alt = torch.repeat_interleave(durations)  # expect
    hot = torch.nn.functional.one_hot(labels)  # expect
    return pos, counts, where, runs, long, alt, hot
""",
        """
import torch
class LengthRegulator(torch.nn.Module):
    def forward(self, h, durations):
        return h.repeat_interleave(durations, dim=0)  # expect
""",
        """
import torch
class Readout(torch.nn.Module):
    def forward(self, node_feats, batch):
        graph = torch.repeat_interleave(batch.weight, batch.ptr[1:] - batch.ptr[:-1])  # expect
        splits = batch.row_splits
        per_row = splits[1:] - splits[:-1]
        return node_feats * graph, torch.repeat_interleave(node_feats, per_row, dim=0)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._captured = False
        self._arrays = NdarrayNames(walker)
        # ops whose output size depends on values: torch.nonzero, torchvision.ops.nms, ...
        self._known = knowledge.table(self.code, torch_version(walker.settings))
        self._methods = self._known.names(TENSOR)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._arrays.assign(node)

    def visit_Module(self, node: cst.Module) -> None:
        self._captured = captures_dynamic_output_shapes(node)

    def visit_Call(self, node: cst.Call) -> None:
        if self._captured:
            return
        func = node.func
        qualified = self.ctx.qualify(func) or ""
        entry = None if qualified.startswith(TENSOR) else self._known.get(qualified)
        if entry is not None:
            self.report(node, self.message.format(op=qualified if qualified.startswith("numpy.") else entry.names[0]))
            return
        if qualified == "torch.nn.functional.one_hot":
            classes = arg_value(node, 1, "num_classes")
            if classes is None or _minus_one(classes):  # the class count is read from the values
                self.report(node, self.message.format(op="F.one_hot(x)"),
                            help="Pass `num_classes` (the number of labels, a Python int): the output's size is "
                                 "then known without reading the values.")
            return
        if qualified in ("torch.where", "numpy.where"):  # NumPy's runs as torch's in the region
            positional = [a for a in node.args if a.keyword is None]
            if len(node.args) == 1 and len(positional) == 1 and not positional[0].star:
                op = "torch.where(cond)" if qualified == "torch.where" else "np.where(cond)"
                self.report(node, self.message.format(op=op),
                            help="Use the three-argument form `torch.where(cond, a, b)`, or a mask multiplication; "
                                "`nonzero_static` when a fixed number of indices will do.")
            return
        if qualified == "torch.repeat_interleave":
            self._repeat_interleave(node, receiver=arg_value(node, 0, "input"), repeats_at=1)
            return
        if not isinstance(func, cst.Attribute) or qualified.startswith("torch."):
            return
        method = func.attr.value
        receiver = func.value
        if isinstance(receiver, cst.Name) and self.ctx.is_import(receiver.value) or self._arrays.is_array(receiver):
            return  # np.unique(...), pandas.unique(...), arrays from .numpy(): CL105's
        if method == "repeat_interleave":
            self._repeat_interleave(node, receiver=receiver, repeats_at=0)
            return
        if method not in self._methods:
            return
        kind = self.ctx.kind(receiver)
        if kind in (Kind.VALUE, Kind.MODULE):
            return
        severity = "error" if kind == Kind.TENSOR else "warning"
        self.report(node, self.message.format(op=f".{method}()"), severity=severity)

    def _repeat_interleave(self, node: cst.Call, receiver, repeats_at: int) -> None:
        if has_keyword(node, "output_size"):
            return
        repeats = arg_value(node, repeats_at, "repeats")
        op = "repeat_interleave"
        if repeats is None:
            # torch.repeat_interleave(r) / r.repeat_interleave(): r itself holds the counts
            if receiver is not None and self.ctx.kind(receiver) not in (Kind.VALUE, Kind.MODULE):
                self.report(node, self.message.format(op=op + " of a counts tensor"))
            return
        kind = self.ctx.kind(repeats)
        if kind == Kind.TENSOR:
            self.report(node, self.message.format(op=op + " with tensor repeats"))
        elif kind == Kind.LIKELY:
            self.report(node, self.message.format(op=op + " with tensor repeats"), severity="warning")
        elif kind == Kind.UNKNOWN and isinstance(repeats, cst.Name) and self._tensor_param(repeats.value):
            self.report(node, self.message.format(op=op + " with tensor repeats"), severity="warning")
        elif kind == Kind.UNKNOWN and self._counts_of_offsets(repeats):
            self.report(node, self.message.format(op=op + " with tensor repeats (`ptr[1:] - ptr[:-1]`)"))

    def _counts_of_offsets(self, value: cst.BaseExpression) -> bool:
        """`ptr[1:] - ptr[:-1]`, the counts between consecutive offsets (CSR row splits, a
        batch's `ptr`), or a local bound once to it: slices that subtract are arrays, and
        repeat_interleave takes no NumPy array, so the repeats are a tensor."""
        if isinstance(value, cst.Name):
            bound = self.ctx.local_flag(value.value) if self.ctx.function is not None else None
            return bound is not None and self._counts_of_offsets(bound)
        return isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Subtract) \
            and _sliced(value.left) and _sliced(value.right)

    def _tensor_param(self, name: str) -> bool:
        """An un-annotated parameter of the enclosing function that is not named like a count."""
        scope = self.ctx.function
        if scope is None or name not in scope.params or name in ("self", "cls"):
            return False
        return not INT_NAME.search(name)


def _sliced(node: cst.BaseExpression) -> bool:
    """`x[1:]`, `x[:-1]`: one slice of a value."""
    return isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice)


def _minus_one(node: cst.BaseExpression) -> bool:
    """`-1`, one_hot's default: infer the class count from the values."""
    return (isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
            and isinstance(node.expression, cst.Integer) and node.expression.value == "1")
