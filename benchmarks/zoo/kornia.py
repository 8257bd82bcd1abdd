"""kornia: feature detectors and descriptors, filters, augmentations, contrib models and
losses, small inputs, random weights (``pretrained=False`` everywhere; no download).

    pip install --no-deps kornia==0.9.0
    pip install kornia_rs==0.2.0
"""

PACKAGE = "kornia"


def _img(b=2, c=1, h=32, w=32):
    import torch

    g = torch.Generator().manual_seed(0)
    return torch.rand(b, c, h, w, generator=g)


def _mod(factory, *inputs):
    """``factory()`` builds the module; each input is a callable making one argument."""
    return lambda mode: (factory(), tuple(i() for i in inputs), {})


def _k(path):
    import importlib

    mod, _, name = path.rpartition(".")
    return getattr(importlib.import_module(mod), name)


def _patches():
    return _img(8, 1, 32, 32)


def _aug(name, c=3, **kwargs):
    return _mod(lambda: _k(f"kornia.augmentation.{name}")(p=1.0, **kwargs), lambda: _img(2, c, 32, 32))


def _loss(name, pred, target, **kwargs):
    return _mod(lambda: _k(f"kornia.losses.{name}")(**kwargs), pred, target)


def _labels():
    import torch

    return torch.randint(0, 3, (2, 16, 16))


MODELS = {
    # feature: descriptors on patches, detectors and dense models on images
    "HardNet": _mod(lambda: _k("kornia.feature.HardNet")(pretrained=False), _patches),
    "HardNet8": _mod(lambda: _k("kornia.feature.HardNet8")(pretrained=False), _patches),
    "SOSNet": _mod(lambda: _k("kornia.feature.SOSNet")(pretrained=False), _patches),
    "TFeat": _mod(lambda: _k("kornia.feature.TFeat")(pretrained=False), _patches),
    "HyNet": _mod(lambda: _k("kornia.feature.HyNet")(pretrained=False), _patches),
    "SIFTDescriptor": _mod(lambda: _k("kornia.feature.SIFTDescriptor")(32), _patches),
    "MKDDescriptor": _mod(lambda: _k("kornia.feature.MKDDescriptor")(32, whitening=None), _patches),
    "DenseSIFTDescriptor": _mod(lambda: _k("kornia.feature.DenseSIFTDescriptor")(), _img),
    "OriNet": _mod(lambda: _k("kornia.feature.OriNet")(pretrained=False), _patches),
    "PatchDominantGradientOrientation": _mod(lambda: _k("kornia.feature.PatchDominantGradientOrientation")(32),
                                             _patches),
    "PatchAffineShapeEstimator": _mod(lambda: _k("kornia.feature.PatchAffineShapeEstimator")(32), _patches),
    "KeyNet": _mod(lambda: _k("kornia.feature.KeyNet")(pretrained=False), _img),
    "CornerHarris": _mod(lambda: _k("kornia.feature.CornerHarris")(0.04), _img),
    "BlobHessian": _mod(lambda: _k("kornia.feature.BlobHessian")(), _img),
    "ScaleSpaceDetector": _mod(lambda: _k("kornia.feature.ScaleSpaceDetector")(num_features=16), _img),
    "SIFTFeature": _mod(lambda: _k("kornia.feature.SIFTFeature")(num_features=16), lambda: _img(1, 1, 64, 64)),
    "DISK": _mod(lambda: _k("kornia.feature.DISK")(), lambda: _img(1, 3, 64, 64)),
    "ALIKED": _mod(lambda: _k("kornia.feature.ALIKED")(model_name="aliked-t16", max_num_keypoints=16),
                   lambda: _img(1, 3, 64, 64)),
    "XFeatModel": _mod(lambda: _k("kornia.feature.XFeatModel")(), lambda: _img(1, 1, 64, 64)),
    # filters
    "GaussianBlur2d": _mod(lambda: _k("kornia.filters.GaussianBlur2d")((5, 5), (1.5, 1.5)), _img),
    "Canny": _mod(lambda: _k("kornia.filters.Canny")(), _img),
    "MedianBlur": _mod(lambda: _k("kornia.filters.MedianBlur")((3, 3)), _img),
    "BilateralBlur": _mod(lambda: _k("kornia.filters.BilateralBlur")((5, 5), 0.1, (1.5, 1.5)), _img),
    "UnsharpMask": _mod(lambda: _k("kornia.filters.UnsharpMask")((3, 3), (1.5, 1.5)), _img),
    "MotionBlur": _mod(lambda: _k("kornia.filters.MotionBlur")(5, 35.0, 0.5), _img),
    "DexiNed": _mod(lambda: _k("kornia.models.dexined.DexiNed")(pretrained=False), lambda: _img(1, 3, 32, 32)),
    # augmentations (p=1: the sampling and the transform both run)
    "RandomAffine": _aug("RandomAffine", degrees=15.0, translate=(0.1, 0.1)),
    "RandomResizedCrop": _aug("RandomResizedCrop", size=(16, 16)),
    "ColorJiggle": _aug("ColorJiggle", brightness=0.2, contrast=0.2, saturation=0.2, hue=0.1),
    "RandomErasing": _aug("RandomErasing"),
    "RandomPerspective": _aug("RandomPerspective", distortion_scale=0.3),
    "RandomGaussianBlur": _aug("RandomGaussianBlur", kernel_size=(3, 3), sigma=(0.1, 2.0)),
    "RandomHorizontalFlip": _aug("RandomHorizontalFlip"),
    "RandomMixUpV2": _mod(lambda: _k("kornia.augmentation.RandomMixUpV2")(p=1.0), lambda: _img(2, 3, 32, 32)),
    # contrib and models
    "TinyViT": _mod(lambda: _k("kornia.contrib.TinyViT")(img_size=64, embed_dims=[16, 32, 32, 32], depths=[1, 1, 1, 1],
                                                         num_heads=[1, 1, 2, 2], window_sizes=[2, 2, 2, 2],
                                                         num_classes=3), lambda: _img(1, 3, 64, 64)),
    "ExtractTensorPatches": _mod(lambda: _k("kornia.contrib.ExtractTensorPatches")(8, 8), _img),
    "DistanceTransform": _mod(lambda: _k("kornia.contrib.DistanceTransform")(), lambda: (_img() > 0.9).float()),
    # losses
    "FocalLoss": _loss("FocalLoss", lambda: _img(2, 3, 16, 16), _labels, alpha=0.5, reduction="mean"),
    "DiceLoss": _loss("DiceLoss", lambda: _img(2, 3, 16, 16), _labels),
    "TverskyLoss": _loss("TverskyLoss", lambda: _img(2, 3, 16, 16), _labels, alpha=0.5, beta=0.5),
    "SSIMLoss": _loss("SSIMLoss", _img, _img, window_size=5),
    "TotalVariation": _mod(lambda: _k("kornia.losses.TotalVariation")(), _img),
}
