"""Targets on a Dask cluster: `probe --cluster tcp://HOST:PORT`.

Dask distributed does the scheduling (pure Python, schedules on resources, deployed
under SLURM, Kubernetes or plain SSH by its own tools). Each target is one Dask task,
and the task does on its worker what a local run does: it runs the target in a worker
subprocess of its own, with the time limit (:func:`~compilelint.probe.runner.run_target`),
so a crash, a hang or an out-of-memory kill is that target's failed result. A timed
target asks for a ``GPU`` resource (start GPU workers with ``--resources GPU=1``, one
worker per GPU), so each timing has a GPU to itself; on a host the workers share,
the device lock of :mod:`~compilelint.probe.devicelock` keeps other targets' work off
that device while it times. Workers import the targets from the paths the client
gave: the code must be on a filesystem every worker shares, at the same path.

Nothing here imports dask until a cluster is asked for (the `cluster` extra).
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Callable

from compilelint.probe.runner import TargetResult
from compilelint.probe.targets import TargetSpec

_MISSING = ("ModuleNotFoundError", "ImportError", "FileNotFoundError")  # the worker lacks the code
START_TOPIC = "compilelint-probe-start"  # a worker says which target it started
CONNECT_TIMEOUT_S = 20
WORKERS_TIMEOUT_S = 60


class ClusterError(RuntimeError):
    """The cluster cannot be used: no extra, no scheduler, no suitable worker (exit 2)."""


def run_on_worker(spec: dict[str, Any], opts: dict[str, Any], index: int, timed: bool) -> dict[str, Any]:
    """The Dask task: one target, in a subprocess on this worker; its result as a dict."""
    from distributed import get_worker

    from compilelint.probe.devicelock import lock_env
    from compilelint.probe.runner import run_target

    worker = get_worker()
    worker.log_event(START_TOPIC, {"index": index})
    target = TargetSpec.from_dict(spec)
    where = f"Dask worker {worker.address}"
    problem = None
    if target.path and not os.path.isfile(target.path):
        problem = (f"{where} cannot see {target.path}: the targets' code must be on a filesystem "
                   "every worker shares, at the same path")
    elif not os.path.isdir(target.cwd):
        problem = (f"{where} has no folder {target.cwd} (where the probe was started): run it from a "
                   "folder every worker shares, at the same path")
    if problem:
        return TargetResult(target=target.spec, name=target.name, status="failed", error=problem,
                            phase="load").to_dict()
    env = _undo_nanny_environ()
    if timed:
        gpu = worker.state.total_resources.get("GPU") if hasattr(worker, "state") else None
        visible = os.environ.get("CUDA_VISIBLE_DEVICES") or "all"
        env = lock_env(f"gpu-{visible}" if gpu else "cpu")
    result = run_target(target, env=env, **opts)
    error = result.error or ""
    if "(while loading the target)" in error and any(e in error for e in _MISSING):
        result.error = (f"{result.error} — on {where}: the target and what it imports must be importable "
                        "there (a shared filesystem, or the packages installed on every worker)")
    return result.to_dict()


def _undo_nanny_environ() -> dict[str, str | None]:
    """Dask's nanny starts workers with OMP_NUM_THREADS=1 and the like (its
    `distributed.nanny.pre-spawn-environ`); the target's process gets the host's
    threads back, as a local run has them."""
    import dask

    spawned = dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {}
    undo = {}
    for name, value in spawned.items():
        if name.endswith("_NUM_THREADS") and os.environ.get(name) == str(value):
            undo[name] = None  # unset: the library's own default
    return undo


def _scheduler_workers(client) -> dict[str, Any]:
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:  # distributed before 2025.4 lists every worker
        info = client.scheduler_info()
    return info.get("workers", {})


def _failed(spec: TargetSpec, exc: BaseException) -> TargetResult:
    name = type(exc).__name__
    if name == "KilledWorker":
        why = f"the Dask worker running it died ({exc})"
    elif isinstance(exc, ModuleNotFoundError) and "compilelint" in str(exc):
        why = f"a Dask worker cannot import compilelint ({exc}): install compilelint on every worker"
    else:
        why = f"the Dask task failed: {name}: {exc}"
    return TargetResult(target=spec.spec, name=spec.name, status="failed", error=why[:2000])


def run_on_cluster(
    specs: list[TargetSpec],
    address: str,
    *,
    on_start: Callable[[TargetSpec, int, int], None] | None = None,
    on_done: Callable[[TargetResult, int, int], None] | None = None,
    **opts: Any,
) -> list[TargetResult]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ClusterError(f"--cluster needs the cluster extra: pip install 'compilelint[cluster]' ({exc})") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    total = len(specs)
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"no Dask worker joined {address} within {WORKERS_TIMEOUT_S} s ({exc})") from None
        timed = bool(opts.get("timing", True))
        gpu_workers = [w for w in _scheduler_workers(client).values() if (w.get("resources") or {}).get("GPU")]
        resources = None
        if timed and opts.get("device") != "cpu":
            if gpu_workers:
                resources = {"GPU": 1}
            elif opts.get("device") == "cuda":
                raise ClusterError(f"timing on CUDA: no worker of {address} declares a GPU; start one worker "
                                   "per GPU with `CUDA_VISIBLE_DEVICES=N dask worker ADDRESS --resources GPU=1`")
        if on_start:
            client.subscribe_topic(START_TOPIC, lambda event: on_start(specs[event[1]["index"]],
                                                                         event[1]["index"], total))
        run = uuid.uuid4().hex[:8]
        futures = [client.submit(run_on_worker, spec.to_dict(), opts, i, timed, pure=False,
                                 key=f"compilelint-probe-{run}-{i}", resources=resources)
                   for i, spec in enumerate(specs)]
        index = {fut.key: i for i, fut in enumerate(futures)}
        results: list[TargetResult | None] = [None] * total
        try:
            for fut in as_completed(futures, loop=client.loop):
                i = index[fut.key]
                try:
                    results[i] = TargetResult.from_dict(fut.result())
                except Exception as exc:  # the task itself failed: a dead worker, a missing package
                    results[i] = _failed(specs[i], exc)
                if on_done:
                    on_done(results[i], i, total)
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            if on_start:
                client.unsubscribe_topic(START_TOPIC)
    return [r for r in results if r is not None]

