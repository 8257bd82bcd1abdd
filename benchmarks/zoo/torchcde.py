"""torchcde (patrick-kidger) 0.2.5: neural controlled differential equations as its README and
examples build them, tiny (batch 4, 10 observations of 3 channels with time as channel 0, a
hidden state of 8, the vector field a 32-wide MLP), random weights, no download:

- the controls: ``hermite_cubic_coefficients_with_backward_differences`` + ``CubicSpline``
  (the README's default), ``linear_interpolation_coeffs`` + ``LinearInterpolation``, its
  ``rectilinear=0`` form, ``natural_cubic_coeffs`` + ``CubicSpline``, the deprecated
  ``natural_cubic_spline_coeffs`` (irregular_data.py; 0.2.5 exports no ``NaturalCubicSpline``,
  so ``CubicSpline`` reads them), explicit
  observation times ``t=``, and ``TupleControl`` for a tupled state; the coefficients are the
  input (computed once as preprocessing, as the README recommends) and the spline is built inside
  the forward (time_series_classification.py), or the coefficients are computed inside the
  forward from raw observations (irregular_data.py's ``_solve_cde``; with NaNs for missing values
  and a rectilinear causal path);
- ``cdeint`` with the adaptive solvers (``dopri5`` the default, ``bosh3``, ``adaptive_heun``,
  ``dopri8``), ``jump_t=X.grid_points`` for the kinks of linear paths, the fixed-grid solvers
  (``euler``, ``midpoint``, ``rk4``) with the README's ``step_size``, ``adjoint=True`` (the
  default) and ``False``, ``adjoint_params`` when the control itself is learned, the output at
  ``X.grid_points`` (sequence to sequence), a vector field with a ``prod`` method, stacked CDEs
  (the output of one CDE interpolated to control another), and the ``torchsde`` backend (its
  reversible Heun solver, with and without its adjoint);
- the controls alone: ``CubicSpline.evaluate`` / ``LinearInterpolation.derivative`` at many times.

Eval: the classifier logits (or the readout sequence / the spline values). Train: the
cross-entropy of the logits (``classifier_loss_module``, 2 classes) for the classifiers, the mean
of the output (``mean_loss_module``) for the others.

    pip install --no-deps torchcde==0.2.5          # (+ torchdiffeq, torchsde, scipy: above)

It imports torch, torchdiffeq and torchsde. Nothing stubbed.

Left out: ``logsignature_windows`` / ``logsig_windows`` (the log-ODE method) need ``signatory``,
a C++ extension built against one torch version (not installed: log_ode.py imports a dummy that
raises on use).
"""

import functools

PACKAGE = "torchcde"

_B, _LEN, _CH, _HID, _WIDTH, _CLASSES = 4, 10, 3, 8, 32, 2
mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite


def warm_up():
    import torch  # noqa: F401
    import torchcde  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torchcde

    class CDEFunc(torch.nn.Module):
        """time_series_classification.py's vector field: an MLP of z, a (hidden x input) matrix."""

        def __init__(self, input_channels=_CH, hidden_channels=_HID):
            super().__init__()
            self.input_channels, self.hidden_channels = input_channels, hidden_channels
            self.linear1 = torch.nn.Linear(hidden_channels, _WIDTH)
            self.linear2 = torch.nn.Linear(_WIDTH, input_channels * hidden_channels)

        def forward(self, t, z):
            z = self.linear2(self.linear1(z).relu()).tanh()
            return z.view(z.size(0), self.hidden_channels, self.input_channels)

    class ProdFunc(CDEFunc):
        """A vector field with ``prod``: cdeint calls ``prod(t, z, dXdt)`` for f(t, z) dX/dt."""

        def prod(self, t, z, dXdt):
            return (self(t, z) @ dXdt.unsqueeze(-1)).squeeze(-1)

    class TupleFunc(torch.nn.Module):
        """A tupled state: one vector field per (state, control) pair."""

        def __init__(self):
            super().__init__()
            self.f1, self.f2 = CDEFunc(_CH, _HID), CDEFunc(2, _HID // 2)

        def forward(self, t, z):
            return self.f1(t, z[0]), self.f2(t, z[1])

    class NeuralCDE(torch.nn.Module):
        """time_series_classification.py's NeuralCDE: the spline of the coefficients, z0 from the
        first observation, ``cdeint`` over ``X.interval``, a linear readout of the final state.
        ``interpolation``: "cubic" (``CubicSpline``) or "linear" (``LinearInterpolation``); ``jump_t``: tell an adaptive solver about the knots;
        ``step``: the README's fixed-solver step size (the smallest gap between knots);
        ``grid``: output at every knot and read each one out (sequence to sequence)."""

        def __init__(self, interpolation="cubic", func=None, times=None, jump_t=False, step=False,
                     grid=False, **cdeint_kwargs):
            super().__init__()
            self.func = func if func is not None else CDEFunc()
            self.initial = torch.nn.Linear(_CH, _HID)
            self.readout = torch.nn.Linear(_HID, _CLASSES)
            self.interpolation, self.jump_t, self.step, self.grid = interpolation, jump_t, step, grid
            self.cdeint_kwargs = cdeint_kwargs
            self.times = times

        def control(self, coeffs):
            if self.interpolation == "cubic":
                return torchcde.CubicSpline(coeffs, t=self.times)
            if self.interpolation == "linear":
                return torchcde.LinearInterpolation(coeffs, t=self.times)
            raise ValueError(f"unknown interpolation {self.interpolation!r}")

        def forward(self, coeffs):
            X = self.control(coeffs)
            z0 = self.initial(X.evaluate(X.interval[0]))
            kwargs = dict(self.cdeint_kwargs)
            options = dict(kwargs.pop("options", {}))
            if self.jump_t:
                options["jump_t"] = X.grid_points
            if self.step:
                options["step_size"] = (X.grid_points[1:] - X.grid_points[:-1]).min()
            if options:
                kwargs["options"] = options
            t = X.grid_points if self.grid else X.interval
            z = torchcde.cdeint(X=X, func=self.func, z0=z0, t=t, **kwargs)
            if self.grid:
                return self.readout(z)  # (batch, length, classes)
            return self.readout(z[:, -1])

    class RawCDE(NeuralCDE):
        """irregular_data.py's ``_solve_cde``: the coefficients computed inside the forward from
        the raw observations (``coeffs``: "hermite", "natural", "linear" or "rectilinear")."""

        def __init__(self, coeffs="hermite", **kwargs):
            interpolation = "cubic" if coeffs in ("hermite", "natural") else "linear"
            super().__init__(interpolation=interpolation, **kwargs)
            self.coeffs = coeffs

        def forward(self, x):
            if self.coeffs == "hermite":
                c = torchcde.hermite_cubic_coefficients_with_backward_differences(x)
            elif self.coeffs == "natural":
                c = torchcde.natural_cubic_spline_coeffs(x)
            elif self.coeffs == "linear":
                c = torchcde.linear_interpolation_coeffs(x)
            else:
                c = torchcde.linear_interpolation_coeffs(x, rectilinear=0)
            return super().forward(c)

    class LearnedPathCDE(torch.nn.Module):
        """A control that is itself learned: a linear embedding of the observations, then Hermite
        coefficients; with the adjoint, the README's ``adjoint_params`` (the vector field's and
        the embedding's parameters, and the coefficients)."""

        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Linear(_CH, _CH)
            self.func = CDEFunc()
            self.initial = torch.nn.Linear(_CH, _HID)
            self.readout = torch.nn.Linear(_HID, _CLASSES)

        def forward(self, x):
            coeffs = torchcde.hermite_cubic_coefficients_with_backward_differences(self.embed(x))
            X = torchcde.CubicSpline(coeffs)
            z0 = self.initial(X.evaluate(X.interval[0]))
            adjoint_params = tuple(self.func.parameters()) + tuple(self.embed.parameters()) + (coeffs,)
            z = torchcde.cdeint(X=X, func=self.func, z0=z0, t=X.interval, adjoint_params=adjoint_params)
            return self.readout(z[:, -1])

    class TupleCDE(torch.nn.Module):
        """A tupled state driven by a ``TupleControl`` of two splines (all channels, and the
        first two alone)."""

        def __init__(self):
            super().__init__()
            self.func = TupleFunc()
            self.initial1, self.initial2 = torch.nn.Linear(_CH, _HID), torch.nn.Linear(2, _HID // 2)
            self.readout = torch.nn.Linear(_HID + _HID // 2, _CLASSES)

        def forward(self, coeffs1, coeffs2):
            X1, X2 = torchcde.CubicSpline(coeffs1), torchcde.CubicSpline(coeffs2)
            X = torchcde.TupleControl(X1, X2)
            x0 = X.evaluate(X.interval[0])
            z0 = (self.initial1(x0[0]), self.initial2(x0[1]))
            z1, z2 = torchcde.cdeint(X=X, func=self.func, z0=z0, t=X.interval, adjoint=False)
            return self.readout(torch.cat([z1[:, -1], z2[:, -1]], dim=-1))

    class StackedCDE(torch.nn.Module):
        """The README's second way of stacking CDEs: the first CDE's output at every knot,
        interpolated (Hermite) into a path that controls the second CDE."""

        def __init__(self):
            super().__init__()
            self.func1, self.func2 = CDEFunc(_CH, _HID), CDEFunc(_HID, _HID)
            self.initial1, self.initial2 = torch.nn.Linear(_CH, _HID), torch.nn.Linear(_HID, _HID)
            self.readout = torch.nn.Linear(_HID, _CLASSES)

        def forward(self, coeffs):
            X = torchcde.CubicSpline(coeffs)
            z = torchcde.cdeint(X=X, func=self.func1, z0=self.initial1(X.evaluate(X.interval[0])),
                                t=X.grid_points, adjoint=False)
            Z = torchcde.CubicSpline(torchcde.hermite_cubic_coefficients_with_backward_differences(z))
            u = torchcde.cdeint(X=Z, func=self.func2, z0=self.initial2(z[:, 0]), t=Z.interval, adjoint=False)
            return self.readout(u[:, -1])

    class SplineQuery(torch.nn.Module):
        """The control alone: ``evaluate`` (cubic) or ``derivative`` (linear) at many times."""

        def __init__(self, kind):
            super().__init__()
            self.kind = kind
            self.proj = torch.nn.Linear(_CH, _CH)

        def forward(self, coeffs, t):
            if self.kind == "cubic":
                return self.proj(torchcde.CubicSpline(coeffs).evaluate(t))
            return self.proj(torchcde.LinearInterpolation(coeffs).derivative(t))

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _observations(missing=False, irregular=False):
    """``(batch, length, channels)`` spirals-like observations, time as channel 0 (regular
    ``linspace(0, 1)``, or sorted random times when ``irregular``); ``missing``: NaN where a
    channel was not observed (the irregular_data.py example)."""
    import math

    import torch

    if irregular:
        t = torch.rand(_B, _LEN).sort(dim=1).values
    else:
        t = torch.linspace(0.0, 1.0, _LEN).unsqueeze(0).expand(_B, _LEN)
    start = torch.rand(_B, 1) * 2 * math.pi
    x = torch.cos(start + 4 * math.pi * t) / (1 + t)
    y = torch.sin(start + 4 * math.pi * t) / (1 + t)
    obs = torch.stack([t, x, y], dim=2)
    if missing:
        drop = torch.rand(_B, _LEN, _CH - 1) < 0.3
        drop[:, 0] = False  # every channel observed at the start
        obs[..., 1:] = obs[..., 1:].masked_fill(drop, float("nan"))
    return obs


def _coeffs(kind, x=None, t=None):
    import torchcde

    x = _observations() if x is None else x
    if kind == "hermite":
        return torchcde.hermite_cubic_coefficients_with_backward_differences(x, t=t)
    if kind == "natural":
        return torchcde.natural_cubic_coeffs(x, t=t)
    if kind == "natural_spline":
        return torchcde.natural_cubic_spline_coeffs(x, t=t)
    if kind == "linear":
        return torchcde.linear_interpolation_coeffs(x, t=t)
    if kind == "rectilinear":
        return torchcde.linear_interpolation_coeffs(x, rectilinear=0)
    raise ValueError(kind)


def _classifier(net, args, mode):
    if mode == "train":
        return classifier_loss_module()(net, _B, _CLASSES), args, {}
    return net, args, {}


# --- models ------------------------------------------------------------------------------------

def _ncde(coeffs="hermite", interpolation="cubic", **kwargs):
    """``NeuralCDE(coeffs)`` on precomputed coefficients."""

    def make(mode):
        net = _nets().NeuralCDE(interpolation=interpolation, **kwargs)
        return _classifier(net, (_coeffs(coeffs),), mode)

    return make


def _ncde_times(mode):
    """Explicit observation times ``t=`` for both the coefficients and the spline."""
    import torch

    t = torch.linspace(0.0, 2.0, _LEN)
    net = _nets().NeuralCDE(times=t)
    return _classifier(net, (_coeffs("hermite", t=t),), mode)


def _ncde_prod(mode):
    net = _nets().NeuralCDE(func=_nets().ProdFunc())
    return _classifier(net, (_coeffs("hermite"),), mode)


def _ncde_grid(interpolation="cubic", coeffs="hermite"):
    """Output at every knot (``t=X.grid_points``), a readout per step; train: its mean."""

    def make(mode):
        net = _nets().NeuralCDE(interpolation=interpolation, grid=True)
        args = (_coeffs(coeffs),)
        return (mean_loss_module()(net) if mode == "train" else net), args, {}

    return make


def _raw(coeffs, missing=False, irregular=False, **kwargs):
    """``RawCDE``: the coefficients computed inside the forward from the observations."""

    def make(mode):
        net = _nets().RawCDE(coeffs=coeffs, **kwargs)
        return _classifier(net, (_observations(missing=missing, irregular=irregular),), mode)

    return make


def _learned_path(mode):
    return _classifier(_nets().LearnedPathCDE(), (_observations(),), mode)


def _tuple(mode):
    x = _observations()
    return _classifier(_nets().TupleCDE(), (_coeffs("hermite", x), _coeffs("hermite", x[..., :2])), mode)


def _stacked(mode):
    return _classifier(_nets().StackedCDE(), (_coeffs("hermite"),), mode)


def _query(kind):
    def make(mode):
        import torch

        net = _nets().SplineQuery(kind)
        args = (_coeffs("hermite" if kind == "cubic" else "linear"), torch.linspace(0.0, _LEN - 1.0, 25))
        return (mean_loss_module()(net) if mode == "train" else net), args, {}

    return make


MODELS = {
    # Hermite cubic splines (the README's default) through the solvers
    "NCDE_hermite_dopri5_adjoint": _ncde(),
    "NCDE_hermite_dopri5": _ncde(adjoint=False),
    "NCDE_hermite_bosh3": _ncde(adjoint=False, method="bosh3"),
    "NCDE_hermite_adaptive_heun": _ncde(adjoint=False, method="adaptive_heun"),
    "NCDE_hermite_dopri8_tol": _ncde(adjoint=False, method="dopri8", rtol=1e-3, atol=1e-5),
    "NCDE_hermite_rk4_adjoint": _ncde(method="rk4", step=True),
    "NCDE_hermite_times": _ncde_times,
    "NCDE_hermite_prod": _ncde_prod,
    "NCDE_hermite_grid_points": _ncde_grid(),
    # natural cubic splines
    "NCDE_natural_cubic": _ncde(coeffs="natural", adjoint=False),
    "NCDE_natural_cubic_spline_coeffs": _ncde(coeffs="natural_spline", adjoint=False),
    # linear and rectilinear paths
    "NCDE_linear_dopri5_jump_t": _ncde(coeffs="linear", interpolation="linear", jump_t=True, adjoint=False),
    "NCDE_linear_dopri5_jump_t_adjoint": _ncde(coeffs="linear", interpolation="linear", jump_t=True),
    "NCDE_linear_euler": _ncde(coeffs="linear", interpolation="linear", step=True, adjoint=False, method="euler"),
    "NCDE_linear_midpoint": _ncde(coeffs="linear", interpolation="linear", step=True, adjoint=False,
                                  method="midpoint"),
    "NCDE_linear_rk4": _ncde(coeffs="linear", interpolation="linear", step=True, adjoint=False, method="rk4"),
    "NCDE_linear_grid_points": _ncde_grid(interpolation="linear", coeffs="linear"),
    "NCDE_rectilinear_dopri5_jump_t": _ncde(coeffs="rectilinear", interpolation="linear", jump_t=True,
                                            adjoint=False),
    # the torchsde backend (the noise is zero: still an ODE)
    "NCDE_torchsde_reversible_heun": _ncde(adjoint=False, backend="torchsde", method="reversible_heun", dt=0.25),
    "NCDE_torchsde_reversible_heun_adjoint": _ncde(backend="torchsde", method="reversible_heun", dt=0.25,
                                                   adjoint_method="adjoint_reversible_heun"),
    "NCDE_torchsde_midpoint": _ncde(adjoint=False, backend="torchsde", method="midpoint", dt=0.25),
    # coefficients computed in the forward (irregular_data.py)
    "RawCDE_hermite": _raw("hermite", adjoint=False),
    "RawCDE_natural_irregular": _raw("natural", irregular=True),
    "RawCDE_natural_missing": _raw("natural", missing=True, irregular=True),
    "RawCDE_linear_missing_jump_t": _raw("linear", missing=True, jump_t=True, adjoint=False),
    "RawCDE_rectilinear_missing_euler": _raw("rectilinear", missing=True, step=True, adjoint=False, method="euler"),
    # composite models
    "LearnedPathCDE_adjoint_params": _learned_path,
    "TupleControl_CDE": _tuple,
    "StackedCDE": _stacked,
    # the controls alone
    "CubicSpline_evaluate": _query("cubic"),
    "LinearInterpolation_derivative": _query("linear"),
}
