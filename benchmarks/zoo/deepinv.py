"""DeepInverse (deepinv) 0.5.0: imaging inverse problems as its README, examples and tests use
it: tiny images (the tests' ``DummyCircles``: random coloured discs, 32x32, batches of 2, from
``deepinv.tests.dummy``, which the wheel ships), random weights (``pretrained=None`` everywhere,
no download), tiny widths.

- denoisers (``model(y, sigma=...)``; trained as the denoising examples do: ``ArtifactRemoval``
  around the denoiser on ``Denoising(GaussianNoise(0.1))`` with ``SupLoss``): ``DnCNN``, ``DRUNet``,
  ``UNet``, ``SCUNet``, ``SwinIR``, ``Restormer``, ``PromptIR``, ``MPRNet``, ``GSDRUNet``,
  ``DScCP``, ``FFDNet``, ``AutoEncoder`` (1x16x16), the diffusion backbones ``NCSNpp`` and
  ``ADMUNet`` (their ``(x, sigma)`` denoiser interface; 32 channels, GroupNorm's 32 groups), an
  ``EquivariantDenoiser`` (``Reflect * Shift``) around a DRUNet, ``GSDRUNet`` (``detach=False`` in
  training, as its docs ask); classical ones, eval only (no parameters to train): ``TVDenoiser`` and
  ``TGVDenoiser`` (``ths=0.1``, 10 iterations), ``MedianFilter``, ``BilateralFilter``;
- reconstruction models ``model(y, physics)`` trained through a real ``dinv.Trainer`` (its
  ``setup_train`` adapts the model to the losses, its ``get_samples`` draws the online measurements
  from the loader; the step is ``compute_loss``'s forward part: ``model_inference`` then the sum of
  each loss's mean): ``ArtifactRemoval(UNet)`` on ``Inpainting`` with ``SupLoss``
  (demo_training.py), on ``MRI`` with ``MCLoss + EILoss(Shift)`` (demo_equivariant_imaging.py;
  the tests' "mcei"), on ``Inpainting`` with ``MCLoss + EILoss(Scale)`` ("mcei-scale"),
  ``ArtifactRemoval(UNet, mode="pinv")`` on ``Tomography`` with ``SplittingLoss``
  (demo_splitting_loss.py), ``SplittingLoss + TVLoss`` ("splittv"), ``SurePoissonLoss``
  (demo_sure_denoising.py), ``SureGaussianLoss(unsure=True)`` (demo_unsure.py), ``R2RLoss``
  (demo_r2r_denoising.py), ``Neighbor2Neighbor`` (demo_n2n_denoising.py), ``MOILoss`` over three
  inpainting masks (demo_multioperator_imaging.py), ``AugmentConsistencyLoss`` (VORTEX),
  ``EquivariantSplittingLoss`` (demo_equivariant_splitting.py), ``MoDL`` and ``VarNet`` on MRI,
  ``VarNet(mode="e2e-varnet")`` on ``MultiCoilMRI``, ``RAM`` on inpainting, ``PanNet`` on
  ``Pansharpen``; unfolded algorithms: ``DRS(unfold=True)`` with a ``PnP(DnCNN)`` prior on
  ``Downsampling`` (demo_vanilla_unfolded.py) and ``PGD(DEQ=True, anderson_acceleration=True)`` on
  ``BlurFFT`` (demo_DEQ.py), ``ADMM(unfold=True)`` on ``CompressedSensing``;
- optimisation / plug-and-play (eval only: no trainable parameters, or none trained in their
  examples): ``PGD`` + ``PnP(DnCNN)`` on ``Tomography`` (demo_vanilla_PnP.py), DPIR (``HQS`` +
  ``PnP(DRUNet)`` with ``get_DPIR_params``, demo_PnP_DPIR_deblur.py), ``PGD`` + ``TVPrior``
  (demo_TV_minimisation.py), ``MD`` + ``RED`` with Burg entropy and a Poisson likelihood
  (demo_PnP_mirror_descent.py), ``WienerDeconvolution``;
- sampling (eval only): ``DPS`` (demo_dps.py, fewer steps), ``DDRM`` through ``DiffusionSampler``
  (demo_ddrm.py), ``DiffPIR`` (with a tiny ``ADMUNet`` for its ``DiffUNet``), ``PosteriorDiffusion``
  with a variance-exploding SDE, an Euler solver, ``NCSNpp`` and ``DPSDataFidelity``
  (demo_diffusion_sde.py), ``ULA`` with ``ScorePrior(MedianFilter)`` (demo_custom_kernel.py),
  ``DeepImagePrior(ConvDecoder)`` (demo_dip.py; it optimises inside its forward).

Eval: the denoiser's or model's forward as the examples call it. Train: see above; the
``Trainer``'s AverageMeter logging (``.cpu().numpy()``) and the backward/optimizer step around the
loss are left out, as the other adapters leave the optimizer out.

    pip install --no-deps deepinv==0.5.0 natsort==8.4.0 h5py==3.16.0

(numpy, scipy, einops, torchmetrics, tqdm, requests, pillow are installed already; matplotlib is
only imported inside plotting functions, never called here.)

Stubbed (``stub_modules``, only when not installed): ``torchvision`` (held out): ``deepinv``
imports it at the top, ``transform.rotate`` imports ``rotate`` / ``InterpolationMode``, the Trainer
``save_image`` and ``transforms.functional``, ``utils.mixins`` ``CenterCrop`` / ``Resize`` (used
only by MRI cropping, which no model here asks for), datasets and plotting more. Hence ``Rotate``
is never used: where an example uses ``Rotate`` for equivariance, ``Shift`` (and ``Reflect``) stand
in for it, as the tests' "mcei" does.

Left out: models needing optional packages (wavelets: ptwt / pywavelets; BM3D; astra
tomography; sigpy / mrinufft; kornia's ``Homography``), ``DiffUNet`` (the 256x256 guided-diffusion
UNet, hundreds of MB even with random weights), ``EPLLDenoiser`` (needs its downloaded GMM),
``KernelIdentificationNetwork`` and ``DIRECTModel`` (download or external package), the GANs
(adversarial training needs two optimisers), ``Poisson2Sparse`` / ``CSGMGenerator`` (they
train inside their forward for hundreds of steps, like DIP, one of which is kept) and so
``ConvLista`` (its backbone: its ``forward(x)`` takes no noise level, so neither the denoiser call
nor ``ArtifactRemoval`` drives it), ``SRResNet`` (a super-resolution GAN generator).

Eager check on torch 2.13 CPU: all 50 models build and run (train: ``.backward()`` on the loss),
the 15 classical denoisers, optimisation algorithms and samplers in eval only (their "train" raises
NotImplementedError); the slowest are RAM (about 4 s eval, 12 s train) and SCUNet (6 s train).
Under Dynamo (capture, stop 46) RAM takes about 5 minutes of the 23 minutes of the whole capture; the
unfolded / DEQ algorithms (``BaseOptim`` with ``unfold`` or ``DEQ``) and VORTEX's train stop with an
InternalTorchDynamoError that eager does not have (left in: that is what a user meets).
"""

import contextlib
import functools
import io

PACKAGE = "deepinv"

_B, _S = 2, 32  # batch, image side
mean_loss_module = classifier_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite


def _stub():
    import torchmetrics  # noqa: F401  (first: it then sees no torchvision stand-in)

    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchvision": ((), ()),
            "torchvision.utils": (("save_image", "make_grid"), ()),
            "torchvision.transforms": ((), ("InterpolationMode", "CenterCrop", "Resize", "Compose", "ToTensor",
                                            "Grayscale", "RandomCrop", "Normalize", "Lambda")),
            "torchvision.transforms.functional": (("rotate", "crop", "resize", "center_crop", "to_tensor"), ()),
            "torchvision.datasets": ((), ()),
            "torchvision.datasets.folder": ((), ()),
            "torchvision.datasets.utils": (("download_and_extract_archive", "download_url"), ()),
        },
        "deepinv imports",
    )
    import sys

    folder = sys.modules["torchvision.datasets.folder"]
    if getattr(folder, "__file__", None) is None and not hasattr(folder, "IMG_EXTENSIONS"):
        folder.IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def warm_up():
    _stub()
    import torch  # noqa: F401

    import deepinv  # noqa: F401


before_build = _stub  # (ZooSuite runs it before each make: warm_up may not have run)


# --- data ------------------------------------------------------------------------------------

@functools.cache
def _dataset(channels=3, size=_S):
    from deepinv.tests.dummy import DummyCircles

    with contextlib.redirect_stdout(io.StringIO()):  # it prints its shape
        return DummyCircles(2 * _B, imsize=(channels, size, size))


def _loader(channels=3, size=_S):
    from torch.utils.data import DataLoader

    return DataLoader(_dataset(channels, size), batch_size=_B, shuffle=False)


def _x(channels=3, size=_S):
    return next(iter(_loader(channels, size)))["x"]


# --- the train step --------------------------------------------------------------------------

@functools.cache
def _train_step_class():
    import torch

    class TrainStep(torch.nn.Module):
        """``Trainer.compute_loss`` less its logging and backward: ``model_inference`` (with
        ``update_parameters=True`` where the model's forward takes it) then the sum of each loss's mean."""

        def __init__(self, trainer, physics):
            super().__init__()
            self.model, self.physics = trainer.model, physics
            object.__setattr__(self, "__wrapped__", trainer.model)
            self.losses = torch.nn.ModuleList(trainer.losses)
            self.update = trainer._model_accepts_update_parameters

        def forward(self, x, y):
            kwargs = {"update_parameters": True} if self.update else {}
            x_net = self.model(y, self.physics, **kwargs)
            total = 0
            for loss in self.losses:
                total = total + loss(x=x, x_net=x_net, y=y, physics=self.physics, model=self.model, epoch=0).mean()
            return total

    return TrainStep


def _trainer(model, physics, losses, loader, train):
    import torch

    import deepinv as dinv

    trainer = dinv.Trainer(
        model=model, physics=physics, optimizer=torch.optim.Adam(model.parameters(), lr=1e-3),
        train_dataloader=loader, epochs=1, losses=losses, online_measurements=True,
        metrics=dinv.metric.PSNR(), device="cpu", save_path=None, verbose=False, show_progress_bar=False)
    with contextlib.redirect_stdout(io.StringIO()):
        trainer.setup_train(train=train)
    x, y, physics = trainer.get_samples([iter(trainer.train_dataloader[0])], 0)
    return trainer, x, y, physics


def _recon(build, channels=3, size=_S):
    """``build()`` -> (model, physics, losses); eval: the Trainer's (loss-adapted) model on ``(y, physics)``
    as ``Trainer.test`` calls it; train: the Trainer's step."""

    def make(mode):
        import torch

        torch.manual_seed(0)
        model, physics, losses = build()
        trainer, x, y, physics = _trainer(model, physics, losses, _loader(channels, size), mode == "train")
        if mode == "train":
            return _train_step_class()(trainer, physics), (x, y), {}
        kwargs = {"update_parameters": True} if trainer._model_accepts_update_parameters else {}
        return trainer.model, (y, physics), kwargs

    return make


def _solver(build, channels=3, size=_S):
    """Eval only: ``build()`` -> (model, physics); ``model(y, physics)`` (a sampler or an optimisation
    algorithm with no trainable parameters, as its example runs it)."""

    def make(mode):
        import torch

        if mode == "train":
            raise NotImplementedError("an iterative solver / sampler without training in deepinv")
        torch.manual_seed(0)
        model, physics = build()
        x = _x(channels, size)
        y = physics(x)
        return model, (y, physics), {}

    return make


def _denoiser(build, channels=3, size=_S, sigma=0.1, trainable=True, call=None, train_attrs=()):
    """Eval: ``denoiser(y, sigma=sigma)`` (or ``**call``) on ``x + sigma * noise``; train:
    ``ArtifactRemoval(denoiser)`` on ``Denoising(GaussianNoise(sigma))`` with ``SupLoss`` through the
    Trainer (``train_attrs`` set on the denoiser first, where its docs ask for it in training)."""

    def make(mode):
        import torch

        import deepinv as dinv

        torch.manual_seed(0)
        net = build()
        if mode == "eval":
            x = _x(channels, size)
            y = x + sigma * torch.randn_like(x)
            return net, (y,), dict(call) if call is not None else {"sigma": sigma}
        if not trainable:
            raise NotImplementedError("a classical denoiser: nothing to train")
        for attr, value in train_attrs:
            setattr(net, attr, value)
        physics = dinv.physics.Denoising(dinv.physics.GaussianNoise(sigma))
        model = dinv.models.ArtifactRemoval(net)
        trainer, x, y, physics = _trainer(model, physics, [dinv.loss.SupLoss(metric=dinv.metric.MSE())],
                                          _loader(channels, size), True)
        return _train_step_class()(trainer, physics), (x, y), {}

    return make


# --- denoisers ---------------------------------------------------------------------------------

def _m():
    import deepinv as dinv

    return dinv.models


_DRUNET = dict(nc=(8, 16, 32, 64), nb=1, pretrained=None)

DENOISERS = {
    "DnCNN": lambda: _m().DnCNN(3, 3, depth=7, nf=16, pretrained=None),
    "DRUNet": lambda: _m().DRUNet(3, 3, **_DRUNET),
    "UNet": lambda: _m().UNet(3, 3, scales=3),
    "SCUNet": lambda: _m().SCUNet(in_nc=3, config=(1, 1, 1, 1, 1, 1, 1), dim=64, input_resolution=_S,  # head dim 32
                                  pretrained=None),
    "SwinIR": lambda: _m().SwinIR(img_size=_S, in_chans=3, embed_dim=12, depths=(2, 2), num_heads=(2, 2),
                                  window_size=8, upscale=1, img_range=1.0, upsampler="", pretrained=None),
    "Restormer": lambda: _m().Restormer(3, 3, dim=8, num_blocks=(1, 1, 1, 1), num_refinement_blocks=1,
                                        heads=(1, 1, 2, 2), pretrained=None),
    "PromptIR": lambda: _m().PromptIR(3, 3, dim=48, num_blocks=(1, 1, 1, 1), num_refinement_blocks=1,
                                      heads=(1, 2, 4, 8), pretrained=None),  # its prompt blocks fix dim=48
    "MPRNet": lambda: _m().MPRNet(3, 3, n_feat=10, scale_orsnetfeats=10, scale_unetfeats=10, num_cab=1),
    "DScCP": lambda: _m().DScCP(depth=3, n_channels_per_layer=16, pretrained=None),
    "FFDNet": lambda: _m().FFDNet(img_channels=3, n_conv_layers=2, nf=16, pretrained=None),
    "NCSNpp": lambda: _m().NCSNpp(img_resolution=_S, in_channels=3, out_channels=3, model_channels=32,
                                  channel_mult=(1, 2), num_blocks=1, attn_resolutions=(16,), pretrained=None),
    "ADMUNet": lambda: _m().ADMUNet(img_resolution=_S, in_channels=3, out_channels=3, model_channels=32,
                                    channel_mult=(1, 2), num_blocks=1, attn_resolutions=(16,), pretrained=None),
}


def _equivariant_drunet():
    import deepinv as dinv

    return dinv.models.EquivariantDenoiser(
        dinv.models.DRUNet(3, 3, **_DRUNET),
        transform=dinv.transform.Reflect(dim=[-1]) * dinv.transform.Shift(), random=True)


def _autoencoder():
    return _m().AutoEncoder(dim_input=1 * 16 * 16, dim_mid=64, dim_hid=16)


MODELS = {f"denoiser_{name}": _denoiser(build) for name, build in DENOISERS.items()}
MODELS.update({
    "denoiser_EquivariantDenoiser_DRUNet": _denoiser(_equivariant_drunet),
    "denoiser_AutoEncoder": _denoiser(_autoencoder, channels=1, size=16),
    "denoiser_GSDRUNet": _denoiser(lambda: _m().GSDRUNet(in_channels=3, out_channels=3, nc=(8, 16, 32, 64), nb=1,
                                                         pretrained=None), train_attrs=(("detach", False),)),
    "denoiser_TV": _denoiser(lambda: _m().TVDenoiser(n_it_max=10), trainable=False, call=(("ths", 0.1),)),
    "denoiser_TGV": _denoiser(lambda: _m().TGVDenoiser(n_it_max=10), trainable=False, call=(("ths", 0.1),)),
    "denoiser_Median": _denoiser(lambda: _m().MedianFilter(), trainable=False),
    "denoiser_Bilateral": _denoiser(lambda: _m().BilateralFilter(), trainable=False),
})


# --- reconstruction models (Trainer) -------------------------------------------------------------

def _mri_mask(size=_S, acceleration=4):
    import deepinv as dinv

    gen = dinv.physics.generator.GaussianMaskGenerator(img_size=(size, size), acceleration=acceleration,
                                                       rng=__import__("torch").Generator().manual_seed(0))
    return gen.step(batch_size=1)["mask"]


def _unet_inpainting_sup():  # demo_training.py
    import deepinv as dinv

    physics = dinv.physics.Inpainting((1, _S, _S), mask=0.8)
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2, batch_norm=False))
    return model, physics, [dinv.loss.SupLoss(metric=dinv.metric.MSE())]


def _unet_mri_mcei():  # demo_equivariant_imaging.py, Shift for its Rotate
    import deepinv as dinv

    physics = dinv.physics.MRI(mask=_mri_mask(), img_size=(_S, _S))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(2, 2, scales=3, batch_norm=False))
    return model, physics, [dinv.loss.MCLoss(), dinv.loss.EILoss(dinv.transform.Shift(n_trans=1))]


def _unet_inpainting_mcei_scale():  # tests' "mcei-scale"
    import deepinv as dinv

    physics = dinv.physics.Inpainting((3, _S, _S), mask=0.6, noise_model=dinv.physics.GaussianNoise(0.01))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(3, 3, scales=2))
    return model, physics, [dinv.loss.MCLoss(), dinv.loss.EILoss(dinv.transform.Scale())]


def _tomography_splitting(tv=False):  # demo_splitting_loss.py (and the tests' "splittv")
    def build():
        import deepinv as dinv

        physics = dinv.physics.Tomography(angles=20, img_width=_S, circle=False,
                                          noise_model=dinv.physics.GaussianNoise(0.01))
        model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2), mode="pinv")
        losses = [dinv.loss.SplittingLoss(split_ratio=0.6, eval_split_input=True, eval_n_samples=5)]
        if tv:
            losses.append(dinv.loss.TVLoss())
        return model, physics, losses

    return build


def _sure_poisson():  # demo_sure_denoising.py
    import deepinv as dinv

    physics = dinv.physics.Denoising(dinv.physics.PoissonNoise(0.1))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2))
    return model, physics, [dinv.loss.SurePoissonLoss(gain=0.1)]


def _unsure():  # demo_unsure.py
    import deepinv as dinv

    physics = dinv.physics.Denoising(dinv.physics.GaussianNoise(sigma=0.1))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2))
    return model, physics, [dinv.loss.SureGaussianLoss(sigma=0.05, unsure=True)]


def _r2r():  # demo_r2r_denoising.py
    import deepinv as dinv

    physics = dinv.physics.Denoising(dinv.physics.GaussianNoise(sigma=0.1))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2, residual=False))
    return model, physics, [dinv.loss.R2RLoss(noise_model=dinv.physics.GaussianNoise(0.1))]


def _n2n():  # demo_n2n_denoising.py
    import deepinv as dinv

    physics = dinv.physics.Denoising(dinv.physics.PoissonNoise(0.1))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=2))
    return model, physics, [dinv.loss.Neighbor2Neighbor()]


def _moi():  # demo_multioperator_imaging.py: three inpainting masks, MC + MOI
    import torch

    import deepinv as dinv

    rng = torch.Generator().manual_seed(0)
    physics = [dinv.physics.Inpainting((1, _S, _S), mask=0.5, rng=rng) for _ in range(3)]
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(1, 1, scales=3))
    return model, physics[0], [dinv.loss.MCLoss(), dinv.loss.MOILoss(physics)]


def _vortex():  # tests' "vortex"
    import deepinv as dinv

    physics = dinv.physics.MRI(mask=_mri_mask(), img_size=(_S, _S))
    model = dinv.models.ArtifactRemoval(dinv.models.UNet(2, 2, scales=2))
    return model, physics, [dinv.loss.AugmentConsistencyLoss(T_i=dinv.transform.RandomNoise(),
                                                             T_e=dinv.transform.Shift())]


def _equivariant_splitting():  # demo_equivariant_splitting.py, Shift for its Rotate
    import deepinv as dinv

    physics = dinv.physics.Inpainting((3, _S, _S), mask=0.7, noise_model=dinv.physics.GaussianNoise(0.05))
    mask_generator = dinv.physics.generator.BernoulliSplittingMaskGenerator(
        img_size=(3, _S, _S), split_ratio=0.9, pixelwise=True)
    loss = dinv.loss.EquivariantSplittingLoss(
        mask_generator=mask_generator,
        consistency_loss=dinv.loss.MCLoss(metric=dinv.metric.MSE()),
        prediction_loss=dinv.loss.MCLoss(metric=dinv.metric.MSE()),
        transform=dinv.transform.Shift(n_trans=1) * dinv.transform.Reflect(n_trans=1, dim=[-1]),
        eval_transform=dinv.transform.Shift(n_trans=2) * dinv.transform.Reflect(n_trans=2, dim=[-1]),
        eval_n_samples=3)
    model = dinv.models.ArtifactRemoval(dinv.models.DRUNet(3, 3, **_DRUNET), mode="direct")
    return model, physics, [loss]


def _modl():  # tests' choose_restoration_model("modl")
    import deepinv as dinv

    physics = dinv.physics.MRI(mask=_mri_mask(), img_size=(_S, _S))
    model = dinv.models.MoDL(denoiser=dinv.models.DnCNN(2, 2, 7, nf=16, pretrained=None), num_iter=3)
    return model, physics, [dinv.loss.SupLoss()]


def _varnet():  # tests' choose_restoration_model("varnet")
    import deepinv as dinv

    physics = dinv.physics.MRI(mask=_mri_mask(), img_size=(_S, _S))
    model = dinv.models.VarNet(denoiser=dinv.models.DnCNN(2, 2, 7, nf=16, pretrained=None), num_cascades=3,
                               mode="varnet")
    return model, physics, [dinv.loss.SupLoss()]


def _coil_maps(n, size=_S):
    """Smooth complex sensitivities, one per coil around the image (``coil_maps=4`` would simulate birdcage
    maps through sigpy, not installed), normalised to unit sum of squares as the tests' maps are."""
    import math

    import torch

    g = torch.linspace(-1, 1, size)
    yy, xx = torch.meshgrid(g, g, indexing="ij")
    maps = []
    for k in range(n):
        a = 2 * math.pi * k / n
        cy, cx = 1.2 * math.sin(a), 1.2 * math.cos(a)
        mag = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 1.5)
        maps.append(mag * torch.exp(1j * math.pi * 0.25 * (xx * math.cos(a) + yy * math.sin(a))))
    maps = torch.stack(maps).to(torch.complex64)
    return maps / maps.abs().pow(2).sum(0, keepdim=True).sqrt()


def _e2e_varnet():  # E2E-VarNet on multi-coil MRI (its sensitivity model built by VarNet)
    import deepinv as dinv

    physics = dinv.physics.MultiCoilMRI(mask=_mri_mask(), coil_maps=_coil_maps(4), img_size=(_S, _S))
    model = dinv.models.VarNet(denoiser=dinv.models.UNet(2, 2, scales=2), num_cascades=2, mode="e2e-varnet")
    return model, physics, [dinv.loss.SupLoss()]


def _ram():  # demo_foundation_model.py / demo_lowfieldmri.py: RAM fine-tuned on a task
    import deepinv as dinv

    physics = dinv.physics.Inpainting((3, _S, _S), mask=0.7, noise_model=dinv.physics.GaussianNoise(0.05))
    return dinv.models.RAM(pretrained=None), physics, [dinv.loss.SupLoss()]


def _pannet():  # tests' choose_restoration_model("pannet"), demo_remote_sensing.py
    import deepinv as dinv

    physics = dinv.physics.Pansharpen((4, _S, _S), factor=4)
    model = dinv.models.PanNet(hrms_shape=(4, _S, _S), scale_factor=4)
    return model, physics, [dinv.loss.SupLoss()]


def _unfolded_drs():  # demo_vanilla_unfolded.py
    import torch

    import deepinv as dinv

    physics = dinv.physics.Downsampling(filter="gaussian", img_size=(3, _S, _S), factor=2,
                                        noise_model=dinv.physics.GaussianNoise(sigma=0.0075))
    max_iter = 5
    norm = physics.compute_norm(torch.ones((1, 3, _S, _S)), squared=True, verbose=False)
    model = dinv.optim.DRS(
        stepsize=[1.0 / norm] * max_iter, sigma_denoiser=[1.0] * max_iter, beta=1.0,
        trainable_params=["stepsize", "beta", "sigma_denoiser"], data_fidelity=dinv.optim.L2(),
        max_iter=max_iter, prior=dinv.optim.PnP(denoiser=dinv.models.DnCNN(depth=7, nf=16, pretrained=None)),
        unfold=True)
    return model, physics, [dinv.loss.SupLoss(metric=dinv.metric.MSE())]


def _deq_pgd():  # demo_DEQ.py
    import deepinv as dinv

    physics = dinv.physics.BlurFFT(img_size=(3, _S, _S), filter=dinv.physics.blur.gaussian_blur(sigma=(1, 1)),
                                   noise_model=dinv.physics.GaussianNoise(sigma=0.03))
    model = dinv.optim.PGD(
        DEQ=True, trainable_params=["stepsize", "sigma_denoiser"], stepsize=[1.0], sigma_denoiser=[0.03],
        data_fidelity=dinv.optim.L2(), max_iter=5,
        prior=dinv.optim.PnP(denoiser=dinv.models.DnCNN(depth=7, nf=16, pretrained=None)),
        anderson_acceleration=True)
    return model, physics, [dinv.loss.SupLoss(metric=dinv.metric.MSE())]


def _unfolded_admm():  # test_unfolded.py: an unfolded ADMM with a PnP denoiser on compressed sensing
    import deepinv as dinv

    physics = dinv.physics.CompressedSensing(m=128, img_size=(1, 16, 16),
                                             noise_model=dinv.physics.GaussianNoise(0.01))
    max_iter = 4
    model = dinv.optim.ADMM(
        stepsize=[1.0] * max_iter, sigma_denoiser=[0.05] * max_iter, trainable_params=["stepsize", "sigma_denoiser"],
        data_fidelity=dinv.optim.L2(), max_iter=max_iter,
        prior=dinv.optim.PnP(denoiser=dinv.models.UNet(1, 1, scales=2)), unfold=True)
    return model, physics, [dinv.loss.SupLoss(metric=dinv.metric.MSE())]


MODELS.update({
    "ArtifactRemoval_UNet_Inpainting_SupLoss": _recon(_unet_inpainting_sup, channels=1),
    "ArtifactRemoval_UNet_MRI_MC_EI_Shift": _recon(_unet_mri_mcei, channels=2),
    "ArtifactRemoval_UNet_Inpainting_MC_EI_Scale": _recon(_unet_inpainting_mcei_scale),
    "ArtifactRemoval_UNet_Tomography_SplittingLoss": _recon(_tomography_splitting(), channels=1),
    "ArtifactRemoval_UNet_Tomography_Splitting_TV": _recon(_tomography_splitting(tv=True), channels=1),
    "ArtifactRemoval_UNet_SurePoisson": _recon(_sure_poisson, channels=1),
    "ArtifactRemoval_UNet_UNSURE": _recon(_unsure, channels=1),
    "ArtifactRemoval_UNet_R2R": _recon(_r2r, channels=1),
    "ArtifactRemoval_UNet_Neighbor2Neighbor": _recon(_n2n, channels=1),
    "ArtifactRemoval_UNet_MC_MOI": _recon(_moi, channels=1),
    "ArtifactRemoval_UNet_MRI_VORTEX": _recon(_vortex, channels=2),
    "ArtifactRemoval_DRUNet_EquivariantSplitting": _recon(_equivariant_splitting),
    "MoDL_MRI": _recon(_modl, channels=2),
    "VarNet_MRI": _recon(_varnet, channels=2),
    "E2EVarNet_MultiCoilMRI": _recon(_e2e_varnet, channels=2),
    "RAM_Inpainting": _recon(_ram),
    "PanNet_Pansharpen": _recon(_pannet, channels=4),
    "unfolded_DRS_PnP_DnCNN_Downsampling": _recon(_unfolded_drs),
    "DEQ_PGD_Anderson_BlurFFT": _recon(_deq_pgd),
    "unfolded_ADMM_PnP_UNet_CompressedSensing": _recon(_unfolded_admm, channels=1, size=16),
})


# --- optimisation and sampling (eval only) -----------------------------------------------------

def _blur_fft(sigma=0.03, channels=3):
    import deepinv as dinv

    return dinv.physics.BlurFFT(img_size=(channels, _S, _S), filter=dinv.physics.blur.gaussian_blur(sigma=(1, 1)),
                                noise_model=dinv.physics.GaussianNoise(sigma=sigma))


def _pnp_pgd_tomography():  # demo_vanilla_PnP.py
    import torch

    import deepinv as dinv

    angles = 20
    physics = dinv.physics.Tomography(img_width=_S, angles=angles, normalize=True,
                                      noise_model=dinv.physics.GaussianNoise(sigma=0.03))
    scaling = torch.pi / (2 * angles)
    model = dinv.optim.PGD(
        data_fidelity=dinv.optim.L2(), prior=dinv.optim.PnP(denoiser=dinv.models.DnCNN(1, 1, depth=7, nf=16,
                                                                                      pretrained=None)),
        stepsize=15 * scaling, sigma_denoiser=0.01, early_stop=True, max_iter=10,
        custom_init=lambda y, physics: physics.A_adjoint(y) * scaling)
    return model.eval(), physics


def _dpir():  # demo_PnP_DPIR_deblur.py
    import deepinv as dinv
    from deepinv.optim.dpir import get_DPIR_params

    sigma_denoiser, stepsize, max_iter = get_DPIR_params(0.03)
    model = dinv.optim.HQS(
        prior=dinv.optim.PnP(denoiser=dinv.models.DRUNet(3, 3, **_DRUNET)), data_fidelity=dinv.optim.L2(),
        stepsize=stepsize, sigma_denoiser=sigma_denoiser, early_stop=False, max_iter=max_iter)
    return model.eval(), _blur_fft()


def _tv_pgd():  # demo_TV_minimisation.py
    import deepinv as dinv

    model = dinv.optim.PGD(prior=dinv.optim.TVPrior(n_it_max=20), data_fidelity=dinv.optim.L2(), stepsize=1.0,
                           lambda_reg=1e-2, early_stop=True, max_iter=10)
    return model.eval(), _blur_fft()


def _md_red():  # demo_PnP_mirror_descent.py
    import deepinv as dinv
    from deepinv.optim.bregman import BurgEntropy

    physics = dinv.physics.BlurFFT(img_size=(3, _S, _S), filter=dinv.physics.blur.gaussian_blur(sigma=(1, 1)),
                                   noise_model=dinv.physics.PoissonNoise(gain=1 / 40, clip_positive=True))
    model = dinv.optim.MD(
        prior=dinv.optim.RED(denoiser=dinv.models.DnCNN(depth=7, nf=16, pretrained=None)),
        data_fidelity=dinv.optim.PoissonLikelihood(gain=1 / 40), stepsize=1.0, sigma_denoiser=0.05,
        early_stop=True, max_iter=10, bregman_potential=BurgEntropy())
    return model.eval(), physics


def _wiener():  # demo_wiener_deconvolution.py
    import deepinv as dinv

    return dinv.models.WienerDeconvolution(lambda_reg=0.1), _blur_fft()


def _inpainting(sigma=0.05, mask=0.5):
    import deepinv as dinv

    return dinv.physics.Inpainting((3, _S, _S), mask=mask, noise_model=dinv.physics.GaussianNoise(sigma))


def _dps():  # demo_dps.py
    import torch

    import deepinv as dinv

    model = dinv.sampling.DPS(
        denoiser=dinv.models.DRUNet(3, 3, **_DRUNET), schedule="vp", num_steps=10, weight=20.0,
        guidance="annealed", alpha=0.5, dtype=torch.float64, rng=torch.Generator().manual_seed(0))
    return model, _inpainting()


def _ddrm():  # demo_ddrm.py
    import numpy as np

    import deepinv as dinv

    diff = dinv.sampling.DDRM(denoiser=dinv.models.DRUNet(3, 3, **_DRUNET), etab=1.0, sigmas=np.linspace(1, 0, 10))
    return diff, _inpainting()


def _diffpir():  # demo_diffpir.py (a tiny ADMUNet for its DiffUNet)
    import deepinv as dinv

    model = dinv.sampling.DiffPIR(
        dinv.models.ADMUNet(img_resolution=_S, in_channels=3, out_channels=3, model_channels=32,
                            channel_mult=(1, 2), num_blocks=1, attn_resolutions=(16,), pretrained=None),
        data_fidelity=dinv.optim.L2(), sigma=0.05, max_iter=5)
    return model, _inpainting()


def _posterior_diffusion():  # demo_diffusion_sde.py: VE SDE, Euler, NCSNpp, DPS guidance
    import torch

    import deepinv as dinv

    denoiser = dinv.models.NCSNpp(img_resolution=_S, in_channels=3, out_channels=3, model_channels=32,
                                  channel_mult=(1, 2), num_blocks=1, attn_resolutions=(16,), pretrained=None)
    sde = dinv.sampling.VarianceExplodingDiffusion(T=1.0, dtype=torch.float64)
    solver = dinv.sampling.EulerSolver(t_start=sde.T, t_end=0.001, num_steps=5,
                                       rng=torch.Generator().manual_seed(42))
    model = dinv.sampling.PosteriorDiffusion(
        data_fidelity=dinv.sampling.DPSDataFidelity(denoiser=denoiser, weight=1.0, guidance="annealed"),
        sde=sde, denoiser=denoiser, solver=solver, dtype=torch.float64)
    return model, _inpainting(sigma=0.0)


def _ula():  # demo_custom_kernel.py / demo_sampling.py
    import deepinv as dinv

    model = dinv.sampling.ULA(prior=dinv.optim.ScorePrior(denoiser=dinv.models.MedianFilter()),
                              data_fidelity=dinv.optim.L2(sigma=0.1), step_size=0.01, sigma=0.1, max_iter=20,
                              thinning=2, burnin_ratio=0.2)
    return model, _blur_fft(sigma=0.1)


def _dip():  # demo_dip.py, with fewer iterations
    import deepinv as dinv

    backbone = dinv.models.ConvDecoder(img_size=(3, _S, _S), in_size=(4, 4), channels=16)
    model = dinv.models.DeepImagePrior(backbone, learning_rate=0.01, iterations=5, verbose=False,
                                       img_size=(16, 4, 4))
    return model, _inpainting()


MODELS.update({
    "PGD_PnP_DnCNN_Tomography": _solver(_pnp_pgd_tomography, channels=1),
    "DPIR_HQS_DRUNet_BlurFFT": _solver(_dpir),
    "PGD_TV_BlurFFT": _solver(_tv_pgd),
    "MD_RED_DnCNN_Poisson": _solver(_md_red),
    "WienerDeconvolution_BlurFFT": _solver(_wiener),
    "DPS_DRUNet_Inpainting": _solver(_dps),
    "DDRM_DRUNet_Inpainting": _solver(_ddrm),
    "DiffPIR_ADMUNet_Inpainting": _solver(_diffpir),
    "PosteriorDiffusion_VE_NCSNpp_DPS": _solver(_posterior_diffusion),
    "ULA_ScorePrior_Median_BlurFFT": _solver(_ula),
    "DeepImagePrior_ConvDecoder_Inpainting": _solver(_dip),
})
