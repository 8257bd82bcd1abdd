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
gradients on for ``"train"``. Optional: ``SETTINGS`` (default ``("eval", "train")``), ``warm_up()``
(imports to do once per zygote; default: import torch and ``PACKAGE``) and ``before_build()``
(what every ``make`` needs first, such as stand-in modules: run before each one, since the
process building a model may not have run ``warm_up``).

``ZooSuite`` turns such a file into the suite ``calibrate.py`` runs (``NAME``,
``version()``, ``package_dir()``, ``models()``, ``build()``). Imports nothing heavy
itself: the adapter's factories import the library when they run.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import os
from typing import Any, Callable

ZOO_SETTINGS = ("eval", "train")


def is_adapter(module: Any) -> bool:
    """A zoo adapter (``PACKAGE`` and ``MODELS``), not a full suite (``build``)."""
    return hasattr(module, "MODELS") and hasattr(module, "PACKAGE") and not hasattr(module, "build")


@functools.cache
def mean_loss_module() -> type:
    """A module class whose forward reduces ``net``'s float outputs (through tuples, lists and
    dicts) to one scalar: a "train" loss for models without one of their own. ZooSuite sets
    it on each adapter as ``mean_loss_module`` (adapters are loaded by path, not imported)."""
    import torch

    class MeanLoss(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)  # the probe judges `given:` labels on net's forward

        def forward(self, *args, **kwargs):
            out = self.net(*args, **kwargs)
            todo, terms = [out], []
            while todo:
                o = todo.pop()
                if isinstance(o, torch.Tensor):
                    if o.is_floating_point():
                        terms.append(o.float().mean())
                elif isinstance(o, dict):
                    todo.extend(o.values())
                elif isinstance(o, (tuple, list)):
                    todo.extend(o)
            return torch.stack(terms).sum()

    return MeanLoss


@functools.cache
def classifier_loss_module() -> type:
    """A module class ``(net, batch, classes)`` whose forward returns the cross-entropy of
    ``net``'s logits (the first output of a tuple) against fixed labels. ZooSuite sets it on
    each adapter as ``classifier_loss_module``."""
    import torch
    import torch.nn.functional as F

    class ClassifierLoss(torch.nn.Module):
        def __init__(self, net, batch, classes):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)  # the probe judges `given:` labels on net's forward
            self.register_buffer("labels", torch.arange(batch) % classes)

        def forward(self, *args, **kwargs):
            logits = self.net(*args, **kwargs)
            if isinstance(logits, (tuple, list)):
                logits = logits[0]
            return F.cross_entropy(logits, self.labels)

    return ClassifierLoss


def stub_modules(names: dict[str, tuple[tuple[str, ...], tuple[str, ...]]], owner: str) -> None:
    """Stand-in modules for what a library imports at its top but no model uses (torchvision,
    held out and never installed; heavy trainers' dependencies): ``names`` maps a module to
    (its functions, its classes), which raise when called. A real installed module is left
    alone. ZooSuite sets it on each adapter as ``stub_modules``."""
    import sys
    import types

    def missing(name, kind):
        def fn(*args, **kwargs):
            raise ImportError(f"{name} is not installed (a stand-in: {owner} {kind} it)")

        return fn

    for mod_name, (funcs, classes) in names.items():
        mod = sys.modules.get(mod_name)
        if mod is None:
            mod = types.ModuleType(mod_name)
            mod.__path__ = []
            # (`importlib.util.find_spec(name)`, which torch asks of optional packages, needs one)
            mod.__spec__ = importlib.machinery.ModuleSpec(mod_name, None, is_package=True)
            sys.modules[mod_name] = mod
            parent, _, child = mod_name.rpartition(".")
            if parent:
                setattr(sys.modules[parent], child, mod)
        if getattr(mod, "__file__", None) is not None:
            continue  # only ever fill in a stand-in
        for attr in funcs:
            if not hasattr(mod, attr):
                fn = missing(f"{mod_name}.{attr}", "called")
                fn.__name__ = attr
                setattr(mod, attr, fn)
        for attr in classes:
            if not hasattr(mod, attr):
                setattr(mod, attr, type(attr, (), {"__init__": missing(f"{mod_name}.{attr}", "built")}))


class ZooSuite:
    """The calibrate suite of one adapter module."""

    def __init__(self, adapter: Any):
        self.adapter = adapter
        adapter.mean_loss_module = mean_loss_module
        adapter.classifier_loss_module = classifier_loss_module
        adapter.stub_modules = stub_modules
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
        if spec is None:
            raise SystemExit(f"{self.adapter.PACKAGE} is not installed (see {self.adapter.__file__} for the "
                             "pinned version; pip install --no-deps, never torch)")
        if not spec.submodule_search_locations:
            raise SystemExit(f"{self.adapter.PACKAGE} is a single module ({spec.origin}), not a package: the zoo "
                             "checks a package's folder (docs/calibration.md)")
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
        before = getattr(self.adapter, "before_build", None)
        if before is not None:
            before()
        torch.manual_seed(0)
        built = make(setting)
        if not (isinstance(built, tuple) and len(built) == 3):
            raise TypeError(f"{self.NAME} adapter: MODELS[{model!r}] must return (callable, args, kwargs)")
        fn, args, kwargs = built
        if isinstance(fn, torch.nn.Module):  # the probe only switches to training; eval is ours to set
            fn.train(setting == "train")
        torch.manual_seed(0)
        return fn, tuple(args), dict(kwargs), {"class": type(fn).__name__}

