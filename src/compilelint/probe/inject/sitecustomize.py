"""Put first on PYTHONPATH by `compilelint probe -- COMMAND`: installs the probe's hook
in the user's program (:func:`compilelint.probe.hook.install_from_env`), then runs the
``sitecustomize`` this one shadows, if there is one, so the user's setup still happens."""

import importlib.util
import os
import sys


def _chain() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = None
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find("sitecustomize", rest)
        except Exception:
            spec = None
        if spec is not None:
            break
    if spec is None or spec.loader is None or (spec.origin and os.path.dirname(os.path.abspath(spec.origin)) == here):
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


try:
    _chain()
finally:
    try:
        from compilelint.probe.hook import install_from_env

        install_from_env()
    except Exception as _exc:  # the program runs anyway
        print(f"compilelint probe: hook not installed: {_exc}", file=sys.stderr)
