"""CL146 (the project phase of `rules/cl146_typed_dict_optional_keys.py`): `Cls(...)` in the
compiled region, where `Cls` is a TypedDict with optional keys, its own or a base's
(`total=False`, `NotRequired[...]`). The class may be defined in any file of the project,
so only the project's class table decides; a candidate whose class is anything else is
dropped.
"""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import CLASS
from compilelint.summary import OPTIONAL_KEYS, TYPED_DICT


def run(context) -> list:
    index = context.index
    out = []
    for analysis, finding, _, call in context.candidates(CLASS):
        class_key = index.resolve_class(analysis.module, call.target)
        if class_key is not None and optional_keys(index, class_key):
            name = class_key.split(":", 1)[1]
            out.append((analysis, replace(finding, needs=(), message=finding.message.replace("{cls}", name))))
    return out


def optional_keys(index, class_key: str) -> bool:
    """Whether the class is a TypedDict (a class of its lineage names `TypedDict` as a base)
    with a key some class of its lineage makes optional."""
    bits = 0
    for owner in index.lineage(class_key):
        bits |= index.classes[owner].typed_dict
    return bits == TYPED_DICT | OPTIONAL_KEYS
