"""Tiebreak criteria, the resolver that applies them, and the trace it keeps."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "core",
    "criteria",
    "fide",
    "index",
    "words",
]
