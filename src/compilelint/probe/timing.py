"""Timing probe: eager vs compiled latency, compile time, break-even, memory, drift.

Runs inside the worker subprocess; torch is imported lazily so the parent never needs
it. On CUDA each call is timed with a pair of CUDA events (all recorded, one
synchronize at the end); on CPU with ``time.perf_counter`` around each call.
"""

from __future__ import annotations

import gc
import math
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable


@dataclass
class Stats:
    n: int
    median_s: float
    mean_s: float
    min_s: float
    max_s: float
    stdev_s: float
    p25_s: float
    p75_s: float
    calls_per_sample: int = 1
    warmup_calls: int = 0

    @property
    def iqr_s(self) -> float:
        return self.p75_s - self.p25_s

    @property
    def spread(self) -> float:
        """Interquartile range relative to the median."""
        return self.iqr_s / self.median_s if self.median_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["iqr_s"] = self.iqr_s
        d["spread"] = self.spread
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Stats | None":
        if not d:
            return None
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def _quantile(sorted_xs: list[float], q: float) -> float:
    if not sorted_xs:
        return float("nan")
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    frac = pos - lo
    return sorted_xs[lo] * (1 - frac) + sorted_xs[hi] * frac


def summarize(samples: "list[float] | Timing") -> Stats:
    k, w = 1, 0
    if isinstance(samples, Timing):
        k, w, samples = samples.calls_per_sample, samples.warmup_calls, samples.samples
    xs = sorted(samples)
    return Stats(
        n=len(xs),
        median_s=statistics.median(xs),
        mean_s=statistics.fmean(xs),
        min_s=xs[0],
        max_s=xs[-1],
        stdev_s=statistics.stdev(xs) if len(xs) > 1 else 0.0,
        p25_s=_quantile(xs, 0.25),
        p75_s=_quantile(xs, 0.75),
        calls_per_sample=k,
        warmup_calls=w,
    )


@dataclass
class ModeResult:
    mode: str  # "default" | "reduce-overhead" | "max-autotune" | a backend name
    backend: str
    ok: bool = True
    error: str | None = None
    first_call_s: float | None = None  # wall time of the first call (compile + one run)
    compile_s: float | None = None  # first call minus a steady-state compiled call
    stats: Stats | None = None  # compiled, steady state
    speedup: float | None = None  # eager median / compiled median
    saved_per_call_s: float | None = None
    break_even_calls: int | None = None  # None with never=True: compiled is not faster
    never_breaks_even: bool = False
    peak_mem_bytes: int | None = None
    peak_reserved_bytes: int | None = None  # CUDA: the caching allocator's (and CUDA graphs' pools)
    max_abs_diff: float | None = None
    max_rel_diff: float | None = None
    graph_count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stats"] = self.stats.to_dict() if self.stats else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ModeResult":
        d = dict(d)
        d["stats"] = Stats.from_dict(d.get("stats"))
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class TimingResult:
    device: str
    device_name: str
    train: bool
    warmup: int
    runs: int
    eager: Stats | None = None
    eager_peak_mem_bytes: int | None = None
    eager_peak_reserved_bytes: int | None = None
    eager_error: str | None = None
    memory_kind: str = ""  # "cuda allocated" | "process RSS" | ""
    modes: list[ModeResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "device_name": self.device_name,
            "train": self.train,
            "warmup": self.warmup,
            "runs": self.runs,
            "eager": self.eager.to_dict() if self.eager else None,
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


def to_device(obj: Any, device: str) -> Any:
    import torch

    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, torch.nn.Module):
        return obj.to(device)
    if isinstance(obj, tuple):
        return tuple(to_device(o, device) for o in obj)
    if isinstance(obj, list):
        return [to_device(o, device) for o in obj]
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    self_obj = getattr(obj, "__self__", None)  # a bound method of a module
    if isinstance(self_obj, torch.nn.Module):
        self_obj.to(device)
    return obj


def flat_tensors(obj: Any, out: list | None = None) -> list:
    import torch

    out = [] if out is None else out
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            flat_tensors(o, out)
    elif isinstance(obj, dict):
        for v in obj.values():
            flat_tensors(v, out)
    elif hasattr(obj, "to_tuple") and callable(obj.to_tuple):  # transformers ModelOutput
        flat_tensors(obj.to_tuple(), out)
    elif hasattr(obj, "__dict__") and not callable(obj):
        for v in vars(obj).values():
            if isinstance(v, (torch.Tensor, list, tuple, dict)):
                flat_tensors(v, out)
    return out


def detach_copy(obj: Any) -> list:
    return [t.detach().to("cpu", copy=True) for t in flat_tensors(obj)]


def output_diff(ref: list, got: list) -> tuple[float | None, float | None]:
    """Max absolute difference and max difference relative to the reference's
    largest magnitude, over every output tensor (None when not comparable)."""
    import torch

    if len(ref) != len(got):
        return None, None
    max_abs = 0.0
    max_rel = 0.0
    for a, b in zip(ref, got):
        if a.shape != b.shape:
            return None, None
        if a.numel() == 0:
            continue
        if not (a.is_floating_point() or a.is_complex()):
            a = a.to(torch.float64)
            b = b.to(torch.float64)
        a64 = a.to(torch.float64) if not a.is_complex() else a.to(torch.complex128)
        b64 = b.to(torch.float64) if not b.is_complex() else b.to(torch.complex128)
        d = (a64 - b64).abs()
        finite = torch.isfinite(d)
        both_nan = torch.isnan(a64.abs()) & torch.isnan(b64.abs())
        d = torch.where(both_nan, torch.zeros_like(d), d)
        if not bool(finite.all()) and not bool((finite | both_nan).all()):
            return float("inf"), float("inf")
        da = float(d.max()) if d.numel() else 0.0
        scale = float(a64.abs().nan_to_num(0.0).max())
        max_abs = max(max_abs, da)
        max_rel = max(max_rel, da / scale if scale > 0 else (0.0 if da == 0 else float("inf")))
    return max_abs, max_rel


def _reduce_for_backward(out: Any):
    ts = [t for t in flat_tensors(out) if t.requires_grad and (t.is_floating_point() or t.is_complex())]
    if not ts:
        return None
    total = ts[0].float().sum()
    for t in ts[1:]:
        total = total + t.float().sum()
    return total


class PeakMemory:
    """Peak memory over a block: CUDA allocator peak, or the process's peak RSS on CPU
    (``VmHWM``, reset through ``/proc/self/clear_refs`` where Linux allows it)."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.kind = ""
        self.peak: int | None = None
        self.reserved: int | None = None

    def __enter__(self) -> "PeakMemory":
        import torch

        if self.device.startswith("cuda"):
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            self.kind = "cuda allocated"
        else:
            self.kind = "process RSS" if _reset_hwm() else ""
        return self

    def __exit__(self, *exc: object) -> None:
        import torch

        if self.device.startswith("cuda"):
            torch.cuda.synchronize()
            self.peak = int(torch.cuda.max_memory_allocated())
            self.reserved = int(torch.cuda.max_memory_reserved())
        elif self.kind:
            self.peak = _read_status_kb("VmHWM")
            if self.peak is not None:
                self.peak *= 1024


def _reset_hwm() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return _read_status_kb("VmHWM") is not None
    except OSError:
        return False


def _read_status_kb(key: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


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


@dataclass
class Timing:
    """Seconds per call, one sample per block of ``calls_per_sample`` calls."""

    samples: list[float]
    calls_per_sample: int
    warmup_calls: int


def time_step(
    step: Callable,
    *,
    device: str,
    warmup: int,
    runs: int,
    warmup_s: float | None = None,
    min_time_s: float | None = None,
    block_s: float | None = None,
    max_samples: int = 10_000,
) -> Timing:
    """Warm up (at least ``warmup`` calls and ``warmup_s`` seconds, so clocks and caches
    settle), then take at least ``runs`` samples and ``min_time_s`` seconds of calls.

    Calls shorter than ``block_s`` are timed in blocks (like
    ``torch.utils.benchmark``'s blocked_autorange): a sample is the mean of a block, so
    the timer's own cost does not bias launch-bound calls. On CUDA a pair of events
    brackets each block (all recorded, one synchronize at the end); on CPU
    ``perf_counter``.
    """
    import torch

    cuda = device.startswith("cuda")
    clock = time.perf_counter
    warmup_s = (0.5 if cuda else 0.2) if warmup_s is None else warmup_s
    min_time_s = 0.5 if min_time_s is None else min_time_s
    block_s = (2e-3 if cuda else 1e-3) if block_s is None else block_s

    # warm-up: by count and by time (GPU clocks ramp up from idle after a compile)
    done = 0
    t0 = clock()
    while done < warmup or (clock() - t0 < warmup_s and done < 100_000):
        step()
        done += 1
        if cuda and done % 16 == 0:
            torch.cuda.synchronize()
    _sync(device)

    # calibrate: how long is one call?
    n = 1
    while True:
        _sync(device)
        t1 = clock()
        for _ in range(n):
            step()
        _sync(device)
        dt = clock() - t1
        done += n
        if dt >= max(block_s, 5e-3) or n >= 1 << 16:
            break
        n = min(1 << 16, max(n * 2, int(n * max(block_s, 5e-3) * 1.2 / max(dt, 1e-9)) + 1))
    per_call = dt / n
    k = max(1, int(math.ceil(block_s / per_call))) if per_call < block_s else 1
    # like timeit (and torch.utils.benchmark): no garbage collection while timing
    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _timed_blocks(step, cuda=cuda, runs=runs, k=k, per_call=per_call, min_time_s=min_time_s,
                             max_samples=max_samples, warmup_calls=done)
    finally:
        if gc_was_enabled:
            gc.enable()


def _timed_blocks(step: Callable, *, cuda: bool, runs: int, k: int, per_call: float, min_time_s: float,
                  max_samples: int, warmup_calls: int) -> Timing:
    import torch

    clock = time.perf_counter
    done = warmup_calls
    blocks = max(runs, int(math.ceil(min_time_s / max(per_call * k, 1e-9))))
    blocks = min(blocks, max_samples)

    if cuda:
        events = [torch.cuda.Event(enable_timing=True) for _ in range(blocks + 1)] if k > 1 else None
        if k > 1:
            events[0].record()
            for b in range(blocks):
                for _ in range(k):
                    step()
                events[b + 1].record()
            torch.cuda.synchronize()
            samples = [events[b].elapsed_time(events[b + 1]) / 1000.0 / k for b in range(blocks)]
        else:
            starts = [torch.cuda.Event(enable_timing=True) for _ in range(blocks)]
            ends = [torch.cuda.Event(enable_timing=True) for _ in range(blocks)]
            for b in range(blocks):
                starts[b].record()
                step()
                ends[b].record()
            torch.cuda.synchronize()
            samples = [s.elapsed_time(e) / 1000.0 for s, e in zip(starts, ends)]
        return Timing(samples, k, done)
    samples = []
    for _ in range(blocks):
        t1 = clock()
        for _ in range(k):
            step()
        samples.append((clock() - t1) / k)
    return Timing(samples, k, done)


def _sync(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()


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
        res.eager = summarize(samples)
        res.eager_peak_mem_bytes = pm.peak
        res.eager_peak_reserved_bytes = pm.reserved
        res.memory_kind = pm.kind
    except Exception as exc:
        res.eager_error = f"{type(exc).__name__}: {exc}"
        return res
    if on_progress:
        on_progress(res)

    for mode in modes:
        mr = ModeResult(mode=mode, backend=backend)
        res.modes.append(mr)
        try:
            _time_mode(mr, fn, args, kwargs, device=device, backend=backend, warmup=warmup,
                       runs=runs, train=train, ref=ref, eager=res.eager, seed=seed, grad_ctx=grad_ctx,
                       warmup_s=warmup_s, min_time_s=min_time_s)
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
        if on_progress:
            on_progress(res)
    return res


def _first_line(text: str, limit: int = 500) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:limit]
    return text[:limit]


def _time_mode(mr: ModeResult, fn, args, kwargs, *, device, backend, warmup, runs, train, ref,
               eager: Stats, seed: int, grad_ctx, warmup_s=None, min_time_s=None) -> None:
    import torch
    import torch._dynamo

    torch._dynamo.reset()
    counts: list[int] = []
    real_backend: Any = backend
    compile_kwargs: dict[str, Any] = {}
    if backend == "inductor" and mr.mode != "default":
        compile_kwargs["mode"] = mr.mode
    before = None
    if mr.mode == "reduce-overhead" and device.startswith("cuda") and train:
        # a new CUDA-graph generation per training step; inference drops its outputs
        # before the next call and needs no marker (whose cost would be timed too)
        before = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None)
    compiled = torch.compile(fn, backend=real_backend, **compile_kwargs)
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


def mode_is_valid(mode: str) -> bool:
    return mode in ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


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
