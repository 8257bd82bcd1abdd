"""`compilelint probe TARGET...`: run targets under torch.compile and report what
Dynamo did (graph breaks, recompiles, frame skips) and what compiling is worth."""

from __future__ import annotations

import os
import sys

import click

from compilelint.probe.request import DEFAULT_TIMEOUT, MODES, ProbeOptions


class UsageFailure(click.ClickException):
    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"compilelint: error: {self.message}", err=True)


def _write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from compilelint.atomic import write_text

    try:
        write_text(output, text, make_folder=True)
    except OSError as exc:
        raise UsageFailure(f"cannot write {output}: {exc.strerror or exc}") from None


class _ProbeCommand(click.Command):
    """Everything after `--` is the user's command (`probe -- python train.py`)."""

    def parse_args(self, ctx, args):
        if "--" in args:
            at = args.index("--")
            ctx.meta["probe_command"] = args[at + 1:]
            args = args[:at]
        return super().parse_args(ctx, args)


@click.command("probe", cls=_ProbeCommand)
@click.argument("targets", nargs=-1)
@click.option("--module", "modules", multiple=True, metavar="PKG.MOD:CLASS",
              help="With `-- COMMAND`: compile this class or function in place (repeatable; "
                   "default: those holding static findings).")
@click.option("--device", type=click.Choice(["auto", "cuda", "cpu"]), default=None,
              help="Where to time (default: CUDA when available, else CPU; the report says which).")
@click.option("--modes", default=None,
              help="Comma-separated torch.compile modes to time "
                   "(default on CUDA: default,reduce-overhead,max-autotune; on CPU: default).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=None,
              help=f"Seconds each target may run, in its own process (default {DEFAULT_TIMEOUT:g}); "
                   "with `-- COMMAND`, seconds before the program is ended (default 1800).")
@click.option("--warmup", type=click.IntRange(min=0), default=None, help=f"Warm-up calls before timing (default {ProbeOptions.warmup}).")
@click.option("--runs", type=click.IntRange(min=1), default=None,
              help=f"At least this many timed samples (default {ProbeOptions.runs}).")
@click.option("--min-time", type=click.FloatRange(min=0), default=None,
              help="At least this many seconds of timed calls per measurement (default 0.5); "
                   "calls shorter than a millisecond or two are timed in blocks.")
@click.option("--train", is_flag=True, default=None,
              help="Training mode: module.train(), capture with gradients, time forward + backward "
                   "(covers training-only paths: dropout, layerdrop, `if self.training`).")
@click.option("--dtype", type=click.Choice(["bf16", "fp16"]), default=None,
              help="Cast the module and floating-point inputs (covers half-precision-only paths).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default=None,
              help="Report format (default: json when -o names a .json file, else text).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the report to a file; a JSON one is kept up to date as targets finish (a sweep).")
@click.option("--resume", is_flag=True,
              help="Continue the sweep in -o FILE.json: skip the targets it already holds.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Targets at once, each in its own process (default: the number of cores, at most the "
                   "targets); a timing has its GPU (or the CPU) to itself.")
@click.option("--gpus", default=None, help="GPUs to spread targets over, e.g. 0,1 (default: every visible GPU).")
@click.option("--cluster", default=None,
              help="Run the targets on a Dask scheduler, e.g. tcp://HOST:8786 (needs compilelint[cluster]).")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False),
              help="Draw eager vs compiled latency per target and mode (.svg, .html, or .png with matplotlib).")
@click.option("--backend", default=None, help=f"torch.compile backend to time (default {ProbeOptions.backend}).")
@click.option("--no-timing", is_flag=True, help="Capture breaks and recompiles only; skip the timing probe.")
@click.option("--no-what-if", is_flag=True,
              help="Skip the what-if re-timing (each class of break removed by a Dynamo knob; each repeated block compiled apart).")
@click.option("--worth-it-calls", type=click.IntRange(min=1), default=None,
              help="Call it not worth compiling when the compile takes more calls than this to pay "
                   "for itself (default 10000).")
@click.option("--config-free", is_flag=True, help="Ignore [tool.compilelint.probe] in pyproject.toml.")
@click.option("--keep-cache", is_flag=True,
              help="Use inductor's normal on-disk cache (default: a fresh one, so compile times are cold).")
@click.option("--color/--no-color", default=None, help="Colour the text report (default: when writing to a terminal).")
def probe(targets, modules, device, modes, timeout, warmup, runs, min_time, train, dtype, fmt, output, resume, jobs,
          gpus, cluster, plot_file, backend, no_timing, no_what_if, worth_it_calls, config_free, keep_cache,
          color) -> None:
    """Run TARGETS (path/to/file.py:factory or package.module:factory; default: the
    `targets` of [tool.compilelint.probe]) each in its own process under torch.compile:
    report every graph break, recompile and frame skip Dynamo records, and eager vs
    compiled latency, compile time, break-even calls, peak memory and output drift, whether
    compiling is worth it, and what removing each class of break would be worth.

    `compilelint probe diff OLD.json NEW.json` compares two probe reports instead.

    Exit 0 when nothing was found, 1 when a target broke, recompiled or failed, 2 on a
    usage error.

    `compilelint probe [--module PKG.MOD:CLASS]... -- COMMAND [ARGS]...` runs your own
    program instead, with the flagged modules compiled in place (docs/probe.md)."""
    if targets and targets[0] == "diff":  # no target is named `diff` (a target has a colon)
        from compilelint.probe.diff_cli import DiffInputError, run_diff

        try:
            text, code = run_diff(list(targets[1:]), fmt=fmt or "text", plot_file=plot_file)
        except DiffInputError as exc:
            raise UsageFailure(str(exc)) from None
        _write(text, output)
        sys.exit(code)
    command = click.get_current_context().meta.get("probe_command")
    if command is not None:
        from compilelint.probe.run_cli import probe_command

        if targets:
            raise UsageFailure("give targets or `-- COMMAND`, not both")
        sys.exit(probe_command(command, modules=modules, timeout=timeout, timing=not no_timing,
                               backend=backend, fmt=fmt, output=output, color=color, write=_write,
                               usage_error=UsageFailure))
    if modules and (targets or config_free):
        raise UsageFailure("--module goes with `-- COMMAND` (or a configured `run`)")
    from compilelint.probe.api import options_from_config, run_with_progress
    from compilelint.probe.match import findings_from_results
    from compilelint.probe.roi_report import attach_what_if
    from compilelint.probe.targets import TargetError, config_probe_table, config_targets, parse_target

    try:
        table, pyproject = ({}, None) if config_free else config_probe_table()
        root = str(pyproject.parent) if pyproject else os.getcwd()
        opts = options_from_config(table) if table else {}
        if targets:
            specs = [parse_target(t) for t in targets]
        else:
            specs = config_targets(table, root) if table else []
    except TargetError as exc:
        raise UsageFailure(str(exc)) from None
    if not specs and not targets and table.get("run"):  # the configured program
        from compilelint.probe.program import parse_command
        from compilelint.probe.run_cli import probe_command

        sys.exit(probe_command(parse_command(table["run"]), modules=modules or tuple(table.get("modules") or ()),
                               timeout=timeout, timing=not no_timing, backend=backend, fmt=fmt, output=output,
                               color=color, write=_write, usage_error=UsageFailure, cwd=root))
    if not specs:
        raise UsageFailure("no targets: give path/to/file.py:factory or package.module:factory, "
                           "or set [tool.compilelint.probe] targets = [...] in pyproject.toml")
    if plot_file and os.path.splitext(plot_file)[1].lower() not in (".svg", ".html", ".htm", ".png"):
        raise UsageFailure(f"--plot {plot_file}: use a .svg, .html or .png file")
    if device is not None:
        opts["device"] = None if device == "auto" else device
    if modes is not None:
        opts["modes"] = [m.strip() for m in modes.split(",") if m.strip()]
        bad = [m for m in opts["modes"] if m not in MODES]
        if bad:
            raise UsageFailure(f"--modes: unknown mode {bad[0]!r}")
    for key, value in (("timeout", timeout), ("warmup", warmup), ("runs", runs), ("backend", backend),
                       ("min_time", min_time), ("worth_it_calls", worth_it_calls)):
        if value is not None:
            opts[key] = value
    if train:
        opts["train"] = True
    if dtype:
        opts["dtype"] = dtype
    if no_timing:
        opts["timing"] = False
    if no_what_if:
        opts["what_if"] = False
    if keep_cache:
        opts["fresh_cache"] = False
    fmt = fmt or ("json" if output and output.lower().endswith(".json") else "text")
    results, sweep = _run(specs, opts, jobs, gpus, cluster, resume=resume,
                          sweep_file=output if fmt == "json" and output not in (None, "-") else None)
    cwd = os.getcwd()
    findings = findings_from_results(results, cwd=cwd)
    attach_what_if(findings, results)

    if plot_file:
        from compilelint.probe.plot import PlotError, write_plot

        try:
            write_plot(results, plot_file)
        except PlotError as exc:
            raise UsageFailure(str(exc)) from None

    from compilelint.probe import output as out

    if sweep is not None:
        text = sweep.text(findings, complete=True)
    elif fmt == "json":
        text = out.render_json(results, findings, cwd)
    elif fmt == "sarif":
        text = out.render_sarif(results, findings, root=cwd)
    else:
        use_color = (sys.stdout.isatty() and output is None) if color is None else color
        text = out.render_text(results, findings, cwd=cwd, color=use_color)
    _write(text, output)
    failed = any(not r.ok for r in results)
    sys.exit(1 if (findings or failed) else 0)


def _run(specs, opts, jobs, gpus, cluster, *, sweep_file, resume):
    """Run the targets (side by side, on a cluster, into a sweep file) as asked:
    the results, and the sweep they were recorded in (None without one)."""
    from compilelint.probe.api import ClusterError, run_with_progress
    from compilelint.probe.devices import DeviceError, parse_gpus
    from compilelint.probe.sweep import SweepError, run_sweep

    if resume and not sweep_file:
        raise UsageFailure("--resume continues the sweep in -o FILE.json: name that file")
    try:
        opts.update({k: v for k, v in (("jobs", jobs), ("gpus", parse_gpus(gpus)), ("cluster", cluster)) if v})
        if not sweep_file:
            return run_with_progress(specs, **opts), None
        sweep = run_sweep(specs, sweep_file, resume=resume, run=run_with_progress, **opts)
    except (ClusterError, DeviceError, SweepError) as exc:
        raise UsageFailure(str(exc)) from None
    return sweep.results(), sweep
