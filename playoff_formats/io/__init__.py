"""Parsers and writers of interchange formats: text in, objects out."""
