"""Line spans of a user's source file (functions, loop bodies, statements), from Python's
own parser: the file is read and parsed once, never imported. The probe's matching and its
capture both ask these questions of the same few files."""

from __future__ import annotations

import ast
import functools


@functools.lru_cache(maxsize=256)
def _tree(path: str) -> ast.Module | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return ast.parse(fh.read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def _nodes(path: str | None):
    tree = _tree(path) if path else None
    return ast.walk(tree) if tree is not None else ()


@functools.lru_cache(maxsize=256)
def function_spans(path: str, name: str) -> tuple[range, ...]:
    """Lines of each ``def name`` in the file."""
    return tuple(range(node.lineno, (node.end_lineno or node.lineno) + 1) for node in _nodes(path)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name)


@functools.lru_cache(maxsize=256)
def loop_body(path: str, line: int) -> range | None:
    """Lines of the body of the ``for``/``while`` loop that starts at ``line``."""
    for node in _nodes(path):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.lineno == line and node.body:
            return range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1)
    return None


@functools.lru_cache(maxsize=256)
def enclosing_loop(path: str, line: int) -> range | None:
    """Lines of the innermost ``for``/``while`` loop (header and body) holding ``line``."""
    best = None
    for node in _nodes(path):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            if line in lines and (best is None or lines.start >= best.start):
                best = lines
    return best


@functools.lru_cache(maxsize=256)
def with_body(path: str, line: int) -> range | None:
    """Lines of the body of the ``with`` statement that starts at ``line``."""
    for node in _nodes(path):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.lineno == line and node.body:
            return range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1)
    return None


@functools.lru_cache(maxsize=256)
def _statement_spans(path: str) -> tuple[range, ...]:
    """Each statement's lines; a compound statement's header only."""
    spans = []
    for node in _nodes(path):
        if isinstance(node, ast.stmt):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                end = max(node.lineno, body[0].lineno - 1)
            else:
                end = node.end_lineno or node.lineno
            spans.append(range(node.lineno, end + 1))
    return tuple(spans)


def statement_span(path: str, line: int) -> range | None:
    """The lines of the innermost statement holding ``line`` (a compound one's header)."""
    holding = [span for span in _statement_spans(path) if line in span]
    return min(holding, key=len) if holding else None


@functools.lru_cache(maxsize=256)
def _def_spans(path: str) -> tuple[range, ...]:
    return tuple(range(node.lineno, (node.end_lineno or node.lineno) + 1) for node in _nodes(path)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


@functools.lru_cache(maxsize=4096)
def enclosing_def(path: str | None, line: int | None) -> tuple[str | None, int]:
    """(file, first line) of the innermost function holding ``line``; (file, 0) at module level."""
    best = 0
    for span in _def_spans(path) if path else ():
        if line in span and span.start > best:
            best = span.start
    return path, best



_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@functools.lru_cache(maxsize=256)
def comprehension_home(path: str, line: int) -> frozenset[int]:
    """Lines of the function holding a comprehension at ``line``, less the comprehension's
    own; empty when no comprehension inside a function spans the line. Before Python 3.12 a
    comprehension runs as a frame of its own, called from the function that holds it."""
    comps = [n for n in _nodes(path) if isinstance(n, _COMPREHENSIONS)
             and n.lineno <= line <= (n.end_lineno or n.lineno)]
    if not comps:
        return frozenset()
    comp = max(comps, key=lambda n: n.lineno)
    homes = [span for span in _def_spans(path) if comp.lineno in span]
    if not homes:
        return frozenset()
    return frozenset(min(homes, key=len)) - frozenset(range(comp.lineno, (comp.end_lineno or comp.lineno) + 1))


@functools.lru_cache(maxsize=256)
def _class_spans(path: str) -> tuple[tuple[range, str, tuple[str, ...]], ...]:
    """(lines, name, the last part of each base's name) of each class of the file."""
    return tuple((range(node.lineno, (node.end_lineno or node.lineno) + 1), node.name,
                  tuple(ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases))
                 for node in _nodes(path) if isinstance(node, ast.ClassDef))


def class_lineage(path: str | None, line: int | None) -> tuple[str, ...] | None:
    """The name of the innermost class holding ``line`` and of its bases, followed through the
    file's own classes (bases by the last part of their names); None outside a class."""
    spans = _class_spans(path) if path and line else ()
    holding = [c for c in spans if line in c[0]]
    if not holding:
        return None
    by_name = {name: bases for _, name, bases in spans}
    seen, todo = [], [max(holding, key=lambda c: c[0].start)[1]]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo.extend(by_name.get(name, ()))
    return tuple(seen)
