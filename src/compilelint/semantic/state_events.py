"""What a method does to its module's state, in order (CL154): each `self.x = v` and each
`.parameters()` (or a kin) read, with the number of call edges before it, so the project
can interleave them with what the calls do (`FunctionSummary.state`).

Dynamo breaks the graph when traced code reads `.parameters()`, `.buffers()`,
`.modules()` or their `named_` forms of a module whose parameters, buffers or submodules
were assigned earlier in the same graph while a plain attribute of it was too (GB0189).
Which attributes are state the project decides (the class may be in another file);
the walk keeps what the assigned value shows (and, for a read, whether `next()` takes only its
first item: a submodule's pending change then breaks only if the walk reaches it, which the
order of the submodules decides): `"1"` (a parameter, a buffer, a torch.nn
module), `"k:Ref"` (a class built: state if a module class), `"c:ref"` (a function's
result: state if it returns a parameter), or `""`.
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import dotted, torch_state

# what Dynamo refuses on a module with a pending state change (torch/_dynamo/variables/builtin.py)
READS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "modules", "named_modules"})
# walks only modules make (any receiver): each keeps a memo set, so hashes every submodule and runs
# a module class's own `__hash__` (CL161); `train`/`eval`/`apply`/`to` do too, but other objects
# share their names
HASHING_WALKS = READS | {"children", "named_children"}


class StateEvents:
    """Walker part (after `CallGraph`): each method's writes to `self` and state reads."""

    def _state_scope(self):
        if not self.scopes or self.header or self.escaped:
            return None
        scope = self.scopes[-1]
        if scope.class_name is None or scope.qualname.endswith(".__init__"):
            return None  # (a constructor builds its state: nothing is pending before it)
        return scope

    def _state_event(self, scope, event: tuple) -> int:
        info = self.functions[scope.qualname]
        info.state = (*info.state, (*event, len(info.calls)))
        return len(info.state) - 1

    def enter_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in HASHING_WALKS and self.scopes \
                and not (self.header or self.escaped) and (info := self.functions.get(self.scopes[-1].qualname)):
            info.walks = True
        if dotted(func) == "next" and node.args and isinstance(inner := node.args[0].value, cst.Call):
            self.state_lazy.add(id(inner))  # `next(self.parameters())`: stops at the first parameter
            return
        if not isinstance(func, cst.Attribute) or func.attr.value not in READS \
                or (scope := self._state_scope()) is None:
            return
        owner = func.value
        if isinstance(owner, cst.Name) and owner.value == "self":
            base = "self"
        elif isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self":
            base = "self." + owner.attr.value
        else:
            return
        self.state_reads[id(node)] = self._state_event(scope, ("r", base, int(id(node) in self.state_lazy)))

    def exit_Call(self, node: cst.Call) -> None:
        if dotted(node.func) == "setattr" and len(node.args) == 3 and isinstance(node.args[0].value, cst.Name) \
                and node.args[0].value.value == "self" and isinstance(node.args[1].value, cst.SimpleString) \
                and isinstance(name := node.args[1].value.evaluated_value, str) \
                and (scope := self._state_scope()) is not None:
            self._state_event(scope, ("w", name, self._state_evidence(node.args[2].value)))

    def exit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._state_write(target.target, node.value)

    def exit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._state_write(node.target, node.value)

    def exit_AugAssign(self, node: cst.AugAssign) -> None:
        self._state_write(node.target, None)  # `self.buf += x`: stored again, under its own name

    def _state_write(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self" \
                and (scope := self._state_scope()) is not None:
            evidence = self._state_evidence(value) if value is not None else ""
            self._state_event(scope, ("w", target.attr.value, evidence))

    def _state_evidence(self, value: cst.BaseExpression) -> str:
        if not isinstance(value, cst.Call):
            return ""
        qualified = self.qualify(value.func)
        if torch_state(qualified):
            return "1"
        ref = qualified or dotted(value.func)
        if not ref or ref.startswith(("builtins.", "torch.")):
            return ""
        return ("k:" if ref.rsplit(".", 1)[-1][:1].isupper() else "c:") + ref

    def state_read(self, node: cst.Call) -> int | None:
        """The index of the state event a `.parameters()`-like call made (CL154's candidates)."""
        return self.state_reads.get(id(node))
