"""CL160 (the project phase of `rules/cl160_generic_alias_subscript.py`): `cast(list[Details], x)`
with `Details` imported from another file of the project. The candidate holds when that file binds
the name, at top level and once, to a subscript of a builtin class (`Details: TypeAlias = dict[str,
Tensor]`, ptwt's `constants.WaveletDetailDict`); the file is read with `ast` (the summaries keep no
module-level values; `ProjectContext.sources`), followed through re-exports (`from .constants import
Details` in an `__init__`), up to `_HOPS` files."""

from __future__ import annotations

import ast
from dataclasses import replace

from compilelint.finding import GENERIC_ALIAS, GENERIC_BUILTINS

_HOPS = 3  # files followed: the alias's own and two re-exports


def run(context) -> list:
    paths = {analysis.module: analysis.path for analysis in context.analyses}
    out = []
    for analysis, finding in context.deferred:
        if not finding.needs[0].startswith(GENERIC_ALIAS):
            continue
        shown = _alias(finding.needs[0][len(GENERIC_ALIAS):], paths, context.sources)
        if shown is not None:
            out.append((analysis, replace(finding, needs=(), message=finding.message.replace("{shown}", shown))))
    return out


def _alias(qualified: str, paths: dict, sources) -> str | None:
    """The text a module-level generic alias is bound to, or None when it is not one."""
    for _ in range(_HOPS):
        module, _, name = qualified.rpartition(".")
        tree = sources.tree(paths[module]) if module in paths else None
        if tree is None:
            return None
        values = [_value(stmt, name) for stmt in tree.body]
        values = [v for v in values if v is not None]
        if len(values) == 1 and isinstance(values[0], ast.Subscript) and isinstance(values[0].value, ast.Name) \
                and values[0].value.id in GENERIC_BUILTINS:
            return ast.unparse(values[0])
        source = _imported(tree, module, name, paths[module].endswith("__init__.py"))
        if values or source is None:
            return None
        qualified = source
    return None


def _value(stmt: ast.stmt, name: str) -> ast.expr | None:
    if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
        return stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return stmt.value
    return None


def _imported(tree: ast.Module, module: str, name: str, package_init: bool) -> str | None:
    """Where `from X import name` (at top level) takes the name from, qualified."""
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and any((a.asname or a.name) == name for a in stmt.names):
            original = next(a.name for a in stmt.names if (a.asname or a.name) == name)
            if not stmt.level:
                return f"{stmt.module}.{original}"
            # (an `__init__`'s module name is its package's: `.` is the package itself)
            parts = module.split(".")
            base = parts[:len(parts) - stmt.level + (1 if package_init else 0)]
            return ".".join(base + ([stmt.module] if stmt.module else []) + [original])
    return None

