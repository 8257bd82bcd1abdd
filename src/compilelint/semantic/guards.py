"""Branches: which code never runs compiled (`is_compiling()` guards), and under what
condition a line runs (training only, fp16 only, with labels): a finding's `when`."""

from __future__ import annotations

from typing import Callable

import libcst as cst

from compilelint.finding import GUESSED, ON_ERROR
from compilelint.semantic.compile_values import compile_constant, empty_names, membership_in_empty
from compilelint.semantic.facts import LABEL_NAMES, facts_of
from compilelint.semantic.kinds import Kind, dotted
from compilelint.semantic.local_flags import local_flags, optional_locals, self_stores
from compilelint.traverse import iter_nodes

# Guards that are true while Dynamo traces: the other branch never runs compiled.
COMPILING_GUARDS = frozenset({
    "is_compiling", "is_dynamo_compiling", "is_torchdynamo_compiling",
    "is_tracing",  # transformers' helper: true under Dynamo, FX and TorchScript tracing
})
# Predicates Dynamo folds to False under torch.compile: what only they let through never
# runs compiled, and what `not` them guards does (an eager-only check is traced).
# (`torch._C._is_tracing()` is not folded: it breaks the graph, CL119, and answers False eagerly)
FALSE_WHEN_COMPILING = ("jit.is_tracing", "jit.is_scripting", "onnx.is_in_onnx_export", "_get_tracing_state",
                        "_C._is_tracing")
FALSE_WHEN_COMPILING_NAMES = frozenset({"is_scripting", "is_in_onnx_export"})
# `torch.compiler.is_exporting()` (and libraries' `is_exporting()` helpers): true inside a
# torch.compile trace before torch 2.12, export-only from 2.12 on.
EXPORTING_FOLDED_FROM = (2, 12)
# isinstance() targets that are never tensors, and those that are.
PLAIN_TYPES = frozenset({"int", "float", "bool", "complex", "str", "bytes", "bytearray", "tuple", "list", "dict", "set",
                         "Number", "Integral", "Real", "Sequence"})
TENSOR_TYPES = frozenset({"Tensor", "Parameter", "Buffer"})
SPARSE_FLAGS = frozenset({"is_sparse", "is_sparse_csr"})
HALF_DTYPES = {"float16": "float16", "half": "float16", "bfloat16": "bfloat16"}


def compiling_guard(test: cst.BaseExpression, release: tuple[int, int] = EXPORTING_FOLDED_FROM,
                    constants: Callable[[str], bool | None] | None = None,
                    empties: frozenset[str] = frozenset()) -> bool | None:
    """True for a test that holds under torch.compile (`is_compiling()`, `not
    torch.jit.is_tracing()`), False for one that does not (`not is_compiling()`,
    `torch.jit.is_scripting()`; also as one operand of `and`: the body then runs only
    eagerly; as one operand of `or`, True), None otherwise. `release`: the target torch;
    `constants`: a same-file helper's value under compile, by name; `empties`: names that
    are empty containers under compile (semantic.compile_values)."""
    if isinstance(test, cst.BooleanOperation):
        sides = (compiling_guard(test.left, release, constants, empties),
                 compiling_guard(test.right, release, constants, empties))
        if isinstance(test.operator, cst.And):
            return False if False in sides else (True if sides == (True, True) else None)
        return True if True in sides else (False if sides == (False, False) else None)
    negated = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negated = not negated
        test = test.expression
    member = membership_in_empty(test, empties)
    if member is not None:
        return member != negated
    if sparse_test(test):
        return negated
    if isinstance(test, cst.Call):
        value = constants(test.func.value) if constants and isinstance(test.func, cst.Name) else None
        if value is not None:
            return value != negated
        name = dotted(test.func)
        last = name.split(".")[-1] if name else ""
        if last == "is_exporting":
            return negated if release >= EXPORTING_FOLDED_FROM else not negated
        if name and (name.endswith(FALSE_WHEN_COMPILING) or name in FALSE_WHEN_COMPILING_NAMES):
            return negated
        if last in COMPILING_GUARDS:
            return not negated
    return None


def sparse_test(test: cst.BaseExpression) -> bool:
    """`t.is_sparse`, `t.is_sparse_csr`, `t.layout == torch.sparse_coo`: true only for a frame
    holding a sparse tensor, which Dynamo cannot wrap (GB0015): that frame broke at the test,
    its first use of `t`, so what only the test lets through never runs compiled (norse's
    `zeros(...).to_sparse() if input_tensor.is_sparse else zeros(...)`). `self.is_sparse` is a flag."""
    if isinstance(test, cst.Attribute):
        return test.attr.value in SPARSE_FLAGS and not (isinstance(test.value, cst.Name) and test.value.value == "self")
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and isinstance(test.comparisons[0].operator, cst.Equal):
        sides = (test.left, test.comparisons[0].comparator)
        layout = any(isinstance(side, cst.Attribute) and side.attr.value == "layout" for side in sides)
        return layout and any((dotted(side) or "").startswith("torch.sparse_") for side in sides)
    return False


def proved_names(test: cst.BaseExpression, truth: bool,
                 leaf: Callable[[cst.BaseExpression, bool], frozenset[str]]) -> frozenset[str]:
    """Names `test` proves something of when it evaluates to `truth`, through `not` / `and` /
    `or` (`a and b` true: both true; `a or b` false: both false); `leaf(test, truth)` reads
    each single test (`not_tensors`, `ndarrays.tested_arrays`)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return proved_names(test.expression, not truth, leaf)
    if isinstance(test, cst.BooleanOperation):
        if isinstance(test.operator, cst.And) is truth:
            return proved_names(test.left, truth, leaf) | proved_names(test.right, truth, leaf)
        return frozenset()
    return leaf(test, truth)


def isinstance_name(test: cst.BaseExpression) -> str | None:
    """`x` for a test `isinstance(x, spec)` on a plain name."""
    if isinstance(test, cst.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2 \
            and isinstance(test.args[0].value, cst.Name):
        return test.args[0].value.value
    return None


def not_tensors(test: cst.BaseExpression, truth: bool,
                flag: Callable[[str], cst.BaseExpression | None] | None = None) -> frozenset[str]:
    """Names `test` proves are not tensors when it evaluates to `truth`: `isinstance(t, float)`
    when true, `isinstance(t, Tensor)` / `isinstance(t, (np.ndarray, Tensor))` /
    `torch.is_tensor(t)` when false, through `not` / `and` / `or`; `flag` reads a local the
    function binds once (`vector = (np.ndarray, torch.Tensor)`, then `isinstance(t, vector)`)."""
    return proved_names(test, truth, lambda single, holds: _not_tensor(single, holds, flag))


def _not_tensor(test: cst.BaseExpression, truth: bool,
                flag: Callable[[str], cst.BaseExpression | None] | None) -> frozenset[str]:
    if isinstance(test, cst.Call) and dotted(test.func) == "torch.is_tensor" and len(test.args) == 1 \
            and isinstance(test.args[0].value, cst.Name):
        return frozenset({test.args[0].value.value}) if not truth else frozenset()  # `not torch.is_tensor(x) and x == 0`
    if isinstance_name(test) is None:
        return frozenset()
    spec = test.args[1].value
    if isinstance(spec, cst.Name) and flag is not None and isinstance(bound := flag(spec.value), cst.Tuple):
        spec = bound
    names = [(dotted(e.value) or "") for e in spec.elements] if isinstance(spec, cst.Tuple) else [dotted(spec) or ""]
    lasts = {n.split(".")[-1] for n in names}
    plain = all(last in PLAIN_TYPES for last in lasts)
    tensor = any(last in TENSOR_TYPES for last in lasts)  # (false: none of them, so no tensor)
    if (truth and plain) or (not truth and tensor):
        return frozenset({test.args[0].value.value})
    return frozenset()


def conditions(test: cst.BaseExpression, negated: bool = False,
               flag: Callable[[str], cst.BaseExpression | None] | None = None) -> tuple[str, ...]:
    """The modes an `if` test requires (`when` labels): "training" / "eval" for
    `self.training`, "dtype=float16" for `x.dtype == torch.float16`, "labels" for
    `labels is not None`, "set:self.X" / "unset:self.X" for `self.X` (`self.X > 0`), an
    attribute fixed at construction (a probe run judges it). Only conjunctions: under `or`
    nothing is required (under `not (a or b)`, what `not a` and `not b` do). `flag`: the
    value a local name stands for (semantic.local_flags: `drop = self.training and ...`)."""
    if isinstance(test, cst.BooleanOperation):
        if isinstance(test.operator, cst.And) != negated:
            return conditions(test.left, negated, flag) + conditions(test.right, negated, flag)
        return ()
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return conditions(test.expression, not negated, flag)
    if flag is not None and isinstance(test, cst.Name):
        value = flag(test.value)
        return conditions(value, negated) if value is not None else ()
    if isinstance(test, cst.Attribute) and test.attr.value == "training":
        return ("eval",) if negated else ("training",)
    attr = _self_flag(test)
    if attr:
        return (f"unset:self.{attr}",) if negated else (f"set:self.{attr}",)
    if not negated and isinstance(test, cst.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2:
        # `isinstance(self.ratio, Tensor)` on an attribute built as a tensor or a tuple:
        # decided by how the object was built (a probe run judges it)
        subject, spec = test.args[0].value, test.args[1].value
        names = [dotted(e.value) or "" for e in spec.elements] if isinstance(spec, cst.Tuple) else [dotted(spec) or ""]
        if isinstance(subject, cst.Attribute) and dotted(subject.value) == "self" \
                and all(n.split(".")[-1] in TENSOR_TYPES for n in names):
            return (f"isinstance:self.{subject.attr.value}",)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        left = test.left
        if isinstance(op, (cst.Equal, cst.Is)) and not negated:
            for side, other in ((left, right), (right, left)):
                name = (dotted(side) or "").split(".")[-1]
                if name in HALF_DTYPES and (dotted(other) or "").split(".")[-1] == "dtype":
                    return (f"dtype={HALF_DTYPES[name]}",)
        if isinstance(op, cst.IsNot) and not negated and isinstance(right, cst.Name) and right.value == "None" \
                and isinstance(left, cst.Name) and left.value in LABEL_NAMES:
            return ("labels",)
    return ()


def _self_flag(test: cst.BaseExpression) -> str | None:
    """X of a test that holds when `self.X` is truthy: `self.X`, `self.X > 0`, `self.X != 0`."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if not (isinstance(op, (cst.GreaterThan, cst.NotEqual)) and isinstance(right, (cst.Integer, cst.Float))
                and right.evaluated_value == 0):
            return None
        test = test.left
    if isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == "self":
        return test.attr.value
    return None


def _tests_membership(test: cst.BaseExpression) -> bool:
    """Whether a test holds `x in name` (through `not`, `and`, `or`): only then does the
    function's empty-under-compile table matter."""
    if isinstance(test, cst.BooleanOperation):
        return _tests_membership(test.left) or _tests_membership(test.right)
    if isinstance(test, cst.UnaryOperation):
        return _tests_membership(test.expression)
    return isinstance(test, cst.Comparison) and any(
        isinstance(c.operator, (cst.In, cst.NotIn)) and isinstance(c.comparator, cst.Name) for c in test.comparisons)


def dropped_by(when: tuple[str, ...], assume: dict) -> bool:
    """Whether `assume` (`[tool.compilelint] assume`) rules out every run that reaches a
    finding only reachable `when`."""
    for label in when:
        if label == "training" and assume.get("training") is False:
            return True
        if label == "eval" and assume.get("training") is True:
            return True
        if label == "labels" and assume.get("labels") is False:
            return True
        if label.startswith("dtype=") and assume.get("dtype") not in (None, label[6:]):
            return True
    return False


class GuardTracking:
    """Walker part: branches that only run eagerly, and the `when` of each branch."""

    _release: tuple[int, int] | None = None

    def target_release(self) -> tuple[int, int]:
        """The torch release the code is checked for (`target-torch`, else the installed one)."""
        if self._release is None:
            from compilelint.config import torch_version

            self._release = torch_version(self.settings)
        return self._release

    def compiling_guard(self, test: cst.BaseExpression, empties: frozenset[str] | None = None) -> bool | None:
        if empties is None:
            empties = self._function_empties() if _tests_membership(test) else frozenset()
        return compiling_guard(test, self.target_release(), self._helper_constant, empties)

    def _helper_constant(self, name: str) -> bool | None:
        """What the same-file helper `name` returns under compile (semantic.compile_values),
        worked out the first time a guard calls it."""
        if name not in self._constants:
            fn = self.module_functions.get(name)
            self._constants[name] = None  # (a helper that calls itself: not known)
            if fn is not None:
                self._constants[name] = compile_constant(fn, lambda t: self.compiling_guard(t, frozenset()))
        return self._constants[name]

    def _function_empties(self) -> frozenset[str]:
        """Names the current function binds only to an empty container under compile,
        worked out the first time one of its guards tests membership."""
        if not self.scopes or not isinstance(self.scopes[-1].node, cst.FunctionDef):
            return frozenset()
        node = self.scopes[-1].node
        if id(node) not in self._empties:
            self._empties[id(node)] = empty_names(node, lambda t: self.compiling_guard(t, frozenset()))
        return self._empties[id(node)]

    def enter_If(self, node: cst.If) -> None:
        guard = self.compiling_guard(node.test)
        if guard is True and node.orelse is not None:
            self.escaped_nodes.add(id(node.orelse))
        elif guard is False:
            self.escaped_nodes.add(id(node.body))
        if self.scopes:
            self._flag_test_when(node.test)
            when = conditions(node.test, flag=self.local_flag) + self.caller_conditions(node.test)
            if when:
                self.branch_when[id(node.body)] = when
            if node.orelse is not None and isinstance(node.orelse, cst.Else):
                other = conditions(node.test, True, self.local_flag) + self.caller_conditions(node.test, negated=True)
                if other:
                    self.branch_when[id(node.orelse)] = other
            elif isinstance(node.orelse, cst.If):  # an `elif` runs only when the test failed: what the caller decides
                self._also_when(node.orelse, self.caller_conditions(node.test, negated=True))
            if _ends_in_raise(node.body):
                self.branch_when[id(node.body)] = self.branch_when.get(id(node.body), ()) + (ON_ERROR,)

    def _flag_test_when(self, test: cst.BaseExpression) -> None:
        """`if is_new_x:` with `is_new_x = self.default_x is None or (x != self.default_x).any()`
        bound once (sbi's `leakage_correction`): the flag is the tensor only when the left side
        is false (`or`) or true (`and`), as an inline right side runs."""
        value = self.local_flag(test.value) if isinstance(test, cst.Name) else None
        if isinstance(value, cst.BooleanOperation):
            negated = isinstance(value.operator, cst.Or)
            self._also_when(test, conditions(value.left, negated, self.local_flag)
                            + self.caller_conditions(value.left, negated=negated))

    def enter_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        """`if is_compiling(): ... return` leaves the function under compile: what follows
        it in the block runs only eagerly."""
        if not self.scopes:
            return
        for number, statement in enumerate(node.body):
            if isinstance(statement, cst.If) and statement.orelse is None and ends_in(statement.body, cst.Return):
                if self.compiling_guard(statement.test) is True:
                    self.escaped_nodes.update(id(rest) for rest in node.body[number + 1:])
                    return
                # `if num_nodes is not None: return num_nodes`: the rest runs only when the caller left it None
                if when := self.caller_conditions(statement.test, negated=True):
                    for rest in node.body[number + 1:]:
                        if not isinstance(rest, (cst.FunctionDef, cst.ClassDef)):  # (their bodies run later)
                            self._also_when(rest, when)

    def _also_when(self, node: cst.CSTNode, when: tuple[str, ...]) -> None:
        if when:
            self.branch_when[id(node)] = self.branch_when.get(id(node), ()) + when

    def enter_For(self, node: cst.For) -> None:
        # `for w in self.wrappers.values():` over a container the class may leave empty
        # (`self.wrappers = dict()`, filled only for some configurations): the body runs
        # only when it is not (a probe run judges it)
        if not self.scopes or self.scopes[-1].class_name is None:
            return
        iterable = node.iter
        if isinstance(iterable, cst.Call) and not iterable.args and isinstance(iterable.func, cst.Attribute) \
                and iterable.func.attr.value in ("values", "items", "keys"):
            iterable = iterable.func.value
        info = self.class_table.get(self.scopes[-1].class_name)
        if isinstance(iterable, cst.Attribute) and dotted(iterable.value) == "self" and info is not None \
                and iterable.attr.value in info.empty_attrs:
            label = f"set:self.{iterable.attr.value}"
            self.branch_when[id(node.body)] = self.branch_when.get(id(node.body), ()) + (label,)

    def enter_Try(self, node: cst.Try) -> None:
        if self.scopes:
            for handler in node.handlers:
                self.branch_when[id(handler.body)] = (ON_ERROR,)

    def enter_Raise(self, node: cst.Raise) -> None:
        if self.scopes and node.exc is not None:
            self.branch_when[id(node.exc)] = (ON_ERROR,)

    def enter_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        # `i in checks and not bool(m.any())` with `checks` empty under compile: b never runs
        held = self.compiling_guard(node.left) if self.scopes else None
        if held is not None and held == isinstance(node.operator, cst.Or):
            self.escaped_nodes.add(id(node.right))
        # `a and b`: b runs only when a holds (`dtype == float16 and not isfinite(h).all()`);
        # `a or b` only when a does not (`self.interpolation_mode or torch.equal(x, grid)`)
        if self.scopes and isinstance(node.operator, cst.And):
            when = conditions(node.left, flag=self.local_flag) + self.caller_conditions(node.left)
            if when:
                self.branch_when[id(node.right)] = when
        elif self.scopes:
            # (`max_fpr is None or fpr.sum() == 0`: the right side runs when the caller passes `max_fpr`)
            when = conditions(node.left, True, self.local_flag) + self.caller_conditions(node.left, negated=True)
            if when:
                self.branch_when[id(node.right)] = when

    def local_flag(self, name: str) -> cst.BaseExpression | None:
        """What a local flag of the current function stands for (`if should_drop:` with
        `should_drop = self.training and self.p > 0` bound once): semantic.local_flags,
        worked out the first time a test names one."""
        scope = self.scopes[-1]
        if not isinstance(scope.node, cst.FunctionDef) or name in scope.params:  # (most: `if use_cache:`)
            return None
        flags = self._flags.get(id(scope.node))
        if flags is None:
            flags = self._flags[id(scope.node)] = local_flags(scope.node)
        return flags.get(name)

    def optional_local(self, name: str) -> bool:
        """Whether the current function binds local `name`, somewhere, to what may be None."""
        scope = self.scopes[-1]
        if not isinstance(scope.node, cst.FunctionDef):
            return False
        names = self._optional.get(id(scope.node))
        if names is None:
            names = self._optional[id(scope.node)] = optional_locals(scope.node)
        return name in names

    def self_stores(self, fn: cst.FunctionDef) -> frozenset[str]:
        """semantic.local_flags.self_stores, once per function and file."""
        stored = self._self_stores.get(id(fn))
        if stored is None:
            stored = self._self_stores[id(fn)] = self_stores(fn)
        return stored

    def caller_conditions(self, test: cst.BaseExpression, negated: bool = False) -> tuple[str, ...]:
        """`given:` labels: what the caller must pass for the branch to run (semantic.facts).
        The function's summary then keeps its positional parameters, to map call sites."""
        if not self.scopes:
            return ()  # module level: no caller decides
        scope = self.scopes[-1]
        facts = facts_of(scope)
        if facts is None or not facts.relevant:
            return ()
        labels = facts.labels(test, negated)
        if labels:
            self._keep_params(scope)  # (semantic.calls: the project maps call sites onto them)
        return labels

    def guessed_parameter(self, node: cst.CSTNode) -> tuple[str, ...]:
        """`given:NAME@guess` when the only names in `node` the walk takes for tensors are one
        parameter it only guesses is one (a forward's input, no annotation) and the body never
        rebinds: `if mask == 0:` with `block(mask=1, ...)` at every call (pykt's AKT)."""
        scope = self.scopes[-1]
        names = {n.value for n in iter_nodes(node) if type(n) is cst.Name}
        tensors = [name for name in names if scope.env.get(name) in (Kind.TENSOR, Kind.LIKELY)]
        facts = facts_of(scope)
        if len(tensors) != 1 or tensors[0] not in scope.params or scope.env[tensors[0]] != Kind.LIKELY \
                or tensors[0] in scope.declared or facts is None or facts.rebound(tensors[0]):
            return ()
        self._keep_params(scope)
        return (f"given:{tensors[0]}{GUESSED}",)

    def enter_IfExp(self, node: cst.IfExp) -> None:
        guard = self.compiling_guard(node.test)
        if guard is True:
            self.escaped_nodes.add(id(node.orelse))
        elif guard is False:
            self.escaped_nodes.add(id(node.body))
        if self.scopes:
            # (`bool(signed.item()) if isinstance(signed, Tensor) else signed`: the caller decides)
            when = conditions(node.test, flag=self.local_flag) + self.caller_conditions(node.test)
            if when:
                self.branch_when[id(node.body)] = when
            if other := self.caller_conditions(node.test, negated=True):
                self.branch_when[id(node.orelse)] = other

    @property
    def when(self) -> tuple[str, ...]:
        """The modes the current line needs to run (outermost first, each once)."""
        out: list[str] = []
        for labels in self.when_stack:
            out.extend(label for label in labels if label not in out)
        return tuple(out)


def _ends_in_raise(body: cst.BaseSuite) -> bool:
    return ends_in(body, cst.Raise)


def ends_in(body: cst.BaseSuite, kind: type) -> bool:
    """Whether the block's last statement is a `return` / `raise` (`kind`), or `return`
    also takes a `raise`: either way control does not fall through."""
    kinds = (kind, cst.Raise) if kind is cst.Return else kind
    statements = body.body
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1]
    return isinstance(last, kinds)  # (a one-line `if c: return x` holds the small statement itself)
