"""check: discover files, analyse each, index the project, keep what runs compiled.

libcst, the walker and the rules are imported only when a file is analysed: a run whose
files are all in the cache reads plain data (`FileAnalysis`, the registry) and starts fast.
Every rule runs on every file; what `select`, `ignore`, `per-file-ignores` and `roots`
choose is applied afterwards (`select_findings`), so they take no part in the cache's key.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from compilelint import config as config_mod
from compilelint import limits, registry
from compilelint.config import Settings
from compilelint.discovery import discover
from compilelint.finding import API, CERTAIN, FALLBACK, GUESSED, PROJECT_DECIDES, FileAnalysis, Finding, when_text
from compilelint.index import ProjectIndex
from compilelint.published import published_packages
from compilelint.source import SourceError, decode, read
from compilelint.summary import ModuleSummary


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    lines: int = 0
    crashed: bool = False  # a rule crashed somewhere: exit 2


NAMESPACE_DEPTH = 3  # folders without __init__.py between a file and the package holding them


@lru_cache(maxsize=4096)
def _package_parts(folder: str) -> tuple[str, ...]:
    parts = []  # innermost first; a loop, not recursion: packages may nest 1,000s deep
    while True:
        chain, parent = _namespace_chain(folder)
        if not chain:
            break
        parts.extend(chain)
        if parent == folder:
            break
        folder = parent
    return tuple(reversed(parts))


def _namespace_chain(folder: str) -> tuple[list[str], str]:
    """The folder's name if it is a package (it has an `__init__.py`), or the names of the
    folders without one up to the package that holds them, innermost first, and the folder
    above: inside a package they are namespace packages (PEP 420), imported as
    `pkg.utils.ops` (torchphysics' `utils/differentialoperators/`, which `utils/__init__.py`
    re-exports). ([], folder) for a folder in no package."""
    chain, start = [], folder
    for _ in range(NAMESPACE_DEPTH + 1):
        name = os.path.basename(folder)
        if not name.isidentifier():
            break
        chain.append(name)
        parent = os.path.dirname(folder)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return chain, parent
        if parent == folder:
            break
        folder = parent
    return [], start


def module_name(path: str) -> str:
    """Dotted module name from the file's place among packages (folders with __init__.py, and
    folders without one inside such a package: PEP 420 namespace portions)."""
    absolute = os.path.abspath(path)
    folder, filename = os.path.split(absolute)
    stem = filename.rsplit(".", 1)[0]
    parts = _package_parts(folder)
    if stem == "__init__":
        return ".".join(parts) if parts else os.path.basename(folder)
    return ".".join(parts + (stem,))


def rules_for(settings: Settings) -> list[type]:
    from compilelint.rules import all_rules

    version = config_mod.torch_version(settings)
    return [rule for rule in all_rules() if rule.applies_to(version)]


def rule_table(settings: Settings) -> dict[str, registry.RuleInfo]:
    """The rules that apply, from the registry (plain data: no libcst, no rule classes)."""
    return registry.rules_for(config_mod.torch_version(settings))


def file_error(path: str, message: str, line: int = 1, col: int = 1) -> Finding:
    return Finding(path=path, line=line, col=col, code="CL000", name="file-error",
                   severity="error", message=message)


def analyze_path(path: str, settings: Settings, rule_classes: list[type] | None = None,
                 data: bytes | None = None, analyze=None) -> tuple[FileAnalysis, int]:
    """Analyse one file (`data`: its bytes, when already read); every failure becomes a
    CL000 diagnostic. Returns (analysis, lines). `analyze`: what analyses the text when
    its nesting is ordinary (`analysis.analyze` by default; the server's incremental one)."""
    import libcst as cst

    from compilelint.analysis import analyze as analyze_text

    module = module_name(path)
    empty = ModuleSummary(module)
    try:
        source = read(path) if data is None else decode(data)
    except SourceError as exc:
        return FileAnalysis(path, module, empty, [], [file_error(path, str(exc))], {}), 0
    lines = source.text.count("\n") + (1 if source.text and not source.text.endswith("\n") else 0)
    # Pathologically deep nesting would crash libcst's native parser or take minutes.
    verdict = limits.screen(source.text)
    if verdict.problem is not None:
        return FileAnalysis(path, module, empty, [], [file_error(path, verdict.problem, verdict.line)], {}), lines
    try:
        analyze = analyze or analyze_text
        if verdict.deep:
            result = limits.call_deep(analyze, path, source.text, module, rule_classes or rules_for(settings), settings)
        else:
            result = analyze(path, source.text, module, rule_classes or rules_for(settings), settings)
    except cst.ParserSyntaxError as exc:
        message, line, col = limits.syntax_error(exc, source.text)
        return FileAnalysis(path, module, empty, [], [file_error(path, message, line, col)], {}), lines
    except RecursionError:
        return FileAnalysis(path, module, empty, [], [file_error(path, "nesting too deep to parse")], {}), lines
    except Exception as exc:  # libcst itself failing must not stop the run
        return FileAnalysis(path, module, empty, [], [file_error(path, f"cannot parse: {type(exc).__name__}: {exc}")], {}), lines
    return result, lines


def _ignored_here(finding: Finding, analysis: FileAnalysis, settings: Settings) -> bool:
    if finding.code in ("CL000", "CL001"):
        return False
    if not config_mod.selected(settings, finding.code):
        return True
    if analysis.file_noqa:
        return True
    codes = analysis.noqa.get(finding.line, [])
    if codes is None or finding.code in (codes or ()):
        return True
    if settings.per_file_ignores:
        try:
            rel = Path(os.path.abspath(finding.path)).relative_to(settings.root).as_posix()
        except ValueError:
            rel = Path(finding.path).as_posix()
        for glob, ignored in settings.per_file_ignores:
            if fnmatch.fnmatchcase(rel, glob) or fnmatch.fnmatchcase(Path(rel).name, glob):
                if any(finding.code.startswith(prefix) for prefix in ignored):
                    return True
    return False


class Project:
    """What selecting findings derives from the summaries alone: the project index, the
    compiled region and (made when first asked for) the kind solver. The server keeps one
    while no file's summary changes."""

    def __init__(self, analyses: Iterable[FileAnalysis], settings: Settings) -> None:
        analyses = list(analyses)
        self.index = ProjectIndex(a.summary for a in analyses)
        self.index.published = published_packages(analyses)
        self.roots = self.index.roots(settings.roots)
        self.region = self.index.region(settings.roots, self.roots)
        from compilelint.project_rules.callsites import CallSites

        # What each compiled call site passes; a call behind a branch no caller takes
        # (`if profile:`, every site leaving `profile=False`) takes no part in the region.
        compiled = self.index.roots("explicit")  # what torch.compile is given: called from outside
        self.sites = CallSites(self.index, self.region, compiled, self.roots)
        skip = None
        if self.sites.dead_edges:
            skip = self.sites.skips
            self.region = self.index.region(settings.roots, self.roots, skip)
            self.sites = self.sites.within(self.region)
        self.fallback = self.index.fallback_region(self.region, skip)
        # the package's API (functions its top-level __init__ re-exports) and what only it reaches
        self.entries = frozenset(self.index.package_api()) if settings.roots == "modules" else frozenset()
        self.api = self.index.api_region(self.entries, self.region | self.fallback, skip) if self.entries else set()
        self._solver = None

    @property
    def solver(self):
        if self._solver is None:
            from compilelint.semantic.project import KindSolver

            self._solver = KindSolver(self.index, self.region | self.api, self.index.guessed_entries(self.entries))
        return self._solver


def select_findings(analyses: Iterable[FileAnalysis], settings: Settings,
                    rules: dict[str, registry.RuleInfo] | None = None, project: Project | None = None) -> list[Finding]:
    """Keep candidates in compiled regions, drop suppressed ones. `rules`: `rule_table`'s;
    `project`: these analyses' `Project`, when one is kept. A bug in the project phases ends in
    a `CL001` beside each file's own diagnostics, not a traceback: the run goes on."""
    analyses = list(analyses)
    try:
        return _select_findings(analyses, settings, rules, project)
    except Exception as exc:  # (RecursionError included)
        out = [finding for analysis in analyses for finding in analysis.diagnostics]
        if analyses:
            first = min(analysis.path for analysis in analyses)
            out.append(Finding(
                path=first, line=1, col=1, code="CL001", name="rule-crash", severity="error",
                message=f"the project phase crashed on these files ({type(exc).__name__}: {str(exc)[:200]}), so no "
                        f"finding that needs the compiled region is reported; please report this with the files"))
        out.sort(key=Finding.sort_key)
        return out


def _select_findings(analyses: list[FileAnalysis], settings: Settings,
                     rules: dict[str, registry.RuleInfo] | None, project: Project | None) -> list[Finding]:
    rules = rule_table(settings) if rules is None else rules
    project = Project(analyses, settings) if project is None else project
    index, region = project.index, project.region
    out: list[Finding] = []
    in_region: list[tuple[FileAnalysis, Finding]] = []
    for analysis in analyses:
        out.extend(analysis.diagnostics)
        for finding in analysis.candidates:
            rule = rules.get(finding.code)
            if rule is None or rule.region_only:
                key = f"{analysis.module}:{finding.scope}" if finding.scope else None
                if key in project.fallback:
                    finding = _on_fallback(finding)
                elif key in project.api:
                    finding = _with_when(finding, finding.when + (API,), severity="note")
                elif key not in region:
                    continue
                if rule is not None and rule.own_state and index.module_constructor(key or ""):
                    continue  # (a module built in the region: its object is new, not the compiled one's state)
            in_region.append((analysis, finding))
    in_region, deferred = _decide_open(in_region, project, settings)
    project.sites.settled.clear()  # (a server's project outlives the findings of one check)
    in_region = _decide_call_sites(in_region, project)
    from compilelint import project_rules

    in_region.extend(project_rules.run(project_rules.ProjectContext(
        analyses, index, region, project.sites, in_region, rules, _decide_call_sites(deferred, project),
        api=set(project.api), python=config_mod.python_version(settings), torch=config_mod.torch_version(settings))))
    seen: set[tuple] = set()
    for analysis, finding in in_region:
        key = (finding.path, finding.line, finding.col, finding.code)
        if key not in seen and not _ignored_here(finding, analysis, settings):
            seen.add(key)  # one finding per place, however many compiled readers lead to it
            out.append(finding)
    out.sort(key=Finding.sort_key)
    return out


def _on_fallback(finding: Finding) -> Finding:
    """A finding in code that runs only when a dispatcher falls back to a class's own
    forward: whether it does is a run-time choice (a config), so the finding is a note
    with that condition, not an error."""
    return _with_when(finding, finding.when + (FALLBACK,), severity="note")


def _with_when(finding: Finding, when: tuple[str, ...], **changes) -> Finding:
    """The finding with other conditions, its message's "(only ...)" saying so."""
    message, suffix = finding.message, when_text(finding.when)
    if message.endswith(suffix):
        message = message[:len(message) - len(suffix)] + when_text(when)
    return replace(finding, when=when, message=message, **changes)


def _decide_open(in_region, project: Project, settings: Settings):
    """Findings that hold only if a value typed elsewhere in the project is a tensor
    (`needs`) are kept when it is (project-wide inference); findings only reachable in a
    mode `[tool.compilelint] assume` rules out are dropped. Returns them, and apart the
    candidates a project phase decides (`needs` starting with one of `PROJECT_DECIDES`)."""
    from compilelint.semantic.project import TENSORISH

    assume = dict(settings.assume)
    kept, deferred = [], []
    for analysis, finding in in_region:
        if finding.when and assume:
            from compilelint.semantic.guards import dropped_by  # imports libcst: only when asked

            if dropped_by(finding.when, assume):
                continue
        if finding.needs and finding.needs[0].startswith(PROJECT_DECIDES):
            deferred.append((analysis, finding))  # whether the callee breaks, what it builds: a project phase's
            continue
        if finding.needs:
            solver = project.solver
            certain = finding.needs[0] == CERTAIN
            leaves = finding.needs[1:] if certain else finding.needs
            kind = solver.spec_kind(analysis.module, leaves)
            if kind != "tensor" if certain else kind not in TENSORISH:
                continue
            why = solver.explain(analysis.module, leaves)
            finding = replace(finding, needs=(), message=f"{finding.message} ({why})" if why else finding.message)
        kept.append((analysis, finding))
    return kept, deferred


def _decide_call_sites(in_region, project: Project):
    """Findings behind a branch only the caller decides (`given:` labels, `if profile:`):
    dropped when no compiled call site takes the branch, unconditional when one surely
    does, and otherwise kept with the condition in their `when`. A finding in a function
    every compiled path reaches only in a mode (`if self.training:` around each call) gets
    that mode too."""
    kept = []
    sites = project.sites
    sites.use_kinds(lambda: project.solver)  # (a warm run seldom needs the solver: built when asked)
    for analysis, finding in in_region:
        when = finding.when
        key = f"{analysis.module}:{finding.scope}" if finding.scope else None
        inherited = sites.modes(key) if key in project.region else ()
        if inherited or (key and any(label.startswith("given:") for label in when)):
            if key in project.region:
                decided = sites.resolve(key, when)
            elif key in project.api:  # the user's call to the package's API decides: a condition
                decided = tuple(label for label in when if not label.endswith(GUESSED))
            else:  # a rule about eager code (CL3xx): no compiled caller to ask
                decided = tuple(label for label in when if not label.startswith("given:"))
            if decided is None:
                continue
            # a helper only called under `if self.training:` runs only in training
            decided = tuple(label for label in inherited if label not in decided) + decided
            if decided != when:
                finding = _with_when(finding, decided)
                # (a label some compiled call surely meets is no condition on the finding, but a
                # loop's call that leaves the argument out still does not reach it: breaking.py)
                sites.settled[id(finding)] = tuple(label for label in when if label.startswith("given:")
                                                   and label not in decided)
        kept.append((analysis, finding))
    return kept


def check(paths: list[str], settings: Settings, *, progress: Callable[[str], None] | None = None,
          analyzer=None) -> CheckResult:
    """The static pass over `paths`. `analyzer` maps file paths to (FileAnalysis, lines)
    pairs; the default analyses sequentially (the parallel, cached one plugs in here)."""
    result = CheckResult()
    candidates = list(discover(paths, settings))
    errors = [c for c in candidates if c.error]
    files = [c.path for c in candidates if not c.error]
    recalled = analyzer.recall(files, settings) if hasattr(analyzer, "recall") else None
    if recalled is not None:  # nothing changed since the last run of this check
        result.findings, result.files, result.lines = recalled
        if progress:
            for path in files:
                progress(path)
        return _finished(result, errors)
    analyses: list[FileAnalysis] = []
    if analyzer is None:
        rule_classes = rules_for(settings)
        pairs = (analyze_path(path, settings, rule_classes) for path in files)
    else:
        pairs = analyzer(files, settings)
    for analysis, lines in pairs:
        result.files += 1
        result.lines += lines
        analyses.append(analysis)
        if progress:
            progress(analysis.path)
    result.findings = select_findings(analyses, settings)
    result.crashed = any(f.code == "CL001" for f in result.findings)
    if hasattr(analyzer, "remember"):
        analyzer.remember(settings, result)
    return _finished(result, errors)


def _finished(result: CheckResult, errors) -> CheckResult:
    result.findings = result.findings + [file_error(c.path, c.error) for c in errors]
    result.findings.sort(key=Finding.sort_key)
    result.crashed = any(f.code == "CL001" for f in result.findings)
    return result
