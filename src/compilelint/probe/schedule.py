"""Targets side by side on one machine: `probe --jobs N --gpus 0,1`.

Each target still runs in its own worker process with its own time limit
(:func:`~compilelint.probe.runner.run_target`); up to ``jobs`` of them run at once,
each started by a thread of this process that only waits for it. A target is given
the least busy GPU (``CUDA_VISIBLE_DEVICES``: it sees that GPU alone) and, when it is
timed, that device's lock (:mod:`~compilelint.probe.devicelock`): captures overlap,
a timing has its device to itself, and on a machine without GPUs the CPU is the one
device, so CPU timings run one at a time with nothing else running. Results come back
in the targets' order, whatever order they finish in.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Callable

from compilelint.probe import runner
from compilelint.probe.devicelock import lock_env
from compilelint.probe.devices import timing_gpus
from compilelint.probe.runner import TargetResult, run_target
from compilelint.probe.targets import TargetSpec


def stop_all() -> None:
    """Kill every worker this process is running (an interrupted run)."""
    for proc in list(runner.LIVE):
        runner._kill_group(proc)


def worker_env(gpu: str | None, timed: bool) -> dict[str, str]:
    """What a worker is told: the one GPU it sees, and the device lock it takes when timed."""
    env = {"CUDA_VISIBLE_DEVICES": gpu} if gpu is not None else {}
    if timed:
        env.update(lock_env(f"gpu-{gpu}" if gpu is not None else "cpu"))
    return env


def run_side_by_side(
    specs: list[TargetSpec],
    *,
    jobs: int,
    gpus: list[str] | None = None,
    on_start: Callable[[TargetSpec, int, int], None] | None = None,
    on_done: Callable[[TargetResult, int, int], None] | None = None,
    **opts: Any,
) -> list[TargetResult]:
    total = len(specs)
    timed = bool(opts.get("timing", True))
    busy = {gpu: 0 for gpu in timing_gpus(opts.get("device"), gpus)}  # targets running per GPU
    guard = threading.Lock()
    stopping = threading.Event()

    def one(i: int, spec: TargetSpec) -> TargetResult:
        with guard:
            gpu = min(busy, key=busy.__getitem__) if busy else None
            if gpu is not None:
                busy[gpu] += 1
            if on_start:
                on_start(spec, i, total)
        try:
            if stopping.is_set():
                return TargetResult(target=spec.spec, name=spec.name, status="failed", error="interrupted")
            return run_target(spec, env=worker_env(gpu, timed), **opts)
        finally:
            if gpu is not None:
                with guard:
                    busy[gpu] -= 1

    results: list[TargetResult | None] = [None] * total
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="compilelint-probe")
    futures = {pool.submit(one, i, spec): i for i, spec in enumerate(specs)}
    try:
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if on_done:
                on_done(results[i], i, total)
    except BaseException:
        stopping.set()
        for fut in futures:
            fut.cancel()
        while not all(fut.done() for fut in futures):
            stop_all()
            time.sleep(0.05)
        raise
    finally:
        pool.shutdown(wait=True)
    return [r for r in results if r is not None]
