"""pykan 0.2.8 (Ziming Liu): Kolmogorov-Arnold networks as its docstrings and tutorials use them,
tiny (2-4 inputs, hidden layers of 2-5 nodes, grids of 3-10 intervals, batches of 8-16), random
weights, no download, no checkpoint files (every ``MultKAN`` is built with ``auto_save=False``;
pykan's default ``auto_save=True`` writes ``./model/*`` on construction and after every edit):

- ``KAN`` / ``MultKAN`` over the docstrings' widths: plain sums (``[2,5,1]``), the nested
  ``[[n, m], ...]`` form, multiplication nodes of arity 2 and 3 (the homogeneous vectorised path)
  and per-node arities (``mult_arity=[[], [2, 3], []]``: the loop path); options: per-layer
  ``grid`` / ``k`` lists, ``base_fun`` ``'silu'`` / ``'identity'`` / ``'zero'``, ``sparse_init``,
  ``affine_trainable``, ``grid_range``, ``grid_eps``, ``sp_trainable`` / ``sb_trainable``
  off, ``symbolic_enabled`` / ``save_act`` as ``fit`` sets them;
- ``KANLayer`` alone (its 4-tuple out) and its grid updates in the forward:
  ``update_grid_from_samples`` (``mode='sample'`` / ``'grid'``: sort, percentile grid,
  ``torch.linalg.lstsq`` through ``curve2coef``, ``.data`` writes), ``initialize_grid_from_parent``;
  the model's ``update_grid`` (as ``fit`` calls it before a step), ``initialize_from_another_model``
  (what ``refine`` does) in the forward, and a model built by ``refine(10)``;
- the symbolic front: ``fix_symbolic`` with and without fitted affine parameters
  (``fit_params``' sweep), ``set_mode('sn')`` mixed edges, ``unfix_symbolic``, the
  singularity-avoiding forms (``singularity_avoiding=True, y_th=...``: ``log``, ``1/x``, ``sqrt``,
  ``arctanh``, ``exp``, ``arcsin``, ``arccos``, ``1/x^2``, ``1/sqrt(x)``, ``1/x^3..5``, ``x^0.5``),
  ``add_symbolic`` (a Bessel J0) and an anonymous lambda (``random=True`` affine),
  ``auto_symbolic`` over a small library, ``Symbolic_KANLayer`` alone, and ``kanpiler``
  (``expr2kan``: sympy formulas compiled to a KAN) with ``expand_width`` / ``expand_depth`` /
  ``perturb``;
- pruning: ``prune_node`` / ``prune_edge`` / ``remove_edge`` / ``prune_input(active_inputs=...)``
  at build (``log_history=False``), and ``prune_edge`` and ``prune_node`` (which builds a new
  ``MultKAN``) inside the forward; attribution (``attribute``, ``feature_score``,
  ``connection_cost``, ``attribute(l, i)``) in the forward;
- ``kan.MLP`` (its own forward with saved activations, ``attribute``, ``reg``);
- ``kan.utils.batch_hessian`` and ``kan.hypothesis.get_dependence`` (the separability / symmetry
  tests' derivatives through ``torch.autograd.functional.jacobian``) on a KAN.

Eval: the model's forward (the hessian / attribution / grid-update runs: a user module that
calls them). Train: ``FitStep``, the body of ``MultKAN.fit``'s closure as a module (the model
switched by ``disable_symbolic_in_fit(lamb)`` first, as ``fit`` does; ``update_grid`` when
``fit`` would; the forward with ``singularity_avoiding`` / ``y_th``; the MSE; for
``save_act``: ``attribute()`` / ``node_attribute()`` for the backward metrics and
``get_reg`` with each ``reg_metric``, ``lamb_coef`` / ``lamb_coefdiff``; ``train_loss + lamb *
reg_``), ``MLPFitStep`` the same for ``kan.MLP.fit`` (``reg_metric='fa'``: ``attribute()`` in the step), and the
mean of the outputs (``mean_loss_module``) for the layers, the attribution, hessian and pruning
runs. Data from ``kan.utils.create_dataset`` (the docstrings' ``exp(sin(pi x0) + x1^2)``).

    pip install --no-deps pykan==0.2.8

(sympy 1.14.0, scikit-learn 1.9.1, pandas 3.0.6, PyYAML 6.0.3, tqdm 4.70.1, numpy, scipy were
installed already.) Stubbed (``stub_modules``, only when not installed): ``matplotlib`` /
``matplotlib.pyplot``: ``kan/MultKAN.py``, ``MLP.py`` and ``hypothesis.py`` import pyplot at their
top, used only by ``plot`` / ``get_fun`` / ``attribute(plot=True)`` / ``plot_tree``, never called
here. Stop 54: measured first as it came, before any rule looked at it.

Left out: ``fit`` itself (tqdm progress bar, ``np.random.choice`` batches, the LBFGS optimizer
step and ``log_history``'s checkpoint files: the optimizer is left out as in the other adapters,
its loss step is ``FitStep``); ``copy`` / ``saveckpt`` / ``loadckpt`` / ``rewind`` /
``get_derivative`` (files through ``copy``); ``plot`` / ``tree`` / ``get_fun`` (matplotlib);
``symbolic_formula`` and ``suggest_symbolic`` (sympy / sklearn / pandas on the host: no tensor
forward); ``tan`` and ``x^1.5`` under ``singularity_avoiding=True`` (in 0.2.8 their protected
forms return a 3-tuple / a bare tensor where ``Symbolic_KANLayer.forward`` takes element ``[1]`` of
a 2-tuple, so the forward raises in eager; their plain forms are fine); ``experiment.runner1``
(``fit`` loops); ``speed(compile=True)`` (calls ``torch.compile`` itself); ``feynman`` (datasets
as lambdas only).

Capture (torch 2.13.0+cpu, ``-j 1``): 30 models, 60 runs, all built (none skipped); 56 ran under
Dynamo, 4 failed under Dynamo (recorded): ``MultKAN_hetero_arity`` and ``kanpiler_expanded``
(eval and train), the per-node-arity loop's ``x[:,[acml_id]]`` (MultKAN.py:853) where ``acml_id =
dim_sum + np.sum(self.mult_arity[l+1][:j])`` is a NumPy float64 (``np.sum([]) == 0.0``): eager
indexes with it, Dynamo traces it as a float64 tensor and the fake getitem raises (GB4315).
First numbers (linter of stop 54's start): graph-break statement recall 0.45 (9/20), precision on
executed lines 1.00 (7/7), 142 findings unjudged (119 not reached).
"""

import functools

PACKAGE = "kan"
DISTRIBUTION = "pykan"

_B = 16  # batch
mean_loss_module = None  # adapter.py's, set by ZooSuite


def _stub():
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        stub_modules(  # noqa: F821 (set by ZooSuite)
            {"matplotlib": ((), ()),
             "matplotlib.pyplot": (("figure", "subplots", "plot", "bar", "xticks", "scatter", "savefig", "close",
                                    "show", "text", "imshow", "axis", "gca", "xlim", "ylim", "title", "legend"),
                                   ())},
            "pykan")


def warm_up():
    _stub()
    import torch  # noqa: F401
    import kan  # noqa: F401
    import kan.compiler  # noqa: F401
    import kan.hypothesis  # noqa: F401
    import kan.MLP  # noqa: F401


before_build = _stub  # (ZooSuite runs it before each make: warm_up may not have run)


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    from kan.hypothesis import get_dependence
    from kan.utils import batch_hessian

    class FitStep(nn.Module):
        """``MultKAN.fit``'s closure as a module: what one optimisation step computes."""

        def __init__(self, model, lamb=0., lamb_l1=1., lamb_entropy=2., lamb_coef=0., lamb_coefdiff=0.,
                     reg_metric="edge_forward_spline_n", singularity_avoiding=False, y_th=1000.,
                     update_grid=False):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.lamb, self.lamb_l1, self.lamb_entropy = lamb, lamb_l1, lamb_entropy
            self.lamb_coef, self.lamb_coefdiff, self.reg_metric = lamb_coef, lamb_coefdiff, reg_metric
            self.singularity_avoiding, self.y_th, self.update_grid = singularity_avoiding, y_th, update_grid
            model.disable_symbolic_in_fit(lamb)  # as fit() does before its loop
            self.loss_fn = lambda x, y: torch.mean((x - y) ** 2)

        def forward(self, x, y):
            model = self.model
            if self.update_grid:
                model.update_grid(x)
            pred = model.forward(x, singularity_avoiding=self.singularity_avoiding, y_th=self.y_th)
            train_loss = self.loss_fn(pred, y)
            if model.save_act:
                if self.reg_metric == "edge_backward":
                    model.attribute()
                if self.reg_metric == "node_backward":
                    model.node_attribute()
                reg_ = model.get_reg(self.reg_metric, self.lamb_l1, self.lamb_entropy, self.lamb_coef,
                                     self.lamb_coefdiff)
            else:
                reg_ = torch.tensor(0.)
            return train_loss + self.lamb * reg_

    class MLPFitStep(nn.Module):
        """``kan.MLP.fit``'s closure as a module."""

        def __init__(self, model, lamb=0.01, lamb_l1=1., lamb_entropy=2., reg_metric="fa"):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)
            self.lamb, self.lamb_l1, self.lamb_entropy, self.reg_metric = lamb, lamb_l1, lamb_entropy, reg_metric

        def forward(self, x, y):
            pred = self.model.forward(x)
            train_loss = torch.mean((pred - y) ** 2)
            if self.model.save_act:
                if self.reg_metric == "fa":
                    self.model.attribute()
                reg_ = self.model.get_reg(self.reg_metric, self.lamb_l1, self.lamb_entropy)
            else:
                reg_ = torch.tensor(0.)
            return train_loss + self.lamb * reg_

    class GridUpdate(nn.Module):
        """``model.update_grid(x)`` on the batch, then the forward (what fit's grid steps do)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            self.model.update_grid(x)
            return self.model(x)

    class LayerGridUpdate(nn.Module):
        """``KANLayer.update_grid_from_samples(x, mode)`` then the layer's forward."""

        def __init__(self, layer, mode):
            super().__init__()
            self.layer, self.mode = layer, mode

        def forward(self, x):
            self.layer.update_grid_from_samples(x, mode=self.mode)
            return self.layer(x)

    class LayerFromParent(nn.Module):
        """``KANLayer.initialize_grid_from_parent``: a finer layer from a coarser one."""

        def __init__(self, layer, parent):
            super().__init__()
            self.layer, self.parent = layer, parent

        def forward(self, x):
            self.layer.initialize_grid_from_parent(self.parent, x)
            return self.layer(x)

    class FromAnother(nn.Module):
        """``initialize_from_another_model`` (what ``refine`` does) in the forward."""

        def __init__(self, parent, child):
            super().__init__()
            self.parent, self.child = parent, child

        def forward(self, x):
            self.child.initialize_from_another_model(self.parent, x)
            return self.child(x)

    class PruneEdges(nn.Module):
        """Forward, attribution, ``prune_edge`` (mask writes), forward again."""

        def __init__(self, model, threshold):
            super().__init__()
            self.model, self.threshold = model, threshold

        def forward(self, x):
            self.model(x)
            self.model.attribute()
            self.model.prune_edge(self.threshold, log_history=False)
            return self.model(x)

    class PruneNodes(nn.Module):
        """Forward, then ``prune_node`` (a new, smaller MultKAN) and its forward."""

        def __init__(self, model, threshold):
            super().__init__()
            self.model, self.threshold = model, threshold

        def forward(self, x):
            self.model(x)
            pruned = self.model.prune_node(self.threshold, log_history=False)
            return pruned(x)

    class Attribution(nn.Module):
        """The interpretability scores after a forward: ``attribute``, ``feature_score``,
        ``connection_cost`` and one node's input attribution ``attribute(l, i)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            y = self.model(x)
            self.model.attribute()
            scores = self.model.feature_score
            cost = self.model.connection_cost
            node = self.model.attribute(1, 0, plot=False)
            return y, scores, cost, node, tuple(self.model.edge_scores)

    class Derivatives(nn.Module):
        """The hypothesis tests' derivatives: ``batch_hessian`` and ``get_dependence``."""

        def __init__(self, model, group):
            super().__init__()
            self.model, self.group = model, group

        def forward(self, x):
            return batch_hessian(self.model, x), get_dependence(self.model, x, self.group)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


def _data(n_var=2, num=_B):
    """The docstrings' dataset ``exp(sin(pi x0) + x1^2)`` (extra inputs ignored)."""
    import torch
    from kan.utils import create_dataset

    f = lambda x: torch.exp(torch.sin(torch.pi * x[:, [0]]) + x[:, [1]] ** 2)  # noqa: E731
    ds = create_dataset(f, n_var=n_var, train_num=num, test_num=num)
    return ds["train_input"], ds["train_label"]


def _kan(width, **options):
    from kan import KAN

    options.setdefault("seed", 0)
    return KAN(width=width, auto_save=False, **options)


def _fit(model, mode, n_var, out=1, fit=None, call=None):
    """Eval: ``model(x, **call)``; train: ``FitStep(model, **fit)`` on the dataset (the label
    repeated for several outputs)."""
    x, y = _data(n_var)
    if mode == "train":
        return _nets().FitStep(model, **(fit or {})), (x, y.expand(-1, out).contiguous()), {}
    return model, (x,), dict(call or {})


def _mean(net, args, mode, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), args, kwargs or {}


# --- KAN / MultKAN ------------------------------------------------------------------------

def _plain(mode):
    """The docstrings' ``KAN(width=[2,5,1], grid=5, k=3)``; train: fit's default step (lamb=0:
    save_act and the symbolic branch off)."""
    return _fit(_kan([2, 5, 1], grid=5, k=3), mode, 2)


def _reg_coef(mode):
    """``lamb=0.01`` with the coefficient and smoothness penalties (edge_forward_spline_n)."""
    return _fit(_kan([2, 3, 2, 1], grid=5, k=3, noise_scale=0.3, seed=2), mode, 2,
                fit=dict(lamb=0.01, lamb_coef=1., lamb_coefdiff=1.))


def _options(mode):
    """Per-layer grids and orders, identity base, wider grid range, uniform grid, trainable
    affines, fixed scales, the nested width form; train: reg_metric edge_forward_spline_u."""
    model = _kan([[3, 0], [4, 0], [2, 0]], grid=[3, 5], k=[2, 3], base_fun="identity", grid_range=[-2, 2],
                 grid_eps=1.0, affine_trainable=True, sp_trainable=False, sb_trainable=False, noise_scale=0.1)
    return _fit(model, mode, 3, out=2, fit=dict(lamb=0.01, reg_metric="edge_forward_spline_u"))


def _base_zero_sparse(mode):
    """``base_fun='zero'`` with ``sparse_init``; train: reg_metric edge_forward_sum."""
    model = _kan([4, 5, 2], grid=4, k=3, base_fun="zero", sparse_init=True)
    return _fit(model, mode, 4, out=2, fit=dict(lamb=0.01, reg_metric="edge_forward_sum"))


def _reg_edge_backward(mode):
    """reg_metric edge_backward: ``attribute()`` inside the step."""
    return _fit(_kan([3, 4, 1], grid=3, k=3), mode, 3, fit=dict(lamb=0.01, reg_metric="edge_backward"))


def _reg_node_backward(mode):
    """reg_metric node_backward: ``node_attribute()`` (``attribute(l)`` per layer)."""
    return _fit(_kan([2, 3, 2, 1], grid=3, k=3), mode, 2, fit=dict(lamb=0.01, reg_metric="node_backward"))


def _mult_arity2(mode):
    """Multiplication nodes of arity 2 (``width=[2,[3,2],1]``), train with lamb."""
    return _fit(_kan([2, [3, 2], 1], grid=3, k=3), mode, 2, fit=dict(lamb=0.01))


def _mult_arity3(mode):
    """Arity-3 products in two hidden layers."""
    return _fit(_kan([3, [2, 1], [1, 1], 1], grid=3, k=3, mult_arity=3), mode, 3, fit=dict(lamb=0.01))


def _mult_hetero(mode):
    """Per-node arities ``[[], [2, 3], []]`` (the loop path), train with edge_backward."""
    model = _kan([2, [2, 2], 1], grid=3, k=3, mult_arity=[[], [2, 3], []])
    return _fit(model, mode, 2, fit=dict(lamb=0.01, reg_metric="edge_backward"))


# --- KANLayer and grids ---------------------------------------------------------------------

def _kanlayer(mode):
    """``KANLayer(3, 5)`` (the docstring's), order 2, 7 intervals, a tanh base."""
    import torch
    from kan.KANLayer import KANLayer

    layer = KANLayer(in_dim=3, out_dim=5, num=7, k=2, base_fun=torch.nn.Tanh(), scale_base_mu=0.1)
    return _mean(layer, (torch.normal(0, 1, size=(_B, 3)),), mode)


def _layer_grid(grid_mode):
    def make(mode):
        import torch
        from kan.KANLayer import KANLayer

        layer = KANLayer(in_dim=2, out_dim=3, num=5, k=3)
        x = torch.linspace(-3, 3, steps=_B)[:, None].expand(-1, 2) * torch.tensor([1.0, 0.5])
        return _mean(_nets().LayerGridUpdate(layer, grid_mode), (x.contiguous(),), mode)

    return make


def _layer_from_parent(mode):
    """The docstring's: a 10-interval layer from a 5-interval parent on samples."""
    import torch
    from kan.KANLayer import KANLayer

    parent = KANLayer(in_dim=1, out_dim=2, num=5, k=3)
    layer = KANLayer(in_dim=1, out_dim=2, num=10, k=3)
    return _mean(_nets().LayerFromParent(layer, parent), (torch.normal(0, 1, size=(_B, 1)),), mode)


def _update_grid(mode):
    """Eval: ``update_grid`` then the forward; train: the fit step on a grid-update step."""
    model = _kan([2, 3, 1], grid=5, k=3)
    x, y = _data(2)
    if mode == "train":
        return _nets().FitStep(model, lamb=0.01, update_grid=True), (x, y), {}
    return _nets().GridUpdate(model), (x,), {}


def _refine(mode):
    """A model refined to 10 intervals from a 3-interval one (``refine``)."""
    import torch

    coarse = _kan([2, 3, 1], grid=3, k=3)
    coarse.get_act(torch.rand(_B, 2) * 2 - 1)
    model = coarse.refine(10)
    model.auto_save = False
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _from_another(mode):
    import torch

    parent = _kan([2, 3, 1], grid=3, k=3)
    child = _kan([2, 3, 1], grid=6, k=3, seed=1)
    return _mean(_nets().FromAnother(parent, child), (torch.rand(_B, 2) * 2 - 1,), mode)


# --- pruning and attribution ---------------------------------------------------------------

def _pruned(mode):
    """``prune_node`` + ``prune_edge`` (what ``prune`` does, without its history), an edge
    removed, and ``prune_input`` with given inputs: the forward indexes ``input_id``."""
    import torch

    model = _kan([3, 5, 1], grid=3, k=3, noise_scale=1.)
    model.get_act(torch.rand(_B, 3) * 2 - 1)
    model = model.prune_node(0.05, log_history=False)
    model.auto_save = False
    model.forward(model.cache_data)
    model.attribute()
    model.prune_edge(0.05, log_history=False)
    model.remove_edge(0, 0, 0, log_history=False)
    model = model.prune_input(active_inputs=[0, 2], log_history=False)
    model.auto_save = False
    x, y = _data(3)
    if mode == "train":
        return _nets().FitStep(model, lamb=0.01), (x, y), {}
    return model, (x,), {}


def _prune_edge_forward(mode):
    import torch

    model = _kan([2, 4, 1], grid=3, k=3, noise_scale=1.)
    return _mean(_nets().PruneEdges(model, 0.1), (torch.rand(_B, 2) * 2 - 1,), mode)


def _prune_node_forward(mode):
    import torch

    model = _kan([2, 4, 1], grid=3, k=3, noise_scale=1.)
    return _mean(_nets().PruneNodes(model, 0.1), (torch.rand(_B, 2) * 2 - 1,), mode)


def _attribution(mode):
    import torch

    model = _kan([3, 4, 2], grid=3, k=3)
    return _mean(_nets().Attribution(model), (torch.rand(_B, 3) * 2 - 1,), mode)


def _derivatives(mode):
    """``batch_hessian`` and ``get_dependence(model, x, [0, 1])`` on a [3, 3, 1] KAN."""
    import torch

    model = _kan([3, 3, 1], grid=3, k=3)
    return _mean(_nets().Derivatives(model, [0, 1]), (torch.rand(8, 3) * 2 - 1,), mode)


# --- the symbolic front -------------------------------------------------------------------

def _fix_symbolic(mode):
    """Edges fixed to sin / x^2 / exp / tanh / gaussian / arctan / abs / sgn without fitting,
    one edge mixed (``set_mode('sn')``), one fixed then unfixed; train: lamb > 0."""
    model = _kan([2, 5, 1], grid=5, k=3)
    for (l, i, j), name in {(0, 0, 0): "sin", (0, 1, 0): "x^2", (0, 0, 1): "exp", (0, 1, 2): "tanh",
                            (0, 0, 3): "gaussian", (0, 1, 4): "arctan", (1, 0, 0): "abs",
                            (1, 2, 0): "sgn", (1, 3, 0): "x^3"}.items():
        model.fix_symbolic(l, i, j, name, fit_params_bool=False, log_history=False)
    model.set_mode(0, 1, 1, "sn", mask_n=0.5)
    model.fix_symbolic(1, 4, 0, "cos", fit_params_bool=False, log_history=False)
    model.unfix_symbolic(1, 4, 0, log_history=False)
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _fix_symbolic_fitted(mode):
    """The docstring's: activations from a forward, then ``fix_symbolic`` fits a, b, c, d."""
    import torch

    model = _kan([2, 3, 1], grid=5, k=3, noise_scale=1.)
    model(torch.normal(0, 1, size=(_B, 2)))
    for (l, i, j), name in {(0, 1, 2): "sin", (0, 0, 0): "x^2", (1, 1, 0): "tanh"}.items():
        model.fix_symbolic(l, i, j, name, verbose=False, log_history=False)
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _singular(mode):
    """Functions with singularities, evaluated with ``singularity_avoiding=True`` (the
    docstring's ``log`` example and the rest of the library's protected forms)."""
    model = _kan([2, 5, 2], grid=3, k=3)
    names = ["log", "1/x", "sqrt", "arctanh", "exp", "arcsin", "arccos", "1/x^2", "1/sqrt(x)", "1/x^3",
             "1/x^4", "1/x^5", "x^0.5", "abs", "gaussian"]  # (not tan, x^1.5: see the docstring)
    edges = [(0, i, j) for i in range(2) for j in range(5)] + [(1, i, j) for i in range(5) for j in range(1)]
    for (l, i, j), name in zip(edges, names):
        model.fix_symbolic(l, i, j, name, fit_params_bool=False, log_history=False)
    return _fit(model, mode, 2, out=2, fit=dict(singularity_avoiding=True, y_th=1000.),
                call=dict(singularity_avoiding=True, y_th=10.))


def _custom_symbolic(mode):
    """``add_symbolic('J0', torch.special.bessel_j0)`` and an anonymous lambda, random affines."""
    import torch
    from kan.utils import add_symbolic

    add_symbolic("J0", torch.special.bessel_j0)
    model = _kan([2, 2, 1], grid=3, k=3)
    model.fix_symbolic(0, 0, 0, "J0", fit_params_bool=False, random=True, log_history=False)
    model.fix_symbolic(0, 1, 1, lambda x: torch.sigmoid(x) * x, fit_params_bool=False, random=True,
                       log_history=False)
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _auto_symbolic(mode):
    """``auto_symbolic`` over a small library (every edge symbolic), the spline branch masked."""
    import torch

    model = _kan([2, 1, 1], grid=3, k=3, noise_scale=0.1)  # (the docstring's width)
    model(torch.rand(_B, 2) * 2 - 1)
    model.auto_symbolic(lib=["x", "x^2", "sin"], verbose=0)
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _symbolic_layer(mode):
    """``Symbolic_KANLayer(3, 2)`` alone, with ``fix_symbolic`` per edge, singularity-avoiding."""
    import torch
    from kan.Symbolic_KANLayer import Symbolic_KANLayer

    layer = Symbolic_KANLayer(in_dim=3, out_dim=2)
    for (i, j), name in {(0, 0): "sin", (1, 0): "1/x", (2, 0): "log", (0, 1): "x^2", (1, 1): "sqrt",
                         (2, 1): "exp"}.items():
        layer.fix_symbolic(i, j, name, random=True, verbose=False)
    layer.mask.data += 1.
    return _mean(layer, (torch.normal(0, 1, size=(_B, 3)),), mode, {"singularity_avoiding": True, "y_th": 10.})


def _kanpiler(mode):
    """The compiler docstring's ``kanpiler([a, b], exp(sin(pi*a) + b**2))``."""
    import sympy
    from kan.compiler import kanpiler

    a, b = sympy.symbols("a b")
    model = kanpiler([a, b], sympy.exp(sympy.sin(sympy.pi * a) + b ** 2))
    return _fit(model, mode, 2, fit=dict(lamb=0.01))


def _kanpiler_expanded(mode):
    """A compiled product ``a*b + sin(c)`` (multiplication nodes), widened, deepened and
    perturbed (interp_3_KAN_compiler's steps)."""
    import sympy
    import torch
    from kan.compiler import kanpiler

    a, b, c = sympy.symbols("a b c")
    model = kanpiler([a, b, c], a * b + sympy.sin(c), grid=3)
    model.expand_width(1, 1, sum_bool=True)
    model.expand_depth()
    model(torch.rand(_B, 3) * 2 - 1)
    model.perturb(mag=0.1, mode="all")
    return _fit(model, mode, 3, fit=dict(lamb=0.01))


def _mlp(mode):
    """``kan.MLP([2, 5, 1])``; train: ``MLP.fit``'s step with reg_metric 'fa' (attribute)."""
    from kan.MLP import MLP

    model = MLP(width=[2, 5, 1])
    x, y = _data(2)
    if mode == "train":
        return _nets().MLPFitStep(model, reg_metric="fa"), (x, y), {}
    return model, (x,), {}



MODELS = {
    # KAN / MultKAN: widths, options, regularisers of the fit step
    "KAN": _plain,
    "KAN_reg_coef": _reg_coef,
    "KAN_options": _options,
    "KAN_base_zero_sparse": _base_zero_sparse,
    "KAN_reg_edge_backward": _reg_edge_backward,
    "KAN_reg_node_backward": _reg_node_backward,
    "MultKAN_arity2": _mult_arity2,
    "MultKAN_arity3": _mult_arity3,
    "MultKAN_hetero_arity": _mult_hetero,
    # KANLayer and grid updates
    "KANLayer": _kanlayer,
    "KANLayer_update_grid_sample": _layer_grid("sample"),
    "KANLayer_update_grid_grid": _layer_grid("grid"),
    "KANLayer_grid_from_parent": _layer_from_parent,
    "KAN_update_grid": _update_grid,
    "KAN_refine": _refine,
    "KAN_initialize_from_another": _from_another,
    # pruning, attribution, derivatives
    "KAN_pruned": _pruned,
    "KAN_prune_edge_forward": _prune_edge_forward,
    "KAN_prune_node_forward": _prune_node_forward,
    "KAN_attribution": _attribution,
    "KAN_hessian_dependence": _derivatives,
    # the symbolic front
    "KAN_fix_symbolic": _fix_symbolic,
    "KAN_fix_symbolic_fitted": _fix_symbolic_fitted,
    "KAN_singularity_avoiding": _singular,
    "KAN_custom_symbolic": _custom_symbolic,
    "KAN_auto_symbolic": _auto_symbolic,
    "Symbolic_KANLayer": _symbolic_layer,
    "kanpiler": _kanpiler,
    "kanpiler_expanded": _kanpiler_expanded,
    # kan.MLP
    "MLP": _mlp,
}
