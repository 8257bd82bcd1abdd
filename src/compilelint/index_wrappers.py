"""What calling a function that a project decorator wraps runs: the wrappers nested in the
decorator (a part of `index.ProjectIndex`)."""

from __future__ import annotations


class DecoratorWrappers:
    def _wrappers(self, key: str, decorator: str) -> tuple[str, ...]:
        """The wrappers nested in a project decorator (`@functools.wraps(method) def g(...)`
        inside `def cached(method)`, at any depth: `def factory(opts): def decorator(func):
        @wraps(func) def wrapper(...)`), and in the project functions it returns a call of
        (`return _cached(method, name)`): what runs when the decorated function is called.
        The decorator's own body and its other helpers (a docstring builder) run once, at
        definition: they are not in the region."""
        module = key.split(":", 1)[0]
        found = self._lookup(decorator) if "." in decorator else self.resolve_name(module, decorator)
        if not found or found not in self.functions:
            return ()
        out: list[str] = []
        for outer in (found, *(self.resolve_call(found, c) for c in self.functions[found].calls
                                if c.kind in ("name", "dotted"))):
            stack = list(self._nested(outer)) if outer else []
            while stack:
                inner = stack.pop()
                stack.extend(self._nested(inner))
                if self.functions[inner].wrapper and inner not in out:
                    out.append(inner)
        return tuple(out)

    def _nested(self, key: str) -> list[str]:
        if self._children is None:
            children: dict[str, list[str]] = {}
            for k, info in self.functions.items():
                if info.parent:
                    children.setdefault(f"{k.split(':', 1)[0]}:{info.parent}", []).append(k)
            self._children = children
        return self._children.get(key, [])
