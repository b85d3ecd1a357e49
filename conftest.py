"""pytest, whole tree (tests/ and nbval over notebooks/): no test downloads a log. The
notebook kernels nbval starts inherit this environment."""

import os

os.environ.setdefault("HPCMODELS_OFFLINE", "1")
