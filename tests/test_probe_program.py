"""`compilelint probe -- COMMAND`: the user's own program, with the flagged modules
compiled in place. Real subprocesses, real torch.compile (backend eager in place;
aot_eager where a replay is timed, to keep compile times small)."""

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

from cli_helpers import DEMO, make_project, sarif_schema  # noqa: E402
from conftest import run_cli  # noqa: E402

from compilelint.finding import Finding  # noqa: E402
from compilelint.probe.program import run_program  # noqa: E402
from compilelint.probe.roots import RootError, parse_root, roots_from_findings  # noqa: E402

MODELS = """
    import torch
    from torch import nn

    LIMIT = 3


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(8, 8)
            self.head = Head()

        def forward(self, x):
            h = self.lin(x)
            print("net called")
            return self.head(h)


    class Head(nn.Module):
        def forward(self, h):
            return h.relu()


    class Unused(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x
"""

TRAIN = """
    import sys

    import torch

    from pkg.models import Net

    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    losses = []
    for step, batch in enumerate([4, 4, 6, 4]):
        x = torch.randn(batch, 8)
        loss = net(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        print(f"step {step} loss {loss.item():.8f}")
    with open(sys.argv[1], "w") as fh:
        fh.write(repr(losses) + repr(net.lin.weight.sum().item()))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("run"), {
        "pkg/__init__.py": "", "pkg/models.py": MODELS, "train.py": TRAIN,
        "pyproject.toml": '[tool.compilelint.probe]\nrun = "python train.py checked.txt"\n',
    })


@pytest.fixture(scope="module")
def probed(project):
    """The training script plain, then under `probe -- COMMAND` (JSON report to a file)."""
    plain = run_cli("--version", cwd=project)  # warms nothing; keeps the env the same shape
    assert plain.returncode == 0
    import subprocess

    plain = subprocess.run([sys.executable, "train.py", "plain.txt"], cwd=project, capture_output=True,
                           text=True, timeout=120)
    assert plain.returncode == 0, plain.stderr
    res = run_cli("probe", "--no-timing", "--format", "json", "-o", "report.json", "--",
                  sys.executable, "train.py", "probed.txt", cwd=project, timeout=240)
    doc = json.loads((project / "report.json").read_text())
    return plain, res, doc


def test_the_programs_output_and_files_are_unchanged(project, probed):
    plain, res, doc = probed
    assert res.stdout == plain.stdout  # the program's stdout passed through, unchanged
    assert (project / "probed.txt").read_text() == (project / "plain.txt").read_text()
    assert doc["run"]["returncode"] == 0 and doc["run"]["stdout_tail"] == plain.stdout[-4000:]


def test_the_break_the_script_hits_is_confirmed_and_unused_is_not_reached(probed):
    _, res, doc = probed
    assert res.returncode == 1  # breaks seen
    assert doc["source"] == "run" and doc["command"].endswith("train.py probed.txt")
    verdicts = {(f["path"], f["line"], f["code"]): (f.get("evidence") or {}).get("status") for f in doc["findings"]}
    assert verdicts[("pkg/models.py", 15, "CL110")] == "confirmed"  # print() in Net.forward
    assert verdicts[("pkg/models.py", 26, "CL102")] == "not-reached"  # Unused is never built
    names = {t["name"]: t for t in doc["targets"]}
    assert set(names) == {"pkg.models:Net", "pkg.models:Unused"}  # Head holds no finding
    net = names["pkg.models:Net"]
    assert net["run"]["calls"] == 4 and net["run"]["instances"] == 1
    breaks = [b for b in net["breaks"] if b["kind"] == "graph_break"]
    assert [(b["path"], b["line"], b["gb_id"]) for b in breaks] == [("pkg/models.py", 15, "GB0059")]
    assert names["pkg.models:Unused"]["run"]["calls"] == 0


def test_batch_shape_recompiles_are_reported_with_their_guard(probed):
    _, _, doc = probed
    net = next(t for t in doc["targets"] if t["name"] == "pkg.models:Net")
    guards = [b["reason"] for b in net["breaks"] if b["kind"] == "recompile"]
    assert guards and all("size mismatch at index 0. expected 4, actual 6" in g for g in guards), guards
    assert net["run"]["recompiles"]


def test_sarif_carries_the_run(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from compilelint.probe.output import render_sarif
    from compilelint.probe.program import ProgramRun, results_from

    run = ProgramRun(command=[sys.executable, "train.py"], returncode=0, roots=["pkg.models:Net", "pkg.gone:X"])
    data = {"phase": "done", "roots": [
        {"root": "pkg.models:Net", "imported": True, "file": str(tmp_path / "m.py"), "status": "ok", "calls": 2,
         "instances": 1, "ops_per_graph": [3], "breaks": [{"kind": "recompile", "reason": "guard failed: x",
                                                        "gb_id": None, "file": str(tmp_path / "m.py"), "line": 3}]},
        {"root": "pkg.gone:X", "imported": False}]}
    results = results_from(data, run)
    assert [r.target for r in results] == ["pkg.models:Net"]
    run.results = results
    sarif = json.loads(render_sarif(results, [], root=str(tmp_path), program=run))
    jsonschema.validate(sarif, sarif_schema())
    probe = sarif["runs"][0]["properties"]["probe"]
    assert probe["source"] == "run" and probe["command"].endswith("train.py")
    assert probe["run"]["not_imported"] == ["pkg.gone:X"]
    assert probe["targets"][0]["run"]["recompiles"] == [{"reason": "guard failed: x", "line": 3, "count": 1}]


def test_check_probe_uses_the_run_entry(project):
    res = run_cli("check", "--no-cache", "--probe", "--format", "json", cwd=project, timeout=240)
    doc = json.loads(res.stdout)
    assert "step 0 loss" in res.stderr  # the program's output goes to stderr, the report to stdout
    statuses = {(f["path"], f["code"]): (f.get("evidence") or {}).get("status") for f in doc["findings"]}
    assert statuses[("pkg/models.py", "CL110")] == "confirmed"
    assert statuses[("pkg/models.py", "CL102")] == "not-reached"
    assert doc["probe"]["source"] == "run" and doc["probe"]["run"]["returncode"] == 0


SIMPLE = {
    "pkg/__init__.py": "",
    "pkg/models.py": """
        import torch
        from torch import nn

        CONSTANT = 3


        class Tiny(nn.Module):
            def forward(self, x):
                return x * 2 + 1
    """,
}


def test_a_failing_program_keeps_its_exit_status_and_a_bad_root_falls_back(tmp_path):
    project = make_project(tmp_path, {**SIMPLE, "fail.py": """
        import sys
        import torch
        from pkg.models import Tiny

        y = Tiny()(torch.ones(3))
        print("result", y.tolist())
        sys.exit(3)
    """, "site/sitecustomize.py": """
        import os
        open(os.environ["MARKER"], "w").write("ran")
    """})
    env = {"PYTHONPATH": os.pathsep.join([str(project / "site"), os.environ.get("PYTHONPATH", "")]),
           "MARKER": str(project / "marker")}
    old = dict(os.environ)
    os.environ.update(env)
    try:
        run = run_program([sys.executable, "fail.py"], ["pkg.models:Tiny", "pkg.models:CONSTANT"],
                          cwd=str(project), timeout=120, stdout=open(os.devnull, "w"))
    finally:
        os.environ.clear()
        os.environ.update(old)
    assert run.returncode == 3 and not run.timed_out
    assert run.stdout_tail == "result [3.0, 3.0, 3.0]\n"
    assert (project / "marker").read_text() == "ran"  # the user's sitecustomize still runs
    by = {r.target: r for r in run.results}
    assert by["pkg.models:Tiny"].ok and by["pkg.models:Tiny"].run["calls"] == 1
    assert by["pkg.models:Tiny"].capture.graph_count == 1
    bad = by["pkg.models:CONSTANT"]
    assert not bad.ok and "not a class or function" in bad.error


def test_a_hung_program_is_ended_by_the_time_limit(tmp_path):
    project = make_project(tmp_path, {**SIMPLE, "hang.py": """
        import time
        import torch
        from pkg.models import Tiny

        Tiny()(torch.ones(2))
        print("called", flush=True)
        time.sleep(600)
    """})
    started = time.monotonic()
    run = run_program([sys.executable, "hang.py"], ["pkg.models:Tiny"], cwd=str(project), timeout=20,
                      stdout=open(os.devnull, "w"))
    assert run.timed_out and time.monotonic() - started < 40
    assert run.stdout_tail == "called\n"
    tiny = run.results[0]  # written after the call that compiled, before the hang
    assert tiny.run["calls"] == 1 and tiny.capture.graph_count == 1


def test_a_program_that_compiles_a_root_itself_keeps_its_compile(tmp_path):
    project = make_project(tmp_path, {**SIMPLE, "own.py": """
        import torch
        from pkg.models import Tiny

        m = torch.compile(Tiny(), backend="aot_eager")
        for n in (2, 3):
            print(m(torch.ones(n)).tolist())
        print(torch._dynamo.utils.counters["stats"]["unique_graphs"])
    """})
    run = run_program([sys.executable, "own.py"], ["pkg.models:Tiny"], cwd=str(project), timeout=120,
                      stdout=open(os.devnull, "w"))
    assert run.returncode == 0
    # its graphs are its own (aot_eager, two: the second call's shape recompiles), none of ours
    assert run.stdout_tail == "[3.0, 3.0]\n[3.0, 3.0, 3.0]\n2\n"
    tiny = next(r for r in run.results if r.target == "pkg.models:Tiny")
    assert tiny.run["calls"] == 0 and tiny.run["user_compiled"] == 2
    assert tiny.lines_run == {}  # no lines recorded: no verdict rather than not-reached
    program = next(r for r in run.results if r.target == "(program)")
    assert [b.kind for b in program.breaks] == ["recompile"]


def test_timing_replays_the_recorded_inputs(tmp_path):
    project = make_project(tmp_path, {**SIMPLE, "use.py": """
        import torch
        from pkg.models import Tiny

        m = Tiny()
        for n in (16, 16, 16, 32):
            m(torch.ones(n, 64))
    """})
    run = run_program([sys.executable, "use.py"], ["pkg.models:Tiny"], cwd=str(project), timeout=200,
                      timing=True, backend="aot_eager", stdout=open(os.devnull, "w"))
    assert run.returncode == 0 and run.phase == "done", run.errors
    tiny = run.results[0]
    assert tiny.run["replay_signature"] == "float32[16, 64]@cpu" and tiny.run["replay_calls"] == 3
    t = tiny.timing
    assert t.eager is not None and t.eager.median_s > 0
    mode = t.modes[0]
    assert mode.ok and mode.backend == "aot_eager" and mode.compile_s is not None
    assert mode.worth_it["verdict"] in ("worth-it", "not-worth-it") and mode.worth_it["max_calls"] == 4
    assert tiny.run["program"]["calls"] == 4 and tiny.run["program"]["compiles"] == 2  # one recompile paid

    # the reports: per module its name, calls, recompiles with reasons, eager vs compiled, verdict
    from compilelint.probe.output import probe_document, render_text

    text = render_text(run.results, [], cwd=str(project), run=run, width=200)
    assert f"ran {sys.executable} use.py: exit status 0" in text
    assert "pkg.models:Tiny  ok" in text and "4 calls, 1 instance(s), 2 input signature(s)" in text
    assert "size mismatch at index 0. expected 16, actual 32" in text
    assert "eager ms" in text and "compile s" in text and "worth it: " in text
    assert "over the program's 4 calls" in text
    doc = probe_document(run.results, [], str(project), run)
    assert doc["source"] == "run" and doc["command"] == f"{sys.executable} use.py"
    assert doc["targets"][0]["run"]["qualified_name"] == "pkg.models:Tiny"
    assert doc["targets"][0]["timing"]["modes"][0]["worth_it"]["verdict"] in ("worth-it", "not-worth-it")


def test_check_probe_on_the_demo_gives_verdicts(tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    res = run_cli("check", "--no-cache", "--probe", "--format", "json", cwd=demo, timeout=300)
    doc = json.loads(res.stdout)
    region = [f for f in doc["findings"] if f["code"] not in ("CL301",) and not f["code"].startswith("CL9")]
    assert len(region) == 6
    assert all((f.get("evidence") or {}).get("status") for f in region), region
    statuses = {(f["line"], f["code"]): f["evidence"]["status"] for f in region}
    assert statuses[(69, "CL101")] == "confirmed"  # eval() of the activation
    assert statuses[(85, "CL202")] == "confirmed"  # the call counter recompiles
    assert statuses[(114, "CL102")] == "shadowed"  # in the frame the loop's break skipped


def test_roots_come_from_region_findings_only(tmp_path, monkeypatch):
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/models.py": "", "pkg/ops.py": "", "pkg/train.py": ""})
    monkeypatch.chdir(tmp_path)
    findings = [
        Finding(path="pkg/models.py", line=3, col=1, code="CL102", message="", scope="Net.forward"),
        Finding(path="pkg/models.py", line=9, col=1, code="CL110", message="", scope="Net.helper.<locals>.f"),
        Finding(path="pkg/ops.py", line=3, col=1, code="CL101", message="", scope="fused"),
        Finding(path="pkg/train.py", line=3, col=1, code="CL301", message="", scope="train"),  # compile API
        Finding(path="pkg/models.py", line=1, col=1, code="CL102", message="", scope=None),
    ]
    assert roots_from_findings(findings) == ["pkg.models:Net", "pkg.ops:fused"]
    assert parse_root(" a.b:C.D ") == "a.b:C.D"
    with pytest.raises(RootError):
        parse_root("a/b.py:C")


def test_the_replay_leaves_buffers_and_random_state_as_the_program_left_them(tmp_path):
    # the replay calls the live module after the program's work, before exit handlers the
    # program registered early: a training-mode BatchNorm and dropout must not leak into them
    project = make_project(tmp_path, {"pkg/__init__.py": "", "pkg/models.py": """
        import torch
        from torch import nn


        class Norm(nn.Module):
            def __init__(self):
                super().__init__()
                self.bn = nn.BatchNorm1d(8)
                self.drop = nn.Dropout(0.5)

            def forward(self, x):
                return self.drop(self.bn(x))
    """, "use.py": """
        import atexit

        import torch

        state = {}
        atexit.register(lambda: print("at exit", state["m"].bn.running_mean.sum().item(), torch.rand(1).item()))
        from pkg.models import Norm

        torch.manual_seed(0)
        m = state["m"] = Norm().train()
        for _ in range(3):
            m(torch.randn(4, 8))
    """})
    plain = subprocess.run([sys.executable, "use.py"], cwd=project, capture_output=True, text=True, timeout=120)
    out = tmp_path / "probed.out"
    with open(out, "w") as fh:
        run = run_program([sys.executable, "use.py"], ["pkg.models:Norm"], cwd=str(project), timeout=200,
                          timing=True, backend="aot_eager", stdout=fh)
    assert run.returncode == 0 and run.results[0].timing is not None, run.errors
    assert plain.stdout.strip().startswith("at exit")
    assert out.read_text() == plain.stdout
