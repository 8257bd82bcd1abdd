"""One walk over one file: the file's summary for the project index, and the candidate
findings of every rule, each tagged with the function it sits in.

Which functions are compiled depends on other files, so the walk reports candidates in
every function; the engine keeps those in compiled regions. That keeps a file's analysis
a pure function of its content (cacheable) and the cross-file part cheap.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import libcst as cst

from compilelint import traverse
from compilelint.finding import FileAnalysis, Finding
from compilelint.inference import Kind, annotation_kind, dotted, infer, literal_kind, torch_call_kind
from compilelint.rules.base import Rule

BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
COMPILE_NAMES = frozenset({"torch.compile"})
DISABLE_NAMES = frozenset({
    "torch.compiler.disable", "torch._dynamo.disable", "torch.compiler.allow_in_graph",
    "torch._dynamo.allow_in_graph", "torch._dynamo.assume_constant_result",
    "torch.compiler.assume_constant_result", "torch._disable_dynamo",
})
CONTAINERS = frozenset({"ModuleList", "Sequential", "ModuleDict"})
# Guards that are true while Dynamo traces: the other branch never runs compiled.
COMPILING_GUARDS = frozenset({
    "is_compiling", "is_dynamo_compiling", "is_torchdynamo_compiling", "is_exporting",
    "is_tracing",  # transformers' helper: true under Dynamo, FX and TorchScript tracing
})
NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+\d+(?:[\s,]+[A-Za-z]+\d+)*))?", re.IGNORECASE)
FILE_NOQA = re.compile(r"#\s*compilelint:\s*noqa\b", re.IGNORECASE)


@dataclass
class FunctionScope:
    qualname: str
    class_name: str | None
    params: list[str]
    env: dict[str, Kind] = field(default_factory=dict)
    var_class: dict[str, str] = field(default_factory=dict)  # local name -> class it instantiates
    loops: list[cst.CSTNode] = field(default_factory=list)
    is_forward: bool = False
    node: cst.CSTNode | None = None


@dataclass
class ClassInfo:
    qualname: str
    bases: list[str]
    attr_kinds: dict[str, Kind] = field(default_factory=dict)
    attr_classes: dict[str, str] = field(default_factory=dict)  # self.x = Foo(...) -> Foo


@lru_cache(maxsize=None)
def _handler_names(cls: type, prefixes: tuple[str, ...] = ("visit_", "leave_")) -> tuple[str, ...]:
    """`cls`'s attributes that start with `prefixes` (sorted, as dir() gives them), with
    the prefix for enter_/exit_ and without for visit_/leave_ callers to strip."""
    names = [name for name in dir(cls) if name.startswith(prefixes)]
    if prefixes == ("enter_", "exit_"):
        return tuple(name.partition("_")[2] for name in names)
    return tuple(names)


class Walker(cst.CSTVisitor):
    """The walk: keeps scope, types and regions-to-be, and dispatches to rules."""

    def __init__(self, path: str, module: str, rule_classes: list[type[Rule]], settings) -> None:
        super().__init__()
        self.path = path
        self.module = module
        self.settings = settings
        self.imports: dict[str, str] = {}
        self.module_env: dict[str, Kind] = {}
        self.module_var_class: dict[str, str] = {}
        self.module_defs: set[str] = set()
        self.classes: list[ClassInfo] = []
        self.class_table: dict[str, ClassInfo] = {}
        self.scopes: list[FunctionScope] = []
        self.functions: dict[str, dict[str, Any]] = {}
        self.compile_targets: list[list[str]] = []
        self.escaped_nodes: set[int] = set()
        self.escaped = 0
        # Decorators, defaults and annotations run where the function is defined, not in it.
        self.header_nodes: set[int] = set()
        self.header = 0
        self.loop_nodes: list[cst.CSTNode] = []  # every For/While, in walk order
        self.loop_ordinal: dict[int, int] = {}  # id(For/While) -> its index in loop_nodes
        # "m" or "self.m" -> "optimized" (m = torch.compile(...)) or "inplace" (m.compile())
        self.compiled: dict[str, dict[str, str]] = {}
        # torch.compile's keyword arguments (as text) for each compiled name, same keys as
        # `compiled`, and ("def", qualname) for functions decorated with @torch.compile
        self.compile_options: dict[tuple[str, str], dict[str, str]] = {}
        self.module_loops: list[cst.CSTNode] = []  # for/while around module-level code
        self.pending: list[tuple[Rule, cst.CSTNode, str, str | None, str, str | None, cst.CSTNode | None]] = []
        self.crashes: list[tuple[str, str]] = []
        self.rules = [cls(self) for cls in rule_classes]
        self.loop_rule = next((r for r in self.rules if r.code == "CL150"), None)
        self._loops_reported: set[int] = set()
        self._visit: dict[str, list] = {}
        self._leave: dict[str, list] = {}
        for rule in self.rules:
            for attr in _handler_names(type(rule)):  # dir() once per rule class, not per file
                if attr.startswith("visit_"):
                    self._visit.setdefault(attr[6:], []).append((rule, getattr(rule, attr)))
                elif attr.startswith("leave_"):
                    self._leave.setdefault(attr[6:], []).append((rule, getattr(rule, attr)))
        self._dead: set[str] = set()

    # ---- queries rules use -------------------------------------------------------------

    @property
    def function(self) -> FunctionScope | None:
        return self.scopes[-1] if self.scopes else None

    @property
    def current_class(self) -> ClassInfo | None:
        return self.classes[-1] if self.classes else None

    @property
    def in_function(self) -> bool:
        return bool(self.scopes)

    def is_import(self, name: str) -> bool:
        return name in self.imports and not self._locally_bound(name)

    def _locally_bound(self, name: str) -> bool:
        for scope in self.scopes:
            if name in scope.env:
                return True
        return False

    def qualify_name(self, name: str) -> str | None:
        if self._locally_bound(name):
            return None
        if name in self.imports:
            return self.imports[name]
        if name in self.module_defs or name in self.module_env:
            return f"{self.module}.{name}" if self.module else name
        if name in BUILTIN_NAMES:
            return f"builtins.{name}"
        return None

    def qualify(self, node: cst.CSTNode) -> str | None:
        """The qualified name an expression refers to: `F.relu` -> `torch.nn.functional.relu`."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        base = self.qualify_name(head)
        if base is None:
            return None
        return f"{base}.{rest}" if rest else base

    def name_kind(self, name: str) -> Kind:
        for scope in reversed(self.scopes):
            if name in scope.env:
                return scope.env[name]
        if name in self.module_env:
            return self.module_env[name]
        return Kind.UNKNOWN

    def self_attr_kind(self, attr: str) -> Kind:
        scope = self.function
        if scope is None or scope.class_name is None:
            return Kind.UNKNOWN
        if attr in ("training",):
            return Kind.VALUE
        info = self.class_table.get(scope.class_name)
        if info is None:
            return Kind.UNKNOWN
        return info.attr_kinds.get(attr, Kind.UNKNOWN)

    def kind(self, node: cst.BaseExpression) -> Kind:
        return infer(node, self)

    def is_tensor(self, node: cst.BaseExpression) -> bool:
        return infer(node, self).tensorish

    def _compiled_key(self, node: cst.BaseExpression) -> tuple[str, str] | None:
        if isinstance(node, cst.Name):
            return (self.function.qualname if self.scopes else "<module>"), node.value
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            owner = self.function.class_name if self.scopes else None
            if owner:
                return f"class:{owner}", "self." + node.attr.value
        return None

    def compiled_state(self, node: cst.BaseExpression) -> str | None:
        """"optimized" if `node` holds the result of torch.compile(...), "inplace" after
        `node.compile()`, else None (flow-insensitive within a function, in source order)."""
        key = self._compiled_key(node)
        if key is None:
            return None
        state = self.compiled.get(key[0], {}).get(key[1])
        if state is None and isinstance(node, cst.Name) and not self._locally_bound(node.value):
            state = self.compiled.get("<module>", {}).get(node.value)  # a module-level model
        return state

    def compiled_callable(self, node: cst.BaseExpression) -> dict[str, str] | None:
        """torch.compile's keyword arguments (`{"dynamic": "False"}`, `{}` for none) when
        calling `node` runs compiled code: a name or `self.x` bound to `torch.compile(...)`
        or compiled in place with `.compile()` (in this function, an enclosing one or at
        module level), or a function/method decorated with `@torch.compile`. Else None."""
        key = self._compiled_key(node)
        if key is not None and self.compiled.get(key[0], {}).get(key[1]) in ("optimized", "inplace"):
            return self.compile_options.get(key, {})
        if isinstance(node, cst.Name):
            name = node.value
            for scope in reversed(self.scopes):
                nested = self.compile_options.get(("def", f"{scope.qualname}.<locals>.{name}"))
                if nested is not None:
                    return nested
                if name in scope.env:
                    if self.compiled.get(scope.qualname, {}).get(name, "wrapped") != "wrapped":
                        return self.compile_options.get((scope.qualname, name), {})
                    return None
            if self.compiled.get("<module>", {}).get(name, "wrapped") != "wrapped":
                return self.compile_options.get(("<module>", name), {})
            return self.compile_options.get(("def", name))
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            owner = self.function.class_name if self.scopes else None
            if owner:
                return self.compile_options.get(("def", f"{owner}.{node.attr.value}"))
        return None

    @property
    def loops(self) -> list[cst.CSTNode]:
        """The for/while loops around the current node, innermost last: the function's
        own (`function.loops`), or those of module-level code."""
        return self.scopes[-1].loops if self.scopes else self.module_loops

    def _mark_compiled(self, node: cst.BaseExpression, state: str | None,
                       options: dict[str, str] | None = None) -> None:
        key = self._compiled_key(node)
        if key is None:
            return
        table = self.compiled.setdefault(key[0], {})
        if state is None:
            table.pop(key[1], None)
            self.compile_options.pop(key, None)
        else:
            table[key[1]] = state
            self.compile_options[key] = options or {}

    # ---- reporting ---------------------------------------------------------------------

    def report(self, rule: Rule, node: cst.CSTNode, message: str, *, fix: str | None,
               severity: str, scope: str | None = None) -> None:
        """`scope` overrides the function whose being compiled makes the finding count."""
        if rule.region_only and (self.escaped or self.header or not (self.scopes or scope)):
            return
        scope = scope or (self.function.qualname if self.scopes else None)
        loop = self.function.loops[0] if (self.scopes and self.function.loops and rule.breaks_graph) else None
        self.pending.append((rule, node, message, fix, severity, scope, loop))

    def reported_nodes(self) -> list[cst.CSTNode]:
        """The nodes the findings so far need positions for (each finding's, and its loop's)."""
        return [n for p in self.pending for n in (p[1], p[6]) if n is not None]

    # ---- dispatch ----------------------------------------------------------------------

    def _dispatch(self, table: dict[str, list], node: cst.CSTNode) -> None:
        for rule, handler in table.get(type(node).__name__, ()):
            if rule.code in self._dead:
                continue
            try:
                handler(node)
            except Exception:  # one rule's bug must not stop the run
                self._dead.add(rule.code)
                self.crashes.append((rule.code, traceback.format_exc(limit=4)))

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.escaped_nodes:
            self.escaped += 1
        if id(node) in self.header_nodes:
            self.header += 1
        enter = getattr(self, "enter_" + type(node).__name__, None)
        if enter is not None:
            enter(node)
        self._dispatch(self._visit, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._dispatch(self._leave, original_node)
        exit_ = getattr(self, "exit_" + type(original_node).__name__, None)
        if exit_ is not None:
            exit_(original_node)
        if id(original_node) in self.escaped_nodes:
            self.escaped -= 1
        if id(original_node) in self.header_nodes:
            self.header -= 1

    # ---- imports -----------------------------------------------------------------------

    def enter_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.imports[alias.asname.name.value] = full
            else:
                head = full.split(".")[0]
                self.imports[head] = head

    def _resolve_relative(self, level: int, module: str | None) -> str:
        parts = self.module.split(".") if self.module else []
        is_package = self.path.endswith(("__init__.py", "__init__.pyi"))
        drop = level - 1 if is_package else level
        base = parts[: len(parts) - drop] if drop <= len(parts) else []
        if module:
            base = base + [module]
        return ".".join(base)

    def enter_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = dotted(node.module) if node.module is not None else None
        level = len(node.relative)
        source = self._resolve_relative(level, module) if level else (module or "")
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = dotted(alias.name)
            if name is None:
                continue
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
            self.imports[local] = f"{source}.{name}" if source else name

    # ---- classes and functions ---------------------------------------------------------

    def _qualname(self, name: str) -> str:
        if self.scopes:
            return f"{self.scopes[-1].qualname}.<locals>.{name}"
        if self.classes:
            return f"{self.classes[-1].qualname}.{name}"
        return name

    def enter_ClassDef(self, node: cst.ClassDef) -> None:
        qualname = self._qualname(node.name.value)
        if not self.scopes and not self.classes:
            self.module_defs.add(node.name.value)
        bases = []
        for arg in node.bases:
            if arg.keyword is None:
                bases.append(self.qualify(arg.value) or dotted(arg.value) or "?")
        info = ClassInfo(qualname, bases)
        self._scan_class_attrs(node, info)
        self.classes.append(info)
        self.class_table[qualname] = info

    def exit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()

    def _scan_class_attrs(self, node: cst.ClassDef, info: ClassInfo) -> None:
        """`self.x = ...` in the class's methods: what each attribute holds."""
        for stmt in node.body.body:
            if not isinstance(stmt, cst.FunctionDef):
                continue
            in_init = stmt.name.value in ("__init__", "reset_parameters", "_init_weights", "build", "setup")
            for assign_target, value in _self_assignments(stmt):
                kind = self._attr_value_kind(value)
                if not in_init and assign_target in info.attr_kinds and info.attr_kinds[assign_target] != kind:
                    continue  # __init__ says what the attribute is; later writes keep its kind
                if assign_target in info.attr_kinds and info.attr_kinds[assign_target] != kind:
                    if kind == Kind.UNKNOWN or info.attr_kinds[assign_target] == Kind.UNKNOWN:
                        info.attr_kinds[assign_target] = Kind.UNKNOWN
                        continue
                info.attr_kinds[assign_target] = kind
                if isinstance(value, cst.Call) and kind == Kind.MODULE:
                    ref = self._container_element(value) or self.qualify(value.func) or dotted(value.func)
                    if ref:
                        info.attr_classes[assign_target] = ref
            for buffer in _registered(stmt):
                info.attr_kinds[buffer] = Kind.TENSOR

    def _container_element(self, value: cst.Call) -> str | None:
        """`nn.ModuleList([Block(...) for _ in ...])` -> "[]Block": a container of Blocks."""
        name = dotted(value.func) or ""
        if name.split(".")[-1] not in CONTAINERS or not value.args:
            return None
        arg = value.args[0].value
        elements: list[cst.BaseExpression] = []
        if isinstance(arg, (cst.ListComp, cst.GeneratorExp)):
            elements = [arg.elt]
        elif isinstance(arg, (cst.List, cst.Tuple)):
            elements = [e.value for e in arg.elements]
        elif name.split(".")[-1] == "Sequential":
            elements = [a.value for a in value.args]
        refs = {self.qualify(e.func) or dotted(e.func) for e in elements if isinstance(e, cst.Call)}
        refs.discard(None)
        return "[]" + refs.pop() if len(refs) == 1 else None

    def _element_class(self, node: cst.BaseExpression) -> str | None:
        """The class of the elements of `self.layers` when it is a container of one class."""
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            owner = self.function.class_name if self.scopes else None
            info = self.class_table.get(owner) if owner else None
            ref = info.attr_classes.get(node.attr.value) if info else None
            if ref and ref.startswith("[]"):
                return ref[2:]
        return None

    def _attr_value_kind(self, value: cst.BaseExpression) -> Kind:
        lit = literal_kind(value)
        if lit is not None:
            if isinstance(value, cst.Name) and value.value == "None":
                return Kind.UNKNOWN
            return lit
        if isinstance(value, cst.Call):
            qualified = self.qualify(value.func)
            if qualified:
                kind = torch_call_kind(qualified)
                if kind is not None:
                    return kind
                if qualified.startswith("builtins.") and qualified[9:] in ("int", "float", "bool", "str", "len"):
                    return Kind.VALUE
            name = dotted(value.func)
            if name and name.split(".")[-1][:1].isupper():
                return Kind.MODULE  # a class instantiated: a submodule, most likely
        return Kind.UNKNOWN

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        name = node.name.value
        qualname = self._qualname(name)
        if not self.scopes and not self.classes:
            self.module_defs.add(name)
        class_name = self.classes[-1].qualname if (self.classes and not self.scopes) else (
            self.scopes[-1].class_name if self.scopes else None)
        parent = self.scopes[-1].qualname if self.scopes else None
        compiled, disabled = False, False
        self.header_nodes.update(id(d) for d in node.decorators)
        for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
            if param.default is not None:
                self.header_nodes.add(id(param.default))
        for deco in node.decorators:
            target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
            qualified = self.qualify(target) or ""
            if qualified in COMPILE_NAMES:
                compiled = True
                self.compile_options[("def", qualname)] = (
                    compile_kwargs(deco.decorator) if isinstance(deco.decorator, cst.Call) else {})
            elif qualified in DISABLE_NAMES:
                disabled = True
        params = [p.name.value for p in (*node.params.posonly_params, *node.params.params,
                                         *node.params.kwonly_params)]
        method = class_name is not None and not self.scopes
        scope = FunctionScope(qualname, class_name, params, node=node,
                              is_forward=method and name == "forward")
        self._bind_params(node, scope, method)
        self.scopes.append(scope)
        self.functions[qualname] = {
            "class": class_name if method else None,
            "calls": [],
            "compiled": compiled,
            "disabled": disabled,
            "parent": parent,
            "line": None,
        }
        if compiled:
            self.compile_targets.append(["func", qualname])

    def _bind_params(self, node: cst.FunctionDef, scope: FunctionScope, method: bool) -> None:
        positional = [*node.params.posonly_params, *node.params.params]
        first_input = 1 if method else 0
        for index, param in enumerate([*positional, *node.params.kwonly_params]):
            name = param.name.value
            kind = Kind.UNKNOWN
            if param.annotation is not None:
                kind = annotation_kind(param.annotation.annotation, self.qualify)
            elif param.default is not None:
                lit = literal_kind(param.default)
                if lit is not None and not (isinstance(param.default, cst.Name) and param.default.value == "None"):
                    kind = Kind.VALUE
            elif scope.is_forward and index == first_input and index < len(positional):
                kind = Kind.LIKELY  # forward's first input is a tensor in all but odd code
            if method and index == 0 and name in ("self", "cls"):
                kind = Kind.UNKNOWN
            scope.env[name] = kind
        for star in (node.params.star_arg, node.params.star_kwarg):
            if isinstance(star, cst.Param):
                scope.env[star.name.value] = Kind.VALUE if star is node.params.star_kwarg else Kind.UNKNOWN

    def exit_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self.scopes.pop()
        if scope.qualname in self.functions and self.scopes:
            # a nested function runs when its parent runs, as far as regions go
            self.functions[self.scopes[-1].qualname]["calls"].append(["local", scope.qualname])
        if self.scopes:
            self.scopes[-1].env[node.name.value] = Kind.VALUE

    def enter_Lambda(self, node: cst.Lambda) -> None:
        if self.scopes:
            for param in node.params.params:
                self.scopes[-1].env.setdefault(param.name.value, Kind.UNKNOWN)

    # ---- control flow: escapes and loops -----------------------------------------------

    def compiling_guard(self, test: cst.BaseExpression) -> bool | None:
        """True for `is_compiling()`, False for `not is_compiling()` (also as one operand of
        `and`: the body then runs only eagerly), None otherwise."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            if False in (self.compiling_guard(test.left), self.compiling_guard(test.right)):
                return False
            return None
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        if isinstance(test, cst.Call):
            name = dotted(test.func)
            if name and name.split(".")[-1] in COMPILING_GUARDS:
                return not negated
        return None

    def enter_If(self, node: cst.If) -> None:
        guard = self.compiling_guard(node.test)
        if guard is True and node.orelse is not None:
            self.escaped_nodes.add(id(node.orelse))
        elif guard is False:
            self.escaped_nodes.add(id(node.body))

    def enter_IfExp(self, node: cst.IfExp) -> None:
        guard = self.compiling_guard(node.test)
        if guard is True:
            self.escaped_nodes.add(id(node.orelse))
        elif guard is False:
            self.escaped_nodes.add(id(node.body))

    def _count_loop(self, node: cst.CSTNode) -> None:
        self.loop_ordinal[id(node)] = len(self.loop_nodes)
        self.loop_nodes.append(node)

    def enter_For(self, node: cst.For) -> None:
        self._count_loop(node)
        if self.scopes:
            self.scopes[-1].loops.append(node)
            iterable, target = node.iter, node.target
            if isinstance(iterable, cst.Call) and self.qualify(iterable.func) == "builtins.enumerate" \
                    and iterable.args and isinstance(target, cst.Tuple) and len(target.elements) == 2:
                iterable, target = iterable.args[0].value, target.elements[1].value
            element = self._element_class(iterable)
            iter_kind = infer(node.iter, self)
            for name in _target_names(node.target):
                self.scopes[-1].env[name] = iter_kind if iter_kind.tensorish else (
                    Kind.VALUE if _is_range_call(node.iter, self) else Kind.UNKNOWN)
                self.scopes[-1].var_class.pop(name, None)
            if element and isinstance(target, cst.Name):  # for layer in self.layers: a Block
                self.scopes[-1].env[target.value] = Kind.MODULE
                self.scopes[-1].var_class[target.value] = element
        else:
            self.module_loops.append(node)

    def exit_For(self, node: cst.For) -> None:
        if self.scopes and self.scopes[-1].loops and self.scopes[-1].loops[-1] is node:
            self.scopes[-1].loops.pop()
        elif self.module_loops and self.module_loops[-1] is node:
            self.module_loops.pop()

    def enter_While(self, node: cst.While) -> None:
        self._count_loop(node)
        if self.scopes:
            self.scopes[-1].loops.append(node)
        else:
            self.module_loops.append(node)

    def exit_While(self, node: cst.While) -> None:
        if self.scopes and self.scopes[-1].loops and self.scopes[-1].loops[-1] is node:
            self.scopes[-1].loops.pop()
        elif self.module_loops and self.module_loops[-1] is node:
            self.module_loops.pop()

    # ---- bindings (on leave, so rules see the state before the assignment) -------------

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None, kind: Kind) -> None:
        env = self.scopes[-1].env if self.scopes else self.module_env
        var_class = self.scopes[-1].var_class if self.scopes else self.module_var_class
        if isinstance(target, cst.Name):
            env[target.value] = kind
            var_class.pop(target.value, None)
            if isinstance(value, cst.Call):
                ref = self.qualify(value.func) or dotted(value.func)
                if ref and ref.split(".")[-1][:1].isupper() and not ref.startswith("builtins."):
                    var_class[target.value] = ref
                elif ref in COMPILE_NAMES and value.args and isinstance(value.args[0].value, cst.Name):
                    source = var_class.get(value.args[0].value.value)
                    if source:
                        var_class[target.value] = source
        elif isinstance(target, (cst.Tuple, cst.List)):
            element = kind if kind.tensorish else Kind.UNKNOWN
            if isinstance(value, cst.Attribute) and value.attr.value == "shape":
                element = Kind.VALUE
            for name in _target_names(target):
                env[name] = element
                var_class.pop(name, None)

    def exit_Assign(self, node: cst.Assign) -> None:
        kind = infer(node.value, self)
        compiled = isinstance(node.value, cst.Call) and self.qualify(node.value.func) in COMPILE_NAMES
        options = compile_kwargs(node.value) if compiled else None
        for target in node.targets:
            self._bind(target.target, node.value, kind)
            self._mark_compiled(target.target, "optimized" if compiled else None, options)
        if compiled and node.value.args:
            # `fast = torch.compile(model)`: changing `model` later changes what `fast` runs.
            source = node.value.args[0].value
            if self._compiled_key(source) is not None and self.compiled_state(source) is None:
                self._mark_compiled(source, "wrapped")

    def exit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "compile":
            owner = func.value
            if isinstance(owner, cst.Name) and owner.value in self.imports:
                return  # re.compile(...) and friends
            if self.compiled_state(owner) is None:
                self._mark_compiled(owner, "inplace", compile_kwargs(node))

    def exit_AnnAssign(self, node: cst.AnnAssign) -> None:
        kind = annotation_kind(node.annotation.annotation, self.qualify)
        if node.value is not None and kind == Kind.UNKNOWN:
            kind = infer(node.value, self)
        self._bind(node.target, node.value, kind)

    def exit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            env = self.scopes[-1].env if self.scopes else self.module_env
            from compilelint.inference import strongest
            env[node.target.value] = strongest(self.name_kind(node.target.value), infer(node.value, self))

    def exit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value, infer(node.value, self))

    def exit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            for name in _target_names(node.asname.name):
                (self.scopes[-1].env if self.scopes else self.module_env)[name] = Kind.UNKNOWN

    # ---- calls: the edges of the call graph and the compile roots ----------------------

    def enter_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified in COMPILE_NAMES or (
            isinstance(node.func, cst.Attribute) and node.func.attr.value == "compile"
            and not (qualified or "").startswith(("builtins.", "re.", "regex."))
            and dotted(node.func.value) not in ("re", "regex")
            and not node.args
        ):
            self._compile_root(node, qualified in COMPILE_NAMES)
        if not self.scopes or self.header:
            return
        scope = self.scopes[-1]
        info = self.functions[scope.qualname]
        func = node.func
        call: list | None = None
        if isinstance(func, cst.Name):
            if func.value in scope.var_class:
                call = ["instance", scope.var_class[func.value]]  # layer(x), layer a Block
            elif not self._locally_bound(func.value):
                call = ["name", func.value]
        elif isinstance(func, cst.Subscript):
            element = self._element_class(func.value)
            if element:
                call = ["instance", element]  # self.layers[i](x)
        elif isinstance(func, cst.Attribute):
            owner = func.value
            if isinstance(owner, cst.Name) and owner.value == "self":
                call = ["self", func.attr.value]
            elif isinstance(owner, cst.Call) and isinstance(owner.func, cst.Name) and owner.func.value == "super":
                call = ["super", func.attr.value]
            elif isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self":
                call = ["selfattr", owner.attr.value]  # self.block.forward(x)
            else:
                qualified_name = self.qualify(func)
                if qualified_name and not qualified_name.startswith(("builtins.", "torch.")):
                    call = ["dotted", qualified_name]
        if call is None:
            return
        info["calls"].append(call)
        if scope.loops:
            # For CL150 across functions: a call in a loop to a function that breaks.
            loop = scope.loops[0]
            keyword = "for" if isinstance(loop, cst.For) else "while"
            info.setdefault("loop_calls", []).append(call + [self.loop_ordinal[id(loop)], keyword])

    def _compile_root(self, node: cst.Call, is_torch_compile: bool) -> None:
        if is_torch_compile:
            if not node.args:
                return
            target = node.args[0].value
        else:
            target = node.func.value  # model.compile()
        scope = self.scopes[-1].qualname if self.scopes else ""
        if isinstance(target, cst.Name):
            var_class = self.scopes[-1].var_class if self.scopes else self.module_var_class
            cls = var_class.get(target.value) or self.module_var_class.get(target.value)
            if cls:
                self.compile_targets.append(["class", cls])
            else:
                self.compile_targets.append(["name", target.value, scope])
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            cls = self.function.class_name if self.function else None
            if cls:
                self.compile_targets.append(["method", cls, target.attr.value])
        elif isinstance(target, cst.Call):
            ref = self.qualify(target.func) or dotted(target.func)
            if ref:
                self.compile_targets.append(["class", ref])

    # ---- results -----------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "imports": self.imports,
            "classes": {
                name: {"bases": info.bases, "attr_classes": info.attr_classes}
                for name, info in self.class_table.items()
            },
            "functions": self.functions,
            "compile_targets": self.compile_targets,
        }


def compile_kwargs(call: cst.Call) -> dict[str, str]:
    """Keyword arguments of a torch.compile(...) / .compile(...) call as text: names and
    numbers as written, strings by value, anything else "?"."""
    out: dict[str, str] = {}
    for arg in call.args:
        if arg.keyword is None:
            continue
        value = arg.value
        if isinstance(value, (cst.Name, cst.Integer, cst.Float)):
            out[arg.keyword.value] = value.value
        elif isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
            out[arg.keyword.value] = value.evaluated_value
        else:
            out[arg.keyword.value] = "?"
    return out


def _self_assignments(func: cst.FunctionDef):
    """(attr, value) for every `self.attr = value` in a method, nested blocks included
    (not nested functions or classes)."""
    return _method_scan(func)[0]


def _registered(func: cst.FunctionDef) -> list[str]:
    """Names given to `self.register_buffer("name", ...)` / `register_parameter`."""
    global _last_scan
    registered = _method_scan(func)[1]
    _last_scan = (None, None)  # asked last: keep no tree alive
    return registered


_last_scan: tuple = (None, None)


def _method_scan(func: cst.FunctionDef) -> tuple[list, list[str]]:
    """`_self_assignments` and `_registered` of a method in one pass (a class's scan asks
    for both, one after the other: the last method's answer is kept)."""
    global _last_scan
    if _last_scan[0] is func:
        return _last_scan[1]
    assignments: list = []
    registered: list[str] = []
    Assign, AnnAssign, Call, Attribute, Name = cst.Assign, cst.AnnAssign, cst.Call, cst.Attribute, cst.Name
    scopes = (cst.FunctionDef, cst.ClassDef)
    children, skip = traverse.children, traverse.TRIVIA
    stack: list = [(func, False)]
    while stack:  # pre-order, as libcst visits
        node, nested = stack.pop()
        kind = type(node)
        if kind is Assign:
            if not nested:
                for target in node.targets:
                    t = target.target
                    if type(t) is Attribute and type(t.value) is Name and t.value.value == "self":
                        assignments.append((t.attr.value, node.value))
        elif kind is AnnAssign:
            t = node.target
            if not nested and node.value is not None and type(t) is Attribute and type(t.value) is Name \
                    and t.value.value == "self":
                assignments.append((t.attr.value, node.value))
        elif kind is Call:
            f = node.func
            if type(f) is Attribute and f.attr.value in ("register_buffer", "register_parameter") \
                    and node.args and isinstance(node.args[0].value, cst.SimpleString):
                value = node.args[0].value.evaluated_value
                if isinstance(value, str):
                    registered.append(value)
        elif kind in scopes and node is not func:
            nested = True  # below: only register_* calls count
        below = children(node, skip)
        below.reverse()
        stack.extend([(child, nested) for child in below])
    _last_scan = (func, (assignments, registered))
    return assignments, registered


def _target_names(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names = []
        for element in target.elements:
            names.extend(_target_names(element.value))
        return names
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _is_range_call(node: cst.BaseExpression, walker: Walker) -> bool:
    return isinstance(node, cst.Call) and walker.qualify(node.func) == "builtins.range"


def noqa_map(text: str) -> tuple[dict[int, list[str] | None], bool]:
    """Line -> codes suppressed there (None: all), and whether the whole file is exempt."""
    lines: dict[int, list[str] | None] = {}
    file_noqa = False
    if "noqa" not in text.lower():
        return lines, False
    for number, line in enumerate(text.splitlines(), start=1):
        if "#" not in line or "noqa" not in line.lower():
            continue
        if FILE_NOQA.search(line):
            file_noqa = True
            continue
        match = NOQA.search(line)
        if match is None:
            continue
        codes = match.group("codes")
        lines[number] = [c.upper() for c in re.split(r"[\s,]+", codes) if c] if codes else None
    return lines, file_noqa


def walk_tree(tree: cst.Module, path: str, module: str, rule_classes: list[type[Rule]], settings) -> Walker:
    """One walk of `tree` by a Walker running `rule_classes`: the Walker, with what it found."""
    walker = Walker(path, module, rule_classes, settings)
    # libcst's order, without rebuilding the tree; layout nodes only when something acts on them
    handled = {*walker._visit, *walker._leave, *_handler_names(type(walker), ("enter_", "exit_"))}
    with traverse.fast_visits():  # and the rules' own subtree scans (node.visit(Finder()))
        traverse.walk(tree, walker, traverse.skippable(handled))
    return walker


def analyze(path: str, text: str, module: str, rule_classes: list[type[Rule]], settings) -> FileAnalysis:
    """Parse and walk one file. Raises libcst.ParserSyntaxError for the engine to report."""
    tree = cst.parse_module(text)
    walker = walk_tree(tree, path, module, rule_classes, settings)
    noqa, file_noqa = noqa_map(text)
    candidates: list[Finding] = []
    diagnostics: list[Finding] = []
    # Where each loop is, when a loop calls something: for a CL150 that only the project
    # index can decide (the loop calls a function that breaks); cached with the summary.
    loops_wanted = any("loop_calls" in info for info in walker.functions.values())
    positions = {}
    if walker.pending:
        # Positions cost a code generation pass: pay it only when something was found, and
        # only for the reported nodes (PositionProvider's ranges, computed for those alone),
        # and the loops if wanted, in the same pass.
        positions = traverse.positions(tree, walker.reported_nodes() + (walker.loop_nodes if loops_wanted else []))
        seen_loops: set[tuple[int, int]] = set()
        for rule, node, message, fix, severity, scope, loop in walker.pending:
            pos = positions[node]
            candidates.append(Finding(
                path=path, line=pos.start.line, col=pos.start.column + 1, code=rule.code,
                message=message, severity=severity, end_line=pos.end.line,
                end_col=pos.end.column + 1, name=rule.name, fix=fix, scope=scope,
            ))
            if loop is not None and walker.loop_rule is not None:
                lpos = positions[loop]
                key = (lpos.start.line, lpos.start.column)
                if key in seen_loops:
                    continue
                seen_loops.add(key)
                lr = walker.loop_rule
                keyword = "for" if isinstance(loop, cst.For) else "while"
                candidates.append(Finding(
                    path=path, line=lpos.start.line, col=lpos.start.column + 1, code=lr.code,
                    message=f"`{keyword}` loop contains a graph break ({rule.code} at line {pos.start.line}): "
                            "Dynamo cannot resume inside a loop and runs the whole function eagerly",
                    severity=lr.severity, end_line=lpos.start.line, end_col=lpos.start.column + 1 + len(keyword),
                    name=lr.name, fix=lr.fix, scope=scope,
                ))
    for code, trace in walker.crashes:
        diagnostics.append(Finding(
            path=path, line=1, col=1, code="CL001", name="rule-crash", severity="error",
            message=f"rule {code} crashed on this file; other rules still ran: {trace.strip().splitlines()[-1]}",
        ))
    summary = walker.summary()
    if loops_wanted:
        summary["loops"] = loop_positions_libcst(tree, walker.loop_nodes, positions) if positions \
            else loop_positions(text, tree, walker.loop_nodes)
    return FileAnalysis(path, module, summary, candidates, diagnostics, noqa, file_noqa)


def loop_positions(text: str, tree: cst.Module, loops: list[cst.CSTNode]) -> tuple[tuple[int, int], ...]:
    """Every for/while loop's (line, 1-based column), in libcst's walk order, when no
    position pass runs anyway: Python's own parser finds them ~20x faster than one; loops
    sorted by where they start are in pre-order, as libcst walks. Where `ast` cannot parse
    what libcst did (newer syntax than the running Python), `tree`'s positions of `loops`
    (the Walker's, in walk order) decide."""
    import ast

    try:
        parsed = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return loop_positions_libcst(tree, loops)
    lines = text.splitlines(keepends=True)
    found = []
    # loops are statements: walk statement lists only, not the (many) expression nodes
    stack = list(parsed.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            line = lines[node.lineno - 1].encode("utf-8")
            found.append((node.lineno, len(line[:node.col_offset].decode("utf-8", "replace")) + 1))
        for name in _STATEMENT_LISTS:
            block = getattr(node, name, None)
            if block:
                stack.extend(block)
    return tuple(sorted(found))


# the fields of a statement that hold statements (a handler or `case` holds a body)
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def loop_positions_libcst(tree: cst.Module, loops: list[cst.CSTNode], positions=None) -> tuple[tuple[int, int], ...]:
    """The same from libcst's positions (`positions`, when a pass already computed them)."""
    positions = positions or traverse.positions(tree, loops)
    return tuple((positions[n].start.line, positions[n].start.column + 1) for n in loops)
