"""Walks over a module tree that holds an RNN module (CL119's helper). Dynamo refuses to wrap
`nn.LSTM`/`GRU`/`RNN` (GB0014), and a walk touches every submodule: `self.eval()`,
`self.train()`, `self.modules()`, `self.children()`, `self.parameters()` iterated,
`self.apply(fn)`, `self.to(dtype)`, `self.zero_grad()`, `self.requires_grad_()` break where
they are made when the module holds one (measured on 2.13.0 and 2.14.1, also one level
down: `self.memory.eval()` with `self.memory` a module of this file holding a GRU). So does
`next(self.parameters())`, the device idiom, but only when the first parameter is the RNN's:
`parameters()` yields the module's own first, then each child's in the order `__init__`
assigned them; a `Linear` first is read and the walk stops there."""

from __future__ import annotations

import libcst as cst

from compilelint.rules._module_classes import library_base, self_attribute_class
from compilelint.rules._rnn_reads import refused
from compilelint.semantic.kinds import dotted
from compilelint.traverse import TRIVIA, children

WALKS = frozenset({"eval", "train", "modules", "named_modules", "children", "named_children", "parameters",
                   "named_parameters", "buffers", "named_buffers", "apply", "to", "zero_grad", "requires_grad_"})
PARAMETERS = frozenset({"parameters", "named_parameters"})
# torch.nn modules with no parameters: one assigned before the RNN leaves it the first holder
PARAMETERLESS = frozenset(f"torch.nn.{name}" for name in (
    "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "Identity", "Flatten", "Unflatten",
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid", "Softplus",
    "Softmax", "LogSoftmax", "Hardtanh", "Hardswish", "Hardsigmoid", "MaxPool1d", "MaxPool2d", "AvgPool1d",
    "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"))
_DEPTH = 3  # classes of this file followed into (`self.memory` holding `self.rnn`)


class RnnHolders:
    """The file's module classes that hold an RNN module, and those whose first parameter is
    an RNN's, read once from the classes' `__init__` bodies."""

    def __init__(self, module: cst.Module | None = None, text: str = "") -> None:
        self._inits: dict[str, cst.FunctionDef] = {}
        if not any(name in text for name in ("LSTM", "GRU", "RNN")):
            module = None  # (a file that names no RNN class holds none: nothing to read)
        self.to_next: set[int] = set()  # `self.parameters()` calls handed to `next`: not walks
        self._assigned: dict[str, dict[str, list]] = {}  # class -> attribute -> what `__init__` assigns it
        for stmt in module.body if module is not None else ():
            if isinstance(stmt, cst.ClassDef):
                init = next((s for s in stmt.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"),
                            None)
                if init is not None:
                    self._inits[stmt.name.value] = init

    def held(self, ctx, known, cls: str | None, depth: int = 0) -> tuple[str, str] | None:
        """(path, RNN class): `self.<path>` (`memory.rnn`) is how class `cls` holds an RNN module."""
        info = ctx.class_table.get(cls) if cls else None
        if info is None or depth > _DEPTH:
            return None
        for attr in info.attr_classes:
            held = self_attribute_class(ctx, known, cls, attr)
            if held is None:
                continue
            if refused(known.get(rnn := library_base(ctx, known, held))):
                return attr, rnn
            inner = ctx.local_class(held)
            if inner and inner != cls and (found := self.held(ctx, known, inner, depth + 1)):
                return f"{attr}.{found[0]}", found[1]
        return None

    def optional(self, ctx, known, cls: str | None, attr: str) -> str | None:
        """The RNN class `self.<attr>` holds when `__init__` sets it: every assignment of it there
        is `None` or builds that class (`self.lstm_critic = None`, then under an `if`,
        `self.lstm_critic = nn.LSTM(...)`); None otherwise."""
        init = self._inits.get(cls or "")
        if init is None:
            return None
        if cls not in self._assigned:  # one walk of `__init__` per class, not one per read
            self._assigned[cls] = _self_assignments(init.body.body)
        built, values = set(), list(self._assigned[cls].get(attr, ()))
        for node in values:
            if isinstance(node, cst.IfExp):  # `nn.LSTM(...) if critic else None`
                values.extend((node.body, node.orelse))
                continue
            if isinstance(node, cst.Name) and node.value == "None":
                continue
            if not isinstance(node, cst.Call):
                return None
            built.add(library_base(ctx, known, ctx.qualify(node.func)))
        return built.pop() if len(built) == 1 and refused(known.get(next(iter(built)))) else None

    def first_holder(self, ctx, known, cls: str | None) -> str | None:
        """The attribute whose module holds the class's first parameter, when it is an RNN:
        `__init__` builds it before any parameter of its own or another module with some."""
        init = self._inits.get(cls or "")
        info = ctx.class_table.get(cls) if cls else None
        if init is None or info is None or any(b in ctx.class_table for b in info.bases):
            return None  # (a project base's `__init__` may register its own first)
        for stmt in init.body.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                if _self_assignments([stmt]):
                    return None  # built under a condition: which comes first, the call decides
                continue
            for small in stmt.body:
                if isinstance(small, cst.Expr):
                    if _registers(small.value):
                        return None
                    continue
                if not isinstance(small, (cst.Assign, cst.AnnAssign)) or not _self_assignments([small]):
                    continue
                value = small.value
                if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.Tuple)) \
                        or isinstance(value, cst.Name) and value.value in ("None", "True", "False"):
                    continue
                if not isinstance(value, cst.Call):
                    return None  # a module handed in, or a value the linter cannot read
                cls_built = library_base(ctx, known, ctx.qualify(value.func))
                if cls_built in PARAMETERLESS:
                    continue
                target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                if refused(known.get(cls_built)) and isinstance(target, cst.Attribute):
                    return target.attr.value
                return None
        return None


def walk(ctx, known, holders: RnnHolders, node: cst.Call):
    """(what, entry, attr) when `node` walks a module tree holding an RNN: a WALKS method on
    `self` or on `self.<attr>` holding a module class of this file, or `next(...)` of its
    parameters when the first is an RNN's; `attr`, the `self.` attribute read (the caller
    reports only a frame's first read of it: the frame runs eagerly from there)."""
    scope = ctx.function
    if scope is None or not scope.class_name:
        return None
    if isinstance(node.func, cst.Name) and node.func.value == "next" and len(node.args) == 1:
        inner = node.args[0].value
        if isinstance(inner, cst.Call) and dotted(inner.func) == "iter" and inner.args:
            inner = inner.args[0].value
        holders.to_next.add(id(inner))  # (its own visit comes after this one's)
        if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) \
                and inner.func.attr.value in PARAMETERS and dotted(inner.func.value) == "self" \
                and (attr := holders.first_holder(ctx, known, scope.class_name)):
            cls = library_base(ctx, known, self_attribute_class(ctx, known, scope.class_name, attr))
            return (f"`next(self.{inner.func.attr.value}())`, the first parameter being `self.{attr}`'s, "
                    f"an `nn.{cls.rsplit('.', 1)[-1]}`,", known.get(cls), attr)
        return None
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in WALKS) or id(node) in holders.to_next:
        return None
    receiver = dotted(func.value)
    if receiver == "self":
        owner, shown = scope.class_name, "self"
    elif receiver and receiver.startswith("self.") and receiver.count(".") == 1:
        owner = ctx.local_class(self_attribute_class(ctx, known, scope.class_name, receiver[5:]))
        shown = receiver
    else:
        return None
    if (found := holders.held(ctx, known, owner)) is None:
        return None
    path, cls = found
    return (f"`{shown}.{func.attr.value}()`, which walks `{shown}.{path}`, an `nn.{cls.rsplit('.', 1)[-1]}`,",
            known.get(cls), (receiver[5:] if shown != "self" else path).split(".")[0])


def _self_assignments(nodes) -> dict[str, list]:
    """attribute -> the values `nodes` assign to `self.<attribute>`, at any depth (not in
    nested functions)."""
    out: dict[str, list] = {}
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for t in targets:
                if isinstance(t, cst.Attribute) and dotted(t.value) == "self":
                    out.setdefault(t.attr.value, []).append(node.value)
        stack.extend(children(node, TRIVIA))
    return out


def _registers(call) -> bool:
    """`self.register_parameter(...)`, `self.add_module(...)`: a holder the walk cannot place."""
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) \
        and dotted(call.func.value) == "self" \
        and call.func.attr.value in ("register_parameter", "add_module", "register_module")
