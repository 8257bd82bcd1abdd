"""botorch: Bayesian optimisation on gpytorch. Surrogate models (SingleTaskGP with its default
priors and transforms, fixed noise, two outputs, input warping; MultiTaskGP,
KroneckerMultiTaskGP, ModelListGP, SingleTaskMultiFidelityGP, MixedSingleTaskGP, HigherOrderGP,
SingleTaskVariationalGP, PairwiseGP, SaasFullyBayesianSingleTaskGP) and acquisition functions
on them: analytic (EI, LogEI, UCB, PI, PosteriorMean, LogNEI, constrained EI, EHVI), Monte
Carlo with a SobolQMCNormalSampler (qEI, qLogEI, qNEI, qLogNEI with and without outcome
constraints, qUCB, qSimpleRegret, qKnowledgeGradient, qMultiFidelityKnowledgeGradient,
qMaxValueEntropy, qNegIntegratedPosteriorVariance, ParEGO's Chebyshev scalarisation) and
multi-objective (qLogEHVI, qEHVI, qNEHVI, qLogNEHVI on two objectives). Tiny data as in the
tutorials and tests: 12 random points in 2-3 dims, double precision, hyperparameters at their
defaults (no fitting).

A surrogate model's "eval" runs ``model.posterior(X)`` on 4 new points and returns its mean
and variance (or draws Sobol QMC samples from it); its "train" runs the loss closure
``fit_gpytorch_mll`` optimises (``get_loss_closure(mll)``: the negated ExactMarginalLogLikelihood,
SumMarginalLogLikelihood for ModelListGP, VariationalELBO, PairwiseLaplaceMarginalLogLikelihood)
with the model in training mode. An acquisition function's "eval" is its value on a batch of
candidates (``b x q x d``), the model in eval mode as after fitting; its "train" is the loss
``optimize_acqf`` differentiates (``gen_candidates_scipy`` / ``gen_candidates_torch``):
``-acqf(X).sum()`` with ``X.requires_grad``, the model still in eval mode.

    pip install --no-deps botorch==0.17.2 pyre-extensions==0.0.32 multipledispatch==1.0.0

(botorch 0.17.2 needs gpytorch>=1.15.2, linear_operator>=0.6.1, pyro-ppl>=1.8.4, scipy,
typing_extensions, threadpoolctl, all installed already with gpytorch.py's and pyro.py's lines;
0.17.2 is the newest that takes gpytorch 1.15.2 / linear_operator 0.6.1 / pyro-ppl 1.9.2 as
they are: 0.18.0 replaces pyro-ppl with jax, jaxlib and numpyro, 0.18.1 requires ninja.)
Nothing is stubbed.

Left out: HeteroskedasticSingleTaskGP (no longer in botorch: gp_regression.py says it was
removed); fitting itself
(``fit_gpytorch_mll``, ``optimize_acqf``: scipy L-BFGS-B loops in NumPy around the closures
captured here) and NUTS for the fully Bayesian model (its MCMC samples are made up and loaded
with ``load_mcmc_samples``, as botorch's tests do; its "train" is the negated qLogNEI instead
of an MLL it does not have).

Captured on torch 2.13 CPU: every model builds and runs eagerly in both modes; 9 of the 80 runs
fail under Dynamo itself (recursion inside linear_operator's ``__torch_function__``:
HigherOrderGP[eval], KroneckerMultiTaskGP[eval], qKnowledgeGradient[eval, train],
qMultiFidelityKnowledgeGradient[eval, train], qNegIntegratedPosteriorVariance[eval, train];
a KeyError on ``raw_covar_factor_constraint``: MultiTaskGP[eval]).
"""

import functools

PACKAGE = "botorch"

_N, _D, _B, _Q = 12, 2, 3, 2  # training points, input dims, candidate batch, candidates per batch


def _tkw():
    import torch

    return {"dtype": torch.double}


def _data(n=_N, d=_D, m=1, noise=0.05):
    """Random inputs in the unit cube and smooth targets (m of them) with noise."""
    import torch

    x = torch.rand(n, d, **_tkw())
    f = [torch.sin(6 * x).sum(-1) - (x - 0.5).pow(2).sum(-1),
         torch.cos(4 * x).sum(-1) + x[:, 0]]
    y = torch.stack(f[:m], -1) + noise * torch.randn(n, m, **_tkw())
    return x, y


@functools.cache
def _wrappers():
    import torch

    class PosteriorMoments(torch.nn.Module):
        """eval: the posterior mean and variance at new points."""

        def __init__(self, model, **kwargs):
            super().__init__()
            self.model, self.kwargs = model, kwargs

        def forward(self, X):
            post = self.model.posterior(X, **self.kwargs)
            return post.mean, post.variance

    class PosteriorSamples(torch.nn.Module):
        """eval: quasi-MC samples of the posterior (what an MC acquisition function draws)."""

        def __init__(self, model, sampler):
            super().__init__()
            self.model, self.sampler = model, sampler

        def forward(self, X):
            return self.sampler(self.model.posterior(X))

    class MLLLoss(torch.nn.Module):
        """train: the loss closure fit_gpytorch_mll minimises (the negated marginal log likelihood)."""

        def __init__(self, mll):
            super().__init__()
            from botorch.optim.closures import get_loss_closure

            self.mll = mll
            self.closure = get_loss_closure(mll)

        def forward(self):
            return self.closure().sum()  # ForwardBackwardClosure's reducer (a batched model's MLLs)

    return PosteriorMoments, PosteriorSamples, MLLLoss


def _sampler(n=32):
    import torch
    from botorch.sampling import SobolQMCNormalSampler

    return SobolQMCNormalSampler(sample_shape=torch.Size([n]), seed=0)


# --- surrogate models ---------------------------------------------------------------------------

def _model(build, mll="exact", test_d=_D):
    """build() -> (model, train_X, train_Y); eval: its posterior at 4 points; train: get_loss_closure(mll)()."""

    def make(mode):
        import gpytorch
        import torch

        model, _, _ = build()
        PosteriorMoments, _, MLLLoss = _wrappers()
        if mode == "train":
            if mll == "exact":
                loss = gpytorch.mlls.ExactMarginalLogLikelihood(model.likelihood, model)
            elif mll == "sum":
                loss = gpytorch.mlls.SumMarginalLogLikelihood(model.likelihood, model)
            elif mll == "elbo":
                loss = gpytorch.mlls.VariationalELBO(model.likelihood, model.model, num_data=_N)
            elif mll == "pairwise":
                from botorch.models import PairwiseLaplaceMarginalLogLikelihood

                loss = PairwiseLaplaceMarginalLogLikelihood(model.likelihood, model)
            else:
                raise ValueError(mll)
            return MLLLoss(loss), (), {}
        return PosteriorMoments(model), (torch.rand(4, test_d, **_tkw()),), {}

    return make


def _single_task():
    from botorch.models import SingleTaskGP

    x, y = _data()
    return SingleTaskGP(x, y), x, y  # default: dim-scaled RBF prior, Standardize outcome transform


def _single_task_transforms():
    import torch
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Normalize, Standardize

    x, y = _data()
    x = 10 * x - 5  # raw bounds [-5, 5]
    bounds = torch.tensor([[-5.0] * _D, [5.0] * _D], **_tkw())
    model = SingleTaskGP(x, y, input_transform=Normalize(d=_D, bounds=bounds), outcome_transform=Standardize(m=1))
    return model, x, y


def _single_task_fixed_noise():
    import torch
    from botorch.models import SingleTaskGP

    x, y = _data()
    return SingleTaskGP(x, y, train_Yvar=torch.full_like(y, 0.01)), x, y


def _single_task_matern():
    import gpytorch
    from botorch.models import SingleTaskGP

    x, y = _data()
    covar = gpytorch.kernels.ScaleKernel(gpytorch.kernels.MaternKernel(
        nu=2.5, ard_num_dims=_D, lengthscale_prior=gpytorch.priors.GammaPrior(3.0, 6.0)),
        outputscale_prior=gpytorch.priors.GammaPrior(2.0, 0.15))
    return SingleTaskGP(x, y, covar_module=covar), x, y


def _single_task_two_outputs():
    from botorch.models import SingleTaskGP

    x, y = _data(m=2)
    return SingleTaskGP(x, y), x, y


def _single_task_warp():
    from botorch.models import SingleTaskGP
    from botorch.models.transforms.input import Warp

    x, y = _data()
    return SingleTaskGP(x, y, input_transform=Warp(d=_D, indices=list(range(_D)))), x, y


def _multi_task():
    import torch
    from botorch.models import MultiTaskGP

    x, y = _data()
    x = torch.cat([x, (torch.arange(_N) % 2).to(x).unsqueeze(-1)], -1)
    return MultiTaskGP(x, y, task_feature=-1), x, y


def _kronecker_multi_task():
    from botorch.models import KroneckerMultiTaskGP

    x, y = _data(m=2)
    return KroneckerMultiTaskGP(x, y), x, y


def _model_list():
    from botorch.models import ModelListGP, SingleTaskGP

    x, y = _data(m=2)
    return ModelListGP(SingleTaskGP(x, y[:, :1]), SingleTaskGP(x, y[:, 1:])), x, y


def _multi_fidelity():
    import torch
    from botorch.models import SingleTaskMultiFidelityGP

    x, y = _data()
    x = torch.cat([x, torch.rand(_N, 1, **_tkw())], -1)  # the last column: the fidelity
    return SingleTaskMultiFidelityGP(x, y, data_fidelities=[_D]), x, y


def _mixed():
    import torch
    from botorch.models import MixedSingleTaskGP

    x, y = _data()
    x = torch.cat([x, torch.randint(0, 3, (_N, 1)).to(x)], -1)  # the last column: a category
    return MixedSingleTaskGP(x, y, cat_dims=[_D]), x, y


def _higher_order():
    import torch
    from botorch.models import HigherOrderGP

    x, _ = _data()
    y = torch.sin(6 * x[:, :1, None] * torch.linspace(0, 1, 3, **_tkw())[None, :, None]
                  + torch.linspace(0, 1, 4, **_tkw()))  # n x 3 x 4 outputs
    y = y + 0.05 * torch.randn_like(y)
    return HigherOrderGP(x, y), x, y


def _variational():
    from botorch.models import SingleTaskVariationalGP

    x, y = _data()
    return SingleTaskVariationalGP(x, y, inducing_points=6), x, y


def _pairwise():
    import torch
    from botorch.models import PairwiseGP

    x, y = _data()
    pairs = torch.combinations(torch.arange(_N), 2)[torch.randperm(_N * (_N - 1) // 2)[:16]]
    swap = y[pairs[:, 0], 0] < y[pairs[:, 1], 0]  # the preferred point first
    comparisons = torch.where(swap.unsqueeze(-1), pairs.flip(-1), pairs)
    return PairwiseGP(x, comparisons), x, y


def _saas_fully_bayesian():
    """A SAAS GP with 4 made-up posterior draws loaded as NUTS would leave them."""
    import torch
    from botorch.models import SaasFullyBayesianSingleTaskGP

    x, y = _data()
    model = SaasFullyBayesianSingleTaskGP(x, y)
    s = 4
    model.load_mcmc_samples({
        "mean": 0.1 * torch.randn(s, **_tkw()),
        "outputscale": 1 + torch.rand(s, **_tkw()),
        "lengthscale": 0.5 + torch.rand(s, _D, **_tkw()),
        "noise": 1e-3 + 0.01 * torch.rand(s, **_tkw()),
    })
    return model, x, y


def _posterior_samples(mode):
    """eval: 32 Sobol QMC draws of a SingleTaskGP's joint posterior at 4 points; train: its MLL."""
    import torch

    if mode == "train":
        return _model(_single_task)(mode)
    _, PosteriorSamples, _ = _wrappers()
    return PosteriorSamples(_single_task()[0], _sampler()), (torch.rand(4, _D, **_tkw()),), {}


def _saas(mode):
    """eval: the mixture posterior's moments; train: (no MLL) the negated qLogNEI, as optimize_acqf."""
    if mode == "train":
        return _acqf(lambda m, x, y: _mc("qLogNoisyExpectedImprovement", m, x, y, baseline=True),
                     model=_saas_fully_bayesian)(mode)
    return _model(_saas_fully_bayesian)(mode)


# --- acquisition functions -----------------------------------------------------------------------

def _acqf(build, model=_single_task, q=_Q, d=_D):
    """build(model, train_X, train_Y) -> acquisition function; eval: its value on b x q x d
    candidates; train: -acqf(X).sum() with X.requires_grad (the optimize_acqf loss)."""

    def make(mode):
        import torch

        m, x, y = model()
        acqf = build(m, x, y.squeeze(-1) if y.shape[-1] == 1 else y)
        qq = q(acqf) if callable(q) else q
        lo, hi = x.min(0).values, x.max(0).values  # candidates inside the data's bounds
        X = lo + (hi - lo) * torch.rand(_B, qq, d, **_tkw())
        if mode == "train":
            acqf.eval()  # as after fit_gpytorch_mll

            def neg_acqf(X):
                return -acqf(X).sum()

            neg_acqf.__wrapped__ = acqf
            return neg_acqf, (X.requires_grad_(True),), {}
        return acqf, (X,), {}

    return make


def _analytic(name, **kw):
    def build(m, x, y):
        import botorch.acquisition as A

        cls = getattr(A, name)
        if name == "UpperConfidenceBound":
            return cls(m, beta=0.2, **kw)
        if name == "PosteriorMean":
            return cls(m, **kw)
        if name == "LogNoisyExpectedImprovement":
            return cls(m, X_observed=x, num_fantasies=8, **kw)
        return cls(m, best_f=y.max(), **kw)

    return build


def _mc(name, m, x, y, baseline=False, **kw):
    import botorch.acquisition as A

    cls = getattr(A, name)
    if baseline:
        return cls(m, X_baseline=x, sampler=_sampler(), **kw)
    if name in ("qUpperConfidenceBound",):
        return cls(m, beta=0.2, sampler=_sampler(), **kw)
    if name == "qSimpleRegret":
        return cls(m, sampler=_sampler(), **kw)
    return cls(m, best_f=y.max(), sampler=_sampler(), **kw)


def _mc_build(name, baseline=False, **kw):
    return lambda m, x, y: _mc(name, m, x, y, baseline=baseline, **kw)


def _constrained_ei(m, x, y):
    from botorch.acquisition import ConstrainedExpectedImprovement

    return ConstrainedExpectedImprovement(m, best_f=y[:, 0].max(), objective_index=0, constraints={1: [None, 0.0]})


def _qlognei_constrained(m, x, y):
    from botorch.acquisition import qLogNoisyExpectedImprovement
    from botorch.acquisition.objective import GenericMCObjective

    return qLogNoisyExpectedImprovement(m, X_baseline=x, sampler=_sampler(),
                                        objective=GenericMCObjective(lambda Z, X=None: Z[..., 0]),
                                        constraints=[lambda Z: Z[..., 1]])


def _knowledge_gradient(m, x, y):
    from botorch.acquisition import qKnowledgeGradient

    return qKnowledgeGradient(m, num_fantasies=4)


def _multi_fidelity_kg(m, x, y):
    from botorch.acquisition import qMultiFidelityKnowledgeGradient
    from botorch.acquisition.cost_aware import InverseCostWeightedUtility
    from botorch.acquisition.utils import project_to_target_fidelity
    from botorch.models.cost import AffineFidelityCostModel

    target = {_D: 1.0}
    cost = AffineFidelityCostModel(fidelity_weights={_D: 1.0}, fixed_cost=5.0)
    return qMultiFidelityKnowledgeGradient(
        m, num_fantasies=4, current_value=y.max(), cost_aware_utility=InverseCostWeightedUtility(cost_model=cost),
        project=lambda X: project_to_target_fidelity(X=X, target_fidelities=target, d=_D + 1))


def _max_value_entropy(m, x, y):
    import torch
    from botorch.acquisition import qMaxValueEntropy

    return qMaxValueEntropy(m, candidate_set=torch.rand(100, _D, **_tkw()), num_mv_samples=8)


def _nipv(m, x, y):
    import torch
    from botorch.acquisition import qNegIntegratedPosteriorVariance

    return qNegIntegratedPosteriorVariance(m, mc_points=torch.rand(16, _D, **_tkw()))


def _parego(m, x, y):
    import torch
    from botorch.acquisition import qLogNoisyExpectedImprovement
    from botorch.acquisition.objective import GenericMCObjective
    from botorch.utils.multi_objective.scalarization import get_chebyshev_scalarization

    weights = torch.tensor([0.3, 0.7], **_tkw())
    objective = GenericMCObjective(get_chebyshev_scalarization(weights=weights, Y=y))
    return qLogNoisyExpectedImprovement(m, X_baseline=x, sampler=_sampler(), objective=objective)


def _hypervolume(name, noisy=False):
    def build(m, x, y):
        import botorch.acquisition.multi_objective as MO
        from botorch.utils.multi_objective.box_decompositions.non_dominated import FastNondominatedPartitioning

        ref_point = (y.min(0).values - 0.1 * (y.max(0).values - y.min(0).values)).tolist()
        cls = getattr(MO, name)
        if noisy:
            return cls(m, ref_point=ref_point, X_baseline=x, sampler=_sampler(), prune_baseline=True)
        partitioning = FastNondominatedPartitioning(ref_point=y.new_tensor(ref_point), Y=y)
        if name == "ExpectedHypervolumeImprovement":
            return cls(m, ref_point=ref_point, partitioning=partitioning)
        return cls(m, ref_point=ref_point, partitioning=partitioning, sampler=_sampler())

    return build


def _kg_q(acqf):
    return _Q + acqf.num_fantasies


MODELS = {
    # surrogate models: posterior moments / the MLL loss closure
    "SingleTaskGP": _model(_single_task),
    "SingleTaskGP_normalize_standardize": _model(_single_task_transforms),
    "SingleTaskGP_fixed_noise": _model(_single_task_fixed_noise),
    "SingleTaskGP_matern_priors": _model(_single_task_matern),
    "SingleTaskGP_two_outputs": _model(_single_task_two_outputs),
    "SingleTaskGP_warp": _model(_single_task_warp),
    "SingleTaskGP_sobol_samples": _posterior_samples,
    "MultiTaskGP": _model(_multi_task, test_d=_D + 1),
    "KroneckerMultiTaskGP": _model(_kronecker_multi_task),
    "ModelListGP": _model(_model_list, mll="sum"),
    "SingleTaskMultiFidelityGP": _model(_multi_fidelity, test_d=_D + 1),
    "MixedSingleTaskGP": _model(_mixed, test_d=_D + 1),
    "HigherOrderGP": _model(_higher_order),
    "SingleTaskVariationalGP": _model(_variational, mll="elbo"),
    "PairwiseGP": _model(_pairwise, mll="pairwise"),
    "SaasFullyBayesianSingleTaskGP": _saas,
    # analytic acquisition functions (q = 1)
    "ExpectedImprovement": _acqf(_analytic("ExpectedImprovement"), q=1),
    "LogExpectedImprovement": _acqf(_analytic("LogExpectedImprovement"), q=1),
    "UpperConfidenceBound": _acqf(_analytic("UpperConfidenceBound"), q=1),
    "ProbabilityOfImprovement": _acqf(_analytic("ProbabilityOfImprovement"), q=1),
    "PosteriorMean": _acqf(_analytic("PosteriorMean"), q=1),
    "LogNoisyExpectedImprovement": _acqf(_analytic("LogNoisyExpectedImprovement"), model=_single_task_fixed_noise,
                                         q=1),
    "ConstrainedExpectedImprovement": _acqf(_constrained_ei, model=_model_list, q=1),
    "ExpectedHypervolumeImprovement": _acqf(_hypervolume("ExpectedHypervolumeImprovement"), model=_model_list, q=1),
    # Monte Carlo acquisition functions (SobolQMCNormalSampler, 32 draws)
    "qExpectedImprovement": _acqf(_mc_build("qExpectedImprovement")),
    "qLogExpectedImprovement": _acqf(_mc_build("qLogExpectedImprovement")),
    "qNoisyExpectedImprovement": _acqf(_mc_build("qNoisyExpectedImprovement", baseline=True)),
    "qLogNoisyExpectedImprovement": _acqf(_mc_build("qLogNoisyExpectedImprovement", baseline=True),
                                          model=_single_task_transforms),
    "qLogNEI_constrained": _acqf(_qlognei_constrained, model=_single_task_two_outputs),
    "qUpperConfidenceBound": _acqf(_mc_build("qUpperConfidenceBound")),
    "qSimpleRegret": _acqf(_mc_build("qSimpleRegret")),
    "qKnowledgeGradient": _acqf(_knowledge_gradient, q=_kg_q),
    "qMultiFidelityKnowledgeGradient": _acqf(_multi_fidelity_kg, model=_multi_fidelity, q=_kg_q, d=_D + 1),
    "qMaxValueEntropy": _acqf(_max_value_entropy, q=1),
    "qNegIntegratedPosteriorVariance": _acqf(_nipv),
    "qLogNEI_parego": _acqf(_parego, model=_single_task_two_outputs),
    # multi-objective (two objectives)
    "qExpectedHypervolumeImprovement": _acqf(_hypervolume("qExpectedHypervolumeImprovement"),
                                             model=_single_task_two_outputs),
    "qLogExpectedHypervolumeImprovement": _acqf(_hypervolume("qLogExpectedHypervolumeImprovement"),
                                                model=_model_list),
    "qNoisyExpectedHypervolumeImprovement": _acqf(_hypervolume("qNoisyExpectedHypervolumeImprovement", noisy=True),
                                                  model=_single_task_two_outputs),
    "qLogNoisyExpectedHypervolumeImprovement": _acqf(
        _hypervolume("qLogNoisyExpectedHypervolumeImprovement", noisy=True), model=_single_task_two_outputs),
}
