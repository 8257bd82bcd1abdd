"""piq (PyTorch Image Quality) 0.8.0: its full-reference and no-reference image-quality metrics
and the losses built on them, used as a user trains and validates an image-to-image model with
them: a tiny restoration net (``Conv2d(C, 8, 3) -> ReLU -> Conv2d(8, C, 3) -> Sigmoid``, random
weights, so its output lies in ``[0, data_range]`` as piq's input checks want) maps a batch of 2
random images to a prediction that is compared with a random target. Images are 2x3x64x64 unless
a metric needs more (MS-SSIM and IW-SSIM with their five default scales need 161 pixels: 176;
VIF needs 41), 1-channel where the model says grey, ``data_range=255`` where it says 255 (the
net's output scaled by 255), complex images as (N, C, H, W, 2) for the SSIM / MS-SSIM complex paths.

Eval: the validation step, ``metric(net(x), y)`` with the functional interface (``psnr``,
``ssim``, ``multi_scale_ssim``, ``information_weighted_ssim``, ``vif_p``, ``fsim``, ``gmsd``,
``multi_scale_gmsd``, ``haarpsi``, ``mdsi``, ``srsim``, ``vsi``, ``dss``, ``total_variation``,
``brisque``) and the options the README / docs show (``reduction``, ``data_range``, ``full``,
``downsample``, ``scale_weights``, ``chromatic``, ``combination``, ``parent``, ``norm_type``,
``convert_to_greyscale``, ...).
Train: the training step's loss forward, ``criterion(net(x), y)`` with the library's loss module
(``SSIMLoss``, ``MultiScaleSSIMLoss``, ``InformationWeightedSSIMLoss``, ``VIFLoss``, ``FSIMLoss``,
``GMSDLoss``, ``MultiScaleGMSDLoss``, ``HaarPSILoss``, ``MDSILoss``, ``SRSIMLoss``, ``VSILoss``,
``DSSLoss``, ``TVLoss``, ``BRISQUELoss``) held by the wrapper module as a submodule, configured as
in eval; ``psnr`` (no loss class) is trained on as ``-psnr``; the total-variation models train
an MSE reconstruction plus a ``TVLoss`` regulariser (the denoising use); one model mixes
``0.84 * MultiScaleSSIMLoss + 0.16 * L1`` (the mixed loss of Zhao et al. that piq's README
points to). 40 models.

    pip install --no-deps piq==0.8.0

piq declares only ``torchvision`` (held out, never installed); it imports nothing else outside
torch and the standard library (numpy, present already, in ``functional.filters`` / ``msid`` /
``gs``; scipy lazily in ``fid`` / ``msid``, unused here).

Stubbed (``stub_modules``): ``torchvision`` and ``torchvision.models`` (``vgg16``, ``vgg19``,
``inception_v3``) with ``torchvision.models.inception`` (``InceptionA`` / ``InceptionC`` /
``InceptionE``, subclassed at import time by ``feature_extractors/fid_inception.py``):
``piq/__init__`` imports ``msid`` -> ``base`` -> ``feature_extractors`` and ``perceptual`` at its
top. ``torchvision.models.utils`` is left absent (``fid_inception`` falls back to
``torch.utils.model_zoo.load_url`` on the ImportError).

BRISQUE: ``brisque._score_svr`` loads its SVM's support vectors with ``load_url`` (a download) on
every call. The two BRISQUE models point ``torch.hub`` at a private folder
(``/tmp/piq_zoo_hub``) and put there a stand-in ``brisque_svm_weights.pt`` of random weights of
the real shapes (``sv_coef`` (n,), ``sv`` (n, 36)), which ``load_url`` then reads from its cache
instead of downloading: random weights, as for every other model; ``load_url`` still runs on
every call, as in a real run.

Left out: the metrics built on pretrained feature extractors (they download weights, and the
extractors need torchvision): ``LPIPS``, ``DISTS``, ``ContentLoss``, ``StyleLoss`` (VGG16/19),
``PieAPP`` (its own pretrained net), ``CLIPIQA`` (CLIP weights), and the feature-set metrics
``FID``, ``KID``, ``IS`` / ``inception_score``, ``GS``, with ``MSID`` and ``PR`` of the same
``BaseFeatureMetric`` family (scores between two sets of InceptionV3 features that
``compute_feats`` extracts with the pretrained ``InceptionV3``; evaluation-time, not a training
loss). The ``piq.functional`` helpers (filters, colour conversions, ``imresize``) are covered
through the metrics that call them, not on their own.

Capture (2 shared cores, ``--timeout 120``): ``iw_ssim`` (176x176, five scales) timed out in eval
(so train was not run), ``srsim`` and ``srsim_chromatic`` in train; all three run eagerly (1.9-4.3 s).
Timeouts under Dynamo are data, kept as they are. Measured first as it came, before any rule
looked at it.
"""

PACKAGE = "piq"

_B = 2
_HUB = "/tmp/piq_zoo_hub"
_N_SV = 64  # stand-in BRISQUE support vectors


def _stub():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchvision": ((), ()),
            "torchvision.models": (("vgg16", "vgg19", "inception_v3"), ()),
            "torchvision.models.inception": ((), ("InceptionA", "InceptionC", "InceptionE")),
        },
        "piq imports",
    )


def before_build():
    _stub()


def warm_up():
    _stub()
    import torch  # noqa: F401

    import piq  # noqa: F401


# --- the wrapper ----------------------------------------------------------------------------------

def _net(channels, scale):
    import torch
    from torch import nn

    class TinyRestorer(nn.Module):
        """A small image-to-image model whose output lies in [0, scale]."""

        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(channels, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, channels, 3, padding=1))
            self.scale = scale

        def forward(self, x):
            return torch.sigmoid(self.body(x)) * self.scale

    return TinyRestorer()


def _wrapper():
    from torch import nn

    class MetricStep(nn.Module):
        """``metric(net(x), y)``: a validation metric (eval) or a training criterion (train)."""

        def __init__(self, net, metric, kwargs, complex_=False):
            super().__init__()
            self.net = net
            self.metric = metric  # a piq loss module (a submodule) or a piq function
            self.kwargs = kwargs
            self.complex_ = complex_

        def forward(self, x, y):
            out = self.net(x)
            if self.complex_:  # real / imaginary parts in the last dim, as piq's complex SSIM takes
                out = _complex_pair(out)
            score = self.metric(out, y, **self.kwargs)
            if self.training and score.dim():  # a per-image loss (reduction="none", complex): its mean
                score = score.mean()
            return score

    return MetricStep


def _complex_pair(out):
    import torch

    return torch.stack([out, out.flip(-1)], dim=-1)


def _images(channels, size, scale, complex_=False):
    import torch

    x = torch.rand(_B, channels, size, size) * scale
    y = torch.rand(_B, channels, size, size) * scale
    if complex_:
        y = torch.stack([y, torch.rand(_B, channels, size, size) * scale], dim=-1)
    return x, y


def _model(fn_name, loss_name, *, channels=3, size=64, scale=1.0, kw=None, loss_kw=None, complex_=False,
           train_sign=1.0):
    """eval: ``piq.<fn_name>(net(x), y, **kw)``; train: ``piq.<loss_name>(**loss_kw)(net(x), y)``."""

    def make(mode):
        import piq

        net = _net(channels, scale)
        x, y = _images(channels, size, scale, complex_)
        if mode == "train" and loss_name is not None:
            metric, kwargs = getattr(piq, loss_name)(**(loss_kw if loss_kw is not None else kw or {})), {}
        else:
            metric, kwargs = getattr(piq, fn_name), dict(kw or {})
            if mode == "train":  # no loss class: the metric itself, as a user trains on it
                metric = _signed(metric, train_sign)
        return _wrapper()(net, metric, kwargs, complex_), (x, y), {}

    return make


def _signed(fn, sign):
    def loss(x, y, **kwargs):
        return sign * fn(x, y, **kwargs)

    loss.__name__ = f"signed_{fn.__name__}"
    return loss


# --- no-reference and regulariser models -----------------------------------------------------------

def _tv(norm_type, reduction="mean"):
    def make(mode):
        import piq
        from torch import nn

        class Denoise(nn.Module):
            """eval: the total variation of the output; train: MSE + 0.1 * TVLoss (the denoising use)."""

            def __init__(self):
                super().__init__()
                self.net = _net(3, 1.0)
                self.tv = piq.TVLoss(norm_type=norm_type, reduction=reduction)
                self.mse = nn.MSELoss()

            def forward(self, x, y):
                out = self.net(x)
                if not self.training:
                    return piq.total_variation(out, reduction=reduction, norm_type=norm_type)
                tv = self.tv(out)
                if reduction == "none":
                    tv = tv.mean()
                return self.mse(out, y) + 0.1 * tv

        return Denoise(), _images(3, 64, 1.0), {}

    return make


def _brisque_weights():
    import os

    import torch

    path = os.path.join(_HUB, "checkpoints", "brisque_svm_weights.pt")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        g = torch.Generator().manual_seed(0)
        sv_coef = torch.randn(_N_SV, generator=g)
        sv = torch.rand(_N_SV, 36, generator=g) * 2 - 1
        torch.save((sv_coef, sv), path + ".tmp")
        os.replace(path + ".tmp", path)
    torch.hub.set_dir(_HUB)


def _brisque(kw):
    def make(mode):
        import piq
        from torch import nn

        _brisque_weights()

        class NoReference(nn.Module):
            """eval: ``brisque(net(x))``; train: ``BRISQUELoss()(net(x))`` (a no-reference quality loss)."""

            def __init__(self):
                super().__init__()
                self.net = _net(kw.get("channels", 3), 1.0)
                self.loss = piq.BRISQUELoss(**kw.get("loss", {}))

            def forward(self, x):
                out = self.net(x)
                if self.training:
                    return self.loss(out)
                return piq.brisque(out, **kw.get("fn", {}))

        x, _ = _images(kw.get("channels", 3), 64, 1.0)
        return NoReference(), (x,), {}

    return make


def _mixed_ms_ssim_l1(mode):
    import piq
    import torch
    from torch import nn

    class MixedLoss(nn.Module):
        """train: 0.84 * MS-SSIM loss + 0.16 * L1; eval: MS-SSIM and PSNR of the output."""

        def __init__(self):
            super().__init__()
            self.net = _net(3, 1.0)
            self.ms_ssim = piq.MultiScaleSSIMLoss(kernel_size=5, scale_weights=torch.tensor([0.3, 0.4, 0.3]))
            self.l1 = nn.L1Loss()

        def forward(self, x, y):
            out = self.net(x)
            if self.training:
                return 0.84 * self.ms_ssim(out, y) + 0.16 * self.l1(out, y)
            return piq.multi_scale_ssim(out, y, kernel_size=5, scale_weights=torch.tensor([0.3, 0.4, 0.3])), \
                piq.psnr(out, y)

    return MixedLoss(), _images(3, 64, 1.0), {}


def _weights(*w):
    import torch

    return torch.tensor(w)


def _lazy(fn_name, loss_name, weights, **rest):
    """A model whose kwargs hold a tensor (scale_weights), made when the factory runs."""

    def make(mode):
        kw = dict(rest.get("kw", {}), scale_weights=_weights(*weights))
        other = {k: v for k, v in rest.items() if k != "kw"}
        return _model(fn_name, loss_name, kw=kw, **other)(mode)

    return make


MODELS = {
    # PSNR (no loss class: -psnr in train)
    "psnr": _model("psnr", None, train_sign=-1.0),
    "psnr_grey255": _model("psnr", None, scale=255.0, kw={"data_range": 255, "convert_to_greyscale": True,
                                                         "reduction": "none"}, train_sign=-1.0),
    # SSIM family
    "ssim": _model("ssim", "SSIMLoss", kw={"data_range": 1.0}),
    "ssim_grey_k7_nodownsample": _model("ssim", "SSIMLoss", channels=1,
                                        kw={"kernel_size": 7, "downsample": False}),
    "ssim_full_255": _model("ssim", "SSIMLoss", scale=255.0, kw={"data_range": 255, "full": True},
                            loss_kw={"data_range": 255, "reduction": "sum"}),
    "ssim_complex": _model("ssim", "SSIMLoss", kw={"reduction": "none"}, loss_kw={}, complex_=True),
    "ms_ssim": _model("multi_scale_ssim", "MultiScaleSSIMLoss", size=176, kw={"data_range": 1.0}),
    "ms_ssim_3scales": _lazy("multi_scale_ssim", "MultiScaleSSIMLoss", (0.2, 0.5, 0.3),
                             kw={"kernel_size": 5, "k2": 0.4}),
    "ms_ssim_complex": _lazy("multi_scale_ssim", "MultiScaleSSIMLoss", (0.3, 0.4, 0.3),
                             kw={"kernel_size": 5}, complex_=True),
    "iw_ssim": _model("information_weighted_ssim", "InformationWeightedSSIMLoss", size=176,
                      kw={"data_range": 1.0}),
    "iw_ssim_noparent_3scales": _lazy("information_weighted_ssim", "InformationWeightedSSIMLoss",
                                      (0.3, 0.4, 0.3), kw={"kernel_size": 7, "parent": False}),
    "iw_ssim_grey_255": _lazy("information_weighted_ssim", "InformationWeightedSSIMLoss", (0.2, 0.3, 0.5),
                              channels=1, scale=255.0, kw={"data_range": 255, "kernel_size": 5,
                                                            "reduction": "sum"}),
    # VIF
    "vif_p": _model("vif_p", "VIFLoss", kw={"data_range": 1.0}),
    "vif_p_grey_none": _model("vif_p", "VIFLoss", channels=1, size=48, kw={"sigma_n_sq": 0.4, "reduction": "none"}),
    # FSIM
    "fsim": _model("fsim", "FSIMLoss", kw={"data_range": 1.0}),
    "fsim_achromatic": _model("fsim", "FSIMLoss", kw={"chromatic": False, "scales": 3, "orientations": 6}),
    "fsim_grey": _model("fsim", "FSIMLoss", channels=1, kw={"chromatic": False}),
    # GMSD
    "gmsd": _model("gmsd", "GMSDLoss", kw={"data_range": 1.0}),
    "gmsd_grey_255": _model("gmsd", "GMSDLoss", channels=1, scale=255.0, kw={"data_range": 255,
                                                                              "reduction": "none"},
                            loss_kw={"data_range": 255}),
    "ms_gmsd": _model("multi_scale_gmsd", "MultiScaleGMSDLoss", kw={"data_range": 1.0}),
    "ms_gmsd_chromatic": _model("multi_scale_gmsd", "MultiScaleGMSDLoss", kw={"chromatic": True}),
    "ms_gmsd_weights": _lazy("multi_scale_gmsd", "MultiScaleGMSDLoss", (0.2, 0.3, 0.5), channels=1,
                             kw={"reduction": "sum"}),
    # HaarPSI
    "haarpsi": _model("haarpsi", "HaarPSILoss", kw={"data_range": 1.0}),
    "haarpsi_nosubsample": _model("haarpsi", "HaarPSILoss", kw={"subsample": False, "c": 20.0}),
    "haarpsi_grey": _model("haarpsi", "HaarPSILoss", channels=1, kw={"reduction": "none"},
                           loss_kw={}),
    # MDSI
    "mdsi_sum": _model("mdsi", "MDSILoss", kw={"data_range": 1.0, "combination": "sum"}),
    "mdsi_mult": _model("mdsi", "MDSILoss", kw={"combination": "mult"}),
    "mdsi_grey": _model("mdsi", "MDSILoss", channels=1, kw={}),
    # SR-SIM
    "srsim": _model("srsim", "SRSIMLoss", kw={"data_range": 1.0}),
    "srsim_chromatic": _model("srsim", "SRSIMLoss", kw={"chromatic": True}),
    # VSI
    "vsi": _model("vsi", "VSILoss", kw={"data_range": 1.0}),
    "vsi_255": _model("vsi", "VSILoss", scale=255.0, kw={"data_range": 255, "reduction": "none"},
                      loss_kw={"data_range": 255}),
    # DSS
    "dss": _model("dss", "DSSLoss", kw={"data_range": 1.0}),
    "dss_grey_dct4": _model("dss", "DSSLoss", channels=1, kw={"dct_size": 4, "kernel_size": 5,
                                                              "percentile": 0.1}),
    # total variation (a regulariser)
    "tv_l2": _tv("l2"),
    "tv_l1": _tv("l1"),
    "tv_l2_squared_none": _tv("l2_squared", "none"),
    # no-reference BRISQUE
    "brisque": _brisque({}),
    "brisque_grey_sum": _brisque({"channels": 1, "fn": {"reduction": "sum", "kernel_size": 5},
                                  "loss": {"reduction": "sum", "kernel_size": 5}}),
    # a mixed loss
    "mixed_ms_ssim_l1": _mixed_ms_ssim_l1,
}
