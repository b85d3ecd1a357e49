"""Archive logs for tests: loaded from $HPCMODELS_DATA, skipped (naming the log) if absent."""

import pytest

from hpcmodels.workloads.archive import LogNotAvailable, load_archive_log

SDSC = "SDSC-SP2-1998-4.2-cln"


def need_log(name: str):
    """Load a catalogued log without downloading, or skip the test naming the log."""
    try:
        return load_archive_log(name, download=False)
    except LogNotAvailable:
        pytest.skip(f"log {name} is not available here (set HPCMODELS_DATA)")
