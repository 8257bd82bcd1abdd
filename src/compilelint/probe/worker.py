"""The probe worker: ``python -m compilelint.probe.worker REQUEST.json RESULT.json``.

Runs one target in this (disposable) process: load it, capture Dynamo's
breaks/recompiles/frame skips on the target's first call (and the lines it reached:
:mod:`compilelint.probe.observe`), check ``fullgraph=True``, then time eager vs
compiled. After every phase the result
so far is written (atomically) to RESULT.json, so a hang or a crash later on still
leaves what was learnt for the parent to report.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
import traceback
from typing import Any

from compilelint.probe import devicelock


def _write(path: str, data: dict[str, Any]) -> None:
    from compilelint.atomic import write_text

    write_text(path, json.dumps(data, default=_json_default))


def _json_default(o: Any):
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if isinstance(o, float):
        return repr(o)
    return str(o)


def _fail(result: dict[str, Any], phase: str, exc: BaseException) -> None:
    result["status"] = "failed"
    result["phase"] = phase
    if isinstance(exc, SystemExit):
        msg = f"the target called sys.exit({exc.code!r})"
    else:
        text = str(exc).strip().splitlines()
        msg = f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
    result["error"] = f"{msg} (while {phase.replace('_', ' ')})"
    result["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-8000:]


def run(request: dict[str, Any], out_path: str) -> dict[str, Any]:
    from compilelint.probe.request import ProbeOptions
    from compilelint.probe.targets import TargetSpec

    spec = TargetSpec.from_dict(request["target"])
    opts = ProbeOptions.from_request(request)
    started = time.perf_counter()
    # the parent kills this process at its timeout; what-if runs stop short of it
    timeout = opts.timeout
    deadline = time.monotonic() + 0.95 * float(timeout) - 2.0 if timeout else None
    result: dict[str, Any] = {
        "target": spec.to_dict(),
        "name": request.get("name") or spec.name,
        "status": "running",
        "phase": "start",
        "error": None,
        "python": platform.python_version(),
        "durations": {},
    }
    # side by side with other targets, a timed one shares its device until it times
    lock = devicelock.from_env(out_path) if opts.timing else None
    if lock:
        result["durations"]["lock_wait"] = round(lock.shared(), 4)
        deadline = deadline + result["durations"]["lock_wait"] if deadline else None
    fresh_dir = None
    if opts.fresh_cache and opts.timing:
        from compilelint.probe.timing import fresh_inductor_cache_env

        fresh_dir = fresh_inductor_cache_env()

    def enter(name: str) -> None:
        result["phase"] = name
        _write(out_path, result)

    def phase_done(name: str, t0: float) -> None:
        result["durations"][name] = round(time.perf_counter() - t0, 4)
        _write(out_path, result)

    # -- import torch ------------------------------------------------------------------
    t0 = time.perf_counter()
    try:
        import torch

        result["torch_version"] = str(torch.__version__)
        from compilelint.probe import timing as tm

        device = tm.resolve_device(opts.device)
        result["device"] = device
        result["device_name"] = tm.device_name(device)
        os.environ["COMPILELINT_PROBE_DEVICE"] = device
    except BaseException as exc:
        _fail(result, "importing_torch", exc)
        _write(out_path, result)
        return result
    phase_done("import", t0)

    # -- load the target ---------------------------------------------------------------
    enter("load")
    t0 = time.perf_counter()
    try:
        from compilelint.probe.targets import load_target

        target = load_target(spec)
        result["target_files"] = target.files
        fn = tm.to_device(target.fn, device)
        calls = [(tm.to_device(a, device), tm.to_device(k, device)) for a, k in target.calls]
    except BaseException as exc:
        _fail(result, "loading_the_target", exc)
        _write(out_path, result)
        return result
    phase_done("load", t0)

    train = bool(opts.train)
    grad_ctx = torch.enable_grad if train else torch.no_grad
    dtype = opts.dtype
    try:
        from compilelint.probe.tensors import set_training

        fn = tm.to_dtype(fn, dtype)
        calls = [(tm.to_dtype(a, dtype), tm.to_dtype(k, dtype)) for a, k in calls]
        set_training(fn, train)
    except BaseException as exc:
        _fail(result, "casting_the_target", exc)
        _write(out_path, result)
        return result

    # -- capture: the target's first call goes to Dynamo, in this fresh process --------
    enter("capture")
    t0 = time.perf_counter()
    try:
        from compilelint.probe.observe import observe

        cap_backend = opts.capture_backend or "eager"
        obs = observe(fn, calls, backend=cap_backend, train=train)
        cap = obs.capture
        result["capture"] = cap.to_dict()
        result["lines_run"] = obs.lines_run
        result["reached_by"] = obs.reached_by
        result["conditions"] = obs.conditions
        result["recapture_error"] = obs.recapture_error
        if cap.error:
            result["status"] = "failed"
            result["error"] = f"{cap.error} (under torch.compile, backend={cap_backend})"
            result["traceback"] = cap.error_traceback
        phase_done("capture", t0)
        if opts.fullgraph_check and not cap.error:
            from compilelint.probe.capture import capture

            t0 = time.perf_counter()
            a, k = calls[0]
            with grad_ctx():
                fg = capture(fn, a, k, backend=cap_backend, fullgraph=True)
            result["fullgraph_ok"], result["fullgraph_error"] = fg.error is None, fg.error
            phase_done("fullgraph", t0)
    except BaseException as exc:
        _fail(result, "capturing", exc)
        _write(out_path, result)
        return result

    # -- timing ------------------------------------------------------------------------
    if lock and result["status"] != "failed":
        waited = lock.exclusive()  # the device to itself: no other target's work on it
        result["durations"]["lock_wait"] += round(waited, 4)
        result["device_hold"] = {"lock": lock.name, "start": time.time(), "end": None}
        deadline = deadline + waited if deadline else None
    if opts.timing and result["status"] != "failed":
        enter("timing")
        t0 = time.perf_counter()
        backend = opts.backend or "inductor"
        modes = opts.modes or tm.default_modes(device, backend)
        a, k = calls[0]

        def progress(tr):
            result["timing"] = tr.to_dict()
            _write(out_path, result)

        try:
            tr = tm.run_timing(
                fn, a, k, device=device, modes=list(modes), backend=backend,
                warmup=int(opts.warmup), runs=int(opts.runs),
                train=train, on_progress=progress,
                min_time_s=opts.min_time, warmup_s=opts.warmup_time,
            )
            from compilelint.probe.worth import DEFAULT_MAX_CALLS, assess_timed

            max_calls = int(opts.worth_it_calls or DEFAULT_MAX_CALLS)
            for m in tr.modes:
                m.worth_it = assess_timed(tr, m, max_calls)
            result["timing"] = tr.to_dict()
            if tr.eager_error:
                result["status"] = "failed"
                result["error"] = f"{tr.eager_error} (while timing eager calls)"
        except BaseException as exc:
            _fail(result, "timing", exc)
            _write(out_path, result)
            return result
        phase_done("timing", t0)
        if opts.what_if and result["status"] != "failed":
            try:
                _what_if(opts, result, fn, calls, tr, obs, deadline, enter, phase_done,
                         lambda: _write(out_path, result))
            except Exception as exc:  # a line of the result: the timing above stands
                result["what_if_error"] = f"{type(exc).__name__}: {exc}"[:500]
            try:
                _regional(opts, result, fn, calls, tr, device, deadline, enter, phase_done)
            except Exception as exc:  # a line of the result, likewise
                result["regional_error"] = f"{type(exc).__name__}: {exc}"[:500]

    if lock:
        lock.release()
        if result.get("device_hold"):
            result["device_hold"]["end"] = time.time()
    if result["status"] == "running":
        result["status"] = "ok"
    result["phase"] = "done"
    result["durations"]["total"] = round(time.perf_counter() - started, 4)
    _write(out_path, result)
    if fresh_dir:
        import shutil

        shutil.rmtree(fresh_dir, ignore_errors=True)
    return result


def _what_if(opts, result, fn, calls, tr, obs, deadline, enter, phase_done, save) -> None:
    """Re-time the target with each applicable knob; failures are lines of the result."""
    from compilelint.probe.knobs import knobs_for
    from compilelint.probe.whatif import run_what_ifs

    knobs = knobs_for(obs.capture.breaks)
    if not knobs or tr.eager is None:
        return
    result["status"] = "ok"  # what the target showed so far stands, whatever happens next
    enter("what_if")
    t0 = time.perf_counter()
    durations = result["durations"]
    timed = [m for m in tr.modes if m.ok and m.first_call_s is not None]
    estimate = durations.get("capture", 0.0) / 2 + (
        timed[0].first_call_s + durations.get("timing", 0.0) / (len(tr.modes) + 1) if timed else 0.0)

    def progress(entries):
        result["what_if"] = [w.to_dict() for w in entries]
        save()

    entries = run_what_ifs(
        fn, calls, knobs, breaks_before=len(obs.capture.breaks), timing=tr,
        backend=opts.backend or "inductor", warmup=int(opts.warmup),
        runs=int(opts.runs), train=bool(opts.train),
        dtype=obs.conditions.get("dtype"), deadline=deadline, estimate_s=estimate,
        min_time_s=opts.min_time, warmup_s=opts.warmup_time, on_progress=progress,
    )
    result["what_if"] = [w.to_dict() for w in entries]
    phase_done("what_if", t0)


def _exit_with_parent() -> None:
    """A killed probe run takes its workers with it (they run in their own session, so
    no signal reaches them): exit once the parent is gone."""
    import threading

    # the parent names itself: it may be gone before this process gets here
    parent = int(os.environ.get("COMPILELINT_PROBE_PARENT") or os.getppid())

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(3)

    threading.Thread(target=watch, name="compilelint-parent-watch", daemon=True).start()


def _regional(opts, result, fn, calls, tr, device, deadline, enter, phase_done) -> None:
    """Where the target holds repeated blocks, time compiling each block against
    compiling the whole module (:mod:`compilelint.probe.regional`)."""
    from compilelint.probe.regional import Baseline, RegionalResult, find_block_stacks, measure_regional, root_module

    root = root_module(fn)
    mode = next((m for m in tr.modes if m.ok and m.stats), None)
    stacks = find_block_stacks(root) if root is not None else None
    if not stacks or tr.eager is None or mode is None:
        return
    result["status"] = "ok"  # what the target showed so far stands, whatever happens next
    result["regional"] = RegionalResult(mode=mode.mode, stacks=stacks).to_dict()
    enter("regional")
    t0 = time.perf_counter()
    # the whole module is compiled again beside the blocks: the timing's compile paid
    # inductor's one-time start-up in this process, which would flatter the blocks. The
    # two compiles together take about that first one (start-up included, blocks cheaper)
    estimate = (mode.first_call_s or 0.0) + result["durations"].get("timing", 0.0) / (len(tr.modes) + 1)
    a, k = calls[0]
    res = measure_regional(fn, a, k, opts, deadline, device=device, mode=mode.mode, estimate_s=estimate,
                           baseline=Baseline(eager=tr.eager, reference=tr.reference, whole=None))
    result["regional"] = res.to_dict() if res else None
    phase_done("regional", t0)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 2:
        print("usage: python -m compilelint.probe.worker REQUEST.json RESULT.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as fh:
        request = json.load(fh)
    _exit_with_parent()
    run(request, argv[1])
    return 0


if __name__ == "__main__":
    # Flush what user code printed even if it later aborts the process.
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: user extensions (and CUDA) can hang or crash in it,
    # and the result is already on disk.
    os._exit(code)
