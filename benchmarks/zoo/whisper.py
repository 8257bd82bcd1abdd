"""openai-whisper 20250625, import name ``whisper``: the speech model (``whisper.model.Whisper``: the
log-mel ``AudioEncoder`` and the ``TextDecoder``), its key/value cache (``install_kv_cache_hooks``),
decoding (``whisper.decoding.decode`` / ``DecodingTask`` / ``detect_language``) and ``transcribe``,
as its README and ``tests/`` use them, on tiny dims with random weights (no ``load_model``, no
download): ``ModelDimensions`` with ``n_mels`` 80, ``n_audio_ctx`` 64 (a 128-frame log-mel),
width 64, 4 heads, 2 layers each side, ``n_text_ctx`` 32 and the real vocabularies (51865
multilingual, 51864 English-only, 51866 with 128 mels for the large-v3 layout) so that the real
tiktoken tokenizers shipped in ``whisper/assets`` drive decoding. ``transcribe`` hard-codes
30-second windows (3000 mel frames), so its models use ``n_audio_ctx`` 1500 (still width 64).
The decoder's ``positional_embedding`` is ``torch.empty`` in the constructor (a checkpoint fills
it): the factories fill it with small normal values, as a loaded checkpoint would.

- the encoder on a log-mel (``log_mel_spectrogram`` of 1.2 s of random audio, ``pad_or_trim`` to
  ``2 * n_audio_ctx`` frames, in the factory): SDPA and the explicit ``qk`` path
  (``disable_sdpa()``), 128 mels; the front end inside the forward (audio tensor ->
  ``log_mel_spectrogram`` -> ``pad_or_trim`` -> ``embed_audio``) and ``log_mel_spectrogram`` alone;
- ``Whisper.forward(mel, tokens)`` (multilingual, English-only, large-v3 layout, no SDPA),
  ``Whisper.logits(tokens, audio_features)``, one decoder block (``ResidualAttentionBlock`` with
  cross-attention and the causal mask);
- the KV cache: ``install_kv_cache_hooks`` then ``decoder(tokens, audio_features, kv_cache=cache)``,
  a prefill and greedy steps of one token (hooks installed and removed in the forward, as
  ``PyTorchInference`` does; and hooks installed once in the factory, the cache cleared per call);
- ``decode`` (``fp16=False`` as on CPU, ``sample_len`` 4): greedy with and without timestamps
  (``ApplyTimestampRules``), beam search (``beam_size=2``, with timestamps, with ``patience``),
  temperature sampling (``best_of=2``) (these three on one segment, as ``transcribe`` calls them:
  ``DecodingTask.run`` repeats the tokens ``n_group`` times but not the audio features, so a batch
  of two log-mels fails in the cross-attention), language detection inside ``decode``
  (``language=None``),
  a prompt and a prefix, ``task="translate"``, ``task="lang_id"``, the English-only model
  (``language="en"``: with ``language=None`` it runs ``detect_language``, which raises), one 2-D
  log-mel with ``length_penalty``, already-encoded audio features, the default ``fp16=True``, the
  large-v3 layout (beam search); the others on a batch of two;
  ``DecodingTask(model, options).run(mel)``; ``model.detect_language(mel)``;
- ``transcribe`` on a NumPy array (no ffmpeg: only file paths go through ``load_audio``) with
  ``temperature=0.0`` (and ``fp16=False`` as on CPU), the default temperature fallback, an initial
  prompt, and ``word_timestamps=True`` (``timing.find_alignment``: the cross-attention ``qk`` hooks,
  ``median_filter``, the numba ``dtw``).

Eval: the outputs (decoding: the ``DecodingResult`` objects; transcribe: the result dict). Train:
teacher forcing (``TeacherForcing``: ``model(mel, tokens[:, :-1])``, cross-entropy against
``tokens[:, 1:]`` with the SOT prefix masked to -100; the tokens are the real tokenizer's
``sot_sequence_including_notimestamps`` + encoded text + ``eot``) for the full-model and decoder
models, ``mean_loss_module`` for the encoder and front-end models; the decoding and transcribe
models (``torch.no_grad`` inside, no training form) run a teacher-forcing step and then decode /
transcribe (``TrainThenDecode``: as a training loop logs a sample; the result is dropped).

    pip install --no-deps openai-whisper==20250625 tiktoken==0.14.0 numba==0.68.1 llvmlite==0.50.0

(tiktoken needs regex and requests, installed already; whisper's other dependencies numpy, tqdm
and more-itertools: the first two installed, more-itertools not imported by the package; triton
only for CUDA kernels, imported lazily.) Nothing stubbed.

Left out: ``load_model`` / ``_download`` (downloads checkpoints), ``load_audio`` on a file (ffmpeg),
the CLI (``whisper.__main__`` / ``cli``, writes files), the Triton kernels (``triton_ops``: CUDA),
``set_alignment_heads`` (needs the per-checkpoint dump).
"""

import functools

PACKAGE = "whisper"
DISTRIBUTION = "openai-whisper"

_B = 2
_TEXT = "the quick brown fox jumps over the lazy dog"


def warm_up():
    import torch  # noqa: F401

    import whisper
    import whisper.decoding  # noqa: F401
    import whisper.timing  # noqa: F401
    import whisper.transcribe  # noqa: F401
    from whisper.tokenizer import get_tokenizer

    # the tiktoken encodings take a moment to build; every process that decodes builds them once
    get_tokenizer(True, num_languages=99, language="en", task="transcribe")
    get_tokenizer(True, num_languages=99, language="en", task="translate")
    get_tokenizer(True, num_languages=100, language="en", task="transcribe")
    get_tokenizer(False, num_languages=99)


# --- models -----------------------------------------------------------------------------------------

def _dims(layout="multilingual", audio_ctx=64):
    from whisper.model import ModelDimensions

    vocab, mels = {"multilingual": (51865, 80), "en": (51864, 80), "v3": (51866, 128)}[layout]
    return ModelDimensions(n_mels=mels, n_audio_ctx=audio_ctx, n_audio_state=64, n_audio_head=4,
                           n_audio_layer=2, n_vocab=vocab, n_text_ctx=32, n_text_state=64,
                           n_text_head=4, n_text_layer=2)


def _whisper(layout="multilingual", audio_ctx=64):
    import torch

    from whisper.model import Whisper

    model = Whisper(_dims(layout, audio_ctx))
    with torch.no_grad():  # torch.empty in the constructor; a checkpoint fills it
        torch.nn.init.normal_(model.decoder.positional_embedding, std=0.02)
    return model


def _tokenizer(model, task="transcribe"):
    from whisper.tokenizer import get_tokenizer

    return get_tokenizer(model.is_multilingual, num_languages=model.num_languages,
                         language="en" if model.is_multilingual else None, task=task)


# --- inputs ------------------------------------------------------------------------------------------

def _audio(seconds=1.2, batch=None):
    """Random 16 kHz audio as a NumPy array (what ``load_audio`` returns, without ffmpeg)."""
    import numpy as np

    rng = np.random.default_rng(0)
    shape = (int(16000 * seconds),) if batch is None else (batch, int(16000 * seconds))
    return (0.1 * rng.standard_normal(shape)).astype(np.float32)


def _mel(model, batch=_B):
    """``log_mel_spectrogram`` then ``pad_or_trim`` to the encoder's input length."""
    import torch

    from whisper.audio import log_mel_spectrogram, pad_or_trim

    mel = log_mel_spectrogram(torch.from_numpy(_audio(batch=batch)), model.dims.n_mels)
    return pad_or_trim(mel, 2 * model.dims.n_audio_ctx)


def _tokens(model, batch=_B):
    """The teacher-forcing sequence: SOT sequence (no timestamps), the text, EOT."""
    import torch

    tok = _tokenizer(model)
    ids = list(tok.sot_sequence_including_notimestamps) + tok.encode(" " + _TEXT) + [tok.eot]
    ids = ids[: model.dims.n_text_ctx + 1]
    return torch.tensor([ids] * batch), len(tok.sot_sequence_including_notimestamps)


# --- the user-side modules (built once) -----------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    import torch.nn.functional as F
    from torch import nn

    import whisper
    from whisper.audio import log_mel_spectrogram, pad_or_trim
    from whisper.decoding import DecodingOptions, DecodingTask, decode
    from whisper.model import disable_sdpa

    class TeacherForcing(nn.Module):
        """A training step: ``model(mel, tokens[:, :-1])``, cross-entropy against the next tokens
        with the SOT prefix masked out."""

        def __init__(self, model, prefix):
            super().__init__()
            self.model, self.prefix = model, prefix

        def forward(self, mel, tokens):
            logits = self.model(mel, tokens[:, :-1])
            targets = tokens[:, 1:].clone()
            targets[:, : self.prefix - 1] = -100
            return F.cross_entropy(logits.transpose(1, 2), targets, ignore_index=-100)

    class NoSdpa(nn.Module):
        """``with disable_sdpa():`` around the call (the explicit ``qk`` attention path)."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, *args):
            with disable_sdpa():
                return self.net(*args)

    class Logits(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, tokens, audio_features):
            return self.model.logits(tokens, audio_features)

    class AudioFeatures(nn.Module):
        """The front end in the forward: audio -> log-mel -> pad_or_trim -> ``embed_audio``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, audio):
            mel = log_mel_spectrogram(audio, self.model.dims.n_mels)
            mel = pad_or_trim(mel, 2 * self.model.dims.n_audio_ctx)
            return self.model.embed_audio(mel)

    class LogMel(nn.Module):
        def __init__(self, n_mels=80):
            super().__init__()
            self.n_mels = n_mels

        def forward(self, audio):
            return log_mel_spectrogram(audio, self.n_mels)

    class KVGreedy(nn.Module):
        """``install_kv_cache_hooks`` in the forward, a prefill of the prompt tokens, then
        ``steps`` greedy steps of one token through the cache; the hooks removed at the end."""

        def __init__(self, model, steps=3):
            super().__init__()
            self.model, self.steps = model, steps

        def forward(self, tokens, audio_features):
            cache, hooks = self.model.install_kv_cache_hooks()
            try:
                logits = self.model.decoder(tokens, audio_features, kv_cache=cache)
                out = [logits[:, -1]]
                for _ in range(self.steps):
                    nxt = out[-1].argmax(dim=-1, keepdim=True)
                    out.append(self.model.decoder(nxt, audio_features, kv_cache=cache)[:, -1])
            finally:
                for hook in hooks:
                    hook.remove()
            return torch.stack(out, dim=1)

    class KVInstalled(nn.Module):
        """Hooks installed once (in the factory); each call clears the cache, prefills the
        prompt and takes one step with the next token."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            self.cache, self.hooks = model.install_kv_cache_hooks()

        def forward(self, tokens, next_token, audio_features):
            self.cache.clear()
            first = self.model.decoder(tokens, audio_features, kv_cache=self.cache)
            second = self.model.decoder(next_token, audio_features, kv_cache=self.cache)
            return first[:, -1], second[:, -1]

    class Decode(nn.Module):
        """``whisper.decode(model, mel, DecodingOptions(...))``."""

        def __init__(self, model, **options):
            super().__init__()
            self.model, self.options = model, DecodingOptions(**options)

        def forward(self, mel):
            return decode(self.model, mel, self.options)

    class Task(nn.Module):
        """``DecodingTask(model, options)`` built once; the forward is ``task.run(mel)``."""

        def __init__(self, model, **options):
            super().__init__()
            self.model = model
            object.__setattr__(self, "task", DecodingTask(model, DecodingOptions(**options)))

        def forward(self, mel):
            return self.task.run(mel)

    class DetectLanguage(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, mel):
            return self.model.detect_language(mel)

    class Transcribe(nn.Module):
        """``model.transcribe(audio, ...)`` on a NumPy waveform."""

        def __init__(self, model, **options):
            super().__init__()
            self.model, self.options = model, options

        def forward(self, audio):
            return whisper.transcribe(self.model, audio, **self.options)

    class TrainThenDecode(nn.Module):
        """A training step that also decodes (as a training loop logs a sample): the
        teacher-forcing loss, then the decoding module on its own input (result dropped)."""

        def __init__(self, step, sampler):
            super().__init__()
            self.step, self.sampler = step, sampler

        def forward(self, mel, tokens, sample_input):
            loss = self.step(mel, tokens)
            self.sampler(sample_input)
            return loss

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


def _train_step(model, batch=_B):
    tokens, prefix = _tokens(model, batch)
    return _nets().TeacherForcing(model, prefix), (_mel(model, batch), tokens)


def _loss(mode, net, args):
    if mode == "train":
        net = mean_loss_module()(net)  # noqa: F821 (set by ZooSuite)
    return net, args, {}


# --- factories --------------------------------------------------------------------------------------

def _encoder(layout="multilingual", sdpa=True):
    def make(mode):
        model = _whisper(layout)
        net = model.encoder if sdpa else _nets().NoSdpa(model.encoder)
        return _loss(mode, net, (_mel(model),))

    return make


def _audio_features(mode):
    import torch

    model = _whisper()
    audio = torch.from_numpy(_audio(batch=_B))
    return _loss(mode, _nets().AudioFeatures(model), (audio,))


def _log_mel(n_mels):
    def make(mode):
        import torch

        audio = torch.from_numpy(_audio(batch=_B))
        if mode == "train":
            audio.requires_grad_(True)
        return _loss(mode, _nets().LogMel(n_mels), (audio,))

    return make


def _forward(layout="multilingual", sdpa=True):
    """Eval: ``model(mel, tokens)`` (logits); train: ``TeacherForcing``."""

    def make(mode):
        model = _whisper(layout)
        if mode == "train":
            step, args = _train_step(model)
            return (step if sdpa else _nets().NoSdpa(step)), args, {}
        tokens, _ = _tokens(model)
        return (model if sdpa else _nets().NoSdpa(model)), (_mel(model), tokens), {}

    return make


def _logits(mode):
    import torch

    model = _whisper()
    if mode == "train":
        return (*_train_step(model), {})
    tokens, _ = _tokens(model)
    with torch.no_grad():
        features = model.embed_audio(_mel(model))
    return _nets().Logits(model), (tokens, features), {}


def _block(mode):
    import torch

    from whisper.model import ResidualAttentionBlock

    block = ResidualAttentionBlock(64, 4, cross_attention=True)
    mask = torch.empty(32, 32).fill_(-float("inf")).triu_(1)
    return _loss(mode, block, (torch.randn(_B, 12, 64), torch.randn(_B, 64, 64), mask))


def _kv(kind):
    def make(mode):
        import torch

        model = _whisper()
        if mode == "train":
            return (*_train_step(model), {})
        tok = _tokenizer(model)
        prompt = torch.tensor([list(tok.sot_sequence_including_notimestamps)] * _B)
        with torch.no_grad():
            features = model.embed_audio(_mel(model))
        if kind == "greedy":
            return _nets().KVGreedy(model), (prompt, features), {}
        nxt = torch.full((_B, 1), tok.encode(" the")[0])
        return _nets().KVInstalled(model), (prompt, nxt, features), {}

    return make


_DECODE = dict(fp16=False, sample_len=4)


def _decoding(kind="decode", layout="multilingual", batch=_B, encoded=False, **options):
    """Eval: the decoding module on a log-mel batch; train: ``TrainThenDecode``."""

    def make(mode):
        import torch

        model = _whisper(layout)
        opts = {**_DECODE, **options}
        if kind == "decode":
            net = _nets().Decode(model, **opts)
        elif kind == "task":
            net = _nets().Task(model, **opts)
        else:
            net = _nets().DetectLanguage(model)
        mel = _mel(model, batch)
        if encoded:
            with torch.no_grad():
                mel = model.embed_audio(mel)
        if mode == "train":
            step, args = _train_step(model)
            return _nets().TrainThenDecode(step, net), (*args, mel), {}
        return net, (mel,), {}

    return make


def _transcribe(**options):
    """``model.transcribe`` on 2 s of audio (a NumPy array): one 30-second window."""

    def make(mode):
        model = _whisper(audio_ctx=1500)
        net = _nets().Transcribe(model, fp16=False, verbose=None, **options)
        audio = _audio(seconds=2.0)
        if mode == "train":
            step, args = _train_step(model, batch=1)
            return _nets().TrainThenDecode(step, net), (*args, audio), {}
        return net, (audio,), {}

    return make


MODELS = {
    # encoder and front end
    "encoder": _encoder(),
    "encoder_no_sdpa": _encoder(sdpa=False),
    "encoder_128_mels": _encoder("v3"),
    "audio_to_features": _audio_features,
    "log_mel_spectrogram": _log_mel(80),
    "log_mel_spectrogram_128": _log_mel(128),
    # the full model and the decoder
    "whisper_forward": _forward(),
    "whisper_forward_english": _forward("en"),
    "whisper_forward_v3_layout": _forward("v3"),
    "whisper_forward_no_sdpa": _forward(sdpa=False),
    "logits": _logits,
    "decoder_block": _block,
    # the KV cache hooks
    "kv_cache_greedy_steps": _kv("greedy"),
    "kv_cache_installed_once": _kv("installed"),
    # decoding
    "decode_greedy": _decoding(without_timestamps=True, language="en"),
    "decode_greedy_timestamps": _decoding(language="en"),
    "decode_beam2": _decoding(batch=1, beam_size=2, without_timestamps=True, language="en"),
    "decode_beam2_timestamps_patience": _decoding(batch=1, beam_size=2, patience=2.0, language="en"),
    "decode_sampling_best_of": _decoding(batch=1, temperature=0.7, best_of=2, language="en"),
    "decode_detect_language": _decoding(without_timestamps=True),
    "decode_prompt_prefix": _decoding(language="en", prompt="a fox", prefix="the"),
    "decode_translate": _decoding(task="translate", language="de", without_timestamps=True),
    "decode_lang_id": _decoding(task="lang_id"),
    "decode_english_only": _decoding(layout="en", language="en"),
    "decode_single_mel": _decoding(batch=None, language="en", length_penalty=0.5),
    "decode_audio_features": _decoding(encoded=True, language="en", without_timestamps=True),
    "decode_fp16_default": _decoding(fp16=True, language="en"),
    "decode_v3_layout": _decoding(layout="v3", batch=1, beam_size=2),
    "decoding_task_run": _decoding("task", language="en"),
    "detect_language": _decoding("detect"),
    # transcribe
    "transcribe_greedy": _transcribe(temperature=0.0),
    "transcribe_fallback": _transcribe(),
    "transcribe_initial_prompt": _transcribe(temperature=0.0, initial_prompt="a fox", language="en"),
    "transcribe_word_timestamps": _transcribe(temperature=0.0, word_timestamps=True, language="en"),
}
