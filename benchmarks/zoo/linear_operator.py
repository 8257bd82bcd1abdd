"""linear_operator 0.6.1 (the structured-matrix library GPyTorch builds on): its operators built
from small random factors (n = 6 unless named; batch 2 where named) and the operations user code
runs on them, as the library's README and its test suite (``linear_operator/test`` and the
repository's ``test/operators``) use them. No model weights: each "model" is a small
``torch.nn.Module`` (``_Use``) whose parameters are the operator's factors (a dense factor ``A``
with ``K = A A^T + I``, raw diagonals through ``softplus``, Toeplitz columns, kernel
hyperparameters) and whose forward builds the operator(s) from them and calls the operations
on random right-hand sides, returning tensors (``to_dense`` where the result is an operator).

Uses (44):
- dense: ``DenseLinearOperator`` matmul / ``diagonal`` / ``solve`` / ``inv_quad_logdet`` /
  ``logdet`` / ``inv_quad``, batch (2 x 6 x 6) ``inv_quad_logdet``, ``to_linear_operator`` with
  transposes / sums / scalar arithmetic / ``add_low_rank``, indexing (``op[..., idx, :]``,
  slices);
- diagonal family: ``DiagLinearOperator`` (matmul, solve, logdet, inverse, sqrt),
  ``ConstantDiagLinearOperator`` with ``IdentityLinearOperator``, ``add_diagonal`` / ``add_jitter``;
- GP-style MLL ``-0.5 (y^T K^-1 y + log|K|)`` (via ``inv_quad_logdet``) on:
  ``AddedDiagLinearOperator`` (dense + noise), ``LowRankRootAddedDiagLinearOperator``
  (``LowRankRootLinearOperator + DiagLinearOperator``, Woodbury), ``KroneckerProductAddedDiag``
  (Kronecker + constant noise, the multitask GP), ``KernelLinearOperator`` (an RBF covar_func as in
  its docstring) + noise, ``SumKroneckerLinearOperator``, ``CholLinearOperator``;
- structure: ``RootLinearOperator``, ``KroneckerProductLinearOperator`` (matmul / solve / logdet /
  ``diagonal``), ``KroneckerProductTriangularLinearOperator`` / ``KroneckerProductDiagLinearOperator``,
  ``SumLinearOperator``, ``PsdSumLinearOperator``, ``MulLinearOperator`` (Hadamard product through
  root decompositions), ``ConstantMulLinearOperator``, ``MatmulLinearOperator``,
  ``BlockDiagLinearOperator``, ``BlockInterleavedLinearOperator``, ``SumBatchLinearOperator``,
  ``BatchRepeatLinearOperator`` (``op.repeat``), ``CatLinearOperator`` (``cat``),
  ``InterpolatedLinearOperator`` (KISS-GP style interpolation of a Toeplitz grid kernel),
  ``ToeplitzLinearOperator`` (FFT matmul, + diag solve), ``TriangularLinearOperator`` (solve,
  logdet, ``inverse``), ``MaskedLinearOperator``, ``PermutationLinearOperator`` /
  ``TransposePermutationLinearOperator``, ``ZeroLinearOperator``;
- decompositions: ``root_decomposition`` (Cholesky path) and with ``method="lanczos"``,
  ``root_inv_decomposition``, ``pivoted_cholesky``, ``diagonalization`` / ``eigh`` / ``svd``,
  ``sqrt_inv_matmul`` (the variational-GP call), ``cholesky`` + triangular solves;
- iterative paths a user enables for large problems: ``solve`` / ``inv_quad_logdet`` under
  ``settings.max_cholesky_size(0)`` (preconditioned CG, stochastic Lanczos quadrature), with
  the settings context inside the compiled function as a user writes it;
- ``dsmm`` (sparse COO x dense; its backward gives the sparse values no gradient, by design).

Eval: the outputs (tensors). Train: ``mean_loss_module`` over the same outputs (the GP-style uses
already return the negative MLL per batch, so their loss is the MLL a GP training step
optimises); gradients flow to the factors, which are ``nn.Parameter``\\ s.

    pip install --no-deps linear_operator==0.6.1 scipy==1.17.1

(linear_operator declares torch and scipy only; it imports scipy lazily, in
``utils/contour_integral_quad``, not reached by these uses. Both were already installed on this
machine, with the gpytorch adapter's lines; the pip line was re-run and reported "already
satisfied"; torch 2.13.0+cpu untouched.) Nothing stubbed.

Left out: ``KeOpsLinearOperator`` (needs pykeops, and is deprecated), anything on CUDA,
``settings.debug`` checks (on by default; left as is), ``zero_mean_mvn_samples`` (random
sampling only).
"""

PACKAGE = "linear_operator"
DISTRIBUTION = "linear_operator"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_N = 6


def warm_up():
    import torch  # noqa: F401

    import linear_operator  # noqa: F401
    import linear_operator.operators  # noqa: F401


def _module_class():
    import torch

    class _Use(torch.nn.Module):
        """Factors as parameters (float) or buffers (indices, masks); forward = fn(self, *inputs)."""

        def __init__(self, fn, params):
            super().__init__()
            self.fn = fn
            for name, value in params.items():
                if value.is_floating_point():
                    self.register_parameter(name, torch.nn.Parameter(value))
                else:
                    self.register_buffer(name, value)

        def forward(self, *args):
            return self.fn(self, *args)

    return _Use


def _make(fn, params, inputs):
    def make(mode):
        net = _module_class()(fn, params())
        if mode == "train":
            net = mean_loss_module()(net)
        return net, inputs(), {}

    return make


# --- shared pieces ---------------------------------------------------------------------------

def _psd(A):
    import torch

    return A @ A.mT + torch.eye(A.size(-1), dtype=A.dtype)


def _pos(x):
    import torch

    return torch.nn.functional.softplus(x) + 1e-2


def _A(n=_N, batch=()):
    import torch

    return torch.randn(*batch, n, n) / n ** 0.5


def _vec(*shape):
    def f():
        import torch

        return (torch.randn(*shape),)

    return f


def _mll(K, y):
    from linear_operator import inv_quad_logdet

    inv_quad, logdet = inv_quad_logdet(K, y.unsqueeze(-1), logdet=True)
    return 0.5 * (inv_quad + logdet)  # the negative marginal log likelihood (up to a constant)


# --- dense ------------------------------------------------------------------------------------

def _dense_matmul(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    return K @ x, K.diagonal(), K.matmul(x[:, 0]), x.mT @ K


def _dense_solve(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    return K.solve(x), K.logdet()


def _dense_mll(m, y):
    from linear_operator.operators import DenseLinearOperator

    return _mll(DenseLinearOperator(_psd(m.A)), y)


def _dense_inv_quad(m, x):
    import linear_operator

    K = linear_operator.to_linear_operator(_psd(m.A))
    return linear_operator.inv_quad(K, x), linear_operator.solve(K, x, lhs=x.mT)


def _batch_mll(m, y):
    from linear_operator.operators import DenseLinearOperator

    return _mll(DenseLinearOperator(_psd(m.A)), y).sum()


def _dense_arith(m, x):
    import linear_operator

    K = linear_operator.to_linear_operator(_psd(m.A))
    L = K.mT * 2.0 + K / 3.0 - K
    return (L.to_dense(), L.sum(-1), K.sum(), (L @ x).mean(), K.transpose(-1, -2).to_dense(),
            linear_operator.to_dense(K.add_low_rank(x[:, :1])))


def _dense_getitem(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    idx = m.idx
    return K[idx].to_dense(), K[..., :3, :3].to_dense(), K[idx, idx], K[1:4, :].to_dense() @ x


# --- diagonal family ------------------------------------------------------------------------

def _diag_ops(m, x):
    from linear_operator.operators import DiagLinearOperator

    D = DiagLinearOperator(_pos(m.d))
    return (D @ x, D.solve(x), D.logdet(), D.inverse().diagonal(), D.sqrt().to_dense(),
            (D * D).diagonal(), D.inv_quad_logdet(x, logdet=True)[0])


def _constant_diag(m, x):
    from linear_operator.operators import ConstantDiagLinearOperator, IdentityLinearOperator

    C = ConstantDiagLinearOperator(_pos(m.c), diag_shape=_N)
    eye = IdentityLinearOperator(_N, dtype=x.dtype)
    S = C + eye
    return S @ x, S.logdet(), (C * 3.0).diagonal(), eye.solve(x), C.inverse().to_dense()


def _add_diagonal(m, x):
    import linear_operator
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(m.A @ m.A.mT)
    Kn = K.add_diagonal(_pos(m.noise))
    J = linear_operator.add_jitter(K, 1e-2)
    return Kn.solve(x), Kn.logdet(), J.cholesky().to_dense(), linear_operator.add_diagonal(K, _pos(m.noise)).diagonal()


# --- GP-style marginal likelihoods ----------------------------------------------------------

def _added_diag_mll(m, y):
    from linear_operator.operators import AddedDiagLinearOperator, DenseLinearOperator, DiagLinearOperator

    K = AddedDiagLinearOperator(DenseLinearOperator(m.A @ m.A.mT), DiagLinearOperator(_pos(m.noise)))
    return _mll(K, y)


def _low_rank_mll(m, y):
    from linear_operator.operators import DiagLinearOperator, LowRankRootLinearOperator

    K = LowRankRootLinearOperator(m.R) + DiagLinearOperator(_pos(m.noise))  # LowRankRootAddedDiag
    return _mll(K, y), K.solve(y.unsqueeze(-1)), K.diagonal()


def _kron_added_diag_mll(m, y):
    from linear_operator.operators import ConstantDiagLinearOperator, DenseLinearOperator, KroneckerProductLinearOperator

    Kx = DenseLinearOperator(_psd(m.A))
    Kt = DenseLinearOperator(_psd(m.B))
    K = KroneckerProductLinearOperator(Kx, Kt) + ConstantDiagLinearOperator(_pos(m.noise), diag_shape=_N * 2)
    return _mll(K, y), K.solve(y.unsqueeze(-1))


def _rbf(x1, x2, lengthscale, outputscale):
    x1 = x1.div(lengthscale)
    x2 = x2.div(lengthscale)
    sq_dist = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).square().sum(dim=-1)
    return sq_dist.div(-2.0).exp().mul(outputscale[..., None, None].square())


def _kernel_mll(m, x, y):
    from linear_operator.operators import DiagLinearOperator, KernelLinearOperator

    K = KernelLinearOperator(x, x, covar_func=_rbf, lengthscale=_pos(m.lengthscale), outputscale=m.outputscale,
                             num_nonbatch_dimensions={"outputscale": 0})
    Kn = K + DiagLinearOperator(_pos(m.noise))
    return _mll(Kn, y), K.diagonal(), (K @ y.unsqueeze(-1)), K[..., :3, :].to_dense()


def _sum_kron_mll(m, y):
    from linear_operator.operators import DenseLinearOperator, KroneckerProductLinearOperator, SumKroneckerLinearOperator

    K1 = KroneckerProductLinearOperator(DenseLinearOperator(_psd(m.A)), DenseLinearOperator(_psd(m.B)))
    K2 = KroneckerProductLinearOperator(DenseLinearOperator(_psd(m.C)), DenseLinearOperator(_psd(m.D)))
    K = SumKroneckerLinearOperator(K1, K2)
    return _mll(K, y), K.solve(y.unsqueeze(-1))


def _chol_mll(m, y):
    import torch
    from linear_operator.operators import CholLinearOperator, TriangularLinearOperator

    L = torch.tril(m.A) + torch.diag_embed(_pos(m.d))
    K = CholLinearOperator(TriangularLinearOperator(L))
    return _mll(K, y), K.solve(y.unsqueeze(-1)), K.inverse().to_dense()


# --- structure ------------------------------------------------------------------------------

def _root(m, x):
    from linear_operator.operators import RootLinearOperator

    K = RootLinearOperator(m.R)
    return K @ x, K.diagonal(), K.to_dense(), (K + K).root_decomposition().root.to_dense()


def _kron(m, x):
    from linear_operator.operators import DenseLinearOperator, KroneckerProductLinearOperator

    K = KroneckerProductLinearOperator(DenseLinearOperator(_psd(m.A)), DenseLinearOperator(_psd(m.B)))
    return K @ x, K.solve(x), K.logdet(), K.diagonal(), K.to_dense()


def _kron_tri(m, x):
    import torch
    from linear_operator.operators import (DiagLinearOperator, KroneckerProductDiagLinearOperator,
                                           KroneckerProductTriangularLinearOperator, TriangularLinearOperator)

    T = KroneckerProductTriangularLinearOperator(TriangularLinearOperator(torch.tril(m.A) + 2 * torch.eye(_N)),
                                                  TriangularLinearOperator(torch.tril(m.B) + 2 * torch.eye(2)))
    D = KroneckerProductDiagLinearOperator(DiagLinearOperator(_pos(m.d)), DiagLinearOperator(_pos(m.e)))
    return T @ x, T.solve(x), T.inverse().to_dense(), D @ x, D.logdet(), D.sqrt().diagonal()


def _sum(m, x):
    from linear_operator.operators import DenseLinearOperator, DiagLinearOperator, RootLinearOperator, SumLinearOperator

    K = SumLinearOperator(DenseLinearOperator(_psd(m.A)), RootLinearOperator(m.R), DiagLinearOperator(_pos(m.d)))
    return K @ x, K.to_dense(), K.diagonal(), K.solve(x)


def _psd_sum(m, x):
    from linear_operator.operators import DenseLinearOperator, PsdSumLinearOperator, RootLinearOperator

    K = PsdSumLinearOperator(DenseLinearOperator(_psd(m.A)), RootLinearOperator(m.R))
    return K @ x, K.inv_quad_logdet(x, logdet=True)[1], K.diagonal()


def _mul(m, x):
    from linear_operator.operators import DenseLinearOperator

    K1 = DenseLinearOperator(_psd(m.A))
    K2 = DenseLinearOperator(_psd(m.B))
    K = K1 * K2  # MulLinearOperator over their root decompositions
    return K @ x, K.diagonal(), K.to_dense()


def _constant_mul(m, x):
    from linear_operator.operators import ConstantMulLinearOperator, DenseLinearOperator

    K = ConstantMulLinearOperator(DenseLinearOperator(_psd(m.A)), _pos(m.c))
    return K @ x, K.logdet(), K.diagonal(), K.solve(x)


def _matmul_op(m, x):
    from linear_operator.operators import DenseLinearOperator, MatmulLinearOperator

    K = MatmulLinearOperator(DenseLinearOperator(m.A), DenseLinearOperator(m.B))
    return K @ x, K.diagonal(), K.to_dense(), (DenseLinearOperator(m.B.mT) @ DenseLinearOperator(m.A.mT)).to_dense()


def _block_diag(m, x):
    from linear_operator.operators import BlockDiagLinearOperator, DenseLinearOperator

    K = BlockDiagLinearOperator(DenseLinearOperator(_psd(m.A)))  # 3 blocks of 6 -> 18 x 18
    return K @ x, K.solve(x), K.logdet(), K.diagonal(), K.inv_quad_logdet(x, logdet=True)[0]


def _block_interleaved(m, x):
    from linear_operator.operators import BlockInterleavedLinearOperator, DenseLinearOperator

    K = BlockInterleavedLinearOperator(DenseLinearOperator(_psd(m.A)))
    return K @ x, K.logdet(), K.diagonal(), K.to_dense()


def _sum_batch(m, x):
    from linear_operator.operators import DenseLinearOperator, SumBatchLinearOperator

    K = SumBatchLinearOperator(DenseLinearOperator(_psd(m.A)))
    return K @ x, K.diagonal(), K.to_dense()


def _batch_repeat(m, x):
    from linear_operator.operators import BatchRepeatLinearOperator, DenseLinearOperator
    import torch

    K = DenseLinearOperator(_psd(m.A))
    R = BatchRepeatLinearOperator(K, batch_repeat=torch.Size((2,)))
    return R @ x, K.repeat(2, 1, 1).to_dense(), R.diagonal(), R.inv_quad_logdet(x, logdet=True)[1]


def _cat(m, x):
    from linear_operator.operators import CatLinearOperator, DenseLinearOperator, cat

    K1 = DenseLinearOperator(m.A)
    K2 = DenseLinearOperator(m.B)
    rows = CatLinearOperator(K1, K2, dim=-2)
    cols = cat([K1, K2], dim=-1)
    return rows @ x[:_N], rows.to_dense(), cols @ x, cols[..., :2, 3:9].to_dense()


def _interpolated(m, x):
    import torch
    from linear_operator.operators import InterpolatedLinearOperator, ToeplitzLinearOperator

    col = torch.exp(-torch.arange(10, dtype=x.dtype) ** 2 * _pos(m.gamma))
    grid = ToeplitzLinearOperator(col)
    K = InterpolatedLinearOperator(grid, m.left_idx, m.left_vals.softmax(-1), m.left_idx, m.left_vals.softmax(-1))
    return K @ x, K.diagonal(), K.to_dense(), (K + torch.eye(_N) * 0.1).to_dense().sum()


def _toeplitz(m, x):
    import torch
    from linear_operator.operators import DiagLinearOperator, ToeplitzLinearOperator

    col = torch.exp(-torch.arange(_N, dtype=x.dtype) ** 2 * _pos(m.gamma))
    T = ToeplitzLinearOperator(col)
    Tn = T + DiagLinearOperator(torch.full((_N,), 0.1))
    return T @ x, T.diagonal(), T.to_dense(), Tn.solve(x)


def _triangular(m, x):
    import torch
    from linear_operator.operators import TriangularLinearOperator

    L = TriangularLinearOperator(torch.tril(m.A) + torch.diag_embed(_pos(m.d)))
    U = TriangularLinearOperator(torch.triu(m.A) + torch.diag_embed(_pos(m.d)), upper=True)
    return L @ x, L.solve(x), L.logdet(), L.inverse().to_dense(), U.solve(x), L.mT.to_dense()


def _masked(m, x):
    from linear_operator.operators import DenseLinearOperator, MaskedLinearOperator

    K = MaskedLinearOperator(DenseLinearOperator(_psd(m.A)), m.row_mask, m.col_mask)
    S = MaskedLinearOperator(DenseLinearOperator(_psd(m.A)), m.row_mask, m.row_mask)
    return K @ x[:4], K.to_dense(), S.diagonal(), S @ x[:4]


def _permutation(m, x, x9):
    from linear_operator.operators import DenseLinearOperator, PermutationLinearOperator, TransposePermutationLinearOperator

    P = PermutationLinearOperator(m.perm)
    T = TransposePermutationLinearOperator(3)
    K = DenseLinearOperator(_psd(m.A))
    return P @ x, (P.mT @ x), T @ x9, P.to_dense(), (K @ P.to_dense())


def _zero(m, x):
    from linear_operator.operators import DenseLinearOperator, ZeroLinearOperator

    Z = ZeroLinearOperator(_N, _N, dtype=x.dtype)
    K = DenseLinearOperator(_psd(m.A))
    S = K + Z
    return S @ x, (Z @ x), S.to_dense()


# --- decompositions -------------------------------------------------------------------------

def _root_decomp(m, x):
    import linear_operator
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    R = linear_operator.root_decomposition(K)
    Ri = linear_operator.root_inv_decomposition(K)
    return R.root.to_dense(), R @ x, Ri.root.to_dense(), K.root_decomposition().to_dense()


def _lanczos(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    R = K.root_decomposition(method="lanczos")
    return R.root.to_dense(), R @ x


def _pivoted_cholesky(m, x):
    import linear_operator
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    L = linear_operator.pivoted_cholesky(K, rank=3)
    return L, L @ (L.mT @ x)


def _eig(m, x):
    import linear_operator
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    evals, evecs = K.eigh()
    U, S, V = K.svd()
    e2, q2 = linear_operator.diagonalization(K)
    return evals, evecs.to_dense() @ x, S, U.to_dense(), e2, K.eigvalsh()


def _sqrt_inv_matmul(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    res, inv_quad = K.sqrt_inv_matmul(x, lhs=x.mT)
    return res, inv_quad, K.sqrt_inv_matmul(x)


def _cholesky(m, x):
    from linear_operator.operators import DenseLinearOperator

    K = DenseLinearOperator(_psd(m.A))
    L = K.cholesky()
    return L.to_dense(), L.solve(x), L.mT.solve(x)


def _cg_solve(m, x):
    import linear_operator
    from linear_operator.operators import AddedDiagLinearOperator, DenseLinearOperator, DiagLinearOperator

    K = AddedDiagLinearOperator(DenseLinearOperator(m.A @ m.A.mT), DiagLinearOperator(_pos(m.noise)))
    with linear_operator.settings.max_cholesky_size(0):
        return K.solve(x)


def _cg_mll(m, y):
    import linear_operator
    from linear_operator.operators import AddedDiagLinearOperator, DenseLinearOperator, DiagLinearOperator

    K = AddedDiagLinearOperator(DenseLinearOperator(m.A @ m.A.mT), DiagLinearOperator(_pos(m.noise)))
    with linear_operator.settings.max_cholesky_size(0), linear_operator.settings.num_trace_samples(4):
        return _mll(K, y)


def _dsmm(m, x):
    import linear_operator

    dense = m.W @ x
    S = m.sp_idx  # (2, nnz) indices of a 6 x 6 sparse matrix
    import torch

    sparse = torch.sparse_coo_tensor(S, m.sp_vals, (_N, _N))
    return linear_operator.dsmm(sparse, dense)


def _p(**shapes):
    """Parameters: float factors (random normal) by shape, or given tensors."""

    def f():
        import torch

        out = {}
        for name, spec in shapes.items():
            out[name] = spec() if callable(spec) else torch.randn(spec) / max(1.0, spec[-1] ** 0.5 if spec else 1.0)
        return out

    return f


def _idx():
    import torch

    return torch.tensor([0, 2, 5])


def _left_idx():
    import torch

    return torch.randint(0, 10, (_N, 3))


def _perm():
    import torch

    return torch.randperm(_N)


def _row_mask():
    import torch

    return torch.tensor([True, False, True, True, False, True])


def _col_mask():
    import torch

    return torch.tensor([True, True, False, True, True, False])


def _sp_idx():
    import torch

    return torch.tensor([[0, 1, 2, 3, 4, 5, 0, 3], [0, 1, 2, 3, 4, 5, 5, 1]])


def _xy():
    import torch

    return torch.randn(_N, 2), torch.randn(_N)


def _two():
    import torch

    return torch.randn(_N, 3), torch.randn(9, 3)


_A6 = (_N, _N)
_X = _vec(_N, 3)

MODELS = {
    "DenseMatmul": _make(_dense_matmul, _p(A=_A6), _X),
    "DenseSolve": _make(_dense_solve, _p(A=_A6), _X),
    "DenseMLL": _make(_dense_mll, _p(A=_A6), _vec(_N)),
    "DenseInvQuad": _make(_dense_inv_quad, _p(A=_A6), _X),
    "DenseBatchMLL": _make(_batch_mll, _p(A=(2, _N, _N)), _vec(2, _N)),
    "DenseArithmetic": _make(_dense_arith, _p(A=_A6), _X),
    "DenseGetitem": _make(_dense_getitem, _p(A=_A6, idx=_idx), _X),
    "DiagLinearOperator": _make(_diag_ops, _p(d=(_N,)), _X),
    "ConstantDiagIdentity": _make(_constant_diag, _p(c=(1,)), _X),
    "AddDiagonalJitter": _make(_add_diagonal, _p(A=_A6, noise=(1,)), _X),
    "AddedDiagMLL": _make(_added_diag_mll, _p(A=_A6, noise=(_N,)), _vec(_N)),
    "LowRankRootAddedDiagMLL": _make(_low_rank_mll, _p(R=(_N, 2), noise=(_N,)), _vec(_N)),
    "KroneckerAddedDiagMLL": _make(_kron_added_diag_mll, _p(A=_A6, B=(2, 2), noise=(1,)), _vec(2 * _N)),
    "KernelLinearOperatorMLL": _make(_kernel_mll, _p(lengthscale=(1, 2), outputscale=(), noise=(_N,)), _xy),
    "SumKroneckerMLL": _make(_sum_kron_mll, _p(A=_A6, B=(2, 2), C=_A6, D=(2, 2)), _vec(2 * _N)),
    "CholLinearOperatorMLL": _make(_chol_mll, _p(A=_A6, d=(_N,)), _vec(_N)),
    "RootLinearOperator": _make(_root, _p(R=(_N, 3)), _X),
    "KroneckerProduct": _make(_kron, _p(A=_A6, B=(2, 2)), _vec(2 * _N, 3)),
    "KroneckerTriangularDiag": _make(_kron_tri, _p(A=_A6, B=(2, 2), d=(_N,), e=(2,)), _vec(2 * _N, 3)),
    "SumLinearOperator": _make(_sum, _p(A=_A6, R=(_N, 2), d=(_N,)), _X),
    "PsdSumLinearOperator": _make(_psd_sum, _p(A=_A6, R=(_N, 2)), _X),
    "MulLinearOperator": _make(_mul, _p(A=_A6, B=_A6), _X),
    "ConstantMulLinearOperator": _make(_constant_mul, _p(A=_A6, c=(1,)), _X),
    "MatmulLinearOperator": _make(_matmul_op, _p(A=(_N, 4), B=(4, _N)), _X),
    "BlockDiagLinearOperator": _make(_block_diag, _p(A=(3, _N, _N)), _vec(3 * _N, 2)),
    "BlockInterleavedLinearOperator": _make(_block_interleaved, _p(A=(3, _N, _N)), _vec(3 * _N, 2)),
    "SumBatchLinearOperator": _make(_sum_batch, _p(A=(3, _N, _N)), _X),
    "BatchRepeatLinearOperator": _make(_batch_repeat, _p(A=_A6), _vec(2, _N, 3)),
    "CatLinearOperator": _make(_cat, _p(A=_A6, B=_A6), _vec(2 * _N, 3)),
    "InterpolatedLinearOperator": _make(_interpolated, _p(gamma=(1,), left_idx=_left_idx, left_vals=(_N, 3)), _X),
    "ToeplitzLinearOperator": _make(_toeplitz, _p(gamma=(1,)), _X),
    "TriangularLinearOperator": _make(_triangular, _p(A=_A6, d=(_N,)), _X),
    "MaskedLinearOperator": _make(_masked, _p(A=_A6, row_mask=_row_mask, col_mask=_col_mask), _X),
    "PermutationLinearOperator": _make(_permutation, _p(A=_A6, perm=_perm), _two),
    "ZeroLinearOperator": _make(_zero, _p(A=_A6), _X),
    "RootDecomposition": _make(_root_decomp, _p(A=_A6), _X),
    "LanczosRootDecomposition": _make(_lanczos, _p(A=_A6), _X),
    "PivotedCholesky": _make(_pivoted_cholesky, _p(A=_A6), _X),
    "EighSvdDiagonalization": _make(_eig, _p(A=_A6), _X),
    "SqrtInvMatmul": _make(_sqrt_inv_matmul, _p(A=_A6), _X),
    "Cholesky": _make(_cholesky, _p(A=_A6), _X),
    "CGSolve": _make(_cg_solve, _p(A=_A6, noise=(_N,)), _X),
    "SLQInvQuadLogdet": _make(_cg_mll, _p(A=_A6, noise=(_N,)), _vec(_N)),
    "Dsmm": _make(_dsmm, _p(W=_A6, sp_vals=(8,), sp_idx=_sp_idx), _X),
}
