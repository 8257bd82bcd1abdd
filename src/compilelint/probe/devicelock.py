"""One device, one timing: a readers-writer lock per GPU (and one for the CPU) that
probe workers take while they run targets side by side.

Timing and what-if re-timing take the lock *exclusively*; everything a timed target
does before (importing torch, loading, capture) takes it *shared*, so a timing never
overlaps another target's work on the same device, while captures overlap freely.
Capture-only runs take no lock at all.

The locks are ``flock(2)`` locks on files in a per-user folder, taken by the worker
processes themselves: the kernel drops them when a worker exits or dies, so a crash
never leaves a device locked, and two probe runs on one host share the same locks.
A turnstile keeps a waiting timing from being starved by a stream of new captures.

While a worker waits it keeps a marker file beside its result, so the parent does not
count the wait against the target's time limit. No torch here.
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
import time

LOCK_ENV = "COMPILELINT_PROBE_LOCK"  # the parent names the device lock a worker uses
WAITING_SUFFIX = ".waiting"  # beside the worker's result file while it waits for a lock


def lock_base(device: str) -> str:
    """The lock files' path (without suffix) for `device` ("cpu", "gpu-0", "gpu-GPU-8f…")."""
    folder = os.path.join(tempfile.gettempdir(), f"compilelint-locks-{os.getuid()}")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, re.sub(r"[^\w.-]", "_", device))


def lock_env(device: str) -> dict[str, str]:
    return {LOCK_ENV: lock_base(device)}


class DeviceLock:
    """Held by one worker process: `shared()`, then `exclusive()`, each returning the
    seconds it waited; released when the process exits, or by `release()`."""

    def __init__(self, base: str, marker: str):
        flags = os.O_RDWR | os.O_CREAT
        self._rw = os.open(base + ".lock", flags, 0o600)
        self._turn = os.open(base + ".turn", flags, 0o600)
        self._marker = marker
        self.name = os.path.basename(base)  # "cpu", "gpu-0": which device it guards

    def _take(self, fd: int, op: int) -> float:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return 0.0
        except BlockingIOError:
            pass
        started = time.monotonic()
        with open(self._marker, "w"):
            pass
        try:
            fcntl.flock(fd, op)
        finally:
            try:
                os.unlink(self._marker)
            except OSError:
                pass
        return time.monotonic() - started

    def _through_turnstile(self, op: int) -> float:
        waited = self._take(self._turn, fcntl.LOCK_EX)
        try:
            waited += self._take(self._rw, op)
        finally:
            fcntl.flock(self._turn, fcntl.LOCK_UN)
        return waited

    def shared(self) -> float:
        return self._through_turnstile(fcntl.LOCK_SH)

    def exclusive(self) -> float:
        fcntl.flock(self._rw, fcntl.LOCK_UN)  # flock cannot upgrade in place
        return self._through_turnstile(fcntl.LOCK_EX)

    def release(self) -> None:
        fcntl.flock(self._rw, fcntl.LOCK_UN)


def from_env(result_path: str) -> DeviceLock | None:
    """The lock the parent asked this worker to take (None: run unlocked)."""
    base = os.environ.get(LOCK_ENV)
    return DeviceLock(base, result_path + WAITING_SUFFIX) if base else None
