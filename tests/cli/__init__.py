"""The command lines: ``playoff`` and ``playoff-arbiter``, in process or as processes."""
