"""diffsptk 4.0.1 (SPTK Working Group, Nagoya Institute of Technology): differentiable speech signal
processing, its ``nn.Module`` classes as its README's examples (mel-cepstral analysis and
synthesis, WORLD analysis and synthesis, LPC analysis and synthesis, mel-spectrogram analysis and
Griffin-Lim, subband decomposition, gammatone and fractional-octave filter banks, MDCT) and its
tests (``tests/test_*.py``: the MLSA filter's four modes, ``Aperiodicity`` with ``tandem`` and
``d4c``, ``PitchAdaptiveSpectralAnalysis``, ``WorldSynthesis``, ``GMM``, ``VectorQuantization``,
``DRC``, ...) use them, tiny (2 clips of 1600 samples at 16 kHz, a frame period of 80 samples:
21 frames, frames of 400, FFTs of 512, cepstra of order 24), random signals (a 150 Hz
sawtooth-like tone plus noise), no download:

- framing and transforms: ``STFT`` (magnitude; learnable window in train),
  ``STFT`` -> ``ISTFT`` (complex), ``Frame`` -> ``Window`` -> ``Spectrum``, ``MDCT`` -> ``IMDCT``,
  ``ZeroCrossingAnalysis``, ``Yingram``;
- cepstral analysis: ``MelCepstralAnalysis`` (README: on the STFT power, ``n_iter=3``),
  ``MelGeneralizedCepstralAnalysis`` (gamma -0.5), ``CepstralAnalysis``,
  ``MelGeneralizedCepstrumToMelGeneralizedCepstrum``, ``MelGeneralizedCepstrumToSpectrum``,
  ``MelCepstrumPostfiltering``;
- the MLSA filter (``MLSA``) in its four modes as ``test_mglsadf.py`` builds it (``multi-stage``
  Taylor, ``single-stage`` impulse response, ``freq-domain``, ``pade-approx`` through torchlpc),
  its inverse ``IMLSA``, and the README's analysis-synthesis chain ``mlsa(mlsa(x, -mc), mc)``,
  plus ``ExcitationGeneration`` from a pitch contour into the MLSA filter (README);
- LPC: the README's chain ``Frame`` -> ``Window`` -> ``LPC`` ->
  ``AllPoleToAllZeroDigitalFilterCoefficients`` -> ``AllZeroDigitalFilter`` ->
  ``AllPoleDigitalFilter`` (torchlpc); ``LPC`` ->
  ``LinearPredictiveCoefficientsToParcorCoefficients`` -> ``ParcorCoefficientsToLinearPredictiveCoefficients``;
- filter banks: ``FBANK``, ``MFCC``, ``PLP``, the README's ``FBANK`` -> ``IFBANK`` ->
  ``GriffinLim`` (4 iterations), ``PQMF`` -> ``Decimation`` -> ``Interpolation`` -> ``IPQMF``,
  ``GammatoneFilterBankAnalysis`` -> ``GammatoneFilterBankSynthesis``,
  ``FractionalOctaveBandAnalysis``;
- WORLD: ``Aperiodicity`` (``tandem``; ``d4c``), ``PitchAdaptiveSpectralAnalysis``
  (``cheap-trick``), ``WorldSynthesis`` and the README's whole analysis-synthesis chain;
- statistics and modelling: ``Delta`` -> ``MLPG``, ``GMM`` (3 EM iterations), ``DTW`` (soft),
  ``VectorQuantization`` (vector-quantize-pytorch), ``DRC`` (torchcomp; learnable).

Eval: the modules' outputs. Train: ``VectorQuantization``'s own commitment loss plus the mean of
its output; ``mean_loss_module`` (the sum of the means of the float outputs) for the rest (the
library has no loss); ``STFT``, ``FBANK``, ``MFCC``, ``PQMF``, ``MDCT`` and ``DRC`` are built
``learnable=True`` in train (a learnable front end, as their ``learnable`` option offers).

    pip install --no-deps diffsptk==4.0.1
    pip install --no-deps torchlpc==0.6 torchcomp==0.2.1   # AllPoleDigitalFilter, MLSA pade-approx,
                                                             # DRC (numba, numpy: installed)
    # (scipy 1.17.1, mpmath 1.3.0, tqdm 4.70.1, vector-quantize-pytorch 1.32.0: installed)

Stubbed (``stub_modules``): ``torchaudio`` (``diffsptk.utils.private`` imports it at its top for
``torchaudio.functional.lfilter``; ``modules/pitch.py``, ``cqt.py`` and ``icqt.py`` for
``torchaudio.transforms.Resample``): the only torchaudio wheel on PyPI does not load its compiled
ops into torch 2.13, so it is not installed; and ``soundfile`` (``diffsptk.utils.public`` imports
it for ``diffsptk.read`` / ``write``: compiled, not installed; no model reads or writes audio).
Capture (torch 2.13.0+cpu): 38 models, 76 runs, all built; 8 runs failed under Dynamo itself
(``MLSA_pade_approx``, ``readme_lpc_analysis_synthesis`` and ``DRC``, both modes: ``AssertionError:
exception table entry start instruction has no offset from user code`` in numba's dispatcher,
torchlpc's / torchcomp's ``@njit`` kernels; ``GMM``, both modes: ``TypeError: Concatenation
operation is not implemented for NumPy arrays``); 24 runs break. Measured first as it came, with
the frozen start-of-stop-57 linter, before any rule looked at it.

So left out: ``Pitch`` (CREPE / FCNF0: ``Resample``; FCNF0 also needs penn), ``CQT`` / ``ICQT``
(``Resample``), every IIR path through ``lfilter``: ``IIR`` with poles,
``LinearPredictiveCoefficientsToLineSpectralPairs`` (``deconv1d``), STRAIGHT spectral analysis
(``pylstraight`` too); ``LineSpectralPairsToLinearPredictiveCoefficients`` (dropped: on float32
sorted LSPs it raised ``Input type (CPUComplexFloatType) and weight type (torch.FloatTensor)
should be the same`` eagerly); and the file helpers ``read`` / ``write``.
"""

import functools

PACKAGE = "diffsptk"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None  # adapter.py's, set by ZooSuite

_B, _T, _SR, _P, _FL, _NFFT, _M = 2, 1600, 16000, 80, 400, 512, 24
_N = _T // _P  # frames (center=True)
_ALPHA = 0.42  # diffsptk.get_alpha(16000)


def before_build():
    stub_modules({
        "torchaudio": ((), ()),
        "torchaudio.functional": (("lfilter", "resample"), ()),
        "torchaudio.transforms": ((), ("Resample",)),
        "soundfile": (("read", "write", "info"), ("SoundFile",)),
    }, "diffsptk")


def warm_up():
    before_build()
    import torch  # noqa: F401

    import diffsptk  # noqa: F401


@functools.cache
def _pipeline_cls():
    from torch import nn

    class Pipeline(nn.Module):
        """Submodules (registered, so they follow eval / train) and a function chaining them as
        the README's examples do."""

        def __init__(self, fn, **mods):
            super().__init__()
            self.fn = fn
            self.mods = nn.ModuleDict(mods)

        def forward(self, *args):
            return self.fn(self.mods, *args)

    return Pipeline


def _wave(batch=_B, n=_T, dtype=None):
    import torch

    t = torch.arange(n) / _SR
    x = sum(torch.sin(2 * torch.pi * 150.0 * k * t) / k for k in range(1, 6))
    x = x.expand(batch, n) + 0.05 * torch.randn(batch, n)
    return x.to(dtype) if dtype is not None else x


def _f0(batch=_B, n=_N, dtype=None):
    import torch

    f0 = torch.full((batch, n), 150.0) + 10 * torch.randn(batch, n)
    f0[:, :3] = 0.0  # unvoiced onset
    return f0.to(dtype) if dtype is not None else f0


def _power(batch=_B):
    import diffsptk

    return diffsptk.STFT(frame_length=_FL, frame_period=_P, fft_length=_NFFT)(_wave(batch))


def _mcep(batch=_B, order=_M):
    import torch

    mc = 0.1 * torch.randn(batch, _N, order + 1)
    mc[..., 0] = -1.0
    return mc


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _module(build, args):
    """One diffsptk module; build(mode) -> module, args() -> inputs."""

    def make(mode):
        return _wrap(build(mode), mode), args(), {}

    return make


def _pipe(fn, mods, args):
    """A README chain: mods(mode) -> {name: module}, fn(mods, *args)."""

    def make(mode):
        return _wrap(_pipeline_cls()(fn, **mods(mode)), mode), args(), {}

    return make


def _learn(mode):
    return mode == "train"


# --- transforms ---

def _stft(mode):
    import diffsptk

    return diffsptk.STFT(frame_length=_FL, frame_period=_P, fft_length=_NFFT, out_format="magnitude",
                         learnable=_learn(mode))


def _stft_istft_mods(mode):
    import diffsptk

    params = {"frame_length": _FL, "frame_period": _P, "fft_length": _NFFT}
    return {"stft": diffsptk.STFT(**params, out_format="complex"), "istft": diffsptk.ISTFT(**params)}


def _stft_istft(m, x):
    return m["istft"](m["stft"](x), out_length=x.size(-1))


def _frame_window_mods(mode):
    import diffsptk

    return {"frame": diffsptk.Frame(frame_length=_FL, frame_period=_P),
            "window": diffsptk.Window(in_length=_FL, out_length=_NFFT, window="hamming"),
            "spec": diffsptk.Spectrum(_NFFT, eps=1e-8, out_format="db")}


def _frame_window(m, x):
    return m["spec"](m["window"](m["frame"](x)))


def _mdct_mods(mode):
    import diffsptk

    return {"mdct": diffsptk.MDCT(256, learnable=_learn(mode)), "imdct": diffsptk.IMDCT(256)}


def _mdct(m, x):
    return m["imdct"](m["mdct"](x), out_length=x.size(-1))


def _zcross(mode):
    import diffsptk

    return diffsptk.ZeroCrossingAnalysis(_FL, norm=True)


def _yingram(mode):
    import diffsptk

    return diffsptk.Yingram(_FL, sample_rate=_SR, lag_min=22, lag_max=200, n_bin=20)


def _frames():
    import diffsptk

    return (diffsptk.Frame(_FL, _P)(_wave()),)


# --- cepstral analysis ---

def _mcep_analysis(mode):
    import diffsptk

    return diffsptk.MelCepstralAnalysis(fft_length=_NFFT, cep_order=_M, alpha=_ALPHA, n_iter=3)


def _mgcep(mode):
    import diffsptk

    return diffsptk.MelGeneralizedCepstralAnalysis(fft_length=_NFFT, cep_order=_M, alpha=_ALPHA, gamma=-0.5,
                                                   n_iter=3)


def _cep(mode):
    import diffsptk

    return diffsptk.CepstralAnalysis(fft_length=_NFFT, cep_order=_M, n_iter=3)


def _mgc2mgc(mode):
    import diffsptk

    return diffsptk.MelGeneralizedCepstrumToMelGeneralizedCepstrum(_M, 30, in_alpha=_ALPHA, out_alpha=0.0,
                                                                   in_gamma=0.0, out_gamma=-0.5, n_fft=512)


def _mgc2sp(mode):
    import diffsptk

    return diffsptk.MelGeneralizedCepstrumToSpectrum(_M, _NFFT, alpha=_ALPHA, gamma=0.0, out_format="db")


def _mcpf(mode):
    import diffsptk

    return diffsptk.MelCepstrumPostfiltering(_M, alpha=_ALPHA, beta=0.4)


# --- MLSA ---

_MLSA_PARAMS = {
    "multi-stage": {"taylor_order": 7, "cep_order": 100},
    "single-stage": {"ir_length": 200, "n_fft": 512},
    "freq-domain": {"frame_length": _NFFT, "fft_length": _NFFT, "window": "hamming"},
    "pade-approx": {"pade_order": 5, "cep_order": 100},
}


def _mlsa(mlsa_mode):
    def build(mode):
        import diffsptk

        return diffsptk.MLSA(_M, _P, alpha=_ALPHA, mode=mlsa_mode, **_MLSA_PARAMS[mlsa_mode])

    return build


def _imlsa(mode):
    import diffsptk

    return diffsptk.IMLSA(_M, _P, alpha=_ALPHA, taylor_order=7, cep_order=100)


def _readme_mcep_mods(mode):
    import diffsptk

    return {"stft": diffsptk.STFT(frame_length=_FL, frame_period=_P, fft_length=_NFFT),
            "mcep": diffsptk.MelCepstralAnalysis(fft_length=_NFFT, cep_order=_M, alpha=_ALPHA, n_iter=3),
            "mlsa": diffsptk.MLSA(filter_order=_M, frame_period=_P, alpha=_ALPHA, taylor_order=20)}


def _readme_mcep(m, x):
    mc = m["mcep"](m["stft"](x))
    x_hat = m["mlsa"](m["mlsa"](x, -mc), mc)
    return x_hat, (x_hat - x).abs().sum()


def _excite_mods(mode):
    import diffsptk

    return {"excite": diffsptk.ExcitationGeneration(frame_period=_P),
            "mlsa": diffsptk.MLSA(filter_order=_M, frame_period=_P, alpha=_ALPHA, taylor_order=20)}


def _excite(m, p, mc):
    e = m["excite"](p)
    return m["mlsa"](e, mc)


def _pitch_period():
    import torch

    f0 = _f0()
    return (torch.where(f0 > 0, _SR / f0.clamp(min=1.0), torch.zeros_like(f0)), _mcep())


# --- LPC ---

def _readme_lpc_mods(mode):
    import diffsptk

    return {"frame": diffsptk.Frame(frame_length=_FL, frame_period=_P),
            "window": diffsptk.Window(in_length=_FL),
            "lpc": diffsptk.LPC(frame_length=_FL, lpc_order=_M, eps=1e-5),
            "norm0": diffsptk.AllPoleToAllZeroDigitalFilterCoefficients(filter_order=_M),
            "zerodf": diffsptk.AllZeroDigitalFilter(filter_order=_M, frame_period=_P),
            "poledf": diffsptk.AllPoleDigitalFilter(filter_order=_M, frame_period=_P)}


def _readme_lpc(m, x):
    a = m["lpc"](m["window"](m["frame"](x)))
    b = m["norm0"](a)
    x_hat = m["poledf"](m["zerodf"](x, b), a)
    return x_hat, (x_hat - x).abs().sum()


def _lpc_par_mods(mode):
    import diffsptk

    return {"window": diffsptk.Window(in_length=_FL),
            "lpc": diffsptk.LPC(frame_length=_FL, lpc_order=_M, eps=1e-5),
            "lpc2par": diffsptk.LinearPredictiveCoefficientsToParcorCoefficients(_M),
            "par2lpc": diffsptk.ParcorCoefficientsToLinearPredictiveCoefficients(_M)}


def _lpc_par(m, frames):
    k = m["lpc2par"](m["lpc"](m["window"](frames)))
    return k, m["par2lpc"](k)


# --- filter banks ---

def _fbank(mode):
    import diffsptk

    return diffsptk.FBANK(fft_length=_NFFT, n_channel=40, sample_rate=_SR, learnable=_learn(mode))


def _mfcc(mode):
    import diffsptk

    return diffsptk.MFCC(fft_length=_NFFT, mfcc_order=13, n_channel=40, sample_rate=_SR, lifter=22,
                         out_format="yE", learnable=_learn(mode))


def _plp(mode):
    import diffsptk

    return diffsptk.PLP(fft_length=_NFFT, plp_order=12, n_channel=40, sample_rate=_SR, lifter=22)


def _readme_melspec_mods(mode):
    import diffsptk

    return {"stft": diffsptk.STFT(frame_length=_FL, frame_period=_P, fft_length=_NFFT),
            "fbank": diffsptk.FBANK(fft_length=_NFFT, n_channel=40, sample_rate=_SR),
            "ifbank": diffsptk.IFBANK(n_channel=40, fft_length=_NFFT, sample_rate=_SR),
            "griffin": diffsptk.GriffinLim(frame_length=_FL, frame_period=_P, fft_length=_NFFT, n_iter=4)}


def _readme_melspec(m, x):
    y = m["fbank"](m["stft"](x))
    x_hat = m["griffin"](m["ifbank"](y), out_length=x.size(-1))
    return x_hat


def _readme_subband_mods(mode):
    import diffsptk

    return {"pqmf": diffsptk.PQMF(4, 40, learnable=_learn(mode)), "decimate": diffsptk.Decimation(4),
            "interpolate": diffsptk.Interpolation(4), "ipqmf": diffsptk.IPQMF(4, 40)}


def _readme_subband(m, x):
    y = m["decimate"](m["pqmf"](x))
    return m["ipqmf"](m["interpolate"](4 * y)).reshape(x.shape)


def _readme_gammatone_mods(mode):
    import diffsptk

    return {"gammatone": diffsptk.GammatoneFilterBankAnalysis(_SR),
            "igammatone": diffsptk.GammatoneFilterBankSynthesis(_SR)}


def _readme_gammatone(m, x):
    y = m["gammatone"](x)
    return y, m["igammatone"](y).reshape(x.shape)


def _oband(mode):
    import diffsptk

    return diffsptk.FractionalOctaveBandAnalysis(_SR, filter_order=100, n_fract=1)


# --- WORLD ---

def _ap(algorithm):
    def build(mode):
        import diffsptk

        params = {"threshold": 0.01} if algorithm == "d4c" else {}
        return diffsptk.Aperiodicity(_P, _SR, _NFFT, algorithm, out_format="a", **params)

    return build


def _pitch_spec(mode):
    import diffsptk

    return diffsptk.PitchAdaptiveSpectralAnalysis(_P, _SR, 1024, algorithm="cheap-trick", out_format="power")


def _world_synth(mode):
    import diffsptk

    return diffsptk.WorldSynthesis(_P, _SR, 1024)


def _world_synth_args():
    import torch

    n = 1024 // 2 + 1
    ap = torch.rand(_B, _N, n) * 0.5
    sp = torch.rand(_B, _N, n) + 0.1
    return _f0(), ap, sp


def _readme_world_mods(mode):
    import diffsptk

    return {"ap": diffsptk.Aperiodicity(frame_period=_P, sample_rate=_SR, fft_length=1024, algorithm="d4c",
                                        out_format="a"),
            "pitch_spec": diffsptk.PitchAdaptiveSpectralAnalysis(frame_period=_P, sample_rate=_SR, fft_length=1024,
                                                                 algorithm="cheap-trick", out_format="power"),
            "world_synth": diffsptk.WorldSynthesis(frame_period=_P, sample_rate=_SR, fft_length=1024)}


def _readme_world(m, x, f0):
    A = m["ap"](x, f0)
    S = m["pitch_spec"](x, f0)
    x_hat = m["world_synth"](f0, A, S)
    return x_hat


# --- statistics, modelling ---

def _delta_mlpg_mods(mode):
    import diffsptk

    return {"delta": diffsptk.Delta([[-0.5, 0, 0.5], [1, -2, 1]]),
            "mlpg": diffsptk.MLPG(_N, [[-0.5, 0, 0.5], [1, -2, 1]])}


def _delta_mlpg(m, c):
    return m["mlpg"](m["delta"](c))


def _gmm(mode):
    import diffsptk

    return diffsptk.GMM(3, 2, n_iter=3, var_type="diag")


def _gmm_args():
    import torch

    return (torch.cat([torch.randn(40, 4) - 2, torch.randn(40, 4) + 2]),)


def _dtw(mode):
    import diffsptk

    return diffsptk.DTW(metric="euclidean", softness=1e-1)


def _dtw_args():
    import torch

    return torch.randn(1, 12, 4), torch.randn(1, 15, 4)


@functools.cache
def _vq_step_cls():
    from torch import nn

    class VQStep(nn.Module):
        """diffsptk's VectorQuantization: the quantized output and its commitment loss."""

        def __init__(self, vq):
            super().__init__()
            self.vq = vq

        def forward(self, x):
            xq, indices, loss = self.vq(x)
            return (xq - x).pow(2).mean() + loss

    return VQStep


def _vq(mode):
    import diffsptk

    vq = diffsptk.VectorQuantization(_M, 16)
    return _vq_step_cls()(vq) if mode == "train" else vq


def _vq_make(mode):
    import torch

    return _vq(mode), (torch.randn(_B, _N, _M + 1),), {}


def _drc(mode):
    import diffsptk

    return diffsptk.DRC(sample_rate=_SR, threshold=-20, ratio=4, learnable=_learn(mode))


MODELS = {
    # --- transforms ---
    "STFT": _module(_stft, lambda: (_wave(),)),
    "STFT_ISTFT": _pipe(_stft_istft, _stft_istft_mods, lambda: (_wave(),)),
    "Frame_Window_Spectrum": _pipe(_frame_window, _frame_window_mods, lambda: (_wave(),)),
    "MDCT_IMDCT": _pipe(_mdct, _mdct_mods, lambda: (_wave(),)),
    "ZeroCrossingAnalysis": _module(_zcross, _frames),
    "Yingram": _module(_yingram, _frames),
    # --- cepstral analysis ---
    "MelCepstralAnalysis": _module(_mcep_analysis, lambda: (_power(),)),
    "MelGeneralizedCepstralAnalysis": _module(_mgcep, lambda: (_power(),)),
    "CepstralAnalysis": _module(_cep, lambda: (_power(),)),
    "mgc2mgc": _module(_mgc2mgc, lambda: (_mcep(),)),
    "mgc2sp": _module(_mgc2sp, lambda: (_mcep(),)),
    "MelCepstrumPostfiltering": _module(_mcpf, lambda: (_mcep(),)),
    # --- MLSA ---
    "MLSA_multi_stage": _module(_mlsa("multi-stage"), lambda: (_wave(), _mcep())),
    "MLSA_single_stage": _module(_mlsa("single-stage"), lambda: (_wave(), _mcep())),
    "MLSA_freq_domain": _module(_mlsa("freq-domain"), lambda: (_wave(), _mcep())),
    "MLSA_pade_approx": _module(_mlsa("pade-approx"), lambda: (_wave(), _mcep())),
    "IMLSA": _module(_imlsa, lambda: (_wave(), _mcep())),
    "readme_mcep_analysis_synthesis": _pipe(_readme_mcep, _readme_mcep_mods, lambda: (_wave(),)),
    "ExcitationGeneration_MLSA": _pipe(_excite, _excite_mods, _pitch_period),
    # --- LPC ---
    "readme_lpc_analysis_synthesis": _pipe(_readme_lpc, _readme_lpc_mods, lambda: (_wave(),)),
    "LPC_PARCOR_roundtrip": _pipe(_lpc_par, _lpc_par_mods, _frames),
    # --- filter banks ---
    "FBANK": _module(_fbank, lambda: (_power(),)),
    "MFCC": _module(_mfcc, lambda: (_power(),)),
    "PLP": _module(_plp, lambda: (_power(),)),
    "readme_melspec_griffinlim": _pipe(_readme_melspec, _readme_melspec_mods, lambda: (_wave(),)),
    "readme_pqmf_subband": _pipe(_readme_subband, _readme_subband_mods, lambda: (_wave(),)),
    "readme_gammatone": _pipe(_readme_gammatone, _readme_gammatone_mods, lambda: (_wave(),)),
    "FractionalOctaveBandAnalysis": _module(_oband, lambda: (_wave(),)),
    # --- WORLD ---
    "Aperiodicity_tandem": _module(_ap("tandem"), lambda: (_wave(), _f0())),
    "Aperiodicity_d4c": _module(_ap("d4c"), lambda: (_wave(), _f0())),
    "PitchAdaptiveSpectralAnalysis": _module(_pitch_spec, lambda: (_wave(), _f0())),
    "WorldSynthesis": _module(_world_synth, _world_synth_args),
    "readme_world_analysis_synthesis": _pipe(_readme_world, _readme_world_mods, lambda: (_wave(), _f0())),
    # --- statistics, modelling ---
    "Delta_MLPG": _pipe(_delta_mlpg, _delta_mlpg_mods, lambda: (_mcep(),)),
    "GMM": _module(_gmm, _gmm_args),
    "DTW": _module(_dtw, _dtw_args),
    "VectorQuantization": _vq_make,
    "DRC": _module(_drc, lambda: (_wave(),)),
}
