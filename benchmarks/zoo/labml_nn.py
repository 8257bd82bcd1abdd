"""labml_nn 0.5.1 (labml.ai "Annotated PyTorch Paper Implementations"): its models, built as its
experiment files build them (the ``@option(Configs.model)`` / ``Configs.transformer`` functions
copied with tiny sizes, using the experiments' own model wrapper classes where those files
import), tiny (vocabulary 20, sequence 8, batch 2, d_model 16, 2 heads, d_ff 32, 2 layers; 8x8 to
32x32 images; MNIST's 28x28 / DQN's 84x84x4 where a model's layers fix the size), random weights,
no download. 45 entries:

- transformers (seq-first ``[seq_len, batch]`` tokens): the basic ``AutoregressiveTransformer``
  (``transformers.basic.autoregressive_experiment``: ``TransformerLayer`` / ``MultiHeadAttention``
  / ``FeedForward``, learned positions), ``EncoderDecoder`` (sinusoidal positions, source / target
  masks, ``LabelSmoothingLoss``), ``GPT`` (GELU, ``_init_weights``), AFT-local, ALiBi (no positional
  embedding), RoPE (``RotaryPEMultiHeadAttention``), Primer-EZ (``MultiDConvHeadAttention`` +
  ``SquaredReLU``), SwiGLU (gated FFN in ``glu_variants.experiment.AutoregressiveModel``), FNet
  (``FNetMix`` in ``fnet.experiment.TransformerClassifier``), gMLP (``GMLPBlock`` as the encoder
  layer), MLM (``TransformerMLM`` with the ``MLM`` masking), Switch (``SwitchTransformer`` in
  ``switch.experiment.AutoregressiveModel``), Feedback (``FeedbackTransformerKV``), Fast Weights
  (``DPFP``), Hourglass (``HourGlass``, shortening factor 2), Transformer-XL (``TransformerXL``
  with memories), Compressive Transformer (memories, compressed memories,
  ``AttentionReconstructionLoss``), ViT (``VisionTransformer``), DeepNorm
  (``DeepNormTransformerLayer``), FTA (``FeedForwardFTA``);
- normalization: ``batch_norm.mnist.Model`` (the library's ``BatchNorm``), ``GroupNorm`` in the
  group-norm experiment's conv blocks, ``weight_standardization.experiment.Model`` (weight
  standardized ``Conv2d`` + ``BatchChannelNorm``), ``LayerNorm`` after ``BatchChannelNorm``;
- vision: ``ResNetBase`` + linear head (``resnet.experiment``), ``ConvMixer``, the MNIST capsule
  network (``Router`` / ``Squash`` / ``MarginLoss``), evidential deep learning
  (``uncertainty.evidence``: ``MaximumLikelihoodLoss`` + annealed ``KLDivergenceLoss`` +
  ``TrackStatistics``);
- GANs: DCGAN generator / discriminator with ``gan.original``'s logits losses; WGAN losses with the
  gradient penalty; StyleGAN 2 at 8x8 (``MappingNetwork``, ``Generator``, ``Discriminator``; the
  experiment's own ``get_w`` (style mixing) / ``get_noise`` / ``generate_images`` methods,
  ``GradientPenalty``, ``PathLengthPenalty``);
- diffusion: DDPM (``ddpm.unet.UNet`` in ``DenoiseDiffusion``: ``loss`` / ``p_sample``), Stable
  Diffusion's ``UNetModel`` (tiny channels, cross-attention on a random conditioning);
- recurrent: ``lstm.LSTM``, ``hypernetworks.hyper_lstm.HyperLSTM``, Sketch-RNN (``EncoderRNN`` /
  ``DecoderRNN``, ``ReconstructionLoss`` / ``KLDivLoss``), PonderNet (``ParityPonderGRU``,
  ``ReconstructionLoss`` / ``RegularizationLoss``);
- graphs: ``graphs.gat.experiment.GAT`` and ``graphs.gatv2.experiment.GATv2`` (10 nodes, dense
  adjacency ``[n, n, 1]``);
- RL: PPO's ``ClippedPPOLoss`` / ``ClippedValueFunctionLoss`` + entropy bonus (``rl.ppo.experiment
  .Trainer``'s loss math) on a small MLP actor-critic; DQN's dueling ``rl.dqn.model.Model`` with
  ``QFuncLoss`` (double Q, target net under ``no_grad``, replay weights);
- optimizers: ``optimizers.adam.Adam``, ``ada_belief.AdaBelief`` (rectified), ``sophia.Sophia``
  (``update_hessian`` first), with ``WeightDecay``, stepping a 6-16-3 MLP;
- LoRA: ``lora.Embedding`` + ``lora.Linear`` as a tiny language model.

Eval: the forward the experiments call (a GAN: generator then discriminator; DDPM: one
``p_sample``; PPO: sample an action and its log-prob). Train: the experiment's ``step`` math (the
``CrossEntropyLoss`` of ``NLPAutoRegressionConfigs``, the switch load-balancing loss, capsule
margin + reconstruction loss, the GAN discriminator + generator losses, ``DenoiseDiffusion.loss``,
Sketch-RNN, PonderNet, evidential, GAT, PPO and DQN losses) without ``tracker`` logging,
``backward`` and the optimizer step; ``mean_loss_module`` where the library has no loss (the RNN
modules, the SD UNet, the norm stack). Optimizer entries: eval is ``optimizer.step()`` on the
gradients set while building; train a whole step (``zero_grad``, forward, cross-entropy,
``backward``, ``step``) returning the detached loss. Measured first as it came, before any rule
looked at it.

    pip install --no-deps labml-nn==0.5.1 labml==0.4.168 gitpython==3.1.45 gitdb==4.0.12 smmap==5.0.2

labml-nn declares labml (unpinned), torch, torchtext, torchvision, einops, numpy and fairscale.
labml 0.5.x (the newest, 0.5.3) removed ``tracker.debug``, which ``transformers.mha
.MultiHeadAttention.forward`` calls, and ``FloatDynamicHyperParam``: labml 0.4.168 (the last 0.4)
is the one the library runs with. labml 0.4.168 imports ``git`` (gitpython, which needs gitdb and
smmap) when an experiment file is imported; PyYAML and numpy are already installed, einops too.
torchvision (held out, never installed) is imported at the top of ``labml_nn.helpers.datasets``,
reached by nearly every experiment file through ``labml_nn.experiments.nlp_autoregression`` /
``mnist`` / ``cifar10``; torchtext and fairscale by a few experiment / scaling files: all three
are stubbed with ``stub_modules`` (``before_build``; no model here calls them).

Left out: RWKV (``rwkv.TimeMixing.forward`` indexes ``state`` when it is ``None`` and calls a
``self.wkv_function`` that does not exist: fails eagerly on any input); ``labml_nn.unet`` (its
``CropAndConcat`` calls ``torchvision.transforms.functional.center_crop`` in forward); CycleGAN
(torchvision transforms at its top); NeoX, LoRA-GPT2, RETRO, kNN-LM, the stable-diffusion CLIP
embedder / latent-diffusion wrapper and the sampling experiments (``tokenizers``, ``transformers``,
``faiss``, pretrained checkpoints); ``transformers.flash`` (triton, GPU); CFR (numpy game trees);
ZeRO-3 (fairscale, distributed); distillation (CIFAR CNNs like those kept). The PPO / DQN experiment
modules import ``cv2`` / ``gym`` (their ``Game``): the PPO actor-critic here is a small MLP (the
experiment's Atari ``Model`` lives in the unimportable file), DQN's ``Model`` is in ``rl.dqn.model``.
The XL / compressive experiment modules import a ``SimpleStateModule`` that
``labml_nn.helpers.metrics`` no longer has: their ``AutoregressiveModel`` is re-written here as in
those files (mask building, memory passed in). ``group_norm.experiment.Model`` uses an undefined
``fnorm``: its conv blocks are rebuilt with the library's ``GroupNorm``. For breadth at 45: one of
each pair (Feedback KV, SwiGLU), no RoPER, MLP-Mixer, RHN, InstanceNorm, SD autoencoder, RAdam /
AMSGrad / Noam (RAdam's rectification runs in AdaBelief), CrossEntropyBayesRisk.
Notes: StyleGAN 2 uses batch 4 (``MiniBatchStdDev``'s group size); its train step applies the
lazy gradient and path-length penalties every call (the experiment does every 4th / 32nd step).
"""

import functools

PACKAGE = "labml_nn"
DISTRIBUTION = "labml-nn"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
stub_modules = None  # adapter.stub_modules, set by ZooSuite

_V = 20  # vocabulary
_S = 8  # sequence length
_B = 2  # batch
_D = 16  # d_model
_H = 2  # heads
_FF = 32  # d_ff
_L = 2  # layers

_STUBS = {
    "torchvision": ((), ()),
    "torchvision.transforms": ((), ("Compose", "ToTensor", "Normalize", "InterpolationMode")),
    "torchvision.transforms.functional": (("to_pil_image", "resize", "center_crop"), ()),
    "torchvision.datasets": ((), ("MNIST", "CIFAR10")),
    "torchvision.utils": (("make_grid",), ()),
    "torchtext": ((), ()),
    "torchtext.data": (("get_tokenizer",), ()),
    "torchtext.vocab": ((), ("Vocab",)),
    "fairscale": ((), ()),
}


def before_build():
    import sys

    stub_modules(_STUBS, "labml_nn")
    tv = sys.modules["torchvision.transforms"]
    if getattr(tv, "__file__", None) is None and not hasattr(tv, "transforms"):
        tv.transforms = tv  # `from torchvision.transforms import transforms`


def warm_up():
    before_build()
    import torch  # noqa: F401

    import labml_nn
    import labml_nn.experiments.nlp_autoregression
    import labml_nn.transformers  # noqa: F401


# --- wrappers --------------------------------------------------------------------------------

@functools.cache
def _w():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    from labml_nn.experiments.nlp_autoregression import CrossEntropyLoss

    class ARLoss(nn.Module):
        """``NLPAutoRegressionConfigs.step``: ``output, *_ = model(data)``, cross-entropy."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            self.loss_func = CrossEntropyLoss()

        def forward(self, data, target):
            output, *_ = self.model(data)
            return self.loss_func(output, target)

    class ClassLoss(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model
            self.loss_func = nn.CrossEntropyLoss()

        def forward(self, data, target):
            output = self.model(data)
            if isinstance(output, tuple):
                output = output[0]
            return self.loss_func(output, target)

    class OptStep(nn.Module):
        """Eval: ``optimizer.step()`` on the gradients set while building; train: a whole step."""

        def __init__(self, model, optimizer):
            super().__init__()
            self.model = model
            object.__setattr__(self, "optimizer", optimizer)

        def forward(self, x, y):
            opt = self.optimizer
            if not (self.training and torch.is_grad_enabled()):
                opt.step()
                return self.model[0].weight.detach().clone()
            opt.zero_grad()
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            opt.step()
            return loss.detach()

    return {"ARLoss": ARLoss, "ClassLoss": ClassLoss, "OptStep": OptStep}


def _tokens():
    import torch

    return torch.randint(0, _V, (_S, _B))


def _ar(model, mode):
    """A language model on ``[seq_len, batch]`` tokens: eval forward, train its cross-entropy."""
    x = _tokens()
    if mode == "train":
        import torch

        return _w()["ARLoss"](model), (x, torch.randint(0, _V, (_S, _B))), {}
    return model, (x,), {}


def _layer(attn, ffn=None, d_model=_D):
    """``TransformerConfigs.encoder_layer``: ``TransformerLayer`` over ``encoder_attn`` and a
    deep copy of ``ffn.ffn`` (``FeedForwardConfigs``' ``FeedForward``)."""
    import torch.nn as nn

    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.models import TransformerLayer

    if ffn is None:
        ffn = FeedForward(d_model, _FF, dropout=0.1, activation=nn.ReLU())
    return TransformerLayer(d_model=d_model, self_attn=attn, src_attn=None, feed_forward=ffn, dropout_prob=0.1)


def _mha():
    from labml_nn.transformers.mha import MultiHeadAttention

    return MultiHeadAttention(_H, _D, dropout_prob=0.1)


def _encoder_ar(attn=None, ffn=None, embed="learned", cls=None):
    """``AutoregressiveTransformer(c.transformer.encoder, c.transformer.src_embed,
    c.transformer.generator)`` of the experiments built on ``TransformerConfigs``."""
    import torch.nn as nn

    from labml_nn.transformers.basic.autoregressive_experiment import AutoregressiveTransformer
    from labml_nn.transformers.models import (Encoder, EmbeddingsWithLearnedPositionalEncoding,
                                              EmbeddingsWithPositionalEncoding, Generator)

    layer = _layer(attn if attn is not None else _mha(), ffn)
    if embed == "learned":
        src_embed = EmbeddingsWithLearnedPositionalEncoding(_D, _V)
    elif embed == "fixed":
        src_embed = EmbeddingsWithPositionalEncoding(_D, _V)
    else:
        src_embed = nn.Embedding(_V, _D)
    cls = cls or AutoregressiveTransformer
    return cls(Encoder(layer, _L), src_embed, Generator(_V, _D))


# --- transformers ----------------------------------------------------------------------------

def _basic_transformer(mode):
    return _ar(_encoder_ar(), mode)


def _encoder_decoder(mode):
    import torch

    from labml_nn.transformers.models import (Decoder, Encoder, EncoderDecoder, EmbeddingsWithPositionalEncoding,
                                              Generator, TransformerLayer)
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.utils import subsequent_mask

    enc_layer = _layer(_mha())
    dec_layer = TransformerLayer(d_model=_D, self_attn=_mha(), src_attn=_mha(),
                                 feed_forward=FeedForward(_D, _FF, 0.1), dropout_prob=0.1)
    model = EncoderDecoder(Encoder(enc_layer, _L), Decoder(dec_layer, _L), EmbeddingsWithPositionalEncoding(_D, _V),
                           EmbeddingsWithPositionalEncoding(_D, _V), Generator(_V, _D))
    src, tgt = _tokens(), _tokens()
    src_mask = torch.ones(1, _S, 1, dtype=torch.bool)
    tgt_mask = subsequent_mask(_S)
    if mode == "train":
        from labml_nn.transformers.label_smoothing_loss import LabelSmoothingLoss

        class Seq2SeqLoss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model
                self.loss = LabelSmoothingLoss(_V, padding_idx=0, smoothing=0.1)

            def forward(self, src, tgt, src_mask, tgt_mask, target):
                out = self.model.generator(self.model(src, tgt, src_mask, tgt_mask))
                return self.loss(out.log_softmax(-1).view(-1, _V), target.view(-1))

        return Seq2SeqLoss(), (src, tgt, src_mask, tgt_mask, _tokens()), {}
    return model, (src, tgt, src_mask, tgt_mask), {}


def _gpt(mode):
    import torch.nn as nn

    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.gpt import GPT, _init_weights

    m = _encoder_ar(ffn=FeedForward(_D, _FF, 0.1, activation=nn.GELU()), cls=GPT)
    m.apply(_init_weights)
    return _ar(m, mode)


def _aft(mode):
    from labml_nn.transformers.aft import AFTLocal
    from labml_nn.transformers.aft.experiment import AutoregressiveTransformer

    return _ar(_encoder_ar(AFTLocal(_D, _S, 4), cls=AutoregressiveTransformer), mode)


def _alibi(mode):
    import torch.nn as nn

    from labml_nn.transformers.alibi import AlibiMultiHeadAttention
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.gpt import GPT

    m = _encoder_ar(AlibiMultiHeadAttention(_H, _D, dropout_prob=0.1),
                    ffn=FeedForward(_D, _FF, 0.1, activation=nn.GELU()), embed="no_pos", cls=GPT)
    return _ar(m, mode)


def _rope(mode):
    from labml_nn.transformers.rope import RotaryPEMultiHeadAttention

    return _ar(_encoder_ar(RotaryPEMultiHeadAttention(_H, _D, 1.), embed="no_pos"), mode)


def _primer_ez(mode):
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.primer_ez import MultiDConvHeadAttention, SquaredReLU

    m = _encoder_ar(MultiDConvHeadAttention(_H, _D, dropout_prob=0.1),
                    ffn=FeedForward(_D, _FF, 0.1, activation=SquaredReLU()))
    return _ar(m, mode)


def _glu(variant):
    def make(mode):
        import torch.nn as nn

        from labml_nn.transformers.feed_forward import FeedForward
        from labml_nn.transformers.glu_variants.experiment import AutoregressiveModel
        from labml_nn.transformers.models import Encoder, EmbeddingsWithPositionalEncoding, Generator

        act = {"GEGLU": nn.GELU(), "SwiGLU": nn.SiLU()}[variant]
        ffn = FeedForward(_D, _FF, 0.1, activation=act, is_gated=True, bias1=False, bias2=False, bias_gate=False)
        m = AutoregressiveModel(EmbeddingsWithPositionalEncoding(_D, _V), Encoder(_layer(_mha(), ffn), _L),
                                Generator(_V, _D))
        return _ar(m, mode)

    return make


def _fnet(mode):
    import torch

    from labml_nn.transformers.fnet import FNetMix
    from labml_nn.transformers.fnet.experiment import TransformerClassifier
    from labml_nn.transformers.models import Encoder, EmbeddingsWithLearnedPositionalEncoding

    m = TransformerClassifier(Encoder(_layer(FNetMix()), _L), EmbeddingsWithLearnedPositionalEncoding(_D, _V),
                              torch.nn.Linear(_D, 4))
    x = _tokens()
    if mode == "train":
        return _w()["ClassLoss"](m), (x, torch.arange(_B) % 4), {}
    return m, (x,), {}


def _gmlp(mode):
    from labml_nn.transformers.basic.autoregressive_experiment import AutoregressiveTransformer
    from labml_nn.transformers.gmlp import GMLPBlock
    from labml_nn.transformers.models import Encoder, EmbeddingsWithLearnedPositionalEncoding, Generator

    m = AutoregressiveTransformer(Encoder(GMLPBlock(_D, _FF, _S), _L), EmbeddingsWithLearnedPositionalEncoding(_D, _V),
                                  Generator(_V, _D))
    return _ar(m, mode)


def _mlm_model(attn):
    from labml_nn.transformers.mlm.experiment import TransformerMLM
    from labml_nn.transformers.models import Encoder, EmbeddingsWithLearnedPositionalEncoding, Generator

    return TransformerMLM(encoder=Encoder(_layer(attn), _L), src_embed=EmbeddingsWithLearnedPositionalEncoding(_D, _V + 2),
                          generator=Generator(_V + 2, _D))


def _mlm_entry(model, mode):
    """``transformers.mlm.experiment.Configs.step``: mask with ``MLM`` (under ``no_grad``), then
    cross-entropy ignoring the padding label."""
    import torch

    from labml_nn.transformers.mlm import MLM

    x = torch.randint(1, _V, (_S, _B))
    if mode != "train":
        return model, (x,), {}

    class MLMLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model
            self.mlm = MLM(padding_token=0, mask_token=_V, no_mask_tokens=[_V + 1], n_tokens=_V + 2)
            self.loss_func = torch.nn.CrossEntropyLoss(ignore_index=0)

        def forward(self, data):
            with torch.no_grad():
                data, labels = self.mlm(data)
            output, *_ = self.model(data)
            return self.loss_func(output.view(-1, output.shape[-1]), labels.view(-1))

    return MLMLoss(), (x,), {}


def _mlm(mode):
    return _mlm_entry(_mlm_model(_mha()), mode)


def _switch(mode):
    import torch

    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.mha import MultiHeadAttention
    from labml_nn.transformers.switch import SwitchFeedForward, SwitchTransformer, SwitchTransformerLayer
    from labml_nn.transformers.switch.experiment import AutoregressiveModel

    n_experts = 4
    m = AutoregressiveModel(_V, _D, SwitchTransformer(
        SwitchTransformerLayer(d_model=_D, attn=MultiHeadAttention(_H, _D, 0.0),
                               feed_forward=SwitchFeedForward(capacity_factor=1.0, drop_tokens=False, is_scale_prob=True,
                                                              n_experts=n_experts, expert=FeedForward(_D, _FF, 0.0),
                                                              d_model=_D),
                               dropout_prob=0.0), _L))
    if mode != "train":
        return m, (_tokens(),), {}

    from labml_nn.experiments.nlp_autoregression import CrossEntropyLoss

    class SwitchLoss(torch.nn.Module):
        """``switch.experiment.Configs.step``: cross-entropy plus the load-balancing loss."""

        def __init__(self):
            super().__init__()
            self.model = m
            self.loss_func = CrossEntropyLoss()
            self.n_experts = n_experts
            self.load_balancing_loss_ceof = 0.01

        def forward(self, data, target):
            output, counts, route_prob, n_dropped, route_prob_max = self.model(data)
            cross_entropy_loss = self.loss_func(output, target)
            total = counts.sum(dim=-1, keepdims=True)
            route_frac = counts / total
            route_prob = route_prob / total
            load_balancing_loss = self.n_experts * (route_frac * route_prob).sum()
            return cross_entropy_loss + self.load_balancing_loss_ceof * load_balancing_loss

    return SwitchLoss(), (_tokens(), _tokens()), {}


def _feedback(kv):
    def make(mode):
        from labml_nn.transformers.feedback import (FeedbackAttention, FeedbackTransformer, FeedbackTransformerKV,
                                                    FeedbackTransformerLayer, FeedForward)
        from labml_nn.transformers.feedback.experiment import AutoregressiveModel

        layer = FeedbackTransformerLayer(d_model=_D, attn=FeedbackAttention(_H, _D, 0.1, is_kv_precomputed=kv),
                                         feed_forward=FeedForward(_D, _FF, 0.1), dropout_prob=0.1)
        t = FeedbackTransformerKV(layer, _L, _D, _H) if kv else FeedbackTransformer(layer, _L)
        return _ar(AutoregressiveModel(_V, _D, t), mode)

    return make


def _fast_weights(mode):
    from labml_nn.transformers.fast_weights import (DPFP, FastWeightsAttention, FastWeightsAttentionTransformer,
                                                    FastWeightsAttentionTransformerLayer, FeedForward)
    from labml_nn.transformers.fast_weights.experiment import AutoregressiveModel

    m = AutoregressiveModel(_V, _D, FastWeightsAttentionTransformer(
        FastWeightsAttentionTransformerLayer(d_model=_D, attn=FastWeightsAttention(_H, _D, 0.1, DPFP(nu=1)),
                                             feed_forward=FeedForward(_D, _FF, 0.1), dropout_prob=0.1), _L))
    return _ar(m, mode)


def _hour_glass(mode):
    from labml_nn.transformers.hour_glass import HourGlass
    from labml_nn.transformers.hour_glass.experiment import AutoregressiveTransformer

    return _ar(AutoregressiveTransformer(_V, _D, 0.1, HourGlass(_H, _D, 0.1, _FF, [2])), mode)


def _xl(mode):
    """``xl.experiment``'s ``AutoregressiveModel``: the memory of the previous segment passed in
    (the experiment's ``merge_memory``: concatenated, truncated to ``mem_len``) and the new one
    returned."""
    import torch
    import torch.nn as nn

    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.utils import subsequent_mask
    from labml_nn.transformers.xl import TransformerXL, TransformerXLLayer
    from labml_nn.transformers.xl.relative_mha import RelativeMultiHeadAttention

    class AutoregressiveModel(nn.Module):
        def __init__(self, n_vocab, d_model, transformer):
            super().__init__()
            self.src_embed = nn.Embedding(n_vocab, d_model)
            self.transformer = transformer
            self.generator = nn.Linear(d_model, n_vocab)
            self.mask_x = None
            self.mask_mem = None

        def forward(self, x, mem):
            m_len = len(mem[0]) if mem else 0
            if self.mask_x is None or self.mask_x.shape[0] < len(x):
                self.mask_x = subsequent_mask(len(x)).to(x.device)
            if self.mask_mem is None or self.mask_mem.shape[1] < m_len or self.mask_mem.shape[0] < len(x):
                self.mask_mem = self.mask_x.new_ones(len(x), m_len, 1)
            if m_len:
                mask = torch.cat((self.mask_mem[:len(x), :m_len], self.mask_x[:len(x), :len(x)]), dim=1)
            else:
                mask = self.mask_x[:len(x), :len(x)]
            x = self.src_embed(x)
            res, mem = self.transformer(x, mem, mask)
            res = self.generator(res)
            return res, mem

    m = AutoregressiveModel(_V, _D, TransformerXL(
        TransformerXLLayer(d_model=_D, self_attn=RelativeMultiHeadAttention(_H, _D, 0.1),
                           feed_forward=FeedForward(_D, _FF, 0.1), dropout_prob=0.1), _L))
    mem = [torch.randn(4, _B, _D) for _ in range(_L)]
    if mode == "train":
        from labml_nn.experiments.nlp_autoregression import CrossEntropyLoss

        class XLLoss(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = m
                self.loss_func = CrossEntropyLoss()

            def forward(self, data, target, mem):
                output, new_mem = self.model(data, mem)
                return self.loss_func(output, target)

        return XLLoss(), (_tokens(), _tokens(), mem), {}
    return m, (_tokens(), mem), {}


def _compressive(mode):
    """``compressive.experiment``: memories and compressed memories passed in, the
    cross-entropy plus the ``AttentionReconstructionLoss`` of the memories being compressed."""
    import torch
    import torch.nn as nn

    from labml_nn.transformers.compressive import (AttentionReconstructionLoss, CompressiveTransformer,
                                                   CompressiveTransformerLayer, Conv1dCompression)
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.utils import subsequent_mask
    from labml_nn.transformers.xl.relative_mha import RelativeMultiHeadAttention

    class AutoregressiveModel(nn.Module):
        def __init__(self, n_vocab, d_model, transformer):
            super().__init__()
            self.src_embed = nn.Embedding(n_vocab, d_model)
            self.transformer = transformer
            self.generator = nn.Linear(d_model, n_vocab)
            self.mask_x = None
            self.mask_mem = None

        def forward(self, x, mem, c_mem):
            m_len = len(mem[0]) + len(c_mem[0])
            if self.mask_x is None or self.mask_x.shape[0] < len(x):
                self.mask_x = subsequent_mask(len(x)).to(x.device)
            if self.mask_mem is None or self.mask_mem.shape[1] < m_len or self.mask_mem.shape[0] < len(x):
                self.mask_mem = self.mask_x.new_ones(len(x), m_len, 1)
            mask = torch.cat((self.mask_mem[:len(x), :m_len], self.mask_x[:len(x), :len(x)]), dim=1)
            x = self.src_embed(x)
            res, mem = self.transformer(x, mem, c_mem, mask)
            res = self.generator(res)
            return res, mem

    m = AutoregressiveModel(_V, _D, CompressiveTransformer(
        CompressiveTransformerLayer(d_model=_D, self_attn=RelativeMultiHeadAttention(_H, _D, 0.1),
                                    feed_forward=FeedForward(_D, _FF, 0.1), dropout_prob=0.1,
                                    compress=Conv1dCompression(2, _D)), _L))
    mem = [torch.randn(4, _B, _D) for _ in range(_L)]
    c_mem = [torch.randn(2, _B, _D) for _ in range(_L)]
    if mode == "train":
        from labml_nn.experiments.nlp_autoregression import CrossEntropyLoss

        class CompressiveLoss(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = m
                self.loss_func = CrossEntropyLoss()
                self.attention_reconstruction_loss = AttentionReconstructionLoss(m.transformer.layers)

            def forward(self, data, target, mem, c_mem):
                output, new_mem = self.model(data, mem, c_mem)
                loss = self.loss_func(output, target)
                ar_loss = self.attention_reconstruction_loss(new_mem, mem)
                return loss + ar_loss

        return CompressiveLoss(), (_tokens(), _tokens(), mem, c_mem), {}
    return m, (_tokens(), mem, c_mem), {}


def _vit(mode):
    import torch

    from labml_nn.transformers.vit import (ClassificationHead, LearnedPositionalEmbeddings, PatchEmbeddings,
                                           VisionTransformer)

    m = VisionTransformer(_layer(_mha()), _L, PatchEmbeddings(_D, 4, 3), LearnedPositionalEmbeddings(_D),
                          ClassificationHead(_D, 32, 10))
    x = torch.randn(_B, 3, 16, 16)
    if mode == "train":
        return _w()["ClassLoss"](m), (x, torch.arange(_B) % 10), {}
    return m, (x,), {}


def _deep_norm(mode):
    from labml_nn.normalization.deep_norm import DeepNormTransformerLayer
    from labml_nn.normalization.deep_norm.experiment import AutoregressiveTransformer
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.mha import MultiHeadAttention

    alpha = (2. * _L) ** (1. / 4.)
    beta = (8. * _L) ** -(1. / 4.)
    m = AutoregressiveTransformer(_V, _D, _L, DeepNormTransformerLayer(
        d_model=_D, deep_norm_alpha=alpha, deep_norm_beta=beta, feed_forward=FeedForward(d_model=_D, d_ff=_D * 4),
        self_attn=MultiHeadAttention(_H, _D, dropout_prob=0.0)))
    return _ar(m, mode)


def _fta(mode):
    from labml_nn.activations.fta import FTA
    from labml_nn.activations.fta.experiment import AutoregressiveTransformer, FeedForwardFTA
    from labml_nn.transformers.mha import MultiHeadAttention
    from labml_nn.transformers.models import TransformerLayer

    fta = FTA(-1., +1., 0.2, 0.05)
    m = AutoregressiveTransformer(_V, _D, _L, TransformerLayer(
        d_model=_D, feed_forward=FeedForwardFTA(d_model=_D, d_ff=_FF, activation=fta, dropout=0.1),
        self_attn=MultiHeadAttention(_H, _D, dropout_prob=0.0), dropout_prob=0.0))
    return _ar(m, mode)


# --- vision ----------------------------------------------------------------------------------

def _classifier(m, x, classes, mode):
    import torch

    if mode == "train":
        return _w()["ClassLoss"](m), (x, torch.arange(x.shape[0]) % classes), {}
    return m, (x,), {}


def _resnet(mode):
    import torch
    import torch.nn as nn

    from labml_nn.resnet import ResNetBase

    # resnet.experiment._resnet: ResNetBase then a linear classifier
    base = ResNetBase([1, 1], [8, 16], [4, 8], img_channels=3, first_kernel_size=3)
    m = nn.Sequential(base, nn.Linear(16, 10))
    return _classifier(m, torch.randn(_B, 3, 16, 16), 10, mode)


def _conv_mixer(mode):
    import torch

    from labml_nn.conv_mixer import ClassificationHead, ConvMixer, ConvMixerLayer, PatchEmbeddings

    m = ConvMixer(ConvMixerLayer(_D, 3), _L, PatchEmbeddings(_D, 2, 3), ClassificationHead(_D, 10))
    return _classifier(m, torch.randn(_B, 3, 16, 16), 10, mode)


def _norm_cnn(kind):
    """The MNIST / CIFAR-10 models of the normalization experiments (``batch_norm.mnist.Model``,
    ``group_norm.experiment.Model``'s blocks, ``weight_standardization.experiment.Model``)."""

    def make(mode):
        import torch

        if kind == "BatchNorm":
            from labml_nn.normalization.batch_norm.mnist import Model
            m, x = Model(), torch.randn(_B, 1, 28, 28)
        elif kind == "GroupNorm":  # group_norm.experiment.Model's blocks (that file's `fnorm` is undefined)
            from labml_nn.normalization.group_norm import GroupNorm
            nn = torch.nn
            m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), GroupNorm(2, 8), nn.ReLU(inplace=True), nn.MaxPool2d(2),
                              nn.Conv2d(8, 16, 3, padding=1), GroupNorm(2, 16), nn.ReLU(inplace=True),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
            x = torch.randn(_B, 3, 16, 16)
        else:
            from labml_nn.normalization.weight_standardization.experiment import Model
            m, x = Model(), torch.randn(_B, 3, 32, 32)
        return _classifier(m, x, 10, mode)

    return make


def _layer_norm(mode):
    import torch

    from labml_nn.normalization.batch_channel_norm import BatchChannelNorm
    from labml_nn.normalization.layer_norm import LayerNorm

    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), BatchChannelNorm(8, 2), torch.nn.ReLU(),
                            torch.nn.Flatten(2), LayerNorm([8, 36]))
    return (mean_loss_module()(m) if mode == "train" else m), (torch.randn(_B, 3, 8, 8),), {}


def _capsule(mode):
    import torch

    from labml_nn.capsule_networks import MarginLoss
    from labml_nn.capsule_networks.mnist import MNISTCapsuleNetworkModel

    m = MNISTCapsuleNetworkModel()
    x = torch.rand(_B, 1, 28, 28)
    if mode != "train":
        return m, (x,), {}

    class CapsuleLoss(torch.nn.Module):
        """``capsule_networks.mnist.Configs.step``."""

        def __init__(self):
            super().__init__()
            self.model = m
            self.reconstruction_loss = torch.nn.MSELoss()
            self.margin_loss = MarginLoss(n_labels=10)

        def forward(self, data, target):
            caps, reconstructions, pred = self.model(data)
            return self.margin_loss(caps, target) + 0.0005 * self.reconstruction_loss(reconstructions, data)

    return CapsuleLoss(), (x, torch.arange(_B) % 10), {}


def _evidence(loss_name):
    def make(mode):
        import torch

        from labml_nn.uncertainty import evidence
        from labml_nn.uncertainty.evidence.experiment import Model

        m = Model(0.5)
        x = torch.randn(_B, 1, 28, 28)
        if mode != "train":
            return m, (x,), {}

        class EvidenceLoss(torch.nn.Module):
            """``uncertainty.evidence.experiment.Configs.step`` (ReLU evidence, annealed KL)."""

            def __init__(self):
                super().__init__()
                self.model = m
                self.outputs_to_evidence = torch.nn.ReLU()
                self.loss_func = getattr(evidence, loss_name)()
                self.kl_div_loss = evidence.KLDivergenceLoss()
                self.stats = evidence.TrackStatistics()

            def forward(self, data, target):
                eye = torch.eye(10).to(torch.float).to(data.device)
                target = eye[target]
                outputs = self.model(data)
                evidence_ = self.outputs_to_evidence(outputs)
                loss = self.loss_func(evidence_, target)
                kl_div_loss = self.kl_div_loss(evidence_, target)
                annealing_coef = min(1., 0.01)
                loss = loss + annealing_coef * kl_div_loss
                self.stats(evidence_, target)
                return loss

        return EvidenceLoss(), (x, torch.arange(_B) % 10), {}

    return make


# --- GANs ------------------------------------------------------------------------------------

def _dcgan(mode):
    """``gan.dcgan`` generator / discriminator (MNIST 28x28) with ``gan.original``'s logits losses
    (``gan.original.experiment.Configs.step``: discriminator then generator)."""
    import torch

    from labml_nn.gan.dcgan import Discriminator, Generator, _weights_init
    from labml_nn.gan.original import DiscriminatorLogitsLoss, GeneratorLogitsLoss

    g, d = Generator(), Discriminator()
    g.apply(_weights_init)
    d.apply(_weights_init)
    z = torch.randn(_B, 100)
    if mode != "train":
        class GD(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.generator, self.discriminator = g, d

            def forward(self, z):
                return self.discriminator(self.generator(z))

        return GD(), (z,), {}

    class GANLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.generator, self.discriminator = g, d
            self.discriminator_loss = DiscriminatorLogitsLoss(0.2)
            self.generator_loss = GeneratorLogitsLoss(0.2)

        def forward(self, data, z):
            logits_true = self.discriminator(data)
            logits_false = self.discriminator(self.generator(z).detach())
            loss_true, loss_false = self.discriminator_loss(logits_true, logits_false)
            d_loss = loss_true + loss_false
            generated_images = self.generator(z)
            g_loss = self.generator_loss(self.discriminator(generated_images))
            return d_loss + g_loss

    return GANLoss(), (torch.randn(_B, 1, 28, 28), z), {}


def _wgan_gp(mode):
    """``gan.wasserstein.gradient_penalty.experiment``: WGAN losses on the DCGAN nets, the
    gradient penalty on real images with ``requires_grad_``."""
    import torch

    from labml_nn.gan.dcgan import Discriminator, Generator
    from labml_nn.gan.wasserstein import DiscriminatorLoss, GeneratorLoss
    from labml_nn.gan.wasserstein.gradient_penalty import GradientPenalty

    g, d = Generator(), Discriminator()

    class WGANLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.generator, self.discriminator = g, d
            self.discriminator_loss = DiscriminatorLoss()
            self.generator_loss = GeneratorLoss()
            self.gradient_penalty = GradientPenalty()

        def forward(self, data, z):
            data = data.requires_grad_()
            f_real = self.discriminator(data)
            f_fake = self.discriminator(self.generator(z).detach())
            loss_true, loss_false = self.discriminator_loss(f_real, f_fake)
            gp = self.gradient_penalty(data, f_real)
            d_loss = loss_true + loss_false + 10.0 * gp
            g_loss = self.generator_loss(self.discriminator(self.generator(z)))
            return d_loss + g_loss

    if mode != "train":
        return mean_loss_module()(d), (torch.randn(_B, 1, 28, 28),), {}
    return WGANLoss(), (torch.randn(_B, 1, 28, 28), torch.randn(_B, 100)), {}


def _stylegan(mode):
    """StyleGAN 2 at 8x8 (``log_resolution=3``), ``d_latent=16``; the experiment's own
    ``get_w`` (style mixing) / ``get_noise`` / ``generate_images`` methods called on the model
    holder, then (train) its discriminator step (with the lazy gradient penalty) and generator
    step (with the path length penalty)."""
    import torch

    from labml_nn.gan.stylegan import Discriminator, Generator, GradientPenalty, MappingNetwork, PathLengthPenalty
    from labml_nn.gan.stylegan.experiment import Configs
    from labml_nn.gan.wasserstein import DiscriminatorLoss, GeneratorLoss

    log_resolution, d_latent = 3, 16

    class StyleGAN(torch.nn.Module):
        get_w = Configs.get_w
        get_noise = Configs.get_noise
        generate_images = Configs.generate_images

        def __init__(self):
            super().__init__()
            self.mapping_network = MappingNetwork(d_latent, 2)
            self.generator = Generator(log_resolution, d_latent, n_features=8, max_features=16)
            self.discriminator = Discriminator(log_resolution, n_features=8, max_features=16)
            self.n_gen_blocks = self.generator.n_blocks
            self.d_latent = d_latent
            self.style_mixing_prob = 0.9
            self.device = torch.device("cpu")
            self.batch_size = 4  # MiniBatchStdDev's group size
            self.discriminator_loss = DiscriminatorLoss()
            self.generator_loss = GeneratorLoss()
            self.gradient_penalty = GradientPenalty()
            self.path_length_penalty = PathLengthPenalty(0.99)
            self.gradient_penalty_coefficient = 10.

        def forward(self, real_images):
            if not self.training:
                images, _ = self.generate_images(self.batch_size)
                return self.discriminator(images)
            generated_images, _ = self.generate_images(self.batch_size)
            fake_output = self.discriminator(generated_images.detach())
            real_images = real_images.requires_grad_()
            real_output = self.discriminator(real_images)
            real_loss, fake_loss = self.discriminator_loss(real_output, fake_output)
            disc_loss = real_loss + fake_loss
            gp = self.gradient_penalty(real_images, real_output)
            disc_loss = disc_loss + 0.5 * self.gradient_penalty_coefficient * gp * 4
            generated_images, w = self.generate_images(self.batch_size)
            fake_output = self.discriminator(generated_images)
            gen_loss = self.generator_loss(fake_output)
            plp = self.path_length_penalty(w, generated_images)
            if not torch.isnan(plp):
                gen_loss = gen_loss + plp
            return disc_loss + gen_loss

    return StyleGAN(), (torch.randn(4, 3, 8, 8),), {}


# --- diffusion -------------------------------------------------------------------------------

def _ddpm(mode):
    """``diffusion.ddpm.experiment``: ``UNet`` (tiny channel multipliers, attention at the second
    resolution) inside ``DenoiseDiffusion``; train ``diffusion.loss(x0)``, eval one ``p_sample``
    step as ``sample()`` does."""
    import torch

    from labml_nn.diffusion.ddpm import DenoiseDiffusion
    from labml_nn.diffusion.ddpm.unet import UNet

    eps_model = UNet(image_channels=1, n_channels=32, ch_mults=[1, 2], is_attn=[False, True], n_blocks=1)
    diffusion = DenoiseDiffusion(eps_model=eps_model, n_steps=10, device=torch.device("cpu"))

    class DDPM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.eps_model = eps_model

        def forward(self, x):
            if self.training:
                return diffusion.loss(x)
            t = x.new_full((x.shape[0],), 5, dtype=torch.long)
            return diffusion.p_sample(x, t)

    return DDPM(), (torch.randn(_B, 1, 8, 8),), {}


def _sd_unet(mode):
    import torch

    from labml_nn.diffusion.stable_diffusion.model.unet import UNetModel

    m = UNetModel(in_channels=4, out_channels=4, channels=32, n_res_blocks=1, attention_levels=[1],
                  channel_multipliers=[1, 2], n_heads=2, tf_layers=1, d_cond=16)
    args = (torch.randn(_B, 4, 8, 8), torch.tensor([3, 7]), torch.randn(_B, 4, 16))
    return (mean_loss_module()(m) if mode == "train" else m), args, {}


# --- recurrent -------------------------------------------------------------------------------

def _rnn(kind):
    def make(mode):
        import torch

        if kind == "LSTM":
            from labml_nn.lstm import LSTM
            m = LSTM(8, _D, _L)
        else:  # hypernetworks.experiment's HyperLSTM (hyper_size, n_z) shrunk
            from labml_nn.hypernetworks.hyper_lstm import HyperLSTM
            m = HyperLSTM(8, _D, 8, 4, _L)
        x = torch.randn(_S, _B, 8)
        return (mean_loss_module()(m) if mode == "train" else m), (x,), {}

    return make


def _sketch_rnn(mode):
    """``sketch_rnn.Configs.step``: encoder, the decoder on the shifted strokes with ``z``, the
    reconstruction (``BivariateGaussianMixture``) and KL losses."""
    import torch

    from labml_nn.sketch_rnn import DecoderRNN, EncoderRNN, KLDivLoss, ReconstructionLoss

    class SketchRNN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = EncoderRNN(8, 16)
            self.decoder = DecoderRNN(8, 16, 3)
            self.kl_div_loss = KLDivLoss()
            self.reconstruction_loss = ReconstructionLoss()
            self.kl_div_loss_weight = 0.5

        def forward(self, data, mask):
            z, mu, sigma_hat = self.encoder(data)
            z_stack = z.unsqueeze(0).expand(data.shape[0] - 1, -1, -1)
            inputs = torch.cat([data[:-1], z_stack], 2)
            dist, q_logits, _ = self.decoder(inputs, z, None)
            if not self.training:
                return dist.pi_logits, q_logits
            kl_loss = self.kl_div_loss(sigma_hat, mu)
            reconstruction_loss = self.reconstruction_loss(mask, data[1:], dist, q_logits)
            return reconstruction_loss + self.kl_div_loss_weight * kl_loss

    data = torch.cat([torch.randn(_S + 1, _B, 2),
                      torch.nn.functional.one_hot(torch.randint(0, 3, (_S + 1, _B)), 3).float()], 2)
    mask = torch.ones(_S, _B)
    return SketchRNN(), (data, mask), {}


def _ponder_net(mode):
    import torch

    from labml_nn.adaptive_computation.ponder_net import ParityPonderGRU, ReconstructionLoss, RegularizationLoss

    m = ParityPonderGRU(8, 16, 5)
    x = torch.randint(-1, 2, (_B, 8)).float()
    if mode != "train":
        return m, (x,), {}

    class PonderLoss(torch.nn.Module):
        """``ponder_net.experiment.Configs.step``."""

        def __init__(self):
            super().__init__()
            self.model = m
            self.loss_rec = ReconstructionLoss(torch.nn.BCEWithLogitsLoss(reduction='none'))
            self.loss_reg = RegularizationLoss(0.2, 5)
            self.beta = 0.01

        def forward(self, data, target):
            p, y_hat, p_sampled, y_hat_sampled = self.model(data)
            loss_rec = self.loss_rec(p, y_hat, target.to(torch.float))
            loss_reg = self.loss_reg(p)
            return loss_rec + self.beta * loss_reg

    return PonderLoss(), (x, torch.randint(0, 2, (_B,))), {}


# --- graphs ----------------------------------------------------------------------------------

def _gat(v2):
    def make(mode):
        import torch

        if v2:
            from labml_nn.graphs.gatv2.experiment import GATv2
            m = GATv2(12, 8, 3, 2, 0.6, share_weights=False)
        else:
            from labml_nn.graphs.gat.experiment import GAT
            m = GAT(12, 8, 3, 2, 0.6)
        n = 10
        x = torch.randn(n, 12)
        adj = (torch.rand(n, n) < 0.3) | torch.eye(n, dtype=torch.bool)
        adj = adj.unsqueeze(-1)
        if mode != "train":
            return m, (x, adj), {}

        class GATLoss(torch.nn.Module):
            """``gat.experiment.Configs.run``: cross-entropy on the training nodes."""

            def __init__(self):
                super().__init__()
                self.model = m
                self.loss_func = torch.nn.CrossEntropyLoss()

            def forward(self, features, edges_adj, labels, idx_train):
                output = self.model(features, edges_adj)
                return self.loss_func(output[idx_train], labels[idx_train])

        return GATLoss(), (x, adj, torch.arange(n) % 3, torch.randperm(n)[:6]), {}

    return make


# --- RL --------------------------------------------------------------------------------------

def _ppo(mode):
    """``rl.ppo.experiment.Trainer._calc_loss`` on a small actor-critic (the experiment's Atari
    ``Model`` module does not import here): normalised advantages, ``ClippedPPOLoss``, entropy
    bonus, ``ClippedValueFunctionLoss``."""
    import torch
    import torch.nn as nn
    from torch.distributions import Categorical

    from labml_nn.rl.ppo import ClippedPPOLoss, ClippedValueFunctionLoss

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(6, 32)
            self.pi_logits = nn.Linear(32, 4)
            self.value = nn.Linear(32, 1)
            self.activation = nn.ReLU()

        def forward(self, obs):
            h = self.activation(self.lin(obs))
            pi = Categorical(logits=self.pi_logits(h))
            value = self.value(h).reshape(-1)
            return pi, value

    m = Model()
    n = 8
    obs = torch.randn(n, 6)
    if mode != "train":
        class Act(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = m

            def forward(self, obs):
                pi, v = self.model(obs)
                a = pi.sample()
                return a, pi.log_prob(a), v

        return Act(), (obs,), {}

    def normalize(adv):
        return (adv - adv.mean()) / (adv.std() + 1e-8)

    class PPOLoss(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = m
            self.ppo_loss = ClippedPPOLoss()
            self.value_loss = ClippedValueFunctionLoss()

        def forward(self, obs, actions, values, log_pis, advantages, clip_range):
            sampled_return = values + advantages
            sampled_normalized_advantage = normalize(advantages)
            pi, value = self.model(obs)
            log_pi = pi.log_prob(actions)
            policy_loss = self.ppo_loss(log_pi, log_pis, sampled_normalized_advantage, clip_range)
            entropy_bonus = pi.entropy()
            entropy_bonus = entropy_bonus.mean()
            value_loss = self.value_loss(value, values, sampled_return, clip_range)
            return policy_loss + 0.5 * value_loss - 0.01 * entropy_bonus

    return PPOLoss(), (obs, torch.randint(0, 4, (n,)), torch.randn(n), -torch.rand(n), torch.randn(n), 0.1), {}


def _dqn(mode):
    """``rl.dqn.experiment.Trainer.train``: the dueling ``Model`` (84x84x4 frames) on the
    sampled observations, double-Q and target values under ``no_grad``, ``QFuncLoss`` with
    prioritized-replay weights."""
    import copy

    import torch

    from labml_nn.rl.dqn import QFuncLoss
    from labml_nn.rl.dqn.model import Model

    m = Model()
    obs = torch.rand(_B, 4, 84, 84)
    if mode != "train":
        return m, (obs,), {}
    target = copy.deepcopy(m)

    class DQNLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = m
            self.target_model = target
            self.loss_func = QFuncLoss(0.99)

        def forward(self, obs, next_obs, action, done, reward, weights):
            q_value = self.model(obs)
            with torch.no_grad():
                double_q_value = self.model(next_obs)
                target_q_value = self.target_model(next_obs)
            td_errors, loss = self.loss_func(q_value, q_value.new_tensor(action), double_q_value, target_q_value,
                                             q_value.new_tensor(done), q_value.new_tensor(reward),
                                             q_value.new_tensor(weights))
            return loss

    return DQNLoss(), (obs, torch.rand(_B, 4, 84, 84), torch.tensor([0, 2]), torch.tensor([0., 1.]),
                       torch.tensor([1., 0.5]), torch.tensor([1., 0.7])), {}


# --- optimizers ------------------------------------------------------------------------------

def _optimizer(name):
    def make(mode):
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        from labml_nn import optimizers

        torch.manual_seed(0)
        m = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
        params = m.parameters()
        wd = optimizers.WeightDecay(0.01)
        if name == "Adam":
            from labml_nn.optimizers.adam import Adam
            opt = Adam(params, lr=1e-3, weight_decay=wd)
        elif name == "AMSGrad":
            from labml_nn.optimizers.amsgrad import AMSGrad
            opt = AMSGrad(params, weight_decay=wd)
        elif name == "RAdam":
            from labml_nn.optimizers.radam import RAdam
            opt = RAdam(params, weight_decay=wd)
        elif name == "AdaBelief":
            from labml_nn.optimizers.ada_belief import AdaBelief
            opt = AdaBelief(params, weight_decay=wd)
        elif name == "Noam":
            from labml_nn.optimizers.noam import Noam
            opt = Noam(params, lr=1., warmup=10, d_model=16, weight_decay=wd)
        else:
            from labml_nn.optimizers.sophia import Sophia
            opt = Sophia(params, lr=1e-4, rho=0.03, weight_decay=wd)
        x, y = torch.randn(8, 6), torch.arange(8) % 3
        F.cross_entropy(m(x), y).backward()
        if name == "Sophia":  # sophia's experiment: the Hessian EMA from sampled labels
            opt.update_hessian(8)
            opt.zero_grad()
            F.cross_entropy(m(x), y).backward()
        return _w()["OptStep"](m, opt), (x, y), {}

    return make


# --- LoRA ------------------------------------------------------------------------------------

def _lora(mode):
    import torch

    from labml_nn.lora import Embedding, Linear

    class LoRAModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = Embedding(_V, _D, r=4)
            self.fc = Linear(_D, _V, bias=True, r=4)

        def forward(self, x):
            return self.fc(self.emb(x)), None

    return _ar(LoRAModel(), mode)


MODELS = {
    "AutoregressiveTransformer": _basic_transformer,
    "EncoderDecoder": _encoder_decoder,
    "GPT": _gpt,
    "AFTLocal": _aft,
    "ALiBi": _alibi,
    "RoPE": _rope,
    "PrimerEZ": _primer_ez,
    "SwiGLU": _glu("SwiGLU"),
    "FNet": _fnet,
    "gMLP": _gmlp,
    "MLM": _mlm,
    "SwitchTransformer": _switch,
    "FeedbackTransformerKV": _feedback(True),
    "FastWeights": _fast_weights,
    "HourGlass": _hour_glass,
    "TransformerXL": _xl,
    "CompressiveTransformer": _compressive,
    "ViT": _vit,
    "DeepNorm": _deep_norm,
    "FTA": _fta,
    "ResNet": _resnet,
    "ConvMixer": _conv_mixer,
    "BatchNormMNIST": _norm_cnn("BatchNorm"),
    "GroupNorm": _norm_cnn("GroupNorm"),
    "WeightStandardization": _norm_cnn("WS"),
    "LayerNormBatchChannelNorm": _layer_norm,
    "CapsuleNetwork": _capsule,
    "EvidenceMaxLikelihood": _evidence("MaximumLikelihoodLoss"),
    "DCGAN": _dcgan,
    "WGAN_GP": _wgan_gp,
    "StyleGAN2": _stylegan,
    "DDPM": _ddpm,
    "StableDiffusionUNet": _sd_unet,
    "LSTM": _rnn("LSTM"),
    "HyperLSTM": _rnn("HyperLSTM"),
    "SketchRNN": _sketch_rnn,
    "PonderNet": _ponder_net,
    "GAT": _gat(False),
    "GATv2": _gat(True),
    "PPO": _ppo,
    "DQN": _dqn,
    "Adam": _optimizer("Adam"),
    "AdaBelief": _optimizer("AdaBelief"),
    "Sophia": _optimizer("Sophia"),
    "LoRA": _lora,
}
