"""What is compiled: names bound to `torch.compile(...)`, modules compiled in place, and
the compile roots a file contributes to the project index."""

from __future__ import annotations

import libcst as cst

from compilelint import traverse
from compilelint.semantic.kinds import dotted
from compilelint.summary import CompileTarget

COMPILE_NAMES = frozenset({"torch.compile"})
# Dynamo skips the function: calling it from compiled code breaks the graph (GB0098, CL140)
SKIP_NAMES = frozenset({"torch.compiler.disable", "torch._dynamo.disable", "torch._disable_dynamo"})
# ... or does not trace its body, one node in the graph
DISABLE_NAMES = SKIP_NAMES | frozenset({
    "torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph", "torch._dynamo.assume_constant_result",
    "torch.compiler.assume_constant_result",
    # a custom operator is one opaque op in the graph: Dynamo calls its fake kernel, never its body
    "torch.library.custom_op", "torch._library.custom_ops.custom_op",
})
# what a model's sampling / generation entry points are decorated with (an API entry point)
INFERENCE_DECORATORS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.grad_mode.no_grad",
                                  "torch.autograd.grad_mode.inference_mode"})
# pydantic's validator decorators: pydantic-core (C) calls the method when the model is built, so
# Dynamo cannot inline it and compiles it as a frame of its own (index_validators)
VALIDATOR_DECORATORS = frozenset({
    f"{module}.{name}" for module in ("pydantic", "pydantic.functional_validators", "pydantic.class_validators",
                                      "pydantic.v1", "pydantic.v1.class_validators")
    for name in ("field_validator", "model_validator", "validator", "root_validator")})


def is_validator(node: cst.FunctionDef, qualify) -> bool:
    """Decorated with one of pydantic's validator decorators (`VALIDATOR_DECORATORS`), and a frame
    Dynamo compiles: not a `mode="after"` model validator that names nothing of torch or NumPy,
    as it is handed only the model, and a frame with no tensor among its arguments (a dict's
    values count, an object's attributes do not) and no torch or NumPy module among its globals
    is not compiled (measured on 2.13.0 and 2.14.1: `check_range` in `cf_pydantic_validator_01`).
    A field validator is handed the field's value, after or before: compiled."""
    for deco in node.decorators:
        call = deco.decorator if isinstance(deco.decorator, cst.Call) else None
        qualified = qualify(call.func if call else deco.decorator)
        if qualified not in VALIDATOR_DECORATORS:
            continue
        after = call is not None and qualified.endswith(".model_validator") and any(
            arg.keyword is not None and arg.keyword.value == "mode"
            and isinstance(arg.value, cst.SimpleString) and arg.value.evaluated_value == "after" for arg in call.args)
        return not after or any(isinstance(sub, cst.Name) and (qualify(sub) or "").split(".")[0] in ("torch", "numpy")
                                for sub in traverse.iter_nodes(node.body))
    return False


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


class CompileTracking:
    """Walker part: compiled names and compile roots."""

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
        if state is None and isinstance(node, cst.Name) and not self.locally_bound(node.value):
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

    def compiled_target(self, node: cst.Call) -> cst.BaseExpression | None:
        """What a call compiles: the first argument of `torch.compile(model)`, the receiver of
        `model.compile()` (not `re.compile`'s); None for any other call."""
        qualified = self.qualify(node.func)
        if qualified in COMPILE_NAMES:
            return node.args[0].value if node.args else None
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "compile" \
                and not (qualified or "").startswith(("builtins.", "re.", "regex.")) \
                and dotted(node.func.value) not in ("re", "regex") and not node.args:
            return node.func.value
        return None

    def enter_Call(self, node: cst.Call) -> None:
        target = self.compiled_target(node)
        if target is not None:
            self._compile_root(target)

    def _compile_root(self, target: cst.BaseExpression) -> None:
        scope = self.scopes[-1].qualname if self.scopes else ""
        if isinstance(target, cst.Name):
            cls = self._built_as(target.value)
            if cls:
                self.compile_targets.append(CompileTarget("class", cls))
            else:
                self.compile_targets.append(CompileTarget("name", target.value, scope))
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            cls = self.function.class_name if self.function else None
            if cls:
                self.compile_targets.append(CompileTarget("method", cls, method=target.attr.value))
        elif isinstance(target, cst.Call):
            ref = self.qualify(target.func) or dotted(target.func)
            if ref:
                self.compile_targets.append(CompileTarget("class", ref))
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                and (cls := self._built_as(target.value.value)):
            # `torch.compile(solver.solve)`: the bound method of an object of a known class
            self.compile_targets.append(CompileTarget("objmethod", cls, method=target.attr.value))

    def _built_as(self, name: str) -> str | None:
        """The class a local (else a module-level) name was built as."""
        var_class = self.scopes[-1].var_class if self.scopes else self.module_var_class
        return var_class.get(name) or self.module_var_class.get(name)

    def exit_Assign(self, node: cst.Assign) -> None:
        compiled = isinstance(node.value, cst.Call) and self.qualify(node.value.func) in COMPILE_NAMES
        options = compile_kwargs(node.value) if compiled else None
        for target in node.targets:
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


def marks_constant(func: cst.FunctionDef) -> bool:
    """A decorator that does what `torch._dynamo.assume_constant_result` does: it sets
    `fn._dynamo_marked_constant = True` (transformers' `_make_compile_constant`), so Dynamo
    calls the function while tracing and keeps its result: its body never runs compiled."""
    stack: list[cst.CSTNode] = [func.body]
    while stack:
        node = stack.pop()
        stack.extend(traverse.children(node, traverse.TRIVIA))
        if isinstance(node, cst.Call) and dotted(node.func) == "setattr" and len(node.args) >= 2 \
                and isinstance(node.args[1].value, cst.SimpleString) \
                and node.args[1].value.evaluated_value == "_dynamo_marked_constant":
            return True
        if isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Attribute) \
                and node.target.attr.value == "_dynamo_marked_constant":
            return True
    return False
