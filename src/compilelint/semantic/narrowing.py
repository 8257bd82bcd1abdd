"""Narrowing by type tests: `if isinstance(x, torch.Tensor):` makes `x` a tensor in the body;
`if isinstance(p, (int, float)):` makes `p` no tensor there, and so does the `else:` of
`if isinstance(p, (np.ndarray, Tensor)):` (also through a local tuple of types, `vector`)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.guards import ends_in, isinstance_name, not_tensors
from compilelint.semantic.kinds import Kind

TENSOR_CLASSES = frozenset({"torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                            "torch.nn.parameter.Buffer", "torch.masked.MaskedTensor",
                            "torch.masked.maskedtensor.core.MaskedTensor"})


def class_check(test: cst.BaseExpression, qualify) -> tuple[str, str] | None:
    """(name, class) for `isinstance(name, Cls)` with one class that is neither a builtin's nor
    torch's (also as one operand of `and`): the object's methods are that class's."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return class_check(test.left, qualify) or class_check(test.right, qualify)
    if (tested := isinstance_name(test)) is not None and not isinstance(test.args[1].value, cst.Tuple):
        cls = qualify(test.args[1].value)
        if cls and not cls.startswith(("builtins.", "torch.", "typing.", "collections.")):
            return tested, cls
    return None


class Narrowing:
    """Walker part."""

    def enter_If(self, node: cst.If) -> None:
        # `for m in self.modules(): if isinstance(m, Regularizer): m.reset()`: m is one in the body
        checked = class_check(node.test, self.qualify) if self.scopes else None
        if checked is not None and isinstance(node.body, cst.IndentedBlock):
            self._typed_blocks[id(node.body)] = checked
        name = self._tensor_check(node.test) if self.scopes else None
        if name is not None:
            self.scopes[-1].narrowed[id(node.body)] = (name, self.name_kind(name))
        elif self.scopes:  # `if isinstance(p, (int, float)):`, the `else:` of `isinstance(p, (np.ndarray, Tensor))`
            for block, truth in ((node.body, True), (getattr(node.orelse, "body", None), False)):
                if isinstance(block, cst.IndentedBlock) and (plain := not_tensors(node.test, truth, self.local_flag)):
                    self.scopes[-1].narrowed[id(block)] = plain  # (no tensor there)

    def enter_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if (checked := self._typed_blocks.get(id(node))) is not None and self.scopes:
            name, cls = checked
            scope = self.scopes[-1]
            if name in scope.var_class or name in scope.typed:
                del self._typed_blocks[id(node)]  # (what the name was built as says more than a base class)
            else:
                scope.typed[name] = cls  # (until the block ends)
        narrowed = self.scopes[-1].narrowed.get(id(node)) if self.scopes else None
        if isinstance(narrowed, frozenset):
            self.scopes[-1].narrowed[id(node)] = self.not_tensors  # (restored on exit)
            self.not_tensors = self.not_tensors | narrowed
        elif narrowed is not None:
            self.scopes[-1].env[narrowed[0]] = Kind.TENSOR

    def exit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if (checked := self._typed_blocks.pop(id(node), None)) is not None and self.scopes:
            self.scopes[-1].typed.pop(checked[0], None)
        narrowed = self.scopes[-1].narrowed.pop(id(node), None) if self.scopes else None
        if isinstance(narrowed, frozenset):
            self.not_tensors = narrowed
        elif narrowed is not None and self.scopes[-1].env.get(narrowed[0]) == Kind.TENSOR:
            self.scopes[-1].env[narrowed[0]] = narrowed[1]  # the else branch and after: as before

    def holds_tensors(self, name: str) -> bool:
        """A parameter annotated as a container of tensors, not rebound so far (`kinds.tensor_container`)."""
        return bool(self.scopes) and name in self.scopes[-1].tensor_items

    def _tensor_check(self, test: cst.BaseExpression) -> str | None:
        """`x` for `isinstance(x, torch.Tensor)` or `torch.is_tensor(x)`, also as one operand of `and`, or for a tuple of
        tensor classes only (`(nn.Parameter, Tensor, MaskedTensor)`; `(Tensor, np.ndarray)`
        could be an array)."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self._tensor_check(test.left) or self._tensor_check(test.right)
        if isinstance(test, cst.Call) and len(test.args) == 1 and isinstance(test.args[0].value, cst.Name) \
                and self.qualify(test.func) == "torch.is_tensor":
            return test.args[0].value.value
        if (tested := isinstance_name(test)) is not None:
            spec = test.args[1].value
            classes = [e.value for e in spec.elements] if isinstance(spec, cst.Tuple) and spec.elements else [spec]
            if all(self.qualify(c) in TENSOR_CLASSES for c in classes):
                return tested
        return None


class GuardNarrowing:
    """Walker part, after semantic.branches (whose merge at the `if`'s end it must follow)."""

    def exit_If(self, node: cst.If) -> None:
        """`if not isinstance(x, PackedSequence) or ...: raise ...`: past the guard, `x` is one
        (its class's methods and unpacking follow, `scope.typed`); past
        `if not isinstance(x, torch.Tensor): raise ...`, a tensor."""
        if not self.scopes or node.orelse is not None or not ends_in(node.body, cst.Raise):
            return
        for name, cls in _refused(node.test, self.qualify):
            if cls in TENSOR_CLASSES:
                self.scopes[-1].env[name] = Kind.TENSOR
            else:
                self.scopes[-1].typed[name] = cls


def _refused(test: cst.BaseExpression, qualify) -> list[tuple[str, str]]:
    """(name, class) for each `not isinstance(name, Class)` a guard joins with `or`: when the
    guard does not hold, each test held."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _refused(test.left, qualify) + _refused(test.right, qualify)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) \
            and (name := isinstance_name(test.expression)) is not None \
            and (cls := qualify(test.expression.args[1].value)):
        return [(name, cls)]
    return []

