"""`compilelint probe [--module PKG.MOD:CLASS]... -- COMMAND [ARGS]...`: the command
line's side of probing the user's program (:mod:`compilelint.probe.run_check`)."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

from compilelint.probe.program import DEFAULT_RUN_TIMEOUT


def probe_command(command: list[str], *, modules=(), timeout: float | None = None, timing: bool = True,
                  backend: str | None = None, fmt: str = "text", output: str | None = None,
                  color: bool | None = None, write: Callable[[str, str | None], None],
                  usage_error: type[Exception], cwd: str | None = None) -> int:
    """Run the command (in ``cwd``) under the probe and write the report; the exit code
    (0: nothing seen and the program succeeded, 1: breaks, recompiles, fallbacks or a
    failed program)."""
    from compilelint.probe import output as out
    from compilelint.probe.roots import RootError
    from compilelint.probe.run_check import choose_roots, probe_program, static_findings

    if not command:
        raise usage_error("`--` must be followed by the command to run, e.g. -- python train.py")
    findings, _root = static_findings(cwd or os.getcwd())
    try:
        roots = choose_roots(findings, modules)
    except RootError as exc:
        raise usage_error(str(exc)) from None
    if not roots:
        raise usage_error("no roots: the static pass found nothing inside a class or function here; "
                          "name what to compile with --module package.module:Class")
    print(f"compilelint: probing {' '.join(command)} with {len(roots)} root(s) compiled in place: "
          f"{', '.join(roots)}", file=sys.stderr)
    # a JSON or SARIF report on stdout keeps stdout to itself: the program's output goes to stderr
    program_out = sys.stderr if fmt != "text" and output in (None, "-") else None
    run, extra = probe_program(command, findings, modules=roots, timing=timing, cwd=cwd,
                               timeout=timeout or DEFAULT_RUN_TIMEOUT, backend=backend or "inductor",
                               stdout=program_out)
    shown = sorted([*(f for f in findings if f.evidence), *extra], key=lambda f: f.sort_key())
    cwd = os.getcwd()
    if fmt == "json":
        text = out.render_json(run.results, shown, cwd, run=run)
    elif fmt == "sarif":
        text = out.render_sarif(run.results, shown, root=cwd, program=run)
    else:
        use_color = (sys.stdout.isatty() and output is None) if color is None else color
        text = out.render_text(run.results, shown, cwd=cwd, color=use_color, run=run)
        text += _verdict_lines(shown, cwd)
    write(text, output)
    seen = any(r.breaks or not r.ok for r in run.results)
    return 1 if (seen or run.returncode != 0 or run.timed_out or extra) else 0


def _verdict_lines(findings: list[Any], cwd: str) -> str:
    """The static findings' verdicts, one line each (the text report)."""
    from compilelint.probe.match import verdict_counts

    lines = [f"{f.path}:{f.line}: {f.code} {(f.evidence or {}).get('status', '')}" for f in findings
             if not f.code.startswith("CL9")]
    if not lines:
        return ""
    counts = ", ".join(f"{n} {k}" for k, n in verdict_counts(findings).items() if n and k != "none")
    return "\nstatic findings in the modules that ran:\n" + "\n".join(lines) + f"\n({counts})\n"
