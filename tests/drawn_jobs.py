"""Shared by the engine's property tests: a drawn workload as the engine takes it."""

import numpy as np
import pandas as pd

from hpcmodels.multicluster import Cluster


def jobs_frame(rows) -> pd.DataFrame:
    """Jobs from drawn tuples ``(submit, runtime, procs, ...)``: submit and runtime as
    floats, procs as int64 (further fields are the caller's)."""
    return pd.DataFrame(
        {
            "submit": [float(r[0]) for r in rows],
            "runtime": [float(r[1]) for r in rows],
            "procs": np.array([r[2] for r in rows], np.int64),
        }
    )


def clusters_of(spec) -> list[Cluster]:
    """Clusters ``c0, c1, ...`` from ``[(processors, speed), ...]``."""
    return [Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(spec)]
