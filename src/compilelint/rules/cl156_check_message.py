import libcst as cst

from compilelint.rules._callsite import target_version
from compilelint.rules.base import Rule
from compilelint.semantic.kinds import VALUE_ATTRS

CHECKS = frozenset({"torch._check", "torch._check_index", "torch._check_value", "torch._check_type",
                    "torch._check_not_implemented", "torch._check_is_size", "torch._check_with"})
# a message that is not a callable: Dynamo 2.13 and older cannot extract it (GB9840; GB0288 on
# 2.11); 2.14 can. Before 2.13 a closure formatting any value fails too (GB0288 on 2.11)
PLAIN_FIXED = (2, 14)
CLOSURE_FIXED = (2, 13)


class CheckMessage(Rule):
    code = "CL156"
    name = "check-message"
    summary = "a `torch._check*()` message Dynamo cannot take: a plain string (before 2.14), a closure over tensors"
    # (and, before 2.13, any formatting closure)
    message = "`{call}()` with {what}: Dynamo {why} and breaks the graph ({gb})"
    severity = "error"
    gb_id = "GB9840"
    breaks_graph = True
    help = ("Pass the message as a lambda returning a constant string (`lambda: \"dtypes must match\"`), or one "
            "over Python values only (`lambda: f\"expected {n} rows\"` with `n` an int).")

    VALID = [
        """
import torch
@torch.compile
def add(x, y):
    torch._check(x.dtype == y.dtype, lambda: "all inputs must share a dtype")
    n = x.shape[0]
    torch._check(n == y.shape[0], lambda: f"expected {n} rows")
    torch._check(x.dim() == 2)
    return x + y
""",
    ]
    INVALID = [
        """
import torch
@torch.compile
def add(x, y):
    torch._check(x.dtype == torch.float32, "inputs must be float32")  # expect
    return x + y
@torch.compile
def mul(x: torch.Tensor, y: torch.Tensor):
    torch._check(x.shape == y.shape, lambda: f"{x.shape} vs {y.shape}")  # expect
    return x * y
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified not in CHECKS:
            return
        message = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "message"), None)
        if message is None:
            positional = [a for a in node.args if a.keyword is None and not a.star]
            message = positional[1].value if len(positional) > 1 else None
        if message is None:
            return
        call = qualified
        if isinstance(message, cst.Lambda):
            held = _tensor_field(message.body, self.ctx)
            if held is None and target_version(self.ctx) < CLOSURE_FIXED and _formats(message.body):
                self.report(node, self.message.format(
                    call=call, what="a message closure that formats values",
                    why="before torch 2.13 cannot turn a formatting closure into a constant message", gb="GB0288"))
            elif held is not None:
                self.report(node, self.message.format(
                    call=call, what=f"a message closure that formats `{held}`",
                    why="cannot turn a closure over tensor values into a constant message", gb="GB9158"))
        elif _text(message, self.ctx) and target_version(self.ctx) < PLAIN_FIXED:
            self.report(node, self.message.format(
                call=call, what="a plain string message",
                why="before torch 2.14 takes only a callable message", gb="GB9840"))


def _text(node: cst.BaseExpression, ctx) -> bool:
    """A string, not a callable: a literal, an f-string, a concatenation, a local bound to one."""
    if isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name) and ctx.function is not None:
        bound = ctx.local_flag(node.value)
        return isinstance(bound, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))
    return False


def _formats(body: cst.BaseExpression) -> bool:
    return isinstance(body, cst.FormattedString) and any(
        isinstance(part, cst.FormattedStringExpression) for part in body.parts)


def _tensor_field(body: cst.BaseExpression, ctx) -> str | None:
    """In an f-string message, a field that reads a tensor or its dtype, shape or device."""
    if not isinstance(body, cst.FormattedString):
        return None
    for part in body.parts:
        if not isinstance(part, cst.FormattedStringExpression):
            continue
        value = part.expression
        subject = value.value if isinstance(value, cst.Attribute) and value.attr.value in VALUE_ATTRS else value
        if ctx.kind(subject).tensorish:
            return cst.Module([]).code_for_node(value)
    return None
