"""ptwt 1.0.1 (Moritz Wolter et al.): the PyTorch wavelet toolbox, as its README, docstrings and
examples (``examples/network_compression/wavelet_linear.py``, ``continuous_signal_analysis/
adaptive_cwt.py``, the deepfake-analysis packet features) use it, tiny (batches of 2; signals of
48-128 samples, images of 16x16-32x32, volumes of 8x8x8; 1-3 levels; haar, db2-db4, sym3, coif1),
random weights, no download. Each transform sits in a small module with parameters:

- 1-D ``wavedec`` / ``waverec`` with learned per-level gains, in the boundary modes ``reflect``,
  ``zero``, ``constant`` (odd length), ``periodic`` (``axis=0``) and ``symmetric`` (odd length),
  and a wavelet-domain denoiser with a learned soft threshold per level (its loss: the MSE to the
  clean signal);
- 2-D: a denoiser on ``wavedec2`` / ``waverec2`` (``WaveletDetailTuple2d`` rebuilt, a threshold
  per level and orientation), CNNs on one level of ``wavedec2`` and of the separable
  ``fswavedec2`` (subbands stacked as channels), ``fswavedec2`` / ``fswaverec2`` in
  ``symmetric`` mode on an odd-sized image;
- 3-D: ``wavedec3`` / ``waverec3`` (``reflect``) and ``fswavedec3`` / ``fswaverec3``, the detail
  dicts scaled by learned weights;
- the sparse-matrix boundary transforms: ``MatrixWavedec`` / ``MatrixWaverec`` (``qr`` and
  ``gramschmidt`` orthogonalisation), ``MatrixWavedec2`` / ``MatrixWaverec2`` (separable and
  not), ``MatrixWavedec3`` / ``MatrixWaverec3`` (the matrices built on the first call, inside
  the compiled region);
- packets: ``WaveletPacket`` (``reflect`` and ``mode="boundary"``; nodes of a level reweighted,
  then ``reconstruct``), ``WaveletPacket2D`` (``reflect``, ``separable=True``, ``boundary``;
  ``get_natural_order`` nodes as CNN channels);
- ``swt`` / ``iswt``;
- ``cwt`` with pywt continuous wavelets (``mexh``, the complex ``cmor1.5-1.0``) as CNN features,
  and the adaptive-cwt example's learnable ``_ShannonWavelet`` / ``_ComplexMorletWavelet``
  (float64 bandwidth and center parameters) with its energy cost;
- learnable filter banks: ``ProductFilter`` / ``SoftOrthogonalWavelet`` (initialised from db2 /
  db3) used by ``wavedec`` / ``waverec`` as tensor tuples, the reconstruction error plus their
  ``wavelet_loss``, and the network-compression example's ``WaveletLayer`` (S W G P W B) in a
  small MLP.

Eval: the module's output (the denoisers and learnable-wavelet models: their loss). Train:
cross-entropy for the classifiers (``classifier_loss_module``), the own loss where there is one,
else the sum of the means of the outputs (``mean_loss_module``).

    pip install --no-deps ptwt==1.0.1
    pip install --no-deps pywavelets==1.9.0   # (+ numpy 2.4.6, scipy 1.17.1: installed)

It imports torch, numpy and pywt at the top (``pywt.Wavelet`` objects, ``dwt_max_level``, the
continuous wavelets' ``wavefun``). Nothing stubbed. The 1.9.0 wheel's ``pywt.__version__`` reads
"1.8.0" (its generated ``version.py``); pip reports 1.9.0. Measured first as it came, before any
rule looked at it.

Capture (torch 2.13.0+cpu): 30 models, 60 runs, all built; 52 ran under Dynamo (26 eval, 26
train), 8 failed under Dynamo itself: every run of the separable transforms
(``fswavedec2``: ``WaveletCNN_fswavedec2_db2``, ``Separable2d_db2_symmetric``,
``WaveletPacket2D_db2_separable``; ``fswavedec3``: ``fswavedec3_haar``) with ``TorchRuntimeError``
at ``_util._swap_axes`` (a resumed frame of the recursive ``_separable_conv_dwtn_``): Dynamo
builds the permutation ``[0, 1, 2, 1]`` for a rank-3 tensor (``[0, 2, 1]`` in eager, which runs
fine): ``_get_transpose_order``'s ``filter(lambda a: a not in axes, ...)`` came out as if
``axes`` were still the argument before its reassignment. Every run breaks: ``pywt.Wavelet(name)``
(GB0156 ``type.__new__`` of the Cython class) in ``_as_wavelet`` on each call, reported again
at its callers (``wavedec``, ``_fwt_pad2``, ``swt``, the packets' ``_deprecated_alias``
``wrapper``) and as loops skipped (GB7000); ``len()`` of a pywt ``Wavelet`` (GB6012);
``cast(Union[list[...], ...])`` in ``_coeff_tree_map`` (GB4880, subscripting ``type``); the matrix transforms' construction (``torch.sparse_coo_tensor``: GB0007,
``nonzero``: GB0036, data-dependent branches, frame skips GB0015); ``cwt`` (``wavefun``,
Cython calls, ``.item()``); and recompiles on the shapes of each level in 58 runs. First
numbers with the frozen linter (``/tmp/lint-start54``): graph-break statement recall 0.43
(21/49), precision 1.00 (35/35), 96 findings (all in files run), 61 unjudged (19 shadowed, 32
not reached, 10 one-call). No false alarm; 28 missed statements, mostly ``type.__new__`` (the
pywt Wavelet) in the transforms, the GB7000 loops around them and the matrix transforms'
frame skips.

Left out: ``wavedec`` / ``wavedec2`` on CUDA and float16 (CPU only; ptwt supports float32 and
float64), the plotting in the examples (matplotlib), the chirp data sets of the examples
(scipy ``chirp``; random signals and two sines instead), the speed tests, ``mode="boundary"`` of
the 2-D / 3-D packet transforms beyond one level, and ``ptwt.sparse_math`` helpers called
directly (they run inside the matrix transforms).
"""

import functools

PACKAGE = "ptwt"

mean_loss_module = None  # adapter.py's, set by ZooSuite
classifier_loss_module = None  # adapter.py's, set by ZooSuite

_B = 2


@functools.cache
def _modules():
    import numpy as np
    import pywt
    import torch
    from torch import nn

    import ptwt
    from ptwt.wavelets_learnable import ProductFilter, SoftOrthogonalWavelet

    class Roundtrip1d(nn.Module):
        """A learned gain, ``wavedec`` then ``waverec`` (1-D), the detail coefficients scaled by
        learned per-level weights."""

        def __init__(self, wavelet="db4", level=3, mode="reflect", axis=-1):
            super().__init__()
            self.wavelet, self.level, self.mode, self.axis = wavelet, level, mode, axis
            self.gain = nn.Parameter(torch.ones(level + 1))

        def forward(self, x):
            coeffs = ptwt.wavedec(x, self.wavelet, mode=self.mode, level=self.level, axis=self.axis)
            coeffs = [c * self.gain[i] for i, c in enumerate(coeffs)]
            return ptwt.waverec(coeffs, self.wavelet, axis=self.axis)

    class Denoiser1d(nn.Module):
        """Wavelet-domain denoising with a learned soft threshold per level (the classic
        wavelet shrinkage with trainable thresholds): analysis, soft-thresholding of the detail
        coefficients, synthesis; the loss is the MSE to the clean signal."""

        def __init__(self, wavelet="db2", level=3, mode="reflect"):
            super().__init__()
            self.wavelet, self.level, self.mode = wavelet, level, mode
            self.log_thresh = nn.Parameter(torch.full((level,), -2.0))

        def denoise(self, noisy):
            approx, *details = ptwt.wavedec(noisy, self.wavelet, mode=self.mode, level=self.level)
            thresh = self.log_thresh.exp()
            shrunk = [torch.sign(d) * torch.relu(d.abs() - thresh[i]) for i, d in enumerate(details)]
            rec = ptwt.waverec([approx, *shrunk], self.wavelet)
            return rec[..., : noisy.shape[-1]]

        def forward(self, noisy, clean):
            return ((self.denoise(noisy) - clean) ** 2).mean()

    class Denoiser2d(nn.Module):
        """The 2-D version: ``wavedec2`` / ``waverec2``, a learned threshold per level and
        orientation (horizontal, vertical, diagonal), ``WaveletDetailTuple2d`` rebuilt."""

        def __init__(self, wavelet="haar", level=2, mode="reflect"):
            super().__init__()
            self.wavelet, self.level, self.mode = wavelet, level, mode
            self.log_thresh = nn.Parameter(torch.full((level, 3), -2.0))

        def forward(self, noisy, clean):
            approx, *details = ptwt.wavedec2(noisy, self.wavelet, mode=self.mode, level=self.level)
            thresh = self.log_thresh.exp()
            out = [approx]
            for i, det in enumerate(details):
                out.append(ptwt.WaveletDetailTuple2d(
                    *(torch.sign(d) * torch.relu(d.abs() - thresh[i, j]) for j, d in enumerate(det))))
            rec = ptwt.waverec2(out, self.wavelet)
            return ((rec[..., : noisy.shape[-2], : noisy.shape[-1]] - clean) ** 2).mean()

    class WaveletCNN(nn.Module):
        """A CNN on wavelet coefficients (as the deepfake-detection example classifies packet or
        ``wavedec2`` coefficients): a one-level ``wavedec2`` (or ``fswavedec2``), the four
        subbands stacked as channels, two convolutions and a linear head."""

        def __init__(self, wavelet="haar", mode="reflect", separable=False, channels=1, classes=3):
            super().__init__()
            self.wavelet, self.mode, self.separable = wavelet, mode, separable
            self.net = nn.Sequential(nn.Conv2d(4 * channels, 8, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, classes))

        def forward(self, x):
            if self.separable:
                approx, det = ptwt.fswavedec2(x, self.wavelet, mode=self.mode, level=1)
                bands = [approx] + [det[k] for k in sorted(det)]
            else:
                approx, det = ptwt.wavedec2(x, self.wavelet, mode=self.mode, level=1)
                bands = [approx, det.horizontal, det.vertical, det.diagonal]
            return self.net(torch.cat(bands, dim=1))

    class PacketCNN(nn.Module):
        """The deepfake-analysis example's packet features: a ``WaveletPacket2D`` of an image
        batch, the level's nodes in frequency order stacked as channels (log-magnitudes), a
        small CNN and a linear head."""

        def __init__(self, wavelet="haar", mode="reflect", level=2, separable=False, classes=3):
            super().__init__()
            self.wavelet, self.mode, self.level, self.separable = wavelet, mode, level, separable
            self.net = nn.Sequential(nn.Conv2d(4 ** level, 8, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, classes))

        def forward(self, x):
            wp = ptwt.WaveletPacket2D(x, self.wavelet, mode=self.mode, maxlevel=self.level,
                                      separable=self.separable)
            nodes = [wp[n] for n in ptwt.WaveletPacket2D.get_natural_order(self.level)]
            feats = torch.stack(nodes, dim=1)
            return self.net(torch.log(feats.abs() + 1e-6))

    class Packet1d(nn.Module):
        """A 1-D ``WaveletPacket`` of a signal batch: the level's nodes in frequency order, a
        learned weight per node, the ``reconstruct`` of the weighted leaves."""

        def __init__(self, wavelet="db2", mode="reflect", level=2):
            super().__init__()
            self.wavelet, self.mode, self.level = wavelet, mode, level
            self.w = nn.Parameter(torch.ones(2 ** level))

        def forward(self, x):
            wp = ptwt.WaveletPacket(x, self.wavelet, mode=self.mode, maxlevel=self.level)
            nodes = wp.get_level(self.level)
            for i, n in enumerate(nodes):
                wp[n] = wp[n] * self.w[i]
            wp.reconstruct()
            return wp[""]

    class Matrix1d(nn.Module):
        """The sparse-matrix boundary-wavelet transforms: ``MatrixWavedec`` then
        ``MatrixWaverec`` (1-D), a learned per-level gain between them."""

        def __init__(self, wavelet="db2", level=2, orthogonalization="qr"):
            super().__init__()
            self.dec = ptwt.MatrixWavedec(wavelet, level, orthogonalization=orthogonalization)
            self.rec = ptwt.MatrixWaverec(wavelet, orthogonalization=orthogonalization)
            self.gain = nn.Parameter(torch.ones(level + 1))

        def forward(self, x):
            coeffs = self.dec(x)
            return self.rec([c * self.gain[i] for i, c in enumerate(coeffs)])

    class Matrix2d(nn.Module):
        """``MatrixWavedec2`` / ``MatrixWaverec2`` (separable or not), a learned gain on the
        approximation."""

        def __init__(self, wavelet="haar", level=2, separable=True):
            super().__init__()
            self.dec = ptwt.MatrixWavedec2(wavelet, level, separable=separable)
            self.rec = ptwt.MatrixWaverec2(wavelet, separable=separable)
            self.gain = nn.Parameter(torch.ones(()))

        def forward(self, x):
            approx, *details = self.dec(x)
            return self.rec((approx * self.gain, *details))

    class Matrix3d(nn.Module):
        """``MatrixWavedec3`` / ``MatrixWaverec3`` on volumes, a learned gain on the
        approximation."""

        def __init__(self, wavelet="haar", level=1):
            super().__init__()
            self.dec = ptwt.MatrixWavedec3(wavelet, level)
            self.rec = ptwt.MatrixWaverec3(wavelet)
            self.gain = nn.Parameter(torch.ones(()))

        def forward(self, x):
            approx, *details = self.dec(x)
            return self.rec((approx * self.gain, *details))

    class Volume3d(nn.Module):
        """``wavedec3`` / ``waverec3`` (or the separable ``fswavedec3`` / ``fswaverec3``) on
        volumes, the detail dicts (``"aad"`` ... ``"ddd"``) scaled by a learned weight."""

        def __init__(self, wavelet="haar", level=2, mode="zero", separable=False):
            super().__init__()
            self.wavelet, self.level, self.mode, self.separable = wavelet, level, mode, separable
            self.w = nn.Parameter(torch.ones(7))

        def forward(self, x):
            dec = ptwt.fswavedec3 if self.separable else ptwt.wavedec3
            rec = ptwt.fswaverec3 if self.separable else ptwt.waverec3
            approx, *details = dec(x, self.wavelet, mode=self.mode, level=self.level)
            out = [approx]
            for det in details:
                out.append({k: v * self.w[i] for i, (k, v) in enumerate(sorted(det.items()))})
            return rec(tuple(out), self.wavelet)

    class Separable2d(nn.Module):
        """``fswavedec2`` / ``fswaverec2`` with a learned gain on the detail dicts."""

        def __init__(self, wavelet="db2", level=2, mode="symmetric"):
            super().__init__()
            self.wavelet, self.level, self.mode = wavelet, level, mode
            self.gain = nn.Parameter(torch.ones(level))

        def forward(self, x):
            approx, *details = ptwt.fswavedec2(x, self.wavelet, mode=self.mode, level=self.level)
            out = [approx] + [{k: v * self.gain[i] for k, v in d.items()} for i, d in enumerate(details)]
            return ptwt.fswaverec2(tuple(out), self.wavelet)

    class Stationary(nn.Module):
        """``swt`` / ``iswt`` (the undecimated transform: circular padding, dilated filters), a
        learned gain per level."""

        def __init__(self, wavelet="db2", level=2):
            super().__init__()
            self.wavelet, self.level = wavelet, level
            self.gain = nn.Parameter(torch.ones(level + 1))

        def forward(self, x):
            coeffs = ptwt.swt(x, self.wavelet, level=self.level)
            return ptwt.iswt([c * self.gain[i] for i, c in enumerate(coeffs)], self.wavelet)

    class CwtFeatures(nn.Module):
        """A continuous wavelet transform scalogram (``cwt`` with numpy scales, a pywt
        continuous wavelet: ``"mexh"``, ``"morl"``, the complex ``"cmor1.5-1.0"``) fed to a
        small CNN."""

        def __init__(self, wavelet="mexh", scales=16, classes=3):
            super().__init__()
            self.wavelet, self.scales = wavelet, np.arange(1, scales + 1)
            self.net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, classes))

        def forward(self, x):
            scalogram, _ = ptwt.cwt(x, self.scales, self.wavelet, sampling_period=1.0 / 64)
            mag = scalogram.abs() if scalogram.is_complex() else scalogram
            return self.net(mag.permute(1, 0, 2).unsqueeze(1).float())

    class AdaptiveCwt(nn.Module):
        """The adaptive-cwt example: a learnable continuous wavelet (``_ShannonWavelet`` /
        ``_ComplexMorletWavelet``: bandwidth and center as parameters, float64) and its cost,
        the energy mismatch between the signal and the scalogram plus a norm penalty."""

        def __init__(self, kind="shan", name="shan1-1", scales=12):
            super().__init__()
            from ptwt.continuous_transform import _ComplexMorletWavelet, _ShannonWavelet

            cls = _ShannonWavelet if kind == "shan" else _ComplexMorletWavelet
            self.wavelet = cls(name=name)
            self.scales = np.arange(1, scales + 1)

        def forward(self, sig):
            cwtmatr, _ = ptwt.cwt(sig, self.scales, self.wavelet, sampling_period=(4 / 256) * np.pi)
            norm = torch.linalg.norm(torch.abs(cwtmatr))
            energy = torch.sum(torch.abs(cwtmatr) ** 2)
            return torch.abs(torch.sum(sig * sig) - energy) + 1e-5 * norm

    class LearnedWaveletAE(nn.Module):
        """A learnable filter bank (``ProductFilter`` or ``SoftOrthogonalWavelet``, initialised
        from a pywt wavelet) used by ``wavedec`` / ``waverec`` as a tuple of tensors: the
        reconstruction error plus the filter bank's ``wavelet_loss`` (perfect reconstruction,
        alias cancellation, orthogonality), as the network-compression example trains it."""

        def __init__(self, kind="product", name="db2", level=2):
            super().__init__()
            w = pywt.Wavelet(name)
            cls = ProductFilter if kind == "product" else SoftOrthogonalWavelet
            self.filt = cls(*(torch.tensor(f, dtype=torch.float32) for f in w.filter_bank))
            self.level = level

        def forward(self, x):
            coeffs = ptwt.wavedec(x, self.filt.filter_bank, mode="zero", level=self.level)
            rec = ptwt.waverec(coeffs, self.filt.filter_bank)[..., : x.shape[-1]]
            return ((rec - x) ** 2).mean() + self.filt.wavelet_loss()

    class WaveletLayer(nn.Module):
        """The network-compression example's ``WaveletLayer`` (Wolter et al. 2020), tiny: a
        linear layer parametrised by S W G P W B (learned diagonals, a fixed permutation, and a
        learnable-wavelet analysis / synthesis with ``wavedec`` / ``waverec``), in a two-layer
        MLP."""

        def __init__(self, depth=32, scales=2, name="db2", classes=3):
            super().__init__()
            w = pywt.Wavelet(name)
            self.filt = ProductFilter(*(torch.tensor(f, dtype=torch.float32) for f in w.filter_bank))
            lens = [depth]
            for _ in range(scales):
                lens.append(pywt.dwt_coeff_len(lens[-1], len(w.dec_lo), "zero"))
            lens = lens[1:]
            lens.append(lens[-1])
            self.lens, self.scales = lens, scales
            wave_depth = int(sum(lens))
            self.b = nn.Parameter(torch.ones(depth))
            self.g = nn.Parameter(torch.ones(wave_depth))
            self.s = nn.Parameter(torch.ones(depth))
            self.register_buffer("perm", torch.eye(wave_depth)[torch.randperm(wave_depth)])
            self.drop = nn.Dropout(0.5)
            self.inp = nn.Linear(16, depth)
            self.out = nn.Linear(depth, classes)

        def forward(self, x):
            h = self.inp(x)
            h = torch.mm(h, self.drop(torch.diag(self.b)))
            c_lst = ptwt.wavedec(h.unsqueeze(1), self.filt.filter_bank, mode="zero", level=self.scales)
            c = torch.cat(c_lst, -1).squeeze(1)
            c = torch.mm(torch.mm(c, self.perm), self.drop(torch.diag(self.g)))
            coeff_lst, start = [], 0
            for s in range(self.scales + 1):
                stop = start + self.lens[::-1][s]
                coeff_lst.append(c[..., start:stop])
                start = stop
            y = ptwt.waverec(coeff_lst, self.filt.filter_bank)[..., : h.shape[-1]]
            y = torch.mm(y, self.drop(torch.diag(self.s)))
            return self.out(torch.relu(y))

    return {k: v for k, v in locals().items() if isinstance(v, type)}


def _sig(n=64, batch=_B):
    import torch

    return torch.randn(batch, n)


def _img(c=1, h=32, w=32, batch=_B):
    import torch

    return torch.randn(batch, c, h, w)


def _mean(cls, inputs, **kwargs):
    """``cls(**kwargs)`` on ``inputs()``; train: the sum of the means of its outputs."""

    def make(mode):
        net = _modules()[cls](**kwargs)
        if mode == "train":
            net = mean_loss_module()(net)
        return net, inputs(), {}

    return make


def _own_loss(cls, inputs, **kwargs):
    """A module whose forward is its loss (eval and train alike)."""

    def make(mode):
        return _modules()[cls](**kwargs), inputs(), {}

    return make


def _classifier(cls, inputs, **kwargs):
    def make(mode):
        net = _modules()[cls](**kwargs)
        x = inputs()
        if mode == "train":
            net = classifier_loss_module()(net, x[0].shape[0], 3)
        return net, x, {}

    return make


def _noisy(shape):
    def inputs():
        import torch

        clean = torch.sin(torch.linspace(0, 12.0, shape[-1])).expand(*shape).contiguous()
        return clean + 0.1 * torch.randn(shape), clean

    return inputs


def _chirp(n=256):
    def inputs():
        import numpy as np
        import torch

        t = np.linspace(-2, 2, n, endpoint=False)
        return (torch.from_numpy(np.sin(t * 3 * np.pi) + np.sin(t * 10 * np.pi)),)

    return inputs


def _one(fn, *args, **kwargs):
    return lambda: (fn(*args, **kwargs),)


MODELS = {
    # --- 1-D fast wavelet transform, the boundary modes ---
    "wavedec_db4_reflect": _mean("Roundtrip1d", _one(_sig), wavelet="db4", mode="reflect"),
    "wavedec_sym3_zero": _mean("Roundtrip1d", _one(_sig), wavelet="sym3", mode="zero"),
    "wavedec_db3_constant": _mean("Roundtrip1d", _one(_sig, 63), wavelet="db3", mode="constant"),
    "wavedec_haar_periodic_axis0": _mean("Roundtrip1d", _one(_sig, 3, 64), wavelet="haar", mode="periodic",
                                         axis=0),
    "wavedec_coif1_symmetric": _mean("Roundtrip1d", _one(_sig, 65), wavelet="coif1", mode="symmetric"),
    "Denoiser1d_db2": _own_loss("Denoiser1d", _noisy((_B, 128))),
    # --- 2-D ---
    "Denoiser2d_haar": _own_loss("Denoiser2d", _noisy((_B, 32, 32))),
    "WaveletCNN_wavedec2": _classifier("WaveletCNN", _one(_img)),
    "WaveletCNN_fswavedec2_db2": _classifier("WaveletCNN", _one(_img, 3), wavelet="db2", separable=True,
                                             channels=3),
    "Separable2d_db2_symmetric": _mean("Separable2d", _one(_img, 1, 28, 30)),
    # --- 3-D ---
    "wavedec3_db2_reflect": _mean("Volume3d", _one(_img, 8, 8, 8), wavelet="db2", level=1, mode="reflect"),
    "fswavedec3_haar": _mean("Volume3d", _one(_img, 8, 8, 8), separable=True),
    # --- matrix (boundary wavelet) transforms ---
    "MatrixWavedec_db2_qr": _mean("Matrix1d", _one(_sig, 64)),
    "MatrixWavedec_db3_gramschmidt": _mean("Matrix1d", _one(_sig, 48), wavelet="db3",
                                           orthogonalization="gramschmidt"),
    "MatrixWavedec2_haar_separable": _mean("Matrix2d", _one(lambda: _img(1, 16, 16)[:, 0])),
    "MatrixWavedec2_db2_nonseparable": _mean("Matrix2d", _one(lambda: _img(1, 16, 16)[:, 0]), wavelet="db2",
                                             level=1, separable=False),
    "MatrixWavedec3_haar": _mean("Matrix3d", _one(lambda: _img(8, 8, 8)[:, 0])),
    # --- packets ---
    "WaveletPacket_db2_reflect": _mean("Packet1d", _one(_sig, 64)),
    "WaveletPacket_haar_boundary": _mean("Packet1d", _one(_sig, 32), wavelet="haar", mode="boundary"),
    "WaveletPacket2D_haar": _classifier("PacketCNN", _one(lambda: _img(1, 32, 32)[:, 0])),
    "WaveletPacket2D_db2_separable": _classifier("PacketCNN", _one(lambda: _img(1, 32, 32)[:, 0]), wavelet="db2",
                                                 separable=True),
    "WaveletPacket2D_haar_boundary": _classifier("PacketCNN", _one(lambda: _img(1, 16, 16)[:, 0]),
                                                 mode="boundary", level=1),
    # --- stationary ---
    "swt_db2": _mean("Stationary", _one(_sig, 64)),
    # --- continuous ---
    "cwt_mexh": _classifier("CwtFeatures", _one(_sig, 128)),
    "cwt_cmor": _classifier("CwtFeatures", _one(_sig, 128), wavelet="cmor1.5-1.0"),
    "cwt_learnable_shannon": _own_loss("AdaptiveCwt", _chirp()),
    "cwt_learnable_cmor": _own_loss("AdaptiveCwt", _chirp(), kind="cmor", name="cmor1.0-1.0"),
    # --- learnable wavelets ---
    "ProductFilter_db2": _own_loss("LearnedWaveletAE", _one(lambda: _sig(64).unsqueeze(1))),
    "SoftOrthogonalWavelet_db3": _own_loss("LearnedWaveletAE", _one(lambda: _sig(64).unsqueeze(1)),
                                           kind="soft", name="db3"),
    "WaveletLayer_MLP": _classifier("WaveletLayer", _one(_sig, 16)),
}
