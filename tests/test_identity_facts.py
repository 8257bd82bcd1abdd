"""`query is key or torch.equal(query, key)` (issue 19: speechbrain's attention): Dynamo decides
`is` on the objects it is handed, so the right side runs only when the caller passes two
objects. The finding there carries `given:query!is:key`; a call site that passes one of its own
parameters as both rules it out, one that passes two of them hands the label to its own
callers, and a probe run judges what is left by what its calls passed (`same:` / `other:`)."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from compilelint.probe.entry_args import given_met, identity_facts

ATTENTION = """
    import torch

    class Attention(torch.nn.Module):
        def forward(self, query, key, value):
            if (query is key or torch.equal(query, key)) and (key is value or torch.equal(key, value)):
                return query * 2
            return query + key + value

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = Attention()

        def forward(self, x, memory):
            return self.attn({args})
"""


def _check(tmp_path, text: str):
    (tmp_path / "m.py").write_text(textwrap.dedent(text))
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    result = check([str(tmp_path)], config_mod.load(start=str(tmp_path)))
    return sorted((f.line, f.code, f.when) for f in result.findings)


def test_the_right_side_of_an_identity_test_holds_only_for_two_objects(tmp_path):
    found = _check(tmp_path, ATTENTION.format(args="x, memory, memory"))
    # `memory` twice: the second test never runs; `x` and `memory` are two of Layer's own
    # parameters, and Layer is a module anyone calls: the label stays, named on Attention
    assert found == [(6, "CL119", ("given:query!is:key",))]


def test_a_site_passing_one_object_as_both_rules_the_finding_out(tmp_path):
    assert _check(tmp_path, ATTENTION.format(args="x, x, x")) == []


def test_a_site_passing_what_the_walk_cannot_pair_leaves_the_label(tmp_path):
    found = _check(tmp_path, ATTENTION.format(args="x * 2, memory, memory.clone()"))
    assert [(line, code, when) for line, code, when in found if code == "CL119"] == [
        (6, "CL119", ("given:key!is:value",)), (6, "CL119", ("given:query!is:key",))]


def test_a_test_on_self_none_or_a_rebound_name_makes_no_identity_label(tmp_path):
    text = """
        import torch

        def f(a, b):
            b = b * 1
            if a is b or torch.equal(a, b):
                return a
            if a is None or torch.equal(a, a):
                return b
            return a + b

        class M(torch.nn.Module):
            def forward(self, x):
                return f(x, x.clone())

        class N(torch.nn.Module):
            def forward(self, key):
                if key is self or torch.equal(key, key):
                    return key
                return key * 2
    """
    whens = {line: when for line, code, when in _check(tmp_path, text) if code == "CL119"}
    assert whens[6] == ()  # `b` rebound before the test: its object is not the caller's
    assert 18 in whens  # `key is self`: the object, not a caller's argument
    assert all("!is:" not in label for when in whens.values() for label in when)


def test_identity_facts_pair_each_tensor_with_the_ones_before_it():
    torch = pytest.importorskip("torch")
    x, y = torch.ones(1), torch.zeros(1)
    facts = identity_facts([("query", x), ("key", x), ("value", y), ("scale", 2)])
    assert facts == {"key": ["same:query"], "value": ["other:query", "other:key"]}
    assert given_met("given:query!is:key", facts) is False
    assert given_met("given:key!is:value", facts) is True
    assert given_met("given:key!is:value", {"key": ["not_none"], "value": ["not_none"]}) is None  # unseen
    # over several calls: met when any call passed two objects
    assert given_met("given:query!is:key", {"key": ["same:query", "other:query"]}) is True


PROBE_FIXTURE = "identity_targets.py"


@pytest.mark.parametrize("target, status", [("self_attention", "condition-not-met"),
                                            ("cross_attention", "confirmed"),
                                            ("block_self", "condition-not-met"),
                                            ("block_cross", "confirmed")])
def test_a_probe_run_judges_the_label_by_the_objects_it_passed(tmp_path, target, status):
    # real static pass, real Dynamo runs through `check --probe`: the entry's own arguments
    # (Attention called directly), or what the eager pass saw Block pass on (probe.call_args)
    pytest.importorskip("torch")
    from pathlib import Path

    from helpers import check_probe

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "probe" / PROBE_FIXTURE
    (found,) = [f for f in check_probe(tmp_path, fixture, [target]) if f["code"] == "CL119"]
    assert found["when"] == ["given:query!is:key"]
    assert found["evidence"]["status"] == status, found["evidence"]
    if status == "condition-not-met":
        assert "passes `query` another object than `key`" in found["evidence"]["note"]


def test_an_is_not_test_and_an_else_branch_need_two_objects_too(tmp_path):
    text = """
        import torch

        class Cross(torch.nn.Module):
            def forward(self, query, key):
                if query is not key:
                    print("cross")
                if key is query:
                    return key
                else:
                    torch._dynamo.graph_break()
                return query
    """
    whens = {(line, code): when for line, code, when in _check(tmp_path, text)}
    assert whens[(7, "CL110")] == ("given:query!is:key",)
    assert whens[(11, "CL140")] == ("given:key!is:query",)
