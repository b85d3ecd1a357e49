"""Benchmark of the He 2006 queueing models (``hpcmodels.queueing``) on this machine.

Measures, and prints as one table:

* ORT and OMR solve times (``ort_allocation``, ``omr_allocation`` with slack U(0, 30))
  for the 4-cluster system of He 2006 Table 2 and a seeded random 256-cluster system;
* the dispatch simulator (weighted random dispatch of a Poisson stream, workload 0.5,
  ORT fractions) against the same model written with ``ciw`` (one M/M/m_i node per
  cluster fed at rate ``alpha_i lambda``), with both simulated mean response times next
  to the analytic one.

Timings are medians of repeated ``time.perf_counter`` runs after one warm-up call, so
numba JIT compilation is excluded. ciw (pure Python) is run once. Each simulator timing
covers building the model, simulating and computing the trimmed mean response time.

Run with ``python benchmarks/bench_queueing.py`` (``make bench``): the paper's 500,000
jobs (100,000 warm-up and cool-down), ciw taking about 20 s here. ``--quick`` uses 50,000
jobs (10,000 warm-up and cool-down) for a fast smoke test.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import ciw
import numba
import numpy as np
import pandas as pd

from hpcmodels.queueing import mean_response_time_of, omr_allocation, ort_allocation
from hpcmodels.queueing.dispatch import simulate_dispatch
from hpcmodels.queueing.system import MEAN_JOB_SIZE, MultiCluster, Stream

from timing import median_time

WORKLOAD = 0.5  # He 2006 Table 2 system at half load
SLACK = (0.0, 30.0)


def he_system() -> tuple[np.ndarray, np.ndarray, float]:
    """He 2006 Table 2: 4 clusters, speeds (20, 16, 12, 8), workload 0.5."""
    nodes = np.array([3, 5, 7, 9])
    rates = np.array([20.0, 16.0, 12.0, 8.0]) / MEAN_JOB_SIZE
    return nodes, rates, WORKLOAD * float(nodes @ rates)


def random_system(n: int = 256, workload: float = 0.7, seed: int = 0):
    """``n`` clusters with 1..64 nodes and speeds U(1, 20), seeded."""
    rng = np.random.default_rng(seed)
    nodes = rng.integers(1, 65, n)
    rates = rng.uniform(1.0, 20.0, n) / MEAN_JOB_SIZE
    return nodes, rates, workload * float(nodes @ rates)


def ciw_mean_response(
    nodes: tuple[int, ...],
    rates: np.ndarray,
    lam: float,
    fractions: np.ndarray,
    n_jobs: int,
    warmup: int,
    cooldown: int,
    seed: int = 0,
) -> float:
    """The same model in ciw: independent M/M/m_i nodes fed at ``alpha_i lambda``.

    Runs until ``n_jobs`` customers have arrived and averages the response time of the
    customers ``warmup + 1 .. n_jobs - cooldown`` by arrival order (ciw numbers its
    customers 1, 2, ... as they arrive).
    """
    ciw.seed(seed)
    network = ciw.create_network(
        arrival_distributions=[
            ciw.dists.Exponential(a * lam) if a > 0 else None for a in fractions
        ],
        service_distributions=[ciw.dists.Exponential(float(u)) for u in rates],
        number_of_servers=list(nodes),
        routing=[[0.0] * len(nodes) for _ in nodes],
    )
    sim = ciw.Simulation(network)
    sim.simulate_until_max_customers(n_jobs, method="Arrive")
    resp = [
        r.exit_date - r.arrival_date
        for r in sim.get_all_records()
        if warmup < r.id_number <= n_jobs - cooldown
    ]
    if len(resp) != n_jobs - warmup - cooldown:
        raise RuntimeError(f"ciw completed {len(resp)} of the measured customers")
    return float(np.mean(resp))


def solver_rows(repeat: int) -> list[dict[str, str]]:
    rows = []
    for label, system, target in (("4", he_system(), 1e-3), ("256", random_system(), 0.1)):
        for name, solve in (
            ("ORT", lambda s=system: ort_allocation(*s)),
            ("OMR", lambda s=system: omr_allocation(*s, slack=SLACK)),
        ):
            t, _ = median_time(solve, repeat)
            rows.append(
                dict(
                    case=f"{name} solve, {label} clusters",
                    hpcmodels=f"{t * 1e3:.3f} ms",
                    peer="-",
                    ratio="-",
                    target=f"< {target * 1e3:g} ms",
                    met="yes" if t < target else "NO",
                )
            )
    return rows


def simulator_rows(n_jobs: int, warmup: int, cooldown: int, repeat: int) -> list[dict[str, str]]:
    system = MultiCluster((3, 5, 7, 9), (20, 16, 12, 8))
    lam = system.arrival_rate(WORKLOAD)
    stream = Stream(arrival_rate=lam)
    fractions = ort_allocation(system.nodes, system.rates, lam)
    window = dict(n_jobs=n_jobs, warmup=warmup, cooldown=cooldown)

    ours_t, ours = median_time(
        lambda: simulate_dispatch(system, fractions, "random", stream, seed=0, **window), repeat
    )
    t0 = time.perf_counter()
    peer = ciw_mean_response(system.nodes, system.rates, lam, fractions, **window)
    peer_t = time.perf_counter() - t0
    analytic = mean_response_time_of(system.nodes, system.rates, lam, fractions)
    print(f"ciw simulation of {n_jobs:,} customers took {peer_t:.1f} s")
    return [
        dict(
            case=f"dispatch sim, {n_jobs:,} jobs",
            hpcmodels=f"{ours_t * 1e3:.1f} ms",
            peer=f"{peer_t:.1f} s",
            ratio=f"{peer_t / ours_t:.0f}x",
            target=">= 50x",
            met="yes" if peer_t / ours_t >= 50 else "NO",
        ),
        dict(
            case="  mean response (s)",
            hpcmodels=f"{ours.mean_response:.4f}",
            peer=f"{peer:.4f}",
            ratio=f"{peer / ours.mean_response:.4f}",
            target=f"analytic {analytic:.4f}",
            met="-",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50,000 jobs instead of 500,000")
    args = parser.parse_args()
    window = (50_000, 10_000, 10_000) if args.quick else (500_000, 100_000, 100_000)

    print(
        f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
        f" | numba {numba.__version__} | ciw {ciw.__version__} | {os.cpu_count()} CPUs"
    )
    rows = solver_rows(repeat=50) + simulator_rows(*window, repeat=5)
    print(pd.DataFrame(rows).to_string(index=False))
    print(
        "Times: median after a warm-up call (numba JIT compile excluded); ciw run once. "
        "peer = ciw; ratio = peer / hpcmodels."
    )


if __name__ == "__main__":
    main()
