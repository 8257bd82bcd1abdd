"""Functions and bindings: what kind each local name holds, in source order, and which
names only the project can decide (open: a parameter no annotation types, what a project
function returned)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import libcst as cst

from compilelint.semantic.compiled import (COMPILE_NAMES, DISABLE_NAMES, INFERENCE_DECORATORS, SKIP_NAMES, compile_kwargs,
                                           is_validator, marks_constant)
from compilelint.semantic.infer import infer, is_sizes
from compilelint.semantic.returns import BOOL, annotated_items, displayed_items, join_items, join_returns, tuple_fields
from compilelint.semantic.kinds import (Kind, annotated_class, annotation_kind, call_sites_decide, constructed, dotted,
                                       known_class, literal_kind, property_accessor, scalar_annotation, strongest,
                                       tensor_container, type_comment_kinds)
from compilelint.semantic.object_defaults import object_defaults
from compilelint.semantic.param_uses import non_tensor_params
from compilelint.summary import KEEPS, NEW, OPAQUE, SKIPPED, SWAPS, TENSOR_BASES, CallEdge, CompileTarget, FunctionSummary


@dataclass
class FunctionScope:
    qualname: str
    class_name: str | None
    params: list[str]
    env: dict[str, Kind] = field(default_factory=dict)
    var_class: dict[str, str] = field(default_factory=dict)  # local name -> class it instantiates
    # local name -> the call edge whose result it was bound to, for a call the file cannot resolve
    # to a class (`separator = utils.load_separator()`, `ctx = self.prepare(x)`): which class the
    # callee builds in every `return`, if any, the project decides (`f|` leaves)
    var_made: dict[str, int] = field(default_factory=dict)
    built: set[str] = field(default_factory=set)  # of those, the ones this function built (CL151)
    loops: list[cst.CSTNode] = field(default_factory=list)
    is_forward: bool = False
    node: cst.CSTNode | None = None
    bound: bool = False  # a method callers reach through an instance (its first parameter is filled)
    scripted: bool = False  # `@torch.jit.script`: Dynamo never resumes in its frame, so it has no loop to skip
    facts: object = None  # semantic.facts.CallerFacts, made when a branch first asks
    text_uses: frozenset[str] | None = None  # semantic.param_uses, made when a guess is first read
    # name -> the leaves ("p|fn|name", "a|fn|name", "r|fn|edge") its kind depends on (semantic.project)
    open: dict[str, tuple[str, ...]] = field(default_factory=dict)
    edges: dict[int, int | None] = field(default_factory=dict)  # id(Call) -> its call edge
    returns: list = field(default_factory=list)  # each `return`'s kind spec
    items: list = field(default_factory=list)  # each `return`'s element specs (None: not a tuple display)
    ndarrays: frozenset[str] = frozenset()  # names bound to NumPy arrays (semantic.ndarrays)
    # id(if body) -> (name, its kind before): `if isinstance(x, Tensor):` makes x a tensor there
    narrowed: dict[int, tuple[str, Kind] | frozenset[str]] = field(default_factory=dict)
    # names annotated as tensors (`edge_index: Tensor`): a rebinding the walk cannot type keeps that kind
    declared: dict[str, Kind] = field(default_factory=dict)
    tensor_items: set[str] = field(default_factory=set)  # parameters annotated `Dict[str, Tensor]`, `list[Tensor]`
    # parameters annotated with a class (`input: MultivariateNormal`), never rebound so far: `input.log_prob()`,
    # `input.variance` are that class's (semantic.calls); "[]self.ts": `t` of `for t in self.ts`
    typed: dict[str, str] = field(default_factory=dict)
    reads: set = field(default_factory=set)  # the property edges made so far (one per place)
    aliases: dict = field(default_factory=dict)  # name -> (edge kind, [functions it was bound to]) or None
    partials: set = field(default_factory=set)  # aliases bound to a `partial(f, ...)`: arguments shifted
    # name -> the kind a comprehension bound it to: a later comprehension binds it afresh
    comprehended: dict = field(default_factory=dict)

    def text_params(self) -> frozenset[str]:
        if self.text_uses is None:
            self.text_uses = non_tensor_params(self.node) if isinstance(self.node, cst.FunctionDef) else frozenset()
        return self.text_uses


def _accessor(node: cst.FunctionDef, name: str) -> str:
    """".setter" / ".deleter" for `@name.setter def name(...)` (or `@Base.name.setter`, overriding a
    base's): a function of its own, not the getter it shares a name with (which reading runs)."""
    for deco in node.decorators:
        found = property_accessor(deco.decorator, name)
        if found is not None and found[0] != "getter":
            return "." + found[0]
    return ""


def target_names(target: cst.CSTNode) -> list[str]:
    """The names an assignment or loop target binds (`a, (b, *c)` -> a, b, c)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names = []
        for element in target.elements:
            names.extend(target_names(element.value))
        return names
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def spec(kind: Kind, leaves) -> object:
    """A kind as the summary stores it: its name, or the sorted leaves it depends on."""
    return tuple(sorted(leaves)) if leaves else kind.value


class Bindings:
    """Walker part: function scopes, parameters, assignments, returns."""

    def _qualname(self, name: str) -> str:
        if self._in_class():
            return f"{self.classes[-1].qualname}.{name}"
        if self.scopes:
            return f"{self.scopes[-1].qualname}.<locals>.{name}"
        return name

    def _in_class(self) -> bool:  # in a class body, also of one a function defines (its defs are methods)
        return bool(self.classes) and self.class_depths[-1] == len(self.scopes)

    @property
    def function(self) -> FunctionScope | None:
        return self.scopes[-1] if self.scopes else None

    # ---- kinds -------------------------------------------------------------------------

    def kind(self, node: cst.BaseExpression) -> Kind:
        return infer(node, self)

    not_tensors: frozenset[str] = frozenset()  # names a guard around the expression proved plain

    @contextlib.contextmanager
    def narrowed(self, names: frozenset[str]):
        """Read expressions with `names` known not to be tensors (`not isinstance(t, float) or t != 1`)."""
        saved, self.not_tensors = self.not_tensors, self.not_tensors | names
        try:
            yield
        finally:
            self.not_tensors = saved

    def name_kind(self, name: str) -> Kind:
        if name in self.not_tensors:
            return Kind.VALUE
        for scope in reversed(self.scopes):
            if name in scope.env:
                kind = scope.env[name]
                if self.assuming is not None and name in scope.open \
                        and name in scope.text_params():  # (scanned only when a rule asks again)
                    return Kind.VALUE  # a guess the body refutes: `name.startswith(...)`, `**name`
                if name in scope.open and (kind == Kind.UNKNOWN or scope.open[name][0][0] == "a"):
                    if self.assuming is None:
                        self.open_seen = True
                    else:
                        self.assuming.update(scope.open[name])
                        return Kind.LIKELY
                return self.defaulted_read(scope, name, kind)
        if name in self.module_env:
            return self.module_env[name]
        return Kind.UNKNOWN

    def open_call(self, node: cst.Call) -> Kind:
        """A call that may land in a project function (leaf "r")."""
        edge = self.edge_index(node)
        return Kind.UNKNOWN if edge is None else self.open_leaf("r", str(edge))

    def open_leaf(self, tag: str, rest: str) -> Kind:
        """What the project phase decides (semantic.project's leaves): unknown here; a likely
        tensor (and the leaf) while assuming."""
        if not self.scopes:
            return Kind.UNKNOWN
        if self.assuming is None:
            self.open_seen = True
            return Kind.UNKNOWN
        self.assuming.add(f"{tag}|{self.scopes[-1].qualname}|{rest}")
        return Kind.LIKELY

    def assumed(self, node: cst.BaseExpression) -> tuple[Kind, set[str]]:
        """The kind of `node` if every open value were a tensor, and the leaves it used."""
        saved, self.assuming = self.assuming, set()
        try:
            kind = infer(node, self)
            return kind, self.assuming
        finally:
            self.assuming = saved

    def kind_spec(self, node: cst.BaseExpression) -> object:
        kind = infer(node, self)
        if kind == Kind.UNKNOWN:
            assumed, leaves = self.assumed(node)
            if assumed.tensorish and leaves:
                return spec(kind, leaves)
        if isinstance(node, cst.Name) and node.value == "None":
            return "none"
        return kind.value

    # ---- functions ---------------------------------------------------------------------

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        name = node.name.value
        qualname = self._qualname(name) + _accessor(node, name)
        if not self.scopes and not self.classes:
            self.module_defs.add(name)
        in_class = self._in_class()
        class_name = self.classes[-1].qualname if in_class else (self.scopes[-1].class_name if self.scopes else None)
        parent = self.scopes[-1].qualname if self.scopes and not in_class else None
        compiled, disabled, static, accessor, inference, cached = False, 0, False, False, False, False
        self.header_nodes.update(id(d) for d in node.decorators)
        every = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
        for param in every:
            if param.default is not None:
                self.header_nodes.add(id(param.default))
        for deco in node.decorators:
            target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
            qualified = self.qualify(target) or ""
            if qualified in COMPILE_NAMES:
                compiled = True
                self.compile_options[("def", qualname)] = (
                    compile_kwargs(deco.decorator) if isinstance(deco.decorator, cst.Call) else {})
            elif qualified in DISABLE_NAMES or (isinstance(target, cst.Name) and target.value in self.constant_markers):
                disabled = SKIPPED if qualified in SKIP_NAMES else OPAQUE
            elif qualified in INFERENCE_DECORATORS:
                inference = True
            elif qualified == "builtins.staticmethod":
                static = True
            elif qualified == "functools.cached_property":
                cached = True
            elif qualified == "builtins.property" or (
                    isinstance(target, cst.Attribute) and target.attr.value in ("setter", "deleter")):
                accessor = True
        params = [p.name.value for p in every]
        method = in_class
        scope = FunctionScope(qualname, class_name, params, node=node,
                              is_forward=method and name == "forward", bound=method and not static,
                              scripted=any(self.qualify(d.decorator) == "torch.jit.script" for d in node.decorators),
                              ndarrays=self.scopes[-1].ndarrays - frozenset(params) if self.scopes else frozenset())
        defaults = self._bind_params(node, scope, method and not static)
        self.scopes.append(scope)
        info = FunctionSummary(class_name=class_name if method else None, parent=parent, compiled=compiled,
                               disabled=disabled, accessor=accessor and method, inference=inference and method,
                               cached=cached and method, validates=method and is_validator(node, self.qualify))
        info.objects = object_defaults(node, self.qualify) if name == "__init__" else ()
        if scope.open or info.objects:  # what the project needs to map call-site arguments onto parameters
            info.params = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params))
            info.bound = 1 if (method and not static and info.params) else 0
            info.defaults = defaults
        self.functions[qualname] = info
        if not (compiled or disabled):
            info.calls.extend(self.decorator_edges(node))
        info.wrapper = any((self.qualify(d.decorator.func) or dotted(d.decorator.func) or "").endswith("wraps")
                           for d in node.decorators if isinstance(d.decorator, cst.Call))
        if compiled:
            self.compile_targets.append(CompileTarget("func", qualname))

    def _bind_params(self, node: cst.FunctionDef, scope: FunctionScope, method: bool) -> dict[str, str]:
        positional = [*node.params.posonly_params, *node.params.params]
        first_input = 1 if method else 0
        commented = type_comment_kinds(node)
        if commented is not None and method and len(commented) == len(positional) - 1:
            commented = [Kind.UNKNOWN] + commented  # the comment leaves out `self`
        defaults: dict[str, str] = {}
        for index, param in enumerate([*positional, *node.params.kwonly_params]):
            name = param.name.value
            kind = Kind.UNKNOWN
            if param.annotation is not None:
                kind = annotation_kind(param.annotation.annotation, self.qualify)
                if kind == Kind.TENSOR:
                    scope.declared[name] = kind
                elif kind == Kind.VALUE and scalar_annotation(param.annotation.annotation):  # (project decides)
                    scope.open[name] = (f"a|{scope.qualname}|{name}",)
                elif kind == Kind.UNKNOWN and (cls := annotated_class(param.annotation.annotation, self.qualify)
                                               or known_class(param.annotation.annotation, self.qualify)):
                    scope.typed[name] = cls
                elif tensor_container(param.annotation.annotation, self.qualify):
                    scope.tensor_items.add(name)
            elif commented is not None and index < len(commented):
                kind = commented[index]
            elif param.default is not None:
                lit = literal_kind(param.default)
                if lit is not None and not (isinstance(param.default, cst.Name) and param.default.value == "None"):
                    kind = Kind.VALUE
            elif scope.is_forward and index == first_input and index < len(positional):
                kind = Kind.LIKELY  # forward's first input is a tensor in all but odd code
            if param.default is not None:
                defaults[name] = "none" if (isinstance(param.default, cst.Name)
                                            and param.default.value == "None") else "value"
            if method and index == 0 and name in ("self", "cls"):  # (a tensor subclass's `self` is a tensor)
                kind = Kind.TENSOR if name == "self" and set(self.classes[-1].bases) & TENSOR_BASES else Kind.UNKNOWN
            elif kind == Kind.UNKNOWN and (param.annotation is None or call_sites_decide(  # `Optional[Scalar]`
                    param.annotation.annotation)):
                scope.open[name] = (f"p|{scope.qualname}|{name}",)
            scope.env[name] = kind
        for star in (node.params.star_arg, node.params.star_kwarg):
            if isinstance(star, cst.Param):
                scope.env[star.name.value] = Kind.VALUE if star is node.params.star_kwarg else Kind.UNKNOWN
        return defaults

    def exit_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self.scopes.pop()
        if not self.scopes and not self.classes and marks_constant(node):
            self.constant_markers = self.constant_markers | {node.name.value}
        info = self.functions.get(scope.qualname)
        if info is not None and scope.returns:
            info.ret = join_returns(scope.returns)
        if info is not None and node.returns is not None \
                and annotation_kind(node.returns.annotation, self.qualify) == Kind.TENSOR:
            info.promised = Kind.TENSOR.value  # (`-> Tensor`: what it, or an abstract one's overrides, return)
        if info is not None:
            info.items = annotated_items(node.returns, join_items(scope.items), self.qualify)
        if info is not None and self.scopes:
            # a nested function runs when its parent runs, as far as regions go
            self.functions[self.scopes[-1].qualname].calls.append(CallEdge("local", scope.qualname))
        if self.scopes:
            self.scopes[-1].env[node.name.value] = Kind.VALUE
            self.scopes[-1].open.pop(node.name.value, None)

    def enter_Module(self, node: cst.Module) -> None:
        self.tuple_fields = tuple_fields(node)

    def enter_Lambda(self, node: cst.Lambda) -> None:
        if self.scopes:
            for param in node.params.params:
                self.scopes[-1].env.setdefault(param.name.value, Kind.UNKNOWN)

    def exit_Return(self, node: cst.Return) -> None:
        if self.scopes and not self.header:
            value = node.value
            if value is None or (isinstance(value, cst.Name) and value.value == "None"):
                return
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                self.scopes[-1].returns.append(BOOL)
                return
            self.scopes[-1].returns.append(self.kind_spec(value))
            self.scopes[-1].items.append(displayed_items(value, self.kind_spec, self.tuple_fields))

    # ---- bindings (on leave, so rules see the state before the assignment) -------------

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None, kind: Kind) -> None:
        env = self.scopes[-1].env if self.scopes else self.module_env
        var_class = self.scopes[-1].var_class if self.scopes else self.module_var_class
        if isinstance(target, cst.Name):
            if kind == Kind.UNKNOWN and self.scopes:
                kind = self.scopes[-1].declared.get(target.value, kind)
            env[target.value] = kind
            var_class.pop(target.value, None)
            if self.scopes:
                self.scopes[-1].var_made.pop(target.value, None)
                self.scopes[-1].typed.pop(target.value, None)
                self.scopes[-1].built.discard(target.value)
                self.scopes[-1].tensor_items.discard(target.value)
                self._set_open(target.value, value if kind == Kind.UNKNOWN else None)
            if not self.scopes:
                self._class_table(target.value, value)
            if isinstance(value, cst.IfExp) and (either := constructed(value, self.qualify)):
                var_class[target.value] = either  # `L_BFGS(x) if low_mem else BFGS(x)`: one of them
            if isinstance(value, cst.Call):
                ref = self.qualify(value.func) or dotted(value.func)
                if made := constructed(value, self.qualify):
                    var_class[target.value] = made  # (`torch.LongTensor([n])` builds a tensor: its kind says so)
                elif table := self.table_classes(value.func):
                    var_class[target.value] = table  # solver = SOLVERS[method](...): one of them
                elif mark := self.param_class_mark(value.func):
                    var_class[target.value] = NEW + mark  # `m = subproblem(x)`: of a class a caller passes
                elif isinstance(value.func, cst.Name) and not self.locally_bound(value.func.value) \
                        and (built := self.return_class(value.func.value)):
                    var_class[target.value] = built
                elif ref in COMPILE_NAMES and value.args and isinstance(value.args[0].value, cst.Name):
                    source = var_class.get(value.args[0].value.value)
                    if source:
                        var_class[target.value] = source
                elif self.scopes and ref and "." in ref and not ref.startswith(("builtins.", "torch.")) \
                        and (edge := self.edge_index(value)) is not None:
                    self.scopes[-1].var_made[target.value] = edge  # maybe a factory's product
                if self.scopes and target.value in var_class and ref not in COMPILE_NAMES:
                    self.scopes[-1].built.add(target.value)  # an object made here (CL151)
        elif isinstance(target, (cst.Tuple, cst.List)) and _parallel(target, value):
            # `row, col = row[mask], col[mask]`: each name takes its own element's kind
            # (all kinds first: the right side is evaluated before any name is bound, `a, b = b, a`)
            kinds = [infer(element.value, self) for element in value.elements]
            for name_node, element_node, element_kind in zip(target.elements, value.elements, kinds):
                self._bind(name_node.value, element_node.value, element_kind)
        elif isinstance(target, (cst.Tuple, cst.List)):
            element = kind if kind.tensorish else Kind.UNKNOWN
            if isinstance(value, cst.Name) and self.scopes and self.scopes[-1].typed.get(value.value) in TENSOR_TUPLES:
                element = Kind.TENSOR  # `data, batch_sizes, ... = packed`: its fields are tensors
            elif _saved_tensors(value, self.scopes[-1].node if self.scopes else None):
                element = Kind.TENSOR  # `logits, dim = ctx.saved_tensors` in an autograd Function
            returned = self._returned_items(target, value) if element == Kind.UNKNOWN else None
            if is_sizes(value):  # `b, n, d = x.shape` / `x.size()` / `x.shape[:2]`: ints
                element = Kind.VALUE
            for name in target_names(target):
                env[name] = self.scopes[-1].declared.get(name, element) if (
                    element == Kind.UNKNOWN and self.scopes) else element
                var_class.pop(name, None)
                if self.scopes:
                    self.scopes[-1].open.pop(name, None)
                    self.scopes[-1].typed.pop(name, None)
            for name, leaf in (returned or {}).items():
                self.scopes[-1].open[name] = (leaf,)

    def _returned_items(self, target: cst.Tuple | cst.List, value: cst.BaseExpression | None) -> dict | None:
        """`a, b = f(...)` with `f` a project function: each name depends on its element of
        what `f` returns (`i|fn|edge#n`), which only the project can tell."""
        if not self.scopes or not isinstance(value, cst.Call) or any(
                not isinstance(e, cst.Element) or not isinstance(e.value, cst.Name) for e in target.elements):
            return None
        edge = self.edge_index(value)
        if edge is None:
            return None
        qualname = self.scopes[-1].qualname
        return {e.value.value: f"i|{qualname}|{edge}#{n}" for n, e in enumerate(target.elements)}

    def _set_open(self, name: str, value: cst.BaseExpression | None, element: bool = False) -> None:
        """Record what `name` depends on when only the project can tell (`value` None: nothing)."""
        scope = self.scopes[-1]
        scope.open.pop(name, None)
        if value is None:
            return
        assumed, leaves = self.assumed(value)
        if assumed.tensorish and leaves:
            scope.open[name] = tuple(sorted(leaves))

    def exit_Assign(self, node: cst.Assign) -> None:
        kind = infer(node.value, self)
        for target in node.targets:
            self._bind(target.target, node.value, kind)
            self._note_forward_swap(target.target)
        self._note_forward_kept(node.value)

    def _note_forward_swap(self, target: cst.BaseExpression) -> None:
        """`cls.forward = ...` on a parameter: this function (a class decorator) swaps the
        implementation of the classes it decorates; their own forward is not what runs."""
        if isinstance(target, cst.Attribute) and target.attr.value == "forward" \
                and isinstance(target.value, cst.Name) and self.scopes \
                and target.value.value in self.scopes[-1].params:
            for scope in self.scopes:  # the decorator factory around it counts too
                self.functions[scope.qualname].swaps_forward |= SWAPS

    def _note_forward_kept(self, value: cst.BaseExpression) -> None:
        """`original = cls.forward` on a parameter: the decorator keeps the class's own forward,
        for its dispatcher to fall back to (transformers' experts: `get_interface(impl, original)`)."""
        if isinstance(value, cst.Attribute) and value.attr.value == "forward" and isinstance(value.value, cst.Name) \
                and self.scopes and value.value.value in self.scopes[-1].params:
            for scope in self.scopes:
                self.functions[scope.qualname].swaps_forward |= KEEPS

    def exit_AnnAssign(self, node: cst.AnnAssign) -> None:
        kind = annotation_kind(node.annotation.annotation, self.qualify)
        if kind == Kind.TENSOR and self.scopes and isinstance(node.target, cst.Name):
            self.scopes[-1].declared[node.target.value] = kind
        if node.value is not None and kind == Kind.UNKNOWN:
            kind = infer(node.value, self)
        self._bind(node.target, node.value, kind)

    def exit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            env = self.scopes[-1].env if self.scopes else self.module_env
            env[node.target.value] = strongest(self.name_kind(node.target.value), infer(node.value, self))

    def exit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value, infer(node.value, self))

    def exit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            for name in target_names(node.asname.name):
                (self.scopes[-1].env if self.scopes else self.module_env)[name] = Kind.UNKNOWN
                if self.scopes:
                    self.scopes[-1].open.pop(name, None)


# classes whose instances unpack into tensors (`PackedSequence`: data, batch sizes, the two
# orderings, which may be None and then are never used as numbers)
TENSOR_TUPLES = frozenset({"torch.nn.utils.rnn.PackedSequence", "torch.nn.utils.rnn.PackedSequence_"})


def _parallel(target: cst.BaseExpression, value: cst.BaseExpression | None) -> bool:
    """`a, b = x, y`: as many elements on each side and none starred."""
    return isinstance(value, (cst.Tuple, cst.List)) and len(target.elements) == len(value.elements) \
        and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements))


def _saved_tensors(value: cst.BaseExpression | None, function: cst.CSTNode | None) -> bool:
    """`ctx.saved_tensors`, `ctx` the function's first parameter (an autograd Function's
    `backward(ctx, ...)`): what `save_for_backward` kept, tensors (torch-struct saves its `dim`
    as `torch.tensor(dim)`, then tests it)."""
    if not (isinstance(value, cst.Attribute) and value.attr.value == "saved_tensors"
            and isinstance(value.value, cst.Name) and isinstance(function, cst.FunctionDef)):
        return False
    first = next(iter((*function.params.posonly_params, *function.params.params)), None)
    return first is not None and first.name.value == value.value.value
