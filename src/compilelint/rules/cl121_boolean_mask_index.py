import libcst as cst

from compilelint.finding import MASK
from compilelint.semantic.kinds import Kind, dotted
from compilelint.rules._callsite import NdarrayNames, captures_dynamic_output_shapes
from compilelint.rules._mask_helpers import MaskHelpers
from compilelint.rules._module_classes import project_object
from compilelint.rules._masks import (
    BOOL_FUNCS, BOOL_METHODS, COMPARE, CREATION, KEEPS_DTYPE, MASK_NAME, NUMPY_BOOL_FUNCS, ORDERING, PREDICATE_NAME,
    bool_tensor_annotation, compared_names, compares_slice, documented_bool_tensors, dtype_argument, equality,
    is_bool_dtype, item_index, mask_named, numeric, ordered_names, self_key, self_keys, sliced_names, weakest,
)
from compilelint.rules.base import Rule

class BooleanMaskIndex(Rule):
    code = "CL121"
    name = "boolean-mask-index"
    summary = "`x[mask]` with a boolean tensor mask"
    message = ("indexing with a boolean mask (`x[mask]`) gives a tensor whose size depends on the mask's "
               "values: Dynamo breaks the graph (it is `nonzero` underneath)")
    severity = "error"
    gb_id = "GB0036"
    help = ("Keep the shape: `torch.where(mask, x, 0)`, `x * mask`, `x.masked_fill(~mask, v)`, or a masked "
           "reduction (`(x * mask).sum() / mask.sum()`); masked assignment `x[mask] = v` is fine.")
    breaks_graph = True
    infers_across_functions = True

    VALID = [
        """
import torch
from torch import Tensor
class Flip(torch.nn.Module):
    def forward(self, x: Tensor, keep: Tensor, axis: int = 0) -> Tensor:
        return x[:, ~axis] + x * ~keep  # an int inverted is an index; a mask inverted for arithmetic
""",
        """
import torch
class CausalScores(torch.nn.Module):
    def forward(self, x, pad):
        s = x @ x.transpose(-1, -2)
        causal = torch.ones(s.shape[-2:], dtype=torch.bool).triu(1)
        s = s.masked_fill(causal, float("-inf"))
        s[pad.unsqueeze(1).expand_as(s)] = -1e4  # masked assignment: index_put, static
        keep = s > 0
        s[keep] = 0.0
        s[keep], s[~keep] = s.sum(), 1.0  # tuple target: still assignments
        return torch.where(keep, s, s * 2).softmax(-1)
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, idx):
        m = x > 0
        total = (x * m).sum() / m.sum()  # masked mean
        rows = x[idx]  # an index tensor of unknown dtype
        first = x[:, 0]
        n = x.shape[0]
        lengths = [3, 4]
        sel = lengths[n > 1]  # a Python bool indexing a list
        return total, rows, first, sel
""",
        """
import torch
class Lookup(torch.nn.Module):
    def forward(self, x, table, key, limit):
        flags = key == limit  # values of unknown type compared: maybe not a tensor at all
        return x + table[flags]
""",
        """
import torch
def select(x, mask):  # not compiled
    return x[mask]
class M(torch.nn.Module):
    def forward(self, x):
        return x.relu()
""",
        """
import torch
class Scale(torch.nn.Module):
    def forward(self, x, steps: int):
        scales = [0.5, 2.0]
        return x * scales[steps >= 2]  # a list indexed by a Python bool: `steps` is compared, not indexed
""",
        """
import torch
class Pick(torch.nn.Module):
    def forward(self, x, step):
        outs = self.collect(x)
        rest = outs[1:]  # one slice: lists take it too
        return outs[step > 1] + rest[0]
""",
    ]

    INVALID = [
        """
import torch
def likelihood(log_hz: torch.Tensor, event: torch.Tensor, keep) -> torch.Tensor:
    \"\"\"
    Args:
        event (torch.Tensor, bool): whether the event occurred.
        keep (torch.BoolTensor): which rows to keep.
    \"\"\"
    return log_hz[event].sum() + log_hz[keep].sum()  # expect
class Cox(torch.nn.Module):
    def forward(self, log_hz, event):
        return likelihood(log_hz, event, event)
""",
        """
import torch
class ScaledError(torch.nn.Module):
    def forward(self, target, lengths):
        assert (lengths > 1).all()  # ordered against a number: an array, no list
        return target[:, 0] * lengths[lengths != target.size(1)]  # expect
""",
        """
import torch
from torch import Tensor
class MapToCentral(torch.nn.Module):
    def forward(self, coordinates: Tensor, cell: Tensor, pbc: Tensor) -> Tensor:
        out = coordinates @ cell
        out[:, :, ~pbc] = coordinates[:, :, ~pbc].clone()  # expect
        return out
""",
        """
import torch
class Head(torch.nn.Module):
    def scores_and_boxes(self, feats):
        return self.cls(feats).sigmoid(), self.box(feats)
class PostProcess(Head):
    def forward(self, feats, threshold: float = 0.5):
        scores, boxes = self.scores_and_boxes(feats)  # what a helper returns: unknown
        best, labels = scores.max(-1)  # likely tensors
        keep = best > threshold  # a likely boolean tensor
        kept = boxes[keep]  # expect
        return kept, labels[keep]  # expect
""",
        """
import torch
class Inverse(torch.nn.Module):
    def __init__(self, w_sum):
        super().__init__()
        self.register_buffer("w_sum", w_sum)
        self.nonzero = self.w_sum > 1e-10  # a mask kept on the module
    def forward(self, real):
        return real[..., self.nonzero] / self.w_sum[self.nonzero]  # expect
""",
        """
import torch
class Detect(torch.nn.Module):
    def forward(self, x):
        out = self.decode(x)  # a callable given at construction: unknown
        keep = out[:, 4] > self.conf  # `out[:, 4]`: an index only arrays take
        return out[keep]  # expect
""",
        """
import torch
import torch.nn.functional as F
class MLMHead(torch.nn.Module):
    def forward(self, hidden, labels, mask):
        logits = self.decoder(hidden)
        sel = logits[mask]  # expect
        return F.cross_entropy(sel, labels[mask])  # expect
""",
        """
import torch
class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = torch.nn.Linear(8, 30)
    def forward(self, hidden, labels):
        logits = self.decoder(hidden)
        keep = labels != -100
        return logits[keep], logits[labels >= 0]  # expect
""",
        """
import torch
def spline(inputs, tail_bound=5.0):  # `inputs` untyped: ordered against numbers and indexed, an array
    inside = (inputs >= -tail_bound) & (inputs <= tail_bound)
    out = torch.zeros_like(inputs)
    out[~inside] = inputs[~inside]  # expect
    return out
class Flow(torch.nn.Module):
    def forward(self, x):
        return spline(x)
""",
        """
import torch
@torch.compile
def clean(x: torch.Tensor, y: torch.Tensor):
    finite = torch.isfinite(x)
    a = x[finite].mean()  # expect
    b = x[x > 0]  # expect
    c = x[:, (y != 0).any(0)]  # expect
    keep = torch.ones(x.shape[0], dtype=torch.bool)
    d = x[keep, :]  # expect
    e = x[~finite]  # expect
    x[finite] += 1  # expect
    arr = x.numpy()
    inliers = arr[arr > 0]  # numpy: CL105's
    y[keep] = x[keep]  # expect
    return a, b, c, d, e
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._captured = False
        self._stores: set[int] = set()
        self._bools: dict[str, dict[str, str | None]] = {}  # scope -> name -> "certain"/"likely"/None
        # scope -> mask name -> the names it compares in order against a number (`x >= -b`)
        self._ordered: dict[str, dict[str, frozenset[str]]] = {}
        # scope -> name -> (verdict, leaves): a mask only if values the project types are tensors
        self._assumed: dict[str, dict[str, tuple[str, frozenset[str]]]] = {}
        self._equalities: dict[str, set[str]] = {}  # scope -> names bound to `a == b` of two values
        self._attr_masks: dict[str, dict[str, str | None]] = {}  # class -> self attribute -> verdict
        self._sliced: dict[tuple, frozenset[str]] = {}  # (id(function), scan) -> names indexed `x[:, 4]`, ordered
        self._arrays = NdarrayNames(walker)
        self._helpers = MaskHelpers(walker)

    def visit_Module(self, node: cst.Module) -> None:
        self._captured = captures_dynamic_output_shapes(node)

    # ---- which expressions are boolean tensors -----------------------------------------

    def _scope(self) -> str:
        return self.ctx.function.qualname if self.ctx.function else "<module>"

    def _scope_table(self) -> dict[str, str | None]:
        return self._bools.setdefault(self._scope(), {})

    def _boolish(self, node: cst.BaseExpression) -> str | None:
        """"certain" / "likely" when `node` is a boolean tensor, "maybe" for a comparison of
        values of unknown type, else None."""
        if isinstance(node, cst.Comparison):
            if all(isinstance(c.operator, COMPARE) for c in node.comparisons):
                kind = self.ctx.kind(node)
                if kind.tensorish:
                    return "certain" if kind == Kind.TENSOR else "likely"
                if kind == Kind.UNKNOWN:
                    # `labels != -100`: a mask if it indexes a tensor; `t[:, 0] == s` is one anyway
                    return "likely" if compares_slice(node) else "maybe"
            return None
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
            inner = self._boolish(node.expression)
            if inner is None and self.ctx.kind(node.expression) == Kind.TENSOR:
                return "likely"  # `x[:, ~pbc]`: a tensor inverted to index with is a mask (ints are not)
            if inner is None and PREDICATE_NAME.match((dotted(node.expression) or "").rsplit(".", 1)[-1]):
                return "likely"  # `~states.is_sink`: a predicate inverted bitwise is a boolean tensor
            return inner
        if isinstance(node, cst.Subscript) and all(isinstance(e.slice, cst.Slice) for e in node.slice):
            return self._boolish(node.value)  # `is_terminal_mask[i - 1:]`: a slice of a mask is one
        if isinstance(node, cst.BinaryOperation) and isinstance(
                node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            sides = [self._boolish(node.left), self._boolish(node.right)]
            for verdict in ("certain", "likely", "maybe"):
                if verdict in sides:
                    return verdict
            return None
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
            # `mask * (p == True)`: a product of two boolean tensors is one (of a mask and a
            # float tensor, a float tensor)
            return weakest([self._boolish(node.left), self._boolish(node.right)])
        if isinstance(node, cst.IfExp):  # `pos < m if inverted else pos > m`: a mask either way
            return weakest([self._boolish(node.body), self._boolish(node.orelse)])
        if isinstance(node, cst.Call):
            return self._bool_call(node)
        if (key := self_key(node)) is not None and self.ctx.function is not None:
            return self._attr_masks.get(self.ctx.function.class_name, {}).get(key)  # `self.keep = w > 0` earlier
        if isinstance(node, cst.Name):
            table = self._scope_table()
            assumed = self._assumed.get(self._scope(), {}).get(node.value)
            if assumed is not None:
                if self.ctx.assuming is None:
                    self.ctx.open_seen = True  # (a mask if the project types its values as tensors)
                elif assumed[0] in ("certain", "likely"):
                    self.ctx.assuming.update(assumed[1])
                    return assumed[0]
            if node.value in table:
                return table[node.value]
            scope = self.ctx.function
            if scope is not None and node.value not in scope.params and node.value not in scope.env:
                for outer in reversed(self.ctx.scopes[:-1]):  # a closure reads its maker's mask
                    if node.value in self._bools.get(outer.qualname, {}):
                        return self._bools[outer.qualname][node.value]
                    if node.value in outer.params:
                        break
            if scope and node.value in scope.params and MASK_NAME.search(node.value) \
                    and self.ctx.kind(node) not in (Kind.VALUE, Kind.MODULE):
                return "likely"  # a parameter called `mask`, `masks`, `pad_mask`
        return None

    def _ordered_names(self, node: cst.BaseExpression) -> frozenset[str]:
        """Names a mask compares in order against a number (`(x >= -b) & (x <= b)`, through
        `~`, `&`, `|`, `^` and names bound to such masks). Indexed by such a mask, a name is
        an array: a list, dict or number cannot both be ordered against a number and
        indexed, so `x[(x > 0)]` reads a boolean mask whatever `x`'s type says."""
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
                and isinstance(node.comparisons[0].operator, ORDERING):
            sides = (node.left, node.comparisons[0].comparator)
            return frozenset(a.value for a, b in (sides, sides[::-1]) if isinstance(a, cst.Name) and numeric(b))
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
            return self._ordered_names(node.expression)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            return self._ordered_names(node.left) | self._ordered_names(node.right)
        if isinstance(node, cst.Name):
            scope = self.ctx.function.qualname if self.ctx.function else "<module>"
            return self._ordered.get(scope, {}).get(node.value, frozenset())
        return frozenset()

    def visit_Return(self, node: cst.Return) -> None:
        if self.ctx.function is not None and node.value is not None:
            self._helpers.returned(self.ctx.function, self._boolish(node.value))

    def _bool_call(self, node: cst.Call) -> str | None:
        if self._helpers.key(node.func, self.ctx.function) in self._helpers.masks:
            return "likely"  # a same-file helper that returns a mask
        qualified = (self.ctx.qualify(node.func) or "") if not isinstance(node.func, cst.Attribute) \
            or not isinstance(node.func.value, (cst.Call, cst.Subscript)) else ""
        if qualified.startswith("numpy.") and qualified[len("numpy."):] in NUMPY_BOOL_FUNCS:
            return "certain"  # (Dynamo traces NumPy as tensor code: `scores[np.logical_not(cycle)]`)
        if qualified.startswith("torch."):
            last = qualified.rsplit(".", 1)[-1]
            if last in BOOL_FUNCS or (last in ("any", "all") and len(node.args) > 1):
                return "certain"  # (`torch.any(hit, dim=1)`: a boolean tensor along the rest)
            if last in CREATION:
                for arg in node.args:
                    if arg.keyword is not None and arg.keyword.value == "dtype" and is_bool_dtype(arg.value):
                        return "certain"
                if last == "tensor" and node.args and isinstance(node.args[0].value, (cst.List, cst.Tuple)):
                    elements = node.args[0].value.elements
                    if elements and all(isinstance(e.value, cst.Name) and e.value.value in ("True", "False")
                                        for e in elements):
                        return "certain"
            return None
        func = node.func
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        receiver = func.value
        if method in KEEPS_DTYPE or (method == "to" and not dtype_argument(node)):
            return self._boolish(receiver)  # `mask.to(x.device)`, `mask.unsqueeze(-1)`: still the mask
        if method not in BOOL_METHODS and method not in ("to", "type", "any", "all"):
            return None
        if isinstance(receiver, cst.Name) and self.ctx.is_import(receiver.value):
            return None
        kind = self.ctx.kind(receiver)
        if kind in (Kind.VALUE, Kind.MODULE):
            return None
        certain = "certain" if kind == Kind.TENSOR or method == "bool" else "likely"
        if method in BOOL_METHODS:
            return certain
        if method in ("to", "type") and node.args:
            value = node.args[0].value if node.args[0].keyword is None else None
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "dtype":
                    value = arg.value
            if is_bool_dtype(value):
                return "certain"
        if method in ("any", "all") and node.args and kind.tensorish:
            return certain  # reduced along a dim: still a boolean tensor
        return None

    def visit_Assign(self, node: cst.Assign) -> None:
        names = [t.target.value for t in node.targets if isinstance(t.target, cst.Name)]
        if self.ctx.assuming is not None:  # run again with project-typed values taken for tensors
            verdict = self._boolish(node.value)
            for name in names:
                self._assumed.setdefault(self._scope(), {})[name] = (verdict, frozenset(self.ctx.assuming))
            return
        self._self_attributes(node)
        for name in names:
            self._assumed.get(self._scope(), {}).pop(name, None)
            equalities = self._equalities.setdefault(self._scope(), set())
            if equality(node.value):
                equalities.add(name)
            else:
                equalities.discard(name)
        self._arrays.assign(node)
        verdict = self._boolish(node.value)
        self._helpers.bound(self._scope(), names, node.value, verdict, self.ctx.function)
        for target in node.targets:
            self._mark_stores(target.target)
            if isinstance(target.target, cst.Name):
                self._scope_table()[target.target.value] = verdict
                scope = self.ctx.function.qualname if self.ctx.function else "<module>"
                self._ordered.setdefault(scope, {})[target.target.value] = self._ordered_names(node.value)

    def _self_attributes(self, node: cst.Assign) -> None:
        """`self.keep = scores > t` (or `self.params["keep"] = ...`) in a method: that mask in the
        class's methods walked after it (the last assignment walked wins)."""
        owner = self.ctx.function.class_name if self.ctx.function is not None else None
        for key, value in self_keys(node) if owner is not None else ():
            self._attr_masks.setdefault(owner, {})[key] = self._boolish(value)

    def _mark_stores(self, target: cst.BaseExpression) -> None:
        """`x[m] = v` and `a[m], b[m] = f()`: masked assignment, not a read."""
        if isinstance(target, cst.Subscript):
            self._stores.add(id(target))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._mark_stores(element.value)
        elif isinstance(target, cst.StarredElement):
            self._mark_stores(target.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self.ctx.assuming is not None:
            return
        if isinstance(node.target, cst.Name):
            verdict = "certain" if bool_tensor_annotation(node.annotation.annotation) else (
                self._boolish(node.value) if node.value is not None else None)
            self._scope_table()[node.target.value] = verdict
        elif isinstance(node.target, cst.Subscript):
            self._stores.add(id(node.target))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        table = self._bools.setdefault(self.ctx.function.qualname if self.ctx.function else "<module>", {})
        for param in (*node.params.params, *node.params.kwonly_params, *node.params.posonly_params):
            if param.annotation is not None and bool_tensor_annotation(param.annotation.annotation):
                table[param.name.value] = "certain"  # (`BoolTensor | None`: indexing it, it is one)
        for name in documented_bool_tensors(node):  # (`event (torch.Tensor, bool):`)
            table.setdefault(name, "certain")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        # A function's names are its own: a later function of that name (a setter) starts afresh.
        if self.ctx.function is not None:
            qualname = self.ctx.function.qualname
            self._bools.pop(qualname, None)
            self._ordered.pop(qualname, None)
            for scan in (sliced_names, ordered_names):
                self._sliced.pop((id(self.ctx.function.node), scan.__name__), None)
            self._helpers.left(qualname)

    # ---- the index ---------------------------------------------------------------------

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self._captured or id(node) in self._stores or self._arrays.is_array(node.value):
            return  # (a numpy array's mask index is CL105's)
        base = self.ctx.kind(node.value)
        if base in (Kind.VALUE, Kind.MODULE) or base == Kind.UNKNOWN and project_object(self.ctx, node.value):
            return  # (a project object's `__getitem__` takes the mask: it breaks there, if at all)
        if (index := item_index(self.ctx, node)) is not None and self.ctx.assuming is None:
            return self.report(node, severity="warning", when=(f"given:{index}{MASK}",))
        for element in node.slice:
            if not isinstance(element.slice, cst.Index):
                continue
            verdict = self._boolish(element.slice.value)
            if verdict is None:
                self._hold(node, element.slice.value)
                continue
            if verdict == "maybe" and isinstance(node.value, cst.Name) \
                    and node.value.value in self._ordered_names(element.slice.value):
                verdict = "likely"  # `x[x > 0]`: x is an array
            elif verdict == "maybe" and base == Kind.UNKNOWN and isinstance(node.value, cst.Name) \
                    and node.value.value in self._sliced_names():
                verdict = "likely"  # `out[keep]` where `out[:, 4]` is read: out is an array
            elif verdict == "maybe" and base == Kind.UNKNOWN and isinstance(node.value, cst.Name) \
                    and node.value.value in compared_names(element.slice.value, self.ctx) & self._sliced_names(ordered_names):
                verdict = "likely"  # `x[x != n]` where `x > 1` is tested: x is an array
            mask = element.slice.value
            if self.ctx.assuming is not None and (equality(mask) or (
                    isinstance(mask, cst.Name) and mask.value in self._equalities.get(self._scope(), ()))):
                continue  # (`table[key == limit]`: two values compared, maybe no tensors at all)
            # base tensor-like, or unknown and indexed by what its name says is a mask (`a1[pos_mask]`)
            if verdict == "maybe" and not base.tensorish and not (
                    base == Kind.UNKNOWN and mask_named(element.slice.value)):
                continue
            # a boolean tensor indexes only tensors (and arrays), so a likely mask suffices
            if base == Kind.UNKNOWN and verdict == "maybe" and not mask_named(element.slice.value):
                continue
            severity = "error" if verdict == "certain" and base == Kind.TENSOR else "warning"
            self.report(node, severity=severity)
            return

    def _hold(self, node: cst.Subscript, mask: cst.BaseExpression) -> None:
        """`x[keep]`, `keep = helper(...)` not walked yet: held until the module's end says it is a mask."""
        helper = self._helpers.held_helper(self._scope(), mask) if self.ctx.assuming is None else None
        if helper is None:
            return
        before = len(self.ctx.pending)
        self.report(node, severity="warning")
        self._helpers.hold(helper, self.ctx.pending[before:])
        del self.ctx.pending[before:]

    def leave_Module(self, original_node: cst.Module) -> None:
        self.ctx.pending.extend(self._helpers.released())

    def _sliced_names(self, scan=sliced_names) -> frozenset[str]:
        """The current function's names indexed along several dimensions (`scan`: or ordered),
        scanned the first time a maybe-mask indexes an unknown name there (rare)."""
        function = self.ctx.function
        if function is None or not isinstance(function.node, cst.FunctionDef):
            return frozenset()
        key = (id(function.node), scan.__name__)
        if key not in self._sliced:
            self._sliced[key] = scan(function.node.body)
        return self._sliced[key]
