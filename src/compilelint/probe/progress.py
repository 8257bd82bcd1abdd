"""Progress of a probe run on stderr: targets done / running / queued.

In a terminal: a live bar, and a line per finished target. Elsewhere (a CI log), a
line per finished target when targets run side by side or on a cluster, where a run
can be long; a serial run stays quiet there, as before.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from compilelint.probe.fleet import run_probe
from compilelint.probe.runner import TargetResult
from compilelint.probe.targets import TargetSpec


class Counts:
    """Targets done / running / queued (a target a cluster retries starts twice)."""

    def __init__(self, total: int):
        self.total, self.done, self.started_ = total, 0, set()
        self.lock = threading.Lock()

    @property
    def running(self) -> int:
        return len(self.started_)

    def started(self, i: int) -> None:
        with self.lock:
            self.started_.add(i)

    def finished(self, i: int) -> None:
        with self.lock:
            self.done += 1
            self.started_.discard(i)

    def line(self) -> str:
        queued = self.total - self.done - self.running
        return f"{self.done}/{self.total} done, {self.running} running, {queued} queued"


def run_reporting(specs: list[TargetSpec], *, progress: bool = True,
                  on_result: Callable[[TargetSpec, TargetResult], None] | None = None,
                  **opts: Any) -> list[TargetResult]:
    """run_probe, reporting progress on stderr; `on_result(spec, result)` as each
    target finishes (in the order they finish)."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(stderr=True)
    counts = Counts(len(specs))
    side_by_side = int(opts.get("jobs") or 1) > 1 or bool(opts.get("cluster"))
    bar = task = None
    if progress and console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("[bold]probe[/]"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True)
        task = bar.add_task("", total=len(specs))

    def describe(name: str = "") -> str:
        queued = counts.total - counts.done - counts.running
        return f"{counts.running} running, {queued} queued" + (f" ({escape(name)})" if name else "")

    def on_start(spec: TargetSpec, i: int, total: int) -> None:
        counts.started(i)
        if bar is not None:
            bar.update(task, description=describe(spec.name))

    def on_done(res: TargetResult, i: int, total: int) -> None:
        counts.finished(i)
        if on_result:
            on_result(specs[i], res)
        mark = "[green]ok[/]" if res.ok else f"[red]failed[/]: {escape(res.error or '')}"
        if bar is not None:
            bar.console.print(f"  {escape(res.name)}: {mark}", highlight=False)
            bar.update(task, advance=1, description=describe())
        elif progress and side_by_side:
            console.print(f"compilelint: probe {escape(res.name)}: {mark} ({res.wall_s:.1f} s); {counts.line()}",
                          highlight=False, soft_wrap=True)

    if bar is None:
        return run_probe(specs, on_start=on_start, on_done=on_done, **opts)
    with bar:
        return run_probe(specs, on_start=on_start, on_done=on_done, **opts)
