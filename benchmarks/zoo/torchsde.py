"""torchsde: `sdeint` through each solver for each SDE type (Ito, Stratonovich) and noise type
(diagonal, scalar, additive, general), with adaptive stepping, `logqp`, a user-built Brownian
motion (`BrownianInterval`, `brownian_interval_like`, `BrownianPath`, `BrownianTree`, with the
Levy area a solver needs), `names=`, `extra=`, the specialised `f_and_g`/`g_prod`/`f_and_g_prod`
methods, `sdeint_adjoint`, and the examples' latent SDEs and SDE-GAN generator: a user module's
forward calls the solver on a small neural SDE (MLP drift and diffusion of (t, y)), random
weights, batch 3, state 3, 5 time points. Train: the mean of the final state (plus the KL from
`logqp`), the examples' own losses for the latent SDEs. Stop 34: measured first as it came
(RESULTS §28), before any rule looked at it.

    pip install --no-deps torchsde==0.2.6 trampoline==0.1.2          # (+ numpy, scipy)
"""

import functools

PACKAGE = "torchsde"

_BATCH, _STATE, _NOISE, _HIDDEN = 3, 3, 2, 16
mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite


@functools.cache
def _modules():
    import torch
    from torch import nn

    def mlp(size_in, size_out, final=None):
        layers = [nn.Linear(size_in, _HIDDEN), nn.Softplus(), nn.Linear(_HIDDEN, size_out)]
        return nn.Sequential(*layers, final) if final is not None else nn.Sequential(*layers)

    class SDE(nn.Module):
        """The README's SDE: `noise_type` and `sde_type` as class attributes, drift `f` and
        diffusion `g` MLPs of (t, y), and a prior drift `h` for `logqp`."""

        noise_type = "diagonal"
        sde_type = "ito"

        def __init__(self):
            super().__init__()
            self.noise_size = {"diagonal": _STATE, "scalar": 1}.get(self.noise_type, _NOISE)
            self.drift = mlp(1 + _STATE, _STATE, nn.Tanh())
            self.prior = mlp(_STATE, _STATE)
            if self.noise_type == "additive":  # constant in y: a function of t only
                self.diffusion = nn.Linear(1, _STATE * self.noise_size)
            elif self.noise_type == "diagonal":
                self.diffusion = mlp(1 + _STATE, _STATE, nn.Sigmoid())
            else:
                self.diffusion = mlp(1 + _STATE, _STATE * self.noise_size, nn.Sigmoid())

        def f(self, t, y):
            t = t.expand(y.size(0), 1)
            return self.drift(torch.cat([t, y], dim=1))

        def g(self, t, y):
            t = t.expand(y.size(0), 1)
            if self.noise_type == "additive":
                return self.diffusion(t).view(y.size(0), _STATE, self.noise_size)
            out = self.diffusion(torch.cat([t, y], dim=1))
            return out if self.noise_type == "diagonal" else out.view(y.size(0), _STATE, self.noise_size)

        def h(self, t, y):
            return self.prior(y)

    classes = {}
    for noise in ("diagonal", "scalar", "additive", "general"):
        for kind in ("ito", "stratonovich"):
            classes[noise, kind] = type(f"SDE_{noise}_{kind}", (SDE,), {"noise_type": noise, "sde_type": kind})

    class FusedSDE(nn.Module):
        """Drift and diffusion sharing a trunk, given together as `f_and_g` (DOCUMENTATION's
        "Providing specialised methods")."""

        noise_type = "diagonal"
        sde_type = "ito"

        def __init__(self):
            super().__init__()
            self.noise_size = _STATE
            self.trunk = nn.Sequential(nn.Linear(1 + _STATE, _HIDDEN), nn.Softplus())
            self.drift_head = nn.Linear(_HIDDEN, _STATE)
            self.diffusion_head = nn.Linear(_HIDDEN, _STATE)

        def f_and_g(self, t, y):
            z = self.trunk(torch.cat([t.expand(y.size(0), 1), y], dim=1))
            return torch.tanh(self.drift_head(z)), torch.sigmoid(self.diffusion_head(z))

    class ProdSDE(nn.Module):
        """General noise given as a diffusion-vector product (`g_prod`, or `f_and_g_prod`): the
        noise size can't be read off `g`, so the caller passes `bm`."""

        noise_type = "general"
        sde_type = "ito"

        def __init__(self):
            super().__init__()
            self.noise_size = _NOISE
            self.drift = mlp(1 + _STATE, _STATE, nn.Tanh())
            self.diffusion = mlp(1 + _STATE, _STATE * _NOISE, nn.Sigmoid())

        def f(self, t, y):
            return self.drift(torch.cat([t.expand(y.size(0), 1), y], dim=1))

        def g_prod(self, t, y, v):
            g = self.diffusion(torch.cat([t.expand(y.size(0), 1), y], dim=1)).view(y.size(0), _STATE, _NOISE)
            return torch.einsum("bij,bj->bi", g, v)

    class ProdSDEFused(ProdSDE):
        def f_and_g_prod(self, t, y, v):
            return self.f(t, y), self.g_prod(t, y, v)

    class NeuralSDE(nn.Module):
        """A user module around one solve: the Brownian motion is built per call (`bm`: a kind)
        or once and kept (`fixed_bm`); train returns the mean final state (+ the logqp KL)."""

        def __init__(self, sde, options, adjoint=False, bm=None, levy="none", fixed_bm=None, loss=False):
            super().__init__()
            self.sde, self.options, self.adjoint, self.loss = sde, options, adjoint, loss
            self.bm, self.levy, self.fixed_bm = bm, levy, fixed_bm

        def brownian(self, y0, ts):
            import torchsde

            size = (y0.size(0), self.sde.noise_size)
            if self.bm == "interval":
                return torchsde.BrownianInterval(t0=ts[0], t1=ts[-1], size=size, dtype=y0.dtype, device=y0.device,
                                                 levy_area_approximation=self.levy)
            if self.bm == "like":
                return torchsde.brownian_interval_like(y0, t0=ts[0], t1=ts[-1], size=size,
                                                       levy_area_approximation=self.levy)
            if self.bm == "path":
                return torchsde.BrownianPath(t0=ts[0], w0=y0.new_zeros(size))
            if self.bm == "tree":
                return torchsde.BrownianTree(t0=ts[0], w0=y0.new_zeros(size), t1=ts[-1], tol=1e-5)
            return self.fixed_bm

        def forward(self, y0, ts):
            import torchsde

            solve = torchsde.sdeint_adjoint if self.adjoint else torchsde.sdeint
            out = solve(self.sde, y0, ts, bm=self.brownian(y0, ts), **self.options)
            if not self.loss:
                return out
            ys, *rest = out if isinstance(out, tuple) else (out,)
            loss = ys[-1].mean()
            if self.options.get("logqp"):
                loss = loss + rest[0].sum(dim=0).mean()
            return loss

    return classes, FusedSDE, ProdSDE, ProdSDEFused, NeuralSDE


def _inputs():
    import torch

    return torch.randn(_BATCH, _STATE) * 0.5, torch.linspace(0.0, 1.0, 5)


def _solve(noise, kind, method, adjoint=False, bm=None, levy="none", **options):
    def make(mode):
        classes, _, _, _, NeuralSDE = _modules()
        opts = {"method": method, "dt": 0.25, **options}
        model = NeuralSDE(classes[noise, kind](), opts, adjoint, bm, levy, loss=mode == "train")
        return model, _inputs(), {}

    return make


def _readme(mode):
    # The README's example as written: general Ito noise, the default method (euler), dt only.
    classes, _, _, _, NeuralSDE = _modules()
    model = NeuralSDE(classes["general", "ito"](), {"dt": 0.25}, loss=mode == "train")
    return model, _inputs(), {}


def _fixed_bm(mode):
    # DOCUMENTATION's "Fixed randomness": one BrownianInterval, seeded, kept on the module and reused.
    import torchsde

    classes, _, _, _, NeuralSDE = _modules()
    bm = torchsde.BrownianInterval(t0=0.0, t1=1.0, size=(_BATCH, _STATE), entropy=0, tol=1e-5, halfway_tree=True,
                                   levy_area_approximation="space-time")
    model = NeuralSDE(classes["diagonal", "ito"](), {"method": "srk", "dt": 0.25}, fixed_bm=bm,
                      loss=mode == "train")
    return model, _inputs(), {}


def _special(which, method="euler", **options):
    def make(mode):
        _, FusedSDE, ProdSDE, ProdSDEFused, NeuralSDE = _modules()
        sde = {"f_and_g": FusedSDE, "g_prod": ProdSDE, "f_and_g_prod": ProdSDEFused}[which]()
        bm = None if which == "f_and_g" else "interval"
        model = NeuralSDE(sde, {"method": method, "dt": 0.25, **options}, bm=bm, loss=mode == "train")
        return model, _inputs(), {}

    return make


@functools.cache
def _latent_sde_module():
    # examples/latent_sde.py's LatentSDE (an Ornstein-Uhlenbeck prior, an MLP posterior drift on
    # positional encodings of t, the KL through the augmented `f_aug`/`g_aug` named by `names=`).
    import math

    import torch
    import torchsde
    from torch import distributions, nn

    def _stable_division(a, b, epsilon=1e-7):
        b = torch.where(b.abs().detach() > epsilon, b, torch.full_like(b, fill_value=epsilon) * b.sign())
        return a / b

    class LatentSDE(torchsde.SDEIto):
        def __init__(self, theta=1.0, mu=0.0, sigma=0.5, method="euler", dt=0.25):
            super().__init__(noise_type="diagonal")
            logvar = math.log(sigma ** 2 / (2. * theta))
            self.method, self.dt = method, dt
            self.register_buffer("theta", torch.tensor([[theta]]))
            self.register_buffer("mu", torch.tensor([[mu]]))
            self.register_buffer("sigma", torch.tensor([[sigma]]))
            self.register_buffer("py0_mean", torch.tensor([[mu]]))
            self.register_buffer("py0_logvar", torch.tensor([[logvar]]))
            self.net = nn.Sequential(nn.Linear(3, _HIDDEN), nn.Tanh(), nn.Linear(_HIDDEN, _HIDDEN), nn.Tanh(),
                                     nn.Linear(_HIDDEN, 1))
            self.qy0_mean = nn.Parameter(torch.tensor([[mu]]), requires_grad=True)
            self.qy0_logvar = nn.Parameter(torch.tensor([[logvar]]), requires_grad=True)

        def f(self, t, y):  # Approximate posterior drift.
            if t.dim() == 0:
                t = torch.full_like(y, fill_value=t)
            return self.net(torch.cat((torch.sin(t), torch.cos(t), y), dim=-1))

        def g(self, t, y):  # Shared diffusion.
            return self.sigma.repeat(y.size(0), 1)

        def h(self, t, y):  # Prior drift.
            return self.theta * (self.mu - y)

        def f_aug(self, t, y):
            y = y[:, 0:1]
            f, g, h = self.f(t, y), self.g(t, y), self.h(t, y)
            u = _stable_division(f - h, g)
            f_logqp = .5 * torch.norm(u, dim=1, keepdim=True) ** 2
            return torch.cat([f, f_logqp], dim=1)

        def g_aug(self, t, y):
            y = y[:, 0:1]
            g = self.g(t, y)
            g_logqp = torch.zeros_like(y)
            return torch.cat([g, g_logqp], dim=1)

        def forward(self, ts, batch_size, eps=None):
            eps = torch.randn(batch_size, 1).to(self.qy0_std) if eps is None else eps
            y0 = self.qy0_mean + eps * self.qy0_std
            qy0 = distributions.Normal(loc=self.qy0_mean, scale=self.qy0_std)
            py0 = distributions.Normal(loc=self.py0_mean, scale=self.py0_std)
            logqp0 = distributions.kl_divergence(qy0, py0).sum(dim=1)
            aug_y0 = torch.cat([y0, torch.zeros(batch_size, 1).to(y0)], dim=1)
            aug_ys = torchsde.sdeint(sde=self, y0=aug_y0, ts=ts, method=self.method, dt=self.dt,
                                     names={'drift': 'f_aug', 'diffusion': 'g_aug'})
            ys, logqp_path = aug_ys[:, :, 0:1], aug_ys[-1, :, 1]
            logqp = (logqp0 + logqp_path).mean(dim=0)
            return ys, logqp

        def sample_q(self, ts, batch_size, eps=None, bm=None):
            eps = torch.randn(batch_size, 1).to(self.qy0_mean) if eps is None else eps
            y0 = self.qy0_mean + eps * self.qy0_std
            return torchsde.sdeint(self, y0, ts, bm=bm, method='srk', dt=self.dt)

        @property
        def py0_std(self):
            return torch.exp(.5 * self.py0_logvar)

        @property
        def qy0_std(self):
            return torch.exp(.5 * self.qy0_logvar)

    class LatentSDELoss(nn.Module):
        """The example's training step: a Laplace likelihood of the data at the inner times plus
        the (annealed) KL."""

        def __init__(self, model, ys, kl_weight=0.5, scale=0.05):
            super().__init__()
            self.model, self.kl_weight, self.scale = model, kl_weight, scale
            self.register_buffer("ys", ys)

        def forward(self, ts, batch_size):
            zs, kl = self.model(ts=ts, batch_size=batch_size)
            zs = zs.squeeze()[1:-1]
            likelihood = distributions.Laplace(loc=zs, scale=self.scale)
            logpy = likelihood.log_prob(self.ys).sum(dim=0).mean(dim=0)
            return -logpy + kl * self.kl_weight

    class SamplePosterior(nn.Module):
        """The example's plotting draw, `sample_q`: srk under one BrownianInterval with space-time
        Levy area, built once and kept (the same Brownian motion every call)."""

        def __init__(self, model, batch_size):
            super().__init__()
            self.model = model
            self.bm = torchsde.BrownianInterval(t0=0.0, t1=1.0, size=(batch_size, 1),
                                                levy_area_approximation='space-time')

        def forward(self, ts, eps):
            return self.model.sample_q(ts=ts, batch_size=eps.size(0), eps=eps, bm=self.bm)

    return LatentSDE, LatentSDELoss, SamplePosterior


def _latent_sde(mode):
    import torch

    LatentSDE, LatentSDELoss, _ = _latent_sde_module()
    model = LatentSDE()
    ts = torch.tensor([0.0, 0.3, 0.55, 0.8, 1.0])
    if mode == "train":
        ys = torch.cos(ts[1:-1] * (2. * 3.141592653589793))[:, None]
        return LatentSDELoss(model, ys), (ts, _BATCH), {}
    return model, (ts, _BATCH), {}


def _latent_sde_sample_q(mode):
    import torch

    LatentSDE, _, SamplePosterior = _latent_sde_module()
    model = SamplePosterior(LatentSDE(), _BATCH)
    net = mean_loss_module()(model) if mode == "train" else model
    return net, (torch.linspace(0.0, 1.0, 5), torch.randn(_BATCH, 1)), {}


@functools.cache
def _lorenz_module():
    # examples/latent_sde_lorenz.py's LatentSDE: a GRU encoder's context looked up by time inside
    # the drift, per-dimension diffusion nets, logqp against the prior drift `h`; the adjoint
    # variant passes `adjoint_params` (the context is not a parameter).
    import torch
    import torchsde
    from torch import nn
    from torch.distributions import Normal

    class Encoder(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super().__init__()
            self.gru = nn.GRU(input_size=input_size, hidden_size=hidden_size)
            self.lin = nn.Linear(hidden_size, output_size)

        def forward(self, inp):
            out, _ = self.gru(inp)
            out = self.lin(out)
            return out

    class LatentSDE(nn.Module):
        sde_type = "ito"
        noise_type = "diagonal"

        def __init__(self, data_size, context_size, hidden_size, adjoint=False, method="euler", loss=False):
            super().__init__()
            self.adjoint, self.method, self.loss = adjoint, method, loss
            self.encoder = Encoder(input_size=data_size, hidden_size=hidden_size, output_size=context_size)
            self.f_net = nn.Sequential(
                nn.Linear(data_size + context_size, hidden_size), nn.Softplus(),
                nn.Linear(hidden_size, hidden_size), nn.Softplus(),
                nn.Linear(hidden_size, data_size),
            )
            self.h_net = nn.Sequential(
                nn.Linear(data_size, hidden_size), nn.Softplus(),
                nn.Linear(hidden_size, hidden_size), nn.Softplus(),
                nn.Linear(hidden_size, data_size),
            )
            self.g_nets = nn.ModuleList([
                nn.Sequential(nn.Linear(1, hidden_size), nn.Softplus(), nn.Linear(hidden_size, 1), nn.Sigmoid())
                for _ in range(data_size)
            ])
            self._ctx = None

        def contextualize(self, ctx):
            self._ctx = ctx

        def f(self, t, y):
            ts, ctx = self._ctx
            i = min(torch.searchsorted(ts, t, right=True), len(ts) - 1)
            return self.f_net(torch.cat((y, ctx[i]), dim=1))

        def h(self, t, y):
            return self.h_net(y)

        def g(self, t, y):
            y = torch.split(y, split_size_or_sections=1, dim=1)
            out = [g_net_i(y_i) for (g_net_i, y_i) in zip(self.g_nets, y)]
            return torch.cat(out, dim=1)

        def forward(self, xs, ts, noise_std=0.01):
            ctx = self.encoder(torch.flip(xs, dims=(0,)))
            ctx = torch.flip(ctx, dims=(0,))
            self.contextualize((ts, ctx))
            if self.adjoint:
                adjoint_params = (
                    (ctx,) +
                    tuple(self.f_net.parameters()) + tuple(self.g_nets.parameters()) + tuple(self.h_net.parameters())
                )
                _xs, log_ratio = torchsde.sdeint_adjoint(
                    self, xs[0], ts, adjoint_params=adjoint_params, dt=0.25, logqp=True, method=self.method)
            else:
                _xs, log_ratio = torchsde.sdeint(self, xs[0], ts, dt=0.25, logqp=True, method=self.method)
            xs_dist = Normal(loc=_xs, scale=noise_std)
            log_pxs = xs_dist.log_prob(xs).sum(dim=(0, 2)).mean()
            log_ratio = log_ratio.sum(dim=0).mean()
            if self.loss:
                return -log_pxs + log_ratio
            return log_pxs, log_ratio

    return LatentSDE


def _lorenz(adjoint):
    def make(mode):
        import torch

        model = _lorenz_module()(data_size=3, context_size=4, hidden_size=8, adjoint=adjoint, loss=mode == "train")
        return model, (torch.randn(5, _BATCH, 3), torch.linspace(0.0, 1.0, 5)), {}

    return make


@functools.cache
def _generator_module():
    # examples/sde_gan.py's generator: a Stratonovich general-noise SDE on (t, x) with tanh-capped
    # MLPs, an initial-noise MLP, a readout with 100x gradient hooks, time cat'ed as a channel.
    import torch
    import torchsde

    class MLP(torch.nn.Module):
        def __init__(self, in_size, out_size, mlp_size, num_layers, tanh):
            super().__init__()
            model = [torch.nn.Linear(in_size, mlp_size), torch.nn.Softplus()]
            for _ in range(num_layers - 1):
                model.append(torch.nn.Linear(mlp_size, mlp_size))
                model.append(torch.nn.Softplus())
            model.append(torch.nn.Linear(mlp_size, out_size))
            if tanh:
                model.append(torch.nn.Tanh())
            self._model = torch.nn.Sequential(*model)

        def forward(self, x):
            return self._model(x)

    class GeneratorFunc(torch.nn.Module):
        sde_type = 'stratonovich'
        noise_type = 'general'

        def __init__(self, noise_size, hidden_size, mlp_size, num_layers):
            super().__init__()
            self._noise_size = noise_size
            self._hidden_size = hidden_size
            self._drift = MLP(1 + hidden_size, hidden_size, mlp_size, num_layers, tanh=True)
            self._diffusion = MLP(1 + hidden_size, hidden_size * noise_size, mlp_size, num_layers, tanh=True)

        def f(self, t, x):
            t = t.expand(x.size(0), 1)
            tx = torch.cat([t, x], dim=1)
            return self._drift(tx)

        def g(self, t, x):
            t = t.expand(x.size(0), 1)
            tx = torch.cat([t, x], dim=1)
            return self._diffusion(tx).view(x.size(0), self._hidden_size, self._noise_size)

    class Generator(torch.nn.Module):
        def __init__(self, data_size, initial_noise_size, noise_size, hidden_size, mlp_size, num_layers):
            super().__init__()
            self._initial_noise_size = initial_noise_size
            self._hidden_size = hidden_size
            self._initial = MLP(initial_noise_size, hidden_size, mlp_size, num_layers, tanh=False)
            self._func = GeneratorFunc(noise_size, hidden_size, mlp_size, num_layers)
            self._readout = torch.nn.Linear(hidden_size, data_size)
            self._readout.weight.register_hook(lambda grad: 100 * grad)
            self._readout.bias.register_hook(lambda grad: 100 * grad)

        def forward(self, ts, batch_size):
            x0 = self._initial(torch.randn(batch_size, self._initial_noise_size, device=ts.device))
            xs = torchsde.sdeint(self._func, x0, ts, method='midpoint', dt=0.25)
            xs = xs.transpose(0, 1)
            vals = self._readout(xs)
            t_size = ts.size(0)
            ts = ts.unsqueeze(0).unsqueeze(-1).expand(batch_size, t_size, 1)
            return torch.cat([ts, vals], dim=2)

    return Generator


def _sde_gan_generator(mode):
    import torch

    net = _generator_module()(data_size=2, initial_noise_size=4, noise_size=2, hidden_size=4, mlp_size=8,
                              num_layers=2)
    return (mean_loss_module()(net) if mode == "train" else net), (torch.linspace(0.0, 1.0, 5), _BATCH), {}


_ADAPTIVE = {"adaptive": True, "rtol": 1e-1, "atol": 1e-1, "dt_min": 0.05}

MODELS = {
    # Ito: euler everywhere, milstein and srk where the noise is not general.
    "ito_diagonal_euler": _solve("diagonal", "ito", "euler"),
    "ito_diagonal_milstein": _solve("diagonal", "ito", "milstein"),
    "ito_diagonal_srk": _solve("diagonal", "ito", "srk"),
    "ito_scalar_milstein": _solve("scalar", "ito", "milstein"),
    "ito_scalar_srk": _solve("scalar", "ito", "srk"),
    "ito_additive_srk": _solve("additive", "ito", "srk"),
    "ito_general_euler": _solve("general", "ito", "euler"),
    "readme": _readme,
    # Stratonovich: midpoint, heun, euler_heun, reversible_heun, log_ode for all noise types; milstein not general.
    "strat_diagonal_midpoint": _solve("diagonal", "stratonovich", "midpoint"),
    "strat_diagonal_heun": _solve("diagonal", "stratonovich", "heun"),
    "strat_diagonal_euler_heun": _solve("diagonal", "stratonovich", "euler_heun"),
    "strat_diagonal_milstein": _solve("diagonal", "stratonovich", "milstein"),
    "strat_diagonal_reversible_heun": _solve("diagonal", "stratonovich", "reversible_heun"),
    "strat_diagonal_log_ode": _solve("diagonal", "stratonovich", "log_ode"),
    "strat_scalar_milstein_grad_free": _solve("scalar", "stratonovich", "milstein", options={"grad_free": True}),
    "strat_additive_heun": _solve("additive", "stratonovich", "heun"),
    "strat_general_midpoint": _solve("general", "stratonovich", "midpoint"),
    "strat_general_reversible_heun_extra": _solve("general", "stratonovich", "reversible_heun", extra=True),
    "strat_general_log_ode": _solve("general", "stratonovich", "log_ode"),
    # Adaptive stepping (loose tolerances and a floor on the step, to stay small).
    "adaptive_ito_diagonal_srk": _solve("diagonal", "ito", "srk", **_ADAPTIVE),
    "adaptive_ito_additive_euler": _solve("additive", "ito", "euler", **_ADAPTIVE),
    # logqp: the KL against the prior drift `h` (a pseudo-inverse of g for general noise).
    "logqp_ito_diagonal_euler": _solve("diagonal", "ito", "euler", logqp=True),
    "logqp_strat_general_midpoint": _solve("general", "stratonovich", "midpoint", logqp=True),
    # A Brownian motion the caller builds (with the Levy area the solver needs), or keeps.
    "bm_interval_srk": _solve("diagonal", "ito", "srk", bm="interval", levy="space-time"),
    "bm_interval_like_log_ode": _solve("scalar", "stratonovich", "log_ode", bm="like", levy="davie"),
    "bm_path_euler": _solve("general", "ito", "euler", bm="path"),
    "bm_tree_milstein": _solve("diagonal", "ito", "milstein", bm="tree"),
    "bm_fixed_srk": _fixed_bm,
    # names=: the prior drift `h` stands in for `f` (the examples' prior samples).
    "names_prior_drift": _solve("diagonal", "ito", "srk", names={"drift": "h"}),
    # The specialised methods of DOCUMENTATION: f_and_g, g_prod, f_and_g_prod.
    "f_and_g": _special("f_and_g"),
    "g_prod": _special("g_prod"),
    "f_and_g_prod": _special("f_and_g_prod"),
    # sdeint_adjoint (default adjoint methods: milstein for Ito diagonal, midpoint for Stratonovich).
    "adjoint_ito_diagonal_euler": _solve("diagonal", "ito", "euler", adjoint=True),
    "adjoint_reversible_heun": _solve("general", "stratonovich", "reversible_heun", adjoint=True,
                                      adjoint_method="adjoint_reversible_heun"),
    "adjoint_adaptive_strat_diagonal_heun": _solve("diagonal", "stratonovich", "heun", adjoint=True,
                                                   adjoint_adaptive=True, adjoint_rtol=1e-1, adjoint_atol=1e-1,
                                                   **_ADAPTIVE),
    # The examples.
    "latent_sde": _latent_sde,
    "latent_sde_sample_q": _latent_sde_sample_q,
    "latent_sde_lorenz": _lorenz(adjoint=False),
    "latent_sde_lorenz_adjoint": _lorenz(adjoint=True),
    "sde_gan_generator": _sde_gan_generator,
}
