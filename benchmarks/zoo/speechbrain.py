"""speechbrain 1.0.3: its lobes, models, neural-network building blocks, decoders and losses as a
recipe compiles them (``Brain(..., run_opts={"compile": True})`` wraps each module of
``self.modules`` in ``torch.compile``), from the docstring examples (its doctests) and the
recipes' hparams, tiny (batches of 2, a few frames, widths of 8 to 32), random weights, no
download:

- ASR: ``CRDNN`` (LiGRU, CNN and DNN blocks) with a CTC head (train: ``ctc_loss``);
  ``TransformerASR`` with a transformer, a conformer (``RelPosMHAXL``) and a branchformer
  encoder (train: the joint CTC + label-smoothed ``nll_loss`` of the recipes);
  ``EncoderWrapper`` over a causal conformer; ``ContextNet`` (train: frame ``nll_loss``); ``ESPnetVGG`` (train: ``ctc_loss``); ``VanillaNN``
  (train: label-smoothed ``kldiv_loss``);
  a CTC head decoded with ``ctc_greedy_decode`` (the beam-search-free decoder);
  ``AttentionalRNNDecoder`` (``LocationAwareAttention``; train: ``nll_loss``); the greedy
  searchers ``S2SRNNGreedySearcher`` and ``S2STransformerGreedySearcher`` (decorated
  ``torch.no_grad``: train runs the teacher-forced ``nll_loss`` step, then the search, as a
  validation step of the recipes does);
- language models: ``RNNLM`` and ``TransformerLM`` (train: ``nll_loss``);
- features: ``Fbank``, ``MFCC`` (deltas, context), ``InputNormalization`` (global stats),
  ``SpectrogramDrop`` + ``Warping`` under an ``Augmenter`` (SpecAugment);
- speaker: ``ECAPA_TDNN`` with its cosine ``Classifier`` (train: ``LogSoftmaxWrapper`` of
  ``AdditiveAngularMargin``), ``Xvector`` with its ``Classifier`` (train: ``nll_loss``), the
  speaker ``ResNet`` (train: AAM softmax);
- separation / enhancement: Conv-TasNet (``conv_tasnet.MaskNet`` between ``dual_path``'s
  ``Encoder`` and ``Decoder``, as its recipe) and SepFormer (``dual_path`` ``Encoder``, ``Dual_Path_Model`` of
  ``SBTransformerBlock`` s, ``Decoder``) (train: ``get_si_snr_with_pitwrapper``, PIT),
  MetricGAN's ``EnhancementGenerator`` and ``MetricDiscriminator`` (train: ``mse_loss``),
  ``EnhanceResnet`` (train: ``mse_loss`` with lengths);
- audio tagging / TTS / vocoders: ``Cnn14`` (train: ``bce_loss``), ``Tacotron2`` teacher-forced
  (train: Tacotron2's ``Loss`` with its ``GuidedAttentionLoss``) and its ``infer`` (gate-stopped
  decoding), ``HifiganGenerator``, ``DiffWave``;
- building blocks: ``LiGRU`` / ``SLiGRU`` / ``QuasiRNN``, ``LSTM`` / ``GRU`` wrappers with
  lengths (packed sequences), ``RelPosMHAXL`` + ``RelPosEncXL``, ``RoPEMHA``, ``HyperMixing``,
  ``StatisticsPooling`` (with lengths) + ``AttentionPooling``,
  ``PCEN``, a ``containers.Sequential`` of ``SincConv`` / ``Conv1d`` / ``BatchNorm1d`` /
  ``LayerNorm`` / ``InstanceNorm1d`` / ``GroupNorm`` / ``Pooling1d`` / ``DepthwiseSeparableConv1d``
  (shapes inferred by ``append``).

Eval: the model's output. Train: the library's own loss where the recipes use one (named
above), else ``mean_loss_module`` (the sum of the means of the float outputs).

    pip install --no-deps speechbrain==1.0.3
    pip install --no-deps hyperpyyaml==1.2.2
    pip install --no-deps ruamel.yaml==0.18.16   # (pure Python without ruamel.yaml.clib)
    # installed already: numpy, scipy, joblib, packaging, tqdm, PyYAML, huggingface_hub

Stubbed (``stub_modules``): ``torchaudio`` (imported at the top of ``speechbrain.dataio``,
``nnet.CNN``, ``augment``, ``inference`` ... through ``speechbrain.core``): no torchaudio wheel
pairs with torch 2.13.0 (PyPI's newest is 2.11.1), so it is not installed. The stand-in reports
version 2.13.0 and no audio back end (``utils.torch_audio_backend.check_torchaudio_backend``
runs at import and asks for them); its loaders, ``melscale_fbanks``, ``resample``, ``lfilter``,
``rnnt_loss`` and transforms raise. No model here reads audio, resamples, or uses
``GaborConv1d`` / ``Leaf`` / the transducer loss. ``sentencepiece`` (tokenizers only) is not
installed: no entry tokenizes.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built and all ran under Dynamo; 40 runs
have no break (the conv / norm / attention / LiGRU / QuasiRNN blocks, the speaker ResNet, Cnn14,
ContextNet, EnhanceResnet, HiFi-GAN, DiffWave, the features). The breaks: ``torch.nn.LSTM`` /
``GRU`` (GB0014) and ``pack_padded_sequence`` (GB0007) in ``nnet.RNN`` and Tacotron2's encoder,
``.item()`` in ``length_to_mask`` / ``StatisticsPooling`` / ``InputNormalization`` /
``get_mask`` / ``undo_padding`` (GB0124), the CTC loss's dynamic output shape (GB0036), the PIT
wrapper's data-dependent ``if loss > c_loss`` over permutations (GB0170), ``warnings.warn`` in ``MultiheadAttention`` (GB0007) under the transformer's layer loops
(GB7000), the greedy searchers' data-dependent stop (GB0170, ``nonzero``), ``ctc_greedy_decode``'s
per-utterance loop, Tacotron2's gate-stopped ``infer`` loop and its loss's
``requires_grad`` stores (GB0206), SpecAugment's random draws and ``.item()`` sizes, and the
``try: layer(x, lengths=...) except TypeError`` of ``Xvector`` / ``ECAPA_TDNN`` (GB7312); plus
21 recompiles. First numbers with the frozen linter (``/tmp/lint-start60``): graph-break
statement recall 0.72 (29/40), precision 0.89 (42/47), 434 findings (126 in files run), 79
unjudged. Measured first as it came, before any rule looked at it.

Left out: pretrained ``inference`` interfaces (downloads), ``Brain`` / data loading (audio
files through torchaudio), beam searchers (the brief covers beam-search-free decoding), the
transducer loss (``torchaudio.functional.rnnt_loss``), ``GaborConv1d`` / ``Leaf`` (torchaudio's
``melscale_fbanks``), ``FastSpeech2`` and the HuggingFace / fairseq wrappers (downloads).
"""

PACKAGE = "speechbrain"

mean_loss_module = None  # adapter.py's, set by ZooSuite
stub_modules = None  # adapter.py's, set by ZooSuite

_B = 2


def before_build():
    import sys

    stub_modules(
        {
            "torchaudio": (("load", "save", "info", "set_audio_backend"), ()),
            "torchaudio.functional": (("resample", "melscale_fbanks", "lfilter", "rnnt_loss"), ()),
            "torchaudio.transforms": ((), ("Resample", "MelSpectrogram", "Spectrogram", "InverseMelScale")),
            "torchaudio.compliance": ((), ()),
            "torchaudio.compliance.kaldi": (("fbank",), ()),
        },
        "speechbrain",
    )
    ta = sys.modules["torchaudio"]
    if getattr(ta, "__file__", None) is None:
        ta.__version__ = "2.13.0"
        ta.list_audio_backends = lambda: []


def warm_up():
    before_build()
    import torch  # noqa: F401

    import speechbrain  # noqa: F401
    import speechbrain.nnet.losses  # noqa: F401


def _module(forward, **children):
    """A module owning ``children`` whose forward is ``forward(self, *args)``."""
    import torch

    cls = type("SBStep", (torch.nn.Module,), {"forward": forward})
    m = cls()
    for k, v in children.items():
        setattr(m, k, v)
    return m


def _lens(b=_B):
    import torch

    return torch.tensor([1.0, 0.75])[:b]


# ---------------------------------------------------------------- ASR


def _crdnn(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.CRDNN import CRDNN

    x = torch.rand(_B, 12, 20)
    net = CRDNN(input_shape=x.shape, cnn_blocks=1, cnn_channels=(8,), inter_layer_pooling_size=(2,),
                rnn_layers=1, rnn_neurons=16, dnn_blocks=1, dnn_neurons=16, time_pooling=True)
    lin = sb.nnet.linear.Linear(input_size=16, n_neurons=6)
    if mode == "eval":
        def fwd(self, x):
            return self.lin(self.net(x)).log_softmax(-1)
        return _module(fwd, net=net, lin=lin), (x,), {}

    def step(self, x, lens, tokens, tok_lens):
        logp = self.lin(self.net(x)).log_softmax(-1)
        return sb.nnet.losses.ctc_loss(logp, tokens, lens, tok_lens, blank_index=0)
    tokens = torch.randint(1, 6, (_B, 3))
    return _module(step, net=net, lin=lin), (x, _lens(), tokens, torch.tensor([1.0, 2 / 3])), {}


def _asr_transformer(encoder_module, **extra):
    def make(mode):
        import torch
        import speechbrain as sb
        from speechbrain.lobes.models.transformer.TransformerASR import TransformerASR

        net = TransformerASR(10, 12, d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                             d_ffn=32, dropout=0.1, activation=torch.nn.GELU, encoder_module=encoder_module,
                             kernel_size=3, csgu_linear_units=32, causal=False,
                             normalize_before=encoder_module != "transformer", **extra)
        ctc = sb.nnet.linear.Linear(input_size=16, n_neurons=10)
        seq = sb.nnet.linear.Linear(input_size=16, n_neurons=10)
        src = torch.rand(_B, 8, 12)
        tokens_bos = torch.tensor([[1, 4, 5, 6], [1, 7, 3, 0]])
        if mode == "eval":
            def fwd(self, src, tgt, wav_lens):
                enc, dec = self.net(src, tgt, wav_lens, pad_idx=0)
                return self.ctc(enc).log_softmax(-1), self.seq(dec).log_softmax(-1)
            return _module(fwd, net=net, ctc=ctc, seq=seq), (src, tokens_bos, _lens()), {}

        def step(self, src, tgt, wav_lens, tokens, tokens_eos, tok_lens):
            enc, dec = self.net(src, tgt, wav_lens, pad_idx=0)
            p_ctc = self.ctc(enc).log_softmax(-1)
            p_seq = self.seq(dec).log_softmax(-1)
            loss_seq = sb.nnet.losses.nll_loss(p_seq, tokens_eos, length=tok_lens, label_smoothing=0.1)
            loss_ctc = sb.nnet.losses.ctc_loss(p_ctc, tokens, wav_lens, tok_lens, blank_index=0)
            return 0.3 * loss_ctc + 0.7 * loss_seq
        tokens = torch.tensor([[4, 5, 6], [7, 3, 0]])
        tokens_eos = torch.tensor([[4, 5, 6, 2], [7, 3, 2, 0]])
        return (_module(step, net=net, ctc=ctc, seq=seq),
                (src, tokens_bos, _lens(), tokens, tokens_eos, torch.tensor([1.0, 0.75])), {})
    return make


def _encoder_wrapper(mode):
    import torch
    from speechbrain.lobes.models.transformer.TransformerASR import EncoderWrapper, TransformerASR

    net = TransformerASR(10, 12, d_model=16, nhead=2, num_encoder_layers=2, num_decoder_layers=1, d_ffn=32,
                         encoder_module="conformer", attention_type="RelPosMHAXL", kernel_size=3, causal=True,
                         normalize_before=True)
    enc = EncoderWrapper(net)
    fn = enc if mode == "eval" else mean_loss_module()(enc)
    return fn, (torch.rand(_B, 8, 12), _lens()), {}


def _contextnet(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.ContextNet import ContextNet

    x = torch.randn(_B, 16, 20)
    net = ContextNet(input_shape=x.shape, out_channels=16, conv_channels=[16, 16, 16], strides=[1, 2, 1],
                     num_blocks=3, num_layers=2, inner_dim=4, residuals=[False, True, True])
    lin = sb.nnet.linear.Linear(input_size=16, n_neurons=6)
    if mode == "eval":
        return net, (x,), {}

    def step(self, x, targets, lens):
        logp = self.lin(self.net(x)).log_softmax(-1)  # (B, T', C): frame labels
        return sb.nnet.losses.nll_loss(logp, targets, length=lens)
    return _module(step, net=net, lin=lin), (x, torch.randint(0, 6, (_B, 8)), _lens()), {}


def _espnet_vgg(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.ESPnetVGG import ESPnetVGG

    x = torch.rand(_B, 16, 20)
    net = ESPnetVGG(input_shape=x.shape, cnn_channels=[8, 16], rnn_layers=1, rnn_neurons=16,
                    projection_neurons=16)
    lin = sb.nnet.linear.Linear(input_size=16, n_neurons=6)
    if mode == "eval":
        return net, (x,), {}

    def step(self, x, lens, tokens, tok_lens):
        logp = self.lin(self.net(x)).log_softmax(-1)
        return sb.nnet.losses.ctc_loss(logp, tokens, lens, tok_lens, blank_index=0)
    return _module(step, net=net, lin=lin), (x, _lens(), torch.randint(1, 6, (_B, 2)), _lens()), {}


def _vanilla_nn(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.VanillaNN import VanillaNN

    x = torch.rand(_B, 10, 20)
    net = VanillaNN(input_shape=x.shape, dnn_blocks=2, dnn_neurons=16)
    if mode == "eval":
        return net, (x,), {}

    def step(self, x, targets, lens):  # frame classification, KL to label-smoothed targets
        logp = self.net(x).log_softmax(-1)
        return sb.nnet.losses.kldiv_loss(logp, targets, length=lens, label_smoothing=0.1)
    return _module(step, net=net), (x, torch.randint(0, 16, (_B, 10)), _lens()), {}


def _ctc_greedy(mode):
    import torch
    import speechbrain as sb
    from speechbrain.decoders.ctc import ctc_greedy_decode

    enc = sb.nnet.RNN.LSTM(hidden_size=16, input_size=20, num_layers=1, bidirectional=True)
    lin = sb.nnet.linear.Linear(input_size=32, n_neurons=6)

    def fwd(self, x, lens, tokens, tok_lens):
        out, _ = self.enc(x, lengths=lens)
        logp = self.lin(out).log_softmax(-1)
        hyps = ctc_greedy_decode(logp, lens, blank_id=0)
        if self.training:  # hyps feed the recipe's error-rate stats
            return sb.nnet.losses.ctc_loss(logp, tokens, lens, tok_lens, blank_index=0)
        return logp, hyps
    x = torch.rand(_B, 10, 20)
    return _module(fwd, enc=enc, lin=lin), (x, _lens(), torch.randint(1, 6, (_B, 3)), _lens()), {}


def _attentional_rnn_decoder(mode):
    import torch
    import speechbrain as sb
    from speechbrain.nnet.RNN import AttentionalRNNDecoder

    dec = AttentionalRNNDecoder(rnn_type="gru", attn_type="location", hidden_size=16, attn_dim=8, num_layers=1,
                                enc_dim=12, input_size=8, channels=4, kernel_size=5)
    emb = sb.nnet.embedding.Embedding(num_embeddings=6, embedding_dim=8)
    lin = sb.nnet.linear.Linear(input_size=16, n_neurons=6)
    enc = torch.rand(_B, 10, 12)
    bos = torch.tensor([[0, 3, 4, 5], [0, 2, 1, 1]])
    if mode == "eval":
        def fwd(self, bos, enc, lens):
            h, attn = self.dec(self.emb(bos), enc, lens)
            return self.lin(h).log_softmax(-1), attn
        return _module(fwd, dec=dec, emb=emb, lin=lin), (bos, enc, _lens()), {}

    def step(self, bos, enc, lens, eos, eos_lens):
        h, _ = self.dec(self.emb(bos), enc, lens)
        return sb.nnet.losses.nll_loss(self.lin(h).log_softmax(-1), eos, length=eos_lens)
    eos = torch.tensor([[3, 4, 5, 1], [2, 1, 0, 0]])
    return _module(step, dec=dec, emb=emb, lin=lin), (bos, enc, _lens(), eos, torch.tensor([1.0, 0.5])), {}


def _rnn_greedy_searcher(mode):
    import torch
    import speechbrain as sb
    from speechbrain.decoders import S2SRNNGreedySearcher

    emb = torch.nn.Embedding(5, 3)
    dec = sb.nnet.RNN.AttentionalRNNDecoder("gru", "content", 3, 3, 1, enc_dim=7, input_size=3)
    lin = sb.nnet.linear.Linear(n_neurons=5, input_size=3)
    searcher = S2SRNNGreedySearcher(embedding=emb, decoder=dec, linear=lin, bos_index=0, eos_index=1,
                                    min_decode_ratio=0, max_decode_ratio=1)
    enc = torch.rand(_B, 6, 7)
    if mode == "eval":
        return searcher, (enc, torch.ones(_B)), {}

    def step(self, enc, lens, bos, eos):  # teacher-forced loss, then the greedy hypotheses (no_grad)
        h, _ = self.dec(self.emb(bos), enc, lens)
        loss = sb.nnet.losses.nll_loss(self.lin(h).log_softmax(-1), eos)
        self.searcher(enc, lens)
        return loss
    m = _module(step, emb=emb, dec=dec, lin=lin, searcher=searcher)
    return m, (enc, torch.ones(_B), torch.tensor([[0, 3, 4], [0, 2, 4]]), torch.tensor([[3, 4, 1], [2, 4, 1]])), {}


def _transformer_greedy_searcher(mode):
    import torch
    import speechbrain as sb
    from speechbrain.decoders import S2STransformerGreedySearcher
    from speechbrain.lobes.models.transformer.TransformerASR import TransformerASR

    net = TransformerASR(8, 12, d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, d_ffn=32,
                         causal=False)
    ctc = sb.nnet.linear.Linear(input_size=16, n_neurons=8)
    seq = sb.nnet.linear.Linear(input_size=16, n_neurons=8)
    searcher = S2STransformerGreedySearcher(modules=[net, seq, ctc], bos_index=1, eos_index=2,
                                            min_decode_ratio=0.0, max_decode_ratio=1.0, temperature=1.0)

    src = torch.rand(_B, 6, 12)
    if mode == "eval":
        def fwd(self, src, wav_lens):
            enc = self.net.encode(src, wav_lens)
            return self.searcher(enc, wav_lens)
        return _module(fwd, net=net, searcher=searcher), (src, _lens()), {}

    def step(self, src, wav_lens, bos, eos):  # teacher-forced loss, then the greedy hypotheses (no_grad)
        enc, dec = self.net(src, bos, wav_lens, pad_idx=0)
        loss = sb.nnet.losses.nll_loss(self.seq(dec).log_softmax(-1), eos)
        self.searcher(enc.detach(), wav_lens)
        return loss
    m = _module(step, net=net, seq=seq, searcher=searcher)
    return m, (src, _lens(), torch.tensor([[1, 3, 4], [1, 5, 4]]), torch.tensor([[3, 4, 2], [5, 4, 2]])), {}


# ---------------------------------------------------------------- language models


def _lm(net, mode):
    """A language model on two token rows: its logits (eval), its `nll_loss` on the shifted rows (train)."""
    import torch
    import speechbrain as sb

    x = torch.tensor([[1, 4, 5, 6], [1, 7, 3, 0]])
    if mode == "eval":
        return net, (x,), {}

    def step(self, x, y, lens):
        return sb.nnet.losses.nll_loss(self.net(x).log_softmax(-1), y, length=lens)
    return _module(step, net=net), (x, torch.tensor([[4, 5, 6, 2], [7, 3, 2, 0]]), _lens()), {}


def _rnnlm(mode):
    from speechbrain.lobes.models.RNNLM import RNNLM

    return _lm(RNNLM(output_neurons=10, embedding_dim=8, rnn_layers=1, rnn_neurons=16, dnn_blocks=1,
                     dnn_neurons=16), mode)


def _transformer_lm(mode):
    import torch
    from speechbrain.lobes.models.transformer.TransformerLM import TransformerLM

    return _lm(TransformerLM(10, d_model=16, nhead=2, num_encoder_layers=2, num_decoder_layers=0, d_ffn=32,
                             activation=torch.nn.GELU), mode)


# ---------------------------------------------------------------- features


def _fbank(mode):
    import torch
    from speechbrain.lobes.features import Fbank

    net = Fbank(n_mels=20, n_fft=128, win_length=8, hop_length=4, requires_grad=mode == "train")
    fn = net if mode == "eval" else mean_loss_module()(net)
    return fn, (torch.randn(_B, 400),), {}


def _mfcc(mode):
    import torch
    from speechbrain.lobes.features import MFCC

    net = MFCC(n_mels=20, n_mfcc=12, n_fft=128, win_length=8, hop_length=4, left_frames=2, right_frames=2,
               requires_grad=mode == "train")
    fn = net if mode == "eval" else mean_loss_module()(net)
    return fn, (torch.randn(_B, 400),), {}


def _input_norm(mode):
    import torch
    from speechbrain.processing.features import InputNormalization

    import speechbrain as sb

    norm = InputNormalization(norm_type="global")
    lin = sb.nnet.linear.Linear(input_size=20, n_neurons=8)

    def fwd(self, x, lens):
        return self.lin(self.norm(x, lens))
    m = _module(fwd, norm=norm, lin=lin)
    fn = m if mode == "eval" else mean_loss_module()(m)
    return fn, (torch.randn(_B, 12, 20), _lens()), {}


def _spec_augment(mode):
    import torch
    import speechbrain as sb
    from speechbrain.augment.augmenter import Augmenter
    from speechbrain.augment.freq_domain import SpectrogramDrop, Warping

    aug = Augmenter(parallel_augment=False, concat_original=True, min_augmentations=3, max_augmentations=3,
                    augment_prob=1.0,
                    augmentations=[Warping(warp_window=3, dim=1),
                                   SpectrogramDrop(drop_length_low=1, drop_length_high=3, drop_count_low=1,
                                                   drop_count_high=2, dim=1),
                                   SpectrogramDrop(drop_length_low=1, drop_length_high=3, drop_count_low=1,
                                                   drop_count_high=2, dim=2)])
    lin = sb.nnet.linear.Linear(input_size=20, n_neurons=8)

    def fwd(self, feats, lens):  # as a recipe's compute_forward: augment (train only), then the model
        if self.training:
            feats, lens = self.aug(feats, lens)
        return self.lin(feats), lens
    m = _module(fwd, aug=aug, lin=lin)
    fn = m if mode == "eval" else mean_loss_module()(m)
    return fn, (torch.rand(_B, 16, 20), _lens()), {}


# ---------------------------------------------------------------- speaker


def _ecapa(mode):
    import torch
    from speechbrain.lobes.models.ECAPA_TDNN import ECAPA_TDNN, Classifier
    from speechbrain.nnet.losses import AdditiveAngularMargin, LogSoftmaxWrapper

    emb = ECAPA_TDNN(20, lin_neurons=8, channels=[16, 16, 16, 16, 48], attention_channels=8, res2net_scale=2,
                     se_channels=8)
    x = torch.rand(_B, 12, 20)
    if mode == "eval":
        return emb, (x, _lens()), {}
    clf = Classifier(input_size=8, lin_blocks=0, out_neurons=4)
    loss = LogSoftmaxWrapper(AdditiveAngularMargin(margin=0.2, scale=30))

    def step(self, x, lens, spk):
        return self.loss(self.clf(self.emb(x, lens)), spk)
    return _module(step, emb=emb, clf=clf, loss=loss), (x, _lens(), torch.tensor([[1], [3]])), {}


def _xvector(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.Xvector import Classifier, Xvector

    net = Xvector(tdnn_blocks=3, tdnn_channels=[8, 8, 16], tdnn_kernel_sizes=[3, 3, 1], tdnn_dilations=[1, 2, 1],
                  lin_neurons=8, in_channels=20)
    x = torch.rand(_B, 12, 20)
    clf = Classifier(input_shape=(_B, 1, 8), lin_blocks=1, lin_neurons=8, out_neurons=4)
    if mode == "eval":
        def fwd(self, x, lens):
            xv = self.net(x, lens)
            return xv, self.clf(xv)
        return _module(fwd, net=net, clf=clf), (x, _lens()), {}

    def step(self, x, lens, spk):
        return sb.nnet.losses.nll_loss(self.clf(self.net(x, lens)), spk)
    return _module(step, net=net, clf=clf), (x, _lens(), torch.tensor([[1], [3]])), {}


def _resnet(mode):
    import torch
    from speechbrain.lobes.models.ResNet import Classifier, ResNet
    from speechbrain.nnet.losses import AdditiveAngularMargin, LogSoftmaxWrapper

    net = ResNet(input_size=20, channels=[8, 8, 16, 16], block_sizes=[1, 1, 1, 1], strides=[1, 2, 2, 2],
                 lin_neurons=8)
    x = torch.rand(_B, 16, 20)
    if mode == "eval":
        return net, (x, _lens()), {}
    clf = Classifier(input_size=8, lin_blocks=0, out_neurons=4)
    loss = LogSoftmaxWrapper(AdditiveAngularMargin(margin=0.2, scale=30))

    def step(self, x, lens, spk):
        return self.loss(self.clf(self.net(x, lens)), spk)
    return _module(step, net=net, clf=clf, loss=loss), (x, _lens(), torch.tensor([[1], [3]])), {}


# ---------------------------------------------------------------- separation / enhancement


def _pit_step(self, mix, targets):
    import speechbrain as sb

    est = self.separate(mix)
    return sb.nnet.losses.get_si_snr_with_pitwrapper(targets, est).mean()


def _convtasnet(mode):
    import torch
    from speechbrain.lobes.models.conv_tasnet import MaskNet
    from speechbrain.lobes.models.dual_path import Decoder, Encoder

    # the ConvTasnet recipe's hparams: dual_path Encoder / Decoder around conv_tasnet's MaskNet
    enc = Encoder(kernel_size=4, out_channels=8)
    mask = MaskNet(N=8, B=8, H=8, P=3, X=2, R=1, C=2, norm_type="gLN", causal=False, mask_nonlinear="relu")
    dec = Decoder(in_channels=8, out_channels=1, kernel_size=4, stride=2, bias=False)

    def separate(self, mix):
        w = self.enc(mix)                      # (B, N, T')
        m = self.mask(w)                       # (C, B, N, T')
        w = torch.stack([w] * 2)
        sep = torch.cat([self.dec(w[i] * m[i]).unsqueeze(-1) for i in range(2)], dim=-1)
        T = mix.size(1)
        return torch.nn.functional.pad(sep, (0, 0, 0, T - sep.size(1))) if sep.size(1) < T else sep[:, :T]
    return _separator(mode, separate, enc=enc, mask=mask, dec=dec)


def _sepformer(mode):
    import torch
    from speechbrain.lobes.models.dual_path import Decoder, Dual_Path_Model, Encoder, SBTransformerBlock

    enc = Encoder(kernel_size=4, out_channels=16)
    mask = Dual_Path_Model(16, 16, SBTransformerBlock(1, 16, 2, d_ffn=32), SBTransformerBlock(1, 16, 2, d_ffn=32),
                           num_layers=1, K=8, num_spks=2)
    dec = Decoder(in_channels=16, out_channels=1, kernel_size=4, stride=2, bias=False)

    def separate(self, mix):
        w = self.enc(mix)
        m = self.mask(w)
        w = torch.stack([w] * 2)
        sep = torch.cat([self.dec(w[i] * m[i]).unsqueeze(-1) for i in range(2)], dim=-1)
        T = mix.size(1)
        return torch.nn.functional.pad(sep, (0, 0, 0, T - sep.size(1))) if sep.size(1) < T else sep[:, :T]
    return _separator(mode, separate, enc=enc, mask=mask, dec=dec)


def _separator(mode, separate, **children):
    import torch

    mix = torch.randn(_B, 64)
    if mode == "eval":
        def fwd(self, mix):
            return self.separate(mix)
        m = _module(fwd, **children)
        m.separate = separate.__get__(m)
        return m, (mix,), {}
    m = _module(_pit_step, **children)
    m.separate = separate.__get__(m)
    return m, (mix, torch.randn(_B, 64, 2)), {}


def _metricgan(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.MetricGAN import EnhancementGenerator, MetricDiscriminator

    gen = EnhancementGenerator(input_size=257, hidden_size=200, num_layers=1)  # its head is fixed 400-300-257
    disc = MetricDiscriminator(kernel_size=(3, 3), base_channels=4)
    noisy = torch.rand(_B, 12, 257)
    if mode == "eval":
        def fwd(self, noisy, lens):
            mask = self.gen(noisy, lengths=lens)
            enh = mask * noisy
            return enh, self.disc(torch.stack([enh, noisy], 1))
        return _module(fwd, gen=gen, disc=disc), (noisy, _lens()), {}

    def step(self, noisy, clean, lens):  # the generator step: push the discriminator's score to 1
        enh = self.gen(noisy, lengths=lens) * noisy
        score = self.disc(torch.stack([enh, clean], 1))
        return sb.nnet.losses.mse_loss(score, torch.ones_like(score))
    return _module(step, gen=gen, disc=disc), (noisy, torch.rand(_B, 12, 257), _lens()), {}


def _enhance_resnet(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.EnhanceResnet import EnhanceResnet

    net = EnhanceResnet(n_fft=64, win_length=4, hop_length=2, channel_counts=[8, 16], dense_count=1,
                        dense_nodes=16)
    x = torch.rand(_B, 256)
    if mode == "eval":
        return net, (x,), {}

    def step(self, noisy, clean_feats, lens):
        _, feats = self.net(noisy)
        return sb.nnet.losses.mse_loss(feats, clean_feats, length=lens)
    with torch.no_grad():
        _, feats = net(x)
    return _module(step, net=net), (x, torch.rand_like(feats), _lens()), {}


# ---------------------------------------------------------------- tagging, TTS, vocoders


def _cnn14(mode):
    import torch
    import speechbrain as sb
    from speechbrain.lobes.models.Cnn14 import Cnn14

    net = Cnn14(mel_bins=64, emb_dim=32)
    lin = sb.nnet.linear.Linear(input_size=32, n_neurons=5)
    x = torch.rand(_B, 64, 64)
    if mode == "eval":
        return net, (x,), {}

    def step(self, x, labels):
        logits = self.lin(self.net(x))
        return sb.nnet.losses.bce_loss(logits.squeeze(1), labels)
    return _module(step, net=net, lin=lin), (x, torch.randint(0, 2, (_B, 5)).float()), {}


def _tacotron2_model():
    from speechbrain.lobes.models.Tacotron2 import Tacotron2

    return Tacotron2(mask_padding=True, n_mel_channels=8, n_symbols=12, symbols_embedding_dim=16,
                     encoder_kernel_size=3, encoder_n_convolutions=1, encoder_embedding_dim=16,
                     attention_rnn_dim=16, attention_dim=8, attention_location_n_filters=4,
                     attention_location_kernel_size=3, n_frames_per_step=1, decoder_rnn_dim=16, prenet_dim=8,
                     max_decoder_steps=6, gate_threshold=0.5, p_attention_dropout=0.1, p_decoder_dropout=0.1,
                     postnet_embedding_dim=8, postnet_kernel_size=3, postnet_n_convolutions=2,
                     decoder_no_early_stopping=False)


def _tacotron2(mode):
    import torch
    from speechbrain.lobes.models.Tacotron2 import Loss

    net = _tacotron2_model()
    text = torch.tensor([[3, 4, 5, 6, 7], [2, 8, 9, 0, 0]])
    in_lens = torch.tensor([5, 3])
    mel = torch.randn(_B, 8, 7)
    out_lens = torch.tensor([7, 5])
    inputs = (text, in_lens, mel, 7, out_lens)
    if mode == "eval":
        def fwd(self, text, in_lens, mel, out_lens):
            return self.net((text, in_lens, mel, 7, out_lens))
        return _module(fwd, net=net), (text, in_lens, mel, out_lens), {}
    loss = Loss(guided_attention_sigma=0.2, gate_loss_weight=1.0, guided_attention_weight=1.0,
                guided_attention_scheduler=None)
    gate = torch.zeros(_B, 7)
    gate[0, 6:] = 1
    gate[1, 4:] = 1

    def step(self, text, in_lens, mel, out_lens, gate):
        out = self.net((text, in_lens, mel, 7, out_lens))
        return self.loss(out[:4], (mel, gate), in_lens, out_lens, 1).loss
    del inputs
    return _module(step, net=net, loss=loss), (text, in_lens, mel, out_lens, gate), {}


def _tacotron2_infer(mode):
    import torch

    net = _tacotron2_model()

    def fwd(self, text, in_lens):
        return self.net.infer(text, in_lens)
    m = _module(fwd, net=net)
    fn = m if mode == "eval" else mean_loss_module()(m)
    return fn, (torch.tensor([[3, 4, 5, 6, 7], [2, 8, 9, 0, 0]]), torch.tensor([5, 3])), {}


def _hifigan(mode):
    import torch
    from speechbrain.lobes.models.HifiGAN import HifiganGenerator

    net = HifiganGenerator(in_channels=8, out_channels=1, resblock_type="1",
                           resblock_dilation_sizes=[[1, 3, 5], [1, 3, 5]], resblock_kernel_sizes=[3, 5],
                           upsample_kernel_sizes=[4, 4], upsample_initial_channel=16, upsample_factors=[2, 2])
    fn = net if mode == "eval" else mean_loss_module()(net)
    return fn, (torch.rand(_B, 8, 6),), {}


def _diffwave(mode):
    import torch
    from speechbrain.lobes.models.DiffWave import DiffWave

    net = DiffWave(input_channels=8, residual_layers=2, residual_channels=8, dilation_cycle_length=2,
                   total_steps=10)
    fn = net if mode == "eval" else mean_loss_module()(net)
    # the spectrogram upsampler multiplies time by 256
    return fn, (torch.randn(_B, 1, 512), torch.tensor([3, 7]), torch.rand(_B, 8, 2)), {}


# ---------------------------------------------------------------- building blocks


def _rnn_block(cls_name, **kw):
    def make(mode):
        import torch
        import speechbrain as sb

        x = torch.rand(_B, 8, 12)
        net = getattr(sb.nnet.RNN, cls_name)(input_shape=x.shape, **kw)
        fn = net if mode == "eval" else mean_loss_module()(net)
        return fn, (x,), {}
    return make


def _lstm_gru_lengths(mode):
    import torch
    import speechbrain as sb

    lstm = sb.nnet.RNN.LSTM(hidden_size=8, input_size=12, num_layers=2, bidirectional=True)
    gru = sb.nnet.RNN.GRU(hidden_size=8, input_size=16, num_layers=1)

    def fwd(self, x, lens):
        h, _ = self.lstm(x, lengths=lens)
        return self.gru(h, lengths=lens)[0]
    m = _module(fwd, lstm=lstm, gru=gru)
    fn = m if mode == "eval" else mean_loss_module()(m)
    return fn, (torch.rand(_B, 8, 12), _lens()), {}


def _relpos_mha(mode):
    import torch
    from speechbrain.nnet.attention import RelPosEncXL, RelPosMHAXL

    pos, mha = RelPosEncXL(16), RelPosMHAXL(embed_dim=16, num_heads=2, dropout=0.1)

    def fwd(self, x, pad_mask):
        return self.mha(x, x, x, self.pos(x), key_padding_mask=pad_mask)
    m = _module(fwd, pos=pos, mha=mha)
    fn = m if mode == "eval" else mean_loss_module()(m)
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    return fn, (torch.rand(_B, 6, 16), pad), {}


def _rope_mha(mode):
    import torch
    from speechbrain.nnet.attention import RoPEMHA

    net = RoPEMHA(embed_dim=16, num_heads=2)
    fn = net if mode == "eval" else mean_loss_module()(net)
    x = torch.rand(_B, 6, 16)
    return fn, (x, x, x), {}


def _hypermixing(mode):
    import torch
    from speechbrain.nnet.hypermixing import HyperMixing

    net = HyperMixing(16, 32, num_heads=2)
    fn = net if mode == "eval" else mean_loss_module()(net)
    x = torch.rand(_B, 6, 16)
    return fn, (x, x, x), {}


def _pooling(mode):
    import torch
    from speechbrain.nnet.pooling import AttentionPooling, StatisticsPooling

    stats, attn = StatisticsPooling(), AttentionPooling(input_dim=16)

    def fwd(self, x, lens):
        s = self.stats(x, lengths=lens)      # (B, 1, 2D)
        return s, self.attn(x)
    m = _module(fwd, stats=stats, attn=attn)
    fn = m if mode == "eval" else mean_loss_module()(m)
    return fn, (torch.rand(_B, 10, 16), _lens()), {}


def _pcen(mode):
    import torch
    from speechbrain.nnet.normalization import PCEN

    net = PCEN(20, alpha=0.96)
    fn = net if mode == "eval" else mean_loss_module()(net)
    return fn, (torch.rand(_B, 12, 20),), {}


def _sequential_sinc(mode):
    import torch
    import speechbrain as sb
    from speechbrain.nnet.containers import Sequential

    x = torch.rand(_B, 400)
    net = Sequential(input_shape=x.shape)
    net.append(sb.nnet.CNN.SincConv, out_channels=8, kernel_size=17, stride=2)
    net.append(sb.nnet.normalization.LayerNorm)
    net.append(sb.nnet.pooling.Pooling1d("max", kernel_size=3))
    net.append(sb.nnet.CNN.Conv1d, out_channels=12, kernel_size=3, padding="same")
    net.append(sb.nnet.normalization.BatchNorm1d)
    net.append(torch.nn.LeakyReLU())
    net.append(sb.nnet.CNN.Conv1d, out_channels=12, kernel_size=3, dilation=2, padding="causal")
    net.append(sb.nnet.normalization.InstanceNorm1d)
    net.append(sb.nnet.CNN.DepthwiseSeparableConv1d, out_channels=12, kernel_size=3)
    net.append(sb.nnet.normalization.GroupNorm, num_groups=3)
    fn = net if mode == "eval" else mean_loss_module()(net)
    return fn, (x,), {}


MODELS = {
    # ASR
    "CRDNN_ctc": _crdnn,
    "TransformerASR_transformer": _asr_transformer("transformer"),
    "TransformerASR_conformer": _asr_transformer("conformer", attention_type="RelPosMHAXL"),
    "TransformerASR_branchformer": _asr_transformer("branchformer", attention_type="RelPosMHAXL"),
    "EncoderWrapper_causal_conformer": _encoder_wrapper,
    "ContextNet": _contextnet,
    "ESPnetVGG": _espnet_vgg,
    "VanillaNN_kldiv": _vanilla_nn,
    "LSTM_ctc_greedy_decode": _ctc_greedy,
    "AttentionalRNNDecoder_location": _attentional_rnn_decoder,
    "S2SRNNGreedySearcher": _rnn_greedy_searcher,
    "S2STransformerGreedySearcher": _transformer_greedy_searcher,
    # LMs
    "RNNLM": _rnnlm,
    "TransformerLM": _transformer_lm,
    # features
    "Fbank": _fbank,
    "MFCC": _mfcc,
    "InputNormalization": _input_norm,
    "Augmenter_SpecAugment": _spec_augment,
    # speaker
    "ECAPA_TDNN_aam": _ecapa,
    "Xvector_classifier": _xvector,
    "ResNet_speaker_aam": _resnet,
    # separation / enhancement
    "ConvTasNet_pit": _convtasnet,
    "SepFormer_pit": _sepformer,
    "MetricGAN": _metricgan,
    "EnhanceResnet": _enhance_resnet,
    # tagging / TTS / vocoders
    "Cnn14_bce": _cnn14,
    "Tacotron2": _tacotron2,
    "Tacotron2_infer": _tacotron2_infer,
    "HifiganGenerator": _hifigan,
    "DiffWave": _diffwave,
    # blocks
    "LiGRU": _rnn_block("LiGRU", hidden_size=8, num_layers=2, bidirectional=True),
    "SLiGRU": _rnn_block("SLiGRU", hidden_size=8, num_layers=1),
    "QuasiRNN": _rnn_block("QuasiRNN", hidden_size=8, num_layers=2, bidirectional=True),
    "LSTM_GRU_lengths": _lstm_gru_lengths,
    "RelPosMHAXL": _relpos_mha,
    "RoPEMHA": _rope_mha,
    "HyperMixing": _hypermixing,
    "StatisticsPooling_AttentionPooling": _pooling,
    "PCEN": _pcen,
    "Sequential_SincConv_norms": _sequential_sinc,
}
