"""Which local names hold NumPy arrays made from tensors (CL103-CL106 tell them apart): a part
of the walker (`semantic.walker.PARTS`), after `Bindings`, whose function scopes it reads."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.bindings import target_names
from compilelint.semantic.kinds import DATA_TENSORS
from compilelint.semantic.ndarrays import is_ndarray


class NdarrayNames:
    def enter_Assign(self, node) -> None:
        self._record_ndarray(node)

    enter_AnnAssign = enter_AugAssign = enter_Assign

    def _record_ndarray(self, node) -> None:
        if not self.scopes or getattr(node, "value", None) is None:
            return
        scope = self.scopes[-1]
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) \
                and self.name_kind(node.target.value).tensorish:
            return  # `log_spec -= 10.0 * np.log10(ref)`: in place, the tensor stays one
        targets = [n for t in node.targets for n in target_names(t.target)] if isinstance(node, cst.Assign) \
            else target_names(node.target)
        if not is_ndarray(node.value, self, scope.ndarrays):
            if len(targets) == 1 and targets[0] in scope.ndarrays and self._converted(node.value, targets[0]):
                scope.ndarrays = scope.ndarrays - {targets[0]}  # `x = torch.from_numpy(x)`: a tensor from here on
            return
        if targets:
            scope.ndarrays = scope.ndarrays | frozenset(targets)

    def _converted(self, value, name: str) -> bool:
        """`torch.from_numpy(x)`, `torch.as_tensor(x, ...)`, `torch.tensor(x)` of the name itself
        (hummingbird's executor turns an input it made an array back into a tensor)."""
        return isinstance(value, cst.Call) and self.qualify(value.func) in DATA_TENSORS and bool(value.args) \
            and isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == name

    def ndarray_names(self) -> frozenset[str]:
        """Local names of the current function bound (so far, in source order) to ndarrays."""
        return self.scopes[-1].ndarrays if self.scopes else frozenset()
