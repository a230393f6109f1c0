"""The rules of play-offs: pure, deterministic, free of I/O.

Nothing here reads the wall clock, touches the network or the file system, or
draws hidden random numbers: time and seeds are arguments.
"""
