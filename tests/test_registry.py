"""The registry: one table of every code, generated from the rule classes, read by the
engine, the reports and the CLI without libcst; the pages and the catalogue agree with it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from compilelint import registry, registry_gen
from compilelint.pages import page_text, sections
from compilelint.rules import all_rules

FIELDS = ("name", "severity", "summary", "message", "help", "gb_id", "torch_min", "torch_max",
          "region_only", "breaks_graph", "autofix")


def test_generated_files_are_up_to_date():
    assert registry_gen.stale() == [], "run: python -m compilelint.registry_gen"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_the_registry_says_what_the_rule_class_says(rule):
    info = registry.RULES[rule.code]
    assert {name: getattr(info, name) for name in FIELDS} == {name: getattr(rule, name) for name in FIELDS}
    assert info.fixable == bool(rule.autofix) == bool(rule.FIXED)
    assert info.torch_range() == rule.torch_range()
    assert info.origin == "rule"


def test_every_code_once_in_its_family():
    assert set(registry.RULES) == {rule.code for rule in all_rules()}
    assert set(registry.ALL) == set(registry.RULES) | set(registry.BUILTIN) | set(registry.PROBE)
    assert len(registry.ALL) == len(registry.RULES) + len(registry.BUILTIN) + len(registry.PROBE)
    for code, info in registry.ALL.items():
        assert info.code == code and info.summary and info.severity in ("error", "warning", "note")
        assert info.family != "other"
    assert {info.family for info in registry.PROBE.values()} == {"probe"}
    assert {info.family for info in registry.BUILTIN.values()} == {"internal"}


def test_the_probe_reads_its_codes_from_the_registry():
    from compilelint.probe import match

    assert match.PROBE_CODES is registry.PROBE_CODES
    assert {code for code, _, _ in registry.PROBE_CODES.values()} == set(registry.PROBE)


def test_the_generator_refuses_an_autofix_with_no_case_it_fixes(monkeypatch):
    rule = next(r for r in all_rules() if r.code == "CL110")
    monkeypatch.setattr(rule, "autofix", "prints nothing")
    with pytest.raises(SystemExit, match="CL110: an `autofix` but no INVALID case it fixes"):
        registry_gen.rows_from_classes()


def test_a_stale_registry_is_caught(tmp_path, monkeypatch):
    stale_data = tmp_path / "registry_data.py"
    stale_data.write_text(registry_gen.render_data(registry_gen.rows_from_classes()).replace("GB0170", "GB0171"),
                          encoding="utf-8")
    catalogue = tmp_path / "catalogue.md"
    catalogue.write_text(open(registry_gen.CATALOGUE, encoding="utf-8").read(), encoding="utf-8")
    monkeypatch.setattr(registry_gen, "DATA", str(stale_data))
    monkeypatch.setattr(registry_gen, "CATALOGUE", str(catalogue))
    assert registry_gen.stale() == [str(stale_data)]
    assert registry_gen.main(["--check"]) == 1
    assert registry_gen.main([]) == 0  # rewrites it
    assert registry_gen.stale() == []


# ---- read without libcst -----------------------------------------------------------------

def test_registry_engine_and_reports_import_without_libcst_or_the_rules():
    program = ("import compilelint.registry, compilelint.engine, compilelint.cli, compilelint.report.sarif_format, "
               "compilelint.report.json_format, compilelint.report.text_format")
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", program],
                            capture_output=True, text=True, timeout=120, check=True)
    names = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    assert "compilelint.registry" in names
    heavy = {name for name in names if name.startswith(("libcst", "compilelint.rules", "compilelint.analysis",
                                                        "sarif_om", "attr", "importlib.metadata"))}
    assert not heavy


# ---- the pages and the catalogue ----------------------------------------------------------

PAGED = [code for code, info in registry.ALL.items() if info.origin != "probe"]


@pytest.mark.parametrize("code", PAGED)
def test_the_page_agrees_with_the_registry(code):
    info = registry.ALL[code]
    text = page_text(code)
    assert text is not None, f"rules/{code}.md is missing"
    title, _, header = text.splitlines()[:3]
    assert title == f"# {code} {info.name}"
    fields = dict(part.split(": ", 1) for part in header.split(" · "))
    assert fields["Severity"].split()[0] == info.severity, f"{code}: the default severity comes first"
    dynamo = fields["Dynamo"]
    if info.gb_id:
        assert re.findall(r"GB\d{4}", dynamo)[:1] == [info.gb_id], f"{code}: the page's first id is the class's"
        assert info.gb_id.lower() + ".html" in dynamo
    else:
        assert dynamo.startswith("none"), f"{code}: the class has no gb_id, the page names one"
    assert ("Autofix" in fields) == info.fixable
    versions = sections(text)["torch versions"].lower()
    if info.origin == "engine":
        assert "independent of torch" in versions
    elif info.torch_min == registry.OLDEST_TORCH and info.torch_max is None:
        assert "all supported releases" in versions
    else:
        assert ("%d.%d" % info.torch_min) in versions


def test_no_page_without_a_code():
    from compilelint.pages import pages_dir

    assert {path.stem for path in pages_dir().glob("CL*.md")} == set(PAGED)


def test_the_catalogue_lists_every_code_as_the_registry_does():
    text = open(registry_gen.CATALOGUE, encoding="utf-8").read()
    rows = re.findall(r"^\| (CL\d{3}) \| ([\w-]+) \| (\w+) \| ([^|]*) \| ([^|]*) \| (yes)? \|", text, re.M)
    assert [row[0] for row in rows] == list(registry.ALL)
    for code, name, severity, dynamo, _, fixable in rows:
        info = registry.ALL[code]
        assert (name, severity, bool(fixable)) == (info.name, info.severity, info.fixable)
        assert (info.gb_id or "") in dynamo


# ---- the command line ---------------------------------------------------------------------

def test_rules_lists_every_code_from_the_registry(cli):
    result = cli("rules", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["code"] for row in rows] == list(registry.ALL)
    for row in rows:
        info = registry.ALL[row["code"]]
        assert row == {"code": info.code, "name": info.name, "severity": info.severity, "family": info.family,
                       "summary": info.summary, "gb_id": info.gb_id, "torch": info.torch_range(),
                       "fixable": info.fixable, "region_only": info.region_only}


def test_rule_prints_what_the_registry_knows_of_a_code_without_a_page(cli):
    result = cli("rule", "cl902")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# CL902 probe-recompile\n")
    assert "Severity: warning" in result.stdout and "A recompile seen by `probe`" in result.stdout
