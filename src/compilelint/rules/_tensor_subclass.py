"""A project subclass of `torch.Tensor` built in the region (CL119): when its own `__init__`
takes an argument without a default, Dynamo cannot bind the constructor's arguments to it
(GB7312, "failed to bind arguments when attempting to inline ... `__init__`"; measured on
2.13: `__init__(self, x)` and `__init__(self, x, neg=None)` break, `__init__(self, *a, **k)`
and a class without `__init__` are traced). deepinv's `TransformParam(factor, neg=...)`."""

from __future__ import annotations

TENSOR_BASES = frozenset({"torch.Tensor", "torch._tensor.Tensor"})
WHAT = "building `{cls}`, a tensor subclass whose `__init__` takes arguments,"
WHY = "Dynamo cannot bind them to `__init__` while tracing the construction and breaks the graph (GB7312)"


def init_breaks(lineage) -> bool:
    """Over a class's lineage (ClassInfo or ClassSummary, the class first): a `torch.Tensor`
    base, and the first `__init__` found takes a required argument."""
    infos = list(lineage)
    if not any(base in TENSOR_BASES for info in infos for base in info.bases):
        return False
    return next((info.init_required for info in infos if info.init_required is not None), False)
