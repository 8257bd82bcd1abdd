"""Every rule's VALID snippets must not fire it; INVALID ones fire on exactly the `# expect` lines."""

import textwrap

import pytest

from compilelint.rules import all_rules
from helpers import expected_lines, lint_snippet

CASES = []
for rule in all_rules():
    for i, source in enumerate(rule.VALID):
        CASES.append(pytest.param(rule, source, False, id=f"{rule.code}-valid-{i}"))
    for i, source in enumerate(rule.INVALID):
        CASES.append(pytest.param(rule, source, True, id=f"{rule.code}-invalid-{i}"))


def _version(rule):
    """A torch version the rule applies to: the newest one in its range."""
    if rule.torch_max is None:
        return "2.13"
    major, minor = rule.torch_max
    return f"{major}.{minor - 1}"


@pytest.mark.parametrize("rule,source,fires", CASES)
def test_rule_case(tmp_path, rule, source, fires):
    findings = lint_snippet(tmp_path, source, target_torch=_version(rule))
    assert not [f for f in findings if f.code in ("CL000", "CL001")], findings
    lines = {f.line for f in findings if f.code == rule.code}
    if fires:
        expected = expected_lines(source)
        assert expected, "an INVALID case must mark its lines with `# expect`"
        assert lines == expected
    else:
        assert lines == set(), [f for f in findings if f.code == rule.code]


FIX_CASES = [pytest.param(rule, i, id=f"{rule.code}-invalid-{i}") for rule in all_rules() if rule.autofix
             for i in range(len(rule.INVALID))]


@pytest.mark.parametrize("rule,index", FIX_CASES)
def test_the_autofix_does_what_the_case_states(tmp_path, rule, index):
    """A fixable rule's INVALID case comes out of its edits as `FIXED` says (unchanged
    when it names no fix for the case); fixing again changes nothing."""
    from compilelint import fixes

    source = textwrap.dedent(rule.INVALID[index]).lstrip("\n")
    expected = textwrap.dedent(rule.FIXED[index]).lstrip("\n") if index in rule.FIXED else source
    findings = [f for f in lint_snippet(tmp_path, source, target_torch=_version(rule)) if f.code == rule.code]
    fixed = fixes.apply(source, findings)
    assert fixed == expected
    again = [f for f in lint_snippet(tmp_path, fixed, target_torch=_version(rule)) if f.code == rule.code]
    assert fixes.apply(fixed, again) == fixed


def test_fixed_cases_name_invalid_cases():
    for rule in all_rules():
        assert set(rule.FIXED) <= set(range(len(rule.INVALID))), rule.code
        assert bool(rule.FIXED) == bool(rule.autofix), f"{rule.code}: an autofix states the fix of some INVALID case"


def test_every_rule_has_cases_both_ways():
    for rule in all_rules():
        assert rule.VALID, f"{rule.code} has no case that must not fire"
        assert rule.INVALID, f"{rule.code} has no case that must fire"


def test_rule_metadata():
    import re

    for rule in all_rules():
        assert re.fullmatch(r"CL\d{3}", rule.code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
        assert rule.severity in ("error", "warning", "note")
        assert rule.message and rule.help
        if rule.gb_id is not None:
            assert re.fullmatch(r"GB\d{4}", rule.gb_id)
