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
CLAIMS = {  # key: (item, quantity, the paper's words); one wording for the quick and the paper-scale rows
    "penalty trend": ("Section 4.4", "break-even penalty falls as clusters grow",
                      "2 -> 8 clusters: lower penalty tolerated"),
    "dynamic vs fixed": ("Section 4.4", "dynamic vs fixed penalty model (same mean penalty)",
                         "dynamic not nearly as generous: higher ATT"),
    "migration gain": ("Section 4.4", "Migration Only's gain over No Share vs clusters",
                       "grows with the number of clusters"),
    "first-fit vs mo": ("Section 4.4", "First-Fit vs Migration Only",
                        "First-Fit becomes worse than Migration Only as BSBW grows"),
    "a1 within lslt": ("Section 6.3", "A1 never saturates a link beyond the LSLT",
                       "never beyond the threshold"),
    "b3 variety": ("Section 6.3", "B3 outperforms A1 in a variety of circumstances",
                   "B3 better than A1 at many settings"),
    "b3 at 100": ("Section 6.3", "at LSLT 100 % the B3 algorithms beat A1",
                  "even at 100 %, B3 better than A1"),
    "b3 to mo": ("Section 6.3", "B3 tends to Migration Only as the chunk grows",
                 "closer to Migration Only at 90 % than at 70 %"),
    "b3 to b1": ("Section 6.3", "B3 tends to B1 as the chunk shrinks",
                 "closer to B1 at 70 % than at 90 %"),
    "b4 worst": ("Section 6.3", "B4 (load balancing) performs worst", "worst overall"),
    "b3 stable": ("Section 6.3", "B3 is the most stable class B module over BSBW",
                  "B3 most stable with respect to BSBW"),
    "fig13 beaten": ("Fig. 13", "A1 and B1 outperform First-Fit", "over the entire range of BSBW"),
    "fig13 vs mo": ("Fig. 13", "First-Fit vs Migration Only",
                    "quickly becomes less effective than migration"),
}  # fmt: skip
"""Sections 4.4 and 6.3's and Fig. 13's statements (Section 4.4's per-cluster rows add
"(m clusters)" to the item)."""
TENDENCIES = {  # Section 6.3: key of CLAIMS -> (what B3 tends to, the B3 said closer, the one said farther)
    "b3 to mo": ("MO", -1, 0),
    "b3 to b1": ("B1", 0, -1),
}
""""B3 tends to X as the chunk grows / shrinks", one form: the B3 columns by chunk
(0: 70 %, -1: 90 %), X Migration Only ("MO") or a module; it holds when the mean
distance |B3 - X| over the grid is smaller for the B3 said closer."""
