"""The project-wide phase: findings that need the whole project's summaries, not one file.

A rule whose findings come from several files (CL150's "the loop calls `X.forward`, which
breaks the graph") names a module here in its class's `project_phase` (the registry keeps
the name, so a run whose files are all cached never imports the rules or libcst). The
engine calls that module's `run(context)` after the per-file findings of the compiled
region are selected, and adds what it returns. Plain data only: no libcst, no rule class.

    class ProjectRule(Protocol):        # a module in this package
        def run(context: ProjectContext) -> list[tuple[FileAnalysis, Finding]]: ...

`callsites` is shared by the engine and the phases: what each compiled call site passes,
to decide a finding that holds only when the caller passes an argument (`given:` labels).
"""

from __future__ import annotations

import importlib
import traceback
from dataclasses import dataclass, field

from compilelint.finding import Finding
from compilelint.project_rules._sources import Sources


@dataclass
class ProjectContext:
    """What a project phase reads: every file's analysis, the project index, the compiled
    region, the call sites, the per-file findings kept so far (pairs of analysis and
    finding), the rules' table (`registry.RuleInfo` by code) and what only the package's API
    reaches."""

    analyses: list
    index: object  # index.ProjectIndex
    region: set[str]
    sites: object  # project_rules.callsites.CallSites
    in_region: list
    rules: dict
    # per-file candidates only the project decides (`needs` starting with one of
    # finding.PROJECT_DECIDES: CL151's, CL146's, CL119's, and the CL150 of a loop around one); each
    # phase takes those of its own prefix
    deferred: list = field(default_factory=list)
    # breaking.breaking_reach's answer, kept for the next phase that asks (CL150, CL151)
    reach: tuple | None = field(default=None, repr=False)
    # what only the package's API reaches (findings there are notes, `when: api`)
    api: set[str] = field(default_factory=set)
    python: tuple[int, int] = (3, 12)  # the Python the code runs on (config.python_version)
    torch: tuple[int, int] = (2, 13)  # the torch release it targets (config.torch_version)
    # files the phases read with `ast` (CL147, CL119's helpers, CL160): each parsed once per check
    sources: Sources = field(default_factory=Sources)

    def candidates(self, prefix: str) -> list[tuple]:
        """(analysis, finding, function key, call edge) of each deferred candidate whose
        `needs` starts with `prefix` ("<prefix><function qualname>|<edge index>"): the call
        the phase decides on."""
        out = []
        for analysis, finding in self.deferred:
            if not finding.needs[0].startswith(prefix):
                continue
            _, qualname, edge = finding.needs[0].split("|", 2)
            key = f"{analysis.module}:{qualname}"
            info = self.index.functions.get(key)
            if info is not None and edge.isdigit() and int(edge) < len(info.calls):
                out.append((analysis, finding, key, info.calls[int(edge)]))
        return out


def run(context: ProjectContext) -> list:
    """Every applicable rule's project phase, in code order. A phase that crashes is reported
    (CL001, on the first file) and the others still run, as a rule crashing on one file is."""
    out = []
    for code in sorted(context.rules):
        phase = getattr(context.rules[code], "project_phase", "")
        if not phase:
            continue
        try:
            out.extend(importlib.import_module(phase).run(context))
        except Exception:  # noqa: BLE001 - one phase's bug must not stop the check
            if context.analyses:
                last = traceback.format_exc(limit=4).strip().splitlines()[-1]
                first = context.analyses[0]
                out.append((first, Finding(
                    path=first.path, line=1, col=1, code="CL001", name="rule-crash", severity="error",
                    message=f"rule {code}'s project phase crashed (across files, not this file); the per-file "
                            f"findings and the other phases still ran: {last}")))
    return out
