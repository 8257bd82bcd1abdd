"""asteroid 0.7.0: its source-separation models, maskers, losses and DSP helpers, tiny configs
(from the library's own tests, widths cut further where the tests use defaults), random weights,
no download (no ``from_pretrained`` of a hub name).

Data: random mixtures at 8 kHz, batch 2 (``(B, T)`` waveforms; ``(B, mics, T)`` for FasNet-TAC;
the DCUNet length the tests compute from their STFT so the frame count fits the
U-Net's strides).

Eval: ``model(mix)`` as the library returns it (separation / enhancement models), the masker on a
random TF representation (maskers), or the loss / DSP function on random tensors.
Train: for the models, the library's own training step: an ``asteroid.engine.System`` (model,
Adam optimizer, the recipe's loss; no loaders, no Trainer) and its ``common_step((mix, sources),
0)``, which is ``training_step`` less Lightning's ``self.log``; the loss is the recipes' own:
``PITLossWrapper(pairwise_neg_sisdr, pit_from="pw_mtx")`` for the separation models (a 4-source
ConvTasNet: the Hungarian PIT through ``scipy.optimize.linear_sum_assignment``; DPRNN with
``pairwise_neg_sdsdr``; SuDORMRF-improved with ``pairwise_neg_snr``), ``singlesrc_neg_sisdr`` for the
one-source enhancement model DCUNet, ``SingleSrcMultiScaleSpectral`` for DeMask.
For the maskers, ``separate`` / ``LambdaOverlapAdd`` wrappers and DSP functions:
``mean_loss_module`` (the DSP functions' float inputs require grad; ``separate`` is
``@torch.no_grad`` in the library, so its train run is inference too); for the losses: the loss
itself on estimates that require grad (``mean_loss_module`` over a per-batch loss vector or a
``(loss, reordered)`` tuple). Forward only: ``GEVBeamformer``'s backward fails eagerly (an in-place
write on a complex view), which the probe, running forward, never reaches.

Models (45):
- ConvTasNet: free / stft / param_sinc filterbanks, causal (cLN), 4 sources;
  DPRNNTasNet (LSTM; MulCat; unidirectional GRU with 2 layers); DPTNet; LSTMTasNet;
  SuDORMRFNet; SuDORMRFImprovedNet; FasNetTAC (with TAC); DCUNet (``mini``,
  ``DCUNet-10``, ``mini`` with ``fix_length_mode="pad"``); DeMask (stft);
- wrappers: ``model.separate(wav)`` (``torch_separate``), ``LambdaOverlapAdd`` around a ConvTasNet
  (chunk reordering on), ``BaseEncoderMaskerDecoder.forward_encoder`` + ``forward_masker``;
- maskers alone: ``TDConvNet``, ``TDConvNetpp``, ``DPRNN`` (RNN cells), ``DPTransformer``,
  ``LSTMMasker``, ``SuDORMRF``;
- losses: ``PITLossWrapper`` (``pw_mtx`` SI-SDR with ``return_est``; ``pw_pt`` single-source SD-SDR;
  ``perm_avg`` multi-source SNR; ``pw_mtx`` MSE on 5 sources, Hungarian; ``perm_reduce`` as in the
  docs; ``pw_pt`` multi-scale spectral), ``PITReorder``, ``MixITLossWrapper`` (generalized and
  not), ``SinkPITLossWrapper``, ``SingleSrcMultiScaleSpectral``, ``SingleSrcPMSQE``,
  ``deep_clustering_loss``, ``PairwiseNegSDR("sisdr", zero_mean=False, take_log=False)``;
- DSP: ``mixture_consistency`` (with source weights), ``SCM`` + ``SoudenMVDRBeamformer``,
  ``GEVBeamformer``, ``xcorr``, ``ebased_vad``.

    pip install --no-deps asteroid==0.7.0
    pip install --no-deps soundfile==0.13.1
    pip install --no-deps torch-optimizer==0.1.0 pytorch-ranger==0.1.1

(already installed and used: numpy, scipy, asteroid-filterbanks 0.4.0, pytorch-lightning 2.6.6,
torchmetrics 1.9.0, julius 0.2.8, huggingface-hub, PyYAML, pandas, requests, cffi.) ``soundfile``
is imported at the top of ``asteroid.separate`` (reached from ``asteroid.models``);
``torch_optimizer`` (which imports ``pytorch_ranger``) at the top of ``asteroid.engine.optimizers``
(reached from ``asteroid.engine``); asteroid pins ``torch-optimizer<0.2.0``. Nothing stubbed:
``pb_bss_eval`` is imported only by ``asteroid.metrics`` (not used), ``torch_stoi`` in a ``try`` in
``asteroid.losses`` (``SingleSrcNegSTOI`` left out), ``librosa`` lazily; ``torchaudio`` (a declared
dependency) is never imported by the package.

Left out: ``DCCRNet`` (every architecture fails eagerly at construction on torch 2.13:
``DCCRMaskNet`` hands ``nn.LSTM`` a numpy ``int64`` ``input_size``, which torch now refuses with a
``TypeError``), ``DCUMaskNet`` alone (complex output, covered inside DCUNet), ``XUMX`` (its
``__init__`` raises "XUMX is broken in torch 2.0" in 0.7.0; the tests skip it), ``SingleSrcNegSTOI`` (needs ``torch_stoi``), ``asteroid.metrics`` (numpy / pb_bss_eval),
the data sets (files on disk), ``from_pretrained`` with hub names (download), ``separate`` on
numpy arrays and files, the Lightning ``Trainer.fit`` loop (``training_step``'s ``self.log`` needs
a trainer), the optimizers / schedulers; for breadth at 45, the analytic_free ConvTasNet, the stft
DPTNet, the free DeMask, FasNetTAC without TAC and ``concat_deltas`` (near-copies of models kept).
"""

import functools

PACKAGE = "asteroid"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 2
_T = 800
_SR = 8000


def warm_up():
    import asteroid
    import asteroid.dsp
    import asteroid.engine
    import asteroid.losses
    import asteroid.masknn
    import asteroid.models  # noqa: F401
    import torch  # noqa: F401


# --- helpers ---------------------------------------------------------------------------------

def _wav(*shape):
    import torch

    return torch.randn(*shape)


def _single_sisdr(est, tgt):
    """The enhancement recipes' loss: mean single-source negative SI-SDR."""
    from asteroid.losses import singlesrc_neg_sisdr

    return singlesrc_neg_sisdr(est.squeeze(1), tgt.squeeze(1)).mean()


@functools.cache
def _train_step_class():
    import torch

    class SystemStep(torch.nn.Module):
        """``System.common_step`` (``training_step`` without ``self.log``) as a module."""

        def __init__(self, system):
            super().__init__()
            self.system = system

        def forward(self, mix, sources):
            return self.system.common_step((mix, sources), 0, train=True)

    return SystemStep


def _system(model, loss_func, mode, mix, sources):
    if mode == "eval":
        return model, (mix,), {}
    import torch
    from asteroid.engine import System

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    system = System(model, optimizer, loss_func, train_loader=None, val_loader=None)
    return _train_step_class()(system), (mix, sources), {}


def _pit(loss="pairwise_neg_sisdr", pit_from="pw_mtx"):
    from asteroid import losses

    return losses.PITLossWrapper(getattr(losses, loss), pit_from=pit_from)


def _separation(model, mode, n_src=2, t=_T, loss=None):
    mix = _wav(_B, t)
    sources = _wav(_B, n_src, t)
    return _system(model, loss if loss is not None else _pit(), mode, mix, sources)


def _module_or_mean(fn, mode, args, kwargs=None, grad_inputs=False):
    if mode == "train":
        if grad_inputs:  # a DSP stage inside a trained network: its inputs carry gradients
            for a in args:
                a.requires_grad_(True)
        return mean_loss_module()(fn), args, kwargs or {}
    return fn, args, kwargs or {}


def _loss_case(loss, est, tgt, mode, reduce=False, **kwargs):
    if mode == "train":
        est.requires_grad_(True)
        if reduce:
            return mean_loss_module()(loss), (est, tgt), kwargs
    return loss, (est, tgt), kwargs


# --- separation models -----------------------------------------------------------------------

def _convtasnet(fb="free", **kw):
    from asteroid.models import ConvTasNet

    kw.setdefault("n_src", 2)
    return ConvTasNet(n_repeats=2, n_blocks=3, bn_chan=16, hid_chan=4, skip_chan=8, n_filters=32,
                      fb_name=fb, sample_rate=_SR, **kw)


def _make_convtasnet(fb, **kw):
    def make(mode):
        return _separation(_convtasnet(fb, **kw), mode)

    return make


def _convtasnet_4src(mode):
    # 4 sources: PITLossWrapper switches to the Hungarian algorithm (n_src > 3)
    return _separation(_convtasnet("free", n_src=4), mode, n_src=4)


def _dprnn(mode, **kw):
    from asteroid.models import DPRNNTasNet

    net = DPRNNTasNet(n_src=2, n_repeats=2, bn_chan=16, hid_size=4, chunk_size=20, n_filters=32,
                      sample_rate=_SR, **kw)
    return _separation(net, mode, loss=_pit("pairwise_neg_sdsdr"))


def _dprnn_mulcat(mode):
    return _dprnn(mode, use_mulcat=True)


def _dprnn_gru(mode):
    return _dprnn(mode, rnn_type="GRU", bidirectional=False, num_layers=2)


def _dptnet(mode, fb="free"):
    from asteroid.models import DPTNet

    net = DPTNet(2, n_heads=2, ff_hid=10, chunk_size=4, n_repeats=2, n_filters=16, fb_name=fb,
                 sample_rate=_SR)
    return _separation(net, mode, t=400)


def _lstmtasnet(mode):
    from asteroid.models import LSTMTasNet

    net = LSTMTasNet(n_src=2, hid_size=4, n_layers=1, n_filters=32, dropout=0.0, sample_rate=_SR)
    return _separation(net, mode)


def _sudormrf(mode):
    from asteroid.models import SuDORMRFNet

    net = SuDORMRFNet(2, bn_chan=10, num_blocks=4, upsampling_depth=2, kernel_size=21, n_filters=12,
                      sample_rate=_SR)
    return _separation(net, mode, t=801)


def _sudormrf_improved(mode):
    from asteroid.models import SuDORMRFImprovedNet

    net = SuDORMRFImprovedNet(2, bn_chan=10, num_blocks=4, upsampling_depth=2, kernel_size=21,
                              n_filters=12, sample_rate=_SR)
    return _separation(net, mode, t=801, loss=_pit("pairwise_neg_snr"))


def _fasnet(mode, use_tac=True):
    from asteroid.models import FasNetTAC

    net = FasNetTAC(n_src=2, feature_dim=8, hidden_dim=10, n_layers=2, tac_hidden_dim=12,
                    use_tac=use_tac)
    mix = _wav(_B, 2, 4000)  # (batch, mics, time) at 16 kHz
    sources = _wav(_B, 2, 4000)
    return _system(net, _pit(), mode, mix, sources)


def _istft_len(n_fft, kernel, stride, frames):
    from asteroid_filterbanks import make_enc_dec
    import torch

    _, istft = make_enc_dec("stft", n_filters=n_fft, kernel_size=kernel, stride=stride,
                            sample_rate=16000)
    return istft(torch.zeros((n_fft + 2, frames))).shape[0]


def _dcunet(mode, arch="mini", **kw):
    from asteroid.models import DCUNet

    net = DCUNet(arch, stft_n_filters=1024, stft_kernel_size=1024, stft_stride=256, **kw)
    t = _istft_len(1024, 1024, 256, 17)
    return _separation(net, mode, n_src=1, t=t, loss=_single_sisdr)


def _dcunet10(mode):
    return _dcunet(mode, "DCUNet-10")


def _dcunet_pad(mode):
    from asteroid.models import DCUNet

    net = DCUNet("mini", fix_length_mode="pad")
    return _separation(net, mode, n_src=1, t=4000, loss=_single_sisdr)


def _demask(mode, fb="stft"):
    from asteroid.losses import SingleSrcMultiScaleSpectral
    from asteroid.models import DeMask

    net = DeMask(hidden_dims=(32,), fb_name=fb, n_filters=128, kernel_size=128, stride=64)
    ms = SingleSrcMultiScaleSpectral(n_filters=[64, 32], windows_size=[64, 32], hops_size=[32, 16])

    def loss(est, tgt):
        return ms(est.squeeze(1), tgt.squeeze(1)).mean()

    return _separation(net, mode, n_src=1, t=1601, loss=loss)


# --- wrappers ----------------------------------------------------------------------------------

def _separate(mode):
    net = _convtasnet("free")
    return _module_or_mean(net.separate, mode, (_wav(1, _T),))


def _overlap_add(mode):
    from asteroid.dsp import LambdaOverlapAdd

    ola = LambdaOverlapAdd(_convtasnet("free"), n_src=2, window_size=400, hop_size=200,
                           window="hann", reorder_chunks=True, enable_grad=mode == "train")
    return _module_or_mean(ola, mode, (_wav(_B, 1, 2000),))


@functools.cache
def _enc_mask_class():
    import torch

    class EncodeMask(torch.nn.Module):
        """The encoder then the masker, as a user inspecting the masks calls them."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, wav):
            tf_rep = self.net.forward_encoder(wav)
            return self.net.forward_masker(tf_rep)

    return EncodeMask


def _encoder_masker(mode):
    return _module_or_mean(_enc_mask_class()(_convtasnet("stft")), mode, (_wav(_B, _T),))


# --- maskers -----------------------------------------------------------------------------------

def _masker(build, shape):
    def make(mode):
        import torch

        x = torch.randn(*shape)
        return _module_or_mean(build(), mode, (x,))

    return make


def _tdconvnet():
    from asteroid.masknn import TDConvNet

    return TDConvNet(16, 2, n_blocks=2, n_repeats=2, bn_chan=8, hid_chan=8, skip_chan=8)


def _tdconvnetpp():
    from asteroid.masknn import TDConvNetpp

    return TDConvNetpp(16, 2, n_blocks=2, n_repeats=2, bn_chan=8, hid_chan=8, skip_chan=8)


def _dprnn_masker():
    from asteroid.masknn import DPRNN

    return DPRNN(16, 2, bn_chan=8, hid_size=4, chunk_size=10, hop_size=3, n_repeats=2,
                 rnn_type="RNN", mask_act="sigmoid")


def _dptransformer():
    from asteroid.masknn import DPTransformer

    return DPTransformer(16, 2, n_heads=2, ff_hid=8, chunk_size=10, n_repeats=2,
                         bidirectional=False)


def _lstm_masker():
    from asteroid.masknn import LSTMMasker

    return LSTMMasker(16, 2, rnn_type="gru", n_layers=2, hid_size=8, dropout=0.1)


def _sudormrf_masker():
    from asteroid.masknn import SuDORMRF

    return SuDORMRF(16, 2, num_blocks=2, upsampling_depth=3, mask_act="sigmoid")


# --- losses ------------------------------------------------------------------------------------

def _pit_pw_mtx(mode):
    from asteroid.losses import PITLossWrapper, pairwise_neg_sisdr

    loss = PITLossWrapper(pairwise_neg_sisdr, pit_from="pw_mtx")
    if mode == "train":
        return _loss_case(loss, _wav(_B, 2, _T), _wav(_B, 2, _T), mode, reduce=True, return_est=True)
    return loss, (_wav(_B, 2, _T), _wav(_B, 2, _T)), {"return_est": True}


def _pit_pw_pt(mode):
    from asteroid.losses import PITLossWrapper, singlesrc_neg_sdsdr

    return _loss_case(PITLossWrapper(singlesrc_neg_sdsdr, pit_from="pw_pt"), _wav(_B, 3, _T),
                      _wav(_B, 3, _T), mode)


def _pit_perm_avg(mode):
    from asteroid.losses import PITLossWrapper, multisrc_neg_snr

    return _loss_case(PITLossWrapper(multisrc_neg_snr, pit_from="perm_avg"), _wav(_B, 3, _T),
                      _wav(_B, 3, _T), mode)


def _pit_hungarian(mode):
    from asteroid.losses import PITLossWrapper, pairwise_mse

    return _loss_case(PITLossWrapper(pairwise_mse, pit_from="pw_mtx"), _wav(_B, 5, _T),
                      _wav(_B, 5, _T), mode)


def _weighted_reduce(perm_loss, src):
    """The ``perm_reduce`` of PITLossWrapper's docstring: a weighted mean over sources."""
    weighted = perm_loss * src.unsqueeze(1)
    return weighted.mean(dim=-1)


def _pit_perm_reduce(mode):
    import torch
    from asteroid.losses import PITLossWrapper, pairwise_neg_sisdr

    loss = PITLossWrapper(pairwise_neg_sisdr, pit_from="pw_mtx", perm_reduce=_weighted_reduce)
    reduce_kwargs = {"src": torch.softmax(torch.randn(_B, 3), dim=-1)}
    return _loss_case(loss, _wav(_B, 3, _T), _wav(_B, 3, _T), mode, reduce_kwargs=reduce_kwargs)


def _pit_multiscale(mode):
    from asteroid.losses import PITLossWrapper, SingleSrcMultiScaleSpectral

    ms = SingleSrcMultiScaleSpectral(n_filters=[256, 64], windows_size=[256, 64],
                                     hops_size=[128, 32])
    return _loss_case(PITLossWrapper(ms, pit_from="pw_pt"), _wav(_B, 2, 1600), _wav(_B, 2, 1600),
                      mode)


def _pit_reorder(mode):
    from asteroid.losses import pairwise_neg_sisdr
    from asteroid.losses.pit_wrapper import PITReorder

    return _loss_case(PITReorder(pairwise_neg_sisdr, pit_from="pw_mtx"), _wav(_B, 2, _T),
                      _wav(_B, 2, _T), mode, reduce=True)


def _mixit(mode, generalized=True):
    from asteroid.losses import MixITLossWrapper, multisrc_neg_sisdr

    return _loss_case(MixITLossWrapper(multisrc_neg_sisdr, generalized=generalized),
                      _wav(_B, 4, _T), _wav(_B, 2, _T), mode)


def _mixit_plain(mode):
    return _mixit(mode, generalized=False)


def _sinkpit(mode):
    from asteroid.losses import SinkPITLossWrapper, pairwise_neg_sisdr

    loss = SinkPITLossWrapper(pairwise_neg_sisdr, n_iter=10, hungarian_validation=True)
    loss.beta = 10.0
    return _loss_case(loss, _wav(_B, 3, _T), _wav(_B, 3, _T), mode)


def _multiscale(mode):
    from asteroid.losses import SingleSrcMultiScaleSpectral

    loss = SingleSrcMultiScaleSpectral(n_filters=[512, 256, 32], windows_size=[512, 256, 32],
                                       hops_size=[512, 256, 32])
    return _loss_case(loss, _wav(_B, 8000), _wav(_B, 8000), mode, reduce=True)


def _pmsqe(mode):
    import torch
    from asteroid_filterbanks import Encoder, STFTFB, transforms
    from asteroid.losses import SingleSrcPMSQE

    stft = Encoder(STFTFB(kernel_size=512, n_filters=512, stride=256))
    with torch.no_grad():
        ref = transforms.mag(stft(_wav(_B, 1, 8000))).squeeze(1)
        est = transforms.mag(stft(_wav(_B, 1, 8000))).squeeze(1)
    return _loss_case(SingleSrcPMSQE(sample_rate=16000), est, ref, mode, reduce=True)


def _deep_clustering(mode):
    import torch
    from asteroid.losses import deep_clustering_loss

    emb = torch.randn(_B, 5 * 40, 20)
    tgt = torch.zeros(_B, 40, 5).random_(0, 3).long()
    return _loss_case(deep_clustering_loss, emb, tgt, mode, reduce=True)


def _pairwise_sdr(mode):
    from asteroid.losses import PairwiseNegSDR

    return _loss_case(PairwiseNegSDR("sisdr", zero_mean=False, take_log=False), _wav(_B, 2, _T), _wav(_B, 2, _T), mode,
                      reduce=True)


# --- dsp ---------------------------------------------------------------------------------------

def _consistency(mode):
    import torch
    from asteroid.dsp import mixture_consistency

    weights = torch.softmax(torch.randn(_B, 3, 1), dim=1)
    est = _wav(_B, 3, 1600)
    if mode == "train":
        est.requires_grad_(True)
    return _module_or_mean(mixture_consistency, mode, (_wav(_B, 1600), est),
                           {"src_weights": weights, "dim": 1})


@functools.cache
def _beamform_class():
    import torch

    class Beamform(torch.nn.Module):
        """The beamforming test's pipeline: STFT, SCMs of speech and noise, the beamformer."""

        def __init__(self, beamformer, souden):
            super().__init__()
            from asteroid.dsp.beamforming import SCM
            from asteroid_filterbanks import make_enc_dec

            self.stft, _ = make_enc_dec("stft", kernel_size=128, n_filters=128, stride=64)
            self.scm = SCM()
            self.beamformer = beamformer
            self.souden = souden

        def forward(self, speech, noise):
            from asteroid_filterbanks import transforms as tr

            mix = tr.to_torch_complex(self.stft(speech + noise))
            ss = self.scm(tr.to_torch_complex(self.stft(speech)))
            nn_ = self.scm(tr.to_torch_complex(self.stft(noise)))
            if self.souden:
                out = self.beamformer(mix=mix, target_scm=ss, noise_scm=nn_, ref_mic=0)
            else:
                out = self.beamformer(mix=mix, target_scm=ss, noise_scm=nn_)
            return out.abs()

    return Beamform


def _mvdr(mode):
    from asteroid.dsp.beamforming import SoudenMVDRBeamformer

    net = _beamform_class()(SoudenMVDRBeamformer(), True)
    return _module_or_mean(net, mode, (_wav(_B, 3, 3200), _wav(_B, 3, 3200)), grad_inputs=True)


def _gev(mode):
    from asteroid.dsp.beamforming import GEVBeamformer

    net = _beamform_class()(GEVBeamformer(), False)
    return _module_or_mean(net, mode, (_wav(_B, 3, 3200), _wav(_B, 3, 3200)), grad_inputs=True)


def _xcorr(mode):
    from asteroid.dsp.spatial import xcorr

    return _module_or_mean(xcorr, mode, (_wav(_B, 4, 400), _wav(_B, 1, 400)), grad_inputs=True)


@functools.cache
def _vad_class():
    import torch

    class VadMasked(torch.nn.Module):
        """An energy VAD mask applied to the spectrogram it was computed on."""

        def forward(self, mag):
            from asteroid.dsp.vad import ebased_vad

            return mag * ebased_vad(mag, th_db=40)

    return VadMasked


def _vad(mode):
    import torch

    return _module_or_mean(_vad_class()(), mode, (torch.randn(_B, 2, 65, 16).abs(),), grad_inputs=True)


MODELS = {
    "ConvTasNet": _make_convtasnet("free"),
    "ConvTasNet_stft": _make_convtasnet("stft"),
    "ConvTasNet_param_sinc": _make_convtasnet("param_sinc"),
    "ConvTasNet_causal": _make_convtasnet("free", causal=True, norm_type="cLN"),
    "ConvTasNet_4src": _convtasnet_4src,
    "DPRNNTasNet": _dprnn,
    "DPRNNTasNet_mulcat": _dprnn_mulcat,
    "DPRNNTasNet_gru": _dprnn_gru,
    "DPTNet": _dptnet,
    "LSTMTasNet": _lstmtasnet,
    "SuDORMRFNet": _sudormrf,
    "SuDORMRFImprovedNet": _sudormrf_improved,
    "FasNetTAC": _fasnet,
    "DCUNet_mini": _dcunet,
    "DCUNet_10": _dcunet10,
    "DCUNet_mini_pad": _dcunet_pad,
    "DeMask": _demask,
    "separate": _separate,
    "LambdaOverlapAdd": _overlap_add,
    "encoder_masker": _encoder_masker,
    "TDConvNet": _masker(_tdconvnet, (_B, 16, 50)),
    "TDConvNetpp": _masker(_tdconvnetpp, (_B, 16, 50)),
    "DPRNN_rnn": _masker(_dprnn_masker, (_B, 16, 47)),
    "DPTransformer": _masker(_dptransformer, (_B, 16, 47)),
    "LSTMMasker": _masker(_lstm_masker, (_B, 16, 30)),
    "SuDORMRF_masker": _masker(_sudormrf_masker, (_B, 16, 64)),
    "PIT_pw_mtx_sisdr": _pit_pw_mtx,
    "PIT_pw_pt_sdsdr": _pit_pw_pt,
    "PIT_perm_avg_snr": _pit_perm_avg,
    "PIT_hungarian_mse": _pit_hungarian,
    "PIT_perm_reduce": _pit_perm_reduce,
    "PIT_multiscale": _pit_multiscale,
    "PITReorder": _pit_reorder,
    "MixIT_generalized": _mixit,
    "MixIT": _mixit_plain,
    "SinkPIT": _sinkpit,
    "MultiScaleSpectral": _multiscale,
    "PMSQE": _pmsqe,
    "deep_clustering": _deep_clustering,
    "PairwiseNegSDR": _pairwise_sdr,
    "mixture_consistency": _consistency,
    "SoudenMVDR": _mvdr,
    "GEVBeamformer": _gev,
    "xcorr": _xcorr,
    "ebased_vad": _vad,
}
