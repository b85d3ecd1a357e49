"""What each reading of :mod:`.readings` does to the residual cells, judged from the
paper-scale store: per cell and reading, the default's value and the reading's on the
same replicates, their paired change with its 95 % interval, and whether the reading
brings the cell within the report's tolerance of the paper (issue 53).

Nothing is recomputed here: every number comes from the store's ``table4`` and
``readings`` rows, so the report quotes exactly what was run."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InvalidParameter, check_frame
from ..verdicts import TOLERANCES
from .ensemble import ensemble_key, tla_improvement
from .published import FIG10_ACTIVATIONS, METHODS, TABLE4, TABLE5
from .readings import READING_CELLS, READING_REPLICATES, READINGS, cells_of, reading_key

EFFECT_COLUMNS = [
    "item",
    "quantity",
    "reading",
    "label",
    "settled",
    "paper",
    "tolerance",
    "default",
    "value",
    "change",
    "low",
    "high",
    "replicates",
    "within",
    "residual",
]


def _runs(store: pd.DataFrame, item: str) -> pd.Series | None:
    from ..store import runs

    if not store["item"].eq(item).any():
        return None
    return runs(store, item)


def _paired(default: np.ndarray, reading: np.ndarray, statistic) -> tuple[float, float, float]:
    """The change ``statistic(reading means) - statistic(default means)`` on paired
    replicate tables, and its 95 % interval (whole replicates resampled, pairing kept)."""
    from ..ensemble import statistic_of_k

    table = np.column_stack([default, reading])
    width = default.shape[1]

    def change(means: np.ndarray) -> np.ndarray:
        return statistic(means[:, width:]) - statistic(means[:, :width])

    full = table.mean(axis=0, keepdims=True)
    lo, hi, _ = statistic_of_k(table, change, k=len(table))
    return float(change(full)[0]), min(lo, float(change(full)[0])), max(hi, float(change(full)[0]))


def _columns(store: pd.DataFrame, cell, reading: str, whats: list[str], defaults: list[str]):
    """(default table, reading table) of replicates x ``whats``, the reading's runs where
    it reran the quantity and the default's otherwise, on the replicates both hold; None
    when the store lacks the reading's runs."""
    wid, load, sh = cell
    default, under, rerun = [], [], False
    for what, key in zip(whats, defaults, strict=True):
        base = _runs(store, key)
        if base is None:
            return None
        alt = _runs(store, reading_key(wid, load, sh, reading, what))
        rerun |= alt is not None
        default.append(base)
        under.append(base if alt is None else alt)
    if not rerun:
        return None
    index = sorted(set.intersection(*(set(s.index) for s in default + under)))
    index = [r for r in index if r < READING_REPLICATES]
    if not index:
        return None
    take = lambda series: np.column_stack([s.loc[index].to_numpy(float) for s in series])  # noqa: E731
    return take(default), take(under)


def _targets(cell) -> list[tuple[str, str, str, list[str], list[str], object]]:
    """The report rows a residual cell holds: (item, quantity, kind, reading whats,
    default item keys, statistic)."""
    wid, load, sh = cell
    whats = [f"{m} ATT (s)" for m in METHODS]
    out = [
        (
            "Table 4",
            f"{wid}, {load} load, SH = {sh:g}: TLA improvement %",
            "percent",
            whats,
            [ensemble_key("Table 4", wid, load, sh, w) for w in whats],
            tla_improvement,
        )
    ]
    single = lambda means: means[:, 0]  # noqa: E731
    if wid == "A2" and sh == 0:
        for method in METHODS:
            key = ensemble_key("Table 5", wid, load, sh, method)
            out.append(
                (
                    "Table 5",
                    key.split(" | ")[1],
                    "fraction",
                    [f"{method} utilization"],
                    [key],
                    single,
                )
            )
    if (wid, load, sh) == ("A1", "high", 0.0):
        for what in ("TLA activations", "decisions changed against depth 1"):
            key = ensemble_key("Fig. 10", wid, load, sh, what)
            out.append(("Fig. 10", key.split(" | ")[1], "count", [what], [key], single))
    return out


def _paper(item: str, quantity: str, cell) -> float:
    wid, load, sh = cell
    if item == "Table 4":  # NaN: a cell Table 4's scrambled text does not place
        return float(TABLE4.get((wid, load, sh), "nan"))
    if item == "Table 5":
        return float(TABLE5.loc[load, quantity.split(", ")[-1]])
    return float(FIG10_ACTIVATIONS[0 if "activations" in quantity else 1])


def reading_effects(store: pd.DataFrame) -> pd.DataFrame:
    """Every (residual row, reading) the store holds, with :data:`EFFECT_COLUMNS`:
    ``default`` and ``value`` are the quantity on the default's and on the reading's
    runs of the same replicates (an improvement from the four methods' means; a mean
    otherwise), ``change`` their difference with its paired 95 % interval ``low`` to
    ``high``, ``within`` whether ``value`` lies within the report's tolerance of the
    paper, ``residual`` whether the row is one the readings study is about (a residual
    cell's quantity whose default lies outside that tolerance; the consistent set's
    other cells and a residual cell's matching quantities are not). A quantity the
    reading did not rerun (BF's utilization under a TLA-only reading) has no row."""
    check_frame("store", store, ["item", "value", "replicate"])
    rows = []
    for name, reading in READINGS.items():
        for cell in cells_of(name):
            for item, quantity, kind, whats, keys, statistic in _targets(cell):
                tables = _columns(store, cell, name, whats, keys)
                if tables is None:
                    continue
                default, under = tables
                paper = _paper(item, quantity, cell)
                tol = TOLERANCES[kind].of(paper) if np.isfinite(paper) else float("nan")
                change, lo, hi = _paired(default, under, statistic)
                base = float(statistic(default.mean(axis=0, keepdims=True))[0])
                value = base + change
                rows.append(
                    dict(
                        item=item,
                        quantity=quantity,
                        reading=name,
                        label=reading.label,
                        settled=reading.settled,
                        paper=paper,
                        tolerance=tol,
                        default=base,
                        value=value,
                        change=change,
                        low=lo,
                        high=hi,
                        replicates=len(default),
                        within=bool(abs(value - paper) <= tol),
                        residual=cell in READING_CELLS and not abs(base - paper) <= tol,
                    )
                )
    return pd.DataFrame(rows, columns=EFFECT_COLUMNS)


def _number(value: float, kind_tol: float, sign: str = "") -> str:
    """A count (tolerance 0) or a large value as a whole number with separators, any
    other value to three significant digits; ``sign="+"`` prints the sign."""
    if kind_tol == 0 or abs(value) >= 1000:
        return f"{value:{sign},.0f}"
    return f"{value:{sign}.3g}"


def _fitting(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The readings that bring a row within tolerance, split into those whose paired
    change is real (its 95 % interval excludes 0: an explanation) and those within it
    only by noise (the interval holds 0)."""
    fits = rows[rows["within"].astype(bool)]
    real = (fits["low"] > 0) | (fits["high"] < 0)
    return fits[real], fits[~real]


def reading_cause(effects: pd.DataFrame, item: str, quantity: str) -> str | None:
    """The report's reason for a residual row, quoting the readings tried: each reading's
    paired change and the value it gives, then the closest reading and whether any
    brings the row within tolerance (such a reading is reported, never made the
    default). None when ``effects`` has no reading of the row."""
    check_frame("effects", effects, EFFECT_COLUMNS)
    rows = effects[(effects["item"] == item) & (effects["quantity"] == quantity)]
    if rows.empty:
        return None
    n = int(rows["replicates"].min())
    paper, tol = float(rows["paper"].iloc[0]), float(rows["tolerance"].iloc[0])
    fmt = lambda v, sign="": _number(v, tol, sign)  # noqa: E731
    tried = "; ".join(
        f"{r.label}{' (the text argues against it)' if r.settled else ''}: "
        f"{fmt(r.change, '+')} [{fmt(r.low, '+')}, {fmt(r.high, '+')}] to {fmt(r.value)}"
        for r in rows.itertuples()
    )
    closest = rows.loc[(rows["value"] - paper).abs().idxmin()]
    explains, noise = _fitting(rows)
    if not explains.empty:
        verdict = (
            f"within tolerance under {', '.join(explains['label'])} (a reading chosen because "
            "it fits is reported, not made the default; docs/readings.md)"
        )
    else:
        verdict = (
            f"the closest, {closest['label']}, gives {fmt(closest['value'])}; no reading "
            f"listed moves it within {fmt(paper)} +- {tol:g} by more than noise"
        )
    if not noise.empty:
        verdict += (
            f" ({', '.join(noise['label'])} ends within it by a change whose 95 % interval "
            "holds 0: not an explanation)"
        )
    return (
        f"readings tried on {n} paired replicates (change from the default {fmt(rows['default'].iloc[0])}, "
        f"95 % interval, value): {tried}; {verdict}"
    )


def effects_of(effects: pd.DataFrame, item: str, quantity: str) -> pd.DataFrame:
    """The rows of ``effects`` for one report row (a tornado chart's input)."""
    check_frame("effects", effects, EFFECT_COLUMNS)
    rows = effects[(effects["item"] == item) & (effects["quantity"] == quantity)]
    if rows.empty:
        raise InvalidParameter(f"no reading of {item} | {quantity} in the effects")
    return rows.reset_index(drop=True)


def reading_conclusions(effects: pd.DataFrame) -> pd.DataFrame:
    """One line per residual row of ``effects``: the paper's value, ours at the default
    (the replicates the readings ran on), the reading that brings the row closest to
    the paper and its value, how many readings were tried, and the conclusion in words
    ("explained by ..." when a reading reaches the tolerance, else "not explained: ...")."""
    check_frame("effects", effects, EFFECT_COLUMNS)
    out = []
    residual = effects[effects["residual"].astype(bool)]
    for (item, quantity), rows in residual.groupby(["item", "quantity"], sort=False):
        paper, tol = float(rows["paper"].iloc[0]), float(rows["tolerance"].iloc[0])
        default = float(rows["default"].iloc[0])
        closest = rows.loc[(rows["value"] - paper).abs().idxmin()]
        explains, noise = _fitting(rows)
        towards = rows[np.sign(rows["change"]) == np.sign(paper - default)]
        if not explains.empty:
            said = "explained by " + ", ".join(explains["label"])
            said += " (the text argues against it)" if explains["settled"].all() else ""
        elif not noise.empty:
            said = (
                f"not explained: {', '.join(noise['label'])} ends within tolerance, but by a "
                "change whose 95 % interval holds 0"
            )
        else:
            said = (
                f"not explained: {len(towards)} of {len(rows)} readings move it towards the "
                f"paper, the closest ends {abs(closest['value'] - paper):.3g} away "
                f"(tolerance {tol:g})"
            )
        out.append(
            dict(
                item=item,
                quantity=quantity,
                paper=paper,
                ours=default,
                closest=closest["label"],
                closest_value=float(closest["value"]),
                readings=len(rows),
                conclusion=said,
            )
        )
    return pd.DataFrame(out)


def consistent_set(effects: pd.DataFrame, reading: str = "open_readings") -> pd.DataFrame:
    """What one consistent set of readings (``reading``, a combination) does to every
    Table 4 cell it ran on, residual or matching today: the paper's value, ours at the
    default and under the set (the same replicates), whether each lies within the
    report's tolerance, and the change with its paired 95 % interval."""
    check_frame("effects", effects, EFFECT_COLUMNS)
    rows = effects[(effects["reading"] == reading) & (effects["item"] == "Table 4")]
    if rows.empty:
        raise InvalidParameter(f"no run of reading {reading!r} on Table 4 in the effects")
    within = lambda v: (v - rows["paper"]).abs() <= rows["tolerance"]  # noqa: E731
    return pd.DataFrame(
        {
            "quantity": rows["quantity"].str.replace(": TLA improvement %", "", regex=False),
            "residual": rows["residual"].astype(bool),
            "paper": rows["paper"],
            "default": rows["default"],
            "under the set": rows["value"],
            "change": rows["change"],
            "low": rows["low"],
            "high": rows["high"],
            "within (default)": within(rows["default"]),
            "within (set)": within(rows["value"]),
        }
    ).reset_index(drop=True)


def tornado_charts(effects: pd.DataFrame, *, columns: int = 2):
    """One tornado chart (:func:`hpcmodels.plots.tornado`) per residual row of
    ``effects``: each reading's change with its paired 95 % interval, the change the
    paper needs (paper - default) dashed and the tolerance around it shaded. Returns the
    figure."""
    import matplotlib.pyplot as plt

    from ...plots import tornado

    check_frame("effects", effects, EFFECT_COLUMNS)
    residual = effects[effects["residual"].astype(bool)]
    cells = residual.drop_duplicates(["item", "quantity"])[["item", "quantity"]]
    if cells.empty:
        raise InvalidParameter("effects is empty: no residual row to chart")
    n = len(cells)
    rows = -(-n // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(7 * columns, 3.2 * rows), squeeze=False)
    for ax, (item, quantity) in zip(axes.flat, cells.itertuples(index=False), strict=False):
        cell = effects_of(effects, item, quantity)
        first = cell.iloc[0]
        tornado(
            cell.assign(reading=cell["label"]),
            title=f"{item}: {quantity}\npaper {_number(first['paper'], first['tolerance'])}, "
            f"ours {_number(first['default'], first['tolerance'])}",
            needed=float(first["paper"] - first["default"]),
            tolerance=float(first["tolerance"]),
            ax=ax,
        )
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


__all__ = [
    "EFFECT_COLUMNS",
    "reading_effects",
    "reading_cause",
    "reading_conclusions",
    "consistent_set",
    "effects_of",
    "tornado_charts",
]
