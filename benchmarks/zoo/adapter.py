"""The model-zoo adapter interface: what a model library plugs into ``benchmarks/calibrate.py``.

An adapter is one file, ``benchmarks/zoo/<library>.py``, that says three things:

    PACKAGE = "monai"                 # the import name; its installed folder is what the static pass checks
    DISTRIBUTION = "monai"            # optional: the pip name the version is read from (default PACKAGE)

    def _unet(mode):                  # mode: "eval" or "train"
        from monai.networks.nets import UNet
        import torch
        return UNet(2, 1, 2, (8, 16), (2,)), (torch.randn(1, 1, 32, 32),), {}

    MODELS = {"UNet": _unet, ...}     # name -> make(mode) -> (callable, args, kwargs)

``make`` builds one model from a config with random weights (no download) and its
inputs; in ``"train"`` it may return a module whose forward computes a loss.
A module is put in the mode's state (``.train()`` / ``.eval()``) and the probe turns
gradients on for ``"train"``. Optional: ``SETTINGS`` (default ``("eval", "train")``) and ``warm_up()``
(imports to do once per zygote; default: import torch and ``PACKAGE``).

``ZooSuite`` turns such a file into the suite ``calibrate.py`` runs (``NAME``,
``version()``, ``package_dir()``, ``models()``, ``build()``). Imports nothing heavy
itself: the adapter's factories import the library when they run.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any, Callable

ZOO_SETTINGS = ("eval", "train")


def is_adapter(module: Any) -> bool:
    """A zoo adapter (``PACKAGE`` and ``MODELS``), not a full suite (``build``)."""
    return hasattr(module, "MODELS") and hasattr(module, "PACKAGE") and not hasattr(module, "build")


class ZooSuite:
    """The calibrate suite of one adapter module."""

    def __init__(self, adapter: Any):
        self.adapter = adapter
        self.NAME = adapter.PACKAGE
        self.SETTINGS = tuple(getattr(adapter, "SETTINGS", ZOO_SETTINGS))
        bad = [s for s in self.SETTINGS if s not in ZOO_SETTINGS]
        if bad:
            raise ValueError(f"{adapter.__file__}: SETTINGS may name {ZOO_SETTINGS}, not {bad}")

    def version(self) -> str:
        from importlib.metadata import version

        return version(getattr(self.adapter, "DISTRIBUTION", self.adapter.PACKAGE))

    def package_dir(self) -> str:
        spec = importlib.util.find_spec(self.adapter.PACKAGE)
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(f"{self.adapter.PACKAGE} is not installed (see {self.adapter.__file__} for the "
                             "pinned version; pip install --no-deps, never torch)")
        return os.path.realpath(list(spec.submodule_search_locations)[0])

    def warm_up(self) -> None:
        hook = getattr(self.adapter, "warm_up", None)
        if hook is not None:
            hook()
            return
        import torch  # noqa: F401

        importlib.import_module(self.adapter.PACKAGE)

    def models(self) -> list[str]:
        return sorted(self.adapter.MODELS)

    def build(self, model: str, setting: str, chosen: dict | None) -> tuple:
        import torch

        if setting not in self.SETTINGS:
            raise ValueError(f"{self.NAME} has no {setting!r} setting (it has {', '.join(self.SETTINGS)})")
        make: Callable = self.adapter.MODELS[model]
        torch.manual_seed(0)
        built = make(setting)
        if not (isinstance(built, tuple) and len(built) == 3):
            raise TypeError(f"{self.NAME} adapter: MODELS[{model!r}] must return (callable, args, kwargs)")
        fn, args, kwargs = built
        if isinstance(fn, torch.nn.Module):  # the probe only switches to training; eval is ours to set
            fn.train(setting == "train")
        torch.manual_seed(0)
        return fn, tuple(args), dict(kwargs), {"class": type(fn).__name__}

