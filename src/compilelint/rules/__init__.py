"""The rule registry: every module `clNNN_*.py` in this package defines one rule."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from compilelint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("cl"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule \
                    and value.__module__ == module.__name__:
                found.append(value)
    found.sort(key=lambda rule: rule.code)
    codes = [rule.code for rule in found]
    duplicates = {code for code in codes if codes.count(code) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate rule codes: {sorted(duplicates)}")
    return tuple(found)


def by_code() -> dict[str, type[Rule]]:
    return {rule.code: rule for rule in all_rules()}


# Codes the engine itself emits; they have pages but no visitor.
BUILTIN = {
    "CL000": ("file-error", "error", "The file could not be read or parsed."),
    "CL001": ("rule-crash", "error", "A rule crashed on this file (an internal error)."),
}
