import libcst as cst

from compilelint.inference import Kind
from compilelint.rules._ndarray import TracksNdarrays, is_ndarray
from compilelint.rules.base import Rule

BUILTINS = {"builtins.str": "str", "builtins.repr": "repr", "builtins.ascii": "ascii",
            "builtins.format": "format"}
CONVERSIONS = {"r": "repr", "s": "str", "a": "ascii"}


class TensorFormat(TracksNdarrays, Rule):
    code = "CL106"
    name = "tensor-format"
    message = ("{what} of a tensor needs its values as text: Dynamo cannot trace it and breaks the graph")
    severity = "error"
    gb_id = "GB0059"
    fix = ("Format tensors outside the compiled region, or use a plain f-string (`f\"{x}\"`, "
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
    ]

    def _kind(self, node: cst.BaseExpression) -> Kind | None:
        if is_ndarray(node, self.ctx):
            return None  # an ndarray made from a tensor: CL105 reports it
        kind = self.ctx.kind(node)
        return kind if kind.tensorish else None

    def _report(self, node: cst.CSTNode, what: str, kind: Kind) -> None:
        self.report(node, self.message.format(what=what),
                    severity="error" if kind == Kind.TENSOR else "warning")

    def visit_Call(self, node: cst.Call) -> None:
        name = BUILTINS.get(self.ctx.qualify(node.func) or "")
        if name and node.args and node.args[0].keyword is None:
            kind = self._kind(node.args[0].value)
            if kind is not None:
                self._report(node, f"`{name}()`", kind)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
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
