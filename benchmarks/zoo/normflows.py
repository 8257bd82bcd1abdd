"""normflows (Stimper et al.'s normalizing-flows): ``NormalizingFlow``, ``ConditionalNormalizingFlow``,
``ClassCondFlow``, ``MultiscaleFlow`` and ``NormalizingFlowVAE`` built as the library's examples wire
them, from each flow-layer family of ``normflows.flows`` over each base distribution of
``normflows.distributions``, every size shrunk (2-4 features or 3x8x8 / 4x4x4 images, batch
8-16, 2-3 layers, hidden width 8-16, 4 spline bins), random weights, no download:

- affine coupling: RealNVP (``MaskedAffineFlow`` with MLP scale/shift nets, alternating masks,
  ``ActNorm``), ``AffineCouplingBlock`` (channel split with ``Permute`` swap; checkerboard split
  with the sigmoid scale and a shuffling ``Permute``), NICE (shift-only coupling blocks and an
  ``AffineConstFlow`` scaling), ``InvertibleAffine`` mixing;
- Glow: ``GlowBlock`` (coupling ConvNet2d, ``Invertible1x1Conv`` with and without its LU
  parametrisation, ``ActNorm``) single-scale, and ``MultiscaleFlow`` with ``Squeeze`` / ``Merge``
  levels (class-conditional ``ClassCondDiagGaussian`` bases; ``GlowBase`` bases under a
  ``transforms.Logit`` preprocessing);
- neural spline flows: ``AutoregressiveRationalQuadraticSpline`` + ``LULinearPermute``,
  ``CoupledRationalQuadraticSpline``, their circular variants with ``PeriodicWrap`` /
  ``PeriodicShift`` over a ``UniformGaussian`` base, and the conditional spline flow over a
  ``ConditionalDiagGaussian`` base;
- ``MaskedAffineAutoregressive`` (MAF), plain and conditional;
- residual flows (``Residual`` over ``LipschitzMLP``: the brute-force 2-D log-det in eval, the
  memory-efficient unbiased estimator in train);
- ``Planar`` (tanh: forward only; leaky ReLU: invertible), ``Radial``, ``BatchNorm`` (forward only,
  so its log-density goes through ``Reverse``), stochastic flows (``MetropolisHastings`` with a
  ``DiagGaussianProposal``);
- bases ``DiagGaussian``, ``GaussianMixture``, ``AffineGaussian``, ``Uniform``, ``GaussianPCA``,
  ``ClassCondDiagGaussian``, ``GlowBase``, ``UniformGaussian``, ``ConditionalDiagGaussian``;
  targets ``TwoMoons``, ``CircularGaussianMixture`` and ``prior.TwoModes`` for the reverse KL;
- the VAE: ``NNDiagGaussian`` encoder, planar / radial flows, ``NNDiagGaussianDecoder`` /
  ``NNBernoulliDecoder``.

Entries name the method run: ``*_log_prob`` (eval: ``model.log_prob(x[, context | y])``; train:
its negative mean, the maximum-likelihood loss), ``*_sample`` (``model.sample(8[, context | y])``,
the samples and their log-density; train: a wrapper whose forward returns the mean of the float
outputs), ``*_forward_kld`` / ``*_reverse_kld`` / ``*_reverse_alpha_div`` (the library's own
losses, in both modes; ``RealNVP_reverse_kld_no_score`` switches the model's ``requires_grad`` off
and on inside), ``Glow_multiscale*`` (``MultiscaleFlow.forward``, the per-image negative
log-likelihood; train: its mean) and ``VAE_*`` (``NormalizingFlowVAE.forward``: z, log q, log p;
train: the negative ELBO, ``mean(log q - log p)``). A method call is the forward of a small
``nn.Module`` (``_call_module``) holding the model, its integer arguments (``num_samples``) fixed.

    pip install --no-deps normflows==1.7.3

(an sdist: pip builds its wheel with setuptools; it needs only numpy and torch, both there.)

Left out: ``HamiltonianMonteCarlo`` (its ``gradlogP`` calls ``torch.autograd.grad`` on the
target's log-density without enabling gradients, so it fails eagerly under ``torch.no_grad()`` in
eval); a log-density through ``Planar(act="tanh")``, ``Radial`` or a plain ``BatchNorm`` (no
inverse: ``Flow.inverse`` raises; they are sampled and trained by the reverse KL instead) or
through ``MetropolisHastings`` (its inverse is another random walk); ``sampling.HAIS`` (an
annealed-importance sampler, not a model); ``LipschitzCNN`` residual flows (the same ``iResBlock``
as ``LipschitzMLP``'s, on images); ``distributions.ImagePrior`` (built from an image);
``transforms.Shift`` (adds in place into its input); ``NormalizingFlow.sample`` over a
``GaussianMixture`` (fails backward in train: ``log_q -= log_det`` writes into the mixture's
``logsumexp`` output, which autograd saved; the mixture is sampled through ``reverse_kld``, which
copies ``log_q`` first).

Notes: ``GaussianMixture`` keeps float64 parameters whatever it is given (``torch.tensor`` of numpy
arrays), and its float64 samples fail in the float32 flows after it, so it is cast with ``.float()``
as a user must. ``distributions.Uniform`` is the VAE encoder's (``encoder.Uniform`` shadows
``base.Uniform`` in ``distributions/__init__``) and ``ConditionalDiagGaussian`` is not re-exported:
both are taken from ``distributions.base``. ``ActNorm`` initialises its scale and shift from the
first batch it sees (a tensor-valued ``if`` on a buffer, then ``.data`` writes), which every fresh
build hits. ``Residual`` draws its power-series length from ``np.random`` at each call (and reads
``.item()`` of its parameters); ``_residual`` seeds numpy so a fresh build's first call is
reproducible.
"""

import functools

PACKAGE = "normflows"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite
_D = 2  # features of the vector flows
_B = 16  # batch of log_prob / forward_kld
_N = 8  # samples drawn by sample / reverse_kld
_HIDDEN = 16
_CTX = 3  # context features of the conditional flows
_CLASSES = 3


@functools.cache
def _call_module():
    """An nn.Module whose forward is one method of a normflows model (``log_prob``, ``sample``,
    ``forward_kld``, ...): built once, when the first model is."""
    import torch

    class Call(torch.nn.Module):
        def __init__(self, model, method, loss=None, **fixed):
            super().__init__()
            self.model, self.method, self.loss, self.fixed = model, method, loss, fixed

        def forward(self, *args, **kwargs):
            out = getattr(self.model, self.method)(*args, **self.fixed, **kwargs)
            if self.loss == "nll":  # log_prob -> the maximum-likelihood loss
                return -out.mean()
            if self.loss == "elbo":  # NormalizingFlowVAE.forward -> the negative ELBO
                _, log_q, log_p = out
                return torch.mean(log_q - log_p)
            return out

    return Call


# --- the parts ------------------------------------------------------------------------------

def _mlp(*sizes, init_zeros=False):
    import normflows as nf

    return nf.nets.MLP(list(sizes), init_zeros=init_zeros)


def _real_nvp(base=None, layers=3, actnorm=True, d=_D):
    """RealNVP as the README builds it: MaskedAffineFlow with alternating masks, then ActNorm."""
    import torch
    import normflows as nf

    b = torch.tensor([1 if i % 2 == 0 else 0 for i in range(d)], dtype=torch.float)
    flows = []
    for i in range(layers):
        s = _mlp(d, _HIDDEN, d)
        t = _mlp(d, _HIDDEN, d)
        flows.append(nf.flows.MaskedAffineFlow(b if i % 2 == 0 else 1 - b, t, s))
        if actnorm:
            flows.append(nf.flows.ActNorm(d))
    return flows, (base if base is not None else nf.distributions.DiagGaussian(d))


def _realnvp(target=None):
    def build():
        import normflows as nf

        flows, q0 = _real_nvp()
        return nf.NormalizingFlow(q0, flows, target() if target else None)

    return build


def _coupling_block(split_mode="channel", scale_map="exp", d=4):
    def build():
        import normflows as nf

        flows = []
        for _ in range(2):
            half = d // 2
            flows.append(nf.flows.AffineCouplingBlock(_mlp(half, _HIDDEN, 2 * half, init_zeros=False),
                                                      scale_map=scale_map, split_mode=split_mode))
            flows.append(nf.flows.Permute(d, mode="swap" if split_mode == "channel" else "shuffle"))
        return nf.NormalizingFlow(nf.distributions.DiagGaussian(d), flows)

    return build


def _nice(d=4):
    import normflows as nf

    flows = []
    for i in range(2):
        flows.append(nf.flows.AffineCouplingBlock(_mlp(d // 2, _HIDDEN, d // 2), scale=False,
                                                  split_mode="channel" if i % 2 == 0 else "channel_inv"))
    flows.append(nf.flows.AffineConstFlow((d,)))
    return nf.NormalizingFlow(nf.distributions.DiagGaussian(d), flows)


def _affine_base(d=4):
    """MaskedAffineFlows mixed by InvertibleAffine (LU and plain) over an AffineGaussian base."""
    import normflows as nf

    flows, _ = _real_nvp(layers=2, actnorm=False, d=d)
    flows = [flows[0], nf.flows.InvertibleAffine(d, use_lu=True), flows[1], nf.flows.InvertibleAffine(d, use_lu=False)]
    return nf.NormalizingFlow(nf.distributions.AffineGaussian((d,), (d,)), flows)


def _gmm(target=None):
    def build():
        import numpy as np
        import normflows as nf

        loc = np.array([[-1.0, 0.0], [1.0, 0.5], [0.0, -1.0]])
        flows, _ = _real_nvp(layers=2)
        # the mixture's parameters are float64 (torch.tensor of numpy arrays) whatever is passed; its
        # samples would reach the float32 flows as float64, so it is cast as a user must
        q0 = nf.distributions.GaussianMixture(3, _D, loc=loc).float()
        return nf.NormalizingFlow(q0, flows, target() if target else None)

    return build


def _class_cond():
    import normflows as nf

    flows, _ = _real_nvp(layers=2)
    return nf.ClassCondFlow(nf.distributions.ClassCondDiagGaussian(_D, _CLASSES), flows)


def _glow(use_lu=True, scale_map="sigmoid", glow_base=False, shape=(4, 4, 4)):
    def build():
        import normflows as nf

        flows = [nf.flows.GlowBlock(shape[0], 8, scale_map=scale_map, use_lu=use_lu) for _ in range(2)]
        q0 = nf.distributions.GlowBase(shape) if glow_base else nf.distributions.DiagGaussian(shape)
        return nf.NormalizingFlow(q0, flows)

    return build


def _glow_multiscale(class_cond=True, logit=False, levels=2, input_shape=(3, 8, 8)):
    """The Glow example's MultiscaleFlow: per level a GlowBlock then Squeeze, merged level by level."""

    def build():
        import normflows as nf

        c, h, w = input_shape
        q0, merges, flows = [], [], []
        for i in range(levels):
            flows.append([nf.flows.GlowBlock(c * 2 ** (levels + 1 - i), 8, split_mode="channel"),
                          nf.flows.Squeeze()])
            if i > 0:
                merges.append(nf.flows.Merge())
                latent = (c * 2 ** (levels - i), h // 2 ** (levels - i), w // 2 ** (levels - i))
            else:
                latent = (c * 2 ** (levels + 1), h // 2 ** levels, w // 2 ** levels)
            q0.append(nf.distributions.ClassCondDiagGaussian(latent, _CLASSES) if class_cond
                      else nf.distributions.GlowBase(latent))
        transform = nf.transforms.Logit(alpha=0.05) if logit else None
        return nf.MultiscaleFlow(q0, flows, merges, transform=transform, class_cond=class_cond)

    return build


def _nsf_ar(target=None):
    def build():
        import normflows as nf

        flows = []
        for _ in range(2):
            flows.append(nf.flows.AutoregressiveRationalQuadraticSpline(_D, 1, _HIDDEN, num_bins=4))
            flows.append(nf.flows.LULinearPermute(_D))
        return nf.NormalizingFlow(nf.distributions.DiagGaussian(_D, trainable=False), flows,
                                  target() if target else None)

    return build


def _nsf_coupling(base=None, d=4):
    def build():
        import normflows as nf

        flows = []
        for i in range(2):
            flows.append(nf.flows.CoupledRationalQuadraticSpline(d, 1, _HIDDEN, num_bins=4, reverse_mask=i % 2 == 1))
            flows.append(nf.flows.Permute(d, mode="shuffle"))
        return nf.NormalizingFlow(base(d) if base else nf.distributions.DiagGaussian(d), flows)

    return build


def _circular_base():
    import numpy as np
    import torch
    import normflows as nf

    # coordinate 0 is an angle in [-pi, pi), coordinate 1 a Gaussian
    return nf.distributions.UniformGaussian(_D, [0], torch.tensor([2 * np.pi, 1.0]))


def _circular_tail_bound():
    import numpy as np
    import torch

    bound = 3.0 * torch.ones(_D)
    bound[0] = np.pi
    return bound


def _nsf_circular_ar():
    import normflows as nf

    flows = [nf.flows.CircularAutoregressiveRationalQuadraticSpline(
        _D, 1, _HIDDEN, [0], tail_bound=_circular_tail_bound(), num_bins=4, permute_mask=i % 2 == 1,
        init_identity=False) for i in range(2)]
    return nf.NormalizingFlow(_circular_base(), flows)


def _nsf_circular_coupling():
    import numpy as np
    import torch
    import normflows as nf

    bound = _circular_tail_bound()
    flows = [nf.flows.PeriodicWrap([0], bound=np.pi)]
    for i in range(2):
        flows.append(nf.flows.CircularCoupledRationalQuadraticSpline(
            _D, 1, _HIDDEN, [0], tail_bound=bound, num_bins=4, reverse_mask=i % 2 == 1, init_identity=False))
        flows.append(nf.flows.PeriodicShift([0], bound=np.pi, shift=torch.tensor(0.5)))
    return nf.NormalizingFlow(_circular_base(), flows)


def _nsf_conditional():
    import normflows as nf

    flows = []
    for _ in range(2):
        flows.append(nf.flows.AutoregressiveRationalQuadraticSpline(_D, 1, _HIDDEN, num_context_channels=_CTX,
                                                                    num_bins=4))
        flows.append(nf.flows.LULinearPermute(_D))
    # base.ConditionalDiagGaussian: distributions/__init__ does not re-export it
    q0 = nf.distributions.base.ConditionalDiagGaussian(_D, _mlp(_CTX, _HIDDEN, 2 * _D))
    return nf.ConditionalNormalizingFlow(q0, flows)


def _maf(context=False):
    def build():
        import normflows as nf

        flows = []
        for _ in range(2):
            flows.append(nf.flows.MaskedAffineAutoregressive(_D, _HIDDEN, context_features=_CTX if context else None,
                                                             num_blocks=1))
            flows.append(nf.flows.Permute(_D, mode="shuffle"))
        q0 = nf.distributions.DiagGaussian(_D)
        return (nf.ConditionalNormalizingFlow if context else nf.NormalizingFlow)(q0, flows)

    return build


def _residual():
    import numpy as np
    import normflows as nf

    np.random.seed(0)  # iResBlock draws its power-series length with np.random at each call

    flows = []
    for _ in range(2):
        net = nf.nets.LipschitzMLP([_D, _HIDDEN, _HIDDEN, _D], init_zeros=False, lipschitz_const=0.9)
        flows.append(nf.flows.Residual(net, reduce_memory=True))
        flows.append(nf.flows.ActNorm(_D))
    return nf.NormalizingFlow(nf.distributions.DiagGaussian(_D), flows)


def _two_modes():
    import normflows as nf

    return nf.distributions.prior.TwoModes(2.0, 0.1)


def _planar(act="tanh", target=None):
    def build():
        import normflows as nf

        flows = [nf.flows.Planar((_D,), act=act) for _ in range(3)]
        return nf.NormalizingFlow(nf.distributions.DiagGaussian(_D), flows, target() if target else None)

    return build


def _radial(target=None):
    def build():
        import normflows as nf

        flows = [nf.flows.Radial((_D,)) for _ in range(3)]
        return nf.NormalizingFlow(nf.distributions.DiagGaussian(_D), flows, target() if target else None)

    return build


def _batchnorm(reverse):
    def build():
        import normflows as nf

        flows, q0 = _real_nvp(layers=2, actnorm=False)
        bn = nf.flows.BatchNorm()
        flows.insert(1, nf.flows.Reverse(bn) if reverse else bn)
        return nf.NormalizingFlow(q0, flows)

    return build


def _gaussian_pca(d=4):
    import normflows as nf

    flows, _ = _real_nvp(layers=2, d=d)
    return nf.NormalizingFlow(nf.distributions.GaussianPCA(d, latent_dim=2), flows)


def _uniform_base(d):
    import normflows as nf

    # distributions.Uniform is encoder.Uniform (it shadows base.Uniform in distributions/__init__)
    return nf.distributions.base.Uniform((d,), low=-3.0, high=3.0)


def _snf_mh():
    """A stochastic normalizing flow: RealNVP layers interleaved with Metropolis-Hastings steps."""
    import normflows as nf

    target = _two_modes()
    proposal = nf.distributions.DiagGaussianProposal((_D,), 0.1)
    flows, q0 = _real_nvp(layers=2, actnorm=False)
    flows = [flows[0], nf.flows.MetropolisHastings(target, proposal, 2), flows[1],
             nf.flows.MetropolisHastings(target, proposal, 2)]
    return nf.NormalizingFlow(q0, flows, target)


def _vae(flow="planar", decoder="gaussian", x_dim=4, z_dim=2):
    def build():
        import normflows as nf

        q0 = nf.distributions.NNDiagGaussian(_mlp(x_dim, _HIDDEN, 2 * z_dim))
        if flow == "planar":
            flows = [nf.flows.Planar((z_dim,)) for _ in range(2)]
        else:
            flows = [nf.flows.Radial((z_dim,)) for _ in range(2)]
        if decoder == "gaussian":
            dec = nf.distributions.NNDiagGaussianDecoder(_mlp(z_dim, _HIDDEN, 2 * x_dim))
        else:
            dec = nf.distributions.NNBernoulliDecoder(_mlp(z_dim, _HIDDEN, x_dim))
        return nf.NormalizingFlowVAE(nf.distributions.DiagGaussian(z_dim), q0=q0, flows=flows, decoder=dec)

    return build


# --- inputs ---------------------------------------------------------------------------------

def _x(d=_D, b=_B):
    import torch

    return torch.randn(b, d)


def _x_circular(b=_B):
    import math
    import torch

    return torch.stack([(torch.rand(b) * 2 - 1) * math.pi, torch.randn(b)], dim=1)


def _x_box(d=4, b=_B):
    import torch

    return (torch.rand(b, d) * 2 - 1) * 2.5  # inside the Uniform base's [-3, 3] and the spline's tail bound


def _image(shape=(4, 4, 4), b=8):
    import torch

    return torch.randn(b, *shape)


def _image01(shape=(3, 8, 8), b=8):
    import torch

    return torch.rand(b, *shape) * 0.9 + 0.05  # inside (0, 1): the Logit transform's domain


def _binary(d=4, b=8):
    import torch

    return (torch.rand(b, d) > 0.5).float()


def _labels(b=_B):
    import torch

    return torch.arange(b) % _CLASSES


def _context(b=_B):
    import torch

    return torch.randn(b, _CTX)


# --- entries --------------------------------------------------------------------------------

def _wrap(net, args, kwargs, mode):
    if mode == "train":
        return mean_loss_module()(net), args, kwargs
    return net, args, kwargs


def _log_prob(build, *inputs, **kw_inputs):
    """eval: ``model.log_prob(*inputs)``; train: its negative mean."""

    def make(mode):
        model = build()
        args = tuple(f() for f in inputs)
        kwargs = {k: f() for k, f in kw_inputs.items()}
        return _call_module()(model, "log_prob", loss="nll" if mode == "train" else None), args, kwargs

    return make


def _method(build, method, *inputs, **kw_inputs):
    """``model.<method>(*inputs)`` (a loss of the library's own) in both modes."""

    def make(mode):
        model = build()
        args = tuple(f() for f in inputs)
        kwargs = {k: f() for k, f in kw_inputs.items()}
        return _call_module()(model, method), args, kwargs

    return make


def _kld(build, method, **fixed):
    """``model.reverse_kld(num_samples=8)`` and the like: a loss drawn from the base, no inputs."""

    def make(mode):
        return _call_module()(build(), method, num_samples=_N, **fixed), (), {}

    return make


def _sample(build, *inputs, **kw_inputs):
    """``model.sample(8[, ...])``: samples and their log-density; train: their mean as a loss."""

    def make(mode):
        model = build()
        args = tuple(f() for f in inputs)
        kwargs = {k: f() for k, f in kw_inputs.items()}
        return _wrap(_call_module()(model, "sample", num_samples=_N), args, kwargs, mode)

    return make


def _multiscale_forward(build, *inputs):
    """``MultiscaleFlow.forward``: the per-image negative log-likelihood; train: its mean."""

    def make(mode):
        return _wrap(build(), tuple(f() for f in inputs), {}, mode)

    return make


def _vae_forward(build, data):
    def make(mode):
        net = _call_module()(build(), "forward", loss="elbo" if mode == "train" else None, num_samples=2)
        return net, (data(),), {}

    return make


def _target(name):
    def make():
        import normflows as nf

        return getattr(nf.distributions.target, name)()

    return make


MODELS = {
    # RealNVP: MaskedAffineFlow + ActNorm over a DiagGaussian
    "RealNVP_log_prob": _log_prob(_realnvp(), _x),
    "RealNVP_sample": _sample(_realnvp()),
    "RealNVP_forward_kld": _method(_realnvp(), "forward_kld", _x),
    "RealNVP_reverse_kld": _kld(_realnvp(_target("TwoMoons")), "reverse_kld"),
    "RealNVP_reverse_kld_no_score": _kld(_realnvp(_target("TwoMoons")), "reverse_kld", score_fn=False),
    "RealNVP_reverse_alpha_div": _kld(_realnvp(_target("CircularGaussianMixture")), "reverse_alpha_div"),
    "RealNVP_gmm_log_prob": _log_prob(_gmm(), _x),
    "RealNVP_gmm_reverse_kld": _kld(_gmm(_target("TwoMoons")), "reverse_kld"),
    "RealNVP_affine_base_log_prob": _log_prob(_affine_base, functools.partial(_x, 4)),
    # AffineCouplingBlock (split / coupling / merge)
    "CouplingBlock_log_prob": _log_prob(_coupling_block(), functools.partial(_x, 4)),
    "CouplingBlock_checkerboard_log_prob": _log_prob(_coupling_block("checkerboard", "sigmoid"),
                                                     functools.partial(_x, 4)),
    "NICE_log_prob": _log_prob(_nice, functools.partial(_x, 4)),
    "ClassCondFlow_log_prob": _log_prob(_class_cond, _x, _labels),
    # Glow
    "Glow_log_prob": _log_prob(_glow(), _image),
    "Glow_sample": _sample(_glow()),
    "Glow_no_lu_glowbase_log_prob": _log_prob(_glow(use_lu=False, scale_map="exp", glow_base=True), _image),
    "Glow_multiscale": _multiscale_forward(_glow_multiscale(), _image01, functools.partial(_labels, 8)),
    "Glow_multiscale_sample": _sample(_glow_multiscale(), y=functools.partial(_labels, _N)),
    "Glow_multiscale_logit": _multiscale_forward(_glow_multiscale(class_cond=False, logit=True), _image01),
    # neural spline flows
    "NSF_AR_log_prob": _log_prob(_nsf_ar(), _x),
    "NSF_AR_sample": _sample(_nsf_ar()),
    "NSF_AR_forward_kld": _method(_nsf_ar(), "forward_kld", _x),
    "NSF_AR_reverse_kld": _kld(_nsf_ar(_target("TwoMoons")), "reverse_kld"),
    "NSF_coupling_log_prob": _log_prob(_nsf_coupling(), functools.partial(_x, 4)),
    "NSF_coupling_uniform_base_log_prob": _log_prob(_nsf_coupling(_uniform_base), _x_box),
    "NSF_circular_AR_log_prob": _log_prob(_nsf_circular_ar, _x_circular),
    "NSF_circular_coupling_log_prob": _log_prob(_nsf_circular_coupling, _x_circular),
    "NSF_conditional_log_prob": _log_prob(_nsf_conditional, _x, context=_context),
    "NSF_conditional_sample": _sample(_nsf_conditional, context=functools.partial(_context, _N)),
    "NSF_conditional_forward_kld": _method(_nsf_conditional, "forward_kld", _x, context=_context),
    # masked autoregressive flows
    "MAF_log_prob": _log_prob(_maf(), _x),
    "MAF_conditional_log_prob": _log_prob(_maf(context=True), _x, context=_context),
    # residual flows
    "Residual_log_prob": _log_prob(_residual, _x),
    "Residual_forward_kld": _method(_residual, "forward_kld", _x),
    "Residual_sample": _sample(_residual),
    # planar, radial, batch norm, stochastic
    "Planar_sample": _sample(_planar()),
    "Planar_reverse_kld": _kld(_planar(target=_two_modes), "reverse_kld"),
    "Planar_leaky_log_prob": _log_prob(_planar("leaky_relu"), _x),
    "Radial_reverse_kld": _kld(_radial(target=_target("TwoMoons")), "reverse_kld"),
    "BatchNorm_sample": _sample(_batchnorm(reverse=False)),
    "BatchNorm_reversed_log_prob": _log_prob(_batchnorm(reverse=True), _x),
    "GaussianPCA_log_prob": _log_prob(_gaussian_pca, functools.partial(_x, 4)),
    "SNF_MH_reverse_kld": _kld(_snf_mh, "reverse_kld"),
    # NormalizingFlowVAE
    "VAE_planar_gaussian": _vae_forward(_vae(), functools.partial(_x, 4, 8)),
    "VAE_radial_bernoulli": _vae_forward(_vae("radial", "bernoulli"), _binary),
}
