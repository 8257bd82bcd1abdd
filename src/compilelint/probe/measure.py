"""Measuring calls: warm-up, blocked timing (CUDA events on GPU, ``perf_counter`` on
CPU), per-call latency on GPU, summary statistics and peak memory. torch is imported
lazily.

Two numbers on a GPU: :func:`time_step` queues calls back to back and synchronises once
at the end (*throughput*: the CPU's launch overhead hides behind the GPU's work), while
:func:`time_latency` waits for each call to finish before the next (*latency*: what a
caller that uses each result sees — a serving request, a training step that reads its
loss). On a CPU a call returns when its work is done, so the two are one number."""

from __future__ import annotations

import gc
import math
import statistics
import time
from dataclasses import asdict, dataclass
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


def time_latency(
    step: Callable, *, device: str, runs: int, min_time_s: float | None = None, max_samples: int = 10_000,
) -> Timing:
    """Wall-clock seconds from a call's start to its results being ready, one call at a
    time (synchronise, call, synchronise); ``step`` is already warm. At least ``runs``
    samples and ``min_time_s`` seconds."""
    clock = time.perf_counter
    min_time_s = 0.5 if min_time_s is None else min_time_s
    samples: list[float] = []
    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _sync(device)
        t0 = clock()
        while len(samples) < max_samples and (len(samples) < runs or clock() - t0 < min_time_s):
            t1 = clock()
            step()
            _sync(device)
            samples.append(clock() - t1)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Timing(samples, 1, 0)


def latency_differs(device: str) -> bool:
    """Whether per-call latency is a number apart from :func:`time_step`'s: on a GPU
    (asynchronous launches), not on a CPU."""
    return device.startswith("cuda")


def _sync(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()
