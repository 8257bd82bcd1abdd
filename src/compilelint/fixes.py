"""Autofixes: libcst transformations for the rules whose fix is safe.

`apply(text, findings) -> new_text` rewrites what it can and leaves everything else (and
every byte it does not need to touch: formatting, comments, line ends) as it was. It
never raises, and it returns the text unchanged unless the result still parses.

A fix is made only when it cannot change what the program does, beyond the hazard the
rule names; otherwise the finding keeps its suggestion (`Finding.fix`) only:

- CL301 (`m = torch.compile(m)`, then `m.load_state_dict(...)` or `m.state_dict()`):
  the assignment becomes `m.compile(...)` (same keyword arguments), which compiles the
  module in place and keeps its state-dict keys. Only when the very name (or `self.x`)
  is compiled and re-bound, the assignment is the one statement on its line, and nothing
  in the scope reaches for `m._orig_mod` (only the wrapper has it).
- CL302 (`torch.compile` in a loop): the assignment `fn = torch.compile(f, ...)` (or
  `m = torch.compile(m)`) is hoisted above the loop when it is a statement of the loop's
  own body, its arguments are names, attributes and constants the loop does not change
  (no calls: those could have effects), the bound name is neither used earlier in the
  loop nor bound again in it, and (for `while`) the loop's condition does not read it.
  Comments above and beside the statement move with it; those above the loop stay above
  the hoisted statement.

`compilelint rules` marks fixable rules from :data:`FIXERS`; `check --fix` writes fixed
files atomically, `check --diff` prints what `--fix` would change.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from compilelint.atomic import write_bytes
from compilelint.finding import Finding

#: Codes with an automatic fix, and what it does (for `compilelint rules` and the docs).
FIXERS = {
    "CL301": "`m = torch.compile(m)` becomes `m.compile()` (state-dict keys keep their names)",
    "CL302": "the `torch.compile` assignment is hoisted above the loop",
}
COMPILE = "torch.compile"


def fixable(code: str) -> bool:
    return code in FIXERS


# ---- planning: which statements change ---------------------------------------------------

@dataclass
class _Plan:
    rewrite: dict = field(default_factory=dict)  # SimpleStatementLine -> new small statement
    hoist: dict = field(default_factory=dict)  # loop -> [SimpleStatementLine, ...] in order
    hoisted: set = field(default_factory=set)  # ids of SimpleStatementLines moved out
    fixed: list = field(default_factory=list)  # findings acted on

    def empty(self) -> bool:
        return not self.rewrite and not self.hoist


def _dotted(node) -> str | None:
    import libcst as cst

    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


class _Imports:
    """Local names of `torch` and `torch.compile` from the module's imports."""

    def __init__(self, module) -> None:
        import libcst as cst

        self.names: dict[str, str] = {}
        for stmt in module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        full = _dotted(alias.name)
                        if full is None:
                            continue
                        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                            self.names[alias.asname.name.value] = full
                        else:
                            self.names.setdefault(full.split(".")[0], full.split(".")[0])
                elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar) \
                        and small.module is not None and not small.relative:
                    source = _dotted(small.module)
                    for alias in small.names:
                        name = _dotted(alias.name)
                        if source and name:
                            local = alias.asname.name.value if alias.asname is not None and \
                                isinstance(alias.asname.name, cst.Name) else name
                            self.names[local] = f"{source}.{name}"

    def qualify(self, node) -> str | None:
        name = _dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        base = self.names.get(head)
        if base is None:
            return None
        return f"{base}.{rest}" if rest else base


def _is_compile(call, imports: _Imports) -> bool:
    import libcst as cst

    return isinstance(call, cst.Call) and imports.qualify(call.func) == COMPILE


def _simple_args(call) -> bool:
    """Arguments made of names, attributes and constants only (evaluating them has no effect)."""
    import libcst as cst

    def plain(node) -> bool:
        if isinstance(node, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
            return True
        if isinstance(node, cst.Attribute):
            return plain(node.value)
        if isinstance(node, cst.ConcatenatedString):
            return plain(node.left) and plain(node.right)
        if isinstance(node, cst.UnaryOperation):
            return plain(node.expression)
        if isinstance(node, (cst.Tuple, cst.List)):
            return all(plain(e.value) for e in node.elements if isinstance(e, cst.Element))
        if isinstance(node, cst.Dict):
            return all(isinstance(e, cst.DictElement) and plain(e.key) and plain(e.value) for e in node.elements)
        return False

    return all(arg.star == "" and plain(arg.value) for arg in call.args)


def _names_used(node) -> set[str]:
    """Dotted names read in `node` (`self.model` gives `self` and `self.model`)."""
    import libcst as cst

    out: set[str] = set()

    class Finder(cst.CSTVisitor):
        def visit_Name(self, n) -> None:
            out.add(n.value)

        def visit_Attribute(self, n) -> None:
            name = _dotted(n)
            if name:
                out.add(name)

    node.visit(Finder())
    return out


def _bound_in(node) -> dict[str, list]:
    """Dotted names (re)bound anywhere in `node` -> the nodes binding them."""
    import libcst as cst

    out: dict[str, list] = {}

    def add(target, where) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                add(element.value, where)
        elif isinstance(target, cst.StarredElement):
            add(target.value, where)
        else:
            name = _dotted(target)
            if name:
                out.setdefault(name, []).append(where)

    class Finder(cst.CSTVisitor):
        def visit_Assign(self, n) -> None:
            for t in n.targets:
                add(t.target, n)

        def visit_AugAssign(self, n) -> None:
            add(n.target, n)

        def visit_AnnAssign(self, n) -> None:
            add(n.target, n)

        def visit_NamedExpr(self, n) -> None:
            add(n.target, n)

        def visit_For(self, n) -> None:
            add(n.target, n)

        def visit_CompFor(self, n) -> None:
            add(n.target, n)

        def visit_WithItem(self, n) -> None:
            if n.asname is not None:
                add(n.asname.name, n)

        def visit_Del(self, n) -> None:
            add(n.target, n)

        def visit_FunctionDef(self, n) -> None:
            add(n.name, n)

        def visit_ClassDef(self, n) -> None:
            add(n.name, n)

        def visit_ImportAlias(self, n) -> None:
            target = n.asname.name if n.asname is not None else n.name
            add(target if isinstance(target, cst.Name) else cst.Name(_dotted(target).split(".")[0]), n)

        def visit_ExceptHandler(self, n) -> None:
            if n.name is not None:
                add(n.name.name, n)

        def visit_Global(self, n) -> None:
            for item in n.names:
                add(item.name, n)

        def visit_Nonlocal(self, n) -> None:
            for item in n.names:
                add(item.name, n)

    node.visit(Finder())
    return out


def _affected(name: str, bound: dict[str, list], skip=None) -> bool:
    """Whether `name` (or what it is an attribute of, or an attribute of it) is re-bound."""
    for other, where in bound.items():
        if skip is not None:
            where = [w for w in where if w is not skip]
            if not where:
                continue
        if other == name or name.startswith(other + ".") or other.startswith(name + "."):
            return True
    return False


class _Locator:
    """Nodes by position, parents, scopes."""

    def __init__(self, wrapper) -> None:
        import libcst as cst
        from libcst.metadata import ParentNodeProvider, PositionProvider

        self.positions = wrapper.resolve(PositionProvider)
        self.parents = wrapper.resolve(ParentNodeProvider)
        self.calls: dict[tuple[int, int], list] = {}
        for node, pos in self.positions.items():
            if isinstance(node, cst.Call):
                self.calls.setdefault((pos.start.line, pos.start.column + 1), []).append(node)

    def parent(self, node):
        return self.parents.get(node)

    def scope(self, node):
        """The nearest enclosing function (or the module)."""
        import libcst as cst

        current = self.parent(node)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module, cst.Lambda)):
            current = self.parent(current)
        return current

    def enclosing_class(self, node):
        import libcst as cst

        current = self.parent(node)
        while current is not None and not isinstance(current, (cst.ClassDef, cst.Module)):
            current = self.parent(current)
        return current if isinstance(current, cst.ClassDef) else None

    def statement_line(self, node):
        """(SimpleStatementLine, small statement) holding `node`, or (None, None)."""
        import libcst as cst

        small, current = None, node
        while current is not None:
            parent = self.parent(current)
            if isinstance(parent, cst.SimpleStatementLine):
                return parent, current
            if isinstance(parent, (cst.SimpleStatementSuite, cst.BaseCompoundStatement)):
                return None, None
            current = parent
        return None, small


def _assignment(locator: _Locator, call):
    """(line, Assign) when `call` is the whole value of a one-target assignment that is the
    only statement on its line."""
    import libcst as cst

    line, small = locator.statement_line(call)
    if line is None or len(line.body) != 1 or not isinstance(small, cst.Assign):
        return None, None
    if small.value is not call or len(small.targets) != 1:
        return None, None
    return line, small


def _plan_cl301(finding: Finding, locator: _Locator, imports: _Imports, module, plan: _Plan) -> None:
    import libcst as cst

    call = next((c for c in locator.calls.get((finding.line, finding.col), ())
                 if isinstance(c.func, cst.Attribute) and c.func.attr.value in ("load_state_dict", "state_dict")),
                None)
    if call is None:
        return
    receiver = _dotted(call.func.value)
    if receiver is None:
        return
    if receiver.startswith("self."):
        where = locator.enclosing_class(call)
    else:
        where = locator.scope(call)
    if where is None:
        return
    candidates = []

    class Finder(cst.CSTVisitor):
        def visit_Assign(self, node) -> None:
            if len(node.targets) == 1 and _dotted(node.targets[0].target) == receiver:
                candidates.append(node)

        def visit_FunctionDef(self, node) -> bool:
            # a name: only this function's own statements; self.x: every method's
            return receiver.startswith("self.") or node is where

    where.visit(Finder())
    compiles = [a for a in candidates if _is_compile(a.value, imports)]
    if len(compiles) != 1:
        return  # compiled in several places: which value reaches the call is not clear
    assign = compiles[0]
    at, call_at = locator.positions[assign].start, locator.positions[call].start
    home = locator.scope(assign)
    for other in candidates:
        if other is assign:
            continue
        start = locator.positions[other].start
        if receiver.startswith("self."):
            # self.x: other assignments only earlier in the method that compiles it
            if locator.scope(other) is not home or (start.line, start.column) > (at.line, at.column):
                return
        elif (at.line, at.column) < (start.line, start.column) < (call_at.line, call_at.column):
            return  # re-bound between the compile and the call
    value = assign.value
    if not value.args or value.args[0].keyword is not None or value.args[0].star != "":
        return
    if _dotted(value.args[0].value) != receiver:
        return  # `fast = torch.compile(model)`: a different object; a suggestion only
    if any(arg.keyword is None or arg.star for arg in value.args[1:]):
        return
    if f"{receiver}._orig_mod" in _names_used(where):
        return
    line, small = locator.statement_line(assign)
    if line is None or len(line.body) != 1:
        return
    if plan.rewrite.get(line) is None:
        new_call = cst.Call(func=cst.Attribute(value=value.args[0].value, attr=cst.Name("compile")),
                            args=list(value.args[1:]))
        plan.rewrite[line] = cst.Expr(value=new_call, semicolon=small.semicolon)
    plan.fixed.append(finding)


def _plan_cl302(finding: Finding, locator: _Locator, imports: _Imports, module, plan: _Plan) -> None:
    import libcst as cst

    call = next((c for c in locator.calls.get((finding.line, finding.col), ()) if _is_compile(c, imports)), None)
    if call is None or not call.args or not _simple_args(call):
        return
    line, assign = _assignment(locator, call)
    if line is None:
        return
    block = locator.parent(line)
    loop = locator.parent(block)
    if not isinstance(block, cst.IndentedBlock) or not isinstance(loop, (cst.For, cst.While)):
        return
    if not isinstance(locator.parent(loop), (cst.IndentedBlock, cst.Module)):
        return
    bound = _dotted(assign.targets[0].target)
    if bound is None:
        return
    rebound = _bound_in(loop.body)
    if isinstance(loop, cst.For):
        for name in _bound_in_target(loop.target):
            rebound.setdefault(name, []).append(loop)
    # the arguments must not change in the loop (this very statement aside)
    for name in _names_used(call):
        if _affected(name, rebound, skip=assign):
            return
    # the bound name: bound by this statement only, not read before it in the loop
    if _affected(bound, rebound, skip=assign):
        return
    if isinstance(loop, cst.While) and _reads(loop.test, bound):
        return
    for stmt in block.body:
        if stmt is line:
            break
        if _reads(stmt, bound):
            return
    if id(line) in plan.hoisted:
        return
    plan.hoist.setdefault(loop, []).append(line)
    plan.hoisted.add(id(line))
    plan.fixed.append(finding)


def _bound_in_target(target) -> list[str]:
    import libcst as cst

    if isinstance(target, (cst.Tuple, cst.List)):
        out = []
        for element in target.elements:
            out.extend(_bound_in_target(element.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _bound_in_target(target.value)
    name = _dotted(target)
    return [name] if name else []


def _reads(node, name: str) -> bool:
    used = _names_used(node)
    head = name.split(".")[0]
    return name in used or (("." not in name) and head in used) or any(u.startswith(name + ".") for u in used)


_PLANNERS = {"CL301": _plan_cl301, "CL302": _plan_cl302}


# ---- applying ----------------------------------------------------------------------------

def _transform(module, plan: _Plan):
    import libcst as cst

    class Fixer(cst.CSTTransformer):
        def __init__(self) -> None:
            super().__init__()
            self.moved: dict[int, cst.SimpleStatementLine] = {}  # id(original line) -> updated

        def leave_SimpleStatementLine(self, original, updated):
            replacement = plan.rewrite.get(original)
            if replacement is not None:
                updated = updated.with_changes(body=[replacement])
            if id(original) in plan.hoisted:
                self.moved[id(original)] = updated
            return updated

        def _leave_loop(self, original, updated):
            lines = plan.hoist.get(original)
            if not lines:
                return updated
            moved = [self.moved[id(line)] for line in lines]
            keep = [stmt for stmt in updated.body.body if not any(stmt is m for m in moved)]
            if not keep:
                keep = [cst.SimpleStatementLine(body=[cst.Pass()])]
            new_loop = updated.with_changes(body=updated.body.with_changes(body=keep), leading_lines=())
            first = moved[0].with_changes(leading_lines=[*updated.leading_lines, *moved[0].leading_lines])
            return cst.FlattenSentinel([first, *moved[1:], new_loop])

        def leave_For(self, original, updated):
            return self._leave_loop(original, updated)

        def leave_While(self, original, updated):
            return self._leave_loop(original, updated)

    return module.visit(Fixer())


def plan_and_apply(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    """(new text, the findings it fixed); the text unchanged and [] when nothing is safe."""
    try:
        return _plan_and_apply(text, findings)
    except Exception:  # a fixer's bug must never cost the user their file or the run
        return text, []


def _plan_and_apply(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    import libcst as cst
    from libcst.metadata import MetadataWrapper

    wanted = [f for f in findings if f.code in _PLANNERS]
    if not wanted:
        return text, []
    from compilelint import limits

    if limits.screen(text).problem is not None:
        return text, []
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    locator = _Locator(wrapper)
    imports = _Imports(module)
    plan = _Plan()
    for finding in sorted(wanted, key=lambda f: (f.line, f.col, f.code)):
        _PLANNERS[finding.code](finding, locator, imports, module, plan)
    if plan.empty():
        return text, []
    new = _transform(module, plan).code
    if new == text:
        return text, []
    try:
        cst.parse_module(new)
    except Exception:
        return text, []
    if _python_parses(text) and not _python_parses(new):
        return text, []
    return new, plan.fixed


def _python_parses(text: str) -> bool:
    try:
        compile(text, "<fixed>", "exec", dont_inherit=True, flags=_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return False
    return True


_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST: parse, never build code


def apply(text: str, findings: Iterable[Finding]) -> str:
    """`text` with every safe fix for `findings` (of this file) applied; unchanged otherwise."""
    return plan_and_apply(text, findings)[0]


# ---- files -------------------------------------------------------------------------------

@dataclass
class FileFix:
    path: str
    old: str
    new: str
    fixed: list[Finding]
    encoding: str = "utf-8"
    error: str | None = None

    def diff(self) -> str:
        lines = difflib.unified_diff(self.old.splitlines(keepends=True), self.new.splitlines(keepends=True),
                                     fromfile=f"a/{self.path}", tofile=f"b/{self.path}")
        out = []
        for line in lines:
            out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
        return "".join(out)


def fix_files(findings: Sequence[Finding]) -> list[FileFix]:
    """What the safe fixes would change, per file (nothing is written)."""
    from compilelint.source import SourceError, read

    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.code in _PLANNERS:
            by_path.setdefault(finding.path, []).append(finding)
    out = []
    for path, group in sorted(by_path.items()):
        try:
            source = read(path)
        except SourceError as exc:
            out.append(FileFix(path, "", "", [], error=str(exc)))
            continue
        new, fixed = plan_and_apply(source.text, group)
        if fixed and new != source.text:
            out.append(FileFix(path, source.text, new, fixed, source.encoding))
    return out


def write(fix: FileFix) -> str | None:
    """Write a fixed file atomically, in its encoding and mode; None, or why not."""
    path = fix.path
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot stat: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link; not fixed"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file; not fixed"
    encoding = fix.encoding
    try:
        data = fix.new.encode(encoding)
    except (UnicodeEncodeError, LookupError) as exc:
        return f"the fix cannot be written in {encoding}: {exc}"
    try:
        with open(path, "rb") as handle:
            current = handle.read()
        if current != fix.old.encode(encoding):  # changed since it was read: leave it alone
            return "changed while being checked; not fixed"
        write_bytes(path, data, mode=stat.S_IMODE(info.st_mode), sync=True, prefix=".compilelint-fix-", suffix=".py")
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    return None
