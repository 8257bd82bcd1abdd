"""Targets and isolation: each target in its own process; faults become results."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe.runner import run_target  # noqa: E402
from compilelint.probe.targets import (  # noqa: E402
    TargetError,
    config_probe_table,
    config_targets,
    normalize_factory_result,
    parse_target,
)

FAULTS = ["raises", "raises_in_factory", "aborts", "segfaults", "memory_error", "exits",
          "not_a_factory_result", "no_args"]


@pytest.fixture(scope="module")
def fault_results(tmp_path_factory):
    specs = [f"faults.py:{name}" for name in FAULTS] + ["faults:ok", "tiny.py:with_kwargs"]
    results = cached_run(tmp_path_factory, "faults", specs, timeout=120, timing=False)
    return {r.target: r for r in results}


def test_every_fault_is_a_result_and_the_others_still_run(fault_results):
    assert len(fault_results) == len(FAULTS) + 2
    for name in FAULTS:
        r = fault_results[f"faults.py:{name}"]
        assert r.status == "failed", (name, r.error)
        assert r.error
    # targets after the faults ran normally
    assert fault_results["faults:ok"].status == "ok"
    assert fault_results["tiny.py:with_kwargs"].status == "ok"


def test_exception_in_user_code(fault_results):
    r = fault_results["faults.py:raises"]
    assert "RuntimeError: the target raised on purpose" in r.error
    assert r.returncode == 0  # the worker reported it and exited cleanly
    assert "the target raised on purpose" in (r.traceback or "")


def test_exception_in_the_factory(fault_results):
    r = fault_results["faults.py:raises_in_factory"]
    assert "ValueError: the factory raised on purpose" in r.error
    assert "loading" in r.error


def test_os_abort(fault_results):
    r = fault_results["faults.py:aborts"]
    assert r.returncode is not None and r.returncode < 0
    assert "SIGABRT" in r.error


def test_segfault(fault_results):
    r = fault_results["faults.py:segfaults"]
    assert "SIGSEGV" in r.error and "segmentation fault" in r.error
    # faulthandler's report of the crash is kept
    assert "Fatal Python error" in r.stderr_tail or "Segmentation fault" in r.stderr_tail


def test_memory_error(fault_results):
    r = fault_results["faults.py:memory_error"]
    assert r.error.startswith("MemoryError")


def test_sys_exit(fault_results):
    assert "sys.exit(3)" in fault_results["faults.py:exits"].error


def test_bad_factory_results(fault_results):
    assert "returned int" in fault_results["faults.py:not_a_factory_result"].error
    assert "returned function" in fault_results["faults.py:no_args"].error


def test_module_target_and_kwargs(fault_results):
    ok = fault_results["faults:ok"]
    assert ok.capture is not None and ok.capture.graph_count == 1 and ok.breaks == []
    assert ok.fullgraph_ok is True
    kw = fault_results["tiny.py:with_kwargs"]
    assert kw.capture.graph_count == 1


def test_hang_is_killed_at_the_timeout():
    spec = parse_target("faults.py:hangs", base=FIXTURES)
    t0 = time.monotonic()
    r = run_target(spec, timeout=8, timing=False)
    assert time.monotonic() - t0 < 30
    assert r.status == "failed"
    assert r.error.startswith("timed out after 8 s")


# -- specs and config (no subprocess) -------------------------------------------------


def test_parse_file_and_module_targets(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def make():\n    return print, ()\n")
    s = parse_target("m.py:make", base=tmp_path)
    assert s.path == str(f) and s.factory == "make" and s.name == "m.py:make"
    s = parse_target("pkg.models:build")
    assert s.module == "pkg.models" and s.factory == "build" and s.path is None
    for bad in ("nocolon", "m.py:", ":make", "missing.py:make", "pkg.models:not-a-name", "a b:make"):
        with pytest.raises(TargetError):
            parse_target(bad, base=tmp_path)


def test_targets_from_pyproject(tmp_path):
    (tmp_path / "model.py").write_text("def factory():\n    return abs, (1,)\n")
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.compilelint.probe]
        targets = ["model.py:factory", "pkg.mod:factory"]
        timeout = 60
    """))
    table, path = config_probe_table(tmp_path / "pyproject.toml")
    assert path == tmp_path / "pyproject.toml"
    specs = config_targets(table, tmp_path)
    assert [s.name for s in specs] == ["model.py:factory", "pkg.mod:factory"]
    assert specs[0].path == str(tmp_path / "model.py")
    from compilelint.probe.api import options_from_config

    assert options_from_config(table) == {"timeout": 60.0}
    with pytest.raises(TargetError):
        options_from_config({"tiemout": 3})


def test_factory_result_shapes():
    fn = abs
    assert normalize_factory_result((fn, (1,)))[:3] == (fn, (1,), {})
    assert normalize_factory_result((fn, [1], {"k": 2}))[:3] == (fn, (1,), {"k": 2})
    assert normalize_factory_result((fn, 5))[:3] == (fn, (5,), {})
    f, a, k, calls = normalize_factory_result({"fn": fn, "args": (1,), "calls": [(2,), ((3,), {"x": 1})]})
    assert calls == [((2,), {}), ((3,), {"x": 1})]
    with pytest.raises(TypeError):
        normalize_factory_result((1, ()))


def test_worker_pins_malloc_thresholds(tmp_path):
    # without them eager CPU timings flipped between two modes 2.5x apart (glibc's
    # adaptive mmap threshold); the worker's environment must carry the fixed values
    (tmp_path / "envtarget.py").write_text(textwrap.dedent("""
        import os
        def factory():
            raise ValueError("env " + os.environ.get("MALLOC_MMAP_THRESHOLD_", "unset") + " "
                             + os.environ.get("MALLOC_TRIM_THRESHOLD_", "unset"))
    """), encoding="utf-8")
    r = run_target(parse_target(str(tmp_path / "envtarget.py") + ":factory"), timeout=120, timing=False)
    assert r.status == "failed"
    assert f"env {32 << 20} {1 << 30}" in r.error


def test_a_namedtuple_input_reaches_the_target_as_one(tmp_path):
    # RL libraries hand batches over as NamedTuples (stable-baselines3's `ReplayBufferSamples`)
    # and read them by name: moving the inputs to the device must keep the type (it gave a plain
    # tuple: "'tuple' object has no attribute 'observations'")
    (tmp_path / "batchtarget.py").write_text(textwrap.dedent("""
        from typing import NamedTuple
        import torch

        class Samples(NamedTuple):
            observations: torch.Tensor
            rewards: torch.Tensor

        def loss(batch):
            return (batch.observations.sum(-1) - batch.rewards).pow(2).mean()

        def factory():
            return loss, (Samples(torch.randn(4, 3), torch.randn(4)),)
    """), encoding="utf-8")
    r = run_target(parse_target(str(tmp_path / "batchtarget.py") + ":factory"), timeout=120, timing=False)
    assert r.status == "ok", r.error
