"""ncps (Neural Circuit Policies, Lechner & Hasani) 1.0.1, its PyTorch frontend ``ncps.torch``:
the closed-form continuous-time ``CfC`` and the liquid time-constant ``LTC`` RNNs, as its README
and docs build them, tiny (batch 2, 8 time steps, 4 input features, 12-16 units; a 16-unit
backbone for the fully-connected CfC), random weights, no download:

- ``CfC`` fully connected: hx None and an explicit ``h0``, ``batch_first`` False (time major),
  ``return_sequences=False``, the modes ``"default"``, ``"pure"`` and ``"no_gate"``,
  ``mixed_memory`` (an LSTM cell beside it, given an explicit ``(h0, c0)``), ``proj_size``,
  a two-layer ``"silu"`` backbone with dropout, irregular ``timespans``, batchless (2-D) input;
- ``CfC`` over each wiring of ``ncps.wirings`` (``FullyConnected``, ``NCP``, ``AutoNCP``,
  ``Random``; a ``WiredCfCCell`` of sparsity-masked, backbone-free ``CfCCell`` layers), the NCP
  also time major without sequences in ``"no_gate"`` mode, ``AutoNCP`` with an explicit ``hx``,
  with mixed memory (hx None) and with ``timespans``;
- ``LTC`` fully connected: hx None and explicit, time major without sequences, mixed memory,
  ``timespans``, ``ode_unfolds=1``, ``implicit_param_constraints=False`` (no softplus), linear
  input mapping and no output mapping; ``LTC`` over each wiring;
- the single-step cells as a user drives them: ``CfCCell``, ``LTCCell`` and ``WiredCfCCell`` in
  a Python loop over time (the ``RNNSequence`` of the library's ``pt_example.py``; the LTC cell
  with a per-sample ``(B, 1)`` elapsed time each step), and each called once (one step);
- models built on them: the "first steps" tutorial's sine regressor (``LTC`` over
  ``AutoNCP(16, 1)``, its ``SequenceLearner`` step: the MSE of the output against the target),
  the Atari behaviour-cloning ``ConvCfC`` (a conv block with ``BatchNorm1d`` on batch x time
  merged, then ``CfC(proj_size=n_actions)``; its training step: cross-entropy of the flattened
  logits; eval: the validation step, loss and accuracy) and its closed loop (one frame at a time
  from two environments side by side, the hidden state carried from ``None``), and a stacked
  classifier (a fully connected ``CfC`` feeding a ``CfC`` over ``AutoNCP`` that returns the last
  step, a linear head; cross-entropy).

Eval: each RNN's ``(output, hx)`` (the cells' ``(output, state)``, the learners' loss). Train:
the learners' loss, ``mean_loss_module`` for the rest. Stop 34: measured first as it came
(RESULTS §28), before any rule looked at it.

    pip install --no-deps ncps==1.0.1

``ncps.torch`` and ``ncps.wirings`` need only torch and numpy (both there). Not installed:
``future`` (declared, but imported nowhere: the package's ``from __future__`` lines are the
standard library's); ``packaging`` (declared) was already there, and only ``ncps.tf`` /
``ncps.keras`` import it. Nothing stubbed: those TensorFlow / Keras frontends and
``ncps.paddle`` are separate subpackages that ``import ncps`` does not load.

Left out: ``ncps.tf`` / ``ncps.keras`` (TensorFlow, Keras) and ``ncps.paddle`` (PaddlePaddle);
``datasets`` (downloads); ``Wiring.draw_graph`` (matplotlib / networkx); ``LTCCell``'s
``apply_weight_constraints()`` (a ``.data`` clip a training loop runs after the optimizer step,
no forward); a backbone-free fully connected ``CfC``, mixed memory from hx None on the fully
connected ``CfC`` and ``"pure"`` over a wiring (the code the wired, ``AutoNCP`` and
``CfCCell_pure_once`` models run). The closed loop runs two environments: with the tutorial's
one, train mode's ``BatchNorm1d`` sees one value per channel and raises (the tutorial runs it
only in eval, under ``no_grad``).
Notes: ``CfC`` / ``LTC`` take ``timespans[:, t].squeeze()`` per step, a ``(B,)`` tensor that does
not broadcast against the ``(B, units)`` state unless the batch is 1 (then a 0-d tensor) or
equals the layer's unit count, so the ``*_timespans`` models run batch 1 (as the docs' torch
examples train), ``(1, 8, 1)`` spans; the cells take a ``(B, 1)`` span as given. A wiring
is built (mutated) by the first RNN given it, so each model makes its own.
"""

import functools

PACKAGE = "ncps"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _T, _F = 2, 8, 4  # batch, time steps, input features
_UNITS = 12  # fully connected units (the wirings: 12 neurons too)
_BACKBONE = 16  # the fully connected CfC's backbone width (default 128)
_ACTIONS = 3  # the Atari model's actions, the classifier's classes


def warm_up():
    import torch  # noqa: F401
    import ncps  # noqa: F401
    import ncps.torch  # noqa: F401
    import ncps.wirings  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    import torch.nn.functional as F

    class RNNSequence(nn.Module):
        """``pt_example.py``'s module unfolding a single-step cell over the time axis (batch
        first), the state from zeros; ``timespans`` ``(B, T, 1)``: each step's elapsed time."""

        def __init__(self, rnn_cell, state_size, with_ts=False):
            super().__init__()
            self.rnn_cell, self.state_size, self.with_ts = rnn_cell, state_size, with_ts

        def forward(self, x, timespans=None):
            batch_size, seq_len = x.size(0), x.size(1)
            hidden_state = torch.zeros((batch_size, self.state_size), device=x.device)
            outputs = []
            for t in range(seq_len):
                inputs = x[:, t]
                if self.with_ts:
                    new_output, hidden_state = self.rnn_cell.forward(inputs, hidden_state, timespans[:, t])
                else:
                    new_output, hidden_state = self.rnn_cell.forward(inputs, hidden_state, 1.0)
                outputs.append(new_output)
            return torch.stack(outputs, dim=1), hidden_state

    class SequenceLearner(nn.Module):
        """The "first steps" tutorial's training / validation step: ``y_hat, _ = model(x)``,
        ``view_as(y)``, MSE."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x, y):
            y_hat, _ = self.model.forward(x)
            y_hat = y_hat.view_as(y)
            return nn.MSELoss()(y_hat, y)

    class ConvBlock(nn.Module):
        """The Atari tutorial's conv block, narrowed (4 -> 8 -> 16 channels, two convs)."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(4, 8, 5, padding=2, stride=2)
            self.conv2 = nn.Conv2d(8, 16, 5, padding=2, stride=2)
            self.norm = nn.BatchNorm1d(16)

        def forward(self, x):
            x = F.relu(self.conv1(x))
            x = F.relu(self.conv2(x))
            x = x.mean((-1, -2))  # Global average pooling
            x = self.norm(x)
            return x

    class ConvCfC(nn.Module):
        """The Atari tutorial's ``ConvCfC``: batch and time merged for the convs, then a CfC."""

        def __init__(self, n_actions):
            super().__init__()
            from ncps.torch import CfC

            self.conv_block = ConvBlock()
            self.rnn = CfC(16, 16, batch_first=True, proj_size=n_actions, backbone_units=_BACKBONE)

        def forward(self, x, hx=None):
            batch_size = x.size(0)
            seq_len = x.size(1)
            x = x.view(batch_size * seq_len, *x.shape[2:])
            x = self.conv_block(x)
            x = x.view(batch_size, seq_len, *x.shape[1:])
            x, hx = self.rnn(x, hx)
            return x, hx

    class CloningStep(nn.Module):
        """The Atari tutorial's ``train_one_epoch`` step (cross-entropy of the flattened logits)
        and, in eval, its ``eval`` step (the loss and the accuracy)."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            self.criterion = nn.CrossEntropyLoss()

        def forward(self, inputs, labels):
            outputs, hx = self.model(inputs)
            labels = labels.view(-1, *labels.shape[2:])  # flatten
            outputs = outputs.reshape(-1, *outputs.shape[2:])  # flatten
            loss = self.criterion(outputs, labels)
            if self.training:
                return loss
            acc = (outputs.argmax(-1) == labels).float().mean()
            return loss, acc

    class ClosedLoop(nn.Module):
        """The Atari tutorial's ``run_closed_loop`` without the environment, over a batch of
        parallel environments: one frame at a time (a time axis of one added), the hidden state
        carried from ``None``; the greedy actions."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, frames):
            hx = None
            preds, actions = [], []
            for obs in frames:
                pred, hx = self.model(obs.unsqueeze(1), hx)
                preds.append(pred)
                actions.append(pred.squeeze(1).argmax(-1))
            return torch.cat(preds, dim=1), torch.stack(actions), hx

    class StackedClassifier(nn.Module):
        """A fully connected CfC feeding a CfC over an ``AutoNCP`` wiring that returns the last
        step's motor neurons, then a linear head: a sequence classifier."""

        def __init__(self, classes):
            super().__init__()
            from ncps.torch import CfC
            from ncps.wirings import AutoNCP

            self.rnn1 = CfC(_F, 16, backbone_units=_BACKBONE)
            self.rnn2 = CfC(16, AutoNCP(_UNITS, 4), return_sequences=False)
            self.head = nn.Linear(4, classes)

        def forward(self, x):
            x, _ = self.rnn1(x)
            x, _ = self.rnn2(x)
            return self.head(x)

    class ClassifierStep(nn.Module):
        """Cross-entropy of a classifier against the labels."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x, labels):
            return F.cross_entropy(self.model(x), labels)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the parts ----------------------------------------------------------------------------

def _wiring(kind):
    """A fresh 12-neuron wiring of each kind (a wiring is built, mutated, by its first RNN)."""
    from ncps import wirings

    if kind == "FullyConnected":
        return wirings.FullyConnected(_UNITS, 4)
    if kind == "NCP":
        return wirings.NCP(inter_neurons=6, command_neurons=4, motor_neurons=2, sensory_fanout=3,
                           inter_fanout=2, recurrent_command_synapses=3, motor_fanin=2)
    if kind == "AutoNCP":
        return wirings.AutoNCP(_UNITS, 3)
    if kind == "Random":
        return wirings.Random(_UNITS, 4, sparsity_level=0.5)
    raise ValueError(kind)


def _mean(net, args, mode, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), args, kwargs or {}


def _inputs(batch_first=True, batch=_B, hx=None, mixed=False, timespans=False, unbatched=False):
    """The input sequence and the forward's keyword arguments: an explicit ``hx`` of ``hx``
    units (a ``(h0, c0)`` pair with mixed memory), ``(batch, T, 1)`` timespans."""
    import torch

    if unbatched:
        return (torch.randn(_T, _F),), {}
    x = torch.randn(batch, _T, _F) if batch_first else torch.randn(_T, batch, _F)
    kwargs = {}
    if hx is not None:
        h0 = torch.randn(batch, hx) * 0.1
        kwargs["hx"] = (h0, torch.zeros(batch, hx)) if mixed else h0
    if timespans:
        spans = torch.rand(batch, _T, 1) + 0.5
        kwargs["timespans"] = spans if batch_first else spans.transpose(0, 1)
    return (x,), kwargs


def _cfc(wiring=None, hx=False, timespans=False, unbatched=False, **options):
    """``CfC(4, units | wiring, **options)`` on a ``(B, T, 4)`` sequence (time major without
    ``batch_first``); ``hx``: an explicit initial state; ``timespans``: batch 1, irregular spans."""

    def make(mode):
        from ncps.torch import CfC

        if wiring is None:
            opts = dict(backbone_units=_BACKBONE)
            opts.update(options)
            net = CfC(_F, _UNITS, **opts)
        else:
            net = CfC(_F, _wiring(wiring), **options)
        args, kwargs = _inputs(options.get("batch_first", True), 1 if timespans else _B,
                               net.state_size if hx else None, options.get("mixed_memory", False),
                               timespans, unbatched)
        return _mean(net, args, mode, kwargs)

    return make


def _ltc(wiring=None, hx=False, timespans=False, **options):
    """``LTC(4, units | wiring, **options)``, as ``_cfc``."""

    def make(mode):
        from ncps.torch import LTC

        net = LTC(_F, _wiring(wiring) if wiring else _UNITS, **options)
        args, kwargs = _inputs(options.get("batch_first", True), 1 if timespans else _B,
                               net.state_size if hx else None, options.get("mixed_memory", False), timespans)
        return _mean(net, args, mode, kwargs)

    return make


def _cell(kind, **options):
    """A single-step cell: ``CfCCell(4, 12)``, ``LTCCell(FullyConnected(12, 4), 4)`` or
    ``WiredCfCCell(4, AutoNCP(12, 3))``."""
    from ncps.torch import CfCCell, LTCCell, WiredCfCCell

    if kind == "CfCCell":
        return CfCCell(_F, _UNITS, backbone_units=_BACKBONE, **options), _UNITS
    if kind == "LTCCell":
        return LTCCell(_wiring("FullyConnected"), _F, **options), _UNITS
    if kind == "WiredCfCCell":
        return WiredCfCCell(_F, _wiring("AutoNCP"), **options), _UNITS
    raise ValueError(kind)


def _cell_loop(kind, timespans=False, **options):
    """The cell in ``RNNSequence``'s user loop over the 8 steps (elapsed time 1.0, or each
    step's ``(B, 1)`` span)."""

    def make(mode):
        import torch

        cell, state = _cell(kind, **options)
        net = _nets().RNNSequence(cell, state, with_ts=timespans)
        kwargs = {"timespans": torch.rand(_B, _T, 1) + 0.5} if timespans else {}
        return _mean(net, (torch.randn(_B, _T, _F),), mode, kwargs)

    return make


def _cell_once(kind, **options):
    """The cell called once: ``cell(x, h, ts)`` for one step from a given state."""

    def make(mode):
        import torch

        cell, state = _cell(kind, **options)
        args = (torch.randn(_B, _F), torch.randn(_B, state) * 0.1, 1.0)
        return _mean(cell, args, mode)

    return make


def _sine_regressor(mode):
    """The "first steps" tutorial: LTC over AutoNCP(16, 1) on a sine and a cosine, the target a
    sine of double frequency; its SequenceLearner step (MSE) in both modes."""
    import numpy as np
    import torch
    from ncps.torch import LTC
    from ncps.wirings import AutoNCP

    ltc_model = LTC(2, AutoNCP(16, 1), batch_first=True)
    t = np.linspace(0, 3 * np.pi, _T)
    data_x = torch.tensor(np.stack([np.sin(t), np.cos(t)], axis=1)[None].astype(np.float32))
    data_y = torch.tensor(np.sin(2 * t).reshape([1, _T, 1]).astype(np.float32))
    return _nets().SequenceLearner(ltc_model), (data_x, data_y), {}


def _conv_cfc(mode):
    """The Atari behaviour-cloning ConvCfC (4 stacked 16x16 frames) and its training / eval step."""
    import torch

    model = _nets().ConvCfC(_ACTIONS)
    inputs = torch.rand(_B, 4, 4, 16, 16)
    labels = torch.randint(0, _ACTIONS, (_B, 4))
    return _nets().CloningStep(model), (inputs, labels), {}


def _conv_cfc_closed_loop(mode):
    import torch

    # two environments side by side: with one, train mode's BatchNorm1d sees a single value per
    # channel and raises (the tutorial runs its single environment only under eval / no_grad)
    net = _nets().ClosedLoop(_nets().ConvCfC(_ACTIONS))
    return _mean(net, (torch.rand(4, _B, 4, 16, 16),), mode)


def _stacked_classifier(mode):
    import torch

    net = _nets().StackedClassifier(_ACTIONS)
    x = torch.randn(_B, _T, _F)
    if mode == "train":
        return _nets().ClassifierStep(net), (x, torch.arange(_B) % _ACTIONS), {}
    return net, (x,), {}


MODELS = {
    # CfC, fully connected: state given or not, layout, sequences, modes, mixed memory, options
    "CfC": _cfc(),
    "CfC_hx": _cfc(hx=True),
    "CfC_time_major": _cfc(batch_first=False),
    "CfC_last_step": _cfc(return_sequences=False),
    "CfC_pure": _cfc(mode="pure"),
    "CfC_no_gate": _cfc(mode="no_gate"),
    "CfC_mixed_memory_hx": _cfc(hx=True, mixed_memory=True),
    "CfC_proj": _cfc(proj_size=4),
    "CfC_backbone_silu_dropout": _cfc(backbone_layers=2, backbone_dropout=0.1, activation="silu"),
    "CfC_timespans": _cfc(timespans=True),
    "CfC_unbatched": _cfc(unbatched=True),
    # CfC over each wiring (a WiredCfCCell)
    "CfC_FullyConnected": _cfc("FullyConnected"),
    "CfC_NCP": _cfc("NCP"),
    "CfC_NCP_no_gate_time_major_last": _cfc("NCP", mode="no_gate", batch_first=False, return_sequences=False),
    "CfC_AutoNCP": _cfc("AutoNCP", hx=True),
    "CfC_AutoNCP_mixed_memory": _cfc("AutoNCP", mixed_memory=True),
    "CfC_AutoNCP_timespans": _cfc("AutoNCP", timespans=True),
    "CfC_Random": _cfc("Random"),
    # LTC, fully connected and over each wiring
    "LTC": _ltc(),
    "LTC_hx": _ltc(hx=True),
    "LTC_time_major_last": _ltc(batch_first=False, return_sequences=False),
    "LTC_mixed_memory": _ltc(mixed_memory=True),
    "LTC_timespans": _ltc(timespans=True),
    "LTC_ode_unfolds_1": _ltc(ode_unfolds=1),
    "LTC_explicit_constraints": _ltc(implicit_param_constraints=False),
    "LTC_linear_mapping": _ltc(input_mapping="linear", output_mapping=None),
    "LTC_FullyConnected": _ltc("FullyConnected"),
    "LTC_NCP": _ltc("NCP", hx=True),
    "LTC_AutoNCP": _ltc("AutoNCP"),
    "LTC_Random": _ltc("Random"),
    # the single-step cells: a user loop over time, or one step
    "CfCCell_loop": _cell_loop("CfCCell"),
    "CfCCell_pure_once": _cell_once("CfCCell", mode="pure"),
    "LTCCell_loop_timespans": _cell_loop("LTCCell", timespans=True),
    "LTCCell_once": _cell_once("LTCCell"),
    "WiredCfCCell_loop": _cell_loop("WiredCfCCell"),
    "WiredCfCCell_once": _cell_once("WiredCfCCell", mode="no_gate"),
    # models built on them (the docs' examples)
    "LTC_sine_regressor": _sine_regressor,
    "ConvCfC_atari": _conv_cfc,
    "ConvCfC_closed_loop": _conv_cfc_closed_loop,
    "CfC_stacked_classifier": _stacked_classifier,
}
