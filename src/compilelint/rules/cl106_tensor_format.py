import libcst as cst

from compilelint.semantic.kinds import Kind
from compilelint.semantic.ndarrays import is_ndarray
from compilelint.rules.base import Rule

BUILTINS = {"builtins.str": "str", "builtins.repr": "repr", "builtins.ascii": "ascii",
            "builtins.format": "format"}
CONVERSIONS = {"r": "repr", "s": "str", "a": "ascii"}


class TensorFormat(Rule):
    code = "CL106"
    name = "tensor-format"
    summary = "f-string, `%`, `str.format` or `str()` of a tensor"
    message = ("{what} of a tensor needs its values as text: Dynamo cannot trace it and breaks the graph")
    severity = "error"
    gb_id = "GB0059"
    help = ("Format tensors outside the compiled region, or use a plain f-string (`f\"{x}\"`, "
           "`\"{}\".format(x)`), which Dynamo formats lazily after the graph runs.")
    breaks_graph = True

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        key = f"{x.shape}-{x.dtype}"  # metadata: Python values
        label = str(x.shape[0]) + repr(x.dtype)
        note = "%d rows" % x.shape[0]
        lazy = f"mean={x.mean():.3f}"  # a plain f-string of a tensor is formatted lazily
        also = "{}".format(x)
        return x, key, label, note, lazy, also
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
    def extra_repr(self):
        return str(self.weight)  # not compiled
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, name: str = "a"):
        tag = "%s/%s" % (name, "b")
        return x, str(name), tag
""",
    ]
    INVALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        text = str(y)  # expect
        shown = repr(y.sum())  # expect
        line = "loss=%.4f" % y.mean()  # expect
        row = "%s %s" % ("y", y)  # expect
        debug = f"{y!r}"  # expect
        return y, text, shown, line, row, debug
""",
        """
import torch
class Router(torch.nn.Module):
    def forward(self, x):
        choice = self.gate(x).argmax(-1)
        tag = f"expert-{choice[0]}".upper()  # expect
        name = f"e{choice[0]}"
        if name == "e0":  # expect
            x = x * 2
        self.log.append(f"n={x.sum()}")  # stored as it is: fine
        return x, len(name)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._lazy: dict[int, dict[str, Kind]] = {}  # function node id -> names holding lazy f-strings

    def _lazy_kind(self, node: cst.BaseExpression) -> Kind | None:
        """Kind of the tensor inside a lazily formatted string (an f-string or `"...".format(t)`
        with a tensor field, or a local name bound to one), else None."""
        if isinstance(node, cst.FormattedString):
            kinds = [self._kind(p.expression) for p in node.parts
                     if isinstance(p, cst.FormattedStringExpression) and not p.conversion]
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format" \
                and isinstance(node.func.value, (cst.SimpleString, cst.ConcatenatedString)):
            kinds = [self._kind(a.value) for a in node.args]
        elif isinstance(node, cst.Name) and self.ctx.function is not None:
            return self._lazy.get(id(self.ctx.function.node), {}).get(node.value)
        else:
            return None
        kinds = [k for k in kinds if k is not None]
        if not kinds:
            return None
        return Kind.TENSOR if Kind.TENSOR in kinds else Kind.LIKELY

    def _used(self, node: cst.CSTNode, value: cst.BaseExpression, how: str) -> bool:
        kind = self._lazy_kind(value)
        if kind is None:
            return False
        self.report(node, f"{how} uses an f-string of a tensor as text: Dynamo formats such strings lazily, "
                          "after the graph, and breaks the graph where the text itself is needed",
                    severity="error" if kind == Kind.TENSOR else "warning",
                    help="Keep the formatted string as it is (store, append, return it) and use it as text "
                        "outside the compiled region.")
        return True

    def visit_Assign(self, node: cst.Assign) -> None:
        scope = self.ctx.function
        if scope is None:
            return
        names = [t.target.value for t in node.targets if isinstance(t.target, cst.Name)]
        if not names:
            return
        table = self._lazy.setdefault(id(scope.node), {})
        kind = self._lazy_kind(node.value) if not isinstance(node.value, cst.Name) else None
        for name in names:
            if kind is None:
                table.pop(name, None)
            else:
                table[name] = kind

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for side in (node.left, *(c.comparator for c in node.comparisons)):
            if self._used(node, side, "A comparison"):
                return

    def _kind(self, node: cst.BaseExpression) -> Kind | None:
        if is_ndarray(node, self.ctx):
            return None  # an ndarray: CL105 reports it
        kind = self.ctx.kind(node)
        return kind if kind.tensorish else None

    def _report(self, node: cst.CSTNode, what: str, kind: Kind) -> None:
        self.report(node, self.message.format(what=what),
                    severity="error" if kind == Kind.TENSOR else "warning")

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and self._used(node, func.value, f"`.{func.attr.value}()`"):
            return
        qualified = self.ctx.qualify(func) or ""
        if qualified == "builtins.len" and node.args and self._used(node, node.args[0].value, "`len()`"):
            return
        name = BUILTINS.get(qualified)
        if name and node.args and node.args[0].keyword is None:
            kind = self._kind(node.args[0].value)
            if kind is not None:
                self._report(node, f"`{name}()`", kind)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Add):
            if not self._used(node, node.left, "`+`"):
                self._used(node, node.right, "`+`")
            return
        if not isinstance(node.operator, cst.Modulo):
            return
        if not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString)):
            return
        values = [e.value for e in node.right.elements] if isinstance(node.right, cst.Tuple) else [node.right]
        kinds = [k for k in (self._kind(v) for v in values) if k is not None]
        if kinds:
            self._report(node, "`%`-formatting", Kind.TENSOR if Kind.TENSOR in kinds else Kind.LIKELY)

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        name = CONVERSIONS.get(node.conversion or "")
        if name:
            kind = self._kind(node.expression)
            if kind is not None:
                self._report(node, f"`!{node.conversion}` in an f-string (`{name}()`)", kind)
