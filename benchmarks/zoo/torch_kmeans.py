"""torch-kmeans 0.2.0 (jokofa): batched k-means as ``nn.Module`` clustering models, as its README,
example notebooks (``examples/notebooks``) and tests call them, tiny (batches of 2-4 instances of
20 points in 2-D, up to 4-10 features for the learned embeddings), random data drawn as the tests'
``get_data`` draws it (Gaussian blobs, per-cluster normalised weights; in torch rather than
``sklearn.datasets.make_blobs``), no download:

- ``KMeans``: the README's three usages (``model(x)``, ``model.fit(x).predict(x)``,
  ``model.fit_predict(x)``), ``init_method="k-means++"``, given initial centers of shape
  ``(BS, K, D)`` with ``num_init=1`` and with the default ``num_init=8`` (the warned expand), and of
  shape ``(BS, num_init, K, D)``, a different ``k`` per instance (a ``LongTensor``), ``k`` as an
  int at call time and as a ``(BS, 1)`` tensor, ``normalize`` "mean" / "minmax" / "unit",
  ``p_norm=1``, ``CosineSimilarity`` and ``DotProductSimilarity`` distances, ``seed=None``,
  ``verbose=False``, float64 input, 1-D features, a 4-D ``(BS, 1, N, D)`` input (squeezed);
- ``ConstrainedKMeans`` (capacitated: per-sample ``weights`` in (0, 1]): ``model(x, k, weights=w)``
  (the tests' ``n_priority_trials_before_fall_back=20``), ``fit`` / ``predict``, ``fit_predict``,
  the init methods ``"topk"`` (``num_init=1``), ``"k-means++"`` and ``"ckm++"``, a different ``k``
  per instance, ``p_norm=1``, ``raise_infeasible=False`` on over-full capacities for two of the
  four instances (the warned path that drops them);
- ``SoftKMeans`` (the differentiable one; cosine similarity, "unit" normalisation by default):
  ``model(x, k)``, ``fit`` / ``predict``, ``fit_predict``, ``num_init=4`` (best restart picked),
  a different ``k`` per instance, given centers, ``normalize="mean"``, ``DotProductSimilarity``,
  ``temp=1.0``;
- ``KNN`` (``k=3``; ``same_source=False``; cosine on unit-normalised points);
- the distances on their own (``LpDistance`` p=2 / p=1 matrix, ``DotProductSimilarity``,
  ``CosineSimilarity``, ``power=2``, and ``pairwise_distance`` as ``KMeans`` calls it).

Eval: the call as the library returns it (a ``ClusterResult`` / ``KNeighbors`` named tuple, or the
labels of ``predict`` / ``fit_predict``). Train: ``SoftKMeans`` is "completely differentiable
w.r.t. its inputs" (README, notebook): a small linear encoder before it and the notebook's
cross-entropy of ``result.soft_assignment.permute(0, 2, 1)`` against the blob labels, or the
tests' ``soft_assignment.sum()`` (test_gradient_propagation), or a loss on ``result.centers``.
``KMeans`` / ``ConstrainedKMeans`` run their clustering under ``torch.no_grad`` (centers and
labels carry no graph), so their training step is the deep-clustering one: an encoder's
embeddings clustered, then the squared distance of each embedding to its assigned (detached)
center as the loss (a "deep k-means" step; ``ConstrainedKMeans`` may leave a ``-1`` dummy label,
so labels are clamped to 0 before the gather). ``KNN``: the encoder's embeddings pulled to
their neighbours' (gathered by ``indices``). Distances: ``mean_loss_module`` over an encoder then
the distance module.

    pip install --no-deps torch-kmeans==0.2.0

torch-kmeans needs only torch and numpy (both there; numpy is declared but not imported by
0.2.0). Nothing stubbed.

Left out: ``KMeans._init_skl_plus`` (raises ``NotImplementedError``: no user path reaches it);
``tol=None`` (``_check_params`` compares ``None < 0``: TypeError in 0.2.0); ``ConstrainedKMeans``
with ``normalize`` (the argument is dropped: ``NORM_METHODS = []``); the CUDA tests (CPU only);
the speed-comparison notebook (timing against sklearn / kmeans_pytorch, other libraries).
``ConstrainedKMeans_infeasible_warn`` is eval only (its factory raises for "train": the result
drops the infeasible instances, so no embedding / center pairing is left for a loss).
Notes: each true cluster's weights sum to 1/2 here (the tests: 1/1.15), so that a random
encoder's embeddings (train) still admit a feasible capacitated assignment; the infeasible model
uses 1/0.9 on two of its four instances (those two dropped, with the library's warning). The
default ``verbose=True`` (``print`` on convergence) is kept where the README / tests
use defaults; ``max_iter`` is lowered to 10-20 (the tests' ``max_iter=10``; 5 for ``ConstrainedKMeans``,
whose assignment loops over the 20 points each iteration) outside the README / notebook models,
which keep the default 100, to keep capture short.
"""

PACKAGE = "torch_kmeans"
DISTRIBUTION = "torch-kmeans"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_BS, _N, _D, _K = 4, 20, 2, 4
_E = 4  # embedding size of the encoders in "train"


def warm_up():
    import torch  # noqa: F401
    import torch_kmeans  # noqa: F401
    import torch_kmeans.clustering.constr_kmeans  # noqa: F401


# --- data (the tests' get_data, in torch) ------------------------------------------------------

def _data(bs=_BS, n=_N, d=_D, k=_K, different_k=False, k_lims=(2, 5), noise=True, dtype=None, seed=42, slack=2.0):
    """x (bs, n, d), labels y (bs, n), k (bs,), per-cluster normalised weights w (bs, n): each true
    cluster's weights sum to 1 / slack (the tests: 1 / 1.15; a tuple: one slack per instance)."""
    import torch

    g = torch.Generator().manual_seed(seed)
    if different_k:
        ks = torch.randint(k_lims[0], k_lims[1], (bs,), generator=g).long()
    else:
        ks = torch.full((bs,), k, dtype=torch.long)
    xs, ys = [], []
    for kk in ks.tolist():
        centers = torch.rand(kk, d, generator=g) * 20 - 10
        y = torch.arange(n) % kk
        x = centers[y] + torch.randn(n, d, generator=g)
        xs.append(x)
        ys.append(y)
    x, y = torch.stack(xs), torch.stack(ys)
    if noise:
        x = x + torch.randn(x.shape, generator=g)
    w = torch.randn(y.shape, generator=g).abs() + 0.05
    nw = torch.empty(y.shape)
    for i in range(bs):
        for j in range(int(ks[i])):
            m = y[i] == j
            nw[i][m] = w[i][m] / (w[i][m].sum() * (slack[i] if isinstance(slack, tuple) else slack))
    return x.to(dtype or torch.float32), y, ks, nw.to(dtype or torch.float32)


def _centers(x, k, num_init=None, seed=7):
    """Random points of x as initial centers: (bs, k, d), or (bs, num_init, k, d)."""
    import torch

    bs, n, d = x.shape
    g = torch.Generator().manual_seed(seed)
    m = 1 if num_init is None else num_init
    idx = torch.multinomial(torch.full((bs * m, n), 1.0 / n), k, replacement=False, generator=g)
    c = x.gather(1, idx.view(bs, -1)[:, :, None].expand(bs, -1, d)).view(bs, m, k, d)
    return c[:, 0] if num_init is None else c


def _resolve(cfg):
    """Distance classes named by string (the adapter is imported without torch_kmeans)."""
    import torch_kmeans

    cfg = dict(cfg)
    if isinstance(cfg.get("distance"), str):
        cfg["distance"] = getattr(torch_kmeans, cfg["distance"])
    return cfg


# --- wrappers ---------------------------------------------------------------------------------

def _classes():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class FitPredict(nn.Module):
        """sklearn style: ``model.fit(x, ...).predict(x, ...)`` (README)."""

        def __init__(self, km, predict_weights=False):
            super().__init__()
            self.km = km
            self.predict_weights = predict_weights

        def forward(self, x, k=None, weights=None):
            kw = {} if weights is None else {"weights": weights}
            m = self.km.fit(x, k=k, **kw)
            return m.predict(x, **kw) if self.predict_weights else m.predict(x)

    class FitPredictOnce(nn.Module):
        """``model.fit_predict(x, ...)`` (README)."""

        def __init__(self, km):
            super().__init__()
            self.km = km

        def forward(self, x, k=None, **kw):
            return self.km.fit_predict(x, k=k, **kw)

    class DeepKMeans(nn.Module):
        """Train step for the hard clusterers: encode, cluster (no grad inside the library), pull
        each embedding to its assigned center."""

        def __init__(self, km, d=_D, e=_E, call="forward"):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, e))
            self.km = km
            self.call = call

        def forward(self, x, k=None, **kw):
            z = self.enc(x)
            if self.call == "fit_predict":
                labels = self.km.fit(z, k=k, **kw)._result.labels
                res = self.km._result
            else:
                res = self.km(z, k=k, **kw)
                labels = res.labels
            labels = labels.clamp(min=0)
            c = res.centers.gather(1, labels[:, :, None].expand(-1, -1, res.centers.size(-1)))
            zn = res.x_norm
            return F.mse_loss(zn, c.detach().to(zn.dtype))

    class SoftKMeansLoss(nn.Module):
        """Train step for SoftKMeans: encoder, SoftKMeans, a loss on its soft assignment."""

        def __init__(self, km, d=_D, e=_E, loss="ce", call="forward"):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, e))
            self.km = km
            self.loss = loss
            self.call = call

        def forward(self, x, y, k=None, centers=None):
            z = self.enc(x)
            if self.call == "fit":
                res = self.km.fit(z, k=k)._result
            else:
                res = self.km(z, k=k, centers=centers)
            if self.loss == "ce":  # the notebook
                return nn.functional.cross_entropy(res.soft_assignment.permute(0, 2, 1), y)
            if self.loss == "sum":  # test_gradient_propagation
                return res.soft_assignment.sum()
            # centers: spread the centers apart (negative mean pairwise cosine) + assignment entropy
            c = F.normalize(res.centers, dim=-1)
            sep = (c @ c.transpose(1, 2)).mean()
            p = res.soft_assignment
            ent = -(p * torch.log(p + 1e-8)).sum(-1).mean()
            return sep + ent

    class KNNLoss(nn.Module):
        def __init__(self, knn, d=_D, e=_E, same_source=True):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, e))
            self.knn = knn
            self.same_source = same_source

        def forward(self, x):
            z = self.enc(x)
            res = self.knn(z, same_source=self.same_source)
            bs, n, e = z.shape
            idx = res.indices.reshape(bs, -1)
            nb = z.gather(1, idx[:, :, None].expand(-1, -1, e)).view(bs, n, -1, e)
            return ((z[:, :, None, :] - nb) ** 2).sum(-1).mean()

    class Encoded(nn.Module):
        """An encoder then a distance module (train); the distance module alone in eval."""

        def __init__(self, dist, d=_D, e=_E, method="forward"):
            super().__init__()
            self.enc = nn.Linear(d, e)
            self.dist = dist
            self.method = method

        def forward(self, x, y):
            a, b = self.enc(x), self.enc(y)
            if self.method == "pairwise_distance":
                return self.dist.pairwise_distance(a.reshape(-1, a.size(-1)), b.reshape(-1, b.size(-1)))
            return self.dist(a, b)

    class DistanceCall(nn.Module):
        def __init__(self, dist, method="forward"):
            super().__init__()
            self.dist = dist
            self.method = method

        def forward(self, x, y):
            if self.method == "pairwise_distance":
                return self.dist.pairwise_distance(x.reshape(-1, x.size(-1)), y.reshape(-1, y.size(-1)))
            return self.dist(x, y)

    return FitPredict, FitPredictOnce, DeepKMeans, SoftKMeansLoss, KNNLoss, Encoded, DistanceCall


# --- factories --------------------------------------------------------------------------------

def _kmeans(call="forward", k_arg="default", centers=None, data=None, dtype=None, x4d=False, cls="KMeans",
            weights=False, **cfg):
    """KMeans / ConstrainedKMeans. call: forward, fit_predict (fit then predict), fit_predict1.
    k_arg: default (n_clusters), tensor, int, tensor2d, none. centers: None, "3d", "4d"."""

    def make(mode):
        import torch
        import torch_kmeans

        FitPredict, FitPredictOnce, DeepKMeans, _, _, _, _ = _classes()
        x, y, k, w = _data(dtype=getattr(torch, dtype) if dtype else None, **(data or {}))
        km = getattr(torch_kmeans, cls)(**_resolve(cfg))
        kwargs = {}
        if k_arg == "tensor":
            kwargs["k"] = k
        elif k_arg == "int":
            kwargs["k"] = int(k[0])
        elif k_arg == "tensor2d":
            kwargs["k"] = k.unsqueeze(-1)
        if weights:
            kwargs["weights"] = w
        if mode == "train" and cfg.get("raise_infeasible") is False:
            raise NotImplementedError("raise_infeasible=False drops the infeasible instances from the result: "
                                      "no embedding / center pairing for a loss (eval only)")
        if mode == "train":
            # the embeddings are clustered: given initial centers are drawn in embedding space
            if centers is not None:
                g = torch.Generator().manual_seed(3)
                shape = (x.size(0), int(k.max()), _E) if centers == "3d" else (x.size(0), km.num_init, int(k.max()), _E)
                kwargs["centers"] = torch.randn(shape, generator=g, dtype=x.dtype)
            return DeepKMeans(km, d=x.size(-1), call="fit_predict" if call != "forward" else "forward").to(x.dtype), (x,), kwargs
        if centers == "3d":
            kwargs["centers"] = _centers(x, int(k.max()))
        elif centers == "4d":
            kwargs["centers"] = _centers(x, int(k.max()), num_init=km.num_init)
        if x4d:
            x = x[:, None]
        if call == "fit_predict":
            return FitPredict(km, predict_weights=weights), (x,), kwargs
        if call == "fit_predict1":
            return FitPredictOnce(km), (x,), kwargs
        return km, (x,), kwargs

    return make


def _soft(call="forward", k_arg="tensor", centers=False, loss="ce", data=None, **cfg):
    def make(mode):
        import torch_kmeans

        FitPredict, FitPredictOnce, _, SoftKMeansLoss, _, _, _ = _classes()
        x, y, k, w = _data(**(data or {}))
        km = torch_kmeans.SoftKMeans(**_resolve(cfg))
        kwargs = {}
        if k_arg == "tensor":
            kwargs["k"] = k
        if mode == "train":
            if centers:
                # initial centers in embedding space: a fixed random draw of size _E
                import torch

                g = torch.Generator().manual_seed(3)
                kwargs["centers"] = torch.randn(x.size(0), int(k.max()), _E, generator=g)
            return SoftKMeansLoss(km, d=x.size(-1), loss=loss, call="fit" if call != "forward" else "forward"), \
                (x, y), kwargs
        if centers:
            kwargs["centers"] = _centers(x, int(k.max()))
        if call == "fit_predict":
            return FitPredict(km), (x,), kwargs
        if call == "fit_predict1":
            return FitPredictOnce(km), (x,), kwargs
        return km, (x,), kwargs

    return make


def _knn(same_source=True, **cfg):
    def make(mode):
        from torch_kmeans.clustering import KNN  # in __all__ but not imported by 0.2.0's __init__

        _, _, _, _, KNNLoss, _, _ = _classes()
        x, y, k, w = _data()
        knn = KNN(**_resolve(cfg))
        if mode == "train":
            return KNNLoss(knn, same_source=same_source), (x,), {}
        return knn, (x,), {"same_source": same_source}

    return make


def _distance(name, method="forward", **cfg):
    def make(mode):
        import torch
        import torch_kmeans

        _, _, _, _, _, Encoded, DistanceCall = _classes()
        dist = getattr(torch_kmeans, name)(**cfg)
        g = torch.Generator().manual_seed(5)
        x = torch.randn(_BS, 12, 3, generator=g)
        y = torch.randn(_BS, 8 if method == "forward" else 12, 3, generator=g)
        if mode == "train":
            return mean_loss_module()(Encoded(dist, d=3, method=method)), (x, y), {}
        return DistanceCall(dist, method=method), (x, y), {}

    return make


MODELS = {
    # KMeans (README, test_standard_kmeans)
    "KMeans": _kmeans(n_clusters=4),
    "KMeans_fit_predict": _kmeans(call="fit_predict", n_clusters=4),
    "KMeans_fit_predict_once": _kmeans(call="fit_predict1", n_clusters=4),
    "KMeans_kmeanspp": _kmeans(init_method="k-means++", n_clusters=4, max_iter=20),
    "KMeans_centers_num_init1": _kmeans(centers="3d", n_clusters=4, num_init=1, max_iter=20),
    "KMeans_centers_expand": _kmeans(centers="3d", n_clusters=4, max_iter=20),
    "KMeans_centers_4d": _kmeans(centers="4d", n_clusters=4, num_init=4, max_iter=20),
    "KMeans_different_k": _kmeans(k_arg="tensor", data={"different_k": True, "k_lims": (2, 5)}, max_iter=10),
    "KMeans_k_int": _kmeans(k_arg="int", n_clusters=None, max_iter=10),
    "KMeans_k_2d": _kmeans(k_arg="tensor2d", max_iter=10),
    "KMeans_normalize_mean": _kmeans(k_arg="tensor", normalize="mean", max_iter=20),
    "KMeans_normalize_minmax": _kmeans(k_arg="tensor", normalize="minmax", max_iter=10),
    "KMeans_normalize_unit": _kmeans(k_arg="tensor", normalize="unit", max_iter=20),
    "KMeans_p1": _kmeans(k_arg="tensor", p_norm=1, max_iter=20),
    "KMeans_cosine": _kmeans(k_arg="tensor", distance="CosineSimilarity", max_iter=10),
    "KMeans_dot": _kmeans(k_arg="tensor", distance="DotProductSimilarity", max_iter=10),
    "KMeans_seed_none_quiet": _kmeans(n_clusters=4, seed=None, verbose=False, max_iter=20),
    "KMeans_float64": _kmeans(k_arg="tensor", dtype="float64", max_iter=20),
    "KMeans_1d_features": _kmeans(k_arg="tensor", data={"bs": 2, "d": 1}, max_iter=10),
    "KMeans_4d_input": _kmeans(n_clusters=4, x4d=True, max_iter=10),
    # ConstrainedKMeans (test_constrained_kmeans)
    "ConstrainedKMeans": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True, max_iter=5,
                                 n_priority_trials_before_fall_back=20),
    "ConstrainedKMeans_fit_predict": _kmeans(cls="ConstrainedKMeans", call="fit_predict", weights=True,
                                             n_clusters=4, max_iter=5),
    "ConstrainedKMeans_fit_predict_once": _kmeans(cls="ConstrainedKMeans", call="fit_predict1", weights=True,
                                                  n_clusters=4, max_iter=5),
    "ConstrainedKMeans_topk": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True, init_method="topk",
                                      num_init=1, max_iter=5),
    "ConstrainedKMeans_kmeanspp": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True,
                                          init_method="k-means++", num_init=4, max_iter=5),
    "ConstrainedKMeans_ckmpp": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True, init_method="ckm++",
                                       num_init=4, max_iter=5),
    "ConstrainedKMeans_different_k": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True,
                                             data={"different_k": True, "k_lims": (2, 5)}, max_iter=5,
                                             n_priority_trials_before_fall_back=20),
    "ConstrainedKMeans_p1": _kmeans(cls="ConstrainedKMeans", k_arg="tensor", weights=True, p_norm=1, num_init=4,
                                    max_iter=5),
    "ConstrainedKMeans_infeasible_warn": _kmeans(cls="ConstrainedKMeans", k_arg="int", weights=True, n_clusters=None,
                                                 raise_infeasible=False, num_init=2, max_iter=5,
                                                 data={"k": 3, "slack": (0.9, 2.0, 0.9, 2.0)}),
    # SoftKMeans (notebook, test_soft_kmeans)
    "SoftKMeans": _soft(),
    "SoftKMeans_fit_predict": _soft(call="fit_predict", k_arg="none", n_clusters=4, max_iter=20, loss="sum"),
    "SoftKMeans_fit_predict_once": _soft(call="fit_predict1", max_iter=20, loss="sum"),
    "SoftKMeans_num_init4": _soft(num_init=4, max_iter=20, loss="centers"),
    "SoftKMeans_different_k": _soft(data={"different_k": True, "k_lims": (2, 5)}, max_iter=10, loss="sum"),
    "SoftKMeans_centers": _soft(centers=True, max_iter=20, loss="centers"),
    "SoftKMeans_normalize_mean": _soft(normalize="mean", max_iter=20, p_norm=1),
    "SoftKMeans_dot": _soft(distance="DotProductSimilarity", max_iter=10, loss="centers"),
    "SoftKMeans_temp1_quiet": _soft(temp=1.0, verbose=False, max_iter=20),
    # KNN
    "KNN": _knn(k=3),
    "KNN_other_source_cosine_unit": _knn(k=3, same_source=False, distance="CosineSimilarity", normalize="unit"),
    # distances
    "LpDistance": _distance("LpDistance"),
    "LpDistance_p1_raw": _distance("LpDistance", p=1, normalize_embeddings=False),
    "LpDistance_pairwise": _distance("LpDistance", method="pairwise_distance", normalize_embeddings=False),
    "DotProductSimilarity_power2": _distance("DotProductSimilarity", power=2, normalize_embeddings=False),
    "CosineSimilarity": _distance("CosineSimilarity"),
    "CosineSimilarity_pairwise": _distance("CosineSimilarity", method="pairwise_distance"),
}
