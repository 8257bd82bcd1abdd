"""Which `from SRC import torch` of a file hand it the torch module: a project package with no
`torch` module of its own (deepxde's `backend`, filled in by `setattr` from the back end it
loads), or a project module that says `import torch` (thinc's `compat`); not what a project's
own `torch.py` or `torch/` binds (einx's tracer signature, norse's `torch/` package).

The answer reads other files (the source's folder, a module's text), so a file's analysis
depends on it beyond the file's own bytes: `cache.entry_key` hashes `handed_on(...)` too. No
libcst here: the key is computed on every run, cache hits included."""

from __future__ import annotations

import os
import re

IMPORTS_TORCH = re.compile(r"^[ \t]*import torch[ \t]*(#.*)?$", re.MULTILINE)  # thinc's compat: `    import torch`
# `import a, torch` and `import (a,\n torch)`, found by their literal start (fast on every file,
# cache hits included); then the `from SRC ` before it on its line: the level, the name
IMPORTED = re.compile(rb"import[ \t]*(\([^)]*\)|[^\n]*)")
FROM_SOURCE = re.compile(rb"[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+")
TORCH_NAME = re.compile(rb"\btorch\b")


def resolve_relative(module: str, path: str, level: int, name: str | None) -> str:
    """`from ..x import y` in `module` (a package when `path` is its __init__): the module."""
    parts = module.split(".") if module else []
    is_package = path.endswith(("__init__.py", "__init__.pyi"))
    drop = level - 1 if is_package else level
    base = parts[: len(parts) - drop] if drop <= len(parts) else []
    if name:
        base = base + [name]
    return ".".join(base)


_roots: dict[tuple[str, int], str] = {}  # (a file's folder, its module's depth) -> the folder above its package


def source_base(path: str, module: str, source: str) -> str:
    """Where project module `source` lives, seen from the file at `path` (module `module`): the
    path without `.py` (a module) or the folder (a package)."""
    depth = len(module.split(".")) - (0 if path.endswith(("__init__.py", "__init__.pyi")) else 1)
    folder = (os.path.dirname(path), depth)
    root = _roots.get(folder)
    if root is None:  # (the files of a package share it: worked out once per folder)
        root = os.path.abspath(folder[0])
        for _ in range(depth):
            root = os.path.dirname(root)
        _roots[folder] = root
    return os.path.join(root, *source.split("."))


def hands_out_torch(path: str, module: str, source: str, level: int) -> bool:
    """Whether `from <source> import torch` in the file at `path` (module `module`; `level`
    dots) gets the torch module from a project package or module, as the module docstring says."""
    if not path or (not level and source.split(".")[0] != module.split(".")[0]):
        return False  # (`from thirdparty import torch`: not the project's to say)
    folder = source_base(path, module, source)
    if os.path.isfile(folder + ".py"):  # a module: its `torch` is the module when it imports it
        try:
            with open(folder + ".py", encoding="utf-8", errors="replace") as handle:
                return IMPORTS_TORCH.search(handle.read()) is not None
        except OSError:
            return False
    return os.path.isdir(folder) and not os.path.exists(os.path.join(folder, "torch.py")) \
        and not os.path.isdir(os.path.join(folder, "torch"))


def handed_on(data: bytes, path: str, module: str) -> bytes:
    """The sources of the file's `from SRC import ... torch` that hand torch on, for its cache
    key ("" when none: the key of a file without such an import is as it was)."""
    if b"torch" not in data:
        return b""
    found = set()
    for match in IMPORTED.finditer(data):
        if not TORCH_NAME.search(match.group(1)):
            continue
        head = FROM_SOURCE.fullmatch(data, data.rfind(b"\n", 0, match.start()) + 1, match.start())
        if head is None:
            continue  # (`import torch`)
        level, name = len(head.group(1)), head.group(2).decode("ascii", "replace") or None
        source = resolve_relative(module, path, level, name) if level else (name or "")
        if source and hands_out_torch(path, module, source, level):
            found.add(source)
    return ",".join(sorted(found)).encode()
