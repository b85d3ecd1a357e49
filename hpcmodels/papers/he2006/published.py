"""He et al. 2006: the paper's printed numbers, its settings (Section 5.1, Table 2, the
figures' grids) and the readings of its ambiguous passages, as data."""

from __future__ import annotations

from dataclasses import dataclass

from ...queueing import (
    UniformSlack,
)
from ...queueing.system import MultiCluster

TABLE2 = MultiCluster((3, 5, 7, 9), (20, 16, 12, 8))
"""Table 2: four clusters, nodes 3/5/7/9 of relative speed 20/16/12/8."""


FIG3_SLACK = UniformSlack(0.0, 30.0)


FIG4_SLACK = UniformSlack(0.0, 10.0)


STEPS = ((21, 1), (18, 2), (15, 3), (12, 4), (9, 5), (6, 6))
"""Figs. 4-5: cluster 1 from 21 down to 6 by 3, clusters 2-4 from 1 up to 6 by 1."""


WORKLOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


SLACK_UPPERS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0)


CVS = (1.0, 1.5, 2.0, 2.5, 3.0)


CHANGES = (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3)


STRATEGIES = ("ORT", "OMR", "W")


ALGORITHMS = {
    "ORT-RR": ("ORT", "round_robin"),
    "ORT-Rand": ("ORT", "random"),
    "OMR-RR": ("OMR", "round_robin"),
    "OMR-Rand": ("OMR", "random"),
    "W-RR": ("W", "round_robin"),
    "W-Rand": ("W", "random"),
    "DLL": ("W", "dll"),
    "DLM": ("W", "dlm"),
}


TABLE3_PAPER = {  # Table 3: fractions at workload 0.1 on the Table 2 system
    "ORT": ("0.752", "0.248", "0", "0"),
    "W": ("0.203", "0.270", "0.284", "0.243"),
    "OMR": ("0.048", "0.202", "0.351", "0.399"),
}


TABLE4_PAPER = {  # Table 4: (cluster 1, each of clusters 2-4) at workload 0.5, slack U[0,10]
    (21, 1): {"OMR": ("0.912", "0.029"), "ORT": ("1", "0"), "W": ("0.875", "0.042")},
    (18, 2): {"OMR": ("0.802", "0.066"), "ORT": ("1", "0"), "W": ("0.75", "0.083")},
    (15, 3): {"OMR": ("0.676", "0.108"), "ORT": ("0.962", "0.013"), "W": ("0.625", "0.125")},
}


TEXT_NUMBERS = {  # numbers stated in Section 5 (percent)
    "fig3a_ort_rr_vs_w_rr_0.1": "47.4",
    "fig3a_ort_rr_vs_w_rr_0.9": "13.3",
    "fig4a_max_decrease": "68",
    "fig5a_decrease": "24",
    "fig7a_ort_rr_vs_w_rr_cv3": "23.1",
    "fig7a_ort_rr_vs_dll_cv3": "6.6",
    "fig7b_ort_rr_vs_w_rr_0.1": "41.9",
    "fig7b_ort_rr_vs_w_rr_0.9": "10.3",
    "fig8a_up": "12",
    "fig8a_down": "11",
    "fig8a_ort_vs_w_0.3": "33",
    "fig8b_at_0.1": "33",
    "fig8b_at_0.5": "9",
    "fig8b_min": "9",
    "omr_1pct_threshold": "6",
}

FIG7_GAINS = (  # Section 5.6's "A outperforms B by x %" (x: TEXT_NUMBERS[key]); workload None:
    # Fig. 7a's one workload, read at its largest CV; else Fig. 7b at that workload
    ("Fig. 7a", "ORT-RR", "W-RR", "fig7a_ort_rr_vs_w_rr_cv3", "ORT-RR better than W-RR", None),
    ("Fig. 7a", "DLL", "ORT-RR", "fig7a_ort_rr_vs_dll_cv3", "difference between ORT-RR and DLL", None),
    ("Fig. 7b", "ORT-RR", "W-RR", "fig7b_ort_rr_vs_w_rr_0.1", "ORT-RR better than W-RR", 0.1),
    ("Fig. 7b", "ORT-RR", "W-RR", "fig7b_ort_rr_vs_w_rr_0.9", "ORT-RR better than W-RR", 0.9),
)  # fmt: skip


MEAN_JOB_SIZE_PAPER = "84.0"
"""Section 5.1's mean job size (s); Section 5.6 says the Bounded Pareto sizes have "the
same" mean."""


OMR_READINGS = {
    "ours": "Eq. 16 with exponent m_i (default)",
    "algorithm1": "Algorithm 1 (tolerances 1e-3, 1e-4)",
    "eq16_printed": "Eq. 16 as printed, k read as m_i - 1",
}
"""The readings of OMR computed for Tables 3 and 4, by frame column: ``ours`` (the
default) and ``eq16_printed`` are exact optima, ``algorithm1`` the published bisection."""


PERCENT_READINGS = {
    "gain": ("(B - A)/B", "(B - A)/A"),
    "decrease": ("(R0 - R1)/R0", "(R0 - R1)/R1"),
    "deterioration": ("(approximate - accurate)/accurate", "(approximate - accurate)/approximate"),
}
"""The two readings of each kind of printed percentage, the default first: "A outperforms
B by x %", "decreases from R0 to R1 by x %", and Fig. 8's "deteriorates by x %"."""


# ------------------------------------------------------------------ text claims
# Section 5's statements that share a form, as data: one checker
# (hpcmodels.papers.he2006.claims) judges each on the quick frames and on the paper-scale
# store's.


@dataclass(frozen=True)
class Order:
    """ "``winner`` is below every one of ``losers`` at every point of the figure": the
    ``column`` (``mean_response`` or ``miss_rate``) along ``x``. ``cause`` names the
    measured explanation of a reversal outside the 95 % CI
    (:data:`hpcmodels.papers.he2006.claims.ORDER_CAUSES`); without one a round-robin
    winner is explained by the M/M/m order of the same fractions."""

    figure: str
    x: str
    column: str
    winner: str
    losers: tuple[str, ...]
    text: str
    cause: str = ""


@dataclass(frozen=True)
class Alike:
    """ "``algorithm``'s ``column`` remains approximately the same along ``x``": judged by
    :func:`hpcmodels.papers.verdicts.alike` on the means and their 95 % half-widths."""

    item: str
    quantity: str
    text: str
    algorithm: str
    x: str
    column: str = "mean_response"


ORDERS: dict[str, tuple[Order, ...]] = {
    "Fig. 3 allocation": (  # Section 5.2, Fig. 3a
        Order("3a", "workload", "mean_response", "ORT-RR", ("W-RR", "OMR-RR"),
              "ORT-RR has a lower mean response time than W-RR and OMR-RR"),
        Order("3a", "workload", "mean_response", "ORT-Rand", ("W-Rand", "OMR-Rand"),
              "ORT-Rand has a lower mean response time than W-Rand and OMR-Rand"),
        Order("3a", "workload", "mean_response", "ORT-Rand", ("W-RR",),
              "ORT-Rand has a lower mean response time than W-RR", "rr_versus_rand"),
    ),
    "Fig. 3 dispatch": (  # Section 5.2, Figs. 3a and 3b
        Order("3b", "workload", "miss_rate", "OMR-RR", ("ORT-RR", "W-RR"),
              "OMR-RR has a lower miss rate than ORT-RR and W-RR"),
        Order("3b", "workload", "miss_rate", "OMR-Rand", ("ORT-Rand", "W-Rand"),
              "OMR-Rand has a lower miss rate than ORT-Rand and W-Rand"),
        Order("3a", "workload", "mean_response", "ORT-RR", ("ORT-Rand",),
              "round-robin beats random dispatch under ORT"),
        Order("3a", "workload", "mean_response", "W-RR", ("W-Rand",),
              "round-robin beats random dispatch under weighted allocation"),
        Order("3b", "workload", "miss_rate", "OMR-RR", ("OMR-Rand",),
              "round-robin beats random dispatch under OMR"),
        Order("3a", "workload", "mean_response", "DLL", ("ORT-RR",),
              "DLL bounds ORT-RR from below", "dll"),
        Order("3b", "workload", "miss_rate", "DLM", ("OMR-RR",),
              "DLM bounds OMR-RR from below"),
    ),
    "Fig. 4": (  # Section 5.3
        Order("4b", "speeds", "miss_rate", "OMR-RR", ("ORT-RR", "W-RR"),
              "OMR-RR has the lowest miss rate in every speed combination"),
    ),
    "Fig. 5": (  # Section 5.4
        Order("5a", "nodes", "mean_response", "ORT-RR", ("OMR-RR", "W-RR"),
              "ORT-RR has the lowest response time"),
        Order("5b", "nodes", "miss_rate", "OMR-RR", ("ORT-RR", "W-RR"),
              "OMR-RR has the lowest miss rate"),
    ),
}  # fmt: skip
"""Section 5's orderings, by the block of the report they stand in."""

ALIKES: dict[str, Alike] = {
    "Fig. 4a": Alike("Fig. 4a", "W-RR's response time alike across the speed combinations "
                     "(verdicts.alike)", "remains approximately the same", "W-RR", "speeds"),
    "Fig. 4b": Alike("Fig. 4b", "OMR-RR's miss rate alike across the speed combinations "
                     "(verdicts.alike)", "remains approximately the same", "OMR-RR", "speeds",
                     "miss_rate"),
    "Fig. 6a": Alike("Fig. 6a", "OMR-RR's response time alike across the slack limits "
                     "(verdicts.alike)", "approximately the same as the slack varies", "OMR-RR",
                     "slack_upper"),
}  # fmt: skip
"""Section 5's "remains approximately the same" along a figure's axis (Sections 5.3 and
5.5)."""
