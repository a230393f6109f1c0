"""Benchmarks with their own runner: ``python -m bench`` prints a table."""
