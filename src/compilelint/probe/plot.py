"""Eager vs compiled latency per target and mode, as a picture.

``.svg``: a self-contained SVG; ``.html``: a self-contained page holding that SVG and
a table of the numbers; ``.png``: through matplotlib when it is installed (it is not
a dependency). No network, no scripts, no external fonts.
"""

from __future__ import annotations

import html
import os
from typing import Any

from compilelint.probe.runner import TargetResult


class PlotError(ValueError):
    """The plot cannot be written (unknown extension, PNG without matplotlib)."""


EAGER_COLOR = "#8c8c8c"
WHAT_IF_COLOR = "#bcbd22"
MODE_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#d62728", "#17becf"]


def _rows(results: list[TargetResult]) -> list[dict[str, Any]]:
    """One group per target: eager plus each mode (median and interquartile range)."""
    groups = []
    for r in results:
        t = r.timing
        bars = []
        if t is not None and t.eager is not None:
            bars.append({"label": "eager", "median": t.eager.median_s, "p25": t.eager.p25_s,
                         "p75": t.eager.p75_s, "color": EAGER_COLOR, "note": ""})
            for i, m in enumerate(t.modes):
                color = MODE_COLORS[i % len(MODE_COLORS)]
                if m.ok and m.stats is not None:
                    note = f"{m.speedup:.2f}×" if m.speedup else ""
                    bars.append({"label": f"compiled ({m.mode})", "median": m.stats.median_s,
                                 "p25": m.stats.p25_s, "p75": m.stats.p75_s, "color": color, "note": note})
                else:
                    bars.append({"label": f"compiled ({m.mode})", "median": None, "p25": None, "p75": None,
                                 "color": color, "note": "failed"})
        for w in r.what_if:  # what-if re-timing: median only (no spread kept)
            ok = w.status == "ok" and w.median_s is not None
            note = (f"{w.speedup_vs_compiled:.2f}× vs compiled" + ("" if w.outputs_match else ", outputs differ")
                    if ok else w.status)
            bars.append({"label": f"what if {w.knob}", "median": w.median_s if ok else None, "p25": None,
                         "p75": None, "color": WHAT_IF_COLOR, "note": note})
        status = "" if r.ok else f"target failed: {r.error or ''}"
        if t is None and r.ok:
            status = "not timed"
        device = (t.device_name if t else r.device_name) or ""
        groups.append({"name": r.name, "bars": bars, "status": status, "device": device})
    return groups


def _fmt_ms(s: float) -> str:
    ms = s * 1000
    return f"{ms:.3g} ms"


def render_svg(results: list[TargetResult], *, title: str = "compilelint probe: eager vs compiled latency") -> str:
    groups = _rows(results)
    left, right, top = 300, 150, 56
    bar_h, gap, group_gap = 18, 4, 34
    plot_w = 460
    width = left + plot_w + right
    y = top
    parts: list[str] = []
    esc = html.escape
    for g in groups:
        parts.append(f'<text x="12" y="{y + 4}" class="target">{esc(g["name"])}</text>')
        sub = g["device"] or ""
        if sub:
            parts.append(f'<text x="{width - 12}" y="{y + 4}" class="device" text-anchor="end">{esc(sub)}</text>')
        y += 14
        if g["status"] and not g["bars"]:
            parts.append(f'<text x="{left}" y="{y + 13}" class="fail">{esc(g["status"][:110])}</text>')
            y += bar_h + group_gap
            continue
        vmax = max([b["p75"] or b["median"] or 0 for b in g["bars"]] + [1e-12])
        # each target gets its own scale (latencies differ by orders of magnitude)
        scale = plot_w / (vmax * 1.05)
        parts.append(f'<line x1="{left}" y1="{y}" x2="{left}" y2="{y + len(g["bars"]) * (bar_h + gap)}" class="axis"/>')
        for b in g["bars"]:
            parts.append(f'<text x="{left - 8}" y="{y + bar_h - 5}" class="label" text-anchor="end">{esc(b["label"])}</text>')
            if b["median"] is None:
                parts.append(f'<text x="{left + 6}" y="{y + bar_h - 5}" class="fail">{esc(b["note"])}</text>')
            else:
                w = max(1.0, b["median"] * scale)
                parts.append(
                    f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{b["color"]}">'
                    f'<title>{esc(b["label"])}: median {_fmt_ms(b["median"])}</title></rect>'
                )
                if b["p25"] is not None and b["p75"] is not None:
                    x1, x2 = left + b["p25"] * scale, left + b["p75"] * scale
                    cy = y + bar_h / 2
                    parts.append(f'<line x1="{x1:.1f}" y1="{cy}" x2="{x2:.1f}" y2="{cy}" class="iqr"/>')
                    parts.append(f'<line x1="{x1:.1f}" y1="{cy - 4}" x2="{x1:.1f}" y2="{cy + 4}" class="iqr"/>')
                    parts.append(f'<line x1="{x2:.1f}" y1="{cy - 4}" x2="{x2:.1f}" y2="{cy + 4}" class="iqr"/>')
                end = max(w, (b["p75"] or 0) * scale)
                value = esc(_fmt_ms(b["median"]))
                if b["note"]:
                    value += f'  <tspan class="speed">{esc(b["note"])}</tspan>'
                parts.append(f'<text x="{left + end + 6:.1f}" y="{y + bar_h - 5}" class="value">{value}</text>')
            y += bar_h + gap
        if g["status"]:
            parts.append(f'<text x="{left}" y="{y + 12}" class="fail">{esc(g["status"][:110])}</text>')
            y += 16
        y += group_gap - gap
    height = y + 24
    legend = ("median latency per call (lower is better); whiskers: interquartile range; "
              "speedup = eager median / compiled median; what if: a Dynamo knob on; each target on its own scale")
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}">',
        "<style>"
        "text{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:12px;fill:#222}"
        ".title{font-size:16px;font-weight:600}.target{font-size:13px;font-weight:600}"
        ".device,.legend{fill:#666;font-size:11px}.value{fill:#333}.fail{fill:#c0392b}"
        ".speed{font-weight:600}.axis{stroke:#999;stroke-width:1}.iqr{stroke:#111;stroke-width:1.2}"
        "</style>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="12" y="24" class="title">{esc(title)}</text>',
        f'<text x="12" y="42" class="legend">{esc(legend)}</text>',
        *parts,
        "</svg>",
    ]
    return "\n".join(svg) + "\n"


def render_html(results: list[TargetResult]) -> str:
    esc = html.escape
    rows = []
    for r in results:
        t = r.timing
        if t is None or t.eager is None:
            rows.append(f"<tr><td>{esc(r.name)}</td><td colspan='5'>{esc(r.error or 'not timed')}</td></tr>")
            continue
        for m in t.modes:
            comp = f"{m.stats.median_s * 1000:.4g}" if (m.ok and m.stats) else "failed"
            sp = f"{m.speedup:.2f}×" if m.speedup else "—"
            ce = f"{m.compile_s:.2f}" if m.compile_s is not None else "—"
            be = "never" if m.never_breaks_even else (str(m.break_even_calls) if m.break_even_calls is not None else "—")
            rows.append(
                f"<tr><td>{esc(r.name)}</td><td>{esc(m.mode)}</td><td>{t.eager.median_s * 1000:.4g}</td>"
                f"<td>{comp}</td><td>{sp}</td><td>{ce}</td><td>{be}</td><td>{esc(t.device_name)}</td></tr>"
            )
    table = (
        "<table><thead><tr><th>target</th><th>mode</th><th>eager ms</th><th>compiled ms</th>"
        "<th>speedup</th><th>compile s</th><th>break-even calls</th><th>device</th></tr></thead><tbody>"
        + "".join(rows) + "</tbody></table>"
    )
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<title>compilelint probe</title><style>"
        "body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;margin-top:16px}td,th{border:1px solid #ddd;padding:4px 8px;"
        "text-align:right}td:first-child,th:first-child,td:nth-child(2){text-align:left}"
        "</style></head><body>\n" + render_svg(results) + table + "\n</body></html>\n"
    )


def render_png(results: list[TargetResult], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("a PNG plot needs matplotlib (pip install matplotlib); "
                        "or write a self-contained .svg or .html instead") from None
    groups = [g for g in _rows(results) if g["bars"]]
    n = max(1, len(groups))
    fig, axes = plt.subplots(n, 1, figsize=(8, 1.2 + 0.5 * sum(len(g["bars"]) for g in groups) + 0.3 * n),
                             squeeze=False)
    for ax, g in zip(axes[:, 0], groups):
        labels = [b["label"] for b in g["bars"]]
        vals = [(b["median"] or 0) * 1000 for b in g["bars"]]
        ax.barh(labels, vals, color=[b["color"] for b in g["bars"]])
        ax.invert_yaxis()
        ax.set_title(g["name"], loc="left", fontsize=10)
        ax.set_xlabel("median ms per call")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_plot(results: list[TargetResult], path: str) -> None:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".svg":
        text = render_svg(results)
    elif ext in (".html", ".htm"):
        text = render_html(results)
    elif ext == ".png":
        render_png(results, path)
        return
    else:
        raise PlotError(f"--plot {path}: use a .svg, .html or .png file")
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
