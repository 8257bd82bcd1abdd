"""SARIF 2.1.0, for GitHub code scanning (upload-sarif) and other SARIF viewers.

One run. Rules carry their help from the `rules/CODE.md` pages; results carry URIs
relative to the project root (`%SRCROOT%`), 1-based columns counted in code points,
fingerprints that survive line shifts, and probe evidence in their properties.
GitHub's limits are kept: at most 5,000 results per run (the rest are dropped, and a
tool execution notification says how many), descriptions of at most 1,024 characters,
no `security-severity`.

Built as plain dicts with the schema's camelCase names (`sarif-om`'s classes cost more to
import than the rest of a cached run); rule metadata comes from `compilelint.registry`.
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

from compilelint import __version__, registry

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
MAX_RESULTS = 5000  # GitHub code scanning shows at most this many results per run
MAX_DESCRIPTION = 1024  # GitHub truncates longer rule and result descriptions
MAX_TAGS = 10
FINGERPRINT_KEY = "compilelint/v1"
SRCROOT = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}
SEVERITY_ORDER = {"error": 0, "warning": 1, "note": 2}
# The project's home as the README gives it; `[project.urls]` in the installed metadata wins.
DEFAULT_REPOSITORY = "https://github.com/compilelint/compilelint"
GB_PAGE = "https://meta-pytorch.org/compile-graph-break-site/gb/{}.html"


# ---- serialisation -----------------------------------------------------------------------


def _obj(**fields: Any) -> dict[str, Any]:
    """A SARIF object: unset fields (None, empty strings and containers) left out, as the
    schema wants; a `text` is kept even when empty."""
    return {key: value for key, value in fields.items()
            if value is not None and (key == "text" or not isinstance(value, (str, list, dict)) or value)}


def _text(text: str, **more: Any) -> dict[str, Any]:
    return _obj(text=text, **more)


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
    """`[project.urls]` of the installed compilelint, from its METADATA's header (read
    directly: importlib.metadata costs more to import than a cached run takes)."""
    from compilelint.config import dist_info

    found = dist_info("compilelint")
    urls: dict[str, str] = {}
    if found is None:
        return urls
    home = None
    try:
        with open(os.path.join(found[0], "METADATA"), encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    break  # the header ends at the first blank line
                key, _, value = line.partition(":")
                if key.lower() == "project-url":
                    label, _, url = value.partition(",")
                    if url.strip():
                        urls[label.strip().lower()] = url.strip()
                elif key.lower() == "home-page" and value.strip():
                    home = value.strip()
    except OSError:
        return {}
    if home:
        urls.setdefault("homepage", home)
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


def _descriptor(code: str, example, urls: dict[str, str]) -> dict[str, Any]:
    from compilelint.pages import page_text, sections

    info = registry.get(code) or registry.RuleInfo(code, example.name or code.lower(), example.severity, "",
                                                   origin="unknown")
    help_text = info.help or (example.help or "")
    page = page_text(code)
    parts = sections(page) if page else {}
    flags = parts.get("what it flags", "")
    why = parts.get("why it hurts torch.compile", "")
    template = re.sub(r"\{[^}]*\}", "…", info.message) if info.message else ""
    short = _first_paragraph(flags) or template or info.summary or info.name
    # The first sentence is the short description; the page's opening sections the full one.
    sentence = re.match(r"(.+?\.)(\s|$)", short)
    short_text = clip(sentence.group(1) if sentence and len(sentence.group(1)) > 20 else short)
    full = "\n\n".join(_flatten(p) for p in (flags, why) if p) or short
    if page:
        help_md = page
    else:
        help_md = "\n\n".join(p for p in (f"# {code} {info.name}", short, help_text and f"Use instead: {help_text}") if p)
    tags = ["torch.compile", info.family]
    if info.gb_id:
        tags.append(info.gb_id.lower())
    properties: dict[str, Any] = {"tags": tags[:MAX_TAGS]}
    if info.gb_id:
        properties["dynamoGraphBreakId"] = info.gb_id
    if info.origin == "rule":
        properties["torchVersions"] = info.torch_range()
    help_uri = _page_uri(urls, code) if page else (GB_PAGE.format(info.gb_id.lower()) if info.gb_id else None)
    return _obj(
        id=code,
        name=info.name,
        shortDescription=_text(short_text),
        fullDescription=_text(clip(full)),
        help=_text(help_md.strip(), markdown=help_md.strip()),
        helpUri=help_uri,
        defaultConfiguration={"level": LEVELS.get(info.severity, "warning")},
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


def relative_uri(path: str, root: str, memo: dict | None = None) -> tuple[str, str | None]:
    """(uri, uriBaseId): relative to the project root when inside it, else a file URI.
    `memo` (path -> answer, for one root) spares the realpath calls of a run whose
    findings share files: on transformers they were a fifth of a SARIF report's cost."""
    if memo is not None:
        known = memo.get(path)
        if known is None:
            known = memo[path] = relative_uri(path, root)
        return known
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


def fingerprints(findings, root: str, lines: _Lines | None = None, uris: dict | None = None) -> list[str]:
    """A stable id per finding: code, path, the normalised text of its line and the
    occurrence index among identical triples. No line number: moving code keeps it."""
    lines = lines or _Lines()
    uris = {} if uris is None else uris
    seen: Counter = Counter()
    out = []
    for f in findings:
        uri, _ = relative_uri(f.path, root, uris)
        text = lines.get(f.path, f.line)
        key = (f.code, uri, text)
        occurrence = seen[key]
        seen[key] += 1
        digest = hashlib.sha256("\0".join((f.code, uri, text, str(occurrence))).encode("utf-8"))
        out.append(digest.hexdigest()[:32])
    return out


def _region(f) -> dict[str, Any]:
    line, col = max(1, int(f.line or 1)), max(1, int(f.col or 1))
    end_line, end_col = f.end_line, f.end_col
    if end_line is None or end_line < line:
        end_line = line
        end_col = None
    if end_col is not None and end_line == line and end_col <= col:
        end_col = col + 1
    return _obj(startLine=line, startColumn=col, endLine=end_line,
                endColumn=max(1, int(end_col)) if end_col is not None else None)


def _result(f, rule_index: int, root: str, fingerprint: str, uris: dict) -> dict[str, Any]:
    uri, base = relative_uri(f.path, root, uris)
    location = _obj(
        physicalLocation={"artifactLocation": _obj(uri=uri, uriBaseId=base), "region": _region(f)},
        logicalLocations=[{"fullyQualifiedName": f.scope, "kind": "function"}] if f.scope else None,
    )
    properties: dict[str, Any] = {}
    if f.name:
        properties["name"] = f.name
    if f.scope:
        properties["scope"] = f.scope
    if f.when:
        properties["when"] = list(f.when)
    if f.help:
        properties["help"] = f.help
    if f.evidence:
        properties["evidence"] = json.loads(json.dumps(f.evidence, default=str))
        properties["tags"] = [f"probe-{f.evidence.get('status', 'unknown')}"]
    return _obj(
        ruleId=f.code,
        ruleIndex=rule_index,
        level=LEVELS.get(f.severity, "warning"),
        message=_text(clip(f.message)),
        locations=[location],
        partialFingerprints={FINGERPRINT_KEY: fingerprint},
        properties=properties,
    )


def build(findings, *, root: str = ".", files: int = 0, lines: int = 0, torch: str | None = None,
          torch_notice: str | None = None, max_results: int = MAX_RESULTS, **context) -> dict[str, Any]:
    findings = list(findings)
    root_path = Path(root).resolve()
    uris: dict = {}
    prints = fingerprints(findings, str(root_path), uris=uris)
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
    results = [_result(findings[i], index[findings[i].code], str(root_path), prints[i], uris) for i in kept]

    notifications = []
    if dropped:
        counts = Counter(findings[i].code for i in order[max_results:])
        detail = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
        notifications.append(_notification("warning", "too-many-results", (
            f"{dropped} of {len(findings)} results were dropped: GitHub code scanning accepts at most "
            f"{max_results:,} results per run (errors were kept first). Dropped by rule: {detail}. "
            "Narrow the run with --select, or fix or suppress findings, to see the rest.")))
    if torch_notice:
        notifications.append(_notification("note", "target-torch", torch_notice))
    probe = context.get("probe")
    if probe:  # `check --probe`: failed targets are notifications, the summaries run properties
        for name in probe.get("failed", []) or []:
            notifications.append(_notification("error", "probe-target-failed",
                                               f"probe target {name} failed; its findings are not confirmed"))
    crashed = any(f.code == "CL001" for f in findings)
    invocation = _obj(executionSuccessful=not crashed, toolExecutionNotifications=notifications)
    run_properties: dict[str, Any] = {"filesChecked": files, "linesChecked": lines}
    if torch:
        run_properties["targetTorch"] = torch
    if torch_notice:
        run_properties["targetTorchNotice"] = torch_notice
    if dropped:
        run_properties["resultsDropped"] = dropped
    if probe:
        run_properties["probe"] = json.loads(json.dumps(probe, default=str))
    run = {
        "tool": {"driver": _obj(
            name="compilelint",
            version=__version__,
            semanticVersion=__version__,
            informationUri=_information_uri(urls),
            rules=rules,
        )},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": root_path.as_uri().rstrip("/") + "/"}},
        # An empty run still says it ran: `results: []` means "nothing found", not "not run".
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": run_properties,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _notification(level: str, descriptor: str, text: str) -> dict[str, Any]:
    return {"level": level, "message": {"text": text}, "descriptor": {"id": descriptor}}


def render(findings, *, root: str = ".", **context) -> str:
    return json.dumps(build(findings, root=root, **context), indent=2, ensure_ascii=False) + "\n"
