"""Why a finding counts, as places in the code: the call chain from a compiled root to the
function a finding is in, and the breaking line a CL150 loop finding points at.

For the language server's related locations; plain data in and out (no libcst).
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from compilelint.finding import FileAnalysis, Finding
from compilelint.index import ProjectIndex

# CL150's messages name their cause: "(CL102 at line 24)" in the same function,
# "(CL102 at path/to/file.py:24)" across functions.
_CAUSE = re.compile(r"\((CL\d{3}) at (?:line (\d+)|(.+):(\d+))\)")


@dataclass(frozen=True, slots=True)
class Place:
    path: str
    line: int  # 1-based
    col: int  # 1-based, characters
    end_col: int | None
    message: str


def loop_cause(finding: Finding, findings_of: Callable[[str], Iterable[Finding]]) -> Place | None:
    """The graph break that makes a CL150 loop run eagerly. `findings_of(path)`: that
    file's findings (the breaking one is among them, unless suppressed)."""
    if finding.code != "CL150":
        return None
    match = _CAUSE.search(finding.message)
    if match is None:
        return None
    code = match.group(1)
    path = finding.path if match.group(2) else match.group(3)
    line = int(match.group(2) or match.group(4))
    for other in findings_of(path):
        if other.line == line and other.code == code:
            end = other.end_col if other.end_line == other.line else None
            return Place(path, line, other.col, end, f"{code} breaks the graph here: {other.message}")
    return Place(path, line, 1, None, f"{code} breaks the graph here")


class CallChains:
    """Shortest call chains from the compiled roots, over the project's summaries (what
    the engine's region is made of). Built on first use; make a new one when a summary changes."""

    def __init__(self, analyses: Iterable[FileAnalysis], roots: str,
                 text_of: Callable[[str], str | None]) -> None:
        self.analyses = {a.module: a for a in analyses}
        self.mode, self.text_of = roots, text_of
        self._index: ProjectIndex | None = None
        self._parents: dict[str, str | None] | None = None
        self._defs: dict[str, dict[str, tuple[int, int]]] = {}

    def chain(self, finding: Finding, module: str) -> list[str]:
        """Function keys from a root down to the function `finding` is in ([] when it is
        a root itself or not reached)."""
        if finding.scope is None:
            return []
        parents = self._reach()
        key = f"{module}:{finding.scope}"
        if parents.get(key) is None:
            return []
        out = [key]
        while parents[out[-1]] is not None:
            out.append(parents[out[-1]])
        return out[::-1]

    def places(self, finding: Finding, module: str) -> list[Place]:
        """The chain as places: the root's definition, then each caller's with the call it makes."""
        keys = self.chain(finding, module)
        out = []
        for step, key in enumerate(keys[:-1]):
            where = self._definition(key)
            if where is None:
                continue
            path, line, col = where
            name = key.split(":", 1)[1]
            callee = keys[step + 1].split(":", 1)[1]
            what = "compiled root" if step == 0 else "compiled"
            out.append(Place(path, line, col, None, f"`{name}` ({what}) calls `{callee}`"))
        return out

    def _reach(self) -> dict[str, str | None]:
        if self._parents is None:
            index = self._index = ProjectIndex(a.summary for a in self.analyses.values())
            roots = sorted(index.roots(self.mode))
            parents: dict[str, str | None] = dict.fromkeys(roots)
            queue = deque(roots)
            while queue:
                key = queue.popleft()
                for call in index.functions[key].calls:
                    for callee in index.callees(key, call):
                        if callee not in parents and not index.functions[callee].disabled:
                            parents[callee] = key
                            queue.append(callee)
            self._parents = parents
        return self._parents

    def _definition(self, key: str) -> tuple[str, int, int] | None:
        """(path, line, col) of a function's `def`, found by Python's parser in the file's
        text (summaries hold no positions: most are never asked for)."""
        module, qualname = key.split(":", 1)
        analysis = self.analyses.get(module)
        if analysis is None:
            return None
        if analysis.path not in self._defs:
            self._defs[analysis.path] = definitions(self.text_of(analysis.path) or "")
        found = self._defs[analysis.path].get(qualname)
        return (analysis.path, *found) if found else None


def definitions(text: str) -> dict[str, tuple[int, int]]:
    """Qualified name (`Class.method`, `outer.<locals>.inner`) -> (line, 1-based col) of
    each function and class `def` in `text`; {} when it does not parse. Parses only."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    lines = text.splitlines()
    out: dict[str, tuple[int, int]] = {}
    stack: list[tuple[ast.AST, str]] = [(node, "") for node in reversed(tree.body)]
    while stack:
        node, prefix = stack.pop()
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for child in reversed(list(ast.iter_child_nodes(node))):
                if isinstance(child, ast.stmt):
                    stack.append((child, prefix))
            continue
        name = prefix + node.name
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        col = len(line.encode("utf-8")[:node.col_offset].decode("utf-8", "replace")) + 1
        out.setdefault(name, (node.lineno, col))
        inner = name + (".<locals>." if not isinstance(node, ast.ClassDef) else ".")
        stack.extend((child, inner) for child in reversed(node.body))
    return out
