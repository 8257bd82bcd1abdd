#!/usr/bin/env bash
# The transformers sweep (issue 19) on a new machine: set it up once from what the repository
# keeps, then classify a linter against stop 26's captures (594 model types, eval/train/padded,
# taken on the GPU host: torch 2.11.0, Python 3.12; docs/calibration.md).
#
#   bash benchmarks/transformers_sweep/run.sh setup            # ~5 min: wheels, source, captures
#   bash benchmarks/transformers_sweep/run.sh LINTER_SRC TAG   # ~12 min on 2 cores
#
# Writes $SWEEP/out/env-TAG.txt and linter-TAG.sha1 (what the numbers depend on),
# check-TAG.json (the classify's compilelint check of the source, target-torch 2.11),
# classify-TAG.{json,txt} (recall, precision on executed lines) and density-TAG.json
# (error/warning findings per 1,000 lines of one-graph modeling files).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=${SWEEP:-/work/tfsweep}
KEY=transformers-5.17.0-torch2.13.0_cpu-py3.11

if [ "${1:-}" = setup ]; then
    mkdir -p "$SWEEP"/{wheels,site,src,out,cache/captures/$KEY/models,raw}
    cd "$SWEEP"
    pip download -q --no-deps transformers==5.17.0 huggingface-hub==1.33.0 -d wheels
    # never torch: the static pass needs none, the classify uses the installed one
    pip install -q --no-deps --target site wheels/*.whl 'tokenizers>=0.23.1,<0.24' \
        'safetensors>=0.8.0' typer httpx httpcore h11 anyio hf-xet shellingham annotated-doc 'click>=8.4.2'
    (cd src && unzip -qo ../wheels/transformers-5.17.0-py3-none-any.whl 'transformers/*')
    printf '[tool.compilelint]\ntarget-torch = "2.11"\n' > src/pyproject.toml
    tar xJf "$REPO/benchmarks/calibration/transformers-stop26/captures.tar.xz" -C raw
    S=raw/captures/transformers-5.17.0-torch2.11.0-py3.12
    D=cache/captures/$KEY
    cp $S/plan.json $S/zygotes.log $D/
    # the classify remaps only the local install's paths: rewrite the device's to it
    for f in $S/models/*.json; do
        sed "s#/opt/torch/.venv/lib/python3.12/site-packages/transformers/#$SWEEP/site/transformers/#g" \
            "$f" > $D/models/$(basename "$f")
    done
    echo "set up in $SWEEP: $(ls $D/models | wc -l) model captures"
    exit 0
fi

LINTER=$(cd "${1:?linter src folder, or setup}" && pwd); TAG=${2:?tag}
# the pass reads installed packages' classes: keep the environment beside the numbers
pip freeze > "$SWEEP/out/env-$TAG.txt" 2>/dev/null
(cd "$LINTER" && find . -name '*.py' | sort | xargs sha1sum | sha1sum) > "$SWEEP/out/linter-$TAG.sha1"
cd "$REPO"
PYTHONPATH=$SWEEP/site python benchmarks/calibrate.py --classify-only --limit 1000 \
    --source "$SWEEP/src/transformers" --cache "$SWEEP/cache" --linter-src "$LINTER" -j 2 --show 80 \
    --out "$SWEEP/out/classify-$TAG.json" --static-out "$SWEEP/out/check-$TAG.json" > "$SWEEP/out/classify-$TAG.txt"
python3 benchmarks/calibration/transformers-stop23/scripts/density.py \
    "$SWEEP"/cache/captures/*/models "$SWEEP/src/transformers" "$SWEEP/out/check-$TAG.json" \
    "$SWEEP/site/transformers" "$SWEEP/out/density-$TAG.json"
grep -iE "recall|precision" "$SWEEP/out/classify-$TAG.txt" | head -6
