import libcst as cst

from compilelint.semantic.kinds import FULL_REDUCTIONS, Kind, builds_list, is_self_attribute
from compilelint.semantic.ndarrays import is_ndarray
from compilelint.rules._loop_rows import LoopRows, element_list
from compilelint.rules.base import Rule
from compilelint.rules._int_arguments import (
    KEEPS_SHAPE, RESIZE_FUNCS, computed_from_values, construction_attribute, int_arguments, scalar_arguments,
    size_arguments,
)


class TensorAsInt(Rule):
    code = "CL107"
    name = "tensor-as-int"
    summary = ("a tensor where Python needs an int: slice bounds, `range()`, sizes of `torch.arange`/`zeros`/`view`, "
               "`F.one_hot`'s classes, `topk`'s k, pads, "
               "`F.interpolate(size=...)`, a 0-d tensor as an index (`x[scores.argmax()]`), a tensor indexing a "
               "Python list, a tensor in a Scalar argument (`alpha=`, `negative_slope`)…")
    message = ("a tensor used as {what}: Python needs its value as an int, so Dynamo reads it "
               "(`.item()`) and breaks the graph")
    severity = "error"
    gb_id = "GB0124"
    infers_across_functions = True
    needs_certain_tensor = True
    help = ("Compute the bound from shapes (`x.shape[0]`, `len(lst)`), pass it in as a Python int, "
            "or keep the computation in tensors (masks instead of slices).")
    breaks_graph = True

    VALID = [
        """
import torch
class JointTable(torch.nn.Module):
    def forward(self, codes: torch.Tensor):
        by_columns = self.log_probs[tuple(codes.T)]  # whole columns: index tensors, traced
        return by_columns + self.log_probs[tuple(self.corner)] + self.log_probs[tuple(codes[:, :, 0])]
""",
        """
import torch
class Ratio(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("rtol", torch.tensor(1e-3))
    def forward(self, y: torch.Tensor):
        table = torch.zeros(*y.shape)  # sizes from a shape are ints
        return y.clone().add_(y, alpha=self.rtol) + self.rtol * y, table  # in place: takes a tensor
""",
        """
import torch
@torch.compile
def walk(y: torch.Tensor, perm: torch.Tensor):
    cols = []
    for i, idx in enumerate(perm):
        cols.append(y[..., i] * idx)  # indexed by enumerate's int; the element in arithmetic
    return torch.stack(cols, -1)
""",
        """
import torch
@torch.compile
def pick(x: torch.Tensor, pairs: list):
    outs = [x, x * 2]
    return torch.stack([outs[layer][head] for layer, head in pairs])  # Python ints
""",
        """
import torch
@torch.compile
def f(x, rows, cols):
    out = []
    for r, c in zip(rows, cols):  # rows of tensors, used as tensors
        out.append(r * c)
    return torch.stack(out) + x
""",
        """
import torch
@torch.compile
def f(x, starts: list, ends: list):
    for s, e in zip(starts, ends):  # Python ints
        x = x + x[s:e].sum()
    return x
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor, k: int):
    n = x.shape[0]
    y = x.reshape(torch.div(n, 2, rounding_mode="trunc"), 2)  # Python ints: folded
    return y[: n - k] + torch.arange(x.size(0)) + torch.full((3,), 1.0).sum() * x[k:].sum()
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor, v: torch.Tensor):
    return torch.full((3,), 1.0) * v[0] + x  # a fill value, not a size
""",
        """
import torch
class Cell(torch.nn.Module):
    def __init__(self, hidden_size: int):
        super().__init__()
        self.hidden_size = torch.as_tensor(hidden_size)
    def forward(self, x: torch.Tensor, n: torch.Tensor):
        return torch.zeros(x.shape[0], self.hidden_size) + x.new_ones(self.hidden_size).sum()  # specialised
""",
        """
import torch
@torch.compile
def f(src: torch.Tensor, bounds: list):
    return src[slice(bounds[0], bounds[1])] + src[slice(0, src.shape[0] // 2)].sum()
""",
        """
import torch
@torch.compile
def pairs(y: torch.Tensor):
    total = y.new_zeros(())
    for pair in torch.cartesian_prod(torch.arange(3), torch.arange(3)):
        total = total + y[pair].sum()  # a whole row: a 1-d index tensor, a gather
    for i in torch.arange(3):
        total = total + i * 2.0  # a 0-d tensor as a value, not an index
    return total
""",
    ]
    INVALID = [
        """
import torch
class FieldNorm(torch.nn.Module):
    def __init__(self, sizes=(2, 3)):
        super().__init__()
        for s in sizes:  # buffers under computed names (e2cnn), read back by getattr
            self.register_buffer("indices_" + str(s), torch.LongTensor([0, s]))
            self.register_buffer("bounds_{0}".format(s), torch.LongTensor([0, s]))
    def forward(self, x):
        indices = getattr(self, "indices_" + str(2))
        bounds = getattr(self, f"bounds_{3}")
        return x[:, indices[0]:indices[1]] + x[:, :bounds[1]]  # expect
""",
        """
import torch
class Ratio(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("rtol", torch.tensor(1e-3))
    def forward(self, y: torch.Tensor, counts: torch.Tensor):
        table = torch.zeros(*(counts.amax(0) + 1))  # expect
        return torch.add(y, y.abs(), alpha=self.rtol), table  # expect
""",
        """
import torch
@torch.compile
def pick(x: torch.Tensor, pairs: torch.Tensor):
    outs = [x, x * 2]
    picked = []
    for layer, head in pairs:
        picked.append(outs[layer][head])  # expect
    return torch.stack(picked)
""",
        """
import torch
@torch.compile
def masks(x, lengths, causal: bool):
    n = lengths.max()
    if causal:
        steps = torch.arange(n)  # expect
    else:
        steps = torch.zeros(n)  # expect
    return steps.unsqueeze(0).expand(n, -1) + x  # n was read on every path: an input by now
""",
        """
import torch
class PickBest(torch.nn.Module):
    def forward(self, boxes: torch.Tensor, scores: torch.Tensor):
        best = scores.argmax()  # every element reduced: a 0-d tensor
        per_row = scores.argmax(dim=-1)  # one per row: an index tensor, traced
        return boxes[best], boxes[best + 1], boxes[torch.arange(boxes.shape[0]), per_row]  # expect
""",
        """
import torch
class JointTable(torch.nn.Module):
    def forward(self, codes: torch.Tensor):
        first = self.log_probs[tuple(codes[0])]  # expect
        cell = codes[1, :, -1]
        return first + self.log_probs[tuple(cell)]  # expect
""",
        """
import torch
class Picker(torch.nn.Module):
    def forward(self, x: torch.Tensor, mask: torch.Tensor):
        counts = mask.sum(dim=0).long()  # keeps a dimension: a gather
        return x[counts], x[mask.sum().long().clamp(0, 3)]  # expect
""",
        """
import torch
@torch.compile
def causal(x: torch.Tensor, lengths: torch.Tensor):
    n = lengths.max()
    steps = torch.arange(n)  # expect
    grid = x.new_zeros(n, 2)  # `n` is an input of the frame resumed above: a size of it does not break
    n = lengths.sum()
    return steps, grid, torch.zeros(n)  # expect
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor, lens: torch.Tensor):
    ends = lens.cumsum(-1)
    starts = ends - lens
    for s, e in zip(starts, ends):
        x[s:e] = 0  # expect
    return x
""",
        """
import torch
@torch.compile
def f(pos: torch.Tensor, pooled_pos=None):
    if pooled_pos is None:
        pooled_pos = pos
    max_dist = pooled_pos[0] - pos[0] + 6
    return torch.arange(max_dist, pos[-1] - 1, -1)  # expect
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor, n: torch.Tensor):
    m = n.sum()
    y = torch.zeros(m) + x.sum()  # expect
    for i in range(m):  # expect
        y = y + i
    return y.view(n[0], -1)  # expect
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor):
    n = x.shape[0]
    return x[: torch.floor_divide(n, 2)]  # expect
""",
        """
import torch
import torch.nn.functional as F
@torch.compile
def f(x: torch.Tensor, pos: torch.Tensor):
    heights = (x > 0).sum(dim=-1)
    return [F.interpolate(pos, size=(h, h)) for h in heights]  # expect
""",
        """
import torch
@torch.compile
def f(src: torch.Tensor, indptr: torch.Tensor):
    rows = slice(indptr[0], indptr[1])  # expect
    return src[rows]
""",
        """
import torch
class Cell(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.width = torch.as_tensor(3)
    def grow(self, x: torch.Tensor):
        self.width = x.abs().sum().long()  # computed in a compiled call: not the one __init__ set
    def forward(self, x: torch.Tensor, n: torch.Tensor):
        self.grow(x)
        return torch.zeros(self.width) + torch.arange(n).sum()  # expect
""",
        """
import torch
import torch.nn.functional as F
@torch.compile
def route(x: torch.Tensor, indexes: torch.Tensor):
    return F.one_hot(indexes, max(indexes.max() + 2, 4)).sum() + x  # expect
""",
        """
import torch
@torch.compile
def inverse(y: torch.Tensor, perm: torch.Tensor):
    cols = [y[..., idx] for idx in range(3)]
    for idx in perm:  # each element of a 1-d tensor: a 0-d tensor
        cols.append(y[..., idx])  # expect
    return torch.stack(cols, -1)
""",
        """
import torch
class Parser(torch.nn.Module):
    def __init__(self, transitions, table):
        super().__init__()
        self.transitions = sorted(transitions)  # a list, whatever it is handed
        self.table = table  # what it is handed: a tensor, maybe
    def forward(self, x: torch.Tensor):
        best = x.argmax(-1)
        return self.table[best[0]], [self.transitions[best[i]]  # expect
                                     for i in range(x.shape[0])]
""",
        """
import torch
@torch.compile
def covariance(y: torch.Tensor):
    cov = torch.zeros(y.shape[0], 3, 3)
    for index in torch.cartesian_prod(torch.arange(3), torch.arange(3)):
        cov[:, index[0], index[1]] = y[:, 0]  # expect
    for i in torch.arange(3):
        cov = cov + y[:, i].sum()  # expect
    return cov
""",
    ]

    def _first_tensor(self, values, sizes: bool, unpacked: frozenset = frozenset()) -> cst.BaseExpression | None:
        # only a certain tensor: a forward input may well be an int (`seq_len`); `unpacked`: the
        # ids of `*t` arguments, whose elements the graph computes (no exemption for them)
        for value in values:
            if isinstance(value, (cst.Tuple, cst.List)):  # torch.zeros((n, m))
                found = self._first_tensor((e.value for e in value.elements), sizes)
                if found is not None:
                    return found
            elif sizes and element_list(value, self.ctx):
                return value  # `torch.split(x, [h * w for h, w in sizes])`: each a tensor Python reads
            elif value is not None and (self._tensor(value) or self._scalar(value)) and not (
                    sizes and id(value) not in unpacked and (computed_from_values(self.ctx, value)
                                                             or construction_attribute(self.ctx, value))):
                return value  # (`lengths.max()` of an input: no int has `.max()`, a tensor's is 0-d)
        return None

    def _tensor(self, value: cst.BaseExpression) -> bool:
        """Certainly a tensor here, or (while the walker assumes what only the project can
        type) a tensor only through such values: a parameter whose every compiled call site
        passes a tensor (VITS's `@torch.jit.script` helper sliced by `num_channels`)."""
        kind = self.ctx.kind(value)
        if kind == Kind.TENSOR:
            return True
        return kind == Kind.LIKELY and self.ctx.assuming is not None and bool(self.ctx.assumed(value)[1])

    def _check(self, values, what: str, sizes: bool = False, unpacked: frozenset = frozenset()) -> None:
        """One finding per slice or call: the first tensor among `values`."""
        value = self._first_tensor(values, sizes, unpacked)
        if value is None:
            return
        named = value.value if isinstance(value, cst.Name) else None
        if named is not None and sizes and self.ctx.read_as_number(named):
            return  # a size read of an input of the frame resumed after an earlier read (semantic.number_reads)
        self.report(value, self.message.format(what=what))
        if named is not None:
            self.ctx.note_number_read(named)

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._rows = LoopRows()

    def visit_For(self, node: cst.For) -> None:
        self._rows.enter(node, self.ctx)

    def leave_For(self, node: cst.For) -> None:
        self._rows.leave(node)

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._rows.enter_comprehension(node, self.ctx)

    def leave_ListComp(self, node: cst.ListComp) -> None:
        self._rows.leave(node)

    visit_GeneratorExp = visit_SetComp = visit_DictComp = visit_ListComp
    leave_GeneratorExp = leave_SetComp = leave_DictComp = leave_ListComp

    def visit_Subscript(self, node: cst.Subscript) -> None:
        bounds = [part for element in node.slice if isinstance(element.slice, cst.Slice)
                  for part in (element.slice.lower, element.slice.upper, element.slice.step)]
        self._check(bounds, "a slice bound")
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and self._python_list(node.value):
            index = node.slice[0].slice.value  # `outs[i]` for `i` in a tensor: a list needs an int
            if self._tensor(index) or self._scalar(index):
                self.report(index, self.message.format(what="an index into a Python list"))
                return
        for element in node.slice:  # `table[tuple(codes[i])]`: a row's elements are 0-d tensors
            index = element.slice.value if isinstance(element.slice, cst.Index) else None
            if index is not None and self._row_elements(index):
                self.report(index, self.message.format(what="indices (`tuple()` of a tensor's row: 0-d tensors)"))
                return
        for element in node.slice:  # `x[..., idx]`, `idx` in a tensor; `y[index[0]]`, `index` its row
            index = element.slice.value if isinstance(element.slice, cst.Index) else None
            if index is not None and (what := self._rows.element_index(index)) is not None:
                self.report(index, self.message.format(what=what))
                return
        for element in node.slice:  # `x[i]` with `i = scores.argmax()`: one element, read as an int
            index = element.slice.value if isinstance(element.slice, cst.Index) else None
            if index is not None and self._scalar(index):
                named = index.value if isinstance(index, cst.Name) else None
                if named is not None and self.ctx.read_as_number(named):
                    return  # an input of the frame resumed after the earlier read: indexes without one
                self.report(index, self.message.format(what="an index (a 0-d tensor)"))
                if named is not None:
                    self.ctx.note_number_read(named)
                return

    def _python_list(self, value: cst.BaseExpression) -> bool:
        """A list or tuple this function builds and binds once to a name (`outs = [None] * n`,
        `[f(x) for ...]`, `list(...)`), or one its class only ever builds (`self.transitions =
        sorted(transitions)`): indexing one takes a Python int."""
        if isinstance(value, cst.Name):
            bound = self.ctx.local_flag(value.value) if self.ctx.function is not None else None
            return bound is not None and self._python_list(bound)
        if is_self_attribute(value):
            return self.ctx.self_list_attr(value.attr.value)
        return builds_list(value, self.ctx.qualify)

    def _row_elements(self, value: cst.BaseExpression) -> bool:
        """`tuple(codes[i])`, `tuple(X[i, :, j])`: one row of a tensor picked by Python indices,
        split into its 0-d elements (whole columns, `tuple(codes.T)`, are index tensors, traced)."""
        if not (isinstance(value, cst.Call) and (self.ctx.qualify(value.func) or "") == "builtins.tuple"
                and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star):
            return False
        row = value.args[0].value
        if isinstance(row, cst.Name) and self.ctx.function is not None:
            row = self.ctx.local_flag(row.value)
        if not isinstance(row, cst.Subscript):
            return False
        picks = [e.slice.value for e in row.slice if isinstance(e.slice, cst.Index)]
        kept = len(row.slice) - len(picks)  # `X[i, :, j]`: a row along the one sliced dimension
        return bool(picks) and kept <= 1 and all(
            not isinstance(p, cst.Ellipsis) and not (isinstance(p, cst.Name) and p.value == "None")
            and self.ctx.kind(p) != Kind.TENSOR and not self._scalar(p) for p in picks) and self._reduced(row.value)

    def _scalar(self, value: cst.BaseExpression, seen: frozenset = frozenset()) -> bool:
        """A 0-d tensor: a reduction over all elements (`x.argmax()`, `torch.sum(m)`), a name
        this function binds once to one (semantic.local_flags), or one plus or times a number (`i + 1`)."""
        if isinstance(value, cst.Name):
            bound = self.ctx.local_flag(value.value) if self.ctx.function is not None else None
            # `n = n - 1` binds `n` once, to itself (pyro's ops/gaussian.py)
            return bound is not None and value.value not in seen and self._scalar(bound, seen | {value.value})
        if isinstance(value, cst.Subscript):
            return self._rows.topk_pick(value, self.ctx)
        if isinstance(value, cst.BinaryOperation) and isinstance(
                value.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)):
            sides = (value.left, value.right)
            return any(self._scalar(side, seen) for side in sides) and any(
                isinstance(side, cst.Integer) or self._scalar(side, seen) for side in sides)
        if not isinstance(value, cst.Call) or any(a.keyword is not None and a.keyword.value in ("dim", "axis")
                                                  for a in value.args):
            return False
        positional = [a.value for a in value.args if a.keyword is None]
        func = value.func
        if isinstance(func, cst.Attribute) and not (isinstance(func.value, cst.Name) and self.ctx.is_import(
                func.value.value)):  # a method: `scores.argmax()`
            if func.attr.value in KEEPS_SHAPE:
                return self._scalar(func.value, seen)  # `mask.sum().long()`
            return func.attr.value in FULL_REDUCTIONS and not positional and self._reduced(func.value)
        qualified = self.ctx.qualify(func) or ""
        return qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in FULL_REDUCTIONS \
            and len(positional) == 1 and self._reduced(positional[0])

    def _reduced(self, value: cst.BaseExpression) -> bool:
        """What `.argmax()` is called on is a tensor, or likely one and no NumPy array (whose
        reductions give NumPy scalars, which index without a read)."""
        if self._tensor(value):
            return True
        # a guessed tensor, or a value only the project types (a parameter): what has `.max()`
        # and is no NumPy array is a tensor (no int, list or tuple has the method)
        kind = self.ctx.kind(value)
        if kind == Kind.UNKNOWN and self.ctx.assuming is None:
            kind = self.ctx.assumed(value)[0]
        return kind.tensorish and not is_ndarray(value, self.ctx)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if qualified == "builtins.range":
            self._check(positional, "a `range()` bound")
        elif qualified == "builtins.slice":  # slice(indptr[i], indptr[i + 1]): bounds, read when it indexes
            self._check(positional, "a `slice()` bound")
        elif qualified in RESIZE_FUNCS:
            size = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "size"),
                        positional[1] if len(positional) > 1 else None)
            self._check([size], f"an output size of `{qualified.rsplit('.', 1)[-1]}()`", sizes=True)
        elif (sizes := size_arguments(self.ctx, node, qualified, starred=True)) is not None:
            # `torch.zeros(*counts)`: each element of a starred tensor is a 0-d tensor given as a size
            stars = frozenset(id(a.value) for a in node.args if a.star == "*")
            self._check([v for v in sizes[0] if id(v) not in stars or self._tensor(v)], sizes[1], sizes=True,
                        unpacked=stars)
        for name, value in int_arguments(self.ctx, node, qualified):
            if self._first_tensor([value], sizes=True) is not None:
                called = f"`{qualified}()`" if qualified else f"`.{node.func.attr.value}()`"
                self._check([value], f"`{name}` of {called}", sizes=True)
                return
        for name, value in scalar_arguments(self.ctx, node, qualified):
            if self._first_tensor([value], sizes=False) is not None:
                called = f"`{qualified}()`" if qualified else f"`.{node.func.attr.value}()`"
                self.report(value, f"a tensor given as `{name}` of {called}, which takes a Python number: Dynamo "
                                   "reads its value (`.item()`) and breaks the graph")
                return
