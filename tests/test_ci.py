"""CI at home: the SARIF file keeps to GitHub's ingestion limits on a project with more
findings than GitHub shows, docs/ci.md's workflow and hook are what they claim, and
`--format github` annotates."""

import json
import re
from pathlib import Path

import pytest

from compilelint.finding import Finding
from compilelint.registry import BUILTIN
from compilelint.rules import all_rules

REPO = Path(__file__).resolve().parents[1]
GITHUB_MAX_RESULTS = 5000
GITHUB_MAX_DESCRIPTION = 1024
MANY = 6200  # findings in the project below: more than GitHub takes


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """A project with MANY CL110 (print in forward) findings and a few errors."""
    root = tmp_path_factory.mktemp("crowded")
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    body = "".join(f"        print(x, {i})\n" for i in range(MANY))
    (root / "noisy.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Noisy(nn.Module):\n    def forward(self, x):\n"
        + body + "        return x\n", encoding="utf-8")
    (root / "broken.py").write_text('print "python 2"\n', encoding="utf-8")
    (root / "restore.py").write_text(
        "import torch\nmodel = torch.compile(Net())\nmodel.load_state_dict(torch.load('c.pt'))\n",
        encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def sarif_runs(crowded):
    from conftest import run_cli  # (not `tests.conftest`: a zoo library may install a `tests` package)

    logs = []
    for _ in range(2):
        proc = run_cli("check", "--format", "sarif", ".", cwd=crowded, timeout=300)
        assert proc.returncode == 1, proc.stderr
        logs.append(json.loads(proc.stdout))
    return logs


def test_at_most_5000_results_with_a_notification(sarif_runs, crowded, cli):
    log = sarif_runs[0]
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    every = json.loads(cli("check", "--format", "json", ".", cwd=crowded, timeout=300).stdout)["findings"]
    total = len(every)
    assert total > GITHUB_MAX_RESULTS
    assert len(run["results"]) == GITHUB_MAX_RESULTS
    notes = [n for inv in run["invocations"] for n in inv.get("toolExecutionNotifications", [])]
    dropped = total - GITHUB_MAX_RESULTS
    assert any(f"{dropped} of {total} results were dropped" in n["message"]["text"] for n in notes), notes
    assert run["properties"]["resultsDropped"] == dropped
    # errors are kept first
    errors = sum(1 for f in every if f["severity"] == "error")
    kept_errors = sum(1 for r in run["results"] if r["level"] == "error")
    assert kept_errors == min(errors, GITHUB_MAX_RESULTS)
    assert "CL000" in {r["ruleId"] for r in run["results"]}


def test_descriptions_at_most_1024_characters(sarif_runs):
    run = sarif_runs[0]["runs"][0]
    for rule in run["tool"]["driver"]["rules"]:
        for key in ("shortDescription", "fullDescription"):
            if key in rule:
                assert len(rule[key]["text"]) <= GITHUB_MAX_DESCRIPTION, (rule["id"], key)
    for result in run["results"]:
        assert len(result["message"]["text"]) <= GITHUB_MAX_DESCRIPTION


def test_every_rule_descriptor_and_a_long_message_stay_within_limits():
    from compilelint.report import sarif_format

    codes = sorted({rule.code for rule in all_rules()} | set(BUILTIN))
    findings = [Finding(path="x.py", line=1, col=1, code=code, message="m " * 2000, severity="warning")
                for code in codes]
    run = json.loads(sarif_format.render(findings, root="."))["runs"][0]
    assert sorted(rule["id"] for rule in run["tool"]["driver"]["rules"]) == codes
    for rule in run["tool"]["driver"]["rules"]:
        for key in ("shortDescription", "fullDescription"):
            assert len(rule.get(key, {}).get("text", "")) <= GITHUB_MAX_DESCRIPTION
        assert "security-severity" not in json.dumps(rule)
    assert all(len(r["message"]["text"]) <= GITHUB_MAX_DESCRIPTION for r in run["results"])


def test_fingerprints_stable_across_runs_of_unchanged_code(sarif_runs):
    first, second = ([r["partialFingerprints"] for r in log["runs"][0]["results"]] for log in sarif_runs)
    assert first == second
    values = [next(iter(p.values())) for p in first]
    assert len(set(values)) == len(values)  # 5,000 different alerts, not one


def test_sarif_validates_against_the_schema(sarif_runs):
    import jsonschema  # a dev dependency: a missing one is a broken set-up, not a skip

    # the copy in tests/data (test_reports checks it against ../shared when there is one)
    schema = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(sarif_runs[0], schema, format_checker=jsonschema.FormatChecker())


def test_github_annotations(cli, crowded):
    proc = cli("check", "--format", "github", "restore.py", "broken.py", cwd=crowded)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert any(line.startswith("::error file=restore.py,line=3,") and "title=CL301" in line for line in lines)
    assert any(line.startswith("::error file=broken.py,line=1,") and "Python 2" in line for line in lines)


# ---- docs/ci.md ------------------------------------------------------------------------

def _blocks(language):
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_documented_workflow_is_valid_and_uploads_sarif():
    yaml = pytest.importorskip("yaml")
    workflows = [yaml.safe_load(block) for block in _blocks("yaml") if "jobs:" in block]
    assert len(workflows) == 1
    workflow = workflows[0]
    job = workflow["jobs"]["compilelint"]
    assert job["permissions"]["security-events"] == "write"
    assert workflow["permissions"] == {"contents": "read"}
    steps = job["steps"]
    check = next(s for s in steps if s.get("id") == "check")
    assert "compilelint check" in check["run"] and "--format sarif" in check["run"]
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    output = re.search(r"--output (\S+)", check["run"]).group(1)
    assert upload["with"]["sarif_file"] == output
    assert "pull_request_target" not in json.dumps(workflow, default=str)


def test_the_documented_commands_run(cli, crowded, tmp_path):
    # every `compilelint ...` line in the docs' YAML is a command the CLI accepts
    commands = []
    for block in _blocks("yaml"):
        for match in re.finditer(r"compilelint check[^\n]*(?:\n\s+--[^\n]*)*", block):
            commands.append(" ".join(match.group(0).split()))
    assert len(commands) >= 3
    for command in commands:
        args = command.split()[1:]
        args = [a.replace('"$RUNNER_TEMP/compilelint-cache"', str(tmp_path / "cache")) for a in args]
        args = [a.replace(".compilelint-baseline.json", str(tmp_path / "b.json")) for a in args]
        if "--baseline" in args:
            assert cli("check", "--write-baseline", str(tmp_path / "b.json"), ".", cwd=crowded).returncode == 0
        args = [a for a in args if a != "src/"] + ["restore.py"]
        proc = cli(*args, cwd=crowded, timeout=300)
        assert proc.returncode in (0, 1), (command, proc.stderr)


def test_the_documented_hook_is_the_repository_hook():
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    configs = [yaml.safe_load(block) for block in _blocks("yaml") if "repos:" in block]
    assert len(configs) == 1
    ids = {hook["id"] for hook in hooks}
    assert {hook["id"] for repo in configs[0]["repos"] for hook in repo["hooks"]} <= ids
