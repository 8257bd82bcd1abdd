"""What CL148 and CL158 share: every attribute write on an object (`owner.attr = ...`,
`owner.attr += ...` where the rule asks for it, `setattr(owner, ...)`), handed to the rule's
`_written(node, owner, shown)`, which decides whether the owner is its kind of object."""

from __future__ import annotations

import libcst as cst


class AttributeWrites:
    """Mixin for a Rule: `augmented` says whether `owner.attr += ...` counts."""

    augmented = False

    def _written(self, node: cst.CSTNode, owner: cst.BaseExpression, shown: str) -> None:
        raise NotImplementedError

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._attribute(node, target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.augmented:
            self._attribute(node, node.target)

    def _attribute(self, node: cst.CSTNode, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            self._written(node, target.value, f"{target.value.value}.{target.attr.value} = ...")

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) == "builtins.setattr" and len(node.args) >= 2 \
                and isinstance(node.args[0].value, cst.Name):
            self._written(node, node.args[0].value, f"setattr({node.args[0].value.value}, ...)")
