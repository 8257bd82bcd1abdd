"""The rule classes: every module `clNNN_*.py` in this package defines one rule. What the
engine, the reports and the CLI need to know of them is in `compilelint.registry`."""

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
