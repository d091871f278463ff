"""Benchmarks, one module per section: `python -m infra.bench` (see __main__.py) or `make bench`."""
