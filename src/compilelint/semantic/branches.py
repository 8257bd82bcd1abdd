"""Names an `if` binds: after it, a name holds what any branch that falls through left in it.

Read straight, the last assignment in source order would win, so `ok = err <= 1` followed
by `if dt > limit: ok = False` read as a plain bool and the later `if ok:` (a graph break on
the paths that skip the reassignment) went unreported. A tensor bound before the `if` that
some path keeps, and that the other branches only replace with Python values, stays a
tensor; otherwise the branch written last wins, as a straight-line reading has it (a flag
set to a tensor under `if self.training:` is one after it: LayerDrop's
`skip = False; if self.training: skip = torch.rand([]) < p` breaks in training). A branch ending in `return`,
`raise`, `break` or `continue` leaves nothing behind; a path that skipped
`if isinstance(x, Tensor):` holds no tensor in `x` (nor in `k` and `n` after
`if isinstance(k, Tensor) or isinstance(n, Tensor):`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from compilelint.semantic.guards import not_tensors
from compilelint.semantic.kinds import Kind

_ENDS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


@dataclass
class _Frame:
    node: cst.If
    scope: object
    before: tuple[dict, dict]
    outs: list = field(default_factory=list)  # (env, open) of each branch that falls through


def _ends(block: cst.BaseSuite) -> bool:
    body = getattr(block, "body", ())
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(small, _ENDS) for small in last.body)
    return False


def _merged(pre, seen: list) -> tuple:
    """What a name holds after the `if`, from each falling-through branch's (kind, open leaves)."""
    if all(out == seen[0] for out in seen):
        return seen[0]
    changed = [out for out in seen if out != pre]
    if pre is not None and (pre[0].tensorish or pre[1]) and len(changed) < len(seen) \
            and all(kind == Kind.VALUE for kind, _ in changed):
        # `ok = err <= 1; if dt > limit: ok = False`: a path keeps the tensor from before
        return pre
    return changed[-1]  # else the branch written last, as a straight-line reading has it


def _isinstance_tensor(walker, test: cst.BaseExpression) -> str | None:
    """`x` for a test that is exactly `isinstance(x, Tensor)`: skipping its body means x is
    no tensor (not so for `isinstance(x, Tensor) and x.dim() != 1`)."""
    return walker._tensor_check(test) if isinstance(test, cst.Call) else None


class BranchMerging:
    """Walker part: merges the kinds an `if`'s branches leave (runs after Bindings)."""

    branch_frames: list  # the `if`s being walked inside functions, innermost last (Walker.__init__)

    def enter_If(self, node: cst.If) -> None:
        if self.scopes:
            scope = self.scopes[-1]
            self.branch_frames.append(_Frame(node, scope, (dict(scope.env), dict(scope.open))))

    def exit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if not self.branch_frames:
            return
        frame = self.branch_frames[-1]
        orelse = frame.node.orelse
        if node is not frame.node.body and not (isinstance(orelse, cst.Else) and node is orelse.body):
            return
        scope = frame.scope
        if not _ends(node):
            frame.outs.append((dict(scope.env), dict(scope.open)))
        if node is frame.node.body:  # the other branch starts from the state before the `if`
            scope.env.clear()
            scope.env.update(frame.before[0])
            scope.open.clear()
            scope.open.update(frame.before[1])

    def exit_If(self, node: cst.If) -> None:
        if not self.branch_frames or self.branch_frames[-1].node is not node:
            return  # an `if` at module or class level
        frame = self.branch_frames.pop()
        scope = frame.scope
        if isinstance(node.orelse, cst.If):  # `elif`: its own merge is what that branch left
            frame.outs.append((dict(scope.env), dict(scope.open)))
        elif node.orelse is None:
            env, open_ = dict(frame.before[0]), dict(frame.before[1])
            checked = _isinstance_tensor(self, node.test)
            # the path that skipped `if isinstance(x, Tensor):` (or `isinstance(k, Tensor) or
            # isinstance(n, Tensor)`, torchdr's `check_neighbor_param`): no tensor in them
            for name in not_tensors(node.test, False, self.local_flag) | ({checked} if checked else set()):
                if name in env:
                    env[name] = Kind.VALUE
                    open_.pop(name, None)
            frame.outs.append((env, open_))
        if not frame.outs:
            return  # no branch falls through: what follows runs on no path from here
        before_env, before_open = frame.before
        names = set().union(*(env for env, _ in frame.outs))
        for name in names:
            pre = (before_env[name], before_open.get(name)) if name in before_env else None
            seen = [(env[name], open_.get(name)) for env, open_ in frame.outs if name in env]
            kind, held = _merged(pre, seen)
            scope.env[name] = kind
            if held:
                scope.open[name] = held
            else:
                scope.open.pop(name, None)
