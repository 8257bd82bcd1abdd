"""The server's incremental analysis gives what a whole analysis gives, edit after edit.

`splice.reparse` must build the tree `libcst.parse_module` builds; `FileModel` must give
the `FileAnalysis` that `analysis.analyze` gives for the same text, while walking only the
top-level statements an edit changed when nothing else can have changed. Texts are the
bundled corpus (real rule cases) joined into one module, and small modules written for
one way state crosses statements (module scans, leave_Module reports, class tables).
"""

from __future__ import annotations

import random

import libcst as cst
import pytest

from compilelint import config, engine
from compilelint.analysis import analyze
from compilelint.incremental import FileModel
from compilelint.incremental import splice
from conftest import corpus_sample

SETTINGS = config.Settings()
RULES = engine.rules_for(SETTINGS)


def joined(count: int) -> str:
    """`count` corpus cases spread over the corpus, one after another: many classes, findings
    of every rule family."""
    return "".join(path.read_text(encoding="utf-8") + "\n\n" for path in corpus_sample(count))


TYPED = ["        print('x')\n", "# note\n", "\n", "    \n", "        y = x.item()\n", "    # indented note\n",
         "x = 1\n", "import os\n", "        for i in range(3):\n            print(i)\n", "@torch.no_grad()\n"]


def edits(text: str, count: int, seed: int):
    """`count` edits in a row, of the kinds an editor makes (lines typed, removed,
    indented, dedented, commented; near comments and blank lines half the time, where
    lines can move between statements). Each applies to the last text that parsed."""
    rng = random.Random(seed)
    for _ in range(count):
        lines = text.splitlines(keepends=True)
        k = rng.randrange(len(lines))
        if rng.random() < 0.5:
            gaps = [i for i, line in enumerate(lines) if not line.strip() or line.lstrip().startswith("#")]
            k = rng.choice(gaps) if gaps else k
        roll = rng.random()
        if roll < 0.35:
            lines.insert(k, rng.choice(TYPED))
        elif roll < 0.5:
            del lines[k]
        elif roll < 0.65:
            lines[k] = "    " + lines[k]
        elif roll < 0.8:
            lines[k] = lines[k][4:] if lines[k].startswith("    ") else lines[k]
        else:
            lines[k] = lines[k].rstrip("\n") + "  # edited\n"
        edited = "".join(lines)
        yield edited
        text = edited if parses(edited) else text


def parses(text: str) -> bool:
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:
        return False
    return True


@pytest.mark.parametrize("seed", range(2))
def test_splice_builds_the_tree_a_whole_parse_builds(seed):
    old = splice.parse(joined(40))
    spliced = 0
    for text in edits(old.text, 40, seed):
        if not parses(text):
            continue
        new = splice.reparse(old, text)
        whole = splice.parse(text)
        assert new.tree.deep_equals(whole.tree)  # (not `.code == text`: libcst itself does not
        # give back a comment indented by 2 at the end of a file)
        assert (new.header, new.spans) == (whole.header, whole.spans)
        spliced += any(a is b for a, b in zip(new.tree.body, old.tree.body))
        old = new
    assert spliced > 15  # most edits were spliced, not parsed whole


def test_model_gives_what_a_whole_analysis_gives():
    start = joined(45)
    path = "joined.py"
    partial = parsed = 0
    for seed in (0, 1):  # (one run of edits may type at module level, which walks the file, most of the time)
        model = FileModel(path, "joined", RULES, SETTINGS)
        assert model.analyze(start) == analyze(path, start, "joined", RULES, SETTINGS)
        for text in edits(start, 16, seed):
            try:
                whole = analyze(path, text, "joined", RULES, SETTINGS)
            except cst.ParserSyntaxError:
                with pytest.raises(cst.ParserSyntaxError):
                    model.analyze(text)
                continue
            assert model.analyze(text) == whole
            parsed += 1
            partial += model.walked < len(model.groups) // 2
    assert partial * 2 > parsed  # most edits walked a few groups, not the file


def run(model: FileModel, text: str):
    """The model's analysis of `text`, checked against a whole one, and the groups walked."""
    result = model.analyze(text)
    assert result == analyze(model.path, text, model.module, RULES, SETTINGS)
    return result, model.walked


TWO_CLASSES = '''
import torch
from torch import nn


class A(nn.Module):
    def forward(self, x):
        y = x * 2
        return y


class B(nn.Module):
    def forward(self, x):
        return x.item()


compiled = torch.compile(B())
'''


def test_an_edit_inside_one_class_walks_only_that_class():
    model = FileModel("m.py", "m", RULES, SETTINGS)
    first, _ = run(model, TWO_CLASSES)
    edited, walked = run(model, TWO_CLASSES.replace("        y = x * 2\n", "        y = x * 2\n        print(y)\n"))
    assert walked == 1
    assert [f.code for f in edited.candidates if f.code == "CL110"] == ["CL110"]
    later = next(f for f in edited.candidates if f.code == "CL103")
    assert later.line == next(f for f in first.candidates if f.code == "CL103").line + 1  # moved down


def test_edits_inside_a_class_walk_only_the_member_they_touch():
    """The first edit in a class walks it member by member (keeping each member's
    starting state); the next ones walk only the member they changed, and the findings
    of the members after it move with their lines."""
    text = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)
        return y

    def extra(self, x):
        return x.item()

    def more(self, x):
        print(x)
        return x
"""
    model = FileModel("m.py", "m", RULES, SETTINGS)
    run(model, text)
    step = text.replace("        y = self.lin(x)\n", "        y = self.lin(x)\n        y = y + 1\n")
    _, walked = run(model, step)
    assert walked == 4  # the class's members, once
    step = step.replace("        y = y + 1\n", "        y = y + 1\n        z = y.tolist()\n")
    found, walked = run(model, step)
    assert walked == 1
    assert {f.code for f in found.candidates} >= {"CL103", "CL104", "CL110"}
    _, walked = run(model, step.replace("        print(x)\n", ""))
    assert walked == 1


def test_an_edit_that_changes_what_later_statements_see_walks_them_again():
    """`SCALE` is typed where it is assigned; B reads it. Changing it changes the state
    after that group (and after every group: the module's names stay changed), so B and C
    are walked again, and B's finding goes."""
    text = """
import torch
from torch import nn

SCALE = torch.ones(1)


class B(nn.Module):
    def forward(self, x):
        if SCALE:
            return x
        return -x


class C(nn.Module):
    def forward(self, x):
        return x.item()
"""
    model = FileModel("m.py", "m", RULES, SETTINGS)
    before, _ = run(model, text)
    assert {f.code for f in before.candidates} == {"CL102", "CL103"}
    after, walked = run(model, text.replace("torch.ones(1)", "2.0"))
    assert walked == len(model.groups) == 3 and {f.code for f in after.candidates} == {"CL103"}


def test_module_scans_and_module_end_reports_follow_edits_elsewhere():
    """CL205 reports at leave_Module (a global container mutated here, read there);
    CL120 reads a module-level config flag set at the end of the file."""
    text = '''
import torch

_SEEN = []


def record(x):
    _SEEN.append(x.shape[0])
    return x


@torch.compile
def reader(x):
    return x + len(_SEEN)


@torch.compile
def nonzero(x):
    return x.nonzero()
'''
    model = FileModel("m.py", "m", RULES, SETTINGS)
    base, _ = run(model, text)
    assert {"CL205", "CL120"} <= {f.code for f in base.candidates}
    moved, _ = run(model, text.replace("def record(x):\n", "def record(x):\n    y = 1\n"))
    assert [f.line for f in moved.candidates if f.code == "CL205"] != [f.line for f in base.candidates
                                                                       if f.code == "CL205"]
    flagged, _ = run(model, text + "torch._dynamo.config.capture_dynamic_output_shape_ops = True\n")
    assert "CL120" not in {f.code for f in flagged.candidates}
    run(model, text)  # and back


def test_a_syntax_error_keeps_the_last_good_version():
    model = FileModel("m.py", "m", RULES, SETTINGS)
    run(model, TWO_CLASSES)
    broken = TWO_CLASSES.replace("        return x.item()\n", "        return x.item(\n")
    with pytest.raises(cst.ParserSyntaxError):
        model.analyze(broken)
    _, walked = run(model, TWO_CLASSES.replace("return x.item()", "return x.tolist()"))
    assert walked == 1  # still spliced against the last text that parsed


def test_a_rules_bound_method_of_the_walker_is_compared_and_put_back_as_the_new_walkers():
    """A rule may keep `walker.local_lineage`: the state after a statement must still equal
    the next walk's (else every edit walks the whole file), and what is put back must call
    the walker now walking, not the one the snapshot was taken from."""
    from compilelint.incremental import state
    from compilelint.rules.base import Rule
    from compilelint.semantic.walker import Walker

    class KeepsLineage(Rule):
        code, name, message = "CL999", "keeps-lineage", ""

        def __init__(self, walker) -> None:
            super().__init__(walker)
            self.lineage = walker.local_lineage

    first = Walker("m.py", "m", [KeepsLineage], SETTINGS)
    snapshot = state.take(first)
    second = Walker("m.py", "m", [KeepsLineage], SETTINGS)
    assert state.same(second, snapshot, set(), {})
    state.restore(snapshot, second, cst.parse_module(""), {})
    assert second.rules[0].lineage.__self__ is second


def test_a_string_that_swallows_statements_is_parsed_with_them():
    """A triple quote typed in one class is a syntax error until it is closed in the
    next: then the string holds the end of one class and the start of the other, and the
    splice must take both (B's `.item()` goes into the string with them)."""
    model = FileModel("m.py", "m", RULES, SETTINGS)
    before, _ = run(model, TWO_CLASSES)
    assert "CL103" in {f.code for f in before.candidates}
    opened = TWO_CLASSES.replace("        y = x * 2\n", '        y = """\n')
    with pytest.raises(cst.ParserSyntaxError):
        model.analyze(opened)
    closed = opened.replace("        return x.item()\n", '        """\n        return x\n')
    after, _ = run(model, closed)
    assert "CL103" not in {f.code for f in after.candidates}


def test_the_engine_uses_the_model_and_reports_syntax_errors_as_cl000():
    model = FileModel("m.py", "m", RULES, SETTINGS)
    analysis, _ = engine.analyze_path("m.py", SETTINGS, RULES, data=TWO_CLASSES.encode(), analyze=model)
    assert model.groups and analysis.candidates
    bad, _ = engine.analyze_path("m.py", SETTINGS, RULES, data=b"def f(:\n", analyze=model)
    assert [f.code for f in bad.diagnostics] == ["CL000"]


def test_the_session_keeps_the_project_index_only_while_no_summary_changes(tmp_path, monkeypatch):
    """A comment typed in an open buffer keeps the project's index, region and kind solver
    (the server's edits in a large project); a new call rebuilds them; either way the
    findings are those of a fresh selection over the same analyses."""
    from cli_helpers import make_project

    from compilelint.session import Session

    root = make_project(tmp_path, {
        "pyproject.toml": "[tool.compilelint]\n",
        "proj/__init__.py": "",
        "proj/models.py": TWO_CLASSES,
        "proj/helpers.py": "def scale(y):\n    return y * 2\n",
    })
    monkeypatch.chdir(root)
    session = Session(str(root), cache=False)
    session.index()
    text = (root / "proj" / "models.py").read_text(encoding="utf-8")

    def findings():
        got = session.findings()
        fresh = engine.select_findings(session.analyses.values(), session.settings, session.rules)
        assert sorted(f for fs in got.values() for f in fs) == sorted(fresh)
        return session.project[1]

    session.open("proj/models.py", text + "# typed\n")
    first = findings()
    session.open("proj/models.py", text + "# typed more\n")
    assert findings() is first  # the same summaries: kept
    session.open("proj/models.py", text.replace("        y = x * 2\n", "        y = scale(x)\n"))
    assert findings() is not first  # a new call: the project is indexed again
