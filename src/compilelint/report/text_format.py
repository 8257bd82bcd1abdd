"""The default, for people: each finding with its source line and a caret, then a summary."""

from __future__ import annotations

import io
from collections import Counter

from rich.console import Console
from rich.markup import escape

COLOURS = {"error": "bold red", "warning": "bold yellow", "note": "bold cyan"}
SEVERITY_ORDER = {"error": 0, "warning": 1, "note": 2}


def _source_line(path: str, line: int, cache: dict) -> str | None:
    if path not in cache:
        try:
            from compilelint.source import read

            cache[path] = read(path).text.splitlines()
        except Exception:
            cache[path] = None
    lines = cache[path]
    if lines is None or not 0 < line <= len(lines):
        return None
    return lines[line - 1].expandtabs(4) if "\t" not in lines[line - 1] else lines[line - 1].replace("\t", " ")


def render(findings, *, color: bool = False, files: int = 0, width: int = 100, **context) -> str:
    buffer = io.StringIO()
    # (emoji off: rich would read `file.py:100:9` as the `:100:` emoji code)
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width,
                      highlight=False, soft_wrap=True, emoji=False)
    # `sources`: texts that are not (or not as) on disk, such as `check --stdin-filename`'s
    cache: dict = {path: text.splitlines() for path, text in (context.get("sources") or {}).items()}
    for f in findings:
        lines = _finding_lines(f, _source_line(f.path, f.line, cache), COLOURS.get(f.severity, "bold"))
        if color:
            console.print("\n".join(markup for markup, _ in lines))
        else:  # (no styles to render: skip rich's markup pass, most of a warm run's time)
            buffer.write("\n".join(plain for _, plain in lines) + "\n")
        console.print()
    probe = context.get("probe")
    if probe and probe.get("targets"):
        _probe_table(console, probe)
    if findings:
        severities = Counter(f.severity for f in findings)
        order = sorted(severities, key=lambda s: (SEVERITY_ORDER.get(s, len(SEVERITY_ORDER)), s))
        parts = ", ".join(f"{severities[s]} {s}{'s' if severities[s] != 1 else ''}" for s in order)
        console.print(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({parts}) in {files} file{'s' if files != 1 else ''} checked.")
    else:
        console.print(f"[green]All checks passed![/] ({files} file{'s' if files != 1 else ''} checked)")
    return buffer.getvalue()


def _finding_lines(f, text: str | None, colour: str) -> list[tuple[str, str]]:
    """(markup, plain text) of each line a finding prints: its header, the source line with a
    caret under the span, the help and the probe's evidence."""
    lines = [(f"[bold]{escape(f.path)}[/]:{f.line}:{f.col}: [{colour}]{f.code}[/] "
              f"[{colour}]{f.severity}[/]: {escape(f.message)}",
              f"{f.path}:{f.line}:{f.col}: {f.code} {f.severity}: {f.message}")]
    if text is not None:
        gutter = str(f.line)
        pad = " " * len(gutter)
        span = 1
        if f.end_line == f.line and f.end_col and f.end_col > f.col:
            span = f.end_col - f.col
        elif f.end_line and f.end_line > f.line:  # a multi-line span: underline to the end of the line
            span = max(1, len(text.rstrip()) - (f.col - 1))
        indent, carets = " " * (f.col - 1), "^" * max(1, span)
        lines += [(f"[blue]{pad} |[/]", f"{pad} |"),
                  (f"[blue]{gutter} |[/] {escape(text)}", f"{gutter} | {text}"),
                  (f"[blue]{pad} |[/] {indent}[{colour}]{carets}[/]", f"{pad} | {indent}{carets}")]
    if f.help:
        lines.append((f"  [cyan]help[/]: {escape(f.help)}", f"  help: {f.help}"))
    if f.evidence:
        status, reason = str(f.evidence.get("status", "")), str(f.evidence.get("reason", "") or "")
        lines.append((f"  [magenta]probe[/]: {escape(status)} {escape(reason)}", f"  probe: {status} {reason}"))
    return lines


def _probe_table(console: Console, probe: dict) -> None:
    """`check --probe`: one line per probe target, then the findings' summary."""
    console.print("[bold]probe[/]")
    run = probe.get("run")
    if run:  # [tool.compilelint.probe] run: the user's program
        how = ("ended by the time limit" if run.get("timed_out") else f"exit status {run.get('returncode')}")
        console.print(f"  ran {escape(str(run.get('command')))}: {escape(how)} after {run.get('wall_s')} s")
        if run.get("not_imported"):
            console.print(f"  [dim]not imported by the program: {escape(', '.join(run['not_imported']))}[/]")
    for target in probe["targets"]:
        counts = target.get("counts") or {}
        breaks = ", ".join(f"{n} {kind.replace('_', ' ')}{'s' if n != 1 else ''}"
                           for kind, n in counts.items() if n) or "no breaks"
        graphs = target.get("graph_count")
        where = target.get("device") or ""
        status = target.get("status", "")
        colour = "green" if status == "ok" else "red"
        line = f"  {escape(str(target.get('name', '')))}: [{colour}]{escape(str(status))}[/]"
        if graphs is not None:
            line += f", {graphs} graph{'s' if graphs != 1 else ''}"
        line += f", {escape(breaks)}"
        if where:
            line += f" ({escape(str(where))})"
        if target.get("error"):
            line += f" — {escape(str(target['error']))}"
        console.print(line)
    console.print()
