"""Building an object of a project class in the region (CL119), where the construction itself
breaks; the project's class table decides, wherever the class is defined:

- a subclass of `torch.Tensor` whose own `__init__` takes an argument without a default:
  Dynamo cannot bind the constructor's arguments to it (GB7312, "failed to bind arguments when
  attempting to inline ... `__init__`"; measured on 2.13: `__init__(self, x)` and
  `__init__(self, x, neg=None)` break, `__init__(self, *a, **k)` and a class without
  `__init__` are traced). deepinv's `TransformParam(factor, neg=...)`;
- a subclass of `functools.partial`, which Dynamo models only as itself (GB0147);
- a subclass of a class outside the project that the knowledge table says breaks when built
  (a "call" row naming a class: `torchmetrics.Metric`, whose `__init__` reads
  `torch.get_default_device()`, GB0208; a tqdm bar; an optimiser): its `__init__` runs the
  base's. pytorch-forecasting's `MultiHorizonMetric()` built in NHiTS' forward.
"""

from __future__ import annotations

from compilelint.summary import TENSOR_BASES

# bases whose `__init__` is `object`'s: a subclass built in the region runs only its own (measured on
# 2.13 and 2.14: torchkge's `SmallKG(Dataset)` is traced; `TensorDataset(...)` breaks, GB0008)
NO_INIT_BASES = frozenset({"torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset",
                           "torch.utils.data.IterableDataset", "torch.utils.data.dataset.IterableDataset",
                           "torch.utils.data.Sampler", "torch.utils.data.sampler.Sampler"})
# Dynamo builds a `functools.partial` of its own (measured on 2.13: GB0147 "Unsupported function
# call" for a subclass; pyro's `_bound_partial(partial(...))` in `Messenger.__call__`)
PARTIAL_BASES = frozenset({"functools.partial"})
PARTIAL = ("building `{cls}`, a subclass of `functools.partial`,",
           "Dynamo traces `functools.partial(...)` itself, not a subclass of it, and breaks the graph (GB0147)")
TENSOR_INIT = ("building `{cls}`, a tensor subclass whose `__init__` takes arguments,",
               "Dynamo cannot bind them to `__init__` while tracing the construction and breaks the graph (GB7312)")


def construction_break(index, known, class_key: str) -> tuple[str, str] | None:
    """(what, why) for building the project class `class_key` in the region, when that breaks."""
    name = class_key.split(":", 1)[1]
    base = table_base(index, known, class_key, "call")
    if base is not None and base not in NO_INIT_BASES:
        entry = known.get(base)
        return f"building `{name}`, a subclass of `{base}`,", f"{entry.why or entry.reason} ({entry.gb_id})"
    infos = [index.classes[owner] for owner in index.lineage(class_key)]
    if any(base in PARTIAL_BASES for info in infos for base in info.bases):
        return PARTIAL[0].format(cls=name), PARTIAL[1]
    tensor = any(base in TENSOR_BASES for info in infos for base in info.bases)
    if tensor and next((info.init_required for info in infos if info.init_required is not None), False):
        return TENSOR_INIT[0].format(cls=name), TENSOR_INIT[1]
    return None


def table_base(index, known, class_key: str, form: str) -> str | None:
    """The class outside the project, among the bases of the class's lineage, that a row of
    the knowledge table of `form` names: "instance", Dynamo refuses to call it (`torch.nn.LSTM`);
    "call", building it breaks (`torchmetrics.Metric`)."""
    for owner in index.lineage(class_key):
        for base in index.classes[owner].bases:
            entry = known.get(base)
            if entry is not None and entry.form == form:
                return base
    return None
