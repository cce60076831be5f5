"""Benchmarks: ``python -m benchmarks`` (or ``make bench``)."""
