"""pomegranate (jmschrei) 1.1.2: probabilistic models on torch as its README, tutorials
(docs/tutorials, examples/) and tests build them, tiny (20 rows of 3 features; 4 sequences of 8
steps for the HMMs), random parameters and data, no download:

- distributions: ``Normal`` (full and diagonal covariance), ``Exponential``, ``Gamma``,
  ``Categorical``, ``IndependentComponents`` (Normal + Exponential + Gamma columns),
  ``ConditionalCategorical``, ``JointCategorical``, ``ZeroInflated(Poisson())``, the README's
  missing values (a ``torch.masked.MaskedTensor``) through a diagonal ``Normal``, and the
  out-of-core tutorial's ``summarize`` of two batches then ``from_summaries`` (eval: the module's
  own ``forward``, ``summarize`` + ``log_probability``);
- ``GeneralMixtureModel``: Exponentials (the tests' fixture), full-covariance Normals (``fit``
  from unfitted components: k-means initialization, then EM), a heterogeneous mixture (Gamma +
  Exponential + LogNormal), priors for semi-supervised learning (the priors tutorial),
  ``sample``;
- ``BayesClassifier``: diagonal Normals (the Bayes classifier tutorial) and a naive Bayes over
  Bernoullis; ``KMeans``;
- ``DenseHMM`` / ``SparseHMM``: the forward algorithm (the module's ``forward``),
  ``forward_backward``, ``predict`` / ``predict_proba``, ``viterbi``, ``log_probability``; built
  from matrices, from an edge list and with ``add_edge`` (the HMM tutorial's CG islands over
  Categorical emissions, with an end state); per-step priors; ``fit`` on equal-length and on
  variable-length sequences (grouped by ``partition_sequences``);
- ``MarkovChain`` (``log_probability``; ``MarkovChain(k=2).fit``), ``BayesianNetwork``
  (``log_probability``, batch ``summarize``; ``predict`` on masked evidence by loopy belief
  propagation over its factor graph: the Monty Hall example; ``fit`` with Chow-Liu and exact
  structure learning), ``FactorGraph`` (``log_probability``, ``fit``, ``predict_proba`` on masked
  evidence);
- the README's "probabilistic models as losses": a small net's outputs scored by a fixed
  full-covariance ``Normal`` and by a ``GeneralMixtureModel``, and a neural HMM (a net's
  log-softmax as the ``emissions=`` of ``DenseHMM.forward_backward``).

Eval: the method's output (log-probabilities, posteriors, predictions, the forward matrix,
paths, samples). Train: the library's own training step, since its parameters are
``requires_grad=False``: ``fit`` (from unfitted components where the tutorials do so), then the
fitted model's score of the data, or one EM step as its ``fit`` loop runs it
(``logp = model.summarize(X); model.from_summaries()``); for the "as loss" models, the mean of
the log-density (``mean_loss_module``), differentiated into the net. Pure inference
(``forward_backward``, ``viterbi``, ``sample``, masked-evidence ``predict``/``predict_proba``)
is eval only (the factory raises for "train"); ``ZeroInflated`` runs ``fit`` in both (1.1.2
gives it no ``log_probability``: the base class raises).

    pip install --no-deps pomegranate==1.1.2 apricot-select==0.6.1

pomegranate imports torch, numpy, scipy, scikit-learn, networkx (structure learning) and apricot
(``apricot-select``, pure Python: submodular centroid selection; it imports numba, tqdm, scipy
and scikit-learn, all already installed; its ``nose`` requirement is never imported). Nothing
stubbed.

Left out: the submodular k-means initializations (``init='submodular-facility-location'`` /
``'submodular-feature-based'``: apricot's numba kernels, not torch); ``DenseHMM.sample`` /
``SparseHMM.sample`` (a numpy ``RandomState.choice`` walk per step); ``LogNormal().fit`` from an
unfitted distribution (1.1.2's ``LogNormal.summarize`` reads ``self.means.dtype`` before
initializing: AttributeError; it is fitted from given parameters inside the heterogeneous
mixture instead); ``BayesClassifier`` over HMMs (``BayesMixin`` takes 2-D data only); and, to
stay within 40 models, the distributions whose code paths the above already run (``Poisson``
inside ``ZeroInflated``, ``StudentT``, ``Uniform``, ``HalfNormal``, ``DiracDelta``, ``Bernoulli``
inside the naive Bayes), ``DenseHMM.backward`` alone (``forward_backward`` runs it) and
``MarkovChain.sample``.
"""

import functools

PACKAGE = "pomegranate"

_N, _D = 20, 3  # rows, features
_SEQ, _LEN = 4, 8  # sequences, steps


def warm_up():
    import torch  # noqa: F401
    import pomegranate.bayes_classifier  # noqa: F401
    import pomegranate.bayesian_network  # noqa: F401
    import pomegranate.gmm  # noqa: F401
    import pomegranate.hmm  # noqa: F401
    import pomegranate.kmeans  # noqa: F401
    import pomegranate.markov_chain  # noqa: F401


def _eval_only(mode, what):
    if mode == "train":
        raise NotImplementedError(f"{what}: inference only, no training step (eval only)")


# --- random parameters and data -------------------------------------------------------------

def _probs(*shape):
    """Random probabilities normalized over the last dimension."""
    import torch

    p = torch.rand(*shape) + 0.1
    return p / p.sum(dim=-1, keepdim=True)


def _cov(d):
    import torch

    a = torch.randn(d, d)
    return a @ a.T / d + torch.eye(d)


def _real(n=_N, d=_D):
    import torch

    return torch.randn(n, d)


def _positive(*shape):
    import torch

    return torch.exp(torch.randn(*(shape or (_N, _D))))  # the README's data


def _counts(*shape, high=5):
    import torch

    return torch.randint(0, high, shape or (_N, _D))


def _masked(X, p=0.3):
    """The README's missing values: a ``MaskedTensor`` hiding about ``p`` of the entries."""
    import torch

    mask = torch.rand(X.shape) > p
    return torch.masked.MaskedTensor(X, mask=mask)


# --- training steps -----------------------------------------------------------------------

def _fit_then_score(model, *fit_args, score="log_probability"):
    """``model.fit(*fit_args)`` (the README's ``Exponential().fit(X)``), then the fitted model's
    score of the data."""

    def fit_then_score(X):
        return getattr(model.fit(X, *fit_args), score)(X)

    return fit_then_score


def _em_step(model, **kwargs):
    """One EM step as the library's ``fit`` loop runs it: summarize the batch (its
    log-likelihood), then update the parameters from the summaries."""

    def em_step(X):
        logp = model.summarize(X, **kwargs)
        model.from_summaries()
        return logp

    return em_step


# --- distributions ------------------------------------------------------------------------

def _dist(build, fresh, data, method="log_probability"):
    """eval: ``build()``'s ``method`` on the data; train: ``fresh()`` (unfitted) ``fit`` then
    ``log_probability``."""

    def make(mode):
        X = data()
        if mode == "train":
            return _fit_then_score(fresh()), (X,), {}
        return getattr(build(), method), (X,), {}

    return make


def _d():
    import pomegranate.distributions as D

    return D


def _normal_full():
    import torch

    return _d().Normal(torch.randn(_D), _cov(_D))


def _normal_diag():
    import torch

    return _d().Normal(torch.randn(_D), torch.rand(_D) + 0.5, covariance_type="diag")


def _exponential():
    import torch

    return _d().Exponential(torch.rand(_D) + 0.5)


def _gamma():
    import torch

    return _d().Gamma(torch.rand(_D) + 1.0, torch.rand(_D) + 0.5)


def _categorical(d=_D, k=4):
    return _d().Categorical(_probs(d, k))


def _lognormal():
    import torch

    return _d().LogNormal(torch.randn(_D) * 0.1, torch.rand(_D) + 0.5, covariance_type="diag")


def _independent():
    D = _d()
    return D.IndependentComponents([D.Normal([0.3], [1.2], covariance_type="diag"),
                                    D.Exponential([1.5]), D.Gamma([2.0], [0.7])])


def _independent_fresh():
    D = _d()
    return D.IndependentComponents([D.Normal(covariance_type="diag"), D.Exponential(), D.Gamma()])


def _independent_data():
    import torch

    return torch.cat([torch.randn(_N, 1), _positive(_N, 2)], dim=1)


def _zero_inflated_data():
    import torch

    X = _counts()
    return X * (torch.rand(X.shape) > 0.3)


def _zero_inflated_fit(mode):
    """``fit`` (EM over the zero / Poisson components), the only public use: 1.1.2's
    ``ZeroInflated`` has no ``log_probability`` (the base class raises). eval: over a Poisson with
    given rates; train: ``ZeroInflated(Poisson()).fit(X)`` (the Poisson fitted first)."""
    import torch

    D = _d()
    if mode == "train":
        model = D.ZeroInflated(D.Poisson(), max_iter=5)
    else:
        model = D.ZeroInflated(D.Poisson(torch.rand(_D) * 3 + 0.5), max_iter=5)

    def fit_zero_inflated(X):
        return model.fit(X).priors

    return fit_zero_inflated, (_zero_inflated_data(),), {}


def _conditional_categorical():
    """One parent (3 values) and one child (3 values) per feature: ``(n, 2, d)`` data."""
    return _d().ConditionalCategorical([_probs(3, 3) for _ in range(2)])


def _conditional_data():
    return _counts(_N, 2, 2, high=3)


def _joint_categorical():
    p = _probs(2 * 3 * 2)
    return _d().JointCategorical(p.reshape(2, 3, 2))


def _joint_data():
    import torch

    return torch.stack([torch.randint(0, 2, (_N,)), torch.randint(0, 3, (_N,)), torch.randint(0, 2, (_N,))], 1)


def _masked_normal(mode):
    """The README's missing values: ``Normal(covariance_type='diag').fit(X_masked)``."""
    X = _masked(_real())
    if mode == "train":
        return _fit_then_score(_d().Normal(covariance_type="diag")), (X,), {}
    return _normal_diag().log_probability, (X,), {}


def _exponential_summarize(mode):
    """The out-of-core tutorial: ``summarize`` two batches, then ``from_summaries``; eval: the
    module's ``forward`` (``summarize`` + ``log_probability``)."""
    X = _positive()
    d = _exponential()
    if mode == "train":
        def two_batches(X):
            d.summarize(X[: _N // 2])
            d.summarize(X[_N // 2:])
            d.from_summaries()
            return d.scales

        return two_batches, (X,), {}
    return d, (X,), {}


# --- mixtures, Bayes classifiers, k-means ----------------------------------------------------

def _gmm_exponential(mode):
    """The tests' fixture (two Exponentials, priors [0.7, 0.3]), random scales."""
    from pomegranate.gmm import GeneralMixtureModel

    model = GeneralMixtureModel([_exponential(), _exponential()], priors=[0.7, 0.3])
    X = _positive()
    if mode == "train":
        return _em_step(model), (X,), {}
    return model.predict_proba, (X,), {}


def _gmm_normal_full(mode):
    """eval: ``log_probability``; train: ``GeneralMixtureModel([Normal(), Normal()]).fit(X)``."""
    from pomegranate.gmm import GeneralMixtureModel

    D = _d()
    X = _real()
    if mode == "train":
        model = GeneralMixtureModel([D.Normal(), D.Normal()], max_iter=5, random_state=0)
        return _fit_then_score(model), (X,), {}
    model = GeneralMixtureModel([_normal_full(), _normal_full()])
    return model.log_probability, (X,), {}


def _gmm_heterogeneous(mode):
    """The README's heterogeneous mixture: Gamma + Exponential + LogNormal components."""
    from pomegranate.gmm import GeneralMixtureModel

    X = _positive()
    model = GeneralMixtureModel([_gamma(), _exponential(), _lognormal()], max_iter=5)
    if mode == "train":
        return _fit_then_score(model, score="predict"), (X,), {}
    return model.predict, (X,), {}


def _gmm_priors(mode):
    """The priors tutorial: semi-supervised, a one-hot prior for the labeled rows, uniform
    otherwise; components fitted on the labeled rows; eval: ``predict_proba(X, priors=)``,
    train: ``fit(X, priors=priors)``."""
    import torch
    from pomegranate.gmm import GeneralMixtureModel

    D = _d()
    X = _real()
    y = torch.randint(0, 3, (_N,))
    y[_N // 2:] = -1
    priors = torch.zeros(_N, 3) + 1.0 / 3
    priors[y >= 0] = torch.nn.functional.one_hot(y[y >= 0], 3).float()
    dists = [D.Normal(covariance_type="diag").fit(X[:_N // 2][y[:_N // 2] == i]) for i in range(3)]
    model = GeneralMixtureModel(dists, max_iter=5)
    if mode == "train":
        def fit_semisupervised(X, priors):
            return model.fit(X, priors=priors).predict_proba(X)

        return fit_semisupervised, (X, priors), {}
    return model.predict_proba, (X,), {"priors": priors}


def _gmm_sample(mode):
    _eval_only(mode, "GeneralMixtureModel.sample")
    from pomegranate.gmm import GeneralMixtureModel

    model = GeneralMixtureModel([_normal_full(), _normal_full(), _normal_full()], priors=[0.2, 0.5, 0.3])
    return model.sample, (16,), {}


def _bayes_classifier_normal(mode):
    """The Bayes classifier tutorial: diagonal Normals; eval ``predict_proba``; train
    ``BayesClassifier([Normal(covariance_type='diag') ...]).fit(X, y)``."""
    import torch
    from pomegranate.bayes_classifier import BayesClassifier

    D = _d()
    X = _real()
    if mode == "train":
        y = torch.arange(_N) % 3
        model = BayesClassifier([D.Normal(covariance_type="diag") for _ in range(3)])

        def fit_classifier(X, y):
            return model.fit(X, y).predict_log_proba(X)

        return fit_classifier, (X, y), {}
    model = BayesClassifier([_normal_diag() for _ in range(3)])
    return model.predict_proba, (X,), {}


def _naive_bayes_bernoulli(mode):
    """Naive Bayes over binary features (``BayesClassifier`` of ``Bernoulli``); eval
    ``predict``, train one summarize / from_summaries step on labeled data."""
    import torch
    from pomegranate.bayes_classifier import BayesClassifier

    D = _d()
    X = _counts(high=2)
    model = BayesClassifier([D.Bernoulli(torch.rand(_D) * 0.8 + 0.1) for _ in range(2)], priors=[0.4, 0.6])
    if mode == "train":
        y = torch.arange(_N) % 2

        def labeled_step(X, y):
            model.summarize(X, y)
            model.from_summaries()
            return model.predict_log_proba(X)

        return labeled_step, (X, y), {}
    return model.predict, (X,), {}


def _kmeans(mode):
    """eval ``predict`` with given centroids; train ``KMeans(k=3).fit(X)`` (first-k init)."""
    import torch
    from pomegranate.kmeans import KMeans

    X = _real()
    if mode == "train":
        model = KMeans(k=3, max_iter=5)

        def fit_kmeans(X):
            return model.fit(X).centroids

        return fit_kmeans, (X,), {}
    model = KMeans(centroids=torch.randn(3, _D))
    return model.predict, (X,), {}


# --- hidden Markov models -------------------------------------------------------------------

def _transitions(k):
    """Random starts, a (k, k) transition matrix and ends (each row and its end sum to 1)."""
    t = _probs(k, k + 1)
    return _probs(k), t[:, :k], t[:, k]


def _dense(emissions="exponential", k=2):
    from pomegranate.hmm import DenseHMM

    dists = [_exponential() if emissions == "exponential" else _categorical(1, 4) for _ in range(k)]
    starts, edges, ends = _transitions(k)
    return DenseHMM(dists, edges=edges, starts=starts, ends=ends, random_state=0)


def _sparse(emissions="exponential"):
    """A 3-state left-to-right-ish sparse graph (5 of the 9 edges)."""
    from pomegranate.hmm import SparseHMM

    d = [_exponential() if emissions == "exponential" else _categorical(1, 4) for _ in range(3)]
    edges = [[d[0], d[0], 0.6], [d[0], d[1], 0.35], [d[1], d[1], 0.5], [d[1], d[2], 0.45], [d[2], d[2], 0.9]]
    return SparseHMM(d, edges=edges, starts=[0.8, 0.15, 0.05], ends=[0.05, 0.05, 0.1], random_state=0)


def _seqs(kind="exponential"):
    if kind == "exponential":
        return _positive(_SEQ, _LEN, _D)
    return _counts(_SEQ, _LEN, 1, high=4)


def _hmm(build, method, train="em", data="exponential"):
    """eval: ``method`` (None: the module itself, i.e. the forward algorithm); train: one EM
    step (``"em"``) or none (``None``: eval only)."""

    def make(mode):
        model = build()
        X = _seqs(data)
        if mode == "train":
            if train is None:
                _eval_only(mode, f"{type(model).__name__}.{method}")
            return _em_step(model), (X,), {}
        return (model if method is None else getattr(model, method)), (X,), {}

    return make


def _dense_add_edge(mode):
    """The HMM tutorial's CG-island model built with ``add_distributions`` / ``add_edge``
    (Categorical emissions over 4 symbols, an end state); eval ``predict``, train an EM step."""
    from pomegranate.hmm import DenseHMM

    d1 = _d().Categorical([[0.25, 0.25, 0.25, 0.25]])
    d2 = _d().Categorical(_probs(1, 4))
    model = DenseHMM()
    model.add_distributions([d1, d2])
    model.add_edge(model.start, d1, 0.5)
    model.add_edge(model.start, d2, 0.5)
    model.add_edge(d1, d1, 0.89)
    model.add_edge(d1, d2, 0.10)
    model.add_edge(d1, model.end, 0.01)
    model.add_edge(d2, d1, 0.1)
    model.add_edge(d2, d2, 0.9)
    X = _seqs("categorical")
    if mode == "train":
        return _em_step(model), (X,), {}
    return model.predict, (X,), {}


def _dense_priors(mode):
    """Partially labeled sequences: a prior per step (one-hot where labeled, uniform elsewhere);
    eval ``predict_proba(X, priors=)``, train an EM step with the priors."""
    import torch

    model = _dense(k=2)
    X = _seqs()
    priors = torch.zeros(_SEQ, _LEN, 2) + 0.5
    priors[:, 0] = torch.tensor([1.0, 0.0])
    if mode == "train":
        return _em_step(model, priors=priors), (X,), {}
    return model.predict_proba, (X,), {"priors": priors}


def _dense_fit(mode):
    """The HMM tutorial's ``DenseHMM([Normal(), Normal(), Normal()], max_iter=5).fit(X3)``:
    k-means initialization, uniform transitions, EM; eval: ``log_probability``."""
    from pomegranate.hmm import DenseHMM

    D = _d()
    X = _real(_SEQ * _LEN, 2).reshape(_SEQ, _LEN, 2)
    if mode == "train":
        model = DenseHMM([D.Normal(), D.Normal(), D.Normal()], max_iter=5, random_state=0)
        return _fit_then_score(model), (X,), {}
    import torch

    dists = [D.Normal(torch.randn(2), _cov(2)) for _ in range(3)]
    starts, edges, ends = _transitions(3)
    model = DenseHMM(dists, edges=edges, starts=starts, ends=ends)
    return model.log_probability, (X,), {}


def _dense_fit_variable_length(mode):
    """``fit`` on a list of sequences of different lengths (grouped into equal-length blobs by
    ``partition_sequences``); eval: ``predict`` on one blob."""
    import torch

    model = _dense(k=2)
    seqs = [_positive(n, _D) for n in (5, 7, 5, 9)]
    if mode == "train":
        def fit_sequences(seqs):
            model.max_iter = 3
            model.fit(seqs)
            return model.edges

        return fit_sequences, (seqs,), {}
    return model.predict, (torch.stack([seqs[0], seqs[2]]),), {}


def _sparse_fit(mode):
    """``SparseHMM`` over unfitted Exponentials and an edge list, then ``fit``; eval:
    ``log_probability`` of a fitted-by-hand model."""
    from pomegranate.hmm import SparseHMM

    D = _d()
    X = _seqs()
    if mode == "train":
        d = [D.Exponential(), D.Exponential()]
        edges = [[d[0], d[0], 0.7], [d[0], d[1], 0.3], [d[1], d[1], 0.8], [d[1], d[0], 0.2]]
        model = SparseHMM(d, edges=edges, starts=[0.5, 0.5], ends=[0.1, 0.1], max_iter=3, random_state=0)
        return _fit_then_score(model), (X,), {}
    return _sparse().log_probability, (X,), {}


# --- Markov chains, Bayesian networks, factor graphs ------------------------------------------

def _markov_chain_model():
    """The tests' fixture shape: k=2 over 3 symbols, random probabilities."""
    from pomegranate.markov_chain import MarkovChain

    D = _d()
    return MarkovChain([D.Categorical(_probs(1, 3)), D.ConditionalCategorical([_probs(3, 3)]),
                        D.ConditionalCategorical([_probs(3, 3, 3)])])


def _markov_chain(mode):
    """eval ``log_probability``; train the tutorial's ``MarkovChain(k=2).fit(X)``."""
    from pomegranate.markov_chain import MarkovChain

    X = _counts(_SEQ * 3, _LEN, 1, high=3)
    if mode == "train":
        return _fit_then_score(MarkovChain(k=2)), (X,), {}
    return _markov_chain_model().log_probability, (X,), {}


def _bn_model():
    """The tutorial's four-node network: two roots, a child of one, a child of two."""
    from pomegranate.bayesian_network import BayesianNetwork

    D = _d()
    d1, d2 = D.Categorical(_probs(1, 2)), D.Categorical(_probs(1, 3))
    d3 = D.ConditionalCategorical([_probs(2, 2)])
    d4 = D.ConditionalCategorical([_probs(3, 2, 2)])
    return BayesianNetwork([d1, d2, d3, d4], [(d1, d3), (d2, d4), (d3, d4)])


def _bn_data():
    import torch

    return torch.stack([torch.randint(0, 2, (_N,)), torch.randint(0, 3, (_N,)),
                        torch.randint(0, 2, (_N,)), torch.randint(0, 2, (_N,))], 1)


def _bayesian_network(mode):
    """eval ``log_probability``; train the tutorial's ``summarize`` of two batches and
    ``from_summaries``."""
    model = _bn_model()
    X = _bn_data()
    if mode == "train":
        def two_batches(X):
            model.summarize(X[:5])
            model.summarize(X[5:])
            model.from_summaries()
            return model.log_probability(X)

        return two_batches, (X,), {}
    return model.log_probability, (X,), {}


def _bn_monty_hall(mode):
    """The Monty Hall example verbatim: guest, prize, Monty conditioned on both; ``predict`` of
    Monty's door."""
    _eval_only(mode, "BayesianNetwork.predict")
    import torch
    from pomegranate.bayesian_network import BayesianNetwork

    D = _d()
    guest, prize = D.Categorical([[1. / 3, 1. / 3, 1. / 3]]), D.Categorical([[1. / 3, 1. / 3, 1. / 3]])
    monty = D.ConditionalCategorical(torch.tensor([[
        [[0.0, 0.5, 0.5], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
        [[0.0, 0.0, 1.0], [0.5, 0.0, 0.5], [1.0, 0.0, 0.0]],
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]]]))
    model = BayesianNetwork([guest, prize, monty], [(guest, monty), (prize, monty)])
    X = torch.tensor([[0, 1, -1], [0, 2, -1], [2, 1, -1]])
    return model.predict, (torch.masked.MaskedTensor(X, mask=X >= 0),), {}


def _bn_structure(algorithm):
    """train: ``BayesianNetwork(algorithm=...).fit(X)`` (structure learning, then the
    conditional tables); eval: ``log_probability`` of ``BayesianNetwork(structure=...)``
    fitted in the factory."""

    def make(mode):
        from pomegranate.bayesian_network import BayesianNetwork

        X = _bn_data()
        if mode == "train":
            return _fit_then_score(BayesianNetwork(algorithm=algorithm)), (X,), {}
        model = BayesianNetwork(structure=((), (0,), (1,), (1, 2))).fit(X)
        return model.log_probability, (X,), {}

    return make


def _factor_graph_model():
    """The tests' fixture: 4 marginals, two univariate and two joint factors."""
    from pomegranate.factor_graph import FactorGraph

    D = _d()
    f1, f3 = D.Categorical(_probs(1, 2)), D.Categorical(_probs(1, 2))
    f2 = D.JointCategorical(_probs(12).reshape(2, 3, 2))
    f4 = D.JointCategorical(_probs(4).reshape(2, 2))
    m1, m2, m3, m4 = (D.Categorical([[0.5, 0.5]]), D.Categorical([[1. / 3, 1. / 3, 1. / 3]]),
                      D.Categorical([[0.5, 0.5]]), D.Categorical([[0.5, 0.5]]))
    model = FactorGraph()
    for f in (f1, f2, f3, f4):
        model.add_factor(f)
    for m in (m1, m2, m3, m4):
        model.add_marginal(m)
    for m, f in ((m1, f1), (m1, f2), (m2, f2), (m3, f2), (m3, f3), (m3, f4), (m4, f4)):
        model.add_edge(m, f)
    return model


def _factor_graph(mode):
    """eval ``log_probability``; train the tutorial's ``fit(X)``."""
    model = _factor_graph_model()
    X = _bn_data()[:, [0, 1, 2, 3]]
    if mode == "train":
        return _fit_then_score(model), (X,), {}
    return model.log_probability, (X,), {}


def _factor_graph_predict_proba(mode):
    _eval_only(mode, "FactorGraph.predict_proba")
    return _factor_graph_model().predict_proba, (_masked(_bn_data()[:6], p=0.4),), {}


# --- probabilistic models as losses -----------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch

    class DensityScore(torch.nn.Module):
        """A small net whose outputs a fixed pomegranate model scores (a density prior on
        embeddings): the log-density of each output row."""

        def __init__(self, model, d_in=5, d_out=_D):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(d_in, 16), torch.nn.Tanh(), torch.nn.Linear(16, d_out))
            self.model = model

        def forward(self, x):
            return self.model.log_probability(self.net(x))

    class NeuralHMM(torch.nn.Module):
        """A hybrid HMM: a net's per-step log-softmax over the states as the ``emissions`` of
        ``DenseHMM.forward_backward``; the sequences' log-likelihood and the state posteriors."""

        def __init__(self, hmm, d_in=_D, k=2):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(d_in, 16), torch.nn.ReLU(), torch.nn.Linear(16, k))
            self.hmm = hmm

        def forward(self, x):
            emissions = torch.log_softmax(self.net(x), dim=-1)
            _, r, _, _, logp = self.hmm.forward_backward(emissions=emissions)
            return logp, r

    return types.SimpleNamespace(DensityScore=DensityScore, NeuralHMM=NeuralHMM)


def _as_loss(build):
    def make(mode):
        import torch

        net = build()
        x = torch.randn(_N, 5) if isinstance(net, _nets().DensityScore) else torch.randn(_SEQ, _LEN, _D)
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _normal_loss():
    return _nets().DensityScore(_normal_full())


def _gmm_loss():
    from pomegranate.gmm import GeneralMixtureModel

    return _nets().DensityScore(GeneralMixtureModel([_normal_diag() for _ in range(3)]))


def _neural_hmm():
    return _nets().NeuralHMM(_dense(k=2))


mean_loss_module = None  # benchmarks/zoo/adapter.mean_loss_module, set by ZooSuite


MODELS = {
    # distributions: eval log_probability, train fit from scratch then log_probability
    "Normal_full": _dist(_normal_full, lambda: _d().Normal(), _real),
    "Normal_diag": _dist(_normal_diag, lambda: _d().Normal(covariance_type="diag"), _real),
    "Normal_diag_masked": _masked_normal,
    "Exponential": _dist(_exponential, lambda: _d().Exponential(), _positive),
    "Exponential_summarize": _exponential_summarize,
    "Gamma": _dist(_gamma, lambda: _d().Gamma(), _positive),
    "Categorical": _dist(_categorical, lambda: _d().Categorical(), lambda: _counts(high=4)),
    "IndependentComponents": _dist(_independent, _independent_fresh, _independent_data),
    "ZeroInflated_Poisson_fit": _zero_inflated_fit,
    "ConditionalCategorical": _dist(_conditional_categorical, lambda: _d().ConditionalCategorical(),
                                    _conditional_data),
    "JointCategorical": _dist(_joint_categorical, lambda: _d().JointCategorical(), _joint_data),
    # mixtures, classifiers, k-means
    "GMM_exponential": _gmm_exponential,
    "GMM_normal_full_fit": _gmm_normal_full,
    "GMM_heterogeneous": _gmm_heterogeneous,
    "GMM_priors_semisupervised": _gmm_priors,
    "GMM_sample": _gmm_sample,
    "BayesClassifier_normal_diag": _bayes_classifier_normal,
    "NaiveBayes_bernoulli": _naive_bayes_bernoulli,
    "KMeans": _kmeans,
    # hidden Markov models
    "DenseHMM_forward": _hmm(_dense, None),
    "DenseHMM_forward_backward": _hmm(_dense, "forward_backward", train=None),
    "DenseHMM_viterbi": _hmm(_dense, "viterbi", train=None),
    "DenseHMM_add_edge_categorical": _dense_add_edge,
    "DenseHMM_priors": _dense_priors,
    "DenseHMM_normal_fit": _dense_fit,
    "DenseHMM_fit_variable_length": _dense_fit_variable_length,
    "SparseHMM_forward": _hmm(_sparse, None),
    "SparseHMM_predict_proba": _hmm(lambda: _sparse("categorical"), "predict_proba", data="categorical"),
    "SparseHMM_viterbi": _hmm(_sparse, "viterbi", train=None),
    "SparseHMM_fit": _sparse_fit,
    # Markov chains, Bayesian networks, factor graphs
    "MarkovChain": _markov_chain,
    "BayesianNetwork": _bayesian_network,
    "BayesianNetwork_monty_hall_predict": _bn_monty_hall,
    "BayesianNetwork_chow_liu": _bn_structure("chow-liu"),
    "BayesianNetwork_exact": _bn_structure("exact"),
    "FactorGraph": _factor_graph,
    "FactorGraph_predict_proba_masked": _factor_graph_predict_proba,
    # probabilistic models as losses
    "Normal_full_as_loss": _as_loss(_normal_loss),
    "GMM_as_loss": _as_loss(_gmm_loss),
    "NeuralHMM_forward_backward": _as_loss(_neural_hmm),
}
