"""The `torch.Generator` objects a function holds, for CL119: a generator's own methods
(`rng.get_state()`, `rng.set_state(s)`, `g.manual_seed(seed)`) are stateful RNG operations
Dynamo does not put in a graph (GB7650). A name holds one when the function builds it
(`torch.Generator(device)`, seeded or not) or a parameter is annotated with it; `self.rng`
when a method of the class sets it from either (an imaging library's noise model keeps the
`rng=` it was given and saves its state in `__init__` and `to()`).
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from compilelint.rules._callsite import keyword_value
from compilelint.semantic.compile_values import nested_scope
from compilelint.semantic.guards import conditions
from compilelint.semantic.kinds import not_optional
from compilelint.traverse import iter_nodes

GENERATOR = "torch.Generator"
GENERATOR_METHODS = frozenset({"get_state", "set_state", "manual_seed", "seed", "initial_seed",
                               "graphsafe_get_state", "clone_state"})  # each measured: GB7650
RNG_METHODS = frozenset({"normal_", "uniform_", "random_", "bernoulli_", "bernoulli", "exponential_",
                         "geometric_", "cauchy_", "log_normal_", "multinomial"})  # tensor methods that take `generator=`


class GeneratorScopes:
    """The classes and functions the walk is in (`enter` a ClassDef or FunctionDef, `leave`
    it); what holds a generator there is worked out only when a generator method's name is
    called, which few classes do (scanning every class body cost about 6 % of a cold check).
    Not the walker's class table: it types `self.rng = rng` from `rng: Optional[Generator]`
    but not from `rng: torch.Generator | None` (deepinv's solvers)."""

    def __init__(self) -> None:
        self._stack: list[cst.ClassDef | cst.FunctionDef] = []

    def enter(self, node: cst.ClassDef | cst.FunctionDef) -> None:
        self._stack.append(node)

    def leave(self) -> None:
        self._stack.pop()

    def holds(self, owner: cst.BaseExpression, ctx) -> bool:
        """Whether `owner` holds a generator: a parameter annotated with one, a local the
        function builds one into (and may reseed in place of itself), `self.x` its class sets
        to one."""
        if isinstance(owner, cst.Name):
            fn = self._stack[-1] if self._stack and isinstance(self._stack[-1], cst.FunctionDef) else None
            return (fn is not None and owner.value in generator_params(fn, ctx.qualify)) \
                or built_generator(ctx.local_flag(owner.value), ctx.qualify) \
                or (fn is not None and owner.value in generator_locals(fn, ctx.qualify, ctx.escaped_nodes)) \
                or (fn is not None and owner.value in optional_generators(fn, ctx.qualify))  # (None has no methods)
        if not (isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self"):
            return False
        cls = next((node for node in reversed(self._stack) if isinstance(node, cst.ClassDef)), None)
        return cls is not None and owner.attr.value in class_generators(cls, ctx.qualify)


def generator_method(rule, node: cst.Call, scopes: GeneratorScopes) -> bool:
    """`rng.get_state()`, `self.rng.manual_seed(s)` on a `torch.Generator`: reported (GB7650)."""
    func = node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in GENERATOR_METHODS or rule.ctx.function is None \
            or not scopes.holds(func.value, rule.ctx):
        return False
    rule.report(node, rule.message.format(what=f"`torch.Generator.{func.attr.value}()`", why=(
        "Dynamo does not trace a generator's state and breaks the graph (GB7650)")),
        help="Seed, save or restore the generator outside the compiled call.")
    return True


def draw_given_generator(rule, node: cst.Call, qualified: str | None) -> bool:
    """A draw handed a `torch.Generator` (`torch.randn(shape, generator=g)`,
    `x.normal_(generator=g)`): Dynamo cannot make the generator a graph input (GB0055). A
    parameter (or `self.x`) defaulting to None breaks only when the caller passes one (a
    `given:` label); anything else is left alone."""
    ctx = rule.ctx
    value = keyword_value(node, "generator")
    func = node.func
    draw = (qualified or "").startswith("torch.") or (
        qualified is None and isinstance(func, cst.Attribute) and func.attr.value in RNG_METHODS)
    if value is None or not draw:
        return False
    if not isinstance(value, (cst.Name, cst.Attribute)):
        return False  # `torch.Generator()` built here: reported where it is built (GB0363)
    fn = ctx.function.node if ctx.function is not None and isinstance(ctx.function.node, cst.FunctionDef) else None
    if isinstance(value, cst.Name) and ctx.function is not None and (
            built_generator(ctx.local_flag(value.value), ctx.qualify)
            or (fn is not None and value.value in generator_locals(fn, ctx.qualify, ctx.escaped_nodes))):
        when = ()  # `generator = torch.Generator(device).manual_seed(seed)` in this function
    elif isinstance(value, cst.Name) and fn is not None \
            and (test := optional_generators(fn, ctx.qualify).get(value.value)) is not None:
        when = conditions(test, flag=ctx.local_flag) + ctx.caller_conditions(test)  # (where it was built)
    else:
        # (a parameter without a default, `given:=g`, says nothing of what it holds)
        when = tuple(label for label in ctx.caller_conditions(value) if not label.startswith("given:="))
        if not when:
            return False  # not known to hold a generator
    rule.report(node, rule.message.format(
        what="A draw given a `torch.Generator`",
        why="Dynamo cannot pass a generator object into the graph and breaks the graph (GB0055)"),
        help="Draw with torch's global RNG inside the region (seed it outside), or draw the noise "
             "outside and pass it in.", when=when)
    return True


def built_generator(value: cst.BaseExpression | None, qualify) -> bool:
    """`torch.Generator(device)`, also seeded in the same expression (`.manual_seed(seed)`)."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "manual_seed":
        value = value.func.value
    return isinstance(value, cst.Call) and qualify(value.func) == GENERATOR


def generator_locals(fn: cst.FunctionDef, qualify, escaped: set[int]) -> frozenset[str]:
    """Locals every binding of which that runs compiled holds a generator: one built (`rng =
    torch.Generator(dev)`) and rebound to itself reseeded (`rng = rng.manual_seed(seed)`, which
    returns it: FrEIA's mixture model), or to None only in a branch that never runs compiled
    (`escaped`: the walker's `escaped_nodes`, `if torch.jit.is_tracing(): generator = None`),
    which a single-binding flag does not follow."""
    bindings: dict[str, list[cst.BaseExpression | None]] = {}
    for node in iter_nodes(fn.body, prune=lambda n: nested_scope(n) or id(n) in escaped):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            bindings.setdefault(node.targets[0].target.value, []).append(node.value)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)) \
                and isinstance(node.target, cst.Name):
            bindings.setdefault(node.target.value, []).append(None)  # bound some other way: not only a generator

    def reseeded(value: cst.BaseExpression | None, name: str) -> bool:
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "manual_seed" and isinstance(value.func.value, cst.Name) \
            and value.func.value.value == name
    return frozenset(name for name, values in bindings.items()
                     if any(built_generator(v, qualify) for v in values)
                     and all(built_generator(v, qualify) or reseeded(v, name) for v in values))


def optional_generators(fn: cst.FunctionDef, qualify) -> dict[str, cst.BaseExpression]:
    """Locals an `if` builds a generator into and its `else` sets to None (torch-kmeans' `if
    self.seed is not None: gen = torch.Generator(device=x.device)` / `else: gen = None`), each
    with the test under which it holds the generator."""
    found = {}
    for node in iter_nodes(fn.body, prune=nested_scope):
        if not (isinstance(node, cst.If) and isinstance(node.orelse, cst.Else)):
            continue
        built, nones = _assigned(node.body, lambda v: built_generator(v, qualify)), \
            _assigned(node.orelse.body, lambda v: isinstance(v, cst.Name) and v.value == "None")
        found.update((name, node.test) for name in built & nones)
    return found


def _assigned(block: cst.BaseSuite, holds) -> set[str]:
    """The names a block's own statements assign a value `holds` accepts."""
    return {stmt.body[0].targets[0].target.value for stmt in getattr(block, "body", ())
            if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)
            and holds(stmt.body[0].value)}


def generator_params(fn: cst.FunctionDef, qualify) -> frozenset[str]:
    """The parameters annotated `torch.Generator` (also `Optional[...]`, `... | None`)."""
    params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
    return frozenset(p.name.value for p in params if p.annotation is not None and _names_generator(
        not_optional(p.annotation.annotation), qualify))


def class_generators(node: cst.ClassDef, qualify) -> frozenset[str]:
    """The `self.x` a method of the class sets to a generator (built, or a parameter
    annotated with the class)."""
    attrs = set()
    for fn in node.body.body:
        if not isinstance(fn, cst.FunctionDef):
            continue
        params = generator_params(fn, qualify)
        for assign in m.findall(fn, m.Assign(targets=[m.AssignTarget(target=m.Attribute(value=m.Name("self")))])):
            value = assign.value
            if (isinstance(value, cst.Name) and value.value in params) or built_generator(value, qualify):
                attrs.add(assign.targets[0].target.attr.value)
    return frozenset(attrs)


def _names_generator(annotation: cst.BaseExpression, qualify) -> bool:
    if isinstance(annotation, cst.SimpleString):
        return annotation.evaluated_value in ("torch.Generator", "Generator")
    return isinstance(annotation, (cst.Name, cst.Attribute)) and qualify(annotation) == GENERATOR
