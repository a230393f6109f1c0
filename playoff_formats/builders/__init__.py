"""Builders of play-off structures: extra-board stanzas (bridge), knock-outs, triangles."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "gct",
    "stanzas",
]
