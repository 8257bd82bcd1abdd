"""Incremental analysis of an open buffer, for the language server: after an edit, only
the top-level statements the edit touched are parsed and walked again (`splice`,
`state`, `model`). What it gives is what `analysis.analyze` gives for the same text."""

from compilelint.incremental.model import FileModel

__all__ = ["FileModel"]
