"""A library's API: functions its top-level `__init__` re-exports, and the public functions
of its public modules that handle no files, are called compiled by user code, so what they reach is reported as a note with that condition (`api`); private
functions and those imported only under `if TYPE_CHECKING:` are not. Dynamo agrees: compiling a call to the API breaks there."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from compilelint.finding import API
from helpers import imported

INIT = textwrap.dedent("""
    from typing import TYPE_CHECKING

    from ._core import integrate
    from ._core import _private_step

    if TYPE_CHECKING:  # for type checkers only: not re-exported at run time
        from ._core import unexported
""")
CORE = textwrap.dedent("""
    import torch

    SCHEMES = {"euler": None}


    class Stepper:
        def __init__(self, y0):
            self.y = y0

        def advance(self, dt):
            if (dt <= 0).any():  # BREAK
                raise ValueError("time must increase")
            self.y = self.y + dt * self.y
            return self.y


    def integrate(y0, t):
        stepper = Stepper(y0)
        return stepper.advance(t[1:] - t[:-1])  # AGAIN


    def _private_step(y, dt):
        print("private", dt)
        return y


    def unexported(y):
        print("never compiled", y.sum().item())
        return y
""")


def _package(root, name: str, files: dict[str, str]):
    pkg = root / name
    pkg.mkdir()
    for file, text in files.items():
        (pkg / file).write_text(text)
    (root / "pyproject.toml").write_text("[tool.compilelint]\n")
    return root


@pytest.fixture()
def package(tmp_path):
    # (a private module: only what `__init__` re-exports of it is the API)
    return _package(tmp_path, "odepkg", {"__init__.py": INIT, "_core.py": CORE})


def _line(marker):
    return next(i for i, text in enumerate(CORE.splitlines(), 1) if marker in text)


def test_what_the_api_reaches_is_a_note_with_its_condition(package):
    settings = config_mod.load(start=str(package))
    findings = check([str(package)], settings).findings
    assert [(f.line, f.code, f.severity, f.when) for f in findings] == [
        (_line("# BREAK"), "CL102", "note", (API,)),
        (_line("# AGAIN"), "CL151", "note", (API,)),  # `stepper` was built in the function
    ]
    assert all("call to the package's API" in f.message for f in findings)


SPIKEGEN = textwrap.dedent("""
    import torch


    def rate(data, num_steps):
        shape = [num_steps] + torch.ones(data.dim(), dtype=torch.int64).tolist()  # TOLIST
        return torch.bernoulli(data.repeat(shape).clamp(0, 1))


    def _helper(x):
        return x.tolist()
""")
DOWNLOAD = textwrap.dedent("""
    import tarfile


    def extract(path, data):
        print("extracting", path, data.sum().item())
        tarfile.open(path).extractall()
""")


def test_a_public_modules_functions_are_api(tmp_path):
    # snntorch: `from snntorch import spikegen` then `spikegen.rate(x, 8)` in the user's forward;
    # a module that handles files (or plots) is no compiled code, nor is a private function
    root = _package(tmp_path, "snnpkg", {"__init__.py": "from . import spikegen\n", "spikegen.py": SPIKEGEN,
                                         "download.py": DOWNLOAD})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(SPIKEGEN.splitlines(), 1) if "# TOLIST" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when) for f in findings] == [
        ("spikegen.py", line, "CL104", "note", (API,))]


SAMPLING = textwrap.dedent("""
    import torch

    try:
        from tqdm.auto import trange
    except ImportError:  # the progress bar is optional
        trange = range


    def sample_euler(model, x, sigmas):
        s_in = x.new_ones([x.shape[0]])
        step = (sigmas[:-1] - sigmas[1:]).max().item()  # ITEM
        for i in trange(len(sigmas) - 1):
            x = x - step * model(x * s_in[:, None])
        return x
""")


def test_a_module_with_a_progress_bar_still_computes(tmp_path):
    # k-diffusion's `sampling` imports tqdm for its samplers' loops: a progress bar makes no
    # module a data module, its samplers are the API user code compiles
    root = _package(tmp_path, "diffpkg", {"__init__.py": "from . import sampling\n", "sampling.py": SAMPLING})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(SAMPLING.splitlines(), 1) if "# ITEM" in text)
    assert ("sampling.py", line, "CL103", "note", (API,)) in {
        (f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when) for f in findings}


def test_dynamo_breaks_in_a_sampler_with_a_progress_bar(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "diffpkg", {"__init__.py": "", "sampling.py": SAMPLING})
    with imported(root, "diffpkg.sampling") as sampling:
        result = capture(lambda x, s: sampling.sample_euler(torch.tanh, x, s), (torch.rand(2, 4), torch.rand(5)),
                         backend="eager")
    assert result.error is None
    line = next(i for i, text in enumerate(SAMPLING.splitlines(), 1) if "# ITEM" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


SURROGATE = textwrap.dedent("""
    import torch


    class Triangular(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, threshold):
            ctx.save_for_backward(x)
            ctx.threshold = threshold
            return (x > 0).float()

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            grad = grad_output.clone() * ctx.threshold
            grad[x >= 0] = -grad[x >= 0]  # MASK
            return grad, None


    def triangular(threshold=1.0):
        def inner(x):
            return Triangular.apply(x, threshold)

        return inner
""")


def test_what_a_public_factory_returns_is_api(tmp_path):
    # snntorch's surrogate gradients: `spike_grad = surrogate.triangular()` is made eagerly,
    # then called in the user's compiled forward; the factory takes no tensor, its product does
    root = _package(tmp_path, "snnpkg", {"__init__.py": "from . import surrogate\n", "surrogate.py": SURROGATE})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(SURROGATE.splitlines(), 1) if "# MASK" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when) for f in findings] == [
        ("surrogate.py", line, "CL121", "note", (API,))]


def test_dynamo_breaks_in_a_factorys_product(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "snnpkg", {"__init__.py": "", "surrogate.py": SURROGATE})
    with imported(root, "snnpkg.surrogate") as surrogate:
        spike = surrogate.triangular()
        x = torch.randn(4, requires_grad=True)
        result = capture(lambda x: spike(x).sum().backward(), (x,), backend="eager")
    line = next(i for i, text in enumerate(SURROGATE.splitlines(), 1) if "# MASK" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_an_application_package_has_no_api_of_its_own(tmp_path):
    # an empty `__init__` publishes nothing: its modules' functions are what the app runs
    # eagerly, unless its own compiled code calls them
    root = _package(tmp_path, "snnpkg", {"__init__.py": "", "spikegen.py": SPIKEGEN})
    assert check([str(root)], config_mod.load(start=str(root))).findings == []


def test_dynamo_breaks_in_a_public_modules_function(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "snnpkg", {"__init__.py": "", "spikegen.py": SPIKEGEN})
    with imported(root, "snnpkg.spikegen") as spikegen:
        result = capture(lambda x: spikegen.rate(x, 3) * 2, (torch.rand(2, 4),), backend="eager")
    assert result.error is None
    line = next(i for i, text in enumerate(SPIKEGEN.splitlines(), 1) if "# TOLIST" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_explicit_roots_leave_the_api_alone(package):
    settings = config_mod.load(start=str(package), roots="explicit")
    assert check([str(package)], settings).findings == []


def test_dynamo_breaks_where_the_note_is(package):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(package, "odepkg") as odepkg:

        def user_step(y0, t):  # user code compiling a call to the API
            return odepkg.integrate(y0, t) * 2

        result = capture(user_step, (torch.randn(3), torch.linspace(0, 1, 4)), backend="eager")
    assert result.error is None
    assert {_line("# BREAK"), _line("# AGAIN")} <= {r.line for r in result.breaks if r.kind == "graph_break"}


SAMPLER_INIT = "from .model import Diffusion\n"
SAMPLER = textwrap.dedent("""
    import torch


    class Diffusion(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(4, 4)

        def forward(self, x):
            return (self.net(x) - x).pow(2).mean()

        @torch.no_grad()
        def sample(self, x, steps=3):
            for t in range(steps):
                x = x - 0.1 * self.net(x)
            return x, x.abs().max().item()  # SAMPLED

        @torch.no_grad()
        def _private(self, x):
            print("private", x)
            return x

        def decode(self, x):
            out = []
            for row in x:
                out.append(row.argmax().item())  # DECODED
            return out

        def set_mode(self, mode: str):
            print("no tensor comes in", mode)

        @classmethod
        def from_config(cls, config):
            print("builds, does not compute", config)
            return cls()

        def register_step(self, step):
            print("set-up, not compute", step)
""")


@pytest.fixture()
def sampler_package(tmp_path):
    return _package(tmp_path, "diffpkg", {"__init__.py": SAMPLER_INIT, "model.py": SAMPLER})


def test_an_exported_modules_inference_methods_are_api_entry_points(sampler_package):
    """Its `@torch.no_grad()` methods, and (re-exported from the top level) its other public
    methods that take tensors, `decode(x)` (pytorch-crf's `CRF.decode`): not one whose
    parameters are all typed as Python values, a classmethod, or set-up (`register_*`)."""
    settings = config_mod.load(start=str(sampler_package))
    findings = check([str(sampler_package)], settings).findings
    line = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# SAMPLED" in text)
    decoded = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# DECODED" in text)
    assert [(f.line, f.code, f.severity, f.when) for f in findings] == [
        (line, "CL103", "note", (API,)), (decoded - 1, "CL150", "note", (API,)), (decoded, "CL103", "note", (API,))]
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(sampler_package, "diffpkg") as diffpkg:
        model = diffpkg.Diffusion()
        result = capture(lambda x: model.sample(x), (torch.randn(2, 4),), backend="eager")
        decoding = capture(lambda x: model.decode(x), (torch.randn(2, 4),), backend="eager")
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}
    assert decoded in {r.line for r in decoding.breaks}


def test_a_public_submodules_api_methods_are_entry_points_too(tmp_path):
    """A sampler the package does not re-export is still imported by its module's path
    (`from diffpkg.guided import Diffusion`): its inference methods and its other public
    methods that take tensors (`decode(x)`; pyro's `ConditionalAffineAutoregressive.condition`,
    mambapy's `LM.generate`) are entry points; one in a private module (`diffpkg._impl`) or a
    private class is not, nor a set-up method (`register_step`) or a classmethod."""
    package = _package(tmp_path, "diffpkg", {"__init__.py": "", "guided.py": SAMPLER, "_impl.py": SAMPLER,
                                             "hidden.py": SAMPLER.replace("class Diffusion", "class _Diffusion")})
    settings = config_mod.load(start=str(package))
    findings = check([str(package)], settings).findings
    line = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# SAMPLED" in text)
    decoded = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# DECODED" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings] == [
        ("guided.py", line, "CL103", (API,)), ("guided.py", decoded - 1, "CL150", (API,)),
        ("guided.py", decoded, "CL103", (API,))]


def test_a_module_class_the_top_level_init_defines_is_api_too(tmp_path):
    """pytorch-crf defines `CRF` in `torchcrf/__init__.py` itself: its `decode` is API; the
    same class in a loose file (a script, not a package) is not."""
    package = _package(tmp_path, "crfpkg", {"__init__.py": SAMPLER})
    (tmp_path / "script.py").write_text(SAMPLER)
    settings = config_mod.load(start=str(tmp_path))
    findings = check([str(package)], settings).findings  # (the root: the package and the script)
    decoded = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# DECODED" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings if f.line >= decoded - 1] == \
        [("__init__.py", decoded - 1, "CL150"), ("__init__.py", decoded, "CL103")]


LOSSES = textwrap.dedent("""
    import torch


    class RelativeLoss(object):
        def __init__(self, p=2):
            self.p = p

        def __call__(self, pred, target):
            norm = torch.linalg.vector_norm(target, self.p)
            if norm.item() == 0:  # ITEM
                return (pred - target).abs().mean()
            return torch.linalg.vector_norm(pred - target, self.p) / norm


    class Tokens(object):
        def __call__(self, text):
            return text.split()
""")


def test_an_exported_callable_objects_call_is_api(tmp_path):
    # neuraloperator's `LpLoss`: a plain object user code builds once and calls in a compiled
    # training step; a `__call__` that takes no tensors (text) is no API
    root = _package(tmp_path, "losspkg", {"__init__.py": "from .losses import RelativeLoss, Tokens\n",
                                          "losses.py": LOSSES})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(LOSSES.splitlines(), 1) if "# ITEM" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.severity, f.when) for f in findings] == [
        ("losses.py", line, "CL103", "note", (API,))]


def test_dynamo_breaks_in_a_callable_objects_call(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "losspkg", {"__init__.py": "from .losses import RelativeLoss, Tokens\n",
                                          "losses.py": LOSSES})
    with imported(root, "losspkg") as losspkg:
        loss = losspkg.RelativeLoss()
        result = capture(lambda p, t: loss(p * 2, t), (torch.randn(4), torch.randn(4)), backend="eager")
    line = next(i for i, text in enumerate(LOSSES.splitlines(), 1) if "# ITEM" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


METRICS = textwrap.dedent("""
    import torch


    class Auc(object):
        def __init__(self):
            self.estimate = None

        def __call__(self, estimate, time):
            self.estimate = torch.sigmoid(estimate)
            self.time = time
            return self.estimate.mean()

        def integral(self, tmax):
            last = torch.sum(self.time <= tmax)
            total = torch.zeros(())
            for i in range(last):  # RANGE
                total = total + self.estimate[i]
            return total

        def confidence_interval(self, alpha=0.05):
            se = self.estimate.std()
            if se > 0:  # IF
                return self.estimate.mean() - alpha * se
            return self.estimate.mean()

        def reset(self):
            print("reset", self.estimate.sum().item())
            self.estimate = None

        def describe(self):
            print("an AUC", self.estimate.sum().item())
            return "AUC"
""")


def test_an_exported_metric_objects_result_methods_are_api(tmp_path):
    # torchsurv's `Auc`: user code calls it, then reads what it stored through its public
    # methods (`integral()`, `confidence_interval()`), in the evaluation step it compiles;
    # a method that returns nothing (`reset`) or only Python data (`describe`) is no API
    root = _package(tmp_path, "metricpkg", {"__init__.py": "from .metrics import Auc\n", "metrics.py": METRICS})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    lines = {marker: next(i for i, text in enumerate(METRICS.splitlines(), 1) if f"# {marker}" in text)
             for marker in ("RANGE", "IF")}
    assert sorted((f.line, f.code, f.when) for f in findings) == [
        (lines["RANGE"], "CL107", (API,)), (lines["IF"], "CL102", (API,))]


def test_dynamo_breaks_in_a_metric_objects_result_methods(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "metricpkg", {"__init__.py": "from .metrics import Auc\n", "metrics.py": METRICS})
    with imported(root, "metricpkg") as metricpkg:
        auc = metricpkg.Auc()
        auc(torch.randn(6), torch.arange(6.0))
        ranged = capture(lambda t: auc.integral(t), (torch.tensor(3.0),), backend="eager")
        bounded = capture(lambda a: auc.confidence_interval(a), (0.1,), backend="eager")
    for result, marker in ((ranged, "# RANGE"), (bounded, "# IF")):
        line = next(i for i, text in enumerate(METRICS.splitlines(), 1) if marker in text)
        assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


THRESHOLDS = textwrap.dedent("""
    import torch


    class Hysteresis(object):
        def __init__(self, lower=0.2):
            self.lower = lower

        def __call__(self, pitch: torch.Tensor, periodicity: torch.Tensor):
            pitch = torch.clone(pitch)
            i = 0
            while i < periodicity.shape[0] - 1:
                if periodicity[i] < self.lower:  # BRANCH
                    pitch[i] = 0.0
                i += 1
            return pitch
""")


def test_the_classes_of_a_submodule_the_package_imports_are_api(tmp_path):
    # torchcrepe's `from . import threshold`: user code calls `torchcrepe.threshold.Hysteresis()(...)`;
    # the same class in a submodule the package does not import is left alone
    files = {"__init__.py": "from . import threshold\n", "threshold.py": THRESHOLDS, "_hidden.py": THRESHOLDS}
    root = _package(tmp_path, "pitchpkg", files)
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(THRESHOLDS.splitlines(), 1) if "# BRANCH" in text)
    assert sorted((f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings) == [
        ("threshold.py", line - 1, "CL150", (API,)), ("threshold.py", line, "CL102", (API,))]


def test_dynamo_breaks_in_a_submodule_class_the_package_imports(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "pitchpkg", {"__init__.py": "from . import threshold\n", "threshold.py": THRESHOLDS})
    with imported(root, "pitchpkg") as pitchpkg:
        hysteresis = pitchpkg.threshold.Hysteresis()
        result = capture(lambda p, q: hysteresis(p.clone(), q), (torch.rand(5), torch.rand(5)), backend="eager")
    line = next(i for i, text in enumerate(THRESHOLDS.splitlines(), 1) if "# BRANCH" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_a_star_re_export_of_a_module_class_is_api_too(tmp_path):
    """normflows' `__init__` says `from .core import *`: `NormalizingFlow.log_prob` is as much
    the API as it is after a named import; the underscore class the star leaves out is not."""
    hidden = SAMPLER.replace("class Diffusion(", "class _Hidden(")
    root = _package(tmp_path, "starpkg", {"__init__.py": "from .model import *\nfrom .hidden import *\n",
                                          "model.py": SAMPLER, "hidden.py": hidden})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    decoded = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# DECODED" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings if f.line >= decoded - 1] == \
        [("model.py", decoded - 1, "CL150", (API,)), ("model.py", decoded, "CL103", (API,))]


def test_dynamo_breaks_in_a_star_exported_modules_method(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "starpkg", {"__init__.py": "from .model import *\n", "model.py": SAMPLER})
    with imported(root, "starpkg") as starpkg:
        model = starpkg.Diffusion()
        result = capture(lambda x: model.decode(x), (torch.randn(3, 4),), backend="eager")
    decoded = next(i for i, text in enumerate(SAMPLER.splitlines(), 1) if "# DECODED" in text)
    assert decoded in {r.line for r in result.breaks if r.kind == "graph_break"}


MIDPOINT = textwrap.dedent("""
    import torch


    def weighted_midpoint(xs, weights, *, posweight: bool = False):
        if posweight and weights.lt(0).any():  # FLAGGED
            weights = weights.abs()
        return (xs * weights).sum(0)
""")


def test_an_api_findings_caller_condition_stays_a_condition(tmp_path):
    """geoopt's `weighted_midpoint`: the tensor test runs only when the user passes
    `posweight`, which no compiled call in the package decides: the note says so (it was
    unconditional, and a false alarm on executed lines where the user left it out)."""
    root = _package(tmp_path, "geopkg", {"__init__.py": "from .math import weighted_midpoint\n", "math.py": MIDPOINT})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(MIDPOINT.splitlines(), 1) if "# FLAGGED" in text)
    assert [(f.line, f.code, f.when) for f in findings] == [(line, "CL102", ("given:posweight", API))]
    assert "only when the caller passes `posweight`" in findings[0].message


def test_dynamo_breaks_in_an_api_function_only_when_the_caller_passes_the_flag(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "geopkg", {"__init__.py": "", "math.py": MIDPOINT})
    line = next(i for i, text in enumerate(MIDPOINT.splitlines(), 1) if "# FLAGGED" in text)
    with imported(root, "geopkg.math") as math:
        for posweight, breaks in ((False, False), (True, True)):
            result = capture(lambda x, w: math.weighted_midpoint(x, w, posweight=posweight),
                             (torch.randn(3, 2), torch.randn(3, 1)), backend="eager")
            assert result.error is None
            assert (line in {r.line for r in result.breaks if r.kind == "graph_break"}) is breaks


BANDS = textwrap.dedent("""
    import torch
    from torch import nn


    class Bands(nn.Module):
        def __init__(self, n):
            super().__init__()
            low = torch.tensor(float(n)).item()  # ITEM
            self.register_buffer("cut", torch.linspace(low, 2 * low, 4))

        def forward(self, x):
            return x * self.cut.sum()


    class Quant(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.scale = torch.tensor(float(n)).item()  # CONVERTED
            self.w = nn.Parameter(torch.zeros(n))

        def forward(self, x):
            return x * self.w * self.scale


    def split_bands(x, n=3):
        return Bands(n).to(x)(x)


    def convert(model):
        model.head = Quant(4)
        return model
""")


def test_a_module_an_api_function_builds_and_calls_runs_in_the_compiled_call(tmp_path):
    # julius' `split_bands`: `SplitBands(...).to(signal)(signal)` builds the module and runs it,
    # so its `__init__` is traced with the call; a conversion pass (`convert(model)`, which swaps
    # in a layer it never calls) builds part of the user's model, which nobody compiles
    root = _package(tmp_path, "bandpkg", {"__init__.py": "from .bands import split_bands, convert\n",
                                          "bands.py": BANDS})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(BANDS.splitlines(), 1) if "# ITEM" in text)
    assert [(f.line, f.code, f.when) for f in findings] == [(line, "CL103", (API,))]


def test_dynamo_breaks_in_the_init_of_a_module_an_api_function_builds_and_calls(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "bandpkg", {"__init__.py": "", "bands.py": BANDS})
    with imported(root, "bandpkg.bands") as bands:
        result = capture(lambda x: bands.split_bands(x) * 2, (torch.randn(4),), backend="eager")
    line = next(i for i, text in enumerate(BANDS.splitlines(), 1) if "# ITEM" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


AGENT = textwrap.dedent("""
    import torch


    class Agent:
        def __init__(self, q_function):
            self.q_function = q_function
            self.q_record = []

        def act(self, obs: torch.Tensor):
            q = self.q_function(obs)
            self.q_record.append(float(q.mean()))  # RECORDED
            return q.argmax(-1)

        def update(self, obs: torch.Tensor, target: torch.Tensor):
            loss = (self.q_function(obs) - target).pow(2).mean()
            loss.backward()  # a training step: the agent is a learner

        def set_epsilon(self, epsilon):
            print("set-up, not compute", epsilon)


    class Processor:  # takes tensors too, but runs no training step: a preprocessor no one compiles
        def preprocess(self, images):
            print("resizing", images.shape)
            return images.float() / 255
""")
# the same agent in a module of a JAX back end: no torch, nothing torch.compile runs (its
# module names JAX; one that named no framework at all, only `.backward()`, would be torch's)
JAX_AGENT = AGENT.replace("import torch", "import jax.numpy as jnp").replace("obs: torch.Tensor", "obs")


def test_a_public_agents_methods_are_entry_points(tmp_path):
    """An RL library's agent is no module, yet user code calls `agent.act(obs)` (and its losses)
    in the step it compiles (pfrl's and skrl's agents): a public class that runs a training step
    (`.backward()`) in a library's public submodule, or one its `__init__` re-exports, has its
    public methods that take tensors as entry points; not one in a private module, nor one
    whose module imports JAX instead of torch (a JAX back end's twin), nor a set-up method, nor a
    class that takes tensors but trains nothing (a preprocessor: transformers' image
    processors)."""
    package = _package(tmp_path, "rlpkg", {
        "__init__.py": "from ._private import Agent as ExportedAgent\n", "agents.py": AGENT,
        "_private.py": AGENT, "_hidden.py": AGENT, "jax_agents.py": JAX_AGENT})
    settings = config_mod.load(start=str(package))
    findings = check([str(package)], settings).findings
    recorded = next(i for i, text in enumerate(AGENT.splitlines(), 1) if "# RECORDED" in text)
    stepped = next(i for i, text in enumerate(AGENT.splitlines(), 1) if "loss.backward()" in text)
    assert sorted((f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings) == [
        (file, line, code, (API,)) for file in ("_private.py", "agents.py")
        for line, code in ((recorded, "CL102"), (stepped, "CL130"))]


def test_dynamo_breaks_in_a_public_agents_method(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "rlpkg", {"__init__.py": "from .agents import Agent\n", "agents.py": AGENT})
    recorded = next(i for i, text in enumerate(AGENT.splitlines(), 1) if "# RECORDED" in text)
    with imported(root, "rlpkg.agents") as agents:
        agent = agents.Agent(torch.nn.Linear(4, 3))
        result = capture(lambda obs: agent.act(obs), (torch.randn(2, 4),), backend="eager")
    assert recorded in {r.line for r in result.breaks if r.kind == "graph_break"}


# pytorch_tabular's `Entmoid15`: user code calls `Fn.apply(x)` (or a module-level alias of it,
# `entmoid15 = Entmoid15.apply`, picked from a dict of activations) in the forward it compiles
FUNCTIONS = textwrap.dedent("""
    import torch
    from torch.autograd import Function


    class Clamp(Function):
        @staticmethod
        def forward(ctx, x):
            print("clamping", x.shape)  # PRINT
            return x.clamp(0, 1)

        @staticmethod
        def backward(ctx, grad):
            return grad


    class _Hidden(Function):
        @staticmethod
        def forward(ctx, x):
            print("private")
            return x


    clamp = Clamp.apply
""")


def test_a_public_autograd_functions_forward_is_api(tmp_path):
    # a public Function in a public submodule of a library; not a private one
    root = _package(tmp_path, "actpkg", {"__init__.py": "from .layers import Block\n", "layers.py": "class Block:\n    pass\n",
                                         "functions.py": FUNCTIONS})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(FUNCTIONS.splitlines(), 1) if "# PRINT" in text)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when) for f in findings] == [
        ("functions.py", line, "CL110", (API,))]


def test_dynamo_breaks_in_a_public_autograd_functions_forward(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "actpkg", {"__init__.py": "from .layers import Block\n", "layers.py": "class Block:\n    pass\n",
                                         "functions.py": FUNCTIONS})
    with imported(root, "actpkg.functions") as functions:
        result = capture(lambda x: functions.clamp(x * 2), (torch.randn(4),), backend="eager")
    line = next(i for i, text in enumerate(FUNCTIONS.splitlines(), 1) if "# PRINT" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


MARGLIK = textwrap.dedent("""
    import numpy as np
    import torch


    class Laplace:
        def __init__(self, scale):
            self.scale = scale
            self._prior_precision = torch.ones(1)

        @property
        def prior_precision(self):
            return self._prior_precision

        @prior_precision.setter
        def prior_precision(self, value):
            if np.isscalar(value):  # SETTER
                value = torch.as_tensor([value])
            self._prior_precision = value

        @property
        def log_det(self):
            return torch.log(self._prior_precision * self.scale).sum()

        def __call__(self, x: torch.Tensor) -> torch.Tensor:
            return x * self.scale

        def log_marginal_likelihood(self, prior_precision=None) -> torch.Tensor:
            if prior_precision is not None:
                self.prior_precision = prior_precision
            return -0.5 * self.log_det
""")


def test_a_callable_objects_method_annotated_to_return_a_tensor_is_api(tmp_path):
    # laplace-torch's `la.log_marginal_likelihood(prior_prec)`, compiled in a hyperparameter step:
    # the walk cannot type what it returns (a property's value), its annotation says a tensor;
    # it sets a property whose setter asks NumPy about a tensor (GB0208)
    root = _package(tmp_path, "lapkg", {"__init__.py": "from .base import Laplace\n", "base.py": MARGLIK})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(MARGLIK.splitlines(), 1) if "# SETTER" in text)
    assert (line, "CL119", (API,)) in {(f.line, f.code, f.when) for f in findings}


def test_dynamo_breaks_in_the_setter_an_annotated_method_runs(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "lapkg", {"__init__.py": "from .base import Laplace\n", "base.py": MARGLIK})
    with imported(root, "lapkg") as lapkg:
        la = lapkg.Laplace(2.0)
        result = capture(lambda p: la.log_marginal_likelihood(p), (torch.tensor([3.0]),), backend="eager")
    line = next(i for i, text in enumerate(MARGLIK.splitlines(), 1) if "# SETTER" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


# cebra's `solver.base`: the learner wraps its own data in a loader (`fit`, over a dataset class
# it makes inside the method) around `step`, one update on a batch, which user code compiles
SOLVER = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Solver:
        def __init__(self, model, optimizer):
            self.model, self.optimizer = model, optimizer
            self.history = []

        def fit(self, data, steps=1):
            class Rows(Dataset):
                def __len__(self):
                    return len(data)

                def __getitem__(self, i):
                    return data[i]

            for _ in range(steps):
                for batch in DataLoader(Rows(), batch_size=4):
                    self.step(batch)

        def step(self, batch: torch.Tensor) -> dict:
            loss = self.model(batch).pow(2).mean()
            loss.backward()
            self.history.append(loss.item())  # HISTORY
            return {"loss": self.history[-1]}
""")
# a data module: it defines a dataset at module level, and its trainer runs beside the loader
DATA_SOLVER = SOLVER.replace("class Solver:", textwrap.dedent("""
    class Pairs(Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return torch.randn(4)


    class Solver:"""))


def test_a_learner_that_builds_its_own_loaders_is_api(tmp_path):
    root = _package(tmp_path, "solvepkg", {"__init__.py": "from .base import Solver\n", "base.py": SOLVER,
                                            "data.py": DATA_SOLVER})
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(SOLVER.splitlines(), 1) if "# HISTORY" in text)
    assert ("base.py", line, "CL103", (API,)) in {(f.path.rsplit("/", 1)[-1], f.line, f.code, f.when)
                                                  for f in findings}
    assert not [f for f in findings if f.path.endswith("data.py")]


def test_dynamo_breaks_in_a_learners_step(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "solvepkg", {"__init__.py": "from .base import Solver\n", "base.py": SOLVER})
    with imported(root, "solvepkg") as solvepkg:
        model = torch.nn.Linear(4, 2)
        solver = solvepkg.Solver(model, torch.optim.SGD(model.parameters(), lr=0.1))
        result = capture(lambda batch: solver.step(batch), (torch.randn(4, 4),), backend="eager")
    line = next(i for i, text in enumerate(SOLVER.splitlines(), 1) if "# HISTORY" in text)
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}


# pina's layout: the code lives in a private tree (`pina/_src/core/operator.py`) and a public
# module hands it out (`pina/operator.py`: `from pina._src.core.operator import grad`, `__all__`)
FACADE_OPS = textwrap.dedent("""
    import torch


    def grad(output, points):
        total = output.sum()
        print("differentiating", total.item())  # ITEM
        return torch.autograd.grad(total, points, create_graph=True)[0]


    def scale(x, factor):
        print("scaling", factor)  # IMPORTED, NOT LISTED
        return x * factor


    def unexported(x):
        print("never handed out", x)
        return x
""")
FACADE = "from facadepkg._src.ops import grad, scale\n\n__all__ = [\"grad\"]\n"


def test_what_a_public_module_hands_out_of_a_private_one_is_api(tmp_path):
    root = _package(tmp_path, "facadepkg", {"__init__.py": "from .graph import Graph\n",
                                            "graph.py": "class Graph:\n    pass\n", "operator.py": FACADE})
    (root / "facadepkg" / "_src").mkdir()
    (root / "facadepkg" / "_src" / "__init__.py").write_text("")
    (root / "facadepkg" / "_src" / "ops.py").write_text(FACADE_OPS)
    findings = check([str(root)], config_mod.load(start=str(root))).findings
    line = next(i for i, text in enumerate(FACADE_OPS.splitlines(), 1) if "# ITEM" in text)
    assert {(f.path.rsplit("/", 1)[-1], f.line, f.when) for f in findings} >= {("ops.py", line, (API,))}
    assert {f.line for f in findings if f.path.endswith("ops.py")} == {line, line + 1}  # (and autograd.grad)


def test_dynamo_breaks_in_what_a_public_module_hands_out(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, "facadepkg", {"__init__.py": "", "operator.py": FACADE})
    (root / "facadepkg" / "_src").mkdir()
    (root / "facadepkg" / "_src" / "__init__.py").write_text("")
    (root / "facadepkg" / "_src" / "ops.py").write_text(FACADE_OPS)
    line = next(i for i, text in enumerate(FACADE_OPS.splitlines(), 1) if "# ITEM" in text)
    with imported(root, "facadepkg.operator") as operator:
        points = torch.randn(3, requires_grad=True)
        result = capture(lambda p: operator.grad((p ** 2).sum() * 1.0, p), (points,), backend="eager")
    assert line in {r.line for r in result.breaks if r.kind == "graph_break"}
