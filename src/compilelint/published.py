"""Which checked top-level packages are published for others to import (their public names are
an API user code may compile, `index_roots._library`), read from the disk when the project is
built: a `py.typed` marker (PEP 561), an installed distribution's (`*.dist-info` beside the
package, named after it or listing it in `top_level.txt`: rwkv's wheel ships an empty
`__init__`, and users import `rwkv.model.RWKV`), or a source tree that builds one (`setup.py`,
or a `pyproject.toml` with a `[project]` or `[tool.poetry]` table, beside the package or
beside its `src/` folder)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from compilelint.finding import FileAnalysis


def published_packages(analyses: Iterable[FileAnalysis]) -> frozenset[str]:
    sites: dict[str, tuple[frozenset[str], frozenset[str] | None]] = {}  # one listing per folder
    return frozenset(a.module for a in analyses if "." not in a.module and os.path.basename(a.path) == "__init__.py"
                     and _published(os.path.dirname(os.path.abspath(a.path)), a.module, sites))


def _published(folder: str, name: str, sites: dict) -> bool:
    if os.path.isfile(os.path.join(folder, "py.typed")):
        return True
    parent = os.path.dirname(folder)
    if _installed(parent, name, sites):
        return True
    roots = (parent, os.path.dirname(parent)) if os.path.basename(parent) == "src" else (parent,)
    return any(_builds(root) for root in roots)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed(site: str, name: str, sites: dict) -> bool:
    """A distribution in `site` named after `name`, or (read once per folder, only when asked)
    listing it in its `top_level.txt`."""
    if site not in sites:
        try:
            infos = frozenset(e for e in os.listdir(site) if e.endswith(".dist-info"))
        except OSError:
            infos = frozenset()
        sites[site] = (infos, None)
    infos, top_level = sites[site]
    if _normal(name) in {_normal(e.split("-", 1)[0]) for e in infos}:
        return True
    if top_level is None:
        top_level = frozenset(n for info in infos for n in _top_level(os.path.join(site, info)))
        sites[site] = (infos, top_level)
    return name in top_level


def _top_level(info: str) -> list[str]:
    try:
        with open(os.path.join(info, "top_level.txt"), encoding="utf-8") as f:
            return f.read().split()
    except OSError:
        return []


def _builds(root: str) -> bool:
    if os.path.isfile(os.path.join(root, "setup.py")):
        return True
    try:
        with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r"^\[(project|tool\.poetry)\]", text, re.M) is not None
