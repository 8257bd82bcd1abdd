"""Brevitas 0.13.4 (Xilinx/AMD quantization-aware training): its ``brevitas.nn`` quantized layers
with the quantizers its README, docs and tests use, small networks built from them as the README's
``QuantLeNet`` is, and the models of ``brevitas_examples`` (shipped in the same wheel); tiny
(batch 2-4, 8-32 channels, 16x16 / 32x32 images), random weights, no download:

- layers (``brevitas.nn``): ``QuantLinear`` (default 8-bit per-tensor weights; with input / output /
  ``Int32Bias`` quantization and ``return_quant_tensor``), ``QuantConv1d`` / ``2d`` / ``3d``,
  ``QuantConvTranspose1d`` / ``2d``, ``QuantReLU``, ``QuantIdentity``, ``QuantHardTanh``,
  ``QuantSigmoid`` / ``QuantTanh``, ``QuantEltwiseAdd`` and ``torch.cat`` of quant tensors,
  ``TruncAvgPool2d`` and
  ``TruncAdaptiveAvgPool2d`` on quant tensors, ``QuantEmbedding``, ``QuantLSTM`` (bidirectional, two
  layers) and ``QuantRNN``, ``QuantMultiheadAttention``, ``QuantScaledDotProductAttention``,
  ``QuantUpsample`` / ``QuantUpsamplingBilinear2d``, ``BatchNorm2dToQuantScaleBias``,
  ``HadamardClassifier`` (``return_quant_tensor=True``, ``.value`` taken);
- quantizers (``brevitas.quant``) on a QuantConv2d / QuantLinear: binary and ternary constants, 4-bit
  ``Int8WeightPerChannelFloat``, fixed-point (power-of-two) weights and activations, asymmetric
  ``ShiftedUint8`` weights / activations (zero point), OCP FP8 e4m3 weights and activations,
  MX (groupwise) int8 weights and activations, decoupled weight norm and accumulator-aware (A2Q)
  weights, batch-statistics activation quant (``Uint8ActPerTensorFloatBatchQuant2d``), HQO / MSE
  weight scale;
- user networks: the README's ``QuantLeNet``; a small residual block adding two quant tensors
  (``QuantIdentity`` shared at the add, ``QuantTensor`` arithmetic and ``.flatten``); an MLP of
  ``QuantLinear`` with ``return_quant_tensor=True`` throughout and ``.value`` at the end;
- ``brevitas_examples``: bnn_pynq ``CNV`` (cnv_1w1a), ``FC`` (tfc_2w2a, lfc_1w2a)
  and ``resnet18_4w4a`` built by ``model_with_cfg(name, pretrained=False)``; imagenet
  ``MobileNet`` (4-bit, narrow channel list) and ``ProxylessNAS`` (narrow, plain ``QuantLinear``
  classifier);
  super-resolution ``quant_espcn`` (base and A2Q); the text-to-speech MelGAN ``Generator``.

Eval: the forward as the user calls it. Train: bnn_pynq's own training step for its models (the
``SqrHingeLoss`` autograd ``Function`` against one-hot -1/+1 targets for the binary nets, cross
entropy for the others, as ``bnn_pynq/trainer.py`` picks), ``classifier_loss_module`` for the other
classifiers, ESPCN's ``MSELoss`` against a target image (``train_model.py``), and
``mean_loss_module`` for the rest.

    pip install --no-deps brevitas==0.13.4 dependencies==2.0.1 unfoldNd==0.2.3

Brevitas declares ``dependencies`` (its injector), ``packaging``, ``setuptools``, ``sympy``,
``typing-extensions``, ``unfoldNd`` and torch: all but ``dependencies`` and ``unfoldNd`` were
already installed (setuptools 84 against its ``<81``: nothing used here needs ``pkg_resources``).
Nothing stubbed.

Left out: ``brevitas_examples.speech_to_text`` (QuartzNet: imports ``ruamel.yaml`` at its top, not
installed); the LLM / stable-diffusion examples (transformers / diffusers, held out); the imagenet
``QuantVGG`` (the same layers as ``MobileNet`` only bigger); PTQ / graph-mode passes
(``brevitas.graph``: calibration, equalization, ``quantize`` of an FX graph) and ONNX / QONNX export,
which run once outside a training step; the bnn_pynq ``clip_weights`` after the optimizer step.
Fails eagerly in 0.13.4 with torch 2.13, so avoided (library bugs, not Dynamo): ``QuantCat``
(calls ``QuantTensor.cat``, which the base class lacks: ``torch.cat`` on the quant tensors is used
instead); ``HadamardClassifier`` with the default ``return_quant_tensor=False`` (``(False and
...).any()`` on a bool), hence ProxylessNAS with ``hadamard_classifier=False``. The quantizer
models feed their ``QuantLinear`` a quant tensor (``QuantReLU(return_quant_tensor=True)``), which
A2Q's weight quantizer requires (it reads the input's bit width). ``bnn_resnet18_4w4a`` is the
full-width ResNet-18 of its cfg (the slowest model here, ~1 s eager forward).
"""

import functools

PACKAGE = "brevitas"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite
_B = 2


def warm_up():
    import brevitas.nn  # noqa: F401
    import brevitas.quant  # noqa: F401
    import torch  # noqa: F401


def _wrap(net, args, mode, kind="mean", classes=None):
    if mode == "train":
        if kind == "cls":
            return classifier_loss_module()(net, _B, classes), args, {}
        return mean_loss_module()(net), args, {}
    return net, args, {}


# --- single layers ---------------------------------------------------------------------------

def _quant_linear(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantLinear(16, 8, bias=True)
    return _wrap(net, (torch.randn(_B, 16),), mode)


def _quant_linear_io(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant import Int8ActPerTensorFloat, Int32Bias, Int8WeightPerTensorFloat

    net = qnn.QuantLinear(16, 8, bias=True, weight_quant=Int8WeightPerTensorFloat,
                          input_quant=Int8ActPerTensorFloat, output_quant=Int8ActPerTensorFloat,
                          bias_quant=Int32Bias, return_quant_tensor=False)
    return _wrap(net, (torch.randn(_B, 16),), mode)


def _quant_conv1d(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantConv1d(4, 8, 3, padding=1, weight_bit_width=4)
    return _wrap(net, (torch.randn(_B, 4, 20),), mode)


def _quant_conv2d(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantConv2d(3, 8, 3, padding=1, weight_bit_width=4)
    return _wrap(net, (torch.randn(_B, 3, 16, 16),), mode)


def _quant_conv2d_per_channel(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant import Int8ActPerTensorFloat, Int8WeightPerChannelFloat, Int32Bias

    net = qnn.QuantConv2d(3, 8, 3, stride=2, groups=1, bias=True, weight_quant=Int8WeightPerChannelFloat,
                          weight_bit_width=4, input_quant=Int8ActPerTensorFloat, bias_quant=Int32Bias)
    return _wrap(net, (torch.randn(_B, 3, 16, 16),), mode)


def _quant_conv3d(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantConv3d(2, 4, 3, padding=1)
    return _wrap(net, (torch.randn(_B, 2, 6, 6, 6),), mode)


def _quant_conv_transpose1d(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantConvTranspose1d(4, 4, 4, stride=2, padding=1)
    return _wrap(net, (torch.randn(_B, 4, 10),), mode)


def _quant_conv_transpose2d(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant import Int8ActPerTensorFloat, Int32Bias

    net = qnn.QuantConvTranspose2d(4, 4, 3, stride=2, padding=1, output_padding=1,
                                   input_quant=Int8ActPerTensorFloat, bias_quant=Int32Bias)
    return _wrap(net, (torch.randn(_B, 4, 8, 8),), mode)


def _acts(mode):
    import torch
    import brevitas.nn as qnn

    class Acts(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.relu = qnn.QuantReLU(bit_width=4)
            self.ident = qnn.QuantIdentity(bit_width=8)
            self.htanh = qnn.QuantHardTanh(bit_width=4, max_val=1.0, min_val=-1.0)
            self.sig = qnn.QuantSigmoid(bit_width=8)
            self.tanh = qnn.QuantTanh(bit_width=8)

        def forward(self, x):
            return self.relu(x) + self.ident(x) + self.htanh(x) + self.sig(x) + self.tanh(x)

    return _wrap(Acts(), (torch.randn(_B, 8, 10),), mode)


def _quant_relu_qt(mode):
    import torch
    import brevitas.nn as qnn

    class ReluQT(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(return_quant_tensor=True)
            self.relu = qnn.QuantReLU(return_quant_tensor=True)
            self.fc = qnn.QuantLinear(12, 4, bias=False)

        def forward(self, x):
            q = self.relu(self.inp(x))
            return self.fc(q)

    return _wrap(ReluQT(), (torch.randn(_B, 12),), mode)


def _eltwise_cat(mode):
    import torch
    import brevitas.nn as qnn

    class EltCat(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.q1 = qnn.QuantIdentity(return_quant_tensor=True)
            self.q2 = qnn.QuantIdentity(return_quant_tensor=True)
            self.add = qnn.QuantEltwiseAdd(return_quant_tensor=False)

        def forward(self, x, y):
            a, b = self.q1(x), self.q2(y)
            return self.add(a, b), torch.cat([a, b], dim=1).value

    return _wrap(EltCat(), (torch.randn(_B, 4, 6), torch.randn(_B, 4, 6)), mode)


def _trunc_avg_pool(mode):
    import torch
    import brevitas.nn as qnn

    class Pool(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = qnn.QuantConv2d(3, 8, 3, padding=1, return_quant_tensor=True,
                                        input_quant=qnn.quant_activation.Int8ActPerTensorFloat)
            self.relu = qnn.QuantReLU(return_quant_tensor=True)
            self.pool = qnn.TruncAvgPool2d(kernel_size=2, stride=2, bit_width=8)
            self.apool = qnn.TruncAdaptiveAvgPool2d(output_size=(1, 1), bit_width=8)
            self.fc = qnn.QuantLinear(8, 4, bias=True)

        def forward(self, x):
            x = self.pool(self.relu(self.conv(x)))
            x = self.apool(x)
            return self.fc(x.flatten(1))

    return _wrap(Pool(), (torch.randn(_B, 3, 16, 16),), mode)


def _quant_embedding(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantEmbedding(20, 8, weight_bit_width=4)
    return _wrap(net, (torch.randint(0, 20, (_B, 7)),), mode)


def _quant_lstm(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantLSTM(6, 8, num_layers=2, bidirectional=True, batch_first=True)
    return _wrap(net, (torch.randn(_B, 5, 6),), mode)


def _quant_rnn(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantRNN(6, 8, num_layers=1, batch_first=False)
    return _wrap(net, (torch.randn(5, _B, 6),), mode)


def _quant_mha(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantMultiheadAttention(16, 2, batch_first=True)
    x = torch.randn(_B, 5, 16)
    return _wrap(net, (x, x, x), mode)


def _quant_sdpa(mode):
    import torch
    import brevitas.nn as qnn

    net = qnn.QuantScaledDotProductAttention()
    q, k, v = (torch.randn(_B, 2, 5, 8) for _ in range(3))
    return _wrap(net, (q, k, v), mode)


def _quant_upsample(mode):
    import torch
    import brevitas.nn as qnn

    class Up(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(return_quant_tensor=True)
            self.up = qnn.QuantUpsample(scale_factor=2, mode='nearest', return_quant_tensor=False)
            self.bil = qnn.QuantUpsamplingBilinear2d(scale_factor=2, return_quant_tensor=False)

        def forward(self, x):
            q = self.inp(x)
            return self.up(q), self.bil(q)

    return _wrap(Up(), (torch.randn(_B, 3, 8, 8),), mode)


def _bn_scale_bias(mode):
    import torch
    import brevitas.nn as qnn

    class ConvBN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = qnn.QuantConv2d(3, 8, 3, padding=1, bias=False)
            self.bn = qnn.BatchNorm2dToQuantScaleBias(8, weight_bit_width=8)
            self.relu = qnn.QuantReLU()

        def forward(self, x):
            return self.relu(self.bn(self.conv(x)))

    return _wrap(ConvBN(), (torch.randn(_B, 3, 8, 8),), mode)


def _hadamard_classifier(mode):
    import torch
    import brevitas.nn as qnn

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(return_quant_tensor=True)
            self.fc = qnn.HadamardClassifier(16, 10, fixed_scale=False, return_quant_tensor=True)

        def forward(self, x):
            return self.fc(self.inp(x)).value

    return _wrap(Net(), (torch.randn(_B, 16),), mode, "cls", 10)


# --- quantizers --------------------------------------------------------------------------------

def _conv_with(weight_quant, act_quant, **kw):
    import torch
    import brevitas.nn as qnn

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(act_quant=act_quant, return_quant_tensor=True)
            self.conv = qnn.QuantConv2d(8, 16, 3, padding=1, bias=False, weight_quant=weight_quant,
                                        return_quant_tensor=False, **kw)
            self.relu = qnn.QuantReLU(return_quant_tensor=True)
            self.fc = qnn.QuantLinear(16 * 4 * 4, 10, bias=True, weight_quant=weight_quant, **kw)

        def forward(self, x):
            x = self.relu(self.conv(self.inp(x)))
            return self.fc(x.flatten(1))

    return Net()


def _quantizer_model(weight, act, mode, **kw):
    import torch
    import brevitas.quant as bq

    net = _conv_with(getattr(bq, weight) if isinstance(weight, str) else weight,
                     getattr(bq, act) if isinstance(act, str) else act, **kw)
    return _wrap(net, (torch.randn(_B, 8, 4, 4),), mode, "cls", 10)


def _binary(mode):
    return _quantizer_model("SignedBinaryWeightPerTensorConst", "SignedBinaryActPerTensorConst", mode)


def _ternary(mode):
    return _quantizer_model("SignedTernaryWeightPerTensorConst", "SignedTernaryActPerTensorConst", mode)


def _int4_per_channel(mode):
    return _quantizer_model("Int8WeightPerChannelFloat", "Int8ActPerTensorFloat", mode, weight_bit_width=4)


def _fixed_point(mode):
    return _quantizer_model("Int8WeightPerTensorFixedPoint", "Int8ActPerTensorFixedPoint", mode)


def _shifted_uint8(mode):
    return _quantizer_model("ShiftedUint8WeightPerChannelFloat", "ShiftedUint8ActPerTensorFloat", mode)


def _fp8_e4m3(mode):
    return _quantizer_model("Fp8e4m3OCPWeightPerTensorFloat", "Fp8e4m3OCPActPerTensorFloat", mode)


def _mx_int8(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant.experimental.mx_quant_ocp import MXInt8Act, MXInt8Weight

    net = torch.nn.Sequential(
        qnn.QuantLinear(64, 32, bias=True, weight_quant=MXInt8Weight, input_quant=MXInt8Act),
        torch.nn.ReLU(),
        qnn.QuantLinear(32, 10, bias=True, weight_quant=MXInt8Weight, input_quant=MXInt8Act))
    return _wrap(net, (torch.randn(_B, 64),), mode, "cls", 10)


def _mx_fp8(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant.experimental.mx_quant_ocp import MXFloat8e4m3Act, MXFloat8e4m3Weight

    net = qnn.QuantLinear(64, 10, bias=True, weight_quant=MXFloat8e4m3Weight, input_quant=MXFloat8e4m3Act)
    return _wrap(net, (torch.randn(_B, 64),), mode, "cls", 10)


def _decoupled(mode):
    return _quantizer_model("Int8WeightPerChannelFloatDecoupled", "Int8ActPerTensorFloat", mode)


def _a2q(mode):
    return _quantizer_model("Int8AccumulatorAwareWeightQuant", "Uint8ActPerTensorFloat", mode,
                            weight_accumulator_bit_width=16)


def _a2q_plus(mode):
    return _quantizer_model("Int8AccumulatorAwareZeroCenterWeightQuant", "Uint8ActPerTensorFloat", mode,
                            weight_accumulator_bit_width=16)


def _batch_quant(mode):
    return _quantizer_model("Int8WeightPerTensorFloat", "Uint8ActPerTensorFloatBatchQuant2d", mode)


def _mse_hqo(mode):
    from brevitas.quant.scaled_int import Int8ActPerTensorFloatMSE, Int8WeightPerChannelFloatHQO

    return _quantizer_model(Int8WeightPerChannelFloatHQO, Int8ActPerTensorFloatMSE, mode)


# --- user networks -------------------------------------------------------------------------------

def _quant_lenet(mode):
    """The README's QuantLeNet (on 32x32 RGB)."""
    import torch
    from torch import nn
    import brevitas.nn as qnn
    from brevitas.quant import Int32Bias

    class QuantWeightActBiasLeNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant_inp = qnn.QuantIdentity(bit_width=4, return_quant_tensor=True)
            self.conv1 = qnn.QuantConv2d(3, 6, 5, bias=True, weight_bit_width=4, bias_quant=Int32Bias)
            self.relu1 = qnn.QuantReLU(bit_width=4, return_quant_tensor=True)
            self.conv2 = qnn.QuantConv2d(6, 16, 5, bias=True, weight_bit_width=4, bias_quant=Int32Bias)
            self.relu2 = qnn.QuantReLU(bit_width=4, return_quant_tensor=True)
            self.fc1 = qnn.QuantLinear(16 * 5 * 5, 120, bias=True, weight_bit_width=4, bias_quant=Int32Bias)
            self.relu3 = qnn.QuantReLU(bit_width=4, return_quant_tensor=True)
            self.fc2 = qnn.QuantLinear(120, 84, bias=True, weight_bit_width=4, bias_quant=Int32Bias)
            self.relu4 = qnn.QuantReLU(bit_width=4, return_quant_tensor=True)
            self.fc3 = qnn.QuantLinear(84, 10, bias=True, weight_bit_width=4, bias_quant=Int32Bias)

        def forward(self, x):
            out = self.quant_inp(x)
            out = self.relu1(self.conv1(out))
            out = nn.functional.max_pool2d(out, 2)
            out = self.relu2(self.conv2(out))
            out = nn.functional.max_pool2d(out, 2)
            out = out.reshape(out.shape[0], -1)
            out = self.relu3(self.fc1(out))
            out = self.relu4(self.fc2(out))
            out = self.fc3(out)
            return out

    return _wrap(QuantWeightActBiasLeNet(), (torch.randn(_B, 3, 32, 32),), mode, "cls", 10)


def _residual_block(mode):
    import torch
    import brevitas.nn as qnn

    class Res(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(return_quant_tensor=True)
            self.conv1 = qnn.QuantConv2d(8, 8, 3, padding=1, bias=False, return_quant_tensor=True)
            self.bn1 = torch.nn.BatchNorm2d(8)
            self.relu1 = qnn.QuantReLU(return_quant_tensor=True)
            self.conv2 = qnn.QuantConv2d(8, 8, 3, padding=1, bias=False)
            self.bn2 = torch.nn.BatchNorm2d(8)
            self.shared = qnn.QuantIdentity(return_quant_tensor=True)
            self.relu2 = qnn.QuantReLU(return_quant_tensor=True)
            self.fc = qnn.QuantLinear(8, 10, bias=True)

        def forward(self, x):
            x = self.inp(x)
            y = self.relu1(self.bn1(self.conv1(x)))
            y = self.shared(self.bn2(self.conv2(y)))
            out = self.relu2(y + self.shared(x))
            out = out.mean((2, 3)) if not hasattr(out, "value") else out.value.mean((2, 3))
            return self.fc(out)

    return _wrap(Res(), (torch.randn(_B, 8, 8, 8),), mode, "cls", 10)


def _qt_mlp(mode):
    import torch
    import brevitas.nn as qnn
    from brevitas.quant import Int32Bias

    class MLP(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = qnn.QuantIdentity(return_quant_tensor=True)
            self.fc1 = qnn.QuantLinear(16, 32, bias=True, bias_quant=Int32Bias, return_quant_tensor=True)
            self.act1 = qnn.QuantReLU(return_quant_tensor=True)
            self.drop = torch.nn.Dropout(0.1)
            self.fc2 = qnn.QuantLinear(32, 10, bias=True, bias_quant=Int32Bias, return_quant_tensor=True)

        def forward(self, x):
            q = self.act1(self.fc1(self.inp(x)))
            q = self.drop(q)
            out = self.fc2(q)
            return out.value

    return _wrap(MLP(), (torch.randn(_B, 16),), mode, "cls", 10)


# --- brevitas_examples -------------------------------------------------------------------------

@functools.cache
def _bnn_loss_cls():
    import torch
    from brevitas_examples.bnn_pynq.models.losses import SqrHingeLoss

    class BnnLoss(torch.nn.Module):
        def __init__(self, net, num_classes, hinge):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.num_classes = num_classes
            self.criterion = SqrHingeLoss() if hinge else torch.nn.CrossEntropyLoss()
            self.hinge = hinge

        def forward(self, input, target):
            output = self.net(input)
            if self.hinge:
                target = target.unsqueeze(1)
                target_onehot = torch.Tensor(target.size(0), self.num_classes).to(input.device)
                target_onehot.fill_(-1)
                target_onehot.scatter_(1, target, 1)
                target = target.squeeze()
                target_var = target_onehot
            else:
                target_var = target
            return self.criterion(output, target_var)

    return BnnLoss


def _bnn(name, hinge):
    def make(mode):
        import torch
        from brevitas_examples.bnn_pynq.models import model_with_cfg

        net, cfg = model_with_cfg(name, pretrained=False)
        in_ch = cfg.getint('MODEL', 'IN_CHANNELS', fallback=3)
        classes = cfg.getint('MODEL', 'NUM_CLASSES')
        dataset = cfg.get('MODEL', 'DATASET')
        size = 28 if dataset == 'MNIST' else 32
        x = torch.rand(_B, in_ch, size, size)
        if mode == "train":
            return _bnn_loss_cls()(net, classes, hinge), (x, torch.arange(_B) % classes), {}
        return net, (x,), {}

    return make


def _mobilenet_v1(mode):
    import torch
    from brevitas_examples.imagenet_classification.models.mobilenetv1 import MobileNet

    net = MobileNet(channels=[[8], [16], [32, 32], [64, 64]], first_stage_stride=False, act_bit_width=4,
                    weight_bit_width=4, last_layer_bit_width=4, round_average_pool=False,
                    avg_pool_kernel_size=4, num_classes=10)
    return _wrap(net, (torch.randn(_B, 3, 32, 32),), mode, "cls", 10)


def _proxylessnas(mode):
    import torch
    from brevitas_examples.imagenet_classification.models.proxylessnas import ProxylessNAS

    net = ProxylessNAS(channels=[[8], [16, 16], [24, 24]], init_block_channels=8, final_block_channels=32,
                       residuals=[[1], [1, 1], [1, 1]], shortcuts=[[0], [0, 1], [0, 1]],
                       kernel_sizes=[[3], [5, 3], [7, 3]], expansions=[[1], [3, 3], [6, 3]],
                       bit_width=4, depthwise_bit_width=5, first_layer_weight_bit_width=8,
                       hadamard_classifier=False, round_average_pool=True, num_classes=10)
    return _wrap(net, (torch.randn(_B, 3, 56, 56),), mode, "cls", 10)


@functools.cache
def _mse_loss_cls():
    import torch

    class SRLoss(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.criterion = torch.nn.MSELoss()

        def forward(self, x, y):
            return self.criterion(self.net(x), y)

    return SRLoss


def _espcn(a2q):
    def make(mode):
        import torch
        from brevitas_examples.super_resolution.models import espcn

        if a2q:
            net = espcn.quant_espcn_a2q(upscale_factor=2, weight_bit_width=4, act_bit_width=4, acc_bit_width=16)
        else:
            net = espcn.quant_espcn_base(upscale_factor=2, weight_bit_width=8, act_bit_width=8)
        x = torch.rand(_B, 3, 12, 12)
        if mode == "train":
            return _mse_loss_cls()(net), (x, torch.rand(_B, 3, 24, 24)), {}
        return net, (x,), {}

    return make


def _melgan(mode):
    import torch
    from brevitas_examples.text_to_speech.melgan.generator_brevitas import Generator

    net = Generator(mel_channel=8, bit_width=8, last_layer_bit_width=8)
    return _wrap(net, (torch.randn(1, 8, 3),), mode)


MODELS = {
    "QuantLinear": _quant_linear,
    "QuantLinear_io_bias": _quant_linear_io,
    "QuantConv1d": _quant_conv1d,
    "QuantConv2d": _quant_conv2d,
    "QuantConv2d_per_channel": _quant_conv2d_per_channel,
    "QuantConv3d": _quant_conv3d,
    "QuantConvTranspose1d": _quant_conv_transpose1d,
    "QuantConvTranspose2d": _quant_conv_transpose2d,
    "activations": _acts,
    "QuantReLU_quant_tensor": _quant_relu_qt,
    "EltwiseAdd_cat": _eltwise_cat,
    "TruncAvgPool2d": _trunc_avg_pool,
    "QuantEmbedding": _quant_embedding,
    "QuantLSTM": _quant_lstm,
    "QuantRNN": _quant_rnn,
    "QuantMultiheadAttention": _quant_mha,
    "QuantSDPA": _quant_sdpa,
    "QuantUpsample": _quant_upsample,
    "BatchNorm2dToQuantScaleBias": _bn_scale_bias,
    "HadamardClassifier": _hadamard_classifier,
    "binary": _binary,
    "ternary": _ternary,
    "int4_per_channel": _int4_per_channel,
    "fixed_point": _fixed_point,
    "shifted_uint8": _shifted_uint8,
    "fp8_e4m3": _fp8_e4m3,
    "mx_int8": _mx_int8,
    "mx_fp8": _mx_fp8,
    "decoupled_weight_norm": _decoupled,
    "a2q": _a2q,
    "a2q_plus": _a2q_plus,
    "batch_quant": _batch_quant,
    "hqo_mse": _mse_hqo,
    "QuantLeNet": _quant_lenet,
    "residual_block": _residual_block,
    "quant_tensor_mlp": _qt_mlp,
    "bnn_cnv_1w1a": _bnn("cnv_1w1a", True),
    "bnn_tfc_2w2a": _bnn("tfc_2w2a", True),
    "bnn_lfc_1w2a": _bnn("lfc_1w2a", True),
    "bnn_resnet18_4w4a": _bnn("resnet18_4w4a", False),
    "mobilenet_v1": _mobilenet_v1,
    "proxylessnas": _proxylessnas,
    "espcn": _espcn(False),
    "espcn_a2q": _espcn(True),
    "melgan_generator": _melgan,
}
