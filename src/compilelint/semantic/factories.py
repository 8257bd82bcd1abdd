"""Factories: functions that return a new object of a class, or a class itself.

`self.criterion = self.init_criterion()`, `self.distance = self.get_default_distance()`,
`solver_fn = methods.select(method)` then `solver = solver_fn(...)`: which class the result
is, only the project can tell (the factory may live in another file, a subclass may
override it). The walk records, per function, the classes every `return` builds
(`FunctionSummary.builds`) or names (`picks`), and marks the names and attributes bound to
a factory's result with `summary.MADE` + the factory's reference; `index_made` resolves
the marks to the classes.
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import PARAMETERS
from compilelint.summary import MADE, NEW, PARAMETER

PICKED_MAX = 4  # classes a local may pick between (as `attr_marks.EITHER_MAX`)

UNIONS = frozenset({"typing.Union", "typing.Optional", "typing_extensions.Union", "typing_extensions.Optional"})
MAX_CLASSES = 16  # a factory returning more is a registry the walk does not follow
# callees whose results are no project object
FOREIGN = ("builtins.", "torch.", "numpy.", "math.", "typing.", "functools.", "itertools.", "collections.",
           "copy.", "os.", "re.", "json.", "warnings.", "logging.", "random.", "einops.", "scipy.")


class FactoryTracking:
    """Walker part (after `Bindings`, whose scopes it reads): what each function's returns
    make, and names bound to a factory's result."""

    def exit_Return(self, node: cst.Return) -> None:
        if not self.scopes or self.header or node.value is None:
            return
        value = node.value
        if isinstance(value, cst.Name) and value.value == "None":
            return  # (an optional part: the other returns say what it makes)
        qualname = self.scopes[-1].qualname
        if isinstance(value, cst.Name) and f"{qualname}.<locals>.{value.value}" in self.functions:
            # `def inner(x): ...; return inner`: what calling the result runs (a closure factory)
            self.closure_returns.setdefault(qualname, []).append(f"{qualname}.<locals>.{value.value}")
        made = self.factory_returns.setdefault(qualname, [])
        if isinstance(value, cst.Call) and (ref := self._class_ref(value.func)):
            made.append(("b", ref))
        elif isinstance(value, cst.Call) and self.qualify(value.func) in PARAMETERS:
            made.append(("b", PARAMETER))  # `return nn.Parameter(t)`: stored on a module, it is state (CL154)
        elif isinstance(value, (cst.Name, cst.Attribute)) and (ref := self._class_ref(value)):
            made.append(("p", ref))
        elif isinstance(value, cst.Name) and (picked := self._picked_local(value.value)):
            made.extend(("p", ref) for ref in picked)  # `rnn = LSTM` / `rnn = GRU`, then `return rnn`
        else:
            made.append(("x", ""))

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.factory_scopes[id(node)] = self.scopes[-1]  # (runs after Bindings made the scope)

    def exit_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self.factory_scopes.pop(id(node), None)  # (Bindings has popped it already)
        if scope is None:
            return
        self.made_names.pop(id(scope), None)
        self.picked_names.pop(id(scope), None)
        made = self.factory_returns.pop(scope.qualname, None)
        info = self.functions.get(scope.qualname)
        closures = self.closure_returns.pop(scope.qualname, None)
        if closures and info is not None:
            info.closures = "|".join(dict.fromkeys(closures))
        if info is not None and all(kind == "x" for kind, _ in made or ()) and node.returns is not None \
                and (annotated := self._annotated_classes(node.returns.annotation)):
            info.builds = "|".join(annotated)  # `def trace(fn) -> Union[TraceMessenger, TraceHandler[P, T]]: ...`
            return
        if not made or info is None or len({kind for kind, _ in made}) != 1 or made[0][0] == "x":
            return
        refs = list(dict.fromkeys(ref for _, ref in made))
        if len(refs) <= MAX_CLASSES:
            if made[0][0] == "b":
                info.builds = "|".join(refs)
            else:
                info.picks = "|".join(refs)

    def _annotated_classes(self, annotation: cst.BaseExpression) -> list[str]:
        """The project classes a return annotation names (`Handler`, `"Handler"`, `Handler[P, T]`,
        `Union[A, B]`, `Optional[A]`, `A | None`); none when it names anything else too."""
        refs, todo = [], [annotation]
        while todo:
            node = todo.pop()
            if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
                try:
                    node = cst.parse_expression(node.evaluated_value)
                except cst.ParserSyntaxError:
                    return []
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
                todo.extend((node.left, node.right))
            elif isinstance(node, cst.Subscript) and (self.qualify(node.value) or "") in UNIONS:
                todo.extend(e.slice.value for e in node.slice if isinstance(e.slice, cst.Index))
            elif isinstance(node, cst.Name) and node.value == "None":
                continue
            elif ref := self._class_ref(node.value if isinstance(node, cst.Subscript) else node):
                refs.append(ref)
            else:
                return []
        return list(dict.fromkeys(refs))[:MAX_CLASSES]

    def _class_ref(self, node: cst.BaseExpression) -> str | None:
        """A class-like name (`Euler`, `euler.Euler`, `SRK`) outside builtins and torch,
        qualified where the imports can; not a local name (`def make(Block): return Block()`)."""
        if isinstance(node, cst.Name) and self.locally_bound(node.value):
            return None
        ref = self._class_name(node)  # (semantic.calls: capitalised, not builtins' or torch's)
        return ref if ref and not ref.startswith(FOREIGN) and ref not in ("None", "True", "False") else None

    # ---- names and attributes bound to a factory's result --------------------------------

    def exit_Assign(self, node: cst.Assign) -> None:
        if not self.scopes:
            return
        scope = self.scopes[-1]
        made = self.made_names.setdefault(id(scope), {})
        picked = self.picked_names.setdefault(id(scope), {})
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                name = target.target.value
                if picked.get(name, ()) is not None:
                    value = node.value
                    if isinstance(value, cst.Name) and value.value in scope.params:
                        picked.setdefault(name, [])  # a class the caller passed: not the project's to name
                    elif isinstance(value, (cst.Name, cst.Attribute)) and (ref := self._class_ref(value)):
                        picked.setdefault(name, []).append(ref)
                    else:
                        picked[name] = None  # bound to anything else too: not a class picked by name
                made.pop(target.target.value, None)
                if isinstance(node.value, cst.Call) and (mark := self.factory_mark(node.value.func)):
                    made[target.target.value] = mark
                    self.scopes[-1].built.add(target.target.value)  # made while tracing: no source (CL151)

    def _picked_local(self, name: str) -> list[str]:
        """The classes a local name is bound to, when every binding of it so far names a
        class or passes a parameter on (`if cell == "LSTM": rnn = LSTM` ... `return rnn`)."""
        return (self.picked_names.get(id(self.scopes[-1]), {}).get(name) or []) if self.scopes else []

    def made_name(self, name: str) -> str | None:
        """The mark of a local name bound to a factory's result (`solver_fn = select(m)`)."""
        return self.made_names.get(id(self.scopes[-1]), {}).get(name) if self.scopes else None

    def factory_mark(self, func: cst.BaseExpression, in_class: bool = False) -> str | None:
        """What calling `func` gives, when a factory decides it: `MADE` + the function
        (`select`, `pkg.methods.select`, `self.init_criterion`), or `NEW` + the mark of a
        name holding what a factory returned (calling a class it picked builds one).
        `in_class`: read while the class is scanned, before the walk enters its methods
        (no local scope to consult, and `self.` is the class's)."""
        if isinstance(func, cst.Name):
            if held := self.made_name(func.value):
                return NEW + held
            if self.locally_bound(func.value) or not func.value[:1].islower():
                return None
            ref = self.qualify(func) or func.value
            return None if ref.startswith(FOREIGN) else MADE + ref
        if not isinstance(func, cst.Attribute) or not func.attr.value[:1].islower():
            return None
        if isinstance(func.value, cst.Name) and func.value.value == "self":
            in_method = in_class or (self.scopes and self.scopes[-1].class_name)
            return MADE + "self." + func.attr.value if in_method else None
        ref = self.qualify(func)
        return MADE + ref if ref and not ref.startswith(FOREIGN) else None

    def _picked_classes(self, bound: list) -> str | None:
        """"A|B" when every value a local name is bound to is a class, named or picked by a
        conditional expression (rsl_rl's `rnn_cls = nn.GRU if type == "gru" else nn.LSTM`)."""
        refs, todo = [], list(bound)
        while todo:
            value = todo.pop()
            if isinstance(value, cst.IfExp):
                todo.extend((value.orelse, value.body))
                continue
            ref = self.qualify(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
            if not ref or not ref.rsplit(".", 1)[-1][:1].isupper():
                return None
            refs.append(ref)
        refs = list(dict.fromkeys(refs))
        return "|".join(refs) if 0 < len(refs) <= PICKED_MAX else None

    def attr_factory_mark(self, value: cst.BaseExpression, params: set, local_calls: dict | None = None) -> str | None:
        """`self.x = self.make_x()` / `= build_x(cfg)`, or `self.make_x() if x is None else x`
        (the other branch a constructor parameter or `None`), or a class a factory picked,
        called (`rnn_class = get_rnn(cell)`, then `self.rnn = rnn_class(...)`; `local_calls`:
        what the method binds each local name to)."""
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and local_calls \
                and value.func.value in local_calls:
            bound = local_calls[value.func.value]
            if picked := self._picked_classes(bound):
                return picked  # `rnn_cls = nn.GRU if gru else nn.LSTM`, then `self.rnn = rnn_cls(...)`
            inner = self.factory_mark(bound[0].func, in_class=True) \
                if len(bound) == 1 and isinstance(bound[0], cst.Call) else None
            return NEW + inner if inner and inner.startswith(MADE) else None
        if isinstance(value, cst.IfExp):
            for made, other in ((value.body, value.orelse), (value.orelse, value.body)):
                if isinstance(other, cst.Name) and (other.value in params or other.value == "None") \
                        and isinstance(made, cst.Call):
                    return self.factory_mark(made.func, in_class=True)
            return None
        return self.factory_mark(value.func, in_class=True) if isinstance(value, cst.Call) else None
