import libcst as cst

from compilelint import knowledge
from compilelint.config import selected, torch_version
from compilelint.rules.base import Rule

STDLIB = ("`{name}()` in a compiled region: a C function of the standard library, which Dynamo cannot "
          "trace; it breaks the graph")


class CExtensionCall(Rule):
    code = "CL118"
    name = "c-extension-call"
    summary = "calls into third-party C extensions (`scipy`, `cv2`, …)"
    message = ("call into `{module}` in a compiled region: Dynamo cannot trace compiled C/C++ "
               "extensions and breaks the graph (often repeatedly, inside the library)")
    severity = "warning"
    gb_id = "GB0007"
    help = ("Use the torch equivalent (torch.special, torch.fft, torchvision.transforms.v2, kornia), "
           "do the work outside the region, or wrap it as a custom op (`torch.library.custom_op`) "
           "or in `torch.compiler.disable`.")
    breaks_graph = True

    VALID = [
        """
import numpy as np
import scipy.special
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        table = scipy.special.erf(np.linspace(-3, 3, 64))  # __init__: eager
        self.register_buffer("table", torch.as_tensor(table))
    def forward(self, x):
        return torch.special.erf(x) + np.pi  # torch and NumPy: traced
""",
        """
import cv2
import torch
def load(path):
    return torch.from_numpy(cv2.imread(path))  # not compiled
class M(torch.nn.Module):
    def forward(self, x):
        return x
""",
    ]
    INVALID = [
        """
import cv2
import scipy.special as sp
from sklearn.neighbors import KDTree
import torch
class M(torch.nn.Module):
    def __init__(self, points):
        super().__init__()
        self.tree = KDTree(points)
    def forward(self, x):
        y = torch.from_numpy(sp.erf(x.numpy()))  # expect
        small = cv2.resize(x.numpy(), (8, 8))  # expect
        dist, idx = self.tree.query(x.numpy())  # expect
        return y, small, idx
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._known = knowledge.table(self.code, torch_version(walker.settings))  # zlib.crc32, hashlib.md5, ...
        # CL119 says why a call it knows breaks (`pandas.*`: Dynamo's skip list), when it runs
        self._untraceable = knowledge.table("CL119", torch_version(walker.settings)) \
            if selected(walker.settings, "CL119") else {}

    def _extension(self, qualified: str | None) -> str | None:
        if not qualified:
            return None
        head = qualified.split(".", 1)[0]
        return head if head in self.ctx.settings.c_extensions else None

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func)
        if self._known.get(qualified) is not None:
            self.report(node, STDLIB.format(name=qualified), severity="error")
            return
        module = self._extension(qualified)
        func = node.func
        scope = self.ctx.function
        if module is None and isinstance(func, cst.Attribute) and scope is not None:
            owner = func.value
            if isinstance(owner, cst.Name):
                module = self._extension(scope.var_class.get(owner.value))
            elif isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) \
                    and owner.value.value == "self" and scope.class_name:
                info = self.ctx.class_table.get(scope.class_name)
                if info:
                    module = self._extension(info.attr_classes.get(owner.attr.value))
        if module is not None and self._untraceable.get(qualified) is None:
            self.report(node, self.message.format(module=module))
