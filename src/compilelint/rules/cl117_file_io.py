import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.rules.base import Rule

PATH_CLASSES = frozenset({"pathlib.Path", "pathlib.PosixPath", "pathlib.WindowsPath"})
PATH = "pathlib.Path."  # the table's names of Path methods


class FileIO(Rule):
    code = "CL117"
    name = "file-io"
    summary = "`open()` and file I/O"
    message = "`{name}` in a compiled region: Dynamo cannot trace file or stream I/O and breaks the graph"
    severity = "error"
    gb_id = "GB0059"
    help = ("Read files before the compiled call and write results after it; if the region must do I/O, "
           "put that part in a function under `torch.compiler.disable`.")
    breaks_graph = True

    VALID = [
        """
import json
import os
import torch
class M(torch.nn.Module):
    def __init__(self, path):
        super().__init__()
        with open(path) as f:  # __init__: eager
            self.vocab = json.load(f)
        self.cache = os.path.join(os.path.dirname(path), "cache")  # string work, no I/O
    def forward(self, x):
        text = json.dumps({"n": 1})  # not file I/O (it breaks for other reasons)
        return x
def save(model, path):
    torch.save(model.state_dict(), path)  # not compiled
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, open: bool = False):
        if open:
            x = x + 1
        return x.exp()
""",
    ]
    INVALID = [
        """
import os
import sys
from pathlib import Path
import torch
class M(torch.nn.Module):
    def __init__(self, root):
        super().__init__()
        self.root = Path(root)
    def forward(self, x):
        with open("/tmp/trace.txt", "a") as f:  # expect
            f.write("step")
        if os.path.exists("/tmp/stop"):  # expect
            x = x * 0
        torch.save(x, "/tmp/x.pt")  # expect
        sys.stdout.write("done")  # expect
        (self.root / "last.txt").write_text("ok")  # expect
        return x
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._known = knowledge.table(self.code, torch_version(walker.settings))
        self._path_methods = self._known.names(PATH)

    def _is_path(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Call):
            return (self.ctx.qualify(node.func) or "") in PATH_CLASSES
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide):
            return self._is_path(node.left)
        scope = self.ctx.function
        if isinstance(node, cst.Name) and scope is not None:
            return scope.var_class.get(node.value) in PATH_CLASSES
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self" \
                and scope is not None and scope.class_name:
            info = self.ctx.class_table.get(scope.class_name)
            return bool(info) and info.attr_classes.get(node.attr.value) in PATH_CLASSES
        return False

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if not qualified.startswith(PATH) and self._known.get(qualified) is not None:
            self.report(node, self.message.format(name=qualified.removeprefix("builtins.") + "()"))
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in self._path_methods and self._is_path(func.value):
            self.report(node, self.message.format(name=f"Path.{func.attr.value}()"))
