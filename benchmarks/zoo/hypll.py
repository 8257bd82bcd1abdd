"""hypll 0.1.1 (the Hyperbolic Learning Library, van Spengler, Wirth, Mettes): hyperbolic
neural-network layers on its ``PoincareBall`` (and ``Euclidean``) manifolds, fed as its
tutorials and users feed them (``TangentTensor(data=inputs, man_dim=..., manifold=manifold)``,
``manifold.expmap(tangents)``, ``net(manifold_inputs)``, ``criterion(outputs.tensor, labels)``),
tiny (batches of 4-8, 6-8 features, 3 channels of 8x8 images, 10-20 embedding rows), random
weights, no download:

- layers (``hypll.nn``) on their own: ``HLinear`` (with / without bias, a learnable curvature,
  on ``Euclidean``), ``HReLU``, ``HConvolution2d`` (3x3; stride 2 with padding 1; on
  ``Euclidean``), ``HBatchNorm`` (Frechet mean and variance; ``use_midpoint``),
  ``HBatchNorm2d`` (both), ``HAvgPool2d`` (Frechet mean; ``use_midpoint``), ``HMaxPool2d``,
  ``HFlatten`` (beta-concatenation over the manifold dimension; on ``Euclidean``),
  ``HEmbedding`` (indexing a ``ManifoldParameter``; on ``Euclidean``), ``ChangeManifold``
  (Euclidean -> ball, ball -> Euclidean, ball -> ball of another curvature),
  ``TangentSequential`` (a ``torch.nn.Sequential`` in the tangent space at the origin);
- networks from the tutorials: the CIFAR-10 tutorial's ``Net`` (two hyperbolic convolutions,
  max pools, ``x.flatten(start_dim=1)``, three ``HLinear``), the same with a learnable
  curvature, its regression variant (MSE on ``outputs.tensor``); the ResNet tutorial's
  ``PoincareResNet`` (residual blocks of ``HConvolution2d`` / ``HBatchNorm2d`` / ``HReLU``,
  ``manifold.mobius_add`` skips, strided downsampling convolutions, ``HAvgPool2d``; its typos
  ``foward`` / missing ``super().__init__()`` fixed, the pooled map squeezed before ``fc``);
  the Poincare-embeddings tutorial's ``PoincareEmbedding`` (an ``HEmbedding`` subclass whose
  forward returns ``manifold.dist`` of edge endpoints) with its ``poincare_embeddings_loss``;
  a hyperbolic MLP whose logits are ``manifold.hyperplane_dists`` (hyperbolic MLR); a
  hyperbolic MLP on ``Euclidean`` (the library's Euclidean baseline); a graph layer
  (``HLinear`` then a weighted ``manifold.midpoint`` over neighbours);
- the manifold API as users call it inside a forward: ``mobius_add``, ``project``,
  ``expmap`` / ``logmap`` at points, ``gyration``, ``transp``, ``dist``, ``inner``,
  ``euc_to_tangent`` on the ball, and those ``Euclidean`` has (no ``mobius_add`` /
  ``gyration`` there); ``cdist``; ``cat`` along the manifold
  dimension (beta-concatenation) and along a batch dimension; ``frechet_mean`` /
  ``frechet_variance`` / ``midpoint`` on their own; the ``ManifoldTensor`` methods (slicing,
  ``unsqueeze``, ``squeeze``, ``transpose``, ``flatten``, ``project``, ``detach``).

Each model is wrapped in a small module whose forward takes plain tensors and moves them onto
the manifold as above (``_OnManifold``), so that the conversion runs inside the compiled region
as it does in the tutorials' training loop. Eval: ``outputs.tensor`` (or the tensor the API
returns). Train: cross-entropy on the hyperbolic logits for the classifiers
(``classifier_loss_module``, as the CIFAR tutorial's ``criterion(outputs.tensor, labels)``), the
tutorial's own loss for the embeddings and the regression net, else the sum of the means of the
outputs (``mean_loss_module``). A layer without trainable weights (``HReLU``, the pools,
``HFlatten``, ``ChangeManifold``, the parameter-free manifold API) gets inputs that require grad
in train, standing for the trained layers before it.

    pip install --no-deps hypll==0.1.1

hypll needs only torch (its only declared dependency; the ``dev`` / ``docs`` extras, torchvision
among them, are not imported by the package). Nothing stubbed.

Left out: ``hypll.optim`` (``RiemannianSGD`` / ``RiemannianAdam``: optimizer steps, outside the
loss); ``nn.modules.fold.HUnfold`` (its ``__init__`` never calls ``Module.__init__``, so it
cannot be built: a library bug); the hyperbolic ViT tutorial and attention / MLR modules (not in
0.1.1: they came later). Library bugs worked around as a user would: ``ManifoldTensor.__getitem__``
fails on a bare slice (``x[:n]``), so ``x[:n, :]``; ``ManifoldTensor.transpose`` fails unless one
of the two dims is the manifold dimension, so ``transpose(1, 3)`` on ``man_dim=1``. Measured first
as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 41 models, 82 runs, all built and all run eagerly; 46 ran under
Dynamo, 36 (18 models: everything holding a ``ManifoldParameter``: ``HLinear``,
``HConvolution2d``, ``HEmbedding`` and the networks on them) fail inside Dynamo with
``InternalTorchDynamoError: TypeError: Attempting to apply the torch function <method '_is_view'
...> on a ManifoldParameter`` where the layer reads ``self.z`` / ``self.weights`` / ``self.weight``
(the ``Parameter`` subclass's ``__torch_function__`` refuses what Dynamo asks of it). The breaks
that remain: the Frechet mean's convergence test (``if (dist < atol).all() or ...: break`` in a
1000-step loop: GB0170, and GB7000 for the loop), ``torch.equal`` in
``check_tangent_tensor_positions`` (GB0033, ``manifold.inner``) and a recompile on ``keepdim``
(``frechet_variance`` without ``mu`` calls ``frechet_mean(keepdim=True)``).
"""

PACKAGE = "hypll"

mean_loss_module = None  # set by ZooSuite
classifier_loss_module = None  # set by ZooSuite

_B = 4
_F = 8
_C = 3


def _ball(c=1.0, learnable=False):
    from hypll.manifolds.poincare_ball import Curvature, PoincareBall

    return PoincareBall(c=Curvature(value=c, requires_grad=learnable))


def _euclid():
    from hypll.manifolds.euclidean import Euclidean

    return Euclidean()


def _on_manifold_cls():
    import torch
    from hypll.tensors import ManifoldTensor, TangentTensor

    class _OnManifold(torch.nn.Module):
        """forward(x): tangents at the origin -> ``manifold.expmap`` -> ``net`` -> ``.tensor``."""

        def __init__(self, net, manifold, man_dim):
            super().__init__()
            self.net = net
            self.manifold = manifold
            self.man_dim = man_dim

        def forward(self, x, *rest):
            tangents = TangentTensor(data=x, man_dim=self.man_dim, manifold=self.manifold)
            manifold_inputs = self.manifold.expmap(tangents)
            out = self.net(manifold_inputs, *rest)
            if isinstance(out, (ManifoldTensor, TangentTensor)):
                return out.tensor
            return out

    return _OnManifold


def _wrap(net, manifold, man_dim, mode, loss="mean", classes=None):
    on = _on_manifold_cls()(net, manifold, man_dim)
    if mode == "train":
        if loss == "ce":
            return classifier_loss_module()(on, _B, classes)
        return mean_loss_module()(on)
    return on


def _x(*shape):
    import torch

    return torch.randn(*shape) * 0.5


def _inputs(net, mode, *shape):
    """Random tangent vectors; for a layer without trainable weights, ones that require grad in
    "train" (the layer sits inside a network whose earlier layers are trained)."""
    x = _x(*shape)
    if mode == "train" and not any(p.requires_grad for p in net.parameters()):
        x.requires_grad_(True)
    return x


def _vec(mode, make_layer, manifold=None, loss="mean", classes=None, man_dim=-1):
    m = manifold if manifold is not None else _ball()
    net = make_layer(m)
    return _wrap(net, m, man_dim, mode, loss, classes), (_inputs(net, mode, _B, _F),), {}


def _img(mode, make_layer, manifold=None, loss="mean", classes=None, hw=8):
    m = manifold if manifold is not None else _ball()
    net = make_layer(m)
    return _wrap(net, m, 1, mode, loss, classes), (_inputs(net, mode, _B, _C, hw, hw),), {}


# ---------------------------------------------------------------------------------- layers


def _hlinear(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HLinear(_F, 5, manifold=m), loss="ce", classes=5)


def _hlinear_nobias(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HLinear(_F, 5, manifold=m, bias=False), loss="ce", classes=5)


def _hlinear_learnable_c(mode):
    from hypll import nn as hnn

    return _vec(
        mode, lambda m: hnn.HLinear(_F, 5, manifold=m), manifold=_ball(0.1, True), loss="ce", classes=5
    )


def _hlinear_euclidean(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HLinear(_F, 5, manifold=m), manifold=_euclid(), loss="ce", classes=5)


def _hrelu(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HReLU(manifold=m))


def _hconv(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HConvolution2d(_C, 4, 3, manifold=m))


def _hconv_stride_pad(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HConvolution2d(_C, 4, 3, manifold=m, stride=2, padding=1))


def _hconv_euclidean(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HConvolution2d(_C, 4, 3, manifold=m), manifold=_euclid())


def _hbatchnorm(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HBatchNorm(_F, manifold=m))


def _hbatchnorm_midpoint(mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.HBatchNorm(_F, manifold=m, use_midpoint=True))


def _hbatchnorm2d(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HBatchNorm2d(_C, manifold=m), hw=4)


def _hbatchnorm2d_midpoint(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HBatchNorm2d(_C, manifold=m, use_midpoint=True), hw=4)


def _havgpool(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HAvgPool2d(2, manifold=m))


def _havgpool_midpoint(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HAvgPool2d(2, manifold=m, use_midpoint=True))


def _hmaxpool(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HMaxPool2d(2, manifold=m, stride=2))


def _hflatten(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HFlatten(start_dim=1), hw=4)


def _hflatten_euclidean(mode):
    from hypll import nn as hnn

    return _img(mode, lambda m: hnn.HFlatten(start_dim=1), manifold=_euclid(), hw=4)


def _hembedding(mode, manifold=None):
    import torch
    from hypll import nn as hnn

    m = manifold if manifold is not None else _ball()

    class EmbedNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = hnn.HEmbedding(20, 4, manifold=m)
            self.manifold = m

        def forward(self, idx):
            e = self.emb(idx)
            return self.manifold.logmap(None, e).tensor

    net = EmbedNet()
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (torch.randint(0, 20, (_B, 3)),), {}


def _hembedding_euclidean(mode):
    return _hembedding(mode, _euclid())


def _change_manifold(src, dst_fn, mode):
    from hypll import nn as hnn

    return _vec(mode, lambda m: hnn.ChangeManifold(target_manifold=dst_fn()), manifold=src)


def _change_euc_to_ball(mode):
    return _change_manifold(_euclid(), _ball, mode)


def _change_ball_to_euc(mode):
    return _change_manifold(_ball(0.1), _euclid, mode)


def _change_ball_to_ball(mode):
    return _change_manifold(_ball(0.1), lambda: _ball(1.0), mode)


def _tangent_sequential(mode):
    import torch
    from hypll import nn as hnn

    seq = torch.nn.Sequential(torch.nn.Linear(_F, 16), torch.nn.ReLU(), torch.nn.Linear(16, _F))
    return _vec(mode, lambda m: hnn.TangentSequential(seq, manifold=m))


# -------------------------------------------------------------------------------- networks


def _cifar_net_cls():
    import torch
    from hypll import nn as hnn

    class Net(torch.nn.Module):
        """The CIFAR-10 tutorial's net, shrunk (8x8 images)."""

        def __init__(self, manifold, classes=10):
            super().__init__()
            self.conv1 = hnn.HConvolution2d(in_channels=_C, out_channels=6, kernel_size=3, manifold=manifold)
            self.pool = hnn.HMaxPool2d(kernel_size=2, manifold=manifold, stride=2)
            self.conv2 = hnn.HConvolution2d(in_channels=6, out_channels=8, kernel_size=2, manifold=manifold)
            self.fc1 = hnn.HLinear(in_features=8 * 2 * 2, out_features=16, manifold=manifold)
            self.fc2 = hnn.HLinear(in_features=16, out_features=12, manifold=manifold)
            self.fc3 = hnn.HLinear(in_features=12, out_features=classes, manifold=manifold)
            self.relu = hnn.HReLU(manifold=manifold)

        def forward(self, x):
            x = self.pool(self.relu(self.conv1(x)))  # 8 -> 6 -> 3
            x = self.relu(self.conv2(x))  # 3 -> 2
            x = x.flatten(start_dim=1)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            x = self.fc3(x)
            return x

    return Net


def _cifar_net(mode):
    return _img(mode, lambda m: _cifar_net_cls()(m), loss="ce", classes=10)


def _cifar_net_learnable_c(mode):
    return _img(mode, lambda m: _cifar_net_cls()(m), manifold=_ball(0.1, True), loss="ce", classes=10)


def _cifar_regression(mode):
    import torch
    import torch.nn.functional as F

    m = _ball()
    net = _cifar_net_cls()(m, classes=1)
    on = _on_manifold_cls()(net, m, 1)

    class MSEStep(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.on = on
            object.__setattr__(self, "__wrapped__", on)

        def forward(self, x, y):
            out = self.on(x).flatten()
            return F.mse_loss(out, y)

    x, y = _x(_B, _C, 8, 8), torch.randn(_B)
    if mode == "train":
        return MSEStep(), (x, y), {}
    return on, (x,), {}


def _resnet_cls():
    import torch
    from hypll import nn as hnn

    class PoincareResidualBlock(torch.nn.Module):
        def __init__(self, in_channels, out_channels, manifold, stride=1, downsample=None):
            super().__init__()
            self.manifold = manifold
            self.downsample = downsample
            self.conv1 = hnn.HConvolution2d(in_channels, out_channels, 3, manifold, stride=stride, padding=1)
            self.bn1 = hnn.HBatchNorm2d(features=out_channels, manifold=manifold)
            self.relu = hnn.HReLU(manifold=manifold)
            self.conv2 = hnn.HConvolution2d(out_channels, out_channels, 3, manifold, padding=1)
            self.bn2 = hnn.HBatchNorm2d(features=out_channels, manifold=manifold)

        def forward(self, x):
            residual = x
            x = self.conv1(x)
            x = self.bn1(x)
            x = self.relu(x)
            x = self.conv2(x)
            x = self.bn2(x)
            if self.downsample is not None:
                residual = self.downsample(residual)
            x = self.manifold.mobius_add(x, residual)
            x = self.relu(x)
            return x

    class PoincareResNet(torch.nn.Module):
        def __init__(self, channel_sizes, group_depths, manifold, use_midpoint=False):
            super().__init__()
            self.manifold = manifold
            self.conv = hnn.HConvolution2d(_C, channel_sizes[0], 3, manifold, padding=1)
            self.bn = hnn.HBatchNorm2d(features=channel_sizes[0], manifold=manifold, use_midpoint=use_midpoint)
            self.relu = hnn.HReLU(manifold=manifold)
            self.group1 = self._make_group(channel_sizes[0], channel_sizes[0], group_depths[0])
            self.group2 = self._make_group(channel_sizes[0], channel_sizes[1], group_depths[1], stride=2)
            self.avg_pool = hnn.HAvgPool2d(kernel_size=4, manifold=manifold, use_midpoint=use_midpoint)
            self.fc = hnn.HLinear(in_features=channel_sizes[1], out_features=10, manifold=manifold)

        def _make_group(self, in_channels, out_channels, depth, stride=1):
            downsample = None
            if stride != 1:
                downsample = hnn.HConvolution2d(in_channels, out_channels, 1, self.manifold, stride=stride)
            layers = [PoincareResidualBlock(in_channels, out_channels, self.manifold, stride, downsample)]
            for _ in range(1, depth):
                layers.append(PoincareResidualBlock(out_channels, out_channels, self.manifold))
            return torch.nn.Sequential(*layers)

        def forward(self, x):
            x = self.conv(x)
            x = self.bn(x)
            x = self.relu(x)
            x = self.group1(x)
            x = self.group2(x)
            x = self.avg_pool(x)
            x = x.squeeze(-1).squeeze(-1)
            x = self.fc(x)
            return x

    return PoincareResNet


def _resnet(mode):
    return _img(mode, lambda m: _resnet_cls()([4, 6], [1, 1], m), loss="ce", classes=10)


def _resnet_midpoint(mode):
    return _img(
        mode, lambda m: _resnet_cls()([4, 6], [1, 1], m, use_midpoint=True), manifold=_ball(0.1, True),
        loss="ce", classes=10,
    )


def _poincare_embeddings(mode):
    import torch
    from hypll import nn as hnn

    m = _ball(1.0)

    class PoincareEmbedding(hnn.HEmbedding):
        def forward(self, edges):
            embeddings = super().forward(edges)
            return self.manifold.dist(x=embeddings[:, :, 0, :], y=embeddings[:, :, 1, :])

    def poincare_embeddings_loss(dists, targets):
        logits = dists.neg().exp()
        numerator = torch.where(condition=targets, input=logits, other=0).sum(dim=-1)
        denominator = logits.sum(dim=-1)
        return (numerator / denominator).log().mean().neg()

    class Step(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, edges, targets):
            return poincare_embeddings_loss(self.model(edges), targets)

    model = PoincareEmbedding(num_embeddings=20, embedding_dim=2, manifold=m)
    edges = torch.randint(0, 20, (_B, 11, 2))
    targets = torch.cat([torch.ones(1).bool(), torch.zeros(10).bool()]).expand(_B, 11).clone()
    if mode == "train":
        return Step(model), (edges, targets), {}
    return model, (edges,), {}


def _hyperbolic_mlr(mode):
    import torch
    from hypll import nn as hnn
    from hypll.tensors import ManifoldParameter

    class MLRNet(torch.nn.Module):
        def __init__(self, manifold, classes=5):
            super().__init__()
            self.manifold = manifold
            self.fc1 = hnn.HLinear(_F, 16, manifold=manifold)
            self.relu = hnn.HReLU(manifold=manifold)
            self.z = ManifoldParameter(torch.randn(16, classes) * 0.1, manifold=manifold, man_dim=0)
            self.r = torch.nn.Parameter(torch.zeros(classes))

        def forward(self, x):
            x = self.relu(self.fc1(x))
            return self.manifold.hyperplane_dists(x, self.z, self.r)

    return _vec(mode, lambda m: MLRNet(m), loss="ce", classes=5)


def _mlp_euclidean(mode):
    import torch
    from hypll import nn as hnn

    def make(m):
        class MLP(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = hnn.HLinear(_F, 16, manifold=m)
                self.relu = hnn.HReLU(manifold=m)
                self.bn = hnn.HBatchNorm(16, manifold=m)
                self.fc2 = hnn.HLinear(16, 5, manifold=m)

            def forward(self, x):
                return self.fc2(self.bn(self.relu(self.fc1(x))))

        return MLP()

    return _vec(mode, make, manifold=_euclid(), loss="ce", classes=5)


def _graph_layer(mode):
    import torch
    from hypll import nn as hnn
    from hypll.tensors import ManifoldTensor

    class HGraphLayer(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold
            self.lin = hnn.HLinear(_F, 6, manifold=manifold)
            self.relu = hnn.HReLU(manifold=manifold)

        def forward(self, x, adj):
            h = self.lin(x)  # (N, F)
            nbrs = ManifoldTensor(h.tensor.unsqueeze(0).expand(adj.size(0), -1, -1), manifold=self.manifold, man_dim=-1)
            agg = self.manifold.midpoint(nbrs, batch_dim=1, w=adj.unsqueeze(-1))
            return self.relu(agg)

    m = _ball()
    net = HGraphLayer(m)
    on = _on_manifold_cls()(net, m, -1)
    adj = (torch.rand(6, 6) > 0.5).float() + torch.eye(6)
    if mode == "train":
        on = mean_loss_module()(on)
    return on, (_x(6, _F), adj), {}


# ------------------------------------------------------------------------- manifold API


def _ops_cls():
    import torch
    from hypll.tensors import ManifoldTensor, TangentTensor

    class ManifoldOps(torch.nn.Module):
        """The gyrovector / Riemannian operations in one forward on points of the input."""

        def __init__(self, manifold, gyro=True):
            super().__init__()
            self.manifold = manifold
            self.gyro = gyro

        def forward(self, x):
            m = self.manifold
            n = x.tensor.size(0) // 2
            a, b = x[:n, :], x[n:, :]
            if self.gyro:
                s = m.project(m.mobius_add(a, b))
            else:  # Euclidean: no gyrovector addition
                s = m.expmap(m.logmap(None, b))
            v = m.logmap(a, b)
            y = m.expmap(v)
            g = m.gyration(a, b, s) if self.gyro else m.project(y)
            t = m.transp(v, s)
            d = m.dist(a, y)
            u = m.logmap(a, s)
            ip = m.inner(v, u)
            e = m.euc_to_tangent(a, ManifoldTensor(torch.ones_like(a.tensor), manifold=m))
            return (s.tensor, g.tensor, t.tensor, d, ip, e.tensor)

    return ManifoldOps


def _ops_ball(mode):
    return _vec(mode, lambda m: _ops_cls()(m))


def _ops_euclidean(mode):
    return _vec(mode, lambda m: _ops_cls()(m, gyro=False), manifold=_euclid())


def _cdist(mode):
    import torch
    from hypll.tensors import ManifoldTensor

    class CDist(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold
            self.protos = torch.nn.Parameter(torch.randn(1, 5, _F) * 0.1)

        def forward(self, x):
            p = ManifoldTensor(self.protos, manifold=self.manifold)
            x = ManifoldTensor(x.tensor.unsqueeze(0), manifold=self.manifold)
            return -self.manifold.cdist(x, p).squeeze(0)

    return _vec(mode, lambda m: CDist(m), loss="ce", classes=5)


def _cat_mandim(mode):
    import torch

    class Cat(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold

        def forward(self, x):
            return self.manifold.cat([x, x], dim=-1)

    return _vec(mode, lambda m: Cat(m))


def _cat_batch(mode):
    import torch

    class Cat(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold

        def forward(self, x):
            return self.manifold.cat((x, x.detach()), dim=0)

    return _vec(mode, lambda m: Cat(m))


def _frechet(mode):
    import torch

    class Frechet(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold

        def forward(self, x):
            mean = self.manifold.frechet_mean(x, batch_dim=0)
            var = self.manifold.frechet_variance(x, mu=mean, batch_dim=0)
            var0 = self.manifold.frechet_variance(x, batch_dim=0)
            return mean.tensor, var, var0

    return _vec(mode, lambda m: Frechet(m))


def _midpoint(mode):
    import torch

    class Mid(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold
            self.w = torch.nn.Parameter(torch.rand(_B, 1))

        def forward(self, x):
            a = self.manifold.midpoint(x, batch_dim=0)
            b = self.manifold.midpoint(x, batch_dim=0, w=self.w, keepdim=True)
            return a.tensor, b.tensor

    return _vec(mode, lambda m: Mid(m))


def _frechet_euclidean(mode):
    return _vec(mode, _frechet_e, manifold=_euclid())


def _frechet_e(m):
    import torch

    class FrechetE(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.manifold = m

        def forward(self, x):
            mean = self.manifold.frechet_mean(x, batch_dim=0, keepdim=True)
            var = self.manifold.frechet_variance(x, mu=mean, batch_dim=0)
            mid = self.manifold.midpoint(x, batch_dim=0)
            return mean.tensor, var, mid.tensor

    return FrechetE()


def _manifold_tensor_methods(mode):
    import torch

    class Methods(torch.nn.Module):
        def __init__(self, manifold):
            super().__init__()
            self.manifold = manifold

        def forward(self, x):  # x: (B, C, H, W), man_dim 1
            a = x[:, :, 0]  # (B, C, W)
            b = x[..., 1:3]
            c = x.unsqueeze(0).squeeze(0)
            d = x.transpose(1, 3)
            e = x.flatten(start_dim=2)
            f = x.project()
            g = x.detach()
            return a.tensor, b.tensor, c.tensor, d.tensor, e.tensor, f.tensor, g.tensor

    return _img(mode, lambda m: Methods(m), hw=4)


MODELS = {
    "HLinear": _hlinear,
    "HLinear_nobias": _hlinear_nobias,
    "HLinear_learnable_curvature": _hlinear_learnable_c,
    "HLinear_euclidean": _hlinear_euclidean,
    "HReLU": _hrelu,
    "HConvolution2d": _hconv,
    "HConvolution2d_stride_padding": _hconv_stride_pad,
    "HConvolution2d_euclidean": _hconv_euclidean,
    "HBatchNorm": _hbatchnorm,
    "HBatchNorm_midpoint": _hbatchnorm_midpoint,
    "HBatchNorm2d": _hbatchnorm2d,
    "HBatchNorm2d_midpoint": _hbatchnorm2d_midpoint,
    "HAvgPool2d": _havgpool,
    "HAvgPool2d_midpoint": _havgpool_midpoint,
    "HMaxPool2d": _hmaxpool,
    "HFlatten": _hflatten,
    "HFlatten_euclidean": _hflatten_euclidean,
    "HEmbedding": _hembedding,
    "HEmbedding_euclidean": _hembedding_euclidean,
    "ChangeManifold_euclidean_to_ball": _change_euc_to_ball,
    "ChangeManifold_ball_to_euclidean": _change_ball_to_euc,
    "ChangeManifold_ball_to_ball": _change_ball_to_ball,
    "TangentSequential": _tangent_sequential,
    "CifarNet": _cifar_net,
    "CifarNet_learnable_curvature": _cifar_net_learnable_c,
    "CifarNet_regression": _cifar_regression,
    "PoincareResNet": _resnet,
    "PoincareResNet_midpoint": _resnet_midpoint,
    "PoincareEmbedding": _poincare_embeddings,
    "HyperbolicMLR": _hyperbolic_mlr,
    "MLP_euclidean": _mlp_euclidean,
    "HGraphLayer_midpoint": _graph_layer,
    "ManifoldOps_ball": _ops_ball,
    "ManifoldOps_euclidean": _ops_euclidean,
    "cdist_prototypes": _cdist,
    "cat_man_dim": _cat_mandim,
    "cat_batch_dim": _cat_batch,
    "frechet_mean_variance": _frechet,
    "midpoint_weighted": _midpoint,
    "frechet_euclidean": _frechet_euclidean,
    "ManifoldTensor_methods": _manifold_tensor_methods,
}
