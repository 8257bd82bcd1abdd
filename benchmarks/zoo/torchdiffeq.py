"""torchdiffeq: `odeint` through each solver (fixed-grid and adaptive), its adjoint and its
event handling, on a small neural ODE (an MLP vector field), random weights. Train: the
mean of the final state (what a neural-ODE loss backpropagates through).

    pip install --no-deps torchdiffeq==0.2.5          # (+ scipy)
"""

import functools

PACKAGE = "torchdiffeq"


@functools.cache
def _ode_module():
    import torch

    class Field(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))

        def forward(self, t, y):
            return self.net(y)

    class NeuralODE(torch.nn.Module):
        def __init__(self, method, adjoint, loss, options):
            super().__init__()
            self.field, self.method, self.adjoint, self.loss, self.options = Field(), method, adjoint, loss, options

        def forward(self, y0, t):
            import torchdiffeq

            solve = torchdiffeq.odeint_adjoint if self.adjoint else torchdiffeq.odeint
            ys = solve(self.field, y0, t, method=self.method, rtol=1e-3, atol=1e-4, options=self.options)
            return ys[-1].mean() if self.loss else ys

    return NeuralODE


def _solve(method, adjoint=False, **options):
    def make(mode):
        import torch

        model = _ode_module()(method, adjoint, mode == "train", options or None)
        return model, (torch.randn(3, 4), torch.linspace(0.0, 1.0, 3)), {}

    return make


def _event(mode):
    import torch
    import torchdiffeq

    field = _ode_module()("dopri5", False, False, None).field

    def run(y0):
        return torchdiffeq.odeint_event(field, y0, torch.tensor(0.0), event_fn=lambda t, y: y.sum() - 10.0,
                                        method="rk4", options={"step_size": 0.1})

    return run, (torch.randn(4) * 0.1,), {}


MODELS = {
    **{m: _solve(m) for m in ("dopri5", "dopri8", "bosh3", "fehlberg2", "adaptive_heun")},
    **{m: _solve(m, step_size=0.25) for m in ("euler", "midpoint", "heun3", "rk4", "explicit_adams",
                                             "implicit_adams")},
    "fixed_adams": _solve("fixed_adams", step_size=0.25),
    "dopri5_adjoint": _solve("dopri5", adjoint=True),
    "rk4_adjoint": _solve("rk4", adjoint=True, step_size=0.25),
    "odeint_event": _event,
}
