import libcst as cst

from compilelint.rules.base import Rule

# Methods whose result keeps the receiver's dtype (a uint8 mask stays one).
KEEPS_DTYPE = frozenset({
    "unsqueeze", "squeeze", "view", "reshape", "transpose", "permute", "expand", "expand_as", "contiguous",
    "flip", "clone", "t", "repeat", "narrow", "select", "detach", "flatten", "unflatten", "movedim",
    "roll", "view_as", "reshape_as", "cpu", "cuda",
})
BYTE_NAMES = frozenset({"torch.uint8", "torch.ByteTensor"})


class ByteMask(Rule):
    code = "CL122"
    name = "byte-mask"
    summary = "a uint8 (`torch.ByteTensor`) mask as `torch.where`'s condition or an index"
    message = ("a uint8 mask as {what}: eager PyTorch still accepts it, but Dynamo's fake-tensor run rejects "
               "it and the compiled call fails with an error (GB4315)")
    severity = "error"
    gb_id = "GB4315"
    help = "Make the mask bool: `mask.bool()`, `dtype=torch.bool`, or a comparison (`lengths > 0`)."

    VALID = [
        """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def forward(self, scores, tags, mask=None):
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.bool)
        byte = tags.byte()
        out = torch.where(mask.unsqueeze(1), scores, 0.0)
        out = torch.where(byte.bool().unsqueeze(1), out, 0.0)  # made bool first
        weights = scores * byte.unsqueeze(1)  # arithmetic on uint8 is fine
        return out + weights
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
from typing import Optional
class Tagger(nn.Module):
    def forward(self, scores, tags, mask: Optional[torch.ByteTensor] = None):
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.uint8)
        keep = (tags > 0).byte()
        out = torch.where(mask.unsqueeze(1), scores, 0.0)  # expect
        out = out.where(keep.unsqueeze(1), 0.0)  # expect
        return out[keep.to(torch.uint8)]  # expect
""",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._byte: list[set[str]] = []  # per function being walked: the names holding a uint8 tensor

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        params = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
        self._byte.append({p.name.value for p in params if p.annotation is not None
                           and self._names_byte(p.annotation.annotation)})

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._byte.pop()

    def leave_Assign(self, original_node: cst.Assign) -> None:
        if not self._byte:
            return
        byte = self._is_byte(original_node.value)
        for target in original_node.targets:
            if isinstance(target.target, cst.Name):
                (self._byte[-1].add if byte else self._byte[-1].discard)(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if len(node.args) < 2 or node.args[0].keyword is not None:
            return  # (single-argument `torch.where(c)` is `nonzero`: any dtype)
        if self.ctx.qualify(func) == "torch.where" and len(node.args) == 3 and self._is_byte(node.args[0].value):
            self.report(node.args[0].value, self.message.format(what="`torch.where`'s condition"))
        elif isinstance(func, cst.Attribute) and func.attr.value == "where" and self.ctx.qualify(func) is None \
                and self._is_byte(node.args[0].value):
            self.report(node.args[0].value, self.message.format(what="`Tensor.where`'s condition"))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and self._is_byte(node.slice[0].slice.value):
            self.report(node.slice[0].slice.value, self.message.format(what="an index (`x[mask]`)"))

    def _is_byte(self, value: cst.BaseExpression) -> bool:
        """A uint8 tensor: a name holding one, `x.byte()`, `.to(torch.uint8)`, a factory given
        `dtype=torch.uint8`, or an element or shape method (`unsqueeze`, `view`, ...) of one."""
        if isinstance(value, cst.Name):
            return bool(self._byte) and value.value in self._byte[-1]
        if isinstance(value, cst.Subscript):  # `mask[i]`, `mask[:, t]`: still uint8
            return self._is_byte(value.value)
        if not isinstance(value, cst.Call):
            return False
        if any(arg.keyword is not None and arg.keyword.value == "dtype" and self._names_byte(arg.value)
               for arg in value.args):
            return True
        func = value.func
        if not isinstance(func, cst.Attribute):
            return False
        method = func.attr.value
        if method == "byte" and not value.args:
            return True
        if method in ("to", "type") and value.args and value.args[0].keyword is None:
            return self._names_byte(value.args[0].value) or (
                method == "to" and not self._names_dtype(value.args[0].value) and self._is_byte(func.value))
        return method in KEEPS_DTYPE and self._is_byte(func.value)

    def _names_byte(self, node: cst.BaseExpression) -> bool:
        """`torch.uint8`, `torch.ByteTensor`, also inside `Optional[...]` / `X | None`."""
        if isinstance(node, cst.Subscript):
            return any(isinstance(e.slice, cst.Index) and self._names_byte(e.slice.value) for e in node.slice)
        if isinstance(node, cst.BinaryOperation):
            return self._names_byte(node.left) or self._names_byte(node.right)
        if isinstance(node, cst.SimpleString):  # a string annotation: "torch.ByteTensor"
            return node.evaluated_value in BYTE_NAMES
        return self.ctx.qualify(node) in BYTE_NAMES

    def _names_dtype(self, node: cst.BaseExpression) -> bool:
        qualified = self.ctx.qualify(node) or ""
        return qualified.startswith("torch.") and qualified[6:7].islower() and "." not in qualified[6:]
