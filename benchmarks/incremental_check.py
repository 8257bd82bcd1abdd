#!/usr/bin/env python3
"""The server's incremental analysis against a whole analysis, on real files, edit after edit.

    bash benchmarks/setup_speed.sh                          # once: the corpora in .bench/
    python benchmarks/incremental_check.py --files 10 --edits 10 --seed 0

For each of --files modeling files of the transformers corpus (shuffled by --seed), a
`FileModel` analyses the file, then --edits random edits in a row (lines typed, removed,
joined with a comment, `x` renamed to `y`); after each edit that parses, its analysis
must equal `analysis.analyze`'s. Prints how many edits were compared, how many differed
(each difference listed), how many groups were walked, and the median times of both.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TYPED = ["        print('x')\n", "# a comment\n", "\n", "        y = x.item()\n", "    # indented comment\n",
         "x = 1\n", "import os\n", "        if x.sum() > 0:\n            return x\n",
         "        for i in range(3):\n            print(i)\n", "logger.info('a')\n"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    corpus = REPO / ".bench" / "transformers"
    if not corpus.is_dir():
        sys.exit(f"{corpus} is missing: run `bash benchmarks/setup_speed.sh` first")
    os.chdir(corpus)
    import libcst as cst

    from compilelint import config, engine
    from compilelint.analysis import analyze
    from compilelint.incremental import FileModel

    settings = config.Settings()
    rules = engine.rules_for(settings)
    rng = random.Random(args.seed)
    files = sorted(str(p) for p in Path("models").glob("*/modeling_*.py"))
    rng.shuffle(files)
    compared, differed, whole, incremental, walked = 0, [], [], [], []
    for name in files[:args.files]:
        text = Path(name).read_text(encoding="utf-8")
        module = engine.module_name(name)
        model = FileModel(name, module, rules, settings)
        model.analyze(text)
        for _ in range(args.edits):
            lines = text.splitlines(keepends=True)
            k = rng.randrange(len(lines))
            roll = rng.random()
            if roll < 0.5:
                lines.insert(k, rng.choice(TYPED))
            elif roll < 0.65:
                del lines[k]
            elif roll < 0.8:
                lines[k] = lines[k].rstrip("\n") + "  # edit\n"
            else:
                lines[k] = lines[k].replace("x", "y", 1)
            edited = "".join(lines)
            start = time.perf_counter()
            try:
                expected = analyze(name, edited, module, rules, settings)
            except cst.ParserSyntaxError:
                continue
            whole.append(time.perf_counter() - start)
            start = time.perf_counter()
            got = model.analyze(edited)
            incremental.append(time.perf_counter() - start)
            walked.append(model.walked)
            compared += 1
            if got != expected:
                differed.append(f"{name}: edit at line {k + 1}")
            text = edited
    print(f"{compared} edits compared on {args.files} files (seed {args.seed}): {len(differed)} differed")
    for line in differed:
        print(f"  {line}")
    if compared:
        print(f"median per edit: whole analysis {statistics.median(whole) * 1000:.0f} ms, incremental "
              f"{statistics.median(incremental) * 1000:.0f} ms; groups walked: median {statistics.median(walked):.0f}, "
              f"max {max(walked)}")


if __name__ == "__main__":
    main()
