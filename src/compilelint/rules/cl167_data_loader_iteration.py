import re

import libcst as cst

from compilelint.knowledge_classes import TQDM_CLASSES
from compilelint.rules.base import Rule

# what a data loader is called: `dataloader`, `data_loader`, `train_loader`, `self.val_dataloader`
LOADER_NAME = re.compile(r"(?:^|_)(?:data_?)?loader$")
WRAPPERS = frozenset({"builtins.enumerate", "builtins.zip", *TQDM_CLASSES})  # (its first argument walked)


def _named_loader(expr: cst.BaseExpression) -> str | None:
    """`dataloader` for a name or attribute (`self.dataloader`) so called."""
    name = expr.value if isinstance(expr, cst.Name) else expr.attr.value if isinstance(expr, cst.Attribute) else None
    return name if name is not None and LOADER_NAME.search(name.lower()) else None


class DataLoaderIteration(Rule):
    code = "CL167"
    name = "data-loader-iteration"
    summary = ("a `torch.utils.data.DataLoader` walked in a region (`for batch in self.dataloader`, "
               "`iter(loader)`): Dynamo skips `torch.utils.data` (building one is `CL119`'s)")
    message = ("{what} in a compiled region: Dynamo does not trace `torch.utils.data` (\"marked as skipped\") "
               "and breaks the graph")
    severity = "error"
    gb_id = "GB0008"
    help = ("Draw the batch outside the compiled code and pass it in: compile the step a batch runs "
            "(`torch.compile(model)` or the loss), not the loop over the loader.")
    breaks_graph = True

    VALID = [
        """
import torch
from torch.utils.data import DataLoader
class Condition(torch.nn.Module):
    def __init__(self, dataset):
        super().__init__()
        self.lin = torch.nn.Linear(2, 1)
        self.dataloader = DataLoader(dataset, batch_size=4)  # __init__: eager
    def forward(self, batch):
        return self.lin(batch).mean()
def fit(model, loader):
    for batch in loader:  # the training loop itself: no compiled region
        model(batch).backward()
step = torch.compile(Condition(None))
""",
        """
import torch
class Reader(torch.nn.Module):
    def forward(self, x, loaders: dict):
        for name in loaders:  # a dict of loaders: its keys
            x = x + len(name)
        return x
""",
    ]
    INVALID = [
        """
import torch
class Condition(torch.nn.Module):
    def __init__(self, module, dataloader):
        super().__init__()
        self.module = module
        self.dataloader = dataloader
    def forward(self, device="cpu"):
        loss = torch.zeros(1)
        for x, y in iter(self.dataloader):  # expect
            loss = loss + (self.module(x) - y).pow(2).mean()
        return loss
""",
        """
import torch
from torch.utils.data import DataLoader, TensorDataset
@torch.compile
def scores(model, triples):
    data_loader = DataLoader(TensorDataset(triples), batch_size=2)  # (CL119's)
    out = []
    for i, (batch,) in enumerate(data_loader):  # expect
        out.append(model(batch))
    return out
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.function is None:
            return
        if self.ctx.qualify(node.func) == "builtins.iter" and len(node.args) == 1 \
                and (name := _named_loader(node.args[0].value)):
            self.report(node, self.message.format(what=f"`iter({name})` over a data loader"))

    def visit_For(self, node: cst.For) -> None:
        self._walked(node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._walked(node.iter)

    def _walked(self, walked: cst.BaseExpression) -> None:
        if self.ctx.function is None:
            return
        if isinstance(walked, cst.Call) and walked.args and self.ctx.qualify(walked.func) in WRAPPERS:
            walked = walked.args[0].value  # (`enumerate(loader)`, `tqdm(loader, desc=...)`)
        if name := _named_loader(walked):
            self.report(walked, self.message.format(what=f"walking `{name}`, a data loader,"))
