"""A project kept warm for the language server: settings, the rules (libcst imported
once), every file's analysis, and the editor's unsaved buffers.

Everything goes through the engine's entry points (`analyze_path`, `select_findings`,
`rule_table`) and the cached analyzer of `parallel`, so the server finds what `compilelint
check` finds. Files on disk are analysed through the cache (and write it); a buffer is
analysed from its text and never written to the cache: the cache's entry for a file is
always the analysis of the file as saved.
"""

from __future__ import annotations

import io
import os
import tokenize
from collections.abc import Iterable

from compilelint import config as config_mod
from compilelint import engine
from compilelint.config import ConfigError, Settings
from compilelint.discovery import SUFFIXES, Excluder, discover, display_path
from compilelint.finding import FileAnalysis, Finding


def encode_buffer(text: str) -> bytes:
    """A buffer's text as the bytes its file would hold: in the encoding its coding
    cookie declares (positions then match the file's), else UTF-8."""
    data = text.encode("utf-8", "surrogateescape")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return data  # a bad cookie: the engine reports it as CL000
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return data  # the engine says what is wrong with it


def project_files(settings: Settings, fallback: str | None = None) -> list[str]:
    """The files of the project the settings belong to (display paths): everything under
    the folder of its pyproject.toml; without one, under `fallback` (an editor's workspace
    folder), or nothing (never the whole working directory, which may be $HOME)."""
    top = settings.root if settings.config_file else fallback
    if top is None:
        return []
    return [c.path for c in discover([top], settings) if not c.error]


def excluded(path: str, settings: Settings) -> bool:
    """Whether `path` is excluded by the settings (a part of it matches `exclude`, or a
    .gitignore ignores it): what `--force-exclude` applies to files named on the command line."""
    return Excluder(settings).excluded_by_ancestors(path)


class Session:
    """One project: `start` is a folder (the settings are those of its nearest
    pyproject.toml); `workspace` bounds the project when no pyproject.toml is found."""

    def __init__(self, start: str, *, workspace: str | None = None, cache: bool = True,
                 cache_dir: str | None = None, jobs: int | None = None) -> None:
        from compilelint import parallel

        self.start, self.workspace = start, workspace
        self.analyzer = parallel.make_analyzer(jobs=jobs, cache=cache, cache_dir=cache_dir)
        self.buffers: dict[str, str] = {}  # display path -> text of an open document
        self.models: dict[str, object] = {}  # display path -> its incremental analysis (a FileModel)
        self.analyses: dict[str, FileAnalysis] = {}  # display path -> analysis (the buffer's when open)
        self.settings = Settings()
        self.config_error: str | None = None
        self.generation = 0  # bumped whenever a summary changes (the project index is stale)
        self.project: tuple[int, engine.Project | None] = (-1, None)  # (generation, what it was made from)
        self.reload()

    # ---- settings ---------------------------------------------------------------------

    def reload(self, force: bool = False) -> bool:
        """Read the configuration again; on an error keep the settings in force and say
        why in `config_error`. True when the settings changed, or `force`: then every
        analysis is dropped, to be made again."""
        try:
            settings = config_mod.load(start=self.start)
        except ConfigError as exc:
            self.config_error = str(exc)
            return False
        self.config_error = None
        changed = force or settings != self.settings or not hasattr(self, "rule_classes")
        if changed:  # (unchanged: the same object stays, and indexing under way stays valid)
            self.settings = settings
            self.rule_classes = engine.rules_for(settings)  # imports libcst and the rules, once
            self.rules = engine.rule_table(settings)
            self.analyses = {}
            self.models = {}
            self.generation += 1
        return changed

    @property
    def config_file(self) -> str | None:
        return self.settings.config_file

    # ---- analyses ---------------------------------------------------------------------

    def project_files(self) -> list[str]:
        return project_files(self.settings, self.workspace)

    def index(self, files: Iterable[str] | None = None) -> None:
        """Analyse the saved files (the project's by default) through the cache; an open
        buffer keeps its own analysis."""
        files = [f for f in (self.project_files() if files is None else files) if f not in self.buffers]
        for analysis, _ in self.analyzer(files, self.settings):
            self._put(analysis)

    def analyse_saved(self, files: Iterable[str]) -> list[FileAnalysis]:
        """Analyses of files as saved, through the cache, without keeping them (for a
        thread that indexes while the server answers)."""
        return [analysis for analysis, _ in self.analyzer(list(files), self.settings)]

    def keep(self, analyses: Iterable[FileAnalysis]) -> None:
        for analysis in analyses:
            if analysis.path not in self.buffers:
                self._put(analysis)

    def _put(self, analysis: FileAnalysis) -> None:
        old = self.analyses.get(analysis.path)
        if old is None or old.summary != analysis.summary:
            self.generation += 1
        self.analyses[analysis.path] = analysis

    def _drop(self, path: str) -> None:
        if self.analyses.pop(path, None) is not None:
            self.generation += 1

    def open(self, path: str, text: str) -> str:
        """A document's text (open or changed in the editor); returns its display path."""
        path = display_path(path)
        self.buffers[path] = text
        if self._saved_text(path) == text:  # as saved: through the cache
            self._analyse_saved(path)
        else:
            from compilelint.incremental import FileModel

            model = self.models.get(path)
            if model is None:
                model = self.models[path] = FileModel(path, engine.module_name(path), self.rule_classes,
                                                      self.settings)
            analysis, _ = engine.analyze_path(path, self.settings, self.rule_classes, data=encode_buffer(text),
                                              analyze=model)
            self._put(analysis)
        return path

    def close(self, path: str) -> str:
        """The editor closed the document: back to the file as saved (or gone)."""
        path = display_path(path)
        self.buffers.pop(path, None)
        self.models.pop(path, None)
        self._drop(path)
        if self.checks(path) and os.path.isfile(path):
            self._analyse_saved(path)
        return path

    def checks(self, path: str) -> bool:
        """Whether `path` is one of the files `check` would report on: a Python file
        that no `exclude` or .gitignore leaves out (open documents that are not get no
        diagnostics, as with `check --force-exclude`)."""
        return path.endswith(SUFFIXES) and not excluded(path, self.settings)

    def forget(self, path: str) -> None:
        """A file was deleted."""
        path = display_path(path)
        if path not in self.buffers:
            self._drop(path)

    def refresh(self, path: str) -> None:
        """A file changed on disk (saved, or changed by another program)."""
        path = display_path(path)
        if path in self.buffers:
            self.open(path, self.buffers[path])
        elif os.path.isfile(path):
            self._analyse_saved(path)
        else:
            self._drop(path)

    def _analyse_saved(self, path: str) -> None:
        for analysis, _ in self.analyzer([path], self.settings):
            self._put(analysis)

    def text_of(self, path: str) -> str | None:
        """A file's text: the open buffer's, else the saved file's."""
        return self.buffers[path] if path in self.buffers else self._saved_text(path)

    @staticmethod
    def _saved_text(path: str) -> str | None:
        from compilelint.source import SourceError, read

        try:
            return read(path).text
        except SourceError:
            return None

    # ---- findings ---------------------------------------------------------------------

    def findings(self) -> dict[str, list[Finding]]:
        """Every file's findings (display path -> findings), as `check` would report them
        over the project with the open buffers in place of their files."""
        out: dict[str, list[Finding]] = {path: [] for path in self.analyses}
        if self.project[0] != self.generation:  # a summary changed: index the project again
            self.project = (self.generation, engine.Project(self.analyses.values(), self.settings))
        for finding in engine.select_findings(self.analyses.values(), self.settings, self.rules, self.project[1]):
            out.setdefault(finding.path, []).append(finding)
        return out


def check_stdin(path: str, data: bytes, settings: Settings, analyzer) -> tuple[engine.CheckResult, dict[str, str]]:
    """`check --stdin-filename PATH -`: `data` checked as if it were PATH's content.

    Reported under PATH, with PATH's settings (`per-file-ignores` included); among the
    project's other files (their analyses through the cache), so that what runs compiled
    is decided as for `check` of the whole project; `data` itself is never cached. With
    `force-exclude`, an excluded PATH is not checked (ruff's convention). Returns the
    result and the text to show in reports ({display path: text})."""
    from compilelint.source import SourceError, decode

    shown = display_path(path)
    if settings.force_exclude and excluded(path, settings):
        return engine.CheckResult(), {}
    target = os.path.abspath(path)
    others = [f for f in project_files(settings) if os.path.abspath(f) != target]
    analyses = [analysis for analysis, _ in analyzer(others, settings)] if others else []
    own, lines = engine.analyze_path(shown, settings, data=data)
    rules = getattr(analyzer, "rule_table", engine.rule_table)(settings)
    findings = [f for f in engine.select_findings(analyses + [own], settings, rules) if f.path == shown]
    result = engine.CheckResult(findings=findings, files=1, lines=lines,
                                crashed=any(f.code == "CL001" for f in findings))
    try:
        return result, {shown: decode(data).text}
    except SourceError:
        return result, {}
