"""Findings as LSP data: diagnostics (with their rule page and related places), the
`# noqa` and safe-fix edits, and hover text."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types as lsp

from compilelint.finding import Finding
from compilelint.related import Place

SOURCE = "compilelint"
SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
}
# An existing `# noqa: CODES` to extend (a bare `# noqa` already silences everything).
_NOQA_CODES = re.compile(r"#\s*noqa:\s*[A-Za-z]+\d+(?:[\s,]+[A-Za-z]+\d+)*", re.IGNORECASE)


def units(line: str, col: int, encoding: str) -> int:
    """A 0-based column in characters as the client counts it (UTF-16 code units by default)."""
    head = line[:col]
    if encoding == lsp.PositionEncodingKind.Utf32:
        return len(head)
    if encoding == lsp.PositionEncodingKind.Utf8:
        return len(head.encode("utf-8", "surrogatepass"))
    return len(head.encode("utf-16-le", "surrogatepass")) // 2


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number - 1] if 0 < number <= len(lines) else ""


def position(lines: Sequence[str], line: int, col: int, encoding: str) -> lsp.Position:
    """1-based line and character column -> an LSP position."""
    return lsp.Position(line=max(line - 1, 0), character=units(_line(lines, line), max(col - 1, 0), encoding))


def finding_range(finding: Finding, lines: Sequence[str], encoding: str) -> lsp.Range:
    start = position(lines, finding.line, finding.col, encoding)
    if finding.end_line and finding.end_col and (finding.end_line, finding.end_col) > (finding.line, finding.col):
        end = position(lines, finding.end_line, finding.end_col, encoding)
    else:  # no span (CL000, CL001): to the end of the line's text
        text = _line(lines, finding.line).rstrip("\r\n")
        end = position(lines, finding.line, max(len(text) + 1, finding.col + 1), encoding)
    return lsp.Range(start=start, end=end)


def place_range(place: Place, lines: Sequence[str], encoding: str) -> lsp.Range:
    text = _line(lines, place.line).rstrip("\r\n")
    end_col = place.end_col if place.end_col and place.end_col > place.col else len(text) + 1
    return lsp.Range(start=position(lines, place.line, place.col, encoding),
                     end=position(lines, place.line, max(end_col, place.col), encoding))


def page_uri(code: str) -> str | None:
    """The rule's page as a file URI (the page shipped with the installed compilelint)."""
    from compilelint.pages import pages_dir

    page = pages_dir() / f"{code}.md"
    return Path(page).resolve().as_uri() if page.is_file() else None


def diagnostic(finding: Finding, lines: Sequence[str], encoding: str,
               related: Sequence[tuple[str, lsp.Range, str]] = ()) -> lsp.Diagnostic:
    """`related`: (uri, range, message) of each related place."""
    href = page_uri(finding.code)
    return lsp.Diagnostic(
        range=finding_range(finding, lines, encoding),
        message=finding.message,
        severity=SEVERITY.get(finding.severity, lsp.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=lsp.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=[
            lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=where), message=message)
            for uri, where, message in related
        ] or None,
        data={"code": finding.code, "line": finding.line, "col": finding.col},
    )


def noqa_edit(finding: Finding, lines: Sequence[str], encoding: str) -> lsp.TextEdit | None:
    """An edit that silences `finding` with `# noqa: CODE` on its line (extending a
    `# noqa: ...` already there); None when a bare `# noqa` is there."""
    text = _line(lines, finding.line).rstrip("\r\n")
    existing = _NOQA_CODES.search(text)
    if existing:
        at, insert = existing.end(), f", {finding.code}"
    elif re.search(r"#\s*noqa\b(?!:)", text, re.IGNORECASE):
        return None
    else:
        at, insert = len(text), f"  # noqa: {finding.code}"
    where = position(lines, finding.line, at + 1, encoding)
    return lsp.TextEdit(range=lsp.Range(start=where, end=where), new_text=insert)


def whole_text_edit(old: str, new: str, encoding: str) -> lsp.TextEdit:
    """`old` made `new`: one edit over the lines that differ."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < min(len(old_lines), len(new_lines)) - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    start = lsp.Position(line=head, character=0)
    end_line = len(old_lines) - tail
    end = lsp.Position(line=end_line, character=0)
    if end_line == len(old_lines) and old_lines and not old_lines[-1].endswith(("\n", "\r")):
        end = lsp.Position(line=end_line - 1, character=units(old_lines[-1], len(old_lines[-1]), encoding))
    return lsp.TextEdit(range=lsp.Range(start=start, end=end), new_text="".join(new_lines[head:len(new_lines) - tail]))


def hover_text(findings: Sequence[Finding], page_text: Callable[[str], str | None]) -> str:
    """Markdown for the findings under the cursor: each finding, then its rule's page."""
    parts = []
    for code in dict.fromkeys(f.code for f in findings):
        for finding in (f for f in findings if f.code == code):
            parts.append(f"**{finding.code}** ({finding.severity}): {finding.message}")
        page = page_text(code)
        parts.append(page.strip() if page else "")
    return "\n\n".join(part for part in parts if part)
