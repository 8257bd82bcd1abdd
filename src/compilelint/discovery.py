"""Which files to check: the paths given, minus excludes and what .gitignore ignores."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compilelint.config import Settings

SUFFIXES = (".py", ".pyi")


@dataclass(slots=True)
class Candidate:
    path: str  # as it will be displayed
    error: str | None = None  # set when the path itself cannot be walked or read


def display_path(path: str | os.PathLike[str]) -> str:
    """Relative to the working directory when inside it, else absolute; '/' separators."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:  # another drive on Windows
        return _posix(absolute)
    if rel.startswith(".."):
        return _posix(absolute)
    return _posix(rel)


def _posix(path: str) -> str:
    return path if os.sep == "/" else path.replace(os.sep, "/")


def _relative(path: str, folder: str) -> str | None:
    """`path` relative to `folder` ('/' separators), None when outside it; both absolute
    and normalised. Plain string work: this runs for every file of a million-line tree."""
    if path == folder:
        return "."
    prefix = folder if folder.endswith(os.sep) else folder + os.sep
    return _posix(path[len(prefix):]) if path.startswith(prefix) else None


class Excluder:
    def __init__(self, settings: Settings) -> None:
        self.root = str(Path(settings.root).resolve())
        self.patterns = tuple(p.rstrip("/") for p in tuple(settings.exclude) + tuple(settings.extend_exclude))
        self.respect_gitignore = settings.respect_gitignore
        self._gitignores: dict[str, object | None] = {}
        self._chains: dict[str, tuple] = {}

    def _matches(self, absolute: str) -> bool:
        rel = _relative(absolute, self.root)
        if rel is None:
            rel = _posix(absolute)
        name = os.path.basename(absolute)
        for pattern in self.patterns:
            if "/" in pattern or "*" in pattern or "?" in pattern:
                if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern + "/*"):
                    return True
                if "/" not in pattern and fnmatch.fnmatchcase(name, pattern):
                    return True
            elif name == pattern or rel == pattern:
                return True
        return False

    def _gitignore(self, folder: str):
        if folder not in self._gitignores:
            spec = None
            file = os.path.join(folder, ".gitignore")
            if os.path.isfile(file):
                try:
                    import pathspec

                    with open(file, encoding="utf-8", errors="replace") as handle:
                        lines = handle.read().splitlines()
                    spec = pathspec.GitIgnoreSpec.from_lines(lines)
                except OSError:
                    spec = None
            self._gitignores[folder] = spec
        return self._gitignores[folder]

    def _chain(self, folder: str) -> tuple:
        """(folder, spec) of each .gitignore from the project root down to `folder` (inside
        it). A loop, not recursion: folders may nest thousands deep."""
        missing, chain = [], ()
        while True:
            if folder in self._chains:
                chain = self._chains[folder]
                break
            missing.append(folder)
            parent = os.path.dirname(folder)
            if folder == self.root or parent == folder:
                break
            folder = parent
        for folder in reversed(missing):
            spec = self._gitignore(folder)
            if spec is not None:
                chain = chain + ((folder, spec),)
            self._chains[folder] = chain
        return chain

    def _ignored_by_git(self, absolute: str, is_dir: bool) -> bool:
        if not self.respect_gitignore:
            return False
        # Consult every .gitignore between the project root and the file, the nearest
        # last, as git does; nothing outside the project.
        if absolute == self.root or _relative(absolute, self.root) is None:
            return False
        ignored = False
        for folder, spec in self._chain(os.path.dirname(absolute)):
            rel = _relative(absolute, folder) + ("/" if is_dir else "")
            result = spec.check_file(rel)
            if result.include is not None:
                ignored = result.include
        return ignored

    def excluded(self, path: str | os.PathLike[str], is_dir: bool = False) -> bool:
        absolute = os.path.abspath(path)
        if self._matches(absolute):
            return True
        return self._ignored_by_git(absolute, is_dir)

    def excluded_by_ancestors(self, path: str | os.PathLike[str]) -> bool:
        """For files passed by name with --force-exclude: any excluded part of the path counts."""
        part = os.path.abspath(path)
        is_dir = False
        while part != self.root and os.path.dirname(part) != part:
            if self.excluded(part, is_dir=is_dir):
                return True
            part, is_dir = os.path.dirname(part), True
        return False


def _walk(top: str, onerror) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top, onerror=onerror)`, top-down, without recursion: Python 3.11's
    os.walk recurses once per folder level and raises RecursionError past ~1,000 levels.
    The caller may prune `dirs` in place, as with os.walk."""
    stack = [top]
    while stack:
        folder = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else files).append(entry.name)
        except OSError as exc:
            onerror(exc)
            continue
        yield folder, dirs, files
        for name in reversed(dirs):
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                stack.append(path)


def discover(paths: list[str], settings: Settings) -> Iterator[Candidate]:
    """Yield each file to check once, in a stable order."""
    excluder = Excluder(settings)
    seen: set[str] = set()

    def emit(path: str, error: str | None = None) -> Iterator[Candidate]:
        key = os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            yield Candidate(display_path(path), error)

    for given in paths:
        if not os.path.lexists(given):
            yield from emit(given, "no such file or directory")
            continue
        if not os.path.isdir(given):
            if settings.force_exclude and excluder.excluded_by_ancestors(given):
                continue
            yield from emit(given)
            continue
        if settings.force_exclude and excluder.excluded_by_ancestors(given):
            continue
        errors: list[OSError] = []
        for folder, dirs, files in _walk(given, errors.append):
            kept = []
            for name in sorted(dirs):
                full = os.path.join(folder, name)
                if os.path.islink(full) or excluder.excluded(full, is_dir=True):
                    continue  # symlinked folders are not followed: no loops, no escapes
                kept.append(name)
            dirs[:] = kept
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                full = os.path.join(folder, name)
                if excluder.excluded(full):
                    continue
                yield from emit(full)
            while errors:
                err = errors.pop()
                yield from emit(err.filename or given, f"cannot read folder: {err.strerror or err}")
        while errors:
            err = errors.pop()
            yield from emit(err.filename or given, f"cannot read folder: {err.strerror or err}")
