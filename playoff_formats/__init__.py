"""The rules of play-offs: pure, deterministic, free of I/O.

Nothing here reads the wall clock, touches the network or the file system, or
draws hidden random numbers: time and seeds are arguments.
"""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "builders",
    "clock",
    "errors",
    "extra_boards",
    "io",
    "lots",
    "model",
    "placings",
    "playoff",
    "regulations",
    "schedule",
    "scoring",
    "standings",
    "team_chess",
    "tiebreaks",
    "timecontrol",
    "values",
]
