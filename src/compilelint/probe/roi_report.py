"""The what-if re-timing (Dynamo knobs, regional compilation) and the worth-it verdicts in the
reports (JSON, text, SARIF)."""

from __future__ import annotations

import math
from typing import Any

from compilelint.probe.knobs import knob_for
from compilelint.probe.worth import best, sentence


def _num(x: Any) -> Any:
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return str(x)
        return float(f"{x:.6g}")
    return x


def what_if_json(r: Any) -> list[dict[str, Any]]:
    """A target's what-if entries as the JSON report shows them."""
    return [what_if_entry(w) for w in r.what_if]


def what_if_entry(w: Any) -> dict[str, Any]:
    return {
        "knob": w.knob,
        "mode": w.mode,
        "status": w.status,
        "error": w.error,
        "breaks_before": w.breaks_before,
        "breaks_after": w.breaks_after,
        "breaks_removed": w.breaks_removed,
        "median_ms": _num(w.median_s * 1000) if w.median_s is not None else None,
        "compile_s": _num(w.compile_s),
        "speedup_vs_compiled": _num(w.speedup_vs_compiled),
        "speedup_vs_eager": _num(w.speedup_vs_eager),
        "outputs_match": w.outputs_match,
        "max_abs_diff": _num(w.max_abs_diff),
        "max_rel_diff": _num(w.max_rel_diff),
    }


def worth_json(v: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if v is None else {k: _num(x) for k, x in v.items()}


def target_worth(r: Any) -> dict[str, Any] | None:
    """The target's verdict: its best mode's (see :func:`compilelint.probe.worth.best`)."""
    t = r.timing
    if t is None:
        return None
    return worth_json(best({m.mode: m.worth_it for m in t.modes}))


def print_worth(console, r: Any) -> None:
    from rich.markup import escape

    v = target_worth(r)
    if v is None:
        return
    colour = "green" if v["verdict"] == "worth-it" else "yellow"
    console.print(f"  [{colour}]{escape(sentence(v))}[/] [dim](best mode: {escape(v['mode'])})[/]")


def print_what_if(console, r: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    if r.what_if_error:
        console.print(f"  [red]what-if failed:[/] {escape(r.what_if_error)}")
    if not r.what_if:
        return
    console.print(f"  what if (each class of break removed by a Dynamo knob; mode {escape(r.what_if[0].mode)}):")
    table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
    for col in ("knob", "breaks removed", "compiled ms", "vs compiled", "vs eager", "outputs"):
        table.add_column(col, justify="left" if col in ("knob", "outputs") else "right", no_wrap=col != "outputs",
                         overflow="fold")
    for w in r.what_if:
        if w.status != "ok":
            table.add_row(escape(w.knob), _removed(w), f"[red]{escape(w.status)}[/]", "", "", escape(w.error or ""))
            continue
        match = "match eager" if w.outputs_match else f"[red]{escape(w.error or 'differ')}[/]"
        table.add_row(escape(w.knob), _removed(w), f"{w.median_s * 1000:.3g}", f"{w.speedup_vs_compiled:.2f}×",
                      f"{w.speedup_vs_eager:.2f}×", match)
    console.print(table)


def _removed(w: Any) -> str:
    if w.breaks_removed is None:
        return "—"
    return f"{w.breaks_removed} of {w.breaks_before}"


def attach_what_if(findings: list, results: list) -> None:
    """Put on each confirmed finding the what-if entry of the knob that removes its
    break (``evidence["what_if"]``): JSON and SARIF carry it."""
    by_target = {r.name: {w.knob: w for w in r.what_if} for r in results if r.what_if}
    if not by_target:
        return
    for f in findings:
        ev = f.evidence or {}
        if ev.get("status") != "confirmed" or ev.get("target") not in by_target:
            continue
        knob = knob_for(ev.get("kind") or "graph_break", ev.get("reason"), ev.get("gb_id"))
        w = by_target[ev["target"]].get(knob) if knob else None
        if w is not None:
            ev["what_if"] = {k: v for k, v in what_if_entry(w).items()
                             if k in ("knob", "status", "breaks_removed", "median_ms", "speedup_vs_compiled",
                                      "speedup_vs_eager", "outputs_match")}



def regional_json(r: Any) -> dict[str, Any] | None:
    """Compiling each repeated block vs the whole module, as the JSON report shows it."""
    g = r.regional
    if g is None:
        return None

    def side(which: str) -> dict[str, Any]:
        median, latency = getattr(g, f"{which}_median_s"), getattr(g, f"{which}_latency_s")
        return {"compile_s": _num(getattr(g, f"{which}_compile_s")),
                "median_ms": None if median is None else _num(median * 1000),
                "latency_median_ms": None if latency is None else _num(latency * 1000),
                "speedup_vs_eager": _num(g.speedup(which)),
                "max_rel_diff": _num(getattr(g, f"{which}_max_rel_diff")),
                "outputs_match": getattr(g, f"{which}_outputs_match")}

    return {
        "status": g.status,
        "error": g.error,
        "mode": g.mode,
        "stacks": [s.to_dict() for s in g.stacks],
        "blocks": g.blocks,
        "eager_median_ms": None if g.eager_median_s is None else _num(g.eager_median_s * 1000),
        "whole": side("whole"),
        "regional": side("regional"),
        "compile_saved_s": _num(g.compile_saved_s),
        "regional_vs_whole": _num(g.regional_vs_whole),
    }


def print_regional(console, r: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    if r.regional_error:
        console.print(f"  [red]regional compilation failed:[/] {escape(r.regional_error)}")
    g = r.regional
    if g is None:
        return
    where = ", ".join(f"{s.count} × {s.block_class.rsplit('.', 1)[-1]} in {s.path or '(the module)'}"
                      for s in g.stacks)
    console.print(f"  regional compilation (each block compiled: {escape(where)}; mode {escape(g.mode)}):")
    if g.status != "ok":
        console.print(f"    [red]{escape(g.status)}[/] {escape(g.error or '')}")
    table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
    for col in ("compiled", "compile s", "ms/call", "vs eager", "outputs"):
        table.add_column(col, justify="left" if col in ("compiled", "outputs") else "right",
                         no_wrap=col != "outputs", overflow="fold")
    for which, label in (("whole", "whole module"), ("regional", "each block")):
        compile_s, median = getattr(g, f"{which}_compile_s"), getattr(g, f"{which}_median_s")
        if median is None:
            continue
        rel = getattr(g, f"{which}_max_rel_diff")
        out = ("match eager" if getattr(g, f"{which}_outputs_match")
               else f"[red]differ (max rel Δ {'?' if rel is None else f'{rel:.1e}'})[/]")
        sp = g.speedup(which)
        table.add_row(label, "—" if compile_s is None else f"{compile_s:.1f}", f"{median * 1000:.3g}",
                      f"{sp:.2f}×" if sp else "—", out)
    if table.row_count:
        console.print(table)
    if g.compile_saved_s is not None and g.regional_vs_whole is not None:
        verb = "saves" if g.compile_saved_s >= 0 else "costs"
        console.print(f"    [dim]compiling each block {verb} {abs(g.compile_saved_s):.1f} s of compile; its calls run "
                      f"at {g.regional_vs_whole:.2f}× the whole module's speed (a cold cache for each)[/]")
