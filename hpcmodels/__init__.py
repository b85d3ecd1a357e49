"""hpcmodels: reproducible models of multi-cluster job scheduling and allocation."""

__version__ = "0.1.0"

from . import kernel_cache as _kernel_cache

_kernel_cache.refresh()  # numba's cached kernels follow an edited callee (see kernel_cache)
