"""Whether a class from an installed package that the project subclasses is an `nn.Module`,
read from that package's source, never imported: `class RecurrentPolicy(ActorCriticPolicy)`
with `ActorCriticPolicy` from stable-baselines3, which subclasses `BasePolicy`, `BaseModel`
and finally `nn.Module` — so the subclass's `forward` is a compiled region like any module's.

Only top-level packages are located (`importlib.util.find_spec` of a top-level name runs no
code); submodules are found as files under the package folder and read with `ast`. What is
not a plain source file (an extension module, a namespace package, a missing dependency)
answers "not known", as before: the hard-coded bases in `index.EXTERNAL_MODULE_BASES` still
hold. Every file read is recorded (`consulted`), so a cached run can tell whether an
installed package changed under it (`run_cache`).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from functools import lru_cache

NOT_MODULES = ("torch.nn.Parameter", "torch.nn.parameter.", "torch.nn.utils.", "torch.nn.functional.")
_DEPTH = 24  # base classes followed, across files and re-exports
_consulted: dict[str, tuple[int, int]] = {}  # path -> (mtime_ns, size) when read


def consulted() -> tuple[tuple[str, int, int], ...]:
    """The installed files read so far, with what they were when read."""
    return tuple(sorted((path, *stamp) for path, stamp in _consulted.items()))


def unchanged(stamps) -> bool:
    """Every recorded file still has the size and mtime it had when read."""
    for path, mtime, size in stamps:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_mtime_ns, st.st_size) != (mtime, size):
            return False
    return True


def refresh() -> None:
    """Forget what was read when an installed file changed since (a long-lived daemon or
    language server outlives a `pip install`)."""
    if _consulted and not unchanged(consulted()):
        _consulted.clear()
        for cached in (_is_module, _module_tree, _package_dir):
            cached.cache_clear()


def is_module(dotted: str) -> bool:
    """`dotted` (`pkg.sub.Class`, as the import table qualified it) names a class whose bases,
    followed through the installed sources, reach `torch.nn.Module`."""
    if "." not in dotted or dotted.split(".", 1)[0] in ("torch", "builtins", "typing"):
        return False
    return _is_module(dotted, 0)


@lru_cache(maxsize=None)
def _is_module(dotted: str, depth: int) -> bool:
    if dotted.startswith("torch.nn."):
        return not dotted.startswith(NOT_MODULES)
    if depth > _DEPTH or dotted.split(".", 1)[0] == "torch":
        return False
    found = _class_bases(dotted, depth)
    return found is not None and any(_is_module(base, depth + 1) for base in found)


def _class_bases(dotted: str, depth: int) -> tuple[str, ...] | None:
    """The qualified bases of the class `dotted` names, following re-exports (`from .policies
    import ActorCriticPolicy` in a package's `__init__`)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module, name = ".".join(parts[:cut]), parts[cut:]
        tree = _module_tree(module)
        if tree is None:
            continue
        if len(name) != 1:
            return None
        classes, imports, stars = tree
        if name[0] in classes:
            return classes[name[0]]
        if depth >= _DEPTH:
            return None
        if name[0] in imports and imports[name[0]] != dotted:
            return _class_bases(imports[name[0]], depth + 1)
        for star in stars:  # `from .conv import *`
            if (found := _class_bases(f"{star}.{name[0]}", depth + 1)) is not None:
                return found
        return None
    return None


@lru_cache(maxsize=None)
def _module_tree(module: str) -> tuple[dict[str, tuple[str, ...]], dict[str, str], tuple[str, ...]] | None:
    """(class name -> qualified bases, imported name -> qualified name, star-imported modules)
    of an installed module."""
    path = _module_file(module)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        st = os.stat(path)
        tree = ast.parse(data, filename=path)
    except (OSError, SyntaxError, ValueError):
        return None
    _consulted[path] = (st.st_mtime_ns, st.st_size)
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    imports: dict[str, str] = {}
    stars: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(package, node.module, node.level)
            for alias in node.names:
                if base and alias.name == "*":
                    stars.append(base)
                elif base:
                    imports[alias.asname or alias.name] = f"{base}.{alias.name}"
    classes: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = tuple(q for q in (_qualify(b, imports, module) for b in node.bases) if q)
    return classes, imports, tuple(stars)


def _qualify(node: ast.expr, imports: dict[str, str], module: str) -> str | None:
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = imports.get(node.id, f"{module}.{node.id}")
    return ".".join([head, *reversed(names)])


def _absolute(package: str, name: str | None, level: int) -> str | None:
    if level == 0:
        return name
    parts = package.split(".")
    if level - 1 > len(parts) - 1:
        return None
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{name}" if name else base


@lru_cache(maxsize=None)
def _package_dir(top: str) -> str | None:
    if top in sys.builtin_module_names:
        return None
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: located, not imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations or not spec.origin \
            or not spec.origin.endswith("__init__.py"):
        return None
    return os.path.dirname(spec.origin)


def _module_file(module: str) -> str | None:
    top, *rest = module.split(".")
    root = _package_dir(top)
    if root is None:
        return None
    folder = os.path.join(root, *rest)
    for path in (os.path.join(folder, "__init__.py"), folder + ".py"):
        if os.path.isfile(path):
            return path
    return None
