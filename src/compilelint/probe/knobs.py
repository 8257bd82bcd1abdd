"""Which Dynamo knob would remove a break: the what-if re-timing's classes of breaks.

| knob | removes |
| --- | --- |
| ``capture_scalar_outputs`` | ``.item()``, ``.tolist()`` (scalars read back to Python) |
| ``capture_dynamic_output_shape_ops`` | ``nonzero``, boolean masks, ``unique``… (data-dependent output shapes) |
| ``reorderable_logging_functions`` | ``print``, ``logging``, ``warnings.warn`` |
| ``dynamic`` | recompiles: ``torch.compile(dynamic=True)`` |

No torch here (the parent classifies breaks too); :mod:`compilelint.probe.whatif`
applies the knobs in the worker.
"""

from __future__ import annotations

from typing import Any, Iterable

KNOBS = ("capture_scalar_outputs", "capture_dynamic_output_shape_ops", "reorderable_logging_functions",
         "dynamic")
ALL = "all"  # every knob that applies, at once

# graph-break ids (torch >= 2.8) and reason words for each class
_SCALAR_IDS = {"GB0124"}
_SCALAR_WORDS = (".item()", "item()", "tolist", "capture_scalar_outputs", "Tensor.item")
_SHAPE_IDS = {"GB0036"}
_SHAPE_WORDS = ("Dynamic shape operator", "dynamic_output_shape", "capture_dynamic_output_shape_ops",
                "aten.nonzero", "aten.unique", "aten.masked_select", "output shape depends on")
_LOG_IDS = {"GB0059"}
_LOG_WORDS = ("`print`", "builtin print", "logging", "Logger", "warnings.warn")


def knob_for(kind: str, reason: str | None, gb_id: str | None = None) -> str | None:
    """The knob that would remove a break of this kind and reason, or None."""
    text = reason or ""
    if kind == "recompile":
        return "dynamic"
    if kind != "graph_break":
        return None  # a frame skip goes with the break inside the loop
    if gb_id in _SCALAR_IDS or any(w in text for w in _SCALAR_WORDS):
        return "capture_scalar_outputs"
    if gb_id in _SHAPE_IDS or any(w in text for w in _SHAPE_WORDS):
        return "capture_dynamic_output_shape_ops"
    if (gb_id in _LOG_IDS and "print" in text) or any(w in text for w in _LOG_WORDS):
        return "reorderable_logging_functions"
    return None


def knobs_for(breaks: Iterable[Any]) -> list[str]:
    """The knobs that apply to a run's breaks (records or dicts), in :data:`KNOBS` order,
    and ``all`` when more than one does."""
    found = set()
    for b in breaks:
        get = b.get if isinstance(b, dict) else (lambda k, _b=b: getattr(_b, k, None))
        knob = knob_for(get("kind"), get("reason"), get("gb_id"))
        if knob:
            found.add(knob)
    out = [k for k in KNOBS if k in found]
    return out + [ALL] if len(out) > 1 else out
