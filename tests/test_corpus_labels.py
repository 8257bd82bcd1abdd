"""Fast CI check of the labelled accuracy corpus (fixtures/corpus).

Runs Dynamo (torch 2.13, backend="eager") on a representative subset of the corpus —
one or two cases per family: data-dependent control flow, tensor→Python conversions,
untraceable calls, dynamic shapes, autograd, explicit breaks, a break in a loop (CL150),
recompiles (CL2xx), a compile-API misuse (CL3xx) and clean look-alikes — and checks each
case's ``# expect:`` labels against what Dynamo reports, with the same checker as
``benchmarks/accuracy.py`` (which runs the whole corpus). The subset runs in two worker
interpreters, so the file stays well under a minute.

Also checks the corpus itself: size, share of clean cases, label syntax, and that every
label names a code of the catalogue.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "fixtures" / "corpus"


def _load_accuracy():
    spec = importlib.util.spec_from_file_location("corpus_accuracy", REPO / "benchmarks" / "accuracy.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["corpus_accuracy"] = mod
    spec.loader.exec_module(mod)
    return mod


acc = _load_accuracy()

# one or two per family; kept small so the whole file runs in well under 60 s
SUBSET = [
    "cf_if_tensor_01.py",  # CL102
    "cf_item_01.py",  # CL103
    "cf_numpy_01.py",  # CL105
    "cf_print_01.py",  # CL110
    "cf_logging_01.py",  # CL111
    "cf_dynamic_shape_01.py",  # CL120 (MoE nonzero)
    "cf_bool_mask_01.py",  # CL121
    "cf_number_read_01.py",  # CL107: only the first size read of a tensor breaks (measured knowledge)
    "cf_context_stored_01.py",  # CL141: a context manager built before the region (measured knowledge)
    "cf_backward_01.py",  # CL130
    "cf_disable_call_01.py",  # CL140 (call of a torch.compiler.disable'd function)
    "cf_loop_break_02.py",  # CL150 + CL102 in a nested block
    "rc_counter_01.py",  # CL202
    "rc_train_eval_01.py",  # CL207
    "clean_mask_none_01.py",  # if mask is None / finfo
    "clean_assert_tensor_01.py",  # assert on a tensor: no break on 2.13
    "clean_buffer_counter_01.py",  # tensor buffer counter: no recompile
    "api_load_state_dict_01.py",  # CL301 via confirm()
]


def _catalogue_codes() -> set[str]:
    text = (REPO / "docs" / "catalogue.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| (CL\d{3}) \|", text, re.MULTILINE))


def test_corpus_shape():
    from compilelint.config import newest_confirmed

    cases = acc.discover(None)
    newest = {c.name: c for c in acc.discover(None, newest_confirmed())}
    assert len(cases) >= 90
    kinds = [c.kind for c in cases]
    assert kinds.count("clean") * 3 >= len(cases), "at least a third of the cases must be clean"
    for fam in ("breaking", "recompile", "api"):
        assert fam in kinds
    for c in cases:
        assert c.has_make or c.has_confirm, f"{c.name}: needs make() or confirm()"
        if c.recompile_lines:
            assert c.has_drive, f"{c.name}: CL2xx labels need drive()"
        # cf_ breaks, rc_ recompiles, api_ compile-API misuse, xf_ breaks found across functions,
        # kn_ the library-knowledge table's cases, clean_ look-alikes that must not fire
        assert c.name.startswith(("cf_", "rc_", "api_", "xf_", "kn_", "clean_")), c.name
        # clean_: no labels on the newest confirmed release (an older one may break: `[torch < 2.13]`)
        assert c.name.startswith("clean_") == (not newest[c.name].labels), f"{c.name}: clean_ prefix iff no labels"


def test_labels_name_catalogue_codes():
    known = _catalogue_codes()
    assert "CL101" in known and "CL304" in known
    for c in acc.discover(None):
        for line, codes in c.labels.items():
            assert len(codes) == 1, f"{c.name}:{line}: one code per line"
            assert codes[0] in known, f"{c.name}:{line}: {codes[0]} is not in docs/catalogue.md"
            assert not codes[0].startswith("CL9") and codes[0] not in ("CL000", "CL001")
        for line in c.loop_lines:
            assert line in c.loops, f"{c.name}:{line}: CL150 must sit on a for/while line"


def test_subset_exists():
    names = {c.name for c in acc.discover(None)}
    missing = [n for n in SUBSET if n not in names]
    assert not missing


def test_subset_labels_confirmed_by_dynamo():
    pytest.importorskip("torch")
    cases = acc.discover(SUBSET)
    assert len(cases) == len(SUBSET)
    # two interpreters (the subset's confirm() case sets up no process-wide state)
    batches = [cases[0::2], cases[1::2]]
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = [r for batch in ex.map(acc.run_batch, batches) for r in batch]
    by_name = {r["case"]: r for r in results}
    failures = {}
    for c in cases:
        problems = acc.check_case(c, by_name[c.name])
        if problems:
            failures[c.name] = problems
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())
