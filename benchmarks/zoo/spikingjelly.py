"""SpikingJelly 2.0.0, import name ``spikingjelly``: its ``activation_based`` API (the
surrogate-gradient SNN framework) as its tutorials, examples and docstrings use it, tiny
(T = 4 time steps, batch 2, 8-16 features, 8x8 images; 16x16 / 32x32 / 28x28 for the model
zoo, T = 2 for all but MNISTNet), random weights, no download, the torch reference implementations (CPU: the only one
there; no CuPy, no Triton, no CUDA graphs):

- neurons (``neuron``), each behind a ``layer.Linear`` that gives it its input current:
  ``IFNode`` single-step (``[N, F]``, the default ``step_mode="s"``) and multi-step
  (``step_mode="m"``, ``[T, N, F]``); ``LIFNode`` single- and multi-step, the switches soft
  reset (``v_reset=None``) + ``detach_reset=True`` + ``decay_input=False``, and
  ``store_v_seq=True``; ``ParametricLIFNode`` (learnable tau); ``QIFNode``; the parallel
  spiking neurons ``PSN(T)`` and ``SlidingPSN(k)``;
- surrogate functions (``surrogate``), 14 of them (ATan, Sigmoid, PiecewiseQuadratic, Erf,
  SoftSign, PiecewiseLeakyReLU, Rect, LeakyKReLU, PiecewiseExp, QPseudoSpike, S2NN,
  NonzeroSignLogAbs, LogTailedReLU, SuperSpike) on one membrane tensor: ``spiking=True``
  (Heaviside forward, the surrogate's backward, custom autograd functions) and
  ``spiking=False`` (the smooth primitive; SuperSpike has none, so only in the first);
- encoders (``encoding``), each before a Linear + LIF readout: ``PoissonEncoder`` (the
  lif_fc_mnist tutorial's, multi-step), the stateful single-step ``LatencyEncoder`` and
  ``WeightedPhaseEncoder`` called T times, the population ``PopSpikeEncoderDeterministic``
  (the spiking-RL examples');
- layers and containers (``layer``, ``functional``): ``SeqToANNContainer`` +
  ``MultiStepContainer`` (the step-mode tutorial) and their functional forms
  ``functional.seq_to_ann_forward`` + ``multi_step_forward``; ``layer.Dropout`` multi-step
  (one mask for all steps); ``VotingLayer``; ``ThresholdDependentBatchNorm2d`` (tdBN) and
  ``TemporalEffectiveBatchNorm2d`` (TEBN), multi-step only; ``SpikingSelfAttention``
  (``[T, N, C, L]``) and ``SpikeDrivenSelfAttention`` (``[T, N, C, H, W]``), built with
  ``spiking_neuron=neuron.LIFNode`` and ``functional.set_step_mode(.., "m")``;
- tutorial networks: ``examples/lif_fc_mnist.py`` (Flatten, Linear, LIF, single-step; the
  forward runs the training loop's T Poisson-encoded steps in a Python loop and averages),
  the ``examples/conv_fashion_mnist.py`` CSNN (multi-step; the image repeated T times in the
  forward), that CSNN calling ``functional.reset_net(self)`` first in its forward (as users
  write it), the three ``examples/rsnn_sequential_fmnist.py`` nets (plain, a learnable
  ``SynapseFilter``, feedback through ``LinearRecurrentContainer``), and
  ``rnn.SpikingLSTM`` + a linear head (``examples/spiking_lstm_sequential_mnist.py``);
- the model zoo (``activation_based.model``), as ``examples/classify_dvsg.py`` builds them
  (``spiking_neuron=neuron.LIFNode``, ``surrogate.ATan()``, ``detach_reset=True``, then
  ``functional.set_step_mode(net, "m")``): ``parametric_lif_net.MNISTNet`` (channels 4, with
  ``ParametricLIFNode``), ``spiking_resnet18``, ``sew_resnet18(cnf="ADD")``; and the
  newer self-contained multi-step ones (an image in, repeated T times inside):
  ``Spikformer`` (2 blocks, 32 wide, patch 4), ``MSResNet`` (one block per stage, 8 base
  channels), ``SpikeDrivenTransformer`` (1 block, 32 wide);
- losses / helpers (``functional``): ``temporal_efficient_training_cross_entropy`` (TET) on
  the plain RSNN's output spikes, ``spike_similar_loss`` (linear kernel, MSE) on a LIF
  layer's ``[N, M, T]`` spikes, and ``first_spike_index`` (a latency readout).

Eval: the module's output (the firing rate, ``out.mean(0)``, where the tutorials take it;
the losses are the output of both settings). Train: the tutorials' loss
``F.mse_loss(firing_rate, one_hot(label))`` (``RateMSE``) for the tutorial nets, encoders
and the zoo's classifiers, TET for Spikformer (its head returns ``[T, N, classes]``),
``classifier_loss_module()`` for the SpikingLSTM net, ``mean_loss_module()`` for neurons,
surrogates and layers (``ResetMeanLoss``). Every train module ends with
``functional.reset_net`` (the tutorials' training loops reset after each batch; without it
a second forward + backward reaches the first batch's freed graph through the membrane
state). Eval modules keep their state between calls, as a model between resets does; a
fresh build starts with ``v`` a Python float (``v_float_to_tensor`` on step one).

    pip install --no-deps spikingjelly==2.0.0

It imports torch, numpy and scipy (installed) at the top of ``activation_based``. Stubbed
(with ``stub_modules``): ``torchvision.models.utils.load_state_dict_from_url`` (the
spiking / SEW ResNet and VGG files import it for pretrained weights, never fetched here) and
``h5py.File`` (``activation_based.model/__init__`` imports ``spikformer``, which imports the
distributed vision trainer, whose inference module does ``import h5py``; neither is used).

Left out: ``datasets`` (torchvision, event-file formats), ``monitor`` and ``learning``
(STDP; they import ``torch.utils.tensorboard``, whose ``tensorboard`` is not installed),
``ann2snn`` (conversion of a trained ANN over a data loader), ``distributed``, ``memopt``,
``quantize``, the ``lava`` / ``lynxi`` / ``nir`` exporters, the CuPy / Triton / CUDA-graph
kernels (CUDA only), ``timing_based``; ``spiking_vgg*`` (its 25088 x 4096 classifier makes a
build take seconds); ``QKFormer`` / ``MaxFormer`` / ``MASNN`` (more of the Spikformer family);
the research neurons (Izhikevich, KLIF, CUBA-LIF, gated LIF, non-spiking readouts, noisy,
ternary, ...) beyond those listed; ``PeriodicEncoder`` (it replays a fixed spike train);
``kernel_dot_product`` and ``redundant_one_hot`` on their own.
Notes: on CPU every neuron's multi-step path is a Python loop over time steps
(``functional.lif_multi_step`` etc., after ``neuron_implementation`` picks the torch
reference); ``WeightedPhaseEncoder`` asserts on its input's values in Python every call;
``reset_net`` walks the modules and resets every ``MemoryModule``'s registered memories.
"""

import functools

PACKAGE = "spikingjelly"
DISTRIBUTION = "spikingjelly"

_T, _B, _F = 4, 2, 8  # time steps, batch, features
_C, _HW = 4, 8  # image channels / side for the small CNN pieces
_CLASSES = 4
_KERNEL_ARGS = {"linear": (), "sigmoid": (1.0,), "gaussian": (1.0,), "polynomial": (2,)}  # spike_similar_loss's args


def _stubs():
    stub_modules(  # noqa: F821  (ZooSuite sets it on the adapter)
        {
            "torchvision": ((), ()),
            "torchvision.models": ((), ()),
            "torchvision.models.utils": (("load_state_dict_from_url",), ()),
            "h5py": ((), ("File",)),
        },
        "spikingjelly.activation_based.model",
    )


def warm_up():
    import torch  # noqa: F401

    _stubs()
    import spikingjelly.activation_based.model  # noqa: F401
    from spikingjelly.activation_based import encoding, functional, layer, neuron, rnn, surrogate  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from torch import nn
    from spikingjelly.activation_based import encoding, functional, layer, neuron, rnn, surrogate

    class RateMSE(nn.Module):
        """The tutorials' loss: MSE between the firing rate and the one-hot label
        (``fr``: the net returns spikes ``[T, N, C]`` and the rate is their mean over T)."""

        def __init__(self, net, rate=False, classes=_CLASSES):
            super().__init__()
            self.net, self.rate = net, rate
            self.register_buffer("onehot", F.one_hot(torch.arange(_B) % classes, classes).float())

        def forward(self, *args):
            out = self.net(*args)
            if self.rate:
                out = out.mean(0)
            loss = F.mse_loss(out, self.onehot)
            functional.reset_net(self.net)  # the training loop's reset after each batch
            return loss

    class TETLoss(nn.Module):
        """``functional.temporal_efficient_training_cross_entropy`` of the net's ``[T, N, C]``."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            self.register_buffer("labels", torch.arange(_B) % _CLASSES)

        def forward(self, x):
            loss = functional.temporal_efficient_training_cross_entropy(self.net(x), self.labels)
            functional.reset_net(self.net)
            return loss

    class ResetMeanLoss(mean_loss_module()):  # noqa: F821
        """``mean_loss_module()``, then ``functional.reset_net(net)`` as the training loops do
        after each batch (else a second backward runs into the first batch's freed graph)."""

        def forward(self, *args, **kwargs):
            loss = super().forward(*args, **kwargs)
            functional.reset_net(self.net)
            return loss

    class FCSNN(nn.Module):
        """``examples/lif_fc_mnist.py``: Flatten, Linear, LIF (single-step); the forward does the
        training loop's inner part: T Poisson-encoded frames, the mean of the output spikes."""

        def __init__(self, tau=2.0):
            super().__init__()
            self.layer = nn.Sequential(
                layer.Flatten(),
                layer.Linear(_HW * _HW, _CLASSES, bias=False),
                neuron.LIFNode(tau=tau, surrogate_function=surrogate.ATan()),
            )
            self.encoder = encoding.PoissonEncoder()

        def forward(self, img):
            out_fr = 0.0
            for _ in range(_T):
                out_fr = out_fr + self.layer(self.encoder(img))
            return out_fr / _T

    class CSNN(nn.Module):
        """``examples/conv_fashion_mnist.py`` (channels 4, 8x8 images, multi-step);
        ``reset``: ``functional.reset_net(self)`` first, as users write it."""

        def __init__(self, reset=False):
            super().__init__()
            self.reset = reset
            ch = _C
            self.conv_fc = nn.Sequential(
                layer.Conv2d(1, ch, kernel_size=3, padding=1, bias=False),
                layer.BatchNorm2d(ch),
                neuron.IFNode(surrogate_function=surrogate.ATan()),
                layer.MaxPool2d(2, 2),
                layer.Conv2d(ch, ch, kernel_size=3, padding=1, bias=False),
                layer.BatchNorm2d(ch),
                neuron.IFNode(surrogate_function=surrogate.ATan()),
                layer.MaxPool2d(2, 2),
                layer.Flatten(),
                layer.Linear(ch * 2 * 2, ch * 2, bias=False),
                neuron.IFNode(surrogate_function=surrogate.ATan()),
                layer.Linear(ch * 2, _CLASSES, bias=False),
                neuron.IFNode(surrogate_function=surrogate.ATan()),
            )
            functional.set_step_mode(self, step_mode="m")

        def forward(self, x):
            if self.reset:
                functional.reset_net(self)
            x_seq = x.unsqueeze(0).expand(_T, -1, -1, -1, -1)
            return self.conv_fc(x_seq).mean(0)

    class RSNN(nn.Module):
        """``examples/rsnn_sequential_fmnist.py`` (rows as time steps, single-step modules
        fed ``[T, N, F]`` by step mode "m"): ``kind`` "plain", "synapse" (a learnable
        ``SynapseFilter``), "feedback" (``LinearRecurrentContainer``)."""

        def __init__(self, kind):
            super().__init__()
            mid = [layer.SynapseFilter(tau=2.0, learnable=True)] if kind == "synapse" else []
            if kind == "feedback":
                self.fc = nn.Sequential(
                    layer.Linear(_F, 16),
                    layer.LinearRecurrentContainer(
                        neuron.IFNode(surrogate_function=surrogate.ATan(), detach_reset=True),
                        in_features=16, out_features=16, bias=True),
                    layer.Linear(16, _CLASSES),
                    neuron.IFNode(surrogate_function=surrogate.ATan()),
                )
            else:
                self.fc = nn.Sequential(
                    layer.Linear(_F, 16),
                    neuron.IFNode(surrogate_function=surrogate.ATan()),
                    *mid,
                    layer.Linear(16, _CLASSES),
                    neuron.IFNode(surrogate_function=surrogate.ATan()),
                )
            functional.set_step_mode(self, "m")

        def forward(self, x):
            return self.fc(x).mean(0)

    class SpikingLSTMNet(nn.Module):
        """``examples/spiking_lstm_sequential_mnist.py``: ``rnn.SpikingLSTM`` then a linear
        head on the last step."""

        def __init__(self):
            super().__init__()
            self.lstm = rnn.SpikingLSTM(_F, 16, 1)
            self.fc = nn.Linear(16, _CLASSES)

        def forward(self, x):
            x, _ = self.lstm(x)
            return self.fc(x[-1])

    class Surrogates(nn.Module):
        """Each surrogate function on the same membrane tensor, summed (``spiking``: the
        Heaviside forward with the surrogate backward; else the smooth primitive)."""

        def __init__(self, spiking):
            super().__init__()
            s = surrogate
            self.fns = nn.ModuleList([
                s.ATan(spiking=spiking), s.Sigmoid(spiking=spiking),
                s.PiecewiseQuadratic(spiking=spiking), s.Erf(spiking=spiking),
                s.SoftSign(spiking=spiking),
                s.PiecewiseLeakyReLU(spiking=spiking), s.Rect(spiking=spiking),
                s.LeakyKReLU(spiking=spiking), s.PiecewiseExp(spiking=spiking),
                s.QPseudoSpike(spiking=spiking), s.S2NN(spiking=spiking),
                s.NonzeroSignLogAbs(spiking=spiking), s.LogTailedReLU(spiking=spiking),
            ])
            if spiking:  # its primitive is not implemented
                self.fns.append(s.SuperSpike(spiking=True))
            self.fc = nn.Linear(_F, _F)

        def forward(self, x):
            v = self.fc(x)
            return torch.stack([f(v) for f in self.fns]).sum(0)

    class NeuronNet(nn.Module):
        """A Linear layer, then the neuron (its input current; ``step_mode`` "m": ``[T, N, F]``)."""

        def __init__(self, node, step_mode):
            super().__init__()
            self.fc = layer.Linear(_F, _F, step_mode=step_mode)
            self.node = node

        def forward(self, x):
            return self.node(self.fc(x))

    class Encode(nn.Module):
        """An encoder in front of a Linear + LIF layer: ``stateful``: a single-step encoder
        called T times (Latency / WeightedPhase / Periodic), else one call."""

        def __init__(self, encoder, width, steps=None):
            super().__init__()
            self.encoder, self.steps = encoder, steps
            self.fc = layer.Linear(width, _CLASSES)
            self.lif = neuron.LIFNode(step_mode="m")

        def forward(self, x):
            if self.steps:
                spikes = torch.stack([self.encoder(x) for _ in range(self.steps)])
            else:
                spikes = self.encoder(x)
            return self.lif(self.fc(spikes.float())).mean(0)

    class PopEnc(nn.Module):
        """``PopSpikeEncoderDeterministic`` (the spiking-RL examples' observation encoder),
        then a multi-step LIF readout."""

        def __init__(self):
            super().__init__()
            self.encoder = encoding.PopSpikeEncoderDeterministic(_F, 4, _T, (-3.0, 3.0), 0.5)
            self.fc = layer.Linear(_F * 4, _CLASSES, step_mode="m")
            self.lif = neuron.LIFNode(step_mode="m")

        def forward(self, obs):
            spikes = self.encoder(obs)  # [T, N, F * pop]
            return self.lif(self.fc(spikes)).mean(0)

    class SeqToANN(nn.Module):
        """``layer.SeqToANNContainer`` around Conv + BN, ``MultiStepContainer`` around a
        single-step neuron (``container``); or ``functional.seq_to_ann_forward`` /
        ``multi_step_forward`` (``functional``)."""

        def __init__(self, use_functional=False):
            super().__init__()
            self.use_functional = use_functional
            conv = [nn.Conv2d(_C, _C, 3, padding=1, bias=False), nn.BatchNorm2d(_C)]
            node = neuron.IFNode(surrogate_function=surrogate.ATan())
            if use_functional:
                self.conv, self.node = nn.Sequential(*conv), node
            else:
                self.conv = layer.SeqToANNContainer(*conv)
                self.node = layer.MultiStepContainer(node)

        def forward(self, x_seq):
            if self.use_functional:
                return functional.multi_step_forward(functional.seq_to_ann_forward(x_seq, self.conv), self.node)
            return self.node(self.conv(x_seq))

    class LayerNet(nn.Module):
        """One ``layer`` module between a multi-step Linear and LIF: the inputs' widths fixed."""

        def __init__(self, mod, width=_F):
            super().__init__()
            self.fc = layer.Linear(_F, width, step_mode="m")
            self.lif = neuron.LIFNode(step_mode="m")
            self.mod = mod

        def forward(self, x_seq):
            return self.mod(self.lif(self.fc(x_seq)))

    class ConvBNNet(nn.Module):
        """Multi-step Conv, one of the SNN batch norms, LIF (``bn``: "tdbn", "teBN")."""

        def __init__(self, bn):
            super().__init__()
            self.conv = layer.Conv2d(_C, _C, 3, padding=1, bias=False, step_mode="m")
            if bn == "tdbn":
                self.bn = layer.ThresholdDependentBatchNorm2d(1.0, 1.0, _C)  # multi-step only
            else:
                self.bn = layer.TemporalEffectiveBatchNorm2d(_T, _C)  # multi-step only
            self.lif = neuron.LIFNode(step_mode="m")

        def forward(self, x_seq):
            return self.lif(self.bn(self.conv(x_seq)))

    class Attention(nn.Module):
        """``layer.SpikingSelfAttention`` / ``SpikeDrivenSelfAttention`` on ``[T, N, C, H, W]``."""

        def __init__(self, cls):
            super().__init__()
            self.attn = cls(16, num_heads=2, spiking_neuron=neuron.LIFNode)
            functional.set_step_mode(self, "m")

        def forward(self, x_seq):
            return self.attn(x_seq)

    class SimilarLoss(nn.Module):
        """``functional.spike_similar_loss`` of a LIF layer's output spikes ``[N, M, T]``."""

        def __init__(self, kernel_type, loss_type, *args):
            super().__init__()
            self.kernel_type, self.loss_type, self.args = kernel_type, loss_type, args
            self.fc = layer.Linear(_F, 6, step_mode="m")
            self.lif = neuron.LIFNode(step_mode="m", surrogate_function=surrogate.ATan())
            labels = torch.nn.functional.one_hot(torch.tensor([0, 1, 0, 2]), 3).float()
            self.register_buffer("labels", labels)

        def forward(self, x_seq):
            spikes = self.lif(self.fc(x_seq)).permute(1, 2, 0)
            loss = functional.spike_similar_loss(spikes, self.labels, self.kernel_type, self.loss_type, *self.args)
            functional.reset_net(self)
            return loss

    class FirstSpike(nn.Module):
        """The latency readout: ``functional.first_spike_index`` of the output spikes (a
        bool mask of each neuron's first spike), the spikes' membrane masked by it."""

        def __init__(self):
            super().__init__()
            self.fc = layer.Linear(_F, _CLASSES, step_mode="m")
            self.lif = neuron.LIFNode(step_mode="m", surrogate_function=surrogate.ATan())

        def forward(self, x_seq):
            spikes = self.lif(self.fc(x_seq))  # [T, N, C]
            first = functional.first_spike_index(spikes.permute(1, 2, 0))  # [N, C, T]
            return (spikes.permute(1, 2, 0) * first).sum(-1)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _seq(*shape):
    """A ``[T, N, *shape]`` input current, scaled so that neurons fire."""
    import torch

    return torch.rand(_T, _B, *shape) * 2.0


def _img(c=1, hw=_HW):
    import torch

    return torch.rand(_B, c, hw, hw)


# --- models ------------------------------------------------------------------------------------

def _train_or(net, mode, args):
    if mode == "train":
        return _nets().ResetMeanLoss(net), args, {}
    return net, args, {}


def _neuron(name, step_mode="m", **kw):
    """A neuron module alone: ``[T, N, F]`` multi-step, ``[N, F]`` single-step."""

    def make(mode):
        from spikingjelly.activation_based import neuron, surrogate

        cls = getattr(neuron, name)
        if name == "PSN":  # multi-step only: T fixed at construction
            node = cls(T=_T, surrogate_function=surrogate.ATan())
        else:
            node = cls(step_mode=step_mode, **kw)
        x = _seq(_F) if step_mode == "m" else _seq(_F)[0]
        return _train_or(_nets().NeuronNet(node, step_mode), mode, (x,))

    return make


def _surrogates(spiking):
    def make(mode):
        return _train_or(_nets().Surrogates(spiking), mode, (_seq(_F)[0] - 1.0,))

    return make


def _encoder(kind):
    def make(mode):
        import torch
        from spikingjelly.activation_based import encoding

        nets = _nets()
        if kind == "poisson":
            net = nets.Encode(encoding.PoissonEncoder(step_mode="m"), _F)
            x = torch.rand(_B, _F).expand(_T, _B, _F)  # the image repeated over T, encoded per step
        elif kind == "latency":
            net, x = nets.Encode(encoding.LatencyEncoder(_T), _F, steps=_T), torch.rand(_B, _F)
        elif kind == "phase":
            net, x = nets.Encode(encoding.WeightedPhaseEncoder(K=_T), _F, steps=_T), torch.rand(_B, _F) * 0.9  # asserts x <= 1 - 2 ** -K
        else:
            net, x = nets.PopEnc(), torch.randn(_B, _F)
        if mode == "train":
            return nets.RateMSE(net), (x,), {}
        return net, (x,), {}

    return make


def _tutorial(kind):
    def make(mode):
        nets = _nets()
        if kind == "fc":
            net, x = nets.FCSNN(), _img()
        elif kind == "csnn":
            net, x = nets.CSNN(), _img()
        elif kind == "csnn_reset":
            net, x = nets.CSNN(reset=True), _img()
        elif kind == "lstm":
            net, x = nets.SpikingLSTMNet(), _seq(_F)
        else:
            net, x = nets.RSNN(kind), _seq(_F)
        if mode == "train":
            if kind == "lstm":
                return classifier_loss_module()(net, _B, _CLASSES), (x,), {}  # noqa: F821
            return nets.RateMSE(net), (x,), {}
        return net, (x,), {}

    return make


def _container(use_functional):
    def make(mode):
        return _train_or(_nets().SeqToANN(use_functional), mode, (_seq(_C, _HW, _HW),))

    return make


def _layer(kind):
    def make(mode):
        from spikingjelly.activation_based import layer

        nets = _nets()
        if kind == "dropout":
            net = nets.LayerNet(layer.Dropout(0.5, step_mode="m"))
        elif kind == "voting":
            net = nets.LayerNet(layer.VotingLayer(2, step_mode="m"))
        else:
            net = nets.ConvBNNet(kind)
            return _train_or(net, mode, (_seq(_C, _HW, _HW),))
        return _train_or(net, mode, (_seq(_F),))

    return make


def _attention(name):
    def make(mode):
        from spikingjelly.activation_based import layer

        shape = (16, 6) if name == "SpikingSelfAttention" else (16, 4, 4)  # [T, N, C, L] / [T, N, C, H, W]
        return _train_or(_nets().Attention(getattr(layer, name)), mode, (_seq(*shape),))

    return make


def _zoo(name):
    """``activation_based.model`` networks, multi-step, tiny configurations."""

    def make(mode):
        import torch
        from spikingjelly.activation_based import functional, neuron, surrogate

        _stubs()
        nets = _nets()
        lif = dict(spiking_neuron=neuron.LIFNode, surrogate_function=surrogate.ATan(), detach_reset=True)
        rate = True  # the net returns [T, N, classes]
        if name == "PLIF_MNISTNet":
            from spikingjelly.activation_based.model import parametric_lif_net

            net = parametric_lif_net.MNISTNet(channels=4, spiking_neuron=neuron.ParametricLIFNode,
                                              surrogate_function=surrogate.ATan(), detach_reset=True)
            x = torch.rand(_T, _B, 1, 28, 28)
        elif name == "spiking_resnet18":
            from spikingjelly.activation_based.model import spiking_resnet

            net = spiking_resnet.spiking_resnet18(num_classes=_CLASSES, **lif)
            x = torch.rand(2, _B, 3, 16, 16)
        elif name == "sew_resnet18_ADD":
            from spikingjelly.activation_based.model import sew_resnet

            net = sew_resnet.sew_resnet18(cnf="ADD", num_classes=_CLASSES, **lif)
            x = torch.rand(2, _B, 3, 16, 16)
        elif name == "Spikformer":
            from spikingjelly.activation_based.model import Spikformer

            net = Spikformer(T=2, img_size_h=32, img_size_w=32, patch_size=4, num_classes=_CLASSES,
                             embed_dims=32, num_heads=2, mlp_ratio=2.0, depths=2)
            x = torch.rand(_B, 3, 32, 32)
            if mode == "train":
                return nets.TETLoss(net), (x,), {}
            return net, (x,), {}
        elif name == "MSResNet":
            from spikingjelly.activation_based.model import MSResNet

            net = MSResNet(T=2, num_classes=_CLASSES, layers=(1, 1, 1, 1), base_channels=8)
            x, rate = torch.rand(_B, 3, 32, 32), False
        else:
            from spikingjelly.activation_based.model import SpikeDrivenTransformer

            net = SpikeDrivenTransformer(T=2, num_classes=_CLASSES, embed_dims=32, num_heads=2, depths=1, mlp_ratio=2.0)
            x, rate = torch.rand(_B, 3, 32, 32), False
        if name in ("spiking_resnet18", "sew_resnet18_ADD", "PLIF_MNISTNet"):
            functional.set_step_mode(net, "m")
        if mode == "train":
            return nets.RateMSE(net, rate=rate, classes=10 if name == "PLIF_MNISTNet" else _CLASSES), (x,), {}
        return net, (x,), {}

    return make


def _loss(kind):
    def make(mode):
        import torch

        nets = _nets()
        if kind == "tet":
            net = nets.TETLoss(nets.RSNN("plain").fc)
            return net, (_seq(_F),), {}
        if kind.startswith("similar"):
            _, kernel, loss = kind.split("_")
            return nets.SimilarLoss(kernel, loss, *_KERNEL_ARGS[kernel]), (torch.rand(_T, 4, _F) * 2,), {}
        return _train_or(nets.FirstSpike(), mode, (_seq(_F),))

    return make


MODELS = {
    # neurons
    "IFNode_multi_step": _neuron("IFNode"),
    "IFNode_single_step": _neuron("IFNode", step_mode="s"),
    "LIFNode_multi_step": _neuron("LIFNode"),
    "LIFNode_single_step": _neuron("LIFNode", step_mode="s"),
    "LIFNode_soft_reset_detach": _neuron("LIFNode", v_reset=None, detach_reset=True, decay_input=False),
    "LIFNode_store_v_seq": _neuron("LIFNode", store_v_seq=True),
    "ParametricLIFNode": _neuron("ParametricLIFNode"),
    "QIFNode": _neuron("QIFNode"),
    "PSN": _neuron("PSN"),
    "SlidingPSN": _neuron("SlidingPSN", k=2),
    # surrogate functions
    "surrogates_spiking": _surrogates(True),
    "surrogates_primitive": _surrogates(False),
    # encoders
    "PoissonEncoder": _encoder("poisson"),
    "LatencyEncoder": _encoder("latency"),
    "WeightedPhaseEncoder": _encoder("phase"),
    "PopSpikeEncoderDeterministic": _encoder("pop"),
    # layers and containers
    "SeqToANN_MultiStep_containers": _container(False),
    "seq_to_ann_forward_multi_step_forward": _container(True),
    "Dropout_multi_step": _layer("dropout"),
    "VotingLayer": _layer("voting"),
    "ThresholdDependentBatchNorm2d": _layer("tdbn"),
    "TemporalEffectiveBatchNorm2d": _layer("teBN"),
    "SpikingSelfAttention": _attention("SpikingSelfAttention"),
    "SpikeDrivenSelfAttention": _attention("SpikeDrivenSelfAttention"),
    # tutorial networks
    "lif_fc_mnist_single_step_loop": _tutorial("fc"),
    "conv_fashion_mnist_CSNN": _tutorial("csnn"),
    "conv_fashion_mnist_CSNN_reset_in_forward": _tutorial("csnn_reset"),
    "rsnn_plain": _tutorial("plain"),
    "rsnn_stateful_synapse": _tutorial("synapse"),
    "rsnn_feedback": _tutorial("feedback"),
    "SpikingLSTM": _tutorial("lstm"),
    # model zoo
    "PLIF_MNISTNet": _zoo("PLIF_MNISTNet"),
    "spiking_resnet18": _zoo("spiking_resnet18"),
    "sew_resnet18_ADD": _zoo("sew_resnet18_ADD"),
    "Spikformer": _zoo("Spikformer"),
    "MSResNet": _zoo("MSResNet"),
    "SpikeDrivenTransformer": _zoo("SpikeDrivenTransformer"),
    # losses and helpers
    "TET_loss": _loss("tet"),
    "spike_similar_loss_linear_mse": _loss("similar_linear_mse"),
    "first_spike_index": _loss("first_spike"),
}
