"""Adding a selection policy costs its module and the table, as docs/architecture.md says.

The test copies the package, writes a new policy module ``one_at_a_time`` (start at most
one job per scheduling session, from the head of the queue), registers it in the
selection table (an import, its name and queue row, one dispatch line) and runs it in a
fresh interpreter: no other file of the engine changes. Its schedule is worked out by
hand: three jobs that all fit at once start one per event (FCFS starts them together).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

POLICY = '''"""A trivial selection policy: at most one job per session, from the head."""

import numba

from ..events import start_job
from ..placement import NO_PLACE, place
from ..rates import apply_rates
from .greedy import head


@numba.njit(cache=True)
def one_at_a_time(state, t, rate_code, params, everywhere):
    r = head(state)
    if r >= 0:
        j = state.at_rank[r]
        c = place(state, j, t, everywhere)
        if c != NO_PLACE:
            start_job(state, j, c, t)
            apply_rates(state, t, rate_code, params)
'''

RUN = """
import json
import pandas as pd
from hpcmodels.multicluster import Cluster, simulate

jobs = pd.DataFrame({"submit": [0.0, 0.0, 0.0, 1.0], "runtime": [5.0, 5.0, 5.0, 2.0],
                     "procs": [2, 2, 2, 1]})
out = {}
for selection in ("one_at_a_time", "fcfs"):
    res = simulate(jobs, [Cluster("A", 8)], selection, "first_fit", debug=True)
    out[selection] = res.jobs["start"].tolist()
print(json.dumps(out))
"""


def _register(table: Path) -> None:
    """Edit the selection table as docs/architecture.md says."""
    text = table.read_text()
    edits = [
        (
            "from .greedy import fcfs, one_pass\n",
            "from .greedy import fcfs, one_pass\nfrom .one_at_a_time import one_at_a_time\n",
        ),
        ('    "first_available_once",\n)', '    "first_available_once",\n    "one_at_a_time",\n)'),
        (
            "QUEUE_KEEPS = (0, 0, 0, 0, KEEP_ESTIMATES | KEEP_RESERVATIONS, KEEP_ESTIMATES, 0)",
            "QUEUE_KEEPS = (0, 0, 0, 0, KEEP_ESTIMATES | KEEP_RESERVATIONS, KEEP_ESTIMATES, 0, 0)",
        ),
        (
            "    else:\n        one_pass(",
            "    elif sel == len(SELECTIONS) - 1:  # one_at_a_time\n"
            "        one_at_a_time(state, t, rate_code, params, everywhere)\n"
            "    else:\n        one_pass(",
        ),
    ]
    for old, new in edits:
        assert text.count(old) == 1, f"the selection table no longer reads {old!r}"
        text = text.replace(old, new)
    table.write_text(text)


def test_a_new_selection_policy_touches_its_module_and_the_table(tmp_path):
    shutil.copytree(
        ROOT / "hpcmodels", tmp_path / "hpcmodels", ignore=shutil.ignore_patterns("__pycache__")
    )
    before = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.py")}
    (tmp_path / "hpcmodels/multicluster/selection/one_at_a_time.py").write_text(POLICY)
    _register(tmp_path / "hpcmodels/multicluster/selection/__init__.py")
    after = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.py")}
    touched = sorted(str(p) for p in after if before.get(p) != after[p])
    assert touched == [
        "hpcmodels/multicluster/selection/__init__.py",
        "hpcmodels/multicluster/selection/one_at_a_time.py",
    ]
    # A fresh cache, so the copy's kernels compile from its own sources; without LLVM's
    # optimisation (NUMBA_OPT=0: the schedule is the same, the compile about 45 % shorter,
    # docs/performance.md), since this checks what the policy does, not how fast.
    env = dict(
        os.environ,
        PYTHONPATH=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        NUMBA_OPT="0",
    )
    done = subprocess.run(
        [sys.executable, "-c", RUN],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    starts = json.loads(done.stdout.strip().splitlines()[-1])
    # one start per session: 0; the next event is the arrival at 1 (job 1 starts), then
    # job 0's end at 5 (job 2), then job 1's end at 6 (job 3)
    assert starts["one_at_a_time"] == [0.0, 1.0, 5.0, 6.0]
    assert starts["fcfs"] == [0.0, 0.0, 0.0, 1.0]
