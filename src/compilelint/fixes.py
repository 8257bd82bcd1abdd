"""Autofixes: apply the edits findings carry.

A rule with an autofix (`Rule.autofix`, `registry.RuleInfo.fixable`) computes it where it
reports, from the nodes it already has, and only when the fix cannot change what the
program does beyond the hazard it names; the finding then carries `Finding.edits`
(otherwise it keeps its suggestion, `Finding.help`, only). What each rule's fix does, and
when it holds back, is written in the rule (CL301, CL302).

`plan_and_apply(text, findings)` applies the edits of the findings of one file: in the
findings' order, a finding's edits all or none; the same edit made for several findings
(two calls on one compiled module) once; a finding whose edits overlap edits already
taken is left for the next run (`check --fix` re-checks and reports what is left). Every
byte no edit touches stays as it was (formatting, comments, line ends). It never raises,
and it returns the text unchanged unless the result still parses.

`check --fix` writes fixed files atomically (`write`), `check --diff` prints what `--fix`
would change (`FileFix.diff`).
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from compilelint.atomic import write_bytes
from compilelint.finding import Edit, Finding

# Line ends as libcst counts them (the positions of edits come from libcst).
_LINE_END = re.compile(r"\r\n?|\n")
_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST: parse, never build code


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _LINE_END.finditer(text)]


def _offset(starts: list[int], text: str, line: int, col: int) -> int | None:
    """The index in `text` of 1-based (line, col); None when it is not in the text. A
    place one line past the end is the end (a last line without its line end)."""
    if line < 1 or col < 1:
        return None
    if line > len(starts):
        return len(text) if line == len(starts) + 1 and col == 1 else None
    start = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    offset = start + col - 1
    return offset if offset <= end else None


def _spans(edits: Iterable[Edit], starts: list[int], text: str) -> list[tuple[int, int, str]] | None:
    out = []
    for edit in edits:
        start = _offset(starts, text, edit.line, edit.col)
        end = _offset(starts, text, edit.end_line, edit.end_col)
        if start is None or end is None or end < start:
            return None
        out.append((start, end, edit.text))
    return out


def _overlaps(span: tuple[int, int, str], taken: list[tuple[int, int, str]]) -> bool:
    start, end, _ = span
    return any(start < other_end and other_start < end for other_start, other_end, _ in taken)


def plan_and_apply(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    """(new text, the findings it fixed); the text unchanged and [] when nothing is safe."""
    try:
        return _plan_and_apply(text, findings)
    except Exception:  # a fixer's bug must never cost the user their file or the run
        return text, []


def _plan_and_apply(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    wanted = sorted((f for f in findings if f.edits), key=lambda f: (f.line, f.col, f.code))
    if not wanted:
        return text, []
    starts = _line_starts(text)
    taken: list[tuple[int, int, str]] = []  # in the order they were taken
    fixed: list[Finding] = []
    for finding in wanted:
        spans = _spans(finding.edits, starts, text)
        if spans is None:
            continue  # made for another text
        new = [span for span in spans if span not in taken]
        if any(_overlaps(span, taken) for span in new):
            continue
        taken.extend(new)
        fixed.append(finding)
    if not taken:
        return text, []
    order = sorted(range(len(taken)), key=lambda i: (taken[i][0], taken[i][1], i))
    pieces, at = [], 0
    for i in order:
        start, end, replacement = taken[i]
        pieces += [text[at:start], replacement]
        at = end
    pieces.append(text[at:])
    new_text = "".join(pieces)
    if new_text == text or not _still_parses(text, new_text):
        return text, []
    return new_text, fixed


def _still_parses(old: str, new: str) -> bool:
    import libcst as cst

    try:
        cst.parse_module(new)
    except Exception:
        return False
    return _python_parses(new) or not _python_parses(old)


def _python_parses(text: str) -> bool:
    try:
        compile(text, "<fixed>", "exec", dont_inherit=True, flags=_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return False
    return True


def apply(text: str, findings: Iterable[Finding]) -> str:
    """`text` with every safe fix for `findings` (of this file) applied; unchanged otherwise."""
    return plan_and_apply(text, findings)[0]


# ---- files -------------------------------------------------------------------------------

@dataclass
class FileFix:
    path: str
    old: str
    new: str
    fixed: list[Finding]
    encoding: str = "utf-8"
    error: str | None = None

    def diff(self) -> str:
        lines = difflib.unified_diff(self.old.splitlines(keepends=True), self.new.splitlines(keepends=True),
                                     fromfile=f"a/{self.path}", tofile=f"b/{self.path}")
        out = []
        for line in lines:
            out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
        return "".join(out)


def fix_files(findings: Sequence[Finding]) -> list[FileFix]:
    """What the safe fixes would change, per file (nothing is written)."""
    from compilelint.source import SourceError, read

    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.edits:
            by_path.setdefault(finding.path, []).append(finding)
    out = []
    for path, group in sorted(by_path.items()):
        try:
            source = read(path)
        except SourceError as exc:
            out.append(FileFix(path, "", "", [], error=str(exc)))
            continue
        new, fixed = plan_and_apply(source.text, group)
        if fixed and new != source.text:
            out.append(FileFix(path, source.text, new, fixed, source.encoding))
    return out


def write(fix: FileFix) -> str | None:
    """Write a fixed file atomically, in its encoding and mode; None, or why not."""
    path = fix.path
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot stat: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link; not fixed"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file; not fixed"
    encoding = fix.encoding
    try:
        data = fix.new.encode(encoding)
    except (UnicodeEncodeError, LookupError) as exc:
        return f"the fix cannot be written in {encoding}: {exc}"
    try:
        with open(path, "rb") as handle:
            current = handle.read()
        if current != fix.old.encode(encoding):  # changed since it was read: leave it alone
            return "changed while being checked; not fixed"
        write_bytes(path, data, mode=stat.S_IMODE(info.st_mode), sync=True, prefix=".compilelint-fix-", suffix=".py")
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    return None
