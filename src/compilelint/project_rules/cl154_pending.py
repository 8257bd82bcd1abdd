"""CL154 (the project phase of `rules/cl154_parameters_after_state_change.py`): `.parameters()`
(or `.buffers()`, `.modules()`, their `named_` forms) of a module after the same compiled call
assigned one of its parameters, buffers or submodules, and a plain attribute, of it or of a
submodule (pomegranate's `self.shapes = _cast_as_parameter(...)` beside `self._initialized =
True`, then `self.dtype`, a property reading `next(self.parameters())`).

What a function does to its module is replayed in order from `FunctionSummary.state` (the
writes and reads, each after so many call edges) and its call edges, into what it calls on
the same object (`self.m()`, a `self.x` property) or on a submodule (`self.child(x)`,
`self.child.m()`): each path of attributes from the compiled function's `self` collects
the state writes and plain writes made so far, and a read of a path breaks when it has both,
or one below it does and the read walks the whole tree (not `next(self.parameters())`, which
stops at the first parameter, before the changed submodule or not). The replay of each function is kept, so the project is walked once.
"""

from __future__ import annotations

from dataclasses import replace

from compilelint.finding import API, PENDING_STATE, when_text
from compilelint.summary import PARAMETER, names_classes

DEPTH = 6  # calls followed below a compiled function
CALLEES = 4  # functions one call edge may stand for (an abstract method's overrides)
EFFECTS = 64  # effects one function's replay keeps (the first ones)


def run(context) -> list:
    wanted = {}
    for analysis, finding in context.deferred:
        if finding.needs[0].startswith(PENDING_STATE):
            _, qualname, event = finding.needs[0].split("|", 2)
            wanted[(f"{analysis.module}:{qualname}", int(event))] = (analysis, finding)
    if not wanted:
        return []
    replay = _Replay(context.index)
    fired: dict[tuple, tuple] = {}
    for root in sorted(context.region | context.api):
        if context.index.owner(root) is None:
            continue
        dirty: dict[tuple, list] = {}
        for effect in replay.effects(root, 0, ()):
            if effect[0] == "w":
                _, path, attr, state, key = effect
                marks = dirty.setdefault(path, [None, None])
                slot = 0 if state else 1
                marks[slot] = marks[slot] or (attr, key)
            else:
                _, path, lazy, read = effect
                # (a submodule's pending change breaks a walk over the whole tree; `next()` may
                # stop at a parameter before it)
                witness = next((marks for held, marks in dirty.items() if marks[0] and marks[1]
                                and (held == path or (not lazy and held[:len(path)] == path))), None)
                if witness and read in wanted and (read not in fired or fired[read][1] and root in context.region):
                    fired[read] = (witness, root not in context.region)
    out = []
    for read, ((state, plain), api) in sorted(fired.items()):
        analysis, finding = wanted[read]
        when = tuple(finding.when) + ((API,) if api and API not in finding.when else ())
        message = finding.message.removesuffix(when_text(finding.when))
        message = message.replace("{state}", _named(*state)).replace("{plain}", _named(*plain)) + when_text(when)
        out.append((analysis, replace(finding, needs=(), when=when, message=message,
                                      severity="note" if API in when else finding.severity)))
    return out


def _named(attr: str, key: str) -> str:
    return f"`{attr}` (in `{key.split(':', 1)[1]}`)"


class _Replay:
    def __init__(self, index) -> None:
        self.index = index
        self.memo: dict[str, tuple] = {}

    def effects(self, key: str, depth: int, stack: tuple) -> tuple:
        """("w", path, attr, is state, key) and ("r", path, lazy, (key, event)) in the order the
        function and what it calls on its own object and submodules make them; paths are
        attributes below the function's `self`."""
        known = self.memo.get(key)
        if known is not None:
            return known
        if depth > DEPTH or key in stack:
            return ()
        info = self.index.functions[key]
        owner = self.index.owner(key)
        events, calls, out = info.state, info.calls, []
        at = 0
        for edge_index in range(len(calls) + 1):
            while at < len(events) and events[at][-1] <= edge_index:
                out.extend(self._event(key, owner, at, events[at]))
                at += 1
            if edge_index == len(calls) or len(out) >= EFFECTS:
                break
            edge = calls[edge_index]
            path = self._path(owner, edge)
            if path is None:
                continue
            for callee in self.index.callees(key, edge)[:CALLEES]:
                for effect in self.effects(callee, depth + 1, (*stack, key)):
                    out.append((effect[0], path + effect[1], *effect[2:]))
        found = tuple(out[:EFFECTS])
        if not stack or found:
            self.memo[key] = found  # (an empty replay cut short by a cycle may be fuller from elsewhere)
        return found

    def _event(self, key: str, owner: str | None, at: int, event) -> list:
        if event[0] == "r":
            base = event[1]
            return [("r", () if base == "self" else (base[len("self."):],), event[2], (key, at))]
        return [("w", (), event[1], self._state(key, owner, event[1], event[2]), key)]

    def _path(self, owner: str | None, edge) -> tuple | None:
        """Where a call runs, below the caller's `self`: () for its own methods and getters,
        (attr,) for a submodule's; None for a call on anything else."""
        if edge.kind == "property":
            return () if edge.target == "self" else None
        if edge.kind == "self":
            return () if owner and self.index.method(owner, edge.target) else (edge.target,)
        if edge.kind in ("selfattr", "attrcall"):
            return (edge.target,)
        return None

    def _state(self, key: str, owner: str | None, attr: str, evidence: str) -> bool:
        """Whether `self.<attr> = v` assigns module state (a parameter, a buffer, a submodule)."""
        index = self.index
        module = key.split(":", 1)[0]
        if evidence == "1":
            return True
        if evidence.startswith("k:"):
            cls = index.resolve_class(module, evidence[2:])
            return cls is not None and index.is_module_class(cls)
        if evidence.startswith("c:"):
            ref = evidence[2:]
            function = index.resolve_ref(module, ref)
            info = index.functions.get(function) if function else None
            if info is not None and PARAMETER in info.builds.split("|"):
                return True
        for cls in index.lineage(owner) if owner else ():
            summary = index.classes.get(cls)
            if summary is None:
                continue
            if attr in summary.state_attrs:
                return True
            ref = summary.attr_classes.get(attr)
            if ref and names_classes(ref) and "|" not in ref:
                held = index.resolve_class(cls.split(":", 1)[0], ref)
                if held is not None and index.is_module_class(held):
                    return True
        return False
