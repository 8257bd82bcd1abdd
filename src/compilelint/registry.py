"""Every code compilelint reports, as plain data: what the engine, the report formats and
the command line need to know of a rule without importing it (or libcst).

Three kinds of code:

- the rules' (CL1xx-CL3xx): generated from the rule classes into `registry_data`
  by ``python -m compilelint.registry_gen`` (tests/test_registry.py fails when stale);
- the engine's own (CL000, CL001): written here;
- the probe's (CL901-CL903): written here; `probe.match` reads `PROBE_CODES`.
"""

from __future__ import annotations

from typing import NamedTuple

from compilelint import registry_data

FAMILIES = {"0": "internal", "1": "graph-break", "2": "recompilation", "3": "compile-api", "9": "probe"}
OLDEST_TORCH = (2, 4)  # the first torch release compilelint supports (config.SUPPORTED_TORCH)


class RuleInfo(NamedTuple):
    """One code. `origin`: "rule" (a class in compilelint.rules), "engine" or "probe"."""

    code: str
    name: str
    severity: str  # the default; a rule may report some findings at another
    summary: str  # what it flags, in a line (the catalogue's, `compilelint rules --format json`)
    message: str = ""  # the message template of its findings
    help: str = ""  # what to do instead, one sentence (a finding's `help`)
    gb_id: str | None = None  # Dynamo's graph-break id, e.g. "GB0170"
    torch_min: tuple[int, int] = OLDEST_TORCH  # first torch release it applies to
    torch_max: tuple[int, int] | None = None  # first release it no longer applies to
    autofix: str = ""  # what `check --fix` does about it; "" when nothing
    region_only: bool = True  # only code that runs under torch.compile counts
    breaks_graph: bool = False  # a finding inside a loop also means CL150
    breaks_callers: bool = True  # ... and a function's finding makes its callers break too
    # the module of its project-wide phase (compilelint.project_rules.*), run by the engine
    # once per check over every file's summary; "" when its findings come from files alone
    project_phase: str = ""
    # on the compiled object's own state (`self.x = ...`): not in a module's constructor
    own_state: bool = False
    origin: str = "rule"

    @property
    def family(self) -> str:
        return FAMILIES.get(self.code[2:3], "other")

    @property
    def fixable(self) -> bool:
        return bool(self.autofix)

    def applies_to(self, version: tuple[int, int]) -> bool:
        return self.torch_min <= version and (self.torch_max is None or version < self.torch_max)

    def torch_range(self) -> str:
        low = "%d.%d" % self.torch_min
        return f">= {low}" if self.torch_max is None else f">= {low}, < " + "%d.%d" % self.torch_max


BUILTIN = {
    "CL000": RuleInfo("CL000", "file-error", "error", "the file could not be read or parsed",
                      message="The file could not be read or parsed.", origin="engine"),
    "CL001": RuleInfo("CL001", "rule-crash", "error", "a rule crashed on a file (an internal error, exit 2)",
                      message="A rule crashed on this file (an internal error).", origin="engine"),
}

PROBE = {
    "CL901": RuleInfo("CL901", "probe-graph-break", "error", "a graph break seen by `probe` with no static finding",
                      origin="probe"),
    "CL902": RuleInfo("CL902", "probe-recompile", "warning", "a recompile seen by `probe` with no static finding",
                      origin="probe"),
    "CL903": RuleInfo("CL903", "probe-frame-skip", "error", "a whole frame skipped, seen by `probe`",
                      origin="probe"),
}
# What the probe observed -> (code, name, severity) of the finding it makes of it.
PROBE_CODES = {kind: (PROBE[code].code, PROBE[code].name, PROBE[code].severity)
               for kind, code in (("graph_break", "CL901"), ("recompile", "CL902"), ("frame_skip", "CL903"))}

RULES = {code: RuleInfo(code, **row) for code, row in registry_data.RULES.items()}

ALL = dict(sorted({**BUILTIN, **RULES, **PROBE}.items()))


def get(code: str) -> RuleInfo | None:
    return ALL.get(code)


def rules_for(version: tuple[int, int]) -> dict[str, RuleInfo]:
    """The rules (CL1xx-CL3xx) that apply to code running on torch `version`."""
    return {code: info for code, info in RULES.items() if info.applies_to(version)}
