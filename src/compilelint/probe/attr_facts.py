"""What the run's modules (or the plain object whose method it calls) hold in their
attributes: the facts that judge `self.` labels.

A finding that holds only when an attribute fixed at construction is a tensor
(`when: isinstance:self.ratio`, semantic.guards) or is set (`given:self.norm`,
semantic.facts) is not tested by a run whose modules were built otherwise: its verdict
is ``condition-not-met``, not ``not-reproduced``.

:func:`attribute_facts` runs in the worker, over every module the target holds;
:func:`attribute_met` is pure and runs in the matcher.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

# Python's own and torch's classes say nothing about the project's code.
_SKIP_MODULES = ("builtins", "torch.")
# what torch.compile sets on what it compiles (eval_frame, OptimizedModule)
_TORCH_MARKERS = frozenset({"_is_torch_compile", "_compiled_call_impl", "_orig_mod", "_torchdynamo_orig_callable",
                            "_torchdynamo_inline", "_torchdynamo_disable"})


def attribute_facts(fn: Any) -> dict[str, dict[str, list[str]]]:
    """``{"<file>:<class qualname>": {attr: facts}}`` over the modules ``fn`` holds, or the
    plain object it is a method of (every class on each instance's MRO): ``"tensor"``,
    ``"none"``, ``"truthy"``, ``"falsy"`` for each value an instance's plain attribute,
    parameter or buffer holds."""
    import torch

    instances = _instances(fn, torch)
    internal = _internal_names()
    out: dict[str, dict[str, list[str]]] = {}
    keys: dict[type, list[str]] = {}
    for module in instances:
        try:
            facts = _instance_facts(module, torch, internal)
        except Exception:  # (the user's `__getattr__` or a table that is no mapping: no facts, the run goes on)
            continue
        if type(module) not in keys:
            keys[type(module)] = _class_keys(type(module))
        for key in keys[type(module)]:
            table = out.setdefault(key, {})
            for name, fact in facts.items():
                if fact not in table.setdefault(name, []):
                    table[name].append(fact)
    return out


def _instance_facts(module: Any, torch: Any, internal: frozenset[str]) -> dict[str, str]:
    is_module = isinstance(module, torch.nn.Module)  # (nn.Module's bookkeeping names are a plain object's own)
    values = {k: v for k, v in vars(module).items() if not is_module or k not in internal}
    for cls in type(module).__mro__:  # class-level values the instance reads (`_log: bool = True`)
        if not cls.__module__.startswith(_SKIP_MODULES):
            for k, v in vars(cls).items():
                if k not in values and not k.startswith("__") and _plain(v, torch):
                    values[k] = getattr(module, k, v)
    if is_module:  # (a plain object's `_modules` is its own: d3rlpy's dataclass of parts)
        for table in ("_parameters", "_buffers", "_modules"):
            values.update(getattr(module, table, None) or {})
    return {name: _fact(value, torch) for name, value in values.items()}


def _instances(fn: Any, torch: Any) -> list[Any]:
    """The modules ``fn`` holds; for a bound method of a plain object (sbi's
    `posterior.log_prob`), that object and the modules its attributes hold."""
    modules, seen = getattr(fn, "modules", None), 0
    while not callable(modules) and getattr(fn, "__wrapped__", None) is not None and seen < 8:
        fn, seen = fn.__wrapped__, seen + 1  # a loss function around the module (`functools.wraps`)
        modules = getattr(fn, "modules", None)
    owner = getattr(fn, "__self__", None)
    if not callable(modules) and isinstance(owner, torch.nn.Module):
        modules = owner.modules  # a module's method (`model.generate`)
    elif not callable(modules) and owner is not None and not type(owner).__module__.startswith(_SKIP_MODULES) \
            and isinstance(getattr(owner, "__dict__", None), dict):
        held = [v for v in vars(owner).values() if isinstance(v, torch.nn.Module)]
        try:
            return [owner, *(m for module in held for m in module.modules())]
        except Exception:
            return [owner]
    if not callable(modules):
        return []
    try:
        return list(modules())
    except Exception:
        return []


def _class_keys(cls: type) -> list[str]:
    """`<file>:<qualname>` of each project class on `cls`'s MRO (a method a base defines
    runs on its subclasses' instances)."""
    out = []
    for base in cls.__mro__:
        if base.__module__.startswith(_SKIP_MODULES):
            continue
        try:
            out.append(f"{inspect.getsourcefile(base)}:{base.__qualname__}")
        except (TypeError, OSError):
            continue
    return out


@functools.cache
def _internal_names() -> frozenset[str]:
    """nn.Module's own bookkeeping (`_parameters`, `_forward_hooks`, ...) and what torch.compile
    sets: nothing of the project's code, which its private attributes (`self._log`) are."""
    import torch

    return frozenset(set(vars(torch.nn.Module())) - {"training"}) | _TORCH_MARKERS


_PLAIN = (bool, int, float, str, tuple, list, dict, set, frozenset)  # Python values, truthy or falsy


def _plain(value: Any, torch: Any) -> bool:
    """A value a class body binds (not a method, property or nested class)."""
    return value is None or isinstance(value, (*_PLAIN, torch.Tensor))


def _fact(value: Any, torch: Any) -> str:
    if isinstance(value, torch.Tensor):
        return "tensor"
    if value is None:
        return "none"
    if isinstance(value, _PLAIN):
        return "truthy" if value else "falsy"
    return "truthy"  # an object, a submodule: set


def attribute_met(label: str, facts: dict[str, list[str]]) -> bool | None:
    """Whether the instances the run built met a `self.` label: `isinstance:self.X` (X a
    tensor in some instance), `set:self.X` / `unset:self.X` (X truthy / falsy in some
    instance) or `given:self.X` (X not None); None when the run does not say."""
    if label.startswith("isinstance:self."):
        seen = facts.get(label[len("isinstance:self."):])
        return None if not seen else "tensor" in seen
    if label.startswith(("set:self.", "unset:self.")):
        name, _, attr = label.partition(":self.")
        seen = facts.get(attr)
        if not seen:
            return None
        return any(f in (("truthy", "tensor") if name == "set" else ("falsy", "none")) for f in seen)
    if label.startswith("given:") and all(a.startswith("self.") for a in label[len("given:"):].split("|")):
        seen = [facts.get(a[len("self."):]) for a in label[len("given:"):].split("|")]
        if any(s is None for s in seen):
            return None
        return any(f != "none" for s in seen for f in s)
    return None
