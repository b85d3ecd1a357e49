"""The explorers' shared core (ipywidgets): serialised callbacks, the status line,
sliders, and figures drawn outside pyplot and shown as PNGs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import ipywidgets as w
import pandas as pd
from IPython.display import HTML
from matplotlib.figure import Figure

from ..errors import (
    InvalidParameter,
    InvalidType,
    check_bool,
    check_each,
    check_int,
    check_real,
    reworded,
)
from ..plots import show
from ..tables import to_html

__all__ = [
    "dropdown",
    "figure",
    "hint",
    "live",
    "row",
    "serial",
    "show",
    "slider",
    "status_line",
    "table",
]


def _callable(name: str, value: object) -> Callable[[], None]:
    if not callable(value):
        raise InvalidType(f"{name} must be a function of no arguments, got {value!r:.80}")
    return value


def serial(run: Callable[[], None], status: w.HTML | None = None) -> Callable[..., None]:
    """``run`` as a widget callback that never overlaps itself: widget messages may
    arrive on another kernel thread (JupyterLab's subshells), and two drawings at once
    gave blank charts. A change made during a run is picked up when it ends; ``status``
    (None or a ``w.HTML``, :func:`status_line`) shows that a run is under way. ``run``
    must be callable without arguments."""
    _callable("run", run)
    if status is not None and not isinstance(status, w.HTML):
        raise InvalidType(f"status must be None or a status_line() (w.HTML), got {status!r:.80}")
    lock, again = threading.Lock(), [False]

    def callback(*_):
        again[0] = True
        while again[0] and lock.acquire(blocking=False):
            try:
                while again[0]:
                    again[0] = False
                    if status is not None:
                        status.value = "<i>computing...</i>"
                    run()
            finally:
                if status is not None:
                    status.value = ""
                lock.release()

    return callback


def live(
    update: Callable[[], None], controls: Iterable[w.ValueWidget], status: w.HTML | None = None
) -> None:
    """Run ``update`` (serialised, see :func:`serial`, which checks ``update`` and
    ``status``) now and on every change of a control's value; ``controls`` is a sequence
    of ipywidgets value widgets (sliders, dropdowns)."""
    callback = serial(_callable("update", update), status)
    for control in check_each("controls", controls, _control):
        control.observe(callback, names="value")
    callback()


def _control(name: str, value: object) -> w.ValueWidget:
    if not isinstance(value, w.ValueWidget):
        raise InvalidType(
            f"{name} must be an ipywidgets control (a slider, ...), got {value!r:.80}"
        )
    return value


def status_line() -> w.HTML:
    """Where :func:`serial` says that a run is under way."""
    return w.HTML(value="", layout=w.Layout(min_width="8em"))


def figure(width: float, height: float, ncols: int = 1, nrows: int = 1, *, sharey: bool = False):
    """A figure outside pyplot's global state (safe under concurrent callbacks):
    ``width`` and ``height`` in inches (numbers > 0), ``ncols`` and ``nrows`` whole numbers
    >= 1, ``sharey`` a bool."""
    width, height = check_real("width", width, above=0), check_real("height", height, above=0)
    ncols = check_int("ncols", ncols, minimum=1)
    nrows = check_int("nrows", nrows, minimum=1)
    sharey = check_bool("sharey", sharey)
    fig = Figure(figsize=(width, height))
    return fig, fig.subplots(nrows, ncols, squeeze=True, sharey=sharey)


def slider(kind, value, lo, hi, step, label, tip: str = "", *, name: str | None = None):
    """A ``kind`` slider (``w.IntSlider``, ``w.FloatSlider``) that reports on release;
    ``tip``: the tooltip that explains it.

    ``value`` must lie in the slider's range ``[lo, hi]`` (a whole number for an
    ``IntSlider``): ipywidgets would move a value outside it to the nearer end without a
    word, so the explorer would show another setting than the one asked for. Anything
    else is an :class:`~hpcmodels.errors.InvalidParameter` naming ``name`` (the
    explorer's argument that set the value; default: the label), the value and the
    range; a ``kind`` other than those two is an :class:`~hpcmodels.errors.InvalidType`."""
    if kind not in (w.IntSlider, w.FloatSlider):
        raise InvalidType(f"kind must be w.IntSlider or w.FloatSlider, got {kind!r:.80}")
    what = name or label
    whole = kind is w.IntSlider
    try:
        if whole:
            value = check_int(what, value, minimum=lo, maximum=hi)
        else:
            value = check_real(what, value, at_least=lo, at_most=hi)
    except InvalidParameter as err:
        number = "a whole number" if whole else "a number"
        raise reworded(
            err, f"{what} must be {number} in the slider's range [{lo}, {hi}], got {value!r}"
        ) from None
    return kind(
        value=value,
        min=lo,
        max=hi,
        step=step,
        description=label,
        tooltip=tip or None,
        style={"description_width": "initial"},
        continuous_update=False,
        # the label in full and a track of TRACK_PX beside it: a row of long labels
        # squeezed the tracks to 20-35 px, too short to drag; :func:`row` wraps instead
        layout=w.Layout(min_width=f"{_label_px(label) + TRACK_PX}px"),
    )


TRACK_PX = 200
"""The shortest slider track the explorers draw, in pixels, with its readout."""


def _label_px(label: str) -> int:
    """About how wide ``label`` is drawn in the widgets' 13 px font."""
    return 8 * len(label) + 16


def row(children) -> w.HBox:
    """Widgets side by side, wrapping onto the next line where the page is too narrow
    for them (an ``HBox`` shrinks its sliders instead). ``children`` is a sequence of
    ipywidgets widgets, else an :class:`~hpcmodels.errors.InvalidType` naming it."""
    children = check_each("children", children, _widget)
    return w.HBox(children, layout=w.Layout(flex_flow="row wrap"))


def _widget(name: str, value: object) -> w.Widget:
    if not isinstance(value, w.Widget):
        raise InvalidType(f"{name} must be an ipywidgets widget, got {value!r:.80}")
    return value


def dropdown(options, value, label: str, tip: str = "") -> w.Dropdown:
    """A dropdown with its label in full and ``tip`` as its tooltip; ``options`` a
    sequence of values or (label, value) pairs and ``value`` one of the values (else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the label: ipywidgets would say
    only "value not found")."""
    options = check_each("options", options)
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    if value not in values:
        raise InvalidParameter(f"{label} must be one of {values}, got {value!r:.80}")
    return w.Dropdown(
        options=options,
        value=value,
        description=label,
        tooltip=tip or None,
        style={"description_width": "initial"},
    )


def hint() -> w.HTML:
    """A line under the controls that says what a control does now (or that it has no
    effect at the current setting)."""
    return w.HTML(value="")


def table(frame: pd.DataFrame, index: bool = False) -> HTML:
    """``frame`` as an explorer shows a table (:func:`hpcmodels.tables.to_html`: missing
    values as "—", each column at one precision, never wider than the page), the index
    only with ``index=True`` (a row number means nothing to a reader). ``frame`` is a
    pandas DataFrame and ``index`` a bool, else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument."""
    return HTML(to_html(frame, index=check_bool("index", index)))
