"""Probe reports: rich text tables, JSON, SARIF (through compilelint.report)."""

from __future__ import annotations

import json
import math
import os
from typing import Any

from compilelint.finding import Finding
from compilelint.probe.match import display_path
from compilelint.probe.roi_report import (
    print_regional, print_what_if, print_worth, regional_json, target_worth, what_if_json, worth_json,
)
from compilelint.probe.run_report import print_root_line, print_run_header, root_json, run_json
from compilelint.probe.runner import TargetResult

JSON_VERSION = 2
KIND_LABEL = {"graph_break": "graph break", "recompile": "recompile", "frame_skip": "frame skip"}


def _num(x: Any) -> Any:
    """JSON-safe number: inf/nan become strings, floats are rounded sensibly."""
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return float(f"{x:.6g}")
    return x


def _ms(s: float | None) -> float | None:
    return None if s is None else _num(s * 1000.0)


def _stats_ms(st) -> dict[str, Any] | None:
    if st is None:
        return None
    return {
        "n": st.n,
        "calls_per_sample": st.calls_per_sample,
        "warmup_calls": st.warmup_calls,
        "median_ms": _ms(st.median_s),
        "mean_ms": _ms(st.mean_s),
        "min_ms": _ms(st.min_s),
        "max_ms": _ms(st.max_s),
        "p25_ms": _ms(st.p25_s),
        "p75_ms": _ms(st.p75_s),
        "stdev_ms": _ms(st.stdev_s),
        "spread": _num(st.spread),
    }


def _ratio(eager, compiled) -> float | None:
    if eager is None or compiled is None or compiled.median_s <= 0:
        return None
    return eager.median_s / compiled.median_s


def target_summary(r: TargetResult, cwd: str | None = None, *, with_lines: bool = False) -> dict[str, Any]:
    """One target, as the JSON report (and `check --probe`'s context) shows it."""
    cwd = cwd or os.getcwd()
    cap = r.capture
    breaks = []
    for b in r.breaks:
        breaks.append({
            "kind": b.kind,
            "reason": b.reason,
            "gb_id": b.gb_id,
            "path": display_path(b.file, cwd) if b.file else None,
            "line": b.line,
            "function": b.function,
            "count": b.count,
            "first_call_only": b.first_call_only,
            "stack": [[display_path(f, cwd), ln] for f, ln in b.stack],
        })
    counts = {k: sum(1 for b in r.breaks if b.kind == k) for k in KIND_LABEL}
    out: dict[str, Any] = {
        "name": r.name,
        "target": r.target,
        "status": r.status,
        "error": r.error,
        "phase": r.phase,
        "device": r.device,
        "device_name": r.device_name,
        "torch_version": r.torch_version,
        "graph_count": cap.graph_count if cap else None,
        "op_count": cap.op_count if cap else None,
        "fullgraph": r.fullgraph_ok,
        "fullgraph_error": r.fullgraph_error,
        "counts": counts,
        "reached_by": r.reached_by,
        "conditions": r.conditions,
        "breaks": breaks,
        "timing": None,
        "wall_s": _num(r.wall_s),
        "durations": {k: _num(v) for k, v in r.durations.items()},
    }
    t = r.timing
    if t is not None:
        modes = []
        for m in t.modes:
            modes.append({
                "mode": m.mode,
                "backend": m.backend,
                "ok": m.ok,
                "error": m.error,
                "compiled": _stats_ms(m.stats),
                "median_ms": _ms(m.stats.median_s) if m.stats else None,
                "speedup": _num(m.speedup),
                "latency": _stats_ms(m.latency),
                "latency_median_ms": _ms(m.latency.median_s) if m.latency else None,
                "latency_speedup": _num(_ratio(t.eager_latency, m.latency)),
                "first_call_s": _num(m.first_call_s),
                "compile_s": _num(m.compile_s),
                "saved_per_call_ms": _ms(m.saved_per_call_s),
                "break_even_calls": ("never" if m.never_breaks_even else m.break_even_calls) if m.ok else None,
                "peak_mem_bytes": m.peak_mem_bytes,
                "peak_reserved_bytes": m.peak_reserved_bytes,
                "max_abs_diff": _num(m.max_abs_diff),
                "max_rel_diff": _num(m.max_rel_diff),
                "worth_it": worth_json(m.worth_it),
            })
        out["timing"] = {
            "device": t.device,
            "device_name": t.device_name,
            "train": t.train,
            "warmup": t.warmup,
            "runs": t.runs,
            "memory_kind": t.memory_kind,
            "eager": _stats_ms(t.eager),
            "eager_median_ms": _ms(t.eager.median_s) if t.eager else None,
            # GPU: calls back to back (above: throughput) and each call waited for (latency);
            # CPU: one number, the latency fields null
            "latency_measured": t.eager_latency is not None,
            "eager_latency": _stats_ms(t.eager_latency),
            "eager_latency_median_ms": _ms(t.eager_latency.median_s) if t.eager_latency else None,
            "eager_peak_mem_bytes": t.eager_peak_mem_bytes,
            "eager_peak_reserved_bytes": t.eager_peak_reserved_bytes,
            "eager_error": t.eager_error,
            "modes": modes,
        }
    out["worth_it"] = target_worth(r)
    out["what_if"] = what_if_json(r)
    out["what_if_error"] = r.what_if_error
    out["regional"] = regional_json(r)
    out["regional_error"] = r.regional_error
    if r.run:
        out["run"] = root_json(r)
    if with_lines:
        out["lines_run"] = {display_path(f, cwd): ls for f, ls in r.lines_run.items()}
    return out


def probe_document(results: list[TargetResult], findings: list[Finding], cwd: str | None = None,
                   run: Any = None) -> dict[str, Any]:
    from compilelint import __version__

    devices = sorted({r.device for r in results if r.device})
    doc = {
        "version": JSON_VERSION,
        "tool": {"name": "compilelint", "version": __version__, "command": "probe"},
        "device": devices[0] if len(devices) == 1 else (devices or None),
        "summary": {
            "targets": len(results),
            "ok": sum(1 for r in results if r.ok),
            "failed": sum(1 for r in results if not r.ok),
            "graph_breaks": sum(1 for r in results for b in r.breaks if b.kind == "graph_break"),
            "recompiles": sum(1 for r in results for b in r.breaks if b.kind == "recompile"),
            "frame_skips": sum(1 for r in results for b in r.breaks if b.kind == "frame_skip"),
            "findings": len(findings),
        },
        "targets": [target_summary(r, cwd) for r in results],
        "findings": [f.to_dict() for f in findings],
    }
    if run is not None:  # `probe -- COMMAND`: the program's run
        doc["source"] = "run"
        doc["command"] = run.command_text
        doc["run"] = run_json(run)
    return doc


def render_json(results: list[TargetResult], findings: list[Finding], cwd: str | None = None, run: Any = None) -> str:
    return json.dumps(probe_document(results, findings, cwd, run), indent=2, allow_nan=False) + "\n"


def render_sarif(results: list[TargetResult], findings: list[Finding], root: str | None = None,
                 program: Any = None) -> str:
    """SARIF 2.1.0 through the shared SARIF writer; failed targets become tool
    execution notifications, the per-target summaries run properties."""
    root = root or os.getcwd()
    from compilelint.report import render

    text = render("sarif", findings, root=root)
    data = json.loads(text)
    run = data["runs"][0]
    props = run.setdefault("properties", {})
    props["probe"] = {"targets": [target_summary(r, root) for r in results]}
    if program is not None:  # `probe -- COMMAND`
        props["probe"].update(source="run", command=program.command_text, run=run_json(program))
    failed = [r for r in results if not r.ok]
    if failed:
        invs = run.setdefault("invocations", [{"executionSuccessful": True}])
        inv = invs[0]
        notes = inv.setdefault("toolExecutionNotifications", [])
        for r in failed:
            notes.append({
                "level": "error",
                "message": {"text": f"probe target {r.name}: target failed: {r.error}"},
                "descriptor": {"id": "probe-target-failed"},
            })
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------------------
# text
# --------------------------------------------------------------------------------------


def _fmt_ms(s: float | None) -> str:
    if s is None:
        return "—"
    ms = s * 1000
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3f}"


def fmt_bytes(n: int | None) -> str:
    if n is None:
        return "—"
    x = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(x) < 1024 or unit == "TiB":
            return f"{x:.0f} {unit}" if unit == "B" else f"{x:.1f} {unit}"
        x /= 1024
    return f"{n} B"


def _fmt_diff(x: float | None) -> str:
    if x is None:
        return "—"
    if isinstance(x, float) and (math.isinf(x) or math.isnan(x)):
        return str(x)
    return f"{x:.1e}" if x else "0"


def print_latency(console, t) -> None:
    """GPU: the per-call latency beside the throughput above; CPU: say they are one."""
    from rich.markup import escape

    if t.eager_latency is None:
        if t.device == "cpu":
            console.print("  [dim]CPU: a call returns when its work is done, so this per-call time is both "
                          "latency and throughput[/]")
        return
    parts = [f"eager {_fmt_ms(t.eager_latency.median_s)}"]
    for m in t.modes:
        if m.ok and m.latency:
            r = _ratio(t.eager_latency, m.latency)
            parts.append(f"{escape(m.mode)} {_fmt_ms(m.latency.median_s)} ({r:.2f}×)" if r else escape(m.mode))
    console.print(f"  latency ms (each call waited for): {', '.join(parts)}")
    console.print("  [dim]the table above is throughput (calls back to back, one synchronise at the end); "
                  "the worth-it verdict uses latency[/]")


def table_path(path: str, cwd: str | None = None) -> str:
    """A break's file as the text table shows it: relative to ``cwd``, or, for an
    installed library, from its package down (``transformers/models/…``): the absolute
    path into site-packages fills the column before the file name shows. JSON and SARIF
    keep :func:`display_path`."""
    shown = display_path(path, cwd)
    for marker in ("site-packages", "dist-packages"):
        head, sep, tail = shown.rpartition(os.sep + marker + os.sep)
        if sep and os.path.isabs(shown):
            return tail
    return shown


def render_text(results: list[TargetResult], findings: list[Finding], *, cwd: str | None = None,
                color: bool = False, width: int = 120, run: Any = None) -> str:
    from io import StringIO

    from rich.console import Console

    buf = StringIO()
    console = Console(file=buf, force_terminal=color, no_color=not color, width=width,
                      highlight=False, soft_wrap=False)
    print_text(console, results, findings, cwd=cwd, run=run)
    return buf.getvalue()


def print_text(console, results: list[TargetResult], findings: list[Finding], *, cwd: str | None = None,
               run: Any = None) -> None:
    from rich.markup import escape
    from rich.table import Table

    cwd = cwd or os.getcwd()
    if run is not None:
        print_run_header(console, run)
    for r in results:
        head = "[green]ok[/]" if r.ok else "[red]failed[/]"
        where = []
        if r.device_name or r.device:
            where.append(escape(r.device_name or r.device or ""))
        if r.torch_version:
            where.append(f"torch {escape(r.torch_version)}")
        console.print(f"[bold]{escape(r.name)}[/]  {head}" + (f"  ({', '.join(where)})" if where else ""))
        if not r.ok:
            console.print(f"  [red]target failed:[/] {escape(r.error or 'unknown error')}")
        if r.run:
            print_root_line(console, r)
        cap = r.capture
        if cap is not None:
            fg = ""
            if r.fullgraph_ok is True:
                fg = "fullgraph=True compiles"
            elif r.fullgraph_ok is False:
                fg = "fullgraph=True fails"
            bits = [f"{cap.graph_count} graph(s)", f"{cap.op_count} op(s)"]
            counts = {k: sum(1 for b in r.breaks if b.kind == k) for k in KIND_LABEL}
            bits += [f"{n} {KIND_LABEL[k]}{'s' if n != 1 else ''}" for k, n in counts.items()]
            if fg:
                bits.append(fg)
            console.print("  " + ", ".join(bits))
        if r.breaks:
            table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
            table.add_column("kind")
            table.add_column("where")
            table.add_column("id")
            table.add_column("reason", overflow="fold")
            for b in r.breaks:
                loc = f"{table_path(b.file, cwd)}:{b.line}" if b.file else "?"
                n = f" ×{b.count}" if b.count > 1 else ""
                n += " (first call only)" if b.first_call_only else ""
                table.add_row(KIND_LABEL.get(b.kind, b.kind) + n, escape(loc), b.gb_id or "", escape(b.reason))
            console.print(table)
        t = r.timing
        if t is not None:
            if t.device == "cpu":
                console.print(f"  [yellow]timed on CPU[/], not a GPU: {escape(t.device_name)}")
            else:
                console.print(f"  timed on {escape(t.device_name or t.device)}")
            mode_word = "forward + backward" if t.train else "forward (no_grad)"
            table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
            for col in ("mode", "eager ms", "compiled ms", "speedup", "compile s", "break-even",
                        "peak mem eager → compiled", "max abs Δ", "max rel Δ"):
                table.add_column(col, justify="right" if col != "mode" else "left", no_wrap=True)
            eager_ms = _fmt_ms(t.eager.median_s) if t.eager else "—"
            if t.eager and t.eager.spread:
                eager_ms += f" ±{t.eager.spread * 50:.0f}%"
            if t.eager_error:
                console.print(f"  [red]eager timing failed:[/] {escape(t.eager_error)}")
            for m in t.modes:
                if not m.ok:
                    table.add_row(escape(m.mode), eager_ms, "[red]failed[/]", "", "", "", "", "",
                                  escape((m.error or "")[:60]))
                    continue
                comp = _fmt_ms(m.stats.median_s) if m.stats else "—"
                if m.stats and m.stats.spread:
                    comp += f" ±{m.stats.spread * 50:.0f}%"
                sp = f"{m.speedup:.2f}×" if m.speedup else "—"
                be = "never" if m.never_breaks_even else (f"{m.break_even_calls:,} calls" if m.break_even_calls is not None else "—")
                mem = f"{fmt_bytes(t.eager_peak_mem_bytes)} → {fmt_bytes(m.peak_mem_bytes)}"
                table.add_row(escape(m.mode), eager_ms, comp, sp,
                              f"{m.compile_s:.2f}" if m.compile_s is not None else "—", be, mem,
                              _fmt_diff(m.max_abs_diff), _fmt_diff(m.max_rel_diff))
            console.print(table)
            mem = f"peak memory: {escape(t.memory_kind)}; " if t.memory_kind else ""
            n = t.eager.n if t.eager else t.runs
            k = t.eager.calls_per_sample if t.eager else 1
            per = f" (blocks of {k} calls)" if k > 1 else ""
            console.print(f"  [dim]{mode_word}; median of {n} timed samples{per} after warm-up, "
                          f"± half the interquartile range; {mem}Δ: compiled vs eager outputs[/]")
            print_latency(console, t)
            print_worth(console, r)
        print_what_if(console, r)
        print_regional(console, r)
        console.print()
    n_ok = sum(1 for r in results if r.ok)
    n_fail = len(results) - n_ok
    totals = {k: sum(1 for r in results for b in r.breaks if b.kind == k) for k in KIND_LABEL}
    parts = [f"{len(results)} target{'s' if len(results) != 1 else ''}: {n_ok} ok, {n_fail} failed"]
    parts += [f"{n} {KIND_LABEL[k]}{'s' if n != 1 else ''}" for k, n in totals.items()]
    console.print("; ".join(parts))
