"""Methods user code may call with tensors: a public method of a package's module class
is part of its API (`CRF.decode(emissions, mask)`) when a parameter besides `self` may
carry a tensor (untyped or typed as one) and it is no classmethod or staticmethod, which
build or configure (`EfficientNet.from_pretrained(name)`) rather than compute."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.kinds import Kind

NOT_ENTRIES = frozenset({"builtins.classmethod", "builtins.staticmethod"})


class EntryTracking:
    """Walker part (after `Bindings`, whose parameter kinds it reads): `FunctionSummary.entry`."""

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self.scopes[-1]
        info = self.functions.get(scope.qualname)
        if info is None or info.class_name is None or any(
                (self.qualify(d.decorator) or "") in NOT_ENTRIES for d in node.decorators):
            return
        params = [p.name.value for p in (*node.params.posonly_params, *node.params.params,
                                         *node.params.kwonly_params)][1:]
        info.entry = any(scope.env.get(name, Kind.UNKNOWN) in (Kind.TENSOR, Kind.LIKELY, Kind.UNKNOWN)
                         for name in params)
