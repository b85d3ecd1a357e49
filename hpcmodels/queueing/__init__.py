"""M/M/m workload allocation over multiclusters: He et al. 2006 (ORT and OMR).

The analytic models (Erlang C, response time, waiting-time distribution, miss rates,
the weighted, ORT and OMR allocations) and a numba dispatch simulator that checks them.
"""

from .allocation import (
    Algorithm1Result,
    algorithm1,
    cluster_miss_rates,
    cluster_response_times,
    mean_miss_rate_of,
    mean_response_time_of,
    omr_allocation,
    ort_allocation,
    saturation_rate,
    weighted_allocation,
)
from .mmm import erlang_b, erlang_c, mean_response_time, mean_waiting_time, waiting_time_cdf
from .slack import SpikeSlack, UniformSlack

__all__ = [
    "Algorithm1Result",
    "SpikeSlack",
    "UniformSlack",
    "algorithm1",
    "cluster_miss_rates",
    "cluster_response_times",
    "erlang_b",
    "erlang_c",
    "mean_miss_rate_of",
    "mean_response_time",
    "mean_response_time_of",
    "mean_waiting_time",
    "omr_allocation",
    "ort_allocation",
    "saturation_rate",
    "waiting_time_cdf",
    "weighted_allocation",
]
