"""torchcfm 1.0.7 (atong01/conditional-flow-matching, Tong et al.): its conditional flow matchers,
their minibatch OT plan samplers, its ``MLP`` and ``UNetModel`` (``UNetModelWrapper``) velocity
networks, and their training steps and ODE sampling as the repository's tests
(``tests/test_models.py``, ``test_conditional_flow_matcher.py``, ``test_optimal_transport.py``,
``test_time_t.py``) and examples (``examples/8_gaussians_to_2_moons.py``,
``CFM_flavours_between_8_gaussians_to_2_moons.py``, ``minibatch_effect_SF2M.py``,
``images/cifar10/train_cifar10.py`` / ``utils_cifar.py`` / ``compute_fid.py``, the conditional MNIST
notebook) use them; tiny (16 2-D points from ``sample_8gaussians`` / ``sample_moons``, MLPs of width
32; UNets on 2x3x32x32 / 2x1x28x28 images with 32 base channels and one res block per level),
random weights, no download. Each training step is an ``nn.Module`` around the velocity network
holding the flow matcher as the examples hold it (a plain attribute); the data batches (x0, x1,
labels) are its inputs, drawn once at build time outside the step, as the examples draw them
before the step.

- 2-D training steps (``t, xt, ut = FM.sample_location_and_conditional_flow(x0, x1)``,
  ``vt = model(torch.cat([xt, t[:, None]], dim=-1))``, ``loss = torch.mean((vt - ut) ** 2)``) for
  ``ConditionalFlowMatcher`` (sigma 0.1 and 0.0), ``ExactOptimalTransportConditionalFlowMatcher``,
  ``TargetConditionalFlowMatcher``, ``SchrodingerBridgeConditionalFlowMatcher`` (exact and
  sinkhorn plans), ``VariancePreservingConditionalFlowMatcher``; a given ``t``
  (``test_time_t.py``); ``return_noise=True``; the SF2M example (flow + score loss with
  ``compute_lambda``); ``guided_sample_location_and_conditional_flow`` with labels for the exact-OT
  and SB matchers (label fed to the MLP as an extra input);
- ``OTPlanSampler`` on its own (``exact``, ``sinkhorn``, ``unbalanced``, ``partial``;
  ``sample_plan`` and ``sample_plan_with_labels``): eval returns the re-paired batch; train runs
  the SF2M example's pattern ``x0, x1 = ot_sampler.sample_plan(x0, x1)`` then a CFM step;
- ``MLP`` alone (``dim=2``, with and without ``time_varying``, as ``test_models.py``);
- ``UNetModel``: the CIFAR example's configuration shrunk (``channel_mult=[1, 2]``,
  ``num_heads=4``, ``num_head_channels=32``, ``attention_resolutions="16"``, ``dropout=0.1``), and
  variants for ``use_scale_shift_norm`` + ``resblock_updown``, ``use_new_attention_order``,
  ``learn_sigma``, ``use_checkpoint``; the test's MNIST class-conditional UNet (``dim=(1, 28, 28)``,
  ``num_classes=10``, ``class_cond=True``); the CIFAR training step for each of the example's
  ``--model`` choices (``otcfm``, ``icfm``, ``fm``, ``si``) and the SB matcher; the MNIST conditional
  step (``vt = model(t, xt, y)``); a scalar ``t`` (what an ODE solver passes);
- sampling: torchdyn ``NeuralODE(torch_wrapper(model), solver="dopri5", sensitivity="adjoint",
  atol=1e-4, rtol=1e-4).trajectory(x0, t_span=linspace(0, 1, 5))`` (the 2-D examples, 5 times
  instead of 100), the same with ``euler`` and ``rk4``; ``NeuralODE(unet, solver="euler")`` as
  ``utils_cifar.generate_samples`` (5 steps, ``.clip(-1, 1)``); ``torchdiffeq.odeint(unet, x0,
  t_span)`` as ``compute_fid.py``, but ``method="euler"`` over 4 times instead of its adaptive
  ``dopri5`` at 1e-5 (on random weights dopri5 took 25-70 s a call here, at 1e-2 too) (a class-conditional UNet
  through a lambda too, as the MNIST notebook).

``OTPlanSampler_partial`` uses ``normalize_cost=True``: at ``reg=0.5`` on the raw squared
distances (up to ~130) POT's entropic partial plan underflows to NaN and ``sample_map`` raises.

Eval: the velocity field (``vt``) next to the matcher's target (``ut``) for the training-step
models, the network's output, the ODE trajectory, the re-paired batch. Train: the training-step
loss as the examples compute it (no optimizer step, no EMA); ``mean_loss_module`` for the bare
networks and the ODE trajectories. Measured first as it came, before any rule looked at it.

    pip install --no-deps torchcfm==1.0.7
    pip install --no-deps pot==0.9.7.post1

torchcfm imports torch, numpy, ``ot`` (POT; ``optimal_transport.py``), matplotlib and torchdyn
(``utils.py``); its other declared dependencies (scipy, scikit-learn, torchdiffeq, absl-py,
pandas) and POT's (numpy, scipy) were installed already (torchdyn 1.0.6, torchdiffeq 0.2.5,
matplotlib 3.11.2, scipy 1.17.1, numpy 2.4.6). Nothing stubbed.

Left out: ``GradModel`` (``autograd.grad`` of an action network; eval runs under ``no_grad``, where
it cannot build a graph); ``OTPlanSampler.sample_trajectory`` and ``wasserstein`` (numpy array /
Python float out, evaluation metrics around a run); ``utils.sample_8gaussians`` /
``sample_moons`` / ``plot_trajectories`` (data and plotting, outside the step); the UNet's
``use_fp16`` (half-precision conversion, GPU only in the examples); ``SuperResModel`` and
``EncoderUNetModel`` (not exported, no test or example uses them); the forest-flow extra
(xgboost); the SDE sampling of the SF2M example (torchsde).
"""

PACKAGE = "torchcfm"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_N = 16  # 2-D points per batch
_W = 32  # MLP width
_SEED_DATA = 0


def warm_up():
    import ot  # noqa: F401
    import torch  # noqa: F401
    import torchcfm
    import torchcfm.conditional_flow_matching
    import torchcfm.models
    import torchcfm.models.unet
    import torchcfm.optimal_transport
    import torchcfm.utils
    import torchdiffeq  # noqa: F401
    import torchdyn.core  # noqa: F401


# --- data ------------------------------------------------------------------------------------

def _points():
    from torchcfm.utils import sample_8gaussians, sample_moons

    return sample_8gaussians(_N), sample_moons(_N).float()


def _labels(n, classes):
    import torch

    return torch.arange(n) % classes


def _cifar(b=2):
    import torch

    x1 = torch.rand(b, 3, 32, 32) * 2 - 1
    return torch.randn_like(x1), x1


def _mnist(b=2):
    import torch

    x1 = torch.rand(b, 1, 28, 28) * 2 - 1
    return torch.randn_like(x1), x1, _labels(b, 10)


# --- networks --------------------------------------------------------------------------------

def _mlp(dim=2, out_dim=None, time_varying=True):
    from torchcfm.models import MLP

    return MLP(dim=dim, out_dim=out_dim, w=_W, time_varying=time_varying)


def _unet_cifar(**kw):
    from torchcfm.models.unet import UNetModel

    cfg = dict(dim=(3, 32, 32), num_res_blocks=1, num_channels=32, channel_mult=[1, 2],
               num_heads=4, num_head_channels=32, attention_resolutions="16", dropout=0.1)
    cfg.update(kw)
    return UNetModel(**cfg)


def _unet_mnist():
    from torchcfm.models.unet import UNetModel

    return UNetModel(dim=(1, 28, 28), num_channels=32, num_res_blocks=1, num_classes=10,
                     class_cond=True)


def _matcher(kind, sigma=0.1):
    from torchcfm import conditional_flow_matching as cfm

    if kind == "icfm":
        return cfm.ConditionalFlowMatcher(sigma=sigma)
    if kind == "otcfm":
        return cfm.ExactOptimalTransportConditionalFlowMatcher(sigma=sigma)
    if kind == "fm":
        return cfm.TargetConditionalFlowMatcher(sigma=sigma)
    if kind == "sb":
        return cfm.SchrodingerBridgeConditionalFlowMatcher(sigma=sigma, ot_method="exact")
    if kind == "sb_sinkhorn":
        return cfm.SchrodingerBridgeConditionalFlowMatcher(sigma=sigma, ot_method="sinkhorn")
    if kind == "si":
        return cfm.VariancePreservingConditionalFlowMatcher(sigma=sigma)
    raise ValueError(kind)


# --- training steps ----------------------------------------------------------------------------

def _step_classes():
    import torch

    class Step2D(torch.nn.Module):
        """The 2-D examples' step: velocity of an MLP on ``cat([xt, t])``."""

        def __init__(self, model, FM, train, given_t=False, return_noise=False):
            super().__init__()
            self.model = model
            self.FM = FM
            self.training_step = train
            self.given_t = given_t
            self.return_noise = return_noise

        def forward(self, x0, x1):
            t = torch.rand(x0.shape[0]).type_as(x0) if self.given_t else None
            if self.return_noise:
                t, xt, ut, eps = self.FM.sample_location_and_conditional_flow(
                    x0, x1, t=t, return_noise=True)
            else:
                t, xt, ut = self.FM.sample_location_and_conditional_flow(x0, x1, t=t)
            vt = self.model(torch.cat([xt, t[:, None]], dim=-1))
            if not self.training_step:
                return vt, ut
            return torch.mean((vt - ut) ** 2)

    class SF2MStep(torch.nn.Module):
        """``minibatch_effect_SF2M.py``: flow and score networks on an SB matcher."""

        def __init__(self, model, score_model, FM, train):
            super().__init__()
            self.model = model
            self.score_model = score_model
            self.FM = FM
            self.training_step = train

        def forward(self, x0, x1):
            t, xt, ut, eps = self.FM.sample_location_and_conditional_flow(x0, x1, return_noise=True)
            lambda_t = self.FM.compute_lambda(t)
            vt = self.model(torch.cat([xt, t[:, None]], dim=-1))
            st = self.score_model(torch.cat([xt, t[:, None]], dim=-1))
            if not self.training_step:
                return vt, st
            flow_loss = torch.mean((vt - ut) ** 2)
            score_loss = torch.mean((lambda_t[:, None] * st + eps) ** 2)
            return flow_loss + score_loss

    class GuidedStep2D(torch.nn.Module):
        """``guided_sample_location_and_conditional_flow`` with labels; the label is an input."""

        def __init__(self, model, FM, train):
            super().__init__()
            self.model = model
            self.FM = FM
            self.training_step = train

        def forward(self, x0, x1, y0, y1):
            t, xt, ut, y0, y1 = self.FM.guided_sample_location_and_conditional_flow(
                x0, x1, y0=y0, y1=y1)
            vt = self.model(torch.cat([xt, t[:, None], y1[:, None].float()], dim=-1))
            if not self.training_step:
                return vt, ut
            return torch.mean((vt - ut) ** 2)

    class PlanStep(torch.nn.Module):
        """An ``OTPlanSampler`` re-pairing the batch, then (train) a CFM step on the pairs."""

        def __init__(self, model, sampler, FM, train, labels=False):
            super().__init__()
            self.model = model
            self.ot_sampler = sampler
            self.FM = FM
            self.training_step = train
            self.labels = labels

        def forward(self, x0, x1, y0=None, y1=None):
            if self.labels:
                x0, x1, y0, y1 = self.ot_sampler.sample_plan_with_labels(x0, x1, y0, y1)
            else:
                x0, x1 = self.ot_sampler.sample_plan(x0, x1)
            if not self.training_step:
                return (x0, x1, y0, y1) if self.labels else (x0, x1)
            t, xt, ut = self.FM.sample_location_and_conditional_flow(x0, x1)
            vt = self.model(torch.cat([xt, t[:, None]], dim=-1))
            return torch.mean((vt - ut) ** 2)

    class ImageStep(torch.nn.Module):
        """``train_cifar10.py``: ``vt = net_model(t, xt)`` (``vt = model(t, xt, y)`` with labels)."""

        def __init__(self, model, FM, train):
            super().__init__()
            self.model = model
            self.FM = FM
            self.training_step = train

        def forward(self, x0, x1, y=None):
            t, xt, ut = self.FM.sample_location_and_conditional_flow(x0, x1)
            vt = self.model(t, xt) if y is None else self.model(t, xt, y)
            if not self.training_step:
                return vt, ut
            return torch.mean((vt - ut) ** 2)

    return Step2D, SF2MStep, GuidedStep2D, PlanStep, ImageStep


def _step2d(kind, sigma=0.1, **kw):
    def make(mode):
        Step2D = _step_classes()[0]
        x0, x1 = _points()
        return Step2D(_mlp(), _matcher(kind, sigma), mode == "train", **kw), (x0, x1), {}

    return make


def _sf2m(mode):
    SF2MStep = _step_classes()[1]
    x0, x1 = _points()
    return SF2MStep(_mlp(), _mlp(), _matcher("sb", 0.5), mode == "train"), (x0, x1), {}


def _guided(kind, sigma):
    def make(mode):
        GuidedStep2D = _step_classes()[2]
        x0, x1 = _points()
        y0, y1 = _labels(_N, 8), _labels(_N, 2)
        net = _mlp(dim=3, out_dim=2)
        return GuidedStep2D(net, _matcher(kind, sigma), mode == "train"), (x0, x1, y0, y1), {}

    return make


def _plan(method, labels=False, **kw):
    def make(mode):
        from torchcfm.optimal_transport import OTPlanSampler

        PlanStep = _step_classes()[3]
        x0, x1 = _points()
        sampler = OTPlanSampler(method=method, **kw)
        step = PlanStep(_mlp(), sampler, _matcher("icfm", 0.1), mode == "train", labels=labels)
        args = (x0, x1, _labels(_N, 8), _labels(_N, 2)) if labels else (x0, x1)
        return step, args, {}

    return make


def _image_step(kind, sigma=0.0):
    def make(mode):
        ImageStep = _step_classes()[4]
        x0, x1 = _cifar()
        return ImageStep(_unet_cifar(), _matcher(kind, sigma), mode == "train"), (x0, x1), {}

    return make


def _mnist_step(mode):
    ImageStep = _step_classes()[4]
    x0, x1, y = _mnist()
    return ImageStep(_unet_mnist(), _matcher("icfm", 0.0), mode == "train"), (x0, x1, y), {}


# --- bare networks ---------------------------------------------------------------------------

def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _mlp_plain(mode):
    import torch

    return _wrap(_mlp(time_varying=False), mode), (torch.randn(8, 2),), {}


def _mlp_time(mode):
    import torch

    return _wrap(_mlp(), mode), (torch.randn(8, 3),), {}


def _unet(**kw):
    def make(mode):
        import torch

        x = torch.randn(2, 3, 32, 32)
        return _wrap(_unet_cifar(**kw), mode), (torch.rand(2), x), {}

    return make


def _unet_scalar_t(mode):
    import torch

    return _wrap(_unet_cifar(), mode), (torch.tensor(0.5), torch.randn(2, 3, 32, 32)), {}


def _unet_mnist_fwd(mode):
    import torch

    # test_initialize_unet
    return (_wrap(_unet_mnist(), mode),
            (torch.linspace(0, 1, steps=2), torch.zeros(2, 1, 28, 28), torch.ones(2, dtype=torch.long)),
            {})


# --- sampling ----------------------------------------------------------------------------------

def _ode_classes():
    import torch

    class Trajectory(torch.nn.Module):
        """``node.trajectory(x0, t_span=...)`` of a torchdyn ``NeuralODE``."""

        def __init__(self, node, steps, clip=False):
            super().__init__()
            self.node = node
            self.steps = steps
            self.clip = clip

        def forward(self, x0):
            traj = self.node.trajectory(x0, t_span=torch.linspace(0, 1, self.steps))
            if self.clip:
                return traj[-1, :].view([-1, *x0.shape[1:]]).clip(-1, 1)
            return traj

    class Odeint(torch.nn.Module):
        """``compute_fid.py``: ``torchdiffeq.odeint(model, x0, t_span, ...)`` (euler here)."""

        def __init__(self, model, labels=None):
            super().__init__()
            self.model = model
            self.labels = labels

        def forward(self, x0):
            from torchdiffeq import odeint

            t_span = torch.linspace(0, 1, 4)
            if self.labels is None:
                traj = odeint(self.model, x0, t_span, method="euler")
            else:
                traj = odeint(lambda t, x: self.model(t, x, self.labels), x0, t_span,
                              method="euler")
            return traj[-1, :].clip(-1, 1)

    return Trajectory, Odeint


def _node_mlp(solver):
    def make(mode):
        from torchcfm.utils import torch_wrapper
        from torchdyn.core import NeuralODE

        Trajectory = _ode_classes()[0]
        node = NeuralODE(torch_wrapper(_mlp()), solver=solver, sensitivity="adjoint",
                         atol=1e-4, rtol=1e-4)
        x0, _ = _points()
        return _wrap(Trajectory(node, 5), mode), (x0,), {}

    return make


def _node_unet(mode):
    import torch
    from torchdyn.core import NeuralODE

    Trajectory = _ode_classes()[0]
    node = NeuralODE(_unet_cifar(), solver="euler", sensitivity="adjoint")
    return _wrap(Trajectory(node, 5, clip=True), mode), (torch.randn(2, 3, 32, 32),), {}


def _odeint_unet(mode):
    import torch

    Odeint = _ode_classes()[1]
    return _wrap(Odeint(_unet_cifar()), mode), (torch.randn(2, 3, 32, 32),), {}


def _odeint_unet_cond(mode):
    import torch

    Odeint = _ode_classes()[1]
    net = _unet_mnist()
    net.register_buffer("gen_labels", _labels(2, 10), persistent=False)
    return _wrap(Odeint(net, labels=net.gen_labels), mode), (torch.randn(2, 1, 28, 28),), {}


MODELS = {
    # bare networks
    "MLP": _mlp_plain,
    "MLP_time_varying": _mlp_time,
    "UNetModel_cifar": _unet(),
    "UNetModel_scale_shift_updown": _unet(use_scale_shift_norm=True, resblock_updown=True),
    "UNetModel_new_attention_order": _unet(use_new_attention_order=True),
    "UNetModel_learn_sigma": _unet(learn_sigma=True),
    "UNetModel_checkpoint": _unet(use_checkpoint=True),
    "UNetModel_scalar_t": _unet_scalar_t,
    "UNetModel_mnist_class_cond": _unet_mnist_fwd,
    # 2-D training steps
    "CFM_icfm": _step2d("icfm", 0.1),
    "CFM_sigma0": _step2d("icfm", 0.0),
    "CFM_given_t": _step2d("icfm", 0.1, given_t=True),
    "CFM_return_noise": _step2d("icfm", 0.1, return_noise=True),
    "ExactOTCFM": _step2d("otcfm", 0.1),
    "TargetCFM": _step2d("fm", 0.1),
    "SBCFM_exact": _step2d("sb", 0.5),
    "SBCFM_sinkhorn": _step2d("sb_sinkhorn", 0.5),
    "VPCFM": _step2d("si", 0.1),
    "SF2M_flow_score": _sf2m,
    "ExactOTCFM_guided": _guided("otcfm", 0.1),
    "SBCFM_guided": _guided("sb", 0.5),
    # OT plan samplers
    "OTPlanSampler_exact": _plan("exact"),
    "OTPlanSampler_sinkhorn": _plan("sinkhorn", reg=0.5),
    "OTPlanSampler_unbalanced": _plan("unbalanced", reg=0.5, reg_m=1.0),
    "OTPlanSampler_partial": _plan("partial", reg=0.5, normalize_cost=True),
    "OTPlanSampler_normalize_cost": _plan("sinkhorn", reg=0.05, normalize_cost=True),
    "OTPlanSampler_with_labels": _plan("exact", labels=True),
    # image training steps
    "CIFAR_otcfm": _image_step("otcfm"),
    "CIFAR_icfm": _image_step("icfm"),
    "CIFAR_fm": _image_step("fm"),
    "CIFAR_si": _image_step("si"),
    "CIFAR_sbcfm": _image_step("sb", 0.5),
    "MNIST_class_cond": _mnist_step,
    # sampling
    "NeuralODE_dopri5_MLP": _node_mlp("dopri5"),
    "NeuralODE_euler_MLP": _node_mlp("euler"),
    "NeuralODE_rk4_MLP": _node_mlp("rk-4"),
    "NeuralODE_euler_UNet": _node_unet,
    "odeint_euler_UNet": _odeint_unet,
    "odeint_euler_UNet_class_cond": _odeint_unet_cond,
}
