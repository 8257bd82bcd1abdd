"""Module classes from installed packages (`compilelint.external_classes`): a project class
whose bases reach `nn.Module` only inside an installed package is a module, read from that
package's source without importing it; the run cache notices when the package changes.
(Dynamo's side: corpus `cf_installed_module_base_01` and its clean twin.)"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

from conftest import run_cli

PROJECT = '''
import torch
from vendorlib import Policy


class Mine(Policy):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x
'''


def _site(tmp_path: Path, base: str = "nn.Module", name: str = "vendorlib") -> Path:
    site = tmp_path / "site"
    pkg = site / name
    (pkg / "core").mkdir(parents=True, exist_ok=True)
    # importing the package would fail loudly: the static pass must only read it
    (pkg / "__init__.py").write_text("raise RuntimeError('imported')\nfrom .core.policies import *\n")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "core" / "policies.py").write_text(textwrap.dedent(f'''
        from torch import nn

        class Base({base}):
            pass

        class Policy(Base):
            pass
    '''))
    return site


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "model.py").write_text(PROJECT)
    return project


def _codes(proc) -> list[tuple[int, str]]:
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["code"]) for f in json.loads(proc.stdout)["findings"]]


def test_an_installed_base_makes_a_module(tmp_path):
    site, project = _site(tmp_path), _project(tmp_path)
    env = {"PYTHONPATH": str(site)}
    found = _codes(run_cli("check", "--no-cache", "--format", "json", "model.py", cwd=project, env=env))
    assert found == [(8, "CL102")]


def test_without_the_package_nothing_is_assumed(tmp_path):
    project = _project(tmp_path)
    found = _codes(run_cli("check", "--no-cache", "--format", "json", "model.py", cwd=project,
                           env={"PYTHONPATH": str(tmp_path / "missing")}))
    assert found == []


def test_a_plain_installed_base_is_no_module(tmp_path):
    site, project = _site(tmp_path, base="object"), _project(tmp_path)
    found = _codes(run_cli("check", "--no-cache", "--format", "json", "model.py", cwd=project,
                           env={"PYTHONPATH": str(site)}))
    assert found == []


def test_the_run_cache_notices_a_changed_package(tmp_path):
    site, project = _site(tmp_path), _project(tmp_path)
    env = {"PYTHONPATH": str(site)}
    cache = ["--cache-dir", str(tmp_path / "cache")]
    first = _codes(run_cli("check", *cache, "--format", "json", "model.py", cwd=project, env=env))
    assert first == [(8, "CL102")]
    policies = site / "vendorlib" / "core" / "policies.py"
    policies.write_text(policies.read_text().replace("class Base(nn.Module)", "class Base(object)"))
    stat = policies.stat()
    os.utime(policies, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a later install
    again = _codes(run_cli("check", *cache, "--format", "json", "model.py", cwd=project, env=env))
    assert again == []


def test_a_long_lived_process_forgets_a_changed_package(tmp_path, monkeypatch):
    """A daemon or language server outlives a `pip install`: the next index reads again."""
    from compilelint import external_classes

    site = _site(tmp_path, name="refreshed_vendorlib")  # (a name of its own: the caches are per process)
    monkeypatch.syspath_prepend(str(site))
    dotted = "refreshed_vendorlib.core.policies.Policy"
    assert external_classes.is_module(dotted)
    policies = site / "refreshed_vendorlib" / "core" / "policies.py"
    policies.write_text(policies.read_text().replace("class Base(nn.Module)", "class Base(object)"))
    stat = policies.stat()
    os.utime(policies, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert external_classes.is_module(dotted)  # memoised until asked to look again
    external_classes.refresh()
    assert not external_classes.is_module(dotted)
