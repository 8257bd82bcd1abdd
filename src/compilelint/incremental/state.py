"""The walker's state between two top-level statements: taken, put back, compared.

What the walk of the statements after a point does depends only on the state at that
point (the walker's and every rule's attributes) and on those statements. So if, after
re-walking an edited statement, the state equals what it was after the old version of
that statement, what follows needs no new walk. Three things make "equal" useful:

- outputs (findings, function summaries, compile targets, loops) are kept per statement,
  not in the state: nothing reads another statement's (`OUTPUTS`);
- set members and dict keys that are nodes or `id()`s of nodes are compared only when
  they are nodes of the statements the edit left alone (`kept`): nothing walked later can
  look up any other (the edited statements' own walk is over);
- a node of an old version of an edited statement equals a node of the new version
  when they are the same tree (`deep_equals`); the old one is then aliased to the new one,
  so that state put back never refers to a node outside the current tree.

The current `Module` stands for any `Module` (rules keep the one being walked).
"""

from __future__ import annotations

import enum
import types
from dataclasses import dataclass

import libcst as cst

# Walker attributes that are configuration, not state.
FIXED = frozenset({"path", "module", "settings", "rules", "loop_rule", "_visit", "_leave", "_enter", "_exit",
                   "metadata", "scans", "text", "sparse_model"})
# Walker attributes each statement appends to and nothing reads across statements.
OUTPUTS = ("pending", "crashes", "functions", "compile_targets", "loop_nodes")
_ATOMS = (str, int, float, bool, type(None), bytes, complex, enum.Enum, type, types.FunctionType,
          types.BuiltinFunctionType, frozenset, range)


@dataclass
class Snapshot:
    """A copy of a walker's state (its outputs left out) and of its rules'."""

    walker: object  # the walker it was taken from: its references stand for the walker
    rules: tuple  # that walker's rules, likewise
    state: dict
    rule_states: list[dict]
    loops: int  # how many loops the file had so far (loop ordinals go on from there)
    tree: object = None  # the tree walked: alive while the snapshot is, so the ids it holds stay unique


def newest(node: cst.CSTNode, alias: dict[int, tuple]) -> cst.CSTNode:
    """The newest twin of `node` (itself when it has none): aliases chain, edit after edit."""
    for _ in range(64):  # (a bound, though a chain never loops: each twin is newer)
        twin = alias.get(id(node))
        if twin is None:
            break
        node = twin[1]
    return node


def _immutable(obj) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and params.frozen


class _Copier:
    def __init__(self, memo: dict[int, object], module: cst.Module | None, alias: dict[int, tuple]) -> None:
        self.memo, self.module, self.alias = memo, module, alias
        self.alive: list = []  # what the memo's ids stand for: no id is reused while copying

    def node(self, node: cst.CSTNode) -> cst.CSTNode:
        if self.module is not None and type(node) is cst.Module:
            return self.module
        return newest(node, self.alias)

    def __call__(self, obj):
        if isinstance(obj, _ATOMS):
            return obj
        if isinstance(obj, cst.CSTNode):
            return self.node(obj)
        key = id(obj)
        if key in self.memo:
            return self.memo[key]
        self.alive.append(obj)
        kind = type(obj)
        if kind is dict:
            out = self.memo[key] = {}
            for k, v in obj.items():
                out[self(k)] = self(v)
            return out
        if kind is list:
            out = self.memo[key] = []
            out.extend([self(v) for v in obj])
            return out
        if kind is set:
            out = self.memo[key] = set()
            out.update([self(v) for v in obj])
            return out
        if isinstance(obj, tuple):
            items = [self(v) for v in obj]
            if all(a is b for a, b in zip(items, obj)):
                return obj
            return kind(items) if kind is tuple else kind(*items)
        if kind is types.MethodType:  # a rule keeping `walker.local_lineage`: bound to this walker
            return types.MethodType(obj.__func__, self(obj.__self__))
        if _immutable(obj) or callable(obj):
            return obj
        new = object.__new__(kind)
        self.memo[key] = new
        if hasattr(obj, "__dict__"):
            for name, value in vars(obj).items():
                object.__setattr__(new, name, self(value))
        for klass in kind.__mro__:
            for name in getattr(klass, "__slots__", ()):
                if name != "__dict__" and hasattr(obj, name):
                    object.__setattr__(new, name, self(getattr(obj, name)))
        return new


def _walker_state(walker) -> dict:
    return {k: v for k, v in vars(walker).items() if k not in FIXED and k not in OUTPUTS}


def _rule_state(rule) -> dict:
    return {k: v for k, v in vars(rule).items() if k != "ctx"}


def take(walker, tree: cst.Module | None = None) -> Snapshot:
    """A copy of the walker's state now (nodes are shared: they never change)."""
    memo: dict[int, object] = {id(walker): walker, id(walker.settings): walker.settings}
    memo.update((id(rule), rule) for rule in walker.rules)
    copy = _Copier(memo, None, {})
    return Snapshot(walker, tuple(walker.rules), copy(_walker_state(walker)),
                    [copy(_rule_state(rule)) for rule in walker.rules], len(walker.loop_nodes), tree)


def restore(snapshot: Snapshot, walker, module: cst.Module, alias: dict[int, tuple]) -> None:
    """Put `snapshot` (maybe another walker's) into `walker`, as a copy: the snapshot stays
    as it was. Its walker and rules become `walker` and its rules; every Module, `module`."""
    memo: dict[int, object] = {id(snapshot.walker): walker, id(walker.settings): walker.settings}
    memo.update((id(old), new) for old, new in zip(snapshot.rules, walker.rules))
    copy = _Copier(memo, module, alias)
    for name, value in snapshot.state.items():
        setattr(walker, name, copy(value))
    for rule, state in zip(walker.rules, snapshot.rule_states):
        for name, value in state.items():
            setattr(rule, name, copy(value))


# Smaller ints are never ids of objects on the platforms we know (heap addresses): such a
# set member or key is always compared. (Where ids were smaller, nothing would be
# reused: slower, never wrong.)
_ID_FLOOR = 1 << 32


class _Comparer:
    def __init__(self, walker, snapshot: Snapshot, kept: set[int], alias: dict[int, tuple]) -> None:
        self.peers = {id(snapshot.walker): walker, **{id(o): n for o, n in zip(snapshot.rules, walker.rules)}}
        self.kept, self.alias = kept, alias
        self.pairs: dict[tuple[int, int], bool] = {}
        self.alive: list = []  # what `pairs`' ids stand for
        self.found: list[tuple[cst.CSTNode, cst.CSTNode]] = []  # (old, new) twins

    def _kept(self, item) -> bool:
        if type(item) is int:
            return item < _ID_FLOOR or item in self.kept
        if isinstance(item, cst.CSTNode):
            return id(item) in self.kept
        return True

    def node(self, new: cst.CSTNode, old: cst.CSTNode) -> bool:
        if new is old or (type(new) is cst.Module and type(old) is cst.Module):
            return True
        if newest(old, self.alias) is new:
            return True
        if id(old) not in self.kept and id(new) not in self.kept and new.deep_equals(old):
            self.found.append((old, new))
            return True
        return False

    def same(self, new, old) -> bool:
        if new is old:
            return True
        if isinstance(new, cst.CSTNode) or isinstance(old, cst.CSTNode):
            return isinstance(new, cst.CSTNode) and isinstance(old, cst.CSTNode) and self.node(new, old)
        if isinstance(old, _ATOMS) or isinstance(new, _ATOMS):
            return type(new) is type(old) and new == old
        peer = self.peers.get(id(old))
        if peer is not None:
            return peer is new
        if type(new) is not type(old):
            return False
        key = (id(new), id(old))
        if key in self.pairs:
            return self.pairs[key]
        self.alive.append((new, old))
        self.pairs[key] = True  # (a cycle back here: assume equal until shown otherwise)
        result = self._same(new, old)
        self.pairs[key] = result
        return result

    def _same(self, new, old) -> bool:
        kind = type(new)
        if kind in (dict, set, list, tuple):
            try:
                if new == old:  # equal as Python sees it (nodes by identity): the same here too
                    return True
            except Exception:  # noqa: BLE001 - an element's __eq__: compare by parts
                pass
        if kind is dict:
            a = {k: v for k, v in new.items() if self._kept(k)}
            b = {k: v for k, v in old.items() if self._kept(k)}
            return a.keys() == b.keys() and all(self.same(a[k], b[k]) for k in a)
        if kind is set:
            return {v for v in new if self._kept(v)} == {v for v in old if self._kept(v)}
        if isinstance(new, (list, tuple)):
            return len(new) == len(old) and all(self.same(a, b) for a, b in zip(new, old))
        if kind is types.MethodType:
            return new.__func__ is old.__func__ and self.same(new.__self__, old.__self__)
        if _immutable(new) or callable(new):
            return new == old
        if hasattr(new, "__dict__") and not self.same(vars(new), vars(old)):
            return False
        for klass in kind.__mro__:
            for name in getattr(klass, "__slots__", ()):
                if name != "__dict__" and not self.same(getattr(new, name, None), getattr(old, name, None)):
                    return False
        return True


def same(walker, snapshot: Snapshot, kept: set[int], alias: dict[int, tuple]) -> bool:
    """Whether the walker's state now is `snapshot`'s, as far as what is walked later can
    tell (`kept`: the ids of the nodes of the statements the edit left alone). When it
    is, the old nodes found equal to new ones are added to `alias` (id -> (old, new))."""
    if len(walker.loop_nodes) != snapshot.loops:
        return False
    comparer = _Comparer(walker, snapshot, kept, alias)
    if not comparer.same(_walker_state(walker), snapshot.state):
        return False
    if not all(comparer.same(_rule_state(rule), state) for rule, state in zip(walker.rules, snapshot.rule_states)):
        return False
    for old, new in comparer.found:
        alias[id(old)] = (old, new)  # the old node stays alive: its id is not reused
    return True
