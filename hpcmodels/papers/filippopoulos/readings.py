"""What moves the residuals (issue 53): the paper's unstated choices as data
(:data:`READINGS`), the cells of Figs. 5-9 whose paper-scale verdict stays ``differs``
with no cause found (:data:`RESIDUAL_CELLS`), and each reading's effect on each cell.

Every value is exact: the long-run average cost of the optimal, heuristic and local
policies on the truncated chain (:meth:`~hpcmodels.mdp.CoallocationMDP.average_cost`,
from the stationary distribution), so a reading's change to a cell has no noise and its
paired 95 % interval has zero width. The store keeps them (:func:`reading_point`, study
``"readings"``); :func:`stored_readings` reads them back, :func:`readings_cause` turns
them into a report row's reason and :func:`tornadoes` draws them. A reading that brings
a cell within the paper's claim is reported as such; it never becomes the default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from ...errors import InvalidParameter, InvalidType, check_choice, check_frame
from ...mdp import CoallocationMDP, solve
from ..ensemble import summarize
from ..verdicts import alike
from .model import PRINTED_RULE, HeuristicRule, check_truncation, heuristic_actions, model
from .published import SIM_FIGURES, STATEMENTS, full_point


@dataclass(frozen=True)
class Reading:
    """One way of reading an unstated (or contested) choice of the paper.

    ``name`` is the store's key, ``label`` the chart's; ``passage`` the paper's text
    that leaves room for it; ``text_argues`` whether that text argues ``"for"`` it,
    ``"against"`` it or ``"neither"``. What it changes: the Bellman equation's
    self-transition (``self_loop``), the heuristic's rule (``rule``), the truncation
    (``delta_factor`` times the cell's Delta), the discount factor of the optimum
    (``beta``; None: the printed 0.05) and the cost the figures read (``criterion``:
    ``"average"`` per unit time, or ``"discounted"``, beta J(empty system))."""

    name: str
    label: str
    passage: str
    text_argues: str
    self_loop: str = "pre_action"
    rule: HeuristicRule = field(default=PRINTED_RULE)
    delta_factor: int = 1
    beta: float | None = None
    criterion: str = "average"


READINGS = (
    Reading(
        "default",
        "as printed",
        "Sec. 3's Bellman equation, Sec. 6's rule p c1 q1 > c2 q2, Delta = 30, beta = 0.05",
        "for",
    ),
    Reading(
        "post_action",
        "self-transition to the post-action state",
        "Sec. 3: '(v - r_d(i)) J(S)' in the truncated equation; the general form prints "
        "'(nu - nu_i(u)) J(u)'",
        "against",
        self_loop="post_action",
    ),
    Reading(
        "rule_without_p",
        "rule c1 q1 > c2 q2 (without p)",
        "Sec. 6: 'We find by experiment that this policy outperforms the policy that "
        "co-allocates jobs when c1 q1 > c2 q2 and x1 = 1 hold.'",
        "against",
        rule=HeuristicRule(with_p=False),
    ),
    Reading(
        "rule_at_least",
        "rule p c1 q1 >= c2 q2",
        "Sec. 6: 'co-allocating jobs when the cost in cluster 1 becomes greater than cost "
        "in cluster 2' (the rule prints >)",
        "against",
        rule=HeuristicRule(strict=False),
    ),
    Reading(
        "rule_q1_behind_head",
        "rule with q1 - 1 (head job not counted)",
        "Sec. 6's rule names q1 without saying whether the head job (the one to be "
        "co-allocated) counts",
        "neither",
        rule=HeuristicRule(head_in_q1=False),
    ),
    Reading(
        "rule_q2_waiting",
        "rule with q2 - 1 (job in service not counted)",
        "Sec. 6's rule names q2 without saying whether cluster 2's job in service counts",
        "neither",
        rule=HeuristicRule(service_in_q2=False),
    ),
    Reading(
        "delta_twice",
        "Delta doubled (60 for the printed 30)",
        "Sec. 4: 'The greater the truncation level Delta is, the more probable is that the "
        "policy we compute is indeed the optimal one'; 'We choose Delta = 30'",
        "against",
        delta_factor=2,
    ),
    Reading(
        "beta_small",
        "optimum with beta = 0.01 (towards average cost)",
        "Sec. 4: 'We choose a value close to zero since we are interested in the behavior "
        "of the system when operating for a long time'; 'We set beta = 0.05'",
        "against",
        beta=0.01,
    ),
    Reading(
        "discounted",
        "cost read discounted, beta J(empty)",
        "Sec. 3 minimises 'the expected total discounted cost'; Sec. 6: 'policies are "
        "compared with respect to the average cost criterion'",
        "against",
        criterion="discounted",
    ),
)
"""The readings tried on every residual cell; the first is the default (the paper as
printed, the one the notebook and the store's simulated runs use)."""
READING_NAMES = tuple(r.name for r in READINGS)
_BY_NAME = {r.name: r for r in READINGS}

NOT_COMPUTED = {
    "warm-up and run length": "the simulation's, not the chain's: bounded instead by how "
    "far the store's simulated means lie from the exact default (readings_cause)",
    "beta -> 0 (the average-cost optimum itself)": "beta = 0.001 does not converge within "
    "10,000 steps of modified policy iteration (measured); beta = 0.01 is the reading",
}
"""Choices without an exact reading here, and why."""


@dataclass(frozen=True)
class Cell:
    """A point of a statement of :data:`~.published.STATEMENTS` where the paper-scale
    verdict is ``differs`` with no cause found: ``statement`` its key, ``value`` the
    figure's x there."""

    statement: str
    value: float

    @property
    def figure(self) -> str:
        return STATEMENTS[self.statement].item

    @property
    def x(self) -> str:
        return SIM_FIGURES[self.figure][0]

    @property
    def params(self) -> dict:
        """The model's parameters at the cell (rho, mu3, p, c1, c2)."""
        x, points = SIM_FIGURES[self.figure]
        (point,) = [full_point(p) for p in points if full_point(p)[x] == self.value]
        return point

    @property
    def close(self) -> bool:
        """A "close" statement (judged on the heuristic's gap to the optimum, in %);
        else "the heuristic beats the local policy" (judged on heuristic - local)."""
        return STATEMENTS[self.statement].form == "close"

    @property
    def title(self) -> str:
        quantity = "heuristic gap to the optimum" if self.close else "heuristic - local"
        return f"{self.figure}, {self.x} = {self.value:g}: {quantity}"


RESIDUAL_CELLS = (
    Cell("fig5 close", 0.8),
    Cell("fig5 beats local", 0.9),
    Cell("fig7 close", 0.8),
    Cell("fig7 close", 0.83),
    Cell("fig8 close", 0.6),
    Cell("fig8 close", 0.7),
    Cell("fig9 close", 0.4),
    Cell("fig9 close", 0.6),
)
"""The cells the store's paired runs judge ``differs`` with "cause not identified"
(build/REPORT.md at issue 53). Fig. 5 at rho = 0.8, Fig. 8 at mu3 = 0.7 and Fig. 9 at
p = 0.6 are one parameter point (Fig. 2's), kept once per figure."""
POLICY_NAMES = ("optimal", "heuristic", "local")


def reading_key(figure: str, reading: str, policy: str, x: str, value: float) -> str:
    """The store's item key of one policy's exact cost under one reading at one point."""
    return f"{figure} | reading {reading}: {policy} exact cost at {x} = {value:g}"


def discounted_cost(mdp: CoallocationMDP, policy: np.ndarray) -> float:
    """``beta J_pi(empty system)``: the policy's expected total discounted cost from the
    empty system (Sec. 3's criterion, under the Bellman equation as the model builds
    it), times beta so that it reads as a cost per unit time. ``J_pi`` solves
    ``((nu + beta) I - P_pi) J = c`` exactly (a sparse solve)."""
    policy = mdp.check_policy(policy)
    p0, p1 = mdp.transition_matrices()
    chosen = sp.diags(policy.astype(float))
    rates = p0 - chosen @ p0 + chosen @ p1
    system = (sp.identity(mdp.n_states) * (mdp.nu + mdp.beta) - rates).tocsc()
    values = spsolve(system, mdp.cost)
    return float(mdp.beta * values[mdp.index((0, 0, 0, 0, 0, 0))])


def _reading(name: object) -> Reading:
    return _BY_NAME[check_choice("reading", name, READING_NAMES)]


def reading_point(reading: str, params: Mapping, truncation: int = 30) -> dict[str, float]:
    """The exact costs of the optimal, heuristic and local policies under ``reading``
    (a name of :data:`READING_NAMES`) at the parameters ``params`` (rho, mu3, p, c1,
    c2): ``{policy: cost}``. ``truncation`` is the cell's Delta (a whole number in [1,
    1000]); the reading may double it. A bad name, parameter or Delta is an
    :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    chosen = _reading(reading)
    truncation = check_truncation(truncation)
    if not isinstance(params, Mapping):
        raise InvalidType(f"params must be a mapping of parameters, got {type(params).__name__}")
    changes = {} if chosen.beta is None else {"beta": chosen.beta}
    mdp = model(
        check_truncation(truncation * chosen.delta_factor),
        self_loop=chosen.self_loop,
        **{**params, **changes},
    )
    policies = {
        "optimal": solve(mdp).policy,
        "heuristic": heuristic_actions(mdp, chosen.rule),
        "local": np.zeros(mdp.n_states, np.int8),
    }
    if chosen.criterion == "discounted":
        return {k: discounted_cost(mdp, v) for k, v in policies.items()}
    return {k: mdp.average_cost(v) for k, v in policies.items()}


def _frame(records: list[dict]) -> pd.DataFrame:
    """Records (cell, reading, the three costs) as the readings frame: plus the judged
    quantities (gap %, heuristic - local) and their change from the default reading."""
    frame = pd.DataFrame(records)
    frame["gap_pct"] = 100 * (frame["heuristic"] / frame["optimal"] - 1)
    frame["h_minus_l"] = frame["heuristic"] - frame["local"]
    frame["quantity"] = np.where(frame["close"], frame["gap_pct"], frame["h_minus_l"])
    default = frame[frame["reading"] == "default"].set_index(["figure", "value"])["quantity"]
    frame["change"] = frame["quantity"] - [
        default.get((f, v), np.nan) for f, v in zip(frame["figure"], frame["value"], strict=True)
    ]
    frame["ci"] = 0.0  # exact values: no noise, the paired 95 % interval has zero width
    frame["within_claim"] = [
        alike([h, o]) if c else h - lo < 0
        for c, h, o, lo in frame[["close", "heuristic", "optimal", "local"]].to_numpy()
    ]
    return frame


def _cells(cells: object) -> list[Cell]:
    if isinstance(cells, Cell):
        cells = [cells]
    if isinstance(cells, str) or not isinstance(cells, Sequence) or not cells:
        raise InvalidParameter(f"cells must be a non-empty sequence of Cell, got {cells!r:.80}")
    for c in cells:
        if not isinstance(c, Cell):
            raise InvalidType(f"cells must hold Cell objects, got {c!r:.80}")
    return list(cells)


def reading_costs(
    cells: Sequence[Cell] = RESIDUAL_CELLS,
    readings: Sequence[str] = READING_NAMES,
    truncation: int = 30,
) -> pd.DataFrame:
    """Every reading at every cell, computed now (the store keeps the same numbers,
    :func:`stored_readings`): one row per (cell, reading) with the exact ``optimal``,
    ``heuristic`` and ``local`` costs, ``gap_pct`` (100 (heuristic / optimal - 1)),
    ``h_minus_l``, the cell's judged ``quantity`` (the gap for "close", else h - l), its
    ``change`` from the default, ``ci`` (0: exact) and ``within_claim``. ``readings``
    are names of :data:`READING_NAMES` (the default among them for ``change``);
    ``truncation`` the cells' Delta. Bad input is an InvalidParameter naming it."""
    cells = _cells(cells)
    if isinstance(readings, str) or not isinstance(readings, Sequence) or not readings:
        raise InvalidParameter(f"readings must be a non-empty list of names, got {readings!r:.80}")
    names = [_reading(r).name for r in readings]
    truncation = check_truncation(truncation)
    records = []
    for cell in cells:
        for name in names:
            costs = reading_point(name, cell.params, truncation)
            records.append(_record(cell, name, costs))
    return _frame(records)


def _record(cell: Cell, name: str, costs: Mapping) -> dict:
    return {
        "statement": cell.statement,
        "figure": cell.figure,
        "x": cell.x,
        "value": cell.value,
        "close": cell.close,
        "reading": name,
        "label": _BY_NAME[name].label,
        **{p: float(costs[p]) for p in POLICY_NAMES},
    }


def reading_points(truncation: int = 30) -> list[dict]:
    """The store's points of the readings (study ``"readings"``, ``replicate`` 0): one
    per residual cell and reading, the keyword arguments of
    :func:`~.ensemble.ensemble_point`."""
    return [
        {
            "figure": cell.figure,
            **cell.params,
            "truncation": truncation,
            "study": "readings",
            "reading": name,
            "replicate": 0,
        }
        for cell in RESIDUAL_CELLS
        for name in READING_NAMES
    ]


def stored_readings(store: pd.DataFrame, cells: Sequence[Cell] = RESIDUAL_CELLS) -> pd.DataFrame:
    """:func:`reading_costs`'s frame read from the store (no recomputation); the cells
    and readings the store lacks are left out (an empty frame when it has none).
    ``store`` is a store frame (columns ``item``, ``value``)."""
    check_frame("store", store, ["item", "value"])
    stored = dict(zip(store["item"], store["value"], strict=True))
    records = []
    for cell in _cells(cells):
        for name in READING_NAMES:
            keys = {p: reading_key(cell.figure, name, p, cell.x, cell.value) for p in POLICY_NAMES}
            if all(k in stored for k in keys.values()):
                records.append(_record(cell, name, {p: stored[k] for p, k in keys.items()}))
    return _frame(records) if records else pd.DataFrame()


def _cell_rows(frame: pd.DataFrame, statement: str, value: float) -> pd.DataFrame:
    if frame.empty:
        return frame
    return frame[(frame["statement"] == statement) & np.isclose(frame["value"], value)]


def _simulation_gap(rows: pd.DataFrame, runs: Mapping, value: float) -> str:
    """How far the store's simulated means lie from the exact default at one cell: what
    warm-up and run length can move (they move the runs, not the chain), beside how far
    the cell is from the claim in cost (heuristic - 1.05 optimal, or heuristic - local)."""
    default = rows[rows["reading"] == "default"].iloc[0]
    parts, inside, largest = [], True, 0.0
    for policy in POLICY_NAMES:
        s = summarize(runs[value, policy])
        d = s.mean - default[policy]
        inside &= abs(d) <= s.ci
        largest = max(largest, abs(d))
        parts.append(f"{policy} {d:+.3g} ± {s.ci:.2g}")
    close = bool(default["close"])
    off = default["heuristic"] - (1.05 * default["optimal"] if close else default["local"])
    return (
        f"the store's simulated means minus the exact default: {', '.join(parts)} "
        f"({'within' if inside else 'not all within'} their 95 % intervals): warm-up and "
        f"run length move a mean by about {largest:.2g}, the cell is {off:.3g} from the claim"
    )


def readings_cause(
    frame: pd.DataFrame, statement: str, values: Sequence[float], runs: Mapping | None = None
) -> str | None:
    """The reason of a report row that fails at ``values`` of ``statement``: each
    reading's value of the judged quantity there (from :func:`stored_readings`'s
    ``frame``, exact), which readings bring the cell within the claim (reported as
    fitting, never made the default), and, given the figure's ``runs`` (``{(x, policy):
    costs}``), how far the simulated means lie from the exact default. A value the
    frame lacks says so; None when it lacks them all (no values included: the row then
    keeps "cause not identified"). ``statement`` is a key of
    :data:`~.published.STATEMENTS`."""
    check_choice("statement", statement, list(STATEMENTS))
    parts, close = [], STATEMENTS[statement].form == "close"
    for value in values:
        rows = _cell_rows(frame, statement, value)
        if rows.empty or "default" not in set(rows["reading"]):
            parts.append(f"at {value:g}: no readings stored (not a residual cell)")
            continue
        shown = [
            f"{r.label} {r.quantity:.1f} %" if close else f"{r.label} {r.quantity:+.2f}"
            for r in rows.itertuples()
        ]
        fits = [r.label for r in rows.itertuples() if r.within_claim and r.reading != "default"]
        claim = "brings the gap within 5 %" if close else "makes the heuristic beat local"
        if fits:
            outcome = (
                f"{'; '.join(fits)} {claim} (a reading chosen because it fits: reported, "
                "not made the default)"
            )
        else:
            outcome = f"none {claim}"
        text = f"at {value:g}: {', '.join(shown)}; {outcome}"
        if runs is not None:
            text += "; " + _simulation_gap(rows, runs, value)
        parts.append(text)
    if all(p.endswith("(not a residual cell)") for p in parts):
        return None
    quantity = "heuristic gap to the optimum" if close else "heuristic - local"
    return (
        f"readings tried ({quantity}; exact, truncated chain: no noise, every paired 95 % "
        "interval has zero width) " + " | ".join(parts)
    )


def tornadoes(frame: pd.DataFrame, ncols: int = 2):
    """One tornado chart (:func:`hpcmodels.plots.tornado`) per residual parameter point
    of :func:`stored_readings`'s ``frame``: each reading's change of the judged quantity
    from the default (the gap in percentage points, or heuristic - local), exact (zero
    width), against ``needed``: 5 - the default gap (how far the gap must fall to be
    within 5 %) or -(h - l) (how far h - l must fall to reach 0). Cells of different
    figures at one parameter point share a chart. Returns the matplotlib figure."""
    import matplotlib.pyplot as plt

    from ...plots import tornado

    check_frame("frame", frame, ["statement", "reading", "change", "quantity", "close"])
    groups: dict[tuple, list[Cell]] = {}
    for cell in RESIDUAL_CELLS:
        if not _cell_rows(frame, cell.statement, cell.value).empty:
            groups.setdefault((tuple(cell.params.items()), cell.close), []).append(cell)
    if not groups:
        raise InvalidParameter("frame holds no residual cell: nothing to draw")
    nrows = -(-len(groups) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(7 * ncols, 4.2 * nrows), squeeze=False)
    for ax, cells in zip(axes.flat, groups.values(), strict=False):
        rows = _cell_rows(frame, cells[0].statement, cells[0].value)
        default = float(rows.loc[rows["reading"] == "default", "quantity"].iloc[0])
        others = rows[rows["reading"] != "default"]
        effects = pd.DataFrame(
            {
                "reading": others["label"],
                "change": others["change"],
                "low": others["change"],
                "high": others["change"],
            }
        )
        close = cells[0].close
        where = " = ".join(f"{c.figure} {c.x} {c.value:g}" for c in cells)
        quantity = f"gap {default:.1f} %" if close else f"h - l {default:+.2f}"
        tornado(
            effects,
            title=f"{where}: {quantity} (default)",
            needed=(5.0 - default) if close else -default,
            unit="percentage points of the gap" if close else "heuristic - local cost",
            ax=ax,
        )
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def readings_list() -> pd.DataFrame:
    """:data:`READINGS` as a table: label, the passage that allows it, whether the text
    argues for it."""
    return pd.DataFrame(
        [(r.name, r.label, r.passage, r.text_argues) for r in READINGS],
        columns=["reading", "label", "passage", "the text argues"],
    )


def readings_table(frame: pd.DataFrame, column: str = "quantity") -> pd.DataFrame:
    """:func:`stored_readings`'s ``frame`` as readings (rows, by label) by cell (columns:
    figure and x), ``column`` the value shown (``"quantity"``: the gap in % for the
    "close" cells, heuristic - local for the other; or ``"gap_pct"``, ``"h_minus_l"``)."""
    check_frame("frame", frame, ["figure", "x", "value", "label", column])
    cell = frame["figure"] + ", " + frame["x"] + " = " + frame["value"].map("{:g}".format)
    return frame.assign(cell=cell).pivot_table(
        index="label", columns="cell", values=column, sort=False
    )
