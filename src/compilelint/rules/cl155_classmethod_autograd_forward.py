import libcst as cst

from compilelint.rules.base import Rule
from compilelint.semantic.kinds import AUTOGRAD_FUNCTIONS, dotted



class ClassmethodAutogradForward(Rule):
    code = "CL155"
    name = "classmethod-autograd-forward"
    summary = "an autograd Function whose `forward` is a `@classmethod`: `.apply` breaks with gradients on"
    message = ("`{cls}.forward` is a `@classmethod`: with gradients on, Dynamo binds `apply`'s arguments to a "
               "static `forward(ctx, ...)`, which fails and breaks the graph (GB7312; on torch 2.14 an "
               "exception that unwinds the frame, GB0088)")
    super_message = ("`super().forward(...)` in the `@classmethod` `forward` of `{cls}`: with gradients off, "
                     "Dynamo fails on it with an internal error, so the compiled call raises (or, with "
                     "`suppress_errors`, runs eagerly)")
    severity = "error"
    gb_id = "GB7312"
    breaks_graph = True
    help = ("Make `forward` and `backward` `@staticmethod`s taking `ctx` first (what `torch.autograd.Function` "
            "documents); call a shared base's forward as `Base.forward(ctx, ...)`, not through `super()`.")

    VALID = [
        """
import torch
from torch.autograd import Function
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad
class Net(torch.nn.Module):
    def forward(self, x):
        return Square.apply(x)
""",
        """
import torch
class Registry:
    @classmethod
    def forward(cls, x):  # not an autograd Function: `apply` is its own
        return x
    @classmethod
    def apply(cls, x):
        return cls.forward(x)
class Net(torch.nn.Module):
    def forward(self, x):
        return Registry.apply(x)
""",
    ]
    INVALID = [
        """
import torch
from torch.autograd import Function
class Sparsemax(Function):
    @classmethod
    def forward(cls, ctx, x, dim=-1):
        ctx.save_for_backward(x)
        return x.clamp(min=0)
    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x > 0), None
class Net(torch.nn.Module):
    def forward(self, x):
        return Sparsemax.apply(x, -1)  # expect
""",
        """
import torch
from torch.autograd import Function
class GenericLoss(Function):
    @classmethod
    def forward(cls, ctx, x, alpha=2.0):
        ctx.save_for_backward(x)
        return x.pow(alpha).sum()
    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x, None
class SquaredLoss(GenericLoss):
    @classmethod
    def forward(cls, ctx, x):
        return super().forward(ctx, x, alpha=2.0)  # expect
class Net(torch.nn.Module):
    def forward(self, x):
        return SquaredLoss.apply(x)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        # the file's classes: name -> (bases as written, whether its own `forward` is a classmethod)
        self._classes: dict[str, tuple[list, bool | None]] = {}

    def visit_Module(self, node: cst.Module) -> None:
        self._classes = {}
        if "classmethod" not in (self.ctx.text or "classmethod"):
            return
        for stmt in node.body:
            if isinstance(stmt, cst.ClassDef):
                forward = next((s for s in stmt.body.body if isinstance(s, cst.FunctionDef)
                                and s.name.value == "forward"), None)
                own = None if forward is None else any(
                    dotted(d.decorator) == "classmethod" for d in forward.decorators)
                self._classes[stmt.name.value] = ([arg.value for arg in stmt.bases if arg.keyword is None], own)

    def _function_class(self, name: str, depth: int = 0) -> bool | None:
        """For a class of the file: True when it is an autograd Function whose `forward` (its own
        or a base's in the file) is a classmethod, False when it is one whose is not; None: not one."""
        known = self._classes.get(name)
        if known is None or depth > 8:
            return None
        bases, own = known
        for base in bases:
            if self.ctx.qualify(base) in AUTOGRAD_FUNCTIONS:
                return bool(own)
            inherited = self._function_class(dotted(base) or "", depth + 1)
            if inherited is not None:
                return inherited if own is None else own
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if not self._classes or not isinstance(node.func, cst.Attribute):
            return
        func = node.func
        if func.attr.value == "apply" and isinstance(func.value, cst.Name) \
                and self._function_class(func.value.value):
            self.report(node, self.message.format(cls=func.value.value), when=("grad",))
        elif func.attr.value == "forward" and isinstance(func.value, cst.Call) and dotted(func.value.func) == "super":
            scope = self.ctx.function
            owner = scope.class_name if scope is not None else None
            defined = scope.node if scope is not None else None
            if owner and "." not in owner and isinstance(defined, cst.FunctionDef) \
                    and defined.name.value == "forward" and self._function_class(owner):
                # (with gradients on, `apply` breaks first and this runs eagerly)
                self.report(node, self.super_message.format(cls=owner), when=("no_grad",))
