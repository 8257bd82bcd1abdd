"""`probe --cluster` on a real Dask scheduler with two worker processes on 127.0.0.1
(started with dask's own command line, as a user would)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("distributed")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

from compilelint.probe.fleet import run_probe  # noqa: E402
from compilelint.probe.targets import parse_target  # noqa: E402

BROKEN = ["gated_mlp.py:broken", "decoder.py:broken", "postprocess.py:broken"]
FIXED = ["gated_mlp.py:fixed", "decoder.py:fixed", "postprocess.py:fixed"]


def _dask(*args, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH"))
                                                       if p)}
    return subprocess.Popen([shutil.which("dask") or "dask", *args], env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    if not shutil.which("dask"):
        pytest.skip("no `dask` command")
    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    procs = [_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                   "--scheduler-file", str(info), log=folder / "scheduler.log")]
    try:
        procs += [_dask("worker", "--scheduler-file", str(info), "--nthreads", "1", "--no-dashboard",
                        "--host", "127.0.0.1", "--name", f"w{i}", log=folder / f"worker{i}.log") for i in (1, 2)]
        deadline = time.monotonic() + 120
        while not (info.exists() and info.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_the_cluster_gives_the_serial_breaks(tmp_path_factory, scheduler):
    serial = cached_run(tmp_path_factory, "bundled", BROKEN + FIXED, timeout=240, timing=False)[:2]
    started = []
    on_cluster = run_probe(BROKEN[:2], base=str(FIXTURES), cluster=scheduler, timeout=240, timing=False,
                           on_start=lambda spec, i, n: started.append(i))
    assert [r.target for r in on_cluster] == BROKEN[:2]
    for one, two in zip(serial, on_cluster):
        assert two.ok, two.error
        assert [b.to_dict() for b in two.breaks] == [b.to_dict() for b in one.breaks] and one.breaks
        assert two.fullgraph_ok == one.fullgraph_ok
    assert sorted(set(started)) == [0, 1]  # the workers said when each target started


def test_a_target_a_worker_cannot_see_says_so(tmp_path, scheduler):
    (tmp_path / "local.py").write_text("import torch\ndef f():\n    return abs, (torch.ones(2),)\n")
    spec = parse_target("local.py:f", base=str(tmp_path))
    (tmp_path / "local.py").unlink()  # on the client's disk only, as on a machine of its own
    (result,) = run_probe([spec], cluster=scheduler, timing=False)
    assert result.status == "failed"
    assert "cannot see" in result.error and "shares" in result.error and "local.py" in result.error


def test_the_command_line_on_a_cluster(tmp_path, cli, scheduler):
    (tmp_path / "m.py").write_text("import torch\ndef f():\n    return (lambda x: x + 1), (torch.ones(2),)\n")
    r = cli("probe", "--no-timing", "--cluster", scheduler, "--format", "json", "m.py:f", cwd=tmp_path,
            env={"PYTHONPATH": str(REPO / "src")}, timeout=240)
    assert r.returncode == 0, r.stderr
    (target,) = json.loads(r.stdout)["targets"]
    assert target["status"] == "ok" and target["graph_count"] == 1
    assert "1/1 done, 0 running, 0 queued" in r.stderr
