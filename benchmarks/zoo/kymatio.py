"""kymatio 0.3.0, its torch frontend (``kymatio.torch``): wavelet scattering transforms, each an
``nn.Module`` whose Morlet / Gabor / solid-harmonic filters are made with numpy and scipy at
construction and held as buffers (no parameters), tiny (1-D signals of 2**8-2**10 samples, 2-D
images of 32x32 and 28x28, 3-D densities of 16**3), random inputs, no download:

- ``Scattering1D``: ``J``, ``Q`` (an int and a ``(Q1, Q2)`` tuple), ``T`` (the default 2**J, a
  custom averaging scale, ``T=0`` for no averaging), the deprecated ``average=False``,
  ``max_order`` 1 and 2, ``oversampling``, ``out_type`` "array" / "list" / "dict", a batch of
  multichannel signals (``(batch, channels, time)``), float64 (the module and input ``.double()``),
  and the entry point ``kymatio.Scattering1D(..., frontend="torch")``;
- ``Scattering2D``: ``J``, ``L``, ``max_order`` 1 and 2, ``out_type`` "array" / "list",
  ``pre_pad=True`` (an input padded by the user), a non-power-of-two 28x28 image, RGB batches,
  float64, and ``kymatio.Scattering2D(..., frontend="torch")``;
- ``HarmonicScattering3D``: ``J``, ``L``, ``sigma_0``, ``max_order`` 1 and 2,
  ``rotation_covariant`` on and off, custom ``integral_powers``, on molecular densities made with
  ``kymatio.scattering3d.utils.generate_weighted_sum_of_gaussians`` (a few random atoms, as the
  QM7 example does);
- the scattering as the frozen front end of small models, as kymatio's examples use it: the
  spoken-digit classifier (log-scattering averaged over time, zeroth order dropped, a linear
  layer; ``examples/1d/plot_classif_torch.py``), a Conv1d head, order-2 coefficients selected by
  ``meta()``; the MNIST linear / MLP / CNN heads (``examples/2d/mnist.py``,
  ``plot_mnist_classify_torch.py``), the CIFAR hybrid ScatteringResNet
  (``cifar_small_sample.py``, width 1, one block per stage), the regularised-inverse Generator
  (``regularized_inverse_scattering_MNIST_torch.py``), and the QM7 regression on order-0
  integrals (``TorchBackend3D.compute_integrals``) plus 3-D scattering
  (``examples/3d/scattering3d_qm7_torch.py``, a linear head in torch instead of sklearn);
- synthesis by gradient descent on the input (``examples/1d/reconstruct_torch.py``,
  ``examples/2d/plot_invert_scattering_torch.py``): a signal / image held as a parameter, the
  distance of its scattering to a target's.

Eval: the scattering coefficients (or the logits, energies, reconstruction). Train: the
transforms as the front end of a linear classifier (cross-entropy against fixed labels,
``classifier_loss_module``) or, for 3-D, a linear energy regression (MSE); the front-end models
train on their own losses: cross-entropy for the classifiers, L1 for the Generator, and the
synthesis distance (its gradient goes to the input parameter).

    pip install --no-deps kymatio==0.3.0          # (+ numpy, scipy, packaging: installed)

It imports torch, numpy, scipy and packaging (``appdirs`` and ``configparser``, in its
requirements, are imported nowhere in 0.3.0). Nothing stubbed; one compatibility alias:
``kymatio.scattering3d.filter_bank`` imports ``scipy.special.sph_harm``, which scipy 1.17
removed (``sph_harm_y(n, m, polar, azimuthal)`` replaces ``sph_harm(m, n, azimuthal, polar)``):
the factories set ``scipy.special.sph_harm`` to that if it is missing, as a user of the
installed scipy must (``import kymatio`` fails without it).

Left out: ``TimeFrequencyScattering`` (joint time-frequency scattering is not in 0.3.0; it came
in 0.4), the numpy / tensorflow / keras / jax / sklearn frontends (not installed), the
``torch_skcuda`` backends (CUDA and scikit-cuda), ``kymatio.datasets`` (downloads), and the
3-D ``points=`` / ``method`` other than "integral" (0.3.0 raises for any other method).
"""

import functools

PACKAGE = "kymatio"

_B, _CLASSES = 4, 3
_N1 = 2 ** 10  # 1-D signal length
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite


def _kymatio():
    """``kymatio.torch``, after restoring the scipy alias that the 3-D filter bank imports."""
    import scipy.special

    if not hasattr(scipy.special, "sph_harm"):
        def sph_harm(m, n, theta, phi):  # the removed signature: theta azimuthal, phi polar
            return scipy.special.sph_harm_y(n, m, phi, theta)

        scipy.special.sph_harm = sph_harm
    import kymatio.torch

    return kymatio.torch


def warm_up():
    import torch  # noqa: F401

    _kymatio()


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn

    def _pooled(S):
        """Scattering output of any ``out_type`` -> ``(batch, coefficients)``, each coefficient
        averaged over time / space (unaveraged 1-D coefficients differ in length)."""
        if isinstance(S, dict):
            return torch.stack([v.mean(-1) for v in S.values()], -1)
        if isinstance(S, list):
            return torch.stack([c["coef"].mean(-1) for c in S], -1)
        return S.flatten(1, -2).mean(-1) if S.dim() > 2 else S

    class LogScatteringClassifier(nn.Module):
        """The spoken-digit classifier: log-scattering (zeroth order dropped for arrays),
        averaged over time, standardised by a BatchNorm, then a linear layer."""

        def __init__(self, scattering, features, log_eps=1e-6):
            super().__init__()
            self.scattering, self.log_eps = scattering, log_eps
            self.norm = nn.BatchNorm1d(features, affine=False)
            self.fc = nn.Linear(features, _CLASSES)

        def forward(self, x):
            S = self.scattering(x)
            if isinstance(S, torch.Tensor):
                S = S[..., 1:, :].flatten(1, -2)
                feats = torch.log(torch.abs(S) + self.log_eps).mean(-1)
            else:
                feats = torch.log(_pooled(S) + self.log_eps)
            return self.fc(self.norm(feats))

    class FlatClassifier(nn.Module):
        """Scattering coefficients (any shape, any out_type) flattened into a linear layer."""

        def __init__(self, scattering, features, log_eps=1e-6):
            super().__init__()
            self.scattering, self.log_eps = scattering, log_eps
            self.fc = nn.Linear(features, _CLASSES)

        def forward(self, x):
            S = self.scattering(x)
            if isinstance(S, list):
                S = torch.stack([c["coef"] for c in S], 1)
            return self.fc(torch.log(S.abs().flatten(1) + self.log_eps))

    class Conv1dClassifier(nn.Module):
        """Log-scattering channels through a small Conv1d network."""

        def __init__(self, scattering, channels):
            super().__init__()
            self.scattering = scattering
            self.net = nn.Sequential(nn.BatchNorm1d(channels), nn.Conv1d(channels, 16, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, _CLASSES))

        def forward(self, x):
            S = self.scattering(x)[:, 1:, :]
            return self.net(torch.log1p(S))

    class OrderSelectClassifier(nn.Module):
        """Only the second-order coefficients, picked by ``scattering.meta()['order']``."""

        def __init__(self, scattering):
            super().__init__()
            self.scattering = scattering
            order = torch.as_tensor(scattering.meta()["order"])
            self.register_buffer("order2", torch.nonzero(order == 2).flatten())
            self.fc = nn.Linear(len(self.order2), _CLASSES)

        def forward(self, x):
            S = self.scattering(x)[:, self.order2, :]
            return self.fc(torch.log(S.mean(-1) + 1e-6))

    class View(nn.Module):
        def __init__(self, *args):
            super().__init__()
            self.shape = args

        def forward(self, x):
            return x.view(-1, *self.shape)

    class Hybrid(nn.Module):
        """``model(scattering(x))``: a head over the scattering, as the 2-D examples train."""

        def __init__(self, scattering, head):
            super().__init__()
            self.scattering, self.head = scattering, head

        def forward(self, x):
            return self.head(self.scattering(x))

    class BasicBlock(nn.Module):
        def __init__(self, inplanes, planes, stride=1, downsample=None):
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = downsample

        def forward(self, x):
            residual = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                residual = self.downsample(x)
            out += residual
            return self.relu(out)

    class Scattering2dResNet(nn.Module):
        """The CIFAR hybrid: scattering (J=2: 81 coefficients per colour at 8x8) into a ResNet."""

        def __init__(self, in_channels, k=1, n=1, num_classes=_CLASSES):
            super().__init__()
            self.inplanes = self.ichannels = 16 * k
            self.K = in_channels
            self.init_conv = nn.Sequential(nn.BatchNorm2d(in_channels, eps=1e-5, affine=False),
                                           nn.Conv2d(in_channels, self.ichannels, 3, 1, 1, bias=False),
                                           nn.BatchNorm2d(self.ichannels), nn.ReLU(True))
            self.layer2 = self._make_layer(32 * k, n)
            self.layer3 = self._make_layer(64 * k, n)
            self.avgpool = nn.AdaptiveAvgPool2d(2)
            self.fc = nn.Linear(64 * k * 4, num_classes)

        def _make_layer(self, planes, blocks):
            downsample = None
            if self.inplanes != planes:
                downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes, 1, bias=False), nn.BatchNorm2d(planes))
            layers = [BasicBlock(self.inplanes, planes, 1, downsample)]
            self.inplanes = planes
            layers += [BasicBlock(planes, planes) for _ in range(1, blocks)]
            return nn.Sequential(*layers)

        def forward(self, x):
            x = x.view(x.size(0), self.K, 8, 8)
            x = self.layer3(self.layer2(self.init_conv(x)))
            return self.fc(self.avgpool(x).view(x.size(0), -1))

    class Generator(nn.Module):
        """The regularised inverse: scattering coefficients (7x7) back to a 28x28 image."""

        def __init__(self, num_input_channels, num_hidden_channels, num_output_channels=1, filter_size=3):
            super().__init__()
            p = (filter_size - 1) // 2
            self.main = nn.Sequential(
                nn.ReflectionPad2d(p), nn.Conv2d(num_input_channels, num_hidden_channels, filter_size, bias=False),
                nn.BatchNorm2d(num_hidden_channels, eps=0.001, momentum=0.9), nn.ReLU(inplace=True),
                nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
                nn.ReflectionPad2d(p), nn.Conv2d(num_hidden_channels, num_hidden_channels, filter_size, bias=False),
                nn.BatchNorm2d(num_hidden_channels, eps=0.001, momentum=0.9), nn.ReLU(inplace=True),
                nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
                nn.ReflectionPad2d(p), nn.Conv2d(num_hidden_channels, num_output_channels, filter_size, bias=False),
                nn.BatchNorm2d(num_output_channels, eps=0.001, momentum=0.9), nn.Tanh())

        def forward(self, input_tensor):
            return self.main(input_tensor)

    class InverseScattering(nn.Module):
        """Scattering (frozen) then the Generator; train: the L1 error to the input image."""

        def __init__(self, scattering, generator, loss=False):
            super().__init__()
            self.scattering, self.generator, self.loss = scattering, generator, loss
            self.criterion = nn.L1Loss()

        def forward(self, images):
            z = self.scattering(images).squeeze(1)
            out = self.generator(z)
            return self.criterion(out, images) if self.loss else out

    class Synthesis(nn.Module):
        """Reconstruction by gradient descent: the signal is a parameter (noise at first), the
        loss the distance of its scattering to the target's (``Sy``, computed once)."""

        def __init__(self, scattering, init, relative=True):
            super().__init__()
            self.scattering, self.relative = scattering, relative
            self.x = nn.Parameter(init)

        def forward(self, Sy):
            Sx = self.scattering(self.x)
            err = torch.norm(Sx - Sy)
            return err / torch.norm(Sy) if self.relative else err

    class HarmonicRegressor(nn.Module):
        """QM7: order-0 integrals of the density and its 3-D scattering, a linear energy
        regression; train: the MSE against fixed energies."""

        def __init__(self, scattering, features, integral_powers, loss=False):
            super().__init__()
            from kymatio.scattering3d.backend.torch_backend import TorchBackend3D

            self.scattering, self.integral_powers, self.loss = scattering, integral_powers, loss
            self.compute_integrals = TorchBackend3D.compute_integrals
            self.norm = nn.BatchNorm1d(features)
            self.fc = nn.Linear(features, 1)
            self.register_buffer("energies", torch.linspace(-1.0, 1.0, _B).unsqueeze(1))

        def forward(self, density):
            order_0 = self.compute_integrals(density, self.integral_powers)
            orders_1_and_2 = self.scattering(density)
            feats = torch.cat([order_0, orders_1_and_2.flatten(1)], 1)
            energy = self.fc(self.norm(feats))
            return nn.functional.mse_loss(energy, self.energies) if self.loss else energy

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _signal(n=_N1, batch=_B):
    """``(batch, n)``: a chirp and a few tones with a little noise."""
    import math

    import torch

    t = torch.linspace(0, 1, n)
    freqs = torch.linspace(4.0, 90.0, batch)[:, None]
    tones = torch.sin(2 * math.pi * freqs * t)
    chirp = torch.sin(2 * math.pi * (5 * t + 60 * t ** 2))
    return tones + 0.5 * chirp + 0.05 * torch.randn(batch, n)


def _image(channels=3, size=32, batch=_B):
    import torch

    return torch.rand(batch, channels, size, size) * 2 - 1


def _density(size=16, batch=_B, atoms=4, sigma=1.0):
    """Sums of Gaussians at random atom positions weighted by random charges (QM7-like)."""
    import numpy as np
    import torch
    from kymatio.scattering3d.utils import generate_weighted_sum_of_gaussians

    rng = np.random.RandomState(0)
    grid = np.mgrid[-size // 2:-size // 2 + size, -size // 2:-size // 2 + size, -size // 2:-size // 2 + size]
    grid = np.fft.ifftshift(grid.astype("float32"), axes=(1, 2, 3))
    positions = rng.uniform(-size / 4, size / 4, (batch, atoms, 3))
    charges = rng.randint(1, 9, (batch, atoms)).astype("float32")
    return torch.from_numpy(generate_weighted_sum_of_gaussians(grid, positions, charges, sigma)).float()


# --- models ------------------------------------------------------------------------------------

def _run(scattering, x):
    """The scattering's output, from one run without gradients (to size a head)."""
    import torch

    with torch.no_grad():
        return scattering(x)


def _s1d(n=_N1, J=6, batch_shape=None, double=False, log_head=True, **kwargs):
    """A ``Scattering1D``: eval, its coefficients; train, the log-scattering classifier."""

    def make(mode):
        K = _kymatio()
        scattering = K.Scattering1D(J=J, shape=n, **kwargs)
        x = _signal(n)
        if batch_shape:
            x = _signal(n, batch=_B * batch_shape).reshape(_B, batch_shape, n)
        if double:
            scattering, x = scattering.double(), x.double()
        if mode == "eval":
            return scattering, (x,), {}
        S = _run(scattering, x)
        features = len(S) if isinstance(S, (list, dict)) else S[..., 1:, :].flatten(1, -2).shape[1]
        net = _nets().LogScatteringClassifier(scattering, features)
        if double:
            net = net.double()
        return classifier_loss_module()(net, _B, _CLASSES), (x,), {}

    return make


def _s1d_entry(mode):
    _kymatio()
    from kymatio import Scattering1D

    scattering = Scattering1D(J=5, shape=(2 ** 9,), Q=4, frontend="torch")
    x = _signal(2 ** 9)
    if mode == "eval":
        return scattering, (x,), {}
    features = _run(scattering, x)[:, 1:].shape[1]
    return classifier_loss_module()(_nets().LogScatteringClassifier(scattering, features), _B, _CLASSES), (x,), {}


def _s1d_conv(mode):
    K = _kymatio()
    scattering = K.Scattering1D(J=5, shape=_N1, Q=4)
    x = _signal()
    channels = _run(scattering, x).shape[1] - 1
    net = _nets().Conv1dClassifier(scattering, channels)
    return (classifier_loss_module()(net, _B, _CLASSES) if mode == "train" else net), (x,), {}


def _s1d_meta(mode):
    K = _kymatio()
    scattering = K.Scattering1D(J=5, shape=_N1, Q=(4, 1))
    net = _nets().OrderSelectClassifier(scattering)
    x = _signal()
    return (classifier_loss_module()(net, _B, _CLASSES) if mode == "train" else net), (x,), {}


def _s1d_synthesis(mode):
    import torch

    K = _kymatio()
    scattering = K.Scattering1D(J=5, shape=_N1, Q=4)
    y = _signal(batch=1)
    with torch.no_grad():
        Sy = scattering(y)
    return _nets().Synthesis(scattering, torch.randn(1, _N1)), (Sy,), {}


def _s2d(size=32, channels=3, double=False, pre_pad=False, **kwargs):
    """A ``Scattering2D``: eval, its coefficients; train, a linear classifier on their log."""

    def make(mode):
        import torch.nn.functional as F

        K = _kymatio()
        scattering = K.Scattering2D(shape=(size, size), pre_pad=pre_pad, **kwargs)
        x = _image(channels, size)
        if pre_pad:  # the user pads to the transform's padded size (reflect, as kymatio does)
            pm, pn = scattering._M_padded - size, scattering._N_padded - size
            x = F.pad(x, (pn // 2, (pn + 1) // 2, pm // 2, (pm + 1) // 2), mode="reflect").contiguous()
        if double:
            scattering, x = scattering.double(), x.double()
        if mode == "eval":
            return scattering, (x,), {}
        S = _run(scattering, x)
        features = len(S) * S[0]["coef"][0].numel() if isinstance(S, list) else S[0].numel()
        net = _nets().FlatClassifier(scattering, features)
        if double:
            net = net.double()
        return classifier_loss_module()(net, _B, _CLASSES), (x,), {}

    return make


def _s2d_entry(mode):
    _kymatio()
    from kymatio import Scattering2D

    scattering = Scattering2D(J=2, shape=(28, 28), frontend="torch")
    x = _image(1, 28)
    if mode == "eval":
        return scattering, (x,), {}
    net = _nets().FlatClassifier(scattering, _run(scattering, x)[0].numel())
    return classifier_loss_module()(net, _B, _CLASSES), (x,), {}


def _mnist_head(kind):
    """The MNIST heads of ``examples/2d/mnist.py`` over ``Scattering2D(J=2, shape=(28, 28))``
    (81 coefficients at 7x7), made narrow."""

    def make(mode):
        from torch import nn

        K = _kymatio()
        n = _nets()
        scattering = K.Scattering2D(J=2, shape=(28, 28))
        C = 81
        if kind == "linear":
            head = nn.Sequential(n.View(C, 7, 7), nn.BatchNorm2d(C), n.View(C * 7 * 7), nn.Linear(C * 7 * 7, _CLASSES))
        elif kind == "mlp":
            head = nn.Sequential(n.View(C, 7, 7), nn.BatchNorm2d(C), n.View(C * 7 * 7), nn.Linear(C * 7 * 7, 64),
                                 nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, _CLASSES))
        else:
            head = nn.Sequential(n.View(C, 7, 7), nn.BatchNorm2d(C), nn.Conv2d(C, 32, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), n.View(32 * 3 * 3),
                                 nn.Linear(32 * 3 * 3, 64), nn.ReLU(), nn.Linear(64, _CLASSES))
        net = n.Hybrid(scattering, head)
        x = _image(1, 28)
        return (classifier_loss_module()(net, _B, _CLASSES) if mode == "train" else net), (x,), {}

    return make


def _cifar_resnet(mode):
    K = _kymatio()
    n = _nets()
    net = n.Hybrid(K.Scattering2D(J=2, shape=(32, 32)), n.Scattering2dResNet(81 * 3))
    return (classifier_loss_module()(net, _B, _CLASSES) if mode == "train" else net), (_image(3, 32),), {}


def _generator(mode):
    K = _kymatio()
    n = _nets()
    net = n.InverseScattering(K.Scattering2D(J=2, shape=(28, 28)), n.Generator(81, 32), loss=mode == "train")
    return net, (_image(1, 28),), {}


def _s2d_synthesis(mode):
    import torch

    K = _kymatio()
    scattering = K.Scattering2D(J=2, shape=(32, 32), L=4)
    with torch.no_grad():
        Sy = scattering(_image(1, 32, batch=1))
    return _nets().Synthesis(scattering, torch.rand(1, 1, 32, 32), relative=False), (Sy,), {}


def _h3d(J=2, L=2, integral_powers=(0.5, 1.0, 2.0), **kwargs):
    """A ``HarmonicScattering3D`` on 16**3 densities: eval, its coefficients; train, the QM7
    energy regression on order-0 integrals plus the scattering."""

    def make(mode):
        K = _kymatio()
        scattering = K.HarmonicScattering3D(J=J, shape=(16, 16, 16), L=L, integral_powers=integral_powers, **kwargs)
        x = _density(sigma=kwargs.get("sigma_0", 1.0))
        if mode == "eval":
            return scattering, (x,), {}
        features = len(integral_powers) + _run(scattering, x)[0].numel()
        return _nets().HarmonicRegressor(scattering, features, integral_powers, loss=True), (x,), {}

    return make


def _qm7(mode):
    K = _kymatio()
    powers = (0.5, 1.0, 2.0, 3.0)
    scattering = K.HarmonicScattering3D(J=2, shape=(16, 16, 16), L=2, sigma_0=1.5, integral_powers=powers)
    x = _density(sigma=1.5)
    features = len(powers) + _run(scattering, x)[0].numel()
    return _nets().HarmonicRegressor(scattering, features, powers, loss=mode == "train"), (x,), {}


MODELS = {
    # Scattering1D
    "Scattering1D_J6_Q8": _s1d(J=6, Q=8),
    "Scattering1D_J4_Q1_256": _s1d(n=2 ** 8, J=4, Q=1),
    "Scattering1D_Q_tuple": _s1d(J=5, Q=(4, 2)),
    "Scattering1D_max_order1": _s1d(J=6, Q=8, max_order=1),
    "Scattering1D_T_custom": _s1d(J=5, Q=4, T=2 ** 4),
    "Scattering1D_oversampling": _s1d(n=2 ** 9, J=5, Q=4, oversampling=1),
    "Scattering1D_out_list": _s1d(J=6, Q=8, out_type="list"),
    "Scattering1D_out_dict": _s1d(n=2 ** 9, J=5, Q=4, out_type="dict"),
    "Scattering1D_T0_list": _s1d(n=2 ** 9, J=5, Q=4, T=0, out_type="list"),
    "Scattering1D_no_average_dict": _s1d(n=2 ** 9, J=4, Q=2, average=False, out_type="dict"),
    "Scattering1D_multichannel": _s1d(n=2 ** 9, J=5, Q=4, batch_shape=2),
    "Scattering1D_float64": _s1d(n=2 ** 9, J=5, Q=4, double=True),
    "Scattering1D_entry_frontend": _s1d_entry,
    "Scattering1D_conv1d_classifier": _s1d_conv,
    "Scattering1D_meta_order2_classifier": _s1d_meta,
    "Scattering1D_synthesis": _s1d_synthesis,
    # Scattering2D
    "Scattering2D_J2_cifar": _s2d(J=2),
    "Scattering2D_J3_L4": _s2d(J=3, L=4, channels=1),
    "Scattering2D_max_order1": _s2d(J=2, L=6, max_order=1),
    "Scattering2D_out_list": _s2d(J=2, L=4, out_type="list", channels=1),
    "Scattering2D_pre_pad": _s2d(J=2, L=4, pre_pad=True, channels=1),
    "Scattering2D_mnist28": _s2d(size=28, J=2, channels=1),
    "Scattering2D_float64": _s2d(J=2, L=4, channels=1, double=True),
    "Scattering2D_entry_frontend": _s2d_entry,
    "Scattering2D_mnist_linear": _mnist_head("linear"),
    "Scattering2D_mnist_mlp": _mnist_head("mlp"),
    "Scattering2D_mnist_cnn": _mnist_head("cnn"),
    "Scattering2D_cifar_resnet": _cifar_resnet,
    "Scattering2D_inverse_generator": _generator,
    "Scattering2D_synthesis": _s2d_synthesis,
    # HarmonicScattering3D
    "HarmonicScattering3D_J2_L2": _h3d(),
    "HarmonicScattering3D_max_order1": _h3d(J=2, L=3, max_order=1),
    "HarmonicScattering3D_not_covariant": _h3d(J=1, L=2, rotation_covariant=False),
    "HarmonicScattering3D_sigma_powers": _h3d(J=2, L=1, sigma_0=1.5, integral_powers=(1.0, 2.0, 3.0)),
    "HarmonicScattering3D_qm7_regression": _qm7,
}
