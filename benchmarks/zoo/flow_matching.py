"""flow_matching 1.0.10 (facebookresearch: Lipman et al., "Flow Matching Guide and Code"): its
probability paths and schedulers, its discrete-flow loss and its three solvers, driven by small
user velocity models as the library's tests (``tests/path``, ``tests/solver``) and its examples
(``examples/2d_flow_matching.ipynb``, ``2d_discrete_flow_matching.ipynb``,
``2d_riemannian_flow_matching_sphere.ipynb`` / ``_flat_torus.ipynb``,
``2d_cnf_maximum_likelihood.ipynb``, the image example's ``training/train_loop.py`` /
``eval_loop.py`` / ``edm_time_discretization.py``, the text example's ``logic/flow.py`` /
``training.py`` / ``generate.py``) use them, tiny (batches of 2; 2-D points, 3-D points on the
sphere, 2 or 4 tokens over a vocabulary of 8, 3x8x8 images; velocity MLPs of 32 hidden units;
4-5 solver steps), random weights, no download. Each training step and each solver call is
wrapped in an ``nn.Module`` around the examples' velocity networks (``MLP`` with ``Swish``,
``ProjectToTangent``, ``FourierFeatures``, the CNF example's ``Flow``, the discrete ``MLP`` with
token and time embeddings, a tiny conv stand-in for the image UNet with the same
``model(x, t, extra={"label": ...})`` signature):

- continuous training steps (the 2d example's: ``x_0 = randn_like(x_1)``, ``t = rand``,
  ``path.sample``, ``(vf(x_t, t) - dx_t) ** 2``): ``AffineProbPath`` over ``CondOTScheduler``,
  ``CosineScheduler``, ``VPScheduler``, ``LinearVPScheduler`` and ``PolynomialConvexScheduler(n=2)``;
  ``CondOTProbPath`` on images with the image example's ``skewed_timestep_sample`` and label
  conditioning; the path's prediction conversions (x_1-prediction through
  ``target_to_velocity``, epsilon-prediction through ``epsilon_to_velocity`` on a VP path,
  ``velocity_to_target`` / ``velocity_to_epsilon`` / ``target_to_epsilon`` on a cosine path, as
  ``test_path.py`` round-trips them);
- ``GeodesicProbPath`` (``torch.func.vmap`` of a ``jvp`` through ``geodesic``) on ``Sphere`` and
  ``FlatTorus``, the Riemannian examples' training step;
- discrete training: ``MixtureDiscreteProbPath`` with ``MixturePathGeneralizedKL`` (the 2d
  discrete example: uniform source, ``PolynomialConvexScheduler(n=2)``), the image/text
  examples' masked source with cross-entropy (``n=3``, 257 pixel values with a mask token), the
  2d example's ELBO (``reduction="none"``, summed over tokens) and
  ``posterior_to_velocity``;
- ``ODESolver.sample``: ``euler``, ``midpoint`` with the 2d example's intermediate time grid,
  ``heun3``, ``rk4``, adaptive ``dopri5`` (``step_size=None``), a descending time grid, a
  ``ScheduleTransformedModel`` (CondOT to cosine, ``test_schedule_transform.py``), the image
  example's ``CFGScaledModel`` (classifier-free guidance with ``cfg_scale`` / ``label`` model
  extras and its NFE counter) and its EDM time discretization;
- ``ODESolver.compute_likelihood``: the Hutchinson estimator (``midpoint``), the exact divergence
  (``euler``, a Python loop of ``autograd.grad`` per dimension), and the CNF example's
  ``dopri5`` exact-divergence likelihood under an ``Independent(Normal)`` source;
- ``RiemannianODESolver.sample`` on the sphere (``euler``, ``midpoint`` with intermediates as
  the sphere example does, ``rk4``, ``step_size=None`` over a time grid) and the flat torus
  (``midpoint``);
- ``MixtureDiscreteEulerSolver.sample`` (the 2d discrete example's ``WrappedModel``: softmax of
  the logits): uniform source, the image example's masked source with a source distribution and
  ``div_free=1.0`` / its ``sym_func`` schedule (a callable), ``return_intermediates`` with a
  step size and with ``step_size=None`` over a time grid.

Eval: the training steps' loss (the validation step; the ELBO per point and the velocity for the
two that are not losses), the solvers' samples (likelihoods: the source point and the log
likelihood). Train: the training steps' loss (ELBO and velocity: ``mean_loss_module``); the
continuous solvers with ``enable_grad=True`` (as ``test_gradients`` does), their samples reduced
by ``mean_loss_module``, the likelihoods' ``-log_p.mean()`` (the CNF example's loss); the
discrete solver (``@torch.no_grad`` inside, no training form) runs a generalized-KL training step
and then samples (the samples are dropped).

    pip install --no-deps flow_matching==1.0.10

(its dependencies numpy 2.4.6, torchdiffeq 0.2.5 and tqdm 4.70.1 were installed already.)

It imports torch, torchdiffeq (``ODESolver``) and tqdm (the Riemannian and discrete solvers) at
the top. Nothing stubbed. Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 38 models, 76 runs, all built, all 76 ran under Dynamo (38 eval,
38 train), none failed. 34 runs have no break at all: every training step (the affine paths and
their conversions, ``GeodesicProbPath``'s ``vmap`` of ``jvp`` included, the discrete path, the
generalized KL) is one graph, and so is ``RiemannianODESolver`` over a given time grid. 42 runs
break: the 18 ``ODESolver.sample`` runs only inside torchdiffeq (``odeint``'s input checks and
step loop: data-dependent branches, ``.item()``, GB0092 at ``odeint.py:80``), none in
flow_matching's ``sample`` itself; the other 24 in flow_matching: ``MixtureDiscreteEulerSolver``
(``time_grid[0].item()`` / ``time_grid[-1].item()`` with a ``step_size``, ``if mask_jump.sum() >
0`` in the step loop: GB0170 then GB7000, and ``if div_free_t > 0`` when ``div_free`` is a
callable returning a tensor), ``RiemannianODESolver`` with a ``step_size`` (the two ``.item()``
calls; with intermediates ``t0 <= time_grid[i_ret]`` in the ``while``: GB0170, GB7000) and
``compute_likelihood`` (``assert time_grid[0] == 1.0 and ...``: GB0170,
``xt.requires_grad_()``: GB0125, ``torch.autograd.grad`` in ``utils.gradient``: GB9186 and, in
the ``odeint`` loop, GB7000). Recompiles: ``categorical`` (probabilities of rank 3 then 2), the
Riemannian ``_midpoint_step`` / ``interp`` (``requires_grad`` of ``xt``). First numbers with the
frozen linter (``/tmp/lint-start56``): graph-break statement recall 0.90 (9/10), precision 1.00
(13/13), 18 findings (all in files run), 5 unjudged (2 shadowed: the boolean-mask assignment and
``t in time_grid`` behind the earlier break of the discrete step; 3 condition not met: the
``tqdm`` bars and ``ctx.n = t.item()`` of ``verbose=True``). One miss:
``solver/discrete_solver.py:207`` ``if div_free_t > 0:`` (GB0170, and GB7000 for its loop),
where ``div_free_t = div_free(t) if callable(div_free) else div_free``: a tensor only when the
caller passes a callable ``div_free`` (the image example's ``sym_func``). No false alarm.

Odd: in 1.0.10 ``compute_likelihood``'s dynamics return ``ut.detach(), div.detach()`` whatever
``enable_grad`` says, so the CNF example's ``-log_p.mean()`` has no gradient to the parameters
(fixed on GitHub after 1.0.10, "Fix None gradient to enable maximum-likelihood training"); the
training runs capture that forward as it is.

Left out: the examples' full networks (the image ``UNetModel`` / ``DiscreteUNetModel``, the text
example's rotary transformer: replaced by tiny stand-ins with the same call signatures, as they
are example code, not the package), ``EMA`` and the data pipelines, the image train loop's
``torch.rand(1) < class_drop_prob`` choice of conditioning (a per-batch loop decision: the
conditioned step is kept, the unconditioned call is covered by the CFG model),
``CFGScaledModel``'s ``torch.cuda.amp.autocast`` (CPU), ``verbose=True`` (tqdm progress bars),
the tests' ``MagicMock`` velocity model, the ``Euclidean`` manifold, ``utils.gradient`` and
``categorical`` alone (reached through the solvers), float64 variants and the examples' sizes
(batches of 4096-50000, 1000-step solves).
"""

import functools

PACKAGE = "flow_matching"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _D, _H = 2, 2, 32  # batch, point dimension, hidden units
_V, _N = 8, 2  # vocabulary, tokens
_STEP = 0.25


@functools.cache
def _modules():
    import torch
    from torch import nn

    from flow_matching.utils import ModelWrapper

    class Swish(nn.Module):
        def forward(self, x):
            return torch.sigmoid(x) * x

    class FourierFeatures(nn.Module):
        """The torus example's: sin / cos of the input (in [0, 2 pi])."""

        def __init__(self, n_fourier_features):
            super().__init__()
            self.n_fourier_features = n_fourier_features

        def forward(self, x):
            feature_vector = [torch.sin((i + 1) * x) for i in range(self.n_fourier_features)]
            feature_vector += [torch.cos((i + 1) * x) for i in range(self.n_fourier_features)]
            return torch.cat(feature_vector, dim=-1)

    class MLP(nn.Module):
        """The 2d / Riemannian examples' velocity MLP: ``cat(x, t)`` through Swish layers."""

        def __init__(self, input_dim=_D, time_dim=1, hidden_dim=_H, fourier=False):
            super().__init__()
            self.input_dim, self.time_dim = input_dim, time_dim
            if fourier:
                self.input_layer = nn.Sequential(FourierFeatures(1),
                                                 nn.Linear((input_dim + time_dim) * 2, hidden_dim))
            else:
                self.input_layer = nn.Linear(input_dim + time_dim, hidden_dim)
            self.main = nn.Sequential(Swish(), nn.Linear(hidden_dim, hidden_dim), Swish(),
                                      nn.Linear(hidden_dim, input_dim))

        def forward(self, x, t):
            sz = x.size()
            x = x.reshape(-1, self.input_dim)
            t = t.reshape(-1, self.time_dim).float()
            t = t.reshape(-1, 1).expand(x.shape[0], 1)
            h = torch.cat([x, t], dim=1)
            return self.main(self.input_layer(h)).reshape(*sz)

    class ProjectToTangent(nn.Module):
        """The Riemannian examples': projects a vector field onto the tangent plane at the input."""

        def __init__(self, vecfield, manifold):
            super().__init__()
            self.vecfield, self.manifold = vecfield, manifold

        def forward(self, x, t):
            x = self.manifold.projx(x)
            v = self.vecfield(x, t)
            return self.manifold.proju(x, v)

    class WrappedModel(ModelWrapper):
        """The examples' ``WrappedModel``: ``self.model(x, t, **extras)``."""

        def forward(self, x, t, **extras):
            return self.model(x, t, **extras)

    class Flow(nn.Module):
        """The CNF / standalone examples' ``Flow``: an ELU MLP of ``cat(t, x_t)``."""

        def __init__(self, dim=_D, h=_H):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim + 1, h), nn.ELU(), nn.Linear(h, h), nn.ELU(), nn.Linear(h, dim))

        def forward(self, t, x_t):
            return self.net(torch.cat((t, x_t), -1))

    class CNFWrappedModel(ModelWrapper):
        """The CNF example's wrapper: the scalar time expanded to ``[batch, 1]``."""

        def forward(self, x, t, **extras):
            t = t.view(1, 1).expand(x.shape[0], 1)
            return self.model(t, x)

    class DiscreteMLP(nn.Module):
        """The 2d discrete example's probability denoiser: token and time embeddings, Swish MLP,
        logits per token."""

        def __init__(self, input_dim=_V, time_dim=1, hidden_dim=_H, length=_N):
            super().__init__()
            self.input_dim = input_dim
            self.time_embedding = nn.Linear(1, time_dim)
            self.token_embedding = nn.Embedding(input_dim, hidden_dim)
            self.main = nn.Sequential(Swish(), nn.Linear(hidden_dim * length + time_dim, hidden_dim), Swish(),
                                      nn.Linear(hidden_dim, input_dim * length))

        def forward(self, x, t):
            t = self.time_embedding(t.unsqueeze(-1))
            x = self.token_embedding(x)
            B, N, d = x.shape
            x = x.reshape(B, N * d)
            h = self.main(torch.cat([x, t], dim=1))
            return h.reshape(B, N, self.input_dim)

    class SoftmaxWrappedModel(ModelWrapper):
        """The discrete examples' ``WrappedModel``: posterior probabilities for the solver."""

        def forward(self, x, t, **extras):
            return torch.softmax(self.model(x, t, **extras), dim=-1)

    class TinyImageVelocity(nn.Module):
        """A stand-in for the image example's UNet, same call: ``model(x, t, extra={"label": y})``
        (a class embedding added when a label is given)."""

        def __init__(self, ch=3, width=16, classes=10):
            super().__init__()
            self.conv_in = nn.Conv2d(ch, width, 3, padding=1)
            self.time = nn.Linear(1, width)
            self.label = nn.Embedding(classes, width)
            self.conv_out = nn.Conv2d(width, ch, 3, padding=1)

        def forward(self, x, t, extra):
            h = self.conv_in(x) + self.time(t.reshape(-1, 1))[:, :, None, None]
            if "label" in extra:
                h = h + self.label(extra["label"])[:, :, None, None]
            return self.conv_out(nn.functional.silu(h))

    class TinyDiscreteImage(nn.Module):
        """A stand-in for the image example's ``DiscreteUNetModel``: per-pixel logits over 257
        values (256 and the mask token)."""

        def __init__(self, vocab=257, width=16):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.time = nn.Linear(1, width)
            self.conv = nn.Conv2d(3 * width, 3 * width, 3, padding=1)
            self.out = nn.Linear(width, vocab)

        def forward(self, x, t, extra):
            b, c, hgt, wid = x.shape
            h = self.embed(x) + self.time(t.reshape(-1, 1))[:, None, None, None, :]  # b c h w d
            h = h.permute(0, 1, 4, 2, 3).reshape(b, -1, hgt, wid)
            h = nn.functional.silu(self.conv(h)).reshape(b, c, -1, hgt, wid).permute(0, 1, 3, 4, 2)
            return self.out(h)

    class CFGScaledModel(ModelWrapper):
        """The image example's classifier-free guidance wrapper (``eval_loop.py``), continuous
        models only; its CUDA autocast and ``no_grad`` dropped (CPU; the solver sets grad)."""

        def __init__(self, model):
            super().__init__(model)
            self.nfe_counter = 0

        def forward(self, x, t, cfg_scale, label):
            t = torch.zeros(x.shape[0], device=x.device) + t
            if cfg_scale != 0.0:
                conditional = self.model(x, t, extra={"label": label})
                condition_free = self.model(x, t, extra={})
                result = (1.0 + cfg_scale) * conditional - cfg_scale * condition_free
            else:
                result = self.model(x, t, extra={"label": label})
            self.nfe_counter += 1
            return result.to(dtype=torch.float32)

    # --- training steps -----------------------------------------------------------------------

    class FlowMatchingStep(nn.Module):
        """The 2d example's training step; ``predict``: what the network outputs (``velocity``,
        ``x1`` or ``epsilon``, converted by the path), or ``conversions`` (the path's
        velocity / target / epsilon conversions as ``test_path.py`` round-trips them)."""

        def __init__(self, path, vf, predict="velocity", t_eps=0.0):
            super().__init__()
            self.path, self.vf, self.predict, self.t_eps = path, vf, predict, t_eps

        def forward(self, x_1):
            x_0 = torch.randn_like(x_1)
            t = torch.rand(x_1.shape[0]) * (1 - self.t_eps) + self.t_eps / 2
            path_sample = self.path.sample(t=t, x_0=x_0, x_1=x_1)
            out = self.vf(path_sample.x_t, path_sample.t)
            tt = path_sample.t[:, None]
            if self.predict == "velocity":
                return torch.pow(out - path_sample.dx_t, 2).mean()
            if self.predict == "x1":
                v = self.path.target_to_velocity(x_1=out, x_t=path_sample.x_t, t=tt)
                return torch.pow(v - path_sample.dx_t, 2).mean()
            if self.predict == "epsilon":
                v = self.path.epsilon_to_velocity(epsilon=out, x_t=path_sample.x_t, t=tt)
                return torch.pow(v - path_sample.dx_t, 2).mean()
            x1_hat = self.path.velocity_to_target(velocity=out, x_t=path_sample.x_t, t=tt)
            eps_hat = self.path.velocity_to_epsilon(velocity=out, x_t=path_sample.x_t, t=tt)
            eps_from_x1 = self.path.target_to_epsilon(x_1=x1_hat, x_t=path_sample.x_t, t=tt)
            return (torch.pow(x1_hat - x_1, 2).mean() + torch.pow(eps_hat - x_0, 2).mean()
                    + torch.pow(eps_from_x1 - eps_hat, 2).mean())

    def skewed_timestep_sample(num_samples, device):
        """The image example's ``skewed_timestep_sample``."""
        P_mean = -1.2
        P_std = 1.2
        rnd_normal = torch.randn((num_samples,), device=device)
        sigma = (rnd_normal * P_std + P_mean).exp()
        time = 1 / (1 + sigma)
        return torch.clip(time, min=0.0001, max=1.0)

    class ImageTrainStep(nn.Module):
        """The image example's continuous training step: ``CondOTProbPath``, skewed timesteps,
        label conditioning."""

        def __init__(self):
            super().__init__()
            from flow_matching.path import CondOTProbPath

            self.path = CondOTProbPath()
            self.model = TinyImageVelocity()

        def forward(self, samples, labels):
            conditioning = {"label": labels}
            samples = samples * 2.0 - 1.0
            noise = torch.randn_like(samples)
            t = skewed_timestep_sample(samples.shape[0], device=samples.device)
            path_sample = self.path.sample(t=t, x_0=noise, x_1=samples)
            return torch.pow(self.model(path_sample.x_t, t, extra=conditioning) - path_sample.dx_t, 2).mean()

    class DiscreteImageTrainStep(nn.Module):
        """The image example's discrete training step: masked source, ``PolynomialConvexScheduler
        (n=3)``, cross-entropy over 257 values."""

        MASK_TOKEN = 256

        def __init__(self):
            super().__init__()
            from flow_matching.path import MixtureDiscreteProbPath
            from flow_matching.path.scheduler import PolynomialConvexScheduler

            self.path = MixtureDiscreteProbPath(scheduler=PolynomialConvexScheduler(n=3.0))
            self.model = TinyDiscreteImage()

        def forward(self, samples, labels):
            conditioning = {"label": labels}
            samples = (samples * 255.0).to(torch.long)
            t = torch.rand(samples.shape[0])
            x_0 = torch.zeros(samples.shape, dtype=torch.long) + self.MASK_TOKEN
            path_sample = self.path.sample(t=t, x_0=x_0, x_1=samples)
            logits = self.model(path_sample.x_t, t=t, extra=conditioning)
            return nn.functional.cross_entropy(logits.reshape([-1, 257]), samples.reshape([-1])).mean()

    class GeodesicStep(nn.Module):
        """The Riemannian examples' training step: ``wrap`` data and noise onto the manifold,
        ``GeodesicProbPath.sample``, squared error to ``dx_t``."""

        def __init__(self, manifold_name):
            super().__init__()
            from flow_matching.path import GeodesicProbPath
            from flow_matching.path.scheduler import CondOTScheduler
            from flow_matching.utils.manifolds import FlatTorus, Sphere

            self.sphere = manifold_name == "sphere"
            self.manifold = Sphere() if self.sphere else FlatTorus()
            dim = 3 if self.sphere else 2
            self.vf = ProjectToTangent(MLP(input_dim=dim, fourier=not self.sphere), manifold=self.manifold)
            self.path = GeodesicProbPath(scheduler=CondOTScheduler(), manifold=self.manifold)

        def wrap(self, samples):
            if self.sphere:
                center = torch.cat([torch.zeros_like(samples), torch.ones_like(samples[..., 0:1])], dim=-1)
                samples = torch.cat([samples, torch.zeros_like(samples[..., 0:1])], dim=-1) / 2
                return self.manifold.expmap(center, samples)
            return self.manifold.expmap(torch.zeros_like(samples), samples)

        def forward(self, x_1):
            x_0 = torch.randn_like(x_1)
            x_1, x_0 = self.wrap(x_1), self.wrap(x_0)
            t = torch.rand(x_1.shape[0])
            path_sample = self.path.sample(t=t, x_0=x_0, x_1=x_1)
            return torch.pow(self.vf(path_sample.x_t, path_sample.t) - path_sample.dx_t, 2).mean()

    class DiscreteStep(nn.Module):
        """The 2d discrete example's training step (``uniform`` source) or the text example's
        (``mask`` source: an extra mask token); ``output``: ``loss`` (the generalized KL),
        ``elbo`` (``reduction="none"`` summed over tokens, as the example's ELBO) or
        ``velocity`` (``posterior_to_velocity``)."""

        def __init__(self, source="uniform", exponent=2.0, output="loss", epsilon=1e-3):
            super().__init__()
            from flow_matching.loss import MixturePathGeneralizedKL
            from flow_matching.path import MixtureDiscreteProbPath
            from flow_matching.path.scheduler import PolynomialConvexScheduler

            self.source, self.output, self.epsilon = source, output, epsilon
            self.vocab = _V + (1 if source == "mask" else 0)
            self.model = DiscreteMLP(input_dim=self.vocab)
            self.path = MixtureDiscreteProbPath(scheduler=PolynomialConvexScheduler(n=exponent))
            self.loss_fn = MixturePathGeneralizedKL(path=self.path,
                                                    reduction="none" if output == "elbo" else "mean")

        def forward(self, x_1):
            if self.source == "uniform":
                x_0 = torch.randint_like(x_1, high=self.vocab)
            else:
                x_0 = torch.zeros_like(x_1).fill_(_V).long()
            t = torch.rand(x_1.shape[0]) * (1 - self.epsilon)
            path_sample = self.path.sample(t=t, x_0=x_0, x_1=x_1)
            logits = self.model(x=path_sample.x_t, t=path_sample.t)
            if self.output == "velocity":
                return self.path.posterior_to_velocity(posterior_logits=logits, x_t=path_sample.x_t, t=path_sample.t)
            loss = self.loss_fn(logits=logits, x_1=x_1, x_t=path_sample.x_t, t=path_sample.t)
            if self.output == "elbo":
                return -loss.sum(dim=1)
            return loss

    # --- solvers ----------------------------------------------------------------------------------

    class ODESample(nn.Module):
        """``ODESolver(velocity_model).sample(x_init, ...)``; ``time_grid`` a buffer."""

        def __init__(self, velocity_model, time_grid=None, enable_grad=False, **kwargs):
            super().__init__()
            from flow_matching.solver import ODESolver

            self.solver = ODESolver(velocity_model=velocity_model)
            self.kwargs, self.enable_grad = kwargs, enable_grad
            if time_grid is not None:
                self.register_buffer("time_grid", time_grid)
            else:
                self.time_grid = None

        def forward(self, x_init, **extras):
            kwargs = dict(self.kwargs)
            if self.time_grid is not None:
                kwargs["time_grid"] = self.time_grid
            return self.solver.sample(x_init=x_init, enable_grad=self.enable_grad, **kwargs, **extras)

    class EDMSample(ODESample):
        """The image example's sampling with ``edm_schedule``: the time grid from
        ``get_time_discretization(nfes)`` (float64, EDM's rho=7 sigmas) computed in the forward."""

        def __init__(self, velocity_model, nfes=4, **kwargs):
            super().__init__(velocity_model, **kwargs)
            self.nfes = nfes

        @staticmethod
        def get_time_discretization(nfes, rho=7):
            step_indices = torch.arange(nfes, dtype=torch.float64)
            sigma_min = 0.002
            sigma_max = 80.0
            sigma_vec = (sigma_max ** (1 / rho)
                         + step_indices / (nfes - 1) * (sigma_min ** (1 / rho) - sigma_max ** (1 / rho))) ** rho
            sigma_vec = torch.cat([sigma_vec, torch.zeros_like(sigma_vec[:1])])
            time_vec = (sigma_vec / (1 + sigma_vec)).squeeze()
            return 1.0 - torch.clip(time_vec, min=0.0, max=1.0)

        def forward(self, x_init, **extras):
            time_grid = self.get_time_discretization(nfes=self.nfes)
            return self.solver.sample(x_init=x_init, time_grid=time_grid, enable_grad=self.enable_grad,
                                      **self.kwargs, **extras)

    class Likelihood(nn.Module):
        """``ODESolver.compute_likelihood(x_1, log_p0, ...)``: eval returns ``(x_0, log_p)``,
        train ``-log_p.mean()`` with ``enable_grad=True`` (the CNF example's loss). ``log_p0``: the
        tests' ``-0.5 * sum(x ** 2)`` or an ``Independent(Normal)``'s ``log_prob``."""

        def __init__(self, velocity_model, train, normal=False, **kwargs):
            super().__init__()
            from flow_matching.solver import ODESolver
            from torch.distributions import Independent, Normal

            self.solver = ODESolver(velocity_model=velocity_model)
            self.train_loss, self.kwargs = train, kwargs
            if normal:
                self.log_p0 = Independent(Normal(torch.zeros(_D), torch.ones(_D)), 1).log_prob
            else:
                self.log_p0 = lambda x: -0.5 * torch.sum(x ** 2, dim=1)

        def forward(self, x_1):
            x_0, log_p = self.solver.compute_likelihood(x_1=x_1, log_p0=self.log_p0, enable_grad=self.train_loss,
                                                        **self.kwargs)
            if self.train_loss:
                return -log_p.mean()
            return x_0, log_p

    class RiemannianSample(nn.Module):
        """``RiemannianODESolver(manifold, WrappedModel(ProjectToTangent(MLP)))`` sampling from
        points on the manifold."""

        def __init__(self, manifold_name, time_grid=None, enable_grad=False, **kwargs):
            super().__init__()
            from flow_matching.solver import RiemannianODESolver
            from flow_matching.utils.manifolds import FlatTorus, Sphere

            sphere = manifold_name == "sphere"
            manifold = Sphere() if sphere else FlatTorus()
            vf = ProjectToTangent(MLP(input_dim=3 if sphere else 2, fourier=not sphere), manifold=manifold)
            self.solver = RiemannianODESolver(velocity_model=WrappedModel(vf), manifold=manifold)
            self.kwargs, self.enable_grad = kwargs, enable_grad
            if time_grid is not None:
                self.register_buffer("time_grid", time_grid)
            else:
                self.time_grid = None

        def forward(self, x_init):
            kwargs = dict(self.kwargs)
            if self.time_grid is not None:
                kwargs["time_grid"] = self.time_grid
            return self.solver.sample(x_init=x_init, enable_grad=self.enable_grad, **kwargs)

    class DiscreteSample(nn.Module):
        """``MixtureDiscreteEulerSolver(SoftmaxWrappedModel(DiscreteMLP), path, vocab).sample``;
        ``train``: a generalized-KL step on ``x_1`` first (the loss is returned, the samples
        dropped); ``mask``: the image example's masked source with its one-hot ``p``."""

        def __init__(self, train, mask=False, exponent=2.0, time_grid=None, **kwargs):
            super().__init__()
            from flow_matching.solver import MixtureDiscreteEulerSolver

            self.step = DiscreteStep(source="mask" if mask else "uniform", exponent=exponent)
            self.mask, self.train_loss, self.kwargs = mask, train, kwargs
            p = None
            if mask:
                p = torch.zeros(size=[self.step.vocab], dtype=torch.float32)
                p[_V] = 1.0
            self.solver = MixtureDiscreteEulerSolver(model=SoftmaxWrappedModel(self.step.model), path=self.step.path,
                                                     vocabulary_size=self.step.vocab, source_distribution_p=p)
            if time_grid is not None:
                self.register_buffer("time_grid", time_grid)
            else:
                self.time_grid = None

        def forward(self, x_init, x_1):
            loss = self.step(x_1) if self.train_loss else None
            if self.mask:
                x_init = torch.zeros_like(x_init) + _V
            kwargs = dict(self.kwargs)
            if self.time_grid is not None:
                kwargs["time_grid"] = self.time_grid
            sample = self.solver.sample(x_init=x_init, **kwargs)
            return loss if self.train_loss else sample

    return {name: obj for name, obj in locals().items() if isinstance(obj, type)}


# --- builders ----------------------------------------------------------------------------------

def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _points(d=_D, b=_B):
    import torch

    return torch.randn(b, d)


def _affine(scheduler, predict="velocity", t_eps=0.0, cls="AffineProbPath"):
    """``FlowMatchingStep`` on ``flow_matching.path.<cls>(scheduler)`` (CondOTProbPath: none)."""

    def make(mode):
        import flow_matching.path as P

        m = _modules()
        path = P.CondOTProbPath() if cls == "CondOTProbPath" else getattr(P, cls)(scheduler())
        return m["FlowMatchingStep"](path, m["MLP"](), predict=predict, t_eps=t_eps), (_points(),), {}

    return make


def _sched(name, **kwargs):
    def build():
        import flow_matching.path.scheduler as S

        return getattr(S, name)(**kwargs)

    return build


def _image_step(kind):
    def make(mode):
        import torch

        net = _modules()[kind]()
        return net, (torch.rand(_B, 3, 8, 8), torch.arange(_B)), {}

    return make


def _geodesic(manifold):
    def make(mode):
        return _modules()["GeodesicStep"](manifold), (_points(),), {}

    return make


def _tokens(b=_B, n=_N):
    import torch

    return torch.randint(0, _V, (b, n))


def _discrete_step(reduce=False, **kwargs):
    def make(mode):
        net = _modules()["DiscreteStep"](**kwargs)
        return (_wrap(net, mode) if reduce else net), (_tokens(),), {}

    return make


def _ode(velocity="mlp", grid=None, **kwargs):
    """``ODESample`` on the 2d example's ``WrappedModel(MLP)`` (``velocity="mlp"``), a
    ``ScheduleTransformedModel`` of it (``"transformed"``), or the image example's
    ``CFGScaledModel`` (``"cfg"``); ``grid``: ``(start, end, steps)`` for ``torch.linspace``."""

    def make(mode):
        import torch

        m = _modules()
        extras = {}
        x_init = _points()
        if velocity == "mlp":
            vm = m["WrappedModel"](m["MLP"]())
        elif velocity == "transformed":
            from flow_matching.path.scheduler import CondOTScheduler, CosineScheduler, ScheduleTransformedModel

            vm = ScheduleTransformedModel(velocity_model=m["WrappedModel"](m["MLP"]()),
                                          original_scheduler=CondOTScheduler(), new_scheduler=CosineScheduler())
        else:
            vm = m["CFGScaledModel"](m["TinyImageVelocity"]())
            x_init = torch.randn(_B, 3, 8, 8)
            extras = {"label": torch.arange(_B), "cfg_scale": 0.5}
        time_grid = torch.linspace(*grid) if grid else None
        net = m["ODESample"](vm, time_grid=time_grid, enable_grad=mode == "train", **kwargs)
        return _wrap(net, mode), (x_init,), extras

    return make


def _edm(mode):
    m = _modules()
    net = m["EDMSample"](m["WrappedModel"](m["MLP"]()), nfes=4, method="midpoint", step_size=None,
                         enable_grad=mode == "train")
    return _wrap(net, mode), (_points(),), {}


def _likelihood(cnf=False, **kwargs):
    def make(mode):
        m = _modules()
        vm = m["CNFWrappedModel"](m["Flow"]()) if cnf else m["WrappedModel"](m["MLP"]())
        return m["Likelihood"](vm, mode == "train", normal=cnf, **kwargs), (_points(),), {}

    return make


def _riemannian(manifold, grid=None, **kwargs):
    def make(mode):
        import torch

        from flow_matching.utils.manifolds import FlatTorus, Sphere

        if manifold == "sphere":
            x_init = Sphere().projx(torch.randn(_B, 3))
        else:
            x_init = FlatTorus().expmap(torch.zeros(_B, 2), torch.randn(_B, 2))
        time_grid = torch.linspace(*grid) if grid else None
        net = _modules()["RiemannianSample"](manifold, time_grid=time_grid, enable_grad=mode == "train", **kwargs)
        return _wrap(net, mode), (x_init,), {}

    return make


def _sym(t):
    """The image example's ``sym_func`` divergence-free schedule."""
    import torch

    return 12.0 * torch.pow(t, 2.0) * torch.pow(1.0 - t, 0.25)


def _discrete(grid=None, **kwargs):
    def make(mode):
        import torch

        time_grid = torch.linspace(*grid) if grid else None
        net = _modules()["DiscreteSample"](mode == "train", time_grid=time_grid, **kwargs)
        return net, (_tokens(), _tokens()), {}

    return make


_EPS = 1e-3

MODELS = {
    # --- continuous paths: training steps ---
    "AffineProbPath_CondOT": _affine(_sched("CondOTScheduler")),
    "AffineProbPath_Cosine": _affine(_sched("CosineScheduler")),
    "AffineProbPath_VP": _affine(_sched("VPScheduler")),
    "AffineProbPath_LinearVP": _affine(_sched("LinearVPScheduler"), t_eps=_EPS),
    "AffineProbPath_Polynomial_n2": _affine(_sched("PolynomialConvexScheduler", n=2)),
    "CondOTProbPath_image_skewed_label": _image_step("ImageTrainStep"),
    "CondOTProbPath_x1_prediction": _affine(None, predict="x1", t_eps=0.1, cls="CondOTProbPath"),
    "AffineProbPath_VP_epsilon_prediction": _affine(_sched("VPScheduler"), predict="epsilon", t_eps=0.1),
    "AffineProbPath_Cosine_conversions": _affine(_sched("CosineScheduler"), predict="conversions", t_eps=0.1),
    "GeodesicProbPath_Sphere": _geodesic("sphere"),
    "GeodesicProbPath_FlatTorus": _geodesic("torus"),
    # --- discrete paths and the generalized KL ---
    "MixtureDiscreteProbPath_GeneralizedKL": _discrete_step(),
    "MixtureDiscreteProbPath_mask_GeneralizedKL": _discrete_step(source="mask", exponent=3.0),
    "MixturePathGeneralizedKL_elbo_none": _discrete_step(reduce=True, output="elbo"),
    "MixtureDiscreteProbPath_posterior_to_velocity": _discrete_step(reduce=True, output="velocity"),
    "MixtureDiscreteProbPath_image_mask_cross_entropy": _image_step("DiscreteImageTrainStep"),
    # --- ODESolver ---
    "ODESolver_euler": _ode(method="euler", step_size=_STEP),
    "ODESolver_midpoint_intermediates": _ode(grid=(0.0, 1.0, 5), method="midpoint", step_size=_STEP,
                                             return_intermediates=True),
    "ODESolver_heun3": _ode(method="heun3", step_size=_STEP),
    "ODESolver_rk4": _ode(method="rk4", step_size=_STEP),
    "ODESolver_dopri5": _ode(method="dopri5", step_size=None, atol=1e-3, rtol=1e-3),
    "ODESolver_reverse_euler": _ode(grid=(1.0, 0.0, 2), method="euler", step_size=_STEP),
    "ODESolver_ScheduleTransformedModel": _ode(velocity="transformed", grid=(0.0, 1.0 - _EPS, 2), method="euler",
                                               step_size=_STEP),
    "ODESolver_CFGScaledModel": _ode(velocity="cfg", method="midpoint", step_size=_STEP),
    "ODESolver_edm_time_grid": _edm,
    "ODESolver_likelihood_hutchinson": _likelihood(method="midpoint", step_size=_STEP, exact_divergence=False),
    "ODESolver_likelihood_exact": _likelihood(method="euler", step_size=_STEP, exact_divergence=True),
    "ODESolver_likelihood_cnf_dopri5": _likelihood(cnf=True, method="dopri5", step_size=None, exact_divergence=True,
                                                   atol=1e-3, rtol=1e-3),
    # --- RiemannianODESolver ---
    "RiemannianODESolver_Sphere_euler": _riemannian("sphere", method="euler", step_size=_STEP),
    "RiemannianODESolver_Sphere_midpoint_intermediates": _riemannian("sphere", grid=(0.0, 1.0, 3), method="midpoint",
                                                                     step_size=_STEP, return_intermediates=True),
    "RiemannianODESolver_Sphere_rk4": _riemannian("sphere", method="rk4", step_size=_STEP),
    "RiemannianODESolver_Sphere_time_grid": _riemannian("sphere", grid=(0.0, 1.0, 5), method="euler", step_size=None),
    "RiemannianODESolver_FlatTorus_midpoint": _riemannian("torus", method="midpoint", step_size=_STEP),
    # --- MixtureDiscreteEulerSolver ---
    "MixtureDiscreteEulerSolver_uniform": _discrete(step_size=_STEP),
    "MixtureDiscreteEulerSolver_mask_div_free": _discrete(mask=True, exponent=3.0, step_size=_STEP, div_free=1.0),
    "MixtureDiscreteEulerSolver_mask_sym_func": _discrete(mask=True, exponent=3.0, step_size=_STEP, div_free=_sym),
    "MixtureDiscreteEulerSolver_intermediates": _discrete(grid=(0.0, 1.0 - _EPS, 3), step_size=_STEP,
                                                          return_intermediates=True),
    "MixtureDiscreteEulerSolver_time_grid": _discrete(grid=(0.0, 1.0 - _EPS, 5), step_size=None,
                                                      return_intermediates=True),
}
