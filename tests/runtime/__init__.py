"""Several workers, restarts, outages, timers and floods: the service as it runs in a hall."""
