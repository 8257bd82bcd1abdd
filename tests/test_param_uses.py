"""A guessed tensor parameter that the body shows is a string or a mapping is a Python value."""

import textwrap

import libcst as cst

from helpers import lint_snippet
from compilelint.semantic.param_uses import non_tensor_params


def _params(source: str) -> frozenset[str]:
    return non_tensor_params(cst.parse_module(textwrap.dedent(source)).body[0])


def test_mapping_and_text_uses_mark_a_parameter_and_rebinding_unmarks_it():
    assert _params("""
        def f(name, options, x, kept, parts):
            if name.startswith("a"):
                x = x * 2
            y = g(**options) + h({**kept})
            return x.split(2), parts.split(",")
    """) == {"name", "options", "kept"}  # `split` is a tensor method too: no evidence
    assert _params("""
        def f(name):
            name = encode(name)
            return name.lower()
    """) == frozenset()


def test_a_forward_input_used_as_text_is_not_flagged_but_a_tensor_input_is(tmp_path):
    findings = lint_snippet(tmp_path, """
import torch
class Heads(torch.nn.Module):
    def forward(self, task, x):
        if task.startswith("cls"):
            return x
        return -x
class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
""")
    assert [(f.code, f.line) for f in findings] == [("CL102", 9)]
