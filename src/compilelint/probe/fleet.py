"""One entry point for every way of running targets: one after another
(:func:`compilelint.probe.runner.run_probe`), side by side on this machine
(:mod:`~compilelint.probe.schedule`), or on a Dask cluster
(:mod:`~compilelint.probe.cluster`). Same results, in the targets' order."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from compilelint.probe.runner import TargetResult, run_probe as run_serially
from compilelint.probe.targets import TargetSpec, parse_target


def run_probe(
    targets: Iterable[str | TargetSpec],
    *,
    base: str | None = None,
    on_start: Callable[[TargetSpec, int, int], None] | None = None,
    on_done: Callable[[TargetResult, int, int], None] | None = None,
    jobs: int = 1,
    gpus: list[str] | None = None,
    cluster: str | None = None,
    **opts: Any,
) -> list[TargetResult]:
    """Run every target, each in its own worker process with its time limit.
    ``jobs`` > 1 or ``gpus``: up to ``jobs`` at once, spread over ``gpus`` (default:
    every visible GPU), one timing per device at a time; ``cluster``: on the Dask
    scheduler at that address. ``opts`` go to
    :func:`~compilelint.probe.runner.run_target`."""
    specs = [t if isinstance(t, TargetSpec) else parse_target(t, base=base) for t in targets]
    if cluster:
        from compilelint.probe.cluster import run_on_cluster

        return run_on_cluster(specs, cluster, on_start=on_start, on_done=on_done, **opts)
    if jobs > 1 or gpus:
        from compilelint.probe.schedule import run_side_by_side

        return run_side_by_side(specs, jobs=jobs, gpus=gpus, on_start=on_start, on_done=on_done, **opts)
    return run_serially(specs, on_start=on_start, on_done=on_done, **opts)
