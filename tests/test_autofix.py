"""`check --fix` and `check --diff`: the edits the rules whose fix is safe (CL301, CL302)
attach to their findings, applied byte-for-byte everywhere else; the others keep a
suggestion (`help`) only."""

import json
import os
import stat

import libcst as cst
import pytest

from compilelint import fixes, registry
from compilelint.finding import Edit, Finding

BEFORE = """\
import torch
from torch import nn


def restore(path):
    model = Net()   # the network
    # compile for speed
    model = torch.compile(model, mode="max-autotune")  # slow to compile
    model.load_state_dict(torch.load(path))
    return model


def run(batches, mlp, w1, w2):
    outs = []

    # one pass per batch
    for x in batches:
        # the fused MLP
        mlp = torch.compile(mlp, dynamic=False)  # wrap it
        outs.append(mlp(x, w1, w2))
    return outs


class Trainer:
    def __init__(self, model):
        self.model = model
        self.model = torch.compile(self.model)

    def save(self, path):
        torch.save(self.model.state_dict(), path)
"""

AFTER = """\
import torch
from torch import nn


def restore(path):
    model = Net()   # the network
    # compile for speed
    model.compile(mode="max-autotune")  # slow to compile
    model.load_state_dict(torch.load(path))
    return model


def run(batches, mlp, w1, w2):
    outs = []

    # one pass per batch
    # the fused MLP
    mlp = torch.compile(mlp, dynamic=False)  # wrap it
    for x in batches:
        outs.append(mlp(x, w1, w2))
    return outs


class Trainer:
    def __init__(self, model):
        self.model = model
        self.model.compile()

    def save(self, path):
        torch.save(self.model.state_dict(), path)
"""

# Findings whose fix is not safe: a suggestion only, the file untouched.
UNSAFE = {
    "other-name": """\
import torch
def restore(model, path):
    fast = torch.compile(model)
    fast.load_state_dict(torch.load(path))
    return fast
""",
    "orig-mod-used": """\
import torch
def restore(model, path):
    model = torch.compile(model)
    model.load_state_dict(torch.load(path))
    return model._orig_mod
""",
    "loop-varying": """\
import torch
def sweep(margins, scores):
    out = []
    for m in margins:
        loss_fn = torch.compile(make_loss(m))
        out.append(loss_fn(scores))
    return out
""",
    "argument-with-a-call": """\
import torch
def run(batches, fn):
    for x in batches:
        fn = torch.compile(fn, options=make_options())
        fn(x)
""",
    "used-before-in-the-loop": """\
import torch
def run(batches, fn):
    for x in batches:
        fn(x)
        fn = torch.compile(fn)
        fn(x)
""",
    "nested-in-an-if": """\
import torch
def run(batches, fn, fast):
    for x in batches:
        if fast:
            fn = torch.compile(fn)
            fn(x)
""",
}


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    return tmp_path


def findings_of(proc):
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return json.loads(proc.stdout)["findings"]


def codes(cli, project):
    return sorted(f["code"] for f in findings_of(cli("check", "--format", "json", ".", cwd=project)))


def test_fix_rewrites_and_keeps_formatting_and_comments(cli, project):
    path = project / "train.py"
    path.write_text(BEFORE, encoding="utf-8")
    assert codes(cli, project).count("CL301") == 2 and "CL302" in codes(cli, project)
    proc = cli("check", "--fix", "--format", "json", ".", cwd=project)
    assert "fixed 3 finding(s)" in proc.stderr
    assert path.read_text(encoding="utf-8") == AFTER
    cst.parse_module(AFTER)
    compile(AFTER, "train.py", "exec")
    left = findings_of(proc)  # what is reported is what is left
    assert not [f for f in left if f["code"] in ("CL301", "CL302")]


def test_fix_is_idempotent(cli, project):
    path = project / "train.py"
    path.write_text(BEFORE, encoding="utf-8")
    cli("check", "--fix", ".", cwd=project)
    once = path.read_bytes()
    proc = cli("check", "--fix", ".", cwd=project)
    assert "fixed" not in proc.stderr
    assert path.read_bytes() == once
    proc = cli("check", "--diff", ".", cwd=project)
    assert proc.returncode == 0 and proc.stdout == ""


def test_diff_prints_the_fix_and_writes_nothing(cli, project):
    path = project / "train.py"
    path.write_text(BEFORE, encoding="utf-8")
    os.utime(path, (1_000_000_000, 1_000_000_000))
    proc = cli("check", "--diff", ".", cwd=project)
    assert proc.returncode == 1
    assert proc.stdout.startswith("--- a/train.py\n+++ b/train.py\n")
    assert '-    model = torch.compile(model, mode="max-autotune")  # slow to compile\n' in proc.stdout
    assert '+    model.compile(mode="max-autotune")  # slow to compile\n' in proc.stdout
    assert "+    mlp = torch.compile(mlp, dynamic=False)  # wrap it\n" in proc.stdout
    assert "would be applied by --fix" in proc.stderr
    assert path.read_text(encoding="utf-8") == BEFORE
    assert os.stat(path).st_mtime == 1_000_000_000
    assert sorted(p.name for p in project.iterdir()) == [".compilelint_cache", "pyproject.toml", "train.py"]
    # the diff applies: the patched text is what --fix writes
    cli("check", "--fix", ".", cwd=project)
    assert path.read_text(encoding="utf-8") == AFTER


def test_diff_with_nothing_to_fix_exits_0(cli, project):
    (project / "clean.py").write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    proc = cli("check", "--diff", ".", cwd=project)
    assert proc.returncode == 0 and proc.stdout == ""


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_unsafe_fixes_are_suggestions_only(cli, project, name):
    path = project / "case.py"
    path.write_text(UNSAFE[name], encoding="utf-8")
    found = findings_of(cli("check", "--format", "json", ".", cwd=project))
    hits = [f for f in found if f["code"] in ("CL301", "CL302")]
    assert hits and all(f["help"] for f in hits)  # the suggestion is still shown
    proc = cli("check", "--diff", ".", cwd=project)
    assert proc.returncode == 0 and proc.stdout == ""
    cli("check", "--fix", ".", cwd=project)
    assert path.read_text(encoding="utf-8") == UNSAFE[name]


def test_fix_keeps_line_ends_bom_encoding_and_mode(cli, project):
    crlf = project / "crlf.py"
    crlf.write_bytes(BEFORE.replace("\n", "\r\n").encode())
    bom = project / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + BEFORE.encode())
    latin = project / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# café\n" + BEFORE).encode("latin-1"))
    tabs = project / "tabs.py"
    tabs.write_text(BEFORE.replace("    ", "\t"), encoding="utf-8")
    os.chmod(tabs, 0o750)
    cli("check", "--fix", ".", cwd=project)
    assert crlf.read_bytes() == AFTER.replace("\n", "\r\n").encode()
    assert bom.read_bytes() == b"\xef\xbb\xbf" + AFTER.encode()
    assert latin.read_bytes() == ("# -*- coding: latin-1 -*-\n# café\n" + AFTER).encode("latin-1")
    assert tabs.read_text(encoding="utf-8") == AFTER.replace("    ", "\t")
    assert stat.S_IMODE(os.stat(tabs).st_mode) == 0o750


def test_a_symlinked_file_is_not_fixed(cli, project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "real.py"
    outside.write_text(BEFORE, encoding="utf-8")
    os.symlink(outside, project / "link.py")
    proc = cli("check", "--fix", ".", cwd=project)
    assert "symbolic link; not fixed" in proc.stderr
    assert outside.read_text(encoding="utf-8") == BEFORE
    assert os.path.islink(project / "link.py")


def test_fix_and_diff_exclude_each_other(cli, project):
    (project / "train.py").write_text(BEFORE, encoding="utf-8")
    proc = cli("check", "--fix", "--diff", ".", cwd=project)
    assert proc.returncode == 2 and "exclude each other" in proc.stderr


def test_rules_marks_the_fixable_ones(cli):
    rows = json.loads(cli("rules", "--format", "json").stdout)
    fixable = {row["code"] for row in rows if row["fixable"]}
    assert {"CL301", "CL302"} <= fixable
    assert fixable == {code for code, info in registry.ALL.items() if info.autofix}
    text = cli("rules").stdout
    for line in text.splitlines():
        if line.startswith(("CL301", "CL302")):
            assert line.rstrip().endswith("yes"), line


def test_apply_never_breaks_or_raises():
    garbage = "def f(:\n  return (\n"
    finding = Finding(path="x.py", line=1, col=1, code="CL301", message="m", edits=(Edit(1, 1, 1, 4, "x"),))
    assert fixes.apply(garbage, [finding]) == garbage
    assert fixes.apply(BEFORE, []) == BEFORE
    stale = Finding(path="x.py", line=999, col=3, code="CL302", message="m", edits=(Edit(999, 3, 999, 9, ""),))
    assert fixes.apply(BEFORE, [stale]) == BEFORE
    breaking = Finding(path="x.py", line=1, col=1, code="CL302", message="m", edits=(Edit(1, 1, 1, 1, "("),))
    assert fixes.apply(BEFORE, [breaking]) == BEFORE  # the result must still parse


def edit_finding(line, *edits, code="CL302"):
    return Finding(path="x.py", line=line, col=1, code=code, message="m", edits=tuple(Edit(*e) for e in edits))


def test_edits_apply_in_order_once_each_and_never_overlap():
    text = "a = 1\nb = 2\nc = 3\n"
    first = edit_finding(1, (1, 1, 1, 2, "x"), (3, 1, 3, 1, "# top\n"))
    same = edit_finding(2, (1, 1, 1, 2, "x"))  # the same edit for another finding: made once
    clash = edit_finding(3, (1, 1, 2, 2, "y"))  # overlaps the first: left for the next run
    inserted = edit_finding(4, (3, 1, 3, 1, "# second\n"))  # at the same place: after the first
    new, fixed = fixes.plan_and_apply(text, [clash, inserted, same, first])
    assert new == "x = 1\nb = 2\n# top\n# second\nc = 3\n"
    assert fixed == [first, same, inserted]


def test_edits_count_columns_in_characters_and_lines_as_libcst_does():
    text = "s = 'é'\r\nt = 'ü'  # x\rend = 1"
    new = fixes.apply(text, [edit_finding(2, (2, 5, 2, 8, "'u'")), edit_finding(3, (3, 7, 3, 8, "2"))])
    assert new == "s = 'é'\r\nt = 'u'  # x\rend = 2"
    # a span up to one line past a last line without its line end: the end of the text
    assert fixes.apply("x = 1\ny = 2", [edit_finding(2, (2, 1, 3, 1, "y = 3"))]) == "x = 1\ny = 3"


def test_a_finding_carries_its_edits_through_the_cache(cli, project):
    path = project / "train.py"
    path.write_text(BEFORE, encoding="utf-8")
    cold = cli("check", "--diff", ".", cwd=project)
    warm = cli("check", "--diff", ".", cwd=project)  # every file from the cache
    assert cold.stdout and warm.stdout == cold.stdout
