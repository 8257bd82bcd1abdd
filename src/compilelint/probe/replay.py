"""Timing in place, after the program: each root replayed eager vs compiled.

The program itself ran each root compiled with Dynamo's ``eager`` backend (its results
unchanged); timing it there would time neither the user's eager code nor inductor's.
So :mod:`compilelint.probe.hook` keeps clones of the inputs of a few real calls (one
per distinct input signature) and, at exit, once the program's own work is done and
its files are written, this module times the root on the signature the program called
most: eager, then ``torch.compile(backend=inductor)`` (warm-up and compile apart, CUDA
events on a GPU: :func:`compilelint.probe.timing.run_timing`), under ``no_grad`` and
in the training mode the calls had. The worth-it verdict is
:func:`compilelint.probe.worth.assess` over the calls the program made, with the
recompiles the program paid counted as further compiles.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

REPLAY_WARMUP = 2
REPLAY_RUNS = 10
REPLAY_MIN_TIME_S = 0.2


def time_roots(roots: list[Any], *, backend: str = "inductor",
               on_progress: Callable[[], None] | None = None) -> None:
    """Set ``root.replay`` for every root with recorded inputs (hook's ``_Root``), the
    program's output closed and the interpreter's shutdown flags undone meanwhile."""
    import torch._dynamo

    from compilelint.probe import timing as tm

    fresh = tm.fresh_inductor_cache_env()  # compile times measured cold
    with silenced(), shutdown_undone():
        try:
            _time_each(roots, backend, on_progress)
        finally:
            torch._dynamo.reset()
            if fresh:
                import shutil

                shutil.rmtree(fresh, ignore_errors=True)


def _time_each(roots: list[Any], backend: str, on_progress: Callable[[], None] | None) -> None:
    import torch
    import torch._dynamo

    from compilelint.probe import timing as tm
    from compilelint.probe.worth import assess

    for root in roots:
        if not root.inputs or root.status != "ok":
            continue
        entry = max(root.inputs, key=lambda e: e["count"])
        target = entry["target"]
        device = tm.resolve_device(_device_of(entry, torch))
        torch._dynamo.reset()
        was = getattr(target, "training", None)
        kept = _program_state(target, torch)
        try:
            if was is not None and entry["training"] is not None:
                target.train(bool(entry["training"]))
            tr = tm.run_timing(target, entry["args"], entry["kwargs"], device=device,
                               modes=["default"], backend=backend, warmup=REPLAY_WARMUP,
                               runs=REPLAY_RUNS, train=False, min_time_s=REPLAY_MIN_TIME_S,
                               warmup_s=0.05)
        except Exception as exc:
            root.replay = {"error": f"{type(exc).__name__}: {exc}"[:500]}
            continue
        finally:
            if was is not None:
                target.train(was)
            _restore_program_state(kept, torch)
        recompiles = sum(r.count for r in root.records if r.kind == "recompile")
        for m in tr.modes:
            m.worth_it = assess(tr.eager, m, max(root.calls, 1))
        root.replay = {
            "signature": entry["sig"], "calls_like_this": entry["count"],
            "timing": tr.to_dict(), "program": _program_cost(tr, root.calls, recompiles),
        }
        if on_progress:
            on_progress()


def _program_state(target: Any, torch: Any) -> tuple[list[tuple[Any, Any]], Any, Any]:
    """What the replay's calls would change that the program may still read in its own
    exit handlers: the module's buffers (BatchNorm's running statistics in training
    mode) and the random generators (dropout draws)."""
    buffers = [(b, b.detach().clone()) for b in target.buffers()] if hasattr(target, "buffers") else []
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    return buffers, torch.get_rng_state(), cuda


def _restore_program_state(kept: tuple[list[tuple[Any, Any]], Any, Any], torch: Any) -> None:
    buffers, cpu_rng, cuda_rng = kept
    with torch.no_grad():
        for live, saved in buffers:
            live.copy_(saved)
    torch.set_rng_state(cpu_rng)
    if cuda_rng is not None:
        torch.cuda.set_rng_state_all(cuda_rng)


def _device_of(entry: dict[str, Any], torch: Any) -> str:
    from compilelint.probe.tensors import flat_tensors

    for t in flat_tensors([list(entry["args"]), list(entry["kwargs"].values())]):
        return t.device.type
    return "cpu"


def _program_cost(tr: Any, calls: int, recompiles: int) -> dict[str, Any] | None:
    """The program's calls, eager vs compiled: calls × median, plus one compile per graph
    set the program made Dynamo build (the first, and one per recompile)."""
    m = next((m for m in tr.modes if m.ok and m.stats), None)
    if tr.eager is None or m is None or m.compile_s is None:
        return None
    compiles = 1 + recompiles
    eager_s = calls * tr.eager.median_s
    compiled_s = calls * m.stats.median_s + compiles * m.compile_s
    return {"calls": calls, "compiles": compiles, "eager_s": eager_s, "compiled_s": compiled_s,
            "saves": compiled_s < eager_s}


class silenced:
    """The replay's calls print nothing: the program's output is complete already."""

    def __enter__(self) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        self.saved = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *exc: object) -> None:
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)


class shutdown_undone:
    """At exit the interpreter refuses new thread-pool work and threading atexits;
    inductor's compile needs both. The program is done: undo the flags for the replay."""

    def __enter__(self) -> None:
        import threading

        threading._SHUTTING_DOWN = False  # type: ignore[attr-defined]
        futures = sys.modules.get("concurrent.futures.thread")
        if futures is not None:
            futures._shutdown = False  # type: ignore[attr-defined]

    def __exit__(self, *exc: object) -> None:
        import threading

        threading._SHUTTING_DOWN = True  # type: ignore[attr-defined]
