"""The last run's selection (compilelint.run_cache): a run whose files, settings and code
are unchanged reuses it without selecting again; any change anywhere selects again."""
from __future__ import annotations

import json
import os

import pytest

from conftest import run_cli
from test_cache import A, B_CLEAN, write  # (a forward in pkg/a.py calling pkg/b.py's helper)
from compilelint import config as config_mod
from compilelint import engine, parallel, run_cache
from compilelint import cache as cache_mod

B_BREAKS = """
    def helper(x):
        print("in helper")
        return x.sum().item() * 2
"""


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/a.py", A)
    write(root, "pkg/b.py", B_BREAKS)
    here = os.getcwd()
    os.chdir(root)
    yield root
    os.chdir(here)


class Selections:
    """Counts the runs that selected findings (a recalled run does not)."""

    def __init__(self, monkeypatch):
        self.count = 0
        original = engine.select_findings

        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(engine, "select_findings", counted)

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


def run(root, select=None):
    settings = config_mod.load(start=str(root), select=select)
    result = engine.check(["."], settings, analyzer=parallel.make_analyzer(jobs=1))
    return [f.to_dict() for f in result.findings], result.files, result.lines


def reference(root, select=None):
    settings = config_mod.load(start=str(root), select=select)
    result = engine.check(["."], settings)  # no cache at all
    return [f.to_dict() for f in result.findings], result.files, result.lines


def run_entries(root):
    return sorted((root / ".compilelint_cache").glob("*/runs/*"))


def test_an_unchanged_run_is_recalled_not_selected(root, monkeypatch):
    expected = reference(root)
    assert {f["code"] for f in expected[0]} == {"CL110", "CL103"}
    selections = Selections(monkeypatch)
    assert run(root) == expected
    assert selections.take() == 1
    assert run(root) == expected  # files, lines and every finding's fields
    assert selections.take() == 0
    assert len(run_entries(root)) == 1


def test_a_change_in_another_file_is_seen(root, monkeypatch):
    """b.py's findings depend on a.py calling helper: the run entry must not outlive that."""
    selections = Selections(monkeypatch)
    run(root)
    write(root, "pkg/a.py", A.replace("helper(x) + 1", "x + 1"))
    assert run(root) == reference(root)
    assert run(root)[0] == []
    write(root, "pkg/a.py", A)
    assert run(root)[0] == reference(root)[0] != []
    write(root, "pkg/b.py", B_CLEAN)
    expected = reference(root)
    selections.take()
    assert run(root) == expected
    assert selections.take() == 1
    assert len(run_entries(root)) == 1  # one entry per way of checking, overwritten


def test_settings_are_part_of_what_is_recalled(root, monkeypatch):
    selections = Selections(monkeypatch)
    everything, only_print = run(root), run(root, select=("CL110",))
    assert selections.take() == 2
    assert everything == reference(root) and only_print == reference(root, select=("CL110",))
    assert [f["code"] for f in only_print[0]] == ["CL110"]
    selections.take()
    assert len(run_entries(root)) == 2
    assert run(root) == everything and run(root, select=("CL110",)) == only_print
    assert selections.take() == 0
    # another root mode: selected again
    (root / "pyproject.toml").write_text('[tool.compilelint]\nroots = "explicit"\n', encoding="utf-8")
    explicit = run(root)
    assert selections.take() == 1
    assert explicit == reference(root) and explicit[0] == []


def test_other_code_selects_again(root, monkeypatch):
    selections = Selections(monkeypatch)
    expected = run(root)
    monkeypatch.setattr(run_cache, "package_hash", lambda: "an edited compilelint")
    assert run(root) == expected
    assert selections.take() == 2


def test_a_damaged_run_entry_reads_as_a_miss(root, monkeypatch):
    expected = run(root)
    (entry,) = run_entries(root)
    data = entry.read_bytes()
    selections = Selections(monkeypatch)
    for damaged in (data[: len(data) // 2], b"", data[:20] + bytes([data[20] ^ 0xFF]) + data[21:]):
        entry.write_bytes(damaged)
        assert run(root) == expected
        assert selections.take() == 1
        assert cache_mod.intact(entry.read_bytes())


def test_the_command_line_recalls_and_stays_right(root):
    first = run_cli("check", "--format", "json", "--exit-zero", ".", cwd=root)
    second = run_cli("check", "--format", "json", "--exit-zero", ".", cwd=root)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout
    assert {f["code"] for f in json.loads(second.stdout)["findings"]} == {"CL110", "CL103"}
    assert len(run_entries(root)) == 1
    write(root, "pkg/b.py", B_CLEAN)
    third = run_cli("check", "--format", "json", ".", cwd=root)
    assert third.returncode == 0 and json.loads(third.stdout)["findings"] == []
    unchanged = run_cli("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert unchanged.stdout == third.stdout
