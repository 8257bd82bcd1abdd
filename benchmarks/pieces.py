#!/usr/bin/env python3
"""What each piece of the static analysis costs, on one core, and what the rules pay.

    bash benchmarks/setup_speed.sh                 # once: the corpora in .bench/
    python benchmarks/pieces.py                    # the 14.5k-line subset
    python benchmarks/pieces.py --corpus full      # transformers 5.4.0 (a few minutes)

Every file of the corpus is read once, then each row runs over all of them in this one
process (libcst imported beforehand, so no row pays the import), best of --repeat:

- parse: ``libcst.parse_module`` alone;
- + libcst's walk: ``tree.visit`` with an empty ``CSTVisitor`` (libcst rebuilds and
  validates every node it passes, for transformers' sake);
- + ScopeProvider + PositionProvider: ``MetadataWrapper(tree).resolve`` of both, what a
  linter built the usual libcst way computes before its rules run;
- + compilelint's walk: ``traverse.walk`` with an empty visitor, layout nodes skipped;
- + positions of the findings only: ``traverse.positions`` for the nodes compilelint
  reports on that file (vs PositionProvider for every node);
- compilelint's analysis: ``analysis.analyze``, every rule (parse, walk, rules,
  positions, summary) — what a cache miss costs.

Prints a markdown table (lines/s and seconds per row) for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPORA = {"subset": REPO / ".bench" / "subset", "full": REPO / ".bench" / "transformers"}


def load(folder: Path, limit: int | None) -> list[tuple[str, str]]:
    files = []
    for path in sorted(folder.rglob("*.py")):
        try:
            files.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return files[:limit] if limit else files


def best(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="subset")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, help="only the first N files (sorted by path)")
    parser.add_argument("--folder", type=Path, help="any folder of Python files instead of a corpus")
    args = parser.parse_args()
    folder = args.folder or CORPORA[args.corpus]
    if not folder.is_dir():
        sys.exit(f"no folder {folder}" if args.folder else "run `bash benchmarks/setup_speed.sh` first")

    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

    from compilelint import config, traverse
    from compilelint.analysis import analyze, walk_tree
    from compilelint.cache import _libcst_version
    from compilelint.engine import module_name, rules_for

    settings = config.Settings()
    rules = rules_for(settings)
    files = load(folder, args.limit)
    lines = sum(text.count("\n") for _, text in files)
    trees: list = []

    def parse() -> None:
        trees[:] = []
        for path, text in files:
            try:
                trees.append((path, cst.parse_module(text)))
            except cst.ParserSyntaxError:
                pass

    class Empty:
        def on_visit(self, node) -> bool:
            return True

        def on_leave(self, node) -> None:
            pass

    def libcst_walk() -> None:
        for _, tree in trees:
            tree.visit(cst.CSTVisitor())

    def metadata() -> None:
        for _, tree in trees:
            wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
            wrapper.resolve(ScopeProvider)
            wrapper.resolve(PositionProvider)

    def our_walk() -> None:
        skip = traverse.skippable(())
        for _, tree in trees:
            traverse.walk(tree, Empty(), skip)

    parse_s = best(parse, args.repeat)  # the trees of its last run serve every row below
    # the nodes compilelint reports, per tree, to time positions for just those
    reported: list[list] = []
    for path, tree in trees:
        reported.append(walk_tree(tree, path, module_name(path), rules, settings).reported_nodes())

    def our_positions() -> None:
        for (_, tree), nodes in zip(trees, reported):
            if nodes:
                found = traverse.positions(tree, nodes)
                assert len(found) >= len(set(map(id, nodes))), "positions of nodes not in the tree"

    def all_positions() -> None:
        for _, tree in trees:
            MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)

    def analysis() -> None:
        for path, text in files:
            try:
                analyze(path, text, module_name(path), rules, settings)
            except cst.ParserSyntaxError:
                pass

    rows = [
        ("parse (libcst.parse_module)", parse_s, parse_s),
        ("libcst's walk (tree.visit, empty visitor)", best(libcst_walk, args.repeat), None),
        ("ScopeProvider + PositionProvider (MetadataWrapper.resolve)", best(metadata, args.repeat), None),
        ("PositionProvider alone, every node", best(all_positions, args.repeat), None),
        ("compilelint's walk (traverse.walk, empty visitor, layout skipped)", best(our_walk, args.repeat), None),
        ("compilelint's positions, reported nodes only", best(our_positions, args.repeat), None),
        ("compilelint's whole analysis (parse, walk, every rule, positions)", None, best(analysis, args.repeat)),
    ]
    print(f"Corpus: {args.folder or args.corpus}, {len(files):,} files, {lines:,} lines; one process; best of "
          f"{args.repeat}. Python {platform.python_version()}, libcst "
          f"{_libcst_version()}, "
          f"{os.cpu_count()} cores.\n")
    print("| piece | s (that piece) | lines/s with the parse | × the parse's time |")
    print("| --- | ---: | ---: | ---: |")
    for label, piece, whole in rows:
        total = whole if whole is not None else parse_s + piece
        own = piece if piece is not None else whole
        print(f"| {label} | {own:.2f} | {lines / total:,.0f} | {total / parse_s:.2f} |")


if __name__ == "__main__":
    main()
