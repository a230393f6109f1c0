"""Tiebreak criteria, the resolver that applies them, and the trace it keeps."""
