"""Every rule's VALID snippets must not fire it; INVALID ones fire on exactly the `# expect` lines."""

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
        assert rule.message and rule.fix
        if rule.gb_id is not None:
            assert re.fullmatch(r"GB\d{4}", rule.gb_id)
