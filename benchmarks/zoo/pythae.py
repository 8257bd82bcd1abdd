"""pythae 0.1.2: its autoencoder zoo (``pythae.models``), the normalizing flows it trains as
samplers (``pythae.models.normalizing_flows``) and its benchmark networks
(``pythae.models.nn.benchmarks.mnist / cifar / celeba``), tiny configs, random weights, no
download, fed as ``BaseTrainer`` feeds them.

Data: a batch of 4 as the trainers' ``DataLoader`` gives it (``collate_dataset_output``): a
``DatasetOutput(data=x, labels=y)`` with ``x`` random in [0, 1] (MNIST-like ``(1, 28, 28)``, the
shape the library's tests use; ``(3, 32, 32)`` for the CIFAR nets, ``(3, 64, 64)`` for the
CELEBA ones; a 2-d point cloud for the flows; integer pixel values in [0, 4) for ``PixelCNN``),
and the keyword arguments every trainer passes: ``model(inputs, epoch=3,
dataset_size=40, uses_ddp=False)``. Latent dimension 4 (16 for the VQ-VAE codebook), the
library's default MLP networks (``Encoder_VAE_MLP`` / ``Decoder_AE_MLP`` ..., 512 hidden units)
unless a benchmark net is named.

Eval: ``model(inputs, epoch=..., dataset_size=..., uses_ddp=False)`` returning its
``ModelOutput`` (what ``BaseTrainer.eval_step`` computes, without the ``no_grad`` it tries
first); ``RHVAE`` is evaluated after one training forward and ``model.update()`` (the end of an
epoch), so its metric is the learned one, as after training. Train: ``TrainStep(model)``: the
same forward in training mode, returning the loss(es) the model's trainer backpropagates in
``_optimizers_step``: ``loss`` (``BaseTrainer``); ``autoencoder_loss``, ``discriminator_loss``
(``AdversarialTrainer``: ``Adversarial_AE``, ``FactorVAE``); ``encoder_loss``, ``decoder_loss``
(``CoupledOptimizerTrainer``: ``RAE_L2``, ``PIWAE``); ``encoder_loss``, ``decoder_loss``,
``discriminator_loss`` (``CoupledOptimizerAdversarialTrainer``: ``VAEGAN``). The flows are
trained as ``MAFSampler`` / ``IAFSampler`` train them: ``NFModel(prior, flow)`` under
``BaseTrainer`` (a standard normal ``MultivariateNormal`` prior); ``PixelCNN`` is its own trainer
model (``PixelCNNSampler``). Model methods (``predict``, ``interpolate``, ``embed``,
``reconstruct``) return tensors / a ``ModelOutput``: ``mean_loss_module`` in train.

Models (45):
- ``AE`` (MLP; Conv MNIST; ResNet MNIST; Conv CELEBA), ``VAE`` (MLP; Conv MNIST; ResNet MNIST;
  Conv CIFAR), ``BetaVAE``, ``DisentangledBetaVAE`` (before its warm-up ends), ``BetaTCVAE``
  (minibatch stratified sampling), ``FactorVAE``, ``IWAE``, ``CIWAE``, ``MIWAE``, ``PIWAE``,
  ``VAMP``, ``SVAE`` (MLP; Conv MNIST), ``PoincareVAE`` (wrapped normal; Riemannian normal prior
  and posterior), ``HVAE`` (learned leapfrog step size), ``RHVAE`` (train; eval on the updated
  metric), ``VQVAE`` (ResNet VQ MNIST nets; EMA quantizer), ``WAE_MMD`` (imq kernel),
  ``INFOVAE_MMD``, ``MSSSIM_VAE`` (3x3 window), ``Adversarial_AE``, ``VAEGAN`` (MLP; Conv MNIST
  encoder / decoder / discriminator), ``RAE_L2``, ``RAE_GP``, ``VAE_IAF``, ``VAE_LinNF`` (Planar,
  Radial, Planar);
- flows: ``MAF``, ``IAF`` (with batch norm), ``PlanarFlow``, ``RadialFlow`` (through ``NFModel``),
  ``MADE`` on its own (``mean_loss_module`` in train), ``PixelCNN``;
- methods: ``VAE.predict``, ``RHVAE.predict`` (updated metric), ``VAE.interpolate``,
  ``VQVAE.reconstruct``.

Grad in eval: ``HVAE``, ``RHVAE`` (and its ``predict``) and ``RAE_GP`` take ``torch.autograd.grad``
inside their forward, so ``BaseTrainer.eval_step``'s ``no_grad`` attempt raises ``RuntimeError``
and it runs the forward again with gradients on: their eval callable is that forward under
``torch.enable_grad()`` (``EvalWithGrad``), as the mace / torchani adapters do for forces.

    pip install --no-deps pythae==0.1.2

Under Dynamo only (eager runs, data kept): ``ModelOutput`` (an ``OrderedDict`` subclass whose
``__setitem__`` also sets the attribute) built with keywords in an inlined frame has no attributes
under ``torch.compile``, so ``flow_output.out`` / ``layer_out.mu`` / ``quantizer_output.quantized_vector``
/ ``self(...).z`` raise ``AttributeError`` (the flows through ``NFModel``, ``VAE_IAF``,
``VAE_LinNF``, the VQ-VAEs, ``VAE.interpolate``); ``MSSSIM_VAE`` fails in fake-tensor propagation.

(already installed and used: numpy, scipy, pydantic 2, cloudpickle, tqdm, typing-extensions,
scikit-learn; ``imageio`` is declared but never imported by the package, ``dataclasses`` is in
the standard library.) Nothing stubbed: ``pythae`` imports no held-out package; ``wandb``,
``mlflow``, ``comet_ml`` and ``huggingface_hub`` are imported lazily inside callbacks / hub
methods, none used here.

Left out: the trainers' loops and ``pipelines`` (optimizer steps, ``loss.item()``, callbacks,
DataLoaders), the samplers' ``sample()`` (a Python loop over batches moving images to the CPU
around a decoder call covered by the models) and their ``fit()`` (a full training run),
``get_nll`` (a Python loop over samples with ``.item()`` bookkeeping, a log-likelihood estimate
run after training), ``save`` / ``load_from_folder`` / the hub methods (file IO), ``AutoModel``
(loading only).
"""

import functools

PACKAGE = "pythae"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4  # batch
_LATENT = 4
_MNIST = (1, 28, 28)
_CIFAR = (3, 32, 32)
_CELEBA = (3, 64, 64)
_TRAINER_KW = {"epoch": 3, "dataset_size": 40, "uses_ddp": False}


def warm_up():
    import pythae.models  # noqa: F401
    import pythae.models.nn.benchmarks.celeba  # noqa: F401
    import pythae.models.nn.benchmarks.cifar  # noqa: F401
    import pythae.models.nn.benchmarks.mnist  # noqa: F401
    import pythae.models.normalizing_flows  # noqa: F401
    import torch  # noqa: F401


# --- data and the training step ---------------------------------------------------------------

def _batch(shape=_MNIST, pixels=None):
    """One batch as ``collate_dataset_output`` gives it to a trainer."""
    import torch
    from pythae.data.datasets import DatasetOutput

    if pixels is None:
        x = torch.rand(_B, *shape)
    else:
        x = torch.randint(0, pixels, (_B, *shape)).float()
    return DatasetOutput(data=x, labels=torch.zeros(_B))


@functools.cache
def _train_step_cls():
    import torch

    class TrainStep(torch.nn.Module):
        """The forward of the model's trainer step up to the losses its ``_optimizers_step``
        backpropagates."""

        def __init__(self, model, losses=("loss",)):
            super().__init__()
            self.model = model
            self.losses = tuple(losses)
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, inputs, **kwargs):
            out = self.model(inputs, **kwargs)
            if len(self.losses) == 1:
                return out[self.losses[0]]
            return tuple(out[k] for k in self.losses)

    return TrainStep


@functools.cache
def _grad_eval_cls():
    import torch

    class EvalWithGrad(torch.nn.Module):
        """``BaseTrainer.eval_step``'s fallback: the forward raised ``RuntimeError`` under
        ``no_grad`` (it takes ``torch.autograd.grad`` inside), so it runs with gradients on."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, *args, **kwargs):
            with torch.enable_grad():
                return self.model(*args, **kwargs)

    return EvalWithGrad


_ADVERSARIAL = ("autoencoder_loss", "discriminator_loss")
_COUPLED = ("encoder_loss", "decoder_loss")
_COUPLED_ADVERSARIAL = ("encoder_loss", "decoder_loss", "discriminator_loss")


def _use(model, mode, shape=_MNIST, losses=("loss",), pixels=None, grad=False):
    if mode == "train":
        return _train_step_cls()(model, losses), (_batch(shape, pixels),), dict(_TRAINER_KW)
    net = _grad_eval_cls()(model) if grad else model
    return net, (_batch(shape, pixels),), dict(_TRAINER_KW)


def _nets(kind, config):
    """A benchmark encoder / decoder pair: ``kind`` is e.g. ``"Conv_VAE_MNIST"``."""
    from pythae.models.nn.benchmarks import celeba, cifar, mnist

    mod = {"MNIST": mnist, "CIFAR": cifar, "CELEBA": celeba}[kind.rsplit("_", 1)[1]]
    arch, family, data = kind.split("_")
    enc = getattr(mod, f"Encoder_{arch}_{family}_{data}")(config)
    dec_family = "VQVAE" if family == "VQVAE" else "AE"
    dec = getattr(mod, f"Decoder_{arch}_{dec_family}_{data}")(config)
    return enc, dec


# --- models -----------------------------------------------------------------------------------

def _model(cls_name, cfg_name, mode, shape=_MNIST, nets=None, losses=("loss",), grad=False, **cfg):
    import pythae.models as pm

    config = getattr(pm, cfg_name)(input_dim=shape, latent_dim=cfg.pop("latent_dim", _LATENT), **cfg)
    if nets is None:
        model = getattr(pm, cls_name)(model_config=config)
    else:
        enc, dec = _nets(nets, config)
        model = getattr(pm, cls_name)(model_config=config, encoder=enc, decoder=dec)
    return _use(model, mode, shape, losses, grad=grad)


def _rhvae_eval_ready(model):
    """One training forward and the end-of-epoch ``update()``: the learned metric."""
    model.train()
    model(_batch(), **_TRAINER_KW)
    model.update()
    model.eval()
    return model


def _rhvae(mode):
    from pythae.models import RHVAE, RHVAEConfig

    model = RHVAE(RHVAEConfig(input_dim=_MNIST, latent_dim=_LATENT, n_lf=2, eps_lf=0.01))
    if mode == "eval":
        _rhvae_eval_ready(model)
    return _use(model, mode, grad=True)


def _vqvae(mode, nets="ResNet_VQVAE_MNIST", **cfg):
    return _model("VQVAE", "VQVAEConfig", mode, nets=nets, latent_dim=16, num_embeddings=32, **cfg)


def _vaegan_conv(mode):
    from pythae.models import VAEGAN, VAEGANConfig
    from pythae.models.nn.benchmarks.mnist import Discriminator_Conv_MNIST

    config = VAEGANConfig(input_dim=_MNIST, latent_dim=_LATENT, reconstruction_layer=3)
    enc, dec = _nets("Conv_VAE_MNIST", config)
    model = VAEGAN(config, encoder=enc, decoder=dec, discriminator=Discriminator_Conv_MNIST(config))
    return _use(model, mode, losses=_COUPLED_ADVERSARIAL)


# --- flows ------------------------------------------------------------------------------------

def _flow(flow_name, mode, dim=2, **cfg):
    import torch
    from pythae.models import normalizing_flows as nf

    config = getattr(nf, f"{flow_name}Config")(input_dim=(dim,), **cfg)
    flow = getattr(nf, flow_name)(config)
    prior = torch.distributions.MultivariateNormal(torch.zeros(dim), torch.eye(dim))
    return _use(nf.NFModel(prior, flow), mode, shape=(dim,))


def _made(mode):
    """The autoregressive block of MAF / IAF on its own: ``MADE(x)`` gives ``mu`` / ``log_var``."""
    import torch
    from pythae.models.normalizing_flows import MADE, MADEConfig

    made = MADE(MADEConfig(input_dim=(4,), output_dim=(4,), hidden_sizes=[16, 16]))
    net = mean_loss_module()(made) if mode == "train" else made
    return net, (torch.randn(_B, 4),), {}


def _pixelcnn(mode):
    from pythae.models.normalizing_flows import PixelCNN, PixelCNNConfig

    config = PixelCNNConfig(input_dim=(1, 8, 8), n_embeddings=4, n_layers=3, kernel_size=5)
    return _use(PixelCNN(config), mode, shape=(1, 8, 8), pixels=4)


# --- model methods ----------------------------------------------------------------------------

def _method(build, method, mode, n_inputs=1, grad=False, **kw):
    """A bound method of a built model, on the batch's tensor(s)."""
    import torch

    model = build()
    model.train(mode == "train")

    class Method(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *xs):
            return getattr(self.model, method)(*xs, **kw)

    wrapper = Method()
    object.__setattr__(wrapper, "__wrapped__", getattr(model, method))
    if mode == "train":
        net = mean_loss_module()(wrapper)
    else:
        net = _grad_eval_cls()(wrapper) if grad else wrapper
    xs = tuple(torch.rand(_B, *_MNIST) for _ in range(n_inputs))
    return net, xs, {}


def _built_vae():
    from pythae.models import VAE, VAEConfig

    return VAE(VAEConfig(input_dim=_MNIST, latent_dim=_LATENT))


def _built_ae():
    from pythae.models import AE, AEConfig

    return AE(AEConfig(input_dim=_MNIST, latent_dim=_LATENT))


def _built_rhvae():
    from pythae.models import RHVAE, RHVAEConfig

    return _rhvae_eval_ready(RHVAE(RHVAEConfig(input_dim=_MNIST, latent_dim=_LATENT, n_lf=2)))


def _built_vqvae():
    from pythae.models import VQVAE, VQVAEConfig

    config = VQVAEConfig(input_dim=_MNIST, latent_dim=16, num_embeddings=32)
    enc, dec = _nets("ResNet_VQVAE_MNIST", config)
    return VQVAE(config, encoder=enc, decoder=dec)


_m = _model
MODELS = {
    # plain autoencoders
    "AE": functools.partial(_m, "AE", "AEConfig"),
    "AE_Conv_MNIST": functools.partial(_m, "AE", "AEConfig", nets="Conv_AE_MNIST"),
    "AE_ResNet_MNIST": functools.partial(_m, "AE", "AEConfig", nets="ResNet_AE_MNIST"),
    "AE_Conv_CELEBA": functools.partial(_m, "AE", "AEConfig", shape=_CELEBA, nets="Conv_AE_CELEBA"),
    # VAEs
    "VAE": functools.partial(_m, "VAE", "VAEConfig"),
    "VAE_Conv_MNIST": functools.partial(_m, "VAE", "VAEConfig", nets="Conv_VAE_MNIST"),
    "VAE_ResNet_MNIST": functools.partial(_m, "VAE", "VAEConfig", nets="ResNet_VAE_MNIST"),
    "VAE_Conv_CIFAR": functools.partial(_m, "VAE", "VAEConfig", shape=_CIFAR, nets="Conv_VAE_CIFAR"),
    "BetaVAE": functools.partial(_m, "BetaVAE", "BetaVAEConfig", beta=4.0),
    "DisentangledBetaVAE": functools.partial(_m, "DisentangledBetaVAE", "DisentangledBetaVAEConfig",
                                             beta=5.0, C=20.0, warmup_epoch=10),
    "BetaTCVAE": functools.partial(_m, "BetaTCVAE", "BetaTCVAEConfig", beta=2.0, gamma=1.0, use_mss=True),
    "FactorVAE": functools.partial(_m, "FactorVAE", "FactorVAEConfig", losses=_ADVERSARIAL, gamma=2.0),
    "IWAE": functools.partial(_m, "IWAE", "IWAEConfig", number_samples=3),
    "CIWAE": functools.partial(_m, "CIWAE", "CIWAEConfig", number_samples=3, beta=0.5),
    "MIWAE": functools.partial(_m, "MIWAE", "MIWAEConfig", number_samples=3, number_gradient_estimates=2),
    "PIWAE": functools.partial(_m, "PIWAE", "PIWAEConfig", losses=_COUPLED, number_samples=3,
                               number_gradient_estimates=2),
    "VAMP": functools.partial(_m, "VAMP", "VAMPConfig", number_components=5),
    "SVAE": functools.partial(_m, "SVAE", "SVAEConfig"),
    "SVAE_Conv_MNIST": functools.partial(_m, "SVAE", "SVAEConfig", nets="Conv_SVAE_MNIST"),
    "PoincareVAE": functools.partial(_m, "PoincareVAE", "PoincareVAEConfig", latent_dim=2),
    "PoincareVAE_riemannian": functools.partial(_m, "PoincareVAE", "PoincareVAEConfig", latent_dim=2,
                                                prior_distribution="riemannian_normal",
                                                posterior_distribution="riemannian_normal"),
    "HVAE": functools.partial(_m, "HVAE", "HVAEConfig", grad=True, n_lf=2, eps_lf=0.01, learn_eps_lf=True),
    "RHVAE": _rhvae,
    "VQVAE": _vqvae,
    "VQVAE_ema": functools.partial(_vqvae, use_ema=True, decay=0.9),
    "WAE_MMD": functools.partial(_m, "WAE_MMD", "WAE_MMD_Config", kernel_choice="imq"),
    "INFOVAE_MMD": functools.partial(_m, "INFOVAE_MMD", "INFOVAE_MMD_Config", alpha=0.5, lbd=10.0),
    "MSSSIM_VAE": functools.partial(_m, "MSSSIM_VAE", "MSSSIM_VAEConfig", window_size=3),
    "Adversarial_AE": functools.partial(_m, "Adversarial_AE", "Adversarial_AE_Config", losses=_ADVERSARIAL),
    "VAEGAN": functools.partial(_m, "VAEGAN", "VAEGANConfig", losses=_COUPLED_ADVERSARIAL),
    "VAEGAN_Conv_MNIST": _vaegan_conv,
    "RAE_L2": functools.partial(_m, "RAE_L2", "RAE_L2_Config", losses=_COUPLED),
    "RAE_GP": functools.partial(_m, "RAE_GP", "RAE_GP_Config", grad=True),
    "VAE_IAF": functools.partial(_m, "VAE_IAF", "VAE_IAF_Config", n_made_blocks=2, n_hidden_in_made=2,
                                 hidden_size=16),
    "VAE_LinNF": functools.partial(_m, "VAE_LinNF", "VAE_LinNF_Config", flows=["Planar", "Radial", "Planar"]),
    # normalizing flows (the samplers' models)
    "NF_MAF": functools.partial(_flow, "MAF", n_made_blocks=2, n_hidden_in_made=2, hidden_size=16),
    "NF_IAF_batch_norm": functools.partial(_flow, "IAF", n_made_blocks=2, n_hidden_in_made=2, hidden_size=16,
                                           include_batch_norm=True),
    "MADE": _made,
    "NF_PlanarFlow": functools.partial(_flow, "PlanarFlow"),
    "NF_RadialFlow": functools.partial(_flow, "RadialFlow"),
    "PixelCNN": _pixelcnn,
    # methods a user calls on a trained model
    "VAE.predict": functools.partial(_method, _built_vae, "predict"),
    "RHVAE.predict": functools.partial(_method, _built_rhvae, "predict", grad=True),
    "VAE.interpolate": functools.partial(_method, _built_vae, "interpolate", n_inputs=2, granularity=3),
    "VQVAE.reconstruct": functools.partial(_method, _built_vqvae, "reconstruct"),
}
