"""Tensors a function has already read as a number.

Dynamo breaks the graph where a tensor computed in the region is read as a Python number
(`n.item()`, `torch.arange(n)`, `int(n)`) and resumes in a new frame, whose inputs are the
live locals. There `n` is an input, and an input's value as a *size* does not break: Dynamo
specialises on it (measured on torch 2.13: after `n = lengths.max()` and `torch.arange(n)`,
`torch.arange(0, n)`, `torch.zeros(n)`, `x.new_zeros(n, 2)`, `x.view(n, -1)`,
`x.expand(n, -1)`, `F.interpolate(x, size=n)` and, for a 0-d `i = x.argmax()`, `y[i]` add
no break; `n.item()`, `int(n)`, `range(n)` and `x[:n]` still do). So CL107 leaves out a size
or index read of a name that a statement earlier in the function already read as a number
(CL103 or CL107), with no assignment to the name in between. The earlier read must run on every path to the later one: a simple statement
of a block the later read sits in (the function's body, or an `if` body both are in), outside
`a if c else b`, `a and b` and comprehensions, or a read in every branch of an `if` that ends in
`else` (pytorch-forecasting's `torch.arange(decoder_length)` in the causal branch and
`.expand(-1, decoder_length, -1)` in the other: the `.expand` after the `if` adds no break).
Not a name cast to int32 or int16 (`batch.max().int() + 1`): the resumed frame reads such an
input's value again, and a later size read breaks too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from compilelint.semantic.bindings import target_names
from compilelint.semantic.kinds import dotted


@dataclass(slots=True)
class _Block:
    body: frozenset[int]  # id() of the block's own statements
    read: set[str] = field(default_factory=set)  # names its statements walked so far read
    top: bool = False  # walking a simple statement of `body`


@dataclass(slots=True)
class _Frame:
    blocks: list[_Block] = field(default_factory=list)  # the blocks around this point, outermost first
    guarded: int = 0  # inside `a if c else b`, `a and b`, a comprehension: may not run
    # id() of an `if` / `else` body -> the `if` statement whose branch it is; id(if) -> what each
    # of its branches walked so far read; id(elif) -> what all of the elif's branches read
    branch_of: dict[int, int] = field(default_factory=dict)
    branches: dict[int, list[set[str]]] = field(default_factory=dict)
    merged: dict[int, set[str]] = field(default_factory=dict)
    narrow: set[str] = field(default_factory=set)  # names last bound to an int32 / int16 cast


class NumberReads:
    """Walker part (its stack is the walker's `number_frames`): `read_as_number(name)` and
    `note_number_read(name)` for CL103 / CL107.
    A read noted in a block holds for the rest of that block (its later statements and what
    they hold), not after it: an `if` body's read does not run on the path that skips it."""

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.number_frames.append(_Frame())

    def exit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.number_frames.pop()

    def enter_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        frames = self.number_frames
        if frames:
            frames[-1].blocks.append(_Block(frozenset(id(s) for s in node.body)))

    def exit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        frames = self.number_frames
        if frames and frames[-1].blocks:
            block = frames[-1].blocks.pop()
            owner = frames[-1].branch_of.pop(id(node), None)
            if owner is not None:
                frames[-1].branches.setdefault(owner, []).append(set(block.read))

    def enter_If(self, node: cst.If) -> None:
        """Each branch's body (an `elif` is an `if` of its own, merged into its parent's `else`)."""
        frames = self.number_frames
        if frames and isinstance(node.body, cst.IndentedBlock):
            frames[-1].branch_of[id(node.body)] = id(node)
            if isinstance(node.orelse, cst.Else) and isinstance(node.orelse.body, cst.IndentedBlock):
                frames[-1].branch_of[id(node.orelse.body)] = id(node)

    def exit_If(self, node: cst.If) -> None:
        """A name every branch read (an `else` at the end, no branch assigning it afterwards)
        was read on every path through the `if`: the enclosing block holds it from here on."""
        frames = self.number_frames
        if not frames:
            return
        frame = frames[-1]
        reads = frame.branches.pop(id(node), [])
        if isinstance(node.orelse, cst.If):  # elif: what all of its branches read is this else's
            reads.append(frame.merged.pop(id(node.orelse), set()))
        common = set.intersection(*reads) if node.orelse is not None and len(reads) == 2 else set()
        if not common:
            return
        parent = frame.blocks[-1] if frame.blocks else None
        if parent is not None and id(node) in parent.body:
            parent.read |= common
        else:  # an elif: its parent `if` takes it as its else branch's reads
            frame.merged[id(node)] = common

    def enter_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        block = self.__block()
        if block is not None and id(node) in block.body:
            block.top = True

    def exit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        block = self.__block()
        if block is not None and id(node) in block.body:
            block.top = False

    def enter_Lambda(self, node: cst.Lambda) -> None:
        self.number_frames.append(_Frame())  # (its body runs when called, not here)

    def exit_Lambda(self, node: cst.Lambda) -> None:
        self.number_frames.pop()

    def enter_IfExp(self, node: cst.IfExp) -> None:
        self.__guard(1)

    def exit_IfExp(self, node: cst.IfExp) -> None:
        self.__guard(-1)

    def enter_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self.__guard(1)

    def exit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self.__guard(-1)

    enter_ListComp = enter_SetComp = enter_DictComp = enter_GeneratorExp = enter_IfExp
    exit_ListComp = exit_SetComp = exit_DictComp = exit_GeneratorExp = exit_IfExp

    def enter_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.__forget(node.target)

    def enter_Assign(self, node: cst.Assign) -> None:
        frames = self.number_frames
        if frames and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            name = node.targets[0].target.value
            if _narrow_cast(node.value):
                frames[-1].narrow.add(name)
            else:
                frames[-1].narrow.discard(name)

    def enter_AugAssign(self, node: cst.AugAssign) -> None:
        self.__forget(node.target)

    def enter_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.__forget(node.target)

    def enter_For(self, node: cst.For) -> None:
        self.__forget(node.target)

    def enter_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.__forget(node.target)

    def enter_AsName(self, node: cst.AsName) -> None:
        self.__forget(node.name)

    def read_as_number(self, name: str) -> bool:
        """Whether a statement that runs before this point, on every path, read `name` as a
        number, and nothing assigned it since."""
        frames = self.number_frames
        return bool(frames) and any(name in block.read for block in frames[-1].blocks)

    def note_number_read(self, name: str) -> None:
        block = self.__block()
        if block is not None and block.top and not self.number_frames[-1].guarded \
                and name not in self.number_frames[-1].narrow:
            block.read.add(name)

    def __block(self) -> _Block | None:
        frames = self.number_frames
        return frames[-1].blocks[-1] if frames and frames[-1].blocks else None

    def __guard(self, step: int) -> None:
        frames = self.number_frames
        if frames:
            frames[-1].guarded += step

    def __forget(self, target: cst.BaseExpression) -> None:
        frames = self.number_frames
        if not frames:
            return
        for name in target_names(target):
            for block in frames[-1].blocks:
                block.read.discard(name)


NARROW_METHODS = frozenset({"int", "short"})
NARROW_DTYPES = frozenset({"torch.int32", "torch.int16", "torch.int", "torch.short"})


def _narrow_cast(value: cst.BaseExpression) -> bool:
    """`batch.max().int() + 1`, `n.to(torch.int32)`: a 0-d int32 (or int16) tensor, whose value
    the resumed frame does not specialise on as it does an int64's: a later size read breaks
    again (chemprop's `AttentiveAggregation`; measured on 2.13.0 and 2.14.1)."""
    if isinstance(value, cst.BinaryOperation):
        return _narrow_cast(value.left) or _narrow_cast(value.right)
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
        return False
    method = value.func.attr.value
    if method in NARROW_METHODS and not value.args:
        return True
    if method in ("to", "type") and value.args and (dotted(value.args[0].value) or "") in NARROW_DTYPES:
        return True
    return False
