"""The user's program as a probe source, for `probe -- COMMAND` and `check --probe`.

Chooses the roots (the ``--module`` ones, else the classes and functions holding
static findings: :mod:`compilelint.probe.roots`), runs the command
(:func:`compilelint.probe.program.run_program`) and matches what it saw with the
static findings (:func:`compilelint.probe.match.match`). No torch here.
"""

from __future__ import annotations

import os
from typing import Any

from compilelint.finding import Finding
from compilelint.probe.program import DEFAULT_RUN_TIMEOUT, ProgramRun, parse_command, run_program
from compilelint.probe.roots import parse_root, roots_from_findings


def static_findings(start: str | None = None) -> tuple[list[Finding], str]:
    """The static pass over the project around ``start`` (its pyproject's folder, else
    ``start``): the findings, and the project root."""
    from compilelint import config as config_mod
    from compilelint.engine import check

    settings = config_mod.load(None, start=start)
    root = str(settings.root or start or os.getcwd())
    return check([root], settings).findings, root


def choose_roots(findings: list[Finding], modules: list[str] | tuple[str, ...] = ()) -> list[str]:
    if modules:
        return [parse_root(m) for m in modules]
    return roots_from_findings(findings)


def probe_program(command: str | list[str], findings: list[Finding], *, modules=(), cwd: str | None = None,
                  timeout: float | None = DEFAULT_RUN_TIMEOUT, timing: bool = False,
                  backend: str = "inductor", stdout=None) -> tuple[ProgramRun, list[Finding]]:
    """Run ``command`` with its roots compiled in place; set the findings' evidence and
    return (the run, the CL901–CL903 findings no static finding explains)."""
    from compilelint.probe.match import match

    roots = choose_roots(findings, modules)
    run = run_program(command, roots, timeout=timeout, timing=timing, backend=backend, cwd=cwd, stdout=stdout)
    extra = match(findings, run.results, cwd=os.getcwd())
    return run, extra


def run_from_config(findings: list[Finding], table: dict[str, Any], root: str) -> ProgramRun:
    """`check --probe` with ``[tool.compilelint.probe] run = "..."``: the command runs
    in the project root; ``modules`` names roots, ``run_timeout``, ``timing`` and
    ``backend`` apply. The caller matches its results with the findings."""
    from compilelint.probe.targets import TargetError

    command = table["run"]
    if not isinstance(command, (str, list)) or not parse_command(command):
        raise TargetError("[tool.compilelint.probe] run must be a command line, e.g. \"python train.py\"")
    modules = table.get("modules") or ()
    if isinstance(modules, str):
        modules = [modules]
    timeout = float(table.get("run_timeout", table.get("run-timeout", DEFAULT_RUN_TIMEOUT)))
    try:
        roots = choose_roots(findings, modules)
    except ValueError as exc:
        raise TargetError(f"[tool.compilelint.probe] modules: {exc}") from None
    import sys

    # the program's output goes to stderr: stdout is check's report
    return run_program(command, roots, cwd=root, timeout=timeout, timing=bool(table.get("timing", False)),
                       backend=str(table.get("backend") or "inductor"), stdout=sys.stderr)
