"""Write the Dynamo log records that compiling targets.py produces, for the parser's tests.

    python tests/data/dynamo_logs/make_fixtures.py          # -> tests/data/dynamo_logs/<torch version>/

Needs torch and nothing else (no compilelint), so it runs on any machine with any torch
release: it enables Dynamo's ``graph_breaks`` and ``recompiles`` logs, compiles each target
of targets.py with ``backend="eager"`` and writes, per scenario, every record of those
artifacts plus the ``torch._dynamo`` records that announce frame skips and recompile
limits, as Dynamo formatted them. Only paths are rewritten, so that the text does not
depend on the machine: the folder of targets.py becomes ``<USER>``, torch's package
folder ``<TORCH>`` and the standard library ``<STDLIB>``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import sysconfig
import traceback

import torch
import torch._dynamo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import targets  # noqa: E402

ARTIFACTS = ("__graph_breaks", "__recompiles", "__recompiles_verbose")
# INFO records of torch._dynamo worth keeping: frame skips and recompile limits
INFO_MARKERS = ("Skipping frame", "cache_size_limit", "recompile_limit")
RECORD = "=== record ==="


def scenarios():
    """name -> (function, driver): the driver calls the compiled function."""
    x = torch.randn(8)

    def once(compiled):
        compiled(x)

    def two_floats(compiled):
        for s in (1.5, 2.5):
            compiled(x, s)

    def many_keys(compiled):
        for n in range(12):  # more values than the default recompile limit (8)
            compiled(x, f"key{n}")

    return {
        "data_dependent_if": (targets.data_dependent_if, once),
        "explicit_break": (targets.explicit_break, once),
        "item": (targets.item, once),
        "print_in_helper": (targets.calls_helper, once),
        "break_in_loop": (targets.break_in_loop, once),
        "recompile": (targets.scale, two_floats),
        "recompile_limit": (targets.by_key, many_keys),
        "nonzero": (targets.nonzero, once),
    }


class Recorder(logging.Handler):
    """Keeps each record once, whichever logger it reached us through."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if any(r is record for r in self.records):
            return
        artifact = record.name.endswith(ARTIFACTS)
        if artifact or record.levelno >= logging.WARNING or any(
                m in record.getMessage() for m in INFO_MARKERS):
            self.records.append(record)


def normalise(text: str) -> str:
    dirs = [(os.path.dirname(torch.__file__), "<TORCH>"), (HERE, "<USER>")]
    for key in ("stdlib", "platstdlib"):
        dirs.append((sysconfig.get_paths()[key], "<STDLIB>"))
    for path, name in dirs:
        text = text.replace(os.path.realpath(path), name).replace(path, name)
    return text


def render(record: logging.LogRecord) -> str:
    out = [RECORD, f"logger: {record.name}", f"level: {record.levelname}", "--- message ---",
           normalise(record.getMessage())]
    if record.exc_info and record.exc_info[0] is not None:
        out += ["--- exc_info ---", normalise("".join(traceback.format_exception(*record.exc_info)))]
    return "\n".join(out).rstrip("\n") + "\n"


def listen(recorder: Recorder) -> None:
    torch._logging.set_logs(dynamo=logging.INFO, graph_breaks=True, recompiles=True)
    # torch's registered loggers do not propagate to "torch": listen on each of them too
    names = ["torch", "torch._dynamo"] + [n for n in logging.Logger.manager.loggerDict if n.endswith(ARTIFACTS)]
    for name in names:
        logging.getLogger(name).addHandler(recorder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    version = torch.__version__.split("+")[0]
    parser.add_argument("--out", default=os.path.join(HERE, version), help="folder to write (default: %(default)s)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    recorder = Recorder()
    listen(recorder)
    for name, (fn, driver) in scenarios().items():
        torch._dynamo.reset()
        recorder.records.clear()
        try:
            driver(torch.compile(fn, backend="eager"))
        except Exception as exc:  # a target that raises is still a fixture: say so
            print(f"{name}: raised {type(exc).__name__}: {exc}", file=sys.stderr)
        text = "".join(render(r) for r in recorder.records)
        with open(os.path.join(args.out, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write(f"# torch {torch.__version__}, python {sys.version.split()[0]}: {name}\n" + text)
        print(f"{name}: {len(recorder.records)} record(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
