"""geotorch 0.4.0: constrained / manifold-valued weights through ``torch.nn.utils.parametrize``,
used as its README, examples and tests use it; tiny sizes, random weights, no download. 45 models
(the examples and tests read from the lezcano/geotorch repository, the installed 0.4.0 API used).

- Constraint front ends (``geotorch.<constraint>(module, "weight", ...)``) on ``nn.Linear`` /
  ``nn.Conv2d`` weights, as ``test/test_integration.py`` registers them:
  ``orthogonal`` (expm on a tall Linear; cayley on a wide, transposed Linear; on 3x3 Conv2d
  kernels), ``grassmannian`` (expm; cayley on a Conv2d), ``almost_orthogonal``
  (``sin``; ``tanh`` with cayley; ``scaled_sigmoid`` on a Conv2d), ``low_rank`` (rank 3 Linear;
  README's rank-1 Conv2d kernels), ``fixed_rank`` (softplus; a custom ``f=(torch.exp, torch.log)`` with cayley),
  ``invertible`` (GLp; cayley on square Conv2d kernels), ``sln``, ``positive_definite``,
  ``positive_semidefinite``, ``positive_semidefinite_low_rank``, ``positive_semidefinite_fixed_rank``,
  ``sphere`` (rows of a Linear, radius 2; ``embedded=True``), ``skew`` (``lower=False``),
  ``symmetric``, ``alpha_stable`` (Hurwitz, as test_hurwitz registers it);
- manifold classes registered by hand after ``M.sample(...)`` (test_integration's class path):
  ``SO`` with the ``"torus"`` sample, ``Stiefel`` on a Conv2d with cayley and a torus sample;
  ``ProductManifold([SO, SO])`` called on a tuple (test_product); ``Sphere`` called through
  ``torch.vmap`` (test_sphere's ``test_torch_func``);
- RNN weights: ``nn.RNN`` / ``nn.LSTM`` with an orthogonal ``weight_hh_l0``;
- small models: examples/copying_problem.py (``ExpRNNCell``: orthogonal recurrent kernel,
  ``M.sample("torus")`` init, ``modrelu``, the unrolled loop under ``parametrize.cached()``, 12
  steps, 8 symbols), examples/sequential_mnist.py (the same cell under its three
  ``--constraints``: orthogonal, lowrank, almostorthogonal, ``torus_init_`` with its Cayley-like
  ``init_``; ``--permute``; 16 pixels instead of 784), examples/eigenvalue.py (Rayleigh quotient on
  ``geotorch.sphere(self, "x")``), the README ``Model`` (orthogonal Linear re-initialised by
  assignment ``= torch.eye``, rank-1 Conv2d), an MLP with a low-rank hidden layer;
- tests' steps with checks inside: test_skew / test_symmetric (``Skew.in_manifold(layer.weight)``
  / ``Symmetric.in_manifold`` under ``parametrize.cached()`` before the loss), test_integration's
  ``_test_training`` with ``initialize=True`` (``X = M.sample(); M.in_manifold(X);
  layer.weight = X``, then the cached loss and ``M.in_manifold(layer.weight)``) for Stiefel,
  LowRank, SL, Sphere (PSSD: the loss and the check only), and its ``update_base(layer, "weight")`` under ``cached()``.

Eval: the module's forward (``layer(x)``). Train: the loss of the training steps the library
shows: test_integration's ``with parametrize.cached(): loss = layer(input_).mean()`` for bare
layers (``CachedMeanLoss``), the examples' ``model.loss(logits, y)`` (cross-entropy) for the RNN
models, ``-eigenvalue`` for the Rayleigh model, cross-entropy against fixed labels for the README
model and the MLP (``classifier_loss_module``), ``mean_loss_module`` for the direct manifold calls and
the ``nn.RNN`` / ``nn.LSTM``.
The check steps compute the same loss in both modes (they are training steps). Measured first as
it came, before any rule looked at it.

    pip install --no-deps geotorch==0.4.0

geotorch needs only torch. Nothing stubbed. Left out: the optimizer steps and RGD's
``update_base`` after ``optim.step()`` (outside the loss; ``update_base`` is kept once, as the
test calls it under ``cached()``), examples/parametrisations.ipynb (a tutorial re-implementing
parametrizations by hand, not the library), ``Rn`` alone (the identity).
"""

PACKAGE = "geotorch"

mean_loss_module = None  # set by ZooSuite
classifier_loss_module = None  # set by ZooSuite


def warm_up():
    import torch  # noqa: F401
    import geotorch  # noqa: F401
    from torch.nn.utils import parametrize  # noqa: F401


def _cached_mean_loss():
    import torch
    from torch.nn.utils import parametrize

    class CachedMeanLoss(torch.nn.Module):
        """test_integration's step: ``with parametrize.cached(): loss = layer(input_).mean()``."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args):
            with parametrize.cached():
                loss = self.net(*args).mean()
            return loss

    return CachedMeanLoss


def _layer(constraint, kind="linear", size=(6, 6), **kwargs):
    """A factory: ``geotorch.<constraint>(layer, "weight", **kwargs)`` on a Linear (weight
    ``size`` = (out, in)), or a Conv2d with kernel ``size``, as test_integration does."""

    def make(mode):
        import torch
        import torch.nn as nn
        import geotorch

        if kind == "linear":
            layer = nn.Linear(size[1], size[0])
            x = torch.rand(3, size[1])
        elif kind == "conv2d":
            layer = nn.Conv2d(5, 4, size)
            x = torch.rand(6, 5, size[0] + 7, size[1] + 3)
        else:
            raise ValueError(kind)
        kw = dict(kwargs)
        if kw.get("f") == "exp_log":  # a custom map and its inverse
            kw["f"] = (torch.exp, torch.log)
        getattr(geotorch, constraint)(layer, "weight", **kw)
        if mode == "train":
            return _cached_mean_loss()(layer), (x,), {}
        return layer, (x,), {}

    return make


def _manifold_layer(cls_name, kind="linear", size=(6, 6), sample=None, **kwargs):
    """test_integration's class path: ``M = cls(size, **kwargs)``, the weight set from
    ``M.sample(**sample)``, then ``register_parametrization``."""

    def make(mode):
        import torch
        import torch.nn as nn
        from torch.nn.utils import parametrize
        import geotorch

        if kind == "linear":
            layer = nn.Linear(size[1], size[0])
            x = torch.rand(3, size[1])
        else:
            layer = nn.Conv2d(5, 4, size)
            x = torch.rand(6, 5, size[0] + 7, size[1] + 3)
        M = getattr(geotorch, cls_name)(size=layer.weight.size(), **kwargs)
        X = M.sample(**(sample or {}))
        with torch.no_grad():
            layer.weight.copy_(X)
        parametrize.register_parametrization(layer, "weight", M)
        if mode == "train":
            return _cached_mean_loss()(layer), (x,), {}
        return layer, (x,), {}

    return make


def _rnn(cls_name):
    def make(mode):
        import torch
        import torch.nn as nn
        import geotorch

        rnn = getattr(nn, cls_name)(4, 8, batch_first=True)
        geotorch.orthogonal(rnn, "weight_hh_l0")
        x = torch.randn(2, 5, 4)
        if mode == "train":
            return mean_loss_module()(rnn), (x,), {}
        return rnn, (x,), {}

    return make


# --- the examples' RNN ---------------------------------------------------------------------

def _exprnn_classes():
    import torch
    from torch import nn
    import geotorch

    class modrelu(nn.Module):
        def __init__(self, features):
            super(modrelu, self).__init__()
            self.features = features
            self.b = nn.Parameter(torch.empty(self.features))
            self.reset_parameters()

        def reset_parameters(self):
            with torch.no_grad():
                self.b.uniform_(-0.01, 0.01)

        def forward(self, inputs):
            norm = torch.abs(inputs)
            biased_norm = norm + self.b
            magnitude = nn.functional.relu(biased_norm)
            phase = torch.sign(inputs)
            return phase * magnitude

    class ExpRNNCell(nn.Module):
        def __init__(self, input_size, hidden_size, constraints="orthogonal", init="sample_torus",
                     r=0.1, f="scaled_sigmoid"):
            super(ExpRNNCell, self).__init__()
            self.input_size = input_size
            self.hidden_size = hidden_size
            self.recurrent_kernel = nn.Linear(hidden_size, hidden_size, bias=False)
            self.input_kernel = nn.Linear(input_size, hidden_size)
            self.nonlinearity = modrelu(hidden_size)
            if constraints == "orthogonal":
                geotorch.orthogonal(self.recurrent_kernel, "weight")
            elif constraints == "lowrank":
                geotorch.low_rank(self.recurrent_kernel, "weight", hidden_size)
            elif constraints == "almostorthogonal":
                geotorch.almost_orthogonal(self.recurrent_kernel, "weight", r, f)
            else:
                raise ValueError(constraints)
            self.reset_parameters(init)

        def reset_parameters(self, init):
            import math
            from geotorch.so import torus_init_

            nn.init.kaiming_normal_(self.input_kernel.weight, nonlinearity="relu")
            if init == "sample_torus":  # copying_problem.py
                M = self.recurrent_kernel.parametrizations.weight[0]
                self.recurrent_kernel.weight = M.sample("torus")
            else:  # sequential_mnist.py

                def init_(x):
                    x.uniform_(0.0, math.pi / 2.0).mul_(0.5).tan_().neg_()

                K = self.recurrent_kernel
                K.weight = torus_init_(K.weight, init_=init_)

        def default_hidden(self, input_):
            return input_.new_zeros(input_.size(0), self.hidden_size, requires_grad=False)

        def forward(self, input_, hidden):
            input_ = self.input_kernel(input_)
            hidden = self.recurrent_kernel(hidden)
            out = input_ + hidden
            return self.nonlinearity(out)

    return modrelu, ExpRNNCell


def _loss_step():
    """``model.loss(model(x), y)``: the examples' training step up to ``loss.backward()``."""
    import torch

    class LossStep(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, x, y):
            logits = self.net(x)
            return self.net.loss(logits, y)

    return LossStep


def _copying(mode):
    import torch
    import torch.nn.functional as F
    from torch import nn
    from torch.nn.utils import parametrize

    _, ExpRNNCell = _exprnn_classes()
    alphabet_size, L, S, batch = 8, 4, 4, 4

    class Model(nn.Module):
        def __init__(self, alphabet_size, hidden_size):
            super(Model, self).__init__()
            self.hidden_size = hidden_size
            self.rnn = ExpRNNCell(alphabet_size + 2, hidden_size)
            self.lin = nn.Linear(hidden_size, alphabet_size + 1)
            self.loss_func = nn.CrossEntropyLoss()
            self.reset_parameters()

        def reset_parameters(self):
            nn.init.kaiming_normal_(self.lin.weight, nonlinearity="relu")
            nn.init.constant_(self.lin.bias, 0)

        def forward(self, inputs):
            out_rnn = self.rnn.default_hidden(inputs[:, 0, ...])
            outputs = []
            with parametrize.cached():
                for input in torch.unbind(inputs, dim=1):
                    out_rnn = self.rnn(input, out_rnn)
                    outputs.append(self.lin(out_rnn))
            return torch.stack(outputs, dim=1)

        def loss(self, logits, y):
            return self.loss_func(logits.flatten(0, 1), y.flatten())

    model = Model(alphabet_size, 16)
    seq = torch.randint(1, alphabet_size + 1, (batch, S), dtype=torch.long)
    x = torch.zeros((batch, L + 2 * S), dtype=torch.long)
    y = torch.zeros_like(x)
    x[:, :S] = seq
    x[:, S + L] = alphabet_size + 1
    y[:, S + L:] = seq
    x_onehot = F.one_hot(x, num_classes=alphabet_size + 2).float()
    if mode == "train":
        return _loss_step()(model), (x_onehot, y), {}
    return model, (x_onehot,), {}


def _seq_mnist(constraints, permute=False, f="scaled_sigmoid"):
    def make(mode):
        import torch
        from torch import nn
        from torch.nn.utils import parametrize

        _, ExpRNNCell = _exprnn_classes()
        n_classes, pixels = 10, 16

        class Model(nn.Module):
            def __init__(self, hidden_size, permute):
                super(Model, self).__init__()
                self.permute = permute
                if self.permute:
                    self.register_buffer("permutation", torch.randperm(pixels))
                self.rnn = ExpRNNCell(1, hidden_size, constraints=constraints, init="torus_init_", r=0.1, f=f)
                self.lin = nn.Linear(hidden_size, n_classes)
                self.loss_func = nn.CrossEntropyLoss()

            def forward(self, inputs):
                if self.permute:
                    inputs = inputs[:, self.permutation]
                out_rnn = self.rnn.default_hidden(inputs[:, 0, ...])
                with parametrize.cached():
                    for input in torch.unbind(inputs, dim=1):
                        out_rnn = self.rnn(input.unsqueeze(dim=1), out_rnn)
                return self.lin(out_rnn)

            def loss(self, logits, y):
                return self.loss_func(logits, y)

        model = Model(12, permute)
        x = torch.rand(4, pixels)
        y = torch.randint(0, n_classes, (4,))
        if mode == "train":
            return _loss_step()(model), (x, y), {}
        return model, (x,), {}

    return make


def _eigenvalue(mode):
    import torch
    from torch import nn
    import geotorch

    class Model(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.x = nn.Parameter(torch.rand(n))
            geotorch.sphere(self, "x")
            Sphere = self.parametrizations.x[0]
            self.x = Sphere.sample()

        def forward(self, A):
            x = self.x
            return torch.linalg.multi_dot((x, A, x))

    class Step(nn.Module):  # eigenvalue = model(A); (-eigenvalue).backward()
        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, A):
            return -self.net(A)

    n = 12
    A = torch.rand(n, n)
    A = 0.5 * (A + A.T)
    model = Model(n)
    return (Step(model) if mode == "train" else model), (A,), {}


def _readme(mode):
    import torch
    import torch.nn as nn
    import geotorch

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(8 * 4 * 4, 24)
            geotorch.orthogonal(self.linear, "weight")
            self.cnn = nn.Conv2d(3, 8, 3)
            geotorch.low_rank(self.cnn, "weight", rank=1)
            self.linear.weight = torch.eye(24, 8 * 4 * 4)
            self.head = nn.Linear(24, 5)

        def forward(self, x):
            x = torch.relu(self.cnn(x))
            x = self.linear(x.flatten(1))
            return self.head(x)

    x = torch.randn(4, 3, 6, 6)
    model = Model()
    if mode == "train":
        return classifier_loss_module()(model, 4, 5), (x,), {}
    return model, (x,), {}


def _lowrank_mlp(mode):
    import torch
    import torch.nn as nn
    import geotorch

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(10, 32)
            self.fc2 = nn.Linear(32, 32)
            geotorch.low_rank(self.fc2, "weight", rank=4)
            self.fc3 = nn.Linear(32, 3)

        def forward(self, x):
            return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

    x = torch.randn(8, 10)
    model = MLP()
    if mode == "train":
        return classifier_loss_module()(model, 8, 3), (x,), {}
    return model, (x,), {}


def _product(mode):
    import torch
    from geotorch.product import ProductManifold
    from geotorch.so import SO

    class Wrap(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = ProductManifold([SO((3, 3)), SO((3, 3))])

        def forward(self, a, b):
            return self.m((a, b))

    net = Wrap()
    args = (torch.rand(3, 3), torch.rand(3, 3))
    return (mean_loss_module()(net) if mode == "train" else net), args, {}


def _sphere_direct(vmap):
    def make(mode):
        import torch
        from geotorch.sphere import Sphere

        sphere = Sphere(size=(3,))
        if vmap:
            class VSphere(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.sphere = sphere

                def forward(self, v):
                    return torch.vmap(self.sphere)(v)

            net, v = VSphere(), 0.1 * torch.randn(2, 3)
        else:
            net, v = sphere, 0.1 * torch.randn(3)
        if mode == "train":
            v.requires_grad_()
            return mean_loss_module()(net), (v,), {}
        return net, (v,), {}

    return make


# --- the tests' steps with checks inside ---------------------------------------------------

def _check_step(cls_name, size=(6, 6), initialize=True, **kwargs):
    """test_integration ``_test_training``: (``initialize``) ``X = M.sample();
    M.in_manifold(X); layer.weight = X``, then the cached loss and ``M.in_manifold(layer.weight)``."""

    def make(mode):
        import torch
        import torch.nn as nn
        from torch.nn.utils import parametrize
        import geotorch

        class CheckedStep(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(size[1], size[0])
                M = getattr(geotorch, cls_name)(size=self.layer.weight.size(), **kwargs)
                with torch.no_grad():
                    self.layer.weight.copy_(M.sample())
                parametrize.register_parametrization(self.layer, "weight", M)

            def forward(self, input_):
                M = self.layer.parametrizations.weight[0]
                if initialize:
                    X = M.sample()
                    assert M.in_manifold(X)
                    self.layer.weight = X
                with parametrize.cached():
                    loss = self.layer(input_).mean()
                ok = M.in_manifold(self.layer.weight)
                return loss, torch.as_tensor(bool(ok))

        net = CheckedStep()
        return net, (torch.rand(3, size[1]),), {}

    return make


def _vector_space_step(constraint):
    """test_skew / test_symmetric ``test_backprop``: under ``cached()``, ``Cls.in_manifold(layer.weight)``
    then ``loss = layer(input_).sum()``."""

    def make(mode):
        import torch
        import torch.nn as nn
        from torch.nn.utils import parametrize
        import geotorch
        from geotorch.skew import Skew
        from geotorch.symmetric import Symmetric

        cls = Skew if constraint == "skew" else Symmetric

        class Step(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(8, 8)
                getattr(geotorch, constraint)(self.layer, "weight", False)

            def forward(self, input_):
                with parametrize.cached():
                    if not cls.in_manifold(self.layer.weight):
                        raise AssertionError("left the manifold")
                    loss = self.layer(input_).sum()
                return loss

        return Step(), (torch.rand(5, 8),), {}

    return make


def _update_base(mode):
    """test_integration: ``with cached(): weight_old = layer.weight; update_base(layer, "weight")``,
    ``torch.allclose(layer.weight, weight_old)``, then the layer's forward on the new base."""
    import torch
    import torch.nn as nn
    from torch.nn.utils import parametrize
    import geotorch

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = nn.Linear(6, 8)
            geotorch.orthogonal(self.layer, "weight")

        def forward(self, input_):
            with parametrize.cached():
                weight_old = self.layer.weight
                geotorch.update_base(self.layer, "weight")
                same = torch.allclose(self.layer.weight, weight_old, atol=1e-6)
            return self.layer(input_).mean(), torch.as_tensor(same)

    return Step(), (torch.rand(3, 6),), {}


MODELS = {
    # constraints on Linear / Conv weights (geotorch.<constraint>(layer, "weight"))
    "orthogonal_Linear": _layer("orthogonal", size=(8, 5)),
    "orthogonal_Linear_wide_cayley": _layer("orthogonal", size=(4, 7), triv="cayley"),
    "orthogonal_Conv2d": _layer("orthogonal", "conv2d", size=(3, 3)),
    "grassmannian_Linear": _layer("grassmannian", size=(7, 3)),
    "grassmannian_Conv2d_cayley": _layer("grassmannian", "conv2d", size=(4, 2), triv="cayley"),
    "almost_orthogonal_Linear_sin": _layer("almost_orthogonal", size=(6, 6), lam=0.5),
    "almost_orthogonal_Linear_tanh_cayley": _layer("almost_orthogonal", size=(7, 4), lam=0.3, f="tanh",
                                                   triv="cayley"),
    "almost_orthogonal_Conv2d_scaled_sigmoid": _layer("almost_orthogonal", "conv2d", size=(3, 3), lam=1.0,
                                                      f="scaled_sigmoid"),
    "low_rank_Linear": _layer("low_rank", size=(8, 6), rank=3),
    "low_rank_Conv2d_rank1": _layer("low_rank", "conv2d", size=(3, 3), rank=1),
    "fixed_rank_Linear": _layer("fixed_rank", size=(5, 8), rank=3),
    "fixed_rank_Linear_exp_cayley": _layer("fixed_rank", size=(8, 6), rank=2, f="exp_log", triv="cayley"),
    "invertible_Linear": _layer("invertible", size=(6, 6)),
    "invertible_Conv2d_cayley": _layer("invertible", "conv2d", size=(3, 3), triv="cayley"),
    "sln_Linear": _layer("sln", size=(5, 5)),
    "positive_definite_Linear": _layer("positive_definite", size=(6, 6)),
    "positive_semidefinite_Linear": _layer("positive_semidefinite", size=(6, 6)),
    "positive_semidefinite_low_rank_Linear": _layer("positive_semidefinite_low_rank", size=(7, 7), rank=3),
    "positive_semidefinite_fixed_rank_Conv2d": _layer("positive_semidefinite_fixed_rank", "conv2d",
                                                      size=(4, 4), rank=2),
    "sphere_Linear_radius2": _layer("sphere", size=(4, 6), radius=2.0),
    "sphere_embedded_Linear": _layer("sphere", size=(4, 6), embedded=True),
    "skew_Linear_upper": _layer("skew", size=(6, 6), lower=False),
    "symmetric_Linear": _layer("symmetric", size=(6, 6)),
    "alpha_stable_Linear": _layer("alpha_stable", size=(5, 5), alpha=0.5),
    # manifold classes registered by hand
    "SO_torus": _manifold_layer("SO", size=(6, 6), sample={"distribution": "torus"}),
    "Stiefel_Conv2d_cayley_torus": _manifold_layer("Stiefel", "conv2d", size=(3, 2), triv="cayley",
                                                   sample={"distribution": "torus"}),
    "ProductManifold_SO3xSO3": _product,
    "Sphere_vmap": _sphere_direct(True),
    # RNN weights
    "RNN_orthogonal_hh": _rnn("RNN"),
    "LSTM_orthogonal_hh": _rnn("LSTM"),
    # the examples' / README's models
    "copying_ExpRNN": _copying,
    "seq_mnist_orthogonal": _seq_mnist("orthogonal"),
    "seq_mnist_lowrank_permute": _seq_mnist("lowrank", permute=True),
    "seq_mnist_almostorthogonal_sin": _seq_mnist("almostorthogonal", f="sin"),
    "eigenvalue_sphere": _eigenvalue,
    "readme_Model": _readme,
    "MLP_low_rank": _lowrank_mlp,
    # the tests' steps with checks inside
    "step_Stiefel_init_check": _check_step("Stiefel", size=(8, 5)),
    "step_LowRank_init_check": _check_step("LowRank", size=(8, 6), rank=3),
    "step_PSSD_check": _check_step("PSSD", size=(6, 6), initialize=False),
    "step_SL_init_check": _check_step("SL", size=(5, 5)),
    "step_Sphere_init_check": _check_step("Sphere", size=(4, 6)),
    "step_skew_in_manifold": _vector_space_step("skew"),
    "step_symmetric_in_manifold": _vector_space_step("symmetric"),
    "step_update_base": _update_base,
}
