"""torchode 1.0.1 (Marten Lienen): batched, per-sample ODE solvers as its README, docs and tests
use them, tiny (batch 2-4, states of 1-4 features, flattened 3x8x8 / 4x8x8 feature maps for the
conv fields, 3-10 evaluation points; vector fields of 16 hidden units), random weights, no
download:

- the stepping methods ``Dopri5``, ``Tsit5``, ``Heun`` and ``Euler`` and a user-defined explicit
  Runge-Kutta method (Bogacki-Shampine from ``ButcherTableau.from_lists``, as
  ``single_step_methods_test.py`` builds one, with Heun's Hermite interpolation), also
  registered by name with ``register_method`` for ``solve_ivp``;
- the step-size controllers ``IntegralController`` (the docs' ``atol=1e-6, rtol=1e-3``, the
  torchdiffeq notebook's ``1e-9 / 1e-7`` in float64, ``norm=max_norm``, ``dt_min`` / ``dt_max``:
  in 1.0.1 the samples that finish first then end with status REACHED_DT_MIN, as they are
  stepped on with dt=0 while the others run),
  ``PIDController`` (the docs' ``pcoeff=0.2, icoeff=0.5, dcoeff=0.0`` and the tests'
  ``0.3, 0.6, 0.0`` / ``0.0, 1.0, 0.0``), ``FixedStepController`` with a per-sample ``dt0``, and
  the extra-stats notebook's ``StepSizeControllerTracker`` (a user ``StepSizeController`` that
  wraps an ``IntegralController`` and logs every ``t`` / ``dt`` / accept decision into ``stats``);
- ``AutoDiffAdjoint`` (with ``max_steps``, ``backprop_through_step_size_control=False``, the term
  fixed at construction or passed to ``solve`` as in ``torch_script_test.py``),
  ``BacksolveAdjoint`` (adaptive and fixed steps with ``dt0`` / ``backward_dt0``) and
  ``JointBacksolveAdjoint`` (aligned evaluation points);
- ``InitialValueProblem`` with a shared ``t_eval`` (tiled, as the notebooks do), per-sample
  ``t_eval`` over different ranges (the README), only ``t_start`` / ``t_end`` (``t_eval=None``:
  the solution at the end points), time running backwards, samples integrated in opposite
  directions at once, and float64 time with float32 data (``dtype_stability_test.py``);
- ``ODETerm`` with ``with_args=True`` (the extra-args doc's per-sample decay rates, Lotka-Volterra
  parameters per sample, the N-d doc's ``(c, w, h)`` shape tuple for a convolutional field on
  flattened images) and ``with_stats=False``;
- ``solve_ivp`` with its defaults (``tsit5``, a PID controller), ``method="dopri5"`` / ``"heun"``
  / a registered name, a 1-D ``t_eval``, ``t_span`` without ``t_eval``, ``controller=``, ``dt0=``
  with ``max_steps=``, and ``args=`` (a context vector for a conditioned field);
- neural ODEs as user modules build them (the docs' ``Model``: an MLP of Softplus layers, ``f(t,
  y)``), a time-dependent field, the tests' ``LinearDynamics`` (``y @ A``, float64), and models
  with an ODE inside: an ODE-block image classifier (conv stem, an ODE on the flattened feature
  map, a linear head), a latent ODE (a GRU encoder over irregular per-sample observation times,
  the ODE evaluated at those times, a linear decoder) and a continuous normalizing flow (FFJORD's
  exact trace by autograd, solved to ``t_end`` only);
- float32 and float64 variants.

Eval: the solution ``ys`` (the README / docs calls return ``ts``, ``ys``, ``stats``, ``status`` as
they print them; the models their logits / reconstruction / log-likelihood). Train: the mean of
``ys`` (``mean_loss_module``) for the neural ODEs and solver calls, the MSE of a fit for the
parameter-estimation models (a learned decay rate, Lotka-Volterra parameters), cross-entropy for
the classifier (``classifier_loss_module``), the reconstruction MSE for the latent ODE and the
negative log-likelihood for the flow.

    pip install --no-deps torchode==1.0.1 torchtyping==0.1.5 typeguard==2.13.3   # (+ sympy)

It imports torch, sympy and torchtyping (``torchtyping`` imports ``typeguard`` at the top; 0.1.5
pins ``typeguard<3``, the newest 2.x is 2.13.3). Nothing stubbed, nothing aliased. Stop 45:
measured first as it came, before any rule looked at it.

Left out: the docs' TorchScript route (``torch.jit.script(AutoDiffAdjoint(...))``, docs/jit.ipynb)
fails in torch 2.13 with an internal assert of the TorchScript compiler ("type INTERNAL ASSERT
FAILED at .../jit/ir/ir.h"); the README's ``torch.compile(solver)`` is what the calibration run
does itself. ``solve_ivp(method=<a step method object>)``: 1.0.1 checks
``isinstance(method, SingleStepMethod)``, which its own ``Dopri5`` etc. (``nn.Module`` subclasses,
not ``SingleStepMethod``) fail, so it looks the object up as a name (``KeyError``); a registered
name is used instead. ``Euler`` is not registered by name (only heun, dopri5, tsit5).
"""

import functools

PACKAGE = "torchode"

_B, _F, _H, _T = 3, 4, 16, 5  # batch, state features, hidden units, evaluation points
_CLASSES = 3
mean_loss_module = classifier_loss_module = None  # adapter.py's, set by ZooSuite


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torchode as to
    from torch import nn
    from torchode.interpolation import ThirdOrderPolynomialInterpolation
    from torchode.single_step_methods.runge_kutta import ButcherTableau, ExplicitRungeKutta
    from torchode.step_size_controllers import StepSizeController

    class Model(nn.Module):
        """The docs' neural ODE: an MLP with two hidden Softplus layers, ``f(t, y)``."""

        def __init__(self, n_features=_F, n_hidden=_H):
            super().__init__()
            self.layers = nn.Sequential(
                nn.Linear(n_features, n_hidden), nn.Softplus(), nn.Linear(n_hidden, n_hidden), nn.Softplus(),
                nn.Linear(n_hidden, n_features))

        def forward(self, t, y):
            return self.layers(y)

    class TimeModel(nn.Module):
        """A time-dependent field: the per-sample time ``t`` (batch,) as an extra input."""

        def __init__(self, n_features=_F, n_hidden=_H):
            super().__init__()
            self.layers = nn.Sequential(nn.Linear(n_features + 1, n_hidden), nn.Tanh(),
                                        nn.Linear(n_hidden, n_features))

        def forward(self, t, y):
            return self.layers(torch.cat([y, t[:, None].to(y.dtype)], dim=1))

    class LinearDynamics(nn.Module):
        """``adjoint_test.py``'s linear field."""

        def __init__(self, A):
            super().__init__()
            self.register_parameter("A", A)

        def forward(self, t, y):
            return y @ self.A

    class ConvField(nn.Module):
        """The N-d doc: flattened images in, reshaped with the ``(c, w, h)`` args for a CNN."""

        def __init__(self, channels, hidden=8):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(channels, hidden, 3, padding=1), nn.Tanh(),
                                     nn.Conv2d(hidden, channels, 3, padding=1))

        def forward(self, t, y, args):
            c, w, h = args
            y = self.net(y.reshape((-1, c, w, h)))
            return y.flatten(start_dim=1)

    class ConditionedField(nn.Module):
        """A field conditioned on a per-sample context vector passed as ``args``."""

        def __init__(self, n_features=_F, n_context=2, n_hidden=_H):
            super().__init__()
            self.layers = nn.Sequential(nn.Linear(n_features + n_context, n_hidden), nn.Softplus(),
                                        nn.Linear(n_hidden, n_features))

        def forward(self, t, y, context):
            return self.layers(torch.cat([y, context], dim=1))

    class Bosh3(ExplicitRungeKutta):
        """A user-defined method: Bogacki-Shampine 3(2), FSAL, Hermite interpolation."""

        TABLEAU = ButcherTableau.from_lists(
            c=[0.0, 1 / 2, 3 / 4, 1.0],
            a=[[], [1 / 2], [0.0, 3 / 4], [2 / 9, 1 / 3, 4 / 9]],
            b=[2 / 9, 1 / 3, 4 / 9, 0.0],
            b_low_order=[7 / 24, 1 / 4, 1 / 3, 1 / 8],
        )

        def __init__(self, term=None):
            super().__init__(term, Bosh3.TABLEAU)

        def convergence_order(self):
            return 3

        def build_interpolation(self, data):
            return ThirdOrderPolynomialInterpolation.from_k(data.t0, data.dt, data.y0, data.y1, data.k)

    class StepSizeControllerTracker(StepSizeController):
        """The extra-stats notebook's wrapper: collects step times and acceptance decisions."""

        def __init__(self, controller):
            super().__init__()
            self.controller = controller

        def init(self, term, problem, method_order: int, dt0, *, stats, args):
            stats["all_t"] = []
            stats["all_dt"] = []
            stats["all_accept"] = []
            return self.controller.init(term, problem, method_order, dt0, stats=stats, args=args)

        def adapt_step_size(self, t0, dt, y0, step, state, stats):
            accept, dt_next, state, status = self.controller.adapt_step_size(t0, dt, y0, step, state, stats)
            stats["all_t"].append(t0)
            stats["all_dt"].append(dt)
            stats["all_accept"].append(accept)
            return accept, dt_next, state, status

        def merge_states(self, running, current, previous):
            return self.controller.merge_states(running, current, previous)

    class NeuralODE(nn.Module):
        """A vector field and a solver built around it; ``solve`` on an ``InitialValueProblem``
        from the inputs, the solution's ``ys`` out. ``term`` is handed to ``solve`` when the
        solver was built without one (or is an adjoint that takes it); other keywords
        (``backward_dt0``) go to ``solve`` as they are."""

        def __init__(self, field, solver, term=None):
            super().__init__()
            self.field, self.solver, self.term = field, solver, term

        def forward(self, y0, t_eval=None, t_start=None, t_end=None, dt0=None, **solve_kwargs):
            problem = to.InitialValueProblem(y0=y0, t_start=t_start, t_end=t_end, t_eval=t_eval)
            if self.term is None:
                sol = self.solver.solve(problem, dt0=dt0, **solve_kwargs)
            else:
                sol = self.solver.solve(problem, term=self.term, dt0=dt0, **solve_kwargs)
            return sol.ys

    class TrackedODE(NeuralODE):
        """The extra-stats notebook: the solution and the tracker's stacked records."""

        def forward(self, y0, t_eval):
            sol = self.solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval))
            return (sol.ys, torch.stack(sol.stats["all_t"]), torch.stack(sol.stats["all_dt"]),
                    torch.stack(sol.stats["all_accept"]))

    class SolveIVP(nn.Module):
        """``to.solve_ivp`` on a field module, with fixed keyword arguments."""

        def __init__(self, field, **kwargs):
            super().__init__()
            self.field, self.kwargs = field, kwargs

        def forward(self, y0, t_eval=None, args=None):
            kwargs = dict(self.kwargs)
            if args is not None:
                kwargs["args"] = args
            return to.solve_ivp(self.field, y0, t_eval, **kwargs).ys

    class DecayFit(nn.Module):
        """The README's decay ``dy/dt = -k y`` with a learned rate, fitted to observations."""

        def __init__(self, rate=0.2):
            super().__init__()
            self.log_rate = nn.Parameter(torch.tensor(rate).log())
            self.term = to.ODETerm(self.f)
            self.solver = to.AutoDiffAdjoint(to.Dopri5(term=self.term),
                                             to.IntegralController(atol=1e-6, rtol=1e-3, term=self.term))

        def f(self, t, y):
            return -self.log_rate.exp() * y

        def forward(self, y0, t_eval, observed):
            sol = self.solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval))
            return nn.functional.mse_loss(sol.ys, observed)

    class DecayArgsFit(nn.Module):
        """The extra-args doc with one learned decay rate per instance, fitted to observations."""

        def __init__(self, batch):
            super().__init__()
            self.log_rate = nn.Parameter(torch.zeros(batch))
            term = to.ODETerm(self.f, with_args=True)
            self.solver = to.AutoDiffAdjoint(to.Tsit5(term=term), to.IntegralController(atol=1e-6, rtol=1e-3,
                                                                                       term=term))

        @staticmethod
        def f(t, y, decay_rate):
            return -decay_rate[:, None] * y

        def forward(self, y0, t_eval, observed):
            sol = self.solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval), args=self.log_rate.exp())
            return nn.functional.mse_loss(sol.ys, observed)

    class LotkaVolterra(nn.Module):
        """Predator-prey dynamics with per-sample parameters as ``args`` (float64): shared
        learned log-parameters times each instance's scale; eval the trajectories, train the
        MSE to observed ones."""

        def __init__(self, loss=False):
            super().__init__()
            self.log_theta = nn.Parameter(torch.tensor([1.5, 1.0, 3.0, 1.0], dtype=torch.float64).log())
            self.loss = loss
            term = to.ODETerm(self.f, with_args=True)
            self.solver = to.AutoDiffAdjoint(
                to.Tsit5(term=term), to.PIDController(atol=1e-8, rtol=1e-6, pcoeff=0.2, icoeff=0.5, dcoeff=0.0,
                                                      term=term))

        @staticmethod
        def f(t, y, params):
            alpha, beta, gamma, delta = params.unbind(dim=1)
            prey, predator = y.unbind(dim=1)
            return torch.stack([alpha * prey - beta * prey * predator,
                                delta * prey * predator - gamma * predator], dim=1)

        def forward(self, y0, t_eval, scale, observed=None):
            params = self.log_theta.exp() * scale
            sol = self.solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval), args=params)
            return nn.functional.mse_loss(sol.ys, observed) if self.loss else sol.ys

    class ImageODE(nn.Module):
        """The N-d doc's pattern inside a model: images flattened for torchode, the conv field
        reshaping them back with the ``(c, w, h)`` args."""

        def __init__(self, channels):
            super().__init__()
            self.field = ConvField(channels)
            term = to.ODETerm(self.field, with_args=True)
            self.solver = to.AutoDiffAdjoint(to.Tsit5(term=term),
                                             to.IntegralController(atol=1e-6, rtol=1e-3, term=term))

        def forward(self, images, t_eval):
            b, c, w, h = images.shape
            problem = to.InitialValueProblem(y0=images.flatten(start_dim=1), t_eval=t_eval)
            sol = self.solver.solve(problem, args=(c, w, h))
            return sol.ys.reshape(b, -1, c, w, h)

    class ODEBlockClassifier(nn.Module):
        """An ODE-Net: conv stem, an ODE block on the flattened feature map from t=0 to t=1
        (end point only), average pooling and a linear head."""

        def __init__(self, in_channels=1, channels=4, size=8):
            super().__init__()
            self.channels, self.size = channels, size
            self.stem = nn.Sequential(nn.Conv2d(in_channels, channels, 3, stride=2, padding=1), nn.ReLU())
            self.field = ConvField(channels)
            term = to.ODETerm(self.field, with_args=True)
            self.solver = to.AutoDiffAdjoint(to.Dopri5(term=term),
                                             to.IntegralController(atol=1e-4, rtol=1e-3, term=term))
            self.head = nn.Linear(channels, _CLASSES)

        def forward(self, images):
            x = self.stem(images)
            b = x.shape[0]
            t_start = x.new_zeros(b)
            problem = to.InitialValueProblem(y0=x.flatten(start_dim=1), t_start=t_start, t_end=t_start + 1.0)
            sol = self.solver.solve(problem, args=(self.channels, self.size, self.size))
            x = sol.ys[:, -1].reshape(b, self.channels, self.size, self.size)
            return self.head(x.mean(dim=(2, 3)))

    class LatentODE(nn.Module):
        """A latent ODE: a GRU over the (reversed) observations gives z0, the ODE evaluates z at
        each sample's own observation times, a linear decoder maps back; train: the MSE."""

        def __init__(self, obs_dim=2, latent=_F, hidden=_H, loss=False):
            super().__init__()
            self.loss = loss
            self.encoder = nn.GRU(obs_dim + 1, hidden, batch_first=True)
            self.to_z0 = nn.Linear(hidden, latent)
            self.field = Model(latent, hidden)
            term = to.ODETerm(self.field)
            self.solver = to.AutoDiffAdjoint(to.Dopri5(term=term),
                                             to.IntegralController(atol=1e-6, rtol=1e-3, term=term))
            self.decoder = nn.Linear(latent, obs_dim)

        def forward(self, x, ts):
            inp = torch.cat([x, ts[..., None]], dim=-1).flip(1)
            _, h = self.encoder(inp)
            z0 = self.to_z0(h[-1])
            sol = self.solver.solve(to.InitialValueProblem(y0=z0, t_eval=ts))
            x_hat = self.decoder(sol.ys)
            return nn.functional.mse_loss(x_hat, x) if self.loss else x_hat

    class CNFField(nn.Module):
        """FFJORD's dynamics on the augmented state ``[z, log p]``: ``dz`` from an MLP of
        ``(z, t)`` and ``-trace(dz/dz)`` exactly, one autograd call per dimension."""

        def __init__(self, dim=2, hidden=_H):
            super().__init__()
            self.dim = dim
            self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                     nn.Linear(hidden, dim))

        def forward(self, t, y):
            with torch.enable_grad():
                z = y[:, :self.dim]
                if not z.requires_grad:
                    z = z.detach().requires_grad_(True)
                dz = self.net(torch.cat([z, t[:, None].to(z.dtype)], dim=1))
                trace = 0.0
                for i in range(self.dim):
                    trace = trace + torch.autograd.grad(dz[:, i].sum(), z, create_graph=True)[0][:, i]
            return torch.cat([dz, -trace[:, None]], dim=1)

    class CNF(nn.Module):
        """A continuous normalizing flow: data to base from t=0 to t=1, log-likelihood under a
        standard normal; eval the log-likelihoods, train their negative mean."""

        def __init__(self, dim=2, loss=False):
            super().__init__()
            self.dim, self.loss = dim, loss
            self.field = CNFField(dim)
            term = to.ODETerm(self.field)
            self.solver = to.AutoDiffAdjoint(to.Dopri5(term=term),
                                             to.IntegralController(atol=1e-5, rtol=1e-5, term=term))

        def forward(self, x):
            y0 = torch.cat([x, x.new_zeros(x.shape[0], 1)], dim=1)
            t_start = x.new_zeros(x.shape[0])
            sol = self.solver.solve(to.InitialValueProblem(y0=y0, t_start=t_start, t_end=t_start + 1.0))
            z, delta_logp = sol.ys[:, -1, :self.dim], sol.ys[:, -1, self.dim]
            logpz = -0.5 * (z ** 2).sum(dim=1) - 0.5 * self.dim * torch.log(torch.tensor(2 * torch.pi))
            logpx = logpz + delta_logp
            return -logpx.mean() if self.loss else logpx

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _times(kind="per_sample", dtype=None, batch=_B, n=_T):
    """Evaluation points ``(batch, n)``: ``shared`` (one grid tiled, as the notebooks do),
    ``per_sample`` (different ranges, as the README), ``reverse`` (backwards in time),
    ``opposite`` (forwards and backwards in one batch)."""
    import torch

    dtype = dtype or torch.get_default_dtype()
    if kind == "shared":
        return torch.tile(torch.linspace(0.0, 1.0, n, dtype=dtype), (batch, 1))
    ranges = {"per_sample": [(0.0, 1.0), (0.5, 1.5), (0.0, 2.0), (1.0, 1.5)],
              "reverse": [(1.0, 0.0), (1.5, 0.5), (2.0, 0.0), (1.5, 1.0)],
              "opposite": [(0.0, 1.0), (1.0, 0.0), (0.5, 1.5), (1.5, 0.5)]}[kind]
    return torch.stack([torch.linspace(a, b, n, dtype=dtype) for a, b in ranges[:batch]])


def _controller(kind, term, **kw):
    import torchode as to
    from torchode.step_size_controllers import max_norm

    if kw.get("norm") == "max":
        kw["norm"] = max_norm

    if kind == "integral":
        return to.IntegralController(**{"atol": 1e-6, "rtol": 1e-3, **kw}, term=term)
    if kind == "pid":
        return to.PIDController(**{"atol": 1e-6, "rtol": 1e-3, "pcoeff": 0.2, "icoeff": 0.5, "dcoeff": 0.0, **kw},
                                term=term)
    if kind == "fixed":
        return to.FixedStepController()
    if kind == "tracker":
        return _nets().StepSizeControllerTracker(to.IntegralController(atol=1e-6, rtol=1e-3, term=term))
    raise ValueError(kind)


def _method(name, term):
    import torchode as to

    cls = _nets().Bosh3 if name == "Bosh3" else getattr(to, name)
    return cls(term)


def _train(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


# --- models ------------------------------------------------------------------------------------

def _node(method, controller="integral", *, times="per_sample", dt0=None, double=False, time_double=False,
          dynamic=False, field="mlp", ctrl_kw=None, term_kw=None, **adjoint_kw):
    """A neural ODE module: the docs' MLP field (or a time-dependent one) in an ``ODETerm``,
    ``method`` and ``controller`` built on it, ``AutoDiffAdjoint``; ``dynamic``: the method and
    controller built without the term, which is handed to ``solve`` instead. Eval: ``ys``."""

    def make(mode):
        import torch
        import torchode as to

        N = _nets()
        net = N.TimeModel() if field == "time" else N.Model()
        term = to.ODETerm(net, **(term_kw or {}))
        fixed = None if dynamic else term
        solver = to.AutoDiffAdjoint(_method(method, fixed), _controller(controller, fixed, **(ctrl_kw or {})),
                                    **adjoint_kw)
        model = N.NeuralODE(net, solver, term if dynamic else None)
        data = torch.float64 if double else torch.float32
        tdtype = torch.float64 if (double or time_double) else torch.float32
        if double:
            model = model.double()
        y0 = torch.randn(_B, _F, dtype=data)
        kwargs = {}
        if times == "end":
            t_start = torch.tensor([0.0, 0.5, 1.0], dtype=tdtype)
            kwargs.update(t_start=t_start, t_end=t_start + torch.tensor([1.0, 0.5, 2.0], dtype=tdtype))
        else:
            kwargs["t_eval"] = _times(times, tdtype)
        if dt0 is not None:
            kwargs["dt0"] = torch.full((_B,), dt0, dtype=tdtype)
        return _train(model, mode), (y0,), kwargs

    return make


def _backsolve(joint=False, controller="pid", dt0=None, backward_dt0=None):
    """``BacksolveAdjoint`` / ``JointBacksolveAdjoint`` on the docs' MLP field (the term given
    at construction and to ``solve``, the step method without one, as ``adjoint_test.py``)."""

    def make(mode):
        import torch
        import torchode as to

        N = _nets()
        net = N.Model()
        term = to.ODETerm(net)
        ctrl = _controller(controller, None)
        cls = to.JointBacksolveAdjoint if joint else to.BacksolveAdjoint
        model = N.NeuralODE(net, cls(term, to.Dopri5(), ctrl), term)
        kwargs = {"t_eval": _times("shared" if joint else "per_sample")}
        if dt0 is not None:
            kwargs["dt0"] = torch.full((_B,), dt0)
        if backward_dt0 is not None:
            kwargs["backward_dt0"] = torch.full((_B,), backward_dt0)
        return _train(model, mode), (torch.randn(_B, _F),), kwargs

    return make


def _backsolve_linear(mode):
    """``adjoint_test.py``'s gradient check setting: ``LinearDynamics`` (float64), Dopri5, the
    PID controller ``(1e-6, 0.0, 0.3, 0.6, 0.0)``, only ``t_start`` / ``t_end``."""
    import torch
    import torchode as to
    from torch import nn

    N = _nets()
    A = nn.Parameter(torch.randn(3, 3, dtype=torch.float64) * 0.5 - torch.eye(3, dtype=torch.float64))
    net = N.LinearDynamics(A)
    term = to.ODETerm(net)
    model = N.NeuralODE(net, to.BacksolveAdjoint(term, to.Dopri5(), to.PIDController(1e-6, 0.0, 0.3, 0.6, 0.0)),
                        term)
    y0 = torch.tensor([[0.33, 1.2, -0.4], [0.55, -0.8, 1.23]], dtype=torch.float64)
    kwargs = {"t_start": torch.tensor([0.0, 2.0], dtype=torch.float64),
              "t_end": torch.tensor([3.0, 6.0], dtype=torch.float64)}
    return _train(model, mode), (y0,), kwargs


def _tracker(mode):
    import torch
    import torchode as to

    N = _nets()
    net = N.Model()
    term = to.ODETerm(net)
    solver = to.AutoDiffAdjoint(to.Dopri5(term=term), _controller("tracker", term))
    return _train(N.TrackedODE(net, solver), mode), (torch.zeros(_B, _F), _times("shared")), {}


def _readme(mode):
    """The README: ``f = -0.5 y`` in a function, per-sample ``t_eval`` over (0, 5) and (3, 4),
    Dopri5 + IntegralController; eval ``ts, ys, stats, status`` (as printed), train the same
    decay with a learned rate fitted to the exact solution."""
    import torch
    import torchode as to

    y0 = torch.tensor([[1.2], [5.0]])
    n_steps = 10
    t_eval = torch.stack((torch.linspace(0, 5, n_steps), torch.linspace(3, 4, n_steps)))
    if mode == "train":
        observed = y0[:, None] * torch.exp(-0.5 * (t_eval - t_eval[:, :1]))[..., None]
        return _nets().DecayFit(), (y0, t_eval, observed), {}

    def f(t, y):
        return -0.5 * y

    term = to.ODETerm(f)
    step_method = to.Dopri5(term=term)
    step_size_controller = to.IntegralController(atol=1e-6, rtol=1e-3, term=term)
    solver = to.AutoDiffAdjoint(step_method, step_size_controller)

    def run(y0, t_eval):
        sol = solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval))
        return sol.ts, sol.ys, sol.stats, sol.status

    return run, (y0, t_eval), {}


def _extra_args(mode):
    """The extra-args doc: ``f(t, y, decay_rate)`` with ``with_args=True``, Tsit5; train: one
    learned rate per instance fitted to observations."""
    import torch
    import torchode as to

    y0 = torch.tensor([[1.2], [5.0]])
    n_steps = 10
    t_eval = torch.stack((torch.linspace(0, 5, n_steps), torch.linspace(3, 4, n_steps)))
    decay_rate = torch.tensor([0.1, 5.0])
    if mode == "train":
        observed = y0[:, None] * torch.exp(-decay_rate[:, None] * (t_eval - t_eval[:, :1]))[..., None]
        return _nets().DecayArgsFit(2), (y0, t_eval, observed), {}

    def f(t, y, decay_rate):
        return -decay_rate[:, None] * y

    term = to.ODETerm(f, with_args=True)
    step_method = to.Tsit5(term=term)
    step_size_controller = to.IntegralController(atol=1e-6, rtol=1e-3, term=term)
    solver = to.AutoDiffAdjoint(step_method, step_size_controller)

    def run(y0, t_eval, decay_rate):
        problem = to.InitialValueProblem(y0=y0, t_eval=t_eval)
        sol = solver.solve(problem, args=decay_rate)
        return sol.ts, sol.ys

    return run, (y0, t_eval, decay_rate), {}


def _lotka_volterra(mode):
    import torch

    net = _nets().LotkaVolterra(loss=mode == "train")
    y0 = torch.tensor([[1.0, 1.0], [2.0, 0.5], [0.5, 1.5]], dtype=torch.float64)
    scale = 1.0 + 0.1 * torch.randn(_B, 4, dtype=torch.float64)
    t_eval = _times("per_sample", torch.float64)
    args = (y0, t_eval, scale)
    if mode == "train":
        args += (torch.rand(_B, _T, 2, dtype=torch.float64) + 0.5,)
    return net, args, {}


def _image_ode(mode):
    import torch

    net = _nets().ImageODE(channels=3)
    return _train(net, mode), (torch.randn(2, 3, 8, 8), _times("shared", batch=2, n=3)), {}


def _ode_classifier(mode):
    import torch

    net = _nets().ODEBlockClassifier()
    x = torch.randn(4, 1, 16, 16)
    return (classifier_loss_module()(net, 4, _CLASSES) if mode == "train" else net), (x,), {}


def _latent_ode(mode):
    import torch

    net = _nets().LatentODE(loss=mode == "train")
    ts = torch.sort(torch.rand(_B, 6) * 2.0, dim=1).values
    ts[:, 0] = 0.0
    x = torch.randn(_B, 6, 2)
    return net, (x, ts), {}


def _cnf(mode):
    import torch

    net = _nets().CNF(loss=mode == "train")
    return net, (torch.randn(4, 2),), {}


def _custom_method(mode):
    """A user ``ExplicitRungeKutta`` (Bogacki-Shampine) from a ``ButcherTableau``."""
    return _node("Bosh3", "integral")(mode)


def _solve_ivp(field="mlp", times="per_sample", t_span=False, register=False, controller=None, dt0=None,
               args=False, **kwargs):
    """``to.solve_ivp`` on a field module inside a user module."""

    def make(mode):
        import torch
        import torchode as to

        N = _nets()
        if register:
            to.register_method("bosh3", N.Bosh3)
        net = N.ConditionedField() if args else N.Model()
        kw = dict(kwargs)
        if controller is not None:
            kw["controller"] = _controller(controller, None)
        if dt0 is not None:
            kw["dt0"] = torch.full((_B,), dt0)
        if t_span:
            kw["t_span"] = (torch.tensor(0.0), torch.tensor(1.0))
        model = N.SolveIVP(net, **kw)
        t_eval = None if t_span else (torch.linspace(0.0, 1.0, _T) if times == "1d" else _times(times))
        call = {"t_eval": t_eval}
        if args:
            call["args"] = torch.randn(_B, 2)
        return _train(model, mode), (torch.randn(_B, _F),), call

    return make


MODELS = {
    # AutoDiffAdjoint on a neural ODE: each method with each controller
    "Dopri5_Integral": _node("Dopri5", "integral"),
    "Tsit5_Integral": _node("Tsit5", "integral"),
    "Heun_Integral": _node("Heun", "integral"),
    "Euler_Integral_dt0": _node("Euler", "integral", dt0=0.05),
    "Dopri5_PID": _node("Dopri5", "pid"),
    "Tsit5_PID": _node("Tsit5", "pid"),
    "Heun_PID": _node("Heun", "pid"),
    "Dopri5_Fixed": _node("Dopri5", "fixed", dt0=0.1),
    "Tsit5_Fixed": _node("Tsit5", "fixed", dt0=0.1),
    "Heun_Fixed": _node("Heun", "fixed", dt0=0.05),
    "Euler_Fixed": _node("Euler", "fixed", dt0=0.05),
    # dtypes
    "Dopri5_Integral_f64": _node("Dopri5", "integral", double=True, times="shared", ctrl_kw={"atol": 1e-9,
                                                                                               "rtol": 1e-7}),
    "Tsit5_PID_f64": _node("Tsit5", "pid", double=True),
    "Dopri5_PID_time_f64": _node("Dopri5", "pid", time_double=True, ctrl_kw={"atol": 1e-6, "rtol": 0.0,
                                                                            "pcoeff": 0.3, "icoeff": 0.6}),
    # problems
    "Tsit5_t_end_only": _node("Tsit5", "integral", times="end"),
    "Dopri5_reverse_time": _node("Dopri5", "integral", times="reverse"),
    "Dopri5_opposite_directions": _node("Dopri5", "pid", times="opposite", dynamic=True,
                                        ctrl_kw={"atol": 1e-5, "rtol": 1e-5, "pcoeff": 0.0, "icoeff": 1.0}),
    # solver and term options
    "Heun_dynamic_term": _node("Heun", "integral", dynamic=True, ctrl_kw={"atol": 1e-3, "rtol": 1e-3}),
    "Euler_dynamic_term_Fixed": _node("Euler", "fixed", dynamic=True, dt0=0.05),
    "Dopri5_max_steps": _node("Dopri5", "integral", max_steps=20),
    "Dopri5_no_step_size_backprop": _node("Dopri5", "integral", backprop_through_step_size_control=False),
    "Tsit5_max_norm_dt_bounds": _node("Tsit5", "integral", ctrl_kw={"norm": "max", "dt_min": 1e-6, "dt_max": 0.2}),
    "Tsit5_no_stats": _node("Tsit5", "integral", term_kw={"with_stats": False}),
    "Tsit5_time_dependent": _node("Tsit5", "pid", field="time"),
    "StepSizeControllerTracker": _tracker,
    "custom_Bosh3": _custom_method,
    # adjoints
    "BacksolveAdjoint_PID": _backsolve(),
    "BacksolveAdjoint_Fixed": _backsolve(controller="fixed", dt0=0.2, backward_dt0=-0.5),
    "JointBacksolveAdjoint_PID": _backsolve(joint=True),
    "BacksolveAdjoint_linear_f64": _backsolve_linear,
    # the README and docs
    "readme_decay": _readme,
    "extra_args_decay": _extra_args,
    "lotka_volterra_args_f64": _lotka_volterra,
    "nd_conv_field": _image_ode,
    # solve_ivp
    "solve_ivp_default": _solve_ivp(),
    "solve_ivp_dopri5_1d_t_eval": _solve_ivp(times="1d", method="dopri5"),
    "solve_ivp_heun_Integral": _solve_ivp(method="heun", controller="integral"),
    "solve_ivp_t_span": _solve_ivp(t_span=True),
    "solve_ivp_Fixed_max_steps": _solve_ivp(method="tsit5", controller="fixed", dt0=0.1, max_steps=50),
    "solve_ivp_args": _solve_ivp(args=True),
    "solve_ivp_registered_bosh3": _solve_ivp(register=True, method="bosh3"),
    # models with an ODE inside
    "ODEBlockClassifier": _ode_classifier,
    "LatentODE": _latent_ode,
    "CNF_ffjord": _cnf,
}
