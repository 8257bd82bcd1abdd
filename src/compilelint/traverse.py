"""Fast read-only walks over a libcst tree, and positions for just the nodes reported.

libcst's ``node.visit(visitor)`` is written for transformers: it rebuilds every node it
passes (with validation) and calls two attribute hooks per field. A read-only walk needs
neither; on transformers that machinery costs more than parsing. :func:`walk` calls
``visitor.on_visit(node)`` (children only when it returns true) and
``visitor.on_leave(node)`` in exactly libcst's order — each node class's children in the
order of its ``_visit_and_replace_children``, recorded once per class — and nothing else
(no ``visit_<Node>_<field>`` attribute hooks).

:func:`positions` gives what ``MetadataWrapper(tree).resolve(PositionProvider)`` gives, for
the nodes asked for only: one plain code generation pass that records line and column
when a wanted node starts and ends, instead of computing both after every token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import contextmanager, nullcontext

import libcst as cst
from libcst import MaybeSentinel
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import PositionProvidingCodegenState

_SENTINEL = MaybeSentinel.DEFAULT
_FIELDS: dict[type, tuple[str, ...]] = {}
# Fields some `_visit_and_replace_children` visit only when not None (libcst 1.1 to 1.9).
_CONDITIONAL = ("format_spec",)


class _FieldRecorder(cst.CSTVisitor):
    """Notes the field names `_visit_and_replace_children` visits, without descending."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def child_fields(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of `node` that libcst visits, in its order."""
    cls = type(node)
    fields = _FIELDS.get(cls)
    if fields is not None:
        return fields
    recorder = _FieldRecorder()
    node._visit_and_replace_children(recorder)
    fields = tuple(recorder.fields)
    # A few classes skip a field when it is None (FormattedStringExpression.format_spec):
    # trust such a recording for the class only once it includes that field.
    if not any(name not in fields and hasattr(node, name) for name in _CONDITIONAL):
        _FIELDS[cls] = fields
    return fields


def _trivia_classes() -> frozenset[type]:
    """Node classes that are only layout (whitespace, comments, brackets, commas, operator
    tokens): their subtrees hold nothing but other such classes."""
    bases = (cst.BaseParenthesizableWhitespace, cst.BaseBinaryOp, cst.BaseBooleanOp,
             cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp)
    exact = (cst.EmptyLine, cst.TrailingWhitespace, cst.Comment, cst.Newline, cst.LeftParen,
             cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
             cst.RightCurlyBrace, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual,
             cst.Asynchronous)
    found = set(exact)
    stack = list(bases)
    while stack:  # the bases' subclasses (not dir(cst): that loads libcst's lazy modules)
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    return frozenset(found)


TRIVIA: frozenset[type] = _trivia_classes()
_TRIVIA_NAMES = frozenset(cls.__name__ for cls in TRIVIA)
_NOTHING: frozenset[type] = frozenset()


def skippable(handled: Iterable[str]) -> frozenset[type]:
    """The classes a walk may leave out when the visitor acts only on node classes named in
    `handled`: all the layout classes, or none when it acts on any of them."""
    return _NOTHING if _TRIVIA_NAMES.intersection(handled) else TRIVIA


def walk(node: cst.CSTNode, visitor, skip: frozenset[type] = _NOTHING) -> None:
    """Visit `node` and its descendants with `visitor.on_visit` / `visitor.on_leave`, in
    libcst's order, leaving out nodes of the classes in `skip` and their subtrees (see
    :func:`skippable`)."""
    on_visit, on_leave, fields_of, sentinel = visitor.on_visit, visitor.on_leave, _FIELDS, _SENTINEL

    def go(node: cst.CSTNode) -> None:
        if on_visit(node):
            fields = fields_of.get(type(node))
            if fields is None:
                fields = child_fields(node)
            for name in fields:
                value = getattr(node, name)
                if isinstance(value, (tuple, list)):
                    for child in value:
                        if type(child) not in skip:
                            go(child)
                elif value is not None and value is not sentinel and type(value) not in skip:
                    go(value)
        on_leave(node)

    go(node)


def children(node: cst.CSTNode, skip: frozenset[type] = _NOTHING) -> list[cst.CSTNode]:
    """`node`'s children in libcst's order, less the classes in `skip`."""
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = child_fields(node)
    out = []
    for name in fields:
        value = getattr(node, name)
        if isinstance(value, (tuple, list)):
            out.extend([child for child in value if type(child) not in skip])
        elif value is not None and value is not _SENTINEL and type(value) not in skip:
            out.append(value)
    return out


def iter_nodes(node: cst.CSTNode, prune=None, skip: frozenset[type] = _NOTHING):
    """Every node under `node` (itself included) in libcst's visiting order, less the
    classes in `skip` and their subtrees; below a node for which `prune(node)` is true,
    nothing (the node itself is still yielded)."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    fields_of, sentinel = _FIELDS, _SENTINEL
    while stack:
        current = pop()
        yield current
        if prune is not None and current is not node and prune(current):
            continue
        fields = fields_of.get(type(current))
        if fields is None:
            fields = child_fields(current)
        children = []
        for name in fields:
            value = getattr(current, name)
            if isinstance(value, (tuple, list)):
                children.extend(child for child in value if type(child) not in skip)
            elif value is not None and value is not sentinel and type(value) not in skip:
                children.append(value)
        children.reverse()
        push(children)


# ---- one flat list per subtree, for the scans many parts make of the same function body ----

# id(node) -> (node, nodes, ends). A hit is checked by identity, so a stale entry is never
# used; leaving the outermost `fast_visits` (a file's walk, or the server's walk of an edit)
# empties the cache, which would otherwise hold every tree walked.
_SCANS: dict[int, tuple[cst.CSTNode, list[cst.CSTNode], list[int]]] = {}
_PRUNED: dict[tuple, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}


def scan_spans(node: cst.CSTNode) -> tuple[list[cst.CSTNode], list[int]]:
    """`node`'s subtree in libcst's order, layout (TRIVIA) left out, and for each node the
    index just past its own subtree."""
    hit = _SCANS.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1], hit[2]
    nodes: list[cst.CSTNode] = []
    ends: list[int] = []
    stack: list = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        current = pop()
        if type(current) is int:  # the end of the subtree whose root is at that index
            ends[current] = len(nodes)
            continue
        index = len(nodes)
        nodes.append(current)
        ends.append(0)
        below = children(current, TRIVIA)
        below.reverse()
        push((index, *below))
    _SCANS[id(node)] = (node, nodes, ends)
    return nodes, ends


def scan(node: cst.CSTNode, prune=None) -> list[cst.CSTNode]:
    """What ``iter_nodes(node, prune, skip=TRIVIA)`` yields, as a list made once per `node`
    and `prune` (a function body several parts of the walk scan)."""
    nodes, ends = scan_spans(node)
    if prune is None:
        return nodes
    hit = _PRUNED.get((id(node), prune))
    if hit is not None and hit[0] is node:
        return hit[1]
    out = []
    index, total = 0, len(nodes)
    while index < total:
        current = nodes[index]
        out.append(current)
        index = ends[index] if index and prune(current) else index + 1
    _PRUNED[(id(node), prune)] = (node, out)
    return out


# ---- rules' own scans: node.visit(SomeVisitor()) ---------------------------------------

_ORIGINAL_VISIT = cst.CSTNode.__dict__["visit"]
_VISITOR_PLAN: dict[type, frozenset[type] | None] = {}
_patched = 0


def _plan(cls: type) -> frozenset[type] | None:
    """How `walk` can stand in for libcst's visit with a visitor of class `cls`: the
    classes it may leave out, or None when it cannot (a transformer, attribute hooks)."""
    base = cst.CSTVisitor
    if not issubclass(cls, base) or cls.on_visit_attribute is not base.on_visit_attribute \
            or cls.on_leave_attribute is not base.on_leave_attribute:
        return None
    handled = set()
    for klass in cls.__mro__:
        if klass is base:
            break
        for name in vars(klass):
            if name.startswith(("visit_", "leave_")):
                if "_" in name[6:]:
                    return None  # visit_<Node>_<field>: an attribute hook
                handled.add(name[6:])
    if cls.on_visit is not base.on_visit or cls.on_leave is not base.on_leave:
        return _NOTHING  # acts on nodes its own way: walk everything
    return skippable(handled)


def _fast_visit(self, visitor):
    cls = type(visitor)
    try:
        plan = _VISITOR_PLAN[cls]
    except KeyError:
        plan = _VISITOR_PLAN[cls] = _plan(cls)
    if plan is None:
        return _ORIGINAL_VISIT(self, visitor)
    walk(self, visitor, plan)
    return self  # what libcst's visit returns for a CSTVisitor


@contextmanager
def fast_visits():
    """While active, `node.visit(visitor)` with a plain CSTVisitor (the way rules scan a
    subtree) runs through :func:`walk`: same calls, same order, same result, without
    rebuilding the subtree. Transformers and visitors with attribute hooks go to libcst.
    Leaving the outermost drops the flat scans (:func:`scan`) made meanwhile."""
    global _patched
    if _patched == 0:
        cst.CSTNode.visit = _fast_visit
    _patched += 1
    try:
        yield
    finally:
        _patched -= 1
        if _patched == 0:
            cst.CSTNode.visit = _ORIGINAL_VISIT
            _SCANS.clear()
            _PRUNED.clear()


# ---- positions -----------------------------------------------------------------------

_NEWLINE = re.compile(r"\r\n?|\n")
_NULL_CONTEXT = nullcontext()


class _LazyPositionState(PositionProvidingCodegenState):
    """PositionProvider's codegen state, with line/column computed only where a wanted
    node starts or ends (from the tokens emitted since the last time)."""

    __slots__ = ("wanted", "_synced", "_marks")

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)

    def _sync(self) -> None:
        tokens = self.tokens
        if self._synced == len(tokens):
            return
        text = "".join(tokens[self._synced:])
        self._synced = len(tokens)
        if "\r" in text:
            segments = _NEWLINE.split(text)
            if len(segments) == 1:
                self.column += len(text)
            else:
                self.line += len(segments) - 1
                self.column = len(segments[-1])
            return
        newlines = text.count("\n")
        if newlines:
            self.line += newlines
            self.column = len(text) - text.rfind("\n") - 1
        else:
            self.column += len(text)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            self._sync()
            self._marks.append((node, CodePosition(self.line, self.column)))

    def after_codegen(self, node: cst.CSTNode) -> None:
        if self._marks and self._marks[-1][0] is node:
            start = self._marks.pop()[1]
            if node not in self.provider._computed:
                self._sync()
                self.provider._computed[node] = CodeRange(start, CodePosition(self.line, self.column))

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if id(node) not in self.wanted:
            return _NULL_CONTEXT  # most nodes: nothing to record
        return self._record(node, start_node, end_node)

    @contextmanager
    def _record(self, node, start_node, end_node):
        for hoisted in (start_node, end_node):
            if hoisted is not None:
                self.wanted.add(id(hoisted))
        self._sync()
        start = CodePosition(self.line, self.column)
        try:
            yield
        finally:
            self._sync()
            end = CodePosition(self.line, self.column)
            computed = self.provider._computed
            start = computed[start_node].start if start_node is not None else start
            end = computed[end_node].end if end_node is not None else end
            computed[node] = CodeRange(start, end)


class _Store:
    """Stands in for the metadata provider: the state writes positions into `_computed`."""

    __slots__ = ("_computed",)

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, CodeRange] = {}


def positions(module: cst.Module, nodes: Iterable[cst.CSTNode],
              within: cst.CSTNode | None = None, indent: str = "") -> dict[cst.CSTNode, CodeRange]:
    """PositionProvider's CodeRange for each of `nodes` (nodes of `module`). With `within`
    (a statement of `module`, `indent` the indentation of its block), only that statement
    is generated: lines count from its first line (its leading comments included) as 1."""
    store = _Store()
    state = _LazyPositionState(
        default_indent=module.default_indent, default_newline=module.default_newline,
        provider=store,
    )
    if indent:
        state.indent_tokens.append(indent)
    state.wanted = {id(node) for node in nodes}
    state._synced = 0
    state._marks = []
    (module if within is None else within)._codegen(state)
    return store._computed
