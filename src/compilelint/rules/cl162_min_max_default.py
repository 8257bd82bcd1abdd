import libcst as cst

from compilelint.rules.base import Rule

MIN_MAX = frozenset({"builtins.min", "builtins.max"})


class MinMaxDefault(Rule):
    code = "CL162"
    name = "min-max-default"
    summary = "`min()` / `max()` of a generator expression with `default=`: Dynamo cannot take the keyword"
    message = ("`{name}(..., default=...)` of a generator expression: before torch 2.14 Dynamo's `{name}` takes no "
               "`default` keyword once the values are not constants (\"invalid call to builtin op handler\") and "
               "breaks the graph")
    severity = "error"
    gb_id = "GB0059"
    breaks_graph = True
    torch_max = (2, 14)
    help = ("Build a list and test it: `found = [t for t in xs if t < i]`, then `{name}(found) if found else None`; "
            "torch 2.14 traces the keyword.")

    VALID = [
        """
import torch
SIZES = [3, 1, 2]
@torch.compile
def f(x, frames):
    found = [t for t in frames if t < 4]
    latest = max(found) if found else None  # a list tested first
    widest = max(SIZES, default=0)  # constants: Dynamo folds the call
    first = min(t for t in frames)  # no `default`
    return x * widest + (latest or 0) + first
""",
    ]
    INVALID = [
        """
import torch
@torch.compile
def f(x, frames, i):
    before = max((t for t in frames if t < i), default=None)  # expect
    after = min((t for t in frames if t >= i), default=0)  # expect
    return x + (before or 0) + after
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.function is None or len(node.args) != 2:
            return
        value, default = node.args
        if value.keyword is not None or value.star or default.keyword is None or default.keyword.value != "default" \
                or not isinstance(value.value, cst.GeneratorExp):
            return
        name = self.ctx.qualify(node.func)
        if name in MIN_MAX:
            short = name[len("builtins."):]
            self.report(node, self.message.format(name=short), help=self.help.format(name=short))
