#!/usr/bin/env bash
# Issue 20 on the GPU host: each program plainly, then under `compilelint probe -- ...`
# (capture only, then with timing), its stdout and weights checksum compared.
#
#   bash benchmarks/run_programs/run_all.sh [OUT_DIR]      # from the repository root
#
# Writes OUT_DIR/<name>.{plain,probe,timed}.{out,txt,json} and prints each report.
set -u
TIMEFORMAT="%R s wall"
OUT=${1:-.bench/run_programs}
mkdir -p "$OUT"
HERE=benchmarks/run_programs
python - <<'PY'
import platform, torch
print(f"python {platform.python_version()}, torch {torch.__version__}, "
      f"cuda {torch.version.cuda}, {torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'no GPU'}")
try:
    import transformers; print("transformers", transformers.__version__)
except ImportError:
    print("no transformers")
PY
run() {  # name, --module root, program args...
  local name=$1 root=$2; shift 2
  echo "== $name: plain"
  time python "$@" --out "$OUT/$name.plain.txt" > "$OUT/$name.plain.out"
  echo "== $name: probe --no-timing"
  time compilelint probe --no-timing --module "$root" --format json -o "$OUT/$name.probe.json" \
    -- python "$@" --out "$OUT/$name.probe.txt" > "$OUT/$name.probe.out"
  echo "== $name: probe (timing)"
  time compilelint probe --module "$root" -o "$OUT/$name.timed.report" \
    -- python "$@" --out "$OUT/$name.timed.txt" > "$OUT/$name.timed.out"
  cat "$OUT/$name.timed.report"
  for kind in probe timed; do
    if cmp -s "$OUT/$name.plain.out" "$OUT/$name.$kind.out" && cmp -s "$OUT/$name.plain.txt" "$OUT/$name.$kind.txt"; then
      echo "$name ($kind): stdout and weights checksum identical to the plain run"
    else
      echo "$name ($kind): DIFFERS from the plain run:"; diff "$OUT/$name.plain.out" "$OUT/$name.$kind.out"
    fi
  done
}
run llama transformers.models.llama.modeling_llama:LlamaForCausalLM $HERE/train_transformer.py --model llama --steps 6
run gpt2 transformers.models.gpt2.modeling_gpt2:GPT2LMHeadModel $HERE/train_transformer.py --model gpt2 --steps 6
run detector detector:Detector $HERE/detection_step.py --steps 6
