"""torchdyn 1.0.6: neural differential equations as its docs, tutorials and tests build them, tiny
(a batch of 8 two-dimensional points, 8x8 one-channel images, MLP vector fields of 16 units,
``t_span = linspace(0, 1, 5)``), random weights, no download:

- ``NeuralODE`` (``torchdyn.core``) on an MLP vector field with each solver of ``SOLVER_DICT``:
  ``tsit5`` (the default, called with no ``t_span``), ``euler``, ``midpoint``, ``rk4``, ``dopri5``,
  ``dopri5`` with the ``'4th'`` interpolator, ``ieuler`` (implicit Euler: LBFGS inside each step),
  ``rk4`` with ``save_at``; the sensitivity methods ``adjoint`` (the quickstart's tsit5, and rk4 with
  a dopri5 adjoint) and ``interpolated_adjoint``; an ``integral_loss`` with autograd (the loss carried
  in ``x[:, 0]``) and with the interpolated adjoint (the test's ``reg_term``); ``order=2``;
  ``trajectory``; ``return_t_eval=False`` chained in ``nn.Sequential`` (the docs' usage);
- ``torchdyn.nn``: ``DataControl``, ``DepthCat``, ``Augmenter`` (zeros, first; an ``augment_func``,
  last), Galerkin ``GalLinear`` with each basis (``Fourier``, ``Polynomial``, ``Chebychev``,
  ``GaussianRBF``, ``VanillaRBF``, ``MultiquadRBF``) behind ``DepthCat``, ``GalConv2d`` on images,
  and the image-classification tutorial's conv Neural ODE (channel ``Augmenter``, ``DepthCat`` conv
  vector field, pooled linear head);
- ``torchdyn.models``: ``CNF`` with ``hutch_trace`` (a ``MultivariateNormal`` noise) and with
  ``autograd_trace`` in ``NeuralODE`` behind ``Augmenter(1, 1)`` (the CNF tutorial), ``HNN``,
  ``GNF``, ``LNN`` (``torch.autograd.functional`` Jacobian / Hessian per sample);
- ``torchdyn.numerics`` used functionally: ``odeint`` (rk4, dopri5, tsit5, a reversed time span),
  ``odeint_symplectic`` with ``alf``, a ``HyperEuler`` hypersolver, ``odeint_mshooting`` (``zero``),
  ``odeint_hybrid`` (the bouncing-ball ``EventCallback``), ``ODEProblem`` on ``VanDerPol`` (the
  adjoint test) and ``Lorenz``;
- ``MultipleShootingLayer`` with the ``zero`` (parareal, ``maxiter=2``) and ``backward`` (discrete
  adjoint) solvers; ``backward`` at ``maxiter=1``: ``MSBackward.root_solve`` indexes ``B_fine[m-1]``
  past its end from the third iteration on (an IndexError eagerly at ``maxiter>=2``), and its eval
  runs under ``torch.enable_grad()`` (it calls ``torch.autograd.grad`` inside: a user's inference
  must keep grad on).

Eval: the model as the library returns it (``(t_eval, sol)`` for a ``NeuralODE``). Train: the
tutorials' ``Learner.training_step`` body: ``t_eval, y_hat = model(x, t_span)``, ``y_hat[-1]``,
``nn.CrossEntropyLoss`` against fixed labels (classification models; augmented ones on the last two
dimensions, as the docs slice); the CNF tutorial's NLL (``prior.log_prob(z[:, 1:]) - z[:, 0]``);
an MSE against a fixed target trajectory for the physics / shooting / SDE models; the integral-loss
models add the carried loss ``sol[-1, :, 0]``; ``mean_loss_module`` for the functional wrappers.

    pip install --no-deps torchdyn==1.0.6

(already installed and used: torchsde 0.2.6, torchcde 0.2.5, pytorch-lightning 2.6.6, attrs, numpy,
scipy, scikit-learn, matplotlib; torchdyn's other declared dependencies (ipykernel, ipywidgets,
poethepoet, torchvision) are imported nowhere in the package.) Nothing stubbed.

Hack: the bouncing-ball callback sets ``__hash__ = nn.Module.__hash__``: ``EventCallback`` is an
``@attr.s`` class, whose generated ``__eq__`` sets ``__hash__ = None``, and ``nn.Module`` needs a hash
(``named_modules``); eagerly unhashable otherwise.

Left out: ``NeuralSDE`` (``SDEProblem.__init__`` takes no arguments and raises ``NotImplementedError``
in 1.0.6: ``NeuralSDE(...)`` fails eagerly at construction); ``torchdyn.models.hybrid`` (``HybridNeuralDE``, ``LatentNeuralSDE``): the module fails at
import in 1.0.6 (``from torchdyn.models import LSDEFunc``, a name that no longer exists);
``ConservativeLinearSNF`` (its forward calls ``self.H`` / ``self._skew``, which it never defines:
fails eagerly); ``MultipleShootingLayer`` with ``ieuler`` (``ParallelImplicitEuler.root_solve`` takes
no ``fine_steps`` / ``maxiter`` though ``odeint_mshooting`` passes them: fails eagerly);
``torchdyn.datasets`` / ``torchdyn.utils`` (numpy / sklearn data and matplotlib plots, no model);
the Lightning ``Trainer`` loop (the loss module is the step a user compiles).
"""

import functools

PACKAGE = "torchdyn"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _D, _H = 8, 2, 16  # batch, state, hidden
_T = 5  # points of t_span


def warm_up():
    import torch  # noqa: F401
    import torchdyn.core
    import torchdyn.models
    import torchdyn.nn
    import torchdyn.numerics  # noqa: F401


@functools.cache
def _nets():
    import types

    import torch
    import torch.nn as nn
    from torchdyn.numerics import odeint, odeint_hybrid, odeint_mshooting, odeint_symplectic
    from torchdyn.numerics.utils import EventCallback

    class Learner(nn.Module):
        """The tutorials' ``training_step``: the last point of the solution, cross-entropy;
        ``dims``: the slice of the state that holds the logits (augmented models); ``intloss``:
        add the integral loss carried in ``x[:, 0]``."""

        def __init__(self, model, t_span=None, dims=None, intloss=False, chained=False, save_at=None):
            super().__init__()
            self.model, self.dims, self.intloss, self.chained = model, dims, intloss, chained
            self.save_at = save_at
            if t_span is not None:
                self.register_buffer("t_span", t_span)
            else:
                self.t_span = None
            self.loss = nn.CrossEntropyLoss()

        def forward(self, x, y):
            if self.chained:
                y_hat = self.model(x)
            elif self.save_at is not None:
                t_eval, y_hat = self.model(x, self.t_span, self.save_at)
            else:
                t_eval, y_hat = self.model(x, self.t_span) if self.t_span is not None else self.model(x)
            y_hat = y_hat[-1]
            loss = 0.
            if self.intloss:
                loss = y_hat[:, 0].mean()
                y_hat = y_hat[:, 1:]
            if self.dims is not None:
                y_hat = y_hat[:, self.dims:]
            return loss + self.loss(y_hat, y)

    class MSEStep(nn.Module):
        """MSE of the solution trajectory (or final state) against a fixed target."""

        def __init__(self, model, t_span=None, final=False):
            super().__init__()
            self.model, self.final = model, final
            self.register_buffer("t_span", t_span)

        def forward(self, x, target):
            out = self.model(x, self.t_span) if self.t_span is not None else self.model(x)
            if isinstance(out, tuple):
                out = out[1]
            if self.final:
                out = out[-1]
            return nn.functional.mse_loss(out, target)

    class CNFStep(nn.Module):
        """The CNF tutorial's loss: augment with the log-density, integrate, NLL under the prior."""

        def __init__(self, model, t_span):
            super().__init__()
            self.model = model
            self.register_buffer("t_span", t_span)
            self.prior = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))

        def forward(self, x):
            t_eval, xtrJ = self.model(x, self.t_span)
            xtrJ = xtrJ[-1]
            logprob = self.prior.log_prob(xtrJ[:, 1:]) - xtrJ[:, 0]
            return -torch.mean(logprob)

    class AugmentedNODE(nn.Module):
        """A user's model: ``Augmenter`` then a ``NeuralODE``, sliced back to the data dims."""

        def __init__(self, augmenter, node, head=None):
            super().__init__()
            self.augmenter, self.node, self.head = augmenter, node, head

        def forward(self, x, t_span):
            t_eval, sol = self.node(self.augmenter(x), t_span)
            if self.head is not None:
                return t_eval, self.head(sol)
            return t_eval, sol

    class ConvHead(nn.Module):
        """Pool each image of the trajectory to class logits (the conv tutorial's head)."""

        def __init__(self, channels, classes=2):
            super().__init__()
            self.pool, self.fc = nn.AdaptiveAvgPool2d(1), nn.Linear(channels, classes)

        def forward(self, sol):
            T, B = sol.shape[:2]
            z = self.pool(sol.flatten(0, 1)).flatten(1)
            return self.fc(z).reshape(T, B, -1)

    class EnableGrad(nn.Module):
        """Inference through a solver that differentiates inside (``MSBackward``): grad kept on."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, *args):
            with torch.enable_grad():
                return self.net(*args)

    class Trajectory(nn.Module):
        def __init__(self, node):
            super().__init__()
            self.node = node

        def forward(self, x, t_span):
            return self.node.trajectory(x, t_span)

    class VF(nn.Module):
        """A vector field ``f(t, x)`` for the functional API."""

        def __init__(self, dim=_D, order=1):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, _H), nn.Tanh(), nn.Linear(_H, dim))
            self.order = order

        def forward(self, t, x, args=None):
            return self.net(x)

    class ODEInt(nn.Module):
        """``odeint(f, x, t_span, solver)`` as a user calls it in a model's forward."""

        def __init__(self, solver, reverse=False, **kwargs):
            super().__init__()
            self.f, self.solver, self.reverse, self.kwargs = VF(), solver, reverse, kwargs

        def forward(self, x, t_span):
            if self.reverse:
                t_span = t_span.flip(0)
            t_eval, sol = odeint(self.f, x, t_span, self.solver, **self.kwargs)
            return sol

    class Symplectic(nn.Module):
        """``odeint_symplectic`` with the asynchronous leapfrog: state (q, p), field a(q)."""

        def __init__(self):
            super().__init__()
            self.f = VF(dim=_D)
            self.f.order = 1

        def forward(self, x, t_span):
            t_eval, sol = odeint_symplectic(self.f, x, t_span, solver="alf")
            return sol

    class HyperNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(_D, _H), nn.Tanh(), nn.Linear(_H, _D))

        def forward(self, t, x):
            return self.net(x)

    class HyperSolved(nn.Module):
        """The hypersolver tutorial: a ``HyperEuler`` whose correction net is trained."""

        def __init__(self):
            super().__init__()
            from torchdyn.numerics import HyperEuler

            self.f = VF()
            self.solver = HyperEuler(HyperNet())

        def forward(self, x, t_span):
            return odeint(self.f, x, t_span, self.solver)[1]

    class MShooting(nn.Module):
        def __init__(self, solver="zero"):
            super().__init__()
            self.f, self.solver = VF(), solver

        def forward(self, x, t_span):
            return odeint_mshooting(self.f, x, t_span, self.solver, fine_steps=2, maxiter=2)[1]

    class BouncingBall(EventCallback):
        """The hybrid tutorial's ball: event at height 0, velocity flipped and damped."""

        __hash__ = nn.Module.__hash__  # `@attr.s` on EventCallback sets __hash__ = None; Module needs one

        def check_event(self, t, x):
            return (x[:, 0] <= 0).any()

        def jump_map(self, t, x):
            x = x.clone()
            x[:, 1] = -0.8 * x[:, 1]
            x[:, 0] = x[:, 0].abs()
            return x

    class Gravity(nn.Module):
        def __init__(self):
            super().__init__()
            self.drag = nn.Parameter(torch.tensor(0.1))

        def forward(self, t, x):
            return torch.cat([x[:, 1:2], -9.81 - self.drag * x[:, 1:2]], 1)

    class Hybrid(nn.Module):
        def __init__(self):
            super().__init__()
            self.f, self.cb = Gravity(), BouncingBall()

        def forward(self, x, t_span):
            t_eval, sol = odeint_hybrid(self.f, x, t_span, j_span=3, solver="dopri5", callbacks=[self.cb],
                                        atol=1e-3, rtol=1e-3)
            return sol

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- data --------------------------------------------------------------------------------------

def _x(dim=_D, batch=_B):
    import torch

    return torch.randn(batch, dim)


def _labels(classes=2):
    import torch

    return torch.arange(_B) % classes


def _t_span(n=_T):
    import torch

    return torch.linspace(0, 1, n)


def _mlp(inp=_D, out=_D, hid=_H):
    import torch.nn as nn

    return nn.Sequential(nn.Linear(inp, hid), nn.Tanh(), nn.Linear(hid, out))


# --- builders ----------------------------------------------------------------------------------

def _classify(build, dim=_D, dims=None, intloss=False, t_span=True, x0=None):
    """``build()`` -> a model called ``model(x, t_span)`` returning ``(t_eval, sol)``; eval: the
    model; train: the tutorials' cross-entropy ``Learner`` step."""

    def make(mode):
        model = build()
        x = _x(dim) if x0 is None else x0()
        ts = _t_span() if t_span else None
        if mode == "train":
            return _nets().Learner(model, ts, dims=dims, intloss=intloss), (x, _labels()), {}
        return model, ((x, ts) if t_span else (x,)), {}

    return make


def _save_at(mode):
    """``model(x, t_span, save_at)``: a fixed-step solve that keeps every other point."""
    from torchdyn.core import NeuralODE

    model, ts = NeuralODE(_mlp(), solver="rk4"), _t_span()
    if mode == "train":
        return _nets().Learner(model, ts, save_at=ts[::2]), (_x(), _labels()), {}
    return model, (_x(), ts, ts[::2]), {}


def _trajectory(mode):
    """``model.trajectory(x, t_span)`` (dopri5), the tests' sanity check; train: MSE to a target."""
    import torch
    from torchdyn.core import NeuralODE

    net = _nets().Trajectory(NeuralODE(_mlp(), solver="dopri5"))
    if mode == "train":
        return _nets().MSEStep(net, _t_span()), (_x(), torch.zeros(_T, _B, _D)), {}
    return net, (_x(), _t_span()), {}


def _node(vf=None, **kwargs):
    def build():
        from torchdyn.core import NeuralODE

        return NeuralODE(_mlp() if vf is None else vf(), **kwargs)

    return build


def _intloss_x0():
    import torch

    return torch.cat([torch.zeros(_B, 1), _x()], 1)


def _reg_term(t, x):
    return 0.1 * x[:, :1]


def _node_intloss(sensitivity, solver, **kwargs):
    def build():
        from torchdyn.core import NeuralODE

        return NeuralODE(_mlp(), sensitivity=sensitivity, solver=solver, integral_loss=_reg_term, **kwargs)

    return build


def _data_control():
    import torch.nn as nn
    from torchdyn.nn import DataControl

    return nn.Sequential(DataControl(), nn.Linear(2 * _D, _H), nn.Tanh(), nn.Linear(_H, _D))


def _depth_cat():
    import torch.nn as nn
    from torchdyn.nn import DepthCat

    return nn.Sequential(DepthCat(1), nn.Linear(_D + 1, _H), nn.Tanh(), DepthCat(1), nn.Linear(_H + 1, _D))


def _order2():
    import torch.nn as nn

    return nn.Sequential(nn.Linear(2 * _D, _H), nn.Tanh(), nn.Linear(_H, _D))


def _augmented(order="first", func=False, solver="dopri5"):
    def build():
        import torch.nn as nn
        from torchdyn.core import NeuralODE
        from torchdyn.nn import Augmenter, DataControl

        if func:  # an augmenting net, and a data-controlled field on the augmented state
            aug = Augmenter(augment_idx=1, augment_func=nn.Linear(_D, 4), order=order)
            vf = nn.Sequential(DataControl(), nn.Linear(12, _H), nn.Tanh(), nn.Linear(_H, 6))
        else:
            aug = Augmenter(augment_idx=1, augment_dims=3, order=order)
            vf = _mlp(_D + 3, _D + 3)
        return _nets().AugmentedNODE(aug, NeuralODE(vf, solver=solver))

    return build


def _chained(mode):
    """The docs' chaining: ``nn.Sequential(Augmenter, NeuralODE(..., return_t_eval=False))``."""
    import torch.nn as nn
    from torchdyn.core import NeuralODE
    from torchdyn.nn import Augmenter

    node = NeuralODE(_mlp(_D + 2, _D + 2), solver="rk4", return_t_eval=False)
    node.t_span = _t_span()
    model = nn.Sequential(Augmenter(augment_idx=1, augment_dims=2), node)
    if mode == "train":
        return _nets().Learner(model, None, dims=2, chained=True), (_x(), _labels()), {}
    return model, (_x(),), {}


_BASES = {"Fourier": (5,), "Polynomial": (3,), "Chebychev": (3,), "GaussianRBF": (3,), "VanillaRBF": (3,),
          "MultiquadRBF": (3,)}


def _galerkin(basis):
    def build():
        import torch.nn as nn
        import torchdyn.nn as tnn
        from torchdyn.core import NeuralODE

        expfunc = getattr(tnn, basis)
        vf = nn.Sequential(tnn.DepthCat(1), tnn.GalLinear(_D, _H, expfunc=expfunc(*_BASES[basis])), nn.Tanh(),
                           tnn.DepthCat(1), tnn.GalLinear(_H, _D, expfunc=expfunc(*_BASES[basis])))
        return NeuralODE(vf, solver="rk4")

    return build


def _image(channels=1):
    import torch

    return torch.randn(_B, channels, 8, 8)


def _gal_conv(mode):
    import torch.nn as nn
    import torchdyn.nn as tnn
    from torchdyn.core import NeuralODE

    vf = nn.Sequential(tnn.DepthCat(1), tnn.GalConv2d(1, 4, kernel_size=3, padding=1, expfunc=tnn.Fourier(3)),
                       nn.Tanh(), tnn.DepthCat(1), tnn.GalConv2d(4, 1, kernel_size=3, padding=1,
                                                                 expfunc=tnn.Fourier(3)))
    node = NeuralODE(vf, solver="rk4")
    if mode == "train":
        model = _nets().AugmentedNODE(nn.Identity(), node, _nets().ConvHead(1))
        return _nets().Learner(model, _t_span(3)), (_image(), _labels()), {}
    return node, (_image(), _t_span(3)), {}


def _conv_node(mode):
    """The image-classification tutorial: channel augmentation, a DepthCat conv field, a head."""
    import torch.nn as nn
    from torchdyn.core import NeuralODE
    from torchdyn.nn import Augmenter, DepthCat

    vf = nn.Sequential(DepthCat(1), nn.Conv2d(5, 8, 3, padding=1), nn.Softplus(), DepthCat(1),
                       nn.Conv2d(9, 4, 3, padding=1), nn.Tanh())
    model = _nets().AugmentedNODE(Augmenter(augment_idx=1, augment_dims=3), NeuralODE(vf, solver="rk4"),
                                  _nets().ConvHead(4))
    if mode == "train":
        return _nets().Learner(model, _t_span(3)), (_image(), _labels()), {}
    return model, (_image(), _t_span(3)), {}


def _cnf(trace):
    def make(mode):
        import torch
        from torchdyn.core import NeuralODE
        from torchdyn.models import CNF, autograd_trace, hutch_trace
        from torchdyn.nn import Augmenter

        if trace == "hutch":
            noise = torch.distributions.MultivariateNormal(torch.zeros(_D), torch.eye(_D))
            cnf = CNF(_mlp(hid=_H), trace_estimator=hutch_trace, noise_dist=noise)
        else:
            cnf = CNF(_mlp(hid=_H), trace_estimator=autograd_trace)
        node = NeuralODE(cnf, solver="dopri5", sensitivity="adjoint", atol=1e-3, rtol=1e-3)
        model = _nets().AugmentedNODE(Augmenter(augment_idx=1, augment_dims=1), node)
        if mode == "train":
            return _nets().CNFStep(model, _t_span(2)), (_x(),), {}
        return model, (_x(), _t_span(2)), {}

    return make


def _energy(kind):
    def make(mode):
        import torch
        import torch.nn as nn
        from torchdyn.core import NeuralODE
        from torchdyn import models

        net = nn.Sequential(nn.Linear(_D, _H), nn.Softplus(), nn.Linear(_H, 1))
        batch = 4 if kind == "LNN" else _B
        node = NeuralODE(getattr(models, kind)(net), solver="rk4" if kind != "GNF" else "dopri5")
        x = _x(batch=batch)
        if mode == "train":
            return _nets().MSEStep(node, _t_span()), (x, torch.zeros(_T, batch, _D)), {}
        return node, (x, _t_span()), {}

    return make


def _functional(wrapper, *args, x=None, t_span=None, **kwargs):
    def make(mode):
        net = getattr(_nets(), wrapper)(*args, **kwargs)
        inputs = ((_x() if x is None else x()), (_t_span() if t_span is None else t_span()))
        return (mean_loss_module()(net) if mode == "train" else net), inputs, {}

    return make


def _ball():
    import torch

    return torch.cat([torch.rand(_B, 1) + 0.5, torch.zeros(_B, 1)], 1)


def _problem(system, sensitivity, solver, dim=_D, **kwargs):
    """``ODEProblem(system, ...)``: ``prob.odeint(x, t_span)`` (the adjoint test)."""

    def make(mode):
        import torch
        from torchdyn.core import ODEProblem
        from torchdyn.numerics import Lorenz, VanDerPol

        f = VanDerPol(0.5) if system == "VanDerPol" else Lorenz()
        prob = ODEProblem(f, sensitivity=sensitivity, solver=solver, **kwargs)
        x = _x(dim).requires_grad_(mode == "train")
        if mode == "train":
            return _nets().MSEStep(prob, _t_span(), final=True), (x, torch.zeros(_B, dim)), {}
        return prob, (x, _t_span()), {}

    return make


def _mshooting(solver, maxiter=2):
    def make(mode):
        import torch
        from torchdyn.core import MultipleShootingLayer

        model = MultipleShootingLayer(_mlp(), solver=solver, maxiter=maxiter, fine_steps=2)
        if mode == "train":
            return _nets().MSEStep(model, _t_span()), (_x(), torch.zeros(_T, _B, _D)), {}
        if solver == "backward":
            model = _nets().EnableGrad(model)
        return model, (_x(), _t_span()), {}

    return make


MODELS = {
    # NeuralODE: solvers
    "NeuralODE_tsit5_default": _classify(_node(), t_span=False),
    "NeuralODE_euler": _classify(_node(solver="euler")),
    "NeuralODE_midpoint": _classify(_node(solver="midpoint")),
    "NeuralODE_rk4": _classify(_node(solver="rk4")),
    "NeuralODE_dopri5": _classify(_node(solver="dopri5")),
    "NeuralODE_dopri5_interp4th": _classify(_node(solver="dopri5", interpolator="4th")),
    "NeuralODE_ieuler": _classify(_node(solver="ieuler")),
    "NeuralODE_rk4_save_at": _save_at,
    "NeuralODE_trajectory": _trajectory,
    # NeuralODE: sensitivities, integral losses, order, chaining
    "NeuralODE_quickstart_adjoint_tsit5": _classify(_node(solver="tsit5", sensitivity="adjoint")),
    "NeuralODE_adjoint_rk4_dopri5": _classify(_node(solver="rk4", sensitivity="adjoint", solver_adjoint="dopri5")),
    "NeuralODE_interpolated_adjoint": _classify(_node(solver="dopri5", sensitivity="interpolated_adjoint",
                                                      interpolator="4th")),
    "NeuralODE_integral_loss_autograd": _classify(_node_intloss("autograd", "rk4"), x0=_intloss_x0, intloss=True),
    "NeuralODE_integral_loss_interp_adjoint": _classify(_node_intloss("interpolated_adjoint", "dopri5",
                                                                      interpolator="4th")),
    "NeuralODE_order2": _classify(_node(_order2, solver="rk4", order=2), dim=2 * _D, dims=_D),
    "NeuralODE_chained_Sequential": _chained,
    # torchdyn.nn layers
    "NeuralODE_DataControl": _classify(_node(_data_control, solver="dopri5")),
    "NeuralODE_DepthCat": _classify(_node(_depth_cat, solver="rk4")),
    "Augmenter_zeros_NeuralODE": _classify(_augmented(), dims=3),
    "Augmenter_func_last_DataControl": _classify(_augmented(order="last", func=True), dims=4),
    "ConvNeuralODE_Augmenter_DepthCat": _conv_node,
    "GalConv2d_NeuralODE": _gal_conv,
    # torchdyn.models
    "CNF_hutch_trace": _cnf("hutch"),
    "CNF_autograd_trace": _cnf("autograd"),
    "HNN": _energy("HNN"),
    "GNF": _energy("GNF"),
    "LNN": _energy("LNN"),
    # torchdyn.numerics, functional
    "odeint_rk4": _functional("ODEInt", "rk4"),
    "odeint_dopri5": _functional("ODEInt", "dopri5"),
    "odeint_tsit5_reversed": _functional("ODEInt", "tsit5", reverse=True),
    "odeint_symplectic_alf": _functional("Symplectic", x=lambda: _x(2 * _D)),
    "odeint_HyperEuler": _functional("HyperSolved"),
    "odeint_mshooting_zero": _functional("MShooting", "zero"),
    "odeint_hybrid_bouncing_ball": _functional("Hybrid", x=_ball, t_span=lambda: _t_span(3)),
    "ODEProblem_VanDerPol_adjoint": _problem("VanDerPol", "adjoint", "dopri5", atol=1e-3, rtol=1e-3,
                                             atol_adjoint=1e-3, rtol_adjoint=1e-3),
    "ODEProblem_Lorenz_rk4": _problem("Lorenz", "autograd", "rk4", dim=3),
    # multiple shooting
    "MultipleShootingLayer_zero": _mshooting("zero"),
    "MultipleShootingLayer_backward": _mshooting("backward", maxiter=1),
}
MODELS.update({f"GalLinear_{b}": _classify(_galerkin(b)) for b in _BASES})
