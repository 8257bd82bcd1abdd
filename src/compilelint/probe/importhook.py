"""The import hook of `probe -- COMMAND`: a module is patched right after it has run,
before anything imports names from it (:mod:`compilelint.probe.hook`)."""

from __future__ import annotations

import sys
from typing import Any, Callable


class PatchingFinder:
    """A meta path finder that lets the others find a module named in ``wanted`` and
    calls ``patch(module)`` once the module has run."""

    def __init__(self, wanted: Any, patch: Callable[[Any], None]) -> None:
        self.wanted = wanted
        self.patch = patch

    def find_spec(self, name: str, path: Any = None, target: Any = None):
        if name not in self.wanted:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        patch = self.patch
        exec_module = loader.exec_module

        class _Patching:  # the loader, then the patch
            def __getattr__(self, attr):
                return getattr(loader, attr)

            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                exec_module(module)
                patch(module)

        spec.loader = _Patching()
        return spec
