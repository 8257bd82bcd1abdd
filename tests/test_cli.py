"""End to end through the real command line (`python -m compilelint` in a subprocess):
exit codes, formats, options, suppressions, compiled regions across files, bad input."""

from __future__ import annotations

import json
import shutil

import pytest

from cli_helpers import DEMO, check_json, codes, hits, lines_of, make_project

BAD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        return eval("x")
"""
GOOD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        return torch.where(x.sum() > 0, x * 2, x)
"""


@pytest.fixture
def bad_project(tmp_path):
    return make_project(tmp_path, {"bad.py": BAD, "good.py": GOOD})


# ---- exit codes and basic output ------------------------------------------------------------


def test_findings_exit_1_and_clean_exit_0(cli, bad_project):
    result = cli("check", "bad.py", "good.py", cwd=bad_project)
    assert result.returncode == 1, result.stderr
    assert "bad.py:5:12: CL102" in result.stdout
    assert "bad.py:7:16: CL101" in result.stdout
    assert "good.py" not in result.stdout
    clean = cli("check", "good.py", cwd=bad_project)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "All checks passed!" in clean.stdout
    assert "(1 file checked)" in clean.stdout


def test_default_path_is_the_current_folder(cli, bad_project):
    result = cli("check", cwd=bad_project)
    assert result.returncode == 1
    assert "in 2 files checked" in result.stdout


def test_exit_zero(cli, bad_project):
    result = cli("check", "--exit-zero", "bad.py", cwd=bad_project)
    assert result.returncode == 0
    assert "CL102" in result.stdout


def test_text_format_shows_source_line_caret_and_help(cli, bad_project):
    result = cli("check", "--no-color", "bad.py", cwd=bad_project)
    out = result.stdout
    assert "bad.py:5:12: CL102 error: `if` on a tensor value" in out or \
        "bad.py:5:12: CL102 warning: `if` on a tensor value" in out
    assert "5 |         if x.sum() > 0:" in out
    assert "  |            ^^^^^^^^^^^\n" in out  # the caret spans `x.sum() > 0`
    assert "help: Keep it in the graph" in out
    assert "Found 2 findings" in out and "in 1 file checked" in out
    assert "\x1b[" not in out  # no colour when not a terminal


def test_text_format_colour_on_request(cli, bad_project):
    result = cli("check", "--color", "bad.py", cwd=bad_project, env={"NO_COLOR": ""})
    assert "\x1b[" in result.stdout


def test_concise_format(cli, bad_project):
    result = cli("check", "--format", "concise", "bad.py", cwd=bad_project)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "bad.py:5:12: CL102 `if` on a tensor value: Dynamo cannot know which way to go and breaks the graph",
        "bad.py:7:16: CL101 `eval()` in a compiled region: Dynamo cannot trace it and breaks the graph",
    ]


def test_output_format_alias(cli, bad_project):
    a = cli("check", "--format", "concise", "bad.py", cwd=bad_project)
    b = cli("check", "--output-format", "concise", "bad.py", cwd=bad_project)
    assert a.stdout == b.stdout and a.returncode == b.returncode == 1


def test_unknown_format_is_a_usage_error(cli, bad_project):
    result = cli("check", "--format", "xml", "bad.py", cwd=bad_project)
    assert result.returncode == 2
    assert "xml" in result.stderr


def test_json_format(cli, bad_project):
    document, result = check_json("bad.py", "good.py", cwd=bad_project, expect_rc=1)
    assert document["version"] == 2
    assert document["tool"]["name"] == "compilelint"
    assert document["summary"] == {"files": 2, "lines": 12, "findings": 2,
                                   "by_code": {"CL101": 1, "CL102": 1}}
    first = document["findings"][0]
    assert first["path"] == "bad.py" and first["code"] == "CL102" and first["name"] == "tensor-control-flow"
    assert (first["line"], first["col"], first["end_line"], first["end_col"]) == (5, 12, 5, 23)
    assert first["scope"] == "Gate.forward"
    assert first["severity"] in ("error", "warning")


def test_github_format(cli, bad_project):
    result = cli("check", "--format", "github", "bad.py", cwd=bad_project)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[1].startswith(
        "::error file=bad.py,line=7,col=16,endLine=7,endColumn=25,title=CL101 exec-eval::`eval()` in a compiled region")
    assert lines[0].startswith("::") and "title=CL102 tensor-control-flow::" in lines[0]


def test_sarif_format(cli, bad_project):
    result = cli("check", "--format", "sarif", "bad.py", cwd=bad_project)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["CL102", "CL101"]


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github"])
def test_output_file(cli, bad_project, fmt):
    target = bad_project / "reports" / f"out.{fmt}"
    result = cli("check", "--format", fmt, "-o", str(target), "bad.py", cwd=bad_project)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    text = target.read_text(encoding="utf-8")
    assert "CL101" in text
    again = cli("check", "--format", fmt, "bad.py", cwd=bad_project)
    assert again.stdout == text
    leftovers = [p.name for p in target.parent.iterdir() if p.name != target.name]
    assert leftovers == []  # the atomic write leaves no temporary files


def test_output_file_that_cannot_be_written_is_exit_2(cli, bad_project):
    (bad_project / "blocker").write_text("a file, not a folder")
    result = cli("check", "-o", "blocker/out.txt", "bad.py", cwd=bad_project)
    assert result.returncode == 2
    assert "cannot write blocker/out.txt" in result.stderr


def test_statistics(cli, tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    x = x + 1
                if x.mean() > 0:
                    x = x - 1
                return eval("x")
    """})
    result = cli("check", "--statistics", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "     2  CL102  tensor-control-flow",
        "     1  CL101  exec-eval",
    ]
    clean = cli("check", "--statistics", "--select", "CL3", cwd=tmp_path)
    assert clean.returncode == 0 and clean.stdout == ""


def test_version_and_help(cli, tmp_path):
    from compilelint import __version__

    result = cli("--version", cwd=tmp_path)
    assert result.returncode == 0 and __version__ in result.stdout
    result = cli("check", "--help", cwd=tmp_path)
    assert result.returncode == 0 and "--output-format" in result.stdout


def test_rules_and_rule_commands(cli, tmp_path):
    listing = cli("rules", "--format", "json", cwd=tmp_path)
    assert listing.returncode == 0
    rows = {row["code"]: row for row in json.loads(listing.stdout)}
    assert {"CL000", "CL101", "CL102", "CL150", "CL201", "CL202", "CL203", "CL301"} <= set(rows)
    assert rows["CL102"]["name"] == "tensor-control-flow"
    page = cli("rule", "cl102", cwd=tmp_path)
    assert page.returncode == 0 and page.stdout.startswith("# CL102 tensor-control-flow")
    missing = cli("rule", "CL999", cwd=tmp_path)
    assert missing.returncode == 2 and "no rule CL999" in missing.stderr


# ---- usage and config errors: exit 2 with a clear message ----------------------------------


def test_bad_select_code_is_exit_2(cli, bad_project):
    result = cli("check", "--select", "CL1,E501", "bad.py", cwd=bad_project)
    assert result.returncode == 2
    assert "select" in result.stderr and "'E501'" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_config_value_names_the_key(cli, tmp_path):
    make_project(tmp_path, {"pyproject.toml": '[tool.compilelint]\nroots = "everything"\n', "m.py": GOOD})
    result = cli("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "`roots`" in result.stderr and "'everything'" in result.stderr
    assert result.stderr.startswith("compilelint: error:")
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_unknown_config_key_is_exit_2(cli, tmp_path):
    make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\nselct = ['CL1']\n", "m.py": GOOD})
    result = cli("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown key `selct`" in result.stderr


def test_missing_path_is_a_cl000_finding_and_others_still_checked(cli, bad_project):
    document, _ = check_json("nope.py", "bad.py", cwd=bad_project, expect_rc=1)
    assert ("nope.py", 1, "CL000") in hits(document)
    assert ("bad.py", 7, "CL101") in hits(document)


# ---- suppressions -----------------------------------------------------------------------------


def test_noqa_comments(tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                a = eval("1")  # noqa
                b = eval("2")  # noqa: CL101, CL102
                c = eval("3")  # NOQA:cl101
                d = eval("4")  # noqa: CL102
                e = eval("5")  # noqa:CL102,CL101
                f = eval("6")  # a comment without the marker
                if x.sum() > 0 and eval("7"):  # noqa: CL101
                    pass
                return x
    """})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("m.py", 7, "CL101"), ("m.py", 9, "CL101"), ("m.py", 10, "CL102")}


def test_file_level_noqa(tmp_path):
    make_project(tmp_path, {"quiet.py": "# compilelint: noqa\n" + BAD, "loud.py": BAD,
                            "QUIET2.py": "# Compilelint: NOQA\n" + BAD})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert {f["path"] for f in document["findings"]} == {"loud.py"}


def test_everything_suppressed_is_exit_0(cli, tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                return eval("x")  # noqa: CL101
    """})
    result = cli("check", cwd=tmp_path)
    assert result.returncode == 0, result.stdout


# ---- select / ignore / per-file-ignores (flags; the config keys are in test_config.py) ---------


def test_select_ignore_extend_select_flags(bad_project):
    document, _ = check_json("--select", "CL102", "bad.py", cwd=bad_project, expect_rc=1)
    assert codes(document) == {"CL102"}
    document, _ = check_json("--select", "CL1", "--ignore", "CL102", "bad.py", cwd=bad_project, expect_rc=1)
    assert codes(document) == {"CL101"}
    document, _ = check_json("--select", "CL3", "bad.py", cwd=bad_project, expect_rc=0)
    assert codes(document) == set()
    document, _ = check_json("--select", "CL3", "--extend-select", "CL101", "bad.py", cwd=bad_project, expect_rc=1)
    assert codes(document) == {"CL101"}
    document, _ = check_json("--ignore", "CL1", "bad.py", cwd=bad_project, expect_rc=0)
    assert document["findings"] == []
    document, _ = check_json("--select", "all", "--ignore", "cl101", "bad.py", cwd=bad_project, expect_rc=1)
    assert codes(document) == {"CL102"}


def test_a_call_cl119_knows_is_cl118s_only_when_cl119_is_ignored(tmp_path):
    """pandas is a C extension (CL118) that CL119's knowledge names (Dynamo's skip list): one
    finding for the call, CL119's, unless CL119 is ignored."""
    make_project(tmp_path, {"m.py": """
        import pandas as pd
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                table = pd.DataFrame({"a": [1]})
                return x * len(table)
        """})
    document, _ = check_json("m.py", cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("m.py", 6, "CL119")}
    document, _ = check_json("--ignore", "CL119", "m.py", cwd=tmp_path)
    assert hits(document) == {("m.py", 6, "CL118")}


def test_cl000_cannot_be_ignored(tmp_path):
    make_project(tmp_path, {"broken.py": "def f(:\n"})
    document, _ = check_json("--ignore", "CL0", cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL000"}


# ---- bad input: CL000 for the file, the run goes on ----------------------------------------------


def test_syntax_binary_undecodable_and_empty_files(tmp_path):
    make_project(tmp_path, {
        "syntax.py": "import torch\n\ndef f(x:\n    return x\n",
        "binary.py": b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00" + bytes(range(256)),
        "latin.py": "# no coding line\nname = 'caf\xe9'\n".encode("latin-1"),
        "declared.py": "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"),
        "bom.py": "\ufeffimport torch\n".encode("utf-8"),
        "empty.py": "",
        "bad.py": BAD,
    })
    document, result = check_json(cwd=tmp_path, expect_rc=1)
    by_path = {}
    for f in document["findings"]:
        by_path.setdefault(f["path"], set()).add(f["code"])
    assert by_path == {"syntax.py": {"CL000"}, "binary.py": {"CL000"}, "latin.py": {"CL000"},
                       "bad.py": {"CL101", "CL102"}}
    messages = {f["path"]: f["message"] for f in document["findings"] if f["code"] == "CL000"}
    assert "syntax error" in messages["syntax.py"]
    assert "binary" in messages["binary.py"]
    assert "encoding" in messages["latin.py"] or "utf-8" in messages["latin.py"]
    syntax = next(f for f in document["findings"] if f["path"] == "syntax.py")
    assert syntax["line"] in (3, 4) and syntax["severity"] == "error"
    assert document["summary"]["files"] == 7
    assert "Traceback" not in result.stderr


def test_cl000_in_every_format(cli, tmp_path):
    make_project(tmp_path, {"syntax.py": "def f(:\n"})
    for fmt in ("text", "concise", "github", "sarif", "json"):
        result = cli("check", "--format", fmt, cwd=tmp_path)
        assert result.returncode == 1, (fmt, result.stderr)
        assert "CL000" in result.stdout, fmt


def test_deeply_nested_code_is_handled(tmp_path):
    depth = 120
    source = "x = " + "(" * depth + "1" + ")" * depth + "\n"
    source += "".join("    " * i + f"if a{i}:\n" for i in range(60)) + "    " * 60 + "pass\n"
    make_project(tmp_path, {"deep.py": source, "bad.py": BAD})
    document, result = check_json(cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert ("bad.py", 7, "CL101") in hits(document)
    assert codes({"findings": [f for f in document["findings"] if f["path"] == "deep.py"]}) <= {"CL000"}


# ---- precision: ordinary clean PyTorch code gives no findings --------------------------------------


CLEAN = {
    "net/__init__.py": "",
    "net/layers.py": """
        from typing import Optional

        import torch
        import torch.nn.functional as F
        from torch import nn


        class Attention(nn.Module):
            def __init__(self, dim: int, heads: int = 4, dropout: float = 0.1):
                super().__init__()
                assert dim % heads == 0
                self.heads = heads
                self.qkv = nn.Linear(dim, 3 * dim)
                self.out = nn.Linear(dim, dim)
                self.dropout = dropout
                self.register_buffer("scale", torch.tensor(dim ** -0.5))

            def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
                b, t, c = x.shape
                if x.dim() != 3:
                    raise ValueError("expected (batch, time, channels)")
                if t > 2048 or c % self.heads:
                    raise ValueError("too long")
                q, k, v = self.qkv(x).chunk(3, dim=-1)
                p = self.dropout if self.training else 0.0
                if mask is not None:
                    mask = mask[:, None, None, :]
                if x.dtype == torch.float16:
                    q = q.float()
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
                return self.out(y)


        class Encoder(nn.Module):
            def __init__(self, dim: int, depth: int):
                super().__init__()
                self.layers = nn.ModuleList(Attention(dim) for _ in range(depth))
                self.norm = nn.LayerNorm(dim)

            def forward(self, x, mask=None):
                for i, layer in enumerate(self.layers):
                    if i % 2 == 0 and len(x) > 1:
                        x = x + layer(self.norm(x), mask)
                    else:
                        x = layer(x, mask)
                n = x.size(0)
                while n > 1:
                    n //= 2
                return x if mask is None else x * mask[..., None]
    """,
    "net/cli.py": """
        import sys

        import torch

        from net.layers import Encoder


        def report(model, loss):
            print(f"parameters: {sum(p.numel() for p in model.parameters())}")
            if loss > 1.0:
                print("loss is high:", loss.item(), file=sys.stderr)
            exec("pass")


        def main():
            model = Encoder(64, 2)
            model.load_state_dict(torch.load("weights.pt"))
            model = torch.compile(model)
            loss = model(torch.randn(2, 8, 64)).mean()
            report(model, loss)
            torch.save(model._orig_mod.state_dict(), "weights.pt")


        if __name__ == "__main__":
            main()
    """,
}


def test_ordinary_clean_pytorch_code_gives_no_findings(cli, tmp_path):
    make_project(tmp_path, CLEAN)
    for roots in ("modules", "explicit"):
        result = cli("check", "--roots", roots, cwd=tmp_path)
        assert result.returncode == 0, (roots, result.stdout)
        assert "All checks passed! (3 files checked)" in result.stdout


# ---- compiled regions: roots and calls across files -------------------------------------------------


def test_region_crosses_files(tmp_path):
    make_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            import torch
            from pkg.b import helper
            from pkg import c

            class Model(torch.nn.Module):
                def forward(self, x):
                    x = helper(x)
                    return c.scale(x)
        """,
        "pkg/b.py": """
            def helper(x):
                if x.sum() > 0:
                    return x
                return -x
        """,
        "pkg/c.py": """
            def scale(x):
                return eval("x * 2")
        """,
        "pkg/d.py": """
            import torch

            def summary(x):
                if x.sum() > 0:
                    print("positive")
                return eval("1")

            def main():
                summary(torch.ones(3))
        """,
    })
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("pkg/b.py", 2, "CL102"), ("pkg/c.py", 2, "CL101")}


def test_helper_only_called_from_eager_code_is_not_flagged(tmp_path):
    make_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            import torch
            from pkg.b import helper

            class Model(torch.nn.Module):
                def forward(self, x):
                    return x * 2

            def evaluate(model, x):
                return helper(model(x))
        """,
        "pkg/b.py": """
            def helper(x):
                if x.sum() > 0:
                    return x
                return -x
        """,
    })
    document, _ = check_json(cwd=tmp_path, expect_rc=0)
    assert document["findings"] == []


EXPLICIT = {
    "pkg/__init__.py": "",
    "pkg/ops.py": """
        def fused(x):
            if x.sum() > 0:
                return x
            return eval("x")
    """,
    "pkg/run.py": """
        import torch
        from pkg.ops import fused

        fast = torch.compile(fused)
    """,
    "pkg/model.py": """
        import torch

        class Net(torch.nn.Module):
            def forward(self, x):
                return eval("x + 1")
    """,
}


def test_roots_modules_vs_explicit(tmp_path):
    make_project(tmp_path, EXPLICIT)
    modules, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert hits(modules) == {("pkg/ops.py", 2, "CL102"), ("pkg/ops.py", 4, "CL101"),
                             ("pkg/model.py", 5, "CL101")}
    explicit, _ = check_json("--roots", "explicit", cwd=tmp_path, expect_rc=1)
    # Net is compiled nowhere: under `explicit` its forward is not a region.
    assert hits(explicit) == {("pkg/ops.py", 2, "CL102"), ("pkg/ops.py", 4, "CL101")}


def test_roots_explicit_follows_compiled_instances(tmp_path):
    make_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": EXPLICIT["pkg/model.py"],
        "pkg/train.py": """
            import torch
            from pkg.model import Net

            def main():
                model = torch.compile(Net())
                return model(torch.ones(2))
        """,
    })
    document, _ = check_json("--roots", "explicit", cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("pkg/model.py", 5, "CL101")}


def test_compiler_disable_escapes_the_region(tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch
        import torch.compiler

        @torch.compiler.disable
        def log_stats(x):
            if x.sum() > 0:
                print("positive")

        @torch._dynamo.disable(recursive=True)
        def debug(x):
            return eval("x")

        class M(torch.nn.Module):
            def forward(self, x):
                log_stats(x)
                debug(x)
                if not torch.compiler.is_compiling():
                    if x.mean() > 0:
                        print("eager only")
                return x * 2
    """})
    document, _ = check_json(cwd=tmp_path)
    # Nothing inside the disabled functions or the eager-only branch; calling a disabled
    # function is itself a (deliberate) break, reported as a note at the call (CL140).
    assert {(f["line"], f["code"], f["severity"]) for f in document["findings"]} <= {
        (15, "CL140", "note"), (16, "CL140", "note")}


def test_compile_decorator_and_method_compile(tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch

        @torch.compile(mode="reduce-overhead")
        def step(x):
            if x.max() > 1:
                x = x / x.max()
            return x

        def not_compiled(x):
            if x.max() > 1:
                x = x / x.max()
            return x
    """})
    document, _ = check_json("--roots", "explicit", cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("m.py", 5, "CL102")}


# ---- the bundled demo -------------------------------------------------------------------------------


DEMO_FINDINGS = {
    ("tinygpt/models.py", 24, "CL201"),  # register_buffer in RotaryEmbedding.forward
    ("tinygpt/models.py", 25, "CL201"),
    ("tinygpt/models.py", 69, "CL101"),  # eval() of the activation name, called from forward
    ("tinygpt/models.py", 85, "CL202"),  # self.calls += 1 in Block.forward
    ("tinygpt/models.py", 112, "CL150"),  # the loop over blocks holds a break
    ("tinygpt/models.py", 114, "CL102"),  # if torch.isnan(x).any()
    ("tinygpt/train.py", 27, "CL301"),  # load_state_dict on the compiled model
}


def test_demo_project(tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    document, _ = check_json(cwd=demo, expect_rc=1)
    assert document["target_torch"] == "2.13"
    assert document["summary"]["files"] == 5
    assert hits(document) == DEMO_FINDINGS, "the demo's findings changed: update DEMO_FINDINGS and the README"


def test_demo_from_the_repository_root():
    """The README's first command, as a user runs it from a checkout."""
    from conftest import REPO

    document, _ = check_json("fixtures/demo", cwd=REPO, expect_rc=1)
    assert hits(document) == {("fixtures/demo/" + path, line, code) for path, line, code in DEMO_FINDINGS}
    assert lines_of(document, "fixtures/demo/tinygpt/cli.py") == set()


def test_demo_text_summary(cli, tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    result = cli("check", cwd=demo)
    assert result.returncode == 1
    assert result.stdout.rstrip().endswith("Found 7 findings (4 errors, 3 warnings) in 5 files checked.")
