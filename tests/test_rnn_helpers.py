"""CL119 in a helper of another file that reads the first parameter of the module it is handed
(`next(module.parameters())`, tianshou's `torch_device(self)`), against Dynamo: a module whose first
submodule is an LSTM breaks there (GB0014), one whose Linear comes first does not, and the
finding's `given:module@rnn` label says which calls it holds for, as a probe run judges it."""

import json
import subprocess
import sys

import torch

from compilelint.probe.conditions import unmet_conditions
from compilelint.probe.observe import observe
from helpers import imported, write_package

HELPERS = '''
import torch


def device_of(module):
    try:
        return next(module.parameters()).device  # BREAK: for a module whose first parameter is an LSTM's
    except StopIteration:
        return torch.device("cpu")
'''

NETS = '''
import torch.nn as nn

from .helpers import device_of


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 3, batch_first=True)
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        dev = device_of(self)
        out, _ = self.rnn(x.to(dev))
        return self.fc(out)


class Dense(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.rnn = nn.GRU(2, 2, batch_first=True)  # (assigned after the Linear: not the first parameter)

    def forward(self, x):
        return self.fc(x.to(device_of(self)))
'''


def test_the_helper_breaks_for_a_module_whose_first_parameter_is_an_rnns(tmp_path):
    write_package(tmp_path, "pk", {"helpers.py": HELPERS, "nets.py": NETS})
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", "pk", "--select", "CL119", "--no-cache",
                          "--output-format", "json"], cwd=tmp_path, capture_output=True, text=True)
    found = [f for f in json.loads(out.stdout)["findings"] if f["path"].endswith("helpers.py")]
    marked = [i for i, text in enumerate(HELPERS.splitlines(), 1) if "# BREAK" in text]
    assert [(f["line"], f["when"]) for f in found] == [(marked[0], ["given:module@rnn"])]
    verdicts = {}
    with imported(tmp_path, "pk.nets") as mod:
        for cls in (mod.Recurrent, mod.Dense):
            obs = observe(cls(), [((torch.randn(2, 4, 3),), {})], backend="eager", recapture=False)
            called = next(facts for key, facts in obs.conditions["passed"].items() if key.endswith("helpers.py:device_of"))
            verdicts[cls.__name__] = ({b.line for b in obs.capture.breaks if (b.file or "").endswith("helpers.py")},
                                      unmet_conditions(found[0]["when"], obs.conditions, called=called))
    assert verdicts == {"Recurrent": ({marked[0]}, []), "Dense": (set(), ["given:module@rnn"])}
