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
        return Path(absolute).as_posix()
    if rel.startswith(".."):
        return Path(absolute).as_posix()
    return Path(rel).as_posix()


class Excluder:
    def __init__(self, settings: Settings) -> None:
        self.root = Path(settings.root).resolve()
        self.patterns = tuple(settings.exclude) + tuple(settings.extend_exclude)
        self.respect_gitignore = settings.respect_gitignore
        self._gitignores: dict[Path, object | None] = {}

    def _matches(self, absolute: Path) -> bool:
        try:
            rel = absolute.relative_to(self.root).as_posix()
        except ValueError:
            rel = absolute.as_posix()
        name = absolute.name
        for pattern in self.patterns:
            pattern = pattern.rstrip("/")
            if "/" in pattern or "*" in pattern or "?" in pattern:
                if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern + "/*"):
                    return True
                if "/" not in pattern and fnmatch.fnmatchcase(name, pattern):
                    return True
            elif name == pattern or rel == pattern:
                return True
        return False

    def _gitignore(self, folder: Path):
        if folder not in self._gitignores:
            spec = None
            file = folder / ".gitignore"
            if file.is_file():
                try:
                    import pathspec

                    lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
                    spec = pathspec.GitIgnoreSpec.from_lines(lines)
                except OSError:
                    spec = None
            self._gitignores[folder] = spec
        return self._gitignores[folder]

    def _ignored_by_git(self, absolute: Path, is_dir: bool) -> bool:
        if not self.respect_gitignore:
            return False
        # Consult every .gitignore between the project root (or the filesystem root
        # when outside it) and the file, the nearest last, as git does.
        try:
            absolute.relative_to(self.root)
            top = self.root
        except ValueError:
            return False
        folder = absolute.parent
        chain = []
        while True:
            chain.append(folder)
            if folder == top or folder.parent == folder:
                break
            folder = folder.parent
        ignored = False
        for folder in reversed(chain):
            spec = self._gitignore(folder)
            if spec is None:
                continue
            rel = absolute.relative_to(folder).as_posix() + ("/" if is_dir else "")
            result = spec.check_file(rel)
            if result.include is not None:
                ignored = result.include
        return ignored

    def excluded(self, path: str | os.PathLike[str], is_dir: bool = False) -> bool:
        absolute = Path(os.path.abspath(path))
        if self._matches(absolute):
            return True
        return self._ignored_by_git(absolute, is_dir)

    def excluded_by_ancestors(self, path: str | os.PathLike[str]) -> bool:
        """For files passed by name with --force-exclude: any excluded part of the path counts."""
        absolute = Path(os.path.abspath(path))
        for part in (absolute, *absolute.parents):
            if part == self.root or part.parent == part:
                break
            if self.excluded(part, is_dir=part != absolute):
                return True
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
