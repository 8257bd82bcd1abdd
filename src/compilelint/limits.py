"""Limits that keep one pathological file from stopping or stalling the run.

libcst's native parser recurses once per nesting level: brackets nested a couple of
thousand deep, or ``a and a and ...`` thirty thousand long, overflow the C stack (a
segfault, not an exception), and chains like ``a[0][0]...``, ``f()()...``, ``- - - x`` or
``a if b else a if b else ...`` a thousand deep take seconds to minutes to parse before the
walk over them runs out of Python recursion (rules that recurse over expressions run out
sooner). CPython itself refuses brackets nested more than 200 deep and gives up on ASTs a
few thousand deep, so nothing that deep is working code.

:func:`screen` decides, for about 1% of the parse time, how to treat a text:

- a string-aware scan measures each logical line (bracket depth, length without its
  strings and comments); chains of any kind need a long logical line, ``elif`` chains
  need many ``elif`` s. Most files stop here and are analysed as they are.
- a file with a long logical line (or deep brackets, or many ``elif`` s) is analysed in a
  thread with a large stack and a raised recursion limit (:func:`call_deep`), so deep but
  sane code is analysed in full and native code cannot overflow the stack;
- a file with a very long line (or very deep brackets, or an ``elif`` chain) is measured
  first with Python's own C parser (:func:`ast.parse`, which never executes anything), on
  just those lines where it can: deeper than :data:`MAX_DEPTH` levels is a CL000
  ("nesting too deep") and is never handed to libcst.
"""

from __future__ import annotations

import ast
import os
import queue
import re
import sys
import threading
from dataclasses import dataclass, field

#: Syntactic nesting (levels of Python's AST, an `a and b and c` chain counted as libcst
#: nests it) that is analysed; deeper: CL000. Real code stays under about 40.
MAX_DEPTH = 400
#: CPython's tokenizer refuses more than this many nested brackets.
MAX_BRACKETS = 200
#: Files larger than this are not parsed (libcst needs a few hundred times a file's size
#: in memory: a 4 MiB file takes about a gigabyte). Generated data files are the usual case.
MAX_BYTES = 4 * 1024 * 1024

# Beyond these (per logical line: characters outside strings and comments, bracket depth;
# per file: `elif`s), analyse in a thread with a big stack and a high recursion limit.
_DEEP_LINE, _DEEP_BRACKETS, _DEEP_ELIFS = 200, 30, 100
# Beyond these, measure the depth with Python's parser before libcst sees the text.
_MEASURE_LINE, _MEASURE_BRACKETS, _MEASURE_ELIFS = 1500, 120, 150
_MAX_SNIPPETS = 20
_BIG_STACK = 512 * 1024 * 1024
_DEEP_RECURSION = 20_000

# A run of uninteresting characters, then one token: a line end, a bracket, a string
# (triple or single quoted; an unterminated one runs to the end of its line or of the
# text), a comment or a backslash; or the end of the text. Every alternative always
# matches once started, so the regex never backtracks into a string body or a run.
# (String prefixes are in the run; one capturing group: named groups cost twice the time.)
_SCAN = re.compile(
    r"""
    [^'"\#()\[\]{}\\\r\n]*
    (
        \r\n|\r|\n
      | [(\[{]
      | [)\]}]
      | '''(?:[^'\\]+|\\.|'(?!''))*(?:'''|\\?\Z)
      | \"\"\"(?:[^"\\]+|\\.|"(?!""))*(?:\"\"\"|\\?\Z)
      | '(?:[^'\\\r\n]+|\\.)*'?
      | "(?:[^"\\\r\n]+|\\.)*"?
      | \#[^\r\n]*
      | \\(?:\r\n|\r|\n)?
      | \Z
    )
    """,
    re.VERBOSE | re.DOTALL,
)
_NESTING_MESSAGES = ("too many nested", "too many levels of indentation", "too many indentation levels",
                     "too complex", "maximum recursion")


@dataclass(slots=True)
class Shape:
    brackets: int = 0  # deepest bracket nesting outside strings and comments
    logical_line: int = 0  # longest logical line: characters outside strings and comments
    elifs: int = 0  # occurrences of "elif" (an upper bound on the longest elif chain)
    long_lines: list[tuple[int, int]] = field(default_factory=list)  # (start, end) to measure


def measure(text: str) -> Shape:
    """Bracket depth and logical line lengths, strings and comments skipped; the spans of
    the logical lines that need measuring. An f-string's brackets count where it stands."""
    shape = Shape(elifs=text.count("elif"))
    spans = shape.long_lines
    depth = line_depth = deepest = longest = 0
    start = skipped = 0  # skipped: string and comment characters in this logical line
    for match in _SCAN.finditer(text):
        begin, end = match.span(1)
        if begin == end:
            break  # the end of the text
        first = text[begin]
        if first == "\n" or first == "\r":
            if depth == 0:
                length = begin - start - skipped
                if length > longest:
                    longest = length
                if length > _MEASURE_LINE or line_depth > _MEASURE_BRACKETS:
                    spans.append((start, begin))
                if line_depth > deepest:
                    deepest = line_depth
                start, skipped, line_depth = end, 0, 0
        elif first in "([{":
            depth += 1
            if depth > line_depth:
                line_depth = depth
        elif first in ")]}":
            if depth:
                depth -= 1
        elif first == "#":
            skipped += end - begin - 1
        elif first != "\\":  # a string
            skipped += end - begin - 1
            if begin and (text[begin - 1] in "fF" or (begin > 1 and text[begin - 2] in "fF")):
                token = text[begin:end]
                if "{" in token:
                    inner = token.count("(") + token.count("[") + token.count("{")
                    if depth + inner > line_depth:
                        line_depth = depth + inner
    length = len(text) - start - skipped
    if length > longest:
        longest = length
    if length > _MEASURE_LINE or line_depth > _MEASURE_BRACKETS:
        spans.append((start, len(text)))
    shape.brackets = max(deepest, line_depth)
    shape.logical_line = longest
    return shape


def ast_depth(tree: ast.AST) -> int:
    """Levels of `tree`, without recursion; `a and b and c` counts as libcst nests it."""
    deepest = 0
    stack = [(tree, 1)]
    children = ast.iter_child_nodes
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        for child in children(node):
            stack.append((child, depth + step))
    return deepest


@dataclass(slots=True)
class Verdict:
    problem: str | None = None  # set: do not parse; report this (CL000)
    line: int = 1
    deep: bool = False  # analyse with call_deep


_HEADER = re.compile(r"(elif|else|except|finally|case)\b")


def _snippet(text: str, start: int, end: int) -> str:
    """One logical line as a text Python can parse on its own."""
    code = text[start:end].strip()
    keyword = _HEADER.match(code)
    if keyword:
        word = keyword.group(1)
        if word == "elif":
            code = "if" + code[4:]
        elif word == "else":
            code = "if 1:\n pass\n" + code
        elif word in ("except", "finally"):
            code = "try:\n pass\n" + code
        else:
            code = "match _:\n " + code
    if code.startswith("@"):
        code += "\ndef _(): pass"
    elif code.endswith(":"):
        code += "\n pass"
    return code


def _parse_depth(code: str, first_line: int = 1) -> tuple[int | None, Verdict | None]:
    """(depth, None), or (None, a verdict: a CL000), or (None, None): cannot tell."""
    for attempt in (1, 2):
        try:
            tree = ast.parse(code)  # CPython's C parser: parses, never executes
            break
        except SystemError:
            # CPython 3.11 keeps the AST constructor's depth count per interpreter: another
            # thread building an AST at the same time makes it report a "mismatch".
            if attempt == 2:
                return None, None
        except SyntaxError as exc:
            return _syntax_verdict(exc, first_line)
        except (RecursionError, MemoryError):
            return None, Verdict("nesting too deep to analyse (Python's own parser gives up on it)", first_line)
        except (ValueError, OverflowError):
            return None, None
    return ast_depth(tree), None


def _syntax_verdict(exc: SyntaxError, first_line: int) -> tuple[int | None, Verdict | None]:
    message = str(exc.msg or "")
    if any(part in message for part in _NESTING_MESSAGES):
        return None, Verdict(f"nesting too deep to analyse: {message}", first_line + (exc.lineno or 1) - 1)
    return None, None


def screen(text: str) -> Verdict:
    """How to treat `text` (see the module's docstring)."""
    shape = measure(text)
    if shape.logical_line <= _DEEP_LINE and shape.brackets <= _DEEP_BRACKETS and shape.elifs <= _DEEP_ELIFS:
        return Verdict()
    deepest = 0
    whole_file = shape.elifs > _MEASURE_ELIFS or len(shape.long_lines) > _MAX_SNIPPETS
    if not whole_file:
        for start, end in shape.long_lines:
            first_line = text.count("\n", 0, start) + 1
            depth, verdict = _parse_depth(_snippet(text, start, end), first_line)
            if verdict is not None:
                return verdict
            if depth is None:  # it does not parse on its own: measure the whole file
                whole_file = True
                break
            indent = start - (text.rfind("\n", 0, start) + 1)
            deepest = max(deepest, depth + indent // 2)
    if whole_file:
        depth, verdict = _parse_depth(text)
        if verdict is not None:
            return verdict
        if depth is None and shape.brackets > MAX_BRACKETS:
            return Verdict(f"nesting too deep to analyse: brackets nested {shape.brackets} deep "
                           f"(Python allows {MAX_BRACKETS})")
        deepest = depth or 0
    if deepest > MAX_DEPTH:
        return Verdict(f"nesting too deep to analyse: {deepest} levels (the limit is {MAX_DEPTH})")
    return Verdict(deep=True)


class _DeepWorker:
    """One thread with a large stack that runs what `call_deep` is given, one call at a
    time: starting such a thread costs ~10 ms, more than the language server's whole
    re-analysis of an edit, so it is started once per process (after a fork, again)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # one caller at a time: the recursion limit is global
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.pid = 0

    def _serve(self) -> None:
        while True:
            function, args, outcome, done = self.jobs.get()
            try:
                outcome.append((True, function(*args)))
            except BaseException as exc:  # handed back to the caller's thread
                outcome.append((False, exc))
            done.set()
            function = args = outcome = done = None  # (nothing kept alive until the next call)

    def _started(self) -> bool:
        if self.thread is not None and self.pid == os.getpid() and self.thread.is_alive():
            return True
        try:
            previous = threading.stack_size(_BIG_STACK)
        except (ValueError, RuntimeError):
            return False
        try:
            self.jobs = queue.SimpleQueue()
            self.thread = threading.Thread(target=self._serve, name="compilelint-deep", daemon=True)
            self.thread.start()
            self.pid = os.getpid()
        except RuntimeError:
            self.thread = None
            return False
        finally:
            threading.stack_size(previous)
        return True

    def call(self, function, args):
        if threading.current_thread() is self.thread:
            return function(*args)  # (called from a call it runs)
        with self.lock:
            if not self._started():
                return function(*args)
            limit = sys.getrecursionlimit()
            # The limit is per interpreter; the caller only waits meanwhile, and only the
            # thread with the big stack recurses deeply while it is raised.
            sys.setrecursionlimit(max(limit, _DEEP_RECURSION))
            outcome: list = []
            done = threading.Event()
            try:
                self.jobs.put((function, args, outcome, done))
                done.wait()
            finally:
                sys.setrecursionlimit(limit)
        ok, value = outcome[0]
        if ok:
            return value
        raise value


_WORKER = _DeepWorker()


def call_deep(function, *args):
    """`function(*args)` in a thread with a large stack (reserved, not committed, memory)
    and a high recursion limit, so that deep but sane code is analysed in full and deep
    recursion in native code cannot overflow the main thread's stack. The calling thread
    waits; falls back to a plain call where such a thread cannot be made."""
    return _WORKER.call(function, args)


_ERROR_AT = re.compile(r"^(?:parser error: )?error at (\d+):(\d+): ")
_PYTHON2 = re.compile(
    r"^[ \t]*(?:print[ \t]+(?:[\"'\w>]|$)|exec[ \t]+[\"'\w]|raise[ \t]+\w+[ \t]*,)"
    r"|^[ \t]*except[ \t]+[\w.]+[ \t]*,[ \t]*\w+[ \t]*:|`[^`\n]+`|<>",
    re.MULTILINE,
)


def syntax_error(exc, text: str) -> tuple[str, int, int]:
    """(message, line, column) for a libcst ParserSyntaxError: the position libcst's
    message names (its attributes point at the start of the line), the long list of
    expected tokens shortened, and a hint when the file looks like Python 2."""
    raw = str(getattr(exc, "message", "") or "invalid syntax")
    line = getattr(exc, "raw_line", 1) or 1
    col = (getattr(exc, "raw_column", 0) or 0) + 1
    match = _ERROR_AT.match(raw)
    if match:
        line, col = int(match.group(1)), max(int(match.group(2)), 1)
        raw = raw[match.end():]
    if raw.startswith("expected one of ") and raw.count(",") > 5:
        raw = "invalid syntax"
    message = f"syntax error: {raw}"
    if _PYTHON2.search(text):
        message += " (this looks like Python 2 code; compilelint checks Python 3)"
    return message, max(line, 1), col
