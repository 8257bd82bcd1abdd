"""snntorch: spiking neural networks as its tutorials write them. Each neuron model sits in a
small network (an ``nn.Linear`` or ``nn.Conv2d``, then the neuron; two layers) that a Python
loop in ``forward`` runs over a fixed number of time steps, recording the output spikes and
membrane potentials and stacking them (time first). Two state styles per neuron:
``init_hidden=False``, the state explicit (``mem = lif.init_leaky()``, ``syn, mem =
lif.init_synaptic()``, ... or 1.0's ``reset_mem()``, then passed in and out each step), and
``init_hidden=True``, the state kept on the module (an ``nn.Sequential`` called once per step,
its last neuron ``output=True``, ``snntorch.utils.reset(net)`` first, as the tutorials'
``forward_pass`` does). The models: ``Leaky`` per reset mechanism (subtract, zero, none),
learnable per-neuron beta / threshold / graded-spike factor, ``reset_delay=False``, quantized
state (``functional.quant.state_quant``), init_hidden with and without truncated BPTT
(``Leaky.detach_hidden()`` every few steps), a convolutional net (tutorial 6); the
surrogate gradients (atan, fast_sigmoid, sigmoid, triangular, spike_rate_escape,
straight_through_estimator, custom_surrogate); ``Synaptic``, ``Alpha``, ``Lapicque``
(R and C given; beta given), ``RLeaky`` (all-to-all linear, all-to-all conv, one-to-one
``V``), ``RSynaptic``, ``SLSTM``, ``SConv2dLSTM`` (max / average pooled spikes) each
explicit and init_hidden; the loop-free neurons (``LeakyParallel``, ``StateLeaky``,
``LinearLeaky``, ``AssociativeLeaky`` over a whole ``(T, B, F)`` sequence) and
``DeltaLeaky``; ``BatchNormTT1d`` (one BatchNorm per time step); ``spikegen`` encoders
(rate, latency, delta) feeding a net; the ``snntorch.functional`` losses and accuracy helpers
(``accuracy_rate`` and ``accuracy_temporal`` call ``.cpu().numpy()``: a float, wrapped back
into a tensor); ``functional.probe.OutputMonitor`` (forward hooks recording each step).

Sizes: batch 8, 16 features, 16 hidden, 4 classes, 8 time steps, a 1x8x8 image; random
weights, random inputs in [0, 2), no download; a few thresholds lowered (Alpha, Lapicque,
the spiking LSTMs, the conv nets) so that the small random nets spike at all. Eval: the
stacked output spikes and membrane (the loss models: the loss, and the accuracy where one is
computed: a validation step). Train: the loss (``ce_rate_loss`` and ``mse_membrane_loss``
give a one-element tensor, not a 0-d one: they accumulate into ``torch.zeros(1)``):
``functional.ce_rate_loss`` on the output spikes of the classifier nets (the tutorials'
loss), the named loss for the loss models, ``mean_loss_module`` for ``AssociativeLeaky``
(no class outputs) and ``OutputMonitor``.

    pip install --no-deps snntorch==1.0.0

``import snntorch`` needs only torch; ``snntorch.functional`` and ``snntorch.utils`` import
numpy (already installed for the zoo). Not installed: pandas and matplotlib (only
``snntorch.spikeplot`` and ``spikevision`` import them), nir / nirtorch (``export_nir`` /
``import_nir``, not imported by the package), h5py / tqdm (``spikevision`` datasets).

Left out: ``snntorch.backprop`` (``BPTT`` / ``TBPTT`` / ``RTRL`` run an optimizer; the
TBPTT detach pattern is kept in ``Leaky_init_hidden_tbptt``); ``spikeplot`` and
``spikevision`` (plots, dataset downloads); ``GradedSpikes`` (its weights are
``(size, 1)``, so ``x * weights`` only broadcasts when the batch equals the layer size);
``ce_rate_loss(population_code=True)`` without ``weight`` (it indexes ``self.weight[0]`` and
raises on None; ``ce_count_loss`` with a population code is kept); ``Alpha(learn_alpha=True)``
(it assigns ``self.alpha.clamp(0, 1)`` over the Parameter); ``inhibition=True`` (flagged
unstable by the library); ``DeltaLeaky`` with ``init_hidden=True`` (it returns
``(spk, (mem, mem_prev))``, which an ``nn.Sequential`` cannot chain); the surrogates
``heaviside``, ``SSO``, ``SFS`` (the same autograd.Function pattern as those kept) and
``LSO`` (broken in 1.0.0: it applies ``StochasticSpikeOperator`` with one argument short);
``mse_temporal_loss`` (the same ``SpikeTime`` as ``ce_temporal_loss``); the STDP learners.
Notes: ``SLSTM`` re-zeroes its state whenever its ``input_size`` differs from its
``hidden_size`` (it compares the state's shape with the input's), so the second layer of
the explicit ``SLSTM`` net (16 -> 4) starts from zero every step (the init_hidden net's
layers are square): the library's behaviour, kept. ``StateLeaky(learn_beta=True)`` learns
``tau``; the ``beta`` Parameter it also registers is unused (no gradient). Every neuron joins
the class-level ``SpikingNeuron.instances`` list, and ``utils.reset`` / ``detach_hidden``
act on every instance of the class in the process, not only the net's.
"""

import functools

PACKAGE = "snntorch"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite
_B, _F, _H, _OUT, _T = 8, 16, 16, 4, 8
_CH, _IMG = 4, 8  # conv channels; a 1x8x8 image, pooled to 4x4
_LSTM_THR = 0.1  # a spiking LSTM's membrane is o * tanh(c), inside (-1, 1): the default threshold 1 never fires


def warm_up():
    import torch  # noqa: F401
    import snntorch  # noqa: F401
    import snntorch.functional  # noqa: F401
    import snntorch.functional.probe  # noqa: F401
    import snntorch.functional.quant  # noqa: F401
    import snntorch.spikegen  # noqa: F401
    import snntorch.surrogate  # noqa: F401
    import snntorch.utils  # noqa: F401


# --- the networks (tutorial style; classes built once, when the first model is) ----------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    import snntorch as snn
    from snntorch import utils

    class LeakyNet(nn.Module):
        """Tutorial 5: two Leaky layers, explicit membrane state."""

        def __init__(self, fc1, lif1, fc2, lif2, num_steps=_T):
            super().__init__()
            self.fc1, self.lif1, self.fc2, self.lif2 = fc1, lif1, fc2, lif2
            self.num_steps = num_steps

        def forward(self, x):
            mem1 = self.lif1.init_leaky()
            mem2 = self.lif2.init_leaky()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                cur1 = self.fc1(x[step])
                spk1, mem1 = self.lif1(cur1, mem1)
                cur2 = self.fc2(spk1)
                spk2, mem2 = self.lif2(cur2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec, dim=0), torch.stack(mem2_rec, dim=0)

    class LapicqueNet(LeakyNet):
        """Two Lapicque layers, explicit membrane state (1.0's ``reset_mem``)."""

        def forward(self, x):
            mem1 = self.lif1.reset_mem()
            mem2 = self.lif2.reset_mem()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                spk1, mem1 = self.lif1(self.fc1(x[step]), mem1)
                spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class SynapticNet(LeakyNet):
        """Two Synaptic layers: synaptic current and membrane, explicit."""

        def forward(self, x):
            syn1, mem1 = self.lif1.init_synaptic()
            syn2, mem2 = self.lif2.init_synaptic()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                cur1 = self.fc1(x[step])
                spk1, syn1, mem1 = self.lif1(cur1, syn1, mem1)
                cur2 = self.fc2(spk1)
                spk2, syn2, mem2 = self.lif2(cur2, syn2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec, dim=0), torch.stack(mem2_rec, dim=0)

    class AlphaNet(LeakyNet):
        """Two Alpha layers: excitatory and inhibitory currents and membrane, explicit."""

        def forward(self, x):
            syn_exc1, syn_inh1, mem1 = self.lif1.init_alpha()
            syn_exc2, syn_inh2, mem2 = self.lif2.init_alpha()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                cur1 = self.fc1(x[step])
                spk1, syn_exc1, syn_inh1, mem1 = self.lif1(cur1, syn_exc1, syn_inh1, mem1)
                cur2 = self.fc2(spk1)
                spk2, syn_exc2, syn_inh2, mem2 = self.lif2(cur2, syn_exc2, syn_inh2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec, dim=0), torch.stack(mem2_rec, dim=0)

    class RLeakyNet(LeakyNet):
        """Two RLeaky layers: the spikes feed back, explicit."""

        def forward(self, x):
            spk1, mem1 = self.lif1.init_rleaky()
            spk2, mem2 = self.lif2.init_rleaky()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                cur1 = self.fc1(x[step])
                spk1, mem1 = self.lif1(cur1, spk1, mem1)
                cur2 = self.fc2(spk1)
                spk2, mem2 = self.lif2(cur2, spk2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class RSynapticNet(LeakyNet):
        """Two RSynaptic layers, explicit (``reset_mem``)."""

        def forward(self, x):
            spk1, syn1, mem1 = self.lif1.reset_mem()
            spk2, syn2, mem2 = self.lif2.reset_mem()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                spk1, syn1, mem1 = self.lif1(self.fc1(x[step]), spk1, syn1, mem1)
                spk2, syn2, mem2 = self.lif2(self.fc2(spk1), spk2, syn2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class SLSTMNet(nn.Module):
        """The SLSTM docstring's net: two spiking LSTM layers, explicit."""

        def __init__(self, slstm1, slstm2, num_steps=_T):
            super().__init__()
            self.slstm1, self.slstm2, self.num_steps = slstm1, slstm2, num_steps

        def forward(self, x):
            syn1, mem1 = self.slstm1.init_slstm()
            syn2, mem2 = self.slstm2.init_slstm()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                spk1, syn1, mem1 = self.slstm1(x[step], syn1, mem1)
                spk2, syn2, mem2 = self.slstm2(spk1, syn2, mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class SConvLSTMNet(nn.Module):
        """The SConv2dLSTM docstring's net: two conv spiking LSTMs, a linear layer, Leaky."""

        def __init__(self, sclstm1, sclstm2, fc, lif, num_steps=_T):
            super().__init__()
            self.sclstm1, self.sclstm2, self.fc1, self.lif1 = sclstm1, sclstm2, fc, lif
            self.num_steps = num_steps

        def forward(self, x):
            syn1, mem1 = self.sclstm1.init_sconv2dlstm()
            syn2, mem2 = self.sclstm2.reset_mem()
            mem3 = self.lif1.init_leaky()
            spk3_rec, mem3_rec = [], []
            for step in range(self.num_steps):
                spk1, syn1, mem1 = self.sclstm1(x[step], syn1, mem1)
                spk2, syn2, mem2 = self.sclstm2(spk1, syn2, mem2)
                cur = self.fc1(spk2.flatten(1))
                spk3, mem3 = self.lif1(cur, mem3)
                spk3_rec.append(spk3)
                mem3_rec.append(mem3)
            return torch.stack(spk3_rec), torch.stack(mem3_rec)

    class DeltaNet(LeakyNet):
        """Two DeltaLeaky layers: the state is a (mem, mem_prev) pair, explicit."""

        def forward(self, x):
            state1 = self.lif1.reset_mem()
            state2 = self.lif2.reset_mem()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                spk1, state1 = self.lif1(self.fc1(x[step]), state1)
                spk2, state2 = self.lif2(self.fc2(spk1), state2)
                spk2_rec.append(spk2)
                mem2_rec.append(state2[0])
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class BNTTNet(LeakyNet):
        """Batch normalisation through time: ``BatchNormTT1d`` is a ModuleList, one per step."""

        def __init__(self, fc1, lif1, fc2, lif2, num_steps=_T):
            super().__init__(fc1, lif1, fc2, lif2, num_steps)
            self.bntt1 = snn.BatchNormTT1d(fc1.out_features, num_steps)

        def forward(self, x):
            mem1 = self.lif1.init_leaky()
            mem2 = self.lif2.init_leaky()
            spk2_rec, mem2_rec = [], []
            for step in range(self.num_steps):
                cur1 = self.bntt1[step](self.fc1(x[step]))
                spk1, mem1 = self.lif1(cur1, mem1)
                spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
                spk2_rec.append(spk2)
                mem2_rec.append(mem2)
            return torch.stack(spk2_rec), torch.stack(mem2_rec)

    class HiddenRun(nn.Module):
        """The tutorials' ``forward_pass(net, num_steps, data)``: ``utils.reset(net)``, then the
        init_hidden ``nn.Sequential`` once per step (its last neuron ``output=True``). With
        ``detach_every``: truncated BPTT's ``<Neuron>.detach_hidden()`` every that many steps."""

        def __init__(self, net, num_steps=_T, detach_every=0):
            super().__init__()
            self.net, self.num_steps, self.detach_every = net, num_steps, detach_every

        def forward(self, x):
            utils.reset(self.net)
            spk_rec, mem_rec = [], []
            for step in range(self.num_steps):
                out = self.net(x[step])
                spk_rec.append(out[0])
                mem_rec.append(out[-1])
                if self.detach_every and (step + 1) % self.detach_every == 0:
                    snn.Leaky.detach_hidden()
            return torch.stack(spk_rec), torch.stack(mem_rec)

    class Encoded(nn.Module):
        """A ``spikegen`` encoder (a partial) turning the input into spike trains, then a net."""

        def __init__(self, encode, net):
            super().__init__()
            self.encode, self.net = encode, net

        def forward(self, data):
            spk_in = self.encode(data)
            return self.net(spk_in)

    class MonitorRun(nn.Module):
        """``functional.probe.OutputMonitor`` on the Leaky layers of an init_hidden net: its
        forward hooks record every step's output; returned with the net's."""

        def __init__(self, run):
            super().__init__()
            from snntorch.functional.probe import OutputMonitor

            self.run = run
            self.monitor = OutputMonitor(run.net, instance=snn.Leaky)

        def forward(self, x):
            self.monitor.clear_recorded_data()
            spk_rec, mem_rec = self.run(x)
            hidden = torch.stack(self.monitor[self.monitor.monitored_layers[0]])
            return spk_rec, mem_rec, hidden

    class SpikeLoss(nn.Module):
        """A ``snntorch.functional`` loss on the net's output spikes (``on="spk"``) or membrane
        (``on="mem"``), against fixed labels; ``reg``: a regulariser on the spikes added;
        ``acc``: an accuracy helper, returned with the loss in eval."""

        def __init__(self, net, loss_fn, on="spk", classes=_OUT, reg=None, acc=None):
            super().__init__()
            self.net, self.loss_fn, self.on, self.reg, self.acc = net, loss_fn, on, reg, acc
            self.register_buffer("targets", torch.arange(_B) % classes)

        def forward(self, x):
            out = self.net(x)
            spk_rec = out[0] if isinstance(out, tuple) else out
            loss = self.loss_fn(spk_rec if self.on == "spk" else out[1], self.targets)
            if self.reg is not None:
                loss = loss + self.reg(spk_rec)
            if self.acc is not None and not self.training:
                return loss, torch.tensor(self.acc(spk_rec, self.targets))
            return loss

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- inputs ------------------------------------------------------------------------------

def _seq():
    """Time-major input currents, (T, B, F)."""
    import torch

    return torch.rand(_T, _B, _F) * 2


def _img_seq():
    """Time-major images, (T, B, 1, 8, 8)."""
    import torch

    return torch.rand(_T, _B, 1, _IMG, _IMG) * 2


def _static():
    """Static features in [0, 1], (B, F): what a spikegen encoder turns into spike trains."""
    import torch

    return torch.rand(_B, _F)


# --- the train wrappers -----------------------------------------------------------------

def _ce_rate(net, args, mode):
    """Train: ``functional.ce_rate_loss`` on the output spikes (the tutorials' loss)."""
    if mode == "train":
        import snntorch.functional as SF

        return _nets().SpikeLoss(net, SF.ce_rate_loss()), args, {}
    return net, args, {}


def _mean(net, args, mode):
    return (mean_loss_module()(net) if mode == "train" else net), args, {}


# --- models ------------------------------------------------------------------------------

def _leaky(spike_grad=None, learnable=False, **kwargs):
    """Two Leaky layers after ``nn.Linear``, explicit state; ``spike_grad``: a callable making
    the surrogate (``snntorch.surrogate.*``)."""

    def make(mode):
        import torch
        from torch import nn
        import snntorch as snn

        grad = spike_grad() if spike_grad is not None else None
        extra = {}
        if learnable:  # per-neuron beta and threshold, learnable, with a learnable spike size
            extra = {"beta": torch.rand(_H), "learn_beta": True, "threshold": torch.ones(_H),
                     "learn_threshold": True, "learn_graded_spikes_factor": True}
        first = {"beta": 0.9, **kwargs, **extra}
        net = _nets().LeakyNet(nn.Linear(_F, _H), snn.Leaky(spike_grad=grad, **first),
                               nn.Linear(_H, _OUT), snn.Leaky(beta=0.9, spike_grad=grad, **kwargs))
        return _ce_rate(net, (_seq(),), mode)

    return make


def _leaky_state_quant(mode):
    from torch import nn
    import snntorch as snn
    from snntorch.functional import quant

    q = quant.state_quant(num_bits=4, uniform=True, threshold=1.0)
    net = _nets().LeakyNet(nn.Linear(_F, _H), snn.Leaky(beta=0.9, state_quant=q),
                           nn.Linear(_H, _OUT), snn.Leaky(beta=0.9, state_quant=q))
    return _ce_rate(net, (_seq(),), mode)


def _custom_fast_sigmoid(input_, grad_input, spikes):
    """The CustomSurrogate docstring's example: fast sigmoid's gradient, slope inside."""
    slope = 25
    return grad_input / (slope * abs(input_) + 1.0) ** 2


def _surrogate(name, **kwargs):
    def spike_grad():
        from snntorch import surrogate

        if name == "custom_surrogate":
            return surrogate.custom_surrogate(_custom_fast_sigmoid)
        return getattr(surrogate, name)(**kwargs)

    return _leaky(spike_grad=spike_grad)


def _leaky_hidden(detach_every=0):
    """Tutorial 7's style: an init_hidden ``nn.Sequential`` run by ``HiddenRun``."""

    def make(mode):
        from torch import nn
        import snntorch as snn

        seq = nn.Sequential(nn.Linear(_F, _H), snn.Leaky(beta=0.9, init_hidden=True),
                            nn.Linear(_H, _OUT), snn.Leaky(beta=0.9, init_hidden=True, output=True))
        return _ce_rate(_nets().HiddenRun(seq, detach_every=detach_every), (_seq(),), mode)

    return make


def _leaky_conv_hidden(mode):
    """Tutorial 6's convolutional SNN (init_hidden, fast_sigmoid surrogate)."""
    from torch import nn
    import snntorch as snn
    from snntorch import surrogate

    grad = surrogate.fast_sigmoid(slope=25)
    seq = nn.Sequential(nn.Conv2d(1, _CH, 3, padding=1), nn.MaxPool2d(2),
                        snn.Leaky(beta=0.5, threshold=0.5, spike_grad=grad, init_hidden=True),
                        nn.Flatten(), nn.Linear(_CH * (_IMG // 2) ** 2, _OUT),
                        snn.Leaky(beta=0.5, threshold=0.5, spike_grad=grad, init_hidden=True, output=True))
    return _ce_rate(_nets().HiddenRun(seq), (_img_seq(),), mode)


def _explicit(net_cls, neuron, hidden_kwargs, out_kwargs=None):
    """Two ``neuron`` layers after ``nn.Linear``, explicit state, run by ``_nets().<net_cls>``."""

    def make(mode):
        from torch import nn
        import snntorch as snn

        cls = getattr(snn, neuron)
        net = getattr(_nets(), net_cls)(nn.Linear(_F, _H), cls(**hidden_kwargs),
                                        nn.Linear(_H, _OUT), cls(**(out_kwargs or hidden_kwargs)))
        return _ce_rate(net, (_seq(),), mode)

    return make


def _hidden(neuron, hidden_kwargs, out_kwargs=None):
    """The init_hidden twin of ``_explicit``: an ``nn.Sequential`` run by ``HiddenRun``."""

    def make(mode):
        from torch import nn
        import snntorch as snn

        cls = getattr(snn, neuron)
        seq = nn.Sequential(nn.Linear(_F, _H), cls(init_hidden=True, **hidden_kwargs),
                            nn.Linear(_H, _OUT), cls(init_hidden=True, output=True, **(out_kwargs or hidden_kwargs)))
        return _ce_rate(_nets().HiddenRun(seq), (_seq(),), mode)

    return make


def _rleaky_conv(mode):
    """RLeaky with all-to-all convolutional recurrence after ``nn.Conv2d``, then a linear RLeaky."""
    from torch import nn
    import snntorch as snn

    net = _nets().RLeakyNet(nn.Conv2d(1, _CH, 3, padding=1), snn.RLeaky(beta=0.9, conv2d_channels=_CH, kernel_size=3),
                            nn.Sequential(nn.Flatten(), nn.Linear(_CH * _IMG * _IMG, _OUT)),
                            snn.RLeaky(beta=0.9, linear_features=_OUT))
    return _ce_rate(net, (_img_seq(),), mode)


def _slstm(mode):
    import snntorch as snn

    net = _nets().SLSTMNet(snn.SLSTM(_F, _H, threshold=_LSTM_THR), snn.SLSTM(_H, _OUT, threshold=_LSTM_THR))
    return _ce_rate(net, (_seq(),), mode)


def _slstm_hidden(mode):
    from torch import nn
    import snntorch as snn

    seq = nn.Sequential(snn.SLSTM(_F, _H, threshold=_LSTM_THR, init_hidden=True), nn.Linear(_H, _OUT),
                        snn.SLSTM(_OUT, _OUT, threshold=_LSTM_THR, init_hidden=True, output=True,
                                  reset_mechanism="subtract"))
    return _ce_rate(_nets().HiddenRun(seq), (_seq(),), mode)


def _sconv2dlstm(mode):
    from torch import nn
    import snntorch as snn

    net = _nets().SConvLSTMNet(snn.SConv2dLSTM(1, _CH, 3, max_pool=2, threshold=_LSTM_THR),
                               snn.SConv2dLSTM(_CH, _CH, 3, avg_pool=2, threshold=_LSTM_THR),
                               nn.Linear(_CH * (_IMG // 4) ** 2, _OUT), snn.Leaky(beta=0.9, threshold=0.2))
    return _ce_rate(net, (_img_seq(),), mode)


def _sconv2dlstm_hidden(mode):
    from torch import nn
    import snntorch as snn

    seq = nn.Sequential(snn.SConv2dLSTM(1, _CH, 3, avg_pool=2, threshold=_LSTM_THR, init_hidden=True,
                                        reset_mechanism="zero"),
                        nn.Flatten(), nn.Linear(_CH * (_IMG // 2) ** 2, _OUT),
                        snn.Leaky(beta=0.9, threshold=0.2, init_hidden=True, output=True))
    return _ce_rate(_nets().HiddenRun(seq), (_img_seq(),), mode)


def _leaky_parallel(mode):
    """LeakyParallel: an ``nn.RNN`` with a diagonal recurrent weight, the whole sequence at once."""
    from torch import nn
    import snntorch as snn

    net = nn.Sequential(nn.Linear(_F, _H), snn.LeakyParallel(_H, _OUT, beta=0.9, learn_beta=True))
    return _ce_rate(net, (_seq(),), mode)


def _state_leaky(mode):
    """StateLeaky: the membrane as a causal convolution over time (learnable per-channel beta)."""
    import torch
    from torch import nn
    import snntorch as snn

    net = nn.Sequential(nn.Linear(_F, _OUT),
                        snn.StateLeaky(beta=torch.full((_OUT,), 0.9), channels=_OUT, learn_beta=True))
    return _ce_rate(net, (_seq(),), mode)


def _linear_leaky(mode):
    import snntorch as snn

    return _ce_rate(snn.LinearLeaky(beta=0.9, in_features=_F, out_features=_OUT, kernel_truncation_steps=4),
                    (_seq(),), mode)


def _associative_leaky(mode):
    import snntorch as snn

    return _mean(snn.AssociativeLeaky.from_num_spiking_neurons(in_dim=_F, num_spiking_neurons=16), (_seq(),), mode)


def _delta_leaky(mode):
    from torch import nn
    import snntorch as snn

    net = _nets().DeltaNet(nn.Linear(_F, _H), snn.DeltaLeaky(delta_threshold=0.1, beta=0.9),
                           nn.Linear(_H, _OUT), snn.DeltaLeaky(delta_threshold=0.1, beta=0.9))
    return _ce_rate(net, (_seq(),), mode)


def _bntt(mode):
    from torch import nn
    import snntorch as snn

    net = _nets().BNTTNet(nn.Linear(_F, _H), snn.Leaky(beta=0.9), nn.Linear(_H, _OUT), snn.Leaky(beta=0.9))
    return _ce_rate(net, (_seq(),), mode)


def _spikegen(encoder, **kwargs):
    """``spikegen.<encoder>`` feeding the explicit two-layer Leaky net; rate and latency encode
    static features over the time steps, delta a time series' changes."""

    def make(mode):
        from torch import nn
        import snntorch as snn
        from snntorch import spikegen

        net = _nets().LeakyNet(nn.Linear(_F, _H), snn.Leaky(beta=0.9), nn.Linear(_H, _OUT), snn.Leaky(beta=0.9))
        encode = functools.partial(getattr(spikegen, encoder), **kwargs)
        data = _seq() if encoder == "delta" else _static()
        return _ce_rate(_nets().Encoded(encode, net), (data,), mode)

    return make


def _loss(loss, on="spk", outputs=_OUT, classes=_OUT, reg=None, acc=None, **kwargs):
    """``snntorch.functional.<loss>(**kwargs)`` on the explicit Leaky net's spikes or membrane,
    in both modes (eval: a validation step); ``reg`` / ``acc``: names in ``snntorch.functional``."""

    def make(mode):
        from torch import nn
        import snntorch as snn
        import snntorch.functional as SF

        net = _nets().LeakyNet(nn.Linear(_F, _H), snn.Leaky(beta=0.9), nn.Linear(_H, outputs), snn.Leaky(beta=0.9))
        acc_fn = None
        if acc is not None:
            acc_fn = getattr(SF, acc)
            if outputs != classes:
                acc_fn = functools.partial(acc_fn, population_code=True, num_classes=classes)
        run = _nets().SpikeLoss(net, getattr(SF, loss)(**kwargs), on=on, classes=classes,
                                reg=getattr(SF, reg)() if reg else None, acc=acc_fn)
        return run, (_seq(),), {}

    return make


def _output_monitor(mode):
    from torch import nn
    import snntorch as snn

    seq = nn.Sequential(nn.Linear(_F, _H), snn.Leaky(beta=0.9, init_hidden=True),
                        nn.Linear(_H, _OUT), snn.Leaky(beta=0.9, init_hidden=True, output=True))
    return _mean(_nets().MonitorRun(_nets().HiddenRun(seq)), (_seq(),), mode)


MODELS = {
    # Leaky, explicit state (tutorial 5): reset mechanisms, learnable, no reset delay, quantized state
    "Leaky_subtract": _leaky(reset_mechanism="subtract"),
    "Leaky_zero": _leaky(reset_mechanism="zero"),
    "Leaky_none": _leaky(reset_mechanism="none"),
    "Leaky_learn_beta_threshold": _leaky(learnable=True),
    "Leaky_reset_delay_false": _leaky(reset_delay=False),
    "Leaky_state_quant": _leaky_state_quant,
    # Leaky, init_hidden (utils.reset; truncated BPTT's detach_hidden), the convolutional SNN
    "Leaky_init_hidden": _leaky_hidden(),
    "Leaky_init_hidden_tbptt": _leaky_hidden(detach_every=3),
    "Leaky_conv_init_hidden": _leaky_conv_hidden,
    # surrogate gradients (on the explicit Leaky net)
    "surrogate_atan": _surrogate("atan", alpha=2.0),
    "surrogate_fast_sigmoid": _surrogate("fast_sigmoid", slope=25),
    "surrogate_sigmoid": _surrogate("sigmoid", slope=25),
    "surrogate_triangular": _surrogate("triangular"),
    "surrogate_spike_rate_escape": _surrogate("spike_rate_escape", beta=1, slope=25),
    "surrogate_straight_through_estimator": _surrogate("straight_through_estimator"),
    "surrogate_custom": _surrogate("custom_surrogate"),
    # the other neurons, explicit and init_hidden
    "Synaptic": _explicit("SynapticNet", "Synaptic", {"alpha": 0.9, "beta": 0.8}),
    "Synaptic_init_hidden": _hidden("Synaptic", {"alpha": 0.9, "beta": 0.8, "learn_alpha": True, "learn_beta": True}),
    "Alpha": _explicit("AlphaNet", "Alpha", {"alpha": 0.9, "beta": 0.8, "threshold": 0.2}),
    "Alpha_init_hidden": _hidden("Alpha", {"alpha": 0.9, "beta": 0.8, "threshold": 0.2, "reset_mechanism": "subtract"}),
    "Lapicque": _explicit("LapicqueNet", "Lapicque", {"R": 5.1, "C": 5e-3, "time_step": 1e-3, "threshold": 0.2},
                          {"beta": 0.9, "threshold": 0.1}),
    "Lapicque_init_hidden": _hidden("Lapicque", {"beta": 0.9, "threshold": 0.1},
                                    {"R": 5.1, "C": 5e-3, "time_step": 1e-3, "threshold": 0.2}),
    "RLeaky": _explicit("RLeakyNet", "RLeaky", {"beta": 0.9, "linear_features": _H},
                        {"beta": 0.9, "linear_features": _OUT}),
    "RLeaky_conv": _rleaky_conv,
    "RLeaky_one_to_one_init_hidden": _hidden("RLeaky", {"beta": 0.9, "V": 0.5, "all_to_all": False}),
    "RSynaptic": _explicit("RSynapticNet", "RSynaptic", {"alpha": 0.9, "beta": 0.8, "linear_features": _H},
                           {"alpha": 0.9, "beta": 0.8, "linear_features": _OUT}),
    "RSynaptic_init_hidden": _hidden("RSynaptic", {"alpha": 0.9, "beta": 0.8, "all_to_all": False, "V": 0.5}),
    "SLSTM": _slstm,
    "SLSTM_init_hidden": _slstm_hidden,
    "SConv2dLSTM": _sconv2dlstm,
    "SConv2dLSTM_init_hidden": _sconv2dlstm_hidden,
    # the loop-free neurons, DeltaLeaky, batch norm through time
    "LeakyParallel": _leaky_parallel,
    "StateLeaky": _state_leaky,
    "LinearLeaky": _linear_leaky,
    "AssociativeLeaky": _associative_leaky,
    "DeltaLeaky": _delta_leaky,
    "BatchNormTT1d": _bntt,
    # spikegen encoders feeding a net
    "spikegen_rate": _spikegen("rate", num_steps=_T),
    "spikegen_latency": _spikegen("latency", num_steps=_T, tau=5, threshold=0.01, normalize=True, linear=True),
    "spikegen_delta": _spikegen("delta", threshold=0.1, off_spike=True),
    # snntorch.functional losses, regulariser, accuracy
    "ce_rate_loss": _loss("ce_rate_loss", acc="accuracy_rate"),
    "ce_count_loss_population": _loss("ce_count_loss", outputs=2 * _OUT, acc="accuracy_rate", population_code=True,
                                      num_classes=_OUT),
    "mse_count_loss": _loss("mse_count_loss", reg="l1_rate_sparsity", correct_rate=0.8, incorrect_rate=0.2),
    "ce_max_membrane_loss": _loss("ce_max_membrane_loss", on="mem"),
    "mse_membrane_loss": _loss("mse_membrane_loss", on="mem", on_target=1.0, off_target=0.0),
    "ce_temporal_loss": _loss("ce_temporal_loss", acc="accuracy_temporal"),
    # functional.probe: forward hooks recording each step
    "OutputMonitor": _output_monitor,
}
