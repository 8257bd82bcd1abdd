"""`check --write-baseline FILE` records the current findings; `check --baseline FILE`
reports only the ones not in it. Fingerprints ignore line numbers, so unrelated edits
(lines added above, code re-indented) do not bring baselined findings back."""

import json
import os
import stat

import pytest

from compilelint import baseline
from compilelint.finding import Finding

MODEL = """\
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            print(x)
        print(x)
        return x.item()
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "model.py").write_text(MODEL, encoding="utf-8")
    return tmp_path


def findings(proc):
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return json.loads(proc.stdout)["findings"]


def write_baseline(cli, project, name="baseline.json"):
    proc = cli("check", "--write-baseline", name, ".", cwd=project)
    assert proc.returncode == 0, proc.stderr
    return proc


def check(cli, project, *args, cwd=None):
    return cli("check", "--format", "json", "--baseline", str(project / "baseline.json"), *args,
               cwd=cwd or project)


def test_write_then_check_reports_nothing(cli, project):
    plain = findings(cli("check", "--format", "json", ".", cwd=project))
    assert len(plain) >= 3
    proc = write_baseline(cli, project)
    assert f"recorded {len(plain)} finding" in proc.stderr
    proc = check(cli, project, ".")
    assert proc.returncode == 0, proc.stdout
    assert findings(proc) == []


def test_the_file_format(cli, project):
    write_baseline(cli, project)
    path = project / "baseline.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == baseline.VERSION
    entries = data["findings"]
    assert entries and all(set(e) >= {"fingerprint", "code", "path", "line", "message"} for e in entries)
    assert all(e["path"] == "src/model.py" for e in entries)
    assert entries == sorted(entries, key=lambda e: (e["path"], e["line"], e["code"], e["fingerprint"]))
    assert len({e["fingerprint"] for e in entries}) == len(entries)
    # written whole, like any file the user creates, and nothing left beside it
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~_umask()
    assert sorted(p.name for p in project.iterdir()) == [".compilelint_cache", "baseline.json",
                                                         "pyproject.toml", "src"]
    # the same findings give the same file, byte for byte
    first = path.read_bytes()
    write_baseline(cli, project)
    assert path.read_bytes() == first


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_unrelated_edits_that_shift_lines_keep_findings_baselined(cli, project):
    write_baseline(cli, project)
    source = MODEL.replace("import torch\n", "import torch\nimport os\nimport sys\n\n\nHELPER = 1\n\n", 1)
    source = source.replace("class Model(nn.Module):\n",
                            "def helper(a, b):\n    return a + b\n\n\nclass Model(nn.Module):\n"
                            "    \"\"\"A model.\"\"\"\n\n")
    source = source.replace("        if x.sum() > 0:\n", "        # check the sign\n        if   x.sum()  >  0:\n")
    (project / "src" / "model.py").write_text(source, encoding="utf-8")
    moved = findings(cli("check", "--format", "json", ".", cwd=project))
    assert moved and all(f["line"] > 10 for f in moved)  # every finding moved
    proc = check(cli, project, ".")
    assert findings(proc) == [], proc.stdout
    assert proc.returncode == 0


def test_reindenting_the_code_keeps_findings_baselined(cli, project):
    write_baseline(cli, project)
    source = MODEL.replace("class Model(nn.Module):\n", "if True:\n  class Model(nn.Module):\n")
    source = "\n".join(("  " + line if i >= 5 and line else line) for i, line in enumerate(source.splitlines()))
    (project / "src" / "model.py").write_text(source + "\n", encoding="utf-8")
    assert findings(cli("check", "--format", "json", ".", cwd=project))  # still found
    assert findings(check(cli, project, ".")) == []


def test_a_new_finding_is_reported_alone(cli, project):
    write_baseline(cli, project)
    source = MODEL.replace("        return x.item()\n", "        y = x.tolist()\n        return x.item()\n")
    (project / "src" / "model.py").write_text(source, encoding="utf-8")
    proc = check(cli, project, ".")
    new = findings(proc)
    assert proc.returncode == 1
    assert [(f["code"], f["line"]) for f in new] == [("CL104", 10)]


def test_one_more_identical_line_is_one_new_finding(cli, project):
    write_baseline(cli, project)
    plain = findings(cli("check", "--format", "json", ".", cwd=project))
    prints = [f for f in plain if f["code"] == "CL110"]
    assert len(prints) == 2  # two `print(x)` lines, told apart by their occurrence index
    source = MODEL.replace("        print(x)\n        return", "        print(x)\n        print(x)\n        return")
    (project / "src" / "model.py").write_text(source, encoding="utf-8")
    new = findings(check(cli, project, "."))
    assert [f["code"] for f in new] == ["CL110"]


def test_fixed_findings_are_noted_as_gone(cli, project):
    write_baseline(cli, project)
    (project / "src" / "model.py").write_text(MODEL.replace("        return x.item()\n", "        return x\n"),
                                              encoding="utf-8")
    proc = check(cli, project, ".")
    assert proc.returncode == 0
    assert "1 baselined finding(s) are gone" in proc.stderr


def test_fingerprints_do_not_depend_on_the_working_directory(cli, project):
    write_baseline(cli, project)
    proc = check(cli, project, "..", cwd=project / "src")  # paths shown as ../src/model.py
    assert findings(proc) == []
    proc = check(cli, project, str(project / "src" / "model.py"), cwd=project.parent)
    assert findings(proc) == []


def test_baseline_filters_every_format(cli, project):
    write_baseline(cli, project)
    for fmt in ("concise", "text", "github"):
        proc = cli("check", "--format", fmt, "--baseline", "baseline.json", ".", cwd=project)
        assert proc.returncode == 0, proc.stdout
        assert "CL1" not in proc.stdout
    proc = cli("check", "--format", "sarif", "--baseline", "baseline.json", ".", cwd=project)
    assert json.loads(proc.stdout)["runs"][0]["results"] == []
    proc = cli("check", "--statistics", "--baseline", "baseline.json", ".", cwd=project)
    assert proc.stdout.strip() == ""


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    ("{not json", "not valid JSON"),
    ('{"findings": []}', "no version field"),
    ('{"version": 99, "findings": []}', "version 99"),
    ('{"version": 1, "findings": [{"code": "CL102"}]}', "fingerprint"),
    ('[1, 2]', "not a compilelint baseline"),
])
def test_a_bad_baseline_file_is_a_usage_error(cli, project, content, message):
    if content is not None:
        (project / "baseline.json").write_text(content, encoding="utf-8")
    proc = check(cli, project, ".")
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_write_baseline_cannot_be_combined(cli, project):
    proc = cli("check", "--write-baseline", "b.json", "--baseline", "b.json", ".", cwd=project)
    assert proc.returncode == 2 and "--write-baseline" in proc.stderr


def test_an_interrupted_write_leaves_the_old_file(project, monkeypatch):
    target = project / "baseline.json"
    target.write_text('{"version": 1, "findings": []}\n', encoding="utf-8")
    finding = Finding(path=str(project / "src" / "model.py"), line=7, col=12, code="CL102", message="m")

    def fail(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(baseline.BaselineError, match="No space left"):
        baseline.write(target, [finding], project)
    assert target.read_text(encoding="utf-8") == '{"version": 1, "findings": []}\n'
    assert sorted(p.name for p in project.iterdir()) == ["baseline.json", "pyproject.toml", "src"]


def test_fingerprint_rules(project):
    path = str(project / "src" / "model.py")
    make = lambda line, code="CL110": Finding(path=path, line=line, col=9, code=code, message="m")  # noqa: E731
    # the two print(x) lines (8 and 9, indented differently) differ only by occurrence
    a, b = baseline.fingerprints([make(8), make(9)], project)
    assert a != b
    # order of the input does not matter; line numbers do not either (same text, same index)
    assert baseline.fingerprints([make(9), make(8)], project) == [b, a]
    # CL000: by code and path only; CL001 is never recorded
    crash = Finding(path=path, line=1, col=1, code="CL001", message="rule crashed")
    data = json.loads(baseline.render([make(8), crash], project))
    assert [e["code"] for e in data["findings"]] == ["CL110"]
    broken = Finding(path=path, line=3, col=1, code="CL000", message="syntax error")
    moved = Finding(path=path, line=30, col=4, code="CL000", message="syntax error elsewhere")
    assert baseline.fingerprints([broken], project) == baseline.fingerprints([moved], project)
    filtered = baseline.apply([crash], baseline.Baseline(), project)
    assert filtered.findings == [crash]
