from compilelint.finding import BREAKS
from compilelint.rules.base import Rule


class BreakInBuiltObject(Rule):
    code = "CL151"
    name = "break-in-built-object"
    summary = "a method that breaks the graph, called on an object built in the compiled region"
    message = ("calls `{callee}` on an object built in the compiled region, which breaks the graph ({cause}): "
               "Dynamo cannot rebuild the object to resume, so it runs the rest of this function eagerly")
    severity = "error"
    gb_id = "GB0092"
    project_phase = "compilelint.project_rules.cl151_built"
    help = ("Build the object outside the compiled region and pass it in (an object with a source can be "
            "rebuilt), or fix the break inside the method.")

    VALID = [
        """
import torch
class Ranker:
    def __init__(self, k):
        self.k = k
    def top(self, x):
        return x.topk(self.k).values  # traced: no break
class M(torch.nn.Module):
    def forward(self, x, scorer):
        ranker = Ranker(2)
        return ranker.top(x) + scorer.score(x)  # `scorer` came from outside: it has a source
""",
        """
import torch
class Block(torch.nn.Module):
    def set_mode(self, mode):
        print("mode", mode)
    def forward(self, x):
        return x
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block(), Block()])
    def forward(self, x):
        for block in self.blocks:  # the module's own blocks: they have a source
            block.set_mode("fast")
            x = block(x)
        return x
""",
    ]
    INVALID = [
        """
import torch
class Ranker:
    def __init__(self, k):
        self.k = k
    def top(self, x):
        return x.argsort(dim=-1)[..., : self.k].tolist()
class M(torch.nn.Module):
    def forward(self, x):
        ranker = Ranker(2)
        picked = ranker.top(x)  # expect
        again = Ranker(1).top(x)  # expect
        return x * len(picked) * len(again)
""",
        """
import torch
class Exact:
    def __init__(self, x):
        self.x = x
    def solve(self):
        return self.x.sum().item()
class Approx:
    def __init__(self, x):
        self.x = x
    def solve(self):
        return 1.0
SOLVERS = {"exact": Exact, "approx": Approx}
class M(torch.nn.Module):
    def forward(self, x, method: str = "exact"):
        solver = SOLVERS[method](x)  # a registry's class, built here
        return x * solver.solve()  # expect
""",
    ]

    def visit_Call(self, node) -> None:
        index = self.ctx.built_object_call(node)
        if index is not None:  # the message's placeholders are filled once the project decides
            self.report(node, needs=(f"{BREAKS}{self.ctx.function.qualname}|{index}",))
