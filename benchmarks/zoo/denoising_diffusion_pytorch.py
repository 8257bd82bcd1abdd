"""denoising-diffusion-pytorch (lucidrains): its U-Nets and diffusion wrappers, tiny (dim 8–16,
two resolutions, 16x16 images or 32-step sequences, batch 2, 2–10 timesteps), random weights.
The models: the image ``Unet`` forward alone (default linear + full attention, self-conditioned,
learned variance with learned sinusoidal time, random Fourier time with full attention at every
stage, flash attention through ``F.scaled_dot_product_attention``); ``GaussianDiffusion``'s
training loss per objective (pred_noise / linear schedule, pred_x0 / cosine + min-SNR weight,
pred_v / sigmoid + offset noise, self-conditioned, immiscible noise assignment through scipy);
its sampling (``sample``'s ancestral ``p_sample_loop``, the DDIM ``ddim_sample`` with
self-conditioning and every step returned); ``LearnedGaussianDiffusion``,
``WeightedObjectiveGaussianDiffusion``, ``ContinuousTimeGaussianDiffusion`` (learned noise
schedule; its sampler), ``VParamContinuousTimeGaussianDiffusion``, ``ElucidatedDiffusion`` (loss,
Heun sampler, DPM++ sampler); ``Unet1D`` alone and ``GaussianDiffusion1D`` (loss, DDIM sampler);
``KarrasUnet`` (class-conditional), ``KarrasUnet1D``, ``KarrasUnet3D`` (factorized space/time
attention); ``XMWrapper`` (forward XM: two candidates per sample) over the classifier-free
guidance diffusion; ``classifier_free_guidance`` (loss with class dropout, DDIM sampler with
guidance rescaling); ``simple_diffusion`` (U-ViT, shifted cosine schedule); ``guided_diffusion``
(classifier-guided ancestral sampling) and ``repaint`` (in-painting with a resample loop).
Train: the diffusion wrappers return their own loss; a U-Net alone or a sampler runs through
a wrapper whose forward returns a scalar (the mean of the float outputs). A sampler is a small
module whose forward calls ``sample`` / ``ddim_sample`` / ``sample_using_dpmpp`` for a batch of
its input's size (the samplers are ``@torch.no_grad`` / ``@torch.inference_mode``, so their
"train" runs capture the training-mode graph with nothing to backpropagate).

    pip install --no-deps denoising-diffusion-pytorch==2.3.4 ema-pytorch==0.8.3
    pip install einops==0.8.2 pillow==12.1.1     # (+ scipy, tqdm, numpy, packaging)

``denoising_diffusion_pytorch.py`` (which ``__init__`` imports) has ``from torchvision import
transforms as T, utils`` and ``from accelerate import Accelerator`` at the top (for its
``Dataset`` and ``Trainer``), ``denoising_diffusion_pytorch_1d.py`` and ``guided_diffusion.py``
import ``accelerate`` too, and ``repaint.py`` imports ``fid_evaluation.py``, which imports
``pytorch_fid`` (an Inception network) at the top. torchvision is held out and never installed;
accelerate and pytorch-fid are heavy and only the trainers use them: ``_import`` puts stand-in
modules in ``sys.modules`` first (their classes and functions raise when used), so the package
imports; no model below touches them.

Left out: ``Trainer`` / ``Trainer1D`` and the ``Dataset`` classes (accelerate, torchvision
transforms, image folders, EMA; not model code); ``FIDEvaluation`` (pytorch-fid's Inception);
``interpolate`` (the ``p_sample`` loop the ancestral sampler already runs); the variants that
only change a constructor argument or schedule function (cosine/linear beta schedules on the
other objectives, ``ddim_sampling_eta``, ``auto_normalize=False``, ``min_snr`` on the continuous
diffusions, CFG++ sampling); ``simple_diffusion``'s DWT image transforms (pytorch-wavelets).
Sizes are shrunk so a capture stays well under the 120 s per model: 2–10 timesteps, 2–3
sampling steps, resample loops of one iteration.
"""

import functools

PACKAGE = "denoising_diffusion_pytorch"
DISTRIBUTION = "denoising-diffusion-pytorch"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite
_B, _IMG, _C, _SEQ, _T = 2, 16, 3, 32, 10
_UNET = dict(dim=8, dim_mults=(1, 2), attn_heads=2, attn_dim_head=8)
_UNET1D = dict(dim=8, dim_mults=(1, 2), attn_heads=2, attn_dim_head=8)


def _stub_modules():
    """Stand-ins for the held-out / heavy names the package imports at the top (never installed)."""
    stub_modules({"torchvision": ((), ()), "torchvision.transforms": ((), ()),
                  "torchvision.utils": (("save_image",), ()), "accelerate": ((), ("Accelerator",)),
                  "pytorch_fid": ((), ()), "pytorch_fid.fid_score": (("calculate_frechet_distance",), ()),
                  "pytorch_fid.inception": ((), ("InceptionV3",))}, "denoising_diffusion_pytorch")


def _import(name="denoising_diffusion_pytorch"):
    import importlib

    _stub_modules()
    return importlib.import_module(name)


def warm_up():
    import torch  # noqa: F401

    _import()


@functools.cache
def _sampler_module():
    import torch

    class Sampler(torch.nn.Module):
        """``forward(x)`` runs ``call(diffusion, x)``: one of the diffusion's samplers, sized by ``x``."""

        def __init__(self, diffusion, call):
            super().__init__()
            self.diffusion = diffusion
            self.call = call

        def forward(self, x):
            return self.call(self.diffusion, x)

    return Sampler


def _train_wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _images(b=_B, c=_C, size=_IMG):
    import torch

    return torch.rand(b, c, size, size)


# --- the image Unet alone ---------------------------------------------------------------

def _unet(float_time=False, self_cond_input=False, **options):
    def make(mode):
        import torch

        ddp = _import()
        net = ddp.Unet(**{**_UNET, **options})
        x = torch.randn(_B, _C, _IMG, _IMG)
        t = torch.rand(_B) if float_time else torch.randint(0, _T, (_B,))
        args = (x, t, torch.randn(_B, _C, _IMG, _IMG)) if self_cond_input else (x, t)
        return _train_wrap(net, mode), args, {}

    return make


# --- GaussianDiffusion: the training loss and the samplers -------------------------------

def _diffusion(unet=None, timesteps=_T, **options):
    ddp = _import()
    return ddp.GaussianDiffusion(ddp.Unet(**{**_UNET, **(unet or {})}), image_size=_IMG, timesteps=timesteps,
                                 **options)


def _gaussian(unet=None, **options):
    def make(mode):
        return _diffusion(unet, **options), (_images(),), {}

    return make


def _gaussian_sample(mode):
    import torch

    sampler = _sampler_module()(_diffusion(timesteps=3), lambda d, x: d.sample(batch_size=x.shape[0]))
    return _train_wrap(sampler, mode), (torch.zeros(_B),), {}


def _gaussian_ddim(mode):
    import torch

    diffusion = _diffusion({"self_condition": True}, sampling_timesteps=2, ddim_sampling_eta=0.5)
    sampler = _sampler_module()(diffusion, lambda d, x: d.ddim_sample((x.shape[0], _C, _IMG, _IMG),
                                                                      return_all_timesteps=True))
    return _train_wrap(sampler, mode), (torch.zeros(_B),), {}


def _learned_gaussian(mode):
    ddp = _import()
    net = ddp.Unet(**_UNET, learned_variance=True)
    return ddp.LearnedGaussianDiffusion(net, image_size=_IMG, timesteps=_T, objective="pred_noise"), (_images(),), {}


def _weighted_objective(mode):
    ddp = _import()
    net = ddp.Unet(**_UNET, out_dim=_C * 2 + 2)
    return ddp.WeightedObjectiveGaussianDiffusion(net, image_size=_IMG, timesteps=_T), (_images(),), {}


# --- continuous-time, v-param and elucidated diffusion -----------------------------------

def _continuous_time(mode):
    ddp = _import()
    net = ddp.Unet(**_UNET, learned_sinusoidal_cond=True)
    diffusion = ddp.ContinuousTimeGaussianDiffusion(net, image_size=_IMG, channels=_C, noise_schedule="learned",
                                                    learned_schedule_net_hidden_dim=16, num_sample_steps=2)
    return diffusion, (_images(),), {}


def _continuous_time_sample(mode):
    import torch

    ddp = _import()
    net = ddp.Unet(**_UNET, random_fourier_features=True)
    diffusion = ddp.ContinuousTimeGaussianDiffusion(net, image_size=_IMG, channels=_C, noise_schedule="cosine",
                                                    num_sample_steps=2)
    sampler = _sampler_module()(diffusion, lambda d, x: d.sample(batch_size=x.shape[0]))
    return _train_wrap(sampler, mode), (torch.zeros(_B),), {}


def _v_param(mode):
    ddp = _import()
    net = ddp.Unet(**_UNET, learned_sinusoidal_cond=True)
    return ddp.VParamContinuousTimeGaussianDiffusion(net, image_size=_IMG, channels=_C, num_sample_steps=2), \
        (_images(),), {}


def _elucidated_diffusion(self_condition=False):
    ddp = _import()
    net = ddp.Unet(**_UNET, learned_sinusoidal_cond=True, self_condition=self_condition)
    return ddp.ElucidatedDiffusion(net, image_size=_IMG, channels=_C, num_sample_steps=2)


def _elucidated(mode):
    return _elucidated_diffusion(self_condition=True), (_images(),), {}


def _elucidated_sample(dpmpp=False):
    def make(mode):
        import torch

        diffusion = _elucidated_diffusion(self_condition=not dpmpp)
        if dpmpp:
            call = lambda d, x: d.sample_using_dpmpp(batch_size=x.shape[0], num_sample_steps=3)  # noqa: E731
        else:
            call = lambda d, x: d.sample(batch_size=x.shape[0], num_sample_steps=2)  # noqa: E731
        return _train_wrap(_sampler_module()(diffusion, call), mode), (torch.zeros(_B),), {}

    return make


# --- 1-D -------------------------------------------------------------------------------

def _unet1d(mode):
    import torch

    ddp = _import()
    net = ddp.Unet1D(**_UNET1D, channels=_C, self_condition=True)
    x = torch.randn(_B, _C, _SEQ)
    return _train_wrap(net, mode), (x, torch.randint(0, _T, (_B,)), torch.randn(_B, _C, _SEQ)), {}


def _diffusion1d(**options):
    ddp = _import()
    net = ddp.Unet1D(**_UNET1D, channels=_C)
    return ddp.GaussianDiffusion1D(net, seq_length=_SEQ, timesteps=_T, **options)


def _gaussian1d(mode):
    import torch

    return _diffusion1d(objective="pred_v"), (torch.rand(_B, _C, _SEQ),), {}


def _gaussian1d_ddim(mode):
    import torch

    sampler = _sampler_module()(_diffusion1d(sampling_timesteps=2), lambda d, x: d.sample(batch_size=x.shape[0]))
    return _train_wrap(sampler, mode), (torch.zeros(_B),), {}


# --- Karras (EDM2) U-Nets: magnitude-preserving, weights renormalized in training ------------

_KARRAS = dict(dim=16, dim_max=32, num_downsamples=1, num_blocks_per_stage=1, fourier_dim=8, attn_dim_head=8,
               dropout=0.0)


def _karras(mode):
    import torch

    ddp = _import()
    net = ddp.KarrasUnet(image_size=_IMG, channels=4, num_classes=4, attn_res=(8,), **_KARRAS)
    x = torch.randn(_B, 4, _IMG, _IMG)
    return _train_wrap(net, mode), (x, torch.rand(_B)), {"class_labels": torch.arange(_B) % 4}


def _karras1d(mode):
    import torch

    ddp = _import()
    net = ddp.KarrasUnet1D(seq_len=_SEQ, channels=4, attn_res=(16,), self_condition=True, **_KARRAS)
    x = torch.randn(_B, 4, _SEQ)
    return _train_wrap(net, mode), (x, torch.rand(_B)), {"self_cond": torch.randn(_B, 4, _SEQ)}


def _karras3d(mode):
    import torch

    ddp = _import()
    net = ddp.KarrasUnet3D(image_size=8, frames=4, channels=4, attn_res=(4,), factorize_space_time_attn=True,
                           **_KARRAS)
    x = torch.randn(_B, 4, 4, 8, 8)
    return _train_wrap(net, mode), (x, torch.rand(_B)), {}


# --- classifier-free guidance and forward XM ------------------------------------------------

def _cfg_diffusion(**options):
    cfg = _import("denoising_diffusion_pytorch.classifier_free_guidance")
    net = cfg.Unet(dim=8, num_classes=4, cond_drop_prob=0.5, dim_mults=(1, 2), attn_heads=2, attn_dim_head=8)
    return cfg.GaussianDiffusion(net, image_size=_IMG, timesteps=_T, **options)


def _cfg(mode):
    import torch

    return _cfg_diffusion(objective="pred_v"), (_images(),), {"classes": torch.arange(_B) % 4}


def _cfg_ddim(mode):
    import torch

    sampler = _sampler_module()(_cfg_diffusion(sampling_timesteps=2),
                                lambda d, classes: d.sample(classes, cond_scale=3.0, rescaled_phi=0.7))
    return _train_wrap(sampler, mode), (torch.arange(_B) % 4,), {}


def _xm(mode):
    import torch

    ddp = _import()
    xm = ddp.XMWrapper(_cfg_diffusion(), candidates=2)
    return xm, (_images(),), {"classes": torch.arange(_B) % 4}


# --- simple diffusion (U-ViT), classifier guidance, RePaint ------------------------------------

def _simple(mode):
    simple = _import("denoising_diffusion_pytorch.simple_diffusion")
    net = simple.UViT(dim=8, dim_mults=(1, 2), channels=_C, vit_depth=1, vit_dropout=0.0, attn_dim_head=8,
                      attn_heads=2, ff_mult=2, learned_sinusoidal_dim=8)
    diffusion = simple.GaussianDiffusion(net, image_size=_IMG, channels=_C, pred_objective="v", noise_d=8,
                                         num_sample_steps=2)
    return diffusion, (_images(),), {}


def _guided_sample(mode):
    import torch

    guided = _import("denoising_diffusion_pytorch.guided_diffusion")
    net = guided.Unet(dim=8, dim_mults=(1, 2))
    diffusion = guided.GaussianDiffusion(net, image_size=_IMG, timesteps=2)

    def cond_fn(mean, t, scale):  # the gradient of log N(x; 0, I): no autograd, no classifier
        return -mean * scale

    sampler = _sampler_module()(diffusion, lambda d, x: d.sample(batch_size=x.shape[0], cond_fn=cond_fn,
                                                                 guidance_kwargs={"scale": 0.5}))
    return _train_wrap(sampler, mode), (torch.zeros(_B),), {}


def _repaint(mode):
    import torch

    repaint = _import("denoising_diffusion_pytorch.repaint")
    net = repaint.Unet(dim=8, dim_mults=(1, 2), attn_heads=2, attn_dim_head=8)
    diffusion = repaint.GaussianDiffusion(net, image_size=_IMG, timesteps=3)
    mask = torch.zeros(_B, _C, _IMG, _IMG)
    mask[..., : _IMG // 2] = 1.0
    sampler = _sampler_module()(diffusion, lambda d, gt: d.sample(gt=gt, mask=mask, resample_iter=1,
                                                                  resample_jump=1, resample_every=2))
    return _train_wrap(sampler, mode), (_images(),), {}


MODELS = {
    "Unet": _unet(),
    "Unet_self_condition": _unet(self_cond_input=True, self_condition=True),
    "Unet_learned_variance_learned_sinusoidal": _unet(float_time=True, learned_variance=True,
                                                      learned_sinusoidal_cond=True),
    "Unet_random_fourier_full_attn": _unet(float_time=True, random_fourier_features=True, full_attn=(True, True)),
    "Unet_flash_attn": _unet(flash_attn=True),
    "GaussianDiffusion_pred_noise": _gaussian(objective="pred_noise", beta_schedule="linear"),
    "GaussianDiffusion_pred_x0": _gaussian(objective="pred_x0", beta_schedule="cosine", min_snr_loss_weight=True),
    "GaussianDiffusion_pred_v": _gaussian(objective="pred_v", offset_noise_strength=0.1),
    "GaussianDiffusion_self_condition": _gaussian({"self_condition": True}, objective="pred_noise"),
    "GaussianDiffusion_immiscible": _gaussian(immiscible=True),
    "GaussianDiffusion_sample": _gaussian_sample,
    "GaussianDiffusion_ddim_sample": _gaussian_ddim,
    "LearnedGaussianDiffusion": _learned_gaussian,
    "WeightedObjectiveGaussianDiffusion": _weighted_objective,
    "ContinuousTimeGaussianDiffusion_learned_schedule": _continuous_time,
    "ContinuousTimeGaussianDiffusion_sample": _continuous_time_sample,
    "VParamContinuousTimeGaussianDiffusion": _v_param,
    "ElucidatedDiffusion": _elucidated,
    "ElucidatedDiffusion_sample": _elucidated_sample(),
    "ElucidatedDiffusion_sample_dpmpp": _elucidated_sample(dpmpp=True),
    "Unet1D": _unet1d,
    "GaussianDiffusion1D": _gaussian1d,
    "GaussianDiffusion1D_ddim_sample": _gaussian1d_ddim,
    "KarrasUnet": _karras,
    "KarrasUnet1D": _karras1d,
    "KarrasUnet3D": _karras3d,
    "ClassifierFreeGuidance": _cfg,
    "ClassifierFreeGuidance_ddim_sample": _cfg_ddim,
    "XMWrapper_candidates": _xm,
    "SimpleDiffusion_UViT": _simple,
    "GuidedDiffusion_sample": _guided_sample,
    "RePaint_sample": _repaint,
}
