"""A library object whose method stores closures on its public attributes (deepxde's
`Model.compile` sets `self.outputs_losses_train = outputs_losses_train`): user code calls
them on the object (`model.outputs_losses_train(x, y)`) in the step it compiles, so they are
the package's API (`when: api`). A closure kept on a private attribute is the object's own
business. Against Dynamo: compiling the stored closure breaks where the findings are."""

import pytest

from helpers import break_line, imported, library_findings

MODEL = """
    import torch


    class Model:
        def __init__(self, net):
            self.net = net
            self.outputs = None
            self._scaled = None

        def compile(self, scale=2.0):
            def outputs(inputs):
                inputs = torch.as_tensor(inputs)
                inputs.requires_grad_()  # BREAK
                return self.net(inputs)

            def scaled(inputs):
                print("scaling")
                return self.net(inputs) * scale

            self.outputs = outputs
            self._scaled = scaled
"""


def _findings(tmp_path):
    return library_findings(tmp_path, "solverlib", {"model.py": MODEL}, "from .model import Model\n")


def test_a_closure_stored_on_a_public_attribute_is_api(tmp_path):
    found = {(f.line, f.code): f for f in _findings(tmp_path)}
    line = break_line(MODEL)
    assert set(found) == {(line, "CL132")}  # (not the private `_scaled`'s print)
    assert found[line, "CL132"].when[-1:] == ("api",)


def test_dynamo_breaks_in_the_stored_closure(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    _findings(tmp_path)
    line = break_line(MODEL)
    with imported(tmp_path, "solverlib.model") as module:
        model = module.Model(torch.nn.Linear(3, 1))
        model.compile()
        run = capture(model.outputs, (torch.randn(4, 3),), backend="eager")
    assert line in {r.line for r in run.breaks if r.file.endswith("model.py")}
