"""The knowledge table (src/compilelint/knowledge.py): docs/knowledge.md is rendered from it,
every row names corpus cases that exist and carry its rule's label, the rule fires on
exactly those lines, and Dynamo confirms a few representative cases."""

from __future__ import annotations

import pytest

from compilelint import knowledge, knowledge_gen
from compilelint.config import newest_confirmed
from compilelint.registry import RULES
from helpers import lint_snippet
from test_corpus_labels import CORPUS, acc

CASES = {c.path.stem: c for c in acc.discover(None)}
ROWS = list(knowledge.ENTRIES)
# every release a row starts or stops at, up to the newest confirmed: the table differs only there
NEWEST = newest_confirmed()
RELEASES = sorted({(2, 13), NEWEST} | {e.torch_min for e in ROWS if e.torch_min > (2, 4)}
                  | {e.torch_max for e in ROWS if e.torch_max and e.torch_max <= NEWEST})


def _at(release: tuple[int, int]) -> dict[str, acc.Case]:
    """The corpus cases with the labels that hold on `release`."""
    return {c.path.stem: c for c in acc.discover(None, release)}


def _id(entry: knowledge.Entry) -> str:
    return f"{entry.rule}-{entry.names[0]}"


def test_the_page_is_up_to_date():
    assert not knowledge_gen.stale(), "run: python -m compilelint.knowledge_gen"


@pytest.mark.parametrize("entry", ROWS, ids=_id)
def test_row_is_well_formed(entry):
    assert entry.rule in RULES and entry.category in knowledge.CATEGORIES and entry.form in knowledge.FORMS
    assert entry.reason and entry.confirmed and entry.case
    assert entry.torch_max is None or entry.torch_min < entry.torch_max
    assert entry.size_at is None or entry.form == "call"


@pytest.mark.parametrize("entry", ROWS, ids=_id)
def test_row_cases_exist_and_carry_its_rule(entry):
    cases = _at(entry.torch_min if entry.torch_min > (2, 4) else (2, 13))  # labels of a release the row holds for
    for name in entry.case:
        case = cases.get(name)
        assert case is not None, f"{name}: no fixtures/corpus/{name}.py"
        codes = {code for codes in case.labels.values() for code in codes}
        if entry.torch_max is not None and entry.torch_max <= (2, 13):  # ended: a clean case shows the newer behaviour
            assert name.startswith("clean_") or entry.rule in codes, f"{name}: neither clean_ nor labelled {entry.rule}"
        else:
            assert entry.rule in codes, f"{name}: no `# expect: {entry.rule}` label"
    for name in entry.traced:
        assert name in CASES, f"{name}: no fixtures/corpus/{name}.py"
        assert name.startswith("clean_") and not CASES[name].labels, f"{name}: a traced look-alike must be clean"


@pytest.mark.parametrize("release", RELEASES, ids=lambda r: "%d.%d" % r)
def test_names_are_unique_within_a_rule_and_release(release):
    seen: dict[tuple[str, str], str] = {}
    for entry in (e for e in ROWS if e.applies_to(release)):
        for name in entry.names:
            key = (entry.rule, name)
            assert key not in seen, f"{name} is in two {entry.rule} rows ({seen[key]!r} and {entry.names[0]!r})"
            seen[key] = entry.names[0]


def test_lookups_follow_the_release():
    """The table a rule reads on 2.13 and on 2.14: `random.random` is skipped on 2.13 and a
    traced draw (only a branch on it breaks) on 2.14; `random.shuffle` is traced on 2.14."""
    old, new = knowledge.table("CL119", (2, 13)), knowledge.table("CL119", (2, 14))
    assert old.get("random.random").form == "call" and old.get("random.random").gb_id == "GB0007"
    assert new.get("random.random").form == "branch" and new.get("random.random").gb_id == "GB0170"
    assert old.get("random.shuffle") is not None and new.get("random.shuffle") is None
    assert old.get("random.choice") is new.get("random.choice")  # unchanged rows are shared
    assert knowledge.table("CL114", (2, 11)).get("copy.deepcopy") is not None
    assert knowledge.table("CL114", (2, 14)).get("copy.deepcopy") is None


def _cited() -> dict[str, set[str]]:
    """case name -> the rules of the rows that cite it (as a case or a traced look-alike)."""
    cited: dict[str, set[str]] = {}
    for entry in ROWS:
        for name in entry.case + entry.traced:
            cited.setdefault(name, set()).add(entry.rule)
    return cited


def test_every_kn_case_is_cited_by_a_row():
    cited = _cited()
    orphans = [name for name in CASES if name.startswith(("kn_", "clean_kn_")) and name not in cited]
    assert not orphans, f"cases no row of knowledge.ENTRIES names: {orphans}"


@pytest.mark.parametrize("release", RELEASES, ids=lambda r: "%d.%d" % r)
@pytest.mark.parametrize("name", sorted(n for n in _cited() if n.startswith(("kn_", "clean_kn_"))))
def test_the_rules_fire_on_exactly_the_labelled_lines(tmp_path, name, release):
    case = _at(release)[name]
    rules = _cited()[name]
    found = lint_snippet(tmp_path, (CORPUS / f"{name}.py").read_text(encoding="utf-8"), name=f"{name}.py",
                         target_torch="%d.%d" % release)
    for rule in rules:
        fired = {f.line for f in found if f.code == rule}
        assert fired == case.lines_with(lambda c, rule=rule: c == rule), f"{name}: {rule} on torch %d.%d" % release


# one per kind of row: an RNG call, a scalar NumPy draw (size_at), an RNN module (instance), a traced
# look-alike, a branch on a traced draw (with labels that hold only before 2.14)
CONFIRM = ["kn_manual_seed_01", "kn_numpy_random_01", "kn_rnn_lstm_01", "clean_kn_numpy_random_array_01",
           "kn_random_02"]


def test_representative_cases_confirmed_by_dynamo():
    pytest.importorskip("torch")
    cases = [CASES[name] for name in CONFIRM]
    # one interpreter: Dynamo's first compile costs ~10 s there, each further case ~1 s
    by_name = {r["case"]: r for r in acc.run_batch(cases)}
    failures = {c.name: acc.check_case(c, by_name[c.name]) for c in cases}
    failures = {name: problems for name, problems in failures.items() if problems}
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())
    assert not any(by_name[c.name].get("skipped") for c in cases)


CATCH_WARNINGS = """
import warnings
import torch


@torch.compile
def f(x):
    with warnings.catch_warnings():
        y = x * 2
    return y
"""


@pytest.mark.parametrize("release, flagged", [("2.11", True), ("2.12", True), ("2.13", False), ("2.14", False)])
def test_catch_warnings_is_refused_only_before_the_release_that_traces_it(tmp_path, release, flagged):
    """CL141's `TRACED_FROM`: 2.13.0 and 2.14.1 trace `with warnings.catch_warnings():`
    (clean_catch_warnings_01), earlier releases refused it."""
    codes = [f.code for f in lint_snippet(tmp_path, CATCH_WARNINGS, target_torch=release)]
    assert ("CL141" in codes) is flagged
