"""hpcmodels: reproducible models of multi-cluster job scheduling and allocation."""

__version__ = "0.1.0"
