"""What building a pydantic model runs of the project's code: its validators (a part of
`index.ProjectIndex`). pydantic-core, in C, calls each field and model validator of the class's
lineage, so Dynamo cannot inline them: each runs as a frame of its own, compiled when the
model is built in a compiled region, and a break there is one of the region's (torchsurv's
`SurvivalInputs(event=event, time=time)` in its metrics)."""

from __future__ import annotations


class ModelValidators:
    def validators(self, key: str, call) -> tuple[str, ...]:
        """The validators `Model(...)` (a `name` or `dotted` edge of function `key`) runs."""
        if call.kind not in ("name", "dotted") or not self._validator_owners():
            return ()
        module = key.split(":", 1)[0]
        class_key = self._lookup(call.target) if call.kind == "dotted" else self.resolve_name(module, call.target)
        if class_key not in self.classes:
            return ()
        return tuple(fn for owner in self._lineage(class_key) for fn in self._validator_owners().get(owner, ()))

    def _validator_owners(self) -> dict[str, tuple[str, ...]]:
        """Each class's own validators, by class key (found once per index)."""
        found = getattr(self, "_validator_memo", None)
        if found is None:
            owners: dict[str, list[str]] = {}
            for fn, info in self.functions.items():
                if info.validates and info.class_name:
                    owners.setdefault(f"{fn.split(':', 1)[0]}:{info.class_name}", []).append(fn)
            found = self._validator_memo = {owner: tuple(fns) for owner, fns in owners.items()}
        return found
