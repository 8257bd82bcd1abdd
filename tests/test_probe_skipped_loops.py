"""A loop whose frame Dynamo skipped, though its log names the skip only once: a helper that
breaks, called in a loop by a forward and by an inverse transform (pytorch_wavelets' padding
under DTCWTForward and DTCWTInverse). Dynamo logs a break at one place once, so the second
loop's frame skip goes unlogged; the probe still sees the loop traced, then run by the
interpreter, with the break the finding names in the run: confirmed (`matched: eager`)."""

from __future__ import annotations

import sys
import textwrap

import pytest

pytest.importorskip("torch")

from compilelint.config import load  # noqa: E402
from compilelint.engine import check  # noqa: E402
from compilelint.probe.match import match  # noqa: E402

MODEL = textwrap.dedent('''\
    import torch
    from torch import nn


    def pad(x, noisy=True):
        if noisy:
            print("padding")  # BREAK
        return nn.functional.pad(x, (1, 1))


    class Forward(nn.Module):
        def forward(self, x):
            for _ in range(2):  # FIRST-LOOP
                x = pad(x)
            return x


    class Inverse(nn.Module):
        def __init__(self, noisy=True):
            super().__init__()
            self.noisy = noisy

        def forward(self, x):
            for _ in range(2):  # SECOND-LOOP
                x = pad(x, self.noisy)[..., 1:-1]
            return x


    class RoundTrip(nn.Module):
        def __init__(self, noisy=True):
            super().__init__()
            self.fwd, self.inv = Forward(), Inverse(noisy)

        def forward(self, x):
            return self.inv(self.fwd(x))
''')


def line(marker: str) -> int:
    return next(i for i, text in enumerate(MODEL.splitlines(), 1) if marker in text)


def _verdicts(tmp_path, name: str, noisy: bool) -> dict[int, tuple]:
    import torch

    from compilelint.probe.observe import observe

    src = tmp_path / f"{name}.py"
    src.write_text(MODEL)
    loops = [f for f in check([str(src)], load(None)).findings if f.code == "CL150"]
    assert sorted(f.line for f in loops) == [line("FIRST-LOOP"), line("SECOND-LOOP")]
    sys.path.insert(0, str(tmp_path))
    try:
        module = __import__(name)
    finally:
        sys.path.remove(str(tmp_path))
    obs = observe(module.RoundTrip(noisy), [((torch.ones(4),), {})])
    frame_skips = [b for b in obs.capture.breaks if b.kind == "frame_skip"]
    assert len(frame_skips) == 1  # Dynamo logged the first loop's skip only
    match(loops, [obs.as_result(name)])
    return {f.line: (f.evidence["status"], f.evidence.get("matched")) for f in loops}


def test_a_loop_whose_frame_ran_eagerly_after_the_break_it_names_is_confirmed(tmp_path):
    verdicts = _verdicts(tmp_path, "skipped_loops_model", noisy=True)
    assert verdicts[line("SECOND-LOOP")] == ("confirmed", "eager")


def test_a_loop_that_ran_compiled_is_not_confirmed_by_the_break_elsewhere(tmp_path):
    """The inverse's helper does not print: its loop compiles into the graph, while the
    forward's loop still breaks at the line the finding names. Not reproduced."""
    verdicts = _verdicts(tmp_path, "compiled_loops_model", noisy=False)
    assert verdicts[line("SECOND-LOOP")] == ("not-reproduced", None)
