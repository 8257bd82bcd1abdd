"""Which modules of a project hold code that may run compiled: not one that loads, downloads or
plots data, nor a program that compiles a model itself. A mixin of `index.ProjectIndex`, used
by the API and region roots (`index_roots`)."""

from __future__ import annotations

# what a module that loads, downloads or plots data imports: its functions are not compiled code
# (not tqdm: a progress bar wraps samplers' and solvers' loops too, k-diffusion's `sampling`)
DATA_LIBRARIES = frozenset({
    "matplotlib", "seaborn", "plotly", "pandas", "h5py", "urllib", "requests", "tarfile", "zipfile",
    "gzip", "glob", "shutil", "struct", "pickle", "csv", "PIL", "cv2", "imageio", "skimage", "wandb",
    "tensorboard", "tensorboardX", "huggingface_hub", "datasets", "argparse", "click", "typer", "fire", "subprocess",
})
# of those, what only fetches or reads files: a module importing nothing else of the list may
# compute too (torchkge's `utils.modeling` downloads embeddings beside `filter_scores`); one that
# decodes images, plots, frames tables, logs a run or parses a command line is the pipeline's
FILE_LIBRARIES = frozenset({"h5py", "urllib", "requests", "tarfile", "zipfile", "gzip", "glob", "shutil", "struct",
                            "pickle", "csv", "huggingface_hub"})
# plotting a module may do only on request (pytorch-kinematics' IK solvers draw their progress
# under `if self.debug:`): a function whose plotting calls all sit behind a condition computes
PLOT_LIBRARIES = frozenset({"matplotlib", "seaborn", "plotly"})
DATASETS = ("torch.utils.data", "torch.utils.tensorboard")


class ComputeModules:
    def _compute_module(self, module: str, reading_files: bool = False, own_loaders: bool = False) -> bool:
        """A module whose functions may run compiled: not one that loads, downloads or plots
        data (it imports such a library or defines a `torch.utils.data` dataset), nor a
        program that compiles a model itself (a training script). `reading_files`: a module
        whose only such imports fetch or read files (`FILE_LIBRARIES`) passes too.
        `own_loaders`: one whose learner wraps its own data in loaders passes too — it imports
        `torch.utils.data`, and may make a dataset class inside a method, but defines none at
        module level (cebra's `solver.base`: `fit` builds a `DataLoader` around `step`)."""
        cache = self.__dict__.setdefault("_compute_modules", {})
        if (module, reading_files, own_loaders) not in cache:
            summary = self.modules.get(module)
            allowed = FILE_LIBRARIES | PLOT_LIBRARIES if reading_files else frozenset()
            cache[module, reading_files, own_loaders] = summary is not None \
                and not self._compiles_a_program(summary) and not any(
                    (head := qualified.split(".", 1)[0]) in DATA_LIBRARIES and head not in allowed
                    or not own_loaders and qualified.startswith(DATASETS) for qualified in summary.imports.values()) \
                and not any(base.startswith(DATASETS) for qualname, cls in summary.classes.items()
                            if not (own_loaders and "<locals>" in qualname) for base in cls.bases)
        return cache[module, reading_files, own_loaders]

    @staticmethod
    def _compiles_a_program(summary) -> bool:
        """The module hands torch.compile something other than its own object's parts: a
        training script compiles its model. A library class that compiles a submodule it holds
        on request (pyod's `if self.use_compile: self.generator = torch.compile(self.generator)`)
        is still a library's compute module, and so is one whose class compiles its own kernels in a
        method (pytorch-kinematics' `PseudoInverseIK(use_compile=True)`: `torch.compile(_ik_step_kernel)`)."""
        return any(target.kind != "method" and not (target.kind == "name" and "." in (target.scope or "")
                                                    and target.scope.split(".", 1)[0] in summary.classes)
                   for target in summary.compile_targets)

    def _compute_function(self, key: str) -> bool:
        """A function that may run compiled: one of a compute module, or one that calls no
        data library itself in a module that only fetches or reads files besides (torchkge's
        `utils.modeling`: `load_embeddings` downloads with `urlretrieve`, `filter_scores` beside
        it computes). Never in a module that loads a dataset (litgpt's `finetune` scripts build a
        `DataLoader`), decodes images, plots or parses a command line (the demo's `tinygpt.cli`)."""
        module = key.split(":", 1)[0]
        return self._compute_module(module) or self._compute_module(module, reading_files=True) and not any(
            self._data_call(self.modules[module], call) for call in self.functions[key].calls)

    @staticmethod
    def _data_call(summary, call) -> bool:
        """A call into a library that loads, downloads or plots data, or to `open` (not a plotting
        call behind a condition: `if self.debug: plt.subplots()`)."""
        if call.kind == "dotted":
            qualified = call.target
        elif call.kind == "name":
            head = call.target.split(".", 1)[0]
            qualified = summary.imports.get(head, "builtins.open" if head == "open" else "")
        else:
            return False
        library = qualified.split(".", 1)[0]
        return qualified == "builtins.open" or library in DATA_LIBRARIES and not (call.when and library in PLOT_LIBRARIES)
