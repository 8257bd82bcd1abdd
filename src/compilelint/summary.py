"""A file's summary: what the project index needs of one file's walk (its imports, classes,
functions and their call edges, what it compiles, where its loops are).

Typed records and no libcst: a run whose files are all cached builds the index from these
alone. `to_json()` / `from_json()` give and take the cache's form, plain tuples, dicts,
strings and numbers (what marshal and JSON write): each record is a row of its fields in
declaration order with the trailing defaults left off, so entries stay small. Sequences
are tuples both as the walk builds them and as they are read back (the `calls` and
`compile_targets` the walk appends to are lists both ways), so a summary read from the
cache equals the one its file's walk made (the server compares them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# what a tensor subclass names as its base (index_roots, semantic.bindings, rules._built_classes;
# here, not in semantic.kinds: the engine's warm path must not import libcst)
TENSOR_BASES = frozenset({"torch.Tensor", "torch._tensor.Tensor"})

# A kind as a summary stores it: its name ("tensor", "likely", "value", "none", ...), or
# the sorted leaves it depends on ("p|fn|param", "r|fn|edge", "i|fn|edge#n" for the n-th
# element of what the call returned; semantic.project decides).
Spec = str | tuple[str, ...]
# the tags a leaf starts with (semantic.project.KindSolver.leaf_kind): a parameter, an annotated
# one, a self attribute, an attribute of an annotated object, a return, a returned tuple's item,
# an attribute of what a call of another file's factory built.
# A finding's `needs` holds leaves or a project phase's candidate mark (finding.PROJECT_DECIDES):
# the two must never share a prefix (CL154's mark was "s|" once, and crashed its phase)
LEAF_TAGS = frozenset({"p", "a", "s", "o", "r", "i", "f"})


def _trim(row: tuple, defaults: tuple) -> tuple:
    end = len(row)
    while end and row[end - 1] == defaults[end - 1]:
        end -= 1
    return row[:end]

APPLY = "apply:"  # ClassSummary.attr_classes: the attribute holds `C.apply` (an autograd Function's)
STAR = "*"  # ModuleSummary.imports key no name can be: "*" + the module a star import reads
MADE = "made:"  # attr_classes / a local's class: what the factory function after it returns
NEW = "new:"  # a local's class: an instance of the class (a factory picked) after it
# a call's target: the classes the call sites of function Q pass as its parameter P, "arg:Q|P"
# (`m = subproblem(x)` in torchmin's `_minimize_trust_region(..., subproblem=None)`; `new:arg:Q|P`, an
# instance of one: `m.solve(r)`; index_made)
ARG = "arg:"
PARAMETER = "torch.nn.Parameter"  # FunctionSummary.builds: its returns make parameters (no project class)
BOUND = "self:"  # ClassSummary.attr_classes: the attribute holds `self.m` (or one of "a|b"), a bound method
# attr_classes: the attribute holds what an attribute chain of another class's instance holds,
# "path:C>a.b" (`self.rnn = copy.deepcopy(model.rnn.rnn)` with `model: RNNModel` in `__init__`)
PATH = "path:"


def names_classes(ref: str | None) -> bool:
    """An `attr_classes` value that names the class of the object held (one, or one per branch:
    "A|B"), not a container of them, a factory's result, an `apply` nor bound methods."""
    return bool(ref) and not ref.startswith(("[]", MADE, NEW, APPLY, BOUND, PATH))


@dataclass(slots=True)
class CallEdge:
    """A call a function makes, as the project resolves it later. `kind`:
    name      `target(...)`, a name bound outside the function (a local def first)
    instance  calling an instance of class `target` (`layer(x)`, `self.layers[i](x)`)
    self      `self.target(...)`;  super: `super().target(...)`
    selfattr  `self.target.forward(...)`
    attrcall  `self.target.method(...)`: `method` of the class `self.target` holds
    pathcall  `self.A.B.method(...)`, `target` "A.B": `method` of the class B holds in A's class
    dotted    `pkg.mod.target(...)`, `target` qualified
    ctorcall  `Helper(...).method(...)`: `target` is the qualified class and the method
              (also `p.method(...)`, `p` a parameter annotated with that class, `p * q`,
              which runs `__mul__` of `p`'s class: semantic.dunder_calls, `1 - p`
              its `__rsub__`, and `p[i]` its `__getitem__`)
    property  reading `target.method` (`self.x`, or `p.x` with `p` annotated with the class
              `target`) runs its getter if `x` is a `@property`; assigning it, `method`
              "x.setter", runs the setter
    attrprop  reading `self.target.method` (`self.tokenizer.sot`): only a project phase reads
              it (CL147's `cached_property`); no part of the region
    apply     `MyFunction.apply(...)`: an autograd Function's `forward` (`target`: the class)
    untyped   `x.target(...)`, `x` a local or parameter nothing types: `target` of the one
              family of project classes defining it (semantic.untyped_calls)
    local     a nested function `target` (qualified): it runs when its parent does
    decorator the function is wrapped by decorator `target` (a name or qualified): calling
              it runs the wrappers nested in the decorator"""

    kind: str
    target: str
    method: str | None = None
    # (position or keyword, kind spec) of the arguments that may carry a tensor; "*" and
    # "unknown" at the first `*args`, after which positions are anyone's guess
    args: tuple[tuple[int | str, Spec], ...] = ()
    loop: int | None = None  # the outermost loop around the call (its index in walk order)
    loop_keyword: str | None = None  # "for" or "while", with `loop`
    when: tuple[str, ...] = ()  # the modes the call needs to run (`if self.training:` around it)
    # (position or keyword, parameter, its default: "none" / "falsy" / "required") of the
    # arguments that pass the caller's own parameter on: a `given:` label of the callee on
    # it is decided by the caller's call sites (project_rules.callsites)
    forwards: tuple[tuple[int | str, str, str], ...] = ()
    # (position or keyword, attribute) of the arguments that pass one of the caller's own
    # `self.` attributes (`f(state, self.max_fpr)`): a `given:` label of the callee on it is
    # the caller's object's to decide (project_rules.callsites)
    attrs: tuple[tuple[int | str, str], ...] = ()
    # the positions and keywords of the arguments that are sparse tensors (rules._sparse): the
    # callee's frame breaks where it first uses one (project_rules.cl153_params)
    sparse: tuple[int | str, ...] = ()
    # (position or keyword, the class as the caller names it) of the arguments that are project
    # classes themselves (`minimize(x, subproblem=CGSteihaugSubproblem)`): what the callee builds
    # by calling that parameter (ARG)
    classes: tuple[tuple[int | str, str], ...] = ()

    def to_json(self) -> tuple:
        return _trim((self.kind, self.target, self.method, self.args, self.loop, self.loop_keyword, self.when,
                      self.forwards, self.attrs, self.sparse, self.classes), _EDGE)


_EDGE = (None, None, None, (), None, None, (), (), (), (), ())


@dataclass(slots=True)
class FunctionSummary:
    """A function (`qualname` in `ModuleSummary.functions`). `params`, `bound` and
    `defaults` are kept only when a parameter's kind is open (the project maps call-site
    arguments onto them); `calls` are in the order the walk met them (a leaf `r|fn|i` is
    the i-th)."""

    calls: list[CallEdge] = field(default_factory=list)
    class_name: str | None = None  # for a method (not a function nested in one: `parent`)
    parent: str | None = None  # the enclosing function's qualname, for a nested function
    compiled: bool = False  # decorated with torch.compile
    disabled: int = 0  # not traced: OPAQUE (allow_in_graph, a constant, a custom op) or SKIPPED (disable)
    ret: Spec | None = None  # what its returns hold (None: it returns nothing)
    params: tuple[str, ...] | None = None  # the positional parameters
    bound: int = 0  # 1 when a call through an instance or class fills the first of `params`
    defaults: dict[str, str] = field(default_factory=dict)  # parameter -> "none" / "value"
    swaps_forward: int = 0  # a class decorator that replaces `cls.forward` (SWAPS), keeping the original (KEEPS)
    wrapper: bool = False  # decorated `@functools.wraps(f)`: what a decorator puts in f's place
    accessor: bool = False  # a property's getter, setter or deleter (`Cls.x`, `Cls.x.setter`)
    # each element's spec when every return is a tuple display of one length (`return a, b`):
    # `x, y = f()` gives x the first (a leaf `i|fn|edge#0`), not the tuple's kind
    items: tuple[Spec, ...] | None = None
    inference: bool = False  # decorated `@torch.no_grad()` / `@torch.inference_mode()`: an entry point
    builds: str = ""  # "A|B": every `return` builds an object of one of these classes (semantic.factories)
    picks: str = ""  # "A|B": every `return` gives one of these classes itself (`return Euler`)
    entry: bool = False  # a method or function user code may call with tensors (semantic.entries)
    closures: str = ""  # "a|b": nested functions a `return` hands out (`return inner`), qualnames
    cached: bool = False  # a `@functools.cached_property` getter
    # parameters whose default builds an object (`noise_model=ZeroNoise()`): a constructor call
    # that leaves one out breaks the graph (semantic.object_defaults, CL152)
    objects: tuple[str, ...] = ()
    # what its return annotation promises (`-> Tensor`: "tensor"): for a method that returns nothing
    # itself, what its subclasses' overrides return (`ret` stays None, so it is still taken for
    # abstract); for one whose returns the walk cannot type, what they are (index_roots' API results)
    promised: str = ""
    # in walk order, what CL154 follows (semantic.state_events): ("w", attr, evidence, edges
    # before) for `self.attr = v`, ("r", owner, lazy, edges before) for `owner.parameters()` and its
    # kin (lazy: only `next()` of it)
    state: tuple[tuple, ...] = ()
    trains: bool = False  # a method that runs a training step: `.backward()`, `torch.autograd.grad` (entries)
    validates: bool = False  # a pydantic validator: building the model runs it (semantic.compiled.VALIDATOR_DECORATORS)
    # it walks a module tree (`m.parameters()`, `m.modules()`, ...): the walk hashes every
    # submodule, running a module class's own `__hash__` (semantic.state_events.HASHING_WALKS)
    walks: bool = False
    # a method whose body shows a parameter is a tensor or a module, as `entry` does for a
    # module-level function (`heads.device`): a plain object's API method (index_roots)
    shows: bool = False

    def to_json(self) -> tuple:
        calls = tuple([edge.to_json() for edge in self.calls])
        return _trim((calls, self.class_name, self.parent, self.compiled, self.disabled, self.ret,
                      self.params, self.bound, self.defaults, self.swaps_forward, self.wrapper, self.accessor,
                      self.items, self.inference, self.builds, self.picks, self.entry, self.closures, self.cached,
                      self.objects, self.promised, self.state, self.trains, self.validates, self.walks,
                      self.shows), _FUNCTION)

    @classmethod
    def from_json(cls, row) -> FunctionSummary:
        info = cls(*row)
        if info.calls:
            info.calls = [CallEdge(*edge) for edge in info.calls]
        else:
            info.calls = []
        return info


_FUNCTION = ((), None, None, False, 0, None, None, 0, {}, 0, False, False, None, False, "", "", False, "", False, (),
             "", (), False, False, False, False)
SWAPS, KEEPS = 1, 2  # FunctionSummary.swaps_forward's bits
OPAQUE, SKIPPED = 1, 2  # FunctionSummary.disabled: one node in the graph; skipped, a break at each call


@dataclass(slots=True)
class ClassSummary:
    bases: tuple[str, ...] = ()  # as written (qualified where the import table can)
    # self.x -> its class ("[]C": a container of C; "apply:C": `self.x = C.apply`)
    attr_classes: dict[str, str] = field(default_factory=dict)
    decorators: tuple[str, ...] = ()  # class decorators, qualified
    # `self.x` only ever set to None in the class (an optional part left out), and those
    # set to anything else: `if self.x is not None:` is decided over a class and its
    # subclasses (project_rules.callsites)
    none_attrs: tuple[str, ...] = ()
    set_attrs: tuple[str, ...] = ()
    # `self.x = x` from an untyped constructor parameter: an object the caller gives
    # (`self.likelihood.expected_log_prob()` runs one of the project's implementations)
    param_attrs: tuple[str, ...] = ()
    # `self.x` a tensor (a registered buffer, a parameter, a tensor op's result): a subclass in
    # another file reads it (`if self.reset_mechanism_val == 0:`; semantic.project, "s" leaves)
    tensor_attrs: tuple[str, ...] = ()
    typed_dict: int = 0  # TYPED_DICT | OPTIONAL_KEYS: a TypedDict (a base is one), keys it makes optional
    # self.fn = a_function (or `a if c else b`) -> "a|b", names as the class's module refers to them
    attr_functions: dict[str, str] = field(default_factory=dict)
    # its own `__init__` takes an argument that has no default (a tensor subclass's breaks when
    # built in the region: Dynamo cannot bind it, GB7312); None: the class defines no `__init__`
    init_required: bool | None = None
    # the module state it registers (`register_buffer("x")`, `self.x = nn.Parameter(...)`, a
    # torch.nn submodule): assigning one in the region changes the module's state (CL154)
    state_attrs: tuple[str, ...] = ()

    def to_json(self) -> tuple:
        return _trim((self.bases, self.attr_classes, self.decorators, self.none_attrs, self.set_attrs,
                      self.param_attrs, self.tensor_attrs, self.typed_dict, self.attr_functions,
                      self.init_required, self.state_attrs), _CLASS)


_CLASS = ((), {}, (), (), (), (), (), 0, {}, None, ())
TYPED_DICT, OPTIONAL_KEYS = 1, 2  # ClassSummary.typed_dict's bits


@dataclass(slots=True)
class CompileTarget:
    """What a file compiles. `kind`: func (a function decorated with torch.compile, `name`
    its qualname), name (`torch.compile(name)`, in the function `scope`, "" at module level),
    class (`torch.compile(C(...))` or an instance of class `name`), method
    (`torch.compile(self.method)` in a method of class `name`)."""

    kind: str
    name: str
    scope: str = ""
    method: str = ""

    def to_json(self) -> tuple:
        return _trim((self.kind, self.name, self.scope, self.method), _TARGET)


_TARGET = (None, None, "", "")


@dataclass(slots=True)
class ModuleSummary:
    module: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    classes: dict[str, ClassSummary] = field(default_factory=dict)  # by qualname
    functions: dict[str, FunctionSummary] = field(default_factory=dict)  # by qualname
    compile_targets: list[CompileTarget] = field(default_factory=list)
    # (line, 1-based column) of every for/while, in walk order: only when a function calls
    # something in a loop (CallEdge.loop), for a CL150 the project decides
    loops: tuple[tuple[int, int], ...] = ()
    # attributes the file sets on objects other than `self` (`module.x = v`, `setattr(m, "x", v)`):
    # no class decides those alone
    foreign_attrs: tuple[str, ...] = ()
    # a top-level package's `__init__`: the names it re-exports at module level (its API)
    exports: tuple[str, ...] = ()

    def to_json(self) -> tuple:
        return (self.module, self.imports,
                {name: info.to_json() for name, info in self.classes.items()},
                {name: info.to_json() for name, info in self.functions.items()},
                tuple([target.to_json() for target in self.compile_targets]), self.loops, self.foreign_attrs,
                self.exports)

    @classmethod
    def from_json(cls, row) -> ModuleSummary:
        module, imports, classes, functions, targets, loops, foreign, exports = row
        function = FunctionSummary.from_json
        return cls(module, imports, {name: ClassSummary(*info) for name, info in classes.items()},
                   {name: function(info) for name, info in functions.items()},
                   [CompileTarget(*target) for target in targets], loops, foreign, tuple(exports))
