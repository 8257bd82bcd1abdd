"""What the reports add for a probe of the user's program (`probe -- COMMAND`,
`check --probe` with ``run``): the command and how it ended, and per root its calls,
instances, input signatures and the program's calls eager vs compiled."""

from __future__ import annotations

from typing import Any

from compilelint.probe.roi_report import _num


def run_json(run: Any) -> dict[str, Any]:
    """The run as JSON reports carry it (``source: "run"`` and the command)."""
    d = run.to_dict()
    d["wall_s"] = _num(d.get("wall_s"))
    d["not_imported"] = [r for r in run.roots if r not in {t.target for t in run.results}]
    return d


def root_json(r: Any) -> dict[str, Any] | None:
    """A root's part of its target summary (None for a factory target)."""
    if not r.run:
        return None
    info = dict(r.run)
    prog = info.get("program")
    if prog:
        info["program"] = {k: _num(v) for k, v in prog.items()}
    info["qualified_name"] = r.target
    info["recompiles"] = [{"reason": b.reason, "line": b.line, "count": b.count}
                          for b in r.breaks if b.kind == "recompile"]
    return info


def ended(run: Any) -> str:
    if run.timed_out:
        return f"ended by the time limit after {run.wall_s:.1f} s"
    if run.returncode is None:
        return "did not start"
    if run.returncode < 0:
        return f"killed by signal {-run.returncode} after {run.wall_s:.1f} s"
    return f"exit status {run.returncode} after {run.wall_s:.1f} s"


def print_run_header(console: Any, run: Any) -> None:
    from rich.markup import escape

    ok = run.returncode == 0 and not run.timed_out
    mark = "[green]" if ok else "[red]"
    console.print(f"[bold]ran[/] {escape(run.command_text)}: {mark}{ended(run)}[/]"
                  + (f"  (torch {escape(run.torch_version)}, {escape(run.device or '?')})" if run.torch_version else ""))
    imported = {t.target for t in run.results}
    missing = [r for r in run.roots if r not in imported]
    if missing:
        console.print(f"  [dim]not imported by the program: {escape(', '.join(missing))}[/]")
    for err in run.errors:
        console.print(f"  [yellow]probe:[/] {escape(err)}")
    console.print()


def print_root_line(console: Any, r: Any) -> None:
    """Calls and instances, and the timing's input (under the root's name)."""
    from rich.markup import escape

    info = r.run or {}
    calls = info.get("calls", 0)
    if not calls and info.get("user_compiled"):
        console.print(f"  compiled by the program itself ({info['user_compiled']} calls): its breaks are "
                      "listed under the program's own torch.compile")
        return
    if not calls:
        console.print("  [dim]imported, never called from outside a compiled root (inside one it is part "
                      "of that root's graphs; its findings' verdicts come from the runs of its file)[/]")
        return
    sigs = info.get("input_signatures") or []
    line = f"  {calls} call{'s' if calls != 1 else ''}, {info.get('instances', 0)} instance(s)"
    if sigs:
        line += f", {len(sigs)} input signature(s)"
    console.print(line)
    if info.get("replay_signature"):
        console.print(f"  [dim]timed by replaying ({escape(info['replay_signature'])}), the input of "
                      f"{info.get('replay_calls')} of its {calls} calls, after the program ended[/]")
    if info.get("replay_error"):
        console.print(f"  [red]replay failed:[/] {escape(info['replay_error'])}")
    prog = info.get("program")
    if prog:
        verdict = "saves time" if prog["saves"] else "costs time"
        console.print(f"  over the program's {prog['calls']} calls: eager {_secs(prog['eager_s'])} vs compiled "
                      f"{_secs(prog['compiled_s'])} ({prog['compiles']} compile(s)): compiling {verdict}")


def _secs(s: float) -> str:
    return f"{s:.2f} s" if s >= 1 else f"{s * 1000:.3g} ms"
