"""Report formats. Each module has `render(findings, **context) -> str`."""

from __future__ import annotations

import importlib

FORMATS = ("text", "concise", "json", "sarif", "github")


def render(fmt: str, findings, **context) -> str:
    module = importlib.import_module(f"compilelint.report.{fmt}_format")
    return module.render(findings, **context)
