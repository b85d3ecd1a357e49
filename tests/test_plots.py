import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from hpcmodels import plots  # noqa: E402
from hpcmodels.errors import InvalidParameter, InvalidType  # noqa: E402
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


# ---------------------------------------------------------------- bad input (issue 25)

DEPTH = pd.DataFrame({"att": [900.0, 700.0], "activations": [5, 5],
                      "changes vs depth 1": [0, 3]}, index=[1, "all"])  # fmt: skip
FIG8 = pd.DataFrame({"TLA": [500.0, 520.0], "FF": [600.0, 600.0]}, index=[1.0, 2.0])
FIG12 = pd.DataFrame({"depth": [1, "all"], "policy": ["best_fit"] * 2, "att": [700.0, 650.0]})
FIG13 = pd.DataFrame({"allocation depth": [1, 2], "att": [640.0, 660.0]})
TITLES = dict.fromkeys(("fig8", "fig12", "fig13"), "quick")


def _knobs(**change):
    args = {"fig8": FIG8, "fig12": FIG12, "fig13": FIG13, "titles": TITLES, **change}
    return lambda: plots.tla_knob_panels(**args)


PLOT_CASES = [
    (lambda: plots.depth_panels([900.0, 700.0], "t"), InvalidType, r"depth must be a pandas DataFrame"),
    (lambda: plots.depth_panels(None, "t"), InvalidType, r"depth must be a pandas DataFrame"),
    (lambda: plots.depth_panels(DEPTH.drop(columns="changes vs depth 1"), "t"), InvalidParameter,
     r"depth lacks column\(s\) \['changes vs depth 1'\]"),
    (lambda: plots.depth_panels(DEPTH.iloc[:0], "t"), InvalidParameter, r"depth is empty"),
    (lambda: plots.depth_panels(DEPTH, None), InvalidType, r"title must be a string"),
    (_knobs(fig8=FIG8.to_dict()), InvalidType, r"fig8 must be a pandas DataFrame"),
    (_knobs(fig8=FIG8.iloc[:0]), InvalidParameter, r"fig8 is empty"),
    (_knobs(fig8=FIG8[[]]), InvalidParameter, r"fig8 is empty \(2 rows, columns \[\]\)"),
    (_knobs(fig12=FIG12.drop(columns="policy")), InvalidParameter,
     r"fig12 lacks column\(s\) \['policy'\]"),
    (_knobs(fig12=FIG12.iloc[:0]), InvalidParameter, r"fig12 is empty"),
    (_knobs(fig13=FIG13.rename(columns={"allocation depth": "depth"})), InvalidParameter,
     r"fig13 lacks column\(s\) \['allocation depth'\]"),
    (_knobs(fig13=[1, 2]), InvalidType, r"fig13 must be a pandas DataFrame"),
    (_knobs(titles=["quick"] * 3), InvalidType, r"titles must be a dict"),
    (_knobs(titles={"fig8": "a", "fig13": "b"}), InvalidParameter, r"titles lacks key\(s\) \['fig12'\]"),
    (_knobs(titles={**TITLES, "fig13": 13}), InvalidType, r"titles\['fig13'\] must be a string"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "message"), PLOT_CASES)
def test_section5_panels_refuse_bad_input_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
    plt.close("all")


def test_section5_panels_draw_valid_frames():
    fig = plots.tla_knob_panels(FIG8, FIG12, FIG13, TITLES)
    assert [len(ax.lines) for ax in fig.axes] == [2, 1, 1]
    depth = plots.depth_panels(DEPTH, "quick")
    assert len(depth.axes[1].patches) == 2
    plt.close("all")


def test_the_penalty_panels_draw_each_limit_in_its_own_style_whatever_the_row_order():
    """Figs. 9-11 (quick and paper scale): No Share solid, Migration Only dashed, Ideal
    dotted, whether the limits frame lists them in that order or alphabetically."""
    curves = pd.DataFrame(
        {"clusters": 2, "bsbw": [800.0, 900.0] * 2, "model": ["dynamic"] * 2 + ["fixed"] * 2,
         "penalty": [1.0, 1.1] * 2, "att": [500.0, 600.0, 480.0, 560.0]}
    )  # fmt: skip
    for order in (["no_share", "migration_only", "ideal"], ["ideal", "migration_only", "no_share"]):
        att = {"no_share": 1400.0, "migration_only": 750.0, "ideal": 460.0}
        lims = pd.DataFrame({"clusters": 2, "strategy": order, "att": [att[s] for s in order]})
        fig = plots.penalty_panels(curves, lims)
        styles = {line.get_label(): line.get_linestyle() for line in fig.axes[0].get_lines()}
        assert styles["no share"] == "-" and styles["migration only"] == "--"
        assert styles["ideal"] == ":"
        plt.close(fig)


def _wins() -> pd.DataFrame:
    rows = []
    for w in ("SDSC SP2", "Lublin99"):
        for i, load in enumerate(("low", "high")):
            for j, sh in enumerate((0.0, 0.2)):
                rows.append(dict(workload=w, load=load, sh=sh, winner="TLA" if i else "Best Fit",
                                 relative=-0.12 * (j + 1) if i else -0.004, clear=bool(i)))  # fmt: skip
    return pd.DataFrame(rows)


def test_the_win_map_colours_each_winner_once_and_marks_ties():
    fig = plots.win_map_panels(_wins(), "load", "sh", "a map")
    left, right = fig.axes
    assert [a.get_title() for a in (left, right)] == ["SDSC SP2", "Lublin99"]
    texts = [t.get_text() for t in left.texts]
    assert texts == ["-0.4 %\ntie", "-0.4 %\ntie", "-12 %", "-24 %"]
    colours = {tuple(p.get_facecolor()[:3]) for p in left.patches}
    assert len(colours) == 2  # one colour per winner
    faded = [p.get_alpha() for p in left.patches]
    assert faded == [0.35, 0.35, 1.0, 1.0]
    legend = [t.get_text() for t in right.get_legend().get_texts()]
    assert legend[:2] == ["Best Fit", "TLA"] and "within noise" in legend[2]


@pytest.mark.parametrize(
    "wins, message",
    [
        (_wins().iloc[:0], "wins is empty"),
        (pd.concat([_wins(), _wins()]), "several rows per"),
        (_wins().drop(columns="clear"), "lacks column"),
        ("wins.csv", "must be a pandas DataFrame"),
    ],
)
def test_the_win_map_refuses_bad_input(wins, message):
    with pytest.raises(InvalidParameter, match=message):
        plots.win_map_panels(wins)


def _cell_colours(fig) -> dict[str, tuple]:
    """Each winner's cell colour in a win map (read from the legend, which names them)."""
    legend = fig.axes[-1].get_legend()
    pairs = zip(legend.get_texts(), legend.get_patches(), strict=True)
    return {t.get_text(): tuple(p.get_facecolor()[:3]) for t, p in pairs}


def test_a_method_keeps_its_colour_from_one_win_map_to_the_next():
    """TLA's colour does not depend on which other methods win somewhere (issue 52: TLA
    was orange in one map and green in another), and it is the suite's colour."""
    from matplotlib.colors import to_rgb

    one = _wins()
    other = one.assign(winner=one["winner"].replace({"Best Fit": "AI2"}))
    other.loc[0, "winner"] = "Worst Fit"
    first, second = plots.win_map_panels(one), plots.win_map_panels(other)
    assert (
        _cell_colours(first)["TLA"]
        == _cell_colours(second)["TLA"]
        == to_rgb(plots.method_colour("TLA"))
    )
    assert len({_cell_colours(second)[m] for m in ("TLA", "AI2", "Worst Fit")}) == 3


def test_every_method_of_the_suite_has_its_own_colour_within_its_group():
    from hpcmodels.papers.across.methods import GROUPS
    from hpcmodels.papers.he2006.published import ALGORITHMS
    from hpcmodels.papers.shih2013.published import METHODS as SHIH

    for names in (*GROUPS.values(), list(ALGORITHMS), list(SHIH)):
        colours = [plots.method_colour(n) for n in names]
        assert None not in colours, dict(zip(names, colours, strict=True))
        assert len(set(colours)) == len(names), names
    assert (
        plots.method_colour("BF")
        == plots.method_colour("best_fit")
        == (plots.method_colour("Best Fit"))
    )
    assert plots.method_colour("queue length") is None  # no method: matplotlib's next colour
    with pytest.raises(InvalidType, match="name must be a method's name"):
        plots.method_colour(3)


def test_a_win_map_says_what_its_numbers_are():
    fig = plots.win_map_panels(_wins())
    assert plots.CELL_NUMBER in [t.get_text() for t in fig.texts]


def _effects():
    return pd.DataFrame(
        {
            "reading": ["ties to the last cluster", "requested times", "larger root"],
            "change": [0.5, -3.0, 1.5],
            "low": [0.1, -3.6, 1.0],
            "high": [0.9, -2.4, 2.0],
        }
    )


def test_a_tornado_chart_puts_the_largest_change_on_top_and_colours_moves_towards_the_paper():
    ax = plots.tornado(_effects(), title="A1", needed=-6.0, tolerance=2.0, unit="points")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["ties to the last cluster", "larger root", "requested times"]
    widths = [bar.get_width() for bar in ax.patches if hasattr(bar, "get_width")][:3]
    assert widths == [0.5, 1.5, -3.0]
    colours = [bar.get_facecolor()[:3] for bar in ax.patches[:3]]
    green = matplotlib.colors.to_rgb("#009e73")
    assert [c == green for c in colours] == [False, False, True]
    assert "points" in ax.get_xlabel()
    plt.close(ax.figure)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(change=[np.nan, 0, 0]), "finite"),
        (dict(low=[0.6, -3.6, 1.0]), "low <= change <= high"),
        (dict(reading=None), "reading"),
    ],
)
def test_a_tornado_chart_refuses_bad_effects_naming_them(change, message):
    effects = _effects()
    for column, values in change.items():
        if values is None:
            effects = effects.drop(columns=column)
        else:
            effects[column] = values
    with pytest.raises(InvalidParameter, match=message):
        plots.tornado(effects)


@pytest.mark.parametrize("bad", [float("nan"), True, "3", float("inf")])
def test_a_tornado_chart_refuses_a_needed_change_that_is_not_a_number(bad):
    with pytest.raises(InvalidParameter, match="needed"):
        plots.tornado(_effects(), needed=bad)


def test_a_tornado_chart_refuses_an_empty_frame():
    with pytest.raises(InvalidParameter, match="empty"):
        plots.tornado(_effects().head(0))
