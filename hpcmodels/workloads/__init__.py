"""Workloads: SWF logs of the Parallel Workloads Archive, the papers' cleaning filters,
transforms, and synthetic workload models (Lublin99, Feitelson96, Jann97)."""

from .swf import SWF_COLUMNS, SWFError, read_swf, swf_frame, write_swf

__all__ = ["SWF_COLUMNS", "SWFError", "read_swf", "swf_frame", "write_swf"]
