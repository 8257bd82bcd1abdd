"""Moving, casting, flattening and comparing a target's tensors (torch inside)."""

from __future__ import annotations

from typing import Any


def _convert(obj: Any, on_tensor, on_module) -> Any:
    """``obj`` with its tensors and modules converted, through tuples (a NamedTuple stays one),
    lists and dicts; the module of a bound method is converted in place."""
    import torch

    if isinstance(obj, torch.Tensor):
        return on_tensor(obj)
    if isinstance(obj, torch.nn.Module):
        return on_module(obj)
    if isinstance(obj, tuple):
        items = [_convert(o, on_tensor, on_module) for o in obj]
        if hasattr(type(obj), "_fields"):  # a NamedTuple the target reads by name (`batch.observations`)
            return type(obj)(*items)
        return tuple(items)
    if isinstance(obj, list):
        return [_convert(o, on_tensor, on_module) for o in obj]
    if isinstance(obj, dict):
        return {k: _convert(v, on_tensor, on_module) for k, v in obj.items()}
    self_obj = getattr(obj, "__self__", None)  # a bound method of a module
    if isinstance(self_obj, torch.nn.Module):
        on_module(self_obj)
    return obj


def to_device(obj: Any, device: str) -> Any:
    return _convert(obj, lambda t: t.to(device), lambda m: m.to(device))


def flat_tensors(obj: Any, out: list | None = None) -> list:
    import torch

    out = [] if out is None else out
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            flat_tensors(o, out)
    elif isinstance(obj, dict):
        for v in obj.values():
            flat_tensors(v, out)
    elif hasattr(obj, "to_tuple") and callable(obj.to_tuple):  # transformers ModelOutput
        flat_tensors(obj.to_tuple(), out)
    elif hasattr(obj, "__dict__") and not callable(obj):
        for v in vars(obj).values():
            if isinstance(v, (torch.Tensor, list, tuple, dict)):
                flat_tensors(v, out)
    return out


def detach_copy(obj: Any) -> list:
    return [t.detach().to("cpu", copy=True) for t in flat_tensors(obj)]


def output_diff(ref: list, got: list) -> tuple[float | None, float | None]:
    """Max absolute difference and max difference relative to the reference's
    largest magnitude, over every output tensor (None when not comparable)."""
    import torch

    if len(ref) != len(got):
        return None, None
    max_abs = 0.0
    max_rel = 0.0
    for a, b in zip(ref, got):
        if a.shape != b.shape:
            return None, None
        if a.numel() == 0:
            continue
        if not (a.is_floating_point() or a.is_complex()):
            a = a.to(torch.float64)
            b = b.to(torch.float64)
        a64 = a.to(torch.float64) if not a.is_complex() else a.to(torch.complex128)
        b64 = b.to(torch.float64) if not b.is_complex() else b.to(torch.complex128)
        d = (a64 - b64).abs()
        finite = torch.isfinite(d)
        both_nan = torch.isnan(a64.abs()) & torch.isnan(b64.abs())
        d = torch.where(both_nan, torch.zeros_like(d), d)
        if not bool(finite.all()) and not bool((finite | both_nan).all()):
            return float("inf"), float("inf")
        da = float(d.max()) if d.numel() else 0.0
        scale = float(a64.abs().nan_to_num(0.0).max())
        max_abs = max(max_abs, da)
        max_rel = max(max_rel, da / scale if scale > 0 else (0.0 if da == 0 else float("inf")))
    return max_abs, max_rel


def _reduce_for_backward(out: Any):
    ts = [t for t in flat_tensors(out) if t.requires_grad and (t.is_floating_point() or t.is_complex())]
    if not ts:
        return None
    total = ts[0].float().sum()
    for t in ts[1:]:
        total = total + t.float().sum()
    return total


DTYPES = {"bf16": "bfloat16", "bfloat16": "bfloat16", "fp16": "float16", "float16": "float16",
          "fp32": "float32", "float32": "float32"}


def to_dtype(obj: Any, dtype: str | None) -> Any:
    """Floating-point modules and tensors cast to ``dtype`` ("bf16"/"fp16"/…): the
    half-precision paths of a model (``if x.dtype == torch.float16``) run only so."""
    import torch

    if not dtype:
        return obj
    dt = getattr(torch, DTYPES.get(dtype, dtype))
    return _convert(obj, lambda t: t.to(dt) if t.is_floating_point() else t, lambda m: m.to(dt))


def set_training(fn: Any, train: bool) -> None:
    """``module.train()`` for a training run (dropout, layerdrop, `if self.training`
    paths); an inference run leaves the mode the factory chose."""
    import torch

    mod = fn if isinstance(fn, torch.nn.Module) else getattr(fn, "__self__", None)
    if train and isinstance(mod, torch.nn.Module):
        mod.train()


def floating_dtype(fn: Any, calls: Any) -> str | None:
    """"float16", "bfloat16", "float32"…: the module's first floating-point parameter,
    else the first floating-point tensor among the inputs; None when there is none."""
    import torch

    mod = fn if isinstance(fn, torch.nn.Module) else getattr(fn, "__self__", None)
    if isinstance(mod, torch.nn.Module):
        for p in mod.parameters():
            if p.is_floating_point():
                return str(p.dtype).replace("torch.", "")
    for t in flat_tensors(calls):
        if t.is_floating_point():
            return str(t.dtype).replace("torch.", "")
    return None
