"""k-diffusion (Katherine Crowson) 0.1.1.post1, import name ``k_diffusion``: its denoiser networks
(``k_diffusion.models``), the Karras et al. preconditioners and their losses (``k_diffusion.layers``),
the wrappers for other models' schedules (``k_diffusion.external``) and its samplers
(``k_diffusion.sampling``), as its README, ``train.py`` and ``sample.py`` use them, tiny (3x8x8
images, batch 2), random weights, no download:

- ``ImageDenoiserModelV1`` (the U-Net: ``depths`` [1, 1], ``channels`` [16, 32], ``mapping_out``
  16), built through ``K.config.load_config`` + ``make_model`` from a config dict as ``train.py``
  does (so with the ``KarrasAugmentWrapper`` by default) and directly: self-attention, cross-attention
  (``cross_cond`` with a padding mask), ``patch_size`` 2 with ``skip_stages`` 1, ``unet_cond`` and
  ``mapping_cond``, ``has_variance``, dropout;
- ``ImageTransformerDenoiserModelV1`` (width 64, depth 2, 2x2 patches, axial RoPE): unconditional,
  class-conditional with ``K.models.checkpointing(True)`` in training (its ``checkpoint_helper``).
  Its ``rms_norm`` / ``geglu`` / ``apply_rotary_emb`` are ``flags.compile_wrap``: they call
  ``torch.compile`` on first use (the default ``K_DIFFUSION_USE_COMPILE=1``, kept as a user
  gets it; importing ``k_diffusion.models`` then also sets ``torch._dynamo.config.suppress_errors
  = True``); the flash-attention path is tried only when ``flash_attn`` imports (it does not here);
- the wrappers: ``Denoiser`` (Karras, soft-min-SNR and SNR weightings, the DCT loss with
  ``loss_scales`` 2), ``DenoiserWithVariance``, ``SimpleLossDenoiser`` (``K.config
  .make_denoiser_wrapper``), ``external.VDenoiser``, ``CompVisDenoiser`` (plain and
  ``quantize=True``), ``CompVisVDenoiser`` and ``OpenAIDenoiser`` (learned sigmas) around a tiny
  user-side eps/v network with an ``alphas_cumprod`` schedule and ``apply_model(x, t, cond)``;
- the samplers, each a model (``Sample``: a module whose forward draws ``x = noise * sigmas[0]``
  and calls the sampler on a tiny ``Denoiser``, 3-4 steps, as users compile their sampling step):
  ``sample_euler`` (plain and ``s_churn``), ``sample_euler_ancestral``, ``sample_heun``,
  ``sample_dpm_2``, ``sample_dpm_2_ancestral``, ``sample_lms``, ``sample_dpm_fast``,
  ``sample_dpm_adaptive``, ``sample_dpmpp_2s_ancestral``, ``sample_dpmpp_sde`` (torchsde Brownian
  tree noise), ``sample_dpmpp_2m``, ``sample_dpmpp_2m_sde`` (``solver_type="heun"``),
  ``sample_dpmpp_3m_sde``, over the schedules ``get_sigmas_karras`` / ``_exponential`` /
  ``_polyexponential`` / ``_vp`` computed in the forward; Euler ancestral with classifier-free
  guidance on a ``CompVisDenoiser`` (a user-side CFG wrapper, the Stable-Diffusion front ends'
  pattern, sigmas from ``DiscreteSchedule.get_sigmas``); ``log_likelihood`` (torchdiffeq
  ``odeint`` with a Hutchinson trace estimate).

Eval: the denoised images (samplers: the samples; ``log_likelihood``: the likelihoods and the
count of evaluations). Train: ``train.py``'s step (``TrainStep``: ``noise = randn_like(reals)``,
``sigma`` from the config's ``make_sample_density`` (lognormal, log-logistic, log-uniform,
v-diffusion, split-lognormal, cosine-interpolated across the models) under
``K.utils.enable_stratified()``, ``model.loss(reals, noise, sigma, **cond).mean()``); the samplers
(``torch.no_grad`` inside, no training form) run that step and then sample (``TrainThenSample``:
as ``train.py``'s ``demo()`` samples during training; the samples are dropped).

    pip install --no-deps k-diffusion==0.1.1.post1 jsonmerge==1.9.2 dctorch==0.1.2

(jsonmerge needs jsonschema, installed already, as are einops, scipy, torchdiffeq, torchsde,
trampoline, safetensors, Pillow, tqdm.)

Stubbed (``stub_modules``): ``torchvision`` (held out; ``k_diffusion.utils`` imports
``torchvision.transforms.functional`` for PIL conversion, ``evaluation`` its ``transforms``),
``cleanfid`` and ``clip`` (``k_diffusion.evaluation``'s FID/CLIP feature extractors, which
download weights), ``skimage`` (``k_diffusion.augmentation``'s ``KarrasAugmentationPipeline``, a
NumPy data-loader transform; the model-side ``KarrasAugmentWrapper`` in the same file is covered).
``wandb`` and ``accelerate`` are imported only by the scripts, not by the package.

Left out: ``image_transformer_v2`` (not in 0.1.1.post1: it came later, with natten
neighbourhood attention), ``evaluation`` (Inception/CLIP features: downloads), the data-side
augmentation pipeline, ``gns`` (DDP gradient-noise-scale hooks), the EMA / LR schedulers and
``utils.ema_update`` (optimiser-side), ``utils.to_pil_image`` / ``from_pil_image`` (torchvision).
"""

import functools

PACKAGE = "k_diffusion"
DISTRIBUTION = "k-diffusion"

_B, _C, _S = 2, 3, 8  # batch, channels, image side
_SIGMA_MIN, _SIGMA_MAX = 0.02, 10.0
_STEPS = 4


def _stub():
    stub_modules(  # noqa: F821 (set by ZooSuite)
        {
            "torchvision": ((), ()),
            "torchvision.transforms": ((), ("Normalize", "Compose", "Resize", "CenterCrop", "ToTensor")),
            "torchvision.transforms.functional": (("to_tensor", "to_pil_image", "resize", "center_crop"), ()),
            "cleanfid": ((), ()),
            "cleanfid.inception_torchscript": ((), ("InceptionV3W",)),
            "clip": (("load", "available_models", "tokenize"), ()),
            "skimage": ((), ()),
            "skimage.transform": (("warp",), ("AffineTransform",)),
        },
        "k_diffusion imports",
    )


def warm_up():
    _stub()
    import torch  # noqa: F401

    import k_diffusion  # noqa: F401
    import k_diffusion.external  # noqa: F401


# --- configs -----------------------------------------------------------------------------------------

def _config(**model):
    """A ``train.py`` config dict through ``K.config.load_config`` (its defaults merged in)."""
    import k_diffusion as K

    cfg = {"type": "image_v1", "input_channels": _C, "input_size": [_S, _S], "mapping_out": 16,
           "depths": [1, 1], "channels": [16, 32], "self_attn_depths": [False, False],
           "sigma_data": 0.5, "sigma_min": _SIGMA_MIN, "sigma_max": _SIGMA_MAX,
           "sigma_sample_density": {"type": "lognormal", "mean": -1.2, "std": 1.2}}
    cfg.update(model)
    num_classes = cfg.pop("num_classes", 0)
    return K.config.load_config({"model": cfg, "dataset": {"type": "imagefolder", "num_classes": num_classes}})


_TRANSFORMER = dict(type="image_transformer_v1", width=64, depth=2, patch_size=[2, 2], dropout_rate=0.0,
                    sigma_sample_density={"type": "cosine"})


def _denoiser(config):
    """``make_denoiser_wrapper(config)(make_model(config))``, as ``train.py`` builds it."""
    import k_diffusion as K

    return K.config.make_denoiser_wrapper(config)(K.config.make_model(config))


# --- the user-side modules (built once) -----------------------------------------------------------

@functools.cache
def _nets():
    import math
    import types

    import torch
    from torch import nn

    import k_diffusion as K

    class TrainStep(nn.Module):
        """``train.py``'s step: noise, sigma from the sample density (stratified), the
        denoiser's loss, its mean."""

        def __init__(self, model, config, checkpointing=False):
            super().__init__()
            self.model, self.checkpointing = model, checkpointing
            self.sample_density = K.config.make_sample_density(config["model"])

        def forward(self, reals, **cond):
            noise = torch.randn_like(reals)
            with K.utils.enable_stratified():
                sigma = self.sample_density([reals.shape[0]], device=reals.device)
            with K.models.checkpointing(self.checkpointing):
                losses = self.model.loss(reals, noise, sigma, **cond)
            return losses.mean()

    class Sample(nn.Module):
        """A sampler as a model: the schedule in the forward, ``x = noise * sigmas[0]``, the
        sampler (``disable=True``: no progress bar, as ``train.py``'s demo)."""

        def __init__(self, model, sampler, schedule="karras", n=_STEPS, **options):
            super().__init__()
            self.model, self.sampler, self.schedule, self.n, self.options = model, sampler, schedule, n, options

        def sigmas(self, device):
            if self.schedule == "karras":
                return K.sampling.get_sigmas_karras(self.n, _SIGMA_MIN, _SIGMA_MAX, rho=7.0, device=device)
            if self.schedule == "exponential":
                return K.sampling.get_sigmas_exponential(self.n, _SIGMA_MIN, _SIGMA_MAX, device=device)
            if self.schedule == "polyexponential":
                return K.sampling.get_sigmas_polyexponential(self.n, _SIGMA_MIN, _SIGMA_MAX, rho=1.0, device=device)
            if self.schedule == "vp":
                return K.sampling.get_sigmas_vp(self.n, device=device)
            return self.model.inner_model.get_sigmas(self.n)  # the CompVis wrapper's own (under the CFG wrapper)

        def forward(self, noise, **extra_args):
            fn = getattr(K.sampling, self.sampler)
            if self.sampler in ("sample_dpm_fast", "sample_dpm_adaptive"):
                x = noise * _SIGMA_MAX
                if self.sampler == "sample_dpm_fast":
                    return fn(self.model, x, _SIGMA_MIN, _SIGMA_MAX, self.n, extra_args=extra_args, disable=True,
                              **self.options)
                return fn(self.model, x, _SIGMA_MIN, _SIGMA_MAX, extra_args=extra_args, disable=True, **self.options)
            sigmas = self.sigmas(noise.device)
            return fn(self.model, noise * sigmas[0], sigmas, extra_args=extra_args, disable=True, **self.options)

    class LogLikelihood(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            return K.sampling.log_likelihood(self.model, x, _SIGMA_MIN, _SIGMA_MAX, atol=1e-2, rtol=1e-2)

    class TrainThenSample(nn.Module):
        """A training step that also samples (``train.py``'s ``demo()``; the samples dropped)."""

        def __init__(self, step, sampler):
            super().__init__()
            self.step, self.sampler = step, sampler

        def forward(self, reals, noise, **extra_args):
            loss = self.step(reals)
            self.sampler(noise, **extra_args)
            return loss

    class Call(nn.Module):
        """``model(x, sigma, **cond)`` with fixed conditioning tensors."""

        def __init__(self, model, **cond):
            super().__init__()
            self.model = model
            for k, v in cond.items():
                self.register_buffer(f"cond_{k}", v)
            self.keys = tuple(cond)

        def forward(self, x, sigma):
            return self.model(x, sigma, **{k: getattr(self, f"cond_{k}") for k in self.keys})

    class CondLoss(nn.Module):
        """``TrainStep`` with fixed conditioning tensors."""

        def __init__(self, step, **cond):
            super().__init__()
            self.step = step
            for k, v in cond.items():
                self.register_buffer(f"cond_{k}", v)
            self.keys = tuple(cond)

        def forward(self, reals):
            return self.step(reals, **{k: getattr(self, f"cond_{k}") for k in self.keys})

    class TinyLDM(nn.Module):
        """A user-side CompVis/OpenAI-style diffusion model: an ``alphas_cumprod`` schedule (1000
        linear betas) and ``apply_model(x, t, cond)`` over a small conv net with a timestep
        embedding and a pooled text conditioning (``out_mult`` 2: learned sigmas)."""

        def __init__(self, out_mult=1, cond_dim=8):
            super().__init__()
            betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, 1000, dtype=torch.float64) ** 2
            self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, 0).float())
            self.t_proj = nn.Linear(16, 32)
            self.c_proj = nn.Linear(cond_dim, 32)
            self.conv_in = nn.Conv2d(_C, 32, 3, padding=1)
            self.conv_out = nn.Conv2d(32, _C * out_mult, 3, padding=1)

        def timestep_embedding(self, t):
            freqs = torch.exp(-math.log(10000) * torch.arange(8, device=t.device) / 8)
            args = t.float()[:, None] * freqs[None]
            return torch.cat([args.cos(), args.sin()], dim=-1)

        def apply_model(self, x, t, cond=None):
            h = self.conv_in(x) + self.t_proj(self.timestep_embedding(t))[:, :, None, None]
            if cond is not None:
                h = h + self.c_proj(cond.mean(1))[:, :, None, None]
            return self.conv_out(torch.nn.functional.silu(h))

        def forward(self, x, t, cond=None):
            return self.apply_model(x, t, cond)

    class Diffusion:
        """What ``OpenAIDenoiser`` reads of a guided-diffusion ``GaussianDiffusion``."""

        def __init__(self, alphas_cumprod):
            self.alphas_cumprod = alphas_cumprod.double().numpy()

    class CFGDenoiser(nn.Module):
        """Classifier-free guidance over a k-diffusion wrapper (the Stable-Diffusion front ends'
        ``CFGDenoiser``): one batched call on the unconditional and conditional halves."""

        def __init__(self, model, scale=5.0):
            super().__init__()
            self.inner_model, self.scale = model, scale

        def forward(self, x, sigma, uncond, cond):
            x_in = torch.cat([x] * 2)
            sigma_in = torch.cat([sigma] * 2)
            cond_in = torch.cat([uncond, cond])
            uncond_out, cond_out = self.inner_model(x_in, sigma_in, cond=cond_in).chunk(2)
            return uncond_out + (cond_out - uncond_out) * self.scale

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- inputs ------------------------------------------------------------------------------------------

def _x():
    import torch

    return torch.randn(_B, _C, _S, _S)


def _sigma():
    import torch

    return torch.tensor([0.5, 3.0])


# --- factories --------------------------------------------------------------------------------------

def _net(cond=None, **model):
    """A config-built denoiser: eval ``Denoiser(x * 1, sigma, **cond)``; train ``TrainStep``."""

    def make(mode):
        import torch

        _stub()
        config = _config(**model)
        denoiser = _denoiser(config)
        conds = {k: v() for k, v in (cond or {}).items()}
        if mode == "train":
            step = _nets().TrainStep(denoiser, config, checkpointing=model.get("type") == "image_transformer_v1"
                                     and bool(conds))
            return (_nets().CondLoss(step, **conds) if conds else step), (_x(),), {}
        x = _x() * torch.tensor([0.5, 3.0])[:, None, None, None]
        return (_nets().Call(denoiser, **conds) if conds else denoiser), (x, _sigma()), {}

    return make


def _cross():
    import torch

    return torch.randn(_B, 5, 12)


def _cross_padding():
    import torch

    return torch.tensor([[0.0, 0, 0, 1, 1], [0, 0, 0, 0, 0]])


def _unet_cond():
    import torch

    return torch.randn(_B, 1, _S, _S)


def _mapping_cond():
    import torch

    return torch.randn(_B, 4)


def _class_cond():
    import torch

    return torch.tensor([1, 7])


def _vdenoiser(mode):
    """``external.VDenoiser`` around a v-objective U-Net (its ``t`` in (0, 1) as the noise input)."""
    _stub()
    from k_diffusion.external import VDenoiser
    from k_diffusion.models import ImageDenoiserModelV1

    model = VDenoiser(ImageDenoiserModelV1(_C, 16, [1, 1], [16, 32], [False, False]))
    if mode == "train":
        config = _config(sigma_sample_density={"type": "v-diffusion", "min_value": 1e-3, "max_value": 1e3})
        return _nets().TrainStep(model, config), (_x(),), {}
    return model, (_x() * 2, _sigma()), {}


def _external(kind, **options):
    """A CompVis / OpenAI wrapper around ``TinyLDM`` (eval: ``wrapper(x, sigma, cond=...)``)."""

    def make(mode):
        import torch

        _stub()
        from k_diffusion import external

        if kind == "openai":
            ldm = _nets().TinyLDM(out_mult=2)
            model = external.OpenAIDenoiser(ldm, _nets().Diffusion(ldm.alphas_cumprod), **options)
            cond = {}
        else:
            ldm = _nets().TinyLDM()
            model = getattr(external, kind)(ldm, **options)
            cond = {"cond": torch.randn(_B, 4, 8)}
        if mode == "train":
            config = _config(sigma_sample_density={"type": "loglogistic", "loc": 0.0, "scale": 0.5,
                                                   "min_value": 0.03, "max_value": 14.0})
            step = _nets().TrainStep(model, config)
            return (_nets().CondLoss(step, **cond) if cond else step), (_x(),), {}
        x = _x() * 3
        return (_nets().Call(model, **cond) if cond else model), (x, _sigma()), {}

    return make


def _tiny_denoiser():
    import k_diffusion as K
    from k_diffusion.models import ImageDenoiserModelV1

    inner = ImageDenoiserModelV1(_C, 16, [1, 1], [16, 32], [False, True])
    return K.Denoiser(inner, sigma_data=0.5)


def _sampler(sampler, schedule="karras", n=_STEPS, **options):
    def make(mode):
        import torch

        _stub()
        denoiser = _tiny_denoiser()
        net = _nets().Sample(denoiser, sampler, schedule, n, **options)
        noise = torch.randn(_B, _C, _S, _S)
        if mode == "train":
            step = _nets().TrainStep(denoiser, _config())
            return _nets().TrainThenSample(step, net), (_x(), noise), {}
        return net, (noise,), {}

    return make


def _cfg_compvis(mode):
    """Euler ancestral with classifier-free guidance on a ``CompVisDenoiser`` (sigmas from its
    ``get_sigmas``), the conditionings passed as ``extra_args``."""
    import torch

    _stub()
    from k_diffusion.external import CompVisDenoiser

    wrapped = CompVisDenoiser(_nets().TinyLDM())
    net = _nets().Sample(_nets().CFGDenoiser(wrapped), "sample_euler_ancestral", "discrete", _STEPS)
    noise = torch.randn(_B, _C, _S, _S)
    uncond, cond = torch.zeros(_B, 4, 8), torch.randn(_B, 4, 8)
    if mode == "train":
        step = _nets().CondLoss(_nets().TrainStep(wrapped, _config()), cond=cond)
        return _nets().TrainThenSample(step, net), (_x(), noise), {"uncond": uncond, "cond": cond}
    return net, (noise,), {"uncond": uncond, "cond": cond}


def _log_likelihood(mode):
    _stub()
    denoiser = _tiny_denoiser()
    net = _nets().LogLikelihood(denoiser)
    if mode == "train":
        return _nets().TrainThenSample(_nets().TrainStep(denoiser, _config()), net), (_x(), _x()), {}
    return net, (_x(),), {}


MODELS = {
    # U-Net denoisers (image_v1), built from train.py-style configs
    "image_v1_augment_wrapper": _net(),
    "image_v1_plain": _net(augment_wrapper=False, sigma_sample_density={"type": "loguniform"}),
    "image_v1_self_attn": _net(self_attn_depths=[False, True], dropout_rate=0.1),
    "image_v1_cross_attn": _net({"cross_cond": _cross, "cross_cond_padding": _cross_padding},
                                augment_wrapper=False, self_attn_depths=[False, True], cross_cond_dim=12,
                                cross_attn_depths=[False, True]),
    "image_v1_patch_skip_stages": _net(patch_size=2, skip_stages=1, depths=[1, 1, 1], channels=[16, 16, 32],
                                       self_attn_depths=[False, False, True]),
    "image_v1_unet_mapping_cond": _net({"unet_cond": _unet_cond, "mapping_cond": _mapping_cond},
                                       unet_cond_dim=1, mapping_cond_dim=4,
                                       sigma_sample_density={"type": "split-lognormal", "mean": -1.0,
                                                             "std_1": 1.0, "std_2": 1.5}),
    "image_v1_variance": _net(has_variance=True),
    "image_v1_dct_loss_soft_min_snr": _net(loss_scales=2, loss_weighting="soft-min-snr"),
    "image_v1_snr_weighting": _net(loss_weighting="snr"),
    "image_v1_simple_loss": _net(loss_config="simple",
                                 sigma_sample_density={"type": "cosine-interpolated", "noise_d_low": 4}),
    # transformer denoisers (image_transformer_v1)
    "image_transformer_v1": _net(**_TRANSFORMER),
    "image_transformer_v1_class_cond_checkpointing": _net({"class_cond": _class_cond}, num_classes=10,
                                                          **_TRANSFORMER),
    # external wrappers
    "v_denoiser": _vdenoiser,
    "compvis_denoiser": _external("CompVisDenoiser"),
    "compvis_denoiser_quantize": _external("CompVisDenoiser", quantize=True),
    "compvis_v_denoiser": _external("CompVisVDenoiser"),
    "openai_denoiser_learned_sigmas": _external("openai"),
    # samplers on a tiny Denoiser
    "sample_euler": _sampler("sample_euler"),
    "sample_euler_churn": _sampler("sample_euler", s_churn=1.0, s_tmin=0.05, s_tmax=5.0),
    "sample_euler_ancestral": _sampler("sample_euler_ancestral", "exponential"),
    "sample_heun": _sampler("sample_heun", n=3),
    "sample_dpm_2": _sampler("sample_dpm_2", "polyexponential", n=3),
    "sample_dpm_2_ancestral": _sampler("sample_dpm_2_ancestral", n=3),
    "sample_lms": _sampler("sample_lms"),
    "sample_dpm_fast": _sampler("sample_dpm_fast", n=4),
    "sample_dpm_adaptive": _sampler("sample_dpm_adaptive", order=2, rtol=0.5, atol=0.5, h_init=1.0),
    "sample_dpmpp_2s_ancestral": _sampler("sample_dpmpp_2s_ancestral", n=3),
    "sample_dpmpp_sde": _sampler("sample_dpmpp_sde", n=3),
    "sample_dpmpp_2m": _sampler("sample_dpmpp_2m", "vp"),
    "sample_dpmpp_2m_sde_heun": _sampler("sample_dpmpp_2m_sde", solver_type="heun"),
    "sample_dpmpp_3m_sde": _sampler("sample_dpmpp_3m_sde"),
    "sample_euler_ancestral_cfg_compvis": _cfg_compvis,
    "log_likelihood": _log_likelihood,
}
