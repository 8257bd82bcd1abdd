"""Regional compilation, measured: compile each repeated block, or the whole module?

Where a module holds repeated blocks of one class (an ``nn.ModuleList`` or
``nn.Sequential`` of same-class layers, nested or not: ``model.encoder.layer``), PyTorch's
regional-compilation recipe compiles each block (``block.compile()``) instead of the
whole module: Dynamo and inductor compile the block's code once and reuse it for every
instance, so the compile takes a fraction of the time, at the price of the fusion across
block boundaries and of the code between blocks running eagerly.

:func:`measure_regional` times both on the caller's module and inputs: compile seconds
(cold: a fresh inductor cache for each, as the probe's timing), steady-state time per
call, and whether the outputs match eager's (the what-if's tolerance). It runs in the
probe's worker (after the timing, with the eager numbers it already has) and can
run in any process that holds a module and a call (the run-your-program hook). Both
compiles are measured alike: each with a fresh cache, in a process whose backend has
already started (its one-time start-up counted on neither side). Every
failure — a compile error, too little time left — is the result's ``status``/``error``,
never an exception. torch is imported lazily.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from compilelint.probe.whatif import MATCH_TOLERANCE


@dataclass
class BlockStack:
    """One container of repeated blocks: ``path`` from the root module ("" for the root
    itself), the blocks' qualified class name, how many."""

    path: str
    block_class: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Baseline:
    """What the caller already measured (the worker's timing): eager's stats and
    outputs, and (``whole``, a ModeResult) the whole module compiled in the same mode
    in a process that had compiled before, with a fresh cache."""

    eager: Any
    reference: list
    whole: Any = None


@dataclass
class RegionalResult:
    status: str = "running"  # "ok" | "failed" | "skipped" | "timed-out"
    error: str | None = None
    mode: str = "default"
    stacks: list[BlockStack] = field(default_factory=list)
    eager_median_s: float | None = None
    whole_compile_s: float | None = None
    whole_median_s: float | None = None
    whole_latency_s: float | None = None  # GPU only: each call waited for (timing.ModeResult.latency)
    whole_max_rel_diff: float | None = None
    whole_outputs_match: bool | None = None
    regional_compile_s: float | None = None
    regional_median_s: float | None = None
    regional_latency_s: float | None = None
    regional_max_rel_diff: float | None = None
    regional_outputs_match: bool | None = None

    @property
    def blocks(self) -> int:
        return sum(s.count for s in self.stacks)

    @property
    def compile_saved_s(self) -> float | None:
        if self.whole_compile_s is None or self.regional_compile_s is None:
            return None
        return self.whole_compile_s - self.regional_compile_s

    @property
    def regional_vs_whole(self) -> float | None:
        """Steady-state speed of regional relative to whole (> 1: regional is faster)."""
        if not self.whole_median_s or not self.regional_median_s:
            return None
        return self.whole_median_s / self.regional_median_s

    def speedup(self, which: str) -> float | None:
        median = getattr(self, f"{which}_median_s")
        if not self.eager_median_s or not median:
            return None
        return self.eager_median_s / median

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stacks"] = [s.to_dict() for s in self.stacks]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "RegionalResult | None":
        if not d:
            return None
        d = dict(d)
        d["stacks"] = [BlockStack(**s) for s in d.get("stacks") or []]
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def root_module(fn: Any) -> Any:
    """The module ``fn`` is, or whose bound method it is; None for a plain function."""
    import torch

    mod = fn if isinstance(fn, torch.nn.Module) else getattr(fn, "__self__", None)
    return mod if isinstance(mod, torch.nn.Module) else None


def find_block_stacks(module: Any) -> list[BlockStack]:
    """The outermost ``ModuleList``/``Sequential`` containers of two or more blocks of
    one class, a block being a module with submodules of its own (a stack of bare
    ``Linear`` layers is no region worth compiling apart)."""
    import torch

    containers = (torch.nn.ModuleList, torch.nn.Sequential)
    found: list[BlockStack] = []
    for path, mod in module.named_modules():
        if not isinstance(mod, containers) or any(_inside(path, s.path) for s in found):
            continue
        children = list(mod.children())
        kinds = {type(c) for c in children}
        if len(children) < 2 or len(kinds) != 1 or not any(True for _ in children[0].children()):
            continue
        cls = type(children[0])
        found.append(BlockStack(path=path, block_class=f"{cls.__module__}.{cls.__qualname__}", count=len(children)))
    return found


def _inside(path: str, outer: str) -> bool:
    return outer == "" or path.startswith(outer + ".")


def block_compiler(root: Any, stacks: list[BlockStack], compiled: list) -> Callable:
    """A stand-in for ``torch.compile`` that compiles each block in place
    (``block.compile()``, the documented recipe) and hands back the root unchanged;
    the compiled blocks go to ``compiled`` (for :func:`uncompile_blocks`)."""

    def compiler(fn, **kwargs):
        for s in stacks:
            for block in root.get_submodule(s.path).children():
                block.compile(**kwargs)
                compiled.append(block)
        return fn

    return compiler


def uncompile_blocks(blocks: list) -> None:
    """Undo ``block.compile()``: the module calls its own forward again."""
    for block in blocks:
        if getattr(block, "_compiled_call_impl", None) is not None:
            block._compiled_call_impl = None
    blocks.clear()


@contextlib.contextmanager
def fresh_compile_cache(enabled: bool = True):
    """A fresh inductor cache (on disk and in memory) for the block: the second compile
    of a process would otherwise reuse the first one's kernels and look cheap."""
    if not enabled:
        yield
        return
    from torch._inductor import utils

    fresh = getattr(utils, "fresh_cache", None) or getattr(utils, "fresh_inductor_cache", None)
    with fresh() if fresh is not None else contextlib.nullcontext():
        yield


def measure_regional(
    fn: Callable,
    args: tuple,
    kwargs: dict,
    options: Any,
    deadline: float | None = None,
    *,
    device: str,
    mode: str = "default",
    baseline: Baseline | None = None,
    estimate_s: float = 0.0,
) -> RegionalResult | None:
    """Time "compile each block" against "compile the whole module" on one call;
    None when ``fn``'s module holds no repeated blocks.

    ``options`` is a :class:`~compilelint.probe.request.ProbeOptions` (backend, warm-up,
    runs, train, dtype, fresh_cache); ``deadline`` a ``time.monotonic()`` past which the
    caller will be killed; ``estimate_s`` what one compile-and-time is expected to take.
    ``baseline``: eager and whole-module numbers already measured (else measured here)."""
    root = root_module(fn)
    stacks = find_block_stacks(root) if root is not None else []
    if not stacks:
        return None
    res = RegionalResult(mode=mode, stacks=stacks)
    timed = dict(device=device, backend=options.backend or "inductor", warmup=int(options.warmup),
                 runs=int(options.runs), train=bool(options.train), warmup_s=options.warmup_time,
                 min_time_s=options.min_time)
    fresh = bool(getattr(options, "fresh_cache", True))
    res.eager_median_s = baseline.eager.median_s if baseline and baseline.eager else None
    try:
        if _out_of_time(res, deadline, estimate_s):
            return res
        baseline = _complete(baseline, fn, args, kwargs, timed, mode, fresh)
        res.eager_median_s = baseline.eager.median_s
        _take_whole(res, baseline.whole, options.dtype)
        if res.whole_median_s is None:
            res.status = "skipped"
            res.error = "the whole module was not timed to compare with" + (
                f" ({baseline.whole.error})" if getattr(baseline.whole, "error", None) else "")
            return res
        if _out_of_time(res, deadline, estimate_s / 2):
            return res
        _time_regional(res, fn, args, kwargs, root, timed, baseline, options.dtype, fresh)
    except Exception as exc:  # a line of the result, whatever happens
        res.status, res.error = "failed", f"{type(exc).__name__}: {exc}"[:500]
    return res


def _out_of_time(res: RegionalResult, deadline: float | None, need_s: float) -> bool:
    left = None if deadline is None else deadline - time.monotonic()
    if left is None or left >= need_s:
        return False
    res.status = "skipped"
    res.error = f"not enough time left in the target's timeout (~{need_s:.0f} s needed, {left:.0f} s left)"
    return True


def _complete(baseline: Baseline | None, fn, args, kwargs, timed: dict, mode: str, fresh: bool) -> Baseline:
    """The baseline with eager (and its outputs) and the whole module timed where the
    caller had not. The whole module is compiled after a throw-away compile, so that
    neither side pays the backend's one-time start-up in this process (tens of seconds
    for inductor on a CPU: compile workers, ISA checks) and the blocks are not flattered."""
    import torch

    from compilelint.probe.timing import run_timing, time_one_mode

    if baseline is None or baseline.eager is None:
        tr = run_timing(fn, args, kwargs, modes=[], **timed)
        if tr.eager is None:
            raise RuntimeError(f"eager call failed: {tr.eager_error}")
        baseline = Baseline(eager=tr.eager, reference=tr.reference, whole=None)
    if baseline.whole is None:
        with fresh_compile_cache(fresh):
            torch.compile(_warm_up, backend=timed["backend"])(torch.ones(4, device=timed["device"]))
            torch._dynamo.reset()
        with fresh_compile_cache(fresh):
            baseline.whole = time_one_mode(mode, fn, args, kwargs, ref=baseline.reference, eager=baseline.eager,
                                           **timed)
    return baseline


def _warm_up(x):
    return (x * 2).sin() + 1


def _matches(max_rel: float | None, dtype: str | None) -> bool:
    return max_rel is not None and max_rel <= MATCH_TOLERANCE.get(dtype or "float32", 1e-3)


def _take_whole(res: RegionalResult, whole: Any, dtype: str | None) -> None:
    if whole is None or not getattr(whole, "ok", False) or whole.stats is None:
        return
    res.whole_compile_s = whole.compile_s
    res.whole_median_s = whole.stats.median_s
    res.whole_latency_s = whole.latency.median_s if whole.latency else None
    res.whole_max_rel_diff = whole.max_rel_diff
    res.whole_outputs_match = _matches(whole.max_rel_diff, dtype)


def _time_regional(res, fn, args, kwargs, root, timed: dict, baseline: Baseline, dtype, fresh: bool) -> None:
    from compilelint.probe.timing import time_one_mode

    compiled: list = []
    try:
        with fresh_compile_cache(fresh):
            mr = time_one_mode(res.mode, fn, args, kwargs, ref=baseline.reference, eager=baseline.eager,
                               compiler=block_compiler(root, res.stacks, compiled), **timed)
    finally:
        uncompile_blocks(compiled)
    if not mr.ok or mr.stats is None:
        res.status, res.error = "failed", f"compiling each block: {mr.error or 'not timed'}"
        return
    res.status = "ok"
    res.regional_compile_s = mr.compile_s
    res.regional_median_s = mr.stats.median_s
    res.regional_latency_s = mr.latency.median_s if mr.latency else None
    res.regional_max_rel_diff = mr.max_rel_diff
    res.regional_outputs_match = _matches(mr.max_rel_diff, dtype)
    if not res.regional_outputs_match:
        tol = MATCH_TOLERANCE.get(dtype or "float32", 1e-3)
        res.error = ("outputs differ from eager" if mr.max_rel_diff is None
                     else f"outputs differ from eager (max rel Δ {mr.max_rel_diff:.1e} > {tol:.0e})")
