"""What a graph break inside a `for` loop does on the installed torch release (CL150's premise).

CL150 says: a graph break inside a loop of a compiled frame makes Dynamo give up on that
frame ("graph break in loop", a frame skip) or, on 2.13, compile up to the loop and run
the loop eagerly (a graph break on the `for` line). Each variant below puts a break in a
loop in another way (in the body, in a called function, in a method of a submodule, in a
helper frame that holds the loop, behind a data-dependent op as in detection heads, ...)
and reports what Dynamo did: the lines it broke on, whether it skipped a frame because of
the loop, and the verdict `eager-loop` (CL150 holds) or `resumed` (Dynamo broke inside the
loop and resumed after it: CL150 does not hold on this release).

Needs torch only (not libcst, click or sarif-om): it runs on the GPU host as it is.

    python benchmarks/loop_release.py [--device cuda] [--json OUT]
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from compilelint.probe.capture import capture  # noqa: E402


def helper_break(t):
    if t.sum() > 0:  # data-dependent branch: GB0170
        return t * 2
    return t


def helper_nonzero(t):
    return t[torch.where(t > 0)[0]]  # one-argument where: a dynamic-shape op


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x)
        if y.abs().max() > 50:  # the break is here, in the block's frame
            y = y.clamp(-50, 50)
        return y


class Variants(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(3)])

    def body_branch(self, x):
        for i in range(3):
            x = x + i
            if x.sum() > 0:  # break in the loop body
                x = x * 0.5
        return x

    def body_item(self, x):
        total = 0.0
        for row in x:
            total = total + row.sum().item()  # .item(): GB0124
        return x * total

    def body_print(self, x):
        for i in range(2):
            print("step", i)  # print: a graph break
            x = x + 1
        return x

    def call_function(self, x):
        for _ in range(3):
            x = helper_break(x)  # break inside a module-level function
        return x

    def call_block(self, x):
        for blk in self.blocks:
            x = blk(x)  # break inside a submodule's forward
        return x

    def body_nonzero(self, x):
        out = []
        for row in x:
            out.append(row[torch.where(row > 0)[0]].sum())  # dynamic-shape op in the body
        return torch.stack(out)

    def call_nonzero(self, x):
        out = []
        for a, b in zip(x, x.flip(0)):
            out.append(helper_nonzero(a + b).sum())  # dynamic-shape op in a callee (detection heads)
        return torch.stack(out)

    def break_then_loop(self, x):
        print("before")  # a break before the loop: the loop sits in a resume function
        for i in range(3):
            x = x + i
            if x.sum() > 0:
                x = x * 0.5
        return x

    def loop_under_no_grad(self, x):
        with torch.no_grad():
            for i in range(3):
                x = x + i
                if x.sum() > 0:  # break inside a `with` block inside the loop's frame
                    x = x * 0.5
        return x

    def loop_over_zip_nonzero(self, x):
        kept = []
        for boxes, scores in zip(x.split(2), x.sum(-1).split(2)):
            keep = torch.where(scores > 0)[0]  # dynamic-shape op, then used to index
            boxes = boxes[keep]
            keep = helper_nonzero(boxes.sum(-1))
            kept.append(keep.sum())
        return torch.stack(kept)

    def _loop_helper(self, x):
        for i in range(3):
            x = x + i
            if x.mean() > 0:
                x = x - 1
        return x

    def helper_frame(self, x):
        x = x * 2
        x = self._loop_helper(x)  # the loop sits in a called method's frame
        return x + 1


VARIANTS = [name for name, _ in inspect.getmembers(Variants, inspect.isfunction)
            if not name.startswith("_") and name not in ("forward",) and name in Variants.__dict__]


def loop_lines(fn) -> list[tuple[int, int]]:
    import ast
    import textwrap

    lines, first = inspect.getsourcelines(fn)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    return [(first + n.lineno - 1, first + n.end_lineno - 1) for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))]


def run_variant(name: str, device: str = "cpu") -> dict:
    model = Variants().to(device)
    fn = getattr(model, name)
    loops = loop_lines(fn) or loop_lines(Variants._loop_helper)
    x = torch.randn(4, 8, device=device)
    res = capture(fn, (x,), {}, backend="eager", record_lines=True).to_dict()
    breaks = res.get("breaks", [])
    here = str(Path(__file__).resolve())
    eager = {int(ln) for path, lns in (res.get("lines_ran_eagerly") or {}).items()
             if Path(path).resolve() == Path(here) for ln in lns}
    gbs = [b for b in breaks if b.get("kind") == "graph_break"]
    skips = [b for b in breaks if b.get("kind") == "frame_skip"]
    loop_skip = [b for b in skips if "loop" in ((b.get("reason") or "") + (b.get("detail") or ""))]
    lines = sorted({int(b["line"]) for b in gbs if b.get("file") and Path(b["file"]).resolve() == Path(here)})
    at_loop = [ln for ln in lines if any(start == ln for start, _ in loops)]
    # the loop ran eagerly when a line of its body ran outside any graph (the probe's line record)
    body_eager = sorted(ln for start, end in loops for ln in eager if start < ln <= end)
    verdict = "eager-loop" if (loop_skip or at_loop or body_eager) else ("resumed" if lines else "no-break")
    return {
        "variant": name,
        "loops": [start for start, _ in loops],
        "break_lines": lines,
        "loop_frame_skips": len(loop_skip),
        "break_at_for": at_loop,
        "body_lines_run_eagerly": body_eager,
        "graphs": res.get("graph_count"),
        "verdict": verdict,
        "error": (res.get("error") or "")[:200] or None,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--device", default="cpu", help="where the module and inputs live (cuda on the GPU host)")
    args = ap.parse_args(argv)
    rows = []
    import io
    import contextlib

    for name in VARIANTS:
        with contextlib.redirect_stdout(io.StringIO()):
            rows.append(run_variant(name, args.device))
    print(f"torch {torch.__version__}, python {sys.version.split()[0]}, device {args.device}")
    print("| variant | loop line | break lines | loop frame skips | break at `for` | body lines run eagerly | graphs | verdict |")
    print("| --- | --- | --- | ---: | --- | --- | ---: | --- |")
    for r in rows:
        print(f"| {r['variant']} | {r['loops']} | {r['break_lines']} | {r['loop_frame_skips']} | {r['break_at_for']} "
              f"| {r['body_lines_run_eagerly']} | {r['graphs']} | {r['verdict']}{' (' + r['error'] + ')' if r['error'] else ''} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"torch": torch.__version__, "device": args.device, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
