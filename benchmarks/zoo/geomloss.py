"""GeomLoss 0.3.1 (Jean Feydy): optimal-transport and kernel losses between point clouds, as a
user trains with them: small ``nn.Module`` models whose forward computes a GeomLoss loss between
what the model produces and a target cloud, tiny (8-24 points in 2-D / 3-D, batches of 3, hidden
layers of 16 units), random weights, no download, pykeops absent (backend ``"tensorized"``, or
``"auto"``, which picks it at these sizes).

Models (36):
- ``SamplesLoss("sinkhorn")``: a learnable point cloud fitted to a target (the gradient-flow /
  registration examples: ``x`` an ``nn.Parameter``) with the defaults (``backend="auto"``), p=1,
  ``debias=False`` (the "SoftAssign" entropic OT cost), unbalanced (``reach``), a given
  ``diameter``, a fine ``blur`` with ``scaling=0.9``; an MLP generator (noise -> points) against
  data; a weighted generator (points and softmax weights: ``loss(a, x, b, y)``), the same with
  ``(N, 1)`` weight columns and unbalanced with unnormalised masses; a batched PointNet-style
  autoencoder on ``(B, N, D)`` clouds (``.mean()`` of the batch vector), the batched weighted
  call with zero-padded targets of two sizes (the ``plot_batch_ot`` example's "padded weights");
  a custom ``cost`` callable (an L1 ground cost on ``(B, N, D)`` clouds); the dual
  ``potentials=True`` (weighted, then the dual objective ``<a, F> + <b, G>`` as the loss);
  domain adaptation (a feature extractor's source and target features aligned with Sinkhorn,
  plus cross-entropy on the source labels); a 3-D float64 shape-registration model (an affine
  map and translation fitted to a target cloud);
- ``"energy"``, ``"gaussian"``, ``"laplacian"`` MMDs: the same point-cloud fit, the generator,
  weighted, batched, ``potentials=True``, a custom ``kernel`` callable (a two-scale Gaussian
  with the library's ``use_keops`` / ``ranges`` keywords) and a moment-matching MMD-GAN-style
  generator (``gaussian`` at three blurs summed);
- the new ``geomloss.ot`` API (0.3): ``ot.solve`` on a cost matrix from learned features
  (``torch.cdist``; ``.value``), weighted and unbalanced, the transport ``.plan`` against the
  cost (``(plan * C).sum()``), ``ot.solve_batch`` on ``(B, N, M)`` costs; ``ot.solve_sample`` on
  clouds (``.value``; ``debias=True`` with weights and ``blur``; ``blur`` + ``reach``), the plan's
  barycentric projection as a regression target, the dual ``potential_a`` / ``potential_b``, and
  ``marginal_a`` against the source weights (``max_iter`` is required by the 0.3.1 solvers; 10).

Eval: the loss (a validation metric); ``potentials=True`` models return the potentials ``(F, G)``.
Train: the same forward (the loss a user's compiled training step backpropagates); the
``potentials=True`` models return the dual objective instead.

    pip install --no-deps geomloss==0.3.1

(geomloss needs numpy and torch, both there; scipy is declared but not imported by these paths.)
Nothing stubbed; pykeops not installed (``keops_available = False``: the ``try`` imports fail).

Left out: the ``"online"`` and ``"multiscale"`` backends and cluster labels (``l_x, l_y``: they
need pykeops; ``online`` fails eagerly with ``NameError: generic_logsumexp``); ``"hausdorff"``
(fails eagerly in 0.3.1 with every backend: ``routines["hausdorff"]`` maps to ``kernel_loss``
without a ``name``, ``KeyError: None``); the image routines ``sinkhorn_divergence`` (grids) and
``ImagesBarycenter`` (``softmin_grid`` raises ``ImportError`` without pykeops);
``ot.solve_grid``, ``ot.barycenter*`` and ``ot.solve_sample_batch`` (stubs in 0.3.1: they raise
``NameError`` / ``NotImplementedError``); ``ot.solve_sample(cost="euclidean")``
(``NotImplementedError``); ``OTResult.a_to_b`` (returns ``None``). The list form of targets
shown in the ``plot_batch_ot`` example is not in 0.3.1's ``process_args``.
"""

import functools

PACKAGE = "geomloss"

_N, _M, _D = 16, 12, 2  # source points, target points, dimension
_B = 3  # batch of clouds
_H = 16  # hidden width
_Z = 4  # noise size
_ITERS = 10  # max_iter for the geomloss.ot solvers


def warm_up():
    import torch  # noqa: F401

    import geomloss  # noqa: F401
    import geomloss.ot  # noqa: F401


# --- data ---------------------------------------------------------------------------------------

def _cloud(n=_N, d=_D, batch=None, seed=0, dtype=None):
    import torch

    g = torch.Generator().manual_seed(seed)
    shape = (n, d) if batch is None else (batch, n, d)
    x = torch.rand(shape, generator=g)
    return x if dtype is None else x.to(dtype)


def _weights(n, batch=None, seed=1):
    import torch

    g = torch.Generator().manual_seed(seed)
    shape = (n,) if batch is None else (batch, n)
    return torch.rand(shape, generator=g).softmax(-1)


def _mlp(d_in, d_out):
    import torch.nn as nn

    return nn.Sequential(nn.Linear(d_in, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, d_out))


# --- model classes (as a user writes them) ----------------------------------------------------

@functools.cache
def _classes():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from geomloss import SamplesLoss

    class CloudFit(nn.Module):
        """Gradient flow / registration: a learnable source cloud fitted to the target."""

        def __init__(self, loss, n=_N, d=_D):
            super().__init__()
            self.x = nn.Parameter(torch.rand(n, d))
            self.loss = loss

        def forward(self, y):
            return self.loss(self.x, y)

    class Generator(nn.Module):
        """An MLP generator (noise -> points) trained against data samples."""

        def __init__(self, loss, d=_D):
            super().__init__()
            self.net = _mlp(_Z, d)
            self.loss = loss

        def forward(self, z, y):
            return self.loss(self.net(z), y)

    class WeightedGenerator(nn.Module):
        """Points and their masses (softmax of a score head): ``loss(a, x, b, y)``."""

        def __init__(self, loss, d=_D, column=False, mass=None):
            super().__init__()
            self.net = _mlp(_Z, d + 1)
            self.loss = loss
            self.column = column
            self.mass = mass

        def forward(self, z, b, y):
            out = self.net(z)
            x, score = out[..., :-1], out[..., -1]
            if self.mass is None:
                a = score.softmax(-1)
            else:  # unbalanced: unnormalised masses
                a = self.mass * torch.sigmoid(score) / score.shape[-1]
            if self.column:
                a, b = a.unsqueeze(-1), b.unsqueeze(-1)
            return self.loss(a, x, b, y)

    class CloudAutoencoder(nn.Module):
        """PointNet-style autoencoder on (B, N, D) clouds, trained with a batched loss."""

        def __init__(self, loss, n=_N, d=_D):
            super().__init__()
            self.n, self.d = n, d
            self.point = nn.Sequential(nn.Linear(d, _H), nn.ReLU(), nn.Linear(_H, _H))
            self.decode = nn.Sequential(nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, n * d))
            self.loss = loss

        def forward(self, x):
            code = self.point(x).max(dim=1).values  # (B, H)
            recon = self.decode(code).view(x.shape[0], self.n, self.d)
            return self.loss(recon, x).mean()

    class PaddedBatch(nn.Module):
        """One source against targets of different sizes, zero-padded with zero weights."""

        def __init__(self, loss, d=_D):
            super().__init__()
            self.net = _mlp(d, d)
            self.loss = loss

        def forward(self, x, y, z):
            B = 2
            pad = max(y.shape[0], z.shape[0])
            x_ = self.net(x).unsqueeze(0).repeat(B, 1, 1)
            t_ = torch.stack([F.pad(y, (0, 0, 0, pad - y.shape[0])), F.pad(z, (0, 0, 0, pad - z.shape[0]))])
            a_ = torch.ones(B, x.shape[0]).type_as(x) / x.shape[0]
            w_ = torch.stack([
                F.pad(torch.ones(y.shape[0]).type_as(y) / y.shape[0], (0, pad - y.shape[0])),
                F.pad(torch.ones(z.shape[0]).type_as(z) / z.shape[0], (0, pad - z.shape[0])),
            ])
            return self.loss(a_, x_, w_, t_).sum()

    class Potentials(nn.Module):
        """``potentials=True``: the dual vectors (eval) or the dual objective (train)."""

        def __init__(self, loss, d=_D):
            super().__init__()
            self.net = _mlp(_Z, d)
            self.loss = loss

        def forward(self, z, a, b, y):
            x = self.net(z)
            f, g = self.loss(a, x, b, y)
            if self.training:
                return (a * f).sum() + (b * g).sum()
            return f, g

    class DomainAdaptation(nn.Module):
        """A feature extractor and classifier: cross-entropy on source labels plus an OT
        alignment of source and target features."""

        def __init__(self, loss, d_in=6, d_feat=4, classes=3, weight=0.1):
            super().__init__()
            self.features = nn.Sequential(nn.Linear(d_in, _H), nn.ReLU(), nn.Linear(_H, d_feat))
            self.head = nn.Linear(d_feat, classes)
            self.loss = loss
            self.weight = weight

        def forward(self, xs, ys, xt):
            fs, ft = self.features(xs), self.features(xt)
            return F.cross_entropy(self.head(fs), ys) + self.weight * self.loss(fs, ft)

    class AffineRegistration(nn.Module):
        """A 3-D affine map (matrix and translation) registering a source shape on a target."""

        def __init__(self, loss):
            super().__init__()
            self.A = nn.Parameter(torch.eye(3, dtype=torch.float64))
            self.t = nn.Parameter(torch.zeros(3, dtype=torch.float64))
            self.loss = loss

        def forward(self, x, y):
            return self.loss(x @ self.A.T + self.t, y)

    class MultiScaleMMD(nn.Module):
        """Moment-matching generator: Gaussian MMDs at several blurs, summed."""

        def __init__(self, blurs=(0.05, 0.2, 1.0), d=_D):
            super().__init__()
            self.net = _mlp(_Z, d)
            self.losses = nn.ModuleList([SamplesLoss("gaussian", blur=s, backend="tensorized") for s in blurs])

        def forward(self, z, y):
            x = self.net(z)
            return sum(loss(x, y) for loss in self.losses)

    return dict(CloudFit=CloudFit, Generator=Generator, WeightedGenerator=WeightedGenerator,
                CloudAutoencoder=CloudAutoencoder, PaddedBatch=PaddedBatch, Potentials=Potentials,
                DomainAdaptation=DomainAdaptation, AffineRegistration=AffineRegistration,
                MultiScaleMMD=MultiScaleMMD)


@functools.cache
def _ot_classes():
    import torch
    import torch.nn as nn
    from geomloss import ot

    class MatrixOT(nn.Module):
        """``ot.solve`` on the squared distances between learned features."""

        def __init__(self, out="value", weighted=False, unbalanced=None, reg=0.1):
            super().__init__()
            self.features = _mlp(_D, 4)
            self.out, self.weighted, self.unbalanced, self.reg = out, weighted, unbalanced, reg

        def forward(self, x, y, a=None, b=None):
            fx, fy = self.features(x), self.features(y)
            C = torch.cdist(fx, fy) ** 2
            kw = dict(a=a, b=b) if self.weighted else {}
            res = ot.solve(C, reg=self.reg, unbalanced=self.unbalanced, max_iter=_ITERS, **kw)
            if self.out == "plan":
                return (res.plan * C).sum()
            if self.out == "marginal":
                return ((res.marginal_a - a) ** 2).sum() + res.value
            return res.value

    class BatchMatrixOT(nn.Module):
        """``ot.solve_batch`` on a batch of learned-feature cost matrices."""

        def __init__(self, reg=0.1):
            super().__init__()
            self.features = _mlp(_D, 4)
            self.reg = reg

        def forward(self, x, y):
            C = torch.cdist(self.features(x), self.features(y)) ** 2  # (B, N, M)
            return ot.solve_batch(C, reg=self.reg, max_iter=_ITERS).value.mean()

    class SampleOT(nn.Module):
        """``ot.solve_sample`` between generated points and data."""

        def __init__(self, out="value", weighted=False, **solver):
            super().__init__()
            self.net = _mlp(_Z, _D)
            self.out, self.weighted, self.solver = out, weighted, solver

        def forward(self, z, y, a=None, b=None):
            x = self.net(z)
            kw = dict(a=a, b=b) if self.weighted else {}
            res = ot.solve_sample(x, y, max_iter=_ITERS, **kw, **self.solver)
            if self.out == "plan":  # barycentric projection as a regression target
                P = res.plan
                target = (P @ y) / P.sum(1, keepdim=True)
                return ((x - target.detach()) ** 2).sum(-1).mean()
            if self.out == "potentials":
                f, g = res.potential_a, res.potential_b
                return f.mean() + g.mean()
            if self.out == "marginal":
                m = res.marginal_a
                return res.value + ((m - torch.ones_like(m) / m.shape[0]) ** 2).sum()
            return res.value

    return dict(MatrixOT=MatrixOT, BatchMatrixOT=BatchMatrixOT, SampleOT=SampleOT)


# --- factories ----------------------------------------------------------------------------------

def _loss(name, **kw):
    from geomloss import SamplesLoss

    kw.setdefault("backend", "tensorized")
    return SamplesLoss(name, **kw)


def _l1_cost(x, y):
    """A user ground cost for the tensorized backend: (B, N, D), (B, M, D) -> (B, N, M)."""
    return (x[:, :, None, :] - y[:, None, :, :]).abs().sum(-1)


def _two_scale_gaussian(x, y, blur=0.05, use_keops=False, ranges=None):
    """A user kernel: (B, N, D), (B, M, D) -> (B, N, M), the library's kernel keywords."""
    import torch

    d2 = ((x[:, :, None, :] - y[:, None, :, :]) ** 2).sum(-1)
    return torch.exp(-d2 / (2 * blur**2)) + torch.exp(-d2 / (2 * (4 * blur) ** 2))


def _fit(name, **kw):
    def make(mode):
        return _classes()["CloudFit"](_loss(name, **kw)), (_cloud(_M, seed=2),), {}

    return make


def _generator(name, **kw):
    def make(mode):
        return _classes()["Generator"](_loss(name, **kw)), (_cloud(_N, _Z, seed=3), _cloud(_M, seed=2)), {}

    return make


def _weighted(name, column=False, mass=None, **kw):
    def make(mode):
        net = _classes()["WeightedGenerator"](_loss(name, **kw), column=column, mass=mass)
        b = _weights(_M, seed=4)
        if mass is not None:
            b = b * 0.8
        return net, (_cloud(_N, _Z, seed=3), b, _cloud(_M, seed=2)), {}

    return make


def _autoencoder(name, **kw):
    def make(mode):
        return _classes()["CloudAutoencoder"](_loss(name, **kw)), (_cloud(_N, batch=_B, seed=5),), {}

    return make


def _padded(mode):
    net = _classes()["PaddedBatch"](_loss("sinkhorn", p=2, blur=0.05))
    return net, (_cloud(_N, seed=6), _cloud(_M, seed=2), _cloud(8, seed=7)), {}


def _potentials(name, **kw):
    def make(mode):
        net = _classes()["Potentials"](_loss(name, potentials=True, **kw))
        return net, (_cloud(_N, _Z, seed=3), _weights(_N, seed=8), _weights(_M, seed=4), _cloud(_M, seed=2)), {}

    return make


def _domain_adaptation(mode):
    import torch

    net = _classes()["DomainAdaptation"](_loss("sinkhorn", p=2, blur=0.1, scaling=0.7))
    g = torch.Generator().manual_seed(9)
    xs, xt = torch.randn(_N, 6, generator=g), torch.randn(_M, 6, generator=g) + 0.5
    return net, (xs, torch.arange(_N) % 3, xt), {}


def _registration(mode):
    import torch

    net = _classes()["AffineRegistration"](_loss("sinkhorn", p=2, blur=0.02, scaling=0.8, backend="auto"))
    x = _cloud(24, 3, seed=10, dtype=torch.float64)
    y = x @ torch.tensor([[0.9, 0.1, 0.0], [-0.1, 1.1, 0.0], [0.0, 0.0, 1.0]], dtype=torch.float64) + 0.2
    return net, (x, y), {}


def _multiscale_mmd(mode):
    return _classes()["MultiScaleMMD"](), (_cloud(_N, _Z, seed=3), _cloud(_M, seed=2)), {}


def _custom_kernel(mode):
    net = _classes()["Generator"](_loss("gaussian", blur=0.1, kernel=_two_scale_gaussian))
    return net, (_cloud(_N, _Z, seed=3), _cloud(_M, seed=2)), {}


def _matrix_ot(out="value", weighted=False, unbalanced=None):
    def make(mode):
        net = _ot_classes()["MatrixOT"](out=out, weighted=weighted, unbalanced=unbalanced)
        args = (_cloud(_N, seed=6), _cloud(_M, seed=2))
        if weighted:
            a, b = _weights(_N, seed=8), _weights(_M, seed=4)
            if unbalanced is not None:
                b = b * 1.5
            args += (a, b)
        return net, args, {}

    return make


def _batch_matrix_ot(mode):
    return _ot_classes()["BatchMatrixOT"](), (_cloud(_N, batch=_B, seed=5), _cloud(_M, batch=_B, seed=11)), {}


def _sample_ot(out="value", weighted=False, **solver):
    def make(mode):
        net = _ot_classes()["SampleOT"](out=out, weighted=weighted, **solver)
        args = (_cloud(_N, _Z, seed=3), _cloud(_M, seed=2))
        if weighted:
            args += (_weights(_N, seed=8), _weights(_M, seed=4))
        return net, args, {}

    return make


MODELS = {
    # SamplesLoss("sinkhorn")
    "SinkhornFit": _fit("sinkhorn", backend="auto"),
    "SinkhornFitP1": _fit("sinkhorn", p=1, blur=0.05),
    "SinkhornFitNoDebias": _fit("sinkhorn", p=2, blur=0.05, debias=False),
    "SinkhornFitUnbalanced": _fit("sinkhorn", p=2, blur=0.05, reach=0.3),
    "SinkhornFitDiameter": _fit("sinkhorn", p=2, blur=0.05, diameter=2.0),
    "SinkhornFitFineScaling": _fit("sinkhorn", p=2, blur=0.01, scaling=0.9),
    "SinkhornGenerator": _generator("sinkhorn", p=2, blur=0.05),
    "SinkhornWeighted": _weighted("sinkhorn", p=2, blur=0.05),
    "SinkhornWeightedColumn": _weighted("sinkhorn", column=True, p=2, blur=0.05),
    "SinkhornWeightedUnbalanced": _weighted("sinkhorn", mass=1.5, p=1, blur=0.05, reach=0.5),
    "SinkhornAutoencoder": _autoencoder("sinkhorn", p=2, blur=0.05),
    "SinkhornPaddedBatch": _padded,
    "SinkhornCustomCost": _generator("sinkhorn", p=1, blur=0.05, cost=_l1_cost),
    "SinkhornPotentials": _potentials("sinkhorn", p=2, blur=0.05),
    "SinkhornDomainAdaptation": _domain_adaptation,
    "SinkhornRegistration3D": _registration,
    # kernel MMDs
    "EnergyFit": _fit("energy", backend="auto"),
    "EnergyGenerator": _generator("energy"),
    "EnergyAutoencoder": _autoencoder("energy"),
    "GaussianFit": _fit("gaussian", blur=0.1),
    "GaussianWeighted": _weighted("gaussian", blur=0.1),
    "GaussianPotentials": _potentials("gaussian", blur=0.1),
    "GaussianCustomKernel": _custom_kernel,
    "GaussianMultiScaleMMD": _multiscale_mmd,
    "LaplacianGenerator": _generator("laplacian", blur=0.1),
    "LaplacianAutoencoder": _autoencoder("laplacian", blur=0.1),
    "LaplacianPotentials": _potentials("laplacian", blur=0.1),
    # geomloss.ot
    "OTSolveValue": _matrix_ot(),
    "OTSolveWeightedUnbalanced": _matrix_ot(weighted=True, unbalanced=1.0),
    "OTSolvePlan": _matrix_ot(out="plan"),
    "OTSolveMarginal": _matrix_ot(out="marginal", weighted=True),
    "OTSolveBatch": _batch_matrix_ot,
    "OTSolveSampleValue": _sample_ot(reg=0.01),
    "OTSolveSampleDebiased": _sample_ot(weighted=True, blur=0.05, debias=True),
    "OTSolveSampleUnbalanced": _sample_ot(blur=0.05, reach=0.3),
    "OTSolveSamplePlan": _sample_ot(out="plan", reg=0.01),
    "OTSolveSamplePotentials": _sample_ot(out="potentials", blur=0.05),
    "OTSolveSampleMarginal": _sample_ot(out="marginal", blur=0.05),
}
