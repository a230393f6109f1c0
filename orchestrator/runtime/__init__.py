"""What runs around the service: the websocket hub, the bus between workers, the
flag timers and the scheduler's jobs."""
