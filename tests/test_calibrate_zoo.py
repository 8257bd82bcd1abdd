"""The model-zoo calibration end to end on a tiny self-made library (CI installs no zoo library).

``tinylib`` is a package with a known graph break in training only and a helper whose
break no model reaches; its adapter (benchmarks/zoo/<library>.py's interface: ``PACKAGE``
and ``MODELS``) lists a model that builds, one whose factory raises and one that returns
the wrong shape. ``benchmarks/calibrate_zoo.py --capture`` runs calibrate.py on it: each
(model, mode) captured by the probe in its own process, eval and train only, then the
static pass and the per-library table and findings list."""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO

pytest.importorskip("torch")

LIBRARY = textwrap.dedent('''\
    import torch
    from torch import nn


    def rarely(x, verbose=False):
        if verbose:
            print("never printed")  # NOT-RUN
        return x


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)

        def forward(self, x):
            h = rarely(self.proj(x))
            if self.training:
                n = h.norm().item()  # BREAK train
                h = h / (n + 1)
            return h.relu()
''')

ADAPTER = textwrap.dedent('''\
    """The adapter of the tiny library."""

    PACKAGE = "tinylib"


    def _block(mode):
        import torch
        from tinylib.block import Block

        return Block(), (torch.randn(2, 8),), {}


    def _broken(mode):
        raise RuntimeError("this one needs a download")


    MODELS = {"block": _block, "broken": _broken, "bad_shape": lambda mode: (None,)}
''')


def _line(text, label):
    return next(i for i, line in enumerate(text.splitlines(), 1) if f"# {label}" in line)


@pytest.fixture
def tinyzoo(tmp_path):
    lib = tmp_path / "site" / "tinylib"
    lib.mkdir(parents=True)
    (lib / "__init__.py").write_text("")
    (lib / "block.py").write_text(LIBRARY)
    meta = tmp_path / "site" / "tinylib-0.3.dist-info"  # what importlib.metadata reads the version from
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: tinylib\nVersion: 0.3\n")
    (tmp_path / "zoo").mkdir()
    (tmp_path / "zoo" / "tinylib.py").write_text(ADAPTER)
    return tmp_path


def test_zoo_calibration_of_a_tiny_library(tinyzoo):
    out, findings = tinyzoo / "out", tinyzoo / "findings.md"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tinyzoo / "site"), str(REPO / "src")]))
    cmd = [sys.executable, str(REPO / "benchmarks" / "calibrate_zoo.py"), "--zoo-dir", str(tinyzoo / "zoo"),
           "--capture", "--jobs", "1", "--cache", str(tinyzoo / "cache"), "--out-dir", str(out),
           "--findings", str(findings)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tinyzoo, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((out / "zoo-tinylib.json").read_text())

    # a zoo adapter runs eval and train, never transformers' padded setting
    assert doc["settings"] == ["eval", "train"]
    assert doc["versions"]["suite"] == "tinylib" and doc["versions"]["tinylib"] == "0.3"
    assert doc["source"] == os.path.realpath(tinyzoo / "site" / "tinylib")
    skipped = doc["models"]["skipped"]
    assert set(skipped) == {"broken", "bad_shape"}
    assert "this one needs a download" in skipped["broken"]["eval"]
    assert "must return (callable, args, kwargs)" in skipped["bad_shape"]["eval"]
    assert doc["models"]["runs_ok"] == {"eval": 1, "train": 1}

    # Dynamo's side: the training-only break, in train alone
    brk = _line(LIBRARY, "BREAK train")
    assert [(b["path"], b["line"], b["runs"]) for b in doc["breaks"]] == [("tinylib/block.py", brk, ["block[train]"])]
    # the static side: the .item() is found (confirmed in train); the print in the helper never ran
    verdicts = {(f["line"], f["code"]): f["verdict"] for f in doc["findings"]}
    assert verdicts.get((brk, "CL103")) == "confirmed", verdicts
    assert all(v == "not-reached" for (line, _), v in verdicts.items() if line == _line(LIBRARY, "NOT-RUN"))

    # the table: one row per library and a total, numbers as the JSON has them
    assert "| tinylib | 0.3 | 1 / 2 | 1.00 (1/1) |" in proc.stdout
    assert "| **all** | | 1 / 2 | 1.00 (1/1) |" in proc.stdout
    md = findings.read_text()
    assert "### tinylib 0.3" in md and "Missed graph-break statements (0)" in md

    # classify again from the cache against another linter source, with a before/after table
    again = subprocess.run([*cmd[:cmd.index("--capture")], "--cache", str(tinyzoo / "cache"), "--out-dir",
                            str(tinyzoo / "after"), "--linter-src", str(REPO / "src"), "--compare", str(out)],
                           capture_output=True, text=True, timeout=600, cwd=tinyzoo, env=env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "before: recall" in again.stdout and "1.00 (1/1) | 1.00 (1/1) |" in again.stdout
    after = json.loads((tinyzoo / "after" / "zoo-tinylib.json").read_text())
    assert after["summary"] == doc["summary"]
    assert after["models"]["capture"] == {} and after["models"]["runs"] == doc["models"]["runs"]  # nothing recaptured
    assert after["versions"]["linter"]["source"] == f"--linter-src {REPO / 'src'}"


def test_zoo_refuses_an_unknown_library(tinyzoo):
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "calibrate_zoo.py"), "--zoo-dir",
                           str(tinyzoo / "zoo"), "--libraries", "tinylib,nolib"], capture_output=True, text=True)
    assert proc.returncode == 2 and "no adapter for nolib" in proc.stderr and "have: tinylib" in proc.stderr


def _adapter_module():
    spec = importlib.util.spec_from_file_location("_zoo_adapter_under_test", REPO / "benchmarks" / "zoo" / "adapter.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_shipped_adapter_declares_the_interface():
    """Each benchmarks/zoo/<library>.py names its package and its models, imports no
    library at import time (the driver loads it before any zygote), and keeps to eval/train."""
    ad = _adapter_module()
    files = sorted(p for p in (REPO / "benchmarks" / "zoo").glob("*.py") if p.stem != "adapter")
    assert len(files) >= 5
    for path in files:
        spec = importlib.util.spec_from_file_location(f"_zoo_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        before = set(sys.modules)
        spec.loader.exec_module(mod)
        assert mod.PACKAGE not in set(sys.modules) - before, f"{path.name} imports {mod.PACKAGE} at import time"
        assert ad.is_adapter(mod), path.name
        suite = ad.ZooSuite(mod)
        # (an inference-only package, rwkv, declares `SETTINGS = ("eval",)`)
        assert suite.SETTINGS in (("eval", "train"), ("eval",)) and suite.NAME == mod.PACKAGE, path.name
        assert len(suite.models()) >= 10 and all(callable(mod.MODELS[m]) for m in suite.models()), path.name


def test_an_adapter_that_lists_more_models_is_listed_again(tinyzoo):
    """The model list is cached beside the captures; an adapter changed since lists its
    models again, and only the new one is captured."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tinyzoo / "site"), str(REPO / "src")]))
    cmd = [sys.executable, str(REPO / "benchmarks" / "calibrate_zoo.py"), "--zoo-dir", str(tinyzoo / "zoo"),
           "--capture", "--jobs", "1", "--cache", str(tinyzoo / "cache")]
    first = subprocess.run([*cmd, "--out-dir", str(tinyzoo / "one")], capture_output=True, text=True, timeout=600,
                           cwd=tinyzoo, env=env)
    assert first.returncode == 0, first.stderr[-3000:]
    adapter = tinyzoo / "zoo" / "tinylib.py"
    adapter.write_text(ADAPTER.replace('MODELS = {"block": _block,', 'MODELS = {"block": _block, "block_too": _block,'))
    plan = next((tinyzoo / "cache").rglob("plan.json"))
    later = plan.stat().st_mtime + 2
    os.utime(adapter, (later, later))
    second = subprocess.run([*cmd, "--out-dir", str(tinyzoo / "two")], capture_output=True, text=True, timeout=600,
                            cwd=tinyzoo, env=env)
    assert second.returncode == 0, second.stderr[-3000:]
    doc = json.loads((tinyzoo / "two" / "zoo-tinylib.json").read_text())
    assert doc["models"]["runs_ok"] == {"eval": 2, "train": 2}
    assert "block_too" in json.loads(plan.read_text())
    assert "capturing 1 model(s) (3 cached)" in second.stderr  # block_too only


def test_before_build_runs_before_every_make():
    """An adapter's `before_build()` (stand-in modules a model's imports need) runs before each
    `make`, in whatever process builds it: the builds see what it set up."""
    import types

    import torch

    ad = _adapter_module()
    stubbed = []

    def make(mode):
        assert stubbed, "make ran before before_build"
        return torch.nn.Linear(2, 2), (torch.randn(1, 2),), {}

    adapter = types.SimpleNamespace(PACKAGE="tinylib", MODELS={"a": make, "b": make},
                                    before_build=lambda: stubbed.append(len(stubbed)))
    suite = ad.ZooSuite(adapter)
    suite.build("a", "eval", None)
    suite.build("b", "train", None)
    assert stubbed == [0, 1]


def test_a_single_module_library_is_refused_with_what_it_is(tmp_path, monkeypatch):
    """A distribution that installs one module, not a package, has no folder to check: the
    suite says so instead of calling it not installed."""
    (tmp_path / "onefile_lib.py").write_text("import torch\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    adapter = type(sys)("onefile_adapter")
    adapter.__file__, adapter.PACKAGE, adapter.MODELS = str(tmp_path / "adapter.py"), "onefile_lib", {}
    suite = _adapter_module().ZooSuite(adapter)
    with pytest.raises(SystemExit, match="onefile_lib is a single module .*onefile_lib.py.*, not a package"):
        suite.package_dir()
    adapter.PACKAGE = "no_such_lib_here"
    with pytest.raises(SystemExit, match="no_such_lib_here is not installed"):
        suite.package_dir()
