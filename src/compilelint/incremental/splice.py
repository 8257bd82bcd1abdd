"""Re-parse only the top-level statements an edit touches.

libcst's parse of a 1,000-line file costs ~80 ms; an edit usually changes one statement.
`reparse` parses the statements that hold the changed lines, puts
them in place of the old ones in the old tree, and gives back the old node of every
statement whose text did not change, so the walk can recognise it. Whenever the splice
could differ from a whole parse (the edit reaches the file's first or last lines, the
piece's indentation or newline differ from the file's, comments left over at the end of
the piece), it parses the whole text instead. The result is always the tree that
`libcst.parse_module(text)` builds (tests compare them node for node).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst


@dataclass
class Parsed:
    """A text, its tree, and how many lines each top-level statement takes (its leading
    comments and blank lines included)."""

    text: str
    lines: list[str]  # the text's lines, with their ends
    tree: cst.Module
    header: int  # lines before the first statement
    spans: list[int]  # lines of each statement of tree.body
    # id(class) -> (class, lines before its first member, each member's lines, lines after):
    # for the classes whose members were asked for (a class keeps its entry while unchanged)
    layouts: dict[int, tuple] = field(default_factory=dict)


def _spans(tree: cst.Module, body) -> list[int]:
    return [tree.code_for_node(stmt).count("\n") for stmt in body]


def parse(text: str) -> Parsed:
    """The whole text (raises libcst.ParserSyntaxError)."""
    tree = cst.parse_module(text)
    header = sum(1 for _ in tree.header)
    return Parsed(text, text.splitlines(keepends=True), tree, header, _spans(tree, tree.body))


def reparse(old: Parsed | None, text: str) -> Parsed:
    """`text` parsed, reusing what it can of `old` (the previous version of the buffer)."""
    if old is None or not old.tree.has_trailing_newline or not text.endswith(("\n", "\r")):
        return parse(text)
    spliced = _splice(old, text)
    return spliced if spliced is not None else parse(text)


def _splice(old: Parsed, text: str) -> Parsed | None:
    lines = text.splitlines(keepends=True)
    before, after = old.lines, lines
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    if prefix == len(before) == len(after):
        return Parsed(text, lines, old.tree, old.header, old.spans, old.layouts)
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    changed_from, changed_to = prefix, len(before) - suffix  # old lines [from, to) changed
    starts = line_starts(old.header, old.spans)
    line = old.header + sum(old.spans)
    body = old.tree.body
    first, last = _touched(starts, old.spans, changed_from, changed_to)
    if first is None or changed_from < old.header or changed_to > line:
        return None  # in the file's header or footer
    delta = len(after) - len(before)
    if first == last and members_of(body[first]) is not None:
        inside = _splice_members(old, text, lines, first, starts[first], changed_from, changed_to, delta)
        if inside is not None:
            return inside
    region_start = starts[first]
    region_end = starts[last] + old.spans[last] + delta
    if region_end < region_start:
        return None
    piece_text = "".join(after[region_start:region_end])
    try:
        piece = cst.parse_module(piece_text)
    except Exception:  # noqa: BLE001 - a whole parse reports the error as it is
        return None
    tree = old.tree
    if piece.footer or (piece_text and piece.default_indent != tree.default_indent) \
            or piece.default_newline != tree.default_newline or not piece.body and piece_text.strip():
        return None
    new_body = list(piece.body)
    if piece.header and first == 0:
        return None  # comments above the file's first statement are the module's header
    if piece.header and new_body:  # leading comments of the first statement
        new_body[0] = new_body[0].with_changes(leading_lines=(*piece.header, *new_body[0].leading_lines))
    elif piece.header:
        return None
    new_spans = _settle(piece, new_body, before, after, body, starts, old.spans, first, last, region_start, region_end)
    if new_spans is None:
        return None
    full_body = (*body[:first], *new_body, *body[last + 1:])
    spans = [*old.spans[:first], *new_spans, *old.spans[last + 1:]]
    return Parsed(text, lines, tree.with_changes(body=full_body), old.header, spans, _kept_layouts(old, full_body))


def line_starts(origin: int, spans: list[int]) -> list[int]:
    """Where each of consecutive statements of `spans` lines starts, the first at `origin`."""
    starts = []
    for span in spans:
        starts.append(origin)
        origin += span
    return starts


def _touched(starts: list[int], spans: list[int], changed_from: int, changed_to: int) -> tuple:
    """(first, last) index of the statements holding the changed lines [from, to), both
    where a change meets the line between two (an edit at an edge may move lines)."""
    first = last = None
    for index, start in enumerate(starts):
        if start + spans[index] >= changed_from and start <= changed_to:
            first = index if first is None else first
            last = index
    return first, last


def _settle(piece: cst.Module, new: list, before: list[str], after: list[str], old: list, starts: list[int],
            spans: list[int], first: int, last: int, region_start: int, region_end: int) -> list[int] | None:
    """The lines of each of `new` (the statements parsed in place of `old[first:last + 1]`,
    which started at `starts` and took `spans` lines of `before`), and, where a statement's
    text is unchanged, its old node put back in `new` (same text, same subtree). None
    when lines at the piece's edges may belong to a neighbour: a wider parse decides."""
    # Indented lines between a block and the next statement may belong to either.
    if new and first > 0 and _indented_lines(new[0]) and _has_block(old[first - 1]):
        return None
    if last + 1 < len(old) and _indented_lines(old[last + 1]) and (not new or _has_block(new[-1])):
        return None
    # (the last statement's lines are what the others leave: one statement needs no codegen)
    new_spans = _spans(piece, new[:-1])
    if new:
        new_spans.append(region_end - region_start - sum(new_spans))
    old_texts: dict[str, list[cst.BaseStatement]] = {}
    for index in range(first, last + 1):
        old_texts.setdefault("".join(before[starts[index]:starts[index] + spans[index]]), []).append(old[index])
    cursor = region_start
    for position, span in enumerate(new_spans):
        same = old_texts.get("".join(after[cursor:cursor + span]))
        if same:
            new[position] = same.pop(0)  # each old node once: identical texts stay distinct nodes
        cursor += span
    return new_spans


def _kept_layouts(old: Parsed, body) -> dict[int, tuple]:
    live = {id(stmt) for stmt in body}
    return {key: value for key, value in old.layouts.items() if key in live}


def members_of(stmt: cst.BaseStatement):
    """A class's body statements, when it has an indented body."""
    if isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock) and stmt.body.body:
        return stmt.body.body
    return None


def layout(parsed: Parsed, index: int) -> tuple[int, list[int], int]:
    """(lines before the first member, each member's lines, lines after the last) of the
    class at `index` of the tree's body (computed once per class node)."""
    cls = parsed.tree.body[index]
    kept = parsed.layouts.get(id(cls))
    if kept is None or kept[0] is not cls:
        spans = _spans(parsed.tree, cls.body.body)
        footer = len(cls.body.footer)
        kept = parsed.layouts[id(cls)] = (cls, parsed.spans[index] - sum(spans) - footer, spans, footer)
    return kept[1], kept[2], kept[3]


def _splice_members(old: Parsed, text: str, lines: list[str], index: int, start: int, changed_from: int,
                    changed_to: int, delta: int) -> Parsed | None:
    """The edit falls inside one class: parse only the members it touched (inside a stand-in
    `class _:` at the same indentation, so that strings and blocks parse as they do there)
    and keep the class's other members as they are."""
    cls = old.tree.body[index]
    members = list(cls.body.body)
    header, spans, footer = layout(old, index)
    starts = line_starts(start + header, spans)
    if changed_from < start + header or changed_to > start + header + sum(spans):
        return None  # the class's own lines (its `class` line, decorators, trailing comments)
    first, last = _touched(starts, spans, changed_from, changed_to)
    if first is None or (footer and last == len(members) - 1):
        return None
    region_start, region_end = starts[first], starts[last] + spans[last] + delta
    if region_end <= region_start:
        return None
    piece_text = "".join(lines[region_start:region_end])
    try:
        piece = cst.parse_module("class _:\n" + piece_text)
    except Exception:  # noqa: BLE001 - the statement-level splice, or a whole parse, decides
        return None
    tree = old.tree
    if piece.header or piece.footer or len(piece.body) != 1 or piece.default_indent != tree.default_indent \
            or piece.default_newline != tree.default_newline:
        return None
    stand_in = piece.body[0]
    block = stand_in.body
    if not isinstance(block, cst.IndentedBlock) or block.footer or block.indent != cls.body.indent \
            or block.header.comment is not None or block.header.whitespace.value:
        return None
    new_members = list(block.body)
    new_spans = _settle(piece, new_members, old.lines, lines, members, starts, spans, first, last, region_start,
                        region_end)
    if new_spans is None:
        return None
    all_members = (*members[:first], *new_members, *members[last + 1:])
    new_cls = cls.with_changes(body=cls.body.with_changes(body=all_members))
    body = (*tree.body[:index], new_cls, *tree.body[index + 1:])
    top_spans = [*old.spans[:index], old.spans[index] + delta, *old.spans[index + 1:]]
    layouts = _kept_layouts(old, body)
    layouts[id(new_cls)] = (new_cls, header, [*spans[:first], *new_spans, *spans[last + 1:]], footer)
    return Parsed(text, lines, tree.with_changes(body=body), old.header, top_spans, layouts)


def _indented_lines(stmt: cst.BaseStatement) -> bool:
    """Whether a comment or blank line before `stmt` starts with whitespace."""
    return any(line.whitespace.value for line in stmt.leading_lines)


def _has_block(stmt: cst.BaseStatement) -> bool:
    return not isinstance(stmt, cst.SimpleStatementLine)
