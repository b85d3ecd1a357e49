"""pytest, whole tree (tests/ and nbval over notebooks/): no test downloads a log, and
sweeps run in the test process (``HPCMODELS_DASK_SCHEDULER=serial``: no worker processes
to start or compile numba kernels in; tests/test_sweep.py starts its own Dask clusters and
checks that they give the same results). The notebook kernels nbval starts inherit this
environment."""

import os

os.environ.setdefault("HPCMODELS_OFFLINE", "1")
os.environ.setdefault("HPCMODELS_DASK_SCHEDULER", "serial")
