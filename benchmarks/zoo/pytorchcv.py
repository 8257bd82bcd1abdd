"""pytorchcv (osmr's "imgclsmob" model zoo, pure Python over torch): 45 models, one small
model per CNN family, random weights (``pretrained=False``, nothing is downloaded), batch 2.

    pip install --no-deps pytorchcv==0.0.74    # needs numpy and requests (and torch, never reinstalled)

Classification: ResNet, PreResNet, ResNeXt, SE-ResNet, DenseNet, MobileNet v1/v2/v3, ShuffleNet
v1/v2, EfficientNet (the TF-padding "b" variant), MnasNet, GhostNet, SqueezeNet, DLA, HRNet,
RegNetY, DarkNet, Inception v3/v4, Xception, CondenseNet, DiracNetV2, FBNet, PeleeNet, VoVNet,
ResNeSt(A), Octave ResNet, RevNet and iSQRT-COV ResNet (their own autograd Functions), and on
CIFAR ShakeShake-ResNet, FractalNet (NumPy drop paths) and 1-bit WRN. Dense prediction: FCN-8s(d),
PSPNet, DeepLabv3, ICNet (ResNet(D)-50b backbones), Fast-SCNN, SINet; CenterNet (detection, with
its heatmap decoder), SimplePose and LwOpenPose 3-D (pose), SuperPointNet (keypoints and
descriptors), RAFT-small (optical flow, 2 iterations), NTS-Net (its part proposals go through
NumPy).

In "train" a classifier runs through a wrapper whose forward returns the cross-entropy of the
logits against fixed labels; the other models run through one that returns the sum of the
means of their float outputs.

``pytorchcv.model_provider`` (``get_model``) imports every model module, and
``models/propainter_rfc.py`` imports ``torchvision.ops`` at the top: torchvision is held out
and never installed, so the factories call the per-model modules
(``pytorchcv.models.<module>.<name>``) instead, and the ProPainter models are left out.

Inputs: most ImageNet classifiers end in ``AvgPool2d(kernel_size=7)`` and need 224x224
(Inception v3/v4 and Xception 299x299), so they run at that size with the narrowest width the
zoo names (``*_wd4``, ``width_scale``, a 4x2-unit DenseNet); models with an adaptive pool run at
64x64, the CIFAR ones at 32x32, dense prediction at 64x64 (SINet 128x128: its pools need it;
NTS-Net 448x448: its anchors are fixed to it).

Left out to keep the capture short (they build and run eagerly and under Dynamo without a
break; the same kind of code as a model kept): the deeper and wider variants of each family,
the other ResNet-like families (SE-PreResNet, CBAM/BAM, DIA-ResNet, IBN, AirNet, SKNet, SCNet,
ShaResNet, ResAttNet, TResNet, ...), DPN, MixNet, HarDNet, ESPNetv2, ShakeDrop, the other
segmentation nets (DANet, BiSeNet, CGNet, ENet, LEDNet, DABNet, EDANet, ERFNet, ESNet, LinkNet,
SegNet, SQNet, UNet, FPENet, ContextNet, ESPCNet), AlphaPose and SimplePoseMobile (the SimplePose
head), IbpPose, PRNet, VOCA, VisemeNet, NvpAttExp; NASNet, PNASNet, PolyNet, DARTS, MSDNet and
i-RevNet (over 1,000 modules each, or 299x299+).

Dropped because they fail: Jasper, JasperDR and QuartzNet (their audio preprocessor imports
librosa, not installed); LFFD below ~320x320 (its 3x3 convs get 1x1 maps); NTS-Net below
448x448 (its NumPy anchors do not match the score maps).
"""


PACKAGE = "pytorchcv"
DISTRIBUTION = "pytorchcv"

_CLASSES = 10
mean_loss_module = classifier_loss_module = None  # adapter.py's, set by ZooSuite


def _model(module, name, **kwargs):
    """``pytorchcv.models.<module>.<name>(pretrained=False, **kwargs)``."""
    import importlib

    return getattr(importlib.import_module(f"pytorchcv.models.{module}"), name)(pretrained=False, **kwargs)


def warm_up():
    import torch  # noqa: F401

    import pytorchcv.models.common.conv  # noqa: F401
    import pytorchcv.models.resnet  # noqa: F401


def _clf(module, name, size=224, in_size=True, **kwargs):
    """A classifier on a (2, 3, size, size) batch; ``in_size=False`` for constructors without it."""

    def make(mode):
        import torch

        extra = dict(in_size=(size, size)) if in_size else {}
        net = _model(module, name, num_classes=_CLASSES, **extra, **kwargs)
        x = torch.randn(2, 3, size, size)
        if mode == "train":
            return classifier_loss_module()(net, 2, _CLASSES), (x,), {}
        return net, (x,), {}

    return make


def _dense(module, name, shape=(2, 3, 64, 64), in_size=True, **kwargs):
    """A segmentation / detection / pose net on a random batch of ``shape``."""

    def make(mode):
        import torch

        extra = dict(in_size=tuple(shape[2:])) if in_size else {}
        net = _model(module, name, **extra, **kwargs)
        x = torch.randn(*shape)
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _densenet(mode):
    """DenseNet (the ``densenet121`` units and transitions) with four stages of two units, 224x224."""
    import torch

    from pytorchcv.models.densenet import DenseNet

    init, growth = 16, 8
    channels, c = [], init
    for i in range(4):
        c = c // 2 if i else c  # the transition halves the channels
        channels.append([c + growth, c + 2 * growth])
        c += 2 * growth
    net = DenseNet(channels=channels, init_block_channels=init, dropout_rate=0.1, num_classes=_CLASSES)
    x = torch.randn(2, 3, 224, 224)
    return (classifier_loss_module()(net, 2, _CLASSES) if mode == "train" else net), (x,), {}


def _raft(mode):
    import torch

    net = _model("raft", "raft_small", iters=2)
    args = (torch.rand(2, 3, 64, 64) * 255, torch.rand(2, 3, 64, 64) * 255)
    return (mean_loss_module()(net) if mode == "train" else net), args, {}


MODELS = {
    # --- classification, 224x224 (a fixed 7x7 final pool) unless named ---
    "resnet10": _clf("resnet", "resnet10", width_scale=0.25),
    "preresnet10": _clf("preresnet", "preresnet10", width_scale=0.25),
    "resnext14_16x4d": _clf("resnext", "resnext14_16x4d"),
    "seresnet10": _clf("seresnet", "seresnet10"),
    "densenet": _densenet,
    "mobilenet_wd4": _clf("mobilenet", "mobilenet_wd4"),
    "mobilenetv2_wd4": _clf("mobilenetv2", "mobilenetv2_wd4"),
    "mobilenetv3_small_w7d20": _clf("mobilenetv3", "mobilenetv3_small_w7d20"),
    "shufflenet_g1_wd4": _clf("shufflenet", "shufflenet_g1_wd4"),
    "shufflenetv2_wd2": _clf("shufflenetv2", "shufflenetv2_wd2"),
    "efficientnet_b0b": _clf("efficientnet", "efficientnet_b0b"),
    "mnasnet_small": _clf("mnasnet", "mnasnet_small"),
    "ghostnet": _clf("ghostnet", "ghostnet"),
    "squeezenet_v1_1": _clf("squeezenet", "squeezenet_v1_1"),
    "dla46c": _clf("dla", "dla46c"),
    "hrnet_w18_small_v1": _clf("hrnet", "hrnet_w18_small_v1"),
    "regnety002": _clf("regnet", "regnety002", size=64),
    "darknet_tiny": _clf("darknet", "darknet_tiny"),
    "inceptionv3": _clf("inceptionv3", "inceptionv3", size=299),
    "inceptionv4": _clf("inceptionv4", "inceptionv4", size=299),
    "xception": _clf("xception", "xception", size=299),
    "condensenet74_c4_g4": _clf("condensenet", "condensenet74_c4_g4"),
    "diracnet18v2": _clf("diracnetv2", "diracnet18v2"),
    "fbnet_cb": _clf("fbnet", "fbnet_cb"),
    "peleenet": _clf("peleenet", "peleenet"),
    "vovnet27s": _clf("vovnet", "vovnet27s"),
    "resnesta18": _clf("resnesta", "resnesta18", size=64),
    "octresnet10_ad2": _clf("octresnet", "octresnet10_ad2"),
    "revnet38": _clf("revnet", "revnet38"),
    "isqrtcovresnet18": _clf("isqrtcovresnet", "isqrtcovresnet18", size=64),
    # CIFAR, 32x32
    "shakeshakeresnet20_2x16d": _clf("shakeshakeresnet_cifar", "shakeshakeresnet20_2x16d_cifar10", size=32,
                                     in_size=False),
    "fractalnet_cifar10": _clf("fractalnet_cifar", "fractalnet_cifar10", size=32, in_size=False),
    "wrn20_10_1bit": _clf("wrn1bit_cifar", "wrn20_10_1bit_cifar10", size=32, in_size=False),
    # --- segmentation, 64x64 ---
    "fcn8sd_resnetd50b": _dense("fcn8sd", "fcn8sd_resnetd50b_voc"),
    "pspnet_resnetd50b": _dense("pspnet", "pspnet_resnetd50b_voc"),
    "deeplabv3_resnetd50b": _dense("deeplabv3", "deeplabv3_resnetd50b_voc"),
    "icnet_resnetd50b": _dense("icnet", "icnet_resnetd50b_cityscapes"),
    "fastscnn": _dense("fastscnn", "fastscnn_cityscapes"),
    "sinet": _dense("sinet", "sinet_cityscapes", shape=(2, 3, 128, 128)),
    # --- detection, pose, keypoints, flow, others ---
    "centernet_resnet18": _dense("centernet", "centernet_resnet18_voc"),
    "simplepose_resnet18": _dense("simplepose_coco", "simplepose_resnet18_coco", shape=(2, 3, 64, 48)),
    "lwopenpose3d_mobilenet": _dense("lwopenpose_cmupan", "lwopenpose3d_mobilenet_cmupan_coco"),
    "superpointnet": _dense("superpointnet", "superpointnet", shape=(2, 1, 64, 64), in_size=False),
    "raft_small": _raft,
    "ntsnet_cub": _dense("ntsnet_cub", "ntsnet_cub", shape=(2, 3, 448, 448)),
}
