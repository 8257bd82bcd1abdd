"""The project index (classes, functions, calls across files) and the compiled regions.

A finding counts only in code that runs under torch.compile. The roots are `forward` of
nn.Module subclasses (with `roots = "modules"`), functions decorated with or passed to
`torch.compile`, and the classes of instances passed to `torch.compile` / `.compile()`
(`index_roots`); the region is the roots plus everything they call that resolves inside
the project, a constructor call `Cls(...)` running the class's `__init__`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from compilelint import external_classes
from compilelint.index_made import FactoryCallees
from compilelint.index_many import ManyCallees
from compilelint.index_roots import RootFinding
from compilelint.index_validators import ModelValidators
from compilelint.index_wrappers import DecoratorWrappers
from compilelint.summary import APPLY, ARG, BOUND, KEEPS, MADE, NEW, STAR, SWAPS, CallEdge, ClassSummary, FunctionSummary, ModuleSummary

EXTERNAL_MODULE_BASES = (  # nn.Module bases outside the project known unread (external_classes reads others)
    "torch.nn.", "transformers.PreTrainedModel", "transformers.modeling_utils.PreTrainedModel",
    "pytorch_lightning.LightningModule", "lightning.LightningModule", "lightning.pytorch.LightningModule",
    "timm.models.", "torchvision.models.", "torchmetrics.Metric", "torchmetrics.metric.Metric")


class ProjectIndex(RootFinding, DecoratorWrappers, ManyCallees, FactoryCallees, ModelValidators):
    def __init__(self, summaries: Iterable[ModuleSummary]) -> None:
        external_classes.refresh()
        self.modules: dict[str, ModuleSummary] = {}
        self.functions: dict[str, FunctionSummary] = {}
        self.classes: dict[str, ClassSummary] = {}
        for summary in summaries:
            module = summary.module
            self.modules.setdefault(module, summary)
            for qualname, info in summary.functions.items():
                self.functions[f"{module}:{qualname}"] = info
            for qualname, info in summary.classes.items():
                self.classes[f"{module}:{qualname}"] = info
        # Memos: resolution is a pure function of the index, and a million-line project
        # asks the same questions tens of thousands of times (bases, imports, methods).
        self._is_module: dict[str, bool] = {}
        self._resolved: dict[tuple[str, str, str, str | None], str | None] = {}
        self._contexts: dict[str, tuple[str, str, str | None]] = {}
        self._looked_up: dict[str, str | None] = {}
        self._classes_of: dict[tuple[str, str], str | None] = {}
        self._methods: dict[tuple[str, str], str | None] = {}
        self._lineages: dict[str, list[str]] = {}
        self._swaps: dict[str, int] = {}
        self._below: dict[str, list[str]] | None = None
        self._children: dict[str, list[str]] | None = None  # function key -> functions nested in it
        # own forwards of swapped classes that the dispatcher may fall back to: asked for by a
        # call or a root (what `fallback_region` starts from)
        self.fallbacks: set[str] = set()
        self._by_method: dict[str, list[str]] | None = None  # method name -> the methods of that name
        # (package, method) -> (its implementations, whether they are one family)
        self._families: dict[tuple[str, str], tuple[tuple[str, ...], bool]] = {}
        self._constructions: dict[str, list] | None = None  # class -> (caller, edge) passing `self.` attributes
        self._namesakes: dict[str, set[str]] | None = None  # attribute name -> the classes stored under it
        self._callee_memo: dict[int, tuple[str, ...]] = {}  # id(CallEdge) -> callees (edges live as long as the index)
        self._made_memo: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # index_made
        self._made_attr_names: frozenset[str] | None = None  # index_made: attributes a factory's result is kept under
        self._class_args: dict[str, list] | None = None  # index_made: callee -> (caller, edge) passing classes
        self._bound_open: set[tuple[str, str]] = set()  # index_many._bound_calls being followed: (class, attribute)
        self._stars: dict[str, list[str]] = {}  # module -> the modules it star-imports (`_star_sources`)
        self._hashes: tuple[str, ...] | None = None  # module classes' `__hash__` (module_hashes)
        self._packages: frozenset[str] | None = None  # packages publishing names (_api_packages)

    # ---- resolution --------------------------------------------------------------------

    def _lookup(self, qualified: str, depth: int = 0) -> str | None:
        """A function or class key for a qualified name like `pkg.mod.Name.attr`."""
        if depth == 0:
            try:
                return self._looked_up[qualified]
            except KeyError:
                found = self._looked_up[qualified] = self._follow(qualified, 0)
                return found
        return self._follow(qualified, depth)

    def _follow(self, qualified: str, depth: int) -> str | None:
        if depth > 6:
            return None
        parts = qualified.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module, rest = ".".join(parts[:cut]), ".".join(parts[cut:])
            summary = self.modules.get(module)
            if summary is None:
                continue
            key = f"{module}:{rest}"
            if key in self.functions or key in self.classes:
                return key
            head = parts[cut]
            imported = summary.imports.get(head)
            if imported and imported != qualified:  # a re-export: follow it
                tail = ".".join(parts[cut + 1:])
                return self._lookup(imported + (f".{tail}" if tail else ""), depth + 1)
            for source in self._star_sources(module):  # `from ._neurons import *`
                if found := self._lookup(f"{source}.{rest}", depth + 1):
                    return found
            return None
        return None

    def _star_sources(self, module: str) -> list[str]:
        if module not in self._stars:
            self._stars[module] = [source for key, source in self.modules[module].imports.items()
                                   if key.startswith(STAR) and source != module]
        return self._stars[module]

    def resolve_name(self, module: str, name: str, scope: str | None = None) -> str | None:
        if scope:
            key = f"{module}:{scope}.<locals>.{name}"
            if key in self.functions:
                return key
        key = f"{module}:{name}"
        if key in self.functions or key in self.classes:
            return key
        summary = self.modules.get(module)
        if summary is None:
            return None
        imported = summary.imports.get(name)
        if imported:
            return self._lookup(imported)
        for source in self._star_sources(module):  # `from ..inputs import *`, then `embedding_lookup(...)`
            if found := self._lookup(f"{source}.{name}"):
                return found
        return None

    def resolve_class(self, module: str, ref: str) -> str | None:
        try:
            return self._classes_of[(module, ref)]
        except KeyError:
            found = self._classes_of[(module, ref)] = self._resolve_class(module, ref)
            return found

    def _resolve_class(self, module: str, ref: str) -> str | None:
        key = f"{module}:{ref}"
        if key in self.classes:
            return key
        head, _, tail = ref.partition(".")
        summary = self.modules.get(module)
        if summary is not None and head in summary.imports:
            ref = summary.imports[head] + (f".{tail}" if tail else "")
        found = self._lookup(ref)
        return found if found in self.classes else None

    def method(self, class_key: str, name: str) -> str | None:
        """`name` on a class, looked up through its project-defined bases. A forward that a
        project class decorator swaps for a dispatcher (transformers' experts) is not found:
        what runs is the implementation the dispatcher picks."""
        try:
            return self._methods[(class_key, name)]
        except KeyError:
            pass
        found = None
        swap = self._forward_swap(class_key) if name == "forward" else 0
        for owner in self._lineage(class_key):
            key = f"{owner}.{name}"
            if key in self.functions:
                found = key
                break
        if swap & SWAPS:
            if found and swap & KEEPS:
                self.fallbacks.add(found)
            found = None
        self._methods[(class_key, name)] = found
        return found

    def _forward_swapped(self, class_key: str) -> bool:
        if not self._forward_swap(class_key):
            return False
        self.method(class_key, "forward")  # (notes the fallback, if the decorator keeps it)
        return True

    def _forward_swap(self, class_key: str) -> int:
        """How a project class decorator treats the class's forward (`summary.SWAPS`,
        `KEEPS`): 0 when none replaces it. The decorator sets the decorated class's
        `forward`, so a subclass without a forward of its own inherits the dispatcher."""
        if class_key not in self._swaps:
            self._swaps[class_key] = self._swap_of(class_key)
        return self._swaps[class_key]

    def _swap_of(self, class_key: str) -> int:
        for owner in self._lineage(class_key):
            info = self.classes.get(owner)
            module = owner.split(":", 1)[0]
            for ref in info.decorators if info else ():
                found = self.resolve_ref(module, ref)
                if found and found in self.functions and self.functions[found].swaps_forward:
                    return self.functions[found].swaps_forward
            if f"{owner}.forward" in self.functions:
                return 0
        return 0

    def owner(self, key: str) -> str | None:
        """The class key a function belongs to (a method, or a function nested in one)."""
        if key not in self.functions:
            return None
        context = self._contexts.get(key)
        if context is None:
            context = self._contexts[key] = self._context(key)
        return context[2]

    def lineage(self, class_key: str) -> list[str]:
        """The class and its project-defined bases, in lookup order."""
        return self._lineage(class_key)

    def _lineage(self, class_key: str) -> list[str]:
        """The class and its project-defined bases, depth first, each once: the order a
        method is looked up in."""
        found = self._lineages.get(class_key)
        if found is not None:
            return found
        found, seen, stack = [], set(), [class_key]
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            found.append(key)
            module = key.split(":", 1)[0]
            bases = []
            for base in self._bases(key):
                base_key = self.resolve_class(module, base) or self._lookup(base)
                if base_key in self.classes:
                    bases.append(base_key)
            stack.extend(reversed(bases))
        self._lineages[class_key] = found
        return found

    def _bases(self, class_key: str | None) -> tuple[str, ...]:
        info = self.classes.get(class_key)
        return info.bases if info else ()

    def is_module_class(self, class_key: str, depth: int = 0) -> bool:
        if class_key in self._is_module:
            return self._is_module[class_key]
        self._is_module[class_key] = False  # cycles end here
        module = class_key.split(":", 1)[0]
        result = False
        for base in self._bases(class_key):
            if base.startswith(EXTERNAL_MODULE_BASES) or base in ("nn.Module", "Module"):
                result = True
                break
            base_key = self.resolve_class(module, base)
            if base_key and depth < 50 and self.is_module_class(base_key, depth + 1) \
                    or base_key is None and external_classes.is_module(base):  # (an installed package's)
                result = True
                break
        self._is_module[class_key] = result
        return result

    # ---- regions -----------------------------------------------------------------------

    def _callees(self, key: str, skip=None) -> Iterable[str]:
        for call in self.functions[key].calls:
            if skip is None or not skip(key, call):
                yield from self.callees(key, call)
        if self.functions[key].walks:
            yield from self.module_hashes()  # (`m.parameters()` hashes every submodule)

    def callees(self, key: str, call: CallEdge) -> tuple[str, ...]:
        """Every function a call edge may run: what `resolve_call` finds, for `self.m()` each project
        subclass's own `m` (a base's forward calling the hook its subclasses implement), and what
        building a pydantic model validates with. Memoised per edge: the region, the call sites
        and the kind solver each walk every edge."""
        if (found := self._callee_memo.get(id(call))) is None:
            found = self._callee_memo[id(call)] = self._callees_of(key, call) + self.validators(key, call)
        return found

    def _callees_of(self, key: str, call: CallEdge) -> tuple[str, ...]:
        if call.kind == "decorator":
            return self._wrappers(key, call.target)
        if call.kind in ("instance", "ctorcall") and call.target.startswith((MADE, NEW, ARG)):
            return self.made_callees(key, call)  # solver.integrate(...), solver_fn = select(method)
        if call.kind == "property" and call.target.startswith((MADE, NEW)):
            return self.made_getters(key, call)  # tok.sot, tok = get_tokenizer(...)
        if call.kind in ("elemcall", "untyped"):  # self.flows[i].inverse(x); x.track_coord_gradients(), one family's
            return self._element_members(key, call) if call.kind == "elemcall" else self._family(call.target, key)
        if call.kind in ("selfattr", "attrcall", "self") and (made := self.attr_made(key, call)):
            return made  # self.criterion(x), `self.criterion = self.init_criterion()`
        if call.kind in ("selfattr", "attrcall", "self") and (either := self._either_attr(key, call)):
            return either  # self.decoder.update(...), the decoder one of two classes
        if "|" in call.target and call.kind in ("name", "dotted", "ctorcall", "property"):
            return self._either(key, call)
        if call.kind == "self" and "*" in call.target:
            return self._named_like(key, call.target)
        if call.kind in ("self", "selfattr"):
            bound = self._bound_calls(key, call)
            if bound:
                return bound
        if call.kind == "self" and (passed := self._passed_methods(key, call)):
            return passed  # self.check_conv_fn(...), `FixedPoint(check_conv_fn=self.check_conv_fn)`
        if call.kind == "attrcall" and (namesakes := self._namesake_members(key, call)):
            return namesakes  # self.picnn.reverse(x), `picnn: PICNN` that has no `reverse`
        if call.kind == "self" and (held := self._held_functions(key, call)):
            found = self.resolve_call(key, call)  # (an object of a class, set in another branch)
            return held + ((found,) if found and found not in held else ())
        found = self.resolve_call(key, call)
        if call.kind == "attrcall" and found is None and self._given_object(self.owner(key), call.target):
            return self._family(call.method, key)
        if call.kind == "attrcall" and found is None and (members := self._held_members(key, call)):
            return members  # self.sde.g_prod(...): what the held class's subclasses store
        if found and self._abstract(found) and (call.kind == "attrcall" or self._protocol_call(call, found) or (
                call.kind in ("self", "selfattr") and self.method(self.owner(key), call.target) is None)):
            # self.bm(t0, t1), `bm: BaseBrownian`: a subclass's __call__; self.dist.kl(...), `dist: Distribution`
            return (found, *self._overrides(found))
        backward = self.function_backward(found) if call.kind in ("apply", "self") else None
        accessor = call.kind == "property"
        if call.kind != "self" and not (accessor and call.target == "self"):
            wrapper = self._call_override(found) if call.kind in ("instance", "selfattr") else None
            return tuple(k for k in (found, wrapper, backward) if k)
        name = call.method if accessor else call.target
        overrides = tuple(f"{sub}.{name}" for sub in self.subclasses(self.owner(key))
                          if f"{sub}.{name}" in self.functions and f"{sub}.{name}" != found
                          and (not accessor or self.functions[f"{sub}.{name}"].accessor))
        return ((found,) if found else ()) + overrides + ((backward,) if backward else ())

    def function_backward(self, forward: str | None) -> str | None:
        """`F.apply(x)` (or `self.f(x)` after `self.f = F.apply`) reaching an autograd
        Function's forward: Dynamo traces its `backward` too, when an input needs gradients
        (in training: under `torch.no_grad()` it does not)."""
        if not forward or not forward.endswith(".forward"):
            return None
        owner = self.owner(forward)
        return self.method(owner, "backward") if owner and self._autograd_function(owner) else None

    def _call_override(self, forward: str | None) -> str | None:
        """The project's own `__call__` on a module's lineage: calling the module runs it
        around `forward` (gpytorch's `Module.__call__`, a `Kernel.__call__`)."""
        if not forward or not forward.endswith(".forward"):
            return None
        owner = self.owner(forward)
        return self.method(owner, "__call__") if owner else None

    def subclasses(self, class_key: str | None) -> list[str]:
        """The project classes below `class_key` (any depth), sorted."""
        if self._below is None:
            below: dict[str, list[str]] = {}
            for key in self.classes:
                for base in self._lineage(key)[1:]:
                    below.setdefault(base, []).append(key)
            self._below = {base: sorted(subs) for base, subs in below.items()}
        return self._below.get(class_key, []) if class_key else []

    def resolve_call(self, key: str, call: CallEdge) -> str | None:
        """The function key a call edge of function `key` lands in, if in the project.
        Memoised on what the answer depends on (the module, or the owning class for
        `self.x()`), not on the caller: a class's methods call the same few names."""
        context = self._contexts.get(key)
        if context is None:
            context = self._contexts[key] = self._context(key)
        module, qualname, owner_key = context
        kind, target = call.kind, call.target
        if kind == "local":
            found = f"{module}:{target}"
            return found if found in self.functions else None
        if kind == "name":  # a closure of the caller or of a function enclosing it (a script's step's `loss_fn`)
            scope = qualname
            while (local := f"{module}:{scope}.<locals>.{target}") not in self.functions and ".<locals>." in scope:
                scope = scope.rsplit(".<locals>.", 1)[0]
            if local in self.functions:
                return local
            memo = (module, kind, target, None)
        elif kind in ("self", "selfattr", "super", "attrcall", "pathcall") or (kind == "property" and target == "self"):
            if owner_key is None:
                return None
            memo = (owner_key, kind, target, call.method)
        else:
            memo = (module, kind, target, call.method)
        try:
            return self._resolved[memo]
        except KeyError:
            found = self._resolved[memo] = self._resolve_call(module, owner_key, call)
            return found

    def _context(self, key: str) -> tuple[str, str, str | None]:
        """(module, qualname, owning class key) of a function; nested functions belong to
        the class of the method they are defined in."""
        module, qualname = key.split(":", 1)
        info = self.functions[key]
        owner = info.class_name
        if owner is None and info.parent:
            parent = self.functions.get(f"{module}:{info.parent}")
            owner = parent.class_name if parent else None
        return module, qualname, (f"{module}:{owner}" if owner else None)

    def _resolve_call(self, module: str, owner_key: str | None, call: CallEdge) -> str | None:
        kind, target = call.kind, call.target
        found: str | None = None
        if kind == "instance":  # calling a module instance runs its forward (another object: __call__)
            class_key = self.resolve_class(module, target)
            found = self._called(class_key) if class_key else None
        elif kind == "name":  # (a function local to the caller is found before the memo)
            found = self.resolve_name(module, target)
            if found in self.classes:
                found = self._constructor(found)
        elif kind == "self":
            found = self.method(owner_key, target)
            if found is None:
                found = self._attr_forward(owner_key, target)
        elif kind == "selfattr":
            found = self._attr_forward(owner_key, target)
        elif kind == "attrcall":  # self.config.get_text_config(): the attribute's class's method
            found = self._attr_method(owner_key, target, call.method) \
                or self._called_path(owner_key, f"{target}.{call.method}") or self._attr_forward(owner_key, target)
        elif kind == "pathcall":  # self._modules.optim.step(): the method of the class the field holds
            held = self._path_class(owner_key, target)
            found = self.method(held, call.method) if held else None
        elif kind == "super":
            for base in self._bases(owner_key):
                base_key = self.resolve_class(module, base)
                if base_key:
                    found = self.method(base_key, target)
                    if found:
                        break
        elif kind == "dotted":
            found = self._lookup(target)
            if found in self.classes:
                found = None
        elif kind == "apply":  # MyFunction.apply(x): an autograd Function's forward
            cls = self.resolve_class(module, target)
            found = self.method(cls, "forward") if cls and self._autograd_function(cls) else None
        elif kind == "property":  # `self.x` / `p.x` read (or set): x's getter (setter), if a property
            cls = owner_key if target == "self" else self.resolve_class(module, target)
            found = self.method(cls, call.method) if cls else None
            found = found if found in self.functions and self.functions[found].accessor else None
        elif kind == "ctorcall":  # Helper().method(x): the class's method, on a new instance
            cls_ref, _, name = target.rpartition(".")
            cls = self.resolve_class(module, cls_ref)
            found = self.method(cls, name) if cls else None
        return found if found and found in self.functions else None

    def _constructor(self, class_key: str) -> str | None:
        """What `Cls(...)` runs of the project's code: Dynamo inlines the class's `__init__` (zuko's
        transforms built in a forward; a module too, an imaging library's physics operator built
        per call: a break in its `__init__` breaks the forward). Not an exception's (raised)."""
        if self._exception_class(class_key):
            return None
        found = self.method(class_key, "__init__")
        if found is None and any(d.split("(")[0].endswith("dataclass") for owner in self._lineage(class_key)
                                 for d in self.classes[owner].decorators):
            found = self.method(class_key, "__post_init__")  # the generated `__init__` calls it
        return found

    def _exception_class(self, class_key: str) -> bool:
        return any(base.rsplit(".", 1)[-1].endswith(("Error", "Exception", "Warning"))
                   for owner in self._lineage(class_key) for base in self._bases(owner))

    def _autograd_function(self, class_key: str) -> bool:
        return any(base.endswith(("autograd.Function", "autograd.function.Function"))
                   for owner in self._lineage(class_key) for base in self._bases(owner))

    def held_method(self, class_key: str, attr: str, method: str) -> str | None:
        """`method` of the class `self.<attr>` holds (`self.tokenizer.sot`), for a project phase."""
        return self._attr_method(class_key, attr, method)

    def _attr_method(self, class_key: str, attr: str, method: str, containers: bool = False) -> str | None:
        """`method` of the class `self.<attr>` holds (set in __init__ or annotated); for a
        method other than forward, the attribute may be set by a project-defined base."""
        for owner in (self._lineage(class_key) if not containers else [class_key]):
            module = owner.split(":", 1)[0]
            info = self.classes.get(owner)
            ref = info.attr_classes.get(attr) if info else None
            if not ref or ref.startswith((MADE, NEW)):  # (a factory's result: index_made)
                continue
            if ref.startswith("[]"):  # nn.Sequential(Block(), ...) runs each Block
                if not containers:
                    return None
                ref = ref[2:]
            if "|" in ref and not ref.startswith(BOUND):  # one class per branch: the last one written
                ref = ref.rsplit("|", 1)[1]  # (callees() gives each: index_many._either_attr)
            if ref.startswith(APPLY):  # self.sqrt(x), `self.sqrt = Sqrt.apply`: Sqrt.forward
                target = self.resolve_class(module, ref[len(APPLY):])
                if method != "forward" or not containers or target is None or not self._autograd_function(target):
                    return None
                return self.method(target, "forward")
            target = self.resolve_class(module, ref)
            if target is None:
                return None
            if method == "forward" and containers:  # self.matcher(x): a helper object's __call__
                return self._called(target)
            return self.method(target, method)
        return None

    def _reach(self, seen: set[str], skip, outside: set[str] = frozenset(), keep=None) -> set[str]:
        """`seen` and every enabled function it calls, not through `outside` (nor, with `keep`,
        through an edge (caller, callee) it refuses)."""
        queue = deque(seen)
        while queue:
            caller = queue.popleft()
            for callee in self._callees(caller, skip):
                if callee not in seen and callee not in outside and not self.functions[callee].disabled \
                        and (keep is None or keep(caller, callee)):
                    seen.add(callee)
                    queue.append(callee)
        return seen
