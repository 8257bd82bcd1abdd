"""zuko: normalizing flows (autoregressive, coupling, spline, neural, polynomial, continuous)
on small random feature vectors, random weights. Eval: the flow's log-density of a batch;
train: its negative mean (the maximum-likelihood loss).

    pip install --no-deps zuko==1.6.0
"""

import functools

PACKAGE = "zuko"

_FEATURES = 3


@functools.cache
def _log_prob_module():
    """An nn.Module whose forward is the flow's log-density (a flow's forward returns a
    distribution, not a tensor); built once, when the first model is."""
    import torch

    class LogProb(torch.nn.Module):
        def __init__(self, flow, loss):
            super().__init__()
            self.flow, self.loss = flow, loss

        def forward(self, x, c=None):
            log_p = (self.flow(c) if c is not None else self.flow()).log_prob(x)
            return -log_p.mean() if self.loss else log_p

    return LogProb


def _flow(name, context=0, **kwargs):
    def make(mode):
        import torch
        import zuko

        flow = getattr(zuko.flows, name)(features=_FEATURES, context=context, **kwargs)
        x = torch.rand(8, _FEATURES) * 2 - 1  # inside [-1, 1]: the circular and bounded flows accept it
        args = (x, torch.randn(8, context)) if context else (x,)
        return _log_prob_module()(flow, mode == "train"), args, {}

    return make


def _sample(name, **kwargs):
    def make(mode):
        import zuko

        flow = getattr(zuko.flows, name)(features=_FEATURES, **kwargs)
        return (lambda: flow().rsample((8,))), (), {}

    return make


MODELS = {
    "MAF": _flow("MAF", transforms=2, hidden_features=(16, 16)),
    "MAF_context": _flow("MAF", context=2, transforms=2, hidden_features=(16, 16)),
    "MAF_passes": _flow("MAF", transforms=2, passes=2, hidden_features=(16,)),
    "NSF": _flow("NSF", bins=4, transforms=2, hidden_features=(16,)),
    "NSF_context": _flow("NSF", context=2, bins=4, transforms=2, hidden_features=(16,)),
    "NCSF": _flow("NCSF", bins=4, transforms=2, hidden_features=(16,)),
    "SOSPF": _flow("SOSPF", degree=2, polynomials=2, transforms=2, hidden_features=(16,)),
    "NAF": _flow("NAF", transforms=2, signal=4, hidden_features=(16,)),
    "UNAF": _flow("UNAF", transforms=2, signal=4, hidden_features=(16,)),
    "BPF": _flow("BPF", degree=4, transforms=2, hidden_features=(16,)),
    "GF": _flow("GF", transforms=2, components=4),
    "NICE": _flow("NICE", transforms=2, hidden_features=(16,)),
    "RealNVP": _flow("RealNVP", transforms=2, hidden_features=(16,)),
    "CNF": _flow("CNF", hidden_features=(16,)),
    "GMM": _flow("GMM", components=3),
    "MAF_sample": _sample("MAF", transforms=2, hidden_features=(16,)),
    "NSF_sample": _sample("NSF", bins=4, transforms=2, hidden_features=(16,)),
}
