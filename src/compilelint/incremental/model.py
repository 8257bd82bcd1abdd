"""One open buffer analysed again after each edit, walking only what the edit changed.

The file's top-level statements are walked in groups (a compound statement alone, a run
of simple ones together). Before each group the walker's state is kept (`state.take`),
and each group's outputs (findings, function summaries, loops) are kept apart. After an
edit, groups the splice left untouched are not walked while the state before them is the
one they were walked from: their outputs are reused. A changed group is walked from the
state kept before it; if the state after it is the old one (`state.same`), the groups
after it are reused too. A changed class is walked the same way one level down, member
by member, once its first edit has kept its members' starting states. Positions are
computed per statement or member and shifted to its line.

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
    """Statements walked together: the state they started from, and what they gave."""

    statements: tuple[cst.BaseStatement, ...]
    before: state.Snapshot  # the state its walk started from
    pending: list = field(default_factory=list)
    crashes: list = field(default_factory=list)
    functions: dict = field(default_factory=dict)
    compile_targets: list = field(default_factory=list)
    loop_nodes: list = field(default_factory=list)
    # a class walked member by member: what entering it gave, its members' run, leaving it
    head: Group | None = None
    inner: Run | None = None
    tail: Group | None = None


@dataclass
class Run:
    """The walk of a list of statements (the module's, or a class body's), group by group."""

    start: state.Snapshot  # the state before the first group
    groups: list[Group]
    end: state.Snapshot  # the state after the last group


def _match(group: tuple, old_at: dict[int, int], old_groups: list[Group]) -> int | None:
    """The old group made of the same statements (the same nodes), if any."""
    index = old_at.get(id(group[0]))
    if index is None:
        return None
    old = old_groups[index].statements
    return index if len(old) == len(group) and all(a is b for a, b in zip(old, group)) else None


def _position(group: Group, groups: list[Group]) -> int:
    return next(i for i, g in enumerate(groups) if g is group)


def _walk_field(node: cst.CSTNode, name: str, walker: Walker, skip) -> None:
    """Walk one field of `node` (a node, a sequence of nodes, or nothing) as `traverse.walk` would."""
    value = getattr(node, name)
    for child in (value if isinstance(value, (tuple, list)) else (value,)):
        if isinstance(child, cst.CSTNode) and type(child) not in skip:
            traverse.walk(child, walker, skip)


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
        self.run: Run | None = None  # the last walk of the module's statements
        self.alias: dict[int, tuple] = {}  # id(old node) -> (old node, its new twin)
        self.places: dict[int, list] = {}  # id(statement) -> [statement, ids of its nodes, {node: range in it}]
        self.kept: set[int] = set()  # the ids of the nodes of every statement in `places`
        self.member_ids: dict[int, tuple] = {}  # id(class member) -> (member, ids of its nodes)
        self.member_places: dict[int, tuple] = {}  # id(class member) -> (member, {node: range in it})
        self.scans: dict[int, tuple] = {}  # id(method) -> (method, what the class scan found in it)
        self.walked = 0  # groups walked by the last analysis (for tests and benchmarks)
        self.busy = False  # an analysis is under way (still true after one that stopped half way)

    def __call__(self, path: str, text: str, module: str, rule_classes: list[type], settings) -> FileAnalysis:
        """`analysis.analyze`'s signature (for `engine.analyze_path`). A bug of this module
        costs a whole analysis, never a wrong or missing one: the kept state starts anew."""
        import logging
        import traceback

        if (path, module, settings) != (self.path, self.module, self.settings) or rule_classes != self.rule_classes:
            self.__init__(path, module, rule_classes, settings)
        try:
            return self.analyze(text)
        except cst.ParserSyntaxError:
            raise  # the text's own fault: the engine reports it; the last good version stays
        except RecursionError:
            self.__init__(path, module, rule_classes, settings)  # (it stopped half way)
            raise
        except Exception:  # noqa: BLE001
            logging.getLogger("compilelint.incremental").error(
                "incremental analysis of %s failed; analysing it whole:\n%s", path, traceback.format_exc())
            self.__init__(path, module, rule_classes, settings)
            from compilelint.analysis import analyze

            return analyze(path, text, module, rule_classes, settings)

    def analyze(self, text: str) -> FileAnalysis:
        """The analysis of `text`, the buffer's new content. Raises
        libcst.ParserSyntaxError, as `analysis.analyze` does."""
        if self.busy:  # the last analysis stopped half way (an interrupt): start anew
            self.__init__(self.path, self.module, self.rule_classes, self.settings)
        parsed = splice.reparse(self.parsed, text)
        self.busy = True
        tree = parsed.tree
        walker = Walker(self.path, self.module, self.rule_classes, self.settings)
        walker.scans = self.scans
        walker.text = text
        handled = {*walker._visit, *walker._leave, *Walker.handled_types()}
        skip = traverse.skippable(handled)
        live = {id(stmt) for stmt in tree.body}
        for key in [k for k in self.places if k not in live]:  # statements gone: their ids too
            ids = self.places.pop(key)[1]
            if ids is not None:
                self.kept -= ids
        self.walked = 0
        loops: list = []
        with traverse.fast_visits():
            walker.on_visit(tree)
            for line in (tree.header if cst.EmptyLine not in skip else ()):
                traverse.walk(line, walker, skip)
            run, _ = self._run(walker, tree, tree.body, self.run, self.kept, loops, skip, top=True)
            walker.pending, walker.crashes = [], []
            for line in (tree.footer if cst.EmptyLine not in skip else ()):
                traverse.walk(line, walker, skip)
            walker.on_leave(tree)
        leaving, leave_crashes = walker.pending, walker.crashes
        walker.pending = [p for g in run.groups for p in g.pending] + leaving
        walker.crashes = [c for g in run.groups for c in g.crashes] + leave_crashes
        walker.functions = {}
        for group in run.groups:
            walker.functions.update(group.functions)
        walker.compile_targets = [t for g in run.groups for t in g.compile_targets]
        self.parsed, self.run = parsed, run
        for stmt in tree.body:  # the new statements' ids: for the next edit
            place = self._place(stmt)
            if place[1] is None:
                place[1] = self._ids(stmt)
                self.kept |= place[1]
        members = {id(m) for stmt in tree.body for m in (splice.members_of(stmt) or ())}
        for memo in (self.member_ids, self.member_places, self.scans):
            if len(memo) > 2 * len(members) + 256:  # (members of old versions: forgotten now and then)
                for key in [k for k in memo if k not in members]:
                    del memo[key]
        self.busy = False
        return assemble(walker, text, lambda nodes: self._locate(parsed, nodes),
                        lambda found: tuple((r.start.line, r.start.column + 1)
                                            for r in map(self._locate(parsed, found).__getitem__, found)))

    @property
    def groups(self) -> list[Group]:
        return self.run.groups if self.run is not None else []

    def _run(self, walker: Walker, tree: cst.Module, statements, old: Run | None, kept: set[int], loops: list,
             skip, top: bool = False) -> tuple[Run, bool]:
        """Walk `statements` group by group, skipping the groups of `old` (the walk of their
        previous version) whose statements and starting state are unchanged. Returns the
        run and whether the walker holds the state after it (else it is `run.end`'s, still
        to be put back: never at the top, where the module's end needs it)."""
        groups = _groups(statements)
        old_groups = old.groups if old is not None else []
        old_at = {id(g.statements[0]): i for i, g in enumerate(old_groups)}
        matches = [_match(group, old_at, old_groups) for group in groups]
        for group, match in zip(groups, matches):  # what the edit left alone, ids included
            if match is not None and not top:
                kept.update(*(self._ids(stmt) for stmt in group))
        versions = {id(m): g for g in old_groups if g.inner is not None for m in g.statements[0].body.body}

        def before(index: int) -> state.Snapshot:
            return old_groups[index].before if index < len(old_groups) else old.end

        # `at`: the old group whose kept state the walker's state equals (None: unknown);
        # `real`: that state is in the walker (else it is still only in the old snapshot);
        # `now`: a snapshot equal to the walker's state, when one is at hand (no copy needed).
        at = 0 if old is not None and state.same(walker, old.start, kept, self.alias) else None
        start = now = old.start if at == 0 else state.take(walker, tree)
        real = True
        new_groups: list[Group] = []
        for index, group in enumerate(groups):
            match = matches[index]
            if at is not None and match == at:
                reused = old_groups[match]
                new_groups.append(reused)
                loops.extend(reused.loop_nodes)
                at, real = match + 1, False
                continue
            if not real:
                now = before(at)
                state.restore(now, walker, tree, self.alias)
                real = True
            previous = None
            if old is not None and len(group) == 1 and splice.members_of(group[0]) is not None:
                previous = next((versions[id(m)] for m in group[0].body.body if id(m) in versions), None)
                if previous is None and top:  # changed, walked whole until now: keep its members' states
                    previous = False
            following = matches[index + 1] if index + 1 < len(groups) else len(old_groups)
            if previous is not None:
                # (if the class ends as its old version did, what follows starts as it did)
                then = bool(previous) and following is not None and following == _position(previous, old_groups) + 1
                walked, same_end = self._walk_class(walker, tree, group[0], previous or None, kept, loops, skip, now,
                                                    then)
                new_groups.append(walked)
                if same_end:
                    at, real, now = following, False, None
                    continue
            else:
                new_groups.append(self._walk(walker, tree, group, loops, skip, now))
            now, at = None, None
            if following is not None and old is not None:
                if state.same(walker, before(following), kept, self.alias):
                    at = following
        converged = at is not None and at == len(old_groups)
        if not real and (top or not converged):
            state.restore(before(at), walker, tree, self.alias)
            real = True
        walker.loop_nodes = list(loops)
        return Run(start, new_groups, old.end if converged else state.take(walker, tree)), real

    def _walk(self, walker: Walker, tree: cst.Module, statements: tuple, loops: list, skip,
              now: state.Snapshot | None) -> Group:
        group = Group(statements, now or state.take(walker, tree))
        self._outputs(walker, group, loops)
        for stmt in statements:
            traverse.walk(stmt, walker, skip)
        self._collect(walker, group, loops)
        self.walked += 1
        return group

    @staticmethod
    def _outputs(walker: Walker, group: Group, loops: list) -> None:
        walker.pending, walker.crashes, walker.functions = group.pending, group.crashes, group.functions
        walker.compile_targets = group.compile_targets
        walker.loop_nodes = list(loops)

    @staticmethod
    def _collect(walker: Walker, group: Group, loops: list) -> None:
        found = walker.loop_nodes[len(loops):]
        group.loop_nodes.extend(found)
        loops.extend(found)

    def _walk_class(self, walker: Walker, tree: cst.Module, cls: cst.ClassDef, previous: Group | None,
                    kept: set[int], loops: list, skip, now: state.Snapshot | None,
                    then: bool) -> tuple[Group, bool]:
        """A changed class, member by member: the walk its members' groups need, as `_walk`
        of the class would do it (libcst's order: the class's own fields, its body's).
        Also whether the state after the class is the one after `previous` (then, when
        `then` allows, it is not put in the walker: the caller goes on as after the old
        version)."""
        group = Group((cls,), now or state.take(walker, tree))
        block = cls.body
        if previous is not None:  # the class's and its body's old versions stand for the new ones
            for old_node, new_node in ((previous.statements[0], cls), (previous.statements[0].body, block)):
                self.alias[id(old_node)] = (old_node, new_node)
        head = Group((), group.before)
        self._outputs(walker, head, loops)
        walker.on_visit(cls)
        for name in traverse.child_fields(cls):
            if name != "body":
                _walk_field(cls, name, walker, skip)
        walker.on_visit(block)
        _walk_field(block, "header", walker, skip)
        self._collect(walker, head, loops)
        inner, real = self._run(walker, tree, block.body, previous.inner if previous is not None else None, kept,
                                loops, skip)
        old_tail = previous.tail if previous is not None else None
        same_end = then and not real and old_tail is not None and not (old_tail.pending or old_tail.crashes)
        if same_end:  # (leaving the class would do what it did: nothing it reports, the same state)
            tail = old_tail
            loops.extend(tail.loop_nodes)
        else:
            if not real:
                state.restore(inner.end, walker, tree, self.alias)
            tail = Group((), inner.end)
            self._outputs(walker, tail, loops)
            _walk_field(block, "footer", walker, skip)
            walker.on_leave(block)
            walker.on_leave(cls)
            self._collect(walker, tail, loops)
        for part in (head, *inner.groups, tail):
            group.pending.extend(part.pending)
            group.crashes.extend(part.crashes)
            group.functions.update(part.functions)
            group.compile_targets.extend(part.compile_targets)
            group.loop_nodes.extend(part.loop_nodes)
        group.head, group.inner, group.tail = head, inner, tail
        return group, same_end

    def _ids(self, stmt: cst.BaseStatement) -> frozenset[int]:
        """The ids of a statement's nodes (a class's from its members', listed once each)."""
        members = splice.members_of(stmt)
        if members is None:
            return frozenset(map(id, traverse.iter_nodes(stmt)))
        ids = set(map(id, traverse.iter_nodes(stmt, prune=lambda node: node is stmt.body)))
        ids.add(id(stmt.body))
        for member in members:
            known = self.member_ids.get(id(member))
            if known is None or known[0] is not member:
                known = self.member_ids[id(member)] = (member, frozenset(map(id, traverse.iter_nodes(member))))
            ids |= known[1]
        return frozenset(ids)

    def _locate_members(self, parsed: splice.Parsed, index: int, offset: int, here: list, found) -> None:
        """`found` for the nodes of `here` in the members of the class at `index`."""
        cls = parsed.tree.body[index]
        header, spans, _ = splice.layout(parsed, index)
        indent = cls.body.indent if cls.body.indent is not None else parsed.tree.default_indent
        line = offset + header
        for member, span in zip(cls.body.body, spans):
            ids = self.member_ids.get(id(member))
            if ids is not None and ids[0] is member:
                inside = [n for n in here if id(n) in ids[1]]
                if inside:
                    kept = self.member_places.get(id(member))
                    if kept is None or kept[0] is not member:
                        kept = self.member_places[id(member)] = (member, {})
                    found(member, kept[1], line, inside, indent)
            line += span

    def _place(self, stmt: cst.BaseStatement) -> list:
        """[statement, ids of its nodes (None until the analysis ends), {node: range within it}]."""
        kept = self.places.get(id(stmt))
        if kept is None or kept[0] is not stmt:
            kept = self.places[id(stmt)] = [stmt, None, {}]
        return kept

    def _locate(self, parsed: splice.Parsed, nodes) -> dict[cst.CSTNode, CodeRange]:
        """Positions of `nodes`: each statement (or class member) generated alone, once per
        statement and node, then shifted to where it starts now."""
        tree = parsed.tree
        wanted = {id(n): n for n in nodes}
        out: dict[cst.CSTNode, CodeRange] = {}
        offsets = splice.line_starts(parsed.header, parsed.spans)

        def found(stmt, ranges: dict, offset: int, here: list, indent: str = "") -> None:
            missing = [n for n in here if n not in ranges]
            if missing:
                ranges.update(traverse.positions(tree, missing, within=stmt, indent=indent))
            for n in here:
                r = ranges.get(n)
                if r is not None:
                    out[n] = CodeRange(CodePosition(r.start.line + offset, r.start.column),
                                       CodePosition(r.end.line + offset, r.end.column))
                    del wanted[id(n)]

        fresh = []  # statements whose nodes were never listed: just generated, for what is left
        for index, (stmt, offset) in enumerate(zip(tree.body, offsets)):
            place = self._place(stmt)
            if place[1] is None:
                fresh.append((place, offset))
            elif wanted:
                here = [n for key, n in wanted.items() if key in place[1]]
                if here and splice.members_of(stmt) is not None:
                    self._locate_members(parsed, index, offset, here, found)
                    here = [n for n in here if id(n) in wanted]
                if here:
                    found(stmt, place[2], offset, here)
        for place, offset in fresh:
            if wanted:
                found(place[0], place[2], offset, list(wanted.values()))
        if wanted:  # the module itself, or its header or footer
            out.update(traverse.positions(tree, list(wanted.values())))
        return out
