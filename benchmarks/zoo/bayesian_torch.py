"""bayesian-torch 0.5.0 (Intel Labs: Krishnan, Esposito, Subedar): Bayesian layers, conversion of
deterministic models and the Bayesian models it ships, as its README and its examples
(``bayesian_torch/examples/main_bayesian_cifar.py``, ``main_bayesian_mnist.py``,
``main_bayesian_cifar_dnn2bnn.py``, the AvUC variant) use them, tiny (batch 2-4, 8-16 features,
1x28x28 / 3x16x16 / 3x32x32 images, 2x8x8x8 volumes, sequences of 5 steps, 4-10 classes), random
weights, no download:

- the mean-field layers with the reparameterization trick and with Flipout, each returning
  ``(out, kl)``: ``LinearReparameterization`` / ``LinearFlipout`` (with and without bias),
  ``Conv1d`` / ``Conv2d`` / ``Conv3d`` (stride, padding, dilation, groups) and
  ``ConvTranspose1d`` / ``2d`` / ``3d`` in both families, ``LSTMReparameterization`` /
  ``LSTMFlipout`` (a Python loop over time steps; zero or given initial states);
- ``return_kl=False`` with the KL taken afterwards by ``get_kl_loss`` (each layer's
  ``kl_loss()``), and the ``bayesian_torch.layers`` wrappers that take ``(x, kl)`` tuples
  (``BatchNorm2dLayer``, ``BatchNorm1dLayer``, ``ReLU``, ``Dropout``);
- ``dnn_to_bnn`` (the README's prior dict) on a user MLP (Reparameterization), on the shipped
  deterministic MNIST ``SCNN`` (Flipout, MOPED initialisation from the deterministic weights), on a
  user ``nn.LSTM`` classifier and on the shipped deterministic CIFAR ``resnet20`` (Flipout): the
  converted layers return the output only (``dnn_to_bnn_flag``) and the loss takes
  ``get_kl_loss(model)``;
- the shipped Bayesian models: CIFAR ``resnet20`` (``resnet_variational``, ``resnet_flipout``),
  the ImageNet ``ResNet`` of ``resnet_variational_large`` (``BasicBlock``) and
  ``resnet_flipout_large`` (``Bottleneck``) cut to one block per stage with 10 classes (their
  ``avgpool`` replaced by an adaptive one so a 32x32 input fits), and the MNIST ``SCNN`` of
  ``simple_cnn_variational`` and ``flipout.simple_cnn``;
- Monte-Carlo prediction as the README does it (4 forward passes, softmax, mean, argmax), with
  ``utils.util.predictive_entropy`` / ``mutual_information`` (NumPy) on the samples, and the
  accuracy-versus-uncertainty loss ``utils.avuc_loss.AvULoss`` (a Python loop with ``.item()`` per
  sample) as the AvUC example adds it.

Eval: the logits (and the KL where the model returns it). Train: the examples' ELBO,
cross-entropy (``nll_loss`` for the log-softmax MNIST models) plus ``kl / batch_size``; the
Monte-Carlo entry averages it over the samples; the AvUC entry adds ``3 * AvULoss``; the
decoders use an MSE reconstruction term instead of cross-entropy.

    pip install --no-deps bayesian-torch==0.5.0

Its metadata requires torchvision, tensorboard and scikit-learn; nothing on the paths used
imports torchvision or tensorboard (the models and layers import torch only; ``utils.avuc_loss``
imports ``sklearn.metrics.auc``, and scikit-learn is already there). Nothing stubbed. Measured
first as it came, before any rule looked at it.

Left out: the quantized path (``bnn_to_qbnn``, the ``Quantized*`` layers, ``qresnet*``,
``prepare`` / ``convert``): a post-training quantization flow over quantized CPU kernels, not a
model forward; ``AUAvULoss`` (it hands a list of tensors to ``sklearn.metrics.auc``);
``utils.util.MOPED`` (loads a checkpoint file; ``dnn_to_bnn``'s ``moped_enable`` covers it);
the deeper ``resnet32`` ... ``resnet110`` / ``resnet34`` ... ``resnet152`` (the same blocks).

Notes: 0.5.0's ``ConvTranspose{1,2,3}dFlipout`` size ``prior_weight_sigma`` as (out, in, ...) against
(in, out, ...) kernels, so they run only with as many channels out as in (the entries keep them
equal and map channels with a plain convolution); ``Conv3dReparameterization`` takes the four prior
arguments as required positionals (passed by name here).

Capture (torch 2.13.0+cpu): 28 models, 56 runs, all built, all 56 ran under Dynamo (none failed in
Dynamo itself). Everything but the AvUC loss compiles into one graph: the layers' in-place
``eps.data.normal_()`` on buffers, Flipout's random signs, the LSTM layers' Python loops over
time, ``dnn_to_bnn``'s flag, ``get_kl_loss``, the tuple wrappers and the NumPy uncertainty
measures (traced as tensor code) break nothing. The one break statement: ``AvULoss.forward``'s
per-sample ``labels[i].item() == predictions[i].item()`` (``avuc_loss.py:156``, GB0124 inside the
loop, a frame skip), in ``AvUC_loss`` eval and train.

First numbers (frozen linter of stop 54, ``/tmp/lint-start54/src``): graph-break recall 1.00 (1/1),
precision on executed lines 1.00 (6/6), 128 findings in the source (96 in files run), 90 unjudged
(80 not reached, 69 of them in ``utils/avuc_loss.py``: ``AUAvULoss``, the
``accuracy_vs_uncertainty`` helpers and ``AvULoss``'s branches no sample took; 10 shadowed, the
``.item()`` calls after the first break in ``AvULoss``'s loop; 32 more findings sit in files no
run executed). Nothing missed, no false alarm.
"""

import functools

PACKAGE = "bayesian_torch"
DISTRIBUTION = "bayesian-torch"

_B = 4  # batch
_C = 10  # classes
_PRIOR = {  # the README's bnn_prior_parameters
    "prior_mu": 0.0,
    "prior_sigma": 1.0,
    "posterior_mu_init": 0.0,
    "posterior_rho_init": -3.0,
    "type": "Reparameterization",
    "moped_enable": False,
    "moped_delta": 0.5,
}


def warm_up():
    """Imports once per zygote: the library, its models and ``utils.avuc_loss`` (which imports
    scikit-learn, a second and more)."""
    import torch  # noqa: F401

    import bayesian_torch.layers  # noqa: F401
    import bayesian_torch.models.dnn_to_bnn  # noqa: F401
    import bayesian_torch.utils.avuc_loss  # noqa: F401
    import bayesian_torch.utils.util  # noqa: F401


@functools.cache
def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    import bayesian_torch.layers as bl
    from bayesian_torch.models.dnn_to_bnn import get_kl_loss

    class BayesMLP(nn.Module):
        def __init__(self, kind, d=16, h=32, c=_C):
            super().__init__()
            lin = getattr(bl, "Linear" + kind)
            self.fc1 = lin(d, h)
            self.fc2 = lin(h, h, prior_variance=0.5, posterior_rho_init=-4.0, bias=False)
            self.fc3 = lin(h, c)

        def forward(self, x):
            kl_sum = 0
            x, kl = self.fc1(x)
            kl_sum += kl
            x, kl = self.fc2(F.relu(x))
            kl_sum += kl
            x, kl = self.fc3(F.relu(x))
            return x, kl_sum + kl

    class BayesCNN(nn.Module):
        """Two Bayesian convolutions (stride / padding, then dilation / groups), a pooled
        Bayesian linear head."""

        def __init__(self, dims, kind, c_in=3, c=_C):
            super().__init__()
            conv = getattr(bl, f"Conv{dims}d{kind}")
            prior = dict(prior_mean=0.0, prior_variance=1.0, posterior_mu_init=0.0, posterior_rho_init=-3.0)
            # (Conv3dReparameterization takes the prior arguments as required positionals)
            self.conv1 = conv(c_in, 8, kernel_size=3, stride=2, padding=1, **prior)
            self.conv2 = conv(8, 8, kernel_size=3, padding=2, dilation=2, groups=2, bias=False, **prior)
            self.fc = getattr(bl, "Linear" + kind)(8, c)
            self.dims = dims

        def forward(self, x):
            kl_sum = 0
            x, kl = self.conv1(x)
            kl_sum = kl_sum + kl
            x, kl = self.conv2(F.relu(x))
            kl_sum = kl_sum + kl
            x = x.flatten(2).mean(-1)
            x, kl = self.fc(x)
            return x, kl_sum + kl

    class BayesDecoder(nn.Module):
        """A Bayesian decoder: a linear layer to a 8x4x4 map, two transposed convolutions up to
        8x16x16 (as many channels out as in: 0.5.0's Flipout transposed convolutions size their
        prior's sigma buffer (out, in, ...)), a 1x1 convolution to 3 channels."""

        def __init__(self, kind, z=8):
            super().__init__()
            self.fc = getattr(bl, "Linear" + kind)(z, 8 * 4 * 4)
            deconv = getattr(bl, "ConvTranspose2d" + kind)
            self.up1 = deconv(8, 8, kernel_size=4, stride=2, padding=1)
            self.up2 = deconv(8, 8, kernel_size=4, stride=2, padding=1, bias=False)
            self.to_rgb = nn.Conv2d(8, 3, 1)

        def forward(self, z):
            h, kl1 = self.fc(z)
            h, kl2 = self.up1(F.relu(h.view(-1, 8, 4, 4)))
            x, kl3 = self.up2(F.relu(h))
            return torch.sigmoid(self.to_rgb(x)), kl1 + kl2 + kl3

    class BayesTranspose13(nn.Module):
        """``ConvTranspose1d`` on a sequence and ``ConvTranspose3d`` on a volume, summed into one
        output pair."""

        def __init__(self, kind):
            super().__init__()
            self.up1d = getattr(bl, "ConvTranspose1d" + kind)(4, 4, kernel_size=3, stride=2)
            self.up3d = getattr(bl, "ConvTranspose3d" + kind)(2, 2, kernel_size=2, stride=2, bias=False)

        def forward(self, seq, vol):
            a, kl1 = self.up1d(seq)
            b, kl2 = self.up3d(vol)
            return torch.cat([a.flatten(1), b.flatten(1)], 1), kl1 + kl2

    class BayesLSTM(nn.Module):
        def __init__(self, kind, d=8, h=16, c=_C, init_state=False):
            super().__init__()
            self.lstm = getattr(bl, "LSTM" + kind)(d, h)
            self.fc = getattr(bl, "Linear" + kind)(h, c)
            self.h, self.init_state = h, init_state

        def forward(self, x):
            if self.init_state:
                h0 = torch.zeros(x.shape[0], self.h) + 0.1
                seq, (hs, cs), kl1 = self.lstm(x, hidden_states=(h0, h0.clone()))
            else:
                seq, (hs, cs), kl1 = self.lstm(x)
            out, kl2 = self.fc(seq[:, -1])
            return out, kl1 + kl2

    class NoKL(nn.Module):
        """Layers called with ``return_kl=False``; the KL comes from ``get_kl_loss``."""

        def __init__(self):
            super().__init__()
            self.conv = bl.Conv2dReparameterization(3, 8, 3, padding=1)
            self.fc1 = bl.LinearFlipout(8, 16)
            self.fc2 = bl.LinearReparameterization(16, _C)

        def forward(self, x):
            x = F.relu(self.conv(x, return_kl=False)).mean((2, 3))
            x = F.relu(self.fc1(x, return_kl=False))
            return self.fc2(x, return_kl=False)

    class Wrappers(nn.Module):
        """The ``(x, kl)``-tuple wrappers between Bayesian layers."""

        def __init__(self):
            super().__init__()
            self.conv = bl.Conv2dFlipout(3, 8, 3, padding=1)
            self.bn2d = bl.BatchNorm2dLayer(8)
            self.relu = bl.ReLU()
            self.drop = bl.Dropout(0.2)
            self.fc = bl.LinearReparameterization(8, 16)
            self.bn1d = bl.BatchNorm1dLayer(16)
            self.head = bl.LinearFlipout(16, _C)

        def forward(self, x):
            x, kl = self.bn2d(self.conv(x))
            x, _ = self.relu((x, kl))
            x, _ = self.drop((x, kl))
            h, kl2 = self.fc(x.mean((2, 3)))
            h, _ = self.bn1d((h.unsqueeze(-1), kl2))  # (N, C, L) inside an (x, kl) tuple
            h = h.squeeze(-1)
            out, kl3 = self.head(F.relu(h))
            return out, kl + kl2 + kl3

    class LSTMNet(nn.Module):
        """A deterministic LSTM classifier (converted by ``dnn_to_bnn``)."""

        def __init__(self, d=8, h=16):
            super().__init__()
            self.lstm = nn.LSTM(d, h, batch_first=True)
            self.fc = nn.Linear(h, _C)

        def forward(self, x):
            seq, _ = self.lstm(x)
            return self.fc(seq[:, -1])

    def split(out):
        if isinstance(out, tuple):
            return out[0], out[1]
        return out, None

    class ELBO(nn.Module):
        """The examples' loss: cross-entropy (``nll_loss`` on log-probabilities, MSE for a
        decoder) plus ``kl / batch_size``; the KL from the model's output, or ``get_kl_loss``
        when the model returns none."""

        def __init__(self, net, target, data="logits"):
            super().__init__()
            self.net, self.data = net, data
            self.register_buffer("target", target)
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args):
            out, kl = split(self.net(*args))
            if kl is None:
                kl = get_kl_loss(self.net)
            if self.data == "log_probs":
                fit = F.nll_loss(out, self.target)
            elif self.data == "image":
                fit = F.mse_loss(out, self.target)
            else:
                fit = F.cross_entropy(out, self.target)
            return fit + kl / out.shape[0]

    class MonteCarlo(nn.Module):
        """The README's Monte-Carlo prediction: ``n`` passes, softmax, mean, argmax, and the
        library's predictive entropy and mutual information of the samples; train: the ELBO
        averaged over the passes."""

        def __init__(self, net, target, n=4, loss=False):
            super().__init__()
            self.net, self.n, self.loss = net, n, loss
            self.register_buffer("target", target)
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x):
            from bayesian_torch.utils.util import mutual_information, predictive_entropy

            if self.loss:
                total = 0
                for _ in range(self.n):
                    out = self.net(x)
                    total = total + F.cross_entropy(out, self.target) + get_kl_loss(self.net) / x.shape[0]
                return total / self.n
            output_mc = []
            for _ in range(self.n):
                output_mc.append(F.softmax(self.net(x), dim=-1))
            output = torch.stack(output_mc)
            pred_mean = output.mean(dim=0)
            y_pred = torch.argmax(pred_mean, axis=-1)
            samples = output.detach().cpu().numpy()
            entropy = torch.as_tensor(predictive_entropy(samples))
            mi = torch.as_tensor(mutual_information(samples))
            return pred_mean, y_pred, entropy, mi

    class AvUC(nn.Module):
        """The AvUC example: ELBO plus ``beta * AvULoss(logits, labels, threshold)``."""

        def __init__(self, net, target, loss=False, beta=3.0, threshold=1.0):
            super().__init__()
            from bayesian_torch.utils.avuc_loss import AvULoss

            self.net, self.loss = net, loss
            self.avu = AvULoss()
            self.beta, self.threshold = beta, threshold
            self.register_buffer("target", target)
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x):
            out, kl = self.net(x)
            avu = self.avu(out, self.target, self.threshold, type=0).sum()  # AvULoss returns shape (1,)
            if not self.loss:
                return out, avu
            return F.cross_entropy(out, self.target) + kl / x.shape[0] + self.beta * avu

    return {"BayesMLP": BayesMLP, "BayesCNN": BayesCNN, "BayesDecoder": BayesDecoder,
            "BayesTranspose13": BayesTranspose13, "BayesLSTM": BayesLSTM, "NoKL": NoKL,
            "Wrappers": Wrappers, "LSTMNet": LSTMNet, "ELBO": ELBO, "MonteCarlo": MonteCarlo,
            "AvUC": AvUC}


# --- inputs -----------------------------------------------------------------------------------

def _labels(b=_B):
    import torch

    return torch.arange(b) % _C


def _randn(*shape):
    import torch

    return torch.randn(*shape)


def _with_loss(net, mode, b=_B, data="logits", target=None):
    if mode != "train":
        return net
    return _modules()["ELBO"](net, _labels(b) if target is None else target, data=data)


# --- factories --------------------------------------------------------------------------------

def _mlp(kind):
    def make(mode):
        return _with_loss(_modules()["BayesMLP"](kind), mode), (_randn(_B, 16),), {}

    return make


_CNN_INPUT = {1: (_B, 3, 16), 2: (_B, 3, 16, 16), 3: (2, 3, 8, 8, 8)}


def _cnn(dims, kind):
    def make(mode):
        shape = _CNN_INPUT[dims]
        return _with_loss(_modules()["BayesCNN"](dims, kind), mode, b=shape[0]), (_randn(*shape),), {}

    return make


def _decoder(kind):
    def make(mode):
        net = _modules()["BayesDecoder"](kind)
        return _with_loss(net, mode, data="image", target=_randn(_B, 3, 16, 16).sigmoid()), (_randn(_B, 8),), {}

    return make


def _transpose13(kind):
    def make(mode):
        net = _modules()["BayesTranspose13"](kind)
        args = (_randn(2, 4, 6), _randn(2, 2, 3, 3, 3))
        target = _randn(2, 4 * 13 + 2 * 6 * 6 * 6)
        return _with_loss(net, mode, b=2, data="image", target=target), args, {}

    return make


def _lstm(kind, init_state=False):
    def make(mode):
        net = _modules()["BayesLSTM"](kind, init_state=init_state)
        return _with_loss(net, mode), (_randn(_B, 5, 8),), {}

    return make


def _no_kl(mode):
    return _with_loss(_modules()["NoKL"](), mode), (_randn(_B, 3, 16, 16),), {}


def _wrappers(mode):
    return _with_loss(_modules()["Wrappers"](), mode), (_randn(_B, 3, 16, 16),), {}


def _prior(**kwargs):
    return dict(_PRIOR, **kwargs)


def _dnn_mlp():
    from torch import nn

    from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn

    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, _C))
    dnn_to_bnn(net, _prior())
    return net


def _dnn_to_bnn_mlp(mode):
    return _with_loss(_dnn_mlp(), mode), (_randn(_B, 16),), {}


def _dnn_to_bnn_scnn(mode):
    """The shipped deterministic MNIST SCNN, converted with Flipout and MOPED."""
    from bayesian_torch.models.deterministic.simple_cnn import SCNN
    from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn

    net = SCNN()
    dnn_to_bnn(net, _prior(type="Flipout", moped_enable=True, moped_delta=0.2))
    return _with_loss(net, mode, b=2, data="log_probs", target=_labels(2)), (_randn(2, 1, 28, 28),), {}


def _dnn_to_bnn_lstm(mode):
    from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn

    net = _modules()["LSTMNet"]()
    dnn_to_bnn(net, _prior())
    return _with_loss(net, mode), (_randn(_B, 5, 8),), {}


def _dnn_to_bnn_resnet20(mode):
    from bayesian_torch.models.deterministic.resnet import resnet20
    from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn

    net = resnet20()
    dnn_to_bnn(net, _prior(type="Flipout", posterior_rho_init=-4.0))
    return _with_loss(net, mode, b=2, target=_labels(2)), (_randn(2, 3, 32, 32),), {}


def _resnet20(module):
    def make(mode):
        import importlib

        net = importlib.import_module(f"bayesian_torch.models.bayesian.{module}").resnet20()
        return _with_loss(net, mode, b=2, target=_labels(2)), (_randn(2, 3, 32, 32),), {}

    return make


def _resnet_large(module, block):
    def make(mode):
        import importlib

        from torch import nn

        lib = importlib.import_module(f"bayesian_torch.models.bayesian.{module}")
        net = lib.ResNet(getattr(lib, block), [1, 1, 1, 1], num_classes=_C)
        net.avgpool = nn.AdaptiveAvgPool2d(1)  # the ImageNet AvgPool2d(7) needs 224x224 inputs
        return _with_loss(net, mode, b=2, target=_labels(2)), (_randn(2, 3, 32, 32),), {}

    return make


def _scnn(module):
    def make(mode):
        import importlib

        net = importlib.import_module(f"bayesian_torch.models.{module}").SCNN()
        return _with_loss(net, mode, b=2, data="log_probs", target=_labels(2)), (_randn(2, 1, 28, 28),), {}

    return make


def _monte_carlo(mode):
    net = _modules()["MonteCarlo"](_dnn_mlp(), _labels(), loss=mode == "train")
    return net, (_randn(_B, 16),), {}


def _avuc(mode):
    net = _modules()["AvUC"](_modules()["BayesMLP"]("Reparameterization"), _labels(), loss=mode == "train")
    return net, (_randn(_B, 16),), {}


MODELS = {
    # --- layers ---
    "LinearReparameterization_MLP": _mlp("Reparameterization"),
    "LinearFlipout_MLP": _mlp("Flipout"),
    "Conv1dReparameterization": _cnn(1, "Reparameterization"),
    "Conv1dFlipout": _cnn(1, "Flipout"),
    "Conv2dReparameterization": _cnn(2, "Reparameterization"),
    "Conv2dFlipout": _cnn(2, "Flipout"),
    "Conv3dReparameterization": _cnn(3, "Reparameterization"),
    "Conv3dFlipout": _cnn(3, "Flipout"),
    "ConvTranspose2dReparameterization_decoder": _decoder("Reparameterization"),
    "ConvTranspose2dFlipout_decoder": _decoder("Flipout"),
    "ConvTranspose1d3dReparameterization": _transpose13("Reparameterization"),
    "ConvTranspose1d3dFlipout": _transpose13("Flipout"),
    "LSTMReparameterization": _lstm("Reparameterization"),
    "LSTMFlipout_init_state": _lstm("Flipout", init_state=True),
    "return_kl_False_get_kl_loss": _no_kl,
    "tuple_wrappers_BatchNorm_ReLU_Dropout": _wrappers,
    # --- dnn_to_bnn ---
    "dnn_to_bnn_MLP": _dnn_to_bnn_mlp,
    "dnn_to_bnn_SCNN_Flipout_MOPED": _dnn_to_bnn_scnn,
    "dnn_to_bnn_LSTM": _dnn_to_bnn_lstm,
    "dnn_to_bnn_resnet20_Flipout": _dnn_to_bnn_resnet20,
    # --- shipped Bayesian models ---
    "resnet20_variational": _resnet20("resnet_variational"),
    "resnet20_flipout": _resnet20("resnet_flipout"),
    "ResNet_variational_large_BasicBlock": _resnet_large("resnet_variational_large", "BasicBlock"),
    "ResNet_flipout_large_Bottleneck": _resnet_large("resnet_flipout_large", "Bottleneck"),
    "SCNN_variational": _scnn("bayesian.simple_cnn_variational"),
    "SCNN_flipout": _scnn("flipout.simple_cnn"),
    # --- prediction and losses ---
    "MonteCarlo_README": _monte_carlo,
    "AvUC_loss": _avuc,
}
