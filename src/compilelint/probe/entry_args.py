"""What a run passed to the function it called first: the facts that judge `given:` labels.

A finding in the target's own forward that holds only when the caller passes an argument
(`when: given:adaptive_exit`, semantic.facts) is not tested by a run that never passed
it: its verdict is ``condition-not-met``, not ``not-reproduced``. Findings in other
functions keep their labels unjudged: the run does not see what their callers passed.

:func:`entry_arguments` runs in the worker (it binds the real calls to the signature);
:func:`given_met` is pure and runs in the matcher.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

from compilelint.finding import DEFAULTED, DISTINCT, LEFT_NONE, MASK, NDARRAY, PLAIN, RNN_FIRST, SPARSE, TENSOR, nograd_parts


def entry_arguments(fn: Callable, calls: Sequence[tuple[tuple, dict]]) -> dict[str, Any] | None:
    """``{"file", "line", "qualname", "params": {name: facts}}`` for the function ``fn``
    runs first (a module's ``forward``), over every call; None when it cannot be bound.

    Per parameter, the facts any call gave it: ``"passed"`` (bound at all), ``"not_none"``,
    ``"truthy"``; for ``*args`` ``"nonempty"``; for ``**kwargs`` the keys passed.

    A wrapper whose forward takes only ``(*args, **kwargs)`` and names what it passes
    them to in ``__wrapped__`` (the functools convention) is looked through."""
    target = getattr(fn, "forward", fn)
    while _passes_through(target) and getattr(fn, "__wrapped__", None) is not None:
        fn = fn.__wrapped__
        target = getattr(fn, "forward", fn)
    try:
        sig = inspect.signature(target)
        code = inspect.unwrap(target).__code__
    except (TypeError, ValueError, AttributeError):
        return None
    params: dict[str, list[str]] = {p: [] for p in sig.parameters}
    for args, kwargs in calls:
        try:
            bound = sig.bind_partial(*args, **kwargs)
        except TypeError:
            return None
        for name, value in bound.arguments.items():
            kind = sig.parameters[name].kind
            facts = params[name]
            if kind is inspect.Parameter.VAR_KEYWORD:
                facts.extend(k for k in value if k not in facts)
                continue
            new = ["passed"]
            if kind is inspect.Parameter.VAR_POSITIONAL:
                new += ["nonempty"] if value else []
            else:
                new += value_facts(value)
            facts.extend(f for f in new if f not in facts)
        for name, new in identity_facts(bound.arguments.items()).items():
            params[name].extend(f for f in new if f not in params[name])
    qualname = getattr(inspect.unwrap(target), "__qualname__", None)
    return {"file": code.co_filename, "line": code.co_firstlineno, "qualname": qualname, "params": params}


def _passes_through(target: Callable) -> bool:
    try:
        kinds = [p.kind for p in inspect.signature(target).parameters.values()]
    except (TypeError, ValueError):
        return False
    return kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]


def value_facts(value: Any) -> list[str]:
    """``"not_none"`` and ``"truthy"``, as far as they hold for ``value``; for a tensor
    ``"grad"`` or ``"nograd"`` (whether it requires grad), for a dict ``"[KEY]grad"`` /
    ``"[KEY]nograd"`` for each tensor it holds (`nograd:` labels, CL132), and ``"sparse"`` for
    a sparse one (`given:NAME@sparse` labels, CL153), ``"mask"`` for a boolean one
    (`given:NAME@mask`, CL121), ``"ndarray"`` for a NumPy array (`given:NAME@ndarray`); ``"rnn"`` for a module whose first parameter is an RNN's
    (`given:NAME@rnn`, CL119); for a list or tuple of tensors ``"[*]grad"`` when every one
    requires grad, else ``"[*]nograd"`` (`nograd:scores[*]`)."""
    facts = (["not_none"] if value is not None else []) + (["truthy"] if _truthy(value) else [])
    if _is_tensor(value):
        facts.append("grad" if value.requires_grad else "nograd")
        if getattr(value, "is_sparse", False) or str(getattr(value, "layout", "torch.strided")) != "torch.strided":
            facts.append("sparse")  # (`given:psi@sparse`, project_rules.cl153_params)
        if str(getattr(value, "dtype", "")) == "torch.bool":
            facts.append("mask")  # (`given:index@mask`, CL121 in a `__getitem__`)
    elif _rnn_first(value):
        facts.append("rnn")  # (`given:module@rnn`, project_rules.cl119_rnn_helpers)
    elif type(value).__name__ == "ndarray" and type(value).__module__ == "numpy":
        facts.append("ndarray")  # (`given:idx@ndarray`: a helper's NumPy branch)
    elif isinstance(value, (list, tuple)):  # (`nograd:scores[*]`: the tensors it holds; one without grad will do)
        held = [v for v in value if _is_tensor(v)]
        if held:
            facts.append("[*]nograd" if any(not v.requires_grad for v in held) else "[*]grad")
    else:
        facts.extend(f"[{k}]{'grad' if v.requires_grad else 'nograd'}" for k, v in _items(value)
                     if isinstance(k, str) and _is_tensor(v))
    return facts


def _rnn_first(value: Any) -> bool:
    """A module whose first parameter (what `next(module.parameters())` reads) is an RNN's."""
    import sys

    nn = getattr(sys.modules.get("torch"), "nn", None)
    if nn is None or not isinstance(value, nn.Module):
        return False
    first = next(value.parameters(), None)
    return first is not None and any(isinstance(m, nn.RNNBase) and any(p is first for p in m.parameters(recurse=False))
                                     for m in value.modules())


def identity_facts(arguments) -> dict[str, list[str]]:
    """For each tensor argument after the first, ``"same:NAME"`` or ``"other:NAME"`` for each
    tensor argument before it: whether the call passed one object twice (`attn(x, x, x)`),
    which `given:key!is:query` labels need."""
    tensors = [(name, value) for name, value in arguments if _is_tensor(value)]
    return {name: [("same:" if value is earlier else "other:") + before for before, earlier in tensors[:i]]
            for i, (name, value) in enumerate(tensors) if i}


def _items(value: Any) -> list[tuple[Any, Any]]:
    """A dict's items, or what an object holds in its `__dict__` (a graph batch whose
    `data["positions"]` reads its attribute, as mace's does): read without running any of
    the user's code (no `keys()`, no `__getitem__`)."""
    if isinstance(value, dict):
        return list(value.items())
    try:
        held = object.__getattribute__(value, "__dict__")
    except AttributeError:
        return []
    return list(held.items()) if type(held) is dict else []


def _is_tensor(value: Any) -> bool:
    """A torch tensor, told without importing torch (the matcher's side imports none)."""
    return any(c.__module__ == "torch" and c.__name__ == "Tensor" for c in type(value).__mro__)


def nograd_met(label: str, params: dict[str, list[str]]) -> bool | None:
    """Whether a run met `nograd:x` / `nograd:data[key]` (some call handed in that tensor
    without grad); None when the run says nothing of it."""
    name, key = nograd_parts(label)
    key = "" if key is None else f"[{key}]"
    facts = params.get(name)
    if facts is None or not {key + "grad", key + "nograd"} & set(facts):
        return None
    return key + "nograd" in facts


def _truthy(value: Any) -> bool:
    """Python's truth for plain values; any other object (a tensor, the user's own class)
    counts as given, without calling its `__bool__` (no device sync, no user code run)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)):
        return bool(value)
    return True


def given_met(label: str, params: dict[str, list[str]]) -> bool | None:
    """Whether the run met a `given:` label (alternatives joined by ``|``); None when it
    names something the run does not decide (`given:self.ATTR`, an unknown parameter)."""
    verdicts = [_alternative_met(alt, params) for alt in label[len("given:"):].split("|")]
    if any(v is True for v in verdicts):
        return True
    return None if any(v is None for v in verdicts) else False


def _alternative_met(alt: str, params: dict[str, list[str]]) -> bool | None:
    alt = alt.removeprefix("=")  # (a parameter without a default: semantic.facts)
    if alt.startswith("self."):
        return None
    if DISTINCT in alt:  # some call passed the two as two objects (probe.entry_args.identity_facts)
        name, _, other = alt.partition(DISTINCT)  # (the later parameter's facts name the earlier one)
        seen = {*params.get(name, ()), *params.get(other, ())} & {f"{kind}:{n}" for kind in ("same", "other")
                                                                   for n in (name, other)}
        return any(f.startswith("other:") for f in seen) if seen else None
    if alt.startswith("**"):
        name, _, key = alt[2:].partition("[")
        return key.rstrip("]") in params[name] if name in params else None
    if alt.startswith("*"):
        name = alt[1:]
        return "nonempty" in params[name] if name in params else None
    if alt.endswith(LEFT_NONE):
        name = alt.removesuffix(LEFT_NONE)
        return "not_none" not in params[name] if name in params else None
    for suffix, fact in ((SPARSE, "sparse"), (RNN_FIRST, "rnn"), (MASK, "mask"), (NDARRAY, "ndarray")):
        if alt.endswith(suffix):
            name = alt.removesuffix(suffix)
            return fact in params[name] if name in params else None
    if alt.endswith(TENSOR):  # (value_facts: a tensor is "grad" or "nograd")
        name = alt.removesuffix(TENSOR)
        return bool({"grad", "nograd"} & set(params[name])) if name in params else None
    if alt.endswith(PLAIN):  # met when no call passed a tensor; a tensor among its facts: unseen which call
        name = alt.removesuffix(PLAIN)
        return (None if {"grad", "nograd"} & set(params[name]) else True) if name in params else None
    if alt.endswith(DEFAULTED):  # left None: met; passed a value: a tensor or not, unseen
        name = alt.removesuffix(DEFAULTED)
        return True if name in params and "not_none" not in params[name] else None
    name, _, rest = alt.partition("!=")
    if name not in params:
        return None
    return ("not_none" if rest == "None" else "truthy") in params[name]
