"""Each rule has a page; its Example fires the rule and its Use instead does not."""

import pytest

from compilelint.pages import code_blocks, page_text, sections
from compilelint.registry import BUILTIN
from compilelint.rules import all_rules
from helpers import lint_snippet

REQUIRED = ("what it flags", "why it hurts torch.compile", "example", "use instead",
            "torch versions", "references")
RULES = list(all_rules())


@pytest.mark.parametrize("code", [r.code for r in RULES] + sorted(BUILTIN))
def test_page_has_every_section(code):
    text = page_text(code)
    assert text is not None, f"rules/{code}.md is missing"
    assert text.startswith(f"# {code} ")
    missing = [s for s in REQUIRED if s not in sections(text)]
    assert not missing, f"{code}: missing sections {missing}"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_page_example_fires_and_use_instead_does_not(tmp_path, rule):
    body = sections(page_text(rule.code))
    example = code_blocks(body["example"])
    instead = code_blocks(body["use instead"])
    assert example and instead, f"{rule.code}: Example and Use instead need a python block each"
    version = "2.13" if rule.torch_max is None else "%d.%d" % (rule.torch_max[0], rule.torch_max[1] - 1)
    fired = lint_snippet(tmp_path, example[0], target_torch=version)
    assert rule.code in {f.code for f in fired}, f"{rule.code}: the page's example does not fire"
    clean = lint_snippet(tmp_path, instead[0], name="instead.py", target_torch=version)
    assert rule.code not in {f.code for f in clean}, f"{rule.code}: 'use instead' still fires"


def test_rule_command_prints_the_page(cli):
    result = cli("rule", "cl102")
    assert result.returncode == 0
    assert result.stdout.startswith("# CL102 tensor-control-flow")
    missing = cli("rule", "CL999")
    assert missing.returncode == 2 and "no rule CL999" in missing.stderr
