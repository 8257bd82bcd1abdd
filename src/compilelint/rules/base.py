"""What a rule is: a code, a name, a message, when it applies, and a visitor."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst


class Rule:
    """One rule. Subclasses define class attributes and `visit_<Node>`/`leave_<Node>`
    methods (libcst node class names); one walk of the tree serves every rule.

    `VALID` snippets must not fire; `INVALID` snippets must fire on exactly the lines
    that end with the comment `# expect`. Both become tests.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    severity: ClassVar[str] = "error"  # error: Dynamo always breaks; warning: usually; note: advice
    gb_id: ClassVar[str | None] = None  # Dynamo's graph-break id, e.g. "GB0170"
    fix: ClassVar[str] = ""  # what to do instead, one sentence
    torch_min: ClassVar[tuple[int, int]] = (2, 4)  # first torch release the rule applies to
    torch_max: ClassVar[tuple[int, int] | None] = None  # first release it no longer applies to
    region_only: ClassVar[bool] = True  # only code that runs under torch.compile counts
    breaks_graph: ClassVar[bool] = False  # a finding inside a loop also means CL150
    fixable: ClassVar[bool] = False
    # Its handlers only read the model and report (no state of their own): the walker may
    # run one again with project-typed values taken for tensors (see Walker._run_assuming).
    infers_across_functions: ClassVar[bool] = False
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[str]] = []

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

    def report(self, node: cst.CSTNode, message: str | None = None, *, fix: str | None = None,
               severity: str | None = None) -> None:
        self.ctx.report(self, node, message or self.message, fix=fix or self.fix or None,
                        severity=severity or self.severity)
