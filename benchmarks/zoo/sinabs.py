"""sinabs 3.1.3 (SynSense's spiking neural network library on PyTorch): its spiking layers, the
ANN-to-SNN conversion, the synaptic-operation counters / hooks, NIR round trips and the
DYNAP-CNN / Speck network wrapper, each as the library's tests, docs (quickstart, bptt, synops
loss how-tos, custom hooks) and gallery use them; tiny (batch 2-4, 5-8 time steps, 16-64 units,
16x16 to 28x28 frames), random weights, no download:

- layers on (batch, time, ...) input: ``IAF`` (plain; ``tau_syn``; ``MembraneReset`` +
  ``SingleSpike`` + ``min_v_mem``; ``MaxSpike`` + ``Gaussian`` surrogate), ``IAFRecurrent``,
  ``IAFSqueeze`` (Flatten/UnflattenTime conv net, as the hooks how-to), ``LIF`` (plain;
  ``tau_syn`` + ``train_alphas``; ``norm_input=False`` + ``record_states``; ``MultiGaussian``,
  ``PeriodicExponential``, ``Heaviside`` surrogates), ``LIFRecurrent``, ``LIFSqueeze``
  (``num_timesteps``), ``ALIF``, ``ALIFRecurrent``, ``ExpLeak``, ``ExpLeakSqueeze``;
  ``Img2SpikeLayer``, ``Sig2SpikeLayer``, ``SpikingMaxPooling2dLayer``, ``SumPool2d``,
  ``Cropping2dLayer``, ``ChannelShift`` + ``Merge``, ``Repeat``, ``NeuromorphicReLU``
  (quantized, stochastic rounding), ``QuantizeLayer``;
- ``from_model``: the bptt tutorial's MLP (``model.spiking_model`` on time-flattened rows), a
  CNN with ``input_shape`` and ``add_spiking_output``, ``num_timesteps``, ``LIFSqueeze`` as
  ``spike_layer_class`` with ``kwargs_backend``, ``SingleSpike`` + ``MembraneReset``; the
  ``Network`` forward;
- counters: ``register_synops_hooks`` on an ANN (synops_loss_ann how-to) and on an SNN with
  ``firing_rate_per_neuron_hook`` (synops_loss_snn how-to), ``SNNAnalyzer`` (deprecated, tests),
  ``SynOpCounter`` over ``NeuromorphicReLU`` (tests);
- ``to_nir`` then ``from_nir`` (nirtorch ``GraphExecutor``) of a Linear/ExpLeak/LIF/IAF stack;
- ``backend.dynapcnn.DynapcnnNetwork`` (``discretize=False`` and ``True``, ``dvs_input``) on the
  tests' sequential models and on their ``model_dummy_2`` merge-and-split network.

Eval: the callable's outputs. Train: the library's training step as its docs write it, without
the optimizer step and ``.item()`` logging: ``reset_states()`` then forward then cross-entropy on
the time-summed output (bptt tutorial, quickstart), the synops-loss how-tos' prediction loss plus
the synops (and firing-rate) penalties read from ``hook_data``, ``SynOpCounter()`` and
``SNNAnalyzer.get_model_statistics()["synops"]`` as a loss term; ``mean_loss_module`` for
single layers (a parameter-free layer gets an input that requires grad, as the output of the
layer before it in a trained network would). Measured first as it came, before any rule looked at it.

    pip install --no-deps sinabs==3.1.3
    pip install --no-deps pbr==7.1.3 nir==1.0.1 nirtorch==1.0

(pbr, nir and nirtorch were already installed at these versions; nir's h5py too.) ``samna``
(SynSense's binary device SDK) and ``samnagui``, imported at the top of
``sinabs.backend.dynapcnn``'s ``dynapcnn_network``, ``io``, ``dynapcnn_visualizer`` and
``specksim``, are stubbed with ``stub_modules``: only device I/O, ``make_config`` / ``to()`` a
chip, the visualizer and specksim call them, none used here. matplotlib is not imported by the
models used.

Left out: ``make_config`` / ``to(device=...)`` / specksim (need samna), the visualizer, ``sinabs-exodus``
(CUDA backend), ``Network.compare_activations`` / ``utils.get_activations`` (numpy analysis, no
training use), ``normalize_weights`` (a one-off numpy/percentile calibration outside the forward).
Eager check (torch 2.13 CPU, train with ``.backward()``): all 41 build and run; the train losses
of ``Img2SpikeLayer`` and ``Sig2SpikeLayer`` have no gradient (Poisson / rate encoders, ``rand <``
comparisons, as in the library), so their "train" is the forward with gradients on only.
``DynapcnnNetwork`` is returned inside a plain holder module in eval (in train the
``mean_loss_module`` wrapper holds it): its own ``.to("cpu")`` raises ``AttributeError:
'DynapcnnNetwork' object has no attribute '_merge_points'`` in 3.1.3 (``_to_device`` reads a
removed attribute), which skipped all four in the first capture ("while loading the target").
Notes: the stateful layers keep their state between calls (as in the library); train wrappers call
``reset_states()`` first as the tutorials' loops do.
"""

PACKAGE = "sinabs"

mean_loss_module = None  # set by ZooSuite
stub_modules = None  # set by ZooSuite

_B = 2  # batch
_T = 6  # time steps
_N = 16  # features

_SAMNA = {
    "samna": ((), ()),
    "samnagui": ((), ()),
    "samna.graph": ((), ("EventFilterGraph", "JitMemberSelect", "JitDvsEventToViz")),
    "samna.device": (("open_device", "get_all_devices", "close_device"), ("DeviceInfo",)),
    "samna.ui": ((), ("Event",)),
    "samna.speck2e": ((), ()),
    "samna.speck2e.event": ((), ("Spike",)),
    "samna.speck2e.configuration": ((), ("SpeckConfiguration",)),
    "samna.speck2f": ((), ()),
    "samna.speck2f.event": ((), ("Spike",)),
    "samna.speck2f.configuration": ((), ("SpeckConfiguration",)),
    "samna.specksim": ((), ()),
    "samna.specksim.nodes": ((), ("SpecksimIAFFilterNode", "SpecksimConvolutionalFilterNode")),
}


def before_build():
    stub_modules(_SAMNA, "sinabs")


def warm_up():
    before_build()
    import torch  # noqa: F401
    import sinabs
    import sinabs.backend.dynapcnn  # noqa: F401
    import sinabs.hooks  # noqa: F401
    import sinabs.layers  # noqa: F401
    import sinabs.nir  # noqa: F401


def _loss_step():
    """A module wrapping ``net``: reset the states, run ``net``, sum the output over time (the
    given ``(B, T)`` split of a time-flattened output) and take the cross-entropy, as the bptt
    tutorial's loop does."""
    import torch
    import torch.nn.functional as F

    import sinabs

    class SpikeCountLoss(torch.nn.Module):
        def __init__(self, net, batch, steps, classes, flattened=True):
            super().__init__()
            self.net = net
            self.batch, self.steps, self.flattened = batch, steps, flattened
            self.register_buffer("target", torch.arange(batch) % classes)

        def forward(self, x):
            sinabs.reset_states(self.net)
            out = self.net(x)
            if self.flattened:
                out = out.reshape((self.batch, self.steps, -1))
            out = out.sum(1)
            return F.cross_entropy(out, self.target)

    return SpikeCountLoss


def _layer(mode, layer, x):
    if mode == "train":
        if not any(p.requires_grad for p in layer.parameters()) and x.is_floating_point():
            x = x.requires_grad_()  # a parameter-free layer trains on an upstream layer's output
        return mean_loss_module()(layer), (x,), {}
    return layer, (x,), {}


def _seq_input(n=_N):
    import torch

    return torch.rand(_B, _T, n) * 2


# --- single spiking layers -------------------------------------------------------------------

def _iaf(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.IAF(), _seq_input())


def _iaf_syn(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.IAF(tau_syn=5.0), _seq_input())


def _iaf_reset_single(mode):
    import sinabs.activation as sa
    import sinabs.layers as sl

    return _layer(mode, sl.IAF(spike_threshold=1.5, spike_fn=sa.SingleSpike,
                               reset_fn=sa.MembraneReset(), min_v_mem=-1.0), _seq_input())


def _iaf_maxspike(mode):
    import sinabs.activation as sa
    import sinabs.layers as sl

    return _layer(mode, sl.IAF(spike_fn=sa.MaxSpike(max_num_spikes_per_bin=2),
                               surrogate_grad_fn=sa.Gaussian()), _seq_input())


def _iaf_recurrent(mode):
    import torch.nn as nn

    import sinabs.layers as sl

    return _layer(mode, sl.IAFRecurrent(rec_connect=nn.Linear(_N, _N, bias=False)), _seq_input())


def _lif(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.LIF(tau_mem=20.0), _seq_input())


def _lif_syn_train_alphas(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.LIF(tau_mem=20.0, tau_syn=5.0, train_alphas=True), _seq_input())


def _lif_record(mode):
    import sinabs.layers as sl

    lif = sl.LIF(tau_mem=10.0, norm_input=False, record_states=True)
    return _layer(mode, lif, _seq_input())


def _lif_tensor_tau(mode):
    import torch

    import sinabs.activation as sa
    import sinabs.layers as sl

    lif = sl.LIF(tau_mem=torch.full((_N,), 15.0), surrogate_grad_fn=sa.MultiGaussian(),
                 shape=(_B, _N))
    return _layer(mode, lif, _seq_input())


def _lif_periodic(mode):
    import sinabs.activation as sa
    import sinabs.layers as sl

    lif = sl.LIF(tau_mem=10.0, spike_fn=sa.SingleSpike, reset_fn=sa.MembraneReset(),
                 surrogate_grad_fn=sa.PeriodicExponential())
    return _layer(mode, lif, _seq_input())


def _lif_heaviside(mode):
    import sinabs.activation as sa
    import sinabs.layers as sl

    lif = sl.LIF(tau_mem=10.0, surrogate_grad_fn=sa.Heaviside(window=0.5), min_v_mem=-0.5)
    return _layer(mode, lif, _seq_input())


def _lif_recurrent(mode):
    import torch.nn as nn

    import sinabs.layers as sl

    lif = sl.LIFRecurrent(tau_mem=10.0, tau_syn=5.0, rec_connect=nn.Linear(_N, _N, bias=False))
    return _layer(mode, lif, _seq_input())


def _lif_squeeze(mode):
    import torch

    import sinabs.layers as sl

    return _layer(mode, sl.LIFSqueeze(tau_mem=10.0, num_timesteps=_T), torch.rand(_B * _T, _N) * 2)


def _alif(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.ALIF(tau_mem=20.0, tau_adapt=10.0, adapt_scale=1.8), _seq_input())


def _alif_recurrent(mode):
    import torch.nn as nn

    import sinabs.layers as sl

    alif = sl.ALIFRecurrent(tau_mem=20.0, tau_adapt=10.0, tau_syn=5.0,
                            rec_connect=nn.Linear(_N, _N, bias=False))
    return _layer(mode, alif, _seq_input())


def _exp_leak(mode):
    import sinabs.layers as sl

    return _layer(mode, sl.ExpLeak(tau_mem=10.0), _seq_input())


def _exp_leak_squeeze(mode):
    import torch

    import sinabs.layers as sl

    return _layer(mode, sl.ExpLeakSqueeze(tau_mem=10.0, batch_size=_B), torch.rand(_B * _T, _N))


def _img2spike(mode):
    import torch

    import sinabs.layers as sl

    return _layer(mode, sl.Img2SpikeLayer(image_shape=(1, 16, 16), tw=_T, max_rate=500),
                  torch.rand(1, 16, 16) * 255)


def _sig2spike(mode):
    import torch

    import sinabs.layers as sl

    return _layer(mode, sl.Sig2SpikeLayer(channels_in=_N, tw=2), torch.rand(_N, _T))


def _spiking_maxpool(mode):
    import torch

    import sinabs.layers as sl

    pool = sl.SpikingMaxPooling2dLayer(pool_size=(2, 2), strides=(2, 2))
    return _layer(mode, pool, (torch.rand(_B * _T, 2, 16, 16) > 0.5).float())


def _repeat_conv(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl

    net = nn.Sequential(sl.Repeat(nn.Conv2d(2, 4, 3)), sl.IAF())
    return _layer(mode, net, torch.rand(_B, _T, 2, 16, 16))


# --- small networks of sinabs layers -----------------------------------------------------------

def _snn_hooks_net(batch):
    """The SNN of the hooks / synops how-tos (FlattenTime, IAFSqueeze, SumPool2d, UnflattenTime)."""
    import torch.nn as nn

    import sinabs.layers as sl

    return nn.Sequential(
        sl.FlattenTime(),
        nn.Conv2d(1, 8, 5, bias=False),
        sl.IAFSqueeze(batch_size=batch),
        sl.SumPool2d(2),
        nn.Conv2d(8, 16, 5, bias=False),
        sl.IAFSqueeze(batch_size=batch),
        sl.SumPool2d(2),
        nn.Conv2d(16, 32, 4, bias=False),
        sl.IAFSqueeze(batch_size=batch),
        nn.Flatten(),
        nn.Linear(32, 10, bias=False),
        sl.IAFSqueeze(batch_size=batch),
        sl.UnflattenTime(batch_size=batch),
    )


def _iaf_squeeze_cnn(mode):
    import torch

    net = _snn_hooks_net(_B)
    x = torch.ones((_B, _T, 1, 28, 28))
    if mode == "train":
        return _loss_step()(net, _B, _T, 10, flattened=False), (x,), {}
    return net, (x,), {}


def _crop_shift_merge(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_a = nn.Conv2d(2, 4, 3, padding=1)
            self.conv_b = nn.Conv2d(2, 4, 3, padding=1)
            self.shift = sl.ChannelShift(channel_shift=4)
            self.merge = sl.Merge()
            self.iaf = sl.IAFSqueeze(batch_size=_B)
            self.crop = sl.Cropping2dLayer(cropping=((1, 1), (2, 2)))
            self.pool = sl.SumPool2d(2)

        def forward(self, x):
            a = self.conv_a(x)
            b = self.shift(self.conv_b(x))
            a = nn.functional.pad(a, (0, 0, 0, 0, 0, 4))
            y = self.iaf(self.merge(a, b))
            return self.pool(self.crop(y))

    return _layer(mode, Net(), torch.rand(_B * _T, 2, 16, 16))


def _neuromorphic_relu_ann(mode):
    """The synops-loss ANN of the docs (NeuromorphicReLU, SumPool2d), trained with the
    ``SynOpCounter`` of the tests as a penalty."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    import sinabs
    import sinabs.layers as sl

    ann = nn.Sequential(
        nn.Conv2d(1, 8, 5, bias=False), sl.NeuromorphicReLU(), sl.SumPool2d(2),
        nn.Conv2d(8, 16, 5, bias=False), sl.NeuromorphicReLU(), sl.SumPool2d(2),
        nn.Conv2d(16, 32, 4, bias=False), sl.NeuromorphicReLU(),
        nn.Flatten(), nn.Linear(32, 10, bias=False),
    )
    x = torch.rand(_B, 1, 28, 28) * 4
    if mode != "train":
        return ann, (x,), {}

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.ann = ann
            self.counter = sinabs.SynOpCounter(ann.modules(), sum_activations=True)
            self.register_buffer("target", torch.arange(_B) % 10)

        def forward(self, x):
            out = self.ann(x)
            return F.cross_entropy(out, self.target) + 1e-6 * self.counter()

    return Step(), (x,), {}


def _neuromorphic_relu_stochastic(mode):
    import torch
    import torch.nn as nn

    import sinabs
    import sinabs.layers as sl

    net = nn.Sequential(nn.Linear(5, 8), sl.NeuromorphicReLU(fanout=2, stochastic_rounding=True),
                        nn.Linear(8, 4), sl.NeuromorphicReLU(quantize=False, fanout=1),
                        sl.QuantizeLayer())
    x = torch.rand(4, 5) * 3
    if mode != "train":
        return net, (x,), {}

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net
            self.counter = sinabs.SynOpCounter(net.modules(), sum_activations=False)

        def forward(self, x):
            out = self.net(x)
            synops = self.counter()
            return out.mean() + 1e-3 * sum(synops)

    return Step(), (x,), {}


# --- from_model conversion ---------------------------------------------------------------------

def _bptt_mlp(mode):
    """The bptt tutorial: an MLP converted with ``from_model(ann, batch_size=...)``, rows of a
    spike image as time steps, trained through ``model.spiking_model``."""
    import torch
    import torch.nn as nn

    from sinabs.from_torch import from_model

    ann = nn.Sequential(nn.Linear(28, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                        nn.Linear(32, 10), nn.ReLU())
    model = from_model(ann, batch_size=_B)
    x = (torch.rand(_B * 28, 28) < 0.3).float()
    if mode == "train":
        return _loss_step()(model.spiking_model, _B, 28, 10), (x,), {}
    return model, (x,), {}


def _from_model_cnn(mode):
    import torch
    import torch.nn as nn

    from sinabs.from_torch import from_model

    cnn = nn.Sequential(
        nn.Conv2d(1, 8, 3, bias=False), nn.ReLU(), nn.AvgPool2d(2),
        nn.Conv2d(8, 8, 3, bias=False), nn.ReLU(), nn.AvgPool2d(2),
        nn.Flatten(), nn.Linear(8 * 2 * 2, 10, bias=False),
    )
    snn = from_model(cnn, input_shape=(1, 14, 14), add_spiking_output=True, batch_size=_B)
    x = torch.rand(_B * _T, 1, 14, 14) * 2
    if mode == "train":
        return _loss_step()(snn, _B, _T, 10), (x,), {}
    return snn, (x,), {}


def _from_model_timesteps(mode):
    import torch
    import torch.nn as nn

    from sinabs.from_torch import from_model

    ann = nn.Sequential(nn.Conv2d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 5), nn.ReLU())
    snn = from_model(ann, num_timesteps=_T, bias_rescaling=2.0, synops=False)
    x = torch.rand(_B * _T, 2, 8, 8) * 2
    if mode == "train":
        return _loss_step()(snn, _B, _T, 5), (x,), {}
    return snn, (x,), {}


def _from_model_lif(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl
    from sinabs.from_torch import from_model

    ann = nn.Sequential(nn.Linear(_N, 32), nn.ReLU(), nn.Linear(32, 4), nn.ReLU())
    snn = from_model(ann, spike_layer_class=sl.LIFSqueeze, kwargs_backend={"tau_mem": 10.0},
                     batch_size=_B)
    x = torch.rand(_B * _T, _N) * 2
    if mode == "train":
        return _loss_step()(snn, _B, _T, 4), (x,), {}
    return snn, (x,), {}


def _from_model_single_spike(mode):
    import torch
    import torch.nn as nn

    from sinabs.activation import MembraneReset, SingleSpike
    from sinabs.from_torch import from_model

    ann = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.AvgPool2d(2), nn.Flatten(),
                        nn.Linear(4 * 3 * 3, 3), nn.ReLU())
    net = from_model(ann, spike_threshold=3.0, spike_fn=SingleSpike, reset_fn=MembraneReset(),
                     min_v_mem=-3.0, batch_size=_B)
    x = torch.rand(_B * _T, 1, 8, 8) * 4
    if mode == "train":
        return _loss_step()(net, _B, _T, 3), (x,), {}
    return net, (x,), {}


def _network_class(mode):
    import torch
    import torch.nn as nn

    import sinabs
    import sinabs.layers as sl

    ann = nn.Sequential(nn.Linear(_N, 8), nn.ReLU(), nn.Linear(8, 4))
    snn = nn.Sequential(nn.Linear(_N, 8), sl.IAFSqueeze(batch_size=_B), nn.Linear(8, 4),
                        sl.IAFSqueeze(batch_size=_B))
    net = sinabs.Network(ann, snn, input_shape=(_N,), batch_size=_B, num_timesteps=1)
    x = torch.rand(_B * _T, _N) * 2
    if mode == "train":
        return _loss_step()(net, _B, _T, 4), (x,), {}
    return net, (x,), {}


# --- synops counters and hooks -----------------------------------------------------------------

def _synops_hooks_ann(mode):
    """synops_loss_ann how-to: ``register_synops_hooks`` on the ANN; loss = cross-entropy +
    weighted MSE of ``hook_data["total_synops_per_timestep"]`` against a target."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    import sinabs.layers as sl
    from sinabs.hooks import register_synops_hooks

    ann = nn.Sequential(
        nn.Conv2d(1, 8, 5, bias=False), sl.NeuromorphicReLU(), sl.SumPool2d(2),
        nn.Conv2d(8, 16, 5, bias=False), sl.NeuromorphicReLU(), sl.SumPool2d(2),
        nn.Conv2d(16, 32, 4, bias=False), sl.NeuromorphicReLU(),
        nn.Flatten(), nn.Linear(32, 10, bias=False),
    )
    register_synops_hooks(ann)
    x = torch.rand(_B, 1, 28, 28) * 255
    if mode != "train":
        return ann, (x,), {}

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.ann = ann
            self.register_buffer("target", torch.arange(_B) % 10)
            self.register_buffer("target_synops", torch.tensor(4e5))

        def forward(self, x):
            output = self.ann(x)
            model_loss = F.cross_entropy(output, self.target)
            synops_loss = 1e-5 * F.mse_loss(
                self.ann.hook_data["total_synops_per_timestep"], self.target_synops) / 1e7
            return model_loss + synops_loss

    return Step(), (x,), {}


def _synops_hooks_snn(mode):
    """synops_loss_snn how-to: synops hooks and ``firing_rate_per_neuron_hook`` on the SNN; the
    loss penalises synops above a target and firing rates below one."""
    import torch
    import torch.nn as nn

    import sinabs
    import sinabs.layers as sl
    from sinabs.hooks import firing_rate_per_neuron_hook, register_synops_hooks

    snn = _snn_hooks_net(_B)
    register_synops_hooks(snn)
    for layer in snn:
        if isinstance(layer, sl.StatefulLayer) and layer.does_spike:
            layer.register_forward_hook(firing_rate_per_neuron_hook)
    x = torch.ones((_B, _T, 1, 28, 28))
    if mode != "train":
        return snn, (x,), {}

    def get_synops_loss(snn, target_synops):
        return sum(nn.functional.relu(synops - target_synops) ** 2
                   for synops in snn.hook_data["synops_per_timestep"].values())

    def get_firing_rate_loss(snn, target_rate):
        return sum((nn.functional.relu(target_rate - layer.hook_data["firing_rate_per_neuron"]) ** 2).sum()
                   for layer in snn
                   if hasattr(layer, "hook_data") and "firing_rate_per_neuron" in layer.hook_data)

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.snn = snn

        def forward(self, x):
            sinabs.reset_states(self.snn)
            self.snn(x)
            return get_synops_loss(self.snn, 1e3) * 1e-6 + get_firing_rate_loss(self.snn, 0.5)

    return Step(), (x,), {}


def _input_diff_hooks(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl
    from sinabs.hooks import firing_rate_hook, input_diff_hook, linear_layer_synops_hook

    snn = nn.Sequential(nn.Linear(_N, 8), sl.IAF(), nn.Linear(8, 4), sl.IAF())
    snn[0].register_forward_hook(input_diff_hook)
    snn[2].register_forward_hook(linear_layer_synops_hook)
    snn[1].register_forward_hook(firing_rate_hook)
    snn[3].register_forward_hook(firing_rate_hook)
    x = torch.rand(_B, _T, _N) * 2
    if mode != "train":
        return snn, (x,), {}

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.snn = snn

        def forward(self, x):
            out = self.snn(x)
            hd1, hd3 = self.snn[1].hook_data, self.snn[3].hook_data
            return (out.mean() + 1e-3 * self.snn[2].hook_data["layer_synops_per_timestep"]
                    + (hd1["firing_rate"] - 0.3) ** 2 + (hd3["firing_rate"] - 0.3) ** 2)

    return Step(), (x,), {}


def _snn_analyzer(mode):
    """The tests' ``SNNAnalyzer`` (deprecated) on an IAFSqueeze conv net; train: its model-level
    synops as a loss term."""
    import torch
    import torch.nn as nn

    import sinabs
    import sinabs.layers as sl

    snn = nn.Sequential(
        nn.Conv2d(1, 4, 3, bias=False), sl.IAFSqueeze(batch_size=_B),
        nn.Conv2d(4, 4, 3, bias=False), sl.IAFSqueeze(batch_size=_B),
        nn.Flatten(), nn.Linear(4 * 6 * 6, 3, bias=False), sl.IAFSqueeze(batch_size=_B),
    )
    analyzer = sinabs.SNNAnalyzer(snn)
    x = torch.rand(_B * _T, 1, 10, 10) * 2
    if mode != "train":
        return snn, (x,), {}

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.snn = snn

        def forward(self, x):
            out = self.snn(x)
            stats = analyzer.get_model_statistics(average=True)
            return out.mean() + 1e-4 * stats["synops"]

    return Step(), (x,), {}


# --- NIR ---------------------------------------------------------------------------------------

def _nir_roundtrip(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl
    from sinabs import from_nir, to_nir

    m = nn.Sequential(nn.Linear(10, 8), sl.ExpLeakSqueeze(tau_mem=10.0, batch_size=_B),
                      sl.LIFSqueeze(tau_mem=10.0, batch_size=_B), nn.Linear(8, 4),
                      sl.IAFSqueeze(batch_size=_B))
    graph = to_nir(m, torch.randn(_B, 10))
    net = from_nir(graph, batch_size=_B)
    return _layer(mode, net, torch.rand(_B * _T, 10))


def _nir_conv(mode):
    import torch
    import torch.nn as nn

    import sinabs.layers as sl
    from sinabs import from_nir, to_nir

    m = nn.Sequential(nn.Conv2d(2, 4, 3), sl.IAFSqueeze(batch_size=_B), sl.SumPool2d(2),
                      nn.Flatten(), nn.Linear(4 * 3 * 3, 3), sl.IAFSqueeze(batch_size=_B))
    graph = to_nir(m, torch.randn(_B, 2, 8, 8))
    net = from_nir(graph, batch_size=_B)
    return _layer(mode, net, torch.rand(_B * _T, 2, 8, 8))


# --- DYNAP-CNN / Speck ------------------------------------------------------------------------

def _dynapcnn(mode, seq, input_shape, batch, discretize, dvs_input=False, time_steps=1):
    import torch

    from sinabs.backend.dynapcnn import DynapcnnNetwork

    net = DynapcnnNetwork(seq, input_shape=input_shape, batch_size=batch,
                          discretize=discretize, dvs_input=dvs_input)
    x = torch.rand(batch * time_steps, *input_shape) * 10
    if mode == "train":
        return mean_loss_module()(net), (x,), {}
    return _Holder(net), (x,), {}


def _Holder(net):
    """A plain module holding a ``DynapcnnNetwork``: its own ``to("cpu")`` (the suite moves each
    model to its device) raises ``AttributeError: _merge_points`` in 3.1.3 (``_to_device`` reads
    an attribute that no longer exists), while ``nn.Module.to`` of a parent only ``_apply``s."""
    import torch

    class DynapcnnHolder(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x):
            return self.net(x)

    return DynapcnnHolder(net)


def _dynapcnn_seq(mode):
    import torch.nn as nn

    from sinabs.layers import IAFSqueeze

    seq = nn.Sequential(
        nn.Conv2d(2, 8, kernel_size=3, stride=1, bias=False), IAFSqueeze(batch_size=1),
        nn.Conv2d(8, 2, kernel_size=3, stride=1, bias=False), IAFSqueeze(batch_size=1),
    )
    return _dynapcnn(mode, seq, (2, 16, 16), 1, discretize=False)


def _dynapcnn_seq_discretized(mode):
    import torch.nn as nn

    from sinabs.layers import IAFSqueeze, SumPool2d

    seq = nn.Sequential(
        nn.Conv2d(2, 2, kernel_size=3, stride=1, bias=False), IAFSqueeze(batch_size=1),
        SumPool2d(2), nn.AvgPool2d(2), nn.Dropout(0.5),
        nn.Conv2d(2, 8, kernel_size=3, stride=1, bias=False), IAFSqueeze(batch_size=1),
        nn.Conv2d(8, 2, kernel_size=3, stride=1, bias=False), IAFSqueeze(batch_size=1),
        nn.Flatten(), nn.Linear(3 * 3 * 2, 5), nn.Identity(), IAFSqueeze(batch_size=1),
    )
    return _dynapcnn(mode, seq, (2, 30, 30), 1, discretize=True)


def _dynapcnn_from_model_dvs(mode):
    import torch.nn as nn

    from sinabs.from_torch import from_model

    ann = nn.Sequential(nn.AvgPool2d(kernel_size=(2, 1), stride=(2, 1)),
                        nn.Conv2d(2, 4, kernel_size=2, stride=2), nn.ReLU())
    snn = from_model(ann, batch_size=1).spiking_model
    return _dynapcnn(mode, snn, (2, 16, 16), 1, discretize=False, dvs_input=True)


def _dynapcnn_merge_split(mode):
    """tests/test_dynapcnnnetwork/model_dummy_2: a network with a merge and a split."""
    import torch.nn as nn

    from sinabs.activation.surrogate_gradient_fn import PeriodicExponential
    from sinabs.layers import IAFSqueeze, Merge, SumPool2d

    batch = 2

    def iaf():
        return IAFSqueeze(batch_size=batch, min_v_mem=-1.0, spike_threshold=1.0,
                          surrogate_grad_fn=PeriodicExponential())

    class SNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_A = nn.Conv2d(2, 4, 2, 1, bias=False)
            self.iaf_A = iaf()
            self.conv_B = nn.Conv2d(4, 4, 2, 1, bias=False)
            self.iaf2_B = iaf()
            self.pool_B = SumPool2d(2, 2)
            self.conv_C = nn.Conv2d(4, 4, 2, 1, bias=False)
            self.iaf_C = iaf()
            self.pool_C = SumPool2d(2, 2)
            self.conv_D = nn.Conv2d(4, 4, 2, 1, bias=False)
            self.iaf_D = iaf()
            self.conv_E = nn.Conv2d(4, 4, 2, 1, bias=False)
            self.iaf3_E = iaf()
            self.pool_E = SumPool2d(2, 2)
            self.conv_F = nn.Conv2d(4, 4, 2, 1, bias=False)
            self.iaf_F = iaf()
            self.fc3 = nn.Linear(144, 10, bias=False)
            self.iaf3_fc = iaf()
            self.merge1 = Merge()
            self.flat_D = nn.Flatten()
            self.flat_F = nn.Flatten()

        def forward(self, x):
            iaf_A_out = self.iaf_A(self.conv_A(x))
            pool_B_out = self.pool_B(self.iaf2_B(self.conv_B(iaf_A_out)))
            pool_C_out = self.pool_C(self.iaf_C(self.conv_C(pool_B_out)))
            iaf_D_out = self.iaf_D(self.conv_D(pool_C_out))
            pool_E_out = self.pool_E(self.iaf3_E(self.conv_E(pool_B_out)))
            iaf_F_out = self.iaf_F(self.conv_F(pool_E_out))
            merge1_out = self.merge1(self.flat_D(iaf_D_out), self.flat_F(iaf_F_out))
            return self.iaf3_fc(self.fc3(merge1_out))

    return _dynapcnn(mode, SNN(), (2, 34, 34), batch, discretize=True)


MODELS = {
    "IAF": _iaf,
    "IAF_tau_syn": _iaf_syn,
    "IAF_reset_singlespike": _iaf_reset_single,
    "IAF_maxspike_gaussian": _iaf_maxspike,
    "IAFRecurrent": _iaf_recurrent,
    "LIF": _lif,
    "LIF_syn_train_alphas": _lif_syn_train_alphas,
    "LIF_record_states": _lif_record,
    "LIF_tensor_tau_multigaussian": _lif_tensor_tau,
    "LIF_periodic_exponential": _lif_periodic,
    "LIF_heaviside": _lif_heaviside,
    "LIFRecurrent": _lif_recurrent,
    "LIFSqueeze": _lif_squeeze,
    "ALIF": _alif,
    "ALIFRecurrent": _alif_recurrent,
    "ExpLeak": _exp_leak,
    "ExpLeakSqueeze": _exp_leak_squeeze,
    "Img2SpikeLayer": _img2spike,
    "Sig2SpikeLayer": _sig2spike,
    "SpikingMaxPooling2dLayer": _spiking_maxpool,
    "Repeat_conv": _repeat_conv,
    "IAFSqueeze_cnn": _iaf_squeeze_cnn,
    "Crop_ChannelShift_Merge": _crop_shift_merge,
    "NeuromorphicReLU_ann_SynOpCounter": _neuromorphic_relu_ann,
    "NeuromorphicReLU_stochastic": _neuromorphic_relu_stochastic,
    "from_model_bptt_mlp": _bptt_mlp,
    "from_model_cnn_spiking_output": _from_model_cnn,
    "from_model_num_timesteps": _from_model_timesteps,
    "from_model_LIFSqueeze": _from_model_lif,
    "from_model_single_spike": _from_model_single_spike,
    "Network": _network_class,
    "synops_hooks_ann": _synops_hooks_ann,
    "synops_hooks_snn": _synops_hooks_snn,
    "input_diff_firing_rate_hooks": _input_diff_hooks,
    "SNNAnalyzer": _snn_analyzer,
    "nir_roundtrip_linear": _nir_roundtrip,
    "nir_roundtrip_conv": _nir_conv,
    "DynapcnnNetwork_seq": _dynapcnn_seq,
    "DynapcnnNetwork_discretized": _dynapcnn_seq_discretized,
    "DynapcnnNetwork_from_model_dvs": _dynapcnn_from_model_dvs,
    "DynapcnnNetwork_merge_split": _dynapcnn_merge_split,
}
