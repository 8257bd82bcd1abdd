"""Timing probe: eager vs compiled latency, compile time, break-even, memory, drift.

Runs inside the worker subprocess; torch is imported lazily so the parent never needs
it. On CUDA each call is timed with a pair of CUDA events (all recorded, one
synchronize at the end: throughput), and again one call at a time, waiting for each
(latency, :func:`compilelint.probe.measure.time_latency`); on CPU with
``time.perf_counter`` around each call (where the two are one number).
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from compilelint.probe.measure import (
    PeakMemory, Stats, Timing, _sync, latency_differs, summarize, time_latency, time_step,
)
from compilelint.probe.tensors import (
    _reduce_for_backward, detach_copy, flat_tensors, output_diff, to_device, to_dtype,
)

__all__ = [
    "ModeResult", "PeakMemory", "Stats", "Timing", "TimingResult", "default_modes", "detach_copy",
    "device_name", "flat_tensors", "fresh_inductor_cache_env", "output_diff", "resolve_device",
    "run_timing", "shutdown_compile_workers", "summarize", "time_step", "to_device", "to_dtype",
]


@dataclass
class ModeResult:
    mode: str  # "default" | "reduce-overhead" | "max-autotune" | a backend name
    backend: str
    ok: bool = True
    error: str | None = None
    first_call_s: float | None = None  # wall time of the first call (compile + one run)
    compile_s: float | None = None  # first call minus a steady-state compiled call
    stats: Stats | None = None  # compiled, steady state (calls back to back: throughput on a GPU)
    latency: Stats | None = None  # GPU only: each call waited for; None on CPU (the same as stats)
    speedup: float | None = None  # eager median / compiled median
    saved_per_call_s: float | None = None
    break_even_calls: int | None = None  # None with never=True: compiled is not faster
    never_breaks_even: bool = False
    peak_mem_bytes: int | None = None
    peak_reserved_bytes: int | None = None  # CUDA: the caching allocator's (and CUDA graphs' pools)
    max_abs_diff: float | None = None
    max_rel_diff: float | None = None
    graph_count: int | None = None
    # is compiling worth it here? (compilelint.probe.worth.assess)
    worth_it: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stats"] = self.stats.to_dict() if self.stats else None
        d["latency"] = self.latency.to_dict() if self.latency else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ModeResult":
        d = dict(d)
        d["stats"] = Stats.from_dict(d.get("stats"))
        d["latency"] = Stats.from_dict(d.get("latency"))
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class TimingResult:
    device: str
    device_name: str
    train: bool
    warmup: int
    runs: int
    eager: Stats | None = None
    eager_latency: Stats | None = None  # GPU only, as ModeResult.latency
    eager_peak_mem_bytes: int | None = None
    eager_peak_reserved_bytes: int | None = None
    eager_error: str | None = None
    memory_kind: str = ""  # "cuda allocated" | "process RSS" | ""
    modes: list[ModeResult] = field(default_factory=list)
    # the eager outputs the modes were compared with (in the worker only; not saved)
    reference: list | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "device_name": self.device_name,
            "train": self.train,
            "warmup": self.warmup,
            "runs": self.runs,
            "eager": self.eager.to_dict() if self.eager else None,
            "eager_latency": self.eager_latency.to_dict() if self.eager_latency else None,
            "eager_peak_mem_bytes": self.eager_peak_mem_bytes,
            "eager_peak_reserved_bytes": self.eager_peak_reserved_bytes,
            "eager_error": self.eager_error,
            "memory_kind": self.memory_kind,
            "modes": [m.to_dict() for m in self.modes],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "TimingResult | None":
        if not d:
            return None
        return cls(
            device=d["device"], device_name=d.get("device_name", ""), train=d.get("train", False),
            warmup=d.get("warmup", 0), runs=d.get("runs", 0), eager=Stats.from_dict(d.get("eager")),
            eager_latency=Stats.from_dict(d.get("eager_latency")),
            eager_peak_mem_bytes=d.get("eager_peak_mem_bytes"),
            eager_peak_reserved_bytes=d.get("eager_peak_reserved_bytes"), eager_error=d.get("eager_error"),
            memory_kind=d.get("memory_kind", ""),
            modes=[ModeResult.from_dict(m) for m in d.get("modes", [])],
        )



# --------------------------------------------------------------------------------------
# helpers (torch inside)
# --------------------------------------------------------------------------------------


def resolve_device(device: str | None) -> str:
    import torch

    if device in (None, "", "auto"):
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError("--device cuda: CUDA is not available here")
    return device


def device_name(device: str) -> str:
    import platform

    import torch

    if device.startswith("cuda"):
        try:
            return torch.cuda.get_device_name(torch.device(device))
        except Exception:
            return "cuda"
    name = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"CPU {name or platform.processor() or platform.machine()} ({torch.get_num_threads()} threads)"


def make_step(fn: Callable, args: tuple, kwargs: dict, train: bool, before: Callable | None = None) -> Callable:
    """One call: forward (and backward with ``train``)."""

    def step():
        if before is not None:
            before()
        out = fn(*args, **kwargs)
        if train:
            loss = _reduce_for_backward(out)
            if loss is not None:
                loss.backward()
        return out

    return step


def _zero_grads(fn: Any) -> None:
    import torch

    mod = fn if isinstance(fn, torch.nn.Module) else getattr(fn, "__self__", None)
    if isinstance(mod, torch.nn.Module):
        for p in mod.parameters():
            p.grad = None


def run_timing(
    fn: Any,
    args: tuple,
    kwargs: dict,
    *,
    device: str,
    modes: list[str],
    backend: str = "inductor",
    warmup: int = 3,
    runs: int = 30,
    train: bool = False,
    seed: int = 0,
    min_time_s: float | None = None,
    warmup_s: float | None = None,
    on_progress: Callable[[TimingResult], None] | None = None,
) -> TimingResult:
    import torch
    import torch._dynamo

    res = TimingResult(device=device, device_name=device_name(device), train=train,
                       warmup=warmup, runs=runs)
    grad_ctx = torch.enable_grad if train else torch.no_grad

    # eager
    try:
        with grad_ctx():
            torch.manual_seed(seed)
            ref = detach_copy(fn(*args, **kwargs))
            _zero_grads(fn)
            step = make_step(fn, args, kwargs, train, before=(lambda: _zero_grads(fn)) if train else None)
            with PeakMemory(device) as pm:
                samples = time_step(step, device=device, warmup=warmup, runs=runs,
                                    warmup_s=warmup_s, min_time_s=min_time_s)
            if latency_differs(device):
                res.eager_latency = summarize(time_latency(step, device=device, runs=runs, min_time_s=min_time_s))
        res.eager = summarize(samples)
        res.eager_peak_mem_bytes = pm.peak
        res.eager_peak_reserved_bytes = pm.reserved
        res.memory_kind = pm.kind
    except Exception as exc:
        res.eager_error = f"{type(exc).__name__}: {exc}"
        return res
    if on_progress:
        on_progress(res)

    res.reference = ref
    for mode in modes:
        res.modes.append(time_one_mode(
            mode, fn, args, kwargs, device=device, backend=backend, warmup=warmup, runs=runs, train=train,
            ref=ref, eager=res.eager, seed=seed, warmup_s=warmup_s, min_time_s=min_time_s))
        if on_progress:
            on_progress(res)
    return res


def time_one_mode(mode: str, fn, args, kwargs, *, device: str, backend: str, warmup: int, runs: int,
                  train: bool, ref: list, eager: Stats, seed: int = 0, warmup_s=None, min_time_s=None,
                  compile_extra: dict[str, Any] | None = None, compiler: Callable | None = None) -> ModeResult:
    """Compile ``fn`` in ``mode`` (with ``compile_extra`` torch.compile arguments, e.g.
    ``dynamic=True``) and time it against ``eager``; a failure (compile error, out of
    memory) is the result's ``error``, never an exception. ``compiler(fn, **kwargs)``
    replaces ``torch.compile`` (regional compilation compiles parts of ``fn``)."""
    import torch
    import torch._dynamo

    mr = ModeResult(mode=mode, backend=backend)
    grad_ctx = torch.enable_grad if train else torch.no_grad
    try:
        _time_mode(mr, fn, args, kwargs, device=device, backend=backend, warmup=warmup,
                   runs=runs, train=train, ref=ref, eager=eager, seed=seed, grad_ctx=grad_ctx,
                   warmup_s=warmup_s, min_time_s=min_time_s, compile_extra=compile_extra, compiler=compiler)
    except Exception as exc:  # compile failure, OOM, ... in this mode only
        mr.ok = False
        mr.error = f"{type(exc).__name__}: {_first_line(str(exc))}"
    finally:
        try:
            torch._dynamo.reset()
        except Exception:
            pass
        if device.startswith("cuda"):
            torch.cuda.empty_cache()
    return mr


def _first_line(text: str, limit: int = 500) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:limit]
    return text[:limit]


def _time_mode(mr: ModeResult, fn, args, kwargs, *, device, backend, warmup, runs, train, ref,
               eager: Stats, seed: int, grad_ctx, warmup_s=None, min_time_s=None, compile_extra=None,
               compiler=None) -> None:
    import torch
    import torch._dynamo

    torch._dynamo.reset()
    counts: list[int] = []
    real_backend: Any = backend
    compile_kwargs: dict[str, Any] = dict(compile_extra or {})
    if backend == "inductor" and mr.mode != "default":
        compile_kwargs["mode"] = mr.mode
    before = None
    if mr.mode == "reduce-overhead" and device.startswith("cuda") and train:
        # a new CUDA-graph generation per training step; inference drops its outputs
        # before the next call and needs no marker (whose cost would be timed too)
        before = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None)
    compiled = (compiler or torch.compile)(fn, backend=real_backend, **compile_kwargs)
    with grad_ctx():
        # first call: compile + one run
        _zero_grads(fn)
        torch.manual_seed(seed)
        _sync(device)
        t0 = time.perf_counter()
        if before:
            before()
        out = compiled(*args, **kwargs)
        got = detach_copy(out)
        if train:
            loss = _reduce_for_backward(out)
            if loss is not None:
                loss.backward()
        _sync(device)
        mr.first_call_s = time.perf_counter() - t0
        del out
        # the compile is done: stop inductor's compile-worker processes so that they
        # do not compete with the timed calls for the CPU (launch-bound calls suffer)
        shutdown_compile_workers()
        mr.max_abs_diff, mr.max_rel_diff = output_diff(ref, got)

        def pre():
            if train:
                _zero_grads(fn)
            if before:
                before()

        step = make_step(compiled, args, kwargs, train, before=pre)
        # peak over warm-up and timed calls: CUDA graphs are recorded during warm-up
        with PeakMemory(device) as pm:
            samples = time_step(step, device=device, warmup=max(warmup, 2), runs=runs,
                                warmup_s=warmup_s, min_time_s=min_time_s)
        if latency_differs(device):
            mr.latency = summarize(time_latency(step, device=device, runs=runs, min_time_s=min_time_s))
    mr.stats = summarize(samples)
    mr.peak_mem_bytes = pm.peak
    mr.peak_reserved_bytes = pm.reserved
    mr.compile_s = max(0.0, mr.first_call_s - mr.stats.median_s)
    if mr.stats.median_s > 0:
        mr.speedup = eager.median_s / mr.stats.median_s
    saved = eager.median_s - mr.stats.median_s
    mr.saved_per_call_s = saved
    if saved > 0:
        mr.break_even_calls = int(math.ceil(mr.compile_s / saved))
        mr.never_breaks_even = False
    else:
        mr.break_even_calls = None
        mr.never_breaks_even = True


def shutdown_compile_workers() -> None:
    mod = sys.modules.get("torch._inductor.async_compile")
    fn = getattr(mod, "shutdown_compile_workers", None)
    if fn is not None:
        try:
            fn()
        except Exception:
            pass


def default_modes(device: str, backend: str) -> list[str]:
    if backend != "inductor":
        return ["default"]
    if device.startswith("cuda"):
        return ["default", "reduce-overhead", "max-autotune"]
    # CUDA graphs and GEMM autotuning are GPU features; on CPU they only add compile time
    return ["default"]


def fresh_inductor_cache_env() -> str | None:
    """Point inductor (and Triton) at a fresh cache folder: compile times measured cold."""
    import tempfile

    d = tempfile.mkdtemp(prefix="compilelint-inductor-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = d
    os.environ["TRITON_CACHE_DIR"] = os.path.join(d, "triton")
    return d
