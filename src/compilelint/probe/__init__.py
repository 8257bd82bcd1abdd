"""The dynamic pass: ``compilelint probe``.

Nothing here imports torch at module level; the torch work happens in a worker
subprocess (``python -m compilelint.probe.worker``) or lazily inside
:func:`compilelint.probe.capture.capture`.
"""
