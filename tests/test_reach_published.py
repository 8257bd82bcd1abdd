"""Ways user code reaches library code the walk once missed, against Dynamo:

- a public subpackage's `__init__` that declares `__all__` publishes classes from private modules (captum's
  `from captum.attr import IntegratedGradients`, defined in `captum.attr._core.integrated_gradients`):
  their methods are the API user code calls in the step it compiles, as a top-level package's are;
  a private subpackage's re-exports are not;
- a method stores a function it defines on the object (deepxde's `self.train_step = train_step`):
  `self.train_step(...)` runs that nested function, not a module-level function of the same name;
- a public module class's static method that computes on a tensor it is given (geotorch's
  `Skew.in_manifold(X)`) is called like a function; one that builds shows no tensor and is not;
- a public function whose loop uses the elements it takes from a parameter as tensors
  (speechbrain's `ctc_greedy_decode`: `seq.narrow(...)`) takes tensors; one over strings does not.
"""

import json
import subprocess
import sys

import torch

from compilelint.finding import API
from compilelint.probe.observe import observe
from helpers import imported, write_package

SALIENCY = '''
import torch


class Saliency:
    def __init__(self, forward_func):
        self.forward_func = forward_func

    def attribute(self, inputs, target):
        inputs = inputs.detach().clone()
        scores = self.forward_func(inputs)[:, target]
        if scores.sum().item() == 0:  # BREAK
            return torch.zeros_like(inputs)
        return scores.unsqueeze(-1) * inputs
'''

HIDDEN = '''
import torch


class Hidden:
    def attribute(self, inputs):
        print("a private subpackage's class: not the API")
        return inputs
'''

CLOSURES = '''
import torch


def step(x):
    print("a module-level namesake: never called by the model")
    return x


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self._build()

    def _build(self):
        def step(x):
            h = self.lin(x)
            print("step", h.shape)  # BREAK
            return h

        def evaluate(x):
            return self.lin(x).sum()

        self.step = step
        self.evaluate = evaluate

    def forward(self, x):
        return self.step(x) + self.evaluate(x)
'''


def _check(root, package):
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", package, "--output-format", "json",
                          "--no-cache", "--exit-zero"], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["findings"]


def _marked(source: str) -> set[int]:
    return {i for i, line in enumerate(source.splitlines(), 1) if "# BREAK" in line}


def test_a_public_subpackage_publishes_its_private_modules_classes(tmp_path):
    pkg = write_package(tmp_path, "xai", {})
    (pkg / "__init__.py").write_text("from xai import attr\n")
    (pkg / "attr").mkdir()
    (pkg / "attr" / "__init__.py").write_text("from xai.attr._core.saliency import Saliency\n\n__all__ = [\"Saliency\"]\n")
    (pkg / "attr" / "_core").mkdir()
    (pkg / "attr" / "_core" / "__init__.py").write_text("")
    (pkg / "attr" / "_core" / "saliency.py").write_text(SALIENCY)
    (pkg / "_impl").mkdir()
    (pkg / "_impl" / "__init__.py").write_text("from xai._impl.hidden import Hidden\n\n__all__ = [\"Hidden\"]\n")
    (pkg / "_impl" / "hidden.py").write_text(HIDDEN)
    findings = _check(tmp_path, "xai")
    assert [(f["path"].rsplit("/", 1)[-1], f["line"], f["code"], API in f["when"]) for f in findings] == [
        ("saliency.py", line, "CL103", True) for line in _marked(SALIENCY)]
    with imported(tmp_path, "xai.attr") as attr:
        model = torch.nn.Linear(3, 2)
        explainer = attr.Saliency(model)

        def step(x):  # the user's compiled step
            return explainer.attribute(x, target=1).sum()

        obs = observe(step, [((torch.randn(4, 3),), {})], backend="eager", recapture=False)
        dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("saliency.py")}
    assert dynamo == _marked(SALIENCY)


def test_a_function_a_method_stores_on_the_object_is_what_calling_it_runs(tmp_path):
    write_package(tmp_path, "pinn", {"model.py": CLOSURES})
    findings = _check(tmp_path, "pinn")
    static = {f["line"] for f in findings}
    assert static == _marked(CLOSURES)  # not the module-level `step`'s print
    with imported(tmp_path, "pinn.model") as model_mod:
        model = model_mod.Model()
        obs = observe(model, [((torch.randn(2, 3),), {})], backend="eager", recapture=False)
        dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == static


DETECTOR = '''
import torch


class Generator(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, z):
        return self.lin(z)


class GAAL:
    def __init__(self, use_compile=False):
        self.generator = Generator()
        if use_compile:  # the library compiles its own part on request: still a library module
            self.generator = torch.compile(self.generator)

    def training_forward(self, batch):
        loss = (self.generator(batch) - batch).pow(2).mean()
        loss.backward()  # BREAK
        return loss.item()  # BREAK
'''


def test_a_library_class_that_compiles_its_own_part_is_still_api(tmp_path):
    # pyod's SO_GAAL: `if self.use_compile: self.generator = torch.compile(...)`; a training
    # script compiles what it builds (module level), and its functions are no library's API
    pkg = write_package(tmp_path, "detect", {"gaal.py": DETECTOR})
    (pkg / "__init__.py").write_text("from detect.gaal import GAAL\n")
    findings = _check(tmp_path, "detect")
    static = {f["line"] for f in findings if f["path"].endswith("gaal.py")}
    assert static == _marked(DETECTOR)
    assert all(API in f["when"] for f in findings)
    with imported(tmp_path, "detect.gaal") as gaal:
        detector = gaal.GAAL()
        obs = observe(detector.training_forward, [((torch.randn(4, 3),), {})], backend="eager", recapture=False,
                      train=True)
        dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("gaal.py")}
    assert dynamo == static


MANIFOLD = '''
import torch


class Mode:
    FAST = "fast"


class Skew(torch.nn.Module):
    def forward(self, x):
        return x - x.transpose(-2, -1)

    @staticmethod
    def in_manifold(X):
        return X.dim() >= 2 and torch.allclose(X, -X.transpose(-2, -1))  # BREAK

    @staticmethod
    def from_config(cfg):
        print("building", cfg)  # builds: no tensor shown, not the API
        return Skew()

    @staticmethod
    def describe(items: list, mode: Mode):
        for item in items:
            print(mode, item)  # the package's own type (an enum), no tensor: not the API
'''


def test_a_static_method_that_computes_on_a_tensor_is_api(tmp_path):
    # geotorch's `Skew.in_manifold(X)`: user code calls it in the step it compiles; a static
    # method that shows no tensor parameter (a builder) is not reported
    pkg = write_package(tmp_path, "manifolds", {"skew.py": MANIFOLD})
    (pkg / "__init__.py").write_text("from manifolds.skew import Skew\n")
    findings = _check(tmp_path, "manifolds")
    static = {f["line"] for f in findings if f["path"].endswith("skew.py")}
    assert static == _marked(MANIFOLD)
    with imported(tmp_path, "manifolds.skew") as skew:
        def step(x):  # the user's compiled step
            return x * 2 if skew.Skew.in_manifold(x) else x

        obs = observe(step, [((torch.randn(3, 3),), {})], backend="eager", recapture=False)
        dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("skew.py")}
    assert dynamo == static


DECODE = '''
import torch


def greedy_decode(probabilities, lengths):
    outputs = []
    for seq, rel in zip(probabilities, lengths):
        size = int(torch.round(rel * probabilities.shape[1]))  # BREAK
        outputs.append(seq.narrow(0, 0, size).argmax(-1))
    return outputs


def join_words(words, counts):
    out = []
    for word, n in zip(words, counts):
        print(word.lower(), n)  # strings: no tensor shown, not the API
    return out
'''


def test_a_function_whose_loop_shows_the_elements_are_tensors_is_api(tmp_path):
    # speechbrain's `ctc_greedy_decode(probabilities, seq_lens)`: the parameters show nothing
    # themselves; the elements a loop takes from them are narrowed (`seq.narrow(...)`)
    pkg = write_package(tmp_path, "decoders", {"ctc.py": DECODE})
    (pkg / "py.typed").write_text("")  # a library others import, which re-exports nothing
    findings = _check(tmp_path, "decoders")
    static = {f["line"] for f in findings if f["path"].endswith("ctc.py") and f["code"] != "CL150"}
    assert static == _marked(DECODE)
    with imported(tmp_path, "decoders.ctc") as ctc:
        def step(p, n):  # the user's compiled step
            return ctc.greedy_decode(p, n)

        obs = observe(step, [((torch.randn(2, 5, 3), torch.tensor([0.6, 1.0])), {})], backend="eager",
                      recapture=False)
        dynamo = {b.line for b in obs.capture.breaks if (b.file or "").endswith("ctc.py")}
    assert _marked(DECODE) <= dynamo
