"""Builders of play-off structures: any play-off format (brackets and ladders), extra-board
stanzas (bridge), knock-outs, triangles."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "format",
    "gct",
    "stanzas",
]
