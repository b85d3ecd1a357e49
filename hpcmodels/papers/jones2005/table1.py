"""Table 1: the time per co-allocation decision of each module, measured here on
decision states drawn like Section 6's, A1 both as ours (O(m p)) and as the paper's
nested loops (O(p^m))."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ...bandwidth import SECTION6, Setup
from ...bandwidth.model import demand_kernel
from ...bandwidth.modules import A1, B1, B2, B3, B4, decide_many
from ...bounds import MAX_JOBS, MAX_REPLICATES, MAX_SEED
from ...errors import InvalidType, check_int
from .published import TABLE1

MODULE_CODES = {"A1": A1, "B1": B1, "B2": B2, "B3": B3, "B4": B4}


def decision_states(
    n: int = 20_000,
    setup: Setup = SECTION6,
    *,
    bsbw: float = 500.0,
    lslt: float = 1.0,
    seed: int = 0,
):
    """Co-allocation decision inputs like Section 6's: a job of UNIF[10, 50] nodes that
    fits no single cluster (free nodes per cluster uniform below its width) and link
    loads made of 0-3 co-allocated jobs of random splits, kept below the LSLT.

    ``n`` is a whole number in [1, 10**8] (:data:`hpcmodels.bounds.MAX_JOBS`: a state
    holds a few numbers per cluster, like a job) and ``seed`` one in [0, 2**63 - 1];
    ``setup`` a :class:`~hpcmodels.bandwidth.Setup`."""
    n = check_int("n", n, minimum=1, maximum=MAX_JOBS)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    if not isinstance(setup, Setup):
        raise InvalidType(f"setup must be a Setup, got {type(setup).__name__}")
    rng = np.random.default_rng(seed)
    m = setup.clusters
    ps = rng.integers(setup.min_nodes, setup.max_nodes + 1, n)
    frees = (rng.random((n, m)) * ps[:, None]).astype(np.int64)
    loads = np.zeros((n, m))
    for _ in range(3):
        width = rng.integers(setup.min_nodes, setup.max_nodes + 1, n)
        share = rng.integers(0, width[:, None] + 1, (n, m))
        d = np.array(
            [[demand_kernel(s, w, bsbw) for s in row] for row, w in zip(share, width, strict=True)]
        )
        use = rng.random(n) < 0.5
        loads[use] += d[use]
    loads = np.minimum(loads, lslt * setup.link_mbps * rng.random((n, m)))
    return frees, loads, ps


def decision_times(
    n: int = 20_000, setup: Setup = SECTION6, *, repeat: int = 3, seed: int = 0
) -> pd.DataFrame:
    """Table 1 measured here: mean time per co-allocation decision of each module (a
    numba loop over :func:`decision_states`, best of ``repeat``), and A1 by the paper's
    nested loops on the first 2,000 of the same states. ``n`` and ``seed`` as
    :func:`decision_states` takes them; ``repeat`` a whole number in [1, 10**6]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    n = check_int("n", n, minimum=1, maximum=MAX_JOBS)
    repeat = check_int("repeat", repeat, minimum=1, maximum=MAX_REPLICATES)
    frees, loads, ps = decision_states(n, setup, seed=seed)
    cap = np.full(setup.clusters, float(setup.link_mbps))
    out = TABLE1.copy()

    def best(code, brute):
        k = min(n, 2_000) if brute else n  # the paper's loops take ~0.3 ms a decision
        decide_many(code, frees[:10], loads[:10], cap, ps[:10], 500.0, 1.0, 0.8, brute)  # compile
        times, placed = [], 0
        for _ in range(repeat):
            t = time.perf_counter()
            placed = decide_many(code, frees[:k], loads[:k], cap, ps[:k], 500.0, 1.0, 0.8, brute)
            times.append(time.perf_counter() - t)
        return min(times) / k * 1e6, placed / k

    measured = [best(MODULE_CODES[mod], False) for mod in out["module"]]
    out["ours_us"] = [t for t, _ in measured]
    out["placed"] = [p for _, p in measured]
    out["paper_loops_us"] = [best(A1, True)[0] if mod == "A1" else np.nan for mod in out["module"]]
    out["ours_complexity"] = ["O(m p)", "O(m log m)", "O(m log m)", "O(m log m)", "O(p m)"]
    return out
