"""Cross-function CL150 places its finding at loop positions the analysis finds with
Python's parser (fast, and cached), or in the position pass of a file's findings: they
must agree with the Walker's loops, in its walk order."""

import libcst as cst

from helpers import lint_snippet

from compilelint.analysis import analyze, loop_positions, loop_positions_libcst, walk_tree
from compilelint.config import Settings
from compilelint.engine import rules_for


def both(text):
    tree = cst.parse_module(text)
    loops = walk_tree(tree, "t.py", "t", [], Settings()).loop_nodes
    return loop_positions(text, tree, loops), loop_positions_libcst(tree, loops)

TRICKY = '''\
async def f(xs):
    é = 1; λ = [y for y in xs]  # comprehensions are not loops
    async for x in xs:
        while x:
            for a, b in zip(x, x): pass
    for i in range(3):
        pass
    if é: [λ for _ in xs]
class C:
    def g(self):
        for z in self.layers:
            while False: break
'''


def test_ast_and_libcst_find_the_same_loops():
    got, reference = both(TRICKY)
    assert got == reference
    assert got == ((3, 5), (4, 9), (5, 13), (6, 5), (11, 9), (12, 13))


def test_syntax_newer_than_the_running_python_falls_back_to_libcst():
    # PEP 695 generics: libcst parses them; `ast` does only from Python 3.12
    text = "def f[T](xs: list[T]):\n    for x in xs:\n        while x: pass\n"
    got, reference = both(text)
    assert got == reference == ((2, 5), (3, 9))


def test_loops_in_handlers_finally_and_match_cases():
    text = ("try:\n    pass\nexcept E:\n    for a in b: pass\nelse:\n    while c: pass\n"
            "finally:\n    for d in e: pass\nmatch x:\n    case 1:\n        for f in g: pass\n"
            "with h:\n    async def k():\n        async for i in j: pass\n")
    got, reference = both(text)
    assert got == reference == (
        (4, 5), (6, 5), (8, 5), (11, 9), (14, 9))


def test_loops_positioned_with_the_findings_agree():
    """A file with findings gets its loops from the findings' position pass, not `ast`."""
    text = ("import torch\n"
            "def helper(x):\n    return x\n"
            "class M(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        print(x)\n"
            "        while x:\n            for i in range(2):\n                x = helper(x)\n"
            "        return x\n")
    analysis = analyze("m.py", text, "m", rules_for(Settings()), Settings())
    assert analysis.candidates, "the print must be a finding, so that a position pass runs"
    tree = cst.parse_module(text)
    loops = walk_tree(tree, "m.py", "m", [], Settings()).loop_nodes
    assert analysis.summary.loops == loop_positions(text, tree, loops) == ((7, 9), (8, 13))


WHILE_HEADER = """
import torch
@torch.compile
def solve(a, x):
    diff, i = float("inf"), 0
    while i < 50 and diff > 1e-6:
        x_next = 0.5 * (x + a / x)
        diff = (x_next - x).abs().max()
        x, i = x_next, i + 1
    return x
"""


def test_a_break_on_a_while_header_is_a_loop_break_only_before_2_13(tmp_path):
    # measured: 2.11 skips the frame (GB7000), 2.13.0 and 2.14.1 resume after the test's jump
    old = {(f.line, f.code) for f in lint_snippet(tmp_path, WHILE_HEADER, target_torch="2.11")}
    new = {(f.line, f.code) for f in lint_snippet(tmp_path, WHILE_HEADER, target_torch="2.13")}
    assert old == {(5, "CL102"), (5, "CL150")}
    assert new == {(5, "CL102")}
