"""Run the static pass in-process on snippets, for the rule tests."""

import textwrap

from compilelint import config as config_mod
from compilelint.engine import check


def lint_snippet(tmp_path, source, *, name="snippet.py", select=None, target_torch=None, roots=None):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    settings = config_mod.load(
        start=str(tmp_path), select=select, target_torch=target_torch, roots=roots,
    )
    return check([str(path)], settings).findings


def expected_lines(source):
    lines = textwrap.dedent(source).lstrip("\n").splitlines()
    return {n for n, line in enumerate(lines, start=1) if line.rstrip().endswith("# expect")}
