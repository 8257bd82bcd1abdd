import libcst as cst

from compilelint.rules.base import Rule, replace

# The methods of an autograd Function that take the context first.
CTX_METHODS = frozenset({"forward", "backward", "setup_context", "jvp", "vjp"})


class CtxSavedVariables(Rule):
    code = "CL145"
    name = "ctx-saved-variables"
    summary = "`ctx.saved_variables` in an autograd Function: the old name of `ctx.saved_tensors`"
    message = ("`{ctx}.saved_variables` is the old name of `{ctx}.saved_tensors`: Dynamo's context knows only "
               "the new one, raises inside the trace and runs the whole function eagerly (GB0088)")
    severity = "error"
    gb_id = "GB0088"
    help = "Read `ctx.saved_tensors`: same tensors, and Dynamo traces it."
    autofix = "`ctx.saved_variables` becomes `ctx.saved_tensors`"
    breaks_graph = True

    VALID = [
        """
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2
class Net(torch.nn.Module):
    def forward(self, x):
        return Scale.apply(x)
""",
        """
import torch
class Record:
    saved_variables = ()
class Net(torch.nn.Module):
    def forward(self, x, record: Record):
        return x * len(record.saved_variables)  # not a Function's context
""",
    ]

    INVALID = [
        """
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_variables  # expect
        return grad * 2
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
    def forward(self, x):
        return Scale.apply(self.fc(x))
""",
    ]

    FIXED = {
        0: """
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors  # expect
        return grad * 2
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
    def forward(self, x):
        return Scale.apply(self.fc(x))
""",
    }

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != "saved_variables" or not isinstance(node.value, cst.Name):
            return
        ctx = self._context_param()
        if ctx is not None and node.value.value == ctx:
            self.report(node, self.message.format(ctx=ctx),
                        edits=(replace(node.attr, "saved_tensors"),))

    def _context_param(self) -> str | None:
        """The first parameter of the enclosing Function method (a static method of a class:
        autograd Functions pass their context there)."""
        scope = self.ctx.function
        func = scope.node if scope is not None else None
        # (the walker's `bound`: False for a class's own @staticmethod, not for a nested def)
        if not isinstance(func, cst.FunctionDef) or scope.bound or func.name.value not in CTX_METHODS \
                or scope.qualname != f"{scope.class_name}.{func.name.value}":
            return None
        params = func.params.posonly_params or func.params.params
        return params[0].name.value if params else None
