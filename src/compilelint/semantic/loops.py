"""Loops: the for/while loops around the current node, and where every loop of a file is
(a CL150 that only the project index can decide needs the loop's place)."""

from __future__ import annotations

import libcst as cst

from compilelint import traverse


class LoopTracking:
    """Walker part: loops in walk order, and the loops around the current node."""

    def _count_loop(self, node: cst.CSTNode) -> None:
        self.loop_ordinal[id(node)] = len(self.loop_nodes)
        self.loop_nodes.append(node)

    @property
    def loops(self) -> list[cst.CSTNode]:
        """The for/while loops around the current node, innermost last: the function's
        own (`function.loops`), or those of module-level code."""
        return self.scopes[-1].loops if self.scopes else self.module_loops

    def enter_For(self, node: cst.For) -> None:
        self._count_loop(node)
        if not (self.scopes and self.scopes[-1].scripted):  # (its loops are TorchScript's: no CL150)
            self.loops.append(node)

    def exit_For(self, node: cst.For) -> None:
        if self.loops and self.loops[-1] is node:
            self.loops.pop()

    enter_While = enter_For
    exit_While = exit_For


# A break on a `while` header's test: Dynamo resumes after the jump from 2.13 on (measured on
# 2.13.0 and 2.14.1); 2.11 skips the whole frame (GB7000), so there the loop is a CL150.
WHILE_TEST_RESUMES = (2, 13)


def test_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of `and` / `or` / `not` a test is made of: each is a jump of its own, so a
    break on one in a `while` header is a break on the header (see WHILE_TEST_RESUMES;
    measured on 2.13: `while i < n and diff > tol`, `while not torch.all(err < tol)`)."""
    if isinstance(test, cst.BooleanOperation):
        return test_operands(test.left) + test_operands(test.right)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return test_operands(test.expression)
    return [test]


def loop_positions(text: str, tree: cst.Module, loops: list[cst.CSTNode]) -> tuple[tuple[int, int], ...]:
    """Every for/while loop's (line, 1-based column), in libcst's walk order, when no
    position pass runs anyway: Python's own parser finds them ~20x faster than one; loops
    sorted by where they start are in pre-order, as libcst walks. Where `ast` cannot parse
    what libcst did (newer syntax than the running Python), `tree`'s positions of `loops`
    (the Walker's, in walk order) decide."""
    import ast

    try:
        parsed = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return loop_positions_libcst(tree, loops)
    lines = text.splitlines(keepends=True)
    found = []
    # loops are statements: walk statement lists only, not the (many) expression nodes
    stack = list(parsed.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            line = lines[node.lineno - 1].encode("utf-8")
            found.append((node.lineno, len(line[:node.col_offset].decode("utf-8", "replace")) + 1))
        for name in _STATEMENT_LISTS:
            block = getattr(node, name, None)
            if block:
                stack.extend(block)
    return tuple(sorted(found))


# the fields of a statement that hold statements (a handler or `case` holds a body)
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def loop_positions_libcst(tree: cst.Module, loops: list[cst.CSTNode], positions=None) -> tuple[tuple[int, int], ...]:
    """The same from libcst's positions (`positions`, when a pass already computed them)."""
    positions = positions or traverse.positions(tree, loops)
    return tuple((positions[n].start.line, positions[n].start.column + 1) for n in loops)
