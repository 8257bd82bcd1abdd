"""TensorLy-Torch (``tensorly-torch``) 0.5.0: its factorized layers, factorized / tensorized tensors and
tensor hooks, used as its user guide and its own tests use them; tiny configs (mostly the tests'),
random weights, no download, each built in well under a second. TensorLy's backend is set to
``'pytorch'`` (``tl.set_backend('pytorch')``) as the docs and every tltorch module do.

- ``FactorizedLinear``: CP / Tucker / BlockTT weights tensorized (3, 3) -> (4, 4) (the test's shapes),
  ``implementation='factorized'`` (contract the input with the factors: ``linear_cp`` /
  ``linear_tucker`` / ``linear_blocktt``) and ``'reconstructed'`` (``to_matrix`` then ``F.linear``);
  the user guide's ``from_linear(linear, auto_tensorize=False, (4, 4) -> (2, 5), rank=0.5)`` and
  ``from_linear(..., auto_tensorize=True, n_tensorized_modes=2)``; ``from_linear_list`` of two
  linears (``n_layers=2``) used through ``tfc[1]`` (``SubFactorizedLinear``); ``checkpointing=True``
  inside a small MLP (so that its input requires grad in train: ``torch.utils.checkpoint``); a
  Tucker layer on a (batch, sequence, features) input;
- ``FactorizedConv`` (the test's 4 -> 5 channels, 3x3 kernels, 8x7 images, padding 1): CP
  ``factorized`` / ``reconstructed`` / ``mobilenet``, Tucker ``factorized`` / ``reconstructed``, TT
  ``factorized`` / ``reconstructed`` (the test's parametrization, built through
  ``from_factorization`` of a ``FactorizedTensor.new(...).normal_()`` with a bias, as the test
  does); the user guide's ``from_conv(conv, rank=0.5, decompose_weights=True, factorization='tucker')``;
  a 1-d CP conv (stride 2); a 3-d Tucker conv with ``fixed_rank_modes='spatial'``;
  ``from_conv_list`` of two convs used through ``conv[1]`` (``SubFactorizedConv``); a 2-d CP conv
  ``transduct``-ed to 3-d (video); a small CNN of Tucker convs with a ``FactorizedLinear`` head;
- ``FactorizedEmbedding`` (256 x 16, the test's size): CP, Tucker (on a 2-d batch of indices, as the
  test's split batch), BlockTT (the default); ``from_embedding`` (CP, rank 8); ``from_embedding_list``
  of two tables (Tucker) through ``get_embedding(1)``;
- ``TRL``: CP with a bias, Tucker, TT ((3, 4) -> (2, 1), the test's shapes); the test's Tucker TRL
  that learns the average pooling (``init_from_linear(fc, unsqueezed_modes=[1, 2])``); ``TCL`` (the
  test's (4, 5, 6) -> (2, 3, 5)); a CNN with a ``TCL`` then a Tucker ``TRL`` head (the tensor
  contraction & regression network);
- tensor dropout (``tltorch.tensor_dropout(layer.weight, p=0.5)``, Tucker / CP / TT) on factorized
  convs, and on a bare Tucker ``FactorizedTensor`` whose ``tensor()`` a module reconstructs (the
  test's use);
- tensor lasso (``tltorch.tensor_lasso(factorization, penalty=0.01)``, ``lasso.apply(weight)``):
  on CP / Tucker / TT factorized convs, and on a bare CP ``FactorizedTensor`` summed after
  ``tensor()`` (the test's use);
- ``FactorizedTensor`` / ``TensorizedTensor`` in a user module: a CP tensor passed to
  ``torch.matmul`` (``__torch_function__`` reconstructs it: "used just like any PyTorch tensor"),
  ``tensor(indices)`` on CP / Tucker / TT tensors then ``to_tensor()``, a batched BlockTT
  ``TensorizedTensor`` indexed (``ftt[1]``, the user guide's) then ``to_matrix()``, a CP-tensorized
  matrix's ``to_matrix()``, and ``ComplexTucker`` / ``ComplexDense`` spectral weights (``to_tensor``
  of ``view_as_complex`` parameters) in a Fourier-layer module.

Eval: the layer's / module's output. Train: ``mean_loss_module`` (the sum of the outputs' means)
for layers and tensors with no loss of their own; the tests' TRL training loss
(``tl.norm(trl(x) - y, 2)``, ``optimize_trl``) for the TRLs; the cross-entropy
(``classifier_loss_module``) for the two CNNs; the tensor lasso's documented step
(``loss = my_loss(out) + lasso.loss`` then ``lasso.reset()``) for the lasso models.

    pip install --no-deps tensorly-torch==0.5.0
    pip install --no-deps tensorly==0.10.0

(numpy and scipy, tensorly's and tltorch's dependencies, already installed.) Nothing stubbed.

Left out: ``TCL(bias=True)`` (fails eagerly in 0.5.0: ``__init__`` reads ``self.output_shape``,
which it never sets); tensor dropout / lasso applied to a ``TRL``'s weight (``TRL.forward`` passes
``self.weight`` to ``trl()`` without calling it, so the forward hooks never run and the lasso
loss is a warning and 0) and to a ``FactorizedLinear`` (its weights are ``TensorizedTensor``s, which
no dropout / lasso class is registered for); the decompositions at build time (``from_linear``,
``from_conv``, ``init_from_linear``: tensorly's parafac / tucker / tensor-train, outside any forward).
"""

import functools

PACKAGE = "tltorch"
DISTRIBUTION = "tensorly-torch"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite


def warm_up():
    import tensorly as tl

    tl.set_backend("pytorch")
    import torch  # noqa: F401
    import tltorch  # noqa: F401


def before_build():
    import tensorly as tl

    tl.set_backend("pytorch")


def _mean(net, args, mode, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), tuple(args), kwargs or {}


@functools.cache
def _nets():
    import types

    import tensorly as tl
    import torch
    import torch.nn.functional as F
    from tensorly import tenalg
    from torch import nn

    import tltorch

    class TRLRegression(nn.Module):
        """The tests' ``optimize_trl`` step: squared-l2 loss of the TRL's prediction."""

        def __init__(self, trl, labels):
            super().__init__()
            self.trl = trl
            object.__setattr__(self, "__wrapped__", trl)
            self.register_buffer("labels", labels)

        def forward(self, x):
            pred = self.trl(x)
            return tl.norm(pred - self.labels, 2)

    class LassoStep(nn.Module):
        """The tensor lasso's documented step: task loss + ``lasso.loss``, then ``lasso.reset()``."""

        def __init__(self, net, lasso):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)
            self.lasso = lasso

        def forward(self, x):
            out = self.net(x)
            loss = out.pow(2).mean() + self.lasso.loss
            self.lasso.reset()
            return loss

    class Reconstruct(nn.Module):
        """A bare factorized tensor (with its hooks) called and reconstructed, scaled by x."""

        def __init__(self, tensor):
            super().__init__()
            self.weight = tensor

        def forward(self, x):
            w = self.weight().to_tensor()
            return tenalg.inner(x, w, n_modes=x.ndim - 1)

    class SumTensor(nn.Module):
        """The lasso test: ``torch.sum(tensor())`` (the CP tensor's ``__torch_function__``)."""

        def __init__(self, tensor):
            super().__init__()
            self.weight = tensor

        def forward(self, x):
            return x * torch.sum(self.weight())

    class MatmulTensor(nn.Module):
        """A factorized tensor used like a torch tensor: ``torch.matmul(x, tensor)``."""

        def __init__(self, tensor):
            super().__init__()
            self.weight = tensor

        def forward(self, x):
            return torch.matmul(x, self.weight)

    class IndexedTensor(nn.Module):
        """Joint weights of several layers in one factorized tensor; ``tensor(i)`` picks one."""

        def __init__(self, tensor, index):
            super().__init__()
            self.weight = tensor
            self.index = index

        def forward(self, x):
            w = self.weight(self.index)
            if not torch.is_tensor(w):
                w = w.to_tensor()
            return x @ w

    class TensorizedLinear(nn.Module):
        """A (batched) tensorized matrix as a linear layer's weight: index, then ``to_matrix``."""

        def __init__(self, tensor, index=None):
            super().__init__()
            self.weight = tensor
            self.index = index

        def forward(self, x):
            w = self.weight if self.index is None else self.weight[self.index]
            return F.linear(x, w.to_matrix())

    class SpectralConv2d(nn.Module):
        """A Fourier layer whose complex spectral weights are a complex factorized tensor."""

        def __init__(self, channels, modes, factorization, rank=0.5):
            super().__init__()
            self.modes = modes
            self.weight = tltorch.FactorizedTensor.new((channels, channels, modes, modes), rank=rank,
                                                       factorization=factorization)
            self.weight.normal_(0, 0.02)

        def forward(self, x):
            m = self.modes
            x_ft = torch.fft.rfft2(x, norm="ortho")
            w = self.weight.to_tensor()
            out_ft = torch.zeros(x.shape[0], w.shape[1], x.shape[-2], x.shape[-1] // 2 + 1,
                                 dtype=x_ft.dtype, device=x.device)
            out_ft[:, :, :m, :m] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m, :m], w)
            return torch.fft.irfft2(out_ft, s=x.shape[-2:], norm="ortho")

    class CheckpointedMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(9, 9)
            self.fc = tltorch.FactorizedLinear((3, 3), (4, 4), factorization="blocktt", rank=4,
                                               checkpointing=True)

        def forward(self, x):
            return self.fc(torch.relu(self.inp(x)))

    class FactorizedCNN(nn.Module):
        """Tucker-factorized convolutions (ResNet-bottleneck form) and a tensorized head."""

        def __init__(self):
            super().__init__()
            self.conv1 = tltorch.FactorizedConv(3, 8, 3, order=2, padding=1, factorization="tucker",
                                                rank=0.5, bias=True)
            self.bn1 = nn.BatchNorm2d(8)
            self.conv2 = tltorch.FactorizedConv(8, 16, 3, order=2, stride=2, padding=1, factorization="cp",
                                                rank=0.5, implementation="mobilenet")
            self.bn2 = nn.BatchNorm2d(16)
            self.head = tltorch.FactorizedLinear((4, 4), (2, 5), factorization="tucker", rank=0.5)

        def forward(self, x):
            x = torch.relu(self.bn1(self.conv1(x)))
            x = torch.relu(self.bn2(self.conv2(x)))
            x = x.mean(dim=(2, 3))
            return self.head(x)

    class TCRNet(nn.Module):
        """Conv features -> TCL (contract every mode) -> Tucker TRL (regress to the classes)."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.tcl = tltorch.TCL(input_shape=(8, 8, 8), rank=(4, 4, 4))
            self.trl = tltorch.TRL((4, 4, 4), (10,), factorization="tucker", rank="same")

        def forward(self, x):
            x = torch.relu(self.conv(x))
            x = torch.relu(self.tcl(x))
            return self.trl(x)

    class Sub(nn.Module):
        """``parent[i]`` (or ``get_embedding(i)``) for a jointly-parametrized layer, kept with its parent."""

        def __init__(self, parent, sub):
            super().__init__()
            self.parent = parent
            object.__setattr__(self, "sub", sub)

        def forward(self, x):
            return self.sub(x)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- FactorizedLinear ------------------------------------------------------------------------------

def _linear(factorization, implementation, in_shape=(3, 3), out_shape=(4, 4), rank="same", seq=False):
    def make(mode):
        import torch

        import tltorch

        fc = tltorch.FactorizedLinear(in_shape, out_shape, factorization=factorization, rank=rank,
                                      implementation=implementation, bias=True)
        n = 1
        for s in in_shape:
            n *= s
        x = torch.randn(2, 5, n) if seq else torch.randn(2, n)
        return _mean(fc, (x,), mode)

    return make


def _from_linear(auto):
    def make(mode):
        import torch

        import tltorch

        linear = torch.nn.Linear(16, 10)
        if auto:
            fc = tltorch.FactorizedLinear.from_linear(linear, auto_tensorize=True, n_tensorized_modes=2, rank=0.5)
        else:
            fc = tltorch.FactorizedLinear.from_linear(linear, auto_tensorize=False, in_tensorized_features=(4, 4),
                                                      out_tensorized_features=(2, 5), rank=0.5)
        return _mean(fc, (torch.randn(4, 16),), mode)

    return make


def _from_linear_list(mode):
    import torch

    import tltorch

    fc1, fc2 = torch.nn.Linear(9, 16), torch.nn.Linear(9, 16)
    tfc = tltorch.FactorizedLinear.from_linear_list([fc1, fc2], in_tensorized_features=(3, 3),
                                                    out_tensorized_features=(4, 4), rank=38, bias=True)
    return _mean(_nets().Sub(tfc, tfc[1]), (torch.randn(2, 9),), mode)


def _checkpointed(mode):
    import torch

    return _mean(_nets().CheckpointedMLP(), (torch.randn(2, 9),), mode)


# --- FactorizedConv --------------------------------------------------------------------------------

def _conv(factorization, implementation):
    """The test's ``from_factorization`` of a normal_()-initialized factorized kernel, with a bias."""

    def make(mode):
        import torch

        import tltorch
        from tltorch.factorized_layers.factorized_convolution import kernel_shape_to_factorization_shape

        kernel_shape = (5, 4, 3, 3)
        shape = kernel_shape_to_factorization_shape(factorization, kernel_shape)
        weights = tltorch.FactorizedTensor.new(shape=shape, rank=0.5, factorization=factorization).normal_(0, 1)
        conv = tltorch.FactorizedConv.from_factorization(weights, implementation=implementation,
                                                         bias=torch.randn(5), padding=1)
        return _mean(conv, (torch.rand(1, 4, 8, 7),), mode)

    return make


def _from_conv_tucker(mode):
    import torch

    import tltorch

    conv = torch.nn.Conv2d(4, 8, 3)
    fconv = tltorch.FactorizedConv.from_conv(conv, rank=0.5, decompose_weights=True, factorization="tucker")
    return _mean(fconv, (torch.randn(2, 4, 12, 12),), mode)


def _conv1d(mode):
    import torch

    import tltorch

    conv = tltorch.FactorizedConv(4, 6, 5, order=1, stride=2, padding=2, rank="same", factorization="cp", bias=True)
    conv.reset_parameters()
    return _mean(conv, (torch.randn(2, 4, 16),), mode)


def _conv3d(mode):
    import torch

    import tltorch

    conv = tltorch.FactorizedConv(4, 6, (3, 3, 3), padding=1, factorization="tucker", rank=0.5,
                                  fixed_rank_modes="spatial")
    conv.reset_parameters()
    return _mean(conv, (torch.randn(1, 4, 4, 6, 6),), mode)


def _from_conv_list(mode):
    import torch

    import tltorch

    convs = [torch.nn.Conv2d(4, 5, 3, padding=1), torch.nn.Conv2d(4, 5, 3, padding=1, stride=2)]
    fconv = tltorch.FactorizedConv.from_conv_list(convs, rank=0.5, factorization="cp", implementation="factorized")
    return _mean(_nets().Sub(fconv, fconv[1]), (torch.randn(1, 4, 8, 8),), mode)


def _transduct(mode):
    import torch

    import tltorch

    conv = tltorch.FactorizedConv(4, 5, 3, order=2, padding=1, rank=0.5, factorization="cp")
    conv.reset_parameters()
    conv.transduct(3, mode=0, padding=1)  # add time before height and width
    for p in conv.parameters():
        p.requires_grad_(True)  # fine-tune everything, not only the new factor
    return _mean(conv, (torch.randn(1, 4, 5, 8, 7),), mode)


def _factorized_cnn(mode):
    import torch

    net = _nets().FactorizedCNN()
    x = torch.randn(2, 3, 16, 16)
    if mode == "train":
        return classifier_loss_module()(net, 2, 10), (x,), {}
    return net, (x,), {}


# --- FactorizedEmbedding ---------------------------------------------------------------------------

def _embedding(factorization, batch_2d=False):
    def make(mode):
        import torch

        import tltorch

        emb = tltorch.FactorizedEmbedding(256, 16, factorization=factorization)
        idx = torch.randperm(256)
        idx = idx[:30].reshape(3, 10) if batch_2d else idx[:32]
        return _mean(emb, (idx,), mode)

    return make


def _from_embedding(mode):
    import torch

    import tltorch

    emb = torch.nn.Embedding(256, 16)
    femb = tltorch.FactorizedEmbedding.from_embedding(emb, factorization="cp", rank=8)
    return _mean(femb, (torch.randint(0, 256, (32,)),), mode)


def _from_embedding_list(mode):
    import torch

    import tltorch

    embs = [torch.nn.Embedding(256, 16), torch.nn.Embedding(256, 16)]
    femb = tltorch.FactorizedEmbedding.from_embedding_list(embs, factorization="tucker", rank=8,
                                                           decompose_weights=False)
    return _mean(_nets().Sub(femb, femb.get_embedding(1)), (torch.randint(0, 256, (32,)),), mode)


# --- TRL / TCL ---------------------------------------------------------------------------------------

def _trl(factorization, bias):
    def make(mode):
        import torch

        import tltorch

        trl = tltorch.TRL((3, 4), (2, 1), factorization=factorization, rank=0.6, bias=bias)
        trl.weight.normal_(0, 0.1)
        x = torch.randn(32, 3, 4)
        if mode == "train":
            return _nets().TRLRegression(trl, torch.randn(32, 2, 1)), (x,), {}
        return trl, (x,), {}

    return make


def _tucker_trl_pool(mode):
    """The test's TRL that replaces avg-pool + flatten + fc, learning the pooling (Tucker)."""
    import torch

    import tltorch

    fc = torch.nn.Linear(10, 12, bias=False)
    trl = tltorch.TRL((10, 4, 4), (12,), rank=(10, 1, 1, 12), factorization="tucker")
    trl.init_from_linear(fc, unsqueezed_modes=[1, 2])
    x = torch.rand(2, 10, 4, 4)
    if mode == "train":
        return _nets().TRLRegression(trl, torch.randn(2, 12)), (x,), {}
    return trl, (x,), {}


def _tcl(mode):
    import torch

    import tltorch

    tcl = tltorch.TCL(input_shape=(4, 5, 6), rank=(2, 3, 5), bias=False)
    return _mean(tcl, (torch.rand(2, 4, 5, 6),), mode)


def _tcr_net(mode):
    import torch

    net = _nets().TCRNet()
    x = torch.randn(4, 3, 8, 8)
    if mode == "train":
        return classifier_loss_module()(net, 4, 10), (x,), {}
    return net, (x,), {}


# --- tensor hooks ----------------------------------------------------------------------------------

def _dropout_conv(factorization):
    def make(mode):
        import torch

        import tltorch

        conv = tltorch.FactorizedConv(8, 8, 3, order=2, padding=1, rank="same", factorization=factorization)
        conv.reset_parameters()
        tltorch.tensor_dropout(conv.weight, p=0.5)
        return _mean(conv, (torch.randn(2, 8, 8, 8),), mode)

    return make


def _dropout_tensor(mode):
    import torch

    import tltorch

    tensor = tltorch.FactorizedTensor.new((10, 11, 12), rank=(7, 8, 9), factorization="Tucker").normal_(0, 0.1)
    tltorch.tensor_dropout(tensor, 0.5)
    return _mean(_nets().Reconstruct(tensor), (torch.randn(2, 10, 11, 12),), mode)


def _lasso_conv(factorization):
    def make(mode):
        import torch

        import tltorch

        conv = tltorch.FactorizedConv(8, 8, 3, order=2, padding=1, rank="same", factorization=factorization)
        conv.reset_parameters()
        lasso = tltorch.tensor_lasso(factorization=factorization, penalty=0.01)
        lasso.apply(conv.weight)
        x = torch.randn(2, 8, 8, 8)
        if mode == "train":
            return _nets().LassoStep(conv, lasso), (x,), {}
        return conv, (x,), {}

    return make


def _lasso_tensor(mode):
    import torch

    import tltorch

    tensor = tltorch.FactorizedTensor.new((5, 5, 6), 3, factorization="cp").normal_()
    lasso = tltorch.tensor_lasso("cp", penalty=1, clamp_weights=False, normalize_loss=False)
    lasso.apply(tensor)
    net = _nets().SumTensor(tensor)
    x = torch.randn(4)
    if mode == "train":
        return _nets().LassoStep(net, lasso), (x,), {}
    return net, (x,), {}


# --- factorized / tensorized tensors in a user module ----------------------------------------------

def _matmul_tensor(mode):
    import torch

    import tltorch

    tensor = tltorch.FactorizedTensor.new((6, 5), rank=0.5, factorization="cp").normal_(0, 0.02)
    return _mean(_nets().MatmulTensor(tensor), (torch.randn(2, 6),), mode)


def _indexed_tensor(factorization):
    def make(mode):
        import torch

        import tltorch

        tensor = tltorch.FactorizedTensor.new((3, 6, 5), rank=0.5, factorization=factorization).normal_(0, 0.02)
        return _mean(_nets().IndexedTensor(tensor, 1), (torch.randn(2, 6),), mode)

    return make


def _tensorized(factorization, batched):
    def make(mode):
        import torch

        import tltorch

        shape = ((2, 2, 2), (3, 3, 3))
        if batched:
            shape = (2,) + shape
        tensor = tltorch.TensorizedTensor.new(shape, rank=0.5, factorization=factorization)
        tensor.normal_(0, 0.02)
        net = _nets().TensorizedLinear(tensor, 1 if batched else None)
        return _mean(net, (torch.randn(2, 27),), mode)

    return make


def _spectral(factorization):
    def make(mode):
        import torch

        return _mean(_nets().SpectralConv2d(4, 4, factorization), (torch.randn(2, 4, 16, 16),), mode)

    return make


MODELS = {
    # FactorizedLinear
    "FactorizedLinear_cp_factorized": _linear("cp", "factorized"),
    "FactorizedLinear_tucker_factorized": _linear("tucker", "factorized"),
    "FactorizedLinear_blocktt_factorized": _linear("blocktt", "factorized"),
    "FactorizedLinear_cp_reconstructed": _linear("cp", "reconstructed"),
    "FactorizedLinear_blocktt_reconstructed": _linear("blocktt", "reconstructed"),
    "FactorizedLinear_tucker_sequence": _linear("tucker", "factorized", (4, 4), (2, 5), 0.5, seq=True),
    "FactorizedLinear_from_linear_docs": _from_linear(False),
    "FactorizedLinear_from_linear_auto": _from_linear(True),
    "FactorizedLinear_from_linear_list_sub": _from_linear_list,
    "FactorizedLinear_checkpointing": _checkpointed,
    # FactorizedConv
    "FactorizedConv_cp_factorized": _conv("CP", "factorized"),
    "FactorizedConv_cp_reconstructed": _conv("CP", "reconstructed"),
    "FactorizedConv_cp_mobilenet": _conv("CP", "mobilenet"),
    "FactorizedConv_tucker_factorized": _conv("Tucker", "factorized"),
    "FactorizedConv_tucker_reconstructed": _conv("Tucker", "reconstructed"),
    "FactorizedConv_tt_factorized": _conv("TT", "factorized"),
    "FactorizedConv_tt_reconstructed": _conv("TT", "reconstructed"),
    "FactorizedConv_from_conv_tucker_docs": _from_conv_tucker,
    "FactorizedConv_1d_cp_stride": _conv1d,
    "FactorizedConv_3d_tucker_fixed_spatial": _conv3d,
    "FactorizedConv_from_conv_list_sub": _from_conv_list,
    "FactorizedConv_cp_transduct_3d": _transduct,
    "FactorizedCNN_classifier": _factorized_cnn,
    # FactorizedEmbedding
    "FactorizedEmbedding_cp": _embedding("cp"),
    "FactorizedEmbedding_tucker_2d_batch": _embedding("tucker", batch_2d=True),
    "FactorizedEmbedding_blocktt": _embedding("blocktt"),
    "FactorizedEmbedding_from_embedding_cp": _from_embedding,
    "FactorizedEmbedding_from_embedding_list_sub": _from_embedding_list,
    # TRL / TCL
    "TRL_cp_bias": _trl("cp", True),
    "TRL_tucker": _trl("tucker", False),
    "TRL_tt": _trl("tt", True),
    "TRL_tucker_learn_pool": _tucker_trl_pool,
    "TCL": _tcl,
    "TCL_TRL_network": _tcr_net,
    # tensor dropout
    "tensor_dropout_FactorizedConv_tucker": _dropout_conv("tucker"),
    "tensor_dropout_FactorizedConv_cp": _dropout_conv("cp"),
    "tensor_dropout_FactorizedConv_tt": _dropout_conv("tt"),
    "tensor_dropout_TuckerTensor": _dropout_tensor,
    # tensor lasso
    "tensor_lasso_FactorizedConv_cp": _lasso_conv("cp"),
    "tensor_lasso_FactorizedConv_tucker": _lasso_conv("tucker"),
    "tensor_lasso_FactorizedConv_tt": _lasso_conv("tt"),
    "tensor_lasso_CPTensor": _lasso_tensor,
    # factorized / tensorized tensors
    "FactorizedTensor_cp_torch_matmul": _matmul_tensor,
    "FactorizedTensor_cp_indexed": _indexed_tensor("cp"),
    "FactorizedTensor_tucker_indexed": _indexed_tensor("tucker"),
    "FactorizedTensor_tt_indexed": _indexed_tensor("tt"),
    "TensorizedTensor_blocktt_batched_index_to_matrix": _tensorized("BlockTT", True),
    "TensorizedTensor_cp_to_matrix": _tensorized("CP", False),
    "ComplexTuckerTensor_spectral_conv": _spectral("ComplexTucker"),
    "ComplexDenseTensor_spectral_conv": _spectral("ComplexDense"),
}
