"""SARIF 2.1.0, for GitHub code scanning (upload-sarif) and other SARIF viewers.

One run. Rules carry their help from the `rules/CODE.md` pages; results carry URIs
relative to the project root (`%SRCROOT%`), 1-based columns counted in code points,
fingerprints that survive line shifts, and probe evidence in their properties.
GitHub's limits are kept: at most 5,000 results per run (the rest are dropped, and a
tool execution notification says how many), descriptions of at most 1,024 characters,
no `security-severity`.

Built with `sarif-om`'s classes, serialised with the schema's camelCase names.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import attr
import sarif_om as om

from compilelint import __version__

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
MAX_RESULTS = 5000  # GitHub code scanning shows at most this many results per run
MAX_DESCRIPTION = 1024  # GitHub truncates longer rule and result descriptions
MAX_TAGS = 10
FINGERPRINT_KEY = "compilelint/v1"
SRCROOT = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}
FAMILIES = {"0": "internal", "1": "graph-break", "2": "recompilation", "3": "compile-api", "9": "probe"}
SEVERITY_ORDER = {"error": 0, "warning": 1, "note": 2}
# The project's home as the README gives it; `[project.urls]` in the installed metadata wins.
DEFAULT_REPOSITORY = "https://github.com/compilelint/compilelint"
GB_PAGE = "https://meta-pytorch.org/compile-graph-break-site/gb/{}.html"


# ---- serialisation -----------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """sarif-om objects -> JSON-ready data with the schema's property names. Unset
    fields (None, empty containers, sarif-om's sentinel defaults such as -1) are
    dropped; `level` is always written when set, since a missing level means the rule's
    default, not this value."""
    if attr.has(type(value)):
        out: dict[str, Any] = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            if item is None or (isinstance(item, (list, dict, str)) and not item and field.name != "text"):
                continue
            default = field.default
            if isinstance(default, attr.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if field.name != "level" and default is not attr.NOTHING and item == default:
                continue
            out[field.metadata.get("schema_property_name", field.name)] = to_json(item)
        return out
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


# ---- helpers -------------------------------------------------------------------------------


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """At most `limit` characters, cut at a word boundary with an ellipsis."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def _flatten(markdown: str) -> str:
    """A markdown paragraph as one line of plain-ish text."""
    return re.sub(r"\s+", " ", markdown).strip()


def _first_paragraph(body: str) -> str:
    for paragraph in re.split(r"\n\s*\n", body.strip()):
        if paragraph.strip() and not paragraph.lstrip().startswith("```"):
            return _flatten(paragraph)
    return ""


def _project_urls() -> dict[str, str]:
    try:
        from importlib import metadata

        meta = metadata.metadata("compilelint")
    except Exception:
        return {}
    urls: dict[str, str] = {}
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        if url.strip():
            urls[label.strip().lower()] = url.strip()
    if meta.get("Home-page"):
        urls.setdefault("homepage", meta["Home-page"])
    return urls


def _information_uri(urls: dict[str, str]) -> str:
    for key in ("homepage", "documentation", "repository", "source"):
        if urls.get(key):
            return urls[key]
    return DEFAULT_REPOSITORY


def _page_uri(urls: dict[str, str], code: str) -> str:
    """The rule's page (`rules/CODE.md`) in the repository."""
    for key in ("repository", "source", "homepage"):
        url = urls.get(key, "").rstrip("/")
        if re.match(r"https://(github\.com|gitlab\.com)/[^/]+/[^/]+$", url):
            return f"{url}/blob/main/rules/{code}.md"
    return f"{DEFAULT_REPOSITORY}/blob/main/rules/{code}.md"


# ---- rules ---------------------------------------------------------------------------------


def _rule_meta(code: str, example) -> dict[str, Any]:
    """What the registry, the builtin codes and the finding itself say about a rule."""
    from compilelint.rules import BUILTIN, by_code

    rule = by_code().get(code)
    if rule is not None:
        doc = (rule.__doc__ or "").strip().splitlines()
        return {"name": rule.name, "severity": rule.severity, "message": rule.message,
                "doc": doc[0] if doc else "", "fix": rule.fix, "gb_id": rule.gb_id,
                "torch": rule.torch_range()}
    if code in BUILTIN:
        name, severity, description = BUILTIN[code]
        return {"name": name, "severity": severity, "message": description, "doc": description,
                "fix": "", "gb_id": None, "torch": None}
    return {"name": example.name or code.lower(), "severity": example.severity, "message": "",
            "doc": "", "fix": example.fix or "", "gb_id": None, "torch": None}


def _descriptor(code: str, example, urls: dict[str, str]) -> om.ReportingDescriptor:
    from compilelint.pages import page_text, sections

    meta = _rule_meta(code, example)
    page = page_text(code)
    parts = sections(page) if page else {}
    flags = parts.get("what it flags", "")
    why = parts.get("why it hurts torch.compile", "")
    template = re.sub(r"\{[^}]*\}", "…", meta["message"]) if meta["message"] else ""
    short = _first_paragraph(flags) or template or meta["doc"] or meta["name"]
    # The first sentence is the short description; the page's opening sections the full one.
    sentence = re.match(r"(.+?\.)(\s|$)", short)
    short_text = clip(sentence.group(1) if sentence and len(sentence.group(1)) > 20 else short)
    full = "\n\n".join(_flatten(p) for p in (flags, why) if p) or short
    if page:
        help_md = page
    else:
        help_md = "\n\n".join(p for p in (f"# {code} {meta['name']}", short, meta["fix"] and f"Use instead: {meta['fix']}") if p)
    family = FAMILIES.get(code[2:3], "other")
    tags = ["torch.compile", family]
    if meta["gb_id"]:
        tags.append(meta["gb_id"].lower())
    properties: dict[str, Any] = {"tags": tags[:MAX_TAGS]}
    if meta["gb_id"]:
        properties["dynamoGraphBreakId"] = meta["gb_id"]
    if meta["torch"]:
        properties["torchVersions"] = meta["torch"]
    help_uri = _page_uri(urls, code) if page else (GB_PAGE.format(meta["gb_id"].lower()) if meta["gb_id"] else None)
    return om.ReportingDescriptor(
        id=code,
        name=meta["name"],
        short_description=om.MultiformatMessageString(text=short_text),
        full_description=om.MultiformatMessageString(text=clip(full)),
        help=om.MultiformatMessageString(text=help_md.strip(), markdown=help_md.strip()),
        help_uri=help_uri,
        default_configuration=om.ReportingConfiguration(level=LEVELS.get(meta["severity"], "warning")),
        properties=properties,
    )


# ---- results -------------------------------------------------------------------------------


class _Lines:
    """Source lines for fingerprints, read once per file (never executed)."""

    def __init__(self) -> None:
        self.cache: dict[str, list[str] | None] = {}

    def get(self, path: str, line: int) -> str:
        if path not in self.cache:
            try:
                from compilelint.source import read

                self.cache[path] = read(path).text.splitlines()
            except Exception:
                self.cache[path] = None
        lines = self.cache[path]
        if not lines or not 0 < line <= len(lines):
            return ""
        return " ".join(lines[line - 1].split())


def relative_uri(path: str, root: str) -> tuple[str, str | None]:
    """(uri, uriBaseId): relative to the project root when inside it, else a file URI."""
    absolute = Path(os.path.abspath(path))
    try:
        rel = absolute.relative_to(Path(root).resolve())
    except ValueError:
        try:
            rel = Path(os.path.realpath(absolute)).relative_to(Path(root).resolve())
        except ValueError:
            return absolute.as_uri(), None
    # surrogateescape: a file name that is not valid UTF-8 keeps its raw bytes, %-encoded
    return quote(rel.as_posix(), safe="/", errors="surrogateescape"), SRCROOT


def fingerprints(findings, root: str, lines: _Lines | None = None) -> list[str]:
    """A stable id per finding: code, path, the normalised text of its line and the
    occurrence index among identical triples. No line number: moving code keeps it."""
    lines = lines or _Lines()
    seen: Counter = Counter()
    out = []
    for f in findings:
        uri, _ = relative_uri(f.path, root)
        text = lines.get(f.path, f.line)
        key = (f.code, uri, text)
        occurrence = seen[key]
        seen[key] += 1
        digest = hashlib.sha256("\0".join((f.code, uri, text, str(occurrence))).encode("utf-8"))
        out.append(digest.hexdigest()[:32])
    return out


def _region(f) -> om.Region:
    line, col = max(1, int(f.line or 1)), max(1, int(f.col or 1))
    end_line, end_col = f.end_line, f.end_col
    if end_line is None or end_line < line:
        end_line = line
        end_col = None
    if end_col is not None and end_line == line and end_col <= col:
        end_col = col + 1
    return om.Region(start_line=line, start_column=col, end_line=end_line,
                     end_column=max(1, int(end_col)) if end_col is not None else None)


def _result(f, rule_index: int, root: str, fingerprint: str) -> om.Result:
    uri, base = relative_uri(f.path, root)
    location = om.Location(
        physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(uri=uri, uri_base_id=base),
            region=_region(f),
        ),
        logical_locations=[om.LogicalLocation(fully_qualified_name=f.scope, kind="function")] if f.scope else None,
    )
    properties: dict[str, Any] = {}
    if f.name:
        properties["name"] = f.name
    if f.scope:
        properties["scope"] = f.scope
    if f.fix:
        properties["fix"] = f.fix
    if f.evidence:
        properties["evidence"] = json.loads(json.dumps(f.evidence, default=str))
        properties["tags"] = [f"probe-{f.evidence.get('status', 'unknown')}"]
    return om.Result(
        rule_id=f.code,
        rule_index=rule_index,
        level=LEVELS.get(f.severity, "warning"),
        message=om.Message(text=clip(f.message)),
        locations=[location],
        partial_fingerprints={FINGERPRINT_KEY: fingerprint},
        properties=properties or None,
    )


def build(findings, *, root: str = ".", files: int = 0, lines: int = 0, torch: str | None = None,
          max_results: int = MAX_RESULTS, **context) -> om.SarifLog:
    findings = list(findings)
    root_path = Path(root).resolve()
    prints = fingerprints(findings, str(root_path))
    order = sorted(range(len(findings)), key=lambda i: (SEVERITY_ORDER.get(findings[i].severity, 3), i))
    kept = sorted(order[:max_results])
    dropped = len(findings) - len(kept)

    codes = sorted({findings[i].code for i in kept})
    examples = {}
    for i in kept:
        examples.setdefault(findings[i].code, findings[i])
    urls = _project_urls()
    rules = [_descriptor(code, examples[code], urls) for code in codes]
    index = {code: n for n, code in enumerate(codes)}
    results = [_result(findings[i], index[findings[i].code], str(root_path), prints[i]) for i in kept]

    notifications = []
    if dropped:
        counts = Counter(findings[i].code for i in order[max_results:])
        detail = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
        notifications.append(om.Notification(
            level="warning",
            message=om.Message(text=(
                f"{dropped} of {len(findings)} results were dropped: GitHub code scanning accepts at most "
                f"{max_results:,} results per run (errors were kept first). Dropped by rule: {detail}. "
                "Narrow the run with --select, or fix or suppress findings, to see the rest.")),
            descriptor=om.ReportingDescriptorReference(id="too-many-results"),
        ))
    probe = context.get("probe")
    if probe:  # `check --probe`: failed targets are notifications, the summaries run properties
        for name in probe.get("failed", []) or []:
            notifications.append(om.Notification(
                level="error",
                message=om.Message(text=f"probe target {name} failed; its findings are not confirmed"),
                descriptor=om.ReportingDescriptorReference(id="probe-target-failed"),
            ))
    crashed = any(f.code == "CL001" for f in findings)
    invocation = om.Invocation(execution_successful=not crashed,
                               tool_execution_notifications=notifications or None)
    run_properties: dict[str, Any] = {"filesChecked": files, "linesChecked": lines}
    if torch:
        run_properties["targetTorch"] = torch
    if dropped:
        run_properties["resultsDropped"] = dropped
    if probe:
        run_properties["probe"] = json.loads(json.dumps(probe, default=str))
    run = om.Run(
        tool=om.Tool(driver=om.ToolComponent(
            name="compilelint",
            version=__version__,
            semantic_version=__version__,
            information_uri=_information_uri(urls),
            rules=rules,
        )),
        invocations=[invocation],
        original_uri_base_ids={SRCROOT: om.ArtifactLocation(uri=root_path.as_uri().rstrip("/") + "/")},
        results=results,
        column_kind="unicodeCodePoints",
        properties=run_properties,
    )
    return om.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])


def render(findings, *, root: str = ".", **context) -> str:
    data = to_json(build(findings, root=root, **context))
    # An empty run still says it ran: `results: []` means "nothing found", not "not run".
    data["runs"][0].setdefault("results", [])
    log = {"$schema": data.pop("$schema"), "version": data.pop("version"), **data}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
