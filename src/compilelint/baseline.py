"""Baselines: adopt compilelint on a codebase with findings, and see only new ones.

`compilelint check --write-baseline FILE` records every current finding; later,
`compilelint check --baseline FILE` reports only findings that are not in it.

A finding is recognised by a fingerprint, not by its line number, so that edits elsewhere
in the file (lines added above it, the block re-indented) keep it recognised:

    hash(code, path relative to the baseline file's folder, the flagged source line with
         its whitespace normalised, occurrence index among findings with the same three)

The occurrence index tells apart identical lines in one file (two `print(x)` in one
forward): the first in the file is 0, the next 1, and so on, so adding a third reports
exactly one new finding. Paths are taken relative to the folder the baseline file is in
(usually the project root), so the working directory a check runs from does not matter.
CL000 (a file that cannot be read or parsed) is recognised by
code and path alone; CL001 (a rule crashed) is never baselined.

The file is JSON with a version field, sorted, one finding per entry (its line and
message are for people reading the file; only fingerprints are compared), written to a
temporary file and renamed into place so that an interrupted run leaves the old one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compilelint.atomic import write_text
from compilelint.finding import Finding

VERSION = 1
NEVER_BASELINED = frozenset({"CL001"})
_LINE_END = re.compile(r"\r\n|\r|\n")  # what libcst (and so a finding's line) counts


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


def relative_path(path: str, root: str | os.PathLike[str] = ".") -> str:
    """`path` relative to the project root, '/'-separated (absolute when outside it)."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, os.path.abspath(root))
    except ValueError:  # another drive
        return Path(absolute).as_posix()
    if rel == ".." or rel.startswith(".." + os.sep):
        return Path(absolute).as_posix()
    return Path(rel).as_posix()


def normalise(text: str) -> str:
    """A source line with its whitespace runs collapsed and its ends stripped."""
    return " ".join(text.split())


def _lines(path: str) -> list[str]:
    from compilelint.source import SourceError, read

    try:
        return _LINE_END.split(read(path).text)
    except (SourceError, OSError, ValueError):
        return []


def source_line(path: str, line: int, cache: dict[str, list[str]]) -> str:
    lines = cache.get(path)
    if lines is None:
        lines = cache[path] = _lines(path)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _digest(code: str, path: str, text: str, index: int) -> str:
    key = "\x00".join((code, path, text, str(index)))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def fingerprints(findings: Sequence[Finding], root: str | os.PathLike[str] = ".",
                 cache: dict[str, list[str]] | None = None) -> list[str]:
    """One fingerprint per finding, in the same order (see the module's docstring)."""
    cache = {} if cache is None else cache
    keys = []
    for finding in findings:
        text = "" if finding.code == "CL000" else normalise(source_line(finding.path, finding.line, cache))
        keys.append((finding.code, relative_path(finding.path, root), text))
    order = sorted(range(len(findings)), key=lambda i: (keys[i], findings[i].line, findings[i].col))
    seen: Counter = Counter()
    out = [""] * len(findings)
    for i in order:
        key = keys[i]
        out[i] = _digest(*key, seen[key])
        seen[key] += 1
    return out


@dataclass
class Baseline:
    """The fingerprints in a baseline file, with how often each occurs."""

    counts: Counter = field(default_factory=Counter)
    path: str | None = None

    def __len__(self) -> int:
        return sum(self.counts.values())


@dataclass
class Filtered:
    findings: list[Finding]  # not in the baseline: report these
    baselined: int  # findings the baseline hid
    stale: int  # baseline entries no finding matched (fixed since; --write-baseline drops them)


def load(path: str | os.PathLike[str]) -> Baseline:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise BaselineError(f"baseline file {path} does not exist (create it with --write-baseline {path})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read baseline file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"baseline file {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or "version" not in data:
        raise BaselineError(f"baseline file {path} is not a compilelint baseline (no version field)")
    if data["version"] != VERSION:
        raise BaselineError(f"baseline file {path} has version {data['version']!r}; this compilelint reads "
                            f"version {VERSION}: write it again with --write-baseline")
    entries = data.get("findings")
    if not isinstance(entries, list):
        raise BaselineError(f"baseline file {path}: `findings` must be a list")
    counts: Counter = Counter()
    for entry in entries:
        fingerprint = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fingerprint, str):
            raise BaselineError(f"baseline file {path}: every finding needs a string `fingerprint`")
        counts[fingerprint] += 1
    return Baseline(counts, str(path))


def _folder(path) -> str:
    return os.path.dirname(os.path.abspath(path))


def apply(findings: Sequence[Finding], baseline: Baseline, root: str | os.PathLike[str] | None = None) -> Filtered:
    """The findings the baseline does not account for, in their order; paths relative to
    `root` (default: the baseline file's folder)."""
    if root is None:
        root = _folder(baseline.path) if baseline.path else "."
    remaining = Counter(baseline.counts)
    kept: list[Finding] = []
    hidden = 0
    for finding, fingerprint in zip(findings, fingerprints(findings, root)):
        if finding.code not in NEVER_BASELINED and remaining[fingerprint] > 0:
            remaining[fingerprint] -= 1
            hidden += 1
        else:
            kept.append(finding)
    return Filtered(kept, hidden, sum(remaining.values()))


def render(findings: Iterable[Finding], root: str | os.PathLike[str] = ".") -> str:
    findings = [f for f in findings if f.code not in NEVER_BASELINED]
    entries = [
        {"fingerprint": fp, "code": f.code, "path": relative_path(f.path, root), "line": f.line,
         "message": f.message}
        for f, fp in zip(findings, fingerprints(findings, root))
    ]
    entries.sort(key=lambda e: (e["path"], e["line"], e["code"], e["fingerprint"]))
    from compilelint import __version__

    data = {"version": VERSION, "tool": "compilelint", "tool_version": __version__, "findings": entries}
    # ASCII: a path that is not valid UTF-8 (a lone surrogate) still makes valid JSON
    return json.dumps(data, indent=2, ensure_ascii=True) + "\n"


def write(path: str | os.PathLike[str], findings: Iterable[Finding], root: str | os.PathLike[str] | None = None) -> int:
    """Record `findings` in `path` atomically (paths relative to `root`, default: the
    folder `path` is in); returns how many were recorded."""
    text = render(findings, _folder(path) if root is None else root)
    try:
        write_text(path, text, sync=True, make_folder=True, prefix=".compilelint-baseline-")
    except OSError as exc:
        raise BaselineError(f"cannot write baseline file {path}: {exc.strerror or exc}") from None
    return len(json.loads(text)["findings"])
