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
from compilelint.probe.cluster import ClusterError
from compilelint.probe.fleet import run_probe
from compilelint.probe.match import findings_from_results, match
from compilelint.probe.roi_report import attach_what_if
from compilelint.probe.runner import DEFAULT_TIMEOUT, TargetResult, run_target
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
    "jobs": "jobs",  # targets at once (probe/schedule.py)
    "gpus": "gpus",
    "cluster": "cluster",  # a Dask scheduler's address (probe/cluster.py)
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
        if dest in ("warmup", "runs", "worth_it_calls", "jobs"):
            value = int(value)
        if dest == "gpus":
            from compilelint.probe.devices import DeviceError, parse_gpus

            try:
                value = parse_gpus(value)
            except DeviceError as exc:
                raise TargetError(f"[tool.compilelint.probe] gpus: {exc}") from None
        opts[dest] = value
    return opts


def run_with_progress(specs: list[TargetSpec], *, progress: bool = True, on_result=None,
                      **opts: Any) -> list[TargetResult]:
    """run_probe with progress on stderr (:mod:`compilelint.probe.progress`); targets
    side by side, as many as the host has cores, unless ``jobs`` says otherwise."""
    from compilelint.probe.devices import default_jobs
    from compilelint.probe.progress import run_reporting

    if not opts.get("jobs"):
        opts["jobs"] = default_jobs(len(specs))
    return run_reporting(specs, progress=progress, on_result=on_result, **opts)


def check_with_probe(findings: list[Finding], settings: Any, *, jobs: int | None = None
                     ) -> tuple[list[Finding], dict[str, Any]]:
    """For `compilelint check --probe`: run the configured targets, set evidence on the
    static findings, add CL9xx findings, and return (findings, probe context).

    ``settings.probe`` is the [tool.compilelint.probe] table, ``settings.root`` the
    project root that relative target paths are resolved against. Timing is off
    unless the table says ``timing = true``. ``jobs``: `check --jobs`, when the table
    sets none."""
    table = dict(getattr(settings, "probe", {}) or {})
    root = str(getattr(settings, "root", ".") or ".")
    specs = config_targets(table, root)
    opts = options_from_config(table)
    opts.setdefault("timing", False)
    if jobs and not opts.get("jobs"):
        opts["jobs"] = jobs
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
