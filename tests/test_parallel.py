"""The parallel analyzer: results identical to the sequential pass, whatever --jobs."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import REPO, corpus_sample, run_cli
from compilelint import config as config_mod
from compilelint import parallel
from compilelint.engine import check

DEMO = REPO / "fixtures" / "demo" / "tinygpt"


@pytest.fixture
def project(tmp_path):
    """A copy of the rule corpus and the demo project: many files, many findings."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    (root / "corpus").mkdir()
    for source in corpus_sample(100):
        shutil.copy(source, root / "corpus" / source.name)
    shutil.copytree(DEMO, root / "tinygpt", ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def force_pool(monkeypatch):
    """Use the process pool even for a small project."""
    monkeypatch.setattr(parallel, "IN_PROCESS_FILES", 0)
    monkeypatch.setattr(parallel, "IN_PROCESS_BYTES", 0)
    monkeypatch.setattr(parallel, "CHUNK_FILES", 3)


def run(root, monkeypatch, analyzer=None):
    monkeypatch.chdir(root)
    settings = config_mod.load(start=str(root))
    result = check(["."], settings, analyzer=analyzer)
    return [f.to_dict() for f in result.findings], result.files, result.lines


def test_jobs_1_and_2_match_the_sequential_pass(project, monkeypatch, force_pool):
    sequential = run(project, monkeypatch)
    assert sequential[0], "the corpus has findings"
    assert sequential[1] > 20
    one = run(project, monkeypatch, parallel.make_analyzer(jobs=1, cache=False))
    two = run(project, monkeypatch, parallel.make_analyzer(jobs=2, cache=False))
    assert one == sequential
    assert two == sequential


def test_results_come_in_input_order(project, monkeypatch, force_pool):
    monkeypatch.chdir(project)
    settings = config_mod.load(start=str(project))
    files = sorted(str(p.relative_to(project)) for p in project.rglob("*.py"))
    got = [analysis.path for analysis, _ in parallel.analyze_files(files, settings, jobs=2)]
    assert got == files


def test_chunks_put_large_files_first_and_group_small_ones():
    misses = [(0, "small1", 10), (1, "big", 100_000), (2, "small2", 20), (3, "mid", 50_000)]
    chunks = parallel._chunks(misses)
    assert chunks[0] == [(1, "big")]
    assert sorted(i for chunk in chunks for i, _ in chunk) == [0, 1, 2, 3]


def test_in_process_for_a_handful_of_files(project, monkeypatch):
    """One changed file must not pay for a pool."""
    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", None)  # would fail if used
    monkeypatch.chdir(project)
    settings = config_mod.load(start=str(project))
    files = ["tinygpt/models.py"]
    out = list(parallel.analyze_files(files, settings, jobs=8))
    assert [a.path for a, _ in out] == files


def test_unreadable_and_vanished_files_are_diagnostics(project, monkeypatch, force_pool):
    (project / "corpus" / "binary.py").write_bytes(b"\x00\x01\x02 not python")
    sequential = run(project, monkeypatch)
    two = run(project, monkeypatch, parallel.make_analyzer(jobs=2, cache=True))
    assert two == sequential
    assert any(f["code"] == "CL000" and f["path"].endswith("binary.py") for f in two[0])
    settings = config_mod.load(start=str(project))
    out = list(parallel.analyze_files(["corpus/gone.py"], settings, jobs=2, store=parallel.Analyzer().store(settings)))
    assert out[0][0].diagnostics[0].code == "CL000"


def test_cli_jobs_flag(project):
    outputs = []
    for jobs in ("1", "2"):
        result = run_cli("check", "--no-cache", "--format", "json", "--jobs", jobs, ".", cwd=project)
        assert result.returncode == 1, result.stderr
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]
