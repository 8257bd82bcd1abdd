"""Classes: their bases and what `self.x` holds (a tensor, a value, a submodule of class C)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import libcst as cst

from compilelint.knowledge import method_classes
from compilelint.semantic.attr_marks import (class_annotation, defaulted_name, either_class, function_defaults, function_refs,
                                              picked_rnn, typed_attr, typed_path)
from compilelint.semantic.compile_values import nested_scope
from compilelint.semantic.constructor_args import passes, set_by_base, set_through
from compilelint.semantic.dispatch import bound_methods
from compilelint.semantic.method_scan import method_scan, tensor_param_value
from compilelint.semantic.param_uses import CONTAINERS, given_items, requires_arguments
from compilelint.summary import APPLY, ARG, BOUND, MADE, OPTIONAL_KEYS, TYPED_DICT
from compilelint.traverse import scan
from compilelint.semantic.kinds import (TENSOR_ONLY_METHODS, Kind, annotation_kind, builds_list, dotted,
                                       literal_kind, not_required, torch_call_kind, torch_state)

# Methods whose `self.x = ...` say what the attribute is (later writes keep its kind).
INIT_METHODS = frozenset({"__init__", "reset_parameters", "_init_weights", "build", "setup"})


@dataclass
class ClassInfo:
    qualname: str
    bases: list[str]
    attr_kinds: dict[str, Kind] = field(default_factory=dict)
    attr_classes: dict[str, str] = field(default_factory=dict)  # self.x = Foo(...) -> Foo
    decorators: list[str] = field(default_factory=list)  # class decorators, qualified
    none_attrs: set[str] = field(default_factory=set)  # self.x = None somewhere in the class
    set_attrs: set[str] = field(default_factory=set)  # self.x = <anything else> (or setattr: "*")
    param_attrs: set[str] = field(default_factory=set)  # self.x = <a constructor parameter>, untyped
    empty_attrs: set[str] = field(default_factory=set)  # self.x = {} / [] / dict(): may stay empty
    bare_lists: set[str] = field(default_factory=set)  # self.x = nn.ModuleList(): filled by appends
    methods: set[str] = field(default_factory=set)  # the functions its body defines (not properties)
    typed_dict: int = 0  # summary.TYPED_DICT / OPTIONAL_KEYS bits
    attr_functions: dict[str, str] = field(default_factory=dict)  # self.fn = a_function -> "a|b"
    # self.x = f(...) in an init method -> f, qualified: the first call each attribute is set from
    # (`self.scope = Scope()`, `self.frozen = torch.no_grad()`: CL141's objects made before the region)
    init_calls: dict[str, str] = field(default_factory=dict)
    init_rewritten: set[str] = field(default_factory=set)  # set twice in the init methods, from different values
    init_required: bool | None = None  # ClassSummary.init_required
    state_attrs: set[str] = field(default_factory=set)  # ClassSummary.state_attrs
    late_attrs: set[str] = field(default_factory=set)  # self.x = ... outside the INIT_METHODS
    list_attrs: dict[str, bool] = field(default_factory=dict)  # every write of self.x builds a list


ACCESSORS = frozenset({"property", "cached_property", "setter", "getter", "deleter"})
_NONE = "none"  # `_scan_class_attrs`: the init methods set the attribute to None


def _is_none(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"


def _record(info: ClassInfo, attr: str, value: cst.BaseExpression) -> None:
    """Whether `attr` is only ever set to None in the class (an optional part left out)."""
    if _is_none(value):
        info.none_attrs.add(attr)
    else:
        info.set_attrs.add(attr)
    info.list_attrs[attr] = info.list_attrs.get(attr, True) and builds_list(value)
    if (isinstance(value, (cst.Dict, cst.List)) and not value.elements) or (
            isinstance(value, cst.Call) and not value.args and dotted(value.func) in ("dict", "list", "set")):
        info.empty_attrs.add(attr)
    elif isinstance(value, cst.Call) and not value.args and (dotted(value.func) or "").endswith("ModuleList"):
        info.bare_lists.add(attr)


class ClassTracking:
    """Walker part: the class table (bases, attribute kinds and classes)."""

    def enter_ClassDef(self, node: cst.ClassDef) -> None:
        qualname = self._qualname(node.name.value)
        if not self.scopes and not self.classes:
            self.module_defs.add(node.name.value)
        bases = []
        for arg in node.bases:
            if arg.keyword is None:
                base = arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value  # `Base[T]`: Base
                bases.append(self.qualify(base) or dotted(base) or "?")
        info = ClassInfo(qualname, bases)
        info.methods = {stmt.name.value for stmt in node.body.body if isinstance(stmt, cst.FunctionDef) and not any(
            (dotted(d.decorator) or "").rsplit(".", 1)[-1] in ACCESSORS for d in stmt.decorators)}  # (no property)
        for deco in node.decorators:
            target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
            ref = self.qualify(target) or dotted(target)
            if ref and not ref.startswith("builtins."):
                info.decorators.append(ref)
        self._scan_class_attrs(node, info)
        init = next((s for s in node.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
        if init is not None:
            self.class_inits[qualname] = init
        info.typed_dict = self._typed_dict_bits(node, bases)
        self.classes.append(info)
        self.class_depths.append(len(self.scopes))
        self.class_table[qualname] = info

    def _typed_dict_bits(self, node: cst.ClassDef, bases: list[str]) -> int:
        """TYPED_DICT when a base is `TypedDict` itself, OPTIONAL_KEYS when the class makes
        keys optional (`total=False`, or a key annotated `NotRequired[...]`): a subclass of
        a project TypedDict is one too, which the project decides from the bases."""
        bits = TYPED_DICT if any(base.rsplit(".", 1)[-1] == "TypedDict" for base in bases) else 0
        for arg in node.keywords:
            if arg.keyword is not None and arg.keyword.value == "total" \
                    and isinstance(arg.value, cst.Name) and arg.value.value == "False":
                bits |= OPTIONAL_KEYS
        for stmt in node.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.AnnAssign) and not_required(small.annotation.annotation):
                        bits |= OPTIONAL_KEYS
        return bits

    def exit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()
        self.class_depths.pop()

    def _scan_class_attrs(self, node: cst.ClassDef, info: ClassInfo) -> None:
        """`self.x = ...` in the class's methods: what each attribute holds."""
        items: dict[str, list] = {}  # `self.x.append(Filter(...))` in an init method: x's elements
        # `self.x = None` in `__init__`, a tensor once the class computes it (torchsurv's metrics'
        # `self.estimate`): what later writes give, for attributes the init methods only clear
        cleared: dict[str, tuple[set, set]] = {}
        for stmt in node.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):  # `config: LlamaConfig` in the body
                for small in stmt.body:
                    if isinstance(small, cst.Assign):  # a class attribute: `norm = None`
                        for target in small.targets:
                            if isinstance(target.target, cst.Name):
                                _record(info, target.target.value, small.value)
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                        ref = class_annotation(small.annotation.annotation)
                        if ref:
                            info.attr_classes.setdefault(small.target.value, self.qualify_ref(ref))
                        elif annotation_kind(small.annotation.annotation, self.qualify) == Kind.TENSOR:
                            info.attr_kinds.setdefault(small.target.value, Kind.TENSOR)  # a dataclass field
            if not isinstance(stmt, cst.FunctionDef):
                continue
            in_init = stmt.name.value in INIT_METHODS
            if stmt.name.value == "__init__":
                info.init_required = requires_arguments(stmt)
            typed = {p.name.value: class_annotation(p.annotation.annotation)
                     for p in (*stmt.params.posonly_params, *stmt.params.params, *stmt.params.kwonly_params)
                     if p.annotation is not None} if in_init else {}
            assignments, registered, local_calls, annotated, appended, self_calls, structural = self.scanned(stmt)
            info.state_attrs.update(structural)
            if in_init and self_calls:
                methods = {s.name.value: s for s in node.body.body
                           if isinstance(s, cst.FunctionDef) and s.name.value not in INIT_METHODS}
                assignments = assignments + set_through(methods, self_calls, self.scanned)
            if stmt.name.value == "__init__":
                local_bases = [b.removeprefix(f"{self.module}.") for b in info.bases]  # (written qualified)
                assignments = set_by_base(local_bases, stmt, self.class_inits, self.scanned) + assignments
            for assign_target, annotation in annotated:  # `self.tokenizer: Tokenizer = get_tokenizer(...)`
                if ref := class_annotation(annotation):
                    typed_attr(info.attr_classes, assign_target, self.qualify_ref(ref))
            params = {p.name.value for p in (*stmt.params.posonly_params, *stmt.params.params,
                                               *stmt.params.kwonly_params)} if in_init else set()
            defaults = function_defaults(stmt) if in_init else {}
            # the functions the method defines, keyed as the walker keys them: `self.step = step`
            # (looked up only when a stored value is a name: the walk costs 2 % of a cold run)
            nested = functools.cache(lambda method=stmt: {
                sub.name.value: f"{info.qualname}.{method.name.value}.<locals>.{sub.name.value}"
                for sub in scan(method.body, prune=nested_scope) if isinstance(sub, cst.FunctionDef)})
            for assign_target, value in assignments:
                _record(info, assign_target, value)
                if not in_init:
                    info.late_attrs.add(assign_target)
                if isinstance(value, cst.Call) and torch_state(self.qualify(value.func)):
                    info.state_attrs.add(assign_target)  # `self.w = nn.Parameter(...)`, `= nn.Linear(...)`
                if in_init:
                    made = (self.qualify(value.func) or dotted(value.func) or "") if isinstance(value, cst.Call) else None
                    if made is None or info.init_calls.setdefault(assign_target, made) != made:
                        info.init_rewritten.add(assign_target)  # (monai's `self.final_size`: an array, then a tuple)
                held_value = value  # `self.perm_func = perm_func` holds `perm_func`'s default
                if isinstance(value, cst.Name) and value.value in defaults:
                    held_value = defaults[value.value]
                if refs := function_refs(held_value, params, local_calls, self.qualify, nested):
                    # `self.search_fn = native_neighbor_search` (beside `= FixedRadiusSearch()` in
                    # another branch): calling `self.search_fn(...)` may run the function
                    held = info.attr_functions.get(assign_target, "").split("|")
                    info.attr_functions[assign_target] = "|".join(r for r in dict.fromkeys(held + refs) if r)
                kind = self._attr_value_kind(value)
                if kind == Kind.UNKNOWN and in_init and tensor_param_value(value, stmt):
                    kind = Kind.TENSOR  # `self.counts = counts.clone()` with `counts: Tensor`
                if isinstance(value, cst.Name) and value.value in params and value.value not in typed:
                    # `self.node_a = node_a` beside `self.node_a = torch.ones(...)`: the default
                    # is a tensor, so what callers pass in its place is taken for one too
                    held = info.attr_kinds.get(assign_target)
                    if held is not None and held.tensorish:
                        info.attr_kinds[assign_target] = Kind.LIKELY
                        continue
                    info.param_attrs.add(assign_target)
                elif in_init and given_items(value, params - typed.keys()):
                    info.param_attrs.add(assign_target)  # nn.ModuleList(flows): elements the caller chose
                elif isinstance(value, cst.Name) and value.value in local_calls and value.value not in params:
                    # `arch = torch.ones(...)` (or from_numpy in another branch), then `self.arch = arch`
                    kinds = {self._attr_value_kind(bound) for bound in local_calls[value.value]}
                    if kinds and all(k.tensorish for k in kinds):
                        kind = Kind.TENSOR if kinds == {Kind.TENSOR} else Kind.LIKELY
                if kind.tensorish and assign_target in info.param_attrs:
                    info.param_attrs.discard(assign_target)
                    info.attr_kinds[assign_target] = Kind.LIKELY
                    continue
                if in_init or assign_target in cleared:
                    written = _NONE if _is_none(value) else kind
                    cleared.setdefault(assign_target, (set(), set()))[not in_init].add(written)
                if not in_init and assign_target in info.attr_kinds and info.attr_kinds[assign_target] != kind:
                    continue  # __init__ says what the attribute is; later writes keep its kind
                if assign_target in info.attr_kinds and info.attr_kinds[assign_target] != kind:
                    if kind == Kind.UNKNOWN or info.attr_kinds[assign_target] == Kind.UNKNOWN:
                        info.attr_kinds[assign_target] = Kind.UNKNOWN
                        continue
                info.attr_kinds[assign_target] = kind
                if isinstance(value, cst.Attribute) and value.attr.value == "apply":
                    ref = self.qualify(value.value) or dotted(value.value)
                    if ref and ref.rsplit(".", 1)[-1][:1].isupper():
                        # `self.sqrt = Sqrt.apply`: calling it runs Sqrt.forward if Sqrt is an
                        # autograd Function (the project decides)
                        info.attr_classes[assign_target] = APPLY + ref
                elif bound_methods(value):
                    # `self.loss_method = self.mat_based_loss if mat_based else self.pair_based_loss`:
                    # calling it runs one of the methods, on this instance
                    info.attr_classes[assign_target] = BOUND + "|".join(bound_methods(value))
                elif picked := picked_rnn(value, assign_target, self.qualify):
                    info.attr_kinds[assign_target] = Kind.MODULE  # `getattr(nn, rnn_type)(...)`
                    info.attr_classes[assign_target] = either_class(info.attr_classes.get(assign_target), picked)
                elif isinstance(value, cst.Call) and kind == Kind.MODULE:
                    ref = self._container_element(value) or self.qualify(value.func) or dotted(value.func)
                    if ref:
                        info.attr_classes[assign_target] = either_class(info.attr_classes.get(assign_target), ref)
                elif isinstance(value, cst.Call) and (made := self.qualify(value.func)) in method_classes():
                    info.attr_classes[assign_target] = made  # `self.engine = SobolEngine(d)`
                elif (name := defaulted_name(value)) is not None and typed.get(name):
                    # `self.config = config` with `config: LlamaConfig` (or `states if states is not
                    # None else ...` with `states: States | None`): calls follow the class
                    typed_attr(info.attr_classes, assign_target, self.qualify_ref(typed[name]))
                elif isinstance(value, cst.Name) and in_init and value.value in local_calls:
                    # `if head is None: head = Head(...)` then `self.head = head`
                    ref = self._built_class(local_calls[value.value])
                    if ref:
                        typed_attr(info.attr_classes, assign_target, ref)
                    elif (bound := local_calls[value.value]) and len(bound) == 1 and isinstance(bound[0], cst.Call) \
                            and not passes(bound[0], value.value) \
                            and (mark := self.factory_mark(bound[0].func, in_class=True)) and mark.startswith(MADE):
                        # `if sim is None: sim = make_kernel()` then `self.sim = sim`: a factory's result
                        # (not a conversion, `root = to_linear_operator(root)`, which may hand `root` back)
                        info.attr_classes.setdefault(assign_target, mark)
                elif in_init and (path := typed_path(value, typed, self.qualify, self.qualify_ref)):
                    info.attr_classes.setdefault(assign_target, path)  # `= copy.deepcopy(model.rnn.rnn)`
                elif mark := self.attr_factory_mark(value, params, local_calls):
                    info.attr_classes.setdefault(assign_target, mark)  # self.criterion = self.init_criterion()
            for buffer in registered:
                if buffer.startswith("~"):  # setattr under a computed name: it may hold anything
                    info.attr_kinds[buffer[1:]] = Kind.UNKNOWN
                elif buffer == "*" or "*" not in buffer or info.attr_kinds.get(buffer) != Kind.UNKNOWN:  # (e2cnn's gnorm)
                    info.attr_kinds[buffer] = Kind.TENSOR
                    info.set_attrs.add(buffer)
            for attr, value in appended:
                items.setdefault(attr, []).append(self._appended_class(value) if in_init else None)
        for attr, (first, later) in cleared.items():  # a placeholder: a tensor wherever it is used as one
            if first == {_NONE} and later - {_NONE} and all(k == _NONE or k.tensorish for k in later):
                info.attr_kinds[attr] = Kind.LIKELY
        for attr, refs in items.items():  # a list `__init__` fills with objects of known classes
            if all(refs) and (attr in info.empty_attrs and attr not in info.attr_classes or attr in info.bare_lists):
                info.attr_classes[attr] = "[]" + "|".join(dict.fromkeys(refs))

    def scanned(self, method: cst.FunctionDef) -> tuple:
        """`method_scan(method)`, once per method: a setter is read again from its constructor,
        and the server keeps the scans of methods an edit left alone (`self.scans`)."""
        known = self.scans.get(id(method))
        if known is None or known[0] is not method:
            known = self.scans[id(method)] = (method, method_scan(method))
        return known[1]

    def _appended_class(self, value: cst.BaseExpression) -> str | None:
        """`Filter` of `self.filters.append(Filter(...))`."""
        ref = (self.qualify(value.func) or dotted(value.func)) if isinstance(value, cst.Call) else None
        return ref if ref and ref.rsplit(".", 1)[-1][:1].isupper() and not ref.startswith("builtins.") else None

    def enter_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        if isinstance(target, cst.Attribute) and not (isinstance(target.value, cst.Name) and target.value.value == "self"):
            self.foreign_attrs.add(target.attr.value)  # module.gradient_checkpointing = True

    def enter_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "setattr" and len(node.args) >= 2:
            name = node.args[1].value
            if not isinstance(name, cst.SimpleString):
                self.foreign_attrs.add("*")  # setattr(m, name, v): any attribute
            elif not (isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == "self"):
                text = name.evaluated_value
                if isinstance(text, str):
                    self.foreign_attrs.add(text)

    def _built_class(self, values: list) -> str | None:
        """The one class a local name is built as in a constructor (`head = Head(...)`,
        `layers = nn.ModuleList([Block() ...])`), None when it is anything else too."""
        refs = set()
        for value in values:
            if not (isinstance(value, cst.Call) and self._attr_value_kind(value) == Kind.MODULE):
                return None
            refs.add(self._container_element(value) or self.qualify(value.func) or dotted(value.func))
        refs.discard(None)
        return refs.pop() if len(refs) == 1 else None

    def qualify_ref(self, ref: str) -> str:
        head, _, rest = ref.partition(".")
        base = self.imports.get(head)
        return (f"{base}.{rest}" if rest else base) if base else ref

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
        elif isinstance(arg, (cst.DictComp, cst.Dict)):  # `nn.ModuleDict({f: nn.LSTM(...) for f in freqs})`
            elements = [arg.value] if isinstance(arg, cst.DictComp) else [e.value for e in arg.elements
                                                                          if isinstance(e, cst.DictElement)]
        elif name.split(".")[-1] == "Sequential":
            elements = [a.value for a in value.args]
        refs = {self.qualify(e.func) or dotted(e.func) for e in elements if isinstance(e, cst.Call)}
        refs.discard(None)
        return "[]" + refs.pop() if len(refs) == 1 else None

    def element_class(self, node: cst.BaseExpression) -> str | None:
        """The class of the elements of `self.layers` when it is a container of one class."""
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            owner = self.function.class_name if self.scopes else None
            info = self.class_table.get(owner) if owner else None
            ref = info.attr_classes.get(node.attr.value) if info else None
            if ref and ref.startswith("[]") and "|" not in ref:
                return ref[2:]  # (of several classes: each call on an element is an `elemcall`)
        return None

    def _attr_value_kind(self, value: cst.BaseExpression) -> Kind:
        lit = literal_kind(value)
        if lit is not None:
            if _is_none(value):
                return Kind.UNKNOWN
            return lit
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) \
                    and func.attr.value in TENSOR_ONLY_METHODS:  # torch.ones(n).to(device)
                inner = self._attr_value_kind(func.value)
                if inner.tensorish:
                    return inner
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

    def self_attr_kind(self, attr: str) -> Kind:
        scope = self.function
        if scope is None or scope.class_name is None:
            return Kind.UNKNOWN
        if attr in ("training",):
            return Kind.VALUE
        kind = self._class_attr_kind(scope.class_name, attr)
        if kind == Kind.UNKNOWN and self._foreign_base(scope.class_name):
            # set, maybe, by a project base class in another file: only the project can tell
            if self.assuming is None:
                self.open_seen = True
            else:
                self.assuming.add(f"s|{scope.class_name}|{attr}")
                return Kind.LIKELY
        return self.open_attr(scope.class_name, attr) if kind == Kind.UNKNOWN else kind

    def _foreign_base(self, name: str) -> bool:
        """The class (or a base of this file) derives from a class defined in another file
        of the project (not torch's, not a builtin)."""
        seen, todo = set(), [name]
        while todo:
            info = self.class_table.get(todo.pop())
            if info is None or info.qualname in seen:
                continue
            seen.add(info.qualname)
            for base in info.bases:
                local = self.local_class(base)
                if local:
                    todo.append(local)
                elif "." in base and not base.startswith(("torch.", "builtins.", "typing.", "abc.", "enum.")):
                    return True
        return False

    def object_attr_kind(self, name: str | None, attr: str, ref: str | None = None) -> Kind:
        """What `name.attr` holds when `name` holds an instance of a class of this file
        (`index = IndexMap(...)`, `flat = flatten(index)` with `flatten` returning one), or is
        a parameter annotated with a class (`model: "Whisper"`), or the class `ref` the caller
        knows (`self.stats._std`): one of another file of the project is asked of the project
        (`o|class|attr`), as `self.attr` set by a base class is."""
        scope = self.scopes[-1] if self.scopes else None
        ref = ref or (self.held_class(name, scope) if scope else self.module_var_class.get(name))
        if not ref and scope is not None and name in scope.var_made:
            # what a call the file cannot resolve builds (`utils.load_separator()`): asked of
            # the project (`f|fn|edge#attr`: the class its returns build, then that class's attribute)
            if self.assuming is None:
                self.open_seen = True
                return Kind.UNKNOWN
            self.assuming.add(f"f|{scope.qualname}|{scope.var_made[name]}#{attr}")
            return Kind.LIKELY
        if not ref or ARG in ref:  # (an object of a class a caller passes: which class, only the project knows)
            return Kind.UNKNOWN
        local = self.local_class(ref)
        if local:
            return self._class_attr_kind(local, attr)
        if "." not in ref:  # a string annotation: `model: "Whisper"`, imported for type checking
            ref = self.qualify(cst.Name(ref)) or ref
        if "." not in ref or ref.startswith(("torch.", "builtins.", "typing.")):
            return Kind.UNKNOWN  # (not a class of the project)
        if self.assuming is None:
            self.open_seen = True
            return Kind.UNKNOWN
        self.assuming.add(f"o|{ref}|{attr}")
        return Kind.LIKELY

    def local_lineage(self, name: str | None):
        """The file's class `name`, its first base of this file, and so on (as attribute lookup goes)."""
        info, seen = self.class_table.get(name) if name else None, set()
        while info is not None and info.qualname not in seen:
            seen.add(info.qualname)
            yield info
            info = next((self.class_table[local] for local in map(self.local_class, info.bases) if local), None)

    def _class_attr_kind(self, name: str | None, attr: str) -> Kind:
        return next((info.attr_kinds[attr] for info in self.local_lineage(name) if attr in info.attr_kinds), Kind.UNKNOWN)

    def self_list_attr(self, attr: str) -> bool:
        """`self.attr` is a list or tuple: every write of it in its class of this file builds one."""
        scope = self.function
        return scope is not None and scope.class_name is not None and next(
            (info.list_attrs[attr] for info in self.local_lineage(scope.class_name) if attr in info.list_attrs), False)

    def enter_Module(self, node: cst.Module) -> None:
        self.module_functions = {s.name.value: s for s in node.body if isinstance(s, cst.FunctionDef)}

    def return_class(self, name: str) -> str | None:
        """The class of this file a module-level function builds in every `return`
        (`def flatten(index): return IndexMap(...)`): a name bound to its call holds one."""
        if name not in self.return_classes:
            fn = self.module_functions.get(name)
            built = {dotted(n.value.func) if isinstance(n.value, cst.Call) else None
                     for n in scan(fn.body, prune=nested_scope) if type(n) is cst.Return} if fn else set()
            cls = built.pop() if len(built) == 1 else None
            self.return_classes[name] = cls if cls in self.class_table else None
        return self.return_classes[name]

    def local_class(self, ref: str | None) -> str | None:
        """The class-table name of a class of this file, from the qualified name imports
        give it (`pkg.mod.Name` -> `Name`); None for a class defined elsewhere."""
        if not ref:
            return None
        local = ref.removeprefix(f"{self.module}.")
        return local if local in self.class_table else None

    def _class_table(self, name: str, value: cst.BaseExpression | None) -> None:
        """`SOLVERS = {"rk4": RK4, "dopri5": Dopri5Solver}` at module level: a registry whose
        lookups build one of its classes (kept as "A|B", each resolved by the project)."""
        refs = []
        if isinstance(value, cst.Dict) and value.elements:
            for element in value.elements:
                node = getattr(element, "value", None)
                ref = (self.qualify(node) or dotted(node)) if isinstance(node, (cst.Name, cst.Attribute)) else None
                if not ref or not ref.split(".")[-1][:1].isupper() or ref.startswith("builtins.") \
                        or ref in ("None", "True", "False"):
                    refs = []
                    break
                if ref not in refs:
                    refs.append(ref)
        if refs:
            self.class_tables[name] = "|".join(refs)
        else:
            self.class_tables.pop(name, None)

    def table_classes(self, func: cst.BaseExpression) -> str | None:
        """The classes `TABLE[key]` may be, for a module-level registry of classes."""
        if isinstance(func, cst.Subscript) and isinstance(func.value, cst.Name) \
                and not self.locally_bound(func.value.value):
            return self.class_tables.get(func.value.value)
        return None

