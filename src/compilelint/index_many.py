"""Call edges that run one of several functions (a part of `index.ProjectIndex`): a
method picked by name (`getattr(self, f"{kind}_reduction")`), bound methods kept on an
attribute or handed to the constructor, one of a registry's classes or of the functions a
local name was bound to, an abstract method's overrides, and a method of an untyped
constructor argument's family."""

from __future__ import annotations

import fnmatch
from dataclasses import replace

from compilelint.summary import APPLY, BOUND, MADE, NEW, PATH, CallEdge, names_classes

FAMILY_MAX = 40  # implementations one untyped `self.x.method()` may stand for
# a composite's elements, when their classes are not one family: a few flow layers (gluonts'
# MQF2: 3); beyond, a package's many unrelated `inverse`s say nothing of what the elements are
COMPOSITE_MAX = 4
PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})


class ManyCallees:
    def _named_like(self, key: str, pattern: str) -> tuple[str, ...]:
        """`getattr(self, f"{kind}_reduction")`: the methods of the instance's class, its bases
        and subclasses whose names the pattern matches, and the forward of each submodule
        attribute it matches (`getattr(self, f"layer{i}")`)."""
        owner = self.owner(key)
        if owner is None:
            return ()
        found: list[str] = []
        for cls in (*self._lineage(owner), *self.subclasses(owner)):
            for name, method, _ in self._own_methods(cls):
                if method != key and method not in found and fnmatch.fnmatchcase(name, pattern):
                    found.append(method)
            info = self.classes.get(cls)
            for attr in (info.attr_classes if info else ()):
                if fnmatch.fnmatchcase(attr, pattern) and (forward := self._attr_forward(cls, attr)) \
                        and forward not in found:
                    found.append(forward)
        return tuple(found)

    def _bound_calls(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.<attr>(...)` where the attribute holds bound methods of the instance
        (`self.loss_method = self.a if c else self.b`): what `self.a(...)` and `self.b(...)`
        run, each method and its subclasses' overrides (the instance decides)."""
        owner = self.owner(key)
        for cls in self._lineage(owner) if owner else ():
            info = self.classes.get(cls)
            ref = info.attr_classes.get(call.target) if info else None
            if ref and ref.startswith(BOUND):
                # (`self.f = self.f`, or two attributes set to each other, brevitas' input and
                # output quantisers: followed once, no edge of their own)
                if (cls, call.target) in self._bound_open:
                    return ()
                self._bound_open.add((cls, call.target))
                try:
                    found: list[str] = []
                    for name in ref[len(BOUND):].split("|"):
                        if name != call.target:
                            found += [k for k in self._callees_of(key, replace(call, kind="self", target=name))
                                      if k not in found]
                finally:
                    self._bound_open.discard((cls, call.target))
                return tuple(found)
        return ()

    def _either_attr(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.decoder.update(...)` or `self.rnn(x)` where the attribute holds one of several
        classes ("A|B": `BeamSearchDecoder(...)` in one branch of `__init__`, `GreedyDecoder(...)`
        in another): what the call runs on each (the constructor's arguments decide which)."""
        owner = self.owner(key)
        if owner is None or (call.kind == "self" and self.method(owner, call.target)):
            return ()
        cls, ref = self._nearest_attr(owner, call.target)
        if not ref or "|" not in ref or ref.startswith((BOUND, "[]")):
            return ()
        module, found = cls.split(":", 1)[0], []
        for name in ref.split("|"):
            target = self.resolve_class(module, name)
            if target is None:
                continue
            callee = self.method(target, call.method) if call.kind == "attrcall" else self._called(target)
            if callee and callee not in found:
                found.append(callee)
        return tuple(found)

    def _nearest_attr(self, owner: str, attr: str) -> tuple[str, str | None]:
        """(class, what it stores on `attr`) for the nearest class of the lineage that types it."""
        for cls in self._lineage(owner):
            info = self.classes.get(cls)
            ref = info.attr_classes.get(attr) if info else None
            if ref:
                return cls, ref
        return owner, None

    def _held_members(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.sde.g_prod(...)` where `self.sde` holds a project class (typed, or built in
        `__init__`) that defines no `g_prod`: the instance is that class or one of its
        subclasses, and each may store bound methods under the name in `__init__`
        (torchsde's `self.g_prod = {...}.get(noise, self.g_prod_default)`) or define it."""
        held = self._held_class(self.owner(key), call.target)
        found: list[str] = []
        for cls in (held, *self.subclasses(held)) if held else ():
            info = self.classes.get(cls)
            ref = info.attr_classes.get(call.method, "") if info else ""
            names = ref[len(BOUND):].split("|") if ref.startswith(BOUND) else [call.method]
            for name in names:
                method = self.method(cls, name)
                if method and method not in found:
                    found.append(method)
        return tuple(found)

    def _namesake_members(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.<attr>.method(...)` where the attribute holds a project class (typed, or built)
        that, with its bases and subclasses, has no such method or attribute: the type is wrong
        (gluonts' `picnn: PICNN` is handed the `SequentialNet` its model keeps as `self.picnn`,
        and `reverse` is called on it), and the name is the best witness left: `method` of the
        classes other project classes store under the same attribute name."""
        held = self._held_class(self.owner(key), call.target)
        if held is None or self.method(held, call.method) is not None or any(
                call.method in self.classes[cls].attr_classes or call.method in self.classes[cls].set_attrs
                or self.method(cls, call.method) for cls in (*self._lineage(held), *self.subclasses(held))
                if cls in self.classes):
            return ()
        attr, method = call.target, call.method
        if self._namesakes is None:
            self._namesakes = {}
            for owner, info in self.classes.items():
                module = owner.split(":", 1)[0]
                for name, ref in info.attr_classes.items():
                    if names_classes(ref) and "|" not in ref and (cls := self.resolve_class(module, ref)) is not None:
                        self._namesakes.setdefault(name, set()).add(cls)
        found = (self.method(cls, method) for cls in sorted(self._namesakes.get(attr, ())) if cls != held)
        return tuple(dict.fromkeys(f for f in found if f))

    def _element_members(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.flows[i].inverse(x)`, `for t in self.transforms: t.condition(c)`: the method of
        the container's elements, of their class when `__init__` built them
        (`nn.ModuleList([Block() ...])`); for what a constructor was given
        (`nn.ModuleList(flows)`), each project implementation of one family (`_family`)."""
        owner = self.owner(key)
        for cls in self._lineage(owner) if owner else ():
            info = self.classes.get(cls)
            ref = info.attr_classes.get(call.target, "") if info else ""
            if info is not None and call.target in info.param_attrs:
                # a composite (`SequentialFlow.reverse` runs `flow.reverse` of each flow it
                # was given): its elements are any of the package's classes with the method
                return self._family(call.method, key, composite=key.rsplit(".", 1)[-1] == call.method)
            if ref.startswith("[]"):  # built in `__init__`: of one class, or appended ones of several
                targets = (self.resolve_class(cls.split(":", 1)[0], name) for name in ref[2:].split("|"))
                found = (self.method(target, call.method) for target in targets if target)
                return tuple(f for f in dict.fromkeys(found) if f)
            if ref:
                return ()
        return ()

    def called_classes(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """The project classes of the object a call runs: `self.rnn(x)` / `self.rnn.forward(x)`
        (what the class or a base stores on the attribute: one class, one per branch, or what
        a factory builds or picks, `self.rnn = get_rnn(cell)(...)`), `layer(x)` of a local
        built from a class. Empty when the call is a method's or nothing says."""
        owner = self.owner(key)
        module = key.split(":", 1)[0]
        if call.kind == "instance":
            if call.target.startswith((MADE, NEW)):
                return self.made_classes(module, owner, call.target)[0]
            found = self.resolve_class(module, call.target)
            return (found,) if found else ()
        if call.kind not in ("self", "selfattr") or owner is None \
                or (call.kind == "self" and self.method(owner, call.target)):
            return ()
        cls, ref = self._nearest_attr(owner, call.target)
        home = cls.split(":", 1)[0]
        if ref and ref.startswith(PATH):
            return self.path_classes(home, ref)
        if not ref or ref.startswith(("[]", APPLY, BOUND)):
            return ()
        if ref.startswith((MADE, NEW)):
            return self.made_classes(home, cls, ref)[0]
        return tuple(dict.fromkeys(found for name in ref.split("|") if (found := self.resolve_class(home, name))))

    def path_classes(self, module: str, ref: str) -> tuple[str, ...]:
        """What a `PATH` mark's chain holds (`path:RNNModel>rnn.rnn`): each step the attribute
        of the class the step before holds, one class each; at the end the project classes, or
        the names outside the project (`torch.nn.GRU|torch.nn.LSTM`) as they are written."""
        start, _, chain = ref[len(PATH):].partition(">")
        *steps, last = chain.split(".")
        cls = self.resolve_class(module, start)
        for attr in steps:
            cls = self._held_class(cls, attr)
        owner, held = self._nearest_attr(cls, last) if cls else (None, None)
        if not names_classes(held):
            return ()
        home = owner.split(":", 1)[0]
        return tuple(dict.fromkeys(self.resolve_class(home, name) or name for name in held.split("|")))

    def _held_class(self, class_key: str | None, attr: str) -> str | None:
        owner, ref = self._nearest_attr(class_key, attr) if class_key else (None, None)
        if not names_classes(ref) or "|" in ref:
            return None
        return self.resolve_class(owner.split(":", 1)[0], ref)

    def _attr_forward(self, class_key: str, attr: str) -> str | None:
        """What calling `self.<attr>` runs: set by the class, or else by the first class of its
        lineage that sets it (`self.bm(t0, t1)` in a solver whose base stores `bm: BaseBrownian`)."""
        for owner in self._lineage(class_key):
            info = self.classes.get(owner)
            if info is not None and (attr in info.attr_classes or attr in info.set_attrs):
                return self._attr_method(owner, attr, "forward", containers=True)
        return None

    def _path_class(self, class_key: str | None, path: str) -> str | None:
        """The class `self.A.B` holds: A's class (set in `__init__` or annotated, as a dataclass
        field is), then B's in that class's lineage (d3rlpy's `self._modules.actor_optim`)."""
        for attr in path.split("."):
            class_key = self._held_class(class_key, attr)
        return class_key

    def _called_path(self, class_key: str | None, path: str) -> str | None:
        """What calling `self.A.B(...)` runs, B a field of A's class holding a module or callable object."""
        held = self._path_class(class_key, path)
        return self._called(held) if held else None

    def _held_functions(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.<attr>(...)` where the class (or a base) stores a project function on the
        attribute (`self.search_fn = native_neighbor_search`): that function, resolved in
        the module of the class that stores it (a plain function: nothing is bound); or a
        project class, which the call builds: its `__init__`."""
        owner = self.owner(key)
        found: list[str] = []
        for cls in self._lineage(owner) if owner else ():
            info = self.classes.get(cls)
            refs = info.attr_functions.get(call.target) if info else None
            for ref in refs.split("|") if refs else ():
                module = cls.split(":", 1)[0]
                callee = f"{module}:{ref}" if ".<locals>." in ref else self.resolve_ref(module, ref)
                built = callee in self.classes  # a class kept on the attribute (pythae's `self.prior = RiemannianNormal`)
                if built:
                    callee = self.method(callee, "__init__")
                if callee in self.functions and (built or self.functions[callee].class_name is None) \
                        and callee not in found:
                    found.append(callee)
        return tuple(found)

    def _abstract(self, key: str) -> bool:
        """A method that calls and returns nothing (`raise NotImplementedError`, `pass`, an
        `@abstractmethod`): what runs on an object typed by its class is a subclass's."""
        info = self.functions[key]
        return not info.calls and info.ret is None

    def _protocol_call(self, call: CallEdge, found: str) -> bool:
        """`batch.split(n)` with `batch: BatchProtocol`, a `typing.Protocol` whose `split` is a
        stub: no object is the protocol's own, so what runs is a project class deriving from it
        (tianshou's `Batch`). Not a class of its own: `Helper(...).m()` runs Helper's `m`."""
        info = self.classes.get(self.owner(found) or "")
        return call.kind == "ctorcall" and info is not None and any(
            base.split("[", 1)[0] in PROTOCOLS for base in info.bases)

    def _overrides(self, key: str) -> tuple[str, ...]:
        owner, _, name = key.rpartition(".")
        return tuple(f"{sub}.{name}" for sub in self.subclasses(owner) if f"{sub}.{name}" in self.functions)

    def _passed_methods(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """`self.check_conv_fn(it, x)` where the class defines no such method but its
        constructor is handed one: the bound methods the project's constructor calls pass
        under that keyword (`FixedPoint(check_conv_fn=self.check_conv_fn)`, deepinv's
        optimisers), each resolved in the class of the function that builds the object."""
        owner = self.owner(key)
        lineage = [self.classes[cls] for cls in (self._lineage(owner) if owner else ()) if cls in self.classes]
        if owner is None or self.method(owner, call.target) is not None \
                or any(call.target in info.attr_classes for info in lineage):
            return ()  # (an attribute the class builds an object of holds that object)
        if self._constructions is None:
            self._constructions = {}
            for caller, info in self.functions.items():
                for edge in info.calls:
                    last = edge.target.rsplit(".", 1)[-1] if edge.kind in ("name", "dotted") else ""
                    if edge.attrs and last[:1].isupper() and \
                            (cls := self.resolve_class(caller.split(":", 1)[0], edge.target)) is not None:
                        self._constructions.setdefault(cls, []).append((caller, edge))
        found: list[str] = []
        for cls in (owner, *self.subclasses(owner)):
            for caller, edge in self._constructions.get(cls, ()):
                builder = self.owner(caller)
                for passed_key, attr in edge.attrs if builder else ():
                    method = self.method(builder, attr) if passed_key == call.target else None
                    for callee in (method, *self._overrides(method)) if method else ():
                        if callee not in found:
                            found.append(callee)
        return tuple(found)

    def _either(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """A call on one of a registry's classes ("A|B"), or of the functions a local name
        was bound to: what each of them runs."""
        classes, dot, method = call.target, "", ""
        if call.kind == "ctorcall":
            classes, dot, method = call.target.rpartition(".")
        module, found = key.split(":", 1)[0], []
        for cls in classes.split("|"):
            if call.kind == "name":  # SOLVERS[method](...): the class's __init__; fn(x), a local alias
                class_key = self.resolve_class(module, cls)
                callee = self._constructor(class_key) if class_key else self.resolve_name(module, cls)
            elif call.kind == "dotted":  # fn = mod.a if c else mod.b; fn(x)
                callee = self._lookup(cls)
                callee = None if callee in self.classes else callee
            else:
                callee = self.resolve_call(key, replace(call, target=cls + dot + method))
            if callee and callee not in found:
                found.append(callee)
        return tuple(found)

    def _given_object(self, class_key: str | None, attr: str) -> bool:
        """`self.<attr>` holds what a constructor was given and nothing types."""
        lineage = [self.classes[owner] for owner in self._lineage(class_key) if owner in self.classes] \
            if class_key else []
        return any(attr in info.param_attrs for info in lineage) and not any(attr in info.attr_classes
                                                                             for info in lineage)

    def _family(self, method: str, key: str, composite: bool = False) -> tuple[str, ...]:
        """`self.x.method()` on an object the project cannot type (a constructor parameter:
        gpytorch's `self.likelihood.expected_log_prob(...)`), from function `key`: every
        implementation of `method` in the caller's top-level package, when they are one
        family (overrides of one base's method), or, for a `composite` (a module's method
        calling its namesake on each element it was given), of a few module classes of any
        lineage; none when the name is a dunder, `forward`, or defined by (many) unrelated classes."""
        package = _top_package(key)
        found = self._families.get((package, method))
        if found is None:
            if self._by_method is None:
                self._by_method = {}
                for function, info in self.functions.items():
                    if info.class_name is not None:
                        self._by_method.setdefault(function.rsplit(".", 1)[-1], []).append(function)
            keys = [k for k in self._by_method.get(method, []) if _top_package(k) == package] \
                if not method.startswith("__") and method != "forward" else []
            roots = {next(owner for owner in reversed(self._lineage(k.rsplit(".", 1)[0]))
                          if f"{owner}.{method}" in self.functions) for k in keys}
            found = self._families[(package, method)] = (tuple(keys), len(roots) == 1)
        keys, one_family = found
        if composite and not one_family and (owner := self.owner(key)) and self.is_module_class(owner):
            keys = tuple(k for k in keys if self.is_module_class(k.rsplit(".", 1)[0]))
            return keys if len(keys) <= COMPOSITE_MAX else ()
        return keys if one_family and len(keys) <= FAMILY_MAX else ()


def _top_package(key: str) -> str:
    """`pkg` of `pkg.sub.mod:Cls.method`."""
    return key.split(":", 1)[0].split(".", 1)[0]
