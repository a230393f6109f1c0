"""Data files shipped with the service (the demo event)."""

__all__: list[str] = []
