"""The probe's capture against a plain ``torch.compile`` on the ``nn.Parameter()``
constructor break (issue 20, "Also"): a module that casts a submodule in ``forward``.
The plain compile runs as a user's program does: a fresh process, a counting backend,
the model in eval mode called under ``torch.no_grad()``; the probe must report the same
breaks and mark a break that only the first call pays as first-call-only."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "probe"
sys.path.insert(0, str(FIXTURES))

from probe_cache import cached_run  # noqa: E402

PARAM_CTOR = "torch.nn.Parameter()"

PLAIN = textwrap.dedent('''
    import json, sys
    import torch, torch._dynamo
    from torch._dynamo.utils import counters
    sys.path.insert(0, sys.argv[1])
    import param_ctor
    model, args = getattr(param_ctor, sys.argv[2])()
    graphs = []
    def counting(gm, example_inputs):
        graphs.append(len(gm.graph.nodes))
        return gm.forward
    compiled = torch.compile(model, backend=counting)
    per_call = []
    with torch.no_grad():
        for _ in range(2):
            counters.clear()
            compiled(*args)
            per_call.append(sum(n for r, n in counters["graph_break"].items() if "{PARAM_CTOR}" in r))
    print(json.dumps(per_call))
''').replace("{PARAM_CTOR}", PARAM_CTOR)

CASES = ["cast_on_first_call", "cast_is_a_no_op"]


@functools.lru_cache(maxsize=None)
def plain_compile(factory: str) -> tuple[int, int]:
    """Parameter-constructor breaks Dynamo counted on the first and on the second call."""
    out = subprocess.run([sys.executable, "-c", PLAIN, str(FIXTURES), factory], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    specs = [f"param_ctor.py:{name}" for name in CASES]
    return {r.name.split(":")[1]: r for r in cached_run(tmp_path_factory, "param-ctor", specs, timeout=300,
                                                         timing=False)}


@pytest.mark.parametrize("factory", CASES)
def test_probe_and_plain_compile_agree(probed, factory):
    first, second = plain_compile(factory)
    r = probed[factory]
    assert r.status == "ok", r.error
    ctor = [b for b in r.breaks if b.kind == "graph_break" and PARAM_CTOR in b.reason]
    assert sum(b.count for b in ctor) == first  # Dynamo's own count of the breaks
    # a break the plain program's second call no longer meets is first-call-only in the probe
    assert all(b.first_call_only == (second == 0) for b in ctor)
    if ctor:
        # at the cast, and (the same break seen from the caller's frame) at the router's call
        assert {b.line for b in ctor} == {_line_of("self.classifier = self.classifier.to(self.dtype)"),
                                          _line_of("return self.router(torch.relu(self.proj(x)))")}


def test_the_real_cast_breaks_on_the_first_call_only(probed):
    # torch 2.13: the bfloat16 → float32 cast builds new Parameters once; the no-op cast
    # is traced without a break (torch 2.11 broke on it too: RESULTS §13)
    first, second = plain_compile("cast_on_first_call")
    assert first > 0 and second == 0
    assert plain_compile("cast_is_a_no_op") == (0, 0)
    ctor = [b for b in probed["cast_on_first_call"].breaks if PARAM_CTOR in b.reason]
    assert ctor and all(b.first_call_only for b in ctor)
    assert not [b for b in probed["cast_is_a_no_op"].breaks if PARAM_CTOR in b.reason]


def _line_of(text: str) -> int:
    lines = (FIXTURES / "param_ctor.py").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip() == text)
