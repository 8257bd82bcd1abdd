"""A stable JSON document: see docs/json-schema.md. Bump `version` on any breaking change
(2: a finding's `fix` is called `help`)."""

from __future__ import annotations

import json
from collections import Counter

from compilelint import __version__

SCHEMA_VERSION = 2
FIELDS = ("path", "line", "col", "end_line", "end_col", "code", "name", "severity", "message",
          "help", "scope", "when", "evidence")


def render(findings, *, files: int = 0, lines: int = 0, torch: str | None = None,
           torch_notice: str | None = None, **context) -> str:
    document = {
        "version": SCHEMA_VERSION,
        "tool": {"name": "compilelint", "version": __version__},
        "target_torch": torch,
        "target_torch_notice": torch_notice,
        "summary": {
            "files": files,
            "lines": lines,
            "findings": len(findings),
            "by_code": dict(sorted(Counter(f.code for f in findings).items())),
        },
        "findings": [{key: _plain(getattr(f, key)) for key in FIELDS} for f in findings],
    }
    if context.get("probe") is not None:
        document["probe"] = context["probe"]
    return json.dumps(document, indent=2) + "\n"


def _plain(value):
    return list(value) if isinstance(value, tuple) else value
