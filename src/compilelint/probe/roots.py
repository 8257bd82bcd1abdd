"""Which callables `compilelint probe -- COMMAND` compiles in place: its roots.

A root is ``package.module:Name`` (``Name`` a class, an ``nn.Module`` subclass or any
class with ``__call__``, or a module-level function; ``Outer.Inner`` for a nested
class). By default they are the classes and functions that hold static findings: a
finding's scope ``Block.forward`` names the root ``pkg.mod:Block``. No torch here.
"""

from __future__ import annotations

import re
from typing import Iterable

from compilelint.finding import Finding

_ROOT_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class RootError(ValueError):
    """A --module value that is not ``package.module:Name``."""


def parse_root(text: str) -> str:
    value = text.strip()
    if not _ROOT_RE.match(value):
        raise RootError(f"--module {text!r}: expected package.module:Class or package.module:function")
    return value


def roots_from_findings(findings: Iterable[Finding]) -> list[str]:
    """One root per class (or function) that holds a finding, in order of first finding.

    Only findings of rules about code running compiled count (not the compile-API
    rules, whose findings sit in the code that calls ``torch.compile``); findings at
    module level (no scope) and probe findings (CL9xx) name no root."""
    from compilelint import registry
    from compilelint.engine import module_name

    out: dict[str, None] = {}
    for f in findings:
        info = registry.get(f.code)
        if not f.scope or info is None or info.origin != "rule" or not info.region_only or not f.path.endswith(".py"):
            continue
        head = f.scope.split(".<locals>")[0].split(".")[0]
        mod = module_name(f.path)
        if mod and head.isidentifier():
            out.setdefault(f"{mod}:{head}", None)
    return list(out)


def split_root(root: str) -> tuple[str, str]:
    mod, _, name = root.partition(":")
    return mod, name
