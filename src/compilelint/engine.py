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
from compilelint.finding import FileAnalysis, Finding, common_when, loop_break
from compilelint.index import ProjectIndex
from compilelint.source import SourceError, decode, read
from compilelint.summary import ModuleSummary


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    lines: int = 0
    crashed: bool = False  # a rule crashed somewhere: exit 2


@lru_cache(maxsize=4096)
def _package_parts(folder: str) -> tuple[str, ...]:
    parts = []  # innermost first; a loop, not recursion: packages may nest 1,000s deep
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parts.append(os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return tuple(reversed(parts))


def module_name(path: str) -> str:
    """Dotted module name from the file's place among packages (folders with __init__.py)."""
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
        self.index = ProjectIndex(a.summary for a in analyses)
        self.region = self.index.region(settings.roots)
        self._solver = None

    @property
    def solver(self):
        if self._solver is None:
            from compilelint.semantic.project import KindSolver

            self._solver = KindSolver(self.index, self.region)
        return self._solver


def select_findings(analyses: Iterable[FileAnalysis], settings: Settings,
                    rules: dict[str, registry.RuleInfo] | None = None, project: Project | None = None) -> list[Finding]:
    """Keep candidates in compiled regions, drop suppressed ones. `rules`: `rule_table`'s;
    `project`: these analyses' `Project`, when one is kept."""
    analyses = list(analyses)
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
                if finding.scope is None or f"{analysis.module}:{finding.scope}" not in region:
                    continue
            in_region.append((analysis, finding))
    in_region = _decide_open(in_region, project, settings)
    in_region.extend(_loops_calling_breaks(analyses, index, region, in_region, rules))
    seen: set[tuple] = set()
    for analysis, finding in in_region:
        key = (finding.path, finding.line, finding.col, finding.code)
        if key not in seen and not _ignored_here(finding, analysis, settings):
            seen.add(key)  # one finding per place, however many compiled readers lead to it
            out.append(finding)
    out.sort(key=Finding.sort_key)
    return out


def _decide_open(in_region, project: Project, settings: Settings):
    """Findings that hold only if a value typed elsewhere in the project is a tensor
    (`needs`) are kept when it is (project-wide inference); findings only reachable in a
    mode `[tool.compilelint] assume` rules out are dropped."""
    from compilelint.semantic.project import TENSORISH

    assume = dict(settings.assume)
    kept = []
    for analysis, finding in in_region:
        if finding.when and assume:
            from compilelint.semantic.guards import dropped_by  # imports libcst: only when asked

            if dropped_by(finding.when, assume):
                continue
        if finding.needs:
            solver = project.solver
            if solver.spec_kind(analysis.module, finding.needs) not in TENSORISH:
                continue
            why = solver.explain(analysis.module, finding.needs)
            finding = replace(finding, needs=(), message=f"{finding.message} ({why})" if why else finding.message)
        kept.append((analysis, finding))
    return kept


def _loops_calling_breaks(analyses, index: ProjectIndex, region: set[str], in_region, rules):
    """CL150 across functions: a loop in a compiled function that calls (directly or not)
    a function with a graph break. Dynamo cannot resume inside the loop, so the whole
    calling frame runs eagerly: in a decoder-layer loop, that is the whole model."""
    loop_rule = rules.get("CL150")
    if loop_rule is None:  # not for this torch release
        return []
    breaking_codes = {code for code, rule in rules.items() if rule.breaks_graph}
    breaks: dict[str, Finding] = {}  # a function -> its first break (named in the message)
    needs: dict[str, tuple[str, ...]] = {}  # a function -> the modes all its breaks need
    for analysis, finding in in_region:
        if finding.code in breaking_codes and finding.scope:
            key = f"{analysis.module}:{finding.scope}"
            needs[key] = common_when(needs[key], finding.when) if key in breaks else tuple(finding.when)
            breaks.setdefault(key, finding)
    if not breaks:
        return []
    # A function breaks if it calls a function that breaks, outside a loop or not.
    callers: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # callee -> (caller, the call's when)
    for key in region:
        for call in index.functions[key].calls:
            callee = index.resolve_call(key, call)
            if callee in region:
                callers.setdefault(callee, []).append((key, tuple(call.when)))
    queue = list(breaks)
    while queue:
        callee = queue.pop()
        for caller, site in callers.get(callee, ()):
            through = _both(site, needs[callee])  # the call must run, then the callee break
            if caller not in breaks:
                breaks[caller] = breaks[callee]
                needs[caller] = through
                queue.append(caller)
            elif (narrowed := common_when(needs[caller], through)) != needs[caller]:
                needs[caller] = narrowed  # only shrinks: the queue empties
                queue.append(caller)
    by_module = {a.module: a for a in analyses}
    have = {(a.path, f.line) for a, f in in_region if f.code == "CL150"}
    found: dict[tuple[str, int], list] = {}  # a loop -> [analysis, its CL150's arguments, when]
    for key in sorted(region):
        module, qualname = key.split(":", 1)
        for call in index.functions[key].calls:
            if call.loop is None:
                continue
            callee = index.resolve_call(key, call)
            if callee not in breaks or callee == key:
                continue
            analysis = by_module.get(module)
            if analysis is None:
                continue
            position = loop_position(analysis, call.loop)
            if position is None or (analysis.path, position[0]) in have:
                continue
            when = _both(tuple(call.when), needs[callee])
            held = found.get((analysis.path, position[0]))
            if held is not None:  # another breaking call in the same loop
                held[2] = common_when(held[2], when)
                continue
            cause = breaks[callee]
            found[(analysis.path, position[0])] = [analysis, (
                analysis.path, position[0], position[1], call.loop_keyword,
                f"calls `{callee.split(':', 1)[1]}`, which breaks the graph ({cause.code} at {cause.path}:{cause.line})",
                loop_rule, qualname), when]
    return [(analysis, loop_break(*args[:-1], scope=args[-1], when=when)) for analysis, args, when in found.values()]


def _both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """The modes a break behind a call needs: the call's and the callee break's."""
    return a + tuple(label for label in b if label not in a)


def loop_position(analysis: FileAnalysis, ordinal: int) -> tuple[int, int] | None:
    """(line, 1-based column) of the `ordinal`-th for/while loop of a file, in walk order
    (the summary has them whenever a function of the file calls something in a loop)."""
    loops = analysis.summary.loops
    return tuple(loops[ordinal]) if 0 <= ordinal < len(loops) else None


def check(paths: list[str], settings: Settings, *, progress: Callable[[str], None] | None = None,
          analyzer=None) -> CheckResult:
    """The static pass over `paths`. `analyzer` maps file paths to (FileAnalysis, lines)
    pairs; the default analyses sequentially (the parallel, cached one plugs in here)."""
    result = CheckResult()
    candidates = list(discover(paths, settings))
    errors = [c for c in candidates if c.error]
    files = [c.path for c in candidates if not c.error]
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
    result.findings.extend(file_error(c.path, c.error) for c in errors)
    result.findings.sort(key=Finding.sort_key)
    result.crashed = any(f.code == "CL001" for f in result.findings)
    return result
