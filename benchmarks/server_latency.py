#!/usr/bin/env python3
"""How long the language server takes from an edit to the diagnostics of the edited file.

    bash benchmarks/setup_speed.sh                       # once: the corpora in .bench/
    python benchmarks/server_latency.py                  # the subset, models/gpt2/modeling_gpt2.py
    python benchmarks/server_latency.py --corpus full --file models/nystromformer/modeling_nystromformer.py

The corpus is copied to a scratch project (its own pyproject.toml) and checked once from
the command line, so the server's indexing reads a warm cache, as in a project one works
on. Then `compilelint server` runs as a subprocess, spoken to over its pipes by pygls's
client, as an editor would: open the file, wait for the project to be indexed, then
--edits incremental edits, each waiting for the diagnostics of that document version:

- comment: a comment typed at the end of a line in the middle of the file (the file's
  summary is unchanged: the project index stays);
- call: a `print()` added to a `forward` (a new finding; the summary changes);
- undo: that line removed again.

Also, in this process, what one whole analysis of the file costs (`engine.analyze_path`),
what the server's incremental analysis costs for each kind of edit (`incremental.FileModel`:
only the top-level statements an edit touched are parsed and walked again), and what
choosing the findings over the project costs (`engine.select_findings`). Prints markdown
tables.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPORA = {"subset": REPO / ".bench" / "subset", "full": REPO / ".bench" / "transformers"}


def prepare(corpus: Path) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="compilelint-latency-"))
    shutil.copytree(corpus, scratch / "project", ignore=shutil.ignore_patterns("__pycache__"))
    root = scratch / "project"
    (root / "pyproject.toml").write_text("[tool.compilelint]\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "compilelint", "check", "--exit-zero", "--format", "concise", "."],
                   cwd=root, stdout=subprocess.DEVNULL, check=True, env=dict(os.environ, COMPILELINT_NO_DAEMON="1"))
    return root


async def measure(root: Path, name: str, edits: int) -> dict[str, list[float]]:
    from lsprotocol import types as lsp
    from pygls.lsp.client import BaseLanguageClient
    from pygls.uris import from_fs_path

    client = BaseLanguageClient("latency", "1")
    published: dict[int, float] = {}
    indexed = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params):
        if params.version is not None:
            published.setdefault(params.version, time.perf_counter())

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def logged(params):
        if "indexed" in params.message:
            indexed.set()

    await client.start_io(sys.executable, "-m", "compilelint", "server", cwd=str(root))
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(root)), name="project")]))
    client.initialized(lsp.InitializedParams())
    text = (root / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    uri = from_fs_path(str(root / name))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=text)))
    await asyncio.wait_for(indexed.wait(), 600)
    version = 1

    async def edit(line: int, col: int, end: tuple[int, int] | None, new_text: str) -> float:
        nonlocal version
        version += 1
        stop = end or (line, col)
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=col),
                                end=lsp.Position(line=stop[0], character=stop[1])), text=new_text)]))
        while version not in published:
            await asyncio.sleep(0.001)
        return published[version] - sent

    middle, forward, indent = places(lines)
    times: dict[str, list[float]] = {"comment": [], "call": [], "undo": []}
    for i in range(edits):
        times["comment"].append(await edit(middle, len(lines[middle]), None, f"  # edit {i}"))
        # (the comment stays: later edits work on the text as it now is)
        lines[middle] += f"  # edit {i}"
        times["call"].append(await edit(forward + 1, 0, None, f"{indent}print('edit {i}')\n"))
        times["undo"].append(await edit(forward + 1, 0, (forward + 2, 0), ""))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def in_process(root: Path, name: str, repeat: int) -> dict[str, float]:
    """The server's two steps on an edit, timed here: analyse the file, choose the findings."""
    os.chdir(root)
    from compilelint import config, engine, parallel
    from compilelint.discovery import discover

    settings = config.load()
    rules = engine.rules_for(settings)
    files = [c.path for c in discover(["."], settings) if not c.error]
    analyses = {a.path: a for a, _ in parallel.make_analyzer()(files, settings)}
    data = (root / name).read_bytes()
    table = engine.rule_table(settings)
    best = {"analyse the file whole": float("inf"), "choose findings over the project": float("inf")}
    for _ in range(repeat):
        start = time.perf_counter()
        analysis, _ = engine.analyze_path(name, settings, rules, data=data)
        middle = time.perf_counter()
        analyses[name] = analysis
        engine.select_findings(analyses.values(), settings, table)
        end = time.perf_counter()
        best["analyse the file whole"] = min(best["analyse the file whole"], middle - start)
        best["choose findings over the project"] = min(best["choose findings over the project"], end - middle)
    try:
        from compilelint.incremental import FileModel
    except ImportError:  # (a revision from before it)
        return best
    model = FileModel(name, engine.module_name(name), rules, settings)
    text = data.decode("utf-8")
    model.analyze(text)
    for kind, edited in edits_of(text, repeat):
        start = time.perf_counter()
        model.analyze(edited)
        step = f"analyse it again after a {kind} edit (incremental)"
        best[step] = min(best.get(step, float("inf")), time.perf_counter() - start)
    return best


def edits_of(text: str, rounds: int):
    """(kind, text) for `rounds` rounds of the edits `measure` makes through the server."""
    lines = text.splitlines(keepends=True)
    middle, forward, indent = places(lines)
    for i in range(rounds):
        lines[middle] = lines[middle].rstrip("\n") + f"  # edit {i}\n"
        yield "comment", "".join(lines)
        yield "call", "".join(lines[:forward + 1] + [f"{indent}print('edit {i}')\n"] + lines[forward + 1:])
        yield "undo", "".join(lines)


def places(lines: list[str]) -> tuple[int, int, str]:
    """The middle line, the last line of the first `def forward(` signature, and the
    indentation of its body."""
    middle = len(lines) // 2
    forward = next(i for i, line in enumerate(lines) if re.match(r"\s+def forward\(", line))
    while not lines[forward].split("#")[0].rstrip().endswith(":"):  # to the end of the signature
        forward += 1
    indent = " " * (len(lines[forward + 1]) - len(lines[forward + 1].lstrip()))
    return middle, forward, indent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="subset")
    parser.add_argument("--file", default="models/gpt2/modeling_gpt2.py", help="relative to the corpus")
    parser.add_argument("--edits", type=int, default=10, help="rounds of (comment, call, undo) edits")
    args = parser.parse_args()
    corpus = CORPORA[args.corpus]
    if not (corpus / args.file).is_file():
        sys.exit(f"{corpus / args.file} is missing: run `bash benchmarks/setup_speed.sh` first")
    root = prepare(corpus)
    try:
        load_before = os.getloadavg()[0]
        times = asyncio.run(measure(root, args.file, args.edits))
        load_after = os.getloadavg()[0]
        parts = in_process(root, args.file, 5)
    finally:
        os.chdir(REPO)
        shutil.rmtree(root.parent, ignore_errors=True)
    lines = (corpus / args.file).read_text(encoding="utf-8").count("\n")
    files = sum(1 for _ in corpus.rglob("*.py"))
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    print(f"Edit -> diagnostics in `compilelint server` (git {head}); {args.file}, {lines:,} lines, in a "
          f"project of {files} files ({args.corpus}); Python {platform.python_version()}, "
          f"{os.cpu_count()} cores; load average (1 min) {load_before:.1f} before, {load_after:.1f} after.\n")
    print("| edit | runs | median (ms) | min (ms) | max (ms) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"| {kind} | {len(ms)} | {statistics.median(ms):.0f} | {min(ms):.0f} | {max(ms):.0f} |")
    print("\nIn process, best of 5:\n")
    print("| step | ms |")
    print("| --- | ---: |")
    for step, seconds in parts.items():
        print(f"| {step} | {seconds * 1000:.0f} |")


if __name__ == "__main__":
    main()
