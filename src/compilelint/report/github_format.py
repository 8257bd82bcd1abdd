"""GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` annotation per
finding, shown inline on the pull request's diff.

    ::error file=src/model.py,line=12,col=9,endLine=12,endColumn=20,title=CL102 tensor-control-flow::message

Escaping follows @actions/core: `%`, CR and LF in the message; those and `:` and `,` in
property values. Columns are 1-based; `endColumn` is exclusive, as in the other formats.
Paths are relative to `$GITHUB_WORKSPACE` when the file is inside it (GitHub resolves
annotation paths against the workspace), else as displayed.
"""

from __future__ import annotations

import os
from pathlib import Path

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _path(path: str) -> str:
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace:
        try:
            return Path(os.path.abspath(path)).relative_to(Path(workspace).resolve()).as_posix()
        except (ValueError, OSError):
            pass
    return Path(path).as_posix()


def line(f) -> str:
    props = [("file", _path(f.path)), ("line", str(f.line)), ("col", str(f.col))]
    if f.end_line is not None:
        props.append(("endLine", str(f.end_line)))
        if f.end_col is not None:
            props.append(("endColumn", str(f.end_col)))
    props.append(("title", f"{f.code} {f.name}".strip()))
    message = f.message
    if f.help:
        message += f"\nhelp: {f.help}"
    if f.evidence:
        message += f"\nprobe: {f.evidence.get('status', '')} {f.evidence.get('reason', '') or ''}".rstrip()
    command = COMMANDS.get(f.severity, "warning")
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    return f"::{command} {rendered}::{escape_data(message)}"


def render(findings, **context) -> str:
    lines = [line(f) for f in findings]
    return "\n".join(lines) + ("\n" if lines else "")
