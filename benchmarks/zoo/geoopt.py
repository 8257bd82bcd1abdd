"""geoopt 0.5.1 (Max Kochurov et al.): Riemannian geometry for PyTorch, its manifolds and the
manifold operations of hyperbolic neural networks, as its examples
(``examples/mobius_linear_example.py``, the hyperbolic multiclass notebook), its layers
(``geoopt.layers.stereographic``) and its tests (``tests/test_stereographic.py`` etc.) use them,
tiny (batches of 8 points in 2-6 dimensions, 3 classes, 6-node graphs, 3x3-6x6 SPD matrices,
embedding tables of 10-20 rows), random weights, no download:

- the Poincaré ball / stereographic models: the example's ``MobiusLinear`` (bias a
  ``ManifoldParameter``; ``mobius_matvec``, ``mobius_add``, ``logmap0`` / ``expmap0`` around a
  nonlinearity) in a small MLP on ``PoincareBall(c=1)``, a learnable-curvature ball,
  ``Stereographic(k=1)`` and a learnable ``Stereographic(k=0)`` (the Euclidean limit: Taylor
  branches); Ganea et al.'s hyperbolic MLR (closed form with ``mobius_add`` / ``lambda_x`` /
  ``asinh`` and the library's signed ``dist2plane``); the notebook's
  ``Distance2StereographicHyperplanes`` feature extractor (on the ball, and squared on
  ``SphereProjection``) and its ``ndim=2`` convolutional form; Poincaré embeddings
  (``ManifoldParameter`` table, ``dist``, softmax loss over negatives); a hyperbolic GCN
  (tangent-space aggregation with a learnable curvature, and gyro-midpoint aggregation with
  ``weighted_midpoint`` on a learnable ``StereographicExact``; ``mobius_fn_apply``,
  ``dist0``); a hyperbolic GRU over 4 steps (``mobius_pointwise_mul``, ``mobius_fn_apply``); a
  Poincaré VAE step (``transp0``, ``lambda_x``, ``expmap``); the remaining gyrovector operations
  in one forward (``mobius_scalar_mul`` / ``sub`` / ``coadd`` / ``cosub``, ``gyration``,
  ``antipode``, ``geodesic`` / ``geodesic_unit``, ``transp`` / ``transp0back``, ``retr_transp``,
  ``expmap_transp``, ``mobius_fn_apply_chain``, ``egrad2rgrad``, ``inner`` / ``norm``,
  ``sproj`` / ``inv_sproj``, ``dist2``, ``logmap``) on ``PoincareBallExact`` and on
  ``Stereographic(k=1)``; the ``ManifoldParameter`` methods (``proju``, ``expmap``, ``retr``,
  ``transp``, ``dist``, ``logmap``, ``inner``) dispatching to its manifold;
- ``ProductManifold`` (ball x sphere x ``Euclidean(ndim=1)``) embeddings with a distortion loss,
  ``StereographicProductManifold`` (ball x sphere projection x learnable stereographic) with
  ``mobius_matvec`` / ``mobius_add`` / ``mobius_scalar_mul`` / ``dist2plane`` logits, ``Scaled``
  (a learnable scale on the ball; a fixed 2x sphere) embeddings;
- ``Lorentz``: a hyperboloid network with a learnable curvature (``expmap0``, a Lorentz linear
  layer, ``logmap0`` / ``dist0`` / ``inner0`` / ``norm``, ``dist`` to ``ManifoldParameter``
  centroids) and the Lorentz operations (``expmap`` / ``logmap``, ``transp``, ``transp0`` /
  ``transp0back``, ``geodesic_unit``, ``egrad2rgrad``, ``logmap0back``);
- ``Sphere``: a cosine classifier with class weights on the sphere (``retr``, ``transp``,
  ``dist``, ``logmap``) and ``Sphere(intersection=...)`` (a subspace projector);
- ``Stiefel``: orthogonal linear layers on ``CanonicalStiefel`` (the Cayley ``retr_transp``) and
  ``EuclideanStiefel`` (``projx`` by SVD, ``expmap``, ``transp``);
- ``SymmetricPositiveDefinite``: SPDNet (BiMap with a Stiefel weight, ReEig with
  ``linalg.batch_linalg.sym_funcm``, LogEig with ``sym_logm``, the ``dist`` to learned class
  means under the AIM and LEM metrics) and the SPD operations (``expmap`` / ``logmap``,
  ``transp``, ``inner``, ``egrad2rgrad``, ``retr``);
- ``BirkhoffPolytope``: a learned assignment projected by its Sinkhorn ``projx``.

Eval: the model's output (the embeddings and the VAE: their loss). Train: cross-entropy for the
classifiers (``classifier_loss_module``), the own loss where there is one, else the sum of the
means of the outputs (``mean_loss_module``).

    pip install --no-deps geoopt==0.5.1   # (+ numpy 2.4.6, scipy 1.17.1: installed)

It imports torch, numpy and scipy. Nothing stubbed. Measured first as it came, before any rule
looked at it.

Capture (torch 2.13.0+cpu): 30 models, 60 runs, all built, all 60 ran under Dynamo (30 eval, 30
train), none failed. 14 runs have no graph break (Lorentz, Sphere, Stiefel, the scaled sphere).
The breaks: the stereographic math's curvature switches (``if torch.all(k_zero):`` in
``tan_k`` / ``artan_k`` / ``arsin_k``, ``_antipode``: GB0170, and GB7000 where they sit in a
loop: the GRU, the GCN, the product manifolds); ``sym_funcm`` calling ``torch.jit.script`` on
every call (GB0007, SPDNet and the SPD operations); the Sinkhorn tolerance check (GB0170) in the
``@torch.jit.script`` ``proj_doubly_stochastic``; ``take_submanifold_value`` hitting the
recompile limit (``StereographicProduct_HNN[train]``); recompiles in 30 runs. First numbers with
the frozen linter (``/tmp/lint-start54``): graph-break statement recall 0.71 (5/7), precision
0.71 (5/7), 43 findings (36 in files run), 29 unjudged (all not reached). Missed: the
``torch.jit.script`` call in ``_sym_funcm_impl`` and the recompile-limit frame skip. False
alarms: CL102 at ``stereographic/math.py:1967`` (``if posweight and weights.lt(0).any()``:
``posweight`` is a Python ``False`` here, so the tensor side never runs) and CL150 at
``birkhoff_polytope.py:208`` (the Sinkhorn ``while`` loop: Dynamo reported the GB0170 inside
it, not a GB7000 frame skip).

Left out: the Riemannian optimisers and samplers (``RiemannianAdam`` / ``SGD``, ``RSGLD``,
``RHMC``: out of scope, forward and loss only), ``ManifoldTensor.proj_`` (an in-place copy into a
parameter), ``random_normal`` / ``wrapped_normal`` inside a forward (sampling helpers; used at
construction), the Siegel spaces (``UpperHalf``, ``BoundedDomain``: complex matrices),
``SphereExact`` (``Sphere`` with ``retr = expmap``) and ``EuclideanStiefelExact`` (the same code
as those kept). ``Lorentz.egrad2rgrad`` negates the time coordinate of its argument in place
(``grad.narrow(-1, 0, 1).mul_(-1)``), which broke the backward of ``Lorentz_ops`` in eager; the
adapter passes it a clone.
"""

import functools

PACKAGE = "geoopt"

mean_loss_module = None  # adapter.py's, set by ZooSuite
classifier_loss_module = None  # adapter.py's, set by ZooSuite

_B, _D, _C = 8, 4, 3  # batch, features, classes


@functools.cache
def _modules():
    import torch
    from torch import nn

    import geoopt
    from geoopt.layers.stereographic import Distance2StereographicHyperplanes

    def mobius_linear(input, weight, bias=None, nonlin=None, *, ball):
        """``examples/mobius_linear_example.py``'s functional form."""
        output = ball.mobius_matvec(weight, input)
        if bias is not None:
            output = ball.mobius_add(output, bias)
        if nonlin is not None:
            output = ball.logmap0(output)
            output = nonlin(output)
            output = ball.expmap0(output)
        return output

    class MobiusLinear(nn.Linear):
        """``examples/mobius_linear_example.py``: the bias a ``ManifoldParameter`` on the ball."""

        def __init__(self, *args, nonlin=None, ball=None, **kwargs):
            super().__init__(*args, **kwargs)
            self.ball = ball
            if self.bias is not None:
                self.bias = geoopt.ManifoldParameter(self.bias, manifold=self.ball)
            self.nonlin = nonlin
            self.reset_parameters()

        def forward(self, input):
            return mobius_linear(input, weight=self.weight, bias=self.bias, nonlin=self.nonlin, ball=self.ball)

        @torch.no_grad()
        def reset_parameters(self):
            nn.init.eye_(self.weight)
            self.weight.add_(torch.rand_like(self.weight).mul_(1e-3))
            if self.bias is not None:
                self.bias.zero_()

    class HyperbolicMLP(nn.Module):
        """Euclidean features mapped to the manifold (``expmap0``), two Möbius layers (the first
        with a ``tanh`` applied in the tangent space at the origin), back with ``logmap0``, a
        Euclidean head."""

        def __init__(self, ball, d=_D, hidden=8, out=_C):
            super().__init__()
            self.ball = ball
            self.l1 = MobiusLinear(d, hidden, nonlin=torch.tanh, ball=ball)
            self.l2 = MobiusLinear(hidden, hidden, ball=ball)
            self.head = nn.Linear(hidden, out)

        def forward(self, x):
            h = self.ball.expmap0(x)
            h = self.l2(self.l1(h))
            return self.head(self.ball.logmap0(h))

    class HyperbolicMLR(nn.Module):
        """Ganea et al. (2018) hyperbolic neural networks, tiny: a Möbius layer, then the
        hyperbolic multinomial logistic regression (one hyperplane per class, offsets
        ``p_k`` as ``ManifoldParameter`` on the ball, normals ``a_k`` Euclidean), the logits
        from ``mobius_add``, ``lambda_x`` and ``asinh`` (the closed form), and the same logits
        from the library's signed ``dist2plane``, averaged."""

        def __init__(self, ball, d=_D, hidden=8, classes=_C):
            super().__init__()
            self.ball = ball
            self.lin = MobiusLinear(d, hidden, nonlin=torch.relu, ball=ball)
            self.p = geoopt.ManifoldParameter(ball.random_normal(classes, hidden, std=0.1), manifold=ball)
            self.a = nn.Parameter(torch.randn(classes, hidden) * 0.1)

        def forward(self, x):
            h = self.lin(self.ball.expmap0(x)).unsqueeze(-2)  # (B, 1, H)
            c = self.ball.c
            mp = self.ball.mobius_add(-self.p, h)  # (B, C, H)
            a_norm = self.a.norm(dim=-1).clamp_min(1e-15)
            lam = self.ball.lambda_x(self.p)
            num = 2 * c.sqrt() * (mp * self.a).sum(-1)
            den = (1 - c * mp.pow(2).sum(-1)) * a_norm
            closed = lam * a_norm / c.sqrt() * torch.asinh(num / den)
            lib = self.ball.dist2plane(h, self.p, self.a, signed=True, scaled=True)
            return (closed + lib) / 2

    class HyperplaneNet(nn.Module):
        """The multiclass notebook's model: ``Distance2StereographicHyperplanes`` as a feature
        extractor on points of the ball, then a Euclidean MLP."""

        def __init__(self, ball, d=2, planes=10, classes=_C, squared=False, signed=True):
            super().__init__()
            self.ball = ball
            self.net = nn.Sequential(Distance2StereographicHyperplanes(d, planes, ball=ball, squared=squared,
                                                                       signed=signed),
                                     nn.Linear(planes, 16), nn.ReLU(), nn.Linear(16, classes))

        def forward(self, x):
            return self.net(self.ball.projx(x))

    class HyperplaneConv(nn.Module):
        """``Distance2StereographicHyperplanes(..., ndim=2)`` then convolutions (its docstring's
        second example), on a map of points on the manifold."""

        def __init__(self, ball, d=2, planes=6):
            super().__init__()
            self.net = nn.Sequential(Distance2StereographicHyperplanes(d, planes, ball=ball, ndim=2),
                                     nn.Conv2d(planes, 8, 3), nn.ReLU(), nn.Conv2d(8, 4, 3))

        def forward(self, x):
            return self.net(x)

    class PoincareEmbedding(nn.Module):
        """Nickel & Kiela (2017) Poincaré embeddings: a ``ManifoldParameter`` table on the ball,
        for each (u, v, negatives) row the distances ``dist(u, v_i)`` and the softmax loss over
        ``-dist`` with the true neighbour first (the embeddings' own loss)."""

        def __init__(self, ball, n=20, d=_D):
            super().__init__()
            self.ball = ball
            self.emb = geoopt.ManifoldParameter(ball.random_normal(n, d, std=1e-2), manifold=ball)

        def forward(self, idx):
            e = self.emb[idx]  # (B, 1 + 1 + neg, D)
            u, vs = e[:, :1], e[:, 1:]
            d = self.ball.dist(u, vs)
            return nn.functional.cross_entropy(-d, torch.zeros(idx.shape[0], dtype=torch.long))

    class HGCN(nn.Module):
        """A hyperbolic graph convolution (Chami et al. 2019, tiny): a Möbius linear layer, the
        neighbourhood aggregated in the tangent space at the origin (``logmap0``, adjacency
        ``matmul``, ``expmap0``) or as the gyro-midpoint (``weighted_midpoint``), a
        hyperbolic activation (``mobius_fn_apply``), two layers with a learnable curvature,
        ``dist0`` features to a linear head."""

        def __init__(self, ball, d=_D, hidden=8, classes=_C, midpoint=False):
            super().__init__()
            self.ball, self.midpoint = ball, midpoint
            self.l1 = MobiusLinear(d, hidden, ball=ball)
            self.l2 = MobiusLinear(hidden, hidden, ball=ball)
            self.head = nn.Linear(hidden + 1, classes)

        def aggregate(self, h, adj):
            if self.midpoint:
                return self.ball.weighted_midpoint(h.unsqueeze(0).expand(adj.shape[0], -1, -1), adj,
                                                   reducedim=[1])
            return self.ball.expmap0(adj @ self.ball.logmap0(h))

        def forward(self, x, adj):
            h = self.ball.expmap0(x)
            for layer in (self.l1, self.l2):
                h = self.aggregate(layer(h), adj)
                h = self.ball.mobius_fn_apply(torch.relu, h)
            return self.head(torch.cat([self.ball.logmap0(h), self.ball.dist0(h, keepdim=True)], -1))

    class HyperGRU(nn.Module):
        """Ganea et al.'s hyperbolic GRU cell over a short sequence: gates from
        ``mobius_matvec`` / ``mobius_add`` through ``logmap0`` + ``sigmoid``, the candidate
        from ``mobius_pointwise_mul`` and ``mobius_fn_apply(tanh)``, the update
        ``h ⊕ (z ⊗ (-h ⊕ h~))``."""

        def __init__(self, ball, d=_D, hidden=6):
            super().__init__()
            self.ball, self.hidden = ball, hidden
            self.w = nn.Parameter(torch.randn(3, hidden, hidden) * 0.1)
            self.u = nn.Parameter(torch.randn(3, hidden, d) * 0.1)
            self.b = geoopt.ManifoldParameter(torch.zeros(3, hidden), manifold=ball)

        def forward(self, xs):
            ball = self.ball
            h = ball.origin(xs.shape[0], self.hidden)
            for t in range(xs.shape[1]):
                x = ball.expmap0(xs[:, t])
                gates = []
                for g in range(2):
                    pre = ball.mobius_add(ball.mobius_add(ball.mobius_matvec(self.w[g], h),
                                                          ball.mobius_matvec(self.u[g], x)), self.b[g])
                    gates.append(torch.sigmoid(ball.logmap0(pre)))
                z, r = gates
                rh = ball.mobius_pointwise_mul(r, h)
                cand = ball.mobius_add(ball.mobius_add(ball.mobius_matvec(self.w[2], rh),
                                                       ball.mobius_matvec(self.u[2], x)), self.b[2])
                cand = ball.mobius_fn_apply(torch.tanh, cand)
                h = ball.mobius_add(h, ball.mobius_pointwise_mul(z, ball.mobius_add(-h, cand)))
            return ball.logmap0(h)

    class WrappedNormalVAE(nn.Module):
        """A Poincaré VAE step (Mathieu et al. 2019, tiny): an encoder gives the mean on the ball
        (``expmap0``) and a scale, the reparametrised sample is a tangent normal at the origin
        moved to the mean (``transp0``, divided by ``lambda_x``) and ``expmap``-ed; the decoder
        reads ``logmap0``; the loss is the reconstruction MSE plus the ``dist0`` of the mean."""

        def __init__(self, ball, d=_D, latent=2):
            super().__init__()
            self.ball = ball
            self.enc = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 2 * latent))
            self.dec = nn.Sequential(nn.Linear(latent, 16), nn.ReLU(), nn.Linear(16, d))

        def forward(self, x, eps):
            m, log_s = self.enc(x).chunk(2, dim=-1)
            mu = self.ball.expmap0(m)
            v = self.ball.transp0(mu, eps * log_s.exp()) / self.ball.lambda_x(mu, keepdim=True)
            z = self.ball.expmap(mu, v)
            rec = self.dec(self.ball.logmap0(z))
            return ((rec - x) ** 2).mean() + 0.01 * self.ball.dist0(mu).mean()

    class GyroOps(nn.Module):
        """The gyrovector operations the library tests (``test_stereographic.py``) check, in one
        forward with learned scalars: ``mobius_scalar_mul``, ``mobius_sub``, ``mobius_coadd`` /
        ``mobius_cosub``, ``gyration``, ``antipode``, ``geodesic`` / ``geodesic_unit``,
        ``transp`` / ``transp0back``, ``dist2``, ``retr`` / ``retr_transp``, ``expmap_transp``,
        ``mobius_fn_apply_chain``, ``egrad2rgrad``, ``inner`` / ``norm``, ``sproj`` /
        ``inv_sproj``."""

        def __init__(self, ball, d=_D):
            super().__init__()
            self.ball = ball
            self.r = nn.Parameter(torch.tensor(0.7))
            self.t = nn.Parameter(torch.tensor(0.3))
            self.w = nn.Parameter(torch.randn(d, d) * 0.3)

        def forward(self, x, y, u):
            ball = self.ball
            x, y = ball.expmap0(x @ self.w), ball.expmap0(y)
            a = ball.mobius_scalar_mul(self.r, x)
            b = ball.mobius_sub(a, y)
            c = ball.mobius_cosub(ball.mobius_coadd(b, x), y)
            g = ball.gyration(a, b, c)
            geo = ball.geodesic(self.t, x, ball.antipode(y))
            unit = ball.geodesic_unit(self.t, x, ball.proju(x, u))
            v = ball.transp(x, y, u)
            v0 = ball.transp0back(y, v)
            xr, vr = ball.retr_transp(x, u * 0.1, v)
            xe, ve = ball.expmap_transp(y, u * 0.1, v0)
            chain = ball.mobius_fn_apply_chain(x, torch.tanh, lambda z: z * self.r)
            rg = ball.egrad2rgrad(x, u)
            n = ball.norm(x, rg) + ball.inner(x, rg, v, keepdim=False)
            s = ball.inv_sproj(ball.sproj(g))
            return (ball.dist2(geo, unit) + ball.dist(xr, xe) + n + (chain * s).sum(-1)
                    + (vr * ve).sum(-1) + ball.logmap(c, g).sum(-1))

    class ProductEmbedding(nn.Module):
        """Mixed-curvature product-space embeddings (Gu et al. 2019, tiny): a
        ``ManifoldParameter`` table on ``ProductManifold((PoincareBall, 4), (Sphere, 4),
        (Euclidean(ndim=1), 4))``, the pairwise distances (``dist`` combining the factors), the
        loss the distortion against target graph distances; also ``logmap`` / ``expmap`` /
        ``projx`` / ``proju`` through the factors' slices."""

        def __init__(self, n=10, d=4):
            super().__init__()
            self.man = geoopt.ProductManifold((geoopt.PoincareBall(), d), (geoopt.Sphere(), d),
                                              (geoopt.Euclidean(ndim=1), d))
            self.emb = geoopt.ManifoldParameter(self.man.random_combined(n, 3 * d), manifold=self.man)

        def forward(self, i, j, target):
            x, y = self.man.projx(self.emb[i]), self.man.projx(self.emb[j])
            d = self.man.dist(x, y)
            u = self.man.logmap(x, y)
            z = self.man.expmap(x, self.man.proju(x, 0.5 * u))
            return ((d / target - 1) ** 2).mean() + 0.1 * self.man.dist2(z, y).mean() + 0.01 * self.man.inner(x, u).mean()

    class StereographicProductHNN(nn.Module):
        """A hyperbolic network on ``StereographicProductManifold`` (a Poincaré ball, a
        spherical projection and a learnable-curvature stereographic factor): ``expmap0``,
        ``mobius_matvec``, ``mobius_add``, ``mobius_scalar_mul``, ``dist2plane`` to learned
        hyperplanes as logits."""

        def __init__(self, d=_D, classes=_C):
            super().__init__()
            self.man = geoopt.StereographicProductManifold(
                (geoopt.PoincareBall(), 2), (geoopt.SphereProjection(), 2),
                (geoopt.Stereographic(k=-0.5, learnable=True), 2))
            self.w = nn.Parameter(torch.randn(6, 6) * 0.3)
            self.b = geoopt.ManifoldParameter(torch.zeros(6), manifold=self.man)
            self.r = nn.Parameter(torch.tensor(1.0))
            self.p = geoopt.ManifoldParameter(self.man.random_combined(classes, 6) * 0.1, manifold=self.man)
            self.a = nn.Parameter(torch.randn(classes, 6) * 0.1)

        def forward(self, x):
            h = self.man.expmap0(nn.functional.pad(x, (0, 6 - x.shape[-1])))
            h = self.man.mobius_add(self.man.mobius_matvec(self.w, h), self.b)
            h = self.man.mobius_scalar_mul(self.r, h)
            return torch.stack([self.man.dist2plane(h, self.p[k], self.a[k]) for k in range(self.p.shape[0])], -1)

    class ScaledEmbedding(nn.Module):
        """Embeddings on a ``Scaled`` manifold (a learnable scale on a Poincaré ball, or a fixed
        2x sphere): ``dist`` / ``expmap`` / ``logmap`` rescaled through the wrapper's
        ``__getattr__`` and its per-instance rescaled methods; a distortion loss."""

        def __init__(self, base="ball", n=10, d=_D):
            super().__init__()
            if base == "ball":
                self.man = geoopt.Scaled(geoopt.PoincareBall(), scale=1.5, learnable=True)
                pts = geoopt.PoincareBall().random_normal(n, d, std=0.1)
            else:
                self.man = geoopt.Scaled(geoopt.Sphere(), scale=2.0)
                pts = geoopt.Sphere().random_uniform(n, d)
            self.emb = geoopt.ManifoldParameter(pts.as_subclass(torch.Tensor), manifold=self.man)

        def forward(self, i, j, target):
            x, y = self.emb[i], self.emb[j]
            u = self.man.logmap(x, y)
            z = self.man.expmap(x, 0.5 * u)
            return ((self.man.dist(x, y) - target) ** 2).mean() + self.man.dist(x, z).mean()

    class LorentzNet(nn.Module):
        """A Lorentz-model (hyperboloid) network: Euclidean features lifted with ``expmap0``
        (time coordinate padded), a "Lorentz linear" layer (a linear map of the space part, the
        time part recomputed from the constraint) with a learnable curvature, ``logmap0`` /
        ``dist0`` / ``inner0`` features and the ``dist`` to learned class centroids (a
        ``ManifoldParameter`` on the hyperboloid) as logits."""

        def __init__(self, d=_D, hidden=6, classes=_C, learnable=True):
            super().__init__()
            self.man = geoopt.Lorentz(k=1.0, learnable=learnable)
            self.lin = nn.Linear(d + 1, hidden)
            self.cent = geoopt.ManifoldParameter(self.man.random_normal(classes, hidden + 1, std=0.3),
                                                 manifold=self.man)

        def forward(self, x):
            man = self.man
            h = man.expmap0(nn.functional.pad(x, (1, 0)))
            space = self.lin(h)
            time = (space.pow(2).sum(-1, keepdim=True) + man.k).sqrt()
            h = torch.cat([time, space], -1)
            t = man.logmap0(h)
            feats = man.dist0(h) + man.inner0(t) * 0.01 + man.norm(t)
            return -man.dist(h.unsqueeze(-2), self.cent) + feats.unsqueeze(-1)

    class LorentzOps(nn.Module):
        """Lorentz manifold operations on learned points: ``expmap`` / ``logmap``, ``transp``,
        ``transp0`` / ``transp0back``, ``geodesic_unit``, ``projx`` / ``proju``,
        ``egrad2rgrad``, ``logmap0back``, ``inner`` (keepdim)."""

        def __init__(self, d=_D):
            super().__init__()
            self.man = geoopt.Lorentz(k=0.5)
            self.x = geoopt.ManifoldParameter(self.man.random_normal(_B, d + 1, std=0.5), manifold=self.man)

        def forward(self, u):
            man = self.man
            x = man.projx(self.x)
            u = man.proju(x, nn.functional.pad(u, (1, 0)))
            y = man.expmap(x, u)
            v = man.transp(x, y, u)
            w = man.transp0back(y, v)
            g = man.geodesic_unit(torch.tensor(0.5), x, u / man.norm(u, keepdim=True).clamp_min(1e-6))
            r = man.egrad2rgrad(y, v.clone())  # (it negates the time coordinate of its argument in place)
            return (man.dist(g, y) + man.inner(y, r, v) + man.logmap(x, y).sum(-1) + w.sum(-1)
                    + man.logmap0back(y).sum(-1) + man.transp0(y, w).sum(-1))

    class SphereClassifier(nn.Module):
        """A cosine classifier with class weights on the ``Sphere`` (``ManifoldParameter``),
        features projected with ``projx``, logits ``scale * <x, w>`` minus the geodesic
        ``dist``; the sphere's ``logmap`` / ``expmap`` / ``transp`` on the features."""

        def __init__(self, d=_D, hidden=8, classes=_C, exact=False):
            super().__init__()
            self.man = geoopt.SphereExact() if exact else geoopt.Sphere()
            self.enc = nn.Linear(d, hidden)
            self.w = geoopt.ManifoldParameter(self.man.random_uniform(classes, hidden), manifold=self.man)
            self.scale = nn.Parameter(torch.tensor(5.0))

        def forward(self, x):
            f = self.man.projx(self.enc(x))
            u = self.man.proju(f, x.new_ones(f.shape))
            g = self.man.retr(f, 0.1 * u)
            v = self.man.transp(f, g, u)
            logits = self.scale * f @ self.w.t() - self.man.dist(g.unsqueeze(-2), self.w)
            return logits + (self.man.logmap(f, g) * v).sum(-1, keepdim=True)

    class SubspaceSphere(nn.Module):
        """``Sphere(intersection=...)`` (the unit sphere inside a subspace; its projector built at
        construction): ``projx`` of learned points, ``expmap`` / ``dist`` / ``logmap``."""

        def __init__(self, d=_D):
            super().__init__()
            basis = torch.eye(d)[:, :3]
            self.man = geoopt.Sphere(intersection=basis)
            self.p = nn.Parameter(torch.randn(_B, d))

        def forward(self, q):
            x, y = self.man.projx(self.p), self.man.projx(q)
            z = self.man.expmap(x, self.man.proju(x, 0.1 * q))
            return self.man.dist(z, y) + self.man.logmap(x, y).norm(dim=-1)

    class StiefelLinear(nn.Module):
        """An orthogonal linear layer: the weight a ``ManifoldParameter`` on the Stiefel manifold
        (``CanonicalStiefel``: the Cayley retraction ``retr`` of a learned tangent direction,
        a ``linalg.solve``; ``EuclideanStiefel``: ``projx`` by SVD and ``expmap`` by matrix
        exponentials; ``EuclideanStiefelExact`` likewise), ``transp`` of the direction."""

        def __init__(self, kind="canonical", d=_D, hidden=6, classes=_C):
            super().__init__()
            self.man = {"canonical": geoopt.CanonicalStiefel, "euclidean": geoopt.EuclideanStiefel,
                        "exact": geoopt.EuclideanStiefelExact}[kind]()
            self.kind = kind
            self.w = geoopt.ManifoldParameter(self.man.random(hidden, d), manifold=self.man)
            self.dw = nn.Parameter(torch.randn(hidden, d) * 0.01)
            self.head = nn.Linear(d, classes)

        def forward(self, x):
            w = self.w
            if self.kind != "canonical":
                w = self.man.projx(w + 0.01 * self.dw)
            u = self.man.proju(w, self.dw)
            if self.kind == "canonical":
                w2, v = self.man.retr_transp(w, u, u)
            else:
                w2 = self.man.expmap(w, u)
                v = self.man.transp(w, w2, u)
            h = torch.relu(x @ w2.t()) + 0.0 * self.man.inner(w, u, v)
            return self.head(h @ w2)

    class SPDNet(nn.Module):
        """SPDNet (Huang & Van Gool 2017, tiny) on covariance matrices: BiMap (``W^T X W`` with
        ``W`` on ``EuclideanStiefel``), ReEig (``symeig`` clamp via geoopt's ``sym_funcm``),
        the ``SymmetricPositiveDefinite`` ``dist`` to learned class means (the metric: AIM, SM
        or LEM) as logits, LogEig (``sym_logm``) features to a linear head."""

        def __init__(self, metric="AIM", n=6, m=4, classes=_C):
            super().__init__()
            from geoopt.linalg import batch_linalg as bl

            self.bl = bl
            self.spd = geoopt.SymmetricPositiveDefinite(metric)
            stiefel = geoopt.EuclideanStiefel()
            self.w = geoopt.ManifoldParameter(stiefel.random(n, m), manifold=stiefel)
            self.means = geoopt.ManifoldParameter(self.spd.random(classes, m, m), manifold=self.spd)
            self.head = nn.Linear(m * m, classes)

        def forward(self, x):
            h = self.w.t() @ x @ self.w
            h = self.bl.sym_funcm(h, lambda ev: ev.clamp_min(1e-4))
            d = self.spd.dist(h.unsqueeze(1), self.means)
            feats = self.bl.sym_logm(h).flatten(1)
            return self.head(feats) - d

    class SPDOps(nn.Module):
        """SPD manifold operations on learned points: ``expmap`` / ``logmap``, ``transp``,
        ``inner`` (the default metric), ``egrad2rgrad``, ``projx`` / ``proju``, ``retr``."""

        def __init__(self, m=3):
            super().__init__()
            self.spd = geoopt.SymmetricPositiveDefinite()
            self.x = geoopt.ManifoldParameter(self.spd.random(_B, m, m), manifold=self.spd)

        def forward(self, u):
            spd = self.spd
            x = spd.projx(self.x)
            u = spd.proju(x, u)
            y = spd.expmap(x, 0.1 * u)
            v = spd.transp(x, y, u)
            r = spd.egrad2rgrad(y, v)
            z = spd.retr(y, 0.1 * r)
            return spd.inner(y, r, v) + spd.logmap(x, z).sum((-1, -2)) + spd.dist(x, z)

    class SinkhornMatching(nn.Module):
        """A learned assignment: pairwise scores between two point sets, ``exp``, projected onto
        doubly-stochastic matrices by ``BirkhoffPolytope.projx`` (Sinkhorn iterations up to
        ``max_iter`` with a tolerance check), the matching cost."""

        def __init__(self, d=_D, n=5):
            super().__init__()
            self.man = geoopt.BirkhoffPolytope(max_iter=20, tol=1e-4)
            self.proj = nn.Linear(d, 8)

        def forward(self, a, b):
            s = self.proj(a) @ self.proj(b).transpose(-1, -2)
            p = self.man.projx(s.exp())
            u = self.man.proju(p, s)
            return (p * torch.cdist(a, b)).sum((-1, -2)) + self.man.inner(p, u).sum()

    class ManifoldTensorOps(nn.Module):
        """The ``ManifoldTensor`` / ``ManifoldParameter`` methods (``proju``, ``expmap``,
        ``retr``, ``transp``, ``dist``, ``logmap``, ``inner``) called on the parameter itself,
        which dispatch to its ``manifold`` attribute."""

        def __init__(self, d=_D):
            super().__init__()
            ball = geoopt.PoincareBall()
            self.p = geoopt.ManifoldParameter(ball.random_normal(_B, d, std=0.1), manifold=ball)

        def forward(self, u):
            v = self.p.proju(u)
            y = self.p.expmap(0.1 * v)
            z = self.p.retr(0.1 * v)
            w = self.p.transp(y, v)
            return self.p.dist(y) + self.p.logmap(z).sum(-1) + self.p.inner(w)

    return {k: v for k, v in locals().items() if isinstance(v, type)}


def _manifold(kind):
    import geoopt

    return {
        "ball": lambda: geoopt.PoincareBall(c=1.0),
        "ball_learnable": lambda: geoopt.PoincareBall(c=0.5, learnable=True),
        "ball_exact": lambda: geoopt.PoincareBallExact(c=1.0),
        "stereo_neg": lambda: geoopt.Stereographic(k=-1.0),
        "stereo_pos": lambda: geoopt.Stereographic(k=1.0),
        "stereo_zero_learnable": lambda: geoopt.Stereographic(k=0.0, learnable=True),
        "stereo_learnable": lambda: geoopt.StereographicExact(k=-0.5, learnable=True),
        "sphere_proj": lambda: geoopt.SphereProjection(k=1.0),
    }[kind]()


def _x(*shape):
    import torch

    return torch.randn(*shape)


def _ball_points(*shape):
    import torch

    return torch.randn(*shape) * 0.1


def _model(cls, inputs, loss="mean", man=None, **kwargs):
    """``cls(manifold, **kwargs)`` (or ``cls(**kwargs)``) on ``inputs()``; train: ``loss`` is
    ``"mean"`` (``mean_loss_module``), ``"class"`` (cross-entropy on its logits) or ``"own"``
    (the forward is a loss)."""

    def make(mode):
        args = (_manifold(man),) if man else ()
        net = _modules()[cls](*args, **kwargs)
        x = inputs()
        if mode == "train" and loss == "mean":
            net = mean_loss_module()(net)
        elif mode == "train" and loss == "class":
            net = classifier_loss_module()(net, x[0].shape[0], _C)
        return net, x, {}

    return make


def _graph():
    import torch

    n = 6
    adj = torch.eye(n) + torch.diag(torch.ones(n - 1), 1) + torch.diag(torch.ones(n - 1), -1)
    return torch.randn(n, _D), adj / adj.sum(-1, keepdim=True)


def _pairs(n=10):
    def inputs():
        import torch

        i = torch.randint(0, n, (_B,))
        j = (i + torch.randint(1, n, (_B,))) % n
        return i, j, torch.rand(_B) + 0.5

    return inputs


def _embedding_rows(n=20, neg=5):
    def inputs():
        import torch

        return (torch.randint(0, n, (_B, 2 + neg)),)

    return inputs


def _spd_batch(n=6):
    import torch

    a = torch.randn(_B, n, 2 * n)
    return (a @ a.transpose(-1, -2) / (2 * n) + 1e-3 * torch.eye(n),)


def _sym_batch(m=3):
    import torch

    a = torch.randn(_B, m, m)
    return ((a + a.transpose(-1, -2)) / 2,)


def _one(fn, *args):
    return lambda: (fn(*args),)


MODELS = {
    # --- Poincaré ball / stereographic models ---
    "MobiusLinear_MLP_ball": _model("HyperbolicMLP", _one(_x, _B, _D), "class", man="ball"),
    "MobiusLinear_MLP_learnable_c": _model("HyperbolicMLP", _one(_x, _B, _D), "class", man="ball_learnable"),
    "MobiusLinear_MLP_stereo_pos": _model("HyperbolicMLP", _one(_x, _B, _D), "class", man="stereo_pos"),
    "MobiusLinear_MLP_stereo_k0": _model("HyperbolicMLP", _one(_x, _B, _D), "class", man="stereo_zero_learnable"),
    "HyperbolicMLR_ball": _model("HyperbolicMLR", _one(_x, _B, _D), "class", man="ball"),
    "HyperplaneNet_ball": _model("HyperplaneNet", _one(_ball_points, _B, 2), "class", man="ball"),
    "HyperplaneNet_sphere_proj_squared": _model("HyperplaneNet", _one(_ball_points, _B, 2), "class",
                                                man="sphere_proj", squared=True),
    "HyperplaneConv_stereo": _model("HyperplaneConv", _one(lambda: _ball_points(2, 2, 8, 8)), man="stereo_neg"),
    "PoincareEmbedding": _model("PoincareEmbedding", _embedding_rows(), "own", man="ball"),
    "HGCN_tangent_learnable_c": _model("HGCN", _graph, "class", man="ball_learnable"),
    "HGCN_midpoint_stereo": _model("HGCN", _graph, "class", man="stereo_learnable", midpoint=True),
    "HyperGRU_ball": _model("HyperGRU", _one(_x, _B, 4, _D), man="ball"),
    "WrappedNormalVAE_ball": _model("WrappedNormalVAE", lambda: (_x(_B, _D), _x(_B, 2)), "own", man="ball"),
    "GyroOps_ball_exact": _model("GyroOps", lambda: (_x(_B, _D), _x(_B, _D), _x(_B, _D)), man="ball_exact"),
    "GyroOps_stereo_pos": _model("GyroOps", lambda: (_x(_B, _D), _x(_B, _D), _x(_B, _D)), man="stereo_pos"),
    "ManifoldTensor_methods": _model("ManifoldTensorOps", _one(_x, _B, _D)),
    # --- products and scaling ---
    "ProductManifold_embedding": _model("ProductEmbedding", _pairs(), "own"),
    "StereographicProduct_HNN": _model("StereographicProductHNN", _one(_x, _B, _D), "class"),
    "Scaled_ball_learnable": _model("ScaledEmbedding", _pairs(), "own"),
    "Scaled_sphere": _model("ScaledEmbedding", _pairs(), "own", base="sphere"),
    # --- Lorentz ---
    "LorentzNet_learnable_k": _model("LorentzNet", _one(_x, _B, _D), "class"),
    "Lorentz_ops": _model("LorentzOps", _one(_x, _B, _D)),
    # --- sphere, Stiefel, SPD, Birkhoff ---
    "SphereClassifier": _model("SphereClassifier", _one(_x, _B, _D), "class"),
    "Sphere_intersection": _model("SubspaceSphere", _one(_x, _B, _D)),
    "CanonicalStiefel_linear": _model("StiefelLinear", _one(_x, _B, _D), "class"),
    "EuclideanStiefel_linear": _model("StiefelLinear", _one(_x, _B, _D), "class", kind="euclidean"),
    "SPDNet_AIM": _model("SPDNet", lambda: _spd_batch(), "class"),
    "SPDNet_LEM": _model("SPDNet", lambda: _spd_batch(), "class", metric="LEM"),
    "SPD_ops": _model("SPDOps", lambda: _sym_batch()),
    "BirkhoffPolytope_sinkhorn": _model("SinkhornMatching", lambda: (_x(2, 5, _D), _x(2, 5, _D))),
}
