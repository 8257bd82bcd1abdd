"""Images for transformers' vision-language models and audio for its audio LLMs, with the
placeholder tokens their text must hold (loaded by path from calibrate.py).

A model that takes `pixel_values` beside `input_ids` checks that the text holds one image
token per image feature; without them the sweep could only run its text path, and the
vision tower, projector and merging code never ran. Two shapes cover most of the library:

- flattened patches with a grid (`image_grid_thw`: the Qwen-VL family and its derivatives):
  one image of 2m x 2m patches per sequence (m: the spatial merge), 4 tokens each;
- whole images (`pixel_values` of [batch, channels, H, W]: LLaVA and most others): the
  vision tower is run once to count its features per image, and the text is prefixed with
  that many image tokens.

An audio LLM (`input_features` and an audio token) gets a clip, its audio encoder run once to
count its features. What does not fit raises, and the sweep falls back to the text alone, as
before.
"""

from __future__ import annotations

from typing import Any


def _first(cfg: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(cfg, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return default


def image_token(cfg: Any) -> int | None:
    return _first(cfg, "image_token_id", "image_token_index")


def audio_token(cfg: Any) -> int | None:
    return _first(cfg, "audio_token_id", "audio_token_index")


def fit(model: Any, kw: dict, params, g, batch: int) -> dict:
    """`kw` with an image (or a clip of audio features) per sequence and its tokens, for a
    model whose forward takes `input_ids` and `pixel_values` (`input_features`) and whose
    config names an image (audio) token; else `kw`."""
    cfg = model.config
    if "input_ids" not in kw:
        return kw
    if audio_token(cfg) is not None and "input_features" in kw and "pixel_values" not in params:
        _, kw = _in_vocab(model, kw)
        return _audio(model, kw, params, audio_token(cfg), batch)
    if image_token(cfg) is None or "pixel_values" not in params:
        return kw
    token, kw = _in_vocab(model, kw)
    if "image_grid_thw" in params:
        return _patches(model, kw, params, token, g, batch)
    if "pixel_values" in kw:
        return _images(model, kw, params, token, batch)
    return kw


def _in_vocab(model: Any, kw: dict) -> tuple[int, dict]:
    """The shrunk config keeps the real model's token ids (151655) but not its vocabulary
    (256): give the image, vision-start and vision-end tokens the vocabulary's last ids
    (the model reads them off its config at each call), and keep them out of the text."""
    cfg = model.config
    text = getattr(cfg, "text_config", None) or cfg
    vocab = _first(text, "vocab_size", default=None) or _first(cfg, "vocab_size")
    names = [n for n in ("image_token_id", "image_token_index", "vision_start_token_id", "vision_end_token_id",
                         "audio_token_id", "audio_token_index", "audio_bos_token_id", "audio_eos_token_id")
             if _first(cfg, n) is not None]
    if vocab is None or all(getattr(cfg, n) < vocab - 8 for n in names):
        return image_token(cfg), kw
    for offset, name in enumerate(names, start=1):
        setattr(cfg, name, vocab - offset)
    ids = kw["input_ids"].clone()
    ids[ids >= vocab - 8] = vocab - 9
    return image_token(cfg), dict(kw, input_ids=ids)


def _patches(model: Any, kw: dict, params, token: int, g, batch: int) -> dict:
    import torch

    cfg = model.config
    vision = getattr(cfg, "vision_config", None) or cfg
    patch = _first(vision, "patch_size", default=14)
    temporal = _first(vision, "temporal_patch_size", default=1)
    channels = _first(vision, "in_chans", "in_channels", "num_channels", default=3)
    merge = _first(vision, "spatial_merge_size", "merge_size", default=1)
    side = 2 * merge
    per_image = side * side // (merge * merge)
    ids = kw["input_ids"].clone()
    start = _first(cfg, "vision_start_token_id")
    end = _first(cfg, "vision_end_token_id")
    if start is not None:
        ids[:, 0] = start
    ids[:, 1:1 + per_image] = token
    if end is not None:
        ids[:, 1 + per_image] = end
    out = dict(kw, input_ids=ids,
               pixel_values=torch.randn(batch * side * side, channels * temporal * patch * patch, generator=g),
               image_grid_thw=torch.tensor([[1, side, side]] * batch))
    if "mm_token_type_ids" in params:
        out["mm_token_type_ids"] = (ids == token).long()
    return out


def _feature_count(model: Any, kw: dict, params) -> int:
    """Image features the model makes from `kw`'s pixel values, in all."""
    import torch

    owner = model if hasattr(model, "get_image_features") else getattr(model, "model", None)
    get = getattr(owner, "get_image_features", None)
    if get is None:
        raise ValueError("no get_image_features")
    extra = {k: kw[k] for k in ("image_sizes",) if k in kw}
    with torch.no_grad():
        return _count(get(pixel_values=kw["pixel_values"], **extra))


def _images(model: Any, kw: dict, params, token: int, batch: int) -> dict:
    import torch

    kw = dict(kw)
    pixels = kw["pixel_values"]
    tries = [{}, {"pixel_values": pixels.unsqueeze(1)}]  # (Idefics: [batch, images, C, H, W])
    if "image_sizes" in params:  # (Pixtral's towers)
        tries.append({"image_sizes": torch.tensor([list(pixels.shape[-2:])] * batch)})
    for number, change in enumerate(tries):
        try:
            total = _feature_count(model, dict(kw, **change), params)
        except Exception:
            if number == len(tries) - 1:
                raise
            continue
        kw.update(change)
        break
    if total % batch:
        raise ValueError(f"{total} image features for {batch} images")
    kw = _prefix(kw, token, total // batch, batch)
    if "token_type_ids" in params and "token_type_ids" not in kw:
        kw["token_type_ids"] = (kw["input_ids"] == token).long()
    return kw


def _count(feats) -> int:
    """Feature vectors in what a `get_*_features` returns (a tensor, a list, an output)."""
    if hasattr(feats, "pooler_output") and feats.pooler_output is not None:
        feats = feats.pooler_output
    elif hasattr(feats, "last_hidden_state"):
        feats = feats.last_hidden_state
    if isinstance(feats, (list, tuple)):
        return sum(f.numel() // f.shape[-1] for f in feats)
    return feats.numel() // feats.shape[-1]


def _prefix(kw: dict, token: int, n: int, batch: int) -> dict:
    """`n` placeholder tokens before each sequence's text (and its mask)."""
    import torch

    ids = kw["input_ids"]
    kw["input_ids"] = torch.cat([torch.full((batch, n), token, dtype=ids.dtype), ids], dim=1)
    if "attention_mask" in kw:
        mask = kw["attention_mask"]
        kw["attention_mask"] = torch.cat([torch.ones(batch, n, dtype=mask.dtype), mask], dim=1)
    return kw


def _audio(model: Any, kw: dict, params, token: int, batch: int) -> dict:
    """Audio LLMs (Qwen2-Audio, Voxtral, AudioFlamingo, ...): the audio encoder run once to
    count its features per clip, and that many audio tokens before the text."""
    import torch

    kw = dict(kw)
    audio = getattr(model.config, "audio_config", None) or model.config
    window = _first(audio, "n_window")
    if window:  # (Qwen3-ASR's encoder takes whole windows of 2 * n_window frames)
        features = kw["input_features"]
        kw["input_features"] = torch.randn(*features.shape[:-1], 2 * window)
    frames = kw["input_features"].shape[-1]
    for name in ("input_features_mask", "feature_attention_mask"):
        if name in params:
            kw[name] = torch.ones(batch, frames, dtype=torch.long)
    owner = model if hasattr(model, "get_audio_features") else getattr(model, "model", None)
    get = getattr(owner, "get_audio_features", None)
    if get is None:
        raise ValueError("no get_audio_features")
    extra = {k: kw[k] for k in ("input_features_mask",) if k in kw}
    with torch.no_grad():
        total = _count(get(input_features=kw["input_features"], **extra))
    if total % batch:
        raise ValueError(f"{total} audio features for {batch} clips")
    return _prefix(kw, token, total // batch, batch)
