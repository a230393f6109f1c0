"""Builders of play-off structures: extra-board stanzas (bridge), knock-outs, triangles."""
