"""Snapshots of everything the static pass reports, so that the engine can be rewritten
with its behaviour pinned: for every rule, each VALID and INVALID case and each code block
of its page, every finding (any code, not only the rule's own) with its span, severity,
message and help text (and the edits of its autofix, if any), plus the unified diff of the safe fixes; and the findings on the demo
project and on the labelled corpus.

    COMPILELINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py

rewrites tests/snapshots/. Without it, a difference fails with expected vs got per finding,
and a case that is not recorded fails too.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from compilelint.fixes import fix_files
from compilelint.pages import code_blocks, page_text, sections
from compilelint.rules import all_rules
from conftest import run_cli
from helpers import lint_snippet
from test_rule_cases import _version as target_torch_of

REPO = Path(__file__).resolve().parents[1]
SNAPSHOTS = REPO / "tests" / "snapshots"
UPDATE = os.environ.get("COMPILELINT_UPDATE_SNAPSHOTS") == "1"
RULES = list(all_rules())
FIELDS = ("line", "col", "end_line", "end_col", "code", "severity", "message", "help")
TREE_FIELDS = ("path", "line", "col", "end_line", "end_col", "code", "severity", "message")
UPDATE_HINT = "(record it with COMPILELINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py)"


# ---- what is recorded ----------------------------------------------------------------------

def rule_cases(rule) -> dict[str, str]:
    """name -> source: the rule's VALID and INVALID cases and every python block of its page."""
    cases = {f"valid-{i}": src for i, src in enumerate(rule.VALID)}
    cases.update({f"invalid-{i}": src for i, src in enumerate(rule.INVALID)})
    for section, body in sections(page_text(rule.code) or "").items():
        slug = re.sub(r"[^a-z0-9]+", "-", section).strip("-")
        for i, src in enumerate(code_blocks(body)):
            cases[f"page-{slug}-{i}"] = src
    return cases


def record(finding, fields, folder: Path) -> dict:
    """The finding's `fields`; the case's temporary folder, where a message names it, as <case>."""
    out = {name: getattr(finding, name) for name in fields}
    for name in ("message", "help"):
        if isinstance(out.get(name), str):
            out[name] = out[name].replace(str(folder), "<case>")
    if "help" in fields and finding.edits:
        out["edits"] = [list(edit.as_tuple()) for edit in finding.edits]
    return out


def sort_records(records: list[dict]) -> list[dict]:
    return sorted(records, key=lambda r: json.dumps([r.get(k) for k in TREE_FIELDS + ("help",)]))


def snapshot_case(folder: Path, source: str, target_torch: str) -> dict:
    folder.mkdir()
    findings = lint_snippet(folder, source, target_torch=target_torch)
    entry = {
        "source": textwrap.dedent(source).lstrip("\n").splitlines(),
        "findings": sort_records([record(f, FIELDS, folder) for f in findings]),
    }
    diff = "".join(dataclasses.replace(fix, path="snippet.py").diff() for fix in fix_files(findings))
    if diff:
        entry["fix_diff"] = diff.splitlines()
    return entry


def snapshot_rule(rule, tmp_path: Path) -> dict:
    version = target_torch_of(rule)
    cases = {name: snapshot_case(tmp_path / name, src, version) for name, src in rule_cases(rule).items()}
    return {"rule": rule.code, "target_torch": version, "cases": cases}


def snapshot_tree(folder: str, cwd: Path) -> dict:
    """`compilelint check FOLDER --format json`, run once, as a user runs it."""
    site = {"PYTHONPATH": str(REPO / "fixtures" / "site")}  # the corpus's installed packages (its README)
    proc = run_cli("check", "--no-cache", "--target-torch", "2.13", "--format", "json", folder, cwd=cwd, env=site)
    assert proc.returncode in (0, 1), proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    return {"command": f"compilelint check --target-torch 2.13 --format json {folder}",
            "findings": sort_records([{k: f[k] for k in TREE_FIELDS} for f in findings])}


# ---- comparing -----------------------------------------------------------------------------

def _place(r: dict) -> str:
    return f"{r.get('path', '')}:{r['line']}:{r['col']} {r['code']}".lstrip(":")


def diff_findings(expected: list[dict], got: list[dict]) -> list[str]:
    """Per finding: fields that changed, and findings only on one side."""
    lost = [r for r in expected if r not in got]
    new = [r for r in got if r not in expected]
    out = []
    for old in list(lost):
        twin = next((r for r in new if _place(r) == _place(old)), None)
        if twin is None:
            continue
        lost.remove(old)
        new.remove(twin)
        for key in sorted(set(old) | set(twin)):
            if old.get(key) != twin.get(key):
                out.append(f"  {_place(old)} {key}:\n    expected {old.get(key)!r}\n         got {twin.get(key)!r}")
    out += [f"  expected, not reported: {json.dumps(r)}" for r in lost]
    out += [f"  reported, not expected: {json.dumps(r)}" for r in new]
    return out


def diff_cases(expected: dict, got: dict) -> list[str]:
    out = []
    for name in sorted(set(expected) | set(got)):
        if name not in expected:
            out.append(f"{name}: not recorded {UPDATE_HINT}")
        elif name not in got:
            out.append(f"{name}: recorded, but there is no such case any more")
        elif expected[name] != got[name]:
            old, new = expected[name], got[name]
            if old.get("source") != new.get("source"):
                out.append(f"{name}: its source changed {UPDATE_HINT}")
                continue
            lines = diff_findings(old["findings"], new["findings"])
            if old.get("fix_diff") != new.get("fix_diff"):
                lines.append("  fix diff:\n    expected\n      " + "\n      ".join(old.get("fix_diff", ["(none)"]))
                             + "\n    got\n      " + "\n      ".join(new.get("fix_diff", ["(none)"])))
            out.append(f"{name}:\n" + "\n".join(lines))
    return out


def check_snapshot(path: Path, got: dict) -> None:
    """Compare with the file at `path`, or rewrite it in update mode. A rule's crash (CL001)
    is never a result to keep, in either mode."""
    text = json.dumps(got, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert '"CL001"' not in text, f"a rule crashed while making {path.name}: fix it, do not snapshot it"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no snapshot {path.name} {UPDATE_HINT}"
    expected = json.loads(path.read_text(encoding="utf-8"))
    if expected == got:
        return
    problems = [f"{key}: expected {expected.get(key)!r}, got {got.get(key)!r}"
                for key in sorted(set(expected) | set(got)) if key not in ("cases", "findings")
                and expected.get(key) != got.get(key)]
    if "cases" in got:
        problems += diff_cases(expected.get("cases", {}), got["cases"])
    else:
        problems += diff_findings(expected.get("findings", []), got["findings"])
    pytest.fail(f"{path.relative_to(REPO)} differs {UPDATE_HINT}:\n" + "\n".join(problems), pytrace=False)


# ---- the tests -----------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_snapshot(tmp_path, rule):
    check_snapshot(SNAPSHOTS / f"{rule.code}.json", snapshot_rule(rule, tmp_path))


def test_no_snapshot_without_a_rule():
    codes = {r.code for r in RULES}
    stale = [p for p in SNAPSHOTS.glob("CL*.json") if p.stem not in codes]
    if UPDATE:
        for path in stale:
            path.unlink()
    assert not [p.name for p in stale if p.exists()]


@pytest.mark.parametrize("folder,name", [("fixtures/demo", "demo"), ("fixtures/corpus", "corpus")])
def test_tree_snapshot(folder, name):
    check_snapshot(SNAPSHOTS / f"{name}.json", snapshot_tree(folder, REPO))


def test_the_comparison_catches_changes(tmp_path):
    """The comparison itself: a changed severity, a lost finding or a new case are caught."""
    rule = next(r for r in RULES if r.code == "CL102")
    got = snapshot_rule(rule, tmp_path)
    assert got["cases"]["invalid-0"]["findings"], "an INVALID case reports something"
    changed = json.loads(json.dumps(got))
    finding = changed["cases"]["invalid-0"]["findings"][0]
    finding["severity"] = "note" if finding["severity"] != "note" else "error"
    del changed["cases"]["valid-0"]
    report = "\n".join(diff_cases(changed["cases"], got["cases"]))
    assert "severity:" in report and "valid-0: not recorded" in report
