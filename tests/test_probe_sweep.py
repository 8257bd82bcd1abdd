"""Sweeps that survive (`probe -o sweep.json`, `--resume`) and `probe diff`: the real
command line, real workers, a real kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[1]

TARGETS = '''
import os
import time

import torch

LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ran.log")


def _ran(name):
    with open(LOG, "a") as fh:
        fh.write(name + "\\n")


def plain():
    _ran("plain")
    return (lambda x: x * 2), (torch.ones(4),)


def chatty():
    _ran("chatty")

    def forward(x):
        y = x + 1
        print("step")  # a graph break
        return y * 2

    return forward, (torch.ones(4),)


def slow():
    _ran("slow")
    time.sleep(float(os.environ.get("SLOW_S", "0")))
    return (lambda x: x - 1), (torch.ones(4),)
'''
ALL = ["t.py:plain", "t.py:chatty", "t.py:slow"]


def probe(*args, cwd, env=None, **kw):
    full = {**os.environ, "NO_COLOR": "1", **(env or {})}
    full["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH")) if p)
    cmd = [sys.executable, "-m", "compilelint", "probe", *args]
    if kw.pop("background", False):
        return subprocess.Popen(cmd, cwd=cwd, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True, timeout=300)


def ran(folder: Path) -> list[str]:
    log = folder / "ran.log"
    return log.read_text().split() if log.exists() else []


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory):
    """A sweep killed while its last target runs, resumed; then a new sweep of the same
    targets after a fix. Returns the folder."""
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "t.py").write_text(TARGETS.lstrip("\n"))
    sweep = folder / "old.json"
    proc = probe("--no-timing", "-j", "1", "-o", "old.json", *ALL, cwd=folder, env={"SLOW_S": "60"},
                 background=True)
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:  # both quick targets recorded: kill the sweep
        time.sleep(0.2)
        if sweep.exists() and len(json.loads(sweep.read_text())["sweep"]["results"]) == 2:
            break
    # kill -9 the sweep and the workers it started (as a crash of the machine or the job
    # would): an orphaned worker would go on running `slow` and log it after the snapshot
    import psutil

    workers = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGKILL)
    for worker in workers:
        try:
            worker.kill()
        except psutil.NoSuchProcess:
            pass
    proc.wait()
    psutil.wait_procs(workers, timeout=30)
    killed = json.loads(sweep.read_text())
    before = ran(folder)
    resumed = probe("--no-timing", "-j", "2", "-o", "old.json", "--resume", *ALL, cwd=folder)
    after = ran(folder)
    (folder / "t.py").write_text(TARGETS.lstrip("\n").replace('        print("step")  # a graph break\n', ""))
    new = probe("--no-timing", "-o", "new.json", *ALL[:2], cwd=folder)
    return {"folder": folder, "killed": killed, "ran_before_resume": before, "resumed": resumed,
            "ran_after_resume": after, "new": new}


def test_a_killed_sweep_keeps_what_finished(sweeps):
    killed = sweeps["killed"]["sweep"]
    assert killed["complete"] is False
    assert [e["result"]["name"] for e in killed["results"]] == ["t.py:plain", "t.py:chatty"]
    assert killed["pending"] == ["t.py:slow"]
    assert sweeps["ran_before_resume"][:2] == ["plain", "chatty"]


def test_resume_runs_only_what_is_missing(sweeps):
    r = sweeps["resumed"]
    assert r.returncode == 1, r.stderr  # chatty breaks
    assert "2 of 3 target(s) done, 1 to run" in r.stderr
    # the killed sweep may or may not have started `slow`; the resumed one ran it alone
    assert sweeps["ran_after_resume"][len(sweeps["ran_before_resume"]):] == ["slow"]
    assert sweeps["ran_after_resume"].count("plain") == 1 and sweeps["ran_after_resume"].count("chatty") == 1
    doc = json.loads((sweeps["folder"] / "old.json").read_text())
    assert doc["sweep"]["complete"] is True and doc["sweep"]["pending"] == []
    assert [t["name"] for t in doc["targets"]] == ["t.py:plain", "t.py:chatty", "t.py:slow"]
    assert all(t["status"] == "ok" for t in doc["targets"]) and doc["findings"]


def test_resume_refuses_other_options(sweeps):
    r = probe("-o", "old.json", "--resume", *ALL, cwd=sweeps["folder"])  # timing on: not what ran
    assert r.returncode == 2 and "other options" in r.stderr and "timing=False then" in r.stderr


def test_diff_text_json_and_plot(sweeps):
    folder = sweeps["folder"]
    assert sweeps["new"].returncode == 0, sweeps["new"].stderr
    text = probe("diff", "old.json", "new.json", "--plot", "diff.svg", cwd=folder)
    assert text.returncode == 0, text.stderr
    assert "t.py:chatty:" in text.stdout and "fixed: graph break at t.py:" in text.stdout
    assert "t.py:plain: unchanged" in text.stdout
    assert "t.py:slow: only in the old run (ok)" in text.stdout
    assert "1 break(s) fixed, 0 new" in text.stdout
    svg = (folder / "diff.svg").read_text()
    assert svg.startswith("<svg") and "t.py:chatty" in svg
    back = probe("diff", "new.json", "old.json", "--format", "json", cwd=folder)
    assert back.returncode == 1  # the old run has a break the new one does not: new breaks
    doc = json.loads(back.stdout)
    assert doc["summary"]["breaks_new"] == 1 and doc["summary"]["breaks_fixed"] == 0
    (chatty,) = [t for t in doc["targets"] if t["name"] == "t.py:chatty"]
    assert chatty["change"] == "changed" and chatty["breaks_new"][0]["kind"] == "graph_break"
    assert chatty["counts"]["graph_break"] == [0, 1]


@pytest.mark.parametrize("files, message", [
    (("old.json",), "give two probe reports"),
    (("old.json", "missing.json"), "missing.json: no such file"),
    (("old.json", "t.py"), "t.py: not JSON"),
    (("old.json", "other.json"), "other.json: not a probe report"),
])
def test_diff_bad_input(sweeps, files, message):
    (sweeps["folder"] / "other.json").write_text('{"version": 2}')
    r = probe("diff", *files, cwd=sweeps["folder"])
    assert r.returncode == 2 and message in r.stderr, r.stderr
