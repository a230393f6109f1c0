"""The HTTP API: REST routes (and, later, the websocket endpoint)."""
