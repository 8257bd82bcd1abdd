"""Call edges: what each function calls (for regions and CL150 across functions), and
the kinds of the arguments it passes (for parameter kinds across functions)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.arg_facts import argument_constant, argument_size
from compilelint.semantic.facts import facts_of
from compilelint.semantic.kinds import Kind, dotted, is_self_attribute, name_pattern, self_getattr
from compilelint.semantic.local_flags import may_be_none
from compilelint.semantic.passed_functions import (NOT_CALLED, UNKNOWN_ARGS, function_like, keeps_for_later, partial_target,
                                                   passed_values)
from compilelint.semantic.untyped_calls import project_method_name
from compilelint.summary import ARG, MADE, NEW, CallEdge, names_classes


# FunctionScope.typed: the name holds an element of `self.<attr>` (`for t in self.transforms`)
ELEMENT = "[]self."
# nn.Module methods that return the module itself: `Bands(n).to(x)` is still a `Bands`
RETURN_SELF = frozenset({"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval",
                         "requires_grad_", "type", "share_memory"})


class CallGraph:
    """Walker part: each function's call edges and their argument kinds."""

    def enter_Call(self, node: cst.Call) -> None:
        self.edge_index(node)
        self.not_read.add(id(node.func))  # a call, not a read: `p.m()` is edge_index's
        values = list(passed_values(node)) if self.scopes and not (self.header or self.escaped) else ()
        if values and not keeps_for_later(node) and not (self.qualify(node.func) or "").startswith(NOT_CALLED):
            for value in values:
                self._passed_edge(value, self.scopes[-1])

    def _enclosing_def(self, name: str) -> bool:
        """Whether `name`, not bound in the current function, is a function the nearest enclosing
        function that binds it defines (`def step(): return helper(x)` beside `def helper(x)`;
        one defined after the caller is no binding yet, and gets a `name` edge anyway)."""
        if name in self.scopes[-1].env:
            return False
        scope = next((s for s in reversed(self.scopes[:-1]) if name in s.env), None)
        return scope is not None and f"{scope.qualname}.<locals>.{name}" in self.functions

    def _passed_edge(self, value: cst.BaseExpression, scope) -> None:
        """A function handed to the call (semantic.passed_functions): the callee calls it."""
        call = None
        if isinstance(value, cst.Name) and function_like(value.value):
            if not self.locally_bound(value.value):
                call = CallEdge("name", value.value)
            elif alias := scope.aliases.get(value.value):
                call = CallEdge(alias[0], "|".join(alias[1]))  # `fn = partial(f, ...)`, then handed on
        elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self" \
                and scope.class_name is not None and (info := self.class_table.get(scope.class_name)) is not None \
                and value.attr.value in info.methods:
            call = CallEdge("self", value.attr.value)  # `checkpoint(self._block, x)`: a method, not `self.device`
        if call is not None:
            call.args = UNKNOWN_ARGS
            self._append_edge(call, scope)

    def _object_class(self, name: str, scope) -> str | None:
        """The class of the object a local name holds (`dist = Normal(...)`, a parameter
        annotated with the class, what a factory returned)."""
        return self.held_class(name, scope) or self.made_name(name)

    def _append_edge(self, call: CallEdge, scope) -> int:
        """Record `call` as the current function's next edge; its index."""
        info = self.functions[scope.qualname]
        self._in_loop(call, scope)
        call.when = self.when  # a break behind this call is reached only then
        info.calls.append(call)
        return len(info.calls) - 1

    def exit_Assign(self, node: cst.Assign) -> None:
        """`spline_fn = splines.rational_quadratic_spline` (in one branch, another function in
        the other): a later `spline_fn(...)` calls one of the functions bound."""
        if not self.scopes or len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        aliases, name = self.scopes[-1].aliases, node.targets[0].target.value
        values = [node.value.body, node.value.orelse] if isinstance(node.value, cst.IfExp) else [node.value]
        if len(values) == 2:  # `wrap(self._transform) if video else self._transform`: the method, either way
            values = [v for v, other in zip(values, values[::-1]) if not _wraps(v, other)]
        for value in values:
            ref = None
            if (target := partial_target(value, self.qualify)) is not None:
                value = target  # `undo = partial(_undo_swap_axes, axes=axes)`: calls it
                self.scopes[-1].partials.add(name)
            if isinstance(value, cst.Name) and not self.locally_bound(value.value):
                ref = ("name", value.value)
            elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
                ref = ("self", value.attr.value)  # `transform = self._transform`: a bound method
            elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) \
                    and (cls := self._object_class(value.value.value, self.scopes[-1])):
                ref = ("ctorcall", f"{cls}.{value.attr.value}")  # `closure = sf.closure`: the object's method
            elif isinstance(value, cst.Attribute) and (qualified := self.qualify(value)) \
                    and not qualified.startswith(("builtins.", "torch.")):
                ref = ("dotted", qualified)
            held = aliases.get(name, ())
            if ref is None or held is None or (held and held[0] != ref[0]):
                aliases[name] = None  # bound to something else too: no edge
                return
            if not held:
                aliases[name] = (ref[0], [ref[1]])
            elif ref[1] not in held[1]:
                held[1].append(ref[1])

    def enter_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Subscript):
            self.not_read.add(id(node.target))  # `obj[i] = v` runs `__setitem__` (enter_Subscript)
        if isinstance(node.target, cst.Attribute):
            self.not_read.add(id(node.target))  # `self.x = v` runs x's setter, if any, not its getter
            self._property_edge(node.target, ".setter")

    def enter_Attribute(self, node: cst.Attribute) -> None:
        if id(node) not in self.not_read:
            self._property_edge(node, "")

    def _property_edge(self, node: cst.Attribute, accessor: str) -> None:
        """`self.variance`, `dist.variance` (`dist` annotated with a class or built here),
        `Normal(loc).variance`: a read that runs the class's `@property` getter, if it has
        one (the project decides); `accessor` ".setter": an assignment, which runs the setter."""
        owner = node.value
        if not self.scopes or self.header or self.escaped:
            return
        scope = self.scopes[-1]
        kind = "property"
        if isinstance(owner, cst.Call):  # `Window(x).size`: the class just called
            target = self._class_name(owner.func)
            if target is None:
                return
        elif isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self" \
                and not accessor and scope.class_name is not None:
            kind, target = "attrprop", owner.attr.value  # `self.tokenizer.sot`: read by CL147 only
        elif not isinstance(owner, cst.Name):
            return
        elif owner.value == "self" and scope.class_name is not None:
            target = "self"
        elif cls := self.held_class(owner.value, scope) or self.made_name(owner.value):
            target = cls  # (or what a factory returned: `tok = get_tokenizer(...)`, then `tok.sot`)
        else:
            return
        name = node.attr.value + accessor
        # (again after the function writes to `self`: a getter that reads `.parameters()` may
        # then break the graph, CL154)
        seen = (kind, target, name, id(scope.loops[0]) if scope.loops else None, self.when,
                len(self.functions[scope.qualname].state))
        if seen in scope.reads:
            return
        scope.reads.add(seen)
        call = CallEdge(kind, target, name, when=self.when)
        self._in_loop(call, scope)
        self.functions[scope.qualname].calls.append(call)

    @staticmethod
    def held_class(name: str, scope) -> str | None:
        """The class a local name holds: a parameter annotated with it (`dist: Normal`), or
        the result of calling it (`window = Window(x)`), until the name is bound again."""
        typed = scope.typed.get(name)
        return typed if typed and not typed.startswith(ELEMENT) else scope.var_class.get(name)

    def object_method_call(self, node: cst.Call) -> bool:
        """`solver.t(x)` with `solver` a local holding an instance of a project class (built
        here or annotated), or `self.sde.t(x)` with the attribute typed so (`_held_attr_call`):
        what the call gives is the method's return, which the project decides, not a method
        of the receiver's kind (`x.log()`). (Not a name a call that may be a factory bound,
        `x = self.block(x)`: most often a tensor.)"""
        func = node.func
        if not (self.scopes and isinstance(func, cst.Attribute)):
            return False
        if isinstance(func.value, cst.Name):
            return bool(self.held_class(func.value.value, self.scopes[-1])) and self._ctorcall_edge(node) is not None
        return self._held_attr_call(node)

    def _held_attr_call(self, node: cst.Call) -> bool:
        """`self.sde.sigma_t(t)` where the class types `self.sde` (annotated, or built in
        `__init__`) with a class that is not torch's: what the method returns, which the
        project decides, not the attribute's own kind (nor its constructor parameter's)."""
        owner, scope = node.func.value, self.scopes[-1]
        if not (isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self"
                and scope.class_name is not None):
            return False
        info = self.class_table.get(scope.class_name)
        ref = info.attr_classes.get(owner.attr.value, "") if info is not None else ""
        if not names_classes(ref) or ref.startswith("torch."):
            return False
        index = self.edge_index(node)
        return index is not None and self.functions[scope.qualname].calls[index].kind == "attrcall"

    def _ctorcall_edge(self, node: cst.Call) -> int | None:
        """The edge index of `obj.method(...)` when the walk made it a `ctorcall` (a method of
        the class `obj` holds)."""
        index = self.edge_index(node)
        return index if index is not None and self.functions[self.scopes[-1].qualname].calls[index].kind == "ctorcall" \
            else None

    def built_object_call(self, node: cst.Call) -> int | None:
        """The edge index of `obj.method(...)` when `obj` was built in this function
        (`Ranker(k).top(x)`, `ranker = Ranker(k)`; `ranker.top(x)`): an object Dynamo made
        while tracing, with no source to rebuild it from (CL151)."""
        func = node.func
        if not isinstance(func, cst.Attribute) or not self.scopes:
            return None
        owner, scope = func.value, self.scopes[-1]
        built = isinstance(owner, cst.Call) and (self._class_name(owner.func) is not None or (
            self.factory_mark(owner.func) or "").startswith(MADE))  # `Ranker(k).top(x)`, `make_ranker(k).top(x)`
        built = built or (isinstance(owner, cst.Name) and owner.value in scope.built)
        return self._ctorcall_edge(node) if built else None

    def class_call(self, node: cst.Call) -> int | None:
        """The edge index of `Cls(...)` / `pkg.Cls(...)` when the callee looks like a class
        of the project (not builtins' or torch's): which class it is, the project decides."""
        if self._class_name(node.func) is None:
            return None
        index = self.edge_index(node)
        if index is None or self.functions[self.scopes[-1].qualname].calls[index].kind not in ("name", "dotted"):
            return None
        return index

    def constructor_call(self, node: cst.Call) -> int | None:
        """The edge index of a call that runs a project class's `__init__`: `Cls(...)` or
        `super().__init__(...)` (CL152; which `__init__` it is, the project decides)."""
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "__init__" and self.scopes:
            index = self.edge_index(node)  # (`_edge` makes `super().__init__(...)` a "super" edge)
            kind = None if index is None else self.functions[self.scopes[-1].qualname].calls[index].kind
            return index if kind == "super" else None
        return self.class_call(node)

    def _in_loop(self, call: CallEdge, scope) -> None:
        """For CL150 across functions: a call in a loop to a function that breaks."""
        if scope.loops:
            loop = scope.loops[0]
            call.loop = self.loop_ordinal[id(loop)]
            call.loop_keyword = "for" if isinstance(loop, cst.For) else "while"

    def edge_index(self, node: cst.Call) -> int | None:
        """The call edge `node` makes from the current function (recorded the first time it
        is asked: a rule may ask about a call inside an `if` test before the walk reaches it)."""
        if not self.scopes or self.header or self.escaped:
            return None  # (in a branch that never runs compiled: no edge for the region)
        scope = self.scopes[-1]
        known = scope.edges.get(id(node), -1)
        if known != -1:
            return known
        info = self.functions[scope.qualname]
        dispatch = _dispatch_edge(node)
        call = dispatch or self._edge(node.func, scope)
        if call is None:
            scope.edges[id(node)] = None
            return None
        scope.edges[id(node)] = None  # while its arguments are inferred: they may record calls first
        args = self._arg_specs(node)
        if dispatch or (isinstance(node.func, cst.Name) and node.func.value in scope.partials):
            # (getattr's arguments are not the method's, nor a partial's the function's, whose
            # first ones the partial binds: what it is called with is unknown)
            call.args = UNKNOWN_ARGS
        else:
            call.args = args
            call.forwards = self._forwards(node, scope)
            call.attrs = tuple((key, arg.value.attr.value) for key, arg in _keyed(node) if is_self_attribute(arg.value)) \
                if scope.class_name else ()
            call.classes = tuple((key, cls) for key, arg in _keyed(node) if (cls := self._passed_class(arg.value)))
            sparse = self.sparse_model.passes.get(id(node)) if self.sparse_model else None
            if sparse is not None:
                call.sparse = sparse.keys
            if call.forwards:  # (the project maps this function's own call sites onto what it passes on)
                self._keep_params(scope)
        index = scope.edges[id(node)] = self._append_edge(call, scope)
        return index

    def _edge(self, func: cst.BaseExpression, scope) -> CallEdge | None:
        if isinstance(func, cst.Name) and func.value == "self" and scope.class_name is not None and scope.bound:
            return CallEdge("self", "__call__")  # `self(*args)`: the instance's own `__call__`
        if isinstance(func, cst.Name):
            if func.value in scope.var_class:
                return CallEdge("instance", scope.var_class[func.value])  # layer(x), layer a Block
            if made := self.made_name(func.value):
                return CallEdge("instance", made)  # solver_fn(...), what a factory returned
            if not self.locally_bound(func.value):
                return CallEdge("name", func.value)
            if mark := self.param_class_mark(func):
                self._keep_params(scope)
                return CallEdge("instance", mark)
            alias = scope.aliases.get(func.value)
            if alias:
                return CallEdge(alias[0], "|".join(alias[1]))  # spline_fn(x)
            # a closure an enclosing function defines (the project finds it: index.resolve_call)
            return CallEdge("name", func.value) if self._enclosing_def(func.value) else None
        if isinstance(func, cst.Subscript):
            if table := self.table_classes(func):
                return CallEdge("name", table)  # SOLVERS[method](...): one of the registry's classes
            element = self.element_class(func.value)
            return CallEdge("instance", element) if element else None  # self.layers[i](x)
        if isinstance(func, cst.Call):  # `Bands(n)(x)`, `Bands(n).to(x)(x)`: the new object called
            while isinstance(func.func, cst.Attribute) and func.func.attr.value in RETURN_SELF \
                    and isinstance(func.func.value, cst.Call):
                func = func.func.value
            cls = self._class_name(func.func)
            return CallEdge("instance", cls) if cls else None
        if not isinstance(func, cst.Attribute):
            return None
        owner = func.value
        if isinstance(owner, cst.Name) and owner.value == "self":
            return CallEdge("self", func.attr.value)
        if isinstance(owner, cst.Call) and isinstance(owner.func, cst.Name) and owner.func.value == "super":
            return CallEdge("super", func.attr.value)
        if isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self":
            if func.attr.value == "forward":
                return CallEdge("selfattr", owner.attr.value)  # self.block.forward(x)
            return CallEdge("attrcall", owner.attr.value, func.attr.value)  # self.config.get_text_config()
        if (path := _self_path(owner)) is not None:
            return CallEdge("pathcall", path, func.attr.value)  # self._modules.optim.step(): a field's field
        if isinstance(owner, cst.Subscript) and (attr := _subscripted_attr(owner)):
            return CallEdge("elemcall", attr, func.attr.value)  # self.flows[i].inverse(x)
        if isinstance(owner, cst.Name) and (held := scope.typed.get(owner.value, "")).startswith(ELEMENT):
            return CallEdge("elemcall", held[len(ELEMENT):], func.attr.value)  # for t in self.ts: t.condition(c)
        if func.attr.value == "apply" and (cls := self._class_name(owner) or self._named(owner)):
            # MyFunction.apply(x): an autograd Function's forward (spikingjelly's are lowercase,
            # `log_tailed_relu.apply(x, a)`: the project decides whether the name is one)
            return CallEdge("apply", cls)
        if isinstance(owner, cst.Call) and (cls := self._class_name(owner.func)):
            return CallEdge("ctorcall", f"{cls}.{func.attr.value}")  # Interpolation().interpolate(x)
        if isinstance(owner, cst.Call) and (mark := self.param_class_mark(owner.func)):
            self._keep_params(scope)
            return CallEdge("ctorcall", f"{NEW}{mark}.{func.attr.value}")  # subproblem(x).solve(r)
        if isinstance(owner, cst.Call) and (made := self.factory_mark(owner.func)) and made.startswith(MADE):
            return CallEdge("ctorcall", f"{made}.{func.attr.value}")  # trace(fn).get_trace(x): what the factory builds
        if isinstance(owner, cst.Name) and (cls := self._object_class(owner.value, scope)):
            return CallEdge("ctorcall", f"{cls}.{func.attr.value}")  # dist.log_prob(y), window.apply(x)
        qualified_name = self.qualify(func)
        if qualified_name and not qualified_name.startswith(("builtins.", "torch.")):
            return CallEdge("dotted", qualified_name)
        if isinstance(owner, cst.Name) and owner.value not in ("self", "cls") and self.locally_bound(owner.value) \
                and project_method_name(func.attr.value):
            return CallEdge("untyped", func.attr.value)  # x.track_coord_gradients(), `x` a sampler's Points
        return None

    def decorator_edges(self, node: cst.FunctionDef) -> list[CallEdge]:
        """Calling a function a project decorator wraps runs the decorator's wrapper
        (gpytorch's `@cached`: its `g` pickles the arguments): one edge per decorator,
        resolved by the project to the functions nested in the decorator."""
        edges = []
        for deco in node.decorators:
            target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
            qualified = self.qualify(target) or ""
            if qualified.startswith(("builtins.", "torch.", "functools.", "typing.", "abc.", "contextlib.")):
                continue
            if isinstance(target, cst.Name) and not self.locally_bound(target.value):
                edges.append(CallEdge("decorator", target.value))
            elif isinstance(target, cst.Attribute) and qualified:
                edges.append(CallEdge("decorator", qualified))
        return edges

    def _passed_class(self, value: cst.BaseExpression) -> str | None:
        """A project class handed to a call as a value (`subproblem=CGSteihaugSubproblem`), not a
        local holding one."""
        if isinstance(value, cst.Name) and self.scopes and self.locally_bound(value.value):
            return None
        return self._class_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None

    def param_class_mark(self, func: cst.BaseExpression) -> str | None:
        """`subproblem(x)` calling a parameter of the current function: the mark of the classes its
        call sites pass there (summary.ARG), which calling one builds."""
        scope = self.scopes[-1] if self.scopes else None
        if scope is None or not isinstance(func, cst.Name) or func.value not in scope.params \
                or func.value in ("self", "cls"):
            return None
        return f"{ARG}{scope.qualname}|{func.value}"

    def _keep_params(self, scope) -> None:
        """Keep the function's positional parameters: the project maps its call sites' arguments
        onto them (which classes a call passes as a parameter the function calls)."""
        info = self.functions[scope.qualname]
        if info.params is None and (facts := facts_of(scope)) is not None:
            info.params, info.bound = tuple(facts.positional), 1 if facts.bound else 0

    def _class_name(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of what looks like a class (`Name`, `pkg.Name`) outside builtins and torch."""
        cls = self._outside_name(node)
        return cls if cls and cls.rsplit(".", 1)[-1][:1].isupper() else None

    def _named(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of a module-level name or dotted path outside builtins and torch,
        whatever its case (not a local: `df.apply(f)`; not `self.x`)."""
        if isinstance(node, cst.Name) and self.locally_bound(node.value):
            return None
        name = self._outside_name(node)
        return name if name and not name.startswith("self.") else None

    def _outside_name(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, (cst.Name, cst.Attribute)):
            return None
        name = self.qualify(node) or dotted(node)
        return name if name and not name.startswith(("builtins.", "torch.")) else None

    def _forwards(self, node: cst.Call, scope) -> tuple:
        """The arguments that pass one of the function's own parameters on unchanged
        (`_errors(data, first_spike_time)`): two levels of call-site facts."""
        if not any(not arg.star and isinstance(arg.value, cst.Name) and arg.value.value in scope.params
                   for arg in node.args):
            return ()
        facts = facts_of(scope)
        return tuple((key, arg.value.value, kind) for key, arg in _keyed(node)
                     if isinstance(arg.value, cst.Name) and (kind := facts.forwarded(arg.value.value))) if facts else ()

    def _arg_specs(self, node: cst.Call) -> tuple:
        """[position or keyword, kind spec] of each argument that may carry a tensor or
        rule one out, "false"/"true" for a literal flag; positions stop at the first
        `*args` ("*"), and "**" marks a `**mapping`."""
        out = []
        for key, arg in _keyed(node, stars=True):
            spec = "unknown" if arg is None else argument_constant(arg.value) or self._value_spec(arg.value)
            if arg is not None and spec in (Kind.VALUE.value, Kind.UNKNOWN.value):
                spec = argument_size(arg.value) or spec  # (`sizes.amax(0) + 1` is a tensor, not a size)
            out.append((key, spec))
        return tuple(out)

    def _value_spec(self, value: cst.BaseExpression):
        """The argument's kind spec; "set" for a Python value that is a local the function
        binds once to a size (`num_graphs = data["ptr"].numel() - 1`, then
        `dim_size=num_graphs`): no None."""
        spec = self.kind_spec(value)
        if spec in (Kind.VALUE.value, Kind.UNKNOWN.value) and (
                may_be_none(value) or (isinstance(value, cst.Name) and self.scopes and self.optional_local(value.value))):
            return "optional"  # (`dim_size=sizes.get("graphs")`: the callee's `is None` branch may run)
        if spec in (Kind.VALUE.value, Kind.UNKNOWN.value) and isinstance(value, cst.Name) and self.scopes:
            bound = self.local_flag(value.value)
            return (argument_size(bound) if bound is not None else None) or spec
        return spec


def _keyed(node: cst.Call, stars: bool = False):
    """(position or keyword, argument) of each argument; positions stop at the first
    `*args` (after it they are anyone's guess). With `stars`, ("*", None) marks that
    `*args` and ("**", None) each `**mapping` (any keyword may be in it)."""
    position = 0
    for arg in node.args:
        if arg.star:
            if arg.star == "*" and position >= 0:
                position = -1
                if stars:
                    yield "*", None
            elif arg.star == "**" and stars:
                yield "**", None
            continue
        if arg.keyword is not None:
            yield arg.keyword.value, arg
        elif position >= 0:
            yield position, arg
            position += 1


def _self_path(owner: cst.BaseExpression) -> str | None:
    """`A.B` for `self.A.B` (two attributes deep): the class of each is the project's to find."""
    inner = owner.value if isinstance(owner, cst.Attribute) else None
    two = isinstance(inner, cst.Attribute) and isinstance(inner.value, cst.Name) and inner.value.value == "self"
    return f"{inner.attr.value}.{owner.attr.value}" if two else None


def _subscripted_attr(node: cst.Subscript) -> str | None:
    """`flows` of `self.flows[i]` (an element, not a slice)."""
    value, index = node.value, node.slice
    if len(index) != 1 or not isinstance(index[0].slice, cst.Index):
        return None
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        return value.attr.value
    return None


def _dispatch_edge(node: cst.Call) -> CallEdge | None:
    """`getattr(self, "{}_reduction".format(kind))`, `getattr(self, f"forward_{mode}")`:
    the method (or submodule) picked by name is one of those the pattern matches, which the
    project resolves (a `self` edge whose target holds `*`). Reading it is as good as
    calling it: what the lookup returns is called where the name is known no better."""
    name = self_getattr(node)
    if name is None:
        return None
    pattern = name_pattern(name)
    if pattern is None or len(pattern.replace("*", "")) < 3:
        return None  # (a bare variable, or too little text to pick methods by)
    return CallEdge("self", pattern)


def _wraps(value: cst.BaseExpression, other: cst.BaseExpression) -> bool:
    """`value` is a call handed `other` (`self.wrap_flatten_C(self._transform)`): a wrapper of it."""
    return isinstance(value, cst.Call) and isinstance(other, cst.Attribute) \
        and any(a.value.deep_equals(other) for a in value.args)
