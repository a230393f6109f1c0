"""The HTTP API: thin REST and websocket adapters over the commands and the views."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "deps",
    "pages",
    "routes",
    "ws",
]
