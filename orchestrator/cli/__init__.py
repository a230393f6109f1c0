"""The ``playoff`` command line. Empty on purpose: ``playoff standings``
(:mod:`.entry`) loads nothing it does not use, the full command line is :mod:`.main`."""
