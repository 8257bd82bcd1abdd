"""Conditional findings: a finding only reachable in training, in fp16 or with labels says
so (message, JSON, SARIF), and `[tool.compilelint] assume` drops the modes a project never
compiles in."""

import json
import subprocess
import sys
import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.config import ConfigError
from compilelint.engine import check

SOURCE = textwrap.dedent("""
    import torch
    class M(torch.nn.Module):
        def forward(self, x, labels=None):
            if self.training and x.sum() > 0:
                x = x * 2
            if self.training:
                print("train step")
            else:
                print("eval step")
            if x.dtype == torch.float16 and not torch.isfinite(x).all():
                x = x.clamp(-1, 1)
            if labels is not None:
                print(labels.sum().item())
            print("always")
            return x
""")


def _run(tmp_path, assume=None):
    (tmp_path / "m.py").write_text(SOURCE)
    table = "[tool.compilelint]\n"
    if assume:
        table += f"assume = {assume}\n"
    (tmp_path / "pyproject.toml").write_text(table)
    settings = config_mod.load(start=str(tmp_path))
    return check([str(tmp_path / "m.py")], settings).findings


def test_findings_say_when_they_are_reached(tmp_path):
    found = {(f.line, f.code): f for f in _run(tmp_path)}
    assert found[(5, "CL102")].when == ("training",)  # the right side of `and` needs the left
    assert found[(8, "CL110")].when == ("training",)
    assert found[(8, "CL110")].message.endswith("(only in training)")
    assert found[(10, "CL110")].when == ("eval",)
    assert found[(11, "CL102")].when == ("dtype=float16",)
    assert found[(14, "CL110")].when == ("labels",)
    assert found[(15, "CL110")].when == ()
    assert "(only" not in found[(15, "CL110")].message


@pytest.mark.parametrize("assume,gone", [
    ("{ training = false }", {5, 8}),
    ("{ training = true }", {10}),
    ("{ labels = false }", {14}),
    ('{ dtype = "float32" }', {11}),
    ('{ dtype = "float16" }', set()),
])
def test_assume_drops_only_what_it_rules_out(tmp_path, assume, gone):
    every = {(f.line, f.code) for f in _run(tmp_path)}
    kept = {(f.line, f.code) for f in _run(tmp_path, assume)}
    assert {line for line, _ in every - kept} == gone


def test_dtype_branches_are_conditional(tmp_path):
    source = textwrap.dedent("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                if x.dtype == torch.float16:
                    print("half")
                return x
    """)
    (tmp_path / "m.py").write_text(source)
    (tmp_path / "pyproject.toml").write_text('[tool.compilelint]\nassume = { dtype = "float32" }\n')
    assert check([str(tmp_path / "m.py")], config_mod.load(start=str(tmp_path))).findings == []
    (tmp_path / "pyproject.toml").write_text('[tool.compilelint]\nassume = { dtype = "float16" }\n')
    (finding,) = check([str(tmp_path / "m.py")], config_mod.load(start=str(tmp_path))).findings
    assert finding.when == ("dtype=float16",) and finding.message.endswith("(only in float16)")


@pytest.mark.parametrize("bad", ["{ training = 1 }", "{ phase = true }", '{ dtype = "fp8" }', '"training"'])
def test_a_bad_assume_is_a_clear_config_error(tmp_path, bad):
    (tmp_path / "pyproject.toml").write_text(f"[tool.compilelint]\nassume = {bad}\n")
    with pytest.raises(ConfigError, match="assume"):
        config_mod.load(start=str(tmp_path))


def test_when_in_json_and_sarif(tmp_path):
    (tmp_path / "m.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    out = {}
    for fmt in ("json", "sarif"):
        proc = subprocess.run([sys.executable, "-m", "compilelint", "check", "m.py", "--format", fmt, "--no-cache"],
                              cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 1, proc.stderr
        out[fmt] = json.loads(proc.stdout)
    by_line = {f["line"]: f for f in out["json"]["findings"] if f["code"] == "CL110"}
    assert by_line[8]["when"] == ["training"] and by_line[15]["when"] == []
    results = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r for r in out["sarif"]["runs"][0]["results"]}
    assert results[8]["properties"]["when"] == ["training"]
    assert "when" not in results[15]["properties"]


LOOPS = textwrap.dedent("""
    import torch
    class M(torch.nn.Module):
        def forward(self, x):
            for layer in self.layers:
                if self.training:
                    p = torch.rand([])
                    if p < 0.1:
                        continue
                x = layer(x)
            for layer in self.layers:
                if self.training and x.sum() > 0:
                    x = x * 2
                if x.mean() > 1:
                    x = x / 2
            for layer in self.layers:
                x = self.step(x)
            for layer in self.layers:
                x = self.mixed(x)
            for layer in self.layers:
                if self.training:
                    x = self.checked(x)
            return x
        def step(self, x):
            if x.dtype == torch.float16 and not torch.isfinite(x).all():
                x = x.clamp(-1, 1)
            return x
        def checked(self, x):
            print("always, once called")
            return x
        def mixed(self, x):
            if self.training:
                print("train")
            if x.dtype == torch.float16 and not torch.isfinite(x).all():
                x = x.clamp(-1, 1)
            return x
""")


def test_a_loop_breaks_only_when_its_breaks_are_reached(tmp_path):
    """CL150 takes the modes its breaks need: the layerdrop loop (BART) only in training; a
    loop with one unconditional break always; a loop calling an fp16-only break in fp16."""
    (tmp_path / "m.py").write_text(LOOPS)
    found = {(f.line, f.code): f for f in check([str(tmp_path / "m.py")], config_mod.load(start=str(tmp_path))).findings}
    assert found[(5, "CL150")].when == ("training",)
    assert found[(5, "CL150")].message.endswith("(only in training)")
    assert found[(11, "CL150")].when == ()
    assert found[(16, "CL150")].when == ("dtype=float16",)
    # a helper with a training-only and an fp16-only break: the loop breaks in either mode
    assert found[(18, "CL150")].when == ()
    # an unconditional break in a helper called only in training: the loop breaks in training
    assert found[(20, "CL150")].when == ("training",)


ERROR_PATH = textwrap.dedent("""
    import torch
    class M(torch.nn.Module):
        def pick(self, x, index):
            try:
                return x.index_select(0, index)
            except RuntimeError:
                print("bad", int(index.max()))
                raise
        def check(self, x):
            if x.numel() == 0:
                raise ValueError(f"empty {x.sum().item()}")
            return x
        def forward(self, x, index):
            for _ in range(3):
                x = self.check(self.pick(x, index))
            return x
""")


def test_error_path_breaks_say_so_and_break_no_loop(tmp_path):
    """Breaks in an `except` body or a `raise`'s argument run only once something raised:
    their findings say so ("error" in `when`) and no loop holding or calling them is a CL150."""
    (tmp_path / "m.py").write_text(ERROR_PATH)
    settings = config_mod.load(start=str(tmp_path))
    findings = check([str(tmp_path / "m.py")], settings).findings
    assert {f.code for f in findings} >= {"CL110", "CL103"}
    assert "CL150" not in {f.code for f in findings}
    for f in findings:
        assert "error" in f.when, f
        assert f.message.endswith("(only once an exception was raised)")
    (tmp_path / "m.py").write_text(ERROR_PATH.replace("if x.numel() == 0:", "if x.sum() > 0:"))
    codes = {(f.code, f.when) for f in check([str(tmp_path / "m.py")], settings).findings}
    assert ("CL150", ()) in codes and ("CL102", ()) in codes  # the test runs on every call: it breaks the loop


ATTRIBUTES = textwrap.dedent("""
    import torch
    def log_shape(x):
        print(x.shape)
    class Inner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.debug = False
            self.hooks = dict()
        def forward(self, x):
            if self.debug:
                log_shape(x)
                self.dump(x)
            if self.verbose():
                x = x * 2
            for name, hook in self.hooks.items():
                print(name)
            return x
        def verbose(self):
            print("verbose")
            return False
        def dump(self, x):
            print(x.sum())
    class Outer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = torch.nn.ModuleList([Inner() for _ in range(2)])
            self.check = False
        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            if self.check or x.sum() > 0:
                x = x + 1
            return x
""")


def test_attribute_conditions_stay_with_their_object(tmp_path):
    """`set:self.X` names the attributes of the function's own object: a helper it calls
    (another object, or none) does not inherit it; `self.m()` on the same object does; a
    loop in another class gets it named on the class (`set:m:Inner.debug`), and none when
    the callee also breaks unconditionally."""
    (tmp_path / "m.py").write_text(ATTRIBUTES)
    found = {(f.line, f.code): f for f in check([str(tmp_path / "m.py")], config_mod.load(start=str(tmp_path))).findings}
    assert found[(4, "CL110")].when == ()  # log_shape has no `self`
    assert found[(17, "CL110")].when == ("set:self.hooks",)  # a loop over a dict built empty
    assert found[(17, "CL110")].message.endswith("(only when `self.hooks` is set)")
    assert found[(20, "CL110")].when == ()  # `self.verbose()` is called unconditionally
    assert found[(23, "CL110")].when == ("set:self.debug",)  # `self.dump(x)` under `if self.debug:`
    assert found[(30, "CL150")].when == ()  # Outer's loop: Inner's `self.verbose()` always breaks
    assert found[(32, "CL102")].when == ("unset:self.check",)  # the right side of `self.check or ...`


HANDED_IN = textwrap.dedent("""
    import torch
    class Potential(torch.nn.Module):
        def forward(self, data, x, y):
            data["cell"] = data["cell"] * 2
            data["positions"].requires_grad_(True)
            data["cell"].requires_grad_(True)
            x.requires_grad_(True)
            y = y * 2
            y.requires_grad_(True)
            data["positions"] = data["positions"] + 1
            return data["positions"].sum() + x.sum() + y.sum()
""")


def test_turning_on_a_tensor_the_caller_hands_in_holds_only_when_it_needs_grad(tmp_path):
    """`requires_grad_(True)` on a parameter, or a string key of one, says so (`nograd:`);
    a key stored, or a name rebound, before the call is the function's own tensor (a store
    after the call changes nothing it reads)."""
    (tmp_path / "m.py").write_text(HANDED_IN)
    found = {f.line: f for f in check([str(tmp_path / "m.py")], config_mod.load(start=str(tmp_path))).findings
             if f.code == "CL132"}
    assert found[6].when == ("nograd:data[positions]",)
    assert found[6].message.endswith("""(only when the caller's `data["positions"]` does not already require grad)""")
    assert found[7].when == ()  # `data["cell"]` was stored first
    assert found[8].when == ("nograd:x",)
    assert found[10].when == ()  # `y` rebound first


FLAGS = textwrap.dedent("""
    import torch


    class M(torch.nn.Module):
        def __init__(self, default_x=None):
            super().__init__()
            self.default_x = default_x

        def forward(self, x):
            is_new = self.default_x is None or (x != self.default_x).any()
            if is_new:
                x = x + 1
            drop = self.training and (x > 0).any()
            if drop:
                x = x - 1
            first = (x > 1).any() or self.default_x is None
            if first:
                x = x * 2
            return x
""")


def test_a_flag_bound_to_and_or_is_a_tensor_only_when_its_left_side_lets_it(tmp_path):
    # the `if` on the flag meets the tensor only where an inline right side would run:
    # `or` when the left is false, `and` when it is true; a tensor on the left: always
    (tmp_path / "flags.py").write_text(FLAGS)
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    found = {f.line: f.when for f in check([str(tmp_path / "flags.py")], config_mod.load(start=str(tmp_path))).findings
             if f.code == "CL102"}
    assert found == {12: ("given:self.default_x",), 15: ("training",), 17: ()}
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(tmp_path))
    try:
        from flags import M
    finally:
        sys.path.remove(str(tmp_path))

    def break_lines(model):
        torch._dynamo.reset()
        explained = torch._dynamo.explain(model)(torch.ones(3))
        return {r.user_stack[-1].lineno for r in explained.break_reasons}

    assert break_lines(M().eval()) & set(found) == {17}  # neither condition met: only the unconditional one
    assert break_lines(M(torch.zeros(3)).train()) & set(found) == {12, 15, 17}
