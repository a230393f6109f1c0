"""The service in process: commands, events, views, the log and the hub, without HTTP."""
