"""The play-off service: command line, event store, scheduler, clocks and streams."""
