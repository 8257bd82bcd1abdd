"""sbi: simulation-based inference. The conditional density estimators sbi builds for neural
posterior estimation (``posterior_nn``: nflows MAF, MAF with RQS, NSF, MADE mixture of Gaussians,
sbi's mixture density network, and the zuko MAF, NSF, NCSF, SOSPF, NAF, UNAF, GF, BPF, NICE
flows), likelihood estimation (``likelihood_nn``: NSF, MDN, zuko MAF; MNLE for continuous plus
discrete data; MNPE for mixed parameters), ratio estimation (``classifier_nn``: linear, MLP,
ResNet classifiers), the vector-field estimators of NPSE (score matching on the VE / VP / sub-VP
SDEs) and FMPE (flow matching with MLP / AdaLN-MLP / transformer nets), the embedding nets
(FCEmbedding, CNNEmbedding 1D and 2D, PermutationInvariantEmbedding, CausalCNNEmbedding,
ResNetEmbedding1D / 2D, LRUEmbedding, TransformerEmbedding, SpectralConvEmbedding; tutorial 04's
MAF on 32x32 images through a CNNEmbedding and tutorial 12's MDN over NaN-padded iid trials
through a PermutationInvariantEmbedding) and posteriors (DirectPosterior on an untrained MAF and
on one NPE trained for two epochs as in the README; VectorFieldPosterior on FMPE and NPSE
estimators, probability-flow ODE). Tiny problem as in sbi's tests and tutorials: a 3-d
BoxUniform(-2, 2) prior and sbi's linear-Gaussian simulator (x dim 3), 64 simulations to set the
z-scoring, a batch of 8, hidden width 16, 2 transforms, random weights.

A density estimator's "eval" is ``estimator.log_prob(theta[None], condition=x)`` (the
``*_sample`` models: ``estimator.sample((8,), condition=x_o)``); its "train" is the mean of
``estimator.loss(theta, condition=x)``, what sbi's trainers and tutorial 18's hand-written loop
minimise (the ``*_sample`` models: the mean log-density from ``estimator.sample_and_log_prob``,
reparameterised in zuko). A ratio estimator's "eval" is ``net(theta, x)`` (the unnormalised log
ratio); its "train" is tutorial 18's NRE-B contrastive loss (``NRE_B._loss``) over 8 atoms (the
default 10 exceeds the batch). A vector-field estimator's "eval" is its forward (the score or
velocity at random diffusion times, what the samplers call); its "train" is
``estimator.loss(theta, x).mean()``. An embedding net's "eval" is its forward, its "train" the
mean of its output (``mean_loss_module``). A posterior's "eval" is ``posterior.log_prob(theta,
x=x_o)`` or ``posterior.sample((8,), x=x_o)``; its "train" the negated gradient-tracked
``posterior.log_prob(theta, x=x_o, track_gradients=True)`` (as in sensitivity analysis) for the
``*_log_prob`` models and the potential ``posterior.map()`` ascends
(``posterior.potential(theta, track_gradients=True)``) for the ``*_sample`` ones.

    pip install --no-deps sbi==0.27.0 tensorboard==2.21.0 protobuf==7.36.2 absl-py==2.5.1

(sbi imports ``torch.utils.tensorboard`` at the top, which needs tensorboard, protobuf and
absl-py; nflows, zuko, pyro-ppl, skorch, scikit-learn, joblib, scipy, tqdm and pillow are
installed already.) Stubbed: ``matplotlib``, ``matplotlib.pyplot``, ``matplotlib.axes`` and
``matplotlib.figure`` (``stub_modules``, only when matplotlib is not installed: sbi lists it, but
the zoo keeps it out, see nflows.py and mace.py): nflows' made.py and sbi's
``samplers/mcmc/slice_numpy.py`` import them at their tops for plotting only; sbi.analysis (the
plots) is never imported. The trained NPE gets a tracker that logs nothing (sbi's ``Tracker``
protocol): the default one writes ``./sbi-logs``. CausalCNNEmbedding prints its aggregator's
shapes when built (sbi's own ``print``).

Left out: MCMC, VI, rejection and importance-sampling posteriors (long sampling and optimisation
loops in NumPy and pyro), SDE sampling of vector-field posteriors (500 Euler-Maruyama steps), the
trainers' own loops (``NPE(...).train()``: a DataLoader loop around the losses captured here),
NPE_PFN / tabpfn (the tabpfn package and its weights), multi-round APT losses, ABC, diagnostics
and plotting.

Eager check on torch 2.13 CPU: all 50 models build and run in both modes (train: ``.backward()``
on the loss).
"""

import functools

PACKAGE = "sbi"

_THETA, _N, _B, _H = 3, 64, 8, 16  # parameter (and data) dim, simulations, batch, hidden width
_FLOW = {"num_transforms": 2}


def _problem(n=_N):
    """BoxUniform prior and sbi's linear-Gaussian simulator, as in sbi's tests."""
    import torch
    from sbi.simulators.linear_gaussian import linear_gaussian
    from sbi.utils import BoxUniform

    prior = BoxUniform(-2.0 * torch.ones(_THETA), 2.0 * torch.ones(_THETA))
    theta = prior.sample((n,))
    x = linear_gaussian(theta, -1.0 * torch.ones(_THETA), 0.3 * torch.eye(_THETA))
    return prior, theta, x


@functools.cache
def _stub_matplotlib():
    """``nflows.nn.nde.made`` (reached from every sbi flow) runs ``from matplotlib import pyplot``
    and ``sbi.samplers.mcmc.slice_numpy`` (reached from ``sbi.inference``) imports ``pyplot``,
    ``matplotlib.axes.Axes`` and ``matplotlib.figure.FigureBase`` at their tops, for plotting
    only: stand-ins when matplotlib is not installed (as nflows.py and mace.py do)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        stub_modules(  # noqa: F821 (set by ZooSuite)
            {"matplotlib": ((), ()),
             "matplotlib.pyplot": (("figure", "subplots", "plot", "show", "close"), ()),
             "matplotlib.axes": ((), ("Axes",)),
             "matplotlib.figure": ((), ("Figure", "FigureBase"))},
            "nflows.nn.nde.made and sbi.samplers.mcmc.slice_numpy import",
        )


before_build = _stub_matplotlib  # (ZooSuite runs it before each make: warm_up may not have run)


def warm_up():
    _stub_matplotlib()
    import sbi
    import sbi.inference
    import sbi.neural_nets  # noqa: F401
    import torch  # noqa: F401


@functools.cache
def _wrappers():
    import torch

    class EstimatorLoss(torch.nn.Module):
        """train: the mean of an estimator's per-sample loss (what sbi's trainers minimise)."""

        def __init__(self, estimator):
            super().__init__()
            self.estimator = estimator

        def forward(self, input, condition):
            return self.estimator.loss(input, condition=condition).mean()

    class RatioLoss(torch.nn.Module):
        """train: NRE-B's 1-out-of-num_atoms classification loss (sbi tutorial 18)."""

        def __init__(self, net, num_atoms=_B):  # NRE_B's default is 10, at most the batch size
            super().__init__()
            self.net, self.num_atoms = net, num_atoms

        def forward(self, theta, x):
            from sbi.utils import repeat_rows

            batch_size, num_atoms = theta.shape[0], self.num_atoms
            repeated_x = repeat_rows(x, num_atoms)
            probs = torch.ones(batch_size, batch_size) * (1 - torch.eye(batch_size)) / (batch_size - 1)
            choices = torch.multinomial(probs, num_samples=num_atoms - 1, replacement=False)
            contrasting_theta = theta[choices]
            atomic_theta = torch.cat((theta[:, None, :], contrasting_theta), dim=1).reshape(
                batch_size * num_atoms, -1)
            logits = self.net(atomic_theta, repeated_x).reshape(batch_size, num_atoms)
            log_probs = logits[:, 0] - torch.logsumexp(logits, dim=-1)
            return -torch.mean(log_probs)

    class SampleAndLogProb(torch.nn.Module):
        """train for the sample models: ``estimator.sample_and_log_prob`` (reparameterised where
        the flow allows), the mean log-density of its own samples (a reverse-KL entropy term)."""

        def __init__(self, estimator, sample_shape):
            super().__init__()
            self.estimator, self.sample_shape = estimator, sample_shape

        def forward(self, condition):
            _, log_probs = self.estimator.sample_and_log_prob(self.sample_shape, condition=condition)
            return log_probs.mean()

    class PosteriorLogProb(torch.nn.Module):
        """train for the posteriors: the gradient-tracked ``posterior.log_prob`` (as in
        sensitivity analysis), or the potential ``posterior.map()`` ascends; negated means."""

        def __init__(self, posterior, estimator, method):
            super().__init__()
            self.posterior, self.estimator, self.method = posterior, estimator, method

        def forward(self, theta, x):
            return -getattr(self.posterior, self.method)(theta, x=x, track_gradients=True).mean()

    return EstimatorLoss, RatioLoss, SampleAndLogProb, PosteriorLogProb


class _NoTracker:
    """sbi's ``Tracker`` protocol (how_to_guide 22), logging nothing: the trainer's default
    TensorBoard tracker would write ``./sbi-logs`` into the working directory."""

    log_dir = None

    def log_metric(self, name, value, step=None):
        pass

    def log_metrics(self, metrics, step=None):
        pass

    def log_params(self, params):
        pass

    def add_figure(self, name, figure, step=None):
        pass

    def flush(self):
        pass


def _eval_or_loss(estimator, theta, x, mode):
    """eval: estimator.log_prob(theta[None], condition=x); train: estimator.loss(theta, x).mean()."""
    EstimatorLoss = _wrappers()[0]
    if mode == "train":
        return EstimatorLoss(estimator), (theta, x), {}
    estimator.eval()
    return estimator.log_prob, (theta.unsqueeze(0),), {"condition": x}


# --- posterior density estimators (NPE) ---------------------------------------------------------

def _npe(model, **kwargs):
    def make(mode):
        from sbi.neural_nets import posterior_nn

        _, theta, x = _problem()
        build = posterior_nn(model=model, hidden_features=_H, **kwargs)
        estimator = build(theta, x)
        return _eval_or_loss(estimator, theta[:_B], x[:_B], mode)

    return make


def _npe_sample(model, **kwargs):
    def make(mode):
        from sbi.neural_nets import posterior_nn

        _, theta, x = _problem()
        estimator = posterior_nn(model=model, hidden_features=_H, **kwargs)(theta, x)
        x_o = x[:1]
        if mode == "train":
            return _wrappers()[2](estimator, (_B,)), (x_o,), {}
        estimator.eval()
        return estimator.sample, ((_B,),), {"condition": x_o}

    return make


# --- likelihood estimators (NLE) ----------------------------------------------------------------

def _nle(model, **kwargs):
    def make(mode):
        from sbi.neural_nets import likelihood_nn

        _, theta, x = _problem()
        estimator = likelihood_nn(model=model, hidden_features=_H, **kwargs)(theta, x)
        return _eval_or_loss(estimator, x[:_B], theta[:_B], mode)  # p(x | theta)

    return make


def _mixed_data(n=_N):
    """Gamma-Beta prior and MNLE's mixed simulator (reaction time, binary choice), as in mnle_test."""
    import torch
    from torch.distributions import Beta, Binomial, Gamma, InverseGamma
    from sbi.utils import MultipleIndependent

    prior = MultipleIndependent([Gamma(torch.tensor([1.0]), torch.tensor([0.5])),
                                 Beta(torch.tensor([2.0]), torch.tensor([2.0]))], validate_args=False)
    theta = prior.sample((n,))
    beta, ps = theta[:, :1], theta[:, 1:]
    choices = Binomial(probs=ps).sample()
    rts = InverseGamma(concentration=2.0 * torch.ones_like(beta), rate=beta).sample()
    return theta, torch.cat((rts, choices), dim=1)


def _mnle(mode):
    from sbi.neural_nets import likelihood_nn

    theta, x = _mixed_data()
    estimator = likelihood_nn(model="mnle", log_transform_x=True, hidden_features=_H, **_FLOW)(theta, x)
    return _eval_or_loss(estimator, x[:_B], theta[:_B], mode)


def _mnpe(mode):
    """MNPE: mixed parameters (two continuous, one Bernoulli) from continuous data, as in mnpe_test."""
    import torch
    from torch.distributions import Bernoulli, Normal
    from sbi.neural_nets import posterior_nn
    from sbi.utils import BoxUniform, MultipleIndependent

    prior = MultipleIndependent([BoxUniform(-torch.ones(2), torch.ones(2)), Bernoulli(probs=0.8 * torch.ones(1))])
    theta = prior.sample((_N,))
    mu_z = torch.where(theta[:, -1] == 0, theta[:, 0], theta[:, 1])
    x = Normal(loc=mu_z, scale=0.1 ** 0.5).rsample().reshape(-1, 1)
    estimator = posterior_nn(model="mnpe", hidden_features=_H, **_FLOW)(theta, x)
    return _eval_or_loss(estimator, theta[:_B], x[:_B], mode)


# --- ratio estimators (NRE) ---------------------------------------------------------------------

def _nre(model):
    def make(mode):
        from sbi.neural_nets import classifier_nn

        _, theta, x = _problem()
        net = classifier_nn(model=model, hidden_features=_H)(theta, x)
        if mode == "train":
            return _wrappers()[1](net), (theta[:_B], x[:_B]), {}
        return net, (theta[:_B], x[:_B]), {}

    return make


# --- embedding nets ------------------------------------------------------------------------------

def _embedding(build, shape):
    def make(mode):
        import torch

        net = build()
        x = torch.randn(_B, *shape)
        if mode == "train":
            return mean_loss_module()(net), (x,), {}  # noqa: F821
        return net, (x,), {}

    return make


def _fc():
    from sbi.neural_nets.embedding_nets import FCEmbedding

    return FCEmbedding(input_dim=5, output_dim=4, num_layers=2, num_hiddens=_H)


def _cnn_1d():
    from sbi.neural_nets.embedding_nets import CNNEmbedding

    return CNNEmbedding(input_shape=(32,), in_channels=1, output_dim=4)


def _cnn_2d():  # tutorial 04
    from sbi.neural_nets.embedding_nets import CNNEmbedding

    return CNNEmbedding(input_shape=(32, 32), in_channels=1, out_channels_per_layer=[6], num_conv_layers=1,
                        num_linear_layers=1, output_dim=8, kernel_size=5, pool_kernel_size=8)


def _permutation_invariant():  # tutorial 12
    from sbi.neural_nets.embedding_nets import FCEmbedding, PermutationInvariantEmbedding

    single_trial_net = FCEmbedding(input_dim=2, num_hiddens=_H, num_layers=2, output_dim=10)
    return PermutationInvariantEmbedding(single_trial_net, trial_net_output_dim=10, num_layers=1,
                                         num_hiddens=10, output_dim=10)


def _causal_cnn():
    from sbi.neural_nets.embedding_nets import CausalCNNEmbedding

    return CausalCNNEmbedding((32,), in_channels=1, pool_kernel_size=2, output_dim=4)


def _resnet_1d():
    from sbi.neural_nets.embedding_nets import ResNetEmbedding1D

    return ResNetEmbedding1D(c_in=5, c_out=4, n_blocks=2, c_internal=_H, c_hidden_final=_H)


def _resnet_2d():
    from sbi.neural_nets.embedding_nets import ResNetEmbedding2D

    return ResNetEmbedding2D(c_in=1, c_out=4, n_stages=2, c_stages=[8, 16], blocks_per_stage=[1, 1],
                             c_hidden_fc=_H)


def _lru():
    from sbi.neural_nets.embedding_nets import LRUEmbedding

    return LRUEmbedding(input_dim=3, output_dim=4, state_dim=8, hidden_dim=_H, num_blocks=1)


def _transformer():
    from sbi.neural_nets.embedding_nets import TransformerEmbedding

    return TransformerEmbedding(pos_emb="rotary", pos_emb_base=10e4, rms_norm_eps=1e-05, mlp_activation="gelu",
                                is_causal=True, vit=False, num_hidden_layers=2, num_attention_heads=2,
                                num_key_value_heads=2, intermediate_size=_H, ffn="mlp", head_dim=None,
                                feature_space_dim=8, attention_dropout=0.0)


def _spectral_conv():
    from sbi.neural_nets.embedding_nets import SpectralConvEmbedding

    return SpectralConvEmbedding(modes=4, in_channels=3, conv_channels=8, num_layers=2)


def _npe_cnn(mode):
    """tutorial 04: a MAF posterior on 32x32 images through a CNNEmbedding."""
    import torch
    from sbi.neural_nets import posterior_nn

    _, theta, _ = _problem()
    x = theta[:, :1, None].expand(-1, 32, 32).reshape(_N, 1024) + 0.2 * torch.rand(_N, 1024)
    estimator = posterior_nn(model="maf", embedding_net=_cnn_2d(), hidden_features=_H, **_FLOW)(theta, x)
    return _eval_or_loss(estimator, theta[:_B], x[:_B], mode)


def _npe_iid(mode):
    """tutorial 12: an MDN posterior over up to 5 iid trials, NaN-padded, via PermutationInvariantEmbedding."""
    import torch
    from sbi.neural_nets import posterior_nn

    _, theta, _ = _problem()
    theta = theta[:, :2]
    max_trials = 5
    x = theta[:, None, :] + 0.5 * torch.randn(_N, max_trials, 2)
    num_trials = torch.randint(1, max_trials + 1, (_N,))
    x[torch.arange(max_trials)[None, :] >= num_trials[:, None]] = float("nan")
    estimator = posterior_nn("mdn", embedding_net=_permutation_invariant(), z_score_x="none",
                             hidden_features=_H)(theta, x)
    return _eval_or_loss(estimator, theta[:_B], x[:_B], mode)


# --- vector-field estimators (NPSE, FMPE) --------------------------------------------------------

def _vector_field(kind, model="mlp", **kwargs):
    def make(mode):
        import torch
        from sbi.neural_nets import posterior_flow_nn, posterior_score_nn

        _, theta, x = _problem()
        factory = posterior_score_nn if kind == "score" else posterior_flow_nn
        estimator = factory(model=model, hidden_features=_H, num_layers=2, t_embedding_dim=8, **kwargs)(theta, x)
        if mode == "train":
            return _wrappers()[0](estimator), (theta[:_B], x[:_B]), {}
        t = torch.rand(_B) * (estimator.t_max - estimator.t_min) + estimator.t_min
        return estimator, (theta[:_B], x[:_B], t), {}

    return make


# --- posteriors ----------------------------------------------------------------------------------

def _posterior(kind, method):
    """kind: "direct" (DirectPosterior on an untrained MAF), "npe" (the README workflow: NPE
    trained for two epochs, then build_posterior), "flow" / "score" (VectorFieldPosterior on an
    untrained FMPE / NPSE estimator, sampling with the probability-flow ODE)."""

    def make(mode):
        from sbi.inference import NPE, DirectPosterior, VectorFieldPosterior
        from sbi.neural_nets import posterior_flow_nn, posterior_nn, posterior_score_nn

        prior, theta, x = _problem()
        if kind == "direct":
            estimator = posterior_nn(model="maf", hidden_features=_H, **_FLOW)(theta, x)
            posterior = DirectPosterior(estimator, prior)
        elif kind == "npe":
            inference = NPE(prior, density_estimator=posterior_nn(model="maf", hidden_features=_H, **_FLOW),
                            tracker=_NoTracker(), show_progress_bars=False)
            inference.append_simulations(theta, x).train(max_num_epochs=2, show_train_summary=False)
            posterior = inference.build_posterior()
            estimator = posterior.posterior_estimator
        else:
            factory = posterior_flow_nn if kind == "flow" else posterior_score_nn
            estimator = factory(model="mlp", hidden_features=_H, num_layers=2)(theta, x)
            posterior = VectorFieldPosterior(estimator, prior, sample_with="ode")
        x_o = x[:1]
        posterior.set_default_x(x_o)
        if mode == "train":
            # sample: the potential map() ascends; log_prob: log_prob itself, tracking gradients
            return _wrappers()[3](posterior, estimator, "potential" if method == "sample" else "log_prob"), \
                (theta[:_B], x_o), {}
        estimator.eval()
        if method == "sample":
            return posterior.sample, ((_B,),), {"x": x_o, "show_progress_bars": False}
        return posterior.log_prob, (theta[:_B],), {"x": x_o}

    return make


MODELS = {
    # NPE density estimators: log_prob / loss
    "NPE_maf": _npe("maf", **_FLOW),
    "NPE_maf_rqs": _npe("maf_rqs", num_bins=4, **_FLOW),
    "NPE_nsf": _npe("nsf", num_bins=4, **_FLOW),
    "NPE_made": _npe("made", num_components=3),
    "NPE_mdn": _npe("mdn", num_components=3),
    "NPE_zuko_maf": _npe("zuko_maf", **_FLOW),
    "NPE_zuko_nsf": _npe("zuko_nsf", num_bins=4, **_FLOW),
    "NPE_zuko_ncsf": _npe("zuko_ncsf", num_bins=4, **_FLOW),
    "NPE_zuko_sospf": _npe("zuko_sospf", **_FLOW),
    "NPE_zuko_naf": _npe("zuko_naf", **_FLOW),
    "NPE_zuko_unaf": _npe("zuko_unaf", **_FLOW),
    "NPE_zuko_gf": _npe("zuko_gf", **_FLOW),
    "NPE_zuko_bpf": _npe("zuko_bpf", **_FLOW),
    "NPE_zuko_nice": _npe("zuko_nice", **_FLOW),
    # ... their samples
    "NPE_maf_sample": _npe_sample("maf", **_FLOW),
    "NPE_nsf_sample": _npe_sample("nsf", num_bins=4, **_FLOW),
    "NPE_mdn_sample": _npe_sample("mdn", num_components=3),
    "NPE_zuko_nsf_sample": _npe_sample("zuko_nsf", num_bins=4, **_FLOW),
    # NLE and mixed data
    "NLE_nsf": _nle("nsf", num_bins=4, **_FLOW),
    "NLE_mdn": _nle("mdn", num_components=3),
    "NLE_zuko_maf": _nle("zuko_maf", **_FLOW),
    "MNLE": _mnle,
    "MNPE": _mnpe,
    # NRE classifiers
    "NRE_linear": _nre("linear"),
    "NRE_mlp": _nre("mlp"),
    "NRE_resnet": _nre("resnet"),
    # embedding nets
    "FCEmbedding": _embedding(_fc, (5,)),
    "CNNEmbedding_1d": _embedding(_cnn_1d, (32,)),
    "CNNEmbedding_2d": _embedding(_cnn_2d, (1024,)),
    "PermutationInvariantEmbedding": _embedding(_permutation_invariant, (5, 2)),
    "CausalCNNEmbedding": _embedding(_causal_cnn, (32,)),
    "ResNetEmbedding1D": _embedding(_resnet_1d, (5,)),
    "ResNetEmbedding2D": _embedding(_resnet_2d, (1, 16, 16)),
    "LRUEmbedding": _embedding(_lru, (10, 3)),
    "TransformerEmbedding": _embedding(_transformer, (6, 8)),
    "SpectralConvEmbedding": _embedding(_spectral_conv, (3, 30)),
    "NPE_maf_CNNEmbedding": _npe_cnn,
    "NPE_mdn_PermutationInvariant": _npe_iid,
    # NPSE / FMPE vector fields: forward / loss
    "NPSE_ve": _vector_field("score", sde_type="ve"),
    "NPSE_vp": _vector_field("score", sde_type="vp"),
    "NPSE_subvp": _vector_field("score", sde_type="subvp"),
    "FMPE_mlp": _vector_field("flow"),
    "FMPE_ada_mlp": _vector_field("flow", model="ada_mlp"),
    "FMPE_transformer": _vector_field("flow", model="transformer", num_heads=2),
    # posteriors
    "DirectPosterior_log_prob": _posterior("direct", "log_prob"),
    "DirectPosterior_sample": _posterior("direct", "sample"),
    "NPE_trained_posterior_sample": _posterior("npe", "sample"),
    "FMPE_posterior_log_prob": _posterior("flow", "log_prob"),
    "FMPE_posterior_sample": _posterior("flow", "sample"),
    "NPSE_posterior_log_prob": _posterior("score", "log_prob"),
}
