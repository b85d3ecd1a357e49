"""Benchmark of ``hpcmodels.workloads`` on this machine: reading logs, generating models.

Prints one table: the time to read the SDSC SP2 log (59,715 jobs) and the five DAS2
logs merged (432,987 jobs; when they are absent, the RICC log of 447,794 jobs stands in
and the row says so), and the time to generate 50,000 jobs with each synthetic model
(Jann97 with parameters fitted to the CTC SP2 log, or, when that log is absent, to the
SDSC SP2 log as a stand-in for timing only). Logs come from ``$HPCMODELS_DATA``.

Run: ``python benchmarks/bench_workloads.py`` (``make bench``; ``--quick`` is accepted
and changes nothing: the whole script takes seconds). Times are medians of repeated
runs after one warm-up call (numba compilation excluded).
"""

from __future__ import annotations

import argparse
import os
import platform

import numba
import numpy as np
import pandas as pd

from hpcmodels.workloads.archive import is_available, load_archive_log
from hpcmodels.workloads.transforms import merge_logs

from timing import median_time

DAS2 = [f"DAS2-fs{k}-2003-1" for k in range(5)]


def read_rows() -> list[dict]:
    rows = []
    if is_available("SDSC-SP2-1998-4.2-cln"):
        t, df = median_time(lambda: load_archive_log("SDSC-SP2-1998-4.2-cln", download=False))
        rows.append(dict(case="read SDSC-SP2-1998-4.2-cln", jobs=len(df), seconds=t, note=""))
    else:
        rows.append(dict(case="read SDSC-SP2-1998-4.2-cln", jobs=0, seconds=np.nan,
                         note="log not available"))  # fmt: skip
    if all(is_available(n) for n in DAS2):
        t, df = median_time(lambda: merge_logs([load_archive_log(n) for n in DAS2]))
        rows.append(dict(case="read + merge DAS2 fs0-fs4", jobs=len(df), seconds=t, note=""))
    elif is_available("RICC-2010-2"):
        t, df = median_time(lambda: load_archive_log("RICC-2010-2", download=False))
        rows.append(dict(case="read RICC-2010-2", jobs=len(df), seconds=t,
                         note="stand-in: the DAS2 logs are not available"))  # fmt: skip
    return rows


def model_rows(n_jobs: int = 50_000) -> list[dict]:
    from hpcmodels.workloads.models.feitelson96 import feitelson96
    from hpcmodels.workloads.models.jann97 import fit_jann97, jann97
    from hpcmodels.workloads.models.lublin99 import lublin99

    rows = []
    for label, fn in [
        ("lublin99 (numpy generator)", lambda: lublin99(n_jobs, 128, 1)),
        ("lublin99 (drand48, bit-exact)", lambda: lublin99(n_jobs, 128, 1, generator="drand48")),
        ("feitelson96 (reconstruction)", lambda: feitelson96(n_jobs, 128, 1)),
    ]:
        t, _ = median_time(fn)
        rows.append(dict(case=f"generate {label}", jobs=n_jobs, seconds=t, note=""))
    source = next((n for n in ("CTC-SP2-1996-3.1-cln", "SDSC-SP2-1998-4.2-cln") if is_available(n)),
                  None)  # fmt: skip
    if source is None:
        rows.append(dict(case="generate jann97", jobs=0, seconds=np.nan,
                         note="no log to fit parameters to"))  # fmt: skip
        return rows
    log = load_archive_log(source, download=False)
    # the CTC fit uses the paper's period; the stand-in uses the whole log
    params = fit_jann97(log) if source.startswith("CTC") else fit_jann97(log, period=None)
    t, _ = median_time(lambda: jann97(n_jobs, 322, 1, params=params))
    note = "" if source.startswith("CTC") else "parameters fitted to SDSC SP2: timing only"
    rows.append(dict(case="generate jann97", jobs=n_jobs, seconds=t, note=note))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="accepted; the sizes are already small"
    )
    parser.parse_args()
    print(f"{platform.platform()} | numpy {np.__version__} | numba {numba.__version__} | "
          f"{os.cpu_count()} CPUs | HPCMODELS_DATA={os.environ.get('HPCMODELS_DATA', '')}\n")  # fmt: skip
    table = pd.DataFrame(read_rows() + model_rows())
    table["jobs/s"] = (table["jobs"] / table["seconds"]).round(0)
    table["seconds"] = table["seconds"].round(3)
    print(table.to_string(index=False))
    print("Times: median of 3 runs after a warm-up call (numba JIT compile excluded).")


if __name__ == "__main__":
    main()
