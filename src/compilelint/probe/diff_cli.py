"""`compilelint probe diff OLD.json NEW.json [--format json] [-o FILE] [--plot FILE.svg]`:
reached through `probe` (its first argument `diff`), so `probe TARGET...` is unchanged.
Exit 0 when nothing got worse, 1 when the new run has new breaks or newly failing
targets, 2 on bad input."""

from __future__ import annotations


class DiffInputError(ValueError):
    """Files that cannot be compared (usage error, exit 2)."""


def run_diff(files: list[str], *, fmt: str, plot_file: str | None) -> tuple[str, int]:
    """The report to print and the exit code; writes the plot when asked."""
    from compilelint.probe import diff as d
    from compilelint.probe.plot import PlotError
    from compilelint.probe.sweep import SweepError, read_document

    if len(files) != 2:
        raise DiffInputError("probe diff: give two probe reports, OLD.json NEW.json")
    if fmt not in ("text", "json"):
        raise DiffInputError(f"probe diff: --format {fmt} is not available (text or json)")
    try:
        old, new = (read_document(f) for f in files)
    except SweepError as exc:
        raise DiffInputError(f"probe diff: {exc}") from None
    diff = d.compare(old, new, files[0], files[1])
    text = d.render_text(diff)
    if plot_file:
        from compilelint.probe.diff_plot import write_plot

        try:
            write_plot(diff, plot_file, text)
        except (PlotError, OSError) as exc:
            raise DiffInputError(str(exc)) from None
    return (d.render_json(diff) if fmt == "json" else text), (1 if d.regressed(diff) else 0)
