"""gpytorch: exact GPs with one kernel family each (RBF, Matern, periodic, spectral mixture,
KISS-GP, SGPR, additive structure, random Fourier features, multitask, derivative GPs, ...),
variational GPs with each variational strategy / distribution and several likelihoods, and a
two-layer deep GP; tiny data (16-24 points), random hyperparameters at their defaults.

"eval" runs the posterior predictive on new inputs (the prediction strategy, its caches and
the likelihood's marginal; the forward returns the predictive mean and variance); "train"
runs a wrapper whose forward returns the negative marginal log likelihood on the training
data (ExactMarginalLogLikelihood, VariationalELBO, PredictiveLogLikelihood, DeepApproximateMLL).

    pip install --no-deps gpytorch==1.15.2 linear-operator==0.6.1 jaxtyping==0.3.11 wadler-lindig==0.1.8
    pip install mpmath scipy

(gpytorch lists scikit-learn too: it is only imported by SpectralMixtureKernel's
``initialize_from_data_empspect`` and the nearest-neighbour utilities, which none of these
models calls.) Much of the arithmetic runs in ``linear_operator``, a separate package: breaks
there are outside the checked folder and count for neither score (a break inside
linear_operator shows up at the gpytorch statement that called it).

Captured on torch 2.13 CPU: every model builds and runs eagerly; svgp_decoupled "train" timed
out at the 120 s capture limit (recorded as skipped); six runs fail under Dynamo itself
(fake-tensor shape errors or recursion inside linear_operator's ``__torch_function__``:
exact_linear[train], exact_sgpr[eval, train], svgp_unwhitened[eval],
exact_batch_independent[eval], svgp_delta[eval]).
"""

PACKAGE = "gpytorch"

_N, _M = 16, 8  # training points, test points


def _data(d=1, n=_N, tasks=None):
    import torch

    x = torch.linspace(0, 1, n).unsqueeze(-1).repeat(1, d) + 0.01 * torch.randn(n, d)
    y = torch.sin(6 * x).sum(-1)
    if tasks:
        y = torch.stack([y * (t + 1) for t in range(tasks)], -1)
    y = y + 0.05 * torch.randn_like(y)
    test = torch.rand(_M, d)
    return x, y, test


def _wrappers():
    import torch

    class Predict(torch.nn.Module):
        """eval: the posterior predictive at the test inputs."""

        def __init__(self, model, likelihood):
            super().__init__()
            self.model, self.likelihood = model, likelihood

        def forward(self, x):
            pred = self.likelihood(self.model(x))
            return pred.mean, pred.variance

    class Loss(torch.nn.Module):
        """train: the negative marginal log likelihood (or ELBO) of the training data."""

        def __init__(self, model, likelihood, mll):
            super().__init__()
            self.model, self.likelihood, self.mll = model, likelihood, mll

        def forward(self, x, y):
            return -self.mll(self.model(x), y).sum()

    return Predict, Loss


def _exact(kernel, d=1, mean="constant", likelihood=None, tasks=None, n=_N):
    """An ExactGP whose covariance is ``kernel(gpytorch, x)``."""

    def make(mode):
        import gpytorch
        import torch

        x, y, test = _data(d, n, tasks)
        lik = likelihood(gpytorch, x, y) if likelihood else (
            gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=tasks) if tasks
            else gpytorch.likelihoods.GaussianLikelihood())

        class Model(gpytorch.models.ExactGP):
            def __init__(self):
                super().__init__(x, y, lik)
                if mean == "linear":
                    self.mean_module = gpytorch.means.LinearMean(d)
                elif mean == "zero":
                    self.mean_module = gpytorch.means.ZeroMean()
                else:
                    self.mean_module = gpytorch.means.ConstantMean()
                if tasks:
                    self.mean_module = gpytorch.means.MultitaskMean(self.mean_module, num_tasks=tasks)
                self.covar_module = kernel(gpytorch, x)

            def forward(self, z):
                dist = (gpytorch.distributions.MultitaskMultivariateNormal if tasks
                        else gpytorch.distributions.MultivariateNormal)
                return dist(self.mean_module(z), self.covar_module(z))

        model = Model()
        Predict, Loss = _wrappers()
        if mode == "train":
            return Loss(model, lik, gpytorch.mlls.ExactMarginalLogLikelihood(lik, model)), (x, y), {}
        return Predict(model, lik), (test,), {}

    return make


def _scaled(name, **kw):
    return lambda g, x: g.kernels.ScaleKernel(getattr(g.kernels, name)(**kw))


def _derivative(mode):
    """A GP on values and gradients (RBFKernelGrad, ConstantMeanGrad): n x (1 + d) targets."""
    import gpytorch
    import torch

    d = 2
    x = torch.rand(_N, d)
    y = torch.cat([torch.sin(x.sum(-1, keepdim=True)), torch.cos(x)], -1)
    lik = gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=1 + d)

    class Model(gpytorch.models.ExactGP):
        def __init__(self):
            super().__init__(x, y, lik)
            self.mean_module = gpytorch.means.ConstantMeanGrad()
            self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernelGrad())

        def forward(self, z):
            return gpytorch.distributions.MultitaskMultivariateNormal(self.mean_module(z), self.covar_module(z))

    model = Model()
    Predict, Loss = _wrappers()
    if mode == "train":
        return Loss(model, lik, gpytorch.mlls.ExactMarginalLogLikelihood(lik, model)), (x, y), {}
    return Predict(model, lik), (torch.rand(_M, d),), {}


def _batch_independent(mode):
    """Two independent outputs as a batch of GPs (batch_shape=2)."""
    import gpytorch
    import torch

    x, y, test = _data(1, tasks=2)
    lik = gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=2)
    batch = torch.Size([2])

    class Model(gpytorch.models.ExactGP):
        def __init__(self):
            super().__init__(x, y, lik)
            self.mean_module = gpytorch.means.ConstantMean(batch_shape=batch)
            self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(batch_shape=batch),
                                                             batch_shape=batch)

        def forward(self, z):
            return gpytorch.distributions.MultitaskMultivariateNormal.from_batch_mvn(
                gpytorch.distributions.MultivariateNormal(self.mean_module(z), self.covar_module(z)))

    model = Model()
    Predict, Loss = _wrappers()
    if mode == "train":
        return Loss(model, lik, gpytorch.mlls.ExactMarginalLogLikelihood(lik, model)), (x, y), {}
    return Predict(model, lik), (test,), {}


def _variational(strategy="standard", distribution="cholesky", likelihood="gaussian", loss="elbo", tasks=None,
                 inducing=6):
    """An ApproximateGP with the named variational strategy and distribution."""

    def make(mode):
        import gpytorch
        import torch

        x, y, test = _data(1, tasks=tasks if strategy != "lmc" else 2)
        V = gpytorch.variational
        latents = 3 if strategy == "lmc" else (tasks or 0)
        batch = torch.Size([latents]) if latents else torch.Size([])
        z = torch.rand(*batch, inducing, 1)
        if strategy == "decoupled":
            z = torch.rand(inducing, 1)
        dist_cls = {"cholesky": V.CholeskyVariationalDistribution, "meanfield": V.MeanFieldVariationalDistribution,
                    "natural": V.NaturalVariationalDistribution, "tril_natural": V.TrilNaturalVariationalDistribution,
                    "delta": V.DeltaVariationalDistribution}[distribution]
        if strategy == "grid":
            vd = dist_cls(16, batch_shape=batch)
        else:
            vd = dist_cls(inducing, batch_shape=batch)

        class Model(gpytorch.models.ApproximateGP):
            def __init__(self):
                if strategy == "standard":
                    vs = V.VariationalStrategy(self, z, vd, learn_inducing_locations=True)
                elif strategy == "unwhitened":
                    vs = V.UnwhitenedVariationalStrategy(self, z, vd, learn_inducing_locations=True)
                elif strategy == "ciq":
                    vs = V.CiqVariationalStrategy(self, z, vd, learn_inducing_locations=True)
                elif strategy == "independent":
                    vs = V.IndependentMultitaskVariationalStrategy(V.VariationalStrategy(self, z, vd), num_tasks=tasks)
                elif strategy == "lmc":
                    vs = V.LMCVariationalStrategy(V.VariationalStrategy(self, z, vd), num_tasks=2, num_latents=3,
                                                  latent_dim=-1)
                elif strategy == "decoupled":
                    covar = V.VariationalStrategy(self, z, vd)
                    vs = V.OrthogonallyDecoupledVariationalStrategy(covar, torch.rand(inducing + 2, 1),
                                                                    V.DeltaVariationalDistribution(inducing + 2))
                elif strategy == "grid":
                    vs = V.GridInterpolationVariationalStrategy(self, grid_size=16, grid_bounds=[(-0.1, 1.1)],
                                                                variational_distribution=vd)
                else:
                    raise ValueError(strategy)
                super().__init__(vs)
                self.mean_module = gpytorch.means.ConstantMean(batch_shape=batch)
                self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(batch_shape=batch),
                                                                 batch_shape=batch)

            def forward(self, q):
                return gpytorch.distributions.MultivariateNormal(self.mean_module(q), self.covar_module(q))

        model = Model()
        L = gpytorch.likelihoods
        target = y
        if likelihood == "bernoulli":
            lik, target = L.BernoulliLikelihood(), (y > 0).float()
        elif likelihood == "studentt":
            lik = L.StudentTLikelihood()
        elif likelihood == "laplace":
            lik = L.LaplaceLikelihood()
        elif likelihood == "beta":
            lik, target = L.BetaLikelihood(), torch.sigmoid(y).clamp(0.05, 0.95)
        elif tasks or strategy == "lmc":
            lik = L.MultitaskGaussianLikelihood(num_tasks=2 if strategy == "lmc" else tasks)
        else:
            lik = L.GaussianLikelihood()
        mll = {"elbo": gpytorch.mlls.VariationalELBO, "pll": gpytorch.mlls.PredictiveLogLikelihood,
               "gamma": gpytorch.mlls.GammaRobustVariationalELBO}[loss](lik, model, num_data=x.shape[0])
        Predict, Loss = _wrappers()
        if mode == "train":
            return Loss(model, lik, mll), (x, target), {}
        return Predict(model, lik), (test,), {}

    return make


def _deep_gp(mode):
    """Two DeepGPLayers (hidden width 2) and DeepApproximateMLL; 4 likelihood samples."""
    import gpytorch
    import torch

    x, y, test = _data(1)
    V = gpytorch.variational

    class Layer(gpytorch.models.deep_gps.DeepGPLayer):
        def __init__(self, d_in, d_out):
            batch = torch.Size([d_out]) if d_out else torch.Size([])
            z = torch.rand(*batch, 6, d_in)
            vd = V.CholeskyVariationalDistribution(6, batch_shape=batch)
            super().__init__(V.VariationalStrategy(self, z, vd, learn_inducing_locations=True), d_in, d_out)
            self.mean_module = gpytorch.means.LinearMean(d_in, batch_shape=batch)
            self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(batch_shape=batch,
                                                                                        ard_num_dims=d_in),
                                                             batch_shape=batch)

        def forward(self, q):
            return gpytorch.distributions.MultivariateNormal(self.mean_module(q), self.covar_module(q))

    class DeepGP(gpytorch.models.deep_gps.DeepGP):
        def __init__(self):
            super().__init__()
            self.hidden = Layer(1, 2)
            self.last = Layer(2, None)
            self.likelihood = gpytorch.likelihoods.GaussianLikelihood()

        def forward(self, q):
            return self.last(self.hidden(q))

    model = DeepGP()

    class DeepLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model
            self.mll = gpytorch.mlls.DeepApproximateMLL(
                gpytorch.mlls.VariationalELBO(model.likelihood, model, num_data=x.shape[0]))

        def forward(self, q, target):
            with gpytorch.settings.num_likelihood_samples(4):
                return -self.mll(self.model(q), target)

    class DeepPredict(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, q):
            with gpytorch.settings.num_likelihood_samples(4):
                pred = self.model.likelihood(self.model(q))
            return pred.mean.mean(0), pred.variance.mean(0)

    if mode == "train":
        return DeepLoss(), (x, y), {}
    return DeepPredict(), (test,), {}


MODELS = {
    "exact_rbf": _exact(_scaled("RBFKernel")),
    "exact_rbf_ard": _exact(_scaled("RBFKernel", ard_num_dims=3), d=3),
    "exact_matern52": _exact(_scaled("MaternKernel", nu=2.5)),
    "exact_matern12": _exact(_scaled("MaternKernel", nu=0.5), mean="zero"),
    "exact_periodic": _exact(_scaled("PeriodicKernel")),
    "exact_rq": _exact(_scaled("RQKernel")),
    "exact_spectral_mixture": _exact(lambda g, x: g.kernels.SpectralMixtureKernel(num_mixtures=2)),
    "exact_polynomial": _exact(_scaled("PolynomialKernel", power=2), mean="linear"),
    "exact_linear": _exact(lambda g, x: g.kernels.LinearKernel(), mean="linear"),
    "exact_cosine": _exact(_scaled("CosineKernel")),
    "exact_piecewise_polynomial": _exact(_scaled("PiecewisePolynomialKernel", q=2)),
    "exact_sum_product": _exact(lambda g, x: g.kernels.ScaleKernel(g.kernels.RBFKernel())
                                + g.kernels.ScaleKernel(g.kernels.PeriodicKernel()) * g.kernels.LinearKernel()),
    "exact_additive_structure": _exact(lambda g, x: g.kernels.ScaleKernel(
        g.kernels.AdditiveStructureKernel(g.kernels.RBFKernel(), num_dims=2)), d=2),
    "exact_kiss_gp": _exact(lambda g, x: g.kernels.ScaleKernel(
        g.kernels.GridInterpolationKernel(g.kernels.RBFKernel(), grid_size=16, num_dims=1))),
    "exact_sgpr": _exact(lambda g, x: g.kernels.InducingPointKernel(
        g.kernels.ScaleKernel(g.kernels.RBFKernel()), inducing_points=x[::3].clone(),
        likelihood=g.likelihoods.GaussianLikelihood())),
    "exact_rff": _exact(_scaled("RFFKernel", num_samples=8)),
    "exact_fixed_noise": _exact(_scaled("RBFKernel"),
                                likelihood=lambda g, x, y: g.likelihoods.FixedNoiseGaussianLikelihood(
                                    noise=0.01 * (1 + x[:, 0]), learn_additional_noise=True)),
    "exact_multitask": _exact(lambda g, x: g.kernels.MultitaskKernel(g.kernels.RBFKernel(), num_tasks=2, rank=1),
                              tasks=2),
    "exact_batch_independent": _batch_independent,
    "exact_derivative": _derivative,
    "svgp": _variational(),
    "svgp_meanfield": _variational(distribution="meanfield"),
    "svgp_natural": _variational(distribution="natural"),
    "svgp_tril_natural": _variational(distribution="tril_natural"),
    "svgp_delta": _variational(distribution="delta"),
    "svgp_unwhitened": _variational(strategy="unwhitened"),
    "svgp_ciq": _variational(strategy="ciq"),
    "svgp_grid": _variational(strategy="grid"),
    "svgp_decoupled": _variational(strategy="decoupled"),
    "svgp_independent_multitask": _variational(strategy="independent", tasks=2),
    "svgp_lmc": _variational(strategy="lmc"),
    "svgp_bernoulli": _variational(likelihood="bernoulli"),
    "svgp_studentt": _variational(likelihood="studentt"),
    "svgp_laplace": _variational(likelihood="laplace"),
    "svgp_beta": _variational(likelihood="beta"),
    "svgp_pll": _variational(loss="pll"),
    "svgp_gamma_robust": _variational(loss="gamma"),
    "deep_gp": _deep_gp,
}
