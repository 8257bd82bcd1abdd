"""`path:line:col: CODE message`, one per line, like ruff's concise format."""

from __future__ import annotations


def render(findings, **context) -> str:
    lines = [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}" for f in findings]
    return "\n".join(lines) + ("\n" if lines else "")
