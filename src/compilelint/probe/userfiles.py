"""Which frames are "user" frames: code the user wrote or a library they call, not
torch internals, the standard library or the probe itself."""

from __future__ import annotations

import os
import sys
import sysconfig

_PROBE_DIR = os.path.dirname(os.path.abspath(__file__))  # compilelint/probe


def _norm_dir(p: str | None) -> str | None:
    if not p:
        return None
    return os.path.normcase(os.path.realpath(p)).rstrip(os.sep) + os.sep


def _internal_dirs() -> tuple[list[str], list[str], list[str]]:
    """(always-internal prefixes, library prefixes, stdlib prefixes)."""
    always: list[str] = []
    libs: list[str] = []
    stdlib: list[str] = []
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib"):
        d = _norm_dir(paths.get(key))
        if d:
            stdlib.append(d)
    for key in ("purelib", "platlib"):
        d = _norm_dir(paths.get(key))
        if d:
            libs.append(d)
    torch_mod = sys.modules.get("torch")
    if torch_mod is not None and getattr(torch_mod, "__file__", None):
        always.append(_norm_dir(os.path.dirname(torch_mod.__file__)))  # type: ignore[arg-type]
    always.append(_norm_dir(_PROBE_DIR))  # type: ignore[arg-type]
    return always, libs, stdlib


_DIRS_CACHE: tuple[list[str], list[str], list[str]] | None = None


def is_user_file(path: str | None) -> bool:
    """True for a frame in code the user wrote (or a library they call), False for
    torch internals, the standard library, compilelint's probe and synthetic files."""
    global _DIRS_CACHE
    if not path or path.startswith("<") or path.endswith(">"):
        return False
    if _DIRS_CACHE is None or (len(_DIRS_CACHE[0]) < 2 and "torch" in sys.modules):
        _DIRS_CACHE = _internal_dirs()
    always, libs, stdlib = _DIRS_CACHE
    p = os.path.normcase(os.path.realpath(path))
    if any(p.startswith(d) for d in always):
        return False
    if any(p.startswith(d) for d in libs):
        return True
    if any(p.startswith(d) for d in stdlib):
        return False
    return True
