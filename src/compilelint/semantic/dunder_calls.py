"""Call edges to the dunder methods an expression runs on an object of a project class:
`a * b` runs `__mul__` of `a`'s class, `1 - t` `__rsub__` of `t`'s, `-t` `__neg__`, `states[m]`
`__getitem__` (`states[m] = v`: `__setitem__`). Dynamo inlines them, so they are part of the
compiled region; the index a subscript passes is "mask" when it is a boolean mask
(semantic.mask_values: `given:index@mask`, CL121)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import is_self_attribute
from compilelint.semantic.mask_values import mask_value
from compilelint.summary import CallEdge, names_classes

# what `a OP b` calls on `a` when `a` is an instance of a project class
OPERATOR_METHODS = {cst.Multiply: "__mul__", cst.Add: "__add__", cst.Subtract: "__sub__",
                    cst.MatrixMultiply: "__matmul__", cst.Divide: "__truediv__"}


class DunderCalls:
    """Walker part (after CallGraph, whose `_object_class`, `_value_spec` and `_append_edge` it uses)."""

    def enter_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        """`inp * physics` with `inp` an instance of a project class: Python runs the class's
        operator method (`Inpainting.__mul__`), which is then part of the region; `1 - t`, a
        number on the left, runs the right operand's reflected one (`__rsub__`)."""
        method = OPERATOR_METHODS.get(type(node.operator))
        if method is None:
            return
        if _number(node.left):
            self._dunder_edge(node, node.right, method.replace("__", "__r", 1), lambda: ((0, "value"),))
        else:
            self._dunder_edge(node, node.left, method, lambda: ((0, self._value_spec(node.right)),))

    def enter_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        """`-t` with `t` an instance of a project class: its `__neg__`."""
        if isinstance(node.operator, cst.Minus):
            self._dunder_edge(node, node.expression, "__neg__", tuple)

    def enter_Subscript(self, node: cst.Subscript) -> None:
        """`obj[i]` (`obj[i] = v`) with `obj` an instance of a project class: Python runs the
        class's `__getitem__` (`__setitem__`), which Dynamo inlines (torchgfn's `States[mask]`)."""
        if not self.scopes or self.header or self.escaped:
            return
        index = node.slice[0].slice if len(node.slice) == 1 else None

        def args() -> tuple:
            spec = "unknown" if not isinstance(index, cst.Index) else \
                "mask" if mask_value(self, index.value) else self._value_spec(index.value)
            return ((0, spec),)
        method = "__setitem__" if id(node) in self.not_read else "__getitem__"
        self._dunder_edge(node, node.value, method, args)

    def _dunder_edge(self, node: cst.CSTNode, operand: cst.BaseExpression, method: str, args) -> None:
        """The edge, if `operand` holds an object of a project class; `args()` (the arguments'
        specs) is worked out only then: most subscripts and operators are on tensors."""
        if not self.scopes or self.header or self.escaped or id(node) in self.scopes[-1].edges:
            return
        scope = self.scopes[-1]
        scope.edges[id(node)] = None
        call = self._operand_edge(operand, method, scope)
        if call is not None:
            call.args = args()
            scope.edges[id(node)] = self._append_edge(call, scope)

    def _operand_edge(self, operand: cst.BaseExpression, method: str, scope) -> CallEdge | None:
        """The edge to `method` of the project class `operand` holds: `self` (the class's own,
        or a subclass's), a local (`_object_class`) or `self.<attr>` typed with a class that is
        not torch's; None for anything else (a tensor, a container of modules)."""
        if isinstance(operand, cst.Name) and operand.value == "self":
            return CallEdge("self", method) if scope.class_name is not None and scope.bound else None
        if isinstance(operand, cst.Name):
            cls = self._object_class(operand.value, scope)
            return CallEdge("ctorcall", f"{cls}.{method}") if cls else None
        if is_self_attribute(operand) and scope.class_name is not None:
            info = self.class_table.get(scope.class_name)
            ref = info.attr_classes.get(operand.attr.value, "") if info is not None else ""
            if names_classes(ref) and "|" not in ref and not ref.startswith(("torch.", "builtins.", "numpy.")):
                return CallEdge("ctorcall", f"{ref}.{method}")
        return None


def _number(node: cst.BaseExpression) -> bool:
    """A numeric literal, signed or not (`-1 * t`)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))
