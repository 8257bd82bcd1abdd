"""Call edges on what a factory returned (a part of `index.ProjectIndex`): the marks
`semantic.factories` leaves (`made:F`, `new:made:F`) resolved to the classes the factory
function builds or picks, in any file, its subclasses' overrides included for `self.m`."""

from __future__ import annotations

from compilelint.semantic.project import passed
from compilelint.summary import ARG, MADE, NEW, CallEdge


class FactoryCallees:
    def made_classes(self, module: str, owner: str | None, mark: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(classes of the objects, classes themselves) a mark stands for in `module`
        (`owner`: the class `self.` is): `made:F` is what F returns; `new:` + a mark, an
        object of a class the mark stands for (`solver = solver_fn(...)`)."""
        memo = (module, owner if "self." in mark else None, mark)
        found = self._made_memo.get(memo)
        if found is None:
            found = self._made_memo[memo] = self._made(module, owner, mark)
        return found

    def _made(self, module: str, owner: str | None, mark: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if mark.startswith(NEW):
            _, picked = self.made_classes(module, owner, mark[len(NEW):])
            return picked, ()
        if mark.startswith(ARG):
            return (), self._passed_classes(module, mark[len(ARG):])
        if not mark.startswith(MADE):
            return (), ()
        objects: list[str] = []
        classes: list[str] = []
        for factory in self._factories(module, owner, mark[len(MADE):]):
            info = self.functions[factory]
            home = factory.split(":", 1)[0]
            for refs, into in ((info.builds, objects), (info.picks, classes)):
                for ref in refs.split("|") if refs else ():
                    cls = self.resolve_class(home, ref)
                    if cls and cls not in into:
                        into.append(cls)
        return tuple(objects), tuple(classes)

    def _passed_classes(self, module: str, ref: str) -> tuple[str, ...]:
        """The classes the project's call sites of function `Q` pass as its parameter `P` (`ref`
        "Q|P", summary.ARG): torchmin's `_minimize_trust_region(fun, x0, subproblem=CGSteihaugSubproblem)`."""
        qualname, _, param = ref.rpartition("|")
        key = f"{module}:{qualname}"
        info = self.functions.get(key)
        if info is None:
            return ()
        if self._class_args is None:
            self._class_args = {}
            for caller, caller_info in self.functions.items():
                for edge in caller_info.calls:
                    if edge.classes:
                        for callee in self.callees(caller, edge):
                            self._class_args.setdefault(callee, []).append((caller, edge))
        found = []
        for caller, edge in self._class_args.get(key, ()):
            cls_ref = passed(edge, info, param, among=edge.classes)
            cls = self.resolve_class(caller.split(":", 1)[0], cls_ref) if cls_ref else None
            if cls and cls not in found:
                found.append(cls)
        return tuple(found)

    def _factories(self, module: str, owner: str | None, ref: str) -> list[str]:
        """The functions `ref` names: `self.m` is the instance's method and each project
        subclass's override (which one runs, the instance decides)."""
        if ref.startswith("self."):
            if owner is None:
                return []
            name = ref[len("self."):]
            found = [self.method(owner, name)] + [f"{sub}.{name}" for sub in self.subclasses(owner)]
            return [f for f in dict.fromkeys(found) if f and f in self.functions]
        found = self.resolve_ref(module, ref)
        return [found] if found in self.functions else []

    def resolve_ref(self, module: str, ref: str) -> str | None:
        """A reference as `module` writes it down: a qualified `pkg.mod.f` or a name the module
        defines or imports (factories, stored functions, CL154's parameter-making helpers)."""
        return self._lookup(ref) if "." in ref else self.resolve_name(module, ref)

    def made_callees(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`obj(x)` / `obj.m(x)` where `obj` holds what a factory returned: each class's
        forward or `__call__` (an object), `__init__` (a class: calling it builds one), or `m`."""
        mark, method = (call.target, None) if call.kind == "instance" else call.target.rpartition(".")[::2]
        module, owner = key.split(":", 1)[0], self.owner(key)
        objects, classes = self.made_classes(module, owner, mark)
        run = self._run_by(objects, method)
        run += tuple(f for f in self._run_by(classes, method, self._constructor) if f not in run)
        return run + (self.made_closures(module, owner, mark) if method is None else ())

    def made_closures(self, module: str, owner: str | None, mark: str) -> tuple[str, ...]:
        """The nested functions a closure factory returns (`kernel = make_kernel(w)`, `def
        kernel(a, b): ...; return kernel`): calling its result runs them."""
        if not mark.startswith(MADE):
            return ()
        found = (f"{factory.split(':', 1)[0]}:{q}" for factory in self._factories(module, owner, mark[len(MADE):])
                 for q in (self.functions[factory].closures or "").split("|") if q)
        return tuple(f for f in dict.fromkeys(found) if f in self.functions)

    def made_getters(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`tok.sot` with `tok` holding what a factory returned (`tok = get_tokenizer(...)`):
        each built class's getter of that name, where it is a property."""
        objects, _ = self.made_classes(key.split(":", 1)[0], self.owner(key), call.target)
        found = (self.method(cls, call.method) for cls in objects)
        return tuple(f for f in dict.fromkeys(found) if f and (self.functions[f].accessor or self.functions[f].cached))

    def _run_by(self, classes: tuple[str, ...], method: str | None, call=None) -> tuple[str, ...]:
        """What calling each class's object runs (`call`: what calling the class itself does),
        or its `method`."""
        call = call or self._called
        found = [call(cls) if method is None else self.method(cls, method) for cls in classes]
        return tuple(f for f in dict.fromkeys(found) if f)

    def attr_made(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.x(...)`, `self.x.m(...)` where the class (or a base) keeps a factory's result
        on `x` (`self.criterion = self.init_criterion()`): what the objects run. The factory
        is resolved from the class that stores it."""
        owner = self.owner(key)
        if owner is None or (call.kind == "self" and self.method(owner, call.target)):
            return ()  # (`self.m(x)` calling a method)
        cls, mark = self._nearest_attr(owner, call.target)
        if not mark:
            # a base's method calling what its constructor was given: what each subclass hands
            # it (`super().__init__(f, make_kernel())`), when that is a factory's result
            if call.target not in self._made_attrs():
                return ()  # (no class keeps a factory's result under this name: most calls)
            held = [(sub, ref) for sub in self.subclasses(owner)
                    if (ref := self.classes[sub].attr_classes.get(call.target, "")).startswith((MADE, NEW))]
            return tuple(dict.fromkeys(f for sub, ref in held for f in self._made_run(sub, ref, call)))
        if not mark.startswith((MADE, NEW)):
            return ()  # (the nearest class types it otherwise: the usual lookup follows that)
        return self._made_run(cls, mark, call)

    def _made_attrs(self) -> frozenset[str]:
        """The attribute names some class keeps a factory's result under."""
        if self._made_attr_names is None:
            self._made_attr_names = frozenset(attr for info in self.classes.values()
                                              for attr, ref in info.attr_classes.items() if ref.startswith((MADE, NEW)))
        return self._made_attr_names

    def _made_run(self, cls: str, mark: str, call: CallEdge) -> tuple[str, ...]:
        """What calling the object class `cls` keeps under a factory's `mark` runs."""
        objects, _ = self.made_classes(cls.split(":", 1)[0], cls, mark)
        if call.kind == "attrcall":
            return self._run_by(objects, call.method)
        return self._run_by(objects, None) + self.made_closures(cls.split(":", 1)[0], cls, mark)
