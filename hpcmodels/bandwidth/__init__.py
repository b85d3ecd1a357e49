"""Jones et al. 2005: bandwidth-centric co-allocation across clusters and the
bandwidth-aware meta-schedulers.

* :mod:`.model`: link demand (Eq. 1), PPBW from BSBW (Eq. 8), saturation (Eq. 3), the
  bandwidth allotment (Steps 1-5, Eq. 4), slowdown factors (Eq. 5) and the progress
  rate that carries Eqs. 6-7 (:mod:`.residual` is their literal recurrence), as typed
  functions over the numba kernels that the engine runs
  (:mod:`hpcmodels.multicluster.linkshare`).
* :mod:`.modules`: the co-allocation modules A1 (Eqs. 9-11) and B1-B4 (Section 5),
  re-exported from the engine's layer (:mod:`hpcmodels.multicluster.coallocation_modules`),
  and the paper's own A1 solver beside them.
* :class:`Network`: the links as the engine (:func:`hpcmodels.multicluster.simulate`)
  takes them (defined in :mod:`hpcmodels.multicluster.network`, re-exported here); the
  engine runs the meta-schedulers (LA -> MIG -> module) with FPFS selection and moves
  co-allocated jobs' ends at every link change.
* :mod:`.experiment`: the paper's synthetic workload and strategies (No Share,
  Migration Only, Ideal, First-Fit, fixed penalty, A1, B1-B4) as one call per point.
"""

from .experiment import (
    SECTION4,
    SECTION6,
    SELECTION_READINGS,
    STRATEGIES,
    Setup,
    batch_means_ci,
    coallocation_penalty,
    run_point,
    workload,
)
from .model import (
    allot_bandwidth,
    link_demand,
    ppbw_from_bsbw,
    progress_rate,
    saturation,
    slowdown_factors,
)
from .network import Network
from .residual import Residual, advance_residuals, start_residual

__all__ = [
    "SECTION4",
    "SECTION6",
    "SELECTION_READINGS",
    "STRATEGIES",
    "Setup",
    "batch_means_ci",
    "coallocation_penalty",
    "run_point",
    "workload",
    "Network",
    "Residual",
    "advance_residuals",
    "allot_bandwidth",
    "link_demand",
    "ppbw_from_bsbw",
    "progress_rate",
    "saturation",
    "slowdown_factors",
    "start_residual",
]
