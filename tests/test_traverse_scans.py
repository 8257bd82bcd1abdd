"""`traverse.scan`: the flat, cached scan of a function body that several parts of the walk
share (local flags, parameter uses, entries, caller facts, method scans) must give exactly
what the generator walk it replaces gives, on real code, and live no longer than the walk
(`fast_visits`): the language server walks edit after edit in one process."""

from pathlib import Path

import libcst as cst
import pytest

from compilelint import traverse
from compilelint.semantic.compile_values import nested_scope
from compilelint.traverse import TRIVIA, iter_nodes, scan, scan_spans

REPO = Path(__file__).resolve().parents[1]
SOURCES = [p for p in sorted((REPO / "src" / "compilelint" / "semantic").glob("*.py")) if p.name != "__init__.py"][:12] \
    + sorted((REPO / "fixtures" / "corpus").rglob("*.py"))[::20]


def _functions(path: Path):
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    return [node for node in iter_nodes(tree) if isinstance(node, cst.FunctionDef)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_scan_is_the_walk_without_layout(path):
    functions = _functions(path)
    assert functions, path
    with traverse.fast_visits():
        for fn in functions:
            walked = list(iter_nodes(fn.body, skip=TRIVIA))
            scanned = scan(fn.body)
            assert len(walked) == len(scanned) and all(a is b for a, b in zip(walked, scanned))
            pruned = [n for n in iter_nodes(fn.body, prune=nested_scope) if type(n) not in TRIVIA]
            scanned = scan(fn.body, prune=nested_scope)
            assert len(pruned) == len(scanned) and all(a is b for a, b in zip(pruned, scanned))
            assert scan(fn.body) is scan(fn.body)  # made once


@pytest.mark.parametrize("path", SOURCES[:6], ids=lambda p: p.name)
def test_each_span_ends_past_exactly_its_own_subtree(path):
    with traverse.fast_visits():
        for fn in _functions(path):
            nodes, ends = scan_spans(fn.body)
            for index, node in enumerate(nodes):
                below = list(iter_nodes(node, skip=TRIVIA))
                inside = nodes[index:ends[index]]
                assert len(below) == len(inside) and all(a is b for a, b in zip(below, inside))


def test_a_stale_entry_is_never_used():
    first = cst.parse_module("def f(x):\n    y = x + 1\n    return y\n").body[0]
    other = cst.parse_module("def g(a):\n    return a\n").body[0]
    with traverse.fast_visits():
        made = scan(first.body)
        # another node under the same id (as after the first tree is freed) gets its own scan
        traverse._SCANS[id(other.body)] = traverse._SCANS[id(first.body)]
        assert scan(other.body)[0] is other.body
        assert [n.value for n in scan(other.body) if isinstance(n, cst.Name)] == ["a"]
        assert made[0] is first.body
    assert not traverse._SCANS  # (left with the outermost `fast_visits`)


def test_neither_a_file_analysis_nor_the_servers_edits_keep_scans():
    from compilelint import config
    from compilelint.analysis import analyze
    from compilelint.engine import rules_for
    from compilelint.incremental import FileModel

    settings = config.Settings()
    rules = rules_for(settings)
    text = SOURCES[0].read_text(encoding="utf-8")
    analyze("m.py", text, "m", rules, settings)
    assert not traverse._SCANS and not traverse._PRUNED
    model = FileModel("m.py", "m", rules, settings)
    model.analyze(text)
    model.analyze(text.replace("\n\n\n", "\n\n\nx_edit = 1\n\n\n", 1))
    assert not traverse._SCANS and not traverse._PRUNED
