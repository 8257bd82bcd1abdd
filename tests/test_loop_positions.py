"""Cross-function CL150 places its finding through `engine.loop_position`, which finds
loops with Python's parser (fast, on warm runs too): it must agree with libcst's walk."""

from compilelint.analysis import loop_positions_libcst as _loop_positions_libcst
from compilelint.engine import _loop_positions

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


def test_ast_and_libcst_find_the_same_loops(tmp_path):
    path = tmp_path / "tricky.py"
    path.write_text(TRICKY, encoding="utf-8")
    got = _loop_positions(str(path))
    assert got == _loop_positions_libcst(TRICKY)
    assert got == ((3, 5), (4, 9), (5, 13), (6, 5), (11, 9), (12, 13))


def test_a_file_ast_cannot_parse_falls_back_to_libcst(tmp_path):
    path = tmp_path / "py2ish.py"
    text = "for x in y:\n    pass\nprint 'old'\n"
    path.write_text(text, encoding="utf-8")
    assert _loop_positions(str(path)) == _loop_positions_libcst(text)


def test_loops_in_handlers_finally_and_match_cases(tmp_path):
    text = ("try:\n    pass\nexcept E:\n    for a in b: pass\nelse:\n    while c: pass\n"
            "finally:\n    for d in e: pass\nmatch x:\n    case 1:\n        for f in g: pass\n"
            "with h:\n    async def k():\n        async for i in j: pass\n")
    path = tmp_path / "blocks.py"
    path.write_text(text, encoding="utf-8")
    assert _loop_positions(str(path)) == _loop_positions_libcst(text) == (
        (4, 5), (6, 5), (8, 5), (11, 9), (14, 9))
