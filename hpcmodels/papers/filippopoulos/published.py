"""Filippopoulos & Karatza's published data: the experiments' settings (Sections 5-6),
the policy tables of Figs. 2-4, the numbers printed in the text (Sections 4 and 6), the
statements quoted from Sections 5-6 and the parameter points of Figs. 5-9."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...errors import check_int, check_real

EXPERIMENT_1 = dict(rho1=0.8, rho2=0.8, p=0.6, mu3=0.7)
EXPERIMENT_2 = dict(rho1=0.9, rho2=0.9, p=0.8, mu3=0.8)


def _rows(*counts: int, width: int) -> np.ndarray:
    """A 0/1 table from the number of leading ones in each row (the paper's tables are
    all of this form: co-allocate for q2 below a threshold)."""
    return np.array([[1] * k + [0] * (width - k) for k in counts], dtype=int)


# Fig. 2: x1 = 1, q1 = 1..15 (rows), q2 = 0..15 (columns)
FIG2 = _rows(1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 6, 6, width=16)
# Fig. 3: x1 = 0, q1 = 1..6, q2 = 0..6
FIG3 = _rows(0, 0, 0, 1, 1, 1, width=7)
# Fig. 4: x1 = 1, q1 = 1..6, q2 = 0..10
FIG4 = _rows(1, 3, 5, 10, 10, 10, width=11)
PAPER_TABLES = {  # figure: (experiment, x1, table)
    "Fig. 2": (EXPERIMENT_1, 1, FIG2),
    "Fig. 3": (EXPERIMENT_2, 0, FIG3),
    "Fig. 4": (EXPERIMENT_2, 1, FIG4),
}
PAPER_COSTS = dict(c1=2.0, c2=1.0)  # Figs. 2-4's costs (Section 5)


def published_policy(rho1: float, rho2: float, p: float, mu3: float, c1: float, c2: float,
                     x1: int) -> tuple[str, np.ndarray] | None:  # fmt: skip
    """The policy table the paper prints at this setting, as ``(figure, table)`` (rows
    q1 = 1.., columns q2 = 0..), or ``None`` where it prints none: Figs. 2-4 are the
    optimal policies of its two experiments at costs c1 = 2, c2 = 1 (solved at
    Delta = 30), Fig. 2 for x1 = 1 in the first, Figs. 3 and 4 for x1 = 0 and 1 in the
    second."""
    setting = {k: check_real(k, v) for k, v in
               dict(rho1=rho1, rho2=rho2, p=p, mu3=mu3, c1=c1, c2=c2).items()}  # fmt: skip
    x1 = check_int("x1", x1, minimum=0)
    for figure, (experiment, x, table) in PAPER_TABLES.items():
        wanted = {**experiment, **PAPER_COSTS}
        if x == x1 and all(abs(setting[k] - v) <= 1e-9 for k, v in wanted.items()):
            return figure, table
    return None


BEYOND_WINDOW = {  # each table's sentence on the states past its last row and column
    "Fig. 2": "It remains the same for states 16 <= q1, q2 <= 30.",
    "Fig. 3": "It remains the same for values 6 < q1, q2 <= 30.",
    "Fig. 4": "It does not change for 6 < q1 <= Delta, 10 < q2 <= Delta.",
}
PAPER_STATES = "11346"  # Section 4: "We choose Delta = 30 which yields 11346 states."
PAPER_ITERATIONS = "1100"  # Section 4: "approximately 1100 iterations to converge"
PAPER_THETA = "0.4"  # Section 6, Fig. 8: "The value of theta = 0.4 seems to be ..."
FIG8_QUOTES = {  # Section 6 on Fig. 8
    "beneficial": "It is obvious that co-allocation is beneficial for mu3 >= 0.4.",
    "very well": "Our heuristic policy performs very well when mu3 >= 0.5.",
    "fails": "However, it fails to detect the fact at service rates mu3 < 0.4, jobs need not "
    "be co-allocated.",
}
LOADS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9)
EQUAL_COST_LOADS = (0.5, 0.6, 0.7, 0.8, 0.83)
MU3S = (0.4, 0.5, 0.6, 0.7, 0.8)
PS = (0.2, 0.4, 0.6, 0.8)


_OPS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


@dataclass(frozen=True)
class Statement:
    """One of Section 6's statements on Figs. 5-9 as data.

    ``item`` and ``quantity`` name its report row (the quick row and the paper-scale row
    alike); ``form`` is how it is checked: ``"close"`` (policy ``a``'s cost is close to
    ``b``'s: :func:`~hpcmodels.papers.verdicts.alike`), ``"beats"`` (``a`` costs less than
    ``b``; with ``apart``, the heuristic must also not be close to the optimum there), or
    the name of a check of its own (``"grows"``, ``"balanced"``); ``where`` the figure's
    points it speaks of, ``(operator, value)`` on the figure's x (``None``: every
    point); ``quote`` the paper's sentence where the row quotes it; ``shown`` what the
    quick row lists per point: ``"gap"`` (heuristic - optimal) or ``"verdict"``."""

    item: str
    quantity: str
    form: str
    a: str = "heuristic"
    b: str = "optimal"
    where: tuple[str, float] | None = None
    apart: bool = False
    quote: str = ""
    shown: str = "gap"

    def at(self, xs) -> np.ndarray:
        """Which of the figure's points ``xs`` the statement speaks of."""
        xs = np.asarray(xs, dtype=float)
        if self.where is None:
            return np.ones(len(xs), dtype=bool)
        op, value = self.where
        return _OPS[op](xs, value)


STATEMENTS = {  # Section 6 on Figs. 5-9 (its text; the quantity says how we read it)
    "fig5 close": Statement("Fig. 5", "the heuristic is close to optimal (within 5 %) at loads <= 0.8",
                            "close", where=("<=", 0.8), shown="verdict"),
    "fig5 behind": Statement("Fig. 5", "the heuristic falls behind the optimum at loads > 0.85",
                             "beats", "optimal", "heuristic", (">", 0.85), apart=True),
    "fig5 beats local": Statement("Fig. 5", "the heuristic beats the local policy at every load",
                                  "beats", "heuristic", "local"),
    "fig6 grows": Statement("Fig. 6", "the reduction of optimal over local grows with the load",
                            "grows", "optimal", "local"),
    "fig7 close": Statement("Fig. 7", "with equal costs the heuristic stays close to optimal",
                            "close"),
    "fig8 beneficial": Statement("Fig. 8", "co-allocation is beneficial above mu3 = 0.4 (at Fig. "
                                 "8's points 0.5-0.8 the optimum co-allocates and costs less than "
                                 "the local policy)", "beats", "optimal", "local", (">", 0.4),
                                 quote=FIG8_QUOTES["beneficial"]),
    "fig8 very well": Statement("Fig. 8", "the heuristic performs very well when mu3 >= 0.5 (read "
                                "at its weakest: it costs less than the local policy)", "beats",
                                "heuristic", "local", (">=", 0.5), quote=FIG8_QUOTES["very well"]),
    "fig8 close": Statement("Fig. 8", "the heuristic is close to optimal for mu3 >= 0.6", "close",
                            where=(">=", 0.6)),
    "fig8 fails": Statement("Fig. 8", "at mu3 = 0.4 the heuristic fails to detect that jobs need "
                            "not be co-allocated (it costs more than the local policy = the "
                            "optimum)", "beats", "local", "heuristic", ("<=", 0.4), apart=True,
                            quote=FIG8_QUOTES["fails"]),
    "fig9 close": Statement("Fig. 9", "the heuristic is close to optimal for every p", "close"),
    "fig9 balanced": Statement("Fig. 9", "costs are higher when the two job types are balanced",
                               "balanced", "optimal", "optimal"),
}  # fmt: skip
"""The simulated statements, checked on the quick runs (:mod:`.claims`) and on the
paper-scale store (:func:`~.ensemble.ensemble_rows`) under one wording."""
SIM_CLAIMS = {key: (s.item, s.quantity) for key, s in STATEMENTS.items()}
"""Each statement's report row: (item, quantity)."""

ENSEMBLE_COMPLETIONS = 2_000_000  # Section 6: "2.000.000 jobs completions were simulated"
ENSEMBLE_REPLICATES = 60  # "a 95% confidence interval was computed by 60 independent replications"
SIM_FIGURES = {  # figure: (the varied parameter, its points), Section 6
    "Fig. 5": ("rho", [{"rho": r} for r in LOADS]),
    "Fig. 7": ("rho", [{"rho": r, "c1": 1.0, "c2": 1.0} for r in EQUAL_COST_LOADS]),
    "Fig. 8": ("mu3", [{"rho": 0.8, "mu3": m} for m in MU3S]),
    "Fig. 9": ("p", [{"rho": 0.8, "p": p} for p in PS]),
}
"""Figs. 5 and 7-9's parameter points (Fig. 6 is Fig. 5's runs); every other parameter
is Fig. 2's (mu3 = 0.7, p = 0.6, c1 = 2, c2 = 1)."""


def full_point(point: Mapping) -> dict:
    """A figure point with every parameter the simulation takes (Fig. 2's by default:
    rho = 0.8, mu3 = 0.7, p = 0.6, c1 = 2, c2 = 1)."""
    full = {"rho": 0.8, "mu3": EXPERIMENT_1["mu3"], "p": EXPERIMENT_1["p"], "c1": 2.0, "c2": 1.0}
    full.update({k: float(v) for k, v in point.items()})
    return full
