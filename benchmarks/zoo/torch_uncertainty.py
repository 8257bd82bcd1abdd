"""torch-uncertainty (TorchUncertainty) 0.13.0: its models, layers, ensembling / Bayesian wrappers,
post-processing and losses, tiny, random weights, no download.

Eval: the model's forward as the library returns it (ensembles: the (M*B, ...) stacked estimators;
regression heads with ``dist_family``: a dict of the distribution's parameters).
Train: a Lightning routine's ``training_step`` (``ClassificationRoutine`` / ``RegressionRoutine``,
the code ``trainer.fit`` runs each step) on one ``(inputs, targets)`` batch, with the routine's
``self.log`` replaced by a no-op on the instance (no Trainer is attached); the routine runs the
library's mixup, ``format_batch_fn`` (``RepeatTarget`` for ensembles, ``MIMOBatchFormat`` for MIMO),
``ELBOLoss`` (Bayesian models: ``num_samples`` forwards plus ``KLDiv``), ``DECLoss`` with the epoch,
distribution NLL on ``Independent(get_dist_class(...))``. Losses routed through it: CE, ``FocalLoss``,
``ConflictualLoss``, ``ConfidencePenaltyLoss``, ``CrossEntropyMaxSupLoss``, ``BCEWithLogitsLSLoss``
(binary), ``MixupMPLoss`` (with ``mixupmp``), ``DECLoss``, ``ELBOLoss``, ``DistributionNLLLoss``,
``DERLoss`` (NIG head), ``PinballLoss``; ``BetaNLL`` called directly on a Normal MLP's loc/scale.
Post-processing and layer / method wrappers without a routine loss: ``mean_loss_module``.

Models (44):
- MLPs (``torch_uncertainty.models.mlp``): ``mlp`` (classifier; Normal / Student-t / NIG heads;
  BetaNLL; pinball), ``packed_mlp``, ``batched_mlp``, ``bayesian_mlp``, ``mimo_mlp``;
- LeNet (28x28 grayscale): ``lenet`` (CE; DEC; mixup; mixupMP; binary BCE-LS), ``packed_lenet``,
  ``batchensemble_lenet``, ``bayesian_lenet``;
- ResNet-18 (cifar style, width x0.25, 32x32): ``resnet`` (MaxSup CE), ``packed_resnet``,
  ``batched_resnet``, ``masked_resnet`` (Masksembles), ``mimo_resnet``, ``lpbnn_resnet``;
- VGG-11 (cifar style, 32x32): ``vgg`` (confidence penalty), ``packed_vgg``;
- InceptionTime (1-d, 3 blocks, 8 dims, kernel 10): ``inception_time`` (focal),
  ``packed_inception_time``;
- layers: ``PackedTransformerEncoderLayer`` / ``PackedTransformerDecoderLayer``, a small net of
  ``BayesConv1d`` / ``BayesLinear`` / ``FilterResponseNorm1d`` in a ``StochasticModel``,
  ``BatchNormAdapter2d`` + ``ChannelLayerNorm``;
- methods: ``deep_ensembles`` (classification; probabilistic regression), ``mc_dropout``,
  ``BatchEnsemble(convert_layers=True)``, ``SWAG`` (after two ``update_wrapper`` calls; eval
  samples ``num_estimators`` weight sets), ``Zero`` (test-time augmentation filtering);
- post-processing (fitted eagerly on a tiny ``DataLoader`` first, then the forward):
  ``TemperatureScaler``, ``DirichletScaler``, ``ConformalClsTHR``, ``ConformalClsAPS``, ``MCBatchNorm``
  (a LeNet with BatchNorm), ``LaplaceApprox`` (laplace-torch; ``pred_type="nn"``, MC link: the
  default GLM predictive needs gradients in eval).

    pip install --no-deps torch-uncertainty==0.13.0

(already installed and used: einops, lightning / pytorch-lightning 2.6.6, torchmetrics, scipy,
numpy, matplotlib, seaborn, tqdm, rich, pillow, kornia, laplace-torch 0.3 with curvlinops /
backpack for ``LaplaceApprox``; nothing else installed.)

Stubbed (``stub_modules``, only where not installed): ``torchvision`` (held out) and the submodules
the package imports at its top (``torch_uncertainty/__init__`` -> ``utils.plotting``; ``models`` ->
``models.depth.bts``; ``routines`` -> ``transforms`` -> ``datasets``): ``transforms`` (+ ``v2``,
``v2.functional``, ``v2._utils``, ``functional``), ``utils``, ``models`` (+ ``resnet`` / ``densenet``
weight enums), ``tv_tensors``, ``datasets`` (+ ``utils``, ``folder``); an ``InterpolationMode`` enum is
put on the transforms stand-ins (used in default arguments at import). ``timm`` (held out:
``transforms.mixup`` imports ``timm.data.mixup.Mixup``, ``optim_recipes`` ``timm.optim.Lamb``,
``models.segmentation.segformer`` ``timm.layers``). torchmetrics, lightning and kornia are imported
before the stand-ins go in so they see no torchvision.

Left out (need torchvision or timm at run time, or are not models): the segmentation UNets (their
forward pads with ``torchvision.transforms.functional.pad``), DeepLab and BTS (torchvision
backbones), SegFormer (timm layers), ``PixelRegressionRoutine`` / ``SegmentationRoutine`` (their
models), the image transforms / corruptions (torchvision), the ``timm`` mixup, the WideResNet-28x10
family (36M parameters, too large to build in well under a second; ResNet covers the same blocks),
``DEUP`` / ``ABNN`` post-processing (their ``fit`` trains with a Lightning Trainer), ``SWA`` /
``CheckpointCollector`` / ``EMA`` (forward is the core model's), BBQ / isotonic scalers (sklearn /
numpy on the side), the datamodules, datasets, metrics and optimizers (SGLD / SGHMC). Trimmed to
44 for capture time (same code paths as kept ones): the Laplace-head MLP, ``VectorScaler``,
``ConformalClsRAPS``, ``HistogramBinningScaler``, bayesian / batched / MIMO InceptionTime and a
bare ``LPBNNLinear`` net (LPBNN ResNet kept).
Measured first as it came, before any rule looked at it.
"""

PACKAGE = "torch_uncertainty"
DISTRIBUTION = "torch-uncertainty"

mean_loss_module = classifier_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite

_B = 4  # batch (divisible by the estimators)
_M = 2  # estimators
_C = 4  # classes (packed heads: divisible by estimators * gamma)
_F = 8  # tabular features

_TV = {
    "torchvision": ((), ()),
    "torchvision.transforms": ((), ("RandomResizedCrop", "Resize", "ToPILImage", "Compose", "ToTensor")),
    "torchvision.transforms.functional": (("to_pil_image", "pad", "resize", "center_crop"), ()),
    "torchvision.transforms.v2": ((), ("Compose", "ToDtype", "ToImage", "Transform")),
    "torchvision.transforms.v2.functional": ((), ()),
    "torchvision.transforms.v2._utils": (("query_size",), ()),
    "torchvision.utils": (("draw_segmentation_masks", "make_grid"), ()),
    "torchvision.models": ((), ()),
    "torchvision.models.resnet": ((), ("ResNet50_Weights", "ResNet101_Weights", "ResNeXt50_32X4D_Weights",
                                       "ResNeXt101_32X8D_Weights")),
    "torchvision.models.densenet": ((), ("DenseNet121_Weights", "DenseNet161_Weights")),
    "torchvision.tv_tensors": ((), ("Image", "Mask", "Video", "BoundingBoxes", "DepthMap")),
    "torchvision.datasets": ((), ("VisionDataset", "ImageFolder", "CIFAR10", "CIFAR100", "Cityscapes", "MNIST")),
    "torchvision.datasets.folder": (("default_loader",), ()),
    "torchvision.datasets.utils": (("download_and_extract_archive", "download_url", "extract_archive",
                                    "check_integrity", "download_file_from_google_drive"), ()),
    "timm": ((), ()),
    "timm.data": ((), ()),
    "timm.data.mixup": ((), ("Mixup",)),
    "timm.optim": ((), ("Lamb",)),
    "timm.layers": (("to_2tuple", "trunc_normal_"), ("DropPath",)),
}


def _stub():
    import enum
    import sys

    import kornia  # noqa: F401
    import lightning.pytorch  # noqa: F401
    import lightning.pytorch.cli  # noqa: F401
    import torchmetrics  # noqa: F401  (first: they then see no torchvision stand-in)
    import torchmetrics.functional  # noqa: F401

    stub_modules(_TV, "torch_uncertainty imports")  # noqa: F821 (set by ZooSuite)
    modes = enum.Enum("InterpolationMode", {k: k.lower() for k in (
        "NEAREST", "NEAREST_EXACT", "BILINEAR", "BICUBIC", "BOX", "HAMMING", "LANCZOS")})
    for name in ("torchvision.transforms", "torchvision.transforms.v2", "torchvision.transforms.v2.functional",
                 "torchvision.transforms.functional"):
        mod = sys.modules[name]
        if getattr(mod, "__file__", None) is None and not hasattr(mod, "InterpolationMode"):
            mod.InterpolationMode = modes


def warm_up():
    _stub()
    import torch  # noqa: F401

    import torch_uncertainty  # noqa: F401
    import torch_uncertainty.methods  # noqa: F401
    import torch_uncertainty.models  # noqa: F401
    import torch_uncertainty.post_processing  # noqa: F401
    import torch_uncertainty.routines  # noqa: F401


before_build = _stub  # (ZooSuite runs it before each make: warm_up may not have run)


# --- data ------------------------------------------------------------------------------------

def _img(c=1, s=28):
    import torch

    return torch.randn(_B, c, s, s)


def _tab():
    import torch

    return torch.randn(_B, _F)


def _seq():
    import torch

    return torch.randn(_B, 3, 24)  # (B, channels, length)


def _labels(classes=_C):
    import torch

    return torch.arange(_B) % classes


# --- train steps -------------------------------------------------------------------------------

@__import__("functools").cache
def _step_cls():
    import torch

    class RoutineStep(torch.nn.Module):
        """``routine.training_step((inputs, targets))``, as ``trainer.fit`` runs it."""

        def __init__(self, routine):
            super().__init__()
            self.routine = routine
            object.__setattr__(routine, "log", lambda *args, **kwargs: None)  # no Trainer attached

        def forward(self, inputs, targets):
            return self.routine.training_step((inputs, targets))

    return RoutineStep


def _cls(net, x, mode, loss=None, classes=_C, fmt=None, ensemble=False, **kw):
    """Eval: ``net(x)``; train: ``ClassificationRoutine(net, ...).training_step``."""
    if mode == "eval":
        return net, (x,), {}
    from torch import nn

    from torch_uncertainty.routines import ClassificationRoutine

    routine = ClassificationRoutine(net, num_classes=classes, loss=loss if loss is not None else nn.CrossEntropyLoss(),
                                    is_ensemble=ensemble, format_batch_fn=fmt, **kw)
    return _step_cls()(routine), (x, _labels(max(classes, 2))), {}


def _repeat(m=_M):
    from torch_uncertainty.transforms import RepeatTarget

    return RepeatTarget(num_repeats=m)


def _mimo_fmt(m=_M):
    from torch_uncertainty.transforms import MIMOBatchFormat

    return MIMOBatchFormat(num_estimators=m, rho=0.5, batch_repeat=1)


def _elbo(samples=2):
    from torch import nn

    from torch_uncertainty.losses import ELBOLoss

    return ELBOLoss(model=None, inner_loss=nn.CrossEntropyLoss(), kl_weight=1e-5, num_samples=samples)


def _reg(net, mode, loss, dist_family=None):
    """Eval: ``net(x)``; train: ``RegressionRoutine(net, output_dim=1, ...).training_step``."""
    import torch

    x = _tab()
    if mode == "eval":
        return net, (x,), {}
    from torch_uncertainty.routines import RegressionRoutine

    routine = RegressionRoutine(net, output_dim=1, loss=loss, dist_family=dist_family)
    return _step_cls()(routine), (x, torch.randn(_B).abs() + 0.1), {}


# --- MLPs --------------------------------------------------------------------------------------

def _mlp(mode):
    from torch_uncertainty.models.mlp import mlp

    return _cls(mlp(in_features=_F, num_outputs=_C, hidden_dims=[16, 16], dropout_rate=0.1), _tab(), mode)


def _mlp_dist(family, loss_name):
    def make(mode):
        from torch_uncertainty import losses
        from torch_uncertainty.models.mlp import mlp

        net = mlp(in_features=_F, num_outputs=1, hidden_dims=[16], dist_family=family)
        loss = losses.DERLoss(reg_weight=1e-2) if loss_name == "der" else losses.DistributionNLLLoss()
        return _reg(net, mode, loss, dist_family=family)

    return make


def _mlp_betanll(mode):
    import torch

    from torch_uncertainty.losses import BetaNLL
    from torch_uncertainty.models.mlp import mlp

    net = mlp(in_features=_F, num_outputs=1, hidden_dims=[16], dist_family="normal")
    if mode == "eval":
        return net, (_tab(),), {}

    class BetaNLLStep(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net, self.loss = net, BetaNLL(beta=0.5)

        def forward(self, x, y):
            out = self.net(x)
            return self.loss(out["loc"], y, out["scale"] ** 2)

    return BetaNLLStep(), (_tab(), torch.randn(_B, 1)), {}


def _mlp_pinball(mode):
    from torch_uncertainty.losses import PinballLoss
    from torch_uncertainty.models.mlp import mlp

    return _reg(mlp(in_features=_F, num_outputs=1, hidden_dims=[16]), mode, PinballLoss(quantile=0.9))


def _packed_mlp(mode):
    from torch_uncertainty.models.mlp import packed_mlp

    net = packed_mlp(in_features=_F, num_outputs=_C, hidden_dims=[16], num_estimators=_M, alpha=2, gamma=1)
    return _cls(net, _tab(), mode, fmt=_repeat(), ensemble=True)


def _batched_mlp(mode):
    from torch_uncertainty.models.mlp import batched_mlp

    net = batched_mlp(in_features=_F, num_outputs=_C, hidden_dims=[16], num_estimators=_M)
    return _cls(net, _tab(), mode, fmt=_repeat(), ensemble=True)


def _bayesian_mlp(mode):
    from torch_uncertainty.models.mlp import bayesian_mlp

    net = bayesian_mlp(in_features=_F, num_outputs=_C, hidden_dims=[16], num_samples=2)
    return _cls(net, _tab(), mode, loss=_elbo())


def _mimo_mlp(mode):
    from torch_uncertainty.models.mlp import mimo_mlp

    net = mimo_mlp(in_features=_F, num_outputs=_C, hidden_dims=[16], num_estimators=_M)
    return _cls(net, _tab(), mode, fmt=_mimo_fmt(), ensemble=True)


# --- LeNet -------------------------------------------------------------------------------------

def _lenet(loss=None, classes=_C, **kw):
    def make(mode):
        from torch_uncertainty import losses
        from torch_uncertainty.models.classification import lenet

        net = lenet(in_channels=1, num_classes=classes, dropout_rate=0.1)
        lo = {"dec": lambda: losses.DECLoss(annealing_step=10, reg_weight=1e-2),
              "mixupmp": lambda: losses.MixupMPLoss(mixup_ratio=1.0),
              "bce_ls": lambda: losses.BCEWithLogitsLSLoss(label_smoothing=0.1),
              None: lambda: None}[loss]()
        return _cls(net, _img(), mode, loss=lo, classes=classes, **kw)

    return make


def _packed_lenet(mode):
    from torch_uncertainty.models.classification import packed_lenet

    net = packed_lenet(in_channels=1, num_classes=_C, num_estimators=_M, alpha=2, gamma=1)
    return _cls(net, _img(), mode, fmt=_repeat(), ensemble=True)


def _batchensemble_lenet(mode):
    from torch_uncertainty.models.classification import batchensemble_lenet

    net = batchensemble_lenet(in_channels=1, num_classes=_C, num_estimators=_M, repeat_training_inputs=True)
    return _cls(net, _img(), mode, fmt=_repeat(), ensemble=True)


def _bayesian_lenet(mode):
    from torch_uncertainty.models.classification import bayesian_lenet

    net = bayesian_lenet(in_channels=1, num_classes=_C, num_samples=2)
    return _cls(net, _img(), mode, loss=_elbo())


# --- ResNet / VGG ------------------------------------------------------------------------------

def _resnet(mode):
    from torch_uncertainty.losses import CrossEntropyMaxSupLoss
    from torch_uncertainty.models.classification import resnet

    net = resnet(in_channels=3, num_classes=_C, arch=18, width_multiplier=0.25, style="cifar", dropout_rate=0.1)
    return _cls(net, _img(3, 32), mode, loss=CrossEntropyMaxSupLoss(label_smoothing=0.1, max_sup=0.1))


def _packed_resnet(mode):
    from torch_uncertainty.models.classification import packed_resnet

    net = packed_resnet(in_channels=3, num_classes=_C, arch=18, num_estimators=_M, alpha=2, gamma=1,
                        width_multiplier=0.25, style="cifar")
    return _cls(net, _img(3, 32), mode, fmt=_repeat(), ensemble=True)


def _batched_resnet(mode):
    from torch_uncertainty.models.classification import batched_resnet

    net = batched_resnet(in_channels=3, num_classes=_C, arch=18, num_estimators=_M, width_multiplier=0.25,
                         style="cifar")
    return _cls(net, _img(3, 32), mode, ensemble=True)


def _masked_resnet(mode):
    from torch_uncertainty.models.classification import masked_resnet

    net = masked_resnet(in_channels=3, num_classes=_C, arch=18, num_estimators=_M, scale=2.0,
                        width_multiplier=0.25, style="cifar")
    return _cls(net, _img(3, 32), mode, ensemble=True)


def _mimo_resnet(mode):
    from torch_uncertainty.models.classification import mimo_resnet

    net = mimo_resnet(in_channels=3, num_classes=_C, arch=18, num_estimators=_M, width_multiplier=0.25,
                      style="cifar")
    return _cls(net, _img(3, 32), mode, fmt=_mimo_fmt(), ensemble=True)


def _lpbnn_resnet(mode):
    from torch_uncertainty.models.classification import lpbnn_resnet

    net = lpbnn_resnet(in_channels=3, num_classes=_C, arch=18, num_estimators=_M, width_multiplier=0.25,
                       style="cifar")
    return _cls(net, _img(3, 32), mode, fmt=_repeat(), ensemble=True)


def _vgg(mode):
    from torch_uncertainty.losses import ConfidencePenaltyLoss
    from torch_uncertainty.models.classification import vgg

    net = vgg(in_channels=3, num_classes=_C, arch=11, style="cifar", groups=4, dropout_rate=0.1)
    return _cls(net, _img(3, 32), mode, loss=ConfidencePenaltyLoss(reg_weight=0.1))


def _packed_vgg(mode):
    from torch_uncertainty.models.classification import packed_vgg

    net = packed_vgg(in_channels=3, num_classes=_C, arch=11, alpha=2, num_estimators=_M, gamma=2, style="cifar")
    return _cls(net, _img(3, 32), mode, fmt=_repeat(), ensemble=True)


# --- InceptionTime -----------------------------------------------------------------------------

_IT = {"kernel_size": 10, "embed_dim": 8, "num_blocks": 3}


def _inception(kind):
    def make(mode):
        from torch_uncertainty.losses import FocalLoss
        from torch_uncertainty.models import classification as c

        if kind == "std":
            return _cls(c.inception_time(3, _C, **_IT), _seq(), mode, loss=FocalLoss(gamma=2.0))
        if kind == "packed":
            net = c.packed_inception_time(3, _C, num_estimators=_M, alpha=2, **_IT)
            return _cls(net, _seq(), mode, fmt=_repeat(), ensemble=True)
        if kind == "bayesian":
            return _cls(c.bayesian_inception_time(3, _C, num_samples=2, **_IT), _seq(), mode, loss=_elbo())
        if kind == "batched":
            return _cls(c.batched_inception_time(3, _C, num_estimators=_M, **_IT), _seq(), mode, ensemble=True)
        net = c.mimo_inception_time(3, _C, num_estimators=_M, **_IT)
        return _cls(net, _seq(), mode, fmt=_mimo_fmt(), ensemble=True)

    return make


# --- layers ------------------------------------------------------------------------------------

def _packed_encoder(mode):
    import torch

    from torch_uncertainty.layers import PackedLinear, PackedTransformerEncoderLayer

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = PackedLinear(16, 16, alpha=2, num_estimators=_M, first=True, implementation="einsum")
            self.layers = torch.nn.ModuleList(
                PackedTransformerEncoderLayer(d_model=16, nhead=2, alpha=2, num_estimators=_M, dim_feedforward=32,
                                              batch_first=True) for _ in range(2))
            self.head = PackedLinear(16, _C, alpha=2, num_estimators=_M, last=True, implementation="einsum")

        def forward(self, x):
            x = self.embed(x)
            for layer in self.layers:
                x = layer(x)
            return self.head(x.mean(1))

    return _cls(Net(), torch.randn(_B, 6, 16), mode, fmt=_repeat(), ensemble=True)


def _packed_decoder(mode):
    import torch

    from torch_uncertainty.layers import PackedTransformerDecoderLayer

    layer = PackedTransformerDecoderLayer(d_model=16, nhead=2, alpha=2, num_estimators=_M, dim_feedforward=32,
                                          batch_first=True)
    args = (torch.randn(_B, 5, 32), torch.randn(_B, 6, 32))  # (alpha * d_model: inside a packed stack)
    if mode == "eval":
        return layer, args, {}
    return mean_loss_module()(layer), args, {}  # noqa: F821


def _bayes_layers(mode):
    import torch

    from torch_uncertainty.layers import BayesConv1d, BayesLinear, FilterResponseNorm1d
    from torch_uncertainty.methods import StochasticModel

    core = torch.nn.Sequential(BayesConv1d(3, 8, 3, padding=1), FilterResponseNorm1d(8), torch.nn.Flatten(),
                               BayesLinear(8 * 24, _C))
    return _cls(StochasticModel(core, num_samples=2), _seq(), mode, loss=_elbo())


def _lpbnn_linear(mode):
    import torch

    from torch_uncertainty.layers.bayesian import LPBNNLinear

    net = torch.nn.Sequential(LPBNNLinear(_F, 16, num_estimators=_M, hidden_size=8), torch.nn.ReLU(),
                              LPBNNLinear(16, _C, num_estimators=_M, hidden_size=8))
    return _cls(net, _tab(), mode, fmt=_repeat(), ensemble=True)


def _abnn_layers(mode):
    import torch

    from torch_uncertainty.layers import ChannelLayerNorm
    from torch_uncertainty.layers.bayesian.abnn import BatchNormAdapter2d

    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), BatchNormAdapter2d(8, alpha=0.01), torch.nn.ReLU(),
                              torch.nn.Conv2d(8, 8, 3), ChannelLayerNorm(8), torch.nn.AdaptiveAvgPool2d(1),
                              torch.nn.Flatten(), torch.nn.Linear(8, _C))
    return _cls(net, _img(3, 16), mode)


# --- methods -----------------------------------------------------------------------------------

def _deep_ensembles(mode):
    from torch_uncertainty.methods import deep_ensembles
    from torch_uncertainty.models.classification import lenet

    net = deep_ensembles(lenet(in_channels=1, num_classes=_C), num_estimators=3)
    return _cls(net, _img(), mode, fmt=_repeat(3), ensemble=True)


def _deep_ensembles_reg(mode):
    from torch_uncertainty.losses import DistributionNLLLoss
    from torch_uncertainty.methods import deep_ensembles
    from torch_uncertainty.models.mlp import mlp
    from torch_uncertainty.routines import RegressionRoutine

    base = mlp(in_features=_F, num_outputs=1, hidden_dims=[16], dist_family="normal")
    net = deep_ensembles(base, num_estimators=_M, task="regression", probabilistic=True)
    if mode == "eval":
        return net, (_tab(),), {}
    import torch

    routine = RegressionRoutine(net, output_dim=1, loss=DistributionNLLLoss(), dist_family="normal",
                                is_ensemble=True, format_batch_fn=_repeat())
    return _step_cls()(routine), (_tab(), torch.randn(_B)), {}


def _mc_dropout(mode):
    from torch_uncertainty.methods import mc_dropout
    from torch_uncertainty.models.classification import lenet

    net = mc_dropout(lenet(in_channels=1, num_classes=_C, dropout_rate=0.3), num_estimators=4, last_layer=False)
    return _cls(net, _img(), mode, ensemble=True)


def _batch_ensemble_convert(mode):
    import torch

    from torch_uncertainty.methods import batch_ensemble

    core = torch.nn.Sequential(torch.nn.Linear(_F, 16), torch.nn.ReLU(), torch.nn.Linear(16, _C))
    net = batch_ensemble(core, num_estimators=_M, repeat_training_inputs=True, convert_layers=True)
    return _cls(net, _tab(), mode, fmt=_repeat(), ensemble=True)


def _swag(mode):
    from torch_uncertainty.methods import SWAG
    from torch_uncertainty.models.mlp import mlp

    net = SWAG(mlp(in_features=_F, num_outputs=_C, hidden_dims=[16]), cycle_start=0, cycle_length=1,
               num_estimators=3)
    net.update_wrapper(0)  # collect a first average, as the Lightning routine does each epoch
    net.update_wrapper(1)
    return _cls(net, _tab(), mode, ensemble=mode == "eval")


def _zero(mode):
    from torch_uncertainty.methods import Zero
    from torch_uncertainty.models.classification import lenet

    net = Zero(lenet(in_channels=1, num_classes=_C), num_tta=2, filter_views=0.5)
    return _cls(net, _img(), mode)


def _ema(mode):
    from torch_uncertainty.methods import EMA
    from torch_uncertainty.models.mlp import mlp

    net = EMA(mlp(in_features=_F, num_outputs=_C, hidden_dims=[16]), momentum=0.9)
    return _cls(net, _tab(), mode)


# --- post-processing ---------------------------------------------------------------------------

def _calib_loader(x_fn, classes=_C):
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    xs = torch.cat([x_fn() for _ in range(4)])
    ys = torch.arange(xs.shape[0]) % classes
    return DataLoader(TensorDataset(xs, ys), batch_size=8)


def _post(kind):
    def make(mode):
        import torch

        from torch_uncertainty import post_processing as pp
        from torch_uncertainty.models.classification import lenet
        from torch_uncertainty.models.mlp import mlp

        if kind == "mcbn":
            base = lenet(in_channels=1, num_classes=_C, norm=torch.nn.BatchNorm2d).eval()
            x_fn = _img
        elif kind == "laplace":
            base = mlp(in_features=_F, num_outputs=_C, hidden_dims=[16]).eval()
            x_fn = _tab
        else:
            base = lenet(in_channels=1, num_classes=_C).eval()
            x_fn = _img
        post = {
            "temperature": lambda: pp.TemperatureScaler(model=base, max_iter=5),
            "vector": lambda: pp.VectorScaler(num_classes=_C, model=base, max_iter=5),
            "dirichlet": lambda: pp.DirichletScaler(num_classes=_C, model=base, max_iter=5),
            "histogram": lambda: pp.HistogramBinningScaler(model=base, num_bins=5),
            "thr": lambda: pp.ConformalClsTHR(alpha=0.1, model=base, ts_max_iter=5),
            "aps": lambda: pp.ConformalClsAPS(alpha=0.1, model=base, ts_max_iter=5, randomized=True),
            "raps": lambda: pp.ConformalClsRAPS(alpha=0.1, model=base, ts_max_iter=5, regularization_rank=1),
            "mcbn": lambda: pp.MCBatchNorm(model=base, num_estimators=2, mc_batch_size=4),
            "laplace": lambda: pp.LaplaceApprox(task="classification", model=base, pred_type="nn", link_approx="mc"),
        }[kind]()
        loader = _calib_loader(x_fn)
        with torch.enable_grad():  # (fitting is eager, before the compiled forward)
            if kind in ("temperature", "dirichlet"):
                post.fit(loader, progress=False)
            else:
                post.fit(loader)
        post.eval()
        x = x_fn()
        if mode == "eval":
            return post, (x,), {}
        return mean_loss_module()(post), (x,), {}  # noqa: F821

    return make


MODELS = {
    # MLPs
    "mlp": _mlp,
    "mlp_normal_nll": _mlp_dist("normal", "nll"),
    "mlp_student_nll": _mlp_dist("student", "nll"),
    "mlp_nig_der": _mlp_dist("nig", "der"),
    "mlp_betanll": _mlp_betanll,
    "mlp_pinball": _mlp_pinball,
    "packed_mlp": _packed_mlp,
    "batched_mlp": _batched_mlp,
    "bayesian_mlp": _bayesian_mlp,
    "mimo_mlp": _mimo_mlp,
    # LeNet
    "lenet": _lenet(),
    "lenet_dec": _lenet("dec"),
    "lenet_mixup": _lenet(mixup_params={"mixtype": "mixup", "mixup_alpha": 1.0}),
    "lenet_mixupmp": _lenet("mixupmp", mixup_params={"mixtype": "mixupmp", "mixup_alpha": 1.0}),
    "lenet_binary_bce_ls": _lenet("bce_ls", classes=1),
    "packed_lenet": _packed_lenet,
    "batchensemble_lenet": _batchensemble_lenet,
    "bayesian_lenet": _bayesian_lenet,
    # ResNet / VGG
    "resnet18": _resnet,
    "packed_resnet18": _packed_resnet,
    "batched_resnet18": _batched_resnet,
    "masked_resnet18": _masked_resnet,
    "mimo_resnet18": _mimo_resnet,
    "lpbnn_resnet18": _lpbnn_resnet,
    "vgg11": _vgg,
    "packed_vgg11": _packed_vgg,
    # InceptionTime
    "inception_time": _inception("std"),
    "packed_inception_time": _inception("packed"),
    # layers
    "PackedTransformerEncoderLayer": _packed_encoder,
    "PackedTransformerDecoderLayer": _packed_decoder,
    "BayesConv1d_BayesLinear_FRN": _bayes_layers,
    "BatchNormAdapter2d_ChannelLayerNorm": _abnn_layers,
    # methods
    "deep_ensembles": _deep_ensembles,
    "deep_ensembles_regression": _deep_ensembles_reg,
    "mc_dropout": _mc_dropout,
    "batch_ensemble_convert": _batch_ensemble_convert,
    "SWAG": _swag,
    "Zero": _zero,
    # post-processing
    "TemperatureScaler": _post("temperature"),
    "DirichletScaler": _post("dirichlet"),
    "ConformalClsTHR": _post("thr"),
    "ConformalClsAPS": _post("aps"),
    "MCBatchNorm": _post("mcbn"),
    "LaplaceApprox": _post("laplace"),
}
