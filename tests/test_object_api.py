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


def _package(root, files: dict[str, str]):
    write_package(root, "kgpkg", files)
    return root


def _line(text, marker):
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def _findings(root):
    return sorted((f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when)
                  for f in check([str(root)], config_mod.load(start=str(root))).findings)


def test_a_plain_objects_tensor_methods_are_api(tmp_path):
    root = _package(tmp_path, {"__init__.py": "from .sampling import UniformSampler\n", "sampling.py": SAMPLING})
    assert _findings(root) == [("sampling.py", _line(SAMPLING, "# ITEM"), "CL103", "note", (API,))]


def test_a_callable_objects_call_is_api(tmp_path):
    # a metric or a noise source called as a function (`cindex(estimate, event, time)`)
    text = SAMPLING.replace("def corrupt(", "def __call__(")
    root = _package(tmp_path, {"__init__.py": "from .sampling import UniformSampler\n", "sampling.py": text})
    assert _findings(root) == [("sampling.py", _line(text, "# ITEM"), "CL103", "note", (API,))]


def test_a_public_submodules_plain_object_is_api_too(tmp_path):
    # torchkge's `sampling` is imported by path (`from torchkge.sampling import ...`)
    root = _package(tmp_path, {"__init__.py": "from .models import Model\n", "models.py": "class Model:\n    pass\n",
                               "sampling.py": SAMPLING})
    assert _findings(root) == [("sampling.py", _line(SAMPLING, "# ITEM"), "CL103", "note", (API,))]


def test_an_application_packages_objects_are_no_api(tmp_path):
    root = _package(tmp_path, {"__init__.py": "", "sampling.py": SAMPLING})
    assert _findings(root) == []


def test_a_package_with_a_py_typed_marker_is_a_library(tmp_path):
    # demucs: an `__init__` with only `__version__`, and a `py.typed` marker (PEP 561)
    root = _package(tmp_path, {"__init__.py": "__version__ = '1.0'\n", "py.typed": "", "sampling.py": SAMPLING})
    assert _findings(root) == [("sampling.py", _line(SAMPLING, "# ITEM"), "CL103", "note", (API,))]


def test_a_function_that_calls_no_data_library_in_a_data_module_is_api(tmp_path):
    # torchkge's `utils.modeling`: `filter_scores` computes beside `load_embeddings`, which
    # downloads; the module is public (imported by path), the function that reads files is no API
    root = _package(tmp_path, {"__init__.py": "from .models import Model\n", "models.py": "class Model:\n    pass\n",
                               "modeling.py": MODELING})
    assert _findings(root) == [("modeling.py", _line(MODELING, "# ITEM"), "CL103", "note", (API,))]


def test_a_data_pipelines_object_is_no_api(tmp_path):
    # a processor or collator runs in the data loader, though its methods take tensors
    text = SAMPLING.replace("class UniformSampler:", "class UniformCollator:")
    root = _package(tmp_path, {"__init__.py": "from .sampling import UniformCollator\n", "sampling.py": text})
    assert _findings(root) == []


def test_a_scikit_learn_transformer_is_no_api(tmp_path):
    # an estimator's `fit` / `transform` prepare the data (pytorch-forecasting's normalizers)
    text = SAMPLING.replace("import torch", "import torch\nfrom sklearn.base import TransformerMixin").replace(
        "class UniformSampler:", "class UniformSampler(TransformerMixin):")
    root = _package(tmp_path, {"__init__.py": "from .sampling import UniformSampler\n", "sampling.py": text})
    assert _findings(root) == []


def test_a_module_classs_mixin_is_no_object_api(tmp_path):
    # a module class's mixin (transformers' `GenerationMixin`): what the module's own API reaches
    text = SAMPLING + textwrap.dedent("""

        class Scorer(UniformSampler, torch.nn.Module):
            def forward(self, heads):
                return heads.float()
    """)
    root = _package(tmp_path, {"__init__.py": "from .sampling import UniformSampler, Scorer\n", "sampling.py": text})
    assert _findings(root) == []


def test_a_dataset_and_a_trainer_are_no_object_api(tmp_path):
    # a dataset runs in the loader; a trainer that is no learner (its module reads tables)
    # loops over one in `fit`
    dataset = SAMPLING.replace("class UniformSampler:", "class UniformSampler(torch.utils.data.Dataset):")
    trainer = "import pandas\n" + SAMPLING.replace("            return heads, tails", "            heads.sum().backward()\n            return heads, tails")
    for text in (dataset, trainer):
        root = tmp_path / str(len(text))
        root.mkdir()
        _package(root, {"__init__.py": "from .sampling import UniformSampler\n", "sampling.py": text})
        assert _findings(root) == []


def test_a_module_that_builds_a_loader_has_no_api_functions(tmp_path):
    # litgpt's `finetune` scripts: `fit(...)` beside a `DataLoader`
    text = "from torch.utils.data import DataLoader\n" + MODELING
    root = _package(tmp_path, {"__init__.py": "from .models import Model\n", "models.py": "class Model:\n    pass\n",
                               "modeling.py": text})
    assert _findings(root) == []


def test_a_command_line_modules_functions_are_no_api(tmp_path):
    # the module parses a command line: it runs the program, user code compiles none of it
    cli = "import click\n" + MODELING.replace("import pickle", "import os")
    root = _package(tmp_path, {"__init__.py": "from .models import Model\n", "models.py": "class Model:\n    pass\n",
                               "cli.py": cli})
    assert _findings(root) == []


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
