"""Branches that only the caller decides: `if profile:` (a parameter defaulting to
`False`), `if scale is not None:`, `if len(args) > 0 or kwargs.get("scale") is not None:`.

The branch runs only when a caller passes the argument, so a finding inside it holds
only on such calls. The walk states the condition as a `when` label; the project phase
(`compilelint.project_rules.callsites`) checks it against every compiled call site:

    given:NAME            the caller passes NAME a value other than None / False / 0
    given:NAME!=None      the caller passes NAME a value other than None
    given:NAME==None      the caller leaves NAME (default None) at None: the body of `if
                          NAME is None:`, code after `if NAME is not None: return NAME`, or
                          in its `elif` / `else`; decided where sites pass a value (else dropped)
    given:NAME~None       the caller leaves NAME None or passes a tensor: a finding after `if NAME
                          is None: NAME = <tensor>` (semantic.defaulted makes it)
    given:*NAME           the caller passes more positional arguments than there are
                          positional parameters (`*NAME` is not empty)
    given:**NAME[KEY]     the caller passes the keyword KEY (into `**NAME`)
    given:self.ATTR       `self.ATTR` is not None: decided by the class, not the call
                          (`self.norm = None` the only assignment in the class and its
                          subclasses, and nothing sets `.norm` on another object)
    given:NAME@tensor     the caller passes NAME a tensor: the body of `isinstance(NAME,
                          Tensor)` / `torch.is_tensor(NAME)` (sites that pass a number,
                          a bool or None rule it out; a probe run judges the rest)
    given:NAME@plain      the caller passes NAME no tensor: the other branch of such a test
                          (`data if isinstance(data, Tensor) else torch.tensor(data, ...)`;
                          sites that pass a tensor rule it out, a number, a list or None
                          meets it, as does leaving NAME to its default)
    given:NAME@guess      the caller passes NAME a tensor: a CL102 test on a parameter the walk
                          only guesses is one (semantic.guards.guessed_parameter); sites that all
                          pass a number, a bool or None rule it out, otherwise it is dropped
    given:NAME@ndarray    the caller passes NAME a NumPy array: the body of `isinstance(NAME,
                          np.ndarray)` (sites that pass a tensor, a number, a string or
                          None rule it out)
    given:NAME!is:OTHER   the caller passes NAME another object than OTHER (both parameters):
                          the right side of `query is key or torch.equal(query, key)`; a site
                          that passes one of its own parameters as both rules it out, and a
                          probe run judges the rest by the objects its calls passed
                          (self-attention passes one tensor three times)
    given:=NAME           NAME has no default: only its call sites can rule the branch out
                          (each passes a falsy literal, or its own parameter that no caller
                          of its own passes); undecided, the label is dropped, not kept

Several alternatives (a test joined by `or`) are one label, joined by `|`. A label is made
only when the parameter's default (or an empty `*args` / `**kwargs`) skips the branch and
the function does not rebind the name before the test (nor anywhere, for a test in a loop).
`NAME == "warn"` (a truthy literal) on a parameter defaulting to None, False, 0 or "" needs
the caller's value: `given:NAME`.
"""

from __future__ import annotations

import libcst as cst

from compilelint.finding import DISTINCT, LEFT_NONE, NDARRAY, PLAIN, TENSOR
from compilelint.semantic.kinds import dotted
from compilelint.traverse import scan, scan_spans

FALSY = ("None", "False")
LABEL_NAMES = frozenset({"labels", "label", "targets", "target"})  # `is not None`: the "labels" mode
TENSOR_CLASSES = frozenset({"Tensor", "torch.Tensor"})  # (not Parameter: a caller's tensor is seldom one)
ARRAY_CLASSES = frozenset({"np.ndarray", "numpy.ndarray"})


def _falsy_default(default: cst.BaseExpression | None) -> str | None:
    """"none" for `=None`, "falsy" for `=False` / `=0` / `=""`, None otherwise."""
    if isinstance(default, cst.Name) and default.value in FALSY:
        return "none" if default.value == "None" else "falsy"
    if isinstance(default, (cst.Integer, cst.Float)) and default.evaluated_value == 0:
        return "falsy"
    if isinstance(default, cst.SimpleString) and default.evaluated_value in ("", b""):
        return "falsy"
    if _empty(default):
        return "falsy"  # `save_at=()`: an empty container
    return None


def _empty(default: cst.BaseExpression | None) -> bool:
    return isinstance(default, (cst.Tuple, cst.List, cst.Dict)) and not default.elements


class _Rebinds:
    """Names a function body binds (assignments, loop targets, `as`, walrus, del)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.at: dict[str, list[cst.CSTNode]] = {}  # name -> the nodes that bind it

    def read(self, body: cst.CSTNode) -> None:
        """Every binding in `body`, in order (its `visit_*` methods, over the shared scan)."""
        handlers = _REBIND_HANDLERS
        for node in scan(body):
            handler = handlers.get(type(node))
            if handler is not None:
                handler(self, node)

    def _target(self, node) -> None:
        if isinstance(node, cst.Name):
            self.names.add(node.value)
            self.at.setdefault(node.value, []).append(node)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self._target(element.value)
        elif isinstance(node, cst.StarredElement):
            self._target(node.value)
        elif isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name):
            self.names.add(node.value.value)  # kwargs["scale"] = ...: the container changes
            self.at.setdefault(node.value.value, []).append(node)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        # kwargs.update(...) / kwargs.setdefault(...) / args.append(...): the container changes
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value in (
                "update", "setdefault", "append", "extend", "insert", "__setitem__"):
            self.names.add(func.value.value)
            self.at.setdefault(func.value.value, []).append(node)


_REBIND_HANDLERS = {getattr(cst, name[6:]): method for name, method in vars(_Rebinds).items()
                    if name.startswith("visit_")}


class CallerFacts:
    """What a function's parameters say about its branches: the `given:` labels of a test."""

    def __init__(self, node: cst.FunctionDef, bound: bool, in_class: bool = False) -> None:
        self.in_class = in_class  # `self.x` is the instance (a method, or a function nested in one)
        params = node.params
        self.positional = [p.name.value for p in (*params.posonly_params, *params.params)]
        self.bound = bool(bound and self.positional)
        self.defaults: dict[str, str] = {}
        self.required: set[str] = set()  # (not `self`)
        for i, param in enumerate((*params.posonly_params, *params.params, *params.kwonly_params)):
            falsy = _falsy_default(param.default)
            if falsy:
                self.defaults[param.name.value] = falsy
            elif param.default is None and not (i == 0 and bound):
                self.required.add(param.name.value)
        # (a default that is a literal, or none: a site that leaves the parameter out passes no tensor)
        self.plain = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)
                      if param.default is None or _literal(param.default)} - {"self"}
        self.star = params.star_arg.name.value if isinstance(params.star_arg, cst.Param) else None
        # (`len(save_at) > 0` with `save_at=()`: a caller's value, as for `*args`; torchdyn's odeint)
        self.sized = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)
                      if _empty(param.default)}
        self.kwargs = params.star_kwarg.name.value if params.star_kwarg is not None else None
        self._rebound: _Rebinds | None = None
        self._node = node
        self._test: cst.BaseExpression | None = None  # the test `labels` reads now
        self._order: dict[int, int] | None = None  # id(node) -> its place in the body, and loops' spans
        self._loops: list[tuple[int, int]] = []

    @property
    def relevant(self) -> bool:
        return bool(self.defaults or self.required or self.star or self.kwargs or self.in_class or self.plain)

    def rebound(self, name: str) -> bool:
        """Whether the body binds `name` again: anywhere, or, while a test is read, before it
        (`if zero_division == "warn" and ...:` then `zero_division = 0.0`: the test still reads
        the caller's value), or anywhere when the test sits in a loop."""
        binders = self.binders(name)
        if not binders:
            return False
        return self._test is None or not self.all_after(binders, self._test)

    def binders(self, name: str) -> list[cst.CSTNode]:
        """The nodes of the body that bind `name` (a `Name` target, or a `Subscript` for a
        store into it: `kwargs["scale"] = ...`), in order; walked once."""
        if self._rebound is None:
            self._rebound = _Rebinds()
            self._rebound.read(self._node.body)
        return self._rebound.at.get(name, [])

    def all_after(self, nodes: list[cst.CSTNode], anchor: cst.CSTNode) -> bool:
        """Every one of `nodes` comes after `anchor` (a node of the body), which is in no loop:
        what they bind is not what `anchor` reads."""
        if self._order is None:
            body, ends = scan_spans(self._node.body)
            self._order = {id(node): place for place, node in enumerate(body)}
            self._loops = [(place, ends[place] - 1) for place, node in enumerate(body)
                           if isinstance(node, (cst.For, cst.While))]
        place = self._order.get(id(anchor))
        if place is None or any(start < place <= end for start, end in self._loops):
            return False
        return all(self._order.get(id(n), -1) > place for n in nodes)

    def forwarded(self, name: str) -> str | None:
        """How a call site's bare `name` argument can be decided through this function's
        own callers: "none" / "falsy" (its default), "required"; None when it cannot (not
        a parameter, another default, rebound in the body)."""
        kind = self.defaults.get(name) or ("required" if name in self.required else None)
        return kind if kind and not self.rebound(name) else None

    def labels(self, test: cst.BaseExpression, negated: bool = False) -> tuple[str, ...]:
        """The `given:` labels a branch with this test needs (each a conjunct)."""
        if self._test is None:
            self._test = test
            try:
                return self.labels(test, negated)
            finally:
                self._test = None
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self.labels(test.left) + self.labels(test.right) if not negated else ()
        if isinstance(test, cst.BooleanOperation) and negated:  # not (a or b): neither holds
            return self.labels(test.left, True) + self.labels(test.right, True)
        alternatives = self.alternatives(test, negated)
        return ("given:" + "|".join(alternatives),) if alternatives else ()

    def alternatives(self, test: cst.BaseExpression, negated: bool = False) -> list[str]:
        """The `given:` alternatives one of which the test needs, [] when it needs none."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or) and not negated:
            left, right = self.alternatives(test.left), self.alternatives(test.right)
            return left + right if left and right else []
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.alternatives(test.expression, not negated)
        if negated:
            if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
                op = test.comparisons[0].operator
                if isinstance(op, cst.Is):  # not (x is None), not (key is query)
                    return self._not_none(test.left, test.comparisons[0].comparator) \
                        or self._distinct(test.left, test.comparisons[0].comparator)
                if isinstance(op, cst.IsNot):
                    return self._left_none(test.left, test.comparisons[0].comparator)  # not (x is not None)
            found = self._tensor(test)  # (`data if isinstance(data, Tensor) else torch.tensor(data, ...)`)
            return [found[0].removesuffix(TENSOR) + PLAIN] if found and found[0].endswith(TENSOR) else []
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            op, right = test.comparisons[0].operator, test.comparisons[0].comparator
            if isinstance(op, cst.Is):  # `if dim_size is None: dim_size = int(index.max()) + 1`
                return self._left_none(test.left, right)
            if isinstance(op, (cst.IsNot, cst.NotEqual)):
                found = self._not_none(test.left, right)
                if found or isinstance(op, cst.IsNot):
                    return found or (self._distinct(test.left, right) if isinstance(op, cst.IsNot) else [])
            if isinstance(op, cst.In):  # "scale" in kwargs
                key = _string(test.left)
                name = right.value if isinstance(right, cst.Name) else None
                if key is not None and name == self.kwargs and not self.rebound(name):
                    return [f"**{name}[{key}]"]
            if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual, cst.NotEqual)):
                return self._len_positive(test.left, op, right)
            if isinstance(op, cst.Equal):  # `zero_division == "warn"` (default 0.0): only a caller's value
                return self._equals_truthy(test.left, right) or self._equals_truthy(right, test.left)
            return []
        return self._truthy(test) or self._tensor(test)

    def _self_attr(self, value: cst.BaseExpression) -> list[str]:
        """`self.x`: set at construction, to None only (decided over the class and its subclasses)."""
        if self.in_class and isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) \
                and value.value.value == "self" and value.attr.value != "training" and not self.rebound("self"):
            return [f"self.{value.attr.value}"]
        return []

    def _truthy(self, value: cst.BaseExpression) -> list[str]:
        if isinstance(value, cst.Attribute):
            return self._self_attr(value)
        if isinstance(value, cst.Name):
            name = value.value
            if self.rebound(name):
                return []
            if name == self.star:
                return [f"*{name}"]
            if name == self.kwargs:
                return []
            if name in self.defaults:
                return [name]
            return ["=" + name] if name in self.required else []
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "len" \
                and len(value.args) == 1:
            return self._truthy(value.args[0].value) if isinstance(value.args[0].value, cst.Name) \
                and value.args[0].value.value in (self.star, *self.sized) else []
        key = self._kwargs_get(value)
        return [f"**{self.kwargs}[{key}]"] if key is not None else []

    def _tensor(self, test: cst.BaseExpression) -> list[str]:
        """`isinstance(NAME, Tensor)` / `torch.is_tensor(NAME)` on a parameter the body never
        rebinds before the test (brevitas' `bool(signed.item()) if isinstance(signed, Tensor)
        else signed`, called with Python bools); `isinstance(NAME, np.ndarray)` (tsl's
        `isinstance(idx, np.ndarray) and np.isscalar(idx)`, indexed with ints and tensors)."""
        if not (isinstance(test, cst.Call) and test.args and isinstance(test.args[0].value, cst.Name)):
            return []
        name, called, suffix = test.args[0].value.value, dotted(test.func), TENSOR
        if called == "isinstance" and len(test.args) == 2:
            spec = dotted(test.args[1].value) or ""
            if spec in ARRAY_CLASSES:
                suffix = NDARRAY
            elif spec not in TENSOR_CLASSES:
                return []
        elif called not in ("torch.is_tensor", "is_tensor") or len(test.args) != 1:
            return []
        if name not in self.plain or self.rebound(name):
            return []
        return [f"{name}{suffix}"]

    def _equals_truthy(self, name: cst.BaseExpression, literal: cst.BaseExpression) -> list[str]:
        """`NAME == "warn"` / `NAME == 2` for a parameter defaulting to None, False, 0 or "":
        equal to a truthy literal, it holds a value its caller passed."""
        truthy = (isinstance(literal, cst.SimpleString) and bool(literal.evaluated_value)) or (
            isinstance(literal, (cst.Integer, cst.Float)) and literal.evaluated_value != 0)
        return self._truthy(name) if truthy and isinstance(name, cst.Name) and name.value in self.defaults else []

    def _not_none(self, left: cst.BaseExpression, right: cst.BaseExpression) -> list[str]:
        left = compared_with_none(left, right)
        if left is None:
            return []
        if isinstance(left, cst.Attribute):
            return self._self_attr(left)
        if isinstance(left, cst.Name):
            name = left.value
            # (`labels is not None` is already a mode of its own, "labels")
            if name in LABEL_NAMES or self.rebound(name):
                return []
            if self.defaults.get(name) == "none":
                return [f"{name}!=None"]
            return [f"={name}!=None"] if name in self.required else []
        key = self._kwargs_get(left)
        return [f"**{self.kwargs}[{key}]"] if key is not None else []

    def _distinct(self, left: cst.BaseExpression, right: cst.BaseExpression) -> list[str]:
        """`not (query is key)`: two parameters the body never rebinds, passed as two objects."""
        names = [side.value for side in (left, right) if isinstance(side, cst.Name)]
        params = set(self.positional) | self.required | set(self.defaults)
        if len(names) != 2 or names[0] == names[1] or "None" in names or "self" in names \
                or not all(name in params and not self.rebound(name) for name in names):
            return []
        return [f"{names[0]}{DISTINCT}{names[1]}"]

    def _left_none(self, left: cst.BaseExpression, right: cst.BaseExpression) -> list[str]:
        """`x is None` for a parameter defaulting to None that the body never rebinds."""
        left = compared_with_none(left, right)
        if not isinstance(left, cst.Name):
            return []
        name = left.value
        if name in LABEL_NAMES or self.rebound(name) or self.defaults.get(name) != "none":
            return []
        return [f"{name}{LEFT_NONE}"]

    def _len_positive(self, left, op, right) -> list[str]:
        if not (isinstance(right, cst.Integer)):
            return []
        bound = right.evaluated_value  # (0x10, 1_000: not int()'s syntax)
        if (isinstance(op, (cst.GreaterThan, cst.NotEqual)) and bound == 0) or (
                isinstance(op, cst.GreaterThanEqual) and bound == 1):
            if isinstance(left, cst.Call) and isinstance(left.func, cst.Name) and left.func.value == "len" \
                    and len(left.args) == 1:
                return self._truthy(left.args[0].value) if isinstance(left.args[0].value, cst.Name) \
                    and left.args[0].value.value in (self.star, *self.sized) else []
        return []

    def _kwargs_get(self, value: cst.BaseExpression) -> str | None:
        """KEY for `kwargs.get("KEY")` / `kwargs.get("KEY", None)` / `kwargs["KEY"]`."""
        if self.kwargs is None or self.rebound(self.kwargs):
            return None
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and isinstance(value.func.value, cst.Name) and value.func.value.value == self.kwargs \
                and value.func.attr.value == "get" and value.args:
            if len(value.args) > 1 and not (isinstance(value.args[1].value, cst.Name)
                                            and value.args[1].value.value in FALSY):
                return None
            return _string(value.args[0].value)
        return None


def compared_with_none(left: cst.BaseExpression, right: cst.BaseExpression) -> cst.BaseExpression | None:
    """What `x is None` / `None is x` (either operator) tests, None for another comparison."""
    if isinstance(left, cst.Name) and left.value == "None":
        left, right = right, left
    return left if isinstance(right, cst.Name) and right.value == "None" else None


def _literal(node: cst.BaseExpression) -> bool:
    """None, True, False, a number or a string: no tensor."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)) or (
        isinstance(node, cst.Name) and node.value in ("None", "True", "False"))


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return text if isinstance(text, str) and text.isidentifier() else None
    return None


def facts_of(scope) -> CallerFacts | None:
    """The facts of a walker function scope (`bindings.FunctionScope`), made the first time
    they are asked for; None for a lambda or module level."""
    if scope is None or not isinstance(scope.node, cst.FunctionDef):
        return None
    if scope.facts is None:
        scope.facts = CallerFacts(scope.node, scope.bound, scope.class_name is not None)
    return scope.facts
