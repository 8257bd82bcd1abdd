"""CL140 across files: a compiled forward calls a function another file of the package puts under
`torch.compiler.disable` (torchdr's affinities call `binary_search`, disabled in
`utils/root_search.py`), by name or through its module. Dynamo ends the graph at the call
(GB0098); a call of the file's undisabled neighbour, or of one it marks
`assume_constant_result` (one value in the graph), is left alone. Checked against Dynamo."""

import pytest

from helpers import break_line, imported, package_findings, write_package

SEARCH = """
    import torch


    @torch.compiler.disable
    def binary_search(f, n):
        return f(torch.ones(n))


    @torch.compiler.disable
    def false_position(f, n):
        return f(torch.zeros(n))


    @torch._dynamo.assume_constant_result
    def fused_available():
        return True


    def plain(f, n):
        return f(torch.ones(n))
"""

MODEL = """
    import torch

    from affin import search
    from affin.search import binary_search, fused_available, plain


    class Affinity(torch.nn.Module):
        def forward(self, x):
            y = x * 2
            a = binary_search(lambda t: t * 2, 3)  # BREAK
            b = plain(lambda t: t * 2, 3)
            c = search.false_position(lambda t: t + 1, 3)
            if fused_available():
                y = y + 1
            return y + a.sum() + b.sum() + c.sum()
"""

FILES = {"__init__.py": "", "search.py": SEARCH, "model.py": MODEL}


def test_a_call_of_another_files_disabled_function_is_reported(tmp_path):
    found = package_findings(tmp_path, "affin", FILES)
    first = break_line(MODEL)
    assert {(name, line) for name, line in found if name == "model.py"} == {("model.py", first),
                                                                           ("model.py", first + 2)}


def test_dynamo_breaks_at_those_calls(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    write_package(tmp_path, "affin", FILES)
    with imported(tmp_path, "affin.model") as model:
        run = capture(model.Affinity(), (torch.randn(3),), backend="eager")
    first = break_line(MODEL)
    assert {r.line for r in run.breaks if r.file.endswith("model.py")} >= {first, first + 2}
    assert not {first + 1, first + 3} & {r.line for r in run.breaks if r.file.endswith("model.py")}
