"""Cross-function CL150 places its finding at loop positions the analysis finds with
Python's parser (fast, and cached): they must agree with libcst's walk."""

import libcst as cst

from compilelint.analysis import loop_positions, loop_positions_libcst


def both(text):
    tree = cst.parse_module(text)
    return loop_positions(text, tree), loop_positions_libcst(tree)

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
