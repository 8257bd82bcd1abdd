"""One open buffer analysed again after each edit, walking only what the edit changed.

The file's top-level statements are walked in groups (a compound statement alone, a run
of simple ones together). Before each group the walker's state is kept (`state.take`),
and each group's outputs (findings, function summaries, loops) are kept apart. After an
edit, groups the splice left untouched are not walked while the state before them is the
one they were walked from: their outputs are reused. A changed group is walked from the
state kept before it; if the state after it is the old one (`state.same`), the groups
after it are reused too. Positions are computed per statement and shifted to its line.

The result is the `FileAnalysis` that `analysis.analyze` gives for the same text (the
tests compare them on real files, edit after edit).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst._position import CodePosition, CodeRange

from compilelint import traverse
from compilelint.analysis import assemble
from compilelint.finding import FileAnalysis
import compilelint.incremental.splice as splice
import compilelint.incremental.state as state
from compilelint.semantic.walker import Walker


@dataclass
class Group:
    statements: tuple[cst.BaseStatement, ...]
    before: state.Snapshot  # the state its walk started from
    pending: list = field(default_factory=list)
    crashes: list = field(default_factory=list)
    functions: dict = field(default_factory=dict)
    compile_targets: list = field(default_factory=list)
    loop_nodes: list = field(default_factory=list)


def _groups(body) -> list[tuple[cst.BaseStatement, ...]]:
    out: list[list] = []
    for stmt in body:
        simple = isinstance(stmt, cst.SimpleStatementLine)
        if simple and out and isinstance(out[-1][-1], cst.SimpleStatementLine):
            out[-1].append(stmt)
        else:
            out.append([stmt])
    return [tuple(group) for group in out]


class FileModel:
    """The analysis of one buffer, kept between edits (see the module's docstring)."""

    def __init__(self, path: str, module: str, rule_classes: list[type], settings) -> None:
        self.path, self.module, self.rule_classes, self.settings = path, module, rule_classes, settings
        self.parsed: splice.Parsed | None = None
        self.groups: list[Group] = []
        self.start: state.Snapshot | None = None  # after entering the module (its scans)
        self.end: state.Snapshot | None = None  # after the last group
        self.alias: dict[int, tuple] = {}  # id(old node) -> (old node, its new twin)
        self.places: dict[int, list] = {}  # id(statement) -> [statement, ids of its nodes, {node: range in it}]
        self.kept: set[int] = set()  # the ids of the nodes of every statement in `places`
        self.walked = 0  # groups walked by the last analysis (for tests and benchmarks)

    def __call__(self, path: str, text: str, module: str, rule_classes: list[type], settings) -> FileAnalysis:
        """`analysis.analyze`'s signature (for `engine.analyze_path`). A bug of this module
        costs a whole analysis, never a wrong or missing one: the kept state starts anew."""
        import logging
        import traceback

        if (path, module, settings) != (self.path, self.module, self.settings) or rule_classes != self.rule_classes:
            self.__init__(path, module, rule_classes, settings)
        try:
            return self.analyze(text)
        except (cst.ParserSyntaxError, RecursionError):
            raise  # the text's own fault: the engine reports it; the last good version stays
        except Exception:  # noqa: BLE001
            logging.getLogger("compilelint.incremental").error(
                "incremental analysis of %s failed; analysing it whole:\n%s", path, traceback.format_exc())
            self.__init__(path, module, rule_classes, settings)
            from compilelint.analysis import analyze

            return analyze(path, text, module, rule_classes, settings)

    def analyze(self, text: str) -> FileAnalysis:
        """The analysis of `text`, the buffer's new content. Raises
        libcst.ParserSyntaxError, as `analysis.analyze` does."""
        parsed = splice.reparse(self.parsed, text)
        tree = parsed.tree
        walker = Walker(self.path, self.module, self.rule_classes, self.settings)
        handled = {*walker._visit, *walker._leave, *Walker.handled_types()}
        skip = traverse.skippable(handled)
        groups = _groups(tree.body)
        old_at = {id(g.statements[0]): i for i, g in enumerate(self.groups)}
        matches = [self._match(group, old_at) for group in groups]
        live = {id(stmt) for stmt in tree.body}
        for key in [k for k in self.places if k not in live]:  # statements gone: their ids too
            ids = self.places.pop(key)[1]
            if ids is not None:
                self.kept -= ids
        kept = self.kept  # ids of the nodes of the statements the edit left alone
        new_groups: list[Group] = []
        loops: list = []
        self.walked = 0
        with traverse.fast_visits():
            walker.on_visit(tree)
            for line in (tree.header if cst.EmptyLine not in skip else ()):
                traverse.walk(line, walker, skip)
            start = state.take(walker, tree)
            # `at`: the old group whose kept state the walker's state equals (None: unknown);
            # `real`: that state is in the walker (else it is still only in the old snapshot).
            at = 0 if self.start is not None and state.same(walker, self.start, kept, self.alias) else None
            real = True
            for index, group in enumerate(groups):
                old = matches[index]
                if at is not None and old == at:
                    reused = self.groups[old]
                    new_groups.append(reused)
                    loops.extend(reused.loop_nodes)
                    at, real = old + 1, False
                    continue
                if not real:
                    state.restore(self._before(at), walker, tree, self.alias)
                    real = True
                walked = self._walk(walker, tree, group, loops, skip)
                new_groups.append(walked)
                self.walked += 1
                following = matches[index + 1] if index + 1 < len(groups) else len(self.groups)
                at = None
                if following is not None and (following < len(self.groups) or self.end is not None):
                    if state.same(walker, self._before(following), kept, self.alias):
                        at = following
            if not real:
                state.restore(self._before(at), walker, tree, self.alias)
            walker.loop_nodes = list(loops)
            converged = at is not None and at == len(self.groups) and self.end is not None
            end = self.end if converged else state.take(walker, tree)
            walker.pending, walker.crashes = [], []
            for line in (tree.footer if cst.EmptyLine not in skip else ()):
                traverse.walk(line, walker, skip)
            walker.on_leave(tree)
        leaving, leave_crashes = walker.pending, walker.crashes
        walker.pending = [p for g in new_groups for p in g.pending] + leaving
        walker.crashes = [c for g in new_groups for c in g.crashes] + leave_crashes
        walker.functions = {}
        for group in new_groups:
            walker.functions.update(group.functions)
        walker.compile_targets = [t for g in new_groups for t in g.compile_targets]
        self.parsed, self.groups, self.start, self.end = parsed, new_groups, start, end
        for stmt in tree.body:  # the new statements' ids: for the next edit
            place = self._place(stmt)
            if place[1] is None:
                place[1] = frozenset(map(id, traverse.iter_nodes(stmt)))
                self.kept |= place[1]
        return assemble(walker, text, lambda nodes: self._locate(parsed, nodes),
                        lambda found: tuple((r.start.line, r.start.column + 1)
                                            for r in map(self._locate(parsed, found).__getitem__, found)))

    def _match(self, group: tuple, old_at: dict[int, int]) -> int | None:
        index = old_at.get(id(group[0]))
        if index is None:
            return None
        old = self.groups[index].statements
        return index if len(old) == len(group) and all(a is b for a, b in zip(old, group)) else None

    def _before(self, index: int) -> state.Snapshot:
        return self.groups[index].before if index < len(self.groups) else self.end

    def _walk(self, walker: Walker, tree: cst.Module, statements: tuple, loops: list, skip) -> Group:
        group = Group(statements, state.take(walker, tree))
        walker.pending, walker.crashes, walker.functions = group.pending, group.crashes, group.functions
        walker.compile_targets = group.compile_targets
        walker.loop_nodes = list(loops)
        for stmt in statements:
            traverse.walk(stmt, walker, skip)
        group.loop_nodes = walker.loop_nodes[len(loops):]
        loops.extend(group.loop_nodes)
        return group

    # ---- positions ----------------------------------------------------------------------

    def _place(self, stmt: cst.BaseStatement) -> list:
        """[statement, ids of its nodes (None until the analysis ends), {node: range within it}]."""
        kept = self.places.get(id(stmt))
        if kept is None or kept[0] is not stmt:
            kept = self.places[id(stmt)] = [stmt, None, {}]
        return kept

    def _locate(self, parsed: splice.Parsed, nodes) -> dict[cst.CSTNode, CodeRange]:
        """Positions of `nodes`: each statement generated alone (once per statement and
        node), then shifted to where the statement starts now."""
        tree = parsed.tree
        wanted = {id(n): n for n in nodes}
        out: dict[cst.CSTNode, CodeRange] = {}
        offsets, line = [], parsed.header
        for span in parsed.spans:
            offsets.append(line)
            line += span

        def found(place: list, offset: int, here: list) -> None:
            ranges = place[2]
            missing = [n for n in here if n not in ranges]
            if missing:
                ranges.update(traverse.positions(tree, missing, within=place[0]))
            for n in here:
                r = ranges.get(n)
                if r is not None:
                    out[n] = CodeRange(CodePosition(r.start.line + offset, r.start.column),
                                       CodePosition(r.end.line + offset, r.end.column))
                    del wanted[id(n)]

        fresh = []  # statements whose nodes were never listed: just generated, for what is left
        for stmt, offset in zip(tree.body, offsets):
            place = self._place(stmt)
            if place[1] is None:
                fresh.append((place, offset))
            elif wanted:
                here = [n for key, n in wanted.items() if key in place[1]]
                if here:
                    found(place, offset, here)
        for place, offset in fresh:
            if wanted:
                found(place, offset, list(wanted.values()))
        if wanted:  # the module itself, or its header or footer
            out.update(traverse.positions(tree, list(wanted.values())))
        return out
