"""Rule pages (`rules/CODE.md`): found in the wheel or, in a checkout, at the repo root."""

from __future__ import annotations

import re
from pathlib import Path


def pages_dir() -> Path:
    bundled = Path(__file__).parent / "_rule_pages"
    if bundled.is_dir():
        return bundled
    return Path(__file__).resolve().parents[2] / "rules"


def page_text(code: str) -> str | None:
    if not re.fullmatch(r"CL\d{3}", code):
        return None
    path = pages_dir() / f"{code}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def sections(text: str) -> dict[str, str]:
    """`## Heading` -> body, for SARIF help and the tests."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        match = re.match(r"^##\s+(.*)$", line)
        if match:
            current = match.group(1).strip().lower()
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return {key: value.strip() for key, value in out.items()}


def code_blocks(body: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", body, re.S)
