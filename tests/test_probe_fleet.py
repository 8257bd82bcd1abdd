"""Targets side by side (`probe --jobs`): the same results as one after another, in
the same order; a fault stays its target's; one timing per device at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe.api import options_from_config  # noqa: E402
from compilelint.probe.devices import DeviceError, default_jobs, parse_gpus  # noqa: E402
from compilelint.probe.fleet import run_probe  # noqa: E402
from compilelint.probe.schedule import worker_env  # noqa: E402
from compilelint.probe.targets import TargetError  # noqa: E402

BROKEN = ["gated_mlp.py:broken", "decoder.py:broken", "postprocess.py:broken"]
FIXED = ["gated_mlp.py:fixed", "decoder.py:fixed", "postprocess.py:fixed"]


def breaks(result):
    return [b.to_dict() for b in result.breaks]


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    # the same serial run (same cache key) as test_probe_output and test_probe_match
    return cached_run(tmp_path_factory, "bundled", BROKEN + FIXED, timeout=240, timing=False)[:3]


def test_side_by_side_gives_the_serial_breaks_in_the_given_order(serial):
    side_by_side = run_probe(BROKEN, base=str(FIXTURES), jobs=2, timeout=240, timing=False)
    assert [r.target for r in side_by_side] == BROKEN
    for one, two in zip(serial, side_by_side):
        assert two.ok, two.error
        assert breaks(two) == breaks(one) and breaks(one)
        assert two.capture.graph_count == one.capture.graph_count
        assert two.fullgraph_ok == one.fullgraph_ok


def test_a_crash_and_a_hang_fail_alone():
    specs = ["faults.py:hangs", "faults.py:segfaults", "faults.py:ok"]
    hang, crash, ok = run_probe(specs, base=str(FIXTURES), jobs=2, timeout=25, timing=False)
    assert hang.status == "failed" and "timed out after 25 s" in hang.error
    assert crash.status == "failed" and "SIGSEGV" in crash.error
    assert ok.ok, ok.error


def _locker(lock_dir: Path, log: Path, name: str, hold: float) -> str:
    return textwrap.dedent(f"""
        import os, time
        os.environ["COMPILELINT_PROBE_LOCK"] = {str(lock_dir / "cpu")!r}
        from compilelint.probe.devicelock import from_env
        lock = from_env({str(log.parent / (name + ".result"))!r})
        def note(what):
            with open({str(log)!r}, "a") as fh:
                fh.write(f"{{time.monotonic():.6f}} {name} {{what}}\\n")
        lock.shared(); note("shared+"); time.sleep({hold}); note("shared-")
        lock.exclusive(); note("excl+"); time.sleep({hold}); note("excl-")
        lock.release()
    """)


def test_a_timing_holds_its_device_alone(tmp_path):
    """Three real worker-like processes share the lock: every exclusive hold (a timing)
    overlaps no other hold, shared holds (captures) overlap each other."""
    log = tmp_path / "log.txt"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIXTURES.parents[1] / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", _locker(tmp_path, log, f"w{i}", 0.4)], env=env)
             for i in range(3)]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    events = [line.split() for line in log.read_text().splitlines()]
    spans: dict[tuple[str, str], list[float]] = {}
    for t, who, what in events:
        spans.setdefault((who, what[:-1]), []).append(float(t))
    excl = [(a, b) for (who, kind), (a, b) in spans.items() if kind == "excl"]
    every = [(who, a, b) for (who, kind), (a, b) in spans.items()]
    assert len(excl) == 3
    for who, kind in [k for k in spans if k[1] == "excl"]:
        a, b = spans[(who, kind)]
        for other, x, y in every:
            if other != who:
                assert y <= a or x >= b, f"{who}'s timing overlapped {other}"


def test_a_worker_is_given_one_gpu_and_its_lock():
    env = worker_env("1", timed=True)
    assert env["CUDA_VISIBLE_DEVICES"] == "1" and env["COMPILELINT_PROBE_LOCK"].endswith("gpu-1")
    assert worker_env(None, timed=True)["COMPILELINT_PROBE_LOCK"].endswith("cpu")
    assert worker_env(None, timed=False) == {}


def test_jobs_and_gpus_settings():
    assert parse_gpus("0, 1") == ["0", "1"] and parse_gpus([2, 3]) == ["2", "3"]
    with pytest.raises(DeviceError):
        parse_gpus("0,0")
    assert 1 <= default_jobs(50) <= (os.cpu_count() or 1) and default_jobs(1) == 1
    assert options_from_config({"jobs": 4, "gpus": "0,1", "cluster": "tcp://h:8786"}) == {
        "jobs": 4, "gpus": ["0", "1"], "cluster": "tcp://h:8786"}
    with pytest.raises(TargetError, match="gpus"):
        options_from_config({"gpus": ","})


@pytest.mark.parametrize("args, message", [
    (("--resume",), "--resume continues the sweep in -o FILE.json"),
    (("--gpus", ","), "--gpus"),
    (("--resume", "-o", "report.txt"), "--resume continues the sweep"),
])
def test_usage_errors(tmp_path, cli, args, message):
    (tmp_path / "x.py").write_text("def f():\n    return abs, (1,)\n")
    r = cli("probe", "x.py:f", *args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
