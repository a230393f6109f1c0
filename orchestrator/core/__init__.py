"""The core: commands decide, events apply themselves, states are their fold, and the
service is the one write path between them and the log."""
