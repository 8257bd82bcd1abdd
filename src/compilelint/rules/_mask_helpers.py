"""Same-file helpers that return a boolean mask (CL121): a module-level function, a function
defined in the calling function, or a method of the class being walked (or of a same-file
base), every `return` of which is a mask (`return torch.isnan(y)`).
Calling one gives a mask (`keep = helper(x)`, `ignore = self.ignore_init(y)`); a call met
before the helper is walked holds its finding until the module's end says."""

from __future__ import annotations

import libcst as cst


class MaskHelpers:
    def __init__(self, walker) -> None:
        # (the walker, not its bound `local_lineage`: the incremental model's state comparison
        # and restore map a reference to the walker onto the current one, not a bound method)
        self._walker = walker
        self._returns: dict[str, list[str | None]] = {}  # function or `Class.method` -> its returns' verdicts
        self.masks: set[str] = set()  # the helpers every return of which is a mask
        self._called: dict[str, dict[str, str]] = {}  # scope -> name -> the helper it was bound from
        self._held: list[tuple[str, list]] = []

    def key(self, func: cst.BaseExpression, function) -> str | None:
        """The helper a call's `func` names: `helper` (the calling function's own `def helper`,
        else the module's) or, in a method, `self.helper` (the class's own, else that of the
        first class up its same-file lineage that defines it)."""
        if isinstance(func, cst.Name):
            nested = f"{function.qualname}.<locals>.{func.value}" if function is not None else None
            # (a local def, which the walker has met before any call of it, hides the module's)
            return nested if nested in self._walker.functions else func.value
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
                and function is not None and function.class_name):
            return None
        for info in self._walker.local_lineage(function.class_name):
            if func.attr.value in info.methods:
                return f"{info.qualname}.{func.attr.value}"  # (an override hides the base's, mask or not)
        return f"{function.class_name}.{func.attr.value}"

    def returned(self, function, verdict: str | None) -> None:
        self._returns.setdefault(function.qualname, []).append(verdict)

    def left(self, qualname: str) -> None:
        self._called.pop(qualname, None)
        returns = self._returns.pop(qualname, None)
        if returns and all(v in ("certain", "likely") for v in returns):
            self.masks.add(qualname)

    def bound(self, scope: str, names: list[str], value: cst.BaseExpression, verdict: str | None, function) -> None:
        called = self._called.setdefault(scope, {})
        for name in names:
            called.pop(name, None)
            helper = self.key(value.func, function) if isinstance(value, cst.Call) else None
            if verdict is None and helper is not None:
                called[name] = helper

    def held_helper(self, scope: str, mask: cst.BaseExpression) -> str | None:
        """The helper not walked yet that `mask` (or `~mask`) was bound from: its finding waits."""
        if isinstance(mask, cst.UnaryOperation) and isinstance(mask.operator, cst.BitInvert):
            mask = mask.expression
        helper = self._called.get(scope, {}).get(mask.value) if isinstance(mask, cst.Name) else None
        return None if helper is None or helper in self.masks else helper

    def hold(self, helper: str, findings: list) -> None:
        self._held.append((helper, findings))

    def released(self) -> list:
        return [finding for helper, findings in self._held if helper in self.masks for finding in findings]
