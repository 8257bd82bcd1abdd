"""Calls through an object's fields, against Dynamo: `self._modules.optim.step()` runs the method of
the class a dataclass field of another file declares (d3rlpy's `OptimizerWrapper`), so the region
follows it and the break is reported where Dynamo breaks, inside the wrapper, not at the call read
by the receiver's name; calling `self._modules.net(x)` runs the held module's forward. A receiver
whose class the project cannot find is still read by its name."""

import torch

from compilelint.probe.observe import observe
from helpers import break_marks, imported, package_findings

OPTIMIZERS = '''
import torch


class OptimizerWrapper:
    def __init__(self, params, optim: torch.optim.Optimizer):
        self._params = params
        self._optim = optim

    def zero_grad(self):
        self._optim.zero_grad()  # BREAK

    def step(self):
        self._optim.step()  # BREAK
'''

BASE = '''
import dataclasses

import torch

from trainer.optimizers import OptimizerWrapper


@dataclasses.dataclass(frozen=True)
class BaseModules:
    net: torch.nn.Module
    optim: OptimizerWrapper
'''

NETS = '''
import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 1)

    def forward(self, x):
        y = self.lin(x)
        print("head")  # BREAK: the held head runs, called as `self._modules.head(x)`
        return y
'''

IMPL = '''
import dataclasses

import torch

from trainer.base import BaseModules
from trainer.nets import Head


@dataclasses.dataclass(frozen=True)
class Modules(BaseModules):
    head: Head


class Impl:
    _modules: Modules

    def __init__(self, modules: Modules, scheduler):
        self._modules = modules
        self.scheduler = scheduler

    def update(self, x):
        self._modules.optim.zero_grad()
        loss = self._modules.head(self._modules.net(x)).sum()
        loss.backward()  # BREAK
        self._modules.optim.step()
        return loss

    def schedule(self, x):
        out = self._modules.net(x)
        self.scheduler.optimizer.step()  # BREAK: a receiver of no class the project finds, read by its name
        return out


def run(impl: Impl, x):
    return impl.update(x)


def run_schedule(impl: Impl, x):
    return impl.schedule(x)


compiled = torch.compile(run)
scheduled = torch.compile(run_schedule)
'''

FILES = {"optimizers.py": OPTIMIZERS, "base.py": BASE, "nets.py": NETS, "impl.py": IMPL}


def test_calls_through_fields_are_reported_where_dynamo_breaks(tmp_path):
    static = package_findings(tmp_path, "trainer", FILES)
    assert static == break_marks(FILES)
    with imported(tmp_path, "trainer.impl") as impl:
        from trainer import nets, optimizers

        net = torch.nn.Linear(3, 3)
        head = nets.Head()
        params = [*net.parameters(), *head.parameters()]
        sgd = torch.optim.SGD(params, lr=0.1)
        modules = impl.Modules(net=net, optim=optimizers.OptimizerWrapper(params, sgd), head=head)
        scheduler = torch.optim.lr_scheduler.StepLR(sgd, step_size=1)
        obj = impl.Impl(modules, scheduler)
        dynamo = set()
        for fn in (impl.run, impl.run_schedule):
            obs = observe(fn, [((obj, torch.ones(2, 3)), {})], backend="eager", recapture=False, train=True)
            dynamo |= {(b.file.rsplit("/", 1)[-1], b.line) for b in obs.capture.breaks
                       if "/trainer/" in (b.file or "")}
    assert dynamo == static
