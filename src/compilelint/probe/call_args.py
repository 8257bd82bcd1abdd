"""What the run's calls passed to each function of the user's code: the facts that judge
`given:` labels on findings outside the function the run called first.

A finding in a helper that holds only when its caller passes an argument (`when:
given:max_fpr!=None`, semantic.facts) is tested only by a run in which some call of the
helper passed it; otherwise its verdict is ``condition-not-met``, not ``not-reproduced``.
Dynamo inlines helpers into its graphs without running them, so the arguments are read on
one eager pass over the run's calls, after the captures (:func:`call_arguments`, in the
worker); :func:`function_key` names a function the same way for the matcher.
"""

from __future__ import annotations

import inspect
import sys
import threading
from typing import Any, Callable, Sequence

from compilelint.probe.entry_args import identity_facts, value_facts
from compilelint.probe.userfiles import is_user_file

MAX_CALLS = 64  # calls read per function: enough to see each argument's variety, bounded cost


def function_key(path: str, qualname: str) -> str:
    """``path:Class.method.inner`` (the finding's ``scope``; Python's ``<locals>`` dropped)."""
    return f"{path}:{qualname.replace('.<locals>', '')}"


class CallRecorder:
    """A profile hook: per user function, what each parameter held over its first calls."""

    def __init__(self) -> None:
        self.facts: dict[str, dict[str, list[str]]] = {}
        self._seen: dict[Any, int] = {}
        self._user: dict[str, bool] = {}
        self._old: Any = None

    def _profile(self, frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        user = self._user.get(code.co_filename)
        if user is None:
            user = self._user[code.co_filename] = is_user_file(code.co_filename)
        seen = self._seen.get(code, 0)
        if not user or seen >= MAX_CALLS:
            return
        self._seen[code] = seen + 1
        key = function_key(code.co_filename, getattr(code, "co_qualname", code.co_name))
        table = self.facts.setdefault(key, {})
        values = frame.f_locals
        names = code.co_varnames
        count = code.co_argcount + code.co_kwonlyargcount
        for name in names[:count]:
            _add(table, name, value_facts(values.get(name)))
        for name, facts in identity_facts((name, values.get(name)) for name in names[:count]).items():
            _add(table, name, facts)
        if code.co_flags & inspect.CO_VARARGS:
            _add(table, names[count], ["nonempty"] if values.get(names[count]) else [])
            count += 1
        if code.co_flags & inspect.CO_VARKEYWORDS:
            _add(table, names[count], list(values.get(names[count]) or {}))

    def __enter__(self) -> "CallRecorder":
        self._old = sys.getprofile()
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(self._old)
        threading.setprofile(self._old)  # type: ignore[arg-type]


def _add(table: dict[str, list[str]], name: str, facts: list[str]) -> None:
    known = table.setdefault(name, [])
    known.extend(f for f in facts if f not in known)


def call_arguments(fn: Callable, calls: Sequence[tuple[tuple, dict]], grad_ctx: Callable) -> dict[str, Any]:
    """``{"path:qualname": {param: facts}}`` over one eager pass of ``calls``; empty when
    the pass raised (the captures already said how the target fails)."""
    recorder = CallRecorder()
    scripted = _scripted_functions()
    try:
        for table, name, script in scripted:
            table[name] = script._torchdynamo_inline
        with grad_ctx(), recorder:
            for a, k in calls:
                fn(*a, **k)
    except Exception:
        return {}
    finally:
        for table, name, script in scripted:
            table[name] = script
    return recorder.facts


def _scripted_functions() -> list[tuple[dict, str, Any]]:
    """(module globals, name, function) of each `@torch.jit.script` function a user module
    holds. TorchScript runs one without a Python frame, so the profile hook never sees its
    calls; Dynamo traces its Python original (`_torchdynamo_inline`), and so does the pass, with
    each swapped in for the while (geoopt's `_weighted_midpoint(..., posweight)`)."""
    script_type = getattr(getattr(sys.modules.get("torch"), "jit", None), "ScriptFunction", None)
    if script_type is None:
        return []
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        table = getattr(module, "__dict__", None)
        if not path or type(table) is not dict or not is_user_file(path):
            continue
        found.extend((table, name, value) for name, value in list(table.items())
                     if isinstance(value, script_type) and callable(getattr(value, "_torchdynamo_inline", None)))
    return found
