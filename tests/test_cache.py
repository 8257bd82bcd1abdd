"""The analysis cache: same results with it and without it, across runs, changes in
imported modules, killed runs and concurrent runs."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO, corpus_sample, run_cli
from compilelint import cache as cache_mod
from compilelint import config as config_mod
from compilelint import parallel
from compilelint.engine import check

DEMO = REPO / "fixtures" / "demo" / "tinygpt"


def write(root, name, source):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    (root / "corpus").mkdir()
    for source in corpus_sample(100):
        shutil.copy(source, root / "corpus" / source.name)
    shutil.copytree(DEMO, root / "tinygpt", ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(params=["in-process", "pool", "overlap"])
def mode(request, monkeypatch):
    if request.param == "pool":
        monkeypatch.setattr(parallel, "IN_PROCESS_FILES", 0)
        monkeypatch.setattr(parallel, "IN_PROCESS_BYTES", 0)
        monkeypatch.setattr(parallel, "CHUNK_FILES", 2)
    elif request.param == "overlap":  # misses in a worker while the hits are decoded here
        monkeypatch.setattr(parallel, "OVERLAP_HITS", 1)
    else:
        monkeypatch.setattr(parallel, "OVERLAP_HITS", 10**9)
    return request.param


class Counting:
    """Counts the files actually analysed (cache misses), in this process or a worker."""

    def __init__(self, monkeypatch, tmp_path):
        self.log = tmp_path / "analysed.log"
        original = parallel._analyze_one
        log = self.log

        def counted(path, *args):
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(f"{path}\t{os.getpid()}\n")
            return original(path, *args)

        monkeypatch.setattr(parallel, "_analyze_one", counted)
        self.pids: set[int] = set()

    def take(self) -> list[str]:
        """The files analysed since the last call (and in `pids`, the processes that did)."""
        if not self.log.exists():
            return []
        rows = [line.split("\t") for line in self.log.read_text(encoding="utf-8").splitlines()]
        self.log.unlink()
        self.pids = {int(pid) for _, pid in rows}
        return sorted(path for path, _ in rows)


def run(root, *, cache=True, cache_dir=None, jobs=2, select=None):
    os.chdir(root)
    settings = config_mod.load(start=str(root), select=select)
    analyzer = parallel.make_analyzer(jobs=jobs, cache=cache, cache_dir=cache_dir)
    result = check(["."], settings, analyzer=analyzer)
    return [f.to_dict() for f in result.findings]


def reference(root, select=None):
    os.chdir(root)
    settings = config_mod.load(start=str(root), select=select)
    return [f.to_dict() for f in check(["."], settings).findings]


@pytest.fixture(autouse=True)
def keep_cwd():
    here = os.getcwd()
    yield
    os.chdir(here)


def entries(folder):
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.parent.parent.parent == folder
                  and p.parent.name != "runs" and not p.name.startswith(".tmp-"))  # (runs: run_cache)


# ---- same results ---------------------------------------------------------------------

def test_cold_warm_and_no_cache_give_identical_results(project, mode, monkeypatch, tmp_path):
    counting = Counting(monkeypatch, tmp_path)
    expected = reference(project)
    assert expected
    files = len(list(project.rglob("*.py")))
    assert run(project, cache=False) == expected
    assert len(counting.take()) == files
    assert run(project) == expected  # cold: fills the cache
    assert len(counting.take()) == files
    assert run(project) == expected  # warm: nothing analysed
    assert counting.take() == []
    assert len(entries(project / ".compilelint_cache")) == files


def test_one_changed_file_is_the_only_one_analysed(project, mode, monkeypatch, tmp_path):
    counting = Counting(monkeypatch, tmp_path)
    run(project)
    counting.take()
    models = project / "tinygpt" / "models.py"
    models.write_text(models.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    assert run(project) == reference(project)
    assert counting.take() == ["tinygpt/models.py"]
    if mode == "overlap":
        assert counting.pids and os.getpid() not in counting.pids  # a worker analysed it
    elif mode == "in-process":
        assert counting.pids == {os.getpid()}


# ---- cross-file: a change in an imported module ------------------------------------------

A = """
    import torch
    from torch import nn

    from pkg.b import helper


    class Model(nn.Module):
        def forward(self, x):
            return helper(x) + 1
"""
B_CLEAN = """
    def helper(x):
        return x * 2
"""
B_BREAKS = """
    def helper(x):
        print("in helper")
        return x * 2
"""


def test_imported_module_gains_a_break(tmp_path, mode, monkeypatch):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/a.py", A)
    write(root, "pkg/b.py", B_CLEAN)
    write(root, "pkg/c.py", "def unused():\n    print('not compiled')\n")
    counting = Counting(monkeypatch, tmp_path)
    assert run(root) == [] == reference(root)
    counting.take()
    # b.py changes; a.py (whose forward calls helper) is a cache hit, yet the finding
    # appears: the region is recomputed every run from the cached summaries.
    write(root, "pkg/b.py", B_BREAKS)
    findings = run(root)
    assert counting.take() == ["pkg/b.py"]
    assert findings == reference(root)
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [("pkg/b.py", 2, "CL110")]
    assert findings[0]["scope"] == "helper"
    # Now a.py stops calling helper: b.py is a hit and its finding goes away.
    write(root, "pkg/a.py", A.replace("helper(x) + 1", "x + 1"))
    assert run(root) == [] == reference(root)
    assert counting.take() == ["pkg/a.py"]


def test_same_content_at_two_paths(tmp_path, mode):
    root = tmp_path / "proj"
    (root / "pyproject.toml").parent.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    source = """
        import torch

        @torch.compile
        def f(x):
            print(x)
            return x
    """
    write(root, "one/m.py", source)
    write(root, "two/m.py", source)
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/m.py", source)
    run(root)
    findings = run(root)
    assert findings == reference(root)
    assert sorted(f["path"] for f in findings) == ["one/m.py", "pkg/m.py", "two/m.py"]


# ---- damage, kills and concurrency ----------------------------------------------------

def test_damaged_entries_read_as_misses_and_are_rewritten(project, mode, monkeypatch, tmp_path):
    expected = reference(project)
    run(project)
    folder = project / ".compilelint_cache"
    stored = entries(folder)
    for number, entry in enumerate(stored):
        data = entry.read_bytes()
        if number % 3 == 0:
            entry.write_bytes(data[: len(data) // 2])  # a write cut short
        elif number % 3 == 1:
            entry.write_bytes(b"")  # an empty file
        else:
            entry.write_bytes(data[:20] + b"\xff" + data[21:])  # a flipped byte
    # and the temporary files a killed run leaves behind
    (stored[0].parent / ".tmp-abandoned").write_bytes(b"partial")
    for recalled in folder.glob("*/runs/*"):  # else the last run's selection answers (run_cache)
        recalled.unlink()
    counting = Counting(monkeypatch, tmp_path)
    assert run(project) == expected
    assert len(counting.take()) == len(stored)
    assert all(cache_mod.intact(e.read_bytes()) for e in entries(folder))
    assert run(project) == expected
    assert counting.take() == []


def test_two_runs_at_once_share_the_cache(project):
    expected = reference(project)
    os.chdir(project)
    expected_json = json.loads(run_cli("check", "--no-cache", "--format", "json", ".", cwd=project).stdout)
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    command = [sys.executable, "-m", "compilelint", "check", "--format", "json", "--jobs", "2", "."]
    runs = [subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(3)]
    for proc in runs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 1, err
        assert json.loads(out) == expected_json
    assert run(project) == expected
    again = run_cli("check", "--format", "json", ".", cwd=project)
    assert json.loads(again.stdout) == expected_json


def test_a_run_killed_while_writing(project):
    """Kill runs at several moments; the next run still gives the right results."""
    expected = json.loads(run_cli("check", "--no-cache", "--format", "json", ".", cwd=project).stdout)
    command = [sys.executable, "-m", "compilelint", "check", "--format", "json", "."]
    for delay in (0.3, 0.8, 1.5):
        proc = subprocess.Popen(command, cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-write
            proc.wait()
    result = run_cli("check", "--format", "json", ".", cwd=project)
    assert json.loads(result.stdout) == expected


# ---- where it lives, what it writes ---------------------------------------------------

def snapshot(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if ".compilelint_cache" not in p.parts)


def test_default_folder_tag_and_nothing_else_written(project):
    before = snapshot(project)
    result = run_cli("check", "--format", "concise", "corpus", "tinygpt", cwd=project)
    assert result.returncode == 1, result.stderr
    folder = project / ".compilelint_cache"
    assert (folder / "CACHEDIR.TAG").read_text(encoding="utf-8").startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    assert (folder / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert entries(folder)
    assert snapshot(project) == before
    # the cache folder is never checked itself
    again = run_cli("check", "--format", "concise", ".", cwd=project)
    assert ".compilelint_cache" not in again.stdout


def test_no_cache_writes_nothing(project):
    before = snapshot(project)
    result = run_cli("check", "--no-cache", "--format", "concise", ".", cwd=project)
    assert result.returncode == 1, result.stderr
    assert not (project / ".compilelint_cache").exists()
    assert snapshot(project) == before


def test_cache_dir_flag(project, tmp_path):
    elsewhere = tmp_path / "elsewhere" / "cache"
    first = run_cli("check", "--format", "json", "--cache-dir", str(elsewhere), ".", cwd=project)
    second = run_cli("check", "--format", "json", "--cache-dir", str(elsewhere), ".", cwd=project)
    assert first.returncode == second.returncode == 1
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert not (project / ".compilelint_cache").exists()
    assert (elsewhere / "CACHEDIR.TAG").is_file()
    assert entries(elsewhere)


def test_unusable_cache_dir_is_not_an_error(project, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    expected = reference(project)
    assert run(project, cache_dir=str(blocker / "cache")) == expected


# ---- what the key covers --------------------------------------------------------------

def test_settings_the_analysis_reads_change_the_salt(project):
    folder = project / ".compilelint_cache"
    run(project)
    os.chdir(project)
    settings = config_mod.load(start=str(project))
    older = config_mod.load(start=str(project), target_torch="2.4")
    check(["."], older, analyzer=parallel.make_analyzer(jobs=2))
    assert cache_mod.salt(settings) != cache_mod.salt(older)
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == sorted({cache_mod.salt(settings),
                                                                             cache_mod.salt(older)})


@pytest.mark.parametrize("choice", [dict(select=["CL110"]), dict(select=["CL2", "CL3"]), dict(ignore=["CL1"]),
                                    dict(select=["CL1"], extend_select=["CL3"]), dict(roots="explicit")],
                         ids=lambda choice: "-".join(f"{k}={v}" for k, v in choice.items()))
def test_a_new_selection_analyses_nothing_again(project, monkeypatch, tmp_path, choice):
    """Selection is applied after the cache: a run with other rules selected, or other
    roots, reads every entry the first run wrote, and finds what a run without a cache
    finds."""
    counting = Counting(monkeypatch, tmp_path)
    everything = run(project)
    assert len(counting.take()) == len(list(project.rglob("*.py")))
    os.chdir(project)
    settings = config_mod.load(start=str(project), **choice)
    selected = [f.to_dict() for f in check(["."], settings, analyzer=parallel.make_analyzer(jobs=2)).findings]
    assert counting.take() == []
    uncached = [f.to_dict() for f in check(["."], settings).findings]
    assert selected == uncached
    assert selected != everything
    assert [p for p in (project / ".compilelint_cache").iterdir() if p.is_dir()] == \
        [project / ".compilelint_cache" / cache_mod.salt(settings)]


def test_editing_a_rule_changes_the_salt(tmp_path, monkeypatch):
    package = tmp_path / "compilelint"
    shutil.copytree(REPO / "src" / "compilelint", package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_mod, "_PACKAGE", str(package))
    cache_mod.code_hash.cache_clear()
    try:
        before = cache_mod.code_hash()
        rule = sorted((package / "rules").glob("cl1*.py"))[0]
        rule.write_text(rule.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        cache_mod.code_hash.cache_clear()
        after_rule = cache_mod.code_hash()
        (package / "report" / "extra.py").write_text("# a report module\n", encoding="utf-8")
        cache_mod.code_hash.cache_clear()
        after_report = cache_mod.code_hash()
    finally:
        cache_mod.code_hash.cache_clear()
    assert before != after_rule
    assert after_report == after_rule  # reports take no part in analysis


def test_entries_round_trip(project):
    os.chdir(project)
    settings = config_mod.load(start=str(project))
    from compilelint.engine import analyze_path

    for path in ("tinygpt/models.py", "corpus/" + sorted(os.listdir(project / "corpus"))[0]):
        analysis, lines = analyze_path(path, settings)
        again, again_lines = cache_mod.decode(cache_mod.encode(analysis, lines))
        assert (again, again_lines) == (analysis, lines)
    with pytest.raises(ValueError):
        cache_mod.decode(b"garbage")


# ---- a warm run stays light -----------------------------------------------------------

def imported_modules(project, *args):
    """Run `compilelint check` with -X importtime: (the modules it imported, its stdout)."""
    env = dict(os.environ, NO_COLOR="1")
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "compilelint", "check",
                             "--format", "json", *args, "."], cwd=project, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr
    names = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return names, json.loads(result.stdout)


def test_a_warm_run_never_imports_libcst_or_the_rules(project):
    cold, cold_report = imported_modules(project)
    assert "libcst" in cold and "compilelint.rules" in cold
    warm, warm_report = imported_modules(project)
    assert not {name for name in warm if name.startswith(("libcst", "compilelint.rules",
                                                          "compilelint.analysis"))}, warm
    assert warm_report == cold_report
    # one changed file: analysed, so libcst is back; results still those of a cold run
    target = project / "tinygpt" / "models.py"
    target.write_text(target.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    changed, changed_report = imported_modules(project)
    assert "libcst" in changed
    assert changed_report["findings"] == warm_report["findings"]


def test_entries_share_names_across_files(project):
    """Decoded analyses hold one copy of each name (the parent of a large run holds them all)."""
    os.chdir(project)
    settings = config_mod.load(start=str(project))
    from compilelint.engine import analyze_path

    decoded = [cache_mod.decode(cache_mod.encode(*analyze_path(path, settings)))[0]
               for path in ("tinygpt/models.py", "tinygpt/train.py")]

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from strings(key)
                yield from strings(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from strings(item)

    first = {s: s for s in strings(decoded[0].summary.to_json())}
    shared = [s for s in strings(decoded[1].summary.to_json()) if s in first]
    assert shared, "the two files' summaries share no name"
    assert all(first[s] is s for s in shared)
