#!/usr/bin/env bash
# Set up what benchmarks/speed.py measures, under .bench/ (git-ignored):
#   .bench/transformers/        transformers 5.4.0 source (pip download of the sdist/wheel)
#   .bench/subset/              the 14.5k-line subset (models bert gpt2 llama t5 bart whisper vit)
#   .bench/venv-torchfix/       TorchFix 0.7.0 (pins an old libcst, so its own venv)
#   .bench/venv-peers/          Fixit 2.2.1, flake8, ruff
# Idempotent: re-running skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=.bench
PY=${PYTHON:-python3}
mkdir -p "$BENCH"
if [ ! -d "$BENCH/transformers" ]; then
    rm -rf "$BENCH/dl" && mkdir -p "$BENCH/dl"
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: transformers==5.4.0 -d "$BENCH/dl"
    "$PY" - "$BENCH" <<'PY'
import glob, sys, zipfile, os
bench = sys.argv[1]
wheel = glob.glob(os.path.join(bench, "dl", "transformers-5.4.0-*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    members = [m for m in z.namelist() if m.startswith("transformers/")]
    z.extractall(os.path.join(bench, "tmp"), members)
os.rename(os.path.join(bench, "tmp", "transformers"), os.path.join(bench, "transformers"))
os.rmdir(os.path.join(bench, "tmp"))
PY
fi
if [ ! -d "$BENCH/subset" ]; then
    mkdir -p "$BENCH/subset/models"
    for m in bert gpt2 llama t5 bart whisper vit; do
        cp -r "$BENCH/transformers/models/$m" "$BENCH/subset/models/$m"
    done
    find "$BENCH/subset" -name '__pycache__' -prune -exec rm -rf {} +
fi
# .bench/ is the project root for the runs (the repository's .gitignore ignores .bench/)
[ -f "$BENCH/pyproject.toml" ] || printf '[tool.compilelint]\n' > "$BENCH/pyproject.toml"
if [ ! -x "$BENCH/venv-torchfix/bin/torchfix" ]; then
    "$PY" -m venv "$BENCH/venv-torchfix"
    "$BENCH/venv-torchfix/bin/pip" install --quiet torchfix==0.7.0
fi
if [ ! -x "$BENCH/venv-peers/bin/ruff" ]; then
    "$PY" -m venv "$BENCH/venv-peers"
    "$BENCH/venv-peers/bin/pip" install --quiet fixit==2.2.1 flake8 ruff
fi
echo "bench setup done: $(find "$BENCH/transformers" -name '*.py' | wc -l) files in transformers"
