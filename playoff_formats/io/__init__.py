"""Parsers and writers of interchange formats: text in, objects out."""

# The public surface is these modules; each imports what it needs when it is imported.
__all__ = [
    "json_event",
    "reasons",
    "strict_json",
    "team_json",
    "trf",
    "validation",
]
