"""Synthetic workload models that generate SWF DataFrames (see ../shared/models/)."""
