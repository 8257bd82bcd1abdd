"""norse 1.1.0 (Pehle, Pedersen et al.): spiking neural networks in PyTorch, as its README, its own
tests (``norse/torch/module/test/``, ``norse/torch/models/test/``) and its tasks
(``norse/task/mnist.py``, ``cifar10.py``, ``memory.py``, ``cartpole.py``) use them, tiny (batch 2, 8
features, 16 hidden, 4 classes, 4 time steps; 28x28 MNIST-shaped images for the library's conv nets,
16x16 or 32x32 RGB for the lifted VGG / MobileNet), random weights, no download. Time is the first
dimension. The models:

- feedforward cells stepped by a Python loop over time (the tutorials' ``for ts in range(T): z, s =
  cell(x[ts], s)``) inside ``SequentialState(nn.Linear, <cell>, nn.Linear, LICell)``: ``LIFCell``
  with the surrogate-gradient thresholds ``super`` (default), ``heaviside`` and ``triangle``,
  ``CobaLIFCell``, ``LIFBoxCell`` (``test_sequential_compile``), ``LIFCell`` +
  ``RegularizationCell`` (a spike count kept on the module);
- the time layers (``SNN`` / ``SNNRecurrent``: the loop over time inside the library) behind
  ``Lift(nn.Linear)``: ``LIF`` (and ``record_states=True``: ``_merge_states`` stacks every step's
  state), ``LSNN``, ``IAF``, ``Izhikevich`` (tonic spiking, two layers as ``test_izhikevich``),
  ``IzhikevichRecurrent`` (tonic bursting), ``LIFAdExRecurrent``; a ``LIFRecurrent`` stack 8 -> 6 ->
  4 -> 1 (``test_lif_recurrent_sequence``), the README's ``LSNNRecurrent(2, 10)``;
- recurrent cells stepped by a loop: ``LIFRecurrentCell`` (autapses), ``LSNNRecurrentCell``
  (``adjoint=True``: ``LSNNAdjointFunction``), ``LIFMCRecurrentCell``; ``test_training.py``'s
  ``SNNetwork`` (``PoissonEncoder`` then two ``LIFRecurrentCell``, the states kept on the module);
  ``LIFCorrelation`` with ``correlation_based_update`` of its weights every step
  (``test_lif_correlation_training``, batch 1 as there: ``pre_mask`` broadcasts ``(B, hidden, in) +
  (B, in)``, which fails for a batch > 1);
- encoders and decoders: ``ConstantCurrentLIFEncoder`` + ``SpikeLatencyEncoder`` and
  ``SpikeLatencyLIFEncoder`` into ``LIFRecurrent`` (``test_encode.py``), ``SignedPoissonEncoder``,
  ``PopulationEncoder``, ``SpikesToTimesDecoder`` (the ``ToSpikeTimes`` autograd Function);
- containers: ``SequentialState`` with ``Lift(Conv2d)``, ``LSNNRecurrent``, ``nn.RNN`` and
  ``LIFRecurrent`` (``test_state_sequence_conv``), ``RecurrentSequential`` fed its own output
  (``test_recurrent_sequential_stateful``), ``Lift(LIFCell)`` (``test_lift_stateful``), ``LConv2d``
  (a lifted ``Conv3d``) then ``LIF``;
- receptive fields: ``SampledSpatialReceptiveField2d`` (learned ratios, ``test_receptive_field``)
  before a ``LIFCell``, ``TemporalReceptiveField`` (``LIBoxCell`` at 4 time scales); ``ExpFilter``
  after a ``LIF`` layer;
- whole nets: the README's spiking conv classifier (``SequentialState`` of ``Conv2d`` / ``LIFCell``
  / ``MaxPool2d`` / ``Linear`` / ``LICell``, stepped over time), ``models.conv.ConvNet``, the MNIST
  task's ``LIFConvNet`` (``ConstantCurrentLIFEncoder`` into ``ConvNet4``, max over time,
  ``log_softmax``), the CIFAR-10 task's ``LIFConvNet`` (channels 64-256 cut to 4-16, its
  ``label_smoothing_loss``), the memory task's ``MemoryNet`` with ``LSNNLIFNet`` (its ``forward``:
  readouts chunked by ``(index + 1) % seq_length``, the adaptation ``b`` captured by
  ``.clone().detach().cpu()``; training: the boolean-masked BCE plus the spike-rate regularization),
  the cartpole task's ``LSNNPolicy`` (40 encoder steps cut to 4), the lifted ``VGG``
  (``make_layers`` of a tiny config with batch norm; its ``forward`` and ``_initialize_weights``, a
  classifier of the same shape but 32 wide instead of 4096) and ``MobileNetV2``
  (``width_mult=0.25``, three inverted-residual stages).

The task classes are copied into the adapter (their modules import torchvision, pytorch_lightning or
gym at the top); the CIFAR-10 and memory nets drop only their Lightning plumbing. Eval: the output
spikes / voltages (classifiers: log-probabilities or logits). Train: the task's loss where it has
one (``nll`` of the MNIST log-probabilities through ``classifier_loss_module``, the CIFAR label
smoothing loss, the memory BCE + regularization, the correlation test's NLL), else the sum of the
means of the float outputs (``mean_loss_module``).

    pip install --no-deps norse==1.1.0      # an sdist, pure Python (no extension is built:
                                            # CMakeLists.txt only; torch never reinstalled)
    pip install --no-deps nir==1.0.1        # imported by norse.torch (utils/import_nir, export_nir)
    pip install --no-deps nirtorch==1.0     # the extract_nir_graph / load API norse 1.1.0 uses
                                            # (+ numpy 2.4.6, h5py 3.16.0: installed)

``import norse`` imports ``norse.torch`` and, through it, nir / nirtorch (``to_nir`` /
``from_nir``); torchvision (held out) is only imported by ``norse.task`` and ``norse.dataset``
modules that the package's ``__init__`` does not import, so nothing is stubbed. Matplotlib and
tensorboard stay uninstalled (``norse.torch`` checks ``HAS_MATPLOTLIB`` / ``HAS_TENSORBOARD``).
Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built, all 80 ran under Dynamo (40 eval, 40
train), none failed or timed out (688 s at ``-j 1``). 78 runs break in norse's own source; only
``Izhikevich_tonic_spiking`` (both modes) is one graph. The break nearly every model shares: each
state fallback (``initial_state`` of ``LIFCell``, ``LIFRecurrentCell``, ``LIF``, ``LIFRecurrent``,
``LICell``, ``LI``, ``LILinearCell``'s ``forward``, the ``LSNN`` family, ``LIFBoxCell``,
``LIBoxCell``, ``CobaLIFCell``, ``IAF``, ``LIFAdExRecurrent``, ``LIFMCRecurrentCell``) sets
``state.v.requires_grad = True`` (GB0206, 16 statements), and inside a time loop (``SNN.forward``,
``SNNRecurrent.forward``, ``Lift.forward``, ``ExpFilter``, the users' loops) that break skips the
frame (GB7000, 15 statements); ``IzhikevichRecurrent``'s initial state creates a tensor with
``requires_grad=True`` (GB0225); ``ToSpikeTimes.forward`` compares the tensor ``spike_count`` with
``spike_input.shape[0]`` (``Tensor.item()``, GB0124, then a data-dependent branch, GB0170; the
Function's frame skipped). 29 recompile locations: ``state is None`` on the first step against the
later ones, one cell ``forward`` / ``initial_state`` reused by layers of other widths and ranks, the
state NamedTuple's type guarded in resume functions, ``correlation_based_update``'s ``ts == 0``; in
``MobileNetV2``, ``Lift.forward`` (29 instances, fed a tuple after ``LIF`` or a tensor, different
channel counts) hits the recompile limit (8) and runs eagerly. In the adapter's own code: the memory
task's boolean-mask loss (``ys[mask]``: GB0036, nonzero) and the call of
``SampledSpatialReceptiveField2d``, whose full backward hook breaks (GB0083, then GB7000 in the
loop).

First numbers with the frozen linter (``/tmp/lint-start55``): graph-break statement recall 0.95
(19/20), precision 0.78 (18/23), 95 findings (41 in files run), 18 unjudged (0 shadowed, 6 condition
not met, 12 not reached). The miss: ``norse/torch/module/lift.py:44``, ``Lift.forward``'s
recompile-limit frame skip in ``MobileNetV2`` (a recompile storm, not a statement). The false
alarms: CL119 ``.to_sparse()`` at ``module/lif.py:182`` and ``:333`` (``LIFRecurrentCell`` /
``LIFRecurrent`` initial state, only taken for a sparse input: the ``if input_tensor.is_sparse``
branch does not run on dense inputs) and CL107 at ``module/lif_mc.py:80, 87, 93`` (``torch.zeros`` /
``torch.ones`` sized by ``self.hidden_size``, a tensor: Dynamo traced them without a break). By
kind: graph breaks 19/19, frame skips 16/17, recompiles 0/29 (every break: 35/65).

Left out, its eager forward failing in 1.1.0: ``method="adjoint"`` in ``LIFParameters`` (``LIFCell``
/ ``LIFRecurrentCell`` pick the adjoint step, whose ``lif_step`` then asks ``threshold`` for a
method ``"adjoint"``: ``ValueError``). Left out otherwise: the ``LIFCell`` thresholds ``tanh`` /
``circ`` / ``heavi_erfc`` (the same autograd.Function pattern as ``heaviside`` / ``triangle``); the
sparse activations (``input.is_sparse``); ``models.vgg.vgg11``-``vgg19`` as built (a 25088x4096 +
4096x4096 classifier: 119M parameters, seconds to build) and the pretrained weights;
``mobilenet_v2`` at full width; the MNIST task's ``only_first_spike`` (a NumPy loop over every
spike); ``LIFMCRefracRecurrentCell``, ``LIFAdExRefracRecurrent``, ``LIFRefracRecurrent``, ``LIFEx``
/ ``LIFAdEx`` layers and cells, ``LIBoxCell`` alone (the same ``SNNCell`` / ``SNN`` /
``SNNRecurrent`` code as those kept); ``norse.torch.utils`` (plots, tensorboard, NIR export),
``norse.benchmark`` and the STDP learners.
"""

import functools

PACKAGE = "norse"

mean_loss_module = classifier_loss_module = None  # adapter.py's, set by ZooSuite

_B, _F, _H, _OUT, _T = 2, 8, 16, 4, 4


def warm_up():
    import torch  # noqa: F401
    import norse  # noqa: F401
    import norse.torch  # noqa: F401
    import norse.torch.models.conv  # noqa: F401
    import norse.torch.models.mobilenet  # noqa: F401
    import norse.torch.models.vgg  # noqa: F401


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    import norse.torch as snn
    from norse.torch.functional.correlation_sensor import correlation_based_update
    from norse.torch.models.conv import ConvNet4
    from norse.torch.models.vgg import VGG
    from norse.torch.module.exp_filter import ExpFilter

    class Stepped(nn.Module):
        """A stateful module called once per time step, its state threaded through (the
        tutorials' loop); the outputs stacked over time."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            state = None
            outputs = []
            for ts in range(x.shape[0]):
                out, state = self.net(x[ts], state)
                outputs.append(out)
            return torch.stack(outputs)

    class Regularized(nn.Module):
        """``LIFCell`` then ``RegularizationCell`` (spike count) per step; the count joins the
        output, as a regularization term would."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(_F, _H)
            self.lif = snn.LIFCell()
            self.reg = snn.RegularizationCell()
            self.out = snn.LILinearCell(_H, _OUT)

        def forward(self, x):
            s = so = None
            voltages = []
            for ts in range(x.shape[0]):
                z, s = self.lif(self.fc(x[ts]), s)
                z, count = self.reg(z, s)
                v, so = self.out(z, so)
                voltages.append(v)
            return torch.stack(voltages), count

    class TrainingSNNetwork(nn.Module):
        """``test_training.py``'s ``SNNetwork``: Poisson spikes into two ``LIFRecurrentCell``,
        their states kept on the module."""

        def __init__(self):
            super().__init__()
            self.encoder = snn.PoissonEncoder(_T, f_max=1000)
            self.l0 = snn.LIFRecurrentCell(12, 6)
            self.l1 = snn.LIFRecurrentCell(6, 1)
            self.s0 = self.s1 = None

        def forward(self, input_tensor):
            spike_ts = self.encoder(input_tensor)
            spikes = None
            for spikes in spike_ts:
                spikes, self.s0 = self.l0(spikes, self.s0)
                spikes, self.s1 = self.l1(spikes, self.s1)
            return spikes

    class IzhikevichNet(nn.Module):
        """``test_izhikevich.py``'s ``SNNetwork`` behind a lifted linear layer: two
        ``Izhikevich`` layers, the second one's membrane returned."""

        def __init__(self, spiking_method):
            super().__init__()
            self.fc = snn.Lift(nn.Linear(_F, _H))
            self.l0 = snn.Izhikevich(spiking_method)
            self.l1 = snn.Izhikevich(spiking_method)

        def forward(self, x):
            spikes, s0 = self.l0(self.fc(x))
            _, s1 = self.l1(spikes)
            return s1.v.squeeze()

    class Correlation(nn.Module):
        """``test_lif_correlation_training``, one episode: ``LIFCorrelation`` per step with its
        input and recurrent weights re-learned by ``correlation_based_update``, an
        ``LILinearCell`` readout, max over time, log-softmax; training: the NLL."""

        def __init__(self, input_features=10, hidden_features=8, output_features=2, loss=False):
            super().__init__()
            self.input_weights = nn.Parameter(torch.randn(input_features, hidden_features).t())
            self.recurrent_weights = nn.Parameter(torch.randn(hidden_features, hidden_features))
            self.lif_correlation = snn.LIFCorrelation(input_features, hidden_features)
            self.out = snn.LILinearCell(hidden_features, output_features)
            self.linear_update = nn.Linear(2 * input_features * hidden_features, input_features * hidden_features)
            self.rec_linear_update = nn.Linear(2 * hidden_features * hidden_features, hidden_features * hidden_features)
            self.output_features, self.loss = output_features, loss

        def forward(self, x, y):
            input_weights, recurrent_weights = self.input_weights, self.recurrent_weights
            s1 = so = None
            seq_length, batch_size, _ = x.shape
            voltages = torch.zeros(seq_length, batch_size, self.output_features)
            for ts in range(seq_length):
                z1, s1 = self.lif_correlation(x[ts, :, :], input_weights=input_weights,
                                              recurrent_weights=recurrent_weights, state=s1)
                input_weights = correlation_based_update(ts, self.linear_update, input_weights.detach(),
                                                         s1.input_correlation_state, 0.01, 10)
                recurrent_weights = correlation_based_update(ts, self.rec_linear_update,
                                                             recurrent_weights.detach(),
                                                             s1.recurrent_correlation_state, 0.01, 10)
                vo, so = self.out(z1, so)
                voltages[ts, :, :] = vo
            m, _ = torch.max(voltages, dim=0)
            log_p_y = F.log_softmax(m, dim=1)
            if self.loss:
                return F.nll_loss(log_p_y, y.long())
            return log_p_y

    class EncodedRecurrent(nn.Module):
        """An encoder (currents to spikes over time) then ``LIFRecurrent``
        (``test_spike_latency_*_backward``)."""

        def __init__(self, encoder, inputs=5, hidden=2):
            super().__init__()
            self.encoder = encoder
            self.layer = snn.LIFRecurrent(inputs, hidden)

        def forward(self, x):
            out, _ = self.layer(self.encoder(x))
            return out

    class PopulationNet(nn.Module):
        """Each scalar input spread over 8 Gaussian population neurons, then a linear layer and a
        ``LIFCell``, stepped over time."""

        def __init__(self):
            super().__init__()
            self.encoder = snn.PopulationEncoder(8)
            self.fc = nn.Linear(4 * 8, _H)
            self.lif = snn.LIFCell()

        def forward(self, x):
            s = None
            outputs = []
            for ts in range(x.shape[0]):
                z = self.encoder(x[ts]).flatten(1)
                z, s = self.lif(self.fc(z), s)
                outputs.append(z)
            return torch.stack(outputs)

    class DecodedTimes(nn.Module):
        """A lifted linear layer and ``LIF``, the spikes decoded to the times of the first two."""

        def __init__(self):
            super().__init__()
            self.net = snn.SequentialState(snn.Lift(nn.Linear(_F, _OUT)), snn.LIF())
            self.decoder = snn.SpikesToTimesDecoder(spike_count=torch.as_tensor(2))

        def forward(self, x):
            z, _ = self.net(x)
            return self.decoder(z)

    class RecurrentFeedback(nn.Module):
        """``RecurrentSequential`` (linear, ``LIFCell``) called twice, fed its own output and
        state (``pred, _ = m(*m(data))``)."""

        def __init__(self):
            super().__init__()
            self.m = snn.RecurrentSequential(nn.Linear(_F, _F), snn.LIFCell())

        def forward(self, x):
            return self.m(*self.m(x))[0]

    class LiftedCell(nn.Module):
        """``Lift(LIFCell())`` (``test_lift_stateful``) behind a lifted linear layer."""

        def __init__(self):
            super().__init__()
            self.fc = snn.Lift(nn.Linear(_F, _H))
            self.cell = snn.Lift(snn.LIFCell())

        def forward(self, x):
            return self.cell(self.fc(x))[0]

    class LConvNet(nn.Module):
        """``LConv2d`` (the lifted ``Conv3d``) on ``(T, B, C, H, W)``, then ``LIF``."""

        def __init__(self):
            super().__init__()
            self.net = snn.SequentialState(snn.LConv2d(1, 4, 3), snn.LIF())

        def forward(self, x):
            return self.net(x)[0]

    class ReceptiveFieldNet(nn.Module):
        """``SampledSpatialReceptiveField2d`` (learned ratios, ``test_receptive_field``) per step,
        then a ``LIFCell``."""

        def __init__(self):
            super().__init__()
            scales = torch.tensor([1.0, 2.0])
            angles = torch.tensor([0.0, 1.0])
            ratios = torch.tensor([0.5, 2.0])
            self.rf = snn.SampledSpatialReceptiveField2d(1, 9, scales, angles, ratios, 1, False, False, True)
            self.lif = snn.LIFCell()

        def forward(self, x):
            s = None
            outputs = []
            for ts in range(x.shape[0]):
                z, s = self.lif(self.rf(x[ts]), s)
                outputs.append(z)
            return torch.stack(outputs)

    class TemporalRF(nn.Module):
        """``TemporalReceptiveField`` (``LIBoxCell`` at 4 time scales) after a linear layer,
        stepped over time."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(_F, _H)
            self.trf = snn.TemporalReceptiveField((_H,), n_scales=4)

        def forward(self, x):
            s = None
            outputs = []
            for ts in range(x.shape[0]):
                z, s = self.trf(self.fc(x[ts]), s)
                outputs.append(z)
            return torch.stack(outputs)

    class FilteredLIF(nn.Module):
        """A lifted linear layer and ``LIF``, the spikes through ``ExpFilter``."""

        def __init__(self):
            super().__init__()
            self.net = snn.SequentialState(snn.Lift(nn.Linear(_F, _H)), snn.LIF())
            self.filter = ExpFilter(_H, _OUT)

        def forward(self, x):
            z, _ = self.net(x)
            return self.filter(z)

    class ReadmeConv(nn.Module):
        """The README's spiking conv classifier (20 / 50 channels cut to 4 / 8), stepped over
        time; the max voltage over time, log-softmax (the MNIST notebook's ``decode``)."""

        def __init__(self):
            super().__init__()
            self.model = snn.SequentialState(
                nn.Conv2d(1, 4, 5, 1), snn.LIFCell(), nn.MaxPool2d(2, 2),
                nn.Conv2d(4, 8, 5, 1), snn.LIFCell(), nn.MaxPool2d(2, 2),
                nn.Flatten(), nn.Linear(8 * 4 * 4, 10), snn.LICell(),
            )

        def forward(self, x):
            state = None
            voltages = []
            for ts in range(x.shape[0]):
                out, state = self.model(x[ts], state)
                voltages.append(out)
            m, _ = torch.max(torch.stack(voltages), 0)
            return F.log_softmax(m, dim=1)

    class MnistLIFConvNet(nn.Module):
        """``norse/task/mnist.py``'s ``LIFConvNet`` (``only_first_spike=False``)."""

        def __init__(self, input_features=28 * 28, seq_length=2, input_scale=1.0, model="super"):
            super().__init__()
            self.constant_current_encoder = snn.ConstantCurrentLIFEncoder(seq_length=seq_length)
            self.input_features = input_features
            self.rsnn = ConvNet4(method=model)
            self.seq_length = seq_length
            self.input_scale = input_scale

        def forward(self, x):
            batch_size = x.shape[0]
            x = self.constant_current_encoder(x.view(-1, self.input_features) * self.input_scale)
            x = x.reshape(self.seq_length, batch_size, 1, 28, 28)
            voltages = self.rsnn(x)
            m, _ = torch.max(voltages, 0)
            log_p_y = torch.nn.functional.log_softmax(m, dim=1)
            return log_p_y

    def label_smoothing_loss(y_hat, y, alpha=0.2):
        log_probs = F.log_softmax(y_hat, dim=1, _stacklevel=5)
        xent = F.nll_loss(log_probs, y, reduction="none")
        KL = -log_probs.mean(dim=1)
        loss = (1 - alpha) * xent + alpha * KL
        return loss.sum()

    class CifarLIFConvNet(nn.Module):
        """``norse/task/cifar10.py``'s ``LIFConvNet`` without Lightning (channels 4-16 instead of
        64-256, an 8x8 image); ``training_step``'s label smoothing loss in training."""

        def __init__(self, seq_length=_T, num_channels=3, p=None, loss=False):
            super().__init__()
            p = snn.LIFParameters(method="super", alpha=100.0) if p is None else p
            self.seq_length = seq_length
            c = 4
            c = [c, 2 * c, 4 * c, 4 * c]
            self.features = snn.SequentialState(
                nn.Conv2d(num_channels, c[0], kernel_size=3, stride=1, padding=1, bias=False),
                snn.LIFCell(p),
                nn.Conv2d(c[0], c[1], kernel_size=3, stride=1, padding=1, bias=False),
                snn.LIFCell(p),
                nn.MaxPool2d(2),
                nn.Conv2d(c[1], c[2], kernel_size=3, stride=1, padding=1, bias=False),
                snn.LIFCell(p),
                nn.MaxPool2d(2),
                nn.Conv2d(c[2], c[3], kernel_size=3, stride=1, padding=1, bias=False),
                snn.LIFCell(p),
                nn.MaxPool2d(2),
                nn.Flatten(),
            )
            self.classification = snn.SequentialState(nn.Linear(c[3], 10, bias=False), snn.LICell())
            self.loss = loss

        def forward(self, x, y):
            voltages = torch.empty(self.seq_length, x.shape[0], 10, device=x.device, dtype=x.dtype)
            sf = None
            sc = None
            for ts in range(self.seq_length):
                out_f, sf = self.features(x, sf)
                out_c, sc = self.classification(out_f, sc)
                voltages[ts, :, :] = out_c + 0.001 * torch.randn(x.shape[0], 10, device=x.device)
            y_hat, _ = torch.max(voltages, 0)
            if self.loss:
                return label_smoothing_loss(y_hat, y)
            return y_hat

    class LSNNLIFNet(nn.Module):
        """``norse/task/memory.py``'s ``LSNNLIFNet``."""

        def __init__(self, input_features, p_lsnn, p_lif, dt):
            super().__init__()
            assert input_features % 2 == 0, "Input features must be a whole number"
            self.neurons_per_layer = input_features // 2
            self.lsnn_cell = snn.LSNNRecurrentCell(input_features, self.neurons_per_layer, p_lsnn, dt=dt)
            self.lif_cell = snn.LIFRecurrentCell(input_features, self.neurons_per_layer, p_lif, dt=dt)

        def forward(self, input_spikes, state):
            if state is None:
                lif_state = None
                lsnn_state = None
            else:
                lif_state, lsnn_state = state
            lif_out, lif_state = self.lif_cell(input_spikes, lif_state)
            lsnn_out, lsnn_state = self.lsnn_cell(input_spikes, lsnn_state)
            out_spikes = torch.cat((lif_out, lsnn_out), -1)
            return out_spikes, (lif_state, lsnn_state)

    class MemoryNet(nn.Module):
        """``norse/task/memory.py``'s ``MemoryNet`` (``neuron_model="lsnnlif"``) without
        Lightning: its ``forward``; in training, ``training_step``'s loss."""

        def __init__(self, input_features=_F, output_features=2, seq_length=2, dt=0.001,
                     regularization_factor=1e-2, regularization_target=10, seq_repetitions=2, loss=False):
            super().__init__()
            self.input_features = input_features
            self.output_features = output_features
            self.seq_length = seq_length
            self.regularization_factor = regularization_factor
            self.regularization_target = regularization_target / (self.seq_length * seq_repetitions)
            p_lsnn = snn.LSNNParameters(method="super", v_th=torch.as_tensor(0.5),
                                        tau_adapt_inv=1 / torch.as_tensor(2000 * dt).exp(),
                                        beta=torch.as_tensor(1.8))
            p_lif = snn.LIFParameters(method="super", v_th=torch.as_tensor(0.5))
            p_li = snn.LIParameters()
            self.layer = LSNNLIFNet(input_features, p_lsnn=p_lsnn, p_lif=p_lif, dt=dt)
            self.capture_b = True
            self.readout = snn.LILinearCell(input_features, output_features, p=p_li)
            self.loss = loss

        def run(self, x):
            sl = None
            sr = None
            seq_spikes = []
            step_spikes = []
            seq_readouts = []
            step_readouts = []
            seq_betas = []
            for index, x_step in enumerate(x.unbind(1)):
                spikes, sl = self.layer(x_step, sl)
                seq_spikes.append(spikes)
                v, sr = self.readout(spikes, sr)
                seq_readouts.append(v)
                if (index + 1) % self.seq_length == 0:
                    step_spikes.append(torch.stack(seq_spikes))
                    seq_spikes = []
                    step_readouts.append(torch.stack(seq_readouts))
                    seq_readouts = []
                if self.capture_b:
                    seq_betas.append(sl[1].b.clone().detach().cpu())
            spikes = torch.cat(step_spikes)
            readouts = torch.stack(step_readouts)
            betas = torch.stack(seq_betas) if len(seq_betas) > 0 else None
            return spikes, readouts, betas

        def forward(self, xs, ys):
            spikes, readouts, betas = self.run(xs)
            if not self.loss:
                return spikes, readouts, betas
            seq_readouts = readouts.mean(1).softmax(2).permute(1, 0, 2)
            mask = ys.sum(2).gt(0)
            labels = ys[mask].float()
            predictions = seq_readouts[mask]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(predictions, labels)
            loss_reg = ((spikes.mean(0).mean(0) - self.regularization_target) ** 2
                        * self.regularization_factor).sum()
            return loss + loss_reg

    class LSNNPolicy(nn.Module):
        """``norse/task/cartpole.py``'s ``LSNNPolicy`` (128 hidden cut to 16, 40 encoder steps
        to 4)."""

        def __init__(self, model="super"):
            super().__init__()
            self.state_dim = 4
            self.input_features = 16
            self.hidden_features = _H
            self.output_features = 2
            self.constant_current_encoder = snn.ConstantCurrentLIFEncoder(_T)
            self.lif_layer = snn.LSNNRecurrentCell(2 * self.state_dim, self.hidden_features,
                                                   p=snn.LSNNParameters(method=model, alpha=100.0))
            self.dropout = torch.nn.Dropout(p=0.5)
            self.readout = snn.LILinearCell(self.hidden_features, self.output_features)
            self.saved_log_probs = []
            self.rewards = []

        def forward(self, x):
            scale = 50
            x_pos = self.constant_current_encoder(torch.nn.functional.relu(scale * x))
            x_neg = self.constant_current_encoder(torch.nn.functional.relu(-scale * x))
            x = torch.cat([x_pos, x_neg], dim=2)
            seq_length, batch_size, _ = x.shape
            s1 = None
            so = None
            voltages = torch.zeros(seq_length, batch_size, self.output_features, device=x.device)
            for ts in range(seq_length):
                z1, s1 = self.lif_layer(x[ts, :, :], s1)
                z1 = self.dropout(z1)
                vo, so = self.readout(z1, so)
                voltages[ts, :, :] = vo
            m, _ = torch.max(voltages, 0)
            p_y = torch.nn.functional.softmax(m, dim=1)
            return p_y

    class TinyVGG(VGG):
        """The lifted ``VGG``: its ``forward`` and ``_initialize_weights``, the classifier of the
        same shape (``Lift(Linear)``, ``LIF``, ``Lift(Dropout)`` twice, then ``Lift(Linear)``) 32
        wide instead of 4096 and a 2x2 average pool instead of 7x7."""

        def __init__(self, features, channels, num_classes=10):
            nn.Module.__init__(self)
            self.features = features
            self.avgpool = snn.Lift(nn.AdaptiveAvgPool2d((2, 2)))
            self.classifier = nn.Sequential(
                snn.Lift(nn.Linear(channels * 2 * 2, 32)), snn.LIF(), snn.Lift(nn.Dropout()),
                snn.Lift(nn.Linear(32, 32)), snn.LIF(), snn.Lift(nn.Dropout()),
                snn.Lift(nn.Linear(32, num_classes)),
            )
            self._initialize_weights()

    return {k: v for k, v in locals().items() if isinstance(v, type) or k == "label_smoothing_loss"}


# --- inputs ------------------------------------------------------------------------------------

def _seq(f=_F, t=_T, b=_B, scale=4.0):
    """Input currents over time, ``(T, B, F)``, in [0, scale)."""
    import torch

    return torch.rand(t, b, f) * scale


def _labels(classes, b=_B):
    import torch

    return torch.arange(b) % classes


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


# --- builders ----------------------------------------------------------------------------------

def _cell(cell, width=_H):
    """``SequentialState(Linear, <cell>, Linear, LICell)`` stepped over time; ``cell(width)``
    builds the spiking layer."""

    def make(mode):
        from torch import nn

        import norse.torch as snn

        seq = snn.SequentialState(nn.Linear(_F, width), cell(width), nn.Linear(width, _OUT), snn.LICell())
        return _wrap(_modules()["Stepped"](seq), mode), (_seq(),), {}

    return make


def _lif_cell(method):
    def build(width):
        import norse.torch as snn

        return snn.LIFCell(p=snn.LIFParameters(method=method, alpha=100.0))

    return build


def _recurrent_cell(name, **kwargs):
    def build(width):
        import norse.torch as snn

        return getattr(snn, name)(width, width, **kwargs)

    return build


def _coba(width):
    import norse.torch as snn

    return snn.CobaLIFCell(width, width)


def _lif_box(width):
    import norse.torch as snn

    return snn.LIFBoxCell()


def _layer(build):
    """``SequentialState(Lift(Linear), <time layer>)`` on ``(T, B, F)``."""

    def make(mode):
        from torch import nn

        import norse.torch as snn

        seq = snn.SequentialState(snn.Lift(nn.Linear(_F, _H)), build())
        return _wrap(seq, mode), (_seq(),), {}

    return make


def _lif_record():
    import norse.torch as snn

    return snn.LIF(record_states=True)


def _lsnn():
    import norse.torch as snn

    return snn.LSNN()


def _iaf():
    import norse.torch as snn

    return snn.IAF()


def _lif_adex_recurrent():
    import norse.torch as snn

    return snn.LIFAdExRecurrent(_H, _H)


def _izhikevich_recurrent():
    import norse.torch as snn
    from norse.torch.functional import izhikevich

    return snn.IzhikevichRecurrent(_H, _H, izhikevich.tonic_bursting)


def _lif_layer(mode):
    """``LIF`` and ``LI`` layers behind lifted linear layers."""
    from torch import nn

    import norse.torch as snn

    seq = snn.SequentialState(snn.Lift(nn.Linear(_F, _H)), snn.LIF(), snn.Lift(nn.Linear(_H, _OUT)), snn.LI())
    return _wrap(seq, mode), (_seq(),), {}


def _stack(name, sizes=(8, 6, 4, 1)):
    """``test_lif_recurrent_sequence``: recurrent layers 8 -> 6 -> 4 -> 1 in a ``SequentialState``."""

    def make(mode):
        import norse.torch as snn

        layers = [getattr(snn, name)(a, b) for a, b in zip(sizes, sizes[1:])]
        return _wrap(snn.SequentialState(*layers), mode), (_seq(sizes[0]),), {}

    return make


def _lsnn_recurrent_readme(mode):
    """The README: ``LSNNRecurrent(2, 10)`` on (T, 8, 2) -> batch 2."""
    import norse.torch as snn

    return _wrap(snn.LSNNRecurrent(2, 10), mode), (_seq(2),), {}


def _lsnn_recurrent_cell_adjoint(mode):
    from torch import nn

    import norse.torch as snn

    seq = snn.SequentialState(nn.Linear(_F, _H), snn.LSNNRecurrentCell(_H, _H, adjoint=True),
                              snn.LILinearCell(_H, _OUT))
    return _wrap(_modules()["Stepped"](seq), mode), (_seq(),), {}


def _izhikevich(mode):
    from norse.torch.functional import izhikevich

    return _wrap(_modules()["IzhikevichNet"](izhikevich.tonic_spiking), mode), (_seq(scale=10.0),), {}


def _regularized(mode):
    return _wrap(_modules()["Regularized"](), mode), (_seq(),), {}


def _training_net(mode):
    import torch

    return _wrap(_modules()["TrainingSNNetwork"](), mode), (torch.ones(_B, 12),), {}


def _correlation(mode):
    import torch

    x = (torch.rand(_T, 1, 10) < 0.3).float()  # batch 1, as the test (see the docstring)
    net = _modules()["Correlation"](loss=mode == "train")
    return net, (x, _labels(2, b=1)), {}


def _latency_encoded(mode):
    """``test_spike_latency_encode_backward``: ``ConstantCurrentLIFEncoder`` then
    ``SpikeLatencyEncoder`` (first spikes only)."""
    import torch
    from torch import nn

    import norse.torch as snn

    encoder = nn.Sequential(snn.ConstantCurrentLIFEncoder(seq_length=_T), snn.SpikeLatencyEncoder())
    return _wrap(_modules()["EncodedRecurrent"](encoder), mode), (torch.randn(_B, 5) + 10,), {}


def _latency_lif_encoded(mode):
    """``test_spike_latency_lif_encoder_backward``: ``SpikeLatencyLIFEncoder``."""
    import torch

    import norse.torch as snn

    encoder = snn.SpikeLatencyLIFEncoder(_T)
    return _wrap(_modules()["EncodedRecurrent"](encoder), mode), (torch.randn(_B, 5) + 10,), {}


def _signed_poisson(mode):
    import torch

    import norse.torch as snn

    encoder = snn.SignedPoissonEncoder(_T, f_max=500)
    return _wrap(_modules()["EncodedRecurrent"](encoder, inputs=_F, hidden=_H), mode), (torch.randn(_B, _F),), {}


def _population(mode):
    import torch

    return _wrap(_modules()["PopulationNet"](), mode), (torch.rand(_T, _B, 4),), {}


def _decoded(mode):
    return _wrap(_modules()["DecodedTimes"](), mode), (_seq(scale=20.0),), {}


def _state_sequence_conv(mode):
    """``test_state_sequence_conv``: ``Lift(Conv2d)``, ``Flatten(2)``, ``LSNNRecurrent``, a
    2-layer ``nn.RNN``, ``LIFRecurrent``."""
    import torch

    import norse.torch as snn

    model = snn.SequentialState(
        snn.Lift(torch.nn.Conv2d(1, 8, 3)),
        torch.nn.Flatten(2),
        snn.LSNNRecurrent(32, 6),
        torch.nn.RNN(6, 4, 2),
        snn.LIFRecurrent(4, 1),
    )
    return _wrap(model, mode), (torch.rand(_T, _B, 1, 4, 4) * 4,), {}


def _simple(name, inputs):
    def make(mode):
        return _wrap(_modules()[name](), mode), (inputs(),), {}

    return make


def _lconv_input():
    import torch

    return torch.rand(_T, _B, 1, 8, 8) * 4


def _rf_input():
    import torch

    return torch.rand(_T, _B, 1, 9, 9) * 4


def _readme_conv(mode):
    import torch

    net = _modules()["ReadmeConv"]()
    if mode == "train":
        net = classifier_loss_module()(net, _B, 10)
    return net, (torch.rand(_T, _B, 1, 28, 28) * 4,), {}


def _convnet(mode):
    """``models.conv.ConvNet`` (28x28, 2 steps): the output voltages."""
    import torch

    from norse.torch.models.conv import ConvNet

    return _wrap(ConvNet(), mode), (torch.rand(2, _B, 1, 28, 28) * 4,), {}


def _mnist(mode):
    import torch

    net = _modules()["MnistLIFConvNet"]()
    if mode == "train":
        net = classifier_loss_module()(net, _B, 10)
    return net, (torch.rand(_B, 1, 28, 28) * 4,), {}


def _cifar(mode):
    import torch

    net = _modules()["CifarLIFConvNet"](loss=mode == "train")
    return net, (torch.rand(_B, 3, 8, 8) * 4, _labels(10)), {}


def _memory(mode):
    """Two repetitions of a 2-step sequence of 8 input spikes; the recall target one-hot in the
    second repetition only (``ys.sum(2).gt(0)`` selects it)."""
    import torch

    net = _modules()["MemoryNet"](loss=mode == "train")
    xs = (torch.rand(_B, 4, _F) < 0.5).float()
    ys = torch.zeros(_B, 2, 2)
    ys[:, 1, 0] = 1.0
    return net, (xs, ys), {}


def _cartpole(mode):
    import torch

    return _wrap(_modules()["LSNNPolicy"](), mode), (torch.randn(_B, 4),), {}


def _vgg(mode):
    """``make_layers`` of a tiny config with batch norm (``Lift(Conv2d)``, ``Lift(BatchNorm2d)``,
    ``LIF``, ``Lift(MaxPool2d)``), 16x16 RGB, 2 steps."""
    import torch

    from norse.torch.models.vgg import make_layers

    features = make_layers([8, "M", 16, "M", 16, "M"], batch_norm=True)
    net = _modules()["TinyVGG"](features, 16)
    return _wrap(net, mode), (torch.randn(2, _B, 3, 16, 16),), {}


def _mobilenet(mode):
    """``MobileNetV2`` at width 0.25 with three inverted-residual stages, 32x32 RGB, 2 steps."""
    import torch

    from norse.torch.models.mobilenet import MobileNetV2

    net = MobileNetV2(num_classes=10, width_mult=0.25, round_nearest=4,
                      inverted_residual_setting=[[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 1, 2]])
    return _wrap(net, mode), (torch.randn(2, _B, 3, 32, 32),), {}


MODELS = {
    # --- feedforward cells, stepped ---
    "LIFCell": _cell(_lif_cell("super")),
    "LIFCell_heaviside": _cell(_lif_cell("heaviside")),
    "LIFCell_triangle": _cell(_lif_cell("triangle")),
    "CobaLIFCell": _cell(_coba),
    "LIFBoxCell": _cell(_lif_box),
    "LIFCell_RegularizationCell": _regularized,
    # --- time layers ---
    "LIF_LI_layers": _lif_layer,
    "LIF_record_states": _layer(_lif_record),
    "LSNN": _layer(_lsnn),
    "IAF": _layer(_iaf),
    "Izhikevich_tonic_spiking": _izhikevich,
    "IzhikevichRecurrent_tonic_bursting": _layer(_izhikevich_recurrent),
    "LIFAdExRecurrent": _layer(_lif_adex_recurrent),
    "LIFRecurrent_stack": _stack("LIFRecurrent"),
    "LSNNRecurrent_readme": _lsnn_recurrent_readme,
    # --- recurrent cells, stepped ---
    "LIFRecurrentCell_autapses": _cell(_recurrent_cell("LIFRecurrentCell", autapses=True)),
    "LSNNRecurrentCell_adjoint": _lsnn_recurrent_cell_adjoint,
    "LIFMCRecurrentCell": _cell(_recurrent_cell("LIFMCRecurrentCell")),
    "PoissonEncoder_LIFRecurrentCell": _training_net,
    "LIFCorrelation": _correlation,
    # --- encoders, decoders ---
    "ConstantCurrent_SpikeLatency_LIFRecurrent": _latency_encoded,
    "SpikeLatencyLIFEncoder_LIFRecurrent": _latency_lif_encoded,
    "SignedPoissonEncoder_LIFRecurrent": _signed_poisson,
    "PopulationEncoder_LIFCell": _population,
    "SpikesToTimesDecoder": _decoded,
    # --- containers, lifting, receptive fields, filters ---
    "SequentialState_conv_rnn": _state_sequence_conv,
    "RecurrentSequential": _simple("RecurrentFeedback", _seq),
    "Lift_LIFCell": _simple("LiftedCell", _seq),
    "LConv2d_LIF": _simple("LConvNet", _lconv_input),
    "SampledSpatialReceptiveField2d": _simple("ReceptiveFieldNet", _rf_input),
    "TemporalReceptiveField": _simple("TemporalRF", _seq),
    "ExpFilter": _simple("FilteredLIF", _seq),
    # --- whole nets ---
    "README_conv_classifier": _readme_conv,
    "ConvNet": _convnet,
    "MNIST_LIFConvNet": _mnist,
    "CIFAR10_LIFConvNet": _cifar,
    "MemoryNet_lsnnlif": _memory,
    "Cartpole_LSNNPolicy": _cartpole,
    "VGG_bn_tiny": _vgg,
    "MobileNetV2_tiny": _mobilenet,
}
