"""Helpers shared by the rules about call sites of compiled code (CL206-CL208, CL302-CL304)
and the dynamic-shape rules: what a loop binds and changes, what names an expression
uses, whether a callee is compiled. Not a rule module (the registry loads `cl*.py` only).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

import libcst as cst

from compilelint import config as config_mod
from compilelint.semantic.bindings import target_names
from compilelint.semantic.kinds import dotted
from compilelint.traverse import iter_nodes

if TYPE_CHECKING:
    from compilelint.semantic.walker import Walker

COMPILE = "torch.compile"
CAPTURE_FLAG = "capture_dynamic_output_shape_ops"
# Names people give the object torch.compile returned (`compiled`, `compiled_model`,
# `model_compiled`, `opt_model` as in the PyTorch tutorials).
COMPILED_NAME = re.compile(r"^(compiled|compiled_\w+|\w+_compiled|opt_\w+)$")


def target_version(ctx: "Walker") -> tuple[int, int]:
    return config_mod.torch_version(ctx.settings)


def names_in(node: cst.CSTNode | None) -> set[str]:
    """Every bare name an expression uses (attribute names and keywords excluded; not
    looking into lambdas)."""
    if node is None:
        return set()
    if isinstance(node, cst.Name):
        return {node.value}
    out: set[str] = set()
    skip: set[int] = set()
    for sub in iter_nodes(node, prune=lambda n: isinstance(n, (cst.Lambda, cst.FunctionDef))):
        if isinstance(sub, cst.Attribute):
            skip.add(id(sub.attr))
        elif isinstance(sub, (cst.Arg, cst.Param)) and getattr(sub, "keyword", None) is not None:
            skip.add(id(sub.keyword))
        elif isinstance(sub, cst.Name) and id(sub) not in skip:
            out.add(sub.value)
    return out


def loop_targets(loop: cst.CSTNode) -> list[str]:
    return target_names(loop.target) if isinstance(loop, cst.For) else []


_ASSIGNED: dict[int, dict[str, list[cst.CSTNode]]] = {}


def assignments_in(loop: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    """Names (re)bound in a loop's body -> the statements binding them (nested defs and
    classes excluded). Cached per loop node for the walk."""
    key = id(loop)
    cached = _ASSIGNED.get(key)
    if cached is not None and cached.get("\0node") == [loop]:
        return cached
    out: dict[str, list[cst.CSTNode]] = {"\0node": [loop]}
    body = loop.body
    for sub in iter_nodes(body, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda))):
        if isinstance(sub, cst.Assign):
            for target in sub.targets:
                for name in target_names(target.target):
                    out.setdefault(name, []).append(sub)
        elif isinstance(sub, (cst.AugAssign, cst.AnnAssign)):
            for name in target_names(sub.target):
                out.setdefault(name, []).append(sub)
        elif isinstance(sub, cst.For):
            for name in target_names(sub.target):
                out.setdefault(name, []).append(sub)
        elif isinstance(sub, cst.NamedExpr):
            for name in target_names(sub.target):
                out.setdefault(name, []).append(sub)
        elif isinstance(sub, cst.WithItem) and sub.asname is not None:
            for name in target_names(sub.asname.name):
                out.setdefault(name, []).append(sub)
    if len(_ASSIGNED) > 256:
        _ASSIGNED.clear()
    _ASSIGNED[key] = out
    return out


def loop_varying(loop: cst.CSTNode, exclude: cst.CSTNode | None = None) -> set[str]:
    """Names that may hold a different value on each iteration: the loop's targets and
    the names bound in its body (leaving out bindings made by the statement `exclude`)."""
    names = set(loop_targets(loop))
    for name, stmts in assignments_in(loop).items():
        if name == "\0node":
            continue
        if exclude is not None and all(stmt is exclude for stmt in stmts):
            continue
        names.add(name)
    return names


def calls_in(node: cst.CSTNode, callee: str) -> list[cst.Call]:
    """Calls in `node` whose callee is the dotted name `callee` (`f`, `self.model`)."""
    return [sub for sub in iter_nodes(node, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef)))
            if isinstance(sub, cst.Call) and dotted(sub.func) == callee]


def is_compile_call(ctx: "Walker", node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and ctx.qualify(node.func) == COMPILE


def compiled_options(ctx: "Walker", func: cst.BaseExpression) -> dict[str, str] | None:
    """torch.compile's keyword arguments if calling `func` runs compiled code, else None:
    what the walker knows (names bound to torch.compile(...), `.compile()`d objects,
    @torch.compile functions), `torch.compile(f)` itself, or a name that says it
    (`compiled_model`, `opt_model`)."""
    if isinstance(func, cst.Call) and ctx.qualify(func.func) == COMPILE:
        from compilelint.semantic.compiled import compile_kwargs

        return compile_kwargs(func)
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    options = ctx.compiled_callable(func)
    if options is not None:
        return options
    last = func.value if isinstance(func, cst.Name) else func.attr.value
    if _compiled_name(last):
        name = dotted(func)
        if name and not ctx.is_import(name.split(".")[0]):
            return {}
    return None


@lru_cache(maxsize=4096)
def _compiled_name(name: str) -> bool:
    return COMPILED_NAME.match(name) is not None


def keyword_value(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """The argument passed as `keyword`."""
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)


def arg_value(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The argument at `position` (positional) or passed as `keyword`."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    value = keyword_value(call, keyword)
    if value is not None:
        return value
    if position < len(positional):
        return positional[position].value
    return None


def has_keyword(call: cst.Call, keyword: str) -> bool:
    return any(a.keyword is not None and a.keyword.value == keyword for a in call.args)


def has_star_kwargs(call: cst.Call) -> bool:
    return any(a.star == "**" for a in call.args)


class NdarrayNames:
    """Names bound to numpy arrays (`a = x.numpy()`, `a = np.abs(...)`), per scope: graph
    breaks on arrays belong to CL105 (numpy), not to the tensor rules."""

    def __init__(self, ctx: "Walker") -> None:
        self.ctx = ctx
        self._names: dict[str, set[str]] = {}

    def _scope(self) -> str:
        return self.ctx.function.qualname if self.ctx.function else "<module>"

    def is_array(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return node.value in self._names.get(self._scope(), ())
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "numpy":
                return True
            qualified = self.ctx.qualify(func) or ""
            return qualified.startswith("numpy.")
        if isinstance(node, (cst.Subscript, cst.Attribute)) and isinstance(node.value, cst.BaseExpression):
            return self.is_array(node.value)
        return False

    def assign(self, node: cst.Assign) -> None:
        array = isinstance(node.value, (cst.Call, cst.Name, cst.Subscript, cst.Attribute)) and self.is_array(node.value)
        names = self._names.get(self._scope())
        if names is None:
            if not array:
                return
            names = self._names.setdefault(self._scope(), set())
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                (names.add if array else names.discard)(target.target.value)


_EMPTY = cst.Module(body=[])


def source(node: cst.CSTNode, limit: int = 40) -> str:
    """The code of a (small) node, shortened to `limit` characters."""
    text = " ".join(_EMPTY.code_for_node(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def captures_dynamic_output_shapes(module: cst.Module) -> bool:
    """`torch._dynamo.config.capture_dynamic_output_shape_ops = True` at the top of the file."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(
                        (dotted(t.target) or "").endswith(CAPTURE_FLAG) for t in small.targets) \
                        and isinstance(small.value, cst.Name) and small.value.value == "True":
                    return True
    return False


def dotted_names_in(node: cst.CSTNode) -> set[str]:
    """Dotted names read in `node` (`self.model` gives `self` and `self.model`)."""
    out: set[str] = set()
    for sub in iter_nodes(node):
        if isinstance(sub, cst.Name):
            out.add(sub.value)
        elif isinstance(sub, cst.Attribute):
            name = dotted(sub)
            if name:
                out.add(name)
    return out



def mapped_builtin(node: cst.Call, qualify) -> tuple[str, cst.BaseExpression] | None:
    """(`int`, `xs`) for `map(int, xs)`: a builtin applied to each element of one iterable
    (CL102 and CL105 report the casts among them on tensors and arrays)."""
    if (qualify(node.func) or "") != "builtins.map" or len(node.args) != 2 \
            or any(a.keyword or a.star for a in node.args):
        return None
    name = qualify(node.args[0].value) or ""
    return (name[len("builtins."):], node.args[1].value) if name.startswith("builtins.") else None
