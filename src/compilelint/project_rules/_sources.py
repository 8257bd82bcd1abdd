"""A file's source for the project phases that need what the summaries do not keep (CL147's read
of a cached property, CL119's `next(module.parameters())` in a helper, CL160's module-level
aliases): the file parsed with `ast` once per check (`ProjectContext.sources`, shared by the
phases), a function found by its qualified name, columns in characters."""

from __future__ import annotations

import ast


class Sources:
    """Files parsed on demand, each once: path -> (tree, its lines as bytes), or None."""

    def __init__(self) -> None:
        self._trees: dict[str, tuple | None] = {}

    def tree(self, path: str) -> ast.Module | None:
        """The file's module node (None when it cannot be read or parsed)."""
        parsed = self._parsed(path)
        return parsed[0] if parsed else None

    def function(self, path: str, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function `qualname` (`Cls.method`, `outer.<locals>.inner`) of the file at `path`."""
        parsed = self._parsed(path)
        scope = parsed[0] if parsed else None
        for part in qualname.split("."):
            if scope is None:
                return None
            if part != "<locals>":
                scope = next((n for n in ast.iter_child_nodes(scope) if isinstance(
                    n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part), None)
        return scope if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    def place(self, path: str, node: ast.AST) -> tuple[int, int, int, int]:
        """(line, col, end line, end col) of a node of that file, 1-based columns in characters
        (ast's offsets count UTF-8 bytes)."""
        lines = self._parsed(path)[1]

        def column(line: int, offset: int) -> int:
            return len(lines[line - 1][:offset].decode("utf-8", "replace")) + 1

        return node.lineno, column(node.lineno, node.col_offset), node.end_lineno, column(
            node.end_lineno, node.end_col_offset)

    def _parsed(self, path: str) -> tuple | None:
        if path not in self._trees:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
                self._trees[path] = (ast.parse(data), data.split(b"\n"))
            except (OSError, SyntaxError, ValueError):
                self._trees[path] = None
        return self._trees[path]
