"""Cross-function CL150 places its finding through `engine.loop_position`, which finds
loops with Python's parser (fast, on warm runs too): it must agree with libcst's walk."""

from compilelint.engine import _loop_positions, _loop_positions_libcst, loop_position

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
    assert loop_position(str(path), 4) == (11, 9) and loop_position(str(path), 6) is None


def test_a_file_ast_cannot_parse_falls_back_to_libcst(tmp_path):
    path = tmp_path / "py2ish.py"
    text = "for x in y:\n    pass\nprint 'old'\n"
    path.write_text(text, encoding="utf-8")
    assert _loop_positions(str(path)) == _loop_positions_libcst(text)
