"""A library's plain objects and mixed modules (`index_roots`): the public methods of a public
class that is no module whose bodies show they take tensors (`FunctionSummary.shows`: a negative
sampler's `corrupt(heads, tails)` reads `heads.device`), and the functions that call no data
library in a module whose other functions download or unpickle, are API user code calls in the
step it compiles. What they reach is a note with the `api` condition; Dynamo breaks where the
notes are. Methods that show no tensor, set-up methods, private ones and functions that read
files are not API."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from compilelint.finding import API
from helpers import imported, write_package

SAMPLING = textwrap.dedent("""
    import torch


    class UniformSampler:
        def __init__(self, n_ent):
            self.n_ent = n_ent

        def corrupt(self, heads, tails):
            device = heads.device
            mask = torch.bernoulli(torch.full(heads.shape, 0.5, device=device))
            n_heads = int(mask.sum().item())  # ITEM
            heads = heads.clone()
            heads[mask == 1] = torch.randint(0, self.n_ent, (n_heads,), device=device)
            return heads, tails

        def describe(self, name):  # nothing shows a tensor: a report, not compiled code
            print("sampler", name, self.n_ent)

        def set_entities(self, heads):  # set-up
            print("entities", heads.device)

        def _debug(self, heads):
            print("private", heads.device)
""")

MODELING = textwrap.dedent("""
    import pickle
    from urllib.request import urlretrieve


    def true_targets(table, keys, i):
        return table.get(keys[i].item())  # ITEM


    def filter_scores(scores, table, keys):
        filtered = scores.clone()
        for i in range(scores.shape[0]):
            targets = true_targets(table, keys, i)
            if targets is not None:
                filtered[i][targets] = -float("inf")
        return filtered


    def fetch_scores(scores, url):  # downloads: a data function beside the computing ones
        urlretrieve(url, "scores.pkl")
        print("fetched", scores.clone().sum().item())
        with open("scores.pkl", "rb") as handle:
            return pickle.load(handle)
""")


HMM = textwrap.dedent("""
    import torch


    class _BaseModel(torch.nn.Module):
        def fit(self, X):
            steps = X.sum().item()  # ITEM
            return X * steps

        def score(self, X):  # overridden: the exported class's own runs
            print("base", X.shape)
            return X

        def _check(self, X):
            print("private", X.shape)


    class DenseModel(_BaseModel):
        def forward(self, X):
            return X.sum()

        def score(self, X):
            return X.mean()
""")


def _package(root, files: dict[str, str]):
    write_package(root, "kgpkg", files)
    return root


def _line(text, marker):
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def _findings(root):
    return sorted((f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when)
                  for f in check([str(root)], config_mod.load(start=str(root))).findings)


EXPORTS = {"__init__.py": "from .sampling import UniformSampler\n"}
BY_PATH = {"__init__.py": "from .models import Model\n", "models.py": "class Model:\n    pass\n"}
MIXIN = SAMPLING + textwrap.dedent("""

    class Scorer(UniformSampler, torch.nn.Module):
        def forward(self, heads):
            return heads.float()
""")

# (package files, the file whose `# ITEM` line holds the note)
API_CASES = {
    "plain object's tensor methods": ({**EXPORTS, "sampling.py": SAMPLING}, "sampling.py"),
    # a metric or a noise source called as a function (`cindex(estimate, event, time)`)
    "callable object's __call__": ({**EXPORTS, "sampling.py": SAMPLING.replace("def corrupt(", "def __call__(")},
                                   "sampling.py"),
    # torchkge's `sampling` is imported by path (`from torchkge.sampling import ...`)
    "public submodule's plain object": ({**BY_PATH, "sampling.py": SAMPLING}, "sampling.py"),
    # demucs: an `__init__` with only `__version__`, and a `py.typed` marker (PEP 561)
    "py.typed package": ({"__init__.py": "__version__ = '1.0'\n", "py.typed": "", "sampling.py": SAMPLING},
                         "sampling.py"),
    # torchkge's `utils.modeling`: `filter_scores` computes beside `load_embeddings`, which
    # downloads; the function that reads files is no API
    "computing function of a file-reading module": ({**BY_PATH, "modeling.py": MODELING}, "modeling.py"),
    # pytorch-kinematics' IK solvers draw their progress only `if self.debug:`, and compile their
    # own step kernel on request
    "object of a module that plots on request": ({**EXPORTS, "sampling.py": SAMPLING.replace(
        "import torch", "import torch\nimport matplotlib.pyplot as plt").replace(
        "        return heads, tails", "        if self.debug:\n            plt.plot(heads)\n"
        "        return heads, tails").replace("self.n_ent = n_ent", "self.n_ent = n_ent\n        self.debug = False")},
        "sampling.py"),
    "object that compiles its own kernel": ({**EXPORTS, "sampling.py": SAMPLING.replace(
        "self.n_ent = n_ent", "self.n_ent = n_ent\n        self.kernel = torch.compile(kernel)") + "\n\ndef kernel(x):\n"
        "    return x * 2\n"}, "sampling.py"),
    # pomegranate's `DenseHMM.fit`, defined on the private `_BaseHMM`
    "module method inherited from a private base": ({"__init__.py": "from .hmm import DenseModel\n", "hmm.py": HMM},
                                                    "hmm.py"),
}

NO_API_CASES = {
    "application package": {"__init__.py": "", "sampling.py": SAMPLING},
    # a processor or collator runs in the data loader, though its methods take tensors
    "data pipeline's object": {"__init__.py": "from .sampling import UniformCollator\n",
                               "sampling.py": SAMPLING.replace("class UniformSampler:", "class UniformCollator:")},
    # an estimator's `fit` / `transform` prepare the data (pytorch-forecasting's normalizers)
    "scikit-learn transformer": {**EXPORTS, "sampling.py": SAMPLING.replace(
        "import torch", "import torch\nfrom sklearn.base import TransformerMixin").replace(
        "class UniformSampler:", "class UniformSampler(TransformerMixin):")},
    # transformers' `GenerationMixin`: what the module's own API reaches
    "module class's mixin": {"__init__.py": "from .sampling import UniformSampler, Scorer\n", "sampling.py": MIXIN},
    "dataset": {**EXPORTS, "sampling.py": SAMPLING.replace(
        "class UniformSampler:", "class UniformSampler(torch.utils.data.Dataset):")},
    # a method that plots whatever it is asked draws a figure: no compiled code
    "object that plots": {**EXPORTS, "sampling.py": SAMPLING.replace(
        "import torch", "import torch\nimport matplotlib.pyplot as plt").replace(
        "        return heads, tails", "        plt.plot(heads)\n        return heads, tails")},
    # a script that compiles a model it builds is the program, not a library
    "module that compiles a model": {**EXPORTS, "sampling.py": SAMPLING + "\n\nmodel = torch.compile(torch.nn.Linear(2, 2))\n"},
    # a trainer that is no learner (its module reads tables) loops over a loader in `fit`
    "trainer": {**EXPORTS, "sampling.py": "import pandas\n" + SAMPLING.replace(
        "            return heads, tails", "            heads.sum().backward()\n            return heads, tails")},
    # litgpt's `finetune` scripts: `fit(...)` beside a `DataLoader`
    "module that builds a loader": {**BY_PATH, "modeling.py": "from torch.utils.data import DataLoader\n" + MODELING},
    # neuralforecast's `BaseModel(pl.LightningModule)`: another framework calls its methods
    "private base of another framework": {"__init__.py": "from .hmm import DenseModel\n", "hmm.py": HMM.replace(
        "import torch", "import lightning\nimport torch").replace(
        "class _BaseModel(torch.nn.Module):", "class _BaseModel(lightning.LightningModule, torch.nn.Module):")},
    # the module parses a command line: it runs the program, user code compiles none of it
    "command-line module": {**BY_PATH, "cli.py": "import click\n" + MODELING.replace("import pickle", "import os")},
}


@pytest.mark.parametrize("files, noted", API_CASES.values(), ids=API_CASES)
def test_api_notes_at_the_break(tmp_path, files, noted):
    root = _package(tmp_path, files)
    assert _findings(root) == [(noted, _line(files[noted], "# ITEM"), "CL103", "note", (API,))]


@pytest.mark.parametrize("files", NO_API_CASES.values(), ids=NO_API_CASES)
def test_no_api(tmp_path, files):
    assert _findings(_package(tmp_path, files)) == []


# what marks an empty-`__init__` package as published (compilelint.published): rwkv's wheel
# (`rwkv-0.8.32.dist-info` beside it), a source tree that builds a distribution
PUBLISHED = {
    "installed distribution": {"kgpkg-1.0.dist-info/METADATA": "Name: kgpkg\n"},
    "distribution listing it in top_level.txt": {"kg_tools-2.0.dist-info/top_level.txt": "kgpkg\n"},
    "pyproject.toml with a [project] table": {"pyproject.toml": "[project]\nname = 'kgpkg'\n\n[tool.compilelint]\n"},
    "setup.py": {"setup.py": "from setuptools import setup\nsetup(name='kgpkg')\n"},
}


@pytest.mark.parametrize("beside", PUBLISHED.values(), ids=PUBLISHED)
def test_a_published_package_with_an_empty_init_has_an_api(tmp_path, beside):
    for name, text in beside.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    root = _package(tmp_path, {"sampling.py": SAMPLING})
    assert _findings(root) == [("sampling.py", _line(SAMPLING, "# ITEM"), "CL103", "note", (API,))]


def test_another_distribution_beside_it_does_not_publish_it(tmp_path):
    (tmp_path / "other-1.0.dist-info").mkdir()
    (tmp_path / "other-1.0.dist-info" / "top_level.txt").write_text("other\n")
    assert _findings(_package(tmp_path, {"sampling.py": SAMPLING})) == []


def test_dynamo_breaks_in_a_plain_objects_method(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "", "sampling.py": SAMPLING})
    with imported(root, "kgpkg.sampling") as sampling:
        sampler = sampling.UniformSampler(10)
        model = torch.nn.Embedding(10, 3)

        def step(heads, tails):
            neg_heads, neg_tails = sampler.corrupt(heads, tails)
            return (model(heads) - model(neg_heads)).pow(2).sum()

        result = capture(step, (torch.randint(0, 10, (8,)), torch.randint(0, 10, (8,))), backend="eager")
    assert result.error is None
    assert _line(SAMPLING, "# ITEM") in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_dynamo_breaks_in_a_computing_function_of_a_data_module(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "", "modeling.py": MODELING})
    with imported(root, "kgpkg.modeling") as modeling:
        table = {1: [0, 2], 3: [4]}
        result = capture(lambda s, k: modeling.filter_scores(s, table, k), (torch.randn(4, 5), torch.tensor([1, 3, 0, 1])),
                         backend="eager")
    assert result.error is None
    assert _line(MODELING, "# ITEM") in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_dynamo_breaks_in_a_method_inherited_from_a_private_base(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "", "hmm.py": HMM})
    with imported(root, "kgpkg.hmm") as hmm:
        model = hmm.DenseModel()
        result = capture(model.fit, (torch.randn(4, 2),), backend="eager")
    assert result.error is None
    assert _line(HMM, "# ITEM") in {r.line for r in result.breaks if r.kind == "graph_break"}


# torchattacks' JSMA: the public `@torch.no_grad()` `saliency_map(jacobian, increasing)` is an
# inference entry, its untyped parameters taken for tensors as a forward's are; but the package's own `perturb` passes
# `increasing` a Python bool, so testing it is no break (and `jacobian`, a tensor, still is one)
ATTACK = textwrap.dedent("""
    import torch


    class Saliency:
        def __init__(self, theta=1.0):
            self.theta = theta

        @torch.no_grad()
        def saliency_map(self, jacobian, increasing):
            scale = torch.ones(1, device=jacobian.device)
            if increasing:  # FLAG
                jacobian = jacobian * scale
            return jacobian, int(jacobian.sum().item())  # ITEM

        def perturb(self, image):
            image = image.to(image.device)
            if self.theta > 0:
                increasing = True
            else:
                increasing = False
            return self.saliency_map(image * 2, increasing)
""")


def test_an_api_parameter_the_package_passes_python_values_is_no_tensor(tmp_path):
    root = _package(tmp_path, {**EXPORTS, "sampling.py": ATTACK.replace("Saliency", "UniformSampler")})
    assert _findings(root) == [("sampling.py", _line(ATTACK, "# ITEM"), "CL103", "note", (API,))]


def test_dynamo_on_an_api_method_given_a_python_flag(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"sampling.py": ATTACK})
    with imported(root, "kgpkg.sampling") as sampling:
        attack = sampling.Saliency()
        result = capture(attack.perturb, (torch.randn(3),), backend="eager")
    assert result.error is None
    lines = {r.line for r in result.breaks if r.kind == "graph_break"}
    assert _line(ATTACK, "# ITEM") in lines and _line(ATTACK, "# FLAG") not in lines
