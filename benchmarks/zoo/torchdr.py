"""TorchDR 0.5: dimensionality reduction in PyTorch (neighbor embeddings, spectral methods,
affinities, distances, evaluation metrics), as a user compiles it: small ``nn.Module`` wrappers
around the estimators, affinities and functional API; tiny random data (60-80 points in three blobs, 6
features, 2-D embeddings), few iterations (``max_iter`` 4-6), random weights, no download,
``backend=None`` (plain PyTorch; pykeops and faiss not installed).

Models:
- estimators, ``fit_transform`` (eval) as the README shows (``TSNE(...).fit_transform(X)``):
  ``TSNE`` (also with ``optimizer="Adam"``/``lr=1e-1`` and a ``scheduler``), ``SNE``, ``UMAP``
  (closed-form gradients), ``LargeVis``, ``InfoTSNE``, ``TSNEkhorn``, ``COSNE`` (hyperbolic,
  ``RiemannianAdam``), ``PACMAP``, ``PHATE``, a generic ``AffinityMatcher`` (an
  ``EntropicAffinity`` input, a ``NormalizedStudentAffinity`` output, cross-entropy loss),
  ``PCA``, ``KernelPCA`` (a ``NormalizedGaussianAffinity(sigma=10, zero_diag=False,
  normalization_dim=None)`` kernel: the default affinity raises "Input matrix has significant
  negative eigenvalues" eagerly on this data),
  ``IncrementalPCA`` (``batch_size``), ``ExactIncrementalPCA``; the parametric use
  (``encoder=`` an MLP) of ``TSNE`` and ``UMAP``; out-of-sample ``transform``: ``UMAP``
  (non-parametric, ``X_train=``) and ``PCA.transform``;
- affinities called on data (``affinity(X)``), as the docs' affinity examples do:
  ``NormalizedGaussianAffinity``, ``NormalizedStudentAffinity``, ``SelfTuningAffinity``,
  ``MAGICAffinity``, ``EntropicAffinity`` (dense and sparse, ``return_indices``),
  ``SymmetricEntropicAffinity``, ``SinkhornAffinity`` (``with_grad=True``),
  ``DoublyStochasticQuadraticAffinity``, ``UMAPAffinity``, ``PHATEAffinity``, ``PACMAPAffinity``;
- functional API: ``pairwise_distances`` (several metrics; k-NN with ``return_indices``),
  ``binary_search`` / ``false_position`` (the per-point root search the entropic affinities use),
  ``utils.cross_entropy_loss`` / ``square_loss`` / ``entropy``, and the evaluation metrics
  ``silhouette_score``, ``silhouette_samples``, ``neighborhood_preservation``,
  ``knn_label_accuracy`` (``backend=None``).

Eval: the estimator's ``fit_transform`` (the whole fit: input affinity, init, the optimisation
loop; run under ``torch.enable_grad()``, since the fit backpropagates its own loss), the
affinity matrix, the function's result. Train: for the neighbor-embedding estimators and
``AffinityMatcher``, the library's own training-step loss with the parametric encoder
(``encoder=`` an MLP, a documented option): the estimator is fitted eagerly at build for one
iteration with ``clear_memory`` switched off on the instance (so the input affinity, k-NN
indices, optimizer and negative-sampling state stay, as inside ``fit``), then forward runs what
``_training_step`` runs before ``backward()``: ``on_training_step_start()`` (negative sampling),
``embedding_ = encoder(X)``, ``_compute_loss()``; for ``UMAP`` (closed-form gradients,
``_compute_gradients()`` under ``no_grad``) the loss is ``(embedding_ * gradients).sum()``, whose
gradient is what ``embedding_.backward(gradient=...)`` gives. ``PHATE`` takes no encoder: its
step optimises the raw embedding, held as an ``nn.Parameter`` of the wrapper. Spectral
estimators (no gradient through their SVD: in-place ``svd_flip``): ``fit_transform`` then a
``Linear`` head, ``mean_loss_module``; ``PCA.transform`` on ``Linear`` features. Affinities
(most are not differentiable in their input: in-place ops): a parametric embedding trained
against them: ``P = affinity(X)`` under ``no_grad``, ``Z = MLP(X)``, the t-SNE cross-entropy
against ``NormalizedStudentAffinity(Z)`` (dense ``P``), or the attractive term on the k-NN edges
``(P * log1p(|z_i - z_j|^2)).sum()`` plus a log-partition repulsion (sparse ``P`` with indices;
``PACMAPAffinity`` returns no weights, uniform ones). Functions: the same call on ``Linear``
features, ``mean_loss_module``. No train setting (the factory raises, recorded as skipped):
``neighborhood_preservation``, ``knn_label_accuracy`` (metrics without gradients) and
``UMAP_transform`` (optimises the new points under ``no_grad``).
``TSNE_encoder``: ``optimizer="Adam"``, ``lr=1e-2`` (the default ``lr="auto"`` SGD gave NaNs in
the embedding at iteration 2 eagerly with an encoder).

    pip install --no-deps torchdr==0.5

(torchdr imports torch, numpy, scikit-learn (``sklearn.base.BaseEstimator``, ``adjusted_rand_score``)
and scipy (``find_ab_params``), all already installed: numpy 2.4.6, scikit-learn 1.9.1, scipy 1.17.1.)
Nothing stubbed; pykeops and faiss absent (their ``try`` imports fail; ``backend=None``).

Left out: ``kmeans_ari`` (needs faiss), the ``keops`` / ``faiss`` backends, ``DataLoader`` inputs
and the distributed / sharded paths (multi-process), the plotting helpers, the CLI.
Measured first as it came, before any rule looked at it.
"""

PACKAGE = "torchdr"
SETTINGS = ("eval", "train")

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_N, _D, _IT = 80, 6, 5


def warm_up():
    import torch  # noqa: F401

    import torchdr  # noqa: F401


def _data(n=_N, d=_D, seed=0):
    import torch

    g = torch.Generator().manual_seed(seed)
    # three blobs, so neighbourhoods mean something
    centers = torch.randn(3, d, generator=g) * 3
    labels = torch.arange(n) % 3
    return centers[labels] + torch.randn(n, d, generator=g), labels


def _mlp(d=_D, out=2):
    from torch import nn

    return nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, out))


def _classes():
    import torch
    from torch import nn

    class FitTransform(nn.Module):
        """est.fit_transform(X) (optionally on Linear features)."""

        def __init__(self, est, features=None, head=None):
            super().__init__()
            self.est = est
            self.features = features
            self.head = head

        def forward(self, X):
            if self.features is not None:
                X = self.features(X)
            with torch.enable_grad():  # the fit backpropagates its own loss
                Z = self.est.fit_transform(X)
            if self.head is not None:
                return self.head(Z)
            return Z

    class TrainStep(nn.Module):
        """the loss part of AffinityMatcher._training_step with an encoder."""

        def __init__(self, est):
            super().__init__()
            self.est = est
            if est.encoder is None:  # the raw embedding, as a parameter of the step
                self.emb = nn.Parameter(est.embedding_.detach().clone())

        def forward(self, X):
            est = self.est
            est.on_training_step_start()
            est.embedding_ = est.encoder(X) if est.encoder is not None else self.emb
            if getattr(est, "_use_closed_form_gradients", False):
                g = est._compute_gradients()
                return (est.embedding_ * g).sum()
            return est._compute_loss()

    class AffinityCall(nn.Module):
        def __init__(self, aff, features=None, **call_kw):
            super().__init__()
            self.aff = aff
            self.features = features
            self.call_kw = call_kw

        def forward(self, X):
            if self.features is not None:
                X = self.features(X)
            return self.aff(X, **self.call_kw)

    class Fn(nn.Module):
        def __init__(self, fn, features=None):
            super().__init__()
            self.fn = fn
            self.features = features

        def forward(self, X, *rest):
            if self.features is not None:
                X = self.features(X)
            return self.fn(X, *rest)

    class AffinityLoss(nn.Module):
        """parametric embedding trained against the affinity: P = aff(X) (no grad), Z = enc(X),
        the t-SNE cross-entropy against a Student affinity of Z (dense P), or its attractive
        term on the k-NN edges (sparse P with indices)."""

        def __init__(self, aff, enc, **call_kw):
            super().__init__()
            self.aff = aff
            self.enc = enc
            self.call_kw = call_kw

        def forward(self, X):
            from torchdr import NormalizedStudentAffinity
            from torchdr.utils import cross_entropy_loss

            with torch.no_grad():
                out = self.aff(X, **self.call_kw)
            Z = self.enc(X)
            if isinstance(out, tuple):
                P, idx = out
                if P is None:  # PACMAPAffinity: the neighbour pairs only
                    P = torch.full(idx.shape, 1.0 / idx.numel(), dtype=Z.dtype)
                d = (Z[:, None, :] - Z[idx]).pow(2).sum(-1)
                return (P * torch.log1p(d)).sum() + torch.log((1 + torch.cdist(Z, Z).pow(2)).reciprocal().sum())
            log_Q = NormalizedStudentAffinity()(Z, log=True)
            return cross_entropy_loss(out, log_Q, log=True)

    return FitTransform, TrainStep, AffinityCall, Fn, AffinityLoss


def _estimator(cls_name, ne=True, **kw):
    """ne: a neighbor-embedding / affinity-matching estimator (train = encoder loss step)."""

    def make(mode):
        import torch

        import torchdr

        FitTransform, TrainStep = _classes()[:2]
        X, _ = _data()
        cls = getattr(torchdr, cls_name)
        kw_ = {k: (v(torchdr) if k == "affinity" else v) for k, v in kw.items()}
        if mode == "eval" or not ne:
            est = cls(**kw_)
            if mode == "eval":
                return FitTransform(est), (X,), {}
            # spectral: fit on the data, a linear head on the components
            return mean_loss_module()(FitTransform(est, head=torch.nn.Linear(2, 3))), (X,), {}
        if cls_name == "PHATE":  # no encoder option: the embedding itself is optimised
            est = cls(**{**kw, "max_iter": 1})
        else:
            est = cls(encoder=_mlp(), **{**kw, "max_iter": 1})
        est.clear_memory = lambda: None  # keep the fit's state (affinity, optimizer) for the step
        est.fit_transform(X)
        return TrainStep(est), (X,), {}

    return make


def _affinity_matcher(mode):
    import torch

    import torchdr

    FitTransform, TrainStep = _classes()[:2]
    X, _ = _data()
    kw = dict(affinity_in=torchdr.EntropicAffinity(perplexity=10, sparsity=False),
              affinity_out=torchdr.NormalizedStudentAffinity(), loss_fn="cross_entropy_loss",
              max_iter=_IT, lr=1e-1, init="normal")
    if mode == "eval":
        return FitTransform(torchdr.AffinityMatcher(**kw)), (X,), {}
    est = torchdr.AffinityMatcher(encoder=_mlp(), **{**kw, "max_iter": 1})
    est.clear_memory = lambda: None
    est.fit_transform(X)
    return TrainStep(est), (X,), {}


def _parametric(cls_name, **kw):
    """fit_transform with an encoder (eval); the encoder's loss step (train)."""

    def make(mode):
        import torchdr

        FitTransform, TrainStep = _classes()[:2]
        X, _ = _data()
        cls = getattr(torchdr, cls_name)
        if mode == "eval":
            return FitTransform(cls(encoder=_mlp(), **kw)), (X,), {}
        est = cls(encoder=_mlp(), **{**kw, "max_iter": 1})
        est.clear_memory = lambda: None
        est.fit_transform(X)
        return TrainStep(est), (X,), {}

    return make


def _transform(cls_name, **kw):
    """fit eagerly at build, then transform new points."""

    def make(mode):
        import torch
        from torch import nn

        import torchdr

        if mode == "train" and cls_name != "PCA":
            raise RuntimeError("no training use: the transform optimises new points under no_grad")
        X, _ = _data()
        Xn, _ = _data(n=20, seed=1)
        est = getattr(torchdr, cls_name)(**kw)
        est.fit(X)

        class Transform(nn.Module):
            def __init__(self):
                super().__init__()
                self.est = est
                self.features = nn.Linear(_D, _D) if mode == "train" else None

            def forward(self, X_new, X_train):
                if self.features is not None:
                    X_new = self.features(X_new)
                if cls_name == "PCA":
                    return self.est.transform(X_new)
                return self.est.transform(X_new, X_train=X_train)

        net = Transform()
        if mode == "train":
            net = mean_loss_module()(net)
        return net, (Xn, X), {}

    return make


def _affinity(cls_name, call_kw=None, **kw):
    def make(mode):
        import torch

        import torchdr

        AffinityCall = _classes()[2]
        X, _ = _data(n=60)
        aff = getattr(torchdr, cls_name)(**kw)
        if mode == "eval":
            return AffinityCall(aff, **(call_kw or {})), (X,), {}
        return _classes()[4](aff, _mlp(), **(call_kw or {})), (X,), {}

    return make


def _fn(build, train=True):
    """build() -> (fn, extra args); fn(X, *extra)."""

    def make(mode):
        import torch

        if mode == "train" and not train:
            raise RuntimeError("no training use: an evaluation metric without gradients")

        Fn = _classes()[3]
        X, labels = _data(n=60)
        fn, extra = build(X, labels)
        if mode == "eval":
            return Fn(fn), (X, *extra), {}
        return mean_loss_module()(Fn(fn, torch.nn.Linear(_D, _D))), (X, *extra), {}

    return make


def _pd(metric, k=None):
    def build(X, labels):
        from torchdr import pairwise_distances

        def fn(X):
            if k is None:
                return pairwise_distances(X, metric=metric, backend=None)
            return pairwise_distances(X, metric=metric, backend=None, k=k, exclude_diag=True,
                                      return_indices=True)

        return fn, ()

    return build


def _pd_xy(X, labels):
    from torchdr import pairwise_distances

    def fn(X, Y):
        return pairwise_distances(X, Y, metric="sqeuclidean", backend=None)

    return fn, (X[:10] + 0.1,)


def _root(kind):
    def build(X, labels):
        import torch

        import torchdr
        from torchdr import pairwise_distances

        search = getattr(torchdr, kind)

        def fn(X):
            # per-point bandwidth whose Gaussian row has entropy log(perplexity=10)
            C = pairwise_distances(X, metric="sqeuclidean", backend=None)
            C = C + torch.eye(C.shape[0], dtype=C.dtype) * 1e12
            target = torch.log(torch.tensor(10.0, dtype=X.dtype))

            def entropy_gap(eps):
                log_P = -C / eps[:, None]
                log_P = log_P - torch.logsumexp(log_P, dim=1, keepdim=True)
                H = -(log_P.exp() * log_P).sum(1)
                return H - target

            eps = search(entropy_gap, n=C.shape[0], begin=0.1, end=100.0, max_iter=20,
                         dtype=X.dtype, device=X.device)
            return torch.softmax(-C / eps.detach()[:, None], dim=1)

        return fn, ()

    return build


def _losses(X, labels):
    import torch

    from torchdr import NormalizedGaussianAffinity, NormalizedStudentAffinity
    from torchdr.utils import cross_entropy_loss, entropy, square_loss

    P = NormalizedGaussianAffinity(normalization_dim=None)(X.detach()).detach()

    def fn(X):
        Z = X[:, :2]
        log_Q = NormalizedStudentAffinity()(Z, log=True)
        Q = log_Q.exp()
        return (cross_entropy_loss(P, log_Q, log=True), cross_entropy_loss(P, Q),
                square_loss(P, Q), entropy(log_Q, log=True, dim=1).mean())

    return fn, ()


def _silhouette(samples):
    def build(X, labels):
        from torchdr import silhouette_samples, silhouette_score

        def fn(X, labels):
            if samples:
                return silhouette_samples(X, labels, backend=None, warn=False)
            return silhouette_score(X, labels, backend=None, warn=False)

        return fn, (labels,)

    return build


def _neigh_pres(X, labels):
    from torchdr import neighborhood_preservation

    Z = X[:, :2].clone()

    def fn(X, Z):
        return neighborhood_preservation(X, Z, K=5, backend=None, distributed=False)

    return fn, (Z,)


def _knn_acc(X, labels):
    from torchdr import knn_label_accuracy

    def fn(X, labels):
        return knn_label_accuracy(X, labels, k=5, backend=None, distributed=False)

    return fn, (labels,)


MODELS = {
    # --- estimators ---
    "TSNE": _estimator("TSNE", perplexity=10, max_iter=_IT, check_interval=2),
    "TSNE_adam_scheduler": _estimator("TSNE", perplexity=10, max_iter=_IT, optimizer="Adam", lr=1e-1,
                                      optimizer_kwargs=None, scheduler="LinearLR", init="random"),
    "SNE": _estimator("SNE", perplexity=10, max_iter=_IT),
    "UMAP": _estimator("UMAP", n_neighbors=10, max_iter=_IT),
    "LargeVis": _estimator("LargeVis", perplexity=10, max_iter=_IT),
    "InfoTSNE": _estimator("InfoTSNE", perplexity=10, max_iter=_IT),
    "TSNEkhorn": _estimator("TSNEkhorn", perplexity=10, max_iter=_IT),
    "COSNE": _estimator("COSNE", perplexity=10, max_iter=_IT),
    "PACMAP": _estimator("PACMAP", n_neighbors=5, max_iter=_IT),
    "PHATE": _estimator("PHATE", k=5, t=5, max_iter=_IT),
    "AffinityMatcher": _affinity_matcher,
    "PCA": _estimator("PCA", ne=False, n_components=2),
    "KernelPCA": _estimator("KernelPCA", ne=False, n_components=2, affinity=lambda tdr: (
        tdr.NormalizedGaussianAffinity(sigma=10.0, zero_diag=False, normalization_dim=None))),
    "IncrementalPCA": _estimator("IncrementalPCA", ne=False, n_components=2, batch_size=20),
    "ExactIncrementalPCA": _estimator("ExactIncrementalPCA", ne=False, n_components=2),
    "TSNE_encoder": _parametric("TSNE", perplexity=10, max_iter=_IT, optimizer="Adam", lr=1e-2,
                                 optimizer_kwargs=None),
    "UMAP_encoder": _parametric("UMAP", n_neighbors=10, max_iter=_IT),
    "UMAP_transform": _transform("UMAP", n_neighbors=10, max_iter=_IT),
    "PCA_transform": _transform("PCA", n_components=2),
    # --- affinities ---
    "NormalizedGaussianAffinity": _affinity("NormalizedGaussianAffinity", sigma=1.0),
    "NormalizedStudentAffinity": _affinity("NormalizedStudentAffinity", degrees_of_freedom=1.0),
    "SelfTuningAffinity": _affinity("SelfTuningAffinity", K=5),
    "MAGICAffinity": _affinity("MAGICAffinity", K=5),
    "EntropicAffinity_dense": _affinity("EntropicAffinity", perplexity=10, sparsity=False,
                                        max_iter=30),
    "EntropicAffinity_sparse": _affinity("EntropicAffinity", call_kw=dict(return_indices=True),
                                         perplexity=10, max_iter=30),
    "SymmetricEntropicAffinity": _affinity("SymmetricEntropicAffinity", perplexity=10, max_iter=10,
                                           check_interval=5),
    "SinkhornAffinity": _affinity("SinkhornAffinity", eps=1.0, max_iter=10, with_grad=True),
    "DoublyStochasticQuadraticAffinity": _affinity("DoublyStochasticQuadraticAffinity", eps=1.0,
                                                   max_iter=10, check_interval=5),
    "UMAPAffinity": _affinity("UMAPAffinity", call_kw=dict(return_indices=True), n_neighbors=10,
                              max_iter=30),
    "PHATEAffinity": _affinity("PHATEAffinity", k=5, t=3),
    "PACMAPAffinity": _affinity("PACMAPAffinity", call_kw=dict(return_indices=True), n_neighbors=5),
    # --- functional API ---
    "pairwise_distances_sqeuclidean": _fn(_pd("sqeuclidean")),
    "pairwise_distances_manhattan": _fn(_pd("manhattan")),
    "pairwise_distances_angular": _fn(_pd("angular")),
    "pairwise_distances_XY": _fn(_pd_xy),
    "pairwise_distances_knn": _fn(_pd("euclidean", k=5)),
    "binary_search": _fn(_root("binary_search")),
    "false_position": _fn(_root("false_position")),
    "losses": _fn(_losses),
    "silhouette_score": _fn(_silhouette(False)),
    "silhouette_samples": _fn(_silhouette(True)),
    "neighborhood_preservation": _fn(_neigh_pres, train=False),
    "knn_label_accuracy": _fn(_knn_acc, train=False),
}
