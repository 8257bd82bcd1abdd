"""Calibrate the static pass against Dynamo on every transformers model that builds (issue 11, item 5).

    bash benchmarks/setup_speed.sh          # transformers 5.4.0 source under .bench/ (the static pass)
    pip install --no-deps transformers==5.4.0 huggingface-hub==1.8.0 tokenizers ...  # never torch
    python benchmarks/calibrate.py --capture-only --budget 2400      # resumable; re-run to go on
    python benchmarks/calibrate.py --classify-only --out benchmarks/calibration/after.json
    python benchmarks/calibrate.py --classify-only --linter-src /tmp/base/src --out .../before.json

(benchmarks/RESULTS.md section 8 has the exact commands and subset of the last run.
huggingface_hub 1.33 rejects transformers 5.4.0's own default configs; 1.8.0 does not.)

Two phases:

* **capture** (slow; cached under ``.bench/calibration/captures/<suite>-<version>-torch<version>-py<x.y>/``,
  one file per model, so a cut-off run resumes where it stopped): every model type in
  transformers' auto mappings is built from a tiny config (hidden sizes, layers, heads,
  experts and vocabulary overridden generically, sub-configs too; random weights, no
  download), in three settings: ``eval``, ``train`` (training mode, gradients on, labels
  for LM and classification heads) and ``padded`` (eval with a padded attention mask).
  Each (model, setting) runs through the probe's worker (``compilelint.probe.worker.run``:
  a traced eager call, then Dynamo's capture with ``backend="eager"``; no timing) in a
  process of its own with a time limit. The processes are forked from warm "zygotes" that
  imported torch and transformers once (a fresh interpreter costs ~6 s per target, more than
  the capture itself). What fails to build or run is recorded with its reason.
* **classify** (fast; re-run after each linter change): ``compilelint check`` on the
  source (JSON), then the probe's matching per target (``compilelint.probe.match``) and, per
  finding in a file a model ran, the strongest verdict any run gave it: confirmed /
  not-reproduced / shadowed / condition-not-met (a conditional finding, ``when``, whose
  condition no run met: fp16 only, say) / not-reached / one-call (a recompile rule's
  finding, CL2xx, with no recompile: each model is called once, so it is left unjudged).
  Every observed break with no finding in its statement is *missed*.

It prints, per rule and overall, precision on executed lines (confirmed / (confirmed +
not-reproduced)) and recall (distinct break locations with a finding in the breaking
statement / all distinct break locations in the package), the missed and not-reproduced
lists and the versions; ``--out`` saves the same as JSON.

``--suite FILE.py`` calibrates another package instead of transformers: the file defines
``NAME``, ``version()``, ``package_dir()`` (where the package's files run from),
``models()``, ``build(model, setting, chosen) -> (callable, args, kwargs, info)`` and,
optionally, ``warm_up()`` and ``source_dir()`` (what the static pass checks; default
``package_dir()``). tests/test_calibrate.py uses one. A model-zoo adapter
(``benchmarks/zoo/<library>.py``: ``PACKAGE`` and ``MODELS``, docs/calibration.md) is a
shorter suite file: ``benchmarks/zoo/adapter.py`` turns it into one, with eval and train
as its settings; ``benchmarks/calibrate_zoo.py`` runs every adapter and prints one table.

This file is also the probe target: the worker imports it and calls
``calibration_target()``; nothing below runs at import beyond definitions.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import re
import selectors
import signal
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SETTINGS = ("eval", "train", "padded")
DEFAULT_CACHE = REPO / ".bench" / "calibration"
# The probe's verdicts, strongest first: across runs a finding keeps the strongest.
# (compilelint.probe.match assigns them; this is the order it ranks them in.)
VERDICTS = ("confirmed", "not-reproduced", "shadowed", "condition-not-met", "not-reached", "one-call")


class Skip(Exception):
    """A model (or one of its settings) this suite cannot build; the message says why."""


# ======================================================================================
# The transformers suite (runs inside the zygotes and the forked targets)
# ======================================================================================

# Tried in this order per model type; the first class that builds and runs eagerly is kept.
_TASK_ORDER = (
    "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES",
    "MODEL_FOR_MASKED_LM_MAPPING_NAMES", "MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES",
    "MODEL_FOR_CTC_MAPPING_NAMES", "MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES", "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
    "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES", "MODEL_MAPPING_NAMES",
)
_LM_TASKS = ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES",
             "MODEL_FOR_MASKED_LM_MAPPING_NAMES")
_CLASSIFY_TASKS = ("MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES", "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
                   "MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES")
_MAX_CLASSES = 3  # classes tried per model type

# Generic tiny-config overrides: attribute name -> new value (ints only replace ints).
_WIDTH, _FFN, _LAYERS, _HEADS, _HEAD_DIM = 64, 128, 2, 4, 16
_SET = {
    **dict.fromkeys(("hidden_size", "d_model", "n_embd", "dim", "embed_dim", "embedding_size",
                     "word_embed_proj_dim", "text_embed_dim", "vision_embed_dim"), _WIDTH),
    **dict.fromkeys(("intermediate_size", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim", "n_inner", "d_ff",
                     "hidden_dim", "moe_intermediate_size", "shared_expert_intermediate_size"), _FFN),
    **dict.fromkeys(("num_hidden_layers", "num_layers", "n_layer", "n_layers", "encoder_layers", "decoder_layers",
                     "num_encoder_layers", "num_decoder_layers", "depth"), _LAYERS),
    **dict.fromkeys(("num_attention_heads", "n_head", "n_heads", "num_heads", "encoder_attention_heads",
                     "decoder_attention_heads", "decoder_num_attention_heads"), _HEADS),
    **dict.fromkeys(("head_dim", "d_kv", "v_head_dim", "qk_nope_head_dim"), _HEAD_DIM),
    "qk_rope_head_dim": _HEAD_DIM, "kv_lora_rank": 32, "q_lora_rank": 32, "projection_dim": 32,
    "out_hidden_size": _WIDTH,  # a vision tower's output: the text model's width (Qwen-VL)
}
_HEAD_KEYS = frozenset(k for k, v in _SET.items() if v == _HEADS and "head" in k)
_AT_MOST = {  # attribute -> upper bound
    **dict.fromkeys(("num_experts", "num_local_experts", "n_routed_experts"), 4),
    **dict.fromkeys(("num_experts_per_tok", "moe_topk"), 2),
    **dict.fromkeys(("n_shared_experts", "n_group", "topk_group", "first_k_dense_replace"), 1),
}
_BATCH, _SEQ = 2, 16


def _shrink_config(cfg: Any) -> None:
    """Make ``cfg`` (and its sub-configs) tiny in place."""
    from transformers import PretrainedConfig

    attrs = {k: v for k, v in vars(cfg).items() if not k.startswith("_")}
    layer_keys = [k for k in ("num_hidden_layers", "num_layers", "n_layer")
                  if isinstance(attrs.get(k), int) and not isinstance(attrs[k], bool)]
    old_layers = attrs[layer_keys[0]] if layer_keys else None
    # per-layer lists (layer_types, ...): keep one layer of each kind they name, so a
    # hybrid model keeps its attention, convolution, sliding-window... layers
    keep = list(range(min(old_layers or 0, _LAYERS)))
    per_layer = [k for k, v in attrs.items() if isinstance(v, (list, tuple)) and old_layers
                 and len(v) == old_layers > _LAYERS]
    for k in per_layer:
        firsts: dict[Any, int] = {}
        for i, x in enumerate(attrs[k]):
            firsts.setdefault(repr(x), i)
        keep = sorted(set(keep) | set(firsts.values()))
    n_layers = max(len(keep), _LAYERS) if old_layers else _LAYERS
    for key, value in attrs.items():
        new = value
        if isinstance(value, PretrainedConfig):
            _shrink_config(value)
            continue
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            if key in layer_keys:
                new = min(value, n_layers)
            elif key in _SET:
                new = _SET[key]
            elif key in _AT_MOST:
                new = min(value, _AT_MOST[key])
            elif key in ("num_key_value_heads", "num_kv_heads") and value > 1:
                new = _HEADS if value == attrs.get("num_attention_heads") else 2
            elif key == "vocab_size":
                new = 256
            elif key == "max_source_positions" and "num_mel_bins" in attrs:
                new = 32  # whisper-like encoders want 2 * max_source_positions input frames
            elif key == "image_size" and value > 64 and isinstance(attrs.get("patch_size"), int):
                new = attrs["patch_size"] * 4
        elif key in per_layer:
            new = type(value)(value[i] for i in keep)
        elif isinstance(value, (list, tuple)) and value and all(type(x) is int for x in value):
            if key == "depths":
                new = type(value)([1] * len(value))
        if key in _HEAD_KEYS and isinstance(new, (list, tuple)) and new and all(type(x) is int for x in new):
            new = type(new)([1] * len(new))  # per-stage heads (Swin): one head divides any width
        if new is not value:
            try:
                setattr(cfg, key, new)
            except Exception:  # a validated field that refuses the value: keep the default
                pass
    _fit_rope_sections(cfg)
    if isinstance(getattr(cfg, "qk_head_dim", None), int) and isinstance(getattr(cfg, "qk_rope_head_dim", None), int):
        cfg.qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim  # derived in __init__ (DeepSeek)
    specials = [v for k, v in vars(cfg).items() if k.endswith(("token_id", "token_index"))
                and isinstance(v, int) and not isinstance(v, bool)]
    if isinstance(getattr(cfg, "vocab_size", None), int) and specials and max(specials) >= cfg.vocab_size:
        try:
            cfg.vocab_size = max(specials) + 1
        except Exception:
            pass


def _fit_rope_sections(cfg: Any) -> None:
    """Multimodal rotary sections (``mrope_section``) must add up to half the head size."""
    heads = getattr(cfg, "num_attention_heads", None)
    if not isinstance(heads, int) or isinstance(heads, bool):
        heads = None  # per-stage lists (Swin's num_heads, ...): no single head size
    head_dim = getattr(cfg, "head_dim", None)
    if not isinstance(head_dim, int) or isinstance(head_dim, bool):
        head_dim = None
    if head_dim is None and heads and isinstance(getattr(cfg, "hidden_size", None), int):
        head_dim = cfg.hidden_size // heads
    for key in ("rope_parameters", "rope_scaling"):
        rope = getattr(cfg, key, None)
        sections = rope.get("mrope_section") if isinstance(rope, dict) else None
        if not head_dim or not sections or sum(sections) == head_dim // 2:
            continue
        half, total = head_dim // 2, sum(sections)
        fitted = [max(1, x * half // total) for x in sections]
        fitted[0] += half - sum(fitted)
        rope["mrope_section"] = fitted


def _special_ids(cfg: Any, out: set[int] | None = None) -> set[int]:
    from transformers import PretrainedConfig

    out = set() if out is None else out
    for k, v in vars(cfg).items():
        if isinstance(v, PretrainedConfig):
            _special_ids(v, out)
        elif k.endswith(("token_id", "token_index", "token_ids")):
            out.update(x for x in (v if isinstance(v, (list, tuple)) else [v]) if isinstance(x, int))
    return out


def _find(cfg: Any, key: str, default: Any = None) -> Any:
    """``key`` on the config, else on its text / vision / audio / encoder sub-config."""
    v = getattr(cfg, key, None)
    if v is not None:
        return v
    for sub in ("text_config", "vision_config", "audio_config", "encoder_config", "encoder"):
        s = getattr(cfg, sub, None)
        if s is not None and getattr(s, key, None) is not None:
            return getattr(s, key)
    return default


def _inputs(model: Any, setting: str, variant: str, task: str) -> dict[str, Any]:
    """Inputs for ``model.forward`` from its signature and config; ``variant`` "all"
    fills every modality the signature takes, "main" only the main input."""
    import inspect

    import torch

    cfg = model.config
    params = inspect.signature(model.forward).parameters
    main = getattr(model, "main_input_name", "input_ids")
    kw: dict[str, Any] = {}
    g = torch.Generator().manual_seed(0)
    vocab = _find(cfg, "vocab_size", 256)
    specials = _special_ids(cfg)
    pool = torch.tensor([i for i in range(min(int(vocab), 1000)) if i not in specials] or [0])
    text = lambda n: pool[torch.randint(0, len(pool), (_BATCH, n), generator=g)]  # noqa: E731

    def want(name: str) -> bool:
        return name in params and (name == main or variant == "all")

    if want("input_ids"):
        kw["input_ids"] = text(_SEQ)
    if want("pixel_values"):
        size = _find(cfg, "image_size", 64)
        hw = tuple(size)[-2:] if isinstance(size, (list, tuple)) else (size, size)
        kw["pixel_values"] = torch.randn(_BATCH, _find(cfg, "num_channels", 3), *hw, generator=g)
    if want("input_values"):
        kw["input_values"] = torch.randn(_BATCH, 8000, generator=g)
    if want("input_features"):
        bins = _find(cfg, "num_mel_bins", None) or _find(cfg, "feature_size", 80)
        frames = 2 * _find(cfg, "max_source_positions", 32)
        kw["input_features"] = torch.randn(_BATCH, bins, frames, generator=g)
    if not kw:
        raise Skip(f"no input this suite can make (main input {main!r})")
    if "decoder_input_ids" in params and getattr(cfg, "is_encoder_decoder", False):
        kw["decoder_input_ids"] = text(_SEQ // 2)
    if setting == "padded":
        if "attention_mask" not in params or "input_ids" not in kw:
            raise Skip("no attention mask to pad (no input_ids / attention_mask argument)")
        mask = torch.ones(_BATCH, _SEQ, dtype=torch.long)
        mask[0, -_SEQ // 4:] = 0  # the first sequence is padded on the right
        kw["attention_mask"] = mask
    if variant == "all":  # an image and its placeholder tokens, for a vision-language model
        kw = _modalities().fit(model, kw, params, g, _BATCH)
    if setting == "train" and "labels" in params:
        if task in _LM_TASKS and "input_ids" in kw:
            kw["labels"] = kw.get("decoder_input_ids", kw["input_ids"]).clone()
        elif task in _CLASSIFY_TASKS:
            kw["labels"] = torch.randint(0, max(int(getattr(cfg, "num_labels", 2)), 1), (_BATCH,), generator=g)
    missing = [n for n, p in params.items() if p.default is inspect.Parameter.empty
               and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n not in kw]
    if missing:
        raise Skip(f"forward needs {', '.join(missing)}")
    return kw


class TransformersSuite:
    NAME = "transformers"

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("transformers")

    @staticmethod
    def package_dir() -> str:
        spec = importlib.util.find_spec("transformers")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("transformers is not installed: pip install --no-deps transformers==5.4.0 "
                             "(and its runtime dependencies, not torch)")
        return os.path.realpath(list(spec.submodule_search_locations)[0])

    @staticmethod
    def source_dir() -> str:
        return str(REPO / ".bench" / "transformers")

    @staticmethod
    def warm_up() -> None:
        import torch  # noqa: F401
        import torch._dynamo  # noqa: F401
        import transformers  # noqa: F401
        import transformers.masking_utils  # noqa: F401
        import transformers.modeling_utils  # noqa: F401
        from transformers.models.auto import modeling_auto  # noqa: F401

    @staticmethod
    def _classes(model_type: str) -> list[tuple[str, str]]:
        """(class name, task mapping) candidates for a model type, best first."""
        from transformers.models.auto import modeling_auto as ma

        names = sorted(n for n in dir(ma) if n.startswith("MODEL") and n.endswith("_MAPPING_NAMES"))
        order = list(_TASK_ORDER) + [n for n in names if n not in _TASK_ORDER]
        out: list[tuple[str, str]] = []
        for task in order:
            v = getattr(ma, task, {}).get(model_type)
            for cls in (v if isinstance(v, (list, tuple)) else [v] if v else []):
                if cls not in (c for c, _ in out):
                    out.append((cls, task))
        return out

    @classmethod
    def models(cls) -> list[str]:
        from transformers.models.auto import configuration_auto as ca

        return sorted(mt for mt in ca.CONFIG_MAPPING_NAMES if cls._classes(mt))

    @classmethod
    def build(cls, model_type: str, setting: str, chosen: dict | None) -> tuple:
        import torch
        import transformers
        from transformers.models.auto import configuration_auto as ca

        if chosen:
            tries = [(chosen["class"], chosen["task"])]
            variants = [chosen["variant"]]
        else:
            tries = cls._classes(model_type)[:_MAX_CLASSES]
            variants = ["all", "main"]
        attempts = []
        for cls_name, task in tries:
            for variant in variants:
                try:
                    torch.manual_seed(0)
                    config = ca.CONFIG_MAPPING[model_type]()
                    _shrink_config(config)
                    model = getattr(transformers, cls_name)(config)
                    model.train(setting == "train")
                    kwargs = _inputs(model, setting, variant, task)
                    if not chosen:  # pre-flight: the first class and inputs that run eagerly
                        with torch.no_grad():
                            model.eval()(**kwargs)
                        model.train(setting == "train")
                        torch.manual_seed(0)
                    info = {"class": cls_name, "task": task, "variant": variant, "attempts": attempts}
                    return model, (), kwargs, info
                except Skip as exc:
                    attempts.append(f"{cls_name}[{variant}]: {exc}")
                    if setting == "padded":
                        raise
                except Exception as exc:
                    attempts.append(f"{cls_name}[{variant}]: {type(exc).__name__}: {_first_line(exc)}")
        raise Skip("; ".join(attempts) or "no model class")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:300] if lines else ""


_SUITES: dict[str, Any] = {}


def load_suite(ref: str) -> Any:
    """``transformers`` or a suite file (see the module docstring)."""
    if ref in _SUITES:
        return _SUITES[ref]
    if ref == "transformers":
        suite: Any = TransformersSuite
    else:
        name = "_calibrate_suite_" + re.sub(r"\W", "_", Path(ref).stem)
        spec = importlib.util.spec_from_file_location(name, ref)
        if spec is None or spec.loader is None:
            raise SystemExit(f"cannot load suite {ref}")
        suite = importlib.util.module_from_spec(spec)
        sys.modules[name] = suite
        spec.loader.exec_module(suite)
        zoo = _zoo_adapter_module()
        if zoo.is_adapter(suite):  # a benchmarks/zoo/<library>.py adapter
            suite = zoo.ZooSuite(suite)
    _SUITES[ref] = suite
    return suite


def _modalities() -> Any:
    """benchmarks/transformers_modalities.py, loaded by path (a probe child imports this
    file by path too, without benchmarks/ on sys.path)."""
    name = "_calibrate_transformers_modalities"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "transformers_modalities.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _zoo_adapter_module() -> Any:
    """benchmarks/zoo/adapter.py, loaded by path (benchmarks/zoo/ holds files named like the
    libraries they adapt, so it never goes on sys.path)."""
    name = "_calibrate_zoo_adapter"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "zoo" / "adapter.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def suite_settings(suite: Any) -> tuple[str, ...]:
    """The settings a suite runs by default (a zoo adapter: eval and train)."""
    return tuple(getattr(suite, "SETTINGS", SETTINGS))


def calibration_target():
    """The probe factory: builds the model that the environment names (set per forked target)."""
    suite = load_suite(os.environ["CALIBRATE_SUITE"])
    chosen = json.loads(os.environ.get("CALIBRATE_CHOSEN") or "null")
    fn, args, kwargs, info = suite.build(os.environ["CALIBRATE_MODEL"], os.environ["CALIBRATE_SETTING"], chosen)
    _write_json(os.environ["CALIBRATE_CHOICE_FILE"], info or {})
    return fn, args, kwargs


# ======================================================================================
# Capture: zygotes fork one process per (model, setting)
# ======================================================================================


def _write_json(path: str | os.PathLike, data: Any, indent: int | None = None) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=indent)
    os.replace(tmp, path)


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name)


def _run_forked(request: dict, env: dict[str, str], timeout: float, tmp: str):
    """Run ``compilelint.probe.worker.run(request)`` in a forked child (own session,
    killed with its group after ``timeout``); return the probe's TargetResult."""
    from compilelint.probe.runner import _result_from  # TODO(issue 12): a public name for this
    from compilelint.probe.targets import TargetSpec

    spec = TargetSpec.from_dict(request["target"])
    out_path, log_path = os.path.join(tmp, "result.json"), os.path.join(tmp, "log.txt")
    for p in (out_path,):
        if os.path.exists(p):
            os.remove(p)
    sys.stdout.flush()
    sys.stderr.flush()
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            os.setsid()
            fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.environ.update(env)
            from compilelint.probe import worker

            worker.run(request, out_path)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    timed_out, status = False, 0
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            _, status = os.waitpid(pid, 0)
            break
        time.sleep(0.05)
    try:
        with open(out_path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        data = None
    result = _result_from(spec, data)
    result.wall_s = round(time.perf_counter() - started, 2)
    if timed_out:
        result.status = "failed"
        result.error = f"timed out after {timeout:g} s (during {result.phase})"
    elif os.WIFSIGNALED(status):
        result.status = "failed"
        result.error = f"killed by {signal.Signals(os.WTERMSIG(status)).name} during {result.phase}"
    elif data is None:
        result.status = "failed"
        result.error = "worker wrote no result"
    if not result.ok:
        try:
            with open(log_path, encoding="utf-8", errors="replace") as fh:
                result.stderr_tail = fh.read()[-3000:]
        except OSError:
            pass
    return result


def _capture_model(suite_ref: str, model: str, settings: list[str], timeout: float, tmp: str) -> dict:
    """One model, every setting (eval first: it picks the class the others use)."""
    entry: dict[str, Any] = {"model": model, "chosen": None, "settings": {}}
    spec = {"spec": f"{__file__}:calibration_target", "factory": "calibration_target",
            "path": os.path.abspath(__file__), "module": None, "cwd": str(REPO)}
    choice_file = os.path.join(tmp, "choice.json")
    for setting in ["eval", *[s for s in settings if s != "eval"]]:
        ev = entry["settings"].get("eval")
        if setting != "eval" and ev and ev["skipped"]:
            entry["settings"][setting] = {"skipped": f"eval did not run: {ev['skipped']}", "result": None}
            continue
        if os.path.exists(choice_file):
            os.remove(choice_file)
        env = {"CALIBRATE_SUITE": suite_ref, "CALIBRATE_MODEL": model, "CALIBRATE_SETTING": setting,
               "CALIBRATE_CHOSEN": json.dumps(entry["chosen"]), "CALIBRATE_CHOICE_FILE": choice_file}
        request = {"target": spec, "name": f"{model}[{setting}]", "device": "cpu", "timing": False,
                   "fullgraph_check": False, "train": setting == "train", "capture_backend": "eager",
                   "fresh_cache": False}
        res = _run_forked(request, env, timeout, tmp)
        if setting == "eval" and os.path.exists(choice_file):
            with open(choice_file, encoding="utf-8") as fh:
                entry["chosen"] = json.load(fh)
        # a model that did not build or run eagerly is skipped; one that failed under
        # Dynamo keeps what the capture saw before the failure
        skipped = None
        if not res.ok and (res.capture is None or res.phase in ("load", "eager", "start")):
            skipped = res.error or "failed"
        d = res.to_dict()
        for key in ("stdout_tail", "timing", "target_files"):
            d.pop(key, None)
        if res.ok:
            d.pop("stderr_tail", None)
        entry["settings"][setting] = {"skipped": skipped, "result": d}
    return entry


def zygote_main(suite_ref: str, cache: str, timeout: float, settings: list[str]) -> int:
    """Read model names on stdin, capture each, answer ``done <model>`` on stdout."""
    suite = load_suite(suite_ref)
    if hasattr(suite, "warm_up"):
        suite.warm_up()
    import compilelint.probe.capture  # noqa: F401
    import compilelint.probe.timing  # noqa: F401
    import compilelint.probe.trace  # noqa: F401
    import compilelint.probe.worker  # noqa: F401

    _warm_dynamo()
    probe = _probe_revision()
    models_dir = os.path.join(cache, "models")
    os.makedirs(models_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="calibrate-") as tmp:
        for line in sys.stdin:
            model = line.strip()
            if not model:
                continue
            try:
                entry = _capture_model(suite_ref, model, settings, timeout, tmp)
            except Exception as exc:  # the zygote itself must go on
                entry = {"model": model, "chosen": None,
                         "settings": {s: {"skipped": f"capture error: {type(exc).__name__}: {exc}", "result": None}
                                      for s in settings}}
            entry["probe"] = probe
            _write_json(os.path.join(models_dir, _safe(model) + ".json"), entry)
            print(f"done {model}", flush=True)
    return 0


def _warm_dynamo() -> None:
    """Dynamo's own lazy set-up (trace rules, ...) once in the zygote, not in every
    forked target (~3 s each); its caches are reset, so each target's first call is still
    Dynamo's first sight of the target."""
    import torch

    def f(x):
        y = x.sin()
        return y + 1 if y.sum() > 0 else y - 1

    torch.compile(f, backend="eager")(torch.randn(4))
    torch._dynamo.reset()


def _probe_revision() -> dict:
    """Which probe captured: the commit, and a hash of src/compilelint/probe/ as loaded."""
    import hashlib

    import compilelint.probe as probe_pkg

    folder = Path(probe_pkg.__file__).parent
    digest = hashlib.sha1()
    for p in sorted(folder.glob("*.py")):
        digest.update(p.name.encode() + p.read_bytes())
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    return {"commit": commit, "sources_sha1": digest.hexdigest()[:12]}


def list_main(suite_ref: str, out: str) -> int:
    suite = load_suite(suite_ref)
    _write_json(out, suite.models())
    return 0


def _py() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def _torch_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "none"


def capture_dir(args, suite) -> Path:
    key = f"{suite.NAME}-{suite.version()}-torch{_torch_version()}-py{_py()}"
    return Path(args.cache) / "captures" / _safe(key)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false", TRANSFORMERS_VERBOSITY="error",
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO / "src"), env.get("PYTHONPATH")) if p))
    return env


def plan_models(args, suite, cdir: Path) -> list[str]:
    plan = cdir / "plan.json"
    source = Path(args.suite) if args.suite and os.path.isfile(args.suite) else None
    stale = plan.exists() and source is not None and source.stat().st_mtime > plan.stat().st_mtime
    if not plan.exists() or stale:  # an adapter that lists more models since: list them again
        cdir.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([sys.executable, __file__, "--suite", args.suite, "--_list", str(plan)],
                              env=_child_env(), capture_output=True, text=True)
        if proc.returncode != 0 or not plan.exists():
            raise SystemExit(f"listing the models failed:\n{proc.stderr[-3000:]}")
    models = json.loads(plan.read_text(encoding="utf-8"))
    def named(opt: str | None) -> list[str]:
        wanted = [m.strip() for m in (opt or "").split(",") if m.strip()]
        for m in wanted:
            if m not in models:
                print(f"unknown model {m!r} (not in {suite.NAME}'s list): ignored", file=sys.stderr)
        return list(dict.fromkeys(m for m in wanted if m in models))

    if args.models:
        models = named(args.models)
    # a fixed shuffle (crc32 of the name): a capped or cut-off run covers a sample of the
    # list, not a-to-c; --include names what comes first, whatever the shuffle says
    first = named(args.include)
    models = first + sorted((m for m in models if m not in first), key=lambda m: zlib.crc32(m.encode()))
    if args.limit:
        models = models[: max(args.limit, len(first))]
    return models


def run_captures(args, suite, cdir: Path, models: list[str]) -> dict:
    """Capture every model not in the cache yet, ``--jobs`` zygotes at a time."""
    models_dir = cdir / "models"
    def wanted(m: str) -> bool:
        path = models_dir / (_safe(m) + ".json")
        if args.recapture or not path.exists():
            return True
        return args.retry_skipped and bool(json.loads(path.read_text(encoding="utf-8"))["settings"]["eval"]["skipped"])

    todo = [m for m in models if wanted(m)]  # in plan order: --include first, then the fixed shuffle
    stats = {"requested": len(models), "cached": len(models) - len(todo), "captured": 0, "not_started": 0}
    if not todo:
        return stats
    print(f"capturing {len(todo)} model(s) ({stats['cached']} cached) with {args.jobs} job(s) -> {cdir}",
          file=sys.stderr, flush=True)
    started = time.monotonic()
    queue = list(todo)
    sel = selectors.DefaultSelector()
    log = open(cdir / "zygotes.log", "a", encoding="utf-8")
    zygotes: dict[int, tuple[subprocess.Popen, str | None]] = {}

    def start() -> None:
        p = subprocess.Popen([sys.executable, __file__, "--suite", args.suite, "--_zygote", str(cdir),
                              "--timeout", str(args.timeout), "--settings", ",".join(args.settings)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1,
                             env=_child_env(), cwd=str(REPO))
        sel.register(p.stdout, selectors.EVENT_READ, p)
        zygotes[p.pid] = (p, None)
        feed(p)

    def feed(p: subprocess.Popen) -> None:
        over = args.budget and time.monotonic() - started > args.budget
        if queue and not over:
            model = queue.pop(0)
            zygotes[p.pid] = (p, model)
            p.stdin.write(model + "\n")
            p.stdin.flush()
        else:
            zygotes[p.pid] = (p, None)
            p.stdin.close()

    for _ in range(min(args.jobs, len(todo))):
        start()
    done = 0
    while zygotes:
        for key, _ in sel.select(timeout=5):
            p = key.data
            line = p.stdout.readline()
            if line.startswith("done "):
                done += 1
                stats["captured"] += 1
                model = line[5:].strip()
                el = time.monotonic() - started
                print(f"  [{done}/{len(todo)}] {model} ({el:.0f} s)", file=sys.stderr, flush=True)
                feed(p)
            elif not line:  # the zygote exited
                sel.unregister(p.stdout)
                p.wait()
                _, model = zygotes.pop(p.pid)
                if model is not None:  # it died on this model: record that, go on
                    _write_json(models_dir / (_safe(model) + ".json"),
                                {"model": model, "chosen": None, "settings": {
                                    s: {"skipped": f"zygote exited with {p.returncode}", "result": None}
                                    for s in args.settings}})
                    if queue:
                        start()
    log.close()
    stats["not_started"] = len(queue)
    if queue:
        print(f"time budget spent: {len(queue)} model(s) not captured; re-run to resume", file=sys.stderr)
    return stats


# ======================================================================================
# Classify
# ======================================================================================


def _linter_pythonpath(args, cache: Path) -> tuple[str, dict]:
    """Where the linter's sources come from: the working tree, or ``git archive REV``."""
    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout.strip()

    if args.linter_src:
        src = os.path.realpath(args.linter_src)
        if not os.path.isfile(os.path.join(src, "compilelint", "__init__.py")):
            raise SystemExit(f"--linter-src {args.linter_src}: no compilelint package there")
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True, text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=src, capture_output=True,
                                    text=True).stdout.strip())
        return src, {"source": f"--linter-src {src}", "commit": head or "?", "dirty_src": dirty}
    if not args.linter_rev:
        dirty = bool(git("status", "--porcelain", "--", "src"))
        return str(REPO / "src"), {"source": "working tree", "commit": git("rev-parse", "HEAD"), "dirty_src": dirty}
    sha = git("rev-parse", args.linter_rev)
    if not sha:
        raise SystemExit(f"--linter-rev {args.linter_rev}: not a git revision")
    dest = cache / "linter" / sha[:12]
    if not (dest / "src" / "compilelint").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "src"], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return str(dest / "src"), {"source": f"git archive {args.linter_rev}", "commit": sha, "dirty_src": False}


def static_findings(args, source: str, cache: Path) -> tuple[list, dict, float]:
    """``compilelint check SOURCE --format json`` in a subprocess (as users run it)."""
    from compilelint.finding import Finding

    pythonpath, linter = _linter_pythonpath(args, cache)
    cwd = os.path.dirname(source.rstrip(os.sep))
    out = tempfile.NamedTemporaryFile(prefix="calibrate-static-", suffix=".json", delete=False).name
    # one lint cache per linter source: an old linter's entries never serve the new one
    lint_cache = cache / "lint-cache" / zlib.crc32(pythonpath.encode()).to_bytes(4, "big").hex()
    cmd = [sys.executable, "-m", "compilelint", "check", source, "--format", "json", "--exit-zero", "-o", out,
           "--cache-dir", str(lint_cache), "-j", str(args.jobs)]
    env = dict(os.environ, PYTHONPATH=pythonpath)
    # which compilelint the check really runs (the --linter-src / --linter-rev one, not ours)
    where = subprocess.run([sys.executable, "-c", "import compilelint; print(compilelint.__file__)"], cwd=cwd,
                           env=env, capture_output=True, text=True).stdout.strip()
    linter["compilelint_file"] = where
    print(f"static pass: compilelint from {where}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t0
    try:
        with open(out, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        raise SystemExit(f"the static pass failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}") from None
    finally:
        if os.path.exists(out):
            if getattr(args, "static_out", None):  # (the check a density count reads: not run twice)
                shutil.copyfile(out, args.static_out)
            os.remove(out)
    fields = set(Finding.__dataclass_fields__)
    findings = []
    for d in doc.get("findings", []):
        d = {k: v for k, v in d.items() if k in fields}
        d["path"] = os.path.normpath(os.path.join(cwd, d["path"]))
        d["when"] = tuple(d.get("when") or ())
        d["needs"] = tuple(d.get("needs") or ())
        findings.append(Finding(**d))
    linter["version"] = doc.get("version")
    return findings, linter, took


def _remap(data: Any, olds: tuple[str, ...], new: str) -> Any:
    """A result's JSON with every path (string or key) under one of ``olds`` moved under
    ``new``: from where the package ran to the source the static pass checked."""
    if isinstance(data, str):
        for old in olds:
            if data.startswith(old):
                return new + data[len(old):]
        return data
    if isinstance(data, list):
        return [_remap(x, olds, new) for x in data]
    if isinstance(data, dict):
        return {_remap(k, olds, new): _remap(v, olds, new) for k, v in data.items()}
    return data


def _norm_reason(reason: str) -> str:
    r = re.sub(r"0x[0-9a-f]+", "0x…", reason or "")
    r = re.sub(r"\b\d+\b", "N", r)
    return r[:140]


def classify(args, suite, cdir: Path, models: list[str], capture_stats: dict) -> dict:
    from compilelint.probe.capture import drop_echoes
    from compilelint.probe.match import match
    from compilelint.probe.runner import TargetResult

    source = os.path.realpath(args.source or getattr(suite, "source_dir", suite.package_dir)())
    if not os.path.isdir(source):
        raise SystemExit(f"no source to check at {source} (run benchmarks/setup_speed.sh, or pass --source)")
    installed = suite.package_dir()
    olds = tuple(dict.fromkeys(p.rstrip(os.sep) + os.sep for p in (installed, os.path.realpath(installed))))
    sep_old, sep_new = olds[-1], source.rstrip(os.sep) + os.sep

    top = os.path.dirname(source) + os.sep  # paths are shown from the package's name down

    def rel(p: str | None) -> str | None:
        return p[len(top):] if p and p.startswith(sep_new) else p

    # -- the captures --------------------------------------------------------------------
    runs = []  # (model, setting, TargetResult)
    skipped: dict[str, dict[str, str]] = {}
    chosen: dict[str, Any] = {}
    missing = []
    for model in models:
        path = cdir / "models" / (_safe(model) + ".json")
        if not path.exists():
            missing.append(model)
            continue
        entry = json.loads(path.read_text(encoding="utf-8"))
        chosen[model] = entry.get("chosen")
        for setting in args.settings:
            s = entry["settings"].get(setting)
            if s is None:
                skipped.setdefault(model, {})[setting] = "not captured in this setting"
            elif s["skipped"]:
                skipped.setdefault(model, {})[setting] = s["skipped"]
            else:
                res = TargetResult.from_dict(_remap(s["result"], olds, sep_new))
                if res.capture is not None:  # captures cached before the probe dropped these
                    res.capture.breaks = drop_echoes(res.capture.breaks)
                runs.append((model, setting, res))

    # files that ran but differ from the checked source are left out (and counted)
    ran_files = {f for _, _, r in runs for f in r.lines_run if f.startswith(sep_new)}
    differ = sorted(rel(f) for f in ran_files if sep_old != sep_new and not _same_file(f, sep_old + f[len(sep_new):]))

    # -- the static pass -------------------------------------------------------------------
    findings, linter, static_s = static_findings(args, source, Path(args.cache))
    in_source = [f for f in findings if f.path.startswith(sep_new) and rel(f.path) not in differ]
    by_file: dict[str, list] = defaultdict(list)
    for f in in_source:
        by_file[f.path].append(f)

    # -- match, target by target -----------------------------------------------------------
    verdicts: dict[tuple, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # finding -> status -> runs
    reasons: dict[tuple, dict] = {}  # confirmed finding -> one Dynamo reason
    breaks: dict[tuple, dict] = {}  # (kind, file, line) -> the break, aggregated
    outside = Counter()
    fkey = lambda f: (rel(f.path), f.line, f.col, f.code)  # noqa: E731
    for model, setting, res in runs:
        run = f"{model}[{setting}]"
        mine = [copy.copy(f) for file in res.lines_run if file in by_file for f in by_file[file]]
        missed = match(mine, [res], cwd=source)
        for f in mine:
            if not f.evidence:
                continue
            status = f.evidence["status"]
            if status == "not-reproduced" and f.code.startswith("CL2"):
                # a recompile shows on a later call, and each model is called once here: a
                # CL2xx finding with no recompile is left unjudged, not refuted
                status = "one-call"
            verdicts[fkey(f)][status].append(run)
            if status == "confirmed" and fkey(f) not in reasons:
                reasons[fkey(f)] = {"reason": f.evidence.get("reason"), "gb_id": f.evidence.get("gb_id"),
                                    "kind": f.evidence.get("kind"), "run": run}
            elif status == "shadowed" and fkey(f) not in reasons:
                reasons[fkey(f)] = {"shadowed_by": f.evidence.get("shadowed_by"), "run": run}
        missed_at = {(m.evidence["kind"], os.path.realpath(os.path.join(source, m.path)), m.line) for m in missed}
        for b in res.breaks:
            if not b.file or not b.line:
                continue
            if not b.file.startswith(sep_new) or rel(b.file) in differ:
                outside[b.kind] += 1
                continue
            key = (b.kind, rel(b.file), b.line)
            agg = breaks.get(key)
            if agg is None:
                agg = breaks[key] = {"kind": b.kind, "path": rel(b.file), "line": b.line, "gb_id": b.gb_id,
                                     "reason": b.reason, "function": b.function, "found": False, "runs": [],
                                     "stack": [[rel(f) or f, ln] for f, ln in b.stack]}
            if run not in agg["runs"]:
                agg["runs"].append(run)
            if (b.kind, os.path.realpath(b.file), b.line) not in missed_at:
                agg["found"] = True

    # -- aggregate ------------------------------------------------------------------------
    per_finding = []
    for f in sorted(in_source, key=lambda f: f.sort_key()):
        k = fkey(f)
        st = verdicts.get(k)
        if not st:
            continue  # no run executed its file
        unknown = set(st) - set(VERDICTS)
        if unknown:
            raise SystemExit(f"compilelint.probe.match gave verdicts this script does not know: {unknown}")
        per_finding.append({
            "path": k[0], "line": f.line, "end_line": f.end_line, "col": f.col, "code": f.code,
            "when": list(getattr(f, "when", ()) or ()), "message": f.message, "scope": f.scope,
            "verdict": next(v for v in VERDICTS if st.get(v)),
            "runs": {v: sorted(st[v]) for v in VERDICTS if st.get(v)}, "dynamo": reasons.get(k)})
    rules: dict[str, Counter] = defaultdict(Counter)
    for pf in per_finding:
        rules[pf["code"]][pf["verdict"]] += 1
    explained_by: dict[str, int] = Counter()
    for b in breaks.values():
        if b["found"]:
            codes = {f.code for f in by_file.get(top + b["path"], [])
                     if f.line <= b["line"] <= (f.end_line or f.line)}
            b["found_by"] = sorted(codes)
            for c in codes:
                explained_by[c] += 1

    def prec(c: Counter) -> dict:
        judged = c["confirmed"] + c["not-reproduced"]
        return {**{v: c[v] for v in VERDICTS},
                "precision": round(c["confirmed"] / judged, 4) if judged else None}

    total = Counter()
    for c in rules.values():
        total.update(c)
    by_kind: dict[str, Counter] = defaultdict(Counter)
    by_gb: dict[str, Counter] = defaultdict(Counter)
    for b in breaks.values():
        for group, key in ((by_kind, b["kind"]), (by_gb, b["gb_id"] or "-")):
            group[key]["all"] += 1
            group[key]["found"] += b["found"]
    found = sum(b["found"] for b in breaks.values())
    # graph breaks only (no recompiles), one per statement: a frame skip Dynamo reports at
    # the line of the break that caused it is the same place
    places: dict[tuple, bool] = {}
    for b in breaks.values():
        if b["kind"] in ("graph_break", "frame_skip"):
            k = (b["path"], b["line"])
            places[k] = places.get(k, False) or b["found"]
    recall = lambda c: round(c["found"] / c["all"], 4) if c["all"] else None  # noqa: E731
    runs_ok = Counter(s for _, s, r in runs if r.ok)
    runs_failed = [{"run": f"{m}[{s}]", "error": r.error} for m, s, r in runs if not r.ok]
    return {
        "versions": {"suite": suite.NAME, suite.NAME: suite.version(), "torch": _torch_version(),
                     "python": sys.version.split()[0], "linter": linter},
        "settings": list(args.settings),
        "source": source,
        "models": {"requested": len(models), "not_captured": missing, "chosen": chosen, "skipped": skipped,
                   "runs": len(runs), "runs_ok": dict(runs_ok), "runs_failed_under_dynamo": runs_failed,
                   "capture": capture_stats},
        "static": {"findings": len(findings), "in_source": len(in_source), "judged": len(per_finding),
                   "seconds": round(static_s, 1), "files_differing_from_source": differ},
        "summary": {
            "overall": {**prec(total), "breaks": len(breaks), "breaks_found": found,
                        "recall": round(found / len(breaks), 4) if breaks else None},
            "graph_breaks": {"locations": len(places), "found": sum(places.values()),
                             "recall": round(sum(places.values()) / len(places), 4) if places else None},
            "per_rule": {code: {**prec(c), "breaks_explained": explained_by.get(code, 0)}
                         for code, c in sorted(rules.items())},
            "recall_per_kind": {k: {**c, "recall": recall(c)} for k, c in sorted(by_kind.items())},
            "recall_per_gb_id": {k: {**c, "recall": recall(c)} for k, c in sorted(by_gb.items())},
            "breaks_outside_source": dict(outside),
        },
        "findings": per_finding,
        "breaks": sorted(breaks.values(), key=lambda b: (b["path"], b["line"], b["kind"])),
    }


def _same_file(a: str, b: str) -> bool:
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


# ======================================================================================
# Report
# ======================================================================================


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def report(doc: dict, show: int) -> str:
    v, s, m = doc["versions"], doc["summary"], doc["models"]
    suite = v["suite"]
    linter = v["linter"]
    out = [f"calibration: {suite} {v[suite]}, torch {v['torch']}, python {v['python']}, compilelint "
           f"{linter.get('version')} ({linter['source']} {linter['commit'][:10]}"
           f"{', src modified' if linter.get('dirty_src') else ''})"]
    n_skip = sum(1 for mm in m["skipped"].values() if set(mm) >= set(doc["settings"]))
    out.append(f"models: {m['requested']} requested, {len(m['not_captured'])} not captured, {n_skip} skipped in "
               f"every setting; runs captured: {m['runs']} ("
               + ", ".join(f"{k} {n}" for k, n in sorted(m["runs_ok"].items())) + f" ok, "
               f"{len(m['runs_failed_under_dynamo'])} failed under Dynamo)")
    st = doc["static"]
    out.append(f"static findings: {st['findings']} ({st['in_source']} in the source, {st['judged']} in files a "
               f"model ran; {st['seconds']} s)")
    o = s["overall"]
    out.append(f"OVERALL  precision on executed lines {_pct(o['precision'])} ({o['confirmed']} confirmed / "
               f"{o['confirmed'] + o['not-reproduced']}), recall {_pct(o['recall'])} ({o['breaks_found']} of "
               f"{o['breaks']} break locations have a finding in the breaking statement)")
    gb = s.get("graph_breaks")
    if gb:
        out.append(f"         graph breaks only (no recompiles; one per statement): recall {_pct(gb['recall'])} "
                   f"({gb['found']} of {gb['locations']})")
    out.append(f"         shadowed {o['shadowed']}, condition not met {o['condition-not-met']}, "
               f"recompile rules on one call {o['one-call']}, not reached "
               f"{o['not-reached']}; breaks outside the source: {s['breaks_outside_source'] or 0}")
    out.append("")
    out.append(f"{'rule':7} {'conf':>5} {'not-rep':>7} {'shadow':>6} {'n-reach':>7} {'cond':>5} {'prec':>5} "
               f"{'breaks explained':>16}")
    for code, r in s["per_rule"].items():
        out.append(f"{code:7} {r['confirmed']:5} {r['not-reproduced']:7} {r['shadowed']:6} {r['not-reached']:7} "
                   f"{r['condition-not-met']:5} {_pct(r['precision']):>5} {r['breaks_explained']:16}")
    out.append("")
    out.append("recall per break kind: " + ", ".join(f"{k} {c['found']}/{c['all']} ({_pct(c['recall'])})"
                                                      for k, c in s["recall_per_kind"].items()))
    out.append("recall per Dynamo id: " + ", ".join(
        f"{k} {c['found']}/{c['all']}" for k, c in sorted(s["recall_per_gb_id"].items(), key=lambda kv: -kv[1]["all"])))
    missed = [b for b in doc["breaks"] if not b["found"]]
    groups: dict[tuple, list] = defaultdict(list)
    for b in missed:
        groups[(b["kind"], b["gb_id"], _norm_reason(b["reason"]))].append(b)
    out.append("")
    out.append(f"MISSED break locations: {len(missed)} in {len(groups)} reason groups (most frequent first)")
    for (kind, gb, reason), bs in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:show]:
        ex = bs[0]
        more = f" +{len(ex['runs']) - 1} runs" if len(ex["runs"]) > 1 else ""
        out.append(f"  {len(bs):4}  {kind:11} {gb or '-':7} {reason}")
        out.append(f"        e.g. {ex['path']}:{ex['line']} ({ex['runs'][0]}{more})")
    nr = [f for f in doc["findings"] if f["verdict"] == "not-reproduced"]
    by_rule: dict[str, list] = defaultdict(list)
    for f in nr:
        by_rule[f["code"]].append(f)
    out.append("")
    out.append(f"NOT REPRODUCED findings: {len(nr)}")
    for code, fs in sorted(by_rule.items(), key=lambda kv: -len(kv[1])):
        out.append(f"  {code}: {len(fs)}")
        for f in fs[:show]:
            run = f["runs"]["not-reproduced"][0]
            when = f" when {','.join(f['when'])}" if f["when"] else ""
            out.append(f"    {f['path']}:{f['line']}{when}  ({run})  {f['message'][:100]}")
    return "\n".join(out)


# ======================================================================================
# main
# ======================================================================================


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--static-out", help="keep the static pass's own JSON (`compilelint check`) here too")
    ap.add_argument("--suite", default="transformers", help="transformers (default) or a suite .py file")
    ap.add_argument("--source", help="what the static pass checks (default: the suite's source_dir())")
    ap.add_argument("--models", help="comma-separated model names (transformers: model types, e.g. llama,bert)")
    ap.add_argument("--limit", type=int, default=0,
                    help="only the first N models of a fixed pseudo-random order (crc32 of the name), "
                         "after the --include ones")
    ap.add_argument("--include", help="comma-separated models to put first (they count towards --limit)")
    ap.add_argument("--settings", help="eval,train,padded (default: the suite's; transformers: all three, "
                                       "a zoo adapter: eval,train)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="capture processes at a time (default 2)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per model and setting (default 120)")
    ap.add_argument("--budget", type=float, default=0, help="stop starting new captures after this many seconds")
    ap.add_argument("--cache", default=str(DEFAULT_CACHE), help="captures, lint cache (default .bench/calibration)")
    ap.add_argument("--recapture", action="store_true", help="capture again even what is cached")
    ap.add_argument("--retry-skipped", action="store_true",
                    help="capture again the cached models that did not build or run in eval")
    ap.add_argument("--capture-only", action="store_true", help="capture, do not classify")
    ap.add_argument("--classify-only", action="store_true", help="classify what is cached, capture nothing")
    ap.add_argument("--linter-rev", help="run the static pass from this git revision (default: the working tree)")
    ap.add_argument("--linter-src", help="run the static pass from this src/ folder (a git worktree's src, say)")
    ap.add_argument("--show", type=int, default=30, help="entries per list in the printed report")
    ap.add_argument("--_zygote", help=argparse.SUPPRESS)
    ap.add_argument("--_list", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.suite != "transformers":
        args.suite = os.path.abspath(args.suite)
        if not os.path.isfile(args.suite):
            ap.error(f"--suite {args.suite}: no such file")
    sys.path.insert(0, str(REPO / "src"))
    if args._list:
        return list_main(args.suite, args._list)
    suite = load_suite(args.suite)
    allowed = suite_settings(suite)
    args.settings = [s.strip() for s in (args.settings or ",".join(allowed)).split(",") if s.strip()]
    bad = [s for s in args.settings if s not in allowed]
    if bad or not args.settings:
        ap.error(f"--settings: choose from {', '.join(allowed)} (got {args.settings})")
    if args._zygote:
        return zygote_main(args.suite, args._zygote, args.timeout, args.settings)

    cdir = capture_dir(args, suite)
    models = plan_models(args, suite, cdir)
    stats: dict = {}
    if not args.classify_only:
        stats = run_captures(args, suite, cdir, models)
    if args.capture_only:
        return 0
    doc = classify(args, suite, cdir, models, stats)
    print(report(doc, args.show))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        _write_json(args.out, doc, indent=1)
        print(f"\nwrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
