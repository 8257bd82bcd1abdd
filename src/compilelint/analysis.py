"""One walk over one file: the file's summary for the project index, and the candidate
findings of every rule, each tagged with the function it sits in.

Which functions are compiled depends on other files, so the walk reports candidates in
every function; the engine keeps those in compiled regions. That keeps a file's analysis
a pure function of its content (cacheable) and the cross-file part cheap.
"""

from __future__ import annotations

import re

import libcst as cst

from compilelint import traverse
from compilelint.finding import ON_ERROR, Edit, FileAnalysis, Finding, common_when, inner_cause, loop_break, when_text
from compilelint.semantic.loops import WHILE_TEST_RESUMES, loop_positions, loop_positions_libcst, test_operands
from compilelint.semantic.walker import Walker

NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+\d+(?:[\s,]+[A-Za-z]+\d+)*))?", re.IGNORECASE)
FILE_NOQA = re.compile(r"#\s*compilelint:\s*noqa\b", re.IGNORECASE)

__all__ = ["analyze", "assemble", "walk_tree", "noqa_map", "loop_positions", "loop_positions_libcst", "Walker"]


def noqa_map(text: str) -> tuple[dict[int, list[str] | None], bool]:
    """Line -> codes suppressed there (None: all), and whether the whole file is exempt."""
    lines: dict[int, list[str] | None] = {}
    file_noqa = False
    if "noqa" not in text.lower():
        return lines, False
    for number, line in enumerate(text.splitlines(), start=1):
        if "#" not in line or "noqa" not in line.lower():
            continue
        if FILE_NOQA.search(line):
            file_noqa = True
            continue
        match = NOQA.search(line)
        if match is None:
            continue
        codes = match.group("codes")
        lines[number] = [c.upper() for c in re.split(r"[\s,]+", codes) if c] if codes else None
    return lines, file_noqa


def walk_tree(tree: cst.Module, path: str, module: str, rule_classes: list[type], settings,
              text: str | None = None) -> Walker:
    """One walk of `tree` by a Walker running `rule_classes`: the Walker, with what it found.
    `text`: the source, for rules that skip files a word of it rules out."""
    walker = Walker(path, module, rule_classes, settings)
    walker.text = text
    # libcst's order, without rebuilding the tree; layout nodes only when something acts on them
    handled = {*walker._visit, *walker._leave, *Walker.handled_types()}
    with traverse.fast_visits():  # and the rules' own subtree scans (node.visit(Finder()))
        traverse.walk(tree, walker, traverse.skippable(handled))
    return walker


def _place(at, positions) -> tuple[int, int]:
    """1-based (line, column) of a `rules.base.At`."""
    pos = positions[at.node]
    if at.side == "end":
        return pos.end.line, pos.end.column + 1
    return pos.start.line, (1 if at.side == "line" else pos.start.column + 1)


def _edit(edit, positions) -> Edit:
    """A rule's `NodeEdit`, positioned."""
    return Edit(*_place(edit.start, positions), *_place(edit.end, positions), edit.text)


def analyze(path: str, text: str, module: str, rule_classes: list[type], settings) -> FileAnalysis:
    """Parse and walk one file. Raises libcst.ParserSyntaxError for the engine to report."""
    tree = cst.parse_module(text)
    walker = walk_tree(tree, path, module, rule_classes, settings, text)
    return assemble(walker, text, lambda nodes: traverse.positions(tree, nodes),
                    lambda loops: loop_positions(text, tree, loops))


# what a `for` header builds that breaks again as it is iterated (a tqdm bar, a generator)
ITERATED_BREAKS = frozenset({"CL119", "CL141"})


def _before_loop(loop: cst.CSTNode, pending) -> bool:
    """A break in the outermost `for`'s iterable (`for v in x.tolist()`, `for a in dir(m)`):
    evaluated once, before the loop, so Dynamo resumes after it (measured on 2.13: no GB7000)."""
    return isinstance(loop, cst.For) and pending.rule.code not in ITERATED_BREAKS \
        and any(node is pending.node for node in traverse.iter_nodes(loop.iter))


def assemble(walker: Walker, text: str, locate, loops_alone) -> FileAnalysis:
    """The file's analysis from a finished walk. `locate(nodes)`: their positions (one
    code generation pass); `loops_alone(loops)`: where the loops are, when no finding
    needs a position pass."""
    path = walker.path
    noqa, file_noqa = noqa_map(text)
    candidates: list[Finding] = []
    diagnostics: list[Finding] = []
    # Where each loop is, when a loop calls something: for a CL150 that only the project
    # index can decide (the loop calls a function that breaks); cached with the summary.
    loops_wanted = any(edge.loop is not None for info in walker.functions.values() for edge in info.calls)
    positions = {}
    if walker.pending:
        # Positions cost a code generation pass: pay it only when something was found, and
        # only for the reported nodes (PositionProvider's ranges, computed for those alone),
        # and the loops if wanted, in the same pass.
        positions = locate(walker.reported_nodes() + (walker.loop_nodes if loops_wanted else []))
        loops: dict[tuple, list] = {}  # (line, col, needs) -> [loop, first pending, its line, when]
        for pending in walker.pending:
            rule, loop, scope = pending.rule, pending.loop, pending.scope
            pos = positions[pending.node]
            candidates.append(Finding(
                path=path, line=pos.start.line, col=pos.start.column + 1, code=rule.code,
                message=pending.message + when_text(pending.when), severity=pending.severity, end_line=pos.end.line,
                end_col=pos.end.column + 1, name=rule.name, help=pending.help, scope=scope,
                when=pending.when, needs=pending.needs,
                edits=tuple(_edit(edit, positions) for edit in pending.edits),
            ))
            # a `while` whose own test is the break: Dynamo resumes at the jump, no frame skip
            own_test = isinstance(loop, cst.While) and walker.target_release() >= WHILE_TEST_RESUMES \
                and any(pending.node is op for op in (loop.test, *test_operands(loop.test)))
            if loop is not None and walker.loop_rule is not None and ON_ERROR not in pending.when and not own_test \
                    and not _before_loop(loop, pending):
                lpos = positions[loop]
                key = (lpos.start.line, lpos.start.column, pending.needs)
                if key not in loops:
                    loops[key] = [loop, pending, pos.start.line, pending.when]
                else:
                    loops[key][3] = common_when(loops[key][3], pending.when)
        for (line, column, needs), (loop, first, first_line, when) in loops.items():
            keyword = "for" if isinstance(loop, cst.For) else "while"
            candidates.append(loop_break(
                path, line, column + 1, keyword, inner_cause(first.rule.code, first_line),
                walker.loop_rule, scope=first.scope, needs=needs, when=when))
    for code, trace in walker.crashes:
        diagnostics.append(Finding(
            path=path, line=1, col=1, code="CL001", name="rule-crash", severity="error",
            message=f"rule {code} crashed on this file; other rules still ran: {trace.strip().splitlines()[-1]}",
        ))
    summary = walker.summary()
    if loops_wanted:
        summary.loops = loop_positions_libcst(None, walker.loop_nodes, positions) if positions \
            else loops_alone(walker.loop_nodes)
    return FileAnalysis(path, walker.module, summary, candidates, diagnostics, noqa, file_noqa)
