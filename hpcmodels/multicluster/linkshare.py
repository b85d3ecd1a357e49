"""Link sharing on Jones et al. 2005's inter-cluster network (numba kernels the engine
runs, :func:`.rates.bandwidth_rates` and the co-allocation modules).

* :func:`demand_kernel`: a job's required bandwidth on one link, Eq. 1 with Eq. 8's
  PPBW: ``4 BSBW n (N - n) / N^2``;
* :func:`allot_kernel`: the allotment algorithm of Section 3.5 (Steps 1-5, the
  residual saturation of Eq. 4), in place;
* :func:`rate_kernel`: the progress rate ``1 / (K + (1 - K) / sd)`` that carries the
  residual times of Eqs. 6-7.

The model, with typed and validated wrappers of these kernels, is
:mod:`hpcmodels.bandwidth.model`.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["demand_kernel", "allot_kernel", "rate_kernel"]


@numba.njit(cache=True)
def demand_kernel(n, total, bsbw):
    """Eq. 1 with Eq. 8's PPBW: ``4 BSBW n (N - n) / N^2`` (0 for a one-node job)."""
    if total <= 1:
        return 0.0
    return 4.0 * bsbw * n * (total - n) / (total * total)


@numba.njit(cache=True)
def allot_kernel(demand, capacity, allotted):
    """Steps 1-5 of Section 3.5 into ``allotted`` (same shape as ``demand``: jobs x
    links). Returns the number of saturation corrections (Step 3) made."""
    jobs, links = demand.shape
    allotted[:, :] = demand
    avail = capacity.astype(np.float64)  # a copy
    unconstrained = np.ones(jobs, np.bool_)
    corrections = 0
    while True:
        worst, factor = -1, 1.0
        for i in range(links):  # Step 2: residual saturation of Eq. 4
            total = 0.0
            for j in range(jobs):
                if unconstrained[j]:
                    total += allotted[j, i]
            if total > 0.0:
                s = avail[i] / total
                if s < factor:
                    worst, factor = i, s
        if worst < 0:
            return corrections  # Step 5
        corrections += 1
        for j in range(jobs):  # Steps 3-4
            if unconstrained[j] and demand[j, worst] > 0.0:
                unconstrained[j] = False
                for i in range(links):
                    allotted[j, i] *= factor
                    avail[i] = max(avail[i] - allotted[j, i], 0.0)


@numba.njit(cache=True)
def rate_kernel(sd, k):
    return 1.0 / (k + (1.0 - k) / sd)
