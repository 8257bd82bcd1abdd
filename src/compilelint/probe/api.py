"""The probe as a library: what `compilelint check --probe` and other callers use.

    results = run_probe(["model.py:factory"], timing=False)   # list[TargetResult]
    extra = match(findings, results)                           # evidence set, CL9xx added

No torch is imported here: the torch work happens in worker subprocesses.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable

from compilelint.finding import Finding
from compilelint.probe.match import findings_from_results, match
from compilelint.probe.roi_report import attach_what_if
from compilelint.probe.runner import DEFAULT_TIMEOUT, TargetResult, run_probe, run_target
from compilelint.probe.targets import TargetError, TargetSpec, config_targets, parse_target

__all__ = [
    "TargetError", "TargetResult", "TargetSpec", "check_with_probe", "findings_from_results",
    "match", "options_from_config", "parse_target", "run_probe", "run_target", "run_with_progress",
]

# keys of [tool.compilelint.probe] and the run_target option each sets
CONFIG_KEYS = {
    "targets": None,
    "run": None,  # the user's program: compilelint.probe.run_check
    "modules": None,
    "run_timeout": None,
    "timeout": "timeout",
    "device": "device",
    "modes": "modes",
    "backend": "backend",
    "warmup": "warmup",
    "runs": "runs",
    "train": "train",
    "dtype": "dtype",
    "what_if": "what_if",
    "worth_it_calls": "worth_it_calls",
    "timing": "timing",
    "min_time": "min_time",
    "warmup_time": "warmup_time",
}


def options_from_config(table: dict[str, Any]) -> dict[str, Any]:
    """run_target options from a [tool.compilelint.probe] table (unknown keys: error)."""
    opts: dict[str, Any] = {}
    for key, value in table.items():
        norm = key.replace("-", "_")
        if norm not in CONFIG_KEYS:
            raise TargetError(f"[tool.compilelint.probe]: unknown key `{key}` "
                              f"(known: {', '.join(sorted(CONFIG_KEYS))})")
        dest = CONFIG_KEYS[norm]
        if dest is None:
            continue
        if dest == "modes" and isinstance(value, str):
            value = [m.strip() for m in value.split(",") if m.strip()]
        if dest == "device" and value == "auto":
            value = None
        if dest in ("timeout", "min_time", "warmup_time"):
            value = float(value)
        if dest in ("warmup", "runs", "worth_it_calls"):
            value = int(value)
        opts[dest] = value
    return opts


def run_with_progress(specs: list[TargetSpec], *, progress: bool = True, **opts: Any) -> list[TargetResult]:
    """run_probe with a rich progress bar on stderr (only when stderr is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not progress or not console.is_terminal:
        return run_probe(specs, **opts)
    with Progress(
        TextColumn("[bold]probe[/]"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
        TimeElapsedColumn(), console=console, transient=True,
    ) as bar:
        task = bar.add_task("", total=len(specs))

        def on_start(spec, i, total):
            bar.update(task, description=spec.name)

        def on_done(res, i, total):
            mark = "[green]ok[/]" if res.ok else f"[red]failed[/]: {res.error}"
            bar.console.print(f"  {res.name}: {mark}", markup=True, highlight=False)
            bar.advance(task)

        return run_probe(specs, on_start=on_start, on_done=on_done, **opts)


def check_with_probe(findings: list[Finding], settings: Any) -> tuple[list[Finding], dict[str, Any]]:
    """For `compilelint check --probe`: run the configured targets, set evidence on the
    static findings, add CL9xx findings, and return (findings, probe context).

    ``settings.probe`` is the [tool.compilelint.probe] table, ``settings.root`` the
    project root that relative target paths are resolved against. Timing is off
    unless the table says ``timing = true``."""
    table = dict(getattr(settings, "probe", {}) or {})
    root = str(getattr(settings, "root", ".") or ".")
    specs = config_targets(table, root)
    opts = options_from_config(table)
    opts.setdefault("timing", False)
    results = run_with_progress(specs, **opts) if specs else []
    cwd = os.getcwd()
    run = None
    if table.get("run"):  # the program's roots, matched first: its verdicts are the real workload's
        from compilelint.probe.run_check import run_from_config

        run = run_from_config(findings, table, root)
        results = [*run.results, *results]
    extra = match(findings, results, cwd=cwd)
    attach_what_if([*findings, *extra], results)
    merged = sorted([*findings, *extra], key=lambda f: f.sort_key())
    for r in results:
        if not r.ok:
            print(f"compilelint: probe target {r.name}: target failed: {r.error}", file=sys.stderr)
    from compilelint.probe.output import target_summary

    context = {
        "targets": [target_summary(r, cwd) for r in results],
        "failed": [r.name for r in results if not r.ok],
    }
    if run is not None:
        from compilelint.probe.run_report import run_json

        context.update(source="run", command=run.command_text, run=run_json(run))
    return merged, context


def summaries(results: Iterable[TargetResult]) -> list[dict[str, Any]]:
    from compilelint.probe.output import target_summary

    return [target_summary(r) for r in results]
