import libcst as cst

from compilelint.rules._callsite import source
from compilelint.rules.base import Rule
from compilelint.semantic.compile_values import nested_scope
from compilelint.traverse import iter_nodes


class SignatureProbe(Rule):
    code = "CL159"
    name = "signature-probe"
    summary = ("`for layer in blocks: try: layer(x, lengths=n)` / `except TypeError: layer(x)`: a loop's element "
               "retried with fewer arguments")
    message = ("`{call}` is retried with fewer arguments when it raises `TypeError`: a callee that does not "
               "take them fails Dynamo's argument binding, which skips the whole frame (GB7312)")
    severity = "warning"  # (a break only where some callee lacks the parameter, as the fallback says one does)
    gb_id = "GB7312"
    torch_max = (2, 14)  # 2.14 raises the TypeError inside the trace, where the handler catches it (2.14.1)
    help = ("Give every callee the same signature (`def forward(self, x, lengths=None)`), or decide once, "
            "outside the compiled code, which layers take the argument (`inspect.signature` at construction) "
            "and branch on that flag.")
    # (no CL150 for a loop around it: the binding failure skips the whole frame, not the loop)

    VALID = [
        """
import torch
class Stack(torch.nn.Module):
    def __init__(self, blocks, head):
        super().__init__()
        self.blocks = torch.nn.ModuleList(blocks)
        self.head = head
    def forward(self, x, lengths=None):
        for layer in self.blocks:
            try:
                x = layer(x, lengths=lengths)
            except ValueError:  # not a signature probe
                x = layer(x)
        try:
            x = self.head(x, lengths)  # one callee, outside a loop: a shim that binds as configured
        except TypeError:
            x = self.head(x)
        try:
            on = torch.is_autocast_enabled(x.device.type)  # a library's version shim
        except TypeError:
            on = torch.is_autocast_enabled()
        return x * on
""",
    ]
    INVALID = [
        """
import torch
class Stack(torch.nn.Module):
    def __init__(self, blocks, metrics):
        super().__init__()
        self.blocks = torch.nn.ModuleList(blocks)
        self.metrics = metrics
    def forward(self, x, lengths=None):
        for layer in self.blocks:
            try:
                x = layer(x, lengths=lengths)  # expect
            except (TypeError, ValueError):
                x = layer(x)
        losses = []
        for metric in self.metrics:
            try:
                losses.append(metric.loss(x, lengths=lengths))  # expect
            except TypeError:
                losses.append(metric.loss(x))
        return x, losses
""",
    ]

    def visit_Try(self, node: cst.Try) -> None:
        if self.ctx.function is None:
            return
        retried = [call for handler in node.handlers if _catches_type_error(handler.type)
                   for call in _calls(handler.body)]
        if not retried:
            return
        # the stack-of-blocks idiom: the callee is the loop's element (`for layer in self.blocks`)
        # or its method (`metric.to_prediction`),
        # blocks of several signatures; one callee retried outside such a loop is a version or
        # configuration shim that binds as configured (a loss wrapper's `self.loss_fn`, a torch API)
        elements = {n.value for loop in self.ctx.loops if isinstance(loop, cst.For)
                    for n in iter_nodes(loop.target) if isinstance(n, cst.Name)}
        for call in _calls(node.body):
            if _element(call.func) in elements and any(_fewer(again, call) for again in retried):
                self.report(call, self.message.format(call=f"{source(call.func)}(...)"))


def _element(func: cst.BaseExpression) -> str | None:
    """The name a call is made through: `layer(...)`, `metric.to_prediction(...)`."""
    if isinstance(func, cst.Attribute):
        func = func.value
    return func.value if isinstance(func, cst.Name) else None


def _catches_type_error(kind: cst.BaseExpression | None) -> bool:
    if isinstance(kind, cst.Name):
        return kind.value == "TypeError"
    return isinstance(kind, cst.Tuple) and any(_catches_type_error(e.value) for e in kind.elements)


def _calls(body: cst.CSTNode) -> list[cst.Call]:
    """The calls a block makes itself (not those of functions or classes it defines)."""
    return [n for n in iter_nodes(body, prune=nested_scope) if isinstance(n, cst.Call)]


def _fewer(again: cst.Call, first: cst.Call) -> bool:
    """`again` calls what `first` calls, with some of its arguments left out and none added."""
    if not again.func.deep_equals(first.func) or len(again.args) >= len(first.args):
        return False
    return all(any(_same_arg(a, b) for b in first.args) for a in again.args)


def _same_arg(a: cst.Arg, b: cst.Arg) -> bool:
    """The same argument, whatever the commas and spaces around it."""
    same_keyword = a.keyword.value == b.keyword.value if a.keyword and b.keyword else a.keyword is b.keyword
    return same_keyword and a.star == b.star and a.value.deep_equals(b.value)
