import libcst as cst
import libcst.matchers as m

from compilelint.semantic.iteration import element_names
from compilelint.semantic.ndarrays import is_ndarray, numpy_attribute, numpy_integer, tested_arrays, tests_numpy_value
from compilelint.rules.base import Rule
from compilelint.rules.cl103_tensor_item import method_call
from compilelint.rules._callsite import mapped_builtin
from compilelint.rules._int_arguments import int_arguments, size_arguments

CASTS = {"builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool",
         "builtins.complex": "complex", "builtins.str": "str", "builtins.repr": "repr",
         "builtins.format": "format", "numpy.array2string": "np.array2string",
         "numpy.array_str": "np.array_str", "numpy.array_repr": "np.array_repr"}
# Python functions that read a NumPy value Dynamo otherwise folds: what any NumPy call returns,
# even on Python numbers (`math.floor(np.log2(n))`: GB0208, measured on 2.13.0 and 2.14.1;
# `int()`, `float()`, `math.sqrt()` fold it, and `round()` / `math.trunc()` fail outright)
SCALAR_READS = frozenset({"math.ceil", "math.floor", "math.isnan", "math.isinf", "math.isfinite", "math.gcd",
                          "math.lcm"})

UNREAD_ATTRS = frozenset({"dtype", "base", "flags"})
# casts that read one element's value: over an array (`map(int, a)`, `[int(v) for v in a]`)
# each element is a 0-d array Dynamo holds as a tensor, so each cast is a read (GB0033)
ELEMENT_CASTS = frozenset({"int", "float", "bool", "complex"})


class TensorNumpy(Rule):
    code = "CL105"
    name = "tensor-numpy"
    summary = "a NumPy array in the region (`.numpy()`, NumPy calls) turned into Python data"
    message = ("{what} of a NumPy array: Dynamo traces NumPy in a compiled region as tensor code, so "
               "turning the array into Python data breaks the graph")
    severity = "error"
    gb_id = "GB0033"
    help = ("Stay in torch (or in NumPy arrays, which Dynamo traces) until the compiled call returns; "
           "use torch ops (`torch.where`, `torch.argmax`) instead of Python values and branches.")
    breaks_graph = True

    VALID = [
        """
import numpy as np
import torch
class PowerToDb(torch.nn.Module):
    def forward(self, x):
        log_spec = 10.0 * torch.log10(x.clamp(min=1e-10))
        log_spec -= 10.0 * np.log10(np.maximum(self.amin, self.ref))  # in place: the tensor stays one
        return log_spec.clamp(min=log_spec.max().item() - 80.0)  # CL103's `.item()`, no array's
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x):
        a = x.detach().cpu().numpy()  # traced: NumPy on a tensor is a tensor op
        b = np.clip(a * 2, 0, 1)
        n = a.shape[0]  # shapes are Python values
        return torch.from_numpy(b) + n
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
def evaluate(model, x):
    probs = model(x).softmax(-1).cpu().numpy()  # not compiled
    return int(np.argmax(probs)), probs.tolist()
""",
        """
import math
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x):
        scale = float(np.sqrt(x.shape[-1]))  # NumPy on Python values, cast: folded
        table = np.arange(4)
        if np.pi > 3 and np.ndim(table) == 1:  # a constant, a Python value
            scale = scale * 2
        levels = math.floor(float(np.log2(x.shape[-1]))) + np.log(x.shape[-1]).item()  # folded
        return x * scale * levels + len(table)
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x, a):
        if isinstance(a, np.ndarray):
            a = torch.as_tensor(a) * a.ndim  # an array's ndim Dynamo reads
        elif a.dtype == torch.float64:  # no array here
            a = a.float()
        if isinstance(x, (np.ndarray, torch.Tensor)) and x.dtype == torch.float32:  # a tensor may pass
            x = x * 2
        return x + a
""",
    ]
    INVALID = [
        """
import math
import numpy as np
import torch
class WaveletLevels(torch.nn.Module):
    def forward(self, x):
        n = x.shape[-1]
        levels = math.floor(np.log2(n))  # expect
        top = np.ceil(np.log(n)).astype("int").item()  # expect
        return x * levels * top
""",
        """
import numpy as np
import torch
@torch.compile
def numerical(x):
    cols = [x[:, i] for i in range(np.prod(x.shape[1:]))]  # expect
    return torch.stack(cols, -1)
""",
        """
import numpy as np
import torch
class Bounds(torch.nn.Module):
    def __init__(self, low, high):
        super().__init__()
        self.low, self.high = np.asarray(low), np.asarray(high)
    def forward(self, x):
        bad = np.any(self.low != 0) or np.any(self.high != 255)  # expect
        if np.any(self.low < 0) or np.any(self.high > 255):  # expect
            return x
        return x / 255.0 if not np.all(self.high > self.low) else x  # expect
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x):
        probs = x.softmax(-1).cpu().numpy()
        best = int(np.argmax(probs))  # expect
        if np.any(probs > 0.9):  # expect
            x = x * 2
        labels = probs.argmax(-1).tolist()  # expect
        top = probs.max().item()  # expect
        spread = float(x.detach().numpy().std())  # expect
        kept = probs[probs > 0.5]  # expect
        probs[probs < 0.1] = 0.0
        return x, best, labels, top, kept, spread
""",
        """
import numpy as np
import torch
class SplitLosses(torch.nn.Module):
    def forward(self, h):
        starts = list(map(int, np.cumsum([0] + self.num_bcs)))  # expect
        ends = [int(e) for e in np.cumsum(self.sizes)]  # expect
        return h[starts[-1]:].mean() + h[: ends[0]].sum()
""",
        """
import numpy as np
import torch
class Crops(torch.nn.Module):
    def forward(self, x):
        boxes = np.argsort(x.detach().cpu().numpy()[0, :4])
        y0, y1 = boxes[0], boxes[1]
        x0, x1 = tuple(boxes[2:4])
        return x[y0:y1, x0:]  # expect
""",
        """
import torch
@torch.compile
def summary(x):
    text = str(x.numpy())  # expect
    return x + 1, text
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x, eps=1e-3):
        for gc in range(1, 3):
            if np.remainder(gc, 2) == 1:  # expect
                x = x * 2
        return x if not np.isnan(eps) else -x  # expect
""",
        """
import numpy as np
import torch
class M(torch.nn.Module):
    def forward(self, x, a):
        if isinstance(a, np.ndarray) and issubclass(a.dtype.type, np.number):  # expect
            x = x + torch.as_tensor(a)
        if not isinstance(a, np.ndarray) or a.dtype.kind != "f":  # expect
            return x
        return x * 2
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._targets: set[int] = set()
        self._reported: set[int] = set()
        self._narrowed: set[int] = set()  # `x.dtype` where an `isinstance(x, np.ndarray)` test holds
        self._elements: dict[int, tuple[str, ...]] = {}  # comprehension -> the names it binds to array elements

    def visit_ListComp(self, node: cst.ListComp) -> None:
        # (entered with the comprehension: its element is walked before its `for`)
        names, comp = [], node.for_in
        while comp is not None:
            if isinstance(comp.target, cst.Name) and is_ndarray(comp.iter, self.ctx):
                names.append(comp.target.value)
            comp = comp.inner_for_in
        if names:
            self._elements[id(node)] = tuple(names)

    def leave_ListComp(self, node: cst.ListComp) -> None:
        self._elements.pop(id(node), None)

    visit_GeneratorExp = visit_SetComp = visit_DictComp = visit_ListComp
    leave_GeneratorExp = leave_SetComp = leave_DictComp = leave_ListComp

    def _tensor_rule_reports(self, node: cst.BaseExpression) -> bool:
        """CL102 already reports branches on what inference calls a tensor. (Casts of an
        ndarray are this rule's: `float(x.numpy().std())` is labelled CL105 in the corpus.)"""
        return self.ctx.kind(node).tensorish

    def visit_Call(self, node: cst.Call) -> None:
        for method in ("item", "tolist"):
            receiver = method_call(node, method)
            if receiver is not None and (is_ndarray(receiver, self.ctx)
                                         or method == "item" and numpy_integer(receiver, self.ctx)):
                self.report(node, self.message.format(what=f"`.{method}()`"))
                return
        qualified = self.ctx.qualify(node.func) or ""
        name = CASTS.get(qualified)
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        if name and first is not None and (is_ndarray(first, self.ctx)
                                           or name == "int" and numpy_integer(first, self.ctx)):
            self.report(node, self.message.format(what=f"`{name}()`"))
            return
        if name in ELEMENT_CASTS and isinstance(first, cst.Name) \
                and any(first.value in names for names in self._elements.values()):
            self.report(node, self.message.format(what=f"`{name}()` of an element"))
            return
        if (mapped := mapped_builtin(node, self.ctx.qualify)) and (cast := mapped[0]) in ELEMENT_CASTS \
                and is_ndarray(mapped[1], self.ctx):
            # `list(map(int, np.cumsum(sizes)))`: each element converted (GB0033, measured on 2.13.0 and 2.14.1)
            self.report(node, self.message.format(what=f"`map({cast}, ...)` (`{cast}()` of each element)"))
            return
        if qualified in SCALAR_READS and any(
                a.keyword is None and (is_ndarray(a.value, self.ctx) or tests_numpy_value(a.value, self.ctx))
                for a in node.args):
            self.report(node, self.message.format(what=f"`{qualified}()`"))
            return
        if qualified == "builtins.range" and any(
                a.keyword is None and (is_ndarray(a.value, self.ctx) or numpy_attribute(a.value, self.ctx))
                for a in node.args):
            # (a NumPy value Dynamo holds as an ndarray, even one it folded from a shape or keeps on
            # the object, `range(self.input_dim)` with `np.prod(shape)` in `__init__`: GB0059)
            self.report(node, self.message.format(what="`range()`"))
            return
        size = self._array_size(node, qualified)
        if size is not None:
            self.report(size, self.message.format(what="A size taken from the value"))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # Dynamo reads an array's shape, `ndim` and `itemsize` but not these (GB0157, measured on
        # 2.13.0 and 2.14.1: asteroid-filterbanks' `np.finfo(den.dtype)`)
        if node.attr.value in UNREAD_ATTRS and (id(node) in self._narrowed or is_ndarray(node.value, self.ctx)):
            self.report(node, self.message.format(what=f"`.{node.attr.value}`"))

    def _narrow(self, test: cst.BaseExpression, truth: bool, where: cst.CSTNode | None) -> None:
        """Note the attribute reads in `where` of names `test` proves are arrays when `truth`
        (tianshou's `isinstance(obj, np.ndarray) and issubclass(obj.dtype.type, ...)`)."""
        names = tested_arrays(test, self.ctx, truth) if where is not None else ()
        for name in names:
            reads = m.Attribute(value=m.Name(name), attr=m.OneOf(*(m.Name(a) for a in UNREAD_ATTRS)))
            self._narrowed.update(id(read) for read in m.findall(where, reads))

    def _array_size(self, node: cst.Call, qualified: str) -> cst.BaseExpression | None:
        """An array given as a size (CL107's `size_arguments`, and `torch.reshape`'s
        shape); alone or in a list or tuple of sizes (`x.reshape(-1, np.prod(x.shape[1:]))`)."""
        sizes = size_arguments(self.ctx, node, qualified, starred=True)  # (`x.permute(*dims)`)
        if qualified == "torch.reshape":
            values = [a.value for a in node.args[1:2] if a.keyword is None and not a.star]
        elif sizes is not None:
            values = sizes[0]
        else:  # an int argument: `F.pad(x, (0, right_pad))`, `x.chunk(n)`
            values = [value for _, value in int_arguments(self.ctx, node, qualified)]
        for value in values:
            items = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
            for item in items:
                if is_ndarray(item, self.ctx) or self._array_elements(item):
                    return item
        return None

    def _array_elements(self, value: cst.BaseExpression) -> bool:
        """`pads` (or `tuple(pads)`) bound once to a list comprehension whose elements are an
        array's (`[v for pair in zip(remaining, index) for v in pair]`, captum's occlusion pads):
        each is a 0-d array Dynamo holds as a tensor, read as a size (GB0033). Also one side of
        a concatenation (`pads + pads`)."""
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
            return self._array_elements(value.left) or self._array_elements(value.right)
        if isinstance(value, cst.Call) and len(value.args) == 1 and not value.args[0].keyword \
                and self.ctx.qualify(value.func) in ("builtins.tuple", "builtins.list"):
            value = value.args[0].value
        if not isinstance(value, cst.Name) or self.ctx.function is None:
            return False
        made = self.ctx.local_flag(value.value)
        if not isinstance(made, cst.ListComp) or not isinstance(made.elt, cst.Name):
            return False
        derived: set[str] = set()  # names the loops bind to an array's elements (or rows of them)

        def arrayish(node: cst.BaseExpression) -> bool:
            return is_ndarray(node, self.ctx) or isinstance(node, cst.Name) and node.value in derived

        comp = made.for_in
        while comp is not None:
            derived.update(element_names(comp.target, comp.iter, self.ctx.qualify, arrayish))
            comp = comp.inner_for_in
        return made.elt.value in derived

    def _test(self, test: cst.BaseExpression, what: str) -> None:
        if (is_ndarray(test, self.ctx) or tests_numpy_value(test, self.ctx)) and not self._tensor_rule_reports(test):
            self.report(test, self.message.format(what=what))
            self._reported.add(id(test))  # (an `and`/`or` reported whole: not again by its left side)

    def visit_If(self, node: cst.If) -> None:
        self._test(node.test, "An `if` on the value")
        self._narrow(node.test, True, node.body)
        self._narrow(node.test, False, node.orelse)

    def visit_While(self, node: cst.While) -> None:
        self._test(node.test, "A `while` on the value")

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._test(node.test, "A conditional expression on the value")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        # `np.any(low != 0) or np.any(high != 255)`: `or` tests its left side's truth (the
        # right side's is tested where the whole value is: `if bad:`)
        if id(node) not in self._reported:
            self._test(node.left, f"`{'and' if isinstance(node.operator, cst.And) else 'or'}` on the value")
        self._narrow(node.left, isinstance(node.operator, cst.And), node.right)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._test(node.expression, "`not` on the value")

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._targets.add(id(target.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets.add(id(node.target))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        bounds = [part for element in node.slice if isinstance(element.slice, cst.Slice)
                  for part in (element.slice.lower, element.slice.upper, element.slice.step) if part is not None]
        for bound in bounds:
            if is_ndarray(bound, self.ctx):
                self.report(bound, self.message.format(what="A slice bound taken from the values"))
                return
        if id(node) in self._targets or len(node.slice) != 1:
            return
        index = node.slice[0].slice
        mask = index.value if isinstance(index, cst.Index) else None
        if isinstance(mask, cst.Name) and self.ctx.function is not None:
            mask = self.ctx.local_flag(mask.value)  # `indices = np.absolute(k) < n / 2`, then `k[indices]`
        if not isinstance(mask, cst.Comparison):
            return
        if is_ndarray(node.value, self.ctx) and is_ndarray(mask, self.ctx):
            self.report(node, self.message.format(what="Boolean-mask indexing (its size depends on the values)"))
