"""Python `random` draws that Dynamo traces, for CL119: `random.uniform(0, 1)`, or `rng.random()`
on a `random.Random` (one bound in the function, at module level and not rebound in the
function: demucs' `penalty_rng`, or stored on `self` by the class), becomes a graph input; only a test that decides on it breaks
(GB0170), as does a test on a name bound to one. Which draws are traced is the knowledge
table's ("branch" form); a `random.Random`'s own methods are looked up as
`random.Random.<method>` first (its `random()` is traced where the module's is skipped).
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.facts import facts_of
from compilelint.semantic.infer import held_class_ref
from compilelint.traverse import TRIVIA, iter_nodes


class RandomDraws:
    """Per function (the module's first): names bound to a `random.Random(...)`, and names
    holding a "branch" draw (`i = rng.randrange(a, b)`) -> (the draw, the block depth of the
    binding, the modes it needs)."""

    def __init__(self, ctx, known) -> None:
        self.ctx, self._known = ctx, known
        self._scopes: list[tuple[set[str], dict[str, tuple]]] = [(set(), {})]
        self.depth = 0  # blocks entered: a rebinding in a nested block (`if m != 1: i = ...`) may not run

    def enter_function(self) -> None:
        self._scopes.append((set(), {}))

    def leave_function(self) -> None:
        self._scopes.pop()

    def assign(self, names: list[str], value: cst.BaseExpression) -> None:
        rngs, draws = self._scopes[-1]
        rng = isinstance(value, cst.Call) and self.ctx.qualify(value.func) == "random.Random"
        drawn = None if rng else self.drawn(value)
        for name in names:
            rngs.discard(name)
            if drawn:  # (with the modes the binding needs: the draw exists only then)
                draws[name] = (drawn, self.depth, self.ctx.when)
            elif name in draws and draws[name][1] >= self.depth:
                del draws[name]  # rebound where the draw was (or outside it): no longer a draw
            if rng:
                rngs.add(name)

    def _rng(self, name: str) -> bool:
        if name in self._scopes[-1][0]:
            return True
        function = self.ctx.function if len(self._scopes) > 1 else None
        facts = facts_of(function) if function is not None else None
        return name in self._scopes[0][0] and facts is not None and not facts.binders(name) \
            and name not in function.params

    def _held_rng(self, node: cst.BaseExpression | None) -> bool:
        """`self.rng`, the class (or a base of this file) storing a `random.Random(...)` on it."""
        scope = self.ctx.function
        return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self" \
            and scope is not None and bool(scope.class_name) \
            and held_class_ref(self.ctx, scope.class_name, node.attr.value) == "random.Random"

    def draw(self, call: cst.Call) -> str | None:
        """The qualified draw a call makes when Dynamo traces it as a graph input:
        `random.randrange(...)`, or `rng.randrange(...)` on a `random.Random`."""
        func = call.func
        qualified = self.ctx.qualify(func)
        owner = func.value if isinstance(func, cst.Attribute) else None
        if isinstance(owner, cst.Name) and self._rng(owner.value) or self._held_rng(owner):
            own = f"random.Random.{func.attr.value}"
            qualified = own if self._known.get(own) is not None else f"random.{func.attr.value}"
        entry = self._known.get(qualified)
        return qualified if entry is not None and entry.form == "branch" else None

    def drawn(self, expr: cst.BaseExpression) -> str | None:
        """The draw an expression is: a draw call, or a name bound to one. (Arithmetic on a
        draw with Python numbers breaks where it is done, GB0213: not followed.)"""
        if isinstance(expr, cst.Call):
            return self.draw(expr)
        drawn = self._scopes[-1][1].get(expr.value) if isinstance(expr, cst.Name) else None
        return drawn[0] if drawn else None

    def branch(self, test: cst.BaseExpression) -> tuple[cst.CSTNode, str, str, tuple] | None:
        """(the node, what it is, the draw, the modes) of the first draw a test decides on."""
        draws = self._scopes[-1][1]
        for node in iter_nodes(test, skip=TRIVIA):
            if not isinstance(node, (cst.Call, cst.Name)):
                continue
            when = ()
            if isinstance(node, cst.Call):
                qualified = self.draw(node)
                what = f"A branch on `{qualified}()`"
            else:
                qualified, _, when = draws.get(node.value, (None, 0, ()))
                what = f"A branch on `{node.value}`, drawn by `{qualified}()`,"
            if qualified:
                return node, what, qualified, when
        return None
