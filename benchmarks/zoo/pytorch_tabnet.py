"""pytorch-tabnet (DreamQuark's TabNet for tabular data): the networks of
``pytorch_tabnet.tab_network`` used directly as nn.Modules, random weights, small sizes
(n_d = n_a = 8, 3 decision steps, batch 32, 10 features of which 3 are categorical), nothing
is downloaded.

    pip install --no-deps pytorch-tabnet==4.1.0    # tab_network needs only numpy (and torch, never reinstalled)

Models: ``TabNet`` (numeric features; categorical ones through ``EmbeddingGenerator``; the
sparsemax and the entmax attention masks; feature groups through ``group_attention_matrix``;
regression; multi-task heads), its explain pass ``TabNet.forward_masks`` as its own entry,
``TabNetNoEmbeddings``, ``TabNetEncoder`` (with and without a prior), ``TabNetDecoder``,
``TabNetPretraining`` (self-supervised: in training its ``RandomObfuscator`` masks features with
``torch.bernoulli``) and its ``forward_masks``, and the building blocks ``EmbeddingGenerator``,
``AttentiveTransformer`` (sparsemax and entmax), ``FeatTransformer`` (with and without shared
GLU layers), ``GBN`` (ghost batch norm: a Python loop over ``virtual_batch_size`` chunks, here 8
of a batch of 32, and a ragged batch of 30). The masks are ``sparsemax.Sparsemax`` and
``sparsemax.Entmax15`` (their own autograd Functions). Every network runs with
``virtual_batch_size=8``, so each batch norm is a 4-chunk ghost batch norm.

Train: TabNet's forward returns ``(out, M_loss)``; the loss is the library's
(``abstract_model.py``): the cross-entropy of the logits (MSE for regression; the mean over
the tasks for multi-task) minus ``lambda_sparse * M_loss`` (M_loss is the mean negative
entropy of the masks, so this adds lambda times their entropy), lambda 1e-3. Pretraining
returns ``(reconstruction, embedded_x, obfuscated_vars)``; its loss is the library's
``UnsupervisedLoss`` (re-stated here: ``pytorch_tabnet.metrics`` imports scikit-learn). The
other modules run through the sum of the means of their float outputs.

Left out: the scikit-learn style wrappers (``TabNetClassifier``, ``TabNetRegressor``,
``TabNetMultiTaskClassifier``, ``TabNetPretrainer``): their ``fit`` runs an optimizer, data
loaders and callbacks, not one forward, and their modules (``tab_model``, ``abstract_model``,
``pretraining``, ``utils``, ``metrics``) import scikit-learn and pandas, which are not installed;
``utils.create_group_matrix`` is re-stated here for the same reason. ``Entmoid15`` (an autograd
Function no network uses). To keep the capture short: the other mask / categorical / group
combinations, ``n_shared=0`` networks (the ``FeatTransformer`` without shared layers is kept)
and multi-task ``TabNetNoEmbeddings`` (the same code as the entries kept)."""

import functools

PACKAGE = "pytorch_tabnet"
DISTRIBUTION = "pytorch-tabnet"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_BATCH = 32
_FEATURES = 10
_CAT_IDXS = [1, 4, 7]
_CAT_DIMS = [4, 6, 3]
_CAT_EMB = [2, 3, 1]  # post-embedding width 10 + 6 - 3 = 13
_GROUPS = [[0, 2], [5, 6, 8]]  # 10 features -> 7 attention groups
_CLASSES = 3
_TASKS = [3, 2, 4]
_VBS = 8
_SMALL = dict(n_d=8, n_a=8, n_steps=3, virtual_batch_size=_VBS)
_LAMBDA_SPARSE = 1e-3


def warm_up():
    import torch  # noqa: F401

    import pytorch_tabnet.tab_network  # noqa: F401


def _x(cat=False, batch=_BATCH):
    """A (batch, 10) float batch; with ``cat`` its categorical columns hold category codes."""
    import torch

    x = torch.randn(batch, _FEATURES)
    if cat:
        for idx, dim in zip(_CAT_IDXS, _CAT_DIMS):
            x[:, idx] = torch.randint(0, dim, (batch,)).float()
    return x


def _group_matrix(groups, input_dim=_FEATURES):
    """``pytorch_tabnet.utils.create_group_matrix`` (utils imports scikit-learn and pandas):
    (n_groups, input_dim), each listed group one row of 1/len, the other features one row each."""
    import torch

    if not groups:
        return torch.eye(input_dim)
    n_groups = input_dim - sum(len(g) - 1 for g in groups)
    matrix = torch.zeros(n_groups, input_dim)
    rest = list(range(input_dim))
    for i, group in enumerate(groups):
        for j in group:
            matrix[i, j] = 1 / len(group)
            rest.remove(j)
    for i, j in enumerate(rest, start=len(groups)):
        matrix[i, j] = 1
    return matrix


@functools.cache
def _wrappers():
    """The loss and method modules, built when the first model is."""
    import torch
    import torch.nn.functional as F

    class TabNetLoss(torch.nn.Module):
        """The supervised TabNet loss: the task loss on ``out`` minus lambda * ``M_loss``."""

        def __init__(self, net, output_dim):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)  # `given:` labels judge net's forward
            self.tasks = output_dim if isinstance(output_dim, list) else [output_dim]
            for i, classes in enumerate(self.tasks):
                target = torch.randn(_BATCH, 1) if classes == 1 else torch.arange(_BATCH) % classes
                self.register_buffer(f"target{i}", target)

        def forward(self, *args, **kwargs):
            out, m_loss = self.net(*args, **kwargs)
            outs = out if isinstance(out, list) else [out]
            loss = 0
            for i, (o, classes) in enumerate(zip(outs, self.tasks)):
                target = getattr(self, f"target{i}")
                loss = loss + (F.mse_loss(o, target) if classes == 1 else F.cross_entropy(o, target))
            return loss / len(outs) - _LAMBDA_SPARSE * m_loss

    class PretrainLoss(torch.nn.Module):
        """``pytorch_tabnet.metrics.UnsupervisedLoss`` on ``TabNetPretraining``'s outputs (its
        two masked assignments written as ``torch.where``: the same values, no data-dependent
        indexing in the adapter's own code)."""

        def __init__(self, net, eps=1e-9):
            super().__init__()
            self.net, self.eps = net, eps
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args, **kwargs):
            y_pred, embedded_x, obf_vars = self.net(*args, **kwargs)
            errors = y_pred - embedded_x
            reconstruction_errors = torch.mul(errors, obf_vars) ** 2
            batch_means = torch.mean(embedded_x, dim=0)
            batch_means = torch.where(batch_means == 0, 1.0, batch_means)
            batch_stds = torch.std(embedded_x, dim=0) ** 2
            batch_stds = torch.where(batch_stds == 0, batch_means, batch_stds)
            features_loss = torch.matmul(reconstruction_errors, 1 / batch_stds)
            nb_reconstructed_variables = torch.sum(obf_vars, dim=1)
            features_loss = features_loss / (nb_reconstructed_variables + self.eps)
            return torch.mean(features_loss)

    class Method(torch.nn.Module):
        """A module whose forward calls one method of ``net`` (``forward_masks``)."""

        def __init__(self, net, name):
            super().__init__()
            self.net, self.name = net, name
            object.__setattr__(self, "__wrapped__", getattr(net, name))  # `given:` labels judge the method

        def forward(self, *args, **kwargs):
            return getattr(self.net, self.name)(*args, **kwargs)

    return TabNetLoss, PretrainLoss, Method


def _tabnet(cls="TabNet", cat=False, groups=(), output_dim=_CLASSES, method=None, **kwargs):
    """``tab_network.TabNet`` (or ``TabNetNoEmbeddings``) on a (32, 10) batch; ``method``
    ("forward_masks") runs that instead of forward."""

    def make(mode):
        from pytorch_tabnet import tab_network

        TabNetLoss, _, Method = _wrappers()
        extra = dict(_SMALL, **kwargs)
        group_matrix = _group_matrix([list(g) for g in groups])
        if cls == "TabNet":
            if cat:
                extra.update(cat_idxs=_CAT_IDXS, cat_dims=_CAT_DIMS, cat_emb_dim=_CAT_EMB)
            net = tab_network.TabNet(_FEATURES, output_dim, group_attention_matrix=group_matrix, **extra)
        else:
            net = getattr(tab_network, cls)(_FEATURES, output_dim, group_attention_matrix=group_matrix, **extra)
        x = _x(cat)
        if method is not None:
            net = Method(net, method)
            return (mean_loss_module()(net) if mode == "train" else net), (x,), {}
        return (TabNetLoss(net, output_dim) if mode == "train" else net), (x,), {}

    return make


def _pretraining(cat=False, method=None, **kwargs):
    """``TabNetPretraining`` (its obfuscator runs in training only)."""

    def make(mode):
        from pytorch_tabnet.tab_network import TabNetPretraining

        _, PretrainLoss, Method = _wrappers()
        extra = dict(_SMALL, **kwargs)
        if cat:
            extra.update(cat_idxs=_CAT_IDXS, cat_dims=_CAT_DIMS, cat_emb_dim=_CAT_EMB)
        net = TabNetPretraining(_FEATURES, pretraining_ratio=0.2, group_attention_matrix=_group_matrix([]),
                                **extra)
        x = _x(cat)
        if method is not None:
            net = Method(net, method)
            return (mean_loss_module()(net) if mode == "train" else net), (x,), {}
        return (PretrainLoss(net) if mode == "train" else net), (x,), {}

    return make


def _block(build, inputs):
    """A building block ``build()`` run on ``inputs()``, the mean-loss wrapper in "train"."""

    def make(mode):
        net = build()
        return (mean_loss_module()(net) if mode == "train" else net), inputs(), {}

    return make


def _encoder(mask_type="sparsemax", prior=False):
    def build():
        from pytorch_tabnet.tab_network import TabNetEncoder

        return TabNetEncoder(_FEATURES, _CLASSES, mask_type=mask_type, **_SMALL)

    def inputs():
        import torch

        if not prior:
            return (_x(),)
        return (_x(), (torch.rand(_BATCH, _FEATURES) > 0.2).float())

    return _block(build, inputs)


def _decoder():
    from pytorch_tabnet.tab_network import TabNetDecoder

    return TabNetDecoder(_FEATURES, n_d=8, n_steps=3, virtual_batch_size=_VBS)


def _decoder_inputs():
    import torch

    return ([torch.relu(torch.randn(_BATCH, 8)) for _ in range(3)],)


def _embedding_generator():
    from pytorch_tabnet.tab_network import EmbeddingGenerator

    return EmbeddingGenerator(_FEATURES, _CAT_DIMS, _CAT_IDXS, _CAT_EMB, _group_matrix([list(g) for g in _GROUPS]))


def _attentive(mask_type):
    def build():
        from pytorch_tabnet.tab_network import AttentiveTransformer

        return AttentiveTransformer(8, _FEATURES, _group_matrix([]), virtual_batch_size=_VBS, mask_type=mask_type)

    def inputs():
        import torch

        return (torch.rand(_BATCH, _FEATURES) + 0.5, torch.randn(_BATCH, 8))

    return _block(build, inputs)


def _feat_transformer(shared):
    def build():
        import torch

        from pytorch_tabnet.tab_network import FeatTransformer

        layers = None
        if shared:
            layers = torch.nn.ModuleList([torch.nn.Linear(_FEATURES, 2 * 16, bias=False),
                                          torch.nn.Linear(16, 2 * 16, bias=False)])
        return FeatTransformer(_FEATURES, 16, layers, n_glu_independent=2, virtual_batch_size=_VBS)

    return _block(build, lambda: (_x(),))


def _gbn(batch):
    def build():
        from pytorch_tabnet.tab_network import GBN

        return GBN(16, virtual_batch_size=_VBS)

    def inputs():
        import torch

        return (torch.randn(batch, 16),)

    return _block(build, inputs)


MODELS = {
    # --- TabNet (embeddings + TabNetNoEmbeddings), train: CE - lambda * M_loss ---
    "TabNet": _tabnet(),
    "TabNet_cat": _tabnet(cat=True),
    "TabNet_entmax": _tabnet(mask_type="entmax"),
    "TabNet_groups": _tabnet(groups=_GROUPS),
    "TabNet_cat_groups": _tabnet(cat=True, groups=_GROUPS),
    "TabNet_regression": _tabnet(output_dim=1),
    "TabNet_multitask": _tabnet(cat=True, output_dim=_TASKS),
    "TabNet_forward_masks": _tabnet(method="forward_masks"),
    "TabNet_cat_forward_masks": _tabnet(cat=True, groups=_GROUPS, method="forward_masks"),
    "TabNetNoEmbeddings": _tabnet("TabNetNoEmbeddings"),
    # --- the encoder / decoder / self-supervised pretraining ---
    "TabNetEncoder": _encoder(),
    "TabNetEncoder_prior": _encoder(mask_type="entmax", prior=True),
    "TabNetDecoder": _block(_decoder, _decoder_inputs),
    "TabNetPretraining": _pretraining(),
    "TabNetPretraining_cat": _pretraining(cat=True),
    "TabNetPretraining_forward_masks": _pretraining(cat=True, method="forward_masks"),
    # --- building blocks ---
    "EmbeddingGenerator": _block(_embedding_generator, lambda: (_x(cat=True),)),
    "AttentiveTransformer_sparsemax": _attentive("sparsemax"),
    "AttentiveTransformer_entmax": _attentive("entmax"),
    "FeatTransformer_shared": _feat_transformer(True),
    "FeatTransformer_independent": _feat_transformer(False),
    "GBN": _gbn(_BATCH),
    "GBN_ragged": _gbn(30),
}
