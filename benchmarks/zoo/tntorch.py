"""tntorch 1.1.2 (tensor networks in PyTorch: ``tn.Tensor`` in CP / Tucker / TT formats and their
mixes): its decompositions, arithmetic, metrics, rounding, indexing, tools, derivatives, ANOVA /
Sobol, automata / logic and the ``TTMatrix`` / ``CPMatrix`` linear maps, used as its tutorials
(``docs/tutorials``: introduction, main_formats, decompositions, arithmetics, completion,
exponential_machines, derivatives, sobol, automata, logic) and its tests (``tests/test_tensor.py``,
``test_matrix.py``, ``test_indexing.py``, ``test_round.py``, ``test_tools.py``) use them. Tiny
(mostly the tests' ``(10, 5, 6)`` shapes, ranks 3), float32, random data, no download.

No model weights: each "model" is a small ``torch.nn.Module`` (``_Use``) whose parameters are the
full tensor(s) to compress or the cores / factors of a tensor network, and whose forward builds the
``tn.Tensor`` (or ``TTMatrix``) from them and runs the operations, returning torch tensors
(``.torch()`` where the result is a ``tn.Tensor``).

Uses (47):
- decompositions of a full tensor (``tn.Tensor(x, ...)``): TT-SVD (``ranks_tt=3``), TT by error
  (``eps=1e-1``), TT with ``algorithm='eig'``, Tucker (``ranks_tucker=3``), Tucker + TT core,
  CP-ALS (``ranks_cp=3, max_iter=5``), Tucker + CP core, batched TT (``batch=True``, the tests'
  10 x 5 x 5 x 5; decompressed and indexed, as batched tensors support no metrics), each
  decompressed (``torch()``) and compared (``relative_error``);
- tensors from their cores: TT cores, CP factors (and ``tt()``), Tucker (TT core + ``Us``:
  ``tucker_core``, ``decompress_tucker_factors``), batched TT cores (``batch=True``);
  ``tn.Tensor(cores)`` then ``torch()``, ``norm`` / ``sum`` / ``mean``;
- creation: ``ones_like`` / ``full_like`` / ``zeros`` / ``ones`` combined with a TT;
- arithmetic (tests' ``test_sum`` / ``test_mul``): TT + TT, TT * TT, mixed formats (TT + Tucker,
  TT * CP, Tucker + CP), scalar ops (``2 * a - 1``, ``a / 3``, ``-a``), batched TT + TT;
- metrics: ``dot``, ``dist``, ``relative_error``, ``rmse``, ``r_squared``, ``norm`` / ``normsq``,
  ``sum`` / ``mean`` / ``var`` / ``std`` (functions and methods), against a full torch tensor;
- rounding: ``round_tt(eps)``, ``round_tucker(eps)`` on a clone, ``tn.round(a + a, rmax=3)``,
  ``left_orthogonalize`` / ``orthogonalize``;
- indexing (``test_indexing``): basic (``a[0, ..., 1]``, ``a[None]``, slices and steps), fancy
  (a ``(P, N)`` index matrix: the completion tutorial's entries; index vectors per mode);
  ``__setitem__`` on a clone (``a[5, 2, :] = 7``);
- tools: ``cat``, ``transpose``, ``unsqueeze`` / ``squeeze``, ``flip``, ``unbind``, ``ttm``,
  ``pad``, ``mask`` (a logic mask), ``cumsum``, ``meshgrid`` arithmetic (the arithmetics tutorial:
  ``x ** 2`` as ``x * x`` plus ``y``);
- element-wise functions through cross-approximation: ``tn.exp(a)`` and ``tn.cross(function=...,
  tensors=[a])``;
- derivatives: ``tn.partial``, ``tn.gradient``, ``tn.laplacian``, ``tn.divergence``;
- ANOVA / Sobol (the sobol tutorial): ``tn.sobol(t, tn.only(x))``, ``mean_dimension`` (eval only:
  both call ``.numpy()`` on a tensor that requires grad, which fails eagerly in train),
  ``anova_decomposition`` + ``undo_anova_decomposition``;
- automata / logic: ``tn.weight_mask`` dotted with a TT (sum of entries of Hamming weight 2),
  a logic formula of ``tn.symbols`` evaluated by ``tn.sum`` and dotted with a TT; the logic
  tutorial's queries (``is_satisfiable``, ``is_tautology``, ``implies``, ``equiv``,
  ``relevant_symbols``, ``all`` / ``any`` / ``one``: Python bools / ints from tensor values);
- matrices (the "layer" use): ``TTMatrix`` from a dense weight then ``tt_multiply`` (the test's
  ``v @ m``), ``TTMatrix`` from trainable cores (a TT linear layer) inside a small MLP,
  ``CPMatrix`` + ``cp_multiply``, ``TTMatrix.trace`` / ``torch``;
- training losses from the tutorials: completion (MSE on observed entries ``t[P]``), exponential
  machines (a TT-Tucker tensor, TT rank 2, fixed Legendre factors from ``tn.generate_basis``, read at
  fractional feature indices ``t[X]``, loss ``tn.relative_error(y, t[X]) ** 2``), the decompositions
  / autodiff tutorial's fit (``tn.relative_error(gt, t) ** 2``).

Eval: the outputs (``.torch()`` of result tensors). Train: the tutorials' own losses for the three loss uses; ``mean_loss_module``
(the sum of the outputs' means) for the rest; gradients flow to the cores / full tensors, which are
``nn.Parameter`` s.

    pip install --no-deps tntorch==1.1.2

(tntorch declares numpy, scipy and torch>=1.11: numpy 2.4.6 and scipy 1.17.1 were already
installed; torch 2.13.0+cpu untouched.) Nothing stubbed.

Left out: ``Tensor.__pow__`` and with it ``tn.skew`` / ``kurtosis`` / ``raw_moment`` (fail eagerly
in 1.1.2: ``__pow__`` reads an undefined ``power``); ``norm`` / ``sum`` / ``dot`` of batched tensors
(unsupported in 1.1.2: an einsum error or "Batched tensors are not supproted"); ``Sobol`` in train
(see above; recorded as skipped); the
optimisation loops (``tn.optimize``, ``als_completion``, ``PCEInterpolator.fit``: Python loops over
an optimiser, a user compiles the loss, which is in); ``tn.minimum`` / ``argmax`` (cross-based
searches printing progress); GPU tests.
"""

PACKAGE = "tntorch"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_SHAPE = (10, 5, 6)
_R = 3


def warm_up():
    import torch  # noqa: F401

    import tntorch  # noqa: F401


def _module_class():
    import torch

    class _Use(torch.nn.Module):
        """Cores / full tensors as parameters (float) or buffers (indices); forward = fn(self, *inputs)."""

        def __init__(self, fn, params):
            super().__init__()
            self.fn = fn
            for name, value in params.items():
                if isinstance(value, (list, tuple)):
                    setattr(self, name, torch.nn.ParameterList([torch.nn.Parameter(v) for v in value]))
                elif value.is_floating_point() and not name.endswith("_fixed"):
                    self.register_parameter(name, torch.nn.Parameter(value))
                else:
                    self.register_buffer(name, value)

        def forward(self, *args):
            return self.fn(self, *args)

    return _Use


def _make(fn, params, inputs=lambda: (), loss=None):
    def make(mode):
        net = _module_class()(fn, params())
        if mode == "train":
            net = loss(net) if loss is not None else mean_loss_module()(net)
        return net, inputs(), {}

    return make


# --- shared pieces ----------------------------------------------------------------------------

def _full(shape=_SHAPE):
    import torch

    return torch.rand(*shape)


def _tt_cores(shape=_SHAPE, r=_R, batch=None):
    import torch

    ranks = [1] + [r] * (len(shape) - 1) + [1]
    pre = () if batch is None else (batch,)
    return [torch.randn(*pre, ranks[i], n, ranks[i + 1]) / r ** 0.5 for i, n in enumerate(shape)]


def _cp_factors(shape=_SHAPE, r=_R):
    import torch

    return [torch.randn(n, r) / r ** 0.5 for n in shape]


def _tucker(shape=_SHAPE, r=_R):
    import torch

    return {"cores": _tt_cores((r,) * len(shape), 2), "Us": [torch.randn(n, r) / r ** 0.5 for n in shape]}


def _tt(m, name="cores"):
    import tntorch as tn

    return tn.Tensor(list(getattr(m, name)))


def _params(**kw):
    def f():
        out = {}
        for k, v in kw.items():
            out[k] = v()
        return out

    return f


# --- decompositions of a full tensor ---------------------------------------------------------

def _decompose(**kw):
    def fn(m):
        import tntorch as tn

        t = tn.Tensor(m.x, **kw)
        return t.torch(), tn.relative_error(m.x, t)

    return fn


def _tt_batch(m):
    import tntorch as tn

    t = tn.Tensor(m.x, ranks_tt=_R, batch=True)
    return t.torch(), t[0].torch(), t[..., 1].torch()


# --- tensors from their cores ----------------------------------------------------------------

def _from_tt_cores(m):
    t = _tt(m)
    return t.torch(), t.norm(), t.sum(), t.mean()


def _from_cp_factors(m):
    import tntorch as tn

    t = tn.Tensor(list(m.factors))
    return t.torch(), t.normsq(), t.tt().torch()


def _from_tucker(m):
    import tntorch as tn

    t = tn.Tensor(list(m.cores), Us=list(m.Us))
    return t.torch(), t.tucker_core(), t.norm(), t.decompress_tucker_factors().torch()


def _from_batch_cores(m):
    import tntorch as tn

    t = tn.Tensor(list(m.cores), batch=True)
    return t.torch(), t[1].torch(), (t + t).torch()


# --- arithmetic ------------------------------------------------------------------------------

def _tt_add_mul(m):
    a, b = _tt(m, "a"), _tt(m, "b")
    return (a + b).torch(), (a * b).torch(), (a - b).torch()


def _mixed_formats(m):
    import tntorch as tn

    a = _tt(m, "a")
    c = tn.Tensor(list(m.c))  # CP
    u = tn.Tensor(list(m.ucores), Us=list(m.Us))  # Tucker
    return (a + u).torch(), (a * c).torch(), (u + c).torch(), (u * c).torch()


def _scalar_ops(m):
    a = _tt(m, "a")
    return (2 * a - 1).torch(), (a / 3).torch(), (-a + 5).torch()


def _batch_add(m):
    import tntorch as tn

    a = tn.Tensor(list(m.a), batch=True)
    b = tn.Tensor(list(m.b), batch=True)
    return (a + b).torch(), (a * b).torch(), (a + 5).torch()


# --- metrics ---------------------------------------------------------------------------------

def _metrics_pair(m):
    import tntorch as tn

    a, b = _tt(m, "a"), _tt(m, "b")
    return (tn.dot(a, b), tn.dist(a, b), tn.relative_error(a, b), tn.rmse(a, b), tn.r_squared(a, b),
            a.dot(b))


def _metrics_single(m):
    import tntorch as tn

    a = _tt(m, "a")
    return (tn.norm(a), tn.normsq(a), tn.sum(a), tn.mean(a), tn.var(a), tn.std(a), a.var(), a.std())


def _metrics_vs_full(m):
    import tntorch as tn

    t = tn.Tensor(list(m.factors))  # CP vs a full torch tensor
    return tn.dist(m.x, t), tn.relative_error(m.x, t), tn.dot(t, t)


# --- rounding --------------------------------------------------------------------------------

def _round_tt(m):
    a = _tt(m, "a")
    b = (a + a).clone()
    b.round_tt(eps=1e-6)
    return b.torch(), b.ranks_tt


def _round_tucker(m):
    import tntorch as tn

    a = tn.Tensor(list(m.cores), Us=list(m.Us))
    b = (a + a).clone()
    b.round_tucker(eps=1e-6)
    return b.torch()


def _round_rmax(m):
    import tntorch as tn

    a = _tt(m, "a")
    return tn.round(a + a, rmax=_R).torch(), tn.round_tt(a * a, rmax=2).torch()


def _orthogonalize(m):
    a = _tt(m, "a").clone()
    a.left_orthogonalize(0)
    b = _tt(m, "a").clone()
    b.orthogonalize(1)
    return a.torch(), b.torch(), b.cores[1].norm()


# --- indexing --------------------------------------------------------------------------------

def _basic_index(m):
    a = _tt(m, "a")
    return (a[0, ..., 1].torch(), a[None].torch(), a[None, ..., -1].torch(), a[2:8:2, :, 1:4].torch(),
            a[3, 2, 1])


def _fancy_index(m, P):
    a = _tt(m, "a")
    return a[P].torch(), a[m.ii].torch(), a[:, :, m.kk].torch()


def _setitem(m):
    a = _tt(m, "a").clone()
    a[5, 2, :] = 7
    a[..., 3:5] = m.patch
    return a.torch()


# --- tools -----------------------------------------------------------------------------------

def _tools_shape(m):
    import tntorch as tn

    a, b = _tt(m, "a"), _tt(m, "b")
    c = tn.cat(a, b, dim=0)
    u = tn.unsqueeze(a, 1)
    return (c.torch(), tn.transpose(a).torch(), u.torch(), tn.squeeze(u).torch(), tn.flip(a, 1).torch(),
            tn.unbind(a, 2)[0].torch(), tn.pad(a, (12, 6, 8), fill_value=0).torch())


def _ttm(m, U):
    import tntorch as tn

    a = _tt(m, "a")
    return tn.ttm(a, [U], dim=[1]).torch(), tn.cumsum(a, dim=0).torch()


def _logic_mask(m):
    import tntorch as tn

    t = _tt(m, "a")  # a 2 x 2 x 2 x 2 tensor
    x, y, z, w = tn.symbols(4)
    return tn.mask(t, x & ~y).torch(), tn.mask(t, tn.only(z | w)).torch()


def _meshgrid(m):
    import tntorch as tn

    x, y = tn.meshgrid([m.xs, m.ys])
    f = x * x + 2 * y + 1
    return f.torch(), tn.mean(f)


# --- cross approximation ---------------------------------------------------------------------

def _exp(m):
    import tntorch as tn

    a = _tt(m, "a")
    return tn.exp(a).torch()


def _cross(m):
    import torch
    import tntorch as tn

    a = _tt(m, "a")
    t = tn.cross(function=lambda x: torch.sin(x) + x * x, tensors=[a], ranks_tt=3, max_iter=2, verbose=False)
    return t.torch()


# --- derivatives -----------------------------------------------------------------------------

def _derivatives(m):
    import tntorch as tn

    t = _tt(m, "a")
    g = tn.gradient(t)
    return tn.partial(t, 0).torch(), tn.partial(t, [0, 2], order=2).torch(), [x.torch() for x in g]


def _laplacian_divergence(m):
    import tntorch as tn

    t = _tt(m, "a")
    ts = [_tt(m, "a"), _tt(m, "b"), _tt(m, "c")]
    return tn.laplacian(t).torch(), tn.divergence(ts).torch()


# --- ANOVA / Sobol ---------------------------------------------------------------------------

def _sobol(m):
    import tntorch as tn

    t = _tt(m, "a")
    x, y, z = tn.symbols(3)
    return tn.sobol(t, tn.only(x)), tn.sobol(t, x & y), tn.sobol(t, tn.only(y | z)), tn.mean_dimension(t)


def _anova(m):
    import tntorch as tn

    t = _tt(m, "a")
    anova = tn.anova_decomposition(t)
    return anova.torch(), tn.undo_anova_decomposition(anova).torch()


# --- automata / logic ------------------------------------------------------------------------

def _weight_mask(m):
    import tntorch as tn

    t = _tt(m, "a")  # 2 x 2 x ... x 2
    w = tn.weight_mask(t.dim(), 2)
    return tn.dot(t, w), tn.sum(t * tn.weight(t.dim()))


def _logic_queries(m):
    import tntorch as tn

    x, y, z = tn.symbols(3)
    f = (x | y) & ~z
    g = tn.Tensor(list(m.a)) * f  # a weighted formula
    return (tn.sum(g), tn.is_satisfiable(f), tn.is_tautology(x | ~x), tn.implies(x & y, x), tn.equiv(f, f),
            tn.relevant_symbols(f), tn.sum(tn.all(3)), tn.sum(tn.any(3)), tn.sum(tn.one(3)))


def _create_like(m):
    import tntorch as tn

    a = _tt(m, "a")
    return ((a + tn.ones_like(a)).torch(), (a * tn.full_like(a, 2.0)).torch(), (a + tn.zeros(*_SHAPE)).torch(),
            (tn.ones(*_SHAPE) * a).torch())


def _logic_formula(m):
    import tntorch as tn

    x, y, z, w = tn.symbols(4)
    f = (x & y) | (~z & w)
    t = _tt(m, "a")
    return tn.sum(f), tn.dot(t, f), (f * t).torch()


# --- matrices ------------------------------------------------------------------------------

def _ttmatrix_dense(m, v):
    import tntorch as tn

    ttm = tn.TTMatrix(m.W, ranks=[4], input_dims=[4, 3], output_dims=[5, 2])
    return tn.tt_multiply(ttm, v), ttm.torch(), v @ m.W


def _cpmatrix_dense(m, v):
    import tntorch as tn

    cpm = tn.CPMatrix(m.W, rank=4, input_dims=[4, 3], output_dims=[5, 2])
    return tn.cp_multiply(cpm, v), cpm.torch()


def _ttmatrix_trace(m):
    import tntorch as tn

    ttm = tn.TTMatrix(m.W, ranks=[4], input_dims=[4, 3], output_dims=[4, 3])
    return ttm.trace(), ttm.torch()


def _tt_layer_mlp(m, x):
    import torch
    import tntorch as tn

    ttm = tn.TTMatrix(list(m.cores), ranks=[3], input_dims=[4, 3], output_dims=[5, 2])
    h = torch.relu(tn.tt_multiply(ttm, x) + m.bias)
    return h @ m.head


def _ttm_cores():
    import torch

    return [torch.randn(1, 4, 5, 3) / 2, torch.randn(3, 3, 2, 1) / 2]


# --- tutorial losses ------------------------------------------------------------------------

def _loss_class():
    import torch

    class _Loss(torch.nn.Module):
        def __init__(self, net, fn):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.fn = fn

        def forward(self, *args):
            return self.fn(self.net, *args)

    return _Loss


def _completion(m, P, y):
    a = _tt(m, "cores")
    return a[P].torch()  # the tutorial's model: the TT evaluated at the observed entries


def _completion_loss(net):
    def fn(net, P, y):
        import torch

        return torch.mean((net(P, y) - y) ** 2)

    return _loss_class()(net, fn)


def _exp_machine(m, X, y=None):
    # the tutorial: a TT-Tucker tensor (TT rank 2, Tucker rank 2) whose factors are fixed Legendre
    # polynomials (``set_factors('legendre', requires_grad=False)``), read at the features ``t[X]``
    import tntorch as tn

    t = tn.Tensor(list(m.cores), Us=[m.basis_fixed] * len(m.cores))
    return t[X].torch()


def _exp_machine_loss(net):
    def fn(net, X, y):
        import tntorch as tn

        return tn.relative_error(y, net(X)) ** 2

    return _loss_class()(net, fn)


def _autodiff_fit(m):
    a = _tt(m, "cores")
    return a


def _autodiff_loss(net):
    def fn(net):
        import tntorch as tn

        t = net()
        return tn.relative_error(net.gt, t) ** 2

    return _loss_class()(net, fn)


def _autodiff_eval(m):
    import tntorch as tn

    t = _tt(m, "cores")
    return tn.relative_error(m.gt, t) ** 2, t.torch()


def _autodiff_make(mode):
    import torch

    if mode == "train":
        net = _module_class()(_autodiff_fit, {"cores": _tt_cores()})
        net.register_buffer("gt", torch.rand(*_SHAPE))
        return _autodiff_loss(net), (), {}
    net = _module_class()(_autodiff_eval, {"cores": _tt_cores()})
    net.register_buffer("gt", torch.rand(*_SHAPE))
    return net, (), {}


def _eval_only(make, why):
    def f(mode):
        if mode == "train":
            raise NotImplementedError(why)
        return make(mode)

    return f


def _with_loss(fn, params, inputs, loss):
    def make(mode):
        net = _module_class()(fn, params())
        if mode == "train":
            return loss(net), inputs(), {}
        return net, inputs(), {}

    return make


# --- inputs ---------------------------------------------------------------------------------

def _idx_points():
    import torch

    P = torch.stack([torch.randint(0, n, (20,)) for n in _SHAPE], dim=1)
    return (P,)


def _completion_inputs():
    import torch

    P = torch.stack([torch.randint(0, n, (32,)) for n in _SHAPE], dim=1)
    return P, torch.randn(32)


def _exp_machine_inputs():
    import torch

    X = torch.rand(24, 5) * 2 - 1
    y = torch.prod(X, dim=1) + torch.prod(X[:, :3], dim=1)
    return (X + 1) / 2 * (16 - 1), y  # features as (fractional) indices of a 16^5 tensor


def _exp_machine_params():
    import tntorch as tn

    return {"cores": _tt_cores((2,) * 5, 2), "basis_fixed": tn.generate_basis("legendre", (16, 2)).float()}


def _vec(*shape):
    def f():
        import torch

        return (torch.randn(*shape),)

    return f


def _x(shape=_SHAPE):
    return _params(x=lambda: _full(shape))


def _ab(shape=_SHAPE):
    return _params(a=lambda: _tt_cores(shape), b=lambda: _tt_cores(shape))


def _a(shape=_SHAPE):
    return _params(a=lambda: _tt_cores(shape))


def _abc(shape):
    return _params(a=lambda: _tt_cores(shape), b=lambda: _tt_cores(shape), c=lambda: _tt_cores(shape))


def _mixed_params():
    t = _tucker()
    return {"a": _tt_cores(), "c": _cp_factors(), "ucores": t["cores"], "Us": t["Us"]}


def _index_params():
    import torch

    return {"a": _tt_cores(), "ii": torch.tensor([0, 3, 7]), "kk": torch.tensor([1, 5])}


def _setitem_params():
    import torch

    return {"a": _tt_cores(), "patch": torch.rand(10, 5, 2)}


def _mesh_params():
    import torch

    return {"xs": torch.linspace(0, 1, 8), "ys": torch.linspace(-1, 1, 6)}


def _ttm_inputs():
    import torch

    return (torch.randn(4, 5),)


def _tt_layer_params():
    import torch

    return {"cores": _ttm_cores(), "bias": torch.zeros(10), "head": torch.randn(10, 3) / 3}


MODELS = {
    # decompositions
    "TTSVD": _make(_decompose(ranks_tt=_R), _x()),
    "TTEps": _make(_decompose(eps=1e-1), _x()),
    "TTEig": _make(_decompose(ranks_tt=_R, algorithm="eig"), _x()),
    "Tucker": _make(_decompose(ranks_tucker=_R), _x()),
    "TuckerTT": _make(_decompose(ranks_tucker=_R, ranks_tt=2), _x()),
    "CPALS": _make(_decompose(ranks_cp=_R, max_iter=5), _x()),
    "TuckerCP": _make(_decompose(ranks_tucker=_R, ranks_cp=_R, max_iter=5), _x()),
    "TTBatch": _make(_tt_batch, _x((10, 5, 5, 5))),
    # from cores
    "FromTTCores": _make(_from_tt_cores, _params(cores=_tt_cores)),
    "FromCPFactors": _make(_from_cp_factors, _params(factors=_cp_factors)),
    "FromTucker": _make(_from_tucker, _tucker),
    "FromBatchCores": _make(_from_batch_cores, _params(cores=lambda: _tt_cores((5, 6, 4), batch=4))),
    # arithmetic
    "TTAddMul": _make(_tt_add_mul, _ab()),
    "MixedFormats": _make(_mixed_formats, _mixed_params),
    "ScalarOps": _make(_scalar_ops, _a()),
    "BatchAddMul": _make(_batch_add, _params(a=lambda: _tt_cores((5, 6), batch=4),
                                             b=lambda: _tt_cores((5, 6), batch=4))),
    # metrics
    "MetricsPair": _make(_metrics_pair, _ab()),
    "MetricsSingle": _make(_metrics_single, _a()),
    "MetricsVsFull": _make(_metrics_vs_full, _params(x=_full, factors=_cp_factors)),
    # rounding
    "RoundTT": _make(_round_tt, _a()),
    "RoundTucker": _make(_round_tucker, _tucker),
    "RoundRmax": _make(_round_rmax, _a()),
    "Orthogonalize": _make(_orthogonalize, _a()),
    # indexing
    "BasicIndex": _make(_basic_index, _a()),
    "FancyIndex": _make(_fancy_index, _index_params, _idx_points),
    "SetItem": _make(_setitem, _setitem_params),
    # tools
    "ToolsShape": _make(_tools_shape, _ab()),
    "TTMCumsum": _make(_ttm, _a(), _ttm_inputs),
    "LogicMask": _make(_logic_mask, _a((2, 2, 2, 2))),
    "Meshgrid": _make(_meshgrid, _mesh_params),
    # cross approximation
    "CrossExp": _make(_exp, _a((6, 5, 4))),
    "CrossFunction": _make(_cross, _a((6, 5, 4))),
    # derivatives
    "Derivatives": _make(_derivatives, _a((8, 7, 6))),
    "LaplacianDivergence": _make(_laplacian_divergence, _abc((8, 7, 6))),
    # anova / sobol
    "Sobol": _eval_only(_make(_sobol, _a((6, 5, 4))), "tn.sobol / mean_dimension call .numpy() on the "
                        "variance terms: they fail eagerly on cores that require grad (1.1.2)"),
    "Anova": _make(_anova, _a((6, 5, 4))),
    # automata / logic
    "WeightMask": _make(_weight_mask, _a((2,) * 6)),
    "LogicFormula": _make(_logic_formula, _a((2, 2, 2, 2))),
    "LogicQueries": _make(_logic_queries, _a((2, 2, 2))),
    "CreateLike": _make(_create_like, _a()),
    # matrices
    "TTMatrixDense": _make(_ttmatrix_dense, _params(W=lambda: _full((12, 10))), _vec(6, 12)),
    "CPMatrixDense": _make(_cpmatrix_dense, _params(W=lambda: _full((12, 10))), _vec(6, 12)),
    "TTMatrixTrace": _make(_ttmatrix_trace, _params(W=lambda: _full((12, 12)))),
    "TTLayerMLP": _make(_tt_layer_mlp, _tt_layer_params, _vec(6, 12)),
    # tutorial losses
    "Completion": _with_loss(_completion, _params(cores=_tt_cores), _completion_inputs, _completion_loss),
    "ExponentialMachine": _with_loss(_exp_machine, _exp_machine_params, _exp_machine_inputs,
                                     _exp_machine_loss),
    "AutodiffFit": _autodiff_make,
}
