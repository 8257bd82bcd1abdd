"""laplace-torch 0.3 (import name ``laplace``): Laplace approximations of tiny MLPs with random
weights (a 4->8->3 Tanh classifier, a 4->8->1 Tanh regressor), each fitted once, eagerly, at build
time on a 16-row ``TensorDataset`` loader (batch 8), as a user fits once and then compiles
prediction / the hyperparameter objective. Inputs: a batch of 4 rows of 4 features.

- all weights: ``FullLaplace`` (GLM predictive with the probit, MC, bridge and bridge_norm link
  approximations; the NN sampling predictive; ``predictive_samples``), ``KronLaplace`` (probit,
  MC with ``diagonal_output``, NN sampling, ``predictive_samples``), ``DiagLaplace`` (probit, NN);
  regression GLM (and ``joint=True`` for the full one) and NN predictives;
- last layer: ``FullLLLaplace`` / ``KronLLLaplace`` / ``DiagLLLaplace`` (the default
  ``Laplace(...)`` choice; the last layer found by the ``FeatureExtractor`` hook, or given by
  ``last_layer_name``), classification and regression, GLM and NN predictives;
- subnetwork: ``FullSubnetLaplace`` / ``DiagSubnetLaplace`` with ``LargestMagnitudeSubnetMask``
  and ``ModuleNameSubnetMask`` indices;
- function space (``hessian_structure="gp"``): ``FunctionalLaplace`` (subset of data,
  classification and regression), ``FunctionalLLLaplace``, ``ELLA`` (Nystrom) and ``VaLLA``
  (variational, fitted with 5 iterations);
- the README's Hugging Face pattern, tiny (an embedding, a hidden layer and a head over a dict of
  ``input_ids`` / ``attention_mask``, ``dict_key_x`` / ``dict_key_y``): ``DiagLaplace`` on all
  weights, and ``KronLLLaplace`` with ``feature_reduction="pick_last"``; reward modeling
  (``likelihood="reward_modeling"``: fitted on (B, 2, 4) preference pairs as classification,
  predicting as regression on (B, 4)) with ``KronLaplace`` (GLM) and ``DiagLaplace`` (NN);
- curvature backends other than the default ``CurvlinopsGGN``: ``CurvlinopsEF``, ``BackPackGGN``,
  ``BackPackEF``, ``AsdlGGN``, ``AsdlEF`` (the GLM predictive uses the backend's Jacobians);
- ``log_marginal_likelihood(prior_prec, sigma_noise)`` with scalar, per-layer and per-parameter
  prior precisions.

Eval: the predictive ``la(x, pred_type=..., link_approx=...)`` (or ``predictive_samples``) for the
predictive uses, ``la.log_marginal_likelihood(prior_prec, sigma_noise)`` for the ``Marglik_*``
ones. Train: for every model, the online hyperparameter step of ``laplace.marglik_training``
(and of the README's "marginal likelihood" example): ``-la.log_marginal_likelihood(
log_prior_prec.exp(), log_sigma_noise.exp()) / N`` with the log hyperparameters passed as tensors
requiring grad (the fitted ``la`` is that model's own, so the train capture of a predictive model is
the marglik of its Laplace class / backend); ELLA and VaLLA have no Laplace marginal likelihood
(they raise): VaLLA's train is the loss of one step of its own ``fit`` loop (``la._objective(x, y)``,
private), ELLA's the predictive with gradients on. Measured first as it came, before any rule looked at it.

    pip install --no-deps laplace-torch==0.3
    pip install --no-deps curvlinops-for-pytorch==3.0.1 backpack-for-pytorch==1.7.1 asdfghjkl==0.1a4 einconv==0.1.0

``laplace/baselaplace.py`` imports the curvlinops, backpack and asdl backends at its top, so all
three are installed (all pure Python): curvlinops needs backpack, einops, einconv, linear_operator,
opt-einsum, scipy, tqdm (einops, linear_operator, opt-einsum, scipy, tqdm, unfoldNd, torchmetrics
were already there); the PyPI ``asdfghjkl==0.1a4`` wheel installs the ``asdl`` package.
backpack lists torchvision but imports it only in ``backpack/utils/examples.py``; nothing stubbed.

Left out: ``LowRankLaplace`` (needs the old ``asdfghjkl`` module, only installable from git: the
PyPI wheel ships ``asdl``); ``fit`` / ``optimize_prior_precision`` / ``marglik_training`` loops
(data-loader loops with optimizer steps, run eagerly as a user would); the Hessian backends
(``CurvlinopsHessian``, ``AsdlHessian``) and reward modeling (only for ELLA / VaLLA pairs).
"""

PACKAGE = "laplace"
DISTRIBUTION = "laplace-torch"

_N = 16  # training rows
_B = 4  # prediction batch


def warm_up():
    import laplace  # noqa: F401
    import laplace.curvature  # noqa: F401
    import torch  # noqa: F401


def _net(task):
    import torch
    from torch import nn

    out = 3 if task == "classification" else 1
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, out))


def _loader(task):
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    g = torch.Generator().manual_seed(1)
    X = torch.randn(_N, 4, generator=g)
    if task == "classification":
        y = torch.randint(0, 3, (_N,), generator=g)
    else:
        y = torch.randn(_N, 1, generator=g)
    return DataLoader(TensorDataset(X, y), batch_size=8)


def _text_net(seq_out):
    """The README's Hugging Face pattern, tiny: a dict of ``input_ids`` / ``attention_mask`` in,
    logits of the last token out (``seq_out``: the last linear layer sees (B, T, 8) features)."""
    import torch
    from torch import nn

    class TinyTextClassifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 8)
            self.hidden = nn.Linear(8, 8)
            self.head = nn.Linear(8, 3)

        def forward(self, data):
            h = torch.tanh(self.hidden(self.emb(data["input_ids"])))
            if seq_out:
                return self.head(h)[:, -1]
            mask = data["attention_mask"].unsqueeze(-1).float()
            return self.head((h * mask).sum(1) / mask.sum(1))

    return TinyTextClassifier()


def _text_loader():
    import torch
    from torch.utils.data import DataLoader

    g = torch.Generator().manual_seed(1)
    rows = [{"input_ids": torch.randint(0, 10, (5,), generator=g),
             "attention_mask": torch.ones(5, dtype=torch.long),
             "labels": int(torch.randint(0, 3, (), generator=g))} for _ in range(_N)]
    return DataLoader(rows, batch_size=8)


def _reward_net():
    """A reward model as the docs describe it: (B, 2, d) pairs when fitting, (B, d) after."""
    from torch import nn

    class Reward(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

        def forward(self, x):
            out = self.net(x)
            return out.squeeze(-1) if x.dim() == 3 else out

    return Reward()


def _reward_loader():
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    g = torch.Generator().manual_seed(1)
    return DataLoader(TensorDataset(torch.randn(_N, 2, 4, generator=g),
                                    torch.randint(0, 2, (_N,), generator=g)), batch_size=8)


def _wrappers():
    import torch

    class Predict(torch.nn.Module):
        """``la(x, **kw)`` (or another predictive method) of a fitted Laplace."""

        def __init__(self, la, method, kw):
            super().__init__()
            self.la, self.method, self.kw = la, method, kw

        def forward(self, x):
            if self.method == "__call__":
                return self.la(x, **self.kw)
            return getattr(self.la, self.method)(x, **self.kw)

    class Marglik(torch.nn.Module):
        """The log marginal likelihood at given (log) hyperparameters."""

        def __init__(self, la, train, regression):
            super().__init__()
            self.la, self.train_step, self.regression = la, train, regression

        def forward(self, log_prior_prec, log_sigma_noise):
            prior_prec = log_prior_prec.exp()
            if self.regression:
                lml = self.la.log_marginal_likelihood(prior_prec, log_sigma_noise.exp())
            else:
                lml = self.la.log_marginal_likelihood(prior_prec)
            if self.train_step:  # marglik_training's hyperparameter loss
                return -lml / _N
            return lml

    class Objective(torch.nn.Module):
        """VaLLA's variational objective on a minibatch (the step of ``VaLLA.fit``)."""

        def __init__(self, la):
            super().__init__()
            self.la = la

        def forward(self, x, y):
            return self.la._objective(x, y)

    return Predict, Marglik, Objective


def _make(mode, task="classification", sow="all", hs="kron", method="__call__", kw=None,
          prior="scalar", fit_kw=None, marglik=False, **la_kw):
    import torch
    from laplace import Laplace

    Predict, Marglik, Objective = _wrappers()
    data = None
    if task == "text":
        model, data, task = _text_net(la_kw.pop("seq_out")), _text_loader(), "classification"
        la_kw.update(dict_key_x="input_ids", dict_key_y="labels")
    elif task == "reward_modeling":
        model, data = _reward_net(), _reward_loader()
    else:
        model = _net(task)
    if callable(sow):  # subnetwork indices from a mask
        la_kw["subnetwork_indices"] = sow(model)
        sow = "subnetwork"
    la = Laplace(model, task, subset_of_weights=sow, hessian_structure=hs, **la_kw)
    la.fit(data or _loader(task), **(fit_kw or {}))
    train = mode == "train"
    x = torch.randn(_B, 4, generator=torch.Generator().manual_seed(2))
    if data is not None and la_kw.get("dict_key_x"):
        x = {k: v[:_B] for k, v in next(iter(data)).items() if k != "labels"}
    if train and hasattr(la, "_objective"):  # VaLLA: the loss of its own fit loop's step
        y = torch.arange(_B) % 3
        return Objective(la), (x, y), {}
    if train and not marglik and type(la).__name__ == "ELLA":  # no marglik: the predictive
        return Predict(la, method, dict(kw or {})), (x,), {}
    if train or marglik:
        n = {"scalar": 1, "layer": getattr(la, "n_layers", 1), "param": la.n_params}[prior]
        log_prior = torch.full((n,), 0.3, requires_grad=train)
        log_sigma = torch.full((1,), -0.5, requires_grad=train)
        return Marglik(la, train, task == "regression"), (log_prior, log_sigma), {}
    return Predict(la, method, dict(kw or {})), (x,), {}


def _m(**cfg):
    def make(mode):
        return _make(mode, **cfg)

    return make


def _largest_magnitude(model):
    from laplace.utils import LargestMagnitudeSubnetMask

    return LargestMagnitudeSubnetMask(model, n_params_subnet=12).select()


def _last_module(model):
    from laplace.utils import ModuleNameSubnetMask

    return ModuleNameSubnetMask(model, module_names=["2"]).select()


def _backend(name):
    import laplace.curvature as C

    return getattr(C, name)


def _b(name, **cfg):
    def make(mode):
        return _make(mode, backend=_backend(name), **cfg)

    return make


_C, _R = "classification", "regression"
_NN = {"pred_type": "nn", "link_approx": "mc", "n_samples": 8}  # nn sampling needs "mc"

MODELS = {
    # all weights, classification
    "Full_glm_probit": _m(hs="full"),
    "Full_glm_mc": _m(hs="full", kw={"link_approx": "mc", "n_samples": 8}),
    "Full_glm_bridge": _m(hs="full", kw={"link_approx": "bridge"}),
    "Full_glm_bridge_norm": _m(hs="full", kw={"link_approx": "bridge_norm"}),
    "Full_nn": _m(hs="full", kw=_NN),
    "Full_predictive_samples": _m(hs="full", method="predictive_samples", kw={"n_samples": 8}),
    "Kron_glm_probit": _m(hs="kron"),
    "Kron_glm_mc_diagonal": _m(hs="kron", kw={"link_approx": "mc", "n_samples": 8,
                                              "diagonal_output": True}),
    "Kron_nn": _m(hs="kron", kw=_NN),
    "Kron_predictive_samples_nn": _m(hs="kron", method="predictive_samples",
                                     kw={"pred_type": "nn", "n_samples": 8}),
    "Diag_glm_probit": _m(hs="diag"),
    "Diag_nn": _m(hs="diag", kw=_NN),
    # all weights, regression
    "Full_reg_glm": _m(task=_R, hs="full", sigma_noise=0.5),
    "Full_reg_glm_joint": _m(task=_R, hs="full", kw={"joint": True}),
    "Kron_reg_glm": _m(task=_R, hs="kron"),
    "Diag_reg_glm": _m(task=_R, hs="diag"),
    "Diag_reg_nn": _m(task=_R, hs="diag", kw=_NN),
    # last layer
    "FullLL_glm_probit": _m(sow="last_layer", hs="full"),
    "KronLL_glm_probit": _m(sow="last_layer", hs="kron"),
    "DiagLL_glm_mc": _m(sow="last_layer", hs="diag", kw={"link_approx": "mc", "n_samples": 8}),
    "KronLL_nn": _m(sow="last_layer", hs="kron", kw=_NN),
    "FullLL_reg_glm": _m(task=_R, sow="last_layer", hs="full"),
    "DiagLL_reg_glm": _m(task=_R, sow="last_layer", hs="diag"),
    "KronLL_reg_last_layer_name": _m(task=_R, sow="last_layer", hs="kron", last_layer_name="2"),
    # subnetwork
    "FullSubnet_largest_magnitude": _m(sow=_largest_magnitude, hs="full"),
    "DiagSubnet_module_name_nn": _m(sow=_last_module, hs="diag",
                                    kw=_NN),
    # function space
    "Functional_gp": _m(hs="gp", n_subset=8),
    "Functional_reg_gp": _m(task=_R, hs="gp", n_subset=8),
    "FunctionalLL_reg_gp": _m(task=_R, sow="last_layer", hs="gp", n_subset=8),
    "ELLA_reg": _m(task=_R, hs="gp", functional_approximation="nystrom", subsample_size=8,
                   n_eigenvalues=4),
    "VaLLA": _m(hs="gp", functional_approximation="variational", inducing_locations="random",
                num_inducing=4, fit_kw={"iterations": 5}),
    # the README's Hugging Face (dict inputs) and reward-modeling uses
    "Text_dict_Diag": _m(task="text", hs="diag", seq_out=False),
    "Text_dict_KronLL_pick_last": _m(task="text", sow="last_layer", hs="kron", seq_out=True,
                                     feature_reduction="pick_last"),
    "Reward_Kron": _m(task="reward_modeling", hs="kron"),
    "Reward_Diag_nn": _m(task="reward_modeling", hs="diag", kw=_NN),
    # curvature backends
    "Full_CurvlinopsEF": _b("CurvlinopsEF", hs="full"),
    "Kron_BackPackGGN": _b("BackPackGGN", hs="kron"),
    "Diag_BackPackEF": _b("BackPackEF", hs="diag"),
    "Full_AsdlGGN": _b("AsdlGGN", hs="full"),
    "Kron_AsdlEF": _b("AsdlEF", hs="kron"),
    "Diag_reg_BackPackGGN": _b("BackPackGGN", task=_R, hs="diag"),
    # marginal likelihood
    "Marglik_Full": _m(hs="full", marglik=True),
    "Marglik_Kron_layerwise": _m(hs="kron", marglik=True, prior="layer"),
    "Marglik_Diag_reg_per_param": _m(task=_R, hs="diag", marglik=True, prior="param"),
    "Marglik_Full_reg": _m(task=_R, hs="full", marglik=True),
    "Marglik_KronLL_reg": _m(task=_R, sow="last_layer", hs="kron", marglik=True),
    "Marglik_Functional_reg": _m(task=_R, hs="gp", n_subset=8, marglik=True),
}
