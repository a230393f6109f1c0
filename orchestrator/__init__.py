"""The play-off service: command line, event store, scheduler, clocks and streams."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "access",
    "api",
    "app",
    "auth",
    "bus",
    "cli",
    "clocks",
    "commands",
    "creation",
    "demo",
    "errors",
    "events",
    "files",
    "hub",
    "pgn",
    "schedule",
    "scheduler",
    "service",
    "settings",
    "state",
    "store",
    "timesource",
    "views",
]
