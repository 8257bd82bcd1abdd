import libcst as cst

from compilelint.rules._sparse import file_model
from compilelint.rules.base import Rule


class SparseTensorUse(Rule):
    code = "CL153"
    name = "sparse-tensor-use"
    summary = "a frame's first use of a sparse tensor it holds (a parameter, an attribute, a local)"
    message = ("`{holder}` is a sparse tensor and this {what}: Dynamo cannot wrap a sparse tensor, breaks the graph "
               "and runs the rest of the function eagerly (GB0015)")
    severity = "error"
    gb_id = "GB0015"
    breaks_graph = True
    breaks_callers = False  # a callee's use of a sparse parameter breaks only if the caller passes one
    project_phase = "compilelint.project_rules.cl153_params"  # a callee in another file
    help = ("Keep sparse tensors out of the compiled region: multiply by the dense matrix (`adj.to_dense()` kept "
            "as a buffer), or compile the dense parts and run the sparse products between them eagerly.")

    VALID = [
        """
import torch
import torch.nn as nn
class Layer(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        index = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])
        adj = torch.sparse_coo_tensor(index, torch.ones(4), (n, n))
        self.register_buffer("adj", adj.to_dense())  # kept dense: a plain tensor in the region
        self.weight = nn.Parameter(torch.randn(n, n))
    def forward(self, x):
        return self.adj @ (x @ self.weight)
class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = Layer()
    def passthrough(self, x):
        return x  # hands it back untouched: Dynamo does not look at it here
    def forward(self, x):
        kept = self.passthrough(x)
        return self.layer(kept)
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
class Dropout(nn.Module):
    def forward(self, x):
        if not self.training:
            return x  # expect
        keep = torch.rand(x._values().size()) > 0.5  # expect
        return torch.sparse_coo_tensor(x._indices()[:, keep], x._values()[keep], x.shape)
class Graph(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.drop = Dropout()
        self.adj = self.build(n)
    def build(self, n):
        index = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])
        return torch.sparse_coo_tensor(index, torch.ones(4), (n, n)).coalesce()
    def forward(self, x):
        adj = self.adj
        dropped = self.drop(adj)  # expect
        return dropped, x * self.degree() + self.count(self.adj)  # eval: the dropout only returns adj  # expect
    def count(self, x):
        if isinstance(x, list):  # expect
            return len(x)
        return torch.sparse.mm(x, torch.ones(4, 1)).sum()
    def degree(self):
        return self.adj.to_dense().sum(-1)  # expect
""",
    ]

    def visit_Module(self, node: cst.Module) -> None:
        file_model(self.ctx, node)

    def _check(self, node: cst.CSTNode) -> None:
        model = self.ctx.sparse_model
        if not model or not model.uses:
            return
        use = model.uses.get(id(node))
        if use is None:
            return
        self.report(node, self.message.format(holder=use.holder, what=f"statement {use.what}"), when=use.when)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)

    def visit_Return(self, node: cst.Return) -> None:
        self._check(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._check(node)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._check(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._check(node)
