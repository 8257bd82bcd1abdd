"""Kinds across functions and files: what one file's walk leaves open, decided over the
project's summaries (plain data, no libcst).

A file's walk records, for each function, the kinds of the arguments of its call edges and
of its returns, as a kind name or the leaves they depend on: `p|fn|name` (a parameter of
`fn` that nothing in the file types) and `r|fn|i` (what `fn`'s i-th call returns). A
parameter's kind is the join of what every compiled call site passes (`None` ignored:
optional arguments); a return's, what the resolved callee returns. Leaves are resolved on
demand with memos; a leaf met again while being resolved (recursion, mutual recursion)
widens to unknown, so resolution always ends.
"""

from __future__ import annotations

TENSORISH = ("tensor", "likely")
# call edges that pass the instance as the first parameter
BOUND_EDGES = frozenset({"self", "super", "instance", "selfattr", "attrcall", "ctorcall"})


def first_argument(call, info) -> int:
    """The callee's parameter a call site's first positional argument lands in: past `self`
    on a bound call, past `ctx` for an autograd Function's `forward` reached by `.apply`."""
    if call.kind == "apply":
        return 1
    # a bare name that lands in a method is a constructor call: `Cls(x)` fills `__init__`'s self
    return info.bound if call.kind in BOUND_EDGES or call.kind == "name" else 0


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

    def spec_kind(self, module: str, spec) -> str:
        """A kind spec of `module`'s summary: a kind name, or the best of its leaves."""
        if isinstance(spec, str):
            return spec
        best = "unknown"
        for leaf in spec:
            kind = self.leaf_kind(module, leaf)
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
                if tag == "p":
                    return f"`{rest}` is a tensor at the compiled calls of `{fn}`"
                callee = self._callee(f"{module}:{fn}", int(rest))
                name = callee.split(":", 1)[1] if callee else "the callee"
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
            if tag == "p":
                found = self._param_kind(f"{module}:{fn}", rest)
            else:
                callee = self._callee(f"{module}:{fn}", int(rest))
                ret = self.index.functions[callee].ret if callee else None
                found = self.spec_kind(callee.split(":", 1)[0], ret) if ret is not None else "unknown"
        except (ValueError, KeyError, IndexError, TypeError):  # a damaged summary: no claim
            found = "unknown"
        finally:
            self._active.discard(key)
        self._memo[key] = found
        return found

    def _callee(self, key: str, edge: int) -> str | None:
        info = self.index.functions.get(key)
        calls = info.calls if info else ()
        return self.index.resolve_call(key, calls[edge]) if 0 <= edge < len(calls) else None

    def _param_kind(self, key: str, name: str) -> str:
        info = self.index.functions.get(key)
        sources = self.callers.get(key)
        if not info or info.params is None or (not sources and key not in self.entries):
            return "unknown"
        params, defaults = info.params, info.defaults
        if key in self.entries and name not in defaults and name in params[info.bound:]:
            return "likely"
        kinds = set()
        for caller, edge in sources:
            call = self.index.functions[caller].calls[edge]
            args = call.args
            offset = first_argument(call, info)
            position = params.index(name) - offset if name in params else None
            spec = None
            for arg_key, arg_spec in args:
                if arg_key == name or (position is not None and position >= 0 and arg_key == position):
                    spec = arg_spec
            if spec is None:
                starred = any(arg_key == "*" for arg_key, _ in args)
                spec = "unknown" if starred else defaults.get(name, "unknown")
            kind = self.spec_kind(caller.split(":", 1)[0], spec)
            if kind != "none":
                kinds.add(kind)
        if not kinds or not kinds <= set(TENSORISH):
            return "unknown"
        return "tensor" if kinds == {"tensor"} else "likely"
