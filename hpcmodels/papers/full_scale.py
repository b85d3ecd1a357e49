"""The papers' own experiment sizes, as notebook parameters: what
``python -m hpcmodels reproduce --full`` passes to each notebook (on top of its quick
defaults). Each entry cites where the paper states its size; a notebook whose quick
defaults already are the paper's scale has an empty entry.
"""

from __future__ import annotations

__all__ = ["FULL_SCALE"]

FULL_SCALE: dict[str, dict] = {
    # Shih 2013, Section 4.1 and Table 3: every workload whole, ten speed vectors per
    # SH level (Table 4's 108 configurations x 10 vectors x 4 methods)
    "shih2013": {
        "n_jobs": {w: None for w in ("A1", "A2", "B1", "B2", "C1", "C2")}
        | {w: 50_000 for w in ("D1", "D2", "E1", "E2", "F1", "F2")},
        "n_vectors": 10,
    },
    # Huang & Chang 2006: the quick defaults are the paper's whole log and grid
    "huang2006": {},
    # He 2006, Section 5.1: 500,000 jobs per stream (first and last 100,000 not
    # measured), five runs per point
    "he2006": {"n_jobs": 500_000, "seeds": 5},
    # Jones 2005: 400,000 jobs per cluster (Section 6.1), 4,000,000 (Section 4.3), BSBW
    # 200-900 Mbps in 50 Mbps steps and LSLT 40-120 % in 10 % steps (Figs. 14-21)
    "jones2005": {
        "section6_jobs": 400_000,
        "section4_jobs": 4_000_000,
        "baseline_jobs": 400_000,
        "bsbws": list(range(200, 901, 50)),
        "lslts": [round(0.4 + 0.1 * k, 1) for k in range(9)],
    },
    # Filippopoulos & Karatza, Section 6: 2,000,000 completions per run; 60 runs per point
    "filippopoulos": {"completions": 2_000_000, "replications": 60},
    # notebook 06 (no paper): the whole SDSC SP2 log (54,034 jobs) and 50,000-job Lublin99
    # streams, as its store (more jobs than either holds: all of them)
    "across": {"n_jobs": 100_000},
}
