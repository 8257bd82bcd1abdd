"""A sweep file that survives: `probe -o sweep.json [--resume]`.

The JSON report is rewritten (atomically: readers see the old file or the new one)
each time a target finishes, so a killed sweep loses at most the targets that were
running. Beside the report's usual keys the file keeps a ``sweep`` section: every
finished target's full result (what `--resume` reads back instead of running the
target again), the options that shape results (a resumed sweep must use the same),
whether the sweep is complete, and the targets still pending. ``findings`` is filled
when the sweep completes. No torch here.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable

from compilelint.probe.runner import TargetResult
from compilelint.probe.targets import TargetSpec

SWEEP_VERSION = 1
# options that change what a target's result says; the others (timeout, jobs) do not
RESULT_OPTIONS = ("device", "modes", "backend", "capture_backend", "timing", "warmup", "runs", "train",
                  "dtype", "what_if", "worth_it_calls", "fresh_cache", "min_time", "warmup_time")


_SPLICE = "\x00compilelint-sweep-results\x00"  # where the one-line results go (json escapes it)


class SweepError(ValueError):
    """A sweep file that cannot be resumed (usage error, exit 2)."""


def target_key(spec: TargetSpec) -> str:
    """The target, wherever the sweep was started from: its file's absolute path (or its
    module) and its factory."""
    return f"{spec.path or spec.module}:{spec.factory}"


def result_options(opts: dict[str, Any]) -> dict[str, Any]:
    return {k: opts[k] for k in RESULT_OPTIONS if opts.get(k) is not None}


def read_document(path: str) -> dict[str, Any]:
    """A probe JSON report (a sweep or a plain `--format json` one); SweepError if not."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise SweepError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SweepError(f"{path}: cannot read: {exc}") from None
    except ValueError as exc:
        raise SweepError(f"{path}: not JSON ({exc})") from None
    tool = doc.get("tool") if isinstance(doc, dict) else None
    if not (isinstance(tool, dict) and tool.get("command") == "probe" and isinstance(doc.get("targets"), list)):
        raise SweepError(f"{path}: not a probe report (write one with `compilelint probe --format json -o FILE`)")
    return doc


class Sweep:
    """The file `-o` names, kept up to date as results arrive."""

    def __init__(self, path: str, specs: list[TargetSpec], opts: dict[str, Any], *, resume: bool,
                 cwd: str | None = None):
        self.path = path
        self.specs = specs
        self.cwd = cwd or os.getcwd()
        self.options = result_options(opts)
        self.done: dict[str, TargetResult] = {}
        self.write_failed = False
        if resume and os.path.exists(path):
            self._load()

    def _load(self) -> None:
        doc = read_document(self.path)
        sweep = doc.get("sweep")
        if not isinstance(sweep, dict) or not isinstance(sweep.get("results"), list):
            raise SweepError(f"{self.path}: a probe report without a sweep section (written before "
                             "compilelint could resume): nothing to resume; use another -o file")
        before = sweep.get("options") or {}
        if before != self.options:
            changed = sorted(k for k in set(before) | set(self.options) if before.get(k) != self.options.get(k))
            what = ", ".join(f"{k}={before.get(k)!r} then, {self.options.get(k)!r} now" for k in changed)
            raise SweepError(f"{self.path}: the sweep ran with other options ({what}); "
                             "resume it with the same options, or write to another -o file")
        try:
            for entry in sweep["results"]:
                self.done[entry["key"]] = TargetResult.from_dict(entry["result"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SweepError(f"{self.path}: a damaged sweep section ({type(exc).__name__}: {exc})") from None

    def pending(self) -> list[TargetSpec]:
        return [s for s in self.specs if target_key(s) not in self.done]

    def add(self, spec: TargetSpec, result: TargetResult) -> None:
        self.done[target_key(spec)] = result
        try:
            self.write()
        except OSError as exc:  # the run goes on; the report is written (or fails) at the end
            if not self.write_failed:
                print(f"compilelint: cannot update {self.path}: {exc.strerror or exc}", file=sys.stderr)
            self.write_failed = True

    def results(self) -> list[TargetResult]:
        """The finished targets, in the targets' order."""
        return [self.done[target_key(s)] for s in self.specs if target_key(s) in self.done]

    def document(self, findings: list | None = None, *, complete: bool = False) -> dict[str, Any]:
        from compilelint.probe.output import probe_document

        doc = probe_document(self.results(), findings or [], self.cwd)
        doc["sweep"] = {
            "version": SWEEP_VERSION,
            "complete": complete,
            "options": self.options,
            "pending": [s.spec for s in self.pending()],
            "results": [{"key": target_key(s), "result": self.done[target_key(s)].to_dict()}
                        for s in self.specs if target_key(s) in self.done],
        }
        return doc

    def text(self, findings: list | None = None, *, complete: bool = False) -> str:
        """The report indented; the full results one line each (their lists of lines run
        would take a line per number), as the worker wrote them (an infinite
        break-even stays a float)."""
        doc = self.document(findings, complete=complete)
        entries = doc["sweep"]["results"]
        doc["sweep"]["results"] = _SPLICE
        head = json.dumps(doc, indent=2, default=str)
        body = ",\n".join("    " + json.dumps(e, default=str) for e in entries)
        return head.replace(json.dumps(_SPLICE), "[\n" + body + "\n  ]" if entries else "[]") + "\n"

    def write(self) -> None:
        from compilelint.atomic import write_text

        write_text(self.path, self.text(), make_folder=True)


def run_sweep(specs: list[TargetSpec], path: str, *, resume: bool, run: Callable[..., Any], **opts: Any) -> Sweep:
    """Run the targets `path` does not hold yet (all of them unless `resume`) with
    `run(specs, on_result=…, **opts)`, recording each result as it arrives."""
    sweep = Sweep(path, specs, opts, resume=resume)
    pending = sweep.pending()
    if resume:
        print(f"compilelint: resuming {path}: {len(specs) - len(pending)} of {len(specs)} target(s) done, "
              f"{len(pending)} to run", file=sys.stderr)
    if pending:
        run(pending, on_result=sweep.add, **opts)
    return sweep
