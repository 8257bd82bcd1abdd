"""Kinds across functions and files: what one file's walk leaves open, decided over the
project's summaries (plain data, no libcst).

A file's walk records, for each function, the kinds of the arguments of its call edges and
of its returns, as a kind name or the leaves they depend on: `p|fn|name` (a parameter of
`fn` that nothing in the file types), `a|fn|name` (one annotated `int` / `float`: a tensor
only where a call passes a certain one), `s|cls|attr` (`self.attr` set by a base class in
another file), `o|module.Class|attr` (`model.attr` for a parameter annotated with a class of
another file), `r|fn|i` (what `fn`'s i-th call returns) and `i|fn|i#n` (the n-th element of the
tuple it returns). A parameter is a tensor when some
compiled call site passes one: the path through that call breaks, whatever the others pass
(`None` ignored: optional arguments). A return is what the resolved callee returns, read
at the call site: where the callee returns one of its parameters, what that site passes
(`default(val, d)`). Leaves are resolved on
demand with memos; a leaf met again while being resolved (recursion, mutual recursion)
widens to unknown, so resolution always ends.
"""

from __future__ import annotations

TENSORISH = ("tensor", "likely")
# call edges that pass the instance as the first parameter
BOUND_EDGES = frozenset({"self", "super", "instance", "selfattr", "attrcall", "pathcall", "ctorcall", "elemcall",
                         "untyped"})
CTX_NAMES = frozenset({"ctx", "_ctx", "context", "self"})


def first_argument(call, info) -> int:
    """The callee's parameter a call site's first positional argument lands in: past `self`
    on a bound call, past `ctx` for an autograd Function's `forward` reached by `.apply`."""
    if call.kind == "apply":  # past `ctx`; a forward with its own `setup_context` (torch 2's style) takes none
        return 0 if info.params and info.params[0] not in CTX_NAMES else 1
    # a bare name that lands in a method is a constructor call: `Cls(x)` fills `__init__`'s self
    return info.bound if call.kind in BOUND_EDGES or call.kind == "name" else 0


def passed(call, info, name: str, among=None):
    """The spec a call site passes for parameter `name` of the callee `info`, by keyword or
    by position (None: it passes none there); `among`: other (position or keyword, value)
    pairs of the call than its specs (`CallEdge.classes`)."""
    position = info.params.index(name) - first_argument(call, info) if info.params and name in info.params else None
    spec = None
    for key, arg_spec in call.args if among is None else among:
        if key == name or (position is not None and position >= 0 and key == position):
            spec = arg_spec
    return spec


class KindSolver:
    def __init__(self, index, region: set[str], entries: frozenset[str] = frozenset()) -> None:
        self.index = index
        # the package's API (index.package_api): called from outside, its parameters
        # without a default hold what user code passes, tensors (as a forward's input)
        self.entries = entries
        self.callers: dict[str, list[tuple[str, int]]] = {}
        for key in region:
            for i, call in enumerate(index.functions[key].calls):
                if call.kind in ("local", "decorator"):
                    continue  # (a wrapper's `*args` are not this edge's arguments)
                for callee in index.callees(key, call):
                    if callee in region:
                        self.callers.setdefault(callee, []).append((key, i))
        self._memo: dict[tuple[str, str], str] = {}
        self._active: set[tuple[str, str]] = set()

    def spec_kind(self, module: str, spec, resolve=None) -> str:
        """A kind spec of `module`'s summary: a kind name, or the best of its leaves (each
        read by `resolve`, by default `leaf_kind`)."""
        if isinstance(spec, str):
            # (a size, a maybe-None: calls._value_spec; a boolean mask: calls.enter_Subscript)
            return {"set": "value", "optional": "unknown", "mask": "tensor"}.get(spec, spec)
        best = "unknown"
        for leaf in spec:
            kind = resolve(leaf) if resolve else self.leaf_kind(module, leaf)
            if kind == "tensor":
                return kind
            if kind == "likely":
                best = kind
        return best

    def explain(self, module: str, leaves) -> str:
        """Why the first tensor leaf is one, for a finding's message."""
        for leaf in leaves:
            if self.leaf_kind(module, leaf) in TENSORISH:
                tag, fn, rest = leaf.split("|", 2)
                if tag in ("p", "a"):
                    return f"`{rest}` is a tensor at the compiled calls of `{fn}`"
                if tag == "s":
                    return f"`self.{rest}` is a tensor set by a base class of `{fn}`"
                if tag == "o":
                    return f"`{rest}` of a `{fn.rsplit('.', 1)[-1]}` is a tensor"
                if tag == "v":
                    return f"`.{rest}()` of the project's tensor subclass returns a tensor"
                callee = self._callee(f"{module}:{fn}", int(rest.partition("#")[0]))
                name = callee.split(":", 1)[1] if callee else "the callee"
                if tag == "f":
                    return f"`{rest.partition('#')[2]}` of what `{name}()` builds is a tensor"
                if tag == "i":
                    return f"`{name}()` returns a tensor in that place"
                return f"`{name}()` returns a tensor"
        return ""

    def leaf_kind(self, module: str, leaf: str) -> str:
        key = (module, leaf)
        found = self._memo.get(key)
        if found is not None:
            return found
        if key in self._active:
            return "unknown"  # a cycle: widen
        self._active.add(key)
        try:
            tag, fn, rest = leaf.split("|", 2)
            if tag in ("p", "a"):  # ("a": annotated `int` / `float`: only a passed tensor says otherwise)
                found = self._param_kind(f"{module}:{fn}", rest, annotated=tag == "a")
            elif tag == "s":
                found = self._inherited_attr(f"{module}:{fn}", rest)
            elif tag == "o":  # `model.attr`, `model` a parameter annotated with a class (`fn` its name)
                owner = self.index.resolve_class(module, fn)
                found = self._inherited_attr(owner, rest) if owner else "unknown"
            elif tag == "v":  # `x.from_forward()`: a method torch.Tensor lacks, on a tensor
                found = self._tensor_method(rest)
            elif tag == "f":  # `made.attr`, `made` what the function's call edge built
                edge, _, attr = rest.partition("#")
                found = self._built_attr(f"{module}:{fn}", int(edge), attr)
            else:
                edge, _, n = rest.partition("#")
                found = self._returned(f"{module}:{fn}", int(edge), int(n) if tag == "i" else None)
        except (ValueError, KeyError, IndexError, TypeError):  # a damaged summary: no claim
            found = "unknown"
        finally:
            self._active.discard(key)
        self._memo[key] = found
        return found

    def _tensor_method(self, method: str) -> str:
        """What the project's tensor subclasses return from their own `method` (the best of
        their definitions: pypose's `LieTensor.matrix()` a tensor, flowtorch's
        `BijectiveTensor.from_forward() -> bool` none); "unknown" where none defines it (the
        receiver was taken for a tensor, and is not one)."""
        best = "unknown"
        for key in self.index.tensor_subclass_methods(method):
            info = self.index.functions[key]
            module = key.split(":", 1)[0]
            kind = self.spec_kind(module, info.ret) if info.ret is not None else (info.promised or "unknown")
            if kind == "tensor":
                return kind
            if kind == "likely":
                best = kind
        return best

    def _built_attr(self, caller: str, edge: int, attr: str) -> str:
        """`attr` of what the call edge returns, when the callee builds its class in every
        `return` (`def load_separator(): return Separator(...)`): a tensor if the attribute is
        one in each class it may build."""
        callee = self._callee(caller, edge)
        info = self.index.functions.get(callee) if callee else None
        if info is None or not info.builds:
            return "unknown"
        module = callee.split(":", 1)[0]
        owners = [self.index.resolve_class(module, name) for name in info.builds.split("|")]
        kinds = {self._inherited_attr(owner, attr) if owner else "unknown" for owner in owners}
        return "tensor" if kinds == {"tensor"} else "unknown"

    def _inherited_attr(self, class_key: str, attr: str) -> str:
        """`self.attr` in a class whose lineage crosses files: a tensor if the first class on
        it that sets the attribute holds a tensor there."""
        for owner in self.index.lineage(class_key):
            info = self.index.classes.get(owner)
            if info is None:
                continue
            if attr in info.tensor_attrs:
                return "tensor"
            if attr in info.set_attrs or attr in info.attr_classes:
                return "unknown"
        return "unknown"

    def _callee(self, key: str, edge: int) -> str | None:
        """The function a call edge lands in; one the edge alone runs (what a factory built:
        `self.distance = self.get_default_distance()`, `index_made`) when the lookup finds none."""
        info = self.index.functions.get(key)
        calls = info.calls if info else ()
        if not 0 <= edge < len(calls):
            return None
        found = self.index.resolve_call(key, calls[edge])
        if found is None:
            only = self.index.callees(key, calls[edge])
            found = only[0] if len(only) == 1 else None
        return found

    def _returned(self, caller: str, edge: int, n: int | None) -> str:
        """What the call returns (its `n`-th element for `a, b = f()`), read at this call
        site: where it is the callee's own parameter (`default(val, d)` returns `val` or `d`),
        what this site passes decides, not every caller's join."""
        callee = self._callee(caller, edge)
        info = self.index.functions[callee] if callee else None
        if info is None:
            return "unknown"
        spec = info.ret if n is None else (info.items[n] if info.items and n < len(info.items) else None)
        if spec is None and n is not None and not info.items:
            # `a, b, c = f()` where f returns no tuple display (`return torch.where(m)`, or
            # another function's result): an element of a tensor (or of torch's tuple of
            # tensors) is a tensor, so the whole return's kind stands for each element
            whole = self._returned(caller, edge, None)
            return whole if whole in TENSORISH else "unknown"
        if spec is None:
            return info.promised or "unknown"  # (a method that returns nothing: its annotation's promise)
        module = callee.split(":", 1)[0]
        call = self.index.functions[caller].calls[edge]

        def at_site(leaf: str) -> str:
            tag, fn, rest = leaf.split("|", 2)
            if tag in ("p", "a") and f"{module}:{fn}" == callee and info.params is not None:
                return self.spec_kind(caller.split(":", 1)[0], self._passed(call, info, rest))
            return self.leaf_kind(module, leaf)

        return self.spec_kind(module, spec, at_site)

    @staticmethod
    def _passed(call, info, name: str):
        """The spec a call site passes for parameter `name` (its default when it passes none)."""
        spec = passed(call, info, name)
        if spec is None:
            starred = any(arg_key == "*" for arg_key, _ in call.args)
            spec = "unknown" if starred else info.defaults.get(name, "unknown")
        return spec

    def _param_kind(self, key: str, name: str, annotated: bool = False) -> str:
        """A tensor when a compiled call passes one (that path breaks, whatever the others
        pass); a likely tensor when a call passes one and none passes a Python value. A
        parameter annotated `int` / `float` (`annotated`) is a tensor only where a call passes
        a certain one."""
        info = self.index.functions.get(key)
        sources = self.callers.get(key)
        if not info or info.params is None or (not sources and key not in self.entries):
            return "unknown"
        kinds = set()
        for caller, edge in sources or ():
            call = self.index.functions[caller].calls[edge]
            kind = self.spec_kind(caller.split(":", 1)[0], self._passed(call, info, name))
            if kind != "none":
                kinds.add(kind)
        if key in self.entries and name not in info.defaults and name in info.params[info.bound:] and not annotated:
            # an API entry's input, as a forward's: a likely tensor, unless the package's own
            # calls pass it Python values only (torchattacks' `saliency_map(..., increasing, ...)`)
            return "unknown" if "value" in kinds and not kinds & {"tensor", "likely"} else "likely"
        if "tensor" in kinds:
            return "tensor"
        if annotated:
            return "value"  # (no certain tensor passed: the annotation stands)
        # a guess at one site and a number at another: a helper taking either (`torch_int(x)`)
        return "likely" if "likely" in kinds and "value" not in kinds else "unknown"
