#!/bin/bash
# compilelint tfsweep: capture every transformers model type with benchmarks/calibrate.py (resumable).
# usage: bash .devcarry/tfsweep/run.sh TAG PY_TIMEOUT BUDGET JOBS  -> $OUT/captures-TAG.tar.xz, $OUT/log-TAG.txt
TAG=${1:-1}; PYT=${2:-540}; BUDGET=${3:-430}; JOBS=${4:-15}
export PYTHONUNBUFFERED=1 CUDA_VISIBLE_DEVICES=""   # the captures run on CPU (request device "cpu"); no CUDA in forked children
C=$PWD/.devcarry/tfsweep
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=$OUT/log-$TAG.txt
command -v git >/dev/null || { mkdir -p /tmp/gs; printf '#!/bin/sh\nexit 1\n' >/tmp/gs/git; chmod +x /tmp/gs/git; export PATH=/tmp/gs:$PATH; echo "git: stub" >>"$L"; }
{
date -u; echo "repo: $PWD"; nproc; free -g | head -2
if [ -f "$C/part.tar.xz" ]; then tar -xJf "$C/part.tar.xz" -C "$C" && echo "resumed: $(ls $C/captures/*/models | wc -l) cached model files"; fi
python3 - <<'PY'
import sys, os, hashlib, torch, transformers, huggingface_hub, tokenizers, safetensors
print("python", sys.version.split()[0], "| torch", torch.__version__, "| transformers", transformers.__version__,
      "| hf_hub", huggingface_hub.__version__, "| tokenizers", tokenizers.__version__, "| safetensors", safetensors.__version__)
d = os.path.dirname(transformers.__file__); print("transformers dir", d)
h = hashlib.md5()
for root, dirs, files in sorted(os.walk(d)):
    dirs.sort()
    for f in sorted(files):
        if f.endswith(".py"):
            p = os.path.join(root, f); h.update(os.path.relpath(p, d).encode()); h.update(open(p, "rb").read())
print("transformers .py md5", h.hexdigest())
for m in ("libcst", "timm", "torchvision", "PIL"):
    try:
        __import__(m); print(m, "present")
    except Exception as e:
        print(m, "absent:", type(e).__name__)
PY
} >>"$L" 2>&1
cat "$L"
timeout -k 10 -s TERM "$PYT" python3 benchmarks/calibrate.py --capture-only --limit 1000 --jobs "$JOBS" \
    --timeout 120 --budget "$BUDGET" --cache "$C" >>"$L" 2>&1 &
CAL=$!
# watchdog: if the first finished models all failed to capture (a probe / torch incompatibility), stop early
( sleep 100; python3 - "$C" <<'PY' || { echo "WATCHDOG: no capture ran ok: stopping" >>"$L"; kill $CAL; pkill -P $CAL; }
import glob, json, sys
fs = glob.glob(sys.argv[1] + "/captures/*/models/*.json")
ok = sum(1 for f in fs for s in json.load(open(f))["settings"].values() if s["result"] and s["result"].get("status") == "ok")
print(f"watchdog: {len(fs)} model files, {ok} ok runs", file=sys.stderr)
sys.exit(0 if ok or len(fs) < 6 else 1)
PY
) >>"$L" 2>&1 &
wait $CAL; echo "calibrate exit: $? at $(date -u)" >>"$L"
sleep 3
tar -C "$C" -cJf "$OUT/captures-$TAG.tar.xz" --exclude='*.tmp*' captures >>"$L" 2>&1
echo "model files: $(ls $C/captures/*/models | wc -l)" >>"$L"
ls -la "$OUT" >>"$L"
tail -40 "$L"
