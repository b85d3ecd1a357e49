import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from hpcmodels import plots  # noqa: E402
from hpcmodels.workloads import swf_frame  # noqa: E402


def test_log_distributions_draws_sizes_and_runtimes(tmp_path):
    rng = np.random.default_rng(0)
    df = swf_frame(
        submit=np.arange(500.0),
        runtime=rng.lognormal(5, 2, 500),
        procs=2 ** rng.integers(0, 7, 500),
    )
    fig = plots.log_distributions(df, "synthetic")
    assert len(fig.axes) == 2
    assert all(len(ax.patches) > 0 for ax in fig.axes)
    path = plots.save(fig, "test_dist", tmp_path)
    assert path.exists() and path.stat().st_size > 1000
