"""Everyday Python idioms on tensors and arrays, run under Dynamo and through the linter.

    python benchmarks/idiom_probe.py            # the table: what Dynamo does, what the linter says
    python benchmarks/idiom_probe.py --json out.json

Each idiom is the body of a module's `forward(self, x)` (x: a 4x3 float tensor). Dynamo's side
counts graphs with a backend as well as `counters["graph_break"]`: a frame Dynamo gives up on
(an f-string of a tensor whose text is then used) makes no graph and logs no break. The
linter's side is `compilelint check` of the generated file. A row is a MISS when Dynamo breaks
(or makes no graph) and the linter is silent, a FALSE ALARM when Dynamo makes one graph and the
linter reports. Not calibration data for any library: a knowledge sweep (RESULTS §64).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

IDIOMS = {
    "max_builtin": "m = max(x[0])\n        return x * m",
    "sum_builtin": "s = sum(x[0])\n        return x * s",
    "sorted_tensor": "s = sorted(x[0])\n        return x * s[0]",
    "sorted_key": "order = sorted(range(x.shape[0]), key=lambda i: x[i].sum())\n        return x[order]",
    "max_key": "best = max(range(x.shape[0]), key=lambda i: x[i].sum())\n        return x[best]",
    "contains": "return x * 2 if 3.0 in x else x",
    "operator_index": "import operator\n        return x[: operator.index(x.argmax())]",
    "map_int_tensor": "sizes = list(map(int, x.sum(0).long()))\n        return x * sizes[0]",
    "map_float_tensor": "vals = tuple(map(float, x[0]))\n        return x * vals[0]",
    "map_int_numpy": "import numpy as np\n        starts = list(map(int, np.cumsum([0, 2, 3])))\n        return x[starts[1]:]",
    "comp_int_numpy": "import numpy as np\n        ends = [int(e) for e in np.cumsum([1, 2])]\n        return x[: ends[0]]",
    "map_int_shape": "dims = list(map(int, x.shape))\n        return x.view(dims[0], -1)",
    "version_int": "major = int(torch.__version__.split('.')[0])\n        return x * major",
    "round_item": "return x * round(x.sum().item())",
    "set_of_tolist": "s = set(x[0].tolist())\n        return x * len(s)",
    "fstring_used": "s = f'{x.sum():.2f}'\n        return x + len(s)",
    "fstring_shape": "s = f'{x.shape}'\n        return x + len(s)",
    "bincount": "return torch.bincount(x.long().flatten().clamp(0, 3)).float().sum() + x",
    "masked_select": "return torch.masked_select(x, x > 0).sum() + x",
    "nonzero_tuple": "i, j = x.gt(0).nonzero(as_tuple=True)\n        return x[i, j].sum() + x",
    "repeat_interleave_t": "return torch.repeat_interleave(x, (x[:, 0] > 0).long() + 1, dim=0).sum() + x",
    "histc": "return torch.histc(x, bins=4).sum() + x",
    "enumerate_tensor": "acc = 0\n        for i, v in enumerate(x[0]):\n            acc = acc + v * i\n        return x * acc",
    "tuple_tensor": "a, b, c = tuple(x[0])\n        return x * a",
    "torch_tensor_item": "return x * torch.tensor(x.sum().item())",
    "np_array_of_tensor": "import numpy as np\n        return x * float(np.array(x[0]).sum())",
    "bisect": "import bisect\n        return x * bisect.bisect([0.0, 1.0], x[0, 0])",
    "pow_builtin": "return pow(x, 2)",
    "clamp_tensor_bounds": "return x.clamp(min=x.min(), max=x.max())",
    "any_generator_shape": "return x * 2 if any(s > 2 for s in x.shape) else x",
    "cartesian_row_index": ("n = x.shape[-1]\n        idx = torch.cartesian_prod(torch.arange(n), torch.arange(n))\n"
                            "        row = idx[1]\n        return x[:, row[0]]"),
}


def write_cases(folder: str) -> str:
    lines = ["import torch", "from torch import nn", ""]
    for name, body in IDIOMS.items():
        lines += [f"class C_{name}(nn.Module):", "    def forward(self, x):", f"        {body}", "", ""]
    path = os.path.join(folder, "idioms.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    return path


def run_dynamo(folder: str) -> dict[str, dict]:
    import logging
    import warnings

    import torch
    import torch._dynamo as dynamo
    from torch._dynamo.utils import counters

    warnings.filterwarnings("ignore")
    torch._logging.set_logs(dynamo=logging.CRITICAL)
    sys.path.insert(0, folder)
    import idioms  # noqa: E402

    graphs: list[int] = []

    def backend(gm, _inputs):
        graphs.append(1)
        return gm.forward

    out = {}
    for name in IDIOMS:
        cls = getattr(idioms, f"C_{name}")
        dynamo.reset()
        counters.clear()
        graphs.clear()
        x = torch.randn(4, 3, generator=torch.Generator().manual_seed(0))
        try:
            cls()(x.clone())
        except Exception as exc:  # an idiom eager Python rejects says nothing of Dynamo
            out[name] = {"status": "eager-fails", "detail": str(exc)[:80]}
            continue
        try:
            torch.compile(cls(), backend=backend)(x.clone())
        except Exception as exc:
            out[name] = {"status": "compile-fails", "detail": str(exc).splitlines()[0][:80]}
            continue
        reasons = sorted(r.splitlines()[0][:60] for r in counters["graph_break"])
        out[name] = {"status": "clean" if len(graphs) == 1 and not reasons else "breaks",
                     "graphs": len(graphs), "reasons": reasons}
    return out


def run_linter(path: str) -> dict[str, list[str]]:
    proc = subprocess.run([sys.executable, "-m", "compilelint", "check", path, "--no-cache", "--format", "json"],
                          capture_output=True, text=True, cwd=os.path.dirname(path))
    findings = json.loads(proc.stdout)["findings"]
    source = open(path, encoding="utf-8").read().splitlines()
    owner, owners = None, {}
    for number, text in enumerate(source, 1):
        if text.startswith("class C_"):
            owner = text[len("class C_"):].split("(")[0]
        owners[number] = owner
    found: dict[str, list[str]] = {}
    for f in findings:
        found.setdefault(owners.get(f["line"]), []).append(f["code"])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    import torch

    with tempfile.TemporaryDirectory() as folder:
        path = write_cases(folder)
        dynamo = run_dynamo(folder)
        linter = run_linter(path)
    rows = []
    for name in IDIOMS:
        d, codes = dynamo[name], sorted(linter.get(name, []))
        verdict = ""
        if d["status"] == "breaks" and not codes:
            verdict = "MISS"
        elif d["status"] == "clean" and codes:
            verdict = "FALSE ALARM"
        rows.append({"idiom": name, **d, "linter": codes, "verdict": verdict})
    print(f"torch {torch.__version__}; {len(rows)} idioms")
    for r in rows:
        what = f"graphs={r.get('graphs', '-')} {'; '.join(r.get('reasons', [])) or r.get('detail', '')}"
        print(f"{r['verdict']:12} {r['idiom']:22} {r['status']:13} {what[:70]:70} linter={','.join(r['linter']) or '-'}")
    misses = sum(r["verdict"] == "MISS" for r in rows)
    alarms = sum(r["verdict"] == "FALSE ALARM" for r in rows)
    print(f"misses {misses}, false alarms {alarms}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
