"""`[tool.compilelint]` through the real command line: each key, flags over config, and
bad values (exit 2, the key named, no traceback)."""

from __future__ import annotations

import pytest

from cli_helpers import check_json, codes, hits, make_project

BAD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        return eval("x")
"""


def project(tmp_path, config: str, files: dict | None = None):
    return make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\n" + config, "gate.py": BAD,
                                   **(files or {})})


def test_select_and_ignore_from_config(tmp_path):
    project(tmp_path, 'select = ["CL1"]\nignore = ["CL102"]\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL101"}


def test_select_flag_replaces_the_config_and_extend_select_adds(tmp_path):
    project(tmp_path, 'select = ["CL101"]\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL101"}
    document, _ = check_json("--select", "CL102", cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL102"}
    document, _ = check_json("--extend-select", "CL102", cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL101", "CL102"}


def test_extend_select_from_config(tmp_path):
    project(tmp_path, 'select = ["CL3"]\nextend-select = ["CL102"]\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL102"}


def test_codes_are_case_insensitive_and_accept_a_single_string(tmp_path):
    project(tmp_path, 'select = "cl10"\nignore = ["cl101"]\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL102"}


def test_per_file_ignores(tmp_path):
    project(tmp_path, '[tool.compilelint.per-file-ignores]\n"tests/*" = ["CL1"]\n"legacy.py" = ["CL101"]\n',
            {"tests/test_gate.py": BAD, "legacy.py": BAD, "pkg/legacy.py": BAD})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert {(path, code) for path, _, code in hits(document)} == {
        ("gate.py", "CL101"), ("gate.py", "CL102"),
        ("legacy.py", "CL102"),  # CL101 ignored here
        ("pkg/legacy.py", "CL102"),  # a bare file name matches in any folder
    }


def test_per_file_ignores_relative_to_the_project_root(tmp_path):
    project(tmp_path, '[tool.compilelint.per-file-ignores]\n"src/gen/*" = ["CL"]\n', {"src/gen/out.py": BAD})
    # Run from a subfolder: the glob is still matched against the path from the root.
    document, _ = check_json(".", cwd=tmp_path / "src", expect_rc=0)
    assert document["findings"] == [] and document["summary"]["files"] == 1
    document, _ = check_json("../gate.py", "gen/out.py", cwd=tmp_path / "src", expect_rc=1)
    # Outside the working directory a path is shown absolute.
    assert {path for path, _, _ in hits(document)} == {(tmp_path / "gate.py").resolve().as_posix()}


def test_target_torch_from_config_and_flag(tmp_path):
    project(tmp_path, 'target-torch = "2.8"\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert document["target_torch"] == "2.8"
    document, _ = check_json("--target-torch", "2.13.1", cwd=tmp_path, expect_rc=1)
    assert document["target_torch"] == "2.13"


DEEPCOPY = """
import copy

import torch


class M(torch.nn.Module):
    def forward(self, x):
        options = copy.deepcopy({"scale": 2})
        return x * options["scale"]
"""


def test_target_torch_changes_findings(tmp_path):
    """torch 2.13 traces copy.deepcopy of Python values; older releases break on it (CL114)."""
    make_project(tmp_path, {"pyproject.toml": '[tool.compilelint]\ntarget-torch = "2.11"\n', "m.py": DEEPCOPY})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("m.py", 8, "CL114")}
    document, _ = check_json("--target-torch", "2.13", cwd=tmp_path, expect_rc=0)
    assert document["findings"] == [] and document["target_torch"] == "2.13"
    make_project(tmp_path, {"pyproject.toml": '[tool.compilelint]\ntarget-torch = "2.13"\n'})
    document, _ = check_json(cwd=tmp_path, expect_rc=0)
    assert document["findings"] == []
    document, _ = check_json("--target-torch", "2.4", cwd=tmp_path, expect_rc=1)
    assert hits(document) == {("m.py", 8, "CL114")}


def versioned_rules():
    from compilelint.rules import all_rules

    return [rule for rule in all_rules() if (rule.torch_max is not None or rule.torch_min > (2, 4)) and rule.INVALID]


def test_target_torch_selects_the_rules_that_apply(tmp_path):
    """A rule bounded to some torch releases fires on its INVALID example for a release
    inside its range and not for one outside it (the plumbing is checked for every rule)."""
    import textwrap

    for rule in versioned_rules():
        folder = tmp_path / rule.code
        make_project(folder, {"pyproject.toml": "[tool.compilelint]\n",
                              "case.py": textwrap.dedent(rule.INVALID[0]).lstrip("\n")})
        inside = "%d.%d" % (rule.torch_min if rule.torch_min >= (2, 4) else (2, 4))
        document, _ = check_json("--target-torch", inside, "--select", rule.code, cwd=folder)
        assert codes(document) == {rule.code}, (rule.code, inside)
        outside = ("%d.%d" % rule.torch_max) if rule.torch_max else "2.%d" % (rule.torch_min[1] - 1)
        document, _ = check_json("--target-torch", outside, "--select", rule.code, cwd=folder)
        assert codes(document) == set(), (rule.code, outside)


@pytest.mark.parametrize("config, key, fragment", [
    ('target-torch = "2.3"', "target-torch", "not supported"),
    ('target-torch = "latest"', "target-torch", "'latest'"),
    ('roots = "all"', "roots", "'all'"),
    ("select = 5", "select", "5"),
    ('select = ["E501"]', "select", "'E501'"),
    ('ignore = ["CL1", 7]', "ignore", "7"),
    ('respect-gitignore = "yes"', "respect-gitignore", "'yes'"),
    ('force-exclude = 1', "force-exclude", "1"),
    ('exclude = "build"', None, None),  # a single string is accepted
    ('extend-exclude = [1]', "extend-exclude", "[1]"),
    ('per-file-ignores = ["tests/*"]', "per-file-ignores", "tests/*"),
    ('[tool.compilelint.per-file-ignores]\n"x.py" = ["nope"]', "per-file-ignores.x.py", "'NOPE'"),
    ('probe = 3', "probe", "table"),
])
def test_bad_config_values_exit_2_naming_the_key(cli, tmp_path, config, key, fragment):
    project(tmp_path, config + "\n")
    result = cli("check", "--no-cache", cwd=tmp_path)
    if key is None:
        assert result.returncode == 1, result.stderr
        return
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr
    assert err.startswith("compilelint: error:") and "Traceback" not in err
    assert f"`{key}`" in err and fragment in err, err
    assert "pyproject.toml" in err


def test_unknown_key_lists_the_known_ones(cli, tmp_path):
    project(tmp_path, 'extend_select = ["CL1"]\n')
    result = cli("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown key `extend_select`" in result.stderr and "extend-select" in result.stderr


def test_invalid_toml_is_exit_2(cli, tmp_path):
    make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\nselect = [\n", "gate.py": BAD})
    result = cli("check", "--config", "pyproject.toml", cwd=tmp_path)
    assert result.returncode == 2
    assert "invalid TOML" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("flags, fragment", [
    (["--select", "CL1,XYZ1"], "'XYZ1'"),
    (["--ignore", "102"], "'102'"),
    (["--extend-select", "CL1234"], "'CL1234'"),
    (["--target-torch", "1.13"], "not supported"),
    (["--target-torch", "two"], "'two'"),
    (["--roots", "everything"], "everything"),
    (["--jobs", "0"], "0"),
    (["--config", "missing.toml"], "missing.toml"),
])
def test_bad_flags_exit_2(cli, tmp_path, flags, fragment):
    project(tmp_path, "")
    result = cli("check", *flags, cwd=tmp_path)
    assert result.returncode == 2, (flags, result.stdout, result.stderr)
    assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_roots_from_config_and_flag(tmp_path):
    project(tmp_path, 'roots = "explicit"\n')
    document, _ = check_json(cwd=tmp_path, expect_rc=0)
    assert document["findings"] == []  # Gate is compiled nowhere
    document, _ = check_json("--roots", "modules", cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL101", "CL102"}


def test_nearest_pyproject_with_a_compilelint_table_wins(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nselect = ["CL101"]\n',
        "sub/pyproject.toml": '[project]\nname = "sub"\n',  # no [tool.compilelint]: skipped
        "sub/gate.py": BAD,
    })
    document, _ = check_json(".", cwd=tmp_path / "sub", expect_rc=1)
    assert codes(document) == {"CL101"}


def test_explicit_config_file(tmp_path):
    make_project(tmp_path, {
        "pyproject.toml": '[tool.compilelint]\nselect = ["CL101"]\n',
        "ci/compilelint.toml": 'select = ["CL102"]\n',
        "ci/pyproject.toml": '[tool.compilelint]\nignore = ["CL1"]\n',
        "gate.py": BAD,
    })
    document, _ = check_json("--config", "ci/compilelint.toml", "gate.py", cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL102"}
    document, _ = check_json("--config", "ci/pyproject.toml", "gate.py", cwd=tmp_path, expect_rc=0)
    assert document["findings"] == []


def test_no_config_anywhere_uses_the_defaults(tmp_path):
    make_project(tmp_path, {"gate.py": BAD})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert codes(document) == {"CL101", "CL102"}


def test_target_torch_defaults_to_the_installed_release(tmp_path):
    from importlib import metadata

    from compilelint.config import SUPPORTED_TORCH, parse_version

    make_project(tmp_path, {"m.py": "x = 1\n"})
    document, _ = check_json(cwd=tmp_path, expect_rc=0)
    try:
        installed = parse_version(metadata.version("torch"))
        low, high = parse_version(SUPPORTED_TORCH[0]), parse_version(SUPPORTED_TORCH[1])
        expected = "%d.%d" % min(max(installed, low), high)
    except metadata.PackageNotFoundError:
        expected = SUPPORTED_TORCH[1]
    assert document["target_torch"] == expected


def test_installed_torch_is_what_importlib_metadata_says(tmp_path, monkeypatch):
    """The version is read from the dist-info folder's name, first along sys.path (what
    importlib.metadata answers), and other packages named torch_something are not torch."""
    import sys
    from importlib import metadata

    from compilelint import config as config_mod

    config_mod.installed_torch.cache_clear()
    try:
        try:
            expected = metadata.version("torch")
        except metadata.PackageNotFoundError:
            expected = None
        assert config_mod.installed_torch() == expected
        first, second = tmp_path / "first", tmp_path / "second"
        for folder, names in ((first, ["torch_tb_profiler-0.4.3.dist-info", "torchvision-0.26.0.dist-info"]),
                              (second, ["torch-2.7.1+cu128.dist-info"])):
            for name in names:
                (folder / name).mkdir(parents=True)
                project, version = name[: -len(".dist-info")].rsplit("-", 1)
                (folder / name / "METADATA").write_text(
                    f"Metadata-Version: 2.1\nName: {project}\nVersion: {version}\n", encoding="utf-8")
        monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
        config_mod.installed_torch.cache_clear()
        assert config_mod.installed_torch() == "2.7.1+cu128"
        assert config_mod.installed_torch() == metadata.version("torch")
    finally:
        config_mod.installed_torch.cache_clear()


def test_libcst_version_is_read_without_importing_libcst():
    import subprocess
    import sys
    from importlib import metadata

    code = ("import sys; from compilelint import cache; print(cache._libcst_version()); "
            "print('libcst' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == [metadata.version("libcst"), "False"]
