"""The report formats in depth: SARIF (schema-valid, GitHub's limits, relative URIs,
fingerprints), GitHub workflow commands (escaping), JSON (its documented schema), text."""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from cli_helpers import check_json, make_project, sarif_schema
from compilelint.finding import Finding

BAD = """
import torch

class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        return eval("x")
"""


def validate(log: dict) -> None:
    jsonschema.validate(log, sarif_schema(), format_checker=jsonschema.FormatChecker())


def sarif(cli, *args, cwd, env=None) -> dict:
    result = cli("check", "--format", "sarif", *args, cwd=cwd, env=env)
    assert result.returncode in (0, 1), result.stderr
    log = json.loads(result.stdout)
    validate(log)
    return log


def walk_keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from walk_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk_keys(item)


# ---- SARIF ------------------------------------------------------------------------------------


def test_schema_copy_matches_the_shared_schema():
    from cli_helpers import SCHEMA_COPY, SCHEMA_SHARED

    if SCHEMA_SHARED.is_file():
        assert json.loads(SCHEMA_COPY.read_text()) == json.loads(SCHEMA_SHARED.read_text())
    assert sarif_schema()["id"].endswith("sarif-schema-2.1.0.json")


def test_sarif_valid_and_shaped_for_github(cli, tmp_path):
    make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\n", "src/pkg/gate.py": BAD})
    log = sarif(cli, "src", cwd=tmp_path)
    assert log["version"] == "2.1.0" and "sarif-schema-2.1.0.json" in log["$schema"]
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    driver = run["tool"]["driver"]
    assert driver["name"] == "compilelint" and driver["version"] and driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == ["CL101", "CL102"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "src/pkg/gate.py", "uriBaseId": "%SRCROOT%"}
    first = run["results"][0]
    assert first["ruleId"] == "CL102"
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 5, "startColumn": 12, "endLine": 5, "endColumn": 23}
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "Gate.forward"
    assert first["message"]["text"].startswith("`if` on a tensor value")
    assert first["properties"]["help"].startswith("Keep it in the graph")
    assert set(first["partialFingerprints"]) == {"compilelint/v1"}
    assert run["invocations"][0]["executionSuccessful"] is True
    assert "security-severity" not in set(walk_keys(log))


def test_sarif_rules_carry_the_rule_pages(cli, tmp_path):
    from compilelint.pages import page_text

    make_project(tmp_path, {"gate.py": BAD})
    log = sarif(cli, cwd=tmp_path)
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    cl102 = rules["CL102"]
    page = page_text("CL102")
    assert page is not None
    assert cl102["name"] == "tensor-control-flow"
    assert cl102["help"]["markdown"] == page.strip()
    assert cl102["help"]["text"]
    assert cl102["shortDescription"]["text"].startswith("Python control flow that needs the *value* of a tensor")
    assert "fake tensors" in cl102["fullDescription"]["text"]
    assert cl102["defaultConfiguration"]["level"] == "error"
    assert cl102["helpUri"].startswith("https://") and cl102["helpUri"].endswith("rules/CL102.md")
    assert "torch.compile" in cl102["properties"]["tags"] and "graph-break" in cl102["properties"]["tags"]
    for rule in rules.values():
        assert len(rule["shortDescription"]["text"]) <= 1024
        assert len(rule["fullDescription"]["text"]) <= 1024
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")


def test_sarif_descriptor_for_every_rule():
    """Every registered rule (and CL000/CL001) makes a valid descriptor from its page."""
    from compilelint.pages import page_text
    from compilelint.report import render
    from compilelint.registry import BUILTIN
    from compilelint.rules import all_rules

    rules = [(r.code, r.name, r.severity) for r in all_rules()]
    rules += [(info.code, info.name, info.severity) for info in BUILTIN.values()]
    findings = [Finding(path="a.py", line=n + 1, col=1, code=code, name=name, severity=severity, message="m")
                for n, (code, name, severity) in enumerate(sorted(rules))]
    log = json.loads(render("sarif", findings, root="."))
    validate(log)
    descriptors = log["runs"][0]["tool"]["driver"]["rules"]
    assert [d["id"] for d in descriptors] == sorted(code for code, _, _ in rules)
    for d, (code, name, severity) in zip(descriptors, sorted(rules)):
        assert d["name"] == name
        assert d["defaultConfiguration"]["level"] == severity
        assert 0 < len(d["shortDescription"]["text"]) <= 1024, code
        assert 0 < len(d["fullDescription"]["text"]) <= 1024, code
        page = page_text(code)
        if page is None:
            assert "{" not in d["shortDescription"]["text"], code  # no message-template placeholders
        else:
            assert d["help"]["markdown"] == page.strip(), code
            assert d["helpUri"].endswith(f"rules/{code}.md"), code


def test_sarif_without_findings(cli, tmp_path):
    make_project(tmp_path, {"ok.py": "import torch\n"})
    log = sarif(cli, cwd=tmp_path)
    run = log["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["name"] == "compilelint"


def test_sarif_uris_are_relative_to_the_project_root_not_the_working_directory(cli, tmp_path):
    make_project(tmp_path, {"pyproject.toml": "[tool.compilelint]\n", "sub/deeper/gate.py": BAD})
    log = sarif(cli, ".", cwd=tmp_path / "sub")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"sub/deeper/gate.py"}


def test_sarif_uris_are_percent_encoded(cli, tmp_path):
    make_project(tmp_path, {"my models/gate #1 ü.py": BAD})
    log = sarif(cli, cwd=tmp_path)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "my%20models/gate%20%231%20%C3%BC.py"


def test_sarif_file_outside_the_root_gets_an_absolute_uri(cli, tmp_path):
    project = make_project(tmp_path / "project", {"pyproject.toml": "[tool.compilelint]\n"})
    other = make_project(tmp_path / "elsewhere", {"gate.py": BAD})
    log = sarif(cli, str(other / "gate.py"), cwd=project)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (other / "gate.py").resolve().as_uri()}


def test_sarif_columns_count_code_points(cli, tmp_path):
    make_project(tmp_path, {"m.py": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                label = "€😀"; y = eval("x")
                return y
    """})
    log = sarif(cli, cwd=tmp_path)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    line = (tmp_path / "m.py").read_text(encoding="utf-8").splitlines()[3]
    assert region["startColumn"] == line.index("eval") + 1
    assert region["endColumn"] == line.index('eval("x")') + len('eval("x")') + 1


def test_sarif_cl000_results(cli, tmp_path):
    make_project(tmp_path, {"broken.py": "def f(:\n", "bin.py": b"\x00\x01\x02"})
    log = sarif(cli, cwd=tmp_path)
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"CL000"}
    assert len(results) == 2
    rule = log["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["id"] == "CL000" and rule["name"] == "file-error"


def fingerprints(log):
    return [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
             r["partialFingerprints"]["compilelint/v1"]) for r in log["runs"][0]["results"]]


def test_fingerprints_stable_and_robust_to_line_shifts(cli, tmp_path):
    source = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                a = eval("x")
                b = eval("x")
                a = eval("x")
                return a
    """
    make_project(tmp_path, {"m.py": source})
    first = fingerprints(sarif(cli, cwd=tmp_path))
    again = fingerprints(sarif(cli, cwd=tmp_path))
    assert first == again
    prints = [p for _, _, p in first]
    assert len(set(prints)) == 3  # identical lines still get distinct fingerprints

    # Move the code down and re-indent it: same fingerprints, new line numbers.
    shifted = "# a header comment\n\n\n" + textwrap.dedent(source).lstrip("\n").replace("    ", "  ")
    make_project(tmp_path, {"m.py": shifted})
    moved = fingerprints(sarif(cli, cwd=tmp_path))
    assert [p for _, _, p in moved] == prints
    assert [line for _, line, _ in moved] == [line + 3 for _, line, _ in first]

    # Change the flagged line: its fingerprint changes, the others do not.
    make_project(tmp_path, {"m.py": source.replace('b = eval("x")', 'b = eval("x + 1")')})
    changed = [p for _, _, p in fingerprints(sarif(cli, cwd=tmp_path))]
    assert changed[0] == prints[0] and changed[2] == prints[2] and changed[1] != prints[1]


def test_sarif_keeps_githubs_5000_result_limit(cli, tmp_path):
    body = ['        eval("1")'] * 4990 + ["        self.n += 1"] * 15
    source = "\n".join(["import torch", "class M(torch.nn.Module):", "    def __init__(self):",
                        "        super().__init__()", "        self.n = 0", "    def forward(self, x):",
                        *body, "        return x", ""])
    (tmp_path / "many.py").write_text(source, encoding="utf-8")
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert document["summary"]["findings"] == 5005
    out = tmp_path / "out.sarif"
    result = cli("check", "--format", "sarif", "-o", str(out), cwd=tmp_path)
    assert result.returncode == 1
    log = json.loads(out.read_text(encoding="utf-8"))
    validate(log)
    run = log["runs"][0]
    assert len(run["results"]) == 5000
    counts = Counter(r["ruleId"] for r in run["results"])
    assert counts == {"CL101": 4990, "CL202": 10}  # errors are kept first
    assert len({r["partialFingerprints"]["compilelint/v1"] for r in run["results"]}) == 5000
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and notes[0]["level"] == "warning"
    assert notes[0]["message"]["text"].startswith("5 of 5005 results were dropped")
    assert "CL202: 5" in notes[0]["message"]["text"]


def test_sarif_in_process_evidence_long_messages_and_notes():
    """Probe evidence (set by `probe`) lands in result properties; descriptions are clipped."""
    from compilelint.report import render

    evidence = {"status": "confirmed", "reason": "generic_jump", "graph_break_id": "GB0170",
                "target": "demo.py:make", "observed_line": 5}
    findings = [
        Finding(path="a.py", line=5, col=12, code="CL102", name="tensor-control-flow", severity="error",
                message="`if` on a tensor value", end_line=5, end_col=23, evidence=evidence),
        Finding(path="a.py", line=9, col=1, code="CL901", name="probe-graph-break", severity="note",
                message="x" * 5000),
    ]
    log = json.loads(render("sarif", findings, root=".", files=1, lines=10, torch="2.13"))
    validate(log)
    results = log["runs"][0]["results"]
    assert results[0]["properties"]["evidence"] == evidence
    assert results[1]["level"] == "note"
    assert len(results[1]["message"]["text"]) <= 1024
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    # The descriptor is the registry's (CL901 is an error), whatever one finding says.
    assert rules["CL901"]["defaultConfiguration"]["level"] == "error"
    assert rules["CL901"]["name"] == "probe-graph-break"
    assert rules["CL901"]["shortDescription"]["text"] == "a graph break seen by `probe` with no static finding"


# ---- GitHub workflow commands -----------------------------------------------------------------


def test_github_escapes_properties(cli, tmp_path):
    make_project(tmp_path, {"odd,name:1%.py": BAD})
    result = cli("check", "--format", "github", "--select", "CL101", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("::error file=odd%2Cname%3A1%25.py,line=7,col=16,")


def test_github_paths_relative_to_the_workspace(cli, tmp_path):
    make_project(tmp_path, {"sub/gate.py": BAD})
    result = cli("check", "--format", "github", ".", cwd=tmp_path / "sub",
                 env={"GITHUB_WORKSPACE": str(tmp_path)})
    assert "::error file=sub/gate.py,line=7," in result.stdout


def test_github_in_process_severities_and_message_escaping():
    from compilelint.report import render

    findings = [
        Finding(path="a.py", line=1, col=1, code="CL102", name="tensor-control-flow", severity="warning",
                message="100% sure:\r\nnext line, really", end_line=1, end_col=5),
        Finding(path="a.py", line=2, col=3, code="CL901", name="probe-graph-break", severity="note",
                message="seen by probe"),
    ]
    lines = render("github", findings).splitlines()
    assert lines == [
        "::warning file=a.py,line=1,col=1,endLine=1,endColumn=5,title=CL102 tensor-control-flow"
        "::100%25 sure:%0D%0Anext line, really",
        "::notice file=a.py,line=2,col=3,title=CL901 probe-graph-break::seen by probe",
    ]


# ---- JSON ---------------------------------------------------------------------------------------


FINDING_KEYS = {"path", "line", "col", "end_line", "end_col", "code", "name", "severity", "message",
                "help", "scope", "evidence", "when"}


def test_json_schema_is_stable_and_documented(tmp_path):
    from conftest import REPO

    make_project(tmp_path, {"gate.py": BAD})
    document, _ = check_json(cwd=tmp_path, expect_rc=1)
    assert set(document) == {"version", "tool", "target_torch", "target_torch_notice", "summary", "findings"}
    assert document["version"] == 2
    assert set(document["summary"]) == {"files", "lines", "findings", "by_code"}
    for finding in document["findings"]:
        assert set(finding) == FINDING_KEYS
        assert finding["evidence"] is None
    doc = (REPO / "docs" / "json-schema.md").read_text(encoding="utf-8")
    for key in FINDING_KEYS | set(document) | set(document["summary"]):
        assert f"`{key}`" in doc, f"docs/json-schema.md does not document `{key}`"
    assert re.search(r"`version`.*\b2\b", doc)


def test_json_empty_run(tmp_path):
    make_project(tmp_path, {"ok.py": "x = 1\n"})
    document, _ = check_json(cwd=tmp_path, expect_rc=0)
    assert document["findings"] == [] and document["summary"]["findings"] == 0
    assert document["summary"]["by_code"] == {}


def test_json_target_torch_follows_the_flag(tmp_path):
    make_project(tmp_path, {"ok.py": "x = 1\n"})
    document, _ = check_json("--target-torch", "2.6", cwd=tmp_path, expect_rc=0)
    assert document["target_torch"] == "2.6"


# ---- text -------------------------------------------------------------------------------------------


def test_text_multiline_finding_and_tabs(cli, tmp_path):
    make_project(tmp_path, {"m.py": (
        "import torch\n"
        "class M(torch.nn.Module):\n"
        "\tdef forward(self, x):\n"
        "\t\tif (x.sum()\n"
        "\t\t\t\t> 0):\n"
        "\t\t\treturn x\n"
        "\t\treturn -x\n")})
    result = cli("check", "--no-color", cwd=tmp_path)
    assert result.returncode == 1
    assert "m.py:4:7: CL102" in result.stdout
    assert "4 |   if (x.sum()" in result.stdout
    assert "  |       ^^^^^^^\n" in result.stdout  # a multi-line span: underlined to the end of its first line


def test_text_escapes_rich_markup_in_paths_and_messages(cli, tmp_path):
    make_project(tmp_path, {"[bold]x[/bold].py": BAD})
    result = cli("check", "--no-color", cwd=tmp_path)
    assert "[bold]x[/bold].py:7:16: CL101" in result.stdout


# ---- `check --probe` context ---------------------------------------------------------------------


PROBE = {
    "targets": [
        {"name": "demo.py:make", "status": "ok", "graph_count": 3, "device": "cpu", "error": None,
         "counts": {"graph_break": 2, "recompile": 0, "frame_skip": 1}},
        {"name": "broken.py:make", "status": "failed", "graph_count": None, "device": None,
         "error": "ImportError: no module named foo", "counts": {}},
    ],
    "failed": ["broken.py:make"],
}


def test_probe_context_in_sarif_json_and_text():
    from compilelint.report import render

    findings = [Finding(path="a.py", line=3, col=5, code="CL102", name="tensor-control-flow", severity="error",
                        message="m", evidence={"status": "confirmed", "reason": "generic_jump"})]
    log = json.loads(render("sarif", findings, root=".", probe=PROBE))
    validate(log)
    run = log["runs"][0]
    assert run["properties"]["probe"] == PROBE
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["error"] and "broken.py:make" in notes[0]["message"]["text"]

    document = json.loads(render("json", findings, files=1, probe=PROBE))
    assert document["probe"] == PROBE and document["findings"][0]["evidence"]["status"] == "confirmed"

    text = render("text", findings, files=1, probe=PROBE)
    assert "probe: confirmed generic_jump" in text
    assert "demo.py:make: ok, 3 graphs, 2 graph breaks, 1 frame skip (cpu)" in text
    assert "broken.py:make: failed, no breaks — ImportError: no module named foo" in text

    github = render("github", findings, probe=PROBE)
    assert github.startswith("::error file=a.py,line=3,col=5,title=CL102 tensor-control-flow::m%0Aprobe: confirmed generic_jump")


# ---- text -------------------------------------------------------------------------------------


def test_text_prints_locations_and_messages_literally(cli, tmp_path):
    # a finding on line 100 reads `file.py:100:9`, which rich would turn into the `:100:`
    # emoji; a message with brackets is not markup
    (tmp_path / "deep.py").write_text("\n" * 96 + "import torch\nclass Gate(torch.nn.Module):\n"
                                      "    def forward(self, x):\n        print('[x]:', x)\n        return x\n")
    for extra in ([], ["--color"]):
        result = cli("check", "deep.py", "--no-cache", *extra, cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        plain = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
        assert "deep.py:100:9: CL110 " in plain, plain
        assert "\N{HUNDRED POINTS SYMBOL}" not in plain
        assert "100 |         print('[x]:', x)" in plain
