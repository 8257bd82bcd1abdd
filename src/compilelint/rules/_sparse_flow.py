"""The walk behind rules._sparse: one function's statements in order — what is sparse
where, its first uses of a sparse value, whether it looks at a parameter it is given."""

from __future__ import annotations

import libcst as cst

from compilelint.rules._callsite import names_in
from compilelint.rules._sparse_model import FileSparse, Labels, Pass, Use
from compilelint.rules._sparse_terms import (
    BUILDERS, KEEPS_SPARSE, LOOKS_ONLY, OPERAND, SPARSE_OF_SPARSE, SPARSE_ONLY, TO_SPARSE, UNKNOWN, as_list,
    bound_names, converts, has_holder, negate, param_for, param_names, target_name, tests_sparsity,
)
from compilelint.semantic.guards import conditions, ends_in
from compilelint.semantic.kinds import dotted, is_self_attribute
from compilelint.traverse import TRIVIA, children

class Flow:
    """One walk of one function's statements in order: what is sparse where, and (report)
    the first uses, or (only=param) whether and when the function uses `param`."""

    def __init__(self, model: FileSparse, qualname: str, qualify, *, report: bool, only: str | None = None):
        self.model, self.qualname, self.qualify = model, qualname, qualify
        self.fn = model.functions[qualname]
        self.cls = model.owner[qualname]
        self.report, self.only = report, only
        self.guards: list[Labels] = []  # conditions of the `if`s around the statement
        self.returned: Labels = ()  # `if C: return x` before a use: the use needs `not C`
        self.rest: list[list] = []  # per block around the statement walked: the statements after it
        # inside `if is_sparse(x):`: what the branch makes sparse was sparse on entry, which the
        # caller decides (torch_geometric's `set_sparse_value(edge_index, w)` for a sparse
        # `edge_index` only), so it binds nothing new
        self.sparsity_tests = 0
        self.built: set[str] = set()  # locals bound to a sparse tensor a call built (`_built`)
        # locals bound to functions of the file, in any branch (`kron = sparse_kron if fully_sparse
        # else _dense_kron`, ptwt): calling one returns what any of them may
        self.aliases: dict[str, set[str]] = {}
        self.consumed: Labels | None = None

    def run(self) -> Labels | None:
        params = self.model.params.get(self.qualname, {})
        env = {p: labels for p, labels in params.items() if self.only in (None, p)}
        self._block(self.fn.body, env, False)
        return self.consumed

    # ---- what is sparse ------------------------------------------------------------------

    def sparse(self, expr: cst.BaseExpression, env: dict) -> Labels | None:
        if isinstance(expr, cst.Name):
            return env.get(expr.value)
        if is_self_attribute(expr) and self.cls:
            return next((table[expr.attr.value] for c in self.lineage()
                         if expr.attr.value in (table := self.model.attrs.get(c, {}))), None)
        if not isinstance(expr, cst.Call):
            return None
        func = expr.func
        if isinstance(func, cst.Attribute):
            if func.attr.value in TO_SPARSE:
                return ()
            if func.attr.value in KEEPS_SPARSE:
                return self.sparse(func.value, env)
        qualified = self.qualify(func) or ""
        if qualified in BUILDERS:
            return ()
        if qualified in SPARSE_OF_SPARSE:
            return self._all_sparse(expr, qualified, env)
        if isinstance(func, cst.Name) and func.value in self.model.imported:
            return ()
        callee = self.callee(func)
        if callee is None:
            callee = next((q for q in sorted(self._picked(func)) if q in self.model.returns), None)
        return () if callee in self.model.returns and not callee.endswith(".__init__") else None

    def _picked(self, func: cst.BaseExpression) -> set[str]:
        """The file's functions a local a call runs may be (`kron(a, b)`, `kron = sparse_kron if
        fully_sparse else _dense_kron`)."""
        return self.aliases.get(func.value, set()) if isinstance(func, cst.Name) else set()

    def _all_sparse(self, call: cst.Call, qualified: str, env: dict) -> Labels | None:
        """The labels under which every operand of a product or a join is sparse, if all are."""
        args = [a.value for a in call.args if a.keyword is None]
        if qualified.endswith("mm"):
            operands = args[:2] if len(args) >= 2 else []
        else:
            first = args[0] if args else None
            operands = [e.value for e in first.elements] if isinstance(first, (cst.List, cst.Tuple)) else []
        out: Labels = ()
        for operand in operands:
            labels = self.sparse(operand, env)
            if labels is None:
                return None
            out += tuple(label for label in labels if label not in out)
        return out if operands else None

    def callee(self, func: cst.BaseExpression) -> str | None:
        """The file's function a call runs: `f(...)`, `self.m(...)`, `self.sub(...)` (its forward)."""
        if isinstance(func, cst.Name) and self.model.owner.get(func.value) == "":
            return func.value
        if is_self_attribute(func) and self.cls:
            name = func.attr.value
            for cls in self.lineage():
                if f"{cls}.{name}" in self.model.functions:
                    return f"{cls}.{name}"
            built = next((m[name] for c in self.lineage() if name in (m := self.model.members.get(c, {}))), None)
            if built and f"{built}.forward" in self.model.functions:
                return f"{built}.forward"
        return None

    def lineage(self) -> list[str]:
        """The class and its bases of the file, nearest first."""
        out, queue = [], [self.cls]
        while queue and len(out) < 16:
            cls = queue.pop(0)
            if cls not in out:
                out.append(cls)
                queue.extend(self.model.bases.get(cls, ()))
        return out

    # ---- the walk ------------------------------------------------------------------------

    def _block(self, suite, env: dict, used):
        body = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
        for index, stmt in enumerate(body):
            self.rest.append(body[index + 1:])
            used = self._statement(stmt, env, used)
            self.rest.pop()
        return used

    def _statement(self, stmt, env: dict, used):
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in stmt.body:
                used = self._small(small, env, used)
            return used
        if isinstance(stmt, cst.If):
            used = self._expr(stmt.test, env, used)
            labels = conditions(stmt.test)
            sparsity = tests_sparsity(stmt.test)
            self.sparsity_tests += sparsity
            if_env, else_env = dict(env), dict(env)
            returns_it = self._returns_holder(stmt.body, env)
            self.guards.append(labels)
            body_used = self._block(stmt.body, if_env, used)
            self.guards.pop()
            else_used = used
            if stmt.orelse is not None:
                self.guards.append(conditions(stmt.test, negated=True))
                orelse = stmt.orelse
                else_used = self._statement(orelse, else_env, used) if isinstance(orelse, cst.If) \
                    else self._block(orelse.body, else_env, used)
                self.guards.pop()
            self.sparsity_tests -= sparsity
            ends = ends_in(stmt.body, cst.Return)
            if ends and returns_it and not used:
                self.returned += conditions(stmt.test, negated=True)
            for e in (if_env, else_env):
                for name, labels in e.items():
                    env.setdefault(name, labels)
            if ends:
                return else_used
            return used or (body_used and else_used)
        if isinstance(stmt, (cst.For, cst.While)):
            head = stmt.test if isinstance(stmt, cst.While) else stmt.iter
            if not (isinstance(stmt, cst.For) and (isinstance(head, cst.Name) or is_self_attribute(head))):
                used = self._expr(head, env, used)
            return self._block(stmt.body, env, used)
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                used = self._expr(item.item, env, used)
            return self._block(stmt.body, env, used)
        if isinstance(stmt, cst.Try):
            return self._block(stmt.body, env, used)
        return used

    def _returns_holder(self, suite, env: dict) -> bool:
        body = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]  # (`if c: return x` on one line too)
        if len(body) != 1 or not isinstance(body[0], (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return False
        small = body[0].body[0]
        return isinstance(small, cst.Return) and small.value is not None and self.sparse(small.value, env) is not None \
            and not isinstance(small.value, cst.Call)

    def _small(self, small, env: dict, used):
        used = self._held_across(small, env, used)
        if isinstance(small, cst.Return):
            if small.value is None:
                return used
            labels = self.sparse(small.value, env)
            if labels is not None and not self.report and self.only is None:
                self.model.returns.add(self.qualname)
                if self._built(small.value):
                    self.model.builds.add(self.qualname)
            if labels is not None and not isinstance(small.value, cst.Call):
                if self.only is None:
                    return self._use(small, "returns it", labels, used, holder=small.value)
                return used  # returned as it is: the caller decides
            if isinstance(small.value, (cst.Tuple, cst.List)) and self.only is None:
                for element in small.value.elements:  # `return out, adj`: the tuple hands it out as well
                    labels = self.sparse(element.value, env)
                    if labels is not None and not isinstance(element.value, cst.Call):
                        used = self._expr(small.value, env, used)
                        return self._use(small, "returns it", labels, used, holder=element.value)
            return self._expr(small.value, env, used)
        if isinstance(small, cst.Assign):
            used = self._expr(small.value, env, used, aliasing=True)
            for target in small.targets:
                self._bind(target.target, small.value, env)
            return used
        if isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            if small.value is not None:
                used = self._expr(small.value, env, used, aliasing=isinstance(small, cst.AnnAssign))
            if isinstance(small, cst.AnnAssign) and small.value is not None:
                self._bind(small.target, small.value, env)
            return used
        if isinstance(small, cst.Expr):
            call = small.value
            if isinstance(call, cst.Call) and is_self_attribute(call.func) and call.func.attr.value == "register_buffer" \
                    and len(call.args) >= 2 and isinstance(call.args[0].value, cst.SimpleString):
                self._bind(cst.Attribute(cst.Name("self"), cst.Name(call.args[0].value.raw_value)), call.args[1].value, env)
                return used  # `self.register_buffer("adj", sparse)`: an attribute like any other
            return self._expr(call, env, used)
        return used

    def _held_across(self, small, env: dict, used):
        """A statement that calls what builds and returns a sparse tensor (a builder, a function
        of the file or the package that returns one) breaks the graph in that call; Dynamo then
        hands the frame's live values to the code that resumes after it and cannot wrap a sparse
        one the frame still holds for later (measured on 2.13: GB0015 at this statement, not at
        the later use)."""
        if used is True or used == UNKNOWN:
            return used
        held = [name for name, labels in env.items() if labels == ()]
        call = self._breaking_call(small) if held else None
        if call is None:
            return used
        bound = bound_names(small)
        # a builder or conversion breaks right here, where CL119 reports it: the frame's use,
        # not one to report again (corpus kn_sparse_ctor_01, kn_to_sparse_01)
        direct = (self.qualify(call.func) or "") in BUILDERS or converts(call)
        for name in held:
            if name not in bound and any(name in names_in(stmt) for rest in self.rest for stmt in rest):
                what = f"calls `{dotted(call.func) or 'a function'}()`, which breaks the graph, while the frame holds it"
                return self._use(call, what, (), used, report=not direct, holder=cst.Name(name))
        return used

    def _breaking_call(self, small) -> cst.Call | None:
        stack = [small]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Lambda, cst.FunctionDef)):
                continue
            if isinstance(node, cst.Call) and (self._builds(node) or converts(node)):
                return node
            stack.extend(reversed(children(node, TRIVIA)))
        return None

    def _builds(self, call: cst.Call) -> bool:
        """A call that builds a sparse tensor, and so breaks the graph inside: a builder, or a
        function of the file or the package that returns one it builds. (One that hands back
        the sparse tensor it is given, or an attribute's, is inlined without a break.)"""
        func = call.func
        if (self.qualify(func) or "") in BUILDERS or isinstance(func, cst.Name) and func.value in self.model.imported:
            return True
        callee = self.callee(func)
        if callee is None:
            return any(q in self.model.builds for q in self._picked(func))
        return callee in self.model.builds and not callee.endswith(".__init__")

    def _built(self, expr) -> bool:
        """A sparse value a call built: a building call, a local bound to one, what keeps it
        (`.coalesce()`), a product or join of such values."""
        if isinstance(expr, cst.Name):
            return expr.value in self.built
        if not isinstance(expr, cst.Call):
            return False
        if self._builds(expr):
            return True
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value in KEEPS_SPARSE:
            return self._built(func.value)
        return (self.qualify(func) or "") in SPARSE_OF_SPARSE

    def _bind(self, target, value, env: dict) -> None:
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(value.elements):
            for t, v in zip(target.elements, value.elements):
                self._bind(t.value, v.value, env)
            return
        if isinstance(target, cst.Name):
            for named in (value.body, value.orelse) if isinstance(value, cst.IfExp) else (value,):
                if isinstance(named, cst.Name) and self.model.owner.get(named.value) == "":
                    self.aliases.setdefault(target.value, set()).add(named.value)
        labels = self.sparse(value, env)
        if labels is not None and self.sparsity_tests and target_name(target) not in env:
            return
        if isinstance(target, cst.Name):
            if labels is not None and self._built(value):
                self.built.add(target.value)
            else:
                self.built.discard(target.value)
            if labels is None:
                env.pop(target.value, None)
            else:
                env[target.value] = labels
        elif is_self_attribute(target) and labels is not None and self.cls and not self.report and self.only is None:
            table = self.model.attrs.setdefault(self.cls, {})
            table.setdefault(target.attr.value, self._when(labels))

    def _when(self, labels: Labels) -> Labels:
        out = tuple(labels)
        for guard in self.guards:
            out += tuple(g for g in guard if g not in out)
        return out

    def _expr(self, expr, env: dict, used, aliasing: bool = False):
        """Looks for uses in an expression, outermost first (libcst's order)."""
        if aliasing and (self.sparse(expr, env) is not None and not isinstance(expr, cst.Call)
                         or isinstance(expr, (cst.Tuple, cst.List)) and all(
                             self.sparse(e.value, env) is not None or not has_holder(e.value) for e in expr.elements)):
            return used  # `g = self.graph`, `u, v = self.u, self.v`: bound, not looked at
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Lambda, cst.FunctionDef)):
                continue
            if used and self.report and isinstance(node, cst.Call) and (self.qualify(node.func) or "") in OPERAND:
                other = negate(used) if used is not True else None
                if used == UNKNOWN:
                    pass  # whether the call before looked at it is another file's: CL119 still reports
                elif other is None:
                    self.model.shadowed.add(id(node))  # the frame broke before: it runs eagerly here
                else:
                    self.model.product_when[id(node)] = other  # it did only in the other mode
            found = self._use_at(node, env)
            if found is not None:
                what, labels, report, holder, cond = found
                used = self._use(node, what, labels, used, report=report, holder=holder, cond=cond)
                if used is True and self.only is not None:
                    return used
                continue
            children = [c for name in ("func", "args", "value", "left", "right", "elements", "test", "body",
                                       "orelse", "expression", "slice", "comparisons", "comparator", "elt", "key")
                        for c in as_list(getattr(node, name, None))]
            stack.extend(reversed(children))
        return used

    def _use_at(self, node, env: dict):
        """(what, labels, report, the sparse expression, the labels the use itself needs) when
        `node` makes Dynamo look at a sparse value."""
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute):
                labels = self.sparse(func.value, env)
                if labels is not None and not isinstance(func.value, cst.Call):
                    self._evidence(func.value, labels)
                    return f"calls `.{func.attr.value}()` on it", labels, True, func.value, ()
                if func.attr.value in SPARSE_ONLY and isinstance(func.value, cst.Name):
                    self._evidence(func.value, ())
            qualified = self.qualify(func) or ""
            position = OPERAND.get(qualified)
            if self.report and position is None and not qualified.startswith(("builtins.", "torch.")) \
                    and self.callee(func) is None:
                self._passes(node, env)
            if position is not None and len(node.args) > position and isinstance(node.args[position].value, cst.Name):
                self._evidence(node.args[position].value, ())
            for index, arg in enumerate(node.args):
                labels = self.sparse(arg.value, env)
                if labels is None or isinstance(arg.value, cst.Call):
                    continue
                if position is not None:
                    return "multiplies it", labels, False, arg.value, ()  # CL119 reports the sparse product
                name = dotted(func) or ""
                if qualified.startswith(("builtins.", "torch.")):
                    # a builtin or torch itself: it looks at the tensor (not `id()`)
                    what = f"tests it with `{name}()`" if name in ("isinstance", "hasattr", "type", "callable") \
                        else f"passes it to `{name}`"
                    return None if name in LOOKS_ONLY else (what, labels, True, arg.value, ())
                callee = self.callee(func)
                if callee is not None:
                    param = param_for(self.model.functions[callee], arg, index, callee)
                    if param is not None:
                        self._give(callee, param, labels)
                        consumed = self.model.consumes.get((callee, param), ())
                        if consumed is None:
                            continue  # the callee only returns it
                        return f"passes it to `{dotted(func)}`", labels + consumed, True, arg.value, consumed
                return f"passes it to `{dotted(func) or 'a call'}`", labels, True, arg.value, UNKNOWN
            return None
        if isinstance(node, cst.BinaryOperation):
            for side in (node.left, node.right):
                labels = self.sparse(side, env)
                if labels is not None and not isinstance(side, cst.Call):
                    return "computes with it", labels, True, side, ()
        if isinstance(node, cst.Attribute) and not is_self_attribute(node):
            labels = self.sparse(node.value, env)
            if labels is not None and not isinstance(node.value, cst.Call):
                return f"reads `.{node.attr.value}`", labels, True, node.value, ()
        if isinstance(node, cst.Subscript):
            labels = self.sparse(node.value, env)
            if labels is not None and not isinstance(node.value, cst.Call):
                return "indexes it", labels, True, node.value, ()
        return None

    def _passes(self, call: cst.Call, env: dict) -> None:
        """Where a call of another file's function hands it a sparse value (even `t.to(dev)`)."""
        keys = tuple(arg.keyword.value if arg.keyword is not None else i for i, arg in enumerate(call.args)
                     if not arg.star and self.sparse(arg.value, env) is not None)
        if keys:
            self.model.passes[id(call)] = Pass(call, self.qualname, keys)

    def _evidence(self, name: cst.BaseExpression, labels: Labels) -> None:
        """`x._values()`, `torch.sparse.mm(x, w)` on a parameter: the parameter is sparse."""
        if self.report or self.only is not None or not isinstance(name, cst.Name) or self.sparsity_tests:
            return  # (under `if x.is_sparse:` it shows what the branch does with a sparse input, not that one comes)
        if name.value in param_names(self.fn):
            self.model.params.setdefault(self.qualname, {}).setdefault(name.value, self._when(labels))

    def _give(self, callee: str, param: str, labels: Labels) -> None:
        """A call in the file passes a sparse value for `param`."""
        if self.report or self.only is not None:
            return
        same = self.model.owner.get(callee) == self.cls
        self.model.params.setdefault(callee, {}).setdefault(param, self._when(labels) if same else ())

    def _use(self, node, what: str, labels: Labels, used, report: bool = True, holder=None, cond: Labels = ()):
        """`used`: False, True, or the labels under which the frame already broke (a call
        whose callee looks at the value only in training): a later use then counts in the
        other mode only, where that has one label to negate."""
        if used is True or used == UNKNOWN:
            return used
        extra: Labels = ()
        if used:
            extra = negate(used)
            if extra is None:
                return True
        if self.only is not None:  # a later use in the other mode: looked at in both
            self.consumed = self.returned + tuple(c for c in cond if c not in UNKNOWN) if self.consumed is None else ()
        elif self.report and report:
            self.model.uses[id(node)] = Use(node, self.qualname, what, dotted(holder) or "it",
                                            tuple(c for c in labels if c not in UNKNOWN) + self.returned + extra,
                                            self._when(()))
        return True if used or not cond else tuple(cond)

