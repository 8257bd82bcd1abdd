"""A module whose class another file defines, or a factory picks, with an RNN module among
its bases (pytorch-forecasting's `self.rnn = get_rnn(cell_type)(...)`, its `LSTM(RNN,
nn.LSTM)` in `models/nn/rnn.py`): calling it breaks the caller's graph where the call is
made (GB0014), and again at the base's `super().forward(...)`. A project class named `LSTM`
built from cells, picked the same way, is traced. Dynamo agrees on each line."""

import textwrap

import pytest

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import imported, write_package

RNN = textwrap.dedent("""
    import torch.nn as nn


    class RNN(nn.RNNBase):
        def forward(self, x, hx=None):
            return super().forward(x, hx)  # BREAK


    class LSTM(RNN, nn.LSTM):
        pass


    class GRU(RNN, nn.GRU):
        pass


    class PlainGRU(nn.GRU):
        pass


    def get_rnn(cell_type):
        if isinstance(cell_type, type):
            rnn = cell_type
        elif cell_type == "LSTM":
            rnn = LSTM
        else:
            rnn = GRU
        return rnn
""")
CELLS = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class LSTM(nn.Module):  # a name, not an nn.LSTM
        def __init__(self, dim, hidden, batch_first=True):
            super().__init__()
            self.cell = nn.GRUCell(dim, hidden)

        def forward(self, x):
            states = [self.cell(x[:, t]) for t in range(x.shape[1])]
            return torch.stack(states, dim=1), states[-1]


    def get_cell_rnn(cell_type):
        return LSTM
""")
MODELS = textwrap.dedent("""
    import torch.nn as nn

    from .cells import get_cell_rnn
    from .rnn import PlainGRU, get_rnn


    class Picked(nn.Module):
        def __init__(self, cell_type="LSTM"):
            super().__init__()
            rnn_class = get_rnn(cell_type)
            self.rnn = rnn_class(4, 8, batch_first=True)

        def forward(self, x):
            out, _ = self.rnn(x)  # BREAK
            return out


    class Direct(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = PlainGRU(4, 8, batch_first=True)

        def forward(self, x):
            out, _ = self.rnn(x)  # BREAK
            return out


    class Cells(nn.Module):
        def __init__(self, cell_type="LSTM"):
            super().__init__()
            rnn_class = get_cell_rnn(cell_type)
            self.rnn = rnn_class(4, 8, batch_first=True)

        def forward(self, x):
            out, _ = self.rnn(x)
            return out
""")


@pytest.fixture()
def root(tmp_path):
    write_package(tmp_path, "held", {"rnn.py": RNN, "cells.py": CELLS, "models.py": MODELS})
    return tmp_path


def _breaks(source: str) -> list[int]:
    return [i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text]


def test_calls_of_rnn_subclasses_from_other_files_are_reported(root):
    findings = check([str(root / "held")], config_mod.load(start=str(root))).findings
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == sorted([("rnn.py", line, "CL119") for line in _breaks(RNN)]
                           + [("models.py", line, "CL119") for line in _breaks(MODELS)])
    picked = next(f for f in findings if f.path.endswith("models.py") and f.line == _breaks(MODELS)[0])
    assert "calling `LSTM`, a subclass of `nn.LSTM`," in picked.message and "GB0014" in picked.message


def test_dynamo_breaks_at_the_calls_of_rnn_subclasses_only(root):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    lines = {}
    with imported(root, "held.models") as models:
        for name in ("Picked", "Direct", "Cells"):
            run = capture(getattr(models, name)(), (torch.randn(2, 5, 4),), backend="eager")
            lines[name] = {(r.file.rsplit("/", 1)[-1], r.line) for r in run.breaks if r.kind == "graph_break"}
    picked, direct = _breaks(MODELS)
    assert ("models.py", picked) in lines["Picked"] and ("rnn.py", _breaks(RNN)[0]) in lines["Picked"]
    assert ("models.py", direct) in lines["Direct"]
    assert lines["Cells"] == set()


WRAPPER = textwrap.dedent("""
    import torch.nn as nn


    class Recurrent(nn.Module):
        def __init__(self, gru=True):
            super().__init__()
            rnn_cls = nn.GRU if gru else nn.LSTM
            self.rnn = rnn_cls(4, 8)

        def forward(self, x, h=None):
            return self.rnn(x, h)  # BREAK


    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 2)

        def forward(self, x):
            return self.proj(x)
""")

EXPORTS = textwrap.dedent("""
    import copy

    import torch
    import torch.nn as nn

    from .wrapper import Head, Recurrent


    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.memory = Recurrent()
            self.head = Head()

        def forward(self, x):
            out, _ = self.memory(x)
            return self.head(out)


    class Exported(nn.Module):
        def __init__(self, policy: Policy):
            super().__init__()
            self.rnn = copy.deepcopy(policy.memory.rnn)
            self.proj = copy.deepcopy(policy.head.proj)
            self.register_buffer("hidden", torch.zeros(1, 1, 8))

        def forward(self, x):
            out, _ = self.rnn(x.unsqueeze(0), self.hidden)  # BREAK
            return self.proj(out.squeeze(0))
""")


def test_a_deep_copy_of_an_rnn_reached_through_an_annotated_model_is_reported(tmp_path):
    # (rsl_rl's export wrappers: `self.rnn = copy.deepcopy(model.rnn.rnn)` with `model: RNNModel`)
    write_package(tmp_path, "exports", {"wrapper.py": WRAPPER, "models.py": EXPORTS})
    findings = check([str(tmp_path / "exports")], config_mod.load(start=str(tmp_path))).findings
    found = sorted((f.path.rsplit("/", 1)[-1], f.line, f.code) for f in findings)
    assert found == [("models.py", _breaks(EXPORTS)[0], "CL119"), ("wrapper.py", _breaks(WRAPPER)[0], "CL119")]
    exported = next(f for f in findings if f.path.endswith("models.py"))
    assert "calling an `nn.GRU` or `nn.LSTM`" in exported.message and "GB0014" in exported.message
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(tmp_path, "exports.models") as models:
        run = capture(models.Exported(models.Policy()), (torch.randn(1, 4),), backend="eager")
    assert ("models.py", _breaks(EXPORTS)[0]) in {(r.file.rsplit("/", 1)[-1], r.line) for r in run.breaks}


SCALES = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class MultiScale(nn.Module):
        def __init__(self, freqs=("1D", "1h")):
            super().__init__()
            self.freqs = freqs
            self.lstms = nn.ModuleDict({f: nn.LSTM(4, 8, batch_first=True) for f in freqs})
            self.grus = nn.ModuleDict({"1D": nn.GRU(4, 8, batch_first=True), "1h": nn.GRU(4, 8, batch_first=True)})
            self.cells = nn.ModuleDict({f: nn.LSTMCell(4, 8) for f in freqs})

        def forward(self, x):
            total = x.new_zeros(())
            for f in self.freqs:
                h, _ = self.lstms[f](x)  # BREAK
                g, _ = self.grus[f](x)  # BREAK
                c, _ = self.cells[f](x[:, 0])
                total = total + h.sum() + g.sum() + c.sum()
            return total
""")


def test_rnns_in_a_module_dict_are_reported_where_they_are_called(tmp_path):
    # (neuralhydrology's MTS-LSTM: `self.lstms = nn.ModuleDict({freq: nn.LSTM(...) for freq in ...})`)
    write_package(tmp_path, "scales", {"model.py": SCALES})
    findings = check([str(tmp_path / "scales")], config_mod.load(start=str(tmp_path))).findings
    assert sorted(f.line for f in findings if f.code == "CL119") == _breaks(SCALES)
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    with imported(tmp_path, "scales.model") as model:
        run = capture(model.MultiScale(), (torch.randn(2, 5, 4),), backend="eager")
    assert _breaks(SCALES)[0] in {r.line for r in run.breaks if r.file.endswith("model.py")}
