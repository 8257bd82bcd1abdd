"""Helpers for the end-to-end tests: write small projects, run the real CLI, read its JSON."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from conftest import REPO, run_cli

SCHEMA_SHARED = Path(__file__).resolve().parents[2] / "shared/schemas/sarif-schema-2.1.0.json"
SCHEMA_COPY = Path(__file__).resolve().parent / "data/sarif-schema-2.1.0.json"
DEMO = REPO / "fixtures" / "demo"


def sarif_schema() -> dict:
    path = SCHEMA_SHARED if SCHEMA_SHARED.is_file() else SCHEMA_COPY
    return json.loads(path.read_text(encoding="utf-8"))


def make_project(base: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> source, dedented; bytes written as they are)."""
    for name, content in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return base


def check_json(*args, cwd, expect_rc=None, env=None) -> tuple[dict, object]:
    """Run `compilelint check --format json ARGS` in `cwd`; return (document, completed)."""
    result = run_cli("check", "--no-cache", "--format", "json", *args, cwd=cwd, env=env)
    if expect_rc is not None:
        assert result.returncode == expect_rc, (result.returncode, result.stdout, result.stderr)
    assert result.stdout, result.stderr
    return json.loads(result.stdout), result


def hits(document: dict) -> set[tuple[str, int, str]]:
    """(path, line, code) of every finding."""
    return {(f["path"], f["line"], f["code"]) for f in document["findings"]}


def codes(document: dict) -> set[str]:
    return {f["code"] for f in document["findings"]}


def lines_of(document: dict, path: str, code: str | None = None) -> set[int]:
    return {f["line"] for f in document["findings"] if f["path"] == path and (code is None or f["code"] == code)}
