"""Imports and qualified names: what `F.relu` or `print` refers to in this file."""

from __future__ import annotations

from typing import Callable

import libcst as cst

from compilelint.handed_torch import hands_out_torch, resolve_relative
from compilelint.semantic.kinds import dotted
from compilelint.summary import STAR

BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
# What a file gets through `from ..layers import *` when it never imports torch itself
# (deepctr-torch's models: `class DIEN(BaseModel)` with `nn.GRU(...)`): the conventional
# aliases of the torch modules, which star-imported modules of a PyTorch project carry.
STAR_ALIASES = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional"}


def top_level_imports(module: cst.Module) -> dict[str, str]:
    """Local name -> qualified name for the module's top-level absolute imports, as the walk
    would qualify them (`import torch.nn as nn` -> "torch.nn", `import torch.nn` -> "torch"):
    for a rule that reads the whole module before the walk has reached its imports, the same
    whichever statement an incremental re-walk starts from."""
    names: dict[str, str] = {}
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                for alias in small.names:
                    full = dotted(alias.name)
                    if full is None:
                        continue
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        names[alias.asname.name.value] = full
                    else:
                        names[full.split(".")[0]] = full.split(".")[0]
            elif isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None \
                    and not isinstance(small.names, cst.ImportStar):
                source = dotted(small.module) or ""
                for alias in small.names:
                    name = dotted(alias.name)
                    if name is None:
                        continue
                    local = alias.asname.name.value if alias.asname is not None and isinstance(
                        alias.asname.name, cst.Name) else name
                    names[local] = f"{source}.{name}"
    return names


class ImportTracking:
    """Walker part: the file's import table and name qualification."""

    def enter_Module(self, node: cst.Module) -> None:
        """A top-level package's `__init__`: the names it re-exports unconditionally (its
        module-level `from ... import name`, not those under `if TYPE_CHECKING:` or `try:`)
        and the classes it defines itself (pytorch-crf's `CRF`), the package's API
        (index_roots.package_api). A subpackage's `__init__` counts when it declares `__all__`
        (rsl_rl's `algorithms/__init__.py`: `from .ppo import PPO`, `__all__ = ["PPO", ...]`
        under an empty top-level `__init__`): a library's, not an application's folder."""
        listed = _all_names(node)
        if not self.path.endswith(("__init__.py", "__init__.pyi")):
            # a public module that hands out what a private one defines (`pina/operator.py`: `from
            # pina._src.core.operator import grad` and `__all__ = ["grad", ...]`): the names it
            # imports and lists in `__all__` are its exports, as a package `__init__`'s are
            if listed and not any(part.startswith("_") for part in self.module.split(".")):
                self.exports.extend(name for statement in node.body for name in _from_imported(statement)
                                    if name in listed)
            return
        if "." in self.module and listed is None:
            return
        for statement in node.body:
            if isinstance(statement, cst.ClassDef):
                self.exports.append(statement.name.value)
            self.exports.extend(_from_imported(statement))

    def enter_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.imports[alias.asname.name.value] = full
            else:
                head = full.split(".")[0]
                self.imports[head] = head

    def enter_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = dotted(node.module) if node.module is not None else None
        level = len(node.relative)
        source = resolve_relative(self.module, self.path, level, module) if level else (module or "")
        if isinstance(node.names, cst.ImportStar):
            if source:  # `from ._neurons import *`: the index looks names up there too ("*" + module)
                self.imports[STAR + source] = source
            return
        for alias in node.names:
            name = dotted(alias.name)
            if name is None:
                continue
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
            self.imports[local] = f"{source}.{name}" if source else name
            if name == "torch" and source and hands_out_torch(self.path, self.module, source, level):
                self.imports[local] = "torch"  # (`from ..backend import torch`: handed_torch)

    def is_import(self, name: str) -> bool:
        return (name in self.imports or self._star_alias(name) is not None) and not self.locally_bound(name)

    def _star_alias(self, name: str) -> str | None:
        """`nn` in a file that binds no `nn` but star-imports (STAR_ALIASES)."""
        if name not in STAR_ALIASES or name in self.imports or name in self.module_defs or name in self.module_env:
            return None
        return STAR_ALIASES[name] if any(key.startswith(STAR) for key in self.imports) else None

    def locally_bound(self, name: str) -> bool:
        for scope in self.scopes:
            if name in scope.env:
                return True
        return False

    def qualify_name(self, name: str) -> str | None:
        if self.locally_bound(name):
            return None
        if name in self.imports:
            return self.imports[name]
        if name in self.module_defs or name in self.module_env:
            return f"{self.module}.{name}" if self.module else name
        if (alias := self._star_alias(name)) is not None:
            return alias
        if name in BUILTIN_NAMES:
            return f"builtins.{name}"
        return None

    def qualify(self, node: cst.CSTNode) -> str | None:
        """The qualified name an expression refers to: `F.relu` -> `torch.nn.functional.relu`."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        base = self.qualify_name(head)
        if base is None:
            return None
        return f"{base}.{rest}" if rest else base


def module_qualifier(module: cst.Module,
                     names: dict[str, str] | None = None) -> Callable[[cst.BaseExpression], str | None]:
    """Qualified names from the module's top-level imports (`names`, when the caller already
    read them), for a rule that reads the whole module before the walk has read them
    (`top_level_imports`); a builtin's name unless the file defines it."""
    names = top_level_imports(module) if names is None else names
    defined = {stmt.name.value for stmt in module.body if isinstance(stmt, (cst.FunctionDef, cst.ClassDef))}

    def qualify(expr: cst.BaseExpression) -> str | None:
        name = dotted(expr)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if head in names:
            return names[head] + ("." + rest if rest else "")
        return f"builtins.{head}" if head in BUILTIN_NAMES and head not in defined and not rest else None

    return qualify


def _from_imported(statement: cst.CSTNode) -> list[str]:
    """The names a module-level `from ... import a, b as c` line binds (not `*`)."""
    names = []
    for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
            names.extend(name for alias in small.names if (name := dotted(
                alias.asname.name if alias.asname is not None else alias.name)))
    return names


def _all_names(module: cst.Module) -> frozenset[str] | None:
    """The strings of a module-level `__all__ = [...]` (or tuple); None when it has none."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and any(dotted(t.target) == "__all__" for t in small.targets):
                items = small.value.elements if isinstance(small.value, (cst.List, cst.Tuple)) else ()
                return frozenset(e.value.evaluated_value for e in items
                                 if isinstance(e.value, cst.SimpleString) and isinstance(e.value.evaluated_value, str))
    return None
