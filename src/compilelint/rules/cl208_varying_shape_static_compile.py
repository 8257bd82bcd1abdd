import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import assignments_in, calls_in, compiled_options, loop_varying, names_in, source
from compilelint.rules.base import Rule

FACTORIES = frozenset({
    "randn", "rand", "zeros", "ones", "empty", "full", "randint", "arange", "linspace", "randperm",
})
RESHAPES = frozenset({
    "view", "reshape", "expand", "narrow", "repeat", "new_zeros", "new_ones", "new_empty",
    "new_full", "unflatten", "tile",
})
MARK_DYNAMIC = ("torch._dynamo.mark_dynamic", "torch._dynamo.maybe_mark_dynamic")


class VaryingShapeStaticCompile(Rule):
    code = "CL208"
    name = "varying-shape-static-compile"
    summary = "shapes vary between calls of a `dynamic=False` compile"
    message = ("`{arg}` changes shape between calls of `{callee}`, compiled with `dynamic=False`: every "
               "new shape compiles again, and after 8 (the recompile limit) it runs eagerly")
    severity = "warning"
    gb_id = None
    help = ("Drop `dynamic=False` (by default the second shape makes the size dynamic), pass `dynamic=True` "
           "or `torch._dynamo.mark_dynamic(x, dim)`, or pad inputs to a few fixed sizes.")
    region_only = False

    VALID = [
        """
import torch
model = torch.compile(Pool(), dynamic=True)
static = torch.compile(Pool(), dynamic=False)
default = torch.compile(Pool())
for seq_len in (5, 7, 9):
    model(torch.randn(2, seq_len, 8))  # dynamic=True
    default(torch.randn(2, seq_len, 8))  # one recompile, then dynamic
for batch in loader:
    static(batch[:, :16])  # a fixed slice
    static(torch.randn(2, 16, 8))
""",
        """
import torch
step = torch.compile(norm, dynamic=False)
def run(data):
    for start in range(0, 40, 16):
        batch = data[start:start + 16]  # a named window: left alone
        step(batch)
    for n in (8, 16, 32):
        x = torch.randn(n, 4)
        torch._dynamo.mark_dynamic(x, 0)
        step(x)
""",
    ]
    INVALID = [
        """
import torch
@torch.compile(dynamic=False)
def normalize(x):
    return (x - x.mean(0)) / (x.std(0) + 1e-5)
def epoch(data, batch=16):
    for start in range(0, len(data), batch):
        normalize(data[start:start + batch])  # expect
""",
        """
import torch
model = torch.compile(Pool(), dynamic=False)
for seq_len in (5, 7, 9):
    model(torch.randn(2, seq_len, 8))  # expect
""",
        """
import torch
@torch.compile(dynamic=False)
def normalize(x):
    return (x - x.mean(0)) / (x.std(0) + 1e-5)
def run(data, lengths):
    for n in lengths:
        normalize(data[:n])  # expect
        chunk = data[:, : n * 2]
        normalize(chunk)  # expect
        normalize(data.view(n, -1))  # expect
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        loops = self.ctx.loops
        if not loops:
            return
        options = compiled_options(self.ctx, node.func)
        if options is None or options.get("dynamic") != "False":
            return
        scope = self.ctx.function
        if scope is not None and "warm" in scope.qualname.rsplit(".", 1)[-1].lower():
            return  # compiling each shape on purpose, ahead of time
        varying: set[str] = set()
        for loop in loops:
            varying |= loop_varying(loop)
        if not varying:
            return
        for arg in node.args:
            if arg.star:
                continue
            if self._shape_varies(arg.value, varying, loops, depth=0):
                label = source(arg.value)
                self.report(node, self.message.format(arg=label, callee=dotted(node.func) or "callable"))
                return
        for arg in node.args:
            if not arg.star and self._fixed_window(arg.value, varying):
                self.report(node, self.LAST_BATCH.format(arg=source(arg.value), callee=dotted(node.func) or "callable"),
                            severity="note")
                return

    LAST_BATCH = ("`{arg}` is a fixed-width window, but the last one is shorter unless the length divides "
                  "evenly: with `dynamic=False`, `{callee}` compiles once more for it")

    def _fixed_window(self, value: cst.BaseExpression, varying: set[str]) -> bool:
        """data[start:start + 16] with `start` from the loop: only the last batch differs."""
        if not isinstance(value, cst.Subscript):
            return False
        for element in value.slice:
            part = element.slice
            if isinstance(part, cst.Slice) and part.lower is not None and names_in(part.lower) & varying \
                    and isinstance(part.upper, cst.BinaryOperation) and isinstance(part.upper.operator, cst.Add) \
                    and part.upper.left.deep_equals(part.lower):
                return True
        return False

    def _shape_varies(self, value: cst.BaseExpression, varying: set[str], loops, depth: int) -> bool:
        if isinstance(value, cst.Subscript):
            for element in value.slice:
                part = element.slice
                if isinstance(part, cst.Slice) and self._width_varies(part, varying):
                    return True
            return self._shape_varies(value.value, varying, loops, depth)
        if isinstance(value, cst.Call):
            qualified = self.ctx.qualify(value.func) or ""
            if qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in FACTORIES:
                return any(names_in(a.value) & varying for a in value.args if a.keyword is None
                           or a.keyword.value in ("size", "end", "start", "steps", "high"))
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value in RESHAPES:
                return any(names_in(a.value) & varying for a in value.args)
            return False
        if isinstance(value, cst.Name) and value.value in varying and depth < 3:
            for loop in loops:
                stmts = assignments_in(loop).get(value.value, [])
                if stmts and self._marked_dynamic(loop, value.value):
                    return False
                for stmt in stmts:
                    bound = getattr(stmt, "value", None)
                    if isinstance(stmt, cst.Assign) and isinstance(bound, cst.BaseExpression) \
                            and self._shape_varies(bound, varying, loops, depth + 1):
                        return True
        return False

    def _width_varies(self, part: cst.Slice, varying: set[str]) -> bool:
        lower, upper = part.lower, part.upper
        low_names = names_in(lower) & varying
        up_names = names_in(upper) & varying
        if not low_names and not up_names:
            return False
        # data[start:start + 16]: a fixed width (only the last batch may be shorter)
        if lower is not None and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add):
            if upper.left.deep_equals(lower) and not (names_in(upper.right) & varying):
                return False
        return True

    def _marked_dynamic(self, loop: cst.CSTNode, name: str) -> bool:
        """`torch._dynamo.mark_dynamic(name, ...)` in the loop: the user made the size dynamic."""
        for callee in (*MARK_DYNAMIC, "mark_dynamic", "maybe_mark_dynamic"):
            for call in calls_in(loop.body, callee):
                if call.args and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == name:
                    return True
        return False
