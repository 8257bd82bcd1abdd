"""The command line: `compilelint check | rules | rule | probe`."""

from __future__ import annotations

import sys
from collections import Counter

import click

from compilelint import __version__

FORMATS = ("text", "concise", "json", "sarif", "github")


class Failure(click.ClickException):
    """An error the user can fix: printed plainly, exit 2 (config, usage)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"compilelint: error: {self.message}", err=True)


def write_output(text: str, output: str | None) -> None:
    """To stdout, or atomically to a file so an interrupted run leaves the old one intact."""
    if output is None or output == "-":
        _to_stdout(text)
        return
    from compilelint.atomic import write_text

    try:
        # backslashreplace: a file name that is not valid UTF-8 must not stop the report
        write_text(output, text, errors="backslashreplace", make_folder=True)
    except OSError as exc:
        raise Failure(f"cannot write {output}: {exc.strerror or exc}") from None


def _to_stdout(text: str) -> None:
    """Write to stdout; characters it cannot encode (a file name that is not valid UTF-8,
    a terminal that is not UTF-8) are escaped rather than ending the run."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        data = text.encode(encoding, "backslashreplace")
        if buffer is not None:
            buffer.write(data)
        else:
            sys.stdout.write(data.decode(encoding, "replace"))
    sys.stdout.flush()


def _codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


class LazyGroup(click.Group):
    """Commands with heavy imports load only when called: `check` stays fast."""

    lazy = {"probe": "compilelint.probe.cli:probe", "server": "compilelint.server:server_command",
            "daemon": "compilelint.daemon.commands:daemon"}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx, name):
        if name in self.lazy:
            import importlib

            module, _, attr = self.lazy[name].partition(":")
            try:
                return getattr(importlib.import_module(module), attr)
            except ImportError:
                return None
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="compilelint")
def main() -> None:
    """Find where PyTorch code falls out of torch.compile's graph, recompiles, or misuses
    the compile API: statically (`check`), and on a GPU box dynamically (`probe`)."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "--output-format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True, help="Report format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to a file.")
@click.option("--select", help="Comma-separated codes or prefixes to enable (replaces the config's).")
@click.option("--ignore", help="Comma-separated codes or prefixes to disable.")
@click.option("--extend-select", help="Codes or prefixes to enable on top of `select`.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Use this pyproject.toml instead of the nearest one.")
@click.option("--target-torch", help="The torch release the code runs on (default: the installed one).")
@click.option("--target-python", help="The Python release the code runs on (default: the one running the check).")
@click.option("--roots", type=click.Choice(["modules", "explicit"]),
              help="Compiled regions start at every nn.Module.forward, or only at explicit torch.compile uses.")
@click.option("--force-exclude", is_flag=True, default=None,
              help="Apply excludes to files passed by name too (for pre-commit).")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where the cache lives (default .compilelint_cache/ in the project root).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Processes to check files in (default: the number of cores).")
@click.option("--color/--no-color", default=None, help="Colour the text report (default: when writing to a terminal).")
@click.option("--probe", "with_probe", is_flag=True,
              help="Then run the probe targets from [tool.compilelint.probe] and merge their evidence.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False),
              help="Record the current findings in this baseline file (then exit 0).")
@click.option("--fix", is_flag=True, help="Apply the safe fixes (rules marked in `compilelint rules`), then report what is left.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print the safe fixes as a unified diff and change nothing (exit 1 if there are any).")
@click.option("--stdin-filename", type=click.Path(dir_okay=False),
              help="Check the source read from stdin as this file: its settings, per-file-ignores and "
                   "(with --force-exclude) excludes apply. PATHS: `-` or none.")
def check(paths, fmt, output, select, ignore, extend_select, config_file, target_torch, target_python, roots,
          force_exclude, statistics, exit_zero, no_cache, cache_dir, jobs, color, with_probe,
          baseline_file=None, write_baseline=None, fix=False, show_diff=False, stdin_filename=None) -> None:
    """Check PATHS (files or folders; default: the current folder) for torch.compile hazards."""
    from compilelint import config as config_mod
    from compilelint.engine import check as run_check

    if stdin_filename is not None and (set(paths) - {"-"} or fix or show_diff or write_baseline or with_probe):
        raise Failure("--stdin-filename checks the source on stdin: pass `-` (or no PATHS), "
                      "and neither --fix, --diff, --write-baseline nor --probe")
    try:
        settings = config_mod.load(
            config_file, start=_folder_of(stdin_filename), select=_codes(select), ignore=_codes(ignore),
            extend_select=_codes(extend_select), target_torch=target_torch, target_python=target_python,
            roots=roots, force_exclude=force_exclude,
        )
    except config_mod.ConfigError as exc:
        raise Failure(str(exc)) from None
    target = config_mod.resolve_torch(settings)
    if target.notice:  # a newer torch than the knowledge is confirmed on: said, not an error
        click.echo(f"compilelint: notice: {target.notice}", err=True)
    analyzer = None
    try:
        from compilelint import parallel
    except ImportError:
        parallel = None
    if parallel is not None:
        analyzer = parallel.make_analyzer(jobs=jobs, cache=not no_cache, cache_dir=cache_dir)
    sources = None
    if stdin_filename is not None:
        from compilelint.session import check_stdin

        result, sources = check_stdin(stdin_filename, sys.stdin.buffer.read(), settings, analyzer)
    else:
        result = run_check(list(paths) or ["."], settings, analyzer=analyzer)
    findings = result.findings
    probe_data = None
    if with_probe:
        findings, probe_data = _run_probe(findings, settings, jobs)
    if baseline_file or write_baseline or fix or show_diff:
        findings = _baseline_and_fixes(findings, settings, baseline_file, write_baseline, fix, show_diff,
                                       lambda: run_check(list(paths) or ["."], settings, analyzer=analyzer))
    if statistics:
        text = _statistics(findings)
    else:
        context = dict(files=result.files, lines=result.lines, torch="%d.%d" % target.version,
                       torch_notice=target.notice, root=settings.root)
        if fmt == "text":
            context["color"] = sys.stdout.isatty() and output is None if color is None else color
        if probe_data is not None:
            context["probe"] = probe_data
        if sources is not None:
            context["sources"] = sources  # the text report shows lines of stdin, not of the file
        from compilelint.report import render

        text = render(fmt, findings, **context)
    write_output(text, output)
    if result.crashed:
        click.echo("compilelint: error: a rule crashed (CL001); please report it with the file", err=True)
        sys.exit(2)
    sys.exit(0 if exit_zero else (1 if findings else 0))


def _folder_of(stdin_filename: str | None) -> str | None:
    """Where --stdin-filename's settings are looked for: the nearest pyproject.toml above it."""
    import os

    return os.path.dirname(os.path.abspath(stdin_filename)) if stdin_filename else None


def _baseline_and_fixes(findings, settings, baseline_file, write_baseline, fix, show_diff, recheck):
    """--write-baseline (exits), --baseline (filters), --diff (prints, exits), --fix (writes, re-checks)."""
    from compilelint import baseline, fixes

    if fix and show_diff:
        raise Failure("--fix and --diff exclude each other (--diff shows what --fix would do)")
    if write_baseline:
        if baseline_file or fix or show_diff:
            raise Failure("--write-baseline records every current finding: use it without --baseline, --fix, --diff")
        try:
            count = baseline.write(write_baseline, findings)
        except baseline.BaselineError as exc:
            raise Failure(str(exc)) from None
        click.echo(f"compilelint: recorded {count} finding(s) in {write_baseline}", err=True)
        sys.exit(0)
    base = None
    if baseline_file:
        try:
            base = baseline.load(baseline_file)
        except baseline.BaselineError as exc:
            raise Failure(str(exc)) from None
        filtered = baseline.apply(findings, base)
        findings = filtered.findings
        if filtered.stale:
            click.echo(f"compilelint: {filtered.stale} baselined finding(s) are gone; "
                       f"--write-baseline {baseline_file} drops them", err=True)
    if not (fix or show_diff):
        return findings
    changes = fixes.fix_files(findings)
    if show_diff:
        _to_stdout("".join(change.diff() for change in changes if not change.error))
        count = sum(len(change.fixed) for change in changes)
        if count:
            click.echo(f"compilelint: {count} fix(es) in {len(changes)} file(s) would be applied by --fix", err=True)
        sys.exit(1 if changes else 0)
    applied = 0
    for change in changes:
        problem = change.error or fixes.write(change)
        if problem:
            click.echo(f"compilelint: {change.path}: {problem}", err=True)
        else:
            applied += len(change.fixed)
    if applied:
        click.echo(f"compilelint: fixed {applied} finding(s)", err=True)
        findings = recheck().findings
        if base is not None:
            findings = baseline.apply(findings, base).findings
    return findings


def _run_probe(findings, settings, jobs=None):
    try:
        from compilelint.probe import api
    except ImportError as exc:
        raise Failure(f"--probe needs the probe extra: pip install 'compilelint[probe]' ({exc})") from None
    targets = settings.probe.get("targets", [])
    if not targets and not settings.probe.get("run"):
        raise Failure("--probe: no targets; set [tool.compilelint.probe] run = \"python train.py\" "
                      "or targets = [\"path/file.py:factory\"]")
    try:
        return api.check_with_probe(findings, settings, jobs=jobs)
    except (api.TargetError, api.ClusterError) as exc:
        raise Failure(f"--probe: {exc}") from None


def _statistics(findings) -> str:
    from compilelint import registry

    counts = Counter(f.code for f in findings)
    lines = [f"{count:>6}  {code}  {getattr(registry.get(code), 'name', '')}" for code, count in counts.most_common()]
    return "\n".join(lines) + ("\n" if lines else "")


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_command(fmt) -> None:
    """List every code: name, severity, torch versions, autofix (from the registry)."""
    from compilelint import registry

    entries = list(registry.ALL.values())
    if fmt == "json":
        import json

        click.echo(json.dumps([
            {"code": r.code, "name": r.name, "severity": r.severity, "family": r.family, "summary": r.summary,
             "gb_id": r.gb_id, "torch": r.torch_range(), "fixable": r.fixable, "region_only": r.region_only}
            for r in entries], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("code", "name", "severity", "torch", "fix"):
        table.add_column(column)
    for r in entries:
        table.add_row(r.code, r.name, r.severity, r.torch_range(), "yes" if r.fixable else "")
    Console(width=120).print(table)


@main.command("rule")
@click.argument("code")
def rule_command(code) -> None:
    """Print the page of rule CODE (what it flags, why, example, use instead)."""
    from compilelint import registry
    from compilelint.pages import page_text

    info = registry.get(code.upper())
    if info is None:
        raise Failure(f"no rule {code}; `compilelint rules` lists them")
    click.echo(page_text(info.code) or _short_page(info), nl=False)


def _short_page(info) -> str:
    """A page for a code that has none (the probe's): what the registry knows."""
    return f"# {info.code} {info.name}\n\nSeverity: {info.severity}\n\n{info.summary[:1].upper()}{info.summary[1:]}.\n"
