"""What a method sets on `self` (a part of `semantic.classes`): one pass over its body."""

from __future__ import annotations

import libcst as cst

from compilelint import traverse
from compilelint.semantic.kinds import TENSOR_ONLY_METHODS, Kind, annotation_kind, computed_name


def method_scan(func: cst.FunctionDef) -> tuple[list, list[str], dict, list, list, list, list[str]]:
    """(attr, value) for every `self.attr = value` in a method, nested blocks included (not
    nested functions or classes), the names given to `self.register_buffer("name", ...)`
    / `register_parameter` / torchmetrics' `add_state` with a tensor default (nested functions
    included; a computed name as its `kinds.computed_name`, `"*"` for any `setattr(self, ...)`
    and `"~"` + the pattern of one under a computed name), the calls each local name is
    bound to (`if head is None: head = Head(...)`, for `self.head = head`), (attr,
    annotation) for every `self.attr: Cls = value`, (attr, value) for every
    `self.attr.append(value)`, (method, call) for every `self.method(...)` call, and the names
    `register_buffer` / `register_parameter` / `add_module` / `register_module` register on
    `self` (module state, not torchmetrics' states, which are plain attributes)."""
    assignments: list = []
    appended: list = []
    annotated: list = []
    registered: list[str] = []
    structural: list[str] = []
    local_calls: dict[str, list] = {}
    self_calls: list = []
    Assign, AnnAssign, Call, Attribute, Name = cst.Assign, cst.AnnAssign, cst.Call, cst.Attribute, cst.Name
    scopes = (cst.FunctionDef, cst.ClassDef)
    nodes, ends = traverse.scan_spans(func.body)  # pre-order, as libcst visits
    nested_until = 0  # nodes before this index are inside a nested function or class
    for index, node in enumerate(nodes):
        nested = index < nested_until
        kind = type(node)
        if kind is Assign:
            if not nested:
                for target in node.targets:
                    t = target.target
                    if type(t) is Attribute and type(t.value) is Name and t.value.value == "self":
                        assignments.append((t.attr.value, node.value))
                    elif type(t) is Name:
                        local_calls.setdefault(t.value, []).append(node.value)
        elif kind is AnnAssign:
            t = node.target
            if not nested and type(t) is Attribute and type(t.value) is Name and t.value.value == "self":
                annotated.append((t.attr.value, node.annotation.annotation))
                if node.value is not None:
                    assignments.append((t.attr.value, node.value))
        elif kind is Call:
            f = node.func
            if type(f) is Name and f.value == "setattr" and node.args and type(node.args[0].value) is Name \
                    and node.args[0].value.value == "self":
                registered.append("*")  # setattr(self, name, ...): any attribute
                if len(node.args) > 1 and (pattern := computed_name(node.args[1].value)):
                    registered.append("~" + pattern)  # not only buffers under that computed name (e2cnn's gnorm)
            elif type(f) is Attribute and f.attr.value == "append" and not nested and len(node.args) == 1 \
                    and type(f.value) is Attribute and type(f.value.value) is Name and f.value.value.value == "self":
                appended.append((f.value.attr.value, node.args[0].value))
            elif type(f) is Attribute and f.attr.value in ("register_buffer", "register_parameter") and node.args:
                name = node.args[0].value
                if isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str):
                    registered.append(name.evaluated_value)
                    if type(f.value) is Name and f.value.value == "self":
                        structural.append(name.evaluated_value)
                elif pattern := computed_name(name):
                    registered.append(pattern)  # `register_buffer("indices_{}".format(s), t)`: read by getattr
            elif type(f) is Attribute and f.attr.value in ("add_module", "register_module") and node.args \
                    and type(f.value) is Name and f.value.value == "self" \
                    and isinstance(node.args[0].value, cst.SimpleString):
                value = node.args[0].value.evaluated_value
                if isinstance(value, str):
                    structural.append(value)
            elif type(f) is Attribute and f.attr.value == "add_state" and len(node.args) > 1 \
                    and isinstance(node.args[0].value, cst.SimpleString) and type(_state_default(node)) is cst.Call:
                value = node.args[0].value.evaluated_value  # a torchmetrics state with a tensor default
                if isinstance(value, str):
                    registered.append(value)
            elif type(f) is Attribute and type(f.value) is Name and f.value.value == "self" and not nested:
                self_calls.append((f.attr.value, node))
        elif kind in scopes:
            nested_until = max(nested_until, ends[index])  # below: only register_* calls count
    return assignments, registered, local_calls, annotated, appended, self_calls, structural


def _state_default(call: cst.Call) -> cst.BaseExpression | None:
    """`add_state(name, default, ...)`'s default, given second or by keyword in any place."""
    given = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "default"), None)
    return given if given is not None else (call.args[1].value if call.args[1].keyword is None else None)


def tensor_param_value(value: cst.BaseExpression, func: cst.FunctionDef) -> bool:
    """`counts` or `counts.clone()` (tensor methods) of a parameter annotated `Tensor`."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in TENSOR_ONLY_METHODS:
        value = value.func.value
    params = (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
    return type(value) is cst.Name and any(
        p.name.value == value.value and p.annotation is not None
        and annotation_kind(p.annotation.annotation, None) == Kind.TENSOR for p in params)
