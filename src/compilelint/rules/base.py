"""What a rule is: a code, a name, a message, when it applies, and a visitor; and how it
states its autofix (`NodeEdit`s at the nodes it reports, positioned after the walk)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import libcst as cst


@dataclass(frozen=True, slots=True)
class At:
    """A place in the file, by a node: where it starts or ends (PositionProvider's range:
    no leading comment lines, no indentation), or the start of the line it starts on."""

    node: cst.CSTNode
    side: str = "start"  # "start", "end" or "line"


@dataclass(frozen=True, slots=True)
class NodeEdit:
    """Replace the text from `start` to `end` with `text` (an insertion when they are the
    same place). The analysis turns it into a `finding.Edit` once positions are known."""

    start: At
    end: At
    text: str


def replace(node: cst.CSTNode, text: str) -> NodeEdit:
    """`node`'s own text (its syntactic range) becomes `text`."""
    return NodeEdit(At(node, "start"), At(node, "end"), text)


def insert_line_before(node: cst.CSTNode, text: str) -> NodeEdit:
    """`text` (whole lines, indented, each ending with a newline) above the line `node`
    starts on (below that line's leading comments)."""
    return NodeEdit(At(node, "line"), At(node, "line"), text)


def replace_lines(line: cst.SimpleStatementLine, text: str = "") -> NodeEdit:
    """The whole lines of a statement (its leading comment lines, its indentation and its
    line end included) become `text` (nothing: they go)."""
    start = At(line.leading_lines[0], "start") if line.leading_lines else At(line, "line")
    return NodeEdit(start, At(line.trailing_whitespace, "end"), text)


class Rule:
    """One rule. Subclasses define class attributes and `visit_<Node>`/`leave_<Node>`
    methods (libcst node class names); one walk of the tree serves every rule.

    `VALID` snippets must not fire; `INVALID` snippets must fire on exactly the lines
    that end with the comment `# expect`. Both become tests. A rule with an `autofix`
    states, in `FIXED`, what `check --fix` makes of its INVALID cases (index -> source);
    a case it does not name must come out of `--fix` unchanged.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    severity: ClassVar[str] = "error"  # error: Dynamo always breaks; warning: usually; note: advice
    gb_id: ClassVar[str | None] = None  # Dynamo's graph-break id, e.g. "GB0170"
    help: ClassVar[str] = ""  # what to do instead, one sentence
    autofix: ClassVar[str] = ""  # what `check --fix` does (its findings then carry edits)
    torch_min: ClassVar[tuple[int, int]] = (2, 4)  # first torch release the rule applies to
    torch_max: ClassVar[tuple[int, int] | None] = None  # first release it no longer applies to
    region_only: ClassVar[bool] = True  # only code that runs under torch.compile counts
    breaks_graph: ClassVar[bool] = False  # a finding inside a loop also means CL150
    # ... and a function's finding makes its callers break too (CL150/CL151 across functions);
    # not when what breaks is what the caller passes (CL153: the caller's own call is flagged)
    breaks_callers: ClassVar[bool] = True
    # The module of its project-wide phase (a `compilelint.project_rules` module with
    # `run(context)`), for findings that need every file's summary; the engine runs it.
    project_phase: ClassVar[str] = ""
    # Its handlers only read the model and report (no state of their own): the walker may
    # run one again with project-typed values taken for tensors (see Walker._run_assuming).
    infers_across_functions: ClassVar[bool] = False
    # ... and what it reports that way holds only if the project finds a certain tensor
    # (every compiled call site passes one), not a likely one (a forward input may be an int)
    needs_certain_tensor: ClassVar[bool] = False
    # What it reports as a warning (a value only guessed a tensor) rests on one parameter of
    # the function (`if mask == 0:` in a forward): compiled call sites that all pass it a number
    # rule the finding out (`given:mask@guess`, semantic.guards)
    guessed_parameters: ClassVar[bool] = False
    # It reports on the compiled object's own state (`self.x = ...`): not in the `__init__` of
    # a module built in the compiled region, whose object is new (engine.select_findings)
    own_state: ClassVar[bool] = False
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[str]] = []
    FIXED: ClassVar[dict[int, str]] = {}  # INVALID[i] after `check --fix`

    def __init__(self, walker) -> None:
        self.ctx = walker  # the semantic model: see compilelint.semantic for what to ask

    @classmethod
    def applies_to(cls, version: tuple[int, int]) -> bool:
        if version < cls.torch_min:
            return False
        return cls.torch_max is None or version < cls.torch_max

    @classmethod
    def torch_range(cls) -> str:
        low = "%d.%d" % cls.torch_min
        if cls.torch_max is None:
            return f">= {low}"
        return f">= {low}, < " + "%d.%d" % cls.torch_max

    def report(self, node: cst.CSTNode, message: str | None = None, *, help: str | None = None,
               severity: str | None = None, edits: tuple[NodeEdit, ...] = (), when: tuple[str, ...] = (),
               needs: tuple[str, ...] = ()) -> None:
        self.ctx.report(self, node, message or self.message, help=help or self.help or None,
                        severity=severity or self.severity, edits=tuple(edits), when=when, needs=needs)
