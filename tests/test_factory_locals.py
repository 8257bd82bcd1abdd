"""What a constructor keeps from a local it built, against Dynamo: `if sim is None: sim =
make_kernel()` then `self.sim = sim` holds the factory's result (the closure it returns runs when
`self.sim(...)` is called; corpus `xf_closure_factory_attr_01`), while a conversion of the
parameter, `root = as_operator(root)` then `self.root = root` (linear_operator's `RootLinearOperator`
with `to_linear_operator`), may hand back what the caller gave: the attribute stays the caller's
object, and `self.root._diag(x)` reaches every implementation, not only the class the helper builds."""

import torch

from compilelint.probe.observe import observe
from helpers import break_marks, imported, package_findings

OPS = '''
import torch


class Operator(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        self.w = w

    def _diag(self, x):
        return x * self.w


class Masked(Operator):
    def __init__(self, w):
        super().__init__(w)

    def _diag(self, x):
        return x.nonzero()  # BREAK


def as_operator(obj):
    if isinstance(obj, Operator):
        return obj
    return Operator(obj)


class Root(torch.nn.Module):
    def __init__(self, root):
        super().__init__()
        root = as_operator(root)
        self.root = root

    def forward(self, x):
        return self.root._diag(x) * 2
'''


def test_a_converted_parameter_stays_the_callers_object(tmp_path):
    files = {"ops.py": OPS}
    assert package_findings(tmp_path, "ops_pkg", files) == break_marks(files)
    with imported(tmp_path, "ops_pkg.ops") as ops:
        model = ops.Root(ops.Masked(2.0))
        obs = observe(model, [((torch.randn(4),), {})], backend="eager", recapture=False)
        dynamo = {("ops.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("ops.py")}
    assert dynamo == break_marks(files)
