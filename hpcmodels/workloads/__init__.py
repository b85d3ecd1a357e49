"""Workloads: SWF logs of the Parallel Workloads Archive, the papers' cleaning filters,
transforms, and synthetic workload models (Lublin99, Feitelson96, Jann97)."""

from .archive import LogNotAvailable, catalogue, is_available, load_archive_log
from .swf import SWF_COLUMNS, SWFError, read_swf, swf_frame, write_swf

__all__ = [
    "SWF_COLUMNS",
    "LogNotAvailable",
    "SWFError",
    "catalogue",
    "is_available",
    "load_archive_log",
    "read_swf",
    "swf_frame",
    "write_swf",
]
