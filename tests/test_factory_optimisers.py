"""An optimiser a project factory makes, against Dynamo: `self.optimizer = get_optimizer(net, "sgd")`,
where the factory returns one of torch's optimisers from a dict of them (pyod's
`get_optimizer_by_name`), is read by the receiver's name: its `zero_grad()` is skipped by Dynamo
(GB0008) and its `step()` breaks (GB0025). A factory that makes the project's own optimiser,
whose methods are plain tensor code, is followed into that class instead, and nothing is
reported at its calls."""

import torch

from compilelint.probe.observe import observe
from helpers import break_marks, imported, package_findings

UTILS = '''
import torch


def get_optimizer(model, name, lr=0.1):
    optimizers = {
        "adam": torch.optim.Adam(model.parameters(), lr=lr),
        "sgd": torch.optim.SGD(model.parameters(), lr=lr),
    }
    if name in optimizers:
        return optimizers[name]
    raise ValueError(name)


class PlainSGD:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        with torch.no_grad():
            for p in self.params:
                if p.grad is not None:
                    p.sub_(self.lr * p.grad)


def make_plain(model, lr=0.1):
    return PlainSGD(model.parameters(), lr)
'''

TRAINER = '''
import torch

from fitting.utils import get_optimizer, make_plain


class Detector:
    def __init__(self, name="sgd"):
        self.net = torch.nn.Linear(3, 1)
        self.optimizer = get_optimizer(self.net, name)

    def train_step(self, x):
        self.optimizer.zero_grad()  # BREAK
        loss = self.net(x).square().mean()
        loss.backward()  # BREAK
        self.optimizer.step()  # BREAK
        return loss.detach()


class PlainDetector:
    def __init__(self):
        self.net = torch.nn.Linear(3, 1)
        self.optimizer = make_plain(self.net)

    def train_step(self, x):
        self.optimizer.zero_grad()
        loss = self.net(x).square().mean()
        loss.backward()  # BREAK
        self.optimizer.step()
        return loss.detach()


def fit(detector: Detector, x):
    return detector.train_step(x)


def fit_plain(detector: PlainDetector, x):
    return detector.train_step(x)


compiled = torch.compile(fit)
compiled_plain = torch.compile(fit_plain)
'''

FILES = {"utils.py": UTILS, "trainer.py": TRAINER}


def test_a_factory_made_optimiser_is_read_by_its_name_and_a_project_one_is_followed(tmp_path):
    static = package_findings(tmp_path, "fitting", FILES)
    assert static == break_marks(FILES)
    with imported(tmp_path, "fitting.trainer") as trainer:
        dynamo = set()
        for fit, detector in ((trainer.fit, trainer.Detector("sgd")), (trainer.fit, trainer.Detector("adam")),
                              (trainer.fit_plain, trainer.PlainDetector())):
            obs = observe(fit, [((detector, torch.ones(2, 3)), {})], backend="eager", recapture=False, train=True)
            dynamo |= {(b.file.rsplit("/", 1)[-1], b.line) for b in obs.capture.breaks
                       if "/fitting/" in (b.file or "")}
    assert dynamo == static
