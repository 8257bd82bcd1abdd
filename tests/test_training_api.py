"""A library's training API (`index_roots`): an optimizer's `step` (user code compiles
`opt.step` or the whole training step around it), a learner's own training methods whatever
they take (`PPO.update()`), and a package whose top-level `__init__` is empty but whose
subpackages declare `__all__` (rsl_rl) being a library at all. What they reach is a note with
the `api` condition; Dynamo breaks where the notes are."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from compilelint.finding import API
from helpers import imported

OPTIMIZERS = textwrap.dedent("""
    import torch
    from torch.optim import Optimizer
    from torch.optim.lr_scheduler import LRScheduler


    class Prodigy(Optimizer):
        def __init__(self, params, lr=1.0):
            super().__init__(params, dict(lr=lr))
            self.growth = torch.tensor(1.5)

        @torch.no_grad()
        def step(self, closure=None):
            scale = self.growth.max().item()  # RECORDED
            for group in self.param_groups:
                for p in group["params"]:
                    p.add_(p.grad, alpha=-group["lr"] * scale)


    class Warmup(LRScheduler):  # a scheduler steps between compiled calls
        def step(self, epoch=None):
            print("warming up", epoch)
            super().step(epoch)


    class Counter:  # no optimizer: its step is not the API's
        def step(self):
            print("not an optimizer")
""")

LEARNER = textwrap.dedent("""
    import torch


    class PPO:
        def __init__(self, policy):
            self.policy = policy
            self.batch = torch.randn(4, 4)

        def update(self):
            loss = self.policy(self.batch).pow(2).mean()
            loss.backward()  # STEPPED
            return {"loss": loss.item()}  # RECORDED

        def set_lr(self):
            print("set-up, not a training step")
""")


# torchkge's `Trainer`: its module never names torch (the model, the loss and the optimiser come
# in), but `loss.backward()` is torch's
TRAINER = textwrap.dedent("""
    class Trainer:
        def __init__(self, model, criterion):
            self.model = model
            self.criterion = criterion

        def process_batch(self, batch):
            loss = self.criterion(self.model(batch["x"]), batch["y"])
            loss.backward()  # STEPPED
            return loss.detach().item()  # RECORDED
""")

# a back-end-neutral base (no torch named) whose torch subclass trains: the base's methods are
# not the API (a JAX twin derives from it too)
NEUTRAL_BASE = textwrap.dedent("""
    class Agent:
        def act(self, obs):
            print("acting")
            return obs
""")
TORCH_AGENT = textwrap.dedent("""
    import torch
    from .base import Agent


    class TorchAgent(Agent):
        def update(self, loss):
            loss.backward()
""")


def _package(root, files: dict[str, str]):
    for file, text in files.items():
        path = root / "pkg" / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "pyproject.toml").write_text("[tool.compilelint]\n")
    return root


def _line(text, marker):
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def _findings(root):
    return sorted((f.path.rsplit("/", 1)[-1], f.line, f.code, f.when)
                  for f in check([str(root)], config_mod.load(start=str(root))).findings)


def test_an_exported_optimizers_step_is_api(tmp_path):
    root = _package(tmp_path, {"__init__.py": "from .optim import Prodigy, Warmup, Counter\n", "optim.py": OPTIMIZERS})
    assert _findings(root) == [("optim.py", _line(OPTIMIZERS, "# RECORDED"), "CL103", (API,))]


def test_a_learners_training_method_is_api_whatever_it_takes(tmp_path):
    root = _package(tmp_path, {"__init__.py": "from .ppo import PPO\n", "ppo.py": LEARNER})
    assert _findings(root) == [("ppo.py", _line(LEARNER, "# STEPPED"), "CL130", (API,)),
                               ("ppo.py", _line(LEARNER, "# RECORDED"), "CL103", (API,))]


def test_a_trainer_whose_module_never_names_torch_is_api(tmp_path):
    root = _package(tmp_path, {"__init__.py": "from .training import Trainer\n", "training.py": TRAINER})
    assert _findings(root) == [("training.py", _line(TRAINER, "# STEPPED"), "CL130", (API,)),
                               ("training.py", _line(TRAINER, "# RECORDED"), "CL103", (API,))]


def test_a_trainer_of_another_framework_is_not_api(tmp_path):
    # skrl's Warp agents: `.backward()` is Warp's tape's, and the module names Warp
    warp = "import warp as wp\n" + TRAINER
    root = _package(tmp_path, {"__init__.py": "from .training import Trainer\n", "training.py": warp})
    assert _findings(root) == []


def test_a_neutral_base_of_a_torch_learner_is_not_api(tmp_path):
    root = _package(tmp_path, {"__init__.py": "from .base import Agent\nfrom .agent import TorchAgent\n",
                               "base.py": NEUTRAL_BASE, "agent.py": TORCH_AGENT})
    assert [f for f in _findings(root) if f[0] == "base.py"] == []


def test_a_subpackage_that_declares_all_makes_a_library(tmp_path):
    init = "from .ppo import PPO\n"
    library = _package(tmp_path / "lib", {"__init__.py": "", "algorithms/__init__.py": init + '__all__ = ["PPO"]\n',
                                          "algorithms/ppo.py": LEARNER})
    assert [f[1:3] for f in _findings(library)] == [(_line(LEARNER, "# STEPPED"), "CL130"),
                                                    (_line(LEARNER, "# RECORDED"), "CL103")]
    application = _package(tmp_path / "app", {"__init__.py": "", "algorithms/__init__.py": init,
                                              "algorithms/ppo.py": LEARNER})
    assert _findings(application) == []  # no `__all__`: an application's folder, no API


def test_dynamo_breaks_in_a_compiled_optimizer_step(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "from .optim import Prodigy\n", "optim.py": OPTIMIZERS})
    with imported(root, "pkg.optim") as optim:
        weight = torch.nn.Parameter(torch.randn(3))
        weight.grad = torch.ones(3)
        opt = optim.Prodigy([weight])
        result = capture(opt.step, (), backend="eager")
    assert _line(OPTIMIZERS, "# RECORDED") in {r.line for r in result.breaks if r.kind == "graph_break"}


def test_dynamo_breaks_in_a_compiled_learner_update(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "from .ppo import PPO\n", "ppo.py": LEARNER})
    with imported(root, "pkg.ppo") as ppo:
        learner = ppo.PPO(torch.nn.Linear(4, 2))
        result = capture(learner.update, (), backend="eager")
    lines = {r.line for r in result.breaks if r.kind == "graph_break"}
    assert {_line(LEARNER, "# STEPPED"), _line(LEARNER, "# RECORDED")} <= lines


def test_dynamo_breaks_in_a_compiled_trainer_step(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    root = _package(tmp_path, {"__init__.py": "from .training import Trainer\n", "training.py": TRAINER})
    with imported(root, "pkg.training") as training:
        trainer = training.Trainer(torch.nn.Linear(4, 1), torch.nn.MSELoss())
        batch = {"x": torch.randn(2, 4), "y": torch.randn(2, 1)}
        result = capture(trainer.process_batch, (batch,), backend="eager")
    lines = {r.line for r in result.breaks if r.kind == "graph_break"}
    assert {_line(TRAINER, "# STEPPED"), _line(TRAINER, "# RECORDED")} <= lines
