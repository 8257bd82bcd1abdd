"""torchkbnufft 1.5.2 (Matthew Muckley): Kaiser-Bessel non-uniform FFTs for MRI, as its README,
notebooks (Basic, SENSE, Sparse Matrix, Toeplitz) and tests (``tests/test_nufft.py``,
``test_sense_nufft.py``, ``test_interp.py``, ``test_toep.py``, ``test_dcomp.py``) use them, tiny
(1-D images of 12 samples, 2-D images of 8x8 over a 16x16 grid, 3-D volumes of 4x6x5; 24-64
k-space samples; 1-4 coils; batches of 1-3; ``numpoints`` 2-6), random weights, no download:

- ``KbNufft``: 2-D complex, 1-D with ``norm="ortho"``, 2-D real ``(..., 2)`` inputs with the
  tests' ``numpoints=(4, 6)``, 3-D, multi-coil with sensitivity maps (``smaps=``), a batched
  trajectory ``(N, ndim, klength)`` (``table_interp_fork_over_batchdim``), and the sparse-matrix
  path (``interp_mats=`` from ``calc_tensor_spmatrix``; with ``smaps`` in 3-D);
- ``KbNufftAdjoint``: 2-D complex, 3-D real, multi-coil with ``smaps`` and ``norm="ortho"``, a
  batched trajectory, the sparse-matrix path;
- ``KbInterp`` / ``KbInterpAdjoint`` (gridded k-space to scattered samples and back, a given
  ``grid_size``), table and sparse-matrix paths, 2-D and 3-D;
- ``ToepNufft`` with a kernel from ``calc_toeplitz_kernel`` (built once, passed to ``forward``):
  single-coil 2-D, multi-coil with ``smaps`` (``toep_batch_loop``), a batched kernel from a
  batched trajectory with per-sample ``smaps``, real ``(..., 2)`` inputs with ``norm="ortho"``;
- what the notebooks compute per trajectory, called inside ``forward`` so Dynamo sees it:
  ``calc_density_compensation_function`` (a density-compensated gridding reconstruction, 2-D
  and a batched 3-D trajectory), ``calc_toeplitz_kernel`` with density weights (the normal
  operator by Toeplitz embedding), ``calc_tensor_spmatrix`` (scipy Kaiser-Bessel sparse
  matrices built from the trajectory, then the sparse NUFFT);
- the complex helpers on ``(..., 2)`` tensors (``complex_mult``, ``conj_complex_mult``,
  ``absolute``, ``complex_sign``, ``imag_exp``, ``inner_product``, the tests' adjoint check);
- small reconstruction modules: a learned unrolled gradient descent (SENSE, 3 steps of
  ``x - eta_k * A^H(A x - y)`` plus a small CNN on real/imag channels), the same with the
  Toeplitz normal operator, a 3-D unrolled step on the sparse-matrix NUFFT, and a
  density-compensated gridding followed by a CNN refiner.

Each operator sits behind a tiny user module with a learned complex gain on its input (so
training has parameters). Eval: the operator's output (complex, or real ``(..., 2)`` where the
input was). Train: the data-consistency loss ``mean |op(x) - target|^2`` against a fixed
random target of the output's shape; the reconstruction modules train to the ground-truth image
(MSE of the magnitudes); the helper module reduces its outputs (``mean_loss_module``).

    pip install --no-deps torchkbnufft==1.5.2          # (+ numpy 2.4.6, scipy 1.17.1: installed)

It imports torch, numpy and scipy (``scipy.special``, ``scipy.sparse``). Nothing stubbed.
Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 30 models, 60 runs, all built; 52 ran under Dynamo (26 eval, 26
train), 8 failed under Dynamo itself with ``TorchRuntimeError`` (``view(np.matrix)``: "data type
'matrix' not understood", in ``scipy.sparse._sputils.asmatrix``): every run that calls
``calc_density_compensation_function`` or ``calc_toeplitz_kernel`` in its forward
(``DcompGridding_*``, ``GriddingCNN_2d``, ``ToeplitzNormal_dcomp``), since both build their
Kaiser-Bessel tables with ``init_fn`` there and Dynamo traces on into scipy. No run is free of
breaks: ``fft_and_scale`` (``_nufft/fft.py``) breaks on ``Tensor.item()``, ``table_interp`` /
``table_interp_adjoint`` on ``torch.get_num_threads()`` (a torch op returning an int), the sparse
``interp_mats`` on "Attempted to wrap sparse Tensor" (then frame skips up the call chain), and
every model recompiles (16 recompile sites). First numbers with the frozen linter
(``/tmp/lint-start54``): graph-break statement recall 0.48 (14/29), precision 1.00 (26/26),
55 findings (50 in files run), 24 unjudged (8 shadowed, 16 not reached). Missed: the sparse-path
frame skips (GB0015, 11 statements), the two ``torch.get_num_threads()`` lines (GB0208),
``_nufft/utils.py:53`` (GB7000, a break in ``interp_coeff``'s loop).

Left out: float64 (the tests' default dtype; the same code as float32), the ``device=``
arguments (CPU only), the notebooks' plotting and ``skimage`` phantoms (random images instead),
``KbModule.to`` with a complex dtype (a construction-time helper), and large ``numpoints`` in
3-D (the adjoint's Python loop over ``prod(numpoints)`` offsets: 2-4 points per dim keeps it
short).
"""

import functools
import math

PACKAGE = "torchkbnufft"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_IM2, _IM3, _IM1 = (8, 8), (4, 6, 5), (12,)
_K2, _K3, _K1 = 48, 40, 24  # k-space samples
_C = 3  # coils


# --- inputs ------------------------------------------------------------------------------------

def _ktraj(ndim, klength, batch=None):
    """``conftest.create_ktraj``: uniform in [-pi, pi)."""
    import torch

    shape = (ndim, klength) if batch is None else (batch, ndim, klength)
    return torch.rand(size=shape) * 2 * math.pi - math.pi


def _radial(spokelength=16, nspokes=6):
    """The SENSE notebook's golden-angle radial trajectory, tiny."""
    import torch

    ga = math.radians(180 / ((1 + math.sqrt(5)) / 2))
    ky = torch.linspace(-math.pi, math.pi, spokelength)
    kx = torch.zeros(spokelength)
    spokes = []
    for _ in range(nspokes):
        spokes.append(torch.stack((ky, kx)))
        kx, ky = math.cos(ga) * kx - math.sin(ga) * ky, math.sin(ga) * kx + math.cos(ga) * ky
    return torch.cat(spokes, dim=1)  # (2, spokelength * nspokes)


def _cplx(*shape):
    import torch

    return torch.randn(*shape, dtype=torch.complex64)


def _real(*shape):
    """A real ``(..., 2)`` tensor (the tests' ``is_complex=False`` layout)."""
    import torch

    return torch.randn(*shape, 2)


def _smaps(coils, im_size, batch=1, real=False):
    """Smooth Gaussian coil maps (``mrisensesim``-like), with a random phase."""
    import torch

    grids = torch.meshgrid(*[torch.linspace(-1, 1, n) for n in im_size], indexing="ij")
    maps = []
    for c in range(coils):
        ang = 2 * math.pi * c / coils
        centre = [math.cos(ang), math.sin(ang)] + [0.0] * (len(im_size) - 2)
        d2 = sum((g - x0) ** 2 for g, x0 in zip(grids, centre))
        maps.append(torch.exp(-d2) * torch.exp(1j * torch.rand(()) * math.pi))
    s = torch.stack(maps).unsqueeze(0).expand(batch, -1, *im_size).to(torch.complex64).clone()
    return torch.view_as_real(s).contiguous() if real else s


# --- user modules ------------------------------------------------------------------------------

@functools.cache
def _modules():
    import torch
    from torch import nn

    import torchkbnufft as tkbn

    def gain_of(p):
        return torch.complex(p[0], p[1])

    class Op(nn.Module):
        """A library operator applied to ``gain * x`` (a learned complex scalar); real ``(..., 2)``
        inputs are scaled on their real view. Extra positional and keyword inputs are passed on."""

        def __init__(self, op, **kwargs):
            super().__init__()
            self.op, self.kwargs = op, kwargs
            self.gain = nn.Parameter(torch.tensor([1.0, 0.0]))

        def forward(self, x, *args, **kwargs):
            if x.is_complex():
                x = x * gain_of(self.gain)
            else:
                x = torch.view_as_real(torch.view_as_complex(x) * gain_of(self.gain))
            return self.op(x, *args, **self.kwargs, **kwargs)

    class DataLoss(nn.Module):
        """``mean |net(...) - target|^2``: the data-consistency loss; ``target`` is the last input."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args, **kwargs):
            *args, target = args
            out = self.net(*args, **kwargs)
            diff = out - target
            if diff.is_complex():
                diff = torch.view_as_real(diff)
            return diff.pow(2).mean()

    class DcompGridding(nn.Module):
        """Density-compensated gridding: ``calc_density_compensation_function`` of the trajectory,
        then the adjoint NUFFT of the weighted data (the SENSE notebook's "sharp image")."""

        def __init__(self, im_size, num_iterations=3, numpoints=4, smaps=False):
            super().__init__()
            self.im_size, self.num_iterations, self.numpoints = im_size, num_iterations, numpoints
            self.adj = tkbn.KbNufftAdjoint(im_size=im_size, numpoints=numpoints)
            self.gain = nn.Parameter(torch.tensor([1.0, 0.0]))

        def forward(self, kdata, ktraj, smaps=None):
            dcomp = tkbn.calc_density_compensation_function(
                ktraj=ktraj, im_size=self.im_size, num_iterations=self.num_iterations, numpoints=self.numpoints)
            return self.adj(kdata * dcomp * gain_of(self.gain), ktraj, smaps=smaps)

    class ToeplitzNormal(nn.Module):
        """The normal operator ``A^H W A`` by Toeplitz embedding, its kernel computed from the
        trajectory and density weights in the forward (``calc_toeplitz_kernel``)."""

        def __init__(self, im_size, numpoints=4, norm=None):
            super().__init__()
            self.im_size, self.numpoints, self.norm = im_size, numpoints, norm
            self.toep = tkbn.ToepNufft()
            self.gain = nn.Parameter(torch.tensor([1.0, 0.0]))

        def forward(self, image, ktraj, smaps):
            dcomp = tkbn.calc_density_compensation_function(ktraj=ktraj, im_size=self.im_size, num_iterations=2,
                                                            numpoints=self.numpoints)
            kernel = tkbn.calc_toeplitz_kernel(ktraj, self.im_size, weights=dcomp.squeeze(1), norm=self.norm,
                                               numpoints=self.numpoints)
            return self.toep(image * gain_of(self.gain), kernel, smaps=smaps, norm=self.norm)

    class SpmatOnTheFly(nn.Module):
        """The Sparse Matrix notebook: ``calc_tensor_spmatrix`` of the trajectory, then the forward
        NUFFT with ``interp_mats`` (built in the forward: scipy on the trajectory's numpy copy)."""

        def __init__(self, im_size, numpoints=4):
            super().__init__()
            self.im_size, self.numpoints = im_size, numpoints
            self.nufft = tkbn.KbNufft(im_size=im_size, numpoints=numpoints)
            self.gain = nn.Parameter(torch.tensor([1.0, 0.0]))

        def forward(self, image, ktraj):
            interp_mats = tkbn.calc_tensor_spmatrix(ktraj, im_size=self.im_size, numpoints=self.numpoints)
            return self.nufft(image * gain_of(self.gain), ktraj, interp_mats)

    class ComplexMath(nn.Module):
        """torchkbnufft's helpers on real ``(..., 2)`` tensors, and the tests' adjoint check
        ``<A x, y> == <x, A^H y>`` with ``inner_product``."""

        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(2, 2)
            self.nufft = tkbn.KbNufft(im_size=_IM2, numpoints=4)
            self.adj = tkbn.KbNufftAdjoint(im_size=_IM2, numpoints=4)

        def forward(self, a, b, phase, image, kdata, ktraj):
            a = self.proj(a)
            prod = tkbn.complex_mult(a, b)
            cprod = tkbn.conj_complex_mult(a, b)
            mag = tkbn.absolute(prod)
            sign = tkbn.complex_sign(cprod)
            rot = tkbn.imag_exp(phase, return_complex=False)
            lhs = tkbn.inner_product(self.nufft(image, ktraj), kdata)
            rhs = tkbn.inner_product(image, self.adj(kdata, ktraj))
            return mag, sign, rot, torch.view_as_real(lhs - rhs)

    def to_channels(x):  # (N, 1, *im) complex -> (N, 2, *im) real
        return torch.cat((x.real, x.imag), dim=1)

    def from_channels(x):
        return torch.complex(x[:, :1], x[:, 1:])

    def cnn(ndim, width=8):
        conv = nn.Conv2d if ndim == 2 else nn.Conv3d
        return nn.Sequential(conv(2, width, 3, padding=1), nn.ReLU(), conv(width, 2, 3, padding=1))

    class UnrolledGD(nn.Module):
        """A learned unrolled gradient descent for SENSE reconstruction: ``steps`` iterations of
        ``x <- x - eta_k * A^H(A x - y) + CNN_k(x)`` from the adjoint image, ``A`` the multi-coil
        NUFFT (table interpolation, or sparse matrices passed in)."""

        def __init__(self, im_size, steps=3, numpoints=4):
            super().__init__()
            self.nufft = tkbn.KbNufft(im_size=im_size, numpoints=numpoints)
            self.adj = tkbn.KbNufftAdjoint(im_size=im_size, numpoints=numpoints)
            self.eta = nn.Parameter(torch.full((steps,), 0.1))
            self.cnns = nn.ModuleList(cnn(len(im_size)) for _ in range(steps))

        def forward(self, kdata, ktraj, smaps, interp_mats=None):
            x = self.adj(kdata, ktraj, interp_mats, smaps=smaps)
            for eta, net in zip(self.eta, self.cnns):
                resid = self.nufft(x, ktraj, interp_mats, smaps=smaps) - kdata
                x = x - eta * self.adj(resid, ktraj, interp_mats, smaps=smaps)
                x = x + from_channels(net(to_channels(x)))
            return x

    class UnrolledToeplitz(nn.Module):
        """Unrolled gradient descent with the Toeplitz normal operator: ``A^H y`` once, then
        ``x <- x - eta_k * (T x - A^H y) + CNN_k(x)``, ``T`` from ``ToepNufft`` and a kernel."""

        def __init__(self, im_size, steps=3, numpoints=4):
            super().__init__()
            self.adj = tkbn.KbNufftAdjoint(im_size=im_size, numpoints=numpoints)
            self.toep = tkbn.ToepNufft()
            self.eta = nn.Parameter(torch.full((steps,), 0.1))
            self.cnns = nn.ModuleList(cnn(len(im_size)) for _ in range(steps))

        def forward(self, kdata, ktraj, smaps, kernel):
            aty = self.adj(kdata, ktraj, smaps=smaps)
            x = aty
            for eta, net in zip(self.eta, self.cnns):
                x = x - eta * (self.toep(x, kernel, smaps=smaps) - aty)
                x = x + from_channels(net(to_channels(x)))
            return x

    class GriddingCNN(nn.Module):
        """Density-compensated gridding (``DcompGridding``) followed by a residual CNN."""

        def __init__(self, im_size):
            super().__init__()
            self.grid = DcompGridding(im_size)
            self.net = cnn(len(im_size))

        def forward(self, kdata, ktraj, smaps):
            x = self.grid(kdata, ktraj, smaps)
            return x + from_channels(self.net(to_channels(x)))

    class ImageLoss(nn.Module):
        """MSE of the magnitudes of a reconstruction and the ground truth (the last input)."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args):
            *args, truth = args
            return (self.net(*args).abs() - truth.abs()).pow(2).mean()

    return {"Op": Op, "DataLoss": DataLoss, "DcompGridding": DcompGridding, "ToeplitzNormal": ToeplitzNormal,
            "SpmatOnTheFly": SpmatOnTheFly, "ComplexMath": ComplexMath, "UnrolledGD": UnrolledGD,
            "UnrolledToeplitz": UnrolledToeplitz, "GriddingCNN": GriddingCNN, "ImageLoss": ImageLoss}


# --- builders ----------------------------------------------------------------------------------

def _target_like(net, args, kwargs):
    """A fixed random target of the output's shape (the output computed once, eagerly)."""
    import torch

    with torch.no_grad():
        out = net(*args, **kwargs)
    return torch.randn_like(out)


def _data_run(net, args, kwargs, mode):
    """Eval: ``net`` itself. Train: the data-consistency loss against a random target."""
    if mode != "train":
        return net, args, kwargs
    target = _target_like(net, args, kwargs)
    return _modules()["DataLoss"](net), (*args, target), kwargs


def _op(cls, ctor, inputs, **call):
    """``Op(tkbn.<cls>(**ctor))`` called on ``inputs()`` (args, kwargs) and the fixed ``call``
    keywords."""

    def make(mode):
        import torchkbnufft as tkbn

        net = _modules()["Op"](getattr(tkbn, cls)(**ctor), **call)
        args, kwargs = inputs()
        return _data_run(net, args, kwargs, mode)

    return make


def _spmat(ktraj, im_size, **kw):
    import torchkbnufft as tkbn

    return tkbn.calc_tensor_spmatrix(ktraj, im_size=im_size, **kw)


# inputs: each returns (args, kwargs) for Op.forward(x, *args, **kwargs)

def _in_nufft_2d():
    return (_cplx(1, 1, *_IM2), _ktraj(2, _K2)), {}


def _in_nufft_1d():
    return (_cplx(2, 1, *_IM1), _ktraj(1, _K1)), {}


def _in_nufft_2d_real():
    return (_real(2, 1, *_IM2), _ktraj(2, _K2)), {}


def _in_nufft_3d():
    return (_cplx(1, 1, *_IM3), _ktraj(3, _K3)), {}


def _in_nufft_sense_2d():
    return (_cplx(1, 1, *_IM2), _ktraj(2, _K2)), {"smaps": _smaps(_C, _IM2)}


def _in_nufft_batched():
    return (_cplx(3, 2, *_IM2), _ktraj(2, _K2, batch=3)), {}


def _in_nufft_spmat_2d():
    ktraj = _ktraj(2, _K2)
    return (_cplx(2, 1, *_IM2), ktraj, _spmat(ktraj, _IM2, numpoints=4)), {}


def _in_nufft_sense_spmat_3d():
    ktraj = _ktraj(3, _K3)
    return (_cplx(1, 1, *_IM3), ktraj, _spmat(ktraj, _IM3, numpoints=(2, 3, 3))), {"smaps": _smaps(2, _IM3)}


def _in_adj_2d():
    return (_cplx(1, 1, _K2), _ktraj(2, _K2)), {}


def _in_adj_3d_real():
    return (_real(1, 2, _K3), _ktraj(3, _K3)), {}


def _in_adj_sense_2d():
    return (_cplx(2, _C, _K2), _ktraj(2, _K2)), {"smaps": _smaps(_C, _IM2, batch=2)}


def _in_adj_batched():
    return (_cplx(3, 2, _K2), _ktraj(2, _K2, batch=3)), {}


def _in_adj_spmat_2d():
    ktraj = _ktraj(2, _K2)
    return (_cplx(1, 2, _K2), ktraj, _spmat(ktraj, _IM2, numpoints=4)), {}


def _in_interp_2d():
    return (_cplx(1, 2, 16, 16), _ktraj(2, _K2)), {}


def _in_interp_spmat_3d():
    ktraj = _ktraj(3, _K3)
    return (_cplx(1, 1, 8, 12, 10), ktraj, _spmat(ktraj, _IM3, numpoints=(2, 3, 3))), {}


def _in_interp_adj_2d():
    import torch

    return (_cplx(2, 1, _K2), _ktraj(2, _K2)), {"grid_size": torch.tensor([16, 16])}


def _in_interp_adj_spmat_2d():
    ktraj = _ktraj(2, _K2)
    return (_cplx(1, 1, _K2), ktraj, _spmat(ktraj, _IM2, numpoints=4)), {}


def _kernel(ktraj, im_size, **kw):
    import torchkbnufft as tkbn

    return tkbn.calc_toeplitz_kernel(ktraj, im_size, **kw)


def _in_toep_2d():
    return (_cplx(1, 1, *_IM2), _kernel(_ktraj(2, _K2), _IM2, numpoints=4)), {}


def _in_toep_sense_2d():
    return (_cplx(2, 1, *_IM2), _kernel(_ktraj(2, _K2), _IM2, numpoints=4)), {"smaps": _smaps(_C, _IM2)}


def _in_toep_batched_sense():
    kernel = _kernel(_ktraj(2, _K2, batch=2), _IM2, numpoints=4)
    smaps = _smaps(_C, _IM2, batch=2)
    return (_cplx(2, 1, *_IM2), kernel), {"smaps": smaps}


def _in_toep_real_ortho():
    import torch

    kernel = torch.view_as_real(_kernel(_ktraj(2, _K2), _IM2, numpoints=4, norm="ortho")).contiguous()
    return (_real(1, 1, *_IM2), kernel), {"smaps": _smaps(2, _IM2, real=True), "norm": "ortho"}


# --- the modules built on them -----------------------------------------------------------------

def _sense_problem(im_size, klength, coils=_C, radial=False, batch=1):
    """A ground-truth image, its trajectory, maps and noisy multi-coil k-space data."""
    import torch

    import torchkbnufft as tkbn

    truth = _cplx(batch, 1, *im_size)
    ktraj = _radial() if radial else _ktraj(len(im_size), klength)
    smaps = _smaps(coils, im_size, batch=batch)
    with torch.no_grad():
        kdata = tkbn.KbNufft(im_size=im_size, numpoints=4)(truth, ktraj, smaps=smaps)
    kdata = kdata + 0.05 * _cplx(*kdata.shape)
    return truth, ktraj, smaps, kdata


def _recon_run(net, args, truth, mode):
    if mode != "train":
        return net, args, {}
    return _modules()["ImageLoss"](net), (*args, truth), {}


def _unrolled_2d(mode):
    truth, ktraj, smaps, kdata = _sense_problem(_IM2, _K2, radial=True)
    return _recon_run(_modules()["UnrolledGD"](_IM2), (kdata, ktraj, smaps), truth, mode)


def _unrolled_spmat_3d(mode):
    truth, ktraj, smaps, kdata = _sense_problem(_IM3, _K3, coils=2)
    mats = _spmat(ktraj, _IM3, numpoints=4)
    return _recon_run(_modules()["UnrolledGD"](_IM3, steps=2), (kdata, ktraj, smaps, mats), truth, mode)


def _unrolled_toeplitz(mode):
    truth, ktraj, smaps, kdata = _sense_problem(_IM2, _K2)
    kernel = _kernel(ktraj, _IM2, numpoints=4)
    return _recon_run(_modules()["UnrolledToeplitz"](_IM2), (kdata, ktraj, smaps, kernel), truth, mode)


def _gridding_cnn(mode):
    truth, ktraj, smaps, kdata = _sense_problem(_IM2, _K2, radial=True)
    return _recon_run(_modules()["GriddingCNN"](_IM2), (kdata, ktraj, smaps), truth, mode)


def _dcomp_2d(mode):
    ktraj = _radial()
    net = _modules()["DcompGridding"](_IM2)
    return _data_run(net, (_cplx(1, _C, ktraj.shape[1]), ktraj), {"smaps": _smaps(_C, _IM2)}, mode)


def _dcomp_batched_3d(mode):
    net = _modules()["DcompGridding"](_IM3, numpoints=2)
    return _data_run(net, (_cplx(2, 1, _K3), _ktraj(3, _K3, batch=2)), {}, mode)


def _toeplitz_normal(mode):
    net = _modules()["ToeplitzNormal"](_IM2)
    return _data_run(net, (_cplx(1, 1, *_IM2), _ktraj(2, _K2), _smaps(2, _IM2)), {}, mode)


def _spmat_on_the_fly(mode):
    net = _modules()["SpmatOnTheFly"](_IM2)
    return _data_run(net, (_cplx(1, 2, *_IM2), _ktraj(2, _K2)), {}, mode)


def _complex_math(mode):
    import torch

    net = _modules()["ComplexMath"]()
    args = (torch.randn(4, 6, 2), torch.randn(4, 6, 2), torch.randn(4, 6), _cplx(1, 1, *_IM2), _cplx(1, 1, _K2),
            _ktraj(2, _K2))
    return (mean_loss_module()(net) if mode == "train" else net), args, {}


MODELS = {
    # --- forward NUFFT ---
    "KbNufft_2d": _op("KbNufft", dict(im_size=_IM2), _in_nufft_2d),
    "KbNufft_1d_ortho": _op("KbNufft", dict(im_size=_IM1, grid_size=(24,)), _in_nufft_1d, norm="ortho"),
    "KbNufft_2d_real_np46": _op("KbNufft", dict(im_size=_IM2, numpoints=(4, 6)), _in_nufft_2d_real),
    "KbNufft_3d": _op("KbNufft", dict(im_size=_IM3, numpoints=(2, 3, 3)), _in_nufft_3d),
    "KbNufft_sense_2d": _op("KbNufft", dict(im_size=_IM2, numpoints=4), _in_nufft_sense_2d),
    "KbNufft_batched_ktraj": _op("KbNufft", dict(im_size=_IM2, numpoints=4), _in_nufft_batched),
    "KbNufft_spmat_2d": _op("KbNufft", dict(im_size=_IM2, numpoints=4), _in_nufft_spmat_2d),
    "KbNufft_sense_spmat_3d": _op("KbNufft", dict(im_size=_IM3, numpoints=(2, 3, 3)), _in_nufft_sense_spmat_3d),
    # --- adjoint NUFFT ---
    "KbNufftAdjoint_2d": _op("KbNufftAdjoint", dict(im_size=_IM2), _in_adj_2d),
    "KbNufftAdjoint_3d_real": _op("KbNufftAdjoint", dict(im_size=_IM3, numpoints=(2, 3, 3)), _in_adj_3d_real),
    "KbNufftAdjoint_sense_ortho": _op("KbNufftAdjoint", dict(im_size=_IM2, grid_size=(12, 12), numpoints=4),
                                      _in_adj_sense_2d, norm="ortho"),
    "KbNufftAdjoint_batched_ktraj": _op("KbNufftAdjoint", dict(im_size=_IM2, numpoints=4), _in_adj_batched),
    "KbNufftAdjoint_spmat_2d": _op("KbNufftAdjoint", dict(im_size=_IM2, numpoints=4), _in_adj_spmat_2d),
    # --- interpolation only ---
    "KbInterp_2d": _op("KbInterp", dict(im_size=_IM2, grid_size=(16, 16), numpoints=4), _in_interp_2d),
    "KbInterp_spmat_3d": _op("KbInterp", dict(im_size=_IM3, grid_size=(8, 12, 10), numpoints=(2, 3, 3)),
                             _in_interp_spmat_3d),
    "KbInterpAdjoint_2d": _op("KbInterpAdjoint", dict(im_size=_IM2, grid_size=(16, 16), numpoints=4),
                              _in_interp_adj_2d),
    "KbInterpAdjoint_spmat_2d": _op("KbInterpAdjoint", dict(im_size=_IM2, numpoints=4), _in_interp_adj_spmat_2d),
    # --- Toeplitz embedding ---
    "ToepNufft_2d": _op("ToepNufft", {}, _in_toep_2d),
    "ToepNufft_sense_2d": _op("ToepNufft", {}, _in_toep_sense_2d),
    "ToepNufft_batched_kernel_sense": _op("ToepNufft", {}, _in_toep_batched_sense),
    "ToepNufft_real_ortho": _op("ToepNufft", {}, _in_toep_real_ortho),
    # --- per-trajectory precomputations inside the forward ---
    "DcompGridding_sense_2d": _dcomp_2d,
    "DcompGridding_batched_3d": _dcomp_batched_3d,
    "ToeplitzNormal_dcomp": _toeplitz_normal,
    "SpmatOnTheFly_2d": _spmat_on_the_fly,
    "ComplexMath": _complex_math,
    # --- reconstruction modules ---
    "UnrolledGD_sense_2d": _unrolled_2d,
    "UnrolledGD_spmat_3d": _unrolled_spmat_3d,
    "UnrolledToeplitz_2d": _unrolled_toeplitz,
    "GriddingCNN_2d": _gridding_cnn,
}
