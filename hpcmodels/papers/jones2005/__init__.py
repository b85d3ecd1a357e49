"""Jones, Pang, Stanzione, Ligon 2005 (:data:`CITATION`): the published numbers and
claims, and the functions that rebuild every table and figure with
:mod:`hpcmodels.bandwidth`. The readings of the paper's ambiguous passages are in
``docs/readings.md`` (section "Jones et al. 2005").

The paper's figures are plots whose values are not in the text; what it prints is
checked directly: the Section 6 baselines (Migration Only 1087 s, Ideal 735 s), the
co-allocation penalty ranges of Section 4.4, Table 1's decision times, and the claims of
Sections 4.4 and 6.3 (checks on our runs).

Experiments:

* Figs. 9-11 (Section 4.3 set-up, 2, 4 and 8 clusters): First-Fit co-allocation under
  the bandwidth-centric model over a BSBW sweep, each point's measured mean penalty fed
  to the fixed-penalty model; No Share, Migration Only and Ideal as limits. The paper's
  BSBW ranges are not printed ("chosen to show the behaviour as it approaches No
  Share"): ours run from where co-allocation is free to past the No Share level. The
  penalty ranges of Section 4.4 are read as the break-even penalties: the penalty at
  which co-allocating (dynamic, then fixed model) stops beating Migration Only (No
  Share), found by bisection on BSBW (dynamic) or on the penalty (fixed).
* Fig. 13 and Figs. 14-27 (Section 6.1 set-up): every module over BSBW 200-900 Mbps x
  LSLT 40-120 %, B3 at chunks 70, 80, 85, 90 %; Figs. 22-27 are cuts of the same data
  at LSLT 100 % and BSBW 300 / 800.
* Table 1: time per co-allocation decision, measured here on decision states drawn like
  Section 6's (:func:`decision_times`), A1 both as ours (O(m p)) and as the paper's
  loops (O(p^m)).

The package goes from the published data (:mod:`.published`) to build functions
returning frames (:mod:`.section4`: Figs. 9-11 and the break-even penalties;
:mod:`.section6`: the baselines, Fig. 13, Figs. 14-27; :mod:`.table1`) and from those
frames to report rows (:mod:`.rows`); paper scale is :mod:`.ensemble` (Section 6) and
:mod:`.section4_scale` (Section 4, read by :mod:`.ensemble`). Every builder's
runs are points of :func:`hpcmodels.sweep.sweep` (:mod:`.points`:
:func:`strategy_point`; :func:`penalty_point`, :func:`break_even_point`): on Dask
(``client=``), kept in a folder (``cache=``); a worker draws each workload once
(:func:`hpcmodels.bandwidth.workload` is cached). A failed point is an error naming it.
"""

from __future__ import annotations

from .ensemble import (
    BASELINE_REPLICATES,
    CLAIM_LSLT,
    CLAIM_REPLICATES,
    LINK_OVER_LSLT,
    READINGS,
    SURFACE_REPLICATES,
    baseline_means,
    ensemble_cost,
    ensemble_key,
    ensemble_point,
    ensemble_points,
    ensemble_rows,
    surface_means,
    surface_runs,
)
from .points import RUN_RESULTS, strategy_point
from .published import (
    BASELINES,
    BSBWS,
    CHUNKS,
    HIGH_BSBW,
    LOW_BSBW,
    LSLTS,
    PENALTY_BSBWS,
    PENALTY_RANGES,
    SURFACES,
    TABLE1,
    VARIETY,
)
from .rows import (
    baseline_rows,
    break_even_rows,
    section4_claims,
    section6_claims,
    table1_rows,
)
from .section4 import (
    break_even,
    break_even_point,
    limits,
    penalty_curves,
    penalty_point,
)
from .section4_scale import (
    BREAK_EVEN_SEEDS,
    SECTION4_CLUSTERS,
    SECTION4_REPLICATES,
    SECTION4_SEEDS,
    section4_frames,
    section4_means,
    section4_seeds_text,
)
from .section6 import baselines, cuts, fig13, fig13_limits, fig13_lines, surface_grid
from .table1 import MODULE_CODES, decision_states, decision_times

PAPER = "jones2005"
TITLE = "Jones et al.: bandwidth-aware co-allocating meta-schedulers"
CITATION = (
    "W. M. Jones, L. W. Pang, D. Stanzione, W. B. Ligon III. Characterization of "
    "bandwidth-aware meta-schedulers for co-allocating jobs across multiple clusters (2005)."
)

__all__ = [
    "BASELINES",
    "BASELINE_REPLICATES",
    "BSBWS",
    "CHUNKS",
    "CITATION",
    "HIGH_BSBW",
    "LINK_OVER_LSLT",
    "LOW_BSBW",
    "LSLTS",
    "MODULE_CODES",
    "PAPER",
    "PENALTY_BSBWS",
    "PENALTY_RANGES",
    "READINGS",
    "RUN_RESULTS",
    "SECTION4_CLUSTERS",
    "BREAK_EVEN_SEEDS",
    "SECTION4_REPLICATES",
    "SECTION4_SEEDS",
    "section4_seeds_text",
    "SURFACES",
    "CLAIM_LSLT",
    "CLAIM_REPLICATES",
    "SURFACE_REPLICATES",
    "TABLE1",
    "TITLE",
    "VARIETY",
    "baseline_means",
    "baseline_rows",
    "baselines",
    "break_even",
    "break_even_point",
    "break_even_rows",
    "cuts",
    "decision_states",
    "decision_times",
    "ensemble_cost",
    "ensemble_key",
    "ensemble_point",
    "ensemble_points",
    "ensemble_rows",
    "fig13",
    "fig13_limits",
    "fig13_lines",
    "limits",
    "penalty_curves",
    "penalty_point",
    "section4_claims",
    "section4_frames",
    "section4_means",
    "section6_claims",
    "strategy_point",
    "surface_grid",
    "surface_means",
    "surface_runs",
    "table1_rows",
]
