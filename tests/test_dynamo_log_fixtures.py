"""The probe's parser on Dynamo log text kept on disk, per torch release
(tests/data/dynamo_logs/<version>/, made by make_fixtures.py; README.md there says where
each folder came from): every record turns into the graph breaks, frame skips and
recompiles that compiling targets.py really produced, at the lines marked there."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")  # is_user_file tells torch's frames apart once it is imported

from compilelint.probe.capture import parse_record_text  # noqa: E402

LOGS = Path(__file__).resolve().parent / "data" / "dynamo_logs"
TARGETS = LOGS / "targets.py"
RECORD = "=== record ==="
VERSIONS = sorted(p.name for p in LOGS.iterdir() if p.is_dir() and p.name[0].isdigit())


@dataclass
class LogText:
    logger: str
    level: str
    message: str
    exc_text: str | None


def load(path: Path, user_dir: Path = LOGS) -> list[LogText]:
    """The records of one fixture file, with its path placeholders made real again."""
    text = path.read_text(encoding="utf-8")
    for name, real in (("<USER>", str(user_dir)), ("<TORCH>", os.path.dirname(torch.__file__)),
                       ("<STDLIB>", sysconfig.get_paths()["stdlib"])):
        text = text.replace(name, real)
    out = []
    for chunk in text.split(RECORD + "\n")[1:]:
        head, _, body = chunk.partition("--- message ---\n")
        meta = dict(line.split(": ", 1) for line in head.splitlines())
        message, _, exc = body.partition("--- exc_info ---\n")
        out.append(LogText(meta["logger"], meta["level"], message.rstrip("\n"), exc or None))
    return out


def parse(path: Path, user_dir: Path = LOGS):
    return [r for log in load(path, user_dir) for r in parse_record_text(log.logger, log.message, log.exc_text)]


def line_of(marker: str) -> int:
    """The line of targets.py that carries `# at:<marker>`, or, for `def NAME`, NAME's def line."""
    for n, text in enumerate(TARGETS.read_text(encoding="utf-8").splitlines(), start=1):
        if f"# at:{marker} " in text or text.startswith(f"{marker}("):
            return n
    raise AssertionError(f"no {marker!r} in targets.py")


def brief(record) -> tuple:
    """What a record says: kind, GB id, where (targets.py line), function."""
    file = os.path.basename(record.file) if record.file else None
    return record.kind, record.gb_id, file, record.line, record.function


def at(marker, kind="graph_break", gb_id=None, function=None):
    return kind, gb_id, "targets.py", line_of(marker), function


# Per release: scenario -> the records, in order, with the start of each reason.
EXPECTED = {
    "2.13.0": {
        "data_dependent_if": [(at("if", gb_id="GB0170", function="data_dependent_if"), "Data-dependent branching")],
        "explicit_break": [(at("explicit", gb_id="GB0025", function="explicit_break"),
                            "Call to `torch._dynamo.graph_break()`")],
        # the WARNING "Graph break from `Tensor.item()`" is the same break: no record of its own
        "item": [(at("item", gb_id="GB0124", function="item"), "Unsupported Tensor.item() call")],
        # the second record is Dynamo's "user stack suppressed due to duplicate graph break"
        "print_in_helper": [(at("print", gb_id="GB0059", function="_helper"), "Failed to trace builtin operator"),
                            (at("print", gb_id="GB0059"), "Failed to trace builtin operator")],
        "break_in_loop": [(at("loop-break", gb_id="GB0025", function="break_in_loop"),
                           "Call to `torch._dynamo.graph_break()`"),
                          (at("loop-break", kind="frame_skip", gb_id="GB7000", function="break_in_loop"),
                           "graph break in loop")],
        "recompile": [(at("scale", kind="recompile", function="scale"), "recompiling scale: guard failed: s == 1.5")],
        "recompile_limit": [(at("by_key", kind="recompile", function="by_key"),
                             f"recompiling by_key: guard failed: key == 'key{n}'") for n in range(8)]
        # the limit is reported at the function: its def line
        + [(at("def by_key", kind="frame_skip", function="by_key"), "by_key: hit recompile_limit (8)")],
        "nonzero": [(at("nonzero", gb_id="GB0036", function="nonzero"), "Dynamic shape operator")],
    },
}

CASES = [pytest.param(v, s, id=f"{v}-{s}") for v in EXPECTED for s in EXPECTED[v]]


def test_every_fixture_has_expectations():
    on_disk = {(v, p.stem) for v in VERSIONS for p in (LOGS / v).glob("*.txt")}
    assert on_disk == {(v, s) for v in EXPECTED for s in EXPECTED[v]}


@pytest.mark.parametrize("version,scenario", CASES)
def test_fixture_parses_into_the_records(version, scenario):
    records = parse(LOGS / version / f"{scenario}.txt")
    expected = EXPECTED[version][scenario]
    assert [brief(r) for r in records] == [where for where, _ in expected]
    for record, (_, reason) in zip(records, expected):
        assert record.reason.startswith(reason), record.reason


def test_a_break_in_a_callee_keeps_the_call_chain():
    first = parse(LOGS / "2.13.0" / "print_in_helper.txt")[0]
    tail = [(os.path.basename(f), n) for f, n in first.stack[-2:]]
    assert tail == [("targets.py", line_of("call")), ("targets.py", line_of("print"))]


def test_a_break_in_a_loop_names_the_loop_and_the_skipped_function():
    for record in parse(LOGS / "2.13.0" / "break_in_loop.txt"):
        related = {n for f, n in record.related if f.endswith("targets.py")}
        assert related == {line_of("loop"), line_of("def break_in_loop")}


def test_records_that_are_not_breaks_give_nothing():
    """The `Tensor.item()` WARNING and WON'T CONVERT (a traceback through torch) add no record."""
    for version in VERSIONS:
        for path in (LOGS / version).glob("*.txt"):
            for log in load(path):
                if log.message.startswith(("WON'T CONVERT", "Graph break from `Tensor.item()`")):
                    assert parse_record_text(log.logger, log.message, log.exc_text) == [], path


@pytest.mark.skipif(torch.__version__.split("+")[0] not in EXPECTED,
                    reason="no fixtures for the installed torch release")
def test_fixtures_are_what_the_installed_torch_logs(tmp_path):
    """make_fixtures.py, run now, gives text that parses into the same records."""
    version = torch.__version__.split("+")[0]
    proc = subprocess.run([sys.executable, str(LOGS / "make_fixtures.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for scenario in EXPECTED[version]:
        fresh = [(brief(r), r.reason) for r in parse(tmp_path / f"{scenario}.txt")]
        kept = [(brief(r), r.reason) for r in parse(LOGS / version / f"{scenario}.txt")]
        assert fresh == kept, scenario
