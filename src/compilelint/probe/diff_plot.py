"""`probe diff --plot FILE.svg|.html`: per target, breaks and recompiles before and
after, and the speedup before and after, in the style of :mod:`compilelint.probe.plot`
(self-contained, no scripts, no network)."""

from __future__ import annotations

import html
import os
from typing import Any

from compilelint.probe.plot import EAGER_COLOR, MODE_COLORS, PlotError

OLD_COLOR, NEW_COLOR = EAGER_COLOR, MODE_COLORS[0]
STYLE = ("<style>text{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:12px;fill:#222}"
         ".title{font-size:16px;font-weight:600}.target{font-size:13px;font-weight:600}"
         ".legend,.head{fill:#666;font-size:11px}.value{fill:#333}.fail{fill:#c0392b}.axis{stroke:#999}</style>")


def render_svg(diff: dict[str, Any]) -> str:
    esc = html.escape
    left, col_w, top, bar_h, gap = 260, 300, 74, 14, 3
    count_x, speed_x = left, left + col_w + 40
    width = speed_x + col_w + 60
    rows = [t for t in diff["targets"] if t["change"] in ("changed", "same")]
    count_max = max([sum(t["counts"][k][s] for k in ("graph_break", "frame_skip")) for t in rows for s in (0, 1)]
                    + [t["counts"]["recompile"][s] for t in rows for s in (0, 1)] + [1])
    speed_max = max([s for t in rows for s in t["speedup"] if s] + [1.0])
    parts = [f'<text x="{count_x}" y="{top - 10}" class="head">graph breaks + frame skips, recompiles</text>',
             f'<text x="{speed_x}" y="{top - 10}" class="head">speedup of the best mode (1.0× marked)</text>']
    y = top
    for t in rows:
        parts.append(f'<text x="12" y="{y + 12}" class="target">{esc(t["name"] or "")}</text>')
        if t["status"][0] != t["status"][1]:
            change = f"{t['status'][0]} → {t['status'][1]}"
            parts.append(f'<text x="12" y="{y + 28}" class="fail">{esc(change)}</text>')
        brk = [sum(t["counts"][k][s] for k in ("graph_break", "frame_skip")) for s in (0, 1)]
        rec = t["counts"]["recompile"]
        yy = y
        for label, pair in (("breaks", brk), ("recompiles", rec)):
            for s, color in ((0, OLD_COLOR), (1, NEW_COLOR)):
                w = pair[s] / count_max * (col_w - 40)
                parts.append(f'<rect x="{count_x}" y="{yy}" width="{max(w, 0.5):.1f}" height="{bar_h}" '
                             f'fill="{color}"><title>{label} {"old" if s == 0 else "new"}: {pair[s]}</title></rect>')
                parts.append(f'<text x="{count_x + w + 4:.1f}" y="{yy + bar_h - 3}" class="value">'
                             f'{pair[s]} {label}</text>')
                yy += bar_h + gap
        yy = y
        one = speed_x + 1.0 / speed_max * (col_w - 50)
        for s, color in ((0, OLD_COLOR), (1, NEW_COLOR)):
            value = t["speedup"][s]
            if value:
                w = value / speed_max * (col_w - 50)
                parts.append(f'<rect x="{speed_x}" y="{yy}" width="{w:.1f}" height="{bar_h}" fill="{color}"/>')
                parts.append(f'<text x="{speed_x + w + 4:.1f}" y="{yy + bar_h - 3}" class="value">{value:.2f}×</text>')
            else:
                parts.append(f'<text x="{speed_x + 4}" y="{yy + bar_h - 3}" class="legend">not timed</text>')
            yy += bar_h + gap
        parts.append(f'<line x1="{one:.1f}" y1="{y - 2}" x2="{one:.1f}" y2="{y + 2 * (bar_h + gap)}" class="axis"/>')
        y += 4 * (bar_h + gap) + 18
    others = [t for t in diff["targets"] if t["change"] in ("added", "removed")]
    for t in others:
        where = "new" if t["change"] == "added" else "old"
        parts.append(f'<text x="12" y="{y + 12}" class="legend">{esc(t["name"] or "")}: only in the {where} run</text>')
        y += 18
    height = y + 20
    old, new = diff["old"], diff["new"]
    title = f"compilelint probe diff: {old['file']} → {new['file']}"
    legend = (f"grey: old ({', '.join(old['torch']) or 'torch ?'}); blue: new ({', '.join(new['torch']) or 'torch ?'}); "
              "fewer breaks and a higher speedup are better")
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{esc(title)}">', STYLE,
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="12" y="24" class="title">{esc(title)}</text>',
        f'<text x="12" y="42" class="legend">{esc(legend)}</text>', *parts, "</svg>"]) + "\n"


def render_html(diff: dict[str, Any], text: str) -> str:
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>compilelint probe diff</title>"
            "<style>body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px;color:#222}"
            "pre{background:#f6f6f6;padding:12px}</style></head><body>\n" + render_svg(diff)
            + f"<pre>{html.escape(text)}</pre>\n</body></html>\n")


def write_plot(diff: dict[str, Any], path: str, text: str) -> None:
    from compilelint.atomic import write_text

    ext = os.path.splitext(path)[1].lower()
    if ext == ".svg":
        body = render_svg(diff)
    elif ext in (".html", ".htm"):
        body = render_html(diff, text)
    else:
        raise PlotError(f"--plot {path}: use a .svg or .html file for a diff")
    write_text(path, body, make_folder=True)
