"""Methods and functions user code may call with tensors.

A public method of a package's module class is part of its API (`CRF.decode(emissions,
mask)`) when a parameter besides `self` may carry a tensor (untyped or typed as one) and it
is no classmethod, which builds or configures (`EfficientNet.from_pretrained(name)`) rather
than computes; a staticmethod is one when it shows a parameter is a tensor, as a function does.

A module-level function is one when it shows a parameter is a tensor or a module: an
annotation (`coordinates: Tensor`, or any type of torch's or the package's own:
`dist: Distribution`), a method only tensors have (`data.size()`,
`x.unsqueeze(0)`, `h.detach_()`), one only modules have (`net.modules()`, `net._modules`),
or a `torch.*` call given it first (`torch.clamp(x, 0, 1)`). `spikegen.rate(data,
num_steps)` is; a metric over strings, an image processor over PIL images or a download
helper is not.
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.iteration import element_names
from compilelint.semantic.kinds import Kind
from compilelint.traverse import iter_nodes, scan

NOT_ENTRIES = frozenset({"builtins.classmethod", "builtins.staticmethod"})
# a method that calls one of these (or `.backward()`) runs a training step (`FunctionSummary.trains`)
TRAINING_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
# what only a tensor (not a NumPy array, a list, a string) or only an nn.Module answers
TENSOR_METHODS = frozenset({
    "detach", "detach_", "unsqueeze", "view", "numel", "dim", "size", "cuda", "masked_fill", "masked_fill_",
    "new_zeros", "new_ones", "new_full", "new_empty", "type_as", "expand", "expand_as", "contiguous",
    "requires_grad_", "index_select", "unbind", "bmm", "softmax", "log_softmax", "permute", "chunk",
    "narrow", "repeat_interleave", "float", "long", "bool", "half", "to", "clone",
})
TENSOR_ATTRS = frozenset({"device", "requires_grad", "grad", "is_cuda"})
MODULE_METHODS = frozenset({
    "modules", "named_modules", "parameters", "named_parameters", "children", "named_children",
    "state_dict", "zero_grad", "buffers", "named_buffers",
})
MODULE_ATTRS = frozenset({"_modules", "_parameters", "_buffers"})
_ONLY_ATTRS, _ONLY_METHODS = TENSOR_ATTRS | MODULE_ATTRS, TENSOR_METHODS | MODULE_METHODS


class EntryTracking:
    """Walker part (after `Bindings`, whose parameter kinds it reads): `FunctionSummary.entry`
    and, for a method, `trains`."""

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self.scopes[-1]
        info = self.functions.get(scope.qualname)
        if info is None or info.parent is not None:
            return
        decorators = {self.qualify(d.decorator) or "" for d in node.decorators}
        declared = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
        params = [p.name.value for p in declared]
        static = "builtins.staticmethod" in decorators and "builtins.classmethod" not in decorators
        if info.class_name is not None and static:
            # a static method that shows it computes on a tensor it is given (geotorch's
            # `Skew.in_manifold(X)`: `X.dim()`) is called like a function; one that builds or
            # configures (`from_config(cfg)`), or is typed only with the package's own classes (an
            # enum, a config), shows none
            info.entry = info.shows = self._shows(node, declared, own=False)
        elif decorators & NOT_ENTRIES:
            return
        elif info.class_name is not None:
            info.entry = any(scope.env.get(name, Kind.UNKNOWN) in (Kind.TENSOR, Kind.LIKELY, Kind.UNKNOWN)
                             for name in params[1:])
            info.shows = self._shows(node, declared[1:])
            info.trains = any(isinstance(sub, cst.Call) and (
                (isinstance(sub.func, cst.Attribute) and sub.func.attr.value == "backward")
                or self.qualify(sub.func) in TRAINING_CALLS) for sub in scan(node.body))
        else:
            info.entry = any(scope.env.get(name) == Kind.TENSOR for name in params) or self._shows(node, declared)

    def _shows(self, node: cst.FunctionDef, declared, own: bool = True) -> bool:
        """Whether an annotation or the body shows one of `declared` is a tensor or a module
        (`own`: an annotation with one of the package's own types counts)."""
        return any(self._typed_as_ours(p.annotation, own) for p in declared if p.annotation) \
            or self._shows_tensor(node, frozenset(p.name.value for p in declared))

    def _typed_as_ours(self, annotation: cst.Annotation, own: bool = True) -> bool:
        """An annotation naming torch's types or the package's own (`dist: Distribution` in
        stable-baselines3, `model: nn.Module`), anywhere in it (`Optional[...]`)."""
        prefixes = ("torch.", self.module.split(".", 1)[0] + ".") if own else ("torch.",)
        return any((q := self.qualify(sub)) and q.startswith(prefixes)
                   for sub in iter_nodes(annotation.annotation) if isinstance(sub, (cst.Name, cst.Attribute)))

    def _shows_tensor(self, node: cst.FunctionDef, params: frozenset[str]) -> bool:
        """Whether the body uses a parameter as only a tensor or a module is used, or an element a
        loop takes from one (`for seq, n in zip(probabilities, lengths): seq.narrow(...)`:
        speechbrain's `ctc_greedy_decode`, over a batch of tensors)."""
        if not params:
            return False
        if self._uses_as_tensor(node, params):
            return True
        def given(value: cst.BaseExpression) -> bool:
            return isinstance(value, cst.Name) and value.value in params

        loops = (sub for sub in scan(node.body) if isinstance(sub, (cst.For, cst.CompFor)))
        elements = frozenset(name for loop in loops
                             for name in element_names(loop.target, loop.iter, self.qualify, given))
        return bool(elements) and self._uses_as_tensor(node, elements)

    def _uses_as_tensor(self, node: cst.FunctionDef, params: frozenset[str]) -> bool:
        """The body uses one of `params` as only a tensor or a module is used."""
        for sub in scan(node.body):
            if isinstance(sub, cst.Attribute) and isinstance(sub.value, cst.Name) and sub.value.value in params \
                    and sub.attr.value in _ONLY_ATTRS:
                return True
            if not isinstance(sub, cst.Call):
                continue
            func = sub.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in params \
                    and func.attr.value in _ONLY_METHODS:
                return True
            if sub.args and isinstance(sub.args[0].value, cst.Name) and sub.args[0].value.value in params \
                    and (self.qualify(func) or "").startswith("torch."):
                return True
        return False

