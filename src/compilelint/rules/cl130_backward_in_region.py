import libcst as cst

from compilelint.semantic.kinds import Kind
from compilelint.rules.base import Rule

AUTOGRAD = {
    "torch.autograd.backward": ("torch.autograd.backward()", "GB0007"),
    "torch.autograd.grad": ("torch.autograd.grad()", "GB9186"),
}


class BackwardInRegion(Rule):
    code = "CL130"
    name = "backward-in-region"
    summary = "`.backward()` / `torch.autograd.backward` in a region"
    message = ("`{what}` inside the compiled region: Dynamo does not trace the backward pass from "
               "within a graph and breaks it ({gb})")
    severity = "error"
    gb_id = "GB0123"
    help = ("Compile the forward (and the loss) only, and call `loss.backward()` and `optimizer.step()` "
           "outside the compiled function; for backward graphs, enable compiled autograd.")
    breaks_graph = True

    VALID = [
        """
import torch
model = torch.compile(Net())
def train(loader, opt):
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # outside the compiled function: the usual training loop
        opt.step()
        grads = torch.autograd.grad(loss, model.parameters(), allow_unused=True)
""",
        """
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        return grad * 2
class M(torch.nn.Module):
    def forward(self, x):
        return Scale.apply(x)
    def backward_hook(self, grad):
        return grad
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
model = Net()
@torch.compile
def train_step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()  # expect
    return loss.detach()
""",
        """
import torch
class Critic(torch.nn.Module):
    def forward(self, real, fake):
        score = self.net(fake)
        grad, = torch.autograd.grad(score.sum(), fake, create_graph=True)  # expect
        torch.autograd.backward(score.sum())  # expect
        self.scaler.scale(score.mean()).backward()  # expect
        return grad
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qualified = self.ctx.qualify(func) or ""
        if qualified in AUTOGRAD:
            what, gb = AUTOGRAD[qualified]
            self.report(node, self.message.format(what=what, gb=gb))
            return
        if not (isinstance(func, cst.Attribute) and func.attr.value == "backward"):
            return
        receiver = func.value
        if isinstance(receiver, cst.Name) and (receiver.value in ("self", "cls", "ctx", "super")
                                               or self.ctx.is_import(receiver.value)):
            return
        if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super":
            return
        if qualified.startswith("torch.") or self.ctx.kind(receiver) in (Kind.VALUE, Kind.MODULE):
            return
        self.report(node, self.message.format(what=".backward()", gb="GB0123"))
