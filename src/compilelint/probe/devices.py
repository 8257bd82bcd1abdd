"""Which GPUs the probe may time on, and how many targets to run at once. No torch:
the parent process never imports it, so GPUs are found the way CUDA itself is told
about them (``CUDA_VISIBLE_DEVICES``) or asked (``nvidia-smi``)."""

from __future__ import annotations

import os
import shutil
import subprocess


class DeviceError(ValueError):
    """A `--gpus` / `gpus =` value that cannot be used (usage error, exit 2)."""


def parse_gpus(value: str | list | tuple | None) -> list[str] | None:
    """`--gpus 0,1` / `gpus = [0, 1]`: GPU ids (indices or UUIDs) as CUDA_VISIBLE_DEVICES
    names them; None when not given."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    gpus = [item.strip() for item in items if str(item).strip()]
    if not gpus:
        raise DeviceError("--gpus: give GPU ids, e.g. --gpus 0,1")
    if len(set(gpus)) != len(gpus):
        raise DeviceError(f"--gpus {','.join(gpus)}: a GPU is named twice")
    return gpus


def visible_gpus() -> list[str]:
    """The GPUs this process may use: CUDA_VISIBLE_DEVICES when set, else what
    nvidia-smi lists, else none."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        # CUDA stops at the first invalid entry; "-1" or "" hides every GPU
        ids = []
        for item in env.split(","):
            item = item.strip()
            if not item or item.startswith("-"):
                break
            ids.append(item)
        return ids
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        out = subprocess.run([smi, "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in out.splitlines() if line.strip().isdigit()]


def timing_gpus(device: str | None, gpus: list[str] | None) -> list[str]:
    """The GPUs targets are spread over: none when the probe runs on the CPU."""
    if device == "cpu":
        return []
    return list(gpus) if gpus is not None else visible_gpus()


def default_jobs(n_targets: int) -> int:
    """As many targets at once as there are cores (capture is CPU-bound Dynamo tracing;
    timing takes a device lock of its own, so it is not disturbed by them)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, n_targets))
