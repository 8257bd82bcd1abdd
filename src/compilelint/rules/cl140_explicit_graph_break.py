import libcst as cst

from compilelint.finding import DISABLED_CALL
from compilelint.rules.base import Rule
from compilelint.semantic.compiled import SKIP_NAMES

GRAPH_BREAK = frozenset({"torch._dynamo.graph_break"})
# Wrappers that make Dynamo skip a function: calling one from compiled code breaks the graph
# (GB0098). allow_in_graph / assume_constant_result do not.
DISABLE = SKIP_NAMES


def _decorator_targets(node: cst.FunctionDef) -> list[cst.BaseExpression]:
    return [d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator for d in node.decorators]


class ExplicitGraphBreak(Rule):
    code = "CL140"
    name = "explicit-graph-break"
    summary = "`torch._dynamo.graph_break()` and calls of `torch.compiler.disable` functions"
    message = "`torch._dynamo.graph_break()` splits the compiled graph here on purpose"
    severity = "error"
    gb_id = "GB0025"
    help = ("Remove it once it is not needed (it is a debugging aid); to keep a part eager, put that "
           "part in a function under `torch.compiler.disable` outside loops.")
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl140_disabled"

    VALID = [
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return self.helper(x)
    def helper(self, x):
        return x * 2
@torch.compiler.disable
def log_stats(x):
    torch._dynamo.graph_break()  # inside a disabled function: runs eagerly anyway
    return x
def debug(model, x):
    torch._dynamo.graph_break()  # not compiled
    return model(x)
""",
        """
import torch
from torch._dynamo import allow_in_graph
@allow_in_graph
def fused(x):
    return x * 2
class M(torch.nn.Module):
    def forward(self, x):
        return fused(x)  # allow_in_graph: no break
""",
    ]
    INVALID = [
        """
import torch
@torch.compiler.disable
def host_side(x):
    return x.tolist()
class M(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        torch._dynamo.graph_break()  # expect
        stats = host_side(y)  # expect
        z = self.check(y)  # expect
        w = torch.compiler.disable(sorted)(stats)  # expect
        return z
    @torch._dynamo.disable(recursive=False)
    def check(self, y):
        return y
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._functions: dict[str, list[cst.BaseExpression]] = {}
        self._methods: dict[tuple[str, str], list[cst.BaseExpression]] = {}
        self._wrapped: dict[str, cst.BaseExpression] = {}

    def visit_Module(self, node: cst.Module) -> None:
        for stmt in node.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.decorators:
                self._functions[stmt.name.value] = _decorator_targets(stmt)
            elif isinstance(stmt, cst.ClassDef):
                for item in stmt.body.body:
                    if isinstance(item, cst.FunctionDef) and item.decorators:
                        self._methods[(stmt.name.value, item.name.value)] = _decorator_targets(item)
            elif isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) \
                            and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                        self._wrapped[small.targets[0].target.value] = small.value.func

    def _disabled(self, targets: list[cst.BaseExpression]) -> bool:
        return any((self.ctx.qualify(t) or "") in DISABLE for t in targets)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qualified = self.ctx.qualify(func) or ""
        if qualified in GRAPH_BREAK:
            self.report(node)
            return
        disabled = None
        if isinstance(func, cst.Call) and (self.ctx.qualify(func.func) or "") in DISABLE:
            disabled = "a function wrapped in torch.compiler.disable"
        elif isinstance(func, cst.Name) and not any(func.value in scope.env for scope in self.ctx.scopes):
            name = func.value
            if self._disabled(self._functions.get(name, [])) or (
                    name in self._wrapped and self._disabled([self._wrapped[name]])):
                disabled = f"`{name}`, which is under torch.compiler.disable"
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            scope = self.ctx.function
            if scope is not None and scope.class_name:
                cls = scope.class_name.split(".")[-1]
                if self._disabled(self._methods.get((cls, func.attr.value), [])):
                    disabled = f"`self.{func.attr.value}`, which is under torch.compiler.disable"
        needs: tuple[str, ...] = ()
        if disabled is None and self._elsewhere(func, qualified) and (edge := self.ctx.edge_index(node)) is not None:
            # a function another file of the project defines: whether it is disabled, the project says
            disabled, needs = "{callee}, which is under torch.compiler.disable", \
                (f"{DISABLED_CALL}{self.ctx.function.qualname}|{edge}",)
        if disabled:
            self.report(node, f"calls {disabled}: Dynamo ends the graph before the call and starts a new one after it",
                        severity="note", help="Intended when the function cannot be traced; keep such calls out of "
                        "loops and hot paths, and prefer making the function traceable.", needs=needs)

    def _elsewhere(self, func: cst.BaseExpression, qualified: str) -> bool:
        """`binary_search(...)` / `utils.binary_search(...)`, a name imported from the file's own
        top-level package (torchdr's affinities call `torchdr.utils.binary_search`)."""
        module = self.ctx.module or ""
        top = module.split(".", 1)[0]
        return bool(top) and self.ctx.function is not None and isinstance(func, (cst.Name, cst.Attribute)) \
            and qualified.startswith(top + ".") and not qualified.startswith(module + ".")  # (this file's: above)
