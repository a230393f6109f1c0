"""What arbiters and halls use: the hall display and the arbiter console (static pages
in ``display/``, ``console/`` and ``common/``, served by the service), and a Python
client library with its command line (``python``)."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "python",
]
