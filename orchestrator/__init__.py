"""The play-off service, by layer: the core, the runtime around it, the log, the views,
the printouts, the web doors and the command line (docs/architecture.md)."""

# Each subpackage imports what it needs when it is imported.
__all__ = ["api", "app", "cli", "core", "printing", "runtime", "settings", "store", "views"]
