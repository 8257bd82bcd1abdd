"""The child side of `compilelint probe -- COMMAND`: compile the roots in place.

Installed by :mod:`compilelint.probe.inject.sitecustomize` before the user's program
starts. When a root's module is imported, its class (or function) is patched so that
the outermost call of an instance goes through ``torch.compile`` with a counting
``eager`` backend: Dynamo decides the breaks, the graphs run the same aten ops as
eager code, so the program's results do not change. Calls made from inside a compiled
region (``torch.compiler.is_compiling()``, or the eager parts of one) stay plain.

Per root it records calls, Dynamo's graph-break / recompile / frame-skip records (the
probe's log capture, switched into the root's lists for the call), the user lines
Dynamo traced and those that ran eagerly (first calls), and, with timing on, clones
of a few real inputs that :mod:`compilelint.probe.replay` times at exit. The results
go to the file the parent named, after every call that compiled, every second at
most otherwise, and at exit. A probe error falls back to eager for that root.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import time
import functools
import traceback
import types
from typing import Any

REQUEST_ENV = "COMPILELINT_RUN_REQUEST"
LINE_CALLS = 2  # calls per root whose eagerly run lines are recorded (settrace is slow)
MAX_INPUTS = 4  # distinct input signatures kept per root for the replay

_RUN: "_Run | None" = None


class _Root:
    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.module, _, self.name = spec.partition(":")
        self.kind: str | None = None  # "class" | "function"
        self.file: str | None = None
        self.imported = False
        self.status = "ok"  # "ok" | "fallback"
        self.error: str | None = None
        self.traceback: str | None = None
        self.calls = 0
        self.instances = 0
        self.records: list = []
        self.graphs: list[int] = []
        self.traced: dict[str, set[int]] = {}
        self.ran: dict[str, set[int]] = {}
        self.training: set[bool] = set()
        self.labels = False
        self.dtype: str | None = None
        self.first_call_s: float | None = None
        self.compile_s = 0.0  # wall time of the calls that compiled a graph
        self.steady_s = 0.0  # wall time of the other calls
        self.steady_calls = 0
        self.inputs: list[dict[str, Any]] = []  # {"sig", "count", "args", "kwargs", "fn"}
        self.replay: dict[str, Any] | None = None
        self.user_compiled = 0  # calls the program's own torch.compile ran: left to it

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.spec, "kind": self.kind, "file": self.file, "imported": self.imported,
            "status": self.status, "error": self.error, "traceback": self.traceback,
            "calls": self.calls, "instances": self.instances,
            "breaks": [r.to_dict() for r in self.records],
            "ops_per_graph": list(self.graphs),
            "lines_traced": {f: sorted(s) for f, s in self.traced.items()},
            "lines_ran_eagerly": {f: sorted(s) for f, s in self.ran.items()},
            "training": sorted(self.training), "labels": self.labels, "dtype": self.dtype,
            "first_call_s": self.first_call_s, "compile_s": self.compile_s,
            "steady_s": self.steady_s, "steady_calls": self.steady_calls,
            "input_signatures": [{"sig": i["sig"], "count": i["count"]} for i in self.inputs],
            "replay": self.replay, "user_compiled": self.user_compiled,
        }


class _Run:
    def __init__(self, request: dict[str, Any]) -> None:
        self.out = request["out"]
        self.timing = bool(request.get("timing"))
        self.backend = request.get("backend") or "inductor"
        self.roots = {spec: _Root(spec) for spec in request.get("roots", [])}
        self.by_module: dict[str, list[_Root]] = {}
        for root in self.roots.values():
            self.by_module.setdefault(root.module, []).append(root)
        self.compiled: dict[int, Any] = {}  # id(instance or function) -> compiled callable
        self.keep: list[Any] = []  # instances whose ids key `compiled`
        self.depth = 0
        self.capture = None  # the probe's log capture, entered on the first root call
        self.program_records: list = []
        self.torch_version: str | None = None
        self.device: str | None = None
        self.errors: list[str] = []
        self.last_write = 0.0
        self.phase = "running"

    # -- results -------------------------------------------------------------------
    def write(self) -> None:
        data = {
            "phase": self.phase, "torch_version": self.torch_version, "device": self.device,
            "python": sys.version.split()[0], "pid": os.getpid(),
            "roots": [r.to_dict() for r in self.roots.values()],
            "program_breaks": [r.to_dict() for r in self.program_records],
            "errors": self.errors[-20:],
        }
        tmp = f"{self.out}.{os.getpid()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(data, fh, default=str)
            os.replace(tmp, self.out)
        except OSError as exc:  # never the program's problem
            self.errors.append(f"writing results: {exc}")
        self.last_write = time.monotonic()
        if self.phase == "running":  # torch's own exit handlers (registered as it
            atexit.unregister(self.at_exit)  # imports) tear down what the replay needs:
            atexit.register(self.at_exit)  # run before them (atexit runs newest first)

    # -- patching ------------------------------------------------------------------
    def patch_module(self, module: Any) -> None:
        for root in self.by_module.get(module.__name__, ()):
            if root.imported:
                continue
            root.imported = True
            root.file = getattr(module, "__file__", None)
            try:
                self._patch(module, root)
            except Exception as exc:
                root.status, root.error = "fallback", f"patching: {type(exc).__name__}: {exc}"
        self.write()

    def _patch(self, module: Any, root: _Root) -> None:
        owner, obj = module, module
        for part in root.name.split("."):
            owner, obj = obj, getattr(obj, part)
        import torch

        global _is_compiling, _callback
        _is_compiling = torch.compiler.is_compiling
        try:  # a builtin: no frame for Dynamo to convert
            from torch._C._dynamo.eval_frame import get_eval_frame_callback as _callback
        except ImportError:  # an older torch: a program's own compile is not told apart
            pass
        if self.capture is None:  # listen from now on: the program may compile roots itself
            _skip_frame(_plain)  # torch is imported by now (never by the hook: the program's
            self._start_capture()  # environment settings come first)
        if isinstance(obj, type):
            root.kind = "class"
            orig = obj.__call__

            def __call__(inst, *args, **kwargs):
                if _is_compiling() or _RUN is None or _RUN.depth or root.status != "ok":
                    return orig(inst, *args, **kwargs)
                if _callback() is not None or getattr(inst, "__dict__", {}).get("_compiled_call_impl") is not None:
                    # the program's own torch.compile runs this call: Dynamo would convert
                    # any frame of ours, so nothing but the count happens here
                    root.user_compiled += 1
                    return orig(inst, *args, **kwargs)
                return _RUN.call(root, inst, orig, args, kwargs)

            __call__.__wrapped__ = orig  # type: ignore[attr-defined]
            _skip_frame(__call__)
            obj.__call__ = __call__
        elif callable(obj):
            root.kind = "function"
            fn = obj

            def wrapper(*args, **kwargs):
                if _is_compiling() or _RUN is None or _RUN.depth or root.status != "ok":
                    return fn(*args, **kwargs)
                if _callback() is not None:  # under the program's own torch.compile
                    root.user_compiled += 1
                    return fn(*args, **kwargs)
                return _RUN.call(root, fn, None, args, kwargs)

            functools.update_wrapper(wrapper, fn)
            _skip_frame(wrapper)
            setattr(owner, root.name.split(".")[-1], wrapper)
        else:
            raise TypeError(f"{root.spec} is a {type(obj).__name__}, not a class or function")

    # -- one outermost call ------------------------------------------------------------
    def call(self, root: _Root, target: Any, orig: Any, args: tuple, kwargs: dict) -> Any:
        plain = functools.partial(_plain, orig, target, args, kwargs)
        try:
            if self.capture is None:
                self._start_capture()
            compiled = self._compiled_for(root, target, orig)
            self._note_inputs(root, target, args, kwargs)
        except Exception as exc:
            self._fall_back(root, "compiling", exc)
            return plain()
        cap = self.capture.collector
        saved = (cap.records, cap.traced)
        cap.records, cap.traced = root.records, root.traced
        graphs = len(root.graphs)
        recorder = None
        if root.calls < LINE_CALLS:
            from compilelint.probe.trace import LineRecorder

            recorder = LineRecorder()
        root.calls += 1
        self.depth += 1
        t0 = time.perf_counter()
        try:
            if recorder is not None:
                with recorder:
                    out = compiled(*args, **kwargs)
            else:
                out = compiled(*args, **kwargs)
        except Exception as exc:
            if not _probe_error(exc):
                raise  # the program's own error: it raises under eager code too
            self._fall_back(root, "running compiled", exc)
            out = None
            failed = True
        else:
            failed = False
        finally:
            self.depth -= 1
            cap.records, cap.traced = saved
        elapsed = time.perf_counter() - t0
        if recorder is not None:
            for f, ls in recorder.lines.items():
                root.ran.setdefault(f, set()).update(ls)
        if failed:
            return plain()
        if root.first_call_s is None:
            root.first_call_s = elapsed
        if len(root.graphs) > graphs or root.calls == 1:
            root.compile_s += elapsed
            self.write()
        else:
            root.steady_s += elapsed
            root.steady_calls += 1
            if time.monotonic() - self.last_write > 1.0:
                self.write()
        return out

    def _compiled_for(self, root: _Root, target: Any, orig: Any) -> Any:
        compiled = self.compiled.get(id(target))
        if compiled is not None:
            return compiled
        import torch

        counts = root.graphs

        def counting(gm, example_inputs, **kw):
            from compilelint.probe.capture import _count_ops

            counts.append(_count_ops(gm))
            return gm.forward

        if orig is not None:  # Dynamo skips nn.Module's own __call__ and starts at forward,
            target = types.MethodType(orig, target)  # as for torch.compile(module)
        compiled = torch.compile(target, backend=counting)
        self.compiled[id(getattr(target, "__self__", target))] = compiled
        self.keep.append(target)
        root.instances += 1
        return compiled

    def _start_capture(self) -> None:
        import torch

        from compilelint.probe.logcapture import _LogCapture

        self.torch_version = str(torch.__version__)
        self.capture = _LogCapture(quiet=True, trace_lines=True)
        self.capture.__enter__()
        self.capture.collector.records = self.program_records

    def _note_inputs(self, root: _Root, target: Any, args: tuple, kwargs: dict) -> None:
        import torch

        from compilelint.probe.tensors import _convert, floating_dtype

        training = getattr(target, "training", None)
        if training is not None:
            root.training.add(bool(training))
        if not root.labels:
            from compilelint.probe.observe import LABEL_KWARGS

            root.labels = any(kwargs.get(k) is not None for k in LABEL_KWARGS)
        if root.dtype is None:
            root.dtype = floating_dtype(target, [(args, kwargs)])
        if self.device is None:
            for t in _flat(args, kwargs, torch):
                self.device = t.device.type
                break
        if not self.timing:
            return
        sig = _signature(args, kwargs, torch)
        for entry in root.inputs:
            if entry["sig"] == sig:
                entry["count"] += 1
                return
        if len(root.inputs) >= MAX_INPUTS:
            return
        clone = lambda t: t.detach().clone()  # noqa: E731
        root.inputs.append({"sig": sig, "count": 1, "target": target, "training": training,
                            "args": _convert(args, clone, lambda m: m),
                            "kwargs": _convert(kwargs, clone, lambda m: m)})

    def _fall_back(self, root: _Root, where: str, exc: BaseException) -> None:
        root.status = "fallback"
        text = str(exc).strip().splitlines()
        root.error = f"{type(exc).__name__} while {where}: {text[0] if text else ''}"[:500]
        root.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-6000:]
        self.write()

    # -- exit ------------------------------------------------------------------------
    def at_exit(self) -> None:
        global _RUN
        self.phase = "exit"
        self.write()
        if self.capture is not None:
            try:
                self.capture.__exit__(None, None, None)
            except Exception:
                pass
        _RUN = None  # the replay calls the roots plainly
        if self.timing and any(r.inputs for r in self.roots.values()):
            self.phase = "timing"
            self.write()
            try:
                from compilelint.probe.replay import time_roots

                time_roots(list(self.roots.values()), backend=self.backend, on_progress=self.write)
            except Exception as exc:
                self.errors.append(f"timing: {type(exc).__name__}: {exc}")
        self.phase = "done"
        self.write()


def _plain(orig: Any, target: Any, args: tuple, kwargs: dict) -> Any:
    """The call as the program wrote it (no frame of its own for Dynamo: see install)."""
    return orig(target, *args, **kwargs) if orig is not None else target(*args, **kwargs)


def _skip_frame(fn: Any) -> None:
    """Dynamo never starts a frame at a wrapper (it still inlines it, transparently):
    a nested root called from code running eagerly under an outer compiled call goes
    on to its ``forward`` frame, as when nothing is patched."""
    try:
        from torch._dynamo.eval_frame import skip_code

        skip_code(fn.__code__)
    except Exception:  # an older torch: the wrapper's frame shows in its records
        pass


def _is_compiling() -> bool:  # replaced by torch.compiler.is_compiling on first patch
    return False


_callback = type(None)  # replaced by Dynamo's get_eval_frame_callback on first patch


def _probe_error(exc: BaseException) -> bool:
    """An error of Dynamo or the backend, not of the program."""
    mod = type(exc).__module__ or ""
    return mod.startswith(("torch._dynamo", "torch._inductor", "torch.fx", "compilelint"))


def _flat(args: tuple, kwargs: dict, torch: Any):
    from compilelint.probe.tensors import flat_tensors

    return flat_tensors([list(args), list(kwargs.values())])


def _signature(args: tuple, kwargs: dict, torch: Any) -> str:
    def one(o: Any) -> str:
        if isinstance(o, torch.Tensor):
            return f"{str(o.dtype).replace('torch.', '')}{list(o.shape)}@{o.device.type}"
        if isinstance(o, (list, tuple)):
            return "(" + ", ".join(one(x) for x in o) + ")"
        if isinstance(o, dict):
            return "{" + ", ".join(f"{k}={one(v)}" for k, v in o.items()) + "}"
        return type(o).__name__ if not isinstance(o, (int, float, bool, str, type(None))) else repr(o)[:40]

    parts = [one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def install(request: dict[str, Any]) -> None:
    """Patch the roots as their modules are imported; write results at exit."""
    global _RUN
    _RUN = _Run(request)
    from compilelint.probe.importhook import PatchingFinder

    sys.meta_path.insert(0, PatchingFinder(_RUN.by_module, _RUN.patch_module))
    for name in list(_RUN.by_module):
        if name in sys.modules:
            _RUN.patch_module(sys.modules[name])
    atexit.register(_RUN.at_exit)
    _RUN.write()


def install_from_env() -> None:
    path = os.environ.pop(REQUEST_ENV, None)  # children of the program run unprobed
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as fh:
            install(json.load(fh))
    except Exception as exc:  # the program runs anyway
        print(f"compilelint probe: hook not installed: {type(exc).__name__}: {exc}", file=sys.stderr)
