"""Attributes `__init__` sets from what the project's functions return (`self.frozen =
checked(as_tensor(frozen))`, the casts in another file): while assuming, reading one is a
likely tensor on the leaves of that call, as a local bound to it is (semantic.bindings)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.infer import infer
from compilelint.semantic.kinds import Kind, dotted


class OpenAttributes:
    """Walker part."""

    def exit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._open_attr(target.target, node.value)

    def _open_attr(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`self.frozen = check(cast(frozen))` in `__init__`: what the attribute holds is what the
        project's functions return (`attr_open`, read by `open_attr`); set anywhere else, it is
        no longer known."""
        scope = self.scopes[-1] if self.scopes else None
        if scope is None or scope.class_name is None or not isinstance(target, cst.Attribute) \
                or dotted(target.value) != "self":
            return
        key = (scope.class_name, target.attr.value)
        leaves = self.assumed(value)[1] if scope.qualname.endswith(".__init__") and infer(value, self) == Kind.UNKNOWN \
            else ()
        if leaves and key not in self.attr_open:
            self.attr_open[key] = tuple(sorted(leaves))
        else:
            self.attr_open[key] = ()  # (set twice, or from what no leaf decides: unknown)

    def open_attr(self, class_name: str, attr: str) -> Kind:
        """`self.attr` set in `__init__` from a project function's return (`_open_attr`): a
        likely tensor while assuming, when the project says that function returns one."""
        leaves = self.attr_open.get((class_name, attr))
        if not leaves:
            return Kind.UNKNOWN
        if self.assuming is None:
            self.open_seen = True
            return Kind.UNKNOWN
        self.assuming.update(leaves)
        return Kind.LIKELY
