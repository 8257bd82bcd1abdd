"""The walk: one pass over a file's tree that keeps the semantic model (the parts in this
package) up to date and dispatches every node to the rules, which read the model as
`self.ctx` (see `compilelint.semantic` for what they may ask)."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import libcst as cst

from compilelint.finding import CERTAIN
from compilelint.semantic.bindings import Bindings
from compilelint.semantic.ndarray_names import NdarrayNames
from compilelint.semantic.branches import BranchMerging
from compilelint.semantic.calls import CallGraph
from compilelint.semantic.dunder_calls import DunderCalls
from compilelint.semantic.classes import ClassTracking
from compilelint.semantic.compiled import CompileTracking
from compilelint.semantic.defaulted import DefaultedParams
from compilelint.semantic.entries import EntryTracking
from compilelint.semantic.factories import FactoryTracking
from compilelint.semantic.guards import GuardTracking
from compilelint.semantic.imports import ImportTracking
from compilelint.semantic.iteration import IterationBindings
from compilelint.semantic.kinds import Kind
from compilelint.semantic.loops import LoopTracking
from compilelint.semantic.narrowing import GuardNarrowing, Narrowing
from compilelint.semantic.number_reads import NumberReads
from compilelint.semantic.open_attrs import OpenAttributes
from compilelint.semantic.state_events import StateEvents
from compilelint.summary import ClassSummary, CompileTarget, FunctionSummary, ModuleSummary

# The parts, in the order their enter_/exit_ handlers run for a node.
PARTS = (ImportTracking, ClassTracking, GuardTracking, LoopTracking, Bindings, NdarrayNames, OpenAttributes, Narrowing,
         DefaultedParams, FactoryTracking, EntryTracking, BranchMerging, GuardNarrowing, IterationBindings,
         CompileTracking, CallGraph, DunderCalls, StateEvents, NumberReads)


@dataclass(slots=True)
class Pending:
    """A rule's finding before positions are known."""

    rule: Any
    node: cst.CSTNode
    message: str
    help: str | None
    severity: str
    scope: str | None  # the function whose being compiled makes it count
    loop: cst.CSTNode | None  # the outermost loop around a graph break (for CL150)
    when: tuple[str, ...] = ()  # modes the line needs (training, dtype=float16, labels)
    needs: tuple[str, ...] = ()  # leaves one of which must be a tensor (project-wide)
    edits: tuple = ()  # the autofix, as rules.base.NodeEdit (positions come later)


@lru_cache(maxsize=None)
def _handler_names(cls: type, prefixes: tuple[str, ...] = ("visit_", "leave_")) -> tuple[str, ...]:
    """`cls`'s attributes that start with `prefixes` (sorted, as dir() gives them)."""
    return tuple(name for name in dir(cls) if name.startswith(prefixes))


@lru_cache(maxsize=None)
def _part_handlers(prefix: str) -> dict[str, tuple]:
    """Node type name -> the parts' `enter_`/`exit_` functions for it, in PARTS order."""
    table: dict[str, list] = {}
    for part in PARTS:
        for name, fn in vars(part).items():
            if name.startswith(prefix) and callable(fn):
                table.setdefault(name[len(prefix):], []).append(fn)
    return {name: tuple(fns) for name, fns in table.items()}


class Walker(*PARTS, cst.CSTVisitor):
    """Keeps scopes, kinds and regions-to-be, and dispatches to rules."""

    def __init__(self, path: str, module: str, rule_classes: list[type], settings) -> None:
        super().__init__()
        self.path = path
        self.module = module
        self.settings = settings
        self.text: str | None = None  # the source, where the caller has it (None: unknown)
        self.sparse_model = None  # rules._sparse: the file's sparse values, at the module
        self.sparse_key: tuple = ()  # what that model decides (state, where the model is not)
        self.imports: dict[str, str] = {}
        self.exports: list[str] = []  # a top-level package's unconditional re-exports
        self.module_env: dict = {}
        self.module_var_class: dict[str, str] = {}
        # module-level dicts of classes (`SOLVERS = {"rk4": RK4, ...}`): "A|B|..." by name
        self.class_tables: dict[str, str] = {}
        self.foreign_attrs: set[str] = set()  # `obj.x = v` with obj not `self` (semantic.classes)
        self.attr_open: dict[tuple[str, str], tuple[str, ...]] = {}  # (class, attr) -> leaves (semantic.open_attrs)
        self.module_defs: set[str] = set()
        self.constant_markers: frozenset[str] = frozenset()  # decorators that mark a function constant
        self.classes: list = []
        self.class_depths: list[int] = []  # how many function scopes enclosed each class of `classes`
        self.class_table: dict = {}
        self.class_inits: dict = {}  # class qualname -> its `__init__` (a subclass's `super().__init__(...)`)
        self.scopes: list = []
        self.functions: dict[str, FunctionSummary] = {}
        self.compile_targets: list[CompileTarget] = []
        self.escaped_nodes: set[int] = set()
        self.branch_frames: list = []  # semantic.branches
        self.number_frames: list = []  # semantic.number_reads: one frame per function being walked
        self.not_read: set[int] = set()  # id() of attributes called or assigned, not read (semantic.calls)
        self.state_reads: dict[int, int] = {}  # id(Call) -> its state event (semantic.state_events)
        self.state_lazy: set[int] = set()  # id(Call) of the reads `next()` takes one item of
        self.module_functions: dict[str, cst.FunctionDef] = {}  # module-level defs by name
        self.tuple_fields: dict[str, tuple[str, ...]] = {}  # the file's namedtuples' fields (semantic.returns)
        # on demand, per file: semantic.classes.return_class, semantic.guards' helper values
        # and names empty under compile
        self.return_classes: dict[str, str | None] = {}
        self.factory_returns: dict[str, list] = {}  # semantic.factories: qualname -> what its returns make
        self.closure_returns: dict[str, list] = {}  # semantic.factories: qualname -> nested functions it returns
        self.made_names: dict[int, dict[str, str]] = {}  # id(scope) -> local name -> factory mark
        self.picked_names: dict[int, dict[str, list | None]] = {}  # id(scope) -> local -> classes it names
        self.factory_scopes: dict[int, object] = {}  # id(FunctionDef) -> its scope, while walked
        self._constants: dict[str, bool | None] = {}
        self._empties: dict[int, frozenset[str]] = {}
        self._flags: dict[int, dict] = {}  # id(function) -> semantic.local_flags, when first asked
        self._optional: dict[int, frozenset[str]] = {}  # id(function) -> semantic.local_flags.optional_locals
        self._self_stores: dict[int, frozenset[str]] = {}  # id(function) -> semantic.local_flags.self_stores
        self.escaped = 0
        # Decorators, defaults and annotations run where the function is defined, not in it.
        self.header_nodes: set[int] = set()
        self.header = 0
        self.branch_when: dict[int, tuple[str, ...]] = {}  # id(branch) -> its `when`
        self._typed_blocks: dict[int, tuple] = {}  # id(if body) -> the class an isinstance test proves (narrowing)
        self.defaulted_blocks: dict[int, str] = {}  # semantic.defaulted
        self.defaulting: list[tuple[int, str]] = []
        self.defaulted: dict[int, set[str]] = {}
        self.defaulted_seen: set[str] = set()
        self.when_stack: list[tuple[str, ...]] = []
        self.loop_nodes: list[cst.CSTNode] = []  # every For/While, in walk order
        self.loop_ordinal: dict[int, int] = {}  # id(For/While) -> its index in loop_nodes
        # "m" or "self.m" -> "optimized" (m = torch.compile(...)) or "inplace" (m.compile())
        self.compiled: dict[str, dict[str, str]] = {}
        # torch.compile's keyword arguments (as text) for each compiled name, same keys as
        # `compiled`, and ("def", qualname) for functions decorated with @torch.compile
        self.compile_options: dict[tuple[str, str], dict[str, str]] = {}
        self.module_loops: list[cst.CSTNode] = []  # for/while around module-level code
        self.assuming: set[str] | None = None  # see semantic.infer
        self.open_seen = False
        self.scans: dict = {}  # id(method) -> (method, method_scan's result); the server hands one that outlives the walk
        self.pending: list[Pending] = []
        self.crashes: list[tuple[str, str]] = []
        self.rules = [cls(self) for cls in rule_classes]
        self.loop_rule = next((r for r in self.rules if r.code == "CL150"), None)
        self._visit: dict[str, list] = {}
        self._leave: dict[str, list] = {}
        for rule in self.rules:
            for attr in _handler_names(type(rule)):  # dir() once per rule class, not per file
                table = self._visit if attr.startswith("visit_") else self._leave
                table.setdefault(attr[6:], []).append((rule, getattr(rule, attr)))
        self._enter = _part_handlers("enter_")
        self._exit = _part_handlers("exit_")
        self._dead: set[str] = set()

    @classmethod
    def handled_types(cls) -> set[str]:
        return {*_part_handlers("enter_"), *_part_handlers("exit_")}

    # ---- reporting ---------------------------------------------------------------------

    def report(self, rule, node: cst.CSTNode, message: str, *, help: str | None,
               severity: str, scope: str | None = None, edits: tuple = (), when: tuple[str, ...] = (),
               needs: tuple[str, ...] = ()) -> None:
        """`scope` overrides the function whose being compiled makes the finding count;
        `when`: conditions the rule read off the node itself (`requires_grad=self.training`);
        `needs`: what the project must decide for the finding to hold (CL151's `BREAKS`)."""
        if rule.region_only and (self.escaped or self.header or not (self.scopes or scope)):
            return
        scope = scope or (self.function.qualname if self.scopes else None)
        loop = self.function.loops[0] if (self.scopes and self.function.loops and rule.breaks_graph) else None
        when_extra, when = when, (self.when if self.scopes else ())
        if self.defaulted_seen and (label := self.defaulted_label(node)):
            when_extra += (label,)
        if rule.guessed_parameters and severity == "warning" and self.scopes:
            when_extra += self.guessed_parameter(node)
        for label in (*self.branch_when.get(id(node), ()), *when_extra):  # (branch: reported from `a and b`)
            if label not in when:
                when += (label,)
        self.pending.append(Pending(rule, node, message, help, severity, scope, loop, when, needs, edits))

    def reported_nodes(self) -> list[cst.CSTNode]:
        """The nodes the findings so far need positions for (each finding's, its loop's, and
        those its edits start or end at)."""
        nodes = [n for p in self.pending for n in (p.node, p.loop) if n is not None]
        nodes += [at.node for p in self.pending for edit in p.edits for at in (edit.start, edit.end)]
        return nodes

    # ---- dispatch ----------------------------------------------------------------------

    def _dispatch(self, table: dict[str, list], node: cst.CSTNode) -> None:
        for rule, handler in table.get(type(node).__name__, ()):
            if rule.code in self._dead:
                continue
            if self.defaulted_seen:
                self.defaulted_seen.clear()  # (what this handler reads, not the one before)
            try:
                if rule.infers_across_functions and self.scopes:
                    self._run_assuming(rule, handler, node)
                else:
                    handler(node)
            except Exception:  # one rule's bug must not stop the run
                self.assuming = None
                self._dead.add(rule.code)
                self.crashes.append((rule.code, traceback.format_exc(limit=4)))

    def _run_assuming(self, rule, handler, node: cst.CSTNode) -> None:
        """Run a handler; if it read a value only the project can type, run it again with
        such values taken for tensors: what it reports only then holds if one of them is
        (its `needs`; semantic.project decides)."""
        self.open_seen = False
        before = len(self.pending)
        handler(node)
        if not self.open_seen:
            return
        already = {(id(p.node), p.rule.code) for p in self.pending[before:]}
        self.assuming = set()
        start = len(self.pending)
        try:
            handler(node)
            leaves = tuple(sorted(self.assuming))
        finally:
            self.assuming = None
        extra = self.pending[start:]
        del self.pending[start:]
        for pending in extra:
            needs = leaves
            if rule.needs_certain_tensor:  # the reported value's own leaves, not the whole node's
                own = tuple(sorted(self.assumed(pending.node)[1]))
                needs = (CERTAIN, *own) if own else ()
            if needs and (id(pending.node), pending.rule.code) not in already:
                pending.needs = needs
                self.pending.append(pending)

    def on_visit(self, node: cst.CSTNode) -> bool:
        key = id(node)
        if key in self.escaped_nodes:
            self.escaped += 1
        if key in self.header_nodes:
            self.header += 1
        if key in self.branch_when:
            self.when_stack.append(self.branch_when[key])
        for enter in self._enter.get(type(node).__name__, ()):
            enter(self, node)
        self._dispatch(self._visit, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._dispatch(self._leave, original_node)
        for exit_ in self._exit.get(type(original_node).__name__, ()):
            exit_(self, original_node)
        key = id(original_node)
        if key in self.escaped_nodes:
            self.escaped -= 1
        if key in self.header_nodes:
            self.header -= 1
        if key in self.branch_when:
            self.when_stack.pop()

    # ---- results -----------------------------------------------------------------------

    def summary(self) -> ModuleSummary:
        classes = {name: ClassSummary(tuple(info.bases), info.attr_classes, tuple(info.decorators),
                                      tuple(sorted(info.none_attrs - info.set_attrs)), tuple(sorted(info.set_attrs)),
                                      tuple(sorted(info.param_attrs)),
                                      tuple(sorted(a for a, k in info.attr_kinds.items() if k == Kind.TENSOR)),
                                      info.typed_dict, info.attr_functions, info.init_required,
                                      tuple(sorted(info.state_attrs)))
                   for name, info in self.class_table.items()}
        return ModuleSummary(self.module, self.imports, classes, self.functions, self.compile_targets,
                             foreign_attrs=tuple(sorted(self.foreign_attrs)), exports=tuple(self.exports))
