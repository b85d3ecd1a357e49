"""Jones et al. 2005's published numbers and settings: the Section 6.3 baselines, the
co-allocation penalty ranges of Section 4.4, Table 1, and the set-ups of the figures
(the modules and chunks of Figs. 14-21, the BSBW x LSLT grid of Section 6.2, the cuts of
Figs. 22-27; Figs. 9-11's BSBW sweeps are ours, the paper prints none)."""

from __future__ import annotations

import pandas as pd

BASELINES = {"migration_only": "1087", "ideal": "735"}  # Section 6.3 (seconds)
# Section 4.4: the acceptable co-allocation penalty, against Migration Only / No Share
PENALTY_RANGES = {
    ("migration_only", 2): (1.2, 1.25),
    ("migration_only", 8): (1.13, 1.2),
    ("no_share", 2): (1.35, 1.4),
    ("no_share", 8): (1.25, 1.35),
}
TABLE1 = pd.DataFrame(
    {
        "module": ["A1", "B1", "B2", "B3", "B4"],
        "complexity": ["O(n p^m)", "O(m log m + n)", "O(m log m + n)", "O(m log m + n)", "O(p)"],
        "paper_us": [69.6, 0.98, 0.89, 1.28, 1.10],
    }
)
CHUNKS = (0.7, 0.8, 0.85, 0.9)
# Figs. 14-21, in the paper's order: label -> (strategy, chunk)
SURFACES = {
    "A1": ("a1", 0.8),
    "B1": ("b1", 0.8),
    "B2": ("b2", 0.8),
    "B4": ("b4", 0.8),
    **{f"B3 ({round(c * 100)}%)": ("b3", c) for c in CHUNKS},
}
BSBWS = tuple(float(b) for b in range(200, 901, 50))  # Section 6.2: 200-900 Mbps
LSLTS = tuple(x / 100 for x in range(40, 121, 10))  # 40-120 %
LOW_BSBW, HIGH_BSBW = 300.0, 800.0  # Figs. 24-27: "around 300 and 800 Mbps"
# "B3 outperforms A1 in a variety of circumstances" read as: at >= a quarter of the
# (BSBW, LSLT) points some B3 chunk is better (one threshold for both scales)
VARIETY = 0.25
# Figs. 9-11: BSBW sweeps from free co-allocation to past No Share (ours; not printed)
PENALTY_BSBWS = {
    2: tuple(float(b) for b in range(800, 2001, 100)),
    4: tuple(float(b) for b in range(300, 1101, 50)),
    8: tuple(float(b) for b in range(200, 701, 50)),
}
