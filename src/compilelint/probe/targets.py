"""Probe targets: ``path/to/file.py:factory`` or ``package.module:factory``.

A factory takes no arguments and returns one of

* ``(callable, args)`` or ``(callable, args, kwargs)`` — a module or function and its
  example inputs;
* a dict ``{"fn": callable, "args": (...), "kwargs": {...}, "calls": [...]}`` where the
  optional ``calls`` lists further inputs, each ``args`` tuple or ``(args, kwargs)``
  pair, that the probe feeds to the compiled callable one after the other (to provoke
  recompiles, e.g. a Python float that changes between calls).

Parsing a spec and reading ``[tool.compilelint.probe]`` need no torch; loading a
target (``load_target``) runs user code and happens in the worker subprocess only.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


class TargetError(ValueError):
    """A target spec that cannot be used (usage error, exit 2)."""


_MODULE_RE = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")
_IDENT_RE = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")


@dataclass(frozen=True)
class TargetSpec:
    spec: str  # as the user wrote it
    factory: str  # attribute name (dotted allowed: Class.method)
    path: str | None = None  # absolute path of a file target
    module: str | None = None  # dotted module of a module target
    cwd: str = field(default_factory=os.getcwd)

    @property
    def name(self) -> str:
        if self.path:
            base = os.path.basename(self.path)
            return f"{base}:{self.factory}"
        return f"{self.module}:{self.factory}"

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec, "factory": self.factory, "path": self.path,
                "module": self.module, "cwd": self.cwd}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TargetSpec":
        return cls(spec=d["spec"], factory=d["factory"], path=d.get("path"),
                   module=d.get("module"), cwd=d.get("cwd") or os.getcwd())


def parse_target(spec: str, base: str | os.PathLike | None = None) -> TargetSpec:
    """Parse ``file.py:factory`` / ``pkg.mod:factory``; relative paths against ``base``."""
    text = spec.strip()
    base_dir = os.path.abspath(base) if base is not None else os.getcwd()
    if ":" not in text:
        raise TargetError(f"target {spec!r}: expected path/to/file.py:factory or package.module:factory")
    where, _, factory = text.rpartition(":")
    if not where or not factory:
        raise TargetError(f"target {spec!r}: expected path/to/file.py:factory or package.module:factory")
    if not _IDENT_RE.match(factory):
        raise TargetError(f"target {spec!r}: {factory!r} is not a Python name")
    looks_like_file = where.endswith(".py") or os.sep in where or "/" in where
    if looks_like_file:
        path = where if os.path.isabs(where) else os.path.join(base_dir, where)
        path = os.path.normpath(path)
        if not os.path.isfile(path):
            raise TargetError(f"target {spec!r}: no such file {where}")
        return TargetSpec(spec=text, factory=factory, path=path, cwd=base_dir)
    if not _MODULE_RE.match(where):
        raise TargetError(f"target {spec!r}: {where!r} is neither a .py file nor a module name")
    return TargetSpec(spec=text, factory=factory, module=where, cwd=base_dir)


def find_pyproject(start: str | os.PathLike | None = None) -> Path | None:
    here = Path(start or os.getcwd()).resolve()
    for d in (here, *here.parents):
        p = d / "pyproject.toml"
        if p.is_file():
            return p
    return None


def config_probe_table(pyproject: str | os.PathLike | None = None) -> tuple[dict[str, Any], Path | None]:
    """The ``[tool.compilelint.probe]`` table of the nearest (or given) pyproject.toml."""
    path = Path(pyproject) if pyproject else find_pyproject()
    if path is None or not path.is_file():
        return {}, None
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TargetError(f"{path}: cannot read: {exc}") from None
    table = data.get("tool", {}).get("compilelint", {}).get("probe", {})
    if not isinstance(table, dict):
        raise TargetError(f"{path}: [tool.compilelint.probe] must be a table")
    return table, path


def config_targets(table: dict[str, Any], root: str | os.PathLike) -> list[TargetSpec]:
    targets = table.get("targets", [])
    if isinstance(targets, str):
        targets = [targets]
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise TargetError("[tool.compilelint.probe] targets must be a list of strings")
    return [parse_target(t, base=root) for t in targets]


# --------------------------------------------------------------------------------------
# Loading (worker side: runs user code)
# --------------------------------------------------------------------------------------


@dataclass
class LoadedTarget:
    fn: Any
    args: tuple
    kwargs: dict
    calls: list[tuple[tuple, dict]]  # every call to make, the first being (args, kwargs)
    files: list[str]  # the target's own source file(s)


def _import_file(path: str):
    directory = os.path.dirname(path)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    mod_name = "_compilelint_target_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    spec.loader.exec_module(module)
    return module


def _normalize_call(item: Any) -> tuple[tuple, dict]:
    if isinstance(item, dict) and ("args" in item or "kwargs" in item):
        return tuple(item.get("args", ())), dict(item.get("kwargs") or {})
    if (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], (tuple, list))
            and isinstance(item[1], dict)):
        return tuple(item[0]), dict(item[1])
    if isinstance(item, (tuple, list)):
        return tuple(item), {}
    return (item,), {}


def normalize_factory_result(result: Any) -> tuple[Any, tuple, dict, list[tuple[tuple, dict]]]:
    calls_extra: list[tuple[tuple, dict]] = []
    if isinstance(result, dict):
        fn = result.get("fn", result.get("callable", result.get("model")))
        args = result.get("args", ())
        kwargs = result.get("kwargs") or {}
        calls_extra = [_normalize_call(c) for c in result.get("calls", [])]
    elif isinstance(result, (tuple, list)) and len(result) in (2, 3):
        fn, args = result[0], result[1]
        kwargs = result[2] if len(result) == 3 else {}
    else:
        raise TypeError(
            "the factory must return (callable, args), (callable, args, kwargs) or a dict "
            f"with 'fn' and 'args'; it returned {type(result).__name__}"
        )
    if not callable(fn):
        raise TypeError(f"the factory returned a {type(fn).__name__}, which is not callable")
    if not isinstance(args, (tuple, list)):
        args = (args,)
    if not isinstance(kwargs, dict):
        raise TypeError("the factory's kwargs must be a dict")
    return fn, tuple(args), dict(kwargs), calls_extra


def load_target(spec: TargetSpec) -> LoadedTarget:
    if spec.cwd and spec.cwd not in sys.path:
        sys.path.insert(0, spec.cwd)
    if spec.path:
        module = _import_file(spec.path)
    else:
        module = importlib.import_module(spec.module)  # type: ignore[arg-type]
    obj: Any = module
    for part in spec.factory.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            where = spec.path or spec.module
            raise AttributeError(f"{where} has no attribute {spec.factory!r}") from None
    if not callable(obj):
        raise TypeError(f"{spec.factory} is not callable")
    fn, args, kwargs, extra = normalize_factory_result(obj())
    files = []
    mfile = getattr(module, "__file__", None)
    if mfile:
        files.append(os.path.abspath(mfile))
    return LoadedTarget(fn=fn, args=args, kwargs=kwargs, calls=[(args, kwargs), *extra], files=files)
