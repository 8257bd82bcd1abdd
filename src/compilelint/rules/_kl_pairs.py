"""`torch.distributions.kl_divergence(p, q)` for CL119 (the knowledge row of the "dispatch"
form). The first call for a pair of classes looks the pair up in torch's KL registry; where
more than one registered pair matches (two exponential-family distributions match their own
pair and `ExponentialFamily`'s), torch picks the closest with `min()` over objects Dynamo
cannot compare (GB0059). A pair with one match is traced. Only the classes the call shows are
read: a constructor call in place, or a name the function binds once to one.
"""

from __future__ import annotations

import libcst as cst

DISTRIBUTIONS = "torch.distributions."
INDEPENDENT = "Independent"  # its own pair, then the pair of what it wraps

# the pairs of torch's registry (torch/distributions/kl.py, 2.11 to 2.14) that match more than one
# registered pair: each first call for one breaks
MULTI_PAIRS = frozenset({
    ("Bernoulli", "Bernoulli"), ("Bernoulli", "Poisson"), ("Poisson", "Bernoulli"), ("Poisson", "Poisson"),
    ("Beta", "Beta"), ("Beta", "ContinuousBernoulli"), ("Beta", "Exponential"), ("Beta", "Gamma"),
    ("Beta", "Normal"), ("ContinuousBernoulli", "ContinuousBernoulli"), ("ContinuousBernoulli", "Exponential"),
    ("ContinuousBernoulli", "Normal"), ("Dirichlet", "Dirichlet"), ("Exponential", "Beta"),
    ("Exponential", "ContinuousBernoulli"), ("Exponential", "Exponential"), ("Exponential", "Gamma"),
    ("Exponential", "Normal"), ("Gamma", "Beta"), ("Gamma", "ContinuousBernoulli"), ("Gamma", "Exponential"),
    ("Gamma", "Gamma"), ("Gamma", "Normal"), ("Normal", "Beta"), ("Normal", "ContinuousBernoulli"),
    ("Normal", "Exponential"), ("Normal", "Gamma"), ("Normal", "Normal"), ("Gumbel", "Gumbel"),
    ("Gumbel", "Pareto"), ("HalfNormal", "HalfNormal"), ("Pareto", "Pareto"),
})


def kl_severity(ctx, node: cst.Call) -> str | None:
    """"error" when both classes are known and their pair matches twice; "warning" when one is
    known and would match twice against its own kind (a `Normal(0, 1)` prior: the posterior
    is one too, as a rule); None for a pair with one match, or nothing known."""
    args = [a.value for a in node.args if not a.star]
    if len(args) != 2 or len(args) != len(node.args):
        return None
    p, q = (_distribution(ctx, arg, 0) for arg in args)
    if p and q:
        return "error" if (p, q) in MULTI_PAIRS else None
    known = p or q
    return "warning" if known and (known, known) in MULTI_PAIRS else None


def _distribution(ctx, expr: cst.BaseExpression, depth: int) -> str | None:
    """The torch.distributions class `expr` is built from, through `Independent` (its base)."""
    if depth > 4:
        return None
    if isinstance(expr, cst.Name) and ctx.function is not None:
        bound = ctx.local_flag(expr.value)
        return _distribution(ctx, bound, depth + 1) if bound is not None else None
    if not isinstance(expr, cst.Call):
        return None
    qualified = ctx.qualify(expr.func) or ""
    if not qualified.startswith(DISTRIBUTIONS):
        return None
    name = qualified.rsplit(".", 1)[-1]
    if name == INDEPENDENT:
        base = next((a.value for a in expr.args if a.keyword is None or a.keyword.value == "base_distribution"), None)
        return _distribution(ctx, base, depth + 1) if base is not None else None
    return name
