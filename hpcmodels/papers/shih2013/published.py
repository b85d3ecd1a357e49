"""Shih et al. 2013's printed numbers, text claims and settings, as data.

Each value names where the paper prints it: Table 1 and Fig. 9 (Section 3's worked
example on the Fig. 4 snapshot, reconstructed: ``docs/readings.md``), Table 3 (the
workloads, Section 4.1), Table 4 (TLA's improvement, Section 4.2; only the cells that can
be placed in the scrambled text), Table 5 (A2's utilization), Section 5.2's counts (Fig.
10) and the claims of Section 5 (Figs. 8, 10, 12, 13). Settings: the load levels and SH
levels of Section 4.1, the four methods compared, the inaccuracy factors of Fig. 8.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ...multicluster import Cluster, RunningJob, WaitingJob


@dataclass(frozen=True)
class Workload:
    """One row of Shih 2013 Table 3 (the printed values as strings)."""

    wid: str
    source: str
    jobs: str
    clusters: tuple[int, ...]
    sl: str

    @property
    def processors(self) -> int:
        return sum(self.clusters)


TABLE3 = (
    Workload("A1", "SDSC SP2", "54041", (128,) * 5, "0.17"),
    Workload("A2", "SDSC SP2", "54041", (128, 128, 128, 50, 8), "0.24"),
    Workload("B1", "DAS2", "416836", (144,) * 5, "0.08"),
    Workload("B2", "DAS2", "416836", (144, 64, 64, 64, 64), "0.14"),
    Workload("C1", "ANL Intrepid", "68936", (163_840,) * 5, "0.11"),
    Workload("C2", "ANL Intrepid", "88205", (8192,) * 20, "0.59"),
    Workload("D1", "Lublin99", "50000", (128,) * 5, "0.34"),
    Workload("D2", "Lublin99", "50000", (128,) * 10, "0.17"),
    Workload("E1", "Feitelson96", "50000", (128,) * 5, "0.09"),
    Workload("E2", "Feitelson96", "50000", (128,) * 3, "0.15"),
    Workload("F1", "Jann97", "50000", (322,) * 5, "0.13"),
    Workload("F2", "Jann97", "50000", (322,) * 8, "0.08"),
)
DAS2_LOGS = tuple(f"DAS2-fs{k}-2003-1" for k in range(5))
SDSC_LOG = "SDSC-SP2-1998-4.2-cln"
ANL_LOG = "ANL-Intrepid-2009-1"
CTC_LOG = "CTC-SP2-1996-3.1-cln"


LOADS = {"low": 0.5, "medium": 0.75, "high": 1.0}
SH_LEVELS = (0.0, 0.1, 0.2)
METHODS = {"BF": "best_fit", "FF": "fastest_first", "AI2": "ai2", "TLA": "tla"}

# Fig. 4 as reconstructed in docs/readings.md: A (9 processors, speed 2), B (9, speed 1); r1 on A
# (1 processor, ends 5), r2 on B (4 processors, estimated end 5, actual end 1).
SNAPSHOT_CLUSTERS = (Cluster("A", 9, 2.0), Cluster("B", 9, 1.0))
SNAPSHOT_RUNNING = (RunningJob("A", 1, 5.0), RunningJob("B", 4, 5.0))
SNAPSHOT_WAITING = (WaitingJob(3, -5.0, 10.0), WaitingJob(6, -4.0, 2.0),
                    WaitingJob(2, -2.0, 8.0), WaitingJob(7, -2.0, 2.0))  # fmt: skip
R2_ACTUAL_END = 1.0
TABLE1 = pd.DataFrame(  # printed scores: turnaround per job, allocating job 1 to A / B
    {"score A": ["10", "10", "11", "9"], "score B": ["15", "5", "6", "6"]},
    index=pd.Index([1, 2, 3, 4], name="job"),
)
TABLE1_AVERAGE = {"A": "10", "B": "8"}
FIG9_ATT = {"A": "7.75", "B": "8.25"}  # replay with r2's actual end t = 1

# Table 4 (improvement of TLA over the best of BF, FF, AI2, %): only the cells docs/readings.md
# can place with certainty in the scrambled text, keyed (workload, load, SH).
_T4_INTACT = {  # rows A1-B2: low x 3 SH, medium x 3 SH, high SH = 0
    "A1": (1, 1, 2, 45, 49, 45, 41), "A2": (-2, 4, 4, 75, 79, 74, 33),
    "B1": (48, 37, 45, 54, 71, 70, 32), "B2": (60, 66, 59, 48, 54, 43, 24),
}  # fmt: skip
_T4_HIGH_SH = {  # high load, SH = 0.1 and 0.2, A1 ... F2
    0.1: (35, 32, 47, 36, 26, 13, 33, 41, 31, 22, 40, 45),
    0.2: (34, 27, 43, 28, 24, 12, 31, 35, 27, 19, 38, 42),
}
_T4_C_TO_F = {  # C1 ... F2 at SH = 0: low and high load
    "low": (5, 1, 6, 4, 22, 1, -3, 19),
    "high": (28, 13, 34, 42, 30, 24, 48, 43),
}


def _table4() -> dict[tuple[str, str, float], int]:
    cells = {}
    for wid, values in _T4_INTACT.items():
        keys = [(lo, sh) for lo in ("low", "medium") for sh in SH_LEVELS] + [("high", 0.0)]
        cells.update({(wid, lo, sh): v for (lo, sh), v in zip(keys, values, strict=True)})
    wids = [w.wid for w in TABLE3]
    for sh, values in _T4_HIGH_SH.items():
        cells.update({(wid, "high", sh): v for wid, v in zip(wids, values, strict=True)})
    for load, values in _T4_C_TO_F.items():
        cells.update({(wid, load, 0.0): v for wid, v in zip(wids[4:], values, strict=True)})
    return cells


TABLE4 = _table4()
TABLE5 = pd.DataFrame(  # A2, SH = 0: average utilization
    {"AI2": ["0.50", "0.74", "0.79"], "BF": ["0.50", "0.74", "0.79"],
     "FF": ["0.50", "0.73", "0.78"], "TLA": ["0.50", "0.75", "0.83"]},
    index=pd.Index(list(LOADS), name="load"),
)  # fmt: skip
FIG10_ACTIVATIONS = ("23952", "1101")  # A1, high load: activations, decision changes


INACCURACY_FACTORS = (1, 1.25, 1.5, 1.75, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


CLAIMS = {
    # Section 3, Fig. 4 and Table 1: the worked example's decision
    "Fig. 4": (("TLA's choice for job 1", "B (ATT 8 against 10)"),),
    # Section 4.2, Table 4
    "Table 4": (
        ("where TLA loses", "only at low load with SH = 0 (A2 -2 %, F1 -3 %)"),
        ("load with the largest mean improvement", "medium (up to 87 %)"),
    ),
    # Section 4.2, Fig. 7 (the quantity says which runs, at each scale)
    "Fig. 7": (
        (
            "coefficient of variation over speed vectors",
            "TLA's is smaller than the other methods' in most configurations",
        ),
    ),
    # Section 5.1, Fig. 8
    "Fig. 8": (
        ("BF, FF, AI2 against the inaccuracy", "constant (they do not read estimates)"),
        ("TLA against the inaccuracy", "deteriorates as the factor grows"),
    ),
    # Section 5.2, Fig. 10
    "Fig. 10": (("ATT against simulation depth", "the higher the depth the better"),),
    # Section 5.3, Fig. 12
    "Fig. 12": (
        ("worst policy inside the simulation", "random fit"),
        ("depth matters more than policy", "the effect of depth exceeds that of the policy"),
    ),
    # Section 5.4, Fig. 13
    "Fig. 13": (("ATT against allocation depth", "the larger the allocation depth the worse"),),
}
"""The paper's text claims, per figure or table: (quantity, the paper's claim), named as
both scales name them (the quick rows of :mod:`.rows`, the paper-scale rows of
:mod:`.scale_rows`); :func:`~.rows.claim_rows` checks them."""
SECTION5_CLAIMS = {k: CLAIMS[k] for k in ("Fig. 8", "Fig. 10", "Fig. 12", "Fig. 13")}
"""Section 5's claims, per figure (a part of :data:`CLAIMS`)."""


def paper_claim(item: str, quantity: str) -> str:
    """The paper's claim on ``quantity`` of ``item`` (:data:`CLAIMS`)."""
    return dict(CLAIMS[item])[quantity]
