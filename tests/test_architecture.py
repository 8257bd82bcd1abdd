"""The shape of the package: no import cycle (runtime or type-only), no module over 500 lines.

The import graph is read from the source with `ast`, so it holds every import: at the top
of a module, inside functions (the lazy ones), and under `if TYPE_CHECKING:`. `from P
import name` reads P's namespace, so it is an edge to P (and to P.name where that is a
module); `import P.Q` is an edge to P.Q.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "compilelint"
MAX_LINES = 500


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's __init__)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _known(name: str, mods) -> str | None:
    """`name`, or the nearest enclosing module we have (`compilelint.x.attr` -> compilelint.x)."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in mods.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    edges.add(_known(alias.name, mods))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[:len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                edges.add(_known(source, mods))
                for alias in node.names:
                    if f"{source}.{alias.name}" in mods:
                        edges.add(f"{source}.{alias.name}")
        edges.discard(None)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "compilelint.finding" in graph["compilelint.engine"]  # top level
    assert "compilelint.fixes" in graph["compilelint.cli"]  # inside a function
    assert "compilelint.semantic.walker" in graph["compilelint.rules._callsite"]  # under TYPE_CHECKING


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_no_module_over_500_lines():
    long = {name: n for name, (path, _) in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_two_walker_parts_define_the_same_helper():
    """The walker is one class made of parts (`semantic.walker.PARTS`): a helper one part
    defines under a name another part already uses silently replaces it for both (a
    `_class_ref` added to the class scanner once emptied every factory's `builds`). The
    `enter_`/`exit_`/`visit_`/`leave_` hooks are exempt: the walker calls each part's own."""
    from compilelint.semantic.walker import PARTS

    owners: dict[str, list[str]] = {}
    for part in PARTS:
        for name, value in vars(part).items():
            if callable(value) and not name.startswith(("enter_", "exit_", "visit_", "leave_", "__")):
                owners.setdefault(name, []).append(part.__name__)
    assert {name: parts for name, parts in owners.items() if len(parts) > 1} == {}
